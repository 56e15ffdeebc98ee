"""A short Skat series on the score sheet, played through the browser.

Ali, Bea and Cleo keep a list of six deals with Kontra and Re allowed. Every total
below is worked out by hand from the rules: a suit or Grand game is worth its base
value (♦ 9, ♥ 10, ♠ 11, ♣ 12, Grand 24) times its levels (matadors + 1 for the game,
+1 for schneider …); Null has a fixed value (23); a won game adds its value to the
declarer's list, a lost one takes off twice the value, and Kontra doubles the score.
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
    shown,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("Ali", "Bea", "Cleo")
LIVE_UPDATE_MS = 6_000

# Deal 1: the cards of Bea's four tricks and the two skat cards, as tapped.
# A♣ 10♣ K♣ A♠ 10♠ K♠ A♥ 10♥ J♣ J♠ 7♦ 8♦: 11+10+4 + 11+10+4 + 11+10 + 2+2 + 0+0 = 75.
TRICK_CARDS = ["AC", "10C", "KC", "AS", "10S", "KS", "AH", "10H", "JC", "JS", "7D", "8D"]
# Q♦ 9♥: 3 + 0 = 3.
SKAT = ["QD", "9H"]


# -- what a player does -----------------------------------------------------------------


def _start_sheet(page, live_server) -> None:
    """Home → new sheet → Skat, three names, Ali deals first, Kontra and Re, six deals."""
    page.goto(live_server.url + "/en/")
    page.get_by_role("link", name="Start a score sheet").click()
    page.get_by_role("link", name=re.compile("Skat")).click()
    page.wait_for_url("**/new/skat/")
    for seat, name in enumerate(PLAYERS):
        page.locator(f"input[name=player_{seat}]").fill(name)
    page.get_by_role("group", name="Who deals first?").get_by_text("Ali", exact=True).click()
    page.get_by_text("Kontra and Re", exact=True).click()
    page.get_by_label("Deals in the series").fill("6")
    sheet_picture(page, f"sheet-skat-new-{page.color_scheme}")
    page.get_by_role("button", name="Start the sheet").click()
    page.wait_for_url("**/s/*/")


def _part(page, legend: str):
    """One part of the entry form, found by its heading the way a player reads it."""
    return page.get_by_role("group", name=legend, exact=True)


def _declare(page, *, declarer: str, game: str, bid: str) -> None:
    _part(page, "Declarer").get_by_text(declarer, exact=True).click()
    _part(page, "Game").locator("label", has_text=game).click()
    _bid(page, bid)


def _bid(page, bid: str) -> None:
    """The bid: one tap on its chip, or from the full list under "Other bid…"."""
    chip = page.locator(f".bid-chips label:has(> input[value='{bid}'])")
    if chip.count():
        chip.click()
    else:
        page.locator(".bid-chips label.other-bid").click()
        page.locator("select[name=bid_other]").select_option(bid)


def _matadors(page, direction: str, count: int) -> None:
    matadors = _part(page, "Matadors")
    # One tap: the count in the row of its direction ("with 2", "against 1").
    matadors.locator(f".matador-{direction.lower()}").get_by_text(str(count), exact=True).click()


def _result(page, how: str, outcome: str | None = None) -> None:
    """The result in one tap ("One tap": the outcome chips, shown at once), or counted
    another way, chosen under "Count from the cards instead"."""
    result = _part(page, "Result")
    if how != "One tap":
        exact = result.locator("details.exact")
        if not exact.evaluate("d => d.open"):
            exact.locator("summary").click()
        exact.get_by_text(how, exact=True).click()
    if outcome is not None:
        result.locator(".outcome-grid").get_by_text(outcome, exact=True).click()


def _save(page, number: int) -> None:
    page.get_by_role("button", name=f"Save deal {number}").click()


def test_a_short_skat_series_on_a_phone(live_server, phone, browser):
    _start_sheet(phone, live_server)
    expect(phone.get_by_role("heading", name="Deal 1")).to_be_visible()
    # Seat 1 deals first; the player on the dealer's left is forehand.
    expect(phone.locator(".dealer")).to_have_text("Ali deals")
    rules = phone.locator(".sheet-rules")
    expect(rules).to_contain_text("Series of 6 deals")
    expect(rules).to_contain_text("Kontra and Re allowed")
    expect_totals(phone, 0, 0, 0)
    mark_page(phone)
    preview = phone.locator("#preview")

    # Deal 1: Bea plays Clubs with 2 after a bid of 18, and the table taps the cards of
    # her tricks and the skat. Card points: 75 in the tricks + 3 in the skat = 78, from
    # 61 to 89: won, not schneider. Value: (2 matadors + 1 for the game) × 12 = 36.
    _declare(phone, declarer="Bea", game="Clubs", bid="18")
    _matadors(phone, "With", 2)
    _result(phone, "Tap the tricks")
    tricks = phone.locator(".card-picker", has_text="Every card in the declarer’s tricks")
    for code in TRICK_CARDS:
        tricks.locator(f".card-face[data-code='{code}']").click()
    expect(tricks.locator("[data-sum]")).to_have_text("75")
    expect(tricks.locator("[data-count]")).to_have_text("12")
    skat = phone.locator(".card-picker", has_text="The two skat cards")
    for code in SKAT:
        skat.locator(f".card-face[data-code='{code}']").click()
    expect(skat.locator("[data-sum]")).to_have_text("3")
    expect(skat.locator("[data-count]")).to_have_text("2")
    expect(preview.locator(".preview-summary")).to_have_text("Bea: Clubs with 2, won, +36")
    expect(preview).to_contain_text("78 in all")
    sheet_picture(phone, f"sheet-skat-entry-{phone.color_scheme}")
    _save(phone, 1)
    expect_totals(phone, 0, 36, 0)
    expect(phone.get_by_role("heading", name="Deal 2")).to_be_visible()
    expect(phone.locator(".dealer")).to_have_text("Bea deals")
    assert not_reloaded(phone)

    # Deal 2: Cleo's Grand with 1 after 24, lost, and the defenders said Kontra.
    # Value (1 + 1) × 24 = 48; lost counts double, −96; Kontra doubles again: −192.
    _declare(phone, declarer="Cleo", game="Grand", bid="24")
    _matadors(phone, "With", 1)
    _result(phone, "One tap", "Lost")
    _part(phone, "Kontra and Re").get_by_text("Kontra", exact=True).click()
    expect(preview.locator(".preview-summary")).to_have_text(
        "Cleo: Grand with 1, lost, −192 (Kontra)"
    )
    _save(phone, 2)
    expect_totals(phone, 0, 36, -192)
    assert not_reloaded(phone)

    # A wrong input: Null is worth 23, so it cannot be played after a bid of 24.
    _declare(phone, declarer="Ali", game="Null", bid="24")
    # Null has no matadors and no announcement: those parts of the form step aside.
    expect(_part(phone, "Matadors")).to_be_hidden()
    _result(phone, "One tap", "Won")
    message = "You bid 24 but Null is worth 23; declare Null Ouvert (46)"
    expect(preview.locator(".preview-errors")).to_contain_text(message)
    _save(phone, 3)
    expect(phone.locator("#form-errors")).to_contain_text("One thing to fix: nothing was saved.")
    expect(_part(phone, "Bid").locator(".field-error")).to_contain_text(message)
    expect_totals(phone, 0, 36, -192)
    expect(phone.locator(".deal")).to_have_count(2)
    expect(phone.get_by_role("heading", name="Deal 3")).to_be_visible()
    sheet_picture(phone, f"sheet-skat-error-{phone.color_scheme}")
    assert not_reloaded(phone)

    # The bid was really 23: Ali's Null, won (no trick), is worth its fixed 23.
    _bid(phone, "23")
    expect(preview.locator(".preview-summary")).to_have_text("Ali: Null, won, +23")
    _save(phone, 3)
    expect_totals(phone, 23, 36, -192)
    expect(phone.locator("#form-errors")).to_have_count(0)
    assert not_reloaded(phone)
    sheet_picture(phone, f"sheet-skat-deals-{phone.color_scheme}")

    # A correction: nobody said Kontra in deal 2 after all. The lost Grand with 1 costs
    # −2 × 48 = −96 instead of −192.
    phone.locator("#deal-2 summary").click()
    phone.get_by_role("link", name="Correct deal 2").click()
    phone.wait_for_url("**/deals/2/")
    assert overflow(phone) <= 0
    kontra = _part(phone, "Kontra and Re").get_by_text("Kontra", exact=True)
    expect(phone.locator("input[name=kontra]")).to_be_checked()
    kontra.click()
    expect(phone.locator("#preview .preview-summary")).to_have_text("Cleo: Grand with 1, lost, −96")
    phone.get_by_role("button", name="Save the correction").click()
    phone.wait_for_url("**/s/*/#deal-2")
    expect_totals(phone, 23, 36, -96)
    expect(phone.locator("#deal-2 .cell .change")).to_have_text(["0", "0", "−96"])
    expect(phone.locator("#deal-3 .cell .running")).to_have_text(["23", "36", shown(-96)])

    # Undo the last deal with one tap, then bring it back.
    mark_page(phone)
    phone.get_by_role("button", name="Undo deal 3").click()
    expect_totals(phone, 0, 36, -96)
    phone.get_by_role("button", name="Bring back deal 3").click()
    expect_totals(phone, 23, 36, -96)
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
        expect_totals(viewer, 23, 36, -96)

        # Deal 4: Bea's Spades against 2 after 20, counted by hand: 95 card points in
        # 8 tricks. 90 or more makes the opponents schneider. Value: (2 + 1 for the
        # game + 1 for schneider) × 11 = 44, so Bea's list goes 36 → 80.
        _declare(phone, declarer="Bea", game="Spades", bid="20")
        _matadors(phone, "Against", 2)
        _result(phone, "Card points")
        phone.get_by_label("Declarer’s card points").press_sequentially("95")
        phone.get_by_label("Tricks taken").press_sequentially("8")
        expect(preview.locator(".preview-summary")).to_have_text(
            "Bea: Spades against 2, won schneider, +44"
        )
        _save(phone, 4)
        expect_totals(phone, 23, 80, -96)
        assert not_reloaded(phone)

        # The other phone polls every few seconds and shows the new totals by itself.
        let_time_pass(viewer, 3)
        expect_totals(viewer, 23, 80, -96, timeout=LIVE_UPDATE_MS)
    finally:
        other.close()


def test_a_skat_sheet_on_a_desktop(live_server, desktop):
    desktop.goto(live_server.url + "/en/new/skat/")
    for seat, name in enumerate(PLAYERS):
        desktop.locator(f"input[name=player_{seat}]").fill(name)
    desktop.get_by_role("button", name="Start the sheet").click()
    desktop.wait_for_url("**/s/*/")
    # Bea's Hearts with 1, won: (1 + 1) × 10 = 20.
    _declare(desktop, declarer="Bea", game="Hearts", bid="18")
    _matadors(desktop, "With", 1)
    _result(desktop, "One tap", "Won")
    expect(desktop.locator("#preview .preview-summary")).to_have_text(
        "Bea: Hearts with 1, won, +20"
    )
    _save(desktop, 1)
    expect_totals(desktop, 0, 20, 0)
    sheet_picture(desktop, "sheet-skat-desktop")


def test_a_four_figure_loss_fits_the_totals_of_four_players(live_server, browser):
    context = browser.new_context(viewport=PHONE, color_scheme="light", device_scale_factor=1)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/en/new/skat/")
        for seat, name in enumerate((*PLAYERS, "Dora")):
            page.locator(f"input[name=player_{seat}]").fill(name)
        page.get_by_text("Kontra and Re", exact=True).click()
        page.get_by_role("button", name="Start the sheet").click()
        page.wait_for_url("**/s/*/")
        # Ali deals and sits out. Bea's Grand Hand with 4 is lost after Kontra and Re:
        # (4 + 1 for the game + 1 for Hand) × 24 = 144; lost, −288; Re, ×4: −1152.
        _declare(page, declarer="Bea", game="Grand", bid="18")
        _part(page, "Game").get_by_text("Hand", exact=True).click()
        _matadors(page, "With", 4)
        _result(page, "One tap", "Lost")
        kontra_re = _part(page, "Kontra and Re")
        kontra_re.get_by_text("Kontra", exact=True).click()
        kontra_re.get_by_text("Re", exact=True).click()
        expect(page.locator("#preview .preview-summary")).to_have_text(
            "Bea: Grand Hand with 4, lost, −1152 (Kontra, Re)"
        )
        _save(page, 1)
        expect_totals(page, 0, -1152, 0, 0)
        sheet_picture(page, "sheet-skat-four-players-big-total")
        spilling = page.evaluate(
            """() => [...document.querySelectorAll('.total-points')]
                .filter(e => e.scrollWidth > e.clientWidth)
                .map(e => e.textContent.trim())"""
        )
        assert spilling == []
    finally:
        context.close()
