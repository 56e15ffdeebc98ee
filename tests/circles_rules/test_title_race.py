"""Who can still catch the leader over the remaining evenings, and what it takes.

What a rival needs assumes the leaders do not play again; whether the title is
decided looks at everything still possible, the leaders' own results included
(test_title_race_truth.py checks both against brute force).
"""

from __future__ import annotations

import pytest

from circles.rules.standings import (
    Chase,
    ClubRules,
    least_series_sf,
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


def test_the_most_a_series_can_bring_and_cost():
    # Every deal at most a won Grand Ouvert with 4 (264) and the 50 for a won game.
    assert most_series_sf() == 36 * 314 == 11304
    assert most_series_sf(48) == 48 * 314
    # Lost, it counts twice against the declarer, and 50 more (Skat rules, "Winning
    # and losing"); with the house rules, Re (×4) in a Bock round (×2) on every deal.
    assert least_series_sf() == 36 * -578
    assert most_series_sf(1, house_rules=True) == 264 * 8 + 50 == 2162
    assert least_series_sf(1, house_rules=True) == -(2 * 264 * 8 + 50) == -4274


def test_by_total_what_each_rival_needs():
    race = title_race(season(5000, 4100, 4100, 3000, 100), evenings_left=4)
    assert (race.measure, race.leaders, race.leader, race.evenings_left) == (
        "sf_total",
        (1,),
        1,
        4,
    )
    # To pass a leader who does not play again: one series an evening, 4 × 226 = 904
    # > 900; 4 × 225 only draws level, and nobody has won more games to pass on that.
    assert race.rivals == (
        Chase(rival=2, behind=900.0, needed=226, series=4, possible=True),
        Chase(rival=3, behind=900.0, needed=226, series=4, possible=True),
        Chase(rival=4, behind=2000.0, needed=501, series=4, possible=True),
    )
    assert race.decided is False


def test_the_dropped_worst_series_comes_back_when_a_new_one_is_worse():
    # The demo's title race: Murat 6058 counted, Anke 5850 after dropping her worst
    # series (181). Each new series of hers either counts or pushes the 181 back in:
    # with 6 series of s < 181 she has 5850 + 181 + 5 × s. Equal points pass her, as
    # she has won more games (64 to 63): 5 × 6 ≥ 27.
    anke = [1108, 640, 743, 181, 594, 892, 1000, 873]
    murat = [600, 635, 640, 613, 1215, 640, 1260, 455, -28]
    records = [skat(n, JAN_10, {1: skat_seat(sf, won=8)}) for n, sf in enumerate(anke)]
    records += [skat(20 + n, JAN_10, {2: skat_seat(sf, won=7)}) for n, sf in enumerate(murat)]
    standings = skat_standings(records, ClubRules(drop_worst=1, min_series=3))
    assert [(row.player, row.value, row.won) for row in standings.ranked] == [
        (2, 6058.0, 63),
        (1, 5850.0, 64),
    ]
    race = title_race(standings, evenings_left=6)
    # Not 35 an evening (209 in all, as if nothing were dropped).
    assert race.rivals == (Chase(rival=1, behind=208.0, needed=6, series=6, possible=True),)


def test_equal_points_are_not_enough_without_more_games_won():
    race = title_race(season(1000, 900), evenings_left=1)
    assert race.rivals[0].needed == 101
    records = [skat(1, JAN_10, {1: skat_seat(1000, won=3), 2: skat_seat(900, won=4)})]
    race = title_race(skat_standings(records, ClubRules()), evenings_left=1)
    assert race.rivals[0].needed == 100  # level on points, ahead on games won


def test_a_leader_can_still_lose_points_so_a_big_lead_is_not_decided():
    # Player 2 cannot reach 30000 even with two perfect series (2 × 11304 at most
    # without house rules, far fewer in fact), but the leader may still play and lose:
    # a series can cost 36 × 4274 with Re in Bock rounds. Decided only when no evening
    # is left.
    race = title_race(season(30000, 7391, 100), evenings_left=2)
    assert race.decided is False
    assert title_race(season(30000, 7391, 100), evenings_left=0).decided is True
    # Small series (one deal: +2162 at most, −4274 at least) and a huge lead: decided.
    race = title_race(season(30000, 7391), evenings_left=2, series_deals=1)
    assert [(c.rival, c.needed, c.possible) for c in race.rivals] == [(2, None, False)]
    assert race.decided is True
    # 2 × 2162 + 2 × 4274 = 12872 more than the gap can cover: open.
    assert title_race(season(12873, 0), evenings_left=2, series_deals=1).decided is True
    assert title_race(season(12872, 0), evenings_left=2, series_deals=1).decided is False


def test_by_average_a_rival_above_any_series_gains_by_staying_home():
    # Found by the brute-force check (test_title_race_truth.py). Ranked by average, the
    # rival's 9000 falls with any series played (one deal brings 2162 at most), so the
    # rival's best is to stay home; the leader's 16000 can fall to (16000 − 4274) / 2
    # = 5863 with one hopeless series, below the rival. Not decided.
    rules = ClubRules(rank_by="average")
    race = title_race(season(9000, 16000, rules=rules), evenings_left=1, series_deals=1)
    assert race.leaders == (2,)
    assert race.decided is False
    # With no evening left nothing can change.
    assert title_race(season(9000, 16000, rules=rules), evenings_left=0).decided is True


def test_no_evening_left_is_decided():
    race = title_race(season(5000, 4999), evenings_left=0)
    assert race.rivals == (Chase(2, 1.0, None, 0, False),)
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
    # plays one series an evening: (2700 + 2 × s) / 5 > 1000 needs s ≥ 1151.
    assert race.measure == "sf_average"
    assert race.rivals == (Chase(rival=2, behind=100.0, needed=1151, series=2, possible=True),)
    assert race.decided is False


def test_by_average_a_negative_leader_can_be_passed_with_negative_series():
    standings = season(-100, -400, rules=ClubRules(rank_by="average"))
    race = title_race(standings, evenings_left=1)
    # (−400 + s) / 2 > −100 needs s > 200: 201 passes.
    assert race.rivals[0].needed == 201
    standings = season(-300, -400, rules=ClubRules(rank_by="average"))
    # (−400 + 3 × s) / 4 > −300 needs s > −266.7: three series of −266 will do.
    assert title_race(standings, evenings_left=3).rivals[0].needed == -266


def test_missed_evenings_count_as_zero_for_a_leader_who_stays_home():
    standings = season(1000, 900, rules=ClubRules(rank_by="average", missed="zero"))
    # The rival plays both evenings; the leader, staying home, gets two series of 0:
    # 1000 / 3 against (900 + 2 × s) / 3: s ≥ 51.
    assert title_race(standings, evenings_left=2).rivals[0].needed == 51


UNRANKED_CHALLENGER = [
    skat(1, JAN_10, {1: skat_seat(30000), 2: skat_seat(100)}),
    skat(2, JAN_17, {1: skat_seat(0), 2: skat_seat(100), 3: skat_seat(20000)}),
]


def test_an_unranked_player_who_can_reach_the_minimum_keeps_the_race_open():
    standings = skat_standings(UNRANKED_CHALLENGER, ClubRules(min_series=2))
    assert [row.player for row in standings.unranked] == [3]
    # Series of 4 deals: +8648 at most, −17096 at least.
    race = title_race(standings, evenings_left=1, series_deals=4)
    # Only ranked rivals are listed; player 2 cannot catch 30000 in one evening.
    assert [(chase.rival, chase.possible) for chase in race.rivals] == [(2, False)]
    # But player 3 (20000 in one series) plays a second, is ranked, and may pass.
    assert race.decided is False


def test_a_player_below_the_minimum_may_play_two_series_an_evening():
    more = [*UNRANKED_CHALLENGER, skat(3, JAN_24, {1: skat_seat(0), 2: skat_seat(0)})]
    standings = skat_standings(more, ClubRules(min_series=3))
    assert [row.player for row in standings.unranked] == [3]
    # Player 3 has 1 series of the 3 needed with one evening left: at one series an
    # evening never ranked, so the title is decided …
    assert title_race(standings, evenings_left=1, series_deals=1).decided is True
    # … but where a player may play two series in an evening, player 3 can be ranked
    # with 20000 + two perfect series and pass.
    assert title_race(standings, evenings_left=1, per_evening=2, series_deals=1).decided is False
    assert title_race(standings, evenings_left=2, series_deals=1).decided is False


def test_rivals_are_the_nearest_three():
    race = title_race(season(900, 800, 700, 600, 500), evenings_left=1)
    assert [chase.rival for chase in race.rivals] == [2, 3, 4]
    assert [
        chase.rival for chase in title_race(season(9, 8, 7), evenings_left=1, rivals=1).rivals
    ] == [2]


def test_a_shared_first_place_has_two_leaders():
    race = title_race(season(900, 900, 700), evenings_left=0)
    assert race.leaders == (1, 2)
    assert [chase.rival for chase in race.rivals] == [3]
    assert race.decided is True  # they share the title
    assert title_race(season(900, 900, 700), evenings_left=1).decided is False


def test_nobody_ranked_no_title():
    race = title_race(skat_standings([], ClubRules()), evenings_left=3)
    assert (race.leaders, race.leader, race.rivals, race.decided) == ((), None, (), False)
    race = title_race(pitch_standings([]), evenings_left=0)
    assert (race.measure, race.leader, race.decided) == ("wins", None, False)


def test_alone_at_the_top_with_evenings_left():
    race = title_race(season(100), evenings_left=2)
    assert (race.leaders, race.rivals, race.decided) == ((1,), (), True)


# -- Pitch and Manipulation: wins ------------------------------------------------------


def test_pitch_wins_needed():
    games = [
        pitch_game(1, JAN_10, (1, 2, 3, 4), winner="A"),
        pitch_game(2, JAN_10, (1, 2, 3, 4), winner="A"),
        pitch_game(3, JAN_17, (1, 3, 2, 4), winner="A"),
    ]
    standings = pitch_standings(games)
    assert [(row.player, row.won) for row in standings.ranked[:3]] == [(1, 3), (3, 2), (2, 1)]
    race = title_race(standings, evenings_left=2, per_evening=2)
    # Player 3 is one win behind: one win in one more game is 3 of 4, the leader's
    # 3 of 3 stays ahead on the share of games won, so two more wins. Player 2: three.
    assert race.rivals[:2] == (
        Chase(rival=3, behind=1.0, needed=2, series=2, possible=True),
        Chase(rival=2, behind=2.0, needed=3, series=3, possible=True),
    )
    assert race.decided is False
    # One game an evening (the default): player 2 can only draw level; not decided.
    race = title_race(standings, evenings_left=2)
    assert [c.possible for c in race.rivals] == [True, False, False]
    assert race.decided is False


def test_pitch_equal_wins_can_pass_on_the_share_of_games_won():
    games = [
        pitch_game(1, JAN_10, (1, 2, 3, 4), winner="A"),  # 1 and 3 win
        pitch_game(2, JAN_10, (1, 2, 3, 4), winner="B"),
        pitch_game(3, JAN_10, (1, 2, 3, 4), winner="A"),
        pitch_game(4, JAN_17, (1, 5, 6, 7), winner="A"),  # 1 and 6 win
    ]
    standings = pitch_standings(games)
    rows = {row.player: (row.won, row.games) for row in standings.ranked}
    assert (rows[1], rows[3], rows[6]) == ((3, 4), (2, 3), (1, 1))
    race = title_race(standings, evenings_left=2)
    chases = {chase.rival: chase for chase in race.rivals}
    # Player 3: one win more is 3 of 4, level with the leader on everything: two.
    assert chases[3] == Chase(rival=3, behind=1.0, needed=2, series=2, possible=True)
    # Player 6: two wins in two more games is 3 of 3, ahead of 3 of 4: not three.
    assert chases[6] == Chase(
        rival=6, behind=2.0, needed=2, series=2, possible=True, without_loss=True
    )


def test_manipulation_decided_when_the_deficit_exceeds_the_wins_possible():
    games = [manipulation_game(n, JAN_10, {1: 10, 2: 50, 3: 90}) for n in range(1, 5)]
    standings = manipulation_standings(games)
    race = title_race(standings, evenings_left=1, per_evening=3)
    # Four wins behind, three games left: even winning all of them is not enough.
    assert race.measure == "wins"
    assert race.rivals[0] == Chase(rival=2, behind=4.0, needed=None, series=0, possible=False)
    assert race.decided is True
    # Four games: level on wins, and penalty points per round can still go either way.
    assert title_race(standings, evenings_left=1, per_evening=4).decided is False


@pytest.mark.parametrize(
    ("evenings_left", "per_evening", "message"),
    [(-1, 1, "cannot be negative"), (2, 0, "at least 1")],
)
def test_the_race_needs_sensible_numbers(evenings_left, per_evening, message):
    with pytest.raises(ValueError, match=message):
        title_race(season(10, 5), evenings_left=evenings_left, per_evening=per_evening)
