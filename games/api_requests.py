"""The referee endpoints' requests, declared once (see :mod:`games.api_declarations`).

``games.api`` reads each body with these declarations and ``games.openapi`` describes
the endpoints from them, so neither of the two imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy

from games.api_declarations import (
    Boolean,
    Cards,
    Choice,
    Custom,
    Integer,
    OneCard,
    Request,
    spec,
)
from games.api_input import Body
from games.rules.cards import SKAT_DECK, Card
from games.rules.errors import RuleError
from games.rules.skat import GAMES, OUTCOMES, Matadors

# -- Skat ---------------------------------------------------------------------------


def _matadors(body: Body, name: str | int) -> Matadors | None:
    value = body.raw(name)
    if value is None:
        return None
    try:
        return Matadors.from_mapping(value)
    except RuleError as error:
        body.problems.extend(error.problems)
        return None


_MATADOR_COUNT = {"type": "integer", "minimum": 1, "maximum": 11}
MATADORS = Custom(
    _matadors,
    {
        "oneOf": [
            {
                "type": "object",
                "required": ["with"],
                "properties": {"with": _MATADOR_COUNT},
                "additionalProperties": False,
            },
            {
                "type": "object",
                "required": ["against"],
                "properties": {"against": _MATADOR_COUNT},
                "additionalProperties": False,
            },
        ],
    },
    gettext_lazy("Matadors as a count: with N (declarer holds the top trump) or against N."),
)


@dataclass(frozen=True)
class SkatScore(Request):
    """POST /api/v1/skat/score: the fields are ``skat.score_game``'s keyword arguments."""

    game: str = field(
        metadata=spec(Choice(GAMES, gettext_lazy("The game declared.")), required=True)
    )
    bid: int = field(
        metadata=spec(
            Integer(
                gettext_lazy(
                    "The bid the declarer won the auction with: a legal bid from 18 to 264."
                ),
                minimum=18,
                maximum=264,
                rule_range=True,
            ),
            required=True,
        )
    )
    hand: bool = field(
        metadata=spec(Boolean(gettext_lazy("Played from the hand, without picking up the skat.")))
    )
    ouvert: bool = field(
        metadata=spec(
            Boolean(
                gettext_lazy(
                    "Open: the declarer's cards lie face up. A suit or grand ouvert is always hand and schwarz announced."
                )
            )
        )
    )
    announced: str = field(
        metadata=spec(
            Choice(
                ("none", "schneider", "schwarz"),
                gettext_lazy("Announcement made (hand games only)."),
                default="none",
            )
        )
    )
    matadors: Matadors | None = field(metadata=spec(MATADORS))
    declarer_cards: list[Card] | None = field(
        metadata=spec(
            Cards(
                SKAT_DECK,
                gettext_lazy(
                    "Instead of matadors: the declarer's 10 dealt cards plus the 2 skat cards."
                ),
                min_items=12,
                max_items=12,
            )
        )
    )
    declarer_points: int | None = field(
        metadata=spec(
            Integer(
                gettext_lazy("Card points of the declarer, skat included."),
                minimum=0,
                maximum=120,
                rule_range=True,
            )
        )
    )
    declarer_tricks: int | None = field(
        metadata=spec(
            Integer(
                gettext_lazy(
                    "Tricks the declarer took. Needed with declarer_points only where schwarz is "
                    "open: 0 to 22 or 120 card points (23 to 119 rule it out), and for Null."
                ),
                minimum=0,
                maximum=10,
                rule_range=True,
            )
        )
    )
    declarer_trick_cards: list[Card] | None = field(
        metadata=spec(
            Cards(
                SKAT_DECK,
                gettext_lazy(
                    "Instead of points and tricks: every card in the declarer's tricks (a multiple of 3)."
                ),
            )
        )
    )
    skat: list[Card] | None = field(
        metadata=spec(
            Cards(
                SKAT_DECK,
                gettext_lazy(
                    "With declarer_trick_cards: the 2 skat cards, which count for the declarer."
                ),
                min_items=2,
                max_items=2,
            )
        )
    )
    outcome: str | None = field(
        metadata=spec(
            Choice(
                OUTCOMES,
                gettext_lazy(
                    "For tables that do not count points: the result of play before bid and announcements are checked. Null takes won or lost."
                ),
            )
        )
    )
    kontra: bool = field(
        metadata=spec(Boolean(gettext_lazy("House rule: a defender said Kontra (counts double).")))
    )
    re: bool = field(
        metadata=spec(
            Boolean(gettext_lazy("House rule: the declarer answered Re (counts four times)."))
        )
    )
    bock: bool = field(
        metadata=spec(
            Boolean(gettext_lazy("House rule: a Bock game (the list score counts double)."))
        )
    )


@dataclass(frozen=True)
class SkatTrick(Request):
    """POST /api/v1/skat/trick."""

    game: str = field(
        metadata=spec(Choice(GAMES, gettext_lazy("The game being played.")), required=True)
    )
    cards: list[Card] = field(
        metadata=spec(
            Cards(SKAT_DECK, gettext_lazy("The trick in play order."), min_items=3, max_items=3),
            required=True,
        )
    )


@dataclass(frozen=True)
class SkatFollow(Request):
    """POST /api/v1/skat/follow."""

    game: str = field(
        metadata=spec(Choice(GAMES, gettext_lazy("The game being played.")), required=True)
    )
    led: Card = field(metadata=spec(OneCard(SKAT_DECK), required=True))
    hand: list[Card] = field(
        metadata=spec(
            Cards(SKAT_DECK, gettext_lazy("The player's cards before playing.")), required=True
        )
    )
    played: Card = field(metadata=spec(OneCard(SKAT_DECK), required=True))
