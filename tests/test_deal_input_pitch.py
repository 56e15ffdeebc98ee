"""Reading a Pitch deal for the score sheet: shape only, every problem at its field."""

from __future__ import annotations

import pytest

from games.api_input import UnreadableInput
from games.deal_input.pitch import options_summary, read_deal, read_options
from games.rules.errors import RuleError
from games.rules.pitch import PitchOptions
from games.rules.pitch_sheet import PitchDeal, PitchSheet

DEFAULTS = PitchOptions()
POINTS = {
    "ace": "A",
    "jack": "B",
    "off_jack": "A",
    "high_joker": "B",
    "low_joker": "A",
    "ten": "B",
    "two": "A",
    "three": "out",
}


def read(data: dict) -> PitchDeal:
    return read_deal(data, players=4, options=DEFAULTS)


def problems_of(error: pytest.ExceptionInfo[RuleError]) -> dict[str | None, str]:
    return {p.field: p.message for p in error.value.problems}


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(
            {"pitcher": 1, "bid": 6, "points": POINTS},
            PitchDeal(pitcher=1, bid=6, points=POINTS),
            id="numbered-bid",
        ),
        pytest.param(
            {"pitcher": 3.0, "bid": " Moon ", "points": POINTS},
            PitchDeal(pitcher=3, bid="moon", points=POINTS),
            id="moon-any-case-and-whole-float",
        ),
        pytest.param(
            {"pitcher": 0, "bid": 4, "points": {"ace": " a ", "three": "OUT", "two": "b"}},
            PitchDeal(pitcher=0, bid=4, points={"ace": "A", "three": "out", "two": "B"}),
            id="team-letters-and-out-however-typed",
        ),
    ],
)
def test_a_deal_is_read_into_the_typed_deal(data, expected):
    assert read(data) == expected


@pytest.mark.parametrize(
    "data",
    [
        # Bids run from 4 to 9: the engine says so, the reader only reads a number.
        pytest.param({"pitcher": 0, "bid": 12, "points": POINTS}, id="bid-out-of-range"),
        pytest.param({"pitcher": 9, "bid": 4, "points": POINTS}, id="no-such-seat"),
        pytest.param({"pitcher": 0, "bid": 4, "points": {"king": "A"}}, id="unknown-point-card"),
        pytest.param({"pitcher": 0, "bid": 4, "points": {"ace": "C"}}, id="unknown-team"),
    ],
)
def test_rules_are_left_to_the_engine(data):
    deal = read(data)
    assert deal.pitcher == data["pitcher"]
    sheet = PitchSheet(players=["Ana", "Ben", "Cem", "Dee"], first_dealer=0)
    with pytest.raises(RuleError) as caught:
        sheet.add(deal)
    assert not isinstance(caught.value, UnreadableInput)


def test_every_shape_problem_is_reported_at_once():
    data = {
        "pitcher": "Ben",
        "bid": "six",
        "points": {"ace": 1, "jack": None, "ten": "A"},
        "pitcher_team": "B",
        "scores_before": {"A": 0, "B": 0},
    }
    with pytest.raises(UnreadableInput) as caught:
        read(data)
    assert problems_of(caught) == {
        "pitcher": "Pitcher must be a whole number, not text.",
        "bid": 'The bid is a number from 4 to 9, or "moon"; got the text "six".',
        "points.ace": 'Say who took it: "A", "B" or "out", not a number.',
        "points.jack": 'Say who took it: "A", "B" or "out", not null.',
        "pitcher_team": '"pitcher_team" is not a field of this request. Did you mean "pitcher"?',
        "scores_before": '"scores_before" is not a field of this request.',
    }


@pytest.mark.parametrize(
    ("data", "problems"),
    [
        pytest.param(
            {},
            {
                "pitcher": "Pitcher is missing.",
                "bid": "Bid is missing.",
                "points": "Points is missing.",
            },
            id="empty",
        ),
        pytest.param(
            {"pitcher": True, "bid": [6], "points": ["ace"]},
            {
                "pitcher": "Pitcher must be a whole number, not true.",
                "bid": "Bid must be a whole number, not a list.",
                "points": "Points must be an object, not a list.",
            },
            id="wrong-types",
        ),
    ],
)
def test_missing_and_mistyped_fields_are_named(data, problems):
    with pytest.raises(UnreadableInput) as caught:
        read(data)
    assert problems_of(caught) == problems


def test_the_deal_read_is_the_one_the_sheet_scores():
    deal = read({"pitcher": 1, "bid": 4, "points": {**POINTS, "ten": "b"}})
    result = PitchSheet(players=["Ana", "Ben", "Cem", "Dee"], first_dealer=0).add(deal)
    # Team B took the jack, high joker and ten: 3 of its bid of 4, so it is set.
    assert result.summary == "Ben bid 4 for team B: set, B −4, A +4"


# -- options ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(None, PitchOptions(), id="none"),
        pytest.param({}, PitchOptions(), id="empty"),
        pytest.param(
            {"target": 21, "made_scores": "bid"},
            PitchOptions(target=21, made_scores="bid"),
            id="some",
        ),
    ],
)
def test_options_are_read_with_their_defaults(data, expected):
    assert read_options(data) == expected


def test_bad_options_are_rule_problems_at_their_names():
    with pytest.raises(RuleError) as caught:
        read_options({"target": 5, "two_goes_to": "nobody", "jokers": 2})
    assert list(problems_of(caught)) == [
        "options.target",
        "options.two_goes_to",
        "options.jokers",
    ]


@pytest.mark.parametrize(
    ("options", "lines"),
    [
        pytest.param(
            PitchOptions(),
            (
                "Game to 52",
                "A team that makes its bid scores the points it took",
                "The two scores for the team that wins it in a trick",
                "If the first three pass, the dealer must bid at least 4",
                "If both teams reach 52 on one hand, the pitcher's team wins",
            ),
            id="defaults",
        ),
        pytest.param(
            PitchOptions(
                target=21,
                made_scores="bid",
                two_goes_to="player",
                all_pass="redeal",
                win_condition="bid_out",
            ),
            (
                "Game to 21",
                "A team that makes its bid scores its bid, not what it took",
                "The two scores for the team that played it, whoever wins the trick",
                "If all four pass, the cards are dealt again",
                "A team wins only on a hand it pitched and made",
            ),
            id="every-other-choice",
        ),
    ],
)
def test_options_summary_shows_every_option(options, lines):
    assert options_summary(options) == lines
