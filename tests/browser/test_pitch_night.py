"""A Pitch party night at phone size (issue 21): 12 players, 4 rounds, the progressive
movement, rounds of two hands. The organiser starts the night and the roll on one phone
and seats each round with one tap; three table phones enter their hands at the same
time (each saves before any answer is awaited), one of them offline for a hand in the
middle; a player follows their seat line and the ranking on their own phone, in German.
Every number is checked against the pure rules (evenings/rules/movement.py and
pitch_night.py)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from evenings import selectors
from evenings.models import Evening, EveningTable
from evenings.rules import movement
from tests.browser.conftest import _page
from tests.browser.support import fits_and_taps, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ana", "Ben", "Cem", "Dora", "Eli", "Finn", "Gus", "Hana", "Ida", "Jon", "Kai", "Lea"]
PHONE = {"width": 390, "height": 844}
ROUNDS = 4
STRONG_POINTS = ("low_joker", "ten", "two", "three")  # 6 of the 10 points


def _radio(page, name: str, value: str):
    return page.locator(f"label:has(> input[name='{name}'][value='{value}'])")


def _strong(round_: int, table: int) -> int:
    """The team that wins table ``table`` in round ``round_`` (0: seats 1 and 3)."""
    return (round_ + table) % 2


def _fill(page, round_: int, table: int, hand: int) -> None:
    """Hand 1: the strong team bids 5 and takes all ten points (+10). Hand 2: the weak
    team bids 4 and makes it with four points, the strong team takes the other six:
    16 to 4 after the round's two hands."""
    strong = _strong(round_, table)
    weak = 1 - strong
    if hand == 1:
        _radio(page, "pitcher", str(strong)).click()
        _radio(page, "bid", "5").click()
    else:
        _radio(page, "pitcher", str(weak)).click()
        _radio(page, "bid", "4").click()
        for key in STRONG_POINTS:
            _radio(page, f"point_{key}", "AB"[strong]).click()


def _as_round(series) -> movement.Round:
    tables = []
    for table in series.tables.order_by("number"):
        seats = [s.player_id for s in table.seats.order_by("position")]
        tables.append(
            movement.RoundTable(table.number, ((seats[0], seats[2]), (seats[1], seats[3])))
        )
    return movement.Round(series.number, tuple(tables), tuple(series.sitting_out))


def test_a_pitch_night_of_twelve_over_four_rounds_with_three_phones(live_server, browser):
    base = live_server.url
    organiser_context, board = _page(browser, PHONE, "light")
    board.goto(f"{base}/en/evenings/new/")
    board.get_by_label("Name of the evening").fill("Church hall Pitch")
    _radio(board, "game", "pitch").click()
    board.get_by_label("Number of series").fill(str(ROUNDS))
    _radio(board, "movement", "progressive").click()
    _radio(board, "round_format", "hands").click()
    board.get_by_label("Hands a round").fill("2")
    _radio(board, "counts", "match_points").click()
    board.get_by_role("button", name="Start the evening").click()
    expect(board.get_by_role("heading", name="Church hall Pitch")).to_be_visible()
    evening = Evening.objects.get()
    assert (evening.movement, evening.round_format, evening.round_hands) == (
        "progressive",
        "hands",
        2,
    )
    for name in NAMES:
        board.get_by_label("Name", exact=True).fill(name)
        board.get_by_role("button", name="Add", exact=True).click()
        expect(board.get_by_text(f"{name} is on the roll.")).to_be_visible()
    board.get_by_label("Seed", exact=True).fill("2026")
    board.get_by_role("button", name="Draw", exact=True).click()
    expect(board.get_by_text("Round 1 drawn by lot with seed 2026")).to_be_visible()
    ids = sorted(evening.players.values_list("pk", flat=True))
    assert _as_round(evening.series.get(number=1)).tables == movement.first_round(ids, 2026).tables
    assert overflow(board) <= 0
    screenshot(board, "pitch-night-board-390-light")

    phones = [_page(browser, PHONE, scheme) for scheme in ("light", "dark", "light")]
    names = dict(evening.players.values_list("pk", "name"))
    rounds = []
    for number in range(1, ROUNDS + 1):
        series = evening.series.get(number=number)
        tables = list(EveningTable.objects.filter(series=series).order_by("number"))
        assert len(tables) == 3
        for (_context, page), table in zip(phones, tables, strict=True):
            page.goto(base + table.sheet.get_absolute_url())
            page.wait_for_selector("form.entry-form.is-enhanced")
        offline = phones[2][1] if number == 2 else None
        for hand in (1, 2):
            if offline is not None and hand == 1:
                offline.context.set_offline(True)
            for index, (_context, page) in enumerate(phones, start=1):
                _fill(page, number, index, hand)
            # All three save before any answer is awaited.
            for _context, page in phones:
                page.get_by_role("button", name=f"Save deal {hand}").click()
            if offline is not None and hand == 1:
                expect(offline.get_by_test_id("outbox-heading")).to_have_text("Waiting to send: 1")
                offline.context.set_offline(False)
                expect(offline.locator("#outbox")).to_be_hidden(timeout=20_000)
            for _context, page in phones:
                expect(page.locator("#deal-list > li")).to_have_count(hand)
        for (_context, page), table in zip(phones, tables, strict=True):
            table.refresh_from_db()
            assert (table.deals, table.done) == (2, True)
            assert table.winning_team == _strong(number, table.number)
            expect(
                page.get_by_role("heading", name="The round is over at this table.")
            ).to_be_visible()
            # No form for a third hand, which the round would refuse.
            expect(page.get_by_role("button", name="Save deal 3")).to_be_hidden()
        if number == 2:
            screenshot(phones[1][1], "pitch-night-table-390-dark")
        rounds.append(_as_round(series))
        board.goto(f"{base}/en/e/{evening.organiser_token}/")
        if number < ROUNDS:
            board.get_by_role("button", name=f"Seat round {number + 1}").first.click()
            expect(board.get_by_text(f"Round {number + 1} is seated.")).to_be_visible()
            winners = {t.number: _strong(number, t.number) for t in tables}
            expected = movement.next_progressive_round(rounds[-1], winners, history=rounds)
            assert _as_round(evening.series.get(number=number + 1)).tables == expected.tables
            # Nobody partners their partner of the round before.
            assert not expected.partnerships() & rounds[-1].partnerships()
    screenshot(board, "pitch-night-board-round-4-390-light")

    # The night's ranking: match points, every round's teams compared (2 tables won 16
    # to 4 and a third: each winning team outscores the three losing teams and ties the
    # other two winners: 3 + 1 = 4; each losing team ties two: 1).
    view = selectors.evening_view(evening)
    totals = {row.player: row.total for row in view.ranking.rows}
    wins = dict.fromkeys(ids, 0)
    for round_ in rounds:
        for table in round_.tables:
            for p in table.teams[_strong(round_.number, table.number)]:
                wins[p] += 1
    assert totals == {p: 4 * wins[p] + (ROUNDS - wins[p]) for p in ids}

    # A player follows their seat line and the ranking on their own phone, in German.
    player = evening.players.get(name=NAMES[0])
    _context, own = phones[0]
    own.goto(f"{base}/de/p/{player.token}/")
    last = rounds[-1].table_of(player.pk)
    partner = names[last.partner_of(player.pk)]
    expect(own.locator(".seat-line")).to_contain_text(
        f"Durchgang 4: Tisch {last.number}, mit {partner}"
    )
    expect(own.locator(".steps li")).to_have_count(ROUNDS - 1)
    assert overflow(own) <= 0
    screenshot(own, "pitch-night-own-390-light-de")
    own.goto(f"{base}/de/r/{evening.view_token}/")
    expect(own.get_by_role("heading", name="Durchgang 4")).to_be_visible()
    row = own.locator("#ranking-total ~ ol details").first
    row.locator("summary").click()
    expect(row.get_by_role("heading", name="Gebote als Ausspieler")).to_be_visible()
    assert overflow(own) <= 0
    screenshot(own, "pitch-night-ranking-390-light-de")
    for context in (*(c for c, _p in phones), organiser_context):
        context.close()


def _night_in_play():
    """A progressive night of 9 with rounds of minutes, time called on round 1: table 1
    ended between hands (level: who won?), table 2 still finishing its hand, one
    player sitting out."""
    import datetime

    from evenings import services

    evening = services.evening_create(
        name="Harvest Pitch",
        played_on=datetime.date.today(),
        game="pitch",
        movement="progressive",
        round_format="minutes",
        round_minutes=25,
        counts="match_points",
        sit_out=True,
    )
    services.players_add(evening=evening, names=NAMES[:9])
    services.series_draw(evening=evening, seed=7)
    services.round_call_time(evening=evening)
    one, two = EveningTable.objects.filter(series__evening=evening).order_by("number")
    services.table_end_now(table=one)
    return evening, two


@pytest.mark.parametrize(
    ("size", "scheme"),
    [(PHONE, "dark"), ({"width": 1280, "height": 800}, "light")],
    ids=["390-dark", "1280-light"],
)
def test_the_pitch_night_pages_fit_the_screen(live_server, browser, size, scheme):
    evening, table = _night_in_play()
    context, page = _page(browser, size, scheme)
    width = size["width"]
    pages = {
        "board": f"/en/e/{evening.organiser_token}/",
        "tally": f"/en/e/{evening.organiser_token}/tables/{table.pk}/paper",
        "table": table.sheet.get_absolute_url(),
        "print": f"/en/e/{evening.organiser_token}/series/1/print",
        "own": f"/en/p/{evening.players.first().token}/",
        "ranking": f"/en/r/{evening.view_token}/",
        "new": "/en/evenings/new/",
    }
    for name, path in pages.items():
        page.goto(live_server.url + path)
        fits_and_taps(page, name)
        screenshot(page, f"pitch-night-{name}-{width}-{scheme}")
    context.close()
