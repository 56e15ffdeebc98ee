"""Card faces for the card picker: the decks laid out in rows by suit."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.rules import manipulation, skat
from games.rules.cards import MANIPULATION_DECK, SKAT_DECK, SUIT_NAMES, SUIT_SYMBOLS, Card


@dataclass(frozen=True)
class Face:
    code: str
    rank: str
    symbol: str
    name: str
    colour: str  # "red" or "black"
    value: int  # Skat card points, or the rummy penalty


@dataclass(frozen=True)
class Suit:
    letter: str
    name: str


def _face(card: Card, value: int) -> Face:
    return Face(
        card.code,
        card.rank,
        SUIT_SYMBOLS[card.suit],
        card.name,
        "red" if card.is_red else "black",
        value,
    )


@cache
def skat_deck() -> tuple[tuple[Suit, tuple[Face, ...]], ...]:
    rows = []
    for letter in ("C", "S", "H", "D"):
        cards = [c for c in SKAT_DECK.kinds if c.suit == letter]
        rows.append(
            (Suit(letter, SUIT_NAMES[letter]), tuple(_face(c, skat.card_points(c)) for c in cards))
        )
    return tuple(rows)


@cache
def rummy_deck() -> tuple[tuple[Suit, tuple[Face, ...]], ...]:
    rows = []
    for letter in ("C", "S", "H", "D"):
        cards = [c for c in MANIPULATION_DECK.kinds if c.suit == letter]
        cards.reverse()  # 2 … A, the order players sort a rummy hand
        rows.append(
            (
                Suit(letter, SUIT_NAMES[letter]),
                tuple(_face(c, manipulation.penalty(c)) for c in cards),
            )
        )
    return tuple(rows)
