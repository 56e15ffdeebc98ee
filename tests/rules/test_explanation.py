"""Explanations are worded when they are read, not when a deal is scored.

Scoring a Pitch hand or a Skat game decides numbers; wording every step as a
translatable Text cost more than deciding them, and a sheet scores every deal it replays
but shows a few. So a result's explanation (:class:`Explanation`) is made the first time
it is read, by scoring the same checked input again and saying every step. These tests
check that scoring says nothing, that what is read is what the deal decided, and that an
explanation behaves as the tuple of steps it used to be.
"""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import pitch, skat
from games.rules.cards import card
from games.rules.errors import Explanation, Step
from games.rules.manipulation import ManipulationOptions, score_round, score_round_from_penalties
from games.rules.manipulation_sheet import ManipulationDeal, ManipulationSheet
from games.rules.pitch_sheet import PitchDeal, PitchSheet
from games.rules.skat import Matadors
from games.rules.skat_sheet import SkatDeal, SkatSheet
from tests.rules.test_pitch_sheet import deals_strategy, options_strategy

ALL_A = dict.fromkeys(pitch.POINT_CARDS, "A")


def a_hand() -> pitch.HandResult:
    return pitch.score_hand(bid=5, pitcher_team="A", points={**ALL_A, "three": "B"})


def a_game() -> skat.GameResult:
    return skat.score_game(
        game="grand", bid=18, matadors=Matadors("with", 2), declarer_points=91, declarer_tricks=7
    )


def test_scoring_says_nothing_until_the_explanation_is_read():
    results = [
        a_hand(),
        a_game(),
        score_round_from_penalties(
            penalties={"Ana": 0, "Ben": 5, "Cem": 10}, options=ManipulationOptions()
        ),
    ]
    for result in results:
        assert not result.explanation.worded
        assert len(result.explanation) > 2  # read: worded now, once
        assert result.explanation.worded


def test_a_sheet_scores_deals_without_wording_them():
    skat_sheet = SkatSheet(players=["Ana", "Ben", "Cem"], first_dealer=0)
    grand = {"game": "grand", "bid": 18, "matadors": Matadors("with", 1), "outcome": "won"}
    pitch_sheet = PitchSheet(players=["Ana", "Ben", "Cem", "Dee"], first_dealer=0)
    manipulation_sheet = ManipulationSheet(players=["Ana", "Ben", "Cem"], first_dealer=0)
    deals = [
        skat_sheet.add(SkatDeal(declarer=1, game=grand)),
        pitch_sheet.add(PitchDeal(pitcher=0, bid=5, points=ALL_A)),
        manipulation_sheet.add(ManipulationDeal(penalties=(0, 5, 10))),
    ]
    for deal in deals:
        assert not deal.explanation.worded
    assert deals[0].explanation[0].text == "Deal 1, dealt by Ana; Ben is forehand."
    assert deals[0].explanation[1].text == "Ben played Grand against Cem and Ana."
    assert deals[0].explanation[-1].text == "Ben's list: +48, now 48."


def test_the_words_say_what_the_hand_decided():
    result = a_hand()
    assert [step.text for step in result.explanation] == [
        "Team A took the ace, jack, off-jack, high joker, low joker, ten and two: 7 points.",
        "Team B took the three: 3 points.",
        "Team A bid 5 and took 7, so it made its bid and scores the 7 points it took.",
        "Team B, the opponents, score the 3 points they took.",
        "Scores: team A 0 → 7, team B 0 → 3.",
        "Nobody has reached 52 yet, so play goes on.",
    ]
    assert result.delta == {"A": 7, "B": 3}


@settings(max_examples=60, deadline=None)
@given(options=options_strategy, deal=deals_strategy, before=st.integers(-20, 60))
def test_every_hand_explains_the_scores_it_decided(options, deal, before):
    # Pitch rules, "End of the game": whatever the hand, its explanation ends with the
    # scores it decided and whether the game is over.
    result = pitch.score_hand(
        bid=deal.bid,
        pitcher_team="AB"[deal.pitcher % 2],
        points=deal.points,
        scores_before={"A": before, "B": 0},
        options=options,
    )
    said = [step.text for step in result.explanation]
    scores = next(text for text in said if text.startswith("Scores: "))
    for team in ("A", "B"):
        assert f"→ {result.scores_after[team]}".replace("-", "−") in scores
    if result.winner is None:
        assert not any("wins the game" in text for text in said[said.index(scores) :])


def test_an_explanation_reads_as_the_tuple_of_its_steps():
    result = a_game()
    steps = tuple(result.explanation)
    assert all(isinstance(step, Step) for step in steps)
    assert result.explanation == steps
    assert steps == result.explanation
    assert result.explanation == a_game().explanation
    assert hash(result.explanation) == hash(steps)
    assert result.explanation[1:3] == steps[1:3]
    assert result.explanation[-1] == steps[-1]
    assert list(reversed(result.explanation)) == list(reversed(steps))
    assert steps[0] in result.explanation
    assert result == a_game()  # results compare with their explanations
    assert repr(result.explanation).startswith("Explanation((Step(")
    assert Explanation.of(steps) == result.explanation
    assert Explanation.joined(steps[0], steps[1:]) == result.explanation
    assert result.explanation != "not steps"


def test_an_explanation_pickles_as_its_steps():
    result = a_game()
    kept = pickle.loads(pickle.dumps(result))
    assert kept == result
    assert kept.explanation.worded
    assert tuple(kept.explanation) == tuple(result.explanation)


def test_a_list_of_cards_changed_after_scoring_changes_nothing_said():
    cards = [card(code) for code in ("JC", "JS", "AC", "10C")]
    skat_cards = [card("7D"), card("8D")]
    result = skat.score_game(game="null", bid=23, declarer_trick_cards=cards[:3], skat=skat_cards)
    said = tuple(result.explanation)
    fresh = skat.score_game(game="null", bid=23, declarer_trick_cards=cards[:3], skat=skat_cards)
    cards[0], skat_cards[0] = card("7H"), card("7S")
    assert tuple(fresh.explanation) == said


def test_a_round_scored_from_hands_explains_each_hand():
    result = score_round(
        hands={"Ana": [], "Ben": [card("AC"), card("7D")], "Cem": [card("KH")]},
        options=ManipulationOptions(),
    )
    assert not result.explanation.worded
    assert [step.text for step in result.explanation][:2] == [
        "Ana went out and scores 0.",
        "Ben is left with A♣ 7♦: 15 + 5 = 20 points.",
    ]


@pytest.mark.parametrize("words", [lambda: iter([Step("one")]), lambda: [Step("one")]])
def test_the_words_are_made_once(words):
    made = []

    def say() -> list[Step]:
        made.append(1)
        return list(words())

    explanation = Explanation(say)
    assert explanation == (Step("one"),)
    assert len(explanation) == 1
    assert made == [1]
