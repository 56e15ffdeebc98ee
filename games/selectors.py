"""Reads of score sheets: the live deals, the seats, and the state derived by replay."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from games.games import GAMES
from games.models import Hand, Player, Sheet
from games.rules.sheet import SheetState


def live_hands(sheet: Sheet) -> list[Hand]:
    """The deals on the sheet in order (an undone deal waiting to be restored is not one)."""
    return list(Hand.objects.filter(sheet=sheet, removed_at__isnull=True).order_by("number"))


def seat_names(sheet: Sheet) -> tuple[str, ...]:
    cached = getattr(sheet, "_seat_names", None)
    if cached is None:
        cached = tuple(seat.player.name for seat in sheet.seats.select_related("player"))
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


def sheet_by_token(token: str) -> tuple[Sheet, bool] | None:
    """The sheet a link opens, and whether that link may change it."""
    sheet = Sheet.objects.filter(Q(edit_token=token) | Q(view_token=token)).first()
    if sheet is None:
        return None
    return sheet, sheet.edit_token == token


def known_players(limit: int = 200) -> QuerySet[Player]:
    """Names typed on earlier sheets, most recent first, to offer again."""
    return Player.objects.order_by("-last_seen_at")[:limit]
