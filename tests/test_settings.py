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
            "EMAIL_HOST": "smtp.example.org",
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


def test_the_checks_say_that_mail_cannot_be_sent_without_email_host(tmp_path):
    """issue 19: without EMAIL_HOST (and DEBUG off) no password-reset mail can be sent:
    `manage.py check`, plain and --deploy, says so (the pages do not)."""
    for deploy in ([], ["--deploy"]):
        done = _manage("check", *deploy, env={"DEBUG": "0"}, tmp_path=tmp_path)
        output = done.stdout + done.stderr
        assert "scorekeeper.W001" in output, output
        assert "Password-reset mail cannot be sent: EMAIL_HOST is not set." in output
    for env in ({"DEBUG": "0", "EMAIL_HOST": "smtp.example.org"}, {"DEBUG": "1"}):
        done = _manage("check", env=env, tmp_path=tmp_path)
        assert done.returncode == 0, done.stderr
        assert "scorekeeper.W001" not in done.stdout + done.stderr


def _settings_value(name: str, env: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    code = f"from django.conf import settings; print(repr(settings.{name}))"
    return _manage("shell", "--no-imports", "-c", code, env=env, tmp_path=tmp_path)


def test_forwarded_allow_ips_names_the_trusted_proxies_as_gunicorn_reads_it(tmp_path):
    """issue 19: X-Forwarded-For counts only from the proxies in FORWARDED_ALLOW_IPS (the
    variable gunicorn reads, with its default); HTTPS=1 alone trusts nobody else."""
    for env in ({}, {"HTTPS": "1"}):
        done = _settings_value("FORWARDED_ALLOW_IPS", env, tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "['127.0.0.1']"
    env = {"FORWARDED_ALLOW_IPS": " 10.0.0.0/8, ::1 ,192.0.2.7"}
    done = _settings_value("FORWARDED_ALLOW_IPS", env, tmp_path)
    assert done.stdout.strip() == "['10.0.0.0/8', '::1', '192.0.2.7']"
    done = _settings_value("FORWARDED_ALLOW_IPS", {"FORWARDED_ALLOW_IPS": "*"}, tmp_path)
    assert done.stdout.strip() == "['*']"
    for wrong in ("10.0.0.1/8", "proxy.example.org"):
        done = _manage("check", env={"FORWARDED_ALLOW_IPS": wrong}, tmp_path=tmp_path)
        assert done.returncode != 0
        assert f"FORWARDED_ALLOW_IPS: {wrong!r} is not an IP address or network" in done.stderr


def test_the_checks_say_that_trusted_proxy_hops_is_no_longer_read(tmp_path):
    """TRUSTED_PROXY_HOPS gave way to FORWARDED_ALLOW_IPS (issue 19)."""
    done = _manage("check", env={"TRUSTED_PROXY_HOPS": "2"}, tmp_path=tmp_path)
    assert "scorekeeper.W002" in done.stdout + done.stderr
    assert "scorekeeper.W002" not in _manage("check", env={}, tmp_path=tmp_path).stderr
