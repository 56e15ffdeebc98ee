"""A whole circle as one JSON document and back (``circles.transfer`` and the
``export_circle`` / ``import_circle`` commands).

The round trip is checked the strict way: export, write the JSON text, empty the
database, make the members' accounts again, import with each member mapped to their
account, export again, and the two documents are the same (player ids are the
database's, so they are mapped first; an export holds no links); the standings read
the same too. A second circle (``build_club``) has a sheet in the trash, usual money
rules and club evenings (format version 2): they travel too, and a version 1 file still
imports. tests/test_import_hostile.py refuses damaged files.
"""

from __future__ import annotations

import copy
import dataclasses
import datetime
import json
import os
import stat
from collections.abc import Iterator

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from circles import services
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
from circles.results import rebuild_results
from circles.selectors import season_standings
from circles.transfer import export_chunks, export_circle, import_circle, read_document
from evenings import accounts as evening_accounts
from evenings import selectors as evening_selectors
from evenings import services as evening_services
from evenings import transfer as evenings_transfer
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
from evenings.rules import money as money_rules
from games import services as sheet_services
from games.models import Hand, Seat, Sheet, SheetEvent, SheetSnapshot
from games.rules.errors import RuleError
from games.selectors import current_state, sheet_state

pytestmark = pytest.mark.django_db

User = get_user_model()

POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def pitched(pitcher: int, bid: int | str, code: str) -> dict:
    return {"pitcher": pitcher, "bid": bid, "points": dict(zip(POINT_KEYS, code, strict=True))}


def skat(declarer: int, game: str, outcome: str, *, with_: int = 1, bid: int = 18, **rest) -> dict:
    return {
        "declarer": declarer,
        "game": game,
        "bid": bid,
        "matadors": {"with": with_},
        "outcome": outcome,
        **rest,
    }


# Three at the table, a series of three deals: Ben's Grand Hand with 2 won (+96),
# Ana's Clubs with 1 lost (−48), thrown in (ISkO 4.1, 5.3).
SKAT_THREE = [
    skat(1, "grand", "won", with_=2, bid=48, hand=True),
    skat(0, "clubs", "lost"),
    {"passed": True},
]
# Four at the table, the dealer sits out (Ana deals the first deal, Ben the second …).
SKAT_FOUR = [
    skat(1, "diamonds", "lost"),
    skat(2, "grand", "won"),
    {"passed": True},
    skat(0, "grand", "won"),
]
# A failed moon loses the game at once (10-Point Pitch, "Shooting the moon").
PITCH = [pitched(1, 5, "BBBBBAAA"), pitched(1, "moon", "BBBBBBBA")]
# Cem reaches 205 and the game ends; Ana wins with 45 (Manipulation, "End of the game").
MANIPULATION = [
    {"penalties": [0, 35, 60]},
    {"penalties": [45, 0, 10]},
    {"penalties": [0, 150, 135]},
]


def play(circle, game, names, deals, *, on, options=None, owner=None) -> CircleSheet:
    sheet = services.sheet_create_in_circle(
        circle=circle, game=game, players=names, options=options, owner=owner
    )
    for deal in deals:
        sheet_services.hand_record(sheet=sheet, data=deal)
    return services.sheet_set_played_on(link=CircleSheet.objects.get(sheet=sheet), played_on=on)


def build_circle() -> Circle:
    olga = User.objects.create_user("olga", "olga@example.org")
    ben = User.objects.create_user("ben", "ben@example.org")
    cem = User.objects.create_user("cem", "cem@example.org")
    circle = services.circle_create(owner=olga, name="Tuesday club", player_name="Olga")
    for user in (ben, cem):
        services.circle_join(user=user, token=circle.invite_token)
    services.member_set_role(membership=Membership.objects.get(user=cem), role="owner")
    services.player_update(player=services.player_for_name(circle, "Ben"), user=ben)
    services.player_update(player=services.player_for_name(circle, "Gus"), guest=True)
    services.player_update(player=services.player_for_name(circle, "Ana Lee"), shown_as="initials")
    services.player_update(player=services.player_for_name(circle, "Dan Roe"), shown_as="first")

    services.season_save(
        circle=circle,
        data={"name": "Winter", "starts_on": "2025-01-01", "ends_on": "2025-02-28"},
    )
    services.season_save(
        circle=circle,
        data={
            "name": "Spring",
            "starts_on": "2025-03-01",
            "ends_on": "2025-05-31",
            "planned_evenings": 10,
            "skat_rules": {"rank_by": "average", "drop_worst": 1, "missed": "zero"},
        },
    )
    jan, mar = datetime.date(2025, 1, 21), datetime.date(2025, 3, 11)
    three = {"series_deals": 3}
    corrected = play(circle, "skat", ["Ana Lee", "Ben", "Olga"], SKAT_THREE, on=jan, options=three)
    # Corrected after the evening: a StandingsChange.
    sheet_services.hand_correct(sheet=corrected.sheet, number=2, data=skat(0, "clubs", "won"))
    play(
        circle,
        "skat",
        ["Ana Lee", "Ben", "Olga", "Dan Roe"],
        SKAT_FOUR,
        on=mar,
        options={"series_deals": 4, "kontra_re": True},
        owner=User.objects.get(username="olga"),
    )
    play(circle, "pitch", ["Ana Lee", "Ben", "Gus", "Dan Roe"], PITCH, on=mar)
    play(circle, "manipulation", ["Ana Lee", "Ben", "Olga"], MANIPULATION, on=mar)
    # The last round undone: kept aside so that "bring back" still works.
    undone = play(circle, "manipulation", ["Olga", "Gus", "Ben"], MANIPULATION[:2], on=mar)
    sheet_services.hand_remove(sheet=undone.sheet, number=2)
    practice = play(circle, "pitch", ["Olga", "Ben", "Ana Lee", "Dan Roe"], PITCH, on=jan)
    services.sheet_set_counted(link=practice, counted=False)
    return circle


def wipe() -> None:
    """A fresh database, as far as circles go: no circle, no sheet, no account.

    The sheets go first: a circle whose players still sit at sheets cannot be
    deleted (see test_a_circle_with_sheets_can_be_deleted)."""
    Sheet.objects.all().delete()
    Circle.objects.all().delete()
    User.objects.all().delete()
    assert not Player.objects.exists()
    assert not Hand.objects.exists()
    assert not SheetResult.objects.exists()


def local_accounts() -> dict:
    """The members' accounts made again in an empty database, by the export's names."""
    return {
        name: User.objects.create_user(name, f"{name}@example.org", "pw-long-enough-1")
        for name in ("olga", "ben", "cem")
    }


MAP_ALL = ["--map-user", "olga=olga", "--map-user", "ben=ben", "--map-user", "cem=cem"]


def with_links(document: dict, circle: Circle) -> dict:
    """The document as an older export wrote it: with the circle's links (tokens)."""
    document = copy.deepcopy(document)
    document["circle"]["invite_token"] = circle.invite_token
    for item, season in zip(document["seasons"], circle.seasons.order_by("pk"), strict=True):
        item["view_token"] = season.view_token
    links = CircleSheet.objects.filter(circle=circle).select_related("sheet").order_by("sheet_id")
    for item, link in zip(document["sheets"], links, strict=True):
        item["edit_token"], item["view_token"] = link.sheet.edit_token, link.sheet.view_token
    return document


def links_of(circle: Circle) -> set[str]:
    """Every link (token) of the circle: its invite, its seasons', its sheets'."""
    found = {circle.invite_token, *circle.seasons.values_list("view_token", flat=True)}
    for edit, view in Sheet.objects.filter(circle_link__circle=circle).values_list(
        "edit_token", "view_token"
    ):
        found |= {edit, view}
    return found


def mapped(document: dict, ids: dict[int, int]) -> dict:
    """The document with every player id replaced by ``ids[id]``."""
    document = copy.deepcopy(document)
    for item in document["players"]:
        item["id"] = ids[item["id"]]
    for sheet in document["sheets"]:
        for seat in sheet["seats"]:
            seat["player"] = ids[seat["player"]]
    for change in document["changes"]:
        for move in change["moves"]:
            move["player"] = ids[move["player"]]
    return document


def player_ids(first: dict, second: dict) -> dict[int, int]:
    """Players are exported in the order they were made, and imported in that order."""
    assert [p["name"] for p in first["players"]] == [p["name"] for p in second["players"]]
    return {
        old["id"]: new["id"] for old, new in zip(first["players"], second["players"], strict=True)
    }


def standings_by_name(circle: Circle) -> dict:
    """Every season's tables with players named, not numbered (ids differ after an import)."""
    names = {p.pk: p.name for p in Player.objects.filter(circle=circle)}

    def named(value, key=None):
        if isinstance(value, dict):
            return {k: named(v, k) for k, v in value.items()}
        if key == "partners":
            return [(names[partner], games, won) for partner, games, won in value]
        if isinstance(value, list | tuple):
            return [named(v) for v in value]
        if key in ("player", "other"):
            return names[value]
        return value

    found = {}
    for season in Season.objects.filter(circle=circle).order_by("starts_on"):
        standings = season_standings(season, include_guests=True)
        found[season.name] = {
            "tables": {
                game: [
                    named(dataclasses.asdict(row))
                    for row in (*table.ranked, *getattr(table, "unranked", ()))
                ]
                for game, table in standings.tables.items()
            },
            "counted": standings.counted_sheets,
            "open": standings.open_sheets,
            "changes": [(c.change, c.number, named(c.moves)) for c in standings.changes],
        }
    return found


def results_by_name(circle: Circle) -> list:
    """Each sheet's results, the sheets in the order they were started (the export's)."""
    results = (
        SheetResult.objects.filter(sheet__circle=circle)
        .select_related("player")
        .order_by("sheet_id", "position")
    )
    order = {sheet_id: i for i, sheet_id in enumerate(sorted({r.sheet_id for r in results}))}
    return [(order[r.sheet_id], r.position, r.player.name, r.stats) for r in results]


@pytest.fixture(scope="module")
def _built(django_db_setup, django_db_blocker) -> Iterator[int]:
    """The circle is built once for the module: every test runs in a transaction of its
    own that is undone after it (pytest-django's), wipes and imports included, and the
    circle itself is undone at the end."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_circle().pk
        transaction.set_rollback(True)


@pytest.fixture
def circle(_built) -> Circle:
    return Circle.objects.get(pk=_built)


def test_export_then_import_into_an_empty_database_gives_the_same_circle(circle):
    first = export_circle(circle)
    text = json.dumps(first, ensure_ascii=False)
    standings, stored = standings_by_name(circle), results_by_name(circle)
    # What the document holds: everything the circle owns.
    assert len(first["members"]) == 3
    assert len(first["players"]) == 5
    assert len(first["seasons"]) == 2
    assert len(first["sheets"]) == 6
    assert len(first["changes"]) == 2  # the correction, the practice game left out
    assert sum(1 for s in first["sheets"] for h in s["hands"] if h["removed_at"]) == 1
    assert "password" not in text

    wipe()
    imported = import_circle(json.loads(text), accounts=local_accounts())

    second = export_circle(Circle.objects.get(pk=imported.pk))
    assert mapped(first, player_ids(first, second)) == second
    assert standings_by_name(imported) == standings
    assert results_by_name(imported) == stored
    assert standings  # both seasons have tables
    assert standings["Spring"]["tables"].keys() == {"skat", "pitch", "manipulation"}


def test_an_imported_circle_works_as_before(circle):
    text = json.dumps(export_circle(circle))
    wipe()
    accounts = local_accounts()
    imported = import_circle(json.loads(text), accounts=accounts)
    # The mapped accounts are its members again, with their roles; none is made.
    olga = accounts["olga"]
    assert User.objects.count() == 3
    assert Membership.objects.get(circle=imported, user__username="cem").role == "owner"
    assert Membership.objects.get(circle=imported, user__username="ben").role == "member"
    assert Player.objects.get(circle=imported, name="Olga").user == olga
    assert Player.objects.get(circle=imported, name="Gus").guest is True
    assert Player.objects.get(circle=imported, name="Ana Lee").public_name() == "A.L."
    # The undone round can still be brought back, and results follow it.
    undone = Hand.objects.get(removed_at__isnull=False)
    restored = sheet_services.hand_restore(sheet=undone.sheet)
    assert restored.hand.number == 2
    link = CircleSheet.objects.get(sheet=undone.sheet)
    assert [r.stats["deals"] for r in SheetResult.objects.filter(sheet=link)] == [2, 2, 2]
    # The derived columns of the sheets are set from their deals.
    for sheet in Sheet.objects.all():
        assert sheet.deal_count == Hand.objects.filter(sheet=sheet, removed_at=None).count()
    assert Sheet.objects.filter(finished=True).count() == 5
    # The change log names the imported players.
    change = StandingsChange.objects.get(circle=imported, change="corrected")
    ids = {p.pk for p in imported.players.all()}
    assert {move["player"] for move in change.moves} <= ids


def test_importing_a_circle_again_makes_a_new_circle_with_links_of_its_own(circle):
    """issue 19, finding 2: the file's links are never used, so an import is always a
    new circle: the old one keeps its links, the new one has others."""
    document = json.loads(json.dumps(export_circle(circle)))
    accounts = {"olga": User.objects.get(username="olga")}
    users = User.objects.count()
    old_links = links_of(circle)
    imported = import_circle(document, accounts=accounts)
    assert Circle.objects.count() == 2
    new_links = links_of(imported)
    assert len(new_links) == len(old_links) == 1 + 2 + 2 * 6
    assert not new_links & old_links
    assert links_of(Circle.objects.get(pk=circle.pk)) == old_links
    again = export_circle(imported)
    assert [m["username"] for m in again["members"]] == ["olga"]
    assert User.objects.count() == users


def test_the_export_holds_none_of_the_circles_links(circle):
    """An export once held every link (token) of the circle, so whoever read the file
    could open and change the circle's sheets on its own server, although an import
    never used them. It holds none now, nor the members' e-mail addresses (an account's
    address is for its password reset; an import maps members by user name)."""
    links = links_of(circle)
    assert len(links) == 1 + 2 + 2 * 6
    text = json.dumps(export_circle(circle), ensure_ascii=False)
    assert not [token for token in links if token in text]
    assert "token" not in text
    assert "olga@example.org" not in text
    # The download and the command write the same document.
    client = Client()
    client.force_login(User.objects.get(username="olga"))
    download = client.get(f"/en/circles/{circle.pk}/export.json")
    assert download.status_code == 200
    assert download.streaming  # written as it is read
    assert "no-store" in download["Cache-Control"]
    content = b"".join(download.streaming_content).decode()
    assert not [token for token in links if token in content]
    assert json.loads(content) == json.loads(text)
    out = _Sink()
    call_command("export_circle", str(circle.pk), stdout=out)
    assert not [token for token in links if token in out.text]


def test_an_older_export_with_links_still_imports_with_new_ones(circle):
    """Exports made before the links were left out hold them; the import reads the
    rest of such a file as before, and its links open nothing."""
    document = json.loads(json.dumps(export_circle(circle)))
    older = with_links(document, circle)
    assert older["circle"]["invite_token"] == circle.invite_token
    old_links = links_of(circle)
    wipe()
    imported = import_circle(older, accounts=local_accounts())
    assert not links_of(imported) & old_links
    second = export_circle(Circle.objects.get(pk=imported.pk))
    assert mapped(document, player_ids(document, second)) == second


def damaged(document: dict, how: str) -> object:
    document = copy.deepcopy(document)
    if how == "not a mapping":
        return ["scorekeeper-circle"]
    if how == "format":
        document["format"] = "something else"
    elif how == "version":
        document["version"] = 99
    elif how == "no players":
        del document["players"]
    elif how == "members not a list":
        document["members"] = "olga"
    elif how == "a moment":
        document["circle"]["created_at"] = "yesterday"
    elif how == "no moment":
        document["sheets"][0]["created_at"] = None
    elif how == "a day":
        document["seasons"][0]["starts_on"] = 20250101
    elif how == "a deal":
        document["sheets"][0]["hands"][0]["entry"] = {"declarer": "Ben"}
    elif how == "a deal too many":
        document["sheets"][0]["hands"].append({**document["sheets"][0]["hands"][0], "number": 4})
    elif how == "a game":
        document["sheets"][0]["game"] = "chess"
    elif how == "a seat's player":
        document["sheets"][0]["seats"][0]["player"] = 10**6
    elif how == "two players of one name":
        document["players"][1]["name"] = document["players"][0]["name"].upper()
    elif how == "club rules":
        document["seasons"][1]["skat_rules"] = {"rank_by": "best"}
    elif how == "shown as":
        document["players"][0]["shown_as"] = "nickname"
    elif how == "a change's sheet":
        document["changes"][0]["sheet"] = 99
    elif how == "a change's negative sheet":
        document["changes"][0]["sheet"] = -1
    return document


@pytest.mark.parametrize(
    "how",
    [
        "not a mapping",
        "format",
        "version",
        "no players",
        "members not a list",
        "a moment",
        "no moment",
        "a day",
        "a deal",
        "a deal too many",
        "a game",
        "a seat's player",
        "two players of one name",
        "club rules",
        "shown as",
        "a change's sheet",
        "a change's negative sheet",
    ],
)
def test_a_damaged_document_is_refused_in_words_and_imports_nothing(circle, how):
    document = json.loads(json.dumps(export_circle(circle)))
    wipe()
    accounts = {"olga": User.objects.create_user("olga")}
    with pytest.raises(RuleError) as error:
        import_circle(damaged(document, how), accounts=accounts)
    assert error.value.problems[0].message
    assert not Circle.objects.exists()
    assert not Sheet.objects.exists()
    assert User.objects.count() == 1
    # The undamaged document still imports.
    import_circle(document, accounts=accounts)
    assert Circle.objects.count() == 1


def test_a_circle_with_sheets_can_be_deleted(circle):
    Circle.objects.all().delete()
    assert not Player.objects.exists()
    assert not CircleSheet.objects.exists()


def test_the_commands_round_trip_through_a_file(circle, tmp_path):
    path = tmp_path / "circle.json"
    first = export_circle(circle)
    standings = standings_by_name(circle)
    call_command("export_circle", str(circle.pk), "--output", str(path), stdout=_Sink())
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(first))

    wipe()
    local_accounts()
    out = _Sink()
    call_command("import_circle", str(path), *MAP_ALL, stdout=out)
    imported = Circle.objects.get()
    assert f"Imported Tuesday club as circle {imported.pk}." in out.text
    second = export_circle(imported)
    assert mapped(json.loads(json.dumps(first)), player_ids(first, second)) == json.loads(
        json.dumps(second)
    )
    assert standings_by_name(imported) == standings

    # A second import of the same file is a second circle, with links of its own.
    call_command("import_circle", str(path), *MAP_ALL, stdout=_Sink())
    assert Circle.objects.count() == 2
    assert Circle.objects.values("invite_token").distinct().count() == 2


def test_the_commands_refuse_what_they_cannot_read(circle, tmp_path):
    with pytest.raises(CommandError):
        call_command("export_circle", str(circle.pk + 100), stdout=_Sink())
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("import_circle", str(broken), stdout=_Sink())
    with pytest.raises(CommandError):
        call_command("import_circle", str(tmp_path / "missing.json"), stdout=_Sink())
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"format": "something"}), encoding="utf-8")
    with pytest.raises(CommandError, match="not a Scorekeeper circle export"):
        call_command("import_circle", str(other), stdout=_Sink())
    # A good file without anybody here to own the circle.
    good = tmp_path / "good.json"
    good.write_text(json.dumps(export_circle(circle)), encoding="utf-8")
    with pytest.raises(CommandError, match="--owner"):
        call_command("import_circle", str(good), stdout=_Sink())


def test_the_export_file_is_its_owners_alone_whatever_the_umask(circle, tmp_path):
    # It holds no link and no e-mail address, but the members' user names and the
    # circle's names and games: 0600, also when it overwrites a file others could read.
    fresh, again = tmp_path / "fresh.json", tmp_path / "again.json"
    again.write_text("old", encoding="utf-8")
    again.chmod(0o644)
    before = os.umask(0o022)
    try:
        for path in (fresh, again):
            out = _Sink()
            call_command("export_circle", str(circle.pk), "--output", str(path), stdout=out)
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
            assert json.loads(path.read_text(encoding="utf-8"))["format"] == "scorekeeper-circle"
            assert "user names" in out.text
            assert "none of the circle's links and no e-mail address" in out.text
    finally:
        os.umask(before)


def test_the_import_says_who_was_attached_who_was_not_and_that_links_are_new(circle, tmp_path):
    """issue 19, findings 2 and 4: no account is made (so nobody is told to set a
    password); the operator reads who was attached and that the old links are gone."""
    path = tmp_path / "circle.json"
    call_command("export_circle", str(circle.pk), "--output", str(path), stdout=_Sink())
    wipe()
    User.objects.create_user("ben", "ben@example.org", "pw-long-enough-1")  # not mapped
    User.objects.create_user("olga_here", "", "pw-long-enough-1")
    out = _Sink()
    call_command("import_circle", str(path), "--map-user", "olga=olga_here", stdout=out)
    imported = Circle.objects.get()
    assert "Members: olga_here (Owner, olga in the export)." in out.text
    assert "Not attached, as no account here was mapped to them: ben, cem." in out.text
    assert "open nothing here" in out.text
    assert f"/en/circles/{imported.pk}/" in out.text
    assert "password" not in out.text
    assert User.objects.count() == 2


# -- Streaming and batches (issue 20) ----------------------------------------------------

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
    SheetSnapshot,
    StandingsChange,
    User,
)


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in STORED}


def with_sheets(document: dict, count: int) -> dict:
    """The document with copies of its finished Pitch sheet (sheets.2: four seats, two
    deals) added until it holds ``count`` sheets."""
    document = copy.deepcopy(document)
    pitch = document["sheets"][2]
    document["sheets"] += [copy.deepcopy(pitch) for _ in range(count - len(document["sheets"]))]
    return document


def results_of(circle: Circle) -> list:
    return list(
        SheetResult.objects.filter(sheet__circle=circle)
        .order_by("sheet_id", "position")
        .values_list("sheet_id", "position", "player_id", "stats")
    )


def test_the_export_is_written_as_it_is_read_a_batch_of_sheets_at_a_time(circle):
    """The export reads the sheets a batch at a time (the same four queries for each
    batch: links, seats, players, deals), gives out each batch before reading the next,
    and writes one sheet a line without indentation; the document is the same."""
    whole = export_circle(circle)

    def written(batch: int) -> tuple[list[str], int]:
        with CaptureQueriesContext(connection) as captured:
            chunks = list(export_chunks(circle, batch=batch))
        return chunks, len(captured)

    by_two, queries_by_two = written(2)
    at_once, queries_at_once = written(6)
    assert queries_by_two == queries_at_once + 2 * 4
    assert json.loads("".join(by_two)) == json.loads("".join(at_once)) == whole
    assert len([chunk for chunk in by_two if '{"game":' in chunk]) == 3
    text = "".join(by_two)
    assert "\n " not in text  # no indentation
    lines = [line.rstrip(",") for line in text.splitlines()]
    assert [json.loads(line) for line in lines if line.startswith('{"game":')] == whole["sheets"]
    assert [json.loads(line) for line in lines if line.startswith('{"sheet":')] == whole["changes"]
    # A circle without sheets or changes is a document too.
    empty = services.circle_create(owner=User.objects.get(username="ben"), name="Empty")
    document = json.loads("".join(export_chunks(empty, batch=2)))
    assert (document["sheets"], document["changes"]) == ([], [])


def test_the_import_costs_the_same_queries_for_each_batch_of_sheets(circle):
    """Not about 75 queries a sheet as before: a batch of sheets is stored with one
    bulk insert a table, whatever the number of its sheets (as long as the database
    takes their rows in one statement)."""
    document = export_circle(circle)
    accounts = {"olga": User.objects.get(username="olga")}

    def queries(sheets: int, batch: int) -> int:
        with CaptureQueriesContext(connection) as captured:
            import_circle(with_sheets(document, sheets), accounts=accounts, batch=batch, helpers=0)
        return len(captured)

    queries(10, batch=10)  # anything read once a process
    one_batch = queries(10, batch=10)
    assert queries(40, batch=40) == one_batch
    per_batch = queries(20, batch=10) - one_batch
    # Sheets, seats, kept engines, "started" history, deals, circle links, seat players
    # and results.
    assert per_batch == 8
    assert queries(40, batch=10) == one_batch + 3 * per_batch


def test_imported_results_are_what_the_apps_own_services_store(circle):
    """What each imported sheet contributes to standings is what circles.results
    derives from its deals when it rebuilds them: the rebuild changes nothing."""
    document = with_sheets(export_circle(circle), 12)
    accounts = {"olga": User.objects.get(username="olga")}
    imported = import_circle(document, accounts=accounts, batch=5, helpers=0)
    stored = results_of(imported)
    assert len(stored) == sum(len(sheet["seats"]) for sheet in document["sheets"])
    assert rebuild_results(imported) == 12
    assert results_of(imported) == stored
    # Each sheet keeps its engine at its version, as a write keeps it: the page and the
    # next deal start from it and show what a replay of the deals shows.
    for sheet in Sheet.objects.filter(circle_link__circle=imported).select_related("snapshot"):
        assert sheet.snapshot.version == sheet.version
        kept, replayed = current_state(sheet), sheet_state(sheet)
        assert (kept.totals, kept.finished, kept.next_deal) == (
            replayed.totals,
            replayed.finished,
            replayed.next_deal,
        )


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        pytest.param(("sheets", 11, "hands", 1, "entry"), "sheets.11.hands.1", id="last-deal"),
        pytest.param(("sheets", 11, "version"), "sheets.11.version", id="last-sheet-field"),
        pytest.param(("changes", 1, "game"), "changes.1.game", id="change-log"),
    ],
)
def test_a_refusal_after_batches_were_stored_stores_nothing(circle, damage, where):
    """The whole import is one transaction: a refusal in the last batch, or in the
    change log after every batch was stored, leaves nothing behind."""
    document = with_sheets(export_circle(circle), 12)
    *path, key = damage
    target = document
    for step in path:
        target = target[step]
    target[key] = {"pitcher": 9} if key == "entry" else -1 if key == "version" else "chess"
    before = counts()
    with pytest.raises(RuleError) as error:
        import_circle(document, accounts={"olga": User.objects.get(username="olga")}, batch=2)
    assert error.value.problems[0].field.startswith(where)
    assert counts() == before


def test_helper_processes_referee_as_this_process_does(circle):
    """A large import plays its deals in helper processes: what it stores, and what it
    refuses in which words, is the same as in this process."""
    document = with_sheets(export_circle(circle), 9)
    accounts = {"olga": User.objects.get(username="olga")}
    here = import_circle(document, accounts=accounts, batch=4, helpers=0)
    there = import_circle(document, accounts=accounts, batch=4, helpers=1)
    first, second = export_circle(here), export_circle(there)
    assert mapped(first, player_ids(first, second)) == second
    assert results_by_name(here) == results_by_name(there)
    # Refused: the undone round of sheets.4 where "bring back" would put it, and live
    # deals of a later sheet of its batch and of the next batch. The first one counts.
    document["sheets"][4]["hands"][1]["entry"] = {"penalties": [0]}
    for sheet in (5, 8):
        document["sheets"][sheet]["hands"][1]["entry"] = {"pitcher": 1, "bid": 4, "points": {}}
    refusals = []
    for helpers in (0, 1):
        with pytest.raises(RuleError) as error:
            import_circle(document, accounts=accounts, batch=4, helpers=helpers)
        refusals.append(error.value.problems)
    assert refusals[0] == refusals[1]
    assert refusals[0][0].field == "sheets.4.hands.1"


def test_a_file_the_older_exporter_wrote_still_imports(circle, tmp_path):
    """Exports were written indented (json.dumps(indent=1)) before they were streamed;
    the document is the same (version 1), so such a file imports as before."""
    first = export_circle(circle)
    path = tmp_path / "older.json"
    path.write_text(json.dumps(first, ensure_ascii=False, indent=1), encoding="utf-8")
    assert read_document(path.read_bytes()) == first
    wipe()
    local_accounts()
    call_command("import_circle", str(path), *MAP_ALL, stdout=_Sink(), stderr=_Sink())
    second = export_circle(Circle.objects.get())
    assert mapped(first, player_ids(first, second)) == second


def test_the_commands_say_how_far_they_are(circle, tmp_path):
    """Both commands tell on standard error how many sheets are done, a batch at a
    time; --verbosity 0 keeps them quiet."""
    path = tmp_path / "circle.json"
    said = _Sink()
    call_command("export_circle", str(circle.pk), "-o", str(path), stdout=_Sink(), stderr=said)
    assert said.text.strip() == "6/6 sheets written"
    quiet = _Sink()
    call_command(
        "export_circle", str(circle.pk), "-o", str(path), verbosity=0, stdout=_Sink(), stderr=quiet
    )
    assert quiet.text == ""
    said = _Sink()
    call_command("import_circle", str(path), "--map-user", "olga=olga", stdout=_Sink(), stderr=said)
    assert said.text.strip() == "6/6 sheets checked and stored"
    call_command(
        "import_circle",
        str(path),
        "--map-user",
        "olga=olga",
        verbosity=0,
        stdout=_Sink(),
        stderr=quiet,
    )
    assert quiet.text == ""


class _Sink:
    """A stdout for commands that keeps what they wrote."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


# -- The trash and the club evenings (format version 2) ----------------------------------

PITCH_POINTS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")
CLUB_MONEY = {
    "currency": "EUR",
    "entry_fee": "6.00",
    "lost_game_fees": [{"from": 1, "amount": "0.50"}, {"from": 2, "amount": "1.00"}],
    "payout": {"count": "fixed", "prizes": 2, "series_prize": "1.00"},
}
EVENING_MODELS = (
    Evening,
    EveningPlayer,
    Series,
    EveningTable,
    TableSeat,
    EveningChange,
    Payment,
    BillChange,
)


def build_club() -> Circle:
    """Fiona's circle "Friday club" with a season around today, its usual money rules, a
    sheet in the trash and two club evenings:

    - "Club night" (Skat, the circle's money rules): Fiona (the circle's player), Anna
      and Bernd (team "Aces", categories women and seniors), Carla, Dieter, Eva and
      Frank. Series 1: table 1 of four plays on its sheet, is signed and corrected after
      (a change note and a bill change), table 2 of three on paper. Fiona pays, Anna's
      payment is undone and she pays again; Frank leaves; series 2 is drawn (two tables
      of three, not played) and two players are swapped.
    - "Pitch party" (progressive, match points, no money): five players, one of whom
      sits out each round; round 1 on its sheet, round 2 from its tally card."""
    owner = User.objects.create_user("fiona", "fiona@example.org", "pw-long-enough-1")
    circle = services.circle_create(owner=owner, name="Friday club", player_name="Fiona")
    today = datetime.date.today()
    services.season_save(
        circle=circle,
        data={
            "name": "Autumn",
            "starts_on": today - datetime.timedelta(days=30),
            "ends_on": today + datetime.timedelta(days=30),
        },
    )
    evening_accounts.keep_for_circle(circle=circle, rules=money_rules.read_rules(CLUB_MONEY))
    club = evening_services.evening_create(
        name="Club night", played_on=today, series_deals={"3": 3, "4": 4}, circle=circle, by=owner
    )
    evening_services.players_add(evening=club, circle_players=[circle.players.get(name="Fiona").pk])
    evening_services.players_add(
        evening=club, names=["Anna", "Bernd"], team="Aces", tags="women, seniors"
    )
    evening_services.players_add(evening=club, names=["Carla", "Dieter", "Eva", "Frank"])
    four, three = evening_services.series_draw(evening=club, seed=7).tables.order_by("number")
    for deal in SKAT_FOUR:
        sheet_services.hand_record(sheet=four.sheet, data=deal)
    paper = [seat.player_id for seat in three.seats.order_by("position")]
    evening_services.table_paper_result(
        table=three,
        foot=[
            {"player": paper[0], "points": 48, "won": 1, "lost": 0},
            {"player": paper[1], "points": -96, "won": 0, "lost": 1},
            {"player": paper[2], "points": 0, "won": 0, "lost": 0},
        ],
    )
    evening_services.table_sign(table=EveningTable.objects.get(pk=four.pk))
    # Corrected after it was signed: the ranking moved, and Ben's lost-game fee.
    sheet_services.hand_correct(sheet=four.sheet, number=1, data=skat(1, "diamonds", "won"))
    anna, fiona = club.players.get(name="Anna"), club.players.get(name="Fiona")
    evening_accounts.payment_add(evening=club, player=fiona, amount="6.00", by="fiona")
    wrong = evening_accounts.payment_add(evening=club, player=anna, amount="6.00", by="fiona")
    evening_accounts.payment_undo(evening=club, payment=wrong, by="fiona")
    evening_accounts.payment_add(evening=club, player=anna, amount="6.50")
    evening_services.player_leave(evening=club, player=club.players.get(name="Frank"))
    second = evening_services.series_draw(evening=club, seed=8)
    one, two = second.tables.order_by("number")
    evening_services.series_swap(
        series=second,
        first=one.seats.get(position=0).player_id,
        second=two.seats.get(position=0).player_id,
    )

    party = evening_services.evening_create(
        name="Pitch party",
        played_on=today,
        game="pitch",
        series_count=2,
        movement="progressive",
        counts="match_points",
        sit_out=True,
        circle=circle,
        money={},
    )
    evening_services.players_add(evening=party, names=["Anna", "Bernd", "Carla", "Dieter", "Eva"])
    table = evening_services.series_draw(evening=party, seed=2).tables.get()
    for bid in (4, "moon"):
        sheet_services.hand_record(
            sheet=table.sheet,
            data={"pitcher": 0, "bid": bid, "points": dict.fromkeys(PITCH_POINTS, "A")},
        )
    tally = evening_services.series_draw(evening=party).tables.get()
    evening_services.table_tally_result(table=tally, scores=[30, 52])

    loose = services.sheet_create_in_circle(
        circle=circle, game="skat", players=["Fiona", "Anna", "Bernd"], options={"series_deals": 3}
    )
    for deal in SKAT_THREE:
        sheet_services.hand_record(sheet=loose, data=deal)
    sheet_services.sheet_delete(sheet=loose)
    return circle


@pytest.fixture(scope="module")
def _club(django_db_setup, django_db_blocker) -> Iterator[int]:
    """The club is built once for the module, as the circle is (``_built``)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_club().pk
        transaction.set_rollback(True)


@pytest.fixture
def club(_club) -> Circle:
    return Circle.objects.get(pk=_club)


def wipe_club() -> None:
    """A fresh database: the evenings first (their tables keep their sheets; their
    seats and payments keep their players), then as ``wipe``."""
    TableSeat.objects.all().delete()
    Payment.objects.all().delete()
    Evening.objects.all().delete()
    wipe()


def club_mapped(document: dict, second: dict) -> dict:
    """``document`` with the ids of ``second`` (an export of its import): the circle's
    players' and each evening's players' ids, in the order both were made."""
    circle_ids = player_ids(document, second)
    document = mapped(document, circle_ids)
    for evening, other in zip(document["evenings"], second["evenings"], strict=True):
        ids = {
            old["id"]: new["id"]
            for old, new in zip(evening["players"], other["players"], strict=True)
        }
        for player in evening["players"]:
            player["id"] = ids[player["id"]]
            if player["player"] is not None:
                player["player"] = circle_ids[player["player"]]
        for series in evening["series"]:
            series["sitting_out"] = [ids[old] for old in series["sitting_out"]]
            for swap in series["swaps"]:
                swap["first"], swap["second"] = ids[swap["first"]], ids[swap["second"]]
            for table in series["tables"]:
                for seat in table["seats"]:
                    seat["player"] = ids[seat["player"]]
        for change in evening["changes"]:
            for move in change["moves"]:
                move["player"] = ids[move["player"]]
        for item in (*evening["payments"], *evening["bill_changes"]):
            item["player"] = ids[item["player"]]
    return document


def evenings_by_name(circle: Circle) -> dict:
    """Each evening's ranking, its series' rankings and money (bills, payments, the
    pot, the prize list) with players named, not numbered."""
    found = {}
    for evening in Evening.objects.filter(circle=circle).order_by("pk"):
        view = evening_selectors.evening_view(evening)
        names = view.names
        money = evening_accounts.money_view(evening, view)
        found[evening.name] = {
            "ranking": [(names[r.player], r.place, r.total) for r in view.brief_ranking.rows],
            "series": [
                [
                    (names[r.player], r.place, r.total)
                    for r in evening_selectors.series_ranking(view, s.number).rows
                ]
                for s in view.series
            ],
            "bills": {
                names[line.player.pk]: (line.account.owes, line.account.paid, line.won)
                for line in money.lines
            },
            "payments": [(names[p.player_id], p.amount, p.undone_at) for p in money.payments],
            "changes": [
                (names[c.player_id], c.table.number, c.fee_before, c.fee_after)
                for c in money.changes
            ],
            "pot": money.pot,
            "prize_problem": money.prize_problem,
        }
    return found


def evening_links(circle: Circle) -> set[str]:
    """Every link of the circle's evenings: organiser, view and the players' own."""
    found: set[str] = set()
    for organiser, view in Evening.objects.filter(circle=circle).values_list(
        "organiser_token", "view_token"
    ):
        found |= {organiser, view}
    found |= set(
        EveningPlayer.objects.filter(evening__circle=circle).values_list("token", flat=True)
    )
    return found


def test_the_export_writes_a_sheets_trash_the_circles_money_rules_and_its_evenings(club):
    """Version 2 of the document: every sheet says since when it is in the trash (null:
    it is not), the circle its usual money rules, and the list "evenings" holds each
    club evening with its roll, series, tables, seats, notes and cash box."""
    document = export_circle(club)
    assert document["version"] == 2
    trashed = [item for item in document["sheets"] if item["deleted_at"] is not None]
    sheet = Sheet.objects.get(deleted_at__isnull=False, circle_link__circle=club)
    assert [item["deleted_at"] for item in trashed] == [sheet.deleted_at.isoformat()]
    assert document["circle"]["evening_money"] == club.evening_money
    assert club.evening_money["entry_fee"] == "6.00"
    night, party = document["evenings"]
    assert (night["name"], party["name"]) == ("Club night", "Pitch party")
    assert night["money"] == club.evening_money
    assert party["money"] == {}
    assert night["created_by"] == "fiona"
    assert len(night["players"]) == 7
    assert [p["team"] for p in night["players"]][1:3] == ["Aces", "Aces"]
    assert night["players"][1]["tags"] == ["women", "seniors"]
    assert night["players"][0]["player"] == document["players"][0]["id"]  # Fiona
    assert [s["number"] for s in night["series"]] == [1, 2]
    assert [len(s["tables"]) for s in night["series"]] == [2, 2]
    assert night["series"][0]["tables"][1]["paper"] is True
    assert len(night["series"][1]["swaps"]) == 1
    assert len(night["changes"]) == 1
    assert night["changes"][0]["moves"]
    assert len(night["payments"]) == 3
    assert [p["undone_at"] is not None for p in night["payments"]] == [False, True, False]
    assert [p["amount"] for p in night["payments"]] == ["6.00", "6.00", "6.50"]
    assert len(night["bill_changes"]) == 1
    assert [len(s["sitting_out"]) for s in party["series"]] == [1, 1]
    # Each table names its sheet by its place in the file; no sheet is two tables'.
    places = [t["sheet"] for e in document["evenings"] for s in e["series"] for t in s["tables"]]
    assert len(places) == len(set(places)) == 6
    tables = EveningTable.objects.filter(series__evening__circle=club).order_by(
        "series__evening_id", "series__number", "number"
    )
    ids = list(
        CircleSheet.objects.filter(circle=club).order_by("sheet_id").values_list("sheet", flat=True)
    )
    assert [ids[place] for place in places] == [table.sheet_id for table in tables]


def test_export_then_import_keeps_the_club_evenings_their_money_and_the_trash(club):
    """The club's round trip: the second export is the first (ids mapped), the
    evenings rank, bill and pay as before, the sheet in the trash stays there with the
    moment it went there, and the standings read the same."""
    first = export_circle(club)
    text = json.dumps(first, ensure_ascii=False)
    standings, evenings = standings_by_name(club), evenings_by_name(club)
    deleted = Sheet.objects.get(deleted_at__isnull=False, circle_link__circle=club).deleted_at
    assert evenings["Club night"]["payments"]
    assert evenings["Club night"]["changes"]

    wipe_club()
    owner = User.objects.create_user("fiona", "fiona@example.org", "pw-long-enough-1")
    imported = import_circle(json.loads(text), accounts={"fiona": owner})

    second = export_circle(Circle.objects.get(pk=imported.pk))
    assert club_mapped(first, second) == second
    assert standings_by_name(imported) == standings
    assert evenings_by_name(imported) == evenings
    assert Circle.objects.get(pk=imported.pk).evening_money == first["circle"]["evening_money"]
    assert Evening.objects.get(name="Club night").created_by == owner
    # The sheet in the trash is there still, since the moment it went there; its
    # history says so.
    trashed = Sheet.objects.get(deleted_at__isnull=False)
    assert trashed.deleted_at == deleted
    assert list(trashed.events.values_list("kind", "at")) == [
        ("deleted", deleted),
        ("started", trashed.created_at),
    ]
    assert not CircleSheet.objects.filter(sheet=trashed, sheet__deleted_at__isnull=True).exists()
    # Every table keeps its sheet, each evening's players their circle's players.
    for table in EveningTable.objects.select_related("sheet"):
        assert table.sheet.circle_link.circle_id == imported.pk
    fiona = EveningPlayer.objects.get(evening__name="Club night", name="Fiona")
    assert fiona.circle_player == imported.players.get(name="Fiona")


def test_the_purge_of_an_imported_sheet_in_the_trash_counts_from_when_it_went_there(club):
    """A sheet in the trash is emptied TRASH_DAYS after it went there, on the server it
    came from or on the one it was imported to."""
    document = export_circle(club)
    wipe_club()
    import_circle(document, accounts={"fiona": User.objects.create_user("fiona")})
    trashed = Sheet.objects.get(deleted_at__isnull=False)
    purge = trashed.deleted_at + datetime.timedelta(days=sheet_services.TRASH_DAYS)
    sheet_services.clear_expired(now=purge - datetime.timedelta(seconds=1))
    assert Sheet.objects.filter(pk=trashed.pk).exists()
    sheet_services.clear_expired(now=purge + datetime.timedelta(seconds=1))
    assert not Sheet.objects.filter(pk=trashed.pk).exists()


def test_an_imported_evening_has_links_of_its_own_and_its_pages_answer(club):
    """The export holds none of an evening's links (organiser, view, the players' own):
    the import makes new ones, and the evening's pages answer through them."""
    old_links = evening_links(club)
    assert len(old_links) == 2 * 2 + 7 + 5
    text = json.dumps(export_circle(club), ensure_ascii=False)
    assert not [token for token in old_links if token in text]
    assert "token" not in text
    imported = import_circle(
        json.loads(text), accounts={"fiona": User.objects.get(username="fiona")}
    )
    new_links = evening_links(imported)
    assert len(new_links) == len(old_links)
    assert not new_links & old_links
    client = Client()
    for evening in Evening.objects.filter(circle=imported):
        for page in (
            reverse("evenings:board", args=[evening.organiser_token]),
            reverse("evenings:money", args=[evening.organiser_token]),
            reverse("evenings:ranking", args=[evening.view_token]),
            reverse("evenings:screen", args=[evening.view_token]),
        ):
            assert client.get(page).status_code == 200, page
        for player in evening.players.all():
            assert client.get(reverse("evenings:own", args=[player.token])).status_code == 200


def test_a_file_of_version_1_still_imports_its_sheets_live_and_no_evenings(club):
    """A file an older export wrote (version 1) has no deleted_at, no evening_money and
    no evenings: it imports, its sheets live, without club evenings or money rules."""
    document = export_circle(club)
    document["version"] = 1
    del document["circle"]["evening_money"], document["evenings"]
    for item in document["sheets"]:
        del item["deleted_at"]
    wipe_club()
    imported = import_circle(document, accounts={"fiona": User.objects.create_user("fiona")})
    assert Sheet.objects.count() == len(document["sheets"])
    assert not Sheet.objects.filter(deleted_at__isnull=False).exists()
    assert not Evening.objects.exists()
    assert Circle.objects.get(pk=imported.pk).evening_money == {}


def test_the_import_says_how_many_evenings_came_with_new_links(club, tmp_path):
    """The operator reads that the club evenings came along, and that their links are
    new (the old ones open nothing here)."""
    path = tmp_path / "club.json"
    call_command("export_circle", str(club.pk), "--output", str(path), stdout=_Sink())
    wipe_club()
    User.objects.create_user("fiona", "", "pw-long-enough-1")
    out = _Sink()
    call_command("import_circle", str(path), "--map-user", "fiona=fiona", stdout=out)
    assert "Club evenings: 2, each with new organiser, view and player links." in out.text
    assert Evening.objects.count() == 2


def with_evenings(document: dict, count: int) -> dict:
    """The document with copies of its Skat evening (evenings.0, its tables without
    sheets: a sheet is one table's) added until it holds ``count`` evenings."""
    document = copy.deepcopy(document)
    copied = copy.deepcopy(document["evenings"][0])
    for series in copied["series"]:
        for table in series["tables"]:
            table["sheet"] = None
    document["evenings"] += [
        copy.deepcopy(copied) for _ in range(count - len(document["evenings"]))
    ]
    return document


def test_the_evenings_are_written_and_read_a_batch_at_a_time(club):
    """The export reads the evenings a batch at a time, with the same eight queries a
    batch (evenings, rolls, series, tables, seats, notes, payments, bill changes); the
    import stores a batch with one statement for each of those, whatever it holds."""
    index = {
        sheet_id: place
        for place, sheet_id in enumerate(
            CircleSheet.objects.filter(circle=club)
            .order_by("sheet_id")
            .values_list("sheet", flat=True)
        )
    }

    def written(batch: int) -> tuple[list[str], int]:
        with CaptureQueriesContext(connection) as captured:
            items = [
                item
                for part in evenings_transfer.export_evenings(club, index, batch)
                for item in part
            ]
        return items, len(captured)

    one_by_one, queries_by_one = written(1)
    at_once, queries_at_once = written(2)
    assert (
        one_by_one
        == at_once
        == [
            json.dumps(item, ensure_ascii=False, separators=(",", ":"))
            for item in export_circle(club)["evenings"]
        ]
    )
    assert queries_by_one == queries_at_once + 8

    document = export_circle(club)
    sheets = len(document["sheets"])
    accounts = {"fiona": User.objects.get(username="fiona")}

    def queries(evenings: int, batch: int) -> int:
        with CaptureQueriesContext(connection) as captured:
            import_circle(
                with_evenings(document, evenings), accounts=accounts, batch=batch, helpers=0
            )
        return len(captured)

    queries(2, batch=sheets)  # anything read once a process
    # The sheets in one batch: the evenings' batches alone make the difference.
    assert queries(2, batch=sheets) == queries(sheets, batch=sheets)
    assert queries(2 * sheets, batch=sheets) - queries(sheets, batch=sheets) == 8


def test_a_refusal_in_the_last_evening_stores_nothing(club):
    """The evenings are stored in the import's one transaction: a refusal in the last
    one, after the sheets and the evenings before it were stored, leaves nothing."""
    document = with_evenings(export_circle(club), 5)
    document["evenings"][4]["payments"][0]["amount"] = "6.005"
    before = {model.__name__: model.objects.count() for model in (*STORED, *EVENING_MODELS)}
    with pytest.raises(RuleError) as error:
        import_circle(document, accounts={"fiona": User.objects.get(username="fiona")}, batch=2)
    assert error.value.problems[0].field == "evenings.4.payments.0.amount"
    after = {model.__name__: model.objects.count() for model in (*STORED, *EVENING_MODELS)}
    assert after == before
