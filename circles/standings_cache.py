"""What the standings pages, the standings API and CSV and the player pages compute,
kept by the circle's standings version, so that a read costs the same at 5,000 sheets
as at 10.

A season's table comes from its totals and a player's record from the player's
totals, both kept up to date with every write (``circles.season_totals``,
``circles.player_totals``): still some work (placing the players, wording the numbers,
drawing the charts), and the same for every reader.
They change only when one of those writes happens, and every such write moves the
circle's ``standings_version`` in its own transaction (``circles.season_totals.moved``):

- what a sheet contributes changed while it counts, it finished, or it was left out,
  brought back, moved to another day, put in the trash or taken out of it, joined the
  circle or started in it (the open sheets are counted on the page);
- a player was added, renamed, merged, erased, linked or made a guest;
- a season was made or changed.

A read takes the version with the circle it reads anyway, and takes what was computed at that
version, in the reader's language and for the same view (public or not, guests or
not, the day: the title race counts the evenings left); anything else is computed from
the sheets as before and kept. So what a page shows is always what a computation from
the sheets shows at that version: ``tests/test_standings_cache.py`` compares the two
after every kind of write.

The kept values live in each worker's memory (a few hundred, the least recently used
dropped first), as the objects the pages render: nothing is serialized, so nothing is
read back as code, and several servers never disagree, since every key names the
version the database holds. A write in flight may let a reader keep newer numbers under
the old version; the version moves at its commit all the same, and the next read
computes again.
"""

from __future__ import annotations

import gc
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import TypeVar

from circles.models import Circle

T = TypeVar("T")

# Per worker: a standings page's parts are a few kilobytes to a few hundred.
LIMIT = 256

_kept: OrderedDict[tuple[Hashable, ...], object] = OrderedDict()
_lock = threading.Lock()
# The keys being computed right now, each with the lock its computation holds.
_building: dict[tuple[Hashable, ...], threading.Lock] = {}


def kept(circle: Circle, key: tuple[Hashable, ...], build: Callable[[], T]) -> T:
    """What ``build`` computes for ``key`` at the standings version of ``circle`` (as
    the request just read it): computed once per version and kept; never shared
    between circles. The moment the circle was made is in the key too, so a circle made
    again under a freed id (SQLite reuses the id of a rolled-back insert) is never
    taken for the one before."""
    full = (circle.pk, circle.created_at, circle.standings_version, *key)
    with _lock:
        if full in _kept:
            _kept.move_to_end(full)
            return _kept[full]  # type: ignore[return-value]
        building = _building.setdefault(full, threading.Lock())
    # One computation per key at a time: the phones that ask while the first reader
    # computes (a sheet just finished, everyone looks) wait for its result instead of
    # each computing the same thing again on the worker's other threads.
    with building:
        with _lock:
            if full in _kept:
                _kept.move_to_end(full)
                return _kept[full]  # type: ignore[return-value]
        try:
            with _collector_paused():
                value = build()
        finally:
            with _lock:
                _building.pop(full, None)
        with _lock:
            _kept[full] = value
            _kept.move_to_end(full)
            while len(_kept) > LIMIT:
                _kept.popitem(last=False)
    return value


_pauses = 0
_pause_lock = threading.Lock()
_paused_by_us = False


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while a computation builds its objects.

    A season of 5,000 sheets decodes some 17,000 stored results into dicts and ranks
    them: every few hundred new containers the collector runs, and its older
    generations walk everything built so far, which was half of a cold standings
    read's time (bench/bench_standings.py). What is built here holds no cycles worth
    waiting for; the collector runs again as soon as the last computation in flight on
    this worker ends. A worker whose collector is off already (gc.disable elsewhere) is
    left as it is."""
    global _pauses, _paused_by_us
    with _pause_lock:
        _pauses += 1
        if _pauses == 1 and gc.isenabled():
            gc.disable()
            _paused_by_us = True
    try:
        yield
    finally:
        with _pause_lock:
            _pauses -= 1
            if _pauses == 0 and _paused_by_us:
                _paused_by_us = False
                gc.enable()


def forget() -> None:
    """Drop everything kept (tests, and a worker that wants its memory back)."""
    with _lock:
        _kept.clear()
