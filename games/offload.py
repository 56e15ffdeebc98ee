"""Slow referee work runs in a process of its own, at a lower priority.

Laying out 104 cards (a Manipulation arrangement, or a turn's check of the table)
can take a tenth of a second or more of pure Python. Run in the request's thread it
would hold the worker's interpreter lock, and every other request of that worker
(entering a deal, a sheet page) would wait its turn. Instead each gunicorn worker
sends such work to one helper process of its own (started on first use, with
``spawn``: the referee needs no Django), niced, so the operating system gives the
cores to the requests that write scores first. Answers are the same either way.

``settings.REFEREE_PROCESSES`` (env ``REFEREE_PROCESSES``) is how many helper
processes each worker may use; 0 runs the work in the request's own thread (the
test suite does, but for the test of this module).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from games.rules.errors import Problem, RuleError

T = TypeVar("T")
# The helper processes yield the cores to the workers serving pages and writes.
NICENESS = 10

_pool: ProcessPoolExecutor | None = None
_pool_pid: int | None = None
_lock = threading.Lock()


def _start_helper() -> None:
    # Where lowering the priority is not allowed, the work still runs, at the same one.
    with contextlib.suppress(OSError):
        os.nice(NICENESS)


def _call(function: Callable[..., T], kwargs: dict[str, Any]) -> tuple[str, Any]:
    """In the helper: the answer, or the referee's problems with their fields (an
    exception would lose them on its way back)."""
    try:
        return "ok", function(**kwargs)
    except RuleError as error:
        return "refused", [(p.field, p.message) for p in error.problems]


def _executor(processes: int) -> ProcessPoolExecutor:
    global _pool, _pool_pid
    with _lock:
        # A pool belongs to the process that made it (gunicorn forks its workers).
        if _pool is None or _pool_pid != os.getpid():
            _pool = ProcessPoolExecutor(
                max_workers=processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_helper,
            )
            _pool_pid = os.getpid()
        return _pool


def _forget(pool: ProcessPoolExecutor) -> None:
    global _pool
    with _lock:
        if _pool is pool:
            _pool = None
    pool.shutdown(wait=False, cancel_futures=True)


def run(function: Callable[..., T], **kwargs: Any) -> T:
    """``function(**kwargs)``, in a helper process when the settings allow one."""
    from django.conf import settings

    processes = getattr(settings, "REFEREE_PROCESSES", 0)
    if processes <= 0:
        return function(**kwargs)
    pool = _executor(processes)
    try:
        kind, value = pool.submit(_call, function, kwargs).result()
    except BrokenProcessPool:
        # The helper died (killed, out of memory): start afresh and do it here.
        _forget(pool)
        return function(**kwargs)
    if kind == "refused":
        raise RuleError([Problem(field, message) for field, message in value])
    return value
