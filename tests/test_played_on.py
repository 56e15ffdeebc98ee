"""The day a sheet was played: set when it is started (today unless a paper list is
entered later), changed from the sheet page, given and returned by the API, and the
day every list, file name and season evening dates the sheet by."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from circles import services as circle_services
from circles.models import CircleSheet, StandingsChange
from circles.selectors import circle_sheets
from games import services
from games.models import Sheet, SheetEvent
from games.rules.errors import RuleError

pytestmark = pytest.mark.django_db

THREE = ["Ana", "Ben", "Cem"]
FOUR = ["Ana", "Ben", "Cem", "Dan"]
LAST_WEEK = datetime.date(2026, 1, 20)


def today() -> datetime.date:
    return timezone.localdate()


def new_form(client, lang: str = "en", circle: int | None = None) -> str:
    path = f"/{lang}/new/skat/" if circle is None else f"/{lang}/circles/{circle}/new/skat/"
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def date_input(page: str) -> str:
    found = re.search(r'<input type="date" name="played_on"[^>]*>', page)
    assert found, "the page has no date field for the day played"
    return found.group(0)


def start(client, lang: str = "en", **fields: str):
    form = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "first_dealer": "0"}
    return client.post(f"/{lang}/new/skat/", {**form, **fields})


# -- The new-sheet form ---------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de", "eo"])
def test_the_new_sheet_form_offers_the_day_as_an_iso_date_today_by_default(client, lang):
    # <input type="date"> reads only YYYY-MM-DD: a German 01.12.2026 would show empty.
    field = date_input(new_form(client, lang))
    assert f'value="{today().isoformat()}"' in field


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_paper_list_entered_later_is_started_with_the_day_it_was_played(client, lang):
    response = start(client, lang, played_on=LAST_WEEK.isoformat())
    assert response.status_code == 302
    assert Sheet.objects.get().played_on == LAST_WEEK


def test_a_sheet_started_without_a_day_was_played_today(client):
    assert start(client).status_code == 302
    assert Sheet.objects.get().played_on == today()


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("Tuesday", "Give the day it was played as a date, such as"),
        ("2999-01-01", "The day it was played cannot be later than today."),
    ],
)
def test_a_day_that_is_not_one_is_refused_with_a_message_and_nothing_is_started(
    client, typed, message
):
    response = start(client, played_on=typed)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not Sheet.objects.exists()


# -- The sheet page --------------------------------------------------------------------------


def test_the_sheet_page_shows_the_day_and_whoever_can_edit_may_change_it(client):
    sheet = services.sheet_create(game="skat", players=THREE)
    page = client.get(f"/de/s/{sheet.edit_token}/").content.decode()
    assert f'value="{today().isoformat()}"' in date_input(page)
    response = client.post(
        f"/en/s/{sheet.edit_token}/played-on", {"played_on": LAST_WEEK.isoformat()}
    )
    assert response.status_code == 302
    sheet.refresh_from_db()
    assert sheet.played_on == LAST_WEEK
    event = sheet.events.first()
    assert (event.kind, event.before, event.after) == (
        SheetEvent.DATED,
        {"played_on": today().isoformat()},
        {"played_on": LAST_WEEK.isoformat()},
    )
    page = client.get(f"/en/s/{sheet.edit_token}/").content.decode()
    assert "The sheet counts as played on Jan. 20, 2026." in page
    # The read-only link shows the day and offers no form.
    page = client.get(f"/en/v/{sheet.view_token}/").content.decode()
    assert "Jan. 20, 2026" in page
    assert 'name="played_on"' not in page
    assert client.post(f"/en/v/{sheet.view_token}/played-on", {}).status_code == 404


def test_a_bad_day_on_the_sheet_page_changes_nothing(client):
    sheet = services.sheet_create(game="skat", players=THREE)
    version = sheet.version
    response = client.post(
        f"/en/s/{sheet.edit_token}/played-on", {"played_on": "soon"}, follow=True
    )
    assert "Give the day it was played as a date" in response.content.decode()
    sheet.refresh_from_db()
    assert (sheet.played_on, sheet.version) == (today(), version)


def test_the_csv_file_is_named_by_the_day_played(client):
    sheet = services.sheet_create(game="skat", players=THREE, played_on=LAST_WEEK)
    response = client.get(f"/en/s/{sheet.edit_token}/sheet.csv")
    named = response["Content-Disposition"]
    assert LAST_WEEK.isoformat() in named
    assert today().isoformat() not in named


# -- The API -----------------------------------------------------------------------------------


def api_create(client, **body):
    response = client.post(
        "/api/v1/sheets",
        json.dumps({"game": "pitch", "players": FOUR, **body}),
        content_type="application/json",
    )
    return response.status_code, response.json()


def test_the_api_takes_the_day_played_as_an_optional_field_and_returns_it(client):
    status, body = api_create(client)
    assert status == 201
    assert body["played_on"] == today().isoformat()
    status, body = api_create(client, played_on=LAST_WEEK.isoformat())
    assert status == 201
    assert body["played_on"] == LAST_WEEK.isoformat()
    read = client.get(
        f"/api/v1/sheets/{body['id']}", HTTP_AUTHORIZATION=f"Bearer {body['view_token']}"
    ).json()
    assert read["played_on"] == LAST_WEEK.isoformat()


@pytest.mark.parametrize("value", ["20.01.2026", 20260120, "2026-02-30", True])
def test_the_api_refuses_a_day_that_is_not_one(client, value):
    status, body = api_create(client, played_on=value)
    assert status == 422
    assert [e["field"] for e in body["errors"]] == ["played_on"]
    assert not Sheet.objects.exists()


def test_the_service_refuses_a_bad_day_and_changes_nothing():
    sheet = services.sheet_create(game="skat", players=THREE)
    with pytest.raises(RuleError):
        services.sheet_set_played_on(sheet=sheet, played_on="2026-13-01")
    sheet.refresh_from_db()
    assert sheet.played_on == today()


# -- Circles: the season's evenings ------------------------------------------------------------


@pytest.fixture
def circle():
    owner = get_user_model().objects.create_user("olga", "olga@example.org")
    return circle_services.circle_create(owner=owner, name="Tuesday club", player_name="Olga")


def test_a_circle_sheet_counts_for_the_evening_it_was_played(client, circle):
    client.force_login(circle.memberships.get().user)
    assert f'value="{today().isoformat()}"' in date_input(new_form(client, circle=circle.pk))
    form = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "first_dealer": "0"}
    response = client.post(
        f"/en/circles/{circle.pk}/new/skat/", {**form, "played_on": LAST_WEEK.isoformat()}
    )
    assert response.status_code == 302
    link = CircleSheet.objects.get()
    assert (link.sheet.played_on, link.played_on) == (LAST_WEEK, LAST_WEEK)


def test_changing_the_day_on_the_sheet_moves_it_to_that_evening_in_the_circle(client, circle):
    sheet = circle_services.sheet_create_in_circle(circle=circle, game="skat", players=THREE)
    link = CircleSheet.objects.get(sheet=sheet)
    StandingsChange.objects.create(
        circle=circle, sheet=link, played_on=today(), game="skat", change="corrected", moves=[]
    )
    client.post(f"/en/s/{sheet.edit_token}/played-on", {"played_on": LAST_WEEK.isoformat()})
    link.refresh_from_db()
    assert link.played_on == LAST_WEEK
    assert [c.played_on for c in StandingsChange.objects.all()] == [LAST_WEEK]
    assert [item.played_on for item in circle_sheets(circle)] == [LAST_WEEK]
    # And the circle's own setting dates the sheet too.
    circle_services.sheet_set_played_on(link=link, played_on=datetime.date(2026, 1, 13))
    sheet.refresh_from_db()
    assert sheet.played_on == datetime.date(2026, 1, 13)


def test_the_circles_own_setting_refuses_a_day_after_tomorrow_with_a_message(client, circle):
    client.force_login(circle.memberships.get().user)
    sheet = circle_services.sheet_create_in_circle(circle=circle, game="skat", players=THREE)
    response = client.post(
        f"/en/circles/{circle.pk}/sheets/{sheet.pk}", {"played_on": "2999-01-01"}, follow=True
    )
    assert response.status_code == 200
    assert "The day it was played cannot be later than today." in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.played_on == CircleSheet.objects.get(sheet=sheet).played_on == today()
