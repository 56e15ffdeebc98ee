"""The standings as JSON: ``GET /api/v1/seasons/{id}/standings``.

Readable with the season's view token (``Authorization: Bearer <token>``; names are
then shown as each player chose for outside the circle) or by a signed-in member of
the circle. Everything else gets the API's error format, never a page.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from circles import permissions, selectors, standings_cache, wording
from circles.models import Season
from games.api_sheets import bearer_token
from scorekeeper.i18n import JsonResponse


def _error(status: int, message: str) -> JsonResponse:
    return JsonResponse({"errors": [{"field": None, "message": message}]}, status=status)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, float):
        return round(value, 4)
    return value


def _rows(rows: Any, names: wording.Names) -> list[dict[str, Any]]:
    made = []
    for row in rows:
        data = dataclasses.asdict(row)
        data["reasons"] = [
            {
                "code": item.code,
                "params": _plain(dict(item.params)),
                "text": wording.reason(item, names),
            }
            for item in row.reasons
        ]
        if "partners" in data:
            data["partners"] = [
                {"player": partner, "games": games, "won": won}
                for partner, games, won in row.partners
            ]
        made.append(_plain(data))
    return made


# Read-only: any other method gets the API's 405, not the CSRF failure page.
@csrf_exempt
def season_standings(request: HttpRequest, season_id: int) -> HttpResponse:
    if request.method != "GET":
        response = _error(405, _("Read a season's standings with GET."))
        response["Allow"] = "GET"
        return response
    season = Season.objects.select_related("circle").filter(pk=season_id).first()
    token = bearer_token(request)
    if season is None or not permissions.can_view_season(request.user, season, token):
        return _error(
            404,
            _(
                "No season with that id for this token. Send the season's view token as "
                "'Authorization: Bearer <token>', or log in as a member of its circle."
            ),
        )
    member = permissions.can_view_circle(request.user, season.circle)
    include_guests = request.GET.get("guests") in ("1", "true")
    # Computed from every counted sheet once per standings version (and language, view
    # and day: the title race counts the evenings left), then kept.
    key = ("season-api", season.pk, member, include_guests, get_language(), timezone.localdate())
    # Kept as the bytes sent: a season of thousands of sheets lists every one of them,
    # encoded once per version instead of at every read.
    content = standings_cache.kept(
        season.circle,
        key,
        lambda: JsonResponse(_standings_body(season, member, include_guests)).content,
    )
    response = HttpResponse(content, content_type="application/json")
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _standings_body(season: Season, member: bool, include_guests: bool) -> dict[str, Any]:
    standings = selectors.kept_season_standings(season, include_guests=include_guests)
    names = wording.Names(standings.players, public=not member)
    games: dict[str, Any] = {}
    for game, table in standings.tables.items():
        games[game] = {
            "ranked": _rows(table.ranked, names),
            "unranked": _rows(getattr(table, "unranked", ()), names),
            "evenings": [day.isoformat() for day in table.evenings],
        }
    shown = {
        player_id
        for table in standings.tables.values()
        for row in (*table.ranked, *getattr(table, "unranked", ()))
        for player_id in [row.player]
    }
    body = {
        "season": {
            "id": season.pk,
            "name": season.name,
            "starts_on": season.starts_on.isoformat(),
            "ends_on": season.ends_on.isoformat(),
            "skat_rules": season.skat_rules,
        },
        "players": [
            {"id": pid, "name": names(pid), "guest": standings.players[pid].guest}
            for pid in sorted(shown)
        ],
        "standings": games,
        # How many, not which: a season of thousands of sheets would list them all.
        "counted_sheets": standings.counted_sheets,
        "open_sheets": standings.open_sheets,
        "title_race": wording.title_race(standings, public=not member),
        "changes": wording.changes(standings, public=not member, include_guests=include_guests),
    }
    return body


REASON = {
    "type": "object",
    "required": ["code", "params", "text"],
    "properties": {
        "code": {
            "type": "string",
            "description": gettext_lazy("What the sentence says, for programs."),
        },
        "params": {
            "type": "object",
            "description": gettext_lazy("The numbers and player ids it names."),
        },
        "text": {"type": "string", "description": gettext_lazy("The reason in words.")},
    },
}
COMMON_ROW = {
    "player": {"type": "integer", "description": gettext_lazy("The player's id (see players).")},
    "place": {
        "type": ["integer", "null"],
        "description": gettext_lazy("Shared on a full tie; null if not ranked."),
    },
    "reasons": {"type": "array", "items": {"$ref": "#/components/schemas/StandingsReason"}},
}
INT = {"type": "integer"}
NUM = {"type": "number"}
SKAT_ROW = {
    "type": "object",
    "required": [
        "player",
        "place",
        "series",
        "declared",
        "won",
        "lost",
        "list_points",
        "sf_total",
        "sf_average",
        "best_series",
        "value",
        "reasons",
    ],
    "properties": {
        **COMMON_ROW,
        "series": INT,
        "declared": INT,
        "won": INT,
        "lost": INT,
        "list_points": INT,
        "sf_total": INT,
        "sf_average": NUM,
        "best_series": INT,
        "value": {
            "type": "number",
            "description": gettext_lazy("The ranked value under the club rules."),
        },
        "counted_total": INT,
        "counted": INT,
        "dropped": INT,
        "missed": INT,
    },
}
PITCH_ROW = {
    "type": "object",
    "required": [
        "player",
        "place",
        "games",
        "won",
        "win_rate",
        "bids",
        "made",
        "made_rate",
        "sets",
        "moon",
        "moon_made",
        "points_taken",
        "partners",
        "reasons",
    ],
    "properties": {
        **COMMON_ROW,
        "games": INT,
        "won": INT,
        "win_rate": NUM,
        "hands": INT,
        "bids": INT,
        "made": INT,
        "made_rate": NUM,
        "sets": INT,
        "moon": INT,
        "moon_made": INT,
        "points_taken": INT,
        "partners": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"player": INT, "games": INT, "won": INT},
            },
        },
    },
}
MANIPULATION_ROW = {
    "type": "object",
    "required": ["player", "place", "games", "won", "rounds", "went_out", "avg_penalty", "reasons"],
    "properties": {
        **COMMON_ROW,
        "games": INT,
        "won": INT,
        "rounds": INT,
        "went_out": INT,
        "penalties": INT,
        "avg_penalty": NUM,
    },
}


def _table(row: str) -> dict[str, Any]:
    items = {"type": "array", "items": {"$ref": f"#/components/schemas/{row}"}}
    return {
        "type": "object",
        "properties": {
            "ranked": items,
            "unranked": items,
            "evenings": {"type": "array", "items": {"type": "string", "format": "date"}},
        },
    }


STANDINGS = {
    "type": "object",
    "required": ["season", "players", "standings", "counted_sheets"],
    "properties": {
        "season": {
            "type": "object",
            "properties": {
                "id": INT,
                "name": {"type": "string"},
                "starts_on": {"type": "string", "format": "date"},
                "ends_on": {"type": "string", "format": "date"},
                "skat_rules": {
                    "type": "object",
                    "description": gettext_lazy("The season's Skat club rules."),
                },
            },
        },
        "players": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"id": INT, "name": {"type": "string"}, "guest": {"type": "boolean"}},
            },
        },
        "standings": {
            "type": "object",
            "properties": {
                "skat": _table("SkatStandingsRow"),
                "pitch": _table("PitchStandingsRow"),
                "manipulation": _table("ManipulationStandingsRow"),
            },
        },
        "counted_sheets": {
            "type": "integer",
            "description": gettext_lazy("How many finished sheets count in the standings."),
        },
        "open_sheets": INT,
        "title_race": {
            "type": "object",
            "description": gettext_lazy("Per game: who leads and what the nearest rivals need."),
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
        "changes": {"type": "array", "items": {"type": "object"}},
    },
}


def openapi_parts() -> tuple[dict[str, Any], dict[str, Any]]:
    """The standings endpoint for the project's OpenAPI schema: (paths, schemas)."""
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}}
    paths = {
        "/api/v1/seasons/{id}/standings": {
            "get": {
                "operationId": "season_standings",
                "tags": ["Seasons"],
                # Shown on the API page in the reader's language (lazy: the schema is
                # built once).
                "summary": gettext_lazy(
                    "A season's standings: every game's table, with the reasons"
                ),
                "description": gettext_lazy(
                    "Readable with the season's view token as a Bearer token (names as each "
                    "player chose for outside the circle) or by a logged-in member. Add "
                    "?guests=1 to include guests. Each row lists every column of the page "
                    "and why it stands where it does; counted_sheets says how many finished "
                    "sheets count, open_sheets how many are still being played."
                ),
                "parameters": [
                    {"name": "id", "in": "path", "required": True, "schema": INT},
                    {
                        "name": "guests",
                        "in": "query",
                        "required": False,
                        "schema": {"type": "string", "enum": ["1"]},
                    },
                ],
                "security": [{"token": []}],
                "responses": {
                    "200": {
                        "description": gettext_lazy("The standings."),
                        "content": {
                            "application/json": {
                                "schema": {"$ref": "#/components/schemas/SeasonStandings"}
                            }
                        },
                    },
                    "404": {
                        "description": gettext_lazy("No season with that id for this token."),
                        "content": error,
                    },
                },
            }
        }
    }
    schemas = {
        "SeasonStandings": STANDINGS,
        "StandingsReason": REASON,
        "SkatStandingsRow": SKAT_ROW,
        "PitchStandingsRow": PITCH_ROW,
        "ManipulationStandingsRow": MANIPULATION_ROW,
    }
    return paths, schemas
