"""Web pages. Thin: every rule lives in ``games.rules``."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from games.games import GAMES


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "games/home.html", {"games": GAMES.values()})


def _error(request: HttpRequest, status: int, title: str, message: str) -> HttpResponse:
    """Errors in the API's JSON format under /api/, as a page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse({"errors": [{"field": None, "message": message}]}, status=status)
    return render(
        request, "error.html", {"status": status, "title": title, "message": message}, status=status
    )


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, 400, "That request could not be read", "Please go back and try again.")


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(request, 403, "Not allowed", "This link does not allow that.")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return _error(
        request,
        404,
        "Page not found",
        "There is nothing at this address. Check the link, or start again from the home page.",
    )


def server_error(request: HttpRequest) -> HttpResponse:
    return _error(
        request,
        500,
        "Something went wrong on our side",
        "Nothing you entered was lost. Please try again in a moment.",
    )
