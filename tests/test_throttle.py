"""Rate limits that hold across workers and servers (scorekeeper/security.py).

The counters live in the cache every worker shares: the database table
``scorekeeper_cache`` here (as in production without REDIS_URL). These tests run with
the limits on (the ``rate_limits`` mark; tests/conftest.py turns them off elsewhere),
each with counters of its own, and lower a limit with the ``settings`` fixture.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.core.cache import caches
from django.db import connection
from django.test import Client

from games.models import Sheet
from scorekeeper import security
from tests.processes import clean_environment

pytestmark = [pytest.mark.rate_limits, pytest.mark.django_db]

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "green-table-42"
SKAT = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "first_dealer": "0"}
API_SHEET = json.dumps({"game": "skat", "players": ["Ana", "Ben", "Cem"]})


@pytest.fixture
def limits(settings):
    """Lower one limit: ``limits(name, requests, seconds)``."""

    def lower(name: str, requests: int, seconds: int) -> None:
        settings.RATE_LIMITS = {**settings.RATE_LIMITS, name: (requests, seconds)}

    return lower


@pytest.fixture
def clock(monkeypatch):
    """The limiter's clock, moved by hand."""
    now = {"t": 1_800_000_000.0}
    monkeypatch.setattr(security, "now", lambda: now["t"])
    return now


@pytest.fixture
def ana():
    return User.objects.create_user("ana", "ana@example.org", PASSWORD)


def _api(client: Client, **extra):
    return client.post(
        "/api/v1/skat/score",
        json.dumps({"game": "grand", "bid": 24, "matadors": {"with": 1}, "outcome": "won"}),
        content_type="application/json",
        **extra,
    )


def _refused_by_the_api(response) -> None:
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    body = response.json()
    assert body["errors"][0]["field"] is None
    assert body["errors"][0]["message"].startswith("Too many requests from your address.")
    assert "Content-Security-Policy" in response


def _refused_by_a_page(response) -> None:
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "Too many tries in a short time" in page
    assert "nothing was saved" in page


# -- the counters ------------------------------------------------------------------------


def test_the_counters_live_in_the_database_that_every_worker_shares():
    cache = caches["default"]
    assert django_settings.CACHES["default"]["BACKEND"] == (
        "django.core.cache.backends.db.DatabaseCache"
    )
    # The test database got the table by itself (Django's create_test_db runs
    # createcachetable after migrating).
    assert cache._table == "scorekeeper_cache"
    assert "scorekeeper_cache" in connection.introspection.table_names()


def test_a_fresh_cache_connection_sees_the_same_count(limits, clock):
    """Another worker has its own cache object: the count is in the table, not in it."""
    limits("api", 5, 60)
    for expected in (1, 2, 3):
        assert security.hit("api", "198.51.100.7").count == expected
    other_worker = caches.create_connection("default")
    assert other_worker is not caches["default"]
    assert security.increment(other_worker, _key("api", "198.51.100.7"), 60) == 4
    assert security.hit("api", "198.51.100.7").count == 5


def _key(name: str, ident: str) -> str:
    digest = security._digest(ident)
    window = django_settings.RATE_LIMITS[name][1]
    offset = int(digest[:8], 16) % window
    return f"ratelimit:{name}:{digest}:{int((security.now() + offset) // window)}"


def test_a_limit_of_none_or_a_missing_name_counts_nothing(settings, limits):
    limits("api", 0, 60)
    assert not security.hit("api", "x").allowed
    assert security.hit("no-such-limit", "x") == security.NOT_LIMITED
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "api": None}
    assert security.hit("api", "x") == security.NOT_LIMITED


def test_counts_are_exact_when_two_processes_count_at_once(tmp_path):
    """Two worker processes count one key in one SQLite file at the same moment: every
    count from 1 to 2 × N is handed out exactly once (Django's own DatabaseCache.incr,
    a read then a write, loses hits here)."""
    env = clean_environment(DATA_DIR=str(tmp_path), SECRET_KEY="test-only")
    subprocess.run([sys.executable, "manage.py", "createcachetable"], cwd=ROOT, env=env, check=True)
    hits = 150
    start = tmp_path / "start"
    code = (
        "import os, time\n"
        "from django.core.cache import cache\n"
        "from scorekeeper.security import increment\n"
        f"while not os.path.exists({str(start)!r}): time.sleep(0.005)\n"
        f"print(*[increment(cache, 'shared', 60) for _ in range({hits})])\n"
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    start.touch()
    counts = []
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
        counts += [int(n) for n in out.split()]
    assert sorted(counts) == list(range(1, 2 * hits + 1))


# -- the JSON API ------------------------------------------------------------------------


def test_the_api_answers_429_with_retry_after_past_its_limit(client, limits, clock):
    limits("api", 3, 60)
    for _ in range(3):
        assert _api(client).status_code == 200
    refused = _api(client)
    _refused_by_the_api(refused)
    assert int(refused["Retry-After"]) <= 60
    # Any path under /api/ counts, and answers in the API's format.
    _refused_by_the_api(client.get("/api/v1/openapi.json"))


def test_two_workers_share_one_count(limits, clock):
    """Two clients (two workers' connections) from one address: one count."""
    limits("api", 4, 60)
    first, second = Client(), Client()
    assert _api(first).status_code == 200
    assert _api(second).status_code == 200
    assert _api(first).status_code == 200
    assert _api(second).status_code == 200
    _refused_by_the_api(_api(first))
    _refused_by_the_api(_api(second))


def test_addresses_are_counted_apart(client, limits, clock):
    limits("api", 2, 60)
    for _ in range(2):
        assert _api(client, REMOTE_ADDR="192.0.2.1").status_code == 200
    _refused_by_the_api(_api(client, REMOTE_ADDR="192.0.2.1"))
    assert _api(client, REMOTE_ADDR="192.0.2.2").status_code == 200


def test_the_limit_starts_again_after_its_window(client, limits, clock):
    limits("api", 2, 60)
    for _ in range(2):
        assert _api(client).status_code == 200
    refused = _api(client)
    _refused_by_the_api(refused)
    wait = int(refused["Retry-After"])
    clock["t"] += wait - 1
    _refused_by_the_api(_api(client))
    clock["t"] += 1
    assert _api(client).status_code == 200
    assert _api(client).status_code == 200
    _refused_by_the_api(_api(client))


def test_the_default_limits_let_a_busy_client_through(client):
    """300 API requests a minute: far above what an app or a script at a table sends."""
    assert django_settings.RATE_LIMITS["api"] == (300, 60)
    for _ in range(60):
        assert _api(client).status_code == 200


# -- starting a sheet --------------------------------------------------------------------


def test_starting_sheets_is_limited_and_a_refused_start_makes_nothing(client, limits, clock):
    limits("sheet-new", 2, 3600)
    assert client.post("/en/new/skat/", SKAT).status_code == 302
    assert client.post("/en/new/skat/", SKAT).status_code == 302
    refused = client.post("/en/new/skat/", SKAT)
    _refused_by_a_page(refused)
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert Sheet.objects.count() == 2
    # The form itself still opens.
    assert client.get("/en/new/skat/").status_code == 200
    # The API's sheets count against the same limit, and answer in its format.
    refused = client.post("/api/v1/sheets", API_SHEET, content_type="application/json")
    _refused_by_the_api(refused)
    assert Sheet.objects.count() == 2


def test_a_circle_sheet_counts_against_the_same_limit(client, limits, clock):
    from circles import services as circle_services

    limits("sheet-new", 1, 3600)
    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    client.force_login(owner)
    assert client.post("/en/new/skat/", SKAT).status_code == 302
    _refused_by_a_page(client.post(f"/en/circles/{circle.pk}/new/skat/", SKAT))
    assert Sheet.objects.count() == 1


def test_the_api_sheet_limit(client, limits, clock):
    limits("sheet-new", 1, 3600)
    assert (
        client.post("/api/v1/sheets", API_SHEET, content_type="application/json").status_code == 201
    )
    _refused_by_the_api(client.post("/api/v1/sheets", API_SHEET, content_type="application/json"))
    assert Sheet.objects.count() == 1
    # Reading and playing on a sheet is not starting one.
    assert client.get("/api/v1/sheets/1").status_code == 404


# -- logging in, signing up, password reset ------------------------------------------------


def _login(client, username="ana", password="wrong-password", **extra):
    return client.post("/en/accounts/login/", {"username": username, "password": password}, **extra)


def test_login_attempts_are_limited_per_address(client, ana, limits, clock):
    limits("login-ip", 3, 300)
    for name in ("ana", "bert", "cleo"):
        assert _login(client, name).status_code == 422
    refused = _login(client, "ana", PASSWORD)
    _refused_by_a_page(refused)
    # The right password did not log in.
    assert client.session.get(SESSION_KEY) is None
    # Another address may.
    assert _login(client, "ana", PASSWORD, REMOTE_ADDR="192.0.2.9").status_code == 302
    assert client.session.get(SESSION_KEY) == str(ana.pk)


def test_login_attempts_are_limited_per_user_name_from_any_address(client, ana, limits, clock):
    limits("login-user", 2, 900)
    assert _login(client, "ana", REMOTE_ADDR="192.0.2.1").status_code == 422
    assert _login(client, "ANA ", REMOTE_ADDR="192.0.2.2").status_code == 422
    refused = _login(client, "ana", PASSWORD, REMOTE_ADDR="192.0.2.3")
    _refused_by_a_page(refused)
    assert 1 <= int(refused["Retry-After"]) <= 900
    assert client.session.get(SESSION_KEY) is None
    # Other names are not held up.
    assert _login(client, "bert", REMOTE_ADDR="192.0.2.3").status_code == 422
    # After the window, ana may try again.
    clock["t"] += 900
    assert _login(client, "ana", PASSWORD, REMOTE_ADDR="192.0.2.3").status_code == 302


def test_the_login_page_itself_is_never_refused(client, limits, clock):
    limits("login-ip", 0, 300)
    assert client.get("/en/accounts/login/").status_code == 200
    _refused_by_a_page(_login(client))


def test_sign_ups_are_limited_and_a_refused_one_makes_no_account(client, limits, clock):
    limits("signup-ip", 1, 3600)
    data = {"email": "x@example.org", "password1": PASSWORD, "password2": PASSWORD}
    assert client.post("/en/accounts/signup/", {"username": "bert", **data}).status_code == 302
    client.logout()
    _refused_by_a_page(client.post("/en/accounts/signup/", {"username": "cleo", **data}))
    assert list(User.objects.values_list("username", flat=True)) == ["bert"]


def test_password_reset_mail_is_limited(client, ana, limits, clock, mailoutbox):
    limits("password-reset-ip", 1, 3600)
    form = {"email": "ana@example.org"}
    assert client.post("/en/accounts/password/reset/", form).status_code == 302
    _refused_by_a_page(client.post("/en/accounts/password/reset/", form))
    assert len(mailoutbox) == 1


# -- who the client is ---------------------------------------------------------------------


def _request(rf, remote="203.0.113.5", forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return rf.get("/en/", **extra)


def test_without_a_proxy_x_forwarded_for_is_ignored(rf, settings):
    settings.TRUSTED_PROXY_HOPS = 0
    assert security.client_ip(_request(rf, forwarded="192.0.2.77")) == "203.0.113.5"


def test_behind_a_proxy_the_address_it_saw_counts_not_what_the_client_sent(rf, settings):
    settings.TRUSTED_PROXY_HOPS = 1
    # The client sent "X-Forwarded-For: 192.0.2.66"; the proxy appended who it saw.
    request = _request(rf, remote="127.0.0.1", forwarded="192.0.2.66, 198.51.100.20")
    assert security.client_ip(request) == "198.51.100.20"
    settings.TRUSTED_PROXY_HOPS = 2
    request = _request(rf, remote="127.0.0.1", forwarded="192.0.2.66, 198.51.100.20, 10.0.0.2")
    assert security.client_ip(request) == "198.51.100.20"
    # No header: the connection's own address.
    assert security.client_ip(_request(rf, remote="127.0.0.1")) == "127.0.0.1"


def test_ipv6_clients_are_counted_by_their_64_network(rf, settings):
    settings.TRUSTED_PROXY_HOPS = 0
    one = security.client_ip(_request(rf, remote="2001:db8:1:2::10"))
    other = security.client_ip(_request(rf, remote="2001:db8:1:2:aaaa::1"))
    assert one == other == "2001:db8:1:2::/64"
    assert security.client_ip(_request(rf, remote="::ffff:192.0.2.4")) == "192.0.2.4"
    assert security.client_ip(_request(rf, remote="not-an-address")) == "not-an-address"


def test_a_proxied_api_client_is_limited_by_its_own_address(client, settings, limits, clock):
    settings.TRUSTED_PROXY_HOPS = 1
    limits("api", 1, 60)
    assert _api(client, HTTP_X_FORWARDED_FOR="192.0.2.1").status_code == 200
    # Changing the part of the header that the client writes helps nothing.
    _refused_by_the_api(_api(client, HTTP_X_FORWARDED_FOR="10.9.9.9, 192.0.2.1"))
    assert _api(client, HTTP_X_FORWARDED_FOR="192.0.2.2").status_code == 200


# -- other caches, and a broken one --------------------------------------------------------


def test_a_cache_with_atomic_incr_counts_the_same(settings, limits, clock):
    """Redis and memcached take the add-then-incr path; the local-memory cache does too."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "throttle-test",
        }
    }
    limits("api", 2, 60)
    verdicts = [security.hit("api", "192.0.2.1") for _ in range(3)]
    assert [v.count for v in verdicts] == [1, 2, 3]
    assert [v.allowed for v in verdicts] == [True, True, False]
    clock["t"] += 60
    assert security.hit("api", "192.0.2.1").count == 1


def test_a_broken_cache_lets_requests_through_and_says_so(client, settings, limits, caplog):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "no_such_table",
        }
    }
    limits("api", 1, 60)
    assert _api(client).status_code == 200
    assert _api(client).status_code == 200
    assert "Rate limit 'api' not applied: the cache failed" in caplog.text
    # The database is still usable afterwards (the failure was rolled back).
    assert Sheet.objects.count() == 0


def test_redis_url_puts_the_cache_in_redis(tmp_path):
    code = "from django.conf import settings; print(settings.CACHES['default'])"
    shown = {}
    for name, extra in (("db", {}), ("redis", {"REDIS_URL": "redis://127.0.0.1:6379/3"})):
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "--no-imports", "-c", code],
            cwd=ROOT,
            env=clean_environment(DATA_DIR=str(tmp_path), SECRET_KEY="test-only", **extra),
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        shown[name] = done.stdout
    assert "django.core.cache.backends.redis.RedisCache" in shown["redis"]
    assert "redis://127.0.0.1:6379/3" in shown["redis"]
    assert "DatabaseCache" in shown["db"]
    assert "scorekeeper_cache" in shown["db"]
