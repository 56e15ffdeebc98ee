"""What every game's score sheet has in common: the state after replaying its deals.

A sheet stores each deal exactly as it was entered; its scores are never stored but
derived by replaying every deal in order through the game's rules. A correction to
deal 3 therefore re-scores deals 4 … n, and nothing can drift. Each game has a
``replay(...)`` function (``skat_sheet``, ``pitch_sheet``, ``manipulation_sheet``)
returning a :class:`SheetState`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

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
    explanation: tuple[Step, ...]
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
