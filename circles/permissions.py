"""Who may do what with circles, in one place (the views and the API ask here).

Roles: a circle's owner, a member, another signed-in user, an anonymous visitor;
a season's view token lets anyone who holds it read that season's standings (with
names shown as each player chose for outside the circle).
"""

from __future__ import annotations

from typing import Any

from circles.models import Circle, Membership, Player, Season
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
    merge and erase players, and read the circle's administration log."""
    found = membership(user, circle)
    return found is not None and found.is_owner


def can_speak_for(user: Any, player: Player) -> bool:
    """The person (their account is linked to the player) or an owner: only they link or
    unlink an account that is not theirs, and choose how the name is shown outside the
    circle. Any member may say an unlinked player is them (as the invite page asks)."""
    if getattr(user, "is_authenticated", False) and player.user_id == user.pk:
        return True
    return can_manage_circle(user, player.circle)


def can_link_to_me(user: Any, player: Player) -> bool:
    """A member links a player no account is linked to yet to their own; one linked to
    another account only an owner re-links."""
    return can_view_circle(user, player.circle) and (
        player.user_id is None or can_speak_for(user, player)
    )


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
