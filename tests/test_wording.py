"""Wording a German (or Esperanto) reader stumbled over, checked on the pages.

- A finished Skat sheet says "Serie beendet" only: a Skat sheet is a series (Serie);
  "Partie" is the whole game of Pitch and Manipulation (docs/glossary.md).
- "Keep this sheet" (download, history, keep in a circle) is "Diese Liste behalten",
  not "aufheben", which reads as "cancel".
- Head to head reads as a sentence: "3 gemeinsame Tische: 0-mal besser, 3-mal
  schlechter platziert", not "vorn 0, hinten 3".
- The circle's name is labelled once on its settings page (the section and its field
  were both "Name der Runde").
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User

from circles import services
from circles.models import Player
from games import services as sheet_services

pytestmark = pytest.mark.django_db

GRAND_WON = {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
GRAND_LOST = {"declarer": 1, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "lost"}


def text_of(markup: str) -> str:
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", markup))


@pytest.fixture
def circle():
    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    member = User.objects.create_user("max", "max@example.org", "pw-long-enough-1")
    circle = services.circle_create(owner=owner, name="Club", player_name="Olga")
    services.circle_join(user=member, token=circle.invite_token)
    today = datetime.date.today()
    services.season_save(
        circle=circle,
        data={
            "name": "Autumn",
            "starts_on": today - datetime.timedelta(days=10),
            "ends_on": today + datetime.timedelta(days=10),
        },
    )
    skat = services.sheet_create_in_circle(
        circle=circle,
        game="skat",
        players=["Olga", "Max", "Rita"],
        options={"series_deals": 2},
        owner=owner,
    )
    sheet_services.hand_record(sheet=skat, data=GRAND_WON)
    sheet_services.hand_record(sheet=skat, data=GRAND_LOST)
    skat.refresh_from_db()
    return {"owner": owner, "member": member, "circle": circle, "skat": skat}


@pytest.mark.parametrize(
    ("language", "series", "game"),
    [("en", "Series over", "Game over"), ("de", "Serie beendet", "Partie beendet")],
)
def test_a_finished_skat_series_says_series_only(client, circle, language, series, game):
    sheet = circle["skat"]
    assert sheet.finished
    page = text_of(client.get(f"/{language}/s/{sheet.edit_token}/").content.decode())
    assert series in page
    assert game not in page
    assert "Partie" not in page  # nor "Noch eine Partie" on its Play again button


def test_keep_this_sheet_is_not_cancel_in_german(client, circle):
    page = text_of(client.get(f"/de/s/{circle['skat'].edit_token}/").content.decode())
    assert "Diese Liste behalten" in page
    assert "aufheben" not in page


def test_head_to_head_reads_as_a_sentence_in_german(client, circle):
    client.force_login(circle["owner"])
    olga = Player.objects.get(circle=circle["circle"], name="Olga")
    page = text_of(
        client.get(f"/de/circles/{circle['circle'].pk}/players/{olga.pk}/").content.decode()
    )
    assert re.search(r"1 gemeinsamer Tisch: \d+-mal besser, \d+-mal schlechter platziert", page)
    assert "vorn" not in page
    assert "hinten" not in page


@pytest.mark.parametrize("language", ["en", "de", "eo"])
def test_the_circles_name_is_labelled_once_on_its_settings(client, circle, language):
    client.force_login(circle["owner"])
    markup = client.get(f"/{language}/circles/{circle['circle'].pk}/settings/").content.decode()
    legends = re.findall(r"<legend>(.*?)</legend>", markup, flags=re.S)
    labels = re.findall(r"<label[^>]*>(.*?)</label>", markup, flags=re.S)
    shown = [text_of(x).strip() for x in legends + labels]
    names = [x for x in shown if x]
    assert len(names) == len(set(names)), names


def test_no_page_of_a_member_tells_them_to_run_a_command(client, circle):
    # Only the owner's export help names the import command (on the settings page,
    # which only owners open); no other page tells anyone to run a shell command.
    client.force_login(circle["member"])
    c = circle["circle"].pk
    max_ = Player.objects.get(circle=circle["circle"], name="Max")
    paths = [
        "/mine/",
        f"/circles/{c}/",
        f"/circles/{c}/players/",
        f"/circles/{c}/players/{max_.pk}/",
        f"/circles/{c}/new/skat/",
        f"/s/{circle['skat'].edit_token}/",
        f"/s/{circle['skat'].edit_token}/history/",
    ]
    season = circle["circle"].seasons.first()
    paths.append(f"/circles/{c}/seasons/{season.pk}/")
    for language in ("en", "de", "eo"):
        for path in paths:
            response = client.get(f"/{language}{path}")
            assert response.status_code == 200, path
            page = response.content.decode()
            assert "manage.py" not in page, path
            assert "import_circle" not in page, path
    assert client.get(f"/en/circles/{c}/settings/").status_code == 404


def test_not_even_the_owners_export_help_tells_them_to_run_a_command(client, circle):
    # The owner reads what the file holds and what an import needs of the members; the
    # command that imports it is for whoever runs the server (the README says it).
    client.force_login(circle["owner"])
    for language in ("en", "de", "eo"):
        response = client.get(f"/{language}/circles/{circle['circle'].pk}/settings/")
        assert response.status_code == 200
        page = response.content.decode()
        assert "manage.py" not in page, language
        assert "import_circle" not in page, language
