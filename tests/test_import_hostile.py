"""``manage.py import_circle FILE`` treats the file as hostile input (issue 19's audit).

Every case starts from a real export (``tests.test_circles_transfer.build_circle``:
members, players, two seasons, Skat, Pitch and Manipulation sheets with deals, an
undone round and a correction in the change log) and damages it in one place. Each
bad file is answered with a one-line ``CommandError`` that says what is wrong where,
and nothing is stored. The club's export (``build_club``: a sheet in the trash, usual
money rules, a Skat evening with its cash box and a Pitch night) is damaged the same
way in every field of its evenings. The good file imports with new links only (an export holds
none, an older one's are never used), its pages answer, and no account is attached or
made unless the operator maps it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.test import Client
from django.urls import reverse

from circles.models import (
    Circle,
    CircleSheet,
    Membership,
    Player,
    Season,
    SeatPlayer,
    SheetResult,
    StandingsChange,
)
from circles.transfer import export_circle
from evenings.models import (
    BillChange,
    Evening,
    EveningChange,
    EveningPlayer,
    EveningTable,
    Payment,
    Series,
    TableSeat,
)
from games import services as sheet_services
from games.models import Hand, Seat, Sheet, SheetEvent
from tests.test_circles_transfer import _Sink, build_circle, build_club

pytestmark = pytest.mark.django_db

User = get_user_model()

STORED = (
    Circle,
    CircleSheet,
    Hand,
    Membership,
    Player,
    Season,
    Seat,
    SeatPlayer,
    Sheet,
    SheetEvent,
    SheetResult,
    StandingsChange,
    User,
    Evening,
    EveningPlayer,
    Series,
    EveningTable,
    TableSeat,
    EveningChange,
    Payment,
    BillChange,
)
# The export's owner olga is this account here.
OWNER = ["--map-user", "olga=olga_here"]
URLSAFE = re.compile(r"[A-Za-z0-9_-]{32,64}")

# Where things are in the export (sheets in the order they were started):
# 0 Skat of three (corrected after the evening), 1 Skat of four, 2 Pitch,
# 3 Manipulation, 4 Manipulation whose last round is undone (hands.1), 5 Pitch
# practice game. Players: 0 Olga, 1 Ben, 2 Gus, 3 Ana Lee, 4 Dan Roe. Members:
# 0 olga (owner), 1 ben, 2 cem (owner). Seasons: 0 Winter, 1 Spring. Changes:
# 0 deal 2 of sheet 0 corrected, 1 sheet 5 left out of the standings.


@pytest.fixture(scope="module")
def exported(django_db_setup, django_db_blocker) -> tuple[str, frozenset[str]]:
    """One real export for the whole module, and the links (tokens) its circle had,
    made in a transaction that is undone."""
    with django_db_blocker.unblock(), transaction.atomic():
        text = json.dumps(export_circle(build_circle()))
        links = frozenset(tokens_here())
        transaction.set_rollback(True)
    return text, links


@pytest.fixture
def export_text(exported) -> str:
    return exported[0]


@pytest.fixture
def old_links(exported) -> frozenset[str]:
    """The links of the exported circle on the server it came from."""
    return exported[1]


@pytest.fixture
def document(export_text) -> dict:
    User.objects.create_user("olga_here", "olga@here.example", "pw-long-enough-1")
    return json.loads(export_text)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in STORED}


def write(tmp_path: Path, content: dict | bytes | str) -> Path:
    path = tmp_path / "circle.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_text(json.dumps(content), encoding="utf-8")
    return path


def run(path: Path, *options: str) -> str:
    out = _Sink()
    call_command("import_circle", str(path), *options, stdout=out, stderr=_Sink())
    return out.text


def refused(tmp_path: Path, content: dict | bytes | str, *options: str) -> str:
    """The command's one-line message for a file it refuses; nothing was stored."""
    before = counts()
    path = write(tmp_path, content)
    with pytest.raises(CommandError) as error:
        run(path, *(options or OWNER))
    message = str(error.value)
    assert message.strip()
    assert "\n" not in message
    assert "Traceback" not in message
    assert len(message) < 1000
    assert counts() == before
    return message


def part(document: Any, path: str) -> tuple[Any, Any]:
    """The container holding ``path`` ("sheets.0.hands.2.number") and its last key."""
    *parents, last = path.split(".")
    for key in parents:
        document = document[int(key) if isinstance(document, list) else key]
    return document, int(last) if isinstance(document, list) else last


def put(path: str, value: Any) -> Callable[[dict], None]:
    def change(document: dict) -> None:
        target, key = part(document, path)
        target[key] = value

    return change


def drop(path: str) -> Callable[[dict], None]:
    def change(document: dict) -> None:
        target, key = part(document, path)
        del target[key]

    return change


def same(path: str, as_: str) -> Callable[[dict], None]:
    """The value at ``path`` becomes the one at ``as_``."""

    def change(document: dict) -> None:
        source, key = part(document, as_)
        put(path, source[key])(document)

    return change


def renumber(sheet: int, shift: int) -> Callable[[dict], None]:
    def change(document: dict) -> None:
        for hand in document["sheets"][sheet]["hands"]:
            hand["number"] += shift

    return change


def deal_after_the_end(document: dict) -> None:
    hands = document["sheets"][0]["hands"]
    hands.append({**hands[0], "number": 4})


def nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def case(path: str, value: Any, name: str, *, where: str | None = None) -> Any:
    """The field at ``path`` set to ``value``; the message names ``where`` (the field
    itself unless said otherwise)."""
    return pytest.param(put(path, value), where or path, id=name)


def other(damage: Callable[[dict], None], where: str, name: str) -> Any:
    return pytest.param(damage, where, id=name)


MOVE = "changes.0.moves.0"
MONEY = "circle.evening_money"
CASES = [
    # Finding 1: the change log's moves are read by the standings pages and the API.
    case(f"{MOVE}.before", "12", "1-before-text"),
    case(f"{MOVE}.after", "abc", "1-after-letters"),
    case(f"{MOVE}.before", 1.5, "1-before-float"),
    case(f"{MOVE}.after", True, "1-after-bool"),
    case(f"{MOVE}.after", 2**40, "1-after-huge"),
    case(f"{MOVE}.player", "1", "1-player-text"),
    case(f"{MOVE}.player", 10**6, "1-player-unknown"),
    case(f"{MOVE}.name", "x" * 41, "1-name-long"),
    case(f"{MOVE}.name", 7, "1-name-number"),
    case(f"{MOVE}.extra", 1, "1-move-extra-key", where=MOVE),
    other(drop(f"{MOVE}.name"), MOVE, "1-move-missing-key"),
    case(MOVE, "Olga", "1-move-text"),
    case("changes.0.moves", {"player": 1}, "1-moves-mapping"),
    case("changes.0.change", "rewritten", "1-change-kind"),
    case("changes.0.number", "2", "1-number-text"),
    case("changes.0.number", 0, "1-number-zero"),
    case("changes.0.game", "chess", "1-game-unknown"),
    case("changes.0.game", "pitch", "1-game-not-its-sheets"),
    case("changes.0.played_on", "2020-01-01", "1-day-not-its-sheets"),
    case("changes.0.sheet", 99, "1-sheet-missing"),
    case("changes.0.sheet", -1, "1-sheet-negative"),
    case("changes.0.sheet", True, "1-sheet-bool"),
    # Finding 3: live deals numbered 1..n, each one (and each undone one) through the referee.
    case("sheets.1.hands.3.number", 7, "3-gap", where="sheets.1.hands"),
    case("sheets.1.hands.3.number", 3, "3-twice", where="sheets.1.hands"),
    other(renumber(1, -1), "sheets.1.hands", "3-from-zero"),
    other(renumber(1, 1), "sheets.1.hands", "3-from-two"),
    case("sheets.1.hands.3.number", 2**40, "3-number-huge"),
    case("sheets.0.hands.0.entry", {"declarer": "Ben"}, "3-referee", where="sheets.0.hands.0"),
    other(deal_after_the_end, "sheets.0.hands.3", "3-after-the-end"),
    case(
        "sheets.4.hands.1.entry", {"penalties": [0]}, "3-undone-refused", where="sheets.4.hands.1"
    ),
    case("sheets.4.hands.1.number", "2", "3-undone-number-text"),
    case("sheets.0.hands.0.entry", "grand", "3-entry-text"),
    case("sheets.0.hands.0.entry", None, "3-entry-null"),
    # Finding 5: a member is an owner or a member.
    case("members.0.role", "superuser", "5-superuser"),
    case("members.1.role", "admin", "5-unmapped-admin"),
    case("members.0.role", None, "5-role-null"),
    # Finding 6: seasons go through the season form's checks.
    case("seasons.0.ends_on", "2024-12-01", "6-ends-before-start"),
    case("seasons.1.starts_on", "2025-02-01", "6-overlap"),
    case("seasons.0.starts_on", "2025-02-30", "6-no-such-day"),
    case("seasons.0.starts_on", 20250101, "6-day-number"),
    case("seasons.1.planned_evenings", 0, "6-no-evenings"),
    case("seasons.1.planned_evenings", 2**70, "6-evenings-huge"),
    case("seasons.1.planned_evenings", "10", "6-evenings-text"),
    case("seasons.1.planned_evenings", True, "6-evenings-bool"),
    case("seasons.1.skat_rules", {"rank_by": "best"}, "6-rules"),
    case("seasons.1.skat_rules", "average", "6-rules-text"),
    case("seasons.0.name", "", "6-name-empty"),
    case("seasons.0.name", "x" * 61, "6-name-long"),
    case("seasons.0.name", "Win\x00ter", "6-name-nul"),
    case("seasons.0.name", "Win\x07ter", "6-name-bell"),
    # Finding 7: names and options as the pages check them.
    case("circle.name", "x" * 61, "7-circle-long"),
    case("circle.name", "", "7-circle-empty"),
    case("circle.name", "Tuesday\x00club", "7-circle-nul"),
    case("circle.name", "Tuesday\x07club", "7-circle-bell"),
    case("players.1.name", "x" * 41, "7-player-long"),
    case("players.1.name", "Be\x00n", "7-player-nul"),
    case("players.1.name", "\x1b[31mBen", "7-player-escape"),
    case("players.1.name", "\ud800", "7-player-surrogate"),
    case("players.1.name", "Ben\x7f", "7-player-delete"),
    case("players.1.name", "\x9b31mBen", "7-player-c1-escape"),
    case("players.1.name", "OLGA", "7-two-players-one-name"),
    case("players.0.shown_as", "nickname", "7-shown-as"),
    case("sheets.2.seats.0.name", "x" * 41, "7-seat-long", where="sheets.2"),
    case("sheets.2.seats.0.name", "A\x00na", "7-seat-nul", where="sheets.2"),
    case("sheets.2.seats.0.name", "\x1b[2J", "7-seat-escape"),
    case("sheets.2.seats.0.name", "An\x08a", "7-seat-backspace"),
    case(f"{MOVE}.name", "Ol\x1bga", "7-move-escape"),
    case("sheets.2.seats.1.name", "Ana Lee", "7-two-seats-one-name", where="sheets.2"),
    case("sheets.0.options", {"series_deals": -1}, "7-options-value"),
    case("sheets.0.options", {"kontra_re": "yes"}, "7-options-type"),
    case("sheets.0.options", {"x": 1}, "7-options-unknown"),
    case("sheets.0.options", "fast", "7-options-text"),
    case("sheets.0.first_dealer", 9, "7-first-dealer"),
    case("sheets.0.game", "chess", "7-game"),
    other(drop("sheets.0.seats.2"), "sheets.0", "7-too-few-seats"),
    other(
        same("sheets.0.seats.1.player", "sheets.0.seats.0.player"),
        "sheets.0.seats.1.player",
        "7-one-player-two-seats",
    ),
    case("sheets.0.seats.0.player", 10**6, "7-seat-player-unknown"),
    case("sheets.0.seats.0.position", 5, "7-seat-position", where="sheets.0.seats"),
    case("sheets.0.played_on", "2999-01-01", "7-played-in-the-future"),
    # Finding 8: huge numbers, deep nesting, wrong shapes.
    case("version", 2**70, "8-version-huge"),
    case("version", True, "8-version-bool"),
    case("version", "1", "8-version-text"),
    case("players.0.id", 2**70, "8-player-id-huge"),
    case("players.0.id", "1", "8-player-id-text"),
    case("players.1.id", 0, "8-player-id-zero"),
    case("sheets.0.seats.0.position", 2**62, "8-position-huge"),
    case("sheets.0.version", 2**40, "8-sheet-version-huge"),
    case("sheets.0.hands.0.entry", nested(500), "8-nested-500", where="deep"),
    case("sheets.0.options", nested(100), "8-nested-100", where="deep"),
    other(drop("circle.name"), "circle.name", "8-missing-circle-name"),
    other(drop("sheets.0.hands"), "sheets.0.hands", "8-missing-hands"),
    other(drop("changes"), "changes", "8-missing-changes"),
    other(drop("circle"), "circle", "8-missing-circle"),
    case("members", "olga", "8-members-text"),
    case("players.0", 5, "8-player-number"),
    case("sheets.0.seats", {}, "8-seats-mapping"),
    case("players.2.guest", "yes", "8-guest-text"),
    case("sheets.5.excluded", "no", "8-excluded-text"),
    case("players.0.erased", 1, "8-erased-number"),
    other(same("players.1.id", "players.0.id"), "players.1.id", "8-two-players-one-id"),
    case("players.0.user", "nobody", "8-player-user-unknown"),
    case("players.1.user", "olga", "8-two-players-one-user"),
    case("members.1.username", "olga", "8-member-twice"),
    case("members.0.username", "", "8-member-no-name"),
    case("members.0.username", "ol\x1bga", "8-member-escape"),
    # Finding 9: moments are kept, but checked.
    case("circle.created_at", "yesterday", "9-words"),
    case("circle.created_at", "2025-01-01T10:00:00", "9-naive"),
    case("players.0.created_at", "1850-01-01T00:00:00+00:00", "9-too-old"),
    case("seasons.0.created_at", "9999-01-01T00:00:00+00:00", "9-future"),
    case("members.0.joined_at", "2025-13-01T00:00:00+00:00", "9-no-such-month"),
    case("members.0.joined_at", 5, "9-number"),
    case("sheets.0.created_at", None, "9-null"),
    case("sheets.4.hands.1.removed_at", "soon", "9-removed-words"),
    case("changes.0.at", "x" * 5000, "9-long-text"),
    # Version 2: a sheet in the trash since a real moment, the circle's usual money rules
    # as the money form takes them, and the keys version 2 added are there.
    case("sheets.0.deleted_at", "9999-01-01T00:00:00+00:00", "v2-trashed-in-the-future"),
    case("sheets.0.deleted_at", "1999-12-31T23:00:00+00:00", "v2-trashed-too-early"),
    case("sheets.0.deleted_at", "2025-01-01T10:00:00", "v2-trashed-naive"),
    case("sheets.0.deleted_at", "last week", "v2-trashed-words"),
    case("sheets.0.deleted_at", 5, "v2-trashed-number"),
    other(drop("sheets.0.deleted_at"), "sheets.0.deleted_at", "v2-trashed-missing"),
    case(
        "circle.evening_money", {"entry_fee": "6.005"}, "v2-money-fee", where=f"{MONEY}.entry_fee"
    ),
    case(
        "circle.evening_money", {"entry_fee": -3}, "v2-money-negative", where=f"{MONEY}.entry_fee"
    ),
    case("circle.evening_money", {"entry_fee": 6.5}, "v2-money-float", where=f"{MONEY}.entry_fee"),
    case(
        "circle.evening_money", {"currency": "XYZ"}, "v2-money-currency", where=f"{MONEY}.currency"
    ),
    case(
        "circle.evening_money",
        {"lost_game_fees": [{"from": 0, "amount": "1.00"}]},
        "v2-money-tier",
        where=f"{MONEY}.lost_game_fees.0.from",
    ),
    case(
        "circle.evening_money",
        {"payout": {"curve": "steep"}},
        "v2-money-curve",
        where=f"{MONEY}.payout.curve",
    ),
    case("circle.evening_money", "EUR", "v2-money-text"),
    case("circle.evening_money", [], "v2-money-list"),
    other(drop("circle.evening_money"), MONEY, "v2-money-missing"),
    case("evenings", {}, "v2-evenings-mapping"),
    case("evenings", [5], "v2-evening-number", where="evenings.0"),
    other(drop("evenings"), "evenings", "v2-evenings-missing"),
]


@pytest.mark.parametrize(("damage", "where"), CASES)
def test_a_hostile_file_is_refused_with_a_message_and_stores_nothing(
    document, tmp_path, damage, where
):
    """issue 19, findings 1 and 3 to 9: one damaged field, one message naming it."""
    damage(document)
    assert where in refused(tmp_path, document)


def _fields(document: dict) -> list[str]:
    """The field paths of the first member, player, season, sheet (its first seat and
    deal) and change (its first move), the circle and the head: the values the import
    reads. The e-mail addresses are not among them: the import never uses them (nor
    the links, or tokens, an older export holds)."""
    ignored = {"invite_token", "view_token", "edit_token", "email"}
    paths = [key for key in document if key not in ("circle", *LISTS)]
    paths += [f"circle.{key}" for key in document["circle"] if key not in ignored]
    for key in LISTS:
        first = document[key][0]
        paths += [f"{key}.0.{field}" for field in first if field not in ignored]
    sheet, change = document["sheets"][0], document["changes"][0]
    paths += [f"sheets.0.seats.0.{field}" for field in sheet["seats"][0]]
    paths += [f"sheets.0.hands.0.{field}" for field in sheet["hands"][0]]
    paths += [f"changes.0.moves.0.{field}" for field in change["moves"][0]]
    return paths


LISTS = ("members", "players", "seasons", "sheets", "changes")


def test_every_field_of_the_wrong_type_is_refused(document, tmp_path):
    """issue 19, finding 8: a wrong type in any field is a message, never a traceback."""
    fields = _fields(document)
    assert len(fields) > 50
    for field in fields:
        changed = json.loads(json.dumps(document))
        target, key = part(changed, field)
        # A list is no field's type but that of lists; those get a text instead.
        target[key] = "x" if isinstance(target[key], list) else [1]
        message = refused(tmp_path, changed)
        assert field in message, (field, message)


RAW = [
    pytest.param(b"[" * 200_000 + b"]" * 200_000, "deep", id="8-nested-200000"),
    pytest.param(
        b'{"format": "scorekeeper-circle", "x": ' + b"[" * 200_000, "deep", id="8-nested-open"
    ),
    pytest.param(b'{"version": 1' + b"0" * 5000 + b"}", "digits", id="8-int-5000-digits"),
    pytest.param(b'{"version": NaN}', "NaN", id="8-nan"),
    pytest.param(b'{"version": -Infinity}', "Infinity", id="8-infinity"),
    pytest.param(b'{"version": 1e999}', "1e999", id="8-float-overflow"),
    pytest.param('{"format": "Übung"}'.encode("latin-1"), "UTF-8", id="8-not-utf8"),
    pytest.param(b"\xef\xbb\xbf{}", "JSON", id="8-bom"),
    pytest.param(b"", "JSON", id="8-empty"),
    pytest.param(b"{not json", "JSON", id="8-broken"),
    pytest.param(b'["scorekeeper-circle"]', "not a Scorekeeper circle export", id="8-list"),
    pytest.param(b'"scorekeeper-circle"', "not a Scorekeeper circle export", id="8-string"),
    pytest.param(b"12", "not a Scorekeeper circle export", id="8-number"),
    pytest.param(b"null", "not a Scorekeeper circle export", id="8-null"),
]


@pytest.mark.parametrize(("content", "words"), RAW)
def test_a_file_that_is_no_export_is_refused_with_a_message(document, tmp_path, content, words):
    """issue 19, finding 8: what JSON itself cannot take is a message too."""
    assert words in refused(tmp_path, content)


# -- What a good file does ---------------------------------------------------------------


def tokens_here() -> list[str]:
    found = list(Circle.objects.values_list("invite_token", flat=True))
    found += Season.objects.values_list("view_token", flat=True)
    for edit, view in Sheet.objects.values_list("edit_token", "view_token"):
        assert edit != view
        found += [edit, view]
    return found


def pages_answer(account) -> None:
    """Every page the audit saw fail answers for the imported circle."""
    circle = Circle.objects.get()
    client = Client()
    client.force_login(account)
    assert client.get(reverse("circles:mine")).status_code == 200
    assert client.get(reverse("circles:circle", args=[circle.pk])).status_code == 200
    for season in Season.objects.all():
        page = reverse("circles:season", args=[circle.pk, season.pk])
        assert client.get(page).status_code == 200
        public = Client()
        assert (
            public.get(reverse("circles:season-public", args=[season.view_token])).status_code
            == 200
        )
        api = public.get(
            f"/api/v1/seasons/{season.pk}/standings",
            HTTP_AUTHORIZATION=f"Bearer {season.view_token}",
        )
        assert api.status_code == 200
    for sheet in Sheet.objects.all():
        assert Client().get(reverse("games:sheet", args=[sheet.edit_token])).status_code == 200
        assert Client().get(reverse("games:sheet-view", args=[sheet.view_token])).status_code == 200


def test_a_real_export_holds_no_link(export_text, old_links):
    """The export leaves out every link (token) of the circle: the file opens nothing
    on the server it came from."""
    assert len(old_links) == 1 + 2 + 2 * 6
    assert not [token for token in old_links if token in export_text]
    assert "token" not in export_text


def test_a_real_export_imports_with_new_links_and_its_pages_answer(document, old_links, tmp_path):
    """issue 19, finding 2: every link of the import is new, and the pages work."""
    out = run(write(tmp_path, document), *OWNER)
    stored = tokens_here()
    assert len(stored) == len(set(stored)) == 1 + 2 + 2 * 6
    assert all(URLSAFE.fullmatch(token) for token in stored)
    assert not set(stored) & old_links
    assert "links" in out
    assert Hand.objects.filter(removed_at__isnull=False).count() == 1
    assert StandingsChange.objects.count() == 2
    pages_answer(User.objects.get(username="olga_here"))
    # The next round of the sheet left open follows its last one (finding 3).
    open_sheet = Sheet.objects.get(finished=False)
    outcome = sheet_services.hand_record(sheet=open_sheet, data={"penalties": [45, 0, 10]})
    assert outcome.hand.number == 2


def test_links_in_the_file_are_never_used(document, old_links, tmp_path):
    """issue 19, finding 2: an export holds no links, but an older one does. The
    circle's own links there, a token with "/", guessable tokens and an edit token
    equal to its view token change nothing: the import makes its own."""
    given = sorted(old_links)
    document["circle"]["invite_token"] = "a/b"
    document["seasons"][0]["view_token"] = "a"
    document["seasons"][1]["view_token"] = "b"
    for sheet, token in zip(document["sheets"], given, strict=False):
        sheet["edit_token"] = sheet["view_token"] = token
    document["sheets"][1]["edit_token"] = document["sheets"][1]["view_token"] = "../x?y#z"
    run(write(tmp_path, document), *OWNER)
    stored = tokens_here()
    assert all(URLSAFE.fullmatch(token) for token in stored)
    assert not set(stored) & (old_links | {"a/b", "a", "b", "../x?y#z"})
    pages_answer(User.objects.get(username="olga_here"))


def test_a_second_import_of_one_file_is_a_second_circle_with_links_of_its_own(document, tmp_path):
    """issue 19, finding 2: without trusting the file's links, an import is always a
    new circle; importing twice gives two circles that share no link."""
    path = write(tmp_path, document)
    run(path, *OWNER)
    first = set(tokens_here())
    run(path, *OWNER)
    assert Circle.objects.count() == 2
    assert len(set(tokens_here()) - first) == len(first)


def test_mapped_accounts_become_members_with_the_files_roles(document, tmp_path):
    """issue 19, finding 4: only accounts the operator maps are attached."""
    ben = User.objects.create_user("ben_here", "", "pw-long-enough-1")
    cem = User.objects.create_user("cem_here", "", "pw-long-enough-1")
    before = User.objects.count()
    out = run(
        write(tmp_path, document),
        *OWNER,
        "--map-user",
        "ben=ben_here",
        "--map-user",
        "cem=cem_here",
    )
    circle = Circle.objects.get()
    roles = dict(circle.memberships.values_list("user__username", "role"))
    assert roles == {"olga_here": "owner", "ben_here": "member", "cem_here": "owner"}
    assert Player.objects.get(name="Ben").user == ben
    assert Player.objects.get(name="Olga").user.username == "olga_here"
    assert not Player.objects.filter(user=cem).exists()
    assert Sheet.objects.filter(owner__username="olga_here").count() == 1
    assert User.objects.count() == before
    assert "ben_here (Member, ben in the export)" in out


def test_unmapped_accounts_are_not_attached_and_not_made(document, tmp_path):
    """issue 19, finding 4: an account here with a member's name is not that member,
    and no account is made from the file's e-mail addresses."""
    ben = User.objects.create_user("ben", "ben@example.org", "pw-long-enough-1")
    before = User.objects.count()
    out = run(write(tmp_path, document), *OWNER)
    circle = Circle.objects.get()
    assert list(circle.memberships.values_list("user__username", flat=True)) == ["olga_here"]
    assert not Membership.objects.filter(user=ben).exists()
    assert Player.objects.get(name="Ben").user is None
    assert User.objects.count() == before
    assert not User.objects.filter(username="cem").exists()
    assert not User.objects.filter(email="cem@example.org").exists()
    # Its players stay, under their names, for the members to claim.
    assert sorted(circle.players.values_list("name", flat=True)) == [
        "Ana Lee",
        "Ben",
        "Dan Roe",
        "Gus",
        "Olga",
    ]
    assert "ben, cem" in out
    assert "password" not in out


def test_an_owner_must_be_named(document, tmp_path):
    """issue 19, finding 4: without a mapped owner the circle would have none."""
    User.objects.create_user("ben_here", "", "pw-long-enough-1")
    message = refused(tmp_path, document, "--map-user", "ben=ben_here")
    assert "--map-user" in message
    assert "--owner" in message
    assert "olga, cem" in message


@pytest.mark.parametrize(
    ("options", "words"),
    [
        pytest.param(["--map-user", "olga"], "NAME=ACCOUNT", id="no-equals"),
        pytest.param(["--map-user", "olga="], "NAME=ACCOUNT", id="no-account"),
        pytest.param(["--map-user", "olga=nobody"], "nobody", id="no-such-account"),
        pytest.param([*OWNER, "--map-user", "olga=olga_here"], "olga", id="twice"),
        pytest.param([*OWNER, "--map-user", "zoe=olga_here"], "zoe", id="not-in-the-file"),
        pytest.param([*OWNER, "--map-user", "cem=olga_here"], "olga_here", id="one-account-twice"),
        pytest.param(["--owner", "nobody"], "nobody", id="no-such-owner"),
    ],
)
def test_a_mapping_that_does_not_fit_is_refused(document, tmp_path, options, words):
    """issue 19, finding 4: the operator's mapping is checked as the file is."""
    assert words in refused(tmp_path, document, *options)


def test_an_owner_named_here_owns_the_circle(document, tmp_path):
    """issue 19, finding 4: ``--owner`` makes an account here the owner, nobody else
    is attached."""
    admin = User.objects.create_user("admin", "", "pw-long-enough-1")
    run(write(tmp_path, document), "--owner", "admin")
    circle = Circle.objects.get()
    assert list(circle.memberships.values_list("user", "role")) == [(admin.pk, "owner")]
    assert not Player.objects.exclude(user=None).exists()
    pages_answer(admin)


# -- Club evenings -----------------------------------------------------------------------

# The club's export (tests.test_circles_transfer.build_club): its owner fiona is this
# account here. Evening 0 "Club night" (Skat, with money): players 0 Fiona (the circle's
# player), 1 Anna, 2 Bernd (team "Aces", categories), 3 Carla, 4 Dieter, 5 Eva, 6 Frank
# (left); series 0 with table 0 of four (sheets.0) and table 1 of three on paper
# (sheets.1), series 1 with two tables of three (sheets.2 and 3) and a swap; one change
# note, three payments (the second undone), one bill change. Evening 1 "Pitch party"
# (progressive, match points): a table of four and one player sitting out each round
# (sheets.4 and 5). sheets.6 is a Skat sheet of three in the trash, no table's.
CLUB_OWNER = ["--map-user", "fiona=fiona_here"]
E = "evenings.0"
P = "evenings.1"
T = f"{E}.series.0.tables.0"
SEAT = f"{T}.seats.0"
SWAP = f"{E}.series.1.swaps.0"
NOTE = f"{E}.changes.0"
PAID = f"{E}.payments.0"
BILL = f"{E}.bill_changes.0"


@pytest.fixture(scope="module")
def club_text(django_db_setup, django_db_blocker) -> str:
    with django_db_blocker.unblock(), transaction.atomic():
        text = json.dumps(export_circle(build_club()))
        transaction.set_rollback(True)
    return text


@pytest.fixture
def club(club_text) -> dict:
    User.objects.create_user("fiona_here", "fiona@here.example", "pw-long-enough-1")
    return json.loads(club_text)


def club_refused(tmp_path: Path, document: dict) -> str:
    return refused(tmp_path, document, *CLUB_OWNER)


CLUB_CASES = [
    # The evening's settings, as evening_create checks them.
    case(f"{E}.name", "", "e-name-empty"),
    case(f"{E}.name", "x" * 81, "e-name-long"),
    case(f"{E}.name", "Club\x00night", "e-name-nul"),
    case(f"{E}.name", "Club\x1b[2Jnight", "e-name-escape"),
    case(f"{E}.played_on", "2025-02-30", "e-day-none"),
    case(f"{E}.played_on", 20250101, "e-day-number"),
    case(f"{E}.game", "chess", "e-game"),
    case(f"{E}.series_count", 0, "e-series-none"),
    case(f"{E}.series_count", 21, "e-series-many"),
    case(f"{E}.series_count", "3", "e-series-text"),
    case(f"{E}.series_count", True, "e-series-bool"),
    case(f"{E}.series_count", 1, "e-series-fewer-than-drawn", where=f"{E}.series.1.number"),
    case(f"{E}.series_deals", {"4": 30}, "e-deals-not-multiple", where=f"{E}.series_deals.4"),
    case(f"{E}.series_deals", {"7": 36}, "e-deals-table-size", where=f"{E}.series_deals.7"),
    case(f"{E}.series_deals", {"3": 10**6}, "e-deals-huge", where=f"{E}.series_deals.3"),
    case(f"{E}.series_deals", "36", "e-deals-text"),
    case(f"{E}.table_order", "random", "e-order"),
    case(f"{E}.sit_out", "yes", "e-sit-out-text"),
    case(f"{E}.movement", "progressive", "e-movement-not-pitch"),
    case(f"{E}.movement", "zigzag", "e-movement-unknown"),
    case(f"{E}.counts", "match_points", "e-counts-not-pitch"),
    case(f"{E}.counts", "goals", "e-counts-unknown"),
    case(f"{E}.round_format", "hands", "e-round-format-not-pitch"),
    case(f"{P}.round_format", "hands", "p-round-hands-missing", where=f"{P}.round_hands"),
    case(f"{P}.round_hands", 61, "p-round-hands-many"),
    case(f"{P}.round_minutes", "5", "p-round-minutes-text"),
    case(f"{P}.pitch_options", {"target": 3}, "p-options-value", where=f"{P}.pitch_options.target"),
    case(f"{P}.pitch_options", {"speed": 1}, "p-options-unknown", where=f"{P}.pitch_options.speed"),
    case(f"{P}.pitch_options", {"hands": 4}, "p-options-hands", where=f"{P}.pitch_options.hands"),
    case(f"{P}.pitch_options", "fast", "p-options-text"),
    case(f"{E}.money", {"entry_fee": "6.005"}, "e-money-fee", where=f"{E}.money.entry_fee"),
    case(f"{E}.money", {"currency": "XYZ"}, "e-money-currency", where=f"{E}.money.currency"),
    case(
        f"{E}.money",
        {"payout": {"amounts": ["5", "9"], "curve": "manual"}},
        "e-money-prizes-rising",
        where=f"{E}.money.payout.amounts",
    ),
    case(f"{E}.money", [1], "e-money-list"),
    case(f"{E}.money", "6.00", "e-money-text"),
    case(f"{E}.created_by", "fi\x1bona", "e-creator-escape"),
    case(f"{E}.created_by", 5, "e-creator-number"),
    case(f"{E}.version", -1, "e-version-negative"),
    case(f"{E}.version", 2**40, "e-version-huge"),
    case(f"{E}.created_at", "9999-01-01T00:00:00+00:00", "e-made-in-the-future"),
    case(f"{E}.created_at", None, "e-made-null"),
    other(drop(f"{E}.players"), f"{E}.players", "e-roll-missing"),
    case(f"{E}.series", {}, "e-series-mapping"),
    # The roll, as players_add checks it.
    case(f"{E}.players.0.id", 0, "r-id-zero"),
    case(f"{E}.players.0.id", "1", "r-id-text"),
    other(same(f"{E}.players.1.id", f"{E}.players.0.id"), f"{E}.players.1.id", "r-id-twice"),
    case(f"{E}.players.1.name", "", "r-name-empty"),
    case(f"{E}.players.1.name", "x" * 41, "r-name-long"),
    case(f"{E}.players.1.name", "An\x00na", "r-name-nul"),
    case(f"{E}.players.1.name", "\u200b", "r-name-invisible"),
    case(f"{E}.players.2.name", "ANNA", "r-name-twice"),
    case(f"{E}.players.0.player", 10**6, "r-circle-player-unknown"),
    case(f"{E}.players.0.player", "1", "r-circle-player-text"),
    case(f"{E}.players.0.left", "no", "r-left-text"),
    case(f"{E}.players.1.team", "x" * 41, "r-team-long"),
    case(f"{E}.players.1.team", "Ac\x07es", "r-team-bell"),
    case(f"{E}.players.1.team", 5, "r-team-number"),
    case(f"{E}.players.1.tags", "women", "r-tags-text"),
    case(f"{E}.players.1.tags", [5], "r-tag-number", where=f"{E}.players.1.tags.0"),
    case(f"{E}.players.1.tags", ["x" * 31], "r-tag-long"),
    case(f"{E}.players.1.tags", ["a", "b", "c", "d", "e", "f"], "r-tags-many"),
    case(f"{E}.players.1.tags", ["wo\x1bmen"], "r-tag-escape", where=f"{E}.players.1.tags.0"),
    case(f"{E}.players.0.joined_at", "yesterday", "r-joined-words"),
    # Series, tables and seats, as the draw makes them.
    case(f"{E}.series.0.number", 2, "s-number-order"),
    case(f"{E}.series.0.number", 99, "s-number-above-count"),
    case(f"{E}.series.0.method", "progressive", "s-method-not-the-nights"),
    case(f"{P}.series.0.method", "lot", "s-method-not-the-movement"),
    case(f"{E}.series.0.seed", -1, "s-seed-negative"),
    case(f"{E}.series.0.seed", "7", "s-seed-text"),
    case(f"{E}.series.0.keep_apart", 1, "s-keep-apart-number"),
    case(f"{E}.series.0.attempt", 100, "s-attempt-many"),
    case(f"{E}.series.0.swaps", "x", "s-swaps-text"),
    case(f"{SWAP}.first", 10**6, "s-swap-unknown"),
    case(f"{SWAP}.second", "2", "s-swap-text"),
    case(f"{SWAP}.at", "soon", "s-swap-when"),
    case(
        f"{P}.series.0.sitting_out", [10**6], "s-out-unknown", where=f"{P}.series.0.sitting_out.0"
    ),
    case(f"{P}.series.0.sitting_out", ["1"], "s-out-text", where=f"{P}.series.0.sitting_out.0"),
    case(f"{P}.series.0.sitting_out", "x", "s-out-list"),
    other(
        same(f"{P}.series.0.sitting_out.0", f"{P}.series.0.tables.0.seats.0.player"),
        f"{P}.series.0.tables.0.seats.0.player",
        "s-out-and-seated",
    ),
    case(f"{E}.series.0.time_called_at", "x", "s-time-called"),
    case(f"{E}.series.0.closed", "yes", "s-closed-text"),
    case(f"{E}.series.0.created_at", None, "s-made-null"),
    case(f"{T}.number", 3, "t-number-order"),
    case(f"{T}.size", 6, "t-size-skat"),
    case(f"{P}.series.0.tables.0.size", 3, "t-size-pitch"),
    case(f"{T}.sheet", 99, "t-sheet-missing"),
    case(f"{T}.sheet", -1, "t-sheet-negative"),
    case(f"{T}.sheet", "0", "t-sheet-text"),
    case(f"{T}.sheet", 4, "t-sheet-other-game"),
    case(f"{T}.sheet", 6, "t-sheet-other-size"),
    other(
        same(f"{E}.series.1.tables.0.sheet", f"{E}.series.0.tables.1.sheet"),
        f"{E}.series.1.tables.0.sheet",
        "t-sheet-two-tables",
    ),
    other(
        same(f"{P}.series.0.tables.0.sheet", f"{T}.sheet"),
        f"{P}.series.0.tables.0.sheet",
        "t-sheet-two-evenings",
    ),
    case(f"{T}.deals", -1, "t-deals-negative"),
    case(f"{T}.deals", 40000, "t-deals-huge"),
    case(f"{T}.of", "4", "t-of-text"),
    case(f"{T}.paper", "no", "t-paper-text"),
    case(f"{T}.done", 1, "t-done-number"),
    case(f"{T}.signed_at", "2025-13-01T00:00:00+00:00", "t-signed-month"),
    case(f"{T}.last_entry_at", 5, "t-entry-number"),
    case(f"{T}.winning_team", 2, "t-winner-team"),
    case(f"{T}.ends_after", -1, "t-ends-after"),
    case(f"{T}.level_winner", 5, "t-level-winner"),
    other(drop(f"{T}.seats.3"), f"{T}.seats", "t-seat-missing"),
    case(f"{SEAT}.position", 1, "t-seat-position", where=f"{T}.seats"),
    case(f"{SEAT}.player", 10**6, "t-seat-player-unknown"),
    other(same(f"{T}.seats.1.player", f"{SEAT}.player"), f"{T}.seats.1.player", "t-seat-twice"),
    other(
        same(f"{E}.series.0.tables.1.seats.0.player", f"{SEAT}.player"),
        f"{E}.series.0.tables.1.seats.0.player",
        "t-seat-two-tables",
    ),
    case(f"{SEAT}.points", 2**40, "t-points-huge"),
    case(f"{SEAT}.points", "48", "t-points-text"),
    case(f"{SEAT}.won", -1, "t-won-negative"),
    case(f"{SEAT}.lost", 1.5, "t-lost-float"),
    case(f"{SEAT}.others_lost", True, "t-others-bool"),
    case(f"{SEAT}.signed", "yes", "t-signed-text"),
    # Change notes.
    case(f"{NOTE}.series", 9, "n-series"),
    case(f"{NOTE}.table", 9, "n-table"),
    case(f"{NOTE}.moves", "x", "n-moves-text"),
    case(f"{NOTE}.moves.0.player", 10**6, "n-player-unknown"),
    case(f"{NOTE}.moves.0.name", "x" * 41, "n-name-long"),
    case(f"{NOTE}.moves.0.name", "An\x1bna", "n-name-escape"),
    case(f"{NOTE}.moves.0.before", "12", "n-before-text"),
    case(f"{NOTE}.moves.0.after", True, "n-after-bool"),
    case(f"{NOTE}.moves.0.after", 2**40, "n-after-huge"),
    case(f"{NOTE}.moves.0.place_before", -1, "n-place-negative"),
    other(drop(f"{NOTE}.moves.0.place_after"), f"{NOTE}.moves.0.place_after", "n-place-missing"),
    case(f"{NOTE}.at", "x", "n-at"),
    # The cash box, in the evening's currency.
    case(f"{PAID}.player", 10**6, "m-player-unknown"),
    case(f"{PAID}.amount", "6.005", "m-amount-decimals"),
    case(f"{PAID}.amount", "-6", "m-amount-negative"),
    case(f"{PAID}.amount", "0", "m-amount-zero"),
    case(f"{PAID}.amount", 6.5, "m-amount-float"),
    case(f"{PAID}.amount", "abc", "m-amount-words"),
    case(f"{PAID}.amount", "999999", "m-amount-huge"),
    case(f"{PAID}.at", None, "m-at-null"),
    case(f"{PAID}.by", "x" * 151, "m-by-long"),
    case(f"{PAID}.by", "fi\x00ona", "m-by-nul"),
    case(f"{E}.payments.1.undone_at", "x", "m-undone-at"),
    case(f"{E}.payments.1.undone_by", 5, "m-undone-by-number"),
    case(f"{BILL}.player", 10**6, "b-player-unknown"),
    case(f"{BILL}.series", 9, "b-series"),
    case(f"{BILL}.table", 0, "b-table"),
    case(f"{BILL}.change", "rewritten", "b-change"),
    case(f"{BILL}.lost_before", -1, "b-lost-negative"),
    case(f"{BILL}.fee_before", "1.005", "b-fee-decimals"),
    case(f"{BILL}.fee_after", "-1", "b-fee-negative"),
    case(f"{BILL}.at", "x", "b-at"),
]


@pytest.mark.parametrize(("damage", "where"), CLUB_CASES)
def test_a_hostile_evening_is_refused_with_a_message_and_stores_nothing(
    club, tmp_path, damage, where
):
    """Every field of a club evening is checked as the evening's pages check it, and
    every reference (a player of its roll, a circle's player, a sheet of the file, a
    table of the evening) as one of the file's: one damaged field, one message naming
    it, nothing stored."""
    damage(club)
    assert where in club_refused(tmp_path, club)


def _evening_fields(document: dict) -> list[str]:
    """The field paths of the Skat evening: its own, and those of the first of each of
    its lists (player, series with its table and seat, swap, note with its move,
    payment, bill change)."""
    evening = document["evenings"][0]
    paths = [f"{E}.{key}" for key in evening]
    firsts = {
        f"{E}.players.0": evening["players"][0],
        f"{E}.series.0": evening["series"][0],
        T: evening["series"][0]["tables"][0],
        SEAT: evening["series"][0]["tables"][0]["seats"][0],
        SWAP: evening["series"][1]["swaps"][0],
        NOTE: evening["changes"][0],
        f"{NOTE}.moves.0": evening["changes"][0]["moves"][0],
        PAID: evening["payments"][0],
        BILL: evening["bill_changes"][0],
    }
    for prefix, item in firsts.items():
        paths += [f"{prefix}.{key}" for key in item]
    return paths


def test_every_field_of_an_evening_of_the_wrong_type_is_refused(club, tmp_path):
    """A wrong type in any field of an evening is a message naming it, never a
    traceback."""
    fields = _evening_fields(club)
    assert len(fields) == 88
    for field in fields:
        changed = json.loads(json.dumps(club))
        target, key = part(changed, field)
        target[key] = "x" if isinstance(target[key], list) else [1]
        message = club_refused(tmp_path, changed)
        assert field in message, (field, message)


def test_a_real_club_export_imports_with_new_evening_links(club, tmp_path):
    """The good file imports: its evenings, their rolls and cash boxes, with links of
    their own."""
    out = run(write(tmp_path, club), *CLUB_OWNER)
    assert Evening.objects.count() == 2
    assert Payment.objects.count() == 3
    assert BillChange.objects.count() == 1
    assert EveningChange.objects.count() == 1
    tokens = [
        *Evening.objects.values_list("organiser_token", flat=True),
        *Evening.objects.values_list("view_token", flat=True),
        *EveningPlayer.objects.values_list("token", flat=True),
    ]
    assert len(tokens) == len(set(tokens)) == 2 * 2 + 7 + 5
    assert all(URLSAFE.fullmatch(token) for token in tokens)
    assert "Club evenings: 2" in out
    assert Evening.objects.get(name="Club night").created_by.username == "fiona_here"
