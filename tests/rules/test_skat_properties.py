"""Properties of the Skat referee that hold for every deal and every legal game."""

from __future__ import annotations

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.cards import SKAT_DECK, Card
from games.rules.errors import RuleError
from games.rules.skat import (
    ANNOUNCEMENTS,
    BASE_VALUES,
    BIDS,
    GAMES,
    NULL_VALUES,
    OUTCOMES,
    SUIT_GAMES,
    Matadors,
    count_matadors,
    count_points,
    score_game,
)

DEALS = st.permutations(SKAT_DECK.cards)
SUIT_LETTERS = {"diamonds": "D", "hearts": "H", "spades": "S", "clubs": "C"}


def trump_order(game: str) -> list[Card]:
    """Written out again from the rule book's table, not taken from the module."""
    jacks = [Card("J", suit) for suit in "CSHD"]
    if game == "grand":
        return jacks
    return jacks + [Card(rank, SUIT_LETTERS[game]) for rank in ("A", "10", "K", "Q", "9", "8", "7")]


def matadors_by_hand(game: str, cards: list[Card]) -> Matadors:
    """Walk the trumps from the top and count until holding changes (J♣ held: with, else against)."""
    held = [trump in cards for trump in trump_order(game)]
    changes_at = held.index(not held[0]) if (not held[0]) in held else len(held)
    return Matadors("with" if held[0] else "against", changes_at)


def highest_value(game: str, matadors: Matadors, hand: bool, ouvert: bool, announced: str) -> int:
    """The best this declaration can score: every level it could still reach."""
    said = "schwarz" if ouvert else announced
    levels = matadors.count + 1 + hand + 1 + 1 + (said != "none") + (said == "schwarz") + ouvert
    return BASE_VALUES[game] * levels


@settings(max_examples=200)
@given(DEALS)
def test_any_deal_holds_120_points(deal):
    # Card points: the three hands of 10 and the skat of 2 always hold 120 together.
    hands = [deal[0:10], deal[10:20], deal[20:30], deal[30:32]]
    assert sum(count_points(hand) for hand in hands) == 120


@settings(max_examples=200)
@given(DEALS, st.sampled_from((*SUIT_GAMES, "grand")))
def test_matadors_agree_with_walking_the_trumps(deal, game):
    # Matadors: from the declarer's 10 cards and the skat, with or against the unbroken run.
    twelve = list(deal[:12])
    counted = count_matadors(game=game, cards=twelve)
    assert counted == matadors_by_hand(game, twelve)
    assert 1 <= counted.count <= len(trump_order(game))
    assert (counted.direction == "with") == (Card("J", "C") in twelve)


@st.composite
def legal_games(draw, ways=("count", "cards", "outcome")):
    """A random deal played to a random end, with a declaration and bid the rules allow."""
    deal = draw(DEALS)
    game = draw(st.sampled_from(GAMES))
    hand = draw(st.booleans())
    ouvert = draw(st.booleans()) if hand or game == "null" else False
    announced = draw(st.sampled_from(ANNOUNCEMENTS)) if hand and game != "null" else "none"
    declarer_cards = list(deal[:12])  # 10 dealt cards, then the skat
    skat = list(deal[10:12])
    tricks = draw(st.integers(0, 10))
    # Every trick the declarer took holds one of the declarer's own cards and two others.
    trick_cards = list(deal[:tricks]) + list(deal[12 : 12 + 2 * tricks])
    if game == "null":
        top = NULL_VALUES["Null" + (" Ouvert" if ouvert else "") + (" Hand" if hand else "")]
    else:
        top = highest_value(game, matadors_by_hand(game, declarer_cards), hand, ouvert, announced)
    bid = draw(st.sampled_from([b for b in BIDS if b <= top]))
    kontra = draw(st.booleans())
    arguments = {
        "game": game,
        "bid": bid,
        "hand": hand,
        "ouvert": ouvert,
        "announced": announced,
        "declarer_cards": declarer_cards,
        "kontra": kontra,
        "re": kontra and draw(st.booleans()),
        "bock": draw(st.booleans()),
    }
    way = draw(st.sampled_from(ways))
    if way == "count":
        arguments["declarer_points"] = count_points(trick_cards + skat)
        arguments["declarer_tricks"] = tricks
    elif way == "cards":
        arguments["declarer_trick_cards"] = trick_cards
        arguments["skat"] = skat
    else:
        arguments["outcome"] = draw(
            st.sampled_from(("won", "lost") if game == "null" else OUTCOMES)
        )
    return arguments


@settings(max_examples=300, deadline=None)
@given(legal_games())
def test_won_scores_above_zero_and_lost_below(arguments):
    # Score on the list: +value when won, −2 × value when lost; Kontra, Re, Bock only multiply.
    result = score_game(**arguments)
    factor = (4 if arguments["re"] else 2 if arguments["kontra"] else 1) * (
        2 if arguments["bock"] else 1
    )
    if result.won:
        assert result.score > 0
        assert result.score == result.game_value * factor
    else:
        assert result.score < 0
        assert result.score == -2 * result.game_value * factor


@settings(max_examples=300, deadline=None)
@given(legal_games())
def test_a_legal_declaration_never_scores_below_the_bid(arguments):
    # Overbidding: a game worth less than the bid is lost at the next multiple of the base
    # value that reaches the bid, so a legal declaration's game value always reaches it,
    # and that value is itself a legal bid.
    result = score_game(**arguments)
    assert result.game_value >= arguments["bid"]
    assert result.game_value in BIDS
    if result.overbid:
        assert not result.won
        assert result.game_value - result.base_value < arguments["bid"]
    elif result.multiplier is not None:
        assert result.game_value == result.base_value * result.multiplier


@settings(max_examples=200, deadline=None)
@given(legal_games(ways=("cards",)))
def test_points_and_cards_tell_the_same_game(arguments):
    # Giving the trick cards and skat, or the points and tricks they make, is the same result.
    by_cards = score_game(**arguments)
    by_count = dict(arguments)
    trick_cards = by_count.pop("declarer_trick_cards")
    skat = by_count.pop("skat")
    by_count["declarer_points"] = count_points(trick_cards + skat)
    by_count["declarer_tricks"] = len(trick_cards) // 3
    again = score_game(**by_count)
    assert (again.won, again.score, again.levels) == (by_cards.won, by_cards.score, by_cards.levels)


@cache
def sums_of(count: int, left_out: frozenset[Card]) -> frozenset[int]:
    """Every card-point total ``count`` cards of the deck make, ``left_out`` aside:
    worked out here from the card values (A 11, 10 10, K 4, Q 3, J 2, 9/8/7 0)."""
    worth = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
    values = [worth.get(c.rank, 0) for c in SKAT_DECK.cards if c not in left_out]
    sums: list[set[int]] = [{0}] + [set() for _ in values]
    for value in values:
        for n in range(len(values), 0, -1):
            sums[n] |= {total + value for total in sums[n - 1]}
    return frozenset(sums[count])


@settings(max_examples=200, deadline=None)
@given(
    skat=st.lists(st.sampled_from(SKAT_DECK.cards), min_size=2, max_size=2, unique=True),
    tricks=st.integers(min_value=0, max_value=10),
    points=st.integers(min_value=0, max_value=120),
)
def test_card_points_are_accepted_exactly_when_the_cards_can_make_them(skat, tricks, points):
    # The declarer's card points are "tricks plus skat": with the skat known, the rest
    # is what 3 × tricks of the 30 other cards hold, and anything else is refused
    # (an independent audit found 23 with A♣ A♠ in the skat and one trick accepted).
    in_skat = count_points(skat)
    possible = {in_skat + rest for rest in sums_of(3 * tricks, frozenset(skat))}
    arguments = {"game": "grand", "bid": 18, "matadors": Matadors("with", 1), "skat": skat}
    try:
        score_game(**arguments, declarer_points=points, declarer_tricks=tricks)
    except RuleError:
        accepted = False
    else:
        accepted = True
    assert accepted == (points in possible), (skat, tricks, points)
