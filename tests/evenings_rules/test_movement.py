"""The movement of a Pitch party night (issue 21, "Pitch party nights: progressive
tables, rotating partners, one winner").

Issue 21: "Movement, chosen by the organiser: 'progressive' (winners move up a table,
the head table stays, partners split so that no two play together twice in a row
where the numbers allow) or 'rotation' (a schedule in which everyone partners
everyone once and meets each opponent as evenly as possible, for up to 16 players;
larger nights use the progressive movement)"; the roll is "a multiple of four;
otherwise the app says how many are missing and offers a sit-out rotation where each
round a different player sits out"; "every round seats every present player exactly
once in tables of four; in 'rotation' each pair partners at most once".
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evenings.rules.movement import (
    ROTATIONS,
    Round,
    RoundTable,
    first_round,
    next_progressive_round,
    roll_shortfall,
    rotation_length,
    rotation_schedule,
    sat_out_counts,
    seat_line,
    sitting_out,
)
from evenings.rules.seating import draw_series
from games.rules.errors import RuleError
from tests.processes import clean_environment

SOME = settings(max_examples=120, deadline=None)
FEW = settings(max_examples=60, deadline=None)

NAMES = {1: "Ana", 2: "Ben", 3: "Cem", 4: "Dan", 5: "Eva", 6: "Fay", 7: "Gil", 8: "Hal"}


def messages(error: RuleError) -> list[tuple[str | None, str]]:
    return [(p.field, str(p.message)) for p in error.problems]


def teams(round_: Round) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    return [table.teams for table in round_.tables]


def night(first: Round, winners: list[dict[int, int]]) -> list[Round]:
    rounds = [first]
    for won in winners:
        rounds.append(next_progressive_round(rounds[-1], won, history=rounds))
    return rounds


def eight() -> Round:
    """Round 1 of an eight-player night, as worked by hand below: table 1 seats Ana,
    Ben, Cem, Dan (Ana and Cem against Ben and Dan), table 2 Eva, Fay, Gil, Hal."""
    return Round(1, (RoundTable(1, ((1, 3), (2, 4))), RoundTable(2, ((5, 7), (6, 8)))))


# -- the progressive movement, worked by hand -------------------------------------------


def test_eight_players_over_three_rounds():
    """Winners move up a table, the head table's winners stay, its losers go to the
    last table, and at each table those who stayed partner those who arrived.

    Round 1: table 1 Ana & Cem beat Ben & Dan; at table 2 Fay & Hal beat Eva & Gil.
    Round 2: Ana & Cem stay at table 1, Fay & Hal move up to it: Ana (first who
    stayed) partners Fay (first who arrived), Cem partners Hal. Ben & Dan go to the
    last table, table 2, where Eva & Gil stayed: Eva with Ben, Gil with Dan.
    Round 2's winners: Cem & Hal at table 1, Eva & Ben at table 2.
    Round 3: table 1 Cem, Hal (stayed) with Eva, Ben (arrived): nobody has partnered
    either way, so the first with the first: Cem & Eva against Hal & Ben. Table 2: Gil,
    Dan (stayed) with Ana, Fay: Gil & Ana against Dan & Fay.
    """
    one, two, three = night(eight(), [{1: 0, 2: 1}, {1: 1, 2: 0}])
    assert teams(two) == [((1, 6), (3, 8)), ((5, 2), (7, 4))]
    assert [t.seats for t in two.tables] == [(1, 3, 6, 8), (5, 7, 2, 4)]
    assert teams(three) == [((3, 5), (8, 2)), ((7, 1), (4, 6))]
    assert (two.number, three.number) == (2, 3)
    assert two.sitting_out == three.sitting_out == ()
    assert str(seat_line(three, 1, NAMES)) == "Round 3: table 2, with Gil against Dan and Fay"
    assert str(seat_line(three, 8, NAMES)) == "Round 3: table 1, with Ben against Cem and Eva"
    named = next_progressive_round(one, {1: 0, 2: 1}, names=NAMES)
    assert [str(step) for step in named.explanation] == [
        "The head table's winners, Ana and Cem, stay at it.",
        "The head table's losers, Ben and Dan, go to the last table, table 2.",
        "Table 2's winners, Fay and Hal, move up to table 1.",
        "Table 2's losers, Eva and Gil, stay at it.",
        "Pitch is played at tables of four: 2 tables.",
        "Table 1: Ana and Fay against Cem and Hal; nobody partners a player they have "
        "partnered tonight.",
        "Table 2: Eva and Ben against Gil and Dan; nobody partners a player they have "
        "partnered tonight.",
    ]
    assert {step.rule for step in named.explanation} <= {"evening-movement", "evening-tables"}


def test_the_way_that_repeats_fewer_partnerships_of_the_night_is_taken():
    """Rule 3: "choosing, of the two ways to pair them, the one that repeats fewer
    earlier partnerships (over the whole night so far)".

    Winners: table 1's first team every round; table 2's first team in rounds 1 and
    2, its second team in rounds 3 and 4. Round 5 has Ana & Dan staying at table 1 and Cem & Ben arriving: the first way
    (Ana & Cem, Dan & Ben) would repeat both partnerships of round 1, so the other is
    taken (Ana & Ben, Dan & Cem). Likewise at table 2: Hal & Eva stayed, Fay & Gil
    arrived; Hal & Fay and Eva & Gil partnered in round 1, so Hal & Gil, Eva & Fay.
    """
    rounds = night(eight(), [{1: 0, 2: 0}, {1: 0, 2: 0}, {1: 0, 2: 1}, {1: 0, 2: 1}])
    assert [teams(r) for r in rounds[1:]] == [
        [((1, 5), (3, 7)), ((6, 2), (8, 4))],
        [((1, 6), (5, 2)), ((8, 3), (4, 7))],
        [((1, 4), (6, 7)), ((8, 5), (3, 2))],
        [((1, 2), (4, 3)), ((8, 7), (5, 6))],
    ]


def test_among_equal_repeats_the_partnerships_of_longest_ago_are_taken():
    """Rule 4: both ways repeat two partnerships; the one whose pairs last partnered
    longest ago is taken. Round 6, table 1: Cem & Fay stayed, Hal & Ana arrived. Cem &
    Hal and Fay & Ana partnered in round 2, Cem & Ana and Fay & Hal in round 1: so
    Cem & Ana against Fay & Hal."""
    winners = [{1: 0, 2: 1}, {1: 1, 2: 0}, {1: 0, 2: 0}, {1: 0, 2: 1}, {1: 0, 2: 1}]
    rounds = night(eight(), winners)
    assert teams(rounds[4]) == [((3, 6), (7, 2)), ((4, 5), (8, 1))]
    assert teams(rounds[5])[0] == ((3, 1), (6, 8))
    step = next(s for s in rounds[5].explanation if str(s).startswith("Table 1:"))
    assert str(step) == (
        "Table 1: player 3 and player 1 against player 6 and player 8; 2 pairs partner "
        "again tonight, but none twice in a row."
    )


def test_the_history_may_hold_the_previous_round_or_not():
    """The night so far is read once, whether or not the history repeats the round just
    played."""
    rounds = night(eight(), [{1: 0, 2: 0}, {1: 0, 2: 0}, {1: 0, 2: 1}])
    with_it = next_progressive_round(rounds[-1], {1: 0, 2: 1}, history=rounds)
    without = next_progressive_round(rounds[-1], {1: 0, 2: 1}, history=rounds[:-1])
    assert with_it == without
    assert teams(with_it) == [((1, 2), (4, 3)), ((8, 7), (5, 6))]


def test_with_one_table_the_three_partnerships_come_round_in_turn():
    """With a single table of four both teams stay; partners never play together twice
    in a row, so the three ways to pair four players come round in turn."""
    first = Round(1, (RoundTable(1, ((1, 3), (2, 4))),))
    rounds = night(first, [{1: i % 2} for i in range(8)])
    ways = [r.partnerships() for r in rounds]
    assert len(set(ways)) == 3
    assert all(ways[i] == ways[i + 3] for i in range(len(ways) - 3))
    assert teams(rounds[1]) == [((1, 2), (3, 4))]
    assert teams(rounds[2]) == [((3, 2), (4, 1))]
    assert str(rounds[1].explanation[0]) == (
        "With one table both teams stay at it, and the partners change."
    )


def test_five_players_sit_out_in_turn_and_come_back_in_the_sitters_place():
    """The sit-out rotation: each round a different player sits out, the one who sat
    out least (then by number), and the player who sat out takes the place of this
    round's sitter-out.

    Round 1: Ana sits out; Ben & Dan beat Cem & Eva. Round 2: Ben sits out (nobody
    else has, and he is first by number) and Ana takes his place: the first who stayed
    is now Ana, and she partners Cem (the first who arrived). Dan & Eva won; round 3:
    Cem sits out and Ben takes his place among the arrivals; Dan would partner Ben
    again (round 1), so the other way: Dan & Ana against Eva & Ben.
    """
    first = Round(1, (RoundTable(1, ((2, 4), (3, 5))),), sitting_out=(1,))
    second = next_progressive_round(first, {1: 0}, names=NAMES)
    assert second.sitting_out == (2,)
    assert teams(second) == [((1, 3), (4, 5))]
    assert "Ana takes the place of Ben at table 1." in [str(s) for s in second.explanation]
    assert (
        "Ben sits out this round: the player who sat out least so far (among equals, one "
        "who did not sit out the last round, then by number)."
    ) in [str(s) for s in second.explanation]
    third = next_progressive_round(second, {1: 1}, history=[first])
    assert third.sitting_out == (3,)
    assert teams(third) == [((4, 1), (5, 2))]
    assert str(seat_line(third, 3, NAMES)) == "Round 3: you sit out"


def test_the_first_round_is_the_seating_draw_with_the_sitters_out_first():
    """Round 1 is drawn like a Pitch series of the evening: the same seed seats the
    same tables, seats 1 and 3 against seats 2 and 4."""
    roll = [12, 3, 7, 40, 5, 9, 22, 31, 8, 14, 2]
    drawn = first_round(roll, 4711, names=NAMES)
    series = draw_series(roll, game="pitch", seed=4711, sit_out=True)
    assert drawn.sitting_out == series.sitting_out == (2, 3, 5)
    assert [t.seats for t in drawn.tables] == [t.players for t in series.tables]
    assert all(
        t.teams == ((t.seats[0], t.seats[2]), (t.seats[1], t.seats[3])) for t in drawn.tables
    )
    assert [str(s) for s in drawn.explanation][:2] == [
        "Pitch is played at tables of four: 2 tables.",
        "Ben, Cem and Eva sit out round 1: the first on the roll, by "
        "number; the others take their turn in the next rounds.",
    ]


def test_players_who_arrive_take_free_places_and_open_tables():
    """Newcomers fill the places left (after those coming back from sitting out);
    four more open a table after the last one."""
    first = Round(1, (RoundTable(1, ((1, 3), (2, 4))),))
    grown = next_progressive_round(first, {1: 0}, roll=[1, 2, 3, 4, 5, 6, 7, 8], names=NAMES)
    assert teams(grown)[0] == ((1, 2), (3, 4))
    assert sorted(grown.tables[1].seats) == [5, 6, 7, 8]
    assert "Eva takes a free place at table 2." in [str(s) for s in grown.explanation]
    shrunk = next_progressive_round(grown, {1: 0, 2: 0}, roll=[1, 2, 3, 4, 5])
    assert len(shrunk.tables) == 1
    assert sorted((*shrunk.players, *shrunk.sitting_out)) == [1, 2, 3, 4, 5]


# -- input ----------------------------------------------------------------------------


def test_a_missing_winner_is_refused_on_its_table():
    """A round that ended level (a time limit) still needs a winner: the organiser's
    input must say which team won."""
    with pytest.raises(RuleError) as caught:
        next_progressive_round(eight(), {1: 0})
    assert messages(caught.value) == [
        (
            "winners.2",
            "Table 2 has no winner. A round that ended level needs the organiser to say "
            "which team won.",
        )
    ]


def test_a_winner_for_a_table_that_does_not_exist_or_a_team_that_does_not_is_refused():
    with pytest.raises(RuleError) as caught:
        next_progressive_round(eight(), {1: 2, 2: True, 3: 0, "x": 1})
    assert messages(caught.value) == [
        ("winners.3", "Round 1 has no table 3."),
        ("winners.x", "Round 1 has no table x."),
        (
            "winners.1",
            "The winners at table 1 are team 0 (the first) or team 1 (the second), not 2.",
        ),
        (
            "winners.2",
            "The winners at table 2 are team 0 (the first) or team 1 (the second), not True.",
        ),
    ]
    with pytest.raises(RuleError) as caught:
        next_progressive_round(eight(), [0, 1])
    assert [p.field for p in caught.value.problems] == ["winners"]


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        ([1, 2, 3], "A Pitch table needs 4 players; the roll has 3 players."),
        ([1, 2, 2, 3, 4], "Player 2 is on the roll twice; each player is seated once."),
        ([1, 2, 3, "4"], "The roll is a list of player ids, whole numbers."),
        ([1, 2, 3, True], "The roll is a list of player ids, whole numbers."),
        ([1, 2, 3, 4.0], "The roll is a list of player ids, whole numbers."),
        ("1234", "The roll is a list of player ids."),
        (None, "The roll is a list of player ids."),
    ],
)
def test_a_bad_roll_is_refused_with_a_clear_problem(roll, expected):
    for call in (
        lambda: first_round(roll, 1),
        lambda: rotation_schedule(roll),
        lambda: sitting_out(roll),
        lambda: next_progressive_round(eight(), {1: 0, 2: 0}, roll=0 if roll is None else roll),
    ):
        with pytest.raises(RuleError) as caught:
            call()
        assert messages(caught.value) == [("players", expected)]


def test_bad_seeds_rounds_and_previous_rounds_are_refused():
    with pytest.raises(RuleError) as caught:
        first_round([1, 2, 3, 4], None)
    assert messages(caught.value) == [("seed", "A draw by lot needs a seed.")]
    for seed in (-1, True, "4711", 1.5):
        with pytest.raises(RuleError) as caught:
            first_round([1, 2, 3, 4], seed)
        assert messages(caught.value) == [("seed", "The seed is a whole number, 0 or more.")]
    with pytest.raises(RuleError) as caught:
        rotation_schedule([1, 2, 3, 4], 0, seed=False)
    assert [p.field for p in caught.value.problems] == ["seed", "rounds"]
    broken = Round(1, (RoundTable(1, ((1, 2), (2, 3))),))
    for previous in (broken, None, "round 1", eight().tables[0]):
        with pytest.raises(RuleError) as caught:
            next_progressive_round(previous, {1: 0})
        assert messages(caught.value) == [
            ("previous", "Give the round just played to seat the next one.")
        ]
    with pytest.raises(RuleError) as caught:
        next_progressive_round(eight(), {1: 0, 2: 0}, history=[1, 2])
    assert [p.field for p in caught.value.problems] == ["history"]


def test_how_many_are_missing_or_over():
    """ "The roll (a multiple of four; otherwise the app says how many are missing"."""
    assert roll_shortfall(8) == (0, 0)
    assert roll_shortfall(10) == (2, 2)
    assert roll_shortfall(13) == (3, 1)
    assert roll_shortfall(7) == (1, 3)
    for count in (3, 0, -1, True, "8"):
        with pytest.raises(RuleError) as caught:
            roll_shortfall(count)
        assert caught.value.problems[0].field == "players"


def test_sitting_out_takes_who_sat_out_least_then_not_last_round_then_by_number():
    assert sitting_out([1, 2, 3, 4, 5, 6, 7, 8]) == ()
    assert sitting_out([5, 1, 3, 2, 4, 6]) == (1, 2)
    assert sitting_out([1, 2, 3, 4, 5], {1: 1, 2: 1}) == (3,)
    # Player 1 arrived late and sat out last round; the others have sat out once: all
    # equal, so not Player 1 again but Player 2.
    assert sitting_out([1, 2, 3, 4, 5], {1: 1, 2: 1, 3: 1, 4: 1, 5: 1}, last_out=[1]) == (2,)
    for bad in ([1, 2], {1: -1}, {1: True}):
        with pytest.raises(RuleError) as caught:
            sitting_out([1, 2, 3, 4, 5], bad)
        assert [p.field for p in caught.value.problems] == ["sat_out"]
    with pytest.raises(RuleError):
        sitting_out([1, 2, 3, 4, 5], last_out=3)


def test_seat_line_for_a_player_not_in_the_round_is_refused():
    with pytest.raises(RuleError) as caught:
        seat_line(eight(), 9, NAMES)
    assert messages(caught.value) == [("player", "Player 9 does not play in round 1.")]


# -- the progressive movement, properties -----------------------------------------------

rolls = st.lists(st.integers(1, 10_000), min_size=4, max_size=40, unique=True)
seeds = st.integers(0, 999_999)


def check_round(round_: Round, present: list[int]) -> None:
    """Every present player exactly once, at a table of four or sitting out; the
    tables numbered 1, 2, …; as many tables as the roll fills."""
    assert sorted((*round_.players, *round_.sitting_out)) == sorted(present)
    assert len(round_.players) == len(set(round_.players))
    assert len(round_.sitting_out) == len(present) % 4
    assert len(round_.tables) == len(present) // 4
    assert [t.number for t in round_.tables] == list(range(1, len(round_.tables) + 1))
    for table in round_.tables:
        assert len(table.teams) == 2
        assert all(len(team) == 2 for team in table.teams)
        assert len(set(table.seats)) == 4


def play(data, roll: list[int], seed: int, rounds: int, *, changes: bool = False):
    """A night: round 1 drawn with ``seed``, then random winners (and, with
    ``changes``, players leaving and arriving). Yields (previous, winners, round, roll)."""
    current = first_round(roll, seed)
    check_round(current, roll)
    history = [current]
    present = list(roll)
    for _ in range(rounds):
        won = {t.number: data.draw(st.integers(0, 1)) for t in current.tables}
        if changes:
            leaving = data.draw(st.lists(st.sampled_from(present), max_size=2, unique=True))
            taken = set(present)
            arriving = data.draw(
                st.lists(st.integers(10_001, 10_100), max_size=5, unique=True).filter(
                    lambda new, taken=taken: not set(new) & taken
                )
            )
            after = [p for p in present if p not in leaving] + arriving
            if len(after) >= 4:
                present = after
        following = next_progressive_round(current, won, history=history, roll=present)
        check_round(following, present)
        yield current, won, following, list(present)
        history.append(following)
        current = following


@SOME
@given(roll=rolls, seed=seeds, rounds=st.integers(1, 6), data=st.data())
def test_every_progressive_round_seats_every_present_player_exactly_once(roll, seed, rounds, data):
    """ "Every round seats every present player exactly once in tables of four", and no
    two partner twice in a row: players leaving and arriving, sitting out, any
    winners."""
    for previous, _won, following, _present in play(data, roll, seed, rounds, changes=True):
        assert not previous.partnerships() & following.partnerships()


@SOME
@given(roll=rolls, seed=seeds, rounds=st.integers(1, 6), data=st.data())
def test_winners_move_up_the_head_table_stays_its_losers_go_to_the_last_table(
    roll, seed, rounds, data
):
    """Winners move up a table and losers stay; at the head table the winners stay and
    the losers go to the last table; those coming back from sitting out take the
    places of this round's sitters-out; each who stayed partners one who arrived."""
    for previous, won, following, _present in play(data, roll, seed, rounds):
        last = len(previous.tables)
        expected: dict[int, int] = {}
        stayed: set[int] = set()
        for table in previous.tables:
            winners, losers = table.teams[won[table.number]], table.teams[1 - won[table.number]]
            if table.number == 1:
                expected.update(dict.fromkeys(winners, 1))
                expected.update(dict.fromkeys(losers, last))
                stayed.update(winners if last > 1 else ())
            else:
                expected.update(dict.fromkeys(winners, table.number - 1))
                expected.update(dict.fromkeys(losers, table.number))
                stayed.update(losers)
        if last == 1:
            stayed.update(previous.tables[0].teams[won[1]])
        back = Counter()
        went = Counter()
        for player, table in expected.items():
            if player in following.sitting_out:
                went[table] += 1
            else:
                assert following.table_of(player).number == table
        for player in previous.sitting_out:
            back[following.table_of(player).number] += 1
        assert back == went
        if not previous.sitting_out and not following.sitting_out:
            for table in following.tables:
                for team in table.teams:
                    assert len(stayed & set(team)) == 1


@SOME
@given(roll=rolls, seed=seeds, rounds=st.integers(1, 8), data=st.data())
def test_sit_outs_rotate(roll, seed, rounds, data):
    """ "Each round a different player sits out": nobody sits out a second time while
    someone present has not sat out, and nobody sits out two rounds running."""
    counts = Counter(dict.fromkeys(roll, 0))
    counts.update(first_round(roll, seed).sitting_out)
    for previous, _won, following, _present in play(data, roll, seed, rounds):
        counts.update(following.sitting_out)
        assert max(counts.values()) - min(counts.values()) <= 1
        assert not set(previous.sitting_out) & set(following.sitting_out)
    history = [first_round(roll, seed)]
    assert sat_out_counts(history) == dict(Counter(history[0].sitting_out))


# -- the rotation -------------------------------------------------------------------------

ROUNDS = {4: 3, 5: 5, 6: 7, 7: 10, 8: 7, 9: 9, 10: 11, 11: 13, 12: 11, 13: 13, 14: 15}
ROUNDS |= {15: 17, 16: 15}
# Pairs meeting three times as opponents (module docstring), for 6, 7, 10, 11, 14, 15.
THRICE = {6: 2, 7: 1, 10: 4, 11: 1, 14: 6, 15: 3}


def tallies(schedule):
    partners: Counter[frozenset[int]] = Counter()
    opponents: Counter[frozenset[int]] = Counter()
    for round_ in schedule:
        for table in round_.tables:
            partners.update(frozenset(team) for team in table.teams)
            first, second = table.teams
            opponents.update(frozenset((a, b)) for a in first for b in second)
    return partners, opponents


@pytest.mark.parametrize("count", range(4, 17))
def test_each_rotation_has_its_properties(count):
    """Each pair partners at most once; for 4, 8, 12, 16 players exactly once, and
    every pair opposes exactly twice; for 5, 9, 13 everyone sits out exactly once and
    partners everyone exactly once; otherwise every two meet as opponents one to
    three times. Sit-outs rotate. One round more could not keep the partnerships
    new."""
    roll = list(range(1, count + 1))
    schedule = rotation_schedule(roll)
    assert len(schedule) == ROUNDS[count] == rotation_length(count) == len(ROTATIONS[count])
    assert [r.number for r in schedule] == list(range(1, len(schedule) + 1))
    for round_ in schedule:
        check_round(round_, roll)
    partners, opponents = tallies(schedule)
    pairs = [frozenset(p) for p in combinations(roll, 2)]
    assert max(partners.values()) == 1
    out = Counter(p for r in schedule for p in r.sitting_out)
    seen = Counter(dict.fromkeys(roll, 0))
    for round_ in schedule:
        seen.update(round_.sitting_out)
        assert max(seen.values()) - min(seen.values()) <= 1
    if count % 4 == 0:
        assert all(partners[p] == 1 for p in pairs)
        assert all(opponents[p] == 2 for p in pairs)
        assert not out
    elif count % 4 == 1:
        assert all(partners[p] == 1 for p in pairs)
        assert all(opponents[p] == 2 for p in pairs)
        assert all(out[p] == 1 for p in roll)
    else:
        assert all(1 <= opponents[p] <= 3 for p in pairs)
        assert sum(1 for p in pairs if opponents[p] == 3) == THRICE[count]
        # One round more: whoever sat out least would play more rounds than there
        # are others to partner.
        more = len(schedule) + 1
        assert more - (count % 4) * more // count > count - 1


@FEW
@given(
    roll=st.lists(st.integers(1, 10_000), min_size=4, max_size=16, unique=True),
    seed=st.none() | seeds,
    data=st.data(),
)
def test_every_rotation_round_seats_every_player_once_and_no_pair_partners_twice(roll, seed, data):
    """ "In 'rotation' each pair partners at most once", whatever the ids and the draw;
    a rotation cut short is its first rounds."""
    rounds = data.draw(st.none() | st.integers(1, rotation_length(len(roll))))
    schedule = rotation_schedule(roll, rounds, seed=seed)
    full = rotation_schedule(roll, seed=seed)
    assert schedule == full[: rounds or len(full)]
    for round_ in schedule:
        check_round(round_, roll)
    partners, _opponents = tallies(full)
    assert max(partners.values()) == 1
    if seed is not None:
        assert schedule[0].tables == first_round(roll, seed).tables
        assert schedule[0].sitting_out == first_round(roll, seed).sitting_out


def test_rotations_are_refused_beyond_sixteen_players_and_beyond_their_rounds():
    """ "For up to 16 players; larger nights use the progressive movement"."""
    with pytest.raises(RuleError) as caught:
        rotation_schedule(range(1, 18))
    assert messages(caught.value) == [
        (
            "players",
            "The rotation is for 4 to 16 players; with 17 players use the progressive movement.",
        )
    ]
    with pytest.raises(RuleError) as caught:
        rotation_schedule(range(1, 7), 8)
    assert messages(caught.value) == [
        ("rounds", "The rotation for 6 players has 7 rounds; it cannot be longer.")
    ]
    for rounds in (0, -1, True, 2.0, "3"):
        with pytest.raises(RuleError) as caught:
            rotation_schedule(range(1, 7), rounds)
        assert messages(caught.value) == [
            ("rounds", "The number of rounds is a whole number, 1 or more.")
        ]
    for count in (3, 17, True):
        with pytest.raises(RuleError):
            rotation_length(count)


def test_a_rotation_explains_itself():
    schedule = rotation_schedule([1, 2, 3, 4, 5], names=NAMES)
    assert [str(s) for s in schedule[0].explanation] == [
        "The rotation for 5 players has 5 rounds: every player sits out once, partners "
        "every other player once and meets each as an opponent twice.",
        "The players take their places in the schedule in roll order.",
        "Ana sits out this round; in the rotation everyone sits out in turn.",
        "Partners sit across the table: seats 1 and 3 play against seats 2 and 4. Seat 1 "
        "deals first.",
    ]
    assert str(seat_line(schedule[0], 2, NAMES)) == "Round 1: table 1, with Dan against Cem and Eva"
    assert schedule[0].as_dict() == {
        "number": 1,
        "tables": [{"number": 1, "teams": [[2, 4], [3, 5]], "seats": [2, 3, 4, 5]}],
        "sitting_out": [1],
    }


# -- bad input never breaks anything else -------------------------------------------------


def outcome(call):
    """What ``call()`` returns, or the ``RuleError`` it raises (any other exception
    fails the test)."""
    try:
        return call(), None
    except RuleError as error:
        return None, error


junk = st.one_of(
    st.integers(-3, 20),
    st.booleans(),
    st.none(),
    st.text(max_size=2),
    st.floats(allow_nan=False, allow_infinity=False),
)


@SOME
@given(roll=st.one_of(junk, st.lists(junk, max_size=20)), seed=junk, rounds=junk)
def test_any_input_gives_a_seating_or_a_rule_error(roll, seed, rounds):
    """Duplicates, too few or too many players, ids that are not whole numbers, bools:
    a ``RuleError`` with clear problems, never another exception."""
    for call in (
        lambda: first_round(roll, seed),
        lambda: rotation_schedule(roll, rounds, seed=seed),
        lambda: sitting_out(roll),
        lambda: roll_shortfall(rounds),
        lambda: rotation_length(rounds),
    ):
        _result, error = outcome(call)
        if error is not None:
            assert error.problems
            assert all(str(p.message) for p in error.problems)


near_winners = st.dictionaries(
    st.sampled_from([0, 1, 2, 3, True]), st.sampled_from([0, 1, 2, True, None]), max_size=4
)


@SOME
@given(
    winners=st.one_of(junk, st.dictionaries(junk, junk, max_size=4), near_winners),
    roll=st.one_of(
        st.none(),
        st.lists(junk, max_size=10),
        st.lists(st.integers(1, 12), min_size=3, max_size=12, unique=True),
    ),
)
def test_any_winners_give_a_round_or_a_rule_error(winners, roll):
    """A winner for a table that does not exist, a missing winner, a team that is not
    0 or 1: a ``RuleError`` naming the field, never another exception."""
    following, error = outcome(lambda: next_progressive_round(eight(), winners, roll=roll))
    if error is not None:
        assert error.problems
        assert all(p.field for p in error.problems)
    else:
        check_round(following, sorted(roll) if roll is not None else list(range(1, 9)))


# -- a library, like the referee ------------------------------------------------------------

MODULE = Path(__file__).resolve().parents[2] / "evenings" / "rules" / "movement.py"


def test_the_movement_imports_no_django_and_nothing_of_the_project_but_the_rules():
    """tests/test_referee_is_pure.py checks evenings/rules/*.py for Django; this also
    holds the relative import to the evening rules' own modules."""
    tree = ast.parse(MODULE.read_text())
    absolute = set()
    relative = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            absolute.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            (relative if node.level else absolute).add(node.module or "")
    project = {"django", "games", "circles", "evenings", "accounts", "scorekeeper"}
    assert {m for m in absolute if m.split(".")[0] in project} <= {
        "games.rules.errors",
        "games.rules.text",
        "games.rules.words",
    }
    assert relative == {"seating"}


def test_the_movement_runs_without_django_installed():
    code = (
        "import sys; sys.modules['django'] = None\n"
        "from evenings.rules import movement\n"
        "print(len(movement.rotation_schedule(range(1, 17))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=MODULE.parents[2],
        env=clean_environment(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "15"
