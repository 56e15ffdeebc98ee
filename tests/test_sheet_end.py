"""What the end of a sheet shows: the numbers that decide who won."""

from __future__ import annotations

import re

import pytest

from games import services
from games.models import Sheet

pytestmark = pytest.mark.django_db

# Klaus wins one Grand with 3 (4 × 24 = 96 on the list); Grete wins three Clubs with 1
# (3 × 12 = 24 each, 72 on the list); Ben loses two Diamonds with 1 (−36 each).
SERIES = [
    {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 3}, "outcome": "won"},
    *[{"declarer": 1, "game": "clubs", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}] * 3,
    *[{"declarer": 2, "game": "diamonds", "bid": 18, "matadors": {"with": 1}, "outcome": "lost"}]
    * 2,
]


def finished_skat() -> Sheet:
    sheet = services.sheet_create(
        game="skat", players=["Klaus", "Grete", "Ben"], options={"series_deals": 6}
    )
    for deal in SERIES:
        services.hand_record(sheet=sheet, data=deal)
    sheet.refresh_from_db()
    return sheet


def big_numbers(page: str) -> list[str]:
    return re.findall(r'data-testid="total-\d+">([^<]*)<', page)


def second_numbers(page: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", found).strip()
        for found in re.findall(r'<span class="total-second">(.*?)</span>', page, re.S)
    ]


@pytest.mark.parametrize("link", ["edit", "view"])
def test_a_finished_skat_sheet_shows_the_seeger_fabian_points_big_and_the_list_second(client, link):
    # The series is ranked by Seeger-Fabian (the rule book's "Tournament scoring:
    # Seeger-Fabian"; ISkO 5.2.2): list points, +50 per game won as declarer, −50 per
    # game lost, +40 at a table of three for every game another declarer lost. Klaus
    # leads the list (96 to 72) but Grete wins: 72 + 3 × 50 + 2 × 40 = 302 against
    # Klaus's 96 + 50 + 2 × 40 = 226. The big numbers are what decided.
    sheet = finished_skat()
    url = f"/en/s/{sheet.edit_token}/" if link == "edit" else f"/en/v/{sheet.view_token}/"
    page = client.get(url).content.decode()
    assert "Grete wins" in page
    assert big_numbers(page) == ["226", "302", "−172"]
    assert second_numbers(page) == ["List 96", "List 72", "List −72"]
    assert "Seeger-Fabian points" in page


def test_a_skat_sheet_still_being_played_shows_the_list_points():
    # While the series runs, the big numbers are the list, as the deals below add up.
    from django.test import Client

    sheet = services.sheet_create(
        game="skat", players=["Klaus", "Grete", "Ben"], options={"series_deals": 6}
    )
    services.hand_record(sheet=sheet, data=SERIES[0])
    page = Client().get(f"/en/s/{sheet.edit_token}/").content.decode()
    assert big_numbers(page) == ["96", "0", "0"]
    assert second_numbers(page) == []
