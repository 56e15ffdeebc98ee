"""The club evenings part of the JSON API: /api/v1/evenings… (api.md, "Club evenings").

Every request body is read by a declaration (``games.api_declarations``), and the
OpenAPI description of these paths (:func:`openapi_parts`) is built from the same
declarations, so the two cannot drift apart. Writes need ``Authorization: Bearer
<organiser_token>``; reads take the organiser or the view token. As for the sheets:
an ``Idempotency-Key`` answers a retried write with its first answer and changes
nothing, and ``If-Match`` (the evening's ETag or version) refuses a write with 412
and the evening as it is now when the evening changed since that version.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.http import HttpRequest
from django.middleware.csrf import CsrfViewMiddleware
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt

from circles.models import Circle
from evenings import accounts, permissions, selectors, services
from evenings.locking import StaleEvening
from evenings.models import Evening, EveningPlayer, EveningTable
from evenings.rules import money as money_rules
from evenings.rules import movement as movement_rules
from evenings.rules import pitch_night, seating
from evenings.rules import ranking as ranking_rules
from games import services as sheet_services
from games.api_declarations import (
    Boolean,
    Choice,
    Date,
    Integer,
    ListOf,
    Nested,
    Raw,
    Request,
    Text,
    spec,
)
from games.api_input import Body, UnreadableInput, errors_json, parse_json_object
from games.api_sheets import _BadIfMatch, bearer_token, expected_version
from games.models import IdempotencyKey
from games.rules.errors import Problem, RuleError
from scorekeeper.i18n import JsonResponse
from scorekeeper.security import client_ip

Answer = tuple[int, dict[str, Any]]

MONEY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "currency": {"type": "string", "example": "EUR"},
        "entry_fee": {"type": "string", "example": "6.00"},
        "lost_game_fees": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "from": {"type": "integer", "minimum": 1},
                    "amount": {"type": "string", "example": "0.50"},
                },
            },
        },
        "table_fee": {"type": "string", "example": "0.00"},
        "draw_after_paying": {"type": "boolean"},
        "payout": {
            "type": "object",
            "properties": {
                "lost_fee_share": {"type": "string", "example": "0"},
                "count": {"type": "string", "enum": list(money_rules.COUNTS)},
                "per_table": {"type": "string", "example": "1"},
                "prizes": {"type": "integer", "minimum": 0},
                "curve": {"type": "string", "enum": list(money_rules.CURVES)},
                "amounts": {"type": "array", "items": {"type": "string"}},
                "round_to": {"type": "string", "example": "1.00"},
                "series_prize": {"type": "string", "example": "0.00"},
                "category_prize": {"type": "string", "example": "0.00"},
                "ties": {"type": "string", "enum": list(money_rules.TIES)},
            },
        },
    },
}

# -- The requests, declared once ------------------------------------------------------------


@dataclass(frozen=True)
class NewEvening(Request):
    game: str = field(
        metadata=spec(
            Choice(seating.GAMES, gettext_lazy("The game of the evening.")), required=True
        )
    )
    name: str = field(
        metadata=spec(Text(gettext_lazy("The evening's name."), max_length=80), required=True)
    )
    date: Any = field(metadata=spec(Date(gettext_lazy("The day it is played.")), required=True))
    circle: int | None = field(
        default=None,
        metadata=spec(
            Integer(gettext_lazy("The circle it is kept in (a member logged in), or null.")),
            nullable=True,
        ),
    )
    series: int = field(
        default=3,
        metadata=spec(
            Integer(
                gettext_lazy("How many series the evening has."), minimum=1, maximum=20, default=3
            )
        ),
    )
    series_deals: Any = field(
        default=None,
        metadata=spec(
            Raw(
                {
                    "type": "object",
                    "additionalProperties": {"type": "integer", "minimum": 1},
                    "example": {"3": 36, "4": 48, "5": 60},
                },
                gettext_lazy(
                    "Deals per series by table size; a shortened series is a multiple of "
                    "the table size."
                ),
            )
        ),
    )
    sit_out: bool = field(
        default=False,
        metadata=spec(
            Boolean(
                gettext_lazy(
                    "Pitch: the players over a multiple of four sit out in turn (otherwise "
                    "such a roll is refused)."
                )
            )
        ),
    )
    tables: str = field(
        default="fours_first",
        metadata=spec(
            Choice(
                seating.TABLE_ORDERS,
                gettext_lazy("Which tables are numbered first (Skat)."),
                default="fours_first",
            )
        ),
    )
    movement: str = field(
        default="lot",
        metadata=spec(
            Choice(
                ("lot", *movement_rules.MOVEMENTS),
                gettext_lazy(
                    "Pitch: how the players move between rounds: each round drawn like a "
                    "series (lot), winners up a table with partners split (progressive), "
                    "or a fixed schedule in which everyone partners everyone once "
                    "(rotation, 4 to 16 players)."
                ),
                default="lot",
            )
        ),
    )
    counts: str = field(
        default="points",
        metadata=spec(
            Choice(
                pitch_night.MODES,
                gettext_lazy(
                    "Pitch: a player's total is the sum of their teams' scores (points) "
                    "or of match points (1 per team outscored in the round, ½ per tie)."
                ),
                default="points",
            )
        ),
    )
    round_format: str = field(
        default="target",
        metadata=spec(
            Choice(
                ("target", "hands", "minutes"),
                gettext_lazy(
                    "Pitch: a round ends when a team reaches the target, after round_hands "
                    "hands, or when the organiser calls time (round_minutes is the plan; "
                    "the hand in play is finished)."
                ),
                default="target",
            )
        ),
    )
    options: Any = field(
        default=None,
        metadata=spec(
            Raw(
                {"type": "object", "example": {"target": 31, "made_scores": "bid"}},
                gettext_lazy(
                    "Pitch: the house rules of every table's sheet, as a new sheet's options "
                    "(left out: the usual game to 52)."
                ),
            ),
            nullable=True,
        ),
    )
    round_hands: int | None = field(
        default=None,
        metadata=spec(
            Integer(gettext_lazy("Pitch: the hands of a round of hands."), minimum=1, maximum=60),
            nullable=True,
        ),
    )
    round_minutes: int | None = field(
        default=None,
        metadata=spec(
            Integer(
                gettext_lazy("Pitch: the minutes of a round of minutes."), minimum=5, maximum=300
            ),
            nullable=True,
        ),
    )
    money: Any = field(
        default=None,
        metadata=spec(
            Raw(
                MONEY_SCHEMA,
                gettext_lazy(
                    "The evening's money: amounts as decimal strings (left out: in a circle "
                    "its usual rules, else none)."
                ),
            ),
            nullable=True,
        ),
    )


@dataclass(frozen=True)
class MoneySet(Request):
    money: Any = field(
        default=None,
        metadata=spec(
            Raw(MONEY_SCHEMA, gettext_lazy("The evening's money rules (null: none).")),
            nullable=True,
        ),
    )


@dataclass(frozen=True)
class PaymentAdd(Request):
    player: int = field(
        metadata=spec(Integer(gettext_lazy("The player on the roll who paid.")), required=True)
    )
    amount: Any = field(
        metadata=spec(
            Raw(
                {"type": "string", "example": "6.00"},
                gettext_lazy("The amount paid, as a decimal string."),
            ),
            required=True,
        )
    )


@dataclass(frozen=True)
class PlayerEntry(Request):
    """A player's team and categories, as a whole: what is left out is cleared."""

    team: str | None = field(
        default=None,
        metadata=spec(
            Text(
                gettext_lazy("A team of four or a tandem of two, by name (left out: none)."),
                max_length=services.NAME_LENGTH,
            )
        ),
    )
    tags: list[str] | None = field(
        default=None,
        metadata=spec(
            ListOf(
                Text(max_length=services.TAG_LENGTH),
                gettext_lazy("Categories (women, juniors, seniors …); left out: none."),
                max_items=services.MOST_TAGS,
            )
        ),
    )


@dataclass(frozen=True)
class RollAdd(PlayerEntry):
    """Names typed at the door or the circle's players, each with the team and
    categories given (PlayerEntry's fields)."""

    names: list[str] | None = field(
        default=None,
        metadata=spec(
            ListOf(
                Text(max_length=services.NAME_LENGTH),
                gettext_lazy("Names typed at the door."),
                max_items=200,
            )
        ),
    )
    players: list[int] | None = field(
        default=None,
        metadata=spec(ListOf(Integer(), gettext_lazy("The circle's player ids."), max_items=200)),
    )


@dataclass(frozen=True)
class Draw(Request):
    draw: str = field(
        default="lot",
        metadata=spec(
            Choice(
                seating.METHODS,
                gettext_lazy("By lot, or seeded by the evening's ranking so far."),
                default="lot",
            )
        ),
    )
    seed: int | None = field(
        default=None,
        metadata=spec(
            Integer(
                gettext_lazy("The lot's seed (a fresh one when left out)."),
                minimum=0,
                maximum=seating.SEED_LIMIT - 1,
            )
        ),
    )
    keep_apart: bool = field(
        default=False,
        metadata=spec(Boolean(gettext_lazy("Keep apart who sat together in the last series."))),
    )


@dataclass(frozen=True)
class FootLine(Request):
    player: int = field(metadata=spec(Integer(gettext_lazy("The player's id.")), required=True))
    points: int = field(
        metadata=spec(Integer(gettext_lazy("The list's running total.")), required=True)
    )
    won: int = field(
        metadata=spec(Integer(gettext_lazy("Games won as declarer."), minimum=0), required=True)
    )
    lost: int = field(
        metadata=spec(Integer(gettext_lazy("Games lost as declarer."), minimum=0), required=True)
    )


@dataclass(frozen=True)
class ListedRow(Request):
    declarer: int = field(
        metadata=spec(Integer(gettext_lazy("The declarer's player id.")), required=True)
    )
    value: int = field(
        metadata=spec(
            Integer(gettext_lazy("The value as written: 48 won, −96 lost."), rule_range=True),
            required=True,
        )
    )


@dataclass(frozen=True)
class PaperResult(Request):
    players: list[FootLine] | None = field(
        default=None,
        metadata=spec(ListOf(Nested(FootLine), gettext_lazy("The list's foot, per player."))),
    )
    rows: list[ListedRow] | None = field(
        default=None,
        metadata=spec(
            ListOf(
                Nested(ListedRow),
                gettext_lazy("The list's rows; checked against the foot when both are given."),
            )
        ),
    )
    scores: list[int] | None = field(
        default=None,
        metadata=spec(
            ListOf(
                Integer(gettext_lazy("A team's score.")),
                gettext_lazy(
                    "Pitch: the round's tally card, the two teams' scores (seats 1 and 3 first)."
                ),
                min_items=2,
                max_items=2,
            )
        ),
    )
    winner: int | None = field(
        default=None,
        metadata=spec(
            Integer(
                gettext_lazy(
                    "Pitch: the team that won a round that ended level (0: seats 1 and 3, "
                    "1: seats 2 and 4)."
                ),
                minimum=0,
                maximum=1,
            ),
            nullable=True,
        ),
    )


@dataclass(frozen=True)
class LevelWinner(Request):
    team: int = field(
        metadata=spec(
            Integer(
                gettext_lazy(
                    "The team that won the level round: 0 (seats 1 and 3) or 1 (seats 2 and 4)."
                ),
                minimum=0,
                maximum=1,
            ),
            required=True,
        )
    )


# -- Answers ---------------------------------------------------------------------------------


def _errors(problems: Any, status: int) -> Answer:
    return status, errors_json(problems)


def _json(answer: Answer) -> JsonResponse:
    status, body = answer
    return JsonResponse(body, status=status)


def _refused(message: str, status: int) -> JsonResponse:
    return _json(_errors([Problem(None, message)], status))


def etag(evening: Evening) -> str:
    return f'"{evening.pk}-{evening.version}"'


def _table_json(
    request: HttpRequest,
    table: EveningTable,
    seats: list[Any],
    organiser: bool,
    game: str = "skat",
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "number": table.number,
        "size": table.size,
        "players": [s.player_id for s in seats],
        "first_dealer": table.sheet.first_dealer if table.sheet else seating.FIRST_DEALER,
        "sheet": table.sheet_id,
        "deals": table.deals,
        "of": table.of,
        "done": table.done,
        "signed": table.signed_at is not None,
        "paper": table.paper,
    }
    if game == "pitch":
        # The team that won the round (0: seats 1 and 3), once it has one.
        body["winner"] = table.winning_team
    if organiser and table.sheet is not None:
        body["table_token"] = table.sheet.edit_token
        body["table_url"] = request.build_absolute_uri(table.sheet.get_absolute_url())
    return body


def evening_json(request: HttpRequest, evening: Evening, *, organiser: bool) -> dict[str, Any]:
    view = selectors.evening_view(evening)
    # Who has paid is the organiser's to see: the view token (the big screen) never.
    settled = _settled(evening, view) if organiser else None
    return {
        "id": evening.pk,
        "game": evening.game,
        "name": evening.name,
        "date": evening.played_on.isoformat(),
        "circle": evening.circle_id,
        "series_count": evening.series_count,
        "series_deals": evening.series_deals,
        "tables": evening.table_order,
        "sit_out": evening.sit_out,
        "movement": evening.movement,
        "counts": evening.counts,
        "round_format": evening.round_format,
        "options": evening.pitch_options,
        "round_hands": evening.round_hands,
        "round_minutes": evening.round_minutes,
        "roll": [_player_json(p, settled) for p in view.players],
        "series": [
            {
                "number": s.number,
                "draw": s.method,
                "seed": s.seed,
                "swaps": [{"first": w["first"], "second": w["second"]} for w in s.swaps],
                "closed": s.closed,
                "sitting_out": list(s.sitting_out),
                "tables": [
                    _table_json(request, t.table, t.seats, organiser, evening.game)
                    for t in view.tables.get(s.number, [])
                ],
            }
            for s in view.series
        ],
        "ranking": [
            {
                "player": row.player,
                "name": view.names.get(row.player, ""),
                "place": row.place,
                "total": ranking_rules.plain_number(row.total),
                "won": row.won,
                "lost": row.lost,
                # A Pitch night: rounds won and lost, and its second tie-break.
                **({} if row.against is None else {"against": row.against}),
                "series": [line.as_dict() for line in row.series],
                "explanation": [str(step) for step in row.explanation],
            }
            for row in view.ranking.rows
        ],
        "version": evening.version,
        "urls": {
            "ranking": request.build_absolute_uri(
                reverse("evenings:ranking", args=[evening.view_token])
            ),
            "screen": request.build_absolute_uri(
                reverse("evenings:screen", args=[evening.view_token])
            ),
        },
    }


def _player_json(
    player: EveningPlayer | selectors.RollPlayer, settled: set[int] | bool | None = None
) -> dict[str, Any]:
    body = {
        "player": player.pk,
        # The circle's own id of the player (api.md: in a circle the roll is of the
        # circle's players); null for a name typed at the door and off a circle. The
        # evening's calls take "player", which is unique on the evening's roll even
        # where a guest stands beside the circle's players.
        "circle_player": player.circle_player_id,
        "name": player.name,
        "left": player.left,
        "team": player.team,
        "tags": list(player.tags),
    }
    if settled is not None:
        # api.md's "paid": whether the player owes nothing more (organiser only; on an
        # evening that keeps no money nobody owes anything).
        body["paid"] = settled if isinstance(settled, bool) else player.pk in settled
    return body


def _settled(evening: Evening, view: selectors.EveningView | None = None) -> set[int] | bool:
    """The players who owe nothing more, for the organiser's answers (True: the
    evening keeps no money, so every player)."""
    if not accounts.has_money(evening):
        return True
    return {line.player.pk for line in accounts.money_view(evening, view).lines if line.settled}


# -- Access ----------------------------------------------------------------------------------


def _evening_for(request: HttpRequest, evening_id: int, *, write: bool) -> Evening | JsonResponse:
    token = bearer_token(request)
    evening = Evening.objects.select_related("circle").filter(pk=evening_id).first()
    if (
        evening is None
        or token is None
        or token
        not in (
            evening.organiser_token,
            evening.view_token,
        )
    ):
        # One answer for a missing evening and a wrong token: ids cannot be probed.
        return _refused(
            _(
                "No evening here for this token. Send Authorization: Bearer <organiser or "
                "view token>."
            ),
            404,
        )
    if write and not permissions.can_organise(evening, token):
        return _refused(
            _("This is the evening's view token; changes need the organiser token."), 403
        )
    return evening


def _fingerprint(request: HttpRequest) -> str:
    """What an Idempotency-Key is held to: the request's JSON as parsed, as a sheet's
    write is (games.services.fingerprint), so a retry that writes the same object with
    its members in another order or other spacing is the same request."""
    raw = request.body.decode("utf-8", "surrogatepass")
    try:
        body: object = json.loads(raw) if raw.strip() else None
    except ValueError:
        body = raw
    return sheet_services.fingerprint(request.method or "", request.path, body)


def _read(request: HttpRequest, declared: type[Request]) -> Any:
    try:
        return declared.read(Body(parse_json_object(request.body)))
    except UnreadableInput as error:
        return _json(_errors(error.problems, 400))


def _kept_answer(scope: str, key: str | None) -> dict[str, Any]:
    """What a key kept of its first answer. Of an answer larger than the key keeps
    (``games.services.idempotent``), its short members: the ids a replay reads again."""
    stored = IdempotencyKey.objects.filter(scope=scope, key=key).first()
    return dict(stored.response) if stored is not None else {}


Replay = Callable[[dict[str, Any]], dict[str, Any]]


def _write(
    request: HttpRequest, evening: Evening, action: Any, replay: Replay | None = None
) -> JsonResponse:
    """Run a write with the request's If-Match and Idempotency-Key. ``replay`` answers
    a retry whose first answer was too large for its key to keep: it gets what the key
    kept (the short members) and answers with the evening as it is now."""
    try:
        version = expected_version(request, evening)  # type: ignore[arg-type]
    except _BadIfMatch:
        return _refused(
            _(
                "If-Match takes the evening's ETag in double quotes as the last answer gave "
                'it (as in "12-5"), a list of such tags separated by commas, * or the '
                "version number."
            ),
            400,
        )

    def run() -> Answer:
        try:
            return action(version)
        except StaleEvening as error:
            evening.refresh_from_db()
            body = errors_json(error.problems)
            body["evening"] = evening_json(request, evening, organiser=True)
            return 412, body
        except UnreadableInput as error:
            return _errors(error.problems, 400)
        except RuleError as error:
            return _errors(error.problems, 422)

    key = request.headers.get("Idempotency-Key")
    digest = hashlib.sha256((bearer_token(request) or "").encode()).hexdigest()[:16]
    scope = f"evening:{evening.pk}:{digest}"
    print_ = _fingerprint(request)

    def replayed() -> dict[str, Any]:
        assert replay is not None
        evening.refresh_from_db()
        return replay(_kept_answer(scope, key))

    status, answer = sheet_services.idempotent(
        scope=scope,
        key=key,
        print_=print_,
        action=run,
        replay=replayed if replay is not None else None,
    )
    response = JsonResponse(answer, status=status)
    if status < 300:
        evening.refresh_from_db(fields=["version"])
        response["ETag"] = etag(evening)
    return response


def _method(request: HttpRequest, allowed: str, message: str) -> JsonResponse | None:
    """A 405 naming the methods allowed ("POST", or "DELETE, PUT"), or None."""
    if request.method in [method.strip() for method in allowed.split(",")]:
        return None
    response = _refused(message, 405)
    response["Allow"] = allowed
    return response


def _organiser(
    request: HttpRequest, evening_id: int, allowed: str, message: str
) -> Evening | JsonResponse:
    """The evening an organiser's request is for (its token checked), or the refusal:
    a method not allowed, no such evening for the token, or the view token writing."""
    refused = _method(request, allowed, message)
    if refused:
        return refused
    return _evening_for(request, evening_id, write=True)


# -- Endpoints -------------------------------------------------------------------------------


def _csrf_fails(request: HttpRequest) -> bool:
    """Whether Django's CSRF check refuses this request (the view itself is exempt)."""

    def view(request: HttpRequest) -> None:  # pragma: no cover - never called
        return None

    return CsrfViewMiddleware(view).process_view(request, view, (), {}) is not None


@csrf_exempt  # token-authenticated, no cookies: a cross-site form cannot send the header
def evenings(request: HttpRequest) -> JsonResponse:
    refused = _method(request, "POST", _("Start an evening with POST."))
    if refused:
        return refused
    data = _read(request, NewEvening)
    if isinstance(data, JsonResponse):
        return data
    circle = None
    if data.circle is not None:
        # Here the session's cookie decides (a member, logged in): a cross-site form
        # must not start an evening with it, so the CSRF check the rest of the
        # endpoint's token-authenticated writes do without applies.
        if _csrf_fails(request):
            return _refused(
                _(
                    "An evening in a circle is started from this site's pages, logged in: "
                    "send the CSRF token (the csrftoken cookie as the X-CSRFToken header)."
                ),
                403,
            )
        circle = Circle.objects.filter(pk=data.circle).first()
        if circle is None or not permissions.can_start_in_circle(request.user, circle):
            return _refused(
                _("An evening in a circle is started by a member of the circle, logged in."), 403
            )

    def create() -> Answer:
        try:
            evening = services.evening_create(
                name=data.name,
                played_on=data.date,
                game=data.game,
                series_count=data.series,
                series_deals=data.series_deals,
                table_order=data.tables,
                sit_out=data.sit_out,
                movement=data.movement,
                counts=data.counts,
                round_format=data.round_format,
                pitch_options=data.options,
                round_hands=data.round_hands,
                round_minutes=data.round_minutes,
                circle=circle,
                by=request.user,
                money=data.money,
            )
        except RuleError as error:
            return _errors(error.problems, 422)
        return 201, _created_json(request, evening)

    # Per account; without one per the caller's address (as a new sheet's key): nobody
    # elsewhere who learns the key gets this evening's organiser token back.
    scope = sheet_services.key_scope(user=request.user, client=client_ip(request), kind="evenings")
    print_ = _fingerprint(request)
    key = request.headers.get("Idempotency-Key")

    def created_now() -> dict[str, Any]:
        # A retry whose first answer its key kept compact: the evening it started, as
        # it is now (the scope is this caller's, so the tokens go back to them only).
        kept = _kept_answer(scope, key)
        evening_id = kept.get("id")
        found = (
            Evening.objects.select_related("circle").filter(pk=evening_id).first()
            if isinstance(evening_id, int)
            else None
        )
        return kept if found is None else _created_json(request, found)

    return _json(
        sheet_services.idempotent(
            scope=scope, key=key, print_=print_, action=create, replay=created_now
        )
    )


def _created_json(request: HttpRequest, evening: Evening) -> dict[str, Any]:
    """A new evening's answer: the evening with its organiser's tokens and board."""
    body = evening_json(request, evening, organiser=True)
    body["organiser_token"] = evening.organiser_token
    body["view_token"] = evening.view_token
    body["urls"]["board"] = request.build_absolute_uri(
        reverse("evenings:board", args=[evening.organiser_token])
    )
    return body


@csrf_exempt
def evening_detail(request: HttpRequest, evening_id: int) -> JsonResponse:
    refused = _method(request, "GET", _("Read an evening with GET."))
    if refused:
        return refused
    evening = _evening_for(request, evening_id, write=False)
    if isinstance(evening, JsonResponse):
        return evening
    organiser = permissions.can_organise(evening, bearer_token(request) or "")
    response = JsonResponse(evening_json(request, evening, organiser=organiser))
    response["ETag"] = etag(evening)
    return response


@csrf_exempt
def evening_players(request: HttpRequest, evening_id: int) -> JsonResponse:
    evening = _organiser(request, evening_id, "POST", _("Add players to the roll with POST."))
    if isinstance(evening, JsonResponse):
        return evening
    data = _read(request, RollAdd)
    if isinstance(data, JsonResponse):
        return data

    def add(version: int | None) -> Answer:
        if not data.names and not data.players:
            raise RuleError(_('Give "names" or "players" to add to the roll.'), "names")
        services.players_add(
            evening=evening,
            names=data.names or (),
            circle_players=data.players or (),
            team=data.team or "",
            tags=data.tags or (),
            expected_version=version,
        )
        return 201, _roll_json(evening)

    return _write(request, evening, add, replay=lambda kept: _roll_json(evening))


def _roll_json(evening: Evening) -> dict[str, Any]:
    """The roll as the organiser sees it (a roll write's answer)."""
    roll = EveningPlayer.objects.filter(evening=evening)
    settled = _settled(evening)
    return {"roll": [_player_json(p, settled) for p in roll]}


@csrf_exempt
def evening_player(request: HttpRequest, evening_id: int, player_id: int) -> JsonResponse:
    evening = _organiser(
        request,
        evening_id,
        "DELETE, PUT",
        _("Set a player's team and categories with PUT, or take them off with DELETE."),
    )
    if isinstance(evening, JsonResponse):
        return evening
    player = EveningPlayer.objects.filter(evening=evening, pk=player_id, left=False).first()
    if player is None:
        return _refused(_("No such player on this evening's roll."), 404)
    if request.method == "PUT":
        data = _read(request, PlayerEntry)
        if isinstance(data, JsonResponse):
            return data

        def update(version: int | None) -> Answer:
            updated = services.player_update(
                evening=evening,
                player=player,
                team=data.team or "",
                tags=data.tags or (),
                expected_version=version,
            )
            return 200, _player_json(updated, _settled(evening))

        return _write(request, evening, update)

    def leave(version: int | None) -> Answer:
        services.player_leave(evening=evening, player=player, expected_version=version)
        return 200, _roll_json(evening)

    return _write(request, evening, leave, replay=lambda kept: _roll_json(evening))


@csrf_exempt
def evening_series(request: HttpRequest, evening_id: int) -> JsonResponse:
    evening = _organiser(request, evening_id, "POST", _("Draw the next series with POST."))
    if isinstance(evening, JsonResponse):
        return evening
    data = _read(request, Draw)
    if isinstance(data, JsonResponse):
        return data

    def draw(version: int | None) -> Answer:
        seed = data.seed
        if data.draw == "lot" and seed is None:
            seed = seating.new_seed()
        series = services.series_draw(
            evening=evening,
            method=data.draw,
            seed=seed if data.draw == "lot" else None,
            keep_apart=data.keep_apart,
            expected_version=version,
        )
        return 201, _series_json(request, series)

    def drawn_now(kept: dict[str, Any]) -> dict[str, Any]:
        series = evening.series.filter(number=kept.get("number")).first()
        return kept if series is None else _series_json(request, series)

    return _write(request, evening, draw, replay=drawn_now)


def _series_json(request: HttpRequest, series: Any) -> dict[str, Any]:
    """A drawn series as its organiser sees it: its tables with their links."""
    tables = [
        _table_json(request, t, list(t.seats.all()), organiser=True, game=series.evening.game)
        for t in series.tables.select_related("sheet").prefetch_related("seats")
    ]
    return {
        "number": series.number,
        "draw": series.method,
        "seed": series.seed,
        "tables": tables,
        "sitting_out": list(series.sitting_out),
        "time_called_at": series.time_called_at.isoformat() if series.time_called_at else None,
    }


@csrf_exempt
def table_result(request: HttpRequest, evening_id: int, number: int, table: int) -> JsonResponse:
    evening = _organiser(request, evening_id, "POST", _("Send a paper table's result with POST."))
    if isinstance(evening, JsonResponse):
        return evening
    found = (
        EveningTable.objects.select_related("series__evening")
        .filter(series__evening=evening, series__number=number, number=table)
        .first()
    )
    if found is None:
        return _refused(_("No such table in that series."), 404)
    data = _read(request, PaperResult)
    if isinstance(data, JsonResponse):
        return data

    def record(version: int | None) -> Answer:
        if evening.game == "pitch":
            services.table_tally_result(
                table=found, scores=data.scores, winner=data.winner, expected_version=version
            )
        else:
            foot = [line.values() for line in data.players] if data.players is not None else None
            rows = [row.values() for row in data.rows] if data.rows is not None else None
            services.table_paper_result(table=found, foot=foot, rows=rows, expected_version=version)
        found.refresh_from_db()
        seats = list(found.seats.all())
        return 200, {
            "table": _table_json(request, found, seats, organiser=True, game=evening.game),
            "players": [
                {
                    "player": s.player_id,
                    "points": s.points,
                    "won": s.won,
                    "lost": s.lost,
                    "others_lost": s.others_lost,
                }
                for s in seats
            ],
        }

    return _write(request, evening, record)


def _found_table(evening: Evening, number: int, table: int) -> EveningTable | None:
    return (
        EveningTable.objects.select_related("series__evening", "sheet")
        .filter(series__evening=evening, series__number=number, number=table)
        .first()
    )


@csrf_exempt
def round_time(request: HttpRequest, evening_id: int) -> JsonResponse:
    evening = _organiser(request, evening_id, "POST", _("Call time with POST."))
    if isinstance(evening, JsonResponse):
        return evening

    def call(version: int | None) -> Answer:
        series = services.round_call_time(evening=evening, expected_version=version)
        return 200, _series_json(request, series)

    return _write(request, evening, call)


@csrf_exempt
def table_end(request: HttpRequest, evening_id: int, number: int, table: int) -> JsonResponse:
    evening = _organiser(request, evening_id, "POST", _("End a table's round with POST."))
    if isinstance(evening, JsonResponse):
        return evening
    found = _found_table(evening, number, table)
    if found is None:
        return _refused(_("No such table in that series."), 404)

    def end(version: int | None) -> Answer:
        services.table_end_now(table=found, expected_version=version)
        found.refresh_from_db()
        seats = list(found.seats.all())
        return 200, {"table": _table_json(request, found, seats, organiser=True, game="pitch")}

    return _write(request, evening, end)


@csrf_exempt
def table_winner(request: HttpRequest, evening_id: int, number: int, table: int) -> JsonResponse:
    evening = _organiser(request, evening_id, "POST", _("Say a level round's winner with POST."))
    if isinstance(evening, JsonResponse):
        return evening
    found = _found_table(evening, number, table)
    if found is None:
        return _refused(_("No such table in that series."), 404)
    data = _read(request, LevelWinner)
    if isinstance(data, JsonResponse):
        return data

    def choose(version: int | None) -> Answer:
        services.table_level_winner(table=found, team=data.team, expected_version=version)
        found.refresh_from_db()
        seats = list(found.seats.all())
        return 200, {"table": _table_json(request, found, seats, organiser=True, game="pitch")}

    return _write(request, evening, choose)


def money_json(view: accounts.MoneyView) -> dict[str, Any]:
    """What the organiser's money page shows, as api.md writes it: amounts as decimal
    strings with the currency's places ("6.00"), never floats."""
    coin = money_rules.smallest(view.rules.currency)

    def _amount(value: Any) -> str:
        return str(value.quantize(coin))

    box = view.box
    prizes = view.prizes
    return {
        "currency": view.rules.currency,
        "rules": view.rules.as_dict() if view.evening.money else None,
        "players": [
            {
                "player": line.player.pk,
                "name": line.player.name,
                "owes": _amount(line.account.owes),
                "paid": _amount(line.account.paid),
                "balance": _amount(line.account.balance),
                "won": _amount(line.won),
                "bill": {
                    "entry_fee": _amount(line.account.bill.entry_fee),
                    "series": [
                        {
                            "number": s.number,
                            "lost": s.lost,
                            "lost_fee": _amount(s.lost_fee),
                            "table_fee": _amount(s.table_fee),
                        }
                        for s in line.account.bill.series
                    ],
                    "explanation": [str(step) for step in line.account.bill.steps],
                },
            }
            for line in view.lines
        ],
        "payments": [
            {
                "payment": p.pk,
                "player": p.player_id,
                "amount": _amount(p.amount),
                "at": p.at.isoformat(),
                "by": p.by,
                "undone_at": p.undone_at.isoformat() if p.undone_at else None,
                "undone_by": p.undone_by,
            }
            for p in view.payments
        ],
        "bill_changes": [
            {
                "player": c.player_id,
                "series": c.table.series.number,
                "table": c.table.number,
                "change": c.change,
                "lost_before": c.lost_before,
                "lost_after": c.lost_after,
                "fee_before": _amount(c.fee_before),
                "fee_after": _amount(c.fee_after),
                "at": c.at.isoformat(),
            }
            for c in view.changes
        ],
        "pot": _amount(view.pot.total),
        "prizes": [
            {
                "kind": prize.kind,
                "label": prize.label,
                "amount": _amount(prize.amount),
                "players": [
                    {"player": who, "amount": _amount(share)} for who, share in prizes.shares(prize)
                ],
            }
            for prize in (prizes.prizes if prizes else ())
        ],
        "remainder": _amount(prizes.remainder) if prizes else None,
        "prize_problem": view.prize_problem or None,
        "cash_box": {
            "entry_fees": _amount(box.entry_fees),
            "table_fees": _amount(box.table_fees),
            "lost_fees": _amount(box.lost_fees),
            "came_in": _amount(box.came_in),
            "prizes": _amount(box.prizes),
            "stays": _amount(box.stays),
            "received": _amount(box.received),
            "outstanding": _amount(box.outstanding),
            "give_back": _amount(box.give_back),
        },
    }


@csrf_exempt
def evening_money(request: HttpRequest, evening_id: int) -> JsonResponse:
    """The evening's money for its organiser (GET), or its rules set again (PUT)."""
    # Only the organiser sees everyone's bill: the view token (the big screen) never.
    evening = _organiser(
        request, evening_id, "GET, PUT", _("Read the money with GET, or set its rules with PUT.")
    )
    if isinstance(evening, JsonResponse):
        return evening
    if request.method == "GET":
        response = JsonResponse(money_json(accounts.money_view(evening)))
        response["ETag"] = etag(evening)
        return response
    data = _read(request, MoneySet)
    if isinstance(data, JsonResponse):
        return data

    def set_rules(version: int | None) -> Answer:
        accounts.rules_set(evening=evening, data=data.money, expected_version=version)
        evening.refresh_from_db()
        return 200, money_json(accounts.money_view(evening))

    return _write(
        request, evening, set_rules, replay=lambda kept: money_json(accounts.money_view(evening))
    )


@csrf_exempt
def evening_payments(request: HttpRequest, evening_id: int) -> JsonResponse:
    evening = _organiser(request, evening_id, "POST", _("Record a payment with POST."))
    if isinstance(evening, JsonResponse):
        return evening
    data = _read(request, PaymentAdd)
    if isinstance(data, JsonResponse):
        return data
    player = EveningPlayer.objects.filter(evening=evening, pk=data.player).first()
    if player is None:
        return _refused(_("No such player on this evening's roll."), 404)

    def pay(version: int | None) -> Answer:
        payment = accounts.payment_add(
            evening=evening,
            player=player,
            amount=data.amount,
            by=_("API"),
            expected_version=version,
        )
        body = money_json(accounts.money_view(evening))
        body["payment"] = payment.pk
        return 201, body

    def paid_now(kept: dict[str, Any]) -> dict[str, Any]:
        return {**money_json(accounts.money_view(evening)), "payment": kept.get("payment")}

    return _write(request, evening, pay, replay=paid_now)


@csrf_exempt
def evening_payment(request: HttpRequest, evening_id: int, payment_id: int) -> JsonResponse:
    evening = _organiser(request, evening_id, "DELETE", _("Undo a payment with DELETE."))
    if isinstance(evening, JsonResponse):
        return evening
    payment = evening.payments.filter(pk=payment_id).first()
    if payment is None:
        return _refused(_("No such payment on this evening."), 404)

    def undo(version: int | None) -> Answer:
        accounts.payment_undo(
            evening=evening, payment=payment, by=_("API"), expected_version=version
        )
        return 200, money_json(accounts.money_view(evening))

    return _write(
        request, evening, undo, replay=lambda kept: money_json(accounts.money_view(evening))
    )


# -- The OpenAPI description, from the same declarations ---------------------------------------


def openapi_parts() -> tuple[dict[str, Any], dict[str, Any]]:
    """The evening endpoints for the project's OpenAPI schema: (paths, schemas)."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}}
    evening_id = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
    headers = [
        {
            "name": "Idempotency-Key",
            "in": "header",
            "required": False,
            "schema": {"type": "string"},
        },
        {"name": "If-Match", "in": "header", "required": False, "schema": {"type": "string"}},
    ]
    refusals = {
        "400": {"description": gettext_lazy("The body cannot be read."), "content": error},
        "403": {"description": gettext_lazy("The view token cannot write."), "content": error},
        "404": {"description": gettext_lazy("No evening for this token."), "content": error},
        "412": {
            "description": gettext_lazy("The evening changed since If-Match."),
            "content": error,
        },
        "422": {
            "description": gettext_lazy("The request breaks the evening's rules."),
            "content": error,
        },
    }
    answer = {"application/json": {"schema": {"type": "object"}}}

    def write(operation: str, summary: Any, declared: type[Request] | None, params: list) -> dict:
        body: dict[str, Any] = {
            "operationId": operation,
            "tags": ["Evenings"],
            "summary": summary,
            "security": [{"token": []}],
            "parameters": [*params, *headers],
            "responses": {
                "200": {"description": gettext_lazy("Done."), "content": answer},
                "201": {"description": gettext_lazy("Made."), "content": answer},
                **refusals,
            },
        }
        if declared is not None:
            body["requestBody"] = declared.request_body()
        return body

    int_param = lambda name: {  # noqa: E731
        "name": name,
        "in": "path",
        "required": True,
        "schema": {"type": "integer"},
    }
    paths = {
        "/api/v1/evenings": {
            "post": write(
                "evening_create",
                gettext_lazy("Start a club evening: answers its organiser and view tokens"),
                NewEvening,
                [],
            )
        },
        "/api/v1/evenings/{id}": {
            "get": {
                "operationId": "evening_detail",
                "tags": ["Evenings"],
                "summary": gettext_lazy("An evening: its roll, series, tables and ranking"),
                "security": [{"token": []}],
                "parameters": [evening_id],
                "responses": {
                    "200": {"description": gettext_lazy("The evening."), "content": answer},
                    "404": refusals["404"],
                },
            }
        },
        "/api/v1/evenings/{id}/players": {
            "post": write(
                "evening_players_add",
                gettext_lazy("Add players to the roll"),
                RollAdd,
                [evening_id],
            )
        },
        "/api/v1/evenings/{id}/players/{player}": {
            "put": write(
                "evening_player_set",
                gettext_lazy("A player's team and categories"),
                PlayerEntry,
                [evening_id, int_param("player")],
            ),
            "delete": write(
                "evening_player_leave",
                gettext_lazy("A player leaves between series"),
                None,
                [evening_id, int_param("player")],
            ),
        },
        "/api/v1/evenings/{id}/series": {
            "post": write(
                "evening_series_draw",
                gettext_lazy("Draw the next series: a sheet per table"),
                Draw,
                [evening_id],
            )
        },
        "/api/v1/evenings/{id}/money": {
            "get": {
                "operationId": "evening_money",
                "tags": ["Evenings"],
                "summary": gettext_lazy(
                    "The evening's money: every bill, the payments, the pot, the prizes and "
                    "the cash box (organiser token)"
                ),
                "security": [{"token": []}],
                "parameters": [evening_id],
                "responses": {
                    "200": {"description": gettext_lazy("The money."), "content": answer},
                    "403": refusals["403"],
                    "404": refusals["404"],
                },
            },
            "put": write(
                "evening_money_set",
                gettext_lazy("Set the evening's money rules"),
                MoneySet,
                [evening_id],
            ),
        },
        "/api/v1/evenings/{id}/payments": {
            "post": write(
                "evening_payment_add",
                gettext_lazy("Record a payment"),
                PaymentAdd,
                [evening_id],
            )
        },
        "/api/v1/evenings/{id}/payments/{payment}": {
            "delete": write(
                "evening_payment_undo",
                gettext_lazy("Undo a payment (it stays in the history)"),
                None,
                [evening_id, int_param("payment")],
            )
        },
        "/api/v1/evenings/{id}/time": {
            "post": write(
                "evening_round_time",
                gettext_lazy(
                    "Pitch, a round of minutes: call time (each table finishes the hand in play)"
                ),
                None,
                [evening_id],
            )
        },
        "/api/v1/evenings/{id}/series/{n}/tables/{t}/end": {
            "post": write(
                "evening_table_end",
                gettext_lazy("Pitch: time was called between hands: the table's round ends now"),
                None,
                [evening_id, int_param("n"), int_param("t")],
            )
        },
        "/api/v1/evenings/{id}/series/{n}/tables/{t}/winner": {
            "post": write(
                "evening_table_winner",
                gettext_lazy("Pitch: the winner of a round that ended level"),
                LevelWinner,
                [evening_id, int_param("n"), int_param("t")],
            )
        },
        "/api/v1/evenings/{id}/series/{n}/tables/{t}/result": {
            "post": write(
                "evening_table_result",
                gettext_lazy("A paper table's result: its foot, its rows, or both"),
                PaperResult,
                [evening_id, int_param("n"), int_param("t")],
            )
        },
    }
    return paths, {}
