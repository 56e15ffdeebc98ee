"""Benchmark of the score sheet's server time against a bare Django view.

Run: .venv/bin/python bench/bench_sheet.py   (or: make bench)

In one process, through Django's full middleware stack and a real SQLite file (WAL,
as `make run` uses), it times:
- a bare view that returns a short text response (the floor of the stack);
- the sheet page of a Skat sheet with 36 deals (the whole series replayed);
- entering a deal through the web form, htmx-style (the board comes back);
- the read-only view's poll while nothing changed (204);
and prints the median time of each and its ratio to the bare view.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix="scorekeeper-bench-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
os.environ["ALLOWED_HOSTS"] = "testserver"
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.http import HttpResponse  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.urls import path  # noqa: E402

from games import services  # noqa: E402
from scorekeeper.urls import urlpatterns as site_urls  # noqa: E402


def bare(request):
    return HttpResponse("ok")


# The bare view beside the whole site's URLs (the sheet page links to accounts and circles).
urlpatterns = [path("bench/bare", bare), *site_urls]

ROUNDS = 200
DEAL = {
    "mode": "game",
    "declarer": "1",
    "game": "grand",
    "bid": "24",
    "matadors_by": "count",
    "matadors_direction": "with",
    "matadors_count": "2",
    "result_by": "outcome",
    "outcome": "won",
}


def timed(action, rounds: int = ROUNDS) -> float:
    """Median milliseconds of ``action`` over ``rounds`` calls, after a warm-up."""
    for _ in range(5):
        action()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    call_command("migrate", verbosity=0)
    players = ["Ana", "Ben", "Cem"]
    sheet = services.sheet_create(game="skat", players=players, options={"series_deals": 100})
    for number in range(36):
        services.hand_record(
            sheet=sheet,
            data={
                "declarer": (number + 1) % 3,
                "game": ["clubs", "grand", "hearts", "null"][number % 4],
                "bid": 18,
                "matadors": {"with": 1},
                "outcome": "won" if number % 3 else "lost",
            }
            if number % 4 != 3
            else {"declarer": (number + 1) % 3, "game": "null", "bid": 23, "outcome": "won"},
        )
    client = Client()
    page = sheet.get_absolute_url()
    view = sheet.get_view_url()
    live = f"/v/{sheet.view_token}/live?since="

    def enter_deal():
        # Add the 37th deal and take it off again, so every round sees 36 deals.
        client.post(page, DEAL, HTTP_HX_REQUEST="true")
        services.hand_remove(sheet=sheet, number=37)

    with override_settings(ROOT_URLCONF=__name__):
        sheet.refresh_from_db()
        results = [
            ("bare Django view", timed(lambda: client.get("/bench/bare"))),
            ("sheet page, 36 deals", timed(lambda: client.get(page))),
            ("read-only page, 36 deals", timed(lambda: client.get(view))),
            ("enter a deal (htmx board back)", timed(enter_deal, rounds=100)),
        ]
        sheet.refresh_from_db()  # the deals entered above moved the version on
        unchanged = live + str(sheet.version)
        assert client.get(unchanged).status_code == 204
        results.append(("read-only poll, unchanged (204)", timed(lambda: client.get(unchanged))))
    floor = results[0][1]
    print(f"{'case':<34} {'median ms':>10} {'× bare':>8}")
    for name, ms in results:
        print(f"{name:<34} {ms:>10.2f} {ms / floor:>8.1f}")


if __name__ == "__main__":
    main()
