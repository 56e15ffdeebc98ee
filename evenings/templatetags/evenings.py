"""Template helpers of the evening pages: where the rule book explains an evening's
rule (the evening's own rules page, or the Skat rule book)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from evenings.rules import ranking, seating

register = template.Library()

SECTIONS = {**seating.RULE_SECTIONS, **ranking.RULE_SECTIONS}


@register.filter
def evening_rule_url(step: Any) -> str:
    """The rule-book address of an evening step's rule ("" when it names none)."""
    anchor = getattr(step, "rule", None) or ""
    if anchor in SECTIONS:
        return reverse("evenings:rules") + f"#{anchor}"
    if anchor.startswith("skat-"):
        return reverse("games:rules-game", args=["skat"]) + f"#{anchor}"
    return ""


@register.filter
def seat_number(index: int) -> int:
    return int(index) + 1
