"""The CSV downloads open in a spreadsheet of the page's language: read here with the
csv module as a spreadsheet reads them.

- English: commas between the cells, a decimal point; German and Esperanto (which
  write a decimal comma): semicolons and a decimal comma, as a German spreadsheet
  reads a CSV. The page says which beside the download.
- One row of real headings (translated), never "Column 1 … 9".
- Every minus sign is "-" (never U+2212), so each number is a number.
- A sheet's file is named by the day it was played (skat-2026-12-01.csv).
"""

from __future__ import annotations

import csv
import datetime
import io
import re

import pytest
from django.contrib.auth.models import User

from circles import services
from games import services as sheet_services

pytestmark = pytest.mark.django_db

GRAND_WON = {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
GRAND_LOST = {"declarer": 1, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "lost"}
SHAPE = {"en": (",", "."), "de": (";", ","), "eo": (";", ",")}
HINT = {
    "en": "commas between the cells, a decimal point",
    "de": "Semikolons zwischen den Zellen, Dezimalkomma",
    "eo": "punktokomoj inter la ĉeloj, decimala komo",
}
NUMBER = {
    ",": re.compile(r"-?\d+(,\d+)?"),
    ".": re.compile(r"-?\d+(\.\d+)?"),
}


def _season_with_a_sheet(players, **season):
    """A circle with a season of ten days either side of today, and a finished
    two-deal Skat sheet of ``players`` (the first is the owner's player)."""
    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = services.circle_create(owner=owner, name="Club", player_name=players[0])
    today = datetime.date.today()
    season = services.season_save(
        circle=circle,
        data={
            "name": "This season",
            "starts_on": today - datetime.timedelta(days=10),
            "ends_on": today + datetime.timedelta(days=10),
            **season,
        },
    )
    sheet = services.sheet_create_in_circle(
        circle=circle, game="skat", players=players, options={"series_deals": 2}, owner=owner
    )
    sheet_services.hand_record(sheet=sheet, data=GRAND_WON)
    sheet_services.hand_record(sheet=sheet, data=GRAND_LOST)
    sheet.refresh_from_db()
    return {"owner": owner, "circle": circle, "season": season, "sheet": sheet}


@pytest.fixture
def evening():
    return _season_with_a_sheet(["Olga", "Max", "Nina"], skat_rules={"rank_by": "average"})


def read(response, delimiter: str) -> list[list[str]]:
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")  # Excel reads UTF-8 by its byte-order mark
    assert "\u2212" not in text  # one minus sign: "-"
    return list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=delimiter))


@pytest.mark.parametrize("language", ["en", "de", "eo"])
def test_a_sheet_csv_reads_in_a_spreadsheet_of_the_pages_language(client, evening, language):
    sheet = evening["sheet"]
    delimiter, decimal = SHAPE[language]
    response = client.get(f"/{language}/s/{sheet.edit_token}/sheet.csv")
    assert response.status_code == 200
    rows = read(response, delimiter)
    header, deals = rows[0], rows[1:]
    assert len(header) == 3 + 2 * 3
    assert all(len(row) == len(header) for row in rows)
    assert header[3] == "Olga"
    assert {"en": "Deal", "de": "Spiel", "eo": "Ludo"}[language] == header[0]
    assert [row[0] for row in deals] == ["1", "2"]
    # Max lost a Grand: a negative score, written with "-", read as a number.
    scores = [row[5] for row in deals]
    assert scores[1].startswith("-")
    for row in deals:
        for value in row[3:]:
            assert NUMBER[decimal].fullmatch(value), value
    assert f'filename="skat-{sheet.played_on.isoformat()}.csv"' in response["Content-Disposition"]


@pytest.mark.parametrize("language", ["en", "de", "eo"])
def test_the_standings_csv_has_headings_and_the_languages_numbers(client, evening, language):
    client.force_login(evening["owner"])
    c, s = evening["circle"].pk, evening["season"].pk
    delimiter, decimal = SHAPE[language]
    rows = read(client.get(f"/{language}/circles/{c}/seasons/{s}/standings.csv"), delimiter)
    header, players = rows[0], rows[1:]
    assert all(len(row) == len(header) for row in rows)
    # Real headings, each once, in the page's language; no "Column 1" / "Spalte 1".
    assert len(set(header)) == len(header)
    assert not any(re.search(r"(Column|Spalte|Kolumno) \d", h) for h in header)
    assert {"en": "Seeger-Fabian total", "de": "Seeger-Fabian-Stand"}.get(
        language, header[-1]
    ) in header
    assert sorted(row[2] for row in players) == ["Max", "Nina", "Olga"]
    # Every row is a player (no table-title rows between them).
    assert {row[0] for row in players} == {"Skato" if language == "eo" else "Skat"}
    for row in players:
        for value in row[3:]:
            if value not in ("", "–"):
                assert NUMBER[decimal].fullmatch(value), (header, row)
    # The average per series has a decimal, written with the file's decimal mark.
    averages = [row[3] for row in players]
    assert all(decimal in value for value in averages), averages
    assert any(value.startswith("-") for row in players for value in row[3:])


@pytest.mark.parametrize("language", ["en", "de", "eo"])
def test_the_pages_say_how_the_csv_is_written(client, evening, language):
    client.force_login(evening["owner"])
    c, s = evening["circle"].pk, evening["season"].pk
    for path in (f"/circles/{c}/seasons/{s}/", f"/s/{evening['sheet'].edit_token}/"):
        page = client.get(f"/{language}{path}").content.decode()
        assert HINT[language] in page, path


def test_a_name_a_spreadsheet_would_run_as_a_formula_stays_a_name(client):
    # CSV injection: a cell starting with = + - @ is a formula in a spreadsheet.
    sheet = sheet_services.sheet_create(game="skat", players=["=HYPERLINK(1)", "@SUM(A1)", "-Cem"])
    sheet_services.hand_record(sheet=sheet, data=GRAND_LOST)
    rows = read(client.get(f"/en/s/{sheet.edit_token}/sheet.csv"), ",")
    assert rows[0][3::2] == ["'=HYPERLINK(1)", "'@SUM(A1)", "'-Cem"]
    assert rows[1][1].startswith("'")  # the dealer's name
    assert all(not value.startswith(("=", "+", "@")) for row in rows for value in row)
    # Numbers keep their minus sign and stay numbers.
    assert any(re.fullmatch(r"-\d+", value) for value in rows[1])


def test_a_player_named_like_a_formula_stays_a_name_in_the_standings_csv(client):
    """Issue 19 (OWASP CSV injection): names beginning with = + - @ in the season's
    standings file are text, not formulas."""
    world = _season_with_a_sheet(["=HYPERLINK(1)", "@SUM(A1)", "+Cem"])
    circle, season = world["circle"], world["season"]
    client.force_login(world["owner"])
    rows = read(client.get(f"/en/circles/{circle.pk}/seasons/{season.pk}/standings.csv"), ",")
    names = {row[2] for row in rows[1:]}
    assert {"'=HYPERLINK(1)", "'@SUM(A1)", "'+Cem"} <= names
    assert all(not value.startswith(("=", "+", "@")) for row in rows for value in row)
