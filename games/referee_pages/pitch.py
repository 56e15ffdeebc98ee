"""The Pitch referee pages: who wins a trick, and what a hand scores.

Both are GET forms, so an answer is a link someone can pass round the table. The
pages only read the form into the referee's arguments; every judgement, message
and explanation comes from :mod:`games.rules.pitch`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, cast

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.games import GAMES, OptionField
from games.rules import pitch
from games.rules.cards import PITCH_DECK, RANK_LETTERS, SUIT_NAMES, SUIT_SYMBOLS, Card
from games.rules.errors import Problem, RuleError
from scorekeeper.i18n import number

TRICK_TEMPLATE = "games/referee/pitch_trick.html"
HAND_TEMPLATE = "games/referee/pitch_hand.html"


class TrickSlot(NamedTuple):
    """One card picker of the trick judge, with every sentence that names it by its
    place (whole sentences, so that each language says "the 2nd card" its own way)."""

    name: str  # the picker's field
    ordinal: str  # its place, shown beside the card in the answer
    title: str  # the picker's heading
    picker: str  # the picker's label
    wins: str  # the answer when it wins: %(card)s is its label
    none: str = ""  # the choice of no card at all (the optional ones only)


# The card pickers of the trick judge, in play order; the third and fourth are
# optional because a player who has run out of trumps sits the trick out.
TRICK_SLOTS = (
    TrickSlot(
        "card1",
        pgettext_lazy("place of a card in the trick", "1st"),
        gettext_lazy("1st card"),
        gettext_lazy("1st card played"),
        gettext_lazy("The 1st card wins: %(card)s"),
    ),
    TrickSlot(
        "card2",
        pgettext_lazy("place of a card in the trick", "2nd"),
        gettext_lazy("2nd card"),
        gettext_lazy("2nd card played"),
        gettext_lazy("The 2nd card wins: %(card)s"),
    ),
    TrickSlot(
        "card3",
        pgettext_lazy("place of a card in the trick", "3rd"),
        gettext_lazy("3rd card"),
        gettext_lazy("3rd card played"),
        gettext_lazy("The 3rd card wins: %(card)s"),
        gettext_lazy("No 3rd card"),
    ),
    TrickSlot(
        "card4",
        pgettext_lazy("place of a card in the trick", "4th"),
        gettext_lazy("4th card"),
        gettext_lazy("4th card played"),
        gettext_lazy("The 4th card wins: %(card)s"),
        gettext_lazy("No 4th card"),
    ),
)
# A card left out before a later one that is chosen: (the place left out, the last
# place chosen) and what to say, each a whole sentence.
_GAPS = {
    (0, 1): gettext_lazy(
        "Choose the 1st card too: the cards go in the order they were played, "
        "and the 2nd one is already chosen."
    ),
    (0, 2): gettext_lazy(
        "Choose the 1st card too: the cards go in the order they were played, "
        "and the 3rd one is already chosen."
    ),
    (0, 3): gettext_lazy(
        "Choose the 1st card too: the cards go in the order they were played, "
        "and the 4th one is already chosen."
    ),
    (1, 2): gettext_lazy(
        "Choose the 2nd card too: the cards go in the order they were played, "
        "and the 3rd one is already chosen."
    ),
    (1, 3): gettext_lazy(
        "Choose the 2nd card too: the cards go in the order they were played, "
        "and the 4th one is already chosen."
    ),
    (2, 3): gettext_lazy(
        "Choose the 3rd card too: the cards go in the order they were played, "
        "and the 4th one is already chosen."
    ),
}
FEWEST_CARDS = 2  # the card led and at least one played to it
# Each suit's name starts with a capital where it is shown (the template's capfirst),
# in the reader's language.
SUITS_SHOWN = tuple((suit, SUIT_SYMBOLS[suit], SUIT_NAMES[suit]) for suit in "CSHD")
BIDS = ("4", "5", "6", "7", "8", "9", pitch.MOON)
# The hand scorer asks for the house rules that change a hand's score; how the
# bidding goes round (all_pass) does not, so it is left to the score sheet.
HAND_OPTIONS = ("target", "made_scores", "two_goes_to", "win_condition")
# Plain digits only (no ² or other digit-like signs), and not so many that Python balks.
# Read whole however long: the referee says what is too large (a score, a bid, a target).
_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,40}")


def _tools(current: str) -> list[tuple[str, str, bool]]:
    """The Pitch tools for the small navigation bar: (url name, title, is this page)."""
    return [
        (name, title, name == current)
        for name, title in (
            ("referee-pitch-trick", _("Who wins the trick?")),
            ("referee-pitch-hand", _("Score a hand")),
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


def _blank_to_none(value: str | None) -> str | None:
    return value.strip() if value and value.strip() else None


def _whole_number(text: str) -> int | str:
    """A number typed in a form; text that is not one goes on, for the referee to name."""
    cleaned = text.strip().replace("−", "-")  # a typographic minus from a phone keyboard
    return int(cleaned) if _WHOLE_NUMBER.fullmatch(cleaned) else text.strip()


# -- The trick judge --------------------------------------------------------------------


@dataclass(frozen=True)
class TrumpRank:
    """One place in the trump order, for the table shown beside the trump choice."""

    place: int
    card: Card
    note: str


def trump_ranks(trump: str | None) -> list[TrumpRank]:
    """The 16 trumps for the chosen suit, high to low, the odd ones named; none if no suit."""
    try:
        order = pitch.trump_order(trump or "")
    except RuleError:
        return []
    notes = {
        # Translators: a note beside the card in the trump order; the hyphen never breaks.
        4: pgettext("trump order", "off‑jack"),
        5: pgettext("trump order", "high joker"),
        6: pgettext("trump order", "low joker"),
    }
    return [TrumpRank(i + 1, c, notes.get(i, "")) for i, c in enumerate(order)]


def _trick_problems(slots: list[str | None], trump: str | None) -> list[Problem]:
    """What the form itself can tell: unreadable cards, and a card chosen after a gap."""
    problems: list[Problem] = []
    for slot, value in zip(TRICK_SLOTS, slots, strict=True):
        if value is None:
            continue
        try:
            PITCH_DECK.parse([value], slot.name)
        except RuleError as error:
            problems.extend(Problem(slot.name, p.message) for p in error.problems)
    last = max((i for i, value in enumerate(slots) if value is not None), default=-1)
    for i in range(last):
        if slots[i] is None:
            problems.append(Problem(TRICK_SLOTS[i].name, str(_GAPS[i, last])))
    if problems:
        # The trump is still worth checking, so that one answer lists everything.
        try:
            pitch.trump_order(trump or "")
        except RuleError as error:
            problems.extend(Problem("trump", p.message) for p in error.problems)
    return problems


def _slot_field(field: str | None) -> str | None:
    """``cards.2`` (the referee's index) is the picker ``card3`` on this page."""
    if field and field.startswith("cards."):
        return TRICK_SLOTS[int(field.removeprefix("cards."))].name
    return field


def judge_trick(query: QueryDict) -> tuple[pitch.TrickResult, list[Card]]:
    """The referee's verdict on the trick in the form, or ``RuleError`` at the form's fields."""
    trump = _blank_to_none(query.get("trump"))
    slots = [_blank_to_none(query.get(slot.name)) for slot in TRICK_SLOTS]
    problems = _trick_problems(slots, trump)
    if problems:
        raise RuleError(problems)
    cards = [PITCH_DECK.parse([value], "cards")[0] for value in slots if value is not None]
    try:
        # A missing trump goes on as it is: the referee says what to choose.
        result = pitch.trick_winner(trump=cast(str, trump), cards=cards)
    except RuleError as error:
        raise RuleError(Problem(_slot_field(p.field), p.message) for p in error.problems) from None
    return result, cards


def _slot_card(value: str | None) -> Card | None:
    try:
        return PITCH_DECK.parse([value], "card")[0] if value else None
    except RuleError:
        return None


def _slots(
    query: QueryDict, errors: list[Problem]
) -> list[tuple[TrickSlot, Card | None, bool, bool]]:
    """Each card picker: the slot, the card chosen, required?, shown open?

    The first picker still to choose is open, and so is any with a problem; the
    others stay folded so that four pickers of 54 cards do not fill a phone.
    """
    cards = [_slot_card(_blank_to_none(query.get(slot.name))) for slot in TRICK_SLOTS]
    first_missing = next((i for i in range(FEWEST_CARDS) if cards[i] is None), None)
    with_problem = {p.field for p in errors}
    return [
        (slot, cards[i], i < FEWEST_CARDS, i == first_missing or slot.name in with_problem)
        for i, slot in enumerate(TRICK_SLOTS)
    ]


def trick_page(request: HttpRequest) -> HttpResponse:
    query = request.GET
    order = trump_ranks(_blank_to_none(query.get("trump")))
    # A link may name the trump as a letter, a symbol or a word; the form shows its letter.
    suit = order[0].card.suit if order else None
    context: dict[str, Any] = {
        "tools": _tools("referee-pitch-trick"),
        "suits": SUITS_SHOWN,
        "trump": suit,
        "trump_name": SUIT_NAMES.get(suit or "", ""),
        "order": order,
        # The letter on a small card face as the reader's language writes it (B for Bube).
        "rank_letters": RANK_LETTERS,
    }
    if request.htmx and request.htmx.target == "trump-order":
        # Choosing a trump shows its order at once, before any card is picked.
        return render(request, TRICK_TEMPLATE + "#order", context)
    errors: list[Problem] = []
    if query:
        try:
            result, cards = judge_trick(query)
        except RuleError as error:
            errors = list(error.problems)
        else:
            context["result"] = result
            context["played"] = [
                (TRICK_SLOTS[i].ordinal, c, i == result.winner) for i, c in enumerate(cards)
            ]
            context["winner"] = cards[result.winner]
            context["winner_heading"] = TRICK_SLOTS[result.winner].wins % {
                "card": cards[result.winner].label
            }
    context["slots"] = _slots(query, errors)
    return _answer(request, TRICK_TEMPLATE, context, errors)


# -- The hand scorer --------------------------------------------------------------------


def _option_fields() -> list[OptionField]:
    by_name = {option.name: option for option in GAMES["pitch"].option_fields}
    return [by_name[name] for name in HAND_OPTIONS]


def read_hand(query: QueryDict) -> dict[str, Any]:
    """The form as :func:`games.rules.pitch.score_hand`'s keyword arguments, unjudged."""
    bid_text = _blank_to_none(query.get("bid"))
    bid: int | str | None = None
    if bid_text is not None:
        bid = pitch.MOON if bid_text.lower() == pitch.MOON else _whole_number(bid_text)
    team = _blank_to_none(query.get("pitcher_team"))
    points = {
        key: value.lower() if value.lower() == pitch.OUT else value.upper()
        for key in pitch.POINT_CARDS
        if (value := _blank_to_none(query.get(f"point_{key}"))) is not None
    }
    before = {team_: _blank_to_none(query.get(f"before_{team_}")) for team_ in pitch.TEAMS}
    scores_before: dict[str, int | str] | None = None
    if any(value is not None for value in before.values()):
        # One score typed and the other left blank: the blank one is 0, as on a new sheet.
        scores_before = {t: 0 if v is None else _whole_number(v) for t, v in before.items()}
    options: dict[str, int | str] = {}
    for name in HAND_OPTIONS:
        value = _blank_to_none(query.get(name))
        if value is not None:
            options[name] = _whole_number(value) if name == "target" else value
    return {
        "bid": bid,
        "pitcher_team": team.upper() if team else None,
        "points": points,
        "scores_before": scores_before,
        "options": options,
    }


def _options_shown(query: QueryDict) -> dict[str, str]:
    """Each option as the form shows it: what was entered, or the sheet's default."""
    defaults = pitch.PitchOptions().as_dict()
    return {name: query.get(name, str(defaults[name])) for name in HAND_OPTIONS}


def _options_changed(query: QueryDict) -> bool:
    """Did the form leave the usual rules? Then the house rules are shown unfolded."""
    defaults = pitch.PitchOptions().as_dict()
    return any(query.get(name, str(defaults[name])) != str(defaults[name]) for name in HAND_OPTIONS)


def _headline(hand: Mapping[str, Any], result: pitch.HandResult) -> str:
    team = hand["pitcher_team"]
    if hand["bid"] == pitch.MOON:
        if result.made:
            return _("Team %(team)s shot the moon") % {"team": team}
        return _("Team %(team)s's moon failed") % {"team": team}
    bid = number(hand["bid"]) if isinstance(hand["bid"], int) else hand["bid"]
    if result.made:
        return _("Team %(team)s made its bid of %(bid)s") % {"team": team, "bid": bid}
    return _("Team %(team)s is set: its bid of %(bid)s comes off") % {"team": team, "bid": bid}


def _team_rows(
    hand: Mapping[str, Any], result: pitch.HandResult
) -> Iterable[tuple[str, bool, int, int, int, int]]:
    """Per team: name, pitched?, took, score before, change, score after."""
    for team in pitch.TEAMS:
        before = result.scores_after[team] - result.delta[team]
        yield (
            team,
            team == hand["pitcher_team"],
            result.taken[team],
            before,
            result.delta[team],
            result.scores_after[team],
        )


def hand_page(request: HttpRequest) -> HttpResponse:
    query = request.GET
    context: dict[str, Any] = {
        "tools": _tools("referee-pitch-hand"),
        "bids": BIDS,
        "teams": pitch.TEAMS,
        "option_fields": _option_fields(),
        "options_shown": _options_shown(query),
        "values": query,
    }
    errors: list[Problem] = []
    if query:
        hand = read_hand(query)
        try:
            result = pitch.score_hand(**hand)
        except RuleError as error:
            errors = list(error.problems)
        else:
            context["result"] = result
            context["headline"] = _headline(hand, result)
            context["team_rows"] = list(_team_rows(hand, result))
    context["options_open"] = _options_changed(query) or any(
        (p.field or "").startswith("options.") for p in errors
    )
    return _answer(request, HAND_TEMPLATE, context, errors)


urlpatterns = [
    path("referee/pitch/trick/", trick_page, name="referee-pitch-trick"),
    path("referee/pitch/hand/", hand_page, name="referee-pitch-hand"),
]
