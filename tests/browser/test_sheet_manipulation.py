"""A short game of Manipulation on the score sheet, played through the browser.

Ana, Ben and Cem play to 200 penalty points. Every total below is worked out by hand
from the rules: the player who went out scores 0; every card left in a hand costs
its penalty (ace 15; K, Q, J and 10 count 10; 2 to 9 count 5), and the totals add up
round after round until someone reaches the target; the lowest total wins.
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

PLAYERS = ("Ana", "Ben", "Cem")
LIVE_UPDATE_MS = 6_000


# -- what a player does -----------------------------------------------------------------


def _start_sheet(page, live_server) -> None:
    """Home → new sheet → Manipulation, three names, Cem deals first, the ace high or low."""
    page.goto(live_server.url + "/en/")
    page.get_by_role("link", name="Start a score sheet").click()
    page.get_by_role("link", name=re.compile("Manipulation")).click()
    page.wait_for_url("**/new/manipulation/")
    for seat, name in enumerate(PLAYERS):
        page.locator(f"input[name=player_{seat}]").fill(name)
    page.get_by_role("group", name="Who deals first?").get_by_text("Cem", exact=True).click()
    page.locator(".option", has_text="The ace").get_by_text("High or low: A-2-3 too").click()
    page.locator(".option", has_text="When the stock is empty").get_by_text(
        "The round ends when the player to move cannot meld"
    ).click()
    sheet_picture(page, f"sheet-manipulation-new-{page.color_scheme}")
    page.get_by_role("button", name="Start the sheet").click()
    page.wait_for_url("**/s/*/")


def _went_out(page, name: str) -> None:
    page.get_by_role("group", name="Who went out?").locator("label", has_text=name).click()


def _type_penalties(page, penalties: dict[str, int]) -> None:
    """Type each penalty the way a thumb does, so the preview follows the keys."""
    page.get_by_text("Type the penalty", exact=True).click()
    for name, points in penalties.items():
        field = page.locator(".penalty-field", has_text=name).locator("input")
        field.fill("")
        field.press_sequentially(str(points))


def _picker(page, name: str):
    """Open a player's cards and return their card picker."""
    hand = page.locator("details.hand-cards", has_text=f"{name}’s cards")
    if not hand.evaluate("d => d.open"):
        hand.locator("summary").click()
    return hand.locator(".card-picker")


def _tap_cards(picker, codes: list[str]) -> None:
    """Tap each card face once per copy held: the second tap on a face means two copies."""
    for code in codes:
        picker.locator(f".card-face[data-code='{code}']").click()


def _save(page, number: int) -> None:
    page.get_by_role("button", name=f"Save round {number}").click()


def test_a_short_game_of_manipulation_on_a_phone(live_server, phone, browser):
    _start_sheet(phone, live_server)
    expect(phone.get_by_role("heading", name="Round 1")).to_be_visible()
    # Seat 3 deals first; play starts on the dealer's left.
    expect(phone.locator(".dealer")).to_have_text("Cem deals")
    rules = phone.locator(".sheet-rules")
    expect(rules).to_contain_text("Game to 200 penalty points; the lowest total wins")
    expect(rules).to_contain_text("The ace is high or low")
    expect(rules).to_contain_text("the round ends as soon as the player to move cannot meld")
    expect_totals(phone, 0, 0, 0)
    mark_page(phone)
    preview = phone.locator("#preview")

    # Round 1, typed: Ana went out and scores 0; Ben and Cem counted 35 and 60.
    _went_out(phone, "Ana")
    _type_penalties(phone, {"Ben": 35, "Cem": 60})
    expect(preview.locator(".preview-summary")).to_have_text("Ana went out; Ben +35, Cem +60")
    _save(phone, 1)
    expect_totals(phone, 0, 35, 60)
    expect(phone.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(phone.locator(".dealer")).to_have_text("Ana deals")
    assert not_reloaded(phone)

    # A penalty that cannot be: every card costs 5, 10 or 15, so 12 is impossible.
    _went_out(phone, "Ben")
    _type_penalties(phone, {"Ana": 12, "Cem": 20})
    message = (
        "Ana's penalty of 12 cannot be right: every card costs 5, 10 or 15, so penalties "
        "are multiples of 5."
    )
    expect(preview.locator(".preview-errors")).to_contain_text(message)
    _save(phone, 2)
    expect(phone.locator("#form-errors")).to_contain_text("One thing to fix: nothing was saved.")
    # The message stands in the part of the form where the penalties are typed.
    penalties_part = phone.get_by_role("group", name="Cards left in the other hands")
    expect(penalties_part.locator(".field-error")).to_have_text(message)
    expect_totals(phone, 0, 35, 60)
    expect(phone.locator(".deal")).to_have_count(1)
    expect(phone.get_by_role("heading", name="Round 2")).to_be_visible()
    sheet_picture(phone, f"sheet-manipulation-error-{phone.color_scheme}")
    assert not_reloaded(phone)

    # Round 2, by tapping the cards left: Cem went out. Two decks hold two kings of
    # spades: tapping that face twice counts both, 10 + 10. Ana: K♠ K♠ 7♥ A♦ =
    # 10 + 10 + 5 + 15 = 40 in 4 cards; Ben: 10♣ 2♠ = 10 + 5 = 15 in 2 cards.
    _went_out(phone, "Cem")
    phone.get_by_text("Tap the cards", exact=True).click()
    ana = _picker(phone, "Ana")
    _tap_cards(ana, ["KS", "KS", "7H", "AD"])
    king = ana.locator(".card-face[data-code='KS']")
    expect(king).to_have_attribute("data-held", "2")
    expect(king.locator(".held-badge")).to_be_visible()
    expect(king.locator(".held-badge")).to_have_text("×2")
    expect(ana.locator("[data-sum]")).to_have_text("40")
    expect(ana.locator("[data-count]")).to_have_text("4")
    ben = _picker(phone, "Ben")
    _tap_cards(ben, ["10C", "2S"])
    expect(ben.locator("[data-sum]")).to_have_text("15")
    expect(ben.locator("[data-count]")).to_have_text("2")
    # A third tap takes the second copy away again, a fourth puts one back (0 → 1 → 2 → 0).
    _tap_cards(ana, ["KS"])
    expect(ana.locator("[data-count]")).to_have_text("2")
    expect(ana.locator("[data-sum]")).to_have_text("20")
    _tap_cards(ana, ["KS", "KS"])
    expect(ana.locator("[data-sum]")).to_have_text("40")
    expect(preview.locator(".preview-summary")).to_have_text("Cem went out; Ana +40, Ben +15")
    sheet_picture(phone, f"sheet-manipulation-entry-{phone.color_scheme}")
    _save(phone, 2)
    expect_totals(phone, 40, 50, 60)
    expect(phone.locator("#form-errors")).to_have_count(0)
    assert not_reloaded(phone)

    # Round 3, typed: Ben went out; Ana 25 → 65, Cem 100 → 160.
    _went_out(phone, "Ben")
    _type_penalties(phone, {"Ana": 25, "Cem": 100})
    expect(preview.locator(".preview-summary")).to_have_text("Ben went out; Ana +25, Cem +100")
    _save(phone, 3)
    expect_totals(phone, 65, 50, 160)
    sheet_picture(phone, f"sheet-manipulation-deals-{phone.color_scheme}")

    # A correction: Cem's cards in round 1 came to 65, not 60. Every later total of Cem
    # moves up by 5: 65, 65 after round 2, 165 after round 3.
    phone.locator("#deal-1 summary").click()
    phone.get_by_role("link", name="Correct round 1").click()
    phone.wait_for_url("**/deals/1/")
    assert overflow(phone) <= 0
    cem = phone.locator(".penalty-field", has_text="Cem").locator("input")
    expect(cem).to_have_value("60")
    cem.fill("")
    cem.press_sequentially("65")
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Ana went out; Ben +35, Cem +65"
    )
    phone.get_by_role("button", name="Save the correction").click()
    phone.wait_for_url("**/s/*/#deal-1")
    expect_totals(phone, 65, 50, 165)
    expect(phone.locator("#deal-1 .cell .running")).to_have_text(["0", "35", "65"])
    expect(phone.locator("#deal-2 .cell .running")).to_have_text(["40", "50", "65"])

    # Undo the last round with one tap, then bring it back.
    mark_page(phone)
    phone.get_by_role("button", name="Undo round 3").click()
    expect_totals(phone, 40, 50, 65)
    phone.get_by_role("button", name="Bring back round 3").click()
    expect_totals(phone, 65, 50, 165)
    expect(phone.get_by_role("heading", name="Round 4")).to_be_visible()
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
        expect_totals(viewer, 65, 50, 165)

        # Round 4: Ana went out; Ben 20 → 70, Cem 40 → 205. Cem reached 200, so the
        # game ends after this round and the lowest total, Ana's 65, wins.
        _went_out(phone, "Ana")
        _type_penalties(phone, {"Ben": 20, "Cem": 40})
        expect(preview.locator(".preview-summary")).to_have_text(
            "Ana went out; Ben +20, Cem +40; Ana wins"
        )
        _save(phone, 4)
        expect_totals(phone, 65, 70, 205)
        expect(phone.locator(".headline")).to_have_text(
            "Game over after 4 rounds · Cem reached 205 · Ana wins with 65"
        )
        expect(phone.locator(".finished")).to_contain_text("Ana wins.")
        assert not_reloaded(phone)

        # The other phone polls every few seconds and shows the new totals by itself.
        let_time_pass(viewer, 3)
        expect_totals(viewer, 65, 70, 205, timeout=LIVE_UPDATE_MS)
        expect(viewer.get_by_role("heading", name="Game over")).to_be_visible()
    finally:
        other.close()


def test_a_manipulation_sheet_on_a_desktop(live_server, desktop):
    desktop.goto(live_server.url + "/en/new/manipulation/")
    for seat, name in enumerate(PLAYERS):
        desktop.locator(f"input[name=player_{seat}]").fill(name)
    desktop.get_by_role("button", name="Start the sheet").click()
    desktop.wait_for_url("**/s/*/")
    # Ben went out; Ana holds A♣ and Q♥ (15 + 10), Cem holds 5♦ (5).
    _went_out(desktop, "Ben")
    desktop.get_by_text("Tap the cards", exact=True).click()
    _tap_cards(_picker(desktop, "Ana"), ["AC", "QH"])
    _tap_cards(_picker(desktop, "Cem"), ["5D"])
    expect(desktop.locator("#preview .preview-summary")).to_have_text(
        "Ben went out; Ana +25, Cem +5"
    )
    _save(desktop, 1)
    expect_totals(desktop, 25, 0, 5)
    sheet_picture(desktop, "sheet-manipulation-desktop")
