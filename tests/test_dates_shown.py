"""A page writes its days in one style: the history's stamps as the circle pages
write a day ("1. Dezember 2026" in German, after wording.day), not "1 Dez 2026"."""

from __future__ import annotations

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


JUST_NOW = {"en": "just now", "de": "gerade eben", "eo": "ĵus"}
NO_TIME = re.compile(r"\b0 (minutes|Minuten|minutoj)")


@pytest.mark.parametrize("language", ["en", "de", "eo"])
def test_a_sheet_started_under_a_minute_ago_was_started_just_now(client, language):
    import datetime

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
