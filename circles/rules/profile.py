"""One player's statistics over every sheet of the circle, for the player's page.

:func:`player_profile` reads the same :class:`~circles.rules.standings.SheetRecord`
values as the standings, but across every season and game: what the player did
at each game, how they fared against each other player they shared a table with,
and where they finished on each sheet.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .contributions import GAMES, PITCH_BIDS, SKAT_GAME_TYPES
from .standings import SheetRecord

Stats = Mapping[str, Any]


@dataclass(frozen=True)
class BiggestGame:
    """The player's won Skat game with the highest score on the list."""

    sheet_id: int
    played_on: datetime.date
    deal: int
    game: str  # "Grand Hand", "Clubs Schneider" …
    value: int
    score: int


@dataclass(frozen=True)
class SkatProfile:
    sheets: int
    won: int  # sheets finished first at the table (a shared first place counts)
    declared: int
    games_won: int
    games_lost: int
    by_type: Mapping[str, tuple[int, int]]  # game type → (played, won), clubs … null
    average_value: float  # game value per declared game, 0.0 without any
    overbid: int
    biggest: BiggestGame | None
    defended: int
    defended_won: int  # games the declarer lost while the player defended
    defence_rate: float  # defended_won / defended, 0.0 without any


@dataclass(frozen=True)
class PitchProfile:
    sheets: int
    won: int
    bids: int
    made: int
    by_bid: Mapping[str, tuple[int, int]]  # "4" … "9", "moon" → (bids, made)
    moon: int
    moon_made: int


@dataclass(frozen=True)
class ManipulationProfile:
    sheets: int
    won: int
    rounds: int
    went_out: int
    penalties: int


@dataclass(frozen=True)
class HeadToHead:
    """How the player fared against ``other`` at one game.

    Ahead means a higher Seeger-Fabian (Skat), a lower total (Manipulation) or, only
    when on opposite teams, the winning team (Pitch). ``partnered`` counts Pitch
    games played as partners, which are shared but neither ahead nor behind.
    """

    other: int
    game: str
    shared: int
    ahead: int
    behind: int
    partnered: int


@dataclass(frozen=True)
class HistoryEntry:
    sheet_id: int
    game: str
    played_on: datetime.date
    place: int  # at that table, 1 = best; ties share the place
    # Skat: Seeger-Fabian; Pitch: the team's total; Manipulation: the penalty total.
    headline: int


@dataclass(frozen=True)
class Profile:
    player: int
    skat: SkatProfile | None  # None when the player never played that game
    pitch: PitchProfile | None
    manipulation: ManipulationProfile | None
    head_to_head: tuple[HeadToHead, ...]  # by game, most shared sheets first, then player id
    history: tuple[HistoryEntry, ...]  # oldest first


# How the seats of one sheet are ordered, best first (the smaller key is better):
# Skat by Seeger-Fabian, then games won, then fewer lost (the sheet's own standings);
# Pitch by the team that won, then the team total; Manipulation by the win, then the
# lowest penalty total.
_PLACE_KEYS: Mapping[str, Callable[[Stats], tuple[int, ...]]] = {
    "skat": lambda stats: (-stats["sf"], -stats["won"], stats["lost"]),
    "pitch": lambda stats: (-bool(stats["won"]), -stats["team_total"]),
    "manipulation": lambda stats: (-bool(stats["won"]), stats["total"]),
}
_HEADLINES: Mapping[str, str] = {"skat": "sf", "pitch": "team_total", "manipulation": "total"}


def _place(record: SheetRecord, seat: int) -> int:
    key = _PLACE_KEYS[record.game]
    mine = key(record.stats[seat])
    # Pitch partners finish together: the losing team is second, not third.
    better = {
        stats["team"] if record.game == "pitch" else other
        for other, stats in enumerate(record.stats)
        if key(stats) < mine
    }
    return 1 + len(better)


def _outcome(game: str, mine: Stats, theirs: Stats) -> int:
    """+1 ahead, −1 behind, 0 level (or partners at Pitch)."""
    if game == "skat":
        return (mine["sf"] > theirs["sf"]) - (mine["sf"] < theirs["sf"])
    if game == "manipulation":
        return (mine["total"] < theirs["total"]) - (mine["total"] > theirs["total"])
    if mine["team"] == theirs["team"]:
        return 0
    return bool(mine["won"]) - bool(theirs["won"])


def player_profile(records: Sequence[SheetRecord], player: int) -> Profile:
    """The player's statistics over ``records`` (every season and game of the circle)."""
    mine: dict[str, list[tuple[SheetRecord, int]]] = {game: [] for game in GAMES}
    for record in sorted(records, key=lambda record: (record.played_on, record.sheet_id)):
        if record.game not in mine:
            raise ValueError(f"Sheet {record.sheet_id} is of an unknown game, {record.game}.")
        if len(record.players) != len(record.stats):
            raise ValueError(f"Sheet {record.sheet_id} needs one stats entry per seat.")
        if player in record.players:
            mine[record.game].append((record, record.players.index(player)))
    played = [entry for game in GAMES for entry in mine[game]]
    history = sorted(
        (
            HistoryEntry(
                sheet_id=record.sheet_id,
                game=record.game,
                played_on=record.played_on,
                place=_place(record, seat),
                headline=record.stats[seat][_HEADLINES[record.game]],
            )
            for record, seat in played
        ),
        key=lambda entry: (entry.played_on, entry.sheet_id),
    )
    return Profile(
        player=player,
        skat=_skat(mine["skat"]) if mine["skat"] else None,
        pitch=_pitch(mine["pitch"]) if mine["pitch"] else None,
        manipulation=_manipulation(mine["manipulation"]) if mine["manipulation"] else None,
        head_to_head=_head_to_head(played),
        history=tuple(history),
    )


def _tally(
    entries: Sequence[tuple[SheetRecord, int]], name: str, order: Sequence[str]
) -> dict[str, tuple[int, int]]:
    """Adds up ``{key: [n, good]}`` dicts (``by_type``, ``by_bid``) in the game's order."""
    totals = dict.fromkeys(order, (0, 0))
    for record, seat in entries:
        for key, (n, good) in record.stats[seat][name].items():
            totals[key] = (totals[key][0] + n, totals[key][1] + good)
    return {key: counts for key, counts in totals.items() if counts[0]}


def _sum(entries: Sequence[tuple[SheetRecord, int]], name: str) -> int:
    return sum(record.stats[seat][name] for record, seat in entries)


def _skat(entries: Sequence[tuple[SheetRecord, int]]) -> SkatProfile:
    won, lost = _sum(entries, "won"), _sum(entries, "lost")
    declared = won + lost
    defended, defended_won = _sum(entries, "defended"), _sum(entries, "defended_won")
    biggest: BiggestGame | None = None
    for record, seat in entries:  # oldest first: of equally big games the first stands
        game = record.stats[seat]["biggest"]
        if game is not None and (biggest is None or game["score"] > biggest.score):
            biggest = BiggestGame(
                sheet_id=record.sheet_id,
                played_on=record.played_on,
                deal=game["deal"],
                game=game["game"],
                value=game["value"],
                score=game["score"],
            )
    return SkatProfile(
        sheets=len(entries),
        won=sum(1 for record, seat in entries if _place(record, seat) == 1),
        declared=declared,
        games_won=won,
        games_lost=lost,
        by_type=_tally(entries, "by_type", SKAT_GAME_TYPES),
        average_value=_sum(entries, "value_sum") / declared if declared else 0.0,
        overbid=_sum(entries, "overbid"),
        biggest=biggest,
        defended=defended,
        defended_won=defended_won,
        defence_rate=defended_won / defended if defended else 0.0,
    )


def _pitch(entries: Sequence[tuple[SheetRecord, int]]) -> PitchProfile:
    return PitchProfile(
        sheets=len(entries),
        won=sum(1 for record, seat in entries if record.stats[seat]["won"]),
        bids=_sum(entries, "bids"),
        made=_sum(entries, "made"),
        by_bid=_tally(entries, "by_bid", PITCH_BIDS),
        moon=_sum(entries, "moon"),
        moon_made=_sum(entries, "moon_made"),
    )


def _manipulation(entries: Sequence[tuple[SheetRecord, int]]) -> ManipulationProfile:
    return ManipulationProfile(
        sheets=len(entries),
        won=sum(1 for record, seat in entries if record.stats[seat]["won"]),
        rounds=_sum(entries, "rounds"),
        went_out=_sum(entries, "went_out"),
        penalties=_sum(entries, "penalties"),
    )


def _head_to_head(played: Sequence[tuple[SheetRecord, int]]) -> tuple[HeadToHead, ...]:
    # (other, game) → [shared, ahead, behind, partnered]
    counts: dict[tuple[int, str], list[int]] = {}
    for record, seat in played:
        for other_seat, other in enumerate(record.players):
            if other_seat == seat:
                continue
            mine, theirs = record.stats[seat], record.stats[other_seat]
            tally = counts.setdefault((other, record.game), [0, 0, 0, 0])
            tally[0] += 1
            outcome = _outcome(record.game, mine, theirs)
            if outcome > 0:
                tally[1] += 1
            elif outcome < 0:
                tally[2] += 1
            elif record.game == "pitch" and mine["team"] == theirs["team"]:
                tally[3] += 1
    rows = [
        HeadToHead(other, game, shared, ahead, behind, partnered)
        for (other, game), (shared, ahead, behind, partnered) in counts.items()
    ]
    rows.sort(key=lambda row: (GAMES.index(row.game), -row.shared, row.other))
    return tuple(rows)
