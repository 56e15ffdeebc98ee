"""Benchmark of a club evening's pages at 100 players (25 tables) and 3 series.

Run: .venv/bin/python bench/bench_evening.py   (or: make bench)

In a temporary SQLite file it starts an evening of 100 players, draws three series
(25 tables of four each, a shortened series of 8 deals; the second and third seeded
by the ranking) and lets every table enter its deals through the sheets' own service,
the tables taking turns deal by deal as a room of phones does (the deals drawn at
random, the same at every run). For comparison it builds the same evening with 8
players (2 tables). Then it serves the app as `make run` does (gunicorn, one worker,
as bench/bench_sheet.py) and times over a kept-alive connection, in alternating
blocks with the bare view (``/healthz``): the organiser's board and its poll, the
ranking page, and the big screen and its poll; and counts each page's queries in this
process. Issue 17 asks for each within 20× the bare view, with a number of queries
that does not grow with the number of tables (tests/test_evenings_pages.py asserts
the counts).
"""

from __future__ import annotations

import datetime
import os
import random
import time

# The queries are counted in this process with Django's test client ("testserver").
os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"

from bench_sheet import Phone, free_port, serve, timed  # sets up Django
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from evenings import services
from evenings.models import EveningTable
from games import services as sheet_services

RUNS = 60
SERIES = 3
DEALS = 8
TARGET = 20.0
# The deals are drawn at random, the same ones at every run.
LOT = random.Random(17)


def build(players: int) -> object:
    evening = services.evening_create(
        name=f"Evening of {players}",
        played_on=datetime.date.today(),
        series_count=SERIES,
        series_deals={"3": 6, "4": DEALS},
    )
    services.players_add(evening=evening, names=[f"Player {i:03d}" for i in range(players)])
    for number in range(1, SERIES + 1):
        services.series_draw(
            evening=evening, method="lot" if number == 1 else "seeded", seed=number
        )
        tables = list(EveningTable.objects.filter(series__evening=evening, series__number=number))
        for deal in range(1, DEALS + 1):
            for table in tables:
                if deal > table.of:
                    continue
                # At four the dealer (seat (deal − 1) mod 4) sits out: one of the other
                # three declares a game drawn at random, won three times in four.
                dealer = (deal - 1) % table.size
                playing = [s for s in range(table.size) if s != dealer or table.size == 3]
                sheet_services.hand_record(
                    sheet=table.sheet,
                    data={
                        "declarer": LOT.choice(playing),
                        "game": LOT.choice(["diamonds", "hearts", "spades", "clubs", "grand"]),
                        "bid": 18,
                        "matadors": {"with": LOT.choice([1, 1, 2, 3])},
                        "outcome": "won" if LOT.random() < 0.75 else "lost",
                    },
                )
    return evening


def queries(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        client.get(path)
    return len(captured)


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    # The pages name their static files by the manifest (make bench collects them too).
    call_command("collectstatic", interactive=False, verbosity=0)
    started = time.perf_counter()
    evenings = {players: build(players) for players in (8, 100)}
    print(
        f"Built evenings of 8 and 100 players, {SERIES} series of {DEALS} deals, every "
        f"deal entered through the sheets' service, in {time.perf_counter() - started:.0f} s."
    )
    pages = {
        "board": "/en/e/{organiser}/",
        "board poll": "/en/e/{organiser}/tables",
        "ranking": "/en/r/{view}/",
        "big screen": "/en/r/{view}/screen",
        "big screen poll": "/en/r/{view}/screen/live",
    }
    counts = {}
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages):
        client = Client()
        for players, evening in evenings.items():
            for name, page in pages.items():
                path = page.format(organiser=evening.organiser_token, view=evening.view_token)
                client.get(path)
                counts[players, name] = queries(client, path)
    port = free_port()
    server = serve(port)
    rows = []
    try:
        phone = Phone(port)
        for _ in range(100):
            try:
                if phone.request("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                phone = Phone(port)
            time.sleep(0.1)
        for players, evening in evenings.items():
            for name, page in pages.items():
                path = page.format(organiser=evening.organiser_token, view=evening.view_token)
                status, _raw, _sent = phone.request("GET", path)
                assert status == 200, (path, status)
                median, bare = timed(
                    lambda path=path: phone.request("GET", path),
                    lambda: phone.request("GET", "/healthz"),
                    rounds=RUNS,
                )
                rows.append((players, name, median, bare, counts[players, name]))
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(
        f"{'players':>7}  {'page':<16} {'median ms':>9} {'bare ms':>8} {'×bare':>6} {'queries':>7}"
    )
    for players, name, page, bare, count in rows:
        print(f"{players:>7}  {name:<16} {page:>9.1f} {bare:>8.2f} {page / bare:>6.1f} {count:>7}")
    same = all(counts[8, name] == counts[100, name] for name in pages)
    print(f"Query counts the same at 2 and 25 tables: {same}.")
    worst = max(page / bare for players, _n, page, bare, _c in rows if players == 100)
    verdict = "within" if worst <= TARGET else "OVER"
    print(f"Worst at 25 tables: {worst:.1f}× the bare view ({verdict} {TARGET:.0f}×).")


if __name__ == "__main__":
    main()
