"""The Manipulation referee pages: melds, a whole turn, and "can all these go down?".

Melds are typed one per line (``7H 8H 9H``), the way players read a table out
loud; a hand and a pile of cards are tapped in the two-deck card picker. The
pages only read the form; every judgement comes from
:mod:`games.rules.manipulation`. Problems with typed cards name their line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from games import offload
from games.games import GAMES, OptionField
from games.rules import manipulation
from games.rules.cards import MANIPULATION_DECK, RANK_LETTERS, Card
from games.rules.errors import Problem, RuleError

MELDS_TEMPLATE = "games/referee/manipulation_melds.html"
TURN_TEMPLATE = "games/referee/manipulation_turn.html"
ARRANGE_TEMPLATE = "games/referee/manipulation_arrange.html"

# Cards on a line may be separated by spaces, commas or semicolons.
_SEPARATORS = re.compile(r"[\s,;]+")
# Lines are read one at a time; two decks hold two of each card, and whether a
# table holds more than that is the referee's judgement, made over all lines.
_NO_COPY_LIMIT = len(MANIPULATION_DECK)
# Each kind of meld (MeldCheck.kind) as a heading above its cards.
KIND_LABELS = {
    "sequence": pgettext_lazy("meld kind", "Sequence"),
    "group": pgettext_lazy("meld kind", "Group"),
}


def _tools(current: str) -> list[tuple[str, str, bool]]:
    """The Manipulation tools for the small navigation bar: (url name, title, is this page)."""
    return [
        (name, title, name == current)
        for name, title in (
            ("referee-manipulation-melds", _("Check melds")),
            ("referee-manipulation-turn", _("Check a turn")),
            ("referee-manipulation-arrange", _("Can they all go down?")),
        )
    ]


def _answer(
    request: HttpRequest, template: str, context: dict[str, Any], errors: list[Problem]
) -> HttpResponse:
    """The whole page, or only the tool when htmx asked; 422 when the input was refused."""
    context["errors"] = errors
    if request.htmx and not request.htmx.boosted:
        template += "#tool"
    return render(request, template, context, status=422 if errors else 200)


# -- Reading the form -------------------------------------------------------------------


@dataclass
class TypedMelds:
    """Melds typed one per line: the ones that could be read, and the line each came from."""

    field: str
    melds: list[list[Card]]
    lines: list[int]
    problems: list[Problem]


def read_melds(text: str | None, field: str) -> TypedMelds:
    """One meld per line; blank lines are skipped, a line with a bad card is reported."""
    typed = TypedMelds(field, [], [], [])
    for number, line in enumerate((text or "").splitlines(), start=1):
        codes = [code for code in _SEPARATORS.split(line.strip()) if code]
        if not codes:
            continue
        try:
            cards = MANIPULATION_DECK.parse(
                codes, f"{field}.{len(typed.melds)}", copies=_NO_COPY_LIMIT
            )
        except RuleError as error:
            typed.problems.extend(
                Problem(
                    field,
                    # Translators: a problem on one line of the typed melds: "Line 3: …".
                    _("Line %(number)s: %(message)s") % {"number": number, "message": p.message},
                )
                for p in error.problems
            )
            continue
        typed.melds.append(cards)
        typed.lines.append(number)
    return typed


def read_cards(query: QueryDict, field: str) -> tuple[list[Card], list[Problem]]:
    """Cards tapped in the two-deck picker (or typed into the link by hand)."""
    try:
        return MANIPULATION_DECK.parse(query.getlist(field), field), []
    except RuleError as error:
        return [], list(error.problems)


def read_options(query: QueryDict) -> tuple[manipulation.ManipulationOptions, list[Problem]]:
    """The ace rule is the only option that changes what a meld is; the target does not."""
    ace = query.get("ace", "").strip()
    try:
        options = manipulation.ManipulationOptions.from_mapping({"ace": ace} if ace else None)
    except RuleError as error:
        # Go on with the usual rule, so the other problems are found too.
        return manipulation.ManipulationOptions(), list(error.problems)
    return options, []


def _ace_field() -> OptionField:
    return next(o for o in GAMES["manipulation"].option_fields if o.name == "ace")


def _common(query: QueryDict, current: str) -> dict[str, Any]:
    return {
        "tools": _tools(current),
        "ace_field": _ace_field(),
        "ace": query.get("ace") or manipulation.ManipulationOptions().ace,
        "values": query,
        # The letter on a small card face as the reader's language writes it (B for Bube).
        "rank_letters": RANK_LETTERS,
    }


def _not_empty(typed: TypedMelds, message: str) -> list[Problem]:
    if typed.melds or typed.problems:
        return []
    return [Problem(typed.field, message)]


# -- The meld checker -------------------------------------------------------------------


def melds_page(request: HttpRequest) -> HttpResponse:
    query = request.GET
    context = _common(query, "referee-manipulation-melds")
    errors: list[Problem] = []
    if query:
        options, errors = read_options(query)
        typed = read_melds(query.get("melds"), "melds")
        errors += typed.problems
        errors += _not_empty(typed, _("Write at least one meld: one per line, like 7H 8H 9H."))
        try:
            result = manipulation.check_melds(melds=typed.melds, options=options)
        except RuleError as error:
            # Only cards over the two copies are left to refuse here (a joker never
            # gets past reading); they may be on several lines, so no line is named.
            errors += error.problems
        if not errors:
            context["result"] = result
            context["checked"] = [
                (line, cards, check, KIND_LABELS.get(check.kind or ""))
                for line, cards, check in zip(typed.lines, typed.melds, result.melds, strict=True)
            ]
            context["headline"] = _melds_headline(result)
    return _answer(request, MELDS_TEMPLATE, context, errors)


def _melds_headline(result: manipulation.MeldsResult) -> str:
    count = len(result.melds)
    bad = sum(1 for meld in result.melds if not meld.valid)
    if count == 1:
        return _("The meld is valid") if result.valid else _("The meld is not valid")
    if result.valid:
        # Translators: %(count)s is 2 or more.
        return _("All %(count)s melds are valid") % {"count": count}
    return ngettext(
        "%(bad)s of %(count)s melds is not valid",
        "%(bad)s of %(count)s melds are not valid",
        bad,
    ) % {"bad": bad, "count": count}


# -- The turn checker -------------------------------------------------------------------


def turn_page(request: HttpRequest) -> HttpResponse:
    query = request.GET
    context = _common(query, "referee-manipulation-turn")
    context["hand"] = query.getlist("hand")
    errors: list[Problem] = []
    if query:
        options, errors = read_options(query)
        before = read_melds(query.get("table_before"), "table_before")
        after = read_melds(query.get("table_after"), "table_after")
        hand, hand_problems = read_cards(query, "hand")
        errors += before.problems + after.problems + hand_problems
        errors += _not_empty(
            after, _("Write the melds on the table after the turn: one per line, like 7H 8H 9H.")
        )
        if not errors:
            # The turn checker refuses only jokers, which reading the cards has refused
            # already; every broken rule of the game is a reason in its answer.
            context["result"] = offload.run(
                manipulation.check_turn,
                table_before=before.melds,
                table_after=after.melds,
                hand=hand or None,
                options=options,
            )
    return _answer(request, TURN_TEMPLATE, context, errors)


# -- Can all these cards go down? ---------------------------------------------------


def arrange_page(request: HttpRequest) -> HttpResponse:
    query = request.GET
    context = _common(query, "referee-manipulation-arrange")
    context["cards"] = query.getlist("cards")
    errors: list[Problem] = []
    if query:
        options, errors = read_options(query)
        cards, card_problems = read_cards(query, "cards")
        errors += card_problems
        if not cards and not card_problems:
            errors.append(Problem("cards", _("Tap the cards to lay out: at least three.")))
        if not errors:
            # The picker's cards are already checked against the two decks, which is
            # all the arrangement search refuses.
            result = offload.run(manipulation.arrange, cards=cards, options=options)
            context["result"] = result
            context["card_count"] = len(cards)
            context["layout"] = [(_kind(meld), meld) for meld in result.melds or ()]
    return _answer(request, ARRANGE_TEMPLATE, context, errors)


def _kind(meld: tuple[Card, ...]) -> str:
    """A group is one rank in different suits; anything else the search lays out is a sequence."""
    return KIND_LABELS["group" if len({c.rank for c in meld}) == 1 else "sequence"]


urlpatterns = [
    path("referee/manipulation/melds/", melds_page, name="referee-manipulation-melds"),
    path("referee/manipulation/turn/", turn_page, name="referee-manipulation-turn"),
    path("referee/manipulation/arrange/", arrange_page, name="referee-manipulation-arrange"),
]
