"""The club evenings API (api.md, "Club evenings", without the money): start, roll,
draw, a paper table, read; tokens, Idempotency-Key and If-Match as the sheets API;
the OpenAPI description from the declarations that read the requests."""

from __future__ import annotations

import datetime
import json

import pytest

from evenings.api import Draw, NewEvening, PaperResult, PlayerEntry, RollAdd
from evenings.models import Evening, EveningTable, Series
from evenings.rules import seating
from games import services as sheet_services
from games.models import Hand

pytestmark = pytest.mark.django_db

TODAY = datetime.date.today().isoformat()


def post(client, path, body, token=None, **headers):
    extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}
    if token:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    return client.post(path, json.dumps(body), content_type="application/json", **extra)


def start(client, **kw):
    body = {"game": "skat", "name": "Preisskat", "date": TODAY, "series": 2, **kw}
    response = post(client, "/api/v1/evenings", body)
    assert response.status_code == 201, response.content
    return response.json()


def test_an_evening_is_started_and_read_with_its_tokens(client):
    made = start(client, series_deals={"3": 27, "4": 32})
    assert made["series_deals"] == {"3": 27, "4": 32, "5": 60}
    assert made["organiser_token"]
    assert made["view_token"]
    assert made["urls"]["board"].endswith(f"/e/{made['organiser_token']}/")
    path = f"/api/v1/evenings/{made['id']}"
    read = client.get(path, HTTP_AUTHORIZATION=f"Bearer {made['view_token']}")
    assert read.status_code == 200
    assert read["ETag"] == f'"{made["id"]}-0"'
    assert client.get(path).status_code == 404
    assert client.get(path, HTTP_AUTHORIZATION="Bearer nope").status_code == 404


def test_bad_input_is_a_4xx_that_changes_nothing(client):
    bad = post(client, "/api/v1/evenings", {"game": "chess", "name": "", "date": "soon"})
    assert bad.status_code == 400
    fields = {e["field"] for e in bad.json()["errors"]}
    assert {"game", "name", "date"} <= fields
    odd = post(
        client,
        "/api/v1/evenings",
        {"game": "skat", "name": "X", "date": TODAY, "series_deals": {"4": 30}},
    )
    assert odd.status_code == 422
    assert odd.json()["errors"][0]["field"] == "series_deals.4"
    # A table's sheet holds a series of at most 200 deals: a longer one is refused when
    # the evening starts, not at every draw after (independent audit).
    long = post(
        client,
        "/api/v1/evenings",
        {"game": "skat", "name": "X", "date": TODAY, "series_deals": {"3": 201, "4": 204}},
    )
    assert long.status_code == 422
    assert [(e["field"], e["message"]) for e in long.json()["errors"]] == [
        ("series_deals.3", "A series at a table of 3 has at most 198 deals, not 201."),
        ("series_deals.4", "A series at a table of 4 has at most 200 deals, not 204."),
    ]
    # A currency that is not text is a wrong type: 4xx, not a 500 (independent audit).
    for currency in (["EUR"], {"code": "EUR"}):
        money = {"currency": currency, "entry_fee": "6.00"}
        typed = post(
            client, "/api/v1/evenings", {"game": "skat", "name": "X", "date": TODAY, "money": money}
        )
        assert typed.status_code == 422, typed.content
        assert typed.json()["errors"][0]["field"] == "money.currency"
    assert not Evening.objects.exists()
    made = start(client, money={"currency": "EUR", "entry_fee": "5.00"})
    before = Evening.objects.values("money", "version").get()
    again = client.put(
        f"/api/v1/evenings/{made['id']}/money",
        json.dumps({"money": {"currency": ["EUR"], "entry_fee": "6.00"}}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {made['organiser_token']}",
    )
    assert again.status_code == 422, again.content
    assert Evening.objects.values("money", "version").get() == before


def test_the_roll_the_draw_and_a_paper_table(client):
    made = start(client)
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    few = post(client, base + "/players", {"names": ["Ann", "Bo"]}, token)
    assert few.status_code == 201
    two = post(client, base + "/series", {"draw": "lot", "seed": 4}, token)
    assert two.status_code == 422
    assert "at least 3 players" in two.json()["errors"][0]["message"]
    assert not Series.objects.exists()
    post(client, base + "/players", {"names": ["Cy", "Di", "Ed", "Flo", "Gus"]}, token)
    view = post(client, base + "/series", {"draw": "lot", "seed": 4}, made["view_token"])
    assert view.status_code == 403
    drawn = post(client, base + "/series", {"draw": "lot", "seed": 4}, token)
    assert drawn.status_code == 201
    body = drawn.json()
    assert [t["size"] for t in body["tables"]] == [4, 3]
    roll = sorted(p for t in body["tables"] for p in t["players"])
    expected = seating.draw_series(roll, method="lot", seed=4)
    assert [t["players"] for t in body["tables"]] == [list(t.players) for t in expected.tables]
    again = post(client, base + "/series", {"draw": "lot", "seed": 5}, token)
    assert again.status_code == 422
    assert "still being played" in again.json()["errors"][0]["message"]
    three = body["tables"][1]
    a, b, c = three["players"]
    foot = [
        {"player": a, "points": 48, "won": 1, "lost": 0},
        {"player": b, "points": 0, "won": 0, "lost": 0},
        {"player": c, "points": 0, "won": 0, "lost": 0},
    ]
    path = base + "/series/1/tables/2/result"
    wrong = post(client, path, {"players": foot, "rows": [{"declarer": a, "value": 24}]}, token)
    assert wrong.status_code == 422
    impossible = post(client, path, {"rows": [{"declarer": a, "value": 25}]}, token)
    assert impossible.status_code == 422
    assert not EveningTable.objects.filter(paper=True).exists()
    ok = post(client, path, {"players": foot, "rows": [{"declarer": a, "value": 48}]}, token)
    assert ok.status_code == 200, ok.content
    read = client.get(base, HTTP_AUTHORIZATION=f"Bearer {token}").json()
    top = read["ranking"][0]
    # Seeger-Fabian at three: 48 + 50 × 1 = 98.
    assert (top["player"], top["total"], top["place"]) == (a, 98, 1)
    table = read["series"][0]["tables"][1]
    assert table["done"]
    assert table["paper"]
    assert not table["signed"]
    assert "table_token" in read["series"][0]["tables"][0]
    viewed = client.get(base, HTTP_AUTHORIZATION=f"Bearer {made['view_token']}").json()
    assert "table_token" not in viewed["series"][0]["tables"][0]


def test_the_roll_says_paid_also_when_the_evening_keeps_no_money(client):
    """api.md, Club evenings: the roll's entries each carry `player`, `name` and `paid`
    (bool), and `money` is optional. Without money nobody owes anything: paid. The
    organiser's answers carry it (the roll write, a player's PUT, the evening's read);
    the view token's read does not (who has paid is the organiser's to see)."""
    made = start(client)
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    added = post(client, base + "/players", {"names": ["Ann", "Bo", "Cy"]}, token)
    assert added.status_code == 201
    assert [entry["paid"] for entry in added.json()["roll"]] == [True, True, True]
    first = added.json()["roll"][0]["player"]
    put = client.put(
        f"{base}/players/{first}",
        json.dumps({"team": "Blue"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert put.status_code == 200, put.content
    assert put.json()["paid"] is True
    read = client.get(base, HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert all(entry["paid"] is True for entry in read["roll"])
    viewed = client.get(base, HTTP_AUTHORIZATION=f"Bearer {made['view_token']}").json()
    assert all("paid" not in entry for entry in viewed["roll"])


def test_a_circle_evenings_roll_names_each_circle_player(client):
    """api.md, Club evenings: `{"players": [circle player ids]}` adds the circle's
    players to the roll. Each entry names the circle's player (`circle_player`, its id
    in the circle) beside `player`, the id the evening's calls take (unique on the
    roll even where a name typed at the door stands beside the circle's players, and
    the circle's ids could meet the evening's); a name typed at the door has none."""
    from django.contrib.auth.models import User

    from circles import services as circle_services

    owner = User.objects.create_user("olga", "o@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    members = [circle_services.player_add(circle=circle, name=n) for n in ("Ben", "Cem", "Dan")]
    client.login(username="olga", password="pw-long-enough-1")
    made = start(client, circle=circle.pk)
    client.logout()
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    ids = [p.pk for p in members]
    added = post(client, base + "/players", {"players": ids}, token)
    assert added.status_code == 201, added.content
    guest = post(client, base + "/players", {"names": ["Gast"]}, token)
    assert guest.status_code == 201, guest.content
    roll = client.get(base, HTTP_AUTHORIZATION=f"Bearer {token}").json()["roll"]
    assert [(e["name"], e["circle_player"]) for e in roll] == [
        ("Ben", ids[0]),
        ("Cem", ids[1]),
        ("Dan", ids[2]),
        ("Gast", None),
    ]
    assert [e["circle_player"] for e in added.json()["roll"]] == ids
    loose = start(client)
    typed = post(
        client,
        f"/api/v1/evenings/{loose['id']}/players",
        {"names": ["Ann"]},
        loose["organiser_token"],
    )
    assert typed.json()["roll"][0]["circle_player"] is None


def test_a_paper_tables_sheet_takes_no_deals(client):
    """api.md, Club evenings: "a table has either deals or a paper result". Once a
    table is recorded from its paper list, its sheet refuses a deal (the API with its
    table token, and the sheet's own form), keeps nothing of it, and its page says why
    instead of offering the entry form. Found by an audit: the deal was stored and the
    evening silently left it out."""
    made = start(client, series_deals={"3": 3})
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    post(client, base + "/players", {"names": ["A", "B", "C"]}, token)
    table = post(client, base + "/series", {"seed": 1}, token).json()["tables"][0]
    a, b, c = table["players"]
    foot = [
        {"player": a, "points": 48, "won": 1, "lost": 0},
        {"player": b, "points": 0, "won": 0, "lost": 0},
        {"player": c, "points": 0, "won": 0, "lost": 0},
    ]
    paper = post(client, base + "/series/1/tables/1/result", {"players": foot}, token)
    assert paper.status_code == 200, paper.content
    before = client.get(base, HTTP_AUTHORIZATION=f"Bearer {token}").json()

    grand = {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
    refused = post(client, f"/api/v1/sheets/{table['sheet']}/hands", grand, table["table_token"])
    assert refused.status_code == 422
    message = refused.json()["errors"][0]["message"]
    assert "recorded from its paper list" in message
    assert "takes no deals" in message
    page_url = f"/en/s/{table['table_token']}/"
    page = client.get(page_url).content.decode()
    assert "This table was recorded from its paper list." in page
    assert 'name="declarer"' not in page
    form = {
        "mode": "game",
        "declarer": "0",
        "game": "grand",
        "bid": "24",
        "matadors_by": "count",
        "matadors_direction": "with",
        "matadors_count": "1",
        "result_by": "outcome",
        "outcome": "won",
    }
    typed = client.post(page_url, form)
    assert typed.status_code == 422
    assert "takes no deals" in typed.content.decode()
    assert not Hand.objects.filter(sheet_id=table["sheet"]).exists()
    assert client.get(base, HTTP_AUTHORIZATION=f"Bearer {token}").json() == before


def test_a_table_token_writes_only_its_own_sheet(client):
    made = start(client)
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    post(client, base + "/players", {"names": ["A", "B", "C", "D", "E", "F"]}, token)
    tables = post(client, base + "/series", {"seed": 1}, token).json()["tables"]
    one, two = tables
    entered = post(
        client, f"/api/v1/sheets/{one['sheet']}/hands", {"passed": True}, one["table_token"]
    )
    assert entered.status_code == 201
    other = post(
        client, f"/api/v1/sheets/{two['sheet']}/hands", {"passed": True}, one["table_token"]
    )
    assert other.status_code in (403, 404)
    assert post(client, base + "/players", {"names": ["Z"]}, one["table_token"]).status_code == 404
    read = client.get(base, HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert [t["deals"] for t in read["series"][0]["tables"]] == [1, 0]


def test_a_retry_of_the_same_json_in_another_order_is_the_same_request(client):
    """api.md: evenings take an Idempotency-Key as sheets do ("the same key again
    returns the first answer and stores nothing new"). A retry of the same JSON object,
    written with its members in another order or other spacing (a client library
    writing it anew), is the same request: the first answer, nothing stored twice, for
    a roll write and for starting the evening. Found by an audit: it was refused as
    "a different request" (the raw text was compared)."""
    first = '{"game": "skat", "name": "Preisskat", "date": "DAY", "series": 2}'.replace(
        "DAY", TODAY
    )
    again = '{"series":2,"date":"DAY","name":"Preisskat","game":"skat"}'.replace("DAY", TODAY)
    key = {"HTTP_IDEMPOTENCY_KEY": "start-1"}
    made = client.post("/api/v1/evenings", first, content_type="application/json", **key)
    retried = client.post("/api/v1/evenings", again, content_type="application/json", **key)
    assert made.status_code == retried.status_code == 201, retried.content
    assert retried.json()["id"] == made.json()["id"]
    assert Evening.objects.count() == 1
    body = made.json()
    token, base = body["organiser_token"], f"/api/v1/evenings/{body['id']}"
    key = {"HTTP_IDEMPOTENCY_KEY": "roll-1", "HTTP_AUTHORIZATION": f"Bearer {token}"}
    added = client.post(
        base + "/players", '{"names": ["Ann", "Bo"]}', content_type="application/json", **key
    )
    repeated = client.post(
        base + "/players", '{ "names" : [ "Ann","Bo" ] }', content_type="application/json", **key
    )
    assert added.status_code == repeated.status_code == 201, repeated.content
    assert repeated.json() == added.json()
    assert len(added.json()["roll"]) == 2
    other = client.post(
        base + "/players", '{"names": ["Cy"]}', content_type="application/json", **key
    )
    assert other.status_code == 422


def test_a_retried_write_is_answered_once_and_if_match_refuses_a_stale_one(client):
    made = start(client)
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    first = post(client, base + "/players", {"names": ["Ann"]}, token, **{"Idempotency-Key": "k1"})
    again = post(client, base + "/players", {"names": ["Ann"]}, token, **{"Idempotency-Key": "k1"})
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert Evening.objects.get().players.count() == 1
    stale = post(client, base + "/players", {"names": ["Bo"]}, token, **{"If-Match": '"0"'})
    assert stale.status_code == 400 or stale.status_code == 412
    stale = post(client, base + "/players", {"names": ["Bo"]}, token, **{"If-Match": "0"})
    assert stale.status_code == 412
    assert stale.json()["evening"]["version"] == 1
    fresh = post(client, base + "/players", {"names": ["Bo"]}, token, **{"If-Match": first["ETag"]})
    assert fresh.status_code == 201
    assert fresh["ETag"] == f'"{made["id"]}-2"'


def test_a_player_leaves_with_delete(client):
    made = start(client)
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    roll = post(client, base + "/players", {"names": ["Ann", "Bo"]}, token).json()["roll"]
    gone = client.delete(
        f"{base}/players/{roll[0]['player']}", HTTP_AUTHORIZATION=f"Bearer {token}"
    )
    assert gone.status_code == 200
    assert [p["left"] for p in gone.json()["roll"]] == [True, False]
    assert (
        client.delete(f"{base}/players/{roll[0]['player']}", HTTP_AUTHORIZATION=f"Bearer {token}")
    ).status_code == 404


def test_the_openapi_description_comes_from_the_declarations(client):
    schema = client.get("/api/v1/openapi.json").json()
    paths = schema["paths"]
    for declared, path in (
        (NewEvening, "/api/v1/evenings"),
        (RollAdd, "/api/v1/evenings/{id}/players"),
        (Draw, "/api/v1/evenings/{id}/series"),
        (PaperResult, "/api/v1/evenings/{id}/series/{n}/tables/{t}/result"),
    ):
        body = paths[path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        assert body == json.loads(json.dumps(declared.schema(), default=str))
    assert "get" in paths["/api/v1/evenings/{id}"]
    assert "delete" in paths["/api/v1/evenings/{id}/players/{player}"]
    put = paths["/api/v1/evenings/{id}/players/{player}"]["put"]["requestBody"]
    schema = put["content"]["application/json"]["schema"]
    assert schema == json.loads(json.dumps(PlayerEntry.schema(), default=str))


def test_a_sheet_entered_through_the_api_moves_the_evenings_ranking(client):
    made = start(client, series_deals={"3": 3})
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    post(client, base + "/players", {"names": ["A", "B", "C"]}, token)
    table = post(client, base + "/series", {"seed": 1}, token).json()["tables"][0]
    sheet_services.hand_record(
        sheet=EveningTable.objects.get().sheet,
        data={"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"},
    )
    read = client.get(base, HTTP_AUTHORIZATION=f"Bearer {token}").json()
    top = read["ranking"][0]
    assert top["player"] == table["players"][0]
    # Grand with 1, game 2: 24 × 2 = 48, + 50 for the game won.
    assert top["total"] == 98


def test_a_pitch_evening_that_lets_players_sit_out_names_them(client):
    made = start(client, game="pitch", sit_out=True)
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    assert made["sit_out"] is True
    roll = post(client, base + "/players", {"names": list("ABCDE")}, token).json()["roll"]
    drawn = post(client, base + "/series", {"seed": 3}, token).json()
    assert drawn["sitting_out"] == [roll[0]["player"]]
    assert [t["size"] for t in drawn["tables"]] == [4]


def test_the_roll_takes_teams_and_categories_and_put_sets_them_again(client):
    """Issue 17, teams: players are grouped in teams or tandems and tagged with
    categories at the roll (rule evening-teams); PUT sets a player's as a whole."""
    made = start(client)
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    body = {"names": ["Ann", "Bo"], "team": "North", "tags": ["women", "seniors"]}
    roll = post(client, base + "/players", body, token).json()["roll"]
    assert [(p["name"], p["team"], p["tags"]) for p in roll] == [
        ("Ann", "North", ["women", "seniors"]),
        ("Bo", "North", ["women", "seniors"]),
    ]
    put = lambda player, body, **headers: client.put(  # noqa: E731
        f"{base}/players/{player}",
        json.dumps(body),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
        **{f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()},
    )
    bo = roll[1]["player"]
    changed = put(bo, {"team": "South", "tags": ["juniors"]}, **{"Idempotency-Key": "k1"})
    assert changed.status_code == 200
    assert (changed.json()["team"], changed.json()["tags"]) == ("South", ["juniors"])
    # Sent again with the same key: answered once, changed once.
    version = Evening.objects.get().version
    assert put(bo, {"team": "South", "tags": ["juniors"]}, **{"Idempotency-Key": "k1"}).json() == (
        changed.json()
    )
    assert Evening.objects.get().version == version
    cleared = put(bo, {}).json()
    assert (cleared["team"], cleared["tags"]) == ("", [])
    # Bad input: a clear message, a 4xx, and nothing changed.
    too_many = put(bo, {"tags": ["a", "b", "c", "d", "e", "f"]})
    assert too_many.status_code == 400
    assert put(bo, {"team": 7}).status_code == 400
    assert client.put(
        f"{base}/players/{bo}", "{}", content_type="application/json"
    ).status_code in (
        403,
        404,
    )
    read = client.get(base, HTTP_AUTHORIZATION=f"Bearer {token}").json()
    assert [(p["team"], p["tags"]) for p in read["roll"]] == [
        ("North", ["women", "seniors"]),
        ("", []),
    ]
    assert client.patch(f"{base}/players/{bo}").status_code == 405


def test_a_circle_member_starts_an_evening_in_the_circle_a_stranger_cannot(client):
    """api.md, Club evenings: an evening in a circle needs a member's login."""
    from django.contrib.auth.models import User

    from circles import services as circle_services

    owner = User.objects.create_user("olga", "o@example.org", "pw-long-enough-1")
    member = User.objects.create_user("max", "m@example.org", "pw-long-enough-1")
    User.objects.create_user("sam", "s@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    circle_services.circle_join(user=member, token=circle.invite_token)
    body = {"game": "skat", "name": "Tuesday", "date": TODAY, "series": 2, "circle": circle.pk}
    assert post(client, "/api/v1/evenings", body).status_code == 403
    client.login(username="sam", password="pw-long-enough-1")
    refused = post(client, "/api/v1/evenings", body)
    assert refused.status_code == 403
    assert "member of the circle" in refused.json()["errors"][0]["message"]
    assert not Evening.objects.exists()
    client.login(username="max", password="pw-long-enough-1")
    made = post(client, "/api/v1/evenings", body)
    assert made.status_code == 201
    assert Evening.objects.get().circle == circle
