"""A deal kept on a sheet that a stricter rule refuses since it was saved.

The referee grew stricter (card points no cards can make, 1 or 119, were scored until
they were refused): a sheet saved before keeps such a deal, and a read that replays the
sheet past it raised a 500. Now it answers 409: a page that names the deal and why,
and from the edit link a button that takes the deal off (the history keeps it), and
the JSON API the problems under ``hands.<i>``.
"""

from __future__ import annotations

import pytest

from games import services
from games.models import Hand, SheetEvent, SheetSnapshot

pytestmark = pytest.mark.django_db

WON = {"game": "clubs", "bid": 18, "matadors": {"with": 1}}
WHY = "119 would leave the defenders exactly 1 card point, and no card is worth 1."


@pytest.fixture
def sheet():
    sheet = services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    for declarer in (0, 1, 2):
        services.hand_record(
            sheet=sheet,
            data={**WON, "declarer": declarer, "declarer_points": 70, "declarer_tricks": 6},
        )
    # Deal 2 as a sheet saved before the rule would keep it; no kept engine (as after
    # an upgrade that changes what is kept), so reading the sheet replays every deal.
    second = Hand.objects.get(sheet=sheet, number=2)
    Hand.objects.filter(pk=second.pk).update(
        entry={**second.entry, "declarer_points": 119, "declarer_tricks": 9}
    )
    SheetSnapshot.objects.filter(sheet=sheet).delete()
    sheet.refresh_from_db()
    return sheet


def test_the_pages_say_which_deal_and_why_instead_of_failing(client, sheet):
    for url in (sheet.get_absolute_url(), sheet.get_absolute_url() + "sheet.csv"):
        page = client.get(url)
        assert page.status_code == 409, url
        text = page.content.decode()
        assert "Deal 2 no longer fits the rules" in text
        assert WHY in text
        assert "Take deal 2 off" in text
    viewed = client.get(sheet.get_view_url())
    assert viewed.status_code == 409
    assert WHY in viewed.content.decode()
    assert "Take deal 2 off" not in viewed.content.decode()
    assert "from its edit link" in viewed.content.decode()


def test_taking_the_deal_off_brings_the_sheet_back(client, sheet):
    second = Hand.objects.get(sheet=sheet, number=2)
    taken = client.post(
        f"/en/s/{sheet.edit_token}/deals/2/delete",
        {"hand": second.pk, "version": sheet.version},
    )
    assert taken.status_code == 302
    page = client.get(sheet.get_absolute_url())
    assert page.status_code == 200
    assert Hand.objects.filter(sheet=sheet, removed_at__isnull=True).count() == 2
    # The history keeps the deal taken off, as it was entered.
    event = SheetEvent.objects.get(sheet=sheet, kind=SheetEvent.REMOVED)
    assert (event.number, event.before["declarer_points"]) == (2, 119)


def test_the_api_answers_409_with_the_deal_named(client, sheet):
    answer = client.get(
        f"/api/v1/sheets/{sheet.pk}", HTTP_AUTHORIZATION=f"Bearer {sheet.edit_token}"
    )
    assert answer.status_code == 409
    assert answer.json()["errors"] == [{"field": "hands.1.declarer_points", "message": WHY}]


def test_the_page_is_in_the_readers_language(client, sheet):
    page = client.get(f"/de/s/{sheet.edit_token}/")
    assert page.status_code == 409
    text = page.content.decode()
    assert "Spiel 2 passt nicht mehr zu den Regeln" in text
    assert "119 ließe den Gegenspielern genau 1 Auge" in text
