"""The Skat sheet keeps running counts instead of every deal: same results, no growth.

A :class:`SkatSheet` used to rank the series by calling ``seeger_fabian`` on every
deal's list entry and to find the Bock deals owed by replaying ``bock_schedule`` over
every deal, on each read and each new deal. It now keeps the Seeger-Fabian counts per
seat and the Bock deals still owed as it goes. These tests drive random series through
it and check, after every deal, that it says what the whole-list computation says, and
that what the app keeps of a sheet (the record of its running counts) is the same size
at deal 140 as at deal 20.
"""

from __future__ import annotations

import json
from itertools import takewhile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.errors import RuleError
from games.rules.sheet import DealResult, SheetState
from games.rules.skat import Matadors
from games.rules.skat_list import (
    BockEvent,
    ListedDeal,
    SeegerFabianTally,
    bock_deals_owed,
    bock_schedule,
    check_listed_deal,
    seeger_fabian,
    seeger_fabian_of_tally,
)
from games.rules.skat_sheet import SkatSheet
from tests.rules.test_skat_list import fields_of, listed_series
from tests.rules.test_skat_sheet import FOUR, THREE, abstract_deals, concrete, options, tables

# ---------------------------------------------------------------------------
# The whole-list computation, as the sheet did it before it kept running counts
# ---------------------------------------------------------------------------


def bock_deals_queued_from_scratch(players: int, events: list[BockEvent]) -> int:
    """Bock deals still owed after ``events``: the run of Bock deals the schedule gives next."""
    # No run can be longer than every round triggered so far, one deal per seat each.
    longest = sum(event.triggers_hit for event in events) * players
    ahead = bock_schedule(players=players, events=[*events] + [0] * (longest + 1))
    return sum(1 for _ in takewhile(bool, ahead[len(events) :]))


def listed(result: DealResult) -> ListedDeal:
    """The deal's entry on the list, from what the sheet reported of it."""
    details = result.details
    return ListedDeal(
        result.scores,
        details["declarer"],
        details["won"],
        details["sitting_out"],
        details["sitting_out_seats"],
    )


def bock_event(result: DealResult) -> BockEvent:
    details = result.details
    thrown_in = details["passed"] and details["game"] is None
    return BockEvent(details["bock_rounds_added"], thrown_in=thrown_in)


def whole_list_state(
    sheet: SkatSheet, results: list[DealResult], entries: list[ListedDeal], events: list[BockEvent]
) -> SheetState:
    """The sheet's state computed from every deal so far, as ``SkatSheet.state`` once did."""
    count = len(sheet.players)
    standing = seeger_fabian(players=count, deals=entries, names=sheet.players)
    queued = bock_deals_queued_from_scratch(count, events)
    finished = len(results) >= sheet.series_deals
    first = tuple(seat for place, seat in standing.standings if place == 1)
    return SheetState(
        players=sheet.players,
        deals=tuple(results),
        totals=results[-1].totals if results else (0,) * count,
        finished=finished,
        winners=first if finished else (),
        # The wording of the next deal and the headline is the sheet's; what it is
        # worded from (the Bock deals owed, the standings) is computed here.
        next_deal=None if finished else sheet._next_deal(queued),
        headline=sheet._headline(standing, first),
        details={
            "seeger_fabian": standing,
            "standings": standing.standings,
            "series_deals": sheet.series_deals,
            "deals_left": sheet.series_deals - len(results),
            "bock_deals_queued": queued,
        },
    )


def bock_notes(queued: int) -> list[str]:
    # Bock rounds (house rule): the scorer is told the next deal counts double and how
    # many Bock deals are still queued.
    if not queued:
        return []
    if queued == 1:
        return ["Bock: this deal counts double.", "It is the last Bock deal queued."]
    return [
        "Bock: this deal counts double.",
        f"{queued} Bock deals are queued, this one included.",
    ]


# ---------------------------------------------------------------------------
# Random series: the running counts say what the whole list says
# ---------------------------------------------------------------------------


@st.composite
def long_sheets(draw):
    """A sheet's table and house rules, and deals enough for Bock rounds to overlap."""
    players, first_dealer, kontra_re, chosen = draw(tables(series=(1, 40), bock_may_be_off=True))
    deals = draw(st.lists(abstract_deals(kontra_re), min_size=1, max_size=40))
    return players, first_dealer, chosen, deals


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(long_sheets())
def test_every_state_is_what_the_whole_list_gives(sheet_plan):
    # Rule book: Tournament scoring: Seeger-Fabian, and Bock rounds (house rule). After
    # every deal the totals, the Seeger-Fabian rows, standings and explanation, the
    # headline and the next deal with its Bock notes are those of the whole series.
    players, first_dealer, chosen, plan = sheet_plan
    sheet = SkatSheet(players=players, first_dealer=first_dealer, options=chosen)
    results: list[DealResult] = []
    entries: list[ListedDeal] = []
    events: list[BockEvent] = []
    assert sheet.state == whole_list_state(sheet, results, entries, events)
    for item in plan:
        if sheet.finished:
            break
        result = sheet.add(concrete(item, sheet))
        results.append(result)
        entries.append(listed(result))
        events.append(bock_event(result))
        # Bock rounds (house rule): this deal was a Bock deal exactly when the schedule
        # of the whole series says so, and a deal that adds rounds says how many are owed.
        owed = bock_deals_queued_from_scratch(len(players), events)
        assert result.details["bock"] is bock_schedule(players=len(players), events=events)[-1]
        said = [step.text for step in result.explanation if step.text.startswith("Bock deals now")]
        assert said == ([f"Bock deals now queued: {owed}."] if events[-1].triggers_hit else [])

        state = sheet.state
        assert state == whole_list_state(sheet, results, entries, events)
        rows = state.details["seeger_fabian"].rows
        assert tuple(row.list_points for row in rows) == state.totals
        if state.next_deal is not None:
            assert state.next_deal.details["bock_deals_queued"] == owed
            assert state.next_deal.details["bock"] is (owed > 0)
            assert list(state.next_deal.notes[: len(bock_notes(owed))]) == bock_notes(owed)


@settings(max_examples=100, deadline=None)
@given(listed_series())
def test_a_tally_kept_deal_by_deal_ranks_as_the_whole_list(series):
    # Rule book: Tournament scoring: Seeger-Fabian. The counts per seat, kept one deal at
    # a time, are the sums over the whole list, and rank the series the same way.
    players, deals = series
    tally = SeegerFabianTally.empty(players)
    for deal in deals:
        check_listed_deal(deal, players=players)
        tally = tally.plus(deal)
    for seat in range(players):
        assert tally.list_points[seat] == sum(d.scores[seat] for d in deals)
        assert tally.games_won[seat] == sum(1 for d in deals if d.declarer == seat and d.won)
        assert tally.games_lost[seat] == sum(
            1 for d in deals if d.declarer == seat and d.won is False
        )
        assert tally.lost_by_others[seat] == sum(
            1 for d in deals if d.declarer not in (None, seat) and d.won is False
        )
    names = ["Ana", "Ben", "Cem", "Dan", "Eva"][:players]
    assert seeger_fabian_of_tally(tally, names=names) == seeger_fabian(
        players=players, deals=deals, names=names
    )


def test_a_tally_is_ranked_for_a_table_of_three_to_five_named_players():
    with pytest.raises(RuleError) as caught:
        seeger_fabian_of_tally(SeegerFabianTally.empty(6), names=["Ana"])
    assert fields_of(caught.value) == ["players"]
    with pytest.raises(RuleError) as caught:
        seeger_fabian_of_tally(SeegerFabianTally.empty(3), names=["Ana"])
    assert fields_of(caught.value) == ["names"]


@pytest.mark.parametrize(
    ("deal", "fields"),
    [
        # Rule book: Tournament scoring: Seeger-Fabian. A lost game is written as
        # −2 × its value, never 0 or more.
        pytest.param(ListedDeal((0, 0, 0), declarer=1, won=False), ["deals.7.scores.1"], id="lost"),
        pytest.param(ListedDeal((0, 0), declarer=0, won=True), ["deals.7.scores"], id="short"),
        pytest.param(ListedDeal((0, 5, 0)), [], id="ramsch-is-fine"),
    ],
)
def test_one_list_entry_is_checked_as_the_whole_list_checks_it(deal, fields):
    # Rule book: Tournament scoring: Seeger-Fabian. The sheet checks each new list entry
    # alone, and finds what the whole list's check finds at that deal.
    whole = [ListedDeal((0, 0, 0))] * 7 + [deal]
    assert fields_found(lambda: check_listed_deal(deal, players=3, where="deals.7")) == fields
    assert fields_found(lambda: seeger_fabian(players=3, deals=whole)) == fields


def fields_found(check) -> list[str | None]:
    try:
        check()
    except RuleError as error:
        return fields_of(error)
    return []


# ---------------------------------------------------------------------------
# Bock deals owed, one deal at a time
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "owed", "event", "after"),
    [
        # Bock rounds (house rule): a round is one deal per seat, from the next deal on.
        pytest.param(3, 0, 1, 3, id="round-of-three"),
        pytest.param(4, 0, 1, 4, id="round-of-four"),
        pytest.param(5, 0, 1, 5, id="round-of-five"),
        # Bock rounds (house rule): a Bock deal uses up one deal of the run.
        pytest.param(3, 3, 0, 2, id="one-used"),
        pytest.param(3, 0, 0, 0, id="nothing-owed"),
        # Bock rounds (house rule): rounds triggered during a run queue up after it.
        pytest.param(3, 2, 2, 7, id="queued-behind"),
        # Bock rounds (house rule): a thrown-in deal still uses up its place.
        pytest.param(4, 4, BockEvent(0, thrown_in=True), 3, id="thrown-in"),
        pytest.param(4, 1, BockEvent(1), 4, id="event"),
    ],
)
def test_bock_deals_owed(players, owed, event, after):
    assert bock_deals_owed(players=players, owed=owed, event=event) == after


@pytest.mark.parametrize(
    ("players", "owed", "event", "fields"),
    [
        # Bock rounds (house rule): at five a round is five deals (issue 17).
        pytest.param(6, 0, 0, ["players"], id="six-players"),
        pytest.param(3, -1, 0, ["owed"], id="negative-owed"),
        # Bock rounds (house rule): at most one round per trigger, and there are four.
        pytest.param(3, 0, 5, ["event"], id="more-than-triggers"),
        pytest.param(3, 0, BockEvent(1, thrown_in=True), ["event"], id="thrown-in-triggers"),
        pytest.param(2, -3, -1, ["players", "owed", "event"], id="all"),
    ],
)
def test_bock_deals_owed_rejects(players, owed, event, fields):
    with pytest.raises(RuleError) as caught:
        bock_deals_owed(players=players, owed=owed, event=event)
    assert fields_of(caught.value) == fields


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([3, 4]), st.lists(st.integers(0, 4), max_size=40))
def test_bock_deals_owed_follow_the_schedule(players, events):
    # Bock rounds (house rule): the deals owed after each deal, counted one deal at a
    # time, are the run of Bock deals the whole schedule gives next.
    owed = 0
    schedule = bock_schedule(players=players, events=events)
    for number, hit in enumerate(events):
        assert schedule[number] is (owed > 0)
        owed = bock_deals_owed(players=players, owed=owed, event=hit)
        assert owed == bock_deals_queued_from_scratch(
            players, [BockEvent(h) for h in events[: number + 1]]
        )


# ---------------------------------------------------------------------------
# A kept sheet does not grow
# ---------------------------------------------------------------------------

# A cycle of deals by table position: won and lost games, games that start Bock rounds
# (a Grand worth 144, a 60:60, a Grand Hand, a lost Kontra game) and passed deals.
GRAND_WITH_4 = {"game": "grand", "bid": 18, "matadors": Matadors("with", 4)}
CYCLE = [
    ("played", 0, {**GRAND_WITH_4, "outcome": "won_schneider"}),
    ("played", 1, {"game": "clubs", "bid": 18, "matadors": Matadors("with", 1), "outcome": "lost"}),
    ("passed", 0, True),
    ("played", 2, {"game": "null", "bid": 23, "outcome": "won"}),
    (
        "played",
        0,
        {
            "game": "diamonds",
            "bid": 18,
            "matadors": Matadors("with", 1),
            "declarer_points": 60,
            "declarer_tricks": 5,
        },
    ),
    ("played", 1, {**GRAND_WITH_4, "outcome": "won", "hand": True}),
    (
        "played",
        2,
        {
            "game": "hearts",
            "bid": 18,
            "matadors": Matadors("against", 2),
            "outcome": "lost",
            "kontra": True,
        },
    ),
    ("passed", 3, False),
]
ALL_TRIGGERS = {
    "sixty_all": True,
    "lost_after_kontra": True,
    "hundred_or_more": True,
    "grand_hand_won": True,
}


def kept_size(players, all_pass: str, deals: int) -> int:
    """How many bytes the sheet's record takes as JSON after ``deals``."""
    chosen = options(kontra_re=True, bock=ALL_TRIGGERS, all_pass=all_pass, series_deals=200)
    sheet = SkatSheet(players=players, first_dealer=1, options=chosen)
    for number in range(deals):
        sheet.add(concrete(CYCLE[number % len(CYCLE)], sheet))
    assert any(deal.details["bock"] for deal in sheet.state.deals)
    return len(json.dumps(sheet.record()))


@pytest.mark.parametrize(
    ("players", "all_pass"),
    [
        pytest.param(THREE, "throw_in", id="three-throw-in"),
        pytest.param(FOUR, "ramsch", id="four-ramsch"),
    ],
)
def test_a_kept_sheet_is_as_big_at_deal_140_as_at_deal_20(players, all_pass):
    # The standings and the Bock rounds of the deals so far are kept as a few counts,
    # not deal by deal. Both lengths end on the same deals of the cycle, dealt by the
    # same seats (120 deals apart: 15 cycles, 40 rounds of three, 30 of four), so what
    # still differs is the width of the numbers.
    short = kept_size(players, all_pass, 20)
    long = kept_size(players, all_pass, 140)
    assert abs(long - short) < 40, (short, long)
    assert long < 400, long
