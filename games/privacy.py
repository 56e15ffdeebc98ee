"""Forgetting a person's name everywhere the sheets keep it.

A circle erases a player at their request (``circles.services.player_erase``): the
seats' names are changed through ``seats_rename`` like any rename, and this module
reaches what a rename leaves behind, found by the seats the person sat at rather
than by the name's spelling alone:

- the sheets' histories (``SheetEvent``): the names a sheet started with, at the
  person's seat, whatever name or case was typed then, and any value in a history
  row that is one of the person's names;
- the kept answers of Idempotency-Keys for those sheets and for starting sheets
  (replayed to a retry for as long as a key is kept), rewritten in place so that a
  retry still finds its answer and is never counted twice;
- the server-side sessions: the names a phone typed recently (offered on the
  new-sheet page), the sheets it started and a notice waiting to be shown.

Backups made before the erasure still hold the name; the erase page says so.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db.models import Q
from django.utils import timezone

from games.models import IdempotencyKey, Seat, SheetEvent
from games.session_keys import NOTICE, RECENT_NAMES, STARTED


def names_at_seats(seats: Mapping[int, int]) -> set[str]:
    """Every name the person was written as at these seats ({sheet id: position}):
    the seat's name now and the name the sheet started with at that seat."""
    names: set[str] = set()
    if not seats:
        return names
    for seat in Seat.objects.filter(sheet_id__in=seats).only("sheet_id", "position", "name"):
        if seats[seat.sheet_id] == seat.position:
            names.add(seat.name)
    for event in _started(seats):
        players = (event.after or {}).get("players") if isinstance(event.after, dict) else None
        position = seats[event.sheet_id]
        if (
            isinstance(players, list)
            and position < len(players)
            and isinstance(players[position], str)
        ):
            names.add(players[position])
    return {name for name in names if name.strip()}


def forget(*, seats: Mapping[int, int], names: Iterable[str], placeholder: str) -> None:
    """Write ``placeholder`` for the person in the histories of their sheets, in kept
    answers and in sessions. Runs in the caller's transaction."""
    words = _Names(names, placeholder)
    if not words:
        return
    for event in SheetEvent.objects.filter(sheet_id__in=seats).only(
        "pk", "sheet_id", "kind", "before", "after"
    ):
        before, after = words.exact(event.before), words.exact(event.after)
        if event.kind == SheetEvent.STARTED and isinstance(after, dict):
            players = after.get("players")
            position = seats[event.sheet_id]
            if isinstance(players, list) and position < len(players):
                after = {**after, "players": [*players]}
                after["players"][position] = placeholder
        if before != event.before or after != event.after:
            event.before, event.after = before, after
            event.save(update_fields=["before", "after"])
    _rewrite_kept([f"sheet:{sheet_id}:" for sheet_id in seats], words, starts=seats)
    _forget_in_sessions(words)


def moves_renamed(moves: Any, player: int, placeholder: str) -> tuple[Any, set[str]]:
    """A change note's moves (``[{"player": id, "name": …, …}]``, as the circles' and the
    club evenings' notes keep them) with ``player``'s name replaced, and the names it
    had there; the moves as they were when they name nobody of that id."""
    if not isinstance(moves, list):
        return moves, set()
    found = {
        move["name"]
        for move in moves
        if isinstance(move, dict)
        and move.get("player") == player
        and isinstance(move.get("name"), str)
    }
    if not found:
        return moves, set()
    renamed = [
        {**move, "name": placeholder}
        if isinstance(move, dict) and move.get("player") == player
        else move
        for move in moves
    ]
    return renamed, found


def forget_in_kept_answers(
    *, scopes: Iterable[str], names: Iterable[str], placeholder: str
) -> None:
    """Write ``placeholder`` for the person in the kept answers of Idempotency-Keys whose
    scope begins with one of ``scopes`` (an app's own writes, such as a club evening's)."""
    words = _Names(names, placeholder)
    if words:
        _rewrite_kept(list(scopes), words)


def _rewrite_kept(
    prefixes: list[str], words: _Names, starts: Mapping[int, int] | None = None
) -> None:
    """Rewrite kept answers in place, so that a retry is still answered (and never
    counted twice) without the name. ``starts``: also the answers to starting these
    sheets (a sheet started elsewhere is another person of that name)."""
    scopes = Q(pk__in=[])
    for prefix in prefixes:
        scopes |= Q(scope__startswith=prefix)
    if starts:
        scopes |= Q(scope__startswith="sheets:")
    for kept in IdempotencyKey.objects.filter(scopes).only("pk", "scope", "response"):
        if kept.scope.startswith("sheets:") and not _about(kept.response, starts or {}):
            continue
        response = words.within(kept.response)
        if response != kept.response:
            IdempotencyKey.objects.filter(pk=kept.pk).update(response=response)


def _about(response: Any, seats: Mapping[int, int]) -> bool:
    """Whether a kept answer to starting a sheet is about one of these sheets."""
    found = response.get("id") if isinstance(response, dict) else None
    return isinstance(found, int) and found in seats


def _started(seats: Mapping[int, int]) -> Iterable[SheetEvent]:
    return SheetEvent.objects.filter(sheet_id__in=seats, kind=SheetEvent.STARTED).only(
        "sheet_id", "after"
    )


def _forget_in_sessions(words: _Names) -> None:
    store = SessionStore()
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        data = session.get_decoded()
        changed = dict(data)
        recent = data.get(RECENT_NAMES)
        if isinstance(recent, list):
            changed[RECENT_NAMES] = [n for n in recent if not words.is_one(n)]
        for key in (STARTED, NOTICE):
            if key in data:
                changed[key] = words.within(data[key])
        if changed != data:
            session.session_data = store.encode(changed)
            session.save(update_fields=["session_data"])


class _Names:
    """The person's names, matched without regard to case: as a whole value, or as a
    whole word inside a text (an explanation, a notice)."""

    def __init__(self, names: Iterable[str], placeholder: str) -> None:
        given = {name.strip() for name in names if isinstance(name, str) and name.strip()}
        self.keys = {name.casefold() for name in given}
        self.placeholder = placeholder
        # Both spellings: IGNORECASE does not fold "ß" to "ss" as casefold does.
        longest_first = sorted(given | self.keys, key=len, reverse=True)
        self.pattern = (
            re.compile(
                r"(?<!\w)(?:" + "|".join(re.escape(n) for n in longest_first) + r")(?!\w)",
                re.IGNORECASE,
            )
            if longest_first
            else None
        )

    def __bool__(self) -> bool:
        return bool(self.keys)

    def is_one(self, value: object) -> bool:
        return isinstance(value, str) and value.strip().casefold() in self.keys

    def exact(self, value: Any) -> Any:
        """``value`` with every string that is one of the names replaced."""
        if self.is_one(value):
            return self.placeholder
        if isinstance(value, list):
            return [self.exact(item) for item in value]
        if isinstance(value, dict):
            return {key: self.exact(item) for key, item in value.items()}
        return value

    def within(self, value: Any) -> Any:
        """``value`` with every occurrence of a name inside its strings replaced."""
        if isinstance(value, str) and self.pattern is not None:
            return self.pattern.sub(self.placeholder, value)
        if isinstance(value, list):
            return [self.within(item) for item in value]
        if isinstance(value, tuple):
            return tuple(self.within(item) for item in value)
        if isinstance(value, dict):
            return {key: self.within(item) for key, item in value.items()}
        return value
