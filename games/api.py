"""The JSON API (v1): thin adapters from JSON bodies to the referee in ``games.rules``.

Each endpoint reads its body with its declaration in ``games.api_requests`` (the
OpenAPI description is built from the same declarations), calls the referee, and
turns its frozen result into JSON. Unreadable input answers 400, input that breaks a
rule 422, both as ``{"errors": [{"field", "message"}]}``. The schema and the API page
are served by ``games.api_docs``.
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
    errors_json,
    parse_json_object,
)
from games.api_requests import (
    ManipulationArrange,
    ManipulationMelds,
    ManipulationRound,
    ManipulationTurn,
    PitchHand,
    PitchTrick,
    SkatFollow,
    SkatScore,
    SkatTrick,
)
from games.rules import manipulation, pitch, skat
from games.rules.cards import Card
from games.rules.errors import Problem, Step
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


@referee_endpoint
def pitch_hand(body: Body) -> dict[str, Any]:
    request = PitchHand.read(body)
    options = pitch.PitchOptions.from_mapping(request.options)
    result = pitch.score_hand(
        bid=request.bid,
        pitcher_team=request.pitcher_team,
        points=request.points,
        scores_before=request.scores_before,
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
    request = PitchTrick.read(body)
    result = pitch.trick_winner(**request.values())
    return {"winner": result.winner, **steps_json(result.explanation)}


# -- Manipulation -------------------------------------------------------------------


@referee_endpoint
def manipulation_melds(body: Body) -> dict[str, Any]:
    request = ManipulationMelds.read(body)
    options = manipulation.ManipulationOptions.from_mapping(request.options)
    result = manipulation.check_melds(melds=request.melds, options=options)
    return {
        "valid": result.valid,
        "melds": [{"valid": m.valid, "kind": m.kind, "reason": m.reason} for m in result.melds],
        **steps_json(result.explanation),
    }


@referee_endpoint
def manipulation_turn(body: Body) -> dict[str, Any]:
    request = ManipulationTurn.read(body)
    options = manipulation.ManipulationOptions.from_mapping(request.options)
    result = offload.run(
        manipulation.check_turn,
        table_before=request.table_before,
        table_after=request.table_after,
        hand=request.hand,
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
    request = ManipulationArrange.read(body)
    options = manipulation.ManipulationOptions.from_mapping(request.options)
    result = offload.run(manipulation.arrange, cards=request.cards, options=options)
    return {
        "possible": result.possible,
        "melds": None if result.melds is None else [codes(meld) for meld in result.melds],
        **steps_json(result.explanation),
    }


@referee_endpoint
def manipulation_round(body: Body) -> dict[str, Any]:
    request = ManipulationRound.read(body)
    options = manipulation.ManipulationOptions.from_mapping(request.options)
    result = manipulation.score_round(
        hands=request.hands, scores_before=request.scores_before, options=options
    )
    return {
        "penalties": dict(result.penalties),
        "scores_after": dict(result.scores_after),
        "game_over": result.game_over,
        "winners": list(result.winners),
        "went_out": result.went_out,
        **steps_json(result.explanation),
    }
