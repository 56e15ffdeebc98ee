"""The Skat referee tools on a phone, light and dark: a right answer and a wrong input each.

The numbers are worked out by hand: a suit or Grand game is worth its base value
(♦ 9, ♥ 10, ♠ 11, ♣ 12, Grand 24) times its levels (matadors + 1 for the game + 1 for
hand …); a lost game scores −2 × its value; Null has a fixed value (23).
"""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.support import overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# J♠ J♥ but no J♣: Grand "against 1" unless the skat holds J♣.
SPADE_AND_HEART_JACKS = ["JS", "JH", "AC", "10C", "KC", "AS", "10S", "7H", "8H", "9D"]


def _small_tap_targets(page) -> list[str]:
    # Every link and button a thumb needs is at least 44 px tall (links inside a
    # sentence, like an explanation's "rule", are read, not aimed at).
    return page.evaluate(
        """() => [...document.querySelectorAll('a, button, summary')]
            .filter(e => e.offsetParent !== null && e.getBoundingClientRect().right > 0)
            .filter(e => !e.closest('p, li'))
            .filter(e => e.getBoundingClientRect().height < 44)
            .map(e => e.outerHTML.slice(0, 80))"""
    )


def _picture(page, name: str) -> None:
    """A full-page screenshot from the top, so the sticky top bar sits where it belongs."""
    assert overflow(page) <= 0
    assert _small_tap_targets(page) == []
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, f"referee-skat-{name}-{page.color_scheme}")


def _part(page, legend: str):
    return page.get_by_role("group", name=legend, exact=True)


def _panel(page, legend: str):
    """The panel around a card picker, where its messages stand."""
    return page.locator(".panel").filter(has=_part(page, legend))


def _mark_page(page) -> None:
    """A value that only survives if the answer swaps in without a page load."""
    page.evaluate("window.notReloaded = true")


def _not_reloaded(page) -> bool:
    return page.evaluate("window.notReloaded === true")


def _game(page, name: str) -> None:
    page.locator(".game-choice label", has_text=name).click()


def _tap(picker, codes) -> None:
    for code in codes:
        picker.locator(f".card-face[data-code='{code}']").click()


def _answer(page):
    return page.locator("#answer")


def test_game_value(live_server, phone):
    phone.goto(live_server.url + "/en/referee/skat/value/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("What is the game worth?")
    _picture(phone, "value-empty")
    _mark_page(phone)

    # A wrong input: Null is worth 23, so it cannot be played after a bid of 24.
    _game(phone, "Null")
    phone.get_by_label("Bid").select_option("24")
    _part(phone, "Result").get_by_text("Won", exact=True).click()
    expect(_part(phone, "Matadors")).to_be_hidden()
    phone.get_by_role("button", name="Work out the value").click()
    message = "You bid 24 but Null is worth 23; declare Null Ouvert (46) or a suit or grand game."
    expect(_answer(phone)).to_contain_text("One thing to fix before the referee can answer")
    expect(_answer(phone)).to_contain_text(message)
    expect(_part(phone, "Bid").locator(".field-error")).to_have_text(message)
    expect(phone.get_by_label("Bid")).to_have_value("24")
    assert _not_reloaded(phone)
    _picture(phone, "value-error")

    # Clubs with 2 after a bid of 36, won schneider: (2 + 1 + 1) × 12 = 48.
    _game(phone, "Clubs")
    phone.get_by_label("Bid").select_option("36")
    matadors = _part(phone, "Matadors")
    matadors.locator(".matador-with").get_by_text("2", exact=True).click()
    _part(phone, "Result").get_by_text("Won schneider", exact=True).click()
    phone.get_by_role("button", name="Work out the value").click()
    expect(_answer(phone).get_by_role("heading", level=2)).to_have_text("Won, +48 on the list")
    expect(_answer(phone)).to_contain_text("Levels: with 2 (2) + game (1) + schneider (1) = 4.")
    expect(phone.locator(".field-error")).to_have_count(0)
    # The question has its own link now, to send across the table.
    assert "game=clubs" in phone.url
    assert "outcome=won_schneider" in phone.url
    assert _not_reloaded(phone)
    _picture(phone, "value")

    # Each explanation line links to its rule in the rule book.
    link = _answer(phone).locator(".explanation li", has_text="Clubs counts 12 a level")
    href = link.get_by_role("link").get_attribute("href")
    assert href == "/en/rules/skat/#skat-game-value"

    # The link opened afresh shows the same answer, without JavaScript's help.
    phone.goto(phone.url)
    expect(_answer(phone).get_by_role("heading", level=2)).to_have_text("Won, +48 on the list")


def test_how_high_may_i_bid(live_server, phone):
    phone.goto(live_server.url + "/en/referee/skat/bid/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("How high may I bid?")
    _mark_page(phone)
    hand = "Your 10 cards (not the skat)"
    picker = _part(phone, hand)

    # A wrong input: nine cards are not a hand.
    _game(phone, "Grand")
    _tap(picker, SPADE_AND_HEART_JACKS[:9])
    phone.get_by_role("button", name="How high may I bid?").click()
    message = "Give the 10 cards you were dealt, the hand you bid with; you gave 9."
    expect(_answer(phone)).to_contain_text(message)
    expect(_panel(phone, hand).locator(".field-error")).to_have_text(message)
    assert _not_reloaded(phone)
    _picture(phone, "bid-error")

    # The tenth card: Grand against 1 (J♣ missing) is 2 × 24 = 48, whatever the skat;
    # a J♣ in the skat would make it with 3, 4 × 24 = 96.
    picker = _part(phone, hand)
    expect(picker.locator("input:checked")).to_have_count(9)
    _tap(picker, SPADE_AND_HEART_JACKS[9:])
    phone.get_by_role("button", name="How high may I bid?").click()
    expect(_answer(phone).get_by_role("heading", level=2)).to_have_text("Bid up to 48")
    expect(_answer(phone)).to_contain_text(
        "If the skat holds J♣ but no J♦: with 3, worth 4 × 24 = 96"
    )
    assert _not_reloaded(phone)
    _picture(phone, "bid")

    # Hand adds a level: 3 × 24 = 72.
    phone.locator(".toggle", has_text="Hand").click()
    phone.get_by_role("button", name="How high may I bid?").click()
    expect(_answer(phone).get_by_role("heading", level=2)).to_have_text("Bid up to 72")


def test_who_takes_the_trick(live_server, phone):
    phone.goto(live_server.url + "/en/referee/skat/trick/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Who takes the trick?")
    _mark_page(phone)

    # A wrong input: the third card is missing.
    _game(phone, "Grand")
    _tap(_part(phone, "1st card"), ["AC"])
    _tap(_part(phone, "2nd card"), ["JD"])
    phone.get_by_role("button", name="Who takes it?").click()
    message = "Tap the 3rd card played to the trick."
    expect(_answer(phone)).to_contain_text(message)
    expect(_panel(phone, "3rd card").locator(".field-error")).to_have_text(message)
    assert _not_reloaded(phone)
    _picture(phone, "trick-error")

    # In Grand every jack is a trump: J♦ beats the A♣ led.
    _tap(_part(phone, "3rd card"), ["10C"])
    phone.get_by_role("button", name="Who takes it?").click()
    expect(_answer(phone).get_by_role("heading", level=2)).to_have_text(
        "The 2nd card, J♦, takes the trick"
    )
    expect(_answer(phone)).to_contain_text("Trumps beat every other card")
    assert _not_reloaded(phone)
    _picture(phone, "trick")

    # The same cards in Null: no trumps, the A♣ led holds.
    _game(phone, "Null")
    phone.get_by_role("button", name="Who takes it?").click()
    expect(_answer(phone).get_by_role("heading", level=2)).to_have_text(
        "The 1st card, A♣, takes the trick"
    )


def test_may_i_play_that_card(live_server, phone):
    phone.goto(live_server.url + "/en/referee/skat/follow/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("May I play that card?")
    _mark_page(phone)

    # A wrong input: the card played is not in the hand.
    _game(phone, "Grand")
    _tap(_part(phone, "Card led"), ["AC"])
    _tap(_part(phone, "The player’s hand, the card played included"), ["JC", "7C", "8H"])
    _tap(_part(phone, "Card played"), ["JD"])
    phone.get_by_role("button", name="Is it allowed?").click()
    message = "J♦ is not in the hand (J♣ 7♣ 8♥)."
    expect(_answer(phone)).to_contain_text(message)
    expect(_panel(phone, "Card played").locator(".field-error")).to_have_text(message)
    assert _not_reloaded(phone)
    _picture(phone, "follow-error")

    # In Grand J♣ is a trump, not a club: with 7♣ in hand it may not answer A♣.
    _tap(_part(phone, "Card played"), ["JC"])
    phone.get_by_role("button", name="Is it allowed?").click()
    expect(_answer(phone).get_by_role("heading", level=2)).to_have_text("J♣: not allowed")
    expect(_answer(phone)).to_contain_text("J♣ does not count as a club")
    assert _not_reloaded(phone)
    _picture(phone, "follow")


def test_bid_ladder_and_the_tools_nav(live_server, phone):
    phone.goto(live_server.url + "/en/referee/skat/bids/")
    expect(phone.get_by_role("heading", level=1)).to_have_text("The bid ladder")
    expect(phone.locator(".bid-ladder li")).to_have_count(63)
    expect(phone.locator("#bid-18")).to_contain_text("Diamonds ×2")
    expect(phone.locator("#bid-264")).to_contain_text("Grand ×11")
    _picture(phone, "ladder")
    # Every tool is one tap from the others.
    nav = phone.get_by_role("navigation", name="Skat referee")
    for name, heading in (
        ("Game value", "What is the game worth?"),
        ("How high to bid", "How high may I bid?"),
        ("Trick", "Who takes the trick?"),
        ("Follow suit", "May I play that card?"),
        ("Bids", "The bid ladder"),
    ):
        nav.get_by_role("link", name=name, exact=True).click()
        expect(phone.get_by_role("heading", level=1)).to_have_text(heading)
        expect(nav.get_by_role("link", name=name, exact=True)).to_have_attribute(
            "aria-current", "page"
        )
    expect(nav.get_by_role("link", name="Rule book")).to_have_attribute("href", "/en/rules/skat/")


def test_a_question_without_javascript(live_server, browser):
    # Without JavaScript the form is sent as a plain GET and the page comes back with
    # the answer: the tick boxes under the card faces still choose the cards.
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/en/referee/skat/trick/")
        page.locator(".game-choice label", has_text="Hearts").click()
        for legend, code in (("1st card", "AC"), ("2nd card", "7H"), ("3rd card", "10C")):
            _tap(_part(page, legend), [code])
        page.get_by_role("button", name="Who takes it?").click()
        page.wait_for_url("**/referee/skat/trick/?*#answer")
        # Hearts is trump: its 7 beats the A♣ led.
        expect(_answer(page).get_by_role("heading", level=2)).to_have_text(
            "The 2nd card, 7♥, takes the trick"
        )
        assert "card_2=7H" in page.url
    finally:
        context.close()
