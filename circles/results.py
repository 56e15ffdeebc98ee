"""Writing what a circle sheet contributes to standings (``SheetResult``), and noting
changes to finished sheets (``StandingsChange``).

Called inside the transaction that changed the sheet: by the ``sheet_changed``
receiver for every deal, and by the circle's services when a sheet joins a circle,
is left out or brought back into the standings, or its players are merged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from circles.models import Circle, CircleSheet, SeatPlayer, SheetResult, StandingsChange
from circles.rules.contributions import follows, seat_stats, seat_stats_after, tally_state
from circles.season_totals import moved
from games import selectors as sheet_selectors
from games.models import Sheet
from games.rules.sheet import SheetState
from games.selectors import StoredDealRefused
from scorekeeper.db import lock_in_order, retry_on_conflict


def headline(game: str, stats: Mapping[str, Any]) -> int:
    """The one number of a seat that standings rest on: Seeger-Fabian for Skat, the
    team's total for Pitch, the penalty total for Manipulation."""
    if game == "skat":
        return int(stats["sf"])
    if game == "pitch":
        return int(stats["team_total"])
    return int(stats["total"])


def store_results(
    link: CircleSheet,
    *,
    sheet: Sheet,
    state: SheetState,
    entries: Sequence[Mapping[str, Any]] | None,
    change: str,
    number: int | None,
) -> None:
    """Store what the sheet now contributes, seat by seat, and note a change to a
    counted sheet.

    ``entries`` is None when a new deal was added to the engine the sheet kept
    (``games.signals``): ``state.deals`` then holds the latest deals only. The seats'
    stored stats take that one deal (``seat_stats_after``), at the same cost at deal
    200 as at deal 10; stats that cannot take it (a seat without any, or stats stored
    by older code) are derived again from a replay of the whole sheet."""
    if link.tally is not None:
        # Its game was written on a tally card: that is what it contributes.
        state = tally_state(sheet.game, link.tally, state.players)
        entries = []
    seats = dict(SeatPlayer.objects.filter(sheet=link).values_list("position", "player_id"))
    before = {
        result.position: result
        for result in SheetResult.objects.filter(sheet=link).select_related("player")
    }
    stats = None if entries is None else seat_stats(sheet.game, state, entries)
    if stats is None and change == "entered":
        stats = _after_new_deal(sheet.game, state, before)
    if stats is None:
        # A season counts every deal: replay once here.
        hands = sheet_selectors.live_hands(sheet)
        state = sheet_selectors.sheet_state(sheet, hands)
        stats = seat_stats(sheet.game, state, [hand.entry for hand in hands])
    # A sheet left out of the standings (a practice game) moves nothing in them.
    counted_before = not link.excluded and any(r.stats.get("finished") for r in before.values())
    counted_after = not link.excluded and state.finished
    moves = []
    written = False
    for position, seat in enumerate(stats):
        player_id = seats[position]
        old = before.get(position)
        if old is None:
            SheetResult.objects.create(
                sheet=link, position=position, player_id=player_id, stats=seat
            )
            written = True
            continue
        if counted_before or counted_after:
            old_number = headline(sheet.game, old.stats) if counted_before else None
            after = headline(sheet.game, seat) if counted_after else None
            if after != old_number:
                moves.append(
                    {
                        "player": player_id,
                        "name": old.player.name,
                        "before": old_number,
                        "after": after,
                    }
                )
        if old.stats != seat or old.player_id != player_id:
            old.stats = seat
            old.player_id = player_id
            old.save(update_fields=["stats", "player", "updated_at"])
            written = True
    # A change to a counted sheet is noted; so is the undone last deal brought back,
    # which counts the sheet again after its removal was noted.
    noted = counted_before or (counted_after and change == "restored")
    if noted and change in ("corrected", "removed", "restored") and moves:
        note_change(link, change=change, number=number, moves=moves)
    # What a counted sheet contributes moved (or the sheet just finished, or stopped
    # being finished): the standings and records computed before are out of date. A
    # deal on an open sheet leaves them be, so the evening's play never waits for them.
    if written and (counted_before or counted_after):
        moved(link.circle_id, sheets=[link.pk])


def _after_new_deal(
    game: str, state: SheetState, before: Mapping[int, SheetResult]
) -> tuple[dict[str, Any], ...] | None:
    """The seats' stats with the state's last deal added to those stored before it, or
    None when some seat's stored stats are not exactly the deal before."""
    if not state.deals:
        return None
    stored = [before.get(position) for position in range(len(state.players))]
    if any(result is None for result in stored):
        return None
    previous = [result.stats for result in stored if result is not None]
    deal = state.deals[-1]
    if not follows(game, previous, state, deal):
        return None
    return seat_stats_after(game, previous, state, deal)


def note_change(
    link: CircleSheet, *, change: str, number: int | None, moves: list[dict[str, Any]]
) -> StandingsChange:
    return StandingsChange.objects.create(
        circle_id=link.circle_id,
        sheet=link,
        played_on=link.played_on,
        game=link.sheet.game,
        change=change,
        number=number,
        moves=moves,
    )


def counted_moves(link: CircleSheet, *, counted: bool) -> list[dict[str, Any]]:
    """The seats' numbers when a finished sheet is left out of or brought back into
    the standings: everything it contributed leaves or comes back."""
    moves = []
    for result in SheetResult.objects.filter(sheet=link).select_related("player"):
        if not result.stats.get("finished"):
            return []
        number = headline(link.sheet.game, result.stats)
        moves.append(
            {
                "player": result.player_id,
                "name": result.player.name,
                "before": None if counted else number,
                "after": number if counted else None,
            }
        )
    return moves


def rebuild_results(circle: Circle, refused: list[StoredDealRefused] | None = None) -> int:
    """Derive what every sheet of the circle contributes again from its deals (after
    the results were lost, or the contributions learned something new); returns how
    many sheets were replayed. Nothing is noted as a change: the deals did not move.

    A sheet with a kept deal the rules now refuse (``StoredDealRefused``) is left as it
    was and added to ``refused``; the other sheets and the totals are rebuilt."""
    count = 0
    for sheet_id in (
        CircleSheet.objects.filter(circle=circle)
        .order_by("sheet_id")
        .values_list("sheet_id", flat=True)
    ):
        try:
            _rebuild_sheet(sheet_id)
        except StoredDealRefused as error:
            if refused is None:
                raise
            refused.append(error)
            continue
        count += 1
    _rebuild_totals(circle.pk)
    return count


@retry_on_conflict
def _rebuild_totals(circle_id: int) -> None:
    """Every season's totals added up again from the results just derived."""
    with transaction.atomic():
        moved(circle_id)


@retry_on_conflict
def _rebuild_sheet(sheet_id: int) -> None:
    """One sheet's results derived again, in a transaction of its own."""
    with transaction.atomic():
        # Lock order (scorekeeper/db.py): the sheet's row first, as every write to the
        # sheet locks it (a deal entered meanwhile waits for this, or this for it), then
        # its circle link and the results, which hang off it. A sheet in the trash too:
        # its results are derived like any other's.
        lock_in_order(Sheet.objects.filter(pk=sheet_id))
        link = (
            CircleSheet.objects.select_for_update(of=("self",))
            .select_related("sheet")
            .get(pk=sheet_id)
        )
        replay_results(link, change="rebuilt")


def replay_results(link: CircleSheet, *, change: str) -> SheetState:
    """Replay the sheet once and store what it contributes (a sheet joining a circle, an
    import, a rebuild: the writes that did not come with a replayed state)."""
    sheet = link.sheet
    hands = sheet_selectors.live_hands(sheet)
    state = sheet_selectors.sheet_state(sheet, hands)
    store_results(
        link,
        sheet=sheet,
        state=state,
        entries=[h.entry for h in hands],
        change=change,
        number=None,
    )
    return state
