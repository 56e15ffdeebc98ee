"""Who sits where on a club evening: the tables, the draw and the swaps (issue 17).

Pure Python like the referee (no Django): the evening app stores what these functions
return and shows their explanations.

Tables (issue 17, "The evening"; api.md, "Club evenings")
    Skat: as many tables of four as possible and threes for the rest; 5 players make
    one table of five. Every roll of 3 or more players can be seated so (any n ≥ 3
    other than 5 is 4a + 3b); 1 or 2 players cannot. Pitch: tables of four only; a
    roll that is not a multiple of four is refused, or, when the evening allows it,
    the players over sit out in turn.

The draw by lot (reproducible)
    The roll is put in a fixed order first: player ids, smallest first. Then it is
    shuffled by Fisher–Yates driven by SHA-256, so that anyone can recompute it from
    the seed with a pencil and any SHA-256 tool::

        for i = n−1 down to 1:
            h = SHA-256 of the text "<key>:<i>" (UTF-8), read as a big-endian number
            j = h mod (i + 1)
            swap the players at positions i and j        (positions count from 0)

    The key is the seed written in decimal (``"4711"``) for the first try. The shuffled
    list then fills the tables in number order, each table's seats in order: the
    first four (or three) players are table 1, seats 0, 1, 2, 3, and so on. Python's
    ``random`` module is never used, so the result does not depend on its version.

Keeping apart (option)
    When players who sat together in the last series should be kept apart, try 0 is
    the plain draw above; if it seats a pair together again, try r = 1, 2, … up to
    :data:`KEEP_APART_TRIES` − 1 uses the key ``"<seed>/<r>"``. The first try with no
    pair together again is taken; when none has, the try with the fewest such pairs
    (the earliest of equals). Same seed and same roll: same tables, always.

The seeded draw
    Seats by the evening's ranking so far: ranking places 1–4 at table 1, 5–8 at
    table 2, and so on, tables in number order; players not ranked yet (latecomers)
    follow in roll order. With the default ``fours_first`` the tables of three are
    the last ones, as issue 17 asks.

"Threes first"
    ``threes_first`` mirrors ``fours_first``: the same tables (as many fours as
    possible), numbered with the tables of three first. The option changes which
    tables come first (and so, in a seeded draw, which tables the leaders play
    at), never how many tables of each size there are.

The first dealer
    No rule we follow names one, so seat index 0 (shown as seat 1: the first name on
    the table's card) deals first at every table. At a table of five the dealer and
    the third player to their left sit out each deal (issue 17); the deal passes to
    the left.

Sitting out (Pitch)
    When the evening allows it, the players over a multiple of four sit out in turn:
    those who sat out least so far, and among them the earliest in roll order (the
    smallest ids), so over the series everyone takes their turn. They are chosen
    before the draw; the rest are drawn as above.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from games.rules.errors import ProblemCollector, RuleError, Step
from games.rules.skat_sheet import LONGEST_SERIES
from games.rules.text import Text, _, ngettext
from games.rules.words import capitalised, joined

RULE_SECTIONS = {
    "evening-tables": _("Tables of four, three and five"),
    "evening-draw": _("The draw"),
}

GAMES = ("skat", "pitch")
TABLE_ORDERS = ("fours_first", "threes_first")
METHODS = ("lot", "seeded")
# Table sizes by game: Skat plays at three, four or five, Pitch at four.
TABLE_SIZES = {"skat": (3, 4, 5), "pitch": (4,)}
# Issue 17: "48 at four, 36 at three by default; a 5-table plays 60".
DEFAULT_SERIES_DEALS = {3: 36, 4: 48, 5: 60}
# The tries of a keep-apart draw (try 0 and the reshuffles 1 … 99).
KEEP_APART_TRIES = 100
# A seed the page shows and a person can type: up to six digits.
SEED_LIMIT = 1_000_000
FIRST_DEALER = 0


def new_seed() -> int:
    """A fresh seed for a draw by lot (0 … 999 999), from the system's randomness."""
    return secrets.randbelow(SEED_LIMIT)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _who(player: int, names: Mapping[int, str] | None) -> str:
    if names and player in names:
        return names[player]
    # Translators: a player of an evening shown by number when no name is given.
    return _("player {id}", id=player)


def _everyone(players: Iterable[int], names: Mapping[int, str] | None) -> Text | str:
    return joined([_who(p, names) for p in players])


# ---------------------------------------------------------------------------
# Series lengths
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SeriesDeals:
    """How many deals a series has at a table of three, four and five."""

    three: int = DEFAULT_SERIES_DEALS[3]
    four: int = DEFAULT_SERIES_DEALS[4]
    five: int = DEFAULT_SERIES_DEALS[5]

    def for_table(self, size: int) -> int:
        """The deals of a series at a table of ``size`` (3, 4 or 5)."""
        return {3: self.three, 4: self.four, 5: self.five}[size]

    def as_dict(self) -> dict[str, int]:
        """``{"3": 36, "4": 48, "5": 60}``, as the API writes it."""
        return {"3": self.three, "4": self.four, "5": self.five}

    @classmethod
    def from_mapping(
        cls, data: Mapping[Any, Any] | None, field: str = "series_deals"
    ) -> SeriesDeals:
        """Read ``{"3": 36, "4": 48, "5": 60}`` (keys as text or numbers; a size left out
        keeps its default). ``RuleError`` naming every bad entry: a length is a positive
        whole multiple of the table size (36/27, 32/24, 16/12 are fine)."""
        if data is None:
            return cls()
        problems = ProblemCollector()
        if not isinstance(data, Mapping):
            raise RuleError(
                _(
                    # Translators: keep the example as it is (it is JSON).
                    'The series lengths are given per table size, like "3": 36, "4": 48, "5": 60.'
                ),
                field,
            )
        lengths = dict(DEFAULT_SERIES_DEALS)
        for key, value in data.items():
            size = _table_size_key(key)
            where = f"{field}.{key}"
            if size is None:
                problems.add(
                    where,
                    _(
                        "Series lengths are set for tables of 3, 4 or 5 players, not {got}.",
                        got=str(key),
                    ),
                )
                continue
            if not _is_int(value) or value <= 0:
                problems.add(
                    where,
                    _(
                        "A series at a table of {size} is a whole number of deals above 0, "
                        "not {got}.",
                        size=size,
                        got=str(value),
                    ),
                )
                continue
            if value > LONGEST_SERIES:
                # A table's sheet holds a series of at most this many deals.
                longest = LONGEST_SERIES - LONGEST_SERIES % size
                problems.add(
                    where,
                    _(
                        "A series at a table of {size} has at most {longest} deals, not {got}.",
                        size=size,
                        longest=longest,
                        got=value,
                    ),
                )
                continue
            if value % size:
                lower = value - value % size
                problems.add(
                    where,
                    _(
                        "A series at a table of {size} is a multiple of {size} deals, so "
                        "that everyone deals equally often: {got} is not ({lower} or "
                        "{higher} would be).",
                        size=size,
                        got=value,
                        lower=lower or size,
                        higher=lower + size if lower else 2 * size,
                    ),
                )
                continue
            lengths[size] = value
        problems.raise_if_any()
        return cls(lengths[3], lengths[4], lengths[5])


def _table_size_key(key: object) -> int | None:
    if _is_int(key):
        size = key
    elif isinstance(key, str) and key.strip().isascii() and key.strip().isdigit():
        if len(key.strip()) > 2:
            return None
        size = int(key.strip())
    else:
        return None
    return size if size in DEFAULT_SERIES_DEALS else None


# ---------------------------------------------------------------------------
# Table sizes
# ---------------------------------------------------------------------------


def _check_game(game: object, problems: ProblemCollector, field: str = "game") -> bool:
    if game in GAMES:
        return True
    problems.add(
        field,
        _(
            # Translators: "skat" and "pitch" are values of the API: keep them.
            'An evening plays "skat" or "pitch", not {got}.',
            got=str(game),
        ),
    )
    return False


def _check_order(order: object, problems: ProblemCollector, field: str = "tables") -> None:
    if order not in TABLE_ORDERS:
        problems.add(
            field,
            _(
                # Translators: "fours_first" and "threes_first" are values of the API: keep them.
                'The tables are numbered "fours_first" or "threes_first", not {got}.',
                got=str(order),
            ),
        )


def table_sizes(
    count: int, *, game: str = "skat", order: str = "fours_first", sit_out: bool = False
) -> tuple[int, ...]:
    """The size of each table, table 1 first, for ``count`` players.

    Skat: as many tables of four as possible, threes for the rest (``threes_first``
    numbers the same tables with the threes first); 5 players make one table of five.
    Pitch: tables of four; with ``sit_out`` the players over a multiple of four sit
    out (they are not seated), otherwise such a roll is refused, naming how many are
    missing or over. ``RuleError`` says why a roll cannot be seated.
    """
    problems = ProblemCollector()
    game_ok = _check_game(game, problems)
    _check_order(order, problems)
    if not _is_int(count) or count < 0:
        problems.add("players", _("The number of players is a whole number, 0 or more."))
    problems.raise_if_any()
    assert game_ok
    if game == "pitch":
        return _pitch_sizes(count, sit_out)
    return _skat_sizes(count, order)


def _skat_sizes(count: int, order: str) -> tuple[int, ...]:
    if count < 3:
        raise RuleError(
            ngettext(
                "A Skat table needs at least 3 players; the roll has {n} player.",
                "A Skat table needs at least 3 players; the roll has {n} players.",
                count,
                n=count,
            ),
            "players",
        )
    if count == 5:
        return (5,)
    # 4a + 3b = count with as many fours as possible: b ≡ −count (mod 4).
    threes = -count % 4
    fours = (count - 3 * threes) // 4
    if order == "threes_first":
        return (3,) * threes + (4,) * fours
    return (4,) * fours + (3,) * threes


def _pitch_sizes(count: int, sit_out: bool) -> tuple[int, ...]:
    over = count % 4
    if count < 4:
        raise RuleError(
            ngettext(
                "A Pitch table needs 4 players; the roll has {n} player.",
                "A Pitch table needs 4 players; the roll has {n} players.",
                count,
                n=count,
            ),
            "players",
        )
    if over and not sit_out:
        missing = 4 - over
        raise RuleError(
            _(
                # Translators: {missing_text} and {over_text} are e.g. "3 players".
                "Pitch is played at tables of four, and {n} players do not fill them: "
                "{missing_text} more, or {over_text} fewer, would. Add or take off "
                "players, or let players sit out in turn.",
                n=count,
                missing_text=ngettext("{n} player", "{n} players", missing, n=missing),
                over_text=ngettext("{n} player", "{n} players", over, n=over),
            ),
            "players",
        )
    return (4,) * (count // 4)


# ---------------------------------------------------------------------------
# The shuffle
# ---------------------------------------------------------------------------


def _step_index(key: str, i: int) -> int:
    digest = hashlib.sha256(f"{key}:{i}".encode()).digest()
    return int.from_bytes(digest, "big") % (i + 1)


def shuffled(players: Sequence[int], key: str) -> tuple[int, ...]:
    """``players`` shuffled by Fisher–Yates with SHA-256 of ``"<key>:<i>"`` (module
    docstring): for i = n−1 down to 1, swap positions i and SHA-256("<key>:<i>") mod
    (i + 1)."""
    order = list(players)
    for i in range(len(order) - 1, 0, -1):
        j = _step_index(key, i)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def try_key(seed: int, attempt: int) -> str:
    """The shuffle's key for try ``attempt`` of a draw with ``seed``: ``"4711"``, then
    ``"4711/1"``, ``"4711/2"`` …"""
    return str(seed) if attempt == 0 else f"{seed}/{attempt}"


# ---------------------------------------------------------------------------
# The draw
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """One table of a series: its players in seat order and who deals first."""

    number: int
    size: int
    players: tuple[int, ...]
    first_dealer: int = FIRST_DEALER

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "size": self.size,
            "players": list(self.players),
            "first_dealer": self.first_dealer,
        }


@dataclass(frozen=True)
class Swap:
    """Two players who changed places before the series started."""

    first: int
    second: int


@dataclass(frozen=True)
class Draw:
    """A series' seating: the tables, who sits out, and how it came about.

    ``method`` is ``"lot"`` or ``"seeded"``; ``seed`` the lot's seed (``None`` when
    seeded); ``attempt`` the keep-apart try taken (0: the plain draw) and
    ``repeats`` how many pairs of the last series sit together again.
    """

    series: int
    game: str
    method: str
    order: str
    seed: int | None
    tables: tuple[Table, ...]
    sitting_out: tuple[int, ...] = ()
    keep_apart: bool = False
    attempt: int = 0
    repeats: int = 0
    swaps: tuple[Swap, ...] = ()
    explanation: tuple[Step, ...] = field(default=(), compare=False)

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone seated, table by table, seat by seat."""
        return tuple(p for table in self.tables for p in table.players)

    def table_of(self, player: int) -> Table | None:
        """The table ``player`` sits at, or ``None`` (sitting out, or not in the series)."""
        for table in self.tables:
            if player in table.players:
                return table
        return None

    def as_dict(self) -> dict[str, Any]:
        """The seating as the API writes it (without sheets and tokens)."""
        return {
            "number": self.series,
            "draw": self.method,
            "seed": self.seed,
            "tables": [table.as_dict() for table in self.tables],
            "sitting_out": list(self.sitting_out),
        }


def _check_roll(roll: object, problems: ProblemCollector, field: str = "players") -> list[int]:
    if isinstance(roll, (str, bytes)) or not isinstance(roll, Iterable):
        problems.add(field, _("The roll is a list of player ids."))
        return []
    players = list(roll)
    bad = [p for p in players if not _is_int(p)]
    if bad:
        problems.add(field, _("The roll is a list of player ids, whole numbers."))
        return []
    seen: set[int] = set()
    twice = sorted({p for p in players if p in seen or seen.add(p)})
    if twice:
        problems.add(
            field,
            ngettext(
                "{players} is on the roll twice; each player is seated once.",
                "{players} are on the roll twice; each player is seated once.",
                len(twice),
                players=capitalised(_everyone(twice, None)),
            ),
        )
    return sorted(set(players))


def _pairs(tables: Iterable[Sequence[int]]) -> set[frozenset[int]]:
    return {frozenset(pair) for table in tables for pair in combinations(table, 2)}


def _fill(order: Sequence[int], sizes: Sequence[int]) -> tuple[Table, ...]:
    tables = []
    start = 0
    for number, size in enumerate(sizes, start=1):
        tables.append(Table(number, size, tuple(order[start : start + size])))
        start += size
    return tuple(tables)


def _sitting_out(roll: Sequence[int], over: int, sat_out: Mapping[int, int]) -> tuple[int, ...]:
    # Those who sat out least so far; among equals the earliest in roll order (the
    # roll is sorted by id).
    ranked = sorted(roll, key=lambda p: (sat_out.get(p, 0), p))
    return tuple(sorted(ranked[:over]))


def draw_series(
    roll: Sequence[int],
    *,
    series: int = 1,
    game: str = "skat",
    method: str = "lot",
    seed: int | None = None,
    order: str = "fours_first",
    ranking: Sequence[int] = (),
    keep_apart: Iterable[Sequence[int]] | None = None,
    sit_out: bool = False,
    sat_out: Mapping[int, int] | None = None,
    names: Mapping[int, str] | None = None,
) -> Draw:
    """Seat ``roll`` (player ids, any order) for series number ``series``.

    ``method="lot"`` needs ``seed`` (see :func:`new_seed`); ``method="seeded"`` seats
    by ``ranking`` (player ids, best first; players not in it follow in roll order).
    ``keep_apart`` is the last series' tables (player ids per table): with it, a draw
    by lot keeps those who sat together apart where the lot allows. Pitch with
    ``sit_out`` lets the players over a multiple of four sit out, chosen in turn by
    ``sat_out`` (how often each player sat out so far). ``names`` only words the
    explanation. ``RuleError`` carries every problem.
    """
    problems = ProblemCollector()
    game_ok = _check_game(game, problems)
    _check_order(order, problems)
    players = _check_roll(roll, problems)
    if not _is_int(series) or series < 1:
        problems.add("series", _("A series is numbered from 1."))
    if method not in METHODS:
        problems.add(
            "draw",
            _(
                # Translators: "lot" and "seeded" are values of the API: keep them.
                'A series is drawn by "lot" or "seeded" by the ranking, not {got}.',
                got=str(method),
            ),
        )
    elif method == "lot":
        if seed is None:
            problems.add("seed", _("A draw by lot needs a seed."))
        elif not _is_int(seed) or seed < 0:
            problems.add("seed", _("The seed is a whole number, 0 or more."))
    elif seed is not None:
        problems.add("seed", _("A seeded draw follows the ranking; it takes no seed."))
    if method == "seeded":
        ranked = list(ranking)
        if any(not _is_int(p) for p in ranked) or len(set(ranked)) != len(ranked):
            problems.add("ranking", _("The ranking lists each player id once."))
    last_tables = [tuple(t) for t in keep_apart] if keep_apart is not None else None
    problems.raise_if_any()
    assert game_ok

    sizes = table_sizes(len(players), game=game, order=order, sit_out=sit_out)
    seated_count = sum(sizes)
    out = _sitting_out(players, len(players) - seated_count, sat_out or {})
    playing = [p for p in players if p not in out]

    steps = [_sizes_step(sizes, game)]
    if out:
        steps.append(_sit_out_step(out, names))
    attempt = 0
    if method == "seeded":
        position = {p: i for i, p in enumerate(ranking)}
        order_of_play = sorted(playing, key=lambda p: (p not in position, position.get(p, 0), p))
        tables = _fill(order_of_play, sizes)
        steps.append(
            Step(
                _(
                    "Seeded by the evening's ranking so far: places 1 to {first} at table 1, "
                    "and so on, table by table; players not ranked yet follow, by number.",
                    first=sizes[0],
                ),
                "evening-draw",
            )
        )
        repeats = len(_pairs(t.players for t in tables) & _pairs(last_tables or ()))
    else:
        assert seed is not None
        avoid = _pairs(last_tables or ())
        best: tuple[int, int, tuple[Table, ...]] | None = None
        tries = KEEP_APART_TRIES if last_tables is not None else 1
        for attempt in range(tries):
            candidate = _fill(shuffled(playing, try_key(seed, attempt)), sizes)
            repeats = len(_pairs(t.players for t in candidate) & avoid)
            if best is None or repeats < best[1]:
                best = (attempt, repeats, candidate)
            if repeats == 0:
                break
        assert best is not None
        attempt, repeats, tables = best
        steps.append(_lot_step(seed, attempt))
        if last_tables is not None:
            steps.append(_keep_apart_step(attempt, repeats, tries))
    steps.append(
        Step(
            _("At every table the player in seat 1 deals first; the deal passes to the left."),
            "evening-tables",
        )
    )
    return Draw(
        series=series,
        game=game,
        method=method,
        order=order,
        seed=seed if method == "lot" else None,
        tables=tables,
        sitting_out=out,
        keep_apart=last_tables is not None,
        attempt=attempt,
        repeats=repeats,
        explanation=tuple(steps),
    )


def _lot_step(seed: int, attempt: int) -> Step:
    """How a draw by lot seated the players (try ``attempt`` of ``seed``)."""
    return Step(
        _(
            "Drawn by lot with seed {seed}: the roll by player number, smallest "
            "first, shuffled from the last place down, each player swapped with "
            'the one at place SHA-256("{key}:i") mod (i + 1); then table by '
            "table, seat by seat.",
            seed=str(seed),
            key=try_key(seed, attempt),
        ),
        "evening-draw",
    )


def _sizes_step(sizes: Sequence[int], game: str) -> Step:
    fours = sizes.count(4)
    threes = sizes.count(3)
    if 5 in sizes:
        text = _(
            "5 players make one table of five: each deal the dealer and the third player "
            "to their left sit out."
        )
    elif game == "pitch":
        text = ngettext(
            "Pitch is played at tables of four: {n} table.",
            "Pitch is played at tables of four: {n} tables.",
            fours,
            n=fours,
        )
    else:
        text = _(
            # Translators: {fours} and {threes} are e.g. "2 tables of four", "1 table of three".
            "As many tables of four as possible, and threes for the rest: {fours} and {threes}.",
            fours=ngettext("{n} table of four", "{n} tables of four", fours, n=fours),
            threes=ngettext("{n} table of three", "{n} tables of three", threes, n=threes),
        )
    return Step(text, "evening-tables")


def _sit_out_step(out: Sequence[int], names: Mapping[int, str] | None) -> Step:
    return Step(
        ngettext(
            "{players} sits out this series: the player who sat out least so far (by "
            "number among equals).",
            "{players} sit out this series: the players who sat out least so far (by "
            "number among equals).",
            len(out),
            players=capitalised(_everyone(out, names)),
        ),
        "evening-tables",
    )


def _keep_apart_step(attempt: int, repeats: int, tries: int) -> Step:
    if repeats == 0 and attempt == 0:
        text = _("Nobody sits with a player from their table of the last series.")
    elif repeats == 0:
        text = ngettext(
            "Players who sat together in the last series are kept apart: the draw was "
            "made again {n} time, and the first draw with nobody together again was taken.",
            "Players who sat together in the last series are kept apart: the draw was "
            "made again {n} times, and the first draw with nobody together again was taken.",
            attempt,
            n=attempt,
        )
    else:
        text = ngettext(
            "The lot could not keep everyone apart in {tries} draws; the draw taken has "
            "the fewest pairs from the last series together again: {n} pair.",
            "The lot could not keep everyone apart in {tries} draws; the draw taken has "
            "the fewest pairs from the last series together again: {n} pairs.",
            repeats,
            n=repeats,
            tries=tries,
        )
    return Step(text, "evening-draw")


# ---------------------------------------------------------------------------
# Checking a seating, and swaps
# ---------------------------------------------------------------------------


def check_tables(
    tables: Sequence[Sequence[int]],
    *,
    game: str = "skat",
    names: Mapping[int, str] | None = None,
) -> None:
    """``RuleError`` when a seating breaks the rules: a table of a size the game does
    not play at, or a player at two tables (or twice at one)."""
    problems = ProblemCollector()
    if not _check_game(game, problems):
        problems.raise_if_any()
    seen: dict[int, int] = {}
    for number, table in enumerate(tables, start=1):
        where = f"tables.{number - 1}"
        if len(table) not in TABLE_SIZES[game]:
            problems.add(
                where,
                _(
                    "Table {table} has {n} players; the tables of this game seat {sizes}.",
                    table=number,
                    n=len(table),
                    sizes=joined([str(s) for s in TABLE_SIZES[game]], last="or"),
                ),
            )
        for player in table:
            if player in seen:
                problems.add(
                    where,
                    _(
                        "{player} is seated at table {first} and again at table {second}; "
                        "each player sits at one table.",
                        player=capitalised(_who(player, names)),
                        first=seen[player],
                        second=number,
                    ),
                )
            else:
                seen[player] = number
    problems.raise_if_any()


def swap(
    draw: Draw,
    first: int,
    second: int,
    *,
    series: int | None = None,
    started: bool = False,
    names: Mapping[int, str] | None = None,
) -> Draw:
    """The draw with ``first`` and ``second`` in each other's places (seat and table;
    one of them may be sitting out). ``series`` is the series the organiser means
    (refused when it is not this draw's); refused once the series has started, for a
    player not in this series, and for a player swapped with himself."""
    problems = ProblemCollector()
    # A Pitch night's series are its rounds (the glossary's "round (of a Pitch night)").
    rounds = draw.game == "pitch"
    if series is not None and series != draw.series:
        problems.add(
            "series",
            _(
                "Players are swapped within one round: this is round {this}, not {other}.",
                this=draw.series,
                other=str(series),
            )
            if rounds
            else _(
                "Players are swapped within one series: this is series {this}, not {other}.",
                this=draw.series,
                other=str(series),
            ),
        )
    if started:
        problems.add(
            None,
            _(
                "Round {round} has started; players are swapped only before it starts.",
                round=draw.series,
            )
            if rounds
            else _(
                "Series {series} has started; players are swapped only before it starts.",
                series=draw.series,
            ),
        )
    placed = set(draw.players) | set(draw.sitting_out)
    for where, player in (("first", first), ("second", second)):
        if not _is_int(player) or player not in placed:
            who = capitalised(_who(player, names) if _is_int(player) else str(player))
            problems.add(
                where,
                _(
                    "{player} is not in round {round}; only its players can be swapped.",
                    player=who,
                    round=draw.series,
                )
                if rounds
                else _(
                    "{player} is not in series {series}; only its players can be swapped.",
                    player=who,
                    series=draw.series,
                ),
            )
    if first == second:
        problems.add("second", _("A swap takes two different players."))
    problems.raise_if_any()

    def moved(p: int) -> int:
        return second if p == first else first if p == second else p

    tables = tuple(replace(t, players=tuple(moved(p) for p in t.players)) for t in draw.tables)
    out = tuple(sorted(moved(p) for p in draw.sitting_out))
    step = Step(
        _(
            "Before the round started, {first} and {second} swapped places.",
            first=capitalised(_who(first, names)),
            second=_who(second, names),
        )
        if rounds
        else _(
            "Before the series started, {first} and {second} swapped places.",
            first=capitalised(_who(first, names)),
            second=_who(second, names),
        ),
        "evening-draw",
    )
    return replace(
        draw,
        tables=tables,
        sitting_out=out,
        swaps=(*draw.swaps, Swap(first, second)),
        explanation=(*draw.explanation, step),
    )
