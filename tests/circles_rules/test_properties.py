"""Properties of the standings that hold for any season."""

from __future__ import annotations

import datetime
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from circles.rules.standings import (
    ClubRules,
    SheetRecord,
    manipulation_standings,
    pitch_standings,
    skat_standings,
)

from .sheets import manipulation_game, pitch_game, skat_seat

PLAYERS = range(1, 8)
DAYS = tuple(datetime.date(2025, 3, day) for day in (1, 8, 15, 22))
FAST = settings(max_examples=60, deadline=None)

club_rules = st.builds(
    ClubRules,
    rank_by=st.sampled_from(("total", "average")),
    scale=st.booleans(),
    min_series=st.integers(0, 4),
    drop_worst=st.integers(0, 4),
    missed=st.sampled_from(("ignore", "zero")),
)


@st.composite
def skat_records(draw) -> list[SheetRecord]:
    records = []
    for sheet_id in range(draw(st.integers(0, 8))):
        size = draw(st.sampled_from((3, 4)))
        players = draw(
            st.lists(st.sampled_from(PLAYERS), min_size=size, max_size=size, unique=True)
        )
        deals = draw(st.sampled_from((12, 24, 36, 48)))
        stats = tuple(
            skat_seat(
                draw(st.integers(-1500, 3000)),
                won=draw(st.integers(0, 12)),
                lost=draw(st.integers(0, 6)),
                deals=deals,
                players=size,
            )
            for _ in players
        )
        day = draw(st.sampled_from(DAYS))
        records.append(SheetRecord(sheet_id, "skat", day, tuple(players), stats))
    return records


@st.composite
def pitch_records(draw) -> list[SheetRecord]:
    return [
        pitch_game(
            sheet_id,
            draw(st.sampled_from(DAYS)),
            tuple(draw(st.lists(st.sampled_from(PLAYERS), min_size=4, max_size=4, unique=True))),
            winner=draw(st.sampled_from("AB")),
            hands=draw(st.integers(1, 20)),
        )
        for sheet_id in range(draw(st.integers(0, 8)))
    ]


@st.composite
def manipulation_records(draw) -> list[SheetRecord]:
    records = []
    for sheet_id in range(draw(st.integers(0, 8))):
        players = draw(st.lists(st.sampled_from(PLAYERS), min_size=3, max_size=5, unique=True))
        totals = {player: draw(st.integers(0, 60)) * 5 for player in players}
        day = draw(st.sampled_from(DAYS))
        records.append(manipulation_game(sheet_id, day, totals, rounds=draw(st.integers(1, 9))))
    return records


def every_row(standings):
    return (*standings.ranked, *getattr(standings, "unranked", ()))


# (a) -----------------------------------------------------------------------------------


@FAST
@given(records=skat_records(), rules=club_rules)
def test_dropping_one_more_series_never_lowers_an_average(records, rules):
    # Dropping a player's worst series removes a value no higher than the average.
    rules = ClubRules(**{**rules.as_dict(), "rank_by": "average"})
    fewer = skat_standings(records, rules)
    more = skat_standings(
        records, ClubRules(**{**rules.as_dict(), "drop_worst": rules.drop_worst + 1})
    )
    before = {row.player: row.value for row in every_row(fewer)}
    after = {row.player: row.value for row in every_row(more)}
    assert before.keys() == after.keys()
    for player, value in before.items():
        assert after[player] >= value


# (b) -----------------------------------------------------------------------------------


def merged(records: list[SheetRecord], a: int, b: int) -> list[SheetRecord]:
    """Player b's sheets credited to player a (they never share a sheet)."""
    return [
        SheetRecord(
            r.sheet_id, r.game, r.played_on, tuple(a if p == b else p for p in r.players), r.stats
        )
        for r in records
    ]


def apart(records: list[SheetRecord], a: int, b: int) -> list[SheetRecord]:
    return [r for r in records if not (a in r.players and b in r.players)]


def by_player(standings):
    return {row.player: row for row in every_row(standings)}


two_players = st.lists(st.sampled_from(PLAYERS), min_size=2, max_size=2, unique=True)


@FAST
@given(records=skat_records(), rules=club_rules, pair=two_players)
def test_merging_two_skat_players_adds_up_their_totals(records, rules, pair):
    a, b = pair
    records = apart(records, a, b)
    before = by_player(skat_standings(records, rules))
    after = by_player(skat_standings(merged(records, a, b), rules))
    assert b not in after
    parts = [before[p] for p in (a, b) if p in before]
    if not parts:
        assert a not in after
        return
    row = after[a]
    assert row.sf_total == sum(part.sf_total for part in parts)
    assert row.series == sum(part.series for part in parts)
    assert row.won == sum(part.won for part in parts)
    assert row.lost == sum(part.lost for part in parts)
    assert row.list_points == sum(part.list_points for part in parts)


@FAST
@given(records=pitch_records(), pair=two_players)
def test_merging_two_pitch_players_adds_up_their_games(records, pair):
    a, b = pair
    records = apart(records, a, b)
    before = by_player(pitch_standings(records))
    after = by_player(pitch_standings(merged(records, a, b)))
    parts = [before[p] for p in (a, b) if p in before]
    assert (a in after) == bool(parts)
    if parts:
        assert after[a].games == sum(part.games for part in parts)
        assert after[a].won == sum(part.won for part in parts)
        assert after[a].points_taken == sum(part.points_taken for part in parts)


@FAST
@given(records=manipulation_records(), pair=two_players)
def test_merging_two_manipulation_players_adds_up_their_games(records, pair):
    a, b = pair
    records = apart(records, a, b)
    before = by_player(manipulation_standings(records))
    after = by_player(manipulation_standings(merged(records, a, b)))
    parts = [before[p] for p in (a, b) if p in before]
    assert (a in after) == bool(parts)
    if parts:
        assert after[a].games == sum(part.games for part in parts)
        assert after[a].won == sum(part.won for part in parts)
        assert after[a].rounds == sum(part.rounds for part in parts)


# (c) -----------------------------------------------------------------------------------


def assert_places(rows, key):
    """Places run 1 … n in sorted order; equal keys share a place and the next is skipped."""
    keys = [key(row) for row in rows]
    assert keys == sorted(keys)
    for position, row in enumerate(rows, start=1):
        if position > 1 and keys[position - 1] == keys[position - 2]:
            assert row.place == rows[position - 2].place
        else:
            assert row.place == position


@FAST
@given(records=skat_records(), rules=club_rules)
def test_skat_places(records, rules):
    standings = skat_standings(records, rules)

    def key(row):
        exact = Fraction(row.counted_total, row.counted if rules.rank_by == "average" else 1)
        # Tie-break (ISkO): more games won, then fewer games lost.
        return (-exact, -row.won, row.lost)

    assert_places(standings.ranked, key)
    assert all(row.series >= rules.min_series for row in standings.ranked)
    assert all(row.series < rules.min_series and row.place is None for row in standings.unranked)


@FAST
@given(records=pitch_records())
def test_pitch_places(records):
    assert_places(
        pitch_standings(records).ranked, lambda row: (-row.won, -Fraction(row.won, row.games))
    )


@FAST
@given(records=manipulation_records())
def test_manipulation_places(records):
    ranked = manipulation_standings(records).ranked
    assert_places(ranked, lambda row: (-row.won, Fraction(row.penalties, row.rounds)))


# (d) -----------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(rules=club_rules)
def test_club_rules_round_trip(rules):
    assert ClubRules.from_mapping(rules.as_dict()) == rules


@FAST
@given(records=skat_records(), rules=club_rules)
def test_the_chart_after_each_evening_is_the_table_of_the_season_so_far(records, rules):
    # The progress is kept evening by evening in one pass; it must agree with ranking
    # the season again up to each evening under the same club rules (scaling, missed
    # evenings, dropped series, total or average).
    table = skat_standings(records, rules)
    for evening, values in table.progress:
        so_far = skat_standings([r for r in records if r.played_on <= evening], rules)
        expected = {row.player: row.value for row in (*so_far.ranked, *so_far.unranked)}
        for player, value in values.items():
            assert value == pytest.approx(expected.get(player, 0.0))
