"""What the browser tests share besides fixtures."""

import re
from pathlib import Path

from playwright.sync_api import expect

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def screenshot(page, name: str) -> Path:
    """Keep a screenshot for a person to look at (screenshots/ is not committed)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def overflow(page) -> int:
    """How far the page is wider than the screen (0 or less: no sideways scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def fits_and_taps(page, name: str) -> None:
    """No sideways scrolling, and every tap target at least 44 px high (a radio
    button's target is its label; a checkbox sits in its label's line).

    A target counts when it shows as Playwright's ``is_visible`` has it (a box that is
    not empty, and not ``visibility: hidden``); all of them are measured in the page at
    once, and every one that is too small is named."""
    assert overflow(page) <= 0, name
    targets = (
        "main button, main a.button, main input:not([type=radio]), main select,"
        " main label:has(> input[type=radio])"
    )
    too_small = page.evaluate(
        """(targets) => [...document.querySelectorAll(targets)]
            .filter((e) => {
              const box = e.getBoundingClientRect();
              return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== "hidden";
            })
            .filter((e) => e.getBoundingClientRect().height < 44 && e.getAttribute("type") !== "checkbox")
            .map((e) => e.outerHTML.slice(0, 120))""",
        targets,
    )
    assert too_small == [], (name, too_small)


def shown(number: int) -> re.Pattern:
    """The number exactly, its minus sign written either way (- or −)."""
    return re.compile(rf"^{'[-−]' if number < 0 else ''}{abs(number)}$")


def mark_page(page) -> None:
    """A value that only survives if saving swaps part of the page instead of reloading it."""
    page.evaluate("window.sheetNotReloaded = true")


def not_reloaded(page) -> bool:
    return page.evaluate("window.sheetNotReloaded === true")


def sheet_picture(page, name: str) -> None:
    """A full-page screenshot from the top, so the sticky totals sit where they belong."""
    assert overflow(page) <= 0
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, name)


def expect_totals(page, *totals: int, timeout: int = 10_000) -> None:
    """The running totals at the top of a sheet, exactly (Pitch: team A, then team B)."""
    for column, total in enumerate(totals):
        expect(page.get_by_test_id(f"total-{column}")).to_have_text(shown(total), timeout=timeout)


def let_time_pass(page, seconds: float) -> None:
    """``seconds`` pass at once on the page's clock (``page.clock.install()`` before the
    page was opened): what the page does on a timer (a poll, a retry) happens now, as it
    would after that wait, instead of the test sitting through it. The clock keeps
    running on its own, so whatever the timer starts (a request, its swap) runs as usual."""
    page.clock.fast_forward(int(seconds * 1000))
