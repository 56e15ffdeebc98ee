"""``manage.py backup [PATH]``: a consistent copy of the database, while the app runs.

SQLite: Python's ``sqlite3.Connection.backup`` (SQLite's online backup API) copies
the committed database, what is still in the WAL included, inside one read
transaction: writers go on meanwhile and nothing they have not committed is copied.
The copy is one self-contained file (rollback journal, no ``-wal`` beside it).

PostgreSQL: ``pg_dump --format=custom`` with the connection settings of
``settings.DATABASES`` (one snapshot; ``manage.py restore`` reads it back).

The file is readable by its owner only (mode 0600): it holds every sheet's tokens.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone

SUFFIXES = {"sqlite": ".sqlite3", "postgresql": ".dump"}


def default_path(vendor: str) -> Path:
    """DATA_DIR/backups/scorekeeper-YYYYmmdd-HHMMSS, with -2, -3 … after a backup taken in
    the same second (two in a row from a script)."""
    stamp = timezone.now().strftime("%Y%m%d-%H%M%S")
    folder = Path(settings.DATA_DIR) / "backups"
    path = folder / f"scorekeeper-{stamp}{SUFFIXES[vendor]}"
    again = 2
    while path.exists() or path.with_name(path.name + ".partial").exists():
        path = folder / f"scorekeeper-{stamp}-{again}{SUFFIXES[vendor]}"
        again += 1
    return path


def check_vendor(connection: Any) -> str:
    if connection.vendor not in SUFFIXES:
        raise CommandError(
            f"backup and restore know SQLite and PostgreSQL, not {connection.vendor}."
        )
    return connection.vendor


def private_file(path: Path) -> int:
    """A new, empty file only its owner may read, whatever the umask; its descriptor."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    os.fchmod(fd, 0o600)
    return fd


def pg_command(program: str, settings_dict: dict[str, Any]) -> tuple[list[str], dict[str, str]]:
    """``program`` with the connection options of ``settings_dict``, and its environment
    (the password goes in PGPASSWORD, never on the command line)."""
    args = [program, "--no-password"]
    if settings_dict.get("HOST"):
        args += ["--host", str(settings_dict["HOST"])]
    if settings_dict.get("PORT"):
        args += ["--port", str(settings_dict["PORT"])]
    if settings_dict.get("USER"):
        args += ["--username", str(settings_dict["USER"])]
    args += ["--dbname", str(settings_dict["NAME"])]
    env = dict(os.environ)
    if settings_dict.get("PASSWORD"):
        env["PGPASSWORD"] = str(settings_dict["PASSWORD"])
    options = settings_dict.get("OPTIONS") or {}
    for option, variable in (
        ("sslmode", "PGSSLMODE"),
        ("sslrootcert", "PGSSLROOTCERT"),
        ("sslcert", "PGSSLCERT"),
        ("sslkey", "PGSSLKEY"),
    ):
        if options.get(option):
            env[variable] = str(options[option])
    return args, env


def by_hand(args: list[str], settings_dict: dict[str, Any]) -> str:
    """The command line to type, the password left for the reader to fill in."""
    line = shlex.join(args)
    return f"PGPASSWORD='<password>' {line}" if settings_dict.get("PASSWORD") else line


def pg_program(name: str, args: list[str], settings_dict: dict[str, Any], doing: str) -> str:
    program = shutil.which(name)
    if program is None:
        raise CommandError(
            f"{name} is not on PATH (Debian: apt-get install postgresql-client, the same "
            f"major version as the server). To {doing} by hand, run:\n"
            f"  {by_hand([name, *args[1:]], settings_dict)}"
        )
    return program


def sqlite_backup(connection: Any, fd: int, path: Path) -> None:
    """Copy the live database behind ``connection`` into the empty file at ``path``."""
    os.close(fd)
    connection.ensure_connection()
    target = sqlite3.connect(path)
    try:
        # One step (pages=-1): the whole copy reads one snapshot of the database.
        connection.connection.backup(target)
        # A standalone file: no WAL to carry along.
        target.execute("PRAGMA journal_mode=DELETE")
    finally:
        target.close()


def pg_backup(connection: Any, fd: int) -> None:
    settings_dict = connection.settings_dict
    args, env = pg_command("pg_dump", settings_dict)
    args += ["--format=custom"]
    try:
        args[0] = pg_program("pg_dump", [*args, "--file", "<file>"], settings_dict, "back up")
        done = subprocess.run(args, stdout=fd, stderr=subprocess.PIPE, env=env, check=False)
    finally:
        os.close(fd)
    if done.returncode != 0:
        message = done.stderr.decode(errors="replace").strip()
        raise CommandError(f"pg_dump failed (exit {done.returncode}): {message}")


class Command(BaseCommand):
    help = (
        "Write a consistent copy of the database while the app runs (SQLite: the online "
        "backup API; PostgreSQL: pg_dump --format=custom). Default: "
        "DATA_DIR/backups/scorekeeper-YYYYmmdd-HHMMSS.sqlite3 (or .dump)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", nargs="?", help="the file to write (it must not exist)")

    def handle(self, *args: Any, **options: Any) -> None:
        connection = connections[DEFAULT_DB_ALIAS]
        vendor = check_vendor(connection)
        if options["path"]:
            path = Path(options["path"])
        else:
            path = default_path(vendor)
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if path.exists():
            raise CommandError(f"{path} exists already; give another path.")
        if not path.parent.is_dir():
            raise CommandError(f"There is no directory {path.parent}.")
        # Written beside the target and renamed at the end: a backup that stopped
        # halfway never sits under the final name.
        partial = path.with_name(path.name + ".partial")
        if partial.exists():
            raise CommandError(
                f"{partial} is left from a backup that stopped halfway (or one running now): "
                "delete it, then run the backup again."
            )
        fd = private_file(partial)
        try:
            if vendor == "sqlite":
                sqlite_backup(connection, fd, partial)
            else:
                pg_backup(connection, fd)
            partial.chmod(0o600)
            partial.replace(path)
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        size = path.stat().st_size
        self.stdout.write(f"{path} ({size:,} bytes)")
