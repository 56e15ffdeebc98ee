"""Benchmark of the referee: Skat games and Pitch hands scored per second.

Run: .venv/bin/python bench/bench_referee.py   (or: make bench)

Each case scores a fixed, varied set of inputs (200 Skat games, 200 Pitch hands, every
one accepted by the referee) in a loop for about a second, several times, and reports
the best and the median rate. "scored" only scores; "scored, explained" also reads every
step of the explanation as a player would (``str()``, English). Numbers depend on the
machine; the README records them for the project's 2-core reference machine.

To compare with another commit, score with its referee in the same run: a checkout
named by PYTHONPATH comes before this one, e.g.

    git worktree add /tmp/before 30b55fd
    for tree in /tmp/before . /tmp/before .; do PYTHONPATH=$tree .venv/bin/python bench/bench_referee.py; done
    git worktree remove /tmp/before
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Appended, not inserted: a tree named by PYTHONPATH (an older checkout) is measured instead.
sys.path.append(str(Path(__file__).resolve().parent.parent))

from games.rules import pitch, skat
from games.rules.cards import SKAT_DECK

ROUNDS = 5
SECONDS_PER_ROUND = 1.0


def skat_inputs(count: int, rng: random.Random) -> list[dict]:
    """Legal games of every kind: suit and grand with counted matadors or the 12 cards,
    points and tricks, trick cards, or one-word outcomes; null games."""
    inputs = []
    while len(inputs) < count:
        game = rng.choice(skat.GAMES)
        deck = list(SKAT_DECK.cards)
        rng.shuffle(deck)
        if game == "null":
            hand = rng.random() < 0.3
            ouvert = rng.random() < 0.3
            inputs.append(
                {
                    "game": "null",
                    "bid": 18,
                    "hand": hand,
                    "ouvert": ouvert,
                    "declarer_tricks": rng.choice([0, 0, 1, 3]),
                }
            )
            continue
        arguments: dict = {"game": game, "bid": 18, "hand": rng.random() < 0.2}
        # A real deal: the skat, the declarer's tricks from the rest of the deck.
        skat_cards, tricks = deck[:2], rng.randint(1, 9)
        trick_cards = deck[2 : 2 + 3 * tricks]
        if rng.random() < 0.3:
            arguments["declarer_cards"] = deck[:12]
        else:
            matadors = rng.randint(1, 4 if game == "grand" else 11)
            arguments["matadors"] = skat.Matadors(rng.choice(["with", "against"]), matadors)
        result_style = rng.randrange(3)
        if result_style == 0 and "matadors" in arguments:
            arguments["declarer_trick_cards"] = trick_cards
            arguments["skat"] = skat_cards
        elif result_style == 1:
            arguments["declarer_tricks"] = tricks
            arguments["declarer_points"] = skat.count_points(trick_cards + skat_cards)
        else:
            arguments["outcome"] = rng.choice(["won", "won_schneider", "lost", "lost_schneider"])
        arguments["kontra"] = rng.random() < 0.1
        inputs.append(arguments)
    return inputs


def pitch_inputs(count: int, rng: random.Random) -> list[dict]:
    inputs = []
    for _ in range(count):
        points = {key: rng.choice(["A", "B", "B", "A", "out"]) for key in pitch.POINT_CARDS}
        inputs.append(
            {
                "bid": rng.choice([4, 5, 6, 7, 8, 9, "moon"]),
                "pitcher_team": rng.choice("AB"),
                "points": points,
                "scores_before": {"A": rng.randint(-20, 50), "B": rng.randint(-20, 50)},
            }
        )
    return inputs


def rate(function: Callable[[dict], object], inputs: list[dict]) -> tuple[float, float]:
    rates = []
    for _ in range(ROUNDS):
        done = 0
        start = time.perf_counter()
        while time.perf_counter() - start < SECONDS_PER_ROUND:
            for arguments in inputs:
                function(arguments)
            done += len(inputs)
        rates.append(done / (time.perf_counter() - start))
    return max(rates), statistics.median(rates)


def explained(result: object) -> list[str]:
    """Every step of a result's explanation as a player reads it."""
    return [str(step.text) for step in result.explanation]  # type: ignore[attr-defined]


def checked(function: Callable[[dict], object], inputs: list[dict], count: int) -> list[dict]:
    """The inputs, once each scored: as many as asked for, none refused."""
    assert len(inputs) == count, f"{len(inputs)} inputs, not {count}"
    for arguments in inputs:
        function(arguments)  # a RuleError here is a bench bug: it would measure a refusal
    return inputs


def main() -> None:
    rng = random.Random(20261129)
    options = pitch.PitchOptions()

    def score_skat(a: dict) -> object:
        return skat.score_game(**a)

    def score_pitch(a: dict) -> object:
        return pitch.score_hand(**a, options=options)

    skat_games = checked(score_skat, skat_inputs(200, rng), 200)
    pitch_hands = checked(score_pitch, pitch_inputs(200, rng), 200)
    cases = [
        ("Skat games scored", score_skat, skat_games),
        ("Skat games scored, explained", lambda a: explained(score_skat(a)), skat_games),
        ("Pitch hands scored", score_pitch, pitch_hands),
        ("Pitch hands scored, explained", lambda a: explained(score_pitch(a)), pitch_hands),
    ]
    print(f"referee: {Path(skat.__file__).resolve().parent}")
    print(f"{'case':<30} {'best /s':>12} {'median /s':>12}")
    for name, function, inputs in cases:
        best, median = rate(function, inputs)
        print(f"{name:<30} {best:>12,.0f} {median:>12,.0f}")


if __name__ == "__main__":
    main()
