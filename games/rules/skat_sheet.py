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
  ``null``), or ``by_value`` for a game entered by its value (``SkatDeal.value``).
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
- ``list_columns``: for a game played by its contract, what the printed Spielliste
  writes in its game columns (``skat_spielliste.list_columns``): ``base_value``,
  ``matadors`` (``{"with": 2}``, ``None`` for Null) and ``levels`` (codes of the
  Gewinnstufen counted); absent for a game entered by value, Ramsch and passed deals.

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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from .errors import Explanation, Problem, ProblemCollector, RuleError, Step
from .sheet import (
    DealResult,
    NextDeal,
    RunningSheet,
    SheetState,
    UnreadableRecord,
    check_player_names,
    replay_deals,
    whole,
    wholes,
)
from .skat import BY_VALUE_GAME, WINNING_POINTS, GameResult, contract_name, score_game
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
from .skat_spielliste import list_columns
from .skat_value import ValueResult, read_value
from .text import _, join, ngettext, pgettext
from .words import joined, number, signed

# A game entered by its value: its ``game_type`` in a deal's details, and its name
# where the contract would stand (statistics count such deals as "by value").
BY_VALUE = "by_value"

RULE_SECTIONS: dict[str, str] = {
    "skat-score-sheet": _("Keeping the score sheet"),
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
    deals equally often, 36 deals at three players, 48 at four and 60 at five.
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
                _(
                    "Give the sheet's options as an object of names and values, like "
                    '{"kontra_re": true}.'
                ),
                field,
            )
        problems = ProblemCollector()
        known = [f.name for f in fields(cls)]
        values: dict[str, Any] = {}
        for name, value in data.items():
            where = f"{field}.{name}"
            if name not in known:
                close = difflib.get_close_matches(str(name), known, n=1, cutoff=0.6)
                if close:
                    text = _(
                        # Translators: {name} is what was sent; {options} the option names and
                        # {suggestion} the closest one (codes, keep them as they are).
                        '"{name}" is not an option of a Skat sheet; the options are {options}. '
                        'Did you mean "{suggestion}"?',
                        name=name,
                        options=joined(known),
                        suggestion=close[0],
                    )
                else:
                    text = _(
                        # Translators: {name} is what was sent; {options} the option names (codes).
                        '"{name}" is not an option of a Skat sheet; the options are {options}.',
                        name=name,
                        options=joined(known),
                    )
                problems.add(where, text)
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
                _(
                    "A Bock round after a game lost against Kontra needs Kontra and Re on this "
                    "sheet: switch on kontra_re, or leave this trigger off."
                ),
            )
        # The tie rule only settles a Ramsch, which is never played on a throw-in sheet.
        if self.ramsch_tie != "all_tied_lose" and self.all_pass != "ramsch":
            problems.add(
                f"{field}.ramsch_tie",
                _(
                    "A Ramsch tie rule only matters when a deal everyone passes is played as "
                    'Ramsch: set all_pass to "ramsch", or leave the tie rule out.'
                ),
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
    problems.add(
        where,
        _(
            # Translators: {option} is an option's name and {value} what was sent (codes);
            # true and false are JSON values, keep them.
            "{option} is switched on with true or off with false, not {value}.",
            option=name,
            value=_shown(value),
        ),
    )
    return None


def _read_bock(value: object, where: str, problems: ProblemCollector) -> BockTriggers | None:
    if not isinstance(value, Mapping):
        problems.add(
            where,
            _(
                "bock is an object of the events that start a Bock round, each true or false, "
                'like {"hundred_or_more": true}.'
            ),
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
        _(
            # Translators: the quoted values are codes, keep them; {value} is what was sent.
            'all_pass is "throw_in" (a deal everyone passes is thrown in) or "ramsch" '
            "(it is played as Ramsch); got {value}.",
            value=_shown(value),
        ),
    )
    return None


def _read_ramsch_tie(value: object, where: str, problems: ProblemCollector) -> str | None:
    if value in RAMSCH_TIES:
        return str(value)
    problems.add(
        where,
        _(
            # Translators: the quoted values are codes, keep them; {value} is what was sent.
            'ramsch_tie is "all_tied_lose" (every player tied for most card points loses) or '
            '"last_trick_loses" (of those tied, the one who took the last trick loses); '
            "got {value}.",
            value=_shown(value),
        ),
    )
    return None


def _read_series_deals(value: object, where: str, problems: ProblemCollector) -> int | None:
    whole = isinstance(value, int) and not isinstance(value, bool)
    if whole and SHORTEST_SERIES <= int(value) <= LONGEST_SERIES:
        return int(value)
    problems.add(
        where,
        _(
            # Translators: {value} is what was sent; null is a JSON value, keep it.
            "series_deals is a whole number of deals from {shortest} to {longest} "
            "(a multiple of the number of players lets everyone deal equally often), or null "
            "for the usual series of 36 deals at three players, 48 at four and 60 at five; "
            "got {value}.",
            shortest=SHORTEST_SERIES,
            longest=LONGEST_SERIES,
            value=_shown(value),
        ),
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
    """A Ramsch as entered: card points and tricks per seat, and who took the last trick
    (when a tie needs it).

    A player sitting out (the dealer at a table of four; at five also the third player
    to the dealer's left) has 0 or ``None`` in both lists.
    """

    points: tuple[int | None, ...]
    tricks: tuple[int | None, ...]
    # Needed only when the card points tie for the most and the sheet's tie rule is
    # "the one who took the last trick loses"; ``None`` when not said.
    last_trick: int | None = None


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
    # A game entered by its value as the list writes it (48, −96): ``game`` then holds
    # at most the bid (see ``games.rules.skat_value``).
    value: int | None = None


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
    steps: Explanation  # worded when the deal's explanation is read
    details: Mapping[str, Any]


class SkatSheet(RunningSheet):
    """A Skat list for one series: add the deals in order, read the state at any time.

    Its record (:meth:`record`) holds the Seeger-Fabian counts per seat (the list points
    among them) and the Bock deals still owed.
    """

    GAME = "skat"

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
                _(
                    "The first dealer is one of the {players} seats (0 to {last}); got {seat}.",
                    players=len(players),
                    last=len(players) - 1,
                    seat=first_dealer,
                ),
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
        # What the rest of the series needs of the deals so far, kept as it goes so
        # that neither reading nor adding nor keeping the sheet grows with it: the
        # Seeger-Fabian counts per seat, and the Bock deals still owed (the run of
        # Bock deals that starts with the next deal).
        self._tally = SeegerFabianTally.empty(len(players))
        self._bock_owed = 0
        self._start_running()

    # -- reading ------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.deals_played >= self.series_deals

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
                "deals_left": self.series_deals - self.deals_played,
                "bock_deals_queued": queued,
            },
        )

    def _totals(self) -> tuple[int, ...]:
        # Each deal's scores are its list entry's: the tally's list points are the totals.
        return self._tally.list_points

    def _next_deal(self, queued: int) -> NextDeal:
        number = self.deals_played + 1
        seats = self._seats(number)
        notes: list[str] = []
        if queued:
            notes.append(_("Bock: this deal counts double."))
            if queued == 1:
                notes.append(_("It is the last Bock deal queued."))
            else:
                notes.append(
                    ngettext(
                        "{n} Bock deal is queued, this one included.",
                        "{n} Bock deals are queued, this one included.",
                        queued,
                        n=queued,
                    )
                )
        if number == self.series_deals:
            notes.append(_("This is the last deal of the series."))
        return NextDeal(
            number=number,
            dealer=seats.dealer,
            forehand=seats.forehand,
            sitting_out=seats.sitting_out,
            sitting_out_seats=seats.sitting_out_seats,
            notes=tuple(notes),
            details={
                "middlehand": seats.middlehand,
                "rearhand": seats.rearhand,
                "bock": queued > 0,
                "bock_deals_queued": queued,
            },
        )

    def _headline(self, standing: SeegerFabianResult, first: tuple[int, ...]) -> str:
        played = self.deals_played
        best = standing.rows[first[0]].total
        names = joined([self.players[seat] for seat in first])
        if self.finished:
            return ngettext(
                # Translators: {deals} is e.g. "36 deals"; {names} the winner, or e.g. "Ana and
                # Ben" who share first place; {total} their Seeger-Fabian total.
                "Series over after {deals} · {names} wins (Seeger-Fabian {total})",
                "Series over after {deals} · {names} share first place (Seeger-Fabian {total})",
                len(first),
                deals=ngettext("{n} deal", "{n} deals", played, n=played),
                names=names,
                total=number(best),
            )
        if not played:
            return _(
                # Translators: {number} is the next deal's number, {deals} how many the series has.
                "Deal {number} of {deals} · no deal played yet",
                number=played + 1,
                deals=self.series_deals,
            )
        if len(first) == len(self.players):
            return _(
                # Translators: {number} is the next deal's number, {deals} how many the series
                # has; {total} everyone's Seeger-Fabian total.
                "Deal {number} of {deals} · everyone level (Seeger-Fabian {total})",
                number=played + 1,
                deals=self.series_deals,
                total=number(best),
            )
        return ngettext(
            # Translators: {number} is the next deal's number, {deals} how many the series has;
            # {names} who leads (e.g. "Ana and Ben"), {total} their Seeger-Fabian total.
            "Deal {number} of {deals} · {names} leads (Seeger-Fabian {total})",
            "Deal {number} of {deals} · {names} lead (Seeger-Fabian {total})",
            len(first),
            number=played + 1,
            deals=self.series_deals,
            names=names,
            total=number(best),
        )

    # -- writing ------------------------------------------------------------------
    def add(self, deal: SkatDeal) -> DealResult:
        """Score the next deal and write it on the sheet; on any problem nothing changes."""
        if self.finished:
            raise RuleError(
                ngettext(
                    "The series is over: {n} deal was to be played and it has been. "
                    "Start a new sheet to play another series.",
                    "The series is over: {n} deals were to be played and all have been. "
                    "Start a new sheet to play another series.",
                    self.series_deals,
                    n=self.series_deals,
                ),
            )
        number = self.deals_played + 1
        seats = self._seats(number)
        bock = self._bock_owed > 0
        if deal.passed:
            scored = self._score_passed(deal, seats, bock)
        else:
            scored = self._score_played(deal, seats, bock)

        before = self._totals()
        totals = tuple(t + s for t, s in zip(before, scored.scores, strict=True))
        count = len(self.players)
        owed = bock_deals_owed(players=count, owed=self._bock_owed, event=scored.event)
        explanation = Explanation(
            _deal_steps,
            self.players,
            number,
            seats,
            bock,
            scored.steps,
            owed if scored.event.triggers_hit else None,
            scored.scores,
            totals,
        )
        result = DealResult(
            number=number,
            dealer=seats.dealer,
            scores=scored.scores,
            totals=totals,
            # Translators: {summary} is a deal's one-line summary, e.g. "Ana: Grand Hand
            # with 2, won, +96".
            summary=_("{summary} (Bock)", summary=scored.summary) if bock else scored.summary,
            explanation=explanation,
            details={
                **scored.details,
                "bock": bock,
                "bock_rounds_added": scored.event.triggers_hit,
                "sitting_out": seats.sitting_out,
                "sitting_out_seats": seats.sitting_out_seats,
            },
        )
        # The list entry is checked as Seeger-Fabian checks a whole series' entries.
        check_listed_deal(
            scored.listed, players=count, where=f"deals.{number - 1}", names=self.players
        )
        self._tally = self._tally.plus(scored.listed)
        self._bock_owed = owed
        self._scored(result)
        return result

    # -- the record -----------------------------------------------------------------
    def _counts(self) -> dict[str, Any]:
        tally = self._tally
        return {
            "list_points": list(tally.list_points),
            "games_won": list(tally.games_won),
            "games_lost": list(tally.games_lost),
            "lost_by_others": list(tally.lost_by_others),
            "bock_owed": self._bock_owed,
        }

    def _take_counts(self, counts: Mapping[str, Any], deals: int) -> None:
        seats = len(self.players)
        # No deal moves a list by more than a Grand Ouvert lost schwarz with Re in Bock.
        most = 10_000 * max(deals, 1)
        points = wholes(counts.get("list_points"), seats, -most, most, "list_points")
        won = wholes(counts.get("games_won"), seats, 0, deals, "games_won")
        lost = wholes(counts.get("games_lost"), seats, 0, deals, "games_lost")
        by_others = wholes(counts.get("lost_by_others"), seats, 0, deals, "lost_by_others")
        if sum(won) + sum(lost) > deals:
            raise UnreadableRecord("more games won and lost than deals")
        if by_others != tuple(sum(lost) - own for own in lost):
            raise UnreadableRecord("lost_by_others: not the games the others lost")
        # Each deal starts at most one Bock round per trigger, one deal per seat each.
        owed = whole(counts.get("bock_owed"), 0, 4 * seats * deals, "bock_owed")
        self._tally = SeegerFabianTally(points, won, lost, by_others)
        self._bock_owed = owed

    def _most_deals(self) -> int:
        return self.series_deals

    def _seats(self, number: int) -> DealSeats:
        return seats_for_deal(
            players=len(self.players),
            first_dealer=self.first_dealer,
            deal_number=number,
            names=self.players,
        )

    # -- a played game ------------------------------------------------------------
    def _score_played(self, deal: SkatDeal, seats: DealSeats, bock: bool) -> _Scored:
        if deal.value is not None:
            return self._score_by_value(deal, seats, bock)
        problems = ProblemCollector()
        declarer = self._check_declarer(deal.declarer, seats, problems)
        self._check_game_fields(deal.game, problems)
        if deal.ramsch is not None:
            problems.add(
                "ramsch",
                _(
                    "A Ramsch is only entered for a deal everyone passed; this deal has a "
                    "declarer, so leave ramsch out."
                ),
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
        return _Scored(
            scores=scores,
            listed=ListedDeal(
                scores, declarer, result.won, seats.sitting_out, seats.sitting_out_seats
            ),
            event=BockEvent(len(triggers)),
            # Translators: {declarer} is a name, {game} e.g. "Grand Hand with 2, won, +96".
            summary=_("{declarer}: {game}", declarer=name, game=_game_summary(result, game)),
            steps=Explanation(_played_steps, self.players, declarer, seats, result, triggers),
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
                "list_columns": list_columns(result),
            },
        )

    def _score_by_value(self, deal: SkatDeal, seats: DealSeats, bock: bool) -> _Scored:
        """A game entered by its value as the list writes it: scored as that value (won
        when plus, lost when minus), which must be one some game can have on this sheet."""
        problems = ProblemCollector()
        declarer = self._check_declarer(deal.declarer, seats, problems)
        for name in deal.game:
            if name != "bid":
                problems.add(
                    name,
                    _(
                        # Translators: {name} is a field name that was sent.
                        "A game entered by its value needs only the declarer, the value and "
                        "perhaps the bid; leave {name} out.",
                        name=name,
                    ),
                )
        if deal.ramsch is not None:
            problems.add(
                "ramsch",
                _(
                    "A Ramsch is only entered for a deal everyone passed; this deal has a "
                    "declarer, so leave ramsch out."
                ),
            )
        result: ValueResult | None = None
        try:
            result = read_value(
                value=deal.value if deal.value is not None else 0,
                bid=deal.game.get("bid"),
                bock=bock,
                kontra_re=self.options.kontra_re,
            )
        except RuleError as error:
            problems.absorb(error)
        problems.raise_if_any()
        assert result is not None
        assert declarer is not None
        triggers = self._value_triggers(result)
        scores = tuple(result.score if seat == declarer else 0 for seat in range(len(self.players)))
        name = self.players[declarer]
        steps = [
            Step(
                _(
                    # Translators: {declarer} is a name; {value} the value as written, e.g. −96.
                    "{declarer}'s game was entered by its value as the list writes it, {value}.",
                    declarer=name,
                    value=signed(result.value),
                ),
                "skat-list-score",
            ),
            *result.explanation,
            *triggers,
        ]
        verdict = _WON[None] if result.won else _LOST[None]
        return _Scored(
            scores=scores,
            listed=ListedDeal(
                scores, declarer, result.won, seats.sitting_out, seats.sitting_out_seats
            ),
            event=BockEvent(len(triggers)),
            summary=_(
                # Translators: {declarer} is a name; {games} the games the value can be, e.g.
                # "Grand with or against 1 or Clubs ×4"; {verdict} "won" or "lost"; {score} +48.
                "{declarer}: by value ({games}), {verdict}, {score}",
                declarer=name,
                games=result.summary,
                verdict=verdict,
                score=signed(result.score),
            ),
            steps=Explanation.of(steps),
            details={
                "declarer": declarer,
                "game": BY_VALUE_GAME,
                "game_type": BY_VALUE,
                "overbid": False,
                "won": result.won,
                "game_value": result.game_value,
                "score": result.score,
                "passed": False,
                "ramsch": None,
            },
        )

    def _value_triggers(self, result: ValueResult) -> tuple[Step, ...]:
        """The Bock rounds a game entered by value starts: only those every reading of
        the value agrees on (a game worth 100 or more; a won Grand Hand). 60:60 and a
        loss after Kontra cannot be told from a value, so they start none."""
        triggers = self.options.bock
        steps: list[Step] = []
        if triggers.hundred_or_more and min(result.game_values) >= 100:
            steps.append(
                Step(
                    _("Every game this value can be is worth 100 or more: a Bock round follows."),
                    "skat-bock-rounds",
                )
            )
        grand_hand = all(c.game == "grand" and c.hand for r in result.readings for c in r.contracts)
        if triggers.grand_hand_won and result.won and grand_hand:
            steps.append(
                Step(
                    _("Every game this value can be is a won Grand Hand: a Bock round follows."),
                    "skat-bock-rounds",
                )
            )
        return tuple(steps)

    def _check_declarer(
        self, declarer: int | None, seats: DealSeats, problems: ProblemCollector
    ) -> int | None:
        count = len(self.players)
        if declarer is None:
            problems.add(
                "declarer",
                _(
                    "Say which seat played the game (0 to {last}), or enter the deal as "
                    "passed if everyone passed.",
                    last=count - 1,
                ),
            )
            return None
        if not 0 <= declarer < count:
            problems.add(
                "declarer",
                _(
                    # Translators: {seats} lists the seat numbers and names, "0 Ana, 1 Ben, 2 Cem".
                    "The declarer is one of the seats 0 to {last} ({seats}); got {seat}.",
                    last=count - 1,
                    seats=_seat_list(self.players),
                    seat=declarer,
                ),
            )
            return None
        if declarer in seats.sitting_out_seats:
            playing = [self.players[s] for s in (seats.forehand, seats.middlehand, seats.rearhand)]
            if len(seats.sitting_out_seats) > 1:
                text = _(
                    # Translators: {player} is a name; {players} e.g. "Ben, Cem and Dan".
                    "{player} sits this deal out at a table of five (the dealer and the third "
                    "player to the dealer's left sit out), so cannot be declarer; the players "
                    "are {players}.",
                    player=self.players[declarer],
                    players=joined(playing),
                )
            else:
                text = _(
                    # Translators: {player} is a name; {players} e.g. "Ben, Cem and Dan".
                    "{player} dealt this deal and sits it out at a table of four, so cannot be "
                    "declarer; the players are {players}.",
                    player=self.players[declarer],
                    players=joined(playing),
                )
            problems.add("declarer", text)
            return None
        return declarer

    def _check_game_fields(self, game: Mapping[str, Any], problems: ProblemCollector) -> None:
        for name in game:
            if name == "bock":
                problems.add(
                    "bock",
                    _("The sheet itself knows which deals are Bock deals; leave bock out."),
                )
            elif name not in GAME_FIELDS:
                text = _('"{name}" is not part of a Skat game on the sheet.', name=name)
                problems.add(name, text)
        for name in REQUIRED_GAME_FIELDS:
            if name not in game:
                if name == "game":
                    # Translators: {name} is a field name that was sent.
                    problems.add(name, _("Say which game was played."))
                else:
                    problems.add(name, _("Say the winning bid."))
        if not self.options.kontra_re:
            for name, refused in (
                (
                    "kontra",
                    _(
                        "This sheet is kept without Kontra and Re, so nobody can say Kontra; "
                        "leave kontra out."
                    ),
                ),
                (
                    "re",
                    _(
                        "This sheet is kept without Kontra and Re, so nobody can say Re; "
                        "leave re out."
                    ),
                ),
            ):
                if game.get(name):
                    problems.add(name, refused)

    # -- everyone passed ----------------------------------------------------------
    def _score_passed(self, deal: SkatDeal, seats: DealSeats, bock: bool) -> _Scored:
        problems = ProblemCollector()
        if deal.declarer is not None:
            problems.add(
                "declarer",
                _(
                    "Everyone passed, so nobody is declarer; leave declarer out, or enter the "
                    "game that was played instead of passed."
                ),
            )
        for name in deal.game:
            problems.add(
                name,
                # Translators: {name} is a field name that was sent.
                _("Everyone passed, so no game was played; leave {name} out.", name=name),
            )
        if self.options.all_pass == "ramsch":
            return self._score_ramsch(deal.ramsch, seats, bock, problems)
        if deal.ramsch is not None:
            problems.add(
                "ramsch",
                _(
                    "This sheet throws in a deal everyone passed; there is no Ramsch to enter, "
                    "so leave ramsch out."
                ),
            )
        problems.raise_if_any()
        steps = [
            Step(_("Everyone passed: the deal is thrown in and scores nothing."), "skat-bidding")
        ]
        if bock:
            steps.append(
                Step(
                    _("A thrown-in deal still uses up its place in the Bock round."),
                    "skat-bock-rounds",
                )
            )
        scores = (0,) * len(self.players)
        return _Scored(
            scores=scores,
            listed=ListedDeal(
                scores, sitting_out=seats.sitting_out, sitting_out_seats=seats.sitting_out_seats
            ),
            event=BockEvent(0, thrown_in=True),
            summary=_("Thrown in"),
            steps=Explanation.of(steps),
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
                _(
                    "This sheet plays Ramsch when everyone passes: give each seat's card points "
                    "and tricks (and, for a tie the last trick settles, the seat that took it)."
                ),
            )
        else:
            self._check_ramsch_entry(entry, seats, problems)
        problems.raise_if_any()
        assert entry is not None
        active = [seat for seat in range(len(self.players)) if seat not in seats.sitting_out_seats]
        named = _RamschNames(self.players, active)
        try:
            result = score_ramsch(
                points=[int(entry.points[seat] or 0) for seat in active],
                tricks=[int(entry.tricks[seat] or 0) for seat in active],
                last_trick=None if entry.last_trick is None else active.index(entry.last_trick),
                options=RamschOptions(tie=self.options.ramsch_tie),
                bock=bock,
                names=[named.name(player) for player in range(len(active))],
            )
        except RuleError as error:
            raise RuleError(named.problem(p) for p in error.problems) from None
        scores = [0] * len(self.players)
        for player, score in enumerate(result.scores):
            scores[active[player]] = score
        as_seats = tuple(scores)
        steps = [
            Step(_("Everyone passed, so the deal is played as Ramsch."), "skat-ramsch"),
            *result.explanation,
        ]
        return _Scored(
            scores=as_seats,
            listed=ListedDeal(
                as_seats, sitting_out=seats.sitting_out, sitting_out_seats=seats.sitting_out_seats
            ),
            event=BockEvent(0),
            summary=_ramsch_summary(result, named),
            steps=Explanation.of(steps),
            details=_passed_details(
                game=pgettext("Skat game", "Ramsch"),
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
        out = seats.sitting_out_seats
        for name, values in (("points", entry.points), ("tricks", entry.tricks)):
            if len(values) != count:
                problems.add(f"ramsch.{name}", _ramsch_count_problem(name, count, out, len(values)))
                continue
            for seat, value in enumerate(values):
                who = self.players[seat]
                dealt = seat == seats.dealer
                if seat in out and value not in (0, None):
                    problems.add(f"ramsch.{name}.{seat}", _ramsch_sat_out_problem(name, who, dealt))
                elif seat not in out and value is None:
                    problems.add(f"ramsch.{name}.{seat}", _ramsch_missing_problem(name, who))
        last = entry.last_trick
        if last is None:
            return
        if not 0 <= last < count:
            problems.add(
                "ramsch.last_trick",
                _(
                    # Translators: {seats} lists the seat numbers and names, "0 Ana, 1 Ben, 2 Cem".
                    "The last trick was taken by one of the seats 0 to {last} ({seats}); "
                    "got {seat}.",
                    last=count - 1,
                    seats=_seat_list(self.players),
                    seat=last,
                ),
            )
        elif last == seats.dealer and last in out:
            problems.add(
                "ramsch.last_trick",
                _(
                    # Translators: {player} is a player's name.
                    "{player} dealt and sat this deal out, so did not take the last trick.",
                    player=self.players[last],
                ),
            )
        elif last in out:
            problems.add(
                "ramsch.last_trick",
                _(
                    # Translators: {player} is a player's name.
                    "{player} sat this deal out, so did not take the last trick.",
                    player=self.players[last],
                ),
            )


def _played_steps(
    players: Sequence[str],
    declarer: int,
    seats: DealSeats,
    result: GameResult,
    triggers: tuple[Step, ...],
) -> list[Step]:
    """A played game's steps: who played what against whom, the referee's explanation,
    and the Bock rounds it starts."""
    defenders = [
        players[seat]
        for seat in (seats.forehand, seats.middlehand, seats.rearhand)
        if seat != declarer
    ]
    played = Step(
        _(
            # Translators: {declarer} is a name, {contract} e.g. "Grand Hand, schneider
            # announced", {defenders} e.g. "Ben and Cem".
            "{declarer} played {contract} against {defenders}.",
            declarer=players[declarer],
            contract=result.contract,
            defenders=joined(defenders),
        ),
        "skat-game-types",
    )
    return [played, *result.explanation, *triggers]


def _deal_steps(
    players: Sequence[str],
    number: int,
    seats: DealSeats,
    bock: bool,
    scored: Explanation,
    owed: int | None,
    scores: Sequence[int],
    totals: Sequence[int],
) -> list[Step]:
    """A deal's explanation, worded when it is read: who dealt, Bock, how the deal was
    scored, the Bock deals queued (``owed``, when the deal started a Bock round) and the
    lists that changed."""
    steps = [_opening(players, number, seats)]
    if bock:
        steps.append(Step(_("This is a Bock deal: every score counts double."), "skat-bock-rounds"))
    steps.extend(scored)
    if owed is not None:
        steps.append(Step(_("Bock deals now queued: {count}.", count=owed), "skat-bock-rounds"))
    steps.extend(_totals_steps(players, scores, totals))
    return steps


def _opening(players: Sequence[str], number: int, seats: DealSeats) -> Step:
    dealer = players[seats.dealer]
    forehand = players[seats.forehand]
    if seats.sitting_out is None:
        text = _(
            # Translators: {dealer} and {forehand} are players' names.
            "Deal {number}, dealt by {dealer}; {forehand} is forehand.",
            number=number,
            dealer=dealer,
            forehand=forehand,
        )
    elif len(seats.sitting_out_seats) > 1:
        text = _(
            # Translators: {dealer}, {other} and {forehand} are players' names.
            "Deal {number}, dealt by {dealer}, who sits it out with {other}; {forehand} "
            "is forehand.",
            number=number,
            dealer=dealer,
            other=joined([players[s] for s in seats.sitting_out_seats[1:]]),
            forehand=forehand,
        )
    else:
        text = _(
            # Translators: {dealer} and {forehand} are players' names.
            "Deal {number}, dealt by {dealer}, who sits it out; {forehand} is forehand.",
            number=number,
            dealer=dealer,
            forehand=forehand,
        )
    return Step(text, "skat-seats")


def _totals_steps(
    players: Sequence[str], scores: Sequence[int], totals: Sequence[int]
) -> list[Step]:
    moved = [
        Step(
            _(
                # Translators: {player} is a player's name; {score} a change like +96,
                # {total} the list's new total.
                "{player}'s list: {score}, now {total}.",
                player=players[seat],
                score=signed(score),
                total=number(totals[seat]),
            ),
            "skat-score-sheet",
        )
        for seat, score in enumerate(scores)
        if score
    ]
    return moved or [Step(_("Nobody's list changes."), "skat-score-sheet")]


def _ramsch_count_problem(name: str, count: int, out: tuple[int, ...], given: int) -> str:
    """Too few or too many card points or tricks given for the table."""
    values = {"seats": count, "given": given}
    if name == "points" and len(out) > 1:
        return _(
            # Translators: {seats} is how many seats the table has, {given} how many came.
            "Give the card points of every seat ({seats}, the 0 of the two sitting out "
            "included); got {given}.",
            **values,
        )
    if len(out) > 1:
        return _(
            # Translators: {seats} is how many seats the table has, {given} how many came.
            "Give the tricks of every seat ({seats}, the 0 of the two sitting out included); "
            "got {given}.",
            **values,
        )
    if name == "points" and out:
        return _(
            # Translators: {seats} is how many seats the table has, {given} how many came.
            "Give the card points of every seat ({seats}, the dealer's 0 included); got {given}.",
            **values,
        )
    if name == "points":
        # Translators: {seats} is how many seats the table has, {given} how many came.
        return _("Give the card points of every seat ({seats}); got {given}.", **values)
    if out:
        return _(
            # Translators: {seats} is how many seats the table has, {given} how many came.
            "Give the tricks of every seat ({seats}, the dealer's 0 included); got {given}.",
            **values,
        )
    # Translators: {seats} is how many seats the table has, {given} how many came.
    return _("Give the tricks of every seat ({seats}); got {given}.", **values)


def _ramsch_sat_out_problem(name: str, who: str, dealt: bool) -> str:
    """A player sitting out (the dealer, or at five the third to the dealer's left) was
    given card points or tricks."""
    if not dealt and name == "points":
        return _(
            # Translators: {player} is a player's name.
            "{player} sat this deal out, so took no card points; give 0 or leave it empty.",
            player=who,
        )
    if not dealt:
        return _(
            # Translators: {player} is a player's name.
            "{player} sat this deal out, so took no tricks; give 0 or leave it empty.",
            player=who,
        )
    if name == "points":
        return _(
            # Translators: {player} is a player's name.
            "{player} dealt and sat this deal out, so took no card points; give 0 or "
            "leave it empty.",
            player=who,
        )
    return _(
        # Translators: {player} is a player's name.
        "{player} dealt and sat this deal out, so took no tricks; give 0 or leave it empty.",
        player=who,
    )


def _ramsch_missing_problem(name: str, who: str) -> str:
    """A player in the Ramsch was given no card points or tricks."""
    if name == "points":
        # Translators: {player} is a player's name.
        return _("Give {player}'s card points in the Ramsch.", player=who)
    # Translators: {player} is a player's name.
    return _("Give {player}'s tricks in the Ramsch.", player=who)


def _check_players(players: Sequence[str], problems: ProblemCollector) -> None:
    if len(players) not in TABLE_SIZES:
        problems.add(
            "players",
            _(
                "A Skat sheet is kept for 3, 4 or 5 players (at four the dealer sits out each "
                "deal, at five the dealer and the third player to the dealer's left); "
                "got {players}.",
                players=len(players),
            ),
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
    contract = result.contract if result.matadors is None else _with_matadors(result, game)
    values = {
        "contract": contract,
        "verdict": _verdict(result, game),
        "score": signed(result.score),
    }
    said = [call for key, call in _CALLS if game.get(key)]
    if said:
        # Translators: one deal on the sheet: {contract} e.g. "Grand Hand with 2", {verdict}
        # e.g. "won schneider", {score} e.g. −108, {calls} "Kontra" or "Kontra, Re".
        return _("{contract}, {verdict}, {score} ({calls})", calls=join(", ", said), **values)
    # Translators: one deal on the sheet: {contract} e.g. "Grand Hand with 2", {verdict}
    # e.g. "won schneider", {score} e.g. +120.
    return _("{contract}, {verdict}, {score}", **values)


_CALLS = (
    ("kontra", pgettext("Skat call", "Kontra")),
    ("re", pgettext("Skat call", "Re")),
)


def _with_matadors(result: GameResult, game: Mapping[str, Any]) -> str:
    """The contract with its matadors after the game's name: "Clubs Hand with 2, schneider
    announced" (the contract as ``score_game`` names it, from the same fields)."""
    assert result.matadors is not None
    ouvert = game.get("ouvert", False)
    announced = game.get("announced", "none")
    values = {
        "contract": contract_name(game=game["game"], hand=game.get("hand", False), ouvert=ouvert),
        "matadors": result.matadors.label,
    }
    # An open game is always schwarz announced, and its name says so already.
    if not ouvert and announced == "schneider":
        # Translators: {contract} is e.g. "Clubs Hand", {matadors} e.g. "with 2".
        return _("{contract} {matadors}, schneider announced", **values)
    if not ouvert and announced == "schwarz":
        # Translators: {contract} is e.g. "Clubs Hand", {matadors} e.g. "with 2".
        return _("{contract} {matadors}, schwarz announced", **values)
    # Translators: {contract} is e.g. "Grand Hand" or "Clubs Ouvert", {matadors} e.g. "with 2".
    return _("{contract} {matadors}", **values)


# How a Skat game ended, in the sheet's one-line summary. Schneider and schwarz are
# named whoever they fell on, as the table says them.
_WON = {
    # Translators: how a Skat game ended, in a deal's one-line summary.
    None: pgettext("game result", "won"),
    # Translators: the declarer won, and the defenders fell under 31 card points.
    "schneider": pgettext("game result", "won schneider"),
    # Translators: the declarer won, and the defenders took no trick.
    "schwarz": pgettext("game result", "won schwarz"),
}
_LOST = {
    # Translators: how a Skat game ended, in a deal's one-line summary.
    None: pgettext("game result", "lost"),
    # Translators: the declarer lost with 30 card points or fewer.
    "schneider": pgettext("game result", "lost schneider"),
    # Translators: the declarer lost without taking a trick.
    "schwarz": pgettext("game result", "lost schwarz"),
}
_LOST_OVERBID = {
    # Translators: the game was lost because its value fell short of the bid.
    None: pgettext("game result", "lost (overbid)"),
    # Translators: lost with 30 card points or fewer, and the value fell short of the bid.
    "schneider": pgettext("game result", "lost schneider (overbid)"),
    # Translators: lost without a trick, and the value fell short of the bid.
    "schwarz": pgettext("game result", "lost schwarz (overbid)"),
}
_NOT_REACHED = {
    # Translators: the declarer won the play but not the schneider they announced.
    "schneider": pgettext("game result", "lost (not schneider)"),
    # Translators: the declarer won the play but not the schwarz they announced.
    "schwarz": pgettext("game result", "lost (not schwarz)"),
}


def _verdict(result: GameResult, game: Mapping[str, Any]) -> str:
    level = "schwarz" if result.schwarz else "schneider" if result.schneider else None
    if result.won:
        return _WON[level]
    if not _play_won(result, game):
        # The declarer lost the play: a schneider or schwarz fell on the declarer.
        return _LOST_OVERBID[level] if result.overbid else _LOST[level]
    if result.overbid:
        return _LOST_OVERBID[None]
    # The play was won but the game lost: the announcement was not reached (an open
    # game counts as schwarz announced).
    announced = "schwarz" if game.get("ouvert") else game.get("announced")
    return _NOT_REACHED[str(announced)]


def _play_won(result: GameResult, game: Mapping[str, Any]) -> bool:
    """Did the declarer win the play itself, whatever the bid and the announcement?"""
    if result.matadors is None:
        # Null: the play is the game (no trick taken), with no bid or level to miss.
        return result.won
    if result.declarer_points is not None:
        return result.declarer_points >= WINNING_POINTS
    return str(game.get("outcome", "")).startswith("won")


class _RamschNames:
    """The three active players of a Ramsch, by name and by seat.

    The Ramsch referee numbers the three active players (and is given their names);
    on the sheet at a table of four their seats skip the dealer, at five also the third
    player to the dealer's left.
    """

    def __init__(self, players: Sequence[str], active: Sequence[int]) -> None:
        self.players = players
        self.active = active

    def name(self, player: int) -> str:
        return self.players[self.active[player]]

    def problem(self, problem: Problem) -> Problem:
        return Problem(self._field(problem.field), problem.message)

    def _field(self, where: str | None) -> str:
        # The referee's fields are points.<i>, tricks.<i>, points, tricks, last_trick.
        head, dot, player = (where or "").partition(".")
        if dot and player.isdigit():
            return f"ramsch.{head}.{self.active[int(player)]}"
        return f"ramsch.{where}" if where else "ramsch"


def _ramsch_summary(result: RamschResult, named: _RamschNames) -> str:
    if result.durchmarsch is not None:
        gain = result.scores[result.durchmarsch]
        return _(
            # Translators: {player} is a name, {score} e.g. +120.
            "Ramsch: Durchmarsch by {player}, {score}",
            player=named.name(result.durchmarsch),
            score=signed(gain),
        )
    losers = join(
        ", ",
        [
            # Translators: a player's name and what their score changed by.
            _("{player} {score}", player=named.name(player), score=signed(result.scores[player]))
            for player in result.losers
        ],
    )
    if result.jungfrau:
        # Translators: {losers} is e.g. "Ana −80"; Jungfrau: a player took no trick.
        return _("Ramsch: {losers} (Jungfrau)", losers=losers)
    # Translators: {losers} is e.g. "Ana −40, Ben −40".
    return _("Ramsch: {losers}", losers=losers)


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
