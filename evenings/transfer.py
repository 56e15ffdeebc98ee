"""A circle's club evenings in the circle's export, and back (``circles.transfer``).

The circles app never imports this one: this module registers the evenings' part of
the document (``circles.transfer.Part``), and the export and the import find it as
Django finds admin modules. The part is

- the circle's usual money rules (``Circle.evening_money``) as the document's
  ``circle.evening_money``, ``{}`` for none;
- the list ``evenings``, one evening a line: its settings and money rules, its roll
  (each player with an ``id`` of the file, and the circle's player it is, by the
  export's player id), its series with their tables (each naming its sheet by its place
  in the file's ``sheets``) and seats, its change notes, payments and bill changes.

None of an evening's links is written (its organiser and view links, its players' own
links): the import makes new ones. A money rule, an amount, a name, a team or a
category is checked as the evening's pages check it (``evenings.rules.money``, the
roll's checks); a seat, a payment or a note names a player of that evening's roll, a
table a sheet of the file of the evening's game with a seat for each of its players
(no sheet is two tables'), and the evening's ranking must read as its pages read it.
What the tables keep of their sheets (points, games won and lost) is taken as the
file says, checked in range, as the standings' change log is.

The evenings are read and written a batch at a time (``BATCH`` at most): the export
with the same eight queries a batch, the import with eight statements a batch (the
evenings, rolls, series, tables, seats, notes, payments and bill changes), whatever
the batch holds.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from circles import services as circle_services
from circles import transfer
from circles.models import Circle
from circles.transfer import (
    MAX_ID,
    MAX_NUMBER,
    Loading,
    Part,
    _batches,
    _choice,
    _date,
    _day,
    _flag,
    _insert,
    _json,
    _mapping_at,
    _moment,
    _name,
    _path,
    _records,
    _refuse,
    _rows,
    _text,
    _username,
    _value,
    _when,
    _whole,
)
from evenings import accounts, selectors
from evenings import services as evening_services
from evenings.models import (
    BillChange,
    Evening,
    EveningChange,
    EveningPlayer,
    EveningTable,
    Payment,
    Series,
    TableSeat,
)
from evenings.rules import money as money_rules
from evenings.rules import movement as movement_rules
from evenings.rules import pitch_night, seating
from games import services as sheet_services
from games.rules.errors import Problem, ProblemCollector, RuleError
from games.rules.pitch import PitchOptions

KEY = "evenings"
# Evenings read, or checked and stored, at a time (at most: a smaller batch of the
# circle's export or import is taken as it is). An evening of a hundred players holds
# hundreds of seats; twenty of them are a few thousand rows.
BATCH = 20
# The largest whole number a small positive integer column keeps (a table's deals).
MAX_SMALL = 32767
EVENING_NAME = 80  # evening_create's limit
PLAYER_NAME = evening_services.NAME_LENGTH
# Who marked a payment, or undid it (Payment.by).
BY_LENGTH = 150
METHODS = (*seating.METHODS, *movement_rules.MOVEMENTS)
BILL_CHANGES = ("corrected", "removed", "restored")


# -- Writing ---------------------------------------------------------------------------------


def circle_fields(circle: Circle) -> dict[str, Any]:
    """The circle's usual money rules as they read (``{}`` when they do not)."""
    return {"evening_money": accounts.circle_rules(circle)}


def export_evenings(circle: Circle, sheets: Mapping[int, int], batch: int) -> Iterator[list[str]]:
    """The circle's evenings as JSON texts, a batch at a time (eight queries a batch);
    ``sheets`` gives each sheet's place in the file by its id."""
    ids = list(Evening.objects.filter(circle=circle).order_by("pk").values_list("pk", flat=True))
    size = max(min(batch, BATCH), 1)
    for start in range(0, len(ids), size):
        yield _written(ids[start : start + size], sheets)


def _amount(value: Decimal, currency: str) -> str:
    """An amount as the evening's currency writes it ("6.00", "600" yen): the column
    keeps two places whatever the currency."""
    exact = value.quantize(money_rules.smallest(currency))
    return str(exact if exact == value else value)


def _written(ids: Sequence[int], sheets: Mapping[int, int]) -> list[str]:
    username = f"created_by__{get_user_model().USERNAME_FIELD}"
    evenings = list(
        Evening.objects.filter(pk__in=ids)
        .order_by("pk")
        .values(
            "pk",
            "name",
            "played_on",
            "game",
            "series_count",
            "series_deals",
            "table_order",
            "sit_out",
            "movement",
            "counts",
            "round_format",
            "pitch_options",
            "round_hands",
            "round_minutes",
            "money",
            username,
            "version",
            "created_at",
        )
    )
    players: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in (
        EveningPlayer.objects.filter(evening_id__in=ids)
        .order_by("pk")
        .values("evening_id", "pk", "name", "circle_player_id", "left", "team", "tags", "joined_at")
    ):
        players[row["evening_id"]].append(
            {
                "id": row["pk"],
                "name": row["name"],
                "player": row["circle_player_id"],
                "left": row["left"],
                "team": row["team"],
                "tags": row["tags"],
                "joined_at": _when(row["joined_at"]),
            }
        )
    series: dict[int, list[dict[str, Any]]] = defaultdict(list)
    by_series: dict[int, dict[str, Any]] = {}
    for row in (
        Series.objects.filter(evening_id__in=ids)
        .order_by("evening_id", "number")
        .values(
            "pk",
            "evening_id",
            "number",
            "method",
            "seed",
            "keep_apart",
            "attempt",
            "swaps",
            "sitting_out",
            "time_called_at",
            "closed",
            "created_at",
        )
    ):
        item = {
            "number": row["number"],
            "method": row["method"],
            "seed": row["seed"],
            "keep_apart": row["keep_apart"],
            "attempt": row["attempt"],
            "swaps": row["swaps"],
            "sitting_out": row["sitting_out"],
            "time_called_at": _when(row["time_called_at"]),
            "closed": row["closed"],
            "created_at": _when(row["created_at"]),
            "tables": [],
        }
        series[row["evening_id"]].append(item)
        by_series[row["pk"]] = item
    by_table: dict[int, dict[str, Any]] = {}
    for row in (
        EveningTable.objects.filter(series__evening_id__in=ids)
        .order_by("series_id", "number")
        .values(
            "pk",
            "series_id",
            "number",
            "size",
            "sheet_id",
            "deals",
            "of",
            "paper",
            "done",
            "signed_at",
            "last_entry_at",
            "winning_team",
            "ends_after",
            "level_winner",
        )
    ):
        item = {
            "number": row["number"],
            "size": row["size"],
            # Its place in the file (null: a sheet not in it).
            "sheet": sheets.get(row["sheet_id"]) if row["sheet_id"] else None,
            "deals": row["deals"],
            "of": row["of"],
            "paper": row["paper"],
            "done": row["done"],
            "signed_at": _when(row["signed_at"]),
            "last_entry_at": _when(row["last_entry_at"]),
            "winning_team": row["winning_team"],
            "ends_after": row["ends_after"],
            "level_winner": row["level_winner"],
            "seats": [],
        }
        by_series[row["series_id"]]["tables"].append(item)
        by_table[row["pk"]] = item
    for row in (
        TableSeat.objects.filter(table__series__evening_id__in=ids)
        .order_by("table_id", "position")
        .values(
            "table_id", "position", "player_id", "points", "won", "lost", "others_lost", "signed"
        )
    ):
        by_table[row.pop("table_id")]["seats"].append(
            {"player" if key == "player_id" else key: value for key, value in row.items()}
        )
    changes: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in (
        EveningChange.objects.filter(evening_id__in=ids)
        .order_by("pk")
        .values("evening_id", "table__series__number", "table__number", "moves", "at")
    ):
        changes[row["evening_id"]].append(
            {
                "series": row["table__series__number"],
                "table": row["table__number"],
                "moves": row["moves"],
                "at": _when(row["at"]),
            }
        )
    currency = {
        row["pk"]: (accounts.read_kept(row["money"]) or money_rules.NO_MONEY).currency
        for row in evenings
    }
    payments: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in (
        Payment.objects.filter(evening_id__in=ids)
        .order_by("pk")
        .values("evening_id", "player_id", "amount", "at", "by", "undone_at", "undone_by")
    ):
        payments[row["evening_id"]].append(
            {
                "player": row["player_id"],
                "amount": _amount(row["amount"], currency[row["evening_id"]]),
                "at": _when(row["at"]),
                "by": row["by"],
                "undone_at": _when(row["undone_at"]),
                "undone_by": row["undone_by"],
            }
        )
    bills: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for row in (
        BillChange.objects.filter(evening_id__in=ids)
        .order_by("pk")
        .values(
            "evening_id",
            "player_id",
            "table__series__number",
            "table__number",
            "change",
            "lost_before",
            "lost_after",
            "fee_before",
            "fee_after",
            "at",
        )
    ):
        kept = currency[row["evening_id"]]
        bills[row["evening_id"]].append(
            {
                "player": row["player_id"],
                "series": row["table__series__number"],
                "table": row["table__number"],
                "change": row["change"],
                "lost_before": row["lost_before"],
                "lost_after": row["lost_after"],
                "fee_before": _amount(row["fee_before"], kept),
                "fee_after": _amount(row["fee_after"], kept),
                "at": _when(row["at"]),
            }
        )
    lines = []
    for row in evenings:
        pk = row["pk"]
        rules = accounts.read_kept(row["money"])
        lines.append(
            _json(
                {
                    "name": row["name"],
                    "played_on": _day(row["played_on"]),
                    "game": row["game"],
                    "series_count": row["series_count"],
                    "series_deals": row["series_deals"],
                    "table_order": row["table_order"],
                    "sit_out": row["sit_out"],
                    "movement": row["movement"],
                    "counts": row["counts"],
                    "round_format": row["round_format"],
                    "pitch_options": row["pitch_options"],
                    "round_hands": row["round_hands"],
                    "round_minutes": row["round_minutes"],
                    # As they read (the evening's pages read them so): {} for none.
                    "money": rules.as_dict() if rules else {},
                    "created_by": row[username],
                    "version": row["version"],
                    "created_at": _when(row["created_at"]),
                    "players": players[pk],
                    "series": series[pk],
                    "changes": changes[pk],
                    "payments": payments[pk],
                    "bill_changes": bills[pk],
                }
            )
        )
    return lines


# -- Reading ---------------------------------------------------------------------------------


def usernames(data: Mapping[str, Any]) -> list[str]:
    """Who started the document's evenings, by user name (an operator may map them)."""
    if not isinstance(data.get(KEY), list):
        return []  # refused, or none in an older file, when the evenings are read
    found = (
        _username(item, "created_by", where, empty=True) for where, item in _records(data, KEY)
    )
    return [name for name in found if name is not None]


def load(loading: Loading) -> None:
    """The circle's usual money rules, then its evenings a batch at a time: checked,
    then stored with one statement a table for each batch."""
    info = loading.data["circle"]  # an object: the circle's import read it
    if loading.holds(info, "evening_money"):
        rules = _money(_mapping_at(info, "evening_money", "circle"), "circle.evening_money")
        if rules:
            Circle.objects.filter(pk=loading.circle.pk).update(evening_money=rules)
            loading.circle.evening_money = rules
    if not loading.holds(loading.data, KEY):
        return
    sheets_taken: set[int] = set()  # the places in the file of the sheets tables have
    size = max(min(loading.batch, BATCH), 1)
    for records in _batches(_records(loading.data, KEY), size):
        _store([_Reader(loading, item, where, sheets_taken).evening() for where, item in records])


def _money(value: Mapping[str, Any], where: str) -> dict[str, Any]:
    """Money rules as the evening's pages take them (``read_rules``), ``{}`` for none;
    RuleError naming the file's fields."""
    if not value:
        return {}
    try:
        return money_rules.read_rules(value).as_dict()
    except RuleError as error:
        raise RuleError(
            Problem(
                where + p.field.removeprefix("money")
                if p.field and p.field.startswith("money")
                else where,
                p.message,
            )
            for p in error.problems
        ) from error


@dataclass
class _Table:
    table: EveningTable
    # position, player (id in the file), points, won, lost, others lost, signed
    seats: list[tuple[int, int, int, int, int, int, bool]] = field(default_factory=list)


@dataclass
class _Series:
    series: Series
    swaps: list[tuple[int, int, str]] = field(default_factory=list)
    tables: list[_Table] = field(default_factory=list)


@dataclass
class _Planned:
    """One evening of the file, checked, not stored yet; its players are named by their
    ids in the file until the roll is stored."""

    evening: Evening
    players: dict[int, EveningPlayer]
    series: list[_Series]
    changes: list[tuple[EveningTable, list[dict[str, Any]], datetime.datetime]]
    payments: list[tuple[int, Decimal, datetime.datetime, str, datetime.datetime | None, str]]
    bills: list[tuple[int, EveningTable, str, int, int, Decimal, Decimal, datetime.datetime]]


class _Reader:
    """Reads one evening of the file, as hostile as the rest of it."""

    def __init__(
        self, loading: Loading, item: Mapping[str, Any], where: str, taken: set[int]
    ) -> None:
        self.loading, self.item, self.where, self.taken = loading, item, where, taken
        self.roll: dict[int, EveningPlayer] = {}
        self.series: list[_Series] = []

    def evening(self) -> _Planned:
        item, where = self.item, self.where
        evening = self._settings()
        self._roll()
        self._series(evening)
        currency = (accounts.read_kept(evening.money) or money_rules.NO_MONEY).currency
        planned = _Planned(
            evening=evening,
            players=self.roll,
            series=self.series,
            changes=[self._change(change, at) for at, change in _records(item, "changes", where)],
            payments=[
                self._payment(payment, at, currency)
                for at, payment in _records(item, "payments", where)
            ],
            bills=[
                self._bill(bill, at, currency) for at, bill in _records(item, "bill_changes", where)
            ],
        )
        self._ranks(evening)
        return planned

    # -- the evening's settings, as evening_create checks them

    def _settings(self) -> Evening:
        item, where = self.item, self.where
        game = _choice(item, "game", where, seating.GAMES)
        pitch = game == "pitch"
        movement = _choice(item, "movement", where, (Evening.LOT, *movement_rules.MOVEMENTS))
        if movement != Evening.LOT and not pitch:
            raise _refuse(
                _path(where, "movement"),
                _("Only a Pitch night moves its players progressively or by the rotation."),
            )
        counts = _choice(item, "counts", where, pitch_night.MODES)
        if counts != Evening.POINTS and not pitch:
            raise _refuse(
                _path(where, "counts"), _("Match points are counted at a Pitch night only.")
            )
        formats = (Evening.TO_TARGET, Evening.HANDS, Evening.MINUTES)
        round_format = _choice(item, "round_format", where, formats)
        if round_format != Evening.TO_TARGET and not pitch:
            raise _refuse(
                _path(where, "round_format"),
                _("Rounds of hands or minutes are played at a Pitch night only."),
            )
        # Kept only for the round format that uses it, as evening_create keeps it.
        hands = _whole(
            item,
            "round_hands",
            where,
            least=1,
            most=evening_services.MOST_HANDS,
            empty=round_format != Evening.HANDS,
        )
        low, high = evening_services.MINUTES_RANGE
        minutes = _whole(
            item,
            "round_minutes",
            where,
            least=low,
            most=high,
            empty=round_format != Evening.MINUTES,
        )
        options = _mapping_at(item, "pitch_options", where)
        if pitch and options:
            path = _path(where, "pitch_options")
            if "hands" in options:
                raise _refuse(
                    _path(path, "hands"),
                    _(
                        "A night's rounds of a number of hands are chosen by the round "
                        'format (round_format "hands" and round_hands), not by a sheet '
                        "option."
                    ),
                )
            PitchOptions.from_mapping(options, field=path)
        deals = seating.SeriesDeals.from_mapping(
            _mapping_at(item, "series_deals", where), field=_path(where, "series_deals")
        )
        creator = _username(item, "created_by", where, empty=True)
        return Evening(
            name=_name(item, "name", where, most=EVENING_NAME),
            played_on=_date(item, "played_on", where),
            game=game,
            series_count=_whole(
                item, "series_count", where, least=1, most=evening_services.MOST_SERIES
            ),
            series_deals=deals.as_dict(),
            table_order=_choice(item, "table_order", where, seating.TABLE_ORDERS),
            sit_out=_flag(item, "sit_out", where) and pitch,
            movement=movement,
            counts=counts,
            round_format=round_format,
            pitch_options=dict(options) if pitch else {},
            round_hands=hands if round_format == Evening.HANDS else None,
            round_minutes=minutes if round_format == Evening.MINUTES else None,
            money=_money(_mapping_at(item, "money", where), _path(where, "money")),
            circle=self.loading.circle,
            # Only an account the operator mapped: the file's user name is just a name.
            created_by=self.loading.accounts.get(creator) if creator is not None else None,
            version=_whole(item, "version", where, least=0, most=MAX_NUMBER),
            created_at=_moment(item, "created_at", where),
        )

    # -- the roll, as players_add and player_update check it

    def _roll(self) -> None:
        names: set[str] = set()
        for at, entry in _records(self.item, "players", self.where):
            old = _whole(entry, "id", at, least=1, most=MAX_ID)
            if old in self.roll:
                raise _refuse(_path(at, "id"), _("Another player of the export has this id."))
            name = _name(entry, "name", at, most=PLAYER_NAME)
            if name.casefold() in names:
                raise _refuse(
                    _path(at, "name"), _("%(name)s is on the roll already.") % {"name": name}
                )
            names.add(name.casefold())
            circle_id = _whole(entry, "player", at, least=1, most=MAX_ID, empty=True)
            circle_player = self.loading.players.get(circle_id) if circle_id is not None else None
            if circle_id is not None and circle_player is None:
                raise _refuse(
                    _path(at, "player"), _("Give the id of a player of the export, or null.")
                )
            self.roll[old] = EveningPlayer(
                name=name,
                circle_player=circle_player,
                left=_flag(entry, "left", at),
                team=_label(entry, "team", at, most=PLAYER_NAME),
                tags=_tags(entry, at),
                joined_at=_moment(entry, "joined_at", at),
            )

    def _player(self, item: Mapping[str, Any], key: str, where: str) -> int:
        """A player of the evening's roll, by the id the file gives it."""
        old = _whole(item, key, where, least=1, most=MAX_ID)
        if old not in self.roll:
            raise _refuse(
                _path(where, key), _("Give the id of a player on this evening's roll here.")
            )
        return old

    # -- the series, their tables and seats, as the draw makes them

    def _series(self, evening: Evening) -> None:
        methods = seating.METHODS if evening.movement == Evening.LOT else (evening.movement,)
        listed = list(_records(self.item, "series", self.where))
        for number, (at, entry) in enumerate(listed, start=1):
            _numbered(entry, at, number, most=evening.series_count)
            placed: set[int] = set()
            out = self._sitting_out(entry, at, placed)
            series = Series(
                evening=evening,
                number=number,
                method=_choice(entry, "method", at, methods),
                seed=_whole(entry, "seed", at, least=0, most=MAX_NUMBER, empty=True),
                keep_apart=_flag(entry, "keep_apart", at),
                attempt=_whole(entry, "attempt", at, least=0, most=seating.KEEP_APART_TRIES - 1),
                sitting_out=out,
                time_called_at=_moment(entry, "time_called_at", at, empty=True),
                closed=_flag(entry, "closed", at),
                created_at=_moment(entry, "created_at", at),
            )
            read = _Series(series)
            for swap_at, swap in _records(entry, "swaps", at):
                first = self._player(swap, "first", swap_at)
                second = self._player(swap, "second", swap_at)
                read.swaps.append((first, second, _moment(swap, "at", swap_at).isoformat()))
            tables = list(_records(entry, "tables", at))
            for table_number, (table_at, table) in enumerate(tables, start=1):
                read.tables.append(
                    self._table(evening, series, table, table_at, table_number, placed)
                )
            self.series.append(read)

    def _sitting_out(self, entry: Mapping[str, Any], where: str, placed: set[int]) -> list[int]:
        value, path = _value(entry, "sitting_out", where)
        if not isinstance(value, list):
            raise _refuse(path, _("Give a list here."))
        for index, old in enumerate(value):
            if type(old) is not int or old not in self.roll or old in placed:
                raise _refuse(
                    _path(path, index),
                    _("Give the id of a player of the export who has no other seat here."),
                )
            placed.add(old)
        return list(value)

    def _table(
        self,
        evening: Evening,
        series: Series,
        item: Mapping[str, Any],
        where: str,
        number: int,
        placed: set[int],
    ) -> _Table:
        _numbered(item, where, number, most=MAX_SMALL)
        sizes = seating.TABLE_SIZES[evening.game]
        size = _whole(item, "size", where, least=min(sizes), most=max(sizes))
        sheet_id = self._sheet(item, where, evening.game, size)
        team = _whole(item, "winning_team", where, least=0, most=1, empty=True)
        read = _Table(
            EveningTable(
                series=series,
                number=number,
                size=size,
                sheet_id=sheet_id,
                deals=_whole(item, "deals", where, least=0, most=MAX_SMALL),
                of=_whole(item, "of", where, least=0, most=MAX_SMALL),
                paper=_flag(item, "paper", where),
                done=_flag(item, "done", where),
                signed_at=_moment(item, "signed_at", where, empty=True),
                last_entry_at=_moment(item, "last_entry_at", where, empty=True),
                winning_team=team,
                ends_after=_whole(item, "ends_after", where, least=0, most=MAX_SMALL, empty=True),
                level_winner=_whole(item, "level_winner", where, least=0, most=1, empty=True),
            )
        )
        seats = list(_records(item, "seats", where))
        for position, (at, seat) in enumerate(seats):
            if _whole(seat, "position", at, least=0, most=MAX_SMALL) != position:
                raise _refuse(
                    _path(where, "seats"), _("The seats are numbered 0, 1, 2 … in order.")
                )
            old = _whole(seat, "player", at, least=1, most=MAX_ID)
            if old not in self.roll or old in placed:
                raise _refuse(
                    _path(at, "player"),
                    _("Give the id of a player of the export who has no other seat here."),
                )
            placed.add(old)
            read.seats.append(
                (
                    position,
                    old,
                    _whole(seat, "points", at, least=-MAX_NUMBER, most=MAX_NUMBER),
                    _whole(seat, "won", at, least=0, most=MAX_NUMBER),
                    _whole(seat, "lost", at, least=0, most=MAX_NUMBER),
                    _whole(seat, "others_lost", at, least=0, most=MAX_NUMBER),
                    _flag(seat, "signed", at),
                )
            )
        if len(seats) != size:
            raise _refuse(
                _path(where, "seats"),
                _("This table seats %(size)d players: give a seat for each.") % {"size": size},
            )
        return read

    def _sheet(self, item: Mapping[str, Any], where: str, game: str, size: int) -> int | None:
        """The table's sheet here, by its place in the file: one of the evening's game
        with a seat for each player of the table, and no other table's."""
        sheets = self.loading.sheets
        index = _whole(item, "sheet", where, least=0, most=max(len(sheets) - 1, 0), empty=True)
        if index is None:
            return None
        path = _path(where, "sheet")
        if not sheets:
            raise _refuse(path, _("The export has no sheets; give null here."))
        stored = sheets[index]
        if index in self.taken or stored.game != game or stored.seats != size:
            raise _refuse(
                path,
                _(
                    "Give the place in the export of a sheet of this table's game and "
                    "number of players that no other table has, or null."
                ),
            )
        self.taken.add(index)
        return stored.sheet_id

    def _table_at(self, item: Mapping[str, Any], where: str) -> EveningTable:
        """A table of this evening, by its series' number and its own (an evening
        without series or tables has no number to give)."""
        number = _whole(item, "series", where, least=1, most=len(self.series))
        tables = self.series[number - 1].tables
        table = _whole(item, "table", where, least=1, most=len(tables))
        return tables[table - 1].table

    # -- its notes and its cash box

    def _change(
        self, item: Mapping[str, Any], where: str
    ) -> tuple[EveningTable, list[dict[str, Any]], datetime.datetime]:
        table = self._table_at(item, where)
        moves = [
            {
                "player": self._player(move, "player", at),
                "name": _name(move, "name", at, most=PLAYER_NAME),
                "before": _score(move, "before", at),
                "after": _score(move, "after", at),
                "place_before": _whole(move, "place_before", at, least=0, most=MAX_NUMBER),
                "place_after": _whole(move, "place_after", at, least=0, most=MAX_NUMBER),
            }
            for at, move in _records(item, "moves", where)
        ]
        return table, moves, _moment(item, "at", where)

    def _payment(
        self, item: Mapping[str, Any], where: str, currency: str
    ) -> tuple[int, Decimal, datetime.datetime, str, datetime.datetime | None, str]:
        player = self._player(item, "player", where)
        amount = _money_amount(item, "amount", where, currency)
        if amount <= 0:
            raise _refuse(_path(where, "amount"), _("A payment is more than 0."))
        return (
            player,
            amount,
            _moment(item, "at", where),
            _label(item, "by", where, most=BY_LENGTH),
            _moment(item, "undone_at", where, empty=True),
            _label(item, "undone_by", where, most=BY_LENGTH),
        )

    def _bill(
        self, item: Mapping[str, Any], where: str, currency: str
    ) -> tuple[int, EveningTable, str, int, int, Decimal, Decimal, datetime.datetime]:
        return (
            self._player(item, "player", where),
            self._table_at(item, where),
            _choice(item, "change", where, BILL_CHANGES),
            _whole(item, "lost_before", where, least=0, most=MAX_NUMBER),
            _whole(item, "lost_after", where, least=0, most=MAX_NUMBER),
            _money_amount(item, "fee_before", where, currency),
            _money_amount(item, "fee_after", where, currency),
            _moment(item, "at", where),
        )

    def _ranks(self, evening: Evening) -> None:
        """The evening's ranking, series by series, as its pages work it out from what
        its seats keep (in memory, players by their ids in the file)."""
        roll = [
            selectors.RollPlayer(old, player.name, player.team, tuple(player.tags), player.left)
            for old, player in self.roll.items()
        ]
        tables: dict[int, list[selectors.TableView]] = {}
        seats = []
        for read in self.series:
            for table in read.tables:
                view = selectors.TableView(table.table)
                view.seats = [selectors.SeatRow(table.table, *seat) for seat in table.seats]
                tables.setdefault(read.series.number, []).append(view)
                seats += view.seats
        names = {old: player.name for old, player in self.roll.items()}
        series = [read.series for read in self.series]
        view = selectors.EveningView(evening, roll, series, tables, seats, names)
        try:
            view.brief_ranking  # noqa: B018  (worked out when read)
            for each in series:
                selectors.series_ranking(view, each.number)
        except RuleError as error:
            raise error.prefixed(self.where) from error


def _numbered(item: Mapping[str, Any], where: str, number: int, *, most: int) -> None:
    """A series or a table is numbered 1, 2, 3 … in the file's order."""
    if _whole(item, "number", where, least=1, most=most) != number:
        raise _refuse(_path(where, "number"), _("These are numbered 1, 2, 3 … in order."))


def _label(item: Mapping[str, Any], key: str, where: str, *, most: int) -> str:
    """A text typed beside a name (a team, who marked a payment): tidied, at most
    ``most`` characters and no control character as a name; empty is fine."""
    text = sheet_services.tidy_name(_text(item, key, where))
    problem = circle_services._name_problem(_path(where, key), text, most) if text else None
    if problem:
        raise RuleError([problem])
    return text


def _tags(item: Mapping[str, Any], where: str) -> list[str]:
    """A player's categories as the roll takes them (``evenings.services._tags``), each
    a text without a control character."""
    value, path = _value(item, "tags", where)
    if not isinstance(value, list):
        raise _refuse(path, _("Give a list here."))
    for index, tag in enumerate(value):
        if not isinstance(tag, str):
            raise _refuse(_path(path, index), _("Give a text here."))
        tidy = sheet_services.tidy_name(tag)
        problem = sheet_services.name_character_problem(_path(path, index), tidy) if tidy else None
        if problem:
            raise RuleError([problem])
    problems: list[Problem] = []
    tags = evening_services._tags(value, problems)
    if problems:
        raise RuleError(Problem(path, problem.message) for problem in problems)
    return tags


def _score(item: Mapping[str, Any], key: str, where: str) -> int | float:
    """A player's total in a change note: a whole number, or a fraction written as a
    decimal (match points)."""
    value, path = _value(item, key, where)
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not -MAX_NUMBER <= value <= MAX_NUMBER
    ):
        raise _refuse(
            path,
            _("Give a number from %(least)d to %(most)d here.")
            % {"least": -MAX_NUMBER, "most": MAX_NUMBER},
        )
    return value


def _money_amount(item: Mapping[str, Any], key: str, where: str, currency: str) -> Decimal:
    """An amount as the evening's pages take one in its currency (``read_amount``)."""
    value, path = _value(item, key, where)
    problems = ProblemCollector()
    amount = money_rules.read_amount(value, currency, path, problems)
    problems.raise_if_any()
    assert amount is not None
    return amount


def _store(planned: Sequence[_Planned]) -> None:
    """A batch of checked evenings, with one statement a table: the evenings, their
    rolls, series, tables, seats, change notes, payments and bill changes (each with
    new links; the players' ids of the file become the new ones)."""
    if not planned:
        return
    _insert(Evening, [p.evening for p in planned])
    for p in planned:
        for player in p.players.values():
            player.evening = p.evening
    _insert(EveningPlayer, [player for p in planned for player in p.players.values()])
    ids = [{old: player.pk for old, player in p.players.items()} for p in planned]
    for p, new in zip(planned, ids, strict=True):
        for read in p.series:
            read.series.evening = p.evening
            read.series.sitting_out = [new[old] for old in read.series.sitting_out]
            read.series.swaps = [
                {"first": new[first], "second": new[second], "at": at}
                for first, second, at in read.swaps
            ]
    _insert(Series, [read.series for p in planned for read in p.series])
    tables = [table for p in planned for read in p.series for table in read.tables]
    for table in tables:
        table.table.series = table.table.series  # its id, now that the series has one
    _insert(EveningTable, [table.table for table in tables])
    _rows(
        TableSeat,
        ("table", "position", "player", "points", "won", "lost", "others_lost", "signed"),
        [
            (table.table.pk, position, new[old], points, won, lost, others, signed)
            for p, new in zip(planned, ids, strict=True)
            for read in p.series
            for table in read.tables
            for position, old, points, won, lost, others, signed in table.seats
        ],
    )
    _rows(
        EveningChange,
        ("evening", "table", "moves", "at"),
        [
            (
                p.evening.pk,
                table.pk,
                [{**move, "player": new[move["player"]]} for move in moves],
                at,
            )
            for p, new in zip(planned, ids, strict=True)
            for table, moves, at in p.changes
        ],
    )
    _rows(
        Payment,
        ("evening", "player", "amount", "at", "by", "undone_at", "undone_by"),
        [
            (p.evening.pk, new[old], amount, at, by, undone_at, undone_by)
            for p, new in zip(planned, ids, strict=True)
            for old, amount, at, by, undone_at, undone_by in p.payments
        ],
    )
    _rows(
        BillChange,
        (
            "evening",
            "player",
            "table",
            "change",
            "lost_before",
            "lost_after",
            "fee_before",
            "fee_after",
            "at",
        ),
        [
            (p.evening.pk, new[old], table.pk, change, *rest)
            for p, new in zip(planned, ids, strict=True)
            for old, table, change, *rest in p.bills
        ],
    )


transfer.register(
    Part(
        key=KEY,
        circle=circle_fields,
        export=export_evenings,
        usernames=usernames,
        load=load,
    )
)
