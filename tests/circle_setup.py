"""A circle to keep an evening in, for the tests that need one."""

from __future__ import annotations

import datetime
from typing import Any


def circle_with_season(name: str = "Club") -> tuple[Any, Any, Any]:
    """Olga's circle ``name`` (she plays in it as Olga) with a season "Winter" from 30
    days before today to 30 days after: (owner, circle, season)."""
    from django.contrib.auth.models import User

    from circles import services as circle_services

    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name=name, player_name="Olga")
    today = datetime.date.today()
    season = circle_services.season_save(
        circle=circle,
        data={
            "name": "Winter",
            "starts_on": today - datetime.timedelta(days=30),
            "ends_on": today + datetime.timedelta(days=30),
        },
    )
    return owner, circle, season
