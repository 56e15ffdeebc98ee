"""The Skat referee: card points, trumps, matadors, game value, overbidding, tricks, bidding.

It follows the International Skat Order. Kontra/Re and Bock are house rules the
score sheet may switch on; the list scoring rules that span several games
(Seeger-Fabian, Ramsch, the Bock-round schedule) live in ``skat_list``.

Every public function takes keyword-only plain values and :class:`Card` objects,
checks every rule of the game, and raises one :class:`RuleError` carrying every
problem found. Problem fields are the JSON names of ``/api/v1/skat/score``,
``/skat/trick`` and ``/skat/follow``.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import SKAT_DECK, SUIT_NAMES, Card, labels
from .errors import ProblemCollector, RuleError, Step
from .words import signed

RULE_SECTIONS: dict[str, str] = {
    "skat-cards": "Cards",
    "skat-card-points": "Card points",
    "skat-game-types": "Games",
    "skat-trumps": "Trumps",
    "skat-follow": "Following suit",
    "skat-tricks": "Who takes the trick",
    "skat-matadors": "Matadors",
    "skat-game-value": "Game value",
    "skat-levels": "Levels",
    "skat-hand": "Hand games",
    "skat-schneider": "Schneider",
    "skat-schwarz": "Schwarz",
    "skat-announcements": "Announcing schneider and schwarz",
    "skat-ouvert": "Ouvert",
    "skat-null": "Null",
    "skat-winning": "Winning and losing",
    "skat-list-score": "Score on the list",
    "skat-overbid": "Overbidding",
    "skat-bids": "Legal bids",
    "skat-bidding": "Bidding",
    "skat-kontra-re": "Kontra and Re",
    "skat-bock": "Bock games",
}

GAMES = ("diamonds", "hearts", "spades", "clubs", "grand", "null")
SUIT_GAMES = ("diamonds", "hearts", "spades", "clubs")
GAME_SUITS = {"diamonds": "D", "hearts": "H", "spades": "S", "clubs": "C"}
GAME_NAMES = {
    "diamonds": "Diamonds",
    "hearts": "Hearts",
    "spades": "Spades",
    "clubs": "Clubs",
    "grand": "Grand",
    "null": "Null",
}
BASE_VALUES = {"diamonds": 9, "hearts": 10, "spades": 11, "clubs": 12, "grand": 24}
# Null has a fixed value for each of its four forms, keyed by the contract's name.
NULL_VALUES = {"Null": 23, "Null Hand": 35, "Null Ouvert": 46, "Null Ouvert Hand": 59}
CARD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}

ANNOUNCEMENTS = ("none", "schneider", "schwarz")
OUTCOMES = ("won", "won_schneider", "won_schwarz", "lost", "lost_schneider", "lost_schwarz")
NULL_OUTCOMES = ("won", "lost")
POSITIONS = ("forehand", "middlehand", "rearhand")
HOLD = "yes"
PASS = "pass"

#: What :func:`plays_as_suit` answers for a trump; otherwise it answers the printed suit.
TRUMP = "T"

WINNING_POINTS = 61
SCHNEIDER_POINTS = 30
ALL_POINTS = 120
ALL_TRICKS = 10
HIGHEST_BID = 264

# Jacks rank clubs, spades, hearts, diamonds; the other cards of a suit in suit and
# grand games rank ace, ten, king, queen, nine, eight, seven. In null the ten drops
# behind the jack, as in the natural order.
JACKS = tuple(Card("J", suit) for suit in ("C", "S", "H", "D"))
SUIT_GAME_RANKS = ("A", "10", "K", "Q", "9", "8", "7")
NULL_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7")
SUIT_SINGULARS = {"C": "club", "S": "spade", "H": "heart", "D": "diamond"}

# The levels besides matadors, in the order a referee counts them.
GAME_LEVEL = "game"
HAND_LEVEL = "hand"
SCHNEIDER_LEVEL = "schneider"
SCHNEIDER_ANNOUNCED_LEVEL = "schneider announced"
SCHWARZ_LEVEL = "schwarz"
SCHWARZ_ANNOUNCED_LEVEL = "schwarz announced"
OUVERT_LEVEL = "ouvert"
LEVELS_BESIDES_MATADORS = 7


# ---------------------------------------------------------------------------
# Cards and trumps


def unknown_game_message(game: object) -> str:
    return f'"{game}" is not a Skat game; choose diamonds, hearts, spades, clubs, grand or null.'


def _require_game(game: str) -> None:
    if game not in GAMES:
        raise RuleError(unknown_game_message(game), "game")


def _require_skat_card(card: Card) -> None:
    if card not in SKAT_DECK:
        raise RuleError(_not_skat_card_message(card))


def _not_skat_card_message(card: Card) -> str:
    return f"{card.label} is not a Skat card; Skat uses 7, 8, 9, 10, J, Q, K and A of each suit."


def card_points(card: Card) -> int:
    """The card's points: ace 11, ten 10, king 4, queen 3, jack 2, nine to seven nothing."""
    _require_skat_card(card)
    return CARD_POINTS[card.rank]


def count_points(cards: Iterable[Card]) -> int:
    """The card points in a pile of Skat cards (all 32 hold 120)."""
    return sum(card_points(c) for c in cards)


def trumps(game: str) -> tuple[Card, ...]:
    """The trumps of a game from the highest down: the four jacks, then the trump suit."""
    _require_game(game)
    if game == "null":
        return ()
    if game == "grand":
        return JACKS
    suit = GAME_SUITS[game]
    return (*JACKS, *(Card(rank, suit) for rank in SUIT_GAME_RANKS))


def plays_as_suit(card: Card, game: str) -> str:
    """The suit a card belongs to in play: :data:`TRUMP` (``"T"``) or its printed suit letter.

    In suit and grand games every jack is a trump and no longer belongs to its
    printed suit; in null there are no trumps.
    """
    _require_skat_card(card)
    return TRUMP if card in trumps(game) else str(card.suit)


def _suit_words(suit: str, *, plural: bool = True) -> str:
    if suit == TRUMP:
        return "trumps" if plural else "trump"
    return SUIT_NAMES[suit] if plural else SUIT_SINGULARS[suit]


# ---------------------------------------------------------------------------
# Matadors


@dataclass(frozen=True)
class Matadors:
    """Matadors: "with N" when the declarer holds the club jack, else "against N"."""

    direction: Literal["with", "against"]
    count: int

    @property
    def label(self) -> str:
        return f"{self.direction} {self.count}"

    def as_dict(self) -> dict[str, int]:
        return {self.direction: self.count}

    @classmethod
    def from_mapping(cls, data: object, field: str = "matadors") -> Matadors:
        """Read ``{"with": N}`` or ``{"against": N}``; the count's range depends on the game."""
        shape = 'Give matadors as {"with": N} or {"against": N}'
        if not isinstance(data, dict) or len(data) != 1:
            raise RuleError(f"{shape}, with exactly one of the two.", field)
        ((direction, count),) = data.items()
        if direction not in ("with", "against"):
            raise RuleError(f'{shape}; "{direction}" is neither.', field)
        if isinstance(count, bool) or not isinstance(count, int):
            raise RuleError(f"{shape}, N being a whole number.", field)
        return cls(direction, count)


def _most_matadors(game: str) -> int:
    return len(trumps(game))


def _check_twelve_cards(cards: Sequence[Card], field: str, problems: ProblemCollector) -> bool:
    """The declarer's 10 dealt cards plus the 2 skat cards."""
    before = len(problems.problems)
    if len(cards) != 12:
        problems.add(
            field,
            f"Give the declarer's 12 cards: the 10 dealt cards and the 2 skat cards "
            f"(got {len(cards)}).",
        )
    check_skat_cards(cards, field, problems)
    return len(problems.problems) == before


def check_skat_cards(cards: Sequence[Card], field: str, problems: ProblemCollector) -> None:
    for i, c in enumerate(cards):
        if c not in SKAT_DECK:
            problems.add(f"{field}.{i}", _not_skat_card_message(c))
    for problem in SKAT_DECK.duplicate_problems(cards, field):
        problems.add(problem.field, problem.message)


def _matadors_from_cards(game: str, cards: Iterable[Card]) -> tuple[Matadors, Step]:
    """Walk the trumps from the top; the skat counts too, even in a hand game."""
    order = trumps(game)
    held = set(cards)
    name = GAME_NAMES[game]
    if order[0] in held:
        run = 0
        while run < len(order) and order[run] in held:
            run += 1
        result = Matadors("with", run)
        if run == len(order):
            text = f"The declarer's 12 cards (skat included) hold every trump of {name}: {result.label}."
        else:
            text = (
                f"The declarer's 12 cards (skat included) hold {labels(order[:run])} from the top "
                f"and then miss {order[run].label}: {result.label}."
            )
    else:
        missing = 0
        while missing < len(order) and order[missing] not in held:
            missing += 1
        result = Matadors("against", missing)
        if missing == len(order):
            text = (
                f"The declarer's 12 cards (skat included) hold no trump of {name}: {result.label}."
            )
        else:
            text = (
                f"The declarer's 12 cards (skat included) miss {labels(order[:missing])}; "
                f"the highest trump held is {order[missing].label}: {result.label}."
            )
    return result, Step(text, "skat-matadors")


def count_matadors(*, game: str, cards: Sequence[Card]) -> Matadors:
    """Matadors from the declarer's 10 cards and the 2 skat cards (field ``declarer_cards``)."""
    problems = ProblemCollector()
    if game not in GAMES:
        problems.add("game", unknown_game_message(game))
    elif game == "null":
        problems.add("game", "Null is played without trumps, so it has no matadors.")
    _check_twelve_cards(cards, "declarer_cards", problems)
    problems.raise_if_any()
    return _matadors_from_cards(game, cards)[0]


# ---------------------------------------------------------------------------
# Values and bids


def contract_name(
    *, game: str, hand: bool = False, ouvert: bool = False, announced: str = "none"
) -> str:
    """A readable contract: "Clubs Hand, schneider announced", "Grand Ouvert", "Null Ouvert Hand"."""
    _require_game(game)
    name = GAME_NAMES[game]
    if game == "null":
        return name + (" Ouvert" if ouvert else "") + (" Hand" if hand else "")
    if ouvert:
        # An open suit or grand game is always a hand game with schwarz announced.
        return f"{name} Ouvert"
    name += " Hand" if hand else ""
    if announced in ("schneider", "schwarz"):
        name += f", {announced} announced"
    return name


def _null_value(hand: bool, ouvert: bool) -> int:
    return NULL_VALUES[contract_name(game="null", hand=hand, ouvert=ouvert)]


def _most_multiplier(game: str) -> int:
    return _most_matadors(game) + LEVELS_BESIDES_MATADORS


def _every_game_value() -> tuple[int, ...]:
    # A suit or grand game counts at least "with/against 1" plus game (×2) and at most
    # every matador plus all seven other levels.
    values = set(NULL_VALUES.values())
    for game, base in BASE_VALUES.items():
        values.update(base * m for m in range(2, _most_multiplier(game) + 1))
    return tuple(sorted(values))


BIDS: tuple[int, ...] = _every_game_value()


def _nearest_bids(bid: int) -> str:
    at = bisect.bisect_left(BIDS, bid)
    return f"{BIDS[at - 1]} and {BIDS[at]}"


def _bid_problem(bid: int) -> str | None:
    if bid in BIDS:
        return None
    if bid < BIDS[0]:
        return f"The lowest bid is {BIDS[0]}; {bid} is not a bid."
    if bid > HIGHEST_BID:
        return f"No game is worth more than {HIGHEST_BID} (Grand Ouvert with 4), so {bid} cannot be bid."
    return f"{bid} is not a legal bid, because no game is worth exactly that; the nearest bids are {_nearest_bids(bid)}."


@dataclass(frozen=True)
class BidRung:
    """One legal bid and the games worth exactly that much."""

    value: int
    games: tuple[str, ...]


def bid_ladder() -> tuple[BidRung, ...]:
    """Every legal bid from 18 to 264 with the games whose value it is."""
    worth: dict[int, list[str]] = {value: [] for value in BIDS}
    for game, base in BASE_VALUES.items():
        for multiplier in range(2, _most_multiplier(game) + 1):
            worth[base * multiplier].append(f"{GAME_NAMES[game]} ×{multiplier}")
    for name, value in NULL_VALUES.items():
        worth[value].append(name)
    return tuple(BidRung(value, tuple(games)) for value, games in worth.items())


def _effective_announcement(announced: str, ouvert: bool) -> str:
    # An open suit or grand game counts as schwarz announced, whatever was said.
    return "schwarz" if ouvert else announced


def _highest_multiplier(matadors: Matadors, *, hand: bool, ouvert: bool, announced: str) -> int:
    """Every level this declaration could still reach: schneider and schwarz included."""
    said = _effective_announcement(announced, ouvert)
    return (
        matadors.count
        + 1  # game
        + int(hand)
        + 1  # schneider
        + int(said in ("schneider", "schwarz"))
        + 1  # schwarz
        + int(said == "schwarz")
        + int(ouvert)
    )


# ---------------------------------------------------------------------------
# Scoring one game


@dataclass(frozen=True)
class GameResult:
    """The referee's verdict on one game and what it writes on the list."""

    won: bool
    overbid: bool
    base_value: int
    multiplier: int | None
    matadors: Matadors | None
    game_value: int
    score: int
    levels: tuple[tuple[str, int], ...]
    declarer_points: int | None
    declarer_tricks: int | None
    schneider: bool
    schwarz: bool
    contract: str
    explanation: tuple[Step, ...]


@dataclass(frozen=True)
class _Play:
    """What the cards decided, before the bid and the announcements are looked at."""

    won: bool  # suit/grand: 61 points or more; null: no trick taken
    schneider: bool  # one side has 30 points or fewer
    schwarz: bool  # one side took no trick
    points: int | None
    tricks: int | None
    steps: tuple[Step, ...]


_SORTED_CARD_POINTS = sorted(CARD_POINTS[c.rank] for c in SKAT_DECK.cards)


def _possible_points(tricks: int) -> tuple[int, int]:
    """Fewest and most card points in ``tricks`` tricks plus the skat."""
    held = 3 * tricks + 2
    return sum(_SORTED_CARD_POINTS[:held]), sum(_SORTED_CARD_POINTS[-held:])


def _tricks_word(n: int) -> str:
    return f"{n} trick" if n == 1 else f"{n} tricks"


def check_declaration(
    *,
    game: str,
    hand: bool,
    ouvert: bool,
    announced: str,
    kontra: bool,
    re: bool,
    problems: ProblemCollector,
) -> None:
    if announced not in ANNOUNCEMENTS:
        problems.add(
            "announced", f'"{announced}" is not an announcement; say none, schneider or schwarz.'
        )
    elif announced != "none" and game == "null":
        problems.add(
            "announced",
            f"Null has no {announced} to announce: the declarer simply must take no trick.",
        )
    elif announced != "none" and game in BASE_VALUES and not hand:
        problems.add(
            "announced",
            f"{announced.capitalize()} can only be announced in a hand game; "
            f"after picking up the skat it can still be played, just not announced.",
        )
    if ouvert and game in BASE_VALUES and not hand:
        problems.add(
            "ouvert",
            f"{GAME_NAMES[game]} Ouvert can only be played as a hand game; "
            "either play it hand or, after picking up the skat, play it closed.",
        )
    if re and not kontra:
        problems.add("re", "Re answers a Kontra; without Kontra there is no Re.")


def _read_matadors(
    *,
    game: str,
    matadors: Matadors | None,
    declarer_cards: Sequence[Card] | None,
    cards_ok: bool,
    problems: ProblemCollector,
) -> tuple[Matadors | None, tuple[Step, ...]]:
    """The matadors of a suit or grand game, as given or counted from the declarer's cards.

    Both may be given when they agree; null must have none.
    """
    if game == "null":
        if matadors is not None:
            problems.add(
                "matadors", "Null is played without trumps, so it has no matadors; leave them out."
            )
        return None, ()
    given = _check_given_matadors(game, matadors, problems)
    if declarer_cards is None:
        if matadors is None:
            problems.add(
                "matadors",
                f"{GAME_NAMES[game]} needs the matadors: give them as with/against N, "
                "or give the declarer's 12 cards (skat included) to count them.",
            )
        if given is None:
            return None, ()
        return given, (Step(f"Matadors: {given.label}.", "skat-matadors"),)
    if not cards_ok:
        return None, ()
    counted, step = _matadors_from_cards(game, declarer_cards)
    if matadors is not None and given != counted:
        if given is not None:
            problems.add(
                "matadors",
                f"You gave {given.label}, but the declarer's cards make it {counted.label} "
                f"in {GAME_NAMES[game]}; correct one of them or leave the matadors out.",
            )
        return None, ()
    return counted, (step,)


def _check_given_matadors(
    game: str, matadors: Matadors | None, problems: ProblemCollector
) -> Matadors | None:
    if matadors is None:
        return None
    most = _most_matadors(game)
    if matadors.direction not in ("with", "against"):
        problems.add("matadors", 'Matadors are "with" or "against" a number.')
        return None
    if not 1 <= matadors.count <= most:
        problems.add(
            "matadors",
            f"{GAME_NAMES[game]} has {most} trumps, so matadors run from 1 to {most}; "
            f"{matadors.label} is not possible.",
        )
        return None
    return matadors


def _read_skat(
    *,
    skat: Sequence[Card] | None,
    declarer_cards: Sequence[Card] | None,
    problems: ProblemCollector,
) -> bool:
    """Check the two skat cards; they must be among the declarer's 12 cards when those are known."""
    if skat is None:
        return True
    before = len(problems.problems)
    if len(skat) != 2:
        problems.add("skat", f"The skat is 2 cards; got {len(skat)}.")
    check_skat_cards(skat, "skat", problems)
    if declarer_cards is not None:
        for i, c in enumerate(skat):
            if c not in declarer_cards:
                problems.add(
                    f"skat.{i}",
                    f"{c.label} is in the skat but not among the declarer's 12 cards; "
                    "the skat the declarer keeps or lays down comes from those cards.",
                )
    return len(problems.problems) == before


def _result_ways(
    *,
    declarer_points: int | None,
    declarer_tricks: int | None,
    declarer_trick_cards: Sequence[Card] | None,
    outcome: str | None,
) -> list[str]:
    ways = []
    if declarer_points is not None or declarer_tricks is not None:
        ways.append("points and tricks")
    if declarer_trick_cards is not None:
        ways.append("the declarer's trick cards")
    if outcome is not None:
        ways.append("an outcome")
    return ways


def _read_play(
    *,
    game: str,
    declarer_points: int | None,
    declarer_tricks: int | None,
    declarer_trick_cards: Sequence[Card] | None,
    skat: Sequence[Card] | None,
    outcome: str | None,
    declarer_cards: Sequence[Card] | None,
    problems: ProblemCollector,
) -> _Play | None:
    """How the play went, from exactly one of the three ways of telling it."""
    ways = _result_ways(
        declarer_points=declarer_points,
        declarer_tricks=declarer_tricks,
        declarer_trick_cards=declarer_trick_cards,
        outcome=outcome,
    )
    skat_ok = _read_skat(skat=skat, declarer_cards=declarer_cards, problems=problems)
    if not ways:
        needed = "the declarer's tricks" if game == "null" else "the declarer's points and tricks"
        problems.add(
            None,
            f"Say how the game went: {needed}, or the cards of the declarer's tricks with the skat, "
            "or the outcome.",
        )
        return None
    if len(ways) > 1:
        problems.add(None, f"Give the result one way only; you gave {' and '.join(ways)}.")
        return None
    if outcome is not None:
        return _play_from_outcome(game, outcome, problems)
    if declarer_trick_cards is not None:
        return _play_from_trick_cards(
            game=game,
            trick_cards=declarer_trick_cards,
            skat=skat,
            skat_ok=skat_ok,
            declarer_cards=declarer_cards,
            problems=problems,
        )
    return _play_from_count(
        game=game,
        points=declarer_points,
        tricks=declarer_tricks,
        skat=skat if skat_ok else None,
        problems=problems,
    )


_OUTCOME_WORDS = {
    "won": "won (61 to 89 card points)",
    "won_schneider": "won schneider (90 card points or more)",
    "won_schwarz": "won schwarz (every trick)",
    "lost": "lost (31 to 60 card points)",
    "lost_schneider": "lost schneider (30 card points or fewer)",
    "lost_schwarz": "lost schwarz (no trick at all)",
}


def _play_from_outcome(game: str, outcome: str, problems: ProblemCollector) -> _Play | None:
    if game == "null":
        if outcome not in NULL_OUTCOMES:
            problems.add(
                "outcome",
                f'Null is simply won or lost (no schneider or schwarz); "{outcome}" does not fit.',
            )
            return None
        won = outcome == "won"
        text = "The declarer took no trick." if won else "The declarer took a trick."
        return _Play(won, False, False, None, 0 if won else None, (Step(text, "skat-null"),))
    if outcome not in OUTCOMES:
        problems.add(
            "outcome",
            f'"{outcome}" is not an outcome; use won, won_schneider, won_schwarz, lost, '
            "lost_schneider or lost_schwarz.",
        )
        return None
    won = outcome.startswith("won")
    schwarz = outcome.endswith("schwarz")
    schneider = schwarz or outcome.endswith("schneider")
    step = Step(f"The play as entered: {_OUTCOME_WORDS[outcome]}.", "skat-winning")
    return _Play(won, schneider, schwarz, None, None, (step,))


def _check_points_and_tricks(
    points: int | None,
    tricks: int | None,
    skat: Sequence[Card] | None,
    problems: ProblemCollector,
) -> bool:
    before = len(problems.problems)
    if points is not None and not 0 <= points <= ALL_POINTS:
        problems.add(
            "declarer_points",
            f"Card points run from 0 to 120 (skat included); {points} is not possible.",
        )
        points = None
    if tricks is not None and not 0 <= tricks <= ALL_TRICKS:
        problems.add(
            "declarer_tricks", f"A declarer takes 0 to 10 tricks; {tricks} is not possible."
        )
        tricks = None
    if points is not None and tricks is not None:
        fewest, most = _possible_points(tricks)
        if not fewest <= points <= most:
            if tricks == 0:
                text = (
                    f"With no trick the declarer has only the 2 skat cards, at most {most} points; "
                    f"{points} is not possible."
                )
            elif tricks == ALL_TRICKS:
                text = f"Taking all 10 tricks gives the declarer all 120 card points, not {points}."
            else:
                text = (
                    f"With {_tricks_word(tricks)} and the skat the declarer holds {3 * tricks + 2} cards, "
                    f"worth {fewest} to {most} card points; {points} is not possible."
                )
            problems.add("declarer_points", text)
            points = None
    if points is not None and skat is not None:
        in_skat = count_points(skat)
        if points < in_skat or (tricks == 0 and points != in_skat):
            problems.add(
                "declarer_points",
                f"The skat ({labels(skat)}) alone holds {in_skat} points for the declarer, "
                f"so {points} does not fit"
                + (" a declarer without a trick." if tricks == 0 else "."),
            )
    return len(problems.problems) == before


def _play_from_count(
    *,
    game: str,
    points: int | None,
    tricks: int | None,
    skat: Sequence[Card] | None,
    problems: ProblemCollector,
) -> _Play | None:
    if tricks is None:
        problems.add(
            "declarer_tricks",
            "Give the number of tricks the declarer took"
            + (
                " (0 wins a Null game)."
                if game == "null"
                else " with the card points; schwarz depends on it."
            ),
        )
    if points is None and game != "null":
        problems.add(
            "declarer_points",
            "Give the declarer's card points (skat included) with the tricks.",
        )
    if not _check_points_and_tricks(points, tricks, skat, problems) or tricks is None:
        return None
    if game == "null":
        return _null_play(points, tricks, ())
    if points is None:
        return None
    step = Step(
        f"The declarer took {_tricks_word(tricks)} with {points} card points, skat included.",
        "skat-card-points",
    )
    return _suit_play(points, tricks, (step,))


def _play_from_trick_cards(
    *,
    game: str,
    trick_cards: Sequence[Card],
    skat: Sequence[Card] | None,
    skat_ok: bool,
    declarer_cards: Sequence[Card] | None,
    problems: ProblemCollector,
) -> _Play | None:
    before = len(problems.problems)
    field = "declarer_trick_cards"
    if len(trick_cards) % 3 or len(trick_cards) > 30:
        problems.add(
            field,
            f"A trick is 3 cards and there are 10 tricks, so give 0, 3, 6 … 30 cards; got {len(trick_cards)}.",
        )
    check_skat_cards(trick_cards, field, problems)
    if skat is None:
        if game != "null":
            problems.add(
                "skat", "Give the 2 skat cards with the trick cards; they count for the declarer."
            )
    else:
        for i, c in enumerate(skat):
            if c in trick_cards:
                problems.add(
                    f"skat.{i}", f"{c.label} is in the skat and also in the declarer's tricks."
                )
    if len(problems.problems) != before or not skat_ok:
        return None
    tricks = len(trick_cards) // 3
    if declarer_cards is not None and skat is not None:
        _check_own_cards(trick_cards, tricks, declarer_cards, skat, problems)
        if len(problems.problems) != before:
            return None
    in_tricks = count_points(trick_cards)
    if skat is None:
        points = None
        text = f"The declarer's cards make {_tricks_word(tricks)} holding {in_tricks} card points."
    else:
        points = in_tricks + count_points(skat)
        text = (
            f"The declarer's {_tricks_word(tricks)} {'holds' if tricks == 1 else 'hold'} "
            f"{in_tricks} card points and the skat "
            f"({labels(skat)}) adds {count_points(skat)}: {points} in all."
        )
    steps = (Step(text, "skat-card-points"),)
    if game == "null":
        return _null_play(points, tricks, steps)
    assert points is not None
    return _suit_play(points, tricks, steps, pointless_tricks=tricks > 0 and in_tricks == 0)


def _check_own_cards(
    trick_cards: Sequence[Card],
    tricks: int,
    declarer_cards: Sequence[Card],
    skat: Sequence[Card],
    problems: ProblemCollector,
) -> None:
    # The declarer plays exactly one card to every trick, so each trick the declarer
    # took holds exactly one of the declarer's own played cards.
    played = set(declarer_cards) - set(skat)
    own = [c for c in trick_cards if c in played]
    if len(own) != tricks:
        shown = f" ({labels(own)})" if own else ""
        problems.add(
            "declarer_trick_cards",
            f"Each trick the declarer took holds exactly one of the declarer's own cards, so "
            f"{_tricks_word(tricks)} need {tricks} of them; these cards hold {len(own)}{shown}.",
        )


def _null_play(points: int | None, tricks: int, steps: tuple[Step, ...]) -> _Play:
    if tricks == 0:
        text = "The declarer took no trick."
    else:
        text = f"The declarer took {_tricks_word(tricks)}."
    return _Play(tricks == 0, False, False, points, tricks, (*steps, Step(text, "skat-null")))


def _suit_play(
    points: int, tricks: int, steps: tuple[Step, ...], *, pointless_tricks: bool = False
) -> _Play:
    said = list(steps)
    won = points >= WINNING_POINTS
    if won:
        said.append(Step(f"{points} is 61 or more: the declarer wins the play.", "skat-winning"))
    elif points == ALL_POINTS // 2:
        said.append(
            Step("60:60 is not enough; the declarer needs 61, so the play is lost.", "skat-winning")
        )
    else:
        said.append(Step(f"{points} is below 61: the play is lost.", "skat-winning"))
    schneider = points >= ALL_POINTS - SCHNEIDER_POINTS or points <= SCHNEIDER_POINTS
    if points >= ALL_POINTS - SCHNEIDER_POINTS:
        said.append(
            Step(
                f"The opponents have {ALL_POINTS - points}, 30 or fewer: they are schneider.",
                "skat-schneider",
            )
        )
    elif schneider:
        said.append(
            Step(
                f"The declarer has {points}, 30 or fewer: the declarer is schneider, and the level counts "
                "in the lost game too.",
                "skat-schneider",
            )
        )
    schwarz = tricks in (0, ALL_TRICKS)
    if tricks == ALL_TRICKS:
        said.append(Step("The declarer took every trick: schwarz.", "skat-schwarz"))
    elif tricks == 0:
        said.append(
            Step(
                "The declarer took no trick: schwarz against the declarer, and it counts.",
                "skat-schwarz",
            )
        )
    elif points == ALL_POINTS:
        said.append(
            Step(
                f"The opponents took {_tricks_word(ALL_TRICKS - tricks)} without a single card point, "
                "but a trick is a trick: not schwarz.",
                "skat-schwarz",
            )
        )
    elif pointless_tricks:
        said.append(
            Step(
                "The declarer's tricks hold no card points, but a trick is a trick: not schwarz.",
                "skat-schwarz",
            )
        )
    return _Play(won, schneider, schwarz, points, tricks, tuple(said))


def _alternatives(
    *,
    bid: int,
    game: str,
    hand: bool,
    matadors: Matadors | None,
    declarer_cards: Sequence[Card] | None,
) -> str:
    """Declarations that could reach ``bid`` (keeping the hand/skat choice already made)."""
    if hand:
        declarations = [
            (False, "none"),
            (False, "schneider"),
            (False, "schwarz"),
            (True, "schwarz"),
        ]
    else:
        declarations = [(False, "none")]
    suit_options: list[str] = []
    for other in BASE_VALUES:
        if other == game and matadors is not None:
            held = matadors
        elif declarer_cards is not None:
            held = _matadors_from_cards(other, declarer_cards)[0]
        else:
            continue
        for ouvert, announced in declarations:
            most = BASE_VALUES[other] * _highest_multiplier(
                held, hand=hand, ouvert=ouvert, announced=announced
            )
            if most >= bid:
                name = contract_name(game=other, hand=hand, ouvert=ouvert, announced=announced)
                # The declared game comes first: the smallest change to what was said.
                suit_options.insert(
                    0 if other == game else len(suit_options), f"{name} (up to {most})"
                )
                break
    if declarer_cards is None:
        suit_options.append(
            "another suit or grand game" if game != "null" else "a suit or grand game"
        )
    null_options = [
        f"{name} ({NULL_VALUES[name]})"
        for name in (contract_name(game="null", hand=hand, ouvert=o) for o in (False, True))
        if NULL_VALUES[name] >= bid
    ]
    options = null_options + suit_options if game == "null" else suit_options + null_options
    if not options:
        return "no game with these cards reaches it, so the bid cannot be played as declared"
    text = options[0] if len(options) == 1 else ", ".join(options[:-1]) + " or " + options[-1]
    return f"declare {text}"


def _check_reachable(
    *,
    game: str,
    bid: int,
    hand: bool,
    ouvert: bool,
    announced: str,
    matadors: Matadors | None,
    declarer_cards: Sequence[Card] | None,
    problems: ProblemCollector,
) -> None:
    """A declaration whose best possible value stays below the bid may not be played."""
    name = contract_name(game=game, hand=hand, ouvert=ouvert, announced=announced)
    if game == "null":
        value = _null_value(hand, ouvert)
        if value < bid:
            others = _alternatives(
                bid=bid, game=game, hand=hand, matadors=None, declarer_cards=declarer_cards
            )
            problems.add("bid", f"You bid {bid} but {name} is worth {value}; {others}.")
        return
    if matadors is None:
        return
    if hand:
        # A hand game is declared without seeing the skat, and the matadors count the
        # skat's cards: a top trump lying there changes the count the declarer played
        # on. Such a game is not refused; it is lost as overbid if its value falls
        # short of the bid (ISkO 5.4.2: lost at the next multiple of the base value).
        return
    multiplier = _highest_multiplier(matadors, hand=hand, ouvert=ouvert, announced=announced)
    most = multiplier * BASE_VALUES[game]
    if most < bid:
        others = _alternatives(
            bid=bid, game=game, hand=hand, matadors=matadors, declarer_cards=declarer_cards
        )
        problems.add(
            "bid",
            f"You bid {bid} but {name} {matadors.label} is worth at most {most} "
            f"({multiplier} × {BASE_VALUES[game]}, even with schneider and schwarz); {others}.",
        )


def score_game(
    *,
    game: str,
    bid: int,
    hand: bool = False,
    ouvert: bool = False,
    announced: str = "none",
    matadors: Matadors | None = None,
    declarer_cards: Sequence[Card] | None = None,
    declarer_points: int | None = None,
    declarer_tricks: int | None = None,
    declarer_trick_cards: Sequence[Card] | None = None,
    skat: Sequence[Card] | None = None,
    outcome: str | None = None,
    kontra: bool = False,
    re: bool = False,
    bock: bool = False,
) -> GameResult:
    """Score one Skat game as the referee would, from the declaration and the play.

    Matadors (suit and grand) come from ``matadors`` or are counted from
    ``declarer_cards``; both may be given if they agree. The result comes from
    exactly one of: ``declarer_points`` with ``declarer_tricks``;
    ``declarer_trick_cards`` with ``skat``; or ``outcome``. In null only the tricks
    matter, ``matadors`` must be left out, and ``declarer_cards`` is only checked.
    """
    problems = ProblemCollector()
    game_ok = game in GAMES
    if not game_ok:
        problems.add("game", unknown_game_message(game))
    bid_message = _bid_problem(bid)
    if bid_message:
        problems.add("bid", bid_message)
    check_declaration(
        game=game,
        hand=hand,
        ouvert=ouvert,
        announced=announced,
        kontra=kontra,
        re=re,
        problems=problems,
    )
    declaration_ok = not problems
    cards_ok = declarer_cards is None or _check_twelve_cards(
        declarer_cards, "declarer_cards", problems
    )
    if not game_ok:
        problems.raise_if_any()
    counted, matador_steps = _read_matadors(
        game=game,
        matadors=matadors,
        declarer_cards=declarer_cards,
        cards_ok=cards_ok,
        problems=problems,
    )
    known_cards = declarer_cards if cards_ok else None
    play = _read_play(
        game=game,
        declarer_points=declarer_points,
        declarer_tricks=declarer_tricks,
        declarer_trick_cards=declarer_trick_cards,
        skat=skat,
        outcome=outcome,
        declarer_cards=known_cards,
        problems=problems,
    )
    if declaration_ok:
        _check_reachable(
            game=game,
            bid=bid,
            hand=hand,
            ouvert=ouvert,
            announced=announced,
            matadors=counted,
            declarer_cards=known_cards,
            problems=problems,
        )
    problems.raise_if_any()
    assert play is not None
    contract = contract_name(game=game, hand=hand, ouvert=ouvert, announced=announced)
    opening = Step(f"Contract: {contract}, after a bid of {bid}.", "skat-game-types")
    if game == "null":
        return _score_null(
            contract=contract,
            hand=hand,
            ouvert=ouvert,
            play=play,
            opening=opening,
            kontra=kontra,
            re=re,
            bock=bock,
        )
    assert counted is not None
    return _score_suit(
        game=game,
        contract=contract,
        bid=bid,
        hand=hand,
        ouvert=ouvert,
        announced=announced,
        matadors=counted,
        play=play,
        steps=[opening, *matador_steps],
        kontra=kontra,
        re=re,
        bock=bock,
    )


def _list_score(
    *, won: bool, game_value: int, kontra: bool, re: bool, bock: bool
) -> tuple[int, list[Step]]:
    """Won: +value; lost: −2 × value; then Kontra ×2 (Re ×4 instead) and Bock ×2."""
    steps = []
    if won:
        score = game_value
        steps.append(Step(f"Won: the declarer scores {signed(score)}.", "skat-list-score"))
    else:
        score = -2 * game_value
        steps.append(
            Step(
                f"Lost: a lost game counts double, −2 × {game_value} = {signed(score)}.",
                "skat-list-score",
            )
        )
    if re:
        score *= 4
        steps.append(
            Step(f"Kontra and Re: the score counts four times, {signed(score)}.", "skat-kontra-re")
        )
    elif kontra:
        score *= 2
        steps.append(Step(f"Kontra: the score counts double, {signed(score)}.", "skat-kontra-re"))
    if bock:
        score *= 2
        steps.append(Step(f"A Bock game counts double: {signed(score)}.", "skat-bock"))
    return score, steps


def _score_null(
    *,
    contract: str,
    hand: bool,
    ouvert: bool,
    play: _Play,
    opening: Step,
    kontra: bool,
    re: bool,
    bock: bool,
) -> GameResult:
    value = _null_value(hand, ouvert)
    steps = [
        opening,
        Step(
            f"{contract} has a fixed value of {value}; Null has no matadors and no levels.",
            "skat-null",
        ),
        *play.steps,
    ]
    if play.won:
        steps.append(
            Step("A Null game is won when the declarer takes no trick at all.", "skat-null")
        )
    else:
        steps.append(
            Step("A Null game is lost as soon as the declarer takes a trick.", "skat-null")
        )
    score, score_steps = _list_score(
        won=play.won, game_value=value, kontra=kontra, re=re, bock=bock
    )
    return GameResult(
        won=play.won,
        overbid=False,
        base_value=value,
        multiplier=None,
        matadors=None,
        game_value=value,
        score=score,
        levels=(),
        declarer_points=play.points,
        declarer_tricks=play.tricks,
        schneider=False,
        schwarz=False,
        contract=contract,
        explanation=(*steps, *score_steps),
    )


def _announcement_steps(announced: str, ouvert: bool, play: _Play) -> tuple[bool, list[Step]]:
    """Whether the announcement was made, and how the referee says so."""
    said = _effective_announcement(announced, ouvert)
    steps = []
    if ouvert:
        tail = {
            "none": ", though nothing was announced",
            "schneider": ", though only schneider was announced",
        }.get(announced, "")
        steps.append(
            Step(
                "An open game always counts as schwarz announced, and so schneider announced "
                f"too{tail}: the declarer must take every trick.",
                "skat-ouvert",
            )
        )
    if said == "schneider":
        if play.won and play.schneider:
            steps.append(
                Step(
                    "Schneider was announced and the opponents are schneider.", "skat-announcements"
                )
            )
            return True, steps
        steps.append(
            Step(
                "Schneider was announced but the opponents are not schneider: the game is lost.",
                "skat-announcements",
            )
        )
        return False, steps
    if said == "schwarz":
        if play.won and play.schwarz:
            steps.append(
                Step(
                    "Schwarz was announced and the declarer took every trick.", "skat-announcements"
                )
            )
            return True, steps
        steps.append(
            Step(
                "Schwarz was announced but the opponents took a trick: the game is lost.",
                "skat-announcements",
            )
        )
        return False, steps
    return True, steps


def _levels(
    matadors: Matadors, *, hand: bool, ouvert: bool, announced: str, play: _Play
) -> tuple[tuple[str, int], ...]:
    # An announcement counts with every level below it, reached or not, and no level
    # counts twice.
    said = _effective_announcement(announced, ouvert)
    counted = [
        (matadors.label, matadors.count, True),
        (GAME_LEVEL, 1, True),
        (HAND_LEVEL, 1, hand),
        (SCHNEIDER_LEVEL, 1, play.schneider or said != "none"),
        (SCHNEIDER_ANNOUNCED_LEVEL, 1, said != "none"),
        (SCHWARZ_LEVEL, 1, play.schwarz or said == "schwarz"),
        (SCHWARZ_ANNOUNCED_LEVEL, 1, said == "schwarz"),
        (OUVERT_LEVEL, 1, ouvert),
    ]
    return tuple((label, count) for label, count, counts in counted if counts)


def _score_suit(
    *,
    game: str,
    contract: str,
    bid: int,
    hand: bool,
    ouvert: bool,
    announced: str,
    matadors: Matadors,
    play: _Play,
    steps: list[Step],
    kontra: bool,
    re: bool,
    bock: bool,
) -> GameResult:
    steps.extend(play.steps)
    announcement_made, announcement_steps = _announcement_steps(announced, ouvert, play)
    steps.extend(announcement_steps)
    levels = _levels(matadors, hand=hand, ouvert=ouvert, announced=announced, play=play)
    multiplier = sum(count for _, count in levels)
    base = BASE_VALUES[game]
    added = " + ".join(f"{label} ({count})" for label, count in levels)
    steps.append(Step(f"Levels: {added} = {multiplier}.", "skat-levels"))
    value = base * multiplier
    steps.append(
        Step(
            f"{GAME_NAMES[game]} counts {base} a level: {multiplier} × {base} = {value}.",
            "skat-game-value",
        )
    )
    overbid = value < bid
    won = play.won and announcement_made and not overbid
    if overbid:
        raised = math.ceil(bid / base) * base
        steps.append(
            Step(
                f"{value} is below the bid of {bid}: the declarer has overbid and loses.",
                "skat-overbid",
            )
        )
        steps.append(
            Step(
                f"The lost game is valued at the smallest multiple of {base} that reaches {bid}: "
                f"{raised // base} × {base} = {raised}.",
                "skat-overbid",
            )
        )
        value = raised
    else:
        steps.append(Step(f"{value} covers the bid of {bid}.", "skat-overbid"))
    score, score_steps = _list_score(won=won, game_value=value, kontra=kontra, re=re, bock=bock)
    return GameResult(
        won=won,
        overbid=overbid,
        base_value=base,
        multiplier=multiplier,
        matadors=matadors,
        game_value=value,
        score=score,
        levels=levels,
        declarer_points=play.points,
        declarer_tricks=play.tricks,
        schneider=play.schneider,
        schwarz=play.schwarz,
        contract=contract,
        explanation=(*steps, *score_steps),
    )


# ---------------------------------------------------------------------------
# Tricks and following suit


@dataclass(frozen=True)
class TrickResult:
    """Which of the three cards (0, 1 or 2, in play order) takes the trick."""

    winner: int
    explanation: tuple[Step, ...]


@dataclass(frozen=True)
class FollowResult:
    """Whether a card may be played to the card that was led."""

    legal: bool
    explanation: tuple[Step, ...]


def _led_words(card: Card, game: str) -> str:
    suit = plays_as_suit(card, game)
    if suit == TRUMP and card.rank == "J":
        return (
            f"{card.label} was led; in {GAME_NAMES[game]} every jack is a trump, so trumps were led"
        )
    if suit == TRUMP:
        return f"{card.label} was led: trumps were led"
    return f"{card.label} was led: the suit to follow is {_suit_words(suit)}"


def _strength(card: Card, game: str, led_suit: str) -> tuple[int, int]:
    """Trumps beat the suit led, which beats every other suit; then rank within."""
    suit = plays_as_suit(card, game)
    if suit == TRUMP:
        return 2, -trumps(game).index(card)
    if suit == led_suit:
        order = NULL_RANKS if game == "null" else SUIT_GAME_RANKS
        return 1, -order.index(card.rank)
    return 0, 0


def _cannot_win(off: list[Card], led_suit: str) -> str:
    one = len(off) == 1
    if led_suit == TRUMP:
        return (
            f"{labels(off)} {'is not a trump' if one else 'are not trumps'}, "
            f"so {'it' if one else 'they'} cannot take the trick."
        )
    return (
        f"{labels(off)} neither {'follows' if one else 'follow'} {_suit_words(led_suit)} "
        f"nor {'is a trump' if one else 'are trumps'}, so {'it' if one else 'they'} cannot take the trick."
    )


def trick_winner(*, game: str, cards: Sequence[Card]) -> TrickResult:
    """The card that takes a trick of three, given in play order (field ``cards``)."""
    problems = ProblemCollector()
    if game not in GAMES:
        problems.add("game", unknown_game_message(game))
    if len(cards) != 3:
        problems.add("cards", f"A Skat trick is 3 cards, one from each player; got {len(cards)}.")
    check_skat_cards(cards, "cards", problems)
    problems.raise_if_any()
    led_suit = plays_as_suit(cards[0], game)
    strengths = [_strength(c, game, led_suit) for c in cards]
    winner = max(range(3), key=lambda i: strengths[i])
    steps = [Step(f"{_led_words(cards[0], game)}.", "skat-follow")]
    if game == "null":
        steps.append(
            Step("Null has no trumps, and the jack ranks between queen and ten.", "skat-trumps")
        )
    off = [c for c in cards if plays_as_suit(c, game) not in (led_suit, TRUMP)]
    if off:
        steps.append(Step(_cannot_win(off, led_suit), "skat-tricks"))
    if led_suit == TRUMP:
        text = f"The highest trump, {cards[winner].label}, takes the trick"
    elif strengths[winner][0] == 2:
        text = f"Trumps beat every other card; the highest trump, {cards[winner].label}, takes the trick"
    else:
        text = f"The highest of the {_suit_words(led_suit)} led, {cards[winner].label}, takes the trick"
    steps.append(Step(f"{text} (card {winner + 1}).", "skat-tricks"))
    return TrickResult(winner, tuple(steps))


def follow_check(*, game: str, led: Card, hand: Sequence[Card], played: Card) -> FollowResult:
    """Whether ``played`` from ``hand`` may answer ``led``: follow suit if you can."""
    problems = ProblemCollector()
    if game not in GAMES:
        problems.add("game", unknown_game_message(game))
    if led not in SKAT_DECK:
        problems.add("led", _not_skat_card_message(led))
    if played not in SKAT_DECK:
        problems.add("played", _not_skat_card_message(played))
    if not 1 <= len(hand) <= 10:
        problems.add("hand", f"A Skat hand holds 1 to 10 cards; got {len(hand)}.")
    check_skat_cards(hand, "hand", problems)
    if led in hand:
        problems.add(
            "led", f"{led.label} was led by another player, so it cannot also be in this hand."
        )
    if played not in hand:
        held = f" ({labels(hand)})" if hand else ": the hand is empty"
        problems.add("played", f"{played.label} is not in the hand{held}.")
    problems.raise_if_any()
    suit = plays_as_suit(led, game)
    followers = [c for c in hand if plays_as_suit(c, game) == suit]
    steps = [Step(f"{_led_words(led, game)}.", "skat-follow")]
    if game == "null" and any(c.rank == "J" for c in (led, played, *followers)):
        steps.append(Step("Null has no trumps: a jack belongs to its printed suit.", "skat-null"))
    jacks_of_suit = [c for c in hand if c.rank == "J" and c.suit == suit and game != "null"]
    if jacks_of_suit:
        steps.append(
            Step(
                f"{labels(jacks_of_suit)} does not count as a {_suit_words(suit, plural=False)}: "
                f"in {GAME_NAMES[game]} every jack is a trump.",
                "skat-trumps",
            )
        )
    if not followers:
        steps.append(
            Step(
                f"The hand holds no {_suit_words(suit, plural=False)}, so any card may be played: "
                f"{played.label} is allowed.",
                "skat-follow",
            )
        )
        return FollowResult(True, tuple(steps))
    steps.append(
        Step(
            f"The hand holds {labels(followers)}, so "
            f"{'one of them' if len(followers) > 1 else 'it'} must be played.",
            "skat-follow",
        )
    )
    legal = played in followers
    if legal:
        steps.append(Step(f"{played.label} follows: allowed.", "skat-follow"))
    else:
        steps.append(Step(_does_not_follow(played, game, suit), "skat-follow"))
    return FollowResult(legal, tuple(steps))


def _does_not_follow(played: Card, game: str, led_suit: str) -> str:
    belongs = _suit_words(plays_as_suit(played, game), plural=False)
    return (
        f"{played.label} is a {belongs}, not a {_suit_words(led_suit, plural=False)}: not allowed."
    )


# ---------------------------------------------------------------------------
# Bidding


@dataclass(frozen=True)
class BiddingResult:
    """Who became declarer at which bid, or that everyone passed."""

    declarer: str | None
    bid: int | None
    passed_out: bool
    explanation: tuple[Step, ...]


class _Auction:
    """The bidding as it goes: who bids to whom and the bid standing."""

    def __init__(self) -> None:
        # Middlehand bids to forehand first; the survivor then hears rearhand.
        self.bidder = "middlehand"
        self.holder = "forehand"
        self.duel = 1
        self.stage: Literal["bid", "answer", "forehand alone", "over"] = "bid"
        self.bid: int | None = None
        self.declarer: str | None = None
        self.passed: list[str] = []
        self.steps: list[Step] = []

    @property
    def speaker(self) -> str | None:
        return {"bid": self.bidder, "answer": self.holder, "forehand alone": "forehand"}.get(
            self.stage
        )

    def what_is_expected(self) -> str:
        if self.stage == "bid":
            more = f"more than {self.bid}" if self.bid else "18 or more"
            return f"{self.bidder} to bid {more} to {self.holder}, or pass"
        if self.stage == "answer":
            return f"{self.holder} to answer {self.bidder}'s {self.bid} with yes or pass"
        return "forehand to bid 18 or more, or pass"

    def hear(self, position: str, call: int | str) -> str | None:
        """Take one call; the message if it breaks the bidding rules."""
        if self.stage == "over":
            return "The bidding was already over; no more calls belong here."
        if position != self.speaker:
            if position in self.passed:
                return f"{position.capitalize()} already passed, and a pass is final; it is {self.what_is_expected()}."
            return f"It is {self.what_is_expected()}; {position} spoke out of turn."
        if self.stage == "answer":
            return self._answer(call)
        return self._bid(call)

    def _bid(self, call: int | str) -> str | None:
        speaker = self.speaker
        if call == HOLD:
            return f"{str(speaker).capitalize()} is the one bidding here: name a bid or pass; yes is the answer to a bid."
        if call == PASS:
            self.passed.append(str(speaker))
            if self.stage == "forehand alone":
                self.steps.append(
                    Step(
                        "Forehand passes too: all three passed, the deal is thrown in.",
                        "skat-bidding",
                    )
                )
                self.stage = "over"
                return None
            self.steps.append(Step(f"{self.bidder.capitalize()} passes.", "skat-bidding"))
            self._end_duel(self.holder)
            return None
        assert isinstance(call, int)
        if self.bid is not None and call <= self.bid:
            return f"{self.bidder.capitalize()} bid {call}, but the bid already stands at {self.bid}; bid more or pass."
        self.bid = call
        if self.stage == "forehand alone":
            self.steps.append(Step(f"Forehand bids {call} and is declarer.", "skat-bidding"))
            self.declarer = "forehand"
            self.stage = "over"
            return None
        self.steps.append(
            Step(f"{self.bidder.capitalize()} bids {call} to {self.holder}.", "skat-bidding")
        )
        self.stage = "answer"
        return None

    def _answer(self, call: int | str) -> str | None:
        if call == HOLD:
            self.steps.append(Step(f"{self.holder.capitalize()} holds {self.bid}.", "skat-bidding"))
            self.stage = "bid"
            return None
        if call == PASS:
            self.passed.append(self.holder)
            self.steps.append(Step(f"{self.holder.capitalize()} passes.", "skat-bidding"))
            self._end_duel(self.bidder)
            return None
        return (
            f"{self.holder.capitalize()} answers {self.bidder}'s {self.bid} with yes or pass; "
            f"only {self.bidder} names numbers here."
        )

    def _end_duel(self, survivor: str) -> None:
        if self.duel == 1:
            self.duel = 2
            self.bidder, self.holder, self.stage = "rearhand", survivor, "bid"
            at = f" at {self.bid}" if self.bid else ""
            self.steps.append(
                Step(
                    f"{survivor.capitalize()} stays in{at}; rearhand bids to {survivor} next.",
                    "skat-bidding",
                )
            )
        elif self.bid is None:
            self.stage = "forehand alone"
            self.steps.append(
                Step(
                    "Middlehand and rearhand passed without a bid: forehand may play at 18 or more, or pass.",
                    "skat-bidding",
                )
            )
        else:
            self.declarer, self.stage = survivor, "over"
            self.steps.append(
                Step(f"{survivor.capitalize()} is declarer at {self.bid}.", "skat-bidding")
            )


def _call_problem(pair: object) -> str | None:
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        return 'Each call is a pair: a position and what was said, like ["middlehand", 18].'
    position, call = pair
    if position not in POSITIONS:
        return f'"{position}" is not a seat; use forehand, middlehand or rearhand.'
    if isinstance(call, bool) or not isinstance(call, (int, str)):
        return 'A call is a bid (a number), "yes" or "pass".'
    if isinstance(call, str) and call not in (HOLD, PASS):
        return f'"{call}" is not a call; say a bid (a number), "yes" or "pass".'
    if isinstance(call, int):
        return _bid_problem(call)
    return None


def check_bidding(*, calls: Sequence[tuple[str, int | str]]) -> BiddingResult:
    """Check a bidding sequence and say who declares at which bid (problems at ``calls.<i>``)."""
    problems = ProblemCollector()
    auction = _Auction()
    in_order = True
    for i, pair in enumerate(calls):
        shape = _call_problem(pair)
        if shape:
            problems.add(f"calls.{i}", shape)
            in_order = False
        elif in_order:
            position, call = pair
            broken = auction.hear(position, call)
            if broken:
                problems.add(f"calls.{i}", broken)
                in_order = False
    if in_order and auction.stage != "over":
        problems.add("calls", f"The bidding is not finished: it is {auction.what_is_expected()}.")
    problems.raise_if_any()
    return BiddingResult(
        declarer=auction.declarer,
        bid=auction.bid,
        passed_out=auction.declarer is None,
        explanation=tuple(auction.steps),
    )
