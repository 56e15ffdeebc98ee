"""A player merge or an owner's role change racing deal writes (issue 19).

On PostgreSQL these aborted one side with a deadlock (a 500): a merge locked the
players, then the seats' results, then each sheet to show the new name, while a deal
write locks its sheet first and then writes that sheet's results; two owners demoting
each other each locked the other's membership, then waited for their own. Writers now
take their locks in one order (scorekeeper/db.py, "Lock order") and a transaction the
database still aborts for a deadlock is run again (``scorekeeper.db.retry_on_conflict``).

Threads with a connection each, as gunicorn's worker threads have; PostgreSQL only:
SQLite takes one lock for the whole file (IMMEDIATE transactions), so it cannot
deadlock on rows, and tests/test_concurrency.py covers it there.
"""

from __future__ import annotations

import datetime
import threading

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError, connection, transaction
from django.db.models import QuerySet

from circles import results
from circles import services as circle_services
from circles.models import Membership, Player, SeatPlayer, SheetResult
from evenings import accounts
from evenings import services as evening_services
from evenings.models import Evening, Payment
from games import services
from games.models import IdempotencyKey, Sheet
from games.rules.errors import RuleError
from games.selectors import live_hands
from scorekeeper import db
from scorekeeper.db import retry_on_conflict
from tests.test_concurrency import together

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="Row-lock deadlocks happen on PostgreSQL only; SQLite locks the whole file "
    "for each write (IMMEDIATE transactions) and waits for it (busy timeout).",
)

WRITERS = 8
DEAL = {"penalties": [0, 5, 10]}


def _write_deals(sheet: Sheet, count: int, *, tag: str, keyed: bool, started=None) -> list:
    """``count`` deals on ``sheet``, one transaction each; the exceptions that escaped.

    With ``keyed`` each goes through the idempotency key, as the API sends it (the
    outermost transaction is ``services.idempotent``'s); without, ``hand_record`` opens
    it, as the pages do."""
    escaped = []
    scope = services.key_scope(sheet=sheet, link=sheet.edit_token)
    for n in range(count):
        try:
            if keyed:

                def record() -> services.Answer:
                    outcome = services.hand_record(sheet=sheet, data=DEAL)
                    return 201, {"number": outcome.hand.number}

                key = f"{tag}-{n}"
                print_ = services.fingerprint("POST", f"/sheets/{sheet.pk}/hands", DEAL)
                services.idempotent(scope=scope, key=key, print_=print_, action=record)
            else:
                services.hand_record(sheet=sheet, data=DEAL)
        except Exception as error:
            escaped.append(error)
        if started is not None:
            started.set()
    return escaped


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_merges_racing_eight_deal_writers_all_succeed_and_every_deal_is_stored_once():
    # Two people who sat at the same table are not merged (a RuleError): the writers
    # write to the kept player's sheets and to the absorbed one's.
    owner = User.objects.create_user("olga", password="pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club")
    rounds, deals = 3, 4
    escaped: list[Exception] = []
    failed_merges: list[Exception] = []
    for round_ in range(rounds):
        keep_name, absorb_name = f"Ana{round_}", f"Anna{round_}"
        sheets = [
            circle_services.sheet_create_in_circle(
                circle=circle,
                game="manipulation",
                players=[keep_name if i % 2 else absorb_name, f"Ben{i}", f"Cem{i}"],
            ).circle_link
            for i in range(WRITERS)
        ]
        keep = Player.objects.get(circle=circle, name=keep_name)
        absorb = Player.objects.get(circle=circle, name=absorb_name)
        started = threading.Event()

        def work(i: int, sheets=sheets, keep=keep, absorb=absorb, started=started, round_=round_):
            if i == WRITERS:
                started.wait(5)  # the merge comes while the deals are being written
                return circle_services.player_merge(keep=keep, absorb=absorb)
            sheet = Sheet.objects.get(pk=sheets[i].pk)
            return _write_deals(
                sheet, deals, tag=f"r{round_}w{i}", keyed=i % 2 == 0, started=started
            )

        results = together(WRITERS + 1, work)
        for result in results[:WRITERS]:
            escaped.extend(result if isinstance(result, list) else [result])
        if isinstance(results[WRITERS], Exception):
            failed_merges.append(results[WRITERS])
            continue  # reported below, with the writes that failed
        # The merge is done: every seat and result of the absorbed player is the kept one's.
        assert not Player.objects.filter(pk=absorb.pk).exists(), results[WRITERS]
        assert not SeatPlayer.objects.filter(player_id=absorb.pk).exists()
        for link in sheets:
            names = [seat.name for seat in Sheet.objects.get(pk=link.pk).seats.all()]
            assert names[0] == keep_name
            assert SeatPlayer.objects.get(sheet=link, position=0).player_id == keep.pk
            # Each result holds every deal of its sheet, none twice.
            result = SheetResult.objects.get(sheet=link, position=0)
            assert result.player_id == keep.pk
            assert result.stats["total"] == 0
            assert SheetResult.objects.get(sheet=link, position=2).stats["total"] == 10 * deals
    assert (failed_merges, escaped) == ([], []), (
        f"{len(failed_merges)} of {rounds} merges and {len(escaped)} of "
        f"{rounds * WRITERS * deals} deals failed: {(failed_merges + escaped)[:3]}"
    )
    # Every deal written exactly once, and every key remembered once.
    for sheet in Sheet.objects.all():
        assert len(live_hands(sheet)) == deals
    assert IdempotencyKey.objects.count() == rounds * WRITERS // 2 * deals


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_owners_demoting_each_other_while_deals_are_written_keep_one_owner():
    ana = User.objects.create_user("ana", password="pw-long-enough-1")
    ben = User.objects.create_user("ben", password="pw-long-enough-1")
    circle = circle_services.circle_create(owner=ana, name="Club")
    circle_services.circle_join(user=ben, token=circle.invite_token)
    sheets = [
        circle_services.sheet_create_in_circle(
            circle=circle, game="manipulation", players=[f"A{i}", f"B{i}", f"C{i}"]
        )
        for i in range(4)
    ]
    rounds, writers = 12, 4
    escaped: list[Exception] = []
    failed_races: list[list[str]] = []
    for round_ in range(rounds):
        Membership.objects.filter(circle=circle).update(role=Membership.OWNER)

        def work(i: int, round_=round_) -> object:
            if i < 2:
                user = (ana, ben)[i]
                membership = Membership.objects.get(circle=circle, user=user)
                try:
                    return circle_services.member_set_role(
                        membership=membership, role=Membership.MEMBER
                    )
                except RuleError as refused:
                    return refused
            sheet = Sheet.objects.get(pk=sheets[i - 2].pk)
            return _write_deals(sheet, 1, tag=f"r{round_}w{i}", keyed=i % 2 == 0)

        results = together(2 + writers, work)
        for result in results[2:]:
            escaped.extend(result if isinstance(result, list) else [result])
        # One of the two stepped down; the other was told a circle needs an owner.
        assert Membership.objects.filter(circle=circle, role=Membership.OWNER).count() == 1
        outcomes = sorted(type(result).__name__ for result in results[:2])
        if outcomes != ["Membership", "RuleError"]:
            failed_races.append(outcomes)
    assert (failed_races, escaped) == ([], []), (
        f"{len(failed_races)} of {rounds} races and {len(escaped)} of {rounds * writers} "
        f"deals failed: {failed_races[:3]} {escaped[:3]}"
    )
    per_sheet = rounds * writers // len(sheets)
    for sheet in sheets:
        assert len(live_hands(sheet)) == per_sheet


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_a_deadlock_the_lock_order_does_not_prevent_is_run_again():
    # Two transactions lock two sheets in opposite orders (what no writer here does):
    # PostgreSQL aborts one of them, which is run again once the other is done.
    first = services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"]).pk
    second = services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"]).pk
    both_hold_one = threading.Barrier(2)
    calls = [0, 0]

    @retry_on_conflict
    def cross(i: int) -> str:
        calls[i] += 1
        with transaction.atomic():
            Sheet.objects.select_for_update().get(pk=(first, second)[i])
            if calls[i] == 1:
                both_hold_one.wait(5)
            Sheet.objects.select_for_update().get(pk=(second, first)[i])
        return "done"

    assert together(2, cross) == ["done", "done"]
    assert sorted(calls) == [1, 2]


class _Aborted(Exception):
    """What psycopg raises for a deadlock; Django raises its OperationalError from it."""

    def __init__(self, sqlstate: str) -> None:
        super().__init__(sqlstate)
        self.sqlstate = sqlstate


def _failing(sqlstate: str, times: int, calls: list[int]):
    def write() -> str:
        calls.append(1)
        if len(calls) <= times:
            raise OperationalError("aborted") from _Aborted(sqlstate)
        return "stored"

    return write


@pytest.fixture
def no_pause(monkeypatch):
    monkeypatch.setattr(db.time, "sleep", lambda seconds: None)


@pytest.mark.usefixtures("no_pause")
@pytest.mark.parametrize("sqlstate", ["40P01", "40001"])
def test_a_deadlock_or_serialization_failure_is_run_again_a_bounded_number_of_times(sqlstate):
    calls: list[int] = []
    assert retry_on_conflict(_failing(sqlstate, 2, calls))() == "stored"
    assert len(calls) == 3
    calls.clear()
    with pytest.raises(OperationalError):
        retry_on_conflict(_failing(sqlstate, 5, calls))()
    assert len(calls) == db.ATTEMPTS


@pytest.mark.usefixtures("no_pause")
def test_other_database_errors_are_not_run_again():
    calls: list[int] = []
    with pytest.raises(OperationalError):
        retry_on_conflict(_failing("53300", 1, calls))()  # too many connections
    assert len(calls) == 1


@pytest.mark.usefixtures("no_pause")
@pytest.mark.django_db
def test_inside_a_transaction_only_the_outermost_one_is_run_again():
    calls: list[int] = []
    with transaction.atomic(), pytest.raises(OperationalError):
        retry_on_conflict(_failing("40P01", 1, calls))()
    assert len(calls) == 1


@pytest.mark.usefixtures("no_pause")
def test_an_error_run_again_already_is_not_run_again_further_out():
    calls: list[int] = []
    inner = retry_on_conflict(_failing("40P01", 10, calls))
    with pytest.raises(OperationalError):
        retry_on_conflict(lambda: inner())()
    assert len(calls) == db.ATTEMPTS


# -- Writes that were missing the retry, the ETag after one, the sheet locked first ------------


def _deadlock_once(monkeypatch, module, name: str, calls: list[int]) -> None:
    """``module.name`` raises a deadlock the first time it is called (after the write
    had stored something in its transaction), then does what it did."""
    original = getattr(module, name)

    def aborting(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            raise OperationalError("deadlock detected") from _Aborted("40P01")
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, aborting)


@pytest.mark.usefixtures("no_pause")
@pytest.mark.django_db(transaction=True)
def test_an_evening_write_aborted_by_a_deadlock_is_run_again_whole(monkeypatch):
    """issue 19: the evenings' writes had no retry: a deadlock PostgreSQL broke (the
    evening's row, then its tables' sheets) answered 500. Run again, the write stores
    what it stores once."""
    evening = evening_services.evening_create(
        name="Club night",
        played_on=datetime.date.today(),
        money={"currency": "EUR", "entry_fee": "6.00"},
    )
    calls: list[int] = []
    _deadlock_once(monkeypatch, evening_services, "_bump", calls)
    added = evening_services.players_add(evening=evening, names=["Anna", "Bernd"])
    assert len(calls) == 2
    assert sorted(p.name for p in added) == ["Anna", "Bernd"]
    assert Evening.objects.get().players.count() == 2
    assert Evening.objects.get().version == 1

    calls.clear()
    _deadlock_once(monkeypatch, accounts, "bump", calls)
    anna = Evening.objects.get().players.get(name="Anna")
    payment = accounts.payment_add(evening=evening, player=anna, amount="6.00", by="olga")
    assert len(calls) == 2
    assert list(Payment.objects.values_list("pk", flat=True)) == [payment.pk]
    assert Evening.objects.get().version == 2


@pytest.mark.usefixtures("no_pause")
@pytest.mark.django_db(transaction=True)
def test_a_deal_retried_after_a_deadlock_answers_the_etag_of_the_version_stored(
    client, monkeypatch
):
    """issue 19: a keyed deal whose first attempt the database aborted after the deal
    was written (here at keeping the answer) is written again; if another writer's deal
    came in between, the version stored is not the first attempt's. The ETag sent was
    the first attempt's version, which was rolled back."""
    sheet = services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"])
    calls: list[int] = []
    _deadlock_once(monkeypatch, services, "_kept", calls)

    def meanwhile(seconds: float) -> None:
        # The other side of the deadlock commits its own deal before this one runs again.
        services.hand_record(sheet=Sheet.objects.get(pk=sheet.pk), data=DEAL)

    monkeypatch.setattr(db.time, "sleep", meanwhile)
    answer = client.post(
        f"/api/v1/sheets/{sheet.pk}/hands",
        data=DEAL,
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {sheet.edit_token}",
        HTTP_IDEMPOTENCY_KEY="deal-1",
    )
    assert answer.status_code == 201, answer.content
    assert len(calls) == 2
    stored = Sheet.objects.get(pk=sheet.pk)
    assert len(live_hands(stored)) == 2
    assert answer.json()["hand"]["number"] == 2
    assert answer["ETag"] == f'"{sheet.pk}-{stored.version}"'


def _locks_taken(monkeypatch) -> list[str]:
    """The models whose rows are locked (``select_for_update``), in the order asked."""
    taken: list[str] = []
    original = QuerySet.select_for_update

    def recording(self, *args, **kwargs):
        taken.append(self.model.__name__)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(QuerySet, "select_for_update", recording)
    return taken


@pytest.mark.django_db
def test_rebuilding_or_leaving_out_a_circle_sheet_locks_the_sheet_before_its_link(monkeypatch):
    """issue 19: ``rebuild_results`` and ``sheet_set_counted`` locked the circle's link
    (CircleSheet), not the sheet's row every write to the sheet locks first (lock order,
    scorekeeper/db.py): the sheet first, then what hangs off it."""
    owner = User.objects.create_user("olga", password="pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club")
    sheet = circle_services.sheet_create_in_circle(
        circle=circle, game="manipulation", players=["Ana", "Ben", "Cem"]
    )
    taken = _locks_taken(monkeypatch)
    results.rebuild_results(circle)
    assert taken[:2] == ["Sheet", "CircleSheet"]
    taken.clear()
    circle_services.sheet_set_counted(link=sheet.circle_link, counted=False)
    assert taken[:2] == ["Sheet", "CircleSheet"]
