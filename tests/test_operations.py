"""The operations side as an operator meets it: management commands, the README's
Operations section and the settings' reading of the environment.

Each test holds one finding of an audit that was fixed; its docstring says what an
operator met and what happens now. Tests that start a process build its environment
from scratch (tests/processes.py).
"""

from __future__ import annotations

import contextlib
import datetime
import io
import subprocess
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from circles import services as circle_services
from circles.models import Circle, CircleSheet, SheetResult
from evenings import accounts as evening_accounts
from evenings import services as evening_services
from evenings.models import Evening, EveningTable, Payment
from games import services as sheet_services
from games.models import Hand, Sheet, SheetSnapshot
from tests.processes import clean_environment
from tests.test_backup import live_database  # noqa: F401  (a fixture)

ROOT = Path(__file__).resolve().parent.parent
PYTHON = ROOT / ".venv" / "bin" / "python"
GUNICORN = ROOT / ".venv" / "bin" / "gunicorn"

THREE = ["Ana", "Ben", "Cem"]
SKAT_WON = {"declarer": 1, "game": "grand", "bid": 24, "matadors": {"with": 2}, "outcome": "won"}
SKAT_LOST = {"declarer": 2, "game": "clubs", "bid": 18, "matadors": {"with": 1}, "outcome": "lost"}
CLUB_MONEY = {
    "currency": "EUR",
    "entry_fee": "6.00",
    "lost_game_fees": [{"from": 1, "amount": "0.50"}, {"from": 4, "amount": "1.00"}],
}


def manage(*args: str, data_dir: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """``manage.py ARGS`` as an operator types it in a fresh shell."""
    return subprocess.run(
        [str(PYTHON), "manage.py", *args],
        cwd=ROOT,
        env=clean_environment(DATA_DIR=str(data_dir), **extra),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def last_line(done: subprocess.CompletedProcess[str]) -> str:
    """What the operator reads last: the final line of the command's error output."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def assert_refused_naming(done: subprocess.CompletedProcess[str], variable: str) -> None:
    """A non-zero exit whose message (the last line, not a line of a traceback's source
    that happens to hold the name) names the variable to fix."""
    assert done.returncode != 0
    assert variable in last_line(done), done.stderr[-1500:]


# -- settings: a malformed environment variable ------------------------------------------


def test_a_non_numeric_referee_processes_is_refused_in_words(tmp_path):
    """REFEREE_PROCESSES=two (settings' docstring documents it): every manage.py command
    and the server die with "ValueError: invalid literal for int() ... 'two'" from
    settings.py, which names no variable; they should stop with a message naming
    REFEREE_PROCESSES and the whole number it takes."""
    done = manage("check", data_dir=tmp_path / "data", REFEREE_PROCESSES="two")
    assert_refused_naming(done, "REFEREE_PROCESSES")


def test_a_non_numeric_email_port_is_refused_in_words(tmp_path):
    """EMAIL_PORT (README, Configuration) set to "smtp" instead of 587: every command
    and the server die with "ValueError: invalid literal for int()" from settings.py
    instead of a message naming EMAIL_PORT."""
    done = manage(
        "check", data_dir=tmp_path / "data", EMAIL_HOST="smtp.example.org", EMAIL_PORT="smtp"
    )
    assert_refused_naming(done, "EMAIL_PORT")


def test_a_database_url_with_a_mistyped_scheme_is_refused_in_words(tmp_path):
    """DATABASE_URL=postgress://… (a typo of the README's postgres://): every command dies
    with dj_database_url's UnknownSchemeError ("Did you forget to register custom
    backend?"), naming no variable; it should say that DATABASE_URL's scheme is not one
    the app takes (postgres://, sqlite://)."""
    done = manage(
        "check",
        data_dir=tmp_path / "data",
        DATABASE_URL="postgress://scorekeeper:secret@127.0.0.1:5432/scorekeeper",
    )
    assert_refused_naming(done, "DATABASE_URL")


def test_a_data_dir_that_is_a_file_is_refused_in_words(tmp_path):
    """DATA_DIR pointing at a file (a wrong path, e.g. the database file itself): every
    command dies with "FileExistsError: [Errno 17] File exists" from
    settings._make_data_dir; it should say that DATA_DIR is not a directory."""
    a_file = tmp_path / "db.sqlite3"
    a_file.write_bytes(b"")
    done = manage("check", data_dir=a_file)
    assert_refused_naming(done, "DATA_DIR")


def test_a_setting_refused_from_the_environment_is_one_line_not_a_traceback(tmp_path):
    """DEBUG=maybe is refused (settings.env_bool), but the operator gets a 20-line Python
    traceback through Django's startup with the message at its foot: nothing turns the
    ImproperlyConfigured raised while settings.py is read into one line (manage.py, and
    gunicorn through scorekeeper/wsgi.py, let it through)."""
    done = manage("check", data_dir=tmp_path / "data", DEBUG="maybe")
    assert_refused_naming(done, "DEBUG")
    assert "Traceback" not in done.stderr, done.stderr[-1500:]


def test_allowed_hosts_given_as_a_url_is_refused_in_words(tmp_path):
    """ALLOWED_HOSTS=https://scores.example.org (a URL where host names go) is refused at
    start naming the variable (it was taken, and every request answered 400)."""
    done = manage("check", data_dir=tmp_path / "data", ALLOWED_HOSTS="https://scores.example.org")
    assert_refused_naming(done, "ALLOWED_HOSTS")
    assert "Traceback" not in done.stderr


ASK_THE_API = """
import django
from django.core.exceptions import ImproperlyConfigured
try:
    django.setup()
except ImproperlyConfigured as refused:
    raise SystemExit(str(refused))
from django.test import Client
answer = Client(HTTP_HOST="127.0.0.1", raise_request_exception=False).get("/api/v1/openapi.json")
print("status", answer.status_code)
"""


def test_a_redis_url_without_its_scheme_is_refused_or_leaves_the_site_answering(tmp_path):
    """REDIS_URL=10.0.0.6:6379 (the README's redis://10.0.0.6:6379/0 without its scheme)
    is taken silently, `manage.py check` passes, and then every request the rate limits
    count (the whole API, starting a sheet, logging in) answers 500: redis' ValueError
    escapes security.hit, which lets only an unreachable cache through. The value should
    be refused at start in words, or treated like an unreachable Redis."""
    done = subprocess.run(
        [str(PYTHON), "-c", ASK_THE_API],
        cwd=ROOT,
        env=clean_environment(
            DATA_DIR=str(tmp_path / "data"),
            DJANGO_SETTINGS_MODULE="scorekeeper.settings",
            REDIS_URL="127.0.0.1:1",  # nothing listens: an unreachable Redis fails at once
        ),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:  # refused at start: in words, naming the variable
        assert_refused_naming(done, "REDIS_URL")
    else:
        assert "status 500" not in done.stdout, done.stderr[-1500:]


def test_make_run_with_a_port_out_of_range_says_so_without_a_traceback(tmp_path):
    """`make run PORT=80800` (a typo of 8080): gunicorn, started as the Makefile starts it,
    dies with an OverflowError traceback; PORT=abc gets one clear line, and so should a
    port above 65535 (the Makefile or scorekeeper/gunicorn.conf.py checking it)."""
    done = subprocess.run(
        [
            str(GUNICORN),
            "scorekeeper.wsgi",
            "-c",
            "scorekeeper/gunicorn.conf.py",
            "--bind",
            "127.0.0.1:80800",
        ],
        cwd=ROOT,
        env=clean_environment(DATA_DIR=str(tmp_path / "data"), WORKERS="1"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    assert done.returncode != 0


# -- backup ---------------------------------------------------------------------------


def test_a_backup_to_a_path_a_killed_backup_left_a_partial_file_beside(tmp_path):
    """A backup killed halfway (SIGKILL, out of memory, a reboot) leaves FILE.partial;
    the next `manage.py backup FILE` then dies with a FileExistsError traceback from
    backup.private_file. It should write the backup (the partial file is its own
    leftover) or at least say in a line what is in the way."""
    data_dir = tmp_path / "data"
    target = tmp_path / "nightly.sqlite3"
    Path(f"{target}.partial").write_bytes(b"SQLite format 3\x00 half a copy")
    done = manage("backup", str(target), data_dir=data_dir)
    assert "Traceback" not in done.stderr, done.stderr[-1500:]
    assert done.returncode == 0 or "partial" in done.stderr


# -- retention: clearexpired ------------------------------------------------------------


@pytest.mark.django_db
def test_clearexpired_survives_an_evening_tables_sheet_left_in_the_trash():
    """A club evening's table sheet moved to the trash through its edit link (nothing
    refuses it) makes every clean-up after 30 days die with ProtectedError
    (EveningTable.sheet is PROTECT): `manage.py clearexpired` and so `make run` fail,
    and expired sessions are never deleted again. The clean-up should go on."""
    evening = evening_services.evening_create(
        name="Club night", played_on=datetime.date.today(), series_deals={"3": 6, "4": 8}
    )
    evening_services.players_add(evening=evening, names=["Anna", "Bernd", "Carla"])
    evening_services.series_draw(evening=evening, method="lot", seed=1)
    table = EveningTable.objects.select_related("sheet").get()
    # The table's phone tries to delete its sheet on the sheet's own page: refused, with
    # a message (the evening counts the table).
    client = Client()
    deleted = client.post(reverse("games:sheet-delete", args=[table.sheet.edit_token]))
    assert deleted.status_code == 302
    assert Sheet.objects.get(pk=table.sheet_id).deleted_at is None
    page = client.get(deleted["Location"]).content.decode()
    assert "table 1 of series 1 of a club evening" in page
    # One in the trash before that was refused (an older release let it through).
    Sheet.objects.filter(pk=table.sheet_id).update(
        deleted_at=timezone.now() - datetime.timedelta(days=sheet_services.TRASH_DAYS + 1)
    )
    Session.objects.create(
        session_key="x" * 32,
        session_data="",
        expire_date=timezone.now() - datetime.timedelta(days=1),
    )
    out = io.StringIO()
    call_command("clearexpired", stdout=out)
    assert not Session.objects.filter(session_key="x" * 32).exists()
    assert Sheet.objects.filter(pk=table.sheet_id).exists()  # the evening still needs it


# -- rebuild_results ---------------------------------------------------------------------


@pytest.mark.django_db
def test_rebuild_results_names_a_sheet_the_rules_now_refuse_and_rebuilds_the_others(
    django_user_model,
):
    """A kept deal that a stricter rule refuses (the app answers 409 for it on its pages,
    games/middleware.py) makes `manage.py rebuild_results` die with a StoredDealRefused
    traceback at that sheet: the sheets after it and the seasons' totals are not
    rebuilt. It should name the sheet and the deal, rebuild the rest and exit in words."""
    owner = django_user_model.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Tuesday club", player_name="Olga")
    refused, fine = (
        circle_services.sheet_create_in_circle(
            circle=circle, game="skat", players=["Olga", *THREE[:2]]
        )
        for _ in range(2)
    )
    for sheet in (refused, fine):
        sheet_services.hand_record(sheet=sheet, data=SKAT_WON)
    # Kept before the rule was stricter: 17 is no bid (ISkO 2.2). The engines kept with
    # the sheets are of an older release and replayed.
    Hand.objects.filter(sheet=refused).update(entry={**SKAT_WON, "bid": 17})
    SheetSnapshot.objects.all().delete()
    SheetResult.objects.filter(sheet__sheet=fine).delete()  # what the rebuild is run for

    # Refused in words is fine, once the other sheets are rebuilt.
    with contextlib.suppress(CommandError):
        call_command("rebuild_results", stdout=io.StringIO(), stderr=io.StringIO())
    assert SheetResult.objects.filter(sheet__sheet=fine).exists()


# -- a circle's export and import ---------------------------------------------------------


def _export_and_import(circle: Circle, owner, tmp_path: Path) -> Circle:
    path = tmp_path / "circle.json"
    call_command("export_circle", str(circle.pk), output=str(path), stdout=io.StringIO())
    before = set(Circle.objects.values_list("pk", flat=True))
    call_command(
        "import_circle",
        str(path),
        map_user=[f"{owner.username}={owner.username}"],
        stdout=io.StringIO(),
        stderr=io.StringIO(),
    )
    return Circle.objects.exclude(pk__in=before).get()


@pytest.mark.django_db
def test_a_sheet_in_the_trash_stays_in_the_trash_through_export_and_import(
    django_user_model, tmp_path
):
    """A circle's sheet moved to the trash is exported without its deleted_at
    (circles/transfer.py), so the import brings it back as a live sheet that counts in
    the standings again. What the export and import move should be the circle as it is:
    a sheet in the trash stays there (or is left out)."""
    owner = django_user_model.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Tuesday club", player_name="Olga")
    kept = circle_services.sheet_create_in_circle(
        circle=circle, game="skat", players=["Olga", *THREE[:2]]
    )
    sheet_services.hand_record(sheet=kept, data=SKAT_WON)
    trashed = circle_services.sheet_create_in_circle(
        circle=circle, game="skat", players=["Olga", *THREE[:2]]
    )
    sheet_services.hand_record(sheet=trashed, data=SKAT_LOST)
    sheet_services.sheet_delete(sheet=trashed)
    live_before = CircleSheet.objects.filter(circle=circle, sheet__deleted_at__isnull=True).count()
    assert live_before == 1

    imported = _export_and_import(circle, owner, tmp_path)
    live_after = CircleSheet.objects.filter(circle=imported, sheet__deleted_at__isnull=True)
    assert live_after.count() == live_before


@pytest.mark.django_db
def test_export_and_import_keep_the_circles_club_evenings_and_money_rules(
    django_user_model, tmp_path
):
    """README: "a whole circle exports to one JSON file". The export writes neither the
    circle's club evenings (roll, series, money, payments) nor its usual money rules
    (Circle.evening_money), and the import says nothing of it: an operator moving a
    club to another server loses its evenings and cash box without a word."""
    owner = django_user_model.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Tuesday club", player_name="Olga")
    evening = evening_services.evening_create(
        name="Club night",
        played_on=datetime.date.today(),
        series_deals={"3": 6, "4": 8},
        circle=circle,
        money=CLUB_MONEY,
    )
    evening_accounts.keep_for_circle(circle=circle, rules=evening_accounts.rules_of(evening))
    circle.refresh_from_db()
    assert circle.evening_money

    imported = _export_and_import(circle, owner, tmp_path)
    assert imported.evening_money == circle.evening_money
    assert Evening.objects.filter(circle=imported).count() == 1


# -- restore into a running app --------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_after_a_restore_the_read_only_board_shows_the_restored_sheet(live_database, tmp_path):  # noqa: F811
    """restore.py: "a running app ... then reads the restored data". But a worker keeps
    read-only boards by sheet version, and a restored sheet takes its old version
    numbers again: the next deal after the restore brings the version back to one the
    worker has drawn, and the phones following the sheet see the deal from before the
    restore (won) instead of the one now in the database (lost)."""
    sheet = sheet_services.sheet_create(game="skat", players=THREE, options={"series_deals": 6})
    sheet_services.hand_record(sheet=sheet, data=SKAT_WON)
    backup = tmp_path / "before.sqlite3"
    call_command("backup", str(backup), stdout=io.StringIO())

    client = Client()
    live = reverse("games:sheet-live", args=[sheet.view_token])
    sheet_services.hand_record(sheet=sheet, data=SKAT_WON)
    assert client.get(live).status_code == 200  # a phone follows the sheet: drawn and kept

    call_command("restore", str(backup), yes=True, stdout=io.StringIO())
    sheet = Sheet.objects.get(pk=sheet.pk)
    sheet_services.hand_record(sheet=sheet, data=SKAT_LOST)
    shown = client.get(live).content
    caches["renders"].clear()
    fresh = client.get(live).content
    assert "Cem: Clubs with 1, lost" in shown.decode()
    assert shown == fresh


@pytest.mark.django_db(transaction=True)
def test_restore_without_yes_keeps_a_database_of_accounts_circles_and_paid_fees(
    live_database,  # noqa: F811
    tmp_path,
    django_user_model,
):
    """A club set up but not yet playing (accounts, a circle, tonight's roll taken at the
    door and entry fees marked paid) has no sheet, so `manage.py restore OTHER` replaces
    it all without --yes and without a word of what was there (restore.py counts only
    sheets). It should refuse, as for sheets, whenever the database holds anything a
    user entered. (README words the guard as "a database that has sheets".)"""
    backup = tmp_path / "empty.sqlite3"
    call_command("backup", str(backup), stdout=io.StringIO())
    owner = django_user_model.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Tuesday club", player_name="Olga")
    evening = evening_services.evening_create(
        name="Club night",
        played_on=datetime.date.today(),
        series_deals={"3": 6, "4": 8},
        circle=circle,
        money=CLUB_MONEY,
    )
    evening_services.players_add(evening=evening, names=["Olga", "Anna", "Bernd"])
    for player in evening.players.all():
        evening_accounts.payment_add(evening=evening, player=player, amount="6.00", by="olga")
    assert not Sheet.objects.exists()

    with pytest.raises(CommandError, match="--yes"):
        call_command("restore", str(backup), stdout=io.StringIO())
    assert Circle.objects.filter(pk=circle.pk).exists()
    assert Payment.objects.filter(evening=evening).count() == 3


@pytest.mark.django_db(transaction=True)
def test_two_backups_in_the_same_second_are_two_files(live_database, settings, tmp_path):  # noqa: F811
    """Two `manage.py backup` in a row without a path (a script) fall in the same second:
    the second one is written beside the first (…-2), not refused as "exists already"."""
    settings.DATA_DIR = tmp_path
    first = io.StringIO()
    second = io.StringIO()
    call_command("backup", stdout=first)
    call_command("backup", stdout=second)
    written = sorted((tmp_path / "backups").iterdir())
    assert len(written) == 2, written
