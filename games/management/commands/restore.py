"""``manage.py restore PATH [--yes]``: replace the database with a backup, then migrate.

SQLite: the file must be an SQLite database with this app's tables. SQLite's online
backup API copies it into the live database through the default connection, under
the write lock, so a running app waits a moment and then reads the restored data
(never a file copied over an open database). PostgreSQL: ``pg_restore --clean
--if-exists`` in one transaction, from a ``pg_dump --format=custom`` archive.

Either way ``migrate`` (and ``createcachetable``) run afterwards: a backup from an
older version is brought up to date. A database that has any sheet is replaced only with ``--yes``.
"""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections

from games.management.commands.backup import check_vendor, pg_command, pg_program
from games.models import Hand, Sheet

SQLITE_HEADER = b"SQLite format 3\x00"
PG_HEADER = b"PGDMP"
REQUIRED_TABLES = ("django_migrations", Sheet._meta.db_table)


def contents(cursor: Any, tables: set[str]) -> tuple[int, str]:
    """How many sheets there are, and a line saying what the database holds."""
    counts = []
    for label, table, where in (
        ("sheets", Sheet._meta.db_table, ""),
        ("deals", Hand._meta.db_table, " WHERE removed_at IS NULL"),
        ("accounts", get_user_model()._meta.db_table, ""),
    ):
        if table in tables:
            cursor.execute(f'SELECT COUNT(*) FROM "{table}"{where}')
            counts.append((label, cursor.fetchone()[0]))
    line = ", ".join(f"{count:,} {label}" for label, count in counts) or "no tables of this app"
    return (dict(counts).get("sheets", 0), line)


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
        "pg_dump custom archive), then migrate it. A database with sheets needs --yes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", help="the backup file")
        parser.add_argument("--yes", action="store_true", help="replace a database that has sheets")

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
            sheets, current = contents(cursor, set(connection.introspection.table_names(cursor)))
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
        with connection.cursor() as cursor:
            _, now = contents(cursor, set(connection.introspection.table_names(cursor)))
        self.stdout.write(f"Restored {path}: the database now has {now}.")

    def refuse_unless(self, yes: bool, sheets: int, current: str, incoming: str) -> None:
        if sheets and not yes:
            raise CommandError(
                f"The database has {current}. Restoring replaces all of it with {incoming}. "
                "Run again with --yes to do that (back it up first: manage.py backup)."
            )
        if sheets:
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
