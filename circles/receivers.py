"""Keep each circle sheet's contributions in step with its deals, in the same transaction.

``games`` announces every write with ``sheet_changed`` from inside the write's
transaction; here the seats' contributions are derived from the state the write just
replayed (nothing is replayed twice) and stored. A new deal replays nothing: the
contributions stored before it take that one deal (``circles.results.store_results``).
A finished sheet whose numbers move afterwards (a correction after the evening, a deal
removed) leaves a ``StandingsChange`` behind, so the standings page can say what
changed and when.

Lock order (scorekeeper/db.py): the write that sends the signal has locked the sheet's
row already (games.services._locked); the rows written here (this sheet's results, its
standings changes) come after it. A circle write that changes results of several sheets
(a merge) locks those sheets first, in pk order, so it never holds a sheet's results
while waiting for the sheet.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from circles.models import CircleSheet
from circles.results import counted_moves, note_change, store_results
from circles.season_totals import moved
from circles.services import date_link
from games.models import Sheet
from games.rules.sheet import SheetState
from games.signals import sheet_changed


@receiver(sheet_changed, sender=Sheet, dispatch_uid="circles-sheet-results")
def keep_results(
    *,
    sheet: Sheet,
    state: SheetState,
    entries: list[dict[str, Any]] | None,
    change: str,
    number: int | None,
    **_: Any,
) -> None:
    if Sheet.circle_link.is_cached(sheet):
        # Loaded with the sheet (games.selectors.sheets_with_links): no query needed.
        link = getattr(sheet, "circle_link", None)
    else:
        link = CircleSheet.objects.filter(sheet_id=sheet.pk).first()
    if link is None:
        return
    if change == "dated":
        # The sheet was moved to another day: it counts for that evening now.
        date_link(link, sheet.played_on)
        return
    if change in ("deleted", "undeleted"):
        # A finished sheet going to the trash (or coming back) takes its numbers out of
        # the standings (or puts them back): the standings page says so.
        if not link.excluded:
            moves = counted_moves(link, counted=change == "undeleted")
            if moves:
                note_change(link, change=change, number=None, moves=moves)
        # Finished or open, the season's page counts it (or no longer does).
        moved(link.circle_id, sheets=[link.pk])
        return
    # A new deal added to the engine the sheet kept comes without entries, its state
    # with the latest deals only: the stored stats take that deal (store_results).
    store_results(link, sheet=sheet, state=state, entries=entries, change=change, number=number)
