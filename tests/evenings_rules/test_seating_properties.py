"""Properties of every draw (issue 17, "Built right": every draw seats every player
exactly once at legal table sizes)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from evenings.rules.seating import TABLE_SIZES, check_tables, draw_series, swap, table_sizes

FAST = settings(max_examples=80, deadline=None)

rolls = st.lists(st.integers(1, 10_000), min_size=3, max_size=60, unique=True)
seeds = st.integers(0, 999_999)
orders = st.sampled_from(("fours_first", "threes_first"))


@FAST
@given(roll=rolls, seed=seeds, order=orders, seeded=st.booleans())
def test_every_skat_draw_seats_every_player_exactly_once_at_legal_sizes(roll, seed, order, seeded):
    if seeded:
        draw = draw_series(roll, method="seeded", ranking=roll[::2], order=order)
    else:
        draw = draw_series(roll, seed=seed, order=order)
    assert sorted(draw.players) == sorted(roll)
    assert all(t.size in TABLE_SIZES["skat"] and len(t.players) == t.size for t in draw.tables)
    assert tuple(t.size for t in draw.tables) == table_sizes(len(roll), order=order)
    # As many fours as possible: at most three tables of three, a five only for 5 players.
    sizes = [t.size for t in draw.tables]
    assert sizes.count(3) <= 3
    assert 5 not in sizes or len(roll) == 5
    check_tables([t.players for t in draw.tables])


@FAST
@given(roll=rolls, seed=seeds, sat_out=st.dictionaries(st.integers(1, 10_000), st.integers(0, 3)))
def test_every_pitch_draw_seats_fours_and_sits_out_the_rest(roll, seed, sat_out):
    if len(roll) < 4:
        return
    draw = draw_series(roll, game="pitch", seed=seed, sit_out=True, sat_out=sat_out)
    assert sorted(draw.players + draw.sitting_out) == sorted(roll)
    assert len(draw.sitting_out) == len(roll) % 4
    assert all(t.size == 4 for t in draw.tables)
    # In turn: nobody sits out who sat out more often than someone playing.
    if draw.sitting_out:
        most_out = max(sat_out.get(p, 0) for p in draw.sitting_out)
        assert all(sat_out.get(p, 0) >= most_out for p in draw.players)


@FAST
@given(roll=rolls, seed=seeds, shuffled_roll=st.randoms(use_true_random=False))
def test_same_seed_and_same_roll_give_the_same_tables(roll, seed, shuffled_roll):
    other = list(roll)
    shuffled_roll.shuffle(other)
    last = [roll[i : i + 4] for i in range(0, len(roll), 4)]
    assert draw_series(roll, seed=seed) == draw_series(other, seed=seed)
    assert draw_series(roll, seed=seed, keep_apart=last) == draw_series(
        other, seed=seed, keep_apart=last
    )


@FAST
@given(roll=rolls, seed=seeds, data=st.data())
def test_a_swap_keeps_everyone_seated_once(roll, seed, data):
    draw = draw_series(roll, seed=seed)
    first, second = data.draw(st.lists(st.sampled_from(roll), min_size=2, max_size=2, unique=True))
    swapped = swap(draw, first, second)
    assert sorted(swapped.players) == sorted(roll)
    assert [t.size for t in swapped.tables] == [t.size for t in draw.tables]
    check_tables([t.players for t in swapped.tables])
    assert swap(swapped, first, second).tables == draw.tables
