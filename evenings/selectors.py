"""Reading an evening with a fixed number of queries, whatever the number of tables.

The board, the ranking page and the big screen each read the roll (one query), the
series (one) and every seat of every table with its table (one); the ranking is
then worked out by ``evenings.rules.ranking`` from what the seats keep.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db.models import Count, Sum
from django.utils import timezone

from evenings.models import Evening, EveningPlayer, EveningTable, Series, TableSeat
from evenings.rules import ranking as ranking_rules
from games.rules.errors import RuleError

QUIET_AFTER = datetime.timedelta(minutes=15)


def evening_by_organiser(token: str) -> Evening | None:
    return Evening.objects.select_related("circle").filter(organiser_token=token).first()


def evening_by_view(token: str) -> Evening | None:
    return Evening.objects.filter(view_token=token).first()


def table_by_link(token: str) -> EveningTable | None:
    """The evening table whose sheet has this edit link (the table link)."""
    return (
        EveningTable.objects.select_related("series__evening", "sheet")
        .filter(sheet__edit_token=token, sheet__deleted_at__isnull=True)
        .first()
    )


def open_series(evening: Evening) -> Series | None:
    """The last series while it is not closed."""
    last = evening.series.order_by("-number").first()
    return last if last is not None and not last.closed else None


@dataclass
class TableView:
    table: EveningTable
    seats: list[TableSeat] = field(default_factory=list)
    quiet: bool = False

    @property
    def signed_count(self) -> int:
        return sum(seat.signed for seat in self.seats)


@dataclass
class EveningView:
    evening: Evening
    players: list[EveningPlayer]
    series: list[Series]
    tables: dict[int, list[TableView]]  # by series number
    seats: list[TableSeat]
    names: dict[int, str]
    # Only the last series' seats were read (the board): no ranking can be made.
    partial: bool = False

    @cached_property
    def ranking(self) -> ranking_rules.Ranking:
        """The evening's ranking, worked out when a page shows it (the board does not)."""
        if self.partial:
            raise ValueError("A view of the last series alone has no ranking.")
        return ranking_rules.evening_ranking(
            results_of(self.seats),
            game=self.evening.game,
            players=[p.pk for p in self.players if not p.left],
            names=self.names,
        )

    @property
    def current(self) -> Series | None:
        return self.series[-1] if self.series else None

    @property
    def current_tables(self) -> list[TableView]:
        return self.tables.get(self.current.number, []) if self.current else []

    @property
    def all_done(self) -> bool:
        tables = self.current_tables
        return bool(tables) and all(t.table.done for t in tables)

    @property
    def can_draw(self) -> bool:
        drawn = len(self.series)
        return drawn < self.evening.series_count and (drawn == 0 or self.all_done)

    @property
    def roll(self) -> list[EveningPlayer]:
        return [p for p in self.players if not p.left]

    @property
    def seated(self) -> set[int]:
        return {seat.player_id for t in self.current_tables for seat in t.seats}

    def rows(self) -> list[dict[str, Any]]:
        """The ranking's rows with names, for the pages."""
        return [{"row": row, "name": self.names.get(row.player, "")} for row in self.ranking.rows]


def results_of(seats: list[TableSeat]) -> list[ranking_rules.SeriesResult]:
    """Every player's series result so far, from the seats of tables that have one."""
    return [
        ranking_rules.SeriesResult(
            player=seat.player_id,
            series=seat.table.series.number,
            table=seat.table.number,
            size=seat.table.size,
            points=seat.points,
            won=seat.won,
            lost=seat.lost,
            others_lost=seat.others_lost,
        )
        for seat in seats
        if seat.table.deals or seat.table.paper
    ]


def _seats(evening: Evening, series: int | None = None) -> list[TableSeat]:
    seats = TableSeat.objects.filter(table__series__evening=evening)
    if series is not None:
        seats = seats.filter(table__series__number=series)
    return list(
        seats.select_related("table__series", "table__sheet")
        # The sheet's link and first dealer are shown, never its options.
        .defer("table__sheet__options")
        .order_by("table__series__number", "table__number", "position")
    )


def evening_view(
    evening: Evening, *, now: datetime.datetime | None = None, current_only: bool = False
) -> EveningView:
    """Everything the board, the ranking and the big screen show: three queries.
    ``current_only`` reads the seats of the last series alone (the board: it shows no
    ranking)."""
    now = now or timezone.now()
    players = list(EveningPlayer.objects.filter(evening=evening))
    series = list(Series.objects.filter(evening=evening).order_by("number"))
    seats = _seats(evening, series[-1].number if current_only and series else None)
    names = {p.pk: p.name for p in players}
    tables: dict[int, list[TableView]] = {}
    by_table: dict[int, TableView] = {}
    for seat in seats:
        table = seat.table
        view = by_table.get(table.pk)
        if view is None:
            since = table.last_entry_at or table.series.created_at
            view = TableView(
                table=table,
                quiet=not table.done and not table.paper and now - since > QUIET_AFTER,
            )
            by_table[table.pk] = view
            tables.setdefault(table.series.number, []).append(view)
        view.seats.append(seat)
    return EveningView(evening, players, series, tables, seats, names, partial=current_only)


def evening_ranking(evening: Evening) -> ranking_rules.Ranking:
    """The evening's ranking so far (players 1, 2, … best first)."""
    return evening_view(evening).ranking


def series_ranking(view: EveningView, number: int) -> ranking_rules.Ranking:
    seats = [s for t in view.tables.get(number, []) for s in t.seats]
    return ranking_rules.evening_ranking(
        results_of(seats), game=view.evening.game, series=number, names=view.names
    )


@dataclass
class Teams:
    """The team table, or why the teams as named cannot be ranked yet."""

    rows: tuple[ranking_rules.TeamRow, ...] = ()
    problems: tuple[str, ...] = ()


def team_table(view: EveningView) -> Teams:
    """The teams named at the roll, ranked by match points (evening-teams); none when
    nobody has a team."""
    members: dict[str, list[int]] = {}
    for player in view.players:
        if player.team:
            members.setdefault(player.team, []).append(player.pk)
    if not members:
        return Teams()
    teams = [ranking_rules.Team(name, tuple(ids)) for name, ids in sorted(members.items())]
    try:
        return Teams(rows=ranking_rules.team_ranking(teams, view.ranking, view.names))
    except RuleError as error:
        return Teams(problems=tuple(str(p.message) for p in error.problems))


def categories(view: EveningView) -> list[tuple[str, ranking_rules.Ranking]]:
    """Each category's own list (evening-teams), categories in alphabetical order."""
    tags = {player.pk: player.tags for player in view.players if player.tags}
    every = sorted({tag for own in tags.values() for tag in own}, key=str.casefold)
    return [
        (tag, ranking_rules.category_ranking(view.ranking, ranking_rules.tagged(tags, tag)))
        for tag in every
    ]


def evening_stamp(evening: Evening) -> str:
    """What changes with every write to the evening or to any of its tables' sheets
    (one query): the read-only pages are rendered once per stamp and shared."""
    sheets = EveningTable.objects.filter(series__evening=evening).aggregate(
        tables=Count("id"), versions=Sum("sheet__version")
    )
    return f"{evening.version}-{sheets['tables']}-{sheets['versions'] or 0}"
