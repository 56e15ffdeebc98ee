"""Template helpers for the sheet pages: errors by field, cards, option values."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from games import cards_ui, entry_forms, selectors
from games.games import GAMES
from games.rules import (
    manipulation,
    manipulation_sheet,
    pitch,
    pitch_sheet,
    skat,
    skat_list,
    skat_sheet,
)
from games.rules.cards import SUIT_SYMBOLS, card, parse_card
from games.rules.errors import Problem, RuleError
from games.rules.words import capitalised, exact
from scorekeeper import i18n

register = template.Library()


@register.filter
def friendly_message(problem: Any) -> str:
    """A problem's message as a form says it: a new sheet's option by its label
    (``games.entry_forms.option_message``); any other as the rules said it."""
    field = getattr(problem, "field", None) or ""
    message = getattr(problem, "message", problem)
    if field.startswith("options."):
        # The message itself, not str() of it: a referee's Text keeps its English for
        # option_message to read, and is shown in the reader's language.
        return entry_forms.option_message(field.removeprefix("options."), message)
    return message


@register.filter
def errors_for(errors: list, field: str) -> list[str]:
    """Messages for a field and everything under it (``points`` gets ``points.three``)."""
    return [
        friendly_message(p)
        for p in errors or []
        if p.field is not None and (p.field == field or p.field.startswith(field + "."))
    ]


@register.filter
def errors_at(errors: list, field: str) -> list[str]:
    """Messages for exactly this field, not for the fields under it."""
    return [p.message for p in errors or [] if p.field == field]


@register.filter
def number(value: Any) -> str:
    """A whole number with a real minus sign (−96, not -96), grouped as the reader's
    language groups digits (1.234 in German)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return i18n.number(value)
    if isinstance(value, Fraction):
        # Match points and a sitter-out's average: 12½, 37⅓.
        return str(exact(value))
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
    """A change of score: +50, −50, 0 (grouped as the reader's language does)."""
    return i18n.signed(number)


@register.simple_tag
def pitch_point_cards() -> list[tuple[str, str, int]]:
    """The eight point cards in the order a scorer reads them off: key, name, worth."""
    names = {
        "ace": pgettext("pitch point card", "Ace"),
        "jack": pgettext("pitch point card", "Jack"),
        "off_jack": pgettext("pitch point card", "Off-jack"),
        "high_joker": pgettext("pitch point card", "High joker"),
        "low_joker": pgettext("pitch point card", "Low joker"),
        "ten": pgettext("pitch point card", "Ten"),
        "two": pgettext("pitch point card", "Two"),
        "three": pgettext("pitch point card", "Three"),
    }
    return [
        (key, names.get(key) or capitalised(pitch.POINT_CARD_NAMES[key]), worth)
        for key, worth in pitch.POINT_CARDS.items()
    ]


@register.filter
def key(prefix: str, suffix: Any) -> str:
    """A form field name made of a prefix and a seat: ``"penalty_"|key:2`` → ``penalty_2``."""
    return f"{prefix}{suffix}"


@register.simple_tag(takes_context=True)
def entry_problems(context: template.Context, errors: Any) -> list[Problem]:
    """The deal's problems as the entry form shows them: named by the form's labels and
    the players' names, each at the field whose control it concerns or at the top
    (``games.entry_forms.form_problems``)."""
    if not errors:
        return []
    game = context.get("game")
    sheet = context.get("sheet")
    players = context.get("players")
    if players:
        names = [name for _seat, name in players]
    elif sheet is not None:
        names = list(selectors.seat_names(sheet))
    else:
        names = []
    options = context.get("options")
    if options is None and sheet is not None and game is not None:
        options = game.sheet_options(sheet)
    return entry_forms.form_problems(getattr(game, "slug", ""), errors, names, options)


@register.simple_tag
def skat_bid_chips(values: Any) -> list[dict[str, Any]]:
    """The Skat bids to offer as one-tap chips (``games.entry_forms.skat_bid_chips``),
    the declared game's value marked."""
    values = values if isinstance(values, dict) else {}
    value = entry_forms.skat_declared_value(values)
    return [{"bid": bid, "is_value": bid == value} for bid in entry_forms.skat_bid_chips(values)]


@register.simple_tag
def skat_choices() -> dict[str, Any]:
    """What the Skat entry form offers: the legal bids, matador counts, result fields."""
    return {
        "bids": skat.BIDS,
        "matadors": range(1, 12),
        "matador_directions": (("with", _("With")), ("against", _("Against"))),
        # The jacks as the reader's language labels them (J♣ in English).
        "jacks": {suit: card("J" + suit).label for suit in ("C", "S", "H", "D")},
        "result_fields": (
            "outcome",
            "declarer_points",
            "declarer_tricks",
            "declarer_trick_cards",
            "skat",
        ),
    }


@register.filter
def winner_names(state: Any) -> str:
    """The winners' names as one list: "Ana and Ben" (every name joined by "and")."""
    names = [state.players[seat] for seat in state.winners]
    shown = names[0] if names else ""
    for name in names[1:]:
        # Translators: names of the winners of a game, joined one by one ("Ana and Ben").
        shown = pgettext("winners", "%(names)s and %(name)s") % {"names": shown, "name": name}
    return shown


@register.filter
def counts_rounds(game: str) -> bool:
    """For a sheet's game slug: whether its sheet says "round" (``GameEntry.counts_rounds``)."""
    entry = GAMES.get(game)
    return entry is not None and entry.counts_rounds


@register.filter
def subtract(value: int, other: int) -> int:
    return value - other


@register.simple_tag(takes_context=True)
def card_picker(
    context: Any,
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
    be one code instead of a list. Where the context says ``lazy_pickers`` (the sheet's
    entry form), an empty picker comes as a placeholder that loads the
    cards when it is shown (``games.views.card_picker``): a picker is some 10 KB.
    """
    if isinstance(selected, str):
        selected = [selected] if selected else None
    if context.get("lazy_pickers") and not selected:
        return cards_ui.lazy_picker_html(
            name=name, deck=deck, copies=copies, label=label, total=total, single=single
        )
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
    return _rule_book(game, get_language()) + f"#{anchor}"


@cache
def _rule_book(game: str, language: str | None) -> str:
    # A sheet page has hundreds of explanation lines: resolve each game's URL once
    # per language (its prefix).
    return reverse("games:rules-game", args=[game])


def _rule_fragment(anchor: str) -> str:
    return _rule_fragment_in(anchor, get_language())


@cache
def _rule_fragment_in(anchor: str, language: str | None) -> str:
    """The rule-book section alone, which the entry form opens in a dialog."""
    game = RULE_BOOKS.get(anchor.split("-", 1)[0])
    if game is None:
        return ""
    return reverse("games:rules-section", args=[game, anchor])


@register.simple_tag
def explanation(steps: Any) -> str:
    """An explanation as an ordered list, each line linking to its rule-book section.

    Built in Python: a sheet of 36 deals shows some 400 lines, and a template loop
    per line was most of the page's time. Each link also names the section alone
    (``data-rule-fragment``): the entry form opens that in a dialog over the form.
    """
    items = []
    for step in steps or ():
        url = rule_url(step)
        if url:
            items.append(
                format_html(
                    '<li>{} <a class="rule-link" href="{}" data-rule-fragment="{}">{}'
                    '<span class="visually-hidden">: {}</span></a></li>',
                    step.text,
                    url,
                    _rule_fragment(step.rule),
                    pgettext("link to the rule book", "rule"),
                    rule_title(step),
                )
            )
        else:
            items.append(format_html("<li>{}</li>", getattr(step, "text", step)))
    return mark_safe('<ol class="explanation">' + "".join(items) + "</ol>")


# A line's indentation and the blank lines that {% if %} and {% for %} leave behind.
_INDENTED_LINES = re.compile(r"\n[ \t\n]+")


class TrimLinesNode(template.Node):
    def __init__(self, nodelist: template.NodeList):
        self.nodelist = nodelist

    def render(self, context) -> str:
        return _INDENTED_LINES.sub("\n", self.nodelist.render(context))


@register.tag
def trimlines(parser, token) -> TrimLinesNode:
    """``{% trimlines %}…{% endtrimlines %}``: the rendered part without the templates'
    indentation and blank lines.

    Whitespace after a line break shows as nothing in HTML (it collapses into the line
    break), so only bytes go: the entry form's questions lose a tenth of their size,
    and a form shown again with its problems travels whole. Not for a part with
    ``<pre>`` or ``<textarea>``, whose whitespace shows.
    """
    nodelist = parser.parse(("endtrimlines",))
    parser.delete_first_token()
    return TrimLinesNode(nodelist)
