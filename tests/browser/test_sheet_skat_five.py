"""A Skat sheet at a table of five, as club evenings seat five players (issue 17).

At five the dealer and the third player to his left sit each deal out: the two to
his left play as forehand and middlehand, the one to his right as rearhand. Ali,
Bea, Cleo, Dora and Eve sit in that order, Ali deals first, and a deal everyone
passes is played as Ramsch. Seeger-Fabian at five gives 24 to each of the other
four players for every game a declarer loses, both who sat it out included.
"""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import DESKTOP
from tests.browser.support import expect_totals, mark_page, not_reloaded, overflow, sheet_picture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAYERS = ("Ali", "Bea", "Cleo", "Dora", "Eve")


def _declarers(page) -> list[str]:
    return page.locator(".declarer-choice label:not(.passed-choice)").all_inner_texts()


def _part(page, legend: str):
    return page.get_by_role("group", name=legend, exact=True)


def _game(page, *, declarer: str, game: str, matadors: int, outcome: str) -> None:
    _part(page, "Declarer").get_by_text(declarer, exact=True).click()
    _part(page, "Game").locator("label", has_text=game).click()
    _part(page, "Matadors").locator(".matador-with").get_by_text(str(matadors), exact=True).click()
    _part(page, "Result").locator(".outcome-grid").get_by_text(outcome, exact=True).click()


def test_a_table_of_five_enters_deals_on_one_page_load(live_server, phone, browser):
    phone.goto(live_server.url + "/en/new/skat/")
    for seat, name in enumerate(PLAYERS):
        phone.locator(f"input[name=player_{seat}]").fill(name)
    phone.get_by_role("group", name="Who deals first?").get_by_text("Ali", exact=True).click()
    phone.get_by_text("Play Ramsch", exact=True).click()
    phone.get_by_role("button", name="Start the sheet").click()
    phone.wait_for_url("**/s/*/")
    # Issue 17: a series at five is 60 deals, so everyone deals equally often.
    expect(phone.locator(".sheet-rules")).to_contain_text("Series of 60 deals")
    expect_totals(phone, 0, 0, 0, 0, 0)
    mark_page(phone)
    preview = phone.locator("#preview")

    # Deal 1: Ali deals and sits out with Dora (the third to his left); Bea and Cleo
    # (to his left) and Eve (to his right) play. Bea's Hearts with 1 is lost:
    # (1 + 1) × 10 = 20, twice that off her list: −40.
    expect(phone.locator(".dealer")).to_have_text("Ali deals and sits out with Dora")
    assert _declarers(phone) == ["Bea", "Cleo", "Eve"]
    _game(phone, declarer="Bea", game="Hearts", matadors=1, outcome="Lost")
    expect(preview.locator(".preview-summary")).to_have_text("Bea: Hearts with 1, lost, −40")
    phone.get_by_role("button", name="Save deal 1").click()
    expect_totals(phone, 0, -40, 0, 0, 0)

    # Deal 2: Bea deals and sits out with Eve; Cleo, Dora and Ali play. Everyone passed:
    # Ramsch among the three. Cleo 50 card points in 4 tricks, Dora 30 in 3, Ali the
    # rest (40 in 3), worked out. Rule book, Ramsch: the most card points lose them.
    expect(phone.get_by_role("heading", name="Deal 2")).to_be_visible()
    expect(phone.locator(".dealer")).to_have_text("Bea deals and sits out with Eve")
    assert _declarers(phone) == ["Ali", "Cleo", "Dora"]
    phone.locator("input[name=mode][value=passed]").locator("..").click()
    expect(phone.locator(".ramsch-name")).to_have_text(["Ali", "Cleo", "Dora"])
    phone.locator("input[name=ramsch_points_2]").fill("50")
    phone.locator("input[name=ramsch_tricks_2]").fill("4")
    phone.locator("input[name=ramsch_points_3]").fill("30")
    phone.locator("input[name=ramsch_tricks_3]").fill("3")
    phone.locator("input[name=ramsch_tricks_3]").press("Tab")
    expect(phone.locator("input[name=ramsch_points_0]")).to_have_value("40")
    expect(preview.locator(".preview-summary")).to_have_text("Ramsch: Cleo −50")
    phone.get_by_role("button", name="Save deal 2").click()
    expect_totals(phone, 0, -40, -50, 0, 0)

    # Deal 3: Cleo deals and sits out with Ali; Dora, Eve and Bea play. Dora's Grand
    # with 1, won: (1 + 1) × 24 = +48.
    expect(phone.get_by_role("heading", name="Deal 3")).to_be_visible()
    expect(phone.locator(".dealer")).to_have_text("Cleo deals and sits out with Ali")
    assert _declarers(phone) == ["Bea", "Dora", "Eve"]
    _game(phone, declarer="Dora", game="Grand", matadors=1, outcome="Won")
    phone.get_by_role("button", name="Save deal 3").click()
    expect_totals(phone, 0, -40, -50, 48, 0)
    expect(phone.get_by_role("heading", name="Deal 4")).to_be_visible()
    assert not_reloaded(phone)

    # Seeger-Fabian at five: Bea's lost game gives 24 to each of the other four.
    # Dora 48 + 50 + 24 = 122; Ali, Eve 24; Cleo −50 + 24 = −26; Bea −40 − 50 = −90.
    tally = phone.locator(".tally")
    expect(tally).to_contain_text("24 for every game another declarer lost")
    rows = tally.locator("tbody tr")
    expect(rows).to_have_count(5)
    expect(rows.locator("td strong")).to_have_text(["122", "24", "24", "−26", "−90"])
    # Five columns of totals and the Seeger-Fabian table fit a phone: no sideways scroll.
    assert overflow(phone) <= 0
    region = tally.locator(".table-scroll")
    assert region.evaluate("e => e.scrollWidth <= e.clientWidth")
    sheet_picture(phone, f"sheet-skat-five-{phone.color_scheme}")

    # The same sheet on a desktop.
    context = browser.new_context(viewport=DESKTOP, color_scheme="light", device_scale_factor=1)
    try:
        desktop = context.new_page()
        desktop.goto(phone.url)
        expect_totals(desktop, 0, -40, -50, 48, 0)
        sheet_picture(desktop, "sheet-skat-five-desktop")
    finally:
        context.close()
