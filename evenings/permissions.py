"""Who may do what on an evening: the one place the views ask.

The organiser holds the evening's organiser link (no account needed; in a circle,
any member starts one, as any member starts a sheet there). On the circle's page the
organiser's link shows to the member who started the evening and to the owners. The view link reads the ranking and the big
screen. A table link (the table sheet's edit link) signs its own table only.
"""

from __future__ import annotations

from typing import Any

from circles.models import Circle
from circles.permissions import can_manage_circle, can_play_in_circle
from evenings.models import Evening, EveningTable


def can_start_in_circle(user: Any, circle: Circle) -> bool:
    return can_play_in_circle(user, circle)


def can_keep_circle_rules(user: Any, circle: Circle) -> bool:
    """Only a circle's owners change the money rules its evenings start with."""
    return can_manage_circle(user, circle)


def can_organise(evening: Evening | None, token: str) -> bool:
    return evening is not None and evening.organiser_token == token


def can_view(evening: Evening | None, token: str) -> bool:
    return evening is not None and evening.view_token == token


def can_sign_table(table: EveningTable | None, token: str) -> bool:
    return (
        table is not None
        and table.sheet is not None
        and table.sheet.edit_token == token
        and not table.series.closed
    )
