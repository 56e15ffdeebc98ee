"""Benchmark: how many bytes 1,000 finished sheets take in the database, table by table.

Run: .venv/bin/python bench/bench_storage.py   (SHEETS=1000, REAL=30, GAMES=skat,pitch,
manipulation by default; GAMES=skat measures Skat series only)

In a fresh SQLite database (a temporary DATA_DIR, migrated as `make run` does) it plays
finished sheets through the real services, as the pages and the API do: sheet_create,
then hand_record deal after deal until the game is over (a Skat series of 36 deals at
three players, Pitch to 52, Manipulation to 200). ``REAL`` sheets are played that way,
the games of ``GAMES`` in turn; the rest, up to ``SHEETS``, are copies of their rows (the sheet,
its seats, deals, history and kept engine, each with its own id and links), so a
thousand sheets take seconds instead of minutes and the tables hold what real ones
would. It then vacuums the file and prints the bytes of each table with its indexes
(SQLite's dbstat), per 1,000 sheets, and the file's size.

To compare with another commit, run it with that checkout's code first on PYTHONPATH
(its services and models store what that commit stores):

    git worktree add /tmp/before HEAD
    PYTHONPATH=/tmp/before .venv/bin/python bench/bench_storage.py
    .venv/bin/python bench/bench_storage.py
    git worktree remove /tmp/before
"""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

# Appended, not inserted: a checkout named by PYTHONPATH is measured instead.
sys.path.append(str(Path(__file__).resolve().parent.parent))
DATA_DIR = tempfile.mkdtemp(prefix="scorekeeper-storage-")
os.environ["DATA_DIR"] = DATA_DIR
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")
os.environ.pop("DATABASE_URL", None)

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

import games  # noqa: E402
from games import services  # noqa: E402
from games.models import Hand, Seat, Sheet, SheetEvent, new_token  # noqa: E402
from games.rules.errors import RuleError  # noqa: E402

SHEETS = int(os.environ.get("SHEETS", "1000"))
REAL = int(os.environ.get("REAL", "30"))
NAMES = ["Ana", "Ben", "Cem", "Dee", "Eva"]
POINT_CARDS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def skat_deal(rng: random.Random, number: int) -> dict:
    """Suit, grand and null games, by outcome or by card points, now and then passed."""
    declarer = rng.randrange(3)
    if rng.random() < 0.08:
        return {"passed": True}
    game = rng.choice(["clubs", "spades", "hearts", "diamonds", "grand", "grand", "null"])
    if game == "null":
        return {
            "declarer": declarer,
            "game": "null",
            "bid": 23,
            "outcome": rng.choice(["won", "lost"]),
        }
    deal = {
        "declarer": declarer,
        "game": game,
        "bid": 18,
        "matadors": {rng.choice(["with", "against"]): rng.randint(1, 2)},
    }
    if rng.random() < 0.5:
        deal["outcome"] = rng.choice(["won", "won", "won_schneider", "lost"])
    else:
        deal["declarer_points"] = rng.randint(35, 100)
        deal["declarer_tricks"] = rng.randint(3, 8)
    return deal


def pitch_deal(rng: random.Random, number: int) -> dict:
    team = rng.choice("AB")
    other = "B" if team == "A" else "A"
    points = {key: rng.choice([team, team, other, "out"]) for key in POINT_CARDS}
    return {"pitcher": rng.randrange(4), "bid": rng.randint(4, 6), "points": points}


def manipulation_deal(rng: random.Random, number: int) -> dict:
    out = rng.randrange(4)
    return {"penalties": [0 if seat == out else 5 * rng.randint(1, 8) for seat in range(4)]}


GAMES = [
    game
    for game in [
        ("skat", NAMES[:3], {}, skat_deal),
        ("pitch", NAMES[:4], {}, pitch_deal),
        ("manipulation", NAMES[:4], {"target": 200}, manipulation_deal),
    ]
    if game[0] in os.environ.get("GAMES", "skat,pitch,manipulation").split(",")
]


def play(index: int, rng: random.Random) -> Sheet:
    """One finished sheet, played deal by deal through the services."""
    game, players, options, deal = GAMES[index % len(GAMES)]
    sheet = services.sheet_create(game=game, players=players, options=options)
    number = 0
    while not sheet.finished:
        number += 1
        try:
            services.hand_record(sheet=sheet, data=deal(rng, number))
        except RuleError:
            continue  # a deal the sheet refuses (a score that cannot be): the next one
        sheet = Sheet.objects.get(pk=sheet.pk)
    return sheet


def copy_rows(model, rows: list, **changes) -> None:
    """Rows of ``model`` like ``rows``, with new primary keys and ``changes`` applied."""
    fields = [f for f in model._meta.concrete_fields if not f.primary_key or f.name == "sheet"]
    made = []
    for row in rows:
        values = {f.attname: getattr(row, f.attname) for f in fields}
        values.update(changes)
        made.append(model(**values))
    model.objects.bulk_create(made, batch_size=500)


def copy_sheet(template: Sheet) -> None:
    """A new sheet storing what ``template`` stores, with its own tokens and ids."""
    values = {
        f.attname: getattr(template, f.attname)
        for f in Sheet._meta.concrete_fields
        if not f.primary_key
    }
    values.update(edit_token=new_token(), view_token=new_token())
    sheet = Sheet.objects.create(**values)
    Sheet.objects.filter(pk=sheet.pk).update(updated_at=template.updated_at)
    copy_rows(Seat, list(Seat.objects.filter(sheet=template)), sheet_id=sheet.pk)
    copy_rows(Hand, list(Hand.objects.filter(sheet=template)), sheet_id=sheet.pk)
    hands = {h.number: h.pk for h in Hand.objects.filter(sheet=sheet)}
    events = list(SheetEvent.objects.filter(sheet=template).select_related("hand"))
    made = []
    for event in events:
        values = {
            f.attname: getattr(event, f.attname)
            for f in SheetEvent._meta.concrete_fields
            if not f.primary_key
        }
        values.update(
            sheet_id=sheet.pk,
            hand_id=hands.get(event.hand.number) if event.hand_id else None,
        )
        made.append(SheetEvent(**values))
    SheetEvent.objects.bulk_create(made, batch_size=500)
    snapshot = getattr(template, "snapshot", None)
    if snapshot is not None:
        copy_rows(type(snapshot), [snapshot], sheet_id=sheet.pk)


def table_bytes(path: Path) -> dict[str, int]:
    """Bytes of each table, its indexes counted with it (SQLite's dbstat)."""
    db = sqlite3.connect(path)
    indexes = dict(db.execute("SELECT name, tbl_name FROM sqlite_master WHERE type = 'index'"))
    sizes: dict[str, int] = {}
    for name, size in db.execute("SELECT name, SUM(pgsize) FROM dbstat GROUP BY name"):
        table = indexes.get(name, name)
        sizes[table] = sizes.get(table, 0) + size
    db.close()
    return sizes


def main() -> None:
    try:
        measure()
    finally:
        connection.close()
        shutil.rmtree(DATA_DIR, ignore_errors=True)


def measure() -> None:
    call_command("migrate", verbosity=0)
    rng = random.Random(20261201)
    real = min(REAL, SHEETS)
    with transaction.atomic():
        templates = [play(index, rng) for index in range(real)]
    with transaction.atomic():
        for index in range(SHEETS - real):
            copy_sheet(Sheet.objects.select_related("snapshot").get(pk=templates[index % real].pk))
    assert Sheet.objects.filter(finished=True).count() == SHEETS
    deals = Hand.objects.count()
    path = Path(connection.settings_dict["NAME"])
    connection.close()
    db = sqlite3.connect(path)
    db.execute("VACUUM")
    db.close()
    sizes = table_bytes(path)
    per = 1000 / SHEETS
    print(f"code: {Path(games.__file__).resolve().parent.parent}")
    played = ", ".join(game[0] for game in GAMES)
    print(
        f"{SHEETS} finished sheets of {played} ({real} played through the services), {deals} deals"
    )
    print(f"{'table (with its indexes)':<32} {'KB per 1,000 sheets':>20} {'bytes a sheet':>14}")
    total = path.stat().st_size
    shown = sorted(sizes.items(), key=lambda item: -item[1])
    # The tables the sheets fill; the others hold their empty pages only.
    large = [(name, size) for name, size in shown if size >= total / 100]
    for name, size in large:
        print(f"{name:<32} {size * per / 1024:>20,.0f} {size / SHEETS:>14,.0f}")
    others = sum(size for _, size in shown) - sum(size for _, size in large)
    print(f"{'(all other tables)':<32} {others * per / 1024:>20,.0f} {others / SHEETS:>14,.0f}")
    print(f"{'database file':<32} {total * per / 1024:>20,.0f} {total / SHEETS:>14,.0f}")


if __name__ == "__main__":
    main()
