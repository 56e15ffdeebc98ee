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
from functools import cache, lru_cache
from typing import Literal, NamedTuple

from .cards import SKAT_DECK, SUIT_NAMES, Card, labels
from .errors import Explanation, ProblemCollector, RuleError, Step
from .text import Message, _, join, ngettext, pgettext
from .words import capitalised, joined, signed

# Titles of the rule book's sections.
RULE_SECTIONS: dict[str, str] = {
    "skat-cards": _("Cards"),
    "skat-card-points": _("Card points"),
    "skat-game-types": pgettext("Skat rule book section", "Games"),
    "skat-trumps": _("Trumps"),
    "skat-follow": _("Following suit"),
    "skat-tricks": _("Who takes the trick"),
    "skat-matadors": _("Matadors"),
    "skat-game-value": _("Game value"),
    "skat-levels": pgettext("Skat rule book section", "Levels"),
    "skat-hand": _("Hand games"),
    "skat-schneider": pgettext("Skat rule book section", "Schneider"),
    "skat-schwarz": pgettext("Skat rule book section", "Schwarz"),
    "skat-announcements": _("Announcing schneider and schwarz"),
    "skat-ouvert": pgettext("Skat rule book section", "Ouvert"),
    "skat-null": pgettext("Skat rule book section", "Null"),
    "skat-winning": _("Winning and losing"),
    "skat-list-score": _("Score on the list"),
    "skat-overbid": _("Overbidding"),
    "skat-bids": _("Legal bids"),
    "skat-bidding": _("Bidding"),
    "skat-kontra-re": _("Kontra and Re"),
    "skat-bock": _("Bock games"),
}

GAMES = ("diamonds", "hearts", "spades", "clubs", "grand", "null")
SUIT_GAMES = ("diamonds", "hearts", "spades", "clubs")
GAME_SUITS = {"diamonds": "D", "hearts": "H", "spades": "S", "clubs": "C"}
# The games as players name them, shown in sentences and contracts.
GAME_NAMES: dict[str, str] = {
    "diamonds": pgettext("Skat game", "Diamonds"),
    "hearts": pgettext("Skat game", "Hearts"),
    "spades": pgettext("Skat game", "Spades"),
    "clubs": pgettext("Skat game", "Clubs"),
    "grand": pgettext("Skat game", "Grand"),
    "null": pgettext("Skat game", "Null"),
}
# What stands where the contract would for a game entered by its value alone, as a
# paper list writes it (games.rules.skat_value).
BY_VALUE_GAME = pgettext("Skat game", "By value")
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
# One card of a suit, as in "the hand holds no club".
SUIT_SINGULARS: dict[str, str] = {
    "C": pgettext("one card of the suit", "club"),
    "S": pgettext("one card of the suit", "spade"),
    "H": pgettext("one card of the suit", "heart"),
    "D": pgettext("one card of the suit", "diamond"),
}

# The levels besides matadors, in the order a referee counts them (shown as "game (1)").
GAME_LEVEL = pgettext("Skat level", "game")
HAND_LEVEL = pgettext("Skat level", "hand")
SCHNEIDER_LEVEL = pgettext("Skat level", "schneider")
SCHNEIDER_ANNOUNCED_LEVEL = pgettext("Skat level", "schneider announced")
SCHWARZ_LEVEL = pgettext("Skat level", "schwarz")
SCHWARZ_ANNOUNCED_LEVEL = pgettext("Skat level", "schwarz announced")
OUVERT_LEVEL = pgettext("Skat level", "ouvert")
LEVELS_BESIDES_MATADORS = 7


# ---------------------------------------------------------------------------
# Cards and trumps


def unknown_game_message(game: object) -> str:
    return _(
        # Translators: {game} is what was sent, as typed; the six words are the API's game codes.
        '"{game}" is not a Skat game; choose diamonds, hearts, spades, clubs, grand or null.',
        game=str(game),
    )


def _require_game(game: str) -> None:
    if game not in GAMES:
        raise RuleError(unknown_game_message(game), "game")


def _require_skat_card(card: Card) -> None:
    if card not in SKAT_DECK:
        raise RuleError(_not_skat_card_message(card))


def _not_skat_card_message(card: Card) -> str:
    return _(
        # Translators: {card} is a card such as "6♥".
        "{card} is not a Skat card; Skat uses 7, 8, 9, 10, J, Q, K and A of each suit.",
        card=card.label,
    )


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
        return pgettext("the cards", "trumps") if plural else pgettext("one card", "trump")
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
        return _matadors_label(self.direction, self.count)

    def as_dict(self) -> dict[str, int]:
        return {self.direction: self.count}

    @classmethod
    def from_mapping(cls, data: object, field: str = "matadors") -> Matadors:
        """Read ``{"with": N}`` or ``{"against": N}``; the count's range depends on the game."""
        # The JSON shapes are code, the same in every language.
        shape = {"with_n": '{"with": N}', "against_n": '{"against": N}'}
        if not isinstance(data, dict) or len(data) != 1:
            raise RuleError(
                _(
                    # Translators: {with_n} and {against_n} are JSON: {"with": N} and {"against": N}.
                    "Give matadors as {with_n} or {against_n}, with exactly one of the two.",
                    **shape,
                ),
                field,
            )
        ((direction, count),) = data.items()
        if direction not in ("with", "against"):
            raise RuleError(
                _(
                    # Translators: {with_n} and {against_n} are JSON: {"with": N} and {"against": N};
                    # {direction} is the key that was sent instead.
                    'Give matadors as {with_n} or {against_n}; "{direction}" is neither.',
                    direction=str(direction),
                    **shape,
                ),
                field,
            )
        if isinstance(count, bool) or not isinstance(count, int):
            raise RuleError(
                # Translators: {with_n} and {against_n} are JSON: {"with": N} and {"against": N}.
                _("Give matadors as {with_n} or {against_n}, N being a whole number.", **shape),
                field,
            )
        return cls(direction, count)


@lru_cache(maxsize=128)
def _matadors_label(direction: str, count: int) -> str:
    # A Text is immutable: every result with the same matadors shares one.
    if direction == "with":
        # Translators: matadors, "with 2": the declarer holds the top 2 trumps.
        return _("with {count}", count=count)
    if direction == "against":
        # Translators: matadors, "against 2": the declarer misses the top 2 trumps.
        return _("against {count}", count=count)
    return f"{direction} {count}"


def _most_matadors(game: str) -> int:
    return len(trumps(game))


def _check_twelve_cards(cards: Sequence[Card], field: str, problems: ProblemCollector) -> bool:
    """The declarer's 10 dealt cards plus the 2 skat cards."""
    before = len(problems.problems)
    if len(cards) != 12:
        problems.add(
            field,
            _(
                "Give the declarer's 12 cards: the 10 dealt cards and the 2 skat cards "
                "(got {count}).",
                count=len(cards),
            ),
        )
    check_skat_cards(cards, field, problems)
    return len(problems.problems) == before


def check_skat_cards(cards: Sequence[Card], field: str, problems: ProblemCollector) -> None:
    for i, c in enumerate(cards):
        if c not in SKAT_DECK:
            problems.add(f"{field}.{i}", _not_skat_card_message(c))
    for problem in SKAT_DECK.duplicate_problems(cards, field):
        problems.add(problem.field, problem.message)


def _matadors_from_cards(game: str, cards: Iterable[Card]) -> Matadors:
    """Walk the trumps from the top; the skat counts too, even in a hand game."""
    order = trumps(game)
    held = set(cards)
    if order[0] in held:
        run = 0
        while run < len(order) and order[run] in held:
            run += 1
        return Matadors("with", run)
    missing = 0
    while missing < len(order) and order[missing] not in held:
        missing += 1
    return Matadors("against", missing)


def _counted_matadors_step(game: str, result: Matadors) -> Step:
    """How :func:`_matadors_from_cards` came to ``result``, walking the same trumps."""
    order = trumps(game)
    name = GAME_NAMES[game]
    if result.direction == "with":
        run = result.count
        if run == len(order):
            text = _(
                # Translators: {game} is e.g. "Grand"; {matadors} is e.g. "with 4".
                "The declarer's 12 cards (skat included) hold every trump of {game}: {matadors}.",
                game=name,
                matadors=result.label,
            )
        else:
            text = _(
                # Translators: {cards} is a list of cards such as "J♣ J♠"; {missing} is one card;
                # {matadors} is e.g. "with 2".
                "The declarer's 12 cards (skat included) hold {cards} from the top "
                "and then miss {missing}: {matadors}.",
                cards=labels(order[:run]),
                missing=order[run].label,
                matadors=result.label,
            )
    else:
        missing = result.count
        if missing == len(order):
            text = _(
                # Translators: {game} is e.g. "Grand"; {matadors} is e.g. "against 4".
                "The declarer's 12 cards (skat included) hold no trump of {game}: {matadors}.",
                game=name,
                matadors=result.label,
            )
        else:
            text = _(
                # Translators: {cards} is a list of cards such as "J♣ J♠"; {highest} is one card;
                # {matadors} is e.g. "against 2".
                "The declarer's 12 cards (skat included) miss {cards}; "
                "the highest trump held is {highest}: {matadors}.",
                cards=labels(order[:missing]),
                highest=order[missing].label,
                matadors=result.label,
            )
    return Step(text, "skat-matadors")


def count_matadors(*, game: str, cards: Sequence[Card]) -> Matadors:
    """Matadors from the declarer's 10 cards and the 2 skat cards (field ``declarer_cards``)."""
    problems = ProblemCollector()
    if game not in GAMES:
        problems.add("game", unknown_game_message(game))
    elif game == "null":
        problems.add("game", _("Null is played without trumps, so it has no matadors."))
    _check_twelve_cards(cards, "declarer_cards", problems)
    problems.raise_if_any()
    return _matadors_from_cards(game, cards)


# ---------------------------------------------------------------------------
# Values and bids


def contract_name(
    *, game: str, hand: bool = False, ouvert: bool = False, announced: str = "none"
) -> str:
    """A readable contract: "Clubs Hand, schneider announced", "Grand Ouvert", "Null Ouvert Hand"."""
    _require_game(game)
    # Any other announcement names the contract as none does.
    said = announced if announced in ("schneider", "schwarz") else "none"
    return _contract_name(game, bool(hand), bool(ouvert), said)


@lru_cache(maxsize=128)
def _contract_name(game: str, hand: bool, ouvert: bool, announced: str) -> str:
    # A Text is immutable: every result with the same contract shares one.
    name = GAME_NAMES[game]
    if game == "null":
        if ouvert:
            return _("Null Ouvert Hand") if hand else _("Null Ouvert")
        return _("Null Hand") if hand else name
    if ouvert:
        # An open suit or grand game is always a hand game with schwarz announced.
        # Translators: {game} is a suit or "Grand".
        return _("{game} Ouvert", game=name)
    if announced == "schneider":
        if hand:
            # Translators: {game} is a suit or "Grand".
            return _("{game} Hand, schneider announced", game=name)
        # Translators: {game} is a suit or "Grand".
        return _("{game}, schneider announced", game=name)
    if announced == "schwarz":
        if hand:
            # Translators: {game} is a suit or "Grand".
            return _("{game} Hand, schwarz announced", game=name)
        # Translators: {game} is a suit or "Grand".
        return _("{game}, schwarz announced", game=name)
    if hand:
        # Translators: {game} is a suit or "Grand".
        return _("{game} Hand", game=name)
    return name


def contract_named(english: str) -> str:
    """The contract whose English name this is, as a translatable Text (the name as
    given when no contract has it). For names kept as plain English, such as a circle's
    stored "biggest game"."""
    return _contracts_by_name().get(english, english)


@cache
def _contracts_by_name() -> dict[str, str]:
    names: dict[str, str] = {}
    for game in GAMES:
        for hand in (False, True):
            for ouvert in (False, True):
                for announced in ("none", "schneider", "schwarz"):
                    named = contract_name(game=game, hand=hand, ouvert=ouvert, announced=announced)
                    names.setdefault(str.__str__(named), named)
    # A game entered by its value alone stands where a contract would.
    names.setdefault(str.__str__(BY_VALUE_GAME), BY_VALUE_GAME)
    return names


def _null_key(hand: bool, ouvert: bool) -> str:
    """The key of :data:`NULL_VALUES` (English, never shown): "Null Ouvert Hand"."""
    return "Null" + (" Ouvert" if ouvert else "") + (" Hand" if hand else "")


def null_value(*, hand: bool, ouvert: bool) -> int:
    """The fixed value of Null: 23, Hand 35, Ouvert 46, Ouvert Hand 59."""
    return NULL_VALUES[_null_key(hand, ouvert)]


def _null_value(hand: bool, ouvert: bool) -> int:
    return null_value(hand=hand, ouvert=ouvert)


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


def _bid_problem(bid: int) -> str | None:
    if bid in BIDS:
        return None
    if bid < BIDS[0]:
        return _("The lowest bid is {lowest}; {bid} is not a bid.", lowest=BIDS[0], bid=bid)
    if bid > HIGHEST_BID:
        return _(
            "No game is worth more than {highest} (Grand Ouvert with 4), so {bid} cannot be bid.",
            highest=HIGHEST_BID,
            bid=bid,
        )
    at = bisect.bisect_left(BIDS, bid)
    return _(
        # Translators: {below} and {above} are the legal bids on either side of {bid}.
        "{bid} is not a legal bid, because no game is worth exactly that; "
        "the nearest bids are {below} and {above}.",
        bid=bid,
        below=BIDS[at - 1],
        above=BIDS[at],
    )


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
            worth[base * multiplier].append(
                # Translators: a game and its number of levels, "Grand ×5" (worth 5 × 24 = 120).
                _("{game} ×{multiplier}", game=GAME_NAMES[game], multiplier=multiplier)
            )
    for hand, ouvert in ((False, False), (True, False), (False, True), (True, True)):
        worth[null_value(hand=hand, ouvert=ouvert)].append(
            contract_name(game="null", hand=hand, ouvert=ouvert)
        )
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
    explanation: Explanation


@dataclass(frozen=True)
class _Play:
    """What the cards decided, before the bid and the announcements are looked at."""

    won: bool  # suit/grand: 61 points or more; null: no trick taken
    schneider: bool  # one side has 30 points or fewer
    schwarz: bool  # one side took no trick
    points: int | None
    tricks: int | None
    steps: tuple[Step, ...]  # what the referee says of the play; () when not saying


_SORTED_CARD_POINTS = sorted(CARD_POINTS[c.rank] for c in SKAT_DECK.cards)


def _possible_points(tricks: int) -> tuple[int, int]:
    """Fewest and most card points in ``tricks`` tricks plus the skat."""
    held = 3 * tricks + 2
    return sum(_SORTED_CARD_POINTS[:held]), sum(_SORTED_CARD_POINTS[-held:])


@cache
def reachable_points(without: tuple[int, ...] = ()) -> tuple[frozenset[int], ...]:
    """For n = 0, 1, …: every card-point total some n cards of the deck can add up to,
    the cards worth ``without`` (sorted; the skat's, say) left out. No card is worth 1,
    and few cards leave gaps (two make 0, 2 to 8, 10 to 15 or 20 to 22)."""
    values = list(_SORTED_CARD_POINTS)
    for value in without:
        values.remove(value)
    sums: list[set[int]] = [{0}] + [set() for _ in values]
    for value in values:
        for count in range(len(values), 0, -1):
            sums[count] |= {total + value for total in sums[count - 1]}
    return tuple(frozenset(each) for each in sums)


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
            "announced",
            _(
                # Translators: {announced} is what was sent, as typed; none, schneider and
                # schwarz are the API's values.
                '"{announced}" is not an announcement; say none, schneider or schwarz.',
                announced=str(announced),
            ),
        )
    elif announced != "none" and game == "null":
        problems.add(
            "announced",
            _("Null has no schneider to announce: the declarer simply must take no trick.")
            if announced == "schneider"
            else _("Null has no schwarz to announce: the declarer simply must take no trick."),
        )
    elif announced != "none" and game in BASE_VALUES and not hand:
        problems.add(
            "announced",
            _(
                "Schneider can only be announced in a hand game; "
                "after picking up the skat it can still be played, just not announced."
            )
            if announced == "schneider"
            else _(
                "Schwarz can only be announced in a hand game; "
                "after picking up the skat it can still be played, just not announced."
            ),
        )
    if ouvert and game in BASE_VALUES and not hand:
        problems.add(
            "ouvert",
            _(
                # Translators: {game} is a suit or "Grand".
                "{game} Ouvert can only be played as a hand game; "
                "either play it hand or, after picking up the skat, play it closed.",
                game=GAME_NAMES[game],
            ),
        )
    if re and not kontra:
        problems.add("re", _("Re answers a Kontra; without Kontra there is no Re."))


def _read_matadors(
    *,
    game: str,
    matadors: Matadors | None,
    declarer_cards: Sequence[Card] | None,
    cards_ok: bool,
    problems: ProblemCollector,
    say: bool,
) -> tuple[Matadors | None, tuple[Step, ...]]:
    """The matadors of a suit or grand game, as given or counted from the declarer's cards,
    and (``say``) the step that says so.

    Both may be given when they agree; null must have none.
    """
    if game == "null":
        if matadors is not None:
            problems.add(
                "matadors",
                _("Null is played without trumps, so it has no matadors; leave them out."),
            )
        return None, ()
    given = _check_given_matadors(game, matadors, problems)
    if declarer_cards is None:
        if matadors is None:
            problems.add(
                "matadors",
                _(
                    # Translators: {game} is a suit or "Grand".
                    "{game} needs the matadors: give them as with/against N, "
                    "or give the declarer's 12 cards (skat included) to count them.",
                    game=GAME_NAMES[game],
                ),
            )
        if given is None or not say:
            return given, ()
        # Translators: {matadors} is e.g. "with 2" or "against 1".
        return given, (Step(_("Matadors: {matadors}.", matadors=given.label), "skat-matadors"),)
    if not cards_ok:
        return None, ()
    counted = _matadors_from_cards(game, declarer_cards)
    if matadors is not None and given != counted:
        if given is not None:
            problems.add(
                "matadors",
                _(
                    # Translators: {given} and {counted} are matadors, e.g. "with 2" and "against 1";
                    # {game} is a suit or "Grand".
                    "You gave {given}, but the declarer's cards make it {counted} "
                    "in {game}; correct one of them or leave the matadors out.",
                    given=given.label,
                    counted=counted.label,
                    game=GAME_NAMES[game],
                ),
            )
        return None, ()
    return counted, (_counted_matadors_step(game, counted),) if say else ()


def _check_given_matadors(
    game: str, matadors: Matadors | None, problems: ProblemCollector
) -> Matadors | None:
    if matadors is None:
        return None
    most = _most_matadors(game)
    if matadors.direction not in ("with", "against"):
        problems.add("matadors", _('Matadors are "with" or "against" a number.'))
        return None
    if not 1 <= matadors.count <= most:
        problems.add(
            "matadors",
            _(
                # Translators: {game} is a suit or "Grand"; {matadors} is e.g. "with 12".
                "{game} has {most} trumps, so matadors run from 1 to {most}; "
                "{matadors} is not possible.",
                game=GAME_NAMES[game],
                most=most,
                matadors=matadors.label,
            ),
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
        problems.add("skat", _("The skat is 2 cards; got {count}.", count=len(skat)))
    check_skat_cards(skat, "skat", problems)
    if declarer_cards is not None:
        for i, c in enumerate(skat):
            if c not in declarer_cards:
                problems.add(
                    f"skat.{i}",
                    _(
                        # Translators: {card} is a card such as "J♣".
                        "{card} is in the skat but not among the declarer's 12 cards; "
                        "the skat the declarer keeps or lays down comes from those cards.",
                        card=c.label,
                    ),
                )
    return len(problems.problems) == before


def _result_ways(
    *,
    declarer_points: int | None,
    declarer_tricks: int | None,
    declarer_trick_cards: Sequence[Card] | None,
    outcome: str | None,
) -> list[str]:
    # Each way is shown in "Give the result one way only; you gave … and …".
    ways = []
    if declarer_points is not None or declarer_tricks is not None:
        ways.append(_("points and tricks"))
    if declarer_trick_cards is not None:
        ways.append(_("the declarer's trick cards"))
    if outcome is not None:
        ways.append(_("an outcome"))
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
    say: bool,
) -> _Play | None:
    """How the play went, from exactly one of the three ways of telling it; with ``say``,
    the steps that say so."""
    ways = _result_ways(
        declarer_points=declarer_points,
        declarer_tricks=declarer_tricks,
        declarer_trick_cards=declarer_trick_cards,
        outcome=outcome,
    )
    skat_ok = _read_skat(skat=skat, declarer_cards=declarer_cards, problems=problems)
    if not ways:
        problems.add(
            None,
            _(
                "Say how the game went: the declarer's tricks, or the cards of the declarer's "
                "tricks with the skat, or the outcome."
            )
            if game == "null"
            else _(
                "Say how the game went: the declarer's points and tricks, or the cards of the "
                "declarer's tricks with the skat, or the outcome."
            ),
        )
        return None
    if len(ways) == 2:
        problems.add(
            None,
            _(
                # Translators: {first} and {second} are two of "points and tricks", "the declarer's
                # trick cards" and "an outcome".
                "Give the result one way only; you gave {first} and {second}.",
                first=ways[0],
                second=ways[1],
            ),
        )
        return None
    if len(ways) > 2:
        problems.add(
            None,
            _(
                # Translators: {first}, {second} and {third} are "points and tricks", "the declarer's
                # trick cards" and "an outcome".
                "Give the result one way only; you gave {first} and {second} and {third}.",
                first=ways[0],
                second=ways[1],
                third=ways[2],
            ),
        )
        return None
    if outcome is not None:
        return _play_from_outcome(game, outcome, problems, say)
    if declarer_trick_cards is not None:
        return _play_from_trick_cards(
            game=game,
            trick_cards=declarer_trick_cards,
            skat=skat,
            skat_ok=skat_ok,
            declarer_cards=declarer_cards,
            problems=problems,
            say=say,
        )
    return _play_from_count(
        game=game,
        points=declarer_points,
        tricks=declarer_tricks,
        skat=skat if skat_ok else None,
        problems=problems,
        say=say,
    )


# Shown in "The play as entered: …".
_OUTCOME_WORDS = {
    "won": _("won (61 to 89 card points)"),
    "won_schneider": _("won schneider (90 card points or more)"),
    "won_schwarz": _("won schwarz (every trick)"),
    "lost": _("lost (31 to 60 card points)"),
    "lost_schneider": _("lost schneider (30 card points or fewer)"),
    "lost_schwarz": _("lost schwarz (no trick at all)"),
}


def _play_from_outcome(
    game: str, outcome: str, problems: ProblemCollector, say: bool
) -> _Play | None:
    if game == "null":
        if outcome not in NULL_OUTCOMES:
            problems.add(
                "outcome",
                _(
                    # Translators: {outcome} is what was sent, as typed.
                    'Null is simply won or lost (no schneider or schwarz); "{outcome}" does not fit.',
                    outcome=str(outcome),
                ),
            )
            return None
        won = outcome == "won"
        if not say:
            return _Play(won, False, False, None, 0 if won else None, ())
        text = _("The declarer took no trick.") if won else _("The declarer took a trick.")
        return _Play(won, False, False, None, 0 if won else None, (Step(text, "skat-null"),))
    if outcome not in OUTCOMES:
        problems.add(
            "outcome",
            _(
                # Translators: {outcome} is what was sent, as typed; the six words after "use" are
                # the API's values.
                '"{outcome}" is not an outcome; use won, won_schneider, won_schwarz, lost, '
                "lost_schneider or lost_schwarz.",
                outcome=str(outcome),
            ),
        )
        return None
    won = outcome.startswith("won")
    schwarz = outcome.endswith("schwarz")
    schneider = schwarz or outcome.endswith("schneider")
    if not say:
        return _Play(won, schneider, schwarz, None, None, ())
    step = Step(
        # Translators: {outcome} is e.g. "won schneider (90 card points or more)".
        _("The play as entered: {outcome}.", outcome=_OUTCOME_WORDS[outcome]),
        "skat-winning",
    )
    return _Play(won, schneider, schwarz, None, None, (step,))


def _no_such_sum(points: int, tricks: int | None) -> Message:
    """Why no cards give the declarer ``points`` (with ``tricks`` tricks, if known)."""
    if points == 1:
        return _("No card is worth 1 point, so 1 card point is not possible.")
    if points == ALL_POINTS - 1:
        return _(
            "{points} would leave the defenders exactly 1 card point, and no card is worth 1.",
            points=points,
        )
    if not tricks:
        return _(
            "With no trick the declarer has only the 2 skat cards, and no 2 cards add up "
            "to {points} card points.",
            points=points,
        )
    return ngettext(
        "With {n} trick and the skat the declarer holds {cards} cards, and no {cards} cards "
        "add up to {points} card points.",
        "With {n} tricks and the skat the declarer holds {cards} cards, and no {cards} cards "
        "add up to {points} card points.",
        tricks,
        n=tricks,
        cards=3 * tricks + 2,
        points=points,
    )


def _card_points(count: int) -> Message:
    return ngettext("{n} card point", "{n} card points", count, n=count)


def _fits_beside(skat: Sequence[Card], rest: int, tricks: int | None) -> bool:
    """Can ``tricks`` tricks (any number, if not known) of the cards beside the skat
    hold ``rest`` card points?"""
    sums = reachable_points(tuple(sorted(CARD_POINTS[c.rank] for c in skat)))
    counts = range(0, len(sums), 3) if tricks is None else (3 * tricks,)
    return any(count < len(sums) and rest in sums[count] for count in counts)


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
            _(
                "Card points run from 0 to 120 (skat included); {points} is not possible.",
                points=points,
            ),
        )
        points = None
    if tricks is not None and not 0 <= tricks <= ALL_TRICKS:
        problems.add(
            "declarer_tricks",
            _("A declarer takes 0 to 10 tricks; {tricks} is not possible.", tricks=tricks),
        )
        tricks = None
    if points is not None and tricks is not None:
        fewest, most = _possible_points(tricks)
        if not fewest <= points <= most:
            if tricks == 0:
                text = _(
                    "With no trick the declarer has only the 2 skat cards, at most {most} points; "
                    "{points} is not possible.",
                    most=most,
                    points=points,
                )
            elif tricks == ALL_TRICKS:
                text = _(
                    "Taking all 10 tricks gives the declarer all 120 card points, not {points}.",
                    points=points,
                )
            else:
                text = ngettext(
                    # Translators: {cards} is the number of cards in {n} tricks plus the skat.
                    "With {n} trick and the skat the declarer holds {cards} cards, "
                    "worth {fewest} to {most} card points; {points} is not possible.",
                    "With {n} tricks and the skat the declarer holds {cards} cards, "
                    "worth {fewest} to {most} card points; {points} is not possible.",
                    tricks,
                    n=tricks,
                    cards=3 * tricks + 2,
                    fewest=fewest,
                    most=most,
                    points=points,
                )
            problems.add("declarer_points", text)
            points = None
        elif points not in reachable_points()[3 * tricks + 2]:
            problems.add("declarer_points", _no_such_sum(points, tricks))
            points = None
    if points is not None and tricks is None and points in (1, ALL_POINTS - 1):
        # Whatever the tricks, one side would hold exactly 1 point.
        problems.add("declarer_points", _no_such_sum(points, None))
        points = None
    if points is not None and skat is not None:
        in_skat = count_points(skat)
        if points < in_skat or (tricks == 0 and points != in_skat):
            problems.add(
                "declarer_points",
                _(
                    # Translators: {skat} is the two skat cards, such as "J♣ 10♥".
                    "The skat ({skat}) alone holds {in_skat} points for the declarer, "
                    "so {points} does not fit a declarer without a trick.",
                    skat=labels(skat),
                    in_skat=in_skat,
                    points=points,
                )
                if tricks == 0
                else _(
                    "The skat ({skat}) alone holds {in_skat} points for the declarer, "
                    "so {points} does not fit.",
                    skat=labels(skat),
                    in_skat=in_skat,
                    points=points,
                ),
            )
        elif not _fits_beside(skat, points - in_skat, tricks):
            # The tricks hold the rest, in cards other than the skat's.
            problems.add(
                "declarer_points",
                _(
                    # Translators: {skat} is the two skat cards, such as "J♣ 10♥".
                    # {rest} is a number of card points ("1 card point").
                    "With the skat ({skat}) holding {in_skat}, the declarer's tricks would "
                    "hold {rest}, and no tricks of the other 30 cards add up to that.",
                    skat=labels(skat),
                    in_skat=in_skat,
                    rest=_card_points(points - in_skat),
                )
                if tricks is None
                else ngettext(
                    # Translators: {skat} is the two skat cards, such as "J♣ 10♥"; {cards}
                    # is the number of cards in {n} tricks; {rest} a number of card points
                    # ("1 card point").
                    "With the skat ({skat}) holding {in_skat}, the declarer's {n} trick "
                    "would hold {rest}, and no {cards} of the other 30 cards add up to that.",
                    "With the skat ({skat}) holding {in_skat}, the declarer's {n} tricks "
                    "would hold {rest}, and no {cards} of the other 30 cards add up to that.",
                    tricks,
                    skat=labels(skat),
                    in_skat=in_skat,
                    n=tricks,
                    rest=_card_points(points - in_skat),
                    cards=3 * tricks,
                ),
            )
    return len(problems.problems) == before


def _play_from_count(
    *,
    game: str,
    points: int | None,
    tricks: int | None,
    skat: Sequence[Card] | None,
    problems: ProblemCollector,
    say: bool,
) -> _Play | None:
    tricks_missing = tricks is None and (game == "null" or not _points_rule_out_schwarz(points))
    if tricks_missing:
        problems.add(
            "declarer_tricks",
            _("Give the number of tricks the declarer took (0 wins a Null game).")
            if game == "null"
            else _(
                "Give the number of tricks the declarer took with the card points; "
                "schwarz depends on it."
            ),
        )
    if points is None and game != "null":
        problems.add(
            "declarer_points",
            _("Give the declarer's card points (skat included) with the tricks."),
        )
    if not _check_points_and_tricks(points, tricks, skat, problems) or tricks_missing:
        return None
    if game == "null":
        assert tricks is not None
        return _null_play(points, tricks, (), say)
    if points is None:
        return None
    if not say:
        return _suit_play(points, tricks, (), say)
    if tricks is None:
        # The card points alone decide it: more than the skat can hold means a trick
        # taken, fewer than 120 means the opponents took one, so it is not schwarz.
        step = Step(
            _(
                "The declarer took {points} card points, skat included: between them the "
                "two sides took tricks, so it is not schwarz.",
                points=points,
            ),
            "skat-card-points",
        )
        return _suit_play(points, None, (step,), say)
    step = Step(
        ngettext(
            "The declarer took {n} trick with {points} card points, skat included.",
            "The declarer took {n} tricks with {points} card points, skat included.",
            tricks,
            n=tricks,
            points=points,
        ),
        "skat-card-points",
    )
    return _suit_play(points, tricks, (step,), say)


def _play_from_trick_cards(
    *,
    game: str,
    trick_cards: Sequence[Card],
    skat: Sequence[Card] | None,
    skat_ok: bool,
    declarer_cards: Sequence[Card] | None,
    problems: ProblemCollector,
    say: bool,
) -> _Play | None:
    before = len(problems.problems)
    field = "declarer_trick_cards"
    if len(trick_cards) % 3 or len(trick_cards) > 30:
        problems.add(
            field,
            _(
                "A trick is 3 cards and there are 10 tricks, so give 0, 3, 6 … 30 cards; "
                "got {count}.",
                count=len(trick_cards),
            ),
        )
    check_skat_cards(trick_cards, field, problems)
    if skat is None:
        if game != "null":
            problems.add(
                "skat",
                _("Give the 2 skat cards with the trick cards; they count for the declarer."),
            )
    else:
        for i, c in enumerate(skat):
            if c in trick_cards:
                problems.add(
                    f"skat.{i}",
                    # Translators: {card} is a card such as "J♣".
                    _("{card} is in the skat and also in the declarer's tricks.", card=c.label),
                )
    if len(problems.problems) != before or not skat_ok:
        return None
    tricks = len(trick_cards) // 3
    if declarer_cards is not None and skat is not None:
        _check_own_cards(trick_cards, tricks, declarer_cards, skat, problems)
        if len(problems.problems) != before:
            return None
    in_tricks = count_points(trick_cards)
    points = None if skat is None else in_tricks + count_points(skat)
    steps = (_trick_cards_step(tricks, in_tricks, skat, points),) if say else ()
    if game == "null":
        return _null_play(points, tricks, steps, say)
    assert points is not None
    return _suit_play(points, tricks, steps, say, pointless_tricks=tricks > 0 and in_tricks == 0)


def _trick_cards_step(
    tricks: int, in_tricks: int, skat: Sequence[Card] | None, points: int | None
) -> Step:
    if skat is None:
        text = ngettext(
            "The declarer's cards make {n} trick holding {points} card points.",
            "The declarer's cards make {n} tricks holding {points} card points.",
            tricks,
            n=tricks,
            points=in_tricks,
        )
    else:
        text = ngettext(
            # Translators: {skat} is the two skat cards, such as "J♣ 10♥"; {skat_points} is
            # what they are worth; {points} is the sum of {in_tricks} and {skat_points}.
            "The declarer's {n} trick holds {in_tricks} card points and the skat "
            "({skat}) adds {skat_points}: {points} in all.",
            "The declarer's {n} tricks hold {in_tricks} card points and the skat "
            "({skat}) adds {skat_points}: {points} in all.",
            tricks,
            n=tricks,
            in_tricks=in_tricks,
            skat=labels(skat),
            skat_points=count_points(skat),
            points=points,
        )
    return Step(text, "skat-card-points")


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
        if own:
            message = ngettext(
                # Translators: {n} is the number of tricks; {own} is how many of the declarer's own
                # cards are among them, {cards} those cards, such as "J♣ 10♥".
                "Each trick the declarer took holds exactly one of the declarer's own cards, so "
                "{n} trick needs {n} of them; these cards hold {own} ({cards}).",
                "Each trick the declarer took holds exactly one of the declarer's own cards, so "
                "{n} tricks need {n} of them; these cards hold {own} ({cards}).",
                tricks,
                n=tricks,
                own=len(own),
                cards=labels(own),
            )
        else:
            message = ngettext(
                # Translators: {n} is the number of tricks; {own} is how many of the declarer's own
                # cards are among them (none).
                "Each trick the declarer took holds exactly one of the declarer's own cards, so "
                "{n} trick needs {n} of them; these cards hold {own}.",
                "Each trick the declarer took holds exactly one of the declarer's own cards, so "
                "{n} tricks need {n} of them; these cards hold {own}.",
                tricks,
                n=tricks,
                own=len(own),
            )
        problems.add("declarer_trick_cards", message)


def _null_play(points: int | None, tricks: int, steps: tuple[Step, ...], say: bool) -> _Play:
    if not say:
        return _Play(tricks == 0, False, False, points, tricks, ())
    if tricks == 0:
        text = _("The declarer took no trick.")
    else:
        text = ngettext(
            "The declarer took {n} trick.", "The declarer took {n} tricks.", tricks, n=tricks
        )
    return _Play(tricks == 0, False, False, points, tricks, (*steps, Step(text, "skat-null")))


def _points_rule_out_schwarz(points: int | None) -> bool:
    """Card points that say neither side took every trick: more than the two skat
    cards can hold (the declarer took a trick) and fewer than all 120 (so did the
    opponents; a trick without a card point is the only way to take one with none)."""
    return points is not None and _possible_points(0)[1] < points < ALL_POINTS


def _suit_play(
    points: int,
    tricks: int | None,
    steps: tuple[Step, ...],
    say: bool,
    *,
    pointless_tricks: bool = False,
) -> _Play:
    won = points >= WINNING_POINTS
    schneider = points >= ALL_POINTS - SCHNEIDER_POINTS or points <= SCHNEIDER_POINTS
    schwarz = tricks in (0, ALL_TRICKS)
    if say:
        steps = (*steps, *_suit_play_steps(points, tricks, pointless_tricks))
    return _Play(won, schneider, schwarz, points, tricks, steps)


def _suit_play_steps(points: int, tricks: int | None, pointless_tricks: bool) -> list[Step]:
    """What :func:`_suit_play` decided, said: won or lost, schneider, schwarz."""
    said = []
    if points >= WINNING_POINTS:
        said.append(
            Step(
                _("{points} is 61 or more: the declarer wins the play.", points=points),
                "skat-winning",
            )
        )
    elif points == ALL_POINTS // 2:
        said.append(
            Step(
                _("60:60 is not enough; the declarer needs 61, so the play is lost."),
                "skat-winning",
            )
        )
    else:
        said.append(
            Step(_("{points} is below 61: the play is lost.", points=points), "skat-winning")
        )
    if points >= ALL_POINTS - SCHNEIDER_POINTS:
        said.append(
            Step(
                _(
                    "The opponents have {points}, 30 or fewer: they are schneider.",
                    points=ALL_POINTS - points,
                ),
                "skat-schneider",
            )
        )
    elif points <= SCHNEIDER_POINTS:
        said.append(
            Step(
                _(
                    "The declarer has {points}, 30 or fewer: the declarer is schneider, "
                    "and the level counts in the lost game too.",
                    points=points,
                ),
                "skat-schneider",
            )
        )
    if tricks == ALL_TRICKS:
        said.append(Step(_("The declarer took every trick: schwarz."), "skat-schwarz"))
    elif tricks == 0:
        said.append(
            Step(
                _("The declarer took no trick: schwarz against the declarer, and it counts."),
                "skat-schwarz",
            )
        )
    elif points == ALL_POINTS:
        said.append(
            Step(
                ngettext(
                    "The opponents took {n} trick without a single card point, "
                    "but a trick is a trick: not schwarz.",
                    "The opponents took {n} tricks without a single card point, "
                    "but a trick is a trick: not schwarz.",
                    ALL_TRICKS - tricks,
                    n=ALL_TRICKS - tricks,
                ),
                "skat-schwarz",
            )
        )
    elif pointless_tricks:
        said.append(
            Step(
                _(
                    "The declarer's tricks hold no card points, but a trick is a trick: not schwarz."
                ),
                "skat-schwarz",
            )
        )
    return said


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
            held = _matadors_from_cards(other, declarer_cards)
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
                    0 if other == game else len(suit_options),
                    # Translators: {contract} is e.g. "Clubs Hand, schwarz announced"; {value} is
                    # the most it can be worth.
                    _("{contract} (up to {value})", contract=name, value=most),
                )
                break
    if declarer_cards is None:
        suit_options.append(
            _("another suit or grand game") if game != "null" else _("a suit or grand game")
        )
    null_options = [
        _(
            # Translators: {contract} is e.g. "Null Ouvert"; {value} is what it is worth.
            "{contract} ({value})",
            contract=contract_name(game="null", hand=hand, ouvert=o),
            value=null_value(hand=hand, ouvert=o),
        )
        for o in (False, True)
        if null_value(hand=hand, ouvert=o) >= bid
    ]
    options = null_options + suit_options if game == "null" else suit_options + null_options
    if not options:
        return _("no game with these cards reaches it, so the bid cannot be played as declared")
    # Translators: {options} is one or more games to declare instead, such as
    # "Clubs Hand (up to 96) or Null Ouvert (46)"; this ends the sentence "You bid … ; …".
    return _("declare {options}", options=joined(options, last="or"))


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
            problems.add(
                "bid",
                _(
                    # Translators: {contract} is e.g. "Null Hand"; {alternatives} is e.g.
                    # "declare Grand Hand (up to 120)".
                    "You bid {bid} but {contract} is worth {value}; {alternatives}.",
                    bid=bid,
                    contract=name,
                    value=value,
                    alternatives=others,
                ),
            )
        return
    if matadors is None:
        return
    if hand:
        # A hand game is declared without seeing the skat, and the matadors count the
        # skat's cards: a top trump lying there changes the count the declarer played
        # on. Such a game is not refused for its matadors; it is lost as overbid if its
        # value falls short of the bid (ISkO 5.4.2: lost at the next multiple of the
        # base value). But a declaration that no cards at all could lift to the bid
        # (Diamonds Hand is worth at most 15 × 9 = 135, with or against 11) may not be
        # played (Skat rules, "Overbidding": the opponents must refuse it).
        best = Matadors("with", _most_matadors(game))
        multiplier = _highest_multiplier(best, hand=True, ouvert=ouvert, announced=announced)
        if multiplier * BASE_VALUES[game] < bid:
            problems.add(
                "bid",
                _(
                    # Translators: {contract} is e.g. "Diamonds Hand"; {most_matadors} is
                    # 11 or 4; {alternatives} is e.g. "declare Grand Hand (up to 192)".
                    "You bid {bid} but {contract} is worth at most {most} with any cards "
                    "({multiplier} × {base}: {most_matadors} matadors, schneider and "
                    "schwarz); {alternatives}.",
                    bid=bid,
                    contract=name,
                    most=multiplier * BASE_VALUES[game],
                    multiplier=multiplier,
                    base=BASE_VALUES[game],
                    most_matadors=_most_matadors(game),
                    alternatives=_alternatives(
                        bid=bid, game=game, hand=hand, matadors=best, declarer_cards=None
                    ),
                ),
            )
        return
    multiplier = _highest_multiplier(matadors, hand=hand, ouvert=ouvert, announced=announced)
    most = multiplier * BASE_VALUES[game]
    if most < bid:
        others = _alternatives(
            bid=bid, game=game, hand=hand, matadors=matadors, declarer_cards=declarer_cards
        )
        # This declaration picked up the skat. The same game with these matadors is worth
        # most as an open hand game, which counts every level (ouvert is schwarz announced):
        # Diamonds with 1 is at most 36 after picking up the skat, but 8 × 9 = 72 ouvert.
        open_multiplier = _highest_multiplier(matadors, hand=True, ouvert=True, announced="schwarz")
        values = {
            "bid": bid,
            "contract": name,
            "matadors": matadors.label,
            "most": most,
            "multiplier": multiplier,
            "base": BASE_VALUES[game],
            "open_most": open_multiplier * BASE_VALUES[game],
            "open_multiplier": open_multiplier,
            "open_contract": contract_name(game=game, hand=True, ouvert=True),
            "alternatives": others,
        }
        if values["open_most"] >= bid:
            message = _(
                # Translators: {contract} is e.g. "Diamonds"; {matadors} e.g. "with 1";
                # {open_contract} e.g. "Diamonds Ouvert"; {alternatives} is e.g. "declare
                # Grand (up to 120)".
                "You bid {bid} but {contract} {matadors}, after picking up the skat, is worth "
                "at most {most} ({multiplier} × {base}, even with schneider and schwarz); only "
                "from the hand is it worth more, up to {open_most} as {open_contract} "
                "{matadors} ({open_multiplier} × {base}); {alternatives}.",
                **values,
            )
        else:
            message = _(
                # Translators: {contract} is e.g. "Diamonds"; {matadors} e.g. "with 1";
                # {open_contract} e.g. "Diamonds Ouvert"; {alternatives} is e.g. "declare
                # Grand (up to 120)".
                "You bid {bid} but {contract} {matadors}, after picking up the skat, is worth "
                "at most {most} ({multiplier} × {base}, even with schneider and schwarz), and "
                "even from the hand at most {open_most} as {open_contract} {matadors} "
                "({open_multiplier} × {base}); {alternatives}.",
                **values,
            )
        problems.add("bid", message)


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

    The explanation is worded when it is first read (:class:`Explanation`).
    """
    declared = _Game(
        game,
        bid,
        hand,
        ouvert,
        announced,
        matadors,
        _kept(declarer_cards),
        declarer_points,
        declarer_tricks,
        _kept(declarer_trick_cards),
        _kept(skat),
        outcome,
        kontra,
        re,
        bock,
    )
    return _score_game(declared, say=False)


class _Game(NamedTuple):
    """The arguments of :func:`score_game`: what a result keeps to word its explanation."""

    game: str
    bid: int
    hand: bool
    ouvert: bool
    announced: str
    matadors: Matadors | None
    declarer_cards: Sequence[Card] | None
    declarer_points: int | None
    declarer_tricks: int | None
    declarer_trick_cards: Sequence[Card] | None
    skat: Sequence[Card] | None
    outcome: str | None
    kontra: bool
    re: bool
    bock: bool


def _kept(cards: Sequence[Card] | None) -> Sequence[Card] | None:
    # A list the caller may change later is kept as it was scored.
    return tuple(cards) if isinstance(cards, list) else cards


def _explain_game(declared: _Game) -> Explanation:
    """The explanation of a scored game: the game scored again, saying every step."""
    return _score_game(declared, say=True).explanation


def _score_game(declared: _Game, *, say: bool) -> GameResult:
    """Check and score a game. With ``say`` every step of the explanation is made as the
    game is scored (deciding and wording follow the same branches, so the words always
    say what was decided); without, the result words it when it is read."""
    game, bid, hand, ouvert, announced, matadors = declared[:6]
    declarer_cards, declarer_points, declarer_tricks, declarer_trick_cards = declared[6:10]
    skat, outcome, kontra, re, bock = declared[10:]
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
        say=say,
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
        say=say,
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
    steps: list[Step] = []
    if say:
        opening = Step(
            # Translators: {contract} is e.g. "Grand Hand, schneider announced".
            _("Contract: {contract}, after a bid of {bid}.", contract=contract, bid=bid),
            "skat-game-types",
        )
        steps = [opening, *matador_steps]
    if game == "null":
        return _score_null(
            contract=contract,
            hand=hand,
            ouvert=ouvert,
            play=play,
            steps=steps,
            kontra=kontra,
            re=re,
            bock=bock,
            declared=None if say else declared,
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
        steps=steps,
        kontra=kontra,
        re=re,
        bock=bock,
        declared=None if say else declared,
    )


def _explanation(steps: list[Step], declared: _Game | None) -> Explanation:
    """The steps said (``declared`` None: the game was scored saying them), or how to say
    them when they are read."""
    return Explanation.of(steps) if declared is None else Explanation(_explain_game, declared)


def _list_score(
    *, won: bool, game_value: int, kontra: bool, re: bool, bock: bool, say: bool
) -> tuple[int, list[Step]]:
    """Won: +value; lost: −2 × value; then Kontra ×2 (Re ×4 instead) and Bock ×2."""
    score = game_value if won else -2 * game_value
    if re:
        score *= 4
    elif kontra:
        score *= 2
    if bock:
        score *= 2
    if not say:
        return score, []
    return score, _list_score_steps(won=won, game_value=game_value, kontra=kontra, re=re, bock=bock)


def _list_score_steps(
    *, won: bool, game_value: int, kontra: bool, re: bool, bock: bool
) -> list[Step]:
    """:func:`_list_score` said, one factor at a time."""
    steps = []
    if won:
        score = game_value
        steps.append(
            # Translators: {score} is signed, e.g. "+48".
            Step(_("Won: the declarer scores {score}.", score=signed(score)), "skat-list-score")
        )
    else:
        score = -2 * game_value
        steps.append(
            Step(
                _(
                    # Translators: {score} is signed, e.g. "−96"; {value} is the game's value.
                    "Lost: a lost game counts double, −2 × {value} = {score}.",
                    value=game_value,
                    score=signed(score),
                ),
                "skat-list-score",
            )
        )
    if re:
        score *= 4
        steps.append(
            Step(
                _("Kontra and Re: the score counts four times, {score}.", score=signed(score)),
                "skat-kontra-re",
            )
        )
    elif kontra:
        score *= 2
        steps.append(
            Step(
                _("Kontra: the score counts double, {score}.", score=signed(score)),
                "skat-kontra-re",
            )
        )
    if bock:
        score *= 2
        steps.append(
            Step(_("A Bock game counts double: {score}.", score=signed(score)), "skat-bock")
        )
    return steps


def _score_null(
    *,
    contract: str,
    hand: bool,
    ouvert: bool,
    play: _Play,
    steps: list[Step],
    kontra: bool,
    re: bool,
    bock: bool,
    declared: _Game | None,
) -> GameResult:
    value = _null_value(hand, ouvert)
    say = declared is None
    if say:
        steps.append(
            Step(
                _(
                    # Translators: {contract} is e.g. "Null Ouvert Hand".
                    "{contract} has a fixed value of {value}; Null has no matadors and no levels.",
                    contract=contract,
                    value=value,
                ),
                "skat-null",
            )
        )
        steps.extend(play.steps)
        if play.won:
            steps.append(
                Step(_("A Null game is won when the declarer takes no trick at all."), "skat-null")
            )
        else:
            steps.append(
                Step(_("A Null game is lost as soon as the declarer takes a trick."), "skat-null")
            )
    score, score_steps = _list_score(
        won=play.won, game_value=value, kontra=kontra, re=re, bock=bock, say=say
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
        explanation=_explanation([*steps, *score_steps], declared),
    )


def _announcement_made(announced: str, ouvert: bool, play: _Play) -> bool:
    """Whether the announcement (an open game's schwarz included) was made."""
    said = _effective_announcement(announced, ouvert)
    if said == "schneider":
        return play.won and play.schneider
    if said == "schwarz":
        return play.won and play.schwarz
    return True


def _announcement_steps(announced: str, ouvert: bool, play: _Play) -> list[Step]:
    """How the referee says what :func:`_announcement_made` decided."""
    said = _effective_announcement(announced, ouvert)
    steps = []
    if ouvert:
        if announced == "none":
            text = _(
                "An open game always counts as schwarz announced, and so schneider announced "
                "too, though nothing was announced: the declarer must take every trick."
            )
        elif announced == "schneider":
            text = _(
                "An open game always counts as schwarz announced, and so schneider announced "
                "too, though only schneider was announced: the declarer must take every trick."
            )
        else:
            text = _(
                "An open game always counts as schwarz announced, and so schneider announced "
                "too: the declarer must take every trick."
            )
        steps.append(Step(text, "skat-ouvert"))
    made = _announcement_made(announced, ouvert, play)
    if said == "schneider" and made:
        steps.append(
            Step(
                _("Schneider was announced and the opponents are schneider."),
                "skat-announcements",
            )
        )
    elif said == "schneider":
        steps.append(
            Step(
                _("Schneider was announced but the opponents are not schneider: the game is lost."),
                "skat-announcements",
            )
        )
    elif said == "schwarz" and made:
        steps.append(
            Step(
                _("Schwarz was announced and the declarer took every trick."),
                "skat-announcements",
            )
        )
    elif said == "schwarz":
        steps.append(
            Step(
                _("Schwarz was announced but the opponents took a trick: the game is lost."),
                "skat-announcements",
            )
        )
    return steps


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


def levels_added(levels: Iterable[tuple[str, int]]) -> str:
    """ "with 2 (2) + game (1) + hand (1)": the levels as the referee adds them up."""
    parts = [
        # Translators: one level and how many it counts, "game (1)" or "with 2 (2)"; they are
        # shown joined with " + ".
        _("{level} ({count})", level=label, count=count)
        for label, count in levels
    ]
    return join(" + ", parts)


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
    declared: _Game | None,
) -> GameResult:
    say = declared is None
    announcement_made = _announcement_made(announced, ouvert, play)
    levels = _levels(matadors, hand=hand, ouvert=ouvert, announced=announced, play=play)
    multiplier = sum(count for _level, count in levels)
    base = BASE_VALUES[game]
    value = base * multiplier
    overbid = value < bid
    won = play.won and announcement_made and not overbid
    if say:
        steps.extend(play.steps)
        steps.extend(_announcement_steps(announced, ouvert, play))
        steps.extend(_value_steps(game, bid, levels, multiplier))
    if overbid:
        value = math.ceil(bid / base) * base
    score, score_steps = _list_score(
        won=won, game_value=value, kontra=kontra, re=re, bock=bock, say=say
    )
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
        explanation=_explanation([*steps, *score_steps], declared),
    )


def _value_steps(
    game: str, bid: int, levels: tuple[tuple[str, int], ...], multiplier: int
) -> list[Step]:
    """The levels, the game's value, and whether it covers the bid (if not, what the
    lost game is valued at)."""
    base = BASE_VALUES[game]
    value = base * multiplier
    steps = [
        Step(
            _(
                # Translators: {levels} is e.g. "with 2 (2) + game (1) + hand (1)";
                # {multiplier} is their sum.
                "Levels: {levels} = {multiplier}.",
                levels=levels_added(levels),
                multiplier=multiplier,
            ),
            "skat-levels",
        ),
        Step(
            _(
                # Translators: {game} is a suit or "Grand"; {base} is its base value.
                "{game} counts {base} a level: {multiplier} × {base} = {value}.",
                game=GAME_NAMES[game],
                base=base,
                multiplier=multiplier,
                value=value,
            ),
            "skat-game-value",
        ),
    ]
    if value < bid:
        raised = math.ceil(bid / base) * base
        steps.append(
            Step(
                _(
                    "{value} is below the bid of {bid}: the declarer has overbid and loses.",
                    value=value,
                    bid=bid,
                ),
                "skat-overbid",
            )
        )
        steps.append(
            Step(
                _(
                    # Translators: {base} is the game's base value; {raised} = {multiplier} × {base}.
                    "The lost game is valued at the smallest multiple of {base} that reaches "
                    "{bid}: {multiplier} × {base} = {raised}.",
                    base=base,
                    bid=bid,
                    multiplier=raised // base,
                    raised=raised,
                ),
                "skat-overbid",
            )
        )
    else:
        steps.append(
            Step(_("{value} covers the bid of {bid}.", value=value, bid=bid), "skat-overbid")
        )
    return steps


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


def _led_sentence(card: Card, game: str) -> str:
    suit = plays_as_suit(card, game)
    if suit == TRUMP and card.rank == "J":
        return _(
            # Translators: {card} is a jack such as "J♥"; {game} is a suit or "Grand".
            "{card} was led; in {game} every jack is a trump, so trumps were led.",
            card=card.label,
            game=GAME_NAMES[game],
        )
    if suit == TRUMP:
        # Translators: {card} is a card such as "A♣".
        return _("{card} was led: trumps were led.", card=card.label)
    return _(
        # Translators: {card} is a card such as "A♣"; {suit} is a suit, "clubs".
        "{card} was led: the suit to follow is {suit}.",
        card=card.label,
        suit=_suit_words(suit),
    )


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
    if led_suit == TRUMP:
        return ngettext(
            # Translators: {cards} is one or two cards such as "7♦ 8♦".
            "{cards} is not a trump, so it cannot take the trick.",
            "{cards} are not trumps, so they cannot take the trick.",
            len(off),
            cards=labels(off),
        )
    return ngettext(
        # Translators: {cards} is one or two cards such as "7♦ 8♦"; {suit} is the suit led, "clubs".
        "{cards} neither follows {suit} nor is a trump, so it cannot take the trick.",
        "{cards} neither follow {suit} nor are trumps, so they cannot take the trick.",
        len(off),
        cards=labels(off),
        suit=_suit_words(led_suit),
    )


def trick_winner(*, game: str, cards: Sequence[Card]) -> TrickResult:
    """The card that takes a trick of three, given in play order (field ``cards``)."""
    problems = ProblemCollector()
    if game not in GAMES:
        problems.add("game", unknown_game_message(game))
    if len(cards) != 3:
        problems.add(
            "cards",
            _("A Skat trick is 3 cards, one from each player; got {count}.", count=len(cards)),
        )
    check_skat_cards(cards, "cards", problems)
    problems.raise_if_any()
    led_suit = plays_as_suit(cards[0], game)
    strengths = [_strength(c, game, led_suit) for c in cards]
    winner = max(range(3), key=lambda i: strengths[i])
    steps = [Step(_led_sentence(cards[0], game), "skat-follow")]
    if game == "null":
        steps.append(
            Step(_("Null has no trumps, and the jack ranks between queen and ten."), "skat-trumps")
        )
    off = [c for c in cards if plays_as_suit(c, game) not in (led_suit, TRUMP)]
    if off:
        steps.append(Step(_cannot_win(off, led_suit), "skat-tricks"))
    best = cards[winner].label
    if led_suit == TRUMP:
        text = _(
            # Translators: {card} is a card such as "J♣"; {position} is 1, 2 or 3 (in play order).
            "The highest trump, {card}, takes the trick (card {position}).",
            card=best,
            position=winner + 1,
        )
    elif strengths[winner][0] == 2:
        text = _(
            # Translators: {card} is a card such as "J♣"; {position} is 1, 2 or 3 (in play order).
            "Trumps beat every other card; the highest trump, {card}, takes the trick "
            "(card {position}).",
            card=best,
            position=winner + 1,
        )
    else:
        text = _(
            # Translators: {suit} is the suit led, "clubs"; {card} is a card such as "A♣";
            # {position} is 1, 2 or 3 (in play order).
            "The highest of the {suit} led, {card}, takes the trick (card {position}).",
            suit=_suit_words(led_suit),
            card=best,
            position=winner + 1,
        )
    steps.append(Step(text, "skat-tricks"))
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
        problems.add("hand", _("A Skat hand holds 1 to 10 cards; got {count}.", count=len(hand)))
    check_skat_cards(hand, "hand", problems)
    if led in hand:
        problems.add(
            "led",
            _(
                # Translators: {card} is a card such as "A♣".
                "{card} was led by another player, so it cannot also be in this hand.",
                card=led.label,
            ),
        )
    if played not in hand:
        problems.add(
            "played",
            # Translators: {card} is a card such as "A♣"; {hand} is the cards of the hand.
            _("{card} is not in the hand ({hand}).", card=played.label, hand=labels(hand))
            if hand
            else _("{card} is not in the hand: the hand is empty.", card=played.label),
        )
    problems.raise_if_any()
    suit = plays_as_suit(led, game)
    followers = [c for c in hand if plays_as_suit(c, game) == suit]
    steps = [Step(_led_sentence(led, game), "skat-follow")]
    if game == "null" and any(c.rank == "J" for c in (led, played, *followers)):
        steps.append(
            Step(_("Null has no trumps: a jack belongs to its printed suit."), "skat-null")
        )
    jacks_of_suit = [c for c in hand if c.rank == "J" and c.suit == suit and game != "null"]
    if jacks_of_suit:
        steps.append(
            Step(
                _(
                    # Translators: {card} is a jack such as "J♥"; {suit} is one card of a suit,
                    # "heart"; {game} is a suit or "Grand".
                    "{card} does not count as a {suit}: in {game} every jack is a trump.",
                    card=labels(jacks_of_suit),
                    suit=_suit_words(suit, plural=False),
                    game=GAME_NAMES[game],
                ),
                "skat-trumps",
            )
        )
    if not followers:
        steps.append(
            Step(
                _(
                    # Translators: {suit} is one card of a suit, "heart", or "trump";
                    # {card} is a card such as "A♣".
                    "The hand holds no {suit}, so any card may be played: {card} is allowed.",
                    suit=_suit_words(suit, plural=False),
                    card=played.label,
                ),
                "skat-follow",
            )
        )
        return FollowResult(True, tuple(steps))
    steps.append(
        Step(
            ngettext(
                # Translators: {cards} is the cards of the hand that follow suit, such as "A♣ 7♣".
                "The hand holds {cards}, so it must be played.",
                "The hand holds {cards}, so one of them must be played.",
                len(followers),
                cards=labels(followers),
            ),
            "skat-follow",
        )
    )
    legal = played in followers
    if legal:
        # Translators: {card} is a card such as "A♣".
        steps.append(Step(_("{card} follows: allowed.", card=played.label), "skat-follow"))
    else:
        steps.append(Step(_does_not_follow(played, game, suit), "skat-follow"))
    return FollowResult(legal, tuple(steps))


def _does_not_follow(played: Card, game: str, led_suit: str) -> str:
    return _(
        # Translators: {card} is a card such as "A♥"; {belongs} and {led} are one card of a suit,
        # "heart", or "trump".
        "{card} is a {belongs}, not a {led}: not allowed.",
        card=played.label,
        belongs=_suit_words(plays_as_suit(played, game), plural=False),
        led=_suit_words(led_suit, plural=False),
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


# The seats as players name them: shown in the bidding's sentences.
SEAT_NAMES: dict[str, str] = {
    "forehand": pgettext("Skat seat", "forehand"),
    "middlehand": pgettext("Skat seat", "middlehand"),
    "rearhand": pgettext("Skat seat", "rearhand"),
}


def _seat(position: str | None) -> str:
    """A seat in the middle of a sentence: "forehand"."""
    return SEAT_NAMES.get(str(position), str(position))


def _seat_capitalised(position: str | None) -> str:
    """A seat at the start of a sentence: "Forehand"."""
    return capitalised(_seat(position))


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
        """Whose turn it is and what they may say, said after "it is"."""
        if self.stage == "bid":
            if self.bid:
                return _(
                    # Translators: follows "it is" in "it is middlehand to bid more than 18 to
                    # forehand, or pass"; {bidder} and {holder} are seats.
                    "{bidder} to bid more than {bid} to {holder}, or pass",
                    bidder=_seat(self.bidder),
                    bid=self.bid,
                    holder=_seat(self.holder),
                )
            return _(
                # Translators: follows "it is" in "it is middlehand to bid 18 or more to forehand,
                # or pass"; {bidder} and {holder} are seats.
                "{bidder} to bid 18 or more to {holder}, or pass",
                bidder=_seat(self.bidder),
                holder=_seat(self.holder),
            )
        if self.stage == "answer":
            return _(
                # Translators: follows "it is" in "it is forehand to answer middlehand's 18 with
                # yes or pass"; {holder} and {bidder} are seats; "yes" and "pass" are the calls.
                "{holder} to answer {bidder}'s {bid} with yes or pass",
                holder=_seat(self.holder),
                bidder=_seat(self.bidder),
                bid=self.bid,
            )
        # Translators: follows "it is" in "it is forehand to bid 18 or more, or pass".
        return _("forehand to bid 18 or more, or pass")

    def hear(self, position: str, call: int | str) -> str | None:
        """Take one call; the message if it breaks the bidding rules."""
        if self.stage == "over":
            return _("The bidding was already over; no more calls belong here.")
        if position != self.speaker:
            if position in self.passed:
                return _(
                    # Translators: {seat} is e.g. "Middlehand"; {expected} is e.g. "forehand to
                    # answer middlehand's 18 with yes or pass".
                    "{seat} already passed, and a pass is final; it is {expected}.",
                    seat=_seat_capitalised(position),
                    expected=self.what_is_expected(),
                )
            return _(
                # Translators: {expected} is e.g. "middlehand to bid 18 or more to forehand, or
                # pass"; {seat} is a seat such as "rearhand".
                "It is {expected}; {seat} spoke out of turn.",
                expected=self.what_is_expected(),
                seat=_seat(position),
            )
        if self.stage == "answer":
            return self._answer(call)
        return self._bid(call)

    def _bid(self, call: int | str) -> str | None:
        speaker = self.speaker
        if call == HOLD:
            return _(
                # Translators: {seat} is e.g. "Middlehand"; "yes" and "pass" are the calls.
                "{seat} is the one bidding here: name a bid or pass; yes is the answer to a bid.",
                seat=_seat_capitalised(speaker),
            )
        if call == PASS:
            self.passed.append(str(speaker))
            if self.stage == "forehand alone":
                self.steps.append(
                    Step(
                        _("Forehand passes too: all three passed, the deal is thrown in."),
                        "skat-bidding",
                    )
                )
                self.stage = "over"
                return None
            self.steps.append(
                # Translators: {seat} is e.g. "Middlehand".
                Step(_("{seat} passes.", seat=_seat_capitalised(self.bidder)), "skat-bidding")
            )
            self._end_duel(self.holder)
            return None
        assert isinstance(call, int)
        if self.bid is not None and call <= self.bid:
            return _(
                # Translators: {seat} is e.g. "Middlehand"; {call} is the bid said, {bid} the one
                # standing.
                "{seat} bid {call}, but the bid already stands at {bid}; bid more or pass.",
                seat=_seat_capitalised(self.bidder),
                call=call,
                bid=self.bid,
            )
        self.bid = call
        if self.stage == "forehand alone":
            self.steps.append(
                Step(_("Forehand bids {bid} and is declarer.", bid=call), "skat-bidding")
            )
            self.declarer = "forehand"
            self.stage = "over"
            return None
        self.steps.append(
            Step(
                _(
                    # Translators: {seat} is e.g. "Middlehand"; {holder} is e.g. "forehand".
                    "{seat} bids {bid} to {holder}.",
                    seat=_seat_capitalised(self.bidder),
                    bid=call,
                    holder=_seat(self.holder),
                ),
                "skat-bidding",
            )
        )
        self.stage = "answer"
        return None

    def _answer(self, call: int | str) -> str | None:
        if call == HOLD:
            self.steps.append(
                Step(
                    # Translators: {seat} is e.g. "Forehand": that player accepts the bid {bid}.
                    _("{seat} holds {bid}.", seat=_seat_capitalised(self.holder), bid=self.bid),
                    "skat-bidding",
                )
            )
            self.stage = "bid"
            return None
        if call == PASS:
            self.passed.append(self.holder)
            self.steps.append(
                # Translators: {seat} is e.g. "Forehand".
                Step(_("{seat} passes.", seat=_seat_capitalised(self.holder)), "skat-bidding")
            )
            self._end_duel(self.bidder)
            return None
        return _(
            # Translators: {seat} is e.g. "Forehand"; {bidder} is e.g. "middlehand"; "yes" and
            # "pass" are the calls.
            "{seat} answers {bidder}'s {bid} with yes or pass; only {bidder} names numbers here.",
            seat=_seat_capitalised(self.holder),
            bidder=_seat(self.bidder),
            bid=self.bid,
        )

    def _end_duel(self, survivor: str) -> None:
        if self.duel == 1:
            self.duel = 2
            self.bidder, self.holder, self.stage = "rearhand", survivor, "bid"
            if self.bid:
                text = _(
                    # Translators: {seat} and {survivor} are the same seat, e.g. "Forehand" at the
                    # start of the sentence and "forehand" inside it.
                    "{seat} stays in at {bid}; rearhand bids to {survivor} next.",
                    seat=_seat_capitalised(survivor),
                    bid=self.bid,
                    survivor=_seat(survivor),
                )
            else:
                text = _(
                    # Translators: {seat} and {survivor} are the same seat, e.g. "Forehand" at the
                    # start of the sentence and "forehand" inside it.
                    "{seat} stays in; rearhand bids to {survivor} next.",
                    seat=_seat_capitalised(survivor),
                    survivor=_seat(survivor),
                )
            self.steps.append(Step(text, "skat-bidding"))
        elif self.bid is None:
            self.stage = "forehand alone"
            self.steps.append(
                Step(
                    _(
                        "Middlehand and rearhand passed without a bid: "
                        "forehand may play at 18 or more, or pass."
                    ),
                    "skat-bidding",
                )
            )
        else:
            self.declarer, self.stage = survivor, "over"
            self.steps.append(
                Step(
                    _(
                        # Translators: {seat} is e.g. "Forehand".
                        "{seat} is declarer at {bid}.",
                        seat=_seat_capitalised(survivor),
                        bid=self.bid,
                    ),
                    "skat-bidding",
                )
            )


def _call_problem(pair: object) -> str | None:
    if not isinstance(pair, (tuple, list)) or len(pair) != 2:
        return _('Each call is a pair: a position and what was said, like ["middlehand", 18].')
    position, call = pair
    if position not in POSITIONS:
        # Translators: {position} is what was sent, as typed; forehand, middlehand and rearhand
        # are the API's values.
        return _(
            # Translators: ["middlehand", 18] is JSON, the same in every language.
            '"{position}" is not a seat; use forehand, middlehand or rearhand.',
            position=str(position),
        )
    if isinstance(call, bool) or not isinstance(call, (int, str)):
        # Translators: "yes" and "pass" are the API's values.
        return _('A call is a bid (a number), "yes" or "pass".')
    if isinstance(call, str) and call not in (HOLD, PASS):
        # Translators: {call} is what was sent, as typed; "yes" and "pass" are the API's values.
        return _('"{call}" is not a call; say a bid (a number), "yes" or "pass".', call=call)
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
        problems.add(
            "calls",
            _(
                # Translators: {expected} is e.g. "forehand to answer middlehand's 18 with yes or pass".
                "The bidding is not finished: it is {expected}.",
                expected=auction.what_is_expected(),
            ),
        )
    problems.raise_if_any()
    return BiddingResult(
        declarer=auction.declarer,
        bid=auction.bid,
        passed_out=auction.declarer is None,
        explanation=tuple(auction.steps),
    )
