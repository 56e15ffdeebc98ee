"""The ranking and the statistics of a Pitch party night (issue 21, "Pitch party nights")."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evenings.rules.movement import Round, RoundTable, first_round, next_progressive_round
from evenings.rules.pitch_night import (
    BidCount,
    NightHand,
    PartnerLine,
    night_ranking,
    player_statistics,
    shown,
)
from games.rules.errors import RuleError

NAMES = {1: "Ana", 2: "Ben", 3: "Cem", 4: "Dan", 5: "Eva", 6: "Fay", 7: "Gil", 8: "Hal", 9: "Ida"}
FAST = settings(max_examples=60, deadline=None)


def messages(error: RuleError) -> list[tuple[str | None, str]]:
    return [(p.field, str(p.message)) for p in error.problems]


def texts(row) -> list[str]:
    return [str(step) for step in row.explanation]


def eight_players() -> list[Round]:
    """The eight-player night of test_movement: round 1 Ana & Cem against Ben & Dan at
    table 1, Eva & Gil against Fay & Hal at table 2; winners {1: 0, 2: 1}, then
    {1: 1, 2: 0}."""
    one = Round(1, (RoundTable(1, ((1, 3), (2, 4))), RoundTable(2, ((5, 7), (6, 8)))))
    two = next_progressive_round(one, {1: 0, 2: 1})
    three = next_progressive_round(two, {1: 1, 2: 0}, history=[one, two])
    assert [t.teams for t in two.tables] == [((1, 6), (3, 8)), ((5, 2), (7, 4))]
    assert [t.teams for t in three.tables] == [((3, 5), (8, 2)), ((7, 1), (4, 6))]
    return [one, two, three]


# Round 1: table 1 Ana & Cem 11, Ben & Dan 6; table 2 Eva & Gil 4, Fay & Hal 9.
# Round 2: table 1 Ana & Fay 5, Cem & Hal 8; table 2 Eva & Ben 10, Gil & Dan −3 (set).
# Round 3: table 1 Cem & Eva 7, Hal & Ben 7 (level); table 2 Gil & Ana 12, Dan & Fay 2.
EIGHT_SCORES = {1: {1: (11, 6), 2: (4, 9)}, 2: {1: (5, 8), 2: (10, -3)}, 3: {1: (7, 7), 2: (12, 2)}}


def summary(ranking) -> list[tuple[str, int, Fraction, int, int]]:
    return [
        (NAMES[r.player], r.place, r.total, r.rounds_won, r.points_against) for r in ranking.rows
    ]


# -- the ranking, worked by hand ----------------------------------------------------------


def test_eight_players_over_three_rounds_in_points():
    """ "Each player's total is the sum of their teams' scores … ties by more rounds won,
    then by points against."

    Ana: 11 (won, against 6) + 5 (against 8) + 12 (won, against 2) = 28, 2 won, 16 against.
    Cem: 11 (won, 6) + 8 (won, 5) + 7 (level, 7) = 26, 2 won, 18 against.
    Hal: 9 (won, 4) + 8 (won, 5) + 7 (level, 7) = 24, 2 won, 16 against.
    Ben: 6 (11) + 10 (won, −3) + 7 (level, 7) = 23, 1 won, 15 against.
    Eva: 4 (9) + 10 (won, −3) + 7 (level, 7) = 21, 1 won, 13 against.
    Fay: 9 (won, 4) + 5 (8) + 2 (12) = 16, 1 won, 24 against.
    Gil: 4 (9) + −3 (10) + 12 (won, 2) = 13, 1 won, 21 against.
    Dan: 6 (11) + −3 (10) + 2 (12) = 5, 0 won, 33 against.
    """
    ranking = night_ranking(eight_players(), EIGHT_SCORES, "points", NAMES)
    assert summary(ranking) == [
        ("Ana", 1, 28, 2, 16),
        ("Cem", 2, 26, 2, 18),
        ("Hal", 3, 24, 2, 16),
        ("Ben", 4, 23, 1, 15),
        ("Eva", 5, 21, 1, 13),
        ("Fay", 6, 16, 1, 24),
        ("Gil", 7, 13, 1, 21),
        ("Dan", 8, 5, 0, 33),
    ]
    assert texts(ranking.row_of(7)) == [
        "Round 1, table 2: with Eva, 4 against 9; the team's score 4 counts.",
        "Round 2, table 2: with Dan, −3 against 10; the team's score −3 counts.",
        "Round 3, table 2: with Ana, 12 against 2, a round won; the team's score 12 counts.",
        "The rounds added up: 4, −3 and 12 make 13.",
        "Rounds won: 1; points against: 21.",
    ]
    assert [line.partner for line in ranking.row_of(1).lines] == [3, 6, 7]
    assert ranking.order == (1, 3, 8, 2, 5, 6, 7, 4)
    assert [str(step) for step in ranking.explanation] == [
        "Points: each round a player scores their team's score at their table; a player "
        "sitting out scores the round's average. The total adds up the rounds; ties go to "
        "more rounds won, then fewer points against, else the place is shared."
    ]
    assert {step.rule for row in ranking.rows for step in row.explanation} == {"evening-ranking"}


def test_eight_players_over_three_rounds_in_match_points():
    """ "(or match points: 1 per opponent outscored and ½ per tie, as duplicate events
    count them, the organiser's choice)"

    Round 1, the four teams 11, 6, 4, 9: Ana & Cem 3, Fay & Hal 2, Ben & Dan 1, Eva & Gil 0.
    Round 2, 5, 8, 10, −3: Eva & Ben 3, Cem & Hal 2, Ana & Fay 1, Gil & Dan 0.
    Round 3, 7, 7, 12, 2: Gil & Ana 3, Cem & Eva and Hal & Ben outscore one team and tie
    with each other: 1½ each; Dan & Fay 0. Each round hands out 3 + 2 + 1 = 6.

    Ana 3 + 1 + 3 = 7; Cem 3 + 2 + 1½ = 6½; Hal 2 + 2 + 1½ = 5½ with 2 rounds won ahead
    of Ben 1 + 3 + 1½ = 5½ with 1; Eva 0 + 3 + 1½ = 4½; Gil 0 + 0 + 3 = 3 with 21
    against ahead of Fay 2 + 1 + 0 = 3 with 24 against (both won 1); Dan 1 + 0 + 0 = 1.
    """
    ranking = night_ranking(eight_players(), EIGHT_SCORES, mode="match_points", names=NAMES)
    assert summary(ranking) == [
        ("Ana", 1, 7, 2, 16),
        ("Cem", 2, Fraction(13, 2), 2, 18),
        ("Hal", 3, Fraction(11, 2), 2, 16),
        ("Ben", 4, Fraction(11, 2), 1, 15),
        ("Eva", 5, Fraction(9, 2), 1, 13),
        ("Gil", 6, 3, 1, 21),
        ("Fay", 7, 3, 1, 24),
        ("Dan", 8, 1, 0, 33),
    ]
    hal = texts(ranking.row_of(8))
    assert hal[2] == (
        "Round 3, table 1: with Ben, 7 against 7; match points: 1½ (one for every team of "
        "the round outscored, a half for every tie)."
    )
    assert hal[3:] == [
        "The rounds added up: 2, 2 and 1½ make 5½.",
        "Rounds won: 2; points against: 16.",
        "Level with Ben on 5½; more rounds won decide: 2 against 1.",
    ]
    assert texts(ranking.row_of(2))[-1] == (
        "Level with Hal on 5½; more rounds won decide: 1 against 2."
    )
    assert texts(ranking.row_of(7))[-1] == (
        "Level with Fay on 3 and on rounds won; fewer points against decide: 21 against 24."
    )


def test_a_player_sitting_out_scores_the_rounds_average_exactly():
    """ "a sit-out rotation where each round a different player sits out and scores the
    round's average"

    Round 1, Ida out: the eight who play score 11, 11, 6, 6, 4, 4, 10, 10 = 62, so Ida
    scores 62 / 8 = 7¾ (kept exact: 31/4). Round 2, Ana out: 5, 5, 8, 8, 10, 10, −3, −3 =
    40, 40 / 8 = 5. Ida's total: 7¾ + 5 (round 2 with Fay, 5 against 8) = 12¾. In match
    points a sitter-out scores the average of 4 teams' 6 points, each scored by both
    partners, over 8 players: 12 / 8 = 1½.
    """
    one = Round(
        1, (RoundTable(1, ((1, 3), (2, 4))), RoundTable(2, ((5, 7), (6, 8)))), sitting_out=(9,)
    )
    two = Round(
        2, (RoundTable(1, ((9, 6), (3, 8))), RoundTable(2, ((5, 2), (7, 4)))), sitting_out=(1,)
    )
    scores = {1: {1: (11, 6), 2: (4, 10)}, 2: {1: (5, 8), 2: (10, -3)}}
    ranking = night_ranking([one, two], scores, names=NAMES)
    ida = ranking.row_of(9)
    assert ida.lines[0].value == Fraction(31, 4)
    assert ida.lines[0].sat_out
    assert ida.total == Fraction(51, 4)
    assert (ida.rounds_won, ida.points_against) == (0, 8)
    assert texts(ida)[0] == (
        "Round 1: sat out, so scores the round's average: the 8 players who played scored "
        "62 points, 7¾ each."
    )
    assert texts(ida)[2] == "The rounds added up: 7¾ and 5 make 12¾."
    ana = ranking.row_of(1)
    assert ana.total == 16
    assert (ana.rounds_won, ana.points_against) == (1, 6)
    assert texts(ana)[1] == (
        "Round 2: sat out, so scores the round's average: the 8 players who played scored "
        "40 points, 5 each."
    )
    matches = night_ranking([one, two], scores, mode="match_points", names=NAMES)
    assert [line.value for line in matches.row_of(9).lines] == [Fraction(3, 2), 1]
    assert texts(matches.row_of(9))[0] == (
        "Round 1: sat out, so scores the round's average: the 8 players who played scored "
        "12 match points, 1½ each."
    )


def test_level_on_everything_shares_the_place():
    """ "ties by more rounds won, then by points against", else the place is shared:
    both tables 5 to 3, so the four winners share place 1 and the four losers place 5."""
    round_ = Round(1, (RoundTable(1, ((1, 3), (2, 4))), RoundTable(2, ((5, 7), (6, 8)))))
    ranking = night_ranking([round_], {1: {1: (5, 3), 2: (5, 3)}}, names=NAMES)
    assert [(r.player, r.place) for r in ranking.rows] == [
        (1, 1),
        (3, 1),
        (5, 1),
        (7, 1),
        (2, 5),
        (4, 5),
        (6, 5),
        (8, 5),
    ]
    assert texts(ranking.row_of(1))[2:] == [
        "Level with Cem on 5, rounds won and points against: they share place 1.",
        "Level with Eva on 5, rounds won and points against: they share place 1.",
        "Level with Gil on 5, rounds won and points against: they share place 1.",
    ]


def test_a_level_table_is_won_by_neither():
    """ "ties by more rounds won": table 1 ends 6 to 6 (no round won), table 2's winners
    score 6 too and so are ahead of table 1's players."""
    round_ = Round(1, (RoundTable(1, ((1, 3), (2, 4))), RoundTable(2, ((5, 7), (6, 8)))))
    ranking = night_ranking([round_], {1: {1: (6, 6), 2: (6, 5)}}, names=NAMES)
    assert [(r.player, r.place, r.rounds_won) for r in ranking.rows][:6] == [
        (5, 1, 1),
        (7, 1, 1),
        (1, 3, 0),
        (2, 3, 0),
        (3, 3, 0),
        (4, 3, 0),
    ]
    assert "Level with Ana on 6; more rounds won decide: 1 against 0." in texts(ranking.row_of(5))


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Fraction(7), "7"),
        (Fraction(-3), "−3"),
        (Fraction(1, 2), "½"),
        (Fraction(11, 2), "5½"),
        (Fraction(-13, 4), "−3¼"),
        (Fraction(2, 3), "⅔"),
        (Fraction(99, 8), "12 3/8"),
        (Fraction(-3, 8), "−3/8"),
    ],
)
def test_exact_scores_are_shown_as_mixed_numbers(value, text):
    """A sitter-out's average is kept exact and shown like ranking.py's match points."""
    assert str(shown(value)) == text


# -- bad input ------------------------------------------------------------------------------


def test_every_problem_with_the_scores_is_reported():
    """ "Check input (every table of the round has two integer scores; … no extra tables)."""
    rounds = eight_players()[:2]
    with pytest.raises(RuleError) as caught:
        night_ranking(rounds, {1: {1: (11, 6), 2: (4,), 3: (1, 1)}, 2: {1: (5, True)}, 4: {}})
    assert messages(caught.value) == [
        ("scores.4", "The night has no round 4."),
        ("scores.1.3", "Round 1 has no table 3."),
        (
            "scores.1.2",
            "Table 2 of round 1 needs two whole-number scores, its first team's and its second's.",
        ),
        (
            "scores.2.1",
            "Table 1 of round 2 needs two whole-number scores, its first team's and its second's.",
        ),
        (
            "scores.2.2",
            "Table 2 of round 2 needs two whole-number scores, its first team's and its second's.",
        ),
    ]
    with pytest.raises(RuleError) as caught:
        night_ranking(rounds, {1: {1: (1, 2), 2: (3, 4)}})
    assert messages(caught.value) == [
        (
            "scores.2",
            "Round 2 has no scores: give the two teams' scores of each of its tables.",
        )
    ]


def test_bad_rounds_and_modes_are_refused():
    with pytest.raises(RuleError) as caught:
        night_ranking([eight_players()[0], eight_players()[0], "round"], {}, mode="wins")
    assert messages(caught.value) == [
        ("mode", 'A Pitch night counts "points" or "match_points", not wins.'),
        ("rounds.1", "Round 1 is given twice."),
        (
            "rounds.2",
            "A round has tables numbered 1, 2, … of two teams of two, and seats each player once.",
        ),
    ]
    with pytest.raises(RuleError):
        night_ranking(5, {})
    with pytest.raises(RuleError):
        night_ranking(eight_players(), [])


# -- statistics -----------------------------------------------------------------------------


def hands() -> list[NightHand]:
    """Round 1, table 1, Ana & Cem against Ben & Dan: Ana makes 5 (6 to 4), Ben is set
    on 6 (5 to −6), Ana makes the moon (10 to 0): Ana & Cem 21, Ben & Dan −2.
    Round 2, table 1, Ana & Ben against Cem & Dan (the second hand lists the teams the
    other way round): Cem is set on 5 (4 to −5), Ana is set on the moon (Dan & Cem 3,
    Ben & Ana −10): Ana & Ben −6, Cem & Dan −2, so Cem & Dan win the round."""
    one = ((1, 3), (2, 4))
    return [
        NightHand(1, 1, one, pitcher=1, bid=5, made=True, scores=(6, 4)),
        NightHand(1, 1, one, pitcher=2, bid=6, made=False, scores=(5, -6)),
        NightHand(1, 1, one, pitcher=1, bid="moon", made=True, scores=(10, 0)),
        NightHand(1, 1, ((1, 2), (3, 4)), pitcher=3, bid=5, made=False, scores=(4, -5)),
        NightHand(2, 1, ((1, 2), (3, 4)), pitcher=3, bid=5, made=False, scores=(4, -5)),
        NightHand(2, 1, ((4, 3), (2, 1)), pitcher=1, bid="moon", made=False, scores=(3, -10)),
    ]


def test_statistics_of_bids_moons_and_partners():
    """ "Per player: bids made and set by size, moons tried and made, results with each
    partner." (Only the round 2 hands and the three of round 1 are valid: see below.)"""
    good = [hand for i, hand in enumerate(hands()) if i != 3]
    stats = {s.player: s for s in player_statistics(good)}
    assert sorted(stats) == [1, 2, 3, 4]
    ana, ben, cem, dan = stats[1], stats[2], stats[3], stats[4]
    assert ana.bids == (BidCount(5, 1, 0),)
    assert (ana.moons_tried, ana.moons_made) == (2, 1)
    assert ana.partners == (PartnerLine(2, 1, 0, -6), PartnerLine(3, 1, 1, 21))
    assert ben.bids == (BidCount(6, 0, 1),)
    assert (ben.bids_made, ben.bids_set, ben.moons_tried) == (0, 1, 0)
    assert ben.partners == (PartnerLine(1, 1, 0, -6), PartnerLine(4, 1, 0, -2))
    assert cem.bids == (BidCount(5, 0, 1),)
    assert cem.partner(4) == PartnerLine(4, 1, 1, -2)
    assert cem.partner(1) == PartnerLine(1, 1, 1, 21)
    assert dan.bids == ()
    assert dan.partners == (PartnerLine(2, 1, 0, -2), PartnerLine(3, 1, 1, -2))


def test_bad_hands_are_refused_with_every_problem():
    """A table keeps its teams for the round, and a player plays at one table a round."""
    with pytest.raises(RuleError) as caught:
        player_statistics(hands(), NAMES)
    assert messages(caught.value) == [
        ("hands.3.teams", "Table 1 of round 1 has other teams in another hand."),
    ]
    one = ((1, 3), (2, 4))
    bad = [
        NightHand(1, 1, one, pitcher=9, bid=3, made="yes", scores=(1,)),
        NightHand(1, 2, ((1, 5), (6, 7)), pitcher=1, bid=4, made=True, scores=(4, 0)),
        NightHand(1, 1, one, pitcher=1, bid=4, made=True, scores=(4, 0)),
        NightHand(0, 1, ((1, 1), (2, 3)), pitcher=1, bid=4, made=True, scores=(4, 0)),
        "hand",
    ]
    with pytest.raises(RuleError) as caught:
        player_statistics(bad, NAMES)
    assert messages(caught.value) == [
        ("hands.0.pitcher", "The pitcher is one of the four players at the table."),
        ("hands.0.bid", 'A bid is a number from 4 to 9 or "moon".'),
        ("hands.0.made", "Whether the bid was made is yes or no."),
        (
            "hands.0.scores",
            "A hand changes each team's score by a whole number, team 0's first.",
        ),
        ("hands.2.teams", "Ana plays at table 2 and at table 1 of round 1."),
        ("hands.3", "A hand's round and table are whole numbers, 1 or more."),
        ("hands.3.teams", "A hand is played by two teams of two players."),
        (
            "hands.4",
            "Each hand of the night gives its round, table, teams, pitcher, bid and scores.",
        ),
    ]
    with pytest.raises(RuleError):
        player_statistics(None)


# -- properties of any night ------------------------------------------------------------


@st.composite
def nights(draw) -> tuple[list[Round], dict[int, dict[int, tuple[int, int]]]]:
    count = draw(st.integers(4, 14))
    rounds = [first_round(list(range(1, count + 1)), draw(st.integers(0, 10**6)))]
    scores: dict[int, dict[int, tuple[int, int]]] = {}
    length = draw(st.integers(1, 4))
    while True:
        last = rounds[-1]
        own = {
            t.number: (draw(st.integers(-9, 21)), draw(st.integers(-9, 21))) for t in last.tables
        }
        scores[last.number] = own
        if len(scores) == length:
            break
        winners = {
            n: (0 if a > b else 1 if b > a else draw(st.sampled_from((0, 1))))
            for n, (a, b) in own.items()
        }
        rounds.append(next_progressive_round(last, winners, history=rounds))
    return rounds, scores


def check_places(ranking) -> None:
    rows = ranking.rows
    assert rows[0].place == 1
    for position, (before, row) in enumerate(pairwise(rows), start=2):
        assert before.key <= row.key
        assert row.place == (before.place if before.key == row.key else position)


@FAST
@given(night=nights())
def test_match_points_share_one_point_per_pair_of_teams(night):
    """ "1 per opponent outscored and ½ per tie": every pair of teams of a round shares one
    point, so a round of t teams hands out t(t − 1)/2, each partner scoring the team's
    match points; a sitter-out scores the average, (t − 1)/2."""
    rounds, scores = night
    ranking = night_ranking(rounds, scores, mode="match_points")
    for round_ in rounds:
        teams = 2 * len(round_.tables)
        lines = [line for row in ranking.rows for line in row.lines if line.round == round_.number]
        played = [line for line in lines if not line.sat_out]
        assert sum(line.value for line in played) == 2 * Fraction(teams * (teams - 1), 2)
        assert all(line.value == Fraction(teams - 1, 2) for line in lines if line.sat_out)
    check_places(ranking)


@FAST
@given(night=nights())
def test_every_player_present_has_a_row_and_places_run_from_one(night):
    """ "each row explains itself"; every player of the night is ranked, places 1 … n
    with shared places repeating."""
    rounds, scores = night
    ranking = night_ranking(rounds, scores)
    present = {p for round_ in rounds for p in round_.present}
    assert {row.player for row in ranking.rows} == present
    check_places(ranking)
    for row in ranking.rows:
        assert row.total == sum(line.value for line in row.lines)
        assert row.rounds_won == sum(line.won for line in row.lines)
        assert len(row.explanation) >= len(row.lines) + 1
    for round_ in rounds:
        lines = [line for row in ranking.rows for line in row.lines if line.round == round_.number]
        played = [line.value for line in lines if not line.sat_out]
        assert all(line.value == sum(played) / len(played) for line in lines if line.sat_out)


GARBAGE = st.one_of(
    st.none(),
    st.booleans(),
    st.floats(allow_nan=False),
    st.text(max_size=3),
    st.tuples(st.integers(-5, 5)),
    st.tuples(st.integers(-5, 5), st.integers(-5, 5), st.integers(-5, 5)),
    st.tuples(st.integers(-5, 5), st.text(max_size=2)),
)


@FAST
@given(night=nights(), data=st.data())
def test_bad_scores_raise_rule_error_only(night, data):
    """Bad input never raises anything but RuleError."""
    rounds, scores = night
    broken = {n: dict(own) for n, own in scores.items()}
    round_ = data.draw(st.sampled_from(sorted(broken)))
    how = data.draw(st.sampled_from(("garbage", "drop", "extra table", "extra round", "mode")))
    mode = "points"
    if how == "garbage":
        table = data.draw(st.sampled_from(sorted(broken[round_])))
        # None is no garbage: it says the table has not played yet (a live night).
        broken[round_][table] = data.draw(GARBAGE.filter(lambda value: value is not None))
    elif how == "drop":
        broken[round_].pop(data.draw(st.sampled_from(sorted(broken[round_]))))
    elif how == "extra table":
        broken[round_][len(broken[round_]) + 1] = (1, 2)
    elif how == "extra round":
        broken[max(broken) + 1] = {}
    else:
        mode = data.draw(st.one_of(st.text(max_size=5), st.none(), st.integers()))
    with pytest.raises(RuleError):
        night_ranking(rounds, broken, mode=mode)


@FAST
@given(
    st.lists(
        st.builds(
            NightHand,
            round=st.one_of(st.integers(0, 3), GARBAGE),
            table=st.integers(1, 2),
            teams=st.one_of(
                st.tuples(
                    st.tuples(st.integers(1, 6), st.integers(1, 6)),
                    st.tuples(st.integers(1, 6), st.integers(1, 6)),
                ),
                GARBAGE,
            ),
            pitcher=st.one_of(st.integers(1, 6), GARBAGE),
            bid=st.one_of(st.integers(2, 10), st.just("moon"), GARBAGE),
            made=st.one_of(st.booleans(), GARBAGE),
            scores=st.one_of(st.tuples(st.integers(-10, 10), st.integers(-10, 10)), GARBAGE),
        ),
        max_size=6,
    )
)
def test_statistics_of_any_hands_or_rule_error(hands):
    """Any hands: statistics, or RuleError and nothing else; moons and bids add up."""
    try:
        stats = player_statistics(hands)
    except RuleError:
        return
    made_or_set = sum(s.bids_made + s.bids_set + s.moons_tried for s in stats)
    assert made_or_set == len(hands)


def test_a_live_night_counts_each_table_once_it_has_scores():
    """Rule "evening-ranking": while a round is played, a table without scores yet
    (``None``) counts for nobody, and a sitter-out scores the average of the tables
    played so far; a round no table has played counts for nobody yet."""
    one, two = eight_players()[:2]
    live = night_ranking([one, two], {1: {1: (11, 6), 2: None}, 2: {1: None, 2: None}})
    table = one.tables[0]
    assert {row.player for row in live.rows} == set(table.seats)
    first, second = table.teams
    assert all(live.row_of(p).total == 11 for p in first)
    assert all(live.row_of(p).total == 6 for p in second)
    assert all(len(live.row_of(p).lines) == 1 for p in table.seats)
