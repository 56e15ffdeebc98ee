"""Benchmark of a circle's JSON export and import at 10, 1,000 and 5,000 finished sheets.

Run: .venv/bin/python bench/bench_transfer.py [--sizes 10,1000,5000] [--import-up-to 1000]

In a temporary SQLite file (WAL, as `make run` uses) it builds, for each size, a circle
of eight players with a season of that many finished sheets (mostly Skat, every tenth
Pitch and every tenth Manipulation, as ``circles.season_factory`` mixes them) and their
deals. A few sheets are played through the sheet engines with the demo's random legal
deals; every sheet of the circle copies one of them, deals included, with other players
at the table, and every tenth has a correction in the change log. Then:

- export: ``manage.py export_circle ID --output FILE`` timed (MB/s of the file), and
  run again under tracemalloc for its peak memory;
- import (up to --import-up-to sheets): ``manage.py import_circle FILE --owner ...``
  timed, its processor seconds (with its helper processes') and queries counted, and
  run again under tracemalloc for its peak memory (this process's; the document is
  read whole).

Each is timed twice and the faster run shown: the machine may be busy with other work.

Targets (issue 20): the export at least 10 MB/s with flat memory, the import of 1,000
sheets under 10 s with a constant number of queries per batch of sheets.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
if __name__ == "__main__":
    # The import's helper processes load this file again (as __mp_main__): they keep
    # the parent's DATA_DIR, and with it its secret key.
    os.environ["DATA_DIR"] = tempfile.mkdtemp(prefix="scorekeeper-bench-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
os.environ["ALLOWED_HOSTS"] = "testserver"
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from circles.models import (  # noqa: E402
    Circle,
    CircleSheet,
    Season,
    SeatPlayer,
    SheetResult,
)
from circles.season_factory import (  # noqa: E402
    TEMPLATES,
    circle_of_eight,
    corrections,
    game_of,
)
from circles.season_factory import played_with_deals as played  # noqa: E402
from circles.transfer import BATCH, _helpers  # noqa: E402
from games.games import GAMES  # noqa: E402
from games.models import Hand, Seat, Sheet  # noqa: E402

SIZES = (10, 1000, 5000)
IMPORT_UP_TO = 1000
EXPORT_MB_S = 10
IMPORT_SECONDS = 10
RUNS = 2


class _Quiet:
    """A command's stdout and stderr, kept (and the last line of stderr shown)."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def build_circle(sheets: int, templates: list, *, seed: int) -> tuple[Circle, Any]:
    """A circle of eight players with ``sheets`` finished sheets, ten an evening, one a
    week back from today, each with its deals; the circle and its member's account."""
    rng = random.Random(seed)
    circle, user, players = circle_of_eight(f"Transfer {sheets}", f"member{sheets}")
    evenings = max(sheets // 10, 1)
    today = datetime.date.today()
    first = today - datetime.timedelta(weeks=evenings)
    Season.objects.create(
        circle=circle,
        name="Season",
        starts_on=first,
        ends_on=today,
        skat_rules={"rank_by": "total", "drop_worst": 1, "min_series": 3},
    )
    chosen = []
    for index in range(sheets):
        game = game_of(index)
        options, entries, stats = rng.choice([(o, e, s) for g, o, e, s in templates if g == game])
        chosen.append((game, options, entries, stats, rng.sample(players, len(stats))))
    made = Sheet.objects.bulk_create(
        Sheet(
            game=game,
            options=GAMES[game].options_as_dict(GAMES[game].read_options(options, players=None)),
            deal_count=len(entries),
            version=len(entries) + 1,
            finished=True,
            played_on=first + datetime.timedelta(weeks=index // 10),
        )
        for index, (game, options, entries, _s, _at) in enumerate(chosen)
    )
    Seat.objects.bulk_create(
        Seat(sheet=sheet, position=i, name=player.name)
        for sheet, (*_rest, at) in zip(made, chosen, strict=True)
        for i, player in enumerate(at)
    )
    Hand.objects.bulk_create(
        (
            Hand(sheet=sheet, number=number, entry=entry)
            for sheet, (_g, _o, entries, _s, _at) in zip(made, chosen, strict=True)
            for number, entry in enumerate(entries, start=1)
        ),
        batch_size=2000,
    )
    links = CircleSheet.objects.bulk_create(
        CircleSheet(sheet=sheet, circle=circle, played_on=sheet.played_on) for sheet in made
    )
    SeatPlayer.objects.bulk_create(
        SeatPlayer(sheet=link, position=i, player=player)
        for link, (*_rest, at) in zip(links, chosen, strict=True)
        for i, player in enumerate(at)
    )
    SheetResult.objects.bulk_create(
        SheetResult(sheet=link, position=i, player=player, stats=seat)
        for link, (_g, _o, _e, stats, at) in zip(links, chosen, strict=True)
        for i, (player, seat) in enumerate(zip(at, stats, strict=True))
    )
    corrections(circle, links, [at for *_rest, at in chosen])
    return circle, user


def best(action, runs: int) -> tuple[float, float, int]:
    """The fastest of ``runs`` calls of ``action``: its seconds, the processor seconds it
    took (this process and the helper processes it waited for: unlike the seconds, they
    hardly depend on what else the machine runs), and its queries."""
    found = []
    for _ in range(runs):
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = time.process_time()
        begin = time.perf_counter()
        with CaptureQueriesContext(connection) as captured:
            action()
        seconds = time.perf_counter() - begin
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        helpers = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
        found.append((seconds, time.process_time() - cpu + helpers, len(captured)))
    return min(found)


def peak_mb(action) -> float:
    """The peak of Python's allocations while ``action`` runs, in MB."""
    tracemalloc.start()
    try:
        action()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--import-up-to", type=int, default=IMPORT_UP_TO)
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    started = time.perf_counter()
    rng = random.Random(7)
    templates = [
        (game, options, *played(rng, game, players, options))
        for game, players, options in TEMPLATES
    ]
    circles = {size: build_circle(size, templates, seed=size) for size in sizes}
    deals = Hand.objects.count()
    print(
        f"Built circles of {', '.join(map(str, sizes))} finished sheets "
        f"({deals:,} deals in all) in {time.perf_counter() - started:.1f} s; "
        f"batches of {BATCH} sheets."
    )
    owner = get_user_model().objects.create_user(username="importer", password="pw")
    folder = Path(os.environ["DATA_DIR"])
    rows = []
    for size, (circle, _user) in circles.items():
        path = folder / f"circle-{size}.json"

        def export(circle=circle, path=path):
            call_command(
                "export_circle", str(circle.pk), "--output", str(path), verbosity=0, stdout=_Quiet()
            )

        seconds, cpu, queries = best(export, RUNS)
        megabytes = path.stat().st_size / 1e6
        row = {
            "size": size,
            "export_s": seconds,
            "export_cpu": cpu,
            "mb": megabytes,
            "mb_s": megabytes / seconds,
            "export_queries": queries,
            "export_peak": peak_mb(export),
        }
        if size <= args.import_up_to:

            def run_import(path=path):
                call_command(
                    "import_circle",
                    str(path),
                    "--owner",
                    owner.get_username(),
                    verbosity=0,
                    stdout=_Quiet(),
                )

            row["import_s"], row["import_cpu"], row["import_queries"] = best(run_import, RUNS)
            row["helpers"] = _helpers(size)
            imported = Circle.objects.order_by("-pk").first()
            assert CircleSheet.objects.filter(circle=imported).count() == size
            assert (
                Hand.objects.filter(sheet__circle_link__circle=imported).count()
                == Hand.objects.filter(sheet__circle_link__circle=circle).count()
            )
            row["import_peak"] = peak_mb(run_import)
        rows.append(row)

    print(
        f"{'sheets':>6} {'export s':>9} {'cpu s':>6} {'MB':>7} {'MB/s':>7} {'queries':>8}"
        f" {'peak MB':>8}"
        f" | {'import s':>9} {'cpu s':>6} {'helpers':>7} {'queries':>8} {'q/sheet':>8}"
        f" {'peak MB':>8}"
    )
    for row in rows:
        line = (
            f"{row['size']:>6} {row['export_s']:>9.2f} {row['export_cpu']:>6.2f}"
            f" {row['mb']:>7.1f} {row['mb_s']:>7.1f} {row['export_queries']:>8}"
            f" {row['export_peak']:>8.1f} |"
        )
        if "import_s" in row:
            line += (
                f" {row['import_s']:>9.2f} {row['import_cpu']:>6.2f} {row['helpers']:>7}"
                f" {row['import_queries']:>8} {row['import_queries'] / row['size']:>8.2f}"
                f" {row['import_peak']:>8.1f}"
            )
        else:
            line += f" {'–':>9} {'–':>6} {'–':>7} {'–':>8} {'–':>8} {'–':>8}"
        print(line)
    large = [row for row in rows if row["size"] >= 1000]
    if large:
        slowest = min(large, key=lambda row: row["mb_s"])
        verdict = "within" if slowest["mb_s"] >= EXPORT_MB_S else "UNDER"
        print(
            f"Slowest export at 1,000+ sheets: {slowest['mb_s']:.1f} MB/s "
            f"({slowest['mb'] / slowest['export_cpu']:.1f} MB a processor second), "
            f"{verdict} {EXPORT_MB_S} MB/s."
        )
    print(
        f"Best of {RUNS} runs each; load average {os.getloadavg()[0]:.1f} on "
        f"{os.cpu_count()} cores at the end (other work on the machine slows the seconds, "
        "hardly the processor seconds)."
    )
    imports = [row for row in rows if row["size"] >= 1000 and "import_s" in row]
    for row in imports:
        verdict = "within" if row["import_s"] < IMPORT_SECONDS else "OVER"
        print(
            f"Import of {row['size']:,} sheets: {row['import_s']:.1f} s, "
            f"{verdict} the {IMPORT_SECONDS} s target."
        )


if __name__ == "__main__":
    main()
