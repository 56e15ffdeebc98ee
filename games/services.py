"""Writes to score sheets. Every write re-checks the whole sheet by replaying it.

Thin views and the API call these typed, keyword-only services. Each runs in one
transaction that first locks the sheet row, so two phones writing to the same
sheet queue up instead of interleaving (SQLite's IMMEDIATE transactions do the same
for the whole file). A deal is checked by the rules before anything is stored; a
correction is checked by replaying every later deal too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from games.games import GAMES, GameEntry
from games.models import Hand, IdempotencyKey, Seat, Sheet
from games.rules.errors import Problem, RuleError
from games.rules.sheet import SheetState
from games.selectors import live_hands, seat_names, sheets_with_links
from games.signals import sheet_changed

MAX_NAME = 40


@dataclass(frozen=True)
class HandOutcome:
    hand: Hand
    state: SheetState


def _clean_names(players: object, problems: list[Problem]) -> list[str]:
    """The names in seat order, tidied; every problem is added to ``problems``."""
    if not isinstance(players, list):
        problems.append(Problem("players", "Give the players as a list of names in seat order."))
        return []
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            problems.append(Problem(f"players.{i}", f"Seat {i + 1} needs a name."))
            names.append("")
            continue
        name = " ".join(name.split())
        if len(name) > MAX_NAME:
            problems.append(
                Problem(
                    f"players.{i}",
                    f"Keep names to {MAX_NAME} characters; this one has {len(name)}.",
                )
            )
        if name.casefold() in seen:
            problems.append(
                Problem(
                    f"players.{i}", f"{name} is already at the table; give each seat its own name."
                )
            )
        seen.setdefault(name.casefold(), i)
        names.append(name)
    return names


def sheet_create(
    *,
    game: str,
    players: object,
    first_dealer: object = 0,
    options: object = None,
    owner: Any = None,
) -> Sheet:
    """A new sheet, or RuleError with every problem of the request.

    ``owner`` is the signed-in account that starts it (None: the edit link alone
    keeps it). Each name belongs to this sheet only.
    """
    entry = GAMES.get(game) if isinstance(game, str) else None
    if entry is None:
        raise RuleError(f"Choose a game: {', '.join(GAMES)}.", "game")
    problems: list[Problem] = []
    names = _clean_names(players, problems)
    if isinstance(players, list) and len(names) not in entry.players:
        problems.append(
            Problem(
                "players",
                f"{entry.name} is played by {entry.players_label}; you gave {len(names)}.",
            )
        )
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
        problems.append(
            Problem("first_dealer", "Say who deals first by seat: 0 for the first seat.")
        )
    elif not 0 <= first_dealer < max(len(names), 1):
        problems.append(
            Problem("first_dealer", f"The first dealer must be one of the {len(names)} seats.")
        )
    try:
        resolved = entry.read_options(options, players=len(names))
    except RuleError as error:
        problems.extend(error.problems)
        resolved = None
    if problems:
        raise RuleError(problems)
    with transaction.atomic():
        sheet = Sheet.objects.create(
            game=entry.slug,
            options=entry.options_as_dict(resolved),
            first_dealer=first_dealer,
            owner=owner,
        )
        Seat.objects.bulk_create(
            Seat(sheet=sheet, position=i, name=name) for i, name in enumerate(names)
        )
        sheet._seat_names = tuple(names)
        state = _check(entry, sheet, [], new_index=-1)
        _announce(sheet, state, [], "started", None)
    return sheet


def _locked(sheet: Sheet) -> Sheet:
    # Lock the sheet row alone (PostgreSQL refuses to lock the outer-joined circle link).
    return sheets_with_links().select_for_update(of=("self",)).get(pk=sheet.pk)


def _touch(
    sheet: Sheet,
    state: SheetState,
    entries: list[dict[str, Any]],
    change: str,
    number: int | None,
) -> None:
    """Bump the version, keep the derived counts, and tell listeners, in the caller's
    transaction."""
    Sheet.objects.filter(pk=sheet.pk).update(
        version=F("version") + 1,
        updated_at=timezone.now(),
        deal_count=len(state.deals),
        finished=state.finished,
    )
    sheet.refresh_from_db(fields=["version", "updated_at", "deal_count", "finished"])
    _announce(sheet, state, entries, change, number)


def _announce(
    sheet: Sheet,
    state: SheetState,
    entries: list[dict[str, Any]],
    change: str,
    number: int | None,
) -> None:
    sheet_changed.send(
        sender=Sheet, sheet=sheet, state=state, entries=entries, change=change, number=number
    )


def seats_rename(*, sheet: Sheet, names: dict[int, str]) -> SheetState:
    """Show other names at some seats (a circle renamed or merged its players).

    The deals stay as they were; only the names the explanations use change.
    """
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet)
        seats = list(sheet.seats.all())
        current = [seat.name for seat in seats]
        for position, name in names.items():
            current[position] = name
        problems: list[Problem] = []
        _clean_names(current, problems)
        if problems:
            raise RuleError(problems)
        for seat in seats:
            if seat.name != current[seat.position]:
                seat.name = current[seat.position]
                seat.save(update_fields=["name"])
        sheet._seat_names = tuple(current)
        entries = [h.entry for h in live_hands(sheet)]
        state = _check(entry, sheet, entries, new_index=-1)
        _touch(sheet, state, entries, "renamed", None)
    return state


def _check(
    entry: GameEntry, sheet: Sheet, entries: list[dict[str, Any]], new_index: int
) -> SheetState:
    """Replay the sheet with ``entries``; problems of the deal at ``new_index`` keep their own
    field names, a later deal that no longer fits is reported as a whole."""
    options = entry.sheet_options(sheet)
    names = seat_names(sheet)
    game_sheet = entry.new_sheet(names=names, first_dealer=sheet.first_dealer, options=options)
    for index, data in enumerate(entries):
        try:
            game_sheet.add(entry.read_deal(data, players=len(names), options=options))
        except RuleError as error:
            if index == new_index:
                raise
            messages = " ".join(p.message for p in error.problems)
            raise RuleError(
                f"With this change deal {index + 1} no longer fits the sheet: {messages}"
            ) from error
    return game_sheet.state


def fingerprint(method: str, path: str, body: object) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(f"{method} {path} {canonical}".encode()).hexdigest()


Answer = tuple[int, dict[str, Any]]
MAX_KEY = 100


def idempotent(*, scope: str, key: str | None, print_: str, action: Callable[[], Answer]) -> Answer:
    """Run ``action`` once per key: a retry with the same key gets the first answer back.

    Only answers that stored something are remembered; a refused request changed
    nothing, so its retry is judged afresh (as payment APIs do with their keys).

    The action and the stored answer commit together, so a crash between them cannot
    store a deal without its key. Two requests with one key at the same moment: the
    second one's insert of the key fails, its whole transaction (its deal included)
    rolls back, and it answers with what the first one stored.
    """
    if not key:
        return action()
    if len(key) > MAX_KEY:
        return 400, {
            "errors": [
                {"field": None, "message": f"An Idempotency-Key has at most {MAX_KEY} characters."}
            ]
        }
    for _ in range(2):
        try:
            with transaction.atomic():
                stored = IdempotencyKey.objects.filter(scope=scope, key=key).first()
                if stored is not None:
                    return _stored_answer(stored, print_)
                status, body = action()
                if status >= 400:
                    # Nothing was stored, so nothing is remembered: the client may fix
                    # the request and send it again with the same key.
                    return status, body
                IdempotencyKey.objects.create(
                    scope=scope, key=key, fingerprint=print_, status=status, response=body
                )
                return status, body
        except IntegrityError:
            continue
    return _stored_answer(IdempotencyKey.objects.get(scope=scope, key=key), print_)


def _stored_answer(stored: IdempotencyKey, print_: str) -> Answer:
    if stored.fingerprint != print_:
        message = (
            "This Idempotency-Key was already used for a different request; "
            "send a new key with a new deal."
        )
        return 422, {"errors": [{"field": None, "message": message}]}
    return stored.status, stored.response


def hand_record(*, sheet: Sheet, data: dict[str, Any]) -> HandOutcome:
    """Check and store the next deal. Callers wrap this with the idempotency key."""
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet)
        hands = live_hands(sheet)
        entries = [h.entry for h in hands]
        state = _check(entry, sheet, [*entries, data], new_index=len(entries))
        # The undo of an earlier deal cannot be undone once a new deal takes its place.
        Hand.objects.filter(sheet=sheet, removed_at__isnull=False).delete()
        hand = Hand.objects.create(sheet=sheet, number=len(entries) + 1, entry=data)
        _touch(sheet, state, [*entries, data], "entered", hand.number)
    return HandOutcome(hand, state)


def _live_hand(sheet: Sheet, number: object) -> tuple[list[Hand], int]:
    hands = live_hands(sheet)
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(hands):
        count = len(hands)
        where = f"deals 1 to {count}" if count else "no deals yet"
        raise RuleError(f"There is no deal {number} on this sheet; it has {where}.", "number")
    return hands, number - 1


def hand_correct(*, sheet: Sheet, number: int, data: dict[str, Any]) -> HandOutcome:
    """Replace what was entered for deal ``number``; every later deal is re-scored."""
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet)
        hands, index = _live_hand(sheet, number)
        entries = [h.entry for h in hands]
        entries[index] = data
        state = _check(entry, sheet, entries, new_index=index)
        hand = hands[index]
        hand.entry = data
        hand.save(update_fields=["entry", "updated_at"])
        _touch(sheet, state, entries, "corrected", number)
    return HandOutcome(hand, state)


def hand_remove(*, sheet: Sheet, number: int) -> SheetState:
    """Take deal ``number`` off the sheet; later deals move up one and are re-scored.

    The last deal is kept aside (not deleted) so that :func:`hand_restore` can put it
    back: that is the one-tap undo and the undo of the undo.
    """
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet)
        hands, index = _live_hand(sheet, number)
        entries = [h.entry for i, h in enumerate(hands) if i != index]
        state = _check(entry, sheet, entries, new_index=-1)
        Hand.objects.filter(sheet=sheet, removed_at__isnull=False).delete()
        removed = hands[index]
        if index == len(hands) - 1:
            removed.removed_at = timezone.now()
            removed.save(update_fields=["removed_at", "updated_at"])
        else:
            removed.delete()
            for later in hands[index + 1 :]:
                later.number -= 1
                later.save(update_fields=["number", "updated_at"])
        _touch(sheet, state, entries, "removed", number)
    return state


def hand_restore(*, sheet: Sheet) -> HandOutcome:
    """Put back the deal the last undo took off."""
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet)
        removed = (
            Hand.objects.filter(sheet=sheet, removed_at__isnull=False)
            .order_by("-removed_at")
            .first()
        )
        if removed is None:
            raise RuleError("There is no undone deal to bring back.", None)
        hands = live_hands(sheet)
        entries = [h.entry for h in hands]
        state = _check(entry, sheet, [*entries, removed.entry], new_index=len(entries))
        removed.removed_at = None
        removed.number = len(entries) + 1
        removed.save(update_fields=["removed_at", "number", "updated_at"])
        _touch(sheet, state, [*entries, removed.entry], "restored", removed.number)
    return HandOutcome(removed, state)


def undone_hand(sheet: Sheet) -> Hand | None:
    return (
        Hand.objects.filter(sheet=sheet, removed_at__isnull=False).order_by("-removed_at").first()
    )


def hand_preview(
    *, sheet: Sheet, data: dict[str, Any], number: int | None = None
) -> tuple[SheetState, int]:
    """What the sheet would look like with this deal (a new one, or deal ``number``
    corrected), and the index of that deal. Nothing is stored."""
    entry = GAMES[sheet.game]
    hands = live_hands(sheet)
    entries = [h.entry for h in hands]
    if number is None:
        index = len(entries)
        entries.append(data)
    else:
        hands, index = _live_hand(sheet, number)
        entries[index] = data
    return _check(entry, sheet, entries, new_index=index), index
