"""The seating rules of a club evening (issue 17, "The evening"; api.md, "Club evenings")."""

from __future__ import annotations

import hashlib

import pytest

from evenings.rules.seating import (
    DEFAULT_SERIES_DEALS,
    KEEP_APART_TRIES,
    SeriesDeals,
    check_tables,
    draw_series,
    shuffled,
    swap,
    table_sizes,
    try_key,
)
from games.rules.errors import RuleError


def messages(error: RuleError) -> list[tuple[str | None, str]]:
    return [(p.field, str(p.message)) for p in error.problems]


# -- series lengths (issue 17: 48 at four, 36 at three, 60 at five; shortened series are
# multiples of the table size) --------------------------------------------------------


def test_default_series_lengths():
    assert SeriesDeals.from_mapping(None).as_dict() == {"3": 36, "4": 48, "5": 60}
    assert DEFAULT_SERIES_DEALS == {3: 36, 4: 48, 5: 60}


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({"3": 27, "4": 36}, {"3": 27, "4": 36, "5": 60}),  # issue 17: 36/27
        ({"3": 24, "4": 32}, {"3": 24, "4": 32, "5": 60}),  # 32/24
        ({"3": 12, "4": 16, "5": 20}, {"3": 12, "4": 16, "5": 20}),  # 16/12
        ({4: 48}, {"3": 36, "4": 48, "5": 60}),
    ],
)
def test_shortened_series_are_allowed(given, expected):
    deals = SeriesDeals.from_mapping(given)
    assert deals.as_dict() == expected
    assert deals.for_table(4) == expected["4"]


def test_a_length_that_is_not_a_multiple_of_the_table_size_is_refused():
    with pytest.raises(RuleError) as caught:
        SeriesDeals.from_mapping({"3": 35, "4": 0, "6": 48, "5": True})
    assert messages(caught.value) == [
        (
            "series_deals.3",
            "A series at a table of 3 is a multiple of 3 deals, so that everyone deals "
            "equally often: 35 is not (33 or 36 would be).",
        ),
        ("series_deals.4", "A series at a table of 4 is a whole number of deals above 0, not 0."),
        ("series_deals.6", "Series lengths are set for tables of 3, 4 or 5 players, not 6."),
        (
            "series_deals.5",
            "A series at a table of 5 is a whole number of deals above 0, not True.",
        ),
    ]


def test_series_lengths_are_a_mapping():
    with pytest.raises(RuleError) as caught:
        SeriesDeals.from_mapping([36, 48])
    assert caught.value.problems[0].field == "series_deals"


# -- table sizes (issue 17: as many fours as possible, threes for the rest; 5 make one
# table of five; Pitch at fours) ------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "fours_first", "threes_first"),
    [
        (3, (3,), (3,)),
        (4, (4,), (4,)),
        (5, (5,), (5,)),
        (6, (3, 3), (3, 3)),
        (7, (4, 3), (3, 4)),
        (8, (4, 4), (4, 4)),
        (9, (3, 3, 3), (3, 3, 3)),
        (10, (4, 3, 3), (3, 3, 4)),
        (11, (4, 4, 3), (3, 4, 4)),  # issue 17's browser evening: fours, fours and three
        (13, (4, 3, 3, 3), (3, 3, 3, 4)),
        (100, (4,) * 25, (4,) * 25),  # issue 17's bench: 25 tables
    ],
)
def test_skat_tables(players, fours_first, threes_first):
    assert table_sizes(players) == fours_first
    assert table_sizes(players, order="threes_first") == threes_first


@pytest.mark.parametrize("players", [0, 1, 2])
def test_a_skat_roll_too_small_is_told_why(players):
    with pytest.raises(RuleError) as caught:
        table_sizes(players)
    assert caught.value.problems[0].field == "players"
    assert str(caught.value.problems[0].message).startswith(
        "A Skat table needs at least 3 players; the roll has"
    )


def test_pitch_plays_at_fours_and_names_how_many_are_missing_or_over():
    assert table_sizes(12, game="pitch") == (4, 4, 4)
    with pytest.raises(RuleError) as caught:
        table_sizes(13, game="pitch")
    assert messages(caught.value) == [
        (
            "players",
            "Pitch is played at tables of four, and 13 players do not fill them: 3 players "
            "more, or 1 player fewer, would. Add or take off players, or let players sit out "
            "in turn.",
        )
    ]
    assert table_sizes(13, game="pitch", sit_out=True) == (4, 4, 4)
    with pytest.raises(RuleError):
        table_sizes(3, game="pitch", sit_out=True)


def test_unknown_game_and_order_are_refused_together():
    with pytest.raises(RuleError) as caught:
        table_sizes(8, game="doppelkopf", order="mixed")
    assert [p.field for p in caught.value.problems] == ["game", "tables"]


# -- the draw by lot (issue 17: reproducible from the shown seed) ----------------------


def reference_shuffle(players, key):
    """The algorithm as the rules page prints it, written out again independently."""
    order = list(players)
    i = len(order) - 1
    while i > 0:
        h = int(hashlib.sha256(f"{key}:{i}".encode()).hexdigest(), 16)
        j = h % (i + 1)
        order[i], order[j] = order[j], order[i]
        i -= 1
    return order


def test_the_lot_is_the_documented_shuffle_of_the_sorted_roll():
    roll = [11, 3, 7, 1, 9, 2, 5, 8, 10, 4, 6]
    draw = draw_series(roll, seed=4711)
    expected = reference_shuffle(sorted(roll), "4711")
    assert list(draw.players) == expected
    assert [t.size for t in draw.tables] == [4, 4, 3]
    assert [t.number for t in draw.tables] == [1, 2, 3]
    assert draw.tables[0].players == tuple(expected[:4])
    assert all(t.first_dealer == 0 for t in draw.tables)
    assert draw.seed == 4711
    assert draw.method == "lot"
    assert draw.attempt == 0
    # The explanation says the seed and the key of the shuffle.
    assert '"4711:i"' in draw.explanation[1].text


def test_same_seed_same_roll_same_tables_whatever_order_the_roll_comes_in():
    first = draw_series([1, 2, 3, 4, 5, 6, 7], seed=99)
    second = draw_series([7, 6, 5, 4, 3, 2, 1], seed=99)
    assert first == second
    assert draw_series(range(1, 8), seed=100) != first


def test_a_seed_is_needed_for_a_lot_and_refused_for_a_seeded_draw():
    with pytest.raises(RuleError) as caught:
        draw_series([1, 2, 3])
    assert caught.value.problems[0].field == "seed"
    with pytest.raises(RuleError) as caught:
        draw_series([1, 2, 3], method="seeded", seed=3)
    assert caught.value.problems[0].field == "seed"


def test_a_draw_with_two_players_is_refused():
    # Issue 17, "Bad input": a draw with 2 players.
    with pytest.raises(RuleError) as caught:
        draw_series([1, 2], seed=1)
    assert messages(caught.value) == [
        ("players", "A Skat table needs at least 3 players; the roll has 2 players.")
    ]


def test_a_player_on_the_roll_twice_is_refused():
    with pytest.raises(RuleError) as caught:
        draw_series([1, 2, 3, 3], seed=1)
    assert messages(caught.value) == [
        ("players", "Player 3 is on the roll twice; each player is seated once.")
    ]


def test_keep_apart_takes_the_first_reshuffle_with_nobody_together_again():
    # Issue 17: players who sat together in the last series are kept apart where the lot
    # allows. 9 players at three tables of three can always be kept apart.
    roll = list(range(1, 10))
    last = [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    draw = draw_series(roll, seed=5, keep_apart=last, series=2)
    for table in draw.tables:
        assert len({(p - 1) // 3 for p in table.players}) == 3
    assert draw.repeats == 0
    # Every earlier try put a pair together again, and the one taken is its key's shuffle.
    for attempt in range(draw.attempt):
        order = reference_shuffle(roll, try_key(5, attempt))
        tables = [order[0:3], order[3:6], order[6:9]]
        assert any(len({(p - 1) // 3 for p in t}) < 3 for t in tables)
    assert list(draw.players) == reference_shuffle(roll, try_key(5, draw.attempt))


def test_keep_apart_that_the_lot_cannot_allow_takes_the_fewest_pairs():
    # 11 players: a new table of four takes two players of some old table (4 seats, 3 old
    # tables), so nobody-together-again is impossible; the fewest repeats is taken.
    roll = list(range(1, 12))
    last = [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11)]
    draw = draw_series(roll, seed=4711, keep_apart=last)
    assert draw.repeats >= 2
    assert draw.keep_apart
    fewest = min(
        _repeats(shuffled(roll, try_key(4711, a)), (4, 4, 3), last) for a in range(KEEP_APART_TRIES)
    )
    assert draw.repeats == fewest
    assert "could not keep everyone apart in 100 draws" in draw.explanation[-2].text


def _repeats(order, sizes, last):
    pairs = {frozenset((a, b)) for t in last for a in t for b in t if a != b}
    start, found = 0, set()
    for size in sizes:
        table = order[start : start + size]
        found |= {frozenset((a, b)) for a in table for b in table if a != b}
        start += size
    return len(found & pairs)


# -- the seeded draw (issue 17: players 1–4 at table 1 and so on; tables of three last) --


def test_seeded_draw_follows_the_ranking_with_threes_last():
    ranking = [5, 3, 9, 1, 11, 2, 7, 4, 10, 8, 6]
    draw = draw_series(range(1, 13), method="seeded", ranking=ranking, series=2)
    # 12 players: three tables of four; player 12 is not ranked yet and comes last.
    assert [t.players for t in draw.tables] == [
        (5, 3, 9, 1),
        (11, 2, 7, 4),
        (10, 8, 6, 12),
    ]
    draw = draw_series(range(1, 12), method="seeded", ranking=ranking)
    assert [t.size for t in draw.tables] == [4, 4, 3]
    assert draw.tables[-1].players == (10, 8, 6)
    assert draw.seed is None


# -- Pitch sit-outs (api.md: a roll not a multiple of four sits players out in turn) ----


def test_pitch_sit_outs_go_in_turn():
    roll = list(range(1, 11))
    first = draw_series(roll, game="pitch", seed=1, sit_out=True)
    assert first.sitting_out == (1, 2)
    second = draw_series(roll, game="pitch", seed=2, sit_out=True, sat_out={1: 1, 2: 1})
    assert second.sitting_out == (3, 4)
    assert sorted(second.players) == [1, 2, 5, 6, 7, 8, 9, 10]


# -- checks and swaps (issue 17: a swap before a series starts, recorded; a player at two
# tables and a swap across series are refused) ----------------------------------------


def test_a_player_at_two_tables_is_refused():
    with pytest.raises(RuleError) as caught:
        check_tables([(1, 2, 3, 4), (4, 5, 6)], names={4: "Dora"})
    assert messages(caught.value) == [
        (
            "tables.1",
            "Dora is seated at table 1 and again at table 2; each player sits at one table.",
        )
    ]
    with pytest.raises(RuleError) as caught:
        check_tables([(1, 2)])
    assert "Table 1 has 2 players" in str(caught.value)
    check_tables([(1, 2, 3, 4, 5)])


def test_a_swap_exchanges_two_places_and_is_recorded():
    draw = draw_series(range(1, 8), seed=3)
    a, b = draw.tables[0].players[1], draw.tables[1].players[2]
    swapped = swap(draw, a, b)
    assert swapped.tables[0].players[1] == b
    assert swapped.tables[1].players[2] == a
    assert [(s.first, s.second) for s in swapped.swaps] == [(a, b)]
    assert swapped.explanation[-1].text.startswith("Before the series started")
    assert swapped.seed == draw.seed


def test_swaps_that_break_the_rules_are_refused():
    draw = draw_series(range(1, 8), seed=3, series=2)
    with pytest.raises(RuleError) as caught:
        swap(draw, 1, 99)
    assert messages(caught.value) == [
        ("second", "Player 99 is not in series 2; only its players can be swapped.")
    ]
    with pytest.raises(RuleError) as caught:
        swap(draw, 1, 2, series=1)  # a swap across series
    assert caught.value.problems[0].field == "series"
    with pytest.raises(RuleError):
        swap(draw, 1, 2, started=True)
    with pytest.raises(RuleError):
        swap(draw, 1, 1)


def test_every_problem_of_a_draw_request_is_told_at_once():
    with pytest.raises(RuleError) as caught:
        draw_series([1, 2, 3], series=0, method="hat", order="big", game="bridge")
    assert [p.field for p in caught.value.problems] == ["game", "tables", "series", "draw"]
    with pytest.raises(RuleError) as caught:
        draw_series("Ana, Ben", seed=-1)
    assert [p.field for p in caught.value.problems] == ["players", "seed"]
    with pytest.raises(RuleError) as caught:
        draw_series([1, 2, "Cem"], method="seeded", ranking=[1, 1])
    assert [p.field for p in caught.value.problems] == ["players", "ranking"]


def test_a_five_table_and_the_pitch_tables_explain_themselves():
    five = draw_series([1, 2, 3, 4, 5], seed=8)
    assert five.explanation[0].text == (
        "5 players make one table of five: each deal the dealer and the third player to "
        "their left sit out."
    )
    pitch = draw_series(range(1, 10), game="pitch", seed=8, sit_out=True, names={1: "Ana"})
    assert [step.text for step in pitch.explanation[:2]] == [
        "Pitch is played at tables of four: 2 tables.",
        "Ana sits out this series: the player who sat out least so far (by number among equals).",
    ]
    assert pitch.as_dict()["sitting_out"] == [1]
    assert pitch.as_dict()["tables"][0]["size"] == 4


def test_keep_apart_says_so_when_the_first_draw_keeps_everyone_apart():
    last = [(1, 2, 3)]  # only three of them played last time
    draw = draw_series(range(1, 10), seed=4, keep_apart=last)
    assert draw.attempt == 0
    assert draw.repeats == 0
    assert draw.explanation[2].text == (
        "Nobody sits with a player from their table of the last series."
    )
    # With seed 6 the first draw seats two of them together; the second try does not.
    again = draw_series(range(1, 10), seed=6, keep_apart=last)
    assert (again.attempt, again.repeats) == (1, 0)
    assert again.explanation[2].text.startswith(
        "Players who sat together in the last series are kept apart: the draw was made "
        "again 1 time,"
    )
