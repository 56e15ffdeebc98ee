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
from functools import cached_property

from .errors import Problem, RuleError

RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = ("C", "S", "H", "D")
SUIT_SYMBOLS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}
SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
RANK_NAMES = {
    "A": "ace",
    "K": "king",
    "Q": "queen",
    "J": "jack",
    "10": "ten",
    "9": "nine",
    "8": "eight",
    "7": "seven",
    "6": "six",
    "5": "five",
    "4": "four",
    "3": "three",
    "2": "two",
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

CARD_HELP = (
    "Write rank then suit, for example JC for the jack of clubs or 10H for the ten of hearts."
)


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
    def label(self) -> str:
        """Short form for explanations: ``J♣``, ``10♥``, ``high joker``."""
        if self.suit is None:
            return "high joker" if self.rank == JOKER_HIGH else "low joker"
        return f"{self.rank}{SUIT_SYMBOLS[self.suit]}"

    @property
    def name(self) -> str:
        """Long form: ``jack of clubs``."""
        if self.suit is None:
            return "high joker" if self.rank == JOKER_HIGH else "low joker"
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

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
        raise RuleError(
            [Problem(field, f'Each card must be written as text, like "JC"; got {_shown(value)}.')]
        )
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
        raise RuleError([Problem(field, f'"{shown}" is not a card. {CARD_HELP}')])
    rank = "10" if match.group(1) == "T" else match.group(1)
    return Card(rank, match.group(2))


def _shown(value: object) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "something else"


@dataclass(frozen=True)
class Deck:
    """A deck: which cards exist and how many copies of each."""

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
            raise RuleError(
                [
                    Problem(
                        field,
                        f'Give the cards as a list of codes like ["JC", "10H"]; got {_shown(values)}.',
                    )
                ]
            )
        problems: list[Problem] = []
        cards: list[Card] = []
        for i, value in enumerate(values):
            try:
                parsed = parse_card(value, f"{field}.{i}")
            except RuleError as error:
                problems.extend(error.problems)
                continue
            if parsed not in self:
                problems.append(
                    Problem(
                        f"{field}.{i}",
                        _sentence(f"{parsed.label} is not in {self.name}.{self.missing_hint}"),
                    )
                )
                continue
            cards.append(parsed)
        problems.extend(self.duplicate_problems(cards, field, copies=copies))
        if problems:
            raise RuleError(problems)
        return cards

    def duplicate_problems(
        self, cards: Iterable[Card], field: str | None, *, copies: int | None = None
    ) -> list[Problem]:
        limit = self.copies if copies is None else copies
        problems = []
        for c, n in sorted(Counter(cards).items()):
            if n > limit:
                if limit == 1:
                    message = (
                        f"{c.label} is there {n} times, but {self.name} has only one {c.name}."
                    )
                else:
                    message = f"{c.label} is there {n} times, but there are only {limit} of each card in {self.name}."
                problems.append(Problem(field, _sentence(message)))
        return problems


def _suit_cards(ranks: Sequence[str]) -> tuple[Card, ...]:
    return tuple(Card(r, s) for s in SUITS for r in ranks)


SKAT_RANKS = ("A", "10", "K", "Q", "J", "9", "8", "7")
SKAT_DECK = Deck(
    "a Skat deck",
    _suit_cards(SKAT_RANKS),
    missing_hint=" Skat is played with 32 cards: 7, 8, 9, 10, J, Q, K and A of each suit.",
)
PITCH_DECK = Deck(
    "a Pitch deck",
    (*_suit_cards(RANKS), Card(JOKER_HIGH), Card(JOKER_LOW)),
)
MANIPULATION_DECK = Deck(
    "two 52-card decks",
    _suit_cards(RANKS),
    copies=2,
    missing_hint=" Manipulation is played without jokers.",
)


def _sentence(text: str) -> str:
    """Messages start with a capital, also when they start with "high joker"."""
    return text[:1].upper() + text[1:]


def labels(cards: Iterable[Card]) -> str:
    """``J♣ 10♥ 7♦`` for an explanation."""
    return " ".join(c.label for c in cards)
