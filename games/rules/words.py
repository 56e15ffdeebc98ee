"""How numbers and lists are written in explanations, the same way in every game."""

from __future__ import annotations

from collections.abc import Sequence


def number(n: int) -> str:
    """``150`` / ``−54``: a total, with a real minus sign (it is read aloud)."""
    return f"−{-n}" if n < 0 else str(n)


def signed(n: int) -> str:
    """``+50`` / ``−50`` / ``0``: a change of score."""
    return f"+{n}" if n > 0 else number(n)


def plural(n: int, word: str) -> str:
    """``1 deal`` / ``3 deals``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def joined(words: Sequence[str], last: str = "and") -> str:
    """``Ana``; ``Ana and Ben``; ``Ana, Ben and Cem``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {last} " + words[-1]


def capitalised(text: str) -> str:
    """The first letter made a capital, the rest left alone ("high joker" → "High joker")."""
    return text[:1].upper() + text[1:]
