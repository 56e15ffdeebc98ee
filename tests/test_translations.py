"""No English left over (issue 10): every page, every referee tool with an answer and
with wrong input, the error pages, the e-mail and the API's messages, rendered in
German and in Esperanto, show no English.

Two checks on what a person reads (text and the attributes read aloud or shown):
- no message of the catalogue shows in its English (a message with at least three
  words and no placeholder, whose translation differs);
- no English word that neither language uses ("the", "and", "with", "deal", …), which
  also finds a string that was never marked for translation.

The catalogues themselves: every message translated, none fuzzy (`make test` also
runs makemessages and fails on a string missing from them: the Makefile's
messages-check).
"""

from __future__ import annotations

import datetime
import gettext
import html
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.management import call_command
from django.db import transaction
from django.test import Client

from circles.models import Circle, Membership, Player, Season
from games.models import Sheet

LANGUAGES = ["de", "eo"]
LOCALE = Path(settings.BASE_DIR) / "locale"

# English words neither German nor Esperanto writes (left out: "hand" and "team", which
# German uses too, Esperanto's "for" and "undo", German's "was" and "will"): one of them
# in a German or Esperanto page is English.
ENGLISH = {
    "the", "and", "with", "your", "you", "this", "that", "from", "which", "are", "has",
    "have", "not", "been", "were", "what", "when", "who", "into", "only", "each", "every",
    "deal", "deals", "points", "player", "players", "round", "rounds", "score", "sheet",
    "sheets", "won", "lost", "trick", "tricks", "cards", "card", "bid", "bids", "game",
    "games", "rule", "rules", "save", "delete", "share", "new", "totals", "wins",
    "played", "declarer", "trump", "trumps", "clubs", "spades", "hearts", "diamonds",
    "announced",
}  # fmt: skip
# The API page names the values and fields of a request ("Null takes won or lost").
API_VALUES = {"won", "lost", "sheets", "clubs", "spades", "hearts", "diamonds", "grand", "null"}
# Esperanto names the Skat contracts too (Grando, Nulo, mana, malferma).
ENGLISH_ALSO = {
    "de": {"for", "to", "of", "is", "it"},
    "eo": {"to", "of", "is", "it", "grand", "null", "hand", "ouvert"},
}
# Names people typed (the demo's seasons are named in English): never translated.
DATA: list[str] = []
# Codes written in prose (field_names, paths, {"json": …}, "values"): never translated.
CODE = re.compile(r"\S*[_/{}\"„“”]\S*")
WORD = re.compile(r"[A-Za-zÀ-ÿĉĝĥĵŝŭĈĜĤĴŜŬ]+")


class Visible(HTMLParser):
    """The text a person reads: text nodes and the attributes read aloud or shown."""

    SKIP = frozenset({"script", "style", "template", "code", "pre"})
    ATTRIBUTES = frozenset({"title", "aria-label", "placeholder", "alt"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        attrs = dict(attrs)
        for name, value in attrs.items():
            if value and (name in self.ATTRIBUTES or name.startswith("data-text")):
                self.parts.append(value)
        if tag == "meta" and attrs.get("name") == "description":
            self.parts.append(attrs.get("content") or "")
        if tag == "input" and attrs.get("type") in ("submit", "button"):
            self.parts.append(attrs.get("value") or "")

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def visible(markup: str) -> list[str]:
    parser = Visible()
    parser.feed(markup)
    return [" ".join(p.split()) for p in parser.parts if p.strip()]


def catalogue(language: str) -> dict[str, str]:
    with open(LOCALE / language / "LC_MESSAGES" / "django.mo", "rb") as handle:
        return gettext.GNUTranslations(handle)._catalog


def english_messages(language: str) -> list[str]:
    """Messages whose English would betray a missing translation on a page."""
    found = []
    for key, translated in catalogue(language).items():
        msgid = key[0] if isinstance(key, tuple) else key
        msgid = msgid.split("\x04", 1)[-1]
        if (
            len(msgid.split()) >= 3
            and not re.search(r"[{}%<>]", msgid)
            and translated != msgid
            and not isinstance(key, tuple)
        ):
            found.append(msgid)
    return sorted(found, key=len, reverse=True)


def leftovers(texts: list[str], language: str, allowed: set[str], messages: list[str]) -> list[str]:
    english = ENGLISH | ENGLISH_ALSO[language]
    found = []
    for shown in texts:
        if "://" in shown or shown.startswith("/"):
            continue  # a link, shown to be copied
        text = shown
        for typed in DATA:
            text = text.replace(typed, " ")  # what people named in English stays so
        text = CODE.sub(" ", text)
        words = {
            w
            for w in WORD.findall(text)
            if w.lower() in english and w not in allowed and not (len(w) > 1 and w.isupper())
        }
        if words:
            found.append(f"{shown[:160]}  ← {sorted(words)}")
            continue
        for msgid in messages:
            if msgid in text:
                found.append(f"{shown[:160]}  ← untranslated: {msgid[:60]}")
                break
    return found


# The test database, however the tests are selected: pytest-django sets it up only for
# a selection with a test marked for it, and without one the module's world was built
# (and rolled back) in the development database under DATA_DIR.
pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """The demo circle: sheets of every game, a season, players, accounts."""
    with django_db_blocker.unblock(), transaction.atomic():
        with open("/dev/null", "w") as quiet:
            # A small demo circle (the full one takes seconds more and shows no other words).
            call_command(
                "demo", force=True, series=2, games=2, previous=2, verbosity=0, stdout=quiet
            )
        circle = Circle.objects.order_by("-pk").first()
        owner = Membership.objects.get(circle=circle, role=Membership.OWNER).user
        season = Season.objects.filter(circle=circle).first()
        player = Player.objects.filter(circle=circle).first()
        allowed = {"Scorekeeper", "Seeger", "Fabian", "JSON", "API", "CSV", "English"}
        for p in Player.objects.all():
            allowed.update(WORD.findall(p.name))
        allowed.update(WORD.findall(circle.name))
        allowed.update(get_user_model().objects.values_list("username", flat=True))
        DATA[:] = sorted(Season.objects.values_list("name", flat=True), key=len, reverse=True)
        # A club evening of seven players: its first series drawn (a table of four and
        # one of three), so the board, the ranking, the big screen and a table show.
        from evenings import services as evening_services

        # With money (issue 18), so that its pages show every word they have.
        evening = evening_services.evening_create(
            name="Preisskat",
            played_on=datetime.date.today(),
            series_count=2,
            money={
                "entry_fee": "6.00",
                "table_fee": "1.00",
                "lost_game_fees": [{"from": 1, "amount": "0.50"}, {"from": 4, "amount": "1.00"}],
                "payout": {"series_prize": "2.00"},
            },
        )
        evening_services.players_add(
            evening=evening, names=["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"]
        )
        evening_services.series_draw(evening=evening, seed=4711)
        allowed.update({"Preisskat", "Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"})
        yield {
            "evening": evening,
            "circle": circle,
            "season": season,
            "player": player,
            "owner": owner,
            "allowed": allowed,
        }
        transaction.set_rollback(True)


def players_of(circle: Circle) -> list[int]:
    return list(Player.objects.filter(circle=circle).order_by("pk").values_list("pk", flat=True))


def pages(world) -> list[str]:
    c, s, p = world["circle"].pk, world["season"], world["player"].pk
    found = [
        "/", "/new/", "/new/skat/", "/new/pitch/", "/new/manipulation/", "/offline/",
        "/referee/", "/rules/", "/rules/skat/", "/rules/pitch/", "/rules/manipulation/",
        "/api/", "/mine/", "/circles/new/", f"/circles/{c}/", f"/circles/{c}/settings/",
        f"/circles/{c}/players/", f"/circles/{c}/players/{p}/", f"/circles/{c}/seasons/{s.pk}/",
        f"/circles/{c}/seasons/{s.pk}/edit/", f"/circles/{c}/seasons/new/",
        f"/standings/{s.view_token}/", "/s/no-such-sheet/", "/rules/chess/",
        "/accounts/login/", "/accounts/signup/", "/accounts/password/",
        "/accounts/password/reset/", "/accounts/password/reset/sent/",
        # The referee's tools, answered and refused.
        "/referee/skat/value/?game=grand&bid=24&matadors_direction=with&matadors_count=2&outcome=won",
        "/referee/skat/value/?game=grand&bid=24&matadors_count=9&result_by=points&declarer_points=200&declarer_tricks=3",
        "/referee/skat/value/?game=null&bid=23&outcome=won",
        "/referee/skat/bid/?game=grand&hand=on&cards=JS&cards=JH",
        "/referee/skat/trick/?game=grand&card_1=AC&card_2=JD&card_3=10C",
        "/referee/skat/trick/?game=null&card_1=10H&card_2=10H&card_3=KH",
        "/referee/skat/follow/?game=grand&led=AC&hand=JC&hand=7C&hand=8H&played=7C",
        "/referee/skat/follow/?game=spades&led=AH&hand=JC&hand=7C&hand=8D&played=8D",
        "/referee/skat/bids/",
        "/referee/pitch/", "/referee/manipulation/",
    ]  # fmt: skip
    # A club evening's pages, and the printed Spielliste (filled and blank).
    evening = world["evening"]
    table = evening.series.get().tables.order_by("number").first()
    found += [
        "/evenings/new/", "/evenings/rules/", f"/e/{evening.organiser_token}/",
        f"/e/{evening.organiser_token}/series/1/print", f"/r/{evening.view_token}/",
        f"/e/{evening.organiser_token}/tables/{table.pk}/",
        f"/r/{evening.view_token}/players/{table.seats.first().player_id}",
        f"/r/{evening.view_token}/list",
        f"/p/{table.seats.first().player.token}/",
        f"/e/{evening.organiser_token}/money/", f"/e/{evening.organiser_token}/money/rules",
        f"/e/{evening.organiser_token}/money/print",
        f"/evenings/circles/{c}/seasons/{s.pk}/cash-box",
        f"/r/{evening.view_token}/screen", f"/t/{table.sheet.edit_token}/sign",
        "/rules/skat/list?players=4", "/rules/skat/list?players=7",
    ]  # fmt: skip
    # Every player's page: one of them shows a biggest game, kept by its English name.
    found += [f"/circles/{c}/players/{pk}/" for pk in players_of(world["circle"])]
    for game in ("skat", "pitch", "manipulation"):
        circle_sheets = Sheet.objects.filter(game=game, circle_link__circle=world["circle"])
        for sheet in circle_sheets.order_by("-pk")[:2]:
            edit, view = sheet.edit_token, sheet.view_token
            found += [
                f"/s/{edit}/", f"/v/{view}/", f"/s/{edit}/history/", f"/s/{edit}/chart",
                f"/s/{edit}/deals/1/", f"/s/{edit}/deals/1/explain", f"/s/{edit}/?deals=all",
                f"/v/{view}/chart",
            ]  # fmt: skip
            if game == "skat":
                found += [f"/s/{edit}/list", f"/v/{view}/list"]
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_page_shows_english(world, language):
    messages = english_messages(language)
    client = Client()
    client.force_login(world["owner"])
    visitor = Client()  # the pages for logging in and signing up, as a visitor sees them
    problems = {}
    for path in pages(world):
        anonymous = path.startswith("/accounts/") and path != "/accounts/password/"
        response = (visitor if anonymous else client).get(f"/{language}{path}")
        # Answered, or refused with its message (a 4xx page), never sent elsewhere.
        assert response.status_code < 300 or 400 <= response.status_code < 500, path
        allowed = world["allowed"] | (API_VALUES if path == "/api/" else set())
        found = leftovers(visible(response.content.decode()), language, allowed, messages)
        if found:
            problems[path] = found
    assert not problems, "\n".join(
        f"{path}:\n  " + "\n  ".join(dict.fromkeys(found)) for path, found in problems.items()
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_deal_is_explained_in_the_readers_language(world, language):
    sheet = Sheet.objects.filter(game="skat").order_by("-pk").first()
    client = Client()
    page = client.get(f"/{language}/s/{sheet.edit_token}/")
    key = re.search(r'name="idempotency_key" value="([^"]+)"', page.content.decode())
    version = re.search(r'name="version" value="(\d+)"', page.content.decode())
    response = client.post(
        f"/{language}/s/{sheet.edit_token}/",
        {"game": "grand", "bid": "999", "idempotency_key": key[1], "version": version[1]},
    )
    assert 400 <= response.status_code < 500
    found = leftovers(
        visible(response.content.decode()),
        language,
        world["allowed"],
        english_messages(language),
    )
    assert not found, found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_password_mail_is_in_the_readers_language(world, language):
    user = world["owner"]
    user.email = "owner@example.org"
    user.save()
    mail.outbox = []
    Client().post(f"/{language}/accounts/password/reset/", {"email": "owner@example.org"})
    assert len(mail.outbox) == 1
    sent = mail.outbox[0]
    texts = [sent.subject, *html.unescape(sent.body).splitlines()]
    found = leftovers(
        [t for t in texts if t.strip()], language, world["allowed"], english_messages(language)
    )
    assert not found, found
    assert f"/{language}/accounts/password/reset/" in sent.body  # the link keeps the language


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_api_answers_in_the_requests_language(world, language):
    client = Client()
    answers = [
        client.post(
            "/api/v1/skat/score",
            body,
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
        ).json()
        for body in (
            {"game": "grand", "bid": 24, "outcome": "won", "matadors": {"with": 2}},
            {"game": "grand", "bid": 24, "outcome": "won", "matadors": {"with": 9}},
            {"game": "chess"},
        )
    ]
    texts = [
        *answers[0]["explanation"],
        *(p["message"] for a in answers[1:] for p in a["errors"]),
    ]
    found = leftovers(texts, language, world["allowed"], english_messages(language))
    assert not found, found


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_catalogue_is_complete(language):
    """No untranslated and no fuzzy entry (the header aside)."""
    text = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    entries = [e for e in text.split("\n\n") if "msgid " in e and not e.lstrip().startswith("#~")]
    fuzzy = [e for e in entries[1:] if re.search(r"^#, .*fuzzy", e, re.M)]
    empty = [e for e in entries[1:] if re.search(r'^msgstr(\[\d\])? ""\n?(?!")', e + "\n", re.M)]
    assert not fuzzy, fuzzy[:5]
    assert not empty, empty[:5]
