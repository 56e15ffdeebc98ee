"""Django's SQLite backend, its writers in line (``scorekeeper.sqlite_queue``).

Every write transaction takes its turn in the database's write queue before SQLite's
BEGIN IMMEDIATE (``transaction_mode``), and gives it back when it ends: at COMMIT or
ROLLBACK, or when its connection closes (SQLite rolls back then), and after an error
in any of them. Inside a transaction nothing more is taken: a nested ``atomic`` is a
savepoint of the transaction that holds the turn. A write statement run on its own,
outside a transaction (Django's autocommit: an ``update()``, a ``save()`` of a model
without parents), takes its turn for that statement. Reads outside a transaction
never queue.

The queue is for IMMEDIATE and EXCLUSIVE transactions, which take SQLite's write
lock at BEGIN; with another ``transaction_mode`` (or none) and for an in-memory
database this is Django's own backend.
"""

from __future__ import annotations

import logging
import os
import urllib.parse
from typing import Any

from django.db.backends.sqlite3 import base, creation

from scorekeeper import sqlite_queue
from scorekeeper.sqlite_queue import Ticket, WriteQueue

log = logging.getLogger("scorekeeper.sqlite_queue")

# In a transaction that went on without the queue (its wait timed out, or the queue
# could not be used): nothing to give back at its end.
UNQUEUED = object()
QUEUED_MODES = frozenset({"IMMEDIATE", "EXCLUSIVE"})
DEFAULT_TIMEOUT = 5.0  # seconds: Python's sqlite3.connect(timeout=)


class QueuedCursor(base.SQLiteCursorWrapper):
    """Django's cursor; a write statement outside a transaction takes its turn."""

    database: DatabaseWrapper | None = None  # set by DatabaseWrapper.create_cursor

    def _queued(self, run: Any, query: str, params: Any) -> Any:
        database = self.database
        if (
            database is None
            or database._queue_state is not None
            or self.connection.in_transaction
            or not sqlite_queue.is_write(query)
        ):
            return run(query, params)
        database._queue_state = database._take_write_queue()
        try:
            return run(query, params)
        finally:
            # Done, unless the statement opened a transaction (sqlite3's implicit BEGIN
            # with autocommit off): then it ends at COMMIT or ROLLBACK.
            if not self.connection.in_transaction:
                database._give_back_write_queue()

    def execute(self, query: str, params: Any = None) -> Any:
        return self._queued(super().execute, query, params)

    def executemany(self, query: str, param_list: Any) -> Any:
        return self._queued(super().executemany, query, param_list)


class DatabaseCreation(creation.DatabaseCreation):
    def _destroy_test_db(self, test_database_name: str, verbosity: int) -> None:
        super()._destroy_test_db(test_database_name, verbosity)
        path = _database_file(test_database_name)
        if path and not self.is_in_memory_db(test_database_name):
            sqlite_queue.forget(path)  # its lock file goes with it


def _database_file(name: Any) -> str | None:
    """The file of a database NAME (a path, or a ``file:`` URI)."""
    if not name:
        return None
    name = os.fspath(name)
    if name.startswith("file:"):
        return urllib.parse.unquote(urllib.parse.urlsplit(name).path) or None
    return name


class DatabaseWrapper(base.DatabaseWrapper):
    creation_class = DatabaseCreation

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A Ticket while this connection holds its turn, UNQUEUED in a transaction that
        # went on without one, None outside a transaction.
        self._queue_state: Ticket | object | None = None
        self._queue_key: tuple[Any, ...] | None = None
        self._queue: WriteQueue | None = None

    @property
    def holds_write_queue(self) -> bool:
        """Whether this connection holds its database's write queue now."""
        return isinstance(self._queue_state, Ticket)

    def write_queue(self) -> WriteQueue | None:
        """This connection's queue (None: it has none); known once connected."""
        name = self.settings_dict["NAME"]
        mode = getattr(self, "transaction_mode", None)
        key = (name, mode)
        if key != self._queue_key:
            path = _database_file(name)
            queued = path and mode in QUEUED_MODES and not self.is_in_memory_db()
            self._queue = sqlite_queue.queue_for(path) if queued else None
            self._queue_key = key
        return self._queue

    def _take_write_queue(self) -> Ticket | object:
        queue = self.write_queue()
        if queue is None:
            return UNQUEUED
        ticket = queue.acquire(float(self.settings_dict["OPTIONS"].get("timeout", DEFAULT_TIMEOUT)))
        return UNQUEUED if ticket is None else ticket

    def _give_back_write_queue(self) -> None:
        state, self._queue_state = self._queue_state, None
        if isinstance(state, Ticket):
            try:
                state.queue.release(state)
            except OSError:  # pragma: no cover - an flock on an open descriptor
                log.exception("SQLite write queue: %s not unlocked", state.queue.path)

    def _start_transaction_under_autocommit(self) -> None:
        # Every transaction of ``atomic`` starts here (the outermost block only).
        if self._queue_state is None:
            self._queue_state = self._take_write_queue()
        try:
            super()._start_transaction_under_autocommit()
        except BaseException:
            self._give_back_write_queue()
            raise

    def create_cursor(self, name: str | None = None) -> QueuedCursor:
        cursor = self.connection.cursor(factory=QueuedCursor)
        cursor.database = self
        return cursor

    def _commit(self) -> None:
        try:
            return super()._commit()
        finally:
            self._give_back_write_queue()

    def _rollback(self) -> None:
        try:
            return super()._rollback()
        finally:
            self._give_back_write_queue()

    def _close(self) -> None:
        try:
            return super()._close()
        finally:
            self._give_back_write_queue()

    def connect(self) -> None:
        # A turn still held belonged to the connection that went away.
        self._give_back_write_queue()
        super().connect()
