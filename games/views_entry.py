"""What the deal-entry form fetches besides the sheet itself.

The preview's explanation links every line to its rule-book section. On the entry
form a tap on such a link opens the section in a dialog over the form, filled with
this fragment, so nothing entered is lost. Without htmx the same address leads to
the section in the rule book.
"""

from __future__ import annotations

import re

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.utils.html import format_html
from django.views.decorators.http import require_GET

from games.games import GAMES

_OPENING = re.compile(r"<(?P<tag>[a-z][a-z0-9]*)\b[^>]*\bid=\"(?P<id>[a-z0-9-]+)\"[^>]*>")
_IN_PAGE_LINK = re.compile(r'href="#([a-z0-9-]+)"')


def section_html(page: str, section: str) -> str | None:
    """The element with id ``section`` in ``page``, whole (its nested elements of the
    same tag included), or ``None`` when the page has no such element."""
    for opening in _OPENING.finditer(page):
        if opening.group("id") != section:
            continue
        tag = opening.group("tag")
        tags = re.compile(rf"<(/?){tag}\b[^>]*>")
        depth = 0
        for found in tags.finditer(page, opening.start()):
            depth += -1 if found.group(1) else 1
            if depth == 0:
                return page[opening.start() : found.end()]
        return None
    return None


@require_GET
def rule_section(request: HttpRequest, game: str, section: str) -> HttpResponse:
    """One section of a game's rule book, as a fragment for the entry form's dialog; a
    request without htmx is sent to that section in the rule book itself."""
    entry = GAMES.get(game)
    if entry is None:
        raise Http404("No rule book for that game")
    book = reverse("games:rules-game", args=[entry.slug])
    if not request.htmx:
        return redirect(f"{book}#{section}")
    page = render_to_string(f"games/rulebook/{entry.slug}.html", {"game": entry}, request=request)
    found = section_html(page, section)
    if found is None:
        raise Http404("No such section in the rule book")
    # Links within the book lead to the book (the dialog opens them in place too).
    found = _IN_PAGE_LINK.sub(lambda m: f'href="{book}#{m.group(1)}"', found)
    stylesheet = format_html('<link rel="stylesheet" href="{}">', static("css/rulebook.css"))
    response = HttpResponse(stylesheet + found)
    patch_cache_control(response, public=True, max_age=600)
    response["Vary"] = "HX-Request"
    return response
