"""What the browser tests share besides fixtures."""

import re
from pathlib import Path

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


def shown(number: int) -> re.Pattern:
    """The number exactly, its minus sign written either way (- or −)."""
    return re.compile(rf"^{'[-−]' if number < 0 else ''}{abs(number)}$")


def mark_page(page) -> None:
    """A value that only survives if saving swaps part of the page instead of reloading it."""
    page.evaluate("window.sheetNotReloaded = true")


def not_reloaded(page) -> bool:
    return page.evaluate("window.sheetNotReloaded === true")
