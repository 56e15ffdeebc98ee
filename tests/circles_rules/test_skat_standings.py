"""A Skat season's table under every club rule, from hand-built records."""

from __future__ import annotations

import pytest

from circles.rules.standings import ClubRules, Reason, SheetRecord, skat_standings

from .sheets import JAN_10, JAN_17, JAN_24, record, skat, skat_seat

# Two evenings: players 1, 2, 3 on the 10th; 1, 2, 4 on the 17th.
TWO_EVENINGS = (
    skat(1, JAN_10, {1: skat_seat(900, won=10, lost=1), 2: skat_seat(400), 3: skat_seat(-100)}),
    skat(2, JAN_17, {1: skat_seat(300), 2: skat_seat(1000, won=4), 4: skat_seat(200)}),
)


def rows_by_player(standings):
    return {row.player: row for row in (*standings.ranked, *standings.unranked)}


def codes(row):
    return [reason.code for reason in row.reasons]


def test_ranked_by_total_seeger_fabian():
    standings = skat_standings(TWO_EVENINGS, ClubRules())
    # Default club rules: the Seeger-Fabian of every series played, added up.
    assert [(row.player, row.place, row.value) for row in standings.ranked] == [
        (2, 1, 1400.0),
        (1, 2, 1200.0),
        (4, 3, 200.0),
        (3, 4, -100.0),
    ]
    assert standings.unranked == ()
    assert standings.evenings == (JAN_10, JAN_17)
    assert standings.rules == ClubRules()
    first = standings.ranked[0]
    assert first.reasons[0] == Reason("ranked_by_total", {"value": 1400, "counted": 2, "series": 2})


def test_a_row_adds_up_the_series_played():
    row = rows_by_player(skat_standings(TWO_EVENINGS, ClubRules()))[1]
    assert (row.series, row.declared, row.won, row.lost) == (2, 11, 10, 1)
    assert (row.list_points, row.sf_total, row.sf_average, row.best_series) == (
        1200,
        1200,
        600.0,
        900,
    )
    assert (row.counted, row.counted_total, row.dropped, row.missed) == (2, 1200, 0, 0)


def test_ranked_by_average_per_series():
    records = (
        *TWO_EVENINGS,
        skat(3, JAN_24, {3: skat_seat(950), 5: skat_seat(800), 6: skat_seat(-20)}),
    )
    standings = skat_standings(records, ClubRules(rank_by="average"))
    # By average: player 3 has (−100 + 950) / 2 = 425; player 5 one series of 800.
    assert [(row.player, row.value) for row in standings.ranked] == [
        (5, 800.0),
        (2, 700.0),
        (1, 600.0),
        (3, 425.0),
        (4, 200.0),
        (6, -20.0),
    ]
    three = rows_by_player(standings)[3]
    assert three.reasons[0] == Reason(
        "ranked_by_average", {"value": 425.0, "total": 850, "counted": 2, "series": 2}
    )


def test_missed_evenings_ignored_are_still_named():
    rows = rows_by_player(skat_standings(TWO_EVENINGS, ClubRules(missed="ignore")))
    # Player 3 missed the 17th, player 4 the 10th; by default that costs nothing.
    assert rows[3].missed == rows[4].missed == 1
    assert rows[3].value == -100.0
    assert Reason("missed_ignored", {"evenings": 1}) in rows[3].reasons
    assert not any(code.startswith("missed") for code in codes(rows[1]))


# -- scaling ---------------------------------------------------------------------------


def test_a_24_deal_series_is_scaled_to_36():
    records = (
        skat(1, JAN_10, {1: skat_seat(800, deals=24), 2: skat_seat(7, deals=24)}),
        skat(2, JAN_17, {1: skat_seat(500), 2: skat_seat(-7, deals=24)}),
    )
    rows = rows_by_player(skat_standings(records, ClubRules(scale=True)))
    # Scaled series: sf × 36 / deals at a 3-table; 800 × 36 / 24 = 1200, the full
    # 36-deal series of 500 stays as it is.
    assert rows[1].value == 1700.0
    assert rows[1].sf_total == 1300  # the plain sum is never scaled
    assert [r for r in rows[1].reasons if r.code == "scaled"] == [
        Reason("scaled", {"sheet": 1, "deals": 24, "norm": 36, "sf": 800, "scaled": 1200})
    ]
    # 7 × 36 / 24 = 10.5 rounds half away from zero to 11, and −10.5 to −11.
    scaled = [r.params["scaled"] for r in rows[2].reasons if r.code == "scaled"]
    assert scaled == [11, -11]


def test_a_series_at_four_is_scaled_to_48():
    records = (skat(1, JAN_10, {1: skat_seat(100, deals=36, players=4), 2: skat_seat(0)}),)
    row = rows_by_player(skat_standings(records, ClubRules(scale=True)))[1]
    # 100 × 48 / 36 = 133.3… → 133.
    assert row.counted_total == 133
    assert row.reasons[1].params["norm"] == 48


def test_without_scaling_a_short_series_counts_as_played():
    records = (skat(1, JAN_10, {1: skat_seat(800, deals=24)}),)
    row = rows_by_player(skat_standings(records, ClubRules()))[1]
    assert row.value == 800.0
    assert "scaled" not in codes(row)


# -- dropping the worst series ---------------------------------------------------------

THREE_SERIES = (
    skat(1, JAN_10, {1: skat_seat(500)}),
    skat(2, JAN_17, {1: skat_seat(-200)}),
    skat(3, JAN_24, {1: skat_seat(300)}),
)


def test_the_worst_series_is_dropped():
    row = rows_by_player(skat_standings(THREE_SERIES, ClubRules(drop_worst=1)))[1]
    assert (row.value, row.counted, row.dropped, row.series) == (800.0, 2, 1, 3)
    assert Reason("dropped", {"count": 1, "values": (-200,)}) in row.reasons
    # The plain Seeger-Fabian figures keep every series played.
    assert row.sf_total == 600


def test_a_player_always_keeps_one_series():
    row = rows_by_player(skat_standings(THREE_SERIES, ClubRules(drop_worst=5)))[1]
    assert (row.value, row.counted, row.dropped) == (500.0, 1, 2)
    assert Reason("dropped", {"count": 2, "values": (-200, 300)}) in row.reasons


# -- missed evenings -------------------------------------------------------------------

# Evenings on the 10th, 17th and 24th; player 1 misses the 17th.
MISSES_ONE = (
    skat(1, JAN_10, {1: skat_seat(600), 2: skat_seat(100)}),
    skat(2, JAN_17, {2: skat_seat(100), 3: skat_seat(100)}),
    skat(3, JAN_24, {1: skat_seat(300), 2: skat_seat(100)}),
)


def test_a_missed_evening_counts_as_zero():
    rows = rows_by_player(skat_standings(MISSES_ONE, ClubRules(rank_by="average", missed="zero")))
    # (600 + 300 + 0) / 3: the missed evening is a series of 0.
    assert (rows[1].value, rows[1].counted, rows[1].series, rows[1].missed) == (300.0, 3, 2, 1)
    assert Reason("missed_zero", {"evenings": 1}) in rows[1].reasons
    # Player 3 joined on the 17th and missed two of the three evenings.
    assert (rows[3].value, rows[3].missed) == (100 / 3, 2)


def test_a_missed_evening_ignored():
    rows = rows_by_player(skat_standings(MISSES_ONE, ClubRules(rank_by="average")))
    assert (rows[1].value, rows[1].counted, rows[1].missed) == (450.0, 2, 1)


def test_a_missed_evening_can_be_the_dropped_series():
    rules = ClubRules(rank_by="average", missed="zero", drop_worst=1)
    row = rows_by_player(skat_standings(MISSES_ONE, rules))[1]
    assert (row.value, row.counted, row.dropped) == (450.0, 2, 1)
    assert Reason("dropped", {"count": 1, "values": (0,)}) in row.reasons


def test_the_minimum_counts_series_actually_played():
    rules = ClubRules(missed="zero", min_series=3)
    standings = skat_standings(MISSES_ONE, rules)
    # Player 1 has 2 series and a missed evening: 3 counted, still below 3 played.
    assert [row.player for row in standings.ranked] == [2]
    assert [(row.player, row.place) for row in standings.unranked] == [(1, None), (3, None)]


# -- the minimum of series -------------------------------------------------------------


def test_below_the_minimum_is_listed_apart():
    records = (
        *TWO_EVENINGS,
        skat(3, JAN_24, {1: skat_seat(10), 5: skat_seat(5000), 6: skat_seat(10)}),
    )
    standings = skat_standings(records, ClubRules(min_series=2))
    assert [row.player for row in standings.ranked] == [2, 1]
    # Not ranked: most series first, then player id; no place.
    assert [row.player for row in standings.unranked] == [3, 4, 5, 6]
    assert {row.place for row in standings.unranked} == {None}
    five = rows_by_player(standings)[5]
    assert five.reasons[0] == Reason("below_minimum", {"series": 1, "minimum": 2})
    assert five.value == 5000.0
    assert "ranked_by_total" not in codes(five)


# -- tie-breaks ------------------------------------------------------------------------


def test_tie_break_more_games_won():
    # Tie-break (ISkO tournament rules): on equal points more games won as declarer.
    records = (skat(1, JAN_10, {1: skat_seat(700, won=8), 2: skat_seat(700, won=9)}),)
    standings = skat_standings(records, ClubRules())
    assert [(row.player, row.place) for row in standings.ranked] == [(2, 1), (1, 2)]
    two, one = standings.ranked
    assert two.reasons[-1] == Reason("tie_games_won", {"other": 1, "won": 9, "other_won": 8})
    assert one.reasons[-1] == Reason("tie_games_won", {"other": 2, "won": 8, "other_won": 9})


def test_tie_break_fewer_games_lost():
    # Tie-break (ISkO tournament rules): equal points and games won, fewer games lost.
    records = (
        skat(1, JAN_10, {1: skat_seat(700, won=8, lost=3), 2: skat_seat(700, won=8, lost=2)}),
    )
    two, one = skat_standings(records, ClubRules()).ranked
    assert (two.player, two.place, one.place) == (2, 1, 2)
    assert two.reasons[-1] == Reason("tie_games_lost", {"other": 1, "lost": 2, "other_lost": 3})


def test_still_equal_the_place_is_shared():
    # Equal on points, games won and games lost: the place is shared, the next skipped.
    seat = skat_seat(700, won=8, lost=2)
    records = (skat(1, JAN_10, {3: seat, 1: seat, 2: skat_seat(10)}),)
    standings = skat_standings(records, ClubRules())
    assert [(row.player, row.place) for row in standings.ranked] == [(1, 1), (3, 1), (2, 3)]
    assert standings.ranked[0].reasons[-1] == Reason("tie_shared", {"other": 3, "place": 1})
    assert standings.ranked[1].reasons[-1] == Reason("tie_shared", {"other": 1, "place": 1})
    assert "tie_shared" not in codes(standings.ranked[2])


def test_equal_averages_share_a_place_whatever_the_series():
    # By average, 1 point over 3 series and 2 over 6 are the same: the place is shared.
    one = [skat(n, JAN_10, {1: skat_seat(sf)}) for n, sf in enumerate((1, 0, 0), start=1)]
    two = [skat(n, JAN_10, {2: skat_seat(sf)}) for n, sf in enumerate((1, 1, 0, 0, 0, 0), start=4)]
    standings = skat_standings([*one, *two], ClubRules(rank_by="average"))
    assert [(row.player, row.place) for row in standings.ranked] == [(1, 1), (2, 1)]


# -- guests, progress, bad records -----------------------------------------------------


def test_guests_are_left_out_entirely():
    standings = skat_standings(TWO_EVENINGS, ClubRules(), include=lambda player: player != 2)
    players = [row.player for row in standings.ranked]
    assert players == [1, 4, 3]
    assert [row.place for row in standings.ranked] == [1, 2, 3]
    assert all(2 not in values for _, values in standings.progress)
    # The guest's evenings are still evenings of the season.
    assert standings.evenings == (JAN_10, JAN_17)


def test_progress_after_each_evening():
    standings = skat_standings(TWO_EVENINGS, ClubRules(missed="zero", rank_by="average"))
    assert standings.progress == (
        # After the 10th player 4 has not played yet.
        (JAN_10, {1: 900.0, 2: 400.0, 3: -100.0, 4: 0.0}),
        # After the 17th player 3's missed evening counts as 0: (−100 + 0) / 2;
        # player 4 missed the 10th: (0 + 200) / 2.
        (JAN_17, {1: 600.0, 2: 700.0, 3: -50.0, 4: 100.0}),
    )


def test_an_empty_season():
    standings = skat_standings((), ClubRules())
    assert (standings.ranked, standings.unranked, standings.evenings, standings.progress) == (
        (),
        (),
        (),
        (),
    )


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (record(7, "pitch", JAN_10, (1, 2), (skat_seat(1), skat_seat(2))), "pitch sheet"),
        (record(7, "skat", JAN_10, (1, 2), (skat_seat(1),)), "one stats entry per seat"),
        (record(7, "skat", JAN_10, (1, 1), (skat_seat(1), skat_seat(2))), "one player twice"),
    ],
)
def test_records_that_cannot_be_ranked(bad: SheetRecord, message: str):
    with pytest.raises(ValueError, match=message):
        skat_standings([bad], ClubRules())
