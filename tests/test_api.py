"""The referee endpoints of the JSON API contract (v1), end to end through HTTP."""

import json

import pytest
from jsonschema import Draft202012Validator

from games import openapi

pytestmark = pytest.mark.django_db(databases=[])

SCHEMA = openapi.schema()


def validator(schema: dict) -> Draft202012Validator:
    # Local $refs ("#/components/...") resolve when the components travel with the schema.
    return Draft202012Validator({**schema, "components": SCHEMA["components"]})


def response_schema(path: str, status: int) -> dict:
    content = SCHEMA["paths"][path]["post"]["responses"][str(status)]["content"]
    return content["application/json"]["schema"]


def post(client, path, body, *, raw=False):
    data = body if raw else json.dumps(body)
    response = client.post(path, data, content_type="application/json")
    assert response["Content-Type"] == "application/json"
    payload = response.json()
    schema = response_schema(path, response.status_code)
    errors = sorted(validator(schema).iter_errors(payload), key=str)
    assert not errors, [e.message for e in errors]
    return response.status_code, payload


# -- Skat: POST /api/v1/skat/score -------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # Game value = base × (matadors + game): Clubs with 2 = 12 × 3 = 36, won with 72.
        (
            {
                "game": "clubs",
                "bid": 36,
                "matadors": {"with": 2},
                "declarer_points": 72,
                "declarer_tricks": 6,
            },
            {
                "won": True,
                "overbid": False,
                "base_value": 12,
                "multiplier": 3,
                "game_value": 36,
                "score": 36,
            },
        ),
        # Overbidding: Diamonds without 1 is 18 < 22, lost at 3 × 9 = 27, doubled: −54.
        (
            {"game": "diamonds", "bid": 22, "matadors": {"against": 1}, "outcome": "won"},
            {"won": False, "overbid": True, "base_value": 9, "game_value": 27, "score": -54},
        ),
        # The same game won schneider is worth 27 ≥ 22: won, +27.
        (
            {"game": "diamonds", "bid": 22, "matadors": {"against": 1}, "outcome": "won_schneider"},
            {"won": True, "overbid": False, "game_value": 27, "score": 27},
        ),
        # Grand Ouvert with 4 is 11 × 24 = 264, the highest game.
        (
            {
                "game": "grand",
                "bid": 264,
                "hand": True,
                "ouvert": True,
                "matadors": {"with": 4},
                "outcome": "won_schwarz",
            },
            {"won": True, "multiplier": 11, "game_value": 264, "score": 264},
        ),
        # Null Hand is worth 35; a lost game scores −2 × value.
        (
            {"game": "null", "bid": 35, "hand": True, "declarer_tricks": 1},
            {
                "won": False,
                "base_value": 35,
                "multiplier": None,
                "matadors": None,
                "game_value": 35,
                "score": -70,
            },
        ),
        # Kontra doubles, Re doubles again, before the loss is doubled: 24 × 4 × 2.
        (
            {
                "game": "grand",
                "bid": 24,
                "matadors": {"with": 1},
                "outcome": "lost",
                "kontra": True,
                "re": True,
            },
            {"won": False, "game_value": 48, "score": -384},
        ),
        # 60:60 is lost.
        (
            {
                "game": "hearts",
                "bid": 20,
                "matadors": {"with": 1},
                "declarer_points": 60,
                "declarer_tricks": 5,
            },
            {"won": False, "game_value": 20, "score": -40},
        ),
    ],
)
def test_skat_score_follows_the_rules(client, body, expected):
    status, payload = post(client, "/api/v1/skat/score", body)
    assert status == 200
    assert {key: payload[key] for key in expected} == expected
    assert payload["explanation"]
    assert all(isinstance(s, str) for s in payload["explanation"])


def test_skat_matadors_can_come_from_the_declarers_twelve_cards(client):
    # Matadors: the skat counts too; J♣ J♠ held, J♥ missing: "with 2".
    cards = ["JC", "JS", "AC", "10C", "KC", "7H", "8H", "9H", "AS", "10S", "7D", "8D"]
    status, payload = post(
        client,
        "/api/v1/skat/score",
        {"game": "clubs", "bid": 18, "declarer_cards": cards, "outcome": "won"},
    )
    assert status == 200
    assert payload["matadors"] == {"with": 2}
    assert payload["game_value"] == 36


def test_skat_result_from_trick_cards_counts_the_skat_for_the_declarer(client):
    tricks = ["AC", "10C", "KC", "AS", "10S", "KS", "AH", "10H", "KH"]  # 75 points
    status, payload = post(
        client,
        "/api/v1/skat/score",
        {
            "game": "grand",
            "bid": 24,
            "matadors": {"with": 1},
            "declarer_trick_cards": tricks,
            "skat": ["AD", "10D"],
        },
    )
    assert status == 200
    assert payload["declarer_points"] == 75 + 21
    assert payload["declarer_tricks"] == 3
    assert payload["schneider"] is True
    assert payload["game_value"] == 24 * 3


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        # Schwarz can only be announced in a hand game.
        (
            {
                "game": "clubs",
                "bid": 18,
                "announced": "schwarz",
                "matadors": {"with": 1},
                "outcome": "won",
            },
            "announced",
            422,
        ),
        # A suit ouvert game is only possible as a hand game.
        (
            {"game": "clubs", "bid": 18, "ouvert": True, "matadors": {"with": 1}, "outcome": "won"},
            "ouvert",
            422,
        ),
        # A Null declaration worth less than the bid is not legal.
        ({"game": "null", "bid": 24, "declarer_tricks": 0}, "bid", 422),
        # 19 is not a value any game can have.
        ({"game": "grand", "bid": 19, "matadors": {"with": 1}, "outcome": "won"}, "bid", 422),
        # 120 card points and no trick cannot both be true.
        (
            {
                "game": "grand",
                "bid": 24,
                "matadors": {"with": 1},
                "declarer_points": 120,
                "declarer_tricks": 0,
            },
            None,
            422,
        ),
        # No card is worth 1 (card values 11, 10, 4, 3, 2, 0): the skat alone never
        # holds 9, and 119 would leave the defenders exactly 1 point.
        (
            {
                "game": "clubs",
                "bid": 18,
                "matadors": {"with": 1},
                "declarer_points": 9,
                "declarer_tricks": 0,
            },
            "declarer_points",
            422,
        ),
        (
            {
                "game": "clubs",
                "bid": 18,
                "matadors": {"with": 1},
                "declarer_points": 119,
                "declarer_tricks": 9,
            },
            "declarer_points",
            422,
        ),
        # Card points run from 0 to 120.
        (
            {
                "game": "grand",
                "bid": 24,
                "matadors": {"with": 1},
                "declarer_points": 130,
                "declarer_tricks": 10,
            },
            "declarer_points",
            422,
        ),
        # A card twice is unreadable.
        (
            {"game": "grand", "bid": 24, "declarer_cards": ["JC"] * 12, "outcome": "won"},
            "declarer_cards",
            400,
        ),
        # Unknown card.
        (
            {
                "game": "grand",
                "bid": 24,
                "matadors": {"with": 1},
                "declarer_trick_cards": ["ZZ", "JC", "JS"],
                "skat": ["7H", "8H"],
            },
            "declarer_trick_cards.0",
            400,
        ),
        # Wrong type.
        ({"game": "grand", "bid": "24", "matadors": {"with": 1}, "outcome": "won"}, "bid", 400),
        # Missing game.
        ({"bid": 24, "matadors": {"with": 1}, "outcome": "won"}, "game", 400),
        # Unknown field.
        (
            {
                "game": "grand",
                "bid": 24,
                "matadors": {"with": 1},
                "outcome": "won",
                "colour": "red",
            },
            "colour",
            400,
        ),
        # Matadors must say with or against.
        ({"game": "grand", "bid": 24, "matadors": {"width": 1}, "outcome": "won"}, "matadors", 400),
    ],
)
def test_skat_score_refuses_bad_input_with_a_message_at_the_field(client, body, field, status):
    got, payload = post(client, "/api/v1/skat/score", body)
    assert got == status
    fields = [error["field"] for error in payload["errors"]]
    if field is None:
        assert fields
    else:
        assert any(f == field or (f or "").startswith(field + ".") for f in fields), payload
    assert all(error["message"].endswith((".", "?", ")")) for error in payload["errors"])


def test_a_null_bid_too_high_names_the_legal_alternatives(client):
    _, payload = post(
        client, "/api/v1/skat/score", {"game": "null", "bid": 24, "declarer_tricks": 0}
    )
    message = " ".join(e["message"] for e in payload["errors"])
    assert "23" in message
    assert "46" in message


# -- Skat: trick and follow ----------------------------------------------------------


def test_skat_trick_from_the_contract(client):
    # Suit game: the J♦ is a trump in hearts and beats the A♥.
    status, payload = post(
        client, "/api/v1/skat/trick", {"game": "hearts", "cards": ["QH", "JD", "AH"]}
    )
    assert (status, payload["winner"]) == (200, 1)


def test_skat_follow_from_the_contract(client):
    # Grand: J♣ is a trump and must follow a jack led.
    status, payload = post(
        client,
        "/api/v1/skat/follow",
        {"game": "grand", "led": "JH", "hand": ["JC", "AS", "7S"], "played": "AS"},
    )
    assert (status, payload["legal"]) == (200, False)


def test_skat_trick_needs_three_cards(client):
    status, payload = post(client, "/api/v1/skat/trick", {"game": "hearts", "cards": ["QH", "JD"]})
    assert status == 422
    assert payload["errors"][0]["field"] == "cards"


# -- Pitch ------------------------------------------------------------------------------

ALL_B = dict.fromkeys(
    ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three"), "B"
)


def test_pitch_hand_made(client):
    points = {
        "ace": "A",
        "jack": "A",
        "off_jack": "B",
        "high_joker": "A",
        "low_joker": "B",
        "ten": "A",
        "two": "A",
        "three": "B",
    }
    status, payload = post(
        client, "/api/v1/pitch/hand", {"bid": 5, "pitcher_team": "A", "points": points}
    )
    assert status == 200
    # Made: the pitcher's team scores what it took; the opponents always score theirs.
    assert payload["made"] is True
    assert payload["taken"] == {"A": 5, "B": 5}
    assert payload["delta"] == {"A": 5, "B": 5}
    assert payload["scores_after"] == {"A": 5, "B": 5}
    assert (payload["game_over"], payload["winner"]) == (False, None)


def test_pitch_moon_above_zero_wins_at_once(client):
    status, payload = post(
        client,
        "/api/v1/pitch/hand",
        {"bid": "moon", "pitcher_team": "B", "scores_before": {"A": 41, "B": 30}, "points": ALL_B},
    )
    assert status == 200
    assert payload["scores_after"] == {"A": 41, "B": 52}
    assert (payload["game_over"], payload["winner"]) == (True, "B")


@pytest.mark.parametrize(
    ("body", "field", "status"),
    [
        ({"bid": 3, "pitcher_team": "A", "points": ALL_B}, "bid", 422),
        ({"bid": "lots", "pitcher_team": "A", "points": ALL_B}, "bid", 400),
        ({"bid": 5, "pitcher_team": "C", "points": ALL_B}, "pitcher_team", 400),
        ({"bid": 5, "pitcher_team": "A", "points": {**ALL_B, "three": "X"}}, "points.three", 422),
        ({"bid": 5, "pitcher_team": "A", "points": {**ALL_B, "three": 3}}, "points.three", 400),
        ({"bid": 5, "pitcher_team": "A", "points": {"ace": "A"}}, "points", 422),
        (
            {"bid": 5, "pitcher_team": "A", "points": ALL_B, "options": {"target": "52"}},
            "options.target",
            422,
        ),
        (
            {"bid": 5, "pitcher_team": "A", "points": ALL_B, "scores_before": {"A": "x", "B": 0}},
            "scores_before.A",
            400,
        ),
    ],
)
def test_pitch_hand_refuses_bad_input(client, body, field, status):
    got, payload = post(client, "/api/v1/pitch/hand", body)
    assert got == status
    fields = [e["field"] for e in payload["errors"]]
    assert any(f == field or (f or "").startswith(field + ".") for f in fields), payload


def test_pitch_trick_from_the_contract(client):
    status, payload = post(
        client, "/api/v1/pitch/trick", {"trump": "S", "cards": ["2S", "JC", "JOKER-LOW", "AS"]}
    )
    assert (status, payload["winner"]) == (200, 3)


def test_pitch_trick_refuses_a_card_that_is_not_a_trump(client):
    status, payload = post(client, "/api/v1/pitch/trick", {"trump": "S", "cards": ["2S", "JH"]})
    assert status == 422
    assert payload["errors"][0]["field"] == "cards.1"


# -- Manipulation ---------------------------------------------------------------------


def test_melds_from_the_contract(client):
    status, payload = post(
        client, "/api/v1/manipulation/melds", {"melds": [["7H", "8H", "9H"], ["QS", "QH", "QD"]]}
    )
    assert status == 200
    assert payload["valid"] is True
    assert [m["kind"] for m in payload["melds"]] == ["sequence", "group"]


def test_an_invalid_meld_says_why(client):
    status, payload = post(client, "/api/v1/manipulation/melds", {"melds": [["7H", "8H", "10H"]]})
    assert status == 200
    assert payload["valid"] is False
    assert payload["melds"][0]["reason"]


def test_turn_splitting_a_run_is_legal(client):
    status, payload = post(
        client,
        "/api/v1/manipulation/turn",
        {
            "table_before": [["5H", "6H", "7H", "8H", "9H"]],
            "table_after": [["5H", "6H", "7H"], ["7H", "8H", "9H"]],
            "hand": ["7H", "KC"],
        },
    )
    assert status == 200
    assert (payload["legal"], payload["played"], payload["reasons"]) == (True, ["7H"], [])


def test_turn_that_loses_a_table_card_is_judged_illegal_not_refused(client):
    status, payload = post(
        client,
        "/api/v1/manipulation/turn",
        {
            "table_before": [["7H", "8H", "9H"]],
            "table_after": [["8H", "9H", "10H"]],
            "hand": ["10H"],
        },
    )
    assert status == 200
    assert payload["legal"] is False
    assert any("7♥" in reason for reason in payload["reasons"])


def test_arrange_finds_a_layout(client):
    cards = ["7H", "8H", "9H", "QS", "QH", "QD", "10C", "JC", "QC"]
    status, payload = post(client, "/api/v1/manipulation/arrange", {"cards": cards})
    assert status == 200
    assert payload["possible"] is True
    assert sorted(c for meld in payload["melds"] for c in meld) == sorted(cards)


def test_arrange_says_when_it_cannot(client):
    status, payload = post(client, "/api/v1/manipulation/arrange", {"cards": ["7H", "8H"]})
    assert (status, payload["possible"], payload["melds"]) == (200, False, None)


def test_arrange_refuses_a_third_copy(client):
    status, payload = post(client, "/api/v1/manipulation/arrange", {"cards": ["7H", "7H", "7H"]})
    assert status == 400
    assert payload["errors"][0]["field"] == "cards"


def test_round_from_the_contract(client):
    status, payload = post(
        client,
        "/api/v1/manipulation/round",
        {
            "hands": {"Ana": ["AS", "10H"], "Ben": [], "Cem": ["4C"]},
            "scores_before": {"Ana": 180, "Ben": 95, "Cem": 120},
        },
    )
    assert status == 200
    # Penalties: ace 15, ten 10, 2–9 five each; the player who went out scores 0.
    assert payload["penalties"] == {"Ana": 25, "Ben": 0, "Cem": 5}
    assert payload["scores_after"] == {"Ana": 205, "Ben": 95, "Cem": 125}
    assert (payload["game_over"], payload["winners"]) == (True, ["Ben"])


def test_round_with_two_players_out_is_refused(client):
    status, payload = post(
        client, "/api/v1/manipulation/round", {"hands": {"Ana": [], "Ben": [], "Cem": ["4C"]}}
    )
    assert status == 422
    assert payload["errors"]


# -- Every endpoint: the transport ---------------------------------------------------

PATHS = [endpoint.path for endpoint in openapi.ENDPOINTS]  # the referee endpoints


@pytest.mark.parametrize("path", PATHS)
def test_get_is_not_allowed(client, path):
    response = client.get(path)
    assert response.status_code == 405
    assert response["Allow"] == "POST"
    assert response.json()["errors"][0]["field"] is None


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("raw", ["{", "", "[]", '"x"', "null", '{"a": NaN}'])
def test_unreadable_bodies_answer_400(client, path, raw):
    status, payload = post(client, path, raw, raw=True)
    assert status == 400
    assert payload["errors"][0]["field"] is None


@pytest.mark.parametrize("path", PATHS)
def test_the_documented_examples_answer_200(client, path):
    examples = SCHEMA["paths"][path]["post"]["requestBody"]["content"]["application/json"][
        "examples"
    ]
    assert examples
    for example in examples.values():
        status, payload = post(client, path, example["value"])
        assert status == 200, payload
        assert payload["explanation"]


def test_unknown_api_paths_answer_json_404(client):
    response = client.post("/api/v1/skat/nothing", "{}", content_type="application/json")
    assert response.status_code == 404
    assert response.json()["errors"][0]["message"]
