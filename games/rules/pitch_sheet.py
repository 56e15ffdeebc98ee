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

from .errors import Explanation, ProblemCollector, RuleError, Step
from .pitch import MOON, TEAMS, HandResult, PitchOptions, score_hand
from .sheet import (
    DealResult,
    NextDeal,
    RunningSheet,
    SheetState,
    UnreadableRecord,
    check_player_names,
    replay_deals,
    whole,
)
from .text import _, join, pgettext
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
class _Ending:
    """How the deal that ended the game went: a moon or not, made or set, by which team."""

    moon: bool
    made: bool
    team: str


@dataclass(frozen=True)
class PitchDeal:
    """One deal as entered: who pitched, the winning bid, and who took each point card."""

    pitcher: int
    bid: int | str
    points: Mapping[str, str]


class PitchSheet(RunningSheet):
    """The running score of one game of Pitch, fed one deal at a time.

    Its record (:meth:`record`) holds the teams' scores and, once the game is over, the
    winner and how the deal that ended it went (the headline says why the game ended).
    """

    GAME = "pitch"

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
        self._teams = dict.fromkeys(TEAMS, 0)
        self._winner: str | None = None
        # The deal that ended the game: whether it was a moon, whether the bid was made,
        # and the pitcher's team.
        self._ended_by: _Ending | None = None
        self._start_running()

    @property
    def finished(self) -> bool:
        return self._winner is not None

    # -- adding a deal ----------------------------------------------------------------

    def add(self, deal: PitchDeal) -> DealResult:
        """Score the next deal; on any problem raise ``RuleError`` and change nothing."""
        if self._winner is not None:
            raise RuleError(
                _(
                    # Translators: {team} is e.g. "team A (Ana & Cem)"; {score} e.g. "52 to 30";
                    # {why} e.g. "it reached 52".
                    "The game is over: {team} won {score} ({why}). "
                    "Start a new sheet for another game.",
                    team=self._team_name(self._winner),
                    score=self._score_line(self._winner),
                    why=self._why_won(self._winner),
                ),
                None,
            )
        problems = ProblemCollector()
        seated = 0 <= deal.pitcher < SEATS
        if not seated:
            problems.add(
                "pitcher",
                _(
                    # Translators: {seats} lists the seats, e.g. "0 is Ana, 1 is Ben, …";
                    # {value} is the seat number given.
                    "The pitcher is one of the four seats, 0 to 3 ({seats}); got {value}.",
                    seats=self._seat_list(),
                    value=deal.pitcher,
                ),
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
        self._teams = dict(hand.scores_after)
        self._winner = hand.winner
        if hand.winner is not None:
            self._ended_by = _Ending(deal.bid == MOON, hand.made, team_of(deal.pitcher))
        self._scored(result)
        return result

    # -- the record -------------------------------------------------------------------

    def _counts(self) -> dict[str, Any]:
        ended = self._ended_by
        return {
            "teams": dict(self._teams),
            "winner": self._winner,
            "ended_by": None
            if ended is None
            else {"moon": ended.moon, "made": ended.made, "team": ended.team},
        }

    def _take_counts(self, counts: Mapping[str, Any], deals: int) -> None:
        teams = counts.get("teams")
        if not isinstance(teams, Mapping) or set(teams) != set(TEAMS):
            raise UnreadableRecord("teams: not a score for each team")
        # A hand moves a score by 10 at most (a made moon up to the target).
        most = max(10, self.options.target) * max(deals, 1)
        scores = {team: whole(teams[team], -most, most, f"teams.{team}") for team in TEAMS}
        winner = counts.get("winner")
        ended = counts.get("ended_by")
        if winner is None and ended is None:
            ending = None
        elif winner in TEAMS and isinstance(ended, Mapping) and deals > 0:
            moon, made, team = ended.get("moon"), ended.get("made"), ended.get("team")
            if not isinstance(moon, bool) or not isinstance(made, bool) or team not in TEAMS:
                raise UnreadableRecord("ended_by: not how a deal went")
            ending = _Ending(moon, made, str(team))
        else:
            raise UnreadableRecord("winner and ended_by: not a game over")
        self._teams = scores
        self._winner = winner
        self._ended_by = ending

    def _deal_result(self, deal: PitchDeal, hand: HandResult) -> DealResult:
        number = self.deals_played + 1
        dealer = self._dealer(number)
        team = team_of(deal.pitcher)
        return DealResult(
            number=number,
            dealer=dealer,
            scores=tuple(hand.delta[team_of(seat)] for seat in range(SEATS)),
            totals=tuple(hand.scores_after[team_of(seat)] for seat in range(SEATS)),
            summary=self._summary(deal, hand),
            explanation=Explanation(_deal_steps, self.players, number, dealer, deal, hand),
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

    def _summary(self, deal: PitchDeal, hand: HandResult) -> str:
        team = team_of(deal.pitcher)
        other = _other(team)
        bid = pgettext("Pitch bid", "moon") if deal.bid == MOON else deal.bid
        outcome = (
            pgettext("Pitch bid outcome", "made")
            if hand.made
            else pgettext("Pitch bid outcome", "set")
        )
        line = _(
            # Translators: one line summing up a deal, e.g. "Ana bid 5 for team A: made, A +7,
            # B +3". {bid} is 4 to 9 or "moon"; {outcome} is "made" or "set"; {team} and
            # {other} are "A" and "B"; the changes are signed numbers.
            "{player} bid {bid} for team {team}: {outcome}, {team} {team_change}, "
            "{other} {other_change}",
            player=self.players[deal.pitcher],
            bid=bid,
            team=team,
            outcome=outcome,
            team_change=signed(hand.delta[team]),
            other=other,
            other_change=signed(hand.delta[other]),
        )
        if hand.winner is not None:
            # Translators: {summary} is the line above, e.g. "Ana bid 5 for team A: made,
            # A +7, B +3"; {team} is "A" or "B".
            return _("{summary}; team {team} wins", summary=line, team=hand.winner)
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
        number = self.deals_played + 1
        dealer = self._dealer(number)
        name = self.players[dealer]
        if self.options.all_pass == "dealer_4":
            # Translators: {name} is the dealer's name.
            note = _("If the first three pass, {name} as dealer must bid at least 4.", name=name)
        else:
            note = _(
                # Translators: {name} is the dealer's name.
                "If all four pass, {name} deals again; enter nothing for that deal.",
                name=name,
            )
        return NextDeal(number=number, dealer=dealer, forehand=(dealer + 1) % SEATS, notes=(note,))

    def _headline(self) -> str:
        # Short enough for the top of a phone screen: the partners' names are under each
        # team's total there, so the headline names the teams by letter only.
        if self._winner is not None:
            winner = self._winner
            return _(
                # Translators: {team} is "A" or "B"; {score} e.g. "52 to 30"; {why} e.g.
                # "it reached 52".
                "Team {team} won {score}: {why}",
                team=winner,
                score=self._score_line(winner),
                why=self._why_won(winner),
            )
        standing = join(
            " · ",
            [
                # Translators: a team and its total in the sheet's headline, e.g. "Team A 30".
                _("Team {team} {total}", team=team, total=number(self._teams[team]))
                for team in TEAMS
            ],
        )
        # Translators: the sheet's headline, e.g. "Team A 30 · Team B 12 · 52 wins";
        # {target} is the score that wins the game.
        return _("{standing} · {target} wins", standing=standing, target=self.options.target)

    def _why_won(self, winner: str) -> str:
        """Why the game ended, from the deal that ended it (a moon, or the target)."""
        last = self._ended_by
        assert last is not None
        target = self.options.target
        if last.moon:
            # Shooting the moon settles the game by itself, made or failed.
            if last.made:
                # Translators: why a team won the game, e.g. "Team A won 52 to 30: it shot
                # the moon"; "it" is the winning team.
                return _("it shot the moon")
            # Translators: why a team won the game, e.g. "Team A won 52 to 30: team B's
            # moon failed"; {team} is the other team, "A" or "B".
            return _("team {team}'s moon failed", team=last.team)
        if self.options.win_condition == "bid_out":
            # Translators: why a team won the game; "it" is the winning team.
            return _("it pitched, made its bid and reached {target}", target=target)
        if self._teams[_other(winner)] >= target:
            return _(
                "both teams reached {target} on the same hand, and team {team} pitched it",
                target=target,
                team=winner,
            )
        # Translators: why a team won the game; "it" is the winning team.
        # Translators: why a team won the game; {team} is the winning team, "A" or "B".
        return _("it reached {target}", target=target)

    # -- wording ----------------------------------------------------------------------

    def _dealer(self, number: int) -> int:
        # The deal passes one seat to the left after every deal played.
        return (self.first_dealer + number - 1) % SEATS

    def _team_name(self, team: str) -> str:
        first, second = (self.players[s] for s in TEAM_SEATS[team])
        # Translators: a team and its players, e.g. "team A (Ana & Cem)".
        return _("team {team} ({first} & {second})", team=team, first=first, second=second)

    def _score_line(self, team: str) -> str:
        return _(
            # Translators: a final score, the winner's first, e.g. "52 to 30".
            "{score} to {other_score}",
            score=number(self._teams[team]),
            other_score=number(self._teams[_other(team)]),
        )

    def _seat_list(self) -> str:
        return join(
            ", ",
            [
                # Translators: a seat number and the player sitting there, e.g. "0 is Ana".
                _("{seat} is {name}", seat=seat, name=name)
                for seat, name in enumerate(self.players)
            ],
        )


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


# -- wording a deal ---------------------------------------------------------------------


def _deal_steps(
    players: tuple[str, ...], number: int, dealer: int, deal: PitchDeal, hand: HandResult
) -> list[Step]:
    """A deal's explanation, worded when it is read: who dealt and pitched, the referee's
    steps, and who won the game if it ended."""
    steps = [_opening_step(players, number, dealer, deal), *hand.explanation]
    if hand.winner is not None:
        first, second = (players[s] for s in TEAM_SEATS[hand.winner])
        steps.append(
            Step(
                _(
                    # Translators: {first} and {second} are players' names; {team} is
                    # "A" or "B".
                    "The game is over: {first} and {second} win it for team {team}.",
                    first=first,
                    second=second,
                    team=hand.winner,
                ),
                "pitch-game-end",
            )
        )
    return steps


def _opening_step(players: tuple[str, ...], number: int, dealer: int, deal: PitchDeal) -> Step:
    team = team_of(deal.pitcher)
    partner = players[(deal.pitcher + 2) % SEATS]
    if deal.bid == MOON:
        text = _(
            # Translators: {number} is the deal's number; {dealer}, {pitcher} and
            # {partner} are players' names; {team} is "A" or "B".
            "Deal {number}: {dealer} dealt, and {pitcher} (team {team}, with {partner}) "
            "bid moon and pitched.",
            number=number,
            dealer=players[dealer],
            pitcher=players[deal.pitcher],
            team=team,
            partner=partner,
        )
    else:
        text = _(
            # Translators: {number} is the deal's number; {dealer}, {pitcher} and
            # {partner} are players' names; {team} is "A" or "B"; {bid} is 4 to 9.
            "Deal {number}: {dealer} dealt, and {pitcher} (team {team}, with {partner}) "
            "won the bidding with {bid} and pitched.",
            number=number,
            dealer=players[dealer],
            pitcher=players[deal.pitcher],
            team=team,
            partner=partner,
            bid=deal.bid,
        )
    return Step(text, "pitch-bidding")


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
            _(
                # Translators: {count} is how many players the sheet has.
                "10-Point Pitch is played by exactly four, two teams of two partners sitting "
                "opposite; this sheet has {count}.",
                count=len(players),
            ),
        )
    check_player_names(players, problems)
    if not 0 <= first_dealer < SEATS:
        problems.add(
            "first_dealer",
            _(
                # Translators: {value} is the seat number given.
                "The first dealer is one of the four seats, 0 to 3; got {value}.",
                value=first_dealer,
            ),
        )
