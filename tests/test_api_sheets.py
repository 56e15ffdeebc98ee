"""The score-sheet part of the JSON API (/api/v1/sheets…), end to end through HTTP.

Every number here is worked out by hand from the rules; the comment next to each
case says which rule gives it.
"""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.db.models import F
from django.test.utils import CaptureQueriesContext

from games import selectors
from games.models import Hand, IdempotencyKey, Seat, Sheet

pytestmark = pytest.mark.django_db

THREE = ["Ana", "Ben", "Cem"]
FOUR = ["Ana", "Ben", "Cem", "Dan"]
FIVE = ["Ana", "Ben", "Cem", "Dan", "Eva"]

SKAT_DEFAULTS = {
    "kontra_re": False,
    "bock": {
        "sixty_all": False,
        "lost_after_kontra": False,
        "hundred_or_more": False,
        "grand_hand_won": False,
    },
    "all_pass": "throw_in",
    "ramsch_tie": "all_tied_lose",
    "series_deals": None,
}
PITCH_DEFAULTS = {
    "target": 52,
    "made_scores": "taken",
    "two_goes_to": "taker",
    "all_pass": "dealer_4",
    "win_condition": "bidder_first",
}
MANIPULATION_DEFAULTS = {"target": 200, "ace": "high", "stock_out": "play_on"}

# -- deals used below ----------------------------------------------------------------

# Skat. Grand Hand with 2: (2 matadors + 1 game + 1 hand) × 24 = 96, won: +96.
GRAND_HAND_WITH_2 = {
    "declarer": 1,
    "game": "grand",
    "bid": 48,
    "hand": True,
    "matadors": {"with": 2},
    "outcome": "won",
}
# Clubs with 1: (1 + 1) × 12 = 24; a lost game counts double: −48.
CLUBS_WITH_1_LOST = {
    "declarer": 0,
    "game": "clubs",
    "bid": 18,
    "matadors": {"with": 1},
    "outcome": "lost",
}
PASSED = {"passed": True}


def pitch_points(**taken: str) -> dict[str, str]:
    return {
        key: taken.get(key, "out")
        for key in ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")
    }


# Pitch. Team B takes ace, jack, high joker, ten, two (1 each) and the three (3): 8;
# team A the off-jack and low joker: 2. B bid 5 and made it, so scores what it took.
B_MAKES_5 = {
    "pitcher": 1,
    "bid": 5,
    "points": pitch_points(
        ace="B", jack="B", off_jack="A", high_joker="B", low_joker="A", ten="B", two="B", three="B"
    ),
}
# Team A takes ace, jack, off-jack and both jokers: 5; team B ten, two, three: 5.
A_MAKES_4 = {
    "pitcher": 0,
    "bid": 4,
    "points": pitch_points(
        ace="A", jack="A", off_jack="A", high_joker="A", low_joker="A", ten="B", two="B", three="B"
    ),
}
# Team A shoots the moon and takes all ten points.
A_MOON = {
    "pitcher": 2,
    "bid": "moon",
    "points": pitch_points(
        ace="A", jack="A", off_jack="A", high_joker="A", low_joker="A", ten="A", two="A", three="A"
    ),
}


# -- helpers ------------------------------------------------------------------------


def bearer(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


def send(client, method: str, path: str, body=None, *, token=None, key=None, raw=None):
    headers = bearer(token) if token else {}
    if key is not None:
        headers["HTTP_IDEMPOTENCY_KEY"] = key
    data = raw if raw is not None else (json.dumps(body) if body is not None else "")
    response = getattr(client, method)(path, data, content_type="application/json", **headers)
    assert response["Content-Type"] == "application/json"
    return response.status_code, response.json()


def create(client, game: str, players, options=None, **extra):
    body = {"game": game, "players": players, **extra}
    if options is not None:
        body["options"] = options
    return send(client, "post", "/api/v1/sheets", body)


def new_sheet(client, game: str, players, options=None, **extra) -> dict:
    status, body = create(client, game, players, options, **extra)
    assert status == 201, body
    return body


def add(client, sheet: dict, deal: dict, *, token=None, key=None):
    token = sheet["edit_token"] if token is None else token
    return send(client, "post", f"/api/v1/sheets/{sheet['id']}/hands", deal, token=token, key=key)


def added(client, sheet: dict, *deals: dict) -> dict:
    body: dict = {}
    for deal in deals:
        status, body = add(client, sheet, deal)
        assert status == 201, body
    return body


def read(client, sheet: dict, token=None):
    token = sheet["view_token"] if token is None else token
    return send(client, "get", f"/api/v1/sheets/{sheet['id']}", token=token)


def current(client, sheet: dict) -> dict:
    status, body = read(client, sheet)
    assert status == 200
    return body


def fields(body: dict) -> list[str | None]:
    return [error["field"] for error in body["errors"]]


def messages(body: dict) -> list[str]:
    return [error["message"] for error in body["errors"]]


def stored_entries(sheet: dict) -> list[dict]:
    return [h.entry for h in Hand.objects.filter(sheet_id=sheet["id"], removed_at__isnull=True)]


# -- POST /api/v1/sheets --------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "players", "options", "stored"),
    [
        pytest.param("skat", THREE, None, SKAT_DEFAULTS, id="skat-3-defaults"),
        pytest.param(
            "skat",
            FOUR,
            {"kontra_re": True, "series_deals": 12},
            {**SKAT_DEFAULTS, "kontra_re": True, "series_deals": 12},
            id="skat-4-options",
        ),
        pytest.param("pitch", FOUR, None, PITCH_DEFAULTS, id="pitch"),
        pytest.param(
            "manipulation",
            ["Ana", "Ben", "Cem", "Dan", "Eva"],
            {"target": 300},
            {**MANIPULATION_DEFAULTS, "target": 300},
            id="manipulation-5",
        ),
    ],
)
def test_create_answers_201_with_tokens_urls_and_every_option(
    client, game, players, options, stored
):
    status, body = create(client, game, players, options)
    assert status == 201
    sheet = Sheet.objects.get(pk=body["id"])
    assert body["game"] == game
    assert body["players"] == players
    assert body["options"] == stored == sheet.options
    assert body["edit_token"] == sheet.edit_token
    assert body["view_token"] == sheet.view_token
    assert len({body["edit_token"], body["view_token"]}) == 2
    assert len(body["edit_token"]) >= 40  # 32 random bytes, unguessable
    assert body["urls"] == {
        "edit": f"http://testserver/en/s/{sheet.edit_token}/",
        "view": f"http://testserver/en/v/{sheet.view_token}/",
    }
    assert body["hands"] == []
    assert body["totals"] == [0] * len(players)
    assert body["finished"] is False
    assert body["winners"] == []
    assert body["next_deal"]["number"] == 1
    assert body["next_deal"]["dealer"] == 0
    assert [s.name for s in sheet.seats.all()] == players


def test_create_pitch_gives_team_totals_and_the_traditional_rules_in_words(client):
    body = new_sheet(client, "pitch", FOUR)
    # Partners sit opposite: seats 1 and 3 are team A, seats 2 and 4 team B.
    assert body["team_totals"] == {"A": 0, "B": 0}
    assert body["headline"] == "Team A 0 · Team B 0 · 52 wins"
    assert body["options_summary"][0] == "Game to 52"
    assert len(body["options_summary"]) == 5  # every option, defaults included


def test_a_pitch_sheet_of_a_fixed_number_of_hands_ends_after_them(client):
    # The option "hands" (rule book "End of the game": a game of a fixed number of
    # hands ends after its last hand; the higher score wins, level nobody does).
    body = new_sheet(client, "pitch", FOUR, {"hands": 2})
    assert body["options"]["hands"] == 2
    assert body["options_summary"][-1] == (
        "Ends after 2 hands at the latest: the higher score wins"
    )
    assert body["headline"] == "Team A 0 · Team B 0 · 52 wins · hand 1 of 2"
    after = added(client, body, B_MAKES_5, A_MAKES_4)  # B 8 + 5 = 13, A 2 + 5 = 7
    assert after["finished"] is True
    assert after["headline"] == "Team B won 13 to 7: it had the higher score after 2 hands"
    status, refused = add(client, body, A_MAKES_4)
    assert status == 422
    assert "The game is over" in messages(refused)[0]
    assert current(client, body)["finished"] is True


def test_create_skat_at_four_says_the_dealer_sits_out(client):
    body = new_sheet(client, "skat", FOUR, first_dealer=2)
    # At a table of four the dealer sits the deal out; forehand is the next seat.
    assert body["next_deal"] == {
        "number": 1,
        "dealer": 2,
        "forehand": 3,
        "sitting_out": 2,
        "sitting_out_seats": [2],
        "notes": [],
    }
    assert body["first_dealer"] == 2


def test_skat_at_five_two_sit_out_and_seeger_fabian_gives_24(client):
    # Issue 17: at a table of five the dealer and the third player to his left sit out;
    # the two to his left and the one to his right play; a series is 60 deals.
    sheet = new_sheet(client, "skat", FIVE, first_dealer=1)
    assert sheet["next_deal"] == {
        "number": 1,
        "dealer": 1,
        "forehand": 2,
        "sitting_out": 1,
        "sitting_out_seats": [1, 4],
        "notes": [],
    }
    assert sheet["headline"] == "Deal 1 of 60 · no deal played yet"
    # Eva sits deal 1 out, so cannot be its declarer: 422 and nothing stored.
    status, body = add(client, sheet, {**GRAND_HAND_WITH_2, "declarer": 4})
    assert status == 422
    assert fields(body) == ["declarer"]
    assert current(client, sheet)["hands"] == []
    # Ana (on the dealer's right) plays Clubs with 1 and loses: (1 + 1) × 12 × 2 = −48.
    status, body = add(client, sheet, CLUBS_WITH_1_LOST)
    assert status == 201, body
    assert body["hand"]["score"] == [-48, 0, 0, 0, 0]
    whole = current(client, sheet)
    # Deal 2: Cem deals and sits out with Ana.
    assert whole["next_deal"]["sitting_out_seats"] == [2, 0]
    # Seeger-Fabian: 24 to each of the other four, both who sat out included; Ana has
    # −48 − 50 = −98.
    assert whole["headline"] == ("Deal 2 of 60 · Ben, Cem, Dan and Eva lead (Seeger-Fabian 24)")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        pytest.param(
            {"game": "skat", "players": ["Ana", "Ben"]},
            [("players", "Skat is played by 3 to 5 players; you gave 2.")],
            id="skat-two-players",
        ),
        pytest.param(
            {"game": "skat", "players": ["Ana", "Ben", "Cem", "Dan", "Eva", "Fay"]},
            [("players", "Skat is played by 3 to 5 players; you gave 6.")],
            id="skat-six-players",
        ),
        pytest.param(
            {"game": "pitch", "players": THREE},
            [("players", "10-Point Pitch is played by 4 players; you gave 3.")],
            id="pitch-three-players",
        ),
        pytest.param(
            {"game": "manipulation", "players": ["A", "B", "C", "D", "E", "F"]},
            [("players", "Manipulation is played by 3 to 5 players; you gave 6.")],
            id="manipulation-six-players",
        ),
        pytest.param(
            {"game": "bridge", "players": FOUR},
            [("game", "Choose a game: skat, pitch, manipulation.")],
            id="unknown-game",
        ),
        pytest.param(
            {"players": FOUR},
            [("game", "Choose a game: skat, pitch, manipulation.")],
            id="no-game",
        ),
        pytest.param(
            {"game": "pitch", "players": ["Ana", "Ben", "ana", "Dan"]},
            [("players.2", "ana is already at the table; give each seat its own name.")],
            id="duplicate-name-any-case",
        ),
        pytest.param(
            {"game": "skat", "players": ["Ana", "  ", "Cem"]},
            [("players.1", "Seat 2 needs a name.")],
            id="blank-name",
        ),
        pytest.param(
            {"game": "skat", "players": ["Ana", "B" * 41, "Cem"]},
            [("players.1", "Keep names to 40 characters; this one has 41.")],
            id="name-too-long",
        ),
        pytest.param(
            {"game": "skat", "players": "Ana, Ben, Cem"},
            [("players", "Give the players as a list of names in seat order.")],
            id="players-not-a-list",
        ),
        pytest.param(
            {"game": "skat", "players": THREE, "first_dealer": 3},
            [("first_dealer", "The first dealer must be one of the 3 seats.")],
            id="first-dealer-off-the-table",
        ),
        pytest.param(
            {"game": "skat", "players": THREE, "first_dealer": True},
            [("first_dealer", "Say who deals first by seat: 0 for the first seat.")],
            id="first-dealer-not-a-seat-number",
        ),
        pytest.param(
            {"game": "pitch", "players": FOUR, "options": {"target": 5}},
            [
                (
                    "options.target",
                    "The target must be a whole number of points from 11 to 500 (52 is "
                    "usual); got 5.",
                )
            ],
            id="pitch-target-too-low",
        ),
        pytest.param(
            {"game": "manipulation", "players": THREE, "options": {"target": 250}},
            [
                (
                    "options.target",
                    "The game is played to 200 or 300 penalty points; 250 is not one of them.",
                )
            ],
            id="manipulation-target-not-200-or-300",
        ),
        pytest.param(
            # A Bock round after a lost Kontra game cannot happen without Kontra.
            {"game": "skat", "players": THREE, "options": {"bock": {"lost_after_kontra": True}}},
            [("options.bock.lost_after_kontra", None)],
            id="skat-bock-after-kontra-without-kontra",
        ),
        pytest.param(
            {"game": "skat", "players": THREE, "options": {"kontra": True}},
            [("options.kontra", None)],
            id="skat-unknown-option",
        ),
        pytest.param(
            # Every problem at once: the player count and an option.
            {"game": "pitch", "players": THREE, "options": {"target": 600, "moon": True}},
            [("players", None), ("options.moon", None), ("options.target", None)],
            id="several-problems",
        ),
    ],
)
def test_create_refuses_bad_requests_with_422_and_every_field(client, body, expected):
    status, answer = send(client, "post", "/api/v1/sheets", body)
    assert status == 422
    assert sorted(fields(answer), key=str) == sorted((f for f, _ in expected), key=str)
    for field, message in expected:
        if message is not None:
            assert {"field": field, "message": message} in answer["errors"]
    assert Sheet.objects.count() == 0
    assert Seat.objects.count() == 0


def test_create_reports_a_duplicate_after_a_blank_seat_at_its_own_seat(client):
    status, answer = create(client, "skat", ["", "Ana", "ana"])
    assert status == 422
    assert fields(answer) == ["players.0", "players.2"]


def test_create_reports_name_and_option_problems_together(client):
    status, answer = create(client, "pitch", ["Ana", "ana", "Cem", "Dan"], {"target": 5})
    assert status == 422
    assert fields(answer) == ["players.1", "options.target"]


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        pytest.param("{not json", None, id="malformed"),
        pytest.param(
            '["skat"]',
            'The request body must be a JSON object, like {"game": "grand"}.',
            id="array",
        ),
        pytest.param("", "The request body is empty; send a JSON object.", id="empty"),
    ],
)
def test_create_answers_400_when_the_body_cannot_be_read(client, raw, message):
    status, answer = send(client, "post", "/api/v1/sheets", raw=raw)
    assert status == 400
    assert fields(answer) == [None]
    if message:
        assert messages(answer) == [message]
    assert Sheet.objects.count() == 0


def test_create_answers_400_for_an_unknown_field(client):
    status, answer = create(client, "skat", THREE, colour="green")
    assert status == 400
    assert answer["errors"] == [
        {"field": "colour", "message": '"colour" is not a field of a new sheet.'}
    ]
    assert Sheet.objects.count() == 0


def test_sheets_collection_takes_only_post(client):
    response = client.get("/api/v1/sheets")
    assert response.status_code == 405
    assert response["Allow"] == "POST"


def test_create_with_an_idempotency_key_makes_one_sheet(client):
    body = {"game": "skat", "players": THREE}
    first = send(client, "post", "/api/v1/sheets", body, key="new-sheet-1")
    again = send(client, "post", "/api/v1/sheets", body, key="new-sheet-1")
    assert first == again
    assert first[0] == 201
    assert Sheet.objects.count() == 1


def test_a_name_typed_on_one_sheet_changes_nothing_on_another(client):
    first = new_sheet(client, "skat", ["Ana", "Ben", "Cem"])
    new_sheet(client, "skat", ["ANA", "ben", "Dan"])
    # Names belong to their sheet: the first sheet still reads "Ana" and "Ben".
    status, body = send(client, "get", f"/api/v1/sheets/{first['id']}", token=first["view_token"])
    assert status == 200
    assert body["players"] == ["Ana", "Ben", "Cem"]


# -- GET /api/v1/sheets/{id} and the tokens -------------------------------------------


def test_get_with_edit_or_view_token_answers_the_same_sheet_without_tokens(client):
    sheet = new_sheet(client, "pitch", FOUR)
    added(client, sheet, B_MAKES_5)
    by_edit = read(client, sheet, sheet["edit_token"])
    by_view = read(client, sheet, sheet["view_token"])
    assert by_edit == by_view
    status, body = by_view
    assert status == 200
    assert "edit_token" not in body
    assert "view_token" not in body
    assert body["urls"] == {"view": sheet["urls"]["view"]}
    assert body["game"] == "pitch"
    assert body["players"] == FOUR
    assert body["options"] == PITCH_DEFAULTS
    assert [h["number"] for h in body["hands"]] == [1]
    assert body["hands"][0]["entry"] == B_MAKES_5
    assert body["hands"][0]["score"] == [2, 8, 2, 8]
    assert body["totals"] == [2, 8, 2, 8]
    assert body["team_totals"] == {"A": 2, "B": 8}
    assert body["finished"] is False
    assert body["winners"] == []
    assert body["version"] == 1


def test_get_carries_an_etag_that_changes_with_the_sheet(client):
    sheet = new_sheet(client, "pitch", FOUR)
    before = client.get(f"/api/v1/sheets/{sheet['id']}", **bearer(sheet["view_token"]))["ETag"]
    added(client, sheet, B_MAKES_5)
    after = client.get(f"/api/v1/sheets/{sheet['id']}", **bearer(sheet["view_token"]))["ETag"]
    assert before == f'"{sheet["id"]}-0"'
    assert after == f'"{sheet["id"]}-1"'


@pytest.mark.parametrize(
    "headers",
    [
        pytest.param({}, id="no-token"),
        pytest.param(bearer("not-the-token"), id="wrong-token"),
        pytest.param({"HTTP_AUTHORIZATION": "Basic abc"}, id="other-scheme"),
        pytest.param({"HTTP_AUTHORIZATION": "Bearer "}, id="empty-bearer"),
    ],
)
def test_reads_and_writes_without_a_valid_token_answer_404_and_change_nothing(client, headers):
    sheet = new_sheet(client, "pitch", FOUR)
    added(client, sheet, B_MAKES_5)
    base = f"/api/v1/sheets/{sheet['id']}"
    body = json.dumps(A_MAKES_4)
    answers = [
        client.get(base, **headers),
        client.post(f"{base}/hands", body, content_type="application/json", **headers),
        client.put(f"{base}/hands/1", body, content_type="application/json", **headers),
        client.delete(f"{base}/hands/1", **headers),
    ]
    # One answer for a missing sheet and a wrong token, so ids cannot be probed.
    for response in answers:
        assert response.status_code == 404
        assert fields(response.json()) == [None]
    assert stored_entries(sheet) == [B_MAKES_5]
    assert Sheet.objects.get(pk=sheet["id"]).version == 1


def test_a_sheet_that_does_not_exist_answers_404_even_with_a_real_token(client):
    sheet = new_sheet(client, "pitch", FOUR)
    status, body = send(
        client, "get", f"/api/v1/sheets/{sheet['id'] + 1}", token=sheet["edit_token"]
    )
    assert status == 404
    assert messages(body) == [
        "No sheet here for this token. Send Authorization: Bearer <edit or view token>."
    ]


def test_another_sheets_token_does_not_open_a_sheet(client):
    mine = new_sheet(client, "pitch", FOUR)
    theirs = new_sheet(client, "pitch", ["Eva", "Fred", "Gus", "Hal"])
    status, _ = read(client, mine, theirs["edit_token"])
    assert status == 404
    status, _ = add(client, mine, B_MAKES_5, token=theirs["edit_token"])
    assert status == 404
    assert stored_entries(mine) == []


def test_the_view_token_cannot_write_403_and_nothing_changes(client):
    sheet = new_sheet(client, "pitch", FOUR)
    added(client, sheet, B_MAKES_5)
    view = sheet["view_token"]
    base = f"/api/v1/sheets/{sheet['id']}"
    post = add(client, sheet, A_MAKES_4, token=view)
    put = send(client, "put", f"{base}/hands/1", A_MAKES_4, token=view)
    delete = send(client, "delete", f"{base}/hands/1", token=view)
    for status, body in (post, put, delete):
        assert status == 403
        assert messages(body) == [
            "This is the read-only link of the sheet; changes need the edit token."
        ]
    assert stored_entries(sheet) == [B_MAKES_5]
    assert Sheet.objects.get(pk=sheet["id"]).version == 1


@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        pytest.param("post", "", "GET", id="sheet-post"),
        pytest.param("get", "/hands", "POST", id="hands-get"),
        pytest.param("get", "/hands/1", "PUT, DELETE", id="hand-get"),
    ],
)
def test_wrong_methods_answer_405_with_allow(client, method, path, allow):
    sheet = new_sheet(client, "pitch", FOUR)
    response = getattr(client, method)(
        f"/api/v1/sheets/{sheet['id']}{path}", **bearer(sheet["edit_token"])
    )
    assert response.status_code == 405
    assert response["Allow"] == allow


# -- POST /api/v1/sheets/{id}/hands -----------------------------------------------------


def test_skat_hands_a_game_a_passed_deal_and_a_lost_game(client):
    sheet = new_sheet(client, "skat", THREE)
    status, body = add(client, sheet, GRAND_HAND_WITH_2)
    assert status == 201
    hand = body["hand"]
    assert hand["number"] == 1
    assert hand["entry"] == GRAND_HAND_WITH_2
    # Deal 1 is dealt by the first dealer (seat 0); forehand is the next seat.
    assert hand["dealer"] == 0
    # Grand Hand with 2: (2 + 1 + 1) × 24 = 96, won: only the declarer's list moves.
    assert hand["score"] == [0, 96, 0]
    assert body["totals"] == [0, 96, 0]
    assert hand["summary"] == "Ben: Grand Hand with 2, won, +96"
    assert hand["explanation"][0] == "Deal 1, dealt by Ana; Ben is forehand."
    assert hand["explanation"][-1] == "Ben's list: +96, now 96."
    assert len(hand["steps"]) == len(hand["explanation"])

    # Everyone passed and the sheet throws such a deal in: nobody's list changes,
    # and the deal passes to the next seat.
    status, body = add(client, sheet, PASSED)
    assert status == 201
    assert body["hand"]["number"] == 2
    assert body["hand"]["dealer"] == 1
    assert body["hand"]["score"] == [0, 0, 0]
    assert body["hand"]["summary"] == "Thrown in"
    assert body["totals"] == [0, 96, 0]

    # Clubs with 1, lost: (1 + 1) × 12 = 24, a lost game counts double: −48.
    status, body = add(client, sheet, CLUBS_WITH_1_LOST)
    assert status == 201
    assert body["hand"]["dealer"] == 2
    assert body["hand"]["score"] == [-48, 0, 0]
    assert body["totals"] == [-48, 96, 0]
    assert body["finished"] is False

    whole = current(client, sheet)
    assert [h["totals"] for h in whole["hands"]] == [[0, 96, 0], [0, 96, 0], [-48, 96, 0]]
    assert whole["totals"] == [-48, 96, 0]
    assert whole["next_deal"]["number"] == 4
    assert whole["next_deal"]["dealer"] == 0  # the deal has gone round the table once


def test_skat_ramsch_when_everyone_passed(client):
    sheet = new_sheet(client, "skat", THREE, {"all_pass": "ramsch"})
    deal = {
        "passed": True,
        "ramsch": {"points": [30, 50, 40], "tricks": [3, 4, 3], "last_trick": 1},
    }
    status, body = add(client, sheet, deal)
    assert status == 201
    # Ramsch: the player with most card points loses them: Ben −50.
    assert body["hand"]["score"] == [0, -50, 0]
    assert body["totals"] == [0, -50, 0]


def test_skat_a_game_by_value_as_a_paper_list_writes_it(client):
    sheet = new_sheet(client, "skat", THREE, {"kontra_re": True})
    # 48 is Grand ×2 or Clubs ×4 (ISkO game values): won, scored as written.
    status, body = add(client, sheet, {"declarer": 1, "value": 48})
    assert status == 201, body
    assert body["hand"]["entry"] == {"declarer": 1, "value": 48}
    assert body["hand"]["score"] == [0, 48, 0]
    # A minus value is a lost game (counted double); Kontra doubles again: −96 × 2.
    status, body = add(client, sheet, {"declarer": 2, "value": -192, "bid": 20})
    assert status == 201, body
    assert body["totals"] == [0, 48, -192]
    # No game is worth 47: 422, the nearest values and their games, nothing stored.
    status, body = add(client, sheet, {"declarer": 0, "value": 47})
    assert status == 422
    assert fields(body) == ["value"]
    assert messages(body)[0].startswith("No Skat game is written as 47 on this list")
    assert current(client, sheet)["totals"] == [0, 48, -192]


def test_skat_ramsch_without_the_last_trick_when_no_tie_needs_it(client):
    sheet = new_sheet(client, "skat", THREE, {"all_pass": "ramsch"})
    deal = {"passed": True, "ramsch": {"points": [30, 50, 40], "tricks": [3, 4, 3]}}
    status, body = add(client, sheet, deal)
    assert status == 201, body
    assert body["hand"]["score"] == [0, -50, 0]


@pytest.mark.parametrize(
    ("players", "options", "deal", "expected"),
    [
        pytest.param(
            THREE,
            None,
            {**GRAND_HAND_WITH_2, "declarer": 3},
            [("declarer", "The declarer is one of the seats 0 to 2 (0 Ana, 1 Ben, 2 Cem); got 3.")],
            id="declarer-off-the-table",
        ),
        pytest.param(
            FOUR,
            None,
            {**GRAND_HAND_WITH_2, "declarer": 0},
            [
                (
                    "declarer",
                    "Ana dealt this deal and sits it out at a table of four, so cannot be "
                    "declarer; the players are Ben, Cem and Dan.",
                )
            ],
            id="dealer-sits-out-at-four",
        ),
        pytest.param(
            THREE,
            None,
            {**CLUBS_WITH_1_LOST, "kontra": True},
            [
                (
                    "kontra",
                    "This sheet is kept without Kontra and Re, so nobody can say Kontra; "
                    "leave kontra out.",
                )
            ],
            id="kontra-on-a-sheet-without-it",
        ),
        pytest.param(
            THREE,
            None,
            {
                "passed": True,
                "ramsch": {"points": [30, 50, 40], "tricks": [3, 4, 3], "last_trick": 1},
            },
            [
                (
                    "ramsch",
                    "This sheet throws in a deal everyone passed; there is no Ramsch to "
                    "enter, so leave ramsch out.",
                )
            ],
            id="ramsch-on-a-throw-in-sheet",
        ),
    ],
)
def test_skat_deals_that_break_a_rule_answer_422_and_store_nothing(
    client, players, options, deal, expected
):
    sheet = new_sheet(client, "skat", players, options)
    status, body = add(client, sheet, deal)
    assert status == 422
    assert [(e["field"], e["message"]) for e in body["errors"]] == expected
    assert stored_entries(sheet) == []
    assert Sheet.objects.get(pk=sheet["id"]).version == 0


def test_skat_bock_is_for_the_sheet_to_say_400(client):
    sheet = new_sheet(client, "skat", THREE)
    status, body = add(client, sheet, {**GRAND_HAND_WITH_2, "bock": True})
    assert status == 400
    assert fields(body) == ["bock"]
    assert stored_entries(sheet) == []


def test_pitch_hand_scores_both_teams(client):
    sheet = new_sheet(client, "pitch", FOUR)
    status, body = add(client, sheet, B_MAKES_5)
    assert status == 201
    # Made bid: team B took 8 ≥ 5 and scores the 8 it took; the opponents score their 2.
    assert body["hand"]["score"] == [2, 8, 2, 8]
    assert body["totals"] == [2, 8, 2, 8]
    assert body["team_totals"] == {"A": 2, "B": 8}
    assert body["hand"]["summary"] == "Ben bid 5 for team B: made, B +8, A +2"
    assert body["headline"] == "Team A 2 · Team B 8 · 52 wins"

    # Set: team A bid 9 but took 5, so loses 9; team B scores the 5 it took.
    set_deal = {**A_MAKES_4, "bid": 9}
    status, body = add(client, sheet, set_deal)
    assert status == 201
    assert body["hand"]["dealer"] == 1
    assert body["hand"]["score"] == [-9, 5, -9, 5]
    assert body["totals"] == [-7, 13, -7, 13]
    assert body["team_totals"] == {"A": -7, "B": 13}


@pytest.mark.parametrize(
    ("deal", "status", "fields_expected"),
    [
        pytest.param({**B_MAKES_5, "pitcher": 4}, 422, ["pitcher"], id="pitcher-off-the-table"),
        pytest.param({**B_MAKES_5, "bid": 3}, 422, ["bid"], id="bid-below-4"),
        pytest.param(
            {**B_MAKES_5, "points": {k: v for k, v in B_MAKES_5["points"].items() if k != "three"}},
            422,
            ["points.three"],
            id="three-not-said",
        ),
        pytest.param({**B_MAKES_5, "pitcher": "Ben"}, 400, ["pitcher"], id="pitcher-as-a-name"),
        pytest.param(
            {**B_MAKES_5, "pitcher_team": "B"}, 400, ["pitcher_team"], id="team-instead-of-seat"
        ),
        pytest.param(
            {**B_MAKES_5, "scores_before": {"A": 0, "B": 0}},
            400,
            ["scores_before"],
            id="scores-before-is-the-sheets",
        ),
    ],
)
def test_pitch_bad_hands_are_refused_and_nothing_is_stored(client, deal, status, fields_expected):
    sheet = new_sheet(client, "pitch", FOUR)
    got, body = add(client, sheet, deal)
    assert got == status
    assert fields(body) == fields_expected
    assert stored_entries(sheet) == []


def test_manipulation_rounds_by_hands_and_by_penalties(client):
    sheet = new_sheet(client, "manipulation", THREE)
    # Penalties: ace 15, K Q J 10 ten each, 2 to 9 five each; who went out scores 0.
    by_hands = {"hands": [[], ["AS", "KH"], ["2C", "3D", "4H"]]}
    status, body = add(client, sheet, by_hands)
    assert status == 201
    assert body["hand"]["score"] == [0, 25, 15]
    assert body["totals"] == [0, 25, 15]
    assert body["hand"]["summary"] == "Ana went out; Ben +25, Cem +15"

    status, body = add(client, sheet, {"penalties": [40, 0, 35]})
    assert status == 201
    assert body["hand"]["dealer"] == 1
    assert body["hand"]["score"] == [40, 0, 35]
    assert body["totals"] == [40, 25, 50]
    assert body["winners"] == []
    # The lowest total leads.
    assert body["headline"] == "Round 3 · Ben leads with 25 · Cem is 150 from 200"


@pytest.mark.parametrize(
    ("deal", "status", "expected"),
    [
        pytest.param(
            {"penalties": [0, 7, 10]},
            422,
            [
                (
                    "penalties.1",
                    "Ben's penalty of 7 cannot be right: every card costs 5, 10 or 15, so "
                    "penalties are multiples of 5.",
                )
            ],
            id="penalty-not-a-multiple-of-5",
        ),
        pytest.param(
            {"penalties": [0, 10]},
            422,
            [
                (
                    "penalties",
                    "This table has 3 players (Ana, Ben, Cem), so give 3 penalties, one per "
                    "seat in that order; got 2 penalties.",
                )
            ],
            id="a-seat-missing",
        ),
        pytest.param(
            {"hands": [[], ["AS", "AS", "AS"], ["2C"]]},
            422,
            [("hands.1", None)],
            id="three-copies-of-a-card",
        ),
        pytest.param(
            {"hands": [[], ["ZZ"], ["2C"]]}, 400, [("hands.1.0", None)], id="no-such-card"
        ),
        pytest.param(
            {"hands": [[], ["2C"], ["3C"]], "penalties": [0, 5, 5]},
            400,
            [("penalties", None)],
            id="hands-and-penalties",
        ),
    ],
)
def test_manipulation_bad_rounds_are_refused_and_nothing_is_stored(client, deal, status, expected):
    sheet = new_sheet(client, "manipulation", THREE)
    got, body = add(client, sheet, deal)
    assert got == status
    assert fields(body) == [f for f, _ in expected]
    for field, message in expected:
        if message is not None:
            assert {"field": field, "message": message} in body["errors"]
    assert stored_entries(sheet) == []


def test_hands_body_that_is_not_json_answers_400(client):
    sheet = new_sheet(client, "pitch", FOUR)
    response = client.post(
        f"/api/v1/sheets/{sheet['id']}/hands",
        "{pitcher: 1",
        content_type="application/json",
        **bearer(sheet["edit_token"]),
    )
    assert response.status_code == 400
    assert stored_entries(sheet) == []


# -- A finished game refuses more hands --------------------------------------------------


def test_pitch_a_moon_that_wins_ends_the_game_and_the_next_hand_is_refused(client):
    sheet = new_sheet(client, "pitch", FOUR)
    added(client, sheet, A_MAKES_4)  # A +5, B +5
    status, body = add(client, sheet, A_MOON)
    assert status == 201
    # Shooting the moon: team A had 5 (above zero) and took all ten points, so its
    # score becomes the target, 52, and it wins at once; team B took nothing.
    assert body["totals"] == [52, 5, 52, 5]
    assert body["team_totals"] == {"A": 52, "B": 5}
    assert body["finished"] is True
    assert body["winners"] == [0, 2]
    assert body["headline"] == "Team A won 52 to 5: it shot the moon"

    status, body = add(client, sheet, B_MAKES_5)
    assert status == 422
    assert body["errors"] == [
        {
            "field": None,
            "message": "The game is over: team A (Ana & Cem) won 52 to 5 (it shot the moon). "
            "Start a new sheet for another game.",
        }
    ]
    assert len(stored_entries(sheet)) == 2
    whole = current(client, sheet)
    assert whole["finished"] is True
    assert whole["winner_names"] == ["Ana", "Cem"]
    assert whole["next_deal"] is None


def test_manipulation_a_round_past_200_ends_the_game(client):
    sheet = new_sheet(client, "manipulation", THREE)
    added(client, sheet, {"penalties": [0, 150, 60]})
    status, body = add(client, sheet, {"penalties": [40, 0, 145]})
    assert status == 201
    # End of the game: Cem reaches 60 + 145 = 205 ≥ 200; the lowest total wins: Ana, 40.
    assert body["totals"] == [40, 150, 205]
    assert body["finished"] is True
    assert body["winners"] == [0]
    status, body = add(client, sheet, {"penalties": [0, 5, 5]})
    assert status == 422
    assert body["errors"] == [
        {
            "field": None,
            "message": "The game is over: Cem reached 205 and Ana won with 40. Start a new "
            "sheet for another game.",
        }
    ]
    assert len(stored_entries(sheet)) == 2


def test_skat_a_deal_after_the_series_is_refused(client):
    sheet = new_sheet(client, "skat", THREE, {"series_deals": 1})
    status, body = add(client, sheet, GRAND_HAND_WITH_2)
    assert status == 201
    assert body["finished"] is True
    assert body["winners"] == [1]
    status, body = add(client, sheet, PASSED)
    assert status == 422
    assert fields(body) == [None]
    assert messages(body)[0].startswith("The series is over")
    assert "Start a new sheet" in messages(body)[0]
    assert len(stored_entries(sheet)) == 1


# -- PUT and DELETE /api/v1/sheets/{id}/hands/{number} ----------------------------------


def test_put_corrects_a_hand_and_every_later_hand_is_rescored(client):
    sheet = new_sheet(client, "manipulation", THREE)
    added(client, sheet, {"penalties": [0, 25, 40]}, {"penalties": [10, 0, 30]})
    assert current(client, sheet)["hands"][1]["totals"] == [10, 25, 70]
    status, body = send(
        client,
        "put",
        f"/api/v1/sheets/{sheet['id']}/hands/1",
        {"penalties": [0, 5, 40]},
        token=sheet["edit_token"],
    )
    assert status == 200
    assert body["hand"]["number"] == 1
    assert body["hand"]["entry"] == {"penalties": [0, 5, 40]}
    assert body["hand"]["totals"] == [0, 5, 40]
    # Deal 2 is re-scored on top of the corrected deal 1: Ben 5 + 0, not 25 + 0.
    assert body["totals"] == [10, 5, 70]
    whole = current(client, sheet)
    assert [h["totals"] for h in whole["hands"]] == [[0, 5, 40], [10, 5, 70]]
    assert stored_entries(sheet) == [{"penalties": [0, 5, 40]}, {"penalties": [10, 0, 30]}]


def test_put_re_scores_a_later_deal_itself_not_only_its_total(client):
    sheet = new_sheet(client, "skat", THREE, {"bock": {"hundred_or_more": True}})
    clubs_won = {
        "declarer": 0,
        "game": "clubs",
        "bid": 18,
        "matadors": {"with": 1},
        "outcome": "won",
    }
    added(client, sheet, GRAND_HAND_WITH_2, clubs_won)
    before = current(client, sheet)
    # Grand Hand with 2 is worth 96 < 100: no Bock; deal 2, Clubs with 1, scores 24.
    assert [h["score"] for h in before["hands"]] == [[0, 96, 0], [24, 0, 0]]
    grand_with_3 = {**GRAND_HAND_WITH_2, "matadors": {"with": 3}}
    status, body = send(
        client,
        "put",
        f"/api/v1/sheets/{sheet['id']}/hands/1",
        grand_with_3,
        token=sheet["edit_token"],
    )
    assert status == 200
    assert body["hand"]["score"] == [0, 120, 0]
    # Grand Hand with 3 is (3 + 1 + 1) × 24 = 120 ≥ 100: a Bock round follows, so
    # deal 2 now counts double: 48.
    after = current(client, sheet)
    assert [h["score"] for h in after["hands"]] == [[0, 120, 0], [48, 0, 0]]
    assert after["totals"] == [48, 120, 0]


def test_put_that_a_later_hand_no_longer_fits_is_refused_and_nothing_changes(client):
    sheet = new_sheet(client, "pitch", FOUR)
    added(client, sheet, A_MAKES_4, A_MAKES_4, A_MAKES_4)
    status, body = send(
        client,
        "put",
        f"/api/v1/sheets/{sheet['id']}/hands/2",
        A_MOON,
        token=sheet["edit_token"],
    )
    # With deal 2 a winning moon (A had 5), the game would end there and deal 3 could
    # not have been played.
    assert status == 422
    assert body["errors"] == [
        {
            "field": None,
            "message": "With this change the game ends with deal 2 (Team A won 52 to 5: it "
            "shot the moon), but deal 3 was entered after it. Delete deal 3 first (the history "
            "keeps it), then make this change again.",
        }
    ]
    assert stored_entries(sheet) == [A_MAKES_4] * 3
    assert current(client, sheet)["totals"] == [15, 15, 15, 15]


@pytest.mark.parametrize(
    ("number", "message"),
    [
        pytest.param(
            3, "There is no deal 3 on this sheet; it has deals 1 to 1.", id="past-the-end"
        ),
        pytest.param(0, "There is no deal 0 on this sheet; it has deals 1 to 1.", id="zero"),
    ],
)
def test_put_and_delete_of_a_missing_hand_answer_404(client, number, message):
    sheet = new_sheet(client, "pitch", FOUR)
    added(client, sheet, B_MAKES_5)
    path = f"/api/v1/sheets/{sheet['id']}/hands/{number}"
    for status, body in (
        send(client, "put", path, A_MAKES_4, token=sheet["edit_token"]),
        send(client, "delete", path, token=sheet["edit_token"]),
    ):
        assert status == 404
        assert body["errors"] == [{"field": "number", "message": message}]
    assert stored_entries(sheet) == [B_MAKES_5]


def test_put_with_a_broken_hand_is_refused_and_keeps_the_old_one(client):
    sheet = new_sheet(client, "pitch", FOUR)
    added(client, sheet, B_MAKES_5)
    path = f"/api/v1/sheets/{sheet['id']}/hands/1"
    status, body = send(client, "put", path, {**B_MAKES_5, "bid": 10}, token=sheet["edit_token"])
    assert status == 422
    assert fields(body) == ["bid"]
    status, body = send(
        client, "put", path, {**B_MAKES_5, "pitcher": "Ben"}, token=sheet["edit_token"]
    )
    assert status == 400
    status, body = send(client, "put", path, raw="[1]", token=sheet["edit_token"])
    assert status == 400
    assert stored_entries(sheet) == [B_MAKES_5]
    assert Sheet.objects.get(pk=sheet["id"]).version == 1


def test_delete_removes_a_hand_renumbers_and_rescores(client):
    sheet = new_sheet(client, "manipulation", THREE)
    added(
        client,
        sheet,
        {"penalties": [0, 25, 40]},
        {"penalties": [10, 0, 30]},
        {"penalties": [5, 5, 0]},
    )
    status, body = send(
        client, "delete", f"/api/v1/sheets/{sheet['id']}/hands/2", token=sheet["edit_token"]
    )
    assert status == 200
    assert [h["number"] for h in body["hands"]] == [1, 2]
    assert [h["entry"] for h in body["hands"]] == [
        {"penalties": [0, 25, 40]},
        {"penalties": [5, 5, 0]},
    ]
    # The old deal 3 is now deal 2, dealt by seat 1, on top of deal 1 alone.
    assert body["hands"][1]["dealer"] == 1
    assert body["totals"] == [5, 30, 40]
    assert current(client, sheet)["totals"] == [5, 30, 40]
    assert list(Hand.objects.filter(sheet_id=sheet["id"]).values_list("number", flat=True)) == [
        1,
        2,
    ]


def test_delete_answers_the_new_version(client):
    sheet = new_sheet(client, "manipulation", THREE)
    added(client, sheet, {"penalties": [0, 25, 40]})
    status, body = send(
        client, "delete", f"/api/v1/sheets/{sheet['id']}/hands/1", token=sheet["edit_token"]
    )
    assert status == 200
    assert body["version"] == current(client, sheet)["version"] == 2


def test_delete_that_a_later_hand_no_longer_fits_is_refused(client):
    sheet = new_sheet(client, "skat", FOUR)
    # At four the dealer sits out: deal 1 Ana, deal 2 Ben, deal 3 Cem.
    added(
        client,
        sheet,
        {"declarer": 1, "game": "clubs", "bid": 18, "matadors": {"with": 1}, "outcome": "won"},
        {"declarer": 2, "game": "hearts", "bid": 18, "matadors": {"with": 1}, "outcome": "won"},
        {"declarer": 1, "game": "spades", "bid": 18, "matadors": {"with": 1}, "outcome": "won"},
    )
    # Clubs 24, Hearts 20, Spades 22 (each with 1, game 2).
    assert current(client, sheet)["totals"] == [0, 46, 20, 0]
    status, body = send(
        client, "delete", f"/api/v1/sheets/{sheet['id']}/hands/1", token=sheet["edit_token"]
    )
    # Without deal 1 Ben's Spades becomes deal 2, which Ben deals and sits out.
    assert status == 422
    assert body["errors"] == [
        {
            "field": None,
            "message": "With this change deal 2 no longer fits the sheet: Ben dealt this deal "
            "and sits it out at a table of four, so cannot be declarer; the players are Cem, "
            "Dan and Ana.",
        }
    ]
    assert len(stored_entries(sheet)) == 3
    assert current(client, sheet)["totals"] == [0, 46, 20, 0]


# -- Idempotency-Key ----------------------------------------------------------------------


def test_same_key_and_body_gets_the_first_answer_and_stores_one_hand(client):
    sheet = new_sheet(client, "pitch", FOUR)
    first = add(client, sheet, B_MAKES_5, key="deal-1-try")
    again = add(client, sheet, B_MAKES_5, key="deal-1-try")
    assert first[0] == 201
    assert again == first
    assert stored_entries(sheet) == [B_MAKES_5]
    assert current(client, sheet)["totals"] == [2, 8, 2, 8]


def test_same_key_with_a_different_body_is_refused(client):
    sheet = new_sheet(client, "pitch", FOUR)
    add(client, sheet, B_MAKES_5, key="deal-1-try")
    status, body = add(client, sheet, A_MAKES_4, key="deal-1-try")
    assert status == 422
    assert body["errors"] == [
        {
            "field": None,
            "message": "This Idempotency-Key was already used for a different request; send "
            "a new key with a new deal.",
        }
    ]
    assert stored_entries(sheet) == [B_MAKES_5]


def test_without_a_key_two_posts_store_two_hands(client):
    sheet = new_sheet(client, "pitch", FOUR)
    add(client, sheet, B_MAKES_5)
    add(client, sheet, B_MAKES_5)
    assert stored_entries(sheet) == [B_MAKES_5, B_MAKES_5]
    assert current(client, sheet)["totals"] == [4, 16, 4, 16]


def test_a_key_belongs_to_one_sheet(client):
    one = new_sheet(client, "pitch", FOUR)
    two = new_sheet(client, "pitch", ["Eva", "Fred", "Gus", "Hal"])
    assert add(client, one, B_MAKES_5, key="same")[0] == 201
    assert add(client, two, B_MAKES_5, key="same")[0] == 201
    assert stored_entries(one) == stored_entries(two) == [B_MAKES_5]


def test_a_refusal_is_not_remembered_so_the_fixed_request_can_reuse_the_key(client):
    # A refused deal stored nothing; only answers that stored something are replayed.
    sheet = new_sheet(client, "pitch", FOUR)
    bad = {**B_MAKES_5, "bid": 3}
    first = add(client, sheet, bad, key="k")
    assert first[0] == 422
    assert add(client, sheet, bad, key="k") == first
    assert IdempotencyKey.objects.filter(key="k").count() == 0
    status, _ = add(client, sheet, B_MAKES_5, key="k")
    assert status == 201
    assert add(client, sheet, B_MAKES_5, key="k")[0] == 201
    assert len(stored_entries(sheet)) == 1


def test_an_overlong_key_is_refused_with_400(client):
    sheet = new_sheet(client, "pitch", FOUR)
    status, body = add(client, sheet, B_MAKES_5, key="k" * 101)
    assert status == 400
    assert messages(body) == ["An Idempotency-Key has at most 100 characters."]
    assert stored_entries(sheet) == []


# -- Query counts: reading and writing do not grow with the number of deals -------------


def manipulation_rounds(count: int) -> list[dict]:
    # Each player goes out in turn and the others keep 5: +10 each per three rounds,
    # 200 each after 60 rounds, short of the target of 300.
    return [{"penalties": [0 if seat == n % 3 else 5 for seat in range(3)]} for n in range(count)]


def pitch_deals(count: int) -> list[dict]:
    # Both teams are set in turn (bid 9, took 5): −4 each per two deals, never near 52.
    a = {**A_MAKES_4, "bid": 9}
    b = {
        "pitcher": 1,
        "bid": 9,
        "points": pitch_points(
            ace="B",
            jack="B",
            off_jack="B",
            high_joker="B",
            low_joker="B",
            ten="A",
            two="A",
            three="A",
        ),
    }
    return [a if n % 2 == 0 else b for n in range(count)]


def skat_deals(count: int) -> list[dict]:
    # Four at the table: forehand (the seat after the dealer, who sits out) plays
    # Clubs with 1 and wins 24; every third deal is passed and thrown in.
    deals = []
    for n in range(count):
        if n % 3 == 2:
            deals.append(PASSED)
        else:
            forehand = (n + 1) % 4
            deals.append(
                {
                    "declarer": forehand,
                    "game": "clubs",
                    "bid": 18,
                    "matadors": {"with": 1},
                    "outcome": "won",
                }
            )
    return deals


GAMES_FOR_COUNTS = [
    pytest.param("skat", FOUR, {"series_deals": 200}, skat_deals, PASSED, id="skat"),
    pytest.param("pitch", FOUR, None, pitch_deals, A_MAKES_4, id="pitch"),
    pytest.param(
        "manipulation",
        THREE,
        {"target": 300},
        manipulation_rounds,
        {"penalties": [0, 5, 5]},
        id="manipulation",
    ),
]


def sheet_with(client, game, players, options, deals) -> dict:
    sheet = new_sheet(client, game, players, options)
    Hand.objects.bulk_create(
        Hand(sheet_id=sheet["id"], number=i + 1, entry=entry) for i, entry in enumerate(deals)
    )
    # Stored around the services, as a write would: the version moves on, so the engine
    # kept at sheet creation is not taken for the current one; the engine is kept for
    # the new version as the write would have kept it.
    Sheet.objects.filter(pk=sheet["id"]).update(version=F("version") + 1, deal_count=len(deals))
    selectors.engine_for(Sheet.objects.get(pk=sheet["id"]))
    return sheet


def queries(callable_) -> int:
    with CaptureQueriesContext(connection) as captured:
        callable_()
    return len(captured)


@pytest.mark.parametrize(("game", "players", "options", "deals", "next_deal"), GAMES_FOR_COUNTS)
def test_get_sheet_costs_the_same_queries_for_3_and_60_deals(
    client, game, players, options, deals, next_deal
):
    counts = []
    for count in (3, 60):
        sheet = sheet_with(client, game, players, options, deals(count))
        status, body = read(client, sheet)  # warm up: the first request loads templates etc.
        assert status == 200
        assert len(body["hands"]) == count
        counts.append(queries(lambda sheet=sheet: read(client, sheet)))
    # Sheet, seats with players, live hands: three queries whatever the length.
    assert counts == [3, 3]


@pytest.mark.parametrize(("game", "players", "options", "deals", "next_deal"), GAMES_FOR_COUNTS)
def test_post_hand_costs_the_same_queries_for_3_and_60_deals(
    client, game, players, options, deals, next_deal
):
    counts = []
    for count in (3, 60):
        sheet = sheet_with(client, game, players, options, deals(count))

        def post(sheet=sheet, count=count):
            status, body = add(client, sheet, next_deal, key=f"k-{sheet['id']}")
            assert status == 201, body
            assert body["hand"]["number"] == count + 1

        counts.append(queries(post))
    assert counts[0] == counts[1]
    # Measured: 15 (the sheet, the key lookup, the lock, live hands, seats, clearing an
    # undone deal, the insert, its history row, the version bump and its re-read, the
    # key, savepoints).
    assert counts[0] <= 15


# -- If-Match: any well-formed entity-tag that does not match is a 412 (RFC 9110 13.1.1) ---------


def write_with_if_match(client, sheet: dict, if_match: str):
    headers = {**bearer(sheet["edit_token"]), "HTTP_IF_MATCH": if_match}
    response = client.post(
        f"/api/v1/sheets/{sheet['id']}/hands",
        json.dumps(A_MAKES_4),
        content_type="application/json",
        **headers,
    )
    return response.status_code, response.json()


@pytest.mark.parametrize(
    "if_match",
    [
        pytest.param('"abc"', id="another-shape"),
        pytest.param('"0-1"', id="another-sheet"),
        pytest.param('"x", "y"', id="list-of-others"),
        pytest.param('""', id="empty-tag"),
        pytest.param('W/"{id}-{version}"', id="weak-never-matches"),
    ],
)
def test_if_match_with_a_well_formed_tag_that_does_not_match_is_412(client, if_match):
    # RFC 9110 13.1.1: a condition that is false is 412; only a header that cannot be
    # read as entity-tags is a bad request. If-Match compares strongly: a weak tag never
    # matches.
    sheet = new_sheet(client, "pitch", FOUR)
    version = current(client, sheet)
    tag = if_match.format(id=sheet["id"], version=Sheet.objects.get(pk=sheet["id"]).version)
    status, body = write_with_if_match(client, sheet, tag)
    assert status == 412, body
    assert "changed meanwhile" in messages(body)[0]
    assert current(client, sheet)["hands"] == version["hands"] == []


@pytest.mark.parametrize(
    "if_match",
    [
        pytest.param("*", id="star"),
        pytest.param('"{id}-{version}"', id="the-etag"),
        pytest.param('"nope", "{id}-{version}"', id="in-a-list"),
        pytest.param("{version}", id="bare-version"),
    ],
)
def test_if_match_that_matches_writes(client, if_match):
    sheet = new_sheet(client, "pitch", FOUR)
    tag = if_match.format(id=sheet["id"], version=Sheet.objects.get(pk=sheet["id"]).version)
    status, body = write_with_if_match(client, sheet, tag)
    assert status == 201, body
    assert len(current(client, sheet)["hands"]) == 1


@pytest.mark.parametrize(
    "if_match",
    [
        pytest.param("yesterday", id="no-quotes"),
        pytest.param('"12-5', id="unclosed"),
        pytest.param('"a"b"', id="quote-inside"),
        pytest.param('"a", b', id="unquoted-member"),
        pytest.param('W/ "a"', id="space-after-W"),
        pytest.param('"a" "b"', id="no-comma"),
    ],
)
def test_if_match_that_cannot_be_read_is_400_with_a_clear_message(client, if_match):
    sheet = new_sheet(client, "pitch", FOUR)
    status, body = write_with_if_match(client, sheet, if_match)
    assert status == 400, body
    assert messages(body) == [
        "If-Match takes the sheet's ETag in double quotes as the last answer gave it "
        '(as in "12-5"), a list of such tags separated by commas, * or the version number.'
    ]
    assert current(client, sheet)["hands"] == []
