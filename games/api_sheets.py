"""The score-sheet part of the JSON API: /api/v1/sheets…

Writes need ``Authorization: Bearer <edit_token>``; reads take either token. A
POST with an ``Idempotency-Key`` header is answered once: the same key again gets
the first answer back and stores nothing new.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from games import services
from games.api import steps_json
from games.api_input import UnreadableInput, parse_json_object
from games.games import GAMES
from games.models import Hand, Sheet
from games.rules.errors import Problem, RuleError
from games.rules.sheet import DealResult, SheetState
from games.selectors import live_hands, seat_names, sheet_state, sheets_with_links

Answer = tuple[int, dict[str, Any]]


def _errors(problems, status: int) -> Answer:
    return status, {"errors": [{"field": p.field, "message": p.message} for p in problems]}


def _json(answer: Answer) -> JsonResponse:
    status, body = answer
    return JsonResponse(body, status=status)


def _refused(message: str, status: int) -> JsonResponse:
    return _json(_errors([Problem(None, message)], status))


def _token(request: HttpRequest) -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _sheet_for(request: HttpRequest, sheet_id: int, *, write: bool) -> Sheet | JsonResponse:
    """The sheet if the token allows the request; otherwise the refusal to send."""
    token = _token(request)
    sheet = sheets_with_links().filter(pk=sheet_id).first()
    if sheet is None or token is None or token not in (sheet.edit_token, sheet.view_token):
        # One answer for a missing sheet and a wrong token: ids cannot be probed.
        return _refused(
            "No sheet here for this token. Send Authorization: Bearer <edit or view token>.", 404
        )
    if write and token != sheet.edit_token:
        return _refused(
            "This is the read-only link of the sheet; changes need the edit token.", 403
        )
    return sheet


def _body(request: HttpRequest) -> dict[str, Any] | JsonResponse:
    try:
        return parse_json_object(request.body)
    except UnreadableInput as error:
        return _json(_errors(error.problems, 400))


def deal_json(hand: Hand, deal: DealResult) -> dict[str, Any]:
    return {
        "number": deal.number,
        "entry": hand.entry,
        "dealer": deal.dealer,
        "score": list(deal.scores),
        "totals": list(deal.totals),
        "summary": deal.summary,
        **steps_json(deal.explanation),
    }


def sheet_json(
    request: HttpRequest, sheet: Sheet, state: SheetState, hands: list[Hand], *, tokens: bool
) -> dict:
    entry = GAMES[sheet.game]
    body: dict[str, Any] = {
        "id": sheet.pk,
        "game": sheet.game,
        "players": list(seat_names(sheet)),
        "first_dealer": sheet.first_dealer,
        "options": sheet.options,
        "options_summary": list(
            entry.options_summary(entry.sheet_options(sheet), players=len(seat_names(sheet)))
        ),
        "hands": [deal_json(h, d) for h, d in zip(hands, state.deals, strict=True)],
        "totals": list(state.totals),
        "finished": state.finished,
        "winners": list(state.winners),
        "winner_names": [state.players[seat] for seat in state.winners],
        "headline": state.headline,
        "next_deal": None
        if state.next_deal is None
        else {
            "number": state.next_deal.number,
            "dealer": state.next_deal.dealer,
            "forehand": state.next_deal.forehand,
            "sitting_out": state.next_deal.sitting_out,
            "notes": list(state.next_deal.notes),
        },
        "version": sheet.version,
    }
    if "teams" in state.details:
        body["team_totals"] = dict(state.details["teams"])
    view_url = request.build_absolute_uri(sheet.get_view_url())
    body["urls"] = {"view": view_url}
    if tokens:
        body["edit_token"] = sheet.edit_token
        body["view_token"] = sheet.view_token
        body["urls"]["edit"] = request.build_absolute_uri(sheet.get_absolute_url())
    return body


def _hand_answer(
    request: HttpRequest, sheet: Sheet, outcome: services.HandOutcome, status: int
) -> Answer:
    state = outcome.state
    deal = state.deals[outcome.hand.number - 1]
    body = {
        "hand": deal_json(outcome.hand, deal),
        "totals": list(state.totals),
        "finished": state.finished,
        "winners": list(state.winners),
        "headline": state.headline,
    }
    if "teams" in state.details:
        body["team_totals"] = dict(state.details["teams"])
    return status, body


@csrf_exempt  # token-authenticated, no cookies: a cross-site form cannot send the header
def sheets(request: HttpRequest) -> JsonResponse:
    if request.method != "POST":
        response = _refused("Create a sheet with POST; read one at /api/v1/sheets/<id>.", 405)
        response["Allow"] = "POST"
        return response
    data = _body(request)
    if isinstance(data, JsonResponse):
        return data

    def create() -> Answer:
        unknown = sorted(set(data) - {"game", "players", "first_dealer", "options"})
        if unknown:
            return _errors(
                [Problem(k, f'"{k}" is not a field of a new sheet.') for k in unknown], 400
            )
        try:
            sheet = services.sheet_create(
                game=data.get("game"),
                players=data.get("players"),
                first_dealer=data.get("first_dealer", 0),
                options=data.get("options"),
            )
        except RuleError as error:
            return _errors(error.problems, 422)
        return 201, sheet_json(request, sheet, sheet_state(sheet, []), [], tokens=True)

    key = request.headers.get("Idempotency-Key")
    print_ = services.fingerprint("POST", request.path, data)
    return _json(services.idempotent(scope="sheets", key=key, print_=print_, action=create))


@csrf_exempt
def sheet_detail(request: HttpRequest, sheet_id: int) -> JsonResponse:
    if request.method != "GET":
        response = _refused("Read a sheet with GET; its deals are under /hands.", 405)
        response["Allow"] = "GET"
        return response
    sheet = _sheet_for(request, sheet_id, write=False)
    if isinstance(sheet, JsonResponse):
        return sheet
    hands = live_hands(sheet)
    state = sheet_state(sheet, hands)
    body = sheet_json(request, sheet, state, hands, tokens=False)
    response = JsonResponse(body)
    response["ETag"] = f'"{sheet.pk}-{sheet.version}"'
    return response


@csrf_exempt
def sheet_hands(request: HttpRequest, sheet_id: int) -> JsonResponse:
    if request.method != "POST":
        response = _refused("Add a deal with POST.", 405)
        response["Allow"] = "POST"
        return response
    sheet = _sheet_for(request, sheet_id, write=True)
    if isinstance(sheet, JsonResponse):
        return sheet
    data = _body(request)
    if isinstance(data, JsonResponse):
        return data

    def record() -> Answer:
        try:
            outcome = services.hand_record(sheet=sheet, data=data)
        except UnreadableInput as error:
            return _errors(error.problems, 400)
        except RuleError as error:
            return _errors(error.problems, 422)
        return _hand_answer(request, sheet, outcome, 201)

    key = request.headers.get("Idempotency-Key")
    print_ = services.fingerprint("POST", request.path, data)
    return _json(
        services.idempotent(scope=f"sheet:{sheet.pk}", key=key, print_=print_, action=record)
    )


@csrf_exempt
def sheet_hand(request: HttpRequest, sheet_id: int, number: int) -> JsonResponse:
    if request.method not in ("PUT", "DELETE"):
        response = _refused("Correct a deal with PUT or remove it with DELETE.", 405)
        response["Allow"] = "PUT, DELETE"
        return response
    sheet = _sheet_for(request, sheet_id, write=True)
    if isinstance(sheet, JsonResponse):
        return sheet
    if request.method == "DELETE":
        try:
            state = services.hand_remove(sheet=sheet, number=number)
        except RuleError as error:
            return _json(
                _errors(error.problems, 404 if error.problems[0].field == "number" else 422)
            )
        sheet.refresh_from_db()
        hands = live_hands(sheet)
        return JsonResponse(sheet_json(request, sheet, state, hands, tokens=False))
    data = _body(request)
    if isinstance(data, JsonResponse):
        return data
    try:
        outcome = services.hand_correct(sheet=sheet, number=number, data=data)
    except UnreadableInput as error:
        return _json(_errors(error.problems, 400))
    except RuleError as error:
        return _json(_errors(error.problems, 404 if error.problems[0].field == "number" else 422))
    return _json(_hand_answer(request, sheet, outcome, 200))
