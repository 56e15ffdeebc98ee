"""The Pitch referee pages at phone size, light and dark: a trick and a hand, each with
a wrong input first and its message, then the right one and the referee's answer."""

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


def _tap_card(page, slot: str, code: str) -> None:
    """Open the picker of one card in the trick (if folded) and tap the card."""
    details = page.locator(f"details[data-slot={slot}]")
    if details.get_attribute("open") is None:
        details.locator("summary").click()
    details.locator(f'.card-face[data-code="{code}"]').click()


def test_trick_judge_shows_the_order_refuses_a_non_trump_and_names_the_winner(live_server, phone):
    phone.goto(live_server.url + "/en/referee/pitch/trick/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Who wins the trick?")
    assert _small_tap_targets(phone) == []

    # Trumps, high to low: A K Q J, the off-jack, the high and low joker, 10 down to 2.
    phone.locator(".suit-choice label", has_text="Hearts").click()
    order = phone.locator("#trump-order .trump-list li")
    expect(order).to_have_count(16)
    expect(order.nth(4)).to_contain_text("off\u2011jack")  # a hyphen that never breaks
    expect(order.nth(4).locator(".mini-card")).to_have_attribute("aria-label", "jack of diamonds")
    expect(order.nth(5)).to_contain_text("high joker")
    expect(order.nth(15).locator(".mini-card")).to_have_attribute("aria-label", "two of hearts")

    # A wrong input: the 9♠ is no trump when hearts are trump, so it cannot be played.
    _tap_card(phone, "card1", "AH")
    expect(phone.locator("details[data-slot=card1]")).not_to_have_attribute("open", "")
    expect(phone.locator("details[data-slot=card1] summary .mini-card")).to_have_attribute(
        "aria-label", "ace of hearts"
    )
    _tap_card(phone, "card2", "9S")
    phone.get_by_role("button", name="Who wins?").click()
    message = "9♠ is not a trump when hearts are trump"
    expect(phone.locator("details[data-slot=card2] .field-error")).to_contain_text(message)
    expect(phone.locator("#problems")).to_contain_text(message)
    _picture(phone, "referee-pitch-trick-wrong")

    # The right cards: A♥, J♦ (the off-jack), the high joker. The ace is highest.
    _tap_card(phone, "card2", "JD")
    _tap_card(phone, "card3", "JOKER-HIGH")
    phone.get_by_role("button", name="Who wins?").click()
    expect(phone.locator("#verdict-heading")).to_have_text("The 1st card wins: A♥")
    expect(phone).to_have_url(re.compile(r"trump=H.*card1=AH.*card2=JD.*card3=JOKER-HIGH"))
    explanation = phone.locator(".verdict .explanation")
    expect(explanation).to_contain_text("J♦ is the off-jack")
    expect(explanation.locator("a.rule-link").first).to_have_attribute(
        "href", "/en/rules/pitch/#pitch-trumps"
    )
    _picture(phone, "referee-pitch-trick")

    # A 4th card tapped by mistake can be taken back: the trick stays at three cards.
    _tap_card(phone, "card4", "2H")
    fourth = phone.locator("details[data-slot=card4]")
    fourth.locator("summary").click()
    fourth.get_by_text("No 4th card").click()
    expect(fourth.locator('.card-face[data-code="2H"]')).not_to_have_class(
        re.compile(r"is-selected")
    )
    expect(fourth.locator("summary")).to_contain_text("none")
    phone.get_by_role("button", name="Who wins?").click()
    expect(phone).not_to_have_url(re.compile(r"card4=2H"))
    expect(phone.locator(".played-cards li")).to_have_count(3)


def test_hand_scorer_asks_for_a_missing_point_then_scores_a_set_hand(live_server, phone):
    phone.goto(live_server.url + "/en/referee/pitch/hand/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Score a hand")
    assert _small_tap_targets(phone) == []

    phone.get_by_role("radiogroup", name="Bid").get_by_text("7", exact=True).click()
    phone.get_by_role("radiogroup", name="Pitched by").get_by_text("Team B").click()
    taken = {
        "Ace": "B",
        "Jack": "A",
        "Off-jack": "B",
        "High joker": "B",
        "Low joker": "A",
        "Ten": "B",
        "Two": "Out",
    }
    for card, team in taken.items():
        group = phone.get_by_role("radiogroup", name=card, exact=True)
        group.get_by_text(team, exact=True).click()
    phone.get_by_role("textbox", name="Team A").fill("40")
    phone.get_by_role("textbox", name="Team B").fill("12")

    # A wrong input first: nobody said who took the three.
    phone.get_by_role("button", name="Score the hand").click()
    expect(phone.locator("#problems")).to_contain_text("Say who took the three")
    _picture(phone, "referee-pitch-hand-wrong")

    # Team A took the three: B took 4 of its 7 and is set; A adds the jack,
    # the low joker and the three (5 points) and reaches 45.
    phone.get_by_role("radiogroup", name="Three", exact=True).get_by_text("A", exact=True).click()
    phone.get_by_role("button", name="Score the hand").click()
    expect(phone.locator("#verdict-heading")).to_have_text("Team B is set: its bid of 7 comes off")
    expect(phone.get_by_test_id("delta-A")).to_have_text("+5")
    expect(phone.get_by_test_id("delta-B")).to_have_text("−7")
    expect(phone.get_by_test_id("after-A")).to_have_text("45")
    expect(phone.get_by_test_id("after-B")).to_have_text("5")
    expect(phone.get_by_test_id("game-end")).to_have_text("No winner yet: play goes on.")
    expect(phone.locator(".verdict .explanation a.rule-link").first).to_have_attribute(
        "href", "/en/rules/pitch/#pitch-points"
    )
    _picture(phone, "referee-pitch-hand")
