"""The visitor's circles for every page (the top bar, the new-sheet page), looked up
only when a template asks."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject


def circles(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"user_circles": ()}

    def lookup() -> list[Any]:
        from circles.selectors import circles_of

        return list(circles_of(user))

    return {"user_circles": SimpleLazyObject(lookup)}
