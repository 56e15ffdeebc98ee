"""Reading request bodies: every shape problem is reported at its field, in plain words."""

import pytest

from games.api_input import Body, UnreadableInput, describe, parse_json_object
from games.rules.cards import SKAT_DECK, card


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"", "empty"),
        (b"   ", "empty"),
        (b"{", "not valid JSON"),
        (b"\xff\xfe", "UTF-8"),
        (b"[1, 2]", "must be a JSON object"),
        (b'"grand"', "must be a JSON object"),
        (b'{"bid": NaN}', "not valid JSON"),
        (b"[" * 100000 + b"]" * 100000, "not valid JSON"),
    ],
)
def test_unreadable_bodies_are_refused_with_a_reason(raw, message):
    with pytest.raises(UnreadableInput) as caught:
        parse_json_object(raw)
    assert message in caught.value.problems[0].message
    assert caught.value.problems[0].field is None


@pytest.mark.parametrize(
    ("raw", "field", "message"),
    [
        (b'{"game": "\\ud800"}', "game", "lone surrogate"),
        (b'{"players": ["Ana", "\\udfff"]}', "players.1", "lone surrogate"),
        (b'{"\\udc00": 1}', None, "field name"),
        (b'{"options": {"a\\u0000": 1}}', "options", "NUL"),
        (b'{"players": ["Ana\\u0000"]}', "players.0", "NUL"),
        (b'{"bid": 1e999}', None, "far too large"),
        (b'{"bid": -1e999}', None, "far too large"),
        (b'{"bid": ' + b"9" * 5000 + b"}", None, "far too large"),
        (b'{"bid": -' + b"9" * 101 + b"}", None, "far too large"),
        (b'{"bid": Infinity}', None, "not valid JSON"),
    ],
)
def test_text_that_is_not_text_and_numbers_nobody_means_are_unreadable(raw, field, message):
    """json.loads accepts lone surrogates, NUL escapes, 1e999 (as inf): all are refused."""
    with pytest.raises(UnreadableInput) as caught:
        parse_json_object(raw)
    assert message in caught.value.problems[0].message
    assert caught.value.problems[0].field == field


def test_large_but_sensible_numbers_still_read():
    assert parse_json_object(b'{"bid": ' + b"9" * 100 + b', "x": 1e308}')["x"] == 1e308


def test_every_problem_is_collected_before_anything_is_raised():
    body = Body({"bid": "24", "hand": "yes", "game": "grnad", "cards": ["JC", "JC"], "extra": 1})
    assert body.integer("bid") is None
    assert body.boolean("hand") is False
    assert body.choice("game", ("grand", "null"), required=True) is None
    assert body.cards("cards", SKAT_DECK) is None
    with pytest.raises(UnreadableInput) as caught:
        body.finish()
    problems = {p.field: p.message for p in caught.value.problems}
    assert problems["bid"] == "Bid must be a whole number, not text."
    assert problems["hand"] == "Hand must be true or false, not text."
    assert 'Did you mean "grand"?' in problems["game"]
    assert "J♣ is there 2 times" in problems["cards"]
    assert problems["extra"].startswith('"extra" is not a field of this request.')


def test_values_are_read_leniently_where_nothing_can_be_misread():
    body = Body({"bid": 24.0, "game": " Grand ", "led": "j♣", "scores": {"A": 3, "B": -2}})
    assert body.integer("bid") == 24
    assert body.choice("game", ("grand",)) == "grand"
    assert body.card("led", SKAT_DECK) == card("JC")
    assert body.integers_by_key("scores") == {"A": 3, "B": -2}
    body.finish()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (True, "not true"),
        (2.5, "not 2.5"),
        (10**12, "far too large"),
        (None, "Bid is missing"),
    ],
)
def test_whole_numbers_must_be_whole_numbers(value, message):
    body = Body({} if value is None else {"bid": value})
    body.integer("bid")
    with pytest.raises(UnreadableInput, match=message):
        body.finish()


def test_missing_optional_fields_take_their_defaults():
    body = Body({"hand": None})
    assert body.boolean("hand", default=True) is True
    assert body.integer("points", required=False) is None
    assert body.choice("announced", ("none",), default="none") == "none"
    assert body.cards("skat", SKAT_DECK, required=False) is None
    assert body.object("matadors") is None
    assert body.list("melds", required=False) is None
    assert body.raw("options") is None
    assert body.integers_by_key("scores_before") is None
    body.finish()


def test_nested_objects_report_their_own_paths():
    body = Body({"matadors": {"with": "two", "sideways": 1}, "melds": "7H", "options": 3})
    matadors = body.object("matadors")
    matadors.integer("with")
    body.list("melds")
    body.object("options")
    body.forbid_together("melds", "options")
    with pytest.raises(UnreadableInput) as caught:
        body.finish()
    fields = sorted(p.field for p in caught.value.problems)
    assert fields == ["matadors.sideways", "matadors.with", "melds", "options", "options"]


def test_a_choice_must_be_text_and_a_card_must_exist():
    body = Body({"game": 3, "led": "ZZ"})
    body.choice("game", ("grand", "null"))
    body.card("led", SKAT_DECK)
    body.card("played", SKAT_DECK)
    with pytest.raises(UnreadableInput) as caught:
        body.finish()
    problems = {p.field: p.message for p in caught.value.problems}
    assert problems["game"] == 'Game must be one of "grand" or "null", not a number.'
    assert "not a card" in problems["led"]
    assert problems["played"] == "Played is missing."


@pytest.mark.parametrize(
    ("value", "word"),
    [
        (None, "null"),
        (True, "true"),
        (False, "false"),
        (1, "a number"),
        ("x", "text"),
        ([], "a list"),
        ({}, "an object"),
    ],
)
def test_values_are_named_as_json_names_them(value, word):
    assert describe(value) == word
