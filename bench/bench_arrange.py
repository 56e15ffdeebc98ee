"""Time the Manipulation layout search on its hardest inputs.

Run from the repository root:

    .venv/bin/python bench/bench_arrange.py [--runs 20] [--random 12] [--seed 7]

Prints one line per case (cards given, whether they lay out, best and median
milliseconds over the runs) and then the slowest case. The search must stay
well under a second even on the worst of them.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.cards import MANIPULATION_DECK, Card, card
from games.rules.manipulation import ManipulationOptions, arrange

HIGH = ManipulationOptions()
LOW = ManipulationOptions(ace="low_or_high")
BOTH_DECKS = list(MANIPULATION_DECK.cards)


def without(codes: str) -> list[Card]:
    """Both decks minus the cards named (a code twice removes both copies)."""
    cards = list(BOTH_DECKS)
    for code in codes.split():
        cards.remove(card(code))
    return cards


def fixed_cases() -> list[tuple[str, list[Card], ManipulationOptions]]:
    return [
        ("all 104, ace high", BOTH_DECKS, HIGH),
        ("all 104, ace low or high", BOTH_DECKS, LOW),
        # Only two suits of twos left and no 3♥: the 2♥ fits nowhere.
        ("104 minus 6, a two stranded", without("2C 2C 2S 2S 3H 3H"), HIGH),
        # Every card fits somewhere, but the second A♥ has neither Q-K-A nor a group of aces:
        # only the last rank shows it, so every rank below is searched in full.
        ("near miss at the top, ace high", without("KH QH AS AC AC AD AD"), HIGH),
        ("same, one A♣ back: possible", without("KH QH AC AD AD"), HIGH),
        # Ace low or high: one A♥ takes A-2-3, the other has no Q-K-A and no group.
        ("near miss at both ends, ace low", without("KH KH 2H 3H AS AC AC AD AD"), LOW),
        ("same, one A♣ back: possible", without("KH KH 2H 3H AS AC AD AD"), LOW),
        # Five eights and no sevens or nines: one eight is always left over.
        (
            "near miss in the middle",
            without("7C 7C 7S 7S 7H 7H 7D 7D 9C 9C 9S 9S 9H 9H 9D 9D 8C 8S 8H"),
            HIGH,
        ),
    ]


def random_cases(count: int, seed: int) -> list[tuple[str, list[Card], ManipulationOptions]]:
    rng = random.Random(seed)
    cases = []
    for i in range(count):
        size = rng.randint(60, 100)
        options = HIGH if i % 2 == 0 else LOW
        cases.append(
            (
                f"random {size}, {'ace high' if options is HIGH else 'ace low'}",
                rng.sample(BOTH_DECKS, size),
                options,
            )
        )
    return cases


def timed(call: Callable[[], object], runs: int) -> tuple[object, float, float]:
    """The call's result, and the best and median time in milliseconds."""
    times = []
    result = None
    for _ in range(runs):
        start = time.perf_counter()
        result = call()
        times.append((time.perf_counter() - start) * 1000)
    return result, min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed runs per case")
    parser.add_argument("--random", type=int, default=12, help="random 60-100 card sets")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()

    rows = []
    print(f"{'case':<40} {'cards':>5} {'possible':>8} {'best ms':>8} {'median ms':>9}")
    for name, cards, options in fixed_cases() + random_cases(args.random, args.seed):
        result, best, median = timed(
            lambda c=cards, o=options: arrange(cards=c, options=o), args.runs
        )
        rows.append((median, name, len(cards)))
        print(f"{name:<40} {len(cards):>5} {result.possible!s:>8} {best:>8.1f} {median:>9.1f}")
    median, name, size = max(rows)
    print(f"\nworst: {name} ({size} cards), median {median:.1f} ms over {args.runs} runs")


if __name__ == "__main__":
    main()
