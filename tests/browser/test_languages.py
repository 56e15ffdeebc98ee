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


def _signed_in(page, live_server, user) -> None:
    """The browser carries the session of ``user`` (logged in as by the log-in form)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME]
    page.context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie.value, "url": live_server.url}]
    )


def _owner_with_season():
    import datetime

    from django.contrib.auth.models import User

    from circles import services

    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = services.circle_create(owner=owner, name="Dienstagsrunde", player_name="Olga")
    season = services.season_save(
        circle=circle,
        data={
            "name": "Herbst",
            "starts_on": datetime.date(2026, 9, 1),
            "ends_on": datetime.date(2026, 12, 31),
        },
    )
    return owner, circle, season


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["de", "eo", "en"])
def test_a_seasons_dates_stay_in_its_date_inputs_and_save(live_server, phone_page, language):
    # German once sent value="01.09.2026", which a date input drops: both fields were
    # empty and every save failed.
    owner, circle, season = _owner_with_season()
    _signed_in(phone_page, live_server, owner)
    phone_page.goto(f"{live_server.url}/{language}/circles/{circle.pk}/seasons/{season.pk}/edit/")
    assert phone_page.locator("input[name=starts_on]").input_value() == "2026-09-01"
    assert phone_page.locator("input[name=ends_on]").input_value() == "2026-12-31"
    screenshot(phone_page, f"lang-{language}-season-edit")
    phone_page.locator("form.sheet-form button[type=submit]").last.click()
    expect(phone_page).to_have_url(re.compile(rf"/{language}/circles/{circle.pk}/seasons/"))
    assert phone_page.locator(".error-box, .field-error").count() == 0
    season.refresh_from_db()
    assert (season.starts_on.isoformat(), season.ends_on.isoformat()) == (
        "2026-09-01",
        "2026-12-31",
    )


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["en", "de", "eo"])
def test_the_top_bar_is_one_row_on_a_phone_in_each_language(live_server, phone_page, language):
    # Esperanto's links ("Nova listo", "Arbitro", "Reguloj", "Ludrondoj") wrapped to a
    # second row (about 90 px) at 390 px. One row: the tap height and its padding.
    def one_row(name: str) -> None:
        bar = phone_page.locator(".topbar").bounding_box()
        links = phone_page.locator(".topbar nav a")
        tops = {round(links.nth(i).bounding_box()["y"]) for i in range(links.count())}
        assert len(tops) == 1, f"{name}: the links wrap to {len(tops)} rows"
        assert bar["height"] <= 56, f"{name}: the bar is {bar['height']} px high"

    phone_page.goto(f"{live_server.url}/{language}/")
    one_row(f"{language}, logged out")
    owner, _, _ = _owner_with_season()
    _signed_in(phone_page, live_server, owner)
    for path in ("/", "/mine/", "/rules/"):
        phone_page.goto(f"{live_server.url}/{language}{path}")
        one_row(f"{language}{path}, logged in")
    screenshot(phone_page, f"lang-{language}-topbar")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("language", ["de", "eo"])
def test_a_players_page_with_a_biggest_game_fits_a_phone(live_server, phone_page, language):
    # "Höchstes Spiel: Grand, 48, Spiel 1 am 1. Dezember 2026" pushed the page sideways.
    from circles import services
    from circles.models import Player
    from games import services as sheet_services

    owner, circle, _ = _owner_with_season()
    sheet = services.sheet_create_in_circle(
        circle=circle,
        game="skat",
        players=["Olga", "Max", "Rita"],
        options={"series_deals": 1},
        owner=owner,
    )
    won = {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
    sheet_services.hand_record(sheet=sheet, data=won)
    olga = Player.objects.get(circle=circle, name="Olga")
    _signed_in(phone_page, live_server, owner)
    phone_page.goto(f"{live_server.url}/{language}/circles/{circle.pk}/players/{olga.pk}/")
    expect(phone_page.locator(".facts")).to_contain_text("Grand")
    fits(phone_page, f"{language} player page")
    screenshot(phone_page, f"lang-{language}-player")
