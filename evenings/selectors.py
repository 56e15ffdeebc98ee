"""Reading an evening with a fixed number of queries, whatever the number of tables.

The ranking page and the big screen read the roll (one query), the series (one) and
every seat of every table with its table (one); the ranking is then worked out by
``evenings.rules.ranking`` from what the seats keep. The organiser's board, read on
every poll, reads the same three as plain values and the last series' seats alone.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.db.models import Count, Sum
from django.utils import timezone

from evenings.models import Evening, EveningPlayer, EveningTable, Series, TableSeat
from evenings.rules import movement, pitch_night
from evenings.rules import ranking as ranking_rules
from games import selectors as game_selectors
from games.models import Hand, Sheet
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


@dataclass(slots=True)
class SeatRow:
    """A seat's result, read as values (a hundred players at three series are three
    hundred seats: no model instance each), with its table."""

    table: EveningTable
    position: int
    player_id: int
    points: int
    won: int
    lost: int
    others_lost: int
    signed: bool


@dataclass
class TableView:
    table: EveningTable
    seats: list[SeatRow] = field(default_factory=list)
    quiet: bool = False

    @property
    def signed_count(self) -> int:
        return sum(seat.signed for seat in self.seats)


@dataclass
class EveningView:
    evening: Evening
    players: list[RollPlayer]
    series: list[Series]
    tables: dict[int, list[TableView]]  # by series number
    seats: list[SeatRow]
    names: dict[int, str]

    @cached_property
    def ranking(self) -> ranking_rules.Ranking:
        """The evening's ranking, worked out when a page shows it."""
        return self._ranking(explain=True)

    @cached_property
    def brief_ranking(self) -> ranking_rules.Ranking:
        """The same places and totals without their explanations (the big screen)."""
        if "ranking" in self.__dict__:
            return self.ranking
        return self._ranking(explain=False)

    def _ranking(self, *, explain: bool) -> ranking_rules.Ranking:
        if self.evening.game == "pitch":
            return self.night_ranking(self.series)
        return ranking_rules.evening_ranking(
            results_of(self.seats),
            game=self.evening.game,
            players=[p.pk for p in self.players if not p.left],
            names=self.names,
            explain=explain,
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
    def roll(self) -> list[RollPlayer]:
        return [p for p in self.players if not p.left]

    def night_ranking(self, series: Sequence[Series]) -> ranking_rules.Ranking:
        """A Pitch night's ranking over ``series`` (its rounds): each table that has
        a result so far (its sheet's deals or its tally card) with its two teams'
        scores; those sitting out a round that has one score its average
        (pitch_night: points or match points, ties by rounds won, then points
        against). The explanations are worded when a page shows them."""
        rounds, scores = [], {}
        for each in series:
            round_ = self.round_of(each)
            if round_ is None or not round_.tables:
                continue
            rounds.append(round_)
            scores[each.number] = {
                view.table.number: (
                    _team_scores(view.seats) if view.table.deals or view.table.paper else None
                )
                for view in self.tables.get(each.number, [])
            }
        night = pitch_night.night_ranking(
            rounds, scores, mode=self.evening.counts, names=self.names
        )
        return pitch_night.evening_ranking(night, [p.pk for p in self.players if not p.left])

    def round_of(self, series: Series) -> movement.Round | None:
        """A Pitch night's round as the movement reads it (partners across: seats 1
        and 3 against 2 and 4); ``None`` for a table that is not of four."""
        tables = []
        for view in self.tables.get(series.number, []):
            seats = [seat.player_id for seat in sorted(view.seats, key=lambda s: s.position)]
            if len(seats) != movement.TABLE_SIZE:
                return None
            tables.append(movement.RoundTable.in_seat_order(view.table.number, seats))
        return movement.Round(series.number, tuple(tables), tuple(series.sitting_out))

    def seat_lines(self, player: int) -> list[str]:
        """A Pitch night player's rounds, latest first: "Round 3: table 2, with Ana
        against Ben and Cem" or "Round 3: you sit out"."""
        lines = []
        for series in reversed(self.series):
            round_ = self.round_of(series)
            if round_ is None or player not in round_.present:
                continue
            lines.append(str(movement.seat_line(round_, player, self.names)))
        return lines

    def rows(self, *, explained: bool = True) -> list[dict[str, Any]]:
        """The ranking's rows with names, for the pages."""
        ranking = self.ranking if explained else self.brief_ranking
        return [{"row": row, "name": self.names.get(row.player, "")} for row in ranking.rows]


def seating_steps(view: EveningView, series: Series) -> tuple[Any, ...]:
    """Why a Pitch night's round seats whom where (progressive movement or rotation):
    the movement's own explanation, worked out again from the rounds before it and
    the players of this round (the same rules give the same round), then the swaps the
    organiser made before it started. Empty when the round is not the movement's (drawn
    by lot each round)."""
    evening = view.evening
    if evening.game != "pitch" or series.method not in movement.MOVEMENTS:
        return ()
    rounds = {each.number: view.round_of(each) for each in view.series}
    own = rounds.get(series.number)
    if own is None or any(r is None for r in rounds.values()):
        return ()
    present = list(own.present)
    try:
        if series.method == "rotation":
            first = rounds[1]
            seed = view.series[0].seed
            made = movement.rotation_schedule(sorted(first.present), seed=seed, names=view.names)[
                series.number - 1
            ]
        elif series.number == 1:
            made = movement.first_round(present, series.seed, names=view.names)
        else:
            previous = rounds[series.number - 1]
            winners = {
                t.table.number: t.table.winning_team for t in view.tables.get(series.number - 1, [])
            }
            history = [rounds[n] for n in sorted(rounds) if n < series.number]
            made = movement.next_progressive_round(
                previous, winners, history=history, roll=present, names=view.names
            )
    except RuleError:
        return ()
    # The organiser's swaps before the round started, in the order they were made.
    for swap in series.swaps or ():
        first, second = swap.get("first"), swap.get("second")
        if not isinstance(first, int) or not isinstance(second, int):
            return ()
        made = movement.swapped(made, first, second, names=view.names)
    if made.tables != own.tables or sorted(made.sitting_out) != sorted(own.sitting_out):
        return ()
    return made.explanation


@dataclass(frozen=True)
class NightStatistics:
    """A Pitch night player's bids by size, moons, and results with each partner."""

    bids: tuple[pitch_night.BidCount, ...]
    moons_tried: int
    moons_made: int
    partners: tuple[tuple[str, int, int, int], ...]  # name, rounds, won, points
    tallied: int  # rounds at a table kept on a tally card: no hands to count

    # Bids made and set in all, as the pure statistics add them up.
    bids_made = pitch_night.PlayerStatistics.bids_made
    bids_set = pitch_night.PlayerStatistics.bids_set

    @property
    def moons_set(self) -> int:
        return self.moons_tried - self.moons_made


def night_statistics(view: EveningView, player: int) -> NightStatistics:
    """A Pitch night player's statistics (issue 21): the bids they won as pitcher, made
    and set by size, and their moons, from the hands their tables' sheets recorded (each
    sheet replayed once); per partner the rounds together, won together and the points
    scored together, from the ranking (tally cards too)."""
    rounds = {series.number: view.round_of(series) for series in view.series}
    mine = []  # (round, table view) where the player sat
    for series in view.series:
        for table in view.tables.get(series.number, []):
            if any(seat.player_id == player for seat in table.seats):
                mine.append((series.number, table))
    sheets = {
        table.table.sheet_id: (number, table)
        for number, table in mine
        if table.table.sheet_id and table.table.deals and not table.table.paper
    }
    hands: dict[int, list[Any]] = {}
    for hand in Hand.objects.filter(sheet_id__in=sheets, removed_at__isnull=True).order_by(
        "sheet_id", "number"
    ):
        hands.setdefault(hand.sheet_id, []).append(hand)
    night: list[pitch_night.NightHand] = []
    for sheet in Sheet.objects.filter(pk__in=sheets).prefetch_related("seats"):
        number, table = sheets[sheet.pk]
        round_ = rounds.get(number)
        at = round_.tables[table.table.number - 1] if round_ else None
        if at is None or sheet.game != "pitch":
            continue
        sheet._seat_names = tuple(seat.name for seat in sheet.seats.all())
        state = game_selectors.replayed_engine(sheet, hands.get(sheet.pk, [])).state
        for deal in state.deals:
            details = deal.details
            night.append(
                pitch_night.NightHand(
                    number,
                    at.number,
                    at.teams,
                    at.seats[details["pitcher"]],
                    details["bid"],
                    bool(details["made"]),
                    (details["delta"]["A"], details["delta"]["B"]),
                )
            )
    found = next(
        (stats for stats in pitch_night.player_statistics(night) if stats.player == player), None
    )
    partners: dict[int, list[int]] = {}
    row = view.ranking.row_of(player)
    for line in row.series if row else ():
        round_ = rounds.get(line.number)
        table = round_.table_of(player) if round_ else None
        if table is None:
            continue  # sat out
        together = partners.setdefault(table.partner_of(player), [0, 0, 0])
        together[0] += 1
        together[1] += line.won
        together[2] += line.points
    return NightStatistics(
        bids=found.bids if found else (),
        moons_tried=found.moons_tried if found else 0,
        moons_made=found.moons_made if found else 0,
        partners=tuple(
            (view.names.get(partner, ""), *counts)
            for partner, counts in sorted(
                partners.items(), key=lambda item: (-item[1][0], view.names.get(item[0], ""))
            )
        ),
        tallied=sum(1 for _number, table in mine if table.table.paper),
    )


def _team_scores(seats: Sequence[SeatRow]) -> tuple[int, int]:
    """A Pitch table's two team scores: seats 1 and 3 (team A), seats 2 and 4."""
    by_position = {seat.position: seat.points for seat in seats}
    return (by_position.get(0, 0), by_position.get(1, 0))


def results_of(seats: list[SeatRow]) -> list[ranking_rules.SeriesResult]:
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


TABLE_FIELDS = (
    "series_id",
    "number",
    "size",
    "deals",
    "of",
    "paper",
    "done",
    "signed_at",
    "last_entry_at",
    "winning_team",
    # The sheet's link and first dealer are shown, never its options or deals.
    "sheet__edit_token",
    "sheet__first_dealer",
)
SEAT_FIELDS = (
    "table_id",
    "position",
    "player_id",
    "points",
    "won",
    "lost",
    "others_lost",
    "signed",
)


def evening_views(
    evenings: list[Evening], *, now: datetime.datetime | None = None
) -> dict[int, EveningView]:
    """What the ranking and the big screen show, for several evenings at once (a
    season's cash box) with the same four queries as for one: the rolls, the series,
    the tables with their sheets' links, and every seat as values."""
    now = now or timezone.now()
    ids = [e.pk for e in evenings]
    players: dict[int, list[RollPlayer]] = {pk: [] for pk in ids}
    for evening_id, pk, name, team, tags, left, circle_player in (
        EveningPlayer.objects.filter(evening_id__in=ids)
        .order_by("pk")
        .values_list("evening_id", "pk", "name", "team", "tags", "left", "circle_player_id")
    ):
        players[evening_id].append(
            RollPlayer(pk, name, team, tuple(tags or ()), left, circle_player)
        )
    series: dict[int, list[Series]] = {pk: [] for pk in ids}
    by_pk: dict[int, Series] = {}
    for one in Series.objects.filter(evening_id__in=ids).order_by("number"):
        series[one.evening_id].append(one)
        by_pk[one.pk] = one
    tables: dict[int, EveningTable] = {}
    for table in (
        EveningTable.objects.filter(series__evening_id__in=ids)
        .select_related("sheet")
        .only(*TABLE_FIELDS)
    ):
        table.series = by_pk[table.series_id]
        tables[table.pk] = table
    seats: dict[int, list[SeatRow]] = {pk: [] for pk in ids}
    for row in TableSeat.objects.filter(table__series__evening_id__in=ids).values_list(
        *SEAT_FIELDS
    ):
        seat = SeatRow(tables[row[0]], *row[1:])
        seats[seat.table.series.evening_id].append(seat)
    views = {}
    for evening in evenings:
        own = seats[evening.pk]
        own.sort(key=lambda seat: (seat.table.series.number, seat.table.number, seat.position))
        by_series: dict[int, list[TableView]] = {}
        by_table: dict[int, TableView] = {}
        for seat in own:
            table = seat.table
            view = by_table.get(table.pk)
            if view is None:
                since = table.last_entry_at or table.series.created_at
                view = TableView(
                    table=table,
                    quiet=not table.done and not table.paper and now - since > QUIET_AFTER,
                )
                by_table[table.pk] = view
                by_series.setdefault(table.series.number, []).append(view)
            view.seats.append(seat)
        roll = players[evening.pk]
        names = {p.pk: p.name for p in roll}
        views[evening.pk] = EveningView(evening, roll, series[evening.pk], by_series, own, names)
    return views


def evening_view(evening: Evening, *, now: datetime.datetime | None = None) -> EveningView:
    """Everything the ranking and the big screen show: four queries."""
    return evening_views([evening], now=now)[evening.pk]


@dataclass(frozen=True)
class BoardSeat:
    player: int
    name: str
    signed: bool
    points: int = 0


@dataclass(frozen=True)
class BoardTable:
    """A table of the series on the organiser's board, as plain values."""

    pk: int
    number: int
    size: int
    deals: int
    of: int
    paper: bool
    done: bool
    signed: bool
    quiet: bool
    sheet_token: str | None
    seats: tuple[BoardSeat, ...]
    # Pitch: the team that won the table's round (0: seats 1 and 3), once it has one,
    # and the hands after which its round ends (a round of hands, or time called).
    winning_team: int | None = None
    ends_after: int | None = None

    @property
    def level(self) -> bool:
        """Pitch: the round is over and the two teams' scores are level."""
        return self.done and len(self.seats) == 4 and self.seats[0].points == self.seats[1].points

    @property
    def teams(self) -> tuple[tuple[BoardSeat, BoardSeat], tuple[BoardSeat, BoardSeat]] | None:
        """Pitch: the two teams, partners across (seats 1 and 3 against 2 and 4)."""
        if len(self.seats) != 4:
            return None
        first, second, third, fourth = self.seats
        return ((first, third), (second, fourth))

    @property
    def winners(self) -> tuple[BoardSeat, BoardSeat] | None:
        teams = self.teams
        return teams[self.winning_team] if teams and self.winning_team in (0, 1) else None

    @property
    def state(self) -> str:
        """What its card shows, as a text that changes when the card does."""
        signed = "".join("1" if seat.signed else "0" for seat in self.seats)
        return (
            f"{self.pk}.{self.deals}.{self.of}.{self.paper:d}{self.done:d}{self.signed:d}"
            f"{self.quiet:d}.{signed}.{self.winning_team}.{self.ends_after}"
            f".{self.seats[0].points if self.seats else ''}.{self.seats[1].points if len(self.seats) > 1 else ''}"
        )


@dataclass(frozen=True)
class RollPlayer:
    pk: int
    name: str
    team: str
    tags: tuple[str, ...]
    left: bool
    circle_player_id: int | None = None  # the circle's player, in a circle evening


@dataclass
class Board:
    """What the organiser's board shows: the roll, the series and the last series'
    tables, read as plain values (no model per row) with four queries."""

    evening: Evening
    players: list[RollPlayer]
    series: list[Series]
    tables: list[BoardTable]

    @cached_property
    def names(self) -> dict[int, str]:
        return {p.pk: p.name for p in self.players}

    @property
    def current(self) -> Series | None:
        return self.series[-1] if self.series else None

    @property
    def roll(self) -> list[RollPlayer]:
        return [p for p in self.players if not p.left]

    @property
    def started(self) -> bool:
        """Whether a table of the series has a deal or a paper result."""
        return any(t.deals or t.paper for t in self.tables)

    @property
    def all_done(self) -> bool:
        return bool(self.tables) and all(t.done for t in self.tables)

    @property
    def can_draw(self) -> bool:
        drawn = len(self.series)
        return drawn < self.evening.series_count and (drawn == 0 or self.all_done)

    @property
    def playing(self) -> frozenset[int]:
        """The players of a table still playing its series (they may not leave now)."""
        return frozenset(s.player for t in self.tables if not t.done for s in t.seats)


def board_view(evening: Evening, *, now: datetime.datetime | None = None) -> Board:
    """The organiser's board: the roll (one query), the series (one) and the last
    series' seats with their tables (one); a hundred players are a hundred tuples."""
    now = now or timezone.now()
    players = [
        RollPlayer(pk, name, team, tuple(tags or ()), left, circle_player)
        for pk, name, team, tags, left, circle_player in EveningPlayer.objects.filter(
            evening=evening
        )
        .order_by("pk")
        .values_list("pk", "name", "team", "tags", "left", "circle_player_id")
    ]
    names = {p.pk: p.name for p in players}
    series = list(Series.objects.filter(evening=evening).order_by("number"))
    tables: list[BoardTable] = []
    if series:
        current = series[-1]
        rows = (
            TableSeat.objects.filter(table__series=current)
            .order_by("table__number", "position")
            .values_list(
                "table_id",
                "table__number",
                "table__size",
                "table__deals",
                "table__of",
                "table__paper",
                "table__done",
                "table__signed_at",
                "table__last_entry_at",
                "table__sheet__edit_token",
                "player_id",
                "signed",
                "table__winning_team",
                "table__ends_after",
                "points",
            )
        )
        seats: dict[int, list[BoardSeat]] = {}
        heads: dict[int, tuple[Any, ...]] = {}
        for row in rows:
            pk, player, signed, points = row[0], row[10], row[11], row[14]
            heads.setdefault(pk, row)
            seats.setdefault(pk, []).append(
                BoardSeat(player, names.get(player, ""), signed, points)
            )
        for pk, head in heads.items():
            _pk, number, size, deals, of, paper, done, signed_at, last, token = head[:10]
            since = last or current.created_at
            tables.append(
                BoardTable(
                    pk=pk,
                    number=number,
                    size=size,
                    deals=deals,
                    of=of,
                    paper=paper,
                    done=done,
                    signed=signed_at is not None,
                    quiet=not done and not paper and now - since > QUIET_AFTER,
                    sheet_token=token,
                    seats=tuple(seats[pk]),
                    winning_team=head[12],
                    ends_after=head[13],
                )
            )
    return Board(evening, players, series, tables)


def evening_ranking(evening: Evening) -> ranking_rules.Ranking:
    """The evening's ranking so far (players 1, 2, … best first), places and totals
    without their explanations (a seeded draw, a change after signing)."""
    return evening_view(evening).brief_ranking


def series_ranking(view: EveningView, number: int) -> ranking_rules.Ranking:
    """One series' ranking as its brief list shows it (no explanations)."""
    if view.evening.game == "pitch":
        return view.night_ranking([s for s in view.series if s.number == number])
    seats = [s for t in view.tables.get(number, []) for s in t.seats]
    return ranking_rules.evening_ranking(
        results_of(seats), game=view.evening.game, series=number, names=view.names, explain=False
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
        return Teams(rows=ranking_rules.team_ranking(teams, view.brief_ranking, view.names))
    except RuleError as error:
        return Teams(problems=tuple(str(p.message) for p in error.problems))


def categories(view: EveningView) -> list[tuple[str, ranking_rules.Ranking]]:
    """Each category's own list (evening-teams), categories in alphabetical order."""
    tags = {player.pk: player.tags for player in view.players if player.tags}
    every = sorted({tag for own in tags.values() for tag in own}, key=str.casefold)
    return [
        (tag, ranking_rules.category_ranking(view.brief_ranking, ranking_rules.tagged(tags, tag)))
        for tag in every
    ]


@dataclass(frozen=True)
class Stamps:
    """What changes with every write to the evening (``whole``) and to one series'
    tables (``series``, by number): a shared rendering is kept until its stamp moves."""

    whole: str
    series: dict[int, str]


def evening_stamps(evening: Evening) -> Stamps:
    """The evening's stamps from its version and, per series, its tables' number and
    their sheets' versions (one query; a sheet's version grows with every write)."""
    rows = (
        EveningTable.objects.filter(series__evening=evening)
        .values("series__number")
        .annotate(tables=Count("id"), versions=Sum("sheet__version"))
        .order_by("series__number")
    )
    series = {
        row["series__number"]: f"{evening.version}-{row['tables']}-{row['versions'] or 0}"
        for row in rows
    }
    whole = ".".join([str(evening.version), *(f"{n}:{stamp}" for n, stamp in series.items())])
    return Stamps(whole, series)


def evening_stamp(evening: Evening) -> str:
    """What changes with every write to the evening or to any of its tables' sheets
    (one query): the read-only pages are rendered once per stamp and shared."""
    return evening_stamps(evening).whole
