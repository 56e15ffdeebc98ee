"""Typed request declarations: one source for reading a request and for its OpenAPI
description (issue 17, "Built right"), and the endpoints apart from their description."""

from __future__ import annotations

import ast
import datetime
import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext_lazy
from jsonschema import Draft202012Validator

from games import openapi
from games.api_declarations import (
    Choice,
    Date,
    Integer,
    ListOf,
    Nested,
    Request,
    Text,
    spec,
)
from games.api_input import Body, UnreadableInput
from games.api_requests import SkatFollow, SkatScore, SkatTrick
from games.rules.cards import card

pytestmark = pytest.mark.django_db(databases=[])

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("games", "circles", "accounts", "scorekeeper")


# -- games/api.py and games/openapi.py no longer import each other --------------------


def _module_file(name: str) -> Path | None:
    path = ROOT.joinpath(*name.split("."))
    for candidate in (path.with_suffix(".py"), path / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _imports(name: str) -> set[str]:
    """The project's modules that ``name`` imports anywhere in its file (inside
    functions too): ``from games import openapi`` counts as ``games.openapi``."""
    tree = ast.parse(_module_file(name).read_text(encoding="utf-8"))
    package = name if _module_file(name).name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join([*parts[: len(parts) - node.level + 1], *filter(None, [base])])
            targets = [base] + [f"{base}.{alias.name}" for alias in node.names]
        else:
            continue
        found.update(
            target
            for target in targets
            if target.split(".")[0] in PACKAGES and _module_file(target) is not None
        )
    return found - {name}


def _reachable(start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for imported in _imports(todo.pop()):
            if imported not in seen:
                seen.add(imported)
                todo.append(imported)
    return seen


def test_the_import_reader_sees_every_form_of_import():
    found = _imports("games.openapi")
    assert {"games.api_declarations", "games.api_input", "games.api_requests"} <= found
    assert "scorekeeper.i18n" in found  # imported inside a function


@pytest.mark.parametrize(
    ("module", "other"), [("games.api", "games.openapi"), ("games.openapi", "games.api")]
)
def test_the_endpoints_and_their_description_do_not_import_each_other(module, other):
    assert other not in _imports(module)
    assert other not in _reachable(module), f"{module} reaches {other} through another module"


# -- One source: the served schema is the declaration's -------------------------------

DECLARED = {endpoint.path: endpoint.request for endpoint in openapi.ENDPOINTS}


def _english(schema: dict) -> dict:
    with translation.override("en"):
        return json.loads(json.dumps(schema, default=str))


def test_every_referee_endpoint_is_declared():
    assert DECLARED["/api/v1/skat/score"] is SkatScore
    assert DECLARED["/api/v1/skat/trick"] is SkatTrick
    assert DECLARED["/api/v1/skat/follow"] is SkatFollow
    assert all(issubclass(declaration, Request) for declaration in DECLARED.values())
    assert len(set(DECLARED.values())) == len(DECLARED) == 9


@pytest.mark.parametrize(("path", "declaration"), DECLARED.items())
def test_the_served_request_schema_is_the_declarations(client, path, declaration):
    served = client.get("/api/v1/openapi.json").json()
    body = served["paths"][path]["post"]["requestBody"]["content"]["application/json"]
    assert body["schema"] == _english(declaration.schema())
    Draft202012Validator.check_schema(body["schema"])
    for example in body["examples"].values():
        # Every documented example reads without a problem.
        assert isinstance(declaration.read(Body(dict(example["value"]))), declaration)


def test_the_api_page_lists_the_declared_fields_in_the_readers_language(client):
    html = client.get("/de/api/").content.decode()
    # SkatScore's field descriptions, as the German catalogue says them.
    with translation.override("de"):
        for _attribute, name, declared in SkatScore.declarations():
            assert f"<code>{name}</code>" in html
            assert escape(str(declared.spec.description)) in html


# -- A body the declaration refuses gets the errors it always got ----------------------
# The expected errors are what the endpoints answered before their requests were
# declared (the hand-written readers of games/api.py at 3d873f2).

REFUSED = [
    (
        "en",
        "/api/v1/pitch/hand",
        {
            "bid": "mond",
            "pitcher_team": "C",
            "points": {"ace": 3},
            "scores_before": {"A": "1", "B": 2.5},
            "zz": 1,
        },
        [
            ("bid", 'The bid must be a number from 4 to 9, or "moon".'),
            ("pitcher_team", 'Pitcher team must be "A" (seats 1 and 3) or "B" (seats 2 and 4).'),
            ("zz", '"zz" is not a field of this request.'),
            ("points.ace", 'Say who took it: "A", "B" or "out", not a number.'),
            ("scores_before.A", "A must be a whole number, not text."),
            ("scores_before.B", "B must be a whole number, not 2.5."),
        ],
    ),
    (
        "de",
        "/api/v1/pitch/hand",
        {},
        [
            ("bid", "„bid“ fehlt."),
            (
                "pitcher_team",
                'Das Team des Ausspielers fehlt; gib "A" (Plätze 1 und 3) oder "B" (Plätze 2 '
                "und 4) an.",
            ),
            ("points", "„points“ fehlt."),
        ],
    ),
    (
        "de",
        "/api/v1/pitch/trick",
        {"trump": 3, "cards": ["2S"]},
        [
            (
                "trump",
                'Trumpf muss ein Farbbuchstabe sein ("C", "S", "H" oder "D"), nicht eine Zahl.',
            )
        ],
    ),
    (
        "en",
        "/api/v1/manipulation/melds",
        {"melds": [["7H", "8H", "9H"], "x", ["ZZ"]], "options": {"ace": "x"}},
        [
            (
                "melds.1",
                'Give the cards as a list of codes like ["JC", "10H"]; got something else.',
            ),
            (
                "melds.2.0",
                '"ZZ" is not a card. Write rank then suit, for example JC for the jack of clubs '
                "or 10H for the ten of hearts.",
            ),
        ],
    ),
    (
        "en",
        "/api/v1/manipulation/turn",
        {
            "table_before": [["7H", "8H", "9H"]],
            "table_after": [["7H", "8H", "9H", "10H"]],
            "hand": ["10H", "QQ"],
            "optionz": {},
        },
        [
            (
                "hand.1",
                '"QQ" is not a card. Write rank then suit, for example JC for the jack of clubs '
                "or 10H for the ten of hearts.",
            ),
            ("optionz", '"optionz" is not a field of this request. Did you mean "options"?'),
        ],
    ),
    (
        "en",
        "/api/v1/manipulation/round",
        {"hands": {"Ana": ["AS", "XX"], "Ben": 3, "Cem": []}, "scores_before": {"Ana": "x"}},
        [
            (
                "hands.Ana.1",
                '"XX" is not a card. Write rank then suit, for example JC for the jack of clubs '
                "or 10H for the ten of hearts.",
            ),
            ("hands.Ben", 'Give the cards as a list of codes like ["JC", "10H"]; got a number.'),
            ("scores_before.Ana", "Ana must be a whole number, not text."),
        ],
    ),
    (
        "en",
        "/api/v1/skat/score",
        {
            "game": "clubs",
            "bid": 17.5,
            "hand": 1,
            "announced": "x",
            "outcome": "wn",
            "handd": True,
            "declarer_cards": ["JC", "JC", "JC"],
        },
        [
            ("bid", "Bid must be a whole number, not 17.5."),
            ("hand", "Hand must be true or false, not a number."),
            ("announced", '"x" is not a choice here; use one of "none", "schneider" or "schwarz".'),
            ("declarer_cards", "J♣ is there 3 times, but a Skat deck has only one jack of clubs."),
            (
                "outcome",
                '"wn" is not a choice here; use one of "won", "won_schneider", "won_schwarz", '
                '"lost", "lost_schneider" or "lost_schwarz". Did you mean "won"?',
            ),
            ("handd", '"handd" is not a field of this request. Did you mean "hand"?'),
        ],
    ),
    (
        "en",
        "/api/v1/skat/score",
        {"game": None, "bid": "18", "matadors": {"mit": 2}, "declarer_points": [], "skat": "JC"},
        [
            (
                "game",
                'Game must be one of "diamonds", "hearts", "spades", "clubs", "grand" or "null", '
                "not null.",
            ),
            ("bid", "Bid must be a whole number, not text."),
            ("matadors", 'Give matadors as {"with": N} or {"against": N}; "mit" is neither.'),
            ("declarer_points", "Declarer points must be a whole number, not a list."),
            ("skat", 'Give the cards as a list of codes like ["JC", "10H"]; got something else.'),
        ],
    ),
    (
        "en",
        "/api/v1/skat/trick",
        {"cards": "JC"},
        [
            ("game", "Game is missing."),
            ("cards", 'Give the cards as a list of codes like ["JC", "10H"]; got something else.'),
        ],
    ),
    (
        "en",
        "/api/v1/skat/follow",
        {"game": "grand", "led": "XX", "hand": ["JC"], "played": 3},
        [
            (
                "led",
                '"XX" is not a card. Write rank then suit, for example JC for the jack of clubs '
                "or 10H for the ten of hearts.",
            ),
            ("played", 'Each card must be written as text, like "JC"; got a number.'),
        ],
    ),
    (
        "de",
        "/api/v1/skat/score",
        {"game": None, "bid": "18", "matadors": {"mit": 2}, "declarer_points": [], "skat": "JC"},
        [
            (
                "game",
                '„game“ muss eines von "diamonds", "hearts", "spades", "clubs", "grand" '
                'oder "null" sein, nicht null.',
            ),
            ("bid", "„bid“ muss eine ganze Zahl sein, nicht Text."),
            (
                "matadors",
                'Gib die Spitzen als {"with": N} oder {"against": N} an; „mit“ ist keins von beiden.',
            ),
            ("declarer_points", "„declarer_points“ muss eine ganze Zahl sein, nicht eine Liste."),
            (
                "skat",
                'Gib die Karten als Liste von Codes an, etwa ["JC", "10H"]; du hast etwas '
                "anderes angegeben.",
            ),
        ],
    ),
    (
        "de",
        "/api/v1/skat/trick",
        {"cards": "JC"},
        [
            ("game", "„game“ fehlt."),
            (
                "cards",
                'Gib die Karten als Liste von Codes an, etwa ["JC", "10H"]; du hast etwas '
                "anderes angegeben.",
            ),
        ],
    ),
]


@pytest.mark.parametrize(("language", "path", "body", "expected"), REFUSED)
def test_a_body_the_declaration_refuses_gets_the_same_errors_as_before(
    client, language, path, body, expected
):
    response = client.post(
        path, json.dumps(body), content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    assert [(e["field"], e["message"]) for e in response.json()["errors"]] == expected
    with translation.override(language):
        with pytest.raises(UnreadableInput) as refused:
            DECLARED[path].read(Body(body))
        # A referee's sentence is shown in the active language when it is made a str.
        told = [(p.field, str(p.message)) for p in refused.value.problems]
    assert told == expected


def test_a_declared_request_reads_into_typed_values():
    read = SkatScore.read(
        Body({"game": " Grand ", "bid": 24, "matadors": {"with": 2}, "outcome": "won"})
    )
    assert read.game == "grand"
    assert read.bid == 24
    assert (read.hand, read.ouvert, read.announced) == (False, False, "none")
    assert read.matadors.as_dict() == {"with": 2}
    assert read.declarer_cards is None
    follow = SkatFollow.read(Body({"game": "null", "led": "7H", "hand": ["8H"], "played": "8H"}))
    assert follow.led == card("7H")
    assert follow.hand == [card("8H")]


def test_a_range_that_is_a_rule_is_left_to_the_referee(client):
    """A bid of 300 reads (the declaration only describes 18 to 264); the referee refuses
    it with the reason, 422 (ISkO 3.2.2: no game is worth more than Grand Ouvert with 4)."""
    assert SkatScore.read(Body({"game": "grand", "bid": 300})).bid == 300
    response = client.post(
        "/api/v1/skat/score",
        json.dumps({"game": "grand", "bid": 300, "matadors": {"with": 4}, "outcome": "won"}),
        content_type="application/json",
    )
    assert response.status_code == 422
    assert response.json()["errors"][0]["field"] == "bid"


# -- The mechanism for requests to come (the evenings' shapes) ------------------------


@dataclass(frozen=True)
class Fee(Request):
    start: int = field(
        metadata=spec(Integer("From this lost game on.", minimum=1), required=True, name="from")
    )
    amount: str = field(metadata=spec(Text("Money, as a decimal string.", max_length=10)))


@dataclass(frozen=True)
class Evening(Request):
    name: str = field(metadata=spec(Text(gettext_lazy("Name"), max_length=20), required=True))
    date: datetime.date = field(metadata=spec(Date("The day."), required=True))
    series: int = field(metadata=spec(Integer("Series.", minimum=1, maximum=12, default=3)))
    tables: str = field(
        metadata=spec(Choice(("fours_first", "threes_first"), "Tables.", default="fours_first"))
    )
    circle: int | None = field(metadata=spec(Integer("A circle.", minimum=1), nullable=True))
    names: list[str] = field(
        metadata=spec(
            ListOf(Text(max_length=20), "Names.", min_items=1, max_items=3), required=True
        )
    )
    fees: list[Fee] | None = field(metadata=spec(ListOf(Nested(Fee), "Fees.")))


GOOD = {
    "name": "  Tuesday  ",
    "date": "2026-09-01",
    "names": ["Ana", " Ben "],
    "fees": [{"from": 1, "amount": "0.50"}],
}


def test_a_declaration_reads_dates_texts_lists_and_nested_objects_into_typed_values():
    evening = Evening.read(Body(dict(GOOD)))
    assert evening == Evening(
        name="Tuesday",
        date=datetime.date(2026, 9, 1),
        series=3,
        tables="fours_first",
        circle=None,
        names=["Ana", "Ben"],
        fees=[Fee(start=1, amount="0.50")],
    )
    assert Evening.read(Body({**GOOD, "circle": None, "series": 12})).series == 12


BAD = {
    "name": "   ",
    "date": "1.9.2026",
    "series": 13,
    "tables": "fives",
    "circle": 0,
    "names": ["Ana", 7, "x" * 21],
    "fees": [{"amount": 5, "to": 3}],
    "money": {},
}


def test_every_problem_is_named_by_its_field():
    with translation.override("en"), pytest.raises(UnreadableInput) as refused:
        Evening.read(Body(dict(BAD)))
    assert [(p.field, p.message) for p in refused.value.problems] == [
        ("name", "Name is empty."),
        ("date", "Date must be a day written YYYY-MM-DD, such as 2026-09-01."),
        ("series", "Series must be from 1 to 12."),
        ("tables", '"fives" is not a choice here; use one of "fours_first" or "threes_first".'),
        ("circle", "Circle must be at least 1."),
        ("money", '"money" is not a field of this request.'),
        ("names.1", "Entry 2 must be text, not a number."),
        ("names.2", "Entry 3 is longer than 20 characters."),
        ("fees.0.from", "From is missing."),
        ("fees.0.amount", "Amount must be text, not a number."),
        ("fees.0.to", '"to" is not a field of this request.'),
    ]


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"names": []}, "names", "Names needs at least 1 entry."),
        ({"names": ["a", "b", "c", "d"]}, "names", "Names takes at most 3 entries."),
        ({"series": 0, "names": ["a"]}, "series", "Series must be from 1 to 12."),
        ({"name": 5, "names": ["a"]}, "name", "Name must be text, not a number."),
    ],
)
def test_counts_and_ranges_are_checked_by_the_reader(body, field, message):
    with translation.override("en"), pytest.raises(UnreadableInput) as refused:
        Evening.read(Body({**GOOD, **body}))
    assert [(p.field, p.message) for p in refused.value.problems] == [(field, message)]


@pytest.mark.parametrize(
    ("language", "messages"),
    [
        (
            "de",
            [
                "„name“ ist leer.",
                "„date“ muss ein Tag in der Form JJJJ-MM-TT sein, etwa 2026-09-01.",
                "„series“ muss zwischen 1 und 12 liegen.",
                "„circle“ muss mindestens 1 sein.",
                "„Eintrag 3“ ist länger als 20 Zeichen.",
                "„amount“ muss Text sein, nicht eine Zahl.",
            ],
        ),
        (
            "eo",
            [
                "“name” estas malplena.",
                "“date” devas esti tago skribita JJJJ-MM-TT, ekzemple 2026-09-01.",
                "“series” devas esti inter 1 kaj 12.",
                "“circle” devas esti almenaŭ 1.",
                "“Ero 3” estas pli longa ol 20 signoj.",
                "“amount” devas esti teksto, ne nombro.",
            ],
        ),
    ],
)
def test_the_problems_are_told_in_the_requests_language(language, messages):
    with translation.override(language), pytest.raises(UnreadableInput) as refused:
        Evening.read(Body(dict(BAD)))
    told = [p.message for p in refused.value.problems]
    for message in messages:
        assert message in told


def test_the_schema_comes_from_the_same_declaration():
    schema = _english(Evening.schema())
    assert schema == {
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Name", "minLength": 1, "maxLength": 20},
            "date": {"type": "string", "description": "The day.", "format": "date"},
            "series": {
                "type": "integer",
                "description": "Series.",
                "minimum": 1,
                "maximum": 12,
                "default": 3,
            },
            "tables": {
                "type": "string",
                "description": "Tables.",
                "enum": ["fours_first", "threes_first"],
                "default": "fours_first",
            },
            "circle": {"type": ["integer", "null"], "description": "A circle.", "minimum": 1},
            "names": {
                "type": "array",
                "description": "Names.",
                "items": {"type": "string", "minLength": 1, "maxLength": 20},
                "minItems": 1,
                "maxItems": 3,
            },
            "fees": {
                "type": "array",
                "description": "Fees.",
                "items": {
                    "type": "object",
                    "properties": {
                        "from": {
                            "type": "integer",
                            "description": "From this lost game on.",
                            "minimum": 1,
                        },
                        "amount": {
                            "type": "string",
                            "description": "Money, as a decimal string.",
                            "minLength": 1,
                            "maxLength": 10,
                        },
                    },
                    "required": ["from"],
                    "additionalProperties": False,
                },
            },
        },
        "required": ["name", "date", "names"],
        "additionalProperties": False,
    }
    validator = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    Draft202012Validator.check_schema(schema)
    assert not list(validator.iter_errors(GOOD))
    # What the reader refuses, the schema refuses too, field by field.
    errors = list(validator.iter_errors(BAD))
    refused_fields = {error.absolute_path[0] for error in errors if error.absolute_path}
    assert refused_fields >= {"date", "series", "tables", "circle", "names", "fees"}
    assert any(error.validator == "additionalProperties" for error in errors)  # money


def test_an_apps_path_takes_its_request_body_from_the_declaration():
    body = Evening.request_body()
    assert body["required"] is True
    assert body["content"]["application/json"]["schema"] == Evening.schema()


def test_a_required_field_cannot_be_declared_nullable():
    with pytest.raises(ValueError, match="cannot be null"):
        spec(Integer(), required=True, nullable=True)
