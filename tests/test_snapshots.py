"""The engine a sheet keeps from its last write (games.snapshots) is only a cache.

Whatever sequence of writes a sheet sees, what the page and the next deal start
from must be what replaying every deal gives; a kept record that is old, damaged,
written by other rules code or not a record at all is never used. (Issue 9: the next
deal, its preview and the page cost the same at deal 200 as at deal 10.) What is kept
is a small, plain record of the running counts, finished sheets' too, never a pickle.
"""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.db.models import JSONField, Value
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import selectors, services, snapshots
from games.models import Hand, Sheet, SheetSnapshot
from games.rules.errors import RuleError

pytestmark = pytest.mark.django_db

THREE = ["Ana", "Ben", "Cem"]


def penalties(*points: int) -> dict:
    return {"penalties": list(points)}


def skat(number: int) -> dict:
    """Suit, grand and null games, won and lost, and a passed deal now and then."""
    if number % 5 == 4:
        return {"passed": True}
    if number % 4 == 3:
        return {"declarer": number % 3, "game": "null", "bid": 23, "outcome": "lost"}
    game = ["clubs", "grand", "hearts"][number % 4]
    return {
        "declarer": number % 3,
        "game": game,
        "bid": 18,
        # A grand with 4 is worth 5 × 24 = 120 (Skat rules, "Game value").
        "matadors": {"with": 4 if game == "grand" else 1 + number % 3},
        "outcome": "won" if number % 3 else "lost",
    }


def fresh(sheet: Sheet) -> Sheet:
    return Sheet.objects.get(pk=sheet.pk)


def assert_same_as_replay(sheet: Sheet) -> None:
    sheet = fresh(sheet)
    kept = selectors.current_state(sheet)
    replayed = selectors.sheet_state(sheet)
    assert kept.totals == replayed.totals
    assert kept.headline == replayed.headline
    assert kept.next_deal == replayed.next_deal
    assert kept.finished == replayed.finished
    assert kept.winners == replayed.winners
    assert sheet.deal_count == len(replayed.deals)
    # The latest deals, explanations included, are the replay's.
    assert kept.deals == replayed.deals[-len(kept.deals) :] if kept.deals else not replayed.deals
    assert len(kept.deals) <= snapshots.TAIL + 1


# Manipulation: a round's penalties (Manipulation rules, "Scoring": the player who
# goes out scores 0, the others 5, 10 or 15 for each card left in hand).
def _round(out: int, first: int, second: int) -> dict:
    others = iter((first * 5, second * 5))
    return penalties(*(0 if seat == out else next(others) for seat in range(3)))


ROUND = st.builds(_round, st.sampled_from([0, 1, 2]), st.integers(1, 12), st.integers(1, 12))
WRITE = st.one_of(
    st.tuples(st.just("record"), ROUND),
    st.tuples(st.just("correct"), st.tuples(st.integers(1, 40), ROUND)),
    st.tuples(st.just("remove"), st.integers(1, 40)),
    st.tuples(st.just("restore"), st.none()),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(writes=st.lists(WRITE, min_size=1, max_size=30))
def test_any_sequence_of_writes_keeps_the_engine_of_a_full_replay(writes):
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    for kind, value in writes:
        sheet = fresh(sheet)
        try:
            if kind == "record":
                services.hand_record(sheet=sheet, data=value)
            elif kind == "correct":
                services.hand_correct(sheet=sheet, number=value[0], data=value[1])
            elif kind == "remove":
                services.hand_remove(sheet=sheet, number=value)
            else:
                services.hand_restore(sheet=sheet)
        except RuleError:
            pass  # refused: nothing changed, and the engine must still be right
        assert_same_as_replay(sheet)


def test_a_long_skat_series_keeps_the_replays_totals_seeger_fabian_and_bock():
    # Skat rules, "Seeger-Fabian" and "Bock": the tally and the Bock queue span the
    # whole series, so the kept engine must carry them past the latest deals it lists.
    sheet = services.sheet_create(
        game="skat",
        players=THREE,
        options={"series_deals": 60, "bock": {"hundred_or_more": True}},
    )
    for number in range(40):
        services.hand_record(sheet=fresh(sheet), data=skat(number))
        if number % 7 == 0:
            assert_same_as_replay(sheet)
    assert_same_as_replay(sheet)
    replayed = selectors.sheet_state(fresh(sheet))
    kept = selectors.current_state(fresh(sheet))
    assert kept.details["seeger_fabian"] == replayed.details["seeger_fabian"]
    # Games worth 100 or more queued Bock deals on the way (Skat rules, "Bock").
    assert any(deal.details["bock"] for deal in replayed.deals)


def no_full_replay():
    """Nothing replays the sheet from its first deal."""
    refuse = mock.Mock(side_effect=AssertionError("the whole sheet was replayed"))
    return mock.patch.multiple(
        selectors, sheet_state=refuse, replayed_engine=refuse, live_hands=refuse
    )


def test_a_new_deal_replays_nothing():
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    for _ in range(30):
        services.hand_record(sheet=fresh(sheet), data=penalties(0, 5, 5))
    read_back = mock.Mock(side_effect=AssertionError("deals were read back"))
    with no_full_replay(), mock.patch.object(selectors, "_hands_after", read_back):
        outcome = services.hand_record(sheet=fresh(sheet), data=penalties(0, 15, 20))
    assert outcome.hands is None  # nothing was read back and replayed
    assert outcome.deal.number == 31
    assert outcome.state.totals == (0, 165, 170)
    assert [deal.number for deal in outcome.state.deals] == [31]
    assert fresh(sheet).deal_count == 31
    # Kept for the next write and the page: the counts after deal 19, before the twelve
    # deals the page lists, and after each of them.
    kept = SheetSnapshot.objects.get(sheet=sheet).engine
    assert kept["engine"]["deals"] == 31 - snapshots.TAIL
    assert [counts["totals"] for counts in kept["engine"]["counts"]] == [
        [0, 5 * deals, 5 * deals] for deals in range(19, 31)
    ] + [[0, 165, 170]]


def test_the_page_replays_only_the_deals_it_lists():
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    for _ in range(25):
        services.hand_record(sheet=fresh(sheet), data=penalties(0, 5, 5))
    sheet = fresh(sheet)
    with no_full_replay():
        listed = selectors.latest_hands(sheet)
        with mock.patch.object(Hand.objects, "filter", side_effect=AssertionError):
            # The deals the page read are the ones replayed: not read again.
            state = selectors.current_state(sheet)
    assert [hand.number for hand in listed] == list(range(14, 26))
    assert [deal.number for deal in state.deals] == list(range(14, 26))
    assert state.totals == (0, 125, 125)
    # Asked alone (a deal's explanation), it reads them.
    with no_full_replay():
        assert selectors.current_state(fresh(sheet)) == state


def test_a_record_kept_by_other_rules_code_is_replaced_by_a_replay(monkeypatch):
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    services.hand_record(sheet=fresh(sheet), data=penalties(0, 10, 20))
    monkeypatch.setattr(snapshots, "RULES", "0" * 16)
    assert selectors.current_state(fresh(sheet)).totals == (0, 10, 20)
    # Kept again, by this rules code.
    assert SheetSnapshot.objects.get(sheet=sheet).engine["rules"] == "0" * 16


def test_a_damaged_record_is_replaced_by_a_replay():
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    services.hand_record(sheet=fresh(sheet), data=penalties(0, 10, 20))
    SheetSnapshot.objects.filter(sheet=sheet).update(engine="garbage")
    assert selectors.current_state(fresh(sheet)).totals == (0, 10, 20)
    outcome = services.hand_record(sheet=fresh(sheet), data=penalties(5, 0, 20))
    assert outcome.state.totals == (5, 10, 40)


def test_an_engine_of_an_older_version_is_not_used():
    # Deals stored around the services (an import) move the version on: the engine
    # kept before is not the sheet's any more.
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    Hand.objects.create(sheet=sheet, number=1, entry=penalties(0, 10, 20))
    Sheet.objects.filter(pk=sheet.pk).update(version=1, deal_count=1)
    assert selectors.current_state(fresh(sheet)).totals == (0, 10, 20)
    outcome = services.hand_record(sheet=fresh(sheet), data=penalties(5, 0, 20))
    assert outcome.hand.number == 2


def test_the_kept_engine_lists_the_latest_deals_only():
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    for _ in range(20):
        services.hand_record(sheet=fresh(sheet), data=penalties(0, 5, 10))
    state = selectors.current_state(fresh(sheet))
    assert [deal.number for deal in state.deals] == list(range(9, 21))
    assert state.next_deal.number == 21
    # Counted, not pretended: the engine for the next deal lists none of the 20 before.
    engine = selectors.engine_for(fresh(sheet))
    assert (engine.deals_before, engine.deals_played, engine.counted_from) == (20, 20, 8)
    assert engine.state.deals == ()
    assert engine.state.next_deal.number == 21


def test_a_finished_sheet_keeps_a_few_hundred_bytes_of_plain_json():
    # Skat rules, "Keeping the score sheet": a series of 36 deals at three; its record
    # holds the Seeger-Fabian counts and the Bock deals owed, not the deals.
    sheet = services.sheet_create(game="skat", players=THREE, options={})
    for number in range(36):
        services.hand_record(sheet=fresh(sheet), data=skat(number))
    assert fresh(sheet).finished
    kept = SheetSnapshot.objects.get(sheet=sheet).engine
    assert len(json.dumps(kept)) < 400
    # The counts before the twelve deals its page lists, and nothing after: it takes no
    # more deals.
    assert kept["engine"]["deals"] == 36 - snapshots.TAIL
    assert len(kept["engine"]["counts"]) == 1
    assert set(kept["engine"]["counts"][0]) == {
        "list_points",
        "games_won",
        "games_lost",
        "lost_by_others",
        "bock_owed",
    }
    assert_same_as_replay(sheet)


def kept(engine: object = None, **changed) -> dict:
    """What a sheet of THREE keeps, its engine's record replaced, other parts changed."""
    return {
        "format": 1,
        "rules": snapshots.RULES,
        "players": list(THREE),
        "engine": engine,
        **changed,
    }


def counts(*totals, deals=1, game="manipulation") -> dict:
    return {
        "game": game,
        "format": 1,
        "deals": deals,
        "counts": [{"totals": list(totals), "winners": []}],
    }


HOSTILE = [
    None,
    "gASVGQAAAAAAAACMCGJ1aWx0aW5zlIwEZXhlY5STlC4=",  # a pickle, base64: only ever text here
    [],
    {},
    {"format": 1, "rules": snapshots.RULES},
    kept(counts(0, 10, 20), format=True),
    kept(counts(0, 10, 20), format=2),
    kept(counts(0, 10, 20), rules="0" * 16),
    kept(counts(0, 10, 20), extra=1),
    kept(counts(0, 10, 20), players=[1, 2, 3]),
    kept(counts(0, 10, 20), players=["Ana", "Ben"]),
    kept(counts(0, 10, 20), players=["Ana", "Ana", "Ana"]),
    kept(counts(0, 10, 20), players="Ana"),
    kept("import os"),
    kept({"game": "manipulation"}),
    kept(counts(0, "10", 20)),
    kept(counts(0, 10, 20, deals=10**30)),
    kept(counts(0, 10, 20, deals=0)),
    kept(counts(0, 10, 20, game="skat")),
    kept({**counts(0, 10, 20), "counts": [{"totals": [0, 10, 20], "winners": [], "x": 1}]}),
]


@pytest.mark.parametrize("hostile", HOSTILE, ids=range(len(HOSTILE)))
def test_whatever_the_column_holds_the_sheet_replays_its_deals(hostile):
    """A record is read like input (issue 19: an edited backup, a database writer): what
    the engine does not take is ignored and the deals are replayed; nothing is run."""
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    services.hand_record(sheet=fresh(sheet), data=penalties(0, 10, 20))
    # None is stored as JSON's null, not as SQL's NULL (the column refuses that).
    stored = Value(None, JSONField()) if hostile is None else hostile
    SheetSnapshot.objects.filter(sheet=sheet).update(engine=stored)
    assert selectors.current_state(fresh(sheet)).totals == (0, 10, 20)
    # Kept again, as this code writes it: the counts after no deal and after the first.
    written = counts(0, 0, 0, deals=0)
    written["counts"].append({"totals": [0, 10, 20], "winners": []})
    assert SheetSnapshot.objects.get(sheet=sheet).engine == kept(written)
    assert SheetSnapshot.objects.get(sheet=sheet).engine == snapshots.dump(
        selectors.replayed_engine(fresh(sheet), selectors.live_hands(sheet))
    )
