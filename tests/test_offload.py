"""Slow referee work in a helper process gives the same answers (games/offload.py).

Issue 9: laying out 104 cards must never hold up entering deals; the helper runs
it off the worker's interpreter lock, niced. (How much it helps is measured in
bench/bench_isolation.py.)
"""

from __future__ import annotations

import os

import pytest

from games import offload
from games.rules import manipulation
from games.rules.cards import MANIPULATION_DECK, parse_card
from games.rules.errors import RuleError


def _helper_pid() -> int:
    return os.getpid()


def _niceness() -> int:
    return os.nice(0)


@pytest.fixture
def helper(settings):
    settings.REFEREE_PROCESSES = 1
    yield
    if offload._pool is not None:
        offload._forget(offload._pool)


def test_work_runs_in_a_niced_helper_process(helper):
    assert offload.run(_helper_pid) != os.getpid()
    assert offload.run(_niceness) >= os.nice(0) + offload.NICENESS or os.nice(0) >= 19


def test_an_arrangement_is_the_same_in_the_helper(helper):
    # Manipulation rules, "Melds": both decks lay out as runs and groups.
    cards = list(MANIPULATION_DECK.cards)
    options = manipulation.ManipulationOptions()
    here = manipulation.arrange(cards=cards, options=options)
    there = offload.run(manipulation.arrange, cards=cards, options=options)
    assert there.possible is here.possible is True
    assert there.melds == here.melds
    assert there.explanation == here.explanation


def test_a_refusal_keeps_its_fields(helper):
    cards = [parse_card("7H"), parse_card("7H"), parse_card("7H")]
    with pytest.raises(RuleError) as here:
        manipulation.arrange(cards=cards, options=manipulation.ManipulationOptions())
    with pytest.raises(RuleError) as there:
        offload.run(manipulation.arrange, cards=cards, options=manipulation.ManipulationOptions())
    assert there.value.problems == here.value.problems


def test_without_helpers_the_work_runs_here(settings):
    settings.REFEREE_PROCESSES = 0
    assert offload.run(_helper_pid) == os.getpid()
