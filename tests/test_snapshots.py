"""The engine a sheet keeps from its last write (games.snapshots) is only a cache.

Whatever sequence of writes a sheet sees, what the page and the next deal start
from must be what replaying every deal gives; a kept engine that is old, damaged or
written by other rules code is never used. (Issue 9: the next deal, its preview and
the page cost the same at deal 200 as at deal 10.)
"""

from __future__ import annotations

import pickle

import pytest
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


def test_a_new_deal_replays_nothing():
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    for _ in range(30):
        services.hand_record(sheet=fresh(sheet), data=penalties(0, 5, 5))
    outcome = services.hand_record(sheet=fresh(sheet), data=penalties(0, 15, 20))
    assert outcome.hands is None  # nothing was read back and replayed
    assert outcome.deal.number == 31
    assert outcome.state.totals == (0, 165, 170)
    assert fresh(sheet).deal_count == 31


def test_an_engine_kept_by_other_rules_code_is_replaced_by_a_replay(monkeypatch):
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    services.hand_record(sheet=fresh(sheet), data=penalties(0, 10, 20))
    monkeypatch.setattr(snapshots, "RULES_HASH", b"\x00" * 8)
    assert selectors.current_state(fresh(sheet)).totals == (0, 10, 20)
    # Kept again, by this rules code.
    kept = SheetSnapshot.objects.get(sheet=sheet)
    assert bytes(kept.engine).startswith(b"\x00" * 8)


def test_a_damaged_engine_is_replaced_by_a_replay():
    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    services.hand_record(sheet=fresh(sheet), data=penalties(0, 10, 20))
    SheetSnapshot.objects.filter(sheet=sheet).update(engine=snapshots.RULES_HASH + b"garbage")
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
    blob = SheetSnapshot.objects.get(sheet=sheet).engine
    engine = snapshots.load(blob)
    assert len(engine._deals) == 20
    assert [deal.number for deal in engine._deals] == list(range(9, 21))


class _Payload:
    """What an edited backup could keep: unpickled, it would run code."""

    def __reduce__(self):
        return (exec, ("import builtins; builtins.SCOREKEEPER_PWNED = True",))


def test_a_kept_engine_that_this_project_did_not_sign_is_never_unpickled(settings):
    """Issue 19: a snapshot edited in the database (a restored backup, a writer without
    the secret key) must not run code on the next sheet view; the sheet replays."""
    import builtins

    sheet = services.sheet_create(game="manipulation", players=THREE, options={"target": 300})
    services.hand_record(sheet=fresh(sheet), data=penalties(0, 10, 20))
    payload = pickle.dumps(_Payload())
    for forged in (
        snapshots.RULES_HASH + payload,  # no signature at all
        snapshots.RULES_HASH + b"\x00" * snapshots.SIGNATURE + payload,  # a wrong one
    ):
        SheetSnapshot.objects.filter(sheet=sheet).update(engine=forged)
        assert selectors.current_state(fresh(sheet)).totals == (0, 10, 20)
        assert not hasattr(builtins, "SCOREKEEPER_PWNED")
    # Signed with another secret key: not loaded either.
    good = bytes(SheetSnapshot.objects.get(sheet=sheet).engine)
    assert snapshots.load(good) is not None
    settings.SECRET_KEY = "another-secret-key-entirely-0123456789"
    assert snapshots.load(good) is None
