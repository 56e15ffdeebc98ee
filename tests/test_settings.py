"""Settings come from the environment; production settings pass Django's deploy checks."""

import subprocess
import sys
from pathlib import Path

from tests.processes import clean_environment

ROOT = Path(__file__).resolve().parent.parent


def _manage(*args: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    # The child sees only what the test sets, not the test run's own settings.
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean_environment(DATA_DIR=str(tmp_path), **env),
        capture_output=True,
        text=True,
        check=False,
    )


def test_deploy_checks_pass_with_debug_off_and_real_values(tmp_path):
    done = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        env={
            "DEBUG": "0",
            "SECRET_KEY": "k9!vQ2#xLp7@rT4$wZ8^mN1&bH6*cF3(jD5)sG0_yE-uA+oI=eR",
            "ALLOWED_HOSTS": "scores.example.org",
            "CSRF_TRUSTED_ORIGINS": "https://scores.example.org",
            "HTTPS": "1",
        },
        tmp_path=tmp_path,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_deploy_checks_complain_when_https_is_not_configured(tmp_path):
    done = _manage(
        "check", "--deploy", "--fail-level", "WARNING", env={"DEBUG": "0"}, tmp_path=tmp_path
    )
    assert done.returncode != 0
    assert "SECURE_SSL_REDIRECT" in done.stderr + done.stdout


def test_sqlite_runs_in_wal_mode_with_immediate_transactions(tmp_path):
    code = (
        "from django.db import connection\n"
        "with connection.cursor() as c:\n"
        "    c.execute('PRAGMA journal_mode')\n"
        "    print(c.fetchone()[0])\n"
        "print(connection.settings_dict['OPTIONS']['transaction_mode'])\n"
    )
    done = _manage("shell", "--no-imports", "-c", code, env={}, tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["wal", "IMMEDIATE"]
    assert (tmp_path / "db.sqlite3").exists()


def test_a_generated_secret_key_is_kept_across_restarts(tmp_path):
    code = "from django.conf import settings; print(settings.SECRET_KEY)"
    first = _manage("shell", "--no-imports", "-c", code, env={}, tmp_path=tmp_path)
    second = _manage("shell", "--no-imports", "-c", code, env={}, tmp_path=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert len(first.stdout.strip()) >= 50


def test_a_bad_boolean_in_the_environment_is_refused_with_a_clear_message(tmp_path):
    done = _manage("check", env={"DEBUG": "maybe"}, tmp_path=tmp_path)
    assert done.returncode != 0
    assert "DEBUG must be 1/0" in done.stderr
