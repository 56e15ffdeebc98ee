"""Reads of score sheets: the live deals, the seats, and the state derived by replay."""

from __future__ import annotations

from typing import Any

from django.apps import apps
from django.db.models import Q, QuerySet

from games import snapshots
from games.games import GAMES
from games.models import Hand, Sheet, SheetSnapshot
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
    return replayed_engine(sheet, live_hands(sheet) if hands is None else hands).state


def replayed_engine(sheet: Sheet, hands: list[Hand]) -> Any:
    entry = GAMES[sheet.game]
    options = entry.sheet_options(sheet)
    names = seat_names(sheet)
    game_sheet = entry.new_sheet(names=names, first_dealer=sheet.first_dealer, options=options)
    for hand in hands:
        game_sheet.add(entry.read_deal(hand.entry, players=len(names), options=options))
    return game_sheet


def engine_for(sheet: Sheet) -> Any:
    """The game engine after the sheet's last deal, ready for the next one: the one the
    last write kept when it is current (no replay), else replayed from the deals and
    kept for next time. Each call gives a fresh engine that the caller may change."""
    blob = getattr(sheet, "_snapshot", None)
    if blob is None and Sheet.snapshot.is_cached(sheet):
        # Read with the sheet (the write's lock reads them together).
        kept = getattr(sheet, "snapshot", None)
        blob = (kept.version, kept.engine) if kept is not None else (None, None)
    if blob is None or blob[0] != sheet.version:
        found = SheetSnapshot.objects.filter(sheet_id=sheet.pk, version=sheet.version)
        blob = (sheet.version, found.values_list("engine", flat=True).first())
    engine = snapshots.load(blob[1])
    if engine is not None:
        return engine
    engine = replayed_engine(sheet, live_hands(sheet))
    keep_engine(sheet, engine)
    return engine


def keep_engine(sheet: Sheet, engine: Any) -> None:
    """Keep ``engine`` as the sheet's at its current version (one query: an upsert)."""
    blob = snapshots.dump(engine)
    SheetSnapshot.objects.bulk_create(
        [SheetSnapshot(sheet_id=sheet.pk, version=sheet.version, engine=blob)],
        update_conflicts=True,
        unique_fields=["sheet"],
        update_fields=["version", "engine"],
    )
    sheet._snapshot = (sheet.version, blob)


def current_state(sheet: Sheet) -> SheetState:
    """Totals, headline and the next deal without replaying the sheet; its ``deals`` are
    the latest ones only (``games.snapshots.TAIL``)."""
    return engine_for(sheet).state


def latest_hands(sheet: Sheet, count: int = snapshots.TAIL) -> list[Hand]:
    """The last ``count`` deals on the sheet, in order."""
    hands = Hand.objects.filter(sheet=sheet, removed_at__isnull=True).order_by("-number")
    return list(hands[:count])[::-1]


def sheets_with_links() -> QuerySet[Sheet]:
    """Sheets with the circle they are kept in, in the same query: the sheet page names
    it, and the circles app keeps the season's results of every write without asking
    again. The relation is the circles app's; games works without it."""
    sheets = Sheet.objects.all()
    if apps.is_installed("circles"):
        sheets = sheets.select_related("circle_link__circle")
    if apps.is_installed("evenings"):
        # A club evening's table (its sheet page links to the table's sign-off).
        sheets = sheets.select_related("evening_table__series")
    return sheets


def sheet_by_token(token: str) -> tuple[Sheet, bool] | None:
    """The sheet a link opens, and whether that link may change it."""
    sheet = sheets_with_links().filter(Q(edit_token=token) | Q(view_token=token)).first()
    if sheet is None:
        return None
    return sheet, sheet.edit_token == token
