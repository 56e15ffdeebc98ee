"""``GET /api/v1/seasons/{id}/standings``: who may read it, what it shows, and that
every answer matches the project's OpenAPI schema."""

from __future__ import annotations

import dataclasses
import datetime
import json

import pytest
from django.contrib.auth import get_user_model
from jsonschema import Draft202012Validator

from circles import api, services
from circles.models import CircleSheet, Player
from circles.selectors import season_standings
from games import openapi
from games import services as sheet_services

pytestmark = pytest.mark.django_db

SCHEMA = openapi.schema()
PATH = "/api/v1/seasons/{id}/standings"
User = get_user_model()

POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def pitched(pitcher: int, bid: int | str, code: str) -> dict:
    return {"pitcher": pitcher, "bid": bid, "points": dict(zip(POINT_KEYS, code, strict=True))}


# Three at the table, a series of three deals: Ben's Grand Hand with 2 won (+96), Ana's
# Clubs with 1 lost (−48), thrown in. Seeger-Fabian (DSkV/ISPA): Ana −98, Ben 186, Cem 40.
SKAT_THREE = [
    {
        "declarer": 1,
        "game": "grand",
        "bid": 48,
        "hand": True,
        "matadors": {"with": 2},
        "outcome": "won",
    },
    {"declarer": 0, "game": "clubs", "bid": 18, "matadors": {"with": 1}, "outcome": "lost"},
    {"passed": True},
]
# A failed moon loses the game at once (10-Point Pitch, "Shooting the moon"): team A wins.
PITCH = [pitched(1, 5, "BBBBBAAA"), pitched(1, "moon", "BBBBBBBA")]
# Cem reaches 205; Ana wins with 45 (Manipulation, "End of the game").
MANIPULATION = [
    {"penalties": [0, 35, 60]},
    {"penalties": [45, 0, 10]},
    {"penalties": [0, 150, 135]},
]

DAY = datetime.date(2025, 3, 11)


def validator(schema: dict) -> Draft202012Validator:
    # Local $refs ("#/components/...") resolve when the components travel with the schema.
    return Draft202012Validator(
        {**schema, "components": SCHEMA["components"]},
        format_checker=Draft202012Validator.FORMAT_CHECKER,
    )


def response_schema(status: int) -> dict:
    content = SCHEMA["paths"][PATH]["get"]["responses"][str(status)]["content"]
    return content["application/json"]["schema"]


def get(client, season_id: int, *, token: str | None = None, query: str = ""):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    response = client.get(f"/api/v1/seasons/{season_id}/standings{query}", **headers)
    assert response["Content-Type"] == "application/json"
    body = response.json()
    errors = sorted(validator(response_schema(response.status_code)).iter_errors(body), key=str)
    assert not errors, [e.message for e in errors]
    return response.status_code, body


def play(circle, game, names, deals, *, on=DAY, options=None) -> CircleSheet:
    sheet = services.sheet_create_in_circle(
        circle=circle, game=game, players=names, options=options
    )
    for deal in deals:
        sheet_services.hand_record(sheet=sheet, data=deal)
    return services.sheet_set_played_on(link=CircleSheet.objects.get(sheet=sheet), played_on=on)


@pytest.fixture
def olga():
    return User.objects.create_user("olga", "olga@example.org")


@pytest.fixture
def setup(olga):
    circle = services.circle_create(owner=olga, name="Tuesday club")
    season = services.season_save(
        circle=circle,
        data={
            "name": "Spring",
            "starts_on": "2025-03-01",
            "ends_on": "2025-05-31",
            "planned_evenings": 8,
        },
    )
    three = {"series_deals": 3}
    counted = [
        play(circle, "skat", ["Ana Lee", "Ben", "Cem Oz"], SKAT_THREE, options=three),
        play(circle, "pitch", ["Ana Lee", "Ben", "Cem Oz", "Gus"], PITCH),
        play(circle, "manipulation", ["Ana Lee", "Ben", "Cem Oz"], MANIPULATION),
        play(
            circle,
            "skat",
            ["Cem Oz", "Ana Lee", "Ben"],
            SKAT_THREE,
            options=three,
            on=DAY + datetime.timedelta(days=7),
        ),
    ]
    # Not counted: open, left out as a practice game, played before the season.
    play(circle, "skat", ["Ana Lee", "Ben", "Cem Oz"], SKAT_THREE[:1], options=three)
    practice = play(circle, "manipulation", ["Ana Lee", "Ben", "Dan"], MANIPULATION)
    services.sheet_set_counted(link=practice, counted=False)
    play(
        circle,
        "manipulation",
        ["Ana Lee", "Ben", "Eve"],
        MANIPULATION,
        on=datetime.date(2025, 2, 1),
    )

    players = {p.name: p for p in circle.players.all()}
    services.player_update(player=players["Ana Lee"], shown_as=Player.INITIALS)
    services.player_update(player=players["Cem Oz"], shown_as=Player.FIRST)
    services.player_update(player=players["Gus"], guest=True)
    return circle, season, counted, {p.name: p for p in circle.players.all()}


def names_in(body: dict) -> dict[int, str]:
    return {p["id"]: p["name"] for p in body["players"]}


# -- who may read it ------------------------------------------------------------------------


def test_the_view_token_reads_the_standings_with_public_names(client, setup):
    _, season, _, players = setup
    status, body = get(client, season.pk, token=season.view_token)
    assert status == 200
    assert names_in(body) == {
        players["Ana Lee"].pk: "A.L.",
        players["Ben"].pk: "Ben",
        players["Cem Oz"].pk: "Cem",
    }
    # Neither the table, the reasons, the title race nor the change log names the
    # players in full.
    text = json.dumps(body, ensure_ascii=False)
    assert "Ana Lee" not in text
    assert "Cem Oz" not in text
    assert body["title_race"]  # there is a race to speak of
    assert body["season"] == {
        "id": season.pk,
        "name": "Spring",
        "starts_on": "2025-03-01",
        "ends_on": "2025-05-31",
        "skat_rules": season.skat_rules,
    }


def test_a_member_reads_the_full_names(client, setup, olga):
    _, season, _, players = setup
    client.force_login(olga)
    status, body = get(client, season.pk)
    assert status == 200
    assert names_in(body) == {
        players["Ana Lee"].pk: "Ana Lee",
        players["Ben"].pk: "Ben",
        players["Cem Oz"].pk: "Cem Oz",
    }
    assert any(
        "Ana Lee" in line or "Cem Oz" in line or "Ben" in line
        for lines in body["title_race"].values()
        for line in lines
    )
    # A member holding the token too still sees the circle's names.
    status, body = get(client, season.pk, token=season.view_token)
    assert names_in(body)[players["Ana Lee"].pk] == "Ana Lee"


def test_another_signed_in_user_gets_404(client, setup):
    _, season, _, _ = setup
    client.force_login(User.objects.create_user("zoe"))
    status, body = get(client, season.pk)
    assert status == 404
    assert body["errors"][0]["field"] is None
    assert "Bearer" in body["errors"][0]["message"]


@pytest.mark.parametrize("token", [None, "not-the-token", ""])
def test_anonymous_without_the_token_gets_404(client, setup, token):
    _, season, _, _ = setup
    status, body = get(client, season.pk, token=token)
    assert status == 404
    assert set(body) == {"errors"}


def test_a_token_opens_its_own_season_only(client, setup):
    circle, season, _, _ = setup
    other = services.season_save(
        circle=circle, data={"name": "Summer", "starts_on": "2025-06-01", "ends_on": "2025-08-31"}
    )
    assert get(client, other.pk, token=season.view_token)[0] == 404
    assert get(client, other.pk, token=other.view_token)[0] == 200
    # A season that does not exist answers as one the token does not open.
    assert get(client, other.pk + 100, token=season.view_token)[0] == 404
    assert get(client, 10**30, token=season.view_token)[0] == 404


def test_a_rotated_token_stops_working_at_once(client, setup):
    _, season, _, _ = setup
    old = season.view_token
    new = services.season_rotate_token(season=season)
    assert get(client, season.pk, token=old)[0] == 404
    assert get(client, season.pk, token=new)[0] == 200


def test_the_answer_is_not_cached_publicly_and_only_get_is_allowed(client, setup):
    _, season, _, _ = setup
    url = f"/api/v1/seasons/{season.pk}/standings"
    response = client.get(url, HTTP_AUTHORIZATION=f"Bearer {season.view_token}")
    assert "private" in response["Cache-Control"]
    assert "no-cache" in response["Cache-Control"]
    assert client.post(url, HTTP_AUTHORIZATION=f"Bearer {season.view_token}").status_code == 405


# -- what it shows --------------------------------------------------------------------------


def test_the_sheets_counted_are_counted(client, setup):
    _, season, counted, _ = setup
    _, body = get(client, season.pk, token=season.view_token)
    # The open sheet, the practice game and the sheet before the season are not counted.
    # (How many, not which: a season of thousands would list them all, issue 20.)
    assert body["counted_sheets"] == len(counted) == 4
    assert "sheets" not in body
    assert body["open_sheets"] == 1
    assert body["standings"]["skat"]["evenings"] == ["2025-03-11", "2025-03-18"]

    # What the OpenAPI description says of them matches (api.md: "the listed ones must
    # be exactly as described"; an audit found it still naming the ids it no longer
    # lists).
    described = str(
        client.get("/api/v1/openapi.json").json()["paths"]["/api/v1/seasons/{id}/standings"]["get"][
            "description"
        ]
    )
    assert "counted_sheets says how many finished sheets count" in described
    assert "open_sheets how many are still being played" in described
    assert "ids" not in described


COLUMNS = {
    "skat": api.SKAT_ROW,
    "pitch": api.PITCH_ROW,
    "manipulation": api.MANIPULATION_ROW,
}


def test_every_row_has_every_column_of_the_standings(client, setup):
    _, season, _, players = setup
    _, body = get(client, season.pk, token=season.view_token)
    standings = season_standings(season)
    assert set(body["standings"]) == {"skat", "pitch", "manipulation"}
    for game, table in standings.tables.items():
        rows = body["standings"][game]["ranked"]
        assert [row["player"] for row in rows] == [row.player for row in table.ranked]
        for answered, row in zip(rows, table.ranked, strict=True):
            assert set(answered) == set(COLUMNS[game]["properties"])
            for column, value in dataclasses.asdict(row).items():
                if column in ("reasons", "partners"):
                    continue
                expected = round(value, 4) if isinstance(value, float) else value
                assert answered[column] == expected, (game, column)
            assert [r["code"] for r in answered["reasons"]] == [r.code for r in row.reasons]
            assert all(r["text"] for r in answered["reasons"])
    # Seeger-Fabian (DSkV/ISPA): the same three deals twice, the seats turned; each
    # series −98, 186 and 40 by seat. Ben 186 + 40 = 226, Ana −98 + 186 = 88,
    # Cem 40 − 98 = −58; ranked by the total.
    skat = body["standings"]["skat"]["ranked"]
    assert [(r["player"], r["sf_total"], r["series"], r["place"]) for r in skat] == [
        (players["Ben"].pk, 226, 2, 1),
        (players["Ana Lee"].pk, 88, 2, 2),
        (players["Cem Oz"].pk, -58, 2, 3),
    ]
    # Pitch: partners share their team's result; Ana (with Cem) won, Ben lost.
    pitch = {r["player"]: r for r in body["standings"]["pitch"]["ranked"]}
    assert pitch[players["Ana Lee"].pk]["won"] == pitch[players["Cem Oz"].pk]["won"] == 1
    assert pitch[players["Ben"].pk]["won"] == 0
    assert pitch[players["Ana Lee"].pk]["partners"] == [
        {"player": players["Cem Oz"].pk, "games": 1, "won": 1}
    ]
    # Manipulation: Ana won with 45 over three rounds.
    manipulation = body["standings"]["manipulation"]["ranked"][0]
    assert (manipulation["player"], manipulation["won"], manipulation["penalties"]) == (
        players["Ana Lee"].pk,
        1,
        45,
    )
    assert manipulation["avg_penalty"] == 15.0


def test_guests_are_left_out_unless_asked_for(client, setup):
    _, season, counted, players = setup
    gus = players["Gus"].pk
    _, body = get(client, season.pk, token=season.view_token)
    assert gus not in names_in(body)
    assert gus not in [r["player"] for r in body["standings"]["pitch"]["ranked"]]
    # The sheet he played on still counts for the others.
    assert body["counted_sheets"] == len(counted)

    _, body = get(client, season.pk, token=season.view_token, query="?guests=1")
    assert names_in(body)[gus] == "Gus"
    assert {p["id"]: p["guest"] for p in body["players"]}[gus] is True
    assert gus in [r["player"] for r in body["standings"]["pitch"]["ranked"]]


def test_a_correction_after_the_evening_is_in_the_change_log(client, setup, olga):
    _, season, counted, _ = setup
    sheet_services.hand_correct(sheet=counted[2].sheet, number=2, data={"penalties": [40, 0, 15]})
    _, public = get(client, season.pk, token=season.view_token)
    # Newest first: the correction (of a Manipulation round, named as its sheet names
    # it), then the practice game left out.
    assert [c["text"].split(": ", 1)[1].split(".")[0] for c in public["changes"]] == [
        "round 2 was corrected",
        "the sheet was marked as a practice game",
    ]
    assert "A.L. 45 → 40; Cem 205 → 210" in public["changes"][0]["text"]
    client.force_login(olga)
    _, inside = get(client, season.pk)
    assert "Ana Lee 45 → 40; Cem Oz 205 → 210" in inside["changes"][0]["text"]


def test_a_season_without_counted_sheets_answers_empty_tables(client, setup):
    circle, _, _, _ = setup
    empty = services.season_save(
        circle=circle, data={"name": "Summer", "starts_on": "2025-06-01", "ends_on": "2025-08-31"}
    )
    status, body = get(client, empty.pk, token=empty.view_token)
    assert status == 200
    assert (body["standings"], body["counted_sheets"], body["players"]) == ({}, 0, [])
