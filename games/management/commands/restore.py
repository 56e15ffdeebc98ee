"""``manage.py restore PATH [--yes]``: replace the database with a backup, then migrate.

SQLite: the file must be an SQLite database with this app's tables. SQLite's online
backup API copies it into the live database through the default connection, under
the write lock, so a running app waits a moment and then reads the restored data
(never a file copied over an open database). PostgreSQL: ``pg_restore --clean
--if-exists`` in one transaction, from a ``pg_dump --format=custom`` archive.

Either way ``migrate`` (and ``createcachetable``) run afterwards: a backup from an
older version is brought up to date, and the version numbers move past every one the
replaced database handed out (``VERSIONS``). A database that holds anything people
entered (sheets, accounts, circles, club evenings) is replaced only with ``--yes``.
"""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections, transaction

from games.management.commands.backup import check_vendor, pg_command, pg_program
from games.models import Hand, Sheet

SQLITE_HEADER = b"SQLite format 3\x00"
PG_HEADER = b"PGDMP"
REQUIRED_TABLES = ("django_migrations", Sheet._meta.db_table)


def _table(label: str) -> str:
    """The table of a model of another app (read by name: this app imports none)."""
    return apps.get_model(label)._meta.db_table


def contents(cursor: Any, tables: set[str]) -> tuple[int, str]:
    """How many things people entered there are (sheets, accounts, circles, club
    evenings), and a line saying what the database holds."""
    counts = []
    for label, table, where in (
        ("sheets", Sheet._meta.db_table, ""),
        ("deals", Hand._meta.db_table, " WHERE removed_at IS NULL"),
        ("accounts", get_user_model()._meta.db_table, ""),
        ("circles", _table("circles.Circle"), ""),
        ("club evenings", _table("evenings.Evening"), ""),
    ):
        if table in tables:
            cursor.execute(f'SELECT COUNT(*) FROM "{table}"{where}')
            counts.append((label, cursor.fetchone()[0]))
    line = ", ".join(f"{count:,} {label}" for label, count in counts) or "no tables of this app"
    found = dict(counts)
    entered = sum(
        found.get(label, 0) for label in ("sheets", "accounts", "circles", "club evenings")
    )
    return (entered, line)


# The version numbers writers and readers go by (If-Match, the kept renderings of a
# sheet, a circle's standings), each with the rows that carry the same number: after a
# restore each moves past every number the replaced database had handed out, so that
# nothing kept from before (a phone's page, a worker's cache) is taken for the restored
# data (a restored sheet would otherwise count its versions again from where it was).
VERSIONS = (
    (("games.Sheet", "version"), ("games.SheetSnapshot", "version")),
    (("evenings.Evening", "version"),),
    (("circles.Circle", "standings_version"), ("circles.SeasonTotals", "version")),
)


def highest_versions(cursor: Any, tables: set[str]) -> list[int]:
    """For each group of VERSIONS, the highest number the database has handed out."""
    highest = []
    for (model, column), *_rest in VERSIONS:
        table = _table(model)
        if table in tables:
            cursor.execute(f'SELECT MAX("{column}") FROM "{table}"')
            highest.append(cursor.fetchone()[0] or 0)
        else:
            highest.append(0)
    return highest


def move_versions_past(cursor: Any, highest: list[int]) -> None:
    for group, most in zip(VERSIONS, highest, strict=True):
        if most:
            for model, column in group:
                cursor.execute(
                    f'UPDATE "{_table(model)}" SET "{column}" = "{column}" + %s', [most + 1]
                )


def open_backup(path: Path) -> sqlite3.Connection:
    """The backup file, read-only; CommandError unless it is this app's database."""
    try:
        source = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        problems = source.execute("PRAGMA quick_check").fetchall()
        tables = {name for (name,) in source.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as error:
        raise CommandError(f"{path} is not a readable SQLite database: {error}") from error
    if problems != [("ok",)]:
        source.close()
        found = "; ".join(str(problem[0]) for problem in problems[:5])
        raise CommandError(f"{path} is damaged: {found}")
    missing = [table for table in REQUIRED_TABLES if table not in tables]
    if missing:
        source.close()
        raise CommandError(
            f"{path} is an SQLite database but not a Scorekeeper backup "
            f"(no {' or '.join(missing)} table)."
        )
    return source


class Command(BaseCommand):
    help = (
        "Replace the database with a backup written by `manage.py backup` (SQLite file or "
        "pg_dump custom archive), then migrate it. A database with sheets, accounts, circles "
        "or club evenings needs --yes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the backup file")
        parser.add_argument("--yes", action="store_true", help="replace a database that holds data")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["path"])
        if not path.is_file():
            raise CommandError(f"There is no file {path}.")
        with path.open("rb") as file:
            header = file.read(len(SQLITE_HEADER))
        connection = connections[DEFAULT_DB_ALIAS]
        vendor = check_vendor(connection)
        if connection.in_atomic_block:
            raise CommandError("restore cannot run inside a transaction.")
        expected = SQLITE_HEADER if vendor == "sqlite" else PG_HEADER
        if not header.startswith(expected):
            kind = {SQLITE_HEADER: "an SQLite database", PG_HEADER: "a pg_dump archive"}
            what = next((v for k, v in kind.items() if header.startswith(k)), "no backup")
            raise CommandError(
                f"{path} is {what}; this database is {connection.display_name} and takes "
                f"{kind[expected]} (from `manage.py backup` on {connection.display_name})."
            )
        with connection.cursor() as cursor:
            live_tables = set(connection.introspection.table_names(cursor))
            sheets, current = contents(cursor, live_tables)
            highest = highest_versions(cursor, live_tables)
        if vendor == "sqlite":
            source = open_backup(path)
            try:
                tables = {name for (name,) in source.execute("SELECT name FROM sqlite_master")}
                _, incoming = contents(source.cursor(), tables)
                self.refuse_unless(options["yes"], sheets, current, f"{path} ({incoming})")
                self.restore_sqlite(connection, source)
            finally:
                source.close()
        else:
            self.check_archive(path, connection.settings_dict)
            self.refuse_unless(options["yes"], sheets, current, str(path))
            self.restore_postgresql(connection, path)
        # Ids cached before the restore may no longer be the database's.
        ContentType.objects.clear_cache()
        call_command(
            "migrate",
            interactive=False,
            verbosity=options["verbosity"],
            stdout=self.stdout,
            stderr=self.stderr,
        )
        # The cache table is no migration: a backup older than it lacks it.
        call_command("createcachetable", verbosity=options["verbosity"], stdout=self.stdout)
        with transaction.atomic(), connection.cursor() as cursor:
            move_versions_past(cursor, highest)
        with connection.cursor() as cursor:
            _, now = contents(cursor, set(connection.introspection.table_names(cursor)))
        self.stdout.write(f"Restored {path}: the database now has {now}.")

    def refuse_unless(self, yes: bool, entered: int, current: str, incoming: str) -> None:
        if entered and not yes:
            raise CommandError(
                f"The database has {current}. Restoring replaces all of it with {incoming}. "
                "Run again with --yes to do that (back it up first: manage.py backup)."
            )
        if entered:
            self.stdout.write(f"Replacing {current}.")

    def restore_sqlite(self, connection: Any, source: sqlite3.Connection) -> None:
        connection.ensure_connection()
        try:
            # Copied under the live database's write lock; other connections (the
            # app's workers) see the restored pages with their next transaction.
            source.backup(connection.connection)
        except sqlite3.Error as error:
            raise CommandError(f"The restore failed, nothing was changed: {error}") from error

    def check_archive(self, path: Path, settings_dict: dict[str, Any]) -> None:
        args = ["pg_restore", "--list", str(path)]
        args[0] = pg_program("pg_restore", [*args, "<file>"], settings_dict, "read it")
        done = subprocess.run(args, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise CommandError(f"pg_restore cannot read {path}: {done.stderr.strip()}")
        listed = {
            line.split()[-2]
            for line in done.stdout.splitlines()
            if " TABLE " in line and not line.startswith(";") and len(line.split()) >= 2
        }
        missing = [table for table in REQUIRED_TABLES if table not in listed]
        if missing:
            raise CommandError(
                f"{path} is a pg_dump archive but not a Scorekeeper backup "
                f"(no {' or '.join(missing)} table)."
            )

    def restore_postgresql(self, connection: Any, path: Path) -> None:
        settings_dict = connection.settings_dict
        args, env = pg_command("pg_restore", settings_dict)
        # One transaction: the restore happens whole or not at all. Objects belong to
        # the role that restores (the dump may come from a server with other roles).
        args += ["--clean", "--if-exists", "--single-transaction", "--no-owner", str(path)]
        args[0] = pg_program("pg_restore", args, settings_dict, "restore")
        # Our own connection must hold no lock the restore waits for.
        connection.close()
        done = subprocess.run(args, capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            raise CommandError(
                f"pg_restore failed (exit {done.returncode}), nothing was changed: "
                f"{done.stderr.strip()}"
            )
