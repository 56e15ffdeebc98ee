"""The Manipulation referee: melds, turns, laying out a hand, and scoring a round."""

from __future__ import annotations

from collections import Counter

import pytest

from games.rules.cards import MANIPULATION_DECK, Card, card
from games.rules.errors import RuleError
from games.rules.manipulation import (
    RULE_SECTIONS,
    WORST_PENALTY,
    ManipulationOptions,
    arrange,
    check_meld,
    check_melds,
    check_turn,
    penalty,
    penalty_of,
    score_round,
    score_round_from_penalties,
)

HIGH = ManipulationOptions()
LOW = ManipulationOptions(ace="low_or_high")


def cards(text: str) -> list[Card]:
    """ "7H 8H 9H" -> three cards."""
    return [card(code) for code in text.split()]


def table(text: str) -> list[list[Card]]:
    """ "7H 8H 9H | QS QH QD" -> two melds; "" -> an empty table."""
    return [cards(meld) for meld in text.split("|")] if text.strip() else []


def codes(found) -> list[str]:
    return [c.code for c in found]


def problems_of(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str | None, str]]:
    return [(p.field, p.message) for p in error.value.problems]


def assert_rules_known(result) -> None:
    """Every explanation line links to a section of the rule book."""
    for step in result.explanation:
        assert step.rule in RULE_SECTIONS, step


def texts(result) -> list[str]:
    return [step.text for step in result.explanation]


# -- Rule book anchors -----------------------------------------------------------------


def test_rule_sections_are_manipulation_anchors_with_titles():
    assert set(RULE_SECTIONS) == {
        "manipulation-cards",
        "manipulation-melds",
        "manipulation-sequences",
        "manipulation-groups",
        "manipulation-ace",
        "manipulation-turn",
        "manipulation-drawing",
        "manipulation-stock-out",
        "manipulation-penalties",
        "manipulation-game-end",
    }
    assert all(title and title[0].isupper() for title in RULE_SECTIONS.values())


# -- Options -----------------------------------------------------------------------------


def test_options_default_to_the_plain_rules():
    # Options: target 200, ace high only, play on when the stock runs out.
    assert ManipulationOptions.from_mapping(None) == ManipulationOptions()
    assert ManipulationOptions.from_mapping({}).as_dict() == {
        "target": 200,
        "ace": "high",
        "stock_out": "play_on",
    }


def test_options_round_trip_through_as_dict():
    options = ManipulationOptions.from_mapping(
        {"target": 300, "ace": "low_or_high", "stock_out": "end_round"}
    )
    assert options == ManipulationOptions(target=300, ace="low_or_high", stock_out="end_round")
    assert ManipulationOptions.from_mapping(options.as_dict()) == options


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(
            {"target": 250},
            [
                (
                    "options.target",
                    "The game is played to 200 or 300 penalty points; 250 is not one of them.",
                )
            ],
            id="target-not-200-or-300",
        ),
        pytest.param(
            {"target": True},
            [
                (
                    "options.target",
                    "The game is played to 200 or 300 penalty points; true is not one of them.",
                )
            ],
            id="target-bool",
        ),
        pytest.param(
            {"target": "200"},
            [
                (
                    "options.target",
                    'The game is played to 200 or 300 penalty points; "200" is not one of them.',
                )
            ],
            id="target-text",
        ),
        pytest.param(
            {"target": {200}},
            [
                (
                    "options.target",
                    "The game is played to 200 or 300 penalty points; {200} is not one of them.",
                )
            ],
            id="target-not-json-at-all",
        ),
        pytest.param(
            {"ace": "low"},
            [
                (
                    "options.ace",
                    'The ace is either "high" (Q-K-A only) or "low_or_high" (A-2-3 too); '
                    '"low" is neither.',
                )
            ],
            id="ace-unknown",
        ),
        pytest.param(
            {"stock_out": "reshuffle", "jokers": 2},
            [
                (
                    "options.jokers",
                    'Manipulation has no option "jokers"; the options are target, ace and stock_out.',
                ),
                (
                    "options.stock_out",
                    'When the stock runs out the table either plays on ("play_on") or ends the '
                    'round ("end_round"); "reshuffle" is neither.',
                ),
            ],
            id="unknown-option-and-bad-stock-out-together",
        ),
    ],
)
def test_options_report_every_bad_value(data, expected):
    with pytest.raises(RuleError) as error:
        ManipulationOptions.from_mapping(data)
    assert problems_of(error) == expected


def test_options_must_be_an_object():
    with pytest.raises(RuleError) as error:
        ManipulationOptions.from_mapping(["target"], field="sheet.options")  # type: ignore[arg-type]
    assert problems_of(error) == [
        ("sheet.options", 'Give the options as an object, like {"target": 300}.')
    ]


# -- Penalties ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "points"),
    [
        # Penalties: an ace costs 15.
        pytest.param("AS", 15, id="ace"),
        # Penalties: ten, jack, queen and king cost 10 each.
        pytest.param("KH", 10, id="king"),
        pytest.param("QD", 10, id="queen"),
        pytest.param("JC", 10, id="jack"),
        pytest.param("10S", 10, id="ten"),
        # Penalties: two to nine cost 5 each.
        pytest.param("9H", 5, id="nine"),
        pytest.param("2C", 5, id="two"),
    ],
)
def test_penalty_of_one_card(code, points):
    assert penalty(card(code)) == points


def test_penalty_of_a_hand_and_of_both_decks():
    # Penalties add up over the cards left in hand.
    assert penalty_of(cards("AS 10H 4C")) == 30
    assert penalty_of([]) == 0
    # Two decks: 8 aces, 32 tens and court cards, 64 cards from 2 to 9.
    assert WORST_PENALTY == 8 * 15 + 32 * 10 + 64 * 5 == 760


def test_a_joker_has_no_penalty_in_manipulation():
    with pytest.raises(RuleError) as error:
        penalty(Card("JOKER-HIGH"))
    assert problems_of(error) == [
        (None, "high joker is not a Manipulation card: the game uses no jokers.")
    ]


# -- One meld -----------------------------------------------------------------------------

SEQ, GRP = "sequence", "group"

MELD_CASES = [
    # Sequences: three or more cards of one suit in consecutive rank.
    pytest.param("7H 8H 9H", HIGH, SEQ, None, id="sequence-of-three"),
    pytest.param("9H 7H 8H", HIGH, SEQ, None, id="sequence-given-out-of-order"),
    # The ace is high: Q-K-A is a sequence under both ace options.
    pytest.param("QH KH AH", HIGH, SEQ, None, id="q-k-a-ace-high"),
    pytest.param("AH QH KH", LOW, SEQ, None, id="q-k-a-ace-low-or-high"),
    # Ace high only: A-2-3 is not a sequence.
    pytest.param(
        "3H AH 2H",
        HIGH,
        None,
        "A♥ 2♥ 3♥: the ace counts high only here, so A♥ cannot go below 2♥ "
        "(A-2-3 needs the option ace low or high)",
        id="a-2-3-ace-high",
    ),
    # Option ace low or high: A-2-3 is a sequence.
    pytest.param("3H AH 2H", LOW, SEQ, None, id="a-2-3-ace-low-or-high"),
    pytest.param("AD 2D 3D 4D 5D", LOW, SEQ, None, id="a-to-5-ace-low-or-high"),
    # No wrapping round the ace, whatever the ace option.
    pytest.param(
        "KH AH 2H",
        HIGH,
        None,
        "K♥ A♥ 2♥ wraps round the ace, which these rules do not allow",
        id="k-a-2-ace-high",
    ),
    pytest.param(
        "2H KH AH",
        LOW,
        None,
        "K♥ A♥ 2♥ wraps round the ace, which these rules do not allow",
        id="k-a-2-ace-low-or-high",
    ),
    pytest.param(
        "3C 2C AC KC QC",
        LOW,
        None,
        "Q♣ K♣ A♣ 2♣ 3♣ wraps round the ace, which these rules do not allow",
        id="q-k-a-2-3-wraps",
    ),
    # Sequences: at most 13 cards, 2 up to the ace.
    pytest.param("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", HIGH, SEQ, None, id="thirteen-cards"),
    # With the ace low, A up to K is the same thirteen cards.
    pytest.param("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", LOW, SEQ, None, id="thirteen-ace-low"),
    pytest.param(
        "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS AS",
        LOW,
        None,
        "a sequence holds at most 13 cards, one of each rank; this one has 14",
        id="fourteen-cards",
    ),
    pytest.param(
        "7H 8H 8H 9H 9H",
        HIGH,
        None,
        "8♥ and 9♥ are there twice, but a sequence holds each rank only once",
        id="sequence-with-a-card-twice",
    ),
    # Sequences: consecutive ranks, nothing missing.
    pytest.param(
        "7H 8H 10H",
        HIGH,
        None,
        "7♥ 8♥ 10♥: the 9♥ is missing between 8♥ and 10♥",
        id="one-card-missing",
    ),
    pytest.param(
        "JH 7H 10H",
        HIGH,
        None,
        "7♥ 10♥ J♥: the 8♥ and 9♥ are missing between 7♥ and 10♥",
        id="two-cards-missing",
    ),
    pytest.param(
        "3H 4H 8H 10H",
        HIGH,
        None,
        "3♥ 4♥ 8♥ 10♥: everything from 5♥ to 7♥ is missing between 4♥ and 8♥; "
        "the 9♥ is missing between 8♥ and 10♥",
        id="two-gaps",
    ),
    pytest.param(
        "AD 2D 4D",
        LOW,
        None,
        "A♦ 2♦ 4♦: the 3♦ is missing between 2♦ and 4♦",
        id="gap-with-ace-low",
    ),
    pytest.param(
        "AD 2D 4D",
        HIGH,
        None,
        "2♦ 4♦ A♦: the 3♦ is missing between 2♦ and 4♦; "
        "everything from 5♦ to K♦ is missing between 4♦ and A♦",
        id="gap-with-ace-high",
    ),
    pytest.param(
        "7H 8H",
        HIGH,
        None,
        "a sequence needs at least 3 cards; this one has only 2",
        id="short-run",
    ),
    # Groups: three or four cards of one rank, all different suits.
    pytest.param("QS QH QD", HIGH, GRP, None, id="group-of-three"),
    pytest.param("QD QC QH QS", HIGH, GRP, None, id="group-of-four"),
    pytest.param("AS AH AD", LOW, GRP, None, id="group-of-aces"),
    pytest.param(
        "QS QH QS",
        HIGH,
        None,
        "a group needs different suits: Q♠ is there twice",
        id="group-with-a-card-twice",
    ),
    pytest.param(
        "QC QS QH QD QC",
        HIGH,
        None,
        "a group holds at most 4 cards, one of each suit; this one has 5",
        id="group-of-five",
    ),
    pytest.param(
        "QS QH", HIGH, None, "a group needs at least 3 cards; this one has only 2", id="short-group"
    ),
    # Melds: a sequence or a group, nothing else.
    pytest.param(
        "7H 7S 8H",
        HIGH,
        None,
        "7♠ 7♥ 8♥ is neither a sequence (one suit, ranks in a row) nor a group "
        "(one rank, different suits)",
        id="mixed",
    ),
    pytest.param(
        "7H 8S",
        HIGH,
        None,
        "a meld needs at least 3 cards; this one has only 2",
        id="two-unrelated",
    ),
    pytest.param(
        "7H", HIGH, None, "a meld needs at least 3 cards; this one has only 1", id="single-card"
    ),
    pytest.param("", HIGH, None, "a meld needs at least 3 cards; this one is empty", id="empty"),
]


@pytest.mark.parametrize(("meld", "options", "kind", "reason"), MELD_CASES)
def test_check_meld(meld, options, kind, reason):
    result = check_meld(cards(meld), options=options)
    assert result.valid is (kind is not None)
    assert result.kind == kind
    assert result.reason == reason


@pytest.mark.parametrize(("meld", "options", "kind", "reason"), MELD_CASES)
def test_check_meld_ignores_card_order(meld, options, kind, reason):
    # Melds: a meld is its cards, however they lie on the table.
    given = cards(meld)
    assert check_meld(list(reversed(given)), options=options) == check_meld(given, options=options)


@pytest.mark.parametrize(("meld", "options", "kind", "reason"), MELD_CASES)
def test_every_meld_explanation_links_to_the_rule_book(meld, options, kind, reason):
    result = check_melds(melds=[cards(meld)], options=options)
    assert result.melds[0] == check_meld(cards(meld), options=options)
    assert_rules_known(result)


def test_check_meld_refuses_a_joker():
    with pytest.raises(RuleError) as error:
        check_meld([*cards("7H 8H"), Card("JOKER-LOW")], options=HIGH)
    assert problems_of(error) == [
        (None, "low joker is not a Manipulation card: the game uses no jokers.")
    ]


# -- A table of melds -------------------------------------------------------------------------


def test_check_melds_all_valid():
    result = check_melds(melds=table("9H 7H 8H | QS QH QD | 2C AC 3C"), options=LOW)
    assert result.valid is True
    assert [m.kind for m in result.melds] == ["sequence", "group", "sequence"]
    assert texts(result) == [
        "Meld 1 (7♥ 8♥ 9♥) is a sequence.",
        "Meld 2 (Q♠ Q♥ Q♦) is a group.",
        "Meld 3 (A♣ 2♣ 3♣) is a sequence with the ace low.",
        "Every meld is valid.",
    ]
    assert [s.rule for s in result.explanation] == [
        "manipulation-sequences",
        "manipulation-groups",
        "manipulation-ace",
        "manipulation-melds",
    ]


def test_check_melds_names_each_bad_meld():
    # Groups: at least three cards; Sequences: no gaps.
    result = check_melds(melds=table("7H 8H 9H | QS QH | 7C 8C 10C"), options=HIGH)
    assert result.valid is False
    assert [m.valid for m in result.melds] == [True, False, False]
    assert result.melds[1].reason == "a group needs at least 3 cards; this one has only 2"
    assert texts(result) == [
        "Meld 1 (7♥ 8♥ 9♥) is a sequence.",
        "Meld 2 (Q♠ Q♥) is not valid: a group needs at least 3 cards; this one has only 2.",
        "Meld 3 (7♣ 8♣ 10♣) is not valid: the 9♣ is missing between 8♣ and 10♣.",
        "2 of 3 melds are not valid.",
    ]
    assert_rules_known(result)


@pytest.mark.parametrize(
    ("melds", "last_line"),
    [
        pytest.param("", "There are no melds to check.", id="no-melds"),
        pytest.param("7H 8H 9H", "The meld is valid.", id="one-valid-meld"),
        pytest.param("7H 8H", "The meld is not valid.", id="one-bad-meld"),
        pytest.param("7H 8H 9H | 7H 8H", "1 of 2 melds is not valid.", id="one-of-two-bad"),
    ],
)
def test_check_melds_summary_line(melds, last_line):
    result = check_melds(melds=table(melds), options=HIGH)
    assert texts(result)[-1] == last_line
    assert result.valid is ("not valid" not in last_line)


def test_check_melds_third_copy_is_an_input_error():
    # Cards: two decks hold exactly two of each card.
    with pytest.raises(RuleError) as error:
        check_melds(melds=table("7H 8H 9H | 7H 7S 7D | 5H 6H 7H"), options=HIGH)
    assert problems_of(error) == [
        ("melds", "7♥ is there 3 times, but there are only 2 of each card in two 52-card decks.")
    ]


def test_check_melds_points_at_a_joker():
    with pytest.raises(RuleError) as error:
        check_melds(melds=[cards("7H 8H 9H"), [*cards("QS QH"), Card("JOKER-HIGH")]], options=HIGH)
    assert problems_of(error) == [
        ("melds.1.2", "high joker is not a Manipulation card: the game uses no jokers.")
    ]


# -- A turn ------------------------------------------------------------------------------------

TURN_CASES = [
    # A turn: add at least one card from the hand, to a meld already there.
    pytest.param("7H 8H 9H", "7H 8H 9H 10H", "10H 2C", True, "10H", (), id="add-to-a-sequence"),
    # A turn: a new meld; without a hand the referee does not check where cards came from.
    pytest.param("", "QS QH QD", None, True, "QS QH QD", (), id="new-meld-hand-not-given"),
    # A turn: rearranging is allowed; here a long sequence is split by the second 7♥.
    pytest.param(
        "4H 5H 6H 7H 8H 9H",
        "4H 5H 6H 7H | 7H 8H 9H",
        "7H KC",
        True,
        "7H",
        (),
        id="split-a-sequence",
    ),
    # A turn: cards may move between melds; the 8♣ leaves its sequence for a new group.
    pytest.param(
        "5C 6C 7C 8C | 9H 9D 9S",
        "5C 6C 7C | 8D 8H 8C | 9H 9D 9S",
        "8H 8D",
        True,
        "8H 8D",
        (),
        id="take-a-card-into-a-new-group",
    ),
    # A turn: every card on the table stays there; none goes back into a hand.
    pytest.param(
        "4H 5H 6H 7H",
        "4H 5H 6H | QS QH QD",
        "QS QH QD",
        False,
        "QS QH QD",
        ("the 7♥ from the table is missing",),
        id="card-taken-back-into-hand",
    ),
    pytest.param(
        "7H 8H 9H | 7H 8H 9H | 2D 3D 4D",
        "2D 3D 4D 5D",
        "5D",
        False,
        "5D",
        (
            "both 7♥ from the table are missing",
            "both 8♥ from the table are missing",
            "both 9♥ from the table are missing",
        ),
        id="whole-melds-missing",
    ),
    # A turn: at its end every meld on the table is valid.
    pytest.param(
        "7H 8H 9H",
        "7H 8H 9H | QS QH",
        "QS QH",
        False,
        "QS QH",
        ("meld 2 (Q♠ Q♥) is not valid: a group needs at least 3 cards; this one has only 2",),
        id="invalid-meld-after",
    ),
    pytest.param(
        "7H 8H 9H",
        "7H 8H 9H | KH AH 2H",
        "KH AH 2H",
        False,
        "2H KH AH",
        (
            "meld 2 (2♥ K♥ A♥) is not valid: the sequence wraps round the ace (K-A-2), "
            "which these rules do not allow",
        ),
        id="wrap-round-meld-after",
    ),
    # A turn: at least one card must come from the hand; otherwise the player draws.
    pytest.param(
        "7H 8H 9H | 10H JH QH",
        "7H 8H 9H 10H JH QH",
        "2C",
        False,
        "",
        ("no card came from your hand",),
        id="nothing-added",
    ),
    pytest.param("", "", None, False, "", ("no card came from your hand",), id="empty-table"),
    # A turn: the added cards come from the player's hand.
    pytest.param(
        "7H 8H 9H",
        "7H 8H 9H 10H | 9C 10C JC",
        "10H 9C 10C",
        False,
        "9C 10C JC 10H",
        ("J♣ was not in your hand",),
        id="card-not-in-hand",
    ),
    pytest.param(
        "",
        "5C 6C 7C | 5C 6C 7C",
        "5C 6C 7C 7C",
        False,
        "5C 5C 6C 6C 7C 7C",
        (
            "5♣ was added twice but your hand held only one",
            "6♣ was added twice but your hand held only one",
        ),
        id="card-added-twice-held-once",
    ),
    pytest.param(
        "",
        "5C 6C 7C | 5C 6C 7C",
        "7C 7C",
        False,
        "5C 5C 6C 6C 7C 7C",
        (
            "5♣ was added twice but was not in your hand",
            "6♣ was added twice but was not in your hand",
        ),
        id="card-added-twice-never-held",
    ),
    # Cards: two decks hold two of each card, never three.
    pytest.param(
        "9C 10C JC | 9C 9H 9D",
        "9C 10C JC | 9C 9H 9D | 9C 9S 9H",
        "9C 9S 9H",
        False,
        "9C 9S 9H",
        ("there would be three 9♣ on the table, but the two decks hold only two of each card",),
        id="third-copy-on-the-table",
    ),
    pytest.param(
        "9C 10C JC | 9C 9H 9D",
        "9C 10C JC | 9C 9H 9D | 2S 3S 4S",
        "9C 2S 3S 4S",
        False,
        "2S 3S 4S",
        (
            "there would be three 9♣ on the table and in your hand, but the two decks hold "
            "only two of each card",
        ),
        id="third-copy-left-in-hand",
    ),
    # Every broken rule is reported, not just the first.
    pytest.param(
        "7H 8H 9H",
        "QS QH",
        "2C",
        False,
        "QS QH",
        (
            "meld 1 (Q♠ Q♥) is not valid: a group needs at least 3 cards; this one has only 2",
            "the 7♥ from the table is missing",
            "the 8♥ from the table is missing",
            "the 9♥ from the table is missing",
            "Q♠ was not in your hand",
            "Q♥ was not in your hand",
        ),
        id="everything-wrong-at-once",
    ),
    pytest.param(
        "7H 8H 9H",
        "7H 8H 9H | ",
        "2C",
        False,
        "",
        (
            "meld 2 (no cards) is not valid: a meld needs at least 3 cards; this one is empty",
            "no card came from your hand",
        ),
        id="empty-meld-after",
    ),
]


@pytest.mark.parametrize(("before", "after", "hand", "legal", "played", "reasons"), TURN_CASES)
def test_check_turn(before, after, hand, legal, played, reasons):
    result = check_turn(
        table_before=table(before),
        table_after=[cards(m) for m in after.split("|")] if after.strip() else [],
        hand=None if hand is None else cards(hand),
        options=LOW if "AH" in after else HIGH,
    )
    assert result.legal is legal
    assert codes(result.played) == played.split()
    assert result.reasons == reasons
    assert_rules_known(result)
    # The explanation ends with the verdict.
    assert result.explanation[-1].text.startswith(
        "The turn is legal." if legal else "The turn is not legal"
    )


def test_check_turn_explains_a_legal_turn():
    result = check_turn(
        table_before=table("4H 5H 6H 7H 8H 9H"),
        table_after=table("4H 5H 6H 7H | 7H 8H 9H"),
        hand=cards("7H KC"),
        options=HIGH,
    )
    assert texts(result) == [
        "Before the turn the table held 6 cards in 1 meld; after it, 7 cards in 2 melds.",
        "Every meld on the table afterwards is valid: 4♥ 5♥ 6♥ 7♥ (sequence), 7♥ 8♥ 9♥ (sequence).",
        "Every card that was on the table is still there.",
        "Cards added to the table: 7♥.",
        "All of them came from your hand.",
        "The turn is legal.",
    ]


def test_check_turn_explains_an_illegal_turn():
    result = check_turn(
        table_before=table("7H 8H 9H"),
        table_after=table("7H 8H 9H"),
        hand=cards("2C"),
        options=HIGH,
    )
    assert texts(result) == [
        "Before the turn the table held 3 cards in 1 meld; after it, 3 cards in 1 meld.",
        "Every meld on the table afterwards is valid: 7♥ 8♥ 9♥ (sequence).",
        "Every card that was on the table is still there.",
        "No card came from your hand: each turn must add at least one. A player who cannot "
        "do that draws from the stock instead.",
        "The turn is not legal: one rule broken.",
    ]
    assert result.explanation[3].rule == "manipulation-drawing"


def test_check_turn_counts_more_than_two_missing_copies():
    # Cards: a table that somehow held three copies still loses them all.
    result = check_turn(
        table_before=table("7H 8H 9H | 7H 8H 9H | 7H 7S 7D"),
        table_after=table("QS QH QD"),
        hand=None,
        options=HIGH,
    )
    assert "three 7♥ from the table are missing" in result.reasons
    assert result.explanation[-1].text == "The turn is not legal: five rules broken."


def test_check_turn_points_at_jokers():
    with pytest.raises(RuleError) as error:
        check_turn(
            table_before=[[Card("JOKER-LOW")]],
            table_after=table("7H 8H 9H"),
            hand=[Card("JOKER-HIGH")],
            options=HIGH,
        )
    assert problems_of(error) == [
        ("table_before.0.0", "low joker is not a Manipulation card: the game uses no jokers."),
        ("hand.0", "high joker is not a Manipulation card: the game uses no jokers."),
    ]


# -- Laying out a set of cards -------------------------------------------------------------

ARRANGE_CASES = [
    # Melds: nothing to lay out is trivially possible.
    pytest.param("", HIGH, [], id="no-cards"),
    pytest.param("9H 7H 8H", HIGH, ["7H 8H 9H"], id="one-sequence"),
    # Sequences and groups share a card: the 8♥ must go to the group, not the sequence.
    pytest.param("5H 6H 7H 8H 8S 8C", HIGH, ["5H 6H 7H", "8C 8S 8H"], id="card-goes-to-group"),
    # The second 9♥ lets the sequence run through while the first sits in the group.
    pytest.param(
        "7H 8H 9H 9H 9S 9C 10H JH",
        HIGH,
        ["7H 8H 9H 10H JH", "9C 9S 9H"],
        id="two-copies-sequence-through-group",
    ),
    pytest.param("7H 8H 9H 9S 9C 10H JH", HIGH, None, id="one-copy-cannot-serve-both"),
    # Two decks: the same sequence can lie twice.
    pytest.param("4H 4H 5H 5H 6H 6H", HIGH, ["4H 5H 6H", "4H 5H 6H"], id="double-sequence"),
    # Two copies of one card in sequences that overlap by one rank.
    pytest.param("3H 4H 5H 5H 6H 7H", HIGH, ["3H 4H 5H", "5H 6H 7H"], id="overlapping-sequences"),
    pytest.param(
        "2C 3C 4C 4C 4S 4H 5C 6C",
        HIGH,
        ["2C 3C 4C 5C 6C", "4C 4S 4H"],
        id="second-copy-in-a-group",
    ),
    # Groups: each copy of a card needs its own group.
    pytest.param("8C 8C 8S 8S 8H 8H 8D 8D", HIGH, ["8C 8S 8H 8D", "8C 8S 8H 8D"], id="all-eights"),
    pytest.param("8C 8C 8S 8S 8H 8H", HIGH, ["8C 8S 8H", "8C 8S 8H"], id="two-groups-of-three"),
    pytest.param("8C 8C 8S 8H 8D 8D 8S", HIGH, ["8C 8S 8H 8D", "8C 8S 8D"], id="groups-4-and-3"),
    pytest.param("8C 8C 8S 8H 8D", HIGH, None, id="five-eights"),
    # The ace low or high: A-2-3 and Q-K-A at once.
    pytest.param("AH 2H 3H QH KH AH", LOW, ["AH 2H 3H", "QH KH AH"], id="aces-at-both-ends"),
    pytest.param("AH 2H 3H QH KH AH", HIGH, None, id="aces-at-both-ends-high-only"),
    # Both aces of a suit and every rank between: A-2-3 and 4 up to A.
    pytest.param(
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        LOW,
        ["AH 2H 3H", "4H 5H 6H 7H 8H 9H 10H JH QH KH AH"],
        id="fourteen-hearts-ace-low-or-high",
    ),
    pytest.param(
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
        HIGH,
        None,
        id="fourteen-hearts-ace-high",
    ),
    # No wrapping round the ace.
    pytest.param("KH AH 2H", LOW, None, id="k-a-2"),
    # An ace can be low in a sequence while its twin joins a group of aces.
    pytest.param(
        "JS QS KS AS AS AH AD 2S 3S",
        LOW,
        ["AS 2S 3S", "JS QS KS", "AS AH AD"],
        id="ace-low-and-ace-in-group",
    ),
    pytest.param(
        "JS QS KS AS AS AH AD",
        HIGH,
        ["JS QS KS AS", "AS AH AD"],
        id="ace-high-and-ace-in-group",
    ),
    pytest.param("AH AS AD 2H 3H", LOW, None, id="ace-needed-twice"),
]


@pytest.mark.parametrize(("given", "options", "layout"), ARRANGE_CASES)
def test_arrange(given, options, layout):
    result = arrange(cards=cards(given), options=options)
    assert result.possible is (layout is not None)
    if layout is None:
        assert result.melds is None
    else:
        assert [codes(m) for m in result.melds] == [m.split() for m in layout]
        assert all(check_meld(m, options=options).valid for m in result.melds)
        assert Counter(c for m in result.melds for c in m) == Counter(cards(given))
    assert_rules_known(result)


@pytest.mark.parametrize("options", [HIGH, LOW], ids=["ace-high", "ace-low-or-high"])
def test_arrange_both_full_decks(options):
    # Cards: all 104 cards always lay out (each suit as two sequences 2 to A).
    result = arrange(cards=list(MANIPULATION_DECK.cards), options=options)
    assert result.possible is True
    assert Counter(c for m in result.melds for c in m) == Counter(MANIPULATION_DECK.cards)
    assert all(check_meld(m, options=options).valid for m in result.melds)
    assert len(result.melds) == 8


def test_arrange_explains_a_layout():
    result = arrange(cards=cards("JS QS KS AS AS AH AD 2S 3S"), options=LOW)
    assert texts(result) == [
        "All 9 cards can be laid out as 2 sequences and 1 group:",
        "Sequence A♠ 2♠ 3♠, with the ace low.",
        "Sequence J♠ Q♠ K♠.",
        "Group A♠ A♥ A♦.",
    ]
    assert [s.rule for s in result.explanation] == [
        "manipulation-melds",
        "manipulation-ace",
        "manipulation-sequences",
        "manipulation-groups",
    ]


def test_arrange_names_cards_that_fit_no_meld():
    # Melds: a card with no sequence neighbours and no group partners can never be laid out.
    result = arrange(cards=cards("AH 2H 3H QH KH AH"), options=HIGH)
    assert texts(result) == [
        "6 cards cannot all be laid out: 2♥ 3♥ have no meld to go in. There are not enough "
        "neighbouring cards of the same suit for a sequence, nor three suits of the same rank "
        "for a group."
    ]
    lone = arrange(cards=cards("7H 8H 9H 2C"), options=HIGH)
    assert texts(lone)[0].startswith("4 cards cannot all be laid out: 2♣ has no meld to go in.")


def test_arrange_explains_when_cards_fit_only_one_at_a_time():
    result = arrange(cards=cards("8C 8C 8S 8H 8D"), options=HIGH)
    assert texts(result) == [
        "Each of the 5 cards could join some meld on its own, but not all at the same time: "
        "every way of laying them out leaves cards over."
    ]


def test_arrange_no_cards_explained():
    assert texts(arrange(cards=[], options=HIGH)) == ["No cards, so nothing to lay out."]


def test_arrange_refuses_a_third_copy_and_jokers():
    # Cards: two decks hold two of each card.
    with pytest.raises(RuleError) as error:
        arrange(cards=[*cards("7H 7H 7H 8C"), Card("JOKER-LOW")], options=HIGH)
    assert problems_of(error) == [
        ("cards.4", "low joker is not a Manipulation card: the game uses no jokers."),
        ("cards", "7♥ is there 3 times, but there are only 2 of each card in two 52-card decks."),
    ]


# -- Scoring a round ----------------------------------------------------------------------------


def test_score_round_from_hands():
    # Penalties: A♠ 15 + 10♥ 10; Ben went out and scores 0; 4♣ costs 5.
    result = score_round(
        hands={"Ana": cards("AS 10H"), "Ben": [], "Cem": cards("4C")}, options=HIGH
    )
    assert result.penalties == {"Ana": 25, "Ben": 0, "Cem": 5}
    assert result.scores_after == {"Ana": 25, "Ben": 0, "Cem": 5}
    assert result.went_out == "Ben"
    assert result.game_over is False
    assert result.winners == ()
    assert texts(result) == [
        "Ana is left with A♠ 10♥: 15 + 10 = 25 points.",
        "Ben went out and scores 0.",
        "Cem is left with 4♣: 5 points.",
        "Totals after this first round: Ana 25, Ben 0, Cem 5.",
        "Nobody has reached 200, so the game goes on.",
    ]
    assert_rules_known(result)


ROUND_CASES = [
    # Game end: someone reaches the target (200), the lowest total wins.
    pytest.param(
        {"Ana": "AS AH KS", "Ben": "", "Cem": "4C 5C"},
        {"Ana": 170, "Ben": 120, "Cem": 100},
        HIGH,
        {"Ana": 210, "Ben": 120, "Cem": 110},
        True,
        ("Cem",),
        id="target-200-reached",
    ),
    # Target 300: the same totals leave the game running.
    pytest.param(
        {"Ana": "AS AH KS", "Ben": "", "Cem": "4C 5C"},
        {"Ana": 170, "Ben": 120, "Cem": 100},
        ManipulationOptions(target=300),
        {"Ana": 210, "Ben": 120, "Cem": 110},
        False,
        (),
        id="target-300-not-reached",
    ),
    # Game end: exactly the target counts as reaching it.
    pytest.param(
        {"Ana": "10S", "Ben": "", "Cem": "2D", "Dan": "3D"},
        {"Ana": 190, "Ben": 40, "Cem": 35, "Dan": 95},
        HIGH,
        {"Ana": 200, "Ben": 40, "Cem": 40, "Dan": 100},
        True,
        ("Ben", "Cem"),
        id="exactly-200-and-a-shared-win",
    ),
    pytest.param(
        {"Ana": "10S", "Ben": "", "Cem": "2D", "Dan": "3D", "Eva": "JC QC"},
        {"Ana": 295, "Ben": 55, "Cem": 50, "Dan": 45, "Eva": 30},
        ManipulationOptions(target=300),
        {"Ana": 305, "Ben": 55, "Cem": 55, "Dan": 50, "Eva": 50},
        True,
        ("Dan", "Eva"),
        id="five-players-target-300-shared-win",
    ),
]


@pytest.mark.parametrize(("hands", "before", "options", "after", "over", "winners"), ROUND_CASES)
def test_score_round_totals_and_game_end(hands, before, options, after, over, winners):
    result = score_round(
        hands={name: cards(hand) for name, hand in hands.items()},
        scores_before=before,
        options=options,
    )
    assert result.scores_after == after
    assert result.game_over is over
    assert result.winners == winners
    assert_rules_known(result)
    # The same round typed in as penalties scores the same.
    typed = score_round_from_penalties(
        penalties=result.penalties, scores_before=before, options=options
    )
    assert (typed.scores_after, typed.game_over, typed.winners, typed.went_out) == (
        after,
        over,
        winners,
        "Ben",
    )


def test_score_round_explains_the_end_of_the_game():
    result = score_round(
        hands={"Ana": cards("10S"), "Ben": [], "Cem": cards("2D"), "Dan": cards("3D")},
        scores_before={"Ana": 190, "Ben": 40, "Cem": 35, "Dan": 95},
        options=HIGH,
    )
    assert texts(result)[-3:] == [
        "Totals: Ana 190 + 10 = 200, Ben 40 + 0 = 40, Cem 35 + 5 = 40, Dan 95 + 5 = 100.",
        "Ana reached the target of 200, so the game ends with this round.",
        "Ben and Cem share the lowest total, 40, and share the win.",
    ]


def test_score_round_single_winner_explained():
    result = score_round_from_penalties(
        penalties={"Ana": 45, "Ben": 0, "Cem": 60},
        scores_before={"Ana": 170, "Ben": 150, "Cem": 160},
        options=HIGH,
    )
    assert texts(result) == [
        "Ana takes 45 penalty points for the cards left in hand.",
        "Ben went out and scores 0.",
        "Cem takes 60 penalty points for the cards left in hand.",
        "Totals: Ana 170 + 45 = 215, Ben 150 + 0 = 150, Cem 160 + 60 = 220.",
        "Ana and Cem reached the target of 200, so the game ends with this round.",
        "Ben has the lowest total, 150, and wins.",
    ]
    assert result.winners == ("Ben",)


@pytest.mark.parametrize(
    ("options", "line"),
    [
        # Stock out, play on: every player passing in turn ends the round.
        pytest.param(
            HIGH,
            "Nobody went out: the stock ran out and every player passed in turn, which ends "
            "the round.",
            id="play-on",
        ),
        # Stock out, end round: the first player who cannot meld ends it.
        pytest.param(
            ManipulationOptions(stock_out="end_round"),
            "Nobody went out: the stock ran out and the player to move could not meld, which "
            "ends the round.",
            id="end-round",
        ),
    ],
)
def test_round_without_anyone_going_out(options, line):
    result = score_round(
        hands={"Ana": cards("2C"), "Ben": cards("3C"), "Cem": cards("KD")}, options=options
    )
    assert result.went_out is None
    assert result.penalties == {"Ana": 5, "Ben": 5, "Cem": 10}
    assert line in texts(result)
    assert result.explanation[texts(result).index(line)].rule == "manipulation-stock-out"


# Both decks, card by card (each card twice).
EVERY_CARD = [c.code for c in MANIPULATION_DECK.cards]

HAND_PROBLEMS = [
    pytest.param(
        {"Ana": "2C", "Ben": ""},
        None,
        [("hands", "Manipulation is played by 3 to 5 players; this round has 2.")],
        id="two-players",
    ),
    pytest.param(
        dict.fromkeys(("A", "B", "C", "D", "E", "F"), "2C"),
        None,
        [
            ("hands", "Manipulation is played by 3 to 5 players; this round has 6."),
            (
                "hands",
                "2♣ is in the hands six times between them, but the two decks hold only two of each card.",
            ),
        ],
        id="six-players-and-too-many-copies",
    ),
    # Going out: only one player can meld their last card.
    pytest.param(
        {"Ana": "2C", "Ben": "", "Cem": ""},
        None,
        [("hands", "Only one player can go out, but Ben and Cem both have no cards left.")],
        id="two-went-out",
    ),
    pytest.param(
        {"Ana": "", "Ben": "", "Cem": ""},
        None,
        [("hands", "Only one player can go out, but Ana, Ben and Cem all have no cards left.")],
        id="three-went-out",
    ),
    # Going out is melding one's last card, and a meld is 3 cards or more (Manipulation
    # rules, "Melds", "Deal and play"): with every card of both decks in the other hands,
    # or all but two, nobody went out (independent audit; as for penalties, below).
    pytest.param(
        {"Ana": " ".join(EVERY_CARD[:52]), "Ben": " ".join(EVERY_CARD[52:]), "Cem": ""},
        None,
        [
            (
                "hands",
                "The hands hold 104 cards, but Cem went out by melding their last card, so at "
                "least one meld of three cards is on the table: the hands hold at most 101.",
            )
        ],
        id="every-card-in-the-hands-beside-one-out",
    ),
    pytest.param(
        {"Ana": " ".join(EVERY_CARD[:52]), "Ben": " ".join(EVERY_CARD[52:102]), "Cem": ""},
        None,
        [
            (
                "hands",
                "The hands hold 102 cards, but Cem went out by melding their last card, so at "
                "least one meld of three cards is on the table: the hands hold at most 101.",
            )
        ],
        id="two-cards-on-the-table-beside-one-out",
    ),
    # Cards: two of each card, also spread over several hands.
    pytest.param(
        {"Ana": "2C 2C 2C", "Ben": "", "Cem": "4C"},
        None,
        [
            (
                "hands.Ana",
                "2♣ is there 3 times, but there are only 2 of each card in two 52-card decks.",
            )
        ],
        id="three-copies-in-one-hand",
    ),
    pytest.param(
        {"Ana": "2C 2C", "Ben": "", "Cem": "2C 9D"},
        None,
        [
            (
                "hands",
                "2♣ is in the hands three times between them, but the two decks hold only two "
                "of each card.",
            )
        ],
        id="three-copies-over-hands",
    ),
    pytest.param(
        {"Ana": "2C", "Ben": "", " ": "4C"},
        None,
        [("hands", "Every player needs a name; one of them is blank.")],
        id="blank-name",
    ),
    # Scores before: one per player, never negative, in fives, below the target.
    pytest.param(
        {"Ana": "2C", "Ben": "", "Cem": "4C"},
        {"Ana": 10, "Ben": -5, "Dan": 0},
        [
            ("scores_before.Cem", "There is no score before this round for Cem."),
            ("scores_before.Ben", "Ben's score cannot be negative (-5): penalties only add up."),
            ("scores_before.Dan", "Dan has a score but is not playing in this round."),
        ],
        id="scores-before-wrong-players",
    ),
    pytest.param(
        {"Ana": "2C", "Ben": "", "Cem": "4C"},
        {"Ana": 12, "Ben": 200, "Cem": 0},
        [
            (
                "scores_before.Ana",
                "Ana's score of 12 cannot be right: penalties come in fives.",
            ),
            (
                "scores_before.Ben",
                "Ben already has 200, which reached the target of 200, so the game ended "
                "before this round.",
            ),
        ],
        id="scores-before-impossible",
    ),
]


@pytest.mark.parametrize(("hands", "before", "expected"), HAND_PROBLEMS)
def test_score_round_reports_every_problem(hands, before, expected):
    with pytest.raises(RuleError) as error:
        score_round(
            hands={name: cards(hand) for name, hand in hands.items()},
            scores_before=before,
            options=HIGH,
        )
    assert problems_of(error) == expected


def test_score_round_points_at_a_joker_in_a_hand():
    with pytest.raises(RuleError) as error:
        score_round(
            hands={"Ana": [card("2C"), Card("JOKER-HIGH")], "Ben": [], "Cem": cards("4C")},
            options=HIGH,
        )
    assert problems_of(error) == [
        ("hands.Ana.1", "high joker is not a Manipulation card: the game uses no jokers.")
    ]


PENALTY_PROBLEMS = [
    # Penalties: cards cost 5, 10 or 15, so penalties are whole multiples of 5.
    pytest.param(
        {"Ana": 12, "Ben": 0, "Cem": -5},
        [
            (
                "penalties.Ana",
                "Ana's penalty of 12 cannot be right: every card costs 5, 10 or 15, so "
                "penalties are multiples of 5.",
            ),
            ("penalties.Cem", "Cem's penalty cannot be negative (-5)."),
        ],
        id="not-in-fives-and-negative",
    ),
    # Going out: only one player scores 0.
    pytest.param(
        {"Ana": 0, "Ben": 0, "Cem": 5},
        [
            (
                "penalties",
                "Only one player can go out, but Ana and Ben both have 0; a player still "
                "holding cards scores at least 5.",
            )
        ],
        id="two-zeros",
    ),
    # Penalties: no hand can cost more than every card of both decks.
    pytest.param(
        {"Ana": 765, "Ben": 0, "Cem": 5},
        [
            (
                "penalties.Ana",
                "Ana's penalty of 765 is more than every card of both decks together (760).",
            )
        ],
        id="more-than-both-decks",
    ),
    pytest.param(
        {"Ana": 400, "Ben": 0, "Cem": 365},
        [
            (
                "penalties",
                "Together these penalties come to 765, more than every card of both decks (760).",
            )
        ],
        id="together-more-than-both-decks",
    ),
    # Melds are 3 cards or more, and the round ends when a player melds their last card
    # (Manipulation rules, "Melds", "Deal and play"): a meld of at least 15 points is on
    # the table then, so the hands hold at most 760 - 15 = 745 (independent audit).
    pytest.param(
        {"Ana": 750, "Ben": 0, "Cem": 5},
        [
            (
                "penalties",
                "Together these penalties come to 755, but Ben went out by melding their "
                "last card, so at least one meld of three cards (15 points or more) is on the "
                "table: the hands hold at most 745.",
            )
        ],
        id="more-than-the-hands-can-hold-beside-a-meld",
    ),
    pytest.param(
        {"Ana": 5, "Ben": 0},
        [("penalties", "Manipulation is played by 3 to 5 players; this round has 2.")],
        id="two-players",
    ),
]


@pytest.mark.parametrize(("penalties", "expected"), PENALTY_PROBLEMS)
def test_score_round_from_penalties_reports_every_problem(penalties, expected):
    with pytest.raises(RuleError) as error:
        score_round_from_penalties(penalties=penalties, options=HIGH)
    assert problems_of(error) == expected


def test_worst_possible_round_is_accepted():
    # Penalties: every card but the cheapest meld (three 5-point cards, the one Ben went
    # out with at the least) in the hands of the players who did not go out.
    result = score_round_from_penalties(
        penalties={"Ana": 740, "Ben": 0, "Cem": 5}, options=ManipulationOptions(target=300)
    )
    assert result.scores_after == {"Ana": 740, "Ben": 0, "Cem": 5}
    assert result.game_over is True
    assert result.winners == ("Ben",)


def test_a_round_nobody_went_out_of_may_hold_every_card():
    # Nobody went out (the stock ran out, option stock_out): the table may be empty, so
    # every card of both decks may be in the hands (Manipulation rules, "Deal and play").
    result = score_round_from_penalties(
        penalties={"Ana": 750, "Ben": 5, "Cem": 5}, options=ManipulationOptions(target=300)
    )
    assert result.scores_after == {"Ana": 750, "Ben": 5, "Cem": 5}
