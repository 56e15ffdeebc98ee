"""``manage.py backup`` and ``manage.py restore``: a consistent copy while the app runs,
and every sheet, seat and deal back as it was.

On SQLite the tests point the default connection at a real file in WAL mode (the test
database is in memory, which has no WAL and no second connection). On PostgreSQL the
round trip runs against the test database when pg_dump and pg_restore are installed.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import sqlite3
import stat
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connections

from games import services
from games.models import Hand, IdempotencyKey, Seat, Sheet
from games.selectors import sheet_state

pytestmark = pytest.mark.django_db(transaction=True)

THREE = ["Ana", "Ben", "Cem"]
FOUR = ["Ana", "Ben", "Cem", "Dan"]
SKAT_WON = {"declarer": 1, "game": "grand", "bid": 24, "matadors": {"with": 2}, "outcome": "won"}
SKAT_LOST = {"declarer": 2, "game": "clubs", "bid": 18, "matadors": {"with": 1}, "outcome": "lost"}
POINTS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")
PITCH_A_MAKES_4 = {"pitcher": 0, "bid": 4, "points": dict(zip(POINTS, "AAAAABBB", strict=True))}


def vendor() -> str:
    return connections["default"].vendor


@pytest.fixture
def live_database(tmp_path):
    """The default connection on a database that other connections can share.

    SQLite: a file in WAL mode (as ``make run`` has it) in place of the in-memory test
    database, migrated; the in-memory one is put back afterwards. PostgreSQL: the
    test database itself, if pg_dump and pg_restore are installed.
    """
    connection = connections["default"]
    if connection.vendor == "postgresql":
        if not (shutil.which("pg_dump") and shutil.which("pg_restore")):
            pytest.skip("pg_dump and pg_restore are not installed")
        yield connection.settings_dict
        return
    if connection.vendor != "sqlite":
        pytest.skip(f"backup knows SQLite and PostgreSQL, not {connection.vendor}")
    # Closing an in-memory database destroys it: set it aside instead.
    in_memory, name = connection.connection, connection.settings_dict["NAME"]
    connection.connection = None
    connection.settings_dict["NAME"] = str(tmp_path / "live.sqlite3")
    try:
        call_command("migrate", verbosity=0)
        journal = connection.cursor().execute("PRAGMA journal_mode").fetchone()[0]
        assert journal == "wal"
        yield connection.settings_dict
    finally:
        connection.close()
        connection.settings_dict["NAME"] = name
        connection.connection = in_memory


def other_connection(settings_dict: dict):
    """A second connection to the same database, as another worker of the app has."""
    if vendor() == "sqlite":
        return sqlite3.connect(settings_dict["NAME"], isolation_level=None, timeout=20)
    import psycopg

    return psycopg.connect(
        host=settings_dict["HOST"] or None,
        port=settings_dict["PORT"] or None,
        user=settings_dict["USER"],
        password=settings_dict["PASSWORD"],
        dbname=settings_dict["NAME"],
    )


def begin_write(other) -> None:
    if vendor() == "sqlite":
        other.execute("BEGIN IMMEDIATE")  # holds SQLite's write lock from here on


def fill() -> list[Sheet]:
    skat = services.sheet_create(game="skat", players=THREE, options={"series_deals": 6})
    for deal in (SKAT_WON, SKAT_LOST, {"passed": True}, SKAT_WON):
        services.hand_record(sheet=skat, data=deal)
    services.hand_remove(sheet=skat, number=4)  # an undone deal, kept for the redo
    pitch = services.sheet_create(game="pitch", players=FOUR, first_dealer=2)
    services.hand_record(sheet=pitch, data=PITCH_A_MAKES_4)
    manipulation = services.sheet_create(game="manipulation", players=THREE)
    for penalties in ([0, 25, 40], [10, 0, 30]):
        services.idempotent(
            scope=f"sheet:{manipulation.pk}",
            key=f"deal-{penalties}",
            print_="fingerprint",
            action=lambda p=penalties: (
                201,
                {
                    "number": services.hand_record(
                        sheet=manipulation, data={"penalties": p}
                    ).hand.number
                },
            ),
        )
    return [skat, pitch, manipulation]


def everything() -> dict[str, list[dict]]:
    """Every row of the sheets' tables, and each sheet's replayed totals; a sheet's
    version apart (versions), as a restore moves it past the replaced database's."""
    rows = {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (Sheet, Seat, Hand, IdempotencyKey)
    }
    for row in rows["Sheet"]:
        del row["version"]
    rows["totals"] = [
        {"sheet": sheet.pk, "totals": sheet_state(sheet).totals}
        for sheet in Sheet.objects.order_by("pk")
    ]
    return rows


def run(command: str, *args: str, **options) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out, **options)
    return out.getvalue()


def test_a_backup_taken_during_a_write_restores_every_sheet_seat_and_deal(live_database, tmp_path):
    fill()
    before = everything()
    assert len(before["Hand"]) == 7  # one of them undone
    backup = tmp_path / ("before" + (".sqlite3" if vendor() == "sqlite" else ".dump"))

    # Another connection is in the middle of a write: it changes every sheet and every
    # name, and has not committed. The backup neither waits for it nor copies it.
    other = other_connection(live_database)
    try:
        begin_write(other)
        other.execute("UPDATE games_sheet SET version = version + 1000")
        other.execute("UPDATE games_seat SET name = name || ' (uncommitted)'")
        printed = run("backup", str(backup))
        if vendor() == "sqlite":
            other.execute("COMMIT")
        else:
            other.commit()
    finally:
        other.close()
    assert printed.startswith(str(backup))
    assert re.search(r"\([\d,]+ bytes\)$", printed.strip())
    assert Sheet.objects.filter(version__gte=1000).count() == 3  # committed after the backup

    # Then the data changes: deals corrected, added and deleted, a sheet gone, a new one.
    skat, pitch, manipulation = Sheet.objects.order_by("pk")
    services.hand_correct(sheet=skat, number=1, data=SKAT_LOST)
    services.hand_record(sheet=manipulation, data={"penalties": [5, 5, 0]})
    pitch.delete()
    services.sheet_create(game="skat", players=["Eva", "Fin", "Gus"])
    assert everything() != before

    # A database with sheets is not replaced by accident: the refusal says what is there.
    live = Hand.objects.filter(removed_at__isnull=True).count()
    with pytest.raises(CommandError, match=rf"has 3 sheets, {live} deals.*--yes") as refused:
        run("restore", str(backup))
    if vendor() == "sqlite":
        assert "(3 sheets, 6 deals" in str(refused.value)
    assert Sheet.objects.count() == 3
    rows = Hand.objects.count()

    # A worker of the running app keeps its connection open across the restore.
    worker = other_connection(live_database) if vendor() == "sqlite" else None
    if worker is not None:
        assert worker.execute("SELECT COUNT(*) FROM games_hand").fetchone() == (rows,)
    replaced = dict(Sheet.objects.values_list("pk", "version"))
    printed = run("restore", str(backup), yes=True)
    assert "Restored" in printed
    assert everything() == before
    # Every restored sheet's version is past any the replaced database handed out: a
    # phone's page or a worker's kept board from before is never taken for it.
    restored = dict(Sheet.objects.values_list("pk", "version"))
    assert all(restored[pk] > max(replaced.values()) for pk in restored)
    if worker is not None:
        assert worker.execute("SELECT COUNT(*) FROM games_hand").fetchone() == (7,)
        worker.close()

    # The restored database works as before: the next deal goes on the sheet.
    skat = Sheet.objects.get(pk=before["Sheet"][0]["id"])
    services.hand_restore(sheet=skat)
    assert Hand.objects.filter(sheet=skat, removed_at__isnull=True).count() == 4


def test_the_backup_file_is_readable_by_its_owner_only(live_database, tmp_path, settings):
    settings.DATA_DIR = tmp_path / "data"
    services.sheet_create(game="skat", players=THREE)
    umask = os.umask(0)  # even a umask that lets everyone read
    try:
        printed = run("backup")
    finally:
        os.umask(umask)
    path = Path(printed.split(" (")[0])
    suffix = ".sqlite3" if vendor() == "sqlite" else ".dump"
    assert path.parent == tmp_path / "data" / "backups"
    assert re.fullmatch(r"scorekeeper-\d{8}-\d{6}" + re.escape(suffix), path.name)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert list(path.parent.iterdir()) == [path]  # no partial file left beside it
    # A second backup to the same path is refused, never overwrites.
    with pytest.raises(CommandError, match="exists already"):
        run("backup", str(path))


def test_the_sqlite_backup_is_one_self_contained_file(live_database, tmp_path):
    if vendor() != "sqlite":
        pytest.skip("SQLite")
    fill()
    backup = tmp_path / "copy.sqlite3"
    run("backup", str(backup))
    assert not Path(f"{backup}-wal").exists()
    copy = sqlite3.connect(backup)
    try:
        assert copy.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert copy.execute("SELECT COUNT(*) FROM games_hand").fetchone() == (7,)
    finally:
        copy.close()


def test_restore_into_an_empty_database_needs_no_yes_and_migrates(live_database, tmp_path):
    if vendor() != "sqlite":
        pytest.skip("SQLite")
    fill()
    before = everything()
    backup = tmp_path / "copy.sqlite3"
    run("backup", str(backup))
    # The copy as a version from before the sessions app would have left it.
    older = sqlite3.connect(backup)
    older.execute("DROP TABLE django_session")
    older.execute("DELETE FROM django_migrations WHERE app = 'sessions'")
    older.commit()
    older.close()
    Sheet.objects.all().delete()
    printed = run("restore", str(backup), verbosity=1)
    assert "Applying sessions.0001_initial" in printed
    assert "django_session" in connections["default"].introspection.table_names()
    assert everything() == before


@pytest.mark.parametrize(
    ("content", "message"),
    [
        pytest.param(b"PGDMP\x01\x0e\x00", "is a pg_dump archive", id="pg-archive"),
        pytest.param(b"name,score\nAna,3\n", "is no backup", id="text"),
    ],
)
def test_restore_refuses_a_file_that_is_not_an_sqlite_backup(tmp_path, content, message):
    if vendor() != "sqlite":
        pytest.skip("SQLite")
    path = tmp_path / "file"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=message):
        run("restore", str(path))


def test_restore_refuses_an_sqlite_database_of_another_app(tmp_path):
    if vendor() != "sqlite":
        pytest.skip("SQLite")
    path = tmp_path / "other.sqlite3"
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE notes (text)")
    other.commit()
    other.close()
    services.sheet_create(game="skat", players=THREE)
    with pytest.raises(CommandError, match="not a Scorekeeper backup"):
        run("restore", str(path), yes=True)
    assert Sheet.objects.count() == 1


def test_restore_of_a_missing_file(tmp_path):
    with pytest.raises(CommandError, match="There is no file"):
        run("restore", str(tmp_path / "nothing.sqlite3"))


def test_without_pg_dump_the_error_says_how_to_run_it_by_hand(monkeypatch):
    from games.management.commands import backup

    settings_dict = {
        "HOST": "db.example.org",
        "PORT": 5432,
        "USER": "scorekeeper",
        "PASSWORD": "s3cret",
        "NAME": "scorekeeper",
        "OPTIONS": {"sslmode": "require"},
    }
    args, env = backup.pg_command("pg_dump", settings_dict)
    assert env["PGPASSWORD"] == "s3cret"
    assert env["PGSSLMODE"] == "require"
    assert "s3cret" not in args
    monkeypatch.setattr(backup.shutil, "which", lambda name: None)
    with pytest.raises(CommandError) as error:
        backup.pg_program(
            "pg_dump", [*args, "--format=custom", "--file", "<file>"], settings_dict, "back up"
        )
    message = str(error.value)
    assert "pg_dump is not on PATH" in message
    assert (
        "PGPASSWORD='<password>' pg_dump --no-password --host db.example.org --port 5432 "
        "--username scorekeeper --dbname scorekeeper --format=custom --file '<file>'"
    ) in message
    assert "s3cret" not in message
