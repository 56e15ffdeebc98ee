"""Template helpers for the sheet pages: errors by field, cards, option values."""

from __future__ import annotations

from functools import cache
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from games import cards_ui
from games.rules import (
    manipulation,
    manipulation_sheet,
    pitch,
    pitch_sheet,
    skat,
    skat_list,
    skat_sheet,
)
from games.rules.cards import SUIT_SYMBOLS, parse_card
from games.rules.errors import RuleError

register = template.Library()


@register.filter
def errors_for(errors: list, field: str) -> list[str]:
    """Messages for a field and everything under it (``points`` gets ``points.three``)."""
    return [
        p.message
        for p in errors or []
        if p.field is not None and (p.field == field or p.field.startswith(field + "."))
    ]


@register.filter
def errors_at(errors: list, field: str) -> list[str]:
    """Messages for exactly this field, not for the fields under it."""
    return [p.message for p in errors or [] if p.field == field]


@register.filter
def number(value: Any) -> str:
    """A whole number with a real minus sign (−96, not -96), as the changes are shown."""
    if isinstance(value, int) and value < 0:
        return f"−{-value}"
    return str(value)


@register.filter
def whole_errors(errors: list) -> list[str]:
    return [p.message for p in errors or [] if p.field is None]


@register.filter
def get(mapping: Any, key: Any) -> Any:
    if isinstance(mapping, dict):
        return mapping.get(key, mapping.get(str(key)))
    if isinstance(mapping, list | tuple) and isinstance(key, int) and 0 <= key < len(mapping):
        return mapping[key]
    return None


@register.filter
def count_of(values: Any, code: str) -> int:
    """How often a card code is among the selected ones (two-deck games hold two)."""
    if not isinstance(values, list):
        return 0
    target = _code(code)
    return sum(1 for v in values if _code(v) == target)


def _code(value: object) -> str | None:
    try:
        return parse_card(value).code
    except RuleError:
        return None


@register.filter
def same(a: Any, b: Any) -> bool:
    """Form values arrive as text; the JSON holds numbers: compare them as text."""
    return a is not None and b is not None and str(a) == str(b)


@register.simple_tag
def option_value(game: Any, options: dict, option: Any) -> Any:
    return game.option_value(options or {}, option)


@register.filter
def suit_symbol(suit: str) -> str:
    return SUIT_SYMBOLS.get(suit, suit)


@register.filter
def signed(number: int) -> str:
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"−{-number}"
    return "0"


@register.simple_tag
def pitch_point_cards() -> list[tuple[str, str, int]]:
    """The eight point cards in the order a scorer reads them off: key, name, worth."""
    return [
        (key, pitch.POINT_CARD_NAMES[key].capitalize(), worth)
        for key, worth in pitch.POINT_CARDS.items()
    ]


@register.filter
def key(prefix: str, suffix: Any) -> str:
    """A form field name made of a prefix and a seat: ``"penalty_"|key:2`` → ``penalty_2``."""
    return f"{prefix}{suffix}"


@register.simple_tag
def skat_choices() -> dict[str, Any]:
    """What the Skat entry form offers: the legal bids, matador counts, result fields."""
    return {
        "bids": skat.BIDS,
        "matadors": range(1, 12),
        "matador_directions": (("with", "With"), ("against", "Against")),
        "result_fields": (
            "outcome",
            "declarer_points",
            "declarer_tricks",
            "declarer_trick_cards",
            "skat",
        ),
    }


@register.filter
def subtract(value: int, other: int) -> int:
    return value - other


@register.simple_tag
def card_picker(
    name: str,
    deck: str,
    selected: Any = None,
    *,
    copies: int = 1,
    label: str = "",
    total: str = "",
    single: bool = False,
) -> str:
    """The card picker (see ``games.cards_ui.picker_html``): one shared component.

    ``deck`` is "skat", "pitch" or "manipulation"; for a single card, ``selected`` may
    be one code instead of a list.
    """
    if isinstance(selected, str):
        selected = [selected]
    return cards_ui.picker_html(
        name=name,
        deck=deck,
        selected=selected,
        copies=copies,
        label=label,
        total=total,
        single=single,
    )


RULE_BOOKS = {"skat": "skat", "pitch": "pitch", "manipulation": "manipulation"}


@cache
def _rule_titles() -> dict[str, str]:
    titles: dict[str, str] = {}
    for module in (
        skat,
        skat_list,
        skat_sheet,
        pitch,
        pitch_sheet,
        manipulation,
        manipulation_sheet,
    ):
        titles.update(getattr(module, "RULE_SECTIONS", {}))
    return titles


@register.filter
def rule_title(step: Any) -> str:
    """The rule-book section's title for an explanation step ("Matadors")."""
    return _rule_titles().get(getattr(step, "rule", None) or "", "")


@register.filter
def rule_url(step: Any) -> str:
    """Where the rule book explains the rule an explanation step rests on."""
    anchor = getattr(step, "rule", None)
    if not anchor:
        return ""
    game = RULE_BOOKS.get(anchor.split("-", 1)[0])
    if game is None:
        return ""
    return _rule_book(game) + f"#{anchor}"


@cache
def _rule_book(game: str) -> str:
    # A sheet page has hundreds of explanation lines: resolve each game's URL once.
    return reverse("games:rules-game", args=[game])


@register.simple_tag
def explanation(steps: Any) -> str:
    """An explanation as an ordered list, each line linking to its rule-book section.

    Built in Python: a sheet of 36 deals shows some 400 lines, and a template loop
    per line was most of the page's time.
    """
    items = []
    for step in steps or ():
        url = rule_url(step)
        if url:
            items.append(
                format_html(
                    '<li>{} <a class="rule-link" href="{}">rule<span class="visually-hidden">'
                    ": {}</span></a></li>",
                    step.text,
                    url,
                    rule_title(step),
                )
            )
        else:
            items.append(format_html("<li>{}</li>", getattr(step, "text", step)))
    return mark_safe('<ol class="explanation">' + "".join(items) + "</ol>")
