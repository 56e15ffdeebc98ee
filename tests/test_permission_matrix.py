"""Every page and API endpoint against every role there is.

Roles: an anonymous visitor; someone holding a sheet's edit link; someone holding its
read-only link; a circle's owner; a member; another signed-in user (the last three
without the sheet's links). The table names, for every URL of the project, the
answer each role gets. A URL missing from the table fails the test, so a new page
cannot ship without deciding who may use it.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver

from circles import services as circle_services
from circles.models import Membership, Player
from games import services
from games.selectors import live_hands

pytestmark = pytest.mark.django_db

ROLES = ("anon", "edit", "view", "owner", "member", "stranger")
LOGIN = "login"  # a redirect to the login page
OK = "ok"  # answered (2xx, a redirect elsewhere, or a 4xx for the request's content)
NO = "no"  # refused: 404, or 403 where the link is known but may not write
PENALTIES = {"penalties": [0, 15, 20]}


@dataclass
class World:
    sheet: Any
    circle: Any
    season: Any
    player: Any
    member_ship: Any
    users: dict[str, User]
    # A Skat sheet (outside the circle) for the pages only a Skat sheet has.
    skat: Any = None


def _world() -> World:
    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    member = User.objects.create_user("max", "max@example.org", "pw-long-enough-1")
    stranger = User.objects.create_user("sam", "sam@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    circle_services.circle_join(user=member, token=circle.invite_token)
    today = datetime.date.today()
    season = circle_services.season_save(
        circle=circle,
        data={
            "name": "Now",
            "starts_on": today - datetime.timedelta(days=5),
            "ends_on": today + datetime.timedelta(days=5),
        },
    )
    sheet = circle_services.sheet_create_in_circle(
        circle=circle, game="manipulation", players=["Olga", "Max", "Nina"]
    )
    services.hand_record(sheet=sheet, data=PENALTIES)
    services.hand_record(sheet=sheet, data=PENALTIES)
    sheet.refresh_from_db()
    return World(
        sheet=sheet,
        circle=circle,
        season=season,
        player=Player.objects.get(circle=circle, name="Nina"),
        member_ship=Membership.objects.get(circle=circle, user=member),
        users={"owner": owner, "member": member, "stranger": stranger},
        skat=services.sheet_create(game="skat", players=["Olga", "Max", "Nina"]),
    )


def _token(world: World, role: str) -> str:
    """The sheet link each role holds: only the link roles hold one."""
    return {"edit": world.sheet.edit_token, "view": world.sheet.view_token}.get(
        role, "no-such-link-0000000000000000"
    )


Request = tuple[str, str, dict[str, Any]]
Build = Callable[[World, str], Request]


def get(path: Callable[[World, str], str]) -> Build:
    return lambda world, role: ("get", path(world, role), {})


def post(path: Callable[[World, str], str], data: Callable[[World], dict] | None = None) -> Build:
    return lambda world, role: ("post", path(world, role), data(world) if data else {})


def api(method: str, path: Callable[[World, str], str], body: dict | None = None) -> Build:
    def build(world: World, role: str) -> Request:
        headers = {"content_type": "application/json"}
        if role in ("edit", "view"):
            headers["HTTP_AUTHORIZATION"] = f"Bearer {_token(world, role)}"
        if method == "get":
            return method, path(world, role), headers
        return method, path(world, role), {"data": json.dumps(body or {}), **headers}

    return build


def skat_link(world: World, role: str) -> str:
    """The Skat sheet's link each role holds, as :func:`_token` gives the other sheet's."""
    return {"edit": world.skat.edit_token, "view": world.skat.view_token}.get(
        role, "no-such-link-0000000000000000"
    )


def s(suffix: str = "") -> Callable[[World, str], str]:
    return lambda world, role: f"/en/s/{_token(world, role)}/{suffix}"


def v(suffix: str = "") -> Callable[[World, str], str]:
    return lambda world, role: f"/en/v/{_token(world, role)}/{suffix}"


def c(suffix: str = "") -> Callable[[World, str], str]:
    return lambda world, role: f"/en/circles/{world.circle.pk}/{suffix}"


def last_hand(world: World) -> dict:
    return {"hand": live_hands(world.sheet)[-1].pk}


PUBLIC = dict.fromkeys(ROLES, OK)
NOBODY = dict.fromkeys(ROLES, NO)
EDIT_LINK = {"anon": NO, "edit": OK, "view": NO, "owner": NO, "member": NO, "stranger": NO}
EITHER_LINK = {"anon": NO, "edit": OK, "view": OK, "owner": NO, "member": NO, "stranger": NO}
API_WRITE = {"anon": NO, "edit": OK, "view": NO, "owner": NO, "member": NO, "stranger": NO}
SIGNED_IN = {"anon": LOGIN, "edit": LOGIN, "view": LOGIN, "owner": OK, "member": OK,
             "stranger": OK}  # fmt: skip
MEMBERS = {"anon": LOGIN, "edit": LOGIN, "view": LOGIN, "owner": OK, "member": OK,
           "stranger": NO}  # fmt: skip
OWNERS = {"anon": LOGIN, "edit": LOGIN, "view": LOGIN, "owner": OK, "member": NO,
          "stranger": NO}  # fmt: skip
MOVE = {"anon": LOGIN, "edit": LOGIN, "view": LOGIN, "owner": NO, "member": NO,
        "stranger": NO}  # fmt: skip
STANDINGS_API = {"anon": NO, "edit": NO, "view": NO, "owner": OK, "member": OK, "stranger": NO}

MATRIX: dict[str, tuple[Build, dict[str, str]]] = {
    # The referee, the rule book and the documentation: for everybody.
    "games:home": (get(lambda w, r: "/en/"), PUBLIC),
    # Choosing a language: for everybody (it only sets a cookie).
    "set-language": (post(lambda w, r: "/language", lambda w: {"language": "de"}), PUBLIC),
    # The installable app: its manifest, service worker and offline page.
    "manifest": (get(lambda w, r: "/manifest.webmanifest"), PUBLIC),
    "service-worker": (get(lambda w, r: "/sw.js"), PUBLIC),
    "games:offline": (get(lambda w, r: "/en/offline/"), PUBLIC),
    "healthz": (get(lambda w, r: "/healthz"), PUBLIC),
    "games:card-picker": (get(lambda w, r: "/en/cards/picker?name=cards&deck=skat"), PUBLIC),
    "games:sheet-new": (get(lambda w, r: "/en/new/"), PUBLIC),
    "games:sheet-new-game": (get(lambda w, r: "/en/new/skat/"), PUBLIC),
    "games:referee": (get(lambda w, r: "/en/referee/"), PUBLIC),
    "games:rules": (get(lambda w, r: "/en/rules/"), PUBLIC),
    "games:rules-game": (get(lambda w, r: "/en/rules/pitch/"), PUBLIC),
    "games:rules-section": (get(lambda w, r: "/en/rules/skat/sections/skat-matadors"), PUBLIC),
    "games:referee-skat-value": (get(lambda w, r: "/en/referee/skat/value/"), PUBLIC),
    "games:referee-skat-bid": (get(lambda w, r: "/en/referee/skat/bid/"), PUBLIC),
    "games:referee-skat-trick": (get(lambda w, r: "/en/referee/skat/trick/"), PUBLIC),
    "games:referee-skat-follow": (get(lambda w, r: "/en/referee/skat/follow/"), PUBLIC),
    "games:referee-skat-ladder": (get(lambda w, r: "/en/referee/skat/bids/"), PUBLIC),
    "games:referee-pitch-trick": (get(lambda w, r: "/en/referee/pitch/trick/"), PUBLIC),
    "games:referee-pitch-hand": (get(lambda w, r: "/en/referee/pitch/hand/"), PUBLIC),
    "games:referee-manipulation-melds": (
        get(lambda w, r: "/en/referee/manipulation/melds/"),
        PUBLIC,
    ),
    "games:referee-manipulation-turn": (get(lambda w, r: "/en/referee/manipulation/turn/"), PUBLIC),
    "games:referee-manipulation-arrange": (
        get(lambda w, r: "/en/referee/manipulation/arrange/"),
        PUBLIC,
    ),
    "games:api-docs": (get(lambda w, r: "/en/api/"), PUBLIC),
    "openapi": (get(lambda w, r: "/api/v1/openapi.json"), PUBLIC),
    "api-skat-score": (api("post", lambda w, r: "/api/v1/skat/score"), PUBLIC),
    "api-skat-trick": (api("post", lambda w, r: "/api/v1/skat/trick"), PUBLIC),
    "api-skat-follow": (api("post", lambda w, r: "/api/v1/skat/follow"), PUBLIC),
    "api-pitch-hand": (api("post", lambda w, r: "/api/v1/pitch/hand"), PUBLIC),
    "api-pitch-trick": (api("post", lambda w, r: "/api/v1/pitch/trick"), PUBLIC),
    "api-manipulation-melds": (
        api("post", lambda w, r: "/api/v1/manipulation/melds"),
        PUBLIC,
    ),
    "api-manipulation-turn": (api("post", lambda w, r: "/api/v1/manipulation/turn"), PUBLIC),
    "api-manipulation-arrange": (
        api("post", lambda w, r: "/api/v1/manipulation/arrange"),
        PUBLIC,
    ),
    "api-manipulation-round": (
        api("post", lambda w, r: "/api/v1/manipulation/round"),
        PUBLIC,
    ),
    # A sheet: its edit link writes, either link reads.
    "games:sheet": (get(s()), EDIT_LINK),
    "games:sheet-preview": (post(s("preview"), lambda w: {"penalty_0": "0"}), EDIT_LINK),
    "games:sheet-undo": (post(s("undo"), last_hand), EDIT_LINK),
    "games:sheet-redo": (post(s("redo")), EDIT_LINK),
    "games:deal-correct": (get(s("deals/1/")), EDIT_LINK),
    "games:deal-explain": (get(s("deals/1/explain")), EDIT_LINK),
    "games:deal-view-explain": (get(v("deals/1/explain")), EITHER_LINK),
    "games:deal-delete": (post(s("deals/1/delete"), last_hand), EDIT_LINK),
    "games:sheet-history": (get(s("history/")), EDIT_LINK),
    "games:sheet-event-recover": (post(s("history/1/restore")), EDIT_LINK),
    "games:sheet-delete": (post(s("delete")), EDIT_LINK),
    "games:sheet-undelete": (post(s("undelete")), EDIT_LINK),
    "games:sheet-links": (post(s("links")), EDIT_LINK),
    "games:sheet-played-on": (post(s("played-on")), EDIT_LINK),
    "games:sheet-csv": (get(s("sheet.csv")), EDIT_LINK),
    "games:sheet-chart": (get(s("chart")), EDIT_LINK),
    "games:sheet-view": (get(v()), EITHER_LINK),
    "games:sheet-live": (get(v("live")), EITHER_LINK),
    "games:sheet-view-chart": (get(v("chart")), EITHER_LINK),
    "games:sheet-view-csv": (get(v("sheet.csv")), EITHER_LINK),
    # The printed Skat list: a sheet's by its links, a blank one for everybody.
    "games:sheet-list": (get(lambda w, r: f"/en/s/{skat_link(w, r)}/list"), EDIT_LINK),
    "games:sheet-view-list": (get(lambda w, r: f"/en/v/{skat_link(w, r)}/list"), EITHER_LINK),
    "games:rules-skat-list": (get(lambda w, r: "/en/rules/skat/list?players=5&deals=60"), PUBLIC),
    # The sheets' API: the token in the Authorization header decides.
    "api-sheets": (
        api("post", lambda w, r: "/api/v1/sheets", {"game": "skat", "players": ["A", "B", "C"]}),
        PUBLIC,
    ),
    "api-sheet": (api("get", lambda w, r: f"/api/v1/sheets/{w.sheet.pk}"), EITHER_LINK),
    "api-sheet-hands": (
        api("post", lambda w, r: f"/api/v1/sheets/{w.sheet.pk}/hands", PENALTIES),
        API_WRITE,
    ),
    "api-sheet-hand": (
        api("delete", lambda w, r: f"/api/v1/sheets/{w.sheet.pk}/hands/2"),
        API_WRITE,
    ),
    # Accounts.
    "accounts:signup": (get(lambda w, r: "/en/accounts/signup/"), PUBLIC),
    "accounts:login": (get(lambda w, r: "/en/accounts/login/"), PUBLIC),
    "accounts:logout": (post(lambda w, r: "/en/accounts/logout/"), PUBLIC),
    "accounts:password-change": (get(lambda w, r: "/en/accounts/password/"), SIGNED_IN),
    "accounts:password-change-done": (get(lambda w, r: "/en/accounts/password/done/"), SIGNED_IN),
    "accounts:password-reset": (get(lambda w, r: "/en/accounts/password/reset/"), PUBLIC),
    "accounts:password-reset-done": (get(lambda w, r: "/en/accounts/password/reset/sent/"), PUBLIC),
    "accounts:password-reset-complete": (
        get(lambda w, r: "/en/accounts/password/reset/done/"),
        PUBLIC,
    ),
    # An e-mail confirmation link: a page for anyone who holds it (a bad one says so).
    "accounts:email-confirm": (get(lambda w, r: "/en/accounts/email/not-a-token/"), PUBLIC),
    "accounts:password-reset-confirm": (
        get(lambda w, r: "/en/accounts/password/reset/MQ/set-password/"),
        PUBLIC,
    ),
    # Circles: members see, owners manage, everybody else is told nothing.
    "circles:mine": (get(lambda w, r: "/en/mine/"), SIGNED_IN),
    "circles:circle-new": (get(lambda w, r: "/en/circles/new/"), SIGNED_IN),
    "circles:circle": (get(c()), MEMBERS),
    "circles:settings": (get(c("settings/")), OWNERS),
    "circles:invite-rotate": (post(c("invite/rotate")), OWNERS),
    "circles:member": (
        post(
            lambda w, r: f"/en/circles/{w.circle.pk}/members/{w.member_ship.pk}",
            lambda w: {"action": "member"},
        ),
        OWNERS,
    ),
    "circles:member-remove": (
        get(lambda w, r: f"/en/circles/{w.circle.pk}/members/{w.member_ship.pk}/remove"),
        OWNERS,
    ),
    "circles:log": (get(c("log/")), OWNERS),
    # The invite page: a visitor without an account is told which circle invites and
    # offered to sign up or log in; joining (its POST) needs an account.
    "circles:join": (get(lambda w, r: f"/en/join/{w.circle.invite_token}/"), PUBLIC),
    "circles:players": (get(c("players/")), MEMBERS),
    "circles:player": (get(lambda w, r: w.player.get_absolute_url()), MEMBERS),
    "circles:player-merge": (
        post(lambda w, r: w.player.get_absolute_url() + "merge", lambda w: {"absorb": "0"}),
        OWNERS,
    ),
    "circles:player-erase": (post(lambda w, r: w.player.get_absolute_url() + "erase"), OWNERS),
    "circles:sheet-new": (get(c("new/skat/")), MEMBERS),
    "circles:sheet-settings": (
        post(
            lambda w, r: f"/en/circles/{w.circle.pk}/sheets/{w.sheet.pk}",
            lambda w: {"counted": "1"},
        ),
        MEMBERS,
    ),
    "circles:sheet-move": (get(s("circle/")), MOVE),
    "circles:season-new": (get(c("seasons/new/")), OWNERS),
    "circles:season": (get(lambda w, r: w.season.get_absolute_url()), MEMBERS),
    "circles:season-edit": (get(lambda w, r: w.season.get_absolute_url() + "edit/"), OWNERS),
    "circles:season-rotate": (post(lambda w, r: w.season.get_absolute_url() + "rotate"), OWNERS),
    "circles:season-csv": (
        get(lambda w, r: w.season.get_absolute_url() + "standings.csv"),
        MEMBERS,
    ),
    "evenings:season-box": (
        get(lambda w, r: f"/en/evenings/circles/{w.circle.pk}/seasons/{w.season.pk}/cash-box"),
        MEMBERS,
    ),
    "evenings:season-box-csv": (
        get(lambda w, r: f"/en/evenings/circles/{w.circle.pk}/seasons/{w.season.pk}/cash-box.csv"),
        MEMBERS,
    ),
    "circles:season-public": (get(lambda w, r: f"/en/standings/{w.season.view_token}/"), PUBLIC),
    "circles:season-public-csv": (
        get(lambda w, r: f"/en/standings/{w.season.view_token}/standings.csv"),
        PUBLIC,
    ),
    "circles:circle-export": (get(c("export.json")), OWNERS),
    "api-standings": (
        api("get", lambda w, r: f"/api/v1/seasons/{w.season.pk}/standings"),
        STANDINGS_API,
    ),
    # Club evenings (issue 17): anyone may start one; no role here holds an evening's
    # links (a sheet's edit link is no table link), so the rest is refused.
    # tests/test_evenings_permissions.py walks them with the evening's own roles.
    "evenings:new": (get(lambda w, r: "/en/evenings/new/"), PUBLIC),
    "evenings:rules": (get(lambda w, r: "/en/evenings/rules/"), PUBLIC),
    "evenings:board": (get(lambda w, r: f"/en/e/{_token(w, r)}/"), NOBODY),
    "evenings:board-tables": (get(lambda w, r: f"/en/e/{_token(w, r)}/tables"), NOBODY),
    "evenings:players-add": (post(lambda w, r: f"/en/e/{_token(w, r)}/players"), NOBODY),
    "evenings:player-edit": (get(lambda w, r: f"/en/e/{_token(w, r)}/players/1/"), NOBODY),
    "evenings:player-leave": (post(lambda w, r: f"/en/e/{_token(w, r)}/players/1/leave"), NOBODY),
    "evenings:draw": (post(lambda w, r: f"/en/e/{_token(w, r)}/draw"), NOBODY),
    "evenings:swap": (post(lambda w, r: f"/en/e/{_token(w, r)}/series/1/swap"), NOBODY),
    "evenings:series-print": (get(lambda w, r: f"/en/e/{_token(w, r)}/series/1/print"), NOBODY),
    "evenings:table-paper": (get(lambda w, r: f"/en/e/{_token(w, r)}/tables/1/paper"), NOBODY),
    "evenings:table-signed": (
        post(lambda w, r: f"/en/e/{_token(w, r)}/tables/1/signed"),
        NOBODY,
    ),
    "evenings:table-sign": (get(lambda w, r: f"/en/t/{_token(w, r)}/sign"), NOBODY),
    "evenings:round-time": (post(lambda w, r: f"/en/e/{_token(w, r)}/time"), NOBODY),
    "evenings:table-end": (post(lambda w, r: f"/en/e/{_token(w, r)}/tables/1/end"), NOBODY),
    "evenings:table-winner": (
        post(lambda w, r: f"/en/e/{_token(w, r)}/tables/1/winner"),
        NOBODY,
    ),
    "evenings:ranking": (get(lambda w, r: f"/en/r/{_token(w, r)}/"), NOBODY),
    "evenings:screen": (get(lambda w, r: f"/en/r/{_token(w, r)}/screen"), NOBODY),
    "evenings:table-link": (get(lambda w, r: f"/en/e/{_token(w, r)}/tables/1/"), NOBODY),
    "evenings:evening-list": (get(lambda w, r: f"/en/r/{_token(w, r)}/list"), NOBODY),
    "evenings:player-ranking": (get(lambda w, r: f"/en/r/{_token(w, r)}/players/1"), NOBODY),
    "evenings:own": (get(lambda w, r: f"/en/p/{_token(w, r)}/"), NOBODY),
    "evenings:money": (get(lambda w, r: f"/en/e/{_token(w, r)}/money/"), NOBODY),
    "evenings:money-pay": (post(lambda w, r: f"/en/e/{_token(w, r)}/money/pay"), NOBODY),
    "evenings:money-undo": (
        post(lambda w, r: f"/en/e/{_token(w, r)}/money/payments/1/undo"),
        NOBODY,
    ),
    "evenings:money-rules": (get(lambda w, r: f"/en/e/{_token(w, r)}/money/rules"), NOBODY),
    "evenings:money-print": (get(lambda w, r: f"/en/e/{_token(w, r)}/money/print"), NOBODY),
    "evenings:screen-live": (get(lambda w, r: f"/en/r/{_token(w, r)}/screen/live"), NOBODY),
    "api-evenings": (api("post", lambda w, r: "/api/v1/evenings"), PUBLIC),
    "api-evening": (api("get", lambda w, r: "/api/v1/evenings/1"), NOBODY),
    "api-evening-players": (api("post", lambda w, r: "/api/v1/evenings/1/players"), NOBODY),
    "api-evening-player": (api("delete", lambda w, r: "/api/v1/evenings/1/players/1"), NOBODY),
    "api-evening-series": (api("post", lambda w, r: "/api/v1/evenings/1/series"), NOBODY),
    "api-evening-money": (api("get", lambda w, r: "/api/v1/evenings/1/money"), NOBODY),
    "api-evening-payments": (api("post", lambda w, r: "/api/v1/evenings/1/payments"), NOBODY),
    "api-evening-payment": (api("delete", lambda w, r: "/api/v1/evenings/1/payments/1"), NOBODY),
    "api-evening-table-result": (
        api("post", lambda w, r: "/api/v1/evenings/1/series/1/tables/1/result"),
        NOBODY,
    ),
    "api-evening-round-time": (api("post", lambda w, r: "/api/v1/evenings/1/time"), NOBODY),
    "api-evening-table-end": (
        api("post", lambda w, r: "/api/v1/evenings/1/series/1/tables/1/end"),
        NOBODY,
    ),
    "api-evening-table-winner": (
        api("post", lambda w, r: "/api/v1/evenings/1/series/1/tables/1/winner"),
        NOBODY,
    ),
}


def _names() -> set[str]:
    names = set()

    def walk(patterns, namespace=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns, pattern.namespace or namespace)
            elif isinstance(pattern, URLPattern):
                names.add(f"{namespace}:{pattern.name}" if namespace else pattern.name)

    walk(get_resolver().url_patterns)
    return names


def test_every_url_of_the_project_has_a_rule():
    assert _names() == set(MATRIX)


def _outcome(response) -> str:
    status = response.status_code
    if status == 302 and response["Location"].startswith("/en/accounts/login/"):
        return LOGIN
    if status in (403, 404):
        return NO
    assert status < 500, response.content[:500]
    return OK


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One world for the module's URLs (each test's changes are rolled back, as each
    role's are below); taken back out of the database at the end."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield _world()
        transaction.set_rollback(True)


@pytest.mark.parametrize("name", sorted(MATRIX))
def test_every_role_gets_the_answer_its_rule_says(client_factory, world, name):
    build, expected = MATRIX[name]
    for role in ROLES:
        # Each role meets the same world: what one role changed is rolled back.
        with transaction.atomic():
            world.sheet.refresh_from_db()
            client = client_factory()
            if role in world.users:
                client.force_login(world.users[role])
            method, path, extra = build(world, role)
            if method == "post" and "content_type" not in extra:
                response = client.post(path, extra)
            else:
                response = getattr(client, method)(path, **extra)
            assert _outcome(response) == expected[role], (name, role, response.status_code)
            transaction.set_rollback(True)


@pytest.fixture
def client_factory():
    from django.test import Client

    return Client
