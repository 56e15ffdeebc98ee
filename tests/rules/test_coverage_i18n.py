"""Message variants of the referee that came with translatable sentences.

When the sentences became translatable, several messages were split into whole-sentence
variants (with or without names, two or three of something, ...). Each test here reaches
one such variant through the public functions and checks its exact English.
"""

from __future__ import annotations

import pytest

from games.rules.cards import Card, card
from games.rules.errors import RuleError
from games.rules.manipulation import ManipulationOptions, check_turn, score_round_from_penalties
from games.rules.skat import Matadors, score_game
from games.rules.skat_list import ListedDeal, score_ramsch, seeger_fabian
from games.rules.skat_sheet import RamschEntry, SkatDeal, SkatSheet, SkatSheetOptions
from games.rules.text import join

HIGH = ManipulationOptions()


def cards(text: str) -> list[Card]:
    return [card(code) for code in text.split()]


def problems_of(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str | None, str]]:
    return [(p.field, p.message) for p in error.value.problems]


# -- Manipulation ----------------------------------------------------------------------


def test_check_turn_names_a_card_added_three_times():
    # Manipulation, a turn: the added cards come from the player's hand; a card added
    # three times but held once is counted as "3 times" (only once and twice are words).
    result = check_turn(
        table_before=[],
        table_after=[cards("5C 6C 7C"), cards("5C 6C 7C"), cards("5C 5D 5H")],
        hand=cards("5C 6C 7C 6C 7C 5D 5H"),
        options=HIGH,
    )
    assert result.legal is False
    assert result.reasons == (
        "5♣ was added 3 times but your hand held only one",
        "there would be three 5♣ on the table, but the two decks hold only two of each card",
    )
    assert "5♣ was added 3 times but your hand held only one." in [
        step.text for step in result.explanation
    ]


def test_score_round_refuses_three_players_out():
    # Manipulation, scoring: only one player can go out; three players at 0 are named
    # as "all", not "both".
    with pytest.raises(RuleError) as error:
        score_round_from_penalties(
            penalties={"Ana": 0, "Ben": 0, "Cem": 0, "Dan": 10}, options=HIGH
        )
    assert problems_of(error) == [
        (
            "penalties",
            "Only one player can go out, but Ana, Ben and Cem all have 0; a player still "
            "holding cards scores at least 5.",
        )
    ]


# -- Skat ------------------------------------------------------------------------------


def test_matadors_with_an_odd_direction_keep_it_in_their_label():
    # Skat rules, Matadors: only "with N" and "against N" exist; score_game refuses any
    # other direction ("Matadors are ..."), and the label shows such a value as it came.
    assert Matadors("with", 2).label == "with 2"
    assert Matadors("against", 3).label == "against 3"
    assert Matadors("mit", 2).label == "mit 2"


def test_score_game_refuses_all_three_ways_of_giving_the_result():
    # Skat rules, scoring a game: the result is given one way only (points and tricks,
    # the declarer's trick cards, or the outcome); all three at once names each of them.
    with pytest.raises(RuleError) as error:
        score_game(
            game="clubs",
            bid=18,
            matadors=Matadors("with", 1),
            declarer_points=70,
            declarer_tricks=6,
            declarer_trick_cards=cards("AS 10S KS"),
            skat=cards("7D 8D"),
            outcome="won",
        )
    assert problems_of(error) == [
        (
            None,
            "Give the result one way only; you gave points and tricks and the declarer's "
            "trick cards and an outcome.",
        )
    ]


# -- Skat list: Ramsch and Seeger-Fabian ------------------------------------------------


@pytest.mark.parametrize(
    ("names", "message"),
    [
        pytest.param(
            ["Ana", "Ben", "Cem"],
            "The last trick was taken by Ana, Ben or Cem (0 to 2); got 3.",
            id="named",
        ),
        pytest.param(
            None, "The last trick was taken by player 1, 2 or 3 (0 to 2); got 3.", id="unnamed"
        ),
    ],
)
def test_score_ramsch_last_trick_must_be_one_of_the_three(names, message):
    # Skat rules, Ramsch: three players play, so one of them (0 to 2) took the last trick.
    with pytest.raises(RuleError) as error:
        score_ramsch(points=[50, 40, 30], tricks=[4, 3, 3], last_trick=3, names=names)
    assert problems_of(error) == [("last_trick", message)]


def test_seeger_fabian_tie_for_fourth_place():
    # Seeger-Fabian ties: on equal totals more games won ranks higher; at a table
    # of four the lower of two tied seats can be 4th.
    # seat 1: 200 + 50 = 250; seat 2: 300 + 50 = 350;
    # seat 3: 86 + 50 = 136; seat 4: 18 + 18 + 100 = 136.
    deals = [
        ListedDeal((200, 0, 0, 0), declarer=0, won=True, sitting_out=3),
        ListedDeal((0, 300, 0, 0), declarer=1, won=True, sitting_out=0),
        ListedDeal((0, 0, 86, 0), declarer=2, won=True, sitting_out=1),
        ListedDeal((0, 0, 0, 18), declarer=3, won=True, sitting_out=2),
        ListedDeal((0, 0, 0, 18), declarer=3, won=True, sitting_out=0),
    ]
    result = seeger_fabian(players=4, deals=deals)
    assert result.standings == ((1, 1), (2, 0), (3, 3), (4, 2))
    assert result.explanation[-1].text == (
        "Seat 4 and seat 3 both total 136; the tie goes to more games won, then fewer games "
        "lost: seat 4 (2 won, 0 lost) 3rd, seat 3 (1 won, 0 lost) 4th."
    )


# -- Skat sheet ------------------------------------------------------------------------


def test_sheet_ramsch_needs_a_value_for_every_seat_of_a_table_of_three():
    # Skat rules, Ramsch on the sheet: every seat's card points and tricks are given; at
    # a table of three nobody sits out, so there is no "dealer's 0" to mention.
    sheet = SkatSheet(
        players=("Ana", "Ben", "Cem"),
        first_dealer=0,
        options=SkatSheetOptions.from_mapping({"all_pass": "ramsch"}),
    )
    before = sheet.state
    with pytest.raises(RuleError) as error:
        sheet.add(SkatDeal(passed=True, ramsch=RamschEntry((50, 40, 30, 0), (4, 3, 3, 0), 0)))
    assert problems_of(error) == [
        ("ramsch.points", "Give the card points of every seat (3); got 4."),
        ("ramsch.tricks", "Give the tricks of every seat (3); got 4."),
    ]
    assert sheet.state == before


# -- Sentences -------------------------------------------------------------------------


def test_join_shows_every_kind_of_part_in_english():
    # The referee's sentences (games/rules/text.py): in English a joined list is the parts
    # as plain strings, whatever kind each part is (a flag, a whole number, anything else).
    joined = join(" ", [True, 1234, 2.5, "Ana"])
    assert joined == "True 1234 2.5 Ana"
    assert str(joined) == "True 1234 2.5 Ana"
