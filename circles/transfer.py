"""A whole circle as one JSON document, and back.

``export_circle`` writes everything the circle owns: its members (by user name, never
an e-mail address or a password), players, seasons with their club rules, and every sheet
with its seats and deals exactly as entered (undone deals included, so "bring back"
still works) and whether it is in the trash (since when: it stays there, and its days
there count on), and the standings' change log. The apps built on circles add their
parts (``Part``): the club evenings (``evenings/transfer.py``) write the circle's usual
money rules and every evening with its roll, series, tables, seats, notes and cash
box. It writes none of the circle's links
(tokens): not the invite link, not a season's share link, not a sheet's edit or view
link, not an evening's organiser, view or player links. An import never used them, and
in the file they would open the circle on its
own server to whoever reads it. Nor does it write the members' e-mail addresses: an
account's address is for its password reset alone (the sign-up page says so), not for
whoever owns a circle; an import maps members to accounts by user name. The file is
still personal data (names and games), for its owner alone.

The document's ``version`` says what it holds; an import reads every version so far:

- 1: the circle, its members, players, seasons, sheets and change log.
- 2 adds a sheet's ``deleted_at`` (in the trash since then, or null), the circle's
  ``evening_money`` (the money rules its club evenings start with, ``{}`` for none) and
  the list ``evenings``. A file of version 1 has none of them: its sheets are live, and
  it has no club evenings and no usual money rules.

``import_circle`` reads such a document as hostile input: anybody could have written
the file. Everything in it goes through the checks the pages and the API use (the
names, a sheet's game, seats and options, the seasons, every deal through the game's
referee, the live deals numbered 1 to n as the sheets keep them; an evening's settings,
roll and money rules as the evening's pages check them) and through checks of
its own shape (types, whole numbers in range, real moments, nothing nested deeper than
an export nests, every reference to a player or a sheet one of the file's). A file that
fails any of them is refused with a message that names
the field, and nothing is stored. What a file cannot be trusted with is never taken
from it:

- Links: the circle, its seasons, its sheets and its evenings get new tokens. An export
  holds none; the links an older export holds (``invite_token``, ``view_token``,
  ``edit_token``) are read by nothing and open nothing here. So every import is a new
  circle: one file imported twice is two circles.
- Accounts: none is made, and none is attached unless the operator maps the export's
  user name to an account here (``accounts``). A member left unmapped is left out; their
  player stays, under its name, without an account. Someone here must own the circle:
  a mapped owner of the export, or the ``owner`` named.

What standings need is derived again from the deals, as it always can be; the moments
of the export (made, joined, changed, moved to the trash) are kept when they are real
ones.

Both ways work a batch of sheets at a time (``BATCH``), so that a circle of thousands
of sheets costs no more memory than a small one and a few queries a batch, not a few
dozen a sheet: ``export_chunks`` gives out the document's text as it reads it (one
sheet a line, the C encoder, no indentation), and the import checks a batch of sheets,
plays their deals through the referee (in helper processes for a large import, one a
core) and stores them with one statement a table. A part works its items a batch at a
time too (one evening a line). The import is one transaction all
the same: a refusal in its last sheet, or its last evening, stores nothing.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import itertools
import json
import math
import multiprocessing
import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, TypeVar

import django
from django.contrib.auth import get_user_model
from django.db import DataError, IntegrityError, connections, models, router, transaction
from django.db.models.functions import Cast
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.module_loading import autodiscover_modules
from django.utils.translation import gettext as _

from circles import season_totals, services
from circles.models import (
    Circle,
    CircleSheet,
    Membership,
    Player,
    Season,
    SeatPlayer,
    SheetResult,
    StandingsChange,
)
from circles.rules.contributions import normal_tally, seat_stats, tally_state
from circles.wording import CHANGE_WORDS
from games import services as sheet_services
from games import snapshots
from games.games import GAMES
from games.models import Hand, Seat, Sheet, SheetEvent, SheetSnapshot
from games.rules.errors import Problem, RuleError

FORMAT = "scorekeeper-circle"
# What an export writes (the module docstring says what each version adds), and the
# versions an import reads. The layout changed within version 1 (no indentation, one
# sheet a line), which a JSON reader does not see: files of every export read alike.
VERSION = 2
READS = (1, 2)
# The version that added a sheet's deleted_at, the circle's evening_money and the
# evenings: a file of an older version has none of them (a newer one must have them).
ADDED_IN_2 = 2
# Sheets read, or checked and stored, at a time: the export's and the import's memory
# holds one batch, and each batch costs the same few queries.
BATCH = 500
# Imports of this many sheets and more play their deals in helper processes, at most
# this many (one a core).
HELPERS_FROM = 200
MAX_HELPERS = 4
# Told how many sheets are done, and how many there are.
Progress = Callable[[int, int], None]
T = TypeVar("T")

# An export nests 8 deep (the document, its sheets, a sheet, its deals, a deal, a deal's
# fields …); a file that nests deeper is no export, and deep nesting breaks readers.
MAX_DEPTH = 20
# No number of an export has more digits (Python refuses to read 4,300 and more).
MAX_DIGITS = 100
# The largest whole number every database keeps in a positive integer column, and the
# largest id (a 64-bit column).
MAX_NUMBER = 2**31 - 1
MAX_ID = 2**63 - 1
MAX_USERNAME = 150
# Scorekeeper kept no circle before this; a later moment than tomorrow is no real one.
EARLIEST = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)
# The change kinds the standings pages can word (a move names its seat's number).
CHANGES = tuple(CHANGE_WORDS)
MOVE_KEYS = frozenset({"player", "name", "before", "after"})


class NoOwner(RuleError):
    """Nobody here would own the imported circle: no owner of the export is mapped to an
    account here, and no owner was named. ``owners`` are the export's owners."""

    def __init__(self, owners: Sequence[str]) -> None:
        self.owners = list(owners)
        super().__init__(
            _(
                "Nobody here would own the imported circle: map one of its owners "
                "(%(owners)s) to an account here, or name an owner."
            )
            % {"owners": ", ".join(owners) or "–"}
        )


# -- Parts of the document that apps built on circles keep -------------------------------


@dataclass(frozen=True)
class Loading:
    """What a part's import reads and writes to: the document and its version, the new
    circle, the accounts here the operator mapped (by the export's user name), the
    export's players by their id in the file (stored), the sheets stored in the file's
    order (a sheet's place in the file is its index here) and how many items a batch
    holds at most."""

    data: Mapping[str, Any]
    version: int
    circle: Circle
    accounts: Mapping[str, Any]
    players: Mapping[int, Player]
    sheets: Sequence[_Stored]
    batch: int

    def holds(self, item: Mapping[str, Any], key: str) -> bool:
        """Whether ``item`` is read for ``key``, which version 2 added
        (``key_in_version``)."""
        return key_in_version(item, key, self.version)


@dataclass(frozen=True)
class Part:
    """A part of the document kept by an app built on circles, which circles never
    imports: the app registers its part (``register``) in a module ``transfer`` of its
    own, found as Django finds admin modules (``parts``).

    ``key`` is the document's list the part writes, one item a line, after the change
    log. ``circle`` gives the fields it adds to the document's ``circle`` (what the app
    keeps with a circle). ``export`` gives a circle's items as JSON texts, a batch of
    them at a time, given each sheet's place in the file by the sheet's id and the
    largest batch. ``usernames`` reads the user names the part's items name from the
    document (an operator may map them to accounts here). ``load`` checks and stores
    the part of the document, as hostile as the rest of it."""

    key: str
    circle: Callable[[Circle], Mapping[str, Any]]
    export: Callable[[Circle, Mapping[int, int], int], Iterator[Sequence[str]]]
    usernames: Callable[[Mapping[str, Any]], Iterable[str]]
    load: Callable[[Loading], None]


_PARTS: dict[str, Part] = {}


def register(part: Part) -> None:
    """Write and read ``part`` with every circle (once, however often it is registered)."""
    _PARTS[part.key] = part


@functools.cache
def _discovered() -> None:
    # Each installed app's module "transfer" (this one too), imported once: it registers
    # the app's part.
    autodiscover_modules("transfer")


def parts() -> tuple[Part, ...]:
    """The parts of the document, in the order the apps registered them."""
    _discovered()
    return tuple(_PARTS.values())


def _when(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _day(value: datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_chunks(
    circle: Circle, *, batch: int = BATCH, progress: Progress | None = None
) -> Iterator[str]:
    """The circle's document as JSON text, piece by piece, written as it is read.

    The sheets are read ``batch`` at a time (one query each for their circle links,
    seats, players and deals), and each batch is encoded by the C encoder (no
    indentation) and given out before the next is read, so memory holds one batch
    whatever the size of the circle. One sheet, and one change, a line. ``progress``
    hears the sheets written so far and their number after each batch.

    A sheet removed while the export runs is left out; a change naming a sheet that
    is not in the file names none (null), as a change of a sheet since deleted does.
    Then each part's list (``parts``: the club evenings), its items read and written a
    batch at a time too; an item naming a sheet names its place in the file."""
    own = parts()
    info = {"name": circle.name, "created_at": _when(circle.created_at)}
    for part in own:
        info.update(part.circle(circle))
    head = {
        "format": FORMAT,
        "version": VERSION,
        "circle": info,
        "members": [
            {
                "username": m.user.get_username(),
                "role": m.role,
                "joined_at": _when(m.joined_at),
            }
            for m in circle.memberships.select_related("user").order_by("pk")
        ],
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                "user": p.user.get_username() if p.user else None,
                "guest": p.guest,
                "shown_as": p.shown_as,
                "erased": p.erased,
                "created_at": _when(p.created_at),
            }
            for p in circle.players.select_related("user").order_by("pk")
        ],
        "seasons": [
            {
                "name": s.name,
                "starts_on": _day(s.starts_on),
                "ends_on": _day(s.ends_on),
                "planned_evenings": s.planned_evenings,
                "skat_rules": s.skat_rules,
                "created_at": _when(s.created_at),
            }
            for s in circle.seasons.order_by("pk")
        ],
    }
    # The head as one object, left open for the sheets and the changes.
    yield _json(head)[:-1] + ',"sheets":[\n'
    ids = list(
        CircleSheet.objects.filter(circle=circle)
        .order_by("sheet_id")
        .values_list("sheet_id", flat=True)
    )
    index: dict[int, int] = {}  # a sheet's id: its place in the file
    for start in range(0, len(ids), batch):
        lines = []
        for sheet_id, line in _sheet_batch(ids[start : start + batch]):
            lines.append(line)
            index[sheet_id] = len(index)
        if lines:
            yield _lines(lines, first=len(index) == len(lines))
        if progress is not None:
            progress(min(start + batch, len(ids)), len(ids))
    yield '\n],"changes":[\n'
    changes = (
        StandingsChange.objects.filter(circle=circle)
        .order_by("pk")
        .values_list("sheet_id", "played_on", "game", "change", "number", "moves", "at")
    )
    lines = []
    first = True
    for sheet_id, played_on, game, change, number, moves, at in changes.iterator(chunk_size=batch):
        lines.append(
            _json(
                {
                    "sheet": index.get(sheet_id) if sheet_id else None,
                    "played_on": _day(played_on),
                    "game": game,
                    "change": change,
                    "number": number,
                    "moves": moves,
                    "at": _when(at),
                }
            )
        )
        if len(lines) == batch:
            yield _lines(lines, first=first)
            first, lines = False, []
    if lines:
        yield _lines(lines, first=first)
    for part in own:
        yield f"\n],{_json(part.key)}:[\n"
        first = True
        for items in part.export(circle, index, batch):
            if items:
                yield _lines(items, first=first)
                first = False
    yield "\n]}\n"


def export_circle(circle: Circle) -> dict[str, Any]:
    """The whole document as one value (for tests and small circles): exactly what
    ``export_chunks`` writes."""
    return json.loads("".join(export_chunks(circle)))


def _lines(lines: Sequence[str], *, first: bool) -> str:
    """Items of a list, one a line, after the items written before (unless ``first``)."""
    return ("" if first else ",\n") + ",\n".join(lines)


def _json(value: Any) -> str:
    # Without indentation json.dumps runs in C; ensure_ascii=False keeps names readable.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _sheet_batch(ids: Sequence[int]) -> Iterator[tuple[int, str]]:
    """The sheets of ``ids`` as the file holds them, one JSON text each, in id order:
    four queries, no model objects. A deal's entry is written as the database keeps it
    (JSON text), not decoded and encoded again."""
    if not ids:
        return
    username = f"sheet__owner__{get_user_model().USERNAME_FIELD}"
    links = (
        CircleSheet.objects.filter(sheet_id__in=ids)
        .order_by("sheet_id")
        .values_list(
            "sheet_id",
            "sheet__game",
            "sheet__options",
            "sheet__first_dealer",
            username,
            "sheet__version",
            "sheet__created_at",
            "sheet__updated_at",
            "sheet__deleted_at",
            "played_on",
            "excluded",
            "tally",
            "added_at",
        )
    )
    seats: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for sheet_id, position, name in (
        Seat.objects.filter(sheet_id__in=ids).order_by().values_list("sheet_id", "position", "name")
    ):
        seats[sheet_id].append((position, name))
    players = {
        (sheet_id, position): player
        for sheet_id, position, player in SeatPlayer.objects.filter(sheet_id__in=ids)
        .order_by()
        .values_list("sheet_id", "position", "player_id")
    }
    hands: dict[int, list[tuple[bool, str]]] = defaultdict(list)
    for sheet_id, number, entry, created, updated, removed in (
        Hand.objects.filter(sheet_id__in=ids)
        .order_by("sheet_id", "number", "pk")
        .annotate(entry_text=Cast("entry", models.TextField()))
        .values_list("sheet_id", "number", "entry_text", "created_at", "updated_at", "removed_at")
    ):
        hands[sheet_id].append(
            (
                removed is not None,
                f'{{"number":{number:d},"entry":{entry},"created_at":{_moment_json(created)},'
                f'"updated_at":{_moment_json(updated)},"removed_at":{_moment_json(removed)}}}',
            )
        )
    for (
        sheet_id,
        game,
        options,
        first_dealer,
        owner,
        version,
        created,
        updated,
        deleted,
        played_on,
        excluded,
        tally,
        added,
    ) in links:
        sheet = {
            "game": game,
            "options": options,
            "first_dealer": first_dealer,
            "owner": owner,
            "version": version,
            "created_at": _when(created),
            "updated_at": _when(updated),
            "deleted_at": _when(deleted),
            "played_on": _day(played_on),
            "excluded": excluded,
            **({"tally": tally} if tally is not None else {}),
            "added_at": _when(added),
            "seats": [
                {"position": position, "name": name, "player": players[sheet_id, position]}
                for position, name in sorted(seats[sheet_id])
            ],
        }
        # The live deals by number, then the undone ones (a stable sort).
        deals = ",".join(text for _undone, text in sorted(hands[sheet_id], key=lambda h: h[0]))
        yield sheet_id, f'{_json(sheet)[:-1]},"hands":[{deals}]}}'


def _moment_json(value: datetime.datetime | None) -> str:
    # An ISO moment holds no character JSON escapes.
    return "null" if value is None else f'"{value.isoformat()}"'


# -- Reading a file ---------------------------------------------------------------------------


def read_document(raw: bytes) -> Any:
    """The JSON value of a file's bytes; RuleError, in words, for anything JSON or
    Python cannot read safely (other text than UTF-8, NaN, huge numbers, deep nesting)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RuleError(
            _("The file is not UTF-8 text (byte %(at)d is not).") % {"at": error.start}
        ) from error
    try:
        return json.loads(
            text, parse_int=_whole_number, parse_float=_number, parse_constant=_no_number
        )
    except RecursionError as error:
        raise RuleError(
            _("The file nests lists and objects too deep; an export never does.")
        ) from error
    except RuleError:
        raise
    except ValueError as error:
        raise RuleError(_("The file is not JSON (%(detail)s).") % {"detail": error}) from error


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise RuleError(
            _("The file holds a whole number of %(count)d digits; an export's have far fewer.")
            % {"count": len(text.lstrip("-"))}
        )
    return int(text)


def _number(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise RuleError(
            _("The file holds the number %(number)s, which is too large.") % {"number": text[:20]}
        )
    return value


def _no_number(text: str) -> Any:
    raise RuleError(_("The file holds %(constant)s, which is no number.") % {"constant": text})


def _deeper_than(value: Any, most: int) -> bool:
    """Whether lists and objects nest more than ``most`` deep in ``value`` (looked at
    without recursion, so that any depth is safe)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = list(item.values())
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > most:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


# -- The shape of a file: each reader names the field it refuses ------------------------------


def _refuse(where: str | None, message: str) -> RuleError:
    return RuleError(Problem(where, message))


def _path(where: str, key: str | int) -> str:
    return f"{where}.{key}" if where else str(key)


def _value(item: Mapping[str, Any], key: str, where: str) -> tuple[Any, str]:
    path = _path(where, key)
    if key not in item:
        raise _refuse(path, _("This is missing."))
    return item[key], path


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise _refuse(where, _("Give an object of names and values here."))
    return value


def _mapping_at(item: Mapping[str, Any], key: str, where: str) -> Mapping[str, Any]:
    value, path = _value(item, key, where)
    return _mapping(value, path)


def _records(
    item: Mapping[str, Any], key: str, where: str = ""
) -> Iterator[tuple[str, Mapping[str, Any]]]:
    """The path and value of each object in the list at ``key``."""
    value, path = _value(item, key, where)
    if not isinstance(value, list):
        raise _refuse(path, _("Give a list here."))
    for index, entry in enumerate(value):
        yield _path(path, index), _mapping(entry, _path(path, index))


def _whole(
    item: Mapping[str, Any], key: str, where: str, *, least: int, most: int, empty: bool = False
) -> int | None:
    value, path = _value(item, key, where)
    if value is None and empty:
        return None
    if type(value) is not int or not least <= value <= most:
        if empty:
            message = _("Give a whole number from %(least)d to %(most)d, or null, here.")
        else:
            message = _("Give a whole number from %(least)d to %(most)d here.")
        raise _refuse(path, message % {"least": least, "most": most})
    return value


def _whole_or_null(item: Mapping[str, Any], key: str, where: str) -> int | None:
    """A whole number or null, its range left to the page's checks."""
    value, path = _value(item, key, where)
    if value is not None and type(value) is not int:
        raise _refuse(path, _("Give a whole number here, or null."))
    return value


def _tally(
    item: Mapping[str, Any],
    where: str,
    game: str,
    names: Sequence[str],
    deals: Sequence[Any],
) -> Mapping[str, Any] | None:
    """A sheet's game as written on paper (left out: none): a Pitch tally card or a Skat
    series' foot, checked as the evening checks it; a sheet has either deals or a tally."""
    if item.get("tally") is None:
        return None
    try:
        tally = normal_tally(game, item["tally"], names)
    except RuleError as error:
        raise error.prefixed(where) from error
    if deals:
        raise _refuse(f"{where}.tally", _("A sheet written on a tally card has no deals."))
    return tally


def _flag(item: Mapping[str, Any], key: str, where: str) -> bool:
    value, path = _value(item, key, where)
    if not isinstance(value, bool):
        raise _refuse(path, _("Give true or false here."))
    return value


def _choice(item: Mapping[str, Any], key: str, where: str, choices: Sequence[str]) -> str:
    value, path = _value(item, key, where)
    if not isinstance(value, str) or value not in choices:
        raise _refuse(path, _("Give one of %(choices)s here.") % {"choices": ", ".join(choices)})
    return value


def _text(item: Mapping[str, Any], key: str, where: str, *, empty: bool = False) -> str | None:
    """A text, or None where ``empty`` allows; its length and content are the caller's."""
    value, path = _value(item, key, where)
    if value is None and empty:
        return None
    if not isinstance(value, str):
        raise _refuse(path, _("Give a text here, or null.") if empty else _("Give a text here."))
    return value


def _seat_name(item: Mapping[str, Any], key: str, where: str) -> str:
    """A seat's name, its characters checked here as the sheets check them (no control
    character once tidied), so that the message names the file's field rather than the
    sheet's ``players.0``; its length and the rest are ``sheet_create``'s."""
    text = _text(item, key, where)
    problem = sheet_services.name_character_problem(_path(where, key), services._tidy(text))
    if problem:
        raise RuleError([problem])
    return text


def _name(item: Mapping[str, Any], key: str, where: str, *, most: int) -> str:
    """A name as the circle's pages take one: tidied, then checked as they check it
    (empty, too long, a control character)."""
    name = services._tidy(_text(item, key, where))
    problem = services._name_problem(_path(where, key), name, most)
    if problem:
        raise RuleError([problem])
    return name


def _username(item: Mapping[str, Any], key: str, where: str, *, empty: bool = False) -> str | None:
    name = _text(item, key, where, empty=empty)
    if name is None:
        return None
    path = _path(where, key)
    # Not tidied: a user name is matched as it is (--map-user). No control character,
    # as in a name (a mapped name is quoted back to the operator's terminal).
    if not 1 <= len(name) <= MAX_USERNAME or sheet_services.name_character_problem(path, name):
        raise _refuse(
            path, _("Give a user name of 1 to %(most)d characters here.") % {"most": MAX_USERNAME}
        )
    return name


def _moment(
    item: Mapping[str, Any], key: str, where: str, *, empty: bool = False
) -> datetime.datetime | None:
    value, path = _value(item, key, where)
    if value is None and empty:
        return None
    found = None
    if isinstance(value, str) and len(value) <= 40:
        try:
            found = parse_datetime(value)
        except ValueError:
            found = None
    latest = timezone.now() + datetime.timedelta(days=1)
    if found is None or found.tzinfo is None or not EARLIEST <= found <= latest:
        raise _refuse(
            path,
            _("Give a moment from 2000 to now with its time zone, such as %(example)s.")
            % {"example": "2025-03-11T20:15:00+00:00"},
        )
    return found


def key_in_version(item: Mapping[str, Any], key: str, version: int) -> bool:
    """Whether ``item`` is read for ``key``, which version 2 added: a file of version 2
    on must hold it (a missing one is refused as it is read), an older one has none."""
    return key in item or version >= ADDED_IN_2


def _date(item: Mapping[str, Any], key: str, where: str) -> datetime.date:
    value, path = _value(item, key, where)
    try:
        if isinstance(value, str) and len(value) == 10:
            return datetime.date.fromisoformat(value)
    except ValueError:
        pass
    raise _refuse(path, _("Give a day, such as 2025-03-11."))


def _date_text(item: Mapping[str, Any], key: str, where: str) -> str:
    """A day as text, read by the page's own checks (a number is no day, although its
    digits may read as one)."""
    value, path = _value(item, key, where)
    if not isinstance(value, str):
        raise _refuse(path, _("Give a day, such as 2025-03-11."))
    return value


# -- Importing -------------------------------------------------------------------------------


def import_circle(
    data: Any,
    *,
    accounts: Mapping[str, Any] | None = None,
    owner: Any = None,
    batch: int = BATCH,
    progress: Progress | None = None,
    helpers: int | None = None,
) -> Circle:
    """A new circle, with new links, from an exported document; RuleError, naming the
    field, for anything the pages would refuse or an export never holds, and then
    nothing is stored. ``accounts`` maps the export's user names to accounts here (the
    only accounts attached); ``owner`` is an account here that owns the circle too.
    NoOwner when nobody here would own it.

    The sheets are checked and played ``batch`` at a time, then stored together: the
    same few bulk inserts for every batch, whatever its sheets hold (``progress`` hears
    the sheets stored so far and their number after each batch). ``helpers`` helper
    processes play the deals through the referee meanwhile (None: one a core for a
    large import, none for a small one). All of it is one transaction: a refusal
    anywhere, in the last sheet too, stores nothing."""
    _check_head(data)
    try:
        with transaction.atomic():
            return _Import(
                data, dict(accounts or {}), owner, max(batch, 1), progress, helpers
            ).run()
    except RuleError:
        raise
    except (
        LookupError,
        TypeError,
        ValueError,
        OverflowError,
        RecursionError,
        IntegrityError,
        DataError,
    ) as error:
        # Whatever the checks missed is still damage: said in words, and nothing stored.
        raise RuleError(
            _("The export is damaged and was not imported (%(detail)s).")
            % {"detail": str(error)[:200]}
        ) from error


def _check_head(data: Any) -> None:
    if not isinstance(data, dict):
        raise RuleError(_("This is not a Scorekeeper circle export."))
    if data.get("format") != FORMAT:
        raise _refuse("format", _("This is not a Scorekeeper circle export."))
    version = data.get("version")
    if type(version) is not int or version not in READS:
        if type(version) is int and 0 <= version < 10**6:
            message = _(
                "This export has version %(version)s; this Scorekeeper reads version %(ours)s."
            )
        else:
            message = _(
                "This export's version cannot be read; this Scorekeeper reads version %(ours)s."
            )
        raise _refuse("version", message % {"version": version, "ours": VERSION})
    if _deeper_than(data, MAX_DEPTH):
        raise RuleError(
            _("The file nests lists and objects more than %(most)d deep; an export never does.")
            % {"most": MAX_DEPTH}
        )


@dataclass(frozen=True)
class _Member:
    role: str
    joined_at: datetime.datetime | None


@dataclass(frozen=True)
class _Deal:
    where: str
    index: int
    number: int
    entry: Mapping[str, Any]
    created_at: datetime.datetime | None
    updated_at: datetime.datetime | None
    removed_at: datetime.datetime | None


@dataclass
class _Planned:
    """One sheet of the file, checked and played through its referee, not yet stored:
    the sheet (its moments, version and derived columns set), the seats' names and
    players, every deal in the file's order, what each seat contributes to standings,
    and the engine after its live deals as the sheet keeps it."""

    sheet: Sheet
    names: list[str]
    players: list[Player]
    deals: list[_Deal]
    excluded: bool
    tally: Mapping[str, Any] | None
    added_at: datetime.datetime | None
    stats: Sequence[Mapping[str, Any]]
    engine: Any


@dataclass(frozen=True)
class _Stored:
    """What the change log and the parts (an evening's tables) need of a stored sheet:
    its id here, game, day played and number of seats."""

    sheet_id: int
    game: str
    played_on: datetime.date
    seats: int


@dataclass
class _Import:
    """One import, part by part, in the order the parts need each other."""

    data: Mapping[str, Any]
    accounts: dict[str, Any]
    owner: Any
    batch: int = BATCH
    progress: Progress | None = None
    helpers: int | None = None
    circle: Circle | None = None
    players: dict[int, Player] = field(default_factory=dict)
    sheets: list[_Stored] = field(default_factory=list)

    @property
    def version(self) -> int:
        return self.data["version"]  # checked by _check_head

    def run(self) -> Circle:
        members = self._members()
        self._check_accounts(members)
        self.circle = self._circle(members)
        self._players(members)
        self._seasons()
        self._sheets()
        self._changes()
        loading = Loading(
            data=self.data,
            version=self.version,
            circle=self.circle,
            accounts=self.accounts,
            players=self.players,
            sheets=self.sheets,
            batch=self.batch,
        )
        for part in parts():
            part.load(loading)
        # The sheets came in by the batch: every season is added up once, at the end.
        season_totals.moved(self.circle.pk)
        return self.circle

    # -- members and accounts

    def _members(self) -> dict[str, _Member]:
        found: dict[str, _Member] = {}
        roles = [role for role, _label in Membership.ROLES]
        for where, item in _records(self.data, "members"):
            name = _username(item, "username", where)
            if name in found:
                raise _refuse(
                    _path(where, "username"),
                    _("%(name)s is a member twice in the export.") % {"name": name},
                )
            role = _choice(item, "role", where, roles)
            found[name] = _Member(role, _moment(item, "joined_at", where))
        return found

    def _check_accounts(self, members: Mapping[str, _Member]) -> None:
        """The mapping names people of the file, one account each."""
        named = set(members)
        for where, item in _records(self.data, "sheets"):
            named.add(_username(item, "owner", where, empty=True))
        for part in parts():
            named.update(part.usernames(self.data))
        seen: dict[Any, str] = {}
        for name, account in self.accounts.items():
            if name not in named:
                raise _refuse(
                    None,
                    _("%(name)s is neither a member nor a sheet's owner in the export.")
                    % {"name": name},
                )
            if account in seen:
                raise _refuse(
                    None,
                    _(
                        "%(account)s stands for both %(first)s and %(second)s; an account is "
                        "one person."
                    )
                    % {"account": account.get_username(), "first": seen[account], "second": name},
                )
            seen[account] = name

    def _roles(self, members: Mapping[str, _Member]) -> dict[Any, _Member]:
        """The accounts here that become members, with their role, in the export's order
        (the ``owner`` named last unless mapped)."""
        roles = {
            self.accounts[name]: member for name, member in members.items() if name in self.accounts
        }
        if self.owner is not None:
            joined = roles.get(self.owner, _Member(Membership.OWNER, None)).joined_at
            roles[self.owner] = _Member(Membership.OWNER, joined)
        owners = [account for account, member in roles.items() if member.role == Membership.OWNER]
        if not owners:
            raise NoOwner([n for n, member in members.items() if member.role == Membership.OWNER])
        return roles

    def _circle(self, members: Mapping[str, _Member]) -> Circle:
        info = _mapping_at(self.data, "circle", "")
        name = _name(info, "name", "circle", most=services.MAX_CIRCLE_NAME)
        created = _moment(info, "created_at", "circle")
        roles = self._roles(members)
        first = next(
            account for account, member in roles.items() if member.role == Membership.OWNER
        )
        others = [account for account in roles if account != first]
        try:
            circle = services.circle_create(owner=first, name=name)
        except RuleError as error:
            raise error.prefixed("circle") from error
        Circle.objects.filter(pk=circle.pk).update(created_at=created)
        circle.created_at = created
        for account in others:
            Membership.objects.create(circle=circle, user=account, role=roles[account].role)
        for account, member in roles.items():
            if member.joined_at is not None:
                Membership.objects.filter(circle=circle, user=account).update(
                    joined_at=member.joined_at
                )
        return circle

    # -- players and seasons

    def _players(self, members: Mapping[str, _Member]) -> None:
        names: set[str] = set()
        linked: set[str] = set()
        shown_as = [choice for choice, _label in Player.SHOWN_AS]
        made: list[Player] = []
        for where, item in _records(self.data, "players"):
            old_id = _whole(item, "id", where, least=1, most=MAX_ID)
            if old_id in self.players:
                raise _refuse(_path(where, "id"), _("Another player of the export has this id."))
            name = _name(item, "name", where, most=services.MAX_PLAYER_NAME)
            if name.casefold() in names:
                raise _refuse(
                    _path(where, "name"),
                    _("%(name)s is the name of another player of the export too.") % {"name": name},
                )
            names.add(name.casefold())
            erased = _flag(item, "erased", where)
            user = _username(item, "user", where, empty=True)
            if user is not None and (user not in members or user in linked or erased):
                # An erased player is linked to nobody (services.player_erase).
                raise _refuse(
                    _path(where, "user"),
                    _("Give a member of the export no other player is linked to, or null."),
                )
            if user is not None:
                linked.add(user)
            player = Player(
                circle=self.circle,
                name=name,
                name_key=name.casefold(),
                # Only an account the operator mapped: the file's user name is just a name.
                user=self.accounts.get(user) if user is not None else None,
                guest=_flag(item, "guest", where),
                shown_as=_choice(item, "shown_as", where, shown_as),
                erased=erased,
                created_at=_moment(item, "created_at", where),
            )
            made.append(player)
            self.players[old_id] = player
        _insert(Player, made)

    def _seasons(self) -> None:
        for where, item in _records(self.data, "seasons"):
            fields = {
                # The season form's name checks (services._name_problem).
                "name": _text(item, "name", where),
                "starts_on": _date_text(item, "starts_on", where),
                "ends_on": _date_text(item, "ends_on", where),
                "planned_evenings": _whole_or_null(item, "planned_evenings", where),
                "skat_rules": _mapping_at(item, "skat_rules", where),
            }
            created = _moment(item, "created_at", where)
            try:
                # The season form's checks: names, days in order, evenings, club rules,
                # no overlap with another season.
                season = services.season_save(circle=self.circle, data=fields)
            except RuleError as error:
                raise error.prefixed(where) from error
            Season.objects.filter(pk=season.pk).update(created_at=created)

    # -- sheets

    def _sheets(self) -> None:
        """Every sheet, ``batch`` at a time: checked, played through its referee, then
        stored. With helper processes, the referee plays a batch while this process
        stores the one before it."""
        total = len(self.data["sheets"])  # a list: _check_accounts read it
        helpers = _helpers(total) if self.helpers is None else self.helpers
        with _referees(helpers) as referee:
            waiting = None
            for records in _batches(_records(self.data, "sheets"), self.batch):
                batch = [self._check(item, where) for where, item in records]
                played = referee([checked.job for checked in batch if checked.job is not None])
                if waiting is not None:
                    self._store(self._planned(*waiting))
                waiting = (batch, played)
            if waiting is not None:
                self._store(self._planned(*waiting))

    def _check(self, item: Mapping[str, Any], where: str) -> _Checked:
        """One sheet through the checks a new sheet, its deals and its day go through
        on the pages; the first problem is kept (raised by ``_planned`` in the order
        the checks and the referee would meet them)."""
        checked = _Checked(where)
        try:
            names, players = self._seats(item, where)
            owner = _username(item, "owner", where, empty=True)
            options = _mapping_at(item, "options", where)
            try:
                # The new-sheet checks: the game, the seats' names and number, the first
                # dealer, the options, the day played.
                sheet, names = _new_sheet(
                    game=_value(item, "game", where)[0],
                    players=names,
                    first_dealer=_value(item, "first_dealer", where)[0],
                    options=options,
                    owner=self.accounts.get(owner) if owner is not None else None,
                    played_on=_value(item, "played_on", where)[0],
                )
            except RuleError as error:
                raise error.prefixed(where) from error
            live, undone = _deals(item, where)
            tally = _tally(item, where, sheet.game, names, live + undone)
        except RuleError as error:
            checked.before_play = error
            return checked
        checked.sheet, checked.names, checked.players = sheet, names, players
        checked.live, checked.undone = live, undone
        checked.job = _Job(
            game=sheet.game,
            options=sheet.options,
            names=tuple(names),
            first_dealer=sheet.first_dealer,
            live=tuple(deal.entry for deal in live),
            undone=tuple(deal.entry for deal in undone),
            language=translation.get_language(),
            tally=tally,
        )
        checked.tally = tally
        try:
            checked.excluded = _flag(item, "excluded", where)
            checked.added_at = _moment(item, "added_at", where)
            sheet.created_at = _moment(item, "created_at", where)
            sheet.version = _whole(item, "version", where, least=0, most=MAX_NUMBER)
            sheet.updated_at = _moment(item, "updated_at", where)
            # In the trash since then (version 2 on): it stays there, and its days there
            # count on (it is emptied TRASH_DAYS after this moment).
            if key_in_version(item, "deleted_at", self.version):
                sheet.deleted_at = _moment(item, "deleted_at", where, empty=True)
        except RuleError as error:
            checked.after_play = error
        return checked

    def _planned(
        self, batch: Sequence[_Checked], played: Callable[[], list[_Played]]
    ) -> list[_Planned]:
        """The batch's sheets with what the referee made of their deals; RuleError for
        the first problem of the first sheet that has one, as the checks meet them one
        sheet after the other: the sheet's fields and deal numbers, the referee on its
        live deals, its other fields, the referee on its undone deals."""
        results = iter(played())
        planned = []
        for checked in batch:
            if checked.before_play is not None:
                raise checked.before_play
            result = next(results)
            deals = [*checked.live, *checked.undone]
            refused = result.refused
            if refused is not None and refused < len(checked.live):
                raise _refused(deals[refused], result.why)
            if checked.after_play is not None:
                raise checked.after_play
            if refused is not None:
                raise _refused(deals[refused], result.why)
            sheet = checked.sheet
            sheet.deal_count = len(checked.live)
            sheet.finished = result.finished
            planned.append(
                _Planned(
                    sheet=sheet,
                    names=checked.names,
                    players=checked.players,
                    deals=sorted(deals, key=lambda deal: deal.index),
                    excluded=checked.excluded,
                    tally=checked.tally,
                    added_at=checked.added_at,
                    stats=result.stats,
                    engine=result.engine,
                )
            )
        return planned

    def _store(self, planned: Sequence[_Planned]) -> None:
        """A batch of checked sheets stored with one statement a table, whatever the
        batch holds: the sheets, their seats, kept engines, "started" history, deals,
        circle links, seat players and results."""
        if not planned:
            return
        _insert(Sheet, [p.sheet for p in planned])
        _rows(
            Seat,
            ("sheet", "position", "name"),
            [
                (p.sheet.pk, position, name)
                for p in planned
                for position, name in enumerate(p.names)
            ],
        )
        _rows(
            SheetSnapshot,
            ("sheet", "version", "engine"),
            [(p.sheet.pk, p.sheet.version, p.engine) for p in planned],
        )
        # As sheet_create notes a new sheet, dated when the sheet was made, and
        # sheet_delete one moved to the trash, dated when it was.
        via = sheet_services.ANONYMOUS.via
        _rows(
            SheetEvent,
            ("sheet", "kind", "after", "via", "recovered", "at"),
            [
                (
                    p.sheet.pk,
                    SheetEvent.STARTED,
                    {"players": p.names},
                    via,
                    False,
                    p.sheet.created_at,
                )
                for p in planned
            ]
            + [
                (p.sheet.pk, SheetEvent.DELETED, None, via, False, p.sheet.deleted_at)
                for p in planned
                if p.sheet.deleted_at is not None
            ],
        )
        _rows(
            Hand,
            ("sheet", "number", "entry", "created_at", "updated_at", "removed_at"),
            [
                (
                    p.sheet.pk,
                    deal.number,
                    deal.entry,
                    deal.created_at,
                    deal.updated_at,
                    deal.removed_at,
                )
                for p in planned
                for deal in p.deals
            ],
        )
        _rows(
            CircleSheet,
            ("sheet", "circle", "played_on", "excluded", "tally", "added_at"),
            [
                (p.sheet.pk, self.circle.pk, p.sheet.played_on, p.excluded, p.tally, p.added_at)
                for p in planned
            ],
        )
        _rows(
            SeatPlayer,
            ("sheet", "position", "player"),
            [
                (p.sheet.pk, position, player.pk)
                for p in planned
                for position, player in enumerate(p.players)
            ],
        )
        now = timezone.now()
        _rows(
            SheetResult,
            ("sheet", "position", "player", "stats", "updated_at"),
            [
                (p.sheet.pk, position, player.pk, stats, now)
                for p in planned
                for position, (player, stats) in enumerate(zip(p.players, p.stats, strict=True))
            ],
        )
        self.sheets.extend(
            _Stored(p.sheet.pk, p.sheet.game, p.sheet.played_on, len(p.names)) for p in planned
        )
        if self.progress is not None:
            self.progress(len(self.sheets), len(self.data["sheets"]))

    def _seats(self, item: Mapping[str, Any], where: str) -> tuple[list[str], list[Player]]:
        names: list[str] = []
        players: list[Player] = []
        for at, seat in _records(item, "seats", where):
            position = _whole(seat, "position", at, least=0, most=MAX_NUMBER)
            if position != len(names):
                raise _refuse(
                    _path(where, "seats"), _("The seats are numbered 0, 1, 2 … in order.")
                )
            name = _seat_name(seat, "name", at)
            old_id = _whole(seat, "player", at, least=1, most=MAX_ID)
            player = self.players.get(old_id)
            if player is None or player in players:
                raise _refuse(
                    _path(at, "player"),
                    _("Give the id of a player of the export who has no other seat here."),
                )
            names.append(name)
            players.append(player)
        return names, players

    # -- the change log

    def _changes(self) -> None:
        columns = ("circle", "sheet", "played_on", "game", "change", "number", "moves", "at")
        made: list[tuple[Any, ...]] = []
        for where, item in _records(self.data, "changes"):
            stored = self._change_sheet(item, where)
            game = _choice(item, "game", where, tuple(GAMES))
            played_on = _date(item, "played_on", where)
            if stored is not None and game != stored.game:
                raise _refuse(
                    _path(where, "game"), _("This is not the game of the change's sheet.")
                )
            if stored is not None and played_on != stored.played_on:
                raise _refuse(
                    _path(where, "played_on"),
                    _("This is not the day the change's sheet was played."),
                )
            made.append(
                (
                    self.circle.pk,
                    stored.sheet_id if stored is not None else None,
                    played_on,
                    game,
                    _choice(item, "change", where, CHANGES),
                    _whole(item, "number", where, least=1, most=MAX_NUMBER, empty=True),
                    [self._move(move, at) for at, move in _records(item, "moves", where)],
                    _moment(item, "at", where),
                )
            )
            if len(made) == self.batch:
                _rows(StandingsChange, columns, made)
                made = []
        _rows(StandingsChange, columns, made)

    def _change_sheet(self, item: Mapping[str, Any], where: str) -> _Stored | None:
        index = _whole(item, "sheet", where, least=0, most=max(len(self.sheets) - 1, 0), empty=True)
        if index is not None and not self.sheets:
            raise _refuse(_path(where, "sheet"), _("The export has no sheets; give null here."))
        return self.sheets[index] if index is not None else None

    def _move(self, move: Mapping[str, Any], where: str) -> dict[str, Any]:
        """One seat's headline number before and after, as circles.results writes it,
        naming the player by its id here."""
        if set(move) != MOVE_KEYS:
            raise _refuse(
                where, _("A move has the keys player, name, before and after, and no others.")
            )
        old_id = _whole(move, "player", where, least=1, most=MAX_ID, empty=True)
        player = self.players.get(old_id) if old_id is not None else None
        if old_id is not None and player is None:
            raise _refuse(
                _path(where, "player"), _("Give the id of a player of the export, or null.")
            )
        return {
            "player": player.pk if player is not None else None,
            "name": _name(move, "name", where, most=services.MAX_PLAYER_NAME),
            "before": _whole(move, "before", where, least=-MAX_NUMBER, most=MAX_NUMBER, empty=True),
            "after": _whole(move, "after", where, least=-MAX_NUMBER, most=MAX_NUMBER, empty=True),
        }


def _deals(item: Mapping[str, Any], where: str) -> tuple[list[_Deal], list[_Deal]]:
    """The live deals in order, numbered 1 to n as a sheet numbers them, and the undone
    ones in the order "bring back" takes them (the latest undone first)."""
    live: list[_Deal] = []
    undone: list[_Deal] = []
    for index, (at, hand) in enumerate(_records(item, "hands", where)):
        deal = _Deal(
            where=at,
            index=index,
            number=_whole(hand, "number", at, least=1, most=MAX_NUMBER),
            entry=_mapping_at(hand, "entry", at),
            created_at=_moment(hand, "created_at", at),
            updated_at=_moment(hand, "updated_at", at),
            removed_at=_moment(hand, "removed_at", at, empty=True),
        )
        (live if deal.removed_at is None else undone).append(deal)
    live.sort(key=lambda deal: deal.number)
    for expected, deal in enumerate(live, start=1):
        if deal.number != expected:
            if deal.number > expected:
                message = _(
                    "The deals (rounds) of a sheet are numbered 1, 2, 3 … without a gap: "
                    "%(number)d is missing."
                )
            else:
                message = _(
                    "The deals (rounds) of a sheet are numbered 1, 2, 3 … once each: "
                    "%(number)d is there twice."
                )
            number = expected if deal.number > expected else deal.number
            raise _refuse(_path(where, "hands"), message % {"number": number})
    undone.sort(key=lambda deal: (deal.removed_at, deal.index), reverse=True)
    return live, undone


# -- The referee, in this process or in helper processes -------------------------------------


@dataclass(frozen=True)
class _Job:
    """What the referee needs of one sheet: its game, options as stored, seats, first
    dealer, live deals in order and undone deals in the order "bring back" takes them,
    and the language its refusals are said in."""

    game: str
    options: Mapping[str, Any]
    names: tuple[str, ...]
    first_dealer: int
    live: tuple[Mapping[str, Any], ...]
    undone: tuple[Mapping[str, Any], ...]
    language: str | None
    # The game as written on a tally card (circles.models.CircleSheet.tally), or None.
    tally: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class _Played:
    """What the referee made of a sheet: whether it is over, what each seat contributes
    to standings, the engine after the live deals as the sheet keeps it
    (``games.snapshots.dump``), or the deal it refused (live deals first, then the
    undone ones) and why, in words."""

    finished: bool = False
    stats: tuple[Mapping[str, Any], ...] = ()
    engine: Any = None
    refused: int | None = None
    why: str = ""


@dataclass
class _Checked:
    """One sheet of the file after its checks: the sheet not stored yet with its seats'
    names and players and its deals, the referee's job, and the first problem met
    before the referee plays its live deals or after."""

    where: str
    sheet: Sheet | None = None
    names: list[str] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)
    live: list[_Deal] = field(default_factory=list)
    undone: list[_Deal] = field(default_factory=list)
    excluded: bool = False
    tally: Mapping[str, Any] | None = None
    added_at: datetime.datetime | None = None
    job: _Job | None = None
    before_play: RuleError | None = None
    after_play: RuleError | None = None


def _play(jobs: Sequence[_Job]) -> list[_Played]:
    """Each sheet's deals through its game's referee, as a deal entered on the sheet
    goes (``games.selectors.replayed_engine``): the live ones in order, then the undone
    ones one by one where "bring back" would put them. What the seats contribute is
    derived as ``circles.results.replay_results`` derives it from the same deals."""
    return [_play_one(job) for job in jobs]


def _play_one(job: _Job) -> _Played:
    with translation.override(job.language):
        entry = GAMES[job.game]
        options = entry.read_options(job.options, players=None)
        engine = entry.new_sheet(names=job.names, first_dealer=job.first_dealer, options=options)
        for index, deal in enumerate(job.live):
            try:
                engine.add(entry.read_deal(deal, players=len(job.names), options=options))
            except RuleError as error:
                return _Played(refused=index, why=_why(error))
        state = engine.state
        if job.tally is None:
            stats = tuple(seat_stats(job.game, state, job.live))
        else:
            # Written on a tally card: it contributes that game (circles.results).
            stats = tuple(seat_stats(job.game, tally_state(job.game, job.tally, job.names), ()))
        # The engine as a write keeps it (games.selectors.keep_engine): the sheet's page
        # and its next deal start from it.
        kept = snapshots.dump(engine)
        for index, deal in enumerate(job.undone, start=len(job.live)):
            try:
                engine.add(entry.read_deal(deal, players=len(job.names), options=options))
            except RuleError as error:
                return _Played(refused=index, why=_why(error))
        return _Played(finished=state.finished, stats=stats, engine=kept)


def _why(error: RuleError) -> str:
    return " ".join(str(problem.message) for problem in error.problems)


def _refused(deal: _Deal, why: str) -> RuleError:
    if deal.removed_at is None:
        message = _("The referee refuses what was entered here: %(why)s")
    else:
        message = _(
            "The referee refuses this undone entry where “bring back” would put it: %(why)s"
        )
    return _refuse(deal.where, message % {"why": why})


def _helpers(sheets: int) -> int:
    """How many helper processes play the deals of an import of ``sheets`` sheets: one a
    core for a large import (the referee is pure Python, the sheets independent of one
    another), none for a small one (starting them costs about a second)."""
    # The cores this process may run on (a container may get fewer than the machine has).
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    if sheets < HELPERS_FROM or cores < 2:
        return 0
    return min(cores, MAX_HELPERS)


@contextlib.contextmanager
def _referees(processes: int) -> Iterator[Callable[[Sequence[_Job]], Callable[[], list[_Played]]]]:
    """A function that starts playing jobs and gives a function that waits for what the
    referee made of them: in this process when it is asked for (``processes`` 0), else
    in helper processes at once, each taking a part of the jobs. Should a helper die
    (killed, out of memory) or not start, this process plays the jobs instead."""

    def here(jobs: Sequence[_Job]) -> Callable[[], list[_Played]]:
        return functools.partial(_play, list(jobs))

    if processes <= 0:
        yield here
        return
    # Started afresh (not forked from a process holding a database connection), Django
    # set up by each before it reads a job; they never open the database.
    pool = ProcessPoolExecutor(
        max_workers=processes,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=django.setup,
    )
    broken = False

    def start(jobs: Sequence[_Job]) -> Callable[[], list[_Played]]:
        nonlocal broken
        if broken:
            return here(jobs)
        size = max(math.ceil(len(jobs) / (processes * 4)), 1)
        try:
            parts = [pool.submit(_play, jobs[at : at + size]) for at in range(0, len(jobs), size)]
        except (BrokenProcessPool, OSError):
            broken = True
            return here(jobs)

        def results() -> list[_Played]:
            nonlocal broken
            try:
                return [played for part in parts for played in part.result()]
            except BrokenProcessPool:
                broken = True
                return _play(jobs)

        return results

    try:
        yield start
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    iterator = iter(items)
    while batch := list(itertools.islice(iterator, size)):
        yield batch


def _new_sheet(
    *,
    game: object,
    players: list[str],
    first_dealer: object,
    options: Mapping[str, Any],
    owner: Any,
    played_on: object,
) -> tuple[Sheet, list[str]]:
    """The sheet ``games.services.sheet_create`` would make of these, not stored (it
    gets its own new links), and the seats' names as it tidies them; RuleError with
    each of its problems, in its words."""
    return sheet_services.sheet_checked(
        game=game,
        players=players,
        first_dealer=first_dealer,
        options=options,
        owner=owner,
        played_on=played_on,
    )


def _insert(model: type[models.Model], objs: Sequence[models.Model]) -> None:
    """Insert ``objs`` as they are, in as few statements as the database takes (as
    ``bulk_create`` cuts them), each object given its new id.

    Unlike ``bulk_create`` this keeps the moments the objects hold: bulk_create stamps
    every ``auto_now`` and ``auto_now_add`` column (made, changed) with the present
    moment, and an import keeps the export's. It inserts as ``loaddata`` does (Django's
    raw insert, which leaves fields as they are), so every such moment must be set."""
    if not objs:
        return
    opts = model._meta
    using = router.db_for_write(model)
    connection = connections[using]
    if not connection.features.can_return_rows_from_bulk_insert:
        for obj in objs:  # a database that cannot say the ids of many new rows at once
            obj.save_base(raw=True, force_insert=True, using=using)
        return
    fields = [f for f in opts.concrete_fields if f is not opts.auto_field and not f.generated]
    returning = opts.db_returning_fields
    size = max(connection.ops.bulk_batch_size(fields, objs), 1)
    for start in range(0, len(objs), size):
        part = objs[start : start + size]
        rows = model._base_manager._insert(
            part, fields=fields, returning_fields=returning, raw=True, using=using
        )
        for obj, row in zip(part, rows, strict=True):
            for column, value in zip(returning, row, strict=True):
                setattr(obj, column.attname, value)
            obj._state.adding = False
            obj._state.db = using


# Columns whose values the database driver cannot take as Python has them.
PREPARED = frozenset({"DateTimeField", "DateField", "JSONField", "BinaryField", "DecimalField"})


def _rows(model: type[models.Model], columns: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Insert ``rows`` of ``model``, each the values of the fields named by ``columns``
    (by field name), with one statement the database runs once a row (``executemany``):
    one query whatever the number of rows, no model object made and no moment stamped
    (the rows say every moment). Moments, days, JSON and bytes are prepared as the
    fields prepare them; whole numbers, texts, flags and ids go as they are."""
    if not rows:
        return
    using = router.db_for_write(model)
    connection = connections[using]
    fields = [model._meta.get_field(name) for name in columns]
    prepare = [
        functools.partial(field.get_db_prep_save, connection=connection)
        if field.get_internal_type() in PREPARED
        else None
        for field in fields
    ]
    quote = connection.ops.quote_name
    sql = "INSERT INTO {} ({}) VALUES ({})".format(
        quote(model._meta.db_table),
        ", ".join(quote(field.column) for field in fields),
        ", ".join(["%s"] * len(fields)),
    )
    values = [
        tuple(
            value if how is None or value is None else how(value)
            for how, value in zip(prepare, row, strict=True)
        )
        for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, values)
