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
    ``made`` (bool), ``delta`` and ``taken`` (``{"A": n, "B": n}``), ``winner``:
    the team that won the game on this deal, or ``None``, and ``level``: the deal was
    the last of a game of a fixed number of hands, which ended level.
``SheetState.details``:
    ``teams`` (``{"A": total, "B": total}``), ``target``, ``hands`` (the game's fixed
    number of hands, or ``None``), ``team_seats`` (``{"A": (0, 2), "B": (1, 3)}``),
    ``winner`` (the winning team or ``None``) and ``level`` (the game is over, level).

A game of a fixed number of hands (the ``hands`` option: a round of a party night)
ends after its last hand unless a team reached the target before: the team with the
higher score wins it, and with both level nobody does (the game is over all the same).
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
from .text import _, join, ngettext, pgettext
from .words import number, signed

number_word = number  # in a deal's steps, where ``number`` is the deal's number

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
    # The game's last hand by its fixed number of hands, not by the target or a moon.
    hands: bool = False


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
        # A game of a fixed number of hands that ended with both teams level.
        self._level = False
        # The deal that ended the game: whether it was a moon, whether the bid was made,
        # and the pitcher's team.
        self._ended_by: _Ending | None = None
        self._start_running()

    @property
    def finished(self) -> bool:
        return self._winner is not None or self._level

    # -- adding a deal ----------------------------------------------------------------

    def add(self, deal: PitchDeal) -> DealResult:
        """Score the next deal; on any problem raise ``RuleError`` and change nothing."""
        if self._level:
            raise RuleError(
                ngettext(
                    # Translators: {score} is both teams' score, {hands} how many hands the
                    # game had.
                    "The game is over: it ended level at {score} after its {hands} hand. "
                    "Start a new sheet for another game.",
                    "The game is over: it ended level at {score} after its {hands} hands. "
                    "Start a new sheet for another game.",
                    self.deals_played,
                    score=number(self._teams[TEAMS[0]]),
                    hands=self.deals_played,
                ),
                None,
            )
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
        winner = hand.winner
        last = (
            winner is None
            and self.options.hands is not None
            and self.deals_played + 1 >= self.options.hands
        )
        if last:
            # The game's last hand: the higher score wins; level, nobody does.
            first, second = (hand.scores_after[team] for team in TEAMS)
            winner = None if first == second else TEAMS[0] if first > second else TEAMS[1]
        result = self._deal_result(deal, hand, winner, last)
        self._teams = dict(hand.scores_after)
        self._winner = winner
        self._level = last and winner is None
        if winner is not None or last:
            self._ended_by = _Ending(deal.bid == MOON, hand.made, team_of(deal.pitcher), last)
        self._scored(result)
        return result

    # -- the record -------------------------------------------------------------------

    def _counts(self) -> dict[str, Any]:
        ended = self._ended_by
        return {
            "teams": dict(self._teams),
            "winner": self._winner,
            "level": self._level,
            "ended_by": None
            if ended is None
            else {"moon": ended.moon, "made": ended.made, "team": ended.team, "hands": ended.hands},
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
        # Kept before games of a fixed number of hands: no "level", no "hands".
        level = counts.get("level", False)
        if not isinstance(level, bool) or (level and winner is not None):
            raise UnreadableRecord("level: not a game over without a winner")
        if winner is None and ended is None and not level:
            ending = None
        elif (winner in TEAMS or level) and isinstance(ended, Mapping) and deals > 0:
            moon, made, team = ended.get("moon"), ended.get("made"), ended.get("team")
            hands = ended.get("hands", False)
            if (
                not isinstance(moon, bool)
                or not isinstance(made, bool)
                or not isinstance(hands, bool)
                or team not in TEAMS
            ):
                raise UnreadableRecord("ended_by: not how a deal went")
            if level and not hands:
                raise UnreadableRecord("level: only after a game's last hand")
            ending = _Ending(moon, made, str(team), hands)
        else:
            raise UnreadableRecord("winner and ended_by: not a game over")
        self._teams = scores
        self._winner = winner
        self._level = level
        self._ended_by = ending

    def _deal_result(
        self, deal: PitchDeal, hand: HandResult, winner: str | None, last: bool
    ) -> DealResult:
        """The deal as the sheet lists it; ``winner`` won the game on it (by the target,
        a moon or, ``last``, as the game's last hand)."""
        number = self.deals_played + 1
        dealer = self._dealer(number)
        team = team_of(deal.pitcher)
        return DealResult(
            number=number,
            dealer=dealer,
            scores=tuple(hand.delta[team_of(seat)] for seat in range(SEATS)),
            totals=tuple(hand.scores_after[team_of(seat)] for seat in range(SEATS)),
            summary=self._summary(deal, hand, winner, last),
            explanation=Explanation(
                _deal_steps,
                self.players,
                number,
                dealer,
                deal,
                hand,
                winner if last else None,
                last,
            ),
            details={
                "pitcher": deal.pitcher,
                "team": team,
                "bid": deal.bid,
                "made": hand.made,
                "delta": dict(hand.delta),
                "taken": dict(hand.taken),
                "winner": winner,
                "level": last and winner is None,
            },
        )

    def _summary(self, deal: PitchDeal, hand: HandResult, winner: str | None, last: bool) -> str:
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
        if winner is not None:
            # Translators: {summary} is the line above, e.g. "Ana bid 5 for team A: made,
            # A +7, B +3"; {team} is "A" or "B".
            return _("{summary}; team {team} wins", summary=line, team=winner)
        if last:
            # Translators: {summary} is a deal's line, e.g. "Ana bid 5 for team A: made,
            # A +7, B +3", the last of a game of a fixed number of hands.
            return _("{summary}; the game ends level", summary=line)
        return line

    # -- the state of the sheet -------------------------------------------------------

    @property
    def state(self) -> SheetState:
        finished = self.finished
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
                "hands": self.options.hands,
                "team_seats": dict(TEAM_SEATS),
                "winner": self._winner,
                "level": self._level,
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
        if self._level:
            return ngettext(
                # Translators: the headline of a game of a fixed number of hands that ended
                # level; {score} is both teams' score, {hands} the number of hands.
                "Level at {score} after {hands} hand: nobody wins",
                "Level at {score} after {hands} hands: nobody wins",
                self.deals_played,
                score=number(self._teams[TEAMS[0]]),
                hands=self.deals_played,
            )
        standing = join(
            " · ",
            [
                # Translators: a team and its total in the sheet's headline, e.g. "Team A 30".
                _("Team {team} {total}", team=team, total=number(self._teams[team]))
                for team in TEAMS
            ],
        )
        if self.options.hands is not None:
            return _(
                # Translators: the headline of a game of a fixed number of hands, e.g.
                # "Team A 30 · Team B 12 · 52 wins · hand 4 of 10"; {number} is the next
                # hand's number.
                "{standing} · {target} wins · hand {number} of {hands}",
                standing=standing,
                target=self.options.target,
                number=self.deals_played + 1,
                hands=self.options.hands,
            )
        # Translators: the sheet's headline, e.g. "Team A 30 · Team B 12 · 52 wins";
        # {target} is the score that wins the game.
        return _("{standing} · {target} wins", standing=standing, target=self.options.target)

    def _why_won(self, winner: str) -> str:
        """Why the game ended, from the deal that ended it (a moon, or the target)."""
        last = self._ended_by
        assert last is not None
        target = self.options.target
        if last.hands:
            return ngettext(
                # Translators: why a team won a game of a fixed number of hands; "it" is the
                # winning team, {hands} the number of hands.
                "it had the higher score after {hands} hand",
                "it had the higher score after {hands} hands",
                self.deals_played,
                hands=self.deals_played,
            )
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
    players: tuple[str, ...],
    number: int,
    dealer: int,
    deal: PitchDeal,
    hand: HandResult,
    winner: str | None = None,
    last: bool = False,
) -> list[Step]:
    """A deal's explanation, worded when it is read: who dealt and pitched, the referee's
    steps, and who won the game if it ended (``last``: as a game of a fixed number of
    hands, after its last one, won by ``winner`` or level)."""
    steps = [_opening_step(players, number, dealer, deal), *hand.explanation]
    if last:
        scores = hand.scores_after
        if winner is None:
            steps.append(
                Step(
                    _(
                        # Translators: {number} is the hand's number, the last of the game;
                        # {score} both teams' score.
                        "Hand {number} was the game's last, and both teams have {score}: "
                        "the game is over, level, and nobody wins it.",
                        number=number,
                        score=number_word(scores[TEAMS[0]]),
                    ),
                    "pitch-game-end",
                )
            )
            return steps
        first, second = (players[s] for s in TEAM_SEATS[winner])
        other = TEAMS[1] if winner == TEAMS[0] else TEAMS[0]
        steps.append(
            Step(
                _(
                    # Translators: {number} is the hand's number, the last of the game;
                    # {first} and {second} are players' names; {team} is "A" or "B";
                    # {score} and {other_score} the two teams' scores.
                    "Hand {number} was the game's last: team {team} has the higher score, "
                    "{score} to {other_score}, so {first} and {second} win it.",
                    number=number,
                    team=winner,
                    score=number_word(scores[winner]),
                    other_score=number_word(scores[other]),
                    first=first,
                    second=second,
                ),
                "pitch-game-end",
            )
        )
        return steps
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
