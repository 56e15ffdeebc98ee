"""The 10-Point Pitch score sheet: four seats, two teams, one deal after another.

Partners sit opposite each other, so seats 0 and 2 are team A and seats 1 and 3
team B. The deal passes to the left (the next seat), so deal ``n`` is dealt by seat
``(first_dealer + n - 1) % 4`` and the bidding starts with the seat after the
dealer. Every deal is scored by :func:`games.rules.pitch.score_hand` with the
running team scores; the sheet adds who sat where and refuses deals once a team
has won.

A redeal (the ``redeal`` house rule, all four passed) is not entered: the sheet
counts the deals that were played, so the same dealer deals again.

``DealResult.details``:
    ``pitcher`` (seat), ``team`` (``"A"``/``"B"``), ``bid`` (4 to 9 or ``"moon"``),
    ``made`` (bool), ``delta`` and ``taken`` (``{"A": n, "B": n}``), and ``winner``:
    the team that won the game on this deal, or ``None``.
``SheetState.details``:
    ``teams`` (``{"A": total, "B": total}``), ``target``, ``team_seats``
    (``{"A": (0, 2), "B": (1, 3)}``) and ``winner`` (the winning team or ``None``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, cast

from .errors import ProblemCollector, RuleError, Step
from .pitch import MOON, TEAMS, HandResult, PitchOptions, score_hand
from .sheet import DealResult, NextDeal, SheetState, check_player_names, replay_deals
from .words import number, signed

# Every step the sheet adds rests on a section the referee already names
# (``pitch.RULE_SECTIONS``): the dealer and the pitcher on "Bidding", the totals and
# the end of the game on "End of the game".
RULE_SECTIONS: dict[str, str] = {}

SEATS = 4
TEAM_SEATS: Mapping[str, tuple[int, int]] = MappingProxyType({"A": (0, 2), "B": (1, 3)})


def team_of(seat: int) -> str:
    """Partners sit opposite: even seats are team A, odd seats team B."""
    return TEAMS[seat % 2]


def _other(team: str) -> str:
    return "B" if team == "A" else "A"


@dataclass(frozen=True)
class PitchDeal:
    """One deal as entered: who pitched, the winning bid, and who took each point card."""

    pitcher: int
    bid: int | str
    points: Mapping[str, str]


class PitchSheet:
    """The running score of one game of Pitch, fed one deal at a time."""

    def __init__(
        self,
        *,
        players: Sequence[str],
        first_dealer: int,
        options: PitchOptions | Mapping[str, Any] | None = None,
    ) -> None:
        problems = ProblemCollector()
        self.options = _checked_options(options, problems)
        _check_seating(players, first_dealer, problems)
        problems.raise_if_any()
        self.players = tuple(players)
        self.first_dealer = first_dealer
        self._deals: list[DealResult] = []
        self._teams = dict.fromkeys(TEAMS, 0)
        self._winner: str | None = None

    # -- adding a deal ----------------------------------------------------------------

    def add(self, deal: PitchDeal) -> DealResult:
        """Score the next deal; on any problem raise ``RuleError`` and change nothing."""
        if self._winner is not None:
            raise RuleError(
                f"The game is over: {self._team_name(self._winner)} won "
                f"{self._score_line(self._winner)} ({self._why_won(self._winner)}). "
                "Start a new sheet for another game.",
                None,
            )
        problems = ProblemCollector()
        seated = 0 <= deal.pitcher < SEATS
        if not seated:
            problems.add(
                "pitcher",
                f"The pitcher is one of the four seats, 0 to 3 ({self._seat_list()}); "
                f"got {deal.pitcher}.",
            )
        hand: HandResult | None = None
        try:
            # With no seat to go by, team A stands in so the bid and points still get checked.
            hand = score_hand(
                bid=deal.bid,
                pitcher_team=team_of(deal.pitcher) if seated else TEAMS[0],
                points=deal.points,
                scores_before=dict(self._teams),
                options=self.options,
            )
        except RuleError as error:
            problems.absorb(error)
        problems.raise_if_any()
        # score_hand either answered or its problems were raised just above.
        hand = cast(HandResult, hand)
        result = self._deal_result(deal, hand)
        self._deals.append(result)
        self._teams = dict(hand.scores_after)
        self._winner = hand.winner
        return result

    def _deal_result(self, deal: PitchDeal, hand: HandResult) -> DealResult:
        number = len(self._deals) + 1
        dealer = self._dealer(number)
        team = team_of(deal.pitcher)
        steps = [self._opening_step(number, dealer, deal), *hand.explanation]
        if hand.winner is not None:
            first, second = (self.players[s] for s in TEAM_SEATS[hand.winner])
            steps.append(
                Step(
                    f"The game is over: {first} and {second} win it for team {hand.winner}.",
                    "pitch-game-end",
                )
            )
        return DealResult(
            number=number,
            dealer=dealer,
            scores=tuple(hand.delta[team_of(seat)] for seat in range(SEATS)),
            totals=tuple(hand.scores_after[team_of(seat)] for seat in range(SEATS)),
            summary=self._summary(deal, hand),
            explanation=tuple(steps),
            details={
                "pitcher": deal.pitcher,
                "team": team,
                "bid": deal.bid,
                "made": hand.made,
                "delta": dict(hand.delta),
                "taken": dict(hand.taken),
                "winner": hand.winner,
            },
        )

    def _opening_step(self, number: int, dealer: int, deal: PitchDeal) -> Step:
        team = team_of(deal.pitcher)
        partner = self.players[(deal.pitcher + 2) % SEATS]
        pitcher = f"{self.players[deal.pitcher]} (team {team}, with {partner})"
        won = "bid moon" if deal.bid == MOON else f"won the bidding with {deal.bid}"
        return Step(
            f"Deal {number}: {self.players[dealer]} dealt, and {pitcher} {won} and pitched.",
            "pitch-bidding",
        )

    def _summary(self, deal: PitchDeal, hand: HandResult) -> str:
        team = team_of(deal.pitcher)
        other = _other(team)
        line = (
            f"{self.players[deal.pitcher]} bid {deal.bid} for team {team}: "
            f"{'made' if hand.made else 'set'}, {team} {signed(hand.delta[team])}, "
            f"{other} {signed(hand.delta[other])}"
        )
        if hand.winner is not None:
            line += f"; team {hand.winner} wins"
        return line

    # -- the state of the sheet -------------------------------------------------------

    @property
    def state(self) -> SheetState:
        finished = self._winner is not None
        return SheetState(
            players=self.players,
            deals=tuple(self._deals),
            totals=tuple(self._teams[team_of(seat)] for seat in range(SEATS)),
            finished=finished,
            winners=TEAM_SEATS[self._winner] if self._winner is not None else (),
            next_deal=None if finished else self._next_deal(),
            headline=self._headline(),
            details={
                "teams": dict(self._teams),
                "target": self.options.target,
                "team_seats": dict(TEAM_SEATS),
                "winner": self._winner,
            },
        )

    def _next_deal(self) -> NextDeal:
        number = len(self._deals) + 1
        dealer = self._dealer(number)
        name = self.players[dealer]
        if self.options.all_pass == "dealer_4":
            note = f"If the first three pass, {name} as dealer must bid at least 4."
        else:
            note = f"If all four pass, {name} deals again; enter nothing for that deal."
        return NextDeal(number=number, dealer=dealer, forehand=(dealer + 1) % SEATS, notes=(note,))

    def _headline(self) -> str:
        # Short enough for the top of a phone screen: the partners' names are under each
        # team's total there, so the headline names the teams by letter only.
        if self._winner is not None:
            winner = self._winner
            return f"Team {winner} won {self._score_line(winner)}: {self._why_won(winner)}"
        standing = " · ".join(f"Team {team} {number(self._teams[team])}" for team in TEAMS)
        return f"{standing} · {self.options.target} wins"

    def _why_won(self, winner: str) -> str:
        """Why the game ended, from the deal that ended it (a moon, or the target)."""
        last = self._deals[-1].details
        target = self.options.target
        if last["bid"] == MOON:
            # Shooting the moon settles the game by itself, made or failed.
            return "it shot the moon" if last["made"] else f"team {last['team']}'s moon failed"
        if self.options.win_condition == "bid_out":
            return f"it pitched, made its bid and reached {target}"
        if self._teams[_other(winner)] >= target:
            return f"both teams reached {target} on the same hand, and team {winner} pitched it"
        return f"it reached {target}"

    # -- wording ----------------------------------------------------------------------

    def _dealer(self, number: int) -> int:
        # The deal passes one seat to the left after every deal played.
        return (self.first_dealer + number - 1) % SEATS

    def _team_name(self, team: str) -> str:
        first, second = (self.players[s] for s in TEAM_SEATS[team])
        return f"team {team} ({first} & {second})"

    def _score_line(self, team: str) -> str:
        return f"{number(self._teams[team])} to {number(self._teams[_other(team)])}"

    def _seat_list(self) -> str:
        return ", ".join(f"{seat} is {name}" for seat, name in enumerate(self.players))


def replay(
    *,
    players: Sequence[str],
    first_dealer: int,
    options: PitchOptions | Mapping[str, Any] | None = None,
    deals: Sequence[PitchDeal],
) -> SheetState:
    """The sheet after every deal in order; a deal that fails is reported under ``hands.<i>``."""
    return replay_deals(
        PitchSheet(players=players, first_dealer=first_dealer, options=options), deals
    )


# -- checking the table -----------------------------------------------------------------


def _checked_options(
    options: PitchOptions | Mapping[str, Any] | None, problems: ProblemCollector
) -> PitchOptions:
    if isinstance(options, PitchOptions):
        return options
    try:
        return PitchOptions.from_mapping(options)
    except RuleError as error:
        problems.absorb(error)
        return PitchOptions()


def _check_seating(players: Sequence[str], first_dealer: int, problems: ProblemCollector) -> None:
    if len(players) != SEATS:
        problems.add(
            "players",
            f"10-Point Pitch is played by exactly four, two teams of two partners sitting "
            f"opposite; this sheet has {len(players)}.",
        )
    check_player_names(players, problems)
    if not 0 <= first_dealer < SEATS:
        problems.add(
            "first_dealer",
            f"The first dealer is one of the four seats, 0 to 3; got {first_dealer}.",
        )
