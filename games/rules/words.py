"""How numbers and lists are written in explanations, the same way in every game.

Each gives a :class:`~games.rules.text.Text`: English in the referee's tests, the
reader's language (its digit grouping, its "and") when shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from .text import Capitalised, Number, Text, _, join


def number(n: int) -> Text:
    """``150`` / ``−54``: a total, with a real minus sign (it is read aloud)."""
    return Number(n)


_VULGAR = {
    Fraction(1, 2): "½",
    Fraction(1, 3): "⅓",
    Fraction(2, 3): "⅔",
    Fraction(1, 4): "¼",
    Fraction(3, 4): "¾",
}


def exact(value: Fraction | int) -> Text | str:
    """``12``, ``1½``, ``½``, ``−3¼``, ``12 3/8``: an exact score (match points, a
    sitter-out's average), the whole part in the reader's way."""
    value = Fraction(value)
    if value.denominator == 1:
        return number(int(value))
    whole, rest = divmod(abs(value), 1)
    part = _VULGAR.get(rest, f"{rest.numerator}/{rest.denominator}")
    pieces: list[str] = ["−"] if value < 0 else []
    if whole:
        pieces.append(number(int(whole)))
        if part not in _VULGAR.values():
            pieces.append(" ")
    pieces.append(part)
    return join("", pieces)


def signed(n: int) -> Text:
    """``+50`` / ``−50`` / ``0``: a change of score."""
    return Number(n, sign=True)


def joined(words: Sequence[str], last: str | None = None) -> Text | str:
    """``Ana``; ``Ana and Ben``; ``Ana, Ben and Cem`` (``last="or"``: ``Ana or Ben``)."""
    if not words:
        return ""
    if len(words) == 1:
        return words[0]
    head = join(_(", "), words[:-1])
    if last == "or":
        return _("{items} or {last}", items=head, last=words[-1])
    return _("{items} and {last}", items=head, last=words[-1])


def capitalised(text: str) -> Text:
    """The first letter made a capital, the rest left alone ("high joker" → "High joker")."""
    return Capitalised(text)
