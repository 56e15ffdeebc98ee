"""How high may I bid? Each case names the rule it checks; the numbers are worked by hand.

A suit or grand game is worth its base value (♦ 9, ♥ 10, ♠ 11, ♣ 12, Grand 24) times
its levels: the matadors, 1 for the game, 1 for hand, and the announced levels. The
matadors count the two skat cards too, which nobody sees while bidding, so the safe
bid is the value of the worst of the 231 skats the 22 unseen cards can make.
"""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import skat
from games.rules.cards import SKAT_DECK, Card, card
from games.rules.errors import RuleError
from games.rules.skat_bidding import POSSIBLE_SKATS, RULE_SECTIONS, BidLimit, bid_limit


def cards(text: str) -> list[Card]:
    return [card(code) for code in text.split()]


def problems_of(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str | None, str]]:
    return [(p.field, p.message) for p in error.value.problems]


def case_table(limit: BidLimit) -> list[tuple[str, int, int, str, str]]:
    """Each skat case as (matadors, value, how many skats, must hold, must not hold)."""
    return [
        (
            case.matadors.label,
            case.value,
            case.skats,
            " ".join(c.label for c in case.in_skat),
            " ".join(c.label for c in case.not_in_skat),
        )
        for case in limit.by_skat
    ]


# Hands used below. Each is 10 cards; what matters is which trumps they hold.
SPADE_AND_HEART_JACKS = "JS JH AC 10C KC AS 10S 7H 8H 9D"  # no J♣, no J♦
HEART_JACK_ONLY = "JH AH 10H KH QH 7C 8C 9S AD 7D"  # J♥ is the only jack
CLUB_AND_SPADE_JACKS = "JC JS AC 10C KC AS 10S 7H 8H 9D"  # J♣ J♠, then J♥ missing
LOW_DIAMOND_ONLY = "7D AC 10C KC AS 10S 7H 8H 9H QS"  # 7♦ is the only diamond, no jack
NO_JACKS = "AC 10C KC AS 10S KS AH 10H KH AD"
FOUR_JACKS_AND_ACE = "JC JS JH JD AS KS QS 9S AH 7D"  # with 5 in spades, 10♠ missing
ALL_JACKS = "JC JS JH JD AC 10C KC AS 10S 7H"


# ---------------------------------------------------------------------------
# The safe bid of a suit or grand game


@pytest.mark.parametrize(
    ("arguments", "safe_bid", "best", "matadors", "levels"),
    [
        # Matadors: without J♣ the count is "against" the trumps missing above the highest
        # one held; J♠ held, J♣ missing: against 1, Grand 2 × 24 = 48.
        pytest.param(
            {"game": "grand", "cards": SPADE_AND_HEART_JACKS},
            48,
            120,
            "against 1",
            (("against 1", 1), ("game", 1)),
            id="grand-against-1-is-48",
        ),
        # Hand games count one level more: 3 × 24 = 72.
        pytest.param(
            {"game": "grand", "cards": SPADE_AND_HEART_JACKS, "hand": True},
            72,
            144,
            "against 1",
            (("against 1", 1), ("game", 1), ("hand", 1)),
            id="grand-hand-against-1-is-72",
        ),
        # Matadors with the skat: J♥ alone is "against 2" (30), but J♣ in the skat makes
        # it "with 1" and J♠ "against 1": both 2 × 10 = 20, the safe bid.
        pytest.param(
            {"game": "hearts", "cards": HEART_JACK_ONLY},
            20,
            40,
            "with 1",
            (("with 1", 1), ("game", 1)),
            id="hearts-against-2-can-drop-to-20",
        ),
        # Announcing schneider in a hand game counts schneider and its announcement for
        # certain: with 2 + game + hand + 2 = 6 × 12 = 72.
        pytest.param(
            {
                "game": "clubs",
                "cards": CLUB_AND_SPADE_JACKS,
                "hand": True,
                "announced": "schneider",
            },
            72,
            132,
            "with 2",
            (
                ("with 2", 2),
                ("game", 1),
                ("hand", 1),
                ("schneider", 1),
                ("schneider announced", 1),
            ),
            id="clubs-hand-schneider-announced-72",
        ),
        # Schwarz announced counts schneider, schwarz and both announcements: 8 × 24 = 192.
        pytest.param(
            {
                "game": "grand",
                "cards": CLUB_AND_SPADE_JACKS,
                "hand": True,
                "announced": "schwarz",
            },
            192,
            240,
            "with 2",
            (
                ("with 2", 2),
                ("game", 1),
                ("hand", 1),
                ("schneider", 1),
                ("schneider announced", 1),
                ("schwarz", 1),
                ("schwarz announced", 1),
            ),
            id="grand-hand-schwarz-announced-192",
        ),
        # The lowest game of all: Diamonds with 1 is 2 × 9 = 18; a lone 7♦ is "against 10"
        # (99) only while no jack turns up in the skat.
        pytest.param(
            {"game": "diamonds", "cards": LOW_DIAMOND_ONLY},
            18,
            99,
            "with 1",
            (("with 1", 1), ("game", 1)),
            id="diamonds-lone-seven-only-18",
        ),
        # Grand without a jack is "against 4" (5 × 24 = 120 hand: 6 × 24 = 144) unless the
        # skat holds J♣ or J♠: then 3 × 24 = 72 in hand.
        pytest.param(
            {"game": "grand", "cards": NO_JACKS, "hand": True},
            72,
            144,
            "with 1",
            (("with 1", 1), ("game", 1), ("hand", 1)),
            id="grand-hand-without-jacks-72",
        ),
        # With 5 in spades (four jacks and A♠): 6 × 11 = 66; 10♠ in the skat would make
        # it with 9.
        pytest.param(
            {"game": "spades", "cards": FOUR_JACKS_AND_ACE},
            66,
            121,
            "with 5",
            (("with 5", 5), ("game", 1)),
            id="spades-with-5-is-66",
        ),
        # Ouvert: the highest game, Grand Ouvert with 4, 11 × 24 = 264.
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS, "hand": True, "ouvert": True},
            264,
            264,
            "with 4",
            (
                ("with 4", 4),
                ("game", 1),
                ("hand", 1),
                ("schneider", 1),
                ("schneider announced", 1),
                ("schwarz", 1),
                ("schwarz announced", 1),
                ("ouvert", 1),
            ),
            id="grand-ouvert-with-4-is-264",
        ),
    ],
)
def test_safe_bid_is_the_value_of_the_worst_skat(arguments, safe_bid, best, matadors, levels):
    limit = bid_limit(**{**arguments, "cards": cards(arguments["cards"])})
    assert limit.safe_bid == safe_bid
    assert limit.safe_value == safe_bid
    assert limit.best_value == best
    assert limit.matadors is not None
    assert limit.matadors.label == matadors
    assert limit.levels == levels
    assert limit.multiplier == sum(count for _, count in levels)
    assert limit.base_value * limit.multiplier == safe_bid
    assert sum(case.skats for case in limit.by_skat) == POSSIBLE_SKATS == 231


@pytest.mark.parametrize(
    ("arguments", "table"),
    [
        # Matadors: the J♣ in the skat turns "against 1" into "with 3" (J♣ J♠ J♥), and
        # with J♦ as the other skat card into "with 4". 210 + 20 + 1 = 231 skats.
        pytest.param(
            {"game": "grand", "cards": SPADE_AND_HEART_JACKS},
            [
                ("against 1", 48, 210, "", "J♣"),
                ("with 3", 96, 20, "J♣", "J♦"),
                ("with 4", 120, 1, "J♣ J♦", ""),
            ],
            id="grand-club-jack-in-skat",
        ),
        # Matadors "against": a higher jack in the skat lowers the count; J♣ there flips
        # it to "with 1".
        pytest.param(
            {"game": "hearts", "cards": HEART_JACK_ONLY},
            [
                ("against 2", 30, 190, "", "J♣ J♠"),
                ("with 1", 20, 20, "J♣", "J♠"),
                ("with 3", 40, 1, "J♣ J♠", ""),
                ("against 1", 20, 20, "J♠", "J♣"),
            ],
            id="hearts-higher-jacks-in-skat",
        ),
        # Matadors "with": the run continues through the skat; 10♠ and 8♠ together give
        # with 10 (J♣ … 9♠ 8♠, then 7♠ missing).
        pytest.param(
            {"game": "spades", "cards": FOUR_JACKS_AND_ACE},
            [
                ("with 5", 66, 210, "", "10♠"),
                ("with 9", 110, 20, "10♠", "8♠"),
                ("with 10", 121, 1, "10♠ 8♠", ""),
            ],
            id="spades-run-through-the-skat",
        ),
        # Grand has only the four jacks as trumps: without any, every jack in the skat
        # changes the count. 153 + 20 + 1 + 20 + 19 + 18 = 231.
        pytest.param(
            {"game": "grand", "cards": NO_JACKS},
            [
                ("against 4", 120, 153, "", "J♣ J♠ J♥ J♦"),
                ("with 1", 48, 20, "J♣", "J♠"),
                ("with 2", 72, 1, "J♣ J♠", ""),
                ("against 1", 48, 20, "J♠", "J♣"),
                ("against 2", 72, 19, "J♥", "J♣ J♠"),
                ("against 3", 96, 18, "J♦", "J♣ J♠ J♥"),
            ],
            id="grand-without-jacks",
        ),
        # Holding every trump of Grand, no skat can change anything.
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS},
            [("with 4", 120, 231, "", "")],
            id="grand-all-jacks",
        ),
    ],
)
def test_each_skat_case_says_which_trumps_change_the_count(arguments, table):
    limit = bid_limit(**{**arguments, "cards": cards(arguments["cards"])})
    assert case_table(limit) == table


@pytest.mark.parametrize(
    ("arguments", "conditions"),
    [
        # Matadors: the conditions a player checks against the skat once it is seen.
        pytest.param(
            {"game": "grand", "cards": SPADE_AND_HEART_JACKS},
            [
                "If the skat holds no J♣",
                "If the skat holds J♣ but no J♦",
                "If the skat is J♣ and J♦",
            ],
            id="grand",
        ),
        pytest.param(
            {"game": "grand", "cards": NO_JACKS},
            [
                "If the skat holds no trump at all",
                "If the skat holds J♣ but no J♠",
                "If the skat is J♣ and J♠",
                "If the skat holds J♠ but no J♣",
                "If the skat holds J♥ but neither J♣ nor J♠",
                "If the skat holds J♦ but no higher trump",
            ],
            id="grand-no-trump",
        ),
        pytest.param(
            {"game": "diamonds", "cards": LOW_DIAMOND_ONLY},
            [
                "If the skat holds no trump above 7♦",
                "If the skat holds J♣ but no J♠",
                "If the skat is J♣ and J♠",
                "If the skat holds J♠ but no J♣",
                "If the skat holds J♥ but neither J♣ nor J♠",
                "If the skat holds J♦ but no higher trump",
                "If the skat holds A♦ but no higher trump",
                "If the skat holds 10♦ but no higher trump",
                "If the skat holds K♦ but no higher trump",
                "If the skat holds Q♦ but no higher trump",
                "If the skat holds 9♦ but no higher trump",
                "If the skat holds 8♦ but no higher trump",
            ],
            id="diamonds-lone-seven",
        ),
        # Matadors "with 10": only the last trump, 7♠, is left to find in the skat.
        pytest.param(
            {"game": "spades", "cards": "JC JS JH JD AS 10S KS QS 9S 8S"},
            ["If the skat holds no 7♠", "If the skat holds 7♠"],
            id="spades-with-10",
        ),
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS},
            ["Whatever the skat holds"],
            id="nothing-to-find",
        ),
    ],
)
def test_skat_cases_are_told_in_words(arguments, conditions):
    limit = bid_limit(**{**arguments, "cards": cards(arguments["cards"])})
    assert [case.condition for case in limit.by_skat] == conditions


def test_explanation_walks_from_the_cards_to_the_safe_bid():
    # Matadors count the skat; the safe bid is the worst skat's value (Grand against 1: 48).
    limit = bid_limit(game="grand", cards=cards(SPADE_AND_HEART_JACKS), hand=True)
    assert [(step.text, step.rule) for step in limit.explanation] == [
        ("Grand Hand: Grand counts 24 a level.", "skat-game-value"),
        (
            "Matadors count your 10 cards and the 2 skat cards, even in a hand game; while you "
            "bid, the skat can be any 2 of the 22 cards you cannot see: 231 possible skats.",
            "skat-matadors",
        ),
        ("Your 10 cards miss J♣; your highest trump is J♠.", "skat-matadors"),
        (
            "If the skat holds no J♣: against 1, worth 3 × 24 = 72 (210 of the 231 possible skats).",
            "skat-matadors",
        ),
        (
            "If the skat holds J♣ but no J♦: with 3, worth 5 × 24 = 120 "
            "(20 of the 231 possible skats).",
            "skat-matadors",
        ),
        (
            "If the skat is J♣ and J♦: with 4, worth 6 × 24 = 144 (1 of the 231 possible skats).",
            "skat-matadors",
        ),
        (
            "The worst case is against 1: against 1 (1) + game (1) + hand (1) = 3 levels.",
            "skat-levels",
        ),
        ("3 × 24 = 72: the least this declaration is worth with these cards.", "skat-game-value"),
        (
            "You can safely bid up to 72: whatever the skat holds, the game reaches it.",
            "skat-bids",
        ),
        (
            "A helpful skat makes it worth up to 144; above 72 you need that skat or schneider "
            "or schwarz, which nobody can promise before the play, or the game is overbid and lost.",
            "skat-overbid",
        ),
    ]


@pytest.mark.parametrize(
    ("arguments", "line"),
    [
        # Matadors: two skats give the same lowest value, "with 1" and "against 1".
        pytest.param(
            {"game": "hearts", "cards": HEART_JACK_ONLY},
            "The worst cases, with 1 and against 1, count the same: with 1 (1) + game (1) = 2 levels.",
            id="tie-for-worst",
        ),
        # Levels: one case only, nothing to compare.
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS},
            "Levels: with 4 (4) + game (1) = 5 levels.",
            id="one-case",
        ),
    ],
)
def test_levels_line_names_the_worst_case(arguments, line):
    limit = bid_limit(**{**arguments, "cards": cards(arguments["cards"])})
    assert line in [step.text for step in limit.explanation]


@pytest.mark.parametrize(
    ("arguments", "rule", "text"),
    [
        # Overbidding: nothing the skat can add, so only schneider or schwarz raise the value.
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS},
            "skat-overbid",
            "The skat cannot add matadors: above 120 you need schneider or schwarz, which "
            "nobody can promise before the play, or the game is overbid and lost.",
            id="skat-cannot-help",
        ),
        # Announcing schneider: only schwarz is left to add a level.
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS, "hand": True, "announced": "schneider"},
            "skat-overbid",
            "The skat cannot add matadors: above 192 you need schwarz, which nobody can "
            "promise before the play, or the game is overbid and lost.",
            id="schneider-announced",
        ),
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS, "hand": True, "announced": "schneider"},
            "skat-announcements",
            "Schneider is announced: schneider and its announcement count for certain, since "
            "the game is lost without them.",
            id="schneider-announced-counts",
        ),
        # Announcing schwarz counts every level but ouvert: the skat is the only hope above.
        pytest.param(
            {"game": "grand", "cards": CLUB_AND_SPADE_JACKS, "hand": True, "announced": "schwarz"},
            "skat-overbid",
            "A helpful skat makes it worth up to 240; every other level already counts, so "
            "above 192 only that skat saves the game from being overbid and lost.",
            id="schwarz-announced-skat-helps",
        ),
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS, "hand": True, "announced": "schwarz"},
            "skat-overbid",
            "Every level already counts and the skat cannot add matadors: a bid above 240 "
            "would be overbid.",
            id="schwarz-announced-nothing-left",
        ),
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS, "hand": True, "announced": "schwarz"},
            "skat-announcements",
            "Schwarz is announced: schneider, schwarz and both announcements count for certain, "
            "since the game is lost without them.",
            id="schwarz-announced-counts",
        ),
        # Ouvert counts as schwarz announced.
        pytest.param(
            {"game": "clubs", "cards": CLUB_AND_SPADE_JACKS, "hand": True, "ouvert": True},
            "skat-ouvert",
            "An open game counts as schwarz announced: schneider, schwarz, both announcements "
            "and ouvert all count, since the game is lost without them.",
            id="ouvert-counts-schwarz-announced",
        ),
        # Grand Ouvert with 4 is the highest game there is.
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS, "hand": True, "ouvert": True},
            "skat-overbid",
            "No game is worth more and no bid is higher than 264.",
            id="highest-game",
        ),
        # Matadors: the run of trumps held from the top.
        pytest.param(
            {"game": "clubs", "cards": CLUB_AND_SPADE_JACKS},
            "skat-matadors",
            "Your 10 cards hold J♣ J♠ from the top and miss J♥.",
            id="own-run",
        ),
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS},
            "skat-matadors",
            "Your 10 cards hold every trump of Grand.",
            id="own-every-trump",
        ),
        pytest.param(
            {"game": "grand", "cards": NO_JACKS},
            "skat-matadors",
            "Your 10 cards hold no trump of Grand.",
            id="own-no-trump",
        ),
    ],
)
def test_explanation_lines(arguments, rule, text):
    limit = bid_limit(**{**arguments, "cards": cards(arguments["cards"])})
    assert (text, rule) in [(step.text, step.rule) for step in limit.explanation]


# ---------------------------------------------------------------------------
# Null


@pytest.mark.parametrize(
    ("hand", "ouvert", "value", "contract"),
    [
        # Null values are fixed: 23, hand 35, ouvert 46, ouvert hand 59.
        pytest.param(False, False, 23, "Null", id="null-23"),
        pytest.param(True, False, 35, "Null Hand", id="null-hand-35"),
        pytest.param(False, True, 46, "Null Ouvert", id="null-ouvert-46"),
        pytest.param(True, True, 59, "Null Ouvert Hand", id="null-ouvert-hand-59"),
    ],
)
def test_null_bids_up_to_its_fixed_value(hand, ouvert, value, contract):
    limit = bid_limit(game="null", cards=cards(NO_JACKS), hand=hand, ouvert=ouvert)
    assert (limit.contract, limit.safe_bid, limit.safe_value, limit.best_value) == (
        contract,
        value,
        value,
        value,
    )
    assert (limit.matadors, limit.multiplier, limit.levels, limit.by_skat) == (None, None, (), ())
    assert [(step.text, step.rule) for step in limit.explanation] == [
        (
            f"{contract} has a fixed value of {value}: no matadors and no levels, so neither "
            "your cards nor the skat change it.",
            "skat-null",
        ),
        (f"You can safely bid up to {value}.", "skat-bids"),
    ]


# ---------------------------------------------------------------------------
# Wrong input


@pytest.mark.parametrize(
    ("arguments", "problems"),
    [
        # The hand you bid with is 10 cards; the skat is not known yet.
        pytest.param(
            {"game": "grand", "cards": cards("JS JH AC 10C KC AS 10S 7H 8H")},
            [("cards", "Give the 10 cards you were dealt, the hand you bid with; you gave 9.")],
            id="nine-cards",
        ),
        pytest.param(
            {"game": "grand", "cards": cards(SPADE_AND_HEART_JACKS + " 7D 8D")},
            [
                (
                    "cards",
                    "Give the 10 cards you were dealt, the hand you bid with; you gave 12. "
                    "Leave the skat out: nobody knows it while bidding.",
                )
            ],
            id="skat-included",
        ),
        # Cards: one deck, every card once.
        pytest.param(
            {"game": "grand", "cards": cards("JS JH AC 10C KC AS 10S 7H 8H JS")},
            [("cards", "J♠ is there 2 times, but a Skat deck has only one jack of spades.")],
            id="card-twice",
        ),
        pytest.param(
            {"game": "clubs", "cards": [*cards("JS JH AC 10C KC AS 10S 7H 8H"), Card("2", "C")]},
            [
                (
                    "cards.9",
                    "2♣ is not a Skat card; Skat uses 7, 8, 9, 10, J, Q, K and A of each suit.",
                )
            ],
            id="not-a-skat-card",
        ),
        # Games: diamonds, hearts, spades, clubs, grand, null.
        pytest.param(
            {"game": "ramsch", "cards": cards(NO_JACKS)},
            [
                (
                    "game",
                    '"ramsch" is not a Skat game; choose diamonds, hearts, spades, clubs, grand '
                    "or null.",
                )
            ],
            id="unknown-game",
        ),
        # Announcing schneider or schwarz: hand games only; ouvert suit games are hand games.
        pytest.param(
            {
                "game": "grand",
                "cards": cards(SPADE_AND_HEART_JACKS),
                "ouvert": True,
                "announced": "schneider",
            },
            [
                (
                    "announced",
                    "Schneider can only be announced in a hand game; after picking up the skat "
                    "it can still be played, just not announced.",
                ),
                (
                    "ouvert",
                    "Grand Ouvert can only be played as a hand game; either play it hand or, "
                    "after picking up the skat, play it closed.",
                ),
            ],
            id="announced-without-hand",
        ),
        # Null: no schneider or schwarz to announce.
        pytest.param(
            {"game": "null", "cards": cards(NO_JACKS), "hand": True, "announced": "schwarz"},
            [
                (
                    "announced",
                    "Null has no schwarz to announce: the declarer simply must take no trick.",
                )
            ],
            id="null-announced",
        ),
        # Every problem at once: announcement word and card count together.
        pytest.param(
            {"game": "clubs", "cards": cards("JS JH"), "hand": True, "announced": "loud"},
            [
                ("announced", '"loud" is not an announcement; say none, schneider or schwarz.'),
                ("cards", "Give the 10 cards you were dealt, the hand you bid with; you gave 2."),
            ],
            id="every-problem",
        ),
    ],
)
def test_wrong_input_is_refused_with_every_problem(arguments, problems):
    with pytest.raises(RuleError) as error:
        bid_limit(**arguments)
    assert problems_of(error) == problems


# ---------------------------------------------------------------------------
# Rule anchors


def test_rule_sections_are_the_skat_rule_books_own():
    # Every anchor cited here is a section of the Skat rule book, with the same title.
    assert RULE_SECTIONS
    for anchor, title in RULE_SECTIONS.items():
        assert skat.RULE_SECTIONS[anchor] == title


@pytest.mark.parametrize(
    "arguments",
    [
        pytest.param({"game": "grand", "cards": SPADE_AND_HEART_JACKS}, id="grand"),
        pytest.param(
            {
                "game": "clubs",
                "cards": CLUB_AND_SPADE_JACKS,
                "hand": True,
                "announced": "schneider",
            },
            id="schneider",
        ),
        pytest.param(
            {"game": "grand", "cards": CLUB_AND_SPADE_JACKS, "hand": True, "announced": "schwarz"},
            id="schwarz",
        ),
        pytest.param(
            {"game": "grand", "cards": ALL_JACKS, "hand": True, "ouvert": True}, id="ouvert"
        ),
        pytest.param({"game": "null", "cards": NO_JACKS, "ouvert": True}, id="null"),
    ],
)
def test_every_step_cites_a_known_section(arguments):
    limit = bid_limit(**{**arguments, "cards": cards(arguments["cards"])})
    assert {step.rule for step in limit.explanation} <= set(RULE_SECTIONS)


# ---------------------------------------------------------------------------
# Properties


DECLARATIONS = [
    # (game, hand, ouvert, announced): every declaration a suit or grand game allows.
    (game, hand, ouvert, announced)
    for game in skat.BASE_VALUES
    for hand in (False, True)
    for ouvert in (False, True)
    for announced in skat.ANNOUNCEMENTS
    if hand or (not ouvert and announced == "none")
]


@st.composite
def deals(draw):
    """A declaration, the declarer's 10 cards and the 2 cards that lie in the skat."""
    game, hand, ouvert, announced = draw(st.sampled_from(DECLARATIONS))
    twelve = draw(st.permutations(SKAT_DECK.kinds))[:12]
    return game, hand, ouvert, announced, list(twelve[:10]), list(twelve[10:])


def _won(ouvert: bool, announced: str) -> str:
    if ouvert or announced == "schwarz":
        return "won_schwarz"
    return "won_schneider" if announced == "schneider" else "won"


@settings(max_examples=120, deadline=None)
@given(deals())
def test_the_safe_bid_holds_whatever_the_skat_is(deal):
    # Overbidding: whatever skat is actually there, the game won as declared is worth at
    # least the safe value, and never more than the best case.
    game, hand, ouvert, announced, ten, skat_cards = deal
    limit = bid_limit(game=game, cards=ten, hand=hand, ouvert=ouvert, announced=announced)
    result = skat.score_game(
        game=game,
        bid=limit.safe_bid,
        hand=hand,
        ouvert=ouvert,
        announced=announced,
        declarer_cards=ten + skat_cards,
        outcome=_won(ouvert, announced),
    )
    assert result.won
    assert not result.overbid
    assert limit.safe_bid <= limit.safe_value <= result.game_value <= limit.best_value
    # The case the actual skat falls in is the one with the same matadors and value, and
    # the skat fits its condition.
    (case,) = [c for c in limit.by_skat if c.matadors == result.matadors]
    assert case.value == result.game_value
    assert set(case.in_skat) <= set(skat_cards)
    assert not set(case.not_in_skat) & set(skat_cards)


@settings(max_examples=40, deadline=None)
@given(deals())
def test_the_cases_cover_every_skat_and_the_worst_is_the_safe_value(deal):
    # Legal bids: the safe bid is a bid, and it is reached exactly by the worst skat.
    game, hand, ouvert, announced, ten, _ = deal
    limit = bid_limit(game=game, cards=ten, hand=hand, ouvert=ouvert, announced=announced)
    assert limit.safe_bid in skat.BIDS
    assert sum(case.skats for case in limit.by_skat) == POSSIBLE_SKATS
    assert limit.safe_value == min(case.value for case in limit.by_skat)
    assert limit.best_value == max(case.value for case in limit.by_skat)
    assert len({case.matadors for case in limit.by_skat}) == len(limit.by_skat)
    assert {step.rule for step in limit.explanation} <= set(RULE_SECTIONS)
    # Three or more trumps the skat must lack are always the top of the trump order, so
    # "no trump above …" says them exactly.
    for case in limit.by_skat:
        if len(case.not_in_skat) > 2:
            assert case.not_in_skat == skat.trumps(game)[: len(case.not_in_skat)]
    unseen = [c for c in SKAT_DECK.kinds if c not in ten]
    assert len(list(combinations(unseen, 2))) == POSSIBLE_SKATS
