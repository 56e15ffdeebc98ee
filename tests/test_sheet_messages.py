"""What the sheet says after a change: a correction beside its deal (and when it moved
the win or ended the game), an undo in the undo bar with "bring back" naming the
deal, and a correction that ends a Pitch game earlier."""

from __future__ import annotations

import re

import pytest

from games import services, snapshots
from games.models import Sheet, SheetEvent
from games.selectors import live_hands

pytestmark = pytest.mark.django_db

THREE = ["Ana", "Ben", "Cem"]
FOUR = ["Ana", "Ben", "Cem", "Dan"]
POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")
# Team A (Ana & Cem) takes ace, jack, off-jack and both jokers (5), team B the rest (5).
A_TAKES_5 = {"ace": "A", "jack": "A", "off_jack": "A", "high_joker": "A", "low_joker": "A"}
B_TAKES_3 = {"ten": "B", "two": "B", "three": "B"}
A_MAKES_4 = {"pitcher": 0, "bid": 4, "points": {**A_TAKES_5, **B_TAKES_3}}


def pitch_form(pitcher: int, bid: str, points: dict[str, str]) -> dict[str, str]:
    return {"pitcher": str(pitcher), "bid": bid} | {f"point_{k}": v for k, v in points.items()}


def penalties_form(went_out: int, *points: int) -> dict[str, str]:
    form = {"went_out": str(went_out), "count_by": "penalties"}
    for seat, value in enumerate(points):
        form[f"penalty_{seat}"] = "" if seat == went_out else str(value)
    return form


def record(sheet: Sheet, *deals: dict) -> Sheet:
    for deal in deals:
        services.hand_record(sheet=sheet, data=deal)
    sheet.refresh_from_db()
    return sheet


def edit_url(sheet: Sheet, rest: str = "") -> str:
    return f"/en/s/{sheet.edit_token}/{rest}"


def deal_item(page: str, number: int) -> str:
    found = re.search(rf'<li id="deal-{number}" class="deal">(.*?)</li>', page, re.S)
    assert found, f"deal {number} is not on the page"
    return found.group(1)


def notice(page: str, number: int) -> str | None:
    found = re.search(r'<p class="deal-notice" role="status">(.*?)</p>', deal_item(page, number))
    return found.group(1) if found else None


# -- A correction says what it did, beside the deal the page jumps to ---------------------------


def test_a_correction_says_so_beside_its_deal_once(client):
    sheet = record(services.sheet_create(game="pitch", players=FOUR), A_MAKES_4, A_MAKES_4)
    response = client.post(
        edit_url(sheet, "deals/1/"), pitch_form(0, "5", {**A_TAKES_5, **B_TAKES_3})
    )
    assert response.status_code == 302
    assert response["Location"] == edit_url(sheet) + "#deal-1"
    page = client.get(response["Location"]).content.decode()
    assert notice(page, 1) == "Deal 1 corrected: Ana bid 5 for team A: made, A +5, B +5."
    assert notice(page, 2) is None
    # Said once: a reload shows the sheet without it.
    assert notice(client.get(edit_url(sheet)).content.decode(), 1) is None


def test_correcting_an_old_deal_opens_the_list_of_every_deal_at_it(client):
    # The sheet lists the latest deals first (games.snapshots.TAIL); an older one is only
    # on the page that lists them all.
    sheet = services.sheet_create(game="manipulation", players=THREE)
    record(sheet, *[{"penalties": [0, 5, 5]}] * (snapshots.TAIL + 2))
    response = client.post(edit_url(sheet, "deals/1/"), penalties_form(0, 0, 10, 5))
    assert response["Location"] == edit_url(sheet) + "?deals=all#deal-1"
    page = client.get(response["Location"]).content.decode()
    assert notice(page, 1).startswith("Round 1 corrected: ")


def test_a_manipulation_correction_says_round_and_that_the_win_moved(client):
    # Manipulation rules: the game ends after the round in which someone reaches 200;
    # the lowest total wins. Ben reaches 210 in round 3; Ana wins with 10. Corrected,
    # round 3 gives Ana 120: Cem wins with 110.
    sheet = services.sheet_create(game="manipulation", players=THREE)
    record(
        sheet, {"penalties": [0, 100, 50]}, {"penalties": [0, 50, 60]}, {"penalties": [10, 60, 0]}
    )
    response = client.post(edit_url(sheet, "deals/3/"), penalties_form(2, 120, 60, 0))
    page = client.get(response["Location"]).content.decode()
    text = notice(page, 3)
    assert text.startswith("Round 3 corrected: ")
    assert "deal" not in text.lower()
    assert text.endswith("The win moved: Cem won, not Ana.")


def test_a_correction_that_reopens_the_game_says_so(client):
    sheet = services.sheet_create(game="manipulation", players=THREE)
    record(
        sheet, {"penalties": [0, 100, 50]}, {"penalties": [0, 50, 60]}, {"penalties": [10, 60, 0]}
    )
    response = client.post(edit_url(sheet, "deals/1/"), penalties_form(1, 100, 0, 50))
    text = notice(client.get(response["Location"]).content.decode(), 1)
    assert text.endswith("The game is not over any more: Ana no longer won.")


# -- A Pitch correction that ends the game earlier ----------------------------------------------


A_MOON_FORM = pitch_form(2, "moon", dict.fromkeys(POINT_KEYS, "A"))


def test_a_pitch_correction_that_ends_the_game_earlier_keeps_what_was_typed_and_says_what_to_do(
    client,
):
    # Pitch rules, "Scoring a hand": a moon made from a score above 0 wins the game at
    # once. Corrected to a moon, deal 2 ends the game; deals 3 and 4 came after it.
    sheet = record(services.sheet_create(game="pitch", players=FOUR), *[A_MAKES_4] * 4)
    response = client.post(edit_url(sheet, "deals/2/"), A_MOON_FORM)
    assert response.status_code == 422
    page = response.content.decode()
    assert (
        "With this change the game ends with deal 2 (Team A won 52 to 5: it shot the moon), "
        "but deals 3 to 4 were entered after it. Delete them first, from deal 4 back (the "
        "history keeps them), then make this change again."
    ) in page
    # What was typed is still in the form; a tick saves it with the later deals deleted.
    assert re.search(r'name="bid" value="moon"[^>]*checked', page)
    assert '<input type="checkbox" name="drop_later" value="1">' in page
    assert "Delete deals 3 to 4 with it: the game ended before them" in page
    assert [h.entry for h in live_hands(sheet)] == [A_MAKES_4] * 4


def test_saving_with_the_later_deals_deleted_ends_the_game_and_keeps_them_in_the_history(client):
    sheet = record(services.sheet_create(game="pitch", players=FOUR), *[A_MAKES_4] * 4)
    response = client.post(edit_url(sheet, "deals/2/"), {**A_MOON_FORM, "drop_later": "1"})
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert notice(page, 2) == (
        "Deal 2 corrected: Cem bid moon for team A: made, A +47, B 0; team A wins. "
        "Deals 3 to 4 came after the end of the game and were deleted; the history keeps "
        "them. The game is over now: Ana and Cem won."
    )
    assert len(live_hands(sheet)) == 2
    assert sheet.events.filter(kind=SheetEvent.REMOVED).count() == 2
    assert "Game over" in page


# -- Undo says what it did; "bring back" names the deal ----------------------------------------


def test_undo_says_which_deal_and_bring_back_names_it(client):
    sheet = record(services.sheet_create(game="pitch", players=FOUR), A_MAKES_4, A_MAKES_4)
    response = client.post(edit_url(sheet, "undo"), HTTP_HX_REQUEST="true")
    page = response.content.decode()
    bar = re.search(r'<div id="undo-bar".*?</div>', page, re.S).group(0)
    assert '<p class="undo-notice" role="status">Deal 2 undone.</p>' in bar
    assert "Bring back deal 2" in bar
    # Without JavaScript the same, after the redirect.
    client.post(edit_url(sheet, "redo"))
    client.post(edit_url(sheet, "undo"))
    page = client.get(edit_url(sheet)).content.decode()
    assert "Deal 2 undone." in page
    assert "Bring back deal 2" in page


def test_the_preview_of_such_a_correction_follows_the_tick(client):
    sheet = record(services.sheet_create(game="pitch", players=FOUR), *[A_MAKES_4] * 4)
    form = {**A_MOON_FORM, "number": "2"}
    refused = client.post(edit_url(sheet, "preview"), form).content.decode()
    assert "With this change the game ends with deal 2" in refused
    ticked = client.post(edit_url(sheet, "preview"), {**form, "drop_later": "1"}).content.decode()
    assert "preview-ok" in ticked
    assert "Cem bid moon for team A: made" in ticked
    assert len(live_hands(sheet)) == 4
