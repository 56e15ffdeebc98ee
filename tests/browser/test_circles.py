"""A circle's season, played through two phones.

Ana signs up, starts a circle and its season, and sends the invite link to Ben. Ben
signs up from the link, joins, and keeps a short Skat series of three deals in the
circle on his phone. Ana's standings page then ranks the series by Seeger-Fabian and
draws it. Last, a sheet started without an account is moved into the circle.

Seeger-Fabian (DSkV/ISPA): list points, +50 for every game won as declarer, −50 for
every game lost, and +40 to each other player at a table of three for every game a
declarer lost.
"""

import datetime
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.support import expect_totals, overflow, sheet_picture
from tests.browser.test_sheet_skat import _declare, _matadors, _result, _save

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "table-talk-7391"


def _sign_up(page, name: str) -> None:
    page.get_by_label("User name").fill(name)
    page.get_by_label("E-mail").fill(f"{name}@example.org")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)
    page.get_by_role("button", name="Make my account").click()


def _start_circle(page, live_server) -> str:
    page.goto(live_server.url + "/en/")
    page.get_by_role("link", name="Log in").click()
    page.get_by_role("link", name="Sign up").click()
    _sign_up(page, "ana")
    page.wait_for_url(live_server.url + "/en/")
    expect(page.get_by_role("heading", name="Your circles")).to_be_visible()
    page.get_by_role("link", name="New circle").click()
    page.get_by_label("Name of the circle").fill("Tuesday Skat")
    page.get_by_label("Your name at the table").fill("Ana")
    page.get_by_role("button", name="Create the circle").click()
    page.wait_for_url("**/circles/*/")
    expect(page.get_by_role("heading", name="Tuesday Skat")).to_be_visible()
    return page.url


def _start_season(page) -> None:
    today = datetime.date.today()
    page.get_by_role("link", name="New season").click()
    page.get_by_label("Name", exact=True).fill("Winter league")
    page.get_by_label("First day").fill((today - datetime.timedelta(days=30)).isoformat())
    page.get_by_label("Last day").fill((today + datetime.timedelta(days=60)).isoformat())
    page.get_by_label("Evenings planned").fill("12")
    page.get_by_role("button", name="Start the season").click()
    page.wait_for_url("**/seasons/*/")
    expect(page.get_by_text("No finished sheet counts in this season yet")).to_be_visible()
    assert overflow(page) <= 0


def _invite_link(page, circle_url: str) -> str:
    page.goto(circle_url)
    page.get_by_role("link", name=re.compile("Members and invite link")).click()
    return page.locator(".invite-link a").get_attribute("href")


def _play_series(page, live_server, invite: str) -> None:
    """Ben joins from the invite and keeps a series of three deals in the circle."""
    page.goto(invite)
    page.get_by_role("link", name="Sign up").click()
    _sign_up(page, "ben")
    page.get_by_role("button", name="Join the circle").click()
    # Which of the circle's players is he? Only Ana is there yet: he is a new one.
    expect(page.get_by_role("heading", name="Which player are you?")).to_be_visible()
    page.get_by_label("Your name at the table").fill("Ben")
    page.get_by_role("button", name="That is me").click()
    page.wait_for_url("**/circles/*/")
    expect(page.get_by_text("you are Ben on its sheets")).to_be_visible()
    page.get_by_role("link", name="Skat", exact=True).click()
    # Names from the circle are offered; "ana" typed in any case is the circle's Ana.
    for seat, name in enumerate(("ana", "Ben", "Cem")):
        page.locator(f"input[name=player_{seat}]").fill(name)
    page.get_by_label("Deals in the series").fill("3")
    page.get_by_role("button", name="Start the sheet").click()
    page.wait_for_url("**/s/*/")
    # Deal 1: Ben's Hearts with 1, won: (1 + 1) × 10 = 20.
    _declare(page, declarer="Ben", game="Hearts", bid="18")
    _matadors(page, "With", 1)
    _result(page, "One tap", "Won")
    _save(page, 1)
    expect_totals(page, 0, 20, 0)
    # Deal 2: Cem's Grand with 1, won: (1 + 1) × 24 = 48.
    _declare(page, declarer="Cem", game="Grand", bid="18")
    _matadors(page, "With", 1)
    _result(page, "One tap", "Won")
    _save(page, 2)
    expect_totals(page, 0, 20, 48)
    # Deal 3: Ana's Clubs with 1, lost: (1 + 1) × 12 = 24, lost counts double: −48.
    _declare(page, declarer="Ana", game="Clubs", bid="18")
    _matadors(page, "With", 1)
    _result(page, "One tap", "Lost")
    _save(page, 3)
    # The series is over: the big numbers are the Seeger-Fabian points that decide
    # (Ana −48 − 50 = −98, Ben 20 + 50 + 40 = 110, Cem 48 + 50 + 40 = 138), each
    # player's list points under them.
    expect_totals(page, -98, 110, 138)
    expect(page.locator(".total-second")).to_have_text(["List −48", "List 20", "List 48"])
    expect(page.locator(".sheet-keep")).to_contain_text("Kept in Tuesday Skat")


def test_a_season_kept_by_two_phones(live_server, phone, browser):
    circle_url = _start_circle(phone, live_server)
    _start_season(phone)
    season_url = phone.url
    invite = _invite_link(phone, circle_url)
    assert "/en/join/" in invite

    other = browser.new_context(viewport=PHONE, color_scheme=phone.color_scheme)
    try:
        _play_series(other.new_page(), live_server, invite)
    finally:
        other.close()

    # Ana's standings: Cem 48 + 50 + 40 = 138; Ben 20 + 50 + 40 = 110; Ana −48 − 50 = −98.
    phone.goto(season_url)
    rows = phone.locator("#standings-skat ~ .table-scroll tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0).locator("th")).to_have_text(re.compile(r"1\.\s+Cem"))
    expect(rows.nth(0).locator("td").first).to_have_text("138")
    expect(rows.nth(1).locator("td").first).to_have_text("110")
    expect(rows.nth(2).locator("td").first).to_have_text("−98")
    chart = phone.locator(".standings svg[role=img]")
    expect(chart).to_have_count(1)
    expect(chart.locator("title")).to_contain_text("Seeger-Fabian total after each evening")
    expect(phone.locator(".race")).to_contain_text("Cem leads")
    # Ten columns on a phone: a line says the table scrolls; the names stay in view
    # while it does; the legend says what the ranked value and the S-F columns hold.
    skat = phone.locator(".standings.game-skat")
    expect(skat.locator(".scroll-hint")).to_be_visible()
    scroller = skat.locator(".standings-scroll")
    name = rows.nth(0).locator("th")
    left = name.bounding_box()["x"]
    scroller.evaluate("box => { box.scrollLeft = box.scrollWidth; }")
    assert scroller.evaluate("box => box.scrollLeft") > 0
    assert name.bounding_box()["x"] == left
    expect(skat.locator(".legend")).to_contain_text("as played: not scaled")
    scroller.evaluate("box => { box.scrollLeft = 0; }")
    sheet_picture(phone, f"circle-standings-{phone.color_scheme}")

    # A sheet started without an account, then kept in the circle.
    anonymous = browser.new_context(viewport=PHONE, color_scheme=phone.color_scheme)
    try:
        page = anonymous.new_page()
        page.goto(live_server.url + "/en/new/manipulation/")
        for seat, name in enumerate(("Ana", "Ben", "Dora")):
            page.locator(f"input[name=player_{seat}]").fill(name)
        page.get_by_role("button", name="Start the sheet").click()
        page.wait_for_url("**/s/*/")
        sheet_url = page.url
    finally:
        anonymous.close()
    phone.goto(sheet_url)
    phone.get_by_role("link", name=re.compile("Keep it in a circle")).click()
    phone.get_by_role("button", name="Keep it there").click()
    phone.wait_for_url(circle_url)
    expect(phone.locator(".sheet-list")).to_contain_text("Ana, Ben, Dora")
    phone.get_by_role("link", name=re.compile("Players")).click()
    # Dora is new to the circle; Ana and Ben are the players they already were.
    expect(phone.locator(".tool-list strong")).to_have_text(["Ana", "Ben", "Cem", "Dora"])
    assert overflow(phone) <= 0


def test_a_players_history_fits_a_phone_in_each_language(live_server, phone):
    """A player of a long season: the history's four columns (day, game, place, score)
    fit a phone's width in every language without scrolling sideways, a page at a
    time, the next page one tap away."""
    from circles.models import Player
    from circles.season_factory import build_season
    from circles.views import HISTORY_A_PAGE
    from tests.browser.test_languages import _signed_in

    season, user = build_season(120, seed=3)
    ana = Player.objects.get(circle=season.circle, name="Ana")
    _signed_in(phone, live_server, user)
    path = ana.get_absolute_url().split("/", 2)[2]  # without the language prefix
    for language, heading, earlier in (
        ("en", "History", "Earlier sheets"),
        ("de", "Verlauf", "Frühere Listen"),
        ("eo", "Historio", "Pli fruaj poentolistoj"),
    ):
        phone.goto(f"{live_server.url}/{language}/{path}")
        history = phone.locator(".history-table")
        expect(phone.get_by_role("heading", name=heading)).to_be_visible()
        box = history.locator("xpath=..")
        assert box.evaluate("el => el.scrollWidth - el.clientWidth") <= 0, language
        assert overflow(phone) <= 0, language
        # Manipulation (the longest game's name) and a day of two digits are among them.
        assert history.locator("tbody tr").count() == HISTORY_A_PAGE
        phone.get_by_role("link", name=earlier).click()
        expect(phone.locator(".pager-where")).to_contain_text("2")
        assert box.evaluate("el => el.scrollWidth - el.clientWidth") <= 0, language
