"""The OpenAPI 3.1 description of the JSON API, and the data for its human page.

One source for both: the schema served at /api/v1/openapi.json and the page at
/api/ are built from the same endpoint list, and the page's example answers are
computed by the referee itself, so the documentation cannot drift from the code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.conf import settings
from django.utils.module_loading import import_string
from django.utils.translation import get_language, gettext_lazy, pgettext

from games.api_declarations import Request
from games.api_input import answer
from games.api_requests import (
    TEAM_NUMBERS,
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
from games.services import KEY_DAYS

CARD = {
    "type": "string",
    "description": (
        "A card code, rank then suit: ranks A K Q J 10 9 8 7 6 5 4 3 2, suits C S H D. "
        "Also accepted: T for 10, lower case, the suit symbols ♣ ♠ ♥ ♦. "
        "Pitch jokers: JOKER-HIGH, JOKER-LOW."
    ),
    "examples": ["JC", "10H", "t♥"],
}
CARDS = {"type": "array", "items": {"$ref": "#/components/schemas/Card"}}
EXPLANATION = {
    "type": "array",
    "items": {"type": "string"},
    "description": gettext_lazy(
        "Short sentences that walk from the input to the result, as a referee would say them."
    ),
}
STEPS = {
    "type": "array",
    "description": gettext_lazy(
        "The explanation again, each sentence with the rule-book section it rests on."
    ),
    "items": {
        "type": "object",
        "required": ["text", "rule"],
        "properties": {"text": {"type": "string"}, "rule": {"type": ["string", "null"]}},
    },
}
ERROR = {
    "type": "object",
    "required": ["errors"],
    "properties": {
        "errors": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "required": ["field", "message"],
                "properties": {
                    "field": {
                        "type": ["string", "null"],
                        "description": "Dotted path of the field (cards.2, options.target), null for the whole request.",
                    },
                    "message": {
                        "type": "string",
                        "description": "A sentence a player understands.",
                    },
                },
            },
        }
    },
}


def _enum(values: tuple[str, ...], description: str, default: str | None = None) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "string", "enum": list(values), "description": description}
    if default is not None:
        schema["default"] = default
    return schema


def _integer(description: str, minimum: int | None = None, maximum: int | None = None) -> dict:
    schema: dict[str, Any] = {"type": "integer", "description": description}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return schema


@dataclass(frozen=True)
class Endpoint:
    game: str
    path: str
    name: str
    summary: str
    description: str
    request: type[Request]  # the declaration the endpoint reads its body with
    response: dict[str, Any]
    response_required: tuple[str, ...]
    examples: tuple[tuple[str, dict[str, Any]], ...] = field(default=())

    @property
    def operation_id(self) -> str:
        return self.name.replace("api-", "").replace("-", "_")


PITCH_OPTIONS = {
    "type": "object",
    "description": "Per-sheet options of the Pitch rules; every one has a default.",
    "properties": {
        "target": _integer("Points to win the game.", 11, 500) | {"default": 52},
        "made_scores": _enum(
            ("taken", "bid"),
            "What a pitching team that made its bid scores: the points it took, or its bid.",
            "taken",
        ),
        "two_goes_to": _enum(
            ("taker", "player"),
            "Who scores the two: the team that won it in a trick, or the team that played it.",
            "taker",
        ),
        "all_pass": _enum(
            ("dealer_4", "redeal"),
            "When the first three pass: the dealer must bid 4, or the cards are dealt again.",
            "dealer_4",
        ),
        "win_condition": _enum(
            ("bidder_first", "bid_out"),
            "Both teams over the target on one hand: the pitching team wins; or a team can only "
            "win on a hand it pitched and made.",
            "bidder_first",
        ),
        "hands": _integer(
            "A game of a fixed number of hands: it ends after this many at the latest (a "
            "team reaching the target ends it before), and the higher score wins; level, "
            "nobody does. Left out: the game is played to the target.",
            1,
            200,
        ),
    },
    "additionalProperties": False,
}

MANIPULATION_OPTIONS = {
    "type": "object",
    "description": "Per-sheet options of the Manipulation rules; every one has a default.",
    "properties": {
        "target": {
            "type": "integer",
            "enum": [200, 300],
            "default": 200,
            "description": "The game ends after the round in which someone reaches this many penalty points.",
        },
        "ace": _enum(
            ("high", "low_or_high"),
            "The ace ends a sequence high only (Q-K-A), or may also start one low (A-2-3); never K-A-2.",
            "high",
        ),
        "stock_out": _enum(
            ("play_on", "end_round"),
            "Once the stock is empty: players who cannot meld pass until everyone has, or the "
            "round ends as soon as the player to move cannot meld.",
            "play_on",
        ),
    },
    "additionalProperties": False,
}

ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint(
        game="skat",
        path="/api/v1/skat/score",
        name="api-skat-score",
        summary=gettext_lazy("Score a Skat game"),
        description=(
            gettext_lazy(
                "The value of a suit, grand or null game, whether it was won, overbidding, and "
                "the score on the list. Give the matadors as a count or as the declarer's 12 "
                "cards, and the result as card points and tricks, as the declarer's trick cards "
                "with the skat, or as a one-word outcome. Skat house rules are per request here: "
                "kontra, re, bock."
            )
        ),
        request=SkatScore,
        response={
            "won": {"type": "boolean"},
            "overbid": {
                "type": "boolean",
                "description": gettext_lazy("The game was worth less than the bid."),
            },
            "base_value": {
                "type": "integer",
                "description": gettext_lazy("Base value; for null the fixed null value."),
            },
            "multiplier": {
                "type": ["integer", "null"],
                "description": gettext_lazy("Sum of the levels; null for null games."),
            },
            "matadors": {
                "type": ["object", "null"],
                "description": gettext_lazy('{"with": N} or {"against": N}; null for null games.'),
            },
            "game_value": {
                "type": "integer",
                "description": gettext_lazy(
                    "The value the game is scored at, after the overbid adjustment, before doubling a loss and before Kontra/Re."
                ),
            },
            "score": {
                "type": "integer",
                "description": gettext_lazy(
                    "The declarer's list entry: +value, or −2 × value; ×2 Kontra, ×4 Re, ×2 Bock."
                ),
            },
            "contract": {
                "type": "string",
                "description": gettext_lazy("The declaration in words."),
            },
            "levels": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"level": {"type": "string"}, "count": {"type": "integer"}},
                },
            },
            "declarer_points": {"type": ["integer", "null"]},
            "declarer_tricks": {"type": ["integer", "null"]},
            "schneider": {"type": "boolean"},
            "schwarz": {"type": "boolean"},
            "explanation": EXPLANATION,
            "steps": STEPS,
        },
        response_required=(
            "won",
            "overbid",
            "base_value",
            "multiplier",
            "matadors",
            "game_value",
            "score",
            "explanation",
        ),
        examples=(
            (
                gettext_lazy("Clubs with 2, won with 72 points"),
                {
                    "game": "clubs",
                    "bid": 36,
                    "matadors": {"with": 2},
                    "declarer_points": 72,
                    "declarer_tricks": 6,
                },
            ),
            (
                gettext_lazy("Overbid: Diamonds without 1 after a bid of 22"),
                {"game": "diamonds", "bid": 22, "matadors": {"against": 1}, "outcome": "won"},
            ),
            (
                gettext_lazy("Grand Ouvert with 4"),
                {
                    "game": "grand",
                    "bid": 264,
                    "hand": True,
                    "ouvert": True,
                    "matadors": {"with": 4},
                    "outcome": "won_schwarz",
                },
            ),
            (
                gettext_lazy("Null Hand lost"),
                {"game": "null", "bid": 35, "hand": True, "declarer_tricks": 1},
            ),
        ),
    ),
    Endpoint(
        game="skat",
        path="/api/v1/skat/trick",
        name="api-skat-trick",
        summary=gettext_lazy("Who wins a Skat trick"),
        description=gettext_lazy(
            "Three cards in the order they were played; the answer is the index of the winning card."
        ),
        request=SkatTrick,
        response={
            "winner": {"type": "integer", "minimum": 0, "maximum": 2},
            "explanation": EXPLANATION,
            "steps": STEPS,
        },
        response_required=("winner", "explanation"),
        examples=(
            (
                gettext_lazy("Hearts: the J♦ is a trump"),
                {"game": "hearts", "cards": ["QH", "JD", "AH"]},
            ),
        ),
    ),
    Endpoint(
        game="skat",
        path="/api/v1/skat/follow",
        name="api-skat-follow",
        summary=gettext_lazy("Was a Skat card allowed?"),
        description=gettext_lazy(
            "The card led, a player's hand and the card they played: did they follow suit as they had to?"
        ),
        request=SkatFollow,
        response={"legal": {"type": "boolean"}, "explanation": EXPLANATION, "steps": STEPS},
        response_required=("legal", "explanation"),
        examples=(
            (
                gettext_lazy("Grand: J♣ must follow a jack led"),
                {"game": "grand", "led": "JH", "hand": ["JC", "AS", "7S"], "played": "AS"},
            ),
        ),
    ),
    Endpoint(
        game="pitch",
        path="/api/v1/pitch/hand",
        name="api-pitch-hand",
        summary=gettext_lazy("Score a Pitch hand"),
        description=gettext_lazy(
            "The bid, the pitching team, and which team took each of the 8 point cards (or that it was out of play)."
        ),
        request=PitchHand,
        response={
            "made": {"type": "boolean"},
            "taken": TEAM_NUMBERS,
            "delta": TEAM_NUMBERS,
            "scores_after": TEAM_NUMBERS,
            "game_over": {"type": "boolean"},
            "winner": {"type": ["string", "null"], "enum": ["A", "B", None]},
            "options": {"$ref": "#/components/schemas/PitchOptions"},
            "explanation": EXPLANATION,
            "steps": STEPS,
        },
        response_required=(
            "made",
            "taken",
            "delta",
            "scores_after",
            "game_over",
            "winner",
            "explanation",
        ),
        examples=(
            (
                gettext_lazy("Team A bids 5 and makes it"),
                {
                    "bid": 5,
                    "pitcher_team": "A",
                    "points": {
                        "ace": "A",
                        "jack": "A",
                        "off_jack": "B",
                        "high_joker": "A",
                        "low_joker": "B",
                        "ten": "A",
                        "two": "A",
                        "three": "B",
                    },
                },
            ),
            (
                gettext_lazy("Shooting the moon at 30"),
                {
                    "bid": "moon",
                    "pitcher_team": "B",
                    "scores_before": {"A": 41, "B": 30},
                    "points": {
                        "ace": "B",
                        "jack": "B",
                        "off_jack": "B",
                        "high_joker": "B",
                        "low_joker": "B",
                        "ten": "B",
                        "two": "B",
                        "three": "B",
                    },
                },
            ),
        ),
    ),
    Endpoint(
        game="pitch",
        path="/api/v1/pitch/trick",
        name="api-pitch-trick",
        summary=gettext_lazy("Who wins a Pitch trick"),
        description=gettext_lazy("2 to 4 trumps in play order (a player out of trumps sits out)."),
        request=PitchTrick,
        response={
            "winner": {"type": "integer", "minimum": 0, "maximum": 3},
            "explanation": EXPLANATION,
            "steps": STEPS,
        },
        response_required=("winner", "explanation"),
        examples=(
            (
                gettext_lazy("Spades: the ace beats the jokers and the off-jack"),
                {"trump": "S", "cards": ["2S", "JC", "JOKER-LOW", "AS"]},
            ),
        ),
    ),
    Endpoint(
        game="manipulation",
        path="/api/v1/manipulation/melds",
        name="api-manipulation-melds",
        summary=gettext_lazy("Are these melds valid?"),
        description=gettext_lazy(
            "Each meld is checked on its own: a sequence of one suit or a group of one rank."
        ),
        request=ManipulationMelds,
        response={
            "valid": {"type": "boolean"},
            "melds": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["valid", "kind", "reason"],
                    "properties": {
                        "valid": {"type": "boolean"},
                        "kind": {"type": ["string", "null"], "enum": ["sequence", "group", None]},
                        "reason": {"type": ["string", "null"]},
                    },
                },
            },
            "explanation": EXPLANATION,
            "steps": STEPS,
        },
        response_required=("valid", "melds"),
        examples=(
            (
                gettext_lazy("A sequence and a group"),
                {"melds": [["7H", "8H", "9H"], ["QS", "QH", "QD"]]},
            ),
        ),
    ),
    Endpoint(
        game="manipulation",
        path="/api/v1/manipulation/turn",
        name="api-manipulation-turn",
        summary=gettext_lazy("Was a turn legal?"),
        description=(
            gettext_lazy(
                "The table before and after a turn, and optionally the player's hand. A turn that "
                "breaks the rules answers 200 with legal false and every reason."
            )
        ),
        request=ManipulationTurn,
        response={
            "legal": {"type": "boolean"},
            "played": CARDS | {"description": gettext_lazy("Cards added from the hand.")},
            "reasons": {"type": "array", "items": {"type": "string"}},
            "explanation": EXPLANATION,
            "steps": STEPS,
        },
        response_required=("legal", "played", "reasons"),
        examples=(
            (
                gettext_lazy("Splitting a run to add a card"),
                {
                    "table_before": [["5H", "6H", "7H", "8H", "9H"]],
                    "table_after": [["5H", "6H", "7H"], ["7H", "8H", "9H"]],
                    "hand": ["7H", "KC"],
                },
            ),
            (
                gettext_lazy("A card from the table went missing"),
                {
                    "table_before": [["7H", "8H", "9H"]],
                    "table_after": [["8H", "9H", "10H"]],
                    "hand": ["10H"],
                },
            ),
        ),
    ),
    Endpoint(
        game="manipulation",
        path="/api/v1/manipulation/arrange",
        name="api-manipulation-arrange",
        summary=gettext_lazy("Can all these cards go down?"),
        description=gettext_lazy(
            "Whether the cards (up to 104, each at most twice) can be laid out as valid melds using every card, and one way to do it."
        ),
        request=ManipulationArrange,
        response={
            "possible": {"type": "boolean"},
            "melds": {"type": ["array", "null"], "items": CARDS},
            "explanation": EXPLANATION,
            "steps": STEPS,
        },
        response_required=("possible", "melds"),
        examples=(
            (
                gettext_lazy("Runs and a group from nine cards"),
                {"cards": ["7H", "8H", "9H", "QS", "QH", "QD", "10C", "JC", "QC"]},
            ),
        ),
    ),
    Endpoint(
        game="manipulation",
        path="/api/v1/manipulation/round",
        name="api-manipulation-round",
        summary=gettext_lazy("Score a Manipulation round"),
        description=gettext_lazy(
            "The cards left in each player's hand at the end of the round (the player who went out has none)."
        ),
        request=ManipulationRound,
        response={
            "penalties": {"type": "object", "additionalProperties": {"type": "integer"}},
            "scores_after": {"type": "object", "additionalProperties": {"type": "integer"}},
            "game_over": {"type": "boolean"},
            "winners": {"type": "array", "items": {"type": "string"}},
            "went_out": {"type": ["string", "null"]},
            "explanation": EXPLANATION,
            "steps": STEPS,
        },
        response_required=("penalties", "scores_after", "game_over", "winners", "explanation"),
        examples=(
            (
                gettext_lazy("Ana is caught with an ace and a ten"),
                {
                    "hands": {"Ana": ["AS", "10H"], "Ben": [], "Cem": ["4C"]},
                    "scores_before": {"Ana": 180, "Ben": 95, "Cem": 120},
                },
            ),
        ),
    ),
)

GAME_TITLES = {
    "skat": gettext_lazy("Skat"),
    "pitch": gettext_lazy("10-Point Pitch"),
    "manipulation": gettext_lazy("Manipulation"),
}


def _operation(endpoint: Endpoint) -> dict[str, Any]:
    request_schema = endpoint.request.schema()
    response_schema = {
        "type": "object",
        "properties": endpoint.response,
        "required": list(endpoint.response_required),
    }
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}}
    return {
        "post": {
            "operationId": endpoint.operation_id,
            "tags": [GAME_TITLES[endpoint.game]],
            "summary": endpoint.summary,
            "description": endpoint.description,
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": request_schema,
                        "examples": {
                            f"example{i}": {"summary": title, "value": value}
                            for i, (title, value) in enumerate(endpoint.examples, start=1)
                        },
                    }
                },
            },
            "responses": {
                "200": {
                    "description": "The referee's answer.",
                    "content": {"application/json": {"schema": response_schema}},
                },
                "400": {
                    "description": "The request could not be read: not JSON, wrong types, unknown or repeated cards, unknown fields.",
                    "content": error,
                },
                "405": {"description": "Only POST is answered.", "content": error},
                "422": {
                    "description": "The request is readable but breaks the rules (an illegal bid, a contradiction).",
                    "content": error,
                },
            },
        }
    }


def _extensions() -> tuple[dict[str, Any], dict[str, Any]]:
    """Paths and schemas other apps add (``OPENAPI_EXTENSIONS`` in the settings: dotted
    paths of functions returning ``(paths, schemas)``), so games never imports them."""
    paths: dict[str, Any] = {}
    schemas: dict[str, Any] = {}
    for dotted in getattr(settings, "OPENAPI_EXTENSIONS", ()):
        more_paths, more_schemas = import_string(dotted)()
        paths.update(more_paths)
        schemas.update(more_schemas)
    return paths, schemas


@cache
def schema() -> dict[str, Any]:
    extra_paths, extra_schemas = _extensions()
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Scorekeeper referee API",
            "version": "1.0.0",
            "description": (
                "The rules of Skat, 10-Point Pitch and Manipulation as a stateless JSON API. "
                "Score sheets keep the deals of a game at a real table; their totals are "
                "derived by replaying every deal through the rules. "
                "Every answer explains itself; bad input answers 4xx with "
                '{"errors": [{"field", "message"}]}.'
            ),
        },
        "paths": {
            **{endpoint.path: _operation(endpoint) for endpoint in ENDPOINTS},
            **SHEET_PATHS,
            **extra_paths,
        },
        "components": {
            "schemas": {
                "Card": CARD,
                "Errors": ERROR,
                "PitchOptions": PITCH_OPTIONS,
                "ManipulationOptions": MANIPULATION_OPTIONS,
                **SHEET_SCHEMAS,
                **extra_schemas,
            },
            "securitySchemes": {
                "token": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": (
                        "The sheet's edit token (writes and reads) or view token (reads "
                        "only); a season's view token reads its standings."
                    ),
                }
            },
        },
    }


def _type_names() -> dict[str, tuple[str, str]]:
    """What the API page calls each type of value: (one, several). JSON's own names
    (string, integer …) and the schema's components (Card …); null stays null."""
    return {
        "string": (
            pgettext("JSON type", "string"),
            pgettext("JSON types, after list of", "strings"),
        ),
        "integer": (
            pgettext("JSON type", "integer"),
            pgettext("JSON types, after list of", "integers"),
        ),
        "boolean": (
            pgettext("JSON type", "boolean"),
            pgettext("JSON types, after list of", "booleans"),
        ),
        "object": (
            pgettext("JSON type", "object"),
            pgettext("JSON types, after list of", "objects"),
        ),
        "array": (pgettext("JSON type", "array"), pgettext("JSON types, after list of", "arrays")),
        "null": ("null", "null"),
        "Card": (pgettext("JSON type", "card"), pgettext("JSON types, after list of", "cards")),
        "PitchOptions": (
            pgettext("JSON type", "pitch options"),
            pgettext("JSON types, after list of", "pitch options"),
        ),
        "ManipulationOptions": (
            pgettext("JSON type", "manipulation options"),
            pgettext("JSON types, after list of", "manipulation options"),
        ),
    }


def _either(labels: list[str]) -> str:
    """'integer or null': two (or more) types a field may have."""
    shown = labels[0]
    for label in labels[1:]:
        shown = pgettext("JSON type", "%(one)s or %(other)s") % {"one": shown, "other": label}
    return shown


def _type_label(schema: dict[str, Any], *, several: bool = False) -> str:
    """The type of a field as the API page shows it: "integer", "list of cards", the
    values of an enumeration ("A | B"). ``several``: the plural, for a list's items."""
    names = _type_names()

    def name(kind: str) -> str:
        one, many = names.get(kind, (kind, kind))
        return many if several else one

    if "$ref" in schema:
        return name(schema["$ref"].rsplit("/", 1)[-1])
    if "oneOf" in schema:
        return _either([_type_label(s, several=several) for s in schema["oneOf"]])
    kind = schema.get("type", "object")
    if kind == "array":
        items = schema.get("items", {})
        if not items:
            return (
                pgettext("JSON types, after list of", "lists")
                if several
                else pgettext("JSON type", "list")
            )
        if several:
            return pgettext("JSON types, after list of", "lists of %(items)s") % {
                "items": _type_label(items, several=True)
            }
        return pgettext("JSON type", "list of %(items)s") % {
            "items": _type_label(items, several=True)
        }
    if "enum" in schema:
        return " | ".join(str(v) for v in schema["enum"] if v is not None)
    if isinstance(kind, list):
        return _either([name(k) for k in kind])
    return name(kind)


@dataclass(frozen=True)
class FieldDoc:
    name: str
    type: str
    required: bool
    description: str


@dataclass(frozen=True)
class ExampleDoc:
    title: str
    request: str
    status: int
    response: str


@dataclass(frozen=True)
class EndpointDoc:
    endpoint: Endpoint
    fields: tuple[FieldDoc, ...]
    response_fields: tuple[FieldDoc, ...]
    examples: tuple[ExampleDoc, ...]

    @property
    def anchor(self) -> str:
        return self.endpoint.path.removeprefix("/api/v1/").replace("/", "-")


@dataclass(frozen=True)
class GameDoc:
    slug: str
    title: str
    endpoints: tuple[EndpointDoc, ...]


def _fields(properties: dict[str, Any], required: tuple[str, ...]) -> tuple[FieldDoc, ...]:
    return tuple(
        FieldDoc(name, _type_label(spec), name in required, spec.get("description", ""))
        for name, spec in properties.items()
    )


def _request_fields(endpoint: Endpoint) -> tuple[dict[str, Any], tuple[str, ...]]:
    request = endpoint.request.schema()
    return request["properties"], tuple(request["required"])


def documentation() -> tuple[GameDoc, ...]:
    """The API page's content, with each example answered by the referee itself, in
    the reader's language (the answers' messages are)."""
    return _documentation(get_language())


@cache
def _documentation(language: str | None) -> tuple[GameDoc, ...]:
    import json

    from django.urls import resolve

    from scorekeeper.i18n import localized

    games = []
    for slug, title in GAME_TITLES.items():
        docs = []
        for endpoint in (e for e in ENDPOINTS if e.game == slug):
            handler = resolve(endpoint.path).func.handler
            examples = []
            for example_title, request in endpoint.examples:
                status, payload = answer(handler, request)
                examples.append(
                    ExampleDoc(
                        example_title,
                        json.dumps(request, indent=2, ensure_ascii=False),
                        status,
                        json.dumps(localized(payload), indent=2, ensure_ascii=False),
                    )
                )
            docs.append(
                EndpointDoc(
                    endpoint,
                    _fields(*_request_fields(endpoint)),
                    _fields(endpoint.response, endpoint.response_required),
                    tuple(examples),
                )
            )
        games.append(GameDoc(slug, title, tuple(docs)))
    return tuple(games)


# -- Score sheets ----------------------------------------------------------------------

SHEET_ID = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
HAND_NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
    "description": "The deal's number on the sheet, from 1.",
}
IDEMPOTENCY_KEY = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "schema": {"type": "string", "maxLength": 100},
    "description": (
        "Any unique text, e.g. a UUID made when the deal was entered. The same key again "
        "(from the same link or account, or for a new sheet without an account from the "
        f"same address, within {KEY_DAYS} days) returns the first answer and changes "
        "nothing, so a retry never counts twice."
    ),
}
IF_MATCH = {
    "name": "If-Match",
    "in": "header",
    "required": False,
    "schema": {"type": "string"},
    "description": (
        'The sheet\'s ETag as the last answer gave it (e.g. "12-5"), a comma-separated list '
        "of entity-tags, * (any version), or the bare version number. If no tag names the "
        "sheet as it is now (it changed since, or the tag is not this sheet's), the write is "
        "refused with 412 and the sheet as it is now; a weak tag never matches. A header "
        "that is not a list of entity-tags is a 400."
    ),
}
DEAL_ID = {
    "name": "id",
    "in": "query",
    "required": False,
    "schema": {"type": "integer"},
    "description": (
        "The deal's id (hands[].id): the deal is found by it, so after another change "
        "moved it, or on a retry, it is still that deal (or 404), never the next one."
    ),
}
DEAL = {
    "type": "object",
    "description": (
        "The game's referee request with seats instead of teams or names. Skat: the "
        '/skat/score fields plus declarer (seat index), or {"passed": true} (with '
        '"ramsch": {points, tricks per seat, last_trick} on a Ramsch sheet; last_trick only '
        "when a tie for the most card points is settled by it); no bock (the sheet knows its "
        'Bock rounds). Or, by value as a paper list writes it: {"declarer": seat, "value": '
        "48} (a minus value is a lost game; bid optional): the value must be one some game "
        "can have on the sheet, Bock and Kontra/Re included. Pitch: pitcher (seat), bid, points. "
        "Manipulation: hands (cards left per seat) or penalties (per seat)."
    ),
    "examples": [
        {"declarer": 1, "game": "grand", "bid": 24, "matadors": {"with": 2}, "outcome": "won"},
        {"declarer": 2, "value": -96},
        {
            "pitcher": 1,
            "bid": 5,
            "points": {
                "ace": "B",
                "jack": "B",
                "off_jack": "A",
                "high_joker": "B",
                "low_joker": "B",
                "ten": "B",
                "two": "A",
                "three": "A",
            },
        },
        {"penalties": [25, 0, 5]},
    ],
}
SEAT_NUMBERS = {"type": "array", "items": {"type": "integer"}}
HAND = {
    "type": "object",
    "required": ["id", "number", "entry", "score", "totals", "explanation"],
    "properties": {
        "id": {"type": "integer", "description": "The deal's identity; it never changes."},
        "number": {"type": "integer"},
        "entry": {"type": "object", "description": "The deal exactly as it was entered."},
        "dealer": {"type": "integer"},
        "score": SEAT_NUMBERS | {"description": "What the deal changed, per seat."},
        "totals": SEAT_NUMBERS | {"description": "Running totals per seat after the deal."},
        "summary": {"type": "string"},
        "explanation": EXPLANATION,
        "steps": STEPS,
    },
}
SHEET = {
    "type": "object",
    "required": ["id", "game", "players", "options", "hands", "totals", "finished", "winners"],
    "properties": {
        "id": {"type": "integer"},
        "game": {"type": "string", "enum": ["skat", "pitch", "manipulation"]},
        "players": {"type": "array", "items": {"type": "string"}},
        "first_dealer": {"type": "integer"},
        "played_on": {
            "type": "string",
            "format": "date",
            "description": "The day the sheet was played (YYYY-MM-DD): the evening it counts for.",
        },
        "options": {"type": "object"},
        "options_summary": {"type": "array", "items": {"type": "string"}},
        "hands": {"type": "array", "items": {"$ref": "#/components/schemas/Hand"}},
        "totals": SEAT_NUMBERS | {"description": "Per seat (Pitch: each seat's team)."},
        "team_totals": {"type": "object", "description": 'Pitch only: {"A": n, "B": n}.'},
        "finished": {"type": "boolean"},
        "winners": SEAT_NUMBERS,
        "winner_names": {"type": "array", "items": {"type": "string"}},
        "headline": {"type": "string"},
        "next_deal": {"type": ["object", "null"]},
        "version": {"type": "integer"},
        "edit_token": {
            "type": "string",
            "description": "Only in the answer that created the sheet.",
        },
        "view_token": {
            "type": "string",
            "description": "Only in the answer that created the sheet.",
        },
        "urls": {"type": "object"},
    },
}
HAND_ANSWER = {
    "type": "object",
    "required": ["hand", "totals", "finished", "winners"],
    "properties": {
        "hand": {"$ref": "#/components/schemas/Hand"},
        "totals": SEAT_NUMBERS,
        "team_totals": {"type": "object"},
        "finished": {"type": "boolean"},
        "winners": SEAT_NUMBERS,
        "headline": {"type": "string"},
    },
}


def _answers(ok: str, schema: dict[str, Any], *, missing: bool = True) -> dict[str, Any]:
    error = {"application/json": {"schema": {"$ref": "#/components/schemas/Errors"}}}
    answers = {
        ok: {"description": "Done.", "content": {"application/json": {"schema": schema}}},
        "400": {"description": "The request could not be read.", "content": error},
        "422": {"description": "It breaks a rule, or the game is already over.", "content": error},
    }
    if missing:
        answers["403"] = {
            "description": "The view token cannot change the sheet.",
            "content": error,
        }
        answers["404"] = {"description": "No sheet with that id for this token.", "content": error}
        answers["410"] = {"description": "The sheet is in the trash.", "content": error}
        answers["412"] = {
            "description": (
                "If-Match named an older version: nothing changed; the answer's sheet is "
                "the sheet as it is now."
            ),
            "content": error,
        }
    return answers


def _json_body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


SHEET_PATHS: dict[str, dict[str, Any]] = {
    "/api/v1/sheets": {
        "post": {
            "operationId": "sheet_create",
            "tags": ["Score sheets"],
            "summary": gettext_lazy("Start a score sheet"),
            "description": gettext_lazy(
                "Skat takes 3 to 5 players (at four the dealer sits out each deal, at five also the third player to the dealer's left), Pitch exactly 4 (seats 1+3 team A, 2+4 team B), Manipulation 3 to 5. The answer carries the edit and view tokens."
            ),
            "parameters": [IDEMPOTENCY_KEY],
            "requestBody": _json_body(
                {
                    "type": "object",
                    "required": ["game", "players"],
                    "properties": {
                        "game": {"type": "string", "enum": ["skat", "pitch", "manipulation"]},
                        "players": {
                            "type": "array",
                            "items": {"type": "string"},
                            "description": "Names in seat order.",
                        },
                        "first_dealer": {"type": "integer", "default": 0},
                        "options": {
                            "type": "object",
                            "description": "The game's sheet options; every one has a default.",
                        },
                        "played_on": {
                            "type": ["string", "null"],
                            "format": "date",
                            "description": (
                                "The day it was played (YYYY-MM-DD), at the latest tomorrow; "
                                "today (the server's time zone) when left out or null."
                            ),
                        },
                    },
                }
            ),
            "responses": _answers("201", {"$ref": "#/components/schemas/Sheet"}, missing=False),
        }
    },
    "/api/v1/sheets/{id}": {
        "get": {
            "operationId": "sheet_read",
            "tags": ["Score sheets"],
            "summary": gettext_lazy(
                "Read a sheet: every deal with its scores and explanation, the totals"
            ),
            "parameters": [SHEET_ID],
            "security": [{"token": []}],
            "responses": _answers("200", {"$ref": "#/components/schemas/Sheet"}),
        }
    },
    "/api/v1/sheets/{id}/hands": {
        "post": {
            "operationId": "hand_record",
            "tags": ["Score sheets"],
            "summary": gettext_lazy("Add the next deal"),
            "description": gettext_lazy(
                "The dealer rotates by itself. A deal after the game is finished is refused."
            ),
            "parameters": [SHEET_ID, IDEMPOTENCY_KEY, IF_MATCH],
            "security": [{"token": []}],
            "requestBody": _json_body({"$ref": "#/components/schemas/Deal"}),
            "responses": _answers("201", {"$ref": "#/components/schemas/HandAnswer"}),
        }
    },
    "/api/v1/sheets/{id}/hands/{number}": {
        "put": {
            "operationId": "hand_correct",
            "tags": ["Score sheets"],
            "summary": gettext_lazy("Correct a deal; every later deal is re-scored"),
            "parameters": [SHEET_ID, HAND_NUMBER, DEAL_ID, IDEMPOTENCY_KEY, IF_MATCH],
            "security": [{"token": []}],
            "requestBody": _json_body({"$ref": "#/components/schemas/Deal"}),
            "responses": _answers("200", {"$ref": "#/components/schemas/HandAnswer"}),
        },
        "delete": {
            "operationId": "hand_remove",
            "tags": ["Score sheets"],
            "summary": gettext_lazy("Remove a deal; later deals move up and are re-scored"),
            "parameters": [SHEET_ID, HAND_NUMBER, DEAL_ID, IDEMPOTENCY_KEY, IF_MATCH],
            "security": [{"token": []}],
            "responses": _answers("200", {"$ref": "#/components/schemas/Sheet"}),
        },
    },
}
SHEET_SCHEMAS = {"Deal": DEAL, "Hand": HAND, "Sheet": SHEET, "HandAnswer": HAND_ANSWER}


@dataclass(frozen=True)
class OperationDoc:
    method: str
    path: str
    summary: str
    description: str

    @property
    def anchor(self) -> str:
        if self.path.startswith("/api/v1/sheets"):
            rest = self.path.removeprefix("/api/v1/sheets")
            prefix = "sheets-"
        else:
            rest = "-" + self.path.removeprefix("/api/v1/")
            prefix = "api-"
        return (
            prefix + self.method.lower() + rest.replace("/", "-").replace("{", "").replace("}", "")
        )


def sheet_documentation() -> tuple[OperationDoc, ...]:
    """The stateful operations for the API page: the sheets', then the other apps'."""
    return tuple(
        OperationDoc(method.upper(), path, operation["summary"], operation.get("description", ""))
        for path, operations in {**SHEET_PATHS, **_extensions()[0]}.items()
        for method, operation in operations.items()
    )
