"""A page writes its days in one style: the history's stamps as the circle pages
write a day ("1. Dezember 2026" in German, after wording.day), not "1 Dez 2026"."""

from __future__ import annotations

import datetime
import re

import pytest
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from games import services

pytestmark = pytest.mark.django_db

GRAND_WON = {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}


@pytest.mark.parametrize("language", ["en", "de", "eo"])
def test_the_history_writes_its_days_as_the_other_pages_do(client, language):
    sheet = services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    services.hand_record(sheet=sheet, data=GRAND_WON)
    page = client.get(f"/{language}/s/{sheet.edit_token}/history/").content.decode()
    stamps = re.findall(r'<span class="stamp">([^<·]*)', page)
    assert stamps
    with translation.override(language):
        today = formats.date_format(timezone.localtime(), gettext("j M Y"))
    if language == "de":
        assert re.fullmatch(r"\d+\. \w+ \d{4}", today)  # "1. Dezember 2026"
    for stamp in stamps:
        assert re.fullmatch(re.escape(today) + r", \d\d:\d\d:\d\d\s*", stamp), stamp


@pytest.mark.parametrize(
    ("language", "grand", "lost", "day"),
    [
        ("en", "Ana: Grand with 1, won, +48", "Ana: Grand with 1, lost, −96", "1 Dec 2026"),
        (
            "de",
            "Ana: Grand mit 1, gewonnen, +48",
            "Ana: Grand mit 1, verloren, −96",
            "1. Dezember 2026",
        ),
        (
            "eo",
            "Ana: Grando kun 1, gajnita, +48",
            "Ana: Grando kun 1, perdita, −96",
            "1-a de decembro 2026",
        ),
    ],
)
def test_the_history_says_each_change_in_words(client, language, grand, lost, day):
    """Found reading a sheet's history in German: "Before" and "After" showed Python's
    data ({'bid': 18, 'declarer': 0, 'game': 'grand', 'outcome': 'won', …} and
    {'played_on': '2026-12-01'}). Each version of a deal is now said as the sheet lists
    it, scored at its place, and a day in the reader's format; the API's JSON stays one
    tap away for whoever wants every field."""
    sheet = services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    services.hand_record(sheet=sheet, data=GRAND_WON)
    services.hand_correct(sheet=sheet, number=1, data={**GRAND_WON, "outcome": "lost"})
    services.sheet_set_played_on(sheet=sheet, played_on=datetime.date(2026, 12, 1))
    page = client.get(f"/{language}/s/{sheet.edit_token}/history/").content.decode()
    changes = re.findall(r"<dd>([^<]*)</dd>", page)
    with translation.override(language):
        today = formats.date_format(timezone.localdate(), gettext("j M Y"))
    # Newest first: the day, the correction (before, after), the deal as entered.
    assert changes == [today, day, grand, lost, grand]
    assert "{&#x27;" not in page
    assert "{'" not in page
    # As the API records it: JSON, the API's own words.
    assert "&quot;outcome&quot;: &quot;lost&quot;" in page


def test_the_history_says_a_number_of_hands_and_reads_its_own_data_as_input(client):
    """A Pitch game set to end after 12 hands: "none: played to the target" became
    "12 hands". A change whose kept data does not read (written by hand into the
    database) is said as "—", with its JSON beside it, and never fails the page; a
    deal version that no longer fits the deals before it says so."""
    from games.models import SheetEvent

    sheet = services.sheet_create(game="pitch", players=["Ana", "Ben", "Cem", "Dee"])
    services.sheet_end_after(sheet=sheet, hands=12)
    SheetEvent.objects.create(sheet=sheet, kind="hands", before={"hands": "x"}, after={})
    SheetEvent.objects.create(sheet=sheet, kind="dated", before={"played_on": 7}, after=[])
    SheetEvent.objects.create(sheet=sheet, kind="entered", number=1, after={"bid": "moon?"})
    page = client.get(f"/en/s/{sheet.edit_token}/history/")
    assert page.status_code == 200
    changes = re.findall(r"<dd>([^<]*)</dd>", page.content.decode())
    assert changes == [
        "This version does not fit the deals before it any more.",
        "—",  # a day that is a number,
        "—",  # and one that is a list
        "—",  # hands that are text
        "none: played to the target",  # no hands said: to the target
        "none: played to the target",
        "12 hands",
    ]


JUST_NOW = {"en": "just now", "de": "gerade eben", "eo": "ĵus"}
NO_TIME = re.compile(r"\b0 (minutes|Minuten|minutoj)")


@pytest.mark.parametrize("language", ["en", "de", "eo"])
def test_a_sheet_started_under_a_minute_ago_was_started_just_now(client, language):
    from games.session_keys import STARTED

    form_page = client.get(f"/{language}/new/manipulation/").content.decode()
    key = re.search(r'name="idempotency_key" value="([^"]+)"', form_page).group(1)
    form = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "idempotency_key": key}
    assert client.post(f"/{language}/new/manipulation/", form).status_code == 302
    page = client.get(f"/{language}/new/manipulation/").content.decode()
    assert JUST_NOW[language] in page
    assert not NO_TIME.search(page)
    # Five minutes later it says how long ago.
    session = client.session
    started = session[STARTED]
    at = datetime.datetime.fromisoformat(started[0]["at"]) - datetime.timedelta(minutes=5)
    started[0]["at"] = at.isoformat()
    session[STARTED] = started
    session.save()
    page = client.get(f"/{language}/new/manipulation/").content.decode()
    assert JUST_NOW[language] not in page
    assert re.search(r"\b5\xa0?\s?(minutes|Minuten|minutoj)", page)
