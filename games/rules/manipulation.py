"""Manipulation: the rummy game in which everyone may rearrange the table.

Two 52-card decks are shuffled together, so every card exists exactly twice.
Players lay out melds (sequences and groups), may rebuild the melds already on
the table as they like, and pay penalty points for the cards they are left
holding when someone goes out. The lowest total wins.

The referee here answers four questions: is this meld valid, was this turn
legal, can these cards be laid out completely, and what does this round score.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise, product
from typing import Literal, NamedTuple

from .cards import MANIPULATION_DECK, RANKS, SUITS, Card, labels
from .errors import Explanation, Problem, ProblemCollector, RuleError, Step
from .text import Text, _, join, ngettext, pgettext
from .words import capitalised, joined

RULE_SECTIONS: dict[str, str] = {
    "manipulation-cards": _("Cards"),
    "manipulation-melds": _("Melds"),
    "manipulation-sequences": _("Sequences"),
    "manipulation-groups": _("Groups"),
    "manipulation-ace": _("The ace"),
    "manipulation-turn": _("A turn"),
    "manipulation-drawing": _("Drawing from the stock"),
    "manipulation-stock-out": _("When the stock runs out"),
    "manipulation-penalties": _("Penalty points"),
    "manipulation-game-end": _("End of the game"),
}

TARGETS = (200, 300)
ACE_RULES = ("high", "low_or_high")
STOCK_OUT_RULES = ("play_on", "end_round")
MIN_PLAYERS = 3
MAX_PLAYERS = 5
LONGEST_SEQUENCE = 13
LARGEST_GROUP = 4
SMALLEST_MELD = 3

# Rank values along a sequence; the ace sits above the king unless it is played low.
RANK_VALUE = {rank: 14 - index for index, rank in enumerate(RANKS)}
ACE_LOW_VALUE = 1
_RANK_AT_VALUE = {value: rank for rank, value in RANK_VALUE.items()} | {ACE_LOW_VALUE: "A"}
# The ranks between the two places an ace can take, low to high: 2 up to K.
_MIDDLE_RANKS = tuple(sorted((r for r in RANKS if r != "A"), key=RANK_VALUE.__getitem__))

# Small counts of cards are written as words ("two J♣"); larger ones as numbers.
_COUNT_WORDS = {
    1: pgettext("a count of cards", "one"),
    2: pgettext("a count of cards", "two"),
    3: pgettext("a count of cards", "three"),
    4: pgettext("a count of cards", "four"),
    5: pgettext("a count of cards", "five"),
    6: pgettext("a count of cards", "six"),
}
_TIMES_WORDS = {1: _("once"), 2: _("twice")}
# The kinds of meld as shown (the values "sequence" and "group" are MeldCheck.kind).
_KIND_WORDS = {
    "sequence": pgettext("meld kind", "sequence"),
    "group": pgettext("meld kind", "group"),
}


def _count_word(n: int) -> Text | int:
    return _COUNT_WORDS.get(n, n)


def _times_word(n: int) -> Text:
    if n in _TIMES_WORDS:
        return _TIMES_WORDS[n]
    return ngettext("{n} time", "{n} times", n, n=n)


def _card_order(c: Card) -> tuple[int, int]:
    """Suit by suit (♣ ♠ ♥ ♦), low rank to high: the order cards are listed in."""
    return (SUITS.index(c.suit or ""), RANK_VALUE[c.rank])


def _sorted_cards(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=_card_order)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class ManipulationOptions:
    """The choices a table makes before the first deal."""

    target: int = 200
    ace: str = "high"
    stock_out: str = "play_on"

    @classmethod
    def from_mapping(
        cls, data: Mapping[str, object] | None, field: str = "options"
    ) -> ManipulationOptions:
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            # Translators: {example} is JSON, {"target": 300}: keep it as it is.
            message = _("Give the options as an object, like {example}.", example='{"target": 300}')
            raise RuleError([Problem(field, message)])
        problems = ProblemCollector()
        for name in data:
            if name not in ("target", "ace", "stock_out"):
                problems.add(
                    f"{field}.{name}",
                    _(
                        # Translators: {name} is what was typed; target, ace and stock_out are
                        # the option names of the API: keep them.
                        'Manipulation has no option "{name}"; the options are target, ace and '
                        "stock_out.",
                        name=name,
                    ),
                )
        target = data.get("target", cls.target)
        if not isinstance(target, int) or isinstance(target, bool) or target not in TARGETS:
            problems.add(
                f"{field}.target",
                _(
                    # Translators: {value} is what was given, as written in JSON.
                    "The game is played to 200 or 300 penalty points; {value} is not one of them.",
                    value=_as_typed(target),
                ),
            )
        ace = data.get("ace", cls.ace)
        if ace not in ACE_RULES:
            problems.add(
                f"{field}.ace",
                _(
                    # Translators: "high" and "low_or_high" are the API's values: keep them.
                    # {value} is what was given, as written in JSON.
                    'The ace is either "high" (Q-K-A only) or "low_or_high" (A-2-3 too); '
                    "{value} is neither.",
                    value=_as_typed(ace),
                ),
            )
        stock_out = data.get("stock_out", cls.stock_out)
        if stock_out not in STOCK_OUT_RULES:
            problems.add(
                f"{field}.stock_out",
                _(
                    # Translators: "play_on" and "end_round" are the API's values: keep them.
                    # {value} is what was given, as written in JSON.
                    "When the stock runs out the table either plays on "
                    '("play_on") or ends the round ("end_round"); {value} is neither.',
                    value=_as_typed(stock_out),
                ),
            )
        problems.raise_if_any()
        return cls(target=int(target), ace=str(ace), stock_out=str(stock_out))

    def as_dict(self) -> dict[str, object]:
        return {"target": self.target, "ace": self.ace, "stock_out": self.stock_out}

    @property
    def ace_low_allowed(self) -> bool:
        return self.ace == "low_or_high"


def _as_typed(value: object) -> str:
    """A value as it was written in the request (JSON), for messages."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


# --------------------------------------------------------------------------- cards


def _deck_problems(cards: Sequence[Card], field: str | None) -> list[Problem]:
    """Cards that do not exist in two ordinary decks (jokers), one problem each."""
    problems = []
    for index, c in enumerate(cards):
        if c not in MANIPULATION_DECK:
            where = f"{field}.{index}" if field else None
            # Translators: {card} is "high joker" or "low joker".
            message = _("{card} is not a Manipulation card: the game uses no jokers.", card=c.label)
            problems.append(Problem(where, message))
    return problems


def _require_deck_cards(cards: Sequence[Card], field: str | None) -> None:
    problems = _deck_problems(cards, field)
    if problems:
        raise RuleError(problems)


def penalty(card: Card) -> int:
    """What one card left in hand costs: ace 15, K Q J 10 ten each, 2 to 9 five each."""
    _require_deck_cards([card], None)
    if card.rank == "A":
        return 15
    if card.rank in ("K", "Q", "J", "10"):
        return 10
    return 5


def penalty_of(cards: Iterable[Card]) -> int:
    return sum(penalty(c) for c in cards)


# Every card of both decks left in hands at once: the most a round can cost in total.
WORST_PENALTY = penalty_of(MANIPULATION_DECK.cards)
# A round a player ended by melding their last card leaves a meld on the table: three
# cards at the least, 5 points each at the cheapest (Manipulation rules, "Melds").
CHEAPEST_MELD = SMALLEST_MELD * 5


# --------------------------------------------------------------------------- melds

MeldKind = Literal["sequence", "group"]


@dataclass(frozen=True)
class MeldCheck:
    """Whether one meld is valid, what kind it is, and if not, why not."""

    valid: bool
    kind: MeldKind | None
    reason: str | None  # a clause; the page starts it with a capital and adds the full stop


@dataclass(frozen=True)
class _Judgement:
    """A meld's verdict, plus what the explanation needs: the rule it rests on and the
    reason without the cards in front (a turn's reasons name the meld already)."""

    check: MeldCheck
    rule: str
    detail: str | None = None
    ace_low: bool = False


def _invalid(
    detail: str, rule: str, shown: str | None = None, reason: str | None = None
) -> _Judgement:
    """``reason`` is the whole sentence for the meld alone; by default the cards, then
    ``detail``."""
    if reason is None:
        # Translators: why a meld is not valid: {cards} are its card labels (J♣ Q♣ A♣),
        # {problem} a clause such as "the K♣ is missing between Q♣ and A♣".
        reason = _("{cards}: {problem}", cards=shown, problem=detail) if shown else detail
    return _Judgement(MeldCheck(False, None, reason), rule, detail)


def check_meld(cards: Sequence[Card], *, options: ManipulationOptions) -> MeldCheck:
    """Is this one meld valid? The order the cards are given in does not matter."""
    _require_deck_cards(cards, None)
    return _judge_meld(cards, options).check


def _judge_meld(cards: Sequence[Card], options: ManipulationOptions) -> _Judgement:
    if not cards:
        return _invalid(_("a meld needs at least 3 cards; this one is empty"), "manipulation-melds")
    if len(cards) == 1:
        return _invalid(_too_small_meld(len(cards)), "manipulation-melds")
    if len({c.rank for c in cards}) == 1:
        return _judge_group(cards)
    if len({c.suit for c in cards}) == 1:
        return _judge_sequence(cards, options)
    if len(cards) < SMALLEST_MELD:
        return _invalid(_too_small_meld(len(cards)), "manipulation-melds")
    return _invalid(
        _(
            "these cards are neither a sequence (one suit, ranks in a row) nor a group "
            "(one rank, different suits)"
        ),
        "manipulation-melds",
        reason=_(
            # Translators: {cards} are card labels (7♠ 7♥ 8♥).
            "{cards} is neither a sequence (one suit, ranks in a row) nor a group "
            "(one rank, different suits)",
            cards=labels(_sorted_cards(cards)),
        ),
    )


def _too_small_meld(count: int) -> Text:
    # Translators: {count} is 1 or 2.
    return _("a meld needs at least 3 cards; this one has only {count}", count=count)


def _judge_group(cards: Sequence[Card]) -> _Judgement:
    if len(cards) < SMALLEST_MELD:
        return _invalid(
            # Translators: {count} is 2.
            _("a group needs at least 3 cards; this one has only {count}", count=len(cards)),
            "manipulation-groups",
        )
    if len(cards) > LARGEST_GROUP:
        return _invalid(
            _(
                "a group holds at most 4 cards, one of each suit; this one has {count}",
                count=len(cards),
            ),
            "manipulation-groups",
        )
    repeated = _sorted_cards(c for c, n in Counter(cards).items() if n > 1)
    if repeated:
        return _invalid(
            ngettext(
                # Translators: {cards} are card labels joined by "and" (Q♠, or Q♠ and K♠).
                "a group needs different suits: {cards} is there twice",
                "a group needs different suits: {cards} are there twice",
                len(repeated),
                cards=_twice(repeated),
            ),
            "manipulation-groups",
        )
    return _Judgement(MeldCheck(True, "group", None), "manipulation-groups")


def _twice(cards: list[Card]) -> Text:
    """The labels of cards given twice: ``8♥ and 9♥`` (every one joined by "and")."""
    # Translators: joins card labels in a list: "8♥ and 9♥ and 10♥" (note the spaces).
    return join(pgettext("between card labels", " and "), (c.label for c in cards))


def _judge_sequence(cards: Sequence[Card], options: ManipulationOptions) -> _Judgement:
    if len(cards) < SMALLEST_MELD:
        return _invalid(
            # Translators: {count} is 2.
            _("a sequence needs at least 3 cards; this one has only {count}", count=len(cards)),
            "manipulation-sequences",
        )
    if len(cards) > LONGEST_SEQUENCE:
        return _invalid(
            _(
                "a sequence holds at most 13 cards, one of each rank; this one has {count}",
                count=len(cards),
            ),
            "manipulation-sequences",
        )
    repeated = _sorted_cards(c for c, n in Counter(cards).items() if n > 1)
    if repeated:
        return _invalid(
            ngettext(
                # Translators: {cards} are card labels joined by "and" (8♥, or 8♥ and 9♥).
                "{cards} is there twice, but a sequence holds each rank only once",
                "{cards} are there twice, but a sequence holds each rank only once",
                len(repeated),
                cards=_twice(repeated),
            ),
            "manipulation-sequences",
        )
    suit = cards[0].suit
    high = sorted(RANK_VALUE[c.rank] for c in cards)
    has_ace = high[-1] == RANK_VALUE["A"]
    low = sorted(ACE_LOW_VALUE if v == RANK_VALUE["A"] else v for v in high)
    if _in_a_row(high):
        return _Judgement(MeldCheck(True, "sequence", None), "manipulation-sequences")
    if has_ace and options.ace_low_allowed and _in_a_row(low):
        return _Judgement(MeldCheck(True, "sequence", None), "manipulation-ace", ace_low=True)
    if has_ace and RANK_VALUE["K"] in high and RANK_VALUE["2"] in high and _round_the_corner(high):
        shown = labels(_cyclic_order(_cards_at(high, suit)))
        return _invalid(
            _("the sequence wraps round the ace (K-A-2), which these rules do not allow"),
            "manipulation-ace",
            # Translators: {cards} are card labels (Q♣ K♣ A♣ 2♣).
            reason=_("{cards} wraps round the ace, which these rules do not allow", cards=shown),
        )
    if has_ace and _in_a_row(low):
        return _invalid(
            _(
                # Translators: {ace} and {two} are card labels (A♣, 2♣).
                "the ace counts high only here, so {ace} cannot go below {two} "
                "(A-2-3 needs the option ace low or high)",
                ace=Card("A", suit).label,
                two=Card("2", suit).label,
            ),
            "manipulation-ace",
            labels(_cards_at(low, suit)),
        )
    if has_ace and options.ace_low_allowed and low[-1] - low[0] < high[-1] - high[0]:
        return _invalid(
            _gap_reason(low, suit), "manipulation-sequences", labels(_cards_at(low, suit))
        )
    return _invalid(
        _gap_reason(high, suit), "manipulation-sequences", labels(_cards_at(high, suit))
    )


def _in_a_row(values: Sequence[int]) -> bool:
    ordered = sorted(values)
    return all(b - a == 1 for a, b in pairwise(ordered))


def _round_the_corner(values: Sequence[int]) -> bool:
    """Would these ranks be in a row if the ace joined the king to the two?"""
    present = {v % 13 for v in values}  # 2..12 stay, K -> 0, A -> 1
    missing = [v for v in range(13) if v not in present]
    # In a row on the circle means the missing ranks form one unbroken stretch.
    gaps = sum(1 for v in missing if (v - 1) % 13 in present)
    return gaps == 1


def _cyclic_order(cards: list[Card]) -> list[Card]:
    """The cards from the first after the gap round the circle, e.g. Q K A 2 3."""
    by_value = {RANK_VALUE[c.rank] % 13: c for c in cards}
    start = next(v for v in by_value if (v - 1) % 13 not in by_value)
    return [by_value[(start + i) % 13] for i in range(len(cards))]


def _cards_at(values: Iterable[int], suit: str | None) -> list[Card]:
    return [Card(_RANK_AT_VALUE[v], suit) for v in sorted(values)]


def _gap_reason(values: list[int], suit: str | None) -> Text:
    ordered = sorted(values)
    holes = []
    for below, above in pairwise(ordered):
        if above - below < 2:
            continue
        missing = _cards_at(range(below + 1, above), suit)
        lower, upper = _cards_at([below], suit)[0].label, _cards_at([above], suit)[0].label
        if len(missing) == 1:
            hole = _(
                # Translators: all three are card labels of one suit (10♥, 9♥, J♥).
                "the {card} is missing between {lower} and {upper}",
                card=missing[0].label,
                lower=lower,
                upper=upper,
            )
        elif len(missing) == 2:
            hole = _(
                # Translators: all four are card labels of one suit (9♥, 10♥, 8♥, J♥).
                "the {first} and {second} are missing between {lower} and {upper}",
                first=missing[0].label,
                second=missing[1].label,
                lower=lower,
                upper=upper,
            )
        else:
            hole = _(
                # Translators: all four are card labels of one suit (4♥, 9♥, 3♥, 10♥).
                "everything from {first} to {last} is missing between {lower} and {upper}",
                first=missing[0].label,
                last=missing[-1].label,
                lower=lower,
                upper=upper,
            )
        holes.append(hole)
    return join("; ", holes)


@dataclass(frozen=True)
class MeldsResult:
    valid: bool
    melds: tuple[MeldCheck, ...]
    explanation: tuple[Step, ...]


def _meld_label(cards: Sequence[Card], judgement: _Judgement | None = None) -> str:
    if not cards:
        return _("no cards")
    if judgement is not None and judgement.check.kind == "sequence":
        ordered = _sorted_cards(cards)
        if judgement.ace_low:
            ordered = ordered[-1:] + ordered[:-1]
        return labels(ordered)
    return labels(_sorted_cards(cards))


def check_melds(*, melds: Sequence[Sequence[Card]], options: ManipulationOptions) -> MeldsResult:
    """Judge every meld on a table. More than two of one card anywhere is an input error."""
    problems = ProblemCollector()
    for index, meld in enumerate(melds):
        problems.problems.extend(_deck_problems(meld, f"melds.{index}"))
    problems.problems.extend(
        MANIPULATION_DECK.duplicate_problems((c for meld in melds for c in meld), "melds")
    )
    problems.raise_if_any()
    judgements = [_judge_meld(meld, options) for meld in melds]
    steps = [
        _meld_step(number, meld, judgement)
        for number, (meld, judgement) in enumerate(zip(melds, judgements, strict=True), start=1)
    ]
    bad = sum(1 for j in judgements if not j.check.valid)
    if not melds:
        steps.append(Step(_("There are no melds to check."), "manipulation-melds"))
    elif bad == 0:
        steps.append(
            Step(
                _("Every meld is valid.") if len(melds) > 1 else _("The meld is valid."),
                "manipulation-melds",
            )
        )
    else:
        steps.append(
            Step(
                _("The meld is not valid.")
                if len(melds) == 1
                else ngettext(
                    "{bad} of {total} melds is not valid.",
                    "{bad} of {total} melds are not valid.",
                    bad,
                    bad=bad,
                    total=len(melds),
                ),
                "manipulation-melds",
            )
        )
    return MeldsResult(
        valid=bad == 0,
        melds=tuple(j.check for j in judgements),
        explanation=tuple(steps),
    )


def _meld_step(number: int, meld: Sequence[Card], judgement: _Judgement) -> Step:
    shown = _meld_label(meld, judgement)
    if not judgement.check.valid:
        return Step(_meld_not_valid(number, shown, judgement.detail), judgement.rule)
    if judgement.ace_low:
        text = _(
            # Translators: {cards} are card labels (A♣ 2♣ 3♣).
            "Meld {number} ({cards}) is a sequence with the ace low.",
            number=number,
            cards=shown,
        )
    elif judgement.check.kind == "sequence":
        # Translators: {cards} are card labels (7♣ 8♣ 9♣).
        text = _("Meld {number} ({cards}) is a sequence.", number=number, cards=shown)
    else:
        # Translators: {cards} are card labels (7♣ 7♠ 7♥).
        text = _("Meld {number} ({cards}) is a group.", number=number, cards=shown)
    return Step(text, judgement.rule)


def _meld_not_valid(number: int, shown: str, detail: str | None) -> Text:
    return _(
        # Translators: {cards} are card labels (or "no cards"); {reason} is a clause such as
        # "a group needs at least 3 cards; this one has only 2".
        "Meld {number} ({cards}) is not valid: {reason}.",
        number=number,
        cards=shown,
        reason=detail,
    )


# --------------------------------------------------------------------------- turn


@dataclass(frozen=True)
class TurnResult:
    legal: bool
    played: tuple[Card, ...]
    reasons: tuple[str, ...]
    explanation: tuple[Step, ...]


def check_turn(
    *,
    table_before: Sequence[Sequence[Card]],
    table_after: Sequence[Sequence[Card]],
    hand: Sequence[Card] | None = None,
    options: ManipulationOptions,
) -> TurnResult:
    """Was this turn legal? Every broken rule is a reason; only jokers are an input error."""
    problems = ProblemCollector()
    for name, table in (("table_before", table_before), ("table_after", table_after)):
        for index, meld in enumerate(table):
            problems.problems.extend(_deck_problems(meld, f"{name}.{index}"))
    if hand is not None:
        problems.problems.extend(_deck_problems(hand, "hand"))
    problems.raise_if_any()

    before = Counter(c for meld in table_before for c in meld)
    after = Counter(c for meld in table_after for c in meld)
    played = after - before
    steps = [
        Step(
            _(
                # Translators: {before} and {after} are e.g. "9 cards in 3 melds".
                "Before the turn the table held {before}; after it, {after}.",
                before=_cards_in_melds(before, table_before),
                after=_cards_in_melds(after, table_after),
            ),
            "manipulation-turn",
        )
    ]
    reasons: list[str] = []
    _judge_table_after(table_after, options, reasons, steps)
    _judge_table_kept(before - after, reasons, steps)
    _judge_played(played, hand, reasons, steps)
    _judge_copies(after, played, hand, reasons, steps)
    if reasons:
        count = len(reasons)
        steps.append(
            Step(
                ngettext(
                    # Translators: {count} is a number, written as a word up to six ("two").
                    "The turn is not legal: {count} rule broken.",
                    "The turn is not legal: {count} rules broken.",
                    count,
                    count=_count_word(count),
                ),
                "manipulation-turn",
            )
        )
    else:
        steps.append(Step(_("The turn is legal."), "manipulation-turn"))
    return TurnResult(
        legal=not reasons,
        played=tuple(_sorted_cards(played.elements())),
        reasons=tuple(reasons),
        explanation=tuple(steps),
    )


def _cards_in_melds(cards: Counter[Card], table: Sequence[Sequence[Card]]) -> Text:
    total = cards.total()
    melds = len(table)
    return ngettext(
        # Translators: {melds} is e.g. "3 melds".
        "{n} card in {melds}",
        "{n} cards in {melds}",
        total,
        n=total,
        melds=ngettext("{n} meld", "{n} melds", melds, n=melds),
    )


def _sentence(reason: str) -> Text:
    """A reason the turn is not legal (a clause) as a sentence of the explanation."""
    # Translators: {reason} is a clause such as "7♣ was not in your hand"; this makes
    # it a sentence (the first letter becomes a capital).
    return capitalised(_("{reason}.", reason=reason))


def _judge_table_after(
    table_after: Sequence[Sequence[Card]],
    options: ManipulationOptions,
    reasons: list[str],
    steps: list[Step],
) -> None:
    judgements = [_judge_meld(meld, options) for meld in table_after]
    for number, (meld, judgement) in enumerate(zip(table_after, judgements, strict=True), 1):
        if not judgement.check.valid:
            shown = _meld_label(meld)
            reason = _(
                # Translators: {cards} are card labels (or "no cards"); {reason} is a clause
                # such as "a group needs at least 3 cards; this one has only 2".
                "meld {number} ({cards}) is not valid: {reason}",
                number=number,
                cards=shown,
                reason=judgement.detail,
            )
            reasons.append(reason)
            steps.append(Step(_meld_not_valid(number, shown, judgement.detail), judgement.rule))
    if table_after and all(j.check.valid for j in judgements):
        melds = [
            # Translators: a meld and its kind: "7♣ 8♣ 9♣ (sequence)".
            _("{cards} ({kind})", cards=_meld_label(m, j), kind=_KIND_WORDS[j.check.kind or ""])
            for m, j in zip(table_after, judgements, strict=True)
        ]
        steps.append(
            Step(
                _(
                    # Translators: {melds} is a list such as "7♣ 8♣ 9♣ (sequence), 7♠ 7♥ 7♦ (group)".
                    "Every meld on the table afterwards is valid: {melds}.",
                    melds=join(_(", "), melds),
                ),
                "manipulation-melds",
            )
        )


def _judge_table_kept(missing: Counter[Card], reasons: list[str], steps: list[Step]) -> None:
    if not missing:
        steps.append(
            Step(_("Every card that was on the table is still there."), "manipulation-turn")
        )
        return
    for c in _sorted_cards(missing):
        n = missing[c]
        if n == 1:
            # Translators: {card} is a card label (J♣).
            reason = _("the {card} from the table is missing", card=c.label)
        elif n == 2:
            # Translators: {card} is a card label (J♣): both copies of that card.
            reason = _("both {card} from the table are missing", card=c.label)
        else:
            reason = _(
                # Translators: {count} is a number (three or more, as a word up to six),
                # {card} a card label (J♣).
                "{count} {card} from the table are missing",
                count=_count_word(n),
                card=c.label,
            )
        reasons.append(reason)
        text = _(
            # Translators: {reason} is a clause such as "the J♣ from the table is missing";
            # the first letter of the sentence becomes a capital.
            "{reason}: cards on the table stay on the table, though they may move between melds.",
            reason=reason,
        )
        steps.append(Step(capitalised(text), "manipulation-turn"))


def _judge_played(
    played: Counter[Card],
    hand: Sequence[Card] | None,
    reasons: list[str],
    steps: list[Step],
) -> None:
    if not played:
        reasons.append(_("no card came from your hand"))
        steps.append(
            Step(
                _(
                    "No card came from your hand: each turn must add at least one. A player "
                    "who cannot do that draws from the stock instead."
                ),
                "manipulation-drawing",
            )
        )
        return
    shown = labels(_sorted_cards(played.elements()))
    # Translators: {cards} are card labels (J♣ 10♥).
    steps.append(Step(_("Cards added to the table: {cards}.", cards=shown), "manipulation-turn"))
    if hand is None:
        return
    held = Counter(hand)
    for c in _sorted_cards(played):
        count, have = played[c], held[c]
        if count <= have:
            continue
        if have == 0 and count == 1:
            # Translators: {card} is a card label (J♣).
            reason = _("{card} was not in your hand", card=c.label)
        elif have == 0:
            reason = _(
                # Translators: {card} is a card label (J♣); {times} is "twice" or "3 times".
                "{card} was added {times} but was not in your hand",
                card=c.label,
                times=_times_word(count),
            )
        else:
            reason = _(
                # Translators: {card} is a card label (J♣); {times} is "twice" or "3 times";
                # {count} is how many of that card the hand held, as a word ("one").
                "{card} was added {times} but your hand held only {count}",
                card=c.label,
                times=_times_word(count),
                count=_count_word(have),
            )
        reasons.append(reason)
        steps.append(Step(_sentence(reason), "manipulation-turn"))
    if all(played[c] <= held[c] for c in played):
        steps.append(Step(_("All of them came from your hand."), "manipulation-turn"))


def _judge_copies(
    after: Counter[Card],
    played: Counter[Card],
    hand: Sequence[Card] | None,
    reasons: list[str],
    steps: list[Step],
) -> None:
    leftovers = Counter(hand or ()) - played
    everything = after + leftovers
    for c in _sorted_cards(c for c, n in everything.items() if n > MANIPULATION_DECK.copies):
        n = everything[c]
        if leftovers[c]:
            reason = _(
                # Translators: {count} is a number (three or more, as a word up to six),
                # {card} a card label (J♣).
                "there would be {count} {card} on the table and in your hand, but the two "
                "decks hold only two of each card",
                count=_count_word(n),
                card=c.label,
            )
        else:
            reason = _(
                # Translators: {count} is a number (three or more, as a word up to six),
                # {card} a card label (J♣).
                "there would be {count} {card} on the table, but the two decks hold only two "
                "of each card",
                count=_count_word(n),
                card=c.label,
            )
        reasons.append(reason)
        steps.append(Step(_sentence(reason), "manipulation-cards"))


# --------------------------------------------------------------------------- arrange


@dataclass(frozen=True)
class Arrangement:
    possible: bool
    melds: tuple[tuple[Card, ...], ...] | None
    explanation: tuple[Step, ...]


def arrange(*, cards: Sequence[Card], options: ManipulationOptions) -> Arrangement:
    """Can all of these cards be laid out as valid melds at once? If so, one way to do it.

    The search is exact. It walks up the ranks once, keeping for each suit only how
    many sequences are still open and how long they are (one card, two, or three and
    more), which is all that decides what the next rank can do.
    """
    problems = _deck_problems(cards, "cards")
    problems += MANIPULATION_DECK.duplicate_problems(cards, "cards")
    if problems:
        raise RuleError(problems)
    total = len(cards)
    if not cards:
        return Arrangement(
            True, (), (Step(_("No cards, so nothing to lay out."), "manipulation-melds"),)
        )
    counts = Counter(cards)
    stranded = _stranded_cards(counts, options)
    if stranded:
        text = ngettext(
            # Translators: {cards} is e.g. "12 cards"; {stranded} are card labels (J♣ 4♦).
            "{cards} cannot all be laid out: {stranded} has no meld to go in. There are not "
            "enough neighbouring cards of the same suit for a sequence, nor three suits of the "
            "same rank for a group.",
            "{cards} cannot all be laid out: {stranded} have no meld to go in. There are not "
            "enough neighbouring cards of the same suit for a sequence, nor three suits of the "
            "same rank for a group.",
            len(stranded),
            cards=ngettext("{n} card", "{n} cards", total, n=total),
            stranded=labels(stranded),
        )
        return Arrangement(False, None, (Step(text, "manipulation-melds"),))
    layout = _find_layout(counts, options)
    if layout is None:
        text = ngettext(
            "Each of the {n} card could join some meld on its own, but not all at the same "
            "time: every way of laying them out leaves cards over.",
            "Each of the {n} cards could join some meld on its own, but not all at the same "
            "time: every way of laying them out leaves cards over.",
            total,
            n=total,
        )
        return Arrangement(False, None, (Step(text, "manipulation-melds"),))
    sequences = sum(1 for m in layout if _is_sequence(m))
    groups = len(layout) - sequences
    kinds = []
    if sequences:
        kinds.append(ngettext("{n} sequence", "{n} sequences", sequences, n=sequences))
    if groups:
        kinds.append(ngettext("{n} group", "{n} groups", groups, n=groups))
    steps = [
        Step(
            ngettext(
                # Translators: {melds} is e.g. "3 sequences and 1 group".
                "All {n} card can be laid out as {melds}:",
                "All {n} cards can be laid out as {melds}:",
                total,
                n=total,
                melds=joined(kinds),
            ),
            "manipulation-melds",
        )
    ]
    for meld in layout:
        shown = labels(meld)
        if not _is_sequence(meld):
            # Translators: {cards} are card labels (7♣ 7♠ 7♥).
            steps.append(Step(_("Group {cards}.", cards=shown), "manipulation-groups"))
        elif meld[0].rank == "A":
            # Translators: {cards} are card labels (A♣ 2♣ 3♣).
            text = _("Sequence {cards}, with the ace low.", cards=shown)
            steps.append(Step(text, "manipulation-ace"))
        else:
            # Translators: {cards} are card labels (7♣ 8♣ 9♣).
            steps.append(Step(_("Sequence {cards}.", cards=shown), "manipulation-sequences"))
    return Arrangement(True, layout, tuple(steps))


def _is_sequence(meld: Sequence[Card]) -> bool:
    return meld[0].rank != meld[1].rank


def _stranded_cards(counts: Counter[Card], options: ManipulationOptions) -> list[Card]:
    """Cards that no meld could take even if every other card stood aside for them."""
    stranded = []
    for c in _sorted_cards(counts):
        suits_of_rank = sum(1 for s in SUITS if counts[Card(c.rank, s)])
        if suits_of_rank >= SMALLEST_MELD:
            continue
        values = [RANK_VALUE[c.rank]]
        if c.rank == "A" and options.ace_low_allowed:
            values.append(ACE_LOW_VALUE)
        present = {v for v in range(ACE_LOW_VALUE, 15) if counts[Card(_RANK_AT_VALUE[v], c.suit)]}
        if not options.ace_low_allowed:
            present.discard(ACE_LOW_VALUE)
        if not any(
            all(v in present for v in range(start, start + SMALLEST_MELD))
            for value in values
            for start in range(value - SMALLEST_MELD + 1, value + 1)
        ):
            stranded.extend([c] * counts[c])
    return stranded


# Per suit, the open sequences ending at the rank just passed: how many hold one
# card, two cards, and three or more. Two copies of each card mean at most two
# sequences of one suit can be open at once.
_SUIT_STATES = tuple(
    (one, two, more)
    for one in range(3)
    for two in range(3)
    for more in range(3)
    if one + two + more <= MANIPULATION_DECK.copies
)
_STATE_INDEX = {state: index for index, state in enumerate(_SUIT_STATES)}
_CLOSABLE = frozenset(_STATE_INDEX[(0, 0, n)] for n in range(3))
_BITS = 4  # bits per suit in a packed state; ten suit states fit in four bits
_MASK = (1 << _BITS) - 1


def _suit_step(state: int, count: int, grouped: int) -> int | None:
    """The suit's open sequences after this rank, if ``grouped`` of its ``count`` cards
    go into groups and the rest into sequences; ``None`` if that strands a sequence.

    Sequences of one or two cards must take the next card or they are not melds. A
    longer one may take it or stop; taking it is never worse than starting a new
    sequence with that card, because the new one would have to grow to three first.
    """
    one, two, more = _SUIT_STATES[state]
    free = count - grouped - one - two
    if free < 0:
        return None
    extended = min(free, more)
    return _STATE_INDEX[(free - extended, one, two + extended)]


_NEXT = {
    (state, count, grouped): _suit_step(state, count, grouped)
    for state in range(len(_SUIT_STATES))
    for count in range(3)
    for grouped in range(count + 1)
}


def _groups_possible(grouped: Sequence[int]) -> bool:
    """Can cards of one rank, ``grouped[s]`` of suit s, be split into groups?

    One group takes 3 or 4 cards of different suits; with two copies per card, two
    groups take 6 to 8, and any such set splits evenly enough (each suit's pair goes
    one to each group, single cards fill the smaller group).
    """
    total = sum(grouped)
    if total == 0:
        return True
    if SMALLEST_MELD <= total <= LARGEST_GROUP:
        return max(grouped) <= 1
    return total >= 2 * SMALLEST_MELD


_GROUPABLE = frozenset(g for g in product(range(3), repeat=4) if _groups_possible(g))


@cache
def _suit_options(state: int, count: int) -> tuple[tuple[int, int], ...]:
    """(cards grouped, next state) for each way this suit can play this rank."""
    options = []
    for grouped in range(count + 1):
        nxt = _NEXT[(state, count, grouped)]
        if nxt is not None:
            options.append((grouped, nxt))
    return tuple(options)


def _advance(
    layer: dict[int, int],
    counts: Sequence[int],
    parents: dict[int, tuple[int, tuple[int, ...]]] | None = None,
) -> dict[int, int]:
    """Every packed state reachable after one more rank.

    The value of each state is a bit set of the ways the aces were split at the
    bottom (see ``_find_layout``); a state reached from several keeps them all.
    """
    new: dict[int, int] = {}
    c0, c1, c2, c3 = counts
    for state, ways in layer.items():
        for g0, n0 in _suit_options(state & _MASK, c0):
            for g1, n1 in _suit_options((state >> _BITS) & _MASK, c1):
                for g2, n2 in _suit_options((state >> 2 * _BITS) & _MASK, c2):
                    for g3, n3 in _suit_options(state >> 3 * _BITS, c3):
                        if (g0, g1, g2, g3) not in _GROUPABLE:
                            continue
                        key = n0 | n1 << _BITS | n2 << 2 * _BITS | n3 << 3 * _BITS
                        if parents is not None and key not in new:
                            parents[key] = (state, (g0, g1, g2, g3))
                        new[key] = new.get(key, 0) | ways
    return new


def _unpack(state: int) -> list[int]:
    return [(state >> i * _BITS) & _MASK for i in range(len(SUITS))]


def _pack(states: Sequence[int]) -> int:
    return sum(s << i * _BITS for i, s in enumerate(states))


def _final_aces(state: int, aces: Sequence[int]) -> tuple[int, ...] | None:
    """How to play the high aces so that every sequence ends at three cards or more."""
    choices = []
    for suit_state, count in zip(_unpack(state), aces, strict=True):
        suit_choices = [g for g, nxt in _suit_options(suit_state, count) if nxt in _CLOSABLE]
        if not suit_choices:
            return None
        choices.append(suit_choices)
    return next((g for g in product(*choices) if g in _GROUPABLE), None)


def _find_layout(
    counts: Counter[Card], options: ManipulationOptions
) -> tuple[tuple[Card, ...], ...] | None:
    """The exact search. Ranks go 2 up to K; the aces come last (high) and, when the
    table allows, some of them first (low), each low ace starting a sequence A-2-3...

    Which aces went low is decided at the bottom and only matters again at the top,
    so rather than carrying it through every rank, each reachable state keeps a bit
    set of the low-ace splits that lead to it.
    """
    per_rank = {rank: [counts[Card(rank, s)] for s in SUITS] for rank in RANKS}
    aces = per_rank["A"]
    if options.ace_low_allowed:
        limits = [min(aces[i], per_rank["2"][i], per_rank["3"][i]) for i in range(len(SUITS))]
        splits = list(product(*(range(limit + 1) for limit in limits)))
    else:
        splits = [(0, 0, 0, 0)]
    start: dict[int, int] = {}
    for bit, split in enumerate(splits):
        key = _pack([_STATE_INDEX[(low, 0, 0)] for low in split])
        start[key] = start.get(key, 0) | 1 << bit
    layer = start
    for rank in _MIDDLE_RANKS:
        layer = _advance(layer, per_rank[rank])
        if not layer:
            return None
    for state, ways in layer.items():
        for bit, split in enumerate(splits):
            if not ways >> bit & 1:
                continue
            high = [a - low for a, low in zip(aces, split, strict=True)]
            grouped = _final_aces(state, high)
            if grouped is not None:
                return _rebuild(per_rank, split, start, bit, state, grouped)
    return None


def _rebuild(
    per_rank: dict[str, list[int]],
    split: Sequence[int],
    start: dict[int, int],
    bit: int,
    final_state: int,
    final_grouped: tuple[int, ...],
) -> tuple[tuple[Card, ...], ...]:
    """Walk the search again for the chosen ace split only, remembering how each state
    was reached, then play the choices out with real cards."""
    layer = {key: 1 for key, ways in start.items() if ways >> bit & 1}
    history = []
    for rank in _MIDDLE_RANKS:
        parents: dict[int, tuple[int, tuple[int, ...]]] = {}
        layer = _advance(layer, per_rank[rank], parents)
        history.append(parents)
    grouped_by_rank: list[tuple[int, ...]] = []
    state = final_state
    for parents in reversed(history):
        state, grouped = parents[state]
        grouped_by_rank.append(grouped)
    grouped_by_rank.reverse()
    grouped_by_rank.append(final_grouped)
    return _lay_out(per_rank, split, grouped_by_rank)


def _lay_out(
    per_rank: dict[str, list[int]],
    split: Sequence[int],
    grouped_by_rank: Sequence[Sequence[int]],
) -> tuple[tuple[Card, ...], ...]:
    open_runs: list[list[list[Card]]] = [
        [[Card("A", suit)] for _ in range(low)] for suit, low in zip(SUITS, split, strict=True)
    ]
    sequences: list[list[Card]] = []
    groups: list[tuple[Card, ...]] = []
    ranks = [*_MIDDLE_RANKS, "A"]
    for rank, grouped in zip(ranks, grouped_by_rank, strict=True):
        counts = per_rank[rank]
        if rank == "A":
            counts = [c - low for c, low in zip(counts, split, strict=True)]
        rank_groups: list[Card] = []
        for i, suit in enumerate(SUITS):
            c = Card(rank, suit)
            runs = open_runs[i]
            short = [r for r in runs if len(r) < SMALLEST_MELD]
            # A long sequence that began with a low ace should not also take the high one.
            long = sorted(
                (r for r in runs if len(r) >= SMALLEST_MELD), key=lambda r: r[0].rank == "A"
            )
            free = counts[i] - grouped[i] - len(short)
            extended = min(free, len(long))
            sequences.extend(long[extended:])
            kept = short + long[:extended]
            for run in kept:
                run.append(c)
            open_runs[i] = kept + [[c] for _ in range(free - extended)]
            rank_groups.extend([c] * grouped[i])
        groups.extend(_split_groups(rank_groups))
    for runs in open_runs:
        sequences.extend(runs)
    finished = []
    for run in sequences:
        if len(run) > LONGEST_SEQUENCE:
            # A-2-...-K-A in one suit: play it as A-2-3 and 4 up to the high ace.
            finished.extend([tuple(run[:SMALLEST_MELD]), tuple(run[SMALLEST_MELD:])])
        else:
            finished.append(tuple(run))
    finished.sort(key=_sequence_order)
    groups.sort(key=lambda group: RANK_VALUE[group[0].rank])
    return (*finished, *groups)


def _sequence_order(run: Sequence[Card]) -> tuple[int, int]:
    bottom = ACE_LOW_VALUE if run[0].rank == "A" else RANK_VALUE[run[0].rank]
    return (SUITS.index(run[0].suit or ""), bottom)


def _split_groups(cards: list[Card]) -> list[tuple[Card, ...]]:
    if not cards:
        return []
    if len(cards) <= LARGEST_GROUP:
        return [tuple(cards)]
    first: list[Card] = []
    second: list[Card] = []
    pairs = [c for c, n in Counter(cards).items() if n == 2]
    singles = [c for c, n in Counter(cards).items() if n == 1]
    first.extend(pairs)
    second.extend(pairs)
    for c in singles:
        (first if len(first) <= len(second) else second).append(c)
    return [tuple(_sorted_cards(first)), tuple(_sorted_cards(second))]


# --------------------------------------------------------------------------- round


@dataclass(frozen=True)
class RoundResult:
    penalties: dict[str, int]
    scores_after: dict[str, int]
    game_over: bool
    winners: tuple[str, ...]
    went_out: str | None
    explanation: Explanation


def score_round(
    *,
    hands: Mapping[str, Sequence[Card]],
    scores_before: Mapping[str, int] | None = None,
    options: ManipulationOptions,
) -> RoundResult:
    """Score a round from the cards each player is left holding (the explanation is worded
    when it is first read)."""
    problems = ProblemCollector()
    _check_players(hands, "hands", problems)
    for name, hand in hands.items():
        problems.problems.extend(_deck_problems(hand, f"hands.{name}"))
        problems.problems.extend(MANIPULATION_DECK.duplicate_problems(hand, f"hands.{name}"))
    # A card over the limit in one hand is reported there; here only those that are
    # over it because several hands hold them.
    held = Counter(c for hand in hands.values() for c in hand if c in MANIPULATION_DECK)
    limit = MANIPULATION_DECK.copies
    for c in _sorted_cards(c for c, n in held.items() if n > limit):
        if all(Counter(hand)[c] <= limit for hand in hands.values()):
            problems.add(
                "hands",
                ngettext(
                    # Translators: {card} is a card label (J♣); {count} a number, written as a
                    # word up to six ("three").
                    "{card} is in the hands {count} time between them, but the two decks "
                    "hold only two of each card.",
                    "{card} is in the hands {count} times between them, but the two decks "
                    "hold only two of each card.",
                    held[c],
                    card=c.label,
                    count=_count_word(held[c]),
                ),
            )
    empty = [name for name, hand in hands.items() if not hand]
    if len(empty) == 2:
        message = _(
            # Translators: {names} are two player names, "Ana and Ben".
            "Only one player can go out, but {names} both have no cards left.",
            names=joined(empty),
        )
        problems.add("hands", message)
    elif len(empty) > 2:
        message = _(
            # Translators: {names} are player names, "Ana, Ben and Cem".
            "Only one player can go out, but {names} all have no cards left.",
            names=joined(empty),
        )
        problems.add("hands", message)
    elif len(empty) == 1 and sum(held.values()) > len(MANIPULATION_DECK) - SMALLEST_MELD:
        # Going out is melding one's last card: a meld of three at least is on the table
        # (as for penalties, score_round_from_penalties).
        problems.add(
            "hands",
            _(
                # Translators: {name} went out; {count} and {most} are numbers of cards.
                "The hands hold {count} cards, but {name} went out by melding their last "
                "card, so at least one meld of three cards is on the table: the hands hold "
                "at most {most}.",
                count=sum(held.values()),
                name=empty[0],
                most=len(MANIPULATION_DECK) - SMALLEST_MELD,
            ),
        )
    _check_scores_before(hands, scores_before, options, problems)
    problems.raise_if_any()

    penalties = {name: penalty_of(hand) for name, hand in hands.items()}
    held_by = {name: tuple(hand) for name, hand in hands.items()}
    return _scored(
        _Round(penalties, empty[0] if empty else None, _kept(scores_before), options, held_by),
        None,
    )


def _hand_steps(hands: Mapping[str, Sequence[Card]], penalties: Mapping[str, int]) -> list[Step]:
    """What each player is left holding, and what it costs."""
    steps = []
    for name, hand in hands.items():
        if not hand:
            steps.append(Step(_went_out(name), "manipulation-penalties"))
            continue
        ordered = sorted(hand, key=lambda c: (-penalty(c), _card_order(c)))
        values = [penalty(c) for c in ordered]
        points = penalties[name]
        if len(values) > 1:
            text = ngettext(
                # Translators: {cards} are card labels (A♣ 7♦); {sum} adds up their penalty
                # points ("15 + 5"), and {points} is the result.
                "{name} is left with {cards}: {sum} = {points} point.",
                "{name} is left with {cards}: {sum} = {points} points.",
                points,
                name=name,
                cards=labels(ordered),
                sum=join(" + ", values),
                points=points,
            )
        else:
            text = ngettext(
                # Translators: {cards} is a card label (A♣).
                "{name} is left with {cards}: {points} point.",
                "{name} is left with {cards}: {points} points.",
                points,
                name=name,
                cards=labels(ordered),
                points=points,
            )
        steps.append(Step(text, "manipulation-penalties"))
    return steps


def score_round_from_penalties(
    *,
    penalties: Mapping[str, int],
    scores_before: Mapping[str, int] | None = None,
    options: ManipulationOptions,
) -> RoundResult:
    """Score a round from penalty points the table has already counted (the explanation is
    worded when it is first read)."""
    problems = ProblemCollector()
    _check_players(penalties, "penalties", problems)
    for name, points in penalties.items():
        field = f"penalties.{name}"
        if points < 0:
            problems.add(
                field,
                _("{name}'s penalty cannot be negative ({points}).", name=name, points=points),
            )
        elif points % 5:
            problems.add(
                field,
                _(
                    "{name}'s penalty of {points} cannot be right: every card costs 5, 10 or "
                    "15, so penalties are multiples of 5.",
                    name=name,
                    points=points,
                ),
            )
        elif points > WORST_PENALTY:
            problems.add(
                field,
                _(
                    # Translators: {most} is the penalty of every card of both decks together.
                    "{name}'s penalty of {points} is more than every card of both decks "
                    "together ({most}).",
                    name=name,
                    points=points,
                    most=WORST_PENALTY,
                ),
            )
    zero = [name for name, points in penalties.items() if points == 0]
    if len(zero) == 2:
        problems.add(
            "penalties",
            _(
                # Translators: {names} are two player names, "Ana and Ben".
                "Only one player can go out, but {names} both have 0; a player still holding "
                "cards scores at least 5.",
                names=joined(zero),
            ),
        )
    elif len(zero) > 2:
        problems.add(
            "penalties",
            _(
                # Translators: {names} are player names, "Ana, Ben and Cem".
                "Only one player can go out, but {names} all have 0; a player still holding "
                "cards scores at least 5.",
                names=joined(zero),
            ),
        )
    total = sum(p for p in penalties.values() if p > 0)
    if not problems and total > WORST_PENALTY:
        problems.add(
            "penalties",
            _(
                # Translators: {most} is the penalty of every card of both decks together.
                "Together these penalties come to {total}, more than every card of both decks "
                "({most}).",
                total=total,
                most=WORST_PENALTY,
            ),
        )
    elif not problems and len(zero) == 1 and total > WORST_PENALTY - CHEAPEST_MELD:
        problems.add(
            "penalties",
            _(
                # Translators: {name} went out; {most} is every card of both decks less
                # the cheapest meld (three cards of 5 points).
                "Together these penalties come to {total}, but {name} went out by melding "
                "their last card, so at least one meld of three cards (15 points or more) "
                "is on the table: the hands hold at most {most}.",
                total=total,
                name=zero[0],
                most=WORST_PENALTY - CHEAPEST_MELD,
            ),
        )
    _check_scores_before(penalties, scores_before, options, problems)
    problems.raise_if_any()
    went_out = zero[0] if zero else None
    return _scored(_Round(dict(penalties), went_out, _kept(scores_before), options, None), None)


def _penalty_steps(penalties: Mapping[str, int]) -> list[Step]:
    """The penalty each player takes, as the table counted it."""
    return [
        Step(
            _went_out(name)
            if points == 0
            else ngettext(
                "{name} takes {points} penalty point for the cards left in hand.",
                "{name} takes {points} penalty points for the cards left in hand.",
                points,
                name=name,
                points=points,
            ),
            "manipulation-penalties",
        )
        for name, points in penalties.items()
    ]


def _went_out(name: str) -> Text:
    return _("{name} went out and scores 0.", name=name)


def _check_players(players: Mapping[str, object], field: str, problems: ProblemCollector) -> None:
    count = len(players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        problems.add(
            field,
            _("Manipulation is played by 3 to 5 players; this round has {count}.", count=count),
        )
    for name in players:
        if not name.strip():
            problems.add(field, _("Every player needs a name; one of them is blank."))


def _check_scores_before(
    players: Mapping[str, object],
    scores_before: Mapping[str, int] | None,
    options: ManipulationOptions,
    problems: ProblemCollector,
) -> None:
    if scores_before is None:
        return
    for name in players:
        if name not in scores_before:
            problems.add(
                f"scores_before.{name}",
                _("There is no score before this round for {name}.", name=name),
            )
    for name, score in scores_before.items():
        field = f"scores_before.{name}"
        if name not in players:
            problems.add(
                field, _("{name} has a score but is not playing in this round.", name=name)
            )
        elif score < 0:
            problems.add(
                field,
                _(
                    "{name}'s score cannot be negative ({score}): penalties only add up.",
                    name=name,
                    score=score,
                ),
            )
        elif score % 5:
            problems.add(
                field,
                _(
                    "{name}'s score of {score} cannot be right: penalties come in fives.",
                    name=name,
                    score=score,
                ),
            )
        elif score >= options.target:
            problems.add(
                field,
                _(
                    "{name} already has {score}, which reached the target of {target}, so the "
                    "game ended before this round.",
                    name=name,
                    score=score,
                    target=options.target,
                ),
            )


class _Round(NamedTuple):
    """A checked round: what a result keeps to word its explanation when it is read."""

    penalties: dict[str, int]
    went_out: str | None
    scores_before: dict[str, int] | None
    options: ManipulationOptions
    hands: dict[str, tuple[Card, ...]] | None  # None: entered as penalties


def _kept(scores: Mapping[str, int] | None) -> dict[str, int] | None:
    return None if scores is None else dict(scores)


def _explain_round(checked: _Round) -> list[Step]:
    """The explanation of a scored round: the round scored again, saying every step."""
    steps: list[Step] = []
    _scored(checked, steps)
    return steps


def _scored(checked: _Round, say: list[Step] | None) -> RoundResult:
    """Score a checked round. With ``say``, every step of the explanation is appended to
    it as the round is scored: deciding and wording follow the same branches."""
    penalties, went_out, scores_before, options, hands = checked
    explanation = Explanation(_explain_round, checked)
    if say is not None:
        if hands is not None:
            say.extend(_hand_steps(hands, penalties))
        else:
            say.extend(_penalty_steps(penalties))
        if went_out is None:
            say.append(Step(_stock_out(options), "manipulation-stock-out"))
    before = dict.fromkeys(penalties, 0) if scores_before is None else dict(scores_before)
    after = {name: before[name] + points for name, points in penalties.items()}
    if say is not None:
        say.append(
            Step(
                _totals(penalties, before, after, first=scores_before is None),
                "manipulation-game-end",
            )
        )
    reached = [name for name, total in after.items() if total >= options.target]
    if not reached:
        if say is not None:
            say.append(
                Step(
                    _("Nobody has reached {target}, so the game goes on.", target=options.target),
                    "manipulation-game-end",
                )
            )
        return RoundResult(penalties, after, False, (), went_out, explanation)
    lowest = min(after.values())
    winners = tuple(name for name, total in after.items() if total == lowest)
    if say is not None:
        say.extend(_winning_steps(reached, winners, lowest, options.target))
    return RoundResult(penalties, after, True, winners, went_out, explanation)


def _stock_out(options: ManipulationOptions) -> Text:
    if options.stock_out == "end_round":
        return _(
            "Nobody went out: the stock ran out and the player to move could not meld, "
            "which ends the round."
        )
    return _(
        "Nobody went out: the stock ran out and every player passed in turn, which ends the round."
    )


def _totals(
    penalties: Mapping[str, int],
    before: Mapping[str, int],
    after: Mapping[str, int],
    *,
    first: bool,
) -> Text:
    if first:
        # Translators: a player's total, "Ana 25".
        totals = [_("{name} {total}", name=name, total=after[name]) for name in penalties]
        # Translators: {totals} is a list such as "Ana 25, Ben 0, Cem 40".
        return _("Totals after this first round: {totals}.", totals=join(_(", "), totals))
    totals = [
        _(
            # Translators: a player's total before the round, plus this round's penalty,
            # and the new total: "Ana 25 + 10 = 35".
            "{name} {before} + {penalty} = {after}",
            name=name,
            before=before[name],
            penalty=penalties[name],
            after=after[name],
        )
        for name in penalties
    ]
    # Translators: {totals} is a list such as "Ana 25 + 10 = 35, Ben 40 + 0 = 40".
    return _("Totals: {totals}.", totals=join(_(", "), totals))


def _winning_steps(
    reached: Sequence[str], winners: Sequence[str], lowest: int, target: int
) -> list[Step]:
    steps = [
        Step(
            ngettext(
                # Translators: {names} are player names, "Ana" or "Ana and Ben".
                "{names} reached the target of {target}, so the game ends with this round.",
                "{names} reached the target of {target}, so the game ends with this round.",
                len(reached),
                names=joined(reached),
                target=target,
            ),
            "manipulation-game-end",
        )
    ]
    if len(winners) == 1:
        text = _("{name} has the lowest total, {lowest}, and wins.", name=winners[0], lowest=lowest)
    else:
        text = _(
            # Translators: {names} are player names, "Ana and Ben".
            "{names} share the lowest total, {lowest}, and share the win.",
            names=joined(winners),
            lowest=lowest,
        )
    steps.append(Step(text, "manipulation-game-end"))
    return steps
