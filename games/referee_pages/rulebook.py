"""The rule book: one page per game, in our own words, with an anchor on every section.

Every explanation step in the app names a section (``Step.rule``); the page of that
game has an element with that id, so each line of an explanation links to its rule.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import path

from games.games import GAMES


def rules_index(request: HttpRequest) -> HttpResponse:
    return render(request, "games/rulebook/index.html", {"games": GAMES.values()})


def rules_game(request: HttpRequest, game: str) -> HttpResponse:
    entry = GAMES.get(game)
    if entry is None:
        raise Http404("No rule book for that game")
    return render(request, f"games/rulebook/{entry.slug}.html", {"game": entry})


urlpatterns = [
    path("rules/", rules_index, name="rules"),
    path("rules/<slug:game>/", rules_game, name="rules-game"),
]
