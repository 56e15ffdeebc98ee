"""What every game's score sheet has in common: the state after replaying its deals.

A sheet stores each deal exactly as it was entered; its scores are never stored but
derived by replaying every deal in order through the game's rules. A correction to
deal 3 therefore re-scores deals 4 … n, and nothing can drift. Each game has a
``replay(...)`` function (``skat_sheet``, ``pitch_sheet``, ``manipulation_sheet``)
returning a :class:`SheetState`.

A sheet engine (:class:`RunningSheet`) keeps running counts as it goes, never the deals
before the last one: the totals and whatever the next deal needs (the number of deals,
the Seeger-Fabian tally and Bock deals owed of Skat, who won). It writes them as a plain,
versioned record (:meth:`RunningSheet.record`, JSON as it is: the counts after a deal
and after each one since) and can be rebuilt from one (:meth:`RunningSheet.from_record`),
then takes the next deal exactly as an engine that replayed every deal before it would.
A record is read like input: anything that is not one this code writes raises
:class:`UnreadableRecord`, and the caller replays the deals.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, Self

from .errors import ProblemCollector, RuleError, Step
from .text import _


@dataclass(frozen=True)
class DealResult:
    """One deal as scored on the sheet."""

    number: int  # 1, 2, 3 … in the order played
    dealer: int  # seat index
    scores: tuple[int, ...]  # what this deal changed, per seat (Pitch: the seat's team)
    totals: tuple[int, ...]  # running totals per seat after this deal
    summary: str  # one line for the list: "Ana: Grand Hand with 2, won, +96"
    # Worded when it is read (an :class:`Explanation`; a tuple of steps reads the same).
    explanation: Sequence[Step]
    details: Mapping[str, Any] = field(default_factory=dict)  # game-specific facts


@dataclass(frozen=True)
class NextDeal:
    """Who deals next and what the person keeping score should know about it."""

    number: int
    dealer: int
    forehand: int
    sitting_out: int | None = None  # the dealer at a 4- or 5-player Skat table
    # Every seat sitting out: the dealer at four, and at five the third to his left too.
    sitting_out_seats: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()  # "Bock: this deal counts double."
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class SheetState:
    """Everything the sheet page and the API show, derived from the deals."""

    players: tuple[str, ...]
    deals: tuple[DealResult, ...]
    totals: tuple[int, ...]  # per seat
    finished: bool
    winners: tuple[int, ...]  # seats; empty while the game goes on
    next_deal: NextDeal | None  # None once finished
    headline: str  # "Team B leads 41 to 34; 52 wins" / "Series: deal 12 of 36"
    details: Mapping[str, Any] = field(default_factory=dict)  # standings, team totals …


class GameSheet(Protocol):
    """What every game's sheet engine offers (``SkatSheet``, ``PitchSheet`` …)."""

    def add(self, deal: Any) -> DealResult: ...

    @property
    def state(self) -> SheetState: ...


class UnreadableRecord(ValueError):
    """A record that is not one this code writes: another game or format, a value of the
    wrong type, a count out of range or not fitting the table. Never shown to a player:
    the sheet replays its deals instead."""


class RunningSheet(ABC):
    """The part of a sheet engine every game shares: how many deals it has counted, the
    results of those it scored itself, and its running counts as a record.

    An engine starts from a new sheet or from a record of the deals before
    (:attr:`deals_before` of them); :attr:`deals_played` counts those and the ones it
    scored since, which ``state.deals`` lists. Each game says which counts it keeps
    (:meth:`_counts`) and how it takes them back (:meth:`_take_counts`), and calls
    :meth:`_scored` with every deal it adds.

    A record holds the counts after deal ``deals`` and, in order, after each deal since
    (``counts`` is a list): :meth:`record` gives them from any deal the engine knows the
    counts after, and :meth:`from_record` rebuilds the engine after the last of them,
    knowing the earlier ones too.
    """

    # Names the game in its records; a record of another game is not read.
    GAME: ClassVar[str]
    # The layout of the counts; a record of another layout is not read.
    RECORD_FORMAT: ClassVar[int] = 1
    # No sheet is this long, and no record holds the counts after more deals than this.
    MOST_DEALS: ClassVar[int] = 100_000
    MOST_COUNTS: ClassVar[int] = 1_000

    players: tuple[str, ...]
    _deals: list[DealResult]
    _deals_before: int
    _marks: list[dict[str, Any]]
    _marks_from: int

    def _start_running(self) -> None:
        """A new sheet's counts (each game's ``__init__`` sets them up, then calls this)."""
        self._deals = []
        self._deals_before = 0
        # The counts after each deal from deal ``_marks_from`` on, the latest last.
        self._marks = [self._counts()]
        self._marks_from = 0

    @property
    def deals_before(self) -> int:
        """How many deals came before the first one this engine scored itself."""
        return self._deals_before

    @property
    def deals_played(self) -> int:
        """How many deals the sheet has, those before this engine's first included."""
        return self._deals_before + len(self._deals)

    @property
    def counted_from(self) -> int:
        """The earliest deal (0: none yet) that :meth:`record` can give the counts after."""
        return self._marks_from

    def _scored(self, result: DealResult) -> None:
        """Count a deal just added, its running counts already changed."""
        self._deals.append(result)
        self._marks.append(self._counts())

    # -- records ---------------------------------------------------------------------

    def record(self, after: int | None = None, *, through: int | None = None) -> dict[str, Any]:
        """The running counts as a plain record (dicts, lists, numbers, strings: JSON as it
        is): after deal ``after`` and after each deal since, up to deal ``through`` (both
        from :attr:`counted_from` to :attr:`deals_played`; by default the last deal)."""
        last = self.deals_played
        after = last if after is None else after
        through = last if through is None else through
        if not self.counted_from <= after <= through <= last:
            raise ValueError(
                f"this engine knows the counts after deals {self.counted_from} to {last}, "
                f"not after {after} to {through}"
            )
        first = after - self.counted_from
        return {
            "game": self.GAME,
            "format": self.RECORD_FORMAT,
            "deals": after,
            "counts": copy.deepcopy(self._marks[first : first + through - after + 1]),
        }

    @classmethod
    def from_record(cls, record: object, **table: Any) -> Self:
        """The engine of the table (the keyword arguments of the game's sheet) after the
        deals ``record`` counts, ready to take the next one exactly as an engine that
        replayed them would. ``UnreadableRecord`` when it is not a record this code wrote
        for such a table; ``RuleError`` when the table itself is not one."""
        sheet = cls(**table)
        if not isinstance(record, Mapping) or set(record) != {"game", "format", "deals", "counts"}:
            raise UnreadableRecord("not a record of a sheet's running counts")
        if record["game"] != cls.GAME or not _is_whole(record["format"]):
            raise UnreadableRecord("a record of another game")
        if record["format"] != cls.RECORD_FORMAT:
            raise UnreadableRecord(f"a record of format {record['format']}")
        marks = record["counts"]
        if not isinstance(marks, list) or not 1 <= len(marks) <= cls.MOST_COUNTS:
            raise UnreadableRecord("counts: not a list of the counts after one deal or more")
        first = whole(record["deals"], 0, sheet._most_deals() - len(marks) + 1, "deals")
        taken = []
        for deals, counts in enumerate(marks, start=first):
            if not isinstance(counts, Mapping):
                raise UnreadableRecord(f"counts after deal {deals}: not an object")
            sheet._take_counts(counts, deals)
            taken.append(sheet._counts())
            if taken[-1] != counts:
                # What was taken must say back exactly what was read (no key left over).
                raise UnreadableRecord(f"counts after deal {deals}: not as this code writes them")
        # The engine stands after the last deal counted, and knows the counts before.
        sheet._deals_before = first + len(marks) - 1
        sheet._marks = taken
        sheet._marks_from = first
        return sheet

    @property
    @abstractmethod
    def finished(self) -> bool:
        """Whether the sheet takes no more deals (each game says when)."""

    def _most_deals(self) -> int:
        return self.MOST_DEALS

    @abstractmethod
    def _counts(self) -> dict[str, Any]:
        """The running counts now, as plain data."""

    @abstractmethod
    def _take_counts(self, counts: Mapping[str, Any], deals: int) -> None:
        """Take back counts :meth:`_counts` wrote after ``deals`` deals, checking every
        value as input (``UnreadableRecord``)."""


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def whole(value: object, least: int, most: int, where: str) -> int:
    """A whole number from ``least`` to ``most`` read from a record."""
    if not _is_whole(value) or not least <= value <= most:  # type: ignore[operator]
        raise UnreadableRecord(f"{where}: not a whole number from {least} to {most}")
    return int(value)  # type: ignore[call-overload]


def wholes(value: object, count: int, least: int, most: int, where: str) -> tuple[int, ...]:
    """``count`` whole numbers, each from ``least`` to ``most``, read from a record."""
    if not isinstance(value, list) or len(value) != count:
        raise UnreadableRecord(f"{where}: not a list of {count}")
    return tuple(whole(item, least, most, f"{where}.{i}") for i, item in enumerate(value))


def replay_deals(sheet: GameSheet, deals: Iterable[Any]) -> SheetState:
    """Add every deal in order; a deal that fails is reported under ``hands.<i>``."""
    for index, deal in enumerate(deals):
        try:
            sheet.add(deal)
        except RuleError as error:
            raise error.prefixed(f"hands.{index}") from None
    return sheet.state


def check_player_names(players: Sequence[str], problems: ProblemCollector) -> None:
    """Every seat has a name, and no two seats the same one (case and spaces aside):
    explanations and summaries speak of the players by name."""
    seen: dict[str, int] = {}
    for seat, name in enumerate(players):
        key = name.strip().casefold()
        if not key:
            problems.add(f"players.{seat}", _("Seat {seat} needs a name.", seat=seat + 1))
        elif key in seen:
            problems.add(
                f"players.{seat}",
                _(
                    # Translators: {name} is a player's name, {seat} the seat number (from 1).
                    "{name} already sits at seat {seat}; give every player a different name "
                    "so the sheet can tell them apart.",
                    name=name.strip(),
                    seat=seen[key] + 1,
                ),
            )
        else:
            seen[key] = seat
