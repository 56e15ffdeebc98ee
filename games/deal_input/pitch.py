"""Reading a Pitch deal for the score sheet.

The deal's JSON is ``{"pitcher": seat, "bid": 4..9 | "moon", "points": {"ace": "A",
..., "three": "out"}}``: the pitcher's seat index instead of a team, and no scores
before the deal (the sheet keeps those). Only the shape is read here; whether the
seat exists, the bid is allowed and every point card is named is for the sheet
engine to judge.
"""

from __future__ import annotations

from typing import Any, cast

from games.api_input import Body, describe
from games.rules.pitch import MOON, OUT, PitchOptions
from games.rules.pitch_sheet import PitchDeal
from games.rules.text import _, ngettext

_MADE_SCORES = {
    "taken": _("A team that makes its bid scores the points it took"),
    "bid": _("A team that makes its bid scores its bid, not what it took"),
}
_TWO_GOES_TO = {
    "taker": _("The two scores for the team that wins it in a trick"),
    "player": _("The two scores for the team that played it, whoever wins the trick"),
}
_ALL_PASS = {
    "dealer_4": _("If the first three pass, the dealer must bid at least 4"),
    "redeal": _("If all four pass, the cards are dealt again"),
}


def read_deal(data: dict[str, Any], *, players: int, options: PitchOptions) -> PitchDeal:
    """The typed deal, or ``UnreadableInput`` listing every shape problem.

    ``players`` and ``options`` are part of every game's reader; a Pitch deal reads
    the same whatever they are.
    """
    body = Body(data)
    pitcher = body.integer("pitcher")
    bid = _read_bid(body)
    points = _read_points(body)
    body.finish()
    # finish() raised if any of them could not be read.
    return PitchDeal(
        pitcher=cast(int, pitcher),
        bid=cast(int | str, bid),
        points=cast(dict[str, str], points),
    )


def _read_bid(body: Body) -> int | str | None:
    value = body.data.get("bid")
    if not isinstance(value, str):
        return body.integer("bid")
    body.raw("bid")
    if value.strip().lower() == MOON:
        return MOON
    body.add(
        "bid",
        _('The bid is a number from 4 to 9, or "moon"; got the text "{text}".', text=value[:20]),
    )
    return None


def _read_points(body: Body) -> dict[str, str] | None:
    """Who took each point card, as written; unknown or missing cards are the engine's to judge."""
    points = body.object("points", required=True)
    if points is None:
        return None
    read: dict[str, str] = {}
    for key, value in points.entries():
        if not isinstance(value, str):
            points.add(
                key, _('Say who took it: "A", "B" or "out", not {what}.', what=describe(value))
            )
            continue
        word = value.strip()
        # Team letters are capitals and "out" is lower case, however they were typed.
        read[key] = OUT if word.lower() == OUT else word.upper()
    return read


def read_options(data: dict[str, Any] | None) -> PitchOptions:
    """The options of a new sheet; ``RuleError`` at ``options.<name>`` for each bad one."""
    return PitchOptions.from_mapping(data)


def options_summary(options: PitchOptions, *, players: int | None = None) -> tuple[str, ...]:
    """One short line per option, defaults included, as the sheet shows them."""
    if options.win_condition == "bid_out":
        ending = _("A team wins only on a hand it pitched and made")
    else:
        ending = _(
            "If both teams reach {target} on one hand, the pitcher's team wins",
            target=options.target,
        )
    lines = (
        _("Game to {target}", target=options.target),
        _MADE_SCORES[options.made_scores],
        _TWO_GOES_TO[options.two_goes_to],
        _ALL_PASS[options.all_pass],
        ending,
    )
    if options.hands is None:
        return lines
    return (
        *lines,
        ngettext(
            # Translators: a game of a fixed number of hands (a round of a party night).
            "Ends after {hands} hand at the latest: the higher score wins",
            "Ends after {hands} hands at the latest: the higher score wins",
            options.hands,
            hands=options.hands,
        ),
    )
