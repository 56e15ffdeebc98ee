"""SQLite's write queue (scorekeeper/sqlite_queue.py, scorekeeper/sqlite_backend): every
write transaction takes its turn before BEGIN IMMEDIATE and gives it back however it
ends; threads and processes get their turns in order, never fail with "database is
locked", and nothing is counted twice or lost.

The queue's own tests need no database; the backend's run on SQLite only (on
PostgreSQL there is no such queue: tests/test_concurrency.py covers both).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from django.db import DatabaseError, OperationalError, connection, transaction
from django.db.backends.sqlite3.base import DatabaseWrapper as DjangoSQLite
from django.db.models import F

from games.models import Sheet
from scorekeeper import sqlite_queue
from scorekeeper.sqlite_queue import WriteQueue
from tests.processes import clean_environment

ROOT = Path(__file__).resolve().parent.parent

sqlite_only = pytest.mark.skipif(
    connection.vendor != "sqlite", reason="the write queue is SQLite's (PostgreSQL has row locks)"
)


def wait_until(condition, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.002)


def in_another_thread(work):
    """What ``work()`` returns, run in a thread of its own (a queue's turn held by a
    thread other than the test's)."""
    answers = []
    thread = threading.Thread(target=lambda: answers.append(work()))
    thread.start()
    thread.join(10)
    return answers[0]


# -- the queue -------------------------------------------------------------------------


def test_threads_get_their_turns_in_the_order_they_came(tmp_path):
    queue = WriteQueue(str(tmp_path / "db-queue"))
    first = queue.acquire(1)
    order: list[int] = []

    def writer(i: int) -> None:
        ticket = queue.acquire(10)
        order.append(i)
        queue.release(ticket)

    threads = []
    for i in range(6):
        threads.append(threading.Thread(target=writer, args=(i,)))
        threads[-1].start()
        wait_until(lambda n=i + 1: queue.waiting() == n)  # in line, one after the other
    queue.release(first)
    for thread in threads:
        thread.join(10)
    assert order == [0, 1, 2, 3, 4, 5]
    assert queue.holder is None
    assert queue.taken == 7


def test_a_wait_longer_than_the_timeout_goes_on_without_the_queue_and_leaves_the_line(tmp_path):
    queue = WriteQueue(str(tmp_path / "db-queue"))
    held = queue.acquire(1)
    answers: list[object] = []
    late = threading.Thread(target=lambda: answers.append(queue.acquire(0.05)))
    late.start()
    late.join(5)
    assert answers == [None]
    assert queue.waiting() == 0
    assert queue.given_up == 1
    queue.release(held)
    assert queue.holder is None
    assert queue.release(queue.acquire(1)) is None  # free again


def test_a_thread_that_holds_the_queue_never_waits_for_itself(tmp_path):
    """Another connection of the same thread writing inside a transaction would wait for
    itself forever: it goes on at once (to SQLite's busy handler, as without a queue)."""
    queue = WriteQueue(str(tmp_path / "db-queue"))
    held = queue.acquire(1)
    start = time.monotonic()
    assert queue.acquire(30) is None
    assert time.monotonic() - start < 1
    queue.release(held)


class Interrupted(BaseException):
    """As an exception raised into a waiting thread (a timeout, a KeyboardInterrupt)."""


@pytest.mark.parametrize("turn_came", [False, True], ids=["in line", "its turn came"])
def test_a_waiter_interrupted_leaves_the_line_or_hands_its_turn_on(
    tmp_path, monkeypatch, turn_came
):
    queue = WriteQueue(str(tmp_path / "db-queue"))
    held = in_another_thread(lambda: queue.acquire(1))

    class Turn(threading.Event):
        def wait(self, timeout=None):
            if turn_came:
                queue.release(held)  # the turn is this waiter's now
                assert queue.holder is not None
            raise Interrupted

    class InterruptedTicket(sqlite_queue.Ticket):
        __slots__ = ()

        def __init__(self, queue: WriteQueue) -> None:
            super().__init__(queue)
            self.turn = Turn()

    monkeypatch.setattr(sqlite_queue, "Ticket", InterruptedTicket)
    with pytest.raises(Interrupted):
        queue.acquire(10)
    monkeypatch.undo()
    assert queue.waiting() == 0
    if not turn_came:
        queue.release(held)
    assert queue.holder is None
    queue.release(queue.acquire(1))


HOLDER = """
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o600)
fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.readline()  # until told (or killed)
"""


def hold_in_another_process(path: str) -> subprocess.Popen[str]:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, path],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=clean_environment(),
    )
    assert holder.stdout.readline().strip() == "held"
    return holder


def test_another_process_holding_the_lock_file_makes_the_head_of_the_line_wait(tmp_path):
    path = str(tmp_path / "db-queue")
    queue = WriteQueue(path)
    holder = hold_in_another_process(path)
    try:
        got: list[object] = []
        waiter = threading.Thread(target=lambda: got.append(queue.acquire(10)))
        waiter.start()
        time.sleep(0.1)
        assert got == []  # waits for the other process
        released = time.monotonic()
        holder.stdin.write("\n")
        holder.stdin.flush()
        waiter.join(5)
        # Woken when the other process let go, not after a poll.
        assert time.monotonic() - released < 2
        (ticket,) = got
        assert ticket is not None
        queue.release(ticket)
    finally:
        holder.kill()
        holder.wait()


def test_a_process_that_dies_holding_the_lock_file_leaves_nothing_held(tmp_path):
    path = str(tmp_path / "db-queue")
    queue = WriteQueue(path)
    holder = hold_in_another_process(path)
    got: list[object] = []
    waiter = threading.Thread(target=lambda: got.append(queue.acquire(10)))
    waiter.start()
    time.sleep(0.05)
    holder.kill()  # SIGKILL, as gunicorn's timeout or the load bench does
    holder.wait()
    waiter.join(5)
    assert got
    assert got[0] is not None
    queue.release(got[0])


def test_a_timed_out_wait_for_another_process_lets_the_lock_go_when_it_comes(tmp_path):
    """The blocked flock runs on in a helper thread: when it gets the lock after its
    waiter gave up, it lets it go (or hands it to whoever waits now)."""
    path = str(tmp_path / "db-queue")
    queue = WriteQueue(path)
    holder = hold_in_another_process(path)
    try:
        assert queue.acquire(0.05) is None
        assert queue.holder is None
        holder.stdin.write("\n")
        holder.stdin.flush()
        holder.wait(5)
        # The helper got the lock for nobody, and released it: another process can take it.
        again = hold_in_another_process(path)
        again.kill()
        again.wait()
        ticket = queue.acquire(5)
        assert ticket is not None
        queue.release(ticket)
    finally:
        holder.kill()
        holder.wait()


def test_a_lock_file_that_cannot_be_made_leaves_the_queue_to_the_process(tmp_path, caplog):
    queue = WriteQueue(str(tmp_path / "no such directory" / "db-queue"))
    first = queue.acquire(1)
    assert first is not None  # in line within the process, as before
    assert queue.file.broken
    assert in_another_thread(lambda: queue.acquire(0.05)) is None  # waits for `first`
    queue.release(first)
    queue.release(queue.acquire(1))
    assert [r.levelname for r in caplog.records if "cannot lock" in r.getMessage()] == ["ERROR"]


def test_write_statements_are_told_from_reads():
    assert sqlite_queue.is_write('INSERT INTO "t" VALUES (1)')
    assert sqlite_queue.is_write('  update "t" SET x = 1')
    assert sqlite_queue.is_write('DELETE FROM "t"')
    assert sqlite_queue.is_write("CREATE TABLE t (x)")
    assert sqlite_queue.is_write("WITH a AS (SELECT 1) DELETE FROM t WHERE x IN a")
    assert not sqlite_queue.is_write('SELECT "x" FROM "t"')
    assert not sqlite_queue.is_write("WITH a AS (SELECT 1) SELECT * FROM a")
    assert not sqlite_queue.is_write("PRAGMA journal_mode")
    assert not sqlite_queue.is_write("BEGIN IMMEDIATE")


# -- the backend -----------------------------------------------------------------------


def queue_of(conn=connection) -> WriteQueue:
    conn.ensure_connection()
    queue = conn.write_queue()
    assert queue is not None
    return queue


def new_sheet() -> Sheet:
    return Sheet.objects.create(game="skat")


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_the_settings_put_sqlite_writers_in_line():
    assert connection.settings_dict["ENGINE"] == "scorekeeper.sqlite_backend"
    assert connection.settings_dict["OPTIONS"]["transaction_mode"] == "IMMEDIATE"
    assert queue_of().path == sqlite_queue.lock_path(connection.settings_dict["NAME"])


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_transaction_takes_its_turn_once_and_gives_it_back_at_commit():
    queue = queue_of()
    taken = queue.taken
    with transaction.atomic():
        assert connection.holds_write_queue
        assert queue.holder is not None
        with transaction.atomic():  # a savepoint: no second turn
            Sheet.objects.create(game="skat")
            with transaction.atomic():
                assert connection.holds_write_queue
        assert connection.holds_write_queue
    assert not connection.holds_write_queue
    assert queue.holder is None
    assert queue.taken == taken + 1


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_an_error_inside_gives_the_turn_back_at_rollback_and_a_caught_one_keeps_it():
    queue = queue_of()
    held: list[bool] = []

    def write_and_fail() -> None:
        with transaction.atomic():
            new_sheet()
            try:
                with transaction.atomic():
                    new_sheet()
                    raise ValueError
            except ValueError:
                pass
            held.append(connection.holds_write_queue)  # the savepoint rolled back, not the turn
            raise ZeroDivisionError

    with pytest.raises(ZeroDivisionError):
        write_and_fail()
    assert held == [True]
    assert not connection.holds_write_queue
    assert queue.holder is None
    assert Sheet.objects.count() == 0


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_connection_closed_in_a_transaction_gives_its_turn_back():
    queue = queue_of()

    def close_inside() -> None:
        with transaction.atomic():
            new_sheet()
            connection.close()
            new_sheet()  # "Cannot open a new connection in an atomic block."

    with pytest.raises(DatabaseError):
        close_inside()
    assert queue.holder is None
    assert not connection.holds_write_queue
    assert Sheet.objects.count() == 0


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_failed_begin_or_commit_gives_the_turn_back(monkeypatch):
    queue = queue_of()

    def fail(self):
        raise OperationalError("database is locked")

    monkeypatch.setattr(DjangoSQLite, "_start_transaction_under_autocommit", fail)
    with pytest.raises(OperationalError), transaction.atomic():
        pass  # pragma: no cover
    assert queue.holder is None
    monkeypatch.undo()

    monkeypatch.setattr(DjangoSQLite, "_commit", fail)
    with pytest.raises(OperationalError), transaction.atomic():
        new_sheet()
    monkeypatch.undo()
    assert queue.holder is None
    assert not connection.holds_write_queue
    assert Sheet.objects.count() == 0  # rolled back after the failed commit


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_write_outside_a_transaction_takes_a_turn_for_that_statement_and_reads_none():
    sheet = new_sheet()
    queue = queue_of()
    taken = queue.taken
    Sheet.objects.filter(pk=sheet.pk).update(version=F("version") + 1)  # autocommit
    assert queue.taken == taken + 1
    assert queue.holder is None
    list(Sheet.objects.all())
    Sheet.objects.filter(pk=sheet.pk).exists()
    assert queue.taken == taken + 1


def no_busy_wait() -> None:
    """This thread's connection fails at once where SQLite's lock is taken, instead of
    waiting in the busy handler: every wait must be the queue's."""
    connection.ensure_connection()
    with connection.cursor() as cursor:
        cursor.execute("PRAGMA busy_timeout = 0")


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_a_writer_waits_for_the_one_in_front_instead_of_failing():
    sheet = new_sheet()
    inside = threading.Event()
    go_on = threading.Event()
    errors: list[BaseException] = []

    def first() -> None:
        try:
            no_busy_wait()
            with transaction.atomic():
                Sheet.objects.filter(pk=sheet.pk).update(version=F("version") + 1)
                inside.set()
                go_on.wait(5)
        except BaseException as error:  # pragma: no cover - the test fails below
            errors.append(error)
        finally:
            connection.close()

    def second() -> None:
        try:
            no_busy_wait()
            with transaction.atomic():
                Sheet.objects.filter(pk=sheet.pk).update(version=F("version") * 10)
        except BaseException as error:  # pragma: no cover
            errors.append(error)
        finally:
            connection.close()

    one = threading.Thread(target=first)
    one.start()
    assert inside.wait(5)
    two = threading.Thread(target=second)
    two.start()
    wait_until(lambda: queue_of().waiting() == 1)
    go_on.set()
    one.join(10)
    two.join(10)
    assert errors == []
    sheet.refresh_from_db()
    assert sheet.version == (0 + 1) * 10  # in the order they came


def count_in_threads(pk: int, threads: int, rounds: int) -> list[BaseException]:
    """``threads`` writers, each adding 1 to the sheet's version ``rounds`` times as a read,
    then a write of what was read plus one (a lost update if two overlapped)."""
    start = threading.Barrier(threads)
    errors: list[BaseException] = []

    def writer() -> None:
        try:
            no_busy_wait()
            start.wait()
            for _ in range(rounds):
                with transaction.atomic():
                    version = Sheet.objects.values_list("version", flat=True).get(pk=pk)
                    Sheet.objects.filter(pk=pk).update(version=version + 1)
        except BaseException as error:
            errors.append(error)
        finally:
            connection.close()

    running = [threading.Thread(target=writer) for _ in range(threads)]
    for thread in running:
        thread.start()
    for thread in running:
        thread.join(60)
    return errors


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_threads_writing_at_once_never_meet_a_locked_database_and_lose_nothing():
    sheet = new_sheet()
    errors = count_in_threads(sheet.pk, threads=4, rounds=50)
    assert errors == []
    sheet.refresh_from_db()
    assert sheet.version == 4 * 50


WRITER = """
import sys, threading
import django
django.setup()
from django.db import connection
from tests.test_sqlite_queue import count_in_threads
print(f"go {connection.settings_dict['ENGINE']}", flush=True)
sys.stdin.readline()
errors = count_in_threads(int(sys.argv[1]), threads=2, rounds=int(sys.argv[2]))
print(repr(errors) if errors else "ok", flush=True)
"""


@sqlite_only
@pytest.mark.django_db(transaction=True)
def test_two_processes_writing_at_once_never_meet_a_locked_database_and_lose_nothing(tmp_path):
    """Two processes (as gunicorn's workers) of two threads each, and this one's four,
    on one database file: SQLite's busy handler is off, so every wait is the queue's."""
    sheet = new_sheet()
    env = clean_environment(
        DJANGO_SETTINGS_MODULE="scorekeeper.settings",
        DATA_DIR=str(tmp_path / "var"),
        SECRET_KEY="test-" + "x" * 50,
        DATABASE_URL=f"sqlite:///{connection.settings_dict['NAME']}",
    )
    rounds = 40
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(sheet.pk), str(rounds)],
            cwd=ROOT,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    try:
        for worker in workers:
            line = worker.stdout.readline().strip()
            assert line == "go scorekeeper.sqlite_backend", worker.stderr.read()
        for worker in workers:  # released together
            worker.stdin.write("\n")
            worker.stdin.flush()
        errors = count_in_threads(sheet.pk, threads=4, rounds=rounds)
        outputs = [worker.communicate(timeout=60) for worker in workers]
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()
    assert errors == []
    assert [out.strip() for out, _ in outputs] == ["ok", "ok"], [err for _, err in outputs]
    sheet.refresh_from_db()
    assert sheet.version == (4 + 2 * 2) * rounds
