"""The first load of a page, with everything it needs, is at most 60 KB compressed.

Issue 9: a phone at the card table is old and its connection poor. Each page is
fetched as a browser would (gzip), and the style sheets, scripts, icons and images
it names are added as they travel (WhiteNoise serves them pre-compressed: gzip at
level 9 here, brotli in practice, which is smaller still).
"""

from __future__ import annotations

import gzip
import re

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

from games import services
from games.models import Sheet
from scorekeeper.staticfiles import minified

pytestmark = pytest.mark.django_db

LIMIT = 60 * 1024
TAG = re.compile(r"<(link|script|img)\b([^>]*)>")
URL = re.compile(r'\b(?:href|src)="([^"]+)"')
# What a browser fetches to show the page; the home-screen icon and the manifest are
# fetched when the app is installed, not on a first load.
LOADED_LINKS = {"stylesheet", "icon", "preload", "modulepreload"}


def assets(html: str) -> set[str]:
    found = set()
    for tag, attributes in TAG.findall(html):
        url = URL.search(attributes)
        if url is None:
            continue
        if tag == "link":
            rel = re.search(r'\brel="([^"]+)"', attributes)
            if rel is None or not set(rel.group(1).split()) & LOADED_LINKS:
                continue
        found.add(url.group(1))
    return found


def skat_sheet(deals: int) -> Sheet:
    sheet = services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    for number in range(deals):
        data = (
            {"passed": True}
            if number % 4 == 3
            else {
                "declarer": number % 3,
                "game": ["clubs", "grand", "hearts"][number % 4],
                "bid": 18,
                "matadors": {"with": 1},
                "outcome": "won",
            }
        )
        services.hand_record(sheet=Sheet.objects.get(pk=sheet.pk), data=data)
    return Sheet.objects.get(pk=sheet.pk)


def static_bytes(url: str) -> bytes | None:
    """A static file as served (None for what is not ours: data: URLs, other pages)."""
    prefix = "/" + settings.STATIC_URL.lstrip("/")
    if not url.startswith(prefix):
        return None
    name = url.removeprefix(prefix).split("?", 1)[0]
    path = finders.find(name)
    assert path, f"{url} is named by the page but is not a static file"
    with open(path, "rb") as handle:
        # As collectstatic writes it for make run: our scripts and style sheets minified.
        return minified(name, handle.read())


def first_load(client, url: str) -> tuple[int, dict[str, int]]:
    response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200, url
    sent = response.content
    html = gzip.decompress(sent) if response.get("Content-Encoding") == "gzip" else sent
    parts = {url: len(sent)}
    for asset in sorted(assets(html.decode())):
        data = static_bytes(asset)
        if data is not None:
            parts[asset] = len(gzip.compress(data, compresslevel=9))
    return sum(parts.values()), parts


def pages() -> dict[str, str]:
    sheet = skat_sheet(36)
    return {
        "home": "/en/",
        "new sheet": "/en/new/skat/",
        "36-deal sheet": f"/en/s/{sheet.edit_token}/",
        "its read-only view": f"/en/v/{sheet.view_token}/",
        "a referee page": "/en/referee/skat/value/",
        "the rule book": "/en/rules/skat/",
    }


def test_every_first_load_is_at_most_60_kb_compressed(client):
    heavy = {}
    for name, url in pages().items():
        total, parts = first_load(client, url)
        if total > LIMIT:
            heavy[name] = (total, parts)
    assert not heavy, heavy


def test_the_sheet_page_names_only_files_that_exist(client):
    sheet = skat_sheet(3)
    _total, parts = first_load(client, f"/en/s/{sheet.edit_token}/")
    assert any(name.endswith(".css") for name in parts)
    assert any(name.endswith(".js") for name in parts)
