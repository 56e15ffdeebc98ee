"""Rate limits that hold across workers and servers (scorekeeper/security.py).

The counters live in the cache every worker shares: the database table
``scorekeeper_cache`` here (as in production without REDIS_URL). These tests run with
the limits on (the ``rate_limits`` mark; tests/conftest.py turns them off elsewhere),
each with counters of its own, and lower a limit with the ``settings`` fixture.
"""

from __future__ import annotations

import base64
import datetime
import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.core.cache import caches
from django.core.cache.backends.db import DatabaseCache
from django.db import connection
from django.test import Client

from games.models import Sheet
from scorekeeper import security
from scorekeeper.plain_cache import PlainSerializer
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
    # Django's DatabaseCache, with JSON rows instead of pickles (scorekeeper/plain_cache.py).
    assert django_settings.CACHES["default"]["BACKEND"] == (
        "scorekeeper.plain_cache.PlainDatabaseCache"
    )
    assert isinstance(cache, DatabaseCache)
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


PITCH_TABLE = {f"player_{i}": name for i, name in enumerate(("Ana", "Ben", "Cem", "Dee"))}


def test_a_pitch_night_over_one_wifi_starts_every_sheet_it_needs(clock):
    """A club's casual Pitch night: twelve tables on the club's Wi-Fi (one address), a
    game to 52 every 20 minutes, each started anew (Play again posts the same form).
    Three games a table in an hour were 36 starts, and the 31st was refused (429) at
    the old limit of 30 an hour; the default limit now carries 40 tables at that pace."""
    limit, window = django_settings.RATE_LIMITS["sheet-new"]
    assert window == 3600
    phones = [Client(REMOTE_ADDR="198.51.100.7") for _ in range(12)]
    # All within one window of the limit (the clock stands still): the hardest case.
    for _game in range(3):
        for phone in phones:
            assert phone.post("/en/new/pitch/", PITCH_TABLE).status_code == 302
    assert Sheet.objects.count() == 36
    assert limit >= 40 * 3


def test_a_club_signing_up_over_one_wifi_gets_every_account(client, clock):
    """A club's first evening with the app: its members make their accounts on the
    club's Wi-Fi within the hour. The 21st was refused at the old limit of 20 an hour."""
    data = {"email": "", "password1": PASSWORD, "password2": PASSWORD}
    for i in range(30):
        phone = Client(REMOTE_ADDR="198.51.100.7")
        answer = phone.post(
            "/en/accounts/signup/",
            {**data, "username": f"member{i}", "email": f"m{i}@example.org"},
        )
        assert answer.status_code == 302, i
    assert User.objects.count() == 30


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


def test_a_club_logging_in_over_one_wifi_is_not_refused(client, clock):
    """Found at a club evening: the members' phones share the club's Wi-Fi (one address),
    and the eleventh member to log in within five minutes was refused (429), as was a
    sixth login of one name within 15 minutes (one person, a few phones). Only failed
    logins count now; the default limits, as `make run` has them."""
    limit_ip, _window = django_settings.RATE_LIMITS["login-ip"]
    limit_user, _window = django_settings.RATE_LIMITS["login-user"]
    members = [
        User.objects.create_user(f"member{i}", f"m{i}@example.org", PASSWORD)
        for i in range(limit_ip + 5)
    ]
    for member in members:
        phone = Client(REMOTE_ADDR="198.51.100.7")
        assert _login(phone, member.username, PASSWORD).status_code == 302
        assert phone.session.get(SESSION_KEY) == str(member.pk)
    for _ in range(limit_user + 2):
        phone = Client(REMOTE_ADDR="198.51.100.7")
        assert _login(phone, "member0", PASSWORD).status_code == 302
    # Guessing from that address is still stopped at the limit.
    guesses = [_login(client, "member1", REMOTE_ADDR="198.51.100.7") for _ in range(limit_user)]
    assert [g.status_code for g in guesses] == [422] * limit_user
    _refused_by_a_page(_login(client, "member1", PASSWORD, REMOTE_ADDR="198.51.100.7"))


def test_failed_logins_still_count_after_a_successful_one(client, ana, limits, clock):
    limits("login-user", 2, 900)
    assert _login(client, "ana").status_code == 422
    assert _login(Client(), "ana", PASSWORD).status_code == 302
    assert _login(client, "ana").status_code == 422
    # Two failures in the window: the third attempt is refused, right password or not.
    _refused_by_a_page(_login(Client(), "ana", PASSWORD))


@pytest.mark.parametrize("backend", ["database", "local memory"])
def test_a_refund_gives_back_exactly_one_hit(settings, limits, clock, backend):
    """``refund`` is the inverse of ``hit`` on either kind of cache (Redis takes the
    local-memory cache's path: its decr keeps the key's expiry, as incr does)."""
    if backend == "local memory":
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": "throttle-refund-test",
            }
        }
    limits("login-user", 3, 900)
    first = security.hit("login-user", "ana")
    second = security.hit("login-user", "ana")
    assert (first.count, second.count) == (1, 2)
    security.refund(second)
    assert security.hit("login-user", "ana").count == 2
    # A window that ended meanwhile has nothing to give back, and the new one is
    # left alone.
    clock["t"] += 900
    fresh = security.hit("login-user", "ana")
    security.refund(first)
    assert fresh.count == 1
    assert security.hit("login-user", "ana").count == 2
    # Nothing counted, nothing given back.
    security.refund(security.NOT_LIMITED)


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


def test_reset_mail_is_limited_per_recipient_and_the_page_says_nothing(
    client, ana, clock, mailoutbox
):
    """issue 19: 30 reset requests in a row for one address all sent a mail. Past the
    per-address limit ("mail-recipient") no mail goes out, and the answer is the one
    every request gets: the same redirect to the same page."""
    limit, window = django_settings.RATE_LIMITS["mail-recipient"]
    assert (limit, window) == (3, 3600)
    form = {"email": "ana@example.org"}
    answers = [
        # From many addresses, so that the per-address limit of the form is not met.
        client.post("/en/accounts/password/reset/", form, REMOTE_ADDR=f"192.0.2.{i + 1}")
        for i in range(30)
    ]
    assert {(a.status_code, a["Location"]) for a in answers} == {
        (302, "/en/accounts/password/reset/sent/")
    }
    assert len(mailoutbox) == limit
    assert client.get("/en/accounts/password/reset/sent/").status_code == 200
    # Another address is not held up; after the window, ana gets mail again.
    User.objects.create_user("bert", "bert@example.org", PASSWORD)
    client.post("/en/accounts/password/reset/", {"email": "bert@example.org"})
    assert [mail.to for mail in mailoutbox[limit:]] == [["bert@example.org"]]
    clock["t"] += window
    client.post("/en/accounts/password/reset/", form, REMOTE_ADDR="198.51.100.1")
    assert mailoutbox[-1].to == ["ana@example.org"]
    assert len(mailoutbox) == limit + 2


# -- who the client is ---------------------------------------------------------------------


def _request(rf, remote="203.0.113.5", forwarded=None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return rf.get("/en/", **extra)


@pytest.fixture
def proxies(settings):
    """Name the trusted proxies: ``proxies("127.0.0.1", "10.0.0.0/8")``, as the
    FORWARDED_ALLOW_IPS environment variable does. (Before issue 19, HTTPS=1 set
    TRUSTED_PROXY_HOPS=1, which trusted X-Forwarded-For from anybody.)"""

    def trust(*allowed: str) -> None:
        settings.FORWARDED_ALLOW_IPS = list(allowed)

    return trust


def test_spoofed_forwarded_for_from_an_untrusted_address_counts_as_one_client(
    client, proxies, limits, clock
):
    """issue 19: with HTTPS=1 the rate limits trusted any X-Forwarded-For (400 of 400
    spoofed API calls passed). A client that is not a trusted proxy is its REMOTE_ADDR,
    whatever it writes in the header."""
    proxies("127.0.0.1")
    limits("api", 5, 60)
    answers = [
        _api(
            client,
            REMOTE_ADDR="203.0.113.50",
            HTTP_X_FORWARDED_FOR=f"198.51.{i // 200}.{i % 200 + 1}",
        ).status_code
        for i in range(400)
    ]
    assert answers.count(200) == 5
    assert answers.count(429) == 395


def test_from_a_trusted_proxy_each_forwarded_client_has_its_own_counter(
    client, proxies, limits, clock
):
    """issue 19: behind a proxy named in FORWARDED_ALLOW_IPS, the client is the address
    that proxy added; what the client wrote before it changes nothing."""
    proxies("10.0.0.0/8")
    limits("api", 2, 60)
    behind = {"REMOTE_ADDR": "10.1.2.3"}
    assert _api(client, HTTP_X_FORWARDED_FOR="192.0.2.1", **behind).status_code == 200
    assert _api(client, HTTP_X_FORWARDED_FOR="6.6.6.6, 192.0.2.1", **behind).status_code == 200
    _refused_by_the_api(_api(client, HTTP_X_FORWARDED_FOR="7.7.7.7, 192.0.2.1", **behind))
    assert _api(client, HTTP_X_FORWARDED_FOR="192.0.2.2", **behind).status_code == 200
    assert _api(client, HTTP_X_FORWARDED_FOR="192.0.2.3", **behind).status_code == 200
    # The proxy itself, without the header, is one more client.
    assert _api(client, **behind).status_code == 200


def test_without_a_trusted_proxy_x_forwarded_for_is_ignored(rf, proxies):
    """issue 19: REMOTE_ADDR is the client unless it is one of the trusted proxies."""
    proxies("127.0.0.1")
    assert security.client_ip(_request(rf, forwarded="192.0.2.77")) == "203.0.113.5"
    assert security.client_ip(_request(rf, "127.0.0.2", forwarded="192.0.2.77")) == "127.0.0.2"
    proxies()  # none trusted
    assert security.client_ip(_request(rf, "127.0.0.1", forwarded="192.0.2.77")) == "127.0.0.1"


def test_the_chain_is_walked_from_the_right_past_trusted_proxies(rf, proxies):
    """issue 19: the client is the right-most address that is not a trusted proxy; the
    entries left of it are whatever the client sent and never count."""
    proxies("127.0.0.1", "10.0.0.0/8", "2001:db8:ffff::/48")
    chain = "192.0.2.66, 198.51.100.20, 10.0.0.2"
    assert security.client_ip(_request(rf, "127.0.0.1", chain)) == "198.51.100.20"
    chain = "192.0.2.66, 198.51.100.20, 2001:db8:ffff::7"
    assert security.client_ip(_request(rf, "10.9.9.9", chain)) == "198.51.100.20"
    # Nothing but proxies in the chain: the left-most of them.
    assert security.client_ip(_request(rf, "127.0.0.1", "10.0.0.3, 10.0.0.2")) == "10.0.0.3"
    # No header: the proxy's own address.
    assert security.client_ip(_request(rf, "127.0.0.1")) == "127.0.0.1"
    # Addresses written with a port, IPv6 in brackets.
    assert security.client_ip(_request(rf, "127.0.0.1", "192.0.2.5:4711")) == "192.0.2.5"
    assert security.client_ip(_request(rf, "127.0.0.1", "[2001:db8:1:2::9]:443")) == (
        "2001:db8:1:2::/64"
    )
    # A proxy reached over IPv6 with an IPv4 address (a dual-stack socket).
    assert security.client_ip(_request(rf, "::ffff:127.0.0.1", "192.0.2.8")) == "192.0.2.8"
    # Not an address: taken as written (a proxy's "unknown"), never walked past.
    assert security.client_ip(_request(rf, "127.0.0.1", "192.0.2.9, unknown")) == "unknown"


def test_any_proxy_trusts_the_peer_but_not_the_rest_of_the_chain(rf, proxies):
    """issue 19: FORWARDED_ALLOW_IPS="*" (as gunicorn reads it) trusts whoever connects
    to add the right-most entry; the entries left of it are still the client's."""
    proxies("*")
    request = _request(rf, "203.0.113.5", "192.0.2.66, 10.0.0.2, 198.51.100.20")
    assert security.client_ip(request) == "198.51.100.20"
    proxies("*", "10.0.0.0/8")
    request = _request(rf, "203.0.113.5", "192.0.2.66, 198.51.100.20, 10.0.0.2")
    assert security.client_ip(request) == "198.51.100.20"


def test_a_unix_socket_peer_is_a_trusted_proxy(rf, proxies):
    """issue 19: behind a proxy on a UNIX socket REMOTE_ADDR is empty; only a process on
    this machine can connect there (gunicorn trusts it too)."""
    proxies("127.0.0.1")
    assert security.client_ip(_request(rf, "", "192.0.2.66, 198.51.100.20")) == "198.51.100.20"
    assert security.client_ip(_request(rf, "")) == "unknown"


def test_ipv6_clients_are_counted_by_their_64_network(rf, proxies):
    proxies("127.0.0.1")
    one = security.client_ip(_request(rf, remote="2001:db8:1:2::10"))
    other = security.client_ip(_request(rf, remote="2001:db8:1:2:aaaa::1"))
    assert one == other == "2001:db8:1:2::/64"
    assert security.client_ip(_request(rf, remote="::ffff:192.0.2.4")) == "192.0.2.4"
    assert security.client_ip(_request(rf, remote="not-an-address")) == "not-an-address"


def test_a_proxied_api_client_is_limited_by_its_own_address(client, proxies, limits, clock):
    proxies("127.0.0.1")
    limits("api", 1, 60)
    assert _api(client, HTTP_X_FORWARDED_FOR="192.0.2.1").status_code == 200
    # Changing the part of the header that the client writes helps nothing.
    _refused_by_the_api(_api(client, HTTP_X_FORWARDED_FOR="10.9.9.9, 192.0.2.1"))
    assert _api(client, HTTP_X_FORWARDED_FOR="192.0.2.2").status_code == 200


# -- the counters' table holds plain data, never a pickle ----------------------------------


def _plant(cache, key: str, value: str) -> None:
    """Write a row straight into the cache table, as whoever can write the database could."""
    expires = datetime.datetime(2100, 1, 1, tzinfo=datetime.UTC)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {cache._table} (cache_key, value, expires) VALUES (%s, %s, %s)",
            [
                cache.make_and_validate_key(key),
                value,
                connection.ops.adapt_datetimefield_value(expires),
            ],
        )


class _MakesAFile:
    """A pickle that, once loaded, makes a directory: proof that it ran."""

    def __init__(self, path: Path):
        self.path = path

    def __reduce__(self):
        return (os.mkdir, (str(self.path),))


def test_a_planted_pickle_is_never_loaded_and_counts_as_missing(tmp_path, limits, clock):
    """issue 19: Django's DatabaseCache unpickles its rows, so anyone who can write to
    the database could run code in every worker. The counters' cache stores plain JSON
    and takes a row that is not plain data for a missing one."""
    cache = caches["default"]
    proof = tmp_path / "ran"
    payload = base64.b64encode(pickle.dumps(_MakesAFile(proof))).decode()
    _plant(cache, "planted", payload)
    found = cache.get("planted", "missing")
    assert not proof.exists()
    assert found == "missing"
    assert not cache.has_key("planted")
    assert cache.add("planted", 1)
    assert cache.get("planted") == 1
    # Where a rate limit's counter will be: the limit counts from one, nothing runs.
    limits("api", 5, 60)
    _plant(cache, _key("api", "192.0.2.1"), payload)
    assert security.hit("api", "192.0.2.1").count == 1
    assert security.hit("api", "192.0.2.1").count == 2
    assert not proof.exists()


def test_the_counters_cache_keeps_plain_values_through_every_path(clock):
    cache = caches["default"]
    cache.set("n", 1)
    assert cache.incr("n", 4) == 5
    assert cache.get_many(["n", "absent"]) == {"n": 5}
    assert cache.touch("n", 60)
    assert not cache.add("n", 9)
    cache.set_many({"text": "Skat", "list": [1, "two", None], "map": {"a": True}})
    assert cache.get_many(["text", "list", "map"]) == {
        "text": "Skat",
        "list": [1, "two", None],
        "map": {"a": True},
    }
    assert cache.get_or_set("fresh", 7) == 7
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT value FROM {cache._table} WHERE cache_key = %s",
            [cache.make_and_validate_key("list")],
        )
        assert json.loads(cursor.fetchone()[0]) == [1, "two", None]
    # What JSON cannot hold is refused when stored, not turned into a pickle.
    with pytest.raises(TypeError):
        cache.set("when", datetime.date(2024, 1, 1))
    for number, junk in enumerate(("not json", "NaN", "", "gASVCwAAAAAAAABdlC4=")):
        _plant(cache, f"junk-{number}", junk)
        assert cache.get(f"junk-{number}") is None


def test_the_redis_serializer_keeps_numbers_plain_and_loads_no_pickle(tmp_path):
    """issue 19: Redis's cache would unpickle too; it gets the same JSON serializer."""
    serializer = PlainSerializer()
    assert serializer.dumps(5) == b"5"  # Redis's INCR works on it
    assert serializer.loads(b"5") == 5
    assert serializer.loads(serializer.dumps({"a": [1, "zwei"]})) == {"a": [1, "zwei"]}
    proof = tmp_path / "ran"
    for junk in (pickle.dumps(_MakesAFile(proof)), b"\xff", b"NaN", b""):
        with pytest.raises(ValueError):
            serializer.loads(junk)
    assert not proof.exists()


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
    assert "scorekeeper.plain_cache.PlainSerializer" in shown["redis"]
    assert "DatabaseCache" in shown["db"]
    assert "scorekeeper_cache" in shown["db"]


def test_a_counter_update_does_not_count_the_table_and_a_new_row_culls_past_the_limit():
    """Django's database cache counts every row of its table at every write (to cull
    the oldest past MAX_ENTRIES): a scan on every rate-limited request, inside SQLite's
    one write lock. Only an insert can take the table past its size, so only an
    insert counts (issue 20)."""
    from django.test.utils import CaptureQueriesContext

    cache = caches["default"]
    cache.set("counter", 1, 60)
    with CaptureQueriesContext(connection) as update:
        cache.set("counter", 2, 60)
    assert cache.get("counter") == 2
    assert not [q for q in update.captured_queries if "COUNT(" in q["sql"].upper()]
    with CaptureQueriesContext(connection) as insert:
        cache.set("another", 1, 60)
    assert [q for q in insert.captured_queries if "COUNT(" in q["sql"].upper()]
    # Past MAX_ENTRIES, a new row culls the table as Django's own cache does.
    small = type(cache)(cache._table, {"OPTIONS": {"MAX_ENTRIES": 3, "CULL_FREQUENCY": 2}})
    small.clear()
    for n in range(6):
        small.set(f"row-{n}", n, 60)
    kept = [n for n in range(6) if small.get(f"row-{n}") is not None]
    assert len(kept) < 6
    assert 5 in kept
