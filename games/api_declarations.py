"""Typed request declarations: one source for reading a JSON body and for describing it.

A request is declared once, as a frozen dataclass whose fields carry their JSON
spec (type, required or not, range, choices, the description the API page shows in
the reader's language)::

    @dataclass(frozen=True)
    class SkatTrick(Request):
        game: str = field(
            metadata=spec(Choice(GAMES, gettext_lazy("The game being played.")), required=True)
        )
        cards: list[Card] = field(metadata=spec(Cards(SKAT_DECK), required=True))

``SkatTrick.read(body)`` reads a :class:`games.api_input.Body` into an instance (every
shape problem at once, each named by its field, in the request's language, raised as
:class:`games.api_input.UnreadableInput`: a 400), and ``SkatTrick.schema()`` is the
request's JSON Schema for the OpenAPI description, so the two cannot drift apart.

Any app's API can declare its requests with this module (the evenings' too: an app
beside ``games`` imports it, never the other way round); it knows the request shapes
of no endpoint, only how to read and describe fields. ``Request.request_body()`` is
the OpenAPI ``requestBody`` for a path an app adds through ``OPENAPI_EXTENSIONS``;
``games.api_input.errors_json`` writes the problems in the API's error format.
"""

from __future__ import annotations

import dataclasses
import datetime
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, ClassVar, Self

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.api_input import Body, describe, label, missing_message
from games.rules.cards import Card, Deck

CARD_REF = {"$ref": "#/components/schemas/Card"}

Description = Any  # a (lazy) translatable text, or a plain string the page shows as it is


class Spec(ABC):
    """How one field is read from a body and described in the schema (each kind of
    field says both)."""

    description: Description = ""

    @abstractmethod
    def read(self, body: Body, name: str | int, required: bool) -> Any:
        """The field's value from ``body``, or a problem added to it under ``name``."""

    @abstractmethod
    def schema(self) -> dict[str, Any]:
        """The field's JSON Schema."""

    def _described(self, schema: dict[str, Any]) -> dict[str, Any]:
        if self.description:
            schema["description"] = self.description
        return schema


@dataclasses.dataclass(frozen=True)
class Boolean(Spec):
    """true or false; left out or null is the default."""

    description: Description = ""
    default: bool = False

    def read(self, body: Body, name: str | int, required: bool) -> bool:
        return body.boolean(name, default=self.default)

    def schema(self) -> dict[str, Any]:
        return self._described({"type": "boolean", "default": self.default})


@dataclasses.dataclass(frozen=True)
class Integer(Spec):
    """A whole number. ``minimum``/``maximum`` are checked here unless ``rule_range``: then
    the range is a rule of the game, described here and judged by the referee (422)."""

    description: Description = ""
    minimum: int | None = None
    maximum: int | None = None
    default: int | None = None
    rule_range: bool = False

    def read(self, body: Body, name: str | int, required: bool) -> int | None:
        number = body.integer(name, required=required and self.default is None)
        if number is None:
            return self.default if not body.has(name) else None
        if not self.rule_range and not self._within(number):
            body.add(name, self._range_message(name))
            return None
        return number

    def _within(self, number: int) -> bool:
        return (self.minimum is None or number >= self.minimum) and (
            self.maximum is None or number <= self.maximum
        )

    def _range_message(self, name: str | int) -> str:
        values = {"field": label(name), "minimum": self.minimum, "maximum": self.maximum}
        if self.maximum is None:
            return _("%(field)s must be at least %(minimum)d.") % values
        if self.minimum is None:
            return _("%(field)s must be at most %(maximum)d.") % values
        return _("%(field)s must be from %(minimum)d to %(maximum)d.") % values

    def schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = self._described({"type": "integer"})
        if self.minimum is not None:
            schema["minimum"] = self.minimum
        if self.maximum is not None:
            schema["maximum"] = self.maximum
        if self.default is not None:
            schema["default"] = self.default
        return schema


@dataclasses.dataclass(frozen=True)
class Choice(Spec):
    """A word from a fixed list; case and surrounding spaces do not matter."""

    values: tuple[str, ...]
    description: Description = ""
    default: str | None = None

    def read(self, body: Body, name: str | int, required: bool) -> str | None:
        return body.choice(name, self.values, default=self.default, required=required)

    def schema(self) -> dict[str, Any]:
        schema = self._described({"type": "string", "enum": list(self.values)})
        if self.default is not None:
            schema["default"] = self.default
        return schema


@dataclasses.dataclass(frozen=True)
class Text(Spec):
    """Text, with the spaces around it dropped; never empty."""

    description: Description = ""
    max_length: int | None = None

    def read(self, body: Body, name: str | int, required: bool) -> str | None:
        value = body.raw(name)
        if value is None:
            if required:
                body.add(name, missing_message(name))
            return None
        if not isinstance(value, str):
            body.add(
                name,
                _("%(field)s must be text, not %(value)s.")
                % {"field": label(name), "value": describe(value)},
            )
            return None
        text = value.strip()
        if not text:
            body.add(name, _("%(field)s is empty.") % {"field": label(name)})
            return None
        if self.max_length is not None and len(text) > self.max_length:
            body.add(
                name,
                ngettext(
                    "%(field)s is longer than %(count)d character.",
                    "%(field)s is longer than %(count)d characters.",
                    self.max_length,
                )
                % {"field": label(name), "count": self.max_length},
            )
            return None
        return text

    def schema(self) -> dict[str, Any]:
        schema = self._described({"type": "string", "minLength": 1})
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        return schema


@dataclasses.dataclass(frozen=True)
class Date(Spec):
    """A day written as ISO 8601 (YYYY-MM-DD), read into a ``datetime.date``."""

    description: Description = ""

    def read(self, body: Body, name: str | int, required: bool) -> datetime.date | None:
        value = body.raw(name)
        if value is None:
            if required:
                body.add(name, missing_message(name))
            return None
        day = None
        if isinstance(value, str) and len(value.strip()) == 10:
            try:
                day = datetime.date.fromisoformat(value.strip())
            except ValueError:
                day = None
        if day is None:
            body.add(
                name,
                _("%(field)s must be a day written YYYY-MM-DD, such as %(example)s.")
                % {"field": label(name), "example": "2026-09-01"},
            )
        return day

    def schema(self) -> dict[str, Any]:
        return self._described({"type": "string", "format": "date"})


@dataclasses.dataclass(frozen=True)
class Cards(Spec):
    """A list of card codes of one deck. The number of cards is described here and
    judged by the referee, whose message says why that many (a trick has 3 …)."""

    deck: Deck
    description: Description = ""
    min_items: int | None = None
    max_items: int | None = None
    copies: int | None = None

    def read(self, body: Body, name: str | int, required: bool) -> list[Card] | None:
        return body.cards(name, self.deck, required=required, copies=self.copies)

    def schema(self) -> dict[str, Any]:
        schema = self._described({"type": "array", "items": CARD_REF})
        if self.min_items is not None:
            schema["minItems"] = self.min_items
        if self.max_items is not None:
            schema["maxItems"] = self.max_items
        return schema


@dataclasses.dataclass(frozen=True)
class OneCard(Spec):
    """One card code (always required: a card asked for is needed)."""

    deck: Deck
    description: Description = ""

    def read(self, body: Body, name: str | int, required: bool) -> Card | None:
        return body.card(name, self.deck)

    def schema(self) -> dict[str, Any]:
        return self._described(dict(CARD_REF))


@dataclasses.dataclass(frozen=True)
class ListOf(Spec):
    """A list whose entries are each read by ``items`` (problems at ``name.0``, …)."""

    items: Spec
    description: Description = ""
    min_items: int = 0
    max_items: int | None = None

    def read(self, body: Body, name: str | int, required: bool) -> list[Any] | None:
        values = body.list(name, required=required)
        if values is None:
            return None
        count = len(values)
        if count < self.min_items:
            body.add(
                name,
                ngettext(
                    "%(field)s needs at least %(count)d entry.",
                    "%(field)s needs at least %(count)d entries.",
                    self.min_items,
                )
                % {"field": label(name), "count": self.min_items},
            )
            return None
        if self.max_items is not None and count > self.max_items:
            body.add(
                name,
                ngettext(
                    "%(field)s takes at most %(count)d entry.",
                    "%(field)s takes at most %(count)d entries.",
                    self.max_items,
                )
                % {"field": label(name), "count": self.max_items},
            )
            return None
        entries = body.list_entries(name, values)
        return [self.items.read(entries, i, True) for i in range(count)]

    def schema(self) -> dict[str, Any]:
        schema = self._described({"type": "array", "items": self.items.schema()})
        if self.min_items:
            schema["minItems"] = self.min_items
        if self.max_items is not None:
            schema["maxItems"] = self.max_items
        return schema


@dataclasses.dataclass(frozen=True)
class Nested(Spec):
    """An object with its own declaration (problems at ``name.field``)."""

    request: type[Request]
    description: Description = ""

    def read(self, body: Body, name: str | int, required: bool) -> Request | None:
        child = body.object(name, required=required)
        if child is None:
            return None
        return self.request.read_fields(child)

    def schema(self) -> dict[str, Any]:
        return self._described(self.request.schema())


@dataclasses.dataclass(frozen=True)
class Custom(Spec):
    """A field with a reader of its own (a referee's value object, a message of its own)
    and its schema written out beside it. The reader records every problem on the body,
    a missing required field's too, and returns None for them."""

    reader: Callable[[Body, str | int], Any]
    json_schema: dict[str, Any]
    description: Description = ""

    def read(self, body: Body, name: str | int, required: bool) -> Any:
        return self.reader(body, name)

    def schema(self) -> dict[str, Any]:
        return self._described(dict(self.json_schema))


@dataclasses.dataclass(frozen=True)
class Raw(Spec):
    """A value passed on as it is, for the referee to read (a game's options: their
    problems are rules, 422)."""

    json_schema: dict[str, Any]
    description: Description = ""

    def read(self, body: Body, name: str | int, required: bool) -> Any:
        value = body.raw(name)
        if value is None and required:
            body.add(name, missing_message(name))
        return value

    def schema(self) -> dict[str, Any]:
        return self._described(dict(self.json_schema))


@dataclasses.dataclass(frozen=True)
class Declared:
    spec: Spec
    required: bool
    name: str | None
    nullable: bool

    def schema(self) -> dict[str, Any]:
        schema = self.spec.schema()
        if self.nullable and isinstance(schema.get("type"), str):
            schema["type"] = [schema["type"], "null"]
        return schema


_KEY = "api"


def spec(
    kind: Spec, *, required: bool = False, name: str | None = None, nullable: bool = False
) -> dict[str, Declared]:
    """The metadata of a :class:`Request` field, ``field(metadata=spec(...))``: its spec,
    whether the body must carry it, its JSON name when that is not the attribute's
    (``"from"``), and whether the schema says null is allowed (an optional field's null
    always reads as left out)."""
    if nullable and required:
        raise ValueError("A required field cannot be null.")
    return {_KEY: Declared(kind, required, name, nullable)}


class Request:
    """Base of a declared request: subclass it with ``@dataclass(frozen=True)``, every
    field ``field(metadata=spec(...))``."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @classmethod
    def declarations(cls) -> tuple[tuple[str, str, Declared], ...]:
        """(attribute, JSON name, declaration) for each field, in the declared order."""
        return tuple(
            (f.name, f.metadata[_KEY].name or f.name, f.metadata[_KEY])
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        )

    @classmethod
    def read_fields(cls, body: Body) -> Self:
        """Every field read in the declared order; a field with a problem is None and the
        problem waits on ``body`` (for a nested object, on its parent's ``finish``). A
        request with checks across its fields reads them with this, adds its problems
        with ``body.add`` and then calls ``body.finish()``."""
        values = {
            attribute: declaration.spec.read(body, name, declaration.required)
            for attribute, name, declaration in cls.declarations()
        }
        return cls(**values)

    @classmethod
    def read(cls, body: Body) -> Self:
        """The request's typed values, or ``UnreadableInput`` (400) naming every problem,
        fields nobody declared included."""
        request = cls.read_fields(body)
        body.finish()
        return request

    @classmethod
    def schema(cls) -> dict[str, Any]:
        """The JSON Schema of the request body, for the OpenAPI description."""
        declarations = cls.declarations()
        return {
            "type": "object",
            "properties": {name: declaration.schema() for _a, name, declaration in declarations},
            "required": [name for _a, name, declaration in declarations if declaration.required],
            "additionalProperties": False,
        }

    @classmethod
    def request_body(cls) -> dict[str, Any]:
        """The OpenAPI ``requestBody`` of an endpoint that reads this request (for the
        paths an app adds through ``OPENAPI_EXTENSIONS``)."""
        return {"required": True, "content": {"application/json": {"schema": cls.schema()}}}

    def values(self) -> dict[str, Any]:
        """The fields by attribute, as keyword arguments for the referee (shallow: value
        objects stay themselves)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}  # type: ignore[arg-type]
