"""The pages at phone size, in light and dark mode (design: "Phone first")."""

import pytest

from tests.browser.support import overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _small_tap_targets(page) -> list[str]:
    # Every link and button a thumb might need is at least 44 px tall.
    return page.evaluate(
        """() => [...document.querySelectorAll('a, button, summary')]
            .filter(e => e.offsetParent !== null && e.getBoundingClientRect().right > 0 && !e.closest('p, td'))
            .filter(e => e.getBoundingClientRect().height < 44)
            .map(e => e.outerHTML.slice(0, 80))"""
    )


def test_home_fits_a_phone_and_reaches_the_api_docs_in_one_tap(live_server, phone):
    phone.goto(live_server.url + "/en/")
    assert phone.title().startswith("Scorekeeper")
    assert overflow(phone) <= 0
    assert _small_tap_targets(phone) == []
    screenshot(phone, f"home-phone-{phone.color_scheme}")
    phone.get_by_role("link", name="JSON API", exact=True).click()
    phone.wait_for_url("**/api/")
    assert phone.get_by_role("heading", level=1).inner_text().startswith("The referee")
    assert overflow(phone) <= 0
    screenshot(phone, f"api-phone-{phone.color_scheme}")


def test_dark_mode_really_is_dark(live_server, phone):
    phone.goto(live_server.url + "/en/")
    background = phone.evaluate("getComputedStyle(document.body).backgroundColor")
    channels = [int(c) for c in background.removeprefix("rgb(").removesuffix(")").split(",")]
    if phone.color_scheme == "dark":
        assert max(channels) < 60
    else:
        assert min(channels) > 200


def test_api_docs_on_a_desktop(live_server, desktop):
    desktop.goto(live_server.url + "/en/api/")
    desktop.get_by_role("link", name="10-Point Pitch").click()
    assert desktop.url.endswith("#pitch")
    assert desktop.locator("#pitch-hand").is_visible()
    screenshot(desktop, "api-desktop")
    desktop.goto(live_server.url + "/en/")
    screenshot(desktop, "home-desktop")
