"""What one score sheet contributes to its circle's season, seat by seat.

:func:`seat_stats` reads a sheet's replayed :class:`~games.rules.sheet.SheetState`
and returns one plain dict per seat. The dicts are stored with the sheet (a JSON
field), so they hold only ints, bools, strings, ``None``, lists and dicts with
string keys; the standings and the player pages are computed from them without
replaying any sheet again.

Every seat's dict has ``finished`` (the sheet's state), ``total`` (the seat's total
on the sheet) and ``deals`` (deals or rounds played). The other keys depend on the
game:

Skat
    ``players`` (3 or 4), ``series_deals``, ``list_points`` (the total),
    ``sf`` (the seat's Seeger-Fabian total), ``won`` and ``lost`` (games won and
    lost as declarer), ``by_type`` (``{"grand": [played, won], …}`` for the game
    types the seat declared, in the order clubs, spades, hearts, diamonds, grand,
    null), ``value_sum`` (the game values of the seat's declared games added up),
    ``overbid`` (declared games lost by overbidding), ``biggest`` (the seat's won
    game with the highest score, ``{"deal", "game", "value", "score"}``, or ``None``),
    ``defended`` (played deals where the seat was one of the two defenders) and
    ``defended_won`` (of those, the games the declarer lost).
10-Point Pitch
    ``team`` (``"A"``/``"B"``), ``partner`` (the partner's seat), ``won`` (the
    seat's team won the game), ``hands``, ``bids`` (hands the seat pitched),
    ``made``, ``set``, ``by_bid`` (``{"4": [bids, made], …, "moon": [bids, made]}``
    for the bids the seat pitched), ``moon``, ``moon_made``, ``points_taken`` (the
    points the seat's team took, hand by hand, added up) and ``team_total``.
Manipulation
    ``won`` (the seat won or shared the win), ``rounds``, ``went_out`` (rounds the
    seat went out) and ``penalties`` (the seat's penalty points added up).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.rules.errors import RuleError
from games.rules.pitch import HIGHEST_BID, LOWEST_BID, MOON
from games.rules.sheet import SheetState
from games.rules.skat_list import SeegerFabianResult

GAMES = ("skat", "pitch", "manipulation")

# The declarable games as the deal's JSON names them, in the order of their base value
# on the list (clubs 12, spades 11, hearts 10, diamonds 9, grand 24, then null).
SKAT_GAME_TYPES = ("clubs", "spades", "hearts", "diamonds", "grand", "null")

# The bids of 10-Point Pitch, lowest first; the keys of ``by_bid``.
PITCH_BIDS = (*(str(bid) for bid in range(LOWEST_BID, HIGHEST_BID + 1)), MOON)

Stats = dict[str, Any]


def seat_stats(
    game: str, state: SheetState, entries: Sequence[Mapping[str, Any]]
) -> tuple[Stats, ...]:
    """One JSON-ready dict per seat: what this sheet contributes to the season.

    ``state`` is the sheet after replaying every deal and ``entries`` are the deals as
    entered, one per deal of ``state.deals``, in the same order. Every fact counted
    here is in the replayed deals' details, so of the entries only their number is
    checked: a mismatch means the state is not the replay of these deals.
    """
    if game not in _BY_GAME:
        raise RuleError(f'The game is one of {", ".join(GAMES)}; got "{game}".', "game")
    if len(entries) != len(state.deals):
        raise RuleError(
            f"Give one entry per deal of the sheet: it has {len(state.deals)} deals, "
            f"got {len(entries)} entries.",
            "entries",
        )
    per_game = _BY_GAME[game]
    return tuple(
        {
            "finished": state.finished,
            "total": state.totals[seat],
            "deals": len(state.deals),
            **per_game(state, seat),
        }
        for seat in range(len(state.players))
    )


# ---------------------------------------------------------------------------
# Skat
# ---------------------------------------------------------------------------


def _skat(state: SheetState, seat: int) -> Stats:
    standing: SeegerFabianResult = state.details["seeger_fabian"]
    row = standing.rows[seat]
    declared = [deal for deal in state.deals if deal.details["declarer"] == seat]
    by_type: dict[str, list[int]] = {}
    for game_type in SKAT_GAME_TYPES:
        games = [deal for deal in declared if deal.details["game_type"] == game_type]
        if games:
            by_type[game_type] = [len(games), sum(1 for deal in games if deal.details["won"])]
    won_games = [deal for deal in declared if deal.details["won"]]
    # The first of equally big games stands: it was played first.
    biggest = max(won_games, key=lambda deal: deal.details["score"], default=None)
    # A defender is one of the two players against the declarer; at a table of four
    # the dealer sits the deal out and defends nothing (Skat rules, "Seats").
    defended = [
        deal
        for deal in state.deals
        if not deal.details["passed"]
        and deal.details["declarer"] != seat
        and deal.details["sitting_out"] != seat
    ]
    return {
        "players": len(state.players),
        "series_deals": state.details["series_deals"],
        "list_points": state.totals[seat],
        "sf": row.total,
        "won": row.games_won,
        "lost": row.games_lost,
        "by_type": by_type,
        "value_sum": sum(deal.details["game_value"] for deal in declared),
        "overbid": sum(1 for deal in declared if deal.details["overbid"]),
        "biggest": None
        if biggest is None
        else {
            "deal": biggest.number,
            "game": biggest.details["game"],
            "value": biggest.details["game_value"],
            "score": biggest.details["score"],
        },
        "defended": len(defended),
        "defended_won": sum(1 for deal in defended if not deal.details["won"]),
    }


# ---------------------------------------------------------------------------
# 10-Point Pitch
# ---------------------------------------------------------------------------


def _pitch(state: SheetState, seat: int) -> Stats:
    team_seats: Mapping[str, Sequence[int]] = state.details["team_seats"]
    team = next(name for name, seats in team_seats.items() if seat in seats)
    partner = next(other for other in team_seats[team] if other != seat)
    pitched = [deal for deal in state.deals if deal.details["pitcher"] == seat]
    by_bid: dict[str, list[int]] = {}
    for bid in PITCH_BIDS:
        hands = [deal for deal in pitched if str(deal.details["bid"]) == bid]
        if hands:
            by_bid[bid] = [len(hands), sum(1 for deal in hands if deal.details["made"])]
    made = sum(1 for deal in pitched if deal.details["made"])
    moon, moon_made = by_bid.get(MOON, [0, 0])
    return {
        "team": team,
        "partner": partner,
        # Partners share their team's result: both win or both lose the game.
        "won": state.finished and state.details["winner"] == team,
        "hands": len(state.deals),
        "bids": len(pitched),
        "made": made,
        "set": len(pitched) - made,
        "by_bid": by_bid,
        "moon": moon,
        "moon_made": moon_made,
        "points_taken": sum(deal.details["taken"][team] for deal in state.deals),
        "team_total": state.details["teams"][team],
    }


# ---------------------------------------------------------------------------
# Manipulation
# ---------------------------------------------------------------------------


def _manipulation(state: SheetState, seat: int) -> Stats:
    return {
        # Players tied on the lowest total share the win (Manipulation, "End of the game").
        "won": state.finished and seat in state.winners,
        "rounds": len(state.deals),
        "went_out": sum(1 for deal in state.deals if deal.details["went_out"] == seat),
        "penalties": sum(deal.details["penalties"][seat] for deal in state.deals),
    }


_BY_GAME: Mapping[str, Callable[[SheetState, int], Stats]] = {
    "skat": _skat,
    "pitch": _pitch,
    "manipulation": _manipulation,
}
