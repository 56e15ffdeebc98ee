"""10-Point Pitch: trumps, tricks, bidding and the score of one hand.

Four players in two partnerships: seats 1 and 3 are team A, seats 2 and 4 team B.
Only trumps are played, so a trick is just two to four trumps and the highest one
wins. A hand is worth ten points (the three counts three); the pitcher's team must
take at least its bid or lose it, and a moon bid wins or loses the game outright.

Where published rule sets disagree the defaults follow the traditional game and the
other reading is an option of :class:`PitchOptions`.

The referee judges one hand at a time. It does not check whether the game had
already ended before the hand (for instance ``scores_before`` already at the target):
it scores the hand anyway and applies the end-of-game rule to the scores after it.
Refusing hands after the end is the score sheet's business.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, cast

from .cards import JOKER_HIGH, JOKER_LOW, PITCH_DECK, SUIT_NAMES, SUIT_SYMBOLS, Card
from .errors import ProblemCollector, RuleError, Step
from .words import joined, number

RULE_SECTIONS: dict[str, str] = {
    "pitch-cards": "The cards",
    "pitch-trumps": "Trumps, high to low",
    "pitch-bidding": "Bidding",
    "pitch-play": "Discard, refill and play",
    "pitch-points": "The ten points",
    "pitch-two": "Who scores the two",
    "pitch-opponents": "The opponents' points",
    "pitch-made": "Making the bid",
    "pitch-set": "Being set",
    "pitch-moon": "Shooting the moon",
    "pitch-game-end": "End of the game",
    "pitch-options": "Options",
}

TEAMS = ("A", "B")
MOON = "moon"
PASS = "pass"
OUT = "out"
LOWEST_BID = 4
HIGHEST_BID = 9
TARGET_RANGE = (11, 500)

# The ten points of a hand, in the order a scorer reads them off. The three alone
# is worth three; every other point card is worth one.
POINT_CARDS: Mapping[str, int] = MappingProxyType(
    {
        "ace": 1,
        "jack": 1,
        "off_jack": 1,
        "high_joker": 1,
        "low_joker": 1,
        "ten": 1,
        "two": 1,
        "three": 3,
    }
)
POINT_CARD_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "ace": "ace",
        "jack": "jack",
        "off_jack": "off-jack",
        "high_joker": "high joker",
        "low_joker": "low joker",
        "ten": "ten",
        "two": "two",
        "three": "three",
    }
)
TOTAL_POINTS = sum(POINT_CARDS.values())

# The off-jack is the jack of the other suit of trump's colour.
_SAME_COLOUR = {"C": "S", "S": "C", "H": "D", "D": "H"}
_TRUMP_SPELLINGS = {
    **{suit: suit for suit in SUIT_NAMES},
    **{name.upper(): suit for suit, name in SUIT_NAMES.items()},
    **{symbol: suit for suit, symbol in SUIT_SYMBOLS.items()},
}
_RANKS_BELOW_JOKERS = ("10", "9", "8", "7", "6", "5", "4", "3", "2")
_ORDINALS = ("first", "second", "third", "fourth")
# Seats counted from the dealer's left; partners sit opposite, so the second seat
# is the dealer's partner.
_BIDDING_SEATS = (
    "the player left of the dealer",
    "the dealer's partner",
    "the player right of the dealer",
    "the dealer",
)


# -- Options ---------------------------------------------------------------------

_CHOICES: dict[str, dict[str, str]] = {
    "made_scores": {
        "taken": "a team that makes its bid scores the points it took",
        "bid": "a team that makes its bid scores its bid",
    },
    "two_goes_to": {
        "taker": "the two scores for the team that wins it in a trick",
        "player": "the two scores for the team that played it",
    },
    "all_pass": {
        "dealer_4": "when the first three pass, the dealer must bid",
        "redeal": "when all four pass, the cards are dealt again",
    },
    "win_condition": {
        "bidder_first": "when both teams reach the target on one hand, the pitcher's team wins",
        "bid_out": "a team wins only on a hand it pitched and made",
    },
}


def _option_problem(name: str, value: object) -> str | None:
    """What is wrong with one option value, or ``None`` when it is allowed."""
    if name == "target":
        low, high = TARGET_RANGE
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            return (
                f"The target must be a whole number of points from {low} to {high} "
                f"(52 is usual); got {_shown(value)}."
            )
        return None
    choices = _CHOICES[name]
    if isinstance(value, str) and value in choices:
        return None
    described = "; ".join(f'"{choice}": {meaning}' for choice, meaning in choices.items())
    return f"{name} must be one of these: {described}. Got {_shown(value)}."


@dataclass(frozen=True)
class PitchOptions:
    """The house rules a Pitch sheet plays by; the defaults are the traditional game."""

    target: int = 52
    made_scores: str = "taken"
    two_goes_to: str = "taker"
    all_pass: str = "dealer_4"
    win_condition: str = "bidder_first"

    def __post_init__(self) -> None:
        problems = ProblemCollector()
        for name, value in self.as_dict().items():
            message = _option_problem(name, value)
            if message:
                problems.add(f"options.{name}", message)
        problems.raise_if_any()

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, field: str = "options") -> PitchOptions:
        """Options from a request; every unknown name and bad value is reported at once."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise RuleError(
                f'Give the options as an object, like {{"target": 52}}; got {_shown(data)}.',
                field,
            )
        known = cls().as_dict()
        problems = ProblemCollector()
        for name, value in data.items():
            if name not in known:
                problems.add(
                    f"{field}.{name}",
                    f'"{name}" is not a Pitch option.{_did_you_mean(str(name), known)} '
                    f"The options are {', '.join(known)}.",
                )
                continue
            message = _option_problem(name, value)
            if message:
                problems.add(f"{field}.{name}", message)
        problems.raise_if_any()
        return cls(**data)

    def as_dict(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "made_scores": self.made_scores,
            "two_goes_to": self.two_goes_to,
            "all_pass": self.all_pass,
            "win_condition": self.win_condition,
        }


# -- Trumps and tricks -----------------------------------------------------------


def _trump_suit(trump: object, field: str = "trump") -> str:
    """The suit letter for a trump given as a letter, a symbol or a suit name."""
    suit = _TRUMP_SPELLINGS.get(trump.strip().upper()) if isinstance(trump, str) else None
    if suit is None:
        raise RuleError(
            'Trump is one suit: "C" (clubs), "S" (spades), "H" (hearts) or "D" (diamonds); '
            f"got {_shown(trump)}.",
            field,
        )
    return suit


def off_jack(trump: str) -> Card:
    """The jack of the other suit of trump's colour, which plays as a trump."""
    return Card("J", _SAME_COLOUR[_trump_suit(trump)])


@cache
def _order_for(suit: str) -> tuple[Card, ...]:
    return (
        Card("A", suit),
        Card("K", suit),
        Card("Q", suit),
        Card("J", suit),
        Card("J", _SAME_COLOUR[suit]),
        Card(JOKER_HIGH),
        Card(JOKER_LOW),
        *(Card(rank, suit) for rank in _RANKS_BELOW_JOKERS),
    )


def trump_order(trump: str) -> tuple[Card, ...]:
    """The 16 trumps from highest to lowest: A K Q J, off-jack, the jokers, then 10 down to 2."""
    return _order_for(_trump_suit(trump))


def is_trump(card: Card, trump: str) -> bool:
    """Trump suit cards, the off-jack and both jokers are trumps; nothing else is."""
    return card in _order_for(_trump_suit(trump))


@dataclass(frozen=True)
class TrickResult:
    winner: int
    explanation: tuple[Step, ...]


def trick_winner(*, trump: str, cards: Sequence[Card]) -> TrickResult:
    """Which card wins a trick: ``winner`` is its index in ``cards`` (play order)."""
    problems = ProblemCollector()
    suit: str | None = None
    try:
        suit = _trump_suit(trump)
    except RuleError as error:
        problems.absorb(error)
    if not 2 <= len(cards) <= 4:
        problems.add(
            "cards",
            f"A trick has 2 to 4 cards, one from each player still holding trumps; "
            f"got {len(cards)}.",
        )
    for i, played in enumerate(cards):
        if suit is not None and not is_trump(played, suit):
            problems.add(f"cards.{i}", _not_a_trump(played, suit))
    for problem in PITCH_DECK.duplicate_problems(cards, "cards"):
        problems.add(problem.field, problem.message)
    problems.raise_if_any()
    suit = cast(str, suit)  # a bad trump was reported above
    order = _order_for(suit)
    winner = min(range(len(cards)), key=lambda i: order.index(cards[i]))
    steps = [
        Step(
            f"{SUIT_NAMES[suit].capitalize()} are trump; from high to low: "
            f"{', '.join(c.label for c in order)}.",
            "pitch-trumps",
        ),
        Step(f"Played in this order: {', '.join(c.label for c in cards)}.", "pitch-play"),
    ]
    off = order[4]
    if off in cards:
        steps.append(
            Step(
                f"{off.label} is the off-jack: it counts as one of the "
                f"{SUIT_NAMES[suit]}, just below {order[3].label} and above the jokers.",
                "pitch-trumps",
            )
        )
    if any(c.is_joker for c in cards):
        steps.append(
            Step(
                f"The jokers are trumps whatever the suit: the high joker above the low joker, "
                f"both between the off-jack and {order[7].label}.",
                "pitch-trumps",
            )
        )
    steps.append(
        Step(
            f"{cards[winner].label} is the highest trump played, so the "
            f"{_ORDINALS[winner]} card wins the trick and its player leads the next one.",
            "pitch-play",
        )
    )
    return TrickResult(winner=winner, explanation=tuple(steps))


def _not_a_trump(played: Card, suit: str) -> str:
    suit_name = SUIT_NAMES[suit]
    return (
        f"{played.label} is not a trump when {suit_name} are trump: only {suit_name}, "
        f"the {Card('J', _SAME_COLOUR[suit]).label} and the two jokers are. Everyone throws "
        f"away their other cards before the first trick, so it cannot be played."
    )


# -- Bidding ---------------------------------------------------------------------


@dataclass(frozen=True)
class BiddingResult:
    """``pitcher`` counts seats from the dealer's left (3 is the dealer); ``None`` on a redeal."""

    pitcher: int | None
    bid: int | str | None
    redeal: bool
    explanation: tuple[Step, ...]


def _bid_problem(value: object, *, allow_pass: bool) -> str | None:
    """What is wrong with one call, or ``None`` for 4 to 9, moon (and pass when allowed)."""
    numbers = f"a number from {LOWEST_BID} to {HIGHEST_BID}"
    allowed = f'{numbers}, "moon" or "pass"' if allow_pass else f'{numbers} or "moon"'
    if value == MOON:
        return None
    if value == PASS:
        if allow_pass:
            return None
        return (
            "A hand is only scored after someone bid: give the winning bid, "
            f'{LOWEST_BID} to {HIGHEST_BID} or "moon".'
        )
    if isinstance(value, bool) or not isinstance(value, int):
        return f"A bid is {allowed}; got {_shown(value)}."
    if value < LOWEST_BID:
        return f"{value} is below the lowest bid: bids run from {LOWEST_BID} to {HIGHEST_BID}."
    if value > HIGHEST_BID:
        return (
            f"{value} is above the highest numbered bid, {HIGHEST_BID}; "
            f'to bid for all {TOTAL_POINTS} points, bid "moon".'
        )
    return None


def _bid_rank(bid: int | str) -> int:
    """Moon outranks every numbered bid."""
    return TOTAL_POINTS if bid == MOON else int(bid)


def check_bidding(
    *, bids: Sequence[int | str], options: PitchOptions | Mapping[str, Any] | None = None
) -> BiddingResult:
    """Check a whole round of bidding, the first call left of the dealer, and name the pitcher."""
    problems = ProblemCollector()
    options = _read_options(options, problems)
    high: tuple[int, int | str] | None = None  # (seat, bid) of the highest bid so far
    moon_seat: int | None = None
    for i, call in enumerate(bids):
        field = f"bids.{i}"
        if moon_seat is not None:
            problems.add(
                field,
                f"Bidding stopped when {_BIDDING_SEATS[moon_seat]} bid moon, the highest "
                f"bid; no call can follow it.",
            )
            continue
        if i >= len(_BIDDING_SEATS):
            problems.add(
                field,
                "Each of the four players calls once and the dealer calls last, "
                "so there is no call after the fourth.",
            )
            continue
        message = _bid_problem(call, allow_pass=True)
        if message:
            problems.add(field, message)
            continue
        if call == PASS:
            continue
        if high is not None and _bid_rank(call) <= _bid_rank(high[1]):
            problems.add(field, _not_higher(call, high[1]))
            continue
        high = (i, call)
        if call == MOON:
            moon_seat = i
    finished = moon_seat is not None or len(bids) >= len(_BIDDING_SEATS)
    if not finished:
        problems.add(
            "bids",
            f"The bidding is not over: {len(bids)} of 4 calls. It ends with the dealer's "
            f"call, or earlier only when someone bids moon.",
        )
    elif options is not None and options.all_pass == "dealer_4" and _dealer_passed_alone(bids):
        problems.add(
            "bids.3",
            f"The first three passed, so the dealer must bid: {LOWEST_BID} or more, or moon. "
            f"(This sheet plays that rule; the other choice is a redeal.)",
        )
    problems.raise_if_any()
    return _bidding_result(bids, high, cast(PitchOptions, options))


def _dealer_passed_alone(bids: Sequence[int | str]) -> bool:
    seats = len(_BIDDING_SEATS)
    return len(bids) >= seats and all(call == PASS for call in bids[:seats])


def _not_higher(call: int | str, high: int | str) -> str:
    # Moon outranks every number and bidding stops there, so both are numbers here.
    higher = (
        'bid "moon" or pass'
        if high == HIGHEST_BID
        else f'bid {int(high) + 1} or more, "moon", or pass'
    )
    return f"{call} is not higher than the {high} already bid; each bid must beat the one before: {higher}."


def _bidding_result(
    bids: Sequence[int | str], high: tuple[int, int | str] | None, options: PitchOptions
) -> BiddingResult:
    calls = ", ".join(f"{_BIDDING_SEATS[i]} {_call_words(call)}" for i, call in enumerate(bids))
    steps = [Step(f"From the dealer's left: {calls}.", "pitch-bidding")]
    if high is None:
        steps.append(
            Step(
                "All four passed; this sheet deals the cards again rather than make the "
                "dealer bid.",
                "pitch-bidding",
            )
        )
        return BiddingResult(pitcher=None, bid=None, redeal=True, explanation=tuple(steps))
    seat, bid = high
    if seat == 3 and options.all_pass == "dealer_4" and all(call == PASS for call in bids[:3]):
        steps.append(Step("The first three passed, so the dealer had to bid.", "pitch-bidding"))
    if bid == MOON:
        steps.append(
            Step(
                f"{_BIDDING_SEATS[seat].capitalize()} bid moon, the highest bid: their team "
                f"must take all {TOTAL_POINTS} points, and the bidding is over.",
                "pitch-moon",
            )
        )
    steps.append(
        Step(
            f"The highest bid is {_call_words(bid).removeprefix('bid ')}, so "
            f"{_BIDDING_SEATS[seat]} is the pitcher and names trump.",
            "pitch-bidding",
        )
    )
    return BiddingResult(pitcher=seat, bid=bid, redeal=False, explanation=tuple(steps))


def _call_words(call: int | str) -> str:
    if call == PASS:
        return "passed"
    return f"bid {call}"


# -- Scoring a hand --------------------------------------------------------------


@dataclass(frozen=True)
class HandResult:
    made: bool
    taken: dict[str, int]
    delta: dict[str, int]
    scores_after: dict[str, int]
    game_over: bool
    winner: str | None
    explanation: tuple[Step, ...]


@dataclass(frozen=True)
class _Hand:
    """A checked hand, ready to score."""

    bid: int | str
    pitcher: str
    points: dict[str, str]
    before: dict[str, int]
    options: PitchOptions

    @property
    def opponents(self) -> str:
        return "B" if self.pitcher == "A" else "A"


def score_hand(
    *,
    bid: int | str,
    pitcher_team: str,
    points: Mapping[str, str],
    scores_before: Mapping[str, int] | None = None,
    options: PitchOptions | Mapping[str, Any] | None = None,
) -> HandResult:
    """Score one hand: who took what, whether the pitcher made the bid, and whether the game ended.

    ``points`` says for each point card which team scores it (``"A"``/``"B"``) or that
    it was ``"out"`` of play. With ``two_goes_to="player"`` the ``two`` entry names the
    team that played the two rather than the one that won it.
    """
    hand = _check_hand(bid, pitcher_team, points, scores_before, options)
    taken = dict.fromkeys(TEAMS, 0)
    for key, holder in hand.points.items():
        if holder != OUT:
            taken[holder] += POINT_CARDS[key]
    if hand.bid == MOON:
        made, delta, winner, pitcher_steps = _score_moon(hand, taken)
    else:
        made, delta, pitcher_steps = _score_numbered_bid(hand, taken)
    after = {team: hand.before[team] + delta[team] for team in TEAMS}
    scores_step = Step(
        "Scores: "
        + ", ".join(f"team {t} {number(hand.before[t])} → {number(after[t])}" for t in TEAMS)
        + ".",
        "pitch-game-end",
    )
    end_steps: list[Step] = []
    # A moon settles the end of the game by itself (won, lost, or on at 0); any other
    # hand ends the game only when a team reaches the target.
    if hand.bid != MOON:
        winner, end_steps = _game_end(hand, made, after)
    return HandResult(
        made=made,
        taken=taken,
        delta=delta,
        scores_after=after,
        game_over=winner is not None,
        winner=winner,
        explanation=(*_points_steps(hand, taken), *pitcher_steps, scores_step, *end_steps),
    )


def _points_steps(hand: _Hand, taken: dict[str, int]) -> list[Step]:
    steps = []
    for team in TEAMS:
        names = [POINT_CARD_NAMES[k] for k in POINT_CARDS if hand.points[k] == team]
        if names:
            text = f"Team {team} took the {joined(names)}: {_points_words(taken[team])}."
        else:
            text = f"Team {team} took no points."
        steps.append(Step(text, "pitch-points"))
    if hand.options.two_goes_to == "player" and hand.points["two"] != OUT:
        steps.append(
            Step(
                f"On this sheet the two scores for the team that played it, whoever won the "
                f"trick: team {hand.points['two']}.",
                "pitch-two",
            )
        )
    out = [POINT_CARD_NAMES[k] for k in POINT_CARDS if hand.points[k] == OUT]
    if out:
        in_play = sum(taken.values())
        steps.append(
            Step(
                f"The {joined(out)} {'was' if len(out) == 1 else 'were'} out of play, so "
                f"nobody scores {'it' if len(out) == 1 else 'them'}: {in_play} of the "
                f"{TOTAL_POINTS} points were in play.",
                "pitch-points",
            )
        )
    return steps


def _score_numbered_bid(
    hand: _Hand, taken: dict[str, int]
) -> tuple[bool, dict[str, int], list[Step]]:
    bid = int(hand.bid)
    pitcher, opponents = hand.pitcher, hand.opponents
    made = taken[pitcher] >= bid
    delta = {opponents: taken[opponents]}
    if made and hand.options.made_scores == "bid":
        delta[pitcher] = bid
        text = (
            f"Team {pitcher} bid {bid} and took {taken[pitcher]}, so it made its bid; on this "
            f"sheet a made bid scores the bid: {bid}."
        )
        steps = [Step(text, "pitch-made")]
    elif made:
        delta[pitcher] = taken[pitcher]
        text = (
            f"Team {pitcher} bid {bid} and took {taken[pitcher]}, so it made its bid and "
            f"scores the {_points_words(taken[pitcher])} it took."
        )
        steps = [Step(text, "pitch-made")]
    else:
        delta[pitcher] = -bid
        text = (
            f"Team {pitcher} bid {bid} but took only {taken[pitcher]}, so it is set: "
            f"its bid of {bid} is taken off its score."
        )
        if hand.before[pitcher] - bid < 0:
            text += " Scores can go below zero."
        steps = [Step(text, "pitch-set")]
    steps.append(_opponents_step(opponents, taken[opponents]))
    return made, {team: delta[team] for team in TEAMS}, steps


def _opponents_step(opponents: str, points: int) -> Step:
    if points:
        text = f"Team {opponents}, the opponents, score the {_points_words(points)} they took."
    else:
        text = f"Team {opponents}, the opponents, took nothing and score nothing."
    return Step(text, "pitch-opponents")


def _score_moon(
    hand: _Hand, taken: dict[str, int]
) -> tuple[bool, dict[str, int], str | None, list[Step]]:
    pitcher, opponents = hand.pitcher, hand.opponents
    before = hand.before[pitcher]
    target = hand.options.target
    out = [POINT_CARD_NAMES[k] for k in POINT_CARDS if hand.points[k] == OUT]
    if taken[pitcher] < TOTAL_POINTS:
        if out:
            reason = (
                f"With the {joined(out)} out of play, team {pitcher} could not take all "
                f"{TOTAL_POINTS} points, so its moon fails."
            )
        else:
            reason = (
                f"Team {pitcher} bid moon but took only {taken[pitcher]} of the "
                f"{TOTAL_POINTS} points, so its moon fails."
            )
        if taken[opponents]:
            gain = f"team {opponents} adds the {_points_words(taken[opponents])} it took"
        else:
            gain = f"team {opponents}, which took no points, keeps its score"
        steps = [
            Step(reason, "pitch-moon"),
            Step(
                f"A failed moon loses the game at once: team {pitcher} keeps its {number(before)}, "
                f"and {gain} and wins the game.",
                "pitch-moon",
            ),
        ]
        if hand.options.win_condition == "bid_out":
            # The moon rule ends the game outright, so the bid-out condition does not apply.
            steps.append(
                Step(
                    f"That holds on this sheet too, although team {opponents} did not pitch: "
                    f"a failed moon ends the game whoever pitched.",
                    "pitch-moon",
                )
            )
        delta = {pitcher: 0, opponents: taken[opponents]}
        return False, {team: delta[team] for team in TEAMS}, opponents, steps

    steps = [Step(f"Team {pitcher} bid moon and took all {TOTAL_POINTS} points.", "pitch-moon")]
    if before > 0:
        # A made moon wins outright; under bid-out a team can already stand above the
        # target, and the moon must not lower its score.
        new = max(before, target)
        if before > target:
            text = (
                f"Team {pitcher} already had {before}, above the target of {target}; a made "
                f"moon does not lower it, and team {pitcher} wins the game at once."
            )
        else:
            text = (
                f"Team {pitcher} had {before}, above zero, so its score becomes the target, "
                f"{target}, and it wins the game at once."
            )
        winner: str | None = pitcher
    else:
        new = 0
        text = f"Team {pitcher} had {number(before)}, not above zero, so its score becomes 0 and play goes on."
        winner = None
    steps.append(Step(text, "pitch-moon"))
    steps.append(_opponents_step(opponents, taken[opponents]))
    delta = {pitcher: new - before, opponents: taken[opponents]}
    return True, {team: delta[team] for team in TEAMS}, winner, steps


def _game_end(hand: _Hand, made: bool, after: dict[str, int]) -> tuple[str | None, list[Step]]:
    target = hand.options.target
    pitcher = hand.pitcher
    reached = [team for team in TEAMS if after[team] >= target]
    if hand.options.win_condition == "bid_out":
        return _game_end_bid_out(hand, made, after, reached)
    if not reached:
        return None, [Step(f"Nobody has reached {target} yet, so play goes on.", "pitch-game-end")]
    if len(reached) == 2:
        return pitcher, [
            Step(
                f"Both teams reached {target} on this hand; then the pitcher's team wins, "
                f"so team {pitcher} wins the game.",
                "pitch-game-end",
            )
        ]
    team = reached[0]
    return team, [Step(f"Team {team} reached {target} and wins the game.", "pitch-game-end")]


def _game_end_bid_out(
    hand: _Hand, made: bool, after: dict[str, int], reached: list[str]
) -> tuple[str | None, list[Step]]:
    target = hand.options.target
    pitcher = hand.pitcher
    if made and pitcher in reached:
        return pitcher, [
            Step(
                f"Team {pitcher} pitched, made its bid and reached {target}, so it wins the game.",
                "pitch-game-end",
            )
        ]
    if not reached:
        return None, [Step(f"Nobody has reached {target} yet, so play goes on.", "pitch-game-end")]
    steps = []
    for team in reached:
        why = (
            f"team {team} was set on this hand"
            if team == pitcher
            else f"team {team} did not pitch this hand"
        )
        steps.append(
            Step(
                f"Team {team} has {after[team]}, at or over {target}, but on this sheet a team "
                f"wins only on a hand it pitched and made, and {why}: play goes on.",
                "pitch-game-end",
            )
        )
    return None, steps


# -- Checking a hand -------------------------------------------------------------


def _check_hand(
    bid: object,
    pitcher_team: object,
    points: object,
    scores_before: object,
    options: object,
) -> _Hand:
    problems = ProblemCollector()
    message = _bid_problem(bid, allow_pass=False)
    if message:
        problems.add("bid", message)
    if pitcher_team not in TEAMS or not isinstance(pitcher_team, str):
        problems.add(
            "pitcher_team",
            f'The pitcher\'s team is "A" (seats 1 and 3) or "B" (seats 2 and 4); '
            f"got {_shown(pitcher_team)}.",
        )
    checked_points = _check_points(points, problems)
    before = _check_scores(scores_before, problems)
    checked_options = _read_options(options, problems)
    problems.raise_if_any()
    # Each check returns None only after reporting a problem, so all are filled in here.
    return _Hand(
        bid=cast(int | str, bid),
        pitcher=cast(str, pitcher_team),
        points=cast(dict[str, str], checked_points),
        before=cast(dict[str, int], before),
        options=cast(PitchOptions, checked_options),
    )


def _check_points(points: object, problems: ProblemCollector) -> dict[str, str] | None:
    if not isinstance(points, Mapping):
        problems.add(
            "points",
            'Say which team took each point card, like {"ace": "A", "jack": "B", ..., '
            '"three": "out"}.',
        )
        return None
    checked: dict[str, str] = {}
    for key in points:
        if key not in POINT_CARDS:
            problems.add(
                "points",
                f'"{key}" is not a point card.{_did_you_mean(str(key), POINT_CARDS)} '
                f"The point cards are {', '.join(POINT_CARDS)}.",
            )
    for key, name in POINT_CARD_NAMES.items():
        if key not in points:
            problems.add(
                f"points.{key}",
                f'Say who took the {name}: "A", "B", or "out" if it was out of play.',
            )
        elif points[key] not in (*TEAMS, OUT) or not isinstance(points[key], str):
            problems.add(
                f"points.{key}",
                f'The {name} goes to team "A" or "B", or is "out" of play; '
                f"got {_shown(points[key])}.",
            )
        else:
            checked[key] = points[key]
    return checked if len(checked) == len(POINT_CARDS) else None


def _check_scores(scores: object, problems: ProblemCollector) -> dict[str, int] | None:
    if scores is None:
        return dict.fromkeys(TEAMS, 0)
    if not isinstance(scores, Mapping):
        problems.add(
            "scores_before",
            f'Give the scores before the hand as {{"A": 0, "B": 0}}; got {_shown(scores)}.',
        )
        return None
    for key in scores:
        if key not in TEAMS:
            problems.add("scores_before", f'"{key}" is not a team: the teams are "A" and "B".')
    checked: dict[str, int] = {}
    for team in TEAMS:
        value = scores.get(team)
        if team not in scores:
            problems.add(f"scores_before.{team}", f"Give team {team}'s score before the hand.")
        elif isinstance(value, bool) or not isinstance(value, int):
            problems.add(
                f"scores_before.{team}",
                f"Team {team}'s score is a whole number (it may be below zero); "
                f"got {_shown(value)}.",
            )
        else:
            checked[team] = value
    return checked if len(checked) == len(TEAMS) else None


def _read_options(options: object, problems: ProblemCollector) -> PitchOptions | None:
    if isinstance(options, PitchOptions):
        return options
    try:
        return PitchOptions.from_mapping(cast(Mapping[str, Any] | None, options))
    except RuleError as error:
        problems.absorb(error)
        return None


# -- Wording ---------------------------------------------------------------------


def _points_words(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _did_you_mean(word: str, choices: Mapping[str, Any]) -> str:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f' Did you mean "{close[0]}"?' if close else ""


def _shown(value: object) -> str:
    """A value as a player typed it, for a message."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:20] + "…"
        return f'"{shown}"'
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return "something else"
