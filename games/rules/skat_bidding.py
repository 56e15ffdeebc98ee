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
from .text import _, ngettext
from .words import joined

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
        return _null_limit(contract, skat.null_value(hand=hand, ouvert=ouvert))
    return _suit_limit(game, contract, cards, hand=hand, ouvert=ouvert, announced=announced)


def _check_ten_cards(cards: Sequence[Card], problems: ProblemCollector) -> None:
    if len(cards) != HAND_SIZE:
        if len(cards) == HAND_SIZE + SKAT_SIZE:
            message = _(
                # Translators: {hand_size} is 10, the cards dealt to each player; {count} how
                # many were given (12, the skat included).
                "Give the {hand_size} cards you were dealt, the hand you bid with; "
                "you gave {count}. Leave the skat out: nobody knows it while bidding.",
                hand_size=HAND_SIZE,
                count=len(cards),
            )
        else:
            message = _(
                # Translators: {hand_size} is 10, the cards dealt to each player; {count} how
                # many were given.
                "Give the {hand_size} cards you were dealt, the hand you bid with; "
                "you gave {count}.",
                hand_size=HAND_SIZE,
                count=len(cards),
            )
        problems.add("cards", message)
    skat.check_skat_cards(cards, "cards", problems)


# ---------------------------------------------------------------------------
# Null


def _null_limit(contract: str, value: int) -> BidLimit:
    steps = (
        Step(
            _(
                # Translators: {contract} is e.g. "Null Ouvert Hand".
                "{contract} has a fixed value of {value}: no matadors and no levels, so neither "
                "your cards nor the skat change it.",
                contract=contract,
                value=value,
            ),
            "skat-null",
        ),
        Step(_("You can safely bid up to {value}.", value=value), "skat-bids"),
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
    plain = not hand and not ouvert and announced == "none"
    steps = [
        Step(_base_text(contract, game, base, plain=plain), "skat-game-value"),
        Step(
            _(
                # Translators: {hand_size} is 10, {skat_size} 2, {unseen} 22 and {possible} 231.
                "Matadors count your {hand_size} cards and the {skat_size} skat cards, even in a "
                "hand game; while you bid, the skat can be any {skat_size} of the {unseen} cards "
                "you cannot see: {possible} possible skats.",
                hand_size=HAND_SIZE,
                skat_size=SKAT_SIZE,
                unseen=UNSEEN,
                possible=POSSIBLE_SKATS,
            ),
            "skat-matadors",
        ),
        Step(_own_trumps(game, order, held), "skat-matadors"),
        *(Step(_case_text(case, base), "skat-matadors") for case in cases),
        *_announcement_steps(ouvert, announced),
        Step(_levels_text(result, worst, several=len(cases) > 1), "skat-levels"),
        Step(
            _(
                # Translators: {multiplier} is the number of levels, {base} the game's base value.
                "{multiplier} × {base} = {value}: the least this declaration is "
                "worth with these cards.",
                multiplier=worst[0].multiplier,
                base=base,
                value=safe_value,
            ),
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


def _base_text(contract: str, game: str, base: int, *, plain: bool) -> str:
    """``plain``: the contract is the game's bare name (no hand, ouvert or announcement)."""
    name = skat.GAME_NAMES[game]
    if plain:
        # Translators: {game} is a suit or "Grand"; {base} its base value.
        return _("{game} counts {base} a level.", game=name, base=base)
    # Translators: {contract} is e.g. "Clubs Hand, schneider announced"; {game} is the suit or
    # "Grand" alone; {base} its base value.
    return _("{contract}: {game} counts {base} a level.", contract=contract, game=name, base=base)


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


# Each condition starts a sentence: "If the skat holds J♣ but no J♠: with 2, worth …".
def _condition(
    in_skat: tuple[Card, ...], not_in_skat: tuple[Card, ...], order: tuple[Card, ...]
) -> str:
    if len(in_skat) == SKAT_SIZE:
        return _(
            # Translators: {first} and {second} are the two skat cards, such as "J♣" and "J♠".
            "If the skat is {first} and {second}",
            first=in_skat[0].label,
            second=in_skat[1].label,
        )
    if not in_skat:
        return _without(not_in_skat, order) if not_in_skat else _("Whatever the skat holds")
    held = in_skat[0].label
    if not not_in_skat:
        # Translators: {card} is a trump such as "J♣".
        return _("If the skat holds {card}", card=held)
    if len(not_in_skat) > 2 and not_in_skat == order[: len(not_in_skat)]:
        # Translators: {card} is a trump such as "J♥".
        return _("If the skat holds {card} but no higher trump", card=held)
    return _without(not_in_skat, order, held)


def _without(trumps: tuple[Card, ...], order: tuple[Card, ...], held: str | None = None) -> str:
    """The skat lacks ``trumps`` (and holds ``held`` when given)."""
    if len(trumps) == 1:
        if held is None:
            # Translators: {missing} is a trump such as "J♣".
            return _("If the skat holds no {missing}", missing=trumps[0].label)
        # Translators: {card} and {missing} are trumps such as "J♠" and "J♣".
        return _("If the skat holds {card} but no {missing}", card=held, missing=trumps[0].label)
    if len(trumps) == 2:
        if held is None:
            return _(
                # Translators: {first} and {second} are trumps such as "J♣" and "J♠".
                "If the skat holds neither {first} nor {second}",
                first=trumps[0].label,
                second=trumps[1].label,
            )
        return _(
            # Translators: {card}, {first} and {second} are trumps such as "J♥", "J♣" and "J♠".
            "If the skat holds {card} but neither {first} nor {second}",
            card=held,
            first=trumps[0].label,
            second=trumps[1].label,
        )
    # Longer lists only come from "against" counts: every trump above a card, from the top.
    if trumps == order:
        if held is None:
            return _("If the skat holds no trump at all")
        # Translators: {card} is a trump such as "J♣".
        return _("If the skat holds {card} but no trump at all", card=held)
    below = order[len(trumps)].label
    if held is None:
        # Translators: {card} is a trump such as "J♦"; the skat holds none of the trumps above it.
        return _("If the skat holds no trump above {card}", card=below)
    # Translators: {card} and {below} are trumps such as "A♣" and "J♦"; the skat holds {card}
    # and none of the other trumps above {below}.
    return _("If the skat holds {card} but no trump above {below}", card=held, below=below)


def _own_trumps(game: str, order: tuple[Card, ...], held: set[Card]) -> str:
    """What the ten cards show on their own, before the skat is thought of."""
    name = skat.GAME_NAMES[game]
    if order[0] in held:
        run = 0
        while run < len(order) and order[run] in held:
            run += 1
        if run == len(order):
            return _(
                # Translators: {hand_size} is 10; {game} is a suit or "Grand".
                "Your {hand_size} cards hold every trump of {game}.",
                hand_size=HAND_SIZE,
                game=name,
            )
        return _(
            # Translators: {hand_size} is 10; {cards} is the top trumps held, such as "J♣ J♠";
            # {missing} the next trump.
            "Your {hand_size} cards hold {cards} from the top and miss {missing}.",
            hand_size=HAND_SIZE,
            cards=labels(order[:run]),
            missing=order[run].label,
        )
    highest = next((t for t in order if t in held), None)
    if highest is None:
        # Translators: {hand_size} is 10; {game} is a suit or "Grand".
        return _("Your {hand_size} cards hold no trump of {game}.", hand_size=HAND_SIZE, game=name)
    return _(
        # Translators: {hand_size} is 10; {top} is the highest trump, J♣; {highest} a card.
        "Your {hand_size} cards miss {top}; your highest trump is {highest}.",
        hand_size=HAND_SIZE,
        top=order[0].label,
        highest=highest.label,
    )


def _case_text(case: SkatCase, base: int) -> str:
    if case.skats == POSSIBLE_SKATS:
        return _(
            # Translators: {condition} is e.g. "Whatever the skat holds"; {matadors} e.g. "with 2";
            # {multiplier} the levels, {base} the game's base value, {possible} 231.
            "{condition}: {matadors}, worth {multiplier} × {base} = {value} "
            "(all {possible} possible skats).",
            condition=case.condition,
            matadors=case.matadors.label,
            multiplier=case.multiplier,
            base=base,
            value=case.value,
            possible=POSSIBLE_SKATS,
        )
    return _(
        # Translators: {condition} is e.g. "If the skat holds J♣ but no J♠"; {matadors} e.g.
        # "with 2"; {multiplier} the levels, {base} the game's base value; {skats} of the
        # {possible} (231) possible skats give this case.
        "{condition}: {matadors}, worth {multiplier} × {base} = {value} "
        "({skats} of the {possible} possible skats).",
        condition=case.condition,
        matadors=case.matadors.label,
        multiplier=case.multiplier,
        base=base,
        value=case.value,
        skats=case.skats,
        possible=POSSIBLE_SKATS,
    )


def _announcement_steps(ouvert: bool, announced: str) -> list[Step]:
    if ouvert:
        return [
            Step(
                _(
                    "An open game counts as schwarz announced: schneider, schwarz, both "
                    "announcements and ouvert all count, since the game is lost without them."
                ),
                "skat-ouvert",
            )
        ]
    if announced == "schneider":
        return [
            Step(
                _(
                    "Schneider is announced: schneider and its announcement count for certain, "
                    "since the game is lost without them."
                ),
                "skat-announcements",
            )
        ]
    if announced == "schwarz":
        return [
            Step(
                _(
                    "Schwarz is announced: schneider, schwarz and both announcements count for "
                    "certain, since the game is lost without them."
                ),
                "skat-announcements",
            )
        ]
    return []


def _levels_text(result: skat.GameResult, worst: list[SkatCase], *, several: bool) -> str:
    added = skat.levels_added(result.levels)
    n = worst[0].multiplier
    if len(worst) > 1:
        return ngettext(
            # Translators: {cases} is two matador counts, "with 1 and against 1"; {levels} is
            # e.g. "with 1 (1) + game (1)", {n} their sum.
            "The worst cases, {cases}, count the same: {levels} = {n} level.",
            "The worst cases, {cases}, count the same: {levels} = {n} levels.",
            n,
            cases=joined([case.matadors.label for case in worst]),
            levels=added,
            n=n,
        )
    if several:
        return ngettext(
            # Translators: {matadors} is e.g. "against 1"; {levels} is e.g. "against 1 (1) +
            # game (1)", {n} their sum.
            "The worst case is {matadors}: {levels} = {n} level.",
            "The worst case is {matadors}: {levels} = {n} levels.",
            n,
            matadors=worst[0].matadors.label,
            levels=added,
            n=n,
        )
    return ngettext(
        # Translators: {levels} is e.g. "with 2 (2) + game (1) + hand (1)", {n} their sum.
        "Levels: {levels} = {n} level.",
        "Levels: {levels} = {n} levels.",
        n,
        levels=added,
        n=n,
    )


def _safe_text(safe_bid: int) -> str:
    return _(
        "You can safely bid up to {bid}: whatever the skat holds, the game reaches it.",
        bid=safe_bid,
    )


def _above_text(safe_bid: int, best: int, ouvert: bool, announced: str) -> str:
    if safe_bid == skat.HIGHEST_BID:
        return _(
            "No game is worth more and no bid is higher than {highest}.", highest=skat.HIGHEST_BID
        )
    if ouvert or announced == "schwarz":
        if best > safe_bid:
            return _(
                # Translators: {best} is the value with the best skat, {bid} the safe bid.
                "A helpful skat makes it worth up to {best}; every other level already counts, "
                "so above {bid} only that skat saves the game from being overbid and lost.",
                best=best,
                bid=safe_bid,
            )
        return _(
            "Every level already counts and the skat cannot add matadors: "
            "a bid above {bid} would be overbid.",
            bid=safe_bid,
        )
    if announced == "schneider":
        if best > safe_bid:
            return _(
                # Translators: {best} is the value with the best skat, {bid} the safe bid.
                "A helpful skat makes it worth up to {best}; above {bid} you need that skat "
                "or schwarz, which nobody can promise before the play, or the game is overbid "
                "and lost.",
                best=best,
                bid=safe_bid,
            )
        return _(
            "The skat cannot add matadors: above {bid} you need schwarz, which nobody can "
            "promise before the play, or the game is overbid and lost.",
            bid=safe_bid,
        )
    if best > safe_bid:
        return _(
            # Translators: {best} is the value with the best skat, {bid} the safe bid.
            "A helpful skat makes it worth up to {best}; above {bid} you need that skat "
            "or schneider or schwarz, which nobody can promise before the play, or the game "
            "is overbid and lost.",
            best=best,
            bid=safe_bid,
        )
    return _(
        "The skat cannot add matadors: above {bid} you need schneider or schwarz, which nobody "
        "can promise before the play, or the game is overbid and lost.",
        bid=safe_bid,
    )
