"""Keep each evening table's series result in step with its sheet, in the same
transaction as the sheet's write (``games.signals.sheet_changed``)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from evenings.models import EveningTable
from evenings.services import table_from_sheet
from games.models import Sheet
from games.rules.sheet import SheetState
from games.signals import sheet_changed

CHANGES = ("started", "entered", "corrected", "removed", "restored")


@receiver(sheet_changed, sender=Sheet, dispatch_uid="evenings-table-results")
def keep_table(*, sheet: Sheet, state: SheetState, change: str, **_: Any) -> None:
    if change not in CHANGES:
        return
    if Sheet.evening_table.is_cached(sheet):
        # Loaded with the sheet (games.selectors.sheets_with_links): a deal at a table
        # that is no club table costs no query here.
        table = getattr(sheet, "evening_table", None)
        if table is None:
            return
        table = EveningTable.objects.select_related("series__evening").get(pk=table.pk)
    else:
        table = (
            EveningTable.objects.select_related("series__evening").filter(sheet_id=sheet.pk).first()
        )
    if table is None or table.paper:
        return
    table_from_sheet(table=table, sheet=sheet, state=state, change=change)
