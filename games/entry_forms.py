"""The deal-entry forms of the sheet page, mapped to and from the deal's JSON.

A deal is stored as the same JSON the API takes, whichever way it was entered, so
the rules see one format. These functions only move values between the form's
field names and that JSON; they never judge them (a number that is not a number
stays text, and the deal reader says what is wrong with it, at the JSON field that
the form shows the message next to).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _

from games.api_input import MAX_DIGITS, missing_message
from games.rules.errors import Problem
from games.rules.pitch_sheet import team_of
from games.rules.skat import ALL_POINTS, ALL_TRICKS, BASE_VALUES, BIDS, NULL_VALUES, contract_name
from games.rules.skat_sheet import LONGEST_SERIES, SHORTEST_SERIES
from games.rules.text import Text

# The one-tap result "60:60": the declarer's card points are 60 (no outcome of the API).
SIXTY_ALL = "sixty_all"

PITCH_POINTS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


# Numbers longer than MAX_DIGITS (more than any score, bid or option) are kept as
# text, so the reader answers "far too large" (games.api_input) instead of Python
# refusing a 5,000-digit int.
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
    # Any of the posted values: the correction page also posts the deal's id as "hand"
    # (a number), before the Hand box's "on" when it is ticked.
    return any(value in ("on", "true") for value in post.getlist(name))


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


def skat_bid(post: QueryDict) -> int | str | None:
    """The bid tapped among the chips, or chosen from the full list ("other bid…")."""
    bid = post.get("bid")
    if bid == "other":
        bid = post.get("bid_other")
    return _number(bid)


def work_out_last(values: list[Any], *, total: int, sitting_out: Any) -> list[Any]:
    """The three Ramsch players' card points add up to 120 and their tricks to 10: when
    all but one of them are given, the last one is what is left (never below 0).

    ``sitting_out`` is the seat that sat the deal out at a table of four, or a list of
    the seats that did (at five the dealer and the third player to his left); their
    entries stay empty. Anything else leaves every seat in play.
    """
    out = list(sitting_out) if isinstance(sitting_out, list | tuple) else [sitting_out]
    playing = [seat for seat in range(len(values)) if seat not in out]
    empty = [seat for seat in playing if values[seat] is None]
    given = [values[seat] for seat in playing if values[seat] is not None]
    if len(playing) != 3 or len(empty) != 1 or not all(isinstance(v, int) for v in given):
        return values
    left = total - sum(given)
    if left < 0:
        return values
    worked = list(values)
    worked[empty[0]] = left
    return worked


def skat_entry(post: QueryDict, *, players: int) -> dict[str, Any]:
    if post.get("mode") == "passed":
        entry: dict[str, Any] = {"passed": True}
        points = [_number(post.get(f"ramsch_points_{seat}")) for seat in range(players)]
        tricks = [_number(post.get(f"ramsch_tricks_{seat}")) for seat in range(players)]
        last = _number(post.get("ramsch_last_trick"))
        if any(v is not None for v in [*points, *tricks, last]):
            out = [_number(seat) for seat in post.getlist("ramsch_out")]
            points = work_out_last(points, total=ALL_POINTS, sitting_out=out)
            tricks = work_out_last(tricks, total=ALL_TRICKS, sitting_out=out)
            entry["ramsch"] = {"points": points, "tricks": tricks, "last_trick": last}
        return entry
    entry = {}
    _put(entry, "declarer", _number(post.get("declarer")))
    if _flag(post, "by_value"):
        # A game entered by its value as the list writes it: the number typed, minus
        # when "Lost" is ticked (a phone's number pad often has no minus key).
        value = _number(post.get("value"))
        if isinstance(value, int) and _flag(post, "value_lost"):
            value = -abs(value)
        entry["value"] = value if value is not None else ""
        return entry
    _put(entry, "game", post.get("game"))
    _put(entry, "bid", skat_bid(post))
    for flag in ("hand", "ouvert", "kontra", "re"):
        if _flag(post, flag):
            entry[flag] = True
    if entry.get("ouvert") and post.get("game") in BASE_VALUES:
        # A suit or grand game can only be played ouvert from the hand (ISkO: an open
        # game is a hand game): ticking Ouvert says Hand too.
        entry["hand"] = True
    # One choice (none, schneider, schwarz) or two ticks: schwarz announced includes schneider.
    said = post.getlist("announced")
    for announcement in ("schwarz", "schneider"):
        if announcement in said:
            entry["announced"] = announcement
            break
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
    elif post.get("outcome") == SIXTY_ALL:
        # "60:60" (on a sheet with a Bock round after it): the card points say it, and
        # 60 needs no tricks (both sides took some, so it is not schwarz).
        entry["declarer_points"] = ALL_POINTS // 2
    else:
        _put(entry, "outcome", post.get("outcome"))
    return entry


def skat_form(entry: dict[str, Any]) -> dict[str, Any]:
    """A Skat deal (stored, or as posted) as the form's field values. A new deal's form
    starts from the defaults a player accepts without a tap: a game was played, the
    lowest bid (18), the result "won"."""
    values: dict[str, Any] = dict(entry)
    if not entry:
        values.update(mode="game", bid=BIDS[0], outcome="won", result_by="outcome")
        return values
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
    if "value" in entry:
        value = entry["value"]
        values["by_value"] = True
        if isinstance(value, int) and value < 0:
            values.update(value=-value, value_lost=True)
        return values
    matadors = entry.get("matadors")
    if isinstance(matadors, dict) and matadors:
        ((direction, count),) = list(matadors.items())[:1]
        values.update(matadors_by="count", matadors_direction=direction, matadors_count=count)
    elif entry.get("declarer_cards"):
        values["matadors_by"] = "cards"
    if "declarer_trick_cards" in entry:
        values["result_by"] = "cards"
    elif entry.get("declarer_points") == ALL_POINTS // 2 and "declarer_tricks" not in entry:
        values.update(result_by="outcome", outcome=SIXTY_ALL)
    elif "declarer_points" in entry or "declarer_tricks" in entry:
        values["result_by"] = "points"
    else:
        values["result_by"] = "outcome"
    return values


# The first rungs of the bidding: most auctions end here, whatever game follows.
LOW_BIDS = (18, 20, 22, 23, 24)
# Six bids and "Other bid…" fill one row of a phone at 44 px a chip.
MOST_BID_CHIPS = 6


def skat_declared_value(values: dict[str, Any]) -> int | None:
    """What the game as declared so far is worth when won plainly (no schneider played):
    the value the bid is usually measured against. ``None`` before a game is chosen."""
    game = values.get("game")
    hand, ouvert = bool(values.get("hand")), bool(values.get("ouvert"))
    if game == "null":
        return NULL_VALUES[contract_name(game="null", hand=hand, ouvert=ouvert)]
    if game not in BASE_VALUES:
        return None
    count = values.get("matadors_count")
    count = count if isinstance(count, int) and count > 0 else 1
    said = "schwarz" if ouvert else values.get("announced")
    levels = count + 1 + int(hand or ouvert)
    if said in ("schneider", "schwarz"):
        levels += 2  # schneider, and its announcement
    if said == "schwarz":
        levels += 2  # schwarz, and its announcement
    levels += int(ouvert)
    return BASE_VALUES[game] * levels


def skat_bid_chips(values: dict[str, Any]) -> list[int]:
    """The bids to offer as one-tap chips, at most six: the declared game's value first,
    then (in order of the bid ladder) the next multiple of its base value (schneider
    reaches it), the multiples below the value and the low bids. Before a game is
    chosen, the low bids. The bid already chosen is always among them, so changing the
    game never drops it."""
    value = skat_declared_value(values)
    game = values.get("game")
    if value is None:
        chips = list(LOW_BIDS)
    else:
        wanted: list[int] = []
        if game in BASE_VALUES:
            base = BASE_VALUES[game]
            below = [base * m for m in range(value // base - 1, 1, -1) if base * m >= BIDS[0]]
            wanted += [value + base, *below[:2]]
        wanted += [bid for bid in LOW_BIDS if bid < value]
        others: list[int] = []
        for bid in wanted:
            if bid != value and bid not in others and len(others) < MOST_BID_CHIPS - 1:
                others.append(bid)
        chips = [value, *sorted(others)]
    chosen = values.get("bid")
    if isinstance(chosen, int) and chosen in BIDS and chosen not in chips:
        chips.append(chosen)
    return chips


# -- Pitch ------------------------------------------------------------------------------


def pitch_entry(post: QueryDict, *, players: int) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    _put(entry, "pitcher", _number(post.get("pitcher")))
    bid = post.get("bid")
    _put(entry, "bid", "moon" if bid == "moon" else _number(bid))
    entry["points"] = {
        key: post.get(f"point_{key}") for key in PITCH_POINTS if post.get(f"point_{key}")
    }
    pitcher = entry.get("pitcher")
    rest = "other" if _flag(post, "points_rest_other") else post.get("points_rest")
    if rest in ("pitcher", "other") and isinstance(pitcher, int) and 0 <= pitcher < players:
        # "Change only what differs": a point card left unmarked went to the pitcher's
        # team, or to the other team when the form says so.
        team = team_of(pitcher) if rest == "pitcher" else team_of(pitcher + 1)
        for key in PITCH_POINTS:
            entry["points"].setdefault(key, team)
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


# -- Problems as the form shows them ------------------------------------------------------

# The rules speak the JSON's language (fields, seats counted from 0 or 1, null). A
# message with any of these words is said again in the form's words.
_INTERNAL = re.compile(r"\bseats?\b|\bnull\b|\b[a-z]+_[a-z_]+\b|\{|\[", re.IGNORECASE)
_NULL_GAME = re.compile(r"\bNull\b")
_MISSING = re.compile(r"^\S+ is missing\.$")
_LEAVE_OUT = re.compile(r"[;,] (?:so )?leave \w+ out\.$")
_SEAT_FIELD = re.compile(r"^(?:penalties|hands|ramsch\.points|ramsch\.tricks)\.(\d+)$")


def _skat_words(field: str | None, missing: bool) -> str | None:
    """The form's own words for a Skat problem at ``field`` (None: keep the rules' words)."""
    words = {
        "declarer": _("Declarer: tap the player who played the game, or “Everyone passed”."),
        "game": _("Game: tap the game that was played."),
        "bid": _("Bid is missing. Tap the bid that won the auction.")
        if missing
        else _("Bid: tap the bid that won the auction, or choose it under “Other bid”."),
        "matadors": _("Matadors: tap “with” or “against” and how many."),
        "outcome": _("Result: tap how the game went (won, lost …), or count the card points."),
        "declarer_points": _("Declarer’s card points: type a whole number from 0 to 120."),
        "declarer_tricks": _("Tricks taken: type a whole number from 0 to 10."),
        "declarer_cards": _("Tap the declarer’s 10 cards and the 2 skat cards."),
        "declarer_trick_cards": _("Tap every card in the declarer’s tricks."),
        "skat": _("Tap the two skat cards."),
        "ramsch": _(
            "Ramsch: type each player’s card points and tricks, and tap who took the last trick."
        ),
        "ramsch.last_trick": _("Last trick: tap the player who took it (the skat goes with it)."),
        "value": _(
            "Value: type the game’s value as the list writes it, like 48, and tick “Lost” "
            "for a lost game."
        ),
        None: _("Tap who played the game, or “Everyone passed”."),
    }
    return words.get(field)


def _seat_words(field: str, name: str, missing: bool) -> str:
    if field.startswith("penalties."):
        if missing:
            return _("Type %(name)s’s penalty: the points of the cards left in the hand.") % {
                "name": name
            }
        return _("%(name)s’s penalty: type a whole number, like 35.") % {"name": name}
    if field.startswith("hands."):
        return _("%(name)s’s cards: tap the cards left in the hand.") % {"name": name}
    if field.startswith("ramsch.points."):
        return _("%(name)s’s card points: type a whole number from 0 to 120.") % {"name": name}
    return _("%(name)s’s tricks: type a whole number from 0 to 10.") % {"name": name}


def _game_words(game: str, field: str | None, missing: bool) -> str | None:
    if game == "skat":
        return _skat_words(field, missing)
    if game == "pitch":
        if field == "pitcher":
            return _("Who pitched? Tap the player who won the bid.")
        if field == "bid":
            if missing:
                return _("Bid is missing. Tap the bid that won.")
            return _("Bid: tap 4 to 9, or Moon.")
        if field is not None and field.startswith("points."):
            return _("Tap A, B or Out for every point card.")
        return _("Tap who pitched, the bid, and who took each point card.")
    if field in (None, "penalties", "hands"):
        return _("Type each player’s penalty, or tap the cards left in each hand.")
    return None


def _placed(game: str, field: str, options: Any) -> bool:
    """Whether the game's entry form shows a message for ``field`` beside a control."""
    head = field.split(".", 1)[0]
    if game == "skat":
        shown = {
            "declarer",
            "game",
            "bid",
            "hand",
            "ouvert",
            "announced",
            "matadors",
            "declarer_cards",
            "outcome",
            "declarer_points",
            "declarer_tricks",
            "declarer_trick_cards",
            "skat",
            "value",
        }
        if getattr(options, "kontra_re", False):
            shown |= {"kontra", "re"}
        if getattr(options, "all_pass", None) == "ramsch":
            shown.add("ramsch")
        return head in shown
    if game == "pitch":
        return head in ("pitcher", "bid") or (head == "points" and field != "points")
    return head in ("penalties", "hands")


def _missing_message(field: str) -> str:
    """The request's own "… is missing." for ``field``, in the reader's language."""
    name = field.rsplit(".", 1)[-1]
    return missing_message(int(name) if name.isdigit() else name)


def form_problem(
    game: str, problem: Problem, players: Sequence[str], options: Any = None
) -> Problem:
    """One problem as the entry form shows it: in the words of the form's labels and with
    the players' names (never a JSON field, a seat number or "null"), at the field whose
    control it concerns, or at the top (``None``) where the form has no such control."""
    field, message = problem.field, problem.message
    if field is None and game == "skat" and message.startswith("Say how the game went"):
        field = "outcome"  # the rules ask for any way of saying it; the form has one place
    missing = (
        bool(_MISSING.match(message))
        or message.endswith("not null.")
        or (field is not None and message == _missing_message(field))
    )
    internal = bool(_INTERNAL.search(_NULL_GAME.sub("", message)))
    # Asked for in the API's terms ("with/against N", "the outcome"): said in the form's.
    internal = (
        internal or message.startswith("Say how the game went") or "needs the matadors" in message
    )
    if game == "skat" and field == "value" and not isinstance(message, Text):
        # The reader's "must be a whole number": the referee's own words (a Text) say
        # which games a value can be and stay as they are.
        internal = True
    if missing or internal:
        seat = _SEAT_FIELD.match(field or "")
        if seat and int(seat.group(1)) < len(players):
            message = _seat_words(field or "", players[int(seat.group(1))], missing)
        else:
            message = _game_words(game, field, missing) or message
    if _LEAVE_OUT.search(message):
        # Only then: a substitution gives a plain str, which would lose the translation
        # of a referee's message (a Text).
        message = _LEAVE_OUT.sub(".", message)
    if field is not None and not _placed(game, field, options):
        field = None
    return Problem(field, message)


def form_problems(
    game: str, problems: Iterable[Problem], players: Sequence[str], options: Any = None
) -> list[Problem]:
    """Every problem as the form shows it (see :func:`form_problem`), each message once."""
    shown: list[Problem] = []
    for problem in problems:
        problem = form_problem(game, problem, players, options)
        if problem not in shown:
            shown.append(problem)
    return shown


def option_message(name: str, message: str) -> str:
    """A new sheet's option problem in the words of the option's label on the form.

    Only the series length is said again (its rule speaks of ``series_deals`` and
    ``null``); the other options' messages are kept as the rules say them.
    """
    if name != "series_deals" or not _INTERNAL.search(message):
        return message
    return _(
        "Deals in the series: give a whole number from %(low)s to %(high)s, or leave it "
        "empty for the usual series (36 deals at three players, 48 at four)."
    ) % {"low": SHORTEST_SERIES, "high": LONGEST_SERIES}
