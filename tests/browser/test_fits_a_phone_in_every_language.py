"""How the pages look to a player at a real card table: a visual audit at a 390×844
phone and a 1280×800 desktop, light and dark, in English, German and Esperanto.

Each test holds one problem a player saw (its docstring says what), measured in the
browser (an element's box against another's, or against the screen): German and
Esperanto labels are longer, and every box and button still fits and can be tapped.
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import PHONE, _page
from tests.browser.support import SCREENSHOTS, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLUB = ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Frank", "Gabi", "Hans", "Ines", "Jörg", "Karl"]


def test_the_german_save_bar_lets_the_preview_run_under_the_save_button(live_server, browser):
    """A German phone (390 px) keeps a Manipulation sheet for Anneliese, Bartholomäus and
    Christina. After a round is typed, the Save bar at the bottom gives the button
    "Durchgang 1 speichern" (never wrapped) 250 of its 340 px: the preview of what will
    be saved is squeezed into a column of about 77 px, seven lines tall, and
    "Bartholomäus" runs out of it under the green button, where it is cut off
    ("Bartholomä"). In English ("Save round 1") the same preview reads in three lines
    beside the button. The preview should keep its words inside its own column, clear of
    the button (static/css/entry.css, ``.entry-save``: ``grid-template-columns:
    minmax(0, 1fr) auto`` with ``.entry-save .button-wide { white-space: nowrap }``)."""
    from games import services

    sheet = services.sheet_create(
        game="manipulation", players=["Anneliese", "Bartholomäus", "Christina"]
    )
    context, page = _page(browser, PHONE, "light")
    page.goto(f"{live_server.url}/de/s/{sheet.edit_token}/")
    page.wait_for_selector("form.entry-form.is-enhanced")
    page.locator("label:has(> input[name=went_out][value='0'])").click()
    page.locator("label:has(> input[name=count_by][value=penalties])").click()
    page.locator("input[name=penalty_1]").press_sequentially("35")
    page.locator("input[name=penalty_2]").press_sequentially("60")
    preview = page.locator(".entry-save .preview")
    expect(preview).to_contain_text("Christina +60")
    button = page.get_by_role("button", name="Durchgang 1 speichern")
    button.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(exist_ok=True)
    page.locator(".entry-save").screenshot(path=str(SCREENSHOTS / "audit-save-bar-de-390.png"))
    # The right edge of the preview's words, line by line, against the button's left edge.
    words_end = page.locator(".entry-save .preview summary").evaluate(
        """(s) => { const range = document.createRange(); range.selectNodeContents(s);
            return Math.max(...[...range.getClientRects()].map((r) => r.right)); }"""
    )
    button_start = button.bounding_box()["x"]
    summary = page.locator(".entry-save .preview summary")
    spill = summary.evaluate("(e) => e.scrollWidth - e.clientWidth")
    context.close()
    assert words_end <= button_start, (
        f"the preview's words reach x={words_end:.0f}, under the Save button at x={button_start:.0f}"
    )
    assert spill <= 0, f"the preview is {spill} px wider than its column"


def test_the_boards_link_to_a_tables_sheet_is_big_enough_to_tap(live_server, browser):
    """The organiser's board at a phone, three tables drawn: under each table's buttons
    "Open the sheet of table 1" (German "Liste von Tisch 1 öffnen") is a link on a line
    of its own, 17 px tall, 8 px under the "Played on paper" button. Every other control
    of the board is a 44 px target, and the app gives a link that stands alone (the
    eyebrow links) ``min-height: var(--tap)``; this one should be at least 44 px tall
    too (evenings/templates/evenings/_board_card.html, ``<p class="hint
    table-sheet-link"><a …>``; evenings/static/css/evenings.css, ``.table-sheet-link``
    sets only a margin)."""
    from evenings import services

    evening = services.evening_create(name="Christmas Preisskat", played_on=datetime.date.today())
    services.players_add(evening=evening, names=CLUB)
    services.series_draw(evening=evening, method="lot", seed=4711)
    context, page = _page(browser, PHONE, "dark")
    page.goto(f"{live_server.url}/en/e/{evening.organiser_token}/")
    links = page.locator(".table-sheet-link a")
    expect(links).to_have_count(3)
    screenshot(page, "audit-board-en-390-dark")
    boxes = [links.nth(i).bounding_box() for i in range(3)]
    sizes = [(round(b["width"]), round(b["height"])) for b in boxes]
    context.close()
    assert all(height >= 44 for _width, height in sizes), (
        f"'Open the sheet of table N' links are {sizes} (width, height) px; a finger needs 44"
    )


@pytest.mark.parametrize("language", ["de", "eo"])
def test_the_paper_foot_shows_every_box_of_a_player_on_a_phone(live_server, browser, language):
    """An organiser types a table's paper foot on a German (or Esperanto) phone: points,
    games won and games lost for each of three players, nine boxes. One box is refused
    ("Bernd: Gib eine ganze Zahl an."). The third column is cut off at the right edge of
    the panel: its heading reads "VERLO" ("PERDITA" in Esperanto) and the boxes for
    the games lost show only their left half, with nothing saying that the table scrolls
    sideways. In English ("Lost") all nine boxes fit. The longer headings "GEWONNEN" and
    "VERLOREN" (uppercase, letter-spaced, ``white-space: nowrap``) widen their columns
    beyond the 5.5 rem boxes (static/css/scorekeeper.css ``.tally-table th`` nowrap and
    ``.tally-table thead th`` uppercase; evenings/static/css/evenings.css ``.foot-input
    { width: 5.5rem }``; evenings/templates/evenings/paper.html). Every box of the form
    should be on screen at 390 px."""
    from evenings import services
    from evenings.models import EveningTable

    evening = services.evening_create(name="Christmas Preisskat", played_on=datetime.date.today())
    services.players_add(evening=evening, names=["Jörg", "Bernd", "Eva"])
    services.series_draw(evening=evening, method="lot", seed=4711)
    table = EveningTable.objects.get(series__evening=evening)
    context, page = _page(browser, PHONE, "light")
    page.goto(f"{live_server.url}/{language}/e/{evening.organiser_token}/tables/{table.pk}/paper")
    for seat in table.seats.select_related("player"):
        points = "12a" if seat.player.name == "Bernd" else "10"
        page.locator(f"input[name=points_{seat.player_id}]").fill(points)
        page.locator(f"input[name=won_{seat.player_id}]").fill("1")
        page.locator(f"input[name=lost_{seat.player_id}]").fill("0")
    page.locator("input[name^=lost_]").last.press("Enter")
    expect(page.locator(".error-box")).to_contain_text("Bernd")
    expect(page.locator("input[aria-invalid=true]")).to_have_count(1)
    screenshot(page, f"audit-paper-foot-{language}-390")
    box = page.locator(".foot-table").locator("xpath=..").bounding_box()
    right = box["x"] + box["width"]
    cut = page.locator("input[name^=lost_]").evaluate_all(
        """(inputs, right) => inputs.map((e) => e.getBoundingClientRect().right)
            .filter((r) => r > right + 0.5).map(Math.round)""",
        right,
    )
    context.close()
    assert cut == [], (
        f"the games-lost boxes end at x={cut}, past the visible edge of the foot at x={right:.0f}"
    )
