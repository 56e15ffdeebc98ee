"""A short game of 10-Point Pitch on the score sheet, played through the browser.

Four friends, Ann and Cat (team A) against Ben and Dan (team B), play to 21 instead
of 52 so that four deals finish the game. Every total below is worked out by hand
from the rules: the pitcher's opponents always score what they took; the pitching
team scores what it took when it made its bid and loses the bid when it is set.
"""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.support import (
    expect_totals,
    let_time_pass,
    mark_page,
    not_reloaded,
    overflow,
    sheet_picture,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("Ann", "Ben", "Cat", "Dan")
LIVE_UPDATE_MS = 6_000


# -- what a player does -----------------------------------------------------------------


def _start_sheet(page, live_server) -> None:
    """Home → new sheet → Pitch, four names, Ben deals first, game to 21, redeal on four passes."""
    page.goto(live_server.url + "/en/")
    page.get_by_role("link", name="Start a score sheet").click()
    page.get_by_role("link", name=re.compile("10-Point Pitch")).click()
    page.wait_for_url("**/new/pitch/")
    for seat, name in enumerate(PLAYERS):
        page.locator(f"input[name=player_{seat}]").fill(name)
    page.get_by_role("group", name="Who deals first?").get_by_text("Ben", exact=True).click()
    page.get_by_label("Points to win").fill("21")
    page.locator(".option", has_text="When the first three pass").get_by_text("Deal again").click()
    sheet_picture(page, f"sheet-pitch-new-{page.color_scheme}")
    page.get_by_role("button", name="Start the sheet").click()
    page.wait_for_url("**/s/*/")


def _enter(page, *, pitcher: str, bid: str, points: dict[str, str]) -> None:
    """Tap the pitcher, the bid and, for each point card, the team that took it (or Out)."""
    page.get_by_role("group", name="Who pitched?").locator("label", has_text=pitcher).click()
    page.get_by_role("group", name="Bid", exact=True).get_by_text(bid, exact=True).click()
    for card, team in points.items():
        page.get_by_role("radiogroup", name=card, exact=True).get_by_text(team, exact=True).click()


def _save(page, number: int) -> None:
    page.get_by_role("button", name=f"Save deal {number}").click()


# The first three deals, as the table played them.
DEAL_1 = {  # dealer Ben; Ann pitches 5 for team A
    "Ace": "A",
    "Jack": "A",
    "Off-jack": "B",
    "High joker": "B",
    "Low joker": "Out",
    "Ten": "B",
    "Two": "A",
    "Three": "A",
}
DEAL_2 = {  # dealer Cat; Ben pitches for team B and takes only 3 points
    "Ace": "B",
    "Jack": "B",
    "Off-jack": "A",
    "High joker": "A",
    "Low joker": "A",
    "Ten": "B",
    "Two": "A",
    "Three": "A",
}
DEAL_3_WITHOUT_TWO = {  # dealer Dan; Cat pitches 6 for team A
    "Ace": "A",
    "Jack": "A",
    "Off-jack": "B",
    "High joker": "B",
    "Low joker": "B",
    "Ten": "A",
    "Three": "A",
}
DEAL_4 = {  # dealer Ann; Dan pitches 4 for team B
    "Ace": "B",
    "Jack": "A",
    "Off-jack": "A",
    "High joker": "A",
    "Low joker": "A",
    "Ten": "A",
    "Two": "A",
    "Three": "B",
}


def test_a_short_game_of_pitch_on_a_phone(live_server, phone, browser):
    _start_sheet(phone, live_server)
    expect(phone.get_by_role("heading", name="Deal 1")).to_be_visible()
    # Seat 2 deals first, and the deal passes to the left after every deal.
    expect(phone.locator(".dealer")).to_have_text("Ben deals")
    rules = phone.locator(".sheet-rules")
    expect(rules).to_contain_text("Game to 21")
    expect(rules).to_contain_text("If all four pass, the cards are dealt again")
    # With the redeal house rule a hand where all four pass is not entered at all.
    expect(phone.locator(".entry .note")).to_have_text(
        "If all four pass, Ben deals again; enter nothing for that deal."
    )
    expect_totals(phone, 0, 0)
    mark_page(phone)

    # Deal 1. Made bid: team A bid 5 and took ace, jack, two and three (1+1+1+3 = 6), so
    # it scores the 6 it took; team B always scores its off-jack, high joker and ten (3).
    # The low joker was out of play and scores for nobody.
    _enter(phone, pitcher="Ann", bid="5", points=DEAL_1)
    preview = phone.locator("#preview")
    expect(preview.locator(".preview-summary")).to_have_text(
        "Ann bid 5 for team A: made, A +6, B +3"
    )
    expect(preview).to_contain_text("The low joker was out of play")
    sheet_picture(phone, f"sheet-pitch-entry-{phone.color_scheme}")
    _save(phone, 1)
    expect_totals(phone, 6, 3)
    expect(phone.get_by_role("heading", name="Deal 2")).to_be_visible()
    expect(phone.locator(".dealer")).to_have_text("Cat deals")
    assert not_reloaded(phone)

    # Deal 2. Set bid: team B bid 7 but took only ace, jack and ten (3), so it loses its
    # bid, −7; team A scores the 7 it took: 6 + 7 = 13 and 3 − 7 = −4.
    _enter(phone, pitcher="Ben", bid="7", points=DEAL_2)
    expect(preview.locator(".preview-summary")).to_have_text(
        "Ben bid 7 for team B: set, B −7, A +7"
    )
    _save(phone, 2)
    expect_totals(phone, 13, -4)
    assert not_reloaded(phone)

    # A wrong input: the bid was not tapped. The two is left untouched, so it counts for
    # the pitcher's team as every card the table does not mark otherwise ("change only
    # what differs"). The preview says what is missing, and saving keeps everything as it
    # was, the message beside the bid.
    phone.get_by_role("group", name="Who pitched?").locator("label", has_text="Cat").click()
    for card, team in DEAL_3_WITHOUT_TWO.items():
        phone.get_by_role("radiogroup", name=card, exact=True).get_by_text(team, exact=True).click()
    expect(preview.locator(".preview-errors")).to_contain_text("Bid is missing.")
    _save(phone, 3)
    errors = phone.locator("#form-errors")
    expect(errors).to_contain_text("One thing to fix: nothing was saved.")
    next_to_bid = phone.get_by_role("group", name="Bid", exact=True).locator(".field-error")
    expect(next_to_bid).to_have_text("Bid is missing. Tap the bid that won.")
    expect_totals(phone, 13, -4)
    expect(phone.get_by_role("heading", name="Deal 3")).to_be_visible()
    expect(phone.locator(".deal")).to_have_count(2)
    sheet_picture(phone, f"sheet-pitch-error-{phone.color_scheme}")
    assert not_reloaded(phone)

    # The form kept what was tapped, the two with team A; only the bid is missing. Team A
    # took 7 of its bid of 6: made, +7 → 20; team B took off-jack and both jokers: +3 → −1.
    expect(
        phone.get_by_role("radiogroup", name="Two", exact=True).locator("input[value=A]")
    ).to_be_checked()
    phone.get_by_role("group", name="Bid", exact=True).get_by_text("6", exact=True).click()
    expect(preview.locator(".preview-summary")).to_have_text(
        "Cat bid 6 for team A: made, A +7, B +3"
    )
    _save(phone, 3)
    expect_totals(phone, 20, -1)
    expect(phone.locator("#form-errors")).to_have_count(0)
    assert not_reloaded(phone)
    sheet_picture(phone, f"sheet-pitch-deals-{phone.color_scheme}")

    # A correction: Ben's bid in deal 2 was really 4. Still set (3 < 4), but the set costs
    # only 4, so deal 2 leaves B at 3 − 4 = −1 and deal 3 re-scores to −1 + 3 = 2; team A
    # took the same points, so its totals stay 13 and 20.
    phone.locator("#deal-2 summary").click()
    phone.get_by_role("link", name="Correct deal 2").click()
    phone.wait_for_url("**/deals/2/")
    assert overflow(phone) <= 0
    expect(phone.get_by_role("heading", name="Correct deal 2")).to_be_visible()
    phone.get_by_role("group", name="Bid", exact=True).get_by_text("4", exact=True).click()
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Ben bid 4 for team B: set, B −4, A +7"
    )
    phone.get_by_role("button", name="Save the correction").click()
    phone.wait_for_url("**/s/*/#deal-2")
    expect_totals(phone, 20, 2)
    deal_2_cells = phone.locator("#deal-2 .cell .change")
    expect(deal_2_cells).to_have_text(["+7", "−4"])
    expect(phone.locator("#deal-3 .cell .running")).to_have_text(["20", "2"])

    # Undo the last deal with one tap, then bring it back.
    mark_page(phone)
    phone.get_by_role("button", name="Undo deal 3").click()
    expect_totals(phone, 13, -1)
    expect(phone.get_by_role("heading", name="Deal 3")).to_be_visible()
    phone.get_by_role("button", name="Bring back deal 3").click()
    expect_totals(phone, 20, 2)
    expect(phone.get_by_role("heading", name="Deal 4")).to_be_visible()
    assert not_reloaded(phone)

    # The read-only link, open on another phone at the table.
    view_url = phone.locator(".share .link a").first.get_attribute("href")
    other = browser.new_context(viewport=PHONE, color_scheme=phone.color_scheme)
    try:
        viewer = other.new_page()
        # It polls every 3 s; the test lets those seconds pass on its clock.
        viewer.clock.install()
        viewer.goto(view_url)
        assert overflow(viewer) <= 0
        expect_totals(viewer, 20, 2)
        expect(viewer.get_by_role("button", name=re.compile("Save"))).to_have_count(0)

        # Deal 4: Dan pitches 4 for team B and takes ace and three (4): made, +4 → 6.
        # Team A takes the other six points: 20 + 6 = 26, past 21, so team A wins
        # although it did not pitch; only one team reached the target.
        _enter(phone, pitcher="Dan", bid="4", points=DEAL_4)
        expect(preview.locator(".preview-summary")).to_have_text(
            "Dan bid 4 for team B: made, B +4, A +6; team A wins"
        )
        _save(phone, 4)
        expect_totals(phone, 26, 6)
        expect(phone.get_by_role("heading", name="Game over")).to_be_visible()
        expect(phone.locator(".finished")).to_contain_text("Winners: Ann and Cat.")
        expect(phone.locator(".entry")).to_have_count(0)
        assert not_reloaded(phone)

        # The other phone polls every few seconds and shows the new totals by itself.
        let_time_pass(viewer, 3)
        expect_totals(viewer, 26, 6, timeout=LIVE_UPDATE_MS)
        expect(viewer.get_by_role("heading", name="Game over")).to_be_visible()
    finally:
        other.close()


def test_a_pitch_sheet_on_a_desktop(live_server, desktop):
    desktop.goto(live_server.url + "/en/new/pitch/")
    for seat, name in enumerate(PLAYERS):
        desktop.locator(f"input[name=player_{seat}]").fill(name)
    desktop.get_by_role("button", name="Start the sheet").click()
    desktop.wait_for_url("**/s/*/")
    # Default target 52. Ann pitches 5 and takes 6: made, +6; team B scores its 3.
    _enter(desktop, pitcher="Ann", bid="5", points=DEAL_1)
    expect(desktop.locator("#preview .preview-summary")).to_have_text(
        "Ann bid 5 for team A: made, A +6, B +3"
    )
    _save(desktop, 1)
    expect_totals(desktop, 6, 3)
    sheet_picture(desktop, "sheet-pitch-desktop")
