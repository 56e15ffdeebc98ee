"""Reads of score sheets: the live deals, the seats, and the state derived by replay."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.db.models import Q, QuerySet
from django.utils.dateparse import parse_date
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import snapshots
from games.games import GAMES
from games.models import Hand, Sheet, SheetEvent, SheetSnapshot
from games.rules.errors import RuleError
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


class StoredDealRefused(RuleError):
    """A deal kept on the sheet that the rules refuse now (they became stricter after it
    was saved, as when card points no cards can make were first refused): the sheet
    cannot be replayed past it. Writes answer it as any RuleError (422, the deal named);
    a page that only reads the sheet says which deal it is and how to take it off
    (games.middleware)."""

    def __init__(self, sheet: Sheet, hand: Hand, error: RuleError) -> None:
        super().__init__(error.prefixed(f"hands.{hand.number - 1}").problems)
        self.sheet = sheet
        self.hand = hand


def replayed_engine(sheet: Sheet, hands: list[Hand]) -> Any:
    entry = GAMES[sheet.game]
    options = entry.sheet_options(sheet)
    names = seat_names(sheet)
    game_sheet = entry.new_sheet(names=names, first_dealer=sheet.first_dealer, options=options)
    for hand in hands:
        try:
            game_sheet.add(entry.read_deal(hand.entry, players=len(names), options=options))
        except RuleError as error:
            raise StoredDealRefused(sheet, hand, error) from None
    return game_sheet


def engine_for(sheet: Sheet) -> Any:
    """The game engine after the sheet's last deal, ready for the next one: rebuilt from
    the counts the last write kept when they are current (no deal replayed, none listed
    in its state), else replayed from every deal and kept for next time. Each call gives
    a fresh engine that the caller may change."""
    return _engine(sheet, listed=False)


def current_state(sheet: Sheet) -> SheetState:
    """Totals, headline and the next deal without replaying the sheet; its ``deals`` are
    the latest ones only (``games.snapshots.TAIL``), replayed on the counts kept before
    them (the deals :func:`latest_hands` read for the same page, or read here)."""
    return _engine(sheet, listed=True).state


def _engine(sheet: Sheet, *, listed: bool) -> Any:
    kept = getattr(sheet, "_snapshot", None)
    if kept is None and Sheet.snapshot.is_cached(sheet):
        # Read with the sheet (the write's lock reads them together).
        row = getattr(sheet, "snapshot", None)
        kept = (row.version, row.engine) if row is not None else (None, None)
    if kept is None or kept[0] != sheet.version:
        found = SheetSnapshot.objects.filter(sheet_id=sheet.pk, version=sheet.version)
        kept = (sheet.version, found.values_list("engine", flat=True).first())
    engine = _kept_engine(sheet, kept[1], listed=listed)
    if engine is not None:
        return engine
    engine = replayed_engine(sheet, live_hands(sheet))
    keep_engine(sheet, engine)
    return engine


def _kept_engine(sheet: Sheet, kept: object, *, listed: bool) -> Any | None:
    """The engine rebuilt from what the sheet keeps (after its last deal, or ``listed``:
    before the deals the page lists, those replayed on it); None when nothing usable is
    kept, or the deals after the kept counts are not the sheet's latest ones."""
    entry = GAMES[sheet.game]
    options = entry.sheet_options(sheet)
    # The names kept with the counts are the seats' at this version (a rename is a write).
    names = getattr(sheet, "_seat_names", None)
    engine = snapshots.load(
        kept,
        entry.sheet_class,
        listed=listed,
        players=names,
        first_dealer=sheet.first_dealer,
        options=options,
    )
    if engine is None:
        return None
    names = engine.players
    counted = engine.deals_played
    if counted >= sheet.deal_count:
        return engine if counted == sheet.deal_count else None
    after = _hands_after(sheet, counted)
    if [hand.number for hand in after] != list(range(counted + 1, sheet.deal_count + 1)):
        return None  # not the deals the counts were kept before
    try:
        for hand in after:
            engine.add(entry.read_deal(hand.entry, players=len(names), options=options))
    except RuleError:
        return None  # the full replay says what is wrong
    return engine


def _hands_after(sheet: Sheet, counted: int) -> list[Hand]:
    """The live deals after deal ``counted``: those :func:`latest_hands` read for this
    sheet at this version when they reach back so far, else read now."""
    read = getattr(sheet, "_latest_hands", None)
    if read is not None and read[0] == sheet.version:
        hands = [hand for hand in read[1] if hand.number > counted]
        if len(hands) == sheet.deal_count - counted:
            return hands
    return list(
        Hand.objects.filter(sheet=sheet, removed_at__isnull=True, number__gt=counted).order_by(
            "number"
        )
    )


def keep_engine(sheet: Sheet, engine: Any) -> None:
    """Keep ``engine``'s counts (``snapshots.dump``) as the sheet's at its current version
    (one query: an upsert)."""
    kept = snapshots.dump(engine)
    SheetSnapshot.objects.bulk_create(
        [SheetSnapshot(sheet_id=sheet.pk, version=sheet.version, engine=kept)],
        update_conflicts=True,
        unique_fields=["sheet"],
        update_fields=["version", "engine"],
    )
    sheet._snapshot = (sheet.version, kept)


def latest_hands(sheet: Sheet, count: int = snapshots.TAIL) -> list[Hand]:
    """The last ``count`` deals on the sheet, in order (kept with the sheet for
    :func:`current_state`, which replays them)."""
    hands = Hand.objects.filter(sheet=sheet, removed_at__isnull=True).order_by("-number")
    latest = list(hands[:count])[::-1]
    sheet._latest_hands = (sheet.version, latest)
    return latest


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


# -- The history of a sheet, in words ------------------------------------------------------

# The changes whose before and after are a deal as entered (the API's JSON of a deal).
DEAL_EVENTS = frozenset(
    {
        SheetEvent.ENTERED,
        SheetEvent.CORRECTED,
        SheetEvent.REMOVED,
        SheetEvent.UNDONE,
        SheetEvent.RESTORED,
        SheetEvent.RECOVERED,
    }
)


@dataclass(frozen=True)
class HistoryLine:
    """One change to a sheet, with what it held before and after in words."""

    event: SheetEvent
    before: str
    after: str
    # Both as the API records them (JSON), for whoever wants every field.
    before_json: str
    after_json: str


def history(sheet: Sheet, events: list[SheetEvent]) -> list[HistoryLine]:
    """The changes to ``sheet`` in words: a deal as the sheet lists it ("Ana: Grand Hand
    with 2, won, +96"), scored at its place after today's deals before it (one replay of
    the sheet for them all); a day in the reader's format; a number of hands."""
    entry = GAMES[sheet.game]
    names = seat_names(sheet)
    options = entry.sheet_options(sheet)
    engine: Any = None

    def deal_words(data: object, number: int | None) -> str:
        nonlocal engine
        if engine is None:
            engine = replayed_engine(sheet, live_hands(sheet))
        after = max(0, min((number or 1) - 1, engine.deals_played))
        try:
            at = type(engine).from_record(
                engine.record(after, through=after),
                players=list(names),
                first_dealer=sheet.first_dealer,
                options=options,
            )
            return at.add(entry.read_deal(data, players=len(names), options=options)).summary
        except (RuleError, ValueError):  # ValueError: UnreadableRecord among them
            return str(_("This version does not fit the deals before it any more."))

    def words(event: SheetEvent, data: object) -> str:
        if data is None:
            return ""
        if event.kind in DEAL_EVENTS:
            return deal_words(data, event.number)
        if event.kind == SheetEvent.DATED and isinstance(data, dict):
            day = parse_date(str(data.get("played_on", "")))
            # As the page writes its other days (the stamps): "1. Dezember 2026".
            return date_format(day, _("j M Y")) if day else ""
        if event.kind == SheetEvent.HANDS and isinstance(data, dict):
            hands = data.get("hands")
            if hands is None:
                return str(_("none: played to the target"))
            if isinstance(hands, int) and not isinstance(hands, bool):
                return ngettext("%(hands)s hand", "%(hands)s hands", hands) % {
                    "hands": number_format(hands)
                }
        return ""

    def as_json(data: object) -> str:
        return "" if data is None else json.dumps(data, indent=1, ensure_ascii=False)

    return [
        HistoryLine(
            event=event,
            before=words(event, event.before),
            after=words(event, event.after) if event.kind != SheetEvent.STARTED else "",
            before_json=as_json(event.before),
            after_json=as_json(event.after) if event.kind != SheetEvent.STARTED else "",
        )
        for event in events
    ]
