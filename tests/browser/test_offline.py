"""Never lose a tap (issue 9), in the browser: the app works offline.

Ana, Ben and Cem play Manipulation at a table where the phone loses its connection.
The three rounds they enter meanwhile wait on the phone (the page says so, a reload
without connection still shows them, from the service worker's copy), and reach the
sheet in order once the connection is back: exactly three rounds, the right totals.
The read-only phone says it is not live while it has no connection; the home page
lists the sheets opened on the phone; Back from a new sheet starts no second one.

Service workers need a secure context: pytest-django's live server listens on
localhost, which is one.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Sheet
from games.selectors import live_hands
from tests.browser.support import (
    SCREENSHOTS,
    expect_totals,
    let_time_pass,
    overflow,
    screenshot,
)
from tests.browser.test_csp import _refusals, _watch
from tests.browser.test_sheet_manipulation import _type_penalties, _went_out

pytestmark = [
    pytest.mark.browser,
    pytest.mark.service_worker,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = ["Ana", "Ben", "Cem"]
# Round by round: who went out, the others' penalties, and the totals after it.
ROUNDS = [
    ("Ana", {"Ben": 35, "Cem": 60}, (0, 35, 60)),
    ("Ben", {"Ana": 20, "Cem": 15}, (20, 35, 75)),
    ("Cem", {"Ana": 10, "Ben": 5}, (30, 40, 75)),
]


def _sheet() -> Sheet:
    return services.sheet_create(game="manipulation", players=PLAYERS)


COPY = """() => caches.open("scorekeeper-pages")
    .then((cache) => cache.match(location.origin + location.pathname))
    .then((copy) => (copy ? copy.text() : ""))"""


def _copy_until(page, test, timeout: float = 15) -> str:
    """The service worker's copy of this page, once ``test`` says yes to it (evaluate
    waits for the promise; wait_for_function would take the promise itself for yes)."""
    deadline = time.monotonic() + timeout
    while True:
        copy = page.evaluate(COPY)
        if test(copy):
            return copy
        assert time.monotonic() < deadline, "the service worker kept no such copy"
        time.sleep(0.2)


def _kept_offline(page) -> None:
    """Until the service worker runs this page and keeps its copy of it."""
    assert page.evaluate("window.isSecureContext"), page.url
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    # (A promise, not wait_for_function: its polling evaluates a string, which the
    # page's CSP refuses whenever the first look is not yet yes.)
    page.evaluate(
        """() => navigator.serviceWorker.controller !== null || new Promise((done) =>
            navigator.serviceWorker.addEventListener("controllerchange", () => done(true)))"""
    )
    _copy_until(page, bool)


def _enter(page, went_out: str, penalties: dict[str, int], number: int) -> None:
    _went_out(page, went_out)
    _type_penalties(page, penalties)
    page.get_by_role("button", name=f"Save round {number}").click()


def test_rounds_entered_without_a_connection_reach_the_sheet_in_order(live_server, phone):
    refusals = _watch(phone)
    sheet = _sheet()
    phone.goto(live_server.url + sheet.get_absolute_url())
    assert live_server.url.startswith("http://localhost:")
    _kept_offline(phone)
    outbox = phone.locator("#outbox")
    expect(outbox).to_be_hidden()

    phone.context.set_offline(True)
    # The page says at once what happens to what is entered now.
    expect(outbox).to_be_visible()
    expect(outbox).to_contain_text("No connection")
    for number, (went_out, penalties, _totals) in enumerate(ROUNDS, start=1):
        _enter(phone, went_out, penalties, number)
        expect(phone.get_by_test_id("outbox-heading")).to_have_text(f"Waiting to send: {number}")
        # The form is cleared for the next round, named after the ones waiting.
        expect(phone.get_by_role("heading", name=f"Round {number + 1}")).to_be_visible()
        expect(phone.locator(".penalty-field input").first).to_have_value("")
    expect(outbox).to_contain_text(re.compile(r"waiting to send: 3", re.I))
    items = outbox.locator(".outbox-deal")
    expect(items).to_have_count(3)
    expect(items.nth(0)).to_contain_text("Round 1")
    expect(items.nth(0)).to_contain_text("Ana")
    expect(items.nth(0)).to_contain_text("Ben 35")
    expect(items.nth(0)).to_contain_text("Cem 60")
    expect(items.nth(2)).to_contain_text("Round 3")
    # Who deals next is not known until the sheet has these rounds.
    expect(phone.locator(".entry .dealer")).to_be_hidden()
    assert overflow(phone) <= 0
    # Nothing reached the server.
    assert live_hands(sheet) == []
    phone.evaluate("window.scrollTo(0, 0)")
    screenshot(phone, f"offline-waiting-{phone.color_scheme}")

    # A reload without a connection: the page comes from the service worker's copy and
    # still lists the three rounds.
    response = phone.reload()
    assert response is not None
    assert response.from_service_worker
    expect(phone.get_by_test_id("outbox-heading")).to_have_text("Waiting to send: 3")
    expect(outbox.locator(".outbox-deal")).to_have_count(3)
    expect(phone.get_by_role("heading", name="Round 4")).to_be_visible()
    assert live_hands(sheet) == []
    # A page this phone never opened: the offline page, listing the sheet.
    phone.goto(live_server.url + "/en/rules/")
    expect(phone.get_by_role("heading", name="No connection", exact=True)).to_be_visible()
    phone.locator("#recent-sheets").get_by_role("link", name=re.compile("^Continue")).click()
    phone.wait_for_url(f"**{sheet.get_absolute_url()}")
    expect(phone.get_by_test_id("outbox-heading")).to_have_text("Waiting to send: 3")

    # The connection is back: the rounds are sent in order and the sheet shown afresh.
    phone.context.set_offline(False)
    expect_totals(phone, *ROUNDS[-1][2], timeout=20_000)
    expect(outbox).to_be_hidden()
    expect(phone.get_by_role("heading", name="Round 4")).to_be_visible()
    for number, (went_out, _penalties, totals) in enumerate(ROUNDS, start=1):
        row = phone.locator(f"#deal-{number}")
        expect(row).to_contain_text(f"{went_out} went out")
        expect(row.locator(".cell .running")).to_have_text([str(t) for t in totals])
    hands = live_hands(sheet)
    assert [hand.number for hand in hands] == [1, 2, 3]
    assert [hand.entry["penalties"] for hand in hands] == [[0, 35, 60], [20, 0, 15], [10, 5, 0]]
    assert phone.evaluate("Object.keys(localStorage).filter((k) => k.includes('outbox'))") == []
    # The worker, the manifest and the scripts within the Content Security Policy.
    assert _refusals(phone, refusals) == []


def test_a_reload_without_a_connection_shows_the_sheet_as_last_seen(live_server, desktop):
    sheet = _sheet()
    desktop.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(desktop)
    # Two rounds saved with a connection (the page is not loaded afresh for either).
    _enter(desktop, *ROUNDS[0][:2], 1)
    expect_totals(desktop, *ROUNDS[0][2])
    _enter(desktop, *ROUNDS[1][:2], 2)
    expect_totals(desktop, *ROUNDS[1][2])
    # The copy kept for offline use follows (it is fetched again after each change).
    _copy_until(desktop, lambda html: 'id="deal-2"' in html)
    desktop.context.set_offline(True)
    desktop.reload()
    expect_totals(desktop, *ROUNDS[1][2])
    expect(desktop.get_by_role("heading", name="Round 3")).to_be_visible()


def test_a_round_being_typed_when_the_connection_returns_is_not_lost(live_server, desktop):
    sheet = _sheet()
    desktop.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(desktop)
    desktop.context.set_offline(True)
    _enter(desktop, "Ana", {"Ben": 35, "Cem": 60}, 1)
    # Round 2 is half typed when the connection comes back.
    _went_out(desktop, "Ben")
    _type_penalties(desktop, {"Ana": 20})
    desktop.context.set_offline(False)
    expect(desktop.locator("#outbox")).to_be_hidden(timeout=20_000)
    assert [hand.entry["penalties"] for hand in live_hands(sheet)] == [[0, 35, 60]]
    # Round 1 went; the page was not loaded afresh under the thumb.
    expect(desktop.get_by_role("heading", name="Round 2")).to_be_visible()
    expect(desktop.locator(".penalty-field", has_text="Ana").locator("input")).to_have_value("20")
    _type_penalties(desktop, {"Cem": 15})
    desktop.get_by_role("button", name="Save round 2").click()
    # Saved after round 1 (the form's version was older: the round appends), and the
    # sheet is shown afresh.
    expect_totals(desktop, 20, 35, 75, timeout=20_000)
    expect(desktop.locator("#deal-1")).to_contain_text("Ana went out")
    assert [hand.entry["penalties"] for hand in live_hands(sheet)] == [[0, 35, 60], [20, 0, 15]]


def test_a_round_whose_answer_was_lost_is_sent_again_and_stored_once(live_server, desktop):
    sheet = _sheet()
    url = live_server.url + sheet.get_absolute_url()
    desktop.goto(url)
    posts = []

    def lose_the_answer(route):
        posts.append(route.request.post_data)
        if len(posts) == 1:
            # The server gets the round and stores it; its answer never reaches the phone.
            route.fetch()
            route.abort("connectionreset")
        else:
            route.continue_()

    desktop.route(
        url,
        lambda route: (
            lose_the_answer(route) if route.request.method == "POST" else route.continue_()
        ),
    )
    _enter(desktop, "Ana", {"Ben": 35, "Cem": 60}, 1)
    # Sent again at once (the phone is online), with the key it was first sent with:
    # the server answers as it did the first time and stores nothing more.
    expect_totals(desktop, 0, 35, 60, timeout=20_000)
    expect(desktop.locator("#outbox")).to_be_hidden()
    assert len(posts) == 2
    first_key = re.search(r"idempotency_key=(\w+)", posts[0]).group(1)
    assert re.search(r"idempotency_key=(\w+)", posts[1]).group(1) == first_key
    assert "version=" not in posts[1]
    assert [hand.entry["penalties"] for hand in live_hands(sheet)] == [[0, 35, 60]]


def test_a_refused_round_stays_with_the_servers_message_until_discarded(live_server, phone):
    sheet = _sheet()
    phone.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(phone)
    phone.context.set_offline(True)
    # 12 is no penalty (cards cost 5, 10 or 15): the server refuses it once it is sent.
    _enter(phone, "Ana", {"Ben": 12, "Cem": 20}, 1)
    _enter(phone, "Ben", {"Ana": 20, "Cem": 15}, 2)
    expect(phone.get_by_test_id("outbox-heading")).to_have_text("Waiting to send: 2")
    phone.context.set_offline(False)
    refused = phone.locator(".outbox-deal.is-refused")
    expect(refused).to_have_count(1, timeout=20_000)
    expect(refused).to_contain_text("Not saved:")
    expect(refused).to_contain_text("multiples of 5")
    # The round after it waits: the order of the rounds is the order of the table.
    expect(phone.locator(".outbox-deal")).to_have_count(2)
    assert live_hands(sheet) == []
    phone.evaluate("window.scrollTo(0, 0)")
    # The refused round is in the form to be corrected, with the server's message; the
    # list of waiting rounds is one line until opened.
    expect(phone.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(phone.locator(".penalty-field", has_text="Ben").locator("input")).to_have_value("12")
    expect(phone.locator("#preview")).to_contain_text("multiples of 5")
    screenshot(phone, f"offline-refused-{phone.color_scheme}")
    phone.locator("#outbox summary").click()
    phone.once("dialog", lambda dialog: dialog.accept())
    refused.get_by_role("button", name="Discard").click()
    # The next one goes, as round 1.
    expect_totals(phone, 20, 0, 15, timeout=20_000)
    expect(phone.locator("#outbox")).to_be_hidden()
    assert [hand.entry["penalties"] for hand in live_hands(sheet)] == [[20, 0, 15]]


def test_the_read_only_sheet_says_when_it_is_not_live(live_server, phone):
    sheet = _sheet()
    # The page polls every 3 s; the test lets those seconds pass on its clock.
    phone.clock.install()
    phone.goto(live_server.url + sheet.get_view_url())
    live = phone.locator(".live")
    expect(live).to_contain_text("Live: updates within seconds")
    phone.context.set_offline(True)
    expect(live).to_contain_text(re.compile(r"Not live: no connection since \d{1,2}:\d{2}"))
    expect(live).to_have_class(re.compile("is-not-live"))
    screenshot(phone, f"offline-not-live-{phone.color_scheme}")
    phone.context.set_offline(False)
    # Back within a poll (every 3 s).
    let_time_pass(phone, 3)
    expect(live).to_contain_text("Live: updates within seconds", timeout=10_000)
    expect(live).not_to_have_class(re.compile("is-not-live"))
    # And it updates again.
    services.hand_record(sheet=sheet, data={"penalties": [0, 35, 60]})
    let_time_pass(phone, 3)
    expect_totals(phone, 0, 35, 60, timeout=10_000)
    # A sheet deleted meanwhile: said so, not blamed on the connection.
    services.sheet_delete(sheet=sheet)
    let_time_pass(phone, 3)
    expect(live).to_contain_text("Not live: this sheet is no longer at this link", timeout=10_000)


def test_the_home_page_lists_the_sheets_opened_on_this_phone(live_server, phone):
    home = live_server.url + "/en/"
    phone.goto(home)
    recent = phone.locator("#recent-sheets")
    expect(recent).to_be_hidden()
    first = _sheet()
    second = services.sheet_create(game="skat", players=["Ali", "Bea", "Cleo"])
    phone.goto(live_server.url + first.get_absolute_url())
    phone.goto(live_server.url + second.get_view_url())
    phone.goto(home)
    expect(recent).to_be_visible()
    expect(recent.get_by_role("heading", name="Sheets on this phone")).to_be_visible()
    items = recent.locator(".recent-sheet")
    expect(items).to_have_count(2)
    # Most recent first: the Skat sheet, opened by its read-only link.
    expect(items.nth(0)).to_contain_text("Skat")
    expect(items.nth(0)).to_contain_text("Ali, Bea, Cleo")
    expect(items.nth(0)).to_contain_text("Read-only")
    expect(items.nth(0)).to_contain_text("Last opened")
    expect(items.nth(1)).to_contain_text("Manipulation")
    expect(items.nth(1)).to_contain_text("Ana, Ben, Cem")
    expect(items.nth(1).get_by_text("Read-only")).to_be_hidden()
    assert overflow(phone) <= 0
    screenshot(phone, f"home-recent-{phone.color_scheme}")
    items.nth(1).get_by_role("link", name=re.compile("^Continue")).click()
    phone.wait_for_url(f"**{first.get_absolute_url()}")
    phone.goto(home)
    # Continued, so now the most recent.
    expect(items.nth(0)).to_contain_text("Manipulation")
    items.nth(1).get_by_role("button", name="Remove from this list").click()
    expect(items).to_have_count(1)
    items.nth(0).get_by_role("button", name="Remove from this list").click()
    expect(recent).to_be_hidden()
    phone.reload()
    expect(recent).to_be_hidden()


def test_back_from_a_new_sheet_starts_no_second_one(live_server, desktop):
    desktop.goto(live_server.url + "/en/new/manipulation/")
    for seat, name in enumerate(PLAYERS):
        desktop.locator(f"input[name=player_{seat}]").fill(name)
    desktop.get_by_role("button", name="Start the sheet").click()
    desktop.wait_for_url("**/s/*/")
    started = desktop.url
    desktop.go_back()
    desktop.wait_for_url("**/new/manipulation/")
    notice = desktop.locator(".started-already")
    expect(notice).to_contain_text("You started a sheet with Ana, Ben, Cem")
    # Start again, as a thumb would: no second, empty sheet; the page still points at
    # the one just started.
    desktop.get_by_role("button", name="Start the sheet").click()
    expect(desktop.locator("#form-errors")).to_be_visible()
    expect(notice).to_contain_text("You started a sheet with Ana, Ben, Cem")
    assert Sheet.objects.count() == 1
    notice.get_by_role("link", name="Continue that sheet").click()
    desktop.wait_for_url(started)


def test_game_over_plays_again_with_the_next_dealer(live_server, phone):
    sheet = services.sheet_create(game="manipulation", players=PLAYERS, first_dealer=0)
    services.hand_record(sheet=sheet, data={"penalties": [0, 120, 150]})
    services.hand_record(sheet=sheet, data={"penalties": [0, 120, 150]})
    phone.goto(live_server.url + sheet.get_absolute_url())
    button = phone.get_by_role("button", name="Play again")
    expect(button).to_be_visible()
    screenshot(phone, f"game-over-play-again-{phone.color_scheme}")
    button.click()
    phone.wait_for_url("**/s/*/")
    assert phone.url != live_server.url + sheet.get_absolute_url()
    expect(phone.locator(".dealer")).to_have_text("Ben deals")
    expect(phone.get_by_role("heading", name="Round 1")).to_be_visible()
    assert Sheet.objects.count() == 2


def test_the_share_panel_copies_a_link(live_server, phone):
    sheet = _sheet()
    phone.context.grant_permissions(["clipboard-read", "clipboard-write"])
    phone.goto(live_server.url + sheet.get_absolute_url())
    share = phone.locator(".share")
    share.get_by_role("button", name="Copy link").click()
    expect(share.locator(".share-feedback").first).to_have_text("Copied")
    share.locator("details summary").click()
    share.scroll_into_view_if_needed()
    SCREENSHOTS.mkdir(exist_ok=True)
    phone.screenshot(path=str(SCREENSHOTS / f"share-{phone.color_scheme}.png"))
    copied = phone.evaluate("navigator.clipboard.readText()")
    assert copied == live_server.url + sheet.get_view_url()
    can_share = phone.evaluate("typeof navigator.share === 'function'")
    native = share.get_by_role("button", name="Share…")
    if can_share:
        expect(native).to_be_visible()
    else:
        expect(native).to_be_hidden()


def test_the_home_page_shows_the_latest_sheets_first_and_all_on_request(live_server, desktop):
    desktop.goto(live_server.url + "/en/")
    sheets = [
        {
            "id": str(n),
            "url": f"/en/s/sheet-{n}/",
            "kind": "edit",
            "game": "Skat",
            "players": f"Player {n}, B, C",
            "headline": "",
            "finished": False,
            "at": 1_700_000_000_000 + n,
        }
        for n in range(6, 0, -1)
    ]
    desktop.evaluate(
        "(sheets) => localStorage.setItem('scorekeeper:sheets', JSON.stringify(sheets))", sheets
    )
    desktop.reload()
    recent = desktop.locator("#recent-sheets")
    expect(recent.locator(".recent-sheet")).to_have_count(4)
    expect(recent.locator(".recent-sheet").first).to_contain_text("Player 6")
    recent.get_by_role("button", name="Show all 6").click()
    expect(recent.locator(".recent-sheet")).to_have_count(6)
    expect(recent.locator(".recent-sheet").last).to_contain_text("Player 1")
    expect(recent.get_by_role("button", name="Show all 6")).to_be_hidden()


PICKERS_KEPT = """() => Promise.all([...document.querySelectorAll('.card-picker-lazy[hx-get]')]
    .map((lazy) => caches.match(lazy.getAttribute('hx-get'), {ignoreVary: true})))
    .then((copies) => copies.length > 0 && copies.every(Boolean))"""


def test_the_card_pickers_open_without_a_connection(live_server, phone):
    sheet = services.sheet_create(game="skat", players=PLAYERS)
    phone.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(phone)
    # The worker looks after the page from its next load on: the pickers are fetched
    # in a quiet moment, before anybody opens them.
    phone.reload()
    phone.wait_for_selector("form.entry-form.is-enhanced")
    deadline = time.monotonic() + 15
    while not phone.evaluate(PICKERS_KEPT):
        assert time.monotonic() < deadline, "the card pickers were not kept"
        time.sleep(0.2)
    phone.context.set_offline(True)
    phone.locator("label:has(> input[name=declarer][value='0'])").click()
    phone.locator("label:has(> input[name=game][value='grand'])").click()
    phone.get_by_text("Count from the cards instead").click()
    phone.locator("label:has(> input[name=result_by][value='cards'])").click()
    tricks = phone.locator("fieldset.card-picker").filter(
        has=phone.locator("input[name=declarer_trick_cards]")
    )
    expect(tricks.locator("input[name=declarer_trick_cards]")).to_have_count(32)
