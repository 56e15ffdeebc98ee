"""A sheet engine's record: its running counts as plain data, and the engine rebuilt from it.

The app keeps a record of each sheet instead of the engine itself (games/snapshots.py):
the counts after a deal and after each deal since. An engine rebuilt from the record
after ``n`` deals must take deal ``n + 1`` exactly as an engine that replayed all of
them does: the same deal result (its explanation included), the same totals, headline,
next deal and standings, and the same record after it. A record is read like input: anything this code does not write is refused
with ``UnreadableRecord`` (the app then replays the deals), never another exception.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules.errors import RuleError
from games.rules.manipulation import ManipulationOptions
from games.rules.manipulation_sheet import ManipulationDeal, ManipulationSheet
from games.rules.pitch import PitchOptions
from games.rules.pitch_sheet import PitchDeal, PitchSheet
from games.rules.sheet import RunningSheet, SheetState, UnreadableRecord
from games.rules.skat import Matadors
from games.rules.skat_sheet import SkatDeal, SkatSheet
from tests.rules.test_manipulation_sheet import hand_rounds, penalty_rounds
from tests.rules.test_pitch_sheet import PLAYERS, deals_strategy, options_strategy
from tests.rules.test_skat_sheet import FOUR, THREE, abstract_deals, concrete, options, tables


def played(kind: type[RunningSheet], table: dict, deals: list) -> RunningSheet:
    sheet = kind(**table)
    for deal in deals:
        sheet.add(deal)
    return sheet


def as_kept(record: dict) -> dict:
    """The record as the database gives it back: JSON, written and read."""
    return json.loads(json.dumps(record))


def assert_same_state(rebuilt: SheetState, replayed: SheetState) -> None:
    """Everything but the deal list, which lists the deals the rebuilt engine scored."""
    assert rebuilt.players == replayed.players
    assert rebuilt.totals == replayed.totals
    assert rebuilt.finished == replayed.finished
    assert rebuilt.winners == replayed.winners
    assert rebuilt.next_deal == replayed.next_deal
    assert rebuilt.headline == replayed.headline
    assert rebuilt.details == replayed.details
    listed = len(rebuilt.deals)
    assert rebuilt.deals == (replayed.deals[-listed:] if listed else ())


# -- random legal sheets of each game ----------------------------------------------------


@st.composite
def skat_sheets(draw):
    players, first_dealer, kontra_re, chosen = draw(tables(series=(1, 30), bock_may_be_off=True))
    plan = draw(st.lists(abstract_deals(kontra_re), min_size=1, max_size=30))
    table = {"players": players, "first_dealer": first_dealer, "options": chosen}
    driver, deals = SkatSheet(**table), []
    for item in plan:
        if driver.finished:
            break
        deal = concrete(item, driver)
        driver.add(deal)
        deals.append(deal)
    return SkatSheet, table, deals


@st.composite
def pitch_sheets(draw):
    table = {
        "players": PLAYERS,
        "first_dealer": draw(st.integers(0, 3)),
        "options": draw(options_strategy),
    }
    driver, deals = PitchSheet(**table), []
    for deal in draw(st.lists(deals_strategy, min_size=1, max_size=30)):
        if driver.state.finished:
            break
        driver.add(deal)
        deals.append(deal)
    return PitchSheet, table, deals


@st.composite
def manipulation_sheets(draw):
    players = draw(st.sampled_from((THREE, FOUR, (*FOUR, "Eva"))))
    table = {
        "players": players,
        "first_dealer": draw(st.integers(0, len(players) - 1)),
        "options": ManipulationOptions(target=draw(st.sampled_from((200, 300)))),
    }
    rounds = draw(st.sampled_from((penalty_rounds, hand_rounds)))
    driver, deals = ManipulationSheet(**table), []
    for deal in draw(st.lists(rounds(len(players)), min_size=1, max_size=20)):
        if driver.finished:
            break
        driver.add(deal)
        deals.append(deal)
    return ManipulationSheet, table, deals


SHEETS = st.one_of(skat_sheets(), pitch_sheets(), manipulation_sheets())


@settings(max_examples=90, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheet=SHEETS, data=st.data())
def test_an_engine_rebuilt_from_its_record_takes_the_next_deal_as_a_full_replay(sheet, data):
    kind, table, deals = sheet
    n = data.draw(st.integers(0, len(deals) - 1), label="deals before the record")
    replayed = played(kind, table, deals[: n + 1])
    before = played(kind, table, deals[:n])

    rebuilt = kind.from_record(as_kept(before.record()), **table)
    assert (rebuilt.deals_before, rebuilt.deals_played, rebuilt.counted_from) == (n, n, n)
    assert_same_state(rebuilt.state, before.state)
    result = rebuilt.add(deals[n])
    # The deal as scored, its summary and explanation included, and the state after it.
    assert result == replayed.state.deals[-1]
    assert result.explanation == replayed.state.deals[-1].explanation
    assert (rebuilt.deals_before, rebuilt.deals_played) == (n, n + 1)
    assert_same_state(rebuilt.state, replayed.state)
    assert rebuilt.record() == replayed.record()
    if replayed.state.finished:
        # Over is over, and said the same way (Pitch says why the game ended).
        with pytest.raises(RuleError) as after_replay:
            replayed.add(deals[n])
        with pytest.raises(RuleError) as after_record:
            rebuilt.add(deals[n])
        assert after_record.value.problems == after_replay.value.problems

    # From the counts after an earlier deal, the deals after it are listed as the
    # replay lists them (what a sheet page shows from a kept record).
    k = data.draw(st.integers(0, n + 1), label="the record's deal")
    again = kind.from_record(as_kept(replayed.record(after=k, through=k)), **table)
    for deal in deals[k : n + 1]:
        again.add(deal)
    assert again.state.deals == replayed.state.deals[k:]
    assert_same_state(again.state, replayed.state)

    # The counts after deal k and each deal since: the engine stands after the last, and
    # gives back the earlier ones, as a sheet keeps them for its next write.
    run = as_kept(replayed.record(after=k))
    assert len(run["counts"]) == n + 2 - k
    ahead = kind.from_record(run, **table)
    assert (ahead.deals_before, ahead.deals_played, ahead.counted_from) == (n + 1, n + 1, k)
    assert ahead.record(after=k) == run
    assert_same_state(ahead.state, replayed.state)


def test_the_counts_after_any_deal_the_engine_saw_and_no_other():
    sheet = played(ManipulationSheet, {"players": THREE, "first_dealer": 0}, [])
    for _ in range(3):
        sheet.add(ManipulationDeal(penalties=(0, 5, 10)))
    assert [counts["totals"] for counts in sheet.record(after=0)["counts"]] == [
        [0, 0, 0],
        [0, 5, 10],
        [0, 10, 20],
        [0, 15, 30],
    ]
    assert sheet.record(after=1, through=2)["counts"] == [
        {"totals": [0, 5, 10], "winners": []},
        {"totals": [0, 10, 20], "winners": []},
    ]
    rebuilt = ManipulationSheet.from_record(sheet.record(after=2), players=THREE, first_dealer=0)
    assert rebuilt.deals_played == 3
    with pytest.raises(ValueError):
        rebuilt.record(after=1)  # before the record it started from
    with pytest.raises(ValueError):
        sheet.record(after=4)
    with pytest.raises(ValueError):
        sheet.record(after=2, through=1)


def test_a_record_is_small_plain_data():
    sheet = played(
        SkatSheet,
        {"players": THREE, "first_dealer": 0},
        [
            SkatDeal(
                declarer=1,
                game={
                    "game": "grand",
                    "bid": 18,
                    "matadors": Matadors("with", 1),
                    "outcome": "won",
                },
            )
        ],
    )
    assert as_kept(sheet.record()) == {
        "game": "skat",
        "format": 1,
        "deals": 1,
        "counts": [
            {
                "list_points": [0, 48, 0],
                "games_won": [0, 1, 0],
                "games_lost": [0, 0, 0],
                "lost_by_others": [0, 0, 0],
                "bock_owed": 0,
            }
        ],
    }
    # Changing what record() gave changes nothing kept.
    record = sheet.record()
    record["counts"][0]["list_points"][1] = 5
    assert sheet.record()["counts"][0]["list_points"] == [0, 48, 0]


# -- records read like input ---------------------------------------------------------------

SKAT = SkatSheet, {"players": THREE, "first_dealer": 0, "options": options(series_deals=12)}
PITCH = PitchSheet, {"players": PLAYERS, "first_dealer": 0, "options": PitchOptions()}
MANIPULATION = ManipulationSheet, {"players": THREE, "first_dealer": 0}


ALL_A = dict.fromkeys(
    ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three"), "A"
)


def good(game) -> dict:
    kind, table = game
    deals = {
        SkatSheet: [
            SkatDeal(
                declarer=1,
                game={
                    "game": "clubs",
                    "bid": 18,
                    "matadors": Matadors("with", 1),
                    "outcome": "lost",
                },
            ),
            SkatDeal(passed=True),
        ],
        # Team A makes 4, then shoots the moon from 10 and wins (Pitch rules, "Shooting
        # the moon"): a game over, with how it ended.
        PitchSheet: [PitchDeal(pitcher=0, bid=4, points=ALL_A), PitchDeal(2, "moon", ALL_A)],
        ManipulationSheet: [ManipulationDeal(penalties=(0, 150, 65))],
    }[kind]
    return as_kept(played(kind, table, deals).record())


def changed(record: dict, path: str, value) -> dict:
    changed = copy.deepcopy(record)
    *parents, last = path.split(".")
    target = changed
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]
    if value is DELETE:
        del target[last]
    elif isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value
    return changed


class _Delete:
    """In place of a value: the key left out."""

    def __repr__(self) -> str:
        return "left-out"


DELETE = _Delete()

NOT_RECORDS = [
    # Every game
    *(
        pytest.param(game, path, value, id=f"{game[0].GAME}-{path}-{value!r}")
        for game in (SKAT, PITCH, MANIPULATION)
        for path, value in [
            ("format", 2),
            ("format", True),
            ("format", "1"),
            ("game", "schafkopf"),
            ("deals", -1),
            ("deals", 1.0),
            ("deals", True),
            ("deals", None),
            ("deals", 10**9),
            ("counts", []),
            ("counts", {}),
            ("counts", [None]),
            ("counts", None),
            ("counts.0.extra", 1),
            ("extra", 1),
            ("deals", DELETE),
        ]
    ),
    # Skat: the tally and the Bock deals owed
    pytest.param(SKAT, "counts.0.list_points", [0, 0], id="skat-too-few-seats"),
    pytest.param(SKAT, "counts.0.list_points.1", "-36", id="skat-text"),
    pytest.param(SKAT, "counts.0.list_points.1", 10**12, id="skat-far-too-many-points"),
    pytest.param(SKAT, "counts.0.games_won.0", True, id="skat-bool"),
    pytest.param(SKAT, "counts.0.games_won.0", 3, id="skat-more-games-than-deals"),
    pytest.param(SKAT, "counts.0.games_lost.1", 0, id="skat-others-lost-what-nobody-lost"),
    pytest.param(SKAT, "counts.0.lost_by_others", [1, 1, 1], id="skat-lost-by-everyone"),
    pytest.param(SKAT, "counts.0.bock_owed", -1, id="skat-bock-owed-below-zero"),
    pytest.param(SKAT, "counts.0.bock_owed", 25, id="skat-more-bock-than-possible"),
    pytest.param(SKAT, "counts.0.bock_owed", DELETE, id="skat-no-bock"),
    pytest.param(SKAT, "deals", 13, id="skat-longer-than-the-series"),
    # Pitch: the teams and how the game ended
    pytest.param(PITCH, "counts.0.teams", {"A": 1}, id="pitch-one-team"),
    pytest.param(PITCH, "counts.0.teams", {"A": 1, "B": 2, "C": 3}, id="pitch-three-teams"),
    pytest.param(PITCH, "counts.0.teams.A", 5.5, id="pitch-half-a-point"),
    pytest.param(PITCH, "counts.0.winner", "C", id="pitch-no-such-team"),
    pytest.param(PITCH, "counts.0.winner", None, id="pitch-ended-without-a-winner"),
    pytest.param(PITCH, "counts.0.ended_by", None, id="pitch-won-without-an-ending"),
    pytest.param(PITCH, "counts.0.ended_by.moon", "yes", id="pitch-moon-text"),
    pytest.param(PITCH, "counts.0.ended_by.team", "C", id="pitch-ended-by-no-team"),
    pytest.param(PITCH, "deals", 0, id="pitch-won-before-a-deal"),
    pytest.param(PITCH, "counts.0.level", "yes", id="pitch-level-text"),
    pytest.param(PITCH, "counts.0.level", True, id="pitch-level-with-a-winner"),
    pytest.param(PITCH, "counts.0.ended_by.hands", 1, id="pitch-hands-ending-a-number"),
    # Manipulation: totals and winners
    pytest.param(MANIPULATION, "counts.0.totals.0", -5, id="manipulation-below-zero"),
    pytest.param(MANIPULATION, "counts.0.totals", [0, 150, 65, 0], id="manipulation-four-seats"),
    pytest.param(MANIPULATION, "counts.0.winners", [0, 0], id="manipulation-winner-twice"),
    pytest.param(MANIPULATION, "counts.0.winners", [3], id="manipulation-no-such-seat"),
    pytest.param(MANIPULATION, "counts.0.winners", 0, id="manipulation-winners-not-a-list"),
    # (audit of stop 33) Totals a round cannot give, winners the totals do not give.
    pytest.param(MANIPULATION, "counts.0.totals", [7, 3, 1], id="manipulation-not-fives"),
    pytest.param(MANIPULATION, "counts.0.winners", [0], id="manipulation-won-below-the-target"),
    pytest.param(MANIPULATION, "counts.0.totals", [0, 250, 5], id="manipulation-over-no-winner"),
    pytest.param(
        MANIPULATION,
        "counts.0",
        {"totals": [0, 250, 5], "winners": [1]},
        id="manipulation-highest-total-won",
    ),
]


@pytest.mark.parametrize(("game", "path", "value"), NOT_RECORDS)
def test_a_record_this_code_does_not_write_is_refused(game, path, value):
    kind, table = game
    kind.from_record(good(game), **table)  # the record as written is read
    with pytest.raises(UnreadableRecord):
        kind.from_record(changed(good(game), path, value), **table)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**12), 10**12) | st.floats() | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None)
@given(game=st.sampled_from((SKAT, PITCH, MANIPULATION)), data=st.data())
def test_any_json_is_read_or_refused_never_an_error(game, data):
    kind, table = game
    record = good(game)
    # Anything in place of one part of a good record, or of the whole.
    paths = ["", "game", "format", "deals", "counts", "counts.0"]
    paths += [f"counts.0.{key}" for key in record["counts"][0]]
    path = data.draw(st.sampled_from(paths))
    value = data.draw(JSON)
    candidate = value if not path else changed(record, path, value)
    try:
        sheet = kind.from_record(candidate, **table)
    except UnreadableRecord:
        return
    # Read: it says back what it read, and takes a state.
    assert sheet.record() == candidate
    assert sheet.state.players == tuple(table["players"])
