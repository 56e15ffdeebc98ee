"""Card codes and decks, as the API contract writes them ("Conventions: Cards")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rules.cards import (
    MANIPULATION_DECK,
    PITCH_DECK,
    SKAT_DECK,
    Card,
    card,
    labels,
    parse_card,
)
from games.rules.errors import Problem, ProblemCollector, RuleError, Step


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("JC", "JC"),  # rank then suit
        ("10H", "10H"),  # the ten is written 10
        ("TH", "10H"),  # input accepts T for 10
        ("th", "10H"),  # and lower case
        ("j♣", "JC"),  # and the suit symbols
        ("A♠", "AS"),
        ("Q♥", "QH"),
        ("7♦", "7D"),
        (" 9s ", "9S"),  # surrounding spaces do not matter
        ("JOKER-HIGH", "JOKER-HIGH"),  # the two Pitch jokers
        ("joker-low", "JOKER-LOW"),
        ("Joker high", "JOKER-HIGH"),
    ],
)
def test_card_codes_are_read_as_players_type_them(text, code):
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["", "J", "1H", "11C", "JX", "HJ", "10", "JOKER", "♣J", "A♣♣"])
def test_anything_else_is_not_a_card_and_the_message_shows_how_to_write_one(text):
    with pytest.raises(RuleError) as caught:
        parse_card(text, "cards.0")
    (problem,) = caught.value.problems
    assert problem.field == "cards.0"
    assert "JC for the jack of clubs" in problem.message


@pytest.mark.parametrize(
    ("value", "word"),
    [(5, "a number"), (None, "nothing"), (True, "true"), ([], "a list"), ({}, "an object")],
)
def test_a_card_must_be_text(value, word):
    with pytest.raises(RuleError, match=word):
        parse_card(value)


def test_labels_and_names_are_what_a_player_says():
    assert card("JC").label == "J♣"
    assert card("10H").name == "ten of hearts"
    assert card("JOKER-LOW").label == "low joker"
    assert card("JOKER-HIGH").name == "high joker"
    assert card("JOKER-HIGH").is_joker
    assert card("QD").is_red
    assert not card("QS").is_red
    assert labels([card("AS"), card("7D")]) == "A♠ 7♦"
    assert str(card("9C")) == "9C"


def test_the_three_decks_hold_the_cards_the_rules_name():
    # Skat: 32 cards, 7 to ace in four suits.
    assert len(SKAT_DECK) == 32
    assert len(set(SKAT_DECK.cards)) == 32
    assert card("6H") not in SKAT_DECK
    # Pitch: 52 cards and two jokers that can be told apart.
    assert len(PITCH_DECK) == 54
    assert card("JOKER-HIGH") in PITCH_DECK
    assert card("JOKER-LOW") in PITCH_DECK
    # Manipulation: two 52-card decks, every card exactly twice.
    assert len(MANIPULATION_DECK) == 104
    assert len(set(MANIPULATION_DECK.cards)) == 52
    assert card("JOKER-HIGH") not in MANIPULATION_DECK


def test_a_deck_reports_every_problem_of_a_list_at_once():
    with pytest.raises(RuleError) as caught:
        SKAT_DECK.parse(["JC", "6H", "jc", 7, "ZZ"], "cards")
    fields = [p.field for p in caught.value.problems]
    assert fields == ["cards.1", "cards.3", "cards.4", "cards"]
    messages = " ".join(p.message for p in caught.value.problems)
    assert "6♥ is not in a Skat deck" in messages
    assert "J♣ is there 2 times, but a Skat deck has only one jack of clubs" in messages


def test_two_decks_allow_each_card_twice_but_not_three_times():
    assert MANIPULATION_DECK.parse(["7H", "7h"], "cards") == [card("7H"), card("7H")]
    with pytest.raises(RuleError, match="only 2 of each card in two 52-card decks"):
        MANIPULATION_DECK.parse(["7H", "7H", "7♥"], "cards")
    with pytest.raises(RuleError, match="without jokers"):
        MANIPULATION_DECK.parse(["JOKER-LOW"], "cards")


def test_a_hand_can_be_held_to_one_copy_even_in_a_two_deck_game():
    with pytest.raises(RuleError, match="only one"):
        MANIPULATION_DECK.parse(["7H", "7H"], "hand", copies=1)


def test_a_deck_wants_a_list():
    with pytest.raises(RuleError, match="list of codes"):
        SKAT_DECK.parse("JC", "cards")


@given(st.lists(st.sampled_from(SKAT_DECK.cards), unique=True))
def test_any_list_of_codes_reads_back_to_the_same_cards(cards):
    assert SKAT_DECK.parse([c.code for c in cards], "cards") == cards


def test_errors_carry_every_problem_and_can_be_moved_under_a_field():
    error = RuleError([Problem("bid", "too low"), Problem(None, "whole")])
    moved = error.prefixed("hands.3")
    assert [p.field for p in moved.problems] == ["hands.3.bid", "hands.3"]
    assert str(RuleError("plain", field="x")) == "plain"
    assert RuleError(Problem("a", "b")).problems == (Problem("a", "b"),)
    collector = ProblemCollector()
    assert not collector
    collector.raise_if_any()
    collector.add("bid", "too low")
    collector.absorb(RuleError("also"))
    with pytest.raises(RuleError) as caught:
        collector.raise_if_any()
    assert len(caught.value.problems) == 2
    assert str(Step("Grand is worth 24.", "skat-game-value")) == "Grand is worth 24."
    assert Card("A", "S") < Card("K", "S") or Card("K", "S") < Card("A", "S")
