"""The ranking of a club evening, its teams and categories (issue 17, "Ranking and lists").

Pure Python like the referee (no Django). The evening app gives one
:class:`SeriesResult` per player and series (from a table's sheet, or from a paper
list's foot or rows read here) and shows what comes back.

Skat: a series scores by Seeger-Fabian (ISkO / DSkV tournament scoring; api.md, "Club
evenings"): the list's points + 50 × games won − 50 × games lost (as declarer) + k ×
games the others at the table lost, k = 40 at a table of three, 30 at four, 24 at
five. The evening's total is the sum of a player's series scores. Ties: more games
won, then fewer games lost, then the place is shared (1, 1, 3).

Pitch: each player's series score is the score of the team they played in at their
table, and the total is the sum of those; ties as above, on the games won and lost
the evening app passes (0 when it has none: the place is then shared).

Teams (teams of four or tandems of two, named at the roll): a team's series score is
its members' scores added up; per series each team gets one match point for every
team it outscores and half a point for every team it ties with, so the match points
of a series always add up to n(n − 1)/2 for n teams (the league's 3:0 … 0:3 for four
teams). Teams are ranked by match points, then by their score, then share a place.

Categories (tags such as women, juniors, seniors): the evening's ranking filtered to
the players with the tag, places numbered again, ties kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from circles.rules.contributions import FOOT_DEALS_MOST, FOOT_POINTS_MOST
from games.rules.errors import ProblemCollector, RuleError, Step
from games.rules.skat_list import DEFENCE_BONUS, LOST_PENALTY, WON_BONUS
from games.rules.skat_value import read_value
from games.rules.text import Text, _, join, ngettext
from games.rules.words import capitalised, exact, joined, number, signed

from .seating import _is_int, _who

RULE_SECTIONS = {
    "evening-ranking": _("The evening's ranking"),
    "evening-teams": _("Teams and categories"),
}

# k of Seeger-Fabian per table size: the referee's own constants for three and four
# (and five once its list knows the table of five); issue 17 gives 24 at five.
SF_DEFENCE_BONUS = {3: DEFENCE_BONUS[3], 4: DEFENCE_BONUS[4], 5: DEFENCE_BONUS.get(5, 24)}
GAMES = ("skat", "pitch")
TEAM_SIZES = (2, 4)


# ---------------------------------------------------------------------------
# One player's series
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesResult:
    """One player's series at one table.

    ``points`` is the list's running total at the end of the series (Pitch: the score
    of the player's team at that table); ``won`` and ``lost`` are games as declarer;
    ``others_lost`` the games the other players at the table lost; ``size`` the table
    size (3, 4 or 5).
    """

    player: int
    series: int
    table: int
    size: int
    points: int
    won: int = 0
    lost: int = 0
    others_lost: int = 0


def seeger_fabian_score(result: SeriesResult) -> int:
    """points + 50 × (won − lost) + k × others_lost, k = 40 / 30 / 24 at 3 / 4 / 5."""
    return (
        result.points
        + WON_BONUS * result.won
        - LOST_PENALTY * result.lost
        + SF_DEFENCE_BONUS[result.size] * result.others_lost
    )


def series_score(result: SeriesResult, game: str = "skat") -> int:
    """The series' score: Seeger-Fabian for Skat, the team's score for Pitch."""
    return seeger_fabian_score(result) if game == "skat" else result.points


def pitch_results(
    *, series: int, table: int, teams: Sequence[Sequence[int]], scores: Sequence[int]
) -> tuple[SeriesResult, ...]:
    """Pitch: every player of a table scores their team's score (``teams[i]`` scored
    ``scores[i]``)."""
    if len(teams) != len(scores):
        raise RuleError(_("Each team at the table has one score."), "scores")
    size = sum(len(team) for team in teams)
    return tuple(
        SeriesResult(player, series, table, size, score)
        for team, score in zip(teams, scores, strict=True)
        for player in team
    )


# ---------------------------------------------------------------------------
# A paper list: its foot and its rows
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class FootLine:
    """A player's line of a paper list's foot: points, games won and lost as declarer."""

    player: int
    points: int
    won: int
    lost: int


@dataclass(frozen=True)
class ListedRow:
    """A row of a paper list: the declarer and the value as written (48, −96)."""

    declarer: int
    value: int
    bock: bool = False


def _check_players(players: Sequence[int], problems: ProblemCollector) -> bool:
    if (
        not players
        or any(not _is_int(p) for p in players)
        or len(set(players)) != len(players)
        or len(players) not in SF_DEFENCE_BONUS
    ):
        problems.add("players", _("A table has 3, 4 or 5 different players."))
        return False
    return True


def foot_from_rows(
    players: Sequence[int],
    rows: Sequence[ListedRow],
    *,
    kontra_re: bool = False,
    names: Mapping[int, str] | None = None,
) -> tuple[FootLine, ...]:
    """The foot the rows add up to, player by player in ``players``' order.

    Each value must be one some game can have (:func:`games.rules.skat_value.read_value`:
    a won game its value, a lost one minus twice it); ``RuleError`` at ``rows.<i>``
    names every row that cannot be, and which games a value could be is in its
    explanation."""
    problems = ProblemCollector()
    if not _check_players(players, problems):
        problems.raise_if_any()
    points = dict.fromkeys(players, 0)
    won = dict.fromkeys(players, 0)
    lost = dict.fromkeys(players, 0)
    for i, row in enumerate(rows):
        where = f"rows.{i}"
        if row.declarer not in points:
            problems.add(
                f"{where}.declarer",
                _(
                    "Row {row}: {player} does not play at this table.",
                    row=i + 1,
                    player=_who(row.declarer, names),
                ),
            )
            continue
        if not _is_int(row.value):
            problems.add(f"{where}.value", _("A game's value is a whole number, like 48 or −96."))
            continue
        try:
            reading = read_value(value=row.value, bock=row.bock, kontra_re=kontra_re)
        except RuleError as error:
            problems.absorb(error.prefixed(where))
            continue
        points[row.declarer] += row.value
        if reading.won:
            won[row.declarer] += 1
        else:
            lost[row.declarer] += 1
    problems.raise_if_any()
    return tuple(FootLine(p, points[p], won[p], lost[p]) for p in players)


def check_foot(
    players: Sequence[int],
    foot: Sequence[FootLine],
    *,
    rows: Sequence[ListedRow] | None = None,
    deals: int | None = None,
    kontra_re: bool = False,
    names: Mapping[int, str] | None = None,
) -> None:
    """``RuleError`` when a paper foot cannot be right: a player missing or twice, a
    count below 0, more games than the series has deals, or (with ``rows``) a number
    the rows do not add up to, naming the player and the difference."""
    problems = ProblemCollector()
    if not _check_players(players, problems):
        problems.raise_if_any()
    by_player: dict[int, FootLine] = {}
    for i, line in enumerate(foot):
        where = f"players.{i}"
        if line.player not in players:
            problems.add(
                f"{where}.player",
                _(
                    "{player} does not play at this table.",
                    player=capitalised(_who(line.player, names)),
                ),
            )
        elif line.player in by_player:
            problems.add(
                f"{where}.player",
                _(
                    "{player} has two lines in the foot.",
                    player=capitalised(_who(line.player, names)),
                ),
            )
        by_player.setdefault(line.player, line)
        for name in ("points", "won", "lost"):
            value = getattr(line, name)
            if not _is_int(value) or (name != "points" and value < 0):
                problems.add(
                    f"{where}.{name}",
                    _("Points are a whole number; games won and lost are 0 or more."),
                )
            elif abs(value) > (FOOT_POINTS_MOST if name == "points" else FOOT_DEALS_MOST):
                # A slip of the finger (a circle's season keeps a foot within these).
                problems.add(
                    f"{where}.{name}",
                    _(
                        "{number} is far more than a series gives: points run from −{points} "
                        "to {points}, games won and lost up to {games}.",
                        number=number(value),
                        points=number(FOOT_POINTS_MOST),
                        games=number(FOOT_DEALS_MOST),
                    ),
                )
    for player in players:
        if player not in by_player:
            problems.add(
                "players",
                _(
                    "{player} plays at this table but has no line in the foot.",
                    player=capitalised(_who(player, names)),
                ),
            )
    problems.raise_if_any()
    if deals is not None:
        games = sum(line.won + line.lost for line in foot)
        if games > deals:
            problems.add(
                "players",
                _(
                    "The foot counts {games} games won and lost, more than the {deals} deals "
                    "of the series.",
                    games=games,
                    deals=deals,
                ),
            )
    if rows is not None:
        added = {
            line.player: line
            for line in foot_from_rows(players, rows, kontra_re=kontra_re, names=names)
        }
        for i, line in enumerate(foot):
            _compare(i, line, added[line.player], names, problems)
    problems.raise_if_any()


def _compare(
    i: int,
    line: FootLine,
    rows: FootLine,
    names: Mapping[int, str] | None,
    problems: ProblemCollector,
) -> None:
    player = capitalised(_who(line.player, names))
    if line.points != rows.points:
        problems.add(
            f"players.{i}.points",
            _(
                "{player}: the foot says {foot} points, the rows add up to {rows}, "
                "{difference} apart.",
                player=player,
                foot=number(line.points),
                rows=number(rows.points),
                difference=abs(line.points - rows.points),
            ),
        )
    for name, foot_count, rows_count in (
        ("won", line.won, rows.won),
        ("lost", line.lost, rows.lost),
    ):
        if foot_count == rows_count:
            continue
        if name == "won":
            text = _(
                "{player}: the foot says {foot} games won, the rows show {rows}.",
                player=player,
                foot=foot_count,
                rows=rows_count,
            )
        else:
            text = _(
                "{player}: the foot says {foot} games lost, the rows show {rows}.",
                player=player,
                foot=foot_count,
                rows=rows_count,
            )
        problems.add(f"players.{i}.{name}", text)


def table_results(
    *, series: int, table: int, players: Sequence[int], foot: Sequence[FootLine]
) -> tuple[SeriesResult, ...]:
    """Every player's :class:`SeriesResult` of a table from its foot (checked with
    :func:`check_foot` first); ``others_lost`` is the games the others lost, which the
    foot gives too: every lost game at the table was some player's."""
    check_foot(players, foot)
    lost_at_table = sum(line.lost for line in foot)
    size = len(players)
    by_player = {line.player: line for line in foot}
    return tuple(
        SeriesResult(
            player=p,
            series=series,
            table=table,
            size=size,
            points=by_player[p].points,
            won=by_player[p].won,
            lost=by_player[p].lost,
            others_lost=lost_at_table - by_player[p].lost,
        )
        for p in players
    )


# ---------------------------------------------------------------------------
# The evening's ranking
# ---------------------------------------------------------------------------


def plain_number(value: Fraction | int) -> int | float:
    """A score as JSON writes it: a whole number as it is, a fraction (match points, a
    sitter-out's average at a Pitch night) as a decimal to four places."""
    value = Fraction(value)
    return int(value) if value.denominator == 1 else round(float(value), 4)


@dataclass(frozen=True)
class SeriesLine:
    """A player's series in the ranking (api.md's ``series`` entries)."""

    number: int
    table: int
    points: int
    won: int
    lost: int
    others_lost: int
    score: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "table": self.table,
            "points": self.points,
            "won": self.won,
            "lost": self.lost,
            "others_lost": self.others_lost,
            "score": plain_number(self.score),
        }


@dataclass(frozen=True)
class RankingRow:
    """A player's row: place (shared places repeat), total, games won and lost, each
    series, and the explanation of it all."""

    player: int
    place: int
    total: int
    won: int
    lost: int
    series: tuple[SeriesLine, ...]
    explanation: tuple[Step, ...] = field(default=(), compare=False)
    # A Pitch night's row (pitch_night.evening_ranking): ``won`` and ``lost`` are its
    # rounds won and lost, ``against`` the points scored against it, its total exact
    # (match points and a sitter-out's average may be fractions).
    against: int | None = None

    @property
    def key(self) -> tuple[Any, int, int]:
        """What places rows: higher total, then more won, then fewer lost (a Pitch
        night: more rounds won, then fewer points against)."""
        return (-self.total, -self.won, self.lost if self.against is None else self.against)


@dataclass(frozen=True)
class Ranking:
    """The evening's (or one series', or one category's) ranking, best first."""

    game: str
    rows: tuple[RankingRow, ...]
    explanation: tuple[Step, ...] = field(default=(), compare=False)

    def row_of(self, player: int) -> RankingRow | None:
        return next((row for row in self.rows if row.player == player), None)

    @property
    def order(self) -> tuple[int, ...]:
        """Player ids, best first: what a seeded draw takes."""
        return tuple(row.player for row in self.rows)


def _check_results(results: Sequence[SeriesResult], problems: ProblemCollector) -> None:
    seen: set[tuple[int, int]] = set()
    tables: dict[tuple[int, int], list[SeriesResult]] = {}
    for i, result in enumerate(results):
        where = f"results.{i}"
        at_table = tables.setdefault((result.series, result.table), [])
        at_table.append(result)
        if result.size != at_table[0].size or len(at_table) > result.size:
            problems.add(
                where,
                _(
                    "Table {table} of series {series} seats {size} players; its results "
                    "say otherwise.",
                    table=result.table,
                    series=result.series,
                    size=at_table[0].size,
                ),
            )
        if (result.player, result.series) in seen:
            problems.add(
                where,
                _(
                    "Player {id} has two results in series {series}; a player sits at one "
                    "table per series.",
                    id=result.player,
                    series=result.series,
                ),
            )
        seen.add((result.player, result.series))
        if result.size not in SF_DEFENCE_BONUS:
            problems.add(where, _("A table has 3, 4 or 5 players."))
        counts = (result.won, result.lost, result.others_lost)
        if not all(_is_int(v) for v in (result.points, *counts)) or min(counts) < 0:
            problems.add(where, _("Points are a whole number; games won and lost are 0 or more."))


def evening_ranking(
    results: Iterable[SeriesResult],
    *,
    game: str = "skat",
    players: Iterable[int] = (),
    series: int | None = None,
    names: Mapping[int, str] | None = None,
    explain: bool = True,
) -> Ranking:
    """Rank the evening from every player's series results (or, with ``series``, that
    one series alone). ``players`` adds roll members without a result yet (total 0).
    Every row explains its series, its total and any tie; ``explain=False`` leaves
    the explanations out (the same places and totals, for a list that shows none)."""
    results = list(results)
    problems = ProblemCollector()
    if game not in GAMES:
        problems.add("game", _('An evening plays "skat" or "pitch", not {got}.', got=str(game)))
    _check_results(results, problems)
    problems.raise_if_any()
    if series is not None:
        results = [r for r in results if r.series == series]
    by_player: dict[int, list[SeriesResult]] = {p: [] for p in players}
    for result in results:
        by_player.setdefault(result.player, []).append(result)

    built = []
    for player, own in by_player.items():
        own.sort(key=lambda r: r.series)
        lines = tuple(
            SeriesLine(
                r.series, r.table, r.points, r.won, r.lost, r.others_lost, series_score(r, game)
            )
            for r in own
        )
        total = sum(line.score for line in lines)
        steps = []
        if explain:
            steps = [_series_step(r, line, game) for r, line in zip(own, lines, strict=True)]
            if len(lines) > 1:
                steps.append(_total_step(lines, total))
        built.append(
            RankingRow(
                player,
                0,
                total,
                sum(line.won for line in lines),
                sum(line.lost for line in lines),
                lines,
                tuple(steps),
            )
        )
    rows = _placed(built, names, explain=explain)
    return Ranking(game, rows, (_rule_step(game),) if explain else ())


def shared_places(keys: Sequence[Any]) -> list[int]:
    """The places of rows in order, whose sort keys are ``keys``: equal keys share a
    place and the next place skips as many (1, 1, 3)."""
    places: list[int] = []
    for position, key in enumerate(keys, start=1):
        places.append(places[-1] if places and keys[position - 2] == key else position)
    return places


def _placed(
    rows: Sequence[RankingRow], names: Mapping[int, str] | None, *, explain: bool = True
) -> tuple[RankingRow, ...]:
    """Places 1, 1, 3 by :attr:`RankingRow.key`, each tie explained in both rows."""
    ordered = sorted(rows, key=lambda row: (row.key, row.player))
    places = shared_places([row.key for row in ordered])
    placed = []
    for row, place in zip(ordered, places, strict=True):
        ties = (
            [
                _tie_step(row, other, place, other_place, names)
                for other, other_place in zip(ordered, places, strict=True)
                if other is not row and other.total == row.total
            ]
            if explain
            else []
        )
        placed.append(
            RankingRow(
                row.player,
                place,
                row.total,
                row.won,
                row.lost,
                row.series,
                (*row.explanation, *ties),
            )
        )
    return tuple(placed)


def _rule_step(game: str) -> Step:
    if game == "pitch":
        return Step(
            _(
                "Pitch: each player scores the score of their team at their table, series by "
                "series; the total adds them up."
            ),
            "evening-ranking",
        )
    return Step(
        _(
            "Seeger-Fabian per series: list points, plus {won} for each game won as "
            "declarer, minus {lost} for each game lost as declarer, plus {three}, {four} or "
            "{five} (at a table of three, four or five) for every game another player at "
            "the table lost. The total adds up the series; ties go to more games won, then "
            "fewer games lost, else the place is shared.",
            won=WON_BONUS,
            lost=LOST_PENALTY,
            three=SF_DEFENCE_BONUS[3],
            four=SF_DEFENCE_BONUS[4],
            five=SF_DEFENCE_BONUS[5],
        ),
        "evening-ranking",
    )


def _series_step(result: SeriesResult, line: SeriesLine, game: str) -> Step:
    if game == "pitch":
        return Step(
            _(
                "Series {series}, table {table}: the team's score {score}.",
                series=result.series,
                table=result.table,
                score=exact(line.score),
            ),
            "evening-ranking",
        )
    parts = [_("{points} list points", points=number(result.points))]
    if result.won:
        parts.append(
            ngettext(
                # Translators: {score} is a bonus like +100, {n} how many games it is for.
                "{score} for {n} game won",
                "{score} for {n} games won",
                result.won,
                score=signed(WON_BONUS * result.won),
                n=result.won,
            )
        )
    if result.lost:
        parts.append(
            ngettext(
                # Translators: {score} is a penalty like −100, {n} how many games it is for.
                "{score} for {n} game lost",
                "{score} for {n} games lost",
                result.lost,
                score=signed(-LOST_PENALTY * result.lost),
                n=result.lost,
            )
        )
    if result.others_lost:
        parts.append(
            ngettext(
                # Translators: {score} is a bonus like +80, {n} how many games it is for.
                "{score} for {n} game lost by another declarer",
                "{score} for {n} games lost by another declarer",
                result.others_lost,
                score=signed(SF_DEFENCE_BONUS[result.size] * result.others_lost),
                n=result.others_lost,
            )
        )
    return Step(
        _(
            # Translators: {parts} is a list such as "96 list points, +100 for 2 games won";
            # {size} the number of players at the table.
            "Series {series}, table {table} of {size}: {parts}; score {score}.",
            series=result.series,
            table=result.table,
            size=result.size,
            parts=join(", ", parts),
            score=exact(line.score),
        ),
        "evening-ranking",
    )


def _total_step(lines: Sequence[SeriesLine], total: int) -> Step:
    return Step(
        _(
            # Translators: {scores} is e.g. "472, −35 and 610".
            "The series added up: {scores} make {total}.",
            scores=joined([exact(line.score) for line in lines]),
            total=exact(total),
        ),
        "evening-ranking",
    )


def _tie_step(
    row: RankingRow,
    other: RankingRow,
    place: int,
    other_place: int,
    names: Mapping[int, str] | None,
) -> Step:
    values = {
        "other": _who(other.player, names),
        "total": exact(row.total),
    }
    if row.won != other.won:
        text = _(
            "Level with {other} on {total}; more games won decide: {won} against {other_won}.",
            won=row.won,
            other_won=other.won,
            **values,
        )
    elif row.lost != other.lost:
        text = _(
            "Level with {other} on {total} and on games won; fewer games lost decide: {lost} "
            "against {other_lost}.",
            lost=row.lost,
            other_lost=other.lost,
            **values,
        )
    else:
        text = _(
            "Level with {other} on {total}, games won and games lost: they share place {place}.",
            place=place,
            **values,
        )
    return Step(text, "evening-ranking")


def category_ranking(ranking: Ranking, players: Iterable[int]) -> Ranking:
    """A category's own list: the rows of ``players`` (those with the tag), places
    numbered again among them, ties kept."""
    members = set(players)
    rows = [row for row in ranking.rows if row.player in members]
    places: list[int] = []
    for position, row in enumerate(rows, start=1):
        if places and rows[position - 2].key == row.key:
            places.append(places[-1])
        else:
            places.append(position)
    return Ranking(
        ranking.game,
        tuple(replace(row, place=place) for row, place in zip(rows, places, strict=True)),
        ranking.explanation,
    )


def tagged(tags: Mapping[int, Iterable[str]], tag: str) -> frozenset[int]:
    """The players carrying ``tag`` (``tags``: each player's tags, e.g. {7: ["women"]})."""
    return frozenset(player for player, own in tags.items() if tag in set(own))


# ---------------------------------------------------------------------------
# Teams
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Team:
    """A team of four or a tandem of two, named at the roll."""

    name: str
    members: tuple[int, ...]


@dataclass(frozen=True)
class TeamSeries:
    """A team's series: its members' scores added up and the match points won."""

    number: int
    score: int
    match_points: Fraction


@dataclass(frozen=True)
class TeamRow:
    team: Team
    place: int
    match_points: Fraction
    total: int
    series: tuple[TeamSeries, ...]
    explanation: tuple[Step, ...] = field(default=(), compare=False)


def check_teams(teams: Sequence[Team], names: Mapping[int, str] | None = None) -> None:
    """``RuleError`` unless the teams are all teams of four or all tandems of two, with
    different names, and nobody in two teams."""
    problems = ProblemCollector()
    sizes = {len(team.members) for team in teams}
    if not sizes <= set(TEAM_SIZES) or len(sizes) > 1:
        problems.add("teams", _("Teams are all teams of four or all tandems of two."))
    seen_names: set[str] = set()
    seen: dict[int, str] = {}
    for i, team in enumerate(teams):
        if not team.name.strip() or team.name in seen_names:
            problems.add(f"teams.{i}.name", _("Each team has a name of its own."))
        seen_names.add(team.name)
        for player in team.members:
            if player in seen:
                problems.add(
                    f"teams.{i}.members",
                    _(
                        "{player} is in team {first} and in team {second}; a player plays "
                        "for one team.",
                        player=capitalised(_who(player, names)),
                        first=seen[player],
                        second=team.name,
                    ),
                )
            seen.setdefault(player, team.name)
    problems.raise_if_any()


def match_points(scores: Sequence[int]) -> tuple[Fraction, ...]:
    """One point for every team a team outscores, half a point for every tie."""
    return tuple(
        sum(
            (
                Fraction(1) if own > other else Fraction(1, 2)
                for j, other in enumerate(scores)
                if j != i and own >= other
            ),
            Fraction(0),
        )
        for i, own in enumerate(scores)
    )


def team_ranking(
    teams: Sequence[Team], ranking: Ranking, names: Mapping[int, str] | None = None
) -> tuple[TeamRow, ...]:
    """The team table: per series each team's members' scores added up and its match
    points; ranked by match points, then total score, else a shared place."""
    check_teams(teams, names)
    numbers = sorted({line.number for row in ranking.rows for line in row.series})
    score_of = {
        (row.player, line.number): line.score for row in ranking.rows for line in row.series
    }
    per_series: dict[int, list[int]] = {}
    for number_ in numbers:
        per_series[number_] = [
            sum(score_of.get((p, number_), 0) for p in team.members) for team in teams
        ]
    points = {n: match_points(scores) for n, scores in per_series.items()}
    built = []
    for i, team in enumerate(teams):
        lines = tuple(TeamSeries(n, per_series[n][i], points[n][i]) for n in numbers)
        total = sum(line.score for line in lines)
        mp = sum((line.match_points for line in lines), Fraction(0))
        steps = tuple(
            Step(
                _(
                    # Translators: {points} is a number of match points such as 2 or 1.5.
                    "Series {series}: the members' scores add up to {score}; match points: "
                    "{points} (one for every team it outscores, a half for every tie).",
                    series=line.number,
                    score=exact(line.score),
                    points=_points(line.match_points),
                ),
                "evening-teams",
            )
            for line in lines
        )
        built.append((team, mp, total, lines, steps))
    built.sort(key=lambda entry: (-entry[1], -entry[2], teams.index(entry[0])))
    rows: list[TeamRow] = []
    for position, (team, mp, total, lines, steps) in enumerate(built, start=1):
        previous = rows[-1] if rows else None
        shared = previous and (previous.match_points, previous.total) == (mp, total)
        place = previous.place if shared and previous else position
        rows.append(TeamRow(team, place, mp, total, lines, steps))
    return tuple(rows)


def _points(value: Fraction) -> Text | str:
    """``2``, ``1½``, ``½``: match points, the whole part in the reader's way."""
    whole, half = divmod(value, 1)
    if not half:
        return number(int(whole))
    return join("", [number(int(whole)), "½"]) if whole else "½"
