"""The Skat referee: each case names the rule it checks."""

from __future__ import annotations

import pytest

from games.rules.cards import SKAT_DECK, Card, card
from games.rules.errors import RuleError
from games.rules.skat import (
    BASE_VALUES,
    BIDS,
    CARD_POINTS,
    GAMES,
    NULL_VALUES,
    RULE_SECTIONS,
    TRUMP,
    Matadors,
    bid_ladder,
    card_points,
    check_bidding,
    contract_name,
    count_matadors,
    count_points,
    follow_check,
    plays_as_suit,
    score_game,
    trick_winner,
    trumps,
)


def cards(text: str) -> list[Card]:
    return [card(code) for code in text.split()]


def problems_of(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str | None, str]]:
    return [(p.field, p.message) for p in error.value.problems]


WITH_1 = Matadors("with", 1)
AGAINST_1 = Matadors("against", 1)


# ---------------------------------------------------------------------------
# Cards, points, bids


def test_constants_match_the_rule_book():
    # Base values: diamonds 9, hearts 10, spades 11, clubs 12, grand 24.
    assert GAMES == ("diamonds", "hearts", "spades", "clubs", "grand", "null")
    assert BASE_VALUES == {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}
    # Null values are fixed: 23, hand 35, ouvert 46, ouvert hand 59.
    assert NULL_VALUES == {"Null": 23, "Null Hand": 35, "Null Ouvert": 46, "Null Ouvert Hand": 59}
    # Card points: A 11, 10 10, K 4, Q 3, J 2, 9/8/7 nothing.
    assert CARD_POINTS == {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def test_legal_bids_are_every_possible_game_value():
    # Bids: the 63 values some game can have, from 18 up to 264.
    listed = (
        "18 20 22 23 24 27 30 33 35 36 40 44 45 46 48 50 54 55 59 60 63 66 70 72 77 80 81 "
        "84 88 90 96 99 100 108 110 117 120 121 126 130 132 135 140 143 144 150 153 154 156 "
        "160 162 165 168 170 176 180 187 192 198 204 216 240 264"
    )
    assert tuple(int(v) for v in listed.split()) == BIDS
    assert len(BIDS) == 63


@pytest.mark.parametrize(
    ("code", "points"),
    [
        pytest.param("AS", 11, id="ace-11"),
        pytest.param("10H", 10, id="ten-10"),
        pytest.param("KD", 4, id="king-4"),
        pytest.param("QC", 3, id="queen-3"),
        pytest.param("JC", 2, id="jack-2"),
        pytest.param("9S", 0, id="nine-0"),
        pytest.param("8H", 0, id="eight-0"),
        pytest.param("7D", 0, id="seven-0"),
    ],
)
def test_card_points(code, points):
    # Card points ("Augen") of each rank.
    assert card_points(card(code)) == points


def test_the_deck_holds_120_points():
    # All 32 cards hold 120 card points.
    assert count_points(SKAT_DECK.cards) == 120


def test_card_points_refuse_a_card_from_another_deck():
    # Skat is played with 7 to ace only.
    with pytest.raises(RuleError) as error:
        card_points(card("2C"))
    assert problems_of(error) == [
        (None, "2♣ is not a Skat card; Skat uses 7, 8, 9, 10, J, Q, K and A of each suit.")
    ]


@pytest.mark.parametrize(
    ("game", "expected"),
    [
        # Suit game: four jacks, then A 10 K Q 9 8 7 of the trump suit.
        pytest.param("hearts", "JC JS JH JD AH 10H KH QH 9H 8H 7H", id="suit-11-trumps"),
        pytest.param("clubs", "JC JS JH JD AC 10C KC QC 9C 8C 7C", id="clubs"),
        # Grand: the four jacks only.
        pytest.param("grand", "JC JS JH JD", id="grand-4-jacks"),
        # Null: no trumps.
        pytest.param("null", "", id="null-none"),
    ],
)
def test_trumps_high_to_low(game, expected):
    assert trumps(game) == tuple(cards(expected))


@pytest.mark.parametrize(
    ("code", "game", "suit"),
    [
        # In suit and grand games a jack belongs to the trumps, not its printed suit.
        pytest.param("JH", "diamonds", TRUMP, id="jack-is-trump-in-suit"),
        pytest.param("JC", "grand", TRUMP, id="jack-is-trump-in-grand"),
        pytest.param("7D", "diamonds", TRUMP, id="trump-suit-card"),
        pytest.param("AH", "diamonds", "H", id="plain-suit-card"),
        pytest.param("AD", "grand", "D", id="no-suit-trumps-in-grand"),
        # Null has no trumps: the jack is an ordinary card of its suit.
        pytest.param("JC", "null", "C", id="jack-is-a-club-in-null"),
    ],
)
def test_plays_as_suit(code, game, suit):
    assert plays_as_suit(card(code), game) == suit


def test_unknown_game_is_refused_everywhere():
    for call in (lambda: trumps("bridge"), lambda: plays_as_suit(card("AS"), "bridge")):
        with pytest.raises(RuleError) as error:
            call()
        assert problems_of(error) == [
            (
                "game",
                '"bridge" is not a Skat game; choose diamonds, hearts, spades, clubs, grand or null.',
            )
        ]


@pytest.mark.parametrize(
    ("game", "hand", "ouvert", "announced", "name"),
    [
        pytest.param("clubs", False, False, "none", "Clubs", id="plain"),
        pytest.param(
            "clubs", True, False, "schneider", "Clubs Hand, schneider announced", id="ann"
        ),
        pytest.param("grand", True, True, "none", "Grand Ouvert", id="ouvert"),
        pytest.param("null", True, True, "none", "Null Ouvert Hand", id="null-ouvert-hand"),
        pytest.param("null", False, False, "none", "Null", id="null"),
    ],
)
def test_contract_names(game, hand, ouvert, announced, name):
    assert contract_name(game=game, hand=hand, ouvert=ouvert, announced=announced) == name


def test_bid_ladder():
    # Each bid is a value some game has: base value × 2 … 18 (grand × 2 … 11) or a null value.
    ladder = {rung.value: rung.games for rung in bid_ladder()}
    assert tuple(ladder) == BIDS
    assert ladder[18] == ("Diamonds ×2",)
    assert ladder[23] == ("Null",)
    assert ladder[24] == ("Clubs ×2",)
    assert ladder[48] == ("Clubs ×4", "Grand ×2")
    assert ladder[59] == ("Null Ouvert Hand",)
    assert ladder[120] == ("Hearts ×12", "Clubs ×10", "Grand ×5")
    assert ladder[264] == ("Grand ×11",)
    assert all(ladder.values())


# ---------------------------------------------------------------------------
# Matadors


@pytest.mark.parametrize(
    ("game", "hand", "expected"),
    [
        # With N: the unbroken run of trumps from J♣.
        pytest.param(
            "clubs", "JC JS AC 10C KC 7H 8H 9H 7S 8S 9D 8D", Matadors("with", 2), id="with-2"
        ),
        pytest.param(
            "clubs", "JC JS JH JD AC 10C KC QC 9C 8C 7C AS", Matadors("with", 11), id="with-all-11"
        ),
        # Against N: the top trumps missing before the highest trump held.
        pytest.param(
            "spades", "JH AS 10S 7C 8C 9C 7H 8H 9H 7D 8D 9D", Matadors("against", 2), id="against-2"
        ),
        pytest.param(
            "hearts",
            "AS 10S KS QS 9S 8S 7S AC 10C KC QC 9C",
            Matadors("against", 11),
            id="no-trump",
        ),
        pytest.param(
            "diamonds",
            "7D AS 10S KS QS 9S 8S 7S AC 10C KC QC",
            Matadors("against", 10),
            id="only-7",
        ),
        # Grand counts the four jacks only.
        pytest.param(
            "grand", "JC JS JH JD AS 10S KS QS 9S 8S 7S AC", Matadors("with", 4), id="g-4"
        ),
        pytest.param(
            "grand", "JC JH JD AS 10S KS QS 9S 8S 7S AC AH", Matadors("with", 1), id="g-1"
        ),
        pytest.param(
            "grand", "JD AS 10S KS QS 9S 8S 7S AC 10C AH 10H", Matadors("against", 3), id="g-a3"
        ),
        pytest.param(
            "grand", "AS 10S KS QS 9S 8S 7S AC 10C KC AH 10H", Matadors("against", 4), id="g-a4"
        ),
    ],
)
def test_count_matadors(game, hand, expected):
    assert count_matadors(game=game, cards=cards(hand)) == expected


def test_the_skat_counts_for_matadors_in_a_hand_game():
    # The skat always counts for matadors, even when the declarer never picked it up:
    # J♠ lies in the skat (the last two cards), so with J♣ it is "with 2", not "with 1".
    dealt = cards("JC AC 10C KC 7H 8H 9H 7S 8S 9D")
    skat = cards("JS 8D")
    result = score_game(
        game="clubs",
        bid=18,
        hand=True,
        declarer_cards=dealt + skat,
        declarer_points=70,
        declarer_tricks=6,
    )
    assert result.matadors == Matadors("with", 2)
    assert result.multiplier == 4  # with 2, game, hand
    assert result.game_value == 48
    assert result.explanation[1].text == (
        "The declarer's 12 cards (skat included) hold J♣ J♠ from the top and then miss J♥: with 2."
    )


@pytest.mark.parametrize(
    ("game", "hand", "field", "message"),
    [
        pytest.param(
            "null",
            "JC JS AC 10C KC 7H 8H 9H 7S 8S 9D 8D",
            "game",
            "Null is played without trumps, so it has no matadors.",
            id="null-has-none",
        ),
        pytest.param(
            "clubs",
            "JC JS AC 10C KC 7H 8H 9H 7S 8S 9D",
            "declarer_cards",
            "Give the declarer's 12 cards: the 10 dealt cards and the 2 skat cards (got 11).",
            id="eleven-cards",
        ),
        pytest.param(
            "clubs",
            "JC JC AC 10C KC 7H 8H 9H 7S 8S 9D 8D",
            "declarer_cards",
            "J♣ is there 2 times, but a Skat deck has only one jack of clubs.",
            id="card-twice",
        ),
        pytest.param(
            "clubs",
            "JC 2C AC 10C KC 7H 8H 9H 7S 8S 9D 8D",
            "declarer_cards.1",
            "2♣ is not a Skat card; Skat uses 7, 8, 9, 10, J, Q, K and A of each suit.",
            id="not-a-skat-card",
        ),
        pytest.param(
            "whist",
            "JC JS AC 10C KC 7H 8H 9H 7S 8S 9D 8D",
            "game",
            '"whist" is not a Skat game; choose diamonds, hearts, spades, clubs, grand or null.',
            id="unknown-game",
        ),
    ],
)
def test_count_matadors_refuses(game, hand, field, message):
    with pytest.raises(RuleError) as error:
        count_matadors(game=game, cards=cards(hand))
    assert problems_of(error) == [(field, message)]


def test_matadors_read_and_written():
    assert Matadors.from_mapping({"with": 2}) == Matadors("with", 2)
    assert Matadors.from_mapping({"against": 3}).as_dict() == {"against": 3}
    assert Matadors("against", 3).label == "against 3"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param(
            {},
            'Give matadors as {"with": N} or {"against": N}, with exactly one of the two.',
            id="empty",
        ),
        pytest.param(
            {"with": 1, "against": 1},
            'Give matadors as {"with": N} or {"against": N}, with exactly one of the two.',
            id="both",
        ),
        pytest.param(
            3,
            'Give matadors as {"with": N} or {"against": N}, with exactly one of the two.',
            id="number",
        ),
        pytest.param(
            {"mit": 2},
            'Give matadors as {"with": N} or {"against": N}; "mit" is neither.',
            id="word",
        ),
        pytest.param(
            {"with": "2"},
            'Give matadors as {"with": N} or {"against": N}, N being a whole number.',
            id="text",
        ),
        pytest.param(
            {"with": True},
            'Give matadors as {"with": N} or {"against": N}, N being a whole number.',
            id="bool",
        ),
    ],
)
def test_matadors_from_mapping_refuses(data, message):
    with pytest.raises(RuleError) as error:
        Matadors.from_mapping(data, field="matadors")
    assert problems_of(error) == [("matadors", message)]


# ---------------------------------------------------------------------------
# Scoring: exact numbers


SCORES = [
    # id, arguments, (won, overbid, multiplier, game_value, score)
    # Ouvert counts schwarz announced: Clubs Ouvert with 2 = 2+1+1+1+1+1+1+1 = 9 × 12 = 108.
    (
        "clubs-ouvert-with-2",
        {
            "game": "clubs",
            "bid": 108,
            "hand": True,
            "ouvert": True,
            "matadors": Matadors("with", 2),
            "outcome": "won_schwarz",
        },
        (True, False, 9, 108, 108),
    ),
    # Grand Ouvert with 4 = 11 × 24 = 264, the highest possible game.
    (
        "grand-ouvert-with-4",
        {
            "game": "grand",
            "bid": 264,
            "hand": True,
            "ouvert": True,
            "matadors": Matadors("with", 4),
            "outcome": "won_schwarz",
        },
        (True, False, 11, 264, 264),
    ),
    # Announced levels count reached or not: Grand Ouvert with 1 losing one trick = 8 × 24, −384.
    (
        "grand-ouvert-one-trick-lost",
        {
            "game": "grand",
            "bid": 96,
            "hand": True,
            "ouvert": True,
            "matadors": WITH_1,
            "declarer_points": 120,
            "declarer_tricks": 9,
        },
        (False, False, 8, 192, -384),
    ),
    # Overbidding: lost value is the smallest multiple of the base value that reaches the bid.
    (
        "overbid-diamonds-22",
        {
            "game": "diamonds",
            "bid": 22,
            "matadors": AGAINST_1,
            "declarer_points": 70,
            "declarer_tricks": 6,
        },
        (False, True, 2, 27, -54),
    ),
    # The same game won schneider is worth 3 × 9 = 27 ≥ 22: won.
    (
        "diamonds-22-saved-by-schneider",
        {
            "game": "diamonds",
            "bid": 22,
            "matadors": AGAINST_1,
            "declarer_points": 95,
            "declarer_tricks": 8,
        },
        (True, False, 3, 27, 27),
    ),
    # Bid 24, Hearts worth 20 → 30, −60.
    (
        "overbid-hearts-24",
        {
            "game": "hearts",
            "bid": 24,
            "matadors": AGAINST_1,
            "declarer_points": 70,
            "declarer_tricks": 6,
        },
        (False, True, 2, 30, -60),
    ),
    # Overbid also when the play itself was lost: the raised value is doubled.
    (
        "overbid-and-lost",
        {
            "game": "hearts",
            "bid": 24,
            "matadors": AGAINST_1,
            "declarer_points": 50,
            "declarer_tricks": 4,
        },
        (False, True, 2, 30, -60),
    ),
    # Overbid stays lost even when an outcome is entered as won.
    (
        "overbid-with-outcome",
        {"game": "diamonds", "bid": 20, "matadors": WITH_1, "outcome": "won"},
        (False, True, 2, 27, -54),
    ),
    # Winning: 61 wins, 60:60 is lost.
    (
        "61-wins",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 61,
            "declarer_tricks": 5,
        },
        (True, False, 2, 24, 24),
    ),
    (
        "60-60-lost",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 60,
            "declarer_tricks": 5,
        },
        (False, False, 2, 24, -48),
    ),
    # Schneider: 90 or more makes the opponents schneider; 89 does not.
    (
        "90-schneider",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 90,
            "declarer_tricks": 8,
        },
        (True, False, 3, 36, 36),
    ),
    (
        "89-not-schneider",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 89,
            "declarer_tricks": 7,
        },
        (True, False, 2, 24, 24),
    ),
    # Declarer with 30 or fewer is schneider: the level counts in the lost game.
    (
        "30-declarer-schneider",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 30,
            "declarer_tricks": 3,
        },
        (False, False, 3, 36, -72),
    ),
    (
        "31-not-schneider",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 31,
            "declarer_tricks": 3,
        },
        (False, False, 2, 24, -48),
    ),
    # Schwarz: every trick wins schwarz (schneider counts too).
    (
        "schwarz-won",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 120,
            "declarer_tricks": 10,
        },
        (True, False, 4, 48, 48),
    ),
    # A trick with no card points is still a trick: 120 points in 9 tricks is not schwarz.
    (
        "120-in-9-tricks-no-schwarz",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 120,
            "declarer_tricks": 9,
        },
        (True, False, 3, 36, 36),
    ),
    # Declarer with no trick: schwarz against the declarer counts too.
    (
        "schwarz-lost",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 0,
            "declarer_tricks": 0,
        },
        (False, False, 4, 48, -96),
    ),
    (
        "schwarz-lost-skat-points",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 22,
            "declarer_tricks": 0,
        },
        (False, False, 4, 48, -96),
    ),
    # The skat may come with the points; it must fit them.
    (
        "points-with-skat",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 70,
            "declarer_tricks": 6,
            "skat": cards("AS 7D"),
        },
        (True, False, 2, 24, 24),
    ),
    # The declarer's one trick of 7, 8, 9 holds no points but is a trick: schneider, no schwarz.
    (
        "pointless-trick-no-schwarz",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_trick_cards": cards("7C 8C 9C"),
            "skat": cards("7D 8D"),
        },
        (False, False, 3, 36, -72),
    ),
    # Points from the cards: tricks plus skat.
    (
        "points-from-trick-cards",
        {
            "game": "spades",
            "bid": 18,
            "matadors": AGAINST_1,
            "declarer_trick_cards": cards("AC 10C KC AH 10H KH AD 10D KD 7S 8S 9S"),
            "skat": cards("7D AS"),
        },
        (True, False, 2, 22, 22),
    ),
    # Hand: one level more.
    (
        "hand-game",
        {"game": "clubs", "bid": 18, "hand": True, "matadors": WITH_1, "outcome": "won"},
        (True, False, 3, 36, 36),
    ),
    (
        "grand-with-4",
        {
            "game": "grand",
            "bid": 18,
            "matadors": Matadors("with", 4),
            "declarer_points": 61,
            "declarer_tricks": 5,
        },
        (True, False, 5, 120, 120),
    ),
    (
        "grand-hand-against-2",
        {
            "game": "grand",
            "bid": 96,
            "hand": True,
            "matadors": Matadors("against", 2),
            "outcome": "won",
        },
        (True, False, 4, 96, 96),
    ),
    # Announcements: schneider announced counts schneider and the announcement.
    (
        "schneider-announced-made",
        {
            "game": "clubs",
            "bid": 18,
            "hand": True,
            "announced": "schneider",
            "matadors": WITH_1,
            "declarer_points": 95,
            "declarer_tricks": 8,
        },
        (True, False, 5, 60, 60),
    ),
    (
        "schneider-announced-missed",
        {
            "game": "clubs",
            "bid": 18,
            "hand": True,
            "announced": "schneider",
            "matadors": WITH_1,
            "declarer_points": 85,
            "declarer_tricks": 7,
        },
        (False, False, 5, 60, -120),
    ),
    (
        "schneider-announced-missed-outcome",
        {
            "game": "clubs",
            "bid": 18,
            "hand": True,
            "announced": "schneider",
            "matadors": WITH_1,
            "outcome": "won",
        },
        (False, False, 5, 60, -120),
    ),
    # Schwarz announced includes schneider announced: seven levels with 1 matador.
    (
        "schwarz-announced-made",
        {
            "game": "clubs",
            "bid": 18,
            "hand": True,
            "announced": "schwarz",
            "matadors": WITH_1,
            "outcome": "won_schwarz",
        },
        (True, False, 7, 84, 84),
    ),
    (
        "schwarz-announced-missed",
        {
            "game": "clubs",
            "bid": 18,
            "hand": True,
            "announced": "schwarz",
            "matadors": WITH_1,
            "declarer_points": 120,
            "declarer_tricks": 9,
        },
        (False, False, 7, 84, -168),
    ),
    (
        "schwarz-announced-lost-schwarz",
        {
            "game": "clubs",
            "bid": 18,
            "hand": True,
            "announced": "schwarz",
            "matadors": WITH_1,
            "outcome": "lost_schwarz",
        },
        (False, False, 7, 84, -168),
    ),
    # Outcomes stand for the result of play.
    (
        "outcome-won-schneider",
        {"game": "hearts", "bid": 18, "matadors": WITH_1, "outcome": "won_schneider"},
        (True, False, 3, 30, 30),
    ),
    (
        "outcome-lost",
        {"game": "hearts", "bid": 18, "matadors": WITH_1, "outcome": "lost"},
        (False, False, 2, 20, -40),
    ),
    (
        "outcome-lost-schneider",
        {"game": "hearts", "bid": 18, "matadors": WITH_1, "outcome": "lost_schneider"},
        (False, False, 3, 30, -60),
    ),
    # Kontra doubles, Re makes it four times, Bock doubles the list score (house rules).
    (
        "kontra-won",
        {"game": "clubs", "bid": 18, "matadors": WITH_1, "outcome": "won", "kontra": True},
        (True, False, 2, 24, 48),
    ),
    (
        "re-won",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "outcome": "won",
            "kontra": True,
            "re": True,
        },
        (True, False, 2, 24, 96),
    ),
    (
        "kontra-lost",
        {"game": "clubs", "bid": 18, "matadors": WITH_1, "outcome": "lost", "kontra": True},
        (False, False, 2, 24, -96),
    ),
    (
        "re-lost",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "outcome": "lost",
            "kontra": True,
            "re": True,
        },
        (False, False, 2, 24, -192),
    ),
    (
        "bock-won",
        {"game": "clubs", "bid": 18, "matadors": WITH_1, "outcome": "won", "bock": True},
        (True, False, 2, 24, 48),
    ),
    (
        "re-and-bock",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "outcome": "won",
            "kontra": True,
            "re": True,
            "bock": True,
        },
        (True, False, 2, 24, 192),
    ),
    # Null: fixed values, won without a trick, lost with the first.
    ("null-won", {"game": "null", "bid": 23, "declarer_tricks": 0}, (True, False, None, 23, 23)),
    ("null-lost", {"game": "null", "bid": 18, "declarer_tricks": 1}, (False, False, None, 23, -46)),
    (
        "null-hand-won",
        {"game": "null", "bid": 35, "hand": True, "outcome": "won"},
        (True, False, None, 35, 35),
    ),
    (
        "null-hand-lost",
        {"game": "null", "bid": 35, "hand": True, "outcome": "lost"},
        (False, False, None, 35, -70),
    ),
    (
        "null-ouvert-won",
        {"game": "null", "bid": 46, "ouvert": True, "declarer_tricks": 0},
        (True, False, None, 46, 46),
    ),
    (
        "null-ouvert-lost",
        {"game": "null", "bid": 46, "ouvert": True, "declarer_tricks": 3},
        (False, False, None, 46, -92),
    ),
    (
        "null-ouvert-hand-won",
        {"game": "null", "bid": 59, "hand": True, "ouvert": True, "declarer_tricks": 0},
        (True, False, None, 59, 59),
    ),
    (
        "null-ouvert-hand-lost",
        {"game": "null", "bid": 59, "hand": True, "ouvert": True, "outcome": "lost"},
        (False, False, None, 59, -118),
    ),
    (
        "null-from-cards-won",
        {"game": "null", "bid": 23, "declarer_trick_cards": []},
        (True, False, None, 23, 23),
    ),
    (
        "null-from-cards-lost",
        {
            "game": "null",
            "bid": 23,
            "declarer_trick_cards": cards("AC 7C 8C"),
            "skat": cards("7D 8D"),
        },
        (False, False, None, 23, -46),
    ),
    (
        "null-kontra-bock",
        {"game": "null", "bid": 23, "declarer_tricks": 2, "kontra": True, "bock": True},
        (False, False, None, 23, -184),
    ),
]


@pytest.mark.parametrize(
    ("arguments", "expected"), [pytest.param(a, e, id=i) for i, a, e in SCORES]
)
def test_score_game(arguments, expected):
    result = score_game(**arguments)
    assert (
        result.won,
        result.overbid,
        result.multiplier,
        result.game_value,
        result.score,
    ) == expected


def test_levels_are_listed_with_their_counts():
    # Levels: matadors, game, hand, schneider, announced levels, schwarz, ouvert.
    result = score_game(
        game="grand",
        bid=96,
        hand=True,
        ouvert=True,
        matadors=WITH_1,
        declarer_points=120,
        declarer_tricks=9,
    )
    assert result.levels == (
        ("with 1", 1),
        ("game", 1),
        ("hand", 1),
        ("schneider", 1),
        ("schneider announced", 1),
        ("schwarz", 1),
        ("schwarz announced", 1),
        ("ouvert", 1),
    )
    assert result.contract == "Grand Ouvert"
    assert (result.schneider, result.schwarz) == (True, False)
    assert (result.declarer_points, result.declarer_tricks) == (120, 9)
    assert result.matadors == WITH_1
    assert result.base_value == 24


def test_overbid_explanation_walks_like_a_referee():
    # Overbidding: value below the bid loses; the lost value is raised to 27 and doubled.
    result = score_game(
        game="diamonds", bid=22, matadors=AGAINST_1, declarer_points=70, declarer_tricks=6
    )
    assert [s.text for s in result.explanation] == [
        "Contract: Diamonds, after a bid of 22.",
        "Matadors: against 1.",
        "The declarer took 6 tricks with 70 card points, skat included.",
        "70 is 61 or more: the declarer wins the play.",
        "Levels: against 1 (1) + game (1) = 2.",
        "Diamonds counts 9 a level: 2 × 9 = 18.",
        "18 is below the bid of 22: the declarer has overbid and loses.",
        "The lost game is valued at the smallest multiple of 9 that reaches 22: 3 × 9 = 27.",
        "Lost: a lost game counts double, −2 × 27 = −54.",
    ]
    assert [s.rule for s in result.explanation] == [
        "skat-game-types",
        "skat-matadors",
        "skat-card-points",
        "skat-winning",
        "skat-levels",
        "skat-game-value",
        "skat-overbid",
        "skat-overbid",
        "skat-list-score",
    ]


@pytest.mark.parametrize(
    ("arguments", "sentence"),
    [
        # 60:60 is lost.
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "matadors": WITH_1,
                "declarer_points": 60,
                "declarer_tricks": 5,
            },
            "60:60 is not enough; the declarer needs 61, so the play is lost.",
            id="60-60",
        ),
        # Opponents with 30 or fewer are schneider.
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "matadors": WITH_1,
                "declarer_points": 92,
                "declarer_tricks": 8,
            },
            "The opponents have 28, 30 or fewer: they are schneider.",
            id="opponents-schneider",
        ),
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "matadors": WITH_1,
                "declarer_points": 20,
                "declarer_tricks": 2,
            },
            "The declarer has 20, 30 or fewer: the declarer is schneider, and the level counts in the lost game too.",
            id="declarer-schneider",
        ),
        # A trick with no card points is still a trick.
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "matadors": WITH_1,
                "declarer_points": 120,
                "declarer_tricks": 8,
            },
            "The opponents took 2 tricks without a single card point, but a trick is a trick: not schwarz.",
            id="zero-point-tricks",
        ),
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "matadors": WITH_1,
                "declarer_trick_cards": cards("7C 8C 9C"),
                "skat": cards("7D 8D"),
            },
            "The declarer's tricks hold no card points, but a trick is a trick: not schwarz.",
            id="declarer-zero-point-trick",
        ),
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "matadors": WITH_1,
                "declarer_trick_cards": cards("7C 8C 9C"),
                "skat": cards("AD 8D"),
            },
            "The declarer's 1 trick holds 0 card points and the skat (A♦ 8♦) adds 11: 11 in all.",
            id="points-from-cards",
        ),
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "matadors": WITH_1,
                "declarer_points": 120,
                "declarer_tricks": 10,
            },
            "The declarer took every trick: schwarz.",
            id="schwarz-won",
        ),
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "matadors": WITH_1,
                "declarer_points": 0,
                "declarer_tricks": 0,
            },
            "The declarer took no trick: schwarz against the declarer, and it counts.",
            id="schwarz-lost",
        ),
        # Ouvert always counts as schwarz announced, and the explanation says so.
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "hand": True,
                "ouvert": True,
                "matadors": WITH_1,
                "outcome": "won_schwarz",
            },
            "An open game always counts as schwarz announced, and so schneider announced too, though "
            "nothing was announced: the declarer must take every trick.",
            id="ouvert-nothing-announced",
        ),
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "hand": True,
                "ouvert": True,
                "announced": "schneider",
                "matadors": WITH_1,
                "outcome": "won_schwarz",
            },
            "An open game always counts as schwarz announced, and so schneider announced too, though "
            "only schneider was announced: the declarer must take every trick.",
            id="ouvert-schneider-announced",
        ),
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "hand": True,
                "ouvert": True,
                "announced": "schwarz",
                "matadors": WITH_1,
                "outcome": "won_schwarz",
            },
            "An open game always counts as schwarz announced, and so schneider announced too: the "
            "declarer must take every trick.",
            id="ouvert-schwarz-announced",
        ),
        # A missed announcement loses the game.
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "hand": True,
                "announced": "schneider",
                "matadors": WITH_1,
                "outcome": "won",
            },
            "Schneider was announced but the opponents are not schneider: the game is lost.",
            id="schneider-missed",
        ),
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "hand": True,
                "announced": "schneider",
                "matadors": WITH_1,
                "outcome": "won_schneider",
            },
            "Schneider was announced and the opponents are schneider.",
            id="schneider-made",
        ),
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "hand": True,
                "announced": "schwarz",
                "matadors": WITH_1,
                "outcome": "won_schneider",
            },
            "Schwarz was announced but the opponents took a trick: the game is lost.",
            id="schwarz-missed",
        ),
        pytest.param(
            {"game": "clubs", "bid": 18, "matadors": WITH_1, "outcome": "won", "kontra": True},
            "Kontra: the score counts double, +48.",
            id="kontra",
        ),
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "matadors": WITH_1,
                "outcome": "won",
                "kontra": True,
                "re": True,
            },
            "Kontra and Re: the score counts four times, +96.",
            id="re",
        ),
        pytest.param(
            {"game": "clubs", "bid": 18, "matadors": WITH_1, "outcome": "lost", "bock": True},
            "A Bock game counts double: −96.",
            id="bock",
        ),
        pytest.param(
            {"game": "clubs", "bid": 18, "matadors": WITH_1, "outcome": "won"},
            "24 covers the bid of 18.",
            id="bid-covered",
        ),
        pytest.param(
            {"game": "null", "bid": 18, "hand": True, "declarer_tricks": 0},
            "Null Hand has a fixed value of 35; Null has no matadors and no levels.",
            id="null-value",
        ),
        pytest.param(
            {"game": "null", "bid": 18, "declarer_tricks": 2},
            "A Null game is lost as soon as the declarer takes a trick.",
            id="null-lost",
        ),
        pytest.param(
            {"game": "null", "bid": 18, "outcome": "won"},
            "A Null game is won when the declarer takes no trick at all.",
            id="null-won",
        ),
    ],
)
def test_explanation_says(arguments, sentence):
    assert sentence in [s.text for s in score_game(**arguments).explanation]


@pytest.mark.parametrize(
    ("game", "hand", "sentence"),
    [
        # Matadors: with N counts the unbroken run from J♣.
        pytest.param(
            "grand",
            "JC JS JH JD AS 10S KS QS 9S 8S 7S AC",
            "The declarer's 12 cards (skat included) hold every trump of Grand: with 4.",
            id="every-trump",
        ),
        pytest.param(
            "grand",
            "JD AS 10S KS QS 9S 8S 7S AC 10C AH 10H",
            "The declarer's 12 cards (skat included) miss J♣ J♠ J♥; the highest trump held is J♦: against 3.",
            id="against-3",
        ),
        pytest.param(
            "grand",
            "AS 10S KS QS 9S 8S 7S AC 10C KC AH 10H",
            "The declarer's 12 cards (skat included) hold no trump of Grand: against 4.",
            id="no-trump",
        ),
    ],
)
def test_matadors_explained_from_cards(game, hand, sentence):
    result = score_game(game=game, bid=18, declarer_cards=cards(hand), outcome="won")
    assert result.explanation[1].text == sentence


def test_matadors_given_and_counted_may_agree():
    # Either way of giving the matadors is fine, and both when they agree.
    hand = cards("JC JS AC 10C KC 7H 8H 9H 7S 8S 9D 8D")
    result = score_game(
        game="clubs", bid=18, matadors=Matadors("with", 2), declarer_cards=hand, outcome="won"
    )
    assert result.matadors == Matadors("with", 2)
    assert result.game_value == 36


def test_declarer_cards_check_the_trick_cards():
    # The skat laid down comes from the declarer's 12 cards, and every trick the declarer
    # took holds one of the declarer's own cards.
    hand = cards("JC JS AC 10C KC 7H 8H 9H 7S 8S 9D 8D")
    result = score_game(
        game="clubs",
        bid=18,
        declarer_cards=hand,
        skat=cards("9D 8D"),
        declarer_trick_cards=cards("JC AS 10S AC AH 10H"),
    )
    assert (result.declarer_points, result.declarer_tricks, result.won) == (55, 2, False)


def test_null_with_declarer_cards_is_accepted():
    # Null has no matadors; the declarer's cards are still checked for duplicates.
    result = score_game(
        game="null",
        bid=23,
        declarer_cards=cards("7C 8C 9C 7S 8S 9S 7H 8H 9H 7D 8D 9D"),
        declarer_tricks=0,
    )
    assert (result.won, result.score, result.matadors, result.levels) == (True, 23, None, ())


def test_null_points_are_passed_through():
    result = score_game(game="null", bid=23, declarer_points=12, declarer_tricks=1)
    assert (result.declarer_points, result.declarer_tricks) == (12, 1)
    assert score_game(game="null", bid=23, outcome="won").declarer_tricks == 0
    assert score_game(game="null", bid=23, outcome="lost").declarer_tricks is None


# ---------------------------------------------------------------------------
# Scoring: contradictions, every problem reported

HAND = "JC JS AC 10C KC 7H 8H 9H 7S 8S 9D 8D"

REFUSALS = [
    # id, arguments, expected [(field, message)]
    (
        "unknown-game",
        {"game": "skat", "bid": 18, "outcome": "won"},
        [
            (
                "game",
                '"skat" is not a Skat game; choose diamonds, hearts, spades, clubs, grand or null.',
            )
        ],
    ),
    # Bids: only values some game can have.
    (
        "bid-between",
        {"game": "clubs", "bid": 19, "matadors": WITH_1, "outcome": "won"},
        [
            (
                "bid",
                "19 is not a legal bid, because no game is worth exactly that; the nearest bids are 18 and 20.",
            )
        ],
    ),
    (
        "bid-25",
        {"game": "clubs", "bid": 25, "matadors": WITH_1, "outcome": "won"},
        [
            (
                "bid",
                "25 is not a legal bid, because no game is worth exactly that; the nearest bids are 24 and 27.",
            )
        ],
    ),
    (
        "bid-too-low",
        {"game": "clubs", "bid": 17, "matadors": WITH_1, "outcome": "won"},
        [("bid", "The lowest bid is 18; 17 is not a bid.")],
    ),
    (
        "bid-too-high",
        {"game": "grand", "bid": 265, "matadors": WITH_1, "outcome": "won"},
        [("bid", "No game is worth more than 264 (Grand Ouvert with 4), so 265 cannot be bid.")],
    ),
    # Announcements only in hand games; none in null.
    (
        "schneider-without-hand",
        {
            "game": "clubs",
            "bid": 18,
            "announced": "schneider",
            "matadors": WITH_1,
            "outcome": "won_schneider",
        },
        [
            (
                "announced",
                "Schneider can only be announced in a hand game; after picking up the skat it can still be played, just not announced.",
            )
        ],
    ),
    (
        "schwarz-without-hand",
        {
            "game": "grand",
            "bid": 18,
            "announced": "schwarz",
            "matadors": WITH_1,
            "outcome": "won_schwarz",
        },
        [
            (
                "announced",
                "Schwarz can only be announced in a hand game; after picking up the skat it can still be played, just not announced.",
            )
        ],
    ),
    (
        "unknown-announcement",
        {
            "game": "grand",
            "bid": 18,
            "hand": True,
            "announced": "all",
            "matadors": WITH_1,
            "outcome": "won",
        },
        [("announced", '"all" is not an announcement; say none, schneider or schwarz.')],
    ),
    (
        "announcement-in-null",
        {"game": "null", "bid": 23, "hand": True, "announced": "schneider", "declarer_tricks": 0},
        [
            (
                "announced",
                "Null has no schneider to announce: the declarer simply must take no trick.",
            )
        ],
    ),
    # Ouvert suit and grand games are hand games only.
    (
        "ouvert-without-hand",
        {"game": "clubs", "bid": 18, "ouvert": True, "matadors": WITH_1, "outcome": "won_schwarz"},
        [
            (
                "ouvert",
                "Clubs Ouvert can only be played as a hand game; either play it hand or, after picking up the skat, play it closed.",
            )
        ],
    ),
    (
        "ouvert-schwarz-without-hand",
        {
            "game": "clubs",
            "bid": 18,
            "ouvert": True,
            "announced": "schwarz",
            "matadors": WITH_1,
            "outcome": "won_schwarz",
        },
        [
            (
                "announced",
                "Schwarz can only be announced in a hand game; after picking up the skat it can still be played, just not announced.",
            ),
            (
                "ouvert",
                "Clubs Ouvert can only be played as a hand game; either play it hand or, after picking up the skat, play it closed.",
            ),
        ],
    ),
    # Re answers Kontra.
    (
        "re-without-kontra",
        {"game": "clubs", "bid": 18, "matadors": WITH_1, "outcome": "won", "re": True},
        [("re", "Re answers a Kontra; without Kontra there is no Re.")],
    ),
    # Matadors: 1–11 in suit games, 1–4 in grand.
    (
        "matadors-12-in-suit",
        {"game": "clubs", "bid": 18, "matadors": Matadors("with", 12), "outcome": "won"},
        [
            (
                "matadors",
                "Clubs has 11 trumps, so matadors run from 1 to 11; with 12 is not possible.",
            )
        ],
    ),
    (
        "matadors-0",
        {"game": "clubs", "bid": 18, "matadors": Matadors("against", 0), "outcome": "won"},
        [
            (
                "matadors",
                "Clubs has 11 trumps, so matadors run from 1 to 11; against 0 is not possible.",
            )
        ],
    ),
    (
        "matadors-5-in-grand",
        {"game": "grand", "bid": 18, "matadors": Matadors("with", 5), "outcome": "won"},
        [("matadors", "Grand has 4 trumps, so matadors run from 1 to 4; with 5 is not possible.")],
    ),
    (
        "matadors-odd-direction",
        {"game": "grand", "bid": 18, "matadors": Matadors("mit", 2), "outcome": "won"},
        [("matadors", 'Matadors are "with" or "against" a number.')],
    ),  # type: ignore[arg-type]
    (
        "matadors-missing",
        {"game": "spades", "bid": 18, "outcome": "won"},
        [
            (
                "matadors",
                "Spades needs the matadors: give them as with/against N, or give the declarer's 12 cards (skat included) to count them.",
            )
        ],
    ),
    (
        "matadors-disagree",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": Matadors("with", 3),
            "declarer_cards": cards(HAND),
            "outcome": "won",
        },
        [
            (
                "matadors",
                "You gave with 3, but the declarer's cards make it with 2 in Clubs; correct one of them or leave the matadors out.",
            )
        ],
    ),
    (
        "matadors-in-null",
        {"game": "null", "bid": 23, "matadors": WITH_1, "declarer_tricks": 0},
        [("matadors", "Null is played without trumps, so it has no matadors; leave them out.")],
    ),
    (
        "matadors-bad-and-cards",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": Matadors("with", 0),
            "declarer_cards": cards(HAND),
            "outcome": "won",
        },
        [
            (
                "matadors",
                "Clubs has 11 trumps, so matadors run from 1 to 11; with 0 is not possible.",
            )
        ],
    ),
    (
        "declarer-cards-eleven",
        {"game": "clubs", "bid": 18, "declarer_cards": cards(HAND)[:11], "outcome": "won"},
        [
            (
                "declarer_cards",
                "Give the declarer's 12 cards: the 10 dealt cards and the 2 skat cards (got 11).",
            )
        ],
    ),
    # Points 0–120, tricks 0–10, and pairs that cannot happen.
    (
        "points-121",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 121,
            "declarer_tricks": 10,
        },
        [
            (
                "declarer_points",
                "Card points run from 0 to 120 (skat included); 121 is not possible.",
            )
        ],
    ),
    (
        "points-negative",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": -1,
            "declarer_tricks": 0,
        },
        [("declarer_points", "Card points run from 0 to 120 (skat included); -1 is not possible.")],
    ),
    (
        "tricks-11",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 100,
            "declarer_tricks": 11,
        },
        [("declarer_tricks", "A declarer takes 0 to 10 tricks; 11 is not possible.")],
    ),
    (
        "120-points-no-trick",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 120,
            "declarer_tricks": 0,
        },
        [
            (
                "declarer_points",
                "With no trick the declarer has only the 2 skat cards, at most 22 points; 120 is not possible.",
            )
        ],
    ),
    # The skat holds at most two aces: 22 points.
    (
        "23-points-no-trick",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 23,
            "declarer_tricks": 0,
        },
        [
            (
                "declarer_points",
                "With no trick the declarer has only the 2 skat cards, at most 22 points; 23 is not possible.",
            )
        ],
    ),
    (
        "10-tricks-not-120",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 110,
            "declarer_tricks": 10,
        },
        [
            (
                "declarer_points",
                "Taking all 10 tricks gives the declarer all 120 card points, not 110.",
            )
        ],
    ),
    (
        "9-tricks-few-points",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 80,
            "declarer_tricks": 9,
        },
        [
            (
                "declarer_points",
                "With 9 tricks and the skat the declarer holds 29 cards, worth 87 to 120 card points; 80 is not possible.",
            )
        ],
    ),
    (
        "1-trick-many-points",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 70,
            "declarer_tricks": 1,
        },
        [
            (
                "declarer_points",
                "With 1 trick and the skat the declarer holds 5 cards, worth 0 to 54 card points; 70 is not possible.",
            )
        ],
    ),
    # Card points (rules: A 11, 10 10, K 4, Q 3, J 2, 9/8/7 0): no card is worth 1,
    # so neither side ever ends with exactly 1 point, and so many cards can only make
    # so many sums.
    (
        "1-point",
        {"game": "clubs", "bid": 18, "matadors": WITH_1, "declarer_points": 1},
        [
            (
                "declarer_tricks",
                "Give the number of tricks the declarer took with the card points; schwarz "
                "depends on it.",
            ),
            ("declarer_points", "No card is worth 1 point, so 1 card point is not possible."),
        ],
    ),
    (
        "119-points-defenders-1",
        {"game": "clubs", "bid": 18, "matadors": WITH_1, "declarer_points": 119},
        [
            (
                "declarer_points",
                "119 would leave the defenders exactly 1 card point, and no card is worth 1.",
            ),
        ],
    ),
    (
        "119-points-with-9-tricks",
        {
            "game": "grand",
            "bid": 24,
            "matadors": WITH_1,
            "declarer_points": 119,
            "declarer_tricks": 9,
        },
        [
            (
                "declarer_points",
                "119 would leave the defenders exactly 1 card point, and no card is worth 1.",
            )
        ],
    ),
    (
        "1-point-no-trick",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 1,
            "declarer_tricks": 0,
        },
        [("declarer_points", "No card is worth 1 point, so 1 card point is not possible.")],
    ),
    # Two cards make 0, 2 to 8, 10 to 15 or 20 to 22: never 9.
    (
        "9-points-no-trick",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 9,
            "declarer_tricks": 0,
        },
        [
            (
                "declarer_points",
                "With no trick the declarer has only the 2 skat cards, and no 2 cards add up "
                "to 9 card points.",
            )
        ],
    ),
    # Five cards make 51 (A 10 10 10 10) or 52 (A A 10 10 10), never 50: four aces and
    # a fifth card give 44 plus 0, 2, 3, 4 or 10.
    (
        "50-points-with-1-trick",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 50,
            "declarer_tricks": 1,
        },
        [
            (
                "declarer_points",
                "With 1 trick and the skat the declarer holds 5 cards, and no 5 cards add up "
                "to 50 card points.",
            )
        ],
    ),
    # With the skat known, the tricks hold the rest, in the 30 other cards (an
    # independent audit): A♣ A♠ in the skat and one trick cannot make 23 (1 more
    # point), no trick of three holds 40, and beside A♣ A♠ the defenders' one trick
    # holds at most 32, so the declarer's nine at least 88.
    (
        "skat-aces-one-trick-23",
        {
            "game": "grand",
            "bid": 18,
            "matadors": WITH_1,
            "skat": cards("AC AS"),
            "declarer_points": 23,
            "declarer_tricks": 1,
        },
        [
            (
                "declarer_points",
                "With the skat (A♣ A♠) holding 22, the declarer's 1 trick would hold 1 card "
                "point, and no 3 of the other 30 cards add up to that.",
            )
        ],
    ),
    (
        "skat-blank-one-trick-40",
        {
            "game": "grand",
            "bid": 18,
            "matadors": WITH_1,
            "skat": cards("7C 8C"),
            "declarer_points": 40,
            "declarer_tricks": 1,
        },
        [
            (
                "declarer_points",
                "With the skat (7♣ 8♣) holding 0, the declarer's 1 trick would hold 40 card "
                "points, and no 3 of the other 30 cards add up to that.",
            )
        ],
    ),
    (
        "skat-aces-nine-tricks-87",
        {
            "game": "grand",
            "bid": 18,
            "matadors": WITH_1,
            "skat": cards("AC AS"),
            "declarer_points": 87,
            "declarer_tricks": 9,
        },
        [
            (
                "declarer_points",
                "With the skat (A♣ A♠) holding 22, the declarer's 9 tricks would hold 65 card "
                "points, and no 27 of the other 30 cards add up to that.",
            )
        ],
    ),
    (
        "skat-aces-tricks-unsaid-23",
        {
            "game": "grand",
            "bid": 18,
            "matadors": WITH_1,
            "skat": cards("AC AS"),
            "declarer_points": 23,
        },
        [
            (
                "declarer_points",
                "With the skat (A♣ A♠) holding 22, the declarer's tricks would hold 1 card "
                "point, and no tricks of the other 30 cards add up to that.",
            )
        ],
    ),
    # The defenders' one trick would hold 27 points: no three cards make 27.
    (
        "93-points-with-9-tricks",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 93,
            "declarer_tricks": 9,
        },
        [
            (
                "declarer_points",
                "With 9 tricks and the skat the declarer holds 29 cards, and no 29 cards add up "
                "to 93 card points.",
            )
        ],
    ),
    (
        "points-below-skat",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 10,
            "declarer_tricks": 2,
            "skat": cards("AS AH"),
        },
        [
            (
                "declarer_points",
                "The skat (A♠ A♥) alone holds 22 points for the declarer, so 10 does not fit.",
            )
        ],
    ),
    (
        "points-not-skat-without-trick",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 5,
            "declarer_tricks": 0,
            "skat": cards("AS 7H"),
        },
        [
            (
                "declarer_points",
                "The skat (A♠ 7♥) alone holds 11 points for the declarer, so 5 does not fit a declarer without a trick.",
            )
        ],
    ),
    (
        # 120 card points leave schwarz open (the opponents may have taken a trick
        # without a card point), so the tricks are needed; 70 would not need them.
        "tricks-missing",
        {"game": "clubs", "bid": 18, "matadors": WITH_1, "declarer_points": 120},
        [
            (
                "declarer_tricks",
                "Give the number of tricks the declarer took with the card points; schwarz depends on it.",
            )
        ],
    ),
    (
        "points-missing",
        {"game": "clubs", "bid": 18, "matadors": WITH_1, "declarer_tricks": 7},
        [("declarer_points", "Give the declarer's card points (skat included) with the tricks.")],
    ),
    (
        "null-tricks-missing",
        {"game": "null", "bid": 23, "declarer_points": 0},
        [("declarer_tricks", "Give the number of tricks the declarer took (0 wins a Null game).")],
    ),
    # Exactly one way of giving the result.
    (
        "no-result",
        {"game": "clubs", "bid": 18, "matadors": WITH_1},
        [
            (
                None,
                "Say how the game went: the declarer's points and tricks, or the cards of the declarer's tricks with the skat, or the outcome.",
            )
        ],
    ),
    (
        "no-null-result",
        {"game": "null", "bid": 23},
        [
            (
                None,
                "Say how the game went: the declarer's tricks, or the cards of the declarer's tricks with the skat, or the outcome.",
            )
        ],
    ),
    (
        "two-results",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_points": 70,
            "declarer_tricks": 6,
            "outcome": "won",
        },
        [(None, "Give the result one way only; you gave points and tricks and an outcome.")],
    ),
    (
        "bad-outcome",
        {"game": "clubs", "bid": 18, "matadors": WITH_1, "outcome": "draw"},
        [
            (
                "outcome",
                '"draw" is not an outcome; use won, won_schneider, won_schwarz, lost, lost_schneider or lost_schwarz.',
            )
        ],
    ),
    (
        "null-outcome-schneider",
        {"game": "null", "bid": 23, "outcome": "won_schneider"},
        [
            (
                "outcome",
                'Null is simply won or lost (no schneider or schwarz); "won_schneider" does not fit.',
            )
        ],
    ),
    # Trick cards: a multiple of 3, at most 30, every card once.
    (
        "trick-cards-4",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_trick_cards": cards("AS 10S KS QS"),
            "skat": cards("7D 8D"),
        },
        [
            (
                "declarer_trick_cards",
                "A trick is 3 cards and there are 10 tricks, so give 0, 3, 6 … 30 cards; got 4.",
            )
        ],
    ),
    (
        "trick-card-twice",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_trick_cards": cards("AS 10S AS"),
            "skat": cards("7D 8D"),
        },
        [
            (
                "declarer_trick_cards",
                "A♠ is there 2 times, but a Skat deck has only one ace of spades.",
            )
        ],
    ),
    (
        "skat-card-in-tricks",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_trick_cards": cards("AS 10S KS"),
            "skat": cards("AS 8D"),
        },
        [("skat.0", "A♠ is in the skat and also in the declarer's tricks.")],
    ),
    (
        "trick-cards-without-skat",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_trick_cards": cards("AS 10S KS"),
        },
        [("skat", "Give the 2 skat cards with the trick cards; they count for the declarer.")],
    ),
    (
        "skat-of-three",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_trick_cards": cards("AS 10S KS"),
            "skat": cards("7D 8D 9D"),
        },
        [("skat", "The skat is 2 cards; got 3.")],
    ),
    (
        "skat-not-declarers",
        {
            "game": "clubs",
            "bid": 18,
            "declarer_cards": cards(HAND),
            "skat": cards("AS 8D"),
            "declarer_trick_cards": cards("JC 10S KS"),
        },
        [
            (
                "skat.0",
                "A♠ is in the skat but not among the declarer's 12 cards; the skat the declarer keeps or lays down comes from those cards.",
            )
        ],
    ),
    (
        "own-cards-per-trick",
        {
            "game": "clubs",
            "bid": 18,
            "declarer_cards": cards(HAND),
            "skat": cards("9D 8D"),
            "declarer_trick_cards": cards("JC JS 10S AH 10H 8H"),
        },
        [
            (
                "declarer_trick_cards",
                "Each trick the declarer took holds exactly one of the declarer's own cards, so 2 tricks need 2 of them; these cards hold 3 (J♣ J♠ 8♥).",
            )
        ],
    ),
    (
        "no-own-card",
        {
            "game": "clubs",
            "bid": 18,
            "declarer_cards": cards(HAND),
            "skat": cards("9D 8D"),
            "declarer_trick_cards": cards("AS 10S KS"),
        },
        [
            (
                "declarer_trick_cards",
                "Each trick the declarer took holds exactly one of the declarer's own cards, so 1 trick needs 1 of them; these cards hold 0.",
            )
        ],
    ),
    (
        "not-a-skat-card-in-tricks",
        {
            "game": "clubs",
            "bid": 18,
            "matadors": WITH_1,
            "declarer_trick_cards": cards("AS 10S 2S"),
            "skat": cards("7D 8D"),
        },
        [
            (
                "declarer_trick_cards.2",
                "2♠ is not a Skat card; Skat uses 7, 8, 9, 10, J, Q, K and A of each suit.",
            )
        ],
    ),
    # A declaration whose best value stays below the bid is not a legal declaration.
    (
        "null-below-bid",
        {"game": "null", "bid": 24, "declarer_tricks": 0},
        [
            (
                "bid",
                "You bid 24 but Null is worth 23; declare Null Ouvert (46) or a suit or grand game.",
            )
        ],
    ),
    (
        "null-hand-below-bid",
        {"game": "null", "bid": 40, "hand": True, "declarer_tricks": 0},
        [
            (
                "bid",
                "You bid 40 but Null Hand is worth 35; declare Null Ouvert Hand (59) or a suit or grand game.",
            )
        ],
    ),
    (
        "null-ouvert-hand-below-bid",
        {"game": "null", "bid": 60, "hand": True, "ouvert": True, "declarer_tricks": 0},
        [("bid", "You bid 60 but Null Ouvert Hand is worth 59; declare a suit or grand game.")],
    ),
    (
        "null-below-bid-with-cards",
        {"game": "null", "bid": 48, "declarer_cards": cards(HAND), "declarer_tricks": 0},
        [
            (
                "bid",
                "You bid 48 but Null is worth 23; declare Hearts (up to 50), Spades (up to 55), Clubs (up to 60) or Grand (up to 120).",
            )
        ],
    ),
    (
        "diamonds-with-1-bid-40",
        {"game": "diamonds", "bid": 40, "matadors": WITH_1, "outcome": "won"},
        [
            (
                "bid",
                # The most after picking up the skat is 36; from the hand the same game reaches
                # 72 as ouvert (with 1 + game + hand + schneider + announced + schwarz +
                # announced + ouvert = 8 levels × 9; rule book: Ouvert).
                "You bid 40 but Diamonds with 1, after picking up the skat, is worth at most 36 (4 × 9, even with schneider and schwarz); only from the hand is it worth more, up to 72 as Diamonds Ouvert with 1 (8 × 9); declare another suit or grand game or Null Ouvert (46).",
            )
        ],
    ),
    (
        "diamonds-bid-with-cards",
        {
            "game": "diamonds",
            "bid": 40,
            "declarer_cards": cards("JC 7D 8D 9D AS 10S KS QS AH 10H KH QH"),
            "outcome": "won",
        },
        [
            (
                "bid",
                "You bid 40 but Diamonds with 1, after picking up the skat, is worth at most 36 (4 × 9, even with schneider and schwarz); only from the hand is it worth more, up to 72 as Diamonds Ouvert with 1 (8 × 9); declare Hearts (up to 40), Spades (up to 44), Clubs (up to 48), Grand (up to 96) or Null Ouvert (46).",
            )
        ],
    ),
    (
        "nothing-reaches",
        {
            "game": "diamonds",
            "bid": 216,
            "declarer_cards": cards("JD 7D 8D 9D AS 10S KS QS AH 10H KH QH"),
            "outcome": "won",
        },
        [
            (
                "bid",
                # Against 3 + 7 levels = 10 × 9 = 90 at most, even ouvert from the hand.
                "You bid 216 but Diamonds against 3, after picking up the skat, is worth at most 54 (6 × 9, even with schneider and schwarz), and even from the hand at most 90 as Diamonds Ouvert against 3 (10 × 9); no game with these cards reaches it, so the bid cannot be played as declared.",
            )
        ],
    ),
    # Every problem at once, not just the first.
    (
        "many-problems",
        {
            "game": "clubs",
            "bid": 19,
            "announced": "maybe",
            "matadors": Matadors("with", 0),
            "declarer_points": 130,
            "declarer_tricks": 12,
            "re": True,
        },
        [
            (
                "bid",
                "19 is not a legal bid, because no game is worth exactly that; the nearest bids are 18 and 20.",
            ),
            ("announced", '"maybe" is not an announcement; say none, schneider or schwarz.'),
            ("re", "Re answers a Kontra; without Kontra there is no Re."),
            (
                "matadors",
                "Clubs has 11 trumps, so matadors run from 1 to 11; with 0 is not possible.",
            ),
            (
                "declarer_points",
                "Card points run from 0 to 120 (skat included); 130 is not possible.",
            ),
            ("declarer_tricks", "A declarer takes 0 to 10 tricks; 12 is not possible."),
        ],
    ),
    (
        "unknown-game-and-cards",
        {"game": "skat", "bid": 18, "declarer_cards": cards(HAND)[:3], "outcome": "won"},
        [
            (
                "game",
                '"skat" is not a Skat game; choose diamonds, hearts, spades, clubs, grand or null.',
            ),
            (
                "declarer_cards",
                "Give the declarer's 12 cards: the 10 dealt cards and the 2 skat cards (got 3).",
            ),
        ],
    ),
]


@pytest.mark.parametrize(
    ("arguments", "expected"), [pytest.param(a, e, id=i) for i, a, e in REFUSALS]
)
def test_score_game_refuses(arguments, expected):
    with pytest.raises(RuleError) as error:
        score_game(**arguments)
    assert problems_of(error) == expected


# ---------------------------------------------------------------------------
# Tricks


@pytest.mark.parametrize(
    ("game", "played", "winner"),
    [
        # In a suit game a jack is a trump and beats the suit led.
        pytest.param("hearts", "QS JD AS", 1, id="jack-trumps-suit-led"),
        # No trump: the highest card of the suit led; ten beats king.
        pytest.param("spades", "QH AH 10H", 1, id="ace-over-ten"),
        pytest.param("spades", "KH 10H QH", 1, id="ten-over-king"),
        # A card of another suit cannot win.
        pytest.param("spades", "7H AC QH", 2, id="off-suit-cannot-win"),
        # Trump led: the highest trump wins; jacks rank clubs, spades, hearts, diamonds.
        pytest.param("diamonds", "7D AS AH", 0, id="trump-led"),
        pytest.param("clubs", "JD 7C AC", 0, id="jack-over-trump-ace"),
        pytest.param("spades", "AS 10S JH", 2, id="jack-over-ace-of-trumps"),
        # Grand: the four jacks are the only trumps.
        pytest.param("grand", "7H JD JC", 2, id="grand-club-jack-highest"),
        pytest.param("grand", "AH 7C 10H", 0, id="grand-no-trump"),
        pytest.param("grand", "AS JD 10S", 1, id="grand-jack-trumps"),
        # Null: no trumps, the jack ranks between queen and ten.
        pytest.param("null", "10H JH 7H", 1, id="null-jack-over-ten"),
        pytest.param("null", "JC AC KD", 1, id="null-jack-is-a-club"),
        pytest.param("null", "QH KH AS", 1, id="null-king-over-queen"),
    ],
)
def test_trick_winner(game, played, winner):
    assert trick_winner(game=game, cards=cards(played)).winner == winner


def test_trick_explanation():
    result = trick_winner(game="hearts", cards=cards("QS JD AS"))
    assert [s.text for s in result.explanation] == [
        "Q♠ was led: the suit to follow is spades.",
        "Trumps beat every other card; the highest trump, J♦, takes the trick (card 2).",
    ]
    result = trick_winner(game="spades", cards=cards("QH AC 7D"))
    assert [s.text for s in result.explanation] == [
        "Q♥ was led: the suit to follow is hearts.",
        "A♣ 7♦ neither follow hearts nor are trumps, so they cannot take the trick.",
        "The highest of the hearts led, Q♥, takes the trick (card 1).",
    ]
    result = trick_winner(game="grand", cards=cards("JH 7C JC"))
    assert [s.text for s in result.explanation] == [
        "J♥ was led; in Grand every jack is a trump, so trumps were led.",
        "7♣ is not a trump, so it cannot take the trick.",
        "The highest trump, J♣, takes the trick (card 3).",
    ]
    result = trick_winner(game="null", cards=cards("JH 7C 7H"))
    assert [s.text for s in result.explanation] == [
        "J♥ was led: the suit to follow is hearts.",
        "Null has no trumps, and the jack ranks between queen and ten.",
        "7♣ neither follows hearts nor is a trump, so it cannot take the trick.",
        "The highest of the hearts led, J♥, takes the trick (card 1).",
    ]
    result = trick_winner(game="clubs", cards=cards("AC 7H 8H"))
    assert result.explanation[0].text == "A♣ was led: trumps were led."


@pytest.mark.parametrize(
    ("game", "played", "expected"),
    [
        pytest.param(
            "hearts",
            "QS JD",
            [("cards", "A Skat trick is 3 cards, one from each player; got 2.")],
            id="two-cards",
        ),
        pytest.param(
            "hearts",
            "QS JD QS",
            [("cards", "Q♠ is there 2 times, but a Skat deck has only one queen of spades.")],
            id="card-twice",
        ),
        pytest.param(
            "hearts",
            "QS JD 2S",
            [
                (
                    "cards.2",
                    "2♠ is not a Skat card; Skat uses 7, 8, 9, 10, J, Q, K and A of each suit.",
                )
            ],
            id="not-skat",
        ),
        pytest.param(
            "hearts-ish",
            "QS JD",
            [
                (
                    "game",
                    '"hearts-ish" is not a Skat game; choose diamonds, hearts, spades, clubs, grand or null.',
                ),
                ("cards", "A Skat trick is 3 cards, one from each player; got 2."),
            ],
            id="every-problem",
        ),
    ],
)
def test_trick_winner_refuses(game, played, expected):
    with pytest.raises(RuleError) as error:
        trick_winner(game=game, cards=cards(played))
    assert problems_of(error) == expected


# ---------------------------------------------------------------------------
# Following suit


@pytest.mark.parametrize(
    ("game", "led", "hand", "played", "legal"),
    [
        # A jack led in a suit game asks for trumps: a trump must follow.
        pytest.param("diamonds", "JH", "AH 7D 7S", "AH", False, id="suit-jack-led-needs-trump"),
        pytest.param("diamonds", "JH", "AH 7D 7S", "7D", True, id="suit-jack-led-trump-follows"),
        # A jack is no longer part of its printed suit in a suit game.
        pytest.param(
            "diamonds", "AH", "JH 7H 7S", "JH", False, id="suit-jack-does-not-follow-its-suit"
        ),
        pytest.param("diamonds", "AH", "JH 7S", "JH", True, id="suit-no-heart-anything-goes"),
        # Grand: J♣ is a trump and must follow a jack led.
        pytest.param("grand", "JH", "JC AS 7S", "AS", False, id="grand-club-jack-must-follow"),
        pytest.param("grand", "JH", "JC AS", "JC", True, id="grand-jack-follows-jack"),
        pytest.param("grand", "AC", "JC 7S", "7S", True, id="grand-club-jack-is-no-club"),
        pytest.param("grand", "AC", "JC 7C", "JC", False, id="grand-must-play-the-club"),
        # Null: jacks follow their own suit.
        pytest.param("null", "7C", "JC AS", "AS", False, id="null-jack-is-a-club"),
        pytest.param("null", "7C", "JC AS", "JC", True, id="null-jack-follows-clubs"),
        pytest.param("null", "JH", "AH 7S", "7S", False, id="null-jack-led-asks-hearts"),
        pytest.param("null", "JH", "AH 7S", "AH", True, id="null-heart-follows-jack"),
        pytest.param("hearts", "AS", "KS", "KS", True, id="single-card"),
    ],
)
def test_follow_check(game, led, hand, played, legal):
    assert (
        follow_check(game=game, led=card(led), hand=cards(hand), played=card(played)).legal is legal
    )


@pytest.mark.parametrize(
    ("game", "led", "hand", "played", "sentences"),
    [
        pytest.param(
            "grand",
            "JH",
            "JC AS 7S",
            "AS",
            [
                "J♥ was led; in Grand every jack is a trump, so trumps were led.",
                "The hand holds J♣, so it must be played.",
                "A♠ is a spade, not a trump: not allowed.",
            ],
            id="api-example",
        ),
        pytest.param(
            "diamonds",
            "AH",
            "JH 7H 8H",
            "JH",
            [
                "A♥ was led: the suit to follow is hearts.",
                "J♥ does not count as a heart: in Diamonds every jack is a trump.",
                "The hand holds 7♥ 8♥, so one of them must be played.",
                "J♥ is a trump, not a heart: not allowed.",
            ],
            id="jack-is-trump",
        ),
        pytest.param(
            "diamonds",
            "AH",
            "7D 7H",
            "7D",
            [
                "A♥ was led: the suit to follow is hearts.",
                "The hand holds 7♥, so it must be played.",
                "7♦ is a trump, not a heart: not allowed.",
            ],
            id="trump-instead-of-suit",
        ),
        pytest.param(
            "null",
            "JH",
            "AH 7S",
            "7S",
            [
                "J♥ was led: the suit to follow is hearts.",
                "Null has no trumps: a jack belongs to its printed suit.",
                "The hand holds A♥, so it must be played.",
                "7♠ is a spade, not a heart: not allowed.",
            ],
            id="null-jack",
        ),
        pytest.param(
            "hearts",
            "AS",
            "7H 8C",
            "8C",
            [
                "A♠ was led: the suit to follow is spades.",
                "The hand holds no spade, so any card may be played: 8♣ is allowed.",
            ],
            id="cannot-follow",
        ),
        pytest.param(
            "grand",
            "AC",
            "JC 7S",
            "7S",
            [
                "A♣ was led: the suit to follow is clubs.",
                "J♣ does not count as a club: in Grand every jack is a trump.",
                "The hand holds no club, so any card may be played: 7♠ is allowed.",
            ],
            id="grand-club-jack-is-no-club",
        ),
        pytest.param(
            "hearts",
            "AS",
            "7S 8C",
            "7S",
            [
                "A♠ was led: the suit to follow is spades.",
                "The hand holds 7♠, so it must be played.",
                "7♠ follows: allowed.",
            ],
            id="follows",
        ),
    ],
)
def test_follow_explanation(game, led, hand, played, sentences):
    result = follow_check(game=game, led=card(led), hand=cards(hand), played=card(played))
    assert [s.text for s in result.explanation] == sentences


@pytest.mark.parametrize(
    ("led", "hand", "played", "expected"),
    [
        pytest.param(
            "AS",
            "7H 8C",
            "9C",
            [("played", "9♣ is not in the hand (7♥ 8♣).")],
            id="played-not-in-hand",
        ),
        pytest.param(
            "AS",
            "AS 8C",
            "8C",
            [("led", "A♠ was led by another player, so it cannot also be in this hand.")],
            id="led-in-hand",
        ),
        pytest.param(
            "AS",
            "8C 8C",
            "8C",
            [("hand", "8♣ is there 2 times, but a Skat deck has only one eight of clubs.")],
            id="hand-card-twice",
        ),
        pytest.param(
            "AS",
            "",
            "8C",
            [
                ("hand", "A Skat hand holds 1 to 10 cards; got 0."),
                ("played", "8♣ is not in the hand: the hand is empty."),
            ],
            id="empty-hand",
        ),
        pytest.param(
            "AS",
            "7C 8C 9C 10C JC QC KC AC 7H 8H 9H",
            "8C",
            [("hand", "A Skat hand holds 1 to 10 cards; got 11.")],
            id="eleven-cards",
        ),
        pytest.param(
            "2S",
            "2C 8C",
            "2C",
            [
                (
                    "led",
                    "2♠ is not a Skat card; Skat uses 7, 8, 9, 10, J, Q, K and A of each suit.",
                ),
                (
                    "played",
                    "2♣ is not a Skat card; Skat uses 7, 8, 9, 10, J, Q, K and A of each suit.",
                ),
                (
                    "hand.0",
                    "2♣ is not a Skat card; Skat uses 7, 8, 9, 10, J, Q, K and A of each suit.",
                ),
            ],
            id="not-skat-cards",
        ),
    ],
)
def test_follow_check_refuses(led, hand, played, expected):
    with pytest.raises(RuleError) as error:
        follow_check(game="hearts", led=card(led), hand=cards(hand), played=card(played))
    assert problems_of(error) == expected


def test_follow_check_refuses_unknown_game():
    with pytest.raises(RuleError) as error:
        follow_check(game="ramsch", led=card("AS"), hand=cards("7S"), played=card("7S"))
    assert [p.field for p in error.value.problems] == ["game"]


# ---------------------------------------------------------------------------
# Bidding

M, F, R = "middlehand", "forehand", "rearhand"

BIDDINGS = [
    # Everyone passes: the deal is thrown in.
    ("all-pass", [(M, "pass"), (R, "pass"), (F, "pass")], (None, None, True)),
    # Middlehand and rearhand pass: forehand may play at 18.
    ("forehand-plays-18", [(M, "pass"), (R, "pass"), (F, 18)], (F, 18, False)),
    ("forehand-plays-more", [(M, "pass"), (R, "pass"), (F, 20)], (F, 20, False)),
    # Middlehand bids to forehand, who holds or passes.
    ("middlehand-wins", [(M, 18), (F, "yes"), (M, 20), (F, "pass"), (R, "pass")], (M, 20, False)),
    ("forehand-holds", [(M, 18), (F, "yes"), (M, "pass"), (R, "pass")], (F, 18, False)),
    # The survivor then hears rearhand.
    (
        "rearhand-wins",
        [(M, 18), (F, "pass"), (R, 20), (M, "yes"), (R, 22), (M, "pass")],
        (R, 22, False),
    ),
    ("rearhand-to-forehand", [(M, "pass"), (R, 18), (F, "yes"), (R, "pass")], (F, 18, False)),
    ("rearhand-jumps", [(M, "pass"), (R, 30), (F, "pass")], (R, 30, False)),
    ("survivor-holds", [(M, 18), (F, "pass"), (R, 20), (M, "yes"), (R, "pass")], (M, 20, False)),
]


@pytest.mark.parametrize(("calls", "expected"), [pytest.param(c, e, id=i) for i, c, e in BIDDINGS])
def test_check_bidding(calls, expected):
    result = check_bidding(calls=calls)
    assert (result.declarer, result.bid, result.passed_out) == expected


def test_bidding_explanation():
    result = check_bidding(calls=[(M, 18), (F, "pass"), (R, 20), (M, "yes"), (R, 22), (M, "pass")])
    assert [s.text for s in result.explanation] == [
        "Middlehand bids 18 to forehand.",
        "Forehand passes.",
        "Middlehand stays in at 18; rearhand bids to middlehand next.",
        "Rearhand bids 20 to middlehand.",
        "Middlehand holds 20.",
        "Rearhand bids 22 to middlehand.",
        "Middlehand passes.",
        "Rearhand is declarer at 22.",
    ]
    result = check_bidding(calls=[(M, "pass"), (R, "pass"), (F, "pass")])
    assert [s.text for s in result.explanation] == [
        "Middlehand passes.",
        "Forehand stays in; rearhand bids to forehand next.",
        "Rearhand passes.",
        "Middlehand and rearhand passed without a bid: forehand may play at 18 or more, or pass.",
        "Forehand passes too: all three passed, the deal is thrown in.",
    ]
    result = check_bidding(calls=[(M, "pass"), (R, "pass"), (F, 18)])
    assert result.explanation[-1].text == "Forehand bids 18 and is declarer."


BAD_BIDDINGS = [
    # Middlehand speaks first.
    (
        "forehand-first",
        [(F, 18)],
        [
            (
                "calls.0",
                "It is middlehand to bid 18 or more to forehand, or pass; forehand spoke out of turn.",
            )
        ],
    ),
    # The one bid to answers yes or pass, never a number.
    (
        "holder-names-number",
        [(M, 18), (F, 20)],
        [
            (
                "calls.1",
                "Forehand answers middlehand's 18 with yes or pass; only middlehand names numbers here.",
            )
        ],
    ),
    # Each bid must be higher than the last.
    (
        "bid-not-higher",
        [(M, 20), (F, "yes"), (M, 18)],
        [("calls.2", "Middlehand bid 18, but the bid already stands at 20; bid more or pass.")],
    ),
    (
        "bid-equal",
        [(M, 18), (F, "pass"), (R, 18)],
        [("calls.2", "Rearhand bid 18, but the bid already stands at 18; bid more or pass.")],
    ),
    # Only legal bids.
    (
        "bid-not-legal",
        [(M, 19)],
        [
            (
                "calls.0",
                "19 is not a legal bid, because no game is worth exactly that; the nearest bids are 18 and 20.",
            )
        ],
    ),
    (
        "bidder-says-yes",
        [(M, "yes")],
        [
            (
                "calls.0",
                "Middlehand is the one bidding here: name a bid or pass; yes is the answer to a bid.",
            )
        ],
    ),
    (
        "forehand-alone-says-yes",
        [(M, "pass"), (R, "pass"), (F, "yes")],
        [
            (
                "calls.2",
                "Forehand is the one bidding here: name a bid or pass; yes is the answer to a bid.",
            )
        ],
    ),
    # A pass is final.
    (
        "pass-is-final",
        [(M, "pass"), (R, "pass"), (M, 18)],
        [
            (
                "calls.2",
                "Middlehand already passed, and a pass is final; it is forehand to bid 18 or more, or pass.",
            )
        ],
    ),
    (
        "no-calls-after-the-end",
        [(M, "pass"), (R, "pass"), (F, "pass"), (R, 18)],
        [("calls.3", "The bidding was already over; no more calls belong here.")],
    ),
    (
        "out-of-turn-in-answer",
        [(M, 18), (R, "yes")],
        [
            (
                "calls.1",
                "It is forehand to answer middlehand's 18 with yes or pass; rearhand spoke out of turn.",
            )
        ],
    ),
    (
        "out-of-turn-rising",
        [(M, 18), (F, "yes"), (R, 20)],
        [
            (
                "calls.2",
                "It is middlehand to bid more than 18 to forehand, or pass; rearhand spoke out of turn.",
            )
        ],
    ),
    # The bidding must be finished.
    (
        "unfinished",
        [(M, 18)],
        [
            (
                "calls",
                "The bidding is not finished: it is forehand to answer middlehand's 18 with yes or pass.",
            )
        ],
    ),
    (
        "empty",
        [],
        [
            (
                "calls",
                "The bidding is not finished: it is middlehand to bid 18 or more to forehand, or pass.",
            )
        ],
    ),
    # Calls that cannot be read.
    (
        "unknown-seat",
        [("dealer", 18)],
        [("calls.0", '"dealer" is not a seat; use forehand, middlehand or rearhand.')],
    ),
    (
        "not-a-pair",
        ["18"],
        [
            (
                "calls.0",
                'Each call is a pair: a position and what was said, like ["middlehand", 18].',
            )
        ],
    ),
    ("bool-call", [(M, True)], [("calls.0", 'A call is a bid (a number), "yes" or "pass".')]),
    (
        "word-call",
        [(M, "hold")],
        [("calls.0", '"hold" is not a call; say a bid (a number), "yes" or "pass".')],
    ),
    # Every problem: each unreadable call, and the first call out of order.
    (
        "every-problem",
        [(M, 19), ("dealer", "pass"), (F, "yes")],
        [
            (
                "calls.0",
                "19 is not a legal bid, because no game is worth exactly that; the nearest bids are 18 and 20.",
            ),
            ("calls.1", '"dealer" is not a seat; use forehand, middlehand or rearhand.'),
        ],
    ),
]


@pytest.mark.parametrize(
    ("calls", "expected"), [pytest.param(c, e, id=i) for i, c, e in BAD_BIDDINGS]
)
def test_check_bidding_refuses(calls, expected):
    with pytest.raises(RuleError) as error:
        check_bidding(calls=calls)
    assert problems_of(error) == expected


# ---------------------------------------------------------------------------
# The rule book


def test_every_explanation_cites_a_rule_book_section():
    # Every Step.rule is an anchor of the rule book.
    steps = []
    for _, arguments, _ in SCORES:
        steps.extend(score_game(**arguments).explanation)
    for game, played, _ in [
        ("hearts", "QS JD AS", 1),
        ("null", "JH 7C 7H", 0),
        ("spades", "QH AC 7D", 0),
    ]:
        steps.extend(trick_winner(game=game, cards=cards(played)).explanation)
    for game, led, hand, played in [("grand", "JH", "JC AS", "AS"), ("hearts", "AS", "7H", "7H")]:
        steps.extend(
            follow_check(
                game=game, led=card(led), hand=cards(hand), played=card(played)
            ).explanation
        )
    for _, calls, _ in BIDDINGS:
        steps.extend(check_bidding(calls=calls).explanation)
    steps.extend(
        score_game(game="grand", bid=18, declarer_cards=cards(HAND), outcome="won").explanation
    )
    assert steps
    assert {s.rule for s in steps} <= set(RULE_SECTIONS)
    assert all(key.startswith("skat-") for key in RULE_SECTIONS)


@pytest.mark.parametrize(
    ("request_", "value", "score"),
    [
        # The case: Spades Hand "with 1" after 72; a top trump lay in the skat.
        # Worth (1 + game + hand) × 11 = 33 < 72: lost at the next multiple of 11 that
        # reaches 72, 7 × 11 = 77, doubled as every loss.
        ({"game": "spades", "hand": True, "bid": 72, "matadors": {"with": 1}}, 77, -154),
        # Diamonds Hand "with 1" after 60: 3 × 9 = 27 < 60, lost at 7 × 9 = 63.
        ({"game": "diamonds", "hand": True, "bid": 60, "matadors": {"with": 1}}, 63, -126),
        # Grand Ouvert (always hand) "with 1" after 264: 8 × 24 = 192 < 264 = 11 × 24.
        (
            {"game": "grand", "hand": True, "ouvert": True, "bid": 264, "matadors": {"with": 1}},
            264,
            -528,
        ),
    ],
)
def test_a_hand_game_short_of_its_bid_is_lost_as_overbid_not_refused(request_, value, score):
    # ISkO 5.4.2: a hand game is declared without seeing the skat, and the skat's
    # cards count for the matadors; when the final value falls short of the bid the
    # game is lost as overbid (at the next multiple of the base value that reaches the
    # bid), not refused as a declaration that could never reach it.
    data = dict(request_)
    data["matadors"] = Matadors("with", data["matadors"]["with"])
    result = score_game(**data, outcome="won_schwarz" if data.get("ouvert") else "won")
    assert result.won is False
    assert result.overbid is True
    assert result.game_value == value
    assert result.score == score


@pytest.mark.parametrize(
    ("declared", "bid", "most", "alternative"),
    [
        # Diamonds Hand, nothing announced: at most (11 + game + hand + schneider +
        # schwarz) × 9 = 15 × 9 = 135, whatever the skat holds (audit of stop 33: it was
        # scored as overbid at 270, above any game the list has, and the sheet then
        # refused its own value).
        ({"game": "diamonds"}, 264, 135, "declare another suit or grand game"),
        (
            {"game": "diamonds"},
            140,
            135,
            "declare Diamonds Hand, schneider announced (up to 144) or another suit or grand game",
        ),
        # Grand Hand: at most (4 + 4) × 24 = 192; announced schwarz reaches 240.
        (
            {"game": "grand"},
            240,
            192,
            "declare Grand Hand, schwarz announced (up to 240) or another suit or grand game",
        ),
        # Hearts Ouvert (hand, schwarz announced): at most (11 + 7) × 10 = 180.
        ({"game": "hearts", "ouvert": True}, 264, 180, "declare another suit or grand game"),
    ],
)
def test_a_hand_game_no_cards_could_lift_to_its_bid_is_refused(declared, bid, most, alternative):
    # Skat rules, "Overbidding": a declaration whose maximum possible value is below the
    # bid is not a legal declaration (the opponents must refuse it). From the hand the
    # skat may still add matadors, so the most is counted with every trump: 11, or 4 in
    # a grand.
    with pytest.raises(RuleError) as caught:
        score_game(**declared, hand=True, bid=bid, matadors=WITH_1, outcome="won_schwarz")
    [(field, message)] = problems_of(caught)
    assert field == "bid"
    assert f"is worth at most {most} with any cards" in message
    assert message.endswith(f"; {alternative}.")


def test_a_hand_game_at_exactly_its_most_is_played_and_lost_as_overbid():
    # Diamonds Hand after 135 (15 × 9, reachable with 11 matadors): "with 1" and won
    # plainly is worth 3 × 9 = 27, lost at 15 × 9 = 135 (Skat rules, "Overbidding").
    result = score_game(game="diamonds", hand=True, bid=135, matadors=WITH_1, outcome="won")
    assert (result.won, result.overbid, result.game_value, result.score) == (
        False,
        True,
        135,
        -270,
    )


# Card points that leave no doubt about schwarz need no tricks (rule book: Schwarz: one
# side took no trick; the skat alone holds at most 22 card points, and the opponents'
# card points come only from tricks).
@pytest.mark.parametrize(
    ("points", "won", "score", "schneider"),
    [(60, False, -48, False), (61, True, 24, False), (90, True, 36, True), (23, False, -72, True)],
)
def test_card_points_alone_are_enough_when_they_rule_out_schwarz(points, won, score, schneider):
    # Clubs with 1: (1 + 1 game) × 12 = 24; schneider adds a level: 36 (ISkO game value).
    result = score_game(game="clubs", bid=18, matadors=WITH_1, declarer_points=points)
    assert (result.won, result.score, result.schneider, result.schwarz) == (
        won,
        score,
        schneider,
        False,
    )
    assert result.declarer_tricks is None


@pytest.mark.parametrize("points", [0, 22, 120])
def test_card_points_that_leave_schwarz_open_need_the_tricks(points):
    with pytest.raises(RuleError) as caught:
        score_game(game="clubs", bid=18, matadors=WITH_1, declarer_points=points)
    assert [p.field for p in caught.value.problems] == ["declarer_tricks"]


def test_a_suit_game_with_1_is_worth_up_to_72_from_the_hand_and_the_referee_says_so():
    # Rule book, Game value of suit and grand games: ouvert counts as schwarz announced
    # and needs a hand game, so Diamonds Ouvert with 1 counts with 1 + game + hand +
    # schneider + schneider announced + schwarz + schwarz announced + ouvert = 8 levels,
    # 8 × 9 = 72; after picking up the skat the same matadors reach only 4 × 9 = 36.
    won = score_game(
        game="diamonds", bid=72, hand=True, ouvert=True, matadors=WITH_1, outcome="won_schwarz"
    )
    assert won.score == 72
    with pytest.raises(RuleError) as caught:
        score_game(game="diamonds", bid=72, matadors=WITH_1, outcome="won")
    (problem,) = caught.value.problems
    assert problem.field == "bid"
    assert "after picking up the skat, is worth at most 36" in problem.message
    assert "up to 72 as Diamonds Ouvert with 1 (8 × 9)" in problem.message
