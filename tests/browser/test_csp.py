"""The pages work under the strict Content Security Policy: Chromium refuses nothing.

Chromium reports each refusal twice: as a console error ("Refused to …", in newer
versions "Executing inline script violates the following Content Security Policy
directive …") and as a ``securitypolicyviolation`` event. Both are collected; the
listener comes through Playwright's init script, which the browser injects itself
(the page's policy does not apply to it).
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import expect

from tests.browser.support import expect_totals
from tests.browser.test_sheet_skat import _declare, _matadors, _result, _save

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LISTEN = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = event.target && event.target.id ? "#" + event.target.id : "";
  window.__violations.push(`${event.violatedDirective} ${event.blockedURI} ${where}`.trim());
});
"""


def _watch(page) -> list[str]:
    console: list[str] = []

    def keep(message) -> None:
        text = message.text
        if text.startswith("Refused to") or "Content Security Policy" in text:
            console.append(text)

    page.on("console", keep)
    page.add_init_script(LISTEN)
    return console


def _refusals(page, console: list[str]) -> list[str]:
    return [*console, *page.evaluate("window.__violations || []")]


def _assert_none(page, console: list[str]) -> None:
    assert _refusals(page, console) == []


def test_the_home_page_runs_htmx_without_a_refusal(live_server, desktop):
    console = _watch(desktop)
    desktop.goto(live_server.url + "/en/")
    desktop.wait_for_function("window.htmx !== undefined")
    # htmx read its configuration: no <style> of its own, no eval.
    assert desktop.evaluate("htmx.config.includeIndicatorStyles") is False
    assert desktop.evaluate("htmx.config.allowEval") is False
    assert desktop.evaluate("document.querySelectorAll('style').length") == 0
    _assert_none(desktop, console)


def test_a_sheet_entered_through_htmx_without_a_refusal(live_server, phone):
    console = _watch(phone)
    phone.goto(live_server.url + "/en/new/skat/")
    for seat, name in enumerate(("Ali", "Bea", "Cleo")):
        phone.locator(f"input[name=player_{seat}]").fill(name)
    phone.get_by_role("button", name="Start the sheet").click()
    phone.wait_for_url("**/s/*/")
    # One deal, with the live preview and the board swapped in by htmx.
    _declare(phone, declarer="Bea", game="Grand", bid="24")
    _matadors(phone, "With", 1)
    _result(phone, "One tap", "Won")
    expect(phone.locator("#preview .preview-summary")).to_have_text("Bea: Grand with 1, won, +48")
    _save(phone, 1)
    expect_totals(phone, 0, 48, 0)
    expect(phone.get_by_role("heading", name="Deal 2")).to_be_visible()
    _assert_none(phone, console)


def test_the_standings_page_without_a_refusal(live_server, desktop):
    from django.contrib.auth.models import User

    from circles import services as circle_services
    from games import services

    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    today = datetime.date.today()
    season = circle_services.season_save(
        circle=circle,
        data={
            "name": "This season",
            "starts_on": today - datetime.timedelta(days=10),
            "ends_on": today + datetime.timedelta(days=10),
        },
    )
    won = {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
    for _ in range(2):
        sheet = circle_services.sheet_create_in_circle(
            circle=circle,
            game="skat",
            players=["Olga", "Max", "Nina"],
            options={"series_deals": 1},
            owner=owner,
        )
        services.hand_record(sheet=sheet, data=won)
    console = _watch(desktop)
    desktop.goto(f"{live_server.url}/en/standings/{season.view_token}/")
    expect(desktop.get_by_role("heading", name="This season")).to_be_visible()
    desktop.wait_for_function("window.htmx !== undefined")
    _assert_none(desktop, console)
