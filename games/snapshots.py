"""The sheet engine as it stood after the last write, kept with the sheet.

Scores are never stored as facts: the deals as entered are the record, and any
state can be derived from them by replay (``selectors.sheet_state``). Replaying a
long sheet on every request costs time that grows with the sheet, though, so every
write keeps the game engine it ended with (``Sheet.snapshot``, tagged with the
sheet's version). The next deal, its preview and the sheet page start from that
engine and cost the same at deal 200 as at deal 10.

The snapshot is a cache and only a cache:

- it is used only when it was written at the sheet's current version, by the same
  rules code (``RULES_HASH``: a digest of ``games/rules``); anything else replays the
  deals and writes a fresh one;
- it keeps the last ``TAIL`` deal results (what the sheet page lists) and how many
  came before them, not every deal's explanation. ``state.deals`` of an engine
  loaded from it holds those last deals only; whatever needs every deal (the API's
  whole sheet, CSV, the chart) replays. A circle's season results take a new deal
  from what they stored before it (``circles.results.store_results``).

Only this project's own database is ever unpickled.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path
from typing import Any

from games.rules.sheet import DealResult

# How many of the latest deals a snapshot keeps with their explanations: the sheet
# page lists these and loads older ones when asked.
TAIL = 12

_RULES = Path(__file__).resolve().parent / "rules"


def _rules_hash() -> bytes:
    digest = hashlib.sha256()
    for path in sorted(_RULES.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    # pickle's own format is part of what a snapshot depends on.
    digest.update(str(pickle.HIGHEST_PROTOCOL).encode())
    return digest.digest()[:8]


RULES_HASH = _rules_hash()


class DealTail(list):
    """The last deals of a sheet, counting the ones before them.

    The engines ask their deal list for its length (the next deal's number), its
    last item (the running totals) and add to it; all of that works on the tail.
    """

    def __init__(self, deals: Any = (), offset: int = 0) -> None:
        super().__init__(deals)
        self.offset = offset

    def __len__(self) -> int:
        return self.offset + super().__len__()

    def __bool__(self) -> bool:
        return len(self) > 0


def dump(engine: Any) -> bytes:
    """The engine as bytes, its deal list cut to the last ``TAIL`` results."""
    deals: list[DealResult] = engine._deals
    kept = list(deals)[-TAIL:]  # a DealTail iterates over the deals it holds
    tail = DealTail(kept, offset=len(deals) - len(kept))
    engine._deals = tail
    try:
        return RULES_HASH + pickle.dumps(engine, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        engine._deals = deals


def load(blob: bytes | memoryview | None) -> Any | None:
    """The engine kept in ``blob``, or None when there is none or another rules code
    wrote it."""
    if not blob:
        return None
    data = bytes(blob)
    if data[: len(RULES_HASH)] != RULES_HASH:
        return None
    try:
        return pickle.loads(data[len(RULES_HASH) :])  # only our own database is read
    except Exception:  # a cache that cannot be read is rebuilt
        return None
