"""A sheet that a stricter rule can no longer replay: a clear answer, never a 500."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from games.api_input import errors_json
from games.games import GAMES
from games.selectors import StoredDealRefused, seat_names


class StoredDealMiddleware:
    """A read that replays a sheet past a deal the rules now refuse (selectors.
    StoredDealRefused; writes answer it as any refusal) is answered 409: the JSON API
    with the problems under ``hands.<i>``, a page with the deal, why, and, from the edit
    link, a button that takes the deal off (its history keeps it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, StoredDealRefused):
            return None
        if request.path.startswith("/api/"):
            return JsonResponse(errors_json(exception.problems), status=409)
        sheet = exception.sheet
        match = request.resolver_match
        token = match.kwargs.get("token") if match is not None else None
        context = {
            "sheet": sheet,
            "game": GAMES[sheet.game],
            "hand": exception.hand,
            "players": seat_names(sheet),
            "problems": exception.problems,
            "can_edit": token is not None and token == sheet.edit_token,
        }
        return render(request, "games/stored_deal_refused.html", context, status=409)
