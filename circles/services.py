"""Writes for circles: membership, players, sheets in a circle, seasons.

Typed, keyword-only, each in one transaction. Who may call which is decided in
``circles.permissions`` by the views and the API before they get here; these check
only what the data itself requires (a name taken, two players at one table).
Problems come back as ``RuleError`` with one message per field, like the sheets'.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from circles.models import (
    AuditEntry,
    Circle,
    CircleSheet,
    Membership,
    Player,
    Season,
    SeatPlayer,
    SheetResult,
    StandingsChange,
    new_token,
)
from circles.results import counted_moves, note_change, replay_results
from circles.rules.standings import ClubRules
from circles.season_totals import moved
from circles.signals import links_renewed, player_erased
from circles.wording import day
from games import privacy
from games import selectors as sheet_selectors
from games import services as sheet_services
from games.models import Sheet
from games.rules.errors import Problem, RuleError
from scorekeeper.db import lock_in_order, retry_on_conflict

MAX_CIRCLE_NAME = 60
MAX_PLAYER_NAME = 40


def _tidy(name: object) -> str:
    return sheet_services.tidy_name(name)


def _name_problem(field: str, name: str, limit: int) -> Problem | None:
    if not name:
        return Problem(field, _("Give a name."))
    if len(name) > limit:
        return Problem(
            field,
            _("Keep the name to %(limit)d characters; this one has %(count)d.")
            % {"limit": limit, "count": len(name)},
        )
    # A NUL, another control character, half a UTF-16 pair: the sheets' check.
    return sheet_services.name_character_problem(field, name)


# -- The audit log -------------------------------------------------------------------------


def _audit(circle: Circle | int, by: Any, action: str, **detail: Any) -> None:
    """Write one line of the circle's administration log (see AuditEntry), in the
    caller's transaction. ``by`` is the account that acted (None: the command line)."""
    signed_in = getattr(by, "is_authenticated", False)
    AuditEntry.objects.create(
        circle_id=circle if isinstance(circle, int) else circle.pk,
        actor=by if signed_in else None,
        actor_name=by.get_username() if signed_in else "",
        action=action,
        detail=detail,
    )


# -- Circles and members -----------------------------------------------------------------


@retry_on_conflict
def circle_create(*, owner: Any, name: object, player_name: object = "") -> Circle:
    """A new circle with ``owner`` as its first owner (and, if given, their player)."""
    name = _tidy(name)
    problems = [_name_problem("name", name, MAX_CIRCLE_NAME)]
    if _tidy(player_name):
        problems.append(_name_problem("player_name", _tidy(player_name), MAX_PLAYER_NAME))
    if any(problems):
        raise RuleError([problem for problem in problems if problem])
    with transaction.atomic():
        circle = Circle.objects.create(name=name)
        Membership.objects.create(circle=circle, user=owner, role=Membership.OWNER)
        if _tidy(player_name):
            player = player_for_name(circle, player_name)
            player.user = owner
            player.save(update_fields=["user"])
    return circle


def circle_rename(*, circle: Circle, name: object) -> Circle:
    name = _tidy(name)
    problem = _name_problem("name", name, MAX_CIRCLE_NAME)
    if problem:
        raise RuleError([problem])
    circle.name = name
    circle.save(update_fields=["name"])
    return circle


@retry_on_conflict
def invite_rotate(*, circle: Circle, by: Any = None) -> str:
    """A new invite link; the old one stops working at once."""
    with transaction.atomic():
        # Run again after a deadlock, a new token replaces the one the aborted attempt set.
        circle.invite_token = new_token()
        circle.save(update_fields=["invite_token"])
        _audit(circle, by, AuditEntry.INVITE)
    return circle.invite_token


def circle_join(*, user: Any, token: str) -> Circle:
    circle = Circle.objects.filter(invite_token=token).first()
    if circle is None:
        raise RuleError(
            _("This invite link is not valid any more. Ask the circle's owner for a new one.")
        )
    Membership.objects.get_or_create(circle=circle, user=user)
    return circle


@retry_on_conflict
def member_set_role(*, membership: Membership, role: str, by: Any = None) -> Membership:
    if role not in (Membership.OWNER, Membership.MEMBER):
        raise RuleError(_("A member is an owner or a member."), "role")
    with transaction.atomic():
        # Lock order (scorekeeper/db.py): the circle's owners and this member, in pk
        # order; the role as stored now (a retry starts from it, not from this object).
        locked = lock_in_order(
            Membership.objects.filter(circle_id=membership.circle_id, role=Membership.OWNER)
            | Membership.objects.filter(pk=membership.pk)
        )
        membership.role = next((m.role for m in locked if m.pk == membership.pk), membership.role)
        if role == Membership.MEMBER and membership.is_owner:
            _keep_an_owner(membership)
        if membership.role != role:
            membership.role = role
            membership.save(update_fields=["role"])
            _audit(
                membership.circle_id,
                by,
                AuditEntry.ROLE,
                member=membership.user.get_username(),
                role=role,
            )
    return membership


@dataclass(frozen=True)
class Removal:
    """What taking a member out changed: how many sheets and seasons got new links, and
    whether the invite link is new (all zero/False when no new links were asked for)."""

    sheets: int = 0
    seasons: int = 0
    invite: bool = False
    evenings: int = 0  # club evenings whose organiser link is new

    @property
    def new_links(self) -> bool:
        return self.invite or bool(self.sheets or self.seasons or self.evenings)


@retry_on_conflict
def member_remove(*, membership: Membership, by: Any = None, new_links: bool = False) -> Removal:
    """Take a member out of the circle; their player stays (the sheets keep it) but is
    no longer linked to the account.

    A member saw every sheet's edit link on the circle page, the seasons' share links
    and the invite link: with ``new_links`` all of them are made anew in the same
    transaction, so nothing the leaver kept opens anything any more."""
    with transaction.atomic():
        # Lock order (scorekeeper/db.py): the circle's owners and this member, in pk
        # order, then (new links) its club evenings, then the circle's sheets, in pk
        # order, before its players.
        # The membership as stored now: the caller's object is left as it was.
        locked = lock_in_order(
            Membership.objects.filter(circle_id=membership.circle_id, role=Membership.OWNER)
            | Membership.objects.filter(pk=membership.pk)
        )
        membership = next((m for m in locked if m.pk == membership.pk), membership)
        evenings = 0
        if new_links:
            # The club evenings' organiser links too (evenings.receivers; an owner saw
            # them on the circle page): the evenings' rows come before the sheets.
            evenings = sum(
                count
                for _receiver, count in links_renewed.send(sender=Circle, circle=membership.circle)
                if isinstance(count, int)
            )
            lock_in_order(
                Sheet.objects.filter(
                    pk__in=CircleSheet.objects.filter(circle_id=membership.circle_id).values(
                        "sheet_id"
                    )
                )
            )
        if membership.is_owner:
            _keep_an_owner(membership)
        circle = membership.circle
        # The circle's sheets the leaver started stay the circle's: whoever removed them
        # (an owner) may delete and bring them back now, or, when they left on their own,
        # whoever holds the edit link. The leaver's home no longer lists them. Locked in
        # pk order before the players (with new links they are locked already).
        heir = by if by is not None and getattr(by, "pk", None) != membership.user_id else None
        started = Sheet.objects.filter(
            owner=membership.user,
            pk__in=CircleSheet.objects.filter(circle=circle).values("sheet_id"),
        )
        lock_in_order(started)
        started.update(owner=heir)
        Player.objects.filter(circle=circle, user=membership.user).update(user=None)
        membership.delete()
        removal = Removal()
        if new_links:
            actor = sheet_services.Actor(user=by)
            sheet_ids = list(
                CircleSheet.objects.filter(circle=circle).values_list("sheet_id", flat=True)
            )
            seasons = list(Season.objects.select_for_update().filter(circle=circle).order_by("pk"))
            for season in seasons:
                season.view_token = new_token()
            Season.objects.bulk_update(seasons, ["view_token"])
            circle.invite_token = new_token()
            circle.save(update_fields=["invite_token"])
            removal = Removal(
                sheets=sheet_services.links_rotate_many(sheet_ids=sheet_ids, by=actor),
                seasons=len(seasons),
                invite=True,
                evenings=evenings,
            )
        left = by is not None and getattr(by, "pk", None) == membership.user_id
        _audit(
            circle,
            by,
            AuditEntry.LEFT if left else AuditEntry.REMOVED,
            member=membership.user.get_username(),
            sheets=removal.sheets,
            seasons=removal.seasons,
            invite=removal.invite,
        )
    return removal


def _keep_an_owner(membership: Membership) -> None:
    owners = (
        Membership.objects.select_for_update()
        .filter(circle=membership.circle, role=Membership.OWNER)
        .exclude(pk=membership.pk)
    )
    if not owners.exists():
        raise RuleError(
            _("Every circle needs an owner: make another member an owner first."), "role"
        )


# -- Players -------------------------------------------------------------------------------


def player_add(*, circle: Circle, name: object) -> Player:
    """A new player of the circle, typed on its players page: the name checked as every
    name is; RuleError when it is not a name or the circle has that player already."""
    name = _tidy(name)
    problem = _name_problem("name", name, MAX_PLAYER_NAME)
    if problem:
        raise RuleError([problem])
    if Player.objects.filter(circle=circle, name_key=name.casefold()).exists():
        raise RuleError(_("%(name)s is already a player here.") % {"name": name}, "name")
    with transaction.atomic():
        player = player_for_name(circle, name)
        moved(circle.pk, sheets=())
    return player


def player_for_name(circle: Circle, name: object) -> Player:
    """The circle's player of that name (in any case), created if new."""
    name = _tidy(name)
    player, _created = Player.objects.get_or_create(
        circle=circle, name_key=name.casefold(), defaults={"name": name}
    )
    return player


@retry_on_conflict
def player_update(
    *,
    player: Player,
    name: object = None,
    guest: bool | None = None,
    shown_as: object = None,
    user: Any = ...,
    by: Any = None,
) -> Player:
    """Rename (every sheet of the circle shows the new name), mark a guest, choose how
    the name is shown outside the circle, or link the player to a member's account."""
    problems: list[Problem] = []
    with transaction.atomic():
        if name is not None and _tidy(name) != player.name:
            # Lock order (scorekeeper/db.py): a new name is shown on every sheet the
            # player sat at: those sheets first, in pk order, then the player.
            lock_in_order(Sheet.objects.filter(pk__in=player.seats.values("sheet_id")))
        player = Player.objects.select_for_update().get(pk=player.pk)
        new_name = player.name
        if name is not None:
            new_name = _tidy(name)
            problem = _name_problem("name", new_name, MAX_PLAYER_NAME)
            if problem:
                problems.append(problem)
            elif (
                Player.objects.filter(circle_id=player.circle_id, name_key=new_name.casefold())
                .exclude(pk=player.pk)
                .exists()
            ):
                problems.append(
                    Problem(
                        "name",
                        _(
                            "%(name)s is already a player of this circle; merge the two "
                            "players instead."
                        )
                        % {"name": new_name},
                    )
                )
        if shown_as is not None and shown_as not in dict(Player.SHOWN_AS):
            problems.append(
                Problem("shown_as", _("Choose the full name, the first name or the initials."))
            )
        if user is not ... and user is not None:
            if not Membership.objects.filter(circle_id=player.circle_id, user=user).exists():
                problems.append(Problem("user", _("Only a member of the circle can be linked.")))
            elif Player.objects.filter(circle_id=player.circle_id, user=user).exclude(pk=player.pk):
                problems.append(
                    Problem("user", _("That member is already linked to another player."))
                )
        if problems:
            raise RuleError(problems)
        if new_name != player.name:
            player.name = new_name
            player.name_key = new_name.casefold()
            _show_name_on_sheets(player)
        if guest is not None:
            player.guest = bool(guest)
        if shown_as is not None and shown_as != player.shown_as:
            player.shown_as = shown_as
            _audit(
                player.circle_id,
                by,
                AuditEntry.SHOWN_AS,
                player=player.pk,
                name=player.name,
                shown_as=shown_as,
            )
        if user is not ... and user != player.user:
            before = player.user
            player.user = user
            _audit(
                player.circle_id,
                by,
                AuditEntry.LINKED if user is not None else AuditEntry.UNLINKED,
                player=player.pk,
                name=player.name,
                member=(user or before).get_username(),
            )
        player.save()
        moved(player.circle_id, sheets=())
    return player


@retry_on_conflict
def player_claim(*, circle: Circle, user: Any, player: object) -> Player:
    """A member says which player of the circle they are: ``player`` is one of its
    players no account is linked to yet, or the name of a new one (an unlinked player
    of that name, typed in any case, is that player)."""
    with transaction.atomic():
        if not Membership.objects.filter(circle=circle, user=user).exists():
            raise RuleError(_("Only a member of the circle can be linked."), "player")
        if Player.objects.filter(circle=circle, user=user).exists():
            raise RuleError(_("Your account is already linked to a player of this circle."))
        if isinstance(player, Player):
            found = player
        else:
            name = _tidy(player)
            problem = _name_problem("name", name, MAX_PLAYER_NAME)
            if problem:
                raise RuleError([problem])
            found = player_for_name(circle, name)
        found = Player.objects.select_for_update().get(pk=found.pk, circle=circle)
        if found.erased:
            raise RuleError(_("Choose one of the players listed, or give your name."), "player")
        if found.user_id is not None:
            raise RuleError(
                _("%(name)s is already linked to another member's account.") % {"name": found.name},
                "player",
            )
        found.user = user
        found.save(update_fields=["user"])
        moved(circle.pk, sheets=())
    return found


def _show_name_on_sheets(player: Player, seats: Sequence[SeatPlayer] | None = None) -> None:
    seats = seats if seats is not None else player.seats.select_related("sheet__sheet")
    for seat in seats:
        try:
            sheet_services.seats_rename(sheet=seat.sheet.sheet, names={seat.position: player.name})
        except RuleError:
            # Two seats would read the same name only if the sheet already holds this
            # name under another player; the players are still told apart by id.
            continue


@retry_on_conflict
def player_merge(*, keep: Player, absorb: Player, by: Any = None) -> Player:
    """``absorb`` was the same person as ``keep``: every sheet follows ``keep``."""
    if keep.pk == absorb.pk or keep.circle_id != absorb.circle_id:
        raise RuleError(_("Choose two different players of the same circle."), "absorb")
    with transaction.atomic():
        # Lock order (scorekeeper/db.py): every sheet the absorbed player sat at, in pk
        # order (a deal written there meanwhile waits, or is done), then both players in
        # pk order; only then the seats, results and names on the sheets.
        lock_in_order(Sheet.objects.filter(pk__in=absorb.seats.values("sheet_id")))
        lock_in_order(Player.objects.filter(pk__in=(keep.pk, absorb.pk)))
        keep = Player.objects.select_for_update().get(pk=keep.pk)
        absorb = Player.objects.select_for_update().get(pk=absorb.pk)
        shared = set(keep.seats.values_list("sheet_id", flat=True)) & set(
            absorb.seats.values_list("sheet_id", flat=True)
        )
        if shared:
            raise RuleError(
                ngettext(
                    "%(keep)s and %(absorb)s sat at the same table on %(count)d sheet(s), "
                    "so they are two people.",
                    "%(keep)s and %(absorb)s sat at the same table on %(count)d sheet(s), "
                    "so they are two people.",
                    len(shared),
                )
                % {"keep": keep.name, "absorb": absorb.name, "count": len(shared)},
                "absorb",
            )
        seats = list(absorb.seats.select_related("sheet__sheet"))
        SeatPlayer.objects.filter(player=absorb).update(player=keep)
        SheetResult.objects.filter(player=absorb).update(player=keep)
        if keep.user_id is None and absorb.user_id is not None:
            keep.user_id = absorb.user_id
            absorb.user = None
            absorb.save(update_fields=["user"])
            keep.save(update_fields=["user"])
        # The change log names players by id: its lines follow the merged player too.
        for noted in StandingsChange.objects.filter(circle_id=keep.circle_id):
            if any(move.get("player") == absorb.pk for move in noted.moves):
                noted.moves = [
                    {**move, "player": keep.pk} if move.get("player") == absorb.pk else move
                    for move in noted.moves
                ]
                noted.save(update_fields=["moves"])
        absorb.delete()
        _show_name_on_sheets(keep, seats)
        moved(keep.circle_id)
        _audit(
            keep.circle_id,
            by,
            AuditEntry.MERGED,
            player=keep.pk,
            name=keep.name,
            absorbed=absorb.name,
        )
    return keep


@retry_on_conflict
def player_erase(*, player: Player, by: Any = None) -> Player:
    """Erase a person from the circle, as data-protection law lets them ask.

    Found by the player, not by the spelling of a name: every seat they sat at is
    renamed to a placeholder, and every name they were written as there (another case,
    a name from before a rename or a merge) is replaced in those sheets' histories, the
    kept answers of Idempotency-Keys, the phones' sessions (games.privacy), the
    standings' change log, this log and the club evenings (``signals.player_erased``).
    The link to their account goes, and they are no longer offered as a name. The games
    stay, so nobody else's scores change. Backups made earlier keep the name."""
    with transaction.atomic():
        # Lock order (scorekeeper/db.py): the sheets the player sat at, in pk order, then
        # the player.
        lock_in_order(Sheet.objects.filter(pk__in=player.seats.values("sheet_id")))
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.erased:
            return player
        number = Player.objects.filter(circle_id=player.circle_id, erased=True).count() + 1
        placeholder = _("Former player %(number)d") % {"number": number}
        while Player.objects.filter(
            circle_id=player.circle_id, name_key=placeholder.casefold()
        ).exists():
            number += 1
            placeholder = _("Former player %(number)d") % {"number": number}
        seats = list(player.seats.select_related("sheet__sheet").order_by("sheet_id"))
        at_seats = {seat.sheet_id: seat.position for seat in seats}
        names = {player.name} | privacy.names_at_seats(at_seats)
        account = player.user
        player.name = placeholder
        player.name_key = placeholder.casefold()
        player.user = None
        player.erased = True
        player.save()
        _show_name_on_sheets(player, seats)
        for noted in StandingsChange.objects.filter(circle_id=player.circle_id):
            noted.moves, found = privacy.moves_renamed(noted.moves, player.pk, placeholder)
            if found:
                names.update(found)
                noted.save(update_fields=["moves"])
        for entry in AuditEntry.objects.filter(
            circle_id=player.circle_id, detail__player=player.pk
        ):
            detail = dict(entry.detail)
            for field in ("name", "absorbed"):
                if isinstance(detail.get(field), str):
                    names.add(detail[field])
                    detail[field] = placeholder
            if account is not None and detail.get("member") == account.get_username():
                detail["member"] = placeholder
            entry.detail = detail
            entry.save(update_fields=["detail"])
        for _receiver, found in player_erased.send(
            sender=Player, player=player, placeholder=placeholder, names=frozenset(names)
        ):
            names.update(found or ())
        privacy.forget(seats=at_seats, names=names, placeholder=placeholder)
        moved(player.circle_id, sheets=())
        _audit(player.circle_id, by, AuditEntry.ERASED, player=player.pk, name=placeholder)
    return player


# -- Sheets in a circle -------------------------------------------------------------------


def circle_names(circle: Circle, names: Sequence[object]) -> list[object]:
    """The names typed for a new sheet, spelled as the circle's players are."""
    known = dict(Player.objects.filter(circle=circle).values_list("name_key", "name"))
    return [known.get(_tidy(n).casefold(), n) if isinstance(n, str) else n for n in names]


@retry_on_conflict
def sheet_create_in_circle(
    *,
    circle: Circle,
    game: str,
    players: object,
    first_dealer: object = 0,
    options: object = None,
    owner: Any = None,
    played_on: object = None,
) -> Sheet:
    """A new sheet of the circle: each name is the circle's player of that name. It
    counts for the evening it was played on (``played_on``; None for today)."""
    names = circle_names(circle, players) if isinstance(players, list) else players
    with transaction.atomic():
        sheet = sheet_services.sheet_create(
            game=game,
            players=names,
            first_dealer=first_dealer,
            options=options,
            owner=owner,
            played_on=played_on,
        )
        _attach(sheet, circle)
    return sheet


@retry_on_conflict
def sheet_move(*, sheet: Sheet, circle: Circle) -> CircleSheet:
    """Bring a sheet kept by its link alone into a circle: its names become the circle's
    players (matched by name in any case, created where new)."""
    if CircleSheet.objects.filter(sheet=sheet).exists():
        raise RuleError(_("This sheet is already kept in a circle."))
    with transaction.atomic():
        # Lock order (scorekeeper/db.py): the sheet's row, then what hangs off it (its
        # circle link, seats' players and results), as a deal write takes them.
        lock_in_order(Sheet.objects.filter(pk=sheet.pk))
        names = list(sheet_selectors.seat_names(sheet))
        spelled = circle_names(circle, names)
        if spelled != names:
            sheet_services.seats_rename(
                sheet=sheet,
                names={i: n for i, n in enumerate(spelled) if isinstance(n, str)},
            )
        return _attach(sheet, circle)


def _attach(sheet: Sheet, circle: Circle) -> CircleSheet:
    names = sheet_selectors.seat_names(sheet)
    # It counts for the evening the sheet says it was played on.
    link = CircleSheet.objects.create(sheet=sheet, circle=circle, played_on=sheet.played_on)
    # Found or made in one order (by name) whoever asks: two tables starting at once
    # with some of the same players then wait for each other's new rows instead of
    # each holding one the other needs (a deadlock on PostgreSQL).
    players = {
        _tidy(name).casefold(): player_for_name(circle, name)
        for name in sorted(names, key=lambda name: _tidy(name).casefold())
    }
    SeatPlayer.objects.bulk_create(
        SeatPlayer(sheet=link, position=i, player=players[_tidy(name).casefold()])
        for i, name in enumerate(names)
    )
    replay_results(link, change="started")
    # One more sheet for the season's page to count, open or finished.
    moved(circle.pk, sheets=[link.pk])
    return link


@retry_on_conflict
def sheet_set_counted(*, link: CircleSheet, counted: bool) -> CircleSheet:
    """Leave a sheet out of the standings (a practice game) or count it again."""
    with transaction.atomic():
        # Lock order (scorekeeper/db.py): the sheet's row first, as every write to the
        # sheet locks it (a deal entered meanwhile waits, or this waits for it), then its
        # circle link, which hangs off it.
        lock_in_order(Sheet.objects.filter(pk=link.sheet_id))
        link = (
            CircleSheet.objects.select_for_update(of=("self",))
            .select_related("sheet")
            .get(pk=link.pk)
        )
        if link.excluded == (not counted):
            return link
        link.excluded = not counted
        link.save(update_fields=["excluded"])
        moves = counted_moves(link, counted=counted)
        if moves:
            note_change(
                link, change="included" if counted else "excluded", number=None, moves=moves
            )
        moved(link.circle_id, sheets=[link.pk])
    return link


@retry_on_conflict
def sheet_set_played_on(*, link: CircleSheet, played_on: datetime.date) -> CircleSheet:
    """Move a sheet to another evening: the sheet's own day changes (its page and every
    list date it by that), and the circle follows (``date_link``, from the sheet's
    ``dated`` change). RuleError for a day the sheet cannot take."""
    with transaction.atomic():
        sheet_services.sheet_set_played_on(sheet=link.sheet, played_on=played_on)
        # The link as stored (the sheet is locked now): run again after a deadlock, this
        # starts from the row, not from the caller's copy an aborted attempt changed.
        stored = CircleSheet.objects.get(pk=link.pk)
        date_link(stored, played_on)
    link.played_on = stored.played_on
    return link


def date_link(link: CircleSheet, played_on: datetime.date) -> None:
    """The circle's copy of the day its sheet was played, and its standings changes."""
    if link.played_on != played_on:
        link.played_on = played_on
        link.save(update_fields=["played_on"])
        moved(link.circle_id, sheets=[link.pk])
    StandingsChange.objects.filter(sheet=link).update(played_on=played_on)


# -- Seasons ------------------------------------------------------------------------------


def _read_season(data: Mapping[str, Any]) -> tuple[dict[str, Any], list[Problem]]:
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    name = _tidy(data.get("name"))
    problem = _name_problem("name", name, 60)
    if problem:
        problems.append(problem)
    values["name"] = name
    for field in ("starts_on", "ends_on"):
        raw = data.get(field)
        if isinstance(raw, datetime.date):
            values[field] = raw
            continue
        try:
            values[field] = datetime.date.fromisoformat(str(raw or "").strip())
        except ValueError:
            problems.append(Problem(field, _("Give a date, such as 2026-09-01.")))
    if (
        isinstance(values.get("starts_on"), datetime.date)
        and isinstance(values.get("ends_on"), datetime.date)
        and values["ends_on"] < values["starts_on"]
    ):
        problems.append(Problem("ends_on", _("The last day comes after the first day.")))
    planned = data.get("planned_evenings")
    if planned in (None, ""):
        values["planned_evenings"] = None
    else:
        text = str(planned).strip()
        # ASCII digits only ("²" is a digit to str.isdigit, not to int) and few of them.
        if not (text.isascii() and text.isdigit() and len(text) <= 3) or not 1 <= int(text) <= 366:
            problems.append(
                Problem(
                    "planned_evenings",
                    _("Give the number of evenings planned (1 to 366), or leave it empty."),
                )
            )
        else:
            values["planned_evenings"] = int(text)
    try:
        values["skat_rules"] = ClubRules.from_mapping(
            data.get("skat_rules") or {}, field="skat_rules"
        ).as_dict()
    except RuleError as error:
        problems.extend(error.problems)
    return values, problems


def season_save(*, circle: Circle, data: Mapping[str, Any], season: Season | None = None) -> Season:
    """Create or change a season. Seasons of one circle do not overlap, so every sheet
    belongs to at most one."""
    values, problems = _read_season(data)
    if not problems:
        overlapping = Season.objects.filter(
            circle=circle, starts_on__lte=values["ends_on"], ends_on__gte=values["starts_on"]
        )
        if season is not None:
            overlapping = overlapping.exclude(pk=season.pk)
        other = overlapping.first()
        if other is not None:
            problems.append(
                Problem(
                    "starts_on",
                    _("%(name)s already runs from %(start)s to %(end)s; seasons cannot overlap.")
                    # The days as the reader writes them ("3. November 2026").
                    % {
                        "name": other.name,
                        "start": day(other.starts_on),
                        "end": day(other.ends_on),
                    },
                )
            )
    if problems:
        raise RuleError(problems)
    with transaction.atomic():
        if season is None:
            season = Season.objects.create(circle=circle, **values)
        else:
            for field, value in values.items():
                setattr(season, field, value)
            season.save()
        moved(circle.pk)
    return season


@retry_on_conflict
def season_rotate_token(*, season: Season, by: Any = None) -> str:
    with transaction.atomic():
        # Run again after a deadlock, a new token replaces the one the aborted attempt set.
        season.view_token = new_token()
        season.save(update_fields=["view_token"])
        _audit(season.circle_id, by, AuditEntry.SEASON_LINK, season=season.pk, name=season.name)
    return season.view_token
