"""Every form of the project, sent as a browser sends it, in every language, saves.

A German page once sent its season's dates as value="01.09.2026" to an
<input type="date">: the browser drops such a value, both dates arrived empty and
every save of the season failed. Here each page is read as a browser reads it
(tests/forms_as_browser.py: a date input keeps only an ISO date, a number input
only a number, …) and each of its forms is sent with the values the page put in
it, by each of its buttons. Where a person has to type or choose something first
(a new player's name, a password, the deal just played), the test types it, and
only that. Every form must save: a redirect, or an answer with no error shown.

The pages are found from the URL patterns: each pattern is either the target of a
form sent here or listed as having no form (a page, a download, the JSON API), so a
new form cannot be missed.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from accounts import mail as accounts_mail
from circles import services
from circles.models import Membership, Player
from games import services as sheet_services
from games.models import Sheet

from .forms_as_browser import Submission, submissions

pytestmark = pytest.mark.django_db

LANGUAGES = ["en", "de", "eo"]
PASSWORD = "pw-long-enough-1"
NEW_PASSWORD = "another-long-pw-7"

GRAND_WON = {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
PITCH_A_MAKES_4 = {
    "pitcher": 0,
    "bid": 4,
    "points": dict(
        zip(
            ["ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three"],
            "AAAAABBB",
            strict=True,
        )
    ),
}
# What a person types or chooses on a form that starts empty, by the form's target.
SKAT_DEAL = {
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
PITCH_DEAL = {"pitcher": "0", "bid": "4"} | {
    f"point_{key}": side for key, side in PITCH_A_MAKES_4["points"].items()
}
MANIPULATION_DEAL = {
    "went_out": "0",
    "count_by": "penalties",
    "penalty_1": "25",
    "penalty_2": "40",
}
PLAYERS = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "player_3": "Dora"}

REFEREE_ANSWERED = [
    "/referee/skat/value/?game=grand&bid=24&matadors_direction=with&matadors_count=2&outcome=won",
    "/referee/skat/value/?game=null&bid=23&outcome=won",
    "/referee/skat/trick/?game=grand&card_1=AC&card_2=JD&card_3=10C",
    "/referee/skat/follow/?game=grand&led=AC&hand=JC&hand=7C&hand=8H&played=7C",
    "/referee/pitch/trick/?trump=H&card1=AH&card2=JD&card3=JOKER-HIGH",
]
# What the page shows when a form was refused.
ERROR_SHOWN = re.compile(
    r'class="error-box"|class="field-error"|class="field-errors"|aria-invalid="true"|errorlist'
)

# URL patterns without a form of their own to send (pages that only show, downloads,
# the JSON API, the installable app's files), each with why.
NO_FORM = {
    "healthz": "a health check",
    "manifest": "the app's manifest",
    "service-worker": "the app's service worker",
    "openapi": "the API's schema",
    "api-skat-score": "JSON API",
    "api-skat-trick": "JSON API",
    "api-skat-follow": "JSON API",
    "api-pitch-hand": "JSON API",
    "api-pitch-trick": "JSON API",
    "api-manipulation-melds": "JSON API",
    "api-manipulation-turn": "JSON API",
    "api-manipulation-arrange": "JSON API",
    "api-manipulation-round": "JSON API",
    "api-sheets": "JSON API",
    "api-sheet": "JSON API",
    "api-sheet-hands": "JSON API",
    "api-sheet-hand": "JSON API",
    "api-standings": "JSON API",
    "api-evenings": "JSON API",
    "api-evening": "JSON API",
    "api-evening-players": "JSON API",
    "api-evening-player": "JSON API",
    "api-evening-series": "JSON API",
    "api-evening-table-result": "JSON API",
    "api-evening-round-time": "JSON API",
    "api-evening-table-end": "JSON API",
    "api-evening-table-winner": "JSON API",
    "api-evening-money": "JSON API",
    "api-evening-payments": "JSON API",
    "api-evening-payment": "JSON API",
    "games:home": "a page (its forms post elsewhere)",
    "games:card-picker": "a part of the entry form loaded by htmx",
    "games:offline": "a page",
    "games:sheet-new": "a page of links to each game's form",
    "games:sheet-preview": "the entry form's preview, posted by htmx while typing",
    "games:deal-explain": "a page",
    "games:deal-view-explain": "a page",
    "games:sheet-history": "a page (its forms post elsewhere)",
    "games:sheet-view": "a page",
    "games:sheet-live": "the read-only page's poll",
    "games:sheet-csv": "a download",
    "games:sheet-chart": "a part loaded by htmx",
    "games:sheet-view-chart": "a page",
    "games:sheet-view-csv": "a download",
    "games:sheet-list": "the Spielliste to print (its Print button calls the browser's print)",
    "games:sheet-view-list": "the Spielliste to print (its Print button calls the browser's print)",
    "games:referee": "a page of links",
    "games:rules-section": "a page",
    "games:api-docs": "a page",
    "games:rules": "a page of links",
    "circles:mine": "a page (its form posts elsewhere)",
    "circles:circle": "a page (its forms post elsewhere)",
    "circles:season": "a page (its form posts elsewhere)",
    "circles:season-csv": "a download",
    "circles:season-public": "a page",
    "circles:season-public-csv": "a download",
    "circles:circle-export": "a download",
    "circles:log": "the circle's administration log: a page",
    "circles:member-remove": "a page (its form posts elsewhere)",
    "accounts:password-change-done": "a page",
    "accounts:password-reset-done": "a page",
    "accounts:password-reset-complete": "a page",
    "evenings:board": "the organiser's board (its forms post elsewhere)",
    "evenings:rules": "a page",
    "evenings:board-tables": "the board's poll (its forms post elsewhere)",
    "evenings:table-link": "a table's QR code and link (its buttons copy and share)",
    "evenings:series-print": "the seating list and table cards to print",
    "evenings:ranking": "a page",
    "evenings:player-ranking": "a page: how one player's total comes about",
    "evenings:evening-list": "the evening's list to print",
    "evenings:own": "a player's own page: it changes nothing",
    "evenings:money-print": "the prize list and payout sheet to print",
    "evenings:money": "the organiser's money page (its forms post elsewhere)",
    "evenings:season-box": "a season's cash box: a page",
    "evenings:season-box-csv": "a download",
    "evenings:screen": "the big screen: a page with no controls",
    "evenings:screen-live": "the big screen's poll",
}
# Referee pages and rule-book pages (many, each only a page or a GET form of its own).
NO_FORM_PREFIXES = ("games:rules-", "games:rulebook")


@dataclass
class World:
    owner: User
    member: User
    newcomer: User
    circle: Any
    season: Any
    player: Player
    other_player: Player
    sheets: dict[str, Sheet]
    loose: Sheet  # a sheet in no circle, started by the owner
    trashed: Sheet


@pytest.fixture
def world() -> World:
    owner = User.objects.create_user("olga", "olga@example.org", PASSWORD)
    member = User.objects.create_user("max", "max@example.org", PASSWORD)
    newcomer = User.objects.create_user("nina", "nina@example.org", PASSWORD)
    circle = services.circle_create(owner=owner, name="Club", player_name="Olga")
    services.circle_join(user=member, token=circle.invite_token)
    today = datetime.date.today()
    season = services.season_save(
        circle=circle,
        data={
            "name": "Autumn",
            "starts_on": today - datetime.timedelta(days=10),
            "ends_on": today + datetime.timedelta(days=100),
            "planned_evenings": 12,
        },
    )
    sheets = {}
    for game, players, deal, options in (
        # A finished series: the circle page offers to leave it out of the standings.
        ("skat", ["Olga", "Max", "Rita"], GRAND_WON, {"series_deals": 2}),
        ("pitch", ["Olga", "Max", "Rita", "Udo"], PITCH_A_MAKES_4, None),
        ("manipulation", ["Olga", "Max", "Rita"], {"penalties": [0, 35, 60]}, None),
    ):
        sheet = services.sheet_create_in_circle(
            circle=circle, game=game, players=players, owner=owner, options=options
        )
        sheet_services.hand_record(sheet=sheet, data=deal)
        sheet_services.hand_record(sheet=sheet, data=deal)
        sheet.refresh_from_db()
        sheets[game] = sheet
    # A sheet in no circle: a deal corrected (its history offers the old version back)
    # and one undone (the sheet offers to bring it back).
    loose = sheet_services.sheet_create(game="skat", players=["Olga", "Ida", "Jan"], owner=owner)
    for _ in range(3):
        sheet_services.hand_record(sheet=loose, data=GRAND_WON)
    sheet_services.hand_correct(sheet=loose, number=1, data={**GRAND_WON, "bid": 20})
    sheet_services.hand_remove(sheet=loose, number=3)
    loose.refresh_from_db()
    trashed = sheet_services.sheet_create(game="skat", players=["A", "B", "C"], owner=owner)
    sheet_services.sheet_delete(sheet=trashed)
    trashed.refresh_from_db()
    return World(
        owner=owner,
        member=member,
        newcomer=newcomer,
        circle=circle,
        season=season,
        player=Player.objects.get(circle=circle, name="Rita"),
        other_player=Player.objects.get(circle=circle, name="Udo"),
        sheets=sheets,
        loose=loose,
        trashed=trashed,
    )


@dataclass
class Page:
    path: str | Callable[[], str]  # a callable: made when the page is opened
    who: str = "owner"  # owner, member, newcomer or visitor
    # What a person types first, by the form's target (a URL name).
    types: dict[str, dict[str, Any]] | None = None
    status: int = 200  # the trashed sheet's page answers 410 Gone, with its restore form


def pages(w: World) -> dict[str, Page]:
    c, s = w.circle.pk, w.season.pk
    found = {
        "home": Page("/"),
        "new skat": Page("/new/skat/", types={"games:sheet-new-game": PLAYERS}),
        "new pitch": Page("/new/pitch/", types={"games:sheet-new-game": PLAYERS}),
        "new manipulation": Page("/new/manipulation/", types={"games:sheet-new-game": PLAYERS}),
        "circle new sheet": Page(f"/circles/{c}/new/skat/", types={"circles:sheet-new": PLAYERS}),
        "mine": Page("/mine/"),
        "circle new": Page("/circles/new/", types={"circles:circle-new": {"name": "Second"}}),
        "circle": Page(f"/circles/{c}/"),
        "circle settings": Page(f"/circles/{c}/settings/"),
        "member remove": Page(
            f"/circles/{c}/members/"
            f"{Membership.objects.get(circle=w.circle, user=w.member).pk}/remove"
        ),
        "players": Page(f"/circles/{c}/players/", types={"circles:players": {"name": "Zora"}}),
        "player": Page(
            f"/circles/{c}/players/{w.player.pk}/",
            types={"circles:player-merge": {"into": str(w.other_player.pk)}},
        ),
        "season": Page(f"/circles/{c}/seasons/{s}/"),
        "season edit": Page(f"/circles/{c}/seasons/{s}/edit/"),
        "season new": Page(
            f"/circles/{c}/seasons/new/",
            types={
                "circles:season-new": {
                    "name": "Spring",
                    "starts_on": "2031-03-01",
                    "ends_on": "2031-05-31",
                }
            },
        ),
        "join": Page(f"/join/{w.circle.invite_token}/", who="newcomer"),
        "sheet move": Page(f"/s/{w.loose.edit_token}/circle/"),
        "sheet delete": Page(f"/s/{w.loose.edit_token}/delete"),
        "trash": Page(f"/s/{w.trashed.edit_token}/", status=410),
        "password change": Page(
            "/accounts/password/",
            types={
                "accounts:password-change": {
                    "old_password": PASSWORD,
                    "new_password1": NEW_PASSWORD,
                    "new_password2": NEW_PASSWORD,
                }
            },
        ),
        "login": Page(
            "/accounts/login/",
            who="visitor",
            types={"accounts:login": {"username": "olga", "password": PASSWORD}},
        ),
        "signup": Page(
            "/accounts/signup/",
            who="visitor",
            types={
                "accounts:signup": {
                    "username": "petra",
                    "email": "petra@example.org",
                    "password1": NEW_PASSWORD,
                    "password2": NEW_PASSWORD,
                }
            },
        ),
        "password reset": Page(
            "/accounts/password/reset/",
            who="visitor",
            types={"accounts:password-reset": {"email": "olga@example.org"}},
        ),
        "email confirm": Page(
            lambda: (
                f"/accounts/email/{accounts_mail.confirm_token(w.member, 'max.new@example.org')}/"
            ),
            who="member",
        ),
        "password reset confirm": Page(
            lambda: reset_link(w.owner),
            who="visitor",
            types={
                "accounts:password-reset-confirm": {
                    "new_password1": NEW_PASSWORD,
                    "new_password2": NEW_PASSWORD,
                }
            },
        ),
    }
    # The referee's tools with an answer: asked again with the values the page kept, each
    # answers the same, with no error.
    for n, query in enumerate(REFEREE_ANSWERED):
        found[f"referee {n}"] = Page(query, who="visitor")
    deals = {"skat": SKAT_DEAL, "pitch": PITCH_DEAL, "manipulation": MANIPULATION_DEAL}
    for game, sheet in [*w.sheets.items(), ("skat", w.loose)]:
        edit = sheet.edit_token
        found[f"{game} sheet {sheet.pk}"] = Page(f"/s/{edit}/", types={"games:sheet": deals[game]})
        # The correction form shows the deal as entered: sent unchanged, it saves.
        found[f"{game} correct {sheet.pk}"] = Page(f"/s/{edit}/deals/1/")
        found[f"{game} history {sheet.pk}"] = Page(f"/s/{edit}/history/")
    found.update(evening_pages(w))
    return found


def evening_pages(w: World) -> dict[str, Page]:
    """A club evening (issue 17) in the two states whose boards carry every form: a
    series drawn and not started (the swap), and a series done and not signed (the
    next draw, signing, a player leaving); a paper table and a table's sign-off."""
    from evenings import accounts
    from evenings import services as evening_services
    from evenings.models import EveningTable

    day = datetime.date.today()
    drawn = evening_services.evening_create(
        name="Drawn", played_on=day, circle=w.circle, series_deals={"3": 3}
    )
    evening_services.players_add(evening=drawn, names=["Ann", "Bo", "Cy", "Di", "Ed", "Flo"])
    evening_services.series_draw(evening=drawn, method="lot", seed=1)
    done = evening_services.evening_create(
        name="Done",
        played_on=day,
        series_deals={"3": 3},
        money={
            "entry_fee": "6.00",
            "lost_game_fees": [{"from": 1, "amount": "0.50"}, {"from": 4, "amount": "1.00"}],
        },
    )
    evening_services.players_add(evening=done, names=["Ann", "Bo", "Cy", "Di"])
    # One payment marked (its Undo button), the others still owing (a Paid button each).
    accounts.payment_add(evening=done, player=done.players.first(), amount="6.00")
    evening_services.series_draw(evening=done, method="lot", seed=1)
    paper = EveningTable.objects.get(series__evening=done)
    evening_services.table_paper_result(
        table=paper,
        foot=[{"player": s.player_id, "points": 0, "won": 0, "lost": 0} for s in paper.seats.all()],
    )
    table = EveningTable.objects.filter(series__evening=drawn).first()
    # A Pitch night (issue 21) moving progressively: one with round 1 played (the
    # board's "Seat round 2"), one whose round 1 waits for its tally cards.
    eight = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
    played = evening_services.evening_create(
        name="Pitch played", played_on=day, game="pitch", movement="progressive"
    )
    evening_services.players_add(evening=played, names=eight)
    evening_services.series_draw(evening=played, seed=1)
    for tally in EveningTable.objects.filter(series__evening=played):
        evening_services.table_tally_result(table=tally, scores=[30, 12])
    waiting = evening_services.evening_create(
        name="Pitch waiting",
        played_on=day,
        game="pitch",
        movement="rotation",
        counts="match_points",
    )
    evening_services.players_add(evening=waiting, names=eight)
    evening_services.series_draw(evening=waiting, seed=1)
    card = EveningTable.objects.filter(series__evening=waiting).first()
    # Rounds of minutes: one whose time runs (the board's "Call time"), one whose time
    # is called, with a table between hands (ended at once: level, who won?) and a table
    # still finishing its hand (ended by the organiser).
    timed = {
        "played_on": day,
        "game": "pitch",
        "movement": "progressive",
        "round_format": "minutes",
        "round_minutes": 20,
    }
    running = evening_services.evening_create(name="Pitch running", **timed)
    evening_services.players_add(evening=running, names=eight)
    evening_services.series_draw(evening=running, seed=1)
    called = evening_services.evening_create(name="Pitch called", **timed)
    evening_services.players_add(evening=called, names=eight)
    evening_services.series_draw(evening=called, seed=1)
    evening_services.round_call_time(evening=called)
    evening_services.table_end_now(
        table=EveningTable.objects.filter(series__evening=called).order_by("number").first()
    )
    return {
        "pitch night running": Page(
            f"/e/{running.organiser_token}/",
            who="visitor",
            types={"evenings:players-add": {"name": "Ivy"}},
        ),
        "pitch night time called": Page(
            f"/e/{called.organiser_token}/",
            who="visitor",
            types={"evenings:players-add": {"name": "Ivy"}},
        ),
        "pitch night played": Page(
            f"/e/{played.organiser_token}/",
            who="visitor",
            types={"evenings:players-add": {"name": "Ivy"}},
        ),
        "pitch night tally card": Page(
            f"/e/{waiting.organiser_token}/tables/{card.pk}/paper",
            who="visitor",
            types={"evenings:table-paper": {"first": "30", "second": "12"}},
        ),
        "evening new": Page(
            "/evenings/new/", who="visitor", types={"evenings:new": {"name": "Fr"}}
        ),
        "evening drawn": Page(
            f"/e/{drawn.organiser_token}/",
            who="visitor",
            types={"evenings:players-add": {"name": "Gus"}},
        ),
        "evening done": Page(
            f"/e/{done.organiser_token}/",
            who="visitor",
            types={"evenings:players-add": {"name": "Gus"}},
        ),
        "evening paper": Page(
            f"/e/{drawn.organiser_token}/tables/{table.pk}/paper",
            who="visitor",
            types={"evenings:table-paper": {"rows": "1 48"}},
        ),
        "evening sign": Page(f"/t/{paper.sheet.edit_token}/sign", who="visitor"),
        "evening player": Page(
            f"/e/{done.organiser_token}/players/{done.players.first().pk}/", who="visitor"
        ),
        "evening money": Page(f"/e/{done.organiser_token}/money/", who="visitor"),
        "evening money rules": Page(f"/e/{done.organiser_token}/money/rules", who="visitor"),
    }


def reset_link(user: User) -> str:
    # The token covers the last log-in, which the pages before this one moved (each
    # force_login writes it): made from the account as stored now, as the mail is.
    user = User.objects.get(pk=user.pk)
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    return f"/accounts/password/reset/{uid}/{default_token_generator.make_token(user)}/"


def client_for(w: World, who: str) -> Client:
    client = Client()
    if who != "visitor":
        client.force_login(getattr(w, who))
    return client


def typed(submission: Submission, types: dict[str, dict[str, Any]] | None) -> list:
    """The form's values with what a person types into it first."""
    target = resolve(urlsplit(submission.url).path).view_name
    values = (types or {}).get(target, {})
    data = [(name, value) for name, value in submission.data if name not in values]
    for name, value in values.items():
        for one in value if isinstance(value, list) else [value]:
            data.append((name, one))
    return data


def send(client: Client, submission: Submission, data: list) -> Any:
    url = submission.url
    if submission.method == "get":
        # A GET form's values replace the action's query string.
        url = urlsplit(url).path
        query: dict[str, list[str]] = {}
        for name, value in data:
            query.setdefault(name, []).append(value)
        return client.get(url, query)
    body: dict[str, list[str]] = {}
    for name, value in data:
        body.setdefault(name, []).append(value)
    return client.post(url, body)


def refused(response: Any) -> str | None:
    """Why the answer is no save: its status, or the error it shows."""
    if response.status_code >= 400:
        return f"status {response.status_code}"
    if 300 <= response.status_code < 400:
        return None
    content = response.content.decode(errors="replace")
    found = ERROR_SHOWN.search(content)
    if found:
        start = max(found.start() - 200, 0)
        return "an error shown: " + re.sub(r"\s+", " ", content[start : found.end() + 400])
    return None


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_saves_with_the_values_its_page_gave_it(world, language):
    problems = []
    for label, page in pages(world).items():
        client = client_for(world, page.who)
        path = f"/{language}{page.path() if callable(page.path) else page.path}"
        # As a browser: a redirect is followed (the reset link goes on to its form).
        shown = client.get(path, follow=True)
        assert shown.status_code == page.status, (label, shown.status_code)
        path = shown.request["PATH_INFO"]
        found = submissions(shown.content.decode(), f"http://testserver{path}")
        own = [f for f in found if resolve(urlsplit(f.url).path).view_name != "set-language"]
        assert own or label == "home", f"{label}: no form but the language switch"
        for submission in found:
            target = resolve(urlsplit(submission.url).path).view_name
            if target == "set-language" and label != "home":
                continue  # the language switch is on every page: sent once, from home
            # Each form is sent to the page as it was shown, and undone after.
            with transaction.atomic():
                response = send(
                    client_for(world, page.who), submission, typed(submission, page.types)
                )
                why = refused(response)
                transaction.set_rollback(True)
            if why:
                problems.append(f"{label} → {target} ({submission.button}): {why[:700]}")
    assert not problems, "\n\n".join(problems)


def url_names() -> set[str]:
    names = set()

    def walk(patterns: list, namespace: str = "") -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, inner)
            elif isinstance(pattern, URLPattern) and pattern.name:
                names.add(f"{namespace}{pattern.name}")

    walk(get_resolver().url_patterns)
    return names


def test_every_url_pattern_is_sent_a_form_or_has_none(world):
    targets = set()
    for page in pages(world).values():
        client = client_for(world, page.who)
        path = f"/en{page.path() if callable(page.path) else page.path}"
        shown = client.get(path, follow=True)
        for submission in submissions(
            shown.content.decode(), f"http://testserver{shown.request['PATH_INFO']}"
        ):
            targets.add(resolve(urlsplit(submission.url).path).view_name)
    formless = {name for name in url_names() if name.startswith(NO_FORM_PREFIXES)}
    formless |= {name for name in url_names() if name.startswith("games:referee-")}
    missing = url_names() - targets - set(NO_FORM) - formless
    assert not missing, f"a form on no page sent here, or a page not listed: {sorted(missing)}"


def project_forms() -> list[type]:
    import importlib

    from django import forms

    for module in (
        "accounts.forms",
        "circles.forms",
        "games.forms",
        "games.entry_forms",
        "evenings.forms",
    ):
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            continue
    found, todo = [], [forms.Form, forms.ModelForm]
    while todo:
        for sub in todo.pop().__subclasses__():
            todo.append(sub)
            if sub.__module__.split(".")[0] in ("accounts", "circles", "games", "evenings"):
                found.append(sub)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_date_field_sends_its_date_as_a_date_input_reads_it(language):
    from django import forms
    from django.utils import translation

    day = datetime.date(2026, 9, 1)
    fields = [
        (form, name, field)
        for form in project_forms()
        for name, field in form.base_fields.items()
        if isinstance(field, forms.DateField)
    ]
    assert fields  # the season's days at least
    with translation.override(language):
        for form, name, field in fields:
            markup = field.widget.render(name, day)
            assert 'type="date"' in markup, (form, name)
            assert 'value="2026-09-01"' in markup, (form, name, markup)
