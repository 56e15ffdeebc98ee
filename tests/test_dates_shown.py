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
