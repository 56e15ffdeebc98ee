"""Who can still catch the leader over the remaining evenings, and what it takes."""

from __future__ import annotations

import pytest

from circles.rules.standings import (
    Chase,
    ClubRules,
    manipulation_standings,
    most_series_sf,
    pitch_standings,
    skat_standings,
    title_race,
)

from .sheets import JAN_10, JAN_17, JAN_24, manipulation_game, pitch_game, skat, skat_seat


def season(*totals: int, rules: ClubRules | None = None):
    """One evening: player 1 has the first total, player 2 the second …"""
    seats = {player: skat_seat(sf) for player, sf in enumerate(totals, start=1)}
    return skat_standings([skat(1, JAN_10, seats)], rules or ClubRules())


def test_the_most_a_series_can_bring():
    # Every deal at most a won Grand Ouvert with 4 (264) and the 50 for a won game.
    assert most_series_sf() == 36 * 314 == 11304
    assert most_series_sf(48) == 48 * 314


def test_by_total_what_each_rival_needs():
    race = title_race(season(5000, 4100, 4100, 3000, 100), evenings_left=4)
    assert (race.measure, race.leader, race.evenings_left) == ("sf_total", 1, 4)
    assert race.max_per_evening == 11304
    # To pass a leader who scores nothing more: one point more than the gap, here
    # 901 over 4 evenings, 225.25 an evening on average.
    assert race.rivals == (
        Chase(rival=2, behind=900.0, needed=901, per_evening=225.25, possible=True),
        Chase(rival=3, behind=900.0, needed=901, per_evening=225.25, possible=True),
        Chase(rival=4, behind=2000.0, needed=2001, per_evening=500.25, possible=True),
    )
    assert race.decided is False


def test_decided_when_no_rival_can_catch_up_even_with_perfect_series():
    # Rule: decided once nobody can draw level even scoring the theoretical maximum
    # Seeger-Fabian of a series every remaining evening (2 × 11304 = 22608 here).
    race = title_race(season(30000, 7391, 100), evenings_left=2)
    assert [(c.rival, c.needed, c.possible) for c in race.rivals] == [
        (2, 22610, False),
        (3, 29901, False),
    ]
    assert race.decided is True
    # Drawing level is still possible at exactly the maximum: not decided.
    assert title_race(season(30000, 7392), evenings_left=2, max_per_evening=11304).decided is False
    assert title_race(season(30000, 7392), evenings_left=2).rivals[0].possible is False


def test_a_lower_maximum_per_evening():
    race = title_race(season(5000, 4100), evenings_left=4, max_per_evening=200)
    assert race.rivals[0].possible is False  # 4 × 200 = 800 < 901
    assert race.decided is True


def test_no_evening_left_is_decided():
    race = title_race(season(5000, 4999), evenings_left=0)
    assert race.rivals == (Chase(2, 1.0, 2, None, False),)
    assert race.decided is True


def test_by_average_what_each_new_series_must_bring():
    records = [
        skat(n, day, {1: skat_seat(1000), 2: skat_seat(900)})
        for n, day in enumerate((JAN_10, JAN_17, JAN_24), start=1)
    ]
    records.append(skat(4, JAN_24, {1: skat_seat(1000)}))
    standings = skat_standings(records, ClubRules(rank_by="average"))
    race = title_race(standings, evenings_left=2)
    # The leader's average 4000 / 4 = 1000 stays; the rival has 2700 in 3 series and
    # plays one series an evening: (2700 + x) / 5 > 1000 needs x ≥ 2301 in the two
    # series, an average of 1150.5 per series.
    assert race.measure == "sf_average"
    assert race.rivals == (
        Chase(rival=2, behind=100.0, needed=2301, per_evening=1150.5, possible=True),
    )
    assert race.decided is False


def test_by_average_a_negative_leader_can_be_passed_with_negative_series():
    standings = season(-100, -400, rules=ClubRules(rank_by="average"))
    race = title_race(standings, evenings_left=1)
    # (−400 + x) / 2 > −100 needs x > 200: 201 passes.
    assert race.rivals[0].needed == 201
    standings = season(-300, -400, rules=ClubRules(rank_by="average"))
    # (−400 + x) / 4 > −300 needs x > −800: three series of −266 on average will do.
    chase = title_race(standings, evenings_left=3).rivals[0]
    assert (chase.needed, chase.per_evening) == (-799, -799 / 3)


UNRANKED_CHALLENGER = [
    skat(1, JAN_10, {1: skat_seat(30000), 2: skat_seat(100)}),
    skat(2, JAN_17, {1: skat_seat(0), 2: skat_seat(100), 3: skat_seat(20000)}),
]


def test_an_unranked_player_who_can_reach_the_minimum_keeps_the_race_open():
    standings = skat_standings(UNRANKED_CHALLENGER, ClubRules(min_series=2))
    assert [row.player for row in standings.unranked] == [3]
    race = title_race(standings, evenings_left=1)
    # Only ranked rivals are listed; player 2 cannot catch 30000 in one evening.
    assert [(chase.rival, chase.possible) for chase in race.rivals] == [(2, False)]
    # But player 3 (20000 in one series) plays a second, is ranked, and may pass.
    assert race.decided is False


def test_an_unranked_player_who_cannot_reach_the_minimum_is_out_of_the_race():
    standings = skat_standings(UNRANKED_CHALLENGER, ClubRules(min_series=3))
    assert standings.ranked == ()
    more = [*UNRANKED_CHALLENGER, skat(3, JAN_24, {1: skat_seat(0), 2: skat_seat(0)})]
    standings = skat_standings(more, ClubRules(min_series=3))
    assert [row.player for row in standings.unranked] == [3]
    # Player 3 has 1 series of the 3 needed with one evening left: never ranked.
    assert title_race(standings, evenings_left=1).decided is True
    assert title_race(standings, evenings_left=2).decided is False


def test_rivals_are_the_nearest_three():
    race = title_race(season(900, 800, 700, 600, 500), evenings_left=1)
    assert [chase.rival for chase in race.rivals] == [2, 3, 4]
    assert [
        chase.rival for chase in title_race(season(9, 8, 7), evenings_left=1, rivals=1).rivals
    ] == [2]


def test_nobody_ranked_no_title():
    race = title_race(skat_standings([], ClubRules()), evenings_left=3)
    assert (race.leader, race.rivals, race.decided) == (None, (), False)
    race = title_race(pitch_standings([]), evenings_left=0)
    assert (race.measure, race.leader, race.decided) == ("wins", None, False)


def test_alone_at_the_top_with_evenings_left():
    race = title_race(season(100), evenings_left=2)
    assert (race.leader, race.rivals, race.decided) == (1, (), True)


# -- Pitch and Manipulation: wins ------------------------------------------------------


def test_pitch_wins_needed():
    games = [
        pitch_game(1, JAN_10, (1, 2, 3, 4), winner="A"),
        pitch_game(2, JAN_10, (1, 2, 3, 4), winner="A"),
        pitch_game(3, JAN_17, (1, 3, 2, 4), winner="A"),
    ]
    standings = pitch_standings(games)
    assert [(row.player, row.won) for row in standings.ranked[:3]] == [(1, 3), (3, 2), (2, 1)]
    race = title_race(standings, evenings_left=2, max_per_evening=2)
    # Player 3 is one win behind: two more to pass. Player 2 is two behind: three.
    assert race.rivals[:2] == (
        Chase(rival=3, behind=1.0, needed=2, per_evening=1.0, possible=True),
        Chase(rival=2, behind=2.0, needed=3, per_evening=1.5, possible=True),
    )
    assert race.decided is False
    # One game an evening (the default): player 2 can only draw level; not decided.
    race = title_race(standings, evenings_left=2)
    assert [c.possible for c in race.rivals] == [True, False, False]
    assert race.decided is False


def test_manipulation_decided_when_the_deficit_exceeds_the_wins_possible():
    games = [manipulation_game(n, JAN_10, {1: 10, 2: 50, 3: 90}) for n in range(1, 5)]
    standings = manipulation_standings(games)
    race = title_race(standings, evenings_left=1, max_per_evening=3)
    # Four wins behind, three games left: even winning all of them is not enough.
    assert race.measure == "wins"
    assert race.rivals[0] == Chase(rival=2, behind=4.0, needed=5, per_evening=5.0, possible=False)
    assert race.decided is True


@pytest.mark.parametrize(("evenings_left", "most"), [(-1, None), (2, -5)])
def test_the_race_needs_sensible_numbers(evenings_left, most):
    with pytest.raises(ValueError, match="cannot be negative"):
        title_race(season(10, 5), evenings_left=evenings_left, max_per_evening=most)
