"""The ranking of a club evening (issue 17, "Ranking and lists"; api.md, "Club evenings",
GET /api/v1/evenings/{id} ranking)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from evenings.rules.ranking import (
    FootLine,
    ListedRow,
    SeriesResult,
    Team,
    category_ranking,
    check_foot,
    check_teams,
    evening_ranking,
    foot_from_rows,
    match_points,
    pitch_results,
    seeger_fabian_score,
    table_results,
    tagged,
    team_ranking,
)
from games.rules.errors import RuleError

NAMES = {1: "Ana", 2: "Ben", 3: "Cem", 4: "Dora", 5: "Eli", 6: "Fay", 7: "Gus"}


def messages(error: RuleError) -> list[tuple[str | None, str]]:
    return [(p.field, str(p.message)) for p in error.problems]


# -- Seeger-Fabian per series (ISkO / DSkV tournament scoring; issue 17: k = 40 / 30 / 24
# at three / four / five) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "points", "won", "lost", "others_lost", "score"),
    [
        (3, 312, 5, 1, 2, 312 + 250 - 50 + 80),
        (4, 312, 5, 1, 2, 312 + 250 - 50 + 60),
        (5, 312, 5, 1, 2, 312 + 250 - 50 + 48),
        (4, -96, 0, 2, 0, -96 - 100),
        (3, 0, 0, 0, 0, 0),
    ],
)
def test_seeger_fabian_of_a_series(size, points, won, lost, others_lost, score):
    result = SeriesResult(1, 1, 1, size, points, won, lost, others_lost)
    assert seeger_fabian_score(result) == score


# -- a paper list (issue 17: the foot, the rows, and the foot checked against the rows) --


ROWS = [
    ListedRow(1, 48),  # Ana wins a game written 48 (Clubs ×4 or Grand with 1)
    ListedRow(2, -96),  # Ben loses one: minus twice its value
    ListedRow(1, 23),  # Ana wins a Null
    ListedRow(3, 20),  # Cem wins Hearts ×2
]


def test_the_rows_add_up_to_a_foot():
    assert foot_from_rows([1, 2, 3], ROWS) == (
        FootLine(1, 71, 2, 0),
        FootLine(2, -96, 0, 1),
        FootLine(3, 20, 1, 0),
    )


def test_a_value_no_game_can_have_is_refused_with_the_games_it_could_be():
    # Issue 17: "the referee accepts only values some game can have and says which games
    # they could be".
    with pytest.raises(RuleError) as caught:
        foot_from_rows([1, 2, 3], [ListedRow(1, 47), ListedRow(9, 48)], names=NAMES)
    assert messages(caught.value) == [
        (
            "rows.0.value",
            "No Skat game is worth 47; the nearest are 46 (Null Ouvert) and 48 (Grand with "
            "or against 1 or Clubs ×4).",
        ),
        ("rows.1.declarer", "Row 2: player 9 does not play at this table."),
    ]


def test_a_foot_that_does_not_add_up_names_the_player_and_the_difference():
    # Issue 17, "Bad input": a paper foot that does not add up.
    foot = [FootLine(1, 95, 2, 0), FootLine(2, -96, 0, 1), FootLine(3, 20, 2, 0)]
    with pytest.raises(RuleError) as caught:
        check_foot([1, 2, 3], foot, rows=ROWS, names=NAMES)
    assert messages(caught.value) == [
        (
            "players.0.points",
            "Ana: the foot says 95 points, the rows add up to 71, 24 apart.",
        ),
        ("players.2.won", "Cem: the foot says 2 games won, the rows show 1."),
    ]
    check_foot([1, 2, 3], foot_from_rows([1, 2, 3], ROWS), rows=ROWS)


def test_a_foot_without_a_player_or_with_a_stranger_is_refused():
    with pytest.raises(RuleError) as caught:
        check_foot([1, 2, 3], [FootLine(1, 0, 0, 0), FootLine(4, 0, 0, 0)], names=NAMES)
    assert messages(caught.value) == [
        ("players.1.player", "Dora does not play at this table."),
        ("players", "Ben plays at this table but has no line in the foot."),
        ("players", "Cem plays at this table but has no line in the foot."),
    ]
    with pytest.raises(RuleError) as caught:
        check_foot([1, 2, 3], [FootLine(p, 0, 20, -1) for p in (1, 2, 3)])
    assert [p.field for p in caught.value.problems] == [
        "players.0.lost",
        "players.1.lost",
        "players.2.lost",
    ]
    with pytest.raises(RuleError) as caught:
        check_foot([1, 2, 3], [FootLine(p, 0, 13, 0) for p in (1, 2, 3)], deals=36)
    assert "39 games won and lost, more than the 36 deals" in str(caught.value)


def test_a_tables_results_from_its_foot_count_the_games_the_others_lost():
    foot = [FootLine(1, 300, 6, 1), FootLine(2, 120, 3, 2), FootLine(3, -40, 1, 3)]
    results = table_results(series=1, table=2, players=[1, 2, 3], foot=foot)
    assert [(r.player, r.others_lost, r.size, r.table) for r in results] == [
        (1, 5, 3, 2),
        (2, 4, 3, 2),
        (3, 3, 3, 2),
    ]
    assert [seeger_fabian_score(r) for r in results] == [
        300 + 300 - 50 + 200,
        120 + 150 - 100 + 160,
        -40 + 50 - 150 + 120,
    ]


# -- the evening's ranking (issue 17: per series and in total; ties by more won, then fewer
# lost, then a shared place; every row explains itself) ----------------------------------


def r(player, series, points, won=0, lost=0, others_lost=0, table=None, size=4):
    """A player's series; by default each player at a table of their own number."""
    table = player if table is None else table
    return SeriesResult(player, series, table, size, points, won, lost, others_lost)


def test_total_is_the_sum_of_series_scores_and_rows_explain_it():
    results = [
        r(1, 1, 300, won=4, lost=1, others_lost=2, table=1),  # 300 + 200 − 50 + 60 = 510
        r(1, 2, 100, won=2, table=2, size=3),  # 100 + 100 = 200
        r(2, 1, 500, won=3, table=1),  # 650
    ]
    ranking = evening_ranking(results, names=NAMES, players=[3])
    assert [(row.player, row.place, row.total) for row in ranking.rows] == [
        (1, 1, 710),
        (2, 2, 650),
        (3, 3, 0),
    ]
    ana = ranking.row_of(1)
    assert [line.as_dict() for line in ana.series] == [
        {"number": 1, "table": 1, "points": 300, "won": 4, "lost": 1, "others_lost": 2,
         "score": 510},
        {"number": 2, "table": 2, "points": 100, "won": 2, "lost": 0, "others_lost": 0,
         "score": 200},
    ]  # fmt: skip
    assert [step.text for step in ana.explanation] == [
        "Series 1, table 1 of 4: 300 list points, +200 for 4 games won, −50 for 1 game "
        "lost, +60 for 2 games lost by another declarer; score 510.",
        "Series 2, table 2 of 3: 100 list points, +100 for 2 games won; score 200.",
        "The series added up: 510 and 200 make 710.",
    ]
    assert ranking.order == (1, 2, 3)
    only_second = evening_ranking(results, series=2)
    assert [(row.player, row.total) for row in only_second.rows] == [(1, 200)]


def test_ties_go_to_more_won_then_fewer_lost_then_a_shared_place():
    results = [
        r(1, 1, 400),  # 400, 0 won
        r(2, 1, 300, won=2),  # 400, 2 won
        r(3, 1, 350, won=2, lost=1),  # 400, 2 won, 1 lost
        r(4, 1, 250, won=3),  # 400, 3 won
        r(5, 1, 250, won=3),  # the same as Dora
        r(6, 1, 500),
    ]
    ranking = evening_ranking(results, names=NAMES)
    assert [(row.player, row.place) for row in ranking.rows] == [
        (6, 1),
        (4, 2),
        (5, 2),
        (2, 4),
        (3, 5),
        (1, 6),
    ]
    ben = [step.text for step in ranking.row_of(2).explanation]
    assert "Level with Cem on 400 and on games won; fewer games lost decide: 0 against 1." in ben
    assert "Level with Ana on 400; more games won decide: 2 against 0." in ben
    dora = [step.text for step in ranking.row_of(4).explanation]
    assert "Level with Eli on 400, games won and games lost: they share place 2." in dora


def test_a_player_twice_in_one_series_is_refused():
    with pytest.raises(RuleError) as caught:
        evening_ranking([r(1, 1, 10), r(1, 1, 20, table=2)])
    assert messages(caught.value) == [
        (
            "results.1",
            "Player 1 has two results in series 1; a player sits at one table per series.",
        )
    ]


def test_results_that_do_not_fit_their_table_are_refused():
    with pytest.raises(RuleError) as caught:
        evening_ranking([r(1, 1, 10, table=1, size=3), r(2, 1, 20, table=1, size=4)])
    assert messages(caught.value) == [
        ("results.1", "Table 1 of series 1 seats 3 players; its results say otherwise.")
    ]
    with pytest.raises(RuleError):
        evening_ranking([r(p, 1, 0, table=1, size=3) for p in (1, 2, 3, 4)])


def test_pitch_totals_are_the_teams_scores():
    # Issue 17: "Pitch: each player's total is the sum of their teams' scores."
    first = pitch_results(series=1, table=1, teams=[(1, 3), (2, 4)], scores=[52, 31])
    second = pitch_results(series=2, table=1, teams=[(1, 2), (3, 4)], scores=[40, 54])
    ranking = evening_ranking([*first, *second], game="pitch")
    assert {row.player: row.total for row in ranking.rows} == {1: 92, 2: 71, 3: 106, 4: 85}
    assert ranking.rows[0].player == 3


# -- categories (issue 17: tags give their own lists) ---------------------------------


def test_a_category_renumbers_places_and_keeps_ties():
    results = [r(1, 1, 500), r(2, 1, 400), r(3, 1, 300), r(4, 1, 300), r(5, 1, 100)]
    ranking = evening_ranking(results)
    women = tagged({1: ["seniors"], 3: ["women"], 4: ["women", "juniors"], 5: ["women"]}, "women")
    category = category_ranking(ranking, women)
    assert [(row.player, row.place) for row in category.rows] == [(3, 1), (4, 1), (5, 3)]


# -- teams (issue 17: the team table adds up its members; one match point for every team
# it outscores) --------------------------------------------------------------------------


def test_match_points_one_per_team_outscored_half_for_a_tie():
    assert match_points([900, 500, 700, 100]) == (3, 1, 2, 0)  # the league's 3:0 … 0:3
    assert match_points([500, 500, 100]) == (Fraction(3, 2), Fraction(3, 2), 0)


def test_the_team_table_adds_up_its_members():
    results = [r(1, 1, 500), r(2, 1, 100), r(3, 1, 300), r(4, 1, 300), r(1, 2, 0), r(3, 2, 50)]
    teams = [Team("Kreuz", (1, 2)), Team("Pik", (3, 4))]
    rows = team_ranking(teams, evening_ranking(results))
    assert [(row.team.name, row.place, row.match_points, row.total) for row in rows] == [
        ("Pik", 1, Fraction(3, 2), 650),  # a tie in series 1, the better in series 2
        ("Kreuz", 2, Fraction(1, 2), 600),
    ]
    pik = rows[0]
    assert [(s.number, s.score, s.match_points) for s in pik.series] == [
        (1, 600, Fraction(1, 2)),
        (2, 50, 1),
    ]
    assert pik.explanation[0].text.endswith(
        "match points: ½ (one for every team it outscores, a half for every tie)."
    )
    assert pik.explanation[1].text == (
        "Series 2: the members' scores add up to 50; match points: 1 (one for every team it "
        "outscores, a half for every tie)."
    )


def test_teams_are_checked():
    with pytest.raises(RuleError) as caught:
        check_teams([Team("A", (1, 2)), Team("A", (2, 3, 4, 5))], names=NAMES)
    assert messages(caught.value) == [
        ("teams", "Teams are all teams of four or all tandems of two."),
        ("teams.1.name", "Each team has a name of its own."),
        ("teams.1.members", "Ben is in team A and in team A; a player plays for one team."),
    ]
