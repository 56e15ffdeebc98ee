"""Past one machine: two app servers behind a proxy, sharing one PostgreSQL and one
Redis (issue 20).

``tests/servers.py`` starts them on the loopback: a fresh PostgreSQL database, a Redis
on a free port, two gunicorns (one worker each, a DATA_DIR each, the same SECRET_KEY)
and HAProxy in front (nginx where there is no HAProxy). Then, on those two servers:

- a deal written through one server is read through the other at once, by the JSON API
  and by the read-only page's poll, whose boards each server renders and keeps for
  itself (the "renders" cache, per process, keyed by the sheet's version);
- an Idempotency-Key holds across both (the same deal sent to each, or to both at the
  same moment, is stored once; so is a deal the sheet's form sends to one and then the
  other), and so does a rate limit (Redis counts for both);
- a session started on one server holds on the other, with its message (one secret
  key), and neither server kept a file of its own;
- an evening: four tables enter deals through the proxy, each with its key, while
  their viewers follow the sheets through the proxy and on the other server; one
  server is killed in the middle, with requests under way on it (it is stopped first,
  SIGSTOP, so that what the proxy sends it waits, then SIGKILL, all its processes).
  The phones whose request was cut off send it again, with the same key, through the
  proxy, which sends it to the live server. Every table ends with every deal exactly
  once, in its order, and every viewer sees the last one.

It skips, saying why, where HAProxy and nginx, redis-server or a PostgreSQL whose role
may create databases are missing (``.ci/run`` installs haproxy and redis-server, and
starts PostgreSQL). The database is ``MULTI_SERVER_DATABASE_URL``'s, else
``DATABASE_URL``'s when that is PostgreSQL, else
``postgres://scorekeeper:scorekeeper@127.0.0.1:5432/scorekeeper``'s; the test makes a
database of its own there and drops it. ``MULTI_SERVER_PROXY=nginx`` tries nginx where
both are installed. Everything happens in one test, so that the suite's parallel
workers start the servers once.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import Counter

import pytest

from scorekeeper import settings as configured
from tests import servers
from tests.servers import DEAL_FORM, HTMX, Answer, Broken, Cluster, Phone, skat_deal, version_of

PLAYERS = ["Ana", "Ben", "Cem"]


def test_two_servers_behind_a_proxy_share_every_state():
    proxy = os.environ.get("MULTI_SERVER_PROXY") or None  # haproxy or nginx; default: either
    why = servers.missing(proxy)
    if why:
        pytest.skip(f"two servers behind a proxy: {why}")
    with Cluster(servers=2, workers=1, threads=8, proxy=proxy) as cluster:
        try:
            a_deal_written_on_one_server_is_read_on_the_other_at_once(cluster)
            an_idempotency_key_holds_across_both_servers(cluster)
            a_rate_limit_holds_across_both_servers(cluster)
            a_session_holds_across_both_servers(cluster)
            killing_a_server_mid_evening_loses_nothing(cluster)
        except BaseException:
            print(cluster.logs())  # shown with the failure
            raise


# -- helpers ------------------------------------------------------------------------------


def new_sheet(phone: Phone, key: str | None = None) -> dict:
    headers = {"Idempotency-Key": key} if key else {}
    answer = phone.request(
        "POST",
        "/api/v1/sheets",
        json_body={"game": "skat", "players": PLAYERS},
        headers=headers,
    )
    assert answer.status == 201, answer.text
    return answer.json()


def edit(sheet: dict, key: str | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {sheet['edit_token']}"}
    if key:
        headers["Idempotency-Key"] = key
    return headers


def read(phone: Phone, sheet: dict) -> dict:
    answer = phone.request("GET", f"/api/v1/sheets/{sheet['id']}", headers=edit(sheet))
    assert answer.status == 200, answer.text
    return answer.json()


def add_deal(phone: Phone, sheet: dict, index: int, key: str | None = None) -> Answer:
    return phone.request(
        "POST",
        f"/api/v1/sheets/{sheet['id']}/hands",
        json_body=skat_deal(index),
        headers=edit(sheet, key or str(uuid.uuid4())),
    )


def live(sheet: dict, since: int) -> str:
    return f"/en/v/{sheet['view_token']}/live?since={since}"


# -- the parts ----------------------------------------------------------------------------


def a_deal_written_on_one_server_is_read_on_the_other_at_once(cluster: Cluster) -> None:
    a, b = cluster.app
    on_a, on_b = Phone(a.port), Phone(b.port)
    through_proxy = Phone(cluster.proxy_port)
    sheet = new_sheet(on_a)
    assert read(on_b, sheet)["hands"] == []
    # B draws the board as it is (and keeps it in its own renders cache) before A writes.
    first = on_b.request("GET", live(sheet, -1))
    assert first.status == 200, first.text
    v0 = version_of(first)
    assert v0 == sheet["version"]

    written = add_deal(on_a, sheet, 0)
    assert written.status == 201, written.text
    totals = written.json()["totals"]
    # Read through B at once: no wait, no retry.
    now = read(on_b, sheet)
    assert [hand["entry"] for hand in now["hands"]] == [skat_deal(0)]
    assert now["totals"] == totals
    # B's viewer follows: B renders the new version itself, as A does.
    seen_on_b = on_b.request("GET", live(sheet, v0))
    seen_on_a = on_a.request("GET", live(sheet, v0))
    assert seen_on_b.status == seen_on_a.status == 200
    assert version_of(seen_on_b) == version_of(seen_on_a) == v0 + 1
    assert seen_on_b.body == seen_on_a.body != first.body
    assert str(max(map(abs, totals))) in seen_on_b.text  # (a minus is drawn as −)
    for phone in (on_a, on_b, through_proxy):
        assert phone.request("GET", live(sheet, v0 + 1)).status == 204  # nothing newer

    # And the other way round: written through B, followed on A and through the proxy.
    assert add_deal(on_b, sheet, 1).status == 201
    assert version_of(on_a.request("GET", live(sheet, v0 + 1))) == v0 + 2
    assert version_of(through_proxy.request("GET", live(sheet, v0 + 1))) == v0 + 2
    assert [hand["entry"] for hand in read(on_a, sheet)["hands"]] == [skat_deal(0), skat_deal(1)]


def an_idempotency_key_holds_across_both_servers(cluster: Cluster) -> None:
    a, b = cluster.app
    on_a, on_b = Phone(a.port), Phone(b.port)
    through_proxy = Phone(cluster.proxy_port)
    sheet = new_sheet(on_a)
    key = str(uuid.uuid4())
    first = add_deal(on_a, sheet, 0, key)
    assert first.status == 201, first.text
    for phone in (on_b, through_proxy, through_proxy):
        again = add_deal(phone, sheet, 0, key)
        assert (again.status, again.json()) == (201, first.json())
    # The key names that deal on either server: another deal with it is refused.
    assert add_deal(on_b, sheet, 1, key).status == 422
    assert len(read(on_b, sheet)["hands"]) == 1

    # One key sent to both servers at the same moment (a double tap, two routes).
    key = str(uuid.uuid4())
    start = threading.Barrier(2)
    answers: dict[str, Answer] = {}

    def send(name: str, phone: Phone) -> None:
        start.wait()
        answers[name] = add_deal(phone, sheet, 1, key)

    threads = [threading.Thread(target=send, args=pair) for pair in (("a", on_a), ("b", on_b))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert answers["a"].status == answers["b"].status == 201
    assert answers["a"].json() == answers["b"].json()
    assert [hand["entry"] for hand in read(on_a, sheet)["hands"]] == [skat_deal(0), skat_deal(1)]

    # The sheet page's form carries its key too: the phone's retry on the other server.
    on_a.request("GET", f"/en/s/{sheet['edit_token']}/")  # the CSRF cookie, as a phone
    form = {**DEAL_FORM, "idempotency_key": uuid.uuid4().hex}
    page = f"/en/s/{sheet['edit_token']}/"
    assert on_a.request("POST", page, form=form, headers=HTMX).status == 200
    on_b.cookies = dict(on_a.cookies)
    assert on_b.request("POST", page, form=form, headers=HTMX).status == 200
    assert len(read(on_a, sheet)["hands"]) == 3

    # A new sheet's key is kept for the client's address: the same on both servers.
    address = "10.20.0.1"
    key = str(uuid.uuid4())
    made = new_sheet(Phone(a.port, address), key)
    assert new_sheet(Phone(b.port, address), key)["id"] == made["id"]
    assert new_sheet(Phone(cluster.proxy_port, address), key)["id"] == made["id"]


def a_rate_limit_holds_across_both_servers(cluster: Cluster) -> None:
    """Starting sheets is limited per client ("sheet-new"): the servers count together."""
    a, b = cluster.app
    allowed, _seconds = configured.RATE_LIMITS["sheet-new"]
    address = "10.30.0.1"
    on_a, on_b = Phone(a.port, address), Phone(b.port, address)
    for n in range(allowed):
        new_sheet(on_a if n % 2 else on_b)  # half on each: each alone is far from its limit
    for phone in (on_a, on_b, Phone(cluster.proxy_port, address)):
        refused = phone.request(
            "POST", "/api/v1/sheets", json_body={"game": "skat", "players": PLAYERS}
        )
        assert refused.status == 429, refused.text
        assert int(refused.headers["retry-after"]) > 0
    new_sheet(Phone(b.port, "10.30.0.2"))  # another client is not held up


def a_session_holds_across_both_servers(cluster: Cluster) -> None:
    """Signed up on A, logged in on B, with A's message: one secret key (given by the
    environment), sessions in the database. No server kept a file of its own."""
    a, b = cluster.app
    on_a = Phone(a.port)
    assert on_a.request("GET", "/en/accounts/signup/").status == 200
    assert "csrftoken" in on_a.cookies
    name = f"multi{uuid.uuid4().hex[:8]}"
    password = f"Pw-{uuid.uuid4().hex}"
    signed_up = on_a.request(
        "POST",
        "/en/accounts/signup/",
        form={
            "username": name,
            "email": f"{name}@example.org",
            "password1": password,
            "password2": password,
        },
    )
    assert signed_up.status == 302, signed_up.text[:2000]
    on_b = Phone(b.port, on_a.address)
    on_b.cookies = dict(on_a.cookies)
    home = on_b.request("GET", "/en/")
    assert home.status == 200
    assert "Your account is made" in home.text  # A's message, signed, read by B
    assert name in home.text
    assert on_b.request("GET", "/en/accounts/password/").status == 200  # not to the login
    for server in cluster.app:
        assert not server.data_dir.exists() or not any(server.data_dir.iterdir()), (
            f"server {server.name} kept files of its own: {list(server.data_dir.iterdir())}"
        )


def killing_a_server_mid_evening_loses_nothing(cluster: Cluster) -> None:
    a, b = cluster.app
    tables, deals = 4, 15
    organiser = Phone(cluster.proxy_port)
    sheets = [new_sheet(organiser) for _ in range(tables)]
    acknowledged: list[list[int]] = [[] for _ in range(tables)]
    retried: list[str] = []
    failures: list[str] = []
    progress = threading.Condition()
    done = threading.Event()
    deadline = time.monotonic() + 120

    def table(number: int) -> None:
        phone = Phone(cluster.proxy_port, f"10.40.0.{number + 1}")
        sheet = sheets[number]
        try:
            for index in range(deals):
                key = str(uuid.uuid4())  # kept for the retries of this deal
                answer = phone.until_answered(
                    "POST",
                    f"/api/v1/sheets/{sheet['id']}/hands",
                    json_body=skat_deal(index),
                    headers=edit(sheet, key),
                    deadline=deadline,
                    retried=retried,
                )
                if answer.status != 201 or answer.json()["hand"]["entry"] != skat_deal(index):
                    failures.append(f"table {number}, deal {index}: {answer.status} {answer.text}")
                    return
                with progress:
                    acknowledged[number].append(index)
                    progress.notify_all()
                time.sleep(0.02)
        except Exception as error:
            failures.append(f"table {number}: {error!r}")

    # Viewers: one per table through the proxy, one per table on B (which survives).
    seen: dict[tuple[int, str], int] = {}

    def viewer(number: int, where: str, port: int) -> None:
        phone = Phone(port, timeout=10)
        since = sheets[number]["version"]
        while not done.is_set():
            try:
                answer = phone.request("GET", live(sheets[number], since))
            except Broken:
                time.sleep(0.1)  # the page polls again, through the proxy to a live server
                continue
            if answer.status == 200:
                since = version_of(answer) or since
            elif answer.status not in (204, 502, 503, 504):
                failures.append(f"viewer {where} of table {number}: {answer.status}")
                return
            seen[number, where] = since
            time.sleep(0.1)

    viewers = [
        threading.Thread(target=viewer, args=(n, where, port), daemon=True)
        for n in range(tables)
        for where, port in (("proxy", cluster.proxy_port), ("b", b.port))
    ]
    players = [threading.Thread(target=table, args=(n,), daemon=True) for n in range(tables)]
    for thread in viewers + players:
        thread.start()
    with progress:
        assert progress.wait_for(
            lambda: sum(map(len, acknowledged)) >= tables * deals // 3 or failures, timeout=60
        ), "the tables did not get a third of the way"
    # Mid-evening, with requests under way on A: they get no answer.
    cut = cluster.kill_mid_request(a)
    killed_after = sum(map(len, acknowledged))
    for thread in players:
        thread.join(max(1.0, deadline - time.monotonic()))
    assert not failures, failures
    assert [len(done_) for done_ in acknowledged] == [deals] * tables
    assert killed_after < tables * deals, "the evening was over before the kill"

    # Every table has every deal exactly once, in its order, read through the proxy.
    finals = {}
    for number, sheet in enumerate(sheets):
        body = read(organiser, sheet)
        entries = [hand["entry"] for hand in body["hands"]]
        assert entries == [skat_deal(i) for i in range(deals)], (number, Counter(map(str, entries)))
        assert [hand["number"] for hand in body["hands"]] == list(range(1, deals + 1))
        finals[number] = body["version"]

    # Every viewer, through the proxy and on B, reaches the last version.
    until = time.monotonic() + 20
    while time.monotonic() < until and any(
        seen.get((n, where)) != finals[n] for n in range(tables) for where in ("proxy", "b")
    ):
        time.sleep(0.1)
    done.set()
    assert not failures, failures
    assert {key: seen.get(key) for key in sorted(seen)} == {
        (n, where): finals[n] for n in range(tables) for where in ("b", "proxy")
    }

    # Both servers entered deals of the evening (A until it was killed).
    for server in (a, b):
        log = server.log.read_text(errors="replace")
        assert "POST /api/v1/sheets/" in log, f"server {server.name} entered no deal"

    # A comes back (same port, nothing of its own to restore) and reads it all.
    a.start()
    for sheet in sheets:
        assert len(read(Phone(a.port), sheet)["hands"]) == deals
    # Requests of the tables were cut off with A, and sent again.
    assert retried, "no table's request was under way on A when it was killed"
    print(
        f"killed after {killed_after} deals with {cut} requests under way on it; "
        f"{len(retried)} requests sent again: {retried[:5]}"
    )
