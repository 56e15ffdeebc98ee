"""Benchmark: does slow referee work hold up entering deals?

Run: .venv/bin/python bench/bench_isolation.py   (or: make bench)

It serves the app as `make run` does (gunicorn, scorekeeper/gunicorn.conf.py: two
gthread workers) on a fresh SQLite file and times, median over many requests on a
kept-alive connection: a 36-deal sheet page and entering a deal (htmx), first with
nothing else going on, then while four clients keep asking the referee to lay out
all 104 cards of a Manipulation game (`/api/v1/manipulation/arrange`), each asking
again as soon as it is answered. It does so twice: with the slow work in a niced
helper process per worker (REFEREE_PROCESSES=1, the default) and in the request's
own thread (REFEREE_PROCESSES=0), and prints the medians and the slowdown.
"""

from __future__ import annotations

import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
DATA_DIR = tempfile.mkdtemp(prefix="scorekeeper-bench-")
os.environ["DATA_DIR"] = DATA_DIR
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from bench_sheet import DEAL_FORM, Phone, deal, free_port, ready  # noqa: E402
from django.core.management import call_command  # noqa: E402

from games import services  # noqa: E402
from games.models import Sheet  # noqa: E402
from games.rules.cards import MANIPULATION_DECK  # noqa: E402

ROUNDS = int(os.environ.get("ROUNDS", "80"))
ARRANGERS = 4
ARRANGE = json.dumps({"cards": [card.code for card in MANIPULATION_DECK.cards]})


def serve(port: int, processes: int) -> subprocess.Popen:
    return subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "scorekeeper.wsgi",
            "-c",
            str(ROOT / "scorekeeper" / "gunicorn.conf.py"),
            "--bind",
            f"127.0.0.1:{port}",
            "--access-logfile",
            "/dev/null",
        ],
        cwd=ROOT,
        env={**os.environ, "DATA_DIR": DATA_DIR, "REFEREE_PROCESSES": str(processes)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def arranger(port: int, stop: threading.Event, done: list[float]) -> None:
    phone = Phone(port)
    while not stop.is_set():
        start = time.perf_counter()
        phone.connection.request(
            "POST",
            "/api/v1/manipulation/arrange",
            body=ARRANGE,
            headers={"Content-Type": "application/json"},
        )
        response = phone.connection.getresponse()
        response.read()
        if response.status != 200:
            raise SystemExit(f"The arrangement answered {response.status}")
        done.append((time.perf_counter() - start) * 1000)


def measure(port: int, sheet: Sheet) -> tuple[float, float]:
    """Median ms of the sheet page and of entering a deal (taken off again, untimed)."""
    phone = Phone(port)
    page = sheet.get_absolute_url()
    htmx = {"HX-Request": "true"}
    phone.request("GET", page)
    pages, entries = [], []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        phone.request("GET", page)
        pages.append((time.perf_counter() - start) * 1000)
        form = {**DEAL_FORM, "idempotency_key": secrets.token_hex(8)}
        start = time.perf_counter()
        status, raw, _ = phone.request("POST", page, form, **htmx)
        entries.append((time.perf_counter() - start) * 1000)
        if status != 200:
            raise SystemExit(f"Entering a deal answered {status}: {raw[:300]!r}")
        sheet.refresh_from_db()
        services.hand_remove(sheet=sheet, number=sheet.deal_count)
    return statistics.median(pages), statistics.median(entries)


def run(processes: int, sheet: Sheet) -> dict[str, float]:
    port = free_port()
    server = serve(port, processes)
    try:
        ready(port)
        idle_page, idle_entry = measure(port, sheet)
        stop, done = threading.Event(), []
        threads = [
            threading.Thread(target=arranger, args=(port, stop, done), daemon=True)
            for _ in range(ARRANGERS)
        ]
        for thread in threads:
            thread.start()
        time.sleep(1)
        busy_page, busy_entry = measure(port, sheet)
        stop.set()
        for thread in threads:
            thread.join(timeout=30)
        return {
            "idle_page": idle_page,
            "busy_page": busy_page,
            "idle_entry": idle_entry,
            "busy_entry": busy_entry,
            "arrangement": statistics.median(done) if done else float("nan"),
            "arrangements": len(done),
        }
    finally:
        server.terminate()
        server.wait(timeout=30)


def main() -> None:
    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    sheet = services.sheet_create(
        game="skat", players=["Ana", "Ben", "Cem"], options={"series_deals": 200}
    )
    for number in range(36):
        services.hand_record(sheet=sheet, data=deal(number))
    sheet.refresh_from_db()
    print(f"{ARRANGERS} clients laying out 104 cards without pause; medians in ms")
    print(
        f"{'slow work runs':<26} {'page idle':>9} {'page busy':>9} {'×':>5} "
        f"{'deal idle':>9} {'deal busy':>9} {'×':>5} {'arrange':>8}"
    )
    for processes, label in ((1, "in a niced helper"), (0, "in the request's thread")):
        r = run(processes, sheet)
        print(
            f"{label:<26} {r['idle_page']:>9.1f} {r['busy_page']:>9.1f} "
            f"{r['busy_page'] / r['idle_page']:>5.1f} {r['idle_entry']:>9.1f} "
            f"{r['busy_entry']:>9.1f} {r['busy_entry'] / r['idle_entry']:>5.1f} "
            f"{r['arrangement']:>8.0f}"
        )


if __name__ == "__main__":
    main()
