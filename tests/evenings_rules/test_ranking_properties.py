"""Properties of the evening's ranking that hold for any evening (issue 17, "Ranking and
lists")."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from evenings.rules.ranking import (
    SF_DEFENCE_BONUS,
    SeriesResult,
    Team,
    category_ranking,
    evening_ranking,
    match_points,
    seeger_fabian_score,
    team_ranking,
)
from games.rules.skat_list import DEFENCE_BONUS, SeegerFabianTally, seeger_fabian_of_tally

FAST = settings(max_examples=80, deadline=None)


@st.composite
def evenings(draw) -> list[SeriesResult]:
    players = draw(st.integers(1, 12))
    results = []
    for series in range(1, draw(st.integers(1, 3)) + 1):
        table, size, seated = 1, draw(st.sampled_from((3, 4, 5))), 0
        for player in range(1, players + 1):
            if not draw(st.booleans()):
                continue  # not playing this series
            if seated == size:
                table, size, seated = table + 1, draw(st.sampled_from((3, 4, 5))), 0
            seated += 1
            results.append(
                SeriesResult(
                    player,
                    series,
                    table,
                    size,
                    draw(st.integers(-300, 600)),
                    draw(st.integers(0, 6)),
                    draw(st.integers(0, 4)),
                    draw(st.integers(0, 6)),
                )
            )
    return results


@FAST
@given(results=evenings())
def test_places_follow_total_then_won_then_lost(results):
    rows = evening_ranking(results).rows
    for better, worse in pairwise(rows):
        assert (-better.total, -better.won, better.lost) <= (-worse.total, -worse.won, worse.lost)
        if (better.total, better.won, better.lost) == (worse.total, worse.won, worse.lost):
            assert worse.place == better.place
        else:
            assert worse.place == rows.index(worse) + 1
    assert all(row.total == sum(line.score for line in row.series) for row in rows)
    assert sorted(row.player for row in rows) == sorted({r.player for r in results})


@FAST
@given(results=evenings(), data=st.data())
def test_a_category_keeps_the_order_and_renumbers_places(results, data):
    ranking = evening_ranking(results)
    members = data.draw(st.sets(st.integers(1, 12)))
    category = category_ranking(ranking, members)
    assert [row.player for row in category.rows] == [
        row.player for row in ranking.rows if row.player in members
    ]
    for i, row in enumerate(category.rows):
        assert row.place == 1 + sum(other.key < row.key for other in category.rows)
        assert row.place <= i + 1


@FAST
@given(scores=st.lists(st.integers(-500, 500), min_size=1, max_size=10))
def test_match_points_of_a_series_add_up_to_n_n_minus_1_over_2(scores):
    points = match_points(scores)
    n = len(scores)
    assert sum(points) == Fraction(n * (n - 1), 2)
    for own, mine in zip(scores, points, strict=True):
        assert mine == sum(1 for s in scores if s < own) + Fraction(
            sum(1 for s in scores if s == own) - 1, 2
        )


@FAST
@given(results=evenings(), teams=st.integers(2, 4))
def test_team_match_points_sum_per_series(results, teams):
    ranking = evening_ranking(results)
    rows = team_ranking([Team(f"T{t}", (2 * t + 1, 2 * t + 2)) for t in range(teams)], ranking)
    numbers = {line.number for row in ranking.rows for line in row.series}
    for number in numbers:
        assert sum(
            s.match_points for row in rows for s in row.series if s.number == number
        ) == Fraction(teams * (teams - 1), 2)


@FAST
@given(
    size=st.sampled_from(sorted(DEFENCE_BONUS)),
    data=st.data(),
)
def test_the_series_score_is_the_referees_seeger_fabian(size, data):
    # The same rule as the Skat list's Seeger-Fabian (games/rules/skat_list.py), wherever
    # the referee knows the table size.
    tally = SeegerFabianTally(
        list_points=tuple(data.draw(st.integers(-500, 500)) for _ in range(size)),
        games_won=tuple(data.draw(st.integers(0, 9)) for _ in range(size)),
        games_lost=tuple(data.draw(st.integers(0, 9)) for _ in range(size)),
        lost_by_others=tuple(data.draw(st.integers(0, 9)) for _ in range(size)),
    )
    referee = seeger_fabian_of_tally(tally)
    for seat, row in enumerate(referee.rows):
        ours = SeriesResult(
            seat,
            1,
            1,
            size,
            tally.list_points[seat],
            tally.games_won[seat],
            tally.games_lost[seat],
            tally.lost_by_others[seat],
        )
        assert seeger_fabian_score(ours) == row.total
    assert SF_DEFENCE_BONUS[size] == DEFENCE_BONUS[size]


@FAST
@given(evenings(), st.one_of(st.none(), st.integers(1, 3)))
def test_a_ranking_without_explanations_places_everyone_the_same(results, series):
    """evening-ranking: leaving the explanations out (a list that shows none, such as a
    series' brief list or the big screen) changes no place, total or game count."""
    explained = evening_ranking(results, series=series)
    brief = evening_ranking(results, series=series, explain=False)
    assert brief.rows == explained.rows  # the explanation does not take part in ==
    assert [r.place for r in brief.rows] == [r.place for r in explained.rows]
    assert all(row.explanation == () for row in brief.rows)
    assert brief.explanation == ()
