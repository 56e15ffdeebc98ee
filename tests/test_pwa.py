"""The installable app (issue 9, "Never lose a tap"): the manifest and its icons, the
service worker and what it keeps, the offline page, a new sheet started once however
often its form is sent, and Play again after a game is over."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from circles import services as circle_services
from circles.models import CircleSheet
from games import services, views_app
from games.games import GAMES
from games.models import IdempotencyKey, Sheet
from games.selectors import seat_names
from tests.test_security import inline_code

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
BASE = (ROOT / "templates" / "base.html").read_text()
LIGHT_THEME = re.search(
    r'<meta name="theme-color" content="(#[0-9a-f]{6})" media="\(prefers-color-scheme: light\)">',
    BASE,
).group(1)
PLAYERS = ["Ana", "Ben", "Cem"]
OVER_200 = {"penalties": [0, 120, 150]}  # twice: Cem passes 200, the game is over


def _png_size(path: str) -> tuple[int, int]:
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _static_file(url: str) -> str:
    """The file a static URL serves (found as the static files handler finds it)."""
    assert url.startswith("/static/"), url
    found = finders.find(url.removeprefix("/static/"))
    assert found, f"{url} is not a static file"
    return found


# -- the manifest ----------------------------------------------------------------------


def test_the_manifest_describes_an_installable_app(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Scorekeeper"
    assert manifest["short_name"] == "Scorekeeper"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    # The colours of base.html's theme-color.
    assert manifest["theme_color"] == LIGHT_THEME == "#14532d"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    assert manifest["description"]


def test_every_icon_of_the_manifest_exists_at_its_size(client):
    icons = json.loads(client.get("/manifest.webmanifest").content)["icons"]
    pngs = [icon for icon in icons if icon["type"] == "image/png"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in pngs}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in pngs:
        width, height = _png_size(_static_file(icon["src"]))
        assert f"{width}x{height}" == icon["sizes"], icon
    svg = [icon for icon in icons if icon["type"] == "image/svg+xml"]
    assert svg
    assert _static_file(svg[0]["src"])


def test_every_page_links_the_manifest_the_touch_icon_and_the_scripts(client):
    html = client.get("/en/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    touch = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', html).group(1)
    assert _png_size(_static_file(touch)) == (180, 180)
    for name in ("offline.js", "recent.js", "share.js"):
        assert re.search(rf'<script src="/static/js/{name}"[^>]* defer></script>', html), name
    assert 'data-service-worker="/sw.js"' in html
    assert '<link rel="stylesheet" href="/static/css/app.css">' in html


# -- the service worker ----------------------------------------------------------------------


def test_the_service_worker_is_served_from_the_root_and_never_stale(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert "max-age=0" in response["Cache-Control"]


def _shell(client) -> tuple[str, list[str]]:
    text = client.get("/sw.js").content.decode()
    shell = json.loads(re.search(r"^const SHELL = (\[.*\]);$", text, re.M).group(1))
    return text, shell


def test_the_service_worker_keeps_every_stylesheet_script_and_icon_that_exists(client):
    text, shell = _shell(client)
    for url in shell:
        assert Path(_static_file(url)).is_file()
    for url in (
        "/static/css/scorekeeper.css",
        "/static/css/app.css",
        "/static/css/entry.css",
        "/static/js/offline.js",
        "/static/js/entry.js",
        "/static/vendor/htmx/htmx.min.js",
        "/static/icons/scorekeeper.svg",
        "/static/icons/scorekeeper-192.png",
    ):
        assert url in shell
    assert not [url for url in shell if "LICENSE" in url]
    # What a page links is kept: the home page's and a sheet's stylesheets and scripts.
    home = client.get("/en/").content.decode()
    for url in re.findall(r'(?:href|src)="(/static/[^"]+)"', home):
        assert url in shell, url
    # The offline page in every language, the one of the page asked for shown.
    assert (
        'const OFFLINE_URLS = {"en": "/en/offline/", "de": "/de/offline/", "eo": "/eo/offline/"};'
        in text
    )
    version = re.search(r'^const VERSION = "([0-9a-f]{16})";$', text, re.M)
    assert version


def test_the_cache_name_changes_with_the_static_files(client, monkeypatch):
    before = re.search(r'VERSION = "(\w+)"', client.get("/sw.js").content.decode()).group(1)
    assert before == re.search(r'VERSION = "(\w+)"', client.get("/sw.js").content.decode()).group(1)
    monkeypatch.setattr(views_app, "shell_urls", lambda: ["/static/css/scorekeeper.0123.css"])
    after = re.search(r'VERSION = "(\w+)"', client.get("/sw.js").content.decode()).group(1)
    assert after != before


def test_in_production_the_shell_is_the_collected_hashed_files(monkeypatch):
    class Collected:
        hashed_files = {  # noqa: RUF012 - a stand-in for the manifest storage
            "css/scorekeeper.css": "css/scorekeeper.5e1f.css",
            "js/offline.js": "js/offline.9a0b.js",
            "vendor/htmx/htmx.min.js": "vendor/htmx/htmx.min.77aa.js",
            "vendor/htmx/LICENSE": "vendor/htmx/LICENSE.1234",
            "django_htmx/htmx.js": "django_htmx/htmx.4321.js",
        }

    monkeypatch.setattr(views_app, "staticfiles_storage", Collected())
    monkeypatch.setattr(views_app, "static", lambda name: "/static/" + Collected.hashed_files[name])
    assert views_app.shell_urls() == [
        "/static/css/scorekeeper.5e1f.css",
        "/static/js/offline.9a0b.js",
        "/static/vendor/htmx/htmx.min.77aa.js",
    ]


def test_the_service_worker_keeps_only_sheet_pages_and_never_a_post(client):
    text = client.get("/sw.js").content.decode()
    pattern = re.search(r"const SHEET_PAGE = /(.*)/;", text).group(1).replace("\\/", "/")
    sheet_page = re.compile(pattern)
    assert sheet_page.match("/en/s/AbC_12-x/")
    assert sheet_page.match("/en/v/AbC_12-x/")
    for other in ("/en/v/AbC/live", "/en/s/AbC/chart", "/en/s/AbC/deals/1/", "/en/circles/1/", "/"):
        assert not sheet_page.match(other), other
    assert 'if (request.method !== "GET") return;' in text


def test_a_page_answer_puts_back_the_csrf_cookie_its_request_had_so_the_worker_fetches_its_copies_without_cookies(
    client,
):
    """Found in CI: a person signed up and joined a circle, and the join was refused
    (403, "CSRF token from POST incorrect"). Every page's answer sends the CSRF cookie
    back as its request had it (base.html reads the token), so an offline page the
    service worker was fetching for its copies when the person signed up answered
    after the sign-up with the cookie from before it, and the join form's token no
    longer matched. The mechanism, reproduced here, and the cure: the worker fetches
    the shell and the offline pages without cookies (the browser then keeps none of
    the answer's)."""
    User.objects.create_user("ben", password="pw-long-enough-1")
    client.get("/en/")
    before = client.cookies["csrftoken"].value
    late = Client()  # the worker's request, sent with the cookie from before the log-in
    late.cookies["csrftoken"] = before
    logged_in = client.post(
        reverse("accounts:login"), {"username": "ben", "password": "pw-long-enough-1"}
    )
    assert logged_in.status_code == 302
    assert "_auth_user_id" in client.session
    after = client.cookies["csrftoken"].value  # the log-in made a new secret...
    assert after != before
    answer = late.get("/en/offline/")  # ...and a late answer sends the old one back
    assert answer.cookies["csrftoken"].value == before
    text = client.get("/sw.js").content.decode()
    install = text[text.index('addEventListener("install"') :]
    install = install[: install.index("self.addEventListener", 1)]
    assert 'new Request(url, { credentials: "omit" })' in install
    assert ".map(anonymous)" in install


def test_the_offline_page_lists_the_sheets_of_this_phone(client):
    response = client.get("/en/offline/")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="recent-sheets"' in html
    assert "No connection" in html
    assert inline_code(html) == []


# -- a sheet's board carries what the phone keeps ----------------------------------------------


def _finished_sheet(**extra) -> Sheet:
    sheet = services.sheet_create(game="manipulation", players=PLAYERS, **extra)
    services.hand_record(sheet=sheet, data=OVER_200)
    services.hand_record(sheet=sheet, data=OVER_200)
    sheet.refresh_from_db()
    return sheet


def test_the_board_says_what_the_phone_keeps_of_the_sheet(client):
    sheet = services.sheet_create(game="manipulation", players=PLAYERS)
    html = client.get(sheet.get_absolute_url()).content.decode()
    assert 'id="this-sheet"' in html
    assert f'data-url="{sheet.get_absolute_url()}"' in html
    assert 'data-players="Ana, Ben, Cem"' in html
    assert 'id="outbox"' in html
    assert f'data-sheet-url="{sheet.get_absolute_url()}"' in html
    assert inline_code(html) == []
    view = client.get(sheet.get_view_url()).content.decode()
    assert f'data-url="{sheet.get_view_url()}"' in view
    assert 'data-kind="view"' in view
    # The read-only link never shows the edit link, nor the outbox.
    assert sheet.edit_token not in view
    assert 'id="outbox"' not in view


def test_the_share_panel_offers_copy_and_share(client):
    sheet = services.sheet_create(game="manipulation", players=PLAYERS)
    html = client.get(sheet.get_absolute_url()).content.decode()
    assert 'data-copy="share-view-link"' in html
    assert 'data-copy="share-edit-link"' in html
    # Shown by share.js only where the phone has a share sheet.
    assert re.search(r'data-share="share-view-link"[^>]* hidden>', html)
    assert inline_code(html) == []


# -- a new sheet, once -----------------------------------------------------------------------


def _form_key(client, path: str) -> str:
    html = client.get(path).content.decode()
    return re.search(r'name="idempotency_key" value="([0-9a-f]{32})"', html).group(1)


def test_the_new_sheet_form_started_twice_gives_one_sheet(client):
    key = _form_key(client, "/en/new/manipulation/")
    form = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "idempotency_key": key}
    first = client.post("/en/new/manipulation/", form)
    assert first.status_code == 302
    # Back, and Start the sheet again (the names changed meanwhile, even).
    again = client.post("/en/new/manipulation/", {**form, "player_2": "Dora"})
    assert again.status_code == 302
    assert again["Location"] == first["Location"]
    assert Sheet.objects.count() == 1
    followed = client.get(again["Location"]).content.decode()
    assert "This sheet was started already: here it is." in followed
    # A new form is a new sheet.
    other = client.post(
        "/en/new/manipulation/",
        {**form, "idempotency_key": _form_key(client, "/en/new/manipulation/")},
    )
    assert other["Location"] != first["Location"]
    assert Sheet.objects.count() == 2


def test_the_key_is_kept_only_for_who_sent_it(client):
    key = _form_key(client, "/en/new/manipulation/")
    form = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "idempotency_key": key}
    client.post("/en/new/manipulation/", form)
    someone = User.objects.create_user("sam", "sam@example.org", "pw-long-enough-1")
    other = Client()
    other.force_login(someone)
    response = other.post("/en/new/manipulation/", form)
    assert response.status_code == 302
    assert Sheet.objects.count() == 2
    assert Sheet.objects.get(pk=Sheet.objects.latest("pk").pk).owner == someone


def test_a_refused_form_keeps_its_key_and_starts_nothing(client):
    key = _form_key(client, "/en/new/manipulation/")
    refused = client.post("/en/new/manipulation/", {"player_0": "Ana", "idempotency_key": key})
    assert refused.status_code == 422
    assert f'value="{key}"' in refused.content.decode()
    assert Sheet.objects.count() == 0
    assert not IdempotencyKey.objects.exists()
    fixed = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "idempotency_key": key}
    assert client.post("/en/new/manipulation/", fixed).status_code == 302
    assert Sheet.objects.count() == 1


@pytest.mark.parametrize("key", ["", "short", "ß" * 20, "x" * 101, "a b" * 10])
def test_a_form_without_a_usable_key_still_starts_a_sheet(client, key):
    form = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "idempotency_key": key}
    assert client.post("/en/new/manipulation/", form).status_code == 302
    assert Sheet.objects.count() == 1


def test_back_to_the_form_points_at_the_sheet_just_started(client):
    key = _form_key(client, "/en/new/manipulation/")
    form = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "idempotency_key": key}
    started = client.post("/en/new/manipulation/", form)["Location"]
    html = client.get("/en/new/manipulation/").content.decode()
    assert "You started a sheet with Ana, Ben, Cem" in html
    assert f'href="{started}"' in html
    assert "data-fresh-on-back" in html
    # Only on that game's form.
    assert "You started a sheet" not in client.get("/en/new/skat/").content.decode()


# -- play again ------------------------------------------------------------------------------


def test_game_over_offers_play_again_to_the_edit_link_only(client):
    sheet = _finished_sheet()
    html = client.get(sheet.get_absolute_url()).content.decode()
    assert "Play again" in html
    assert f'name="again" value="{sheet.edit_token}"' in html
    assert 'action="/en/new/manipulation/"' in html
    assert inline_code(html) == []
    view = client.get(sheet.get_view_url()).content.decode()
    assert "Play again" not in view


def _play_again(client, sheet: Sheet, path: str | None = None):
    html = client.get(sheet.get_absolute_url()).content.decode()
    form = re.search(
        r'<form method="post" class="play-again" action="([^"]+)">(.*?)</form>', html, re.S
    )
    fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form.group(2)))
    return client.post(path or form.group(1), fields), fields


def test_play_again_twice_starts_one_sheet_with_the_seats_moved_on(client):
    options = {"target": 300, "ace": "low_or_high", "stock_out": "end_round"}
    old = services.sheet_create(
        game="manipulation", players=PLAYERS, first_dealer=2, options=options
    )
    # 150 and 150: Cem reaches 300, the target of this sheet.
    services.hand_record(sheet=old, data=OVER_200)
    services.hand_record(sheet=old, data=OVER_200)
    old.refresh_from_db()
    first, fields = _play_again(client, old)
    assert first.status_code == 302
    # A double tap, or Back and the button again: the same sheet.
    second = client.post("/en/new/manipulation/", fields)
    assert second["Location"] == first["Location"]
    assert Sheet.objects.count() == 2
    new = Sheet.objects.exclude(pk=old.pk).get()
    assert first["Location"] == new.get_absolute_url()
    assert list(seat_names(new)) == PLAYERS
    # Cem dealt first last time; Ana, the next seat round the table, deals first now.
    assert new.first_dealer == 0
    assert new.options == old.options
    assert new.options["target"] == 300
    page = client.get(new.get_absolute_url()).content.decode()
    assert "Ana deals" in page


def test_play_again_moves_the_first_dealer_one_seat_on():
    for first, expected in ((0, 1), (1, 2), (2, 0)):
        sheet = services.sheet_create(game="manipulation", players=PLAYERS, first_dealer=first)
        assert (
            views_app.play_again_values(sheet.edit_token, GAMES["manipulation"])["first_dealer"]
            == expected
        )


@pytest.mark.parametrize("which", ["view", "unknown", "other-game", "hostile", "trashed"])
def test_play_again_needs_the_edit_link_of_a_sheet_of_that_game(client, which):
    sheet = _finished_sheet()
    skat = services.sheet_create(game="skat", players=PLAYERS)
    token = {
        "view": sheet.view_token,
        "unknown": "x" * 43,
        "other-game": skat.edit_token,
        "hostile": "'; DROP TABLE --" + "9" * 5000,
        "trashed": sheet.edit_token,
    }[which]
    if which == "trashed":
        services.sheet_delete(sheet=sheet)
    response = client.post("/en/new/manipulation/", {"again": token, "idempotency_key": "k" * 32})
    assert response.status_code == 404
    assert Sheet.objects.count() == 2


def test_play_again_of_a_circle_sheet_starts_it_in_the_circle():
    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Ana")
    old = circle_services.sheet_create_in_circle(
        circle=circle, game="manipulation", players=PLAYERS, owner=owner
    )
    services.hand_record(sheet=old, data=OVER_200)
    services.hand_record(sheet=old, data=OVER_200)
    client = Client()
    client.force_login(owner)
    action = reverse("circles:sheet-new", args=[circle.pk, "manipulation"])
    html = client.get(old.get_absolute_url()).content.decode()
    assert f'action="{action}"' in html
    assert "It counts in Club" in html
    first, fields = _play_again(client, old)
    assert first.status_code == 302
    assert client.post(action, fields)["Location"] == first["Location"]
    new = Sheet.objects.exclude(pk=old.pk).get()
    assert CircleSheet.objects.get(sheet=new).circle == circle
    assert new.first_dealer == 1
    # Somebody with the edit link but not signed in: a sheet of their own.
    anonymous = Client()
    page = anonymous.get(old.get_absolute_url()).content.decode()
    assert 'action="/en/new/manipulation/"' in page
    assert "Log in first to keep it in the circle." in page
    response, _fields = _play_again(anonymous, old)
    assert response.status_code == 302
    newest = Sheet.objects.latest("pk")
    assert not CircleSheet.objects.filter(sheet=newest).exists()
