"""German and Esperanto at a 390×844 phone (issue 10): German words are longer
("Bearbeitungslink", "Strafpunkte", "Schneider angesagt"), and every screen must still
fit without scrolling sideways, with no word running out of its button, in each
language (target sizes and contrast do not change with the language:
test_accessibility.py measures them). The language switch in the footer takes the reader to the same page in the
chosen language and is remembered.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.support import overflow, screenshot
from tests.browser.test_accessibility import (
    _screen,
    make_sheet,
    spilling,
)

LANGUAGES = ["de", "eo"]
PAGES = [
    "/",
    "/new/",
    "/new/skat/",
    "/new/pitch/",
    "/new/manipulation/",
    "/referee/",
    "/referee/skat/value/?game=grand&bid=24&matadors_direction=with&matadors_count=2"
    "&outcome=won&schneider=on&announced=schneider&hand=on",
    "/referee/skat/bid/?game=grand&hand=on&cards=JS&cards=JH",
    "/referee/pitch/",
    "/referee/manipulation/",
    "/rules/skat/",
    "/api/",
    "/accounts/login/",
    "/accounts/signup/",
]


@pytest.fixture
def phone_page(browser):
    context, page = _screen(browser, "light")
    yield page
    context.close()


def fits(page, name: str) -> None:
    assert overflow(page) <= 0, f"{name} scrolls sideways"
    assert spilling(page) == [], f"{name}: words spill out of their buttons"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_fits_a_phone_in_each_language(live_server, phone_page, language):
    for path in PAGES:
        phone_page.goto(f"{live_server.url}/{language}{path}")
        assert phone_page.locator("html").get_attribute("lang") == language
        fits(phone_page, f"{language}{path}")
    screenshot(phone_page, f"lang-{language}-api")


# The screens with the most words in chips and buttons: four players' declarer chips,
# Pitch's point chips, the finished Pitch tally, five long names in Manipulation (every
# kind is measured in English by test_accessibility.py).
WORDY_SHEETS = ["skat-4", "pitch", "pitch-over", "manipulation-5"]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", WORDY_SHEETS)
def test_every_kind_of_sheet_fits_a_phone_in_each_language(live_server, phone_page, language, key):
    sheet = make_sheet(key)
    phone_page.goto(f"{live_server.url}/{language}/s/{sheet.edit_token}/")
    fits(phone_page, f"{language} {key}")
    phone_page.emulate_media(color_scheme="dark")
    screenshot(phone_page, f"lang-{language}-sheet-{key}-dark")


def test_the_switch_takes_the_reader_to_the_same_page_and_is_remembered(live_server, phone_page):
    phone_page.goto(f"{live_server.url}/en/rules/skat/")
    phone_page.get_by_role("button", name="Deutsch").click()
    expect(phone_page).to_have_url(re.compile(r"/de/rules/skat/$"))
    assert phone_page.locator("html").get_attribute("lang") == "de"
    phone_page.goto(f"{live_server.url}/")
    expect(phone_page).to_have_url(re.compile(r"/de/$"))
    phone_page.get_by_role("button", name="Esperanto").click()
    expect(phone_page).to_have_url(re.compile(r"/eo/$"))
    screenshot(phone_page, "lang-eo-home")
