"""The Manipulation score sheet: penalty points round after round, lowest total wins.

Three to five players sit in seat order. The deal passes to the left (the next
seat), so round ``n`` is dealt by seat ``(first_dealer + n - 1) % players`` and
the seat after the dealer plays first. A round is entered either as the cards
left in every hand (the player who went out holds none) or as the penalty points
the table already counted, one entry per seat. Each round is scored by
:func:`games.rules.manipulation.score_round` (or ``score_round_from_penalties``)
with the players' names and the running totals; the sheet refuses rounds once the
game has ended.

Problems the referee reports under a player's name (``hands.Ana.2``) are moved to
that player's seat (``hands.0.2``), as in the round's JSON.

``DealResult.details``:
    ``went_out`` (the seat that went out, or ``None`` when the stock ran out) and
    ``penalties`` (this round's penalty points per seat).
``SheetState.details``:
    ``target`` (200 or 300) and ``closest``: ``{"seats": (...), "points_left": n}``,
    the seat(s) with the highest total, nearest to ending the game, and how many
    points they are from the target (0 once it is reached).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import Card
from .errors import Explanation, Problem, ProblemCollector, RuleError, Step
from .manipulation import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    ManipulationOptions,
    RoundResult,
    score_round,
    score_round_from_penalties,
)
from .sheet import (
    DealResult,
    NextDeal,
    RunningSheet,
    SheetState,
    UnreadableRecord,
    check_player_names,
    replay_deals,
    wholes,
)
from .text import Text, _, join, ngettext
from .words import capitalised, joined

# The referee's sections cover melds, penalties and the end of the game; who deals
# and who plays first is the one thing only the sheet explains.
RULE_SECTIONS: dict[str, str] = {
    "manipulation-deal": _("Dealing and the order of play"),
}


@dataclass(frozen=True)
class ManipulationDeal:
    """One round as entered: exactly one of the two is given, one entry per seat."""

    hands: tuple[tuple[Card, ...], ...] | None = None
    penalties: tuple[int, ...] | None = None


class ManipulationSheet(RunningSheet):
    """The running penalty totals of one game of Manipulation, fed one round at a time.

    Its record (:meth:`record`) holds the totals and, once the game is over, the winners.
    """

    GAME = "manipulation"

    def __init__(
        self,
        *,
        players: Sequence[str],
        first_dealer: int,
        options: ManipulationOptions | Mapping[str, Any] | None = None,
    ) -> None:
        problems = ProblemCollector()
        self.options = _checked_options(options, problems)
        _check_seating(players, first_dealer, problems)
        problems.raise_if_any()
        self.players = tuple(players)
        self.first_dealer = first_dealer
        self._totals = (0,) * len(self.players)
        self._winners: tuple[int, ...] = ()
        self._start_running()

    @property
    def finished(self) -> bool:
        return bool(self._winners)

    # -- adding a round ---------------------------------------------------------------

    def add(self, deal: ManipulationDeal) -> DealResult:
        """Score the next round; on any problem raise ``RuleError`` and change nothing."""
        if self.finished:
            message = _(
                # Translators: {reached} is e.g. "Cem reached 210" (or several joined by "and"),
                # {won} e.g. "Ana won with 85" or "Ana and Ben shared the win with 85".
                "The game is over: {reached} and {won}. Start a new sheet for another game.",
                reached=self._reached(),
                won=self._won(past=True),
            )
            raise RuleError(message, None)
        self._check_entries(deal)
        # In the first round there is nothing before it; the referee then says so.
        before = dict(zip(self.players, self._totals, strict=True)) if self.deals_played else None
        try:
            if deal.hands is not None:
                played = score_round(
                    hands=dict(zip(self.players, deal.hands, strict=True)),
                    scores_before=before,
                    options=self.options,
                )
            else:
                played = score_round_from_penalties(
                    penalties=dict(zip(self.players, deal.penalties or (), strict=True)),
                    scores_before=before,
                    options=self.options,
                )
        except RuleError as error:
            raise RuleError(
                Problem(self._seat_field(p.field), p.message) for p in error.problems
            ) from None
        result = self._deal_result(played)
        self._totals = result.totals
        self._winners = tuple(self.players.index(name) for name in played.winners)
        self._scored(result)
        return result

    # -- the record -------------------------------------------------------------------

    def _counts(self) -> dict[str, Any]:
        return {"totals": list(self._totals), "winners": list(self._winners)}

    def _take_counts(self, counts: Mapping[str, Any], deals: int) -> None:
        seats = len(self.players)
        # Two decks of 5, 10 and 15 penalty points a card: a round costs far below this.
        totals = wholes(counts.get("totals"), seats, 0, 10_000 * deals, "totals")
        winners = counts.get("winners")
        if not isinstance(winners, list) or len(winners) > seats:
            raise UnreadableRecord("winners: not a list of seats")
        won = wholes(winners, len(winners), 0, seats - 1, "winners")
        if len(set(won)) != len(won) or (won and not deals):
            raise UnreadableRecord("winners: not seats, each once")
        if any(total % 5 for total in totals):
            # Every card costs 5, 10 or 15 (Manipulation rules, "Penalty points").
            raise UnreadableRecord("totals: not multiples of 5")
        # The game ends once a total reaches the target; the lowest total (or totals) wins.
        lowest = min(totals)
        ended = max(totals) >= self.options.target
        if won != tuple(seat for seat, total in enumerate(totals) if ended and total == lowest):
            raise UnreadableRecord("winners: not those with the lowest total at the game's end")
        self._totals = totals
        self._winners = won

    def _check_entries(self, deal: ManipulationDeal) -> None:
        entered = {"hands": deal.hands, "penalties": deal.penalties}
        given = [name for name, entries in entered.items() if entries is not None]
        count = len(self.players)
        if not given:
            message = _(
                # Translators: "hands" and "penalties" are the API's names: keep them.
                'Enter the round either as the cards left in each hand ("hands", one list '
                'per seat) or as each player\'s penalty points ("penalties", one number per '
                "seat)."
            )
            raise RuleError(message, None)
        if len(given) == 2:
            message = _(
                "Enter the round as hands or as penalties, not both: the penalties follow "
                "from the hands."
            )
            raise RuleError(message, "penalties")
        field = given[0]
        got = len(entered[field] or ())
        if got != count:
            players = join(_(", "), self.players)
            if field == "hands":
                message = ngettext(
                    # Translators: {players} are the player names in seat order, "Ana, Ben, Cem".
                    "This table has {count} players ({players}), so give {count} hands, one "
                    "per seat in that order; got {got} hand.",
                    "This table has {count} players ({players}), so give {count} hands, one "
                    "per seat in that order; got {got} hands.",
                    got,
                    count=count,
                    players=players,
                    got=got,
                )
            else:
                message = ngettext(
                    # Translators: {players} are the player names in seat order, "Ana, Ben, Cem".
                    "This table has {count} players ({players}), so give {count} penalties, "
                    "one per seat in that order; got {got} penalty.",
                    "This table has {count} players ({players}), so give {count} penalties, "
                    "one per seat in that order; got {got} penalties.",
                    got,
                    count=count,
                    players=players,
                    got=got,
                )
            raise RuleError(message, field)

    def _seat_field(self, field: str | None) -> str | None:
        """``hands.Ana.2`` → ``hands.0.2``: the referee names players, the sheet's JSON seats."""
        entry, _, rest = (field or "").partition(".")
        # A whole name first: "A.1" is a player's name before it is card 1 of "A"'s hand.
        for seat, name in enumerate(self.players):
            if rest == name:
                return f"{entry}.{seat}"
        for seat, name in enumerate(self.players):
            index = rest.removeprefix(f"{name}.")
            if index != rest and index.isdigit():
                return f"{entry}.{seat}.{index}"
        return field

    def _deal_result(self, played: RoundResult) -> DealResult:
        number = self.deals_played + 1
        dealer = self._dealer(number)
        went_out = None if played.went_out is None else self.players.index(played.went_out)
        penalties = tuple(played.penalties[name] for name in self.players)
        scored = [
            # Translators: a player's penalty points this round, "Ana +25".
            _("{name} +{points}", name=name, points=points)
            for name, points in zip(self.players, penalties, strict=True)
            if name != played.went_out
        ]
        parts = [capitalised(_went_out_words(played.went_out)), join(_(", "), scored)]
        if played.winners:
            parts.append(_winning_words([*played.winners]))
        summary = join("; ", parts)
        return DealResult(
            number=number,
            dealer=dealer,
            scores=penalties,
            totals=tuple(played.scores_after[name] for name in self.players),
            summary=summary,
            explanation=Explanation(
                _round_steps, self.players, number, dealer, self._forehand(dealer), played
            ),
            details={"went_out": went_out, "penalties": penalties},
        )

    # -- the state of the sheet -------------------------------------------------------

    @property
    def state(self) -> SheetState:
        highest = max(self._totals)
        return SheetState(
            players=self.players,
            deals=tuple(self._deals),
            totals=self._totals,
            finished=self.finished,
            winners=self._winners,
            next_deal=None if self.finished else self._next_deal(),
            headline=self._headline(),
            details={
                "target": self.options.target,
                "closest": {
                    "seats": self._seats_with(highest),
                    "points_left": max(self.options.target - highest, 0),
                },
            },
        )

    def _next_deal(self) -> NextDeal:
        number = self.deals_played + 1
        dealer = self._dealer(number)
        return NextDeal(number=number, dealer=dealer, forehand=self._forehand(dealer))

    def _headline(self) -> Text:
        # The headline is a few short parts, each its own message, shown with " · ".
        if self.finished:
            rounds = self.deals_played
            over = ngettext(
                "Game over after {n} round", "Game over after {n} rounds", rounds, n=rounds
            )
            return join(" · ", (over, self._reached(), self._won()))
        lowest, highest = min(self._totals), max(self._totals)
        number = self.deals_played + 1
        target = self.options.target
        if lowest == highest:
            return join(
                " · ",
                (
                    _("Round {number}", number=number),
                    # Translators: every player has {points} penalty points.
                    _("all on {points}", points=lowest),
                    _("the game ends at {target}", target=target),
                ),
            )
        leaders = len(self._seats_with(lowest))
        closest = len(self._seats_with(highest))
        return join(
            " · ",
            (
                _("Round {number}", number=number),
                ngettext(
                    # Translators: {names} are the players with the fewest penalty points
                    # ({points}), "Ana" or "Ana and Ben".
                    "{names} leads with {points}",
                    "{names} lead with {points}",
                    leaders,
                    names=self._names_with(lowest),
                    points=lowest,
                ),
                ngettext(
                    # Translators: {names} are the players nearest to ending the game, {gap}
                    # penalty points from the {target} that ends it.
                    "{names} is {gap} from {target}",
                    "{names} are {gap} from {target}",
                    closest,
                    names=self._names_with(highest),
                    gap=target - highest,
                    target=target,
                ),
            ),
        )

    def _reached(self) -> Text | str:
        """Who reached the target: ``Cem reached 210`` (several joined by "and")."""
        return joined(
            [
                _("{name} reached {total}", name=name, total=total)
                for name, total in zip(self.players, self._totals, strict=True)
                if total >= self.options.target
            ]
        )

    def _won(self, *, past: bool = False) -> Text:
        """Who won, and with how many points: ``Ana wins with 85``."""
        lowest = min(self._totals)
        names = [self.players[seat] for seat in self._winners]
        if len(names) == 1:
            if past:
                return _("{name} won with {points}", name=names[0], points=lowest)
            return _("{name} wins with {points}", name=names[0], points=lowest)
        if past:
            # Translators: {names} are player names, "Ana and Ben".
            return _("{names} shared the win with {points}", names=joined(names), points=lowest)
        # Translators: {names} are player names, "Ana and Ben".
        return _("{names} share the win with {points}", names=joined(names), points=lowest)

    # -- seats ------------------------------------------------------------------------

    def _dealer(self, number: int) -> int:
        # The deal passes one seat to the left after every round.
        return (self.first_dealer + number - 1) % len(self.players)

    def _forehand(self, dealer: int) -> int:
        # Play starts on the dealer's left and goes round clockwise.
        return (dealer + 1) % len(self.players)

    def _seats_with(self, total: int) -> tuple[int, ...]:
        return tuple(seat for seat, t in enumerate(self._totals) if t == total)

    def _names_with(self, total: int) -> Text | str:
        return joined([self.players[seat] for seat in self._seats_with(total)])


def replay(
    *,
    players: Sequence[str],
    first_dealer: int,
    options: ManipulationOptions | Mapping[str, Any] | None = None,
    deals: Sequence[ManipulationDeal],
) -> SheetState:
    """The sheet after every round in order; a round that fails is reported under ``hands.<i>``."""
    return replay_deals(
        ManipulationSheet(players=players, first_dealer=first_dealer, options=options), deals
    )


# -- checking the table -----------------------------------------------------------------


def _checked_options(
    options: ManipulationOptions | Mapping[str, Any] | None, problems: ProblemCollector
) -> ManipulationOptions:
    # Options built directly are checked too: the dataclass itself accepts any value.
    data = options.as_dict() if isinstance(options, ManipulationOptions) else options
    try:
        return ManipulationOptions.from_mapping(data)
    except RuleError as error:
        problems.absorb(error)
        return ManipulationOptions()


def _check_seating(players: Sequence[str], first_dealer: int, problems: ProblemCollector) -> None:
    count = len(players)
    table_ok = MIN_PLAYERS <= count <= MAX_PLAYERS
    if not table_ok:
        message = _(
            "Manipulation is played by {least} to {most} players; this sheet has {count}.",
            least=MIN_PLAYERS,
            most=MAX_PLAYERS,
            count=count,
        )
        problems.add("players", message)
    check_player_names(players, problems)
    if table_ok and not 0 <= first_dealer < count:
        message = _(
            # Translators: the seats are numbered from 0 to {last}.
            "The first dealer is one of the {count} seats, 0 to {last}; got {got}.",
            count=count,
            last=count - 1,
            got=first_dealer,
        )
        problems.add("first_dealer", message)


# -- wording ----------------------------------------------------------------------------


def _round_steps(
    players: tuple[str, ...], number: int, dealer: int, first: int, played: RoundResult
) -> list[Step]:
    """A round's explanation, worded when it is read: who dealt, played first and went
    out, then the referee's steps."""
    opening_text = _(
        # Translators: {went_out} is "Ana went out" or "nobody went out".
        "Round {number}: {dealer} dealt and {first} played first; {went_out}.",
        number=number,
        dealer=players[dealer],
        first=players[first],
        went_out=_went_out_words(played.went_out),
    )
    return [Step(opening_text, "manipulation-deal"), *played.explanation]


def _went_out_words(name: str | None) -> Text:
    if name is None:
        return _("nobody went out")
    return _("{name} went out", name=name)


def _winning_words(names: Sequence[str]) -> Text:
    if len(names) == 1:
        return _("{name} wins", name=names[0])
    # Translators: {names} are player names, "Ana and Ben".
    return _("{names} share the win", names=joined(names))
