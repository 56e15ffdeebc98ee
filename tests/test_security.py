"""Nobody where they don't belong: the Content Security Policy and pages that live
under it, no-store on every answer that carries an edit token, and tokens masked in
Django's and gunicorn's logs (scorekeeper/security.py, scorekeeper/gunicorn_logging.py).
"""

from __future__ import annotations

import datetime
import json
import logging
import re
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client, RequestFactory

from circles import services as circle_services
from games import services
from games.qr import qr_svg
from scorekeeper import security
from scorekeeper.log_masking import MaskTokensFilter, mask_tokens
from scorekeeper.security import CONTENT_SECURITY_POLICY

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "templates"

GRAND_WON = {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}


# -- what counts as inline --------------------------------------------------------------


class InlineCode(HTMLParser):
    """Everything a strict CSP (no 'unsafe-inline', no 'unsafe-eval') refuses, and the
    htmx features that need eval: found in any HTML, inline SVG included."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []

    def handle_starttag(self, tag, attrs):
        values = dict(attrs)
        if tag == "script" and not values.get("src"):
            self.found.append(f"<script> without src at line {self.getpos()[0]}")
        if tag == "style":
            self.found.append(f"<style> at line {self.getpos()[0]}")
        for name, value in attrs:
            value = (value or "").strip()
            where = f'<{tag} {name}="{value[:40]}"> at line {self.getpos()[0]}'
            handler = name == "style" or name.startswith(("on", "hx-on"))
            script_url = name in ("href", "src", "action", "formaction") and (
                value.lower().startswith("javascript:")
            )
            htmx_eval = (name in ("hx-vals", "hx-vars") and value.startswith("js:")) or (
                # A trigger filter (click[ctrlKey]) is evaluated.
                name == "hx-trigger" and "[" in value
            )
            if handler or script_url or htmx_eval:
                self.found.append(where)

    handle_startendtag = handle_starttag


def inline_code(html: str) -> list[str]:
    parser = InlineCode()
    parser.feed(html)
    parser.close()
    return parser.found


def test_the_checker_finds_every_kind_of_inline_code():
    html = (
        "<script>alert(1)</script><script src='/static/x.js'></script>"
        "<style>p{}</style><p style='color:red' onclick='x()'>"
        "<svg><style>path{}</style><path onload='x()' style='fill:red'/></svg>"
        "<a href='javascript:x()'>x</a><div hx-on:click='x()' hx-vals='js:{a: 1}'></div>"
        "<div hx-trigger='click[ctrlKey]'></div>"
    )
    assert len(inline_code(html)) == 11


# -- the pages --------------------------------------------------------------------------


@pytest.fixture
def world(db):
    """A sheet with two deals, and a circle with a season, its owner and a member."""
    sheet = services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    services.hand_record(sheet=sheet, data=GRAND_WON)
    services.hand_record(sheet=sheet, data=GRAND_WON)
    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    member = User.objects.create_user("max", "max@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    circle_services.circle_join(user=member, token=circle.invite_token)
    today = datetime.date.today()
    season = circle_services.season_save(
        circle=circle,
        data={
            "name": "This season",
            "starts_on": today - datetime.timedelta(days=10),
            "ends_on": today + datetime.timedelta(days=10),
        },
    )
    in_circle = circle_services.sheet_create_in_circle(
        circle=circle, game="skat", players=["Olga", "Max", "Nina"], owner=owner
    )
    services.hand_record(sheet=in_circle, data=GRAND_WON)
    player = circle.players.get(name="Max")
    return SimpleNamespace(
        sheet=sheet, owner=owner, member=member, circle=circle, season=season, player=player
    )


def _url(world, template: str) -> str:
    return template.format(
        edit=world.sheet.edit_token,
        view=world.sheet.view_token,
        circle=world.circle.pk,
        season=world.season.pk,
        public=world.season.view_token,
        player=world.player.pk,
        invite=world.circle.invite_token,
    )


PAGES = [
    pytest.param("/en/", None, id="home"),
    pytest.param("/en/", "member", id="home-signed-in"),
    pytest.param("/en/new/", None, id="new-sheet"),
    pytest.param("/en/new/skat/", None, id="new-skat-sheet"),
    pytest.param("/en/s/{edit}/", None, id="sheet-edit"),
    pytest.param("/en/v/{view}/", None, id="sheet-view"),
    pytest.param("/en/s/{edit}/deals/1/", None, id="deal-correct"),
    pytest.param("/en/s/{edit}/chart", None, id="sheet-chart"),
    pytest.param("/en/referee/", None, id="referee"),
    pytest.param(
        "/en/referee/skat/value/?game=null&bid=23&outcome=won", None, id="referee-skat-answer"
    ),
    pytest.param(
        "/en/referee/pitch/trick/?trump=H&card1=AH&card2=JD&card3=JOKER-HIGH",
        None,
        id="referee-pitch-trick-answer",
    ),
    pytest.param("/en/referee/manipulation/arrange/", None, id="referee-manipulation-arrange"),
    pytest.param("/en/rules/", None, id="rule-book"),
    pytest.param("/en/rules/skat/", None, id="rule-book-skat"),
    pytest.param("/en/api/", None, id="api-page"),
    pytest.param("/en/accounts/login/", None, id="login"),
    pytest.param("/en/accounts/signup/", None, id="signup"),
    pytest.param("/en/mine/", "member", id="mine"),
    pytest.param("/en/circles/{circle}/", "member", id="circle"),
    pytest.param("/en/circles/{circle}/seasons/{season}/", "member", id="season-member"),
    pytest.param("/en/circles/{circle}/settings/", "owner", id="circle-settings"),
    pytest.param("/en/circles/{circle}/players/{player}/", "member", id="player"),
    pytest.param("/en/standings/{public}/", None, id="season-public"),
    pytest.param("/no/such/page/", None, id="not-found"),
]


def _as(client: Client, world, who: str | None) -> Client:
    if who is not None:
        client.force_login(getattr(world, who))
    return client


def _assert_policy(response) -> None:
    policy = response["Content-Security-Policy"]
    assert policy == CONTENT_SECURITY_POLICY
    assert "unsafe-inline" not in policy
    assert "unsafe-eval" not in policy


@pytest.mark.parametrize(("path", "who"), PAGES)
def test_every_page_has_the_policy_and_no_inline_code(client, world, path, who):
    response = _as(client, world, who).get(_url(world, path))
    assert response.status_code in (200, 404), response.status_code
    _assert_policy(response)
    assert response["Content-Type"].startswith("text/html")
    assert inline_code(response.content.decode()) == []


@pytest.mark.parametrize(
    ("path", "headers"),
    [
        pytest.param("/en/s/{edit}/", {"HTTP_HX_REQUEST": "true"}, id="board"),
        pytest.param("/en/v/{view}/live?since=0", {"HTTP_HX_REQUEST": "true"}, id="live"),
        pytest.param("/en/s/{edit}/chart", {"HTTP_HX_REQUEST": "true"}, id="chart"),
        pytest.param(
            "/en/referee/pitch/trick/?trump=H&card1=AH&card2=JD",
            {"HTTP_HX_REQUEST": "true"},
            id="referee-pitch-trick-part",
        ),
    ],
)
def test_what_htmx_swaps_in_has_no_inline_code(client, world, path, headers):
    response = client.get(_url(world, path), **headers)
    assert response.status_code == 200
    _assert_policy(response)
    assert inline_code(response.content.decode()) == []


def test_json_and_static_answers_have_the_policy_too(client, world):
    _assert_policy(client.get("/api/v1/openapi.json"))
    _assert_policy(client.post("/api/v1/skat/score", "{}", content_type="application/json"))
    _assert_policy(client.get("/static/js/cardpicker.js"))


def test_a_sheet_entry_answered_to_htmx_has_no_inline_code(client, world):
    form = {
        "mode": "game",
        "declarer": "1",
        "game": "grand",
        "bid": "48",
        "hand": "on",
        "announced": "none",
        "matadors_by": "count",
        "matadors_direction": "with",
        "matadors_count": "2",
        "result_by": "outcome",
        "outcome": "won",
    }
    response = client.post(_url(world, "/en/s/{edit}/"), form, HTTP_HX_REQUEST="true")
    assert response.status_code in (200, 201)
    _assert_policy(response)
    assert inline_code(response.content.decode()) == []


def test_the_qr_code_svg_has_no_style():
    svg = qr_svg("https://scores.example.org/v/" + "x" * 43 + "/")
    assert inline_code(svg) == []
    assert "style" not in svg


# -- the sources: templates, scripts, htmx ------------------------------------------------


@pytest.mark.parametrize(
    "template",
    [
        pytest.param(path, id=str(path.relative_to(TEMPLATES)))
        for path in sorted(TEMPLATES.rglob("*.html"))
    ],
)
def test_no_template_has_inline_code(template):
    text = template.read_text()
    # Template tags are not HTML: drop them before parsing ({% if %} inside a tag).
    assert inline_code(re.sub(r"{%.*?%}|{{.*?}}", "x", text, flags=re.S)) == []
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text)
    assert "style=" not in text
    assert not re.search(r"\son[a-z]+\s*=", text)


def test_python_built_html_has_no_style_attributes():
    """The chart, card picker and template tags build HTML in Python."""
    for path in [
        ROOT / "games" / "charts.py",
        ROOT / "games" / "cards_ui.py",
        ROOT / "games" / "qr.py",
        *sorted((ROOT / "games" / "templatetags").glob("*.py")),
        *sorted((ROOT / "circles" / "templatetags").glob("*.py")),
    ]:
        text = path.read_text()
        assert not re.search(r"""style=["'{]|<style|<script|\son[a-z]+=""", text), path


def test_scripts_need_no_eval_and_set_no_inline_style():
    for path in sorted((ROOT / "static" / "js").glob("*.js")):
        text = path.read_text()
        assert not re.search(r"\beval\(|new Function\(|setAttribute\(\s*[\"'](style|on)", text)
        assert not re.search(r"innerHTML\s*=.*(style=|<script|\son[a-z]+=)", text), path


def test_htmx_is_configured_for_the_policy():
    base = (TEMPLATES / "base.html").read_text()
    config = json.loads(re.search(r'name="htmx-config" content=\'(.*?)\'', base).group(1))
    # htmx would otherwise add a <style> for its indicators and evaluate expressions.
    assert config["includeIndicatorStyles"] is False
    assert config["allowEval"] is False
    # Its indicator styles live in the stylesheet instead.
    assert ".htmx-indicator" in (ROOT / "static" / "css" / "scorekeeper.css").read_text()


# -- no-store where an edit token travels ------------------------------------------------


def _no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


@pytest.mark.parametrize(
    ("path", "who"),
    [
        pytest.param("/en/s/{edit}/", None, id="sheet-edit"),
        pytest.param("/en/s/{edit}/chart", None, id="sheet-chart"),
        pytest.param("/en/s/{edit}/sheet.csv", None, id="sheet-csv"),
        pytest.param("/en/s/{edit}/deals/1/", None, id="deal-correct"),
        pytest.param("/en/s/no-such-token/", None, id="sheet-not-found"),
        pytest.param("/en/join/{invite}/", "member", id="join"),
        pytest.param("/en/circles/{circle}/settings/", "owner", id="circle-settings"),
        pytest.param("/en/circles/{circle}/export.json", "owner", id="circle-export"),
        pytest.param("/en/circles/{circle}/seasons/{season}/", "member", id="season-member"),
        pytest.param("/en/circles/{circle}/", "member", id="circle"),
        pytest.param("/en/", "member", id="home-signed-in"),
        pytest.param("/en/mine/", "member", id="mine"),
        # The read-only link is a private link too (issue 19's audit: a shared computer's
        # cache or a proxy kept it): the page, its poll and chart, and the public
        # standings link.
        pytest.param("/en/v/{view}/", None, id="sheet-view"),
        pytest.param("/en/v/{view}/live?since=0", None, id="sheet-view-poll"),
        pytest.param("/en/v/{view}/chart", None, id="sheet-view-chart"),
        pytest.param("/en/standings/{public}/", None, id="season-public"),
    ],
)
def test_answers_with_an_edit_token_or_a_private_link_are_never_stored(client, world, path, who):
    response = _as(client, world, who).get(_url(world, path))
    assert response.status_code in (200, 302, 404)
    assert _no_store(response), response.get("Cache-Control")


def test_a_partial_of_the_edit_page_is_never_stored(client, world):
    response = client.get(_url(world, "/en/s/{edit}/"), HTTP_HX_REQUEST="true")
    assert _no_store(response)
    response = client.post(_url(world, "/en/s/{edit}/undo"), HTTP_HX_REQUEST="true")
    assert _no_store(response)


def test_the_api_answer_with_the_edit_token_is_never_stored(client, world):
    created = client.post(
        "/api/v1/sheets",
        json.dumps({"game": "skat", "players": ["Ana", "Ben", "Cem"]}),
        content_type="application/json",
    )
    assert created.status_code == 201
    assert "edit_token" in created.json()
    assert _no_store(created)
    sheet = created.json()
    read = client.get(
        f"/api/v1/sheets/{sheet['id']}", HTTP_AUTHORIZATION=f"Bearer {sheet['edit_token']}"
    )
    assert read.status_code == 200
    assert _no_store(read)


@pytest.mark.parametrize(
    "path",
    [
        pytest.param("/en/", id="home"),
        pytest.param("/en/rules/", id="rules"),
        pytest.param("/api/v1/openapi.json", id="openapi"),
    ],
)
def test_public_answers_may_be_kept(client, world, path):
    response = client.get(_url(world, path))
    assert response.status_code == 200
    assert not _no_store(response)


def test_the_read_only_poll_looks_up_nobody(client, world, django_assert_num_queries):
    """An unchanged poll of the read-only page answers 204 from one query: deciding
    about no-store goes by its path and looks at no session."""
    client.force_login(world.member)
    world.sheet.refresh_from_db()
    url = _url(world, "/en/v/{view}/live?since=") + str(world.sheet.version)
    with django_assert_num_queries(1):
        response = client.get(url)
    assert response.status_code == 204
    assert _no_store(response)


def test_the_redirect_to_a_new_sheets_edit_link_is_never_stored(client, db):
    """Issue 19: starting a sheet answers its edit link in Location; a proxy or the
    browser's cache must not keep that answer."""
    form = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "first_dealer": "0"}
    response = client.post("/en/new/skat/", form)
    assert response.status_code == 302
    assert "/s/" in response["Location"]
    assert _no_store(response)


def test_a_view_can_mark_its_answer_as_secret():
    def view(request):
        response = HttpResponse("a private link")
        response.carries_secret = True
        return response

    request = RequestFactory().get("/anything/")
    response = security.SecurityHeadersMiddleware(view)(request)
    assert _no_store(response)
    plain = security.SecurityHeadersMiddleware(lambda r: HttpResponse("x"))(request)
    assert not _no_store(plain)


# -- tokens out of logs ------------------------------------------------------------------

TOKEN = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-Xy7"


@pytest.mark.parametrize(
    ("text", "masked"),
    [
        (f"/en/s/{TOKEN}/", "/en/s/...Xy7/"),
        (f"/en/s/{TOKEN}/deals/2/delete", "/en/s/...Xy7/deals/2/delete"),
        (f"/en/v/{TOKEN}/live?since=4", "/en/v/...Xy7/live?since=4"),
        (f"/en/standings/{TOKEN}/standings.csv", "/en/standings/...Xy7/standings.csv"),
        (f"/en/join/{TOKEN}/", "/en/join/...Xy7/"),
        (f"/en/e/{TOKEN}/money/", "/en/e/...Xy7/money/"),
        (f"/en/t/{TOKEN}/", "/en/t/...Xy7/"),
        (f"/en/p/{TOKEN}/", "/en/p/...Xy7/"),
        (f"/en/r/{TOKEN}/list", "/en/r/...Xy7/list"),
        (
            "/en/accounts/email/eyJ1c2VyIjoxLCJlbWFpbCI6Im5pbmFAZXhhbXBsZS5vcmcifQ:1t:sIg/",
            "/en/accounts/email/...sIg/",
        ),
        (f"/en/s/{TOKEN}", "/en/s/...Xy7"),
        (f"GET /s/{TOKEN}/preview HTTP/1.1", "GET /s/...Xy7/preview HTTP/1.1"),
        (f"https://scores.example.org/v/{TOKEN}/", "https://scores.example.org/v/...Xy7/"),
        (
            f"/en/accounts/login/?next=%2Fs%2F{TOKEN}%2F",
            "/en/accounts/login/?next=%2Fs%2F...Xy7%2F",
        ),
        (f"/en/accounts/password/reset/MQ/{TOKEN}/", "/en/accounts/password/reset/MQ/...Xy7/"),
        (
            "/en/accounts/password/reset/MQ/set-password/",
            "/en/accounts/password/reset/MQ/set-password/",
        ),
        ("/en/s/short/", "/en/s/.../"),
        ("/static/css/scorekeeper.css", "/static/css/scorekeeper.css"),
        ("/api/v1/sheets/12/hands/3", "/api/v1/sheets/12/hands/3"),
        ("/en/circles/3/seasons/4/", "/en/circles/3/seasons/4/"),
        ("/en/accounts/password/reset/done/", "/en/accounts/password/reset/done/"),
    ],
)
def test_mask_tokens(text, masked):
    assert mask_tokens(text) == masked
    # Masking twice (a logger's filter, then the handler's) changes nothing more.
    assert mask_tokens(mask_tokens(text)) == masked


def test_django_request_warnings_show_no_token(client, db, caplog):
    caplog.set_level(logging.WARNING, logger="django.request")
    assert client.get(f"/en/s/{TOKEN}/deals/1/").status_code == 404
    messages = [r.getMessage() for r in caplog.records if r.name == "django.request"]
    assert messages == ["Not Found: /en/s/...Xy7/deals/1/"]
    assert TOKEN not in caplog.text


def test_csrf_refusals_show_no_token(db, caplog):
    caplog.set_level(logging.WARNING, logger="django.security.csrf")
    client = Client(enforce_csrf_checks=True)
    assert client.post(f"/en/s/{TOKEN}/undo").status_code == 403
    assert "/en/s/...Xy7/undo" in caplog.text
    assert TOKEN not in caplog.text


class _Kept(logging.Handler):
    def __init__(self):
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record):
        self.lines.append(self.format(record))


def test_the_development_server_log_shows_no_token():
    server = logging.getLogger("django.server")
    kept = _Kept()
    server.addHandler(kept)
    try:
        server.warning('"%s" %s %s', f"GET /v/{TOKEN}/ HTTP/1.1", "404", "120")
    finally:
        server.removeHandler(kept)
    assert kept.lines == ['"GET /v/...Xy7/ HTTP/1.1" 404 120']


def test_the_logging_settings_put_the_filter_where_paths_are_logged():
    for name in ("django.request", "django.security.csrf", "django.server"):
        assert any(isinstance(f, MaskTokensFilter) for f in logging.getLogger(name).filters), name
    handlers = [*logging.getLogger().handlers, *logging.getLogger("django.server").handlers]
    ours = [h for h in handlers if any(isinstance(f, MaskTokensFilter) for f in h.filters)]
    assert len(ours) >= 2


def test_the_filter_masks_dict_arguments_and_leaves_other_values():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "%(path)s %(n)d", None, None)
    record.args = {"path": f"/en/join/{TOKEN}/", "n": 3}
    MaskTokensFilter().filter(record)
    assert record.getMessage() == "/en/join/...Xy7/ 3"


# -- gunicorn's access and error logs -----------------------------------------------------


def _gunicorn_logger(tmp_path):
    from gunicorn.config import Config

    from scorekeeper.gunicorn_logging import MaskingLogger

    config = Config()
    config.set("accesslog", str(tmp_path / "access.log"))
    config.set("errorlog", str(tmp_path / "error.log"))
    return MaskingLogger(config)


def _request():
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": f"/en/s/{TOKEN}/chart?x=1",
        "PATH_INFO": f"/en/s/{TOKEN}/chart",
        "QUERY_STRING": f"next=%2Fv%2F{TOKEN}%2F",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "203.0.113.9",
        "HTTP_REFERER": f"https://scores.example.org/s/{TOKEN}/",
        "HTTP_USER_AGENT": "phone",
    }
    request = SimpleNamespace(
        headers=[("REFERER", environ["HTTP_REFERER"]), ("HX-CURRENT-URL", environ["HTTP_REFERER"])]
    )
    response = SimpleNamespace(status="200 OK", sent=42, headers=[("Content-Type", "text/html")])
    return response, request, environ


def test_gunicorn_access_log_atoms_are_masked(tmp_path):
    logger = _gunicorn_logger(tmp_path)
    response, request, environ = _request()
    atoms = logger.atoms(response, request, environ, datetime.timedelta(seconds=0.01))
    assert atoms["r"] == "GET /en/s/...Xy7/chart?x=1 HTTP/1.1"
    assert atoms["U"] == "/en/s/...Xy7/chart"
    assert atoms["q"] == "next=%2Fv%2F...Xy7%2F"
    assert atoms["f"] == "https://scores.example.org/s/...Xy7/"
    assert atoms["{referer}i"] == atoms["{hx-current-url}i"] == atoms["f"]
    assert atoms["h"] == "203.0.113.9"
    assert atoms["s"] == "200"
    assert not any(TOKEN in str(value) for value in atoms.values())


def test_gunicorn_access_and_error_logs_show_no_token(tmp_path):
    logger = _gunicorn_logger(tmp_path)
    response, request, environ = _request()
    logger.access(response, request, environ, datetime.timedelta(seconds=0.01))
    logger.error("Error handling request %s", f"/en/s/{TOKEN}/")
    logger.setup(logger.cfg)  # a reload (HUP) does not stack the filter
    assert sum(isinstance(f, MaskTokensFilter) for f in logger.error_log.filters) == 1
    for handler in [*logger.access_log.handlers, *logger.error_log.handlers]:
        handler.flush()
    access = (tmp_path / "access.log").read_text()
    error = (tmp_path / "error.log").read_text()
    assert (
        '"GET /en/s/...Xy7/chart?x=1 HTTP/1.1" 200 42 "https://scores.example.org/s/...Xy7/"'
        in (access)
    )
    assert "Error handling request /en/s/...Xy7/" in error
    assert TOKEN not in access + error
