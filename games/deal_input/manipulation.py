"""Reading a Manipulation round for the score sheet.

A round's JSON gives either ``"hands"``, one list of card codes per seat (the cards
left at the end; the player who went out has an empty list), or ``"penalties"``,
one whole number per seat. Only the shape is read here; how many entries there
must be, and whether the cards and numbers can be right, is for the sheet engine.
"""

from __future__ import annotations

from typing import Any

from games.api_input import Body, describe
from games.rules.cards import MANIPULATION_DECK, Card
from games.rules.errors import RuleError
from games.rules.manipulation import ManipulationOptions
from games.rules.manipulation_sheet import ManipulationDeal
from games.rules.text import _

_ACE = {
    "high": _("The ace is high only: Q-K-A is a sequence, A-2-3 is not"),
    "low_or_high": _("The ace is high or low: Q-K-A and A-2-3 are sequences, K-A-2 is not"),
}
_STOCK_OUT = {
    "play_on": _(
        "When the stock is empty, a player who cannot meld passes; the round ends when "
        "everyone has passed in a row"
    ),
    "end_round": _(
        "When the stock is empty, the round ends as soon as the player to move cannot meld"
    ),
}


def read_deal(
    data: dict[str, Any], *, players: int, options: ManipulationOptions
) -> ManipulationDeal:
    """The typed round, or ``UnreadableInput`` listing every shape problem.

    ``players`` and ``options`` are part of every game's reader; a round reads the
    same whatever they are (the engine counts the entries against the seats).
    """
    body = Body(data)
    hands = _read_hands(body)
    penalties = _read_penalties(body)
    if not body.has("hands") and not body.has("penalties"):
        body.add(
            None,
            _(
                'Enter the round either as "hands" (the cards left in each hand, one list per '
                'seat) or as "penalties" (each player\'s penalty points, one number per seat).'
            ),
        )
    body.forbid_together("hands", "penalties")
    body.finish()
    return ManipulationDeal(hands=hands, penalties=penalties)


def _read_hands(body: Body) -> tuple[tuple[Card, ...], ...] | None:
    entries = body.list("hands", required=False)
    if entries is None:
        return None
    hands: list[tuple[Card, ...]] = []
    for seat, entry in enumerate(entries):
        if not isinstance(entry, list):
            body.add(
                f"hands.{seat}",
                _(
                    "The hand of seat {seat} must be a list of card codes like "
                    '["JC", "10H"] (empty for the player who went out), not {what}.',
                    seat=seat + 1,
                    what=describe(entry),
                ),
            )
            continue
        try:
            # Two decks hold two of each card; the engine says which hand has too many,
            # so no card count is judged here.
            cards = MANIPULATION_DECK.parse(entry, f"hands.{seat}", copies=len(MANIPULATION_DECK))
        except RuleError as error:
            body.problems.extend(error.problems)
            continue
        hands.append(tuple(cards))
    return tuple(hands)


def _read_penalties(body: Body) -> tuple[int, ...] | None:
    entries = body.list("penalties", required=False)
    if entries is None:
        return None
    penalties: list[int] = []
    for seat, value in enumerate(entries):
        whole = isinstance(value, int | float) and not isinstance(value, bool)
        if not whole or (isinstance(value, float) and not value.is_integer()):
            shown = describe(value) if not whole else str(value)
            body.add(
                f"penalties.{seat}",
                _(
                    "The penalty for seat {seat} must be a whole number, not {what}.",
                    seat=seat + 1,
                    what=shown,
                ),
            )
            continue
        penalties.append(int(value))
    return tuple(penalties)


def read_options(data: dict[str, Any] | None) -> ManipulationOptions:
    """The options of a new sheet; ``RuleError`` at ``options.<name>`` for each bad one."""
    return ManipulationOptions.from_mapping(data)


def options_summary(options: ManipulationOptions, *, players: int | None = None) -> tuple[str, ...]:
    """One short line per option, defaults included, as the sheet shows them."""
    return (
        _("Game to {target} penalty points; the lowest total wins", target=options.target),
        _ACE[options.ace],
        _STOCK_OUT[options.stock_out],
    )
