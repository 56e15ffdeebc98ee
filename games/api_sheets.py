"""The score-sheet part of the JSON API: /api/v1/sheets…

Writes need ``Authorization: Bearer <edit_token>``; reads take either token. A write
with an ``Idempotency-Key`` header is answered once: the same key again (from the
same link, within services.KEY_DAYS, 30 days) gets the first answer back and changes
nothing, so a retried POST or DELETE never enters or removes a second deal. A write with ``If-Match`` (the
sheet's ETag or version) is refused with 412 and the sheet as it is now when the
sheet changed since that version.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from games import services
from games.api import steps_json
from games.api_input import UnreadableInput, parse_json_object
from games.games import GAMES
from games.models import Hand, Sheet
from games.rules.errors import Problem, RuleError
from games.rules.sheet import DealResult, SheetState
from games.selectors import live_hands, seat_names, sheet_state, sheets_with_links
from scorekeeper.i18n import JsonResponse
from scorekeeper.security import client_ip

Answer = tuple[int, dict[str, Any]]


def _errors(problems, status: int) -> Answer:
    return status, {"errors": [{"field": p.field, "message": p.message} for p in problems]}


def _json(answer: Answer) -> JsonResponse:
    status, body = answer
    return JsonResponse(body, status=status)


def _refused(message: str, status: int) -> JsonResponse:
    return _json(_errors([Problem(None, message)], status))


def bearer_token(request: HttpRequest) -> str | None:
    """The token of ``Authorization: Bearer <token>``, or None (the seasons' API reads it
    the same way)."""
    header = request.headers.get("Authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _sheet_for(request: HttpRequest, sheet_id: int, *, write: bool) -> Sheet | JsonResponse:
    """The sheet if the token allows the request; otherwise the refusal to send."""
    token = bearer_token(request)
    sheet = sheets_with_links().filter(pk=sheet_id).first()
    if sheet is None or token is None or token not in (sheet.edit_token, sheet.view_token):
        # One answer for a missing sheet and a wrong token: ids cannot be probed.
        return _refused(
            _("No sheet here for this token. Send Authorization: Bearer <edit or view token>."),
            404,
        )
    if write and token != sheet.edit_token:
        return _refused(
            _("This is the read-only link of the sheet; changes need the edit token."), 403
        )
    if sheet.deleted_at is not None:
        return _refused(
            _("This sheet is in the trash. Whoever may edit it can restore it from its page."),
            410,
        )
    return sheet


def _body(request: HttpRequest) -> dict[str, Any] | JsonResponse:
    try:
        return parse_json_object(request.body)
    except UnreadableInput as error:
        return _json(_errors(error.problems, 400))


def deal_json(hand: Hand, deal: DealResult) -> dict[str, Any]:
    return {
        "id": hand.pk,
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
        "played_on": sheet.played_on.isoformat(),
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
            # Every seat sitting the deal out (at five the dealer and the third to his left).
            "sitting_out_seats": list(state.next_deal.sitting_out_seats),
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
    state, deal = outcome.state, outcome.deal
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
        response = _refused(_("Create a sheet with POST; read one at /api/v1/sheets/<id>."), 405)
        response["Allow"] = "POST"
        return response
    data = _body(request)
    if isinstance(data, JsonResponse):
        return data

    def create() -> Answer:
        known = {"game", "players", "first_dealer", "options", "played_on"}
        unknown = sorted(set(data) - known)
        if unknown:
            return _errors(
                [
                    Problem(k, _('"%(name)s" is not a field of a new sheet.') % {"name": k})
                    for k in unknown
                ],
                400,
            )
        try:
            sheet = services.sheet_create(
                game=data.get("game"),
                players=data.get("players"),
                first_dealer=data.get("first_dealer", 0),
                options=data.get("options"),
                played_on=data.get("played_on"),
                by=_actor(request),
            )
        except RuleError as error:
            return _errors(error.problems, 422)
        return 201, sheet_json(request, sheet, sheet_state(sheet, []), [], tokens=True)

    key = request.headers.get("Idempotency-Key")
    print_ = services.fingerprint("POST", request.path, data)
    # Without an account the key is kept for the caller's address: nobody elsewhere who
    # learns it gets this sheet's edit token back.
    scope = services.key_scope(user=request.user, client=client_ip(request))
    return _json(services.idempotent(scope=scope, key=key, print_=print_, action=create))


@csrf_exempt
def sheet_detail(request: HttpRequest, sheet_id: int) -> JsonResponse:
    if request.method != "GET":
        response = _refused(_("Read a sheet with GET; its deals are under /hands."), 405)
        response["Allow"] = "GET"
        return response
    sheet = _sheet_for(request, sheet_id, write=False)
    if isinstance(sheet, JsonResponse):
        return sheet
    hands = live_hands(sheet)
    state = sheet_state(sheet, hands)
    body = sheet_json(request, sheet, state, hands, tokens=False)
    response = JsonResponse(body)
    response["ETag"] = etag(sheet)
    return response


def etag(sheet: Sheet) -> str:
    return f'"{sheet.pk}-{sheet.version}"'


def _actor(request: HttpRequest) -> services.Actor:
    return services.Actor(user=request.user, via="api")


class _BadIfMatch(Exception):
    pass


# RFC 9110 8.8.3: entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E /
# obs-text; If-Match takes "*" or a comma-separated list of them (13.1.1).
_ENTITY_TAG = re.compile(r'(W/)?"([\x21\x23-\x7e\x80-\xff]*)"')
_LIST_SEPARATOR = re.compile(r"[ \t]*,[ \t]*")


def _entity_tags(header: str) -> list[tuple[bool, str]]:
    """The (weak, opaque value) pairs of an If-Match list; _BadIfMatch when the header
    is not a list of entity-tags (empty list members are allowed, as RFC 9110 5.6.1 says)."""
    tags: list[tuple[bool, str]] = []
    position = 0
    while position < len(header):
        separator = _LIST_SEPARATOR.match(header, position)
        if separator and separator.end() > position:
            position = separator.end()
            continue
        found = _ENTITY_TAG.match(header, position)
        if found is None:
            raise _BadIfMatch
        tags.append((found.group(1) is not None, found.group(2)))
        position = found.end()
        if position < len(header) and not _LIST_SEPARATOR.match(header, position):
            raise _BadIfMatch
    return tags


def expected_version(request: HttpRequest, sheet: Sheet) -> int | None:
    """The version an ``If-Match`` header asks for: None without the header or for "*"
    (the sheet exists); the sheet's version when one of the listed entity-tags is the
    ETag this API sends ("12-5"), compared strongly (RFC 9110 13.1.1), or when the header
    is the bare version number ("5", this API's own shorthand); else -1, which no
    version is, so the write is refused with 412. ``_BadIfMatch`` for a header that is
    not a list of entity-tags (400)."""
    header = request.headers.get("If-Match", "").strip(" \t")
    if not header or header == "*":
        return None
    if header.isascii() and header.isdigit():
        return int(header) if len(header) < 10 else -1
    for weak, value in _entity_tags(header):
        sheet_part, dash, version = value.rpartition("-")
        if (
            not weak
            and dash
            and sheet_part == str(sheet.pk)
            and version.isascii()
            and version.isdigit()
            and len(version) < 10
            and int(version) == sheet.version
        ):
            return sheet.version
    # No tag names this sheet's version: the condition is false whatever the lock finds.
    return -1


def _stale(request: HttpRequest, sheet: Sheet, error: RuleError) -> Answer:
    """412: the writer saw an older sheet; the answer carries the sheet as it is now."""
    sheet.refresh_from_db()
    hands = live_hands(sheet)
    body = _errors(error.problems, 412)[1]
    body["sheet"] = sheet_json(request, sheet, sheet_state(sheet, hands), hands, tokens=False)
    return 412, body


def _write(
    request: HttpRequest, sheet: Sheet, body: object, action: Any, replay: Any = None
) -> JsonResponse:
    """Run a write with the request's If-Match and Idempotency-Key; ``replay`` answers a
    retry whose first answer was too large for its key to keep (``services.idempotent``)."""
    try:
        version = expected_version(request, sheet)
    except _BadIfMatch:
        return _refused(
            _(
                "If-Match takes the sheet's ETag in double quotes as the last answer gave it "
                '(as in "12-5"), a list of such tags separated by commas, * or the version '
                "number."
            ),
            400,
        )

    # The version each run of the action wrote, with its answer. ``services.idempotent``
    # runs a whole attempt again when the database aborted it (a deadlock at the key's
    # insert or at commit): that attempt's version was rolled back. The ETag names the
    # version of the run whose answer goes out, or the sheet now for a replayed answer.
    written: list[tuple[int, dict[str, Any]]] = []

    def run() -> Answer:
        try:
            status, answer, now = action(version)
        except services.StaleSheet as error:
            return _stale(request, sheet, error)
        except UnreadableInput as error:
            return _errors(error.problems, 400)
        except RuleError as error:
            field = error.problems[0].field
            return _errors(error.problems, 404 if field in ("number", "hand") else 422)
        written.append((now, answer))
        return status, answer

    key = request.headers.get("Idempotency-Key")
    print_ = services.fingerprint(request.method, request.path, body)
    scope = services.key_scope(sheet=sheet, link=bearer_token(request))
    status, answer = services.idempotent(
        scope=scope, key=key, print_=print_, action=run, replay=replay
    )
    response = JsonResponse(answer, status=status)
    if status < 300:
        ours = [now for now, sent in written if sent is answer]
        if ours:
            sheet.version = ours[-1]
        else:
            # A replayed answer (also after an attempt of ours that was rolled back): the
            # ETag is the sheet's version now.
            sheet.refresh_from_db(fields=["version"])
        response["ETag"] = etag(sheet)
    return response


@csrf_exempt
def sheet_hands(request: HttpRequest, sheet_id: int) -> JsonResponse:
    if request.method != "POST":
        response = _refused(_("Add a deal with POST."), 405)
        response["Allow"] = "POST"
        return response
    sheet = _sheet_for(request, sheet_id, write=True)
    if isinstance(sheet, JsonResponse):
        return sheet
    data = _body(request)
    if isinstance(data, JsonResponse):
        return data

    def record(version: int | None) -> Answer:
        outcome = services.hand_record(
            sheet=sheet, data=data, expected_version=version, by=_actor(request)
        )
        return (*_hand_answer(request, sheet, outcome, 201), outcome.version)

    return _write(request, sheet, data, record)


@csrf_exempt
def sheet_hand(request: HttpRequest, sheet_id: int, number: int) -> JsonResponse:
    if request.method not in ("PUT", "DELETE"):
        response = _refused(_("Correct a deal with PUT or remove it with DELETE."), 405)
        response["Allow"] = "PUT, DELETE"
        return response
    sheet = _sheet_for(request, sheet_id, write=True)
    if isinstance(sheet, JsonResponse):
        return sheet
    # ?id=<the deal's id> names the deal by its identity: after another change moved
    # it, or on a retry, it is still that deal (or a 404), never the next one.
    raw_id = request.GET.get("id", "").strip()
    if raw_id and not (raw_id.isascii() and raw_id.isdigit() and len(raw_id) < 19):
        return _refused(_("id is the deal's id, a whole number from the sheet's hands."), 400)
    hand_id = int(raw_id) if raw_id else None
    if request.method == "DELETE":

        def remove(version: int | None) -> Answer:
            outcome = services.hand_remove(
                sheet=sheet,
                number=number,
                hand_id=hand_id,
                expected_version=version,
                by=_actor(request),
            )
            sheet.version = outcome.version
            body = sheet_json(request, sheet, outcome.state, outcome.hands, tokens=False)
            return 200, body, outcome.version

        def sheet_now() -> dict:
            # A retry of a DELETE whose answer (the whole sheet) its key kept compact.
            sheet.refresh_from_db()
            hands = live_hands(sheet)
            return sheet_json(request, sheet, sheet_state(sheet, hands), hands, tokens=False)

        return _write(request, sheet, None, remove, replay=sheet_now)
    data = _body(request)
    if isinstance(data, JsonResponse):
        return data

    def correct(version: int | None) -> Answer:
        outcome = services.hand_correct(
            sheet=sheet,
            number=number,
            hand_id=hand_id,
            data=data,
            expected_version=version,
            by=_actor(request),
        )
        return (*_hand_answer(request, sheet, outcome, 200), outcome.version)

    return _write(request, sheet, data, correct)
