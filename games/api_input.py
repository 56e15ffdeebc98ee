"""Reading a JSON request body into plain values for the referee.

The referee checks what the values mean; this module only checks their shape
(types, required fields, card codes) and reports every shape problem at once,
each at its dotted field path, in words a player understands.
"""

from __future__ import annotations

import difflib
import json
import math
from collections.abc import Callable, Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.rules.cards import Card, Deck
from games.rules.errors import Problem, RuleError
from games.rules.text import in_source_language
from scorekeeper.input_guard import json_problem

_MISSING = object()


class UnreadableInput(RuleError):
    """The request cannot be read at all (answered 400; rule problems are 422)."""


def errors_json(problems: Iterable[Problem]) -> dict[str, Any]:
    """The API's error format: ``{"errors": [{"field", "message"}]}``."""
    return {"errors": [{"field": p.field, "message": p.message} for p in problems]}


def answer(handler: Callable[[Body], dict[str, Any]], data: dict[str, Any]) -> tuple[int, dict]:
    """Run one referee endpoint's handler on a JSON object: (status, body). Unreadable
    input answers 400, input that breaks a rule 422. Used by the views and the API page."""
    try:
        return 200, handler(Body(data))
    except UnreadableInput as error:
        return 400, errors_json(error.problems)
    except RuleError as error:
        return 422, errors_json(error.problems)


# No number a request means has more digits (scores, bids and seats have a handful);
# Python itself refuses to read integers of more than 4,300 digits.
MAX_NUMBER_DIGITS = 100


class _BadNumber(ValueError):
    """A JSON number no field can mean: NaN, Infinity, 1e999, or one of 5,000 digits."""


def parse_json_object(raw: bytes) -> dict[str, Any]:
    """The request body as a JSON object, or ``UnreadableInput`` saying what is wrong with it.

    Besides invalid JSON, a body is unreadable when it carries text that is not text
    (a NUL or a lone surrogate such as ``"\\ud800"``, which ``json.loads`` accepts) or a
    number no field can mean (``NaN``, ``Infinity``, ``1e999``, thousands of digits).
    The input guard (``scorekeeper.input_guard``) refuses such text before any view;
    this says the same to any caller that reads a body itself.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise UnreadableInput(_("The request body must be UTF-8 text.")) from None
    if not text.strip():
        raise UnreadableInput(_("The request body is empty; send a JSON object."))
    try:
        data = json.loads(
            text,
            parse_constant=_reject_constant,
            parse_float=_finite_float,
            parse_int=_bounded_int,
        )
    except _BadNumber as error:
        raise UnreadableInput(str(error)) from None
    except json.JSONDecodeError as error:
        raise UnreadableInput(
            _(
                # Translators: %(problem)s is the JSON parser's own English words, such as
                # "Expecting value".
                "The request body is not valid JSON (%(problem)s at line %(line)d, "
                "column %(column)d)."
            )
            % {"problem": error.msg, "line": error.lineno, "column": error.colno}
        ) from None
    except (ValueError, RecursionError):
        raise UnreadableInput(_("The request body is not valid JSON.")) from None
    found = json_problem(data)
    if found is not None:
        raise UnreadableInput([Problem(*found)])
    if not isinstance(data, dict):
        raise UnreadableInput(_('The request body must be a JSON object, like {"game": "grand"}.'))
    return data


def _reject_constant(name: str) -> None:
    raise _BadNumber(
        _("The request body is not valid JSON: %(name)s is not a number.") % {"name": name}
    )


def _shown_number(text: str) -> str:
    if len(text) <= 20:
        return text
    return _("%(start)s… (%(count)d characters)") % {"start": text[:12], "count": len(text)}


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _BadNumber(_too_large(text))
    return value


def _too_large(text: str) -> str:
    return _("The number %(number)s in the request body is far too large.") % {
        "number": _shown_number(text)
    }


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _BadNumber(_too_large(text))
    return int(text)


def describe(value: object) -> str:
    """How a JSON value is named in a message: 'text', 'a list', …"""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        # Translators: the kind of a JSON value a request sent where another was wanted,
        # as in "Bid must be a whole number, not a number."
        return pgettext("JSON value sent", "a number")
    if isinstance(value, str):
        # Translators: the kind of a JSON value a request sent where another was wanted,
        # as in "Bid must be a whole number, not text."
        return pgettext("JSON value sent", "text")
    if isinstance(value, list):
        # Translators: the kind of a JSON value a request sent where another was wanted,
        # as in "Bid must be a whole number, not a list."
        return pgettext("JSON value sent", "a list")
    # Translators: the kind of a JSON value a request sent where another was wanted, as
    # in "Bid must be a whole number, not an object."
    return pgettext("JSON value sent", "an object")


# The most digits a form's number is read with (games.entry_forms.int_or_text): a
# longer one stays as typed, and is answered as far too large.
MAX_DIGITS = 9


class Body:
    """One JSON object being read field by field.

    Each reader method records a problem instead of raising, so that one answer
    lists everything wrong; :meth:`finish` raises them together and also reports
    fields nobody asked for (usually a typo).
    """

    def __init__(self, data: dict[str, Any], prefix: str = "") -> None:
        self.data = data
        self.prefix = prefix
        self.problems: list[Problem] = []
        self._read: set[str] = set()
        self._children: list[Body] = []

    # -- plumbing ---------------------------------------------------------------
    def path(self, name: str | int) -> str:
        return f"{self.prefix}{name}"

    def add(self, name: str | int | None, message: str) -> None:
        field = self.prefix.rstrip(".") or None if name is None else self.path(name)
        self.problems.append(Problem(field, message))

    def _take(self, name: str, required: bool) -> Any:
        self._read.add(name)
        value = self.data.get(name, _MISSING)
        if value is _MISSING and required:
            self.add(name, missing_message(name))
        return value

    def has(self, name: str) -> bool:
        return self.data.get(name) is not None

    # -- readers ----------------------------------------------------------------
    def boolean(self, name: str, default: bool = False) -> bool:
        value = self._take(name, required=False)
        if value is _MISSING or value is None:
            return default
        if not isinstance(value, bool):
            self.add(
                name,
                _("%(field)s must be true or false, not %(value)s.")
                % {"field": label(name), "value": describe(value)},
            )
            return default
        return value

    def integer(self, name: str, *, required: bool = True) -> int | None:
        value = self._take(name, required)
        if value is _MISSING or (value is None and not required):
            return None
        return self._as_integer(name, value)

    def _as_integer(self, name: str | int, value: Any) -> int | None:
        digits = value.strip().lstrip("+-−") if isinstance(value, str) else ""
        if len(digits) > MAX_DIGITS and digits.isascii() and digits.isdigit():
            # A form's number too long to be read as one (entry_forms.int_or_text keeps
            # it as typed): a whole number, far too large, not "text".
            self.add(name, _("%(field)s is far too large.") % {"field": label(name)})
            return None
        if isinstance(value, bool) or not isinstance(value, int | float):
            self.add(name, _whole_number(name, describe(value)))
            return None
        if isinstance(value, float):
            if not value.is_integer():
                self.add(name, _whole_number(name, str(value)))
                return None
            value = int(value)
        if abs(value) > 10**9:
            self.add(name, _("%(field)s is far too large.") % {"field": label(name)})
            return None
        return value

    def choice(
        self,
        name: str,
        choices: Iterable[str],
        *,
        default: str | None = None,
        required: bool = False,
    ) -> str | None:
        """A word from a fixed list; case and surrounding spaces do not matter."""
        options = tuple(choices)
        value = self._take(name, required and default is None)
        if value is _MISSING or (value is None and not required):
            return default
        if not isinstance(value, str):
            self.add(
                name,
                _("%(field)s must be one of %(choices)s, not %(value)s.")
                % {"field": label(name), "choices": _listing(options), "value": describe(value)},
            )
            return default
        word = value.strip().lower()
        if word not in options:
            hint = _did_you_mean(word, options)
            self.add(
                name,
                _('"%(value)s" is not a choice here; use one of %(choices)s.')
                % {"value": _short(value), "choices": _listing(options)}
                + hint,
            )
            return default
        return word

    def cards(
        self, name: str, deck: Deck, *, required: bool = True, copies: int | None = None
    ) -> list[Card] | None:
        value = self._take(name, required)
        if value is _MISSING or (value is None and not required):
            return None
        try:
            return deck.parse(value, self.path(name), copies=copies)
        except RuleError as error:
            self.problems.extend(error.problems)
            return None

    def card(self, name: str, deck: Deck) -> Card | None:
        value = self._take(name, required=True)
        if value is _MISSING:
            return None
        try:
            parsed = deck.parse([value], self.path(name))[0]
        except RuleError as error:
            self.problems.extend(Problem(self.path(name), p.message) for p in error.problems)
            return None
        return parsed

    def object(self, name: str, *, required: bool = False) -> Body | None:
        value = self._take(name, required)
        if value is _MISSING or (value is None and not required):
            return None
        if not isinstance(value, dict):
            self.add(
                name,
                _("%(field)s must be an object, not %(value)s.")
                % {"field": label(name), "value": describe(value)},
            )
            return None
        child = Body(value, prefix=self.path(name) + ".")
        self._children.append(child)
        return child

    def list(self, name: str, *, required: bool = True) -> list[Any] | None:
        value = self._take(name, required)
        if value is _MISSING or (value is None and not required):
            return None
        if not isinstance(value, list):
            self.add(
                name,
                _("%(field)s must be a list, not %(value)s.")
                % {"field": label(name), "value": describe(value)},
            )
            return None
        return value

    def raw(self, name: str) -> Any:
        """A value passed on as it is (options the referee reads itself)."""
        value = self._take(name, required=False)
        return None if value is _MISSING else value

    def entries(self) -> list[tuple[str, Any]]:
        """Every key and value of an object whose keys are data (names, point cards)."""
        self._read.update(self.data)
        return list(self.data.items())

    def list_entries(self, name: str | int, values: list[Any]) -> Body:
        """The list ``values`` (read with :meth:`list`) to be read entry by entry: a
        child body keyed by the entries' places, so each problem is named ``name.0``, …"""
        child = Body(dict(enumerate(values)), prefix=self.path(name) + ".")
        self._children.append(child)
        return child

    def integers_by_key(self, name: str, *, required: bool = False) -> dict[str, int] | None:
        """An object of whole numbers keyed by name, such as ``{"A": 12, "B": -4}``."""
        child = self.object(name, required=required)
        if child is None:
            return None
        numbers: dict[str, int] = {}
        for key, value in child.entries():
            number = child._as_integer(key, value)
            if number is not None:
                numbers[key] = number
        return numbers

    def forbid_together(self, *names: str) -> None:
        given = [n for n in names if self.has(n)]
        if len(given) > 1:
            self.add(given[1], _("Give either %(fields)s, not both.") % {"fields": _listing(given)})

    # -- the end ----------------------------------------------------------------
    def collect(self) -> list[Problem]:
        problems = list(self.problems)
        for key in self.data:
            if key not in self._read:
                hint = _did_you_mean(str(key), sorted(self._read))
                message = _('"%(name)s" is not a field of this request.') % {
                    "name": _short(str(key))
                }
                problems.append(Problem(self.path(key), message + hint))
        for child in self._children:
            problems.extend(child.collect())
        return problems

    def finish(self) -> None:
        """Raise every shape problem found, if any."""
        problems = self.collect()
        if problems:
            raise UnreadableInput(problems)


def missing_message(name: str | int) -> str:
    """What a request without the field ``name`` is told (the entry form says it again
    in its own words when it meets this message)."""
    # Translators: %(field)s (here and in the messages below) is the field's own
    # name in English words, "Declarer points" for declarer_points, or "Entry 3".
    return _("%(field)s is missing.") % {"field": label(name)}


def label(name: str | int) -> str:
    """A field as a message names it at the start of a sentence: the field's own name
    in words ("Declarer points" for declarer_points), or an entry of a list by its place."""
    if isinstance(name, int):
        # Translators: an entry of a list in a request, named by its place (1, 2, …).
        return _("Entry %(number)d") % {"number": name + 1}
    if not in_source_language():
        # Other languages name the field as the request writes it ("declarer_points").
        return name
    return name.replace("_", " ").capitalize()


def _whole_number(name: str | int, value: str) -> str:
    return _("%(field)s must be a whole number, not %(value)s.") % {
        "field": label(name),
        "value": value,
    }


def _short(text: str) -> str:
    return text if len(text) <= 30 else text[:30] + "…"


def _listing(words: Iterable[str]) -> str:
    """Quoted words, the last after "or": '"a", "b" or "c"'."""
    quoted = [f'"{w}"' for w in words]
    if len(quoted) <= 1:
        return "".join(quoted)
    # Translators: the last of several choices, as in '"A", "B" or "out"'.
    return _("%(choices)s or %(last)s") % {"choices": ", ".join(quoted[:-1]), "last": quoted[-1]}


def _did_you_mean(word: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return " " + _('Did you mean "%(word)s"?') % {"word": close[0]} if close else ""
