"""Reading a Manipulation round for the score sheet: shape only, every problem at its field."""

from __future__ import annotations

import pytest

from games.api_input import UnreadableInput
from games.deal_input.manipulation import options_summary, read_deal, read_options
from games.rules.cards import card
from games.rules.errors import RuleError
from games.rules.manipulation import ManipulationOptions
from games.rules.manipulation_sheet import ManipulationDeal, ManipulationSheet

DEFAULTS = ManipulationOptions()


def read(data: dict) -> ManipulationDeal:
    return read_deal(data, players=3, options=DEFAULTS)


def problems_of(error: pytest.ExceptionInfo[RuleError]) -> dict[str | None, str]:
    return {p.field: p.message for p in error.value.problems}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(
            {"hands": [[], ["AS", "ks"], ["3♣"]]},
            ManipulationDeal(hands=((), (card("AS"), card("KS")), (card("3C"),))),
            id="hands",
        ),
        pytest.param(
            {"penalties": [0, 35, 60.0]},
            ManipulationDeal(penalties=(0, 35, 60)),
            id="penalties",
        ),
        pytest.param(
            {"hands": None, "penalties": [5, 10, 15]},
            ManipulationDeal(penalties=(5, 10, 15)),
            id="null-hands-count-as-absent",
        ),
    ],
)
def test_a_round_is_read_into_the_typed_round(data, expected):
    assert read(data) == expected


@pytest.mark.parametrize(
    "data",
    [
        # Two decks hold two of each card: the engine says which hand has too many.
        pytest.param({"hands": [[], ["5H", "5H", "5H"], ["3C"]]}, id="three-copies"),
        pytest.param({"hands": [[], ["5H"]]}, id="too-few-hands"),
        pytest.param({"penalties": [0, -5, 7]}, id="impossible-penalties"),
        pytest.param({"penalties": [0, 0, 5]}, id="two-went-out"),
    ],
)
def test_rules_are_left_to_the_engine(data):
    deal = read(data)
    sheet = ManipulationSheet(players=["Ana", "Ben", "Cem"], first_dealer=0)
    with pytest.raises(RuleError) as caught:
        sheet.add(deal)
    assert not isinstance(caught.value, UnreadableInput)


@pytest.mark.parametrize(
    ("data", "problems"),
    [
        pytest.param(
            {},
            {
                None: 'Enter the round either as "hands" (the cards left in each hand, one list '
                'per seat) or as "penalties" (each player\'s penalty points, one number per '
                "seat)."
            },
            id="neither",
        ),
        pytest.param(
            {"hands": [[], [], []], "penalties": [0, 5, 5]},
            {"penalties": 'Give either "hands" or "penalties", not both.'},
            id="both",
        ),
        pytest.param(
            {"hands": "AS KS"},
            {"hands": "Hands must be a list, not text."},
            id="hands-not-a-list",
        ),
        pytest.param(
            {"hands": [[], "AS", ["ZZ", "JOKER-HIGH"]], "went_out": 0},
            {
                "hands.1": "The hand of seat 2 must be a list of card codes like "
                '["JC", "10H"] (empty for the player who went out), not text.',
                "hands.2.0": '"ZZ" is not a card. Write rank then suit, for example JC for the '
                "jack of clubs or 10H for the ten of hearts.",
                "hands.2.1": "High joker is not in two 52-card decks. Manipulation is played "
                "without jokers.",
                "went_out": '"went_out" is not a field of this request.',
            },
            id="bad-hands",
        ),
        pytest.param(
            {"penalties": {"Ana": 5}},
            {"penalties": "Penalties must be a list, not an object."},
            id="penalties-not-a-list",
        ),
        pytest.param(
            {"penalties": [0, "35", 12.5, True, None], "scores_before": [0, 0, 0]},
            {
                "penalties.1": "The penalty for seat 2 must be a whole number, not text.",
                "penalties.2": "The penalty for seat 3 must be a whole number, not 12.5.",
                "penalties.3": "The penalty for seat 4 must be a whole number, not true.",
                "penalties.4": "The penalty for seat 5 must be a whole number, not null.",
                "scores_before": '"scores_before" is not a field of this request.',
            },
            id="bad-penalties",
        ),
    ],
)
def test_every_shape_problem_is_reported_at_once(data, problems):
    with pytest.raises(UnreadableInput) as caught:
        read(data)
    assert problems_of(caught) == problems


def test_the_round_read_is_the_one_the_sheet_scores():
    deal = read({"hands": [["AH", "10C"], [], ["9S", "9S"]]})
    result = ManipulationSheet(players=["Ana", "Ben", "Cem"], first_dealer=0).add(deal)
    # Penalties: ace 15, ten 10, each nine 5.
    assert result.summary == "Ben went out; Ana +25, Cem +10"


# -- options ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(None, ManipulationOptions(), id="none"),
        pytest.param({"ace": "low_or_high"}, ManipulationOptions(ace="low_or_high"), id="some"),
    ],
)
def test_options_are_read_with_their_defaults(data, expected):
    assert read_options(data) == expected


def test_bad_options_are_rule_problems_at_their_names():
    with pytest.raises(RuleError) as caught:
        read_options({"target": 250, "ace": "low", "jokers": 2})
    assert sorted(problems_of(caught)) == ["options.ace", "options.jokers", "options.target"]


@pytest.mark.parametrize(
    ("options", "lines"),
    [
        pytest.param(
            ManipulationOptions(),
            (
                "Game to 200 penalty points; the lowest total wins",
                "The ace is high only: Q-K-A is a sequence, A-2-3 is not",
                "When the stock is empty, a player who cannot meld passes; the round ends "
                "when everyone has passed in a row",
            ),
            id="defaults",
        ),
        pytest.param(
            ManipulationOptions(target=300, ace="low_or_high", stock_out="end_round"),
            (
                "Game to 300 penalty points; the lowest total wins",
                "The ace is high or low: Q-K-A and A-2-3 are sequences, K-A-2 is not",
                "When the stock is empty, the round ends as soon as the player to move cannot meld",
            ),
            id="every-other-choice",
        ),
    ],
)
def test_options_summary_shows_every_option(options, lines):
    assert options_summary(options) == lines
