"""The Skat score sheet: a series of deals kept on the classic list.

A :class:`SkatSheet` takes the deals one at a time, in the order they were played,
and scores each through the referee (``skat.score_game``) and the list-keeping rules
(``skat_list``): who deals, who sits out at a table of four, which deals are Bock
deals, how a Ramsch is scored and how the series ranks by Seeger-Fabian. Nothing is
stored but the deals themselves; :func:`replay` rebuilds the whole sheet from them.

A deal's problems are reported at the field names of the deal's JSON (``declarer``,
``bid``, ``ramsch.points.2`` …); :func:`replay` moves them under ``hands.<i>``.

``DealResult.details`` keys (``None`` where they do not apply):

- ``declarer``: the declarer's seat; ``None`` for a deal everyone passed.
- ``game``: the contract's name ("Grand Hand", "Null Ouvert"), or "Ramsch".
- ``game_type``: the declared game as in the deal's JSON (``clubs`` … ``grand``,
  ``null``).
- ``overbid``: whether the game was lost because its value fell short of the bid.
- ``won``: whether the declarer won.
- ``game_value``: the value the game was scored at (after an overbid is raised,
  before a loss is doubled and before Kontra, Re or Bock).
- ``score``: what the declarer's list entry changed by.
- ``bock``: whether this deal was a Bock deal (``True``/``False``, always given).
- ``bock_rounds_added``: how many Bock rounds this deal started (0 to 4).
- ``passed``: whether everyone passed (``True``/``False``, always given).
- ``sitting_out``: the dealer sitting out at a table of four, else ``None``.
- ``ramsch``: for a Ramsch, a mapping with ``points`` and ``tricks`` per seat,
  ``last_trick`` (seat), ``losers`` and ``jungfrau`` (seats) and ``durchmarsch``
  (the seat that took every trick, or ``None``).

``SheetState.details`` keys:

- ``seeger_fabian``: the :class:`~games.rules.skat_list.SeegerFabianResult` of the
  deals so far (its rows and explanation name the players).
- ``standings``: ``(place, seat)`` pairs, best first, places shared on a full tie.
- ``series_deals``: how many deals the series has.
- ``deals_left``: how many deals remain.
- ``bock_deals_queued``: how many Bock deals are still owed, the next one included.

``NextDeal.details`` keys: ``middlehand``, ``rearhand`` (seats), ``bock`` (bool) and
``bock_deals_queued`` (int).
"""

from __future__ import annotations

import difflib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from .errors import Problem, ProblemCollector, RuleError, Step
from .sheet import DealResult, NextDeal, SheetState, check_player_names, replay_deals
from .skat import WINNING_POINTS, GameResult, score_game
from .skat_list import (
    RAMSCH_TIES,
    SERIES_DEALS,
    BockEvent,
    BockTriggers,
    DealSeats,
    ListedDeal,
    RamschOptions,
    RamschResult,
    SeegerFabianResult,
    SeegerFabianTally,
    bock_deals_owed,
    bock_triggered,
    check_listed_deal,
    score_ramsch,
    seats_for_deal,
    seeger_fabian_of_tally,
)
from .words import joined, number, plural, signed

RULE_SECTIONS: dict[str, str] = {
    "skat-score-sheet": "Keeping the score sheet",
}

ALL_PASS_CHOICES = ("throw_in", "ramsch")
SHORTEST_SERIES = 1
LONGEST_SERIES = 200
TABLE_SIZES = tuple(SERIES_DEALS)

# The keyword arguments of ``score_game`` a deal may carry; ``bock`` is not among
# them, because the sheet itself knows which deals fall in a Bock round.
GAME_FIELDS = (
    "game",
    "bid",
    "hand",
    "ouvert",
    "announced",
    "matadors",
    "declarer_cards",
    "declarer_points",
    "declarer_tricks",
    "declarer_trick_cards",
    "skat",
    "outcome",
    "kontra",
    "re",
)
REQUIRED_GAME_FIELDS = ("game", "bid")


# ---------------------------------------------------------------------------
# Small wording pieces
# ---------------------------------------------------------------------------


def _shown(value: object) -> str:
    """A JSON value as the person typed it, for messages."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SkatSheetOptions:
    """The house rules a Skat sheet is kept by, chosen when the sheet is started.

    ``series_deals`` ``None`` means the usual series for the table: every player
    deals equally often, 36 deals at three players and 48 at four.
    """

    kontra_re: bool = False
    bock: BockTriggers = field(default_factory=BockTriggers)
    all_pass: Literal["throw_in", "ramsch"] = "throw_in"
    ramsch_tie: Literal["all_tied_lose", "last_trick_loses"] = "all_tied_lose"
    series_deals: int | None = None

    @classmethod
    def from_mapping(
        cls, data: Mapping[str, Any] | None, field: str = "options"
    ) -> SkatSheetOptions:
        """Read the options object of a new sheet; a missing option or ``null`` keeps its default."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RuleError(
                'Give the sheet\'s options as an object of names and values, like {"kontra_re": true}.',
                field,
            )
        problems = ProblemCollector()
        known = [f.name for f in fields(cls)]
        values: dict[str, Any] = {}
        for name, value in data.items():
            where = f"{field}.{name}"
            if name not in known:
                close = difflib.get_close_matches(str(name), known, n=1, cutoff=0.6)
                hint = f' Did you mean "{close[0]}"?' if close else ""
                problems.add(
                    where,
                    f'"{name}" is not an option of a Skat sheet; the options are '
                    f"{joined(known)}.{hint}",
                )
            elif value is not None:
                read = _OPTION_READERS[name](value, where, problems)
                if read is not None:
                    values[name] = read
        options = cls(**values)
        if not problems:
            options._check_together(field, problems)
        problems.raise_if_any()
        return options

    def _check_together(self, field: str, problems: ProblemCollector) -> None:
        # A Bock round for a game lost after Kontra cannot come about on a sheet
        # where nobody may say Kontra.
        if self.bock.lost_after_kontra and not self.kontra_re:
            problems.add(
                f"{field}.bock.lost_after_kontra",
                "A Bock round after a game lost against Kontra needs Kontra and Re on this "
                "sheet: switch on kontra_re, or leave this trigger off.",
            )
        # The tie rule only settles a Ramsch, which is never played on a throw-in sheet.
        if self.ramsch_tie != "all_tied_lose" and self.all_pass != "ramsch":
            problems.add(
                f"{field}.ramsch_tie",
                "A Ramsch tie rule only matters when a deal everyone passes is played as "
                'Ramsch: set all_pass to "ramsch", or leave the tie rule out.',
            )

    def deals_in_series(self, players: int) -> int:
        """How many deals the series has at a table of ``players``."""
        return self.series_deals if self.series_deals is not None else SERIES_DEALS[players]

    def as_dict(self) -> dict[str, Any]:
        return {
            "kontra_re": self.kontra_re,
            "bock": self.bock.as_dict(),
            "all_pass": self.all_pass,
            "ramsch_tie": self.ramsch_tie,
            "series_deals": self.series_deals,
        }


def _read_switch(value: object, where: str, problems: ProblemCollector) -> bool | None:
    if isinstance(value, bool):
        return value
    name = where.rsplit(".", 1)[-1]
    problems.add(where, f"{name} is switched on with true or off with false, not {_shown(value)}.")
    return None


def _read_bock(value: object, where: str, problems: ProblemCollector) -> BockTriggers | None:
    if not isinstance(value, Mapping):
        problems.add(
            where,
            "bock is an object of the events that start a Bock round, each true or false, "
            'like {"hundred_or_more": true}.',
        )
        return None
    try:
        return BockTriggers.from_mapping(value, field=where)
    except RuleError as error:
        problems.absorb(error)
        return None


def _read_all_pass(value: object, where: str, problems: ProblemCollector) -> str | None:
    if value in ALL_PASS_CHOICES:
        return str(value)
    problems.add(
        where,
        'all_pass is "throw_in" (a deal everyone passes is thrown in) or "ramsch" '
        f"(it is played as Ramsch); got {_shown(value)}.",
    )
    return None


def _read_ramsch_tie(value: object, where: str, problems: ProblemCollector) -> str | None:
    if value in RAMSCH_TIES:
        return str(value)
    problems.add(
        where,
        'ramsch_tie is "all_tied_lose" (every player tied for most card points loses) or '
        '"last_trick_loses" (of those tied, the one who took the last trick loses); '
        f"got {_shown(value)}.",
    )
    return None


def _read_series_deals(value: object, where: str, problems: ProblemCollector) -> int | None:
    whole = isinstance(value, int) and not isinstance(value, bool)
    if whole and SHORTEST_SERIES <= int(value) <= LONGEST_SERIES:
        return int(value)
    problems.add(
        where,
        f"series_deals is a whole number of deals from {SHORTEST_SERIES} to {LONGEST_SERIES} "
        "(a multiple of the number of players lets everyone deal equally often), or null "
        f"for the usual series of 36 deals at three players and 48 at four; got {_shown(value)}.",
    )
    return None


_OPTION_READERS = {
    "kontra_re": _read_switch,
    "bock": _read_bock,
    "all_pass": _read_all_pass,
    "ramsch_tie": _read_ramsch_tie,
    "series_deals": _read_series_deals,
}


# ---------------------------------------------------------------------------
# Deals
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RamschEntry:
    """A Ramsch as entered: card points and tricks per seat, and who took the last trick.

    The dealer sitting out at a table of four has 0 or ``None`` in both lists.
    """

    points: tuple[int | None, ...]
    tricks: tuple[int | None, ...]
    last_trick: int


@dataclass(frozen=True)
class SkatDeal:
    """One deal as entered on the sheet.

    A played deal has the ``declarer``'s seat and ``game``: the keyword arguments of
    ``score_game`` that were given (cards as :class:`Card`, matadors as
    :class:`Matadors`). A deal everyone passed has ``passed`` set and, on a sheet
    that plays Ramsch then, the ``ramsch`` entry.
    """

    declarer: int | None = None
    game: Mapping[str, Any] = field(default_factory=dict)
    passed: bool = False
    ramsch: RamschEntry | None = None


# ---------------------------------------------------------------------------
# The sheet
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scored:
    """What one deal did, before it is written on the sheet."""

    scores: tuple[int, ...]
    listed: ListedDeal
    event: BockEvent
    summary: str
    steps: tuple[Step, ...]
    details: Mapping[str, Any]


class SkatSheet:
    """A Skat list for one series: add the deals in order, read the state at any time."""

    def __init__(
        self,
        *,
        players: Sequence[str],
        first_dealer: int,
        options: SkatSheetOptions | None = None,
    ) -> None:
        options = options or SkatSheetOptions()
        problems = ProblemCollector()
        _check_players(players, problems)
        if len(players) in TABLE_SIZES and not 0 <= first_dealer < len(players):
            problems.add(
                "first_dealer",
                f"The first dealer is one of the {len(players)} seats (0 to {len(players) - 1}); "
                f"got {first_dealer}.",
            )
        # Options built directly, not read from JSON, get the same checks.
        try:
            SkatSheetOptions.from_mapping(options.as_dict())
        except RuleError as error:
            problems.absorb(error)
        problems.raise_if_any()
        self.players: tuple[str, ...] = tuple(players)
        self.first_dealer = first_dealer
        self.options = options
        self.series_deals = options.deals_in_series(len(players))
        self._deals: list[DealResult] = []
        # What the rest of the series needs of the deals so far, kept as it goes so
        # that neither reading nor adding nor pickling the sheet grows with it: the
        # Seeger-Fabian counts per seat, and the Bock deals still owed (the run of
        # Bock deals that starts with the next deal).
        self._tally = SeegerFabianTally.empty(len(players))
        self._bock_owed = 0

    # -- reading ------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return len(self._deals) >= self.series_deals

    @property
    def state(self) -> SheetState:
        """Totals, Seeger-Fabian standings, the next deal and the headline, from the deals so far."""
        standing = seeger_fabian_of_tally(self._tally, names=self.players)
        queued = self._bock_owed
        finished = self.finished
        first = tuple(seat for place, seat in standing.standings if place == 1)
        return SheetState(
            players=self.players,
            deals=tuple(self._deals),
            totals=self._totals(),
            finished=finished,
            winners=first if finished else (),
            next_deal=None if finished else self._next_deal(queued),
            headline=self._headline(standing, first),
            details={
                "seeger_fabian": standing,
                "standings": standing.standings,
                "series_deals": self.series_deals,
                "deals_left": self.series_deals - len(self._deals),
                "bock_deals_queued": queued,
            },
        )

    def _totals(self) -> tuple[int, ...]:
        if self._deals:
            return self._deals[-1].totals
        return (0,) * len(self.players)

    def _next_deal(self, queued: int) -> NextDeal:
        number = len(self._deals) + 1
        seats = self._seats(number)
        notes: list[str] = []
        if queued:
            notes.append("Bock: this deal counts double.")
            if queued == 1:
                notes.append("It is the last Bock deal queued.")
            else:
                notes.append(f"{queued} Bock deals are queued, this one included.")
        if number == self.series_deals:
            notes.append("This is the last deal of the series.")
        return NextDeal(
            number=number,
            dealer=seats.dealer,
            forehand=seats.forehand,
            sitting_out=seats.sitting_out,
            notes=tuple(notes),
            details={
                "middlehand": seats.middlehand,
                "rearhand": seats.rearhand,
                "bock": queued > 0,
                "bock_deals_queued": queued,
            },
        )

    def _headline(self, standing: SeegerFabianResult, first: tuple[int, ...]) -> str:
        played = len(self._deals)
        best = standing.rows[first[0]].total
        names = joined([self.players[seat] for seat in first])
        if self.finished:
            if len(first) == 1:
                leader = f"{names} wins (Seeger-Fabian {number(best)})"
            else:
                leader = f"{names} share first place (Seeger-Fabian {number(best)})"
            return f"Series over after {plural(played, 'deal')} · {leader}"
        start = f"Deal {played + 1} of {self.series_deals}"
        if not played:
            return f"{start} · no deal played yet"
        if len(first) == len(self.players):
            return f"{start} · everyone level (Seeger-Fabian {number(best)})"
        verb = "leads" if len(first) == 1 else "lead"
        return f"{start} · {names} {verb} (Seeger-Fabian {number(best)})"

    # -- writing ------------------------------------------------------------------
    def add(self, deal: SkatDeal) -> DealResult:
        """Score the next deal and write it on the sheet; on any problem nothing changes."""
        if self.finished:
            raise RuleError(
                f"The series is over: {plural(self.series_deals, 'deal')} "
                f"{'was' if self.series_deals == 1 else 'were'} to be played and "
                f"{'it has' if self.series_deals == 1 else 'all have'} been. "
                "Start a new sheet to play another series.",
            )
        number = len(self._deals) + 1
        seats = self._seats(number)
        bock = self._bock_owed > 0
        if deal.passed:
            scored = self._score_passed(deal, seats, bock)
        else:
            scored = self._score_played(deal, seats, bock)

        before = self._totals()
        totals = tuple(t + s for t, s in zip(before, scored.scores, strict=True))
        steps = [self._opening(number, seats)]
        if bock:
            steps.append(
                Step("This is a Bock deal: every score counts double.", "skat-bock-rounds")
            )
        steps.extend(scored.steps)
        count = len(self.players)
        owed = bock_deals_owed(players=count, owed=self._bock_owed, event=scored.event)
        if scored.event.triggers_hit:
            steps.append(
                Step(f"Bock deals now queued: {owed}.", "skat-bock-rounds"),
            )
        steps.extend(self._totals_steps(scored.scores, totals))
        result = DealResult(
            number=number,
            dealer=seats.dealer,
            scores=scored.scores,
            totals=totals,
            summary=scored.summary + (" (Bock)" if bock else ""),
            explanation=tuple(steps),
            details={
                **scored.details,
                "bock": bock,
                "bock_rounds_added": scored.event.triggers_hit,
                "sitting_out": seats.sitting_out,
            },
        )
        # The list entry is checked as Seeger-Fabian checks a whole series' entries.
        check_listed_deal(
            scored.listed, players=count, where=f"deals.{number - 1}", names=self.players
        )
        self._tally = self._tally.plus(scored.listed)
        self._bock_owed = owed
        self._deals.append(result)
        return result

    def _seats(self, number: int) -> DealSeats:
        return seats_for_deal(
            players=len(self.players),
            first_dealer=self.first_dealer,
            deal_number=number,
            names=self.players,
        )

    def _opening(self, number: int, seats: DealSeats) -> Step:
        dealer = self.players[seats.dealer]
        forehand = self.players[seats.forehand]
        if seats.sitting_out is None:
            text = f"Deal {number}, dealt by {dealer}; {forehand} is forehand."
        else:
            text = f"Deal {number}, dealt by {dealer}, who sits it out; {forehand} is forehand."
        return Step(text, "skat-seats")

    def _totals_steps(self, scores: Sequence[int], totals: Sequence[int]) -> list[Step]:
        moved = [
            Step(
                f"{self.players[seat]}'s list: {signed(score)}, now {number(totals[seat])}.",
                "skat-score-sheet",
            )
            for seat, score in enumerate(scores)
            if score
        ]
        return moved or [Step("Nobody's list changes.", "skat-score-sheet")]

    # -- a played game ------------------------------------------------------------
    def _score_played(self, deal: SkatDeal, seats: DealSeats, bock: bool) -> _Scored:
        problems = ProblemCollector()
        declarer = self._check_declarer(deal.declarer, seats, problems)
        self._check_game_fields(deal.game, problems)
        if deal.ramsch is not None:
            problems.add(
                "ramsch",
                "A Ramsch is only entered for a deal everyone passed; this deal has a "
                "declarer, so leave ramsch out.",
            )
        result: GameResult | None = None
        if all(name in deal.game for name in REQUIRED_GAME_FIELDS):
            # Fields that are not the referee's are reported above; the referee judges the rest.
            known = {name: value for name, value in deal.game.items() if name in GAME_FIELDS}
            try:
                result = score_game(**known, bock=bock)
            except RuleError as error:
                problems.absorb(error)
        problems.raise_if_any()
        assert result is not None
        assert declarer is not None
        game = deal.game
        triggers = bock_triggered(
            triggers=self.options.bock,
            game=game["game"],
            hand=bool(game.get("hand", False)),
            won=result.won,
            declarer_points=result.declarer_points,
            kontra=bool(game.get("kontra", False)),
            game_value=result.game_value,
        )
        scores = tuple(result.score if seat == declarer else 0 for seat in range(len(self.players)))
        name = self.players[declarer]
        defenders = [
            self.players[seat]
            for seat in (seats.forehand, seats.middlehand, seats.rearhand)
            if seat != declarer
        ]
        steps = [
            Step(
                f"{name} played {result.contract} against {joined(defenders)}.",
                "skat-game-types",
            ),
            *result.explanation,
            *triggers,
        ]
        return _Scored(
            scores=scores,
            listed=ListedDeal(scores, declarer, result.won, seats.sitting_out),
            event=BockEvent(len(triggers)),
            summary=f"{name}: {_game_summary(result, game)}",
            steps=tuple(steps),
            details={
                "declarer": declarer,
                "game": result.contract,
                "game_type": game["game"],
                "overbid": result.overbid,
                "won": result.won,
                "game_value": result.game_value,
                "score": result.score,
                "passed": False,
                "ramsch": None,
            },
        )

    def _check_declarer(
        self, declarer: int | None, seats: DealSeats, problems: ProblemCollector
    ) -> int | None:
        count = len(self.players)
        if declarer is None:
            problems.add(
                "declarer",
                f"Say which seat played the game (0 to {count - 1}), or enter the deal as "
                "passed if everyone passed.",
            )
            return None
        if not 0 <= declarer < count:
            problems.add(
                "declarer",
                f"The declarer is one of the seats 0 to {count - 1} "
                f"({_seat_list(self.players)}); got {declarer}.",
            )
            return None
        if declarer == seats.sitting_out:
            playing = [self.players[s] for s in (seats.forehand, seats.middlehand, seats.rearhand)]
            problems.add(
                "declarer",
                f"{self.players[declarer]} dealt this deal and sits it out at a table of four, "
                f"so cannot be declarer; the players are {joined(playing)}.",
            )
            return None
        return declarer

    def _check_game_fields(self, game: Mapping[str, Any], problems: ProblemCollector) -> None:
        for name in game:
            if name == "bock":
                problems.add(
                    "bock",
                    "The sheet itself knows which deals are Bock deals; leave bock out.",
                )
            elif name not in GAME_FIELDS:
                problems.add(name, f'"{name}" is not part of a Skat game on the sheet.')
        for name in REQUIRED_GAME_FIELDS:
            if name not in game:
                what = "which game was played" if name == "game" else "the winning bid"
                problems.add(name, f"Say {what}.")
        if not self.options.kontra_re:
            for name, word in (("kontra", "Kontra"), ("re", "Re")):
                if game.get(name):
                    problems.add(
                        name,
                        f"This sheet is kept without Kontra and Re, so nobody can say {word}; "
                        f"leave {name} out.",
                    )

    # -- everyone passed ----------------------------------------------------------
    def _score_passed(self, deal: SkatDeal, seats: DealSeats, bock: bool) -> _Scored:
        problems = ProblemCollector()
        if deal.declarer is not None:
            problems.add(
                "declarer",
                "Everyone passed, so nobody is declarer; leave declarer out, or enter the "
                "game that was played instead of passed.",
            )
        for name in deal.game:
            problems.add(name, f"Everyone passed, so no game was played; leave {name} out.")
        if self.options.all_pass == "ramsch":
            return self._score_ramsch(deal.ramsch, seats, bock, problems)
        if deal.ramsch is not None:
            problems.add(
                "ramsch",
                "This sheet throws in a deal everyone passed; there is no Ramsch to enter, "
                "so leave ramsch out.",
            )
        problems.raise_if_any()
        steps = [Step("Everyone passed: the deal is thrown in and scores nothing.", "skat-bidding")]
        if bock:
            steps.append(
                Step(
                    "A thrown-in deal still uses up its place in the Bock round.",
                    "skat-bock-rounds",
                )
            )
        scores = (0,) * len(self.players)
        return _Scored(
            scores=scores,
            listed=ListedDeal(scores, sitting_out=seats.sitting_out),
            event=BockEvent(0, thrown_in=True),
            summary="Thrown in",
            steps=tuple(steps),
            details=_passed_details(game=None, ramsch=None),
        )

    def _score_ramsch(
        self,
        entry: RamschEntry | None,
        seats: DealSeats,
        bock: bool,
        problems: ProblemCollector,
    ) -> _Scored:
        if entry is None:
            problems.add(
                "ramsch",
                "This sheet plays Ramsch when everyone passes: give each seat's card points "
                "and tricks, and the seat that took the last trick.",
            )
        else:
            self._check_ramsch_entry(entry, seats, problems)
        problems.raise_if_any()
        assert entry is not None
        active = [seat for seat in range(len(self.players)) if seat != seats.sitting_out]
        named = _RamschNames(self.players, active)
        try:
            result = score_ramsch(
                points=[int(entry.points[seat] or 0) for seat in active],
                tricks=[int(entry.tricks[seat] or 0) for seat in active],
                last_trick=active.index(entry.last_trick),
                options=RamschOptions(tie=self.options.ramsch_tie),
                bock=bock,
            )
        except RuleError as error:
            raise RuleError(named.problem(p) for p in error.problems) from None
        scores = [0] * len(self.players)
        for player, score in enumerate(result.scores):
            scores[active[player]] = score
        as_seats = tuple(scores)
        steps = [
            Step("Everyone passed, so the deal is played as Ramsch.", "skat-ramsch"),
            *(Step(named.text(step.text), step.rule) for step in result.explanation),
        ]
        return _Scored(
            scores=as_seats,
            listed=ListedDeal(as_seats, sitting_out=seats.sitting_out),
            event=BockEvent(0),
            summary=_ramsch_summary(result, named),
            steps=tuple(steps),
            details=_passed_details(
                game="Ramsch",
                ramsch={
                    "points": tuple(int(p or 0) for p in entry.points),
                    "tricks": tuple(int(t or 0) for t in entry.tricks),
                    "last_trick": entry.last_trick,
                    "losers": tuple(active[p] for p in result.losers),
                    "jungfrau": tuple(active[p] for p in result.jungfrau),
                    "durchmarsch": None
                    if result.durchmarsch is None
                    else active[result.durchmarsch],
                },
            ),
        )

    def _check_ramsch_entry(
        self, entry: RamschEntry, seats: DealSeats, problems: ProblemCollector
    ) -> None:
        count = len(self.players)
        out = seats.sitting_out
        for name, values, unit in (
            ("points", entry.points, "card points"),
            ("tricks", entry.tricks, "tricks"),
        ):
            if len(values) != count:
                sitter = ", the dealer's 0 included" if out is not None else ""
                problems.add(
                    f"ramsch.{name}",
                    f"Give the {unit} of every seat ({count}{sitter}); got {len(values)}.",
                )
                continue
            for seat, value in enumerate(values):
                who = self.players[seat]
                if seat == out and value not in (0, None):
                    problems.add(
                        f"ramsch.{name}.{seat}",
                        f"{who} dealt and sat this deal out, so took no {unit}; give 0 or "
                        f"leave it empty.",
                    )
                elif seat != out and value is None:
                    problems.add(f"ramsch.{name}.{seat}", f"Give {who}'s {unit} in the Ramsch.")
        last = entry.last_trick
        if not 0 <= last < count:
            problems.add(
                "ramsch.last_trick",
                f"The last trick was taken by one of the seats 0 to {count - 1} "
                f"({_seat_list(self.players)}); got {last}.",
            )
        elif last == out:
            problems.add(
                "ramsch.last_trick",
                f"{self.players[last]} dealt and sat this deal out, so did not take the last trick.",
            )


def _check_players(players: Sequence[str], problems: ProblemCollector) -> None:
    if len(players) not in TABLE_SIZES:
        problems.add(
            "players",
            "A Skat sheet is kept for 3 or 4 players (at four the dealer sits out each "
            f"deal); got {len(players)}.",
        )
    check_player_names(players, problems)


def _seat_list(players: Sequence[str]) -> str:
    return ", ".join(f"{seat} {name}" for seat, name in enumerate(players))


def _passed_details(*, game: str | None, ramsch: Mapping[str, Any] | None) -> dict[str, Any]:
    return {
        "declarer": None,
        "game": game,
        "game_type": None,
        "overbid": None,
        "won": None,
        "game_value": None,
        "score": None,
        "passed": True,
        "ramsch": ramsch,
    }


def _game_summary(result: GameResult, game: Mapping[str, Any]) -> str:
    """ "Grand Hand with 2, won schneider, +120" or "Clubs with 1, lost (overbid), −108 (Kontra)".

    Schneider and schwarz are named whoever they fell on, as the table says them: "won
    schneider" (the opponents), "lost schwarz" (the declarer took no trick).
    """
    contract = result.contract
    if result.matadors is not None:
        name, comma, rest = contract.partition(", ")
        contract = f"{name} {result.matadors.label}{comma}{rest}"
    said = [word for key, word in (("kontra", "Kontra"), ("re", "Re")) if game.get(key)]
    extra = f" ({', '.join(said)})" if said else ""
    return f"{contract}, {_verdict(result, game)}, {signed(result.score)}{extra}"


def _verdict(result: GameResult, game: Mapping[str, Any]) -> str:
    level = " schwarz" if result.schwarz else " schneider" if result.schneider else ""
    if result.won:
        return f"won{level}"
    if not _play_won(result, game):
        # The declarer lost the play: a schneider or schwarz fell on the declarer.
        return f"lost{level} (overbid)" if result.overbid else f"lost{level}"
    if result.overbid:
        return "lost (overbid)"
    # The play was won but the game lost: the announcement was not reached (an open
    # game counts as schwarz announced).
    announced = "schwarz" if game.get("ouvert") else game.get("announced")
    return f"lost (not {announced})"


def _play_won(result: GameResult, game: Mapping[str, Any]) -> bool:
    """Did the declarer win the play itself, whatever the bid and the announcement?"""
    if result.matadors is None:
        # Null: the play is the game (no trick taken), with no bid or level to miss.
        return result.won
    if result.declarer_points is not None:
        return result.declarer_points >= WINNING_POINTS
    return str(game.get("outcome", "")).startswith("won")


class _RamschNames:
    """Puts the players' names where the Ramsch referee says "player 1/2/3".

    The referee numbers the three active players; on the sheet they are people with
    names, and at a table of four their seats skip the dealer.
    """

    _PLAYER = re.compile(r"\b[Pp]layer ([123])\b")

    def __init__(self, players: Sequence[str], active: Sequence[int]) -> None:
        self.players = players
        self.active = active

    def name(self, player: int) -> str:
        return self.players[self.active[player]]

    def text(self, text: str) -> str:
        return self._PLAYER.sub(lambda m: self.name(int(m.group(1)) - 1), text)

    def problem(self, problem: Problem) -> Problem:
        return Problem(self._field(problem.field), self.text(problem.message))

    def _field(self, where: str | None) -> str:
        # The referee's fields are points.<i>, tricks.<i>, points, tricks, last_trick.
        head, dot, player = (where or "").partition(".")
        if dot and player.isdigit():
            return f"ramsch.{head}.{self.active[int(player)]}"
        return f"ramsch.{where}" if where else "ramsch"


def _ramsch_summary(result: RamschResult, named: _RamschNames) -> str:
    if result.durchmarsch is not None:
        gain = result.scores[result.durchmarsch]
        return f"Ramsch: Durchmarsch by {named.name(result.durchmarsch)}, {signed(gain)}"
    losers = ", ".join(
        f"{named.name(player)} {signed(result.scores[player])}" for player in result.losers
    )
    jungfrau = " (Jungfrau)" if result.jungfrau else ""
    return f"Ramsch: {losers}{jungfrau}"


def replay(
    *,
    players: Sequence[str],
    first_dealer: int,
    options: SkatSheetOptions | None = None,
    deals: Sequence[SkatDeal],
) -> SheetState:
    """The sheet's state after every deal, in order; a deal's problems come under ``hands.<i>``."""
    return replay_deals(
        SkatSheet(players=players, first_dealer=first_dealer, options=options), deals
    )
