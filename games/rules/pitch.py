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
from .errors import Explanation, ProblemCollector, RuleError, Step
from .text import _, join, ngettext, pgettext
from .words import capitalised, joined, number

# The titles of the rule book's sections, shown next to each explanation step.
RULE_SECTIONS: dict[str, str] = {
    "pitch-cards": _("The cards"),
    "pitch-trumps": _("Trumps, high to low"),
    "pitch-bidding": pgettext("Pitch rule book section", "Bidding"),
    "pitch-play": _("Discard, refill and play"),
    "pitch-points": _("The ten points"),
    "pitch-two": _("Who scores the two"),
    "pitch-opponents": _("The opponents' points"),
    "pitch-made": _("Making the bid"),
    "pitch-set": _("Being set"),
    "pitch-moon": _("Shooting the moon"),
    "pitch-game-end": _("End of the game"),
    "pitch-options": pgettext("Pitch rule book section", "Options"),
}

TEAMS = ("A", "B")
MOON = "moon"
PASS = "pass"
OUT = "out"
LOWEST_BID = 4
HIGHEST_BID = 9
TARGET_RANGE = (11, 500)
# A game of a fixed number of hands (a round of a Pitch party night): at most this many.
HANDS_RANGE = (1, 200)

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
# Shown inside sentences such as "Team {team} took the {cards}" and "Say who took the {card}".
POINT_CARD_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "ace": pgettext("Pitch point card", "ace"),
        "jack": pgettext("Pitch point card", "jack"),
        "off_jack": pgettext("Pitch point card", "off-jack"),
        "high_joker": pgettext("Pitch point card", "high joker"),
        "low_joker": pgettext("Pitch point card", "low joker"),
        "ten": pgettext("Pitch point card", "ten"),
        "two": pgettext("Pitch point card", "two"),
        "three": pgettext("Pitch point card", "three"),
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
# Shown in "so the {ordinal} card wins the trick".
_ORDINALS = (
    pgettext("the ... card wins the trick", "first"),
    pgettext("the ... card wins the trick", "second"),
    pgettext("the ... card wins the trick", "third"),
    pgettext("the ... card wins the trick", "fourth"),
)
# Seats counted from the dealer's left; partners sit opposite, so the second seat
# is the dealer's partner.
# Shown as the subject of sentences such as "{seat} bid 5" and "{seat} is the pitcher".
_BIDDING_SEATS = (
    pgettext("bidder, subject of a sentence", "the player left of the dealer"),
    pgettext("bidder, subject of a sentence", "the dealer's partner"),
    pgettext("bidder, subject of a sentence", "the player right of the dealer"),
    pgettext("bidder, subject of a sentence", "the dealer"),
)


# -- Options ---------------------------------------------------------------------

# What each choice of a house rule means, listed in an error message as
# '"taken": a team that makes its bid scores the points it took'.
_CHOICES: dict[str, dict[str, str]] = {
    "made_scores": {
        "taken": _("a team that makes its bid scores the points it took"),
        "bid": _("a team that makes its bid scores its bid"),
    },
    "two_goes_to": {
        "taker": _("the two scores for the team that wins it in a trick"),
        "player": _("the two scores for the team that played it"),
    },
    "all_pass": {
        "dealer_4": _("when the first three pass, the dealer must bid"),
        "redeal": _("when all four pass, the cards are dealt again"),
    },
    "win_condition": {
        "bidder_first": _("when both teams reach the target on one hand, the pitcher's team wins"),
        "bid_out": _("a team wins only on a hand it pitched and made"),
    },
}


def _whole_in(value: object, bounds: tuple[int, int]) -> bool:
    """Whether ``value`` is a whole number (not a bool) from ``bounds[0]`` to ``bounds[1]``."""
    low, high = bounds
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def _option_problem(name: str, value: object) -> str | None:
    """What is wrong with one option value, or ``None`` when it is allowed."""
    if name == "target":
        low, high = TARGET_RANGE
        if not _whole_in(value, TARGET_RANGE):
            return _(
                # Translators: {value} is what was given, e.g. '"ten"' or 'nothing'.
                "The target must be a whole number of points from {lowest} to {highest} "
                "(52 is usual); got {value}.",
                lowest=low,
                highest=high,
                value=_shown(value),
            )
        return None
    if name == "hands":
        low, high = HANDS_RANGE
        if value is not None and not _whole_in(value, HANDS_RANGE):
            return _(
                # Translators: {value} is what was given, e.g. '"ten"' or '0'.
                "A game of a fixed number of hands has from {lowest} to {highest} hands; "
                "got {value}.",
                lowest=low,
                highest=high,
                value=_shown(value),
            )
        return None
    choices = _CHOICES[name]
    if isinstance(value, str) and value in choices:
        return None
    described = join(
        "; ",
        [
            _('"{choice}": {meaning}', choice=choice, meaning=meaning)
            for choice, meaning in choices.items()
        ],
    )
    return _(
        # Translators: one allowed value of a house rule and what it means; {choice}
        # is a code to type as it is, e.g. "taken".
        # Translators: {option} is the name of a house rule as typed in a request, e.g.
        # "made_scores"; {choices} lists its allowed values with their meanings.
        "{option} must be one of these: {choices}. Got {value}.",
        option=name,
        choices=described,
        value=_shown(value),
    )


@dataclass(frozen=True)
class PitchOptions:
    """The house rules a Pitch sheet plays by; the defaults are the traditional game.

    ``hands``: the game ends after this many hands at the latest (a round of a party
    night); the higher score wins it, and it may end level. ``None``: to the target.
    """

    target: int = 52
    made_scores: str = "taken"
    two_goes_to: str = "taker"
    all_pass: str = "dealer_4"
    win_condition: str = "bidder_first"
    hands: int | None = None

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
                _(
                    'Give the options as an object, like {{"target": 52}}; got {value}.',
                    value=_shown(data),
                ),
                field,
            )
        known = {**cls().as_dict(), "hands": None}
        problems = ProblemCollector()
        for name, value in data.items():
            if name not in known:
                problems.add(f"{field}.{name}", _unknown_option(str(name), known))
                continue
            message = _option_problem(name, value)
            if message:
                problems.add(f"{field}.{name}", message)
        problems.raise_if_any()
        return cls(**data)

    def as_dict(self) -> dict[str, Any]:
        """The options as typed in a request; ``hands`` only when the game has a fixed
        number of them."""
        options: dict[str, Any] = {
            "target": self.target,
            "made_scores": self.made_scores,
            "two_goes_to": self.two_goes_to,
            "all_pass": self.all_pass,
            "win_condition": self.win_condition,
        }
        if self.hands is not None:
            options["hands"] = self.hands
        return options


# -- Trumps and tricks -----------------------------------------------------------


def _trump_suit(trump: object, field: str = "trump") -> str:
    """The suit letter for a trump given as a letter, a symbol or a suit name."""
    suit = _TRUMP_SPELLINGS.get(trump.strip().upper()) if isinstance(trump, str) else None
    if suit is None:
        raise RuleError(
            _(
                # Translators: "C", "S", "H" and "D" are the letters to type; keep them as they are.
                'Trump is one suit: "C" (clubs), "S" (spades), "H" (hearts) or "D" (diamonds); '
                "got {value}.",
                value=_shown(trump),
            ),
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
            _(
                "A trick has 2 to 4 cards, one from each player still holding trumps; got {count}.",
                count=len(cards),
            ),
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
            capitalised(
                _(
                    # Translators: {suits} is a suit name such as "clubs"; {cards} lists all
                    # sixteen trumps, e.g. "A♣, K♣, Q♣, J♣, J♠, high joker, …".
                    "{suits} are trump; from high to low: {cards}.",
                    suits=SUIT_NAMES[suit],
                    cards=join(", ", [c.label for c in order]),
                )
            ),
            "pitch-trumps",
        ),
        Step(
            # Translators: {cards} lists the cards of one trick, e.g. "A♣, 10♣, J♠".
            _("Played in this order: {cards}.", cards=join(", ", [c.label for c in cards])),
            "pitch-play",
        ),
    ]
    off = order[4]
    if off in cards:
        steps.append(
            Step(
                _(
                    # Translators: {off_jack} and {jack} are cards such as "J♠" and "J♣";
                    # {suits} is the trump suit, e.g. "clubs".
                    "{off_jack} is the off-jack: it counts as one of the {suits}, just below "
                    "{jack} and above the jokers.",
                    off_jack=off.label,
                    suits=SUIT_NAMES[suit],
                    jack=order[3].label,
                ),
                "pitch-trumps",
            )
        )
    if any(c.is_joker for c in cards):
        steps.append(
            Step(
                _(
                    # Translators: {ten} is the ten of trumps, e.g. "10♣".
                    "The jokers are trumps whatever the suit: the high joker above the low "
                    "joker, both between the off-jack and {ten}.",
                    ten=order[7].label,
                ),
                "pitch-trumps",
            )
        )
    steps.append(
        Step(
            _(
                # Translators: {card} is a card such as "A♣"; {ordinal} is "first", "second",
                # "third" or "fourth" (the card's place in the order of play).
                "{card} is the highest trump played, so the {ordinal} card wins the trick "
                "and its player leads the next one.",
                card=cards[winner].label,
                ordinal=_ORDINALS[winner],
            ),
            "pitch-play",
        )
    )
    return TrickResult(winner=winner, explanation=tuple(steps))


def _not_a_trump(played: Card, suit: str) -> str:
    return _(
        # Translators: {card} is the card played, e.g. "7♥"; {suits} the trump suit, e.g.
        # "clubs"; {off_jack} the jack of the same colour, e.g. "J♠".
        "{card} is not a trump when {suits} are trump: only {suits}, the {off_jack} and "
        "the two jokers are. Everyone throws away their other cards before the first "
        "trick, so it cannot be played.",
        card=played.label,
        suits=SUIT_NAMES[suit],
        off_jack=Card("J", _SAME_COLOUR[suit]).label,
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
    if value == MOON:
        return None
    if value == PASS:
        if allow_pass:
            return None
        return _(
            "A hand is only scored after someone bid: give the winning bid, "
            '{lowest} to {highest} or "moon".',
            lowest=LOWEST_BID,
            highest=HIGHEST_BID,
        )
    if isinstance(value, bool) or not isinstance(value, int):
        if allow_pass:
            return _(
                # Translators: "moon" is the word to type for a moon bid; keep it as it is.
                'A bid is a number from {lowest} to {highest}, "moon" or "pass"; got {value}.',
                lowest=LOWEST_BID,
                highest=HIGHEST_BID,
                value=_shown(value),
            )
        return _(
            # Translators: "moon" and "pass" are the words to type; keep them as they are.
            # {value} is what was given, e.g. '"ten"' or 'nothing'.
            'A bid is a number from {lowest} to {highest} or "moon"; got {value}.',
            lowest=LOWEST_BID,
            highest=HIGHEST_BID,
            value=_shown(value),
        )
    if value < LOWEST_BID:
        return _(
            # Translators: "moon" is the word to type; keep it as it is. {value} is what was
            # given, e.g. '"ten"' or 'nothing'.
            "{bid} is below the lowest bid: bids run from {lowest} to {highest}.",
            bid=value,
            lowest=LOWEST_BID,
            highest=HIGHEST_BID,
        )
    if value > HIGHEST_BID:
        return _(
            # Translators: "moon" is the word to type; keep it as it is.
            "{bid} is above the highest numbered bid, {highest}; "
            'to bid for all {total} points, bid "moon".',
            bid=value,
            highest=HIGHEST_BID,
            total=TOTAL_POINTS,
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
                _(
                    # Translators: {seat} is e.g. "the dealer's partner".
                    "Bidding stopped when {seat} bid moon, the highest bid; no call can follow it.",
                    seat=_BIDDING_SEATS[moon_seat],
                ),
            )
            continue
        if i >= len(_BIDDING_SEATS):
            problems.add(
                field,
                _(
                    "Each of the four players calls once and the dealer calls last, "
                    "so there is no call after the fourth."
                ),
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
            _(
                # Translators: {count} is how many calls were given, 0 to 3.
                "The bidding is not over: {count} of 4 calls. It ends with the dealer's "
                "call, or earlier only when someone bids moon.",
                count=len(bids),
            ),
        )
    elif options is not None and options.all_pass == "dealer_4" and _dealer_passed_alone(bids):
        problems.add(
            "bids.3",
            _(
                "The first three passed, so the dealer must bid: {lowest} or more, or moon. "
                "(This sheet plays that rule; the other choice is a redeal.)",
                lowest=LOWEST_BID,
            ),
        )
    problems.raise_if_any()
    return _bidding_result(bids, high, cast(PitchOptions, options))


def _dealer_passed_alone(bids: Sequence[int | str]) -> bool:
    seats = len(_BIDDING_SEATS)
    return len(bids) >= seats and all(call == PASS for call in bids[:seats])


def _not_higher(call: int | str, high: int | str) -> str:
    # Moon outranks every number and bidding stops there, so both are numbers here.
    if high == HIGHEST_BID:
        return _(
            "{bid} is not higher than the {high} already bid; each bid must beat the one "
            'before: bid "moon" or pass.',
            bid=call,
            high=high,
        )
    return _(
        # Translators: "moon" is the word to type; keep it as it is.
        # Translators: "moon" is the word to type; keep it as it is. {next} is the lowest
        # bid that would beat {high}.
        "{bid} is not higher than the {high} already bid; each bid must beat the one "
        'before: bid {next} or more, "moon", or pass.',
        bid=call,
        high=high,
        next=int(high) + 1,
    )


def _bidding_result(
    bids: Sequence[int | str], high: tuple[int, int | str] | None, options: PitchOptions
) -> BiddingResult:
    calls = join(", ", [_call_words(_BIDDING_SEATS[i], call) for i, call in enumerate(bids)])
    # Translators: {calls} lists every call, e.g. "the player left of the dealer passed,
    # the dealer's partner bid 5, …".
    steps = [Step(_("From the dealer's left: {calls}.", calls=calls), "pitch-bidding")]
    if high is None:
        steps.append(
            Step(
                _(
                    "All four passed; this sheet deals the cards again rather than make the "
                    "dealer bid."
                ),
                "pitch-bidding",
            )
        )
        return BiddingResult(pitcher=None, bid=None, redeal=True, explanation=tuple(steps))
    seat, bid = high
    if seat == 3 and options.all_pass == "dealer_4" and all(call == PASS for call in bids[:3]):
        steps.append(Step(_("The first three passed, so the dealer had to bid."), "pitch-bidding"))
    if bid == MOON:
        steps.append(
            Step(
                capitalised(
                    _(
                        # Translators: {seat} is e.g. "the dealer's partner".
                        "{seat} bid moon, the highest bid: their team must take all {total} "
                        "points, and the bidding is over.",
                        seat=_BIDDING_SEATS[seat],
                        total=TOTAL_POINTS,
                    )
                ),
                "pitch-moon",
            )
        )
        highest = _(
            "The highest bid is moon, so {seat} is the pitcher and names trump.",
            seat=_BIDDING_SEATS[seat],
        )
    else:
        highest = _(
            # Translators: {seat} is e.g. "the dealer's partner".
            # Translators: {bid} is a number from 4 to 9; {seat} is e.g. "the dealer's partner".
            "The highest bid is {bid}, so {seat} is the pitcher and names trump.",
            bid=bid,
            seat=_BIDDING_SEATS[seat],
        )
    steps.append(Step(highest, "pitch-bidding"))
    return BiddingResult(pitcher=seat, bid=bid, redeal=False, explanation=tuple(steps))


def _call_words(seat: str, call: int | str) -> str:
    """One call of the bidding, e.g. "the dealer bid 5"."""
    if call == PASS:
        # Translators: {seat} is e.g. "the dealer's partner"; one item of a list of calls.
        return _("{seat} passed", seat=seat)
    if call == MOON:
        # Translators: {seat} is e.g. "the dealer's partner"; one item of a list of calls.
        return _("{seat} bid moon", seat=seat)
    # Translators: {seat} is e.g. "the dealer's partner"; {bid} is a number from 4 to 9.
    return _("{seat} bid {bid}", seat=seat, bid=call)


# -- Scoring a hand --------------------------------------------------------------


@dataclass(frozen=True)
class HandResult:
    made: bool
    taken: dict[str, int]
    delta: dict[str, int]
    scores_after: dict[str, int]
    game_over: bool
    winner: str | None
    explanation: Explanation


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

    The explanation is worded when it is first read (:class:`Explanation`).
    """
    return _scored(_check_hand(bid, pitcher_team, points, scores_before, options), None)


def _scored(hand: _Hand, say: list[Step] | None) -> HandResult:
    """Score a checked hand. With ``say``, every step of the explanation is appended to
    it as the hand is scored: deciding and wording follow the same branches, so the
    words always say what was decided."""
    taken = dict.fromkeys(TEAMS, 0)
    for key, holder in hand.points.items():
        if holder != OUT:
            taken[holder] += POINT_CARDS[key]
    if say is not None:
        say.extend(_points_steps(hand, taken))
    if hand.bid == MOON:
        made, delta, winner = _score_moon(hand, taken, say)
    else:
        made, delta = _score_numbered_bid(hand, taken, say)
    after = {team: hand.before[team] + delta[team] for team in TEAMS}
    if say is not None:
        say.append(_scores_step(hand, after))
    # A moon settles the end of the game by itself (won, lost, or on at 0); any other
    # hand ends the game only when a team reaches the target.
    if hand.bid != MOON:
        winner = _game_end(hand, made, after, say)
    return HandResult(
        made=made,
        taken=taken,
        delta=delta,
        scores_after=after,
        game_over=winner is not None,
        winner=winner,
        explanation=Explanation(_explain_hand, hand),
    )


def _explain_hand(hand: _Hand) -> list[Step]:
    """The explanation of a checked hand: the hand scored again, saying every step."""
    steps: list[Step] = []
    _scored(hand, steps)
    return steps


def _scores_step(hand: _Hand, after: dict[str, int]) -> Step:
    changes = [
        _(
            # Translators: one team's score before and after the hand, e.g. "team A 12 → 17".
            "team {team} {before} → {after}",
            team=t,
            before=number(hand.before[t]),
            after=number(after[t]),
        )
        for t in TEAMS
    ]
    # Translators: {scores} is e.g. "team A 12 → 17, team B 30 → 30".
    return Step(_("Scores: {scores}.", scores=join(", ", changes)), "pitch-game-end")


def _points_steps(hand: _Hand, taken: dict[str, int]) -> list[Step]:
    steps = []
    for team in TEAMS:
        names = [POINT_CARD_NAMES[k] for k in POINT_CARDS if hand.points[k] == team]
        if names:
            text = _(
                "Team {team} took the {cards}: {points}.",
                team=team,
                cards=joined(names),
                points=_points_words(taken[team]),
            )
        else:
            # Translators: {team} is "A" or "B".
            # Translators: {team} is "A" or "B"; {cards} lists point cards, e.g. "ace,
            # jack and three"; {points} is e.g. "5 points".
            text = _("Team {team} took no points.", team=team)
        steps.append(Step(text, "pitch-points"))
    if hand.options.two_goes_to == "player" and hand.points["two"] != OUT:
        steps.append(
            Step(
                _(
                    # Translators: {team} is "A" or "B".
                    "On this sheet the two scores for the team that played it, whoever won "
                    "the trick: team {team}.",
                    team=hand.points["two"],
                ),
                "pitch-two",
            )
        )
    out = [POINT_CARD_NAMES[k] for k in POINT_CARDS if hand.points[k] == OUT]
    if out:
        steps.append(
            Step(
                ngettext(
                    # Translators: {cards} lists point cards, e.g. "jack and three"; {in_play}
                    # is how many of the {total} points were in play.
                    "The {cards} was out of play, so nobody scores it: {in_play} of the "
                    "{total} points were in play.",
                    "The {cards} were out of play, so nobody scores them: {in_play} of the "
                    "{total} points were in play.",
                    len(out),
                    cards=joined(out),
                    in_play=sum(taken.values()),
                    total=TOTAL_POINTS,
                ),
                "pitch-points",
            )
        )
    return steps


def _score_numbered_bid(
    hand: _Hand, taken: dict[str, int], say: list[Step] | None
) -> tuple[bool, dict[str, int]]:
    bid = int(hand.bid)
    pitcher, opponents = hand.pitcher, hand.opponents
    made = taken[pitcher] >= bid
    delta = {opponents: taken[opponents]}
    if made and hand.options.made_scores == "bid":
        delta[pitcher] = bid
        if say is not None:
            text = _(
                # Translators: {team} is "A" or "B"; {taken} is how many points it took.
                "Team {team} bid {bid} and took {taken}, so it made its bid; on this "
                "sheet a made bid scores the bid: {bid}.",
                team=pitcher,
                bid=bid,
                taken=taken[pitcher],
            )
            say.append(Step(text, "pitch-made"))
    elif made:
        delta[pitcher] = taken[pitcher]
        if say is not None:
            text = _(
                # Translators: {team} is "A" or "B"; {taken} is how many points it took and
                # {points} the same as words, e.g. "5 points".
                "Team {team} bid {bid} and took {taken}, so it made its bid and "
                "scores the {points} it took.",
                team=pitcher,
                bid=bid,
                taken=taken[pitcher],
                points=_points_words(taken[pitcher]),
            )
            say.append(Step(text, "pitch-made"))
    else:
        delta[pitcher] = -bid
        if say is not None and hand.before[pitcher] - bid < 0:
            text = _(
                "Team {team} bid {bid} but took only {taken}, so it is set: "
                "its bid of {bid} is taken off its score. Scores can go below zero.",
                team=pitcher,
                bid=bid,
                taken=taken[pitcher],
            )
            say.append(Step(text, "pitch-set"))
        elif say is not None:
            text = _(
                # Translators: {team} is "A" or "B"; {taken} is how many points it took.
                # Translators: {team} is "A" or "B"; {taken} is how many points it took.
                "Team {team} bid {bid} but took only {taken}, so it is set: "
                "its bid of {bid} is taken off its score.",
                team=pitcher,
                bid=bid,
                taken=taken[pitcher],
            )
            say.append(Step(text, "pitch-set"))
    if say is not None:
        say.append(_opponents_step(opponents, taken[opponents]))
    return made, {team: delta[team] for team in TEAMS}


def _opponents_step(opponents: str, points: int) -> Step:
    if points:
        text = _(
            "Team {team}, the opponents, score the {points} they took.",
            team=opponents,
            points=_points_words(points),
        )
    else:
        # Translators: {team} is "A" or "B".
        # Translators: {team} is "A" or "B"; {points} is e.g. "3 points".
        text = _("Team {team}, the opponents, took nothing and score nothing.", team=opponents)
    return Step(text, "pitch-opponents")


def _score_moon(
    hand: _Hand, taken: dict[str, int], say: list[Step] | None
) -> tuple[bool, dict[str, int], str | None]:
    pitcher, opponents = hand.pitcher, hand.opponents
    before = hand.before[pitcher]
    target = hand.options.target
    if taken[pitcher] < TOTAL_POINTS:
        if say is not None:
            say.extend(_failed_moon_steps(hand, taken))
        delta = {pitcher: 0, opponents: taken[opponents]}
        return False, {team: delta[team] for team in TEAMS}, opponents

    if say is not None:
        say.append(
            Step(
                _(
                    # Translators: {team} is "A" or "B".
                    "Team {team} bid moon and took all {total} points.",
                    team=pitcher,
                    total=TOTAL_POINTS,
                ),
                "pitch-moon",
            )
        )
    winner: str | None
    if before > 0:
        # A made moon wins outright; under bid-out a team can already stand above the
        # target, and the moon must not lower its score.
        new = max(before, target)
        winner = pitcher
        if say is not None and before > target:
            text = _(
                "Team {team} already had {score}, above the target of {target}; a made "
                "moon does not lower it, and team {team} wins the game at once.",
                team=pitcher,
                score=before,
                target=target,
            )
            say.append(Step(text, "pitch-moon"))
        elif say is not None:
            text = _(
                # Translators: {team} is "A" or "B"; {score} is its score before the hand.
                # Translators: {team} is "A" or "B"; {score} is its score before the hand.
                "Team {team} had {score}, above zero, so its score becomes the target, "
                "{target}, and it wins the game at once.",
                team=pitcher,
                score=before,
                target=target,
            )
            say.append(Step(text, "pitch-moon"))
    else:
        new = 0
        winner = None
        if say is not None:
            text = _(
                # Translators: {team} is "A" or "B"; {score} is its score before the hand.
                "Team {team} had {score}, not above zero, so its score becomes 0 and play goes on.",
                team=pitcher,
                score=number(before),
            )
            say.append(Step(text, "pitch-moon"))
    if say is not None:
        say.append(_opponents_step(opponents, taken[opponents]))
    delta = {pitcher: new - before, opponents: taken[opponents]}
    return True, {team: delta[team] for team in TEAMS}, winner


def _failed_moon_steps(hand: _Hand, taken: dict[str, int]) -> list[Step]:
    pitcher, opponents = hand.pitcher, hand.opponents
    before = hand.before[pitcher]
    out = [POINT_CARD_NAMES[k] for k in POINT_CARDS if hand.points[k] == OUT]
    if out:
        reason = _(
            "With the {cards} out of play, team {team} could not take all "
            "{total} points, so its moon fails.",
            cards=joined(out),
            team=pitcher,
            total=TOTAL_POINTS,
        )
    else:
        reason = _(
            # Translators: {cards} lists point cards, e.g. "jack and three"; {team} is
            # "A" or "B".
            "Team {team} bid moon but took only {taken} of the {total} points, so its moon fails.",
            team=pitcher,
            taken=taken[pitcher],
            total=TOTAL_POINTS,
        )
    if taken[opponents]:
        lost = _(
            # Translators: {team} is "A" or "B"; {taken} is how many points it took.
            # Translators: {pitcher} and {opponents} are teams, "A" or "B"; {score} is the
            # pitcher's score before the hand; {points} is e.g. "3 points".
            "A failed moon loses the game at once: team {pitcher} keeps its {score}, "
            "and team {opponents} adds the {points} it took and wins the game.",
            pitcher=pitcher,
            score=number(before),
            opponents=opponents,
            points=_points_words(taken[opponents]),
        )
    else:
        lost = _(
            # Translators: {pitcher} and {opponents} are teams, "A" or "B"; {score} is the
            # pitcher's score before the hand.
            "A failed moon loses the game at once: team {pitcher} keeps its {score}, "
            "and team {opponents}, which took no points, keeps its score and wins the "
            "game.",
            pitcher=pitcher,
            score=number(before),
            opponents=opponents,
        )
    steps = [Step(reason, "pitch-moon"), Step(lost, "pitch-moon")]
    if hand.options.win_condition == "bid_out":
        # The moon rule ends the game outright, so the bid-out condition does not apply.
        steps.append(
            Step(
                _(
                    # Translators: {team} is "A" or "B".
                    "That holds on this sheet too, although team {team} did not pitch: "
                    "a failed moon ends the game whoever pitched.",
                    team=opponents,
                ),
                "pitch-moon",
            )
        )
    return steps


def _game_end(hand: _Hand, made: bool, after: dict[str, int], say: list[Step] | None) -> str | None:
    target = hand.options.target
    pitcher = hand.pitcher
    reached = [team for team in TEAMS if after[team] >= target]
    if hand.options.win_condition == "bid_out":
        return _game_end_bid_out(hand, made, after, reached, say)
    if not reached:
        if say is not None:
            say.append(_nobody_reached(target))
        return None
    if len(reached) == 2:
        if say is not None:
            say.append(
                Step(
                    _(
                        # Translators: {team} is "A" or "B".
                        "Both teams reached {target} on this hand; then the pitcher's team "
                        "wins, so team {team} wins the game.",
                        target=target,
                        team=pitcher,
                    ),
                    "pitch-game-end",
                )
            )
        return pitcher
    team = reached[0]
    if say is not None:
        say.append(
            Step(
                # Translators: {team} is "A" or "B".
                _("Team {team} reached {target} and wins the game.", team=team, target=target),
                "pitch-game-end",
            )
        )
    return team


def _nobody_reached(target: int) -> Step:
    return Step(
        _("Nobody has reached {target} yet, so play goes on.", target=target), "pitch-game-end"
    )


def _game_end_bid_out(
    hand: _Hand, made: bool, after: dict[str, int], reached: list[str], say: list[Step] | None
) -> str | None:
    target = hand.options.target
    pitcher = hand.pitcher
    if made and pitcher in reached:
        if say is not None:
            say.append(
                Step(
                    _(
                        # Translators: {team} is "A" or "B".
                        "Team {team} pitched, made its bid and reached {target}, so it wins "
                        "the game.",
                        team=pitcher,
                        target=target,
                    ),
                    "pitch-game-end",
                )
            )
        return pitcher
    if say is None:
        return None
    if not reached:
        say.append(_nobody_reached(target))
        return None
    for team in reached:
        if team == pitcher:
            text = _(
                # Translators: {team} is "A" or "B"; {score} is its score after the hand.
                "Team {team} has {score}, at or over {target}, but on this sheet a team "
                "wins only on a hand it pitched and made, and team {team} was set on this "
                "hand: play goes on.",
                team=team,
                score=after[team],
                target=target,
            )
        else:
            text = _(
                # Translators: {team} is "A" or "B"; {score} is its score after the hand.
                "Team {team} has {score}, at or over {target}, but on this sheet a team "
                "wins only on a hand it pitched and made, and team {team} did not pitch "
                "this hand: play goes on.",
                team=team,
                score=after[team],
                target=target,
            )
        say.append(Step(text, "pitch-game-end"))
    return None


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
            _(
                # Translators: "A" and "B" are the team letters to type; keep them as they are.
                'The pitcher\'s team is "A" (seats 1 and 3) or "B" (seats 2 and 4); got {value}.',
                value=_shown(pitcher_team),
            ),
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
            _(
                # Translators: the example is what to type; keep it as it is.
                'Say which team took each point card, like {"ace": "A", "jack": "B", ..., '
                '"three": "out"}.'
            ),
        )
        return None
    checked: dict[str, str] = {}
    for key in points:
        if key not in POINT_CARDS:
            problems.add("points", _unknown_point_card(str(key)))
    for key, name in POINT_CARD_NAMES.items():
        if key not in points:
            problems.add(
                f"points.{key}",
                _('Say who took the {card}: "A", "B", or "out" if it was out of play.', card=name),
            )
        elif points[key] not in (*TEAMS, OUT) or not isinstance(points[key], str):
            problems.add(
                f"points.{key}",
                _(
                    # Translators: {card} is a point card, e.g. "off-jack"; "A", "B" and "out"
                    # are what to type; keep them as they are.
                    # Translators: {card} is a point card, e.g. "off-jack"; "A", "B" and "out"
                    # are what to type; keep them as they are.
                    'The {card} goes to team "A" or "B", or is "out" of play; got {value}.',
                    card=name,
                    value=_shown(points[key]),
                ),
            )
        else:
            checked[key] = points[key]
    return checked if len(checked) == len(POINT_CARDS) else None


# A score before a hand is at most this far from zero (the JSON API's bound for any
# whole number): a game to 52 never comes near it.
MOST_SCORE = 10**9


def _check_scores(scores: object, problems: ProblemCollector) -> dict[str, int] | None:
    if scores is None:
        return dict.fromkeys(TEAMS, 0)
    if not isinstance(scores, Mapping):
        problems.add(
            "scores_before",
            _(
                # Translators: the example is what to type; keep it as it is.
                'Give the scores before the hand as {{"A": 0, "B": 0}}; got {value}.',
                value=_shown(scores),
            ),
        )
        return None
    for key in scores:
        if key not in TEAMS:
            problems.add(
                "scores_before",
                # Translators: {key} is what was typed as a team.
                _('"{key}" is not a team: the teams are "A" and "B".', key=str(key)),
            )
    checked: dict[str, int] = {}
    for team in TEAMS:
        value = scores.get(team)
        if team not in scores:
            problems.add(
                f"scores_before.{team}",
                # Translators: {team} is "A" or "B".
                _("Give team {team}'s score before the hand.", team=team),
            )
        elif isinstance(value, bool) or not isinstance(value, int):
            problems.add(
                f"scores_before.{team}",
                _(
                    # Translators: {team} is "A" or "B".
                    "Team {team}'s score is a whole number (it may be below zero); got {value}.",
                    team=team,
                    value=_shown(value),
                ),
            )
        elif abs(value) > MOST_SCORE:
            problems.add(
                f"scores_before.{team}",
                _(
                    # Translators: {team} is "A" or "B"; {most} a number.
                    "Team {team}'s score is far too large: a score runs from −{most} to {most}.",
                    team=team,
                    most=MOST_SCORE,
                ),
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
    return ngettext("{n} point", "{n} points", n, n=n)


def _close_match(word: str, choices: Mapping[str, Any]) -> str | None:
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return close[0] if close else None


def _unknown_option(name: str, known: Mapping[str, Any]) -> str:
    close = _close_match(name, known)
    # The option names are codes to type, so they are listed as they are.
    options = ", ".join(known)
    if close:
        return _(
            '"{name}" is not a Pitch option. Did you mean "{suggestion}"? '
            "The options are {options}.",
            name=name,
            suggestion=close,
            options=options,
        )
    return _(
        # Translators: {name} is what was typed, {suggestion} a close option name and
        # {options} the list of option names (codes, kept as they are).
        # Translators: {name} is what was typed and {options} the list of option names
        # (codes, kept as they are).
        '"{name}" is not a Pitch option. The options are {options}.',
        name=name,
        options=options,
    )


def _unknown_point_card(key: str) -> str:
    close = _close_match(key, POINT_CARDS)
    # The point card keys are codes to type, so they are listed as they are.
    keys = ", ".join(POINT_CARDS)
    if close:
        return _(
            # Translators: {key} is what was typed, {suggestion} a close point card key and
            # {keys} the list of point card keys (codes, kept as they are).
            '"{key}" is not a point card. Did you mean "{suggestion}"? The point cards are {keys}.',
            key=key,
            suggestion=close,
            keys=keys,
        )
    return _('"{key}" is not a point card. The point cards are {keys}.', key=key, keys=keys)


def _shown(value: object) -> str:
    """A value as a player typed it, for a message (what follows "got")."""
    if value is None:
        # Translators: {key} is what was typed and {keys} the list of point card keys (codes,
        # kept as they are).
        return pgettext("value given", "nothing")
    if isinstance(value, bool):
        # JSON's words, as typed.
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:20] + "…"
        return f'"{shown}"'
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, list | tuple):
        return pgettext("value given", "a list")
    if isinstance(value, Mapping):
        return pgettext("value given", "an object")
    return pgettext("value given", "something else")
