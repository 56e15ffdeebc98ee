"""What the sheet sends does not grow with the sheet (issue 9).

A deal's answer swaps only what changed: the totals and headline, the new row, a
fresh form, the undo bar and the tally, at most 15 KB however long the sheet. The
page lists the latest deals (older ones on request), the newest deal comes
explained and older ones explain themselves when opened, and pages travel gzipped.
Times are measured in bench/bench_sheet.py, never here.
"""

from __future__ import annotations

import gzip
import re

import pytest

from games import services, snapshots
from games.models import Sheet
from games.selectors import live_hands

pytestmark = pytest.mark.django_db

THREE = ["Ana", "Ben", "Cem"]
FOUR = ["Ana", "Ben", "Cem", "Dan"]
HTMX = {"HTTP_HX_REQUEST": "true"}
SWAP_LIMIT = 15 * 1024


def penalties(*points: int) -> dict:
    return {"penalties": list(points)}


def manipulation(deals: int) -> Sheet:
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    for _ in range(deals):
        services.hand_record(sheet=Sheet.objects.get(pk=sheet.pk), data=penalties(0, 5, 5))
    return Sheet.objects.get(pk=sheet.pk)


def skat_passed(deals: int) -> Sheet:
    sheet = services.sheet_create(game="skat", players=THREE, options={"series_deals": 200})
    for _ in range(deals):
        services.hand_record(sheet=Sheet.objects.get(pk=sheet.pk), data={"passed": True})
    return Sheet.objects.get(pk=sheet.pk)


MANIPULATION_FORM = {"penalty_0": "0", "penalty_1": "10", "penalty_2": "15"}


@pytest.mark.parametrize("deals", [10, 50])
def test_a_saved_deal_swaps_only_what_changed(client, deals):
    sheet = manipulation(deals)
    response = client.post(
        f"/en/s/{sheet.edit_token}/", {**MANIPULATION_FORM, "idempotency_key": "k1"}, **HTMX
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert response["HX-Reswap"] == "none"
    assert len(response.content) <= SWAP_LIMIT
    # Out of band: the totals, a fresh form, the undo bar, the tally, and the new row
    # on top of the list, nothing of the older rows.
    swapped = re.findall(r'id="([\w-]+)"[^>]*hx-swap-oob="true"', body)
    assert swapped == ["totals", "entry-slot", "undo-bar", "tally", "deal-delete"]
    assert 'hx-swap-oob="afterbegin:#deal-list"' in body
    assert re.findall(r'<li id="deal-(\d+)"', body) == [str(deals + 1)]
    assert f"Round {deals + 1} saved" in body or f"round {deals + 1} saved" in body.lower()


def test_a_saved_deal_answer_is_the_same_size_at_10_and_50_rounds(client):
    # 50 rounds at 5 and 5 take two players to 250 of a game to 300.
    sizes = []
    for deals in (10, 50):
        sheet = manipulation(deals)
        response = client.post(
            f"/en/s/{sheet.edit_token}/", {**MANIPULATION_FORM, "idempotency_key": "k"}, **HTMX
        )
        sizes.append(len(response.content))
    # Only the numbers' widths and the fresh key differ.
    assert abs(sizes[0] - sizes[1]) < 200


def test_the_first_deal_swaps_the_whole_board(client):
    sheet = manipulation(0)
    response = client.post(
        f"/en/s/{sheet.edit_token}/", {**MANIPULATION_FORM, "idempotency_key": "a"}, **HTMX
    )
    assert "HX-Reswap" not in response
    assert response.content.decode().lstrip().startswith('<div id="board"')


@pytest.mark.parametrize("view", ["edit", "view"])
def test_the_page_lists_the_latest_deals_and_all_on_request(client, view):
    sheet = skat_passed(30)
    base = f"/en/s/{sheet.edit_token}/" if view == "edit" else f"/en/v/{sheet.view_token}/"
    page = client.get(base).content.decode()
    listed = [int(n) for n in re.findall(r'<li id="deal-(\d+)"', page)]
    assert listed == list(range(30, 30 - snapshots.TAIL, -1))
    assert "Show all 30 deals" in page
    if view == "edit":
        every = client.get(base + "?deals=all").content.decode()
        assert [int(n) for n in re.findall(r'<li id="deal-(\d+)"', every)] == list(range(30, 0, -1))


@pytest.mark.parametrize("view", ["edit", "view"])
def test_only_the_newest_deal_comes_explained_the_others_load_when_opened(client, view):
    sheet = skat_passed(5)
    if view == "edit":
        page = client.get(f"/en/s/{sheet.edit_token}/").content.decode()
        explain = f"/en/s/{sheet.edit_token}/deals/2/explain"
    else:
        page = client.get(f"/en/v/{sheet.view_token}/").content.decode()
        explain = f"/en/v/{sheet.view_token}/deals/2/explain"
    assert page.count('class="explanation') <= 1 or page.count("<ol class=") <= 3
    assert f'hx-get="{explain}"' in page
    # Skat rules, "All pass": the cards are thrown in and nobody scores.
    fragment = client.get(explain, **HTMX)
    assert fragment.status_code == 200
    assert "Deal 2" in fragment.content.decode()
    assert "<html" not in fragment.content.decode()
    # Without JavaScript the link opens a page of its own.
    whole = client.get(explain)
    assert "<html" in whole.content.decode()


def test_an_old_deal_is_explained_by_replaying_up_to_it(client):
    sheet = skat_passed(snapshots.TAIL + 8)
    response = client.get(f"/en/v/{sheet.view_token}/deals/1/explain", **HTMX)
    assert response.status_code == 200
    assert "Deal 1" in response.content.decode()


@pytest.mark.parametrize("number", ["0", "99"])
def test_explaining_a_deal_that_is_not_there_is_404(client, number):
    sheet = skat_passed(3)
    assert client.get(f"/en/v/{sheet.view_token}/deals/{number}/explain").status_code == 404


def test_the_explanation_of_an_edit_link_is_not_open_to_the_view_link(client):
    sheet = skat_passed(2)
    assert client.get(f"/en/s/{sheet.view_token}/deals/1/explain").status_code == 404


def test_pages_travel_gzipped(client):
    sheet = skat_passed(36)
    response = client.get(f"/en/s/{sheet.edit_token}/", HTTP_ACCEPT_ENCODING="gzip")
    assert response["Content-Encoding"] == "gzip"
    html = gzip.decompress(response.content)
    assert b"<html" in html
    assert len(response.content) < len(html) / 4


def test_read_only_phones_share_one_rendering_per_version(client, django_assert_num_queries):
    sheet = skat_passed(20)
    url = f"/en/v/{sheet.view_token}/live?since=0"
    first = client.get(url, **HTMX).content
    # The second phone: the sheet by its token and nothing more.
    with django_assert_num_queries(1):
        second = client.get(url, **HTMX).content
    assert first == second
    services.hand_record(sheet=Sheet.objects.get(pk=sheet.pk), data={"passed": True})
    third = client.get(url, **HTMX).content.decode()
    assert '<li id="deal-21"' in third


def test_empty_card_pickers_load_when_opened_and_are_in_the_page_on_request(client):
    sheet = skat_passed(2)
    page = client.get(f"/en/s/{sheet.edit_token}/").content.decode()
    assert 'class="card-picker-lazy"' in page
    assert '<fieldset class="card-picker"' not in page
    # Without JavaScript the placeholder links to the page with the pickers in it.
    assert '<noscript><p><a href="?pickers=all">' in page
    every = client.get(f"/en/s/{sheet.edit_token}/?pickers=all").content.decode()
    assert '<fieldset class="card-picker"' in every
    assert 'class="card-picker-lazy"' not in every


def test_a_card_picker_loads_on_its_own(client):
    response = client.get("/en/cards/picker?name=declarer_cards&deck=skat&total=points&label=Cards")
    assert response.status_code == 200
    body = response.content.decode()
    assert body.count('name="declarer_cards"') == 32
    assert "<html" not in body


@pytest.mark.parametrize(
    "query",
    ["name=Bad-Name&deck=skat", "name=cards&deck=tarot", "name=cards&deck=skat&copies=3", ""],
)
def test_a_card_picker_that_does_not_exist_is_400(client, query):
    assert client.get(f"/en/cards/picker?{query}").status_code == 400


def test_a_deal_saved_without_javascript_is_confirmed_on_the_page_it_returns_to(client):
    sheet = manipulation(1)
    response = client.post(
        f"/en/s/{sheet.edit_token}/", {**MANIPULATION_FORM, "idempotency_key": "plain"}, follow=True
    )
    assert "Round 2 saved:" in response.content.decode()


SKAT_GRAND = {
    "declarer": "0",
    "game": "grand",
    "matadors_tap": "with-2",
    "bid": "18",
    "outcome": "won",
}


def skat(players: list[str], deals: int, **options) -> Sheet:
    sheet = services.sheet_create(
        game="skat", players=players, options={"series_deals": 200, **options}
    )
    deal = {"declarer": 0, "game": "clubs", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
    for number in range(deals):
        # The declarer is one of the three who play (at four the dealer sits out).
        declarer = (number + 1) % len(players)
        services.hand_record(
            sheet=Sheet.objects.get(pk=sheet.pk), data={**deal, "declarer": declarer}
        )
    return Sheet.objects.get(pk=sheet.pk)


def oob_ids(body: str) -> list[str]:
    return re.findall(r'<\w+[^>]*? id="([\w-]+)"[^>]*hx-swap-oob="(?:true|innerHTML)"', body)


@pytest.mark.parametrize(("players", "deals"), [(THREE, 10), (THREE, 60), (FOUR, 10), (FOUR, 60)])
def test_a_skat_deal_from_a_fresh_form_is_answered_without_a_new_form(client, players, deals):
    sheet = skat(players, deals, all_pass="ramsch")
    page = client.get(f"/en/s/{sheet.edit_token}/").content.decode()
    # The form drawn for a new deal says so; the phone resets it after the save.
    assert '<input type="hidden" name="entry_fresh" value="1">' in page
    response = client.post(
        f"/en/s/{sheet.edit_token}/",
        # The seat after the dealer plays (at four the dealer sits out).
        {
            **SKAT_GRAND,
            "declarer": str((deals + 1) % len(players)),
            "entry_fresh": "1",
            "idempotency_key": "lean",
        },
        **HTMX,
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert len(response.content) <= SWAP_LIMIT
    seats = ["entry-declarer", "entry-ramsch"] if len(players) == 4 else []
    assert oob_ids(body) == [
        "totals", "entry-status", "entry-head", "entry-meta", "entry-save", "preview",
        *seats, "undo-bar", "tally", "deal-delete",
    ]  # fmt: skip
    assert 'name="game"' not in body  # the rest of the form stays as it is
    # The confirmation goes into the status region the page has, so that a screen
    # reader announces it (a region swapped in whole may be read out or not).
    assert '<div id="entry-status" role="status" hx-swap-oob="innerHTML">' in body
    assert f"Deal {deals + 1} saved" in body
    assert f'data-deal="{deals + 2}"' in body
    assert 'name="entry_fresh"' in body
    if len(players) == 4:
        # ISkO 1.2.1: at four, the dealer sits out; the next deal's dealer is seat
        # (deals + 1) % 4, and only the other three are offered as declarer.
        out = (deals + 1) % 4
        declarers = re.findall(r'name="declarer" value="(\d)"', body)
        assert str(out) not in declarers
        assert len(declarers) == 3


def test_a_form_shown_again_with_its_problems_is_answered_with_a_new_form(client):
    sheet = skat(THREE, 3)
    refused = client.post(
        f"/en/s/{sheet.edit_token}/", {"game": "grand", "idempotency_key": "x"}, **HTMX
    )
    assert refused.status_code == 422
    assert 'name="entry_fresh"' not in refused.content.decode()
    # Its defaults are what was posted: after the save it is replaced as a whole.
    response = client.post(
        f"/en/s/{sheet.edit_token}/", {**SKAT_GRAND, "idempotency_key": "y"}, **HTMX
    )
    assert oob_ids(response.content.decode()) == [
        "totals", "entry-slot", "undo-bar", "tally", "deal-delete",
    ]  # fmt: skip
    assert len(response.content) <= 24 * 1024


def test_the_last_deal_of_a_series_brings_game_over_in_place_of_the_form(client):
    # Rule book, Skat, the list: a series has a set number of deals (three here), and
    # the sheet takes no deal after its last one.
    sheet = services.sheet_create(game="skat", players=THREE, options={"series_deals": 3})
    for _ in range(2):
        services.hand_record(sheet=Sheet.objects.get(pk=sheet.pk), data={"passed": True})
    response = client.post(
        f"/en/s/{sheet.edit_token}/",
        {**SKAT_GRAND, "idempotency_key": "last", "entry_fresh": "1"},
        **HTMX,
    )
    body = response.content.decode()
    assert response["HX-Reswap"] == "none"
    assert len(response.content) <= SWAP_LIMIT
    assert oob_ids(body) == [
        "totals", "game-over", "entry-slot", "undo-bar", "tally", "deal-delete",
    ]  # fmt: skip
    assert "Series over" in body  # a Skat sheet is a series (docs/glossary.md)
    assert "Play again" in body
    assert 'name="game"' not in body  # no form for a deal that cannot come
    assert re.findall(r'<li id="deal-(\d+)"', body) == ["3"]


def test_after_a_saved_deal_an_older_deal_can_be_deleted_from_the_same_page(client):
    # The rows' Delete buttons share one form, whose version the answer brings up to
    # date: deleting deal 2 from the page kept after saving deal 4 is no stale write.
    sheet = skat(THREE, 3)
    page = client.get(f"/en/s/{sheet.edit_token}/").content.decode()
    assert page.count('form="deal-delete"') == 3
    answer = client.post(
        f"/en/s/{sheet.edit_token}/",
        {**SKAT_GRAND, "declarer": "1", "entry_fresh": "1", "idempotency_key": "4"},
        **HTMX,
    ).content.decode()
    version = re.search(
        r'<form id="deal-delete"[^>]*>.*?name="version" value="(\d+)"', answer, re.S
    ).group(1)
    hand = re.search(r'form="deal-delete" formaction="[^"]*/deals/2/delete" name="hand" '
                     r'value="(\d+)"', page).group(1)  # fmt: skip
    deleted = client.post(
        f"/en/s/{sheet.edit_token}/deals/2/delete", {"hand": hand, "version": version}, **HTMX
    )
    assert deleted.status_code == 200
    assert [h.number for h in live_hands(Sheet.objects.get(pk=sheet.pk))] == [1, 2, 3]


def test_a_kept_row_is_the_row_rendered_afresh(client):
    from django.core.cache import caches

    sheet = skat(FOUR, 14)
    url = f"/en/s/{sheet.edit_token}/"
    # The CSRF token (a form field and the page's htmx header) and the deal's key.
    strip = re.compile(r'(value="|"X-CSRFToken": ")[0-9a-zA-Z]{32,}"')
    caches["renders"].clear()
    fresh = strip.sub("", client.get(url).content.decode())
    kept = strip.sub("", client.get(url).content.decode())
    assert kept == fresh
    assert fresh.count('<li id="deal-') == snapshots.TAIL
