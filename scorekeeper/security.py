"""Nobody where they don't belong: what every request and response goes through.

- ``SecurityHeadersMiddleware``: a strict Content Security Policy on every response
  (scripts, styles, images and fonts from this site only; no inline script or style,
  no eval, no framing), and ``Cache-Control: no-store`` on every answer that carries
  an edit token or a private link (see ``carries_secret``).
- ``hit``: a fixed-window counter in the cache shared by every worker and server (the
  database by default, Redis when ``REDIS_URL`` is set), so a limit holds however many
  processes answer. ``RateLimitMiddleware`` applies it to the JSON API and to starting
  a sheet; ``rate_limit_posts`` to logging in, signing up and password-reset mail.

The limits are ``settings.RATE_LIMITS``: a name → ``(requests, seconds)``; a name that
is missing (or set to ``None``) is not limited. A client is its IP address (an IPv6
client: its /64 network, which one household or phone usually holds): ``REMOTE_ADDR``,
unless that is one of the proxies named in ``settings.FORWARDED_ALLOW_IPS`` (the
variable gunicorn reads too: addresses, networks, or ``*`` for any). Then
``X-Forwarded-For`` is read from the right, where each proxy appended whom it saw,
past the trusted proxies: the first address that is not one of them is the client.
The entries left of it are whatever the client sent and never count. With ``*`` the
proxy in front is trusted whoever it is, but no further hop: the right-most entry is
the client. A UNIX socket's peer (an empty ``REMOTE_ADDR``) is trusted, as gunicorn
trusts it: only a process on this machine can connect there.

Tokens are masked out of logs by ``scorekeeper.log_masking``, which imports nothing
of Django: gunicorn's master process loads it before Django is set up, and this module
reads the settings (the languages' prefixes) as it is imported.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache, wraps
from urllib.parse import urlsplit

from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.db import DatabaseError, connections, router, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.cache import add_never_cache_headers
from django.utils.connection import ConnectionProxy
from django.utils.translation import ngettext

logger = logging.getLogger(__name__)

# -- Content Security Policy -----------------------------------------------------------

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)

# Answers that carry an edit token or a private link, by path: the sheet's edit link
# (s/) and its read-only link (v/) with everything under them, an invitation, a
# season's public standings link, a club evening's organiser, table, player and view
# links (e/, t/, p/, r/), the sheets API (its POST answers the edit token; its reads
# are made with a token), a circle's settings (the invite link), its export (every
# sheet's tokens) and a season's pages for members (the share link). Whoever learns
# such a link from a shared computer's cache or a proxy can read, or write, with it.
# Pages sit under a language prefix (/de/s/…); the API has none.
LANGUAGE_PREFIX = r"(?:/(?:" + "|".join(re.escape(code) for code, _ in settings.LANGUAGES) + "))?"
SECRET_PATHS = re.compile(
    rf"^{LANGUAGE_PREFIX}/(?:s|v|join|standings|e|t|p|r)/"
    r"|^/api/v1/sheets(?:/|$)"
    rf"|^{LANGUAGE_PREFIX}/circles/\d+/(?:settings/|export\.json$|seasons/\d+/)"
)


def carries_secret(request: HttpRequest, response: HttpResponse) -> bool:
    """Whether the answer must never be stored by a browser or a proxy.

    By path (``SECRET_PATHS``), by a redirect to such a path, by a view's say-so
    (``response.carries_secret = True``),
    and every answer to a signed-in user that depended on who they are: their pages
    list their circles' sheets by edit link (the home page, their circles). An answer
    that never looked at the session (the read-only sheet's poll) cannot have, and
    costs no session lookup here.
    """
    if getattr(response, "carries_secret", False) or SECRET_PATHS.match(request.path_info):
        return True
    # A redirect to such a link (starting a sheet answers its edit link in Location).
    location = response.get("Location", "") if 300 <= response.status_code < 400 else ""
    if location and SECRET_PATHS.match(urlsplit(location).path):
        return True
    session = getattr(request, "session", None)
    if session is None or not session.accessed:
        return False
    user = getattr(request, "user", None)
    return bool(user is not None and user.is_authenticated)


class SecurityHeadersMiddleware:
    """The Content Security Policy on every response; no-store where a secret travels.

    Placed right after Django's SecurityMiddleware, so the static files WhiteNoise
    answers get the policy too.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        if carries_secret(request, response):
            add_never_cache_headers(response)
        return response


# -- Rate limits ------------------------------------------------------------------------


def now() -> float:
    """The clock of the rate limits (tests move it)."""
    return time.time()


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    count: int = 0
    limit: int = 0
    # Seconds until the window ends and the count starts again from nothing.
    retry_after: int = 0
    # The counter this hit was counted on ("" when nothing was counted): ``refund``.
    key: str = ""


NOT_LIMITED = Verdict(allowed=True)


def _digest(text: str) -> str:
    # Cache keys hold neither addresses nor user names, only their digest.
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _cache_errors() -> tuple[type[BaseException], ...]:
    errors: list[type[BaseException]] = [DatabaseError]
    try:
        from redis.exceptions import RedisError
    except ImportError:  # pragma: no cover - redis is in requirements.txt
        pass
    else:
        errors.append(RedisError)
    return tuple(errors)


def _lock_row(cache: DatabaseCache, db: str, key: str) -> None:
    """Lock the counter's row (``SELECT … FOR UPDATE`` where the database has it; on
    SQLite the IMMEDIATE transaction has locked the file already)."""
    connection = connections[db]
    if connection.features.has_select_for_update:
        table = connection.ops.quote_name(cache._table)
        column = connection.ops.quote_name("cache_key")
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT {column} FROM {table} WHERE {column} = %s FOR UPDATE",
                [cache.make_and_validate_key(key)],
            )


def _increment_in_database(cache: DatabaseCache, key: str, timeout: int) -> int:
    """A locked read and write (the window's first hit: an ``add``), in one transaction.

    Django's ``DatabaseCache.incr`` is a plain read then write (two workers can both
    read 4 and both write 5), and it resets the expiry to the default timeout. Here the
    row is locked first (``SELECT … FOR UPDATE`` where the database has it; SQLite's
    IMMEDIATE transactions, as settings.py sets them, lock the whole file at BEGIN), so
    every hit is counted exactly once across processes and servers.
    """
    db = router.db_for_write(cache.cache_model_class)
    with transaction.atomic(using=db):
        _lock_row(cache, db, key)
        count = cache.get(key)
        if count is None:
            # The first hit of a window inserts the row; the primary key lets only one
            # of two simultaneous first hits do so, the other counts on the row.
            if cache.add(key, 1, timeout):
                return 1
            _lock_row(cache, db, key)
            count = cache.get(key, 0)
        cache.set(key, count + 1, timeout)
        return count + 1


def increment(cache, key: str, timeout: int) -> int:
    """Count one hit on ``key`` (kept ``timeout`` more seconds: ``hit`` passes the time
    left in the window); the count.

    Atomic across processes: ``add`` and ``incr`` are single commands on Redis (and on
    memcached), which keep the key's expiry; the database cache needs a transaction.
    """
    if isinstance(cache, ConnectionProxy):  # django.core.cache.cache: the real backend
        cache = caches[cache._alias]
    if isinstance(cache, DatabaseCache):
        return _increment_in_database(cache, key, timeout)
    if cache.add(key, 1, timeout):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add and incr: this hit starts a new window
        cache.set(key, 1, timeout)
        return 1


def hit(name: str, ident: str) -> Verdict:
    """Count one request of ``ident`` (a client address, a user name) against the limit
    ``name`` in ``settings.RATE_LIMITS``, and say whether it may go ahead.

    Fixed windows of the limit's length, shifted per client so that not every client's
    window ends at once. A refused request counts too: hammering does not shorten the
    wait. If the cache cannot be reached the request goes ahead and the error is
    logged: a broken cache must not lock everybody out.
    """
    rule = (getattr(settings, "RATE_LIMITS", None) or {}).get(name)
    if not rule:
        return NOT_LIMITED
    limit, window = int(rule[0]), int(rule[1])
    digest = _digest(ident)
    moment = now()
    offset = int(digest[:8], 16) % window
    index = math.floor((moment + offset) / window)
    ends = (index + 1) * window - offset
    seconds_left = max(1, math.ceil(ends - moment))
    key = f"ratelimit:{name}:{digest}:{index}"
    try:
        count = increment(caches["default"], key, seconds_left + 1)
    except _cache_errors():
        logger.exception("Rate limit %r not applied: the cache failed", name)
        return NOT_LIMITED
    return Verdict(
        allowed=count <= limit, count=count, limit=limit, retry_after=seconds_left, key=key
    )


def _decrement_in_database(cache: DatabaseCache, key: str, timeout: int) -> None:
    """``_increment_in_database`` the other way, on a counter that exists (a window that
    ended meanwhile has nothing to give back)."""
    db = router.db_for_write(cache.cache_model_class)
    with transaction.atomic(using=db):
        _lock_row(cache, db, key)
        count = cache.get(key)
        if count:
            cache.set(key, count - 1, timeout)


def refund(verdict: Verdict) -> None:
    """Give back the hit ``verdict`` counted: a request that turned out not to be what
    the limit is about (a login that succeeded, where only failed ones count). Atomic as
    ``increment`` is; a window that ended meanwhile is left alone."""
    if not verdict.key:
        return
    cache = caches["default"]
    if isinstance(cache, ConnectionProxy):
        cache = caches[cache._alias]
    try:
        if isinstance(cache, DatabaseCache):
            _decrement_in_database(cache, verdict.key, verdict.retry_after + 1)
        else:
            cache.decr(verdict.key)
    except ValueError:  # the window ended: its counter is gone
        pass
    except _cache_errors():
        logger.exception("Rate limit counter %r not given back: the cache failed", verdict.key)


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


def _parse_address(text: str) -> IPAddress | None:
    """An address as a proxy writes it (``192.0.2.5``, ``192.0.2.5:4711``,
    ``[2001:db8::1]:443``; an IPv4-mapped IPv6 address as its IPv4 one), or None."""
    text = text.strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else text
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return None
    if ip.version == 6 and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


@dataclass(frozen=True)
class TrustedProxies:
    """``settings.FORWARDED_ALLOW_IPS``, read: the networks named, and whether ``*``
    trusts whoever connects."""

    networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]
    any_peer: bool

    def named(self, ip: IPAddress | None) -> bool:
        return ip is not None and any(ip in network for network in self.networks)

    def peer(self, remote_addr: str) -> bool:
        """Whether the connection comes from a trusted proxy (or a UNIX socket)."""
        return self.any_peer or remote_addr == "" or self.named(_parse_address(remote_addr))


@lru_cache(maxsize=16)
def _trusted_proxies(allowed: tuple[str, ...]) -> TrustedProxies:
    return TrustedProxies(
        networks=tuple(ipaddress.ip_network(entry) for entry in allowed if entry != "*"),
        any_peer="*" in allowed,
    )


def _forwarded_for(request: HttpRequest) -> list[str]:
    header = request.META.get("HTTP_X_FORWARDED_FOR", "")
    return [part.strip() for part in header.split(",") if part.strip()]


def _client_of_chain(proxies: TrustedProxies, remote_addr: str, chain: list[str]) -> str:
    """The right-most entry of ``chain`` that is not a trusted proxy (when all are,
    the left-most); ``remote_addr`` when the chain is empty. An entry that is not an
    address ends the walk: it is taken as written (a proxy's ``unknown``)."""
    client = remote_addr
    for entry in reversed(chain):
        client = entry
        if not proxies.named(_parse_address(entry)):
            break
    return client


def client_ip(request: HttpRequest) -> str:
    """Who is asking, for the rate limits (see the module's docstring)."""
    address = request.META.get("REMOTE_ADDR", "")
    proxies = _trusted_proxies(tuple(getattr(settings, "FORWARDED_ALLOW_IPS", ())))
    if proxies.peer(address):
        address = _client_of_chain(proxies, address, _forwarded_for(request))
    ip = _parse_address(address)
    if ip is None:
        return address or "unknown"
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def too_many_requests(request: HttpRequest, verdict: Verdict) -> HttpResponse:
    """429 with Retry-After: the API's error format under /api/, a page elsewhere."""
    seconds = verdict.retry_after
    if request.path_info.startswith("/api/"):
        message = ngettext(
            "Too many requests from your address. Try again in %(seconds)d second.",
            "Too many requests from your address. Try again in %(seconds)d seconds.",
            seconds,
        ) % {"seconds": seconds}
        response: HttpResponse = JsonResponse(
            {"errors": [{"field": None, "message": message}]}, status=429
        )
    else:
        minutes = max(1, math.ceil(seconds / 60))
        response = render(request, "429.html", {"minutes": minutes}, status=429)
    response["Retry-After"] = str(seconds)
    return response


# Starting a sheet: on its own, in a circle, through the API.
SHEET_CREATION = re.compile(
    rf"^(?:{LANGUAGE_PREFIX}/(?:new/[^/]+/|circles/\d+/new/[^/]+/)|/api/v1/sheets)$"
)


class RateLimitMiddleware:
    """The JSON API (every request under /api/, limit "api") and starting a sheet
    (POST, limit "sheet-new"), per client address."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        path = request.path_info
        names = []
        if path.startswith("/api/"):
            names.append("api")
        if request.method == "POST" and SHEET_CREATION.match(path):
            names.append("sheet-new")
        if names:
            ip = client_ip(request)
            for name in names:
                verdict = hit(name, ip)
                if not verdict.allowed:
                    return too_many_requests(request, verdict)
        return self.get_response(request)


def rate_limit_posts(
    *,
    per_ip: str,
    per_field: tuple[str, str] | None = None,
    refund_if: Callable[[HttpResponse], bool] | None = None,
):
    """Limit a view's POSTs per client address (limit ``per_ip``) and, with
    ``per_field=(field, limit)``, per value of that form field, such as the user name
    being tried from any number of addresses. A refused POST never reaches the view.

    ``refund_if``: a POST whose answer it accepts is not counted after all (its hits are
    given back). Logging in counts only the failed attempts this way: a club whose
    members all log in over the same Wi-Fi at the start of an evening, or one person on
    a few phones, never meets the limits that stop guessing passwords. The hit is
    counted before the view runs and given back after it, so that many guesses sent at
    once are each counted before any of them is answered."""

    def decorator(view):
        @wraps(view)
        def limited(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method != "POST":
                return view(request, *args, **kwargs)
            checks = [(per_ip, client_ip(request))]
            if per_field is not None:
                field, name = per_field
                value = request.POST.get(field, "").strip().casefold()
                if value:
                    checks.append((name, value))
            counted = []
            for name, ident in checks:
                verdict = hit(name, ident)
                counted.append(verdict)
                if not verdict.allowed:
                    return too_many_requests(request, verdict)
            response = view(request, *args, **kwargs)
            if refund_if is not None and refund_if(response):
                for verdict in counted:
                    refund(verdict)
            return response

        return limited

    return decorator
