"""Browser tests: Playwright driving Debian's Chromium (never a downloaded browser).

Chromium comes from the `chromium` package (`make test` installs it when it runs as
root). Without it these tests are skipped on a developer's machine and fail in CI.
"""

import os
import shutil
import threading
import time
import zlib
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture(autouse=True)
def _minified_static(settings):
    """Scripts and style sheets as ``make run`` serves them: minified (tests/browser/minified.py)."""
    settings.STATICFILES_FINDERS = [
        "tests.browser.minified.MinifiedFinder",
        "django.contrib.staticfiles.finders.AppDirectoriesFinder",
    ]


@pytest.fixture(autouse=True)
def _static_files_kept_as_make_run_keeps_them(monkeypatch):
    """The live server's static files carry the cache lifetime ``make run`` gives them.

    ``make run`` serves hashed names through WhiteNoise with a lifetime of ten years
    (``immutable``): a phone fetches each script and style sheet once. The live server of
    the tests serves them unhashed through Django's ``static.serve``, which gives no
    lifetime, so Chromium asked for all ten again on every page of a test (``304``s,
    about a tenth of a second a page on a loaded machine) where a phone asks for none.
    """
    from django.contrib.staticfiles.handlers import StaticFilesHandler

    serve = StaticFilesHandler.serve

    def serve_kept(self, request):
        response = serve(self, request)
        if response.status_code == 200:
            response["Cache-Control"] = "max-age=315360000, public, immutable"
        return response

    monkeypatch.setattr(StaticFilesHandler, "serve", serve_kept)


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


@pytest.fixture(autouse=True)
def _quiet_server_before_flush(request):
    """Every page is closed and the live server has answered its last request before the
    test's database is emptied.

    A transactional test ends with a flush (TRUNCATE on PostgreSQL). A request the page
    sent last (a deferred fetch, a poll, a beacon) could still be running in a live-server
    thread with locks of its own; TRUNCATE then waited on it while it waited on
    TRUNCATE, PostgreSQL broke the deadlock by failing the flush, and the next test
    errored ("couldn't be flushed", CI of stop 27). This fixture is set up after the
    plugin's database fixtures, so its teardown runs before theirs.
    """
    yield
    if "browser" not in request.fixturenames:
        return
    browser = request.getfixturevalue("browser")
    for context in list(browser.contexts):
        context.close()
    # socketserver names each request thread after its target; a closed page closes its
    # keep-alive connections, so these threads end once their request is answered.
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        busy = [
            thread
            for thread in threading.enumerate()
            if "process_request_thread" in thread.name and thread.is_alive()
        ]
        if not busy:
            return
        busy[0].join(timeout=0.5)
    pytest.fail("the live server was still answering requests 30 s after the pages closed")


def _page(browser, viewport, color_scheme, request=None):
    # The service worker fetches every style sheet, script and icon of the app into its
    # cache when a page first registers it: work for the browser and the live server in
    # every test. Only the tests marked service_worker (the offline ones) let it run.
    workers = request is not None and request.node.get_closest_marker("service_worker")
    context = browser.new_context(
        viewport=viewport,
        color_scheme=color_scheme,
        device_scale_factor=1,
        service_workers="allow" if workers else "block",
        # No pulsing dot or sliding switch to paint frame after frame (the app honours
        # the setting: scorekeeper.css); nothing here waits for an animation.
        reduced_motion="reduce",
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


# Each phone test runs in one colour scheme, light or dark by its name (about half of
# them each), so that `make test` stays within its time; the accessibility tests check
# every screen in both. BROWSER_SCHEMES=both runs every phone test in both schemes
# (for a full set of screenshots).
SCHEMES = ["light", "dark"] if os.environ.get("BROWSER_SCHEMES") == "both" else ["phone"]


@pytest.fixture(params=SCHEMES)
def phone(browser, request):
    scheme = request.param
    if scheme == "phone":
        name = request.node.originalname or request.node.name
        scheme = ("light", "dark")[zlib.crc32(name.encode()) % 2]
    context, page = _page(browser, PHONE, scheme, request)
    page.color_scheme = scheme
    yield page
    context.close()


@pytest.fixture
def desktop(browser, request):
    context, page = _page(browser, DESKTOP, "light", request)
    yield page
    context.close()
