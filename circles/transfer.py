"""A whole circle as one JSON document, and back.

``export_circle`` writes everything the circle owns: its members (by user name and
e-mail, never a password), players, seasons with their club rules and links, and
every sheet with its seats and deals exactly as entered (undone deals included, so
"bring back" still works), the tokens of every link, and the standings' change log.
``import_circle`` reads such a document into a database that does not hold the
circle yet; a member's account that does not exist there is created without a
usable password (its owner sets one with "forgot password"). What standings need
is derived again from the deals, as it always can be.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from circles.models import (
    Circle,
    CircleSheet,
    Membership,
    Player,
    Season,
    SeatPlayer,
    StandingsChange,
)
from circles.results import replay_results
from circles.rules.standings import ClubRules
from games.models import Hand, Seat, Sheet
from games.rules.errors import RuleError

FORMAT = "scorekeeper-circle"
VERSION = 1


class AlreadyHere(RuleError):
    """The circle of the export is already in this database (its links are in use)."""


def _when(value: datetime.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _day(value: datetime.date | None) -> str | None:
    return value.isoformat() if value is not None else None


def export_circle(circle: Circle) -> dict[str, Any]:
    players = list(circle.players.select_related("user").order_by("pk"))
    links = list(
        CircleSheet.objects.filter(circle=circle)
        .select_related("sheet__owner")
        .prefetch_related("seat_players", "sheet__seats", "sheet__hands")
        .order_by("sheet_id")
    )
    sheet_index = {link.pk: i for i, link in enumerate(links)}
    return {
        "format": FORMAT,
        "version": VERSION,
        "circle": {
            "name": circle.name,
            "invite_token": circle.invite_token,
            "created_at": _when(circle.created_at),
        },
        "members": [
            {
                "username": m.user.get_username(),
                "email": m.user.email,
                "role": m.role,
                "joined_at": _when(m.joined_at),
            }
            for m in circle.memberships.select_related("user").order_by("pk")
        ],
        "players": [
            {
                "id": p.pk,
                "name": p.name,
                "user": p.user.get_username() if p.user else None,
                "guest": p.guest,
                "shown_as": p.shown_as,
                "erased": p.erased,
                "created_at": _when(p.created_at),
            }
            for p in players
        ],
        "seasons": [
            {
                "name": s.name,
                "starts_on": _day(s.starts_on),
                "ends_on": _day(s.ends_on),
                "planned_evenings": s.planned_evenings,
                "skat_rules": s.skat_rules,
                "view_token": s.view_token,
                "created_at": _when(s.created_at),
            }
            for s in circle.seasons.order_by("pk")
        ],
        "sheets": [_export_sheet(link) for link in links],
        "changes": [
            {
                "sheet": sheet_index.get(c.sheet_id) if c.sheet_id else None,
                "played_on": _day(c.played_on),
                "game": c.game,
                "change": c.change,
                "number": c.number,
                "moves": c.moves,
                "at": _when(c.at),
            }
            for c in circle.changes.order_by("pk")
        ],
    }


def _export_sheet(link: CircleSheet) -> dict[str, Any]:
    sheet = link.sheet
    players = {seat.position: seat.player_id for seat in link.seat_players.all()}
    return {
        "game": sheet.game,
        "options": sheet.options,
        "first_dealer": sheet.first_dealer,
        "edit_token": sheet.edit_token,
        "view_token": sheet.view_token,
        "owner": sheet.owner.get_username() if sheet.owner else None,
        "version": sheet.version,
        "created_at": _when(sheet.created_at),
        "updated_at": _when(sheet.updated_at),
        "played_on": _day(link.played_on),
        "excluded": link.excluded,
        "added_at": _when(link.added_at),
        "seats": [
            {"position": s.position, "name": s.name, "player": players[s.position]}
            for s in sorted(sheet.seats.all(), key=lambda s: s.position)
        ],
        "hands": [
            {
                "number": h.number,
                "entry": h.entry,
                "created_at": _when(h.created_at),
                "updated_at": _when(h.updated_at),
                "removed_at": _when(h.removed_at),
            }
            for h in sorted(sheet.hands.all(), key=lambda h: (h.removed_at is not None, h.number))
        ],
    }


def _stamp(value: object, *, optional: bool = False) -> datetime.datetime | None:
    """A moment as exported; ValueError (a damaged export) if it cannot be read."""
    if value is None and optional:
        return None
    found = parse_datetime(value) if isinstance(value, str) else None
    if found is None:
        raise ValueError(f"not a date and time: {value!r}")
    return found


def _date(value: object) -> datetime.date:
    """A day as exported; ValueError (a damaged export) if it cannot be read."""
    if not isinstance(value, str):
        raise ValueError(f"not a date: {value!r}")
    return datetime.date.fromisoformat(value)


def import_circle(data: Mapping[str, Any]) -> Circle:
    """Create the circle of an exported document; RuleError if it cannot be read or
    its links are already in use here."""
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise RuleError(_("This is not a Scorekeeper circle export."))
    if data.get("version") != VERSION:
        raise RuleError(
            _("This export has version %(version)s; this Scorekeeper reads version %(ours)s.")
            % {"version": data.get("version"), "ours": VERSION}
        )
    try:
        with transaction.atomic():
            return _import(data)
    except AlreadyHere:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, IntegrityError) as error:
        # RuleError is a ValueError: a deal or a rule the sheets refuse is damage too.
        raise RuleError(
            _("The export is damaged and was not imported (%(detail)s).") % {"detail": error}
        ) from error


def _import(data: Mapping[str, Any]) -> Circle:
    tokens = [data["circle"]["invite_token"]]
    tokens += [s["view_token"] for s in data["seasons"]]
    sheet_tokens = [t for s in data["sheets"] for t in (s["edit_token"], s["view_token"])]
    if (
        Circle.objects.filter(invite_token__in=tokens).exists()
        or Season.objects.filter(view_token__in=tokens).exists()
        or Sheet.objects.filter(edit_token__in=sheet_tokens).exists()
        or Sheet.objects.filter(view_token__in=sheet_tokens).exists()
    ):
        raise AlreadyHere(_("This circle is already here: its links are in use."))
    users = _users(data["members"])
    info = data["circle"]
    circle = Circle.objects.create(name=info["name"], invite_token=info["invite_token"])
    Circle.objects.filter(pk=circle.pk).update(created_at=_stamp(info["created_at"]))
    for member in data["members"]:
        made = Membership.objects.create(
            circle=circle, user=users[member["username"]], role=member["role"]
        )
        Membership.objects.filter(pk=made.pk).update(joined_at=_stamp(member["joined_at"]))
    players: dict[int, Player] = {}
    for item in data["players"]:
        if item["shown_as"] not in dict(Player.SHOWN_AS):
            raise ValueError(f"a player shown as {item['shown_as']!r}")
        player = Player.objects.create(
            circle=circle,
            name=item["name"],
            name_key=item["name"].casefold(),
            user=users.get(item["user"]) if item["user"] else None,
            guest=bool(item["guest"]),
            shown_as=item["shown_as"],
            erased=bool(item.get("erased", False)),
        )
        Player.objects.filter(pk=player.pk).update(created_at=_stamp(item["created_at"]))
        players[int(item["id"])] = player
    for item in data["seasons"]:
        # The standings read these rules; rules they cannot read are refused here.
        ClubRules.from_mapping(item["skat_rules"], field="seasons.skat_rules")
        season = Season.objects.create(
            circle=circle,
            name=item["name"],
            starts_on=_date(item["starts_on"]),
            ends_on=_date(item["ends_on"]),
            planned_evenings=item["planned_evenings"],
            skat_rules=item["skat_rules"],
            view_token=item["view_token"],
        )
        Season.objects.filter(pk=season.pk).update(created_at=_stamp(item["created_at"]))
    links = [_import_sheet(circle, item, users, players) for item in data["sheets"]]
    for item in data["changes"]:
        index = item["sheet"]
        if index is not None and not (
            isinstance(index, int) and not isinstance(index, bool) and 0 <= index < len(links)
        ):
            raise ValueError(f"a change of sheet {index!r}, which is not in the export")
        # The moves name players by their id in the export: here they have new ids.
        moves = [{**move, "player": _new_id(players, move["player"])} for move in item["moves"]]
        change = StandingsChange.objects.create(
            circle=circle,
            sheet=links[index] if index is not None else None,
            played_on=_date(item["played_on"]),
            game=item["game"],
            change=item["change"],
            number=item["number"],
            moves=moves,
        )
        StandingsChange.objects.filter(pk=change.pk).update(at=_stamp(item["at"]))
    return circle


def _new_id(players: Mapping[int, Player], old: object) -> int | None:
    """The id here of the player the export knew by ``old`` (None: a former player)."""
    if old is None:
        return None
    found = players.get(int(str(old)))
    return found.pk if found is not None else None


def _users(members: list[Mapping[str, Any]]) -> dict[str, Any]:
    model = get_user_model()
    users = {}
    for member in members:
        user = model.objects.filter(username=member["username"]).first()
        if user is None:
            user = model(username=member["username"], email=member["email"])
            user.set_unusable_password()
            user.save()
        users[member["username"]] = user
    return users


def _import_sheet(
    circle: Circle,
    item: Mapping[str, Any],
    users: Mapping[str, Any],
    players: Mapping[int, Player],
) -> CircleSheet:
    sheet = Sheet.objects.create(
        game=item["game"],
        options=item["options"],
        first_dealer=item["first_dealer"],
        edit_token=item["edit_token"],
        view_token=item["view_token"],
        owner=users.get(item["owner"]) if item["owner"] else None,
        played_on=_date(item["played_on"]),
    )
    Seat.objects.bulk_create(
        Seat(sheet=sheet, position=s["position"], name=s["name"]) for s in item["seats"]
    )
    for h in item["hands"]:
        hand = Hand.objects.create(
            sheet=sheet,
            number=h["number"],
            entry=h["entry"],
            removed_at=_stamp(h["removed_at"], optional=True),
        )
        Hand.objects.filter(pk=hand.pk).update(
            created_at=_stamp(h["created_at"]), updated_at=_stamp(h["updated_at"])
        )
    link = CircleSheet.objects.create(
        sheet=sheet,
        circle=circle,
        played_on=_date(item["played_on"]),
        excluded=bool(item["excluded"]),
    )
    CircleSheet.objects.filter(pk=link.pk).update(added_at=_stamp(item["added_at"]))
    SeatPlayer.objects.bulk_create(
        SeatPlayer(sheet=link, position=s["position"], player=players[int(s["player"])])
        for s in item["seats"]
    )
    state = replay_results(link, change="started")
    Sheet.objects.filter(pk=sheet.pk).update(
        version=item["version"],
        created_at=_stamp(item["created_at"]),
        updated_at=_stamp(item["updated_at"]),
        deal_count=len(state.deals),
        finished=state.finished,
    )
    return link
