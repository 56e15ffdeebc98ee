"""Card codes, parsing and the three decks.

A card is written rank then suit: ranks ``A K Q J 10 9 8 7 6 5 4 3 2``, suits
``C S H D``. ``JC`` is the jack of clubs, ``10H`` the ten of hearts. Input also
accepts ``T`` for 10, lower case and the suit symbols; the two Pitch jokers are
``JOKER-HIGH`` and ``JOKER-LOW``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, cached_property

from .errors import Problem, RuleError
from .text import Text, _, join, ngettext, pgettext
from .words import capitalised

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("C", "S", "H", "D")
SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
# Shown to players; each is still equal to its English word ("clubs") as a value.
SUIT_NAMES = {
    "C": pgettext("suit", "clubs"),
    "S": pgettext("suit", "spades"),
    "H": pgettext("suit", "hearts"),
    "D": pgettext("suit", "diamonds"),
}
RANK_NAMES = {
    "A": pgettext("card rank", "ace"),
    "K": pgettext("card rank", "king"),
    "Q": pgettext("card rank", "queen"),
    "J": pgettext("card rank", "jack"),
    "10": pgettext("card rank", "ten"),
    "9": pgettext("card rank", "nine"),
    "8": pgettext("card rank", "eight"),
    "7": pgettext("card rank", "seven"),
    "6": pgettext("card rank", "six"),
    "5": pgettext("card rank", "five"),
    "4": pgettext("card rank", "four"),
    "3": pgettext("card rank", "three"),
    "2": pgettext("card rank", "two"),
}
# The letters of the short labels (J♣); German writes B♣ (Bube), D (Dame), K, A.
# The number ranks are the same everywhere.
RANK_LETTERS = {
    # Translators: the ace in a short card label such as "A♠".
    "A": pgettext("card rank", "A"),
    # Translators: the king in a short card label such as "K♥".
    "K": pgettext("card rank", "K"),
    # Translators: the queen in a short card label such as "Q♦".
    "Q": pgettext("card rank", "Q"),
    # Translators: the jack in a short card label such as "J♣".
    "J": pgettext("card rank", "J"),
}
RED_SUITS = frozenset({"H", "D"})
JOKER_HIGH = "JOKER-HIGH"
JOKER_LOW = "JOKER-LOW"

_SYMBOL_TO_SUIT = {
    "♣": "C",
    "♧": "C",
    "♠": "S",
    "♤": "S",
    "♥": "H",
    "♡": "H",
    "♦": "D",
    "♢": "D",
}
_CARD_RE = re.compile(r"^(10|[2-9]|[AKQJT])([CSHD])$")
_JOKER_RE = re.compile(r"^JOKER[-_ ]?(HIGH|LOW)$")

CARD_HELP = _(
    # Translators: the codes JC and 10H are what a player types, in every language: keep them.
    "Write rank then suit, for example JC for the jack of clubs or 10H for the ten of hearts."
)
HIGH_JOKER = _("high joker")
LOW_JOKER = _("low joker")


@cache
def _label(rank: str, suit: str | None) -> Text:
    if suit is None:
        return HIGH_JOKER if rank == JOKER_HIGH else LOW_JOKER
    return pgettext(
        # Translators: a short card label: {rank} is a rank letter or number, {suit} a suit
        # symbol (J♣, 10♥).
        "card label: rank then suit symbol",
        "{rank}{suit}",
        rank=RANK_LETTERS.get(rank, rank),
        suit=SUIT_SYMBOLS[suit],
    )


@cache
def _name(rank: str, suit: str | None) -> Text:
    if suit is None:
        return HIGH_JOKER if rank == JOKER_HIGH else LOW_JOKER
    # Translators: a card's full name, e.g. "jack of clubs" (German "Kreuz-Bube").
    return pgettext("card name", "{rank} of {suit}", rank=RANK_NAMES[rank], suit=SUIT_NAMES[suit])


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card. Jokers have ``suit`` ``None`` and rank ``JOKER-HIGH``/``JOKER-LOW``."""

    rank: str
    suit: str | None = None

    @property
    def code(self) -> str:
        return self.rank if self.suit is None else f"{self.rank}{self.suit}"

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def label(self) -> Text:
        """Short form for explanations: ``J♣``, ``10♥``, ``high joker``."""
        return _label(self.rank, self.suit)

    @property
    def name(self) -> Text:
        """Long form: ``jack of clubs``."""
        return _name(self.rank, self.suit)

    @property
    def is_red(self) -> bool:
        return self.suit in RED_SUITS

    def __str__(self) -> str:
        return self.code


def card(code: str) -> Card:
    """A card from a code known to be good (for tables and tests); raises on a bad code."""
    return parse_card(code)


def parse_card(value: object, field: str | None = None) -> Card:
    """Read one card code as a player might type it; ``RuleError`` if it is not a card."""
    if not isinstance(value, str):
        # Translators: {got} says what was given instead, e.g. "a number" or "nothing".
        message = _('Each card must be written as text, like "JC"; got {got}.', got=_shown(value))
        raise RuleError([Problem(field, message)])
    text = value.strip().upper()
    for symbol, suit in _SYMBOL_TO_SUIT.items():
        text = text.replace(symbol, suit)
    text = text.replace(" ", "")
    joker = _JOKER_RE.match(text)
    if joker:
        return Card(f"JOKER-{joker.group(1)}")
    match = _CARD_RE.match(text)
    if not match:
        shown = value if len(value) <= 20 else value[:20] + "…"
        # Translators: {text} is what the player typed.
        not_a_card = _('"{text}" is not a card.', text=shown)
        raise RuleError([Problem(field, join(" ", (not_a_card, CARD_HELP)))])
    rank = "10" if match.group(1) == "T" else match.group(1)
    return Card(rank, match.group(2))


def _shown(value: object) -> str:
    """What a value that is not a card code is, for a message ("got a number")."""
    if value is None:
        return _("nothing")
    if isinstance(value, bool):
        # JSON's own words, the same in every language.
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return _("a number")
    if isinstance(value, list):
        return _("a list")
    if isinstance(value, dict):
        return _("an object")
    return _("something else")


@dataclass(frozen=True)
class Deck:
    """A deck: which cards exist and how many copies of each.

    ``name`` ("a Skat deck") and ``missing_hint`` (a sentence after "… is not in
    {name}.", or ``""``) are shown to players.
    """

    name: str
    kinds: tuple[Card, ...]
    copies: int = 1
    missing_hint: str = ""

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every physical card, copies included."""
        return tuple(c for c in self.kinds for _ in range(self.copies))

    def __len__(self) -> int:
        return len(self.kinds) * self.copies

    def __contains__(self, item: object) -> bool:
        return item in self._kind_set

    @cached_property
    def _kind_set(self) -> frozenset[Card]:
        # Built once per deck: reading every deal asks it for each card.
        return frozenset(self.kinds)

    def parse(self, values: object, field: str, *, copies: int | None = None) -> list[Card]:
        """Read a list of card codes from this deck.

        Collects every problem: not a list, unknown codes, cards not in this deck,
        and any card given more often than the deck holds (``copies`` can lower that
        bound, e.g. to 1 for a single hand in a one-deck game).
        """
        if not isinstance(values, list):
            message = _(
                # Translators: {got} says what was given instead, e.g. "a number" or "nothing".
                'Give the cards as a list of codes like ["JC", "10H"]; got {got}.',
                got=_shown(values),
            )
            raise RuleError([Problem(field, message)])
        problems: list[Problem] = []
        cards: list[Card] = []
        for i, value in enumerate(values):
            try:
                parsed = parse_card(value, f"{field}.{i}")
            except RuleError as error:
                problems.extend(error.problems)
                continue
            if parsed not in self:
                problems.append(Problem(f"{field}.{i}", self._missing(parsed)))
                continue
            cards.append(parsed)
        problems.extend(self.duplicate_problems(cards, field, copies=copies))
        if problems:
            raise RuleError(problems)
        return cards

    def _missing(self, c: Card) -> Text:
        # Translators: {card} is a card label (J♣, "high joker"), {deck} e.g. "a Skat deck".
        message = capitalised(_("{card} is not in {deck}.", card=c.label, deck=self.name))
        return join(" ", (message, self.missing_hint)) if self.missing_hint else message

    def duplicate_problems(
        self, cards: Iterable[Card], field: str | None, *, copies: int | None = None
    ) -> list[Problem]:
        limit = self.copies if copies is None else copies
        problems = []
        for c, n in sorted(Counter(cards).items()):
            if n > limit:
                if limit == 1:
                    message = ngettext(
                        # Translators: {card} is a card label (J♣), {deck} e.g. "a Skat deck",
                        # {name} the card's full name ("jack of clubs").
                        "{card} is there {n} time, but {deck} has only one {name}.",
                        "{card} is there {n} times, but {deck} has only one {name}.",
                        n,
                        card=c.label,
                        n=n,
                        deck=self.name,
                        name=c.name,
                    )
                else:
                    message = ngettext(
                        # Translators: {card} is a card label (J♣), {deck} e.g. "two 52-card decks".
                        "{card} is there {n} time, but there are only {limit} of each card "
                        "in {deck}.",
                        "{card} is there {n} times, but there are only {limit} of each card "
                        "in {deck}.",
                        n,
                        card=c.label,
                        n=n,
                        limit=limit,
                        deck=self.name,
                    )
                problems.append(Problem(field, capitalised(message)))
        return problems


def _suit_cards(ranks: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card(r, s) for s in SUITS for r in ranks)


SKAT_RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
SKAT_DECK = Deck(
    _("a Skat deck"),
    _suit_cards(SKAT_RANKS),
    missing_hint=_("Skat is played with 32 cards: 7, 8, 9, 10, J, Q, K and A of each suit."),
)
PITCH_DECK = Deck(
    _("a Pitch deck"),
    (*_suit_cards(RANKS), Card(JOKER_HIGH), Card(JOKER_LOW)),
)
MANIPULATION_DECK = Deck(
    _("two 52-card decks"),
    _suit_cards(RANKS),
    copies=2,
    missing_hint=_("Manipulation is played without jokers."),
)


def labels(cards: Iterable[Card]) -> Text:
    """``J♣ 10♥ 7♦`` for an explanation."""
    return join(" ", (c.label for c in cards))
