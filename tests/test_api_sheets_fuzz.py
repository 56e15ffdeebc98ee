"""Fuzzing the score-sheet endpoints: deals of every shape, stored, corrected, removed
and shown again. Whatever arrives, the answer is 201/200 or a 4xx in the contract's
error format, and the sheet's pages keep rendering ("A 500 is a bug")."""

import json

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_api_fuzz import (
    ERROR_FORMAT,
    MANIPULATION_ROUND,
    PITCH_HAND,
    SKAT_SCORE,
    json_values,
)

EXAMPLES_PER_GAME = 200
SEAT = st.integers(-1, 4)
RAMSCH = st.fixed_dictionaries(
    {
        "points": st.lists(st.integers(-5, 125) | st.none(), max_size=5),
        "tricks": st.lists(st.integers(-1, 11) | st.none(), max_size=5),
        "last_trick": SEAT,
    }
)
SKAT_DEALS = st.one_of(
    st.tuples(SKAT_SCORE, SEAT).map(lambda pair: {**pair[0], "declarer": pair[1]}),
    st.just({"passed": True}),
    st.fixed_dictionaries({"passed": st.just(True), "ramsch": RAMSCH}),
)
PITCH_DEALS = st.tuples(PITCH_HAND, SEAT).map(
    lambda pair: {
        **{
            k: v
            for k, v in pair[0].items()
            if k not in ("pitcher_team", "scores_before", "options")
        },
        "pitcher": pair[1],
    }
)
MANIPULATION_DEALS = st.one_of(
    MANIPULATION_ROUND.map(lambda body: {"hands": list(body["hands"].values())}),
    st.fixed_dictionaries(
        {"penalties": st.lists(st.integers(-10, 800) | st.none() | st.text(max_size=2), max_size=5)}
    ),
)
GAMES = {
    "skat": (["Ana", "Ben", "Cem", "Dee"], {"kontra_re": True, "all_pass": "ramsch"}, SKAT_DEALS),
    "pitch": (["Ana", "Ben", "Cem", "Dee"], {}, PITCH_DEALS),
    "manipulation": (["Ana", "Ben", "Cem"], {}, MANIPULATION_DEALS),
}


@pytest.mark.django_db
@pytest.mark.parametrize("game", list(GAMES))
def test_no_deal_makes_a_sheet_fail(game):
    players, options, deals = GAMES[game]
    client = Client(raise_request_exception=True)
    created = client.post(
        "/api/v1/sheets",
        json.dumps({"game": game, "players": players, "options": options}),
        content_type="application/json",
    ).json()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {created['edit_token']}"}
    hands = f"/api/v1/sheets/{created['id']}/hands"
    page = created["urls"]["edit"].removeprefix("http://testserver")
    stored = []

    @settings(
        max_examples=EXAMPLES_PER_GAME,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(body=st.one_of(deals, deals, json_values))
    def fuzz(body):
        response = client.post(hands, json.dumps(body), content_type="application/json", **auth)
        assert response.status_code in (201, 400, 422), (body, response.content[:300])
        if response.status_code != 201:
            assert not list(ERROR_FORMAT.iter_errors(response.json())), body
            return
        stored.append(body)
        number = response.json()["hand"]["number"]
        # The same deal entered again as a correction re-scores to the same sheet.
        corrected = client.put(
            f"{hands}/{number}", json.dumps(body), content_type="application/json", **auth
        )
        assert corrected.status_code == 200, corrected.content[:300]
        assert client.get(page).status_code == 200
        if number > 3:
            removed = client.delete(f"{hands}/1", **auth)
            assert removed.status_code in (200, 422), removed.content[:300]

    fuzz()
    assert client.get(f"/api/v1/sheets/{created['id']}", **auth).status_code == 200
