"""Transactions the database may abort, and the one order in which writers lock rows.

Lock order
----------
Every write that locks more than one row takes its locks in this order, so that two
writers never each hold a row the other waits for (on PostgreSQL that is a deadlock:
the database aborts one of them, which was a 500):

1. a circle's ``Membership`` rows: the circle's owners and the member changed, in pk
   order (``circles.services.member_set_role``, ``member_remove``);
2. ``Sheet`` rows, several in pk order (``lock_in_order``). Every write to a sheet
   starts by locking its row (``games.services._locked``), before anything of the
   sheet is written;
3. ``Player`` rows of a circle, in pk order;
4. what belongs to a sheet: its seats, deals, kept engine, history, and the circle's
   ``SeatPlayer``, ``SheetResult`` and ``StandingsChange`` rows, which
   ``circles.receivers`` writes inside the sheet's write, after the sheet is locked;
5. last, the ``Circle`` row's standings version (``circles.season_totals.moved``): a
   write that changes what the standings show moves it just before it commits, so two
   tables finishing at once queue there holding nothing the other waits for. Under
   that lock it brings the circle's ``SeasonTotals``, ``SeasonContribution``,
   ``PlayerTotals`` and ``PlayerContribution`` rows up to date: no write touches them
   without holding the circle's row first.

So a player merge, rename or erasure first locks every sheet the player sat at (in pk
order), then the players; a deal write locks its sheet and then writes that sheet's
results. A writer waiting for a sheet holds nothing another write of that sheet needs.

A club evening's row comes before step 2: a write to an evening (``evenings.services``,
``evenings.accounts``) locks the evening first (``evenings.locking.locked``), then the
sheets of the tables it changes, in pk order (``series_swap``, ``table_sign``,
``table_paper_result``), then the tables' rows and seats (``EveningTable``, ``TableSeat``).
Those belong to step 4: a deal at a table writes them after locking its sheet
(``evenings.receivers``, ``table_from_sheet``). A member taken out of a circle with new
links locks the memberships (step 1), then the circle's evenings (their organiser
links), then its sheets. Known exceptions: an erasure changes the evenings' rolls (and
their version) after it has locked the player's sheets, and a deal write's note for the
evening (a bill changed, a signed table's ranking moved) has its foreign key to the
evening's row checked at commit; a deadlock there is rare, and run again.

Rows are locked with ``SELECT … FOR UPDATE``; SQLite ignores it and takes one lock for
the whole file (IMMEDIATE transactions, a busy timeout: scorekeeper/settings.py), so
there writers queue and never deadlock.

Retrying
--------
A deadlock the order does not rule out (a lock taken at commit for a deferred foreign
key, a writer outside this code) and a serialization failure leave nothing behind: the
database rolled the whole transaction back. ``retry_on_conflict`` runs such a
transaction again, a few times, after a short random pause.
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import Model, QuerySet

log = logging.getLogger(__name__)

# SQLSTATE 40P01 deadlock_detected, 40001 serialization_failure: the database rolled the
# transaction back, and the same transaction run again may well succeed.
RETRYABLE = frozenset({"40P01", "40001"})
ATTEMPTS = 3
PAUSE = 0.05  # seconds: the longest first pause; each further attempt may wait twice as long

Function = TypeVar("Function", bound=Callable[..., Any])
M = TypeVar("M", bound=Model)


def retryable(error: BaseException) -> bool:
    """Whether the database aborted the transaction for a deadlock or a serialization
    failure (Django's OperationalError wraps psycopg's error, which has the SQLSTATE)."""
    seen: BaseException | None = error
    while seen is not None:
        code = getattr(seen, "sqlstate", None) or getattr(seen, "pgcode", None)
        if code in RETRYABLE:
            return True
        seen = seen.__cause__
    return False


def retry_on_conflict(
    function: Function | None = None, *, attempts: int = ATTEMPTS, using: str = DEFAULT_DB_ALIAS
) -> Any:
    """Run the decorated function again when the database aborted its transaction for a
    deadlock or a serialization failure: at most ``attempts`` times in all, after a short
    random pause (jitter, so two writers that met do not meet again).

    For functions whose writes are one ``transaction.atomic()`` block: run again, they
    start over from nothing, since the aborted attempt was rolled back whole. Called
    inside a transaction (``connection.in_atomic_block``), the function runs once: only
    the outermost transaction can be run again, and the decorated function that opened
    it does so. An error that was already retried is not retried again further out."""

    def decorate(function: Function) -> Function:
        @functools.wraps(function)
        def run(*args: Any, **kwargs: Any) -> Any:
            if connections[using].in_atomic_block:
                return function(*args, **kwargs)
            for attempt in range(1, attempts + 1):
                try:
                    return function(*args, **kwargs)
                except DatabaseError as error:
                    if getattr(error, "_retried", False) or not retryable(error):
                        raise
                    if attempt == attempts:
                        error._retried = True  # type: ignore[attr-defined]
                        raise
                    log.warning(
                        "%s: transaction aborted (%s), attempt %d of %d, running it again",
                        function.__qualname__,
                        str(error).splitlines()[0] if str(error) else type(error).__name__,
                        attempt,
                        attempts,
                    )
                    time.sleep(random.uniform(0, PAUSE * 2 ** (attempt - 1)))
            raise AssertionError("unreachable")  # pragma: no cover

        return run  # type: ignore[return-value]

    return decorate(function) if function is not None else decorate


def lock_in_order(queryset: QuerySet[M]) -> list[M]:
    """Lock the rows of ``queryset`` for the rest of the transaction, in pk order (see
    "Lock order" above); the rows as stored now."""
    # Of its own table only: a join (a subquery is none) locks no other table's rows.
    return list(queryset.select_for_update(of=("self",)).order_by("pk"))
