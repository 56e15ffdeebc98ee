"""The printed Skat list (Spielliste): filled from a sheet by either link, and blank.

The numbers on the list are the sheet's own: each row's running totals are the
sheet's totals after that deal, and the foot is the Seeger-Fabian tally the sheet
shows (ISkO 5.2: + 50 per game won, − 50 per game lost, + 40 / 30 per game the
others lost at three / four; issue 17: 24 at five).
"""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import selectors, services

pytestmark = pytest.mark.django_db

PLAYERS = ["Ana", "Ben", "Cem", "Dan"]
DEALS = [
    # Ana deals and sits out. Ben: Grand Hand with 2, schneider: 5 × 24 = 120.
    {
        "declarer": 1,
        "game": "grand",
        "bid": 18,
        "hand": True,
        "matadors": {"with": 2},
        "outcome": "won_schneider",
    },
    # Cem: Clubs against 3, lost: 4 × 12 = 48, −96; a Bock round follows (hundred_or_more
    # is off, so none). Dan: a game entered by its value, −72.
    {"declarer": 2, "game": "clubs", "bid": 18, "matadors": {"against": 3}, "outcome": "lost"},
    {"declarer": 0, "value": -72},
    # Everyone passed: thrown in.
    {"passed": True},
    # Ben: Null Hand, won: 35.
    {"declarer": 1, "game": "null", "bid": 35, "hand": True, "outcome": "won"},
]


def _sheet(deals=DEALS, players=PLAYERS, **options):
    sheet = services.sheet_create(
        game="skat", players=players, options={"series_deals": 8, **options}
    )
    for deal in deals:
        services.hand_record(sheet=sheet, data=deal)
    sheet.refresh_from_db()
    return sheet


def _cells(html: str, css_class: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(rf'<td[^>]*class="{css_class}"[^>]*>(.*?)</td>', html, re.S)
    ]


def test_the_filled_list_has_the_sheets_rows_totals_and_seeger_fabian_foot(client):
    sheet = _sheet()
    state = selectors.sheet_state(sheet)
    response = client.get(f"/en/s/{sheet.edit_token}/list")
    assert response.status_code == 200
    listed = response.context["listed"]
    assert len(listed.rows) == 8
    assert [r.kind for r in listed.rows] == [
        "game",
        "game",
        "by_value",
        "passed",
        "null",
        *["blank"] * 3,
    ]
    for row, deal in zip(listed.rows, state.deals, strict=False):
        changed = [c.total for c in row.players if c.total is not None]
        assert changed == [t for t, s in zip(deal.totals, deal.scores, strict=True) if s]
    foot = [f.total for f in listed.foot]
    assert foot == [r.total for r in state.details["seeger_fabian"].rows]
    html = response.content.decode()
    # The foot's Endsumme cells, as the sheet's Seeger-Fabian shows them.
    # Ana: −72 − 50 + 30 (Cem's loss) = −92; Ben: 155 + 100 + 2 × 30 = 315;
    # Cem: −96 − 50 + 30 = −116; Dan: 0 + 2 × 30 = 60.
    assert foot == [-92, 315, -116, 60]
    assert _cells(html, "c-foot")[-4:] == ["−92", "315", "−116", "60"]
    assert "Grand" not in _cells(html, "c-game")  # a suit game is its columns, not a name
    assert "Null Hand" in _cells(html, "c-game")
    assert "thrown in" in _cells(html, "c-game")
    assert response["Cache-Control"].startswith("no-cache")


def test_a_game_entered_by_value_shows_its_value_and_no_game_columns(client):
    sheet = _sheet(deals=[{"declarer": 1, "value": -96}, {"declarer": 2, "value": 48}])
    response = client.get(f"/en/v/{sheet.view_token}/list")
    assert response.status_code == 200
    rows = response.context["listed"].rows[:2]
    assert [(r.kind, r.won_value, r.lost_value) for r in rows] == [
        ("by_value", None, -96),
        ("by_value", 48, None),
    ]
    assert all(r.base_value is None and r.levels == () for r in rows)
    html = response.content.decode()
    first = html.split('<tr class="row-by_value">')[1].split("</tr>")[0]
    assert "×" not in first
    assert "−96" in first


def test_a_bock_deal_is_marked_on_the_list(client):
    big = {
        "declarer": 1,
        "game": "grand",
        "bid": 18,
        "hand": True,
        "matadors": {"with": 2},
        "outcome": "won_schneider",
    }
    small = {
        "declarer": 2,
        "game": "diamonds",
        "bid": 18,
        "matadors": {"with": 1},
        "outcome": "won",
    }
    sheet = _sheet(deals=[big, small], bock={"hundred_or_more": True})
    html = client.get(f"/en/s/{sheet.edit_token}/list").content.decode()
    assert html.count('class="bock-mark"') == 1
    assert 'class="row-game row-bock"' in html


def test_the_list_reads_the_same_few_queries_however_many_deals(client):
    short, long = _sheet(deals=DEALS[:1]), _sheet(deals=DEALS)
    counts = []
    for sheet in (short, long):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/en/v/{sheet.view_token}/list").status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_only_a_skat_sheet_has_a_spielliste(client):
    sheet = services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"])
    assert client.get(f"/en/s/{sheet.edit_token}/list").status_code == 404
    # The read-only link does not open the edit link's page.
    skat = _sheet(deals=[])
    assert client.get(f"/en/s/{skat.view_token}/list").status_code == 404


def test_the_sheet_page_links_to_its_list(client):
    sheet = _sheet(deals=[])
    edit = client.get(f"/en/s/{sheet.edit_token}/").content.decode()
    view = client.get(f"/en/v/{sheet.view_token}/").content.decode()
    assert f'href="/en/s/{sheet.edit_token}/list"' in edit
    assert f'href="/en/v/{sheet.view_token}/list"' in view


@pytest.mark.parametrize(("players", "deals", "k"), [(3, 36, 40), (4, 48, 30), (5, 60, 24)])
def test_a_blank_list_for_a_table_of_three_four_or_five(client, players, deals, k):
    response = client.get(f"/en/rules/skat/list?players={players}&deals={deals}")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('<tr class="row-blank">') == deals
    assert html.count('class="c-sign"') == players
    assert f"+ games the others lost × {k}" in html
    assert ("list-landscape" in html) == (players == 5)


def test_a_blank_list_without_a_length_has_the_usual_series(client):
    html = client.get("/en/rules/skat/list?players=3").content.decode()
    assert html.count('<tr class="row-blank">') == 36


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("players=2&deals=36", "A Skat list is printed for a table of 3, 4 or 5 players; got"),
        ("players=four&deals=48", "A Skat list is printed for a table of 3, 4 or 5 players; got"),
        ("players=4&deals=0", "A series has 1 to 200 deals; got"),
        ("players=4&deals=9999", "A series has 1 to 200 deals; got"),
        ("players=4&deals=50", "has a multiple of 4 deals"),
        ("players=5&deals=", "A series has 1 to 200 deals; got"),
    ],
)
def test_a_blank_list_refuses_bad_values_with_a_message(client, query, message):
    response = client.get(f"/en/rules/skat/list?{query}")
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html
    assert 'class="spielliste' not in html
    assert 'name="players"' in html  # the form to put it right


def test_the_headings_are_the_official_german_column_names(client):
    html = client.get("/de/rules/skat/list?players=4&deals=48").content.decode()
    for heading in (
        "Spielliste",
        "Nr.",
        "Grundwert",
        "Spitzen",
        ">mit<",
        ">ohne<",
        "Gewinnstufen",
        ">Hand<",
        ">Schneider<",
        ">angesagt<",
        ">Schwarz<",
        ">Ouvert<",
        ">gewonnen<",
        ">verloren<",
        "Ergebnis",
        "Endsumme",
        "Unterschrift",
    ):
        assert heading in html, heading
    eo = client.get("/eo/rules/skat/list?players=3&deals=36").content.decode()
    for heading in ("Ludlisto", "Bazvaloro", "Pintoj", "Fina sumo", "Subskribo"):
        assert heading in eo, heading
