"""The printed Skat list (Spielliste): its rows and its foot, blank or filled from a sheet.

A paper Spielliste has one row per deal in the official columns: Nr.; Grundwert
(the game's base value); Spitzen mit/ohne (matadors with or against); the six
Gewinnstufen Hand, Schneider, Schneider angesagt, Schwarz, Schwarz angesagt, Ouvert;
the value won or lost; and per player the running list total with the tally of games
won (G) and lost (V) as declarer. Its foot adds up the series by Seeger-Fabian:
Ergebnis, + won × 50, − lost × 50, + games the others lost × 40 / 30 / 24 (at three,
four or five players), Endsumme.

This module only reads what the sheet's referee wrote in each deal's details
(``skat_sheet``: ``game_type``, ``won``, ``score``, ``bock``, ``passed``, ``ramsch``
and ``list_columns``) and its Seeger-Fabian rows; it scores nothing itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .errors import ProblemCollector
from .sheet import SheetState
from .skat import (
    HAND_LEVEL,
    OUVERT_LEVEL,
    SCHNEIDER_ANNOUNCED_LEVEL,
    SCHNEIDER_LEVEL,
    SCHWARZ_ANNOUNCED_LEVEL,
    SCHWARZ_LEVEL,
    GameResult,
)
from .skat_list import (
    DEFENCE_BONUS,
    LOST_PENALTY,
    WON_BONUS,
    SeegerFabianResult,
    SeegerFabianTally,
    seeger_fabian_of_tally,
)
from .text import _
from .words import joined

# The six Gewinnstufen in the order of the list's columns, as codes (the same codes
# ``skat_value`` reads a value's levels with).
LEVEL_CODES = (
    "hand",
    "schneider",
    "schneider_announced",
    "schwarz",
    "schwarz_announced",
    "ouvert",
)
_LEVEL_OF_LABEL = {
    HAND_LEVEL: "hand",
    SCHNEIDER_LEVEL: "schneider",
    SCHNEIDER_ANNOUNCED_LEVEL: "schneider_announced",
    SCHWARZ_LEVEL: "schwarz",
    SCHWARZ_ANNOUNCED_LEVEL: "schwarz_announced",
    OUVERT_LEVEL: "ouvert",
}

# A blank list is printed for any table the club seats, for a series of up to 200 deals.
LIST_TABLE_SIZES = tuple(sorted(DEFENCE_BONUS))
LONGEST_LIST = 200

RowKind = Literal["game", "null", "by_value", "ramsch", "passed", "blank"]


def list_columns(result: GameResult) -> dict[str, Any]:
    """What a played game writes in the list's game columns: its base value (a Null
    game's fixed value), its matadors (``{"with": 2}``, ``None`` for Null) and the
    Gewinnstufen it counted, as codes in the columns' order."""
    counted = {
        _LEVEL_OF_LABEL[label] for label, _count in result.levels if label in _LEVEL_OF_LABEL
    }
    return {
        "base_value": result.base_value,
        "matadors": None if result.matadors is None else result.matadors.as_dict(),
        "levels": tuple(code for code in LEVEL_CODES if code in counted),
    }


@dataclass(frozen=True)
class PlayerCell:
    """One player's part of a row: the new list total where it changed, and the running
    count of games won (G) or lost (V) where this player won or lost as declarer."""

    total: int | None = None
    won: int | None = None
    lost: int | None = None


@dataclass(frozen=True)
class ListRow:
    number: int
    kind: RowKind
    bock: bool = False
    declarer: int | None = None
    # The contract's name for a Null game or a Ramsch (shown across the level columns).
    game: str | None = None
    base_value: int | None = None
    matadors_with: int | None = None
    matadors_against: int | None = None
    levels: tuple[str, ...] = ()
    won_value: int | None = None
    lost_value: int | None = None
    players: tuple[PlayerCell, ...] = ()


@dataclass(frozen=True)
class FootColumn:
    """A player's foot: Ergebnis, + won × 50, − lost × 50, + lost by others × k, Endsumme."""

    list_points: int
    games_won: int
    won_bonus: int
    games_lost: int
    lost_penalty: int
    lost_by_others: int
    defence_bonus: int
    total: int


@dataclass(frozen=True)
class Spielliste:
    players: tuple[str, ...]  # names; empty strings on a blank list
    rows: tuple[ListRow, ...]
    foot: tuple[FootColumn, ...] | None  # None on a blank list
    won_bonus: int  # 50
    lost_penalty: int  # 50
    defence_bonus: int  # k: 40 / 30 / 24 by the table's size

    @property
    def table_size(self) -> int:
        return len(self.players)


def check_blank_list(players: object, deals: object) -> tuple[int, int]:
    """Read a blank list's table size and series length (as typed, e.g. from a link):
    3, 4 or 5 players, and 1 to 200 deals, a multiple of the players."""
    problems = ProblemCollector()
    size = _whole(players)
    if size is None or size not in LIST_TABLE_SIZES:
        problems.add(
            "players",
            _(
                # Translators: {sizes} is e.g. "3, 4 or 5"; {value} what was given.
                "A Skat list is printed for a table of {sizes} players; got {value}.",
                sizes=joined([str(n) for n in LIST_TABLE_SIZES], last="or"),
                value=_shown(players),
            ),
        )
    length = _whole(deals)
    if length is None or not 1 <= length <= LONGEST_LIST:
        problems.add(
            "deals",
            _(
                # Translators: {value} is what was given.
                "A series has 1 to {longest} deals; got {value}.",
                longest=LONGEST_LIST,
                value=_shown(deals),
            ),
        )
    elif size in LIST_TABLE_SIZES and length % size:
        problems.add(
            "deals",
            _(
                # Translators: {players} is the table's size, {deals} the series length given.
                "A series at a table of {players} has a multiple of {players} deals, so that "
                "everyone deals equally often (such as {example}); got {deals}.",
                players=size,
                deals=length,
                example=size * 12,
            ),
        )
    problems.raise_if_any()
    assert size is not None
    assert length is not None
    return size, length


def blank_list(*, players: int, deals: int) -> Spielliste:
    """An empty Spielliste for a table of ``players`` and a series of ``deals`` deals."""
    size, length = check_blank_list(players, deals)
    rows = tuple(_blank_row(n, size) for n in range(1, length + 1))
    return _list(("",) * size, rows, None)


def filled_list(state: SheetState) -> Spielliste:
    """The Spielliste of a Skat sheet: a row per deal played, blank rows for the deals
    the series still has, and the foot of the Seeger-Fabian tally so far."""
    count = len(state.players)
    won = [0] * count
    lost = [0] * count
    rows = [_played_row(deal, won, lost) for deal in state.deals]
    series = int(state.details.get("series_deals", len(rows)))
    rows.extend(_blank_row(n, count) for n in range(len(rows) + 1, series + 1))
    standing: SeegerFabianResult = state.details["seeger_fabian"]
    return _list(tuple(state.players), tuple(rows), _foot(standing, count))


def paper_list(
    players: tuple[str, ...],
    *,
    points: tuple[int, ...],
    won: tuple[int, ...],
    lost: tuple[int, ...],
    series_deals: int,
) -> Spielliste:
    """The Spielliste of a series recorded from its paper list's foot (a club evening's
    table kept on paper): no rows filled in, the foot as written, tallied by
    Seeger-Fabian."""
    tally = SeegerFabianTally(
        list_points=points,
        games_won=won,
        games_lost=lost,
        lost_by_others=tuple(sum(lost) - own for own in lost),
    )
    standing = seeger_fabian_of_tally(tally, names=players)
    rows = tuple(_blank_row(n, len(players)) for n in range(1, series_deals + 1))
    return _list(players, rows, _foot(standing, len(players)))


def _foot(standing: SeegerFabianResult, count: int) -> tuple[FootColumn, ...]:
    k = DEFENCE_BONUS[count]
    return tuple(
        FootColumn(
            list_points=row.list_points,
            games_won=row.games_won,
            won_bonus=row.won_bonus,
            games_lost=row.games_lost,
            lost_penalty=row.lost_penalty,
            lost_by_others=row.defence_bonus // k,
            defence_bonus=row.defence_bonus,
            total=row.total,
        )
        for row in standing.rows
    )


def _list(
    players: tuple[str, ...], rows: tuple[ListRow, ...], foot: tuple[FootColumn, ...] | None
) -> Spielliste:
    return Spielliste(
        players=players,
        rows=rows,
        foot=foot,
        won_bonus=WON_BONUS,
        lost_penalty=LOST_PENALTY,
        defence_bonus=DEFENCE_BONUS[len(players)],
    )


def _blank_row(number: int, players: int) -> ListRow:
    return ListRow(number=number, kind="blank", players=(PlayerCell(),) * players)


def _played_row(deal: Any, won: list[int], lost: list[int]) -> ListRow:
    details: Mapping[str, Any] = deal.details
    declarer = details.get("declarer")
    cells: list[PlayerCell] = []
    for seat, (score, total) in enumerate(zip(deal.scores, deal.totals, strict=True)):
        won_now = lost_now = None
        if seat == declarer and details.get("won"):
            won[seat] += 1
            won_now = won[seat]
        elif seat == declarer:
            lost[seat] += 1
            lost_now = lost[seat]
        cells.append(PlayerCell(total=total if score else None, won=won_now, lost=lost_now))
    common = {
        "number": deal.number,
        "bock": bool(details.get("bock")),
        "players": tuple(cells),
    }
    if details.get("passed"):
        if details.get("ramsch") is not None:
            return ListRow(kind="ramsch", game=details.get("game"), **common)
        return ListRow(kind="passed", **common)
    score = details.get("score")
    values = {
        "declarer": declarer,
        "won_value": score if details.get("won") else None,
        "lost_value": None if details.get("won") else score,
    }
    game_type = details.get("game_type")
    if game_type == "by_value":
        return ListRow(kind="by_value", **values, **common)
    columns = details.get("list_columns") or {}
    if game_type == "null":
        return ListRow(
            kind="null",
            game=details.get("game"),
            base_value=columns.get("base_value"),
            **values,
            **common,
        )
    matadors = columns.get("matadors") or {}
    return ListRow(
        kind="game",
        base_value=columns.get("base_value"),
        matadors_with=matadors.get("with"),
        matadors_against=matadors.get("against"),
        levels=tuple(columns.get("levels", ())),
        **values,
        **common,
    )


def _whole(value: object) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    # ASCII digits only: "²".isdigit() is true, and int("²") fails.
    text = value.strip() if isinstance(value, str) else ""
    if text.isascii() and text.isdigit() and len(text) <= 4:
        return int(value.strip())
    return None


def _shown(value: object) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value)
