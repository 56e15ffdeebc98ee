"""Reads of score sheets: the live deals, the seats, and the state derived by replay."""

from __future__ import annotations

from django.apps import apps
from django.db.models import Q, QuerySet

from games.games import GAMES
from games.models import Hand, Sheet
from games.rules.sheet import SheetState


def live_hands(sheet: Sheet) -> list[Hand]:
    """The deals on the sheet in order (an undone deal waiting to be restored is not one)."""
    return list(Hand.objects.filter(sheet=sheet, removed_at__isnull=True).order_by("number"))


def seat_names(sheet: Sheet) -> tuple[str, ...]:
    cached = getattr(sheet, "_seat_names", None)
    if cached is None:
        cached = tuple(sheet.seats.values_list("name", flat=True))
        sheet._seat_names = cached
    return cached


def sheet_state(sheet: Sheet, hands: list[Hand] | None = None) -> SheetState:
    """Replay every deal through the rules: the totals are never stored, always derived."""
    entry = GAMES[sheet.game]
    hands = live_hands(sheet) if hands is None else hands
    options = entry.sheet_options(sheet)
    names = seat_names(sheet)
    game_sheet = entry.new_sheet(names=names, first_dealer=sheet.first_dealer, options=options)
    for hand in hands:
        game_sheet.add(entry.read_deal(hand.entry, players=len(names), options=options))
    return game_sheet.state


def sheets_with_links() -> QuerySet[Sheet]:
    """Sheets with the circle they are kept in, in the same query: the sheet page names
    it, and the circles app keeps the season's results of every write without asking
    again. The relation is the circles app's; games works without it."""
    sheets = Sheet.objects.all()
    if apps.is_installed("circles"):
        sheets = sheets.select_related("circle_link__circle")
    return sheets


def sheet_by_token(token: str) -> tuple[Sheet, bool] | None:
    """The sheet a link opens, and whether that link may change it."""
    sheet = sheets_with_links().filter(Q(edit_token=token) | Q(view_token=token)).first()
    if sheet is None:
        return None
    return sheet, sheet.edit_token == token
