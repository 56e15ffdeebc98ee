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

Nothing read from the database may run code, and unpickling can: so a snapshot is
signed when it is written (an HMAC over the rules' digest and the bytes, keyed by the
project's ``SECRET_KEY`` through Django's ``salted_hmac``), and loaded only when the
signature matches. An edited backup, or anyone who can write to the database but does
not know the key, cannot make a sheet view run a payload: their blob is not loaded
and the sheet replays its deals (issue 19). A new secret key makes every kept engine
a replay once, never a failure.
"""

from __future__ import annotations

import hashlib
import hmac
import pickle
from pathlib import Path
from typing import Any

from django.utils.crypto import salted_hmac

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
# The signature's length: SHA-256 cut to 128 bits, far beyond guessing.
SIGNATURE = 16
_SALT = "scorekeeper.games.snapshots"


def _signature(payload: bytes) -> bytes:
    return salted_hmac(_SALT, RULES_HASH + payload, algorithm="sha256").digest()[:SIGNATURE]


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
        payload = pickle.dumps(engine, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        engine._deals = deals
    return RULES_HASH + _signature(payload) + payload


def load(blob: bytes | memoryview | None) -> Any | None:
    """The engine kept in ``blob``, or None when there is none, another rules code
    wrote it, or its signature does not match (then nothing of it is unpickled)."""
    if not blob:
        return None
    data = bytes(blob)
    if data[: len(RULES_HASH)] != RULES_HASH:
        return None
    signed = data[len(RULES_HASH) : len(RULES_HASH) + SIGNATURE]
    payload = data[len(RULES_HASH) + SIGNATURE :]
    if not hmac.compare_digest(signed, _signature(payload)):
        return None
    try:
        return pickle.loads(payload)  # signed by this project's own secret key
    except Exception:  # a cache that cannot be read is rebuilt
        return None
