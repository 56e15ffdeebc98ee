"""How high may I bid? The safe bid from the declarer's ten cards, before the skat is seen.

Matadors are counted on the declarer's ten cards together with the two skat cards,
also in a hand game, and while the bidding runs nobody has seen the skat. So the
value of a suit or grand game is only certain in its worst case: this module tries
every skat the 22 unseen cards can make (231 of them), groups them by the matadors
they give, and bids no higher than the lowest value among them. Schneider and schwarz
count only when announced, because before the play nobody can promise them.
Null has a fixed value, so its limit is that value whatever the cards.

Problem fields are the names of the "How high may I bid?" form: ``game``, ``cards``
(the ten cards), ``hand``, ``ouvert`` and ``announced``.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from . import skat
from .cards import SKAT_DECK, Card, labels
from .errors import ProblemCollector, Step

# Every anchor this module cites; all of them are sections the Skat rule book already
# has for the game value and bidding rules, so the titles come from there.
RULE_SECTIONS: dict[str, str] = {
    anchor: skat.RULE_SECTIONS[anchor]
    for anchor in (
        "skat-game-value",
        "skat-matadors",
        "skat-levels",
        "skat-announcements",
        "skat-ouvert",
        "skat-null",
        "skat-bids",
        "skat-overbid",
    )
}

HAND_SIZE = 10
SKAT_SIZE = 2
UNSEEN = len(SKAT_DECK) - HAND_SIZE  # 22 cards: the other two hands and the skat
POSSIBLE_SKATS = math.comb(UNSEEN, SKAT_SIZE)  # 231


@dataclass(frozen=True)
class SkatCase:
    """What the skat does to the matadors: every skat that gives the same count.

    ``in_skat`` are the trumps the skat must hold for this case and ``not_in_skat``
    the trumps it must not hold; ``skats`` is how many of the 231 possible skats do,
    and ``condition`` says it in words ("If the skat holds J♣ but no J♠").
    """

    matadors: skat.Matadors
    multiplier: int
    value: int
    skats: int
    in_skat: tuple[Card, ...]
    not_in_skat: tuple[Card, ...]
    condition: str


@dataclass(frozen=True)
class BidLimit:
    """The highest bid a declaration is sure to be worth, and what the skat can change.

    For a suit or grand game ``matadors``, ``levels`` and ``multiplier`` are those of
    the worst skat, the one the safe value rests on; ``by_skat`` lists every case, the
    one where the skat holds none of the deciding trumps first. Null has a fixed value:
    no matadors, no levels and no cases.
    """

    contract: str
    base_value: int
    safe_bid: int
    safe_value: int
    best_value: int
    multiplier: int | None
    matadors: skat.Matadors | None
    levels: tuple[tuple[str, int], ...]
    by_skat: tuple[SkatCase, ...]
    explanation: tuple[Step, ...]


def bid_limit(
    *,
    game: str,
    cards: Sequence[Card],
    hand: bool = False,
    ouvert: bool = False,
    announced: str = "none",
) -> BidLimit:
    """The highest safe bid for ``game`` declared on these ten cards, skat unseen."""
    problems = ProblemCollector()
    if game not in skat.GAMES:
        problems.add("game", skat.unknown_game_message(game))
    # The same checks as when the game is scored, so a declaration is judged alike
    # on every page: announcing and open suit games need a hand game, and so on.
    skat.check_declaration(
        game=game,
        hand=hand,
        ouvert=ouvert,
        announced=announced,
        kontra=False,
        re=False,
        problems=problems,
    )
    _check_ten_cards(cards, problems)
    problems.raise_if_any()
    contract = skat.contract_name(game=game, hand=hand, ouvert=ouvert, announced=announced)
    if game == "null":
        return _null_limit(contract)
    return _suit_limit(game, contract, cards, hand=hand, ouvert=ouvert, announced=announced)


def _check_ten_cards(cards: Sequence[Card], problems: ProblemCollector) -> None:
    if len(cards) != HAND_SIZE:
        message = (
            f"Give the {HAND_SIZE} cards you were dealt, the hand you bid with; "
            f"you gave {len(cards)}."
        )
        if len(cards) == HAND_SIZE + SKAT_SIZE:
            message += " Leave the skat out: nobody knows it while bidding."
        problems.add("cards", message)
    skat.check_skat_cards(cards, "cards", problems)


# ---------------------------------------------------------------------------
# Null


def _null_limit(contract: str) -> BidLimit:
    value = skat.NULL_VALUES[contract]
    steps = (
        Step(
            f"{contract} has a fixed value of {value}: no matadors and no levels, so neither "
            "your cards nor the skat change it.",
            "skat-null",
        ),
        Step(f"You can safely bid up to {value}.", "skat-bids"),
    )
    return BidLimit(
        contract=contract,
        base_value=value,
        safe_bid=value,
        safe_value=value,
        best_value=value,
        multiplier=None,
        matadors=None,
        levels=(),
        by_skat=(),
        explanation=steps,
    )


# ---------------------------------------------------------------------------
# Suit and grand games


def _won_outcome(ouvert: bool, announced: str) -> str:
    # The value a declaration is sure of is the value of the game just won: an announced
    # schneider or schwarz must be reached (or the game is lost anyway), an open game
    # counts as schwarz announced, and nothing unannounced is counted.
    if ouvert or announced == "schwarz":
        return "won_schwarz"
    if announced == "schneider":
        return "won_schneider"
    return "won"


def _suit_limit(
    game: str,
    contract: str,
    cards: Sequence[Card],
    *,
    hand: bool,
    ouvert: bool,
    announced: str,
) -> BidLimit:
    order = skat.trumps(game)
    held = set(cards)
    unseen = [c for c in SKAT_DECK.kinds if c not in held]
    groups: dict[skat.Matadors, list[tuple[Card, ...]]] = {}
    for pair in combinations(unseen, SKAT_SIZE):
        matadors = skat.count_matadors(game=game, cards=[*cards, *pair])
        groups.setdefault(matadors, []).append(pair)
    scored = {}
    for matadors, pairs in groups.items():
        # Any skat of the group gives the same value; the referee scores it as won.
        scored[matadors] = skat.score_game(
            game=game,
            bid=skat.BIDS[0],
            hand=hand,
            ouvert=ouvert,
            announced=announced,
            declarer_cards=[*cards, *pairs[0]],
            outcome=_won_outcome(ouvert, announced),
        )
    cases = [
        _case(matadors, scored[matadors], pairs, order, held) for matadors, pairs in groups.items()
    ]
    # The skat holding none of the deciding trumps first, then by the highest trump it
    # must hold, the way a player runs through the possibilities.
    cases.sort(key=lambda case: [order.index(t) for t in case.in_skat])
    safe_value = min(case.value for case in cases)
    worst = [case for case in cases if case.value == safe_value]
    best = max(case.value for case in cases)
    result = scored[worst[0].matadors]
    base = skat.BASE_VALUES[game]
    # The highest bid the worst case reaches: every value a suit or grand game can have
    # is itself a legal bid, so that is the worst value.
    safe_bid = skat.BIDS[bisect.bisect_right(skat.BIDS, safe_value) - 1]
    steps = [
        Step(_base_text(contract, game, base), "skat-game-value"),
        Step(
            f"Matadors count your {HAND_SIZE} cards and the {SKAT_SIZE} skat cards, even in a "
            f"hand game; while you bid, the skat can be any {SKAT_SIZE} of the {UNSEEN} cards "
            f"you cannot see: {POSSIBLE_SKATS} possible skats.",
            "skat-matadors",
        ),
        Step(_own_trumps(game, order, held), "skat-matadors"),
        *(Step(_case_text(case, base), "skat-matadors") for case in cases),
        *_announcement_steps(ouvert, announced),
        Step(_levels_text(result, worst, several=len(cases) > 1), "skat-levels"),
        Step(
            f"{worst[0].multiplier} × {base} = {safe_value}: the least this declaration is "
            "worth with these cards.",
            "skat-game-value",
        ),
        Step(_safe_text(safe_bid), "skat-bids"),
        Step(_above_text(safe_bid, best, ouvert, announced), "skat-overbid"),
    ]
    return BidLimit(
        contract=contract,
        base_value=base,
        safe_bid=safe_bid,
        safe_value=safe_value,
        best_value=best,
        multiplier=worst[0].multiplier,
        matadors=worst[0].matadors,
        levels=result.levels,
        by_skat=tuple(cases),
        explanation=tuple(steps),
    )


def _base_text(contract: str, game: str, base: int) -> str:
    name = skat.GAME_NAMES[game]
    said = f"{name} counts {base} a level."
    return said if contract == name else f"{contract}: {said}"


def _case(
    matadors: skat.Matadors,
    result: skat.GameResult,
    pairs: list[tuple[Card, ...]],
    order: tuple[Card, ...],
    held: set[Card],
) -> SkatCase:
    """The trumps every skat of the group holds, and the ones none of them holds."""
    unseen_trumps = [t for t in order if t not in held]
    in_skat = tuple(t for t in unseen_trumps if all(t in pair for pair in pairs))
    not_in_skat = ()
    # A skat whose two cards are both named needs no list of what it lacks.
    if len(in_skat) < SKAT_SIZE:
        not_in_skat = tuple(t for t in unseen_trumps if not any(t in pair for pair in pairs))
    assert result.multiplier is not None
    return SkatCase(
        matadors=matadors,
        multiplier=result.multiplier,
        value=result.game_value,
        skats=len(pairs),
        in_skat=in_skat,
        not_in_skat=not_in_skat,
        condition=_condition(in_skat, not_in_skat, order),
    )


def _condition(
    in_skat: tuple[Card, ...], not_in_skat: tuple[Card, ...], order: tuple[Card, ...]
) -> str:
    if len(in_skat) == SKAT_SIZE:
        return f"If the skat is {in_skat[0].label} and {in_skat[1].label}"
    if not in_skat:
        return (
            f"If the skat holds {_none_of(not_in_skat, order)}"
            if not_in_skat
            else "Whatever the skat holds"
        )
    held = f"If the skat holds {in_skat[0].label}"
    if not not_in_skat:
        return held
    if len(not_in_skat) > 2 and not_in_skat == order[: len(not_in_skat)]:
        return f"{held} but no higher trump"
    return f"{held} but {_none_of(not_in_skat, order)}"


def _none_of(trumps: tuple[Card, ...], order: tuple[Card, ...]) -> str:
    if len(trumps) == 1:
        return f"no {trumps[0].label}"
    if len(trumps) == 2:
        return f"neither {trumps[0].label} nor {trumps[1].label}"
    # Longer lists only come from "against" counts: every trump above a card, from the top.
    if trumps == order:
        return "no trump at all"
    return f"no trump above {order[len(trumps)].label}"


def _own_trumps(game: str, order: tuple[Card, ...], held: set[Card]) -> str:
    """What the ten cards show on their own, before the skat is thought of."""
    name = skat.GAME_NAMES[game]
    if order[0] in held:
        run = 0
        while run < len(order) and order[run] in held:
            run += 1
        if run == len(order):
            return f"Your {HAND_SIZE} cards hold every trump of {name}."
        return (
            f"Your {HAND_SIZE} cards hold {labels(order[:run])} from the top and miss "
            f"{order[run].label}."
        )
    highest = next((t for t in order if t in held), None)
    if highest is None:
        return f"Your {HAND_SIZE} cards hold no trump of {name}."
    return f"Your {HAND_SIZE} cards miss {order[0].label}; your highest trump is {highest.label}."


def _case_text(case: SkatCase, base: int) -> str:
    share = (
        f"all {POSSIBLE_SKATS} possible skats"
        if case.skats == POSSIBLE_SKATS
        else f"{case.skats} of the {POSSIBLE_SKATS} possible skats"
    )
    return (
        f"{case.condition}: {case.matadors.label}, worth {case.multiplier} × {base} = "
        f"{case.value} ({share})."
    )


def _announcement_steps(ouvert: bool, announced: str) -> list[Step]:
    if ouvert:
        return [
            Step(
                "An open game counts as schwarz announced: schneider, schwarz, both "
                "announcements and ouvert all count, since the game is lost without them.",
                "skat-ouvert",
            )
        ]
    if announced == "schneider":
        return [
            Step(
                "Schneider is announced: schneider and its announcement count for certain, "
                "since the game is lost without them.",
                "skat-announcements",
            )
        ]
    if announced == "schwarz":
        return [
            Step(
                "Schwarz is announced: schneider, schwarz and both announcements count for "
                "certain, since the game is lost without them.",
                "skat-announcements",
            )
        ]
    return []


def _levels_text(result: skat.GameResult, worst: list[SkatCase], *, several: bool) -> str:
    added = " + ".join(f"{label} ({count})" for label, count in result.levels)
    total = f"{added} = {worst[0].multiplier} levels"
    if len(worst) > 1:
        either = " and ".join(case.matadors.label for case in worst)
        return f"The worst cases, {either}, count the same: {total}."
    if several:
        return f"The worst case is {worst[0].matadors.label}: {total}."
    return f"Levels: {total}."


def _safe_text(safe_bid: int) -> str:
    return f"You can safely bid up to {safe_bid}: whatever the skat holds, the game reaches it."


def _above_text(safe_bid: int, best: int, ouvert: bool, announced: str) -> str:
    if safe_bid == skat.HIGHEST_BID:
        return f"No game is worth more and no bid is higher than {skat.HIGHEST_BID}."
    if ouvert or announced == "schwarz":
        if best > safe_bid:
            return (
                f"A helpful skat makes it worth up to {best}; every other level already counts, "
                f"so above {safe_bid} only that skat saves the game from being overbid and lost."
            )
        return (
            "Every level already counts and the skat cannot add matadors: "
            f"a bid above {safe_bid} would be overbid."
        )
    luck = (
        "schwarz, which nobody can promise before the play"
        if announced == "schneider"
        else "schneider or schwarz, which nobody can promise before the play"
    )
    if best > safe_bid:
        return (
            f"A helpful skat makes it worth up to {best}; above {safe_bid} you need that skat "
            f"or {luck}, or the game is overbid and lost."
        )
    return (
        f"The skat cannot add matadors: above {safe_bid} you need {luck}, "
        "or the game is overbid and lost."
    )
