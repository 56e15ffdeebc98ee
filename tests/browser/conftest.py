"""Browser tests: Playwright driving Debian's Chromium (never a downloaded browser).

Chromium comes from the `chromium` package (`make test` installs it when it runs as
root). Without it these tests are skipped on a developer's machine and fail in CI.
"""

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium is not installed at {CHROMIUM}; apt-get install chromium")
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import expect, sync_playwright

    # A loaded two-core machine can take a few seconds for a swap; a person would wait too.
    expect.set_options(timeout=10_000)

    # Playwright's sync API runs an event loop in this thread; the live server's
    # database work happens in its own thread, so Django's async guard does not apply.
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()
    if before is None:
        del os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"]
    else:
        os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


def _page(browser, viewport, color_scheme):
    context = browser.new_context(
        viewport=viewport, color_scheme=color_scheme, device_scale_factor=1
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


@pytest.fixture(params=["light", "dark"])
def phone(browser, request):
    context, page = _page(browser, PHONE, request.param)
    page.color_scheme = request.param
    yield page
    context.close()


@pytest.fixture
def desktop(browser):
    context, page = _page(browser, DESKTOP, "light")
    yield page
    context.close()
