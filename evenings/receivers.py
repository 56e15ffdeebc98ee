"""Keep each evening table's series result in step with its sheet, in the same
transaction as the sheet's write (``games.signals.sheet_changed``)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.utils.translation import gettext as _

from circles.models import Circle, Player
from circles.signals import links_renewed, player_erased
from evenings.locking import bump
from evenings.models import Evening, EveningChange, EveningPlayer, EveningTable
from evenings.services import refuse_deals_on_paper, table_from_sheet
from games import privacy
from games.models import Sheet, new_token
from games.rules.errors import RuleError
from games.rules.sheet import SheetState
from games.signals import sheet_changed

# "limited": a Pitch game given its number of hands (time called at a party night).
CHANGES = ("started", "entered", "corrected", "removed", "restored", "limited")
# The changes that give a sheet a deal more.
ADDING = ("entered", "restored")


@receiver(sheet_changed, sender=Sheet, dispatch_uid="evenings-table-results")
def keep_table(*, sheet: Sheet, state: SheetState, change: str, **_: Any) -> None:
    if change == "deleted":
        _refuse_deleting_a_table(sheet)
        return
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
    if table is None:
        return
    if table.paper:
        if change in ADDING:
            # Refused in the sheet's own transaction: nothing of the deal is kept.
            refuse_deals_on_paper(table)
        return
    table_from_sheet(table=table, sheet=sheet, state=state, change=change)
    # The sheet's page is drawn from this sheet after the write: it shows the table as
    # it is now (its round over, its deals), not as it was loaded before the deal.
    sheet.evening_table = table


def _refuse_deleting_a_table(sheet: Sheet) -> None:
    """A club evening's table keeps its sheet (the evening counts it, and its row needs
    it): refused in the sheet's own transaction, so nothing is moved to the trash."""
    table = EveningTable.objects.filter(sheet=sheet).select_related("series").first()
    if table is not None:
        raise RuleError(
            _(
                "This sheet is table %(table)s of series %(series)s of a club evening, which "
                "counts it, so it is not deleted: correct or take off its deals instead."
            )
            % {"table": table.number, "series": table.series.number}
        )


@receiver(player_erased, sender=Player, dispatch_uid="evenings-erase-player")
def erase_from_rolls(
    *, player: Player, placeholder: str, names: frozenset[str] = frozenset(), **_: Any
) -> set[str]:
    """A circle player was erased: their name goes from every club evening's roll, its
    change notes and the kept answers of its writes (the evening's pages are drawn
    anew: its version moves). Answers the names the rolls held, for
    circles.services.player_erase to look for elsewhere."""
    found: set[str] = set()
    evenings: set[int] = set()
    for entry in EveningPlayer.objects.filter(circle_player=player).select_related("evening"):
        found.add(entry.name)
        entry.name = placeholder
        entry.save(update_fields=["name"])
        for change in EveningChange.objects.filter(evening_id=entry.evening_id):
            change.moves, names_there = privacy.moves_renamed(change.moves, entry.pk, placeholder)
            if names_there:
                found.update(names_there)
                change.save(update_fields=["moves"])
        bump(entry.evening)
        evenings.add(entry.evening_id)
    if evenings:
        privacy.forget_in_kept_answers(
            scopes=[f"evening:{pk}:" for pk in sorted(evenings)],
            names=found | names,
            placeholder=placeholder,
        )
    return found


@receiver(links_renewed, sender=Circle, dispatch_uid="evenings-renew-organiser-links")
def renew_organiser_links(*, circle: Circle, **_: Any) -> int:
    """A member left a circle with new links for everything: its club evenings'
    organiser links are made anew (an owner saw them on the circle page), so a kept one
    opens nothing. Their view links stay (they change nothing; a big screen keeps
    showing the ranking). Answers how many were made anew."""
    evenings = list(Evening.objects.select_for_update().filter(circle=circle).order_by("pk"))
    for evening in evenings:
        evening.organiser_token = new_token()
        evening.save(update_fields=["organiser_token"])
        bump(evening)
    return len(evenings)
