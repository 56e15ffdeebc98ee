"""The Pitch and Manipulation tables of a season: games won first."""

from __future__ import annotations

from dataclasses import replace

import pytest

from circles.rules.standings import Reason, manipulation_standings, pitch_standings

from .sheets import JAN_10, JAN_17, JAN_24, manipulation_game, pitch_game, skat, skat_seat

# Partners change from game to game; seats 0 and 2 are team A, 1 and 3 team B.
PITCH_SEASON = (
    pitch_game(1, JAN_10, (1, 2, 3, 4), winner="A"),  # 1 and 3 beat 2 and 4
    pitch_game(2, JAN_17, (1, 2, 4, 3), winner="B"),  # 2 and 3 beat 1 and 4
    pitch_game(3, JAN_17, (1, 3, 2, 4), winner="A"),  # 1 and 2 beat 3 and 4
    pitch_game(4, JAN_24, (3, 4, 5, 6), winner="B"),  # 4 and 6 beat 3 and 5
)


def test_pitch_ranked_by_games_won_then_share_of_wins():
    ranked = pitch_standings(PITCH_SEASON).ranked
    # Most games won first; on equal wins the better share of games won; still equal,
    # the place is shared.
    assert [(row.player, row.place, row.won, row.games) for row in ranked] == [
        (1, 1, 2, 3),
        (2, 1, 2, 3),
        (3, 3, 2, 4),
        (6, 4, 1, 1),
        (4, 5, 1, 4),
        (5, 6, 0, 1),
    ]


def test_pitch_reasons():
    rows = {row.player: row for row in pitch_standings(PITCH_SEASON).ranked}
    assert rows[1].reasons == (
        Reason("ranked_by_wins", {"won": 2, "games": 3}),
        Reason("tie_shared", {"other": 2, "place": 1}),
        Reason(
            "tie_win_rate",
            {"other": 3, "win_rate": 2 / 3, "other_win_rate": 0.5, "games": 3, "other_games": 4},
        ),
    )
    assert rows[3].reasons[1:] == (
        Reason(
            "tie_win_rate",
            {"other": 1, "win_rate": 0.5, "other_win_rate": 2 / 3, "games": 4, "other_games": 3},
        ),
        Reason(
            "tie_win_rate",
            {"other": 2, "win_rate": 0.5, "other_win_rate": 2 / 3, "games": 4, "other_games": 3},
        ),
    )
    assert rows[5].reasons == (Reason("ranked_by_wins", {"won": 0, "games": 1}),)


def test_pitch_row_adds_up_the_games():
    row = {row.player: row for row in pitch_standings(PITCH_SEASON).ranked}[3]
    assert (row.games, row.won, row.win_rate, row.hands) == (4, 2, 0.5, 40)
    assert (row.bids, row.made, row.made_rate, row.sets) == (8, 4, 0.5, 4)
    assert (row.moon, row.moon_made, row.points_taken) == (0, 0, 40 + 40 + 25 + 25)


def test_pitch_partners_most_games_first():
    rows = {row.player: row for row in pitch_standings(PITCH_SEASON).ranked}
    # Each player is credited with the team's result, whoever the partner was.
    assert rows[1].partners == ((2, 1, 1), (3, 1, 1), (4, 1, 0))
    assert rows[3].partners == ((1, 1, 1), (2, 1, 1), (4, 1, 0), (5, 1, 0))


def test_pitch_without_bids_has_no_made_rate():
    record = pitch_game(9, JAN_10, (1, 2, 3, 4), winner="A")
    no_bids = [{**stats, "bids": 0, "made": 0, "set": 0} for stats in record.stats]
    quiet = replace(record, stats=tuple(no_bids))
    assert pitch_standings([quiet]).ranked[0].made_rate == 0.0


def test_pitch_progress_counts_games_won_after_each_evening():
    standings = pitch_standings(PITCH_SEASON)
    assert standings.evenings == (JAN_10, JAN_17, JAN_24)
    assert standings.progress == (
        (JAN_10, {1: 1, 2: 0, 3: 1, 4: 0, 5: 0, 6: 0}),
        (JAN_17, {1: 2, 2: 2, 3: 2, 4: 0, 5: 0, 6: 0}),
        (JAN_24, {1: 2, 2: 2, 3: 2, 4: 1, 5: 0, 6: 1}),
    )


def test_pitch_guests_are_left_out():
    standings = pitch_standings(PITCH_SEASON, include=lambda player: player not in (5, 6))
    assert [row.player for row in standings.ranked] == [1, 2, 3, 4]
    assert set(standings.progress[-1][1]) == {1, 2, 3, 4}
    # A guest who partnered a member is still named among the member's partners.
    row = {row.player: row for row in standings.ranked}[3]
    assert (5, 1, 0) in row.partners


def test_pitch_refuses_records_of_another_game():
    with pytest.raises(ValueError, match="skat sheet"):
        pitch_standings([skat(1, JAN_10, {1: skat_seat(10)})])


# -- Manipulation --------------------------------------------------------------------

MANIPULATION_SEASON = (
    manipulation_game(1, JAN_10, {1: 40, 2: 210, 3: 90}, rounds=4),
    manipulation_game(2, JAN_10, {1: 205, 2: 60, 3: 80}, rounds=5),
    manipulation_game(3, JAN_17, {1: 30, 2: 50, 4: 200}, rounds=4),
    manipulation_game(4, JAN_24, {3: 20, 4: 20, 5: 200}, rounds=2),
)


def test_manipulation_ranked_by_wins_then_fewest_penalties_a_round():
    ranked = manipulation_standings(MANIPULATION_SEASON).ranked
    # Most games won first (the lowest total wins a game; players tied on it share the
    # win, as 3 and 4 do in game 4); on equal wins fewer penalty points a round.
    # Player 3: 190 in 11 rounds (17.3), player 2: 320 in 13 (24.6), player 4: 220 in 6.
    assert [(row.player, row.place, row.won) for row in ranked] == [
        (1, 1, 2),
        (3, 2, 1),
        (2, 3, 1),
        (4, 4, 1),
        (5, 5, 0),
    ]
    one, three, two, four, five = ranked
    assert (one.games, one.rounds, one.penalties, one.went_out) == (3, 13, 275, 3)
    assert (one.avg_penalty, two.avg_penalty, three.avg_penalty, four.avg_penalty) == (
        275 / 13,
        320 / 13,
        190 / 11,
        220 / 6,
    )
    assert two.reasons == (
        Reason("ranked_by_wins", {"won": 1, "games": 3}),
        Reason(
            "tie_avg_penalty",
            {"other": 3, "avg_penalty": 320 / 13, "other_avg_penalty": 190 / 11},
        ),
        Reason(
            "tie_avg_penalty",
            {"other": 4, "avg_penalty": 320 / 13, "other_avg_penalty": 220 / 6},
        ),
    )
    assert five.reasons == (Reason("ranked_by_wins", {"won": 0, "games": 1}),)


def test_manipulation_equal_wins_and_penalties_share_the_place():
    season = (
        manipulation_game(1, JAN_10, {1: 40, 2: 210}, rounds=4),
        manipulation_game(2, JAN_17, {1: 210, 2: 40}, rounds=4),
    )
    one, two = manipulation_standings(season).ranked
    assert (one.place, two.place) == (1, 1)
    assert one.reasons[-1] == Reason("tie_shared", {"other": 2, "place": 1})


def test_manipulation_without_rounds_has_no_average():
    record = manipulation_game(1, JAN_10, {1: 0, 2: 0}, rounds=0)
    row = manipulation_standings([record]).ranked[0]
    assert (row.rounds, row.avg_penalty) == (0, 0.0)


def test_manipulation_progress_and_guests():
    standings = manipulation_standings(MANIPULATION_SEASON, include=lambda player: player != 5)
    assert [row.player for row in standings.ranked] == [1, 3, 2, 4]
    assert standings.evenings == (JAN_10, JAN_17, JAN_24)
    assert standings.progress == (
        (JAN_10, {1: 1, 2: 1, 3: 0, 4: 0}),
        (JAN_17, {1: 2, 2: 1, 3: 0, 4: 0}),
        (JAN_24, {1: 2, 2: 1, 3: 1, 4: 1}),
    )
