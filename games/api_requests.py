"""The referee endpoints' requests, declared once (see :mod:`games.api_declarations`).

``games.api`` reads each body with these declarations and ``games.openapi`` describes
the endpoints from them, so neither of the two imports the other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.api_declarations import (
    Boolean,
    Cards,
    Choice,
    Custom,
    Integer,
    OneCard,
    Raw,
    Request,
    spec,
)
from games.api_input import Body, describe
from games.rules import pitch
from games.rules.cards import MANIPULATION_DECK, PITCH_DECK, SKAT_DECK, Card
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


# -- Pitch --------------------------------------------------------------------------

TEAM_NUMBERS = {
    "type": "object",
    "required": ["A", "B"],
    "properties": {"A": {"type": "integer"}, "B": {"type": "integer"}},
    "additionalProperties": False,
}


def _pitch_bid(body: Body, name: str | int) -> int | str | None:
    value = body.data.get(name)
    if isinstance(value, str):
        body.raw(name)
        if value.strip().lower() == "moon":
            return "moon"
        body.add(name, _('The bid must be a number from 4 to 9, or "moon".'))
        return None
    return body.integer(name)


def _pitch_team(body: Body, name: str | int) -> str | None:
    value = body.raw(name)
    if isinstance(value, str) and value.strip().upper() in pitch.TEAMS:
        return value.strip().upper()
    if value is None:
        body.add(
            name, _('Pitcher team is missing; say "A" (seats 1 and 3) or "B" (seats 2 and 4).')
        )
    else:
        body.add(name, _('Pitcher team must be "A" (seats 1 and 3) or "B" (seats 2 and 4).'))
    return None


def _pitch_points(body: Body, name: str | int) -> dict[str, str] | None:
    """Who took each point card; the referee checks the keys, this only reads the words."""
    points = body.object(name, required=True)
    if points is None:
        return None
    read: dict[str, str] = {}
    for key, value in points.entries():
        if not isinstance(value, str):
            points.add(
                key,
                _('Say who took it: "A", "B" or "out", not %(value)s.')
                % {"value": describe(value)},
            )
            continue
        word = value.strip()
        read[key] = word.lower() if word.lower() == pitch.OUT else word.upper()
    return read


def _team_numbers(body: Body, name: str | int) -> dict[str, int] | None:
    return body.integers_by_key(name)


_POINT_CARDS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


@dataclass(frozen=True)
class PitchHand(Request):
    """POST /api/v1/pitch/hand; ``options`` is read by ``pitch.PitchOptions`` (its
    problems are rules: 422)."""

    bid: int | str = field(
        metadata=spec(
            Custom(
                _pitch_bid,
                {
                    "oneOf": [
                        {"type": "integer", "minimum": 4, "maximum": 9},
                        {"type": "string", "enum": ["moon"]},
                    ]
                },
                gettext_lazy("4 to 9, or moon (all 10 points)."),
            ),
            required=True,
        )
    )
    pitcher_team: str = field(
        metadata=spec(
            Custom(
                _pitch_team,
                {"type": "string", "enum": list(pitch.TEAMS)},
                gettext_lazy(
                    "The team of the highest bidder: A is seats 1 and 3, B seats 2 and 4."
                ),
            ),
            required=True,
        )
    )
    points: dict[str, str] = field(
        metadata=spec(
            Custom(
                _pitch_points,
                {
                    "type": "object",
                    "required": list(_POINT_CARDS),
                    "properties": {
                        key: {"type": "string", "enum": ["A", "B", "out"]} for key in _POINT_CARDS
                    },
                    "additionalProperties": False,
                },
                gettext_lazy(
                    'For each point card, "A", "B" or "out" (out of play: it scores for nobody).'
                ),
            ),
            required=True,
        )
    )
    scores_before: dict[str, int] | None = field(
        metadata=spec(
            Custom(
                _team_numbers,
                TEAM_NUMBERS,
                gettext_lazy("Team scores before the hand (default 0 and 0)."),
            )
        )
    )
    options: Any = field(metadata=spec(Raw({"$ref": "#/components/schemas/PitchOptions"})))


_SUIT_WORDS = {
    "♣": "C",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "clubs": "C",
    "spades": "S",
    "hearts": "H",
    "diamonds": "D",
}


def _trump(body: Body, name: str | int) -> str | None:
    trump = body.raw(name)
    if trump is None:
        body.add(name, _('Trump is missing; give the suit as "C", "S", "H" or "D".'))
        return None
    if isinstance(trump, str):
        word = trump.strip()
        return _SUIT_WORDS.get(word.lower(), word.upper())
    body.add(
        name,
        _('Trump must be a suit letter ("C", "S", "H" or "D"), not %(value)s.')
        % {"value": describe(trump)},
    )
    return None


@dataclass(frozen=True)
class PitchTrick(Request):
    """POST /api/v1/pitch/trick; the referee judges the trump's letter."""

    trump: str = field(
        metadata=spec(
            Custom(
                _trump,
                {"type": "string", "enum": ["C", "S", "H", "D"]},
                gettext_lazy("The trump suit."),
            ),
            required=True,
        )
    )
    cards: list[Card] = field(
        metadata=spec(
            Cards(
                PITCH_DECK,
                gettext_lazy("The trick in play order; every card must be a trump."),
                min_items=2,
                max_items=4,
            ),
            required=True,
        )
    )


# -- Manipulation -------------------------------------------------------------------

MANIPULATION_OPTIONS = Raw({"$ref": "#/components/schemas/ManipulationOptions"})
CARDS = Cards(MANIPULATION_DECK).schema()  # a list of card codes, as a schema


def _card_lists(body: Body, name: str | int) -> list[list[Card]] | None:
    """A list of melds, each a list of cards; copies are judged later, not here."""
    melds = body.list(name, required=True)
    if melds is None:
        return None
    parsed: list[list[Card]] = []
    for i, meld in enumerate(melds):
        try:
            parsed.append(
                MANIPULATION_DECK.parse(meld, f"{name}.{i}", copies=len(MANIPULATION_DECK))
            )
        except RuleError as error:
            body.problems.extend(error.problems)
    return parsed


def _melds(description: Any) -> Custom:
    return Custom(_card_lists, {"type": "array", "items": CARDS}, description)


@dataclass(frozen=True)
class ManipulationMelds(Request):
    """POST /api/v1/manipulation/melds."""

    melds: list[list[Card]] = field(
        metadata=spec(_melds(gettext_lazy("The melds, each a list of cards.")), required=True)
    )
    options: Any = field(metadata=spec(MANIPULATION_OPTIONS))


@dataclass(frozen=True)
class ManipulationTurn(Request):
    """POST /api/v1/manipulation/turn."""

    table_before: list[list[Card]] = field(
        metadata=spec(
            _melds(gettext_lazy("The melds on the table before the turn.")), required=True
        )
    )
    table_after: list[list[Card]] = field(
        metadata=spec(_melds(gettext_lazy("The melds on the table after the turn.")), required=True)
    )
    hand: list[Card] | None = field(
        metadata=spec(
            Cards(
                MANIPULATION_DECK,
                gettext_lazy("The player's hand before the turn (optional)."),
                copies=len(MANIPULATION_DECK),
            )
        )
    )
    options: Any = field(metadata=spec(MANIPULATION_OPTIONS))


@dataclass(frozen=True)
class ManipulationArrange(Request):
    """POST /api/v1/manipulation/arrange."""

    cards: list[Card] = field(metadata=spec(Cards(MANIPULATION_DECK, max_items=104), required=True))
    options: Any = field(metadata=spec(MANIPULATION_OPTIONS))


def _hands(body: Body, name: str | int) -> dict[str, list[Card]] | None:
    hands_body = body.object(name, required=True)
    if hands_body is None:
        return None
    hands: dict[str, list[Card]] = {}
    for player in list(hands_body.data):
        cards = hands_body.cards(player, MANIPULATION_DECK)
        if cards is not None:
            hands[player] = cards
    return hands


def _scores_by_name(body: Body, name: str | int) -> dict[str, int] | None:
    return body.integers_by_key(name)


@dataclass(frozen=True)
class ManipulationRound(Request):
    """POST /api/v1/manipulation/round."""

    hands: dict[str, list[Card]] = field(
        metadata=spec(
            Custom(
                _hands,
                {"type": "object", "additionalProperties": CARDS},
                gettext_lazy("Cards left in hand, by player name (3 to 5 players)."),
            ),
            required=True,
        )
    )
    scores_before: dict[str, int] | None = field(
        metadata=spec(
            Custom(
                _scores_by_name,
                {"type": "object", "additionalProperties": {"type": "integer"}},
                gettext_lazy("Totals before the round, by player name."),
            )
        )
    )
    options: Any = field(metadata=spec(MANIPULATION_OPTIONS))
