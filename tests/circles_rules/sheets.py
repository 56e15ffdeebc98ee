"""Real sheets replayed through the referee, and hand-built season records.

The sheets are small but complete (a short series, a game that ends early) so each
contribution can be checked by hand; the records stand in for what the database
stores, one per counted sheet.
"""

from __future__ import annotations

import datetime
from typing import Any

from circles.rules.contributions import seat_stats
from circles.rules.standings import SheetRecord
from games.rules.cards import card
from games.rules.manipulation_sheet import ManipulationDeal
from games.rules.manipulation_sheet import replay as replay_manipulation
from games.rules.pitch import PitchOptions
from games.rules.pitch_sheet import PitchDeal
from games.rules.pitch_sheet import replay as replay_pitch
from games.rules.sheet import SheetState
from games.rules.skat import Matadors
from games.rules.skat_sheet import SkatDeal, SkatSheetOptions
from games.rules.skat_sheet import replay as replay_skat

THREE = ("Ana", "Ben", "Cem")
FOUR = ("Ana", "Ben", "Cem", "Dan")

JAN_10 = datetime.date(2025, 1, 10)
JAN_17 = datetime.date(2025, 1, 17)
JAN_24 = datetime.date(2025, 1, 24)
JAN_31 = datetime.date(2025, 1, 31)


# -- Skat ------------------------------------------------------------------------------


def played(declarer: int, game: str, *, bid: int = 18, **rest: Any) -> SkatDeal:
    return SkatDeal(declarer=declarer, game={"game": game, "bid": bid, **rest})


def suit(declarer: int, game: str, count: int, outcome: str, **rest: Any) -> SkatDeal:
    return played(declarer, game, matadors=Matadors("with", count), outcome=outcome, **rest)


PASSED = SkatDeal(passed=True)

# Ana, Ben, Cem; six deals, Ana deals first.
SKAT_THREE_DEALS = (
    suit(1, "grand", 2, "won", bid=48, hand=True),  # Ben: Grand Hand with 2, 24 × 4 = +96
    suit(0, "clubs", 1, "lost"),  # Ana: Clubs with 1, 12 × 2 = 24, lost doubled: −48
    PASSED,  # thrown in
    played(1, "null", bid=23, outcome="won"),  # Ben: Null, +23
    suit(1, "spades", 1, "won", bid=33),  # Ben: Spades with 1 is 22 < 33: overbid, −66
    suit(2, "hearts", 1, "won"),  # Cem: Hearts with 1, 10 × 2 = +20
)

# Ana, Ben, Cem, Dan; four deals, the dealer sits out: Ana deal 1, Ben 2, Cem 3, Dan 4.
SKAT_FOUR_DEALS = (
    suit(1, "diamonds", 1, "lost"),  # Ben: Diamonds with 1, 9 × 2 = 18, lost: −36
    suit(2, "grand", 1, "won"),  # Cem: Grand with 1, 24 × 2 = +48
    PASSED,
    suit(0, "grand", 1, "won"),  # Ana: Grand with 1, +48
)


def skat_three() -> SheetState:
    return replay_skat(
        players=THREE,
        first_dealer=0,
        options=SkatSheetOptions(series_deals=len(SKAT_THREE_DEALS)),
        deals=SKAT_THREE_DEALS,
    )


def skat_four() -> SheetState:
    return replay_skat(
        players=FOUR,
        first_dealer=0,
        options=SkatSheetOptions(series_deals=len(SKAT_FOUR_DEALS)),
        deals=SKAT_FOUR_DEALS,
    )


# -- 10-Point Pitch ------------------------------------------------------------------

POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def pitched(pitcher: int, bid: int | str, code: str) -> PitchDeal:
    """``code``: who took each point card in POINT_KEYS order, "A" or "B" (the three is 3)."""
    return PitchDeal(pitcher=pitcher, bid=bid, points=dict(zip(POINT_KEYS, code, strict=True)))


# To 21: Ben makes 6 (B 7, A 3), Ana is set on 7 (A −7, B +5), Dan makes 4 taking
# all 10 points: team B (Ben and Dan) reaches 22 and wins.
PITCH_TO_21 = (pitched(1, 6, "BBABABAB"), pitched(0, 7, "AABBBBBA"), pitched(3, 4, "BBBBBBBB"))
# Ben makes 5, then bids moon and takes 7 of the 10: a failed moon loses the game at once.
PITCH_FAILED_MOON = (pitched(1, 5, "BBBBBAAA"), pitched(1, "moon", "BBBBBBBA"))
# Cem bids moon and takes all ten at 0 to 0: made, and the game goes on.
PITCH_MOON_MADE = (pitched(2, "moon", "AAAAAAAA"),)


def pitch(deals: tuple[PitchDeal, ...], **options: Any) -> SheetState:
    return replay_pitch(players=FOUR, first_dealer=0, options=PitchOptions(**options), deals=deals)


# -- Manipulation --------------------------------------------------------------------


def penalties(*points: int) -> ManipulationDeal:
    return ManipulationDeal(penalties=points)


def hands(text: str) -> ManipulationDeal:
    """ "AS | KS | 2H" : the cards left in each seat's hand."""
    return ManipulationDeal(
        hands=tuple(tuple(card(code) for code in hand.split()) for hand in text.split("|"))
    )


# Ana goes out twice, Ben once; Cem reaches 205 and Ana wins with 45.
MANIPULATION_THREE = (penalties(0, 35, 60), penalties(45, 0, 10), penalties(0, 150, 135))
# Nobody goes out in round 1 (the stock ran out); Ben reaches 205 and Ana, Cem and Dan
# share the win on 15.
MANIPULATION_SHARED = (hands("AS | KS | 2H | 3C"), penalties(0, 195, 10, 10))


def manipulation(players: tuple[str, ...], deals: tuple[ManipulationDeal, ...]) -> SheetState:
    return replay_manipulation(players=players, first_dealer=0, deals=deals)


# -- records ---------------------------------------------------------------------------


def record(
    sheet_id: int,
    game: str,
    played_on: datetime.date,
    players: tuple[int, ...],
    stats: tuple[dict[str, Any], ...],
) -> SheetRecord:
    return SheetRecord(sheet_id, game, played_on, players, stats)


def from_state(
    sheet_id: int,
    game: str,
    played_on: datetime.date,
    players: tuple[int, ...],
    state: SheetState,
) -> SheetRecord:
    """A record as the database keeps it: the seat stats of a replayed sheet."""
    stats = seat_stats(game, state, [{}] * len(state.deals))
    return record(sheet_id, game, played_on, players, stats)


def skat_seat(
    sf: int,
    *,
    won: int = 0,
    lost: int = 0,
    deals: int = 36,
    players: int = 3,
    list_points: int | None = None,
) -> dict[str, Any]:
    """One seat's Skat stats with what the standings read; the rest left plain."""
    return {
        "finished": True,
        "total": sf if list_points is None else list_points,
        "deals": deals,
        "players": players,
        "series_deals": deals,
        "list_points": sf if list_points is None else list_points,
        "sf": sf,
        "won": won,
        "lost": lost,
        "by_type": {},
        "value_sum": 0,
        "overbid": 0,
        "biggest": None,
        "defended": 0,
        "defended_won": 0,
    }


def skat(sheet_id: int, played_on: datetime.date, seats: dict[int, dict[str, Any]]) -> SheetRecord:
    """A Skat record from ``{player: skat_seat(...)}`` in seat order."""
    return record(sheet_id, "skat", played_on, tuple(seats), tuple(seats.values()))


def pitch_game(
    sheet_id: int,
    played_on: datetime.date,
    players: tuple[int, int, int, int],
    *,
    winner: str,
    hands: int = 10,
) -> SheetRecord:
    """A finished Pitch game: seats 0 and 2 are team A, 1 and 3 team B."""
    stats = []
    for seat in range(4):
        team = "AB"[seat % 2]
        stats.append(
            {
                "finished": True,
                "total": 52 if team == winner else 30,
                "deals": hands,
                "team": team,
                "partner": (seat + 2) % 4,
                "won": team == winner,
                "hands": hands,
                "bids": 2,
                "made": 1,
                "set": 1,
                "by_bid": {"5": [1, 1], "7": [1, 0]},
                "moon": 0,
                "moon_made": 0,
                "points_taken": 40 if team == winner else 25,
                "team_total": 52 if team == winner else 30,
            }
        )
    return record(sheet_id, "pitch", played_on, players, tuple(stats))


def manipulation_game(
    sheet_id: int,
    played_on: datetime.date,
    seats: dict[int, int],
    *,
    rounds: int = 5,
) -> SheetRecord:
    """A finished Manipulation game from ``{player: penalty total}``; lowest total wins."""
    lowest = min(seats.values())
    stats = tuple(
        {
            "finished": True,
            "total": total,
            "deals": rounds,
            "won": total == lowest,
            "rounds": rounds,
            "went_out": 1,
            "penalties": total,
        }
        for total in seats.values()
    )
    return record(sheet_id, "manipulation", played_on, tuple(seats), stats)
