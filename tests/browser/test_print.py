"""The printed Skat list (Spielliste) from the browser's print: A4, black and white.

Chromium prints each list to PDF (``page.pdf``, what "Save as PDF" in its print
dialog makes); the first page goes to a PNG with pdftoppm (poppler-utils) for a person
to look at, where pdftoppm is installed. On screen the list is a page like any other:
its table scrolls inside its box on a phone, and "Print" opens the print dialog.
"""

import re
import shutil
import subprocess

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.conftest import PHONE
from tests.browser.support import SCREENSHOTS, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# A4 in PostScript points: 595 × 842.
A4 = (595, 842)

DEALS = [
    {
        "declarer": 1,
        "game": "grand",
        "bid": 18,
        "hand": True,
        "matadors": {"with": 2},
        "outcome": "won_schneider",
    },
    {"declarer": 2, "game": "clubs", "bid": 18, "matadors": {"against": 3}, "outcome": "lost"},
    {"declarer": 3, "game": "hearts", "bid": 20, "matadors": {"with": 1}, "outcome": "won"},
    {"passed": True},
    {"declarer": 1, "game": "null", "bid": 35, "hand": True, "outcome": "won"},
    {"declarer": 3, "value": -72},
    {"declarer": 0, "value": 48},
    {
        "declarer": 2,
        "game": "grand",
        "bid": 18,
        "hand": True,
        "ouvert": True,
        "matadors": {"with": 1},
        "outcome": "won_schwarz",
    },
    {"declarer": 1, "game": "spades", "bid": 22, "matadors": {"with": 1}, "outcome": "won"},
]


def _sheet():
    sheet = services.sheet_create(
        game="skat",
        players=["Anneliese", "Bernhard", "Cem", "Dorothea"],
        options={"bock": {"hundred_or_more": True}},
    )
    for deal in DEALS:
        services.hand_record(sheet=sheet, data=deal)
    sheet.refresh_from_db()
    return sheet


def _pages(pdf: bytes) -> list[tuple[float, float]]:
    """Each page's size in points, from the PDF's MediaBoxes."""
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    return [(float(w), float(h)) for w, h in boxes]


def _print(page, name: str) -> bytes:
    pdf = page.pdf(prefer_css_page_size=True)
    assert pdf.startswith(b"%PDF")
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.pdf"
    path.write_bytes(pdf)
    if shutil.which("pdftoppm"):
        # The first page as a person sees it, for looking at (not compared by the test).
        subprocess.run(
            ["pdftoppm", "-png", "-r", "110", "-f", "1", "-l", "1", "-singlefile", str(path),
             str(SCREENSHOTS / f"{name}-page1")],
            check=True,
            timeout=60,
        )  # fmt: skip
    return pdf


def _text(pdf_name: str) -> str | None:
    if not shutil.which("pdftotext"):
        return None
    out = subprocess.run(
        ["pdftotext", "-layout", str(SCREENSHOTS / f"{pdf_name}.pdf"), "-"],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return out.stdout


def test_a_filled_list_prints_on_a4_upright(live_server, desktop):
    sheet = _sheet()
    desktop.goto(f"{live_server.url}/en/v/{sheet.view_token}/list")
    expect(desktop.locator("table.spielliste")).to_be_visible()
    pdf = _print(desktop, "spielliste-filled")
    pages = _pages(pdf)
    # 48 rows and the foot: upright A4 pages, at most two.
    assert pages
    assert len(pages) <= 2
    assert all((round(w), round(h)) == A4 for w, h in pages)
    text = _text("spielliste-filled")
    if text is not None:
        # Nothing of the app around the list, and the foot with every player's total.
        assert "Scorekeeper keeps score" not in text
        assert "Print" not in text.split()
        assert "Final total" in text
        assert "Signature" in text
        for name in ("Anneliese", "Bernhard", "Cem", "Dorothea"):
            # The header repeats on every page.
            assert text.count(name) == len(pages), name


def test_a_blank_list_for_five_prints_on_a4_landscape(live_server, desktop):
    desktop.goto(f"{live_server.url}/de/rules/skat/list?players=5&deals=60")
    expect(desktop.locator("table.spielliste")).to_be_visible()
    pdf = _print(desktop, "spielliste-blank-5")
    pages = _pages(pdf)
    assert pages
    assert all((round(w), round(h)) == A4[::-1] for w, h in pages)
    text = _text("spielliste-blank-5")
    if text is not None:
        assert "Endsumme" in text
        assert "Grundwert" in text
        assert text.count("Grundwert") == len(pages)


def test_a_blank_list_for_four_prints_on_a4_upright(live_server, desktop):
    desktop.goto(f"{live_server.url}/de/rules/skat/list?players=4&deals=48")
    pdf = _print(desktop, "spielliste-blank-4")
    pages = _pages(pdf)
    assert all((round(w), round(h)) == A4 for w, h in pages)
    assert len(pages) <= 2


def test_the_list_on_a_phone_scrolls_inside_its_box_and_prints_from_its_button(
    live_server, browser
):
    sheet = _sheet()
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=PHONE, color_scheme=scheme, device_scale_factor=1)
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/en/s/{sheet.edit_token}/list")
            button = page.get_by_role("button", name="Print")
            expect(button).to_be_visible()
            assert overflow(page) <= 0
            box = page.locator(".list-box")
            assert box.evaluate("e => e.scrollWidth > e.clientWidth")
            assert button.bounding_box()["height"] >= 44
            page.evaluate("window.print = () => { window.printAsked = true; }")
            button.click()
            assert page.evaluate("window.printAsked === true")
            screenshot(page, f"spielliste-phone-{scheme}")
            # Scrolled to the players' columns: the row numbers stay in view.
            box.evaluate("e => { e.scrollLeft = e.scrollWidth; }")
            number = page.locator("tbody .c-nr").first.bounding_box()
            assert number["x"] >= box.bounding_box()["x"]
            page.screenshot(path=str(SCREENSHOTS / f"spielliste-phone-{scheme}-scrolled.png"))
        finally:
            context.close()


def test_the_list_on_a_desktop_light_and_dark(live_server, browser):
    sheet = _sheet()
    for scheme in ("light", "dark"):
        context = browser.new_context(
            viewport={"width": 1280, "height": 800}, color_scheme=scheme, device_scale_factor=1
        )
        try:
            page = context.new_page()
            page.goto(f"{live_server.url}/en/v/{sheet.view_token}/list")
            expect(page.get_by_role("button", name="Print")).to_be_visible()
            assert overflow(page) <= 0
            screenshot(page, f"spielliste-desktop-{scheme}")
        finally:
            context.close()


def test_a_blank_list_that_cannot_be_says_why_on_a_phone(live_server, phone):
    response = phone.goto(f"{live_server.url}/en/rules/skat/list?players=6&deals=50")
    assert response.status == 400
    expect(phone.get_by_role("alert")).to_contain_text(
        "A Skat list is printed for a table of 3, 4 or 5 players; got"
    )
    assert overflow(phone) <= 0
    screenshot(phone, "spielliste-refused-phone")
    # Putting it right with the form shows the list.
    phone.get_by_label("Players at the table").select_option("5")
    phone.get_by_label("Deals in the series").fill("60")
    phone.get_by_role("button", name="Show the list").click()
    expect(phone.locator("tbody tr.row-blank")).to_have_count(60)
    screenshot(phone, "spielliste-blank-phone")
