"""Fuzzing the referee endpoints: whatever arrives, the answer is 200 or a 4xx in the
contract's error format, never a 5xx ("Errors": malformed JSON, wrong types, unknown
cards, duplicate cards, impossible combinations: all 4xx with a message).

Each endpoint gets a few hundred bodies of two kinds: arbitrary JSON, and bodies
shaped like the real request with every field drawn from plausible and implausible
values, which reach deep into the referee. With the nine endpoints that is several
thousand requests per run.
"""

import json
from collections import Counter

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from games import openapi
from games.rules import pitch, skat
from games.rules.cards import MANIPULATION_DECK, PITCH_DECK, SKAT_DECK

pytestmark = pytest.mark.django_db(databases=[])

SCHEMA = openapi.schema()
EXAMPLES_PER_ENDPOINT = 250

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
json_values = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)


def card_codes(deck):
    codes = [c.code for c in deck.kinds]
    odd = ["ZZ", "", "10", "1H", "JOKER", "t♥", "j♣", "6H", "JOKER-HIGH", " as "]
    return st.sampled_from(codes) | st.sampled_from(odd)


def optional(fields: dict, required: tuple[str, ...] = ()) -> st.SearchStrategy:
    """Well-formed bodies: the required fields, and any of the others."""
    return st.fixed_dictionaries(
        {k: v for k, v in fields.items() if k in required},
        optional={k: v for k, v in fields.items() if k not in required},
    )


def corrupted(bodies: st.SearchStrategy) -> st.SearchStrategy:
    """A well-formed body with one field dropped, replaced by any JSON, or one field too many."""

    @st.composite
    def corrupt(draw):
        body = dict(draw(bodies))
        how = draw(st.sampled_from(["drop", "replace", "add"]))
        if how == "add" or not body:
            body[draw(st.text(max_size=8))] = draw(json_values)
        else:
            key = draw(st.sampled_from(sorted(body)))
            if how == "drop":
                del body[key]
            else:
                body[key] = draw(json_values)
        return body

    return corrupt()


SKAT_CODES = [c.code for c in SKAT_DECK.kinds]
skat_cards = card_codes(SKAT_DECK)
pitch_cards = card_codes(PITCH_DECK)
manipulation_cards = st.sampled_from([c.code for c in MANIPULATION_DECK.kinds])
any_manipulation_card = card_codes(MANIPULATION_DECK)
games = st.sampled_from(skat.GAMES)


@st.composite
def skat_scores(draw):
    """Skat games shaped like real ones: one way to give matadors, one way to give the result."""
    deck = draw(st.permutations(SKAT_CODES))
    body = {"game": draw(games), "bid": draw(st.sampled_from(skat.BIDS) | st.integers(0, 300))}
    for flag in ("hand", "ouvert", "kontra", "re", "bock"):
        if draw(st.booleans()):
            body[flag] = draw(st.booleans())
    if draw(st.booleans()):
        body["announced"] = draw(st.sampled_from(["none", "schneider", "schwarz"]))
    matadors = draw(st.sampled_from(["count", "cards", "none"]))
    if matadors == "count":
        body["matadors"] = {draw(st.sampled_from(["with", "against"])): draw(st.integers(0, 12))}
    elif matadors == "cards":
        body["declarer_cards"] = deck[: draw(st.sampled_from([12, 12, 12, 11]))]
    result = draw(st.sampled_from(["points", "cards", "outcome", "tricks", "none"]))
    if result == "points":
        body["declarer_points"] = draw(st.integers(-2, 122))
        body["declarer_tricks"] = draw(st.integers(-1, 11))
    elif result == "tricks":
        body["declarer_tricks"] = draw(st.integers(0, 10))
    elif result == "cards":
        tricks = draw(st.integers(0, 10))
        body["declarer_trick_cards"] = deck[2 : 2 + 3 * tricks]
        body["skat"] = deck[:2] if draw(st.booleans()) else deck[30:32]
    elif result == "outcome":
        body["outcome"] = draw(st.sampled_from(skat.OUTCOMES))
    return body


@st.composite
def legal_skat_games(draw):
    """Skat games a table could really report, so that most answers are scores."""
    deck = draw(st.permutations(SKAT_CODES))
    game = draw(games)
    hand = draw(st.booleans())
    body = {"game": game, "hand": hand, "kontra": draw(st.booleans())}
    body["re"] = body["kontra"] and draw(st.booleans())
    if game == "null":
        body["ouvert"] = draw(st.booleans())
        body["bid"] = draw(st.sampled_from([b for b in skat.BIDS if b <= 23]))
        if draw(st.booleans()):
            body["declarer_tricks"] = draw(st.integers(0, 2))
        else:
            body["outcome"] = draw(st.sampled_from(["won", "lost"]))
        return body
    body["ouvert"] = hand and draw(st.integers(0, 5)) == 0
    if hand:
        body["announced"] = draw(st.sampled_from(["none", "none", "schneider", "schwarz"]))
    body["bid"] = draw(st.sampled_from(skat.BIDS[:8]))
    if draw(st.booleans()):
        body["declarer_cards"] = deck[:12]
    else:
        top = 4 if game == "grand" else 11
        body["matadors"] = {draw(st.sampled_from(["with", "against"])): draw(st.integers(1, top))}
    style = draw(st.sampled_from(["points", "outcome", "cards"]))
    if style == "points":
        tricks = draw(st.integers(1, 9))
        body["declarer_tricks"] = tricks
        body["declarer_points"] = draw(st.integers(10 + 3 * tricks, 25 + 10 * tricks))
    elif style == "outcome":
        body["outcome"] = draw(st.sampled_from(skat.OUTCOMES))
    else:
        body["skat"] = deck[10:12]
        body["declarer_trick_cards"] = deck[12 : 12 + 3 * draw(st.integers(0, 6))]
    return body


SKAT_SCORE = legal_skat_games() | legal_skat_games() | skat_scores()
SKAT_TRICK = st.fixed_dictionaries(
    {
        "game": games,
        "cards": st.permutations(SKAT_CODES).map(lambda d: d[:3])
        | st.lists(skat_cards, max_size=4),
    }
)


@st.composite
def skat_follows(draw):
    deck = draw(st.permutations(SKAT_CODES))
    size = draw(st.integers(1, 10))
    hand = deck[1 : 1 + size]
    played = draw(st.sampled_from(hand)) if draw(st.integers(0, 9)) else deck[-1]
    return {"game": draw(games), "led": deck[0], "hand": hand, "played": played}


SKAT_FOLLOW = skat_follows()
holders = st.sampled_from(["A", "B", "out", "a", "C"])
POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")
PITCH_OPTIONS = optional(
    {
        "target": st.integers(-5, 600),
        "made_scores": st.sampled_from(["taken", "bid", "x"]),
        "two_goes_to": st.sampled_from(["taker", "player", "x"]),
        "all_pass": st.sampled_from(["dealer_4", "redeal", "x"]),
        "win_condition": st.sampled_from(["bidder_first", "bid_out", "x"]),
    }
)
PITCH_HAND = optional(
    {
        "bid": st.integers(3, 10) | st.just("moon"),
        "pitcher_team": st.sampled_from(["A", "B", "b"]),
        "points": st.fixed_dictionaries(
            dict.fromkeys(POINT_KEYS, st.sampled_from(["A", "B", "out"]))
        ),
        "scores_before": st.fixed_dictionaries(
            {"A": st.integers(-60, 60), "B": st.integers(-60, 60)}
        ),
        "options": PITCH_OPTIONS,
    },
    required=("bid", "pitcher_team", "points"),
)
PITCH_TRUMPS = {
    suit: [c.code for c in PITCH_DECK.kinds if pitch.is_trump(c, suit)] for suit in "CSHD"
}


@st.composite
def pitch_tricks(draw):
    """Mostly real tricks (2 to 4 different trumps), sometimes anything card-like."""
    if draw(st.integers(0, 3)) == 0:
        trump = draw(st.sampled_from(["C", "S", "H", "D", "X", "♠"]))
        return {"trump": trump, "cards": draw(st.lists(pitch_cards, max_size=5))}
    suit = draw(st.sampled_from("CSHD"))
    cards = draw(st.permutations(PITCH_TRUMPS[suit]))
    return {"trump": suit, "cards": cards[: draw(st.integers(2, 4))]}


PITCH_TRICK = pitch_tricks()

MANIPULATION_OPTIONS = optional(
    {
        "target": st.sampled_from([200, 300, 250]),
        "ace": st.sampled_from(["high", "low_or_high", "x"]),
        "stock_out": st.sampled_from(["play_on", "end_round", "x"]),
    }
)


@st.composite
def runs_and_groups(draw):
    """A meld that is often valid: a run of one suit, a group of one rank, or any cards."""
    kind = draw(st.sampled_from(["run", "group", "any"]))
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
    if kind == "run":
        start = draw(st.integers(0, 11))
        length = draw(st.integers(2, 13 - start))
        suit = draw(st.sampled_from("CSHD"))
        return [r + suit for r in ranks[start : start + length]]
    if kind == "group":
        rank = draw(st.sampled_from(ranks))
        suits = draw(st.lists(st.sampled_from("CSHD"), min_size=2, max_size=5))
        return [rank + s for s in suits]
    return draw(st.lists(any_manipulation_card, max_size=6))


melds = st.lists(runs_and_groups(), max_size=5)
MANIPULATION_MELDS = optional(
    {"melds": melds, "options": MANIPULATION_OPTIONS}, required=("melds",)
)
MANIPULATION_TURN = optional(
    {
        "table_before": melds,
        "table_after": melds,
        "hand": st.lists(manipulation_cards, max_size=8),
        "options": MANIPULATION_OPTIONS,
    },
    required=("table_before", "table_after"),
)
MANIPULATION_ARRANGE = optional(
    {"cards": melds.map(lambda ms: [c for m in ms for c in m]), "options": MANIPULATION_OPTIONS},
    required=("cards",),
)
names = st.sampled_from(["Ana", "Ben", "Cem", "Dee", "Eli", "Fay"])


@st.composite
def round_hands(draw) -> dict[str, list[str]]:
    """Three to five players' hands, exactly one of them empty (who went out): the
    shape of a round the referee scores. Random hands are one only now and then (0 to
    18 in 250 were seen), so the test's answers could all be refusals by chance."""
    players = draw(st.lists(names, min_size=3, max_size=5, unique=True))
    out = draw(st.sampled_from(players))
    return {
        player: [] if player == out else draw(st.lists(manipulation_cards, min_size=1, max_size=6))
        for player in players
    }


MANIPULATION_ROUND = optional(
    {
        "hands": st.one_of(
            st.dictionaries(
                names, st.lists(manipulation_cards, max_size=6), min_size=2, max_size=6
            ),
            round_hands(),
        ),
        "scores_before": st.dictionaries(names, st.integers(-10, 400), max_size=6),
        "options": MANIPULATION_OPTIONS,
    },
    required=("hands",),
)

STRATEGIES = {
    "/api/v1/skat/score": SKAT_SCORE,
    "/api/v1/skat/trick": SKAT_TRICK,
    "/api/v1/skat/follow": SKAT_FOLLOW,
    "/api/v1/pitch/hand": PITCH_HAND,
    "/api/v1/pitch/trick": PITCH_TRICK,
    "/api/v1/manipulation/melds": MANIPULATION_MELDS,
    "/api/v1/manipulation/turn": MANIPULATION_TURN,
    "/api/v1/manipulation/arrange": MANIPULATION_ARRANGE,
    "/api/v1/manipulation/round": MANIPULATION_ROUND,
}
ERROR_FORMAT = Draft202012Validator(openapi.ERROR)


def _check(client: Client, path: str, body) -> int:
    response = client.post(path, json.dumps(body), content_type="application/json")
    assert response.status_code in (200, 400, 422), (path, body, response.content[:500])
    payload = response.json()
    if response.status_code == 200:
        schema = SCHEMA["paths"][path]["post"]["responses"]["200"]["content"]["application/json"][
            "schema"
        ]
        validator = Draft202012Validator({**schema, "components": SCHEMA["components"]})
        assert not list(validator.iter_errors(payload)), (path, body, payload)
    else:
        assert not list(ERROR_FORMAT.iter_errors(payload)), (path, body, payload)
        assert all(error["message"].strip() for error in payload["errors"])
    return response.status_code


def test_every_endpoint_is_fuzzed():
    assert set(STRATEGIES) == {endpoint.path for endpoint in openapi.ENDPOINTS}


@pytest.mark.parametrize("path", list(STRATEGIES))
def test_no_input_makes_an_endpoint_fail(path):
    client = Client(raise_request_exception=True)
    well_formed = STRATEGIES[path]

    @settings(
        max_examples=EXAMPLES_PER_ENDPOINT,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(
        body=st.one_of(well_formed, well_formed, well_formed, corrupted(well_formed), json_values)
    )
    def fuzz(body):
        statuses.append(_check(client, path, body))

    statuses: list[int] = []
    fuzz()
    # The fuzzing reached both the referee's answers and its refusals (half the
    # well-formed rounds of Manipulation have the shape of one the referee scores:
    # round_hands).
    assert len(statuses) >= EXAMPLES_PER_ENDPOINT
    assert statuses.count(200) >= 1, Counter(statuses)
    assert statuses.count(400) + statuses.count(422) >= 50, Counter(statuses)
