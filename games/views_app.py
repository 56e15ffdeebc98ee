"""The installable app: its manifest, its service worker and the page it shows offline.

- ``manifest``: the web app manifest (name, colours, icons), so a phone can put
  Scorekeeper on its home screen and open it full screen.
- ``service_worker``: ``/sw.js``, served from the site's root so that its scope covers
  every page. It keeps the app shell (every stylesheet, script and icon, by the URLs
  the static files storage gives them: hashed in production, so the list is always
  right) and the score sheets this phone opened, network first: a sheet that was
  open keeps working without a connection. Its cache name is derived from that list
  and from the worker's own text, so a deploy that changes either replaces it.
- ``offline``: the page the service worker answers when there is no connection and
  the page asked for was never opened on this phone: the sheets that were.
- Starting a sheet once: ``games.views.new_sheet_form`` (a game's or a circle's
  new-sheet page) gives each form an idempotency key, and ``start_once`` answers a
  repeated POST of that form (Back and Start again, a double tap, a browser's retry)
  with the sheet the first one started. ``play_again_values`` reads a finished sheet
  for its Play again button (templates/games/_game_over.html): same players and
  rules, the first deal one seat on. The button posts to the page that started the
  sheet (a circle's, for a sheet kept in a circle), so the circle's permissions and
  the rate limit of starting sheets apply, and ``games`` knows nothing of circles.

What the worker does and does not keep is in ``templates/games/sw.js``; the queue of
deals entered without a connection is ``static/js/offline.js``.
"""

from __future__ import annotations

import datetime
import hashlib
import json
import re
import uuid
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import get_template, render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import selectors, services
from games.games import GameEntry
from games.models import Sheet
from games.rules.errors import RuleError
from games.session_keys import STARTED

T = TypeVar("T")

# The colours of templates/base.html's theme-color (light) and of the splash screen.
THEME_COLOR = "#14532d"
BACKGROUND_COLOR = "#14532d"

# What the app shell is made of, by the static files' own names.
SHELL_PREFIXES = ("css/", "js/", "icons/", "vendor/htmx/")
SHELL_SUFFIXES = (".css", ".js", ".png", ".svg")

ICONS = (
    # (static name, size, purpose)
    ("icons/scorekeeper-192.png", "192x192", "any"),
    ("icons/scorekeeper-512.png", "512x512", "any"),
    ("icons/scorekeeper-maskable-512.png", "512x512", "maskable"),
)


@require_GET
def manifest(request: HttpRequest) -> HttpResponse:
    """The web app manifest: what a phone needs to install the app."""
    data = {
        "id": "/",
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": _(
            "Keep score at a real card table: Skat, Pitch and Manipulation, every number explained."
        ),
        "lang": translation.get_language() or settings.LANGUAGE_CODE,
        "dir": "ltr",
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOR,
        "background_color": BACKGROUND_COLOR,
        "categories": ["games", "utilities"],
        "icons": [
            {"src": static(name), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for name, sizes, purpose in ICONS
        ]
        + [
            {
                "src": static("icons/scorekeeper.svg"),
                "sizes": "any",
                "type": "image/svg+xml",
                "purpose": "any",
            }
        ],
        "shortcuts": [
            {
                "name": _("New sheet"),
                "short_name": _("New sheet"),
                "url": reverse("games:sheet-new"),
                "icons": [
                    {"src": static("icons/scorekeeper-192.png"), "sizes": "192x192"},
                ],
            }
        ],
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
    response["Content-Type"] = "application/manifest+json"
    # Asked for on every page: a day is fresh enough, a deploy changes it rarely.
    patch_cache_control(response, public=True, max_age=86400)
    return response


def _static_names() -> Iterable[str]:
    """Every static file's name: from the collected manifest where there is one
    (production), else from the finders (development and tests)."""
    hashed = getattr(staticfiles_storage, "hashed_files", None)
    if hashed:
        return list(hashed)
    names: set[str] = set()
    for finder in finders.get_finders():
        for path, _storage in finder.list(ignore_patterns=["LICENSE*", "*.map", "*.txt"]):
            names.add(path.replace("\\", "/"))
    return names


def shell_urls() -> list[str]:
    """The URLs of the app shell: every stylesheet, script and icon of the site."""
    urls = []
    for name in sorted(_static_names()):
        if name.startswith(SHELL_PREFIXES) and name.endswith(SHELL_SUFFIXES):
            try:
                urls.append(static(name))
            except ValueError:  # not in the collected manifest: not served either
                continue
    return urls


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the service worker, at the root so that its scope is the whole site."""
    shell = shell_urls()
    offline_urls = {}
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            offline_urls[code] = reverse("games:offline")
    source = get_template("games/sw.js").template.source
    text = json.dumps([shell, offline_urls, source])
    version = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    body = render_to_string(
        "games/sw.js",
        {
            "version": version,
            "shell": json.dumps(shell),
            "offline_urls": json.dumps(offline_urls),
        },
    )
    response = HttpResponse(body, content_type="application/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    # The browser checks for a new worker on every visit; it must never get an old one.
    patch_cache_control(response, no_cache=True, max_age=0)
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """What the app shows without a connection, for a page it never opened: the sheets
    this phone did open (kept by the service worker, listed from this phone)."""
    return render(request, "games/offline.html")


# -- Starting a sheet once ----------------------------------------------------------------

# A form's key: what new_form_key makes (32 hex digits), or any client's of that alphabet.
FORM_KEY = re.compile(r"[A-Za-z0-9_-]{16,100}")
# The session's record of the sheets this visitor started from a form, newest first.
STARTED_KEPT = 10
# How long the new-sheet page points back at the sheet just started from it.
RECENT_START = datetime.timedelta(minutes=30)


def new_form_key() -> str:
    """A new form's idempotency key."""
    return uuid.uuid4().hex


def form_key(value: object) -> str | None:
    """The posted key if it is one (anything else: no key, as an old page had)."""
    return value if isinstance(value, str) and FORM_KEY.fullmatch(value) else None


def _form_scope(request: HttpRequest) -> str:
    """Where a form's key is kept: per account, or without one per browser, by a digest
    of its CSRF secret (the cookie the form's POST was checked against; one is made now,
    and goes out with this answer, if the POST had none). The secret is fixed when the
    form is shown, so two copies of a double tap share it; another browser sending the
    same key starts a sheet of its own and never gets this one's edit link."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"sheets:form:{user.pk}"
    get_token(request)  # sets request.META["CSRF_COOKIE"] if the browser had no secret
    digest = hashlib.sha256(request.META["CSRF_COOKIE"].encode()).hexdigest()[:32]
    return f"sheets:form:anonymous:{digest}"


def start_once(
    request: HttpRequest, key: str | None, create: Callable[[], Sheet]
) -> tuple[Sheet, bool]:
    """The sheet ``create`` starts, once per form key (see :func:`create_once`)."""
    return create_once(
        request,
        key,
        form="new-sheet-form",
        create=create,
        find=lambda pk: Sheet.objects.filter(pk=pk).first(),
        secret=lambda sheet: sheet.edit_token,
    )


def create_once(
    request: HttpRequest,
    key: str | None,
    *,
    form: str,
    create: Callable[[], T],
    find: Callable[[Any], T | None],
    secret: Callable[[T], str] | None = None,
) -> tuple[T, bool]:
    """What ``create`` makes (a sheet, a circle, an evening), once per key of the form
    named ``form``; a repeat (Back and send again, a double tap, also one sent at the
    same moment: the database holds one answer per key) gets the first one's, found by
    its primary key with ``find``. Returns it and whether this request made it.
    ``create``'s RuleError (nothing made) passes through; the form may then be sent
    again with the key. Every repeat of a form is the same request, whatever was
    changed in it meanwhile: the first POST made it, a second one is Back and send
    again. ``secret`` (the link it opens) is kept with the answer: once new links are
    made, a repeat is refused instead of handing over the new link."""
    made: list[Any] = []

    def action() -> services.Answer:
        thing = create()
        made.append(thing)
        answer = {"pk": thing.pk}  # type: ignore[attr-defined]
        if secret is not None:
            answer["secret"] = secret(thing)
        return 201, answer

    if key is None:
        return create(), True
    status, answer = services.idempotent(
        scope=_form_scope(request),
        key=key,
        print_=services.fingerprint("POST", form, {}),
        action=action,
    )
    if made:
        return made[0], True
    found = find(answer.get("pk", answer.get("sheet"))) if status < 400 else None
    if found is None:
        # The key answered something else (it was used elsewhere, or what it made is
        # gone for good): make one as if no key had been sent.
        return create(), True
    if secret is not None and "secret" in answer and answer["secret"] != secret(found):
        raise RuleError(
            _(
                "This form was sent already, and what it started has new links since: "
                "ask at the table for the new link."
            )
        )
    return found, False


def remember_start(request: HttpRequest, sheet: Sheet, names: list[str]) -> None:
    """Keep the sheet in the session, for the new-sheet page's pointer back to it."""
    record = {
        "sheet": sheet.pk,
        # The link it opened: once new links are made for the sheet, the page no longer
        # points back at it (new links shut this phone out too).
        "token": sheet.edit_token,
        "game": sheet.game,
        "players": names,
        "at": timezone.now().isoformat(),
    }
    earlier = [
        item
        for item in request.session.get(STARTED, [])
        if isinstance(item, dict) and item.get("sheet") != sheet.pk
    ]
    request.session[STARTED] = [record, *earlier][:STARTED_KEPT]


def recent_start(request: HttpRequest, entry: GameEntry) -> dict[str, Any] | None:
    """The sheet of this game the visitor started from the form in the last half hour:
    Back from a new sheet shows it, so that nobody starts a second one by mistake."""
    for item in request.session.get(STARTED, []):
        if not isinstance(item, dict) or item.get("game") != entry.slug:
            continue
        try:
            at = datetime.datetime.fromisoformat(str(item.get("at")))
        except ValueError:
            continue
        if timezone.is_naive(at) or timezone.now() - at > RECENT_START:
            return None
        token = item.get("token")
        sheet = (
            Sheet.objects.filter(pk=item.get("sheet"), edit_token=token, deleted_at=None).first()
            if isinstance(token, str)
            else None
        )
        if sheet is None:
            return None
        names = [n for n in item.get("players", []) if isinstance(n, str)]
        # Under a minute, "just now": Django's timesince would say "0 minutes".
        just_now = timezone.now() - at < datetime.timedelta(minutes=1)
        return {"url": sheet.get_absolute_url(), "players": names, "at": at, "just_now": just_now}
    return None


EDIT_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,100}")


def play_again_values(token: object, entry: GameEntry) -> dict[str, Any]:
    """The next sheet after the one ``token`` (its edit link) opens: the same players in
    the same seats and the same rules, the first deal one seat further round the table.
    404 for anything that is not the edit link of a sheet of this game."""
    if not isinstance(token, str) or not EDIT_TOKEN.fullmatch(token):
        raise Http404("No sheet at this link")
    found = selectors.sheet_by_token(token)
    if (
        found is None
        or not found[1]
        or found[0].deleted_at is not None
        or found[0].game != entry.slug
    ):
        raise Http404("No sheet at this link")
    sheet = found[0]
    names = list(selectors.seat_names(sheet))
    return {
        "players": names,
        "first_dealer": (sheet.first_dealer + 1) % max(len(names), 1),
        "options": dict(sheet.options or {}),
    }
