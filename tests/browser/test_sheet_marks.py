"""The sheet at a phone's size: tap targets, where a correction lands, chips' room.

Measured in Chromium at 390 × 844: the rule chips of an explanation are 44 px tap
targets; a correction lands on its deal below the sticky totals with its message in
view; the outcome chips keep room round their words in every language; the share
panel's edit-link summary shows that it opens.
"""

import pytest

from games import services
from tests.browser.conftest import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SERIES = [
    {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 3}, "outcome": "won"},
    *[{"declarer": 1, "game": "clubs", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}] * 3,
    *[{"declarer": 2, "game": "diamonds", "bid": 18, "matadors": {"with": 1}, "outcome": "lost"}]
    * 2,
]


def finished_skat():
    sheet = services.sheet_create(
        game="skat", players=["Klaus", "Grete", "Ben"], options={"series_deals": 6}
    )
    for deal in SERIES:
        services.hand_record(sheet=sheet, data=deal)
    return sheet


def test_rule_chips_are_44_px_tap_targets(phone, live_server):
    sheet = finished_skat()
    phone.goto(f"{live_server.url}/en/s/{sheet.edit_token}/")
    phone.locator("#deal-6 summary").click()
    chips = phone.locator("#deal-6 .explanation .rule-link")
    assert chips.count() >= 5
    for index in range(chips.count()):
        box = chips.nth(index).bounding_box()
        assert box["width"] >= 44, box
        assert box["height"] >= 44, box
    # The lines stay as tall as their text: the chips do not push them apart.
    line = phone.locator("#deal-6 .explanation li").first.bounding_box()
    assert line["height"] < 2 * 44


def test_a_correction_lands_on_its_deal_below_the_totals_with_its_message(phone, live_server):
    sheet = finished_skat()
    phone.goto(f"{live_server.url}/en/s/{sheet.edit_token}/deals/3/")
    phone.get_by_role("button", name="Save the correction").click()
    phone.wait_for_url("**#deal-3")
    phone.wait_for_function("() => window.scrollY > 0")
    totals = phone.locator("#totals").bounding_box()
    deal = phone.locator("#deal-3").bounding_box()
    assert deal["y"] >= totals["y"] + totals["height"], (deal, totals)
    notice = phone.locator("#deal-3 .deal-notice")
    assert notice.inner_text().startswith("Deal 3 corrected: Grete: Clubs with 1, won")
    assert notice.bounding_box()["y"] + notice.bounding_box()["height"] <= PHONE["height"]


@pytest.mark.parametrize("lang", ["en", "de", "eo"])
def test_outcome_chips_keep_room_round_their_words(phone, live_server, lang):
    # With Kontra and Re the result row has four columns: "Gewonnen" touched its
    # chip's edges at 390 px.
    sheet = services.sheet_create(
        game="skat", players=["Klaus", "Grete", "Ben"], options={"kontra_re": True}
    )
    phone.goto(f"{live_server.url}/{lang}/s/{sheet.edit_token}/")
    gaps = phone.evaluate(
        """() => [...document.querySelectorAll('.outcome-grid span, .kontra-re span')]
          .filter(e => e.offsetParent).map(e => {
            const box = e.getBoundingClientRect();
            const range = document.createRange();
            range.selectNodeContents(e);
            const text = range.getBoundingClientRect();
            return [e.textContent.trim(), text.left - box.left, box.right - text.right];
          })"""
    )
    assert len(gaps) >= 8
    for word, left, right in gaps:
        assert left >= 4, (word, left, right)
        assert right >= 4, (word, left, right)


def test_the_share_panels_edit_link_shows_that_it_opens(phone, live_server):
    sheet = services.sheet_create(game="skat", players=["Klaus", "Grete", "Ben"])
    phone.goto(f"{live_server.url}/en/s/{sheet.edit_token}/")
    summary = phone.locator(".share details > summary")
    marker = "(e) => getComputedStyle(e, '::before').content"
    assert summary.evaluate(marker) == '"▸"'
    summary.click()
    assert summary.evaluate(marker) == '"▾"'
