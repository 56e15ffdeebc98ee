"""How numbers and lists are written in explanations, the same way in every game.

Each gives a :class:`~games.rules.text.Text`: English in the referee's tests, the
reader's language (its digit grouping, its "and") when shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from .text import Capitalised, Number, Text, _, join


def number(n: int) -> Text:
    """``150`` / ``−54``: a total, with a real minus sign (it is read aloud)."""
    return Number(n)


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
