"""SQLite's writers in line: a fair queue in front of the database's write lock.

SQLite lets one writer at a time in. The others wait in its busy handler, which tries
the lock again after sleeps that grow (1 ms, 2 ms, 5 ms … up to 100 ms each): whoever
happens to try right after the lock is freed gets it, and a writer that has slept
long keeps sleeping long. Under contention some writers lose again and again (the
load bench saw deal entries wait 3 to 5 s at the 99th percentile with 8 to 32 writers).

Here every write transaction first takes its place in a queue that waiters leave in
the order they came, without polling:

- In a process, a first-come first-served line of threads (``WriteQueue``): the one
  leaving hands the queue straight to the next one, which wakes at once.
- Between processes (gunicorn's workers, a management command), the thread at the
  head of its process's line takes an exclusive ``flock`` on a lock file beside the
  database (``<database>-queue``). A blocking ``flock`` wakes as soon as the lock is
  released, and the kernel drops it when its process dies (a worker killed by
  SIGKILL or by gunicorn's timeout leaves nothing held).

Only then does the transaction BEGIN IMMEDIATE, which finds SQLite's lock free; it
gives the queue back at COMMIT or ROLLBACK, or when its connection closes, whatever
happened (``scorekeeper.sqlite_backend`` does that around Django's transactions).

It cannot wait forever: a wait longer than ``timeout`` (SQLite's busy timeout, the
``timeout`` option of the database) gives up its place and goes on without the queue,
to SQLite's busy handler as before (with a warning in the log). So does a thread that
already holds the queue through another connection, which would otherwise wait for
itself. Readers never queue: in WAL mode they do not wait for writers.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import logging
import os
import threading
import time

log = logging.getLogger(__name__)

SUFFIX = "-queue"  # the lock file: beside the database, as its -wal and -shm files are


class Ticket:
    """A place in a queue: the holder's while it holds the queue."""

    __slots__ = ("queue", "thread", "turn")

    def __init__(self, queue: WriteQueue) -> None:
        self.queue = queue
        self.thread = threading.get_ident()
        self.turn = threading.Event()  # set when the queue is handed to this ticket


class FileLock:
    """An exclusive ``flock`` on one file, held by the process (the thread at the head
    of its ``WriteQueue`` takes and releases it), with a wait that can end.

    ``flock`` cannot time out, so a blocked wait runs in a helper thread (one per lock
    file and process, started at the first contention) while the thread that wants
    the lock waits for it with a deadline. Every ``flock`` of the process is on one
    file descriptor, and all of the state is changed under ``_cond``:

    - ``_waiting``: the helper is in its blocking ``flock``, or about to be; nobody
      else tries the lock meanwhile (on the same descriptor a second ``flock`` would
      succeed at once, as the lock would already be the process's);
    - ``_wanted``: a thread waits for the helper's lock; if it gave up by the time the
      helper gets the lock, the helper releases it at once (or hands it to the next
      thread that came meanwhile).

    A lock file that cannot be opened or locked (a read-only directory) is ``broken``:
    said once in the log, and the queue goes on within the process only.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._fd: int | None = None
        self._cond = threading.Condition(threading.Lock())
        self._wanted = False
        self._granted = False
        self._waiting = False
        self._helper: threading.Thread | None = None
        self.broken = False

    def _break(self) -> None:
        """Called under ``_cond``, handling an ``OSError``."""
        if not self.broken:
            self.broken = True
            log.exception(
                "SQLite write queue: cannot lock %s; each process queues its own writers only",
                self.path,
            )
        self._waiting = False
        self._cond.notify_all()

    def _descriptor(self) -> int:
        if self._fd is None:
            # The owner's alone, as the database and its -wal and -shm files are.
            self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        return self._fd

    def lock(self, deadline: float) -> bool:
        """Take the lock; False if ``deadline`` (``time.monotonic()``) came first."""
        with self._cond:
            if self.broken:
                return True
            if not self._waiting:
                try:
                    fcntl.flock(self._descriptor(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                    return True
                except BlockingIOError:
                    pass
                except OSError:
                    self._break()
                    return True
                self._waiting = True
                if self._helper is None:
                    self._helper = threading.Thread(
                        target=self._wait_for_lock, name=f"sqlite-queue {self.path}", daemon=True
                    )
                    self._helper.start()
            self._wanted = True
            self._granted = False
            self._cond.notify_all()
            try:
                got = self._cond.wait_for(
                    lambda: self._granted or self.broken, deadline - time.monotonic()
                )
            finally:
                # Given up (or interrupted): the helper releases the lock when it comes,
                # unless a thread wants it by then.
                self._wanted = False
            self._granted = False
            return got

    def _wait_for_lock(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._waiting)
                fd = self._descriptor()
            try:
                fcntl.flock(fd, fcntl.LOCK_EX)
            except OSError:  # pragma: no cover - Python retries EINTR; nothing else is known
                with self._cond:
                    self._break()
                return
            with self._cond:
                self._waiting = False
                if self._wanted:
                    self._granted = True
                    self._wanted = False
                    self._cond.notify_all()
                else:
                    fcntl.flock(fd, fcntl.LOCK_UN)

    def unlock(self) -> None:
        if self._fd is not None and not self.broken:
            fcntl.flock(self._fd, fcntl.LOCK_UN)


class WriteQueue:
    """The writers of one database file: first come, first served in this process, and
    one process at a time through ``FileLock``."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.file = FileLock(path)
        self._mutex = threading.Lock()
        self._holder: Ticket | None = None
        self._line: collections.deque[Ticket] = collections.deque()
        # What happened, for the tests and for a look from a shell.
        self.taken = 0
        self.given_up = 0

    @property
    def holder(self) -> Ticket | None:
        return self._holder

    def waiting(self) -> int:
        with self._mutex:
            return len(self._line)

    def acquire(self, timeout: float) -> Ticket | None:
        """This thread's turn: the ticket to ``release``, or None to go on without the
        queue (its wait passed ``timeout`` seconds, or this thread holds the queue
        already through another connection)."""
        deadline = time.monotonic() + timeout
        ticket = Ticket(self)
        with self._mutex:
            first = self._holder is None
            if first:
                self._holder = ticket
            elif self._holder.thread == ticket.thread:
                # Another connection of this very thread holds it: waiting would never
                # end. SQLite's busy handler decides, as it would without a queue.
                return None
            else:
                self._line.append(ticket)
        if not first:
            try:
                ticket.turn.wait(timeout)
            except BaseException:
                self._leave(ticket)
                raise
            with self._mutex:
                if self._holder is not ticket:
                    self._line.remove(ticket)
                    return self._gave_up(timeout)
        # This process's turn; now the other processes'.
        try:
            locked = self.file.lock(deadline)
        except BaseException:
            self._hand_on(ticket)
            raise
        if not locked:
            self._hand_on(ticket)
            return self._gave_up(timeout)
        self.taken += 1
        return ticket

    def release(self, ticket: Ticket) -> None:
        """Give the queue back: to the other processes first (their waiter wakes now),
        then to the next thread of this one."""
        try:
            self.file.unlock()
        finally:
            self._hand_on(ticket)

    def _hand_on(self, ticket: Ticket) -> None:
        with self._mutex:
            if self._holder is not ticket:
                return  # given back already
            self._holder = self._line.popleft() if self._line else None
            if self._holder is not None:
                self._holder.turn.set()

    def _leave(self, ticket: Ticket) -> None:
        """Out of the line, or on to the next one if the turn came meanwhile."""
        with self._mutex:
            if self._holder is not ticket:
                self._line.remove(ticket)
                return
        self._hand_on(ticket)

    def _gave_up(self, timeout: float) -> None:  # and the caller returns None
        self.given_up += 1
        log.warning(
            "SQLite write queue: no turn within %.0f s (%s); going on without it",
            timeout,
            self.path,
        )
        return None


_queues: dict[str, WriteQueue] = {}
_queues_lock = threading.Lock()


def lock_path(database: str | os.PathLike[str]) -> str:
    """The queue's lock file for a database file (its real path, so that two spellings
    of one file share a queue)."""
    return os.path.realpath(os.fspath(database)) + SUFFIX


def queue_for(database: str | os.PathLike[str]) -> WriteQueue:
    """This process's queue for the database file."""
    path = lock_path(database)
    queue = _queues.get(path)
    if queue is None:
        with _queues_lock:
            queue = _queues.setdefault(path, WriteQueue(path))
    return queue


def forget(database: str | os.PathLike[str]) -> None:
    """Drop the database's queue and remove its lock file (a test database deleted)."""
    path = lock_path(database)
    with _queues_lock:
        queue = _queues.pop(path, None)
    if queue is not None and queue.file._fd is not None and queue.file._helper is None:
        os.close(queue.file._fd)
        queue.file._fd = None
    with contextlib.suppress(FileNotFoundError):
        os.remove(path)


def _after_fork_in_child() -> None:
    # A new process takes its own places: the parent's queues (their threads, their
    # mutexes, maybe held at the fork) and its file description are not the child's.
    global _queues, _queues_lock
    _queues = {}
    _queues_lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


_WRITES = (
    "INSERT",
    "UPDATE",
    "DELETE",
    "REPLACE",
    "CREATE",
    "DROP",
    "ALTER",
    "VACUUM",
    "REINDEX",
    "ANALYZE",
)
_WRITE_IN_WITH = ("INSERT ", "UPDATE ", "DELETE ", "REPLACE ")


def is_write(sql: str) -> bool:
    """Whether a statement writes (and so takes SQLite's write lock when it runs on its
    own, outside a transaction). A ``WITH`` counts when it has a write in it."""
    head = sql[:64].lstrip()[:8].upper()
    if head.startswith(_WRITES):
        return True
    if head.startswith("WITH"):
        upper = sql.upper()
        return any(word in upper for word in _WRITE_IN_WITH)
    return False
