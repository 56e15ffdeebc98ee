"""The deal-entry forms of the sheet page, mapped to and from the deal's JSON.

A deal is stored as the same JSON the API takes, whichever way it was entered, so
the rules see one format. These functions only move values between the form's
field names and that JSON; they never judge them (a number that is not a number
stays text, and the deal reader says what is wrong with it, at the JSON field that
the form shows the message next to).
"""

from __future__ import annotations

from typing import Any

from django.http import QueryDict

PITCH_POINTS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


# Longer numbers than any score, bid or option: kept as text, so the rules answer
# "give a number from … to …" instead of Python refusing a 5,000-digit int.
MAX_DIGITS = 9


def int_or_text(value: str) -> int | str:
    """A typed whole number as an int; anything else (other scripts' digits such as "²"
    or "①", which ``str.isdigit`` accepts but ``int`` does not, a decimal, a word, a
    number too long to be one) as the text, for the rules to refuse with a message."""
    text = value.strip()
    digits = text[1:] if text.startswith("-") else text
    if digits.isascii() and digits.isdigit() and len(digits) <= MAX_DIGITS:
        return int(text)
    return text


def _number(value: str | None) -> int | str | None:
    if value is None or not value.strip():
        return None
    return int_or_text(value)


def _flag(post: QueryDict, name: str) -> bool:
    return post.get(name) in ("on", "true", "1")


def _put(entry: dict[str, Any], key: str, value: Any) -> None:
    if value is not None and value != "" and value != []:
        entry[key] = value


# -- Skat -------------------------------------------------------------------------------


def skat_matadors(post: QueryDict) -> tuple[str, int | str | None]:
    """The matadors tapped: one tap on "with 2" or "against 3" (``matadors_tap``), or the
    direction and count sent as two fields (forms without the one-tap buttons, old links)."""
    tap = post.get("matadors_tap") or ""
    direction, _, count = tap.partition("-")
    if direction in ("with", "against") and count:
        return direction, _number(count)
    return post.get("matadors_direction") or "with", _number(post.get("matadors_count"))


def skat_entry(post: QueryDict, *, players: int) -> dict[str, Any]:
    if post.get("mode") == "passed":
        entry: dict[str, Any] = {"passed": True}
        points = [_number(post.get(f"ramsch_points_{seat}")) for seat in range(players)]
        tricks = [_number(post.get(f"ramsch_tricks_{seat}")) for seat in range(players)]
        last = _number(post.get("ramsch_last_trick"))
        if any(v is not None for v in [*points, *tricks, last]):
            entry["ramsch"] = {"points": points, "tricks": tricks, "last_trick": last}
        return entry
    entry = {}
    _put(entry, "declarer", _number(post.get("declarer")))
    _put(entry, "game", post.get("game"))
    _put(entry, "bid", _number(post.get("bid")))
    for flag in ("hand", "ouvert", "kontra", "re"):
        if _flag(post, flag):
            entry[flag] = True
    if post.get("announced") in ("schneider", "schwarz"):
        entry["announced"] = post["announced"]
    if post.get("game") != "null":
        if post.get("matadors_by") == "cards":
            _put(entry, "declarer_cards", post.getlist("declarer_cards"))
        else:
            direction, count = skat_matadors(post)
            if count is not None:
                entry["matadors"] = {direction: count}
    result_by = post.get("result_by") or "outcome"
    if result_by == "points":
        _put(entry, "declarer_points", _number(post.get("declarer_points")))
        _put(entry, "declarer_tricks", _number(post.get("declarer_tricks")))
    elif result_by == "cards":
        entry["declarer_trick_cards"] = post.getlist("declarer_trick_cards")
        _put(entry, "skat", post.getlist("skat"))
    else:
        _put(entry, "outcome", post.get("outcome"))
    return entry


def skat_form(entry: dict[str, Any]) -> dict[str, Any]:
    """A stored Skat deal as the form's field values (for a correction)."""
    values: dict[str, Any] = dict(entry)
    if entry.get("passed"):
        values["mode"] = "passed"
        ramsch = entry.get("ramsch") or {}
        for seat, points in enumerate(ramsch.get("points") or []):
            values[f"ramsch_points_{seat}"] = points
        for seat, tricks in enumerate(ramsch.get("tricks") or []):
            values[f"ramsch_tricks_{seat}"] = tricks
        values["ramsch_last_trick"] = ramsch.get("last_trick")
        return values
    values["mode"] = "game"
    matadors = entry.get("matadors")
    if isinstance(matadors, dict) and matadors:
        ((direction, count),) = list(matadors.items())[:1]
        values.update(matadors_by="count", matadors_direction=direction, matadors_count=count)
    elif entry.get("declarer_cards"):
        values["matadors_by"] = "cards"
    if "declarer_trick_cards" in entry:
        values["result_by"] = "cards"
    elif "declarer_points" in entry or "declarer_tricks" in entry:
        values["result_by"] = "points"
    else:
        values["result_by"] = "outcome"
    return values


# -- Pitch ------------------------------------------------------------------------------


def pitch_entry(post: QueryDict, *, players: int) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    _put(entry, "pitcher", _number(post.get("pitcher")))
    bid = post.get("bid")
    _put(entry, "bid", "moon" if bid == "moon" else _number(bid))
    entry["points"] = {
        key: post.get(f"point_{key}") for key in PITCH_POINTS if post.get(f"point_{key}")
    }
    return entry


def pitch_form(entry: dict[str, Any]) -> dict[str, Any]:
    values = dict(entry)
    for key, team in (entry.get("points") or {}).items():
        values[f"point_{key}"] = team
    return values


# -- Manipulation -----------------------------------------------------------------------


def manipulation_entry(post: QueryDict, *, players: int) -> dict[str, Any]:
    went_out = _number(post.get("went_out"))
    if post.get("count_by") == "cards":
        hands = [
            [] if seat == went_out else post.getlist(f"cards_{seat}") for seat in range(players)
        ]
        return {"hands": hands}
    penalties = [
        0 if seat == went_out else _number(post.get(f"penalty_{seat}")) for seat in range(players)
    ]
    return {"penalties": penalties}


def manipulation_form(entry: dict[str, Any]) -> dict[str, Any]:
    values: dict[str, Any] = dict(entry)
    if entry:
        # Nobody at 0: the round ended with the stock out, until a zero says otherwise.
        values["went_out"] = "nobody"
    if "hands" in entry:
        values["count_by"] = "cards"
        for seat, cards in enumerate(entry.get("hands") or []):
            values[f"cards_{seat}"] = cards
            if cards == []:
                values["went_out"] = seat
    else:
        values["count_by"] = "penalties"
        for seat, penalty in enumerate(entry.get("penalties") or []):
            values[f"penalty_{seat}"] = penalty
            if penalty == 0:
                values["went_out"] = seat
    return values
