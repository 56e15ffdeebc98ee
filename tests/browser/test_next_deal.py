"""After Save the same form is ready for the next deal (issue 9: at most 15 KB a deal).

A deal saved from a form drawn fresh is answered without a new form: the phone puts
the form back to its defaults, and the answer brings only what changes from one deal
to the next (the heading and dealer, the key and version, Save's label, and at a table
of four the declarers and the Ramsch rows, since the dealer sits out). Ana, Ben, Cem
and Dan play Skat at four with Ramsch when everyone passes.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from games.selectors import live_hands
from tests.browser.support import SCREENSHOTS, expect_totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOUR = ["Ana", "Ben", "Cem", "Dan"]


def _radio(page, name: str, value: str):
    return page.locator(f"label:has(> input[name='{name}'][value='{value}'])")


def _declarers(page) -> list[str]:
    return page.locator(".declarer-choice label:not(.passed-choice)").all_inner_texts()


def _mark_form(page) -> None:
    """A mark on the form element that survives only if the form is kept, not replaced."""
    page.evaluate("document.querySelector('form.entry-form').kept = true")


def _form_kept(page) -> bool:
    return page.evaluate("document.querySelector('form.entry-form').kept === true")


def test_the_form_is_reset_for_the_next_deal_with_the_next_players(live_server, phone):
    sheet = services.sheet_create(game="skat", players=FOUR, options={"all_pass": "ramsch"})
    phone.goto(live_server.url + sheet.get_absolute_url())
    phone.wait_for_selector("form.entry-form.is-enhanced")
    # ISkO 1.2.1: at four the dealer sits out. Deal 1: Ana deals.
    assert _declarers(phone) == ["Ben", "Cem", "Dan"]

    # Deal 1: Ben's Clubs with 1, won: (1 + 1) × 12 = 24 (ISkO 4.1). The first deal
    # swaps the whole board (the list of deals appears).
    _radio(phone, "declarer", "1").click()
    _radio(phone, "game", "clubs").click()
    _radio(phone, "matadors_tap", "with-1").click()
    phone.get_by_role("button", name="Save deal 1").click()
    expect_totals(phone, 0, 24, 0, 0)
    expect(phone.get_by_role("heading", name="Deal 2")).to_be_visible()
    # Deal 2: Ben deals and sits out.
    assert _declarers(phone) == ["Ana", "Cem", "Dan"]
    _mark_form(phone)

    # Deal 2: Cem's Grand Hand with 2, schneider: (2 + 1 + 1 + 1) × 24 = 120 (ISkO 4.1:
    # game, hand, schneider). "Count from the cards" is opened and closed on the way.
    _radio(phone, "declarer", "2").click()
    _radio(phone, "game", "grand").click()
    phone.locator("label.toggle:has(> input[name=hand])").click()
    _radio(phone, "matadors_tap", "with-2").click()
    _radio(phone, "outcome", "won_schneider").click()
    phone.get_by_text("Count from the cards instead").click()
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Cem: Grand Hand with 2, won schneider, +120"
    )
    phone.get_by_role("button", name="Save deal 2").click()
    expect_totals(phone, 0, 24, 120, 0)
    expect(phone.get_by_role("status").filter(has_text="Deal 2 saved")).to_contain_text("+120")
    expect(phone.get_by_role("heading", name="Deal 3")).to_be_visible()
    assert _form_kept(phone), "the form was sent again instead of reset"
    SCREENSHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / f"next-deal-reset-{phone.color_scheme}.png"))
    # Back to a new deal's defaults: nothing chosen, sections closed, the hint shown.
    form = phone.locator("form.entry-form")
    expect(form.locator("input[name=declarer]:checked")).to_have_count(0)
    expect(form.locator("input[name=game]:checked")).to_have_count(0)
    expect(form.locator("input[name=hand]")).not_to_be_checked()
    expect(form.locator("input[name=matadors_tap]:checked")).to_have_count(0)
    expect(form.locator("details.exact")).not_to_have_attribute("open", re.compile(".*"))
    expect(phone.locator("#preview")).to_have_text("The score shows here before you save.")
    expect(phone.get_by_role("button", name="Save deal 3")).to_be_enabled()
    # Deal 3: Cem deals and sits out; the declarers and the Ramsch rows follow.
    assert _declarers(phone) == ["Ana", "Ben", "Dan"]

    # Deal 3: everyone passed, Ramsch. Ana 20 points and 2 tricks, Ben 70 and 5, Dan the
    # rest (30 and 3), worked out. Rule book, Ramsch: the most card points lose them.
    _radio(phone, "mode", "passed").click()
    expect(phone.locator(".ramsch-name")).to_have_text(["Ana", "Ben", "Dan"])
    phone.locator("input[name=ramsch_points_0]").fill("20")
    phone.locator("input[name=ramsch_tricks_0]").fill("2")
    phone.locator("input[name=ramsch_points_1]").fill("70")
    phone.locator("input[name=ramsch_tricks_1]").fill("5")
    # Leaving the field is what a player does next (it sends the preview).
    phone.locator("input[name=ramsch_tricks_1]").press("Tab")
    expect(phone.locator("input[name=ramsch_points_3]")).to_have_value("30")
    # Ben's 70 are the most, alone: no tie for the last trick to settle, so it is not
    # asked (the sheet asks only what the score needs).
    expect(phone.locator("input[name=ramsch_last_trick]")).to_have_count(0)
    expect(phone.locator("#preview .preview-summary")).to_have_text("Ramsch: Ben −70")
    phone.get_by_role("button", name="Save deal 3").click()
    expect_totals(phone, 0, -46, 120, 0)
    expect(phone.get_by_role("heading", name="Deal 4")).to_be_visible()
    assert _form_kept(phone)
    # Deal 4: Dan deals; the worked-out number and the Ramsch choice are gone.
    assert _declarers(phone) == ["Ana", "Ben", "Cem"]
    expect(phone.locator("input[name=mode][value=passed]")).not_to_be_checked()
    expect(phone.locator(".ramsch-cell.is-derived")).to_have_count(0)

    # Each deal stored once, with what was entered.
    hands = live_hands(sheet)
    assert [hand.number for hand in hands] == [1, 2, 3]
    assert hands[1].entry["game"] == "grand"
    assert hands[1].entry["hand"] is True


THREE = ["Ali", "Bea", "Cleo"]
# Three deals already on the sheet: (declarer, game, matadors with) and each value by
# ISkO 4.1 (matadors + 1 for the game, times the base value), all won.
DEALS = [(1, "clubs", 1, 24), (2, "spades", 2, 33), (0, "hearts", 1, 20)]


def _three_deals(count: int = 3, options: dict | None = None):
    """A sheet with the first ``count`` of DEALS on it."""
    sheet = services.sheet_create(game="skat", players=THREE, options=options)
    for declarer, game, matadors, _value in DEALS[:count]:
        services.hand_record(
            sheet=sheet,
            data={
                "declarer": declarer,
                "game": game,
                "bid": 18,
                "matadors": {"with": matadors},
                "outcome": "won",
            },
        )
    return sheet


def test_an_older_deal_is_deleted_after_a_new_one_was_saved(live_server, phone):
    sheet = _three_deals()
    phone.goto(live_server.url + sheet.get_absolute_url())
    phone.wait_for_selector("form.entry-form.is-enhanced")
    expect_totals(phone, 20, 24, 33)
    # Deal 4: Bea's Grand with 1, won: 2 × 24 = 48 (ISkO 4.1).
    _radio(phone, "declarer", "1").click()
    _radio(phone, "game", "grand").click()
    _radio(phone, "matadors_tap", "with-1").click()
    phone.get_by_role("button", name="Save deal 4").click()
    expect_totals(phone, 20, 72, 33)
    _mark_form(phone)
    # Deal 2 (Cleo's Spades, +33) was a mistake: deleted from the same page, every later
    # deal scored again; the sheet had changed since the page was loaded.
    phone.locator("#deal-2 summary").click()
    SCREENSHOTS.mkdir(exist_ok=True)
    phone.locator("#deal-2").screenshot(path=str(SCREENSHOTS / "next-deal-delete-row.png"))
    phone.once("dialog", lambda dialog: dialog.accept())
    phone.locator("#deal-2").get_by_role("button", name="Delete").click()
    expect_totals(phone, 20, 72, 0)
    expect(phone.locator(".deal")).to_have_count(3)
    assert [hand.entry["game"] for hand in live_hands(sheet)] == ["clubs", "hearts", "grand"]


def test_without_javascript_a_deal_is_deleted_by_its_button(live_server, browser):
    sheet = _three_deals()
    context = browser.new_context(viewport={"width": 390, "height": 844}, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server.url + sheet.get_absolute_url())
        page.locator("#deal-3 summary").click()
        page.locator("#deal-3").get_by_role("button", name="Delete").click()
        expect_totals(page, 0, 24, 33)
        assert [hand.entry["game"] for hand in live_hands(sheet)] == ["clubs", "spades"]
    finally:
        context.close()


UNCOVERED = """(el) => {
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return !!hit && (el.contains(hit) || hit.contains(el));
}"""


def test_the_last_deal_shows_game_over_and_leaves_undo_in_reach(live_server, phone):
    # Rule book, Skat, the list: a series of three deals here; the third ends it.
    sheet = _three_deals(2, {"series_deals": 3})
    phone.goto(live_server.url + sheet.get_absolute_url())
    phone.wait_for_selector("form.entry-form.is-enhanced")
    # Deal 3: Ali's Grand with 1, won: 2 × 24 = 48 (ISkO 4.1).
    _radio(phone, "declarer", "0").click()
    _radio(phone, "game", "grand").click()
    _radio(phone, "matadors_tap", "with-1").click()
    phone.get_by_role("button", name="Save deal 3").click()
    # A Skat sheet is a series (docs/glossary.md): "Series over", as its last line says.
    expect(phone.get_by_role("heading", name="Series over")).to_be_visible()
    # The series is over: the big numbers are the Seeger-Fabian points that decide it
    # (each game won as declarer adds 50: Ali 48 + 50, Bea 24 + 50, Cleo 33 + 50), the
    # list points under them.
    expect_totals(phone, 98, 74, 83)
    expect(phone.locator(".total-second")).to_have_text(["List 48", "List 24", "List 33"])
    expect(phone.get_by_role("status").filter(has_text="Deal 3 saved")).to_be_visible()
    expect(phone.locator("form.entry-form")).to_have_count(0)
    # The confirmation takes its own room: the last deal can be undone at once.
    undo = phone.get_by_role("button", name="Undo deal 3")
    undo.scroll_into_view_if_needed()
    assert undo.evaluate(UNCOVERED)
    phone.evaluate("window.scrollTo(0, 0)")
    SCREENSHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / f"next-deal-game-over-{phone.color_scheme}.png"))
