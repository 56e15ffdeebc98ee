"""The rule book at phone size, in light and dark mode.

A player taps "rule" beside a line of a sheet's explanation and must land on that
section, its heading in view below the sticky top bar; the long pages must fit a
390 px phone without sideways scrolling, and every link a thumb needs is 44 px tall.
"""

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.support import SCREENSHOTS, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GAMES = [("skat", "Skat"), ("pitch", "10-Point Pitch"), ("manipulation", "Manipulation")]


def _small_tap_targets(page) -> list[str]:
    # Links a thumb aims at on its own (contents, "#" links, the way back); links inside a
    # sentence are read in place and may be as tall as the line.
    return page.evaluate(
        """() => [...document.querySelectorAll('.rb-toc a, .rb-anchor, .rb-crumbs a, .rb-books a, summary')]
            .filter(e => e.offsetParent !== null)
            .filter(e => e.getBoundingClientRect().height < 44)
            .map(e => e.outerHTML.slice(0, 80))"""
    )


def _in_view_below_the_top_bar(page, selector: str) -> bool:
    return page.evaluate(
        """(selector) => {
            const heading = document.querySelector(selector).getBoundingClientRect();
            const bar = document.querySelector('.topbar').getBoundingClientRect();
            return heading.top >= bar.bottom - 1 && heading.bottom <= window.innerHeight;
        }""",
        selector,
    )


def _viewport_picture(page, name: str) -> None:
    """What the phone shows right now (not the whole page): where a jump landed."""
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.mark.parametrize(("slug", "name"), GAMES)
def test_a_rule_page_fits_a_phone(live_server, phone, slug, name):
    phone.goto(f"{live_server.url}/en/rules/{slug}/")
    expect(phone.get_by_role("heading", level=1)).to_have_text(name)
    assert overflow(phone) <= 0
    assert _small_tap_targets(phone) == []
    # The panels follow the colour scheme, so the page is as dark as the rest of the app.
    panel = phone.evaluate(
        "getComputedStyle(document.querySelector('.rb-section')).backgroundColor"
    )
    channels = [int(c) for c in panel.removeprefix("rgb(").removesuffix(")").split(",")]
    assert (max(channels) < 60) if phone.color_scheme == "dark" else (min(channels) > 200)
    screenshot(phone, f"rulebook-{slug}-{phone.color_scheme}")


def test_the_contents_and_the_hash_links_jump_to_their_sections(live_server, phone):
    phone.goto(f"{live_server.url}/en/rules/skat/")
    phone.locator(".rb-toc").get_by_role("link", name="Overbidding", exact=True).click()
    phone.wait_for_url("**/rules/skat/#skat-overbid")
    assert _in_view_below_the_top_bar(phone, "#skat-overbid h3")
    # The "#" beside a heading puts the section's own address in the bar, ready to share.
    phone.locator("#skat-ramsch .rb-anchor").click()
    phone.wait_for_url("**/rules/skat/#skat-ramsch")
    assert _in_view_below_the_top_bar(phone, "#skat-ramsch h3")
    assert phone.evaluate("document.querySelector(':target').id") == "skat-ramsch"
    _viewport_picture(phone, f"rulebook-skat-ramsch-{phone.color_scheme}")


def test_the_index_reaches_each_game_in_one_tap(live_server, phone):
    for slug, name in GAMES:
        phone.goto(f"{live_server.url}/en/rules/")
        assert overflow(phone) <= 0
        phone.get_by_role("link", name=f"{name} rules", exact=True).click()
        phone.wait_for_url(f"**/rules/{slug}/")
        expect(phone.get_by_role("heading", level=1)).to_have_text(name)
    phone.goto(f"{live_server.url}/en/rules/")
    assert _small_tap_targets(phone) == []
    screenshot(phone, f"rulebook-index-{phone.color_scheme}")


def test_a_rule_link_on_a_sheet_opens_its_section(live_server, phone):
    # Ben's Grand Hand with 2, won: (2 + 1 + 1) × 24 = 96, matadors counted "with 2".
    sheet = services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    services.hand_record(
        sheet=sheet,
        data={
            "declarer": 1,
            "game": "grand",
            "bid": 48,
            "hand": True,
            "matadors": {"with": 2},
            "outcome": "won",
        },
    )
    phone.goto(f"{live_server.url}/en/s/{sheet.edit_token}/")
    deal = phone.locator("#deal-1")
    deal.locator("summary").click()
    expect(deal.get_by_text("Matadors: with 2.")).to_be_visible()
    deal.locator(".explanation").scroll_into_view_if_needed()
    _viewport_picture(phone, f"rulebook-from-sheet-{phone.color_scheme}")
    deal.locator('a.rule-link[href="/en/rules/skat/#skat-matadors"]').click()
    phone.wait_for_url("**/rules/skat/#skat-matadors")
    heading = phone.locator("#skat-matadors h3")
    expect(heading).to_contain_text("Matadors")
    assert _in_view_below_the_top_bar(phone, "#skat-matadors h3")
    assert overflow(phone) <= 0
    _viewport_picture(phone, f"rulebook-jump-matadors-{phone.color_scheme}")
