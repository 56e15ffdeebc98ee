"""Writes to score sheets, each checked by the rules before anything is stored.

Thin views and the API call these typed, keyword-only services. Each runs in one
transaction that first locks the sheet row, so two phones writing to the same
sheet queue up instead of interleaving (SQLite's IMMEDIATE transactions do the same
for the whole file). A new deal is added to the engine rebuilt from the running counts
the last write kept (``games.snapshots``), nothing replayed, so it costs the same at
deal 200 as at deal 10; a correction, a deletion or an undo replays the whole sheet, so
every later deal is checked again.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import logging
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.contrib.sessions.models import Session
from django.db import IntegrityError, transaction
from django.db.models import F, ProtectedError, QuerySet, RestrictedError
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.games import GAMES, GameEntry
from games.models import Hand, IdempotencyKey, Seat, Sheet, SheetEvent, new_token
from games.rules.errors import Problem, RuleError
from games.rules.sheet import DealResult, SheetState
from games.selectors import engine_for, keep_engine, live_hands, seat_names, sheets_with_links
from games.signals import sheet_changed
from scorekeeper.db import retry_on_conflict

MAX_NAME = 40


# A retry usually comes within seconds or minutes. But a deal kept on a phone without a
# connection is sent again with its key when the connection returns, which may be days
# later (offline.js): a key is remembered for 30 days, as long as the trash keeps a sheet.
KEY_DAYS = 30
KEY_LIFETIME = datetime.timedelta(days=KEY_DAYS)
# A key keeps its answer whole up to this size. A larger one (a whole sheet: a DELETE's
# answer, up to hundreds of KB) keeps only its members of up to SHORT_BYTES each (ids,
# version, totals, links) and is marked compact: its retry is answered with the
# resource as it is now when the caller can read it again (``idempotent``'s replay).
KEPT_BYTES = 16 * 1024
SHORT_BYTES = 1024
# A sheet in the trash can be brought back for this long, then it is deleted for good.
# Its history (SheetEvent) goes with it; a live sheet's history is kept as long as the
# sheet, however old: every change on it can be brought back (README, "Nothing lost").
logger = logging.getLogger(__name__)

TRASH_DAYS = 30


@dataclass(frozen=True)
class HandOutcome:
    """A write's result: the deal it was about, and the sheet's state replayed from the
    very deals (``hands``) it stored, so a page never pairs a state with other deals.

    A new deal added to the kept engine replays nothing: its ``hands`` is None and
    ``state.deals`` holds that deal only (``games.snapshots``)."""

    hand: Hand | None
    state: SheetState
    hands: list[Hand] | None
    version: int | None = None  # the sheet's version after the write
    deal: DealResult | None = None  # the written deal as scored (None for a removal)
    sheet: Sheet | None = None  # the sheet as the write left it (a new deal only)


@dataclass(frozen=True)
class Actor:
    """Who made a change, for the history: the account (None when not signed in) and
    the way in ("link" for the edit link's pages, "api")."""

    user: Any = None
    via: str = "link"


ANONYMOUS = Actor()


class StaleSheet(RuleError):
    """The write was based on an older version of the sheet than the current one."""

    def __init__(self, current: int) -> None:
        super().__init__(
            _(
                "This sheet changed meanwhile (on another phone): here is the sheet now. "
                "Check it, then enter your change again."
            )
        )
        self.current = current


class GameEndsEarlier(RuleError):
    """A change would end the game with deal ``end`` while deals ``end + 1`` to
    ``count`` come after it. Nothing is changed: the player deletes those deals first,
    or asks for them to be deleted with the change (``drop_later``); the history keeps
    them either way."""

    def __init__(self, entry: GameEntry, state: SheetState, *, end: int, count: int) -> None:
        self.end = end
        self.first = end + 1
        self.last = count
        self.later = count - end  # how many deals come after the new end
        values = {
            "end": end,
            "first": self.first,
            "last": self.last,
            "result": str(state.headline),
        }
        later = self.later
        if entry.counts_rounds:
            text = ngettext(
                "With this change the game ends with round %(end)s (%(result)s), but round "
                "%(first)s was entered after it. Delete round %(first)s first (the history "
                "keeps it), then make this change again.",
                "With this change the game ends with round %(end)s (%(result)s), but rounds "
                "%(first)s to %(last)s were entered after it. Delete them first, from round "
                "%(last)s back (the history keeps them), then make this change again.",
                later,
            )
        else:
            text = ngettext(
                "With this change the game ends with deal %(end)s (%(result)s), but deal "
                "%(first)s was entered after it. Delete deal %(first)s first (the history "
                "keeps it), then make this change again.",
                "With this change the game ends with deal %(end)s (%(result)s), but deals "
                "%(first)s to %(last)s were entered after it. Delete them first, from deal "
                "%(last)s back (the history keeps them), then make this change again.",
                later,
            )
        super().__init__(text % values)


def tidy_name(value: object) -> str:
    """A name as typed, tidied: runs of spaces, tabs and line breaks one space, none at
    the ends, and its letters in one Unicode spelling (NFC: "ü" typed as u and a
    combining mark, as some phones paste it, is the same name as "ü"). "" for what is
    no text."""
    if not isinstance(value, str):
        return ""
    return unicodedata.normalize("NFC", " ".join(value.split()))


def visible(name: str) -> bool:
    """Whether a name shows anything: a letter, a digit, a punctuation mark or a symbol
    (an emoji too), not only spaces, joiners and marks that draw nothing alone."""
    return any(unicodedata.category(c)[0] in "LNPS" for c in name)


def name_character_problem(field: str, name: str) -> Problem | None:
    """A name's characters as a person types them: no control character (Unicode's
    category Cc: U+0000 to U+001F and U+007F to U+009F, a set Unicode never changes), no
    half of a UTF-16 pair standing alone (Cs: U+D800 to U+DFFF), and one character at
    least that shows (:func:`visible`). Checked on the name as tidied (:func:`tidy_name`),
    so the tabs and line breaks a paste brings are spaces by then. Every check of a name people type uses this one: the sheets'
    seats, the circles' names, an evening's roll and an imported circle."""
    problem = _control_problem(field, name)
    if problem is None and not visible(name):
        # Only joiners, marks or a byte-order mark (a paste brings them): it shows as
        # nothing, so it names nobody.
        problem = Problem(
            field, _("A name needs a character one can see: a letter, a digit or a sign.")
        )
    return problem


def _control_problem(field: str, name: str) -> Problem | None:
    if "\x00" in name:
        return Problem(field, _("A name cannot contain a NUL character."))
    if any(c < " " or "\x7f" <= c <= "\x9f" or "\ud800" <= c <= "\udfff" for c in name):
        return Problem(field, _("A name cannot contain control characters."))
    return None


def _clean_names(players: object, problems: list[Problem]) -> list[str]:
    """The names in seat order, tidied; every problem is added to ``problems``."""
    if not isinstance(players, list):
        problems.append(Problem("players", _("Give the players as a list of names in seat order.")))
        return []
    names: list[str] = []
    seen: dict[str, int] = {}
    for i, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            problems.append(
                Problem(f"players.{i}", _("Seat %(seat)s needs a name.") % {"seat": i + 1})
            )
            names.append("")
            continue
        name = tidy_name(name)
        problem = _control_problem(f"players.{i}", name)
        if problem is None and not visible(name):
            # It shows as a blank seat.
            problem = Problem(f"players.{i}", _("Seat %(seat)s needs a name.") % {"seat": i + 1})
        if problem:
            problems.append(problem)
        if len(name) > MAX_NAME:
            problems.append(
                Problem(
                    f"players.{i}",
                    _("Keep names to %(most)s characters; this one has %(count)s.")
                    % {"most": MAX_NAME, "count": len(name)},
                )
            )
        if name.casefold() in seen:
            problems.append(
                Problem(
                    f"players.{i}",
                    _("%(name)s is already at the table; give each seat its own name.")
                    % {"name": name},
                )
            )
        seen.setdefault(name.casefold(), i)
        names.append(name)
    return names


def sheet_checked(
    *,
    game: object,
    players: object,
    first_dealer: object = 0,
    options: object = None,
    owner: Any = None,
    played_on: object = None,
) -> tuple[Sheet, list[str]]:
    """The sheet ``sheet_create`` makes of these, not stored yet, and the seats' names
    as tidied; RuleError with every problem of the request. The import of a circle
    (``circles.transfer``) checks its sheets with it too."""
    entry = GAMES.get(game) if isinstance(game, str) else None
    if entry is None:
        raise RuleError(_("Choose a game: %(games)s.") % {"games": ", ".join(GAMES)}, "game")
    problems: list[Problem] = []
    names = _clean_names(players, problems)
    if isinstance(players, list) and len(names) not in entry.players:
        problems.append(
            Problem(
                "players",
                _("%(game)s is played by %(players)s; you gave %(count)s.")
                % {"game": entry.name, "players": entry.players_label, "count": len(names)},
            )
        )
    if isinstance(first_dealer, bool) or not isinstance(first_dealer, int):
        problems.append(
            Problem("first_dealer", _("Say who deals first by seat: 0 for the first seat."))
        )
    elif not 0 <= first_dealer < max(len(names), 1):
        problems.append(
            Problem(
                "first_dealer",
                _("The first dealer must be one of the %(count)s seats.") % {"count": len(names)},
            )
        )
    try:
        resolved = entry.read_options(options, players=len(names))
    except RuleError as error:
        problems.extend(error.problems)
        resolved = None
    day = timezone.localdate() if played_on is None else _played_day(played_on, problems)
    if problems:
        raise RuleError(problems)
    sheet = Sheet(
        game=entry.slug,
        options=entry.options_as_dict(resolved),
        first_dealer=first_dealer,
        owner=owner,
        played_on=day,
    )
    return sheet, names


@retry_on_conflict
def sheet_create(
    *,
    game: str,
    players: object,
    first_dealer: object = 0,
    options: object = None,
    owner: Any = None,
    played_on: object = None,
    by: Actor = ANONYMOUS,
) -> Sheet:
    """A new sheet, or RuleError with every problem of the request.

    ``owner`` is the signed-in account that starts it (None: the edit link alone
    keeps it). Each name belongs to this sheet only. ``played_on`` is the day it was
    played (a date, or its ISO form "2026-09-01"); None for today.
    """
    sheet, names = sheet_checked(
        game=game,
        players=players,
        first_dealer=first_dealer,
        options=options,
        owner=owner,
        played_on=played_on,
    )
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet.save()
        Seat.objects.bulk_create(
            Seat(sheet=sheet, position=i, name=name) for i, name in enumerate(names)
        )
        sheet._seat_names = tuple(names)
        engine = _replay(entry, sheet, [], new_index=-1)
        keep_engine(sheet, engine)
        _event(sheet, SheetEvent.STARTED, by, after={"players": names})
        _announce(sheet, engine.state, [], "started", None)
    return sheet


def _played_day(value: object, problems: list[Problem]) -> datetime.date | None:
    """The day a sheet was played, from a date or its ISO form; a problem for anything
    else, and for a day after tomorrow (a phone's tomorrow may be the server's today)."""
    day: datetime.date | None = None
    if isinstance(value, datetime.datetime):
        day = None
    elif isinstance(value, datetime.date):
        day = value
    elif isinstance(value, str) and len(value.strip()) == 10:
        try:
            day = datetime.date.fromisoformat(value.strip())
        except ValueError:
            day = None
    if day is None:
        problems.append(
            Problem(
                "played_on",
                _("Give the day it was played as a date, such as %(example)s.")
                % {"example": timezone.localdate().isoformat()},
            )
        )
        return None
    if day > timezone.localdate() + datetime.timedelta(days=1):
        problems.append(
            Problem("played_on", _("The day it was played cannot be later than today."))
        )
        return None
    return day


@retry_on_conflict
def sheet_set_played_on(
    *,
    sheet: Sheet,
    played_on: object,
    expected_version: int | None = None,
    by: Actor = ANONYMOUS,
) -> Sheet:
    """Say which day the sheet was played (it counts for that evening in a circle's
    season); RuleError for a day that is not one, and nothing changes."""
    problems: list[Problem] = []
    day = _played_day(played_on, problems)
    if problems:
        raise RuleError(problems)
    with transaction.atomic():
        sheet = _locked(sheet, expected_version)
        before = sheet.played_on
        if before == day:
            return sheet
        Sheet.objects.filter(pk=sheet.pk).update(
            played_on=day, version=F("version") + 1, updated_at=timezone.now()
        )
        sheet.refresh_from_db(fields=["played_on", "version", "updated_at"])
        _event(
            sheet,
            SheetEvent.DATED,
            by,
            before={"played_on": before.isoformat()},
            after={"played_on": day.isoformat()},
        )
        engine = engine_for(sheet)
        keep_engine(sheet, engine)
        _announce(sheet, engine.state, None, "dated", None)
    return sheet


def sheet_end_after(*, sheet: Sheet, hands: int, by: Actor = ANONYMOUS) -> SheetState:
    """A Pitch game that ends after ``hands`` hands at the latest (the option ``hands``):
    time called on a party night's round of minutes finishes the hand in play, or ends
    a table between hands with the hands it played. Its last hand decides the game as
    the sheet's own rules say (the higher score wins; level, nobody), so the circle's
    season counts it like any finished game. In the caller's transaction where there is
    one (the evening locked the sheet already)."""
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet)
        if sheet.game != "pitch":
            raise RuleError(_("Only a Pitch game is played to a number of hands."))
        if sheet.finished:
            raise RuleError(_("This game is over; its number of hands does not change."))
        if hands < max(sheet.deal_count, 1):
            raise RuleError(
                ngettext(
                    "This game has played %(count)s hand; it cannot end before it.",
                    "This game has played %(count)s hands; it cannot end before them.",
                    sheet.deal_count,
                )
                % {"count": sheet.deal_count},
                "hands",
            )
        before = sheet.options.get("hands") if isinstance(sheet.options, dict) else None
        options = {**(sheet.options or {}), "hands": hands}
        entry.read_options(options, players=4)  # RuleError at options.hands
        Sheet.objects.filter(pk=sheet.pk).update(options=options)
        sheet.options = options
        sheet._options = None  # the engine reads the options again (GameEntry.sheet_options)
        _event(sheet, SheetEvent.HANDS, by, before={"hands": before}, after={"hands": hands})
        entries = [hand.entry for hand in live_hands(sheet)]
        engine = _replay(entry, sheet, entries, new_index=-1)
        return _touch(sheet, engine, entries, "limited", None)


def _locked(sheet: Sheet, expected_version: int | None = None) -> Sheet:
    """The sheet row, locked for the rest of the transaction; ``StaleSheet`` when the
    writer saw an older version than the one stored (If-Match).

    Lock order (scorekeeper/db.py): every write to a sheet locks its row first, before it
    writes anything of the sheet or of a circle (the seats' results are written after it,
    by circles.receivers). A writer that takes several sheets locks them in pk order."""
    # Lock the sheet row alone (PostgreSQL refuses to lock the outer-joined circle link).
    # The engine the last write kept comes in the same query (games.snapshots).
    locked = (
        sheets_with_links()
        .select_related("snapshot")
        .select_for_update(of=("self",))
        .get(pk=sheet.pk)
    )
    if locked.deleted_at is not None:
        raise RuleError(_("This sheet is in the trash; restore it before changing it."))
    if expected_version is not None and expected_version != locked.version:
        raise StaleSheet(locked.version)
    return locked


def _event(
    sheet: Sheet,
    kind: str,
    by: Actor,
    *,
    number: int | None = None,
    hand: Hand | None = None,
    before: Any = None,
    after: Any = None,
) -> SheetEvent:
    user = by.user if getattr(by.user, "is_authenticated", False) else None
    return SheetEvent.objects.create(
        sheet=sheet,
        kind=kind,
        number=number,
        hand=hand,
        before=before,
        after=after,
        user=user,
        via=by.via,
    )


def _touch(
    sheet: Sheet,
    engine: Any,
    entries: list[dict[str, Any]] | None,
    change: str,
    number: int | None,
) -> SheetState:
    """Bump the version, keep the derived counts and the engine, and tell listeners, in
    the caller's transaction. ``entries`` is None when the write did not replay the
    sheet (a new deal added to the kept engine)."""
    state = engine.state
    Sheet.objects.filter(pk=sheet.pk).update(
        version=F("version") + 1,
        updated_at=timezone.now(),
        deal_count=engine.deals_played,
        finished=state.finished,
    )
    sheet.refresh_from_db(fields=["version", "updated_at", "deal_count", "finished"])
    keep_engine(sheet, engine)
    _announce(sheet, state, entries, change, number)
    return state


def _announce(
    sheet: Sheet,
    state: SheetState,
    entries: list[dict[str, Any]] | None,
    change: str,
    number: int | None,
) -> None:
    sheet_changed.send(
        sender=Sheet, sheet=sheet, state=state, entries=entries, change=change, number=number
    )


@retry_on_conflict
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
        engine = _replay(entry, sheet, entries, new_index=-1)
        return _touch(sheet, engine, entries, "renamed", None)


def _check(
    entry: GameEntry, sheet: Sheet, entries: list[dict[str, Any]], new_index: int
) -> SheetState:
    return _replay(entry, sheet, entries, new_index).state


def _replay(entry: GameEntry, sheet: Sheet, entries: list[dict[str, Any]], new_index: int) -> Any:
    """The game engine after replaying the sheet with ``entries``; problems of the deal at
    ``new_index`` keep their own field names, a later deal that no longer fits is
    reported as a whole."""
    options = entry.sheet_options(sheet)
    names = seat_names(sheet)
    game_sheet = entry.new_sheet(names=names, first_dealer=sheet.first_dealer, options=options)
    for index, data in enumerate(entries):
        try:
            game_sheet.add(entry.read_deal(data, players=len(names), options=options))
        except RuleError as error:
            if index == new_index:
                raise
            if index > new_index and game_sheet.state.finished:
                # The change ends the game earlier: the deals from here on were played
                # after its end. Say which, so they can be deleted first (or with it).
                raise GameEndsEarlier(
                    entry, game_sheet.state, end=index, count=len(entries)
                ) from error
            # str(): each message in the reader's language (a join would keep its English).
            messages = " ".join(str(p.message) for p in error.problems)
            if entry.counts_rounds:
                text = _("With this change round %(number)s no longer fits the sheet: %(why)s")
            else:
                text = _("With this change deal %(number)s no longer fits the sheet: %(why)s")
            raise RuleError(text % {"number": index + 1, "why": messages}) from error
    return game_sheet


def key_scope(
    *,
    sheet: Sheet | None = None,
    link: str | None = None,
    user: Any = None,
    client: str = "",
    kind: str = "sheets",
) -> str:
    """Where an Idempotency-Key is looked up: per sheet and per link (a hash of the
    token that sent it); for new sheets (or new things of another ``kind``, such as
    "evenings") per account, or without one per ``client``: what only that client has
    (the API: its address, ``scorekeeper.security.client_ip``; a browser: its CSRF
    secret), kept as a digest. A key replayed by anybody else finds nothing of theirs,
    least of all their new sheet's edit link."""
    if sheet is not None:
        digest = hashlib.sha256((link or "").encode()).hexdigest()[:16]
        return f"sheet:{sheet.pk}:{digest}"
    if getattr(user, "is_authenticated", False):
        return f"{kind}:user:{user.pk}"
    digest = hashlib.sha256(client.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return f"{kind}:anonymous:{digest}"


def fingerprint(method: str, path: str, body: object) -> str:
    canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    # surrogatepass: a fingerprint never fails, whatever text a caller hands in.
    return hashlib.sha256(
        f"{method} {path} {canonical}".encode("utf-8", "surrogatepass")
    ).hexdigest()


Answer = tuple[int, dict[str, Any]]
MAX_KEY = 100


# Run again whole after a deadlock: with a key, this transaction holds the action's; without
# one, the action's service runs its own (and has been run again already, if it needed to).
@retry_on_conflict
def idempotent(
    *,
    scope: str,
    key: str | None,
    print_: str,
    action: Callable[[], Answer],
    replay: Callable[[], dict[str, Any]] | None = None,
    reused: Callable[[], Answer] | None = None,
) -> Answer:
    """Run ``action`` once per key: a retry with the same key gets the first answer back.

    The key sent again with another request is refused (422, in the API's words), or
    answered by ``reused()`` where a page says it in a player's (a form changed after
    its first send had already saved it).

    Only answers that stored something are remembered; a refused request changed
    nothing, so its retry is judged afresh (as payment APIs do with their keys).

    The action and the stored answer commit together, so a crash between them cannot
    store a deal without its key. Two requests with one key at the same moment: the
    second one's insert of the key fails, its whole transaction (its deal included)
    rolls back, and it answers with what the first one stored.

    An answer larger than KEPT_BYTES is kept compact (``_kept``); its retry gets the
    same status and ``replay()``, the resource read as it is now, or without a
    ``replay`` the short members that were kept.
    """
    if not key:
        return action()
    if len(key) > MAX_KEY:
        return 400, {
            "errors": [
                {
                    "field": None,
                    "message": _("An Idempotency-Key has at most %(most)s characters.")
                    % {"most": MAX_KEY},
                }
            ]
        }
    for _attempt in range(2):
        try:
            with transaction.atomic():
                stored = IdempotencyKey.objects.filter(scope=scope, key=key).first()
                if stored is not None and stored.created_at < timezone.now() - KEY_LIFETIME:
                    # Older than KEY_DAYS: forgotten, as if the key had never been used.
                    stored.delete()
                    stored = None
                if stored is None:
                    status, body = action()
                    if status < 400:
                        kept, compact = _kept(body)
                        IdempotencyKey.objects.create(
                            scope=scope,
                            key=key,
                            fingerprint=print_,
                            status=status,
                            response=kept,
                            compact=compact,
                        )
                        return status, body
                    # The same key may have been answered meanwhile: a copy of this
                    # request sent at the same moment stored the deal while this one
                    # waited for the sheet's lock, and this one was then refused (the
                    # series is over now). Its answer is the first one's.
                    stored = IdempotencyKey.objects.filter(scope=scope, key=key).first()
                    if stored is None:
                        # Nothing was stored, so nothing is remembered: the client may
                        # fix the request and send it again with the same key.
                        return status, body
            break
        except IntegrityError:
            continue
    else:
        stored = IdempotencyKey.objects.get(scope=scope, key=key)
    # Outside the transaction: a replay reads the resource without holding a lock.
    if reused is not None and stored.fingerprint != print_:
        return reused()
    return _stored_answer(stored, print_, replay)


def _kept(body: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """What a key keeps of an answer, and whether that is compact: the whole answer up
    to KEPT_BYTES; of a larger one its members of up to SHORT_BYTES, KEPT_BYTES in all."""
    if len(json.dumps(body)) <= KEPT_BYTES:
        return body, False
    short: dict[str, Any] = {}
    room = KEPT_BYTES
    for name, value in body.items():
        size = len(json.dumps({name: value}))
        if size <= SHORT_BYTES and size <= room:
            short[name] = value
            room -= size
    return short, True


def _stored_answer(
    stored: IdempotencyKey, print_: str, replay: Callable[[], dict[str, Any]] | None = None
) -> Answer:
    if stored.fingerprint != print_:
        message = _(
            "This Idempotency-Key was already used for a different request; "
            "send a new key with a new deal."
        )
        return 422, {"errors": [{"field": None, "message": message}]}
    if stored.compact and replay is not None:
        return stored.status, replay()
    return stored.status, stored.response


def _redo_stack(sheet: Sheet) -> list[Hand]:
    """The undone deals, the most recently undone first: "bring back" takes them in
    that order, as many times as there were undos."""
    return list(
        Hand.objects.filter(sheet=sheet, removed_at__isnull=False).order_by("-removed_at", "-pk")
    )


@retry_on_conflict
def hand_record(
    *,
    sheet: Sheet,
    data: dict[str, Any],
    expected_version: int | None = None,
    by: Actor = ANONYMOUS,
) -> HandOutcome:
    """Check and store the next deal. Callers wrap this with the idempotency key.

    The deal is added to the engine rebuilt from the counts the last write kept: nothing
    earlier is replayed (``games.snapshots``)."""
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet, expected_version)
        engine = engine_for(sheet)
        names = seat_names(sheet)
        options = entry.sheet_options(sheet)
        deal = engine.add(entry.read_deal(data, players=len(names), options=options))
        # A new deal takes the place of the undone ones: they can no longer come back
        # with "bring back" (the history still has them).
        Hand.objects.filter(sheet=sheet, removed_at__isnull=False).delete()
        hand = Hand.objects.create(sheet=sheet, number=deal.number, entry=data)
        _event(sheet, SheetEvent.ENTERED, by, number=hand.number, hand=hand, after=data)
        state = _touch(sheet, engine, None, "entered", hand.number)
    return HandOutcome(hand, state, None, sheet.version, deal, sheet)


def _live_hand(
    sheet: Sheet, number: object = None, hand_id: object = None
) -> tuple[list[Hand], int]:
    """The live deals and the index of the one named: by its id (what pages and careful
    clients send, so a retried or repeated request cannot hit the next deal) or by its
    number."""
    hands = live_hands(sheet)
    if hand_id is not None:
        for index, hand in enumerate(hands):
            if hand.pk == hand_id:
                return hands, index
        raise RuleError(
            _(
                "That deal is no longer on the sheet (it was changed meanwhile): "
                "here is the sheet now."
            ),
            "hand",
        )
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= len(hands):
        raise RuleError(_no_such_deal(sheet, number, len(hands)), "number")
    return hands, number - 1


def _no_such_deal(sheet: Sheet, number: object, count: int) -> str:
    values = {"number": number, "count": count}
    if GAMES[sheet.game].counts_rounds:
        if count:
            return (
                _("There is no round %(number)s on this sheet; it has rounds 1 to %(count)s.")
                % values
            )
        return _("There is no round %(number)s on this sheet; it has no rounds yet.") % values
    if count:
        return _("There is no deal %(number)s on this sheet; it has deals 1 to %(count)s.") % values
    return _("There is no deal %(number)s on this sheet; it has no deals yet.") % values


@retry_on_conflict
def hand_correct(
    *,
    sheet: Sheet,
    number: int | None = None,
    hand_id: int | None = None,
    data: dict[str, Any],
    expected_version: int | None = None,
    drop_later: bool = False,
    by: Actor = ANONYMOUS,
) -> HandOutcome:
    """Replace what was entered for a deal; every later deal is re-scored.

    A correction that ends the game earlier (a Pitch team reaches 52 in this deal) is
    refused with ``GameEndsEarlier``, which names the deals played after the new end;
    with ``drop_later`` those deals are deleted with it instead (each one kept in the
    history, where it can be brought back if the correction is undone)."""
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet, expected_version)
        hands, index = _live_hand(sheet, number, hand_id)
        entries = [h.entry for h in hands]
        entries[index] = data
        try:
            engine = _replay(entry, sheet, entries, new_index=index)
        except GameEndsEarlier as ended:
            if not drop_later:
                raise
            entries = entries[: ended.end]
            engine = _replay(entry, sheet, entries, new_index=index)
            # From the last one back, as a player deleting them by hand would.
            for later in reversed(hands[ended.end :]):
                _event(sheet, SheetEvent.REMOVED, by, number=later.number, before=later.entry)
                later.delete()
            hands = hands[: ended.end]
        hand = hands[index]
        before = hand.entry
        hand.entry = data
        hand.save(update_fields=["entry", "updated_at"])
        _event(
            sheet,
            SheetEvent.CORRECTED,
            by,
            number=index + 1,
            hand=hand,
            before=before,
            after=data,
        )
        state = _touch(sheet, engine, entries, "corrected", index + 1)
    return HandOutcome(hand, state, hands, sheet.version, state.deals[index])


@retry_on_conflict
def hand_remove(
    *,
    sheet: Sheet,
    number: int | None = None,
    hand_id: int | None = None,
    expected_version: int | None = None,
    by: Actor = ANONYMOUS,
) -> HandOutcome:
    """Take a deal off the sheet; later deals move up one and are re-scored.

    The last deal is kept aside (not deleted) so that :func:`hand_restore` can put it
    back: that is the one-tap undo, as many times as there were deals. A deal from
    the middle is deleted; the history keeps it, and it can be restored from there.
    """
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet, expected_version)
        hands, index = _live_hand(sheet, number, hand_id)
        entries = [h.entry for i, h in enumerate(hands) if i != index]
        engine = _replay(entry, sheet, entries, new_index=-1)
        removed = hands[index]
        kept = [h for i, h in enumerate(hands) if i != index]
        if index == len(hands) - 1:
            removed.removed_at = timezone.now()
            removed.save(update_fields=["removed_at", "updated_at"])
            kind = SheetEvent.UNDONE
        else:
            kind = SheetEvent.REMOVED
            _event(sheet, kind, by, number=index + 1, hand=None, before=removed.entry)
            removed.delete()
            for later in kept[index:]:
                later.number -= 1
                later.save(update_fields=["number", "updated_at"])
        if kind == SheetEvent.UNDONE:
            _event(sheet, kind, by, number=index + 1, hand=removed, before=removed.entry)
        state = _touch(sheet, engine, entries, "removed", index + 1)
    return HandOutcome(removed, state, kept, sheet.version)


@retry_on_conflict
def hand_restore(
    *,
    sheet: Sheet,
    hand_id: int | None = None,
    expected_version: int | None = None,
    by: Actor = ANONYMOUS,
) -> HandOutcome:
    """Put back the deal the latest undo took off (or, by id, exactly that undone deal
    when it is the next to come back: a second tap on "bring back" cannot bring back
    another one)."""
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet, expected_version)
        stack = _redo_stack(sheet)
        if not stack:
            if GAMES[sheet.game].counts_rounds:
                raise RuleError(_("There is no undone round to bring back."), None)
            raise RuleError(_("There is no undone deal to bring back."), None)
        removed = stack[0]
        if hand_id is not None and removed.pk != hand_id:
            raise RuleError(
                _(
                    "That deal is already back on the sheet (or was replaced): "
                    "here is the sheet now."
                ),
                "hand",
            )
        hands = live_hands(sheet)
        entries = [h.entry for h in hands]
        engine = _replay(entry, sheet, [*entries, removed.entry], new_index=len(entries))
        removed.removed_at = None
        removed.number = len(entries) + 1
        removed.save(update_fields=["removed_at", "number", "updated_at"])
        _event(
            sheet, SheetEvent.RESTORED, by, number=removed.number, hand=removed, after=removed.entry
        )
        state = _touch(sheet, engine, [*entries, removed.entry], "restored", removed.number)
    return HandOutcome(removed, state, [*hands, removed], sheet.version, state.deals[-1])


@retry_on_conflict
def event_recover(
    *,
    sheet: Sheet,
    event_id: int,
    expected_version: int | None = None,
    by: Actor = ANONYMOUS,
) -> HandOutcome:
    """Bring back a deal that was deleted, overwritten by a correction or undone, from
    the sheet's history: it goes back where it was (a corrected deal gets its earlier
    entry again) if the deals after it still fit."""
    entry = GAMES[sheet.game]
    with transaction.atomic():
        sheet = _locked(sheet, expected_version)
        event = SheetEvent.objects.select_for_update().filter(pk=event_id, sheet=sheet).first()
        if event is None or event.before is None or event.kind not in RECOVERABLE:
            raise RuleError(_("There is no deal to restore in that history entry."), "event")
        if event.recovered:
            raise RuleError(_("That deal was restored from the history already."), "event")
        hands = live_hands(sheet)
        entries = [h.entry for h in hands]
        current = next((i for i, h in enumerate(hands) if h.pk == event.hand_id), None)
        if event.kind == SheetEvent.CORRECTED and current is not None:
            # The deal is still on the sheet: it gets its earlier entry back.
            index = current
            entries[index] = event.before
            engine = _replay(entry, sheet, entries, new_index=index)
            hand = hands[index]
            hand.entry = event.before
            hand.save(update_fields=["entry", "updated_at"])
            kept = hands
        else:
            if event.kind == SheetEvent.UNDONE and current is not None:
                raise RuleError(_("That deal is back on the sheet already."), "event")
            # Back where it was; the deals after it move down one.
            index = min((event.number or len(hands) + 1) - 1, len(hands))
            entries.insert(index, event.before)
            engine = _replay(entry, sheet, entries, new_index=index)
            for later in reversed(hands[index:]):
                later.number += 1
                later.save(update_fields=["number", "updated_at"])
            if event.kind == SheetEvent.UNDONE and event.hand_id is not None:
                # Still waiting on the redo stack: it leaves it as it comes back.
                Hand.objects.filter(pk=event.hand_id, removed_at__isnull=False).delete()
            hand = Hand.objects.create(sheet=sheet, number=index + 1, entry=event.before)
            kept = [*hands[:index], hand, *hands[index:]]
        event.recovered = True
        event.save(update_fields=["recovered"])
        _event(
            sheet,
            SheetEvent.RECOVERED,
            by,
            number=index + 1,
            hand=hand,
            before=None,
            after=event.before,
        )
        change = "corrected" if kept is hands else "restored"
        state = _touch(sheet, engine, entries, change, index + 1)
    return HandOutcome(hand, state, kept, sheet.version, state.deals[index])


RECOVERABLE = (SheetEvent.CORRECTED, SheetEvent.REMOVED, SheetEvent.UNDONE)


def undone_hand(sheet: Sheet) -> Hand | None:
    """The deal "bring back" would put back next, if any."""
    return (
        Hand.objects.filter(sheet=sheet, removed_at__isnull=False)
        .order_by("-removed_at", "-pk")
        .first()
    )


def undone_count(sheet: Sheet) -> int:
    return Hand.objects.filter(sheet=sheet, removed_at__isnull=False).count()


def hand_preview(
    *, sheet: Sheet, data: dict[str, Any], number: int | None = None, drop_later: bool = False
) -> tuple[SheetState, DealResult]:
    """What the sheet would look like with this deal (a new one, added to the kept
    engine, or deal ``number`` corrected, which replays the sheet), and that deal as
    scored; ``drop_later`` as :func:`hand_correct` takes it. Nothing is stored."""
    entry = GAMES[sheet.game]
    if number is None:
        engine = engine_for(sheet)
        names = seat_names(sheet)
        options = entry.sheet_options(sheet)
        deal = engine.add(entry.read_deal(data, players=len(names), options=options))
        return engine.state, deal
    hands, index = _live_hand(sheet, number)
    entries = [h.entry for h in hands]
    entries[index] = data
    try:
        state = _check(entry, sheet, entries, new_index=index)
    except GameEndsEarlier as ended:
        if not drop_later:
            raise
        state = _check(entry, sheet, entries[: ended.end], new_index=index)
    return state, state.deals[index]


# -- The sheet itself: links, trash ----------------------------------------------------------


@retry_on_conflict
def links_rotate(*, sheet: Sheet, by: Actor = ANONYMOUS) -> Sheet:
    """New edit and view links; the old ones stop working at once."""
    with transaction.atomic():
        sheet = _locked(sheet)
        sheet.edit_token = new_token()
        sheet.view_token = new_token()
        sheet.save(update_fields=["edit_token", "view_token"])
        Sheet.objects.filter(pk=sheet.pk).update(version=F("version") + 1)
        sheet.refresh_from_db(fields=["version"])
        _event(sheet, SheetEvent.LINKS, by)
    return sheet


def links_rotate_many(*, sheet_ids: list[int], by: Actor = ANONYMOUS) -> int:
    """New edit and view links for many sheets at once (someone who saw them all left),
    in the caller's transaction; the old links stop working at once. Locks the sheets in
    id order, as every writer that takes several sheets does. Answers how many."""
    with transaction.atomic():
        locked = list(
            Sheet.objects.select_for_update()
            .filter(pk__in=sheet_ids)
            .order_by("pk")
            .only("pk", "edit_token", "view_token", "version")
        )
        for sheet in locked:
            sheet.edit_token = new_token()
            sheet.view_token = new_token()
            sheet.version += 1
        Sheet.objects.bulk_update(locked, ["edit_token", "view_token", "version"], batch_size=500)
        user = by.user if getattr(by.user, "is_authenticated", False) else None
        SheetEvent.objects.bulk_create(
            (
                SheetEvent(sheet=sheet, kind=SheetEvent.LINKS, user=user, via=by.via)
                for sheet in locked
            ),
            batch_size=500,
        )
    return len(locked)


@retry_on_conflict
def sheet_delete(*, sheet: Sheet, by: Actor = ANONYMOUS) -> Sheet:
    """Move the sheet to the trash: its links show only that it is there, and it can be
    restored for TRASH_DAYS days."""
    with transaction.atomic():
        sheet = _locked(sheet)
        now = timezone.now()
        Sheet.objects.filter(pk=sheet.pk).update(
            deleted_at=now, version=F("version") + 1, updated_at=now
        )
        sheet.refresh_from_db(fields=["deleted_at", "version", "updated_at"])
        _event(sheet, SheetEvent.DELETED, by)
        hands = live_hands(sheet)
        _announce(
            sheet,
            _check(GAMES[sheet.game], sheet, [h.entry for h in hands], -1),
            [h.entry for h in hands],
            "deleted",
            None,
        )
    return sheet


@retry_on_conflict
def sheet_undelete(*, sheet: Sheet, by: Actor = ANONYMOUS) -> Sheet:
    with transaction.atomic():
        sheet = Sheet.objects.select_for_update().get(pk=sheet.pk)
        if sheet.deleted_at is None:
            return sheet
        now = timezone.now()
        Sheet.objects.filter(pk=sheet.pk).update(
            deleted_at=None, version=F("version") + 1, updated_at=now
        )
        sheet.refresh_from_db(fields=["deleted_at", "version", "updated_at"])
        _event(sheet, SheetEvent.UNDELETED, by)
        hands = live_hands(sheet)
        entries = [h.entry for h in hands]
        _announce(sheet, _check(GAMES[sheet.game], sheet, entries, -1), entries, "undeleted", None)
    return sheet


class Cleared(NamedTuple):
    """What ``clear_expired`` deleted: keys, sheets (with their deals and history) and
    sessions."""

    keys: int
    sheets: int
    sessions: int


def clear_expired(now: datetime.datetime | None = None) -> Cleared:
    """Forget idempotency keys older than KEY_DAYS, empty the trash of sheets deleted
    more than TRASH_DAYS ago (their deals and history go with them) and delete expired
    sessions (what ``manage.py clearsessions`` does). ``manage.py clearexpired`` runs it,
    ``make run`` at start, and the app about every hour (``games.cleanup``)."""
    now = now or timezone.now()
    keys = _delete_in_batches(IdempotencyKey.objects.filter(created_at__lt=now - KEY_LIFETIME))
    sheets = _delete_in_batches(
        Sheet.objects.filter(deleted_at__lt=now - datetime.timedelta(days=TRASH_DAYS)),
        size=CLEAR_SHEETS_A_BATCH,
    )
    # Sessions live in the database (Django's default engine; games.privacy reads them
    # there too).
    sessions = _delete_in_batches(Session.objects.filter(expire_date__lt=now))
    return Cleared(keys=keys, sheets=sheets, sessions=sessions)


# The clean-up deletes a batch at a time, each in a short transaction of its own: on
# SQLite a delete holds the one write lock, and a month of a busy club's keys deleted at
# once would keep every table's deal waiting behind it. A trashed sheet takes its deals
# and history with it, so its batches are smaller.
CLEAR_A_BATCH = 500
CLEAR_SHEETS_A_BATCH = 50


def _delete_in_batches(found: QuerySet, size: int | None = None) -> int:
    """Delete what ``found`` selects, ``size`` (CLEAR_A_BATCH) rows at a time; how many
    rows of its model were deleted (not counting what went with them)."""
    size = size or CLEAR_A_BATCH
    model = found.model
    deleted = 0
    kept: list[Any] = []  # rows something else still needs (a club evening's table)
    while True:
        batch = list(found.exclude(pk__in=kept).order_by("pk").values_list("pk", flat=True)[:size])
        if not batch:
            return deleted
        try:
            _, by_model = model.objects.filter(pk__in=batch).delete()
        except (ProtectedError, RestrictedError):
            # One at a time, leaving the rows another row still refers to: the clean-up
            # goes on (a trashed sheet an evening's table keeps stays in the trash).
            by_model = {}
            for pk in batch:
                try:
                    _, one = model.objects.filter(pk=pk).delete()
                except (ProtectedError, RestrictedError):
                    kept.append(pk)
                    logger.warning("%s %s is still needed; it is not deleted.", model.__name__, pk)
                    continue
                by_model[model._meta.label] = by_model.get(model._meta.label, 0) + one.get(
                    model._meta.label, 0
                )
        deleted += by_model.get(model._meta.label, 0)
