"""A circle of years never lists its whole history on one page: the circle page shows
its latest sheets and club evenings a page at a time and finds sheets by player, game
and days; a player page shows the latest of their history and charts the latest
sheets. The cost and the size of each page stay the same as the circle grows
(``bench/bench_standings.py`` measures 10, 1,000 and 5,000 sheets).
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from circles import views
from circles.charts_data import CHART_SHEETS
from circles.models import CircleSheet, Player
from circles.season_factory import FIRST_EVENING, build_season

pytestmark = pytest.mark.django_db


def member_of(size: int) -> tuple[Client, object]:
    season, user = build_season(size, seed=size)
    client = Client()
    client.force_login(user)
    return client, season.circle


def listed(html: str) -> int:
    return html.count('class="sheet-row')


def test_the_circle_page_lists_the_latest_sheets_a_page_at_a_time():
    client, circle = member_of(60)
    first = client.get(circle.get_absolute_url())
    assert first.status_code == 200
    html = first.content.decode()
    assert listed(html) == views.SHEETS_A_PAGE
    # 60 finished sheets and tonight's open one: 61, the open one first.
    assert "61 sheets, the open ones first, then the latest." in html
    assert html.index("chip-open") < html.index(">Finished<")
    assert "Page 1 of 3" in html
    assert "Earlier sheets" in html
    assert "Later sheets" not in html
    last = client.get(circle.get_absolute_url(), {"page": 3}).content.decode()
    assert listed(last) == 61 - 2 * views.SHEETS_A_PAGE
    assert "Page 3 of 3" in last
    assert "Earlier sheets" not in last
    assert "Later sheets" in last
    # A page beyond the last, or not a number, shows the last or the first: never an error.
    assert listed(client.get(circle.get_absolute_url(), {"page": 99}).content.decode()) == 11
    assert client.get(circle.get_absolute_url(), {"page": "x"}).status_code == 200


def test_the_circle_page_costs_the_same_queries_and_size_at_30_and_at_90_sheets():
    measured = {}
    for size in (30, 90):
        client, circle = member_of(size)
        client.get(circle.get_absolute_url())
        with CaptureQueriesContext(connection) as queries:
            response = client.get(circle.get_absolute_url())
        measured[size] = (len(queries), len(response.content))
    assert measured[30][0] == measured[90][0]
    # The same 25 rows; only numbers (ids, counts) may be a few bytes longer.
    assert abs(measured[30][1] - measured[90][1]) < 200


def test_sheets_are_found_by_player_game_and_days():
    client, circle = member_of(40)
    ana = Player.objects.get(circle=circle, name="Ana")
    found = client.get(
        circle.get_absolute_url(), {"search": "1", "player": ana.pk, "game": "skat"}
    ).content.decode()
    expected = CircleSheet.objects.filter(
        circle=circle, seat_players__player=ana, sheet__game="skat"
    ).count()
    assert expected > 0
    assert f"{expected} sheets found" in found or f"{expected} sheet found" in found
    assert listed(found) == min(expected, views.SHEETS_A_PAGE)
    # The pager keeps the search: page 2 of the Skat sheets.
    skat = client.get(circle.get_absolute_url(), {"search": "1", "game": "skat"}).content.decode()
    assert re.search(r'href="\?search=1&amp;game=skat&amp;page=2#sheets-heading"', skat)
    # The second week only: ten sheets (build_season plays ten a week).
    week = FIRST_EVENING + datetime.timedelta(weeks=1)
    days = client.get(
        circle.get_absolute_url(),
        {"search": "1", "since": week.isoformat(), "until": week.isoformat()},
    ).content.decode()
    assert listed(days) == 10
    assert "Show all sheets" in days
    nothing = client.get(
        circle.get_absolute_url(), {"search": "1", "since": "2001-01-01", "until": "2001-01-02"}
    ).content.decode()
    assert "No sheet of the circle matches." in nothing


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"since": "2025-03-09", "until": "2025-03-02"}, "The last day comes after the first day."),
        ({"since": "not a day"}, "Enter a valid date."),
        ({"player": "999999"}, "Select a valid choice."),
        ({"game": "poker"}, "Select a valid choice."),
    ],
)
def test_a_search_that_cannot_be_read_says_why_with_400(query, message):
    client, circle = member_of(5)
    before = CircleSheet.objects.count()
    response = client.get(circle.get_absolute_url(), {"search": "1", **query})
    assert response.status_code == 400
    html = response.content.decode()
    assert message in html
    # The page still shows the latest sheets, unfiltered, and says so; nothing changed.
    assert "This search cannot be read: see what is marked." in html
    assert listed(html) == 6
    assert "6 sheets, the open ones first" in html
    assert "nothing was saved" not in html
    assert CircleSheet.objects.count() == before


def test_a_player_page_shows_the_latest_history_and_charts_the_latest_sheets():
    client, circle = member_of(200)
    ana = Player.objects.get(circle=circle, name="Ana")
    page = client.get(ana.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    played = CircleSheet.objects.filter(
        circle=circle, seat_players__player=ana, sheet__finished=True
    ).count()
    assert played > views.HISTORY_A_PAGE
    assert html.count('<tr><th scope="row">') <= views.HISTORY_A_PAGE + 1
    assert len(page.context["history"]) == views.HISTORY_A_PAGE
    assert "Earlier sheets" in html
    skat = CircleSheet.objects.filter(
        circle=circle, seat_players__player=ana, sheet__finished=True, sheet__game="skat"
    ).count()
    assert skat > CHART_SHEETS
    assert f"Ana at Skat, the latest {CHART_SHEETS} of {skat} sheets" in html
    second = client.get(ana.get_absolute_url(), {"history": 2})
    assert second.context["history"].number == 2
