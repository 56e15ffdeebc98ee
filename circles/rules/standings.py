"""A season's table, from what each of its sheets contributed.

The caller passes one :class:`SheetRecord` per counted sheet (finished, not
excluded, of one game, played in the season); every seat's ``stats`` are the dicts
:func:`circles.rules.contributions.seat_stats` made. Nothing here replays a deal.

Each game's table is made in three steps, which the app keeps apart: a sheet's
*contribution* (``skat_contribution`` …) is added to or taken from the season's
*totals* (``skat_apply`` …: plain, JSON-ready counts that a write keeps up to date one
sheet at a time); the totals give the *parts* (``skat_parts`` …: every player's row and
progress before anyone is placed, which a write keeps too); the parts are *placed*
(``skat_placed`` …) for the players a reader shows. ``skat_standings`` and its kind do
all three from the records (circles.rules.season_totals keeps and checks the stored
forms).

Skat is ranked by Seeger-Fabian under the club's :class:`ClubRules`; Pitch and
Manipulation by games won. Every row says *why* it stands where it does as
:class:`Reason` values: a ``code`` and the numbers (and player ids) a sentence
needs. The Django layer words them, so they can be translated.

Reason codes and their ``params``
---------------------------------

Skat:

``ranked_by_total``
    ``value`` (int: the counted series added up), ``counted`` (series counted),
    ``series`` (series played).
``ranked_by_average``
    ``value`` (float: points per counted series, unrounded), ``total`` (int: the
    counted series added up), ``counted``, ``series``.
``scaled``
    One per series scaled to the usual length: ``sheet`` (sheet id), ``deals``
    (deals played), ``norm`` (36 at three players, 48 at four, 60 at five), ``sf`` (its
    Seeger-Fabian total) and ``scaled`` (what it counts as).
``dropped``
    ``count`` (series dropped) and ``values`` (their values, lowest first; a missed
    evening counted as zero is among them as ``0``).
``missed_zero``
    ``evenings``: evenings the player missed, each counted as a series of 0.
``missed_ignored``
    ``evenings``: evenings the player missed, which do not count.
``below_minimum``
    ``series`` (series played) and ``minimum`` (the club's ``min_series``); the row
    is listed apart, without a place.
``tie_games_won``
    Equal value, told apart by games won as declarer: ``other`` (player id),
    ``won`` and ``other_won``.
``tie_games_lost``
    Equal value and games won, told apart by games lost as declarer: ``other``,
    ``lost`` and ``other_lost``.

Pitch:

``ranked_by_wins``
    ``won`` and ``games``.
``tie_win_rate``
    Equal wins, told apart by the share of games won: ``other``, ``win_rate`` and
    ``other_win_rate`` (floats 0 to 1), ``games`` and ``other_games``.

Manipulation:

``ranked_by_wins``
    ``won`` and ``games``.
``tie_avg_penalty``
    Equal wins, told apart by penalty points per round (fewer is better):
    ``other``, ``avg_penalty`` and ``other_avg_penalty`` (floats).

Every game:

``tie_shared``
    Equal on the ranked value and every tie-break: ``other`` and ``place`` (the
    place they share).

A tie reason is given against every other player with the same ranked value, in
place order, so both rows of a tie explain it.
"""

from __future__ import annotations

import datetime
import difflib
import json
import math
from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from fractions import Fraction
from functools import partial
from typing import Any, Generic, Literal, TypeVar

from games.rules.errors import ProblemCollector, RuleError
from games.rules.skat_list import HIGHEST_GAME_VALUE, LOST_PENALTY, SERIES_DEALS, WON_BONUS
from games.rules.text import Text, _
from games.rules.words import joined

# The most Seeger-Fabian one deal can bring: a won Grand Ouvert with 4 (the highest game
# value, 264) and the 50 for a won game.
MOST_SF_PER_DEAL = HIGHEST_GAME_VALUE + WON_BONUS
# The least: the same game lost, which counts twice its value against the declarer
# (Skat rules, "Winning and losing"), and the 50 for a lost game.
LEAST_SF_PER_DEAL = -(2 * HIGHEST_GAME_VALUE + LOST_PENALTY)
# With the house rules a sheet may choose, Re (×4) in a Bock round (×2) multiplies the
# game's score by 8 (Skat rules, "House rules").
HOUSE_RULES_FACTOR = 8

RANK_BY = ("total", "average")
MISSED = ("ignore", "zero")
# Club rules count series; a season with more than 99 of them per player is not a season.
MOST_SERIES = 99


def everyone(player: int) -> bool:
    """The default ``include``: every player of the records is in the table."""
    return True


def most_series_sf(deals: int = SERIES_DEALS[3], *, house_rules: bool = False) -> int:
    """The theoretical maximum Seeger-Fabian of a series of ``deals`` deals; with
    ``house_rules``, Re in a Bock round on every deal."""
    factor = HOUSE_RULES_FACTOR if house_rules else 1
    return deals * (HIGHEST_GAME_VALUE * factor + WON_BONUS)


def least_series_sf(deals: int = SERIES_DEALS[3], *, house_rules: bool = False) -> int:
    """The theoretical minimum Seeger-Fabian of a series of ``deals`` deals; with
    ``house_rules``, Re in a Bock round on every deal."""
    factor = HOUSE_RULES_FACTOR if house_rules else 1
    return -deals * (2 * HIGHEST_GAME_VALUE * factor + LOST_PENALTY)


# ---------------------------------------------------------------------------
# Input and reasons
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetRecord:
    """One counted sheet: who sat where, and what each seat contributed."""

    sheet_id: int
    game: str
    played_on: datetime.date
    players: tuple[int, ...]  # the circle player id at each seat
    stats: tuple[Mapping[str, Any], ...]  # seat_stats(...) output, per seat


@dataclass(frozen=True)
class Reason:
    """Why a row stands where it does: a code and the numbers its sentence needs."""

    code: str
    params: Mapping[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------
# Club rules
# ---------------------------------------------------------------------------


def _shown(value: object) -> str:
    """A JSON value as the person typed it, for messages."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _read_rank_by(value: object, name: str) -> Text | None:
    if value in RANK_BY:
        return None
    return _(
        # Translators: {name} is the rule's name (rank_by); "total" and "average" are its
        # values: keep all three. {got} is what was given, as written in JSON.
        '{name} is "total" (the Seeger-Fabian points of the counted series added up) or '
        '"average" (those points per counted series); got {got}.',
        name=name,
        got=_shown(value),
    )


def _read_missed(value: object, name: str) -> Text | None:
    if value in MISSED:
        return None
    return _(
        # Translators: {name} is the rule's name (missed); "ignore" and "zero" are its
        # values: keep all three. {got} is what was given, as written in JSON.
        '{name} is "ignore" (an evening a player missed does not count) or "zero" (it '
        "counts as a series of 0); got {got}.",
        name=name,
        got=_shown(value),
    )


def _read_switch(value: object, name: str) -> Text | None:
    if isinstance(value, bool):
        return None
    return _(
        # Translators: {name} is the rule's name (scale); true and false are JSON: keep them.
        # {got} is what was given, as written in JSON.
        "{name} is switched on with true or off with false, not {got}.",
        name=name,
        got=_shown(value),
    )


def _read_series(value: object, name: str) -> Text | None:
    # A bool is an int in Python, but "true series" means nothing to a player.
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MOST_SERIES:
        return None
    return _(
        # Translators: {name} is the rule's name (min_series, drop_worst): keep it. {got} is
        # what was given, as written in JSON.
        "{name} is a whole number of series from 0 to {most}; got {got}.",
        name=name,
        most=MOST_SERIES,
        got=_shown(value),
    )


_RULE_CHECKS: Mapping[str, Callable[[object, str], str | None]] = {
    "rank_by": _read_rank_by,
    "scale": _read_switch,
    "min_series": _read_series,
    "drop_worst": _read_series,
    "missed": _read_missed,
}


@dataclass(frozen=True)
class ClubRules:
    """How a circle ranks a Skat season; chosen per season.

    ``rank_by``: "total" (Seeger-Fabian of the counted series added up) or
    "average" (per counted series). ``scale``: a series of another length counts as
    if it had the usual 36 deals (three players), 48 (four) or 60 (five). ``min_series``: a
    player with fewer series played is listed apart, not ranked. ``drop_worst``:
    each player's N worst series do not count (one series always counts).
    ``missed``: "ignore", or "zero" to count an evening the player missed as a
    series of 0.
    """

    rank_by: Literal["total", "average"] = "total"
    scale: bool = False
    min_series: int = 0
    drop_worst: int = 0
    missed: Literal["ignore", "zero"] = "ignore"

    def __post_init__(self) -> None:
        # Rules built directly, not read from JSON, get the same checks.
        problems = ProblemCollector()
        for name, value in self.as_dict().items():
            message = _RULE_CHECKS[name](value, name)
            if message:
                problems.add(f"rules.{name}", message)
        problems.raise_if_any()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, field: str = "rules") -> ClubRules:
        """Read a season's rules; a missing rule or ``null`` keeps its default."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            message = _(
                # Translators: {example} is JSON, {"rank_by": "average"}: keep it as it is.
                # {got} is what was given, as written in JSON.
                "Give the club rules as an object of names and values, like {example}; got {got}.",
                example='{"rank_by": "average"}',
                got=_shown(data),
            )
            raise RuleError(message, field)
        known = [f.name for f in fields(cls)]
        problems = ProblemCollector()
        values: dict[str, Any] = {}
        for name, value in data.items():
            where = f"{field}.{name}"
            if name not in known:
                close = difflib.get_close_matches(str(name), known, n=1, cutoff=0.6)
                if close:
                    message = _(
                        # Translators: {name} is what was typed, {rules} the rules' names
                        # ("rank_by, scale and missed"), {close} the one that was probably meant.
                        '"{name}" is not a club rule; the rules are {rules}. Did you mean '
                        '"{close}"?',
                        name=name,
                        rules=joined(known),
                        close=close[0],
                    )
                else:
                    message = _(
                        # Translators: {name} is what was typed, {rules} the rules' names
                        # ("rank_by, scale and missed").
                        '"{name}" is not a club rule; the rules are {rules}.',
                        name=name,
                        rules=joined(known),
                    )
                problems.add(where, message)
            elif value is not None:
                message = _RULE_CHECKS[name](value, name)
                if message:
                    problems.add(where, message)
                else:
                    values[name] = value
        problems.raise_if_any()
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# ---------------------------------------------------------------------------
# Shared pieces
# ---------------------------------------------------------------------------

Row = TypeVar("Row", "SkatRow", "PitchRow", "ManipulationRow")
T = TypeVar("T")


def _checked(records: Sequence[SheetRecord], game: str) -> list[SheetRecord]:
    """The records in the order they were played; a record that cannot be ranked is a bug."""
    for record in records:
        if record.game != game:
            raise ValueError(f"Sheet {record.sheet_id} is a {record.game} sheet, not {game}.")
        if len(record.players) != len(record.stats):
            raise ValueError(f"Sheet {record.sheet_id} needs one stats entry per seat.")
        if len(set(record.players)) != len(record.players):
            raise ValueError(f"Sheet {record.sheet_id} seats one player twice.")
    return sorted(records, key=lambda record: (record.played_on, record.sheet_id))


def _placed(
    rows: Iterable[Row],
    key: Callable[[Row], tuple[Any, ...]],
    tie_breaks: Sequence[Callable[[Row, Row], Reason]],
) -> tuple[Row, ...]:
    """The rows in place order, places given and every tie explained.

    ``key`` sorts best first: its first item is the ranked value, the rest the
    tie-breaks in order; players equal on all of them share the place (the next
    place is skipped, as on any tournament list: 1, 1, 3).
    """
    ordered = sorted(rows, key=lambda row: (key(row), row.player))
    places: list[int] = []
    for position, row in enumerate(ordered, start=1):
        shared = places and key(ordered[position - 2]) == key(row)
        places.append(places[-1] if shared else position)
    placed = []
    for row, place in zip(ordered, places, strict=True):
        ties = []
        for other, other_place in zip(ordered, places, strict=True):
            if other is row or key(other)[0] != key(row)[0]:
                continue
            differs = [
                explain
                for index, explain in enumerate(tie_breaks, start=1)
                if key(other)[index] != key(row)[index]
            ]
            if differs:
                ties.append(differs[0](row, other))
            else:
                ties.append(Reason("tie_shared", {"other": other.player, "place": other_place}))
        placed.append(replace(row, place=place, reasons=(*row.reasons, *ties)))
    return tuple(placed)


def _half_away_from_zero(value: Fraction) -> int:
    magnitude = math.floor(abs(value) + Fraction(1, 2))
    return magnitude if value >= 0 else -magnitude


# ---------------------------------------------------------------------------
# Skat
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SkatRow:
    """One player's Skat season."""

    player: int
    place: int | None  # None when not ranked (below min_series)
    series: int  # series played
    declared: int
    won: int
    lost: int
    list_points: int
    sf_total: int  # plain sum of Seeger-Fabian over played series (unscaled)
    sf_average: float  # sf_total / series (unscaled), 0.0 if none
    best_series: int  # highest single (unscaled) Seeger-Fabian
    value: float  # the ranked value after the club rules
    counted_total: int  # the counted series' values (scaled) added up
    counted: int
    dropped: int
    missed: int  # evenings missed, whether they count as zero or not
    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class SkatStandings:
    rules: ClubRules
    ranked: tuple[SkatRow, ...]  # in place order
    unranked: tuple[SkatRow, ...]  # below min_series: most series first, then player id
    evenings: tuple[datetime.date, ...]
    # After each evening, every included player's ranked value from the records up to it.
    progress: tuple[tuple[datetime.date, Mapping[int, float]], ...]
    # Per player, the series as they count: what a series more would change (the title
    # race).
    values: Mapping[int, SeriesSoFar] = field(default_factory=dict)


@dataclass(frozen=True)
class SeriesSoFar:
    """A player's series as they count (scaled; a missed evening counted as zero among
    them under missed="zero"): how many, their sum, and the lowest of them, lowest
    first, as many as the club drops (nothing above those can be dropped)."""

    count: int
    total: int
    lowest: tuple[int, ...]


@dataclass(frozen=True)
class SkatParts:
    """A season's Skat table before anyone is placed: every player's row and series,
    and their ranked value after each evening. What a write keeps (as JSON:
    circles.rules.season_totals.view); a read leaves out whom it leaves out (guests)
    and places the others (:func:`skat_placed`)."""

    evenings: tuple[datetime.date, ...]
    rows: Mapping[int, tuple[SkatRow, SeriesSoFar]]
    progress: Mapping[int, tuple[float, ...]]  # per player, one value per evening


def _scaled(record: SheetRecord, stats: Mapping[str, Any], rules: ClubRules) -> Reason | None:
    """The ``scaled`` reason when the club scales this series, else ``None``."""
    deals = stats["deals"]
    norm = SERIES_DEALS[stats["players"]]
    if not rules.scale or deals in (0, norm):
        return None
    # A short series is worth as much per deal as a full one: sf × norm / deals, in
    # whole points, half away from zero so that a loss scales like a gain.
    scaled = _half_away_from_zero(Fraction(stats["sf"] * norm, deals))
    return Reason(
        "scaled",
        {
            "sheet": record.sheet_id,
            "deals": deals,
            "norm": norm,
            "sf": stats["sf"],
            "scaled": scaled,
        },
    )


_MISSED_REASONS = {"ignore": "missed_ignored", "zero": "missed_zero"}


def skat_contribution(record: SheetRecord, rules: ClubRules) -> dict[str, Any]:
    """What one Skat sheet adds to its season's totals under the club's rules: per seat
    the player, the series as it counts (scaled or not), its Seeger-Fabian, games won
    and lost, list points and, when scaled, the deals played and the usual length."""
    seats = []
    for player, stats in zip(record.players, record.stats, strict=True):
        reason = _scaled(record, stats, rules)
        value = stats["sf"] if reason is None else reason.params["scaled"]
        scaled = None if reason is None else [reason.params["deals"], reason.params["norm"]]
        seats.append(
            [
                player,
                int(value),
                int(stats["sf"]),
                int(stats["won"]),
                int(stats["lost"]),
                int(stats["list_points"]),
                scaled,
            ]
        )
    first = record.stats[0]
    # The longest series the season has seen bounds what a series can still bring.
    longest = SERIES_DEALS.get(first["players"], SERIES_DEALS[3])
    return {
        "game": "skat",
        "sheet": record.sheet_id,
        "day": record.played_on.isoformat(),
        "deals": max(SERIES_DEALS[3], int(first["series_deals"]), longest),
        "seats": seats,
    }


def _counted(mapping: dict[str, int], key: str, sign: int) -> None:
    """One more (or one fewer) of ``key`` in a multiset kept as counts."""
    count = mapping.get(key, 0) + sign
    if count < 0:
        raise ValueError(f"Nothing to take away at {key!r}.")
    if count:
        mapping[key] = count
    else:
        mapping.pop(key, None)


def _gone(players: dict[str, dict[str, Any]], key: str, count: int) -> None:
    if count < 0:
        raise ValueError(f"Player {key} would have played fewer than no games.")
    if count == 0:
        del players[key]


def skat_apply(totals: dict[str, Any], contribution: Mapping[str, Any], sign: int) -> None:
    """Add one sheet's contribution to a season's Skat totals (``sign`` 1) or take it
    away (``sign`` −1). ValueError when it was never added."""
    day = contribution["day"]
    _counted(totals.setdefault("evenings", {}), day, sign)
    _counted(totals.setdefault("deals", {}), str(contribution["deals"]), sign)
    players = totals.setdefault("players", {})
    for player, value, sf, won, lost, list_points, scaled in contribution["seats"]:
        key = str(player)
        mine = players.setdefault(
            key,
            {
                "series": 0,
                "won": 0,
                "lost": 0,
                "list_points": 0,
                "sf_total": 0,
                "sf": {},
                "days": {},
                "scaled": {},
            },
        )
        mine["series"] += sign
        mine["won"] += sign * won
        mine["lost"] += sign * lost
        mine["list_points"] += sign * list_points
        mine["sf_total"] += sign * sf
        _counted(mine["sf"], str(sf), sign)
        tonight = mine["days"].setdefault(day, [])
        if sign > 0:
            insort(tonight, value)
        else:
            tonight.remove(value)  # ValueError when it was never there
            if not tonight:
                del mine["days"][day]
        if scaled is not None:
            sheet = str(contribution["sheet"])
            if sign > 0:
                mine["scaled"][sheet] = [day, scaled[0], scaled[1], sf, value]
            elif mine["scaled"].pop(sheet, None) is None:
                raise ValueError(f"Sheet {sheet} was not scaled for player {key}.")
        _gone(players, key, mine["series"])


def _skat_row(
    player: int, mine: Mapping[str, Any], evenings: Sequence[str], rules: ClubRules
) -> tuple[SkatRow, SeriesSoFar]:
    """The player's row from their totals, and their series as they count."""
    values = [value for tonight in mine["days"].values() for value in tonight]
    # In the order the sheets were played, as the table explains them.
    scaled = [
        Reason(
            "scaled",
            {"sheet": int(sheet), "deals": deals, "norm": norm, "sf": sf, "scaled": value},
        )
        for sheet, (_day, deals, norm, sf, value) in sorted(
            mine["scaled"].items(), key=lambda item: (item[1][0], int(item[0]))
        )
    ]
    missed = sum(1 for evening in evenings if evening not in mine["days"])
    if rules.missed == "zero":
        values.extend([0] * missed)
    # The worst series go first; a player always keeps one series that counts.
    keep = max(len(values) - rules.drop_worst, 1)
    ordered = sorted(values)
    dropped, counted = ordered[: len(values) - keep], ordered[len(values) - keep :]
    counted_total = sum(counted)
    series = mine["series"]
    if rules.rank_by == "total":
        value = float(counted_total)
        ranking = Reason(
            "ranked_by_total",
            {"value": counted_total, "counted": len(counted), "series": series},
        )
    else:
        value = counted_total / len(counted)
        ranking = Reason(
            "ranked_by_average",
            {
                "value": value,
                "total": counted_total,
                "counted": len(counted),
                "series": series,
            },
        )
    reasons = [ranking, *scaled]
    if dropped:
        reasons.append(Reason("dropped", {"count": len(dropped), "values": tuple(dropped)}))
    if missed:
        reasons.append(Reason(_MISSED_REASONS[rules.missed], {"evenings": missed}))
    won, lost = mine["won"], mine["lost"]
    return SkatRow(
        player=player,
        place=None,
        series=series,
        declared=won + lost,
        won=won,
        lost=lost,
        list_points=mine["list_points"],
        sf_total=mine["sf_total"],
        sf_average=mine["sf_total"] / series,
        best_series=max(int(sf) for sf in mine["sf"]),
        value=value,
        counted_total=counted_total,
        counted=len(counted),
        dropped=len(dropped),
        missed=missed,
        reasons=tuple(reasons),
    ), SeriesSoFar(len(ordered), sum(ordered), tuple(ordered[: rules.drop_worst]))


def _skat_exact(row: SkatRow, rules: ClubRules) -> Fraction:
    """The ranked value as an exact fraction: no two averages tie or part by float rounding."""
    if rules.rank_by == "total":
        return Fraction(row.counted_total)
    return Fraction(row.counted_total, row.counted)


def _included(
    totals: Mapping[str, Any], include: Callable[[int], bool]
) -> list[tuple[int, Mapping[str, Any]]]:
    """The included players' totals, by player id."""
    found = ((int(key), mine) for key, mine in totals.get("players", {}).items())
    return sorted(((player, mine) for player, mine in found if include(player)))


def _added_up(
    records: Sequence[SheetRecord],
    game: str,
    apply: Callable[[dict[str, Any], Mapping[str, Any], int], None],
    contribution: Callable[[SheetRecord], Mapping[str, Any]],
) -> dict[str, Any]:
    """One game's totals of ``records``, each checked and added in playing order."""
    totals: dict[str, Any] = {}
    for record in _checked(records, game):
        apply(totals, contribution(record), 1)
    return totals


def _days(totals: Mapping[str, Any]) -> list[str]:
    """The evenings of a game's totals, in order (ISO days sort as days do)."""
    return sorted(totals.get("evenings", {}))


def _skat_progress(
    evenings: Sequence[str], rules: ClubRules, players: Sequence[tuple[int, Mapping[str, Any]]]
) -> dict[int, tuple[float, ...]]:
    """Every player's ranked value after each evening, in one pass over the evenings.

    The same club rules as :func:`_skat_row` (scaling, missed evenings, dropped
    series, total or average), kept up to date evening by evening instead of ranking
    the season again for every evening: a season of 1,000 series and 100 evenings
    would otherwise rank 100 tables.
    """
    # Player by player, evening by evening: the series so far, their sum, the evenings
    # played, and the lowest series (never more than the club drops: nothing above
    # them can be dropped), lowest first.
    drop = rules.drop_worst
    zero_missed = rules.missed == "zero"
    by_total = rules.rank_by == "total"
    progress = {}
    for player, mine in players:
        by_day = mine["days"]
        lowest: list[int] = []
        series = total = played = 0
        values: list[float] = []
        for index, evening in enumerate(evenings):
            tonight = by_day.get(evening)
            if tonight:
                if drop:
                    lowest.extend(tonight)
                    lowest.sort()
                    del lowest[drop:]
                series += len(tonight)
                total += sum(tonight)
                played += 1
            if not series:
                values.append(0.0)
                continue
            zeros = index + 1 - played if zero_missed else 0
            counted = max(series + zeros - drop, 1)
            dropping = series + zeros - counted
            # Without zeros the lowest series are the ones dropped.
            dropped = _lowest_sum(lowest, zeros, dropping) if zeros else sum(lowest[:dropping])
            values.append(float(total - dropped) if by_total else (total - dropped) / counted)
        progress[player] = tuple(values)
    return progress


def _per_evening(
    evenings: Sequence[datetime.date],
    progress: Mapping[int, Sequence[T]],
    players: Sequence[int],
) -> tuple[tuple[datetime.date, Mapping[int, T]], ...]:
    """Each evening with every one of ``players``' values after it."""
    return tuple(
        (evening, {player: progress[player][index] for player in players})
        for index, evening in enumerate(evenings)
    )


def _lowest_sum(ordered: Sequence[int], zeros: int, count: int) -> int:
    """The sum of the ``count`` lowest of ``ordered`` (ascending, at least the ``count``
    lowest of a player's series) and ``zeros`` zeros."""
    dropped = 0
    index = 0
    for _dropping in range(count):
        if index < len(ordered) and (zeros == 0 or ordered[index] < 0):
            dropped += ordered[index]
            index += 1
        else:
            zeros -= 1
    return dropped


def skat_standings(
    records: Sequence[SheetRecord],
    rules: ClubRules,
    *,
    include: Callable[[int], bool] = everyone,
) -> SkatStandings:
    """The Skat table of a season under the club's rules; ``include`` False leaves a player out."""
    totals = _added_up(records, "skat", skat_apply, partial(skat_contribution, rules=rules))
    return skat_table(totals, rules, include=include)


def skat_table(
    totals: Mapping[str, Any],
    rules: ClubRules,
    *,
    include: Callable[[int], bool] = everyone,
) -> SkatStandings:
    """The Skat table from a season's totals (:func:`skat_apply`) under the rules they
    were added up with."""
    return skat_placed(skat_parts(totals, rules), rules, include=include)


def skat_parts(totals: Mapping[str, Any], rules: ClubRules) -> SkatParts:
    """Every player's row, series and progress from the season's totals."""
    evenings = _days(totals)
    players = _included(totals, everyone)
    return SkatParts(
        evenings=tuple(datetime.date.fromisoformat(evening) for evening in evenings),
        rows={player: _skat_row(player, mine, evenings, rules) for player, mine in players},
        progress=_skat_progress(evenings, rules, players),
    )


def skat_placed(
    parts: SkatParts, rules: ClubRules, *, include: Callable[[int], bool] = everyone
) -> SkatStandings:
    """The Skat table of the included players, placed."""
    made = [parts.rows[player] for player in sorted(parts.rows) if include(player)]
    rows = [row for row, _series in made]

    # Official tie-breaks (ISkO, DSkV tournament rules): on equal points, more games won
    # as declarer, then fewer games lost; still equal, the place is shared.
    def key(row: SkatRow) -> tuple[Fraction, int, int]:
        return (-_skat_exact(row, rules), -row.won, row.lost)

    tie_breaks = (
        lambda row, other: Reason(
            "tie_games_won", {"other": other.player, "won": row.won, "other_won": other.won}
        ),
        lambda row, other: Reason(
            "tie_games_lost", {"other": other.player, "lost": row.lost, "other_lost": other.lost}
        ),
    )
    ranked = _placed((row for row in rows if row.series >= rules.min_series), key, tie_breaks)
    unranked = sorted(
        (
            replace(
                row,
                reasons=(
                    Reason("below_minimum", {"series": row.series, "minimum": rules.min_series}),
                    *row.reasons[1:],
                ),
            )
            for row in rows
            if row.series < rules.min_series
        ),
        key=lambda row: (-row.series, row.player),
    )
    return SkatStandings(
        rules=rules,
        ranked=ranked,
        unranked=tuple(unranked),
        evenings=parts.evenings,
        progress=_per_evening(parts.evenings, parts.progress, [row.player for row in rows]),
        values={row.player: series for row, series in made},
    )


# ---------------------------------------------------------------------------
# 10-Point Pitch
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PitchRow:
    """One player's Pitch season; a player is credited with their team's result."""

    player: int
    place: int | None
    games: int
    won: int
    win_rate: float  # 0 to 1
    hands: int
    bids: int
    made: int
    made_rate: float  # made / bids, 0.0 without bids
    sets: int
    moon: int
    moon_made: int
    points_taken: int
    partners: tuple[tuple[int, int, int], ...]  # (partner, games, won), most games first
    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class PitchStandings:
    ranked: tuple[PitchRow, ...]
    evenings: tuple[datetime.date, ...]
    progress: tuple[tuple[datetime.date, Mapping[int, int]], ...]  # games won so far


def pitch_contribution(record: SheetRecord) -> dict[str, Any]:
    """What one Pitch sheet adds to its season's totals: per seat the player, whether
    their team won, hands, bids made and set, moons, points taken and the partner."""
    seats = [
        [
            player,
            int(bool(stats["won"])),
            int(stats["hands"]),
            int(stats["bids"]),
            int(stats["made"]),
            int(stats["set"]),
            int(stats["moon"]),
            int(stats["moon_made"]),
            int(stats["points_taken"]),
            # Partners change from sheet to sheet; the partner is whoever sat opposite.
            record.players[stats["partner"]],
        ]
        for player, stats in zip(record.players, record.stats, strict=True)
    ]
    return {
        "game": "pitch",
        "sheet": record.sheet_id,
        "day": record.played_on.isoformat(),
        "seats": seats,
    }


_PITCH_SUMS = ("won", "hands", "bids", "made", "sets", "moon", "moon_made", "points_taken")


def _games_by_day(mine: dict[str, Any], day: str, won: int, sign: int) -> None:
    """Games played and won on one evening, for the progress and the title race."""
    tonight = mine["days"].setdefault(day, [0, 0])
    tonight[0] += sign
    tonight[1] += sign * won
    if tonight[0] < 0 or tonight[1] < 0:
        raise ValueError(f"Fewer than no games on {day}.")
    if tonight[0] == 0:
        del mine["days"][day]


def pitch_apply(totals: dict[str, Any], contribution: Mapping[str, Any], sign: int) -> None:
    """Add one sheet's contribution to a season's Pitch totals (``sign`` 1) or take it
    away (``sign`` −1). ValueError when it was never added."""
    day = contribution["day"]
    _counted(totals.setdefault("evenings", {}), day, sign)
    players = totals.setdefault("players", {})
    for player, *sums, partner in contribution["seats"]:
        key = str(player)
        mine = players.setdefault(
            key, {"games": 0, **dict.fromkeys(_PITCH_SUMS, 0), "partners": {}, "days": {}}
        )
        mine["games"] += sign
        for name, value in zip(_PITCH_SUMS, sums, strict=True):
            mine[name] += sign * value
        with_partner = mine["partners"].setdefault(str(partner), [0, 0])
        with_partner[0] += sign
        with_partner[1] += sign * sums[0]
        if with_partner[0] < 0:
            raise ValueError(f"Player {key} never played with {partner}.")
        if with_partner[0] == 0:
            del mine["partners"][str(partner)]
        _games_by_day(mine, day, sums[0], sign)
        _gone(players, key, mine["games"])


def _pitch_row(player: int, mine: Mapping[str, Any]) -> PitchRow:
    games, won = mine["games"], mine["won"]
    bids, made = mine["bids"], mine["made"]
    partners = sorted(
        ((int(partner), n, won_with) for partner, (n, won_with) in mine["partners"].items()),
        key=lambda entry: (-entry[1], entry[0]),
    )
    return PitchRow(
        player=player,
        place=None,
        games=games,
        won=won,
        win_rate=won / games,
        hands=mine["hands"],
        bids=bids,
        made=made,
        made_rate=made / bids if bids else 0.0,
        sets=mine["sets"],
        moon=mine["moon"],
        moon_made=mine["moon_made"],
        points_taken=mine["points_taken"],
        partners=tuple(partners),
        reasons=(Reason("ranked_by_wins", {"won": won, "games": games}),),
    )


def _wins_progress(
    evenings: Sequence[str], players: Sequence[tuple[int, Mapping[str, Any]]]
) -> dict[int, tuple[int, ...]]:
    """Games won so far by each player after each evening."""
    progress = {}
    for player, mine in players:
        by_day = mine["days"]
        wins = 0
        values = []
        for evening in evenings:
            tonight = by_day.get(evening)
            if tonight:
                wins += tonight[1]
            values.append(wins)
        progress[player] = tuple(values)
    return progress


@dataclass(frozen=True)
class WinsParts(Generic[Row]):
    """A season's Pitch or Manipulation table before anyone is placed: every player's
    row and their games won after each evening (as :class:`SkatParts`)."""

    evenings: tuple[datetime.date, ...]
    rows: Mapping[int, Row]
    progress: Mapping[int, tuple[int, ...]]


def _wins_parts(
    totals: Mapping[str, Any], row: Callable[[int, Mapping[str, Any]], Row]
) -> WinsParts[Row]:
    evenings = _days(totals)
    players = _included(totals, everyone)
    return WinsParts(
        evenings=tuple(datetime.date.fromisoformat(evening) for evening in evenings),
        rows={player: row(player, mine) for player, mine in players},
        progress=_wins_progress(evenings, players),
    )


def pitch_parts(totals: Mapping[str, Any]) -> WinsParts[PitchRow]:
    return _wins_parts(totals, _pitch_row)


def pitch_standings(
    records: Sequence[SheetRecord], *, include: Callable[[int], bool] = everyone
) -> PitchStandings:
    """The Pitch table of a season: most games won first, then the better share of wins."""
    totals = _added_up(records, "pitch", pitch_apply, pitch_contribution)
    return pitch_table(totals, include=include)


def pitch_table(
    totals: Mapping[str, Any], *, include: Callable[[int], bool] = everyone
) -> PitchStandings:
    """The Pitch table from a season's totals (:func:`pitch_apply`)."""
    return pitch_placed(pitch_parts(totals), include=include)


def pitch_placed(
    parts: WinsParts[PitchRow], *, include: Callable[[int], bool] = everyone
) -> PitchStandings:
    """The Pitch table of the included players, placed."""
    rows = [parts.rows[player] for player in sorted(parts.rows) if include(player)]

    def key(row: PitchRow) -> tuple[int, Fraction]:
        return (-row.won, -Fraction(row.won, row.games))

    def by_win_rate(row: PitchRow, other: PitchRow) -> Reason:
        return Reason(
            "tie_win_rate",
            {
                "other": other.player,
                "win_rate": row.win_rate,
                "other_win_rate": other.win_rate,
                "games": row.games,
                "other_games": other.games,
            },
        )

    return PitchStandings(
        ranked=_placed(rows, key, (by_win_rate,)),
        evenings=parts.evenings,
        progress=_per_evening(parts.evenings, parts.progress, [row.player for row in rows]),
    )


# ---------------------------------------------------------------------------
# Manipulation
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ManipulationRow:
    """One player's Manipulation season."""

    player: int
    place: int | None
    games: int
    won: int  # games won or shared
    rounds: int
    went_out: int
    penalties: int  # penalty points over every round
    avg_penalty: float  # per round, 0.0 without rounds
    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class ManipulationStandings:
    ranked: tuple[ManipulationRow, ...]
    evenings: tuple[datetime.date, ...]
    progress: tuple[tuple[datetime.date, Mapping[int, int]], ...]  # games won so far


def manipulation_contribution(record: SheetRecord) -> dict[str, Any]:
    """What one Manipulation sheet adds to its season's totals: per seat the player,
    whether they won (or shared the win), rounds, rounds they went out and penalties."""
    seats = [
        [
            player,
            int(bool(stats["won"])),
            int(stats["rounds"]),
            int(stats["went_out"]),
            int(stats["penalties"]),
        ]
        for player, stats in zip(record.players, record.stats, strict=True)
    ]
    return {
        "game": "manipulation",
        "sheet": record.sheet_id,
        "day": record.played_on.isoformat(),
        "seats": seats,
    }


_MANIPULATION_SUMS = ("won", "rounds", "went_out", "penalties")


def manipulation_apply(totals: dict[str, Any], contribution: Mapping[str, Any], sign: int) -> None:
    """Add one sheet's contribution to a season's Manipulation totals (``sign`` 1) or
    take it away (``sign`` −1). ValueError when it was never added."""
    day = contribution["day"]
    _counted(totals.setdefault("evenings", {}), day, sign)
    players = totals.setdefault("players", {})
    for player, *sums in contribution["seats"]:
        key = str(player)
        mine = players.setdefault(
            key, {"games": 0, **dict.fromkeys(_MANIPULATION_SUMS, 0), "days": {}}
        )
        mine["games"] += sign
        for name, value in zip(_MANIPULATION_SUMS, sums, strict=True):
            mine[name] += sign * value
        _games_by_day(mine, day, sums[0], sign)
        _gone(players, key, mine["games"])


def _manipulation_row(player: int, mine: Mapping[str, Any]) -> ManipulationRow:
    won, games = mine["won"], mine["games"]
    rounds, penalties = mine["rounds"], mine["penalties"]
    return ManipulationRow(
        player=player,
        place=None,
        games=games,
        won=won,
        rounds=rounds,
        went_out=mine["went_out"],
        penalties=penalties,
        avg_penalty=penalties / rounds if rounds else 0.0,
        reasons=(Reason("ranked_by_wins", {"won": won, "games": games}),),
    )


def _avg_penalty(row: ManipulationRow) -> Fraction:
    return Fraction(row.penalties, row.rounds) if row.rounds else Fraction(0)


def manipulation_standings(
    records: Sequence[SheetRecord], *, include: Callable[[int], bool] = everyone
) -> ManipulationStandings:
    """The Manipulation table of a season: most games won, then fewest penalty points a round."""
    totals = _added_up(records, "manipulation", manipulation_apply, manipulation_contribution)
    return manipulation_table(totals, include=include)


def manipulation_table(
    totals: Mapping[str, Any], *, include: Callable[[int], bool] = everyone
) -> ManipulationStandings:
    """The Manipulation table from a season's totals (:func:`manipulation_apply`)."""
    return manipulation_placed(manipulation_parts(totals), include=include)


def manipulation_parts(totals: Mapping[str, Any]) -> WinsParts[ManipulationRow]:
    return _wins_parts(totals, _manipulation_row)


def manipulation_placed(
    parts: WinsParts[ManipulationRow], *, include: Callable[[int], bool] = everyone
) -> ManipulationStandings:
    """The Manipulation table of the included players, placed."""
    rows = [parts.rows[player] for player in sorted(parts.rows) if include(player)]

    def key(row: ManipulationRow) -> tuple[int, Fraction]:
        # Penalty points are bad: the fewer a round, the better the place.
        return (-row.won, _avg_penalty(row))

    def by_avg_penalty(row: ManipulationRow, other: ManipulationRow) -> Reason:
        return Reason(
            "tie_avg_penalty",
            {
                "other": other.player,
                "avg_penalty": row.avg_penalty,
                "other_avg_penalty": other.avg_penalty,
            },
        )

    return ManipulationStandings(
        ranked=_placed(rows, key, (by_avg_penalty,)),
        evenings=parts.evenings,
        progress=_per_evening(parts.evenings, parts.progress, [row.player for row in rows]),
    )


# ---------------------------------------------------------------------------
# The title race
# ---------------------------------------------------------------------------
#
# Ranked by the same keys as the tables (the ranked value, then the tie-breaks), under
# the same club rules (scaling, dropped series, the minimum of series, missed evenings).
#
# What may still happen: ``evenings_left`` evenings, on each of which a player plays
# from none to ``per_evening`` series (Skat) or games. A Skat series brings from
# ``least_series_sf(series_deals)`` to ``most_series_sf(series_deals)``, won and lost
# games with it (a perfect series wins every deal, the worst loses every deal); a
# Pitch game is won or lost; a Manipulation game is won or lost with any number of
# rounds and penalty points. At Skat, with missed="zero", an evening the circle plays
# Skat counts as a series of 0 for everyone who stays away. Only the season's players
# so far are in the race: a newcomer's first series is not foreseen.


Key = tuple[Any, ...]


@dataclass(frozen=True)
class Chase:
    """What one rival needs to pass the leaders if they do not play again.

    Skat: ``series`` series (one an evening; more where the minimum of series asks
    for them) each bringing ``needed`` Seeger-Fabian points or more. Pitch and
    Manipulation: ``needed`` wins in ``series`` games. The least that passes for
    certain: a series or game more in the rival's favour is not assumed (at Skat,
    equal points pass only when the rival has won more games already; at Pitch,
    equal wins pass on the share of games won only when no game is lost, which
    ``without_loss`` says). ``needed`` is ``None`` when nothing still possible does it.
    """

    rival: int
    behind: float  # the gap to the leaders now, in the ranked measure
    needed: int | None
    series: int
    possible: bool
    without_loss: bool = False


@dataclass(frozen=True)
class TitleRace:
    measure: Literal["sf_total", "sf_average", "wins"]
    leaders: tuple[int, ...]  # first place, shared or not; empty while nobody is ranked
    evenings_left: int
    per_evening: int
    rivals: tuple[Chase, ...]  # the nearest ranked players behind the leaders
    # Nothing still possible changes who is first: nobody else draws level with or
    # passes a leader, and no leader falls behind another (the leaders' own results
    # count too: a Skat leader can lose points).
    decided: bool

    @property
    def leader(self) -> int | None:
        return self.leaders[0] if self.leaders else None


# -- Skat ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _SkatFuture:
    """Every key a Skat row can still end with, evening count by evening count."""

    row: SkatRow
    values: SeriesSoFar  # the series as they count now
    rules: ClubRules
    evenings: int
    per_evening: int
    lowest: int
    highest: int
    deals: int

    def key(
        self, series: int, value: int, zeros: int = 0, won: int = 0, lost: int = 0
    ) -> Key | None:
        """The key after ``series`` more series of ``value`` each (with ``won`` and
        ``lost`` games as declarer in each) and ``zeros`` missed evenings; ``None``
        while below the minimum of series."""
        row = self.row
        if row.series + series < self.rules.min_series:
            return None
        # The ranked value of every series so far, ``series`` more of ``value`` and
        # ``zeros`` zeros under the club rules (the worst dropped, total or average),
        # without sorting them all again: only the lowest of each can be dropped.
        count = self.values.count + series + zeros
        keep = max(count - self.rules.drop_worst, 1)
        dropping = count - keep
        lowest = sorted(
            (
                *self.values.lowest[:dropping],
                *([value] * min(series, dropping)),
                *([0] * min(zeros, dropping)),
            )
        )[:dropping]
        total = self.values.total + value * series - sum(lowest)
        ranked = Fraction(total) if self.rules.rank_by == "total" else Fraction(total, keep)
        return (
            -ranked,
            -(row.won + won * series),
            row.lost + lost * series,
        )

    def _shapes(self, skat_evenings: int) -> Iterable[tuple[int, int]]:
        """(series, zeros) for a player on ``skat_evenings`` of the evenings left."""
        for series in range(self.per_evening * skat_evenings + 1):
            if self.rules.missed != "zero":
                yield series, 0
                continue
            fewest = -(-series // self.per_evening)  # evenings that many series take
            for attended in range(fewest, min(series, skat_evenings) + 1):
                yield series, skat_evenings - attended

    def best(self, skat_evenings: int) -> Key | None:
        # Every series played is a perfect one, but not every evening need be played:
        # ranked by average, a player above the best a series can bring keeps more by
        # staying home (an average of 9000 falls with a series of 2162).
        keys = [
            key
            for series, zeros in self._shapes(skat_evenings)
            if (key := self.key(series, self.highest, zeros, won=self.deals)) is not None
        ]
        return min(keys) if keys else None

    def worst(self, skat_evenings: int) -> Key:
        keys = (
            self.key(series, self.lowest, zeros, lost=self.deals)
            for series, zeros in self._shapes(skat_evenings)
        )
        return max(key for key in keys if key is not None)

    def plan(self) -> int | None:
        """Series a rival plays to pass: one an evening, more if the minimum asks."""
        series = max(self.evenings, self.rules.min_series - self.row.series)
        return series if series <= self.per_evening * self.evenings else None


def _skat_race(
    standings: SkatStandings,
    leaders: Sequence[SkatRow],
    others: Sequence[SkatRow],
    evenings: int,
    per_evening: int,
    deals: int,
) -> tuple[dict[int, Chase], bool]:
    rules = standings.rules
    lowest = least_series_sf(deals, house_rules=True)
    highest = most_series_sf(deals, house_rules=True)

    def future(row: SkatRow) -> _SkatFuture:
        values = standings.values[row.player]
        return _SkatFuture(row, values, rules, evenings, per_evening, lowest, highest, deals)

    # The pairs are independent but for the evenings the circle plays Skat at all,
    # which every player's missed evenings count.
    spans = range(evenings + 1) if rules.missed == "zero" else (evenings,)
    leader_futures = [future(row) for row in leaders]
    worst = {(f.row.player, span): f.worst(span) for f in leader_futures for span in spans}

    def catches(row: SkatRow, strictly: bool) -> bool:
        mine = future(row)
        for span in spans:
            best = mine.best(span)
            if best is None:
                continue
            for leader in leaders:
                if leader.player == row.player:
                    continue
                theirs = worst[(leader.player, span)]
                if best < theirs or (not strictly and best == theirs):
                    return True
        return False

    decided = not any(catches(row, strictly=False) for row in others) and not any(
        catches(row, strictly=True) for row in leaders
    )
    target = leaders[0]
    chases = {}
    for row in others:
        mine = future(row)
        series = mine.plan()
        behind = float(_skat_exact(target, rules) - _skat_exact(row, rules))
        needed = None
        if series is not None and evenings:
            # The leaders stay home: with missed="zero" every evening left counts as a
            # series of 0 for them (the rival plays Skat on each). A zero can raise a
            # leader's value when the worst series are dropped, and leaders who share
            # first place now may part: the rival has to pass the best of them then.
            zeros = evenings if rules.missed == "zero" else 0
            theirs = min(
                key for leader in leaders if (key := future(leader).key(0, 0, zeros)) is not None
            )
            needed = _least(partial(_passes, mine, series, theirs), lowest, highest)
        chases[row.player] = Chase(
            rival=row.player,
            behind=behind,
            needed=needed,
            series=series or 0,
            possible=needed is not None,
        )
    return chases, decided


def _passes(rival: _SkatFuture, series: int, theirs: Key | None, value: int) -> bool:
    """Whether ``series`` series of ``value`` each pass a leader whose key is ``theirs``.
    No win more is assumed: equal points pass on games won only when the rival is
    ahead on them already; a loss more is not ruled out."""
    mine = rival.key(series, value)
    assert mine is not None  # ranked by then, as planned
    assert theirs is not None  # a leader is ranked
    return (mine[0], mine[1], math.inf) < theirs


def _least(passes: Callable[[int], bool], low: int, high: int) -> int | None:
    """The least whole number from ``low`` to ``high`` that ``passes`` (which only
    ever turns from False to True as the number grows), or ``None``."""
    if not passes(high):
        return None
    while low < high:
        middle = (low + high) // 2
        if passes(middle):
            high = middle
        else:
            low = middle + 1
    return low


# -- Pitch and Manipulation ----------------------------------------------------------


def _pitch_key(won: int, games: int) -> Key:
    return (-won, -Fraction(won, games) if games else Fraction(0))


def _pitch_race(
    leaders: Sequence[PitchRow], others: Sequence[PitchRow], evenings: int, per_evening: int
) -> tuple[dict[int, Chase], bool]:
    most = evenings * per_evening

    def best(row: PitchRow) -> Key:
        return _pitch_key(row.won + most, row.games + most)

    def worst(row: PitchRow) -> Key:
        return _pitch_key(row.won, row.games + most)

    decided = not any(
        best(row) <= worst(leader) for row in others for leader in leaders
    ) and not any(
        best(row) < worst(leader) for row in leaders for leader in leaders if row is not leader
    )
    target = _pitch_key(leaders[0].won, leaders[0].games)
    chases = {}
    for row in others:
        gap = leaders[0].won - row.won
        # Winning every game played keeps the best share; equal wins may be enough.
        wins = next(w for w in (gap, gap + 1) if _pitch_key(row.won + w, row.games + w) < target)
        possible = 0 < wins <= most
        chases[row.player] = Chase(
            rival=row.player,
            behind=float(gap),
            needed=wins if possible else None,
            series=wins if possible else 0,
            possible=possible,
            without_loss=possible and wins == gap,
        )
    return chases, decided


def _manipulation_race(
    leaders: Sequence[ManipulationRow],
    others: Sequence[ManipulationRow],
    evenings: int,
    per_evening: int,
) -> tuple[dict[int, Chase], bool]:
    most = evenings * per_evening
    # Penalty points per round can still move either way while a game is left to play
    # (a leader who loses a long game takes many, a rival going out every round none):
    # drawing level on wins is enough to change who is first.
    if most:
        decided = len(leaders) == 1 and not any(row.won + most >= leaders[0].won for row in others)
    else:
        decided = True
    chases = {}
    for row in others:
        gap = leaders[0].won - row.won
        possible = gap + 1 <= most
        chases[row.player] = Chase(
            rival=row.player,
            behind=float(gap),
            needed=gap + 1 if possible else None,
            series=gap + 1 if possible else 0,
            possible=possible,
        )
    return chases, decided


def title_race(
    standings: SkatStandings | PitchStandings | ManipulationStandings,
    *,
    evenings_left: int,
    per_evening: int = 1,
    series_deals: int = SERIES_DEALS[3],
    rivals: int = 3,
) -> TitleRace:
    """Who is first, what the nearest rivals need, and whether the title is decided.

    ``evenings_left``: the evenings the season still plans. ``per_evening``: the most
    series (Skat) or games one player may play in an evening. ``series_deals``: the
    longest Skat series (36 at three players, 48 at four, 60 at five, or what a sheet
    sets), which
    bounds what one series can bring or cost. ``rivals``: how many of the ranked
    players behind the leaders get a :class:`Chase`. Whether the title is decided
    looks at every player, the unranked included (they may still reach the minimum
    of series).
    """
    if evenings_left < 0:
        raise ValueError("evenings_left cannot be negative.")
    if per_evening < 1 or series_deals < 1:
        raise ValueError("per_evening and series_deals must be at least 1.")
    measure: Literal["sf_total", "sf_average", "wins"] = "wins"
    if isinstance(standings, SkatStandings):
        measure = "sf_total" if standings.rules.rank_by == "total" else "sf_average"
    ranked = standings.ranked
    if not ranked:
        return TitleRace(measure, (), evenings_left, per_evening, (), decided=False)
    leaders = tuple(row for row in ranked if row.place == ranked[0].place)
    behind = ranked[len(leaders) :]
    if isinstance(standings, SkatStandings):
        chases, decided = _skat_race(
            standings,
            leaders,
            (*behind, *standings.unranked),
            evenings_left,
            per_evening,
            series_deals,
        )
    elif isinstance(standings, PitchStandings):
        chases, decided = _pitch_race(leaders, behind, evenings_left, per_evening)
    else:
        chases, decided = _manipulation_race(leaders, behind, evenings_left, per_evening)
    return TitleRace(
        measure=measure,
        leaders=tuple(row.player for row in leaders),
        evenings_left=evenings_left,
        per_evening=per_evening,
        rivals=tuple(chases[row.player] for row in behind[:rivals]),
        decided=decided,
    )
