"""A club evening at a phone: what went wrong on a real evening, entered again.

Ali, Bea and Cleo keep a Skat list on one phone and never load the page again between
deals. Every value is worked out from the rules (ISkO 4.1: base value × levels; a lost
game counts twice; Kontra doubles; rule book, Ramsch: the most card points lose them).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games import services
from games.selectors import live_hands
from tests.browser.support import expect_totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THREE = ["Ali", "Bea", "Cleo"]


def _radio(page, name: str, value: str):
    return page.locator(f"label:has(> input[name='{name}'][value='{value}'])")


def _toggle(page, name: str):
    return page.locator(f"label.toggle:has(> input[name='{name}'])")


def _open(page, sheet) -> None:
    page.goto(page.base_url + sheet.get_absolute_url())
    page.wait_for_selector("form.entry-form.is-enhanced")


def _four_taps(page, declarer: int, game: str, matadors: str, number: int) -> None:
    """Declarer, game, matadors, Save: the bid (18) and the result (won) are defaults."""
    _radio(page, "declarer", str(declarer)).click()
    _radio(page, "game", game).click()
    _radio(page, "matadors_tap", matadors).click()
    page.get_by_role("button", name=f"Save deal {number}").click()
    expect(page.get_by_role("heading", name=f"Deal {number + 1}")).to_be_visible()


@pytest.fixture
def skat(live_server, phone):
    phone.base_url = live_server.url
    return phone


# -- 1. the bid 18 is a default of every deal, not only of the first two -----------------


def test_four_taps_enter_every_deal_of_an_evening(skat):
    sheet = services.sheet_create(game="skat", players=THREE)
    _open(skat, sheet)
    # Clubs with 1 (24), Grand with 1 (48), Spades with 2 (33), Hearts with 1 (20),
    # Diamonds with 3 (36), each won (ISkO 4.1: (matadors + 1) × base value).
    deals = [(1, "clubs", "with-1"), (2, "grand", "with-1"), (0, "spades", "with-2")]
    deals += [(1, "hearts", "with-1"), (2, "diamonds", "with-3")]
    for number, (declarer, game, matadors) in enumerate(deals, start=1):
        # The bid is chosen before anything is tapped, on every deal.
        expect(skat.locator("input[name=bid]:checked")).to_have_value("18")
        _four_taps(skat, declarer, game, matadors, number)
    expect_totals(skat, 33, 44, 84)
    assert [hand.entry["bid"] for hand in live_hands(sheet)] == [18] * 5


# -- 3. what the form hides is not sent --------------------------------------------------


def test_a_toggle_hidden_by_switching_to_null_is_not_sent(skat):
    sheet = services.sheet_create(game="skat", players=THREE)
    _open(skat, sheet)
    posted: list[str] = []
    skat.on("request", lambda r: posted.append(r.post_data or "") if r.method == "POST" else None)
    _radio(skat, "declarer", "0").click()
    _radio(skat, "game", "clubs").click()
    _toggle(skat, "hand").click()
    skat.locator("label.announce:has(> input[value=schneider])").click()
    # Null: schneider cannot be announced (ISkO: a Null game knows no schneider), and the
    # toggle is gone from the form: the deal is Null Hand, worth 35 (ISkO 5.2). Neither
    # the preview nor Save sends it from now on.
    posted.clear()
    _radio(skat, "game", "null").click()
    expect(skat.locator("label.announce").first).to_be_hidden()
    expect(skat.locator("#preview .preview-summary")).to_contain_text("+35")
    skat.get_by_role("button", name="Save deal 1").click()
    expect_totals(skat, 35, 0, 0)
    (hand,) = live_hands(sheet)
    assert hand.entry["game"] == "null"
    assert "announced" not in hand.entry
    assert len(posted) >= 2
    assert not any("announced=" in body for body in posted)
    # Back to a suit game with Hand: the toggle shows again and can be ticked anew.
    _radio(skat, "declarer", "1").click()
    _radio(skat, "game", "clubs").click()
    _toggle(skat, "hand").click()
    expect(skat.locator("label.announce").first).to_be_visible()
    expect(skat.locator("input[name=announced]").first).to_be_enabled()
