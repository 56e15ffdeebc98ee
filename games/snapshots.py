"""What a sheet keeps of its game engine between requests: a plain record of its counts.

Scores are never stored as facts: the deals as entered are the record, and any state
can be derived from them by replay (``selectors.sheet_state``). Replaying a long sheet
on every request costs time that grows with the sheet, though, so every write keeps,
with the sheet, its engine's running counts (``SheetSnapshot.engine``, tagged with the
sheet's version): the counts before the deals the sheet page lists (the last ``TAIL``
deals) and after each of them. The next deal and its preview start from the counts
after the last deal; the page starts from the counts before the deals it lists and
replays those few (it reads them anyway), so all of them cost the same at deal 200 as
at deal 10. A finished sheet takes no more deals: it keeps the counts before the deals
its page lists and nothing more.

What is kept is a cache and only a cache:

- it is used only when it was written at the sheet's current version, by the same rules
  code (``RULES``: a digest of ``games/rules``) and in this ``FORMAT``; anything else
  replays the deals and keeps a fresh one;
- it is plain JSON, read like input: the engine checks every value before it takes it
  (``games.rules.sheet.RunningSheet.from_record``), and anything it does not take is
  ignored and the sheet replays its deals. Nothing read from the database can run code
  (there is no pickle), whoever wrote it;
- it is small and does not grow with the sheet: the seats' names and a few numbers per
  seat (the totals, the Seeger-Fabian counts, the Bock deals owed, who won) after at
  most ``TAIL + 1`` deals, some 250 bytes for a finished sheet. A rename is a write: the
  names kept are the seats' at the version they are kept for.

``state.deals`` of an engine rebuilt from it holds the deals replayed after it (the
latest ones, or none for the next deal); whatever needs every deal (the API's whole
sheet, CSV, the chart) replays. A circle's season results take a new deal from what
they stored before it (``circles.results.store_results``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from games.rules.errors import RuleError
from games.rules.sheet import RunningSheet, UnreadableRecord

# How many of the latest deals the page lists, replayed on the counts kept before them;
# older ones are loaded when asked for.
TAIL = 12
# The layout of what is kept (the engine's own record has its own format).
FORMAT = 1

_RULES = Path(__file__).resolve().parent / "rules"


def _rules_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(_RULES.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


RULES = _rules_digest()


def dump(engine: RunningSheet) -> dict[str, Any]:
    """What a sheet keeps of ``engine``, as plain JSON: the seats' names (the page needs
    no other read of them), and its counts before its last ``TAIL`` deals (or as far back
    as it knows them) and, unless the sheet is finished, after each deal since."""
    after = max(engine.counted_from, engine.deals_played - TAIL)
    through = after if engine.finished else None
    return {
        "format": FORMAT,
        "rules": RULES,
        "players": list(engine.players),
        "engine": engine.record(after, through=through),
    }


def load(
    kept: object,
    sheet_class: type[RunningSheet],
    *,
    listed: bool = False,
    players: Sequence[str] | None = None,
    **table: Any,
) -> RunningSheet | None:
    """The engine of the table (``first_dealer``, ``options`` and the ``players``, the
    names kept with it when not given) after the last deal ``kept`` counts, or with
    ``listed`` before the deals the page lists (to replay them); None when nothing
    usable is kept: another format or rules code, or anything the engine does not take
    as its table or record."""
    if not isinstance(kept, dict) or set(kept) != {"format", "rules", "players", "engine"}:
        return None
    if type(kept["format"]) is not int or kept["format"] != FORMAT or kept["rules"] != RULES:
        return None
    names = kept["players"] if players is None else list(players)
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        return None
    record = kept["engine"]
    if listed and isinstance(record, dict) and isinstance(record.get("counts"), list):
        record = {**record, "counts": record["counts"][:1]}
    try:
        return sheet_class.from_record(record, players=names, **table)
    except (UnreadableRecord, RuleError):
        return None
