"""A new deal on a circle sheet costs the same at deal 200 as at deal 10.

The seats' stored contributions (``SheetResult.stats``) take the one new deal
(``circles.rules.contributions.seat_stats_after``) instead of a replay of the whole
sheet; after every deal they must be exactly what ``seat_stats`` gives for the whole
sheet replayed: the same keys, in the same order (``by_type`` and ``by_bid`` too),
with the same values.
"""

from __future__ import annotations

import dataclasses
import json
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from circles import results, services
from circles.models import CircleSheet, SeatPlayer, SheetResult, StandingsChange
from circles.rules.contributions import follows, seat_stats, seat_stats_after
from games import selectors
from games import services as sheet_services
from games.games import GAMES
from games.rules.errors import RuleError
from games.snapshots import TAIL
from tests.test_circles_results import fresh, replay

# -- random deals, each game's as its JSON is entered ----------------------------------------

# Skat's bids (Skat rules, "Bidding"): the game values a declarer may name.
SKAT_BIDS = (18, 20, 22, 23, 24, 27, 30, 33, 35, 36, 40, 44, 45, 46, 48, 50, 54, 55, 59, 60)


def suit_or_grand(players: int):
    return st.builds(
        lambda declarer, game, direction, count, bid, hand, outcome: {
            "declarer": declarer,
            "game": game,
            "bid": bid,
            "hand": hand,
            "matadors": {direction: count},
            "outcome": outcome,
        },
        st.integers(0, players - 1),
        st.sampled_from(("clubs", "spades", "hearts", "diamonds", "grand")),
        st.sampled_from(("with", "against")),
        st.integers(1, 4),
        # Small bids mostly: a bid above the game's value is an overbid (Skat rules,
        # "Overbidding"), lost whatever the outcome entered.
        st.sampled_from(SKAT_BIDS[:6] + SKAT_BIDS[7::4]),
        st.booleans(),
        st.sampled_from(("won", "lost")),
    )


def null(players: int):
    return st.builds(
        lambda declarer, hand, outcome: {
            "declarer": declarer,
            "game": "null",
            "bid": 23,
            "hand": hand,
            "outcome": outcome,
        },
        st.integers(0, players - 1),
        st.booleans(),
        st.sampled_from(("won", "lost")),
    )


# Everyone passed: the deal is thrown in, or (with all_pass "ramsch") played as a
# Ramsch, entered with the points and tricks of the seats that play; at four the
# dealer sits out and has none, so a seat left out that is not the dealer is refused.
RAMSCH_SPLITS = (((30, 50, 40), (3, 4, 3)), ((0, 60, 60), (0, 5, 5)), ((40, 40, 40), (3, 4, 3)))


def _ramsch(split, out: int | None, last: int) -> dict:
    points, tricks = (list(part) for part in split)
    if out is not None:
        points.insert(out, None)
        tricks.insert(out, 0)
    return {"passed": True, "ramsch": {"points": points, "tricks": tricks, "last_trick": last}}


def skat_deals(players: int, ramsch: bool):
    passed = (
        st.builds(
            _ramsch,
            st.sampled_from(RAMSCH_SPLITS),
            st.none() if players == 3 else st.integers(0, 3),
            st.integers(0, players - 1),
        )
        if ramsch
        else st.just({"passed": True})
    )
    games = suit_or_grand(players)
    return st.one_of(games, games, null(players), passed)


SKAT_OPTIONS = (
    {"series_deals": 36},
    {"series_deals": 9, "all_pass": "ramsch"},
    # Bock (Skat rules, "Bock"): scores double, so equally big games and bigger ones
    # come up.
    {"series_deals": 24, "bock": {"hundred_or_more": True}},
)

POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")
# Bids 4 to 9 and, now and then, the moon (10-Point Pitch, "Shooting the moon"): a moon
# missed loses the game at once.
PITCH_BIDS = (*range(4, 10), *range(4, 10), "moon")


def _pitched(pitcher: int, bid: int | str, marks: list[str], sweep: bool) -> dict:
    if sweep:  # the pitcher's team takes every point (partners sit opposite)
        marks = ["AB"[pitcher % 2]] * len(POINT_KEYS)
    taken = ["out" if mark == "-" else mark for mark in marks]
    return {"pitcher": pitcher, "bid": bid, "points": dict(zip(POINT_KEYS, taken, strict=True))}


PITCH_DEALS = st.builds(
    _pitched,
    st.integers(0, 3),
    st.sampled_from(PITCH_BIDS),
    st.lists(st.sampled_from("AAABBB-"), min_size=8, max_size=8),
    st.sampled_from((False, False, False, True)),
)

CARDS = ("AS", "KH", "QD", "JC", "10S", "9H", "2C", "3D", "4H", "5S", "7C", "8D")


def manipulation_deals(players: int):
    # A round as penalties (the player who went out scores 0), or as the cards left in
    # each hand: every hand holding cards is a round nobody went out (the stock ran out).
    penalties = st.builds(
        lambda out, points: {
            "penalties": [0 if seat == out else points[seat] * 5 for seat in range(players)]
        },
        st.integers(0, players - 1),
        st.lists(st.integers(1, 12), min_size=players, max_size=players),
    )
    hands = st.lists(
        st.lists(st.sampled_from(CARDS), min_size=1, max_size=3),
        min_size=players,
        max_size=players,
    ).map(lambda hands: {"hands": hands})
    return st.one_of(penalties, penalties, hands)


def setups():
    """A game, its players, options and deals."""
    skat = st.tuples(st.sampled_from((3, 4)), st.sampled_from(SKAT_OPTIONS)).flatmap(
        lambda table: st.tuples(
            st.just("skat"),
            st.just(["Ana", "Ben", "Cem", "Dan"][: table[0]]),
            st.just(table[1]),
            st.lists(skat_deals(table[0], "all_pass" in table[1]), min_size=3, max_size=40),
        )
    )
    pitch = st.tuples(
        st.just("pitch"),
        st.just(["Ana", "Ben", "Cem", "Dan"]),
        st.sampled_from(({"target": 21}, {"target": 52})),
        st.lists(PITCH_DEALS, min_size=3, max_size=30),
    )
    manipulation = st.sampled_from((3, 4)).flatmap(
        lambda players: st.tuples(
            st.just("manipulation"),
            st.just(["Ana", "Ben", "Cem", "Dan"][:players]),
            st.sampled_from(({"target": 200}, {"target": 300})),
            st.lists(manipulation_deals(players), min_size=3, max_size=30),
        )
    )
    return st.one_of(skat, pitch, manipulation)


def exactly(stats) -> str:
    """The dicts as stored: keys, their order and the values."""
    return json.dumps(list(stats))


def as_read_back(stats) -> str:
    """The dicts as a database gives them back: PostgreSQL's jsonb keeps the keys and
    values but not their order (the pages put by_type and by_bid in the game's order:
    circles/rules/profile.py)."""
    return json.dumps(list(stats), sort_keys=True)


def rules_hold(game: str, state, stats) -> None:
    """What the docstring says of the numbers, checked on the whole sheet."""
    deals = state.deals
    if game == "skat":
        played = [d for d in deals if not d.details["passed"]]
        # Two defenders in every played deal: at a table of four the dealer sits the
        # deal out and defends nothing (Skat rules, "Seats").
        assert sum(s["defended"] for s in stats) == 2 * len(played)
        assert sum(s["defended_won"] for s in stats) == 2 * sum(
            1 for d in played if not d.details["won"]
        )
        for seat, s in enumerate(stats):
            # by_type lists the types declared, clubs, spades, hearts, diamonds, grand, null.
            order = ("clubs", "spades", "hearts", "diamonds", "grand", "null")
            assert list(s["by_type"]) == [t for t in order if t in s["by_type"]]
            # Seeger-Fabian counts every game won or lost as declarer.
            assert sum(n for n, _ in s["by_type"].values()) == s["won"] + s["lost"]
            won = [d for d in deals if d.details["declarer"] == seat and d.details["won"]]
            if not won:
                assert s["biggest"] is None
            else:
                # The first of equally big games stands: it was played first.
                top = max(d.details["score"] for d in won)
                first = next(d for d in won if d.details["score"] == top)
                assert s["biggest"]["deal"] == first.number
    elif game == "pitch":
        for s in stats:
            # Partners share their team's points and result.
            partner = stats[s["partner"]]
            assert (partner["points_taken"], partner["won"]) == (s["points_taken"], s["won"])
            assert s["made"] + s["set"] == s["bids"] == sum(n for n, _ in s["by_bid"].values())
    else:
        # Every penalty point is on the total; the one who goes out scores 0.
        assert [s["penalties"] for s in stats] == list(state.totals)
        assert sum(s["went_out"] for s in stats) <= len(deals)
        if state.finished:
            # Players tied on the lowest total share the win (Manipulation, "End of the game").
            low = min(state.totals)
            assert [s["won"] for s in stats] == [total == low for total in state.totals]


# -- the fold, on the engines themselves ------------------------------------------------------


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups())
def test_the_stats_after_each_deal_are_those_of_the_whole_sheet(setup):
    game, names, options, deals = setup
    entry = GAMES[game]
    read = entry.read_options(options, players=len(names))
    engine = entry.new_sheet(names=names, first_dealer=0, options=read)
    stored = json.loads(exactly(seat_stats(game, engine.state, [])))
    for data in deals:
        try:
            deal = engine.add(entry.read_deal(data, players=len(names), options=read))
        except RuleError:
            continue  # refused (a finished game, a dealer who sits out …): nothing changes
        whole = engine.state
        # What a kept engine gives: the latest deals only (games.snapshots).
        tail = dataclasses.replace(whole, deals=whole.deals[-TAIL:])
        assert follows(game, stored, tail, deal)
        after = seat_stats_after(game, stored, tail, deal)
        expected = seat_stats(game, whole, [{}] * len(whole.deals))
        assert exactly(after) == exactly(expected)
        rules_hold(game, whole, expected)
        stored = json.loads(exactly(after))  # as the JSON field gives them back


def test_stats_of_other_shapes_do_not_follow():
    entry = GAMES["skat"]
    read = entry.read_options({}, players=3)
    engine = entry.new_sheet(names=["Ana", "Ben", "Cem"], first_dealer=0, options=read)
    before = json.loads(exactly(seat_stats("skat", engine.state, [])))
    deal = engine.add(entry.read_deal({"passed": True}, players=3, options=read))
    state = engine.state
    assert follows("skat", before, state, deal)
    # Stats written by older code (a key missing), a deal skipped, a seat missing.
    older = [{k: v for k, v in s.items() if k != "defended_won"} for s in before]
    behind = [{**s, "deals": s["deals"] - 1} for s in before]
    for stale in (older, behind, before[:2], [{**before[0], "biggest": 3}, *before[1:]]):
        assert not follows("skat", stale, state, deal)
        with pytest.raises(RuleError):
            seat_stats_after("skat", stale, state, deal)


# -- the same through the services, as stored --------------------------------------------------


@pytest.fixture
def circle(django_user_model):
    owner = django_user_model.objects.create_user("olga", "olga@example.org")
    return services.circle_create(owner=owner, name="Tuesday club")


def stored(link: CircleSheet) -> list[dict]:
    return [r.stats for r in SheetResult.objects.filter(sheet=link).order_by("position")]


def replayed(link: CircleSheet) -> list[dict]:
    """The whole sheet replayed here from its stored deals, without games.selectors."""
    state, entries = replay(link)
    return list(seat_stats(fresh(link).game, state, entries))


def no_replay():
    """Nothing of the sheet is read back and replayed."""
    refuse = mock.Mock(side_effect=AssertionError("the sheet was replayed"))
    return mock.patch.multiple(
        selectors, sheet_state=refuse, replayed_engine=refuse, live_hands=refuse
    )


@pytest.mark.django_db
@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(setup=setups())
def test_every_new_deal_on_a_circle_sheet_stores_the_stats_of_a_full_replay(circle, setup):
    game, names, options, deals = setup
    sheet = services.sheet_create_in_circle(
        circle=circle, game=game, players=names, options=options
    )
    link = CircleSheet.objects.get(sheet=sheet)
    for data in deals[:20]:
        try:
            with no_replay():
                sheet_services.hand_record(sheet=sheet, data=data)
        except RuleError:
            continue
        assert as_read_back(stored(link)) == as_read_back(replayed(link))
    # Entering deals changes nothing after the fact: nothing is noted.
    assert not StandingsChange.objects.filter(sheet=link).exists()


def manipulation_link(circle, rounds: int) -> CircleSheet:
    sheet = services.sheet_create_in_circle(
        circle=circle, game="manipulation", players=["Ana", "Ben", "Cem"], options={"target": 300}
    )
    for number in range(rounds):
        # Each goes out in turn, the others keep 5 points: 60 rounds is 200 each.
        penalties = [0 if seat == number % 3 else 5 for seat in range(3)]
        sheet_services.hand_record(sheet=sheet, data={"penalties": penalties})
    return CircleSheet.objects.get(sheet=sheet)


@pytest.mark.django_db
def test_a_deal_on_a_long_circle_sheet_replays_nothing(circle):
    link = manipulation_link(circle, 60)
    add = mock.Mock(wraps=results.seat_stats_after)
    with no_replay(), mock.patch.object(results, "seat_stats_after", add):
        sheet_services.hand_record(sheet=fresh(link), data={"penalties": [15, 0, 20]})
    assert add.call_count == 1
    assert stored(link) == replayed(link)
    assert [s["deals"] for s in stored(link)] == [61] * 3
    assert [s["went_out"] for s in stored(link)] == [20, 21, 20]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda result: result.delete(), id="a seat without stats"),
        pytest.param(
            lambda result: SheetResult.objects.filter(pk=result.pk).update(
                stats={k: v for k, v in result.stats.items() if k != "went_out"}
            ),
            id="stats of older code",
        ),
        pytest.param(
            lambda result: SheetResult.objects.filter(pk=result.pk).update(
                stats={**result.stats, "deals": 2}
            ),
            id="stats of another deal",
        ),
    ],
)
def test_stats_that_cannot_take_the_deal_are_replayed(circle, damage):
    link = manipulation_link(circle, 5)
    damage(SheetResult.objects.get(sheet=link, position=1))
    sheet_services.hand_record(sheet=fresh(link), data={"penalties": [15, 0, 20]})
    assert as_read_back(stored(link)) == as_read_back(replayed(link))
    assert SheetResult.objects.filter(sheet=link).count() == 3


def deal_queries(link: CircleSheet, data: dict) -> int:
    sheet = fresh(link)
    with CaptureQueriesContext(connection) as captured:
        sheet_services.hand_record(sheet=sheet, data=data)
    return len(captured)


@pytest.mark.django_db
def test_a_new_deal_on_a_circle_sheet_costs_the_same_queries_for_3_and_60_deals(circle):
    counts = [
        deal_queries(manipulation_link(circle, rounds), {"penalties": [15, 0, 20]})
        for rounds in (3, 60)
    ]
    assert counts[0] == counts[1]
    # Measured: 15. The write as on any sheet (savepoints, the sheet locked, its seats,
    # the undone deals, the deal, its history row, the version and its re-read, the
    # kept engine), then the results: the seats' players, the stored stats and one
    # update per seat. Replaying the sheet for its stats read its live deals too (16).
    assert counts[0] <= 15


@pytest.mark.django_db
def test_a_new_deal_that_finishes_a_sheet_counts_it_and_notes_nothing(circle):
    sheet = services.sheet_create_in_circle(
        circle=circle, game="manipulation", players=["Ana", "Ben", "Cem"], options={"target": 200}
    )
    link = CircleSheet.objects.get(sheet=sheet)
    sheet_services.hand_record(sheet=sheet, data={"penalties": [0, 35, 60]})
    with no_replay():
        sheet_services.hand_record(sheet=sheet, data={"penalties": [45, 0, 150]})
    # Cem reaches 210: the game is over and Ben wins with 35 (Manipulation, "End of
    # the game").
    assert [(s["finished"], s["won"], s["total"]) for s in stored(link)] == [
        (True, False, 45),
        (True, True, 35),
        (True, False, 210),
    ]
    assert stored(link) == replayed(link)
    assert not StandingsChange.objects.exists()
    assert SeatPlayer.objects.filter(sheet=link).count() == 3
