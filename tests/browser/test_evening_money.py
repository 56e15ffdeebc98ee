"""An evening's money settled at the table (issue 18): 11 players at phone size in
German, the fees set when the evening starts (typed as a German does: 6,00), each
player's entry marked paid in one tap, lost-game fees following the lists as they are
entered, a payment undone and marked again, the prize list, a player's own link and
the printed prize list with its payout sheet."""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from playwright.sync_api import expect

from evenings import accounts
from evenings.models import Evening, EveningTable, Payment
from tests.browser.conftest import _page
from tests.browser.support import SCREENSHOTS, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Frank", "Gabi", "Hans", "Ines", "Jörg", "Karl"]
PHONE = {"width": 390, "height": 844}


def _lose(sheet, declarer: int) -> None:
    from games import services as sheet_services

    sheet_services.hand_record(
        sheet=sheet,
        data={
            "declarer": declarer,
            "game": "clubs",
            "bid": 18,
            "matadors": {"with": 1},
            "outcome": "lost",
        },
    )


def test_an_evening_of_eleven_settles_its_money_at_phone_size(live_server, browser):
    base = live_server.url
    context, page = _page(browser, PHONE, "dark")
    page.goto(f"{base}/de/evenings/new/")
    page.get_by_label("Name des Abends").fill("Weihnachtsskat")
    page.get_by_label("Anzahl der Serien").fill("1")
    page.get_by_label("Spiele je Serie am Vierertisch").fill("4")
    page.get_by_label("Spiele je Serie am Dreiertisch").fill("3")
    page.locator("summary", has_text="Geld (optional)").click()
    page.get_by_label("Dieser Abend nimmt Geld ein").check()
    page.get_by_label("Startgeld", exact=True).fill("6,00")
    page.get_by_role("button", name="Abend beginnen").click()
    evening = Evening.objects.get()
    rules = accounts.rules_of(evening)
    assert (rules.entry_fee, [(t.start, t.amount) for t in rules.tiers]) == (
        D("6.00"),
        [(1, D("0.50")), (4, D("1.00"))],
    )
    for name in NAMES:
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_role("button", name="Hinzufügen", exact=True).click()
        expect(page.get_by_text(f"{name} steht auf der Teilnehmerliste.")).to_be_visible()

    # The entry fee at the door: one tap each, for ten of the eleven.
    page.get_by_role("link", name="Geld").click()
    expect(page.get_by_role("heading", name="Geld", exact=True)).to_be_visible()
    for name in NAMES[:10]:
        page.locator(f"li.money-row:has(summary:text-is('{name}'))").get_by_role("button").click()
        expect(page.get_by_text(f"{name} hat 6,00\u00a0€ bezahlt.")).to_be_visible()
    assert Payment.objects.count() == 10
    assert overflow(page) <= 0
    screenshot(page, "evening-money-390-dark-de")
    SCREENSHOTS.mkdir(exist_ok=True)
    page.locator("#players").screenshot(path=str(SCREENSHOTS / "evening-money-players-390.png"))

    # Series 1 is drawn; the tables lose games as declarer.
    page.get_by_role("link", name="Weihnachtsskat").click()
    page.get_by_role("button", name="Auslosen", exact=True).click()
    expect(page.get_by_text("Serie 1 ist ausgelost.")).to_be_visible()
    one = EveningTable.objects.get(series__evening=evening, number=1)
    for declarer in (1, 2, 3, 1):  # deal n: the dealer (seat n − 1) sits out
        _lose(one.sheet, declarer)
    loser = one.seats.get(position=1).player
    page.get_by_role("link", name="Geld").click()
    row = page.locator(f"li.money-row:has(summary:text-is('{loser.name}'))")
    # Two lost games as declarer: 2 × 0,50 € (and the entry fee, if not paid yet).
    owed = "1,00" if loser.name in NAMES[:10] else "7,00"
    expect(row.get_by_role("button")).to_have_text(f"{owed}\u00a0€ bezahlt")
    row.locator("summary").click()
    expect(row.locator(".steps")).to_contain_text(
        "Serie 1: 2 als Alleinspieler verlorene Spiele kosten 1,00\u00a0€."
    )

    # A payment marked by mistake is undone, and stays in the history.
    page.locator("#payments li").first.get_by_role("button", name="Rückgängig").click()
    expect(
        page.get_by_text(re.compile("Die Zahlung über 6,00\u00a0€ von .* ist rückgängig gemacht."))
    ).to_be_visible()
    expect(page.locator("#payments .undone")).to_have_count(1)

    # Everyone settles what is left.
    buttons = page.locator("#players button[form=money-post]")
    for left in range(buttons.count(), 0, -1):
        buttons.first.click()
        expect(buttons).to_have_count(left - 1)
    view = accounts.money_view(Evening.objects.get())
    assert all(line.settled for line in view.lines)
    assert view.box.outstanding == 0
    assert view.box.came_in == view.box.prizes + view.box.stays
    screenshot(page, "evening-money-settled-390-dark-de")
    page.locator("#payments").screenshot(path=str(SCREENSHOTS / "evening-money-payments-390.png"))
    page.locator("#prizes").screenshot(path=str(SCREENSHOTS / "evening-money-prizes-390.png"))

    # A player follows their own bill on their phone.
    player_context, phone = _page(browser, PHONE, "light")
    phone.goto(f"{base}/de/p/{loser.token}/")
    expect(phone.get_by_role("heading", name="Deine Rechnung")).to_be_visible()
    expect(phone.get_by_text("Beglichen")).to_be_visible()
    assert NAMES[0] not in phone.content() or loser.name == NAMES[0]
    screenshot(phone, "evening-own-390-light-de")

    # The prize list and its payout sheet, printed on A4.
    page.goto(f"{base}/de/e/{evening.organiser_token}/money/print")
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name="Drucken")).to_be_hidden()
    pdf = page.pdf(prefer_css_page_size=True)
    boxes = re.findall(rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", pdf)
    assert {(round(float(w)), round(float(h))) for w, h in boxes} == {(595, 842)}
    SCREENSHOTS.mkdir(exist_ok=True)
    (SCREENSHOTS / "evening-prize-list.pdf").write_bytes(pdf)
    for c in (context, player_context):
        c.close()
