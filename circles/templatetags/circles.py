"""Template helpers of the circle pages, and the signed-in part of the home page
(which belongs to ``games``: it asks here through a tag, never through an import)."""

from __future__ import annotations

from typing import Any

from django import template

from circles import selectors

register = template.Library()


@register.inclusion_tag("circles/_mine.html", takes_context=True)
def your_circles_and_sheets(context: template.Context, limit: int = 12) -> dict[str, Any]:
    user = context["user"]
    return {
        "user": user,
        "circles": list(selectors.circles_of(user)),
        "sheets": selectors.sheets_of(user, limit=limit),
        "limit": limit,
    }


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    try:
        return mapping[key]
    except (KeyError, IndexError, TypeError):
        return None


@register.filter
def game_name(slug: str) -> str:
    from games.games import GAMES

    entry = GAMES.get(slug)
    return entry.name if entry else slug
