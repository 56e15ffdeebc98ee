"""Writes for circles: membership, players, sheets in a circle, seasons.

Typed, keyword-only, each in one transaction. Who may call which is decided in
``circles.permissions`` by the views and the API before they get here; these check
only what the data itself requires (a name taken, two players at one table).
Problems come back as ``RuleError`` with one message per field, like the sheets'.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from circles.models import (
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
from games import selectors as sheet_selectors
from games import services as sheet_services
from games.models import Sheet
from games.rules.errors import Problem, RuleError

MAX_CIRCLE_NAME = 60
MAX_PLAYER_NAME = 40


def _tidy(name: object) -> str:
    return " ".join(name.split()) if isinstance(name, str) else ""


def _name_problem(field: str, name: str, limit: int) -> Problem | None:
    if not name:
        return Problem(field, _("Give a name."))
    if len(name) > limit:
        return Problem(
            field,
            _("Keep the name to %(limit)d characters; this one has %(count)d.")
            % {"limit": limit, "count": len(name)},
        )
    if "\x00" in name:
        return Problem(field, _("A name cannot contain a NUL character."))
    return None


# -- Circles and members -----------------------------------------------------------------


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


def invite_rotate(*, circle: Circle) -> str:
    """A new invite link; the old one stops working at once."""
    circle.invite_token = new_token()
    circle.save(update_fields=["invite_token"])
    return circle.invite_token


def circle_join(*, user: Any, token: str) -> Circle:
    circle = Circle.objects.filter(invite_token=token).first()
    if circle is None:
        raise RuleError(
            _("This invite link is not valid any more. Ask the circle's owner for a new one.")
        )
    Membership.objects.get_or_create(circle=circle, user=user)
    return circle


def member_set_role(*, membership: Membership, role: str) -> Membership:
    if role not in (Membership.OWNER, Membership.MEMBER):
        raise RuleError(_("A member is an owner or a member."), "role")
    with transaction.atomic():
        if role == Membership.MEMBER and membership.is_owner:
            _keep_an_owner(membership)
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def member_remove(*, membership: Membership) -> None:
    """Take a member out of the circle; their player stays (the sheets keep it) but is
    no longer linked to the account."""
    with transaction.atomic():
        if membership.is_owner:
            _keep_an_owner(membership)
        Player.objects.filter(circle=membership.circle, user=membership.user).update(user=None)
        membership.delete()


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


def player_for_name(circle: Circle, name: object) -> Player:
    """The circle's player of that name (in any case), created if new."""
    name = _tidy(name)
    player, _created = Player.objects.get_or_create(
        circle=circle, name_key=name.casefold(), defaults={"name": name}
    )
    return player


def player_update(
    *,
    player: Player,
    name: object = None,
    guest: bool | None = None,
    shown_as: object = None,
    user: Any = ...,
) -> Player:
    """Rename (every sheet of the circle shows the new name), mark a guest, choose how
    the name is shown outside the circle, or link the player to a member's account."""
    problems: list[Problem] = []
    with transaction.atomic():
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
        if shown_as is not None:
            player.shown_as = shown_as
        if user is not ...:
            player.user = user
        player.save()
    return player


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


def player_merge(*, keep: Player, absorb: Player) -> Player:
    """``absorb`` was the same person as ``keep``: every sheet follows ``keep``."""
    if keep.pk == absorb.pk or keep.circle_id != absorb.circle_id:
        raise RuleError(_("Choose two different players of the same circle."), "absorb")
    with transaction.atomic():
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
    return keep


def player_erase(*, player: Player) -> Player:
    """Erase a person from the circle, as data-protection law lets them ask: their name
    is replaced on every sheet they sat at (and in those sheets' histories and the
    standings' change log) by a placeholder, the link to their account goes, and they
    are no longer offered as a name. The games they played stay, so nobody else's
    scores change."""
    from games.models import SheetEvent

    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player.pk)
        if player.erased:
            return player
        number = Player.objects.filter(circle_id=player.circle_id, erased=True).count() + 1
        old_name = player.name
        placeholder = _("Former player %(number)d") % {"number": number}
        while Player.objects.filter(
            circle_id=player.circle_id, name_key=placeholder.casefold()
        ).exists():
            number += 1
            placeholder = _("Former player %(number)d") % {"number": number}
        player.name = placeholder
        player.name_key = placeholder.casefold()
        player.user = None
        player.erased = True
        player.save()
        seats = list(player.seats.select_related("sheet__sheet"))
        _show_name_on_sheets(player, seats)
        sheet_ids = [seat.sheet_id for seat in seats]
        for event in SheetEvent.objects.filter(sheet_id__in=sheet_ids, kind=SheetEvent.STARTED):
            names = (event.after or {}).get("players")
            if isinstance(names, list) and old_name in names:
                event.after = {
                    **event.after,
                    "players": [placeholder if n == old_name else n for n in names],
                }
                event.save(update_fields=["after"])
        for noted in StandingsChange.objects.filter(circle_id=player.circle_id):
            if any(move.get("player") == player.pk for move in noted.moves):
                noted.moves = [
                    {**move, "name": placeholder} if move.get("player") == player.pk else move
                    for move in noted.moves
                ]
                noted.save(update_fields=["moves"])
    return player


# -- Sheets in a circle -------------------------------------------------------------------


def circle_names(circle: Circle, names: Sequence[object]) -> list[object]:
    """The names typed for a new sheet, spelled as the circle's players are."""
    known = dict(Player.objects.filter(circle=circle).values_list("name_key", "name"))
    return [known.get(_tidy(n).casefold(), n) if isinstance(n, str) else n for n in names]


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


def sheet_move(*, sheet: Sheet, circle: Circle) -> CircleSheet:
    """Bring a sheet kept by its link alone into a circle: its names become the circle's
    players (matched by name in any case, created where new)."""
    if CircleSheet.objects.filter(sheet=sheet).exists():
        raise RuleError(_("This sheet is already kept in a circle."))
    with transaction.atomic():
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
    return link


def sheet_set_counted(*, link: CircleSheet, counted: bool) -> CircleSheet:
    """Leave a sheet out of the standings (a practice game) or count it again."""
    with transaction.atomic():
        link = CircleSheet.objects.select_for_update().select_related("sheet").get(pk=link.pk)
        if link.excluded == (not counted):
            return link
        link.excluded = not counted
        link.save(update_fields=["excluded"])
        moves = counted_moves(link, counted=counted)
        if moves:
            note_change(
                link, change="included" if counted else "excluded", number=None, moves=moves
            )
    return link


def sheet_set_played_on(*, link: CircleSheet, played_on: datetime.date) -> CircleSheet:
    """Move a sheet to another evening: the sheet's own day changes (its page and every
    list date it by that), and the circle follows (``date_link``, from the sheet's
    ``dated`` change). RuleError for a day the sheet cannot take."""
    with transaction.atomic():
        sheet_services.sheet_set_played_on(sheet=link.sheet, played_on=played_on)
        date_link(link, played_on)
    return link


def date_link(link: CircleSheet, played_on: datetime.date) -> None:
    """The circle's copy of the day its sheet was played, and its standings changes."""
    if link.played_on != played_on:
        link.played_on = played_on
        link.save(update_fields=["played_on"])
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
                    % {"name": other.name, "start": other.starts_on, "end": other.ends_on},
                )
            )
    if problems:
        raise RuleError(problems)
    if season is None:
        return Season.objects.create(circle=circle, **values)
    for field, value in values.items():
        setattr(season, field, value)
    season.save()
    return season


def season_rotate_token(*, season: Season) -> str:
    season.view_token = new_token()
    season.save(update_fields=["view_token"])
    return season.view_token
