"""The data directory and what it holds are its owner's alone: DATA_DIR 0700, the
generated secret key and the SQLite file (with its -wal and -shm files) 0600, from
the moment they exist, whatever the umask. Settings run in subprocesses, as in
tests/test_settings.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.processes import clean_environment

ROOT = Path(__file__).resolve().parent.parent

# Print the mode of everything in DATA_DIR while a connection holds the database open
# in WAL mode (SQLite removes the -wal and -shm files when the last one closes).
MODES = """
import json, os, stat, sys
os.umask(int(sys.argv[1], 8))
import django
django.setup()
from django.conf import settings
from django.db import connection

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE IF NOT EXISTS t (x)")
    cursor.execute("INSERT INTO t VALUES (1)")
    folder = settings.DATA_DIR
    modes = {
        path.name: oct(stat.S_IMODE(path.stat().st_mode)) for path in folder.iterdir()
    }
    modes["DATA_DIR"] = oct(stat.S_IMODE(folder.stat().st_mode))
    modes["database"] = str(settings.DATABASES["default"]["NAME"])
print(json.dumps(modes))
"""


def _env(data_dir: Path, **extra: str) -> dict[str, str]:
    return clean_environment(
        DJANGO_SETTINGS_MODULE="scorekeeper.settings", DATA_DIR=str(data_dir), **extra
    )


def _modes(data_dir: Path, umask: str = "022", **extra: str) -> dict[str, str]:
    done = subprocess.run(
        [sys.executable, "-c", MODES, umask],
        cwd=ROOT,
        env=_env(data_dir, **extra),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("umask", ["022", "000"])
def test_a_new_data_dir_and_its_files_are_the_owners_alone(tmp_path, umask):
    data_dir = tmp_path / "var"
    modes = _modes(data_dir, umask)
    assert modes["DATA_DIR"] == "0o700"
    assert modes["secret_key"] == "0o600"
    assert modes["db.sqlite3"] == "0o600"
    # SQLite gives the write-ahead log and its index the database file's mode.
    assert modes["db.sqlite3-wal"] == "0o600"
    assert modes["db.sqlite3-shm"] == "0o600"
    # No temporary key file is left behind.
    assert sorted(name for name in modes if name.startswith(".")) == []


def test_a_data_dir_made_before_the_first_start_is_made_the_owners_alone(tmp_path):
    """Issue 19: `mkdir var` before `make run` gave 0755, and it stayed so."""
    data_dir = tmp_path / "var"
    data_dir.mkdir()
    data_dir.chmod(0o755)
    modes = _modes(data_dir)
    assert modes["DATA_DIR"] == "0o700"
    assert modes["db.sqlite3"] == "0o600"


def test_a_sqlite_database_url_gets_a_private_file_too(tmp_path):
    database = tmp_path / "elsewhere.sqlite3"
    modes = _modes(tmp_path / "var", "000", DATABASE_URL=f"sqlite:///{database}")
    assert modes["database"] == str(database)
    assert oct(database.stat().st_mode & 0o777) == "0o600"
    assert "db.sqlite3" not in modes


def test_an_existing_database_file_is_left_as_it_is(tmp_path):
    data_dir = tmp_path / "var"
    data_dir.mkdir()
    database = data_dir / "db.sqlite3"
    database.touch(mode=0o640)
    database.chmod(0o640)
    modes = _modes(data_dir, SECRET_KEY="configured")
    assert modes["db.sqlite3"] == "0o640"
    assert "secret_key" not in modes


def test_workers_starting_at_once_agree_on_one_secret_key(tmp_path):
    """The key is written to a private temporary file and linked into place: of the
    workers that start together, one key wins and every worker reads it whole."""
    data_dir = tmp_path / "var"
    data_dir.mkdir(mode=0o700)
    start = tmp_path / "start"
    code = (
        "import os, time\n"
        f"while not os.path.exists({str(start)!r}): time.sleep(0.002)\n"
        "from django.conf import settings\n"
        "print(settings.SECRET_KEY)\n"
    )
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", code],
            cwd=ROOT,
            env=_env(data_dir),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    start.touch()
    keys = set()
    for worker in workers:
        out, err = worker.communicate(timeout=60)
        assert worker.returncode == 0, err
        keys.add(out.strip())
    assert len(keys) == 1
    (key,) = keys
    assert len(key) >= 50
    assert (data_dir / "secret_key").read_text() == key
    assert oct((data_dir / "secret_key").stat().st_mode & 0o777) == "0o600"
    assert sorted(p.name for p in data_dir.iterdir()) == ["db.sqlite3", "secret_key"]
