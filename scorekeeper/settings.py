"""Scorekeeper settings: one file, driven by environment variables.

Variables (all optional for a local run):
  SECRET_KEY            signing key; without it one is generated once and kept in DATA_DIR.
                        More than one server: set it, the same on every one (a key each
                        generated in its own DATA_DIR would differ, and a session, a
                        message or a mailed link signed by one would fail on the other)
  DEBUG                 "1"/"true" for Django's debug pages (default off)
  ALLOWED_HOSTS         comma-separated host names (default: the loopback names)
  CSRF_TRUSTED_ORIGINS  comma-separated origins such as https://scores.example.org
  DATABASE_URL          e.g. postgres://user:pass@host:5432/name (default: SQLite in DATA_DIR)
  DATA_DIR              where the SQLite file and the generated key live (default: ./var);
                        created 0700, the key file and the SQLite file 0600
  HTTPS                 "1" when served over HTTPS behind a proxy that sets
                        X-Forwarded-Proto: turns on redirects, secure cookies and HSTS
  REDIS_URL             e.g. redis://127.0.0.1:6379/0: the cache (rate-limit counters)
                        lives in Redis; without it, in the database table
                        "scorekeeper_cache" (made by `manage.py createcachetable`).
                        Either way every worker and server shares the counters, stored
                        as plain JSON, never as a pickle (scorekeeper/plain_cache.py).
  REFEREE_PROCESSES     helper processes per worker for slow referee work (default 1;
                        0 runs it in the request's thread)
  FORWARDED_ALLOW_IPS   the proxies in front, trusted to say who the client is: comma-
                        separated addresses and networks (10.0.0.0/8), or "*" for
                        whoever connects (default 127.0.0.1). gunicorn reads the same
                        variable for X-Forwarded-Proto. The rate limits take a client's
                        address from X-Forwarded-For only when REMOTE_ADDR is one of
                        these proxies: the right-most entry that is not one of them
                        (each proxy must append to the header, as nginx's
                        $proxy_add_x_forwarded_for does); otherwise REMOTE_ADDR. With
                        "*" only the right-most entry counts. HTTPS=1 trusts nobody more.
  EMAIL_HOST            an SMTP server for account mail (password reset, confirming the
                        e-mail given at sign-up); EMAIL_PORT (587), EMAIL_HOST_USER,
                        EMAIL_HOST_PASSWORD, EMAIL_USE_TLS (on), EMAIL_USE_SSL (off),
                        DEFAULT_FROM_EMAIL. Without it, with DEBUG on mail is printed to
                        the console (links and all, for a local run); with DEBUG off it
                        is not sent, one log line per mail says so without its text,
                        and `manage.py check` warns (scorekeeper.W001)
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import secrets
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    if value.strip().lower() in {"1", "true", "yes", "on"}:
        return True
    if value.strip().lower() in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be 1/0, true/false, yes/no or on/off; got {value!r}.")


def env_int(name: str, default: int, *, low: int = 0, high: int | None = None) -> int:
    """A whole number from the environment, or ``default`` when unset or empty."""
    value = os.environ.get(name, "").strip()
    if not value:
        return default
    if (
        not (value.isascii() and value.isdigit())
        or int(value) < low
        or (high is not None and int(value) > high)
    ):
        upper = f" to {high}" if high is not None else " or more"
        raise ImproperlyConfigured(
            f"{name} must be a whole number from {low}{upper}; got {value!r}."
        )
    return int(value)


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DATA_DIR = Path(os.environ.get("DATA_DIR") or BASE_DIR / "var")
DEBUG = env_bool("DEBUG", False)
HTTPS = env_bool("HTTPS", False)


def _make_data_dir() -> None:
    """DATA_DIR, readable by its owner only (0700): made so, or made so when it was
    made before the first start (mkdir -p var gives 0755) and belongs to this user."""
    if DATA_DIR.exists() and not DATA_DIR.is_dir():
        raise ImproperlyConfigured(f"DATA_DIR must be a directory; {str(DATA_DIR)!r} is a file.")
    DATA_DIR.parent.mkdir(parents=True, exist_ok=True)
    DATA_DIR.mkdir(mode=0o700, exist_ok=True)
    found = DATA_DIR.stat()
    if found.st_uid == os.getuid() and found.st_mode & 0o077:
        DATA_DIR.chmod(0o700)


def _secret_key() -> str:
    """The configured key, or one generated on first start and kept, so sessions survive restarts."""
    configured = os.environ.get("SECRET_KEY", "").strip()
    if configured:
        return configured
    key_file = DATA_DIR / "secret_key"
    if key_file.exists():
        return key_file.read_text().strip()
    _make_data_dir()
    key = secrets.token_urlsafe(50)
    # Written to a new file that only its owner can read (0600 from the start), then
    # linked into place: the key file is never readable by others nor seen half
    # written, and of two workers starting at once the first to link wins and the
    # other reads its key.
    temporary = DATA_DIR / f".secret_key.{os.getpid()}.{secrets.token_hex(4)}"
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(descriptor, "w") as handle:
            handle.write(key)
        try:
            os.link(temporary, key_file)
        except FileExistsError:
            return key_file.read_text().strip()
    finally:
        temporary.unlink(missing_ok=True)
    return key


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
if _urls := [host for host in ALLOWED_HOSTS if "/" in host]:
    # Taken as given, every request would be answered 400 (Bad Request).
    raise ImproperlyConfigured(
        f"ALLOWED_HOSTS takes host names, like scores.example.org, not URLs; got {_urls[0]!r}."
    )
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.contenttypes",
    "django.contrib.auth",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "games",
    "accounts",
    "circles",
    "evenings",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # The Content Security Policy on every answer (static files too), no-store where a
    # token travels: scorekeeper/security.py.
    "scorekeeper.security.SecurityHeadersMiddleware",
    # 400 for a NUL, a lone surrogate or bytes that are not UTF-8 anywhere in the
    # request, before anything reads it: scorekeeper/input_guard.py.
    "scorekeeper.input_guard.InputGuardMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Pages and htmx answers compressed (static files come compressed from WhiteNoise
    # and never reach it). Django pads each answer with random bytes against BREACH.
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language: from the URL's prefix (/de/…), else the language chosen
    # on a page (a cookie), else the browser's Accept-Language. Pages live under their
    # language's prefix; the JSON API has none and answers in Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # 409, not 500, for a read that meets a kept deal the rules refuse since it was
    # saved: games/middleware.py.
    "games.middleware.StoredDealMiddleware",
    # Rate limits of the JSON API and of starting a sheet (settings.RATE_LIMITS).
    "scorekeeper.security.RateLimitMiddleware",
    # About every hour one worker forgets old idempotency keys, empties the old trash
    # and deletes expired sessions (games/cleanup.py; CLEAR_EXPIRED_EVERY, None: never).
    "games.cleanup.CleanupMiddleware",
]

ROOT_URLCONF = "scorekeeper.urls"
WSGI_APPLICATION = "scorekeeper.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "circles.context_processors.circles",
            ],
        },
    },
]

# SQLite by default, in WAL mode with IMMEDIATE transactions so that concurrent
# writers queue on the lock instead of failing halfway through a transaction.
# Its backend (scorekeeper/sqlite_backend) lines the writers up in a fair queue in front
# of that lock, across threads and worker processes (scorekeeper/sqlite_queue.py): a
# turn is taken before BEGIN IMMEDIATE and given back at COMMIT or ROLLBACK, so they no
# longer poll in SQLite's busy handler, where some lose again and again. A wait longer
# than "timeout" goes on to the busy handler as before. SQLITE_WRITE_QUEUE=0 leaves it
# out (Django's own backend; bench/load.py --sqlite-queue both compares the two).
SQLITE_ENGINE = (
    "django.db.backends.sqlite3"
    if os.environ.get("SQLITE_WRITE_QUEUE", "").strip() == "0"
    else "scorekeeper.sqlite_backend"
)
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": (
        "PRAGMA journal_mode=WAL;"
        "PRAGMA synchronous=NORMAL;"
        "PRAGMA foreign_keys=ON;"
        "PRAGMA busy_timeout=20000;"
    ),
}

_SHM = Path("/dev/shm")
_TEST_DB_DIR = _SHM if _SHM.is_dir() and os.access(_SHM, os.W_OK) else Path(tempfile.gettempdir())
if os.environ.get("DATABASE_URL"):
    try:
        DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60)}
    except (ValueError, KeyError) as _refused:  # an unknown scheme, a URL that is none
        raise ImproperlyConfigured(
            "DATABASE_URL must be a postgres://user:password@host:port/name (or sqlite:///path) "
            f"URL; got one starting {os.environ['DATABASE_URL'].split(':', 1)[0]!r}."
        ) from _refused
else:
    _make_data_dir()
    DATABASES = {
        "default": {
            "ENGINE": SQLITE_ENGINE,
            "NAME": DATA_DIR / "db.sqlite3",
            "OPTIONS": SQLITE_OPTIONS,
            # Opening the file and setting WAL costs milliseconds: keep connections.
            "CONN_MAX_AGE": 600,
            "CONN_HEALTH_CHECKS": True,
            # Tests use a file too, not Django's shared in-memory database: there,
            # concurrent writers fail at once with "table is locked" instead of
            # queueing on the lock as they do in WAL mode.
            # One per process, so two test runs side by side never share a file; in
            # memory-backed /dev/shm where there is one, so commits do not wait on a disk.
            "TEST": {"NAME": str(_TEST_DB_DIR / f"scorekeeper-test-{os.getpid()}.sqlite3")},
        }
    }
if DATABASES["default"]["ENGINE"] in ("django.db.backends.sqlite3", SQLITE_ENGINE):
    # A sqlite:// DATABASE_URL gets the same WAL and IMMEDIATE settings, and the queue.
    DATABASES["default"]["ENGINE"] = SQLITE_ENGINE
    DATABASES["default"].setdefault("OPTIONS", SQLITE_OPTIONS)
    # Made empty (a valid database) and readable by its owner only before SQLite opens
    # it, which would make it 0644; its -wal and -shm files take the file's mode.
    _sqlite_file = str(DATABASES["default"]["NAME"])
    if _sqlite_file and _sqlite_file != ":memory:" and not _sqlite_file.startswith("file:"):
        # Already there, or not creatable (then SQLite says why).
        with contextlib.suppress(OSError):
            os.close(os.open(_sqlite_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The cache holds the rate-limit counters, shared by every worker and server: Redis
# when REDIS_URL is set, else a database table (`manage.py createcachetable` makes it;
# the test databases get it by themselves).
if os.environ.get("REDIS_URL") and not os.environ["REDIS_URL"].startswith(
    ("redis://", "rediss://", "unix://")
):
    raise ImproperlyConfigured(
        "REDIS_URL must start with redis://, rediss:// or unix:// (like "
        f"redis://127.0.0.1:6379/0); got {os.environ['REDIS_URL']!r}."
    )
if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": "scorekeeper",
            # JSON instead of Django's pickles, as in the database (plain_cache.py).
            "OPTIONS": {"serializer": "scorekeeper.plain_cache.PlainSerializer"},
        }
    }
else:
    CACHES = {
        "default": {
            # Django's DatabaseCache, storing JSON instead of pickles: whoever can write
            # to the database cannot make the workers run code.
            "BACKEND": "scorekeeper.plain_cache.PlainDatabaseCache",
            "LOCATION": "scorekeeper_cache",
            # Past this many rows the oldest are dropped, live counters too: keep it
            # well above the number of clients seen in the longest window (an hour).
            "OPTIONS": {"MAX_ENTRIES": 50_000},
        }
    }

# Helper processes per worker for slow referee work (laying out 104 cards): it runs
# niced, off the worker's interpreter lock, so it never holds up entering deals
# (games/offload.py). 0 runs it in the request's own thread.
REFEREE_PROCESSES = env_int("REFEREE_PROCESSES", 1, high=64)

# The read-only board as rendered for one sheet version, shared by every phone that
# follows the sheet (games.views); per process, nothing to set up.
CACHES["renders"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "scorekeeper-renders",
    "TIMEOUT": 3600,
    "OPTIONS": {"MAX_ENTRIES": 2_000},
}

# Rate limits (scorekeeper/security.py): a name → (requests, seconds) per client
# address, or per user name for "login-user" and "signup-user". Generous enough that
# play never meets them; a refused request answers 429 with Retry-After.
RATE_LIMITS: dict[str, tuple[int, int] | None] = {
    "api": (300, 60),  # every request under /api/
    # Starting a sheet (/new/<game>/, a circle's, the API's) from one address: a club's
    # Wi-Fi carries 40 tables starting a Pitch game every 20 minutes.
    "sheet-new": (120, 3600),
    # Failed logins only (a successful one is not counted: accounts/urls.py).
    "login-ip": (10, 300),
    "login-user": (5, 900),
    # A club's members making their accounts on its Wi-Fi on the first evening.
    "signup-ip": (50, 3600),
    "signup-user": (5, 900),
    "password-reset-ip": (10, 3600),
    # Account mail (password reset, sign-up) per recipient address, from any client.
    # Past it no mail goes out and the page answers as always (accounts/mail.py).
    "mail-recipient": (3, 3600),
}


def _forwarded_allow_ips() -> list[str]:
    """FORWARDED_ALLOW_IPS as gunicorn reads it: "*" or addresses and networks."""
    allowed = env_list("FORWARDED_ALLOW_IPS", "127.0.0.1")
    for entry in allowed:
        if entry == "*":
            continue
        try:
            ipaddress.ip_network(entry)  # strict, as gunicorn: 10.0.0.0/8, not 10.0.0.1/8
        except ValueError:
            raise ImproperlyConfigured(
                f"FORWARDED_ALLOW_IPS: {entry!r} is not an IP address or network "
                "(such as 127.0.0.1 or 10.0.0.0/8), nor *."
            ) from None
    return allowed


# The proxies in front, trusted to say who the client is (the module docstring).
FORWARDED_ALLOW_IPS = _forwarded_allow_ips()

AUTH_PASSWORD_VALIDATORS = [
    # Django's checks, with their messages in the app's words (accounts/validators.py).
    {"NAME": "accounts.validators.UserAttributeSimilarityValidator"},
    {"NAME": "accounts.validators.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Accounts: Django's own auth. Until an SMTP server is configured, account mail is
# printed to the console with DEBUG on (a local run); with DEBUG off it is not sent at
# all, since its links (a password reset's) must never land in a server log, and
# `manage.py check` says so (scorekeeper/checks.py).
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:home"
LOGOUT_REDIRECT_URL = "games:home"
if os.environ.get("EMAIL_HOST"):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = os.environ["EMAIL_HOST"]
    EMAIL_PORT = env_int("EMAIL_PORT", 587, low=1, high=65535)
    EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
    EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", not EMAIL_USE_SSL)
elif DEBUG:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
else:
    EMAIL_BACKEND = "accounts.mail.UnsentMailBackend"
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Scorekeeper <scorekeeper@localhost>")

# Names offered on a new sheet besides the ones this phone typed: a circle's players.
NAME_SUGGESTERS = ["circles.selectors.suggested_names"]
# Paths the circles app adds to the OpenAPI schema (games never imports circles).
OPENAPI_EXTENSIONS = ["circles.api.openapi_parts", "evenings.api.openapi_parts"]

LANGUAGE_CODE = "en"
# English, German (Skat's own language) and Esperanto (the rule texts' language).
# Catalogues in locale/; the referee's sentences are translated when shown
# (games/rules/text.py, installed by games.apps). docs/translating.md says how.
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("eo", "Esperanto"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The chosen language is remembered for a year.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SECURE = HTTPS
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Our scripts and style sheets minified, then hashed and compressed (WhiteNoise: a .gz
    # and, with the Brotli package, a .br copy of each, sent to browsers that take br).
    "staticfiles": {"BACKEND": "scorekeeper.staticfiles.MinifiedStaticFilesStorage"},
}

# Security headers that hold on plain HTTP too.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True

if HTTPS:
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)

LOG_LEVEL = os.environ.get("LOG_LEVEL", "").strip().upper() or "INFO"
if LOG_LEVEL not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
    raise ImproperlyConfigured(
        f"LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL; got {LOG_LEVEL!r}."
    )

# Tokens in logged paths are masked (scorekeeper.log_masking.MaskTokensFilter): on the
# loggers that log paths (a logger's filter sees only its own records) and on the
# handlers, which everything else reaches. django.server is runserver's request log,
# set up as Django's own, with the filter.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"mask_tokens": {"()": "scorekeeper.log_masking.MaskTokensFilter"}},
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        }
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["mask_tokens"]},
        "django.server": {
            "class": "logging.StreamHandler",
            "formatter": "django.server",
            "filters": ["mask_tokens"],
        },
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        "django.db.backends": {"level": "INFO"},
        "django.request": {"filters": ["mask_tokens"]},
        "django.security.csrf": {"filters": ["mask_tokens"]},
        "django.server": {
            "handlers": ["django.server"],
            "level": "INFO",
            "propagate": False,
            "filters": ["mask_tokens"],
        },
    },
}
