"""What the browser tests share besides fixtures."""

from pathlib import Path

SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"


def screenshot(page, name: str) -> Path:
    """Keep a screenshot for a person to look at (screenshots/ is not committed)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
