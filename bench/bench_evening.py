"""Benchmark of a club evening at 100 players (25 tables) and 3 series.

Run: .venv/bin/python bench/bench_evening.py   (or: make bench)

It serves the app as ``make run`` does (gunicorn, two workers, a fresh SQLite file)
and plays a whole evening over HTTP, as the room does: the organiser draws each
series on the board (the first by lot, the next two seeded by the ranking), and 25
phones, one per table, each on its own connection, enter a shortened series of 8
deals through the sheet's form at once: in every round all 25 tables send their deal
within the same second. While they do, one more client follows the evening as the
organiser's board, the big screen and a player's phone do (the board's poll, the
big screen's poll and the ranking page), each request beside a bare view
(``/healthz``), and times it. Every table must end with its 8 deals, each once.

Then, at rest, over one kept-alive connection, in alternating blocks with the bare
view: the organiser's board and its poll, the ranking page, and the big screen and
its poll, at 25 tables and, for comparison, for an evening of 8 players (2 tables);
and it counts each page's queries in this process. Issue 17 asks for each within 20×
the bare view, with a number of queries that does not grow with the number of tables
(tests/test_evenings_pages.py asserts the counts).
"""

from __future__ import annotations

import datetime
import os
import random
import re
import secrets
import statistics
import threading
import time

# The queries are counted in this process with Django's test client ("testserver").
os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost,testserver"

from bench_sheet import DATA_DIR, Phone, free_port, ready, serve, timed  # sets up Django
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext

from evenings import services
from evenings.models import Evening, EveningTable
from games import services as sheet_services

RUNS = 60
SERIES = 3
DEALS = 8
TARGET = 20.0
WORKERS = 2  # as make run
HTMX = {"HX-Request": "true", "HX-Current-URL": "http://127.0.0.1/"}
PAGES = {
    "board": "/en/e/{organiser}/",
    "board poll": "/en/e/{organiser}/tables",
    "ranking": "/en/r/{view}/",
    "big screen": "/en/r/{view}/screen",
    "big screen poll": "/en/r/{view}/screen/live",
}
# What the room polls while the tables enter their deals.
FOLLOWED = ("board poll", "ranking", "big screen poll")


def deal_form(number: int, lot: random.Random) -> dict[str, str]:
    """Deal ``number`` (from 1) at a table of four, as the sheet's form sends it: the
    dealer (seat (number − 1) mod 4) sits out, the seat after him declares a game
    drawn at random, won three times in four."""
    return {
        "mode": "game",
        "declarer": str(number % 4),
        "game": lot.choice(["diamonds", "hearts", "spades", "clubs", "grand"]),
        "bid": "18",
        "matadors_by": "count",
        "matadors_direction": "with",
        "matadors_count": "1",
        "matadors": "with-1",
        "result_by": "outcome",
        "outcome": "won" if lot.random() < 0.75 else "lost",
        "entry_fresh": "1",
        "idempotency_key": secrets.token_hex(8),
    }


def new_evening(players: int) -> Evening:
    evening = services.evening_create(
        name=f"Evening of {players}",
        played_on=datetime.date.today(),
        series_count=SERIES,
        series_deals={"3": 6, "4": DEALS},
    )
    services.players_add(evening=evening, names=[f"Player {i:03d}" for i in range(players)])
    return evening


def draw(port: int, evening: Evening, number: int) -> list[EveningTable]:
    """The organiser draws series ``number`` on the board, as the page's form does."""
    organiser = Phone(port)
    board = f"/en/e/{evening.organiser_token}/"
    organiser.request("GET", board)
    form = {"method": "lot", "seed": str(number)} if number == 1 else {"method": "seeded"}
    status, raw, _sent = organiser.request("POST", board + "draw", form)
    if status != 302:
        raise SystemExit(f"Drawing series {number} answered {status}: {raw[:300]!r}")
    return list(
        EveningTable.objects.select_related("sheet").filter(
            series__evening=evening, series__number=number
        )
    )


def play_here(evening: Evening) -> None:
    """The small evening for comparison, drawn and played in this process through the
    sheets' own service."""
    lot = random.Random(8)
    for number in range(1, SERIES + 1):
        services.series_draw(
            evening=evening, method="lot" if number == 1 else "seeded", seed=number
        )
        for table in EveningTable.objects.filter(series__evening=evening, series__number=number):
            for deal in range(1, DEALS + 1):
                sheet_services.hand_record(
                    sheet=table.sheet,
                    data={
                        "declarer": deal % 4,
                        "game": lot.choice(["diamonds", "hearts", "spades", "clubs", "grand"]),
                        "bid": 18,
                        "matadors": {"with": 1},
                        "outcome": "won" if lot.random() < 0.75 else "lost",
                    },
                )


class Room:
    """The tables entering at once, and the organiser, the big screen and a phone
    following them; every request's milliseconds, by what was asked."""

    def __init__(self, port: int, evening: Evening) -> None:
        self.port = port
        self.evening = evening
        self.times: dict[str, list[float]] = {name: [] for name in (*FOLLOWED, "bare", "deal")}
        self.failures: list[str] = []
        self.lock = threading.Lock()

    def _note(self, name: str, took: float) -> None:
        with self.lock:
            self.times[name].append(took)

    def table(self, table: EveningTable, rounds: list[threading.Barrier], seed: int) -> None:
        lot = random.Random(seed)
        phone = Phone(self.port)
        page = table.sheet.get_absolute_url()
        phone.request("GET", page)
        for number, barrier in enumerate(rounds, start=1):
            barrier.wait()
            time.sleep(lot.random())  # all 25 within the same second
            start = time.perf_counter()
            status, raw, _sent = phone.request("POST", page, deal_form(number, lot), **HTMX)
            self._note("deal", (time.perf_counter() - start) * 1000)
            if status != 200 or b"error-box" in raw:
                self.failures.append(f"table {table.number} deal {number}: {status}")

    def follow(self, stop: threading.Event) -> None:
        phone = Phone(self.port)
        paths = {
            name: PAGES[name].format(
                organiser=self.evening.organiser_token, view=self.evening.view_token
            )
            for name in FOLLOWED
        }
        while not stop.is_set():
            for name, path in paths.items():
                for asked, what in ((name, path), ("bare", "/healthz")):
                    start = time.perf_counter()
                    status, _raw, _sent = phone.request("GET", what)
                    self._note(asked, (time.perf_counter() - start) * 1000)
                    if status != 200:
                        self.failures.append(f"{what}: {status}")
            time.sleep(0.05)

    def series(self, number: int) -> None:
        tables = draw(self.port, self.evening, number)
        # A barrier per round: no table sends deal n + 1 before every table has sent n.
        rounds = [threading.Barrier(len(tables)) for _ in range(DEALS)]
        stop = threading.Event()
        watcher = threading.Thread(target=self.follow, args=(stop,))
        watcher.start()
        phones = [
            threading.Thread(target=self.table, args=(t, rounds, number * 100 + t.number))
            for t in tables
        ]
        for phone in phones:
            phone.start()
        for phone in phones:
            phone.join()
        stop.set()
        watcher.join()
        for table in tables:
            table.refresh_from_db()
            table.sheet.refresh_from_db()
            if (table.deals, table.sheet.deal_count, table.done) != (DEALS, DEALS, True):
                self.failures.append(
                    f"series {number} table {table.number}: {table.sheet.deal_count} deals"
                )


def queries(client: Client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        client.get(path)
    return len(captured)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    # The pages name their static files by the manifest (make bench collects them too).
    call_command("collectstatic", interactive=False, verbosity=0)
    big, small = new_evening(100), new_evening(8)
    play_here(small)
    port = free_port()
    server = serve(port, workers=WORKERS)
    try:
        ready(port)
        room = Room(port, big)
        started = time.perf_counter()
        for number in range(1, SERIES + 1):
            room.series(number)
        took = time.perf_counter() - started
        if room.failures:
            raise SystemExit("The evening went wrong:\n" + "\n".join(room.failures[:20]))
        deals = room.times["deal"]
        print(
            f"An evening of 100 players: {SERIES} series of {DEALS} deals at 25 tables entering "
            f"at once over HTTP ({len(deals)} deals, every one stored once) in {took:.0f} s; "
            f"a deal took {statistics.median(deals):.1f} ms (median), {p95(deals):.1f} ms (p95)."
        )
        bare = statistics.median(room.times["bare"])
        print(f"While they entered (bare view {bare:.2f} ms median beside them):")
        print(f"  {'request':<16} {'median ms':>9} {'p95 ms':>8} {'×bare':>6} {'n':>5}")
        during = []
        for name in FOLLOWED:
            values = room.times[name]
            median = statistics.median(values)
            during.append(median / bare)
            print(
                f"  {name:<16} {median:>9.1f} {p95(values):>8.1f} {median / bare:>6.1f} "
                f"{len(values):>5}"
            )
        # The server closed the first connection while it sat idle: open a new one.
        phone = Phone(port)
        counts = {}
        storages = {
            **settings.STORAGES,
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
        }
        with override_settings(STORAGES=storages):
            client = Client()
            for players, evening in ((8, small), (100, big)):
                for name, page in PAGES.items():
                    path = page.format(organiser=evening.organiser_token, view=evening.view_token)
                    client.get(path)
                    counts[players, name] = queries(client, path)
        rows = []
        for players, evening in ((8, small), (100, big)):
            for name, page in PAGES.items():
                path = page.format(organiser=evening.organiser_token, view=evening.view_token)
                status, _raw, _sent = phone.request("GET", path)
                assert status == 200, (path, status)
                median, floor = timed(
                    lambda path=path: phone.request("GET", path),
                    lambda: phone.request("GET", "/healthz"),
                    rounds=RUNS,
                )
                rows.append((players, name, median, floor, counts[players, name]))
    finally:
        server.terminate()
        server.wait(timeout=30)
        with open(os.path.join(DATA_DIR, "server.log")) as log:
            errors = log.read()
        if "Traceback" in errors:
            print(errors[-3000:])
    print("At rest, after the evening:")
    print(
        f"  {'players':>7}  {'page':<16} {'median ms':>9} {'bare ms':>8} {'×bare':>6} "
        f"{'queries':>7}"
    )
    for players, name, page, floor, count in rows:
        print(
            f"  {players:>7}  {name:<16} {page:>9.1f} {floor:>8.2f} {page / floor:>6.1f} {count:>7}"
        )
    same = all(counts[8, name] == counts[100, name] for name in PAGES)
    print(f"Query counts the same at 2 and 25 tables: {same}.")
    worst = max([page / floor for players, _n, page, floor, _c in rows if players == 100] + during)
    verdict = "within" if worst <= TARGET else "OVER"
    print(f"Worst at 25 tables: {worst:.1f}× the bare view ({verdict} {TARGET:.0f}×).")


if __name__ == "__main__":
    if not re.fullmatch(r"\d+", str(RUNS)):
        raise SystemExit("RUNS is a whole number")
    main()
