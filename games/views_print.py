"""Printed lists: the Skat Spielliste of a sheet (filled from its deals) and a blank one.

The pages are ordinary pages on screen (a Print button, the table scrolling in its
box on a phone) and an A4 sheet in black and white from the browser's print
(``static/css/print.css``). What each row and the foot hold comes from the referee
(``games.rules.skat_spielliste``); these views only fetch the sheet and show it.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET

from games import selectors
from games.games import GAMES
from games.models import Sheet
from games.rules.errors import RuleError
from games.rules.skat_list import SERIES_DEALS
from games.rules.skat_spielliste import (
    LEVEL_CODES,
    LIST_TABLE_SIZES,
    LONGEST_LIST,
    Spielliste,
    blank_list,
    check_blank_list,
    filled_list,
    paper_list,
)
from games.views import _sheet

TEMPLATE = "games/spielliste.html"
DEFAULT_TABLE = 4
# Five players' columns need an A4 page on its side.
LANDSCAPE_FROM = 5


def _context(listed: Spielliste | None, **rest: Any) -> dict[str, Any]:
    return {
        "listed": listed,
        "level_codes": LEVEL_CODES,
        "table_sizes": LIST_TABLE_SIZES,
        "longest": LONGEST_LIST,
        # Columns before the players' (Nr., Grundwert, mit, ohne, six levels, won, lost)
        # and in all, for the foot's rows that span them.
        "game_columns": 4 + len(LEVEL_CODES) + 2,
        "landscape": listed is not None and listed.table_size >= LANDSCAPE_FROM,
        **rest,
    }


@require_GET
def sheet_list(request: HttpRequest, token: str, edit: bool = False) -> HttpResponse:
    """A Skat sheet's Spielliste, by either link (under s/ the edit link only)."""
    sheet = _sheet(token, edit=edit)
    if sheet.game != "skat":
        raise Http404("Only a Skat sheet has a Spielliste")
    can_edit = sheet.edit_token == token
    state = selectors.sheet_state(sheet)
    context = _context(
        _paper_or_filled_list(sheet, state),
        sheet=sheet,
        game=GAMES[sheet.game],
        state=state,
        back=sheet.get_absolute_url() if can_edit else sheet.get_view_url(),
    )
    response = render(request, TEMPLATE, context)
    patch_cache_control(response, no_cache=True, private=True)
    return response


def _paper_or_filled_list(sheet: Sheet, state: Any) -> Any:
    """The sheet's list from its deals; a club evening's table recorded from its paper
    list has none, and shows its foot as the organiser typed it (the evening's seats,
    reached by the sheet's reverse relation)."""
    table = getattr(sheet, "evening_table", None)
    if table is None or not table.paper:
        return filled_list(state)
    seats = sorted(table.seats.all(), key=lambda seat: seat.position)
    return paper_list(
        tuple(state.players),
        points=tuple(seat.points for seat in seats),
        won=tuple(seat.won for seat in seats),
        lost=tuple(seat.lost for seat in seats),
        series_deals=int(state.details.get("series_deals", 0)),
    )


@require_GET
def skat_blank_list(request: HttpRequest) -> HttpResponse:
    """A blank Spielliste for a table of 3, 4 or 5 and a series length, from the query
    (``?players=4&deals=48``); a table or series that cannot be is refused with 400."""
    players = request.GET.get("players", str(DEFAULT_TABLE))
    deals = request.GET.get("deals")
    if deals is None:
        size = players.strip()
        deals = (
            str(SERIES_DEALS.get(int(size), ""))
            if size.isascii() and size.isdigit() and len(size) < 3
            else ""
        )
    try:
        size, length = check_blank_list(players, deals)
    except RuleError as error:
        context = _context(
            None, errors=error.problems, asked={"players": players, "deals": deals}, blank=True
        )
        return render(request, TEMPLATE, context, status=400)
    context = _context(
        blank_list(players=size, deals=length),
        asked={"players": str(size), "deals": str(length)},
        blank=True,
    )
    return render(request, TEMPLATE, context)
