"""Reads for circles: lists and a season's standings.

A standings request reads the season's view, which the last write kept with the
season's totals (``circles.season_totals``), and places the players it shows with the
pure standings engine (``circles.rules.standings``): it replays no deal and takes a
fixed number of queries. A player's record is read in ``circles.player_totals``.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.http import HttpRequest
from django.utils import timezone

from circles import season_totals, standings_cache
from circles.models import (
    Circle,
    CircleSheet,
    Membership,
    Player,
    Season,
    StandingsChange,
)
from circles.rules import season_totals as totals_rules
from circles.rules.standings import ClubRules
from games.models import Sheet
from scorekeeper.rounding import rounded_int

GAME_ORDER = ("skat", "pitch", "manipulation")


def suggested_names(request: HttpRequest) -> list[str]:
    """The players of the visitor's circles, to offer on a new sheet."""
    user = request.user
    if not user.is_authenticated:
        return []
    return list(
        Player.objects.filter(circle__memberships__user=user, erased=False)
        .order_by("name")
        .values_list("name", flat=True)
        .distinct()[:300]
    )


def circles_of(user: Any) -> QuerySet[Circle]:
    """The circles ``user`` belongs to, each with ``member_count``: everyone in it, counted
    apart from the filter (a count over the filtered join would see only ``user``)."""
    members = (
        Membership.objects.filter(circle=OuterRef("pk"))
        .order_by()
        .values("circle")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return Circle.objects.filter(memberships__user=user).annotate(
        member_count=Coalesce(Subquery(members, output_field=IntegerField()), 0)
    )


def sheets_of(user: Any, limit: int = 50) -> list[Sheet]:
    """The sheets a signed-in person started or sat at (as a linked player), open first;
    a circle's sheets only while they are its member."""
    started = Q(owner=user) & (
        Q(circle_link__isnull=True) | Q(circle_link__circle__memberships__user=user)
    )
    return list(
        Sheet.objects.filter(
            started | Q(circle_link__seat_players__player__user=user),
            deleted_at__isnull=True,
        )
        .distinct()
        .select_related("circle_link__circle")
        .prefetch_related("seats")
        .order_by("finished", "-updated_at")[:limit]
    )


def circle_sheets(
    circle: Circle,
    *,
    player: Player | None = None,
    game: str = "",
    since: datetime.date | None = None,
    until: datetime.date | None = None,
) -> QuerySet[CircleSheet]:
    """The circle's sheets by date, the open ones on top; those a player sat at, of one
    game or between two days when asked. A query to page through: a circle of years
    has thousands."""
    found = CircleSheet.objects.filter(circle=circle, sheet__deleted_at__isnull=True)
    if player is not None:
        found = found.filter(seat_players__player=player)
    if game:
        found = found.filter(sheet__game=game)
    if since is not None:
        found = found.filter(played_on__gte=since)
    if until is not None:
        found = found.filter(played_on__lte=until)
    return (
        found.select_related("sheet")
        .prefetch_related("sheet__seats")
        .order_by("sheet__finished", "-played_on", "-sheet_id")
    )


def current_season(circle: Circle, today: datetime.date | None = None) -> Season | None:
    """The season running today; between seasons, the one that ended last."""
    today = today or timezone.localdate()
    seasons = list(circle.seasons.all())
    for season in seasons:
        if season.starts_on <= today <= season.ends_on:
            return season
    past = [s for s in seasons if s.ends_on < today]
    return max(past, key=lambda s: s.ends_on) if past else None


def season_of(link: CircleSheet, seasons: Sequence[Season]) -> Season | None:
    for season in seasons:
        if season.starts_on <= link.played_on <= season.ends_on:
            return season
    return None


# -- Standings ------------------------------------------------------------------------------


@dataclass(frozen=True)
class SeasonStandings:
    season: Season
    players: dict[int, Player]
    tables: dict[str, Any]  # game slug → that game's standings
    changes: list[StandingsChange]
    open_sheets: int
    counted_sheets: int
    # Every day a counted sheet of any game was played, in order.
    evenings: tuple[datetime.date, ...]
    # Per game, for the title race: (the most series or games one player played on one
    # evening, the longest Skat series); circles.rules.season_totals.bounds.
    bounds: dict[str, tuple[int, int]]


def season_standings(season: Season, *, include_guests: bool = False) -> SeasonStandings:
    """Every game's table for the season from the view its last write kept
    (circles.season_totals): four queries, and a cost that does not grow with the
    number of sheets; made from the sheets instead when none is kept at the circle's
    version."""
    players = {p.pk: p for p in Player.objects.filter(circle_id=season.circle_id)}

    def include(player_id: int) -> bool:
        player = players.get(player_id)
        return player is not None and (include_guests or not player.guest)

    view = season_totals.stored(season)
    if view is None:
        view = season_totals.added_up(season)
    rules = ClubRules.from_mapping(season.skat_rules or {})
    tables: dict[str, Any] = {
        game: totals_rules.placed(game, view.parts[game], rules, include)
        for game in GAME_ORDER
        if game in view.parts
    }
    changes = list(
        StandingsChange.objects.filter(
            circle_id=season.circle_id,
            played_on__gte=season.starts_on,
            played_on__lte=season.ends_on,
        )[:20]
    )
    open_sheets = CircleSheet.objects.filter(
        circle_id=season.circle_id,
        played_on__gte=season.starts_on,
        played_on__lte=season.ends_on,
        excluded=False,
        sheet__finished=False,
        sheet__deleted_at__isnull=True,
        tally__isnull=True,
    ).count()
    return SeasonStandings(
        season=season,
        players=players,
        tables=tables,
        changes=changes,
        open_sheets=open_sheets,
        counted_sheets=view.counted_sheets,
        evenings=tuple(view.evenings),
        bounds=dict(view.bounds),
    )


def kept_season_standings(season: Season, *, include_guests: bool = False) -> SeasonStandings:
    """``season_standings`` once per standings version for every view built on it: the
    page in each language, the API, the CSV. The first of them after a write adds up
    the season; the others then only word it (``circles.standings_cache``)."""
    return standings_cache.kept(
        season.circle,
        ("season-standings", season.pk, include_guests),
        lambda: season_standings(season, include_guests=include_guests),
    )


def evenings_left(
    season: Season, evenings: Sequence[datetime.date], today: datetime.date | None = None
) -> int:
    """Evenings still to come: as planned, or at the pace the circle has kept so far."""
    today = today or timezone.localdate()
    if today > season.ends_on:
        return 0
    played = len(evenings)
    if season.planned_evenings is not None:
        return max(season.planned_evenings - played, 0)
    if not played:
        return 0
    elapsed = (min(today, season.ends_on) - season.starts_on).days + 1
    remaining = (season.ends_on - today).days
    # While the season runs, at least one evening is still to come.
    # Rounded half away from zero, as every number shown (2.5 evenings are 3).
    return max(rounded_int(played * remaining / max(elapsed, 1)), 1 if remaining > 0 else 0)
