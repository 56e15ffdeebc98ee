"""A whole circle as one JSON document, and back.

``export_circle`` writes everything the circle owns: its members (by user name and
e-mail, never a password), players, seasons with their club rules, and every sheet
with its seats and deals exactly as entered (undone deals included, so "bring back"
still works), and the standings' change log. It writes none of the circle's links
(tokens): not the invite link, not a season's share link, not a sheet's edit or view
link. An import never used them, and in the file they would open the circle on its
own server to whoever reads it. The members' e-mail addresses stay (the operator of
an import tells by them whom to map to which account), so the file is still personal
data, for its owner alone.

``import_circle`` reads such a document as hostile input: anybody could have written
the file. Everything in it goes through the checks the pages and the API use (the
names, a sheet's game, seats and options, the seasons, every deal through the game's
referee, the live deals numbered 1 to n as the sheets keep them) and through checks of
its own shape (types, whole numbers in range, real moments, nothing nested deeper than
an export nests). A file that fails any of them is refused with a message that names
the field, and nothing is stored. What a file cannot be trusted with is never taken
from it:

- Links: the circle, its seasons and its sheets get new tokens. An export holds none;
  the links an older export holds (``invite_token``, ``view_token``, ``edit_token``)
  are read by nothing and open nothing here. So every import is a new circle: one file
  imported twice is two circles.
- Accounts: none is made, and none is attached unless the operator maps the export's
  user name to an account here (``accounts``). A member left unmapped is left out; their
  player stays, under its name, without an account. Someone here must own the circle:
  a mapped owner of the export, or the ``owner`` named.

What standings need is derived again from the deals, as it always can be; the moments
of the export (made, joined, changed) are kept when they are real ones.
"""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import DataError, IntegrityError, transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from circles import services
from circles.models import (
    Circle,
    CircleSheet,
    Membership,
    Player,
    Season,
    SeatPlayer,
    StandingsChange,
)
from circles.results import replay_results
from circles.wording import CHANGE_WORDS
from games import services as sheet_services
from games.games import GAMES
from games.models import Hand, Sheet, SheetEvent
from games.rules.errors import Problem, RuleError
from games.selectors import keep_engine, seat_names

FORMAT = "scorekeeper-circle"
VERSION = 1

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


def _when(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _day(value: datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_circle(circle: Circle) -> dict[str, Any]:
    players = list(circle.players.select_related("user").order_by("pk"))
    links = list(
        CircleSheet.objects.filter(circle=circle)
        .select_related("sheet__owner")
        .prefetch_related("seat_players", "sheet__seats", "sheet__hands")
        .order_by("sheet_id")
    )
    sheet_index = {link.pk: i for i, link in enumerate(links)}
    return {
        "format": FORMAT,
        "version": VERSION,
        "circle": {
            "name": circle.name,
            "created_at": _when(circle.created_at),
        },
        "members": [
            {
                "username": m.user.get_username(),
                "email": m.user.email,
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
            for p in players
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
        "sheets": [_export_sheet(link) for link in links],
        "changes": [
            {
                "sheet": sheet_index.get(c.sheet_id) if c.sheet_id else None,
                "played_on": _day(c.played_on),
                "game": c.game,
                "change": c.change,
                "number": c.number,
                "moves": c.moves,
                "at": _when(c.at),
            }
            for c in circle.changes.order_by("pk")
        ],
    }


def _export_sheet(link: CircleSheet) -> dict[str, Any]:
    sheet = link.sheet
    players = {seat.position: seat.player_id for seat in link.seat_players.all()}
    return {
        "game": sheet.game,
        "options": sheet.options,
        "first_dealer": sheet.first_dealer,
        "owner": sheet.owner.get_username() if sheet.owner else None,
        "version": sheet.version,
        "created_at": _when(sheet.created_at),
        "updated_at": _when(sheet.updated_at),
        "played_on": _day(link.played_on),
        "excluded": link.excluded,
        "added_at": _when(link.added_at),
        "seats": [
            {"position": s.position, "name": s.name, "player": players[s.position]}
            for s in sorted(sheet.seats.all(), key=lambda s: s.position)
        ],
        "hands": [
            {
                "number": h.number,
                "entry": h.entry,
                "created_at": _when(h.created_at),
                "updated_at": _when(h.updated_at),
                "removed_at": _when(h.removed_at),
            }
            for h in sorted(sheet.hands.all(), key=lambda h: (h.removed_at is not None, h.number))
        ],
    }


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
    data: Any, *, accounts: Mapping[str, Any] | None = None, owner: Any = None
) -> Circle:
    """A new circle, with new links, from an exported document; RuleError, naming the
    field, for anything the pages would refuse or an export never holds, and then
    nothing is stored. ``accounts`` maps the export's user names to accounts here (the
    only accounts attached); ``owner`` is an account here that owns the circle too.
    NoOwner when nobody here would own it."""
    _check_head(data)
    try:
        with transaction.atomic():
            return _Import(data, dict(accounts or {}), owner).run()
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
    if type(version) is not int or version != VERSION:
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
class _Import:
    """One import, part by part, in the order the parts need each other."""

    data: Mapping[str, Any]
    accounts: dict[str, Any]
    owner: Any
    circle: Circle | None = None
    players: dict[int, Player] = field(default_factory=dict)
    links: list[CircleSheet] = field(default_factory=list)

    def run(self) -> Circle:
        members = self._members()
        self._check_accounts(members)
        self.circle = self._circle(members)
        self._players(members)
        self._seasons()
        for where, item in _records(self.data, "sheets"):
            self.links.append(self._sheet(item, where))
        self._changes()
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
            player = Player.objects.create(
                circle=self.circle,
                name=name,
                name_key=name.casefold(),
                # Only an account the operator mapped: the file's user name is just a name.
                user=self.accounts.get(user) if user is not None else None,
                guest=_flag(item, "guest", where),
                shown_as=_choice(item, "shown_as", where, shown_as),
                erased=erased,
            )
            created = _moment(item, "created_at", where)
            Player.objects.filter(pk=player.pk).update(created_at=created)
            self.players[old_id] = player

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

    def _sheet(self, item: Mapping[str, Any], where: str) -> CircleSheet:
        names, players = self._seats(item, where)
        owner = _username(item, "owner", where, empty=True)
        options = _mapping_at(item, "options", where)
        try:
            # The new-sheet checks: the game, the seats' names and number, the first
            # dealer, the options, the day played. New edit and view links.
            sheet = sheet_services.sheet_create(
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
        engine = _play(sheet, live)
        for deal in sorted([*live, *undone], key=lambda deal: deal.index):
            _store_deal(sheet, deal)
        link = CircleSheet.objects.create(
            sheet=sheet,
            circle=self.circle,
            played_on=sheet.played_on,
            excluded=_flag(item, "excluded", where),
        )
        CircleSheet.objects.filter(pk=link.pk).update(added_at=_moment(item, "added_at", where))
        SeatPlayer.objects.bulk_create(
            SeatPlayer(sheet=link, position=position, player=player)
            for position, player in enumerate(players)
        )
        replay_results(link, change="started")
        self._date_sheet(sheet, item, where, engine, deals=len(live))
        # "Bring back" puts the undone deals back after the live ones, one by one: each
        # must fit there (the engine after the live deals is kept already).
        _play(sheet, undone, engine)
        return link

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

    def _date_sheet(
        self, sheet: Sheet, item: Mapping[str, Any], where: str, engine: Any, *, deals: int
    ) -> None:
        """The sheet's moments and version as exported, its derived columns from the deals,
        and the engine after its last deal kept for that version."""
        created = _moment(item, "created_at", where)
        sheet.version = _whole(item, "version", where, least=0, most=MAX_NUMBER)
        Sheet.objects.filter(pk=sheet.pk).update(
            version=sheet.version,
            created_at=created,
            updated_at=_moment(item, "updated_at", where),
            deal_count=deals,
            finished=engine.state.finished,
        )
        SheetEvent.objects.filter(sheet=sheet, kind=SheetEvent.STARTED).update(at=created)
        keep_engine(sheet, engine)

    # -- the change log

    def _changes(self) -> None:
        for where, item in _records(self.data, "changes"):
            link = self._change_sheet(item, where)
            game = _choice(item, "game", where, tuple(GAMES))
            played_on = _date(item, "played_on", where)
            if link is not None and game != link.sheet.game:
                raise _refuse(
                    _path(where, "game"), _("This is not the game of the change's sheet.")
                )
            if link is not None and played_on != link.played_on:
                raise _refuse(
                    _path(where, "played_on"),
                    _("This is not the day the change's sheet was played."),
                )
            change = StandingsChange.objects.create(
                circle=self.circle,
                sheet=link,
                played_on=played_on,
                game=game,
                change=_choice(item, "change", where, CHANGES),
                number=_whole(item, "number", where, least=1, most=MAX_NUMBER, empty=True),
                moves=[self._move(move, at) for at, move in _records(item, "moves", where)],
            )
            StandingsChange.objects.filter(pk=change.pk).update(at=_moment(item, "at", where))

    def _change_sheet(self, item: Mapping[str, Any], where: str) -> CircleSheet | None:
        index = _whole(item, "sheet", where, least=0, most=max(len(self.links) - 1, 0), empty=True)
        if index is not None and not self.links:
            raise _refuse(_path(where, "sheet"), _("The export has no sheets; give null here."))
        return self.links[index] if index is not None else None

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


def _play(sheet: Sheet, deals: Sequence[_Deal], engine: Any = None) -> Any:
    """The game's engine after ``deals`` (added to ``engine``, or to a new one), each
    checked by the game's referee as a deal entered on the sheet is."""
    entry = GAMES[sheet.game]
    options = entry.sheet_options(sheet)
    names = seat_names(sheet)
    if engine is None:
        engine = entry.new_sheet(names=names, first_dealer=sheet.first_dealer, options=options)
    for deal in deals:
        try:
            engine.add(entry.read_deal(deal.entry, players=len(names), options=options))
        except RuleError as error:
            why = " ".join(str(problem.message) for problem in error.problems)
            if deal.removed_at is None:
                message = _("The referee refuses what was entered here: %(why)s")
            else:
                message = _(
                    "The referee refuses this undone entry where “bring back” would put it: %(why)s"
                )
            raise _refuse(deal.where, message % {"why": why}) from error
    return engine


def _store_deal(sheet: Sheet, deal: _Deal) -> None:
    hand = Hand.objects.create(
        sheet=sheet, number=deal.number, entry=deal.entry, removed_at=deal.removed_at
    )
    Hand.objects.filter(pk=hand.pk).update(created_at=deal.created_at, updated_at=deal.updated_at)
