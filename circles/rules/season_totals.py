"""A season's totals: what its counted sheets add up to, game by game, kept up to date
one sheet at a time.

Each sheet contributes a small, JSON-ready record (``contribution``): per seat the
player and the numbers the season's table adds up. The totals take it in (``apply``
with ``sign`` 1) or give it back (``sign`` −1), so that a finished sheet, a correction
to an old one, a sheet left out or moved to another day changes what it must and
nothing else. From the totals a write makes the season's *view* (``view``: every
player's row and progress before anyone is placed, and the title race's ``bounds``);
a read places the players it shows from it (``read_view``, ``placed``) at a cost that
does not grow with the number of sheets behind them. Adding every record of a season
one by one gives the same totals as any order of adding and taking away that ends with
the same sheets (tests/circles_rules/test_season_totals.py).

The totals and the contributions are stored (``circles.season_totals``); what comes
back from the database is checked here like any input (``read``,
``read_contribution``) before it is used: a ValueError for anything that is not what
this module writes, and the season is added up again from its sheets.

Pure Python: no Django, no database.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import Any

from .standings import (
    ClubRules,
    ManipulationRow,
    ManipulationStandings,
    PitchRow,
    PitchStandings,
    Reason,
    SeriesSoFar,
    SheetRecord,
    SkatParts,
    SkatRow,
    SkatStandings,
    WinsParts,
    manipulation_apply,
    manipulation_contribution,
    manipulation_parts,
    manipulation_placed,
    pitch_apply,
    pitch_contribution,
    pitch_parts,
    pitch_placed,
    skat_apply,
    skat_contribution,
    skat_parts,
    skat_placed,
)

Totals = dict[str, dict[str, Any]]  # game → that game's totals
# What one Skat series may count for: far beyond any real series (a scaled series of
# 60 deals at the highest values stays within a few hundred thousand).
MOST = 10**9

_APPLY: Mapping[str, Callable[[dict[str, Any], Mapping[str, Any], int], None]] = {
    "skat": skat_apply,
    "pitch": pitch_apply,
    "manipulation": manipulation_apply,
}


def contribution(record: SheetRecord, rules: ClubRules) -> dict[str, Any]:
    """What ``record`` adds to a season played under ``rules`` (Skat scales by them)."""
    if record.game == "skat":
        return skat_contribution(record, rules)
    if record.game == "pitch":
        return pitch_contribution(record)
    if record.game == "manipulation":
        return manipulation_contribution(record)
    raise ValueError(f"Sheet {record.sheet_id} is of an unknown game, {record.game}.")


def apply(totals: Totals, given: Mapping[str, Any], sign: int) -> None:
    """Add a contribution to the totals (``sign`` 1) or take it away (−1); ValueError
    when it was never added. A game left with no sheet leaves the totals."""
    game = given["game"]
    found = totals.setdefault(game, {})
    _APPLY[game](found, given, sign)
    if not found.get("evenings"):
        del totals[game]


def of(records: Iterable[SheetRecord], rules: ClubRules) -> Totals:
    """The totals of these records, added up one by one."""
    totals: Totals = {}
    for record in sorted(records, key=lambda record: (record.played_on, record.sheet_id)):
        apply(totals, contribution(record, rules), 1)
    return totals


def bounds(game: str, totals: Mapping[str, Any]) -> tuple[int, int]:
    """(per_evening, series_deals) for the title race: the most series or games one
    player played on one evening so far (at least 1), and the longest Skat series
    (36 at three, 48 at four, 60 at five, or longer as a sheet sets it)."""
    per_evening = 1
    for mine in totals.get("players", {}).values():
        for tonight in mine["days"].values():
            # Skat keeps the evening's series, the others (games, wins).
            played = len(tonight) if game == "skat" else tonight[0]
            per_evening = max(per_evening, played)
    deals = 36
    if game == "skat":
        deals = max([deals, *(int(longest) for longest in totals.get("deals", {}))])
    return per_evening, deals


# -- Reading what was stored ----------------------------------------------------------------


def _whole(value: object, where: str, *, least: int = -MOST) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= MOST:
        raise ValueError(f"{where}: not a whole number from {least} to {MOST}.")
    return value


def _mapping(value: object, where: str, keys: Iterable[str] | None = None) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise ValueError(f"{where}: not an object.")
    if keys is not None and set(value) != set(keys):
        raise ValueError(f"{where}: has {sorted(value)}, not {sorted(keys)}.")
    return value


def _list(value: object, where: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, list) or (length is not None and len(value) != length):
        raise ValueError(f"{where}: not a list" + (f" of {length}." if length else "."))
    return value


class _Days:
    """ISO days, each checked once however often it comes."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def __call__(self, value: object, where: str) -> str:
        if value in self.seen:
            return value  # type: ignore[return-value]
        if not isinstance(value, str) or len(value) != 10:
            raise ValueError(f"{where}: not a day.")
        try:
            datetime.date.fromisoformat(value)
        except ValueError:
            raise ValueError(f"{where}: not a day.") from None
        self.seen.add(value)
        return value

    def all(self, days: Mapping[str, object], where: str) -> None:
        """Every key of ``days`` a day."""
        for name in days.keys() - self.seen:
            self(name, where)


def _id(value: object, where: str) -> int:
    """A player or sheet id, as a number or as the text of one (a JSON key)."""
    if isinstance(value, str):
        if not value.isascii() or not value.isdigit() or len(value) > 19:
            raise ValueError(f"{where}: not an id.")
        return int(value)
    return _whole(value, where, least=1)


def _counts(value: object, where: str, key: Callable[[object, str], object]) -> None:
    for name, count in _mapping(value, where).items():
        key(name, f"{where}.{name}")
        _whole(count, f"{where}.{name}", least=1)


_SKAT_PLAYER = ("series", "won", "lost", "list_points", "sf_total", "sf", "days", "scaled")
_PITCH_PLAYER = (
    "games",
    "won",
    "hands",
    "bids",
    "made",
    "sets",
    "moon",
    "moon_made",
    "points_taken",
    "partners",
    "days",
)
_MANIPULATION_PLAYER = ("games", "won", "rounds", "went_out", "penalties", "days")


def _skat_player(mine: dict[str, Any], where: str, day: _Days) -> None:
    for name in ("series", "won", "lost", "list_points", "sf_total"):
        _whole(mine[name], f"{where}.{name}", least=1 if name == "series" else -MOST)
    _counts(mine["sf"], f"{where}.sf", lambda text, at: _whole(int(_number(text, at)), at))
    days = _mapping(mine["days"], f"{where}.days")
    if not days:
        raise ValueError(f"{where}.days: empty.")
    # The bulk of a long season's totals (thousands of series): checked all at once.
    day.all(days, f"{where}.days")
    evenings = days.values()
    if not all(type(tonight) is list and tonight for tonight in evenings):
        raise ValueError(f"{where}.days: an evening without its series.")
    every = list(chain.from_iterable(evenings))
    if set(map(type, every)) != {int} or min(every) < -MOST or max(every) > MOST:
        raise ValueError(f"{where}.days: a series that is not a whole number.")
    if any(tonight != sorted(tonight) for tonight in evenings):
        raise ValueError(f"{where}.days: an evening's series not lowest first.")
    series = len(every)
    if series != mine["series"]:
        raise ValueError(f"{where}: {series} series by evening, {mine['series']} in all.")
    for sheet, entry in _mapping(mine["scaled"], f"{where}.scaled").items():
        at = f"{where}.scaled.{sheet}"
        _id(sheet, at)
        played_on, deals, norm, sf, value = _list(entry, at, 5)
        day(played_on, at)
        _whole(deals, at, least=1)
        _whole(norm, at, least=1)
        _whole(sf, at)
        _whole(value, at)


def _number(text: object, where: str) -> int:
    if not isinstance(text, str):
        raise ValueError(f"{where}: not a number.")
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{where}: not a number.") from None


def _games_player(mine: dict[str, Any], where: str, day: _Days, names: Iterable[str]) -> None:
    for name in names:
        _whole(mine[name], f"{where}.{name}", least=1 if name == "games" else 0)
    days = _mapping(mine["days"], f"{where}.days")
    day.all(days, f"{where}.days")
    evenings = days.values()
    if not all(type(tonight) is list and len(tonight) == 2 for tonight in evenings):
        raise ValueError(f"{where}.days: not the games and wins of each evening.")
    every = list(chain.from_iterable(evenings))
    if (every and set(map(type, every)) != {int}) or any(
        not 1 <= played <= MOST or not 0 <= won <= played for played, won in evenings
    ):
        raise ValueError(f"{where}.days: not the games and wins of each evening.")
    games = sum(every[::2])
    if games != mine["games"]:
        raise ValueError(f"{where}: {games} games by evening, {mine['games']} in all.")


def _pitch_player(mine: dict[str, Any], where: str, day: _Days) -> None:
    _games_player(mine, where, day, _PITCH_PLAYER[:9])
    for partner, entry in _mapping(mine["partners"], f"{where}.partners").items():
        at = f"{where}.partners.{partner}"
        _id(partner, at)
        games, won = _list(entry, at, 2)
        _whole(games, at, least=1)
        _whole(won, at, least=0)


_PLAYERS: Mapping[str, tuple[tuple[str, ...], Callable[[dict[str, Any], str, _Days], None]]] = {
    "skat": (_SKAT_PLAYER, _skat_player),
    "pitch": (_PITCH_PLAYER, _pitch_player),
    "manipulation": (
        _MANIPULATION_PLAYER,
        lambda mine, where, day: _games_player(mine, where, day, _MANIPULATION_PLAYER[:5]),
    ),
}


def read(data: object) -> Totals:
    """Stored totals, checked: ValueError naming the first thing that is not as written."""
    day = _Days()
    for game, found in _mapping(data, "totals").items():
        if game not in _PLAYERS:
            raise ValueError(f"totals: unknown game {game!r}.")
        where = f"totals.{game}"
        keys = ("evenings", "players", "deals") if game == "skat" else ("evenings", "players")
        _mapping(found, where, keys)
        _counts(found["evenings"], f"{where}.evenings", day)
        if not found["evenings"]:
            raise ValueError(f"{where}.evenings: empty.")
        if game == "skat":
            _counts(found["deals"], f"{where}.deals", lambda text, at: _id(text, at))
        fields, check = _PLAYERS[game]
        for player, mine in _mapping(found["players"], f"{where}.players").items():
            at = f"{where}.players.{player}"
            _id(player, at)
            check(_mapping(mine, at, fields), at, day)
    return data  # type: ignore[return-value]


_SEATS: Mapping[str, int] = {"skat": 7, "pitch": 10, "manipulation": 5}


def read_contribution(data: object) -> dict[str, Any]:
    """A stored contribution, checked like ``read`` checks totals; its ``season`` too."""
    found = _mapping(data, "contribution")
    game = found.get("game")
    if game not in _SEATS:
        raise ValueError(f"contribution: unknown game {game!r}.")
    keys = {"game", "season", "sheet", "day", "seats"} | ({"deals"} if game == "skat" else set())
    _mapping(found, "contribution", keys)
    _id(found["season"], "contribution.season")
    _id(found["sheet"], "contribution.sheet")
    _Days()(found["day"], "contribution.day")
    if game == "skat":
        _whole(found["deals"], "contribution.deals", least=1)
    for index, seat in enumerate(_list(found["seats"], "contribution.seats")):
        at = f"contribution.seats.{index}"
        entry = _list(seat, at, _SEATS[game])
        _id(entry[0], at)
        if game == "skat":
            *numbers, scaled = entry[1:]
            for number in numbers:
                _whole(number, at)
            if scaled is not None:
                for number in _list(scaled, at, 2):
                    _whole(number, at, least=1)
        elif game == "pitch":
            for number in entry[1:-1]:
                _whole(number, at, least=0)
            _id(entry[-1], at)
        else:
            for number in entry[1:]:
                _whole(number, at, least=0)
    return found


# -- The view: the tables before anyone is placed, as a write keeps them ---------------------
#
# A read makes the standings from the view the last write kept, not from the totals: it
# holds per player the row, the reasons, the series (Skat) and the value after each
# evening, so that a read costs what placing a handful of players costs, however many
# sheets and evenings are behind them. ``view`` makes it from the totals; ``read_view``
# checks what comes back from the database and gives the parts to place (``placed``).

_ROW_FIELDS: Mapping[str, tuple[tuple[str, str], ...]] = {
    "skat": (
        ("series", "i"),
        ("declared", "i"),
        ("won", "i"),
        ("lost", "i"),
        ("list_points", "i"),
        ("sf_total", "i"),
        ("sf_average", "f"),
        ("best_series", "i"),
        ("value", "f"),
        ("counted_total", "i"),
        ("counted", "i"),
        ("dropped", "i"),
        ("missed", "i"),
    ),
    "pitch": (
        ("games", "i"),
        ("won", "i"),
        ("win_rate", "f"),
        ("hands", "i"),
        ("bids", "i"),
        ("made", "i"),
        ("made_rate", "f"),
        ("sets", "i"),
        ("moon", "i"),
        ("moon_made", "i"),
        ("points_taken", "i"),
    ),
    "manipulation": (
        ("games", "i"),
        ("won", "i"),
        ("rounds", "i"),
        ("went_out", "i"),
        ("penalties", "i"),
        ("avg_penalty", "f"),
    ),
}
_ROWS: Mapping[str, type] = {"skat": SkatRow, "pitch": PitchRow, "manipulation": ManipulationRow}
# The reasons a row has before it is placed, each with its numbers ("l": whole numbers).
_REASONS: Mapping[str, Mapping[str, str]] = {
    "ranked_by_total": {"value": "i", "counted": "i", "series": "i"},
    "ranked_by_average": {"value": "f", "total": "i", "counted": "i", "series": "i"},
    "scaled": {"sheet": "i", "deals": "i", "norm": "i", "sf": "i", "scaled": "i"},
    "dropped": {"count": "i", "values": "l"},
    "missed_zero": {"evenings": "i"},
    "missed_ignored": {"evenings": "i"},
    "ranked_by_wins": {"won": "i", "games": "i"},
}


def view(totals: Totals, rules: ClubRules) -> dict[str, Any]:
    """The tables of ``totals`` before anyone is placed, JSON-ready."""
    made: dict[str, Any] = {}
    for game, found in totals.items():
        parts: SkatParts | WinsParts[Any]
        if game == "skat":
            parts = skat_parts(found, rules)
        elif game == "pitch":
            parts = pitch_parts(found)
        else:
            parts = manipulation_parts(found)
        players = {}
        for player, entry in parts.rows.items():
            row = entry[0] if game == "skat" else entry
            mine: dict[str, Any] = {
                "row": [getattr(row, name) for name, _kind in _ROW_FIELDS[game]],
                "reasons": [[reason.code, _plain(reason.params)] for reason in row.reasons],
                "progress": list(parts.progress[player]),
            }
            if game == "skat":
                series = entry[1]
                mine["series"] = [series.count, series.total, list(series.lowest)]
            if game == "pitch":
                mine["partners"] = [list(partner) for partner in row.partners]
            players[str(player)] = mine
        made[game] = {
            "evenings": [evening.isoformat() for evening in parts.evenings],
            "sheets": sum(found["evenings"].values()),
            "bounds": list(bounds(game, found)),
            "players": players,
        }
    return made


def _plain(params: Mapping[str, Any]) -> dict[str, Any]:
    return {
        key: list(value) if isinstance(value, tuple) else value for key, value in params.items()
    }


@dataclass(frozen=True)
class View:
    """What a read makes the season's tables from: each game's parts, its counted
    sheets and the title race's bounds."""

    parts: Mapping[str, SkatParts | WinsParts[Any]]
    sheets: Mapping[str, int]
    bounds: Mapping[str, tuple[int, int]]

    @property
    def counted_sheets(self) -> int:
        return sum(self.sheets.values())

    @property
    def evenings(self) -> list[datetime.date]:
        return sorted({evening for parts in self.parts.values() for evening in parts.evenings})


def placed(
    game: str, parts: SkatParts | WinsParts[Any], rules: ClubRules, include: Callable[[int], bool]
) -> SkatStandings | PitchStandings | ManipulationStandings:
    """One game's table of the included players, placed."""
    if isinstance(parts, SkatParts):
        return skat_placed(parts, rules, include=include)
    if game == "pitch":
        return pitch_placed(parts, include=include)
    return manipulation_placed(parts, include=include)


def made_view(totals: Totals, rules: ClubRules) -> View:
    """The view of ``totals`` as a read would have it from the database."""
    return read_view(view(totals, rules))


def _typed(value: object, kind: str, where: str) -> Any:
    if kind == "f":
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{where}: not a number.")
        number = float(value)
        if not -MOST <= number <= MOST:
            raise ValueError(f"{where}: out of range.")
        return number
    if kind == "l":
        values = _list(value, where)
        for item in values:
            _whole(item, where)
        return tuple(values)
    return _whole(value, where)


def _reasons(value: object, where: str) -> tuple[Reason, ...]:
    made = []
    for index, entry in enumerate(_list(value, where)):
        at = f"{where}.{index}"
        code, params = _list(entry, at, 2)
        if code not in _REASONS:
            raise ValueError(f"{at}: unknown reason {code!r}.")
        kinds = _REASONS[code]
        given = _mapping(params, at, kinds)
        made.append(
            Reason(code, {name: _typed(given[name], kind, at) for name, kind in kinds.items()})
        )
    return tuple(made)


def _progress(value: object, kind: str, length: int, where: str) -> tuple[Any, ...]:
    values = _list(value, where, length)
    wanted = {float, int} if kind == "f" else {int}
    if values and (
        not set(map(type, values)) <= wanted or min(values) < -MOST or max(values) > MOST
    ):
        raise ValueError(f"{where}: not a value for each evening.")
    return tuple(map(float, values)) if kind == "f" else tuple(values)


def read_view(data: object) -> View:
    """A stored view, checked: ValueError naming the first thing that is not as written."""
    parts: dict[str, SkatParts | WinsParts[Any]] = {}
    sheets: dict[str, int] = {}
    found_bounds: dict[str, tuple[int, int]] = {}
    day = _Days()
    for game, found in _mapping(data, "view").items():
        where = f"view.{game}"
        if game not in _ROW_FIELDS:
            raise ValueError(f"view: unknown game {game!r}.")
        _mapping(found, where, ("evenings", "sheets", "bounds", "players"))
        evenings = _list(found["evenings"], f"{where}.evenings")
        for evening in evenings:
            day(evening, f"{where}.evenings")
        if not evenings or evenings != sorted(set(evenings)):
            raise ValueError(f"{where}.evenings: not the evenings in order.")
        sheets[game] = _whole(found["sheets"], f"{where}.sheets", least=1)
        per_evening, deals = _list(found["bounds"], f"{where}.bounds", 2)
        found_bounds[game] = (
            _whole(per_evening, f"{where}.bounds", least=1),
            _whole(deals, f"{where}.bounds", least=1),
        )
        fields = _ROW_FIELDS[game]
        keys = {"row", "reasons", "progress"} | (
            {"series"} if game == "skat" else {"partners"} if game == "pitch" else set()
        )
        rows: dict[int, Any] = {}
        progress: dict[int, tuple[Any, ...]] = {}
        for key, mine in _mapping(found["players"], f"{where}.players").items():
            at = f"{where}.players.{key}"
            player = _id(key, at)
            _mapping(mine, at, keys)
            numbers = _list(mine["row"], f"{at}.row", len(fields))
            values = {
                name: _typed(number, kind, f"{at}.row.{name}")
                for (name, kind), number in zip(fields, numbers, strict=True)
            }
            extra: dict[str, Any] = {}
            if game == "pitch":
                extra["partners"] = tuple(
                    (
                        _id(partner[0], f"{at}.partners"),
                        _whole(partner[1], f"{at}.partners", least=1),
                        _whole(partner[2], f"{at}.partners", least=0),
                    )
                    for partner in (
                        _list(entry, f"{at}.partners", 3)
                        for entry in _list(mine["partners"], f"{at}.partners")
                    )
                )
            row = _ROWS[game](
                player=player,
                place=None,
                **values,
                **extra,
                reasons=_reasons(mine["reasons"], f"{at}.reasons"),
            )
            progress[player] = _progress(
                mine["progress"], "f" if game == "skat" else "i", len(evenings), f"{at}.progress"
            )
            if game == "skat":
                count, total, lowest = _list(mine["series"], f"{at}.series", 3)
                series = SeriesSoFar(
                    _whole(count, f"{at}.series", least=1),
                    _whole(total, f"{at}.series"),
                    _typed(lowest, "l", f"{at}.series"),
                )
                rows[player] = (row, series)
            else:
                rows[player] = row
        days = tuple(datetime.date.fromisoformat(evening) for evening in evenings)
        if game == "skat":
            parts[game] = SkatParts(evenings=days, rows=rows, progress=progress)
        else:
            parts[game] = WinsParts(evenings=days, rows=rows, progress=progress)
    return View(parts=parts, sheets=sheets, bounds=found_bounds)
