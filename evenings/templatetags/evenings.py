"""Template helpers of the evening pages: where the rule book explains an evening's
rule (the evening's own rules page, or the Skat rule book)."""

from __future__ import annotations

from functools import cache
from typing import Any

from django import template
from django.urls import reverse
from django.utils.translation import get_language

from evenings.rules import money, movement, ranking, seating

register = template.Library()

SECTIONS = {
    **seating.RULE_SECTIONS,
    **movement.RULE_SECTIONS,
    **ranking.RULE_SECTIONS,
    **money.RULE_SECTIONS,
}


@register.filter
def evening_rule_url(step: Any) -> str:
    """The rule-book address of an evening step's rule ("" when it names none)."""
    anchor = getattr(step, "rule", None) or ""
    if anchor in SECTIONS:
        return _page("evenings:rules", get_language()) + f"#{anchor}"
    if anchor.startswith("skat-"):
        return _page("skat", get_language()) + f"#{anchor}"
    return ""


@cache
def _page(name: str, language: str | None) -> str:
    # A ranking explains every row: resolve each page's address once per language.
    if name == "skat":
        return reverse("games:rules-game", args=["skat"])
    return reverse(name)


@register.filter
def seat_number(index: int) -> int:
    return int(index) + 1


@register.filter
def match_points(value: Any) -> str:
    """Match points as the reader writes them: 2, 1½, ½."""
    from evenings.rules.ranking import _points

    return str(_points(value))


@register.filter
def plural_count(value: Any) -> int:
    """A whole number that picks the singular for exactly 1 and the plural otherwise (for
    counts such as 1½ match points that ngettext cannot take)."""
    return 1 if value == 1 else 2


@register.filter
def money(amount: Any, currency: str = "EUR") -> str:
    """An exact amount in the reader's way with its currency: €6.00, 6,00 € in German."""
    from decimal import Decimal

    from scorekeeper.i18n import money as shown

    if not isinstance(amount, Decimal):
        return ""
    return shown(amount, currency)


@register.filter
def prize_shares(prizes: Any, prize: Any) -> list[tuple[int, Any]]:
    """A prize's shares among the players level on it, to the currency's smallest coin."""
    return prizes.shares(prize)
