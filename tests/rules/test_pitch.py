"""The 10-Point Pitch referee: trumps, tricks, bidding and the score of a hand."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.cards import card
from games.rules.errors import RuleError
from games.rules.pitch import (
    POINT_CARD_NAMES,
    POINT_CARDS,
    RULE_SECTIONS,
    PitchOptions,
    check_bidding,
    is_trump,
    off_jack,
    score_hand,
    trick_winner,
    trump_order,
)

POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def pts(code: str) -> dict[str, str]:
    """Point holders in POINT_KEYS order: "A", "B" or "-" for out of play."""
    assert len(code) == 8
    return {key: ("out" if c == "-" else c) for key, c in zip(POINT_KEYS, code, strict=True)}


def codes(cards) -> list[str]:
    return [c.code for c in cards]


def assert_rules_known(result) -> None:
    """Every explanation step must link to a section of the rule book."""
    for step in result.explanation:
        assert step.rule in RULE_SECTIONS, step


def problems_of(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str | None, str]]:
    return [(p.field, p.message) for p in error.value.problems]


# -- Constants ---------------------------------------------------------------------


def test_point_cards_are_the_ten_points_in_order():
    # Points: ace, jack, off-jack, both jokers, ten and two count one; the three counts three.
    assert tuple(POINT_CARDS) == POINT_KEYS
    assert dict(POINT_CARDS) == {
        "ace": 1,
        "jack": 1,
        "off_jack": 1,
        "high_joker": 1,
        "low_joker": 1,
        "ten": 1,
        "two": 1,
        "three": 3,
    }
    assert sum(POINT_CARDS.values()) == 10
    assert POINT_CARD_NAMES["off_jack"] == "off-jack"
    assert POINT_CARD_NAMES["high_joker"] == "high joker"


def test_rule_sections_cover_the_rule_book():
    assert set(RULE_SECTIONS) == {
        "pitch-cards",
        "pitch-trumps",
        "pitch-bidding",
        "pitch-play",
        "pitch-points",
        "pitch-two",
        "pitch-opponents",
        "pitch-made",
        "pitch-set",
        "pitch-moon",
        "pitch-game-end",
        "pitch-options",
    }
    assert all(title for title in RULE_SECTIONS.values())


# -- Trumps ------------------------------------------------------------------------

# Trumps: A K Q J, the off-jack (jack of the same colour), high joker, low joker, 10 … 2.
TRUMP_ORDERS = [
    pytest.param(
        "C",
        "AC KC QC JC JS JOKER-HIGH JOKER-LOW 10C 9C 8C 7C 6C 5C 4C 3C 2C",
        id="clubs-off-jack-is-JS",
    ),
    pytest.param(
        "S",
        "AS KS QS JS JC JOKER-HIGH JOKER-LOW 10S 9S 8S 7S 6S 5S 4S 3S 2S",
        id="spades-off-jack-is-JC",
    ),
    pytest.param(
        "H",
        "AH KH QH JH JD JOKER-HIGH JOKER-LOW 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        id="hearts-off-jack-is-JD",
    ),
    pytest.param(
        "D",
        "AD KD QD JD JH JOKER-HIGH JOKER-LOW 10D 9D 8D 7D 6D 5D 4D 3D 2D",
        id="diamonds-off-jack-is-JH",
    ),
]


@pytest.mark.parametrize(("trump", "expected"), TRUMP_ORDERS)
def test_trump_order(trump, expected):
    order = trump_order(trump)
    assert codes(order) == expected.split()
    assert len(order) == 16
    assert off_jack(trump) == order[4]


@pytest.mark.parametrize(
    ("trump", "code", "expected"),
    [
        pytest.param("H", "JD", True, id="off-jack-is-trump"),
        pytest.param("H", "JC", False, id="black-jack-not-trump-in-hearts"),
        pytest.param("S", "JOKER-HIGH", True, id="high-joker-always-trump"),
        pytest.param("D", "JOKER-LOW", True, id="low-joker-always-trump"),
        pytest.param("C", "2C", True, id="trump-two"),
        pytest.param("C", "AH", False, id="other-suit-ace"),
        pytest.param("S", "QC", False, id="same-colour-queen-is-not-trump"),
    ],
)
def test_is_trump(trump, code, expected):
    # Only trumps matter: the trump suit, the off-jack and the two jokers.
    assert is_trump(card(code), trump) is expected


@pytest.mark.parametrize(
    "spelling",
    ["H", "h", " hearts ", "Hearts", "♥"],
    ids=["letter", "lower", "name", "Name", "sym"],
)
def test_trump_spellings(spelling):
    assert trump_order(spelling)[0] == card("AH")


@pytest.mark.parametrize(
    "trump", ["X", "", "no trump", 3, None], ids=["letter", "empty", "words", "number", "none"]
)
def test_bad_trump(trump):
    with pytest.raises(RuleError) as error:
        trump_order(trump)
    [(field, message)] = problems_of(error)
    assert field == "trump"
    assert message.startswith('Trump is one suit: "C" (clubs), "S" (spades), "H" (hearts)')


# -- Tricks ------------------------------------------------------------------------

TRICKS = [
    # The highest trump wins the trick.
    pytest.param("S", "2S JC JOKER-LOW AS", 3, id="ace-beats-all"),
    # Off-jack ranks just below the jack of trumps.
    pytest.param("H", "JD JH", 1, id="jack-beats-off-jack"),
    pytest.param("H", "JD QH", 1, id="queen-beats-off-jack"),
    # Off-jack ranks above the jokers.
    pytest.param("H", "JOKER-HIGH JD", 1, id="off-jack-beats-high-joker"),
    # High joker above low joker; both above the ten.
    pytest.param("C", "JOKER-LOW JOKER-HIGH 10C", 1, id="high-joker-beats-low-joker"),
    pytest.param("C", "10C JOKER-LOW", 1, id="low-joker-beats-ten"),
    pytest.param("D", "3D 2D", 0, id="two-card-trick-three-beats-two"),
    pytest.param("D", "4D JH 5D", 1, id="three-card-trick-off-jack"),
    pytest.param("C", "KC 10C JS QC", 0, id="king-leads-and-wins"),
]


@pytest.mark.parametrize(("trump", "played", "winner"), TRICKS)
def test_trick_winner(trump, played, winner):
    result = trick_winner(trump=trump, cards=[card(c) for c in played.split()])
    assert result.winner == winner
    assert_rules_known(result)


def test_trick_explanation_names_off_jack_and_jokers():
    result = trick_winner(trump="S", cards=[card(c) for c in ("2S", "JC", "JOKER-LOW", "AS")])
    assert [step.text for step in result.explanation] == [
        "Spades are trump; from high to low: A♠, K♠, Q♠, J♠, J♣, high joker, low joker, "
        "10♠, 9♠, 8♠, 7♠, 6♠, 5♠, 4♠, 3♠, 2♠.",
        "Played in this order: 2♠, J♣, low joker, A♠.",
        "J♣ is the off-jack: it counts as one of the spades, just below J♠ and above the jokers.",
        "The jokers are trumps whatever the suit: the high joker above the low joker, both "
        "between the off-jack and 10♠.",
        "A♠ is the highest trump played, so the fourth card wins the trick and its player "
        "leads the next one.",
    ]
    assert [step.rule for step in result.explanation] == [
        "pitch-trumps",
        "pitch-play",
        "pitch-trumps",
        "pitch-trumps",
        "pitch-play",
    ]


def test_plain_trick_explanation_has_no_joker_or_off_jack_notes():
    result = trick_winner(trump="D", cards=[card("3D"), card("2D")])
    assert len(result.explanation) == 3
    assert result.explanation[-1].text.startswith("3♦ is the highest trump played, so the first")


def test_non_trump_is_rejected_with_the_trumps_named():
    # Everyone discards every non-trump, so only trumps are ever played.
    with pytest.raises(RuleError) as error:
        trick_winner(trump="H", cards=[card("AH"), card("JC")])
    assert problems_of(error) == [
        (
            "cards.1",
            "J♣ is not a trump when hearts are trump: only hearts, the J♦ and the two jokers "
            "are. Everyone throws away their other cards before the first trick, so it cannot "
            "be played.",
        )
    ]


@pytest.mark.parametrize(
    ("trump", "played", "expected_fields"),
    [
        # A player out of trumps sits out, but a trick has at least two cards.
        pytest.param("S", "AS", ["cards"], id="one-card"),
        pytest.param("S", "", ["cards"], id="no-cards"),
        # Four players, so at most four cards.
        pytest.param("S", "AS KS QS JS 10S", ["cards"], id="five-cards"),
        # One deck: each card exists once.
        pytest.param("S", "AS AS", ["cards"], id="duplicate"),
        pytest.param("X", "AS KS", ["trump"], id="bad-trump-skips-trump-check"),
        pytest.param(
            "C",
            "AH KH 2C 2C JOKER-LOW",
            ["cards", "cards.0", "cards.1", "cards"],
            id="several-at-once",
        ),
    ],
)
def test_trick_problems(trump, played, expected_fields):
    with pytest.raises(RuleError) as error:
        trick_winner(trump=trump, cards=[card(c) for c in played.split()])
    assert [field for field, _ in problems_of(error)] == expected_fields


def test_trick_problem_messages():
    with pytest.raises(RuleError) as error:
        trick_winner(trump="C", cards=[card("2C"), card("2C"), card("3C"), card("4C"), card("5C")])
    assert problems_of(error) == [
        ("cards", "A trick has 2 to 4 cards, one from each player still holding trumps; got 5."),
        ("cards", "2♣ is there 2 times, but a Pitch deck has only one two of clubs."),
    ]


# -- Options -----------------------------------------------------------------------


def test_default_options():
    assert PitchOptions.from_mapping(None) == PitchOptions()
    assert PitchOptions().as_dict() == {
        "target": 52,
        "made_scores": "taken",
        "two_goes_to": "taker",
        "all_pass": "dealer_4",
        "win_condition": "bidder_first",
    }


def test_options_round_trip():
    data = {
        "target": 21,
        "made_scores": "bid",
        "two_goes_to": "player",
        "all_pass": "redeal",
        "win_condition": "bid_out",
    }
    options = PitchOptions.from_mapping(data)
    assert options.as_dict() == data
    assert PitchOptions.from_mapping({}) == PitchOptions()


@pytest.mark.parametrize(
    ("target", "shown"),
    [
        pytest.param(10, "10", id="too-low"),
        pytest.param(501, "501", id="too-high"),
        pytest.param(True, "true", id="bool"),
        pytest.param("52", '"52"', id="text"),
        pytest.param(52.0, "52.0", id="fraction"),
    ],
)
def test_target_out_of_range(target, shown):
    # Option target: a whole number of points; we allow 11 to 500.
    with pytest.raises(RuleError) as error:
        PitchOptions.from_mapping({"target": target})
    assert problems_of(error) == [
        (
            "options.target",
            f"The target must be a whole number of points from 11 to 500 (52 is usual); got {shown}.",
        )
    ]


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(
            {"made_scores": "points"},
            [
                (
                    "options.made_scores",
                    'made_scores must be one of these: "taken": a team that makes its bid scores '
                    'the points it took; "bid": a team that makes its bid scores its bid. Got "points".',
                )
            ],
            id="bad-choice",
        ),
        pytest.param(
            {"trget": 52},
            [
                (
                    "options.trget",
                    '"trget" is not a Pitch option. Did you mean "target"? The options are target, '
                    "made_scores, two_goes_to, all_pass, win_condition, hands.",
                )
            ],
            id="unknown-name-with-hint",
        ),
        pytest.param(
            {"two_goes_to": ["player"], "all_pass": None, "zzz": 1},
            [
                ("options.two_goes_to", None),
                ("options.all_pass", None),
                ("options.zzz", None),
            ],
            id="several-at-once",
        ),
    ],
)
def test_option_problems(data, expected):
    with pytest.raises(RuleError) as error:
        PitchOptions.from_mapping(data)
    found = problems_of(error)
    assert [field for field, _ in found] == [field for field, _ in expected]
    for (_, message), (_, wanted) in zip(found, expected, strict=True):
        if wanted is not None:
            assert message == wanted


def test_options_not_an_object():
    with pytest.raises(RuleError) as error:
        PitchOptions.from_mapping([1, 2], field="sheet.options")
    assert problems_of(error) == [
        ("sheet.options", 'Give the options as an object, like {"target": 52}; got a list.')
    ]


def test_options_checked_when_built_directly():
    with pytest.raises(RuleError) as error:
        PitchOptions(target=5, win_condition="first")
    assert [field for field, _ in problems_of(error)] == [
        "options.target",
        "options.win_condition",
    ]


# -- Scoring a hand ----------------------------------------------------------------


def hand(case_id, bid, pitcher, points, before, options, made, taken, delta, winner):
    return pytest.param(
        bid, pitcher, points, before, options, made, taken, delta, winner, id=case_id
    )


# points: holders of ace jack off_jack high_joker low_joker ten two three ("-" = out of play);
# before, taken and delta are (team A, team B).
# fmt: off
HANDS = [
    #     id                                        bid     team points      before     options                         made   taken    delta     winner
    # Made: the pitcher's team scores what it took; the opponents always score what they took.
    hand("made-scores-taken",                       5,      "A", "AABBBAAA", (0, 0),    {},                             True,  (7, 3),  (7, 3),   None),
    # Option made_scores=bid: a made bid scores the bid, not the points taken.
    hand("made-scores-bid",                         5,      "A", "AABBBAAA", (0, 0),    {"made_scores": "bid"},         True,  (7, 3),  (5, 3),   None),
    # Taking exactly the bid makes it.
    hand("made-exactly",                            7,      "B", "AABBBBBB", (0, 0),    {},                             True,  (2, 8),  (2, 8),   None),
    # Set: the bid is subtracted; the opponents still score what they took.
    hand("set",                                     8,      "A", "AABBBAAA", (10, 20),  {},                             False, (7, 3),  (-8, 3),  None),
    hand("set-with-bid-option",                     8,      "A", "AABBBAAA", (10, 20),  {"made_scores": "bid"},         False, (7, 3),  (-8, 3),  None),
    # Scores may go below zero.
    hand("set-below-zero",                          6,      "A", "BBBBBAAB", (3, 0),    {},                             False, (2, 8),  (-6, 8),  None),
    hand("made-from-below-zero",                    4,      "B", "AAAAAABB", (10, -2),  {},                             True,  (6, 4),  (6, 4),   None),
    # A point card out of play scores for nobody.
    hand("two-cards-out",                           6,      "A", "A-BB-AAA", (0, 0),    {},                             True,  (6, 2),  (6, 2),   None),
    hand("all-out-set",                             4,      "B", "--------", (5, 5),    {},                             False, (0, 0),  (0, -4),  None),
    # Option two_goes_to=player: the "two" entry names the team that played it; same sums.
    hand("two-goes-to-player",                      4,      "A", "AABBBAAB", (0, 0),    {"two_goes_to": "player"},      True,  (4, 6),  (4, 6),   None),
    # End of the game: the first team to reach the target wins.
    hand("pitcher-reaches",                         4,      "A", "AAAAABBB", (50, 10),  {},                             True,  (5, 5),  (5, 5),   "A"),
    hand("opponents-reach-while-pitcher-set",       7,      "A", "AAAAABBB", (40, 48),  {},                             False, (5, 5),  (-7, 5),  "B"),
    hand("exactly-target-wins",                     4,      "A", "AAAAABBB", (47, 46),  {},                             True,  (5, 5),  (5, 5),   "A"),
    # bidder_first: both reach on the same hand, the pitcher's team wins.
    hand("both-reach-pitcher-wins",                 5,      "A", "AABAAAAB", (48, 50),  {},                             True,  (6, 4),  (6, 4),   "A"),
    hand("both-reach-pitcher-B-wins",               4,      "B", "AABAAAAB", (48, 50),  {},                             True,  (6, 4),  (6, 4),   "B"),
    # Option target.
    hand("target-21",                               5,      "B", "BBBBBBAA", (3, 15),   {"target": 21},                 True,  (4, 6),  (4, 6),   "B"),
    # Option bid_out: a team wins only on a hand it pitched and made; otherwise play goes on.
    hand("bid-out-opponents-over-target-play-on",   4,      "A", "AAAAAABB", (30, 50),  {"win_condition": "bid_out"},   True,  (6, 4),  (6, 4),   None),
    hand("bid-out-both-reach-pitcher-made",         5,      "A", "AABAAAAB", (48, 50),  {"win_condition": "bid_out"},   True,  (6, 4),  (6, 4),   "A"),
    hand("bid-out-pitcher-set-opponents-reach",     7,      "A", "AAAAABBB", (40, 48),  {"win_condition": "bid_out"},   False, (5, 5),  (-7, 5),  None),
    hand("bid-out-pitcher-set-still-over-target",   7,      "A", "AAAAABBB", (60, 10),  {"win_condition": "bid_out"},   False, (5, 5),  (-7, 5),  None),
    hand("bid-out-nobody-near",                     4,      "B", "AAAAAABB", (10, 20),  {"win_condition": "bid_out"},   True,  (6, 4),  (6, 4),   None),
    # Moon made with a score above 0: the score becomes the target and the team wins at once.
    hand("moon-made-above-zero-wins",               "moon", "A", "AAAAAAAA", (12, 40),  {},                             True,  (10, 0), (40, 0),  "A"),
    hand("moon-made-custom-target",                 "moon", "B", "BBBBBBBB", (45, 1),   {"target": 100},                True,  (0, 10), (0, 99),  "B"),
    # Moon made at 0 or below: the score becomes 0 and play goes on.
    hand("moon-made-at-zero-resets",                "moon", "A", "AAAAAAAA", (0, 30),   {},                             True,  (10, 0), (0, 0),   None),
    hand("moon-made-below-zero-resets",             "moon", "B", "BBBBBBBB", (30, -7),  {},                             True,  (0, 10), (0, 7),   None),
    # Decision: a made moon never lowers a score already above the target (possible under bid_out).
    hand("moon-made-above-target-keeps-score",      "moon", "A", "AAAAAAAA", (60, 10),  {"win_condition": "bid_out"},   True,  (10, 0), (0, 0),   "A"),
    # Moon failed: the pitcher's team loses at once and keeps its score; opponents add and win.
    hand("moon-failed-opponents-win",               "moon", "A", "AAAAAAAB", (20, 5),   {},                             False, (7, 3),  (0, 3),   "B"),
    hand("moon-failed-under-bid-out",               "moon", "A", "AAAAAAAB", (20, 5),   {"win_condition": "bid_out"},   False, (7, 3),  (0, 3),   "B"),
    hand("moon-failed-below-zero",                  "moon", "A", "AAAAAAAB", (-5, 5),   {},                             False, (7, 3),  (0, 3),   "B"),
    # A point card out of play makes the moon impossible.
    hand("moon-impossible-card-out",                "moon", "B", "BBBBB-BB", (20, 30),  {},                             False, (0, 9),  (0, 0),   "A"),
]
# fmt: on


@pytest.mark.parametrize(
    ("bid", "pitcher", "points", "before", "options", "made", "taken", "delta", "winner"), HANDS
)
def test_score_hand(bid, pitcher, points, before, options, made, taken, delta, winner):
    result = score_hand(
        bid=bid,
        pitcher_team=pitcher,
        points=pts(points),
        scores_before={"A": before[0], "B": before[1]},
        options=PitchOptions.from_mapping(options),
    )
    assert result.made is made
    assert result.taken == {"A": taken[0], "B": taken[1]}
    assert result.delta == {"A": delta[0], "B": delta[1]}
    assert result.scores_after == {"A": before[0] + delta[0], "B": before[1] + delta[1]}
    assert result.game_over is (winner is not None)
    assert result.winner == winner
    assert_rules_known(result)


def test_scores_before_default_to_zero():
    result = score_hand(bid=4, pitcher_team="A", points=pts("AAAABBBB"))
    assert result.scores_after == {"A": 4, "B": 6}


def test_options_may_be_given_as_a_mapping():
    result = score_hand(
        bid=4, pitcher_team="A", points=pts("AAAABBBB"), options={"made_scores": "bid"}
    )
    assert result.delta == {"A": 4, "B": 6}


def texts(result) -> list[str]:
    return [step.text for step in result.explanation]


def test_explanation_made_with_card_out():
    result = score_hand(
        bid=5,
        pitcher_team="A",
        points=pts("AAB-BAAA"),
        scores_before={"A": 48, "B": 50},
    )
    assert texts(result) == [
        "Team A took the ace, jack, ten, two and three: 7 points.",
        "Team B took the off-jack and low joker: 2 points.",
        "The high joker was out of play, so nobody scores it: 9 of the 10 points were in play.",
        "Team A bid 5 and took 7, so it made its bid and scores the 7 points it took.",
        "Team B, the opponents, score the 2 points they took.",
        "Scores: team A 48 → 55, team B 50 → 52.",
        "Both teams reached 52 on this hand; then the pitcher's team wins, so team A wins the game.",
    ]
    assert [step.rule for step in result.explanation] == [
        "pitch-points",
        "pitch-points",
        "pitch-points",
        "pitch-made",
        "pitch-opponents",
        "pitch-game-end",
        "pitch-game-end",
    ]


def test_explanation_set_below_zero_and_play_goes_on():
    result = score_hand(
        bid=9, pitcher_team="B", points=pts("--AAAAAA"), scores_before={"A": 10, "B": 4}
    )
    assert texts(result) == [
        "Team A took the off-jack, high joker, low joker, ten, two and three: 8 points.",
        "Team B took no points.",
        "The ace and jack were out of play, so nobody scores them: 8 of the 10 points were in play.",
        "Team B bid 9 but took only 0, so it is set: its bid of 9 is taken off its score. "
        "Scores can go below zero.",
        "Team A, the opponents, score the 8 points they took.",
        "Scores: team A 10 → 18, team B 4 → −5.",
        "Nobody has reached 52 yet, so play goes on.",
    ]
    assert result.explanation[3].rule == "pitch-set"


def test_explanation_made_scores_bid_and_two_goes_to_player():
    result = score_hand(
        bid=4,
        pitcher_team="A",
        points=pts("AAAAAABB"),
        options=PitchOptions(made_scores="bid", two_goes_to="player"),
    )
    assert texts(result)[2:5] == [
        "On this sheet the two scores for the team that played it, whoever won the trick: team B.",
        "Team A bid 4 and took 6, so it made its bid; on this sheet a made bid scores the bid: 4.",
        "Team B, the opponents, score the 4 points they took.",
    ]
    assert result.explanation[2].rule == "pitch-two"


def test_two_goes_to_player_says_nothing_when_the_two_was_out():
    result = score_hand(
        bid=4, pitcher_team="A", points=pts("AAAAAA-B"), options={"two_goes_to": "player"}
    )
    assert "pitch-two" not in [step.rule for step in result.explanation]


def test_explanation_opponents_took_nothing():
    result = score_hand(bid=9, pitcher_team="A", points=pts("AAAAAAAA"))
    assert "Team B, the opponents, took nothing and score nothing." in texts(result)


@pytest.mark.parametrize(
    ("bid", "points", "before", "options", "expected"),
    [
        pytest.param(
            "moon",
            "AAAAAAAA",
            (12, 40),
            {},
            [
                "Team A bid moon and took all 10 points.",
                "Team A had 12, above zero, so its score becomes the target, 52, and it wins "
                "the game at once.",
                "Team B, the opponents, took nothing and score nothing.",
                "Scores: team A 12 → 52, team B 40 → 40.",
            ],
            id="moon-made-wins",
        ),
        pytest.param(
            "moon",
            "AAAAAAAA",
            (-3, 40),
            {},
            [
                "Team A bid moon and took all 10 points.",
                "Team A had −3, not above zero, so its score becomes 0 and play goes on.",
                "Team B, the opponents, took nothing and score nothing.",
                "Scores: team A −3 → 0, team B 40 → 40.",
            ],
            id="moon-made-resets",
        ),
        pytest.param(
            "moon",
            "AAAAAAAA",
            (60, 40),
            {"win_condition": "bid_out"},
            [
                "Team A bid moon and took all 10 points.",
                "Team A already had 60, above the target of 52; a made moon does not lower it, "
                "and team A wins the game at once.",
                "Team B, the opponents, took nothing and score nothing.",
                "Scores: team A 60 → 60, team B 40 → 40.",
            ],
            id="moon-made-above-target",
        ),
        pytest.param(
            "moon",
            "AAAAAABA",
            (20, 30),
            {},
            [
                "Team A bid moon but took only 9 of the 10 points, so its moon fails.",
                "A failed moon loses the game at once: team A keeps its 20, and team B adds the "
                "1 point it took and wins the game.",
                "Scores: team A 20 → 20, team B 30 → 31.",
            ],
            id="moon-failed",
        ),
        pytest.param(
            "moon",
            "AAAAAABA",
            (20, 30),
            {"win_condition": "bid_out"},
            [
                "A failed moon loses the game at once: team A keeps its 20, and team B adds the "
                "1 point it took and wins the game.",
                "That holds on this sheet too, although team B did not pitch: a failed moon ends "
                "the game whoever pitched.",
                "Scores: team A 20 → 20, team B 30 → 31.",
            ],
            id="moon-failed-bid-out-opponents-still-win",
        ),
        pytest.param(
            "moon",
            "AAAA-AAA",
            (20, 30),
            {},
            [
                "With the low joker out of play, team A could not take all 10 points, so its "
                "moon fails.",
                "A failed moon loses the game at once: team A keeps its 20, and team B, which "
                "took no points, keeps its score and wins the game.",
                "Scores: team A 20 → 20, team B 30 → 30.",
            ],
            id="moon-impossible",
        ),
    ],
)
def test_moon_explanations(bid, points, before, options, expected):
    result = score_hand(
        bid=bid,
        pitcher_team="A",
        points=pts(points),
        scores_before={"A": before[0], "B": before[1]},
        options=options,
    )
    # The first steps list who took which points; the moon steps follow them.
    assert texts(result)[-len(expected) :] == expected
    assert {step.rule for step in result.explanation[-len(expected) : -1]} <= {
        "pitch-moon",
        "pitch-opponents",
    }


@pytest.mark.parametrize(
    ("bid", "points", "before", "expected"),
    [
        pytest.param(
            4,
            "AAAAAABB",
            (30, 50),
            "Team B has 54, at or over 52, but on this sheet a team wins only on a hand it "
            "pitched and made, and team B did not pitch this hand: play goes on.",
            id="opponents-did-not-pitch",
        ),
        pytest.param(
            7,
            "AAAAABBB",
            (60, 10),
            "Team A has 53, at or over 52, but on this sheet a team wins only on a hand it "
            "pitched and made, and team A was set on this hand: play goes on.",
            id="pitcher-set",
        ),
        pytest.param(
            4,
            "AAAAAABB",
            (48, 0),
            "Team A pitched, made its bid and reached 52, so it wins the game.",
            id="pitcher-made-and-reached",
        ),
    ],
)
def test_bid_out_explanations(bid, points, before, expected):
    # bid_out: a team wins only on a hand it pitched and made; the game goes on otherwise.
    result = score_hand(
        bid=bid,
        pitcher_team="A",
        points=pts(points),
        scores_before={"A": before[0], "B": before[1]},
        options={"win_condition": "bid_out"},
    )
    assert texts(result)[-1] == expected


def test_single_team_reaching_target_is_explained():
    result = score_hand(
        bid=7, pitcher_team="A", points=pts("AAAAABBB"), scores_before={"A": 40, "B": 48}
    )
    assert texts(result)[-1] == "Team B reached 52 and wins the game."


def test_game_already_over_is_scored_anyway():
    # Refusing hands after the end is the sheet's business; the referee scores the hand.
    result = score_hand(
        bid=4, pitcher_team="B", points=pts("BBBBAAAA"), scores_before={"A": 70, "B": 0}
    )
    assert result.scores_after == {"A": 76, "B": 4}
    assert result.winner == "A"


GOOD = {"bid": 5, "pitcher_team": "A", "points": pts("AABBBAAA")}


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        # Bids run from 4 to 9, or moon for all ten points.
        pytest.param(
            {"bid": 3},
            [("bid", "3 is below the lowest bid: bids run from 4 to 9.")],
            id="bid-too-low",
        ),
        pytest.param(
            {"bid": 10},
            [
                (
                    "bid",
                    '10 is above the highest numbered bid, 9; to bid for all 10 points, bid "moon".',
                )
            ],
            id="bid-ten-means-moon",
        ),
        pytest.param(
            {"bid": "pass"},
            [
                (
                    "bid",
                    'A hand is only scored after someone bid: give the winning bid, 4 to 9 or "moon".',
                )
            ],
            id="bid-pass",
        ),
        pytest.param(
            {"bid": "shoot"},
            [("bid", 'A bid is a number from 4 to 9 or "moon"; got "shoot".')],
            id="bid-word",
        ),
        pytest.param(
            {"bid": True},
            [("bid", 'A bid is a number from 4 to 9 or "moon"; got true.')],
            id="bid-bool",
        ),
        pytest.param(
            {"bid": 4.5},
            [("bid", 'A bid is a number from 4 to 9 or "moon"; got 4.5.')],
            id="bid-fraction",
        ),
        pytest.param(
            {"pitcher_team": "C"},
            [
                (
                    "pitcher_team",
                    'The pitcher\'s team is "A" (seats 1 and 3) or "B" (seats 2 and 4); got "C".',
                )
            ],
            id="team-unknown",
        ),
        pytest.param(
            {"pitcher_team": {"team": "A"}},
            [
                (
                    "pitcher_team",
                    'The pitcher\'s team is "A" (seats 1 and 3) or "B" (seats 2 and 4); got an object.',
                )
            ],
            id="team-object",
        ),
        pytest.param(
            {"bid": "a very long bid that nobody would make"},
            [("bid", 'A bid is a number from 4 to 9 or "moon"; got "a very long bid that…".')],
            id="bid-long-text-shortened",
        ),
        pytest.param(
            {"bid": object()},
            [("bid", 'A bid is a number from 4 to 9 or "moon"; got something else.')],
            id="bid-odd-value",
        ),
        pytest.param(
            {"pitcher_team": None},
            [
                (
                    "pitcher_team",
                    'The pitcher\'s team is "A" (seats 1 and 3) or "B" (seats 2 and 4); got nothing.',
                )
            ],
            id="team-missing",
        ),
        pytest.param(
            {"points": ["A"] * 8},
            [
                (
                    "points",
                    'Say which team took each point card, like {"ace": "A", "jack": "B", ..., "three": "out"}.',
                )
            ],
            id="points-not-object",
        ),
        pytest.param(
            {"points": {k: v for k, v in pts("AABBBAAA").items() if k != "three"}},
            [("points.three", 'Say who took the three: "A", "B", or "out" if it was out of play.')],
            id="points-missing-key",
        ),
        pytest.param(
            {"points": {**pts("AABBBAAA"), "offjack": "A"}},
            [
                (
                    "points",
                    '"offjack" is not a point card. Did you mean "off_jack"? The point cards are '
                    "ace, jack, off_jack, high_joker, low_joker, ten, two, three.",
                )
            ],
            id="points-unknown-key",
        ),
        pytest.param(
            {"points": {**pts("AABBBAAA"), "game": "A"}},
            [
                (
                    "points",
                    '"game" is not a point card. The point cards are ace, jack, off_jack, '
                    "high_joker, low_joker, ten, two, three.",
                )
            ],
            id="points-game-is-not-a-point-here",
        ),
        pytest.param(
            {"points": {**pts("AABBBAAA"), "ace": "C"}},
            [("points.ace", 'The ace goes to team "A" or "B", or is "out" of play; got "C".')],
            id="points-bad-holder",
        ),
        pytest.param(
            {"points": {**pts("AABBBAAA"), "ten": 1}},
            [("points.ten", 'The ten goes to team "A" or "B", or is "out" of play; got 1.')],
            id="points-holder-number",
        ),
        pytest.param(
            {"scores_before": 0},
            [("scores_before", 'Give the scores before the hand as {"A": 0, "B": 0}; got 0.')],
            id="scores-not-object",
        ),
        pytest.param(
            {"scores_before": {"A": 3}},
            [("scores_before.B", "Give team B's score before the hand.")],
            id="scores-missing-team",
        ),
        pytest.param(
            {"scores_before": {"A": 3, "B": 4, "C": 0}},
            [("scores_before", '"C" is not a team: the teams are "A" and "B".')],
            id="scores-unknown-team",
        ),
        pytest.param(
            {"scores_before": {"A": "3", "B": 2.5}},
            [
                (
                    "scores_before.A",
                    'Team A\'s score is a whole number (it may be below zero); got "3".',
                ),
                (
                    "scores_before.B",
                    "Team B's score is a whole number (it may be below zero); got 2.5.",
                ),
            ],
            id="scores-not-whole-numbers",
        ),
        pytest.param(
            {"options": {"target": 0}},
            [
                (
                    "options.target",
                    "The target must be a whole number of points from 11 to 500 (52 is usual); got 0.",
                )
            ],
            id="options-checked-with-the-rest",
        ),
        pytest.param(
            {"options": "house"},
            [("options", 'Give the options as an object, like {"target": 52}; got "house".')],
            id="options-not-object",
        ),
    ],
)
def test_hand_problems(changes, expected):
    with pytest.raises(RuleError) as error:
        score_hand(**{**GOOD, **changes})
    assert problems_of(error) == expected


def test_every_hand_problem_is_reported_at_once():
    with pytest.raises(RuleError) as error:
        score_hand(
            bid=11,
            pitcher_team="AB",
            points={"ace": "A", "jack": "X", "extra": "B"},
            scores_before={"A": None},
            options={"target": 1000, "colour": "red"},
        )
    assert [field for field, _ in problems_of(error)] == [
        "bid",
        "pitcher_team",
        "points",
        "points.jack",
        "points.off_jack",
        "points.high_joker",
        "points.low_joker",
        "points.ten",
        "points.two",
        "points.three",
        "scores_before.A",
        "scores_before.B",
        "options.target",
        "options.colour",
    ]


# -- Bidding -----------------------------------------------------------------------

BIDDINGS = [
    # Each bids once from the dealer's left, higher than before or pass; highest pitches.
    pytest.param([5, "pass", 6, "pass"], {}, 2, 6, id="highest-numbered-bid"),
    pytest.param([4, 5, 6, 7], {}, 3, 7, id="everyone-raises"),
    pytest.param(["pass", 9, "pass", "pass"], {}, 1, 9, id="nine"),
    # Bidding stops as soon as someone bids moon.
    pytest.param(["moon"], {}, 0, "moon", id="moon-first-call-ends-it"),
    pytest.param([4, "moon"], {}, 1, "moon", id="moon-second-call"),
    pytest.param([9, "pass", "pass", "moon"], {}, 3, "moon", id="dealer-moon"),
    # First three pass: the dealer must bid 4 or more (dealer_4).
    pytest.param(["pass", "pass", "pass", 4], {}, 3, 4, id="dealer-forced-4"),
    pytest.param(["pass", "pass", "pass", 7], {}, 3, 7, id="dealer-forced-may-bid-more"),
    # Option all_pass=redeal: the dealer may still bid.
    pytest.param(
        ["pass", "pass", "pass", 5], {"all_pass": "redeal"}, 3, 5, id="redeal-dealer-bids"
    ),
]


@pytest.mark.parametrize(("bids", "options", "pitcher", "bid"), BIDDINGS)
def test_check_bidding(bids, options, pitcher, bid):
    result = check_bidding(bids=bids, options=options)
    assert (result.pitcher, result.bid, result.redeal) == (pitcher, bid, False)
    assert_rules_known(result)


def test_all_pass_redeal():
    # Option all_pass=redeal: four passes mean a new deal.
    result = check_bidding(bids=["pass"] * 4, options=PitchOptions(all_pass="redeal"))
    assert (result.pitcher, result.bid, result.redeal) == (None, None, True)
    assert [step.text for step in result.explanation] == [
        "From the dealer's left: the player left of the dealer passed, the dealer's partner "
        "passed, the player right of the dealer passed, the dealer passed.",
        "All four passed; this sheet deals the cards again rather than make the dealer bid.",
    ]


def test_bidding_explanations():
    result = check_bidding(bids=["pass", "pass", "pass", 4])
    assert [step.text for step in result.explanation] == [
        "From the dealer's left: the player left of the dealer passed, the dealer's partner "
        "passed, the player right of the dealer passed, the dealer bid 4.",
        "The first three passed, so the dealer had to bid.",
        "The highest bid is 4, so the dealer is the pitcher and names trump.",
    ]
    moon = check_bidding(bids=[5, "moon"])
    assert [step.text for step in moon.explanation] == [
        "From the dealer's left: the player left of the dealer bid 5, the dealer's partner bid moon.",
        "The dealer's partner bid moon, the highest bid: their team must take all 10 points, "
        "and the bidding is over.",
        "The highest bid is moon, so the dealer's partner is the pitcher and names trump.",
    ]
    assert moon.explanation[1].rule == "pitch-moon"


def test_redeal_sheet_does_not_say_the_dealer_was_forced():
    result = check_bidding(bids=["pass", "pass", "pass", 5], options={"all_pass": "redeal"})
    assert "The first three passed, so the dealer had to bid." not in [
        step.text for step in result.explanation
    ]


@pytest.mark.parametrize(
    ("bids", "options", "expected"),
    [
        # dealer_4: the dealer may not pass after three passes.
        pytest.param(
            ["pass"] * 4,
            {},
            [
                (
                    "bids.3",
                    "The first three passed, so the dealer must bid: 4 or more, or moon. (This "
                    "sheet plays that rule; the other choice is a redeal.)",
                )
            ],
            id="dealer-may-not-pass",
        ),
        # Each bid must be higher than the one before.
        pytest.param(
            [5, 5, "pass", "pass"],
            {},
            [
                (
                    "bids.1",
                    "5 is not higher than the 5 already bid; each bid must beat the one before: "
                    'bid 6 or more, "moon", or pass.',
                )
            ],
            id="equal-bid",
        ),
        pytest.param(
            [7, "pass", 4, "pass"],
            {},
            [
                (
                    "bids.2",
                    "4 is not higher than the 7 already bid; each bid must beat the one before: "
                    'bid 8 or more, "moon", or pass.',
                )
            ],
            id="lower-bid",
        ),
        pytest.param(
            [9, "pass", 9, "pass"],
            {},
            [
                (
                    "bids.2",
                    "9 is not higher than the 9 already bid; each bid must beat the one before: "
                    'bid "moon" or pass.',
                )
            ],
            id="after-nine-only-moon",
        ),
        # Bidding stops at moon.
        pytest.param(
            ["moon", "pass"],
            {},
            [
                (
                    "bids.1",
                    "Bidding stopped when the player left of the dealer bid moon, the highest "
                    "bid; no call can follow it.",
                )
            ],
            id="call-after-moon",
        ),
        # The dealer bids last.
        pytest.param(
            [4, 5, 6, 7, 8],
            {},
            [
                (
                    "bids.4",
                    "Each of the four players calls once and the dealer calls last, so there is "
                    "no call after the fourth.",
                )
            ],
            id="fifth-call",
        ),
        pytest.param(
            [5, "pass"],
            {},
            [
                (
                    "bids",
                    "The bidding is not over: 2 of 4 calls. It ends with the dealer's call, or "
                    "earlier only when someone bids moon.",
                )
            ],
            id="unfinished",
        ),
        pytest.param([], {}, [("bids", None)], id="no-calls"),
        pytest.param(["pass"] * 5, {}, [("bids.4", None), ("bids.3", None)], id="five-passes"),
        pytest.param(
            [3, 10, "Pass", False],
            {},
            [
                ("bids.0", "3 is below the lowest bid: bids run from 4 to 9."),
                (
                    "bids.1",
                    '10 is above the highest numbered bid, 9; to bid for all 10 points, bid "moon".',
                ),
                ("bids.2", 'A bid is a number from 4 to 9, "moon" or "pass"; got "Pass".'),
                ("bids.3", 'A bid is a number from 4 to 9, "moon" or "pass"; got false.'),
            ],
            id="bad-calls-all-reported",
        ),
        pytest.param(
            ["pass"] * 4,
            {"all_pass": "never"},
            [("options.all_pass", None)],
            id="bad-options-reported",
        ),
        pytest.param(
            [6, 5, "moon", 4, None],
            {},
            [("bids.1", None), ("bids.3", None), ("bids.4", None)],
            id="several-at-once",
        ),
    ],
)
def test_bidding_problems(bids, options, expected):
    with pytest.raises(RuleError) as error:
        check_bidding(bids=bids, options=options)
    found = problems_of(error)
    assert [field for field, _ in found] == [field for field, _ in expected]
    for (_, message), (_, wanted) in zip(found, expected, strict=True):
        if wanted is not None:
            assert message == wanted


# -- Properties --------------------------------------------------------------------

holders = st.sampled_from(["A", "B", "out"])
point_maps = st.fixed_dictionaries(dict.fromkeys(POINT_KEYS, holders))
scores = st.integers(min_value=-200, max_value=200)


def in_play(points: dict[str, str]) -> int:
    return sum(POINT_CARDS[k] for k, holder in points.items() if holder != "out")


@settings(max_examples=300, deadline=None)
@given(
    bid=st.integers(min_value=4, max_value=9),
    pitcher=st.sampled_from(["A", "B"]),
    points=point_maps,
    before_a=scores,
    before_b=scores,
    win_condition=st.sampled_from(["bidder_first", "bid_out"]),
)
def test_property_numbered_bids(bid, pitcher, points, before_a, before_b, win_condition):
    options = PitchOptions(made_scores="taken", win_condition=win_condition)
    result = score_hand(
        bid=bid,
        pitcher_team=pitcher,
        points=points,
        scores_before={"A": before_a, "B": before_b},
        options=options,
    )
    opponents = "B" if pitcher == "A" else "A"
    # Out-of-play points count for nobody, so the teams share the points in play.
    assert sum(result.taken.values()) == in_play(points)
    # The opponents always score what they took.
    assert result.delta[opponents] == result.taken[opponents]
    # The bid is made when the pitcher's team took at least the bid.
    assert result.made == (result.taken[pitcher] >= bid)
    if result.made:
        assert sum(result.delta.values()) == in_play(points)
    else:
        assert result.delta[pitcher] == -bid
    assert result.game_over == (result.winner is not None)
    assert_rules_known(result)


@settings(max_examples=200, deadline=None)
@given(
    bid=st.sampled_from([4, 5, 6, 7, 8, 9, "moon"]),
    pitcher=st.sampled_from(["A", "B"]),
    points=point_maps,
    made_scores=st.sampled_from(["taken", "bid"]),
    before_a=scores,
)
def test_property_taken_sums_to_points_in_play(bid, pitcher, points, made_scores, before_a):
    result = score_hand(
        bid=bid,
        pitcher_team=pitcher,
        points=points,
        scores_before={"A": before_a, "B": 0},
        options=PitchOptions(made_scores=made_scores),
    )
    assert sum(result.taken.values()) == in_play(points)
    if bid == "moon":
        # A moon needs every one of the ten points.
        assert result.made == (result.taken[pitcher] == 10)
    assert_rules_known(result)


@settings(max_examples=300, deadline=None)
@given(
    trump=st.sampled_from(["C", "S", "H", "D"]),
    data=st.data(),
)
def test_property_trick_winner_is_highest_trump(trump, data):
    order = trump_order(trump)
    played = data.draw(st.lists(st.sampled_from(order), min_size=2, max_size=4, unique=True))
    result = trick_winner(trump=trump, cards=played)
    assert played[result.winner] == min(played, key=order.index)
    assert_rules_known(result)
