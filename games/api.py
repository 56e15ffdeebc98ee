"""The JSON API (v1): thin adapters from JSON bodies to the referee in ``games.rules``.

Each endpoint reads the body's shape with :class:`games.api_input.Body` (the Skat
endpoints through their declarations in ``games.api_requests``, which the OpenAPI
description is built from too), calls the referee, and turns its frozen result into
JSON. The schema and the API page are served by ``games.api_docs``. Unreadable input answers 400,
input that breaks a rule 422, both as ``{"errors": [{"field", "message"}]}``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import wraps
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games import offload
from games.api_input import (
    Body,
    UnreadableInput,
    answer,
    describe,
    errors_json,
    parse_json_object,
)
from games.api_requests import SkatFollow, SkatScore, SkatTrick
from games.rules import manipulation, pitch, skat
from games.rules.cards import MANIPULATION_DECK, PITCH_DECK, Card
from games.rules.errors import Problem, RuleError, Step
from scorekeeper.i18n import JsonResponse

Handler = Callable[[Body], dict[str, Any]]


def referee_endpoint(handler: Handler) -> Callable[[HttpRequest], JsonResponse]:
    """POST-only JSON endpoint: read the body, run the handler, answer problems as 4xx."""

    @csrf_exempt  # stateless and cookie-free: nothing for a cross-site request to abuse
    @wraps(handler)
    def view(request: HttpRequest) -> JsonResponse:
        if request.method != "POST":
            message = _("Use POST with a JSON body for %(path)s.") % {"path": request.path}
            response = JsonResponse(errors_json([Problem(None, message)]), status=405)
            response["Allow"] = "POST"
            return response
        try:
            data = parse_json_object(request.body)
        except UnreadableInput as error:
            return JsonResponse(errors_json(error.problems), status=400)
        status, payload = answer(handler, data)
        return JsonResponse(payload, status=status)

    view.handler = handler  # type: ignore[attr-defined]
    return view


def steps_json(steps: Iterable[Step]) -> dict[str, Any]:
    """The explanation as the contract's list of sentences, plus the rule each one rests on."""
    steps = tuple(steps)
    return {
        "explanation": [step.text for step in steps],
        "steps": [{"text": step.text, "rule": step.rule} for step in steps],
    }


def codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


# -- Skat ---------------------------------------------------------------------------


@referee_endpoint
def skat_score(body: Body) -> dict[str, Any]:
    request = SkatScore.read(body)
    result = skat.score_game(**request.values())
    return {
        "won": result.won,
        "overbid": result.overbid,
        "base_value": result.base_value,
        "multiplier": result.multiplier,
        "matadors": result.matadors.as_dict() if result.matadors else None,
        "game_value": result.game_value,
        "score": result.score,
        "contract": result.contract,
        # The levels' names are values of the API (English in every language).
        "levels": [{"level": str.__str__(name), "count": count} for name, count in result.levels],
        "declarer_points": result.declarer_points,
        "declarer_tricks": result.declarer_tricks,
        "schneider": result.schneider,
        "schwarz": result.schwarz,
        **steps_json(result.explanation),
    }


@referee_endpoint
def skat_trick(body: Body) -> dict[str, Any]:
    request = SkatTrick.read(body)
    result = skat.trick_winner(**request.values())
    return {"winner": result.winner, **steps_json(result.explanation)}


@referee_endpoint
def skat_follow(body: Body) -> dict[str, Any]:
    request = SkatFollow.read(body)
    result = skat.follow_check(**request.values())
    return {"legal": result.legal, **steps_json(result.explanation)}


# -- Pitch --------------------------------------------------------------------------


def _pitch_bid(body: Body) -> int | str | None:
    if body.data.get("bid") == "moon" or (
        isinstance(body.data.get("bid"), str) and body.data["bid"].strip().lower() == "moon"
    ):
        body.raw("bid")
        return "moon"
    if isinstance(body.data.get("bid"), str):
        body.raw("bid")
        body.add("bid", _('The bid must be a number from 4 to 9, or "moon".'))
        return None
    return body.integer("bid")


def _pitch_team(body: Body) -> str | None:
    value = body.raw("pitcher_team")
    if isinstance(value, str) and value.strip().upper() in pitch.TEAMS:
        return value.strip().upper()
    if value is None:
        body.add(
            "pitcher_team",
            _('Pitcher team is missing; say "A" (seats 1 and 3) or "B" (seats 2 and 4).'),
        )
    else:
        body.add(
            "pitcher_team",
            _('Pitcher team must be "A" (seats 1 and 3) or "B" (seats 2 and 4).'),
        )
    return None


def _pitch_points(body: Body) -> dict[str, str] | None:
    """Who took each point card; the referee checks the keys, this only reads the words."""
    points = body.object("points", required=True)
    if points is None:
        return None
    read: dict[str, str] = {}
    for key, value in points.entries():
        if not isinstance(value, str):
            points.add(
                key,
                _('Say who took it: "A", "B" or "out", not %(value)s.')
                % {"value": describe(value)},
            )
            continue
        word = value.strip()
        read[key] = word.lower() if word.lower() == pitch.OUT else word.upper()
    return read


@referee_endpoint
def pitch_hand(body: Body) -> dict[str, Any]:
    bid = _pitch_bid(body)
    pitcher_team = _pitch_team(body)
    points = _pitch_points(body)
    scores_before = body.integers_by_key("scores_before")
    options_raw = body.raw("options")
    body.finish()
    options = pitch.PitchOptions.from_mapping(options_raw)
    result = pitch.score_hand(
        bid=bid,
        pitcher_team=pitcher_team,
        points=points,
        scores_before=scores_before,
        options=options,
    )
    return {
        "made": result.made,
        "taken": dict(result.taken),
        "delta": dict(result.delta),
        "scores_after": dict(result.scores_after),
        "game_over": result.game_over,
        "winner": result.winner,
        "options": options.as_dict(),
        **steps_json(result.explanation),
    }


@referee_endpoint
def pitch_trick(body: Body) -> dict[str, Any]:
    trump = body.raw("trump")
    if trump is None:
        body.add("trump", _('Trump is missing; give the suit as "C", "S", "H" or "D".'))
    elif isinstance(trump, str):
        trump = _suit_letter(trump)
    else:
        body.add(
            "trump",
            _('Trump must be a suit letter ("C", "S", "H" or "D"), not %(value)s.')
            % {"value": describe(trump)},
        )
    cards = body.cards("cards", PITCH_DECK)
    body.finish()
    result = pitch.trick_winner(trump=trump, cards=cards)
    return {"winner": result.winner, **steps_json(result.explanation)}


_SUIT_WORDS = {
    "♣": "C",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "clubs": "C",
    "spades": "S",
    "hearts": "H",
    "diamonds": "D",
}


def _suit_letter(text: str) -> str:
    word = text.strip()
    return _SUIT_WORDS.get(word.lower(), word.upper())


# -- Manipulation -------------------------------------------------------------------


def _card_lists(body: Body, name: str, *, required: bool = True) -> list[list[Card]] | None:
    """A list of melds, each a list of cards; copies are judged later, not here."""
    melds = body.list(name, required=required)
    if melds is None:
        return None
    parsed: list[list[Card]] = []
    for i, meld in enumerate(melds):
        try:
            parsed.append(
                MANIPULATION_DECK.parse(meld, f"{name}.{i}", copies=len(MANIPULATION_DECK))
            )
        except RuleError as error:
            body.problems.extend(error.problems)
    return parsed


@referee_endpoint
def manipulation_melds(body: Body) -> dict[str, Any]:
    melds = _card_lists(body, "melds")
    options_raw = body.raw("options")
    body.finish()
    options = manipulation.ManipulationOptions.from_mapping(options_raw)
    result = manipulation.check_melds(melds=melds, options=options)
    return {
        "valid": result.valid,
        "melds": [{"valid": m.valid, "kind": m.kind, "reason": m.reason} for m in result.melds],
        **steps_json(result.explanation),
    }


@referee_endpoint
def manipulation_turn(body: Body) -> dict[str, Any]:
    table_before = _card_lists(body, "table_before")
    table_after = _card_lists(body, "table_after")
    hand = body.cards("hand", MANIPULATION_DECK, required=False, copies=len(MANIPULATION_DECK))
    options_raw = body.raw("options")
    body.finish()
    options = manipulation.ManipulationOptions.from_mapping(options_raw)
    result = offload.run(
        manipulation.check_turn,
        table_before=table_before,
        table_after=table_after,
        hand=hand,
        options=options,
    )
    return {
        "legal": result.legal,
        "played": codes(result.played),
        "reasons": list(result.reasons),
        **steps_json(result.explanation),
    }


@referee_endpoint
def manipulation_arrange(body: Body) -> dict[str, Any]:
    cards = body.cards("cards", MANIPULATION_DECK)
    options_raw = body.raw("options")
    body.finish()
    options = manipulation.ManipulationOptions.from_mapping(options_raw)
    result = offload.run(manipulation.arrange, cards=cards, options=options)
    return {
        "possible": result.possible,
        "melds": None if result.melds is None else [codes(meld) for meld in result.melds],
        **steps_json(result.explanation),
    }


@referee_endpoint
def manipulation_round(body: Body) -> dict[str, Any]:
    hands_body = body.object("hands", required=True)
    hands: dict[str, list[Card]] = {}
    if hands_body is not None:
        for name in list(hands_body.data):
            cards = hands_body.cards(name, MANIPULATION_DECK)
            if cards is not None:
                hands[name] = cards
    scores_before = body.integers_by_key("scores_before")
    options_raw = body.raw("options")
    body.finish()
    options = manipulation.ManipulationOptions.from_mapping(options_raw)
    result = manipulation.score_round(hands=hands, scores_before=scores_before, options=options)
    return {
        "penalties": dict(result.penalties),
        "scores_after": dict(result.scores_after),
        "game_over": result.game_over,
        "winners": list(result.winners),
        "went_out": result.went_out,
        **steps_json(result.explanation),
    }
