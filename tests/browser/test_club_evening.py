"""A whole club evening at phone size (issue 17, "Measured"): 11 players at tables of
four, four and three; two phones entering deals at the same time and one table on
paper; sign-off; a seeded draw of the next series, and the big screen switching from
the ranking to the next seating by itself. Shortened series (4 deals at four, 3 at
three: multiples of the table size, rule "evening-tables") keep it short."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from evenings.models import Evening, EveningTable
from tests.browser.conftest import _page
from tests.browser.support import fits_and_taps, let_time_pass, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Frank", "Gabi", "Hans", "Ines", "Jörg", "Karl"]
PHONE = {"width": 390, "height": 844}


def _radio(page, name: str, value: str):
    return page.locator(f"label:has(> input[name='{name}'][value='{value}'])")


def test_a_whole_club_evening_at_phone_size(live_server, browser):
    base = live_server.url
    organiser_context, board = _page(browser, PHONE, "light")
    board.goto(f"{base}/en/evenings/new/")
    board.get_by_label("Name of the evening").fill("Club night")
    board.get_by_label("Number of series").fill("2")
    board.get_by_label("Deals per series at a table of four").fill("4")
    board.get_by_label("Deals per series at a table of three").fill("3")
    board.get_by_role("button", name="Start the evening").click()
    expect(board.get_by_role("heading", name="Club night")).to_be_visible()
    evening = Evening.objects.get()

    # The roll: two taps a player (the name, then Add).
    for name in NAMES:
        board.get_by_label("Name", exact=True).fill(name)
        board.get_by_role("button", name="Add", exact=True).click()
        expect(board.get_by_text(f"{name} is on the roll.")).to_be_visible()
    expect(board.get_by_role("heading", name="The roll: 11 players")).to_be_visible()
    screenshot(board, "evening-roll-390-light")

    # Series 1 by lot, with the seed typed so that anyone can check it.
    board.get_by_label("Seed", exact=True).fill("4711")
    board.get_by_role("button", name="Draw", exact=True).click()
    expect(board.get_by_text("Drawn by lot with seed 4711")).to_be_visible()
    tables = list(EveningTable.objects.filter(series__number=1).order_by("number"))
    assert [t.size for t in tables] == [4, 4, 3]
    assert overflow(board) <= 0
    screenshot(board, "evening-board-390-light")

    # The big screen shows the seating until a table enters its first deal.
    screen_context, screen = _page(browser, {"width": 1920, "height": 1080}, "dark")
    # The screen polls every 10 s; the test lets those seconds pass on its clock.
    screen.clock.install()
    screen.goto(f"{base}/en/r/{evening.view_token}/screen")
    expect(screen.locator("[data-mode=seating]")).to_be_visible()
    assert screen.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    screenshot(screen, "evening-screen-seating-1920")

    # Two phones enter deals at the same time at tables 1 and 2.
    phones = [_page(browser, PHONE, scheme) for scheme in ("light", "dark")]
    # Each table's phone opens the link the organiser's phone shows as a QR code (a
    # page of its own per table, with the next table one tap away).
    board.get_by_role("link", name="Show its QR code").first.click()
    expect(board.get_by_role("heading", name="Table 1 · series 1")).to_be_visible()
    assert board.locator(".qr-large svg").bounding_box()["width"] >= 300
    screenshot(board, "evening-table-qr-390-light")
    links = [board.locator("#table-link").get_attribute("href")]
    board.get_by_role("link", name="Table 2 →").click()
    links.append(board.locator("#table-link").get_attribute("href"))
    assert links == [base + t.sheet.get_absolute_url() for t in tables[:2]]
    # Playwright's sync pages belong to this thread: enter deal by deal in turns instead.
    for (_context, page), link in zip(phones, links, strict=True):
        page.goto(link)
        page.wait_for_selector("form.entry-form.is-enhanced")
    for number in range(1, 5):
        for _context, page in phones:
            _radio(page, "declarer", str(number % 4)).click()
            _radio(page, "game", "grand").click()
            _radio(page, "matadors_tap", "with-1").click()
        # Both phones send their deal before either answer is awaited.
        for _context, page in phones:
            page.get_by_role("button", name=f"Save deal {number}").click()
        for _context, page in phones:
            expect(page.locator("#deal-list > li")).to_have_count(number)
    for table in tables[:2]:
        table.refresh_from_db()
        assert (table.deals, table.done) == (4, True)
    screenshot(phones[0][1], "evening-table-phone-390-light")

    # The big screen switches to the live ranking by itself, at its next poll.
    let_time_pass(screen, 10)
    expect(screen.locator("[data-mode=ranking]")).to_be_visible()
    screenshot(screen, "evening-screen-ranking-1920")

    # Table 3 played on paper: the organiser types its rows.
    board.goto(f"{base}/en/e/{evening.organiser_token}/")
    board.get_by_role("link", name="Played on paper: type the result").click()
    paper = tables[2]
    first = paper.seats.get(position=0).player.name
    board.get_by_label(re.compile("One row a line")).fill(f"{first} 48\n2 -96\n{first} 25")
    board.get_by_role("button", name="Save the result").click()
    expect(board.locator(".error-box")).to_contain_text("Row 3")
    screenshot(board, "evening-paper-refused-390-light")
    board.get_by_label(re.compile("One row a line")).fill(f"{first} 48\n2 -96\n3 24")
    board.get_by_role("button", name="Save the result").click()
    expect(board.get_by_text("Table 3's result is in.")).to_be_visible()

    # Sign-off: table 1's players each tap their name on its phone.
    _context, phone = phones[0]
    phone.get_by_role("link", name="Sign the series").click()
    for seat in tables[0].seats.select_related("player"):
        phone.get_by_role("button", name=f"{seat.player.name} signs").click()
        expect(phone.get_by_text(f"{seat.player.name} has signed.")).to_be_visible()
    expect(phone.get_by_text("Everyone at the table has signed.")).to_be_visible()
    screenshot(phone, "evening-signed-390-light")
    # Tables 2 and 3: the organiser marks them signed.
    board.goto(f"{base}/en/e/{evening.organiser_token}/")
    for _ in range(2):
        board.get_by_role("button", name="Mark as signed").first.click()
        expect(board.get_by_text(re.compile(r"Table \d is signed\."))).to_be_visible()
    assert all(t.signed_at for t in EveningTable.objects.filter(series__number=1))

    # Series 2, seeded by the ranking so far: places 1–4 at table 1.
    _radio(board, "method", "seeded").click()
    board.get_by_role("button", name="Draw", exact=True).click()
    expect(board.get_by_text("Series 2 is drawn.")).to_be_visible()
    screenshot(board, "evening-board-series-2-390-light")
    # The big screen switches to the next series' seating by itself, at its next poll.
    let_time_pass(screen, 10)
    expect(screen.locator("[data-mode=seating]")).to_be_visible()
    expect(screen.get_by_text("Series 2: the seating")).to_be_visible()
    screenshot(screen, "evening-screen-series-2-1920")

    # The players follow the ranking on their phones.
    _context, reader = phones[1]
    reader.goto(f"{base}/de/r/{evening.view_token}/")
    expect(reader.get_by_role("heading", name="Serie 1")).to_be_visible()
    # A tap on the leader's name opens how the total comes about, in place.
    leader = reader.locator("#ranking-total ~ ol details").first
    leader.locator("summary").click()
    expect(leader.locator(".steps-total")).to_contain_text("Platz 1 mit")
    expect(leader.locator(".steps li").first).to_be_visible()
    assert overflow(reader) <= 0
    screenshot(reader, "evening-ranking-390-dark-de")
    for context in (*(c for c, _p in phones), screen_context, organiser_context):
        context.close()


def _evening_in_play():
    """An evening of 7 (a table of four and one of three) with a deal entered, one
    table done on paper, and a change after signing."""
    import datetime

    from evenings import services
    from games import services as sheet_services

    evening = services.evening_create(
        name="Christmas Preisskat",
        played_on=datetime.date.today(),
        series_deals={"3": 3},
        money={
            "entry_fee": "6.00",
            "lost_game_fees": [{"from": 1, "amount": "0.50"}, {"from": 4, "amount": "1.00"}],
            "payout": {"series_prize": "2.00"},
        },
    )
    services.players_add(evening=evening, names=NAMES[:7])
    for player, team in zip(
        evening.players.order_by("pk"), ["North", "North", "South", "South"], strict=False
    ):
        services.player_update(
            evening=evening, player=player, team=team, tags="women" if player.pk % 2 else ""
        )
    services.series_draw(evening=evening, method="lot", seed=4711)
    four, three = EveningTable.objects.filter(series__evening=evening).order_by("number")
    sheet_services.hand_record(
        sheet=four.sheet,
        data={"declarer": 1, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"},
    )
    a, b, _c = (s.player_id for s in three.seats.all())
    services.table_paper_result(
        table=three, rows=[{"declarer": a, "value": 48}, {"declarer": b, "value": -96}]
    )
    return evening, three


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", [PHONE, {"width": 1280, "height": 800}], ids=["390", "1280"])
def test_the_evening_pages_fit_the_screen(live_server, browser, scheme, size):
    evening, paper = _evening_in_play()
    context, page = _page(browser, size, scheme)
    width = size["width"]
    pages = {
        "board": f"/en/e/{evening.organiser_token}/",
        "ranking": f"/en/r/{evening.view_token}/",
        "paper": f"/en/e/{evening.organiser_token}/tables/{paper.pk}/paper",
        "sign": f"/en/t/{paper.sheet.edit_token}/sign",
        "new": "/en/evenings/new/",
        "rules": "/en/evenings/rules/",
        "money": f"/en/e/{evening.organiser_token}/money/",
        "money-rules": f"/en/e/{evening.organiser_token}/money/rules",
        "own": f"/en/p/{evening.players.first().token}/",
        "player": f"/en/e/{evening.organiser_token}/players/{evening.players.first().pk}/",
    }
    for name, path in pages.items():
        page.goto(live_server.url + path)
        fits_and_taps(page, name)
        screenshot(page, f"evening-{name}-{width}-{scheme}")
    context.close()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_big_screen_fits_without_scrolling(live_server, browser, size):
    from evenings import services

    evening, _paper = _evening_in_play()
    services.players_add(evening=evening, names=[f"Guest {i}" for i in range(1, 34)])
    context, page = _page(browser, {"width": size[0], "height": size[1]}, "dark")
    page.goto(f"{live_server.url}/en/r/{evening.view_token}/screen")
    expect(page.locator("[data-mode=ranking]")).to_be_visible()
    fits = "document.documentElement.scrollHeight <= window.innerHeight"
    assert page.evaluate(fits)
    assert overflow(page) <= 0
    # No controls: nothing to tap, nothing to type.
    assert page.locator("a, button, input, select, form").count() == 0
    screenshot(page, f"evening-screen-{size[0]}")
    context.close()


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720)])
def test_the_big_screen_seats_ten_tables_without_scrolling(live_server, browser, size):
    import datetime

    from evenings import services

    evening = services.evening_create(name="Open Preisskat", played_on=datetime.date.today())
    services.players_add(evening=evening, names=[f"Player number {i}" for i in range(1, 41)])
    services.series_draw(evening=evening, method="lot", seed=1)
    context, page = _page(browser, {"width": size[0], "height": size[1]}, "dark")
    page.goto(f"{live_server.url}/en/r/{evening.view_token}/screen")
    expect(page.locator("[data-mode=seating]")).to_be_visible()
    expect(page.locator(".screen-table")).to_have_count(10)
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    last = page.locator(".screen-table").last.bounding_box()
    assert last["y"] + last["height"] <= size[1]
    screenshot(page, f"evening-screen-seating-10-{size[0]}")
    context.close()


def test_the_seating_list_and_table_cards_print_on_a4(live_server, browser):
    import shutil
    import subprocess

    from tests.browser.support import SCREENSHOTS

    evening, _paper = _evening_in_play()
    context, page = _page(browser, {"width": 1280, "height": 800}, "light")
    page.goto(f"{live_server.url}/en/e/{evening.organiser_token}/series/1/print")
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    page.emulate_media(media="print")
    pdf = page.pdf(prefer_css_page_size=True)
    assert pdf.startswith(b"%PDF")
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    # A4 upright: the seating list, then the two table cards on one page.
    assert [(round(float(w)), round(float(h))) for w, h in boxes] == [(595, 842)] * 2
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / "evening-print-series.pdf"
    path.write_bytes(pdf)
    if shutil.which("pdftoppm"):
        subprocess.run(
            ["pdftoppm", "-png", "-r", "60", str(path), str(SCREENSHOTS / "evening-print-series")],
            check=True,
            timeout=60,
        )
    context.close()


def test_the_evenings_list_prints_alone_on_a4(live_server, browser):
    import shutil
    import subprocess

    from tests.browser.support import SCREENSHOTS

    evening, _paper = _evening_in_play()
    context, page = _page(browser, {"width": 1280, "height": 800}, "dark")
    page.goto(f"{live_server.url}/en/r/{evening.view_token}/")
    page.get_by_role("link", name="The evening's list, to print").click()
    expect(page.get_by_role("button", name="Print")).to_be_visible()
    page.emulate_media(media="print")
    # The print style sheet (media="print") may still be on its way: wait for it.
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    expect(page.locator(".list-actions")).to_be_hidden()
    expect(page.locator(".overall-table")).to_be_visible()
    pdf = page.pdf(prefer_css_page_size=True)
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    assert [(round(float(w)), round(float(h))) for w, h in boxes] == [(595, 842)]
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / "evening-print-list.pdf"
    path.write_bytes(pdf)
    if shutil.which("pdftoppm"):
        subprocess.run(
            ["pdftoppm", "-png", "-r", "60", str(path), str(SCREENSHOTS / "evening-print-list")],
            check=True,
            timeout=60,
        )
    context.close()
