"""What one score sheet contributes to its circle's season, seat by seat.

:func:`seat_stats` reads a sheet's replayed :class:`~games.rules.sheet.SheetState`
and returns one plain dict per seat. The dicts are stored with the sheet (a JSON
field), so they hold only ints, bools, strings, ``None``, lists and dicts with
string keys; the standings and the player pages are computed from them without
replaying any sheet again.

Each dict is made of two kinds of keys:

- the *folded* ones are counted deal by deal, from nothing before the first deal
  (deals played, games declared by type, bids made, penalties …): one step of the
  fold reads one deal's details (and, at Pitch, the seat's team) and nothing else;
- the others are read from the sheet's state after its last deal (whether it is
  finished, the totals, Seeger-Fabian, the team totals, the winners …).

So the dicts of a sheet with one more deal follow from the dicts stored before it,
that deal and the new state (:func:`seat_stats_after`), at the same cost at deal 200
as at deal 10, and are the very dicts :func:`seat_stats` gives for the whole sheet.

Every seat's dict has ``finished`` (the sheet's state), ``total`` (the seat's total
on the sheet) and ``deals`` (deals or rounds played). The other keys depend on the
game:

Skat
    ``players`` (3, 4 or 5), ``series_deals``, ``list_points`` (the total),
    ``sf`` (the seat's Seeger-Fabian total), ``won`` and ``lost`` (games won and
    lost as declarer), ``by_type`` (``{"grand": [played, won], …}`` for the game
    types the seat declared, in the order clubs, spades, hearts, diamonds, grand,
    null, then ``by_value`` for games entered by their value alone), ``value_sum`` (the game values of the seat's declared games added up),
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

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.rules.errors import RuleError
from games.rules.pitch import HIGHEST_BID, LOWEST_BID, MOON
from games.rules.pitch_sheet import TEAM_SEATS
from games.rules.sheet import DealResult, SheetState
from games.rules.skat_list import (
    TABLE_SIZES,
    SeegerFabianResult,
    SeegerFabianTally,
    seeger_fabian_of_tally,
)
from games.rules.text import _, ngettext

GAMES = ("skat", "pitch", "manipulation")

# The declarable games as the deal's JSON names them, in the order of their base value
# on the list (clubs 12, spades 11, hearts 10, diamonds 9, grand 24, then null), and
# last the games entered by their value alone ("by_value": the list's number, no
# contract), counted on their own.
SKAT_GAME_TYPES = ("clubs", "spades", "hearts", "diamonds", "grand", "null", "by_value")

# The bids of 10-Point Pitch, lowest first; the keys of ``by_bid``.
PITCH_BIDS = (*(str(bid) for bid in range(LOWEST_BID, HIGHEST_BID + 1)), MOON)

Stats = dict[str, Any]

# The shapes of the folded keys, and what each is before the first deal.
COUNT = "count"  # an int: 0
TALLY = "tally"  # {"key": [played, won], …} in the canonical order of its keys: {}
BIGGEST = "biggest"  # a won game, {"deal", "game", "value", "score"}, or None
_START: Mapping[str, Callable[[], Any]] = {COUNT: int, TALLY: dict, BIGGEST: lambda: None}
_BIGGEST_KEYS = frozenset({"deal", "game", "value", "score"})


@dataclass(frozen=True)
class _Game:
    """How one game's dicts are made: ``folded`` names the keys counted deal by deal
    (with their shapes), ``fold`` adds deals to them (in place) and ``read`` builds a
    seat's dict, in its documented order, from them and the state after the last deal."""

    folded: Mapping[str, str]
    fold: Callable[[Stats, Iterable[DealResult], int, SheetState], None]
    read: Callable[[Stats, SheetState, int], Stats]


def seat_stats(
    game: str, state: SheetState, entries: Sequence[Mapping[str, Any]]
) -> tuple[Stats, ...]:
    """One JSON-ready dict per seat: what this sheet contributes to the season.

    ``state`` is the sheet after replaying every deal and ``entries`` are the deals as
    entered, one per deal of ``state.deals``, in the same order. Every fact counted
    here is in the replayed deals' details, so of the entries only their number is
    checked: a mismatch means the state is not the replay of these deals.
    """
    per_game = _game(game)
    if len(entries) != len(state.deals):
        message = _(
            # Translators: {deals} is e.g. "12 deals", {entries} e.g. "11 entries".
            "Give one entry per deal of the sheet: it has {deals}, got {entries}.",
            deals=ngettext("{n} deal", "{n} deals", len(state.deals), n=len(state.deals)),
            entries=ngettext("{n} entry", "{n} entries", len(entries), n=len(entries)),
        )
        raise RuleError(message, "entries")
    return tuple(
        _stats(per_game, _folded(per_game, state.deals, seat, state), state, seat)
        for seat in range(len(state.players))
    )


# A tally card's team scores are whole numbers up to this (the evening's tally card).
TALLY_MOST = 9_999


# A Skat series' foot from a paper list: list points and games per player up to these.
FOOT_POINTS_MOST = 99_999
FOOT_DEALS_MOST = 999


def normal_tally(game: str, tally: object, players: Sequence[str]) -> dict[str, Any]:
    """``tally`` as stored (see :func:`tally_state`, which checks it), in its own words:
    whole numbers, keys in order."""
    tally_state(game, tally, players)
    assert isinstance(tally, Mapping)
    if game == "skat":
        return {
            "foot": [
                {key: int(line[key]) for key in ("points", "won", "lost")} for line in tally["foot"]
            ],
            "series_deals": int(tally["series_deals"]),
        }
    return {"teams": {team: int(score) for team, score in tally["teams"].items()}}


def tally_state(game: str, tally: object, players: Sequence[str]) -> SheetState:
    """The state of a sheet whose game was written on paper instead of deal by deal,
    over and without deals: a Pitch tally card (a table of a party night),
    ``{"teams": {"A": n, "B": n}}``, with the team with the higher score as the winner
    (level, nobody); a Skat series' foot from its paper list (a table of a club
    evening), ``{"foot": [{"points": n, "won": n, "lost": n}, …], "series_deals": n}``
    a line per seat, ranked by Seeger-Fabian. As stored (or read from a file): RuleError
    at ``tally`` for anything else, so that stored data is checked like typed input."""
    if game == "skat":
        return _skat_tally_state(tally, players)
    if game != "pitch" or len(players) != len(TEAM_SEATS) * 2:
        raise RuleError(_("Only a game of Pitch is written on a tally card."), "tally")
    teams = tally.get("teams") if isinstance(tally, Mapping) else None
    if (
        not isinstance(tally, Mapping)
        or set(tally) != {"teams"}
        or not isinstance(teams, Mapping)
        or set(teams) != set(TEAM_SEATS)
        or any(
            isinstance(teams[team], bool)
            or not isinstance(teams[team], int)
            or abs(teams[team]) > TALLY_MOST
            for team in TEAM_SEATS
        )
    ):
        raise RuleError(
            _(
                'A tally card gives both teams\' scores, like {{"teams": {{"A": 52, "B": 40}}}}, '
                "each a whole number from −{most} to {most}.",
                most=TALLY_MOST,
            ),
            "tally",
        )
    scores = {team: int(teams[team]) for team in TEAM_SEATS}
    first, second = TEAM_SEATS
    winner = None if scores[first] == scores[second] else max(scores, key=scores.__getitem__)
    return SheetState(
        players=tuple(players),
        deals=(),
        totals=tuple(scores[first if seat % 2 == 0 else second] for seat in range(len(players))),
        finished=True,
        winners=TEAM_SEATS[winner] if winner is not None else (),
        next_deal=None,
        headline="",
        details={
            "teams": scores,
            "team_seats": dict(TEAM_SEATS),
            "winner": winner,
            "level": winner is None,
        },
    )


def _whole(value: object, low: int, high: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and low <= value <= high


def _skat_tally_state(tally: object, players: Sequence[str]) -> SheetState:
    foot = tally.get("foot") if isinstance(tally, Mapping) else None
    deals = tally.get("series_deals") if isinstance(tally, Mapping) else None
    if (
        len(players) not in TABLE_SIZES
        or not isinstance(tally, Mapping)
        or set(tally) != {"foot", "series_deals"}
        or not _whole(deals, 1, FOOT_DEALS_MOST)
        or not isinstance(foot, Sequence)
        or isinstance(foot, (str, bytes))
        or len(foot) != len(players)
        or any(
            not isinstance(line, Mapping)
            or set(line) != {"points", "won", "lost"}
            or not _whole(line["points"], -FOOT_POINTS_MOST, FOOT_POINTS_MOST)
            or not _whole(line["won"], 0, FOOT_DEALS_MOST)
            or not _whole(line["lost"], 0, FOOT_DEALS_MOST)
            for line in foot
        )
        or sum(line["won"] + line["lost"] for line in foot) > deals
    ):
        raise RuleError(
            _(
                # Translators: {example} is JSON, left as it is.
                "A Skat series from its paper list gives each seat's foot, like {example}: "
                "whole numbers, and at most as many games won and lost in all as the series "
                "has deals.",
                example='{"foot": [{"points": 120, "won": 2, "lost": 0}, …], "series_deals": 36}',
            ),
            "tally",
        )
    assert isinstance(foot, Sequence)
    assert isinstance(deals, int)
    lost = tuple(int(line["lost"]) for line in foot)
    counted = SeegerFabianTally(
        list_points=tuple(int(line["points"]) for line in foot),
        games_won=tuple(int(line["won"]) for line in foot),
        games_lost=lost,
        lost_by_others=tuple(sum(lost) - own for own in lost),
    )
    standing = seeger_fabian_of_tally(counted, names=players)
    return SheetState(
        players=tuple(players),
        deals=(),
        totals=counted.list_points,
        finished=True,
        winners=tuple(seat for place, seat in standing.standings if place == 1),
        next_deal=None,
        headline="",
        details={
            "seeger_fabian": standing,
            "standings": standing.standings,
            "series_deals": deals,
            "deals_left": 0,
            "bock_deals_queued": 0,
        },
    )


def seat_stats_after(
    game: str, before: Sequence[Mapping[str, Any]], state: SheetState, deal: DealResult
) -> tuple[Stats, ...]:
    """The dicts :func:`seat_stats` gives for the sheet with ``deal`` added, from the
    dicts it gave before that deal (``before``, one per seat, as stored), the deal and
    the state after it (whose ``deals`` may hold the latest deals only). Nothing is
    replayed: the cost does not grow with the sheet.

    ``before`` must be the previous deal's dicts: :func:`follows` says whether they are.
    """
    per_game = _game(game)
    if not follows(game, before, state, deal):
        message = _(
            "The stats given are not those of the sheet just before deal {number}.",
            number=deal.number,
        )
        raise RuleError(message, "before")
    folded = [_start(per_game, stats) for stats in before]
    return tuple(
        _stats(per_game, _folded(per_game, (deal,), seat, state, folded[seat]), state, seat)
        for seat in range(len(before))
    )


def follows(
    game: str, before: Sequence[Mapping[str, Any]], state: SheetState, deal: DealResult
) -> bool:
    """Whether :func:`seat_stats_after` can add ``deal`` to ``before``: one dict per
    seat of ``state``, each exactly one deal behind ``deal`` (the last deal of
    ``state``) and holding every folded key in its shape. Dicts stored by older code,
    or by none, are not: the sheet is then replayed instead."""
    per_game = _game(game)
    return (
        bool(state.deals)
        and state.deals[-1].number == deal.number
        and len(before) == len(state.players)
        and all(
            isinstance(stats, Mapping)
            and _is_count(stats.get("deals"))
            and stats["deals"] == deal.number - 1
            and all(
                key in stats and _has_shape(stats[key], shape)
                for key, shape in per_game.folded.items()
            )
            for stats in before
        )
    )


def _game(game: str) -> _Game:
    if game not in _BY_GAME:
        # Translators: {games} are the API's game names (skat, pitch, manipulation) and
        # {game} is what was given: keep them as they are.
        message = _('The game is one of {games}; got "{game}".', games=", ".join(GAMES), game=game)
        raise RuleError(message, "game")
    return _BY_GAME[game]


def _start(per_game: _Game, stats: Mapping[str, Any] | None = None) -> Stats:
    """The folded keys before the first deal, or (a copy of) those in ``stats``."""
    start = {"deals": 0, **{key: _START[shape]() for key, shape in per_game.folded.items()}}
    if stats is not None:
        start.update(copy.deepcopy({key: stats[key] for key in start}))
    return start


def _folded(
    per_game: _Game,
    deals: Iterable[DealResult],
    seat: int,
    state: SheetState,
    folded: Stats | None = None,
) -> Stats:
    """The folded keys with ``deals`` added, one at a time, to ``folded`` (or to the
    start before the first deal)."""
    folded = _start(per_game) if folded is None else folded
    per_game.fold(folded, deals, seat, state)
    return folded


def _stats(per_game: _Game, folded: Stats, state: SheetState, seat: int) -> Stats:
    return {
        "finished": state.finished,
        "total": state.totals[seat],
        "deals": folded["deals"],
        **per_game.read(folded, state, seat),
    }


def _is_count(value: object) -> bool:
    return type(value) is int


def _has_shape(value: object, shape: str) -> bool:
    if shape == COUNT:
        return _is_count(value)
    if shape == TALLY:
        return isinstance(value, Mapping) and all(
            isinstance(key, str)
            and isinstance(pair, list)
            and len(pair) == 2
            and all(_is_count(n) for n in pair)
            for key, pair in value.items()
        )
    return value is None or (
        isinstance(value, Mapping)
        and set(value) == _BIGGEST_KEYS
        and isinstance(value["score"], int)
    )


def _tallied(tally: dict[str, list[int]], key: str, won: bool) -> None:
    """One more ``[played, won]`` under ``key``."""
    counts = tally.setdefault(key, [0, 0])
    counts[0] += 1
    counts[1] += bool(won)


def _in_order(tally: Mapping[str, list[int]], keys: Sequence[str]) -> dict[str, list[int]]:
    """``tally`` with its keys in their canonical order (only those of ``keys``)."""
    return {key: tally[key] for key in keys if key in tally}


# ---------------------------------------------------------------------------
# Skat
# ---------------------------------------------------------------------------


def _skat_fold(folded: Stats, deals: Iterable[DealResult], seat: int, state: SheetState) -> None:
    for deal in deals:
        details = deal.details
        folded["deals"] += 1
        if details["declarer"] == seat:
            _tallied(folded["by_type"], details["game_type"], details["won"])
            folded["value_sum"] += details["game_value"]
            folded["overbid"] += bool(details["overbid"])
            biggest = folded["biggest"]
            # The first of equally big games stands: it was played first.
            if details["won"] and (biggest is None or details["score"] > biggest["score"]):
                folded["biggest"] = {
                    "deal": deal.number,
                    "game": details["game"],
                    "value": details["game_value"],
                    "score": details["score"],
                }
        elif not details["passed"] and seat not in _sat_out(details):
            # A defender is one of the two players against the declarer; at a table of
            # four the dealer sits the deal out and defends nothing, at five the third
            # player to the dealer's left neither (Skat rules, "Seats"; issue 17).
            folded["defended"] += 1
            folded["defended_won"] += not details["won"]
    folded["by_type"] = _in_order(folded["by_type"], SKAT_GAME_TYPES)


def _sat_out(details: Mapping[str, Any]) -> tuple[int, ...]:
    """The seats that sat a deal out; a deal kept before tables of five names the dealer only."""
    if "sitting_out_seats" in details:
        return tuple(details["sitting_out_seats"])
    return () if details["sitting_out"] is None else (details["sitting_out"],)


def _skat_read(folded: Stats, state: SheetState, seat: int) -> Stats:
    standing: SeegerFabianResult = state.details["seeger_fabian"]
    row = standing.rows[seat]
    return {
        "players": len(state.players),
        "series_deals": state.details["series_deals"],
        "list_points": state.totals[seat],
        "sf": row.total,
        "won": row.games_won,
        "lost": row.games_lost,
        "by_type": folded["by_type"],
        "value_sum": folded["value_sum"],
        "overbid": folded["overbid"],
        "biggest": folded["biggest"],
        "defended": folded["defended"],
        "defended_won": folded["defended_won"],
    }


# ---------------------------------------------------------------------------
# 10-Point Pitch
# ---------------------------------------------------------------------------


def _team(state: SheetState, seat: int) -> tuple[str, Sequence[int]]:
    team_seats: Mapping[str, Sequence[int]] = state.details["team_seats"]
    team = next(name for name, seats in team_seats.items() if seat in seats)
    return team, team_seats[team]


def _pitch_fold(folded: Stats, deals: Iterable[DealResult], seat: int, state: SheetState) -> None:
    team, _ = _team(state, seat)
    for deal in deals:
        details = deal.details
        folded["deals"] += 1
        if details["pitcher"] == seat:
            bid = str(details["bid"])
            if bid in PITCH_BIDS:
                _tallied(folded["by_bid"], bid, details["made"])
            folded["bids"] += 1
            folded["made"] += bool(details["made"])
        folded["points_taken"] += details["taken"][team]
    folded["by_bid"] = _in_order(folded["by_bid"], PITCH_BIDS)


def _pitch_read(folded: Stats, state: SheetState, seat: int) -> Stats:
    team, seats = _team(state, seat)
    by_bid = folded["by_bid"]
    moon, moon_made = by_bid.get(MOON, [0, 0])
    return {
        "team": team,
        "partner": next(other for other in seats if other != seat),
        # Partners share their team's result: both win or both lose the game.
        "won": state.finished and state.details["winner"] == team,
        "hands": folded["deals"],
        "bids": folded["bids"],
        "made": folded["made"],
        "set": folded["bids"] - folded["made"],
        "by_bid": by_bid,
        "moon": moon,
        "moon_made": moon_made,
        "points_taken": folded["points_taken"],
        "team_total": state.details["teams"][team],
    }


# ---------------------------------------------------------------------------
# Manipulation
# ---------------------------------------------------------------------------


def _manipulation_fold(
    folded: Stats, deals: Iterable[DealResult], seat: int, state: SheetState
) -> None:
    for deal in deals:
        folded["deals"] += 1
        folded["went_out"] += deal.details["went_out"] == seat
        folded["penalties"] += deal.details["penalties"][seat]


def _manipulation_read(folded: Stats, state: SheetState, seat: int) -> Stats:
    return {
        # Players tied on the lowest total share the win (Manipulation, "End of the game").
        "won": state.finished and seat in state.winners,
        "rounds": folded["deals"],
        "went_out": folded["went_out"],
        "penalties": folded["penalties"],
    }


_BY_GAME: Mapping[str, _Game] = {
    "skat": _Game(
        folded={
            "by_type": TALLY,
            "value_sum": COUNT,
            "overbid": COUNT,
            "biggest": BIGGEST,
            "defended": COUNT,
            "defended_won": COUNT,
        },
        fold=_skat_fold,
        read=_skat_read,
    ),
    "pitch": _Game(
        folded={"bids": COUNT, "made": COUNT, "by_bid": TALLY, "points_taken": COUNT},
        fold=_pitch_fold,
        read=_pitch_read,
    ),
    "manipulation": _Game(
        folded={"went_out": COUNT, "penalties": COUNT},
        fold=_manipulation_fold,
        read=_manipulation_read,
    ),
}
