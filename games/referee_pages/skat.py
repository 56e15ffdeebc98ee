"""The Skat referee pages: game value, how high to bid, who takes a trick, following suit,
and the bid ladder.

Every tool is a GET form, so an answer has a link that can be sent across the table.
The pages only read the form into the referee's arguments: the judging is done by
``games.rules.skat`` and ``games.rules.skat_bidding``. A first visit (no question asked
yet) answers 200 without a result; a question that breaks a rule answers 422 with each
message next to its field and what was entered kept. With htmx only the tool (form and
answer) is swapped, and the address bar gets the question's link.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_GET

from games import entry_forms
from games.api_input import UnreadableInput
from games.deal_input import skat as skat_input
from games.rules import skat, skat_bidding, text
from games.rules.cards import SKAT_DECK, Card, labels
from games.rules.errors import Problem, RuleError
from games.rules.skat_sheet import SkatSheetOptions
from scorekeeper.i18n import number

# The game value calculator takes the fields of the sheet's Skat deal form (without a
# declarer, and with Bock, which a sheet works out itself).
VALUE_FIELDS = (
    "game",
    "announced",
    "bid",
    "matadors_by",
    "matadors_tap",
    "matadors_direction",
    "matadors_count",
    "result_by",
    "outcome",
    "declarer_points",
    "declarer_tricks",
)
VALUE_SWITCHES = ("hand", "ouvert", "kontra", "re", "bock")
VALUE_CARD_FIELDS = ("declarer_cards", "declarer_trick_cards", "skat")


class TrickCard(NamedTuple):
    """One card of the trick, with every sentence that names it by its place (whole
    sentences, so that each language says "the 2nd card" its own way)."""

    name: str  # the picker's field
    label: str  # the picker's label
    missing: str  # the problem when it is not tapped
    takes: str  # the answer when it takes the trick: %(card)s is its label


# The trick's three cards, one single-card picker each, in the order they were played.
TRICK_CARDS = (
    TrickCard(
        "card_1",
        gettext_lazy("1st card"),
        gettext_lazy("Tap the 1st card played to the trick."),
        gettext_lazy("The 1st card, %(card)s, takes the trick"),
    ),
    TrickCard(
        "card_2",
        gettext_lazy("2nd card"),
        gettext_lazy("Tap the 2nd card played to the trick."),
        gettext_lazy("The 2nd card, %(card)s, takes the trick"),
    ),
    TrickCard(
        "card_3",
        gettext_lazy("3rd card"),
        gettext_lazy("Tap the 3rd card played to the trick."),
        gettext_lazy("The 3rd card, %(card)s, takes the trick"),
    ),
)
TRICK_CARD_FIELDS = tuple(card.name for card in TRICK_CARDS)

ANNOUNCEMENT_CHOICES = (
    ("none", pgettext_lazy("Skat: announced", "Nothing")),
    ("schneider", pgettext_lazy("Skat: announced", "Schneider")),
    ("schwarz", pgettext_lazy("Skat: announced", "Schwarz")),
)


def _asked(request: HttpRequest, fields: Iterable[str]) -> bool:
    """A question was asked: the form was sent with at least one of its fields."""
    return any(name in request.GET for name in fields)


def _switch(query: QueryDict, name: str) -> bool:
    return query.get(name) in ("on", "true", "1")


def _answer(
    request: HttpRequest, template: str, context: dict[str, Any], errors: list[Problem]
) -> HttpResponse:
    """The whole page, or with htmx only the tool; 422 when the question breaks a rule."""
    context["errors"] = errors
    if request.htmx and not request.htmx.boosted:
        template += "#tool"
    return render(request, template, context, status=422 if errors else 200)


def _choose_game(query: QueryDict, problems: list[Problem], *, missing: str) -> str:
    """The game chosen, or "" (no game at all) with ``missing``, saying to choose one."""
    game = (query.get("game") or "").strip()
    if not game:
        problems.append(Problem("game", missing))
    return game


def _read_cards(query: QueryDict, name: str, problems: list[Problem]) -> list[Card] | None:
    try:
        return SKAT_DECK.parse(query.getlist(name), name)
    except RuleError as error:
        problems.extend(error.problems)
        return None


def _read_card(query: QueryDict, name: str, missing: str, problems: list[Problem]) -> Card | None:
    """One card from a single-card picker; ``missing`` says which card to tap."""
    codes = query.getlist(name)
    if not codes:
        problems.append(Problem(name, missing))
        return None
    cards = _read_cards(query, name, problems)
    if cards is None:
        return None
    if len(cards) > 1:
        # Translators: a picker for one card got several; %(count)s is 2 or more.
        message = _("Tap one card here, not %(count)s.") % {"count": number(len(cards))}
        problems.append(Problem(name, message))
        return None
    return cards[0]


def _judge(problems: list[Problem], ruling: Callable[[], Any]) -> Any:
    """Ask the referee once the form could be read; its problems join the others.

    A game not chosen yet is no reason to hold back: the referee is asked about the
    rest (with no game), and the page's own "choose the game" stands for its word on it.
    """
    if any(p.field != "game" for p in problems):
        return None
    game_unchosen = bool(problems)
    try:
        return ruling()
    except RuleError as error:
        problems.extend(p for p in error.problems if not (game_unchosen and p.field == "game"))
        return None


# -- Game value ----------------------------------------------------------------------


def _value_form(query: QueryDict) -> dict[str, Any]:
    """What was entered, as the template shows it again."""
    values: dict[str, Any] = {name: query.get(name) for name in VALUE_FIELDS}
    values.update({name: _switch(query, name) for name in VALUE_SWITCHES})
    values.update({name: query.getlist(name) for name in VALUE_CARD_FIELDS})
    values["matadors_direction"], values["matadors_count"] = entry_forms.skat_matadors(query)
    return values


def _score(query: QueryDict, problems: list[Problem]) -> skat.GameResult | None:
    entry = entry_forms.skat_entry(query, players=3)
    try:
        # The sheet's deal reader asks for the declarer's seat; a referee question has no
        # seats, and the seat plays no part in the score, so any seat reads the same.
        deal = skat_input.read_deal({**entry, "declarer": 0}, players=3, options=SkatSheetOptions())
    except UnreadableInput as error:
        # The deal reader speaks of the API's fields; the page of its own controls, as
        # the sheet's entry form does (the same form parts).
        problems.extend(entry_forms.form_problems("skat", error.problems, players=("",) * 3))
        return None
    bock = _switch(query, "bock")
    return _judge(problems, lambda: skat.score_game(**deal.game, bock=bock))


@require_GET
def value(request: HttpRequest) -> HttpResponse:
    query = request.GET
    context: dict[str, Any] = {
        "values": _value_form(query),
        "bids": skat.BIDS,
        "announcements": ANNOUNCEMENT_CHOICES,
    }
    problems: list[Problem] = []
    if _asked(request, (*VALUE_FIELDS, *VALUE_SWITCHES, *VALUE_CARD_FIELDS)):
        context["result"] = _score(query, problems)
    return _answer(request, "games/referee/skat_value.html", context, problems)


# -- How high may I bid? ---------------------------------------------------------------


@require_GET
def bid(request: HttpRequest) -> HttpResponse:
    query = request.GET
    context: dict[str, Any] = {
        "values": {
            "game": query.get("game"),
            "announced": query.get("announced"),
            "hand": _switch(query, "hand"),
            "ouvert": _switch(query, "ouvert"),
            "cards": query.getlist("cards"),
        },
        "announcements": ANNOUNCEMENT_CHOICES,
        "possible_skats": skat_bidding.POSSIBLE_SKATS,
    }
    problems: list[Problem] = []
    if _asked(request, ("game", "cards", "hand", "ouvert", "announced")):
        game = _choose_game(query, problems, missing=_("Choose the game you mean to declare."))
        cards = _read_cards(query, "cards", problems)
        result = context["result"] = _judge(
            problems,
            lambda: skat_bidding.bid_limit(
                game=game,
                cards=cards,
                hand=_switch(query, "hand"),
                ouvert=_switch(query, "ouvert"),
                announced=query.get("announced") or "none",
            ),
        )
        if result is not None:
            # The levels counted for certain, as one list ("against 1, game").
            context["counted"] = text.join(text._(", "), (label for label, _n in result.levels))
    return _answer(request, "games/referee/skat_bid.html", context, problems)


# -- Who takes the trick? ----------------------------------------------------------------


def _trick_problems(problems: list[Problem]) -> list[Problem]:
    """The referee names the trick's cards ``cards.0`` …; the page has one picker each."""
    moved: dict[str | None, str | None] = {
        f"cards.{i}": name for i, name in enumerate(TRICK_CARD_FIELDS)
    }
    moved["cards"] = None  # the same card twice: a problem of the trick as a whole
    return [Problem(moved.get(p.field, p.field), p.message) for p in problems]


@require_GET
def trick(request: HttpRequest) -> HttpResponse:
    query = request.GET
    context: dict[str, Any] = {
        "values": {"game": query.get("game"), **{n: query.get(n) for n in TRICK_CARD_FIELDS}},
        "pickers": [(card.name, card.label) for card in TRICK_CARDS],
    }
    problems: list[Problem] = []
    if _asked(request, ("game", *TRICK_CARD_FIELDS)):
        game = _choose_game(query, problems, missing=_("Choose the game being played."))
        played = [_read_card(query, card.name, str(card.missing), problems) for card in TRICK_CARDS]
        result = _judge(
            problems,
            lambda: skat.trick_winner(game=game, cards=played),
        )
        problems = _trick_problems(problems)
        if result is not None:
            context.update(
                result=result,
                game_name=skat.GAME_NAMES[game],
                trick=labels(played),
                winner=played[result.winner],
                winner_heading=TRICK_CARDS[result.winner].takes
                % {"card": played[result.winner].label},
            )
    return _answer(request, "games/referee/skat_trick.html", context, problems)


# -- May I play that card? ---------------------------------------------------------------


@require_GET
def follow(request: HttpRequest) -> HttpResponse:
    query = request.GET
    context: dict[str, Any] = {
        "values": {
            "game": query.get("game"),
            "led": query.get("led"),
            "hand": query.getlist("hand"),
            "played": query.get("played"),
        },
    }
    problems: list[Problem] = []
    if _asked(request, ("game", "led", "hand", "played")):
        game = _choose_game(query, problems, missing=_("Choose the game being played."))
        led = _read_card(query, "led", _("Tap the card that was led."), problems)
        hand = _read_cards(query, "hand", problems)
        if hand == []:
            problems.append(
                Problem("hand", _("Tap the cards the player held, the card played among them."))
            )
        played = _read_card(query, "played", _("Tap the card the player put down."), problems)
        result = _judge(
            problems,
            lambda: skat.follow_check(game=game, led=led, hand=hand, played=played),
        )
        if result is not None:
            context.update(
                result=result,
                game_name=skat.GAME_NAMES[game],
                led=led,
                hand=labels(hand),
                played=played,
            )
    return _answer(request, "games/referee/skat_follow.html", context, problems)


# -- The bid ladder --------------------------------------------------------------------


@require_GET
def ladder(request: HttpRequest) -> HttpResponse:
    return render(request, "games/referee/skat_ladder.html", {"rungs": skat.bid_ladder()})


urlpatterns = [
    path("referee/skat/value/", value, name="referee-skat-value"),
    path("referee/skat/bid/", bid, name="referee-skat-bid"),
    path("referee/skat/trick/", trick, name="referee-skat-trick"),
    path("referee/skat/follow/", follow, name="referee-skat-follow"),
    path("referee/skat/bids/", ladder, name="referee-skat-ladder"),
]
