"""Benchmark of a season's standings at 100 and at 1,000 finished sheets.

Run: .venv/bin/python bench/bench_standings.py [--profile]   (or: make bench)

In a temporary SQLite file (WAL, as `make run` uses) it builds, for each size, a
circle of eight players with a season of finished sheets of 36 deals (mostly Skat,
every tenth Pitch and every tenth Manipulation) plus one open sheet. The rows are
bulk-created, but what each seat contributes is real: a few sheets are played through
the sheet engines with the demo's random legal deals and
``circles.rules.contributions.seat_stats``, and every sheet of the season reuses one
of them with other players at the table. Then it times, 20 times each after a
warm-up:
- ``circles.selectors.season_standings(season)``;
- the standings page (``circles:season``) as a signed-in member, through the full
  middleware stack;
- ``GET /api/v1/seasons/<id>/standings`` with the season's view token;
and prints the median, the 95th percentile and the number of queries of each. The
target is 300 ms for 1,000 sheets; a case slower than that (or every case, with
--profile) gets a cProfile summary of where the time goes.
"""

from __future__ import annotations

import cProfile
import os
import pstats
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

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from circles import selectors  # noqa: E402
from circles.season_factory import TEMPLATES, build_season  # noqa: E402

SIZES = (100, 1000)
RUNS = 20
TARGET_MS = 300


def timed(action) -> tuple[float, float]:
    """Median and 95th percentile in milliseconds of ``action`` over RUNS calls."""
    for _ in range(3):
        action()
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, round(0.95 * len(samples)))]


def queries(action) -> int:
    with CaptureQueriesContext(connection) as captured:
        action()
    return len(captured)


def profile(name: str, action) -> None:
    """Where the time of ``action`` goes: the project's functions by cumulative time,
    then every function by its own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(5):
        action()
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # {(file, line, function): (cc, nc, tt, ct, callers)}
    total = sum(tt for _cc, _nc, tt, _ct, _callers in stats.values())
    project = str(ROOT) + os.sep

    def where(key: tuple[str, int, str]) -> str:
        file, line, function = key
        return f"{file.removeprefix(project)}:{line} {function}"

    print(f"\ncProfile of {name}: 5 calls, {total * 1000 / 5:.0f} ms a call profiled.")
    print(f"  {'ms a call':>9} {'calls':>8}  project function (cumulative)")
    apps = tuple(project + app + os.sep for app in ("accounts", "circles", "games", "scorekeeper"))
    own = [(key, v) for key, v in stats.items() if key[0].startswith(apps)]
    for key, (_cc, calls, _tt, ct, _callers) in sorted(own, key=lambda kv: -kv[1][3])[:16]:
        print(f"  {ct * 1000 / 5:>9.1f} {calls // 5:>8}  {where(key)}")
    print(f"  {'ms a call':>9} {'calls':>8}  any function (own time)")
    for key, (_cc, calls, tt, _ct, _callers) in sorted(stats.items(), key=lambda kv: -kv[1][2])[:8]:
        print(f"  {tt * 1000 / 5:>9.1f} {calls // 5:>8}  {where(key)}")


def main() -> None:
    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    seasons = {size: build_season(size, seed=size) for size in SIZES}
    built = time.perf_counter() - started
    print(
        f"Played {len(TEMPLATES)} sheets through the engines and built seasons of "
        f"{' and '.join(map(str, SIZES))} finished sheets in {built:.1f} s."
    )
    rows = []
    slow = []
    # The page is measured without the collectstatic manifest (it may be stale here).
    storages = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    with override_settings(STORAGES=storages):
        for size, (season, user) in seasons.items():
            member = Client()
            member.force_login(user)
            page = season.get_absolute_url()
            api = f"/api/v1/seasons/{season.pk}/standings"
            bearer = {"HTTP_AUTHORIZATION": f"Bearer {season.view_token}"}

            def standings(season=season):
                return selectors.season_standings(season)

            def page_get(member=member, page=page):
                response = member.get(page)
                assert response.status_code == 200, response.status_code
                return response

            def api_get(api=api, bearer=bearer):
                response = Client().get(api, **bearer)
                assert response.status_code == 200, response.status_code
                return response

            assert selectors.season_standings(season).counted_sheets == size
            for name, action in (
                ("season_standings()", standings),
                ("standings page, member", page_get),
                ("API standings, Bearer token", api_get),
            ):
                median, p95 = timed(action)
                rows.append((size, name, median, p95, queries(action)))
                if size == max(SIZES) and (median > TARGET_MS or "--profile" in sys.argv):
                    slow.append((f"{name} at {size} sheets", action))
        print(f"{'sheets':>6}  {'case':<28} {'median ms':>10} {'p95 ms':>8} {'queries':>8}")
        for size, name, median, p95, count in rows:
            print(f"{size:>6}  {name:<28} {median:>10.1f} {p95:>8.1f} {count:>8}")
        by_case: dict[str, set[int]] = {}
        for _size, name, *_times, count in rows:
            by_case.setdefault(name, set()).add(count)
        same = all(len(counts) == 1 for counts in by_case.values())
        print(f"Query counts the same at {' and '.join(map(str, SIZES))} sheets: {same}.")
        worst = max(median for size, _n, median, _p, _c in rows if size == max(SIZES))
        verdict = "within" if worst <= TARGET_MS else "OVER"
        print(f"Slowest median at {max(SIZES)} sheets: {worst:.1f} ms, {verdict} the target.")
        for name, action in slow:
            profile(name, action)


if __name__ == "__main__":
    main()
