"""Who may do what with circles, in one place (the views and the API ask here).

Roles: a circle's owner, a member, another signed-in user, an anonymous visitor;
a season's view token lets anyone who holds it read that season's standings (with
names shown as each player chose for outside the circle).
"""

from __future__ import annotations

from typing import Any

from circles.models import Circle, Membership, Season
from games.models import Sheet


def membership(user: Any, circle: Circle) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    cache = getattr(user, "_circle_memberships", None)
    if cache is None:
        cache = {}
        user._circle_memberships = cache
    if circle.pk not in cache:
        cache[circle.pk] = Membership.objects.filter(circle=circle, user=user).first()
    return cache[circle.pk]


def can_view_circle(user: Any, circle: Circle) -> bool:
    """Members see the circle, its sheets, players and seasons."""
    return membership(user, circle) is not None


def can_play_in_circle(user: Any, circle: Circle) -> bool:
    """Members start sheets, add players, correct names and leave sheets out."""
    return membership(user, circle) is not None


def can_manage_circle(user: Any, circle: Circle) -> bool:
    """Owners rename the circle, rotate the invite link, manage members and seasons,
    and merge players."""
    found = membership(user, circle)
    return found is not None and found.is_owner


def can_view_season(user: Any, season: Season, token: str | None = None) -> bool:
    return (token is not None and token == season.view_token) or can_view_circle(
        user, season.circle
    )


def can_move_sheet(user: Any, sheet: Sheet, circle: Circle) -> bool:
    """Whoever holds a sheet's edit link and is a member of the circle may bring it in,
    unless another account started the sheet (then only that account may)."""
    if not can_play_in_circle(user, circle):
        return False
    return sheet.owner_id is None or sheet.owner_id == user.pk
