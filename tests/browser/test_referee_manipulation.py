"""The Manipulation referee pages at phone size, light and dark: melds, a turn and "can
all these go down?", each with a wrong input and its message first, then an answer."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.support import overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _small_tap_targets(page) -> list[str]:
    """Links, buttons and choices a thumb needs that are under 44 px tall."""
    return page.evaluate(
        """() => [...document.querySelectorAll('a, button, summary, .segmented span')]
            .filter(e => e.offsetParent !== null && e.getBoundingClientRect().right > 0 && !e.closest('p, td, .explanation'))
            .filter(e => e.getBoundingClientRect().height < 44)
            .map(e => e.outerHTML.slice(0, 80))"""
    )


def _picture(page, name: str) -> None:
    assert overflow(page) <= 0
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"{name}-{page.color_scheme}")


def _tap(page, picker: str, *codes: str) -> None:
    for code in codes:
        page.locator(
            f'.card-picker:has(input[name={picker}]) .card-face[data-code="{code}"]'
        ).click()


def test_meld_checker_names_the_bad_line_then_judges_every_meld(live_server, phone):
    phone.goto(live_server.url + "/en/referee/manipulation/melds/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Are these melds valid?")
    assert _small_tap_targets(phone) == []

    melds = phone.get_by_label("Melds, one per line")
    melds.fill("7H 8H 9H\nQS, QH, QD\nZZ 3C 5C")
    phone.get_by_role("button", name="Check the melds").click()
    message = 'Line 3: "ZZ" is not a card.'
    expect(phone.locator("#tool .field-error")).to_contain_text(message)
    expect(phone.locator("#problems")).to_contain_text(message)
    expect(melds).to_have_value("7H 8H 9H\nQS, QH, QD\nZZ 3C 5C")
    _picture(phone, "referee-manipulation-melds-wrong")

    # A sequence has no gaps: 2♣ 3♣ 5♣ lacks the 4♣.
    melds.fill("7H 8H 9H\nQS, QH, QD\n2C 3C 5C")
    phone.get_by_role("button", name="Check the melds").click()
    expect(phone.locator("#verdict-heading")).to_have_text("1 of 3 melds is not valid")
    expect(phone.locator(".meld-kind")).to_have_text(["✓ Sequence", "✓ Group", "✗ Not a meld"])
    expect(phone.locator(".meld.is-invalid .meld-reason")).to_have_text(
        "2♣ 3♣ 5♣: the 4♣ is missing between 3♣ and 5♣."
    )
    expect(phone).to_have_url(re.compile(r"melds=7H"))
    expect(phone.locator(".verdict .explanation a.rule-link").first).to_have_attribute(
        "href", "/en/rules/manipulation/#manipulation-sequences"
    )
    _picture(phone, "referee-manipulation-melds")


def test_turn_checker_reads_both_tables_and_the_hand(live_server, phone):
    phone.goto(live_server.url + "/en/referee/manipulation/turn/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Was that turn legal?")
    assert _small_tap_targets(phone) == []

    phone.get_by_label("Before the turn").fill("7H 8H 9H")
    phone.get_by_label("After the turn").fill("8H 9H 1OH")
    phone.get_by_role("button", name="Check the turn").click()
    expect(phone.locator("#problems")).to_contain_text('Line 1: "1OH" is not a card.')
    _picture(phone, "referee-manipulation-turn-wrong")

    # The 7♥ went back into the hand: table cards must stay on the table.
    phone.get_by_label("After the turn").fill("8H 9H 10H")
    phone.locator(".hand-panel > summary").click()
    _tap(phone, "hand", "10H")
    phone.get_by_role("button", name="Check the turn").click()
    expect(phone.locator("#verdict-heading")).to_have_text("✗ The turn is not legal")
    expect(phone.locator(".reasons")).to_have_text("The 7♥ from the table is missing.")
    expect(phone.get_by_test_id("played").locator(".mini-card")).to_have_attribute(
        "aria-label", "ten of hearts"
    )
    _picture(phone, "referee-manipulation-turn")

    # Laid off on the end instead, it is legal.
    phone.get_by_label("After the turn").fill("7H 8H 9H 10H")
    phone.get_by_role("button", name="Check the turn").click()
    expect(phone.locator("#verdict-heading")).to_have_text("✓ The turn is legal")
    expect(phone).to_have_url(re.compile(r"hand=10H"))


def test_arrange_asks_for_cards_then_lays_them_out(live_server, phone):
    phone.goto(live_server.url + "/en/referee/manipulation/arrange/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Can all these cards go down?")
    assert _small_tap_targets(phone) == []

    phone.get_by_role("button", name="Can they all go down?").click()
    expect(phone.locator("#tool .field-error")).to_have_text(
        "Tap the cards to lay out: at least three."
    )
    _picture(phone, "referee-manipulation-arrange-wrong")

    _tap(phone, "cards", "7H", "8H", "9H", "QS", "QC", "QD")
    phone.get_by_role("button", name="Can they all go down?").click()
    expect(phone.locator("#verdict-heading")).to_have_text("✓ Yes: all 6 cards can go down")
    rows = phone.locator(".layout-row")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator(".meld-kind")).to_have_text("Sequence")
    expect(rows.nth(1).locator(".mini-card")).to_have_count(3)
    _picture(phone, "referee-manipulation-arrange")

    # A second Q♠ (two decks: tap again for the second copy) cannot join the group.
    _tap(phone, "cards", "QS")
    queen = phone.locator('.card-picker .card-face[data-code="QS"]')
    expect(queen).to_have_attribute("data-held", "2")
    phone.get_by_role("button", name="Can they all go down?").click()
    expect(phone.locator("#verdict-heading")).to_have_text("✗ No: not all 7 cards can go down")
    expect(phone).to_have_url(re.compile(r"cards=QS&cards=QS"))
