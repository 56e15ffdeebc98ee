"""Properties of the Manipulation referee, checked on many generated hands."""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from games.rules.cards import RANKS, SUITS, Card
from games.rules.manipulation import ManipulationOptions, arrange, check_meld

HIGH = ManipulationOptions()
LOW = ManipulationOptions(ace="low_or_high")
ace_options = st.sampled_from([HIGH, LOW])

# Ranks round the circle, so a window of them can hold the ace next to the king or the two.
CIRCLE = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
# Sequence ranks by position: 1 is the ace low, 14 the ace high.
AT_POSITION = {1: "A", **{i + 2: rank for i, rank in enumerate(CIRCLE[1:])}, 14: "A"}


@st.composite
def laid_out_melds(draw, options: ManipulationOptions) -> list[Card]:
    """The cards of several valid melds, never more than two copies of a card."""
    held: Counter[Card] = Counter()
    for _ in range(draw(st.integers(1, 30))):
        if draw(st.booleans()):
            # Sequences: one suit, 3 to 13 ranks in a row; the ace low only by option.
            length = draw(st.integers(3, 13))
            lowest = 1 if options.ace == "low_or_high" else 2
            start = draw(st.integers(lowest, 15 - length))
            suit = draw(st.sampled_from(SUITS))
            meld = [Card(AT_POSITION[p], suit) for p in range(start, start + length)]
        else:
            # Groups: 3 or 4 different suits of one rank.
            rank = draw(st.sampled_from(RANKS))
            suits = draw(st.lists(st.sampled_from(SUITS), min_size=3, max_size=4, unique=True))
            meld = [Card(rank, s) for s in suits]
        if all(held[c] < 2 for c in meld):
            held.update(meld)
    cards = list(held.elements())
    return draw(st.permutations(cards))


@given(data=st.data(), options=ace_options)
@settings(max_examples=150, deadline=None)
def test_cards_of_valid_melds_always_lay_out(data, options):
    # Melds: whatever was laid out once can be laid out again, every card used.
    cards = data.draw(laid_out_melds(options))
    result = arrange(cards=cards, options=options)
    assert result.possible
    assert Counter(c for meld in result.melds for c in meld) == Counter(cards)
    for meld in result.melds:
        assert check_meld(meld, options=options).valid, meld


@st.composite
def small_hands(draw) -> list[Card]:
    """Up to 12 cards from a few neighbouring ranks and suits, so melds are likely."""
    first = draw(st.integers(0, 12))
    width = draw(st.integers(3, 5))
    ranks = [CIRCLE[(first + i) % 13] for i in range(width)]
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=4, unique=True))
    pool = [Card(r, s) for r in ranks for s in suits]
    counts = draw(st.lists(st.integers(0, 2), min_size=len(pool), max_size=len(pool)))
    cards = [c for c, n in zip(pool, counts, strict=True) for _ in range(n)][:12]
    return draw(st.permutations(cards))


def lays_out_by_trying_everything(cards: list[Card], options: ManipulationOptions) -> bool:
    """The slow, obvious way: the first card must sit in some meld; try every one."""

    @cache
    def solve(left: tuple[Card, ...]) -> bool:
        if not left:
            return True
        first, rest = left[0], left[1:]
        partners = [i for i, c in enumerate(rest) if c.rank == first.rank or c.suit == first.suit]
        for size in range(2, len(partners) + 1):
            for chosen in combinations(partners, size):
                meld = (first, *(rest[i] for i in chosen))
                if check_meld(meld, options=options).valid and solve(
                    tuple(c for i, c in enumerate(rest) if i not in chosen)
                ):
                    return True
        return False

    return solve(tuple(sorted(cards)))


@given(cards=small_hands(), options=ace_options)
@settings(max_examples=300, deadline=None)
def test_arrange_agrees_with_trying_everything(cards, options):
    expected = lays_out_by_trying_everything(cards, options)
    event("can be laid out" if expected else "cannot be laid out")
    assert arrange(cards=cards, options=options).possible is expected


# Cards near the ace in three suits: sequences, wraps, groups and mixtures all turn up.
some_cards = st.lists(
    st.builds(
        Card, st.sampled_from(("A", "2", "3", "4", "J", "Q", "K")), st.sampled_from(SUITS[:3])
    ),
    max_size=14,
)


@given(cards=some_cards, options=ace_options, data=st.data())
@settings(max_examples=300)
def test_check_meld_ignores_card_order(cards, options, data):
    # Melds: a meld is the same meld however its cards are ordered.
    shuffled = data.draw(st.permutations(cards))
    assert check_meld(shuffled, options=options) == check_meld(cards, options=options)
