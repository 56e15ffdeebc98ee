"""One player's statistics over every sheet of the circle, for the player's page.

The same :class:`~circles.rules.standings.SheetRecord` values as the standings, read
across every season and game: what the player did at each game, how they fared
against each other player they shared a table with, and where they finished on each
sheet. Each sheet contributes to the record of each player at its table
(``contributions``); a player's totals add those up (``apply``) and give the page's
statistics (``from_totals``), so that a write keeps them up to date one sheet at a
time (``circles.player_totals``). :func:`player_profile` adds up a list of sheets the
same way. What comes back from the database is checked here like any input (``read``,
``read_contribution``, ``history_line``).

Pure Python: no Django, no database.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterable, Mapping, Sequence
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
    history: tuple[HistoryEntry, ...]  # oldest first (the latest of each game, when kept)

    @property
    def sheets(self) -> int:
        """Every counted sheet the player sat at, of every game: the whole history's
        length, whatever part of it ``history`` holds."""
        return sum(game.sheets for game in (self.skat, self.pitch, self.manipulation) if game)


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


# -- One sheet's contribution, and a player's totals ------------------------------------------
#
# A sheet contributes to the record of each player at its table a small, JSON-ready
# record (``contributions``): the sheet's line of the player's history, the biggest
# game won there, the numbers the game's statistics add up and one line per other
# player at the table. A player's *totals* take it in (``apply`` with ``sign`` 1) or
# give it back (−1), so that the player's page costs the same after five sheets as
# after five thousand (circles.player_totals keeps them with each write). Adding a
# player's contributions one by one in any order gives the same totals as any order of
# adding and taking away that ends with the same sheets
# (tests/circles_rules/test_player_totals.py).

Totals = dict[str, dict[str, Any]]
# The numbers each game's statistics add up: plain counts, and tallies of [n, good].
_COUNTED: Mapping[str, tuple[str, ...]] = {
    "skat": (
        "sheets",
        "won",
        "games_won",
        "games_lost",
        "value_sum",
        "overbid",
        "defended",
        "defended_won",
    ),
    "pitch": ("sheets", "won", "bids", "made", "moon", "moon_made"),
    "manipulation": ("sheets", "won", "rounds", "went_out", "penalties"),
}
_TALLIED: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "skat": ("by_type", SKAT_GAME_TYPES),
    "pitch": ("by_bid", PITCH_BIDS),
}
# Far beyond any real count or sum (a Skat game value sum over 100,000 series stays
# within a few hundred million).
MOST = 10**12
H2H = "h2h"


def _counts(record: SheetRecord, seat: int, place: int) -> dict[str, Any]:
    stats = record.stats[seat]
    if record.game == "skat":
        counts = {
            "sheets": 1,
            "won": int(place == 1),
            "games_won": stats["won"],
            "games_lost": stats["lost"],
            "value_sum": stats["value_sum"],
            "overbid": stats["overbid"],
            "defended": stats["defended"],
            "defended_won": stats["defended_won"],
        }
    elif record.game == "pitch":
        counts = {"sheets": 1, "won": int(bool(stats["won"]))}
        counts.update({name: stats[name] for name in ("bids", "made", "moon", "moon_made")})
    else:
        counts = {"sheets": 1, "won": int(bool(stats["won"]))}
        counts.update({name: stats[name] for name in ("rounds", "went_out", "penalties")})
    if record.game in _TALLIED:
        name, order = _TALLIED[record.game]
        counts[name] = {
            key: [stats[name][key][0], stats[name][key][1]]
            for key in order
            if key in stats[name] and stats[name][key][0]
        }
        if set(stats[name]) - set(order):
            raise ValueError(f"Sheet {record.sheet_id}: an unknown key in {name}.")
    return counts


def contributions(record: SheetRecord) -> dict[int, dict[str, Any]]:
    """What ``record`` adds to the record of each player at its table, by player id
    (a player in two seats counts once, in the first)."""
    if record.game not in GAMES:
        raise ValueError(f"Sheet {record.sheet_id} is of an unknown game, {record.game}.")
    if len(record.players) != len(record.stats):
        raise ValueError(f"Sheet {record.sheet_id} needs one stats entry per seat.")
    made: dict[int, dict[str, Any]] = {}
    for seat, player in enumerate(record.players):
        if player in made:
            continue
        mine = record.stats[seat]
        place = _place(record, seat)
        h2h: dict[str, list[int]] = {}
        for other_seat, other in enumerate(record.players):
            if other_seat == seat:
                continue
            theirs = record.stats[other_seat]
            outcome = _outcome(record.game, mine, theirs)
            partners = record.game == "pitch" and mine["team"] == theirs["team"]
            line = h2h.setdefault(str(other), [0, 0, 0, 0])
            line[0] += 1
            line[1] += outcome > 0
            line[2] += outcome < 0
            line[3] += outcome == 0 and partners
        biggest = mine.get("biggest") if record.game == "skat" else None
        made[player] = {
            "sheet": record.sheet_id,
            "player": player,
            "game": record.game,
            "played_on": record.played_on.isoformat(),
            "place": place,
            "headline": mine[_HEADLINES[record.game]],
            "biggest": None
            if biggest is None
            else {key: biggest[key] for key in ("deal", "game", "value", "score")},
            "counts": _counts(record, seat, place),
            H2H: h2h,
        }
    return made


def _added(found: dict[str, Any], name: str, amount: int, where: str) -> None:
    total = found.get(name, 0) + amount
    if total < 0:
        raise ValueError(f"{where}.{name}: taken away more than was added.")
    found[name] = total


def _tallied(found: dict[str, list[int]], given: Mapping[str, Any], sign: int, where: str) -> None:
    for key, (n, good) in given.items():
        line = found.setdefault(key, [0, 0])
        line[0] += sign * n
        line[1] += sign * good
        if line[0] < 0 or line[1] < 0:
            raise ValueError(f"{where}.{key}: taken away more than was added.")
        if not line[0]:
            del found[key]


def apply(totals: Totals, given: Mapping[str, Any], sign: int) -> None:
    """Add a contribution to a player's totals (``sign`` 1) or take it away (−1);
    ValueError when it was never added. A game left with no sheet leaves the totals."""
    game = given["game"]
    found = totals.setdefault(game, {})
    for name, amount in given["counts"].items():
        if isinstance(amount, dict):
            _tallied(found.setdefault(name, {}), amount, sign, f"{game}.{name}")
        else:
            _added(found, name, sign * amount, game)
    if not found.get("sheets"):
        if any(found.get(name) for name in _COUNTED[game]):
            raise ValueError(f"{game}: counts left without a sheet.")
        del totals[game]
    lines = totals.setdefault(H2H, {}).setdefault(game, {})
    for other, counts in given[H2H].items():
        line = lines.setdefault(other, [0, 0, 0, 0])
        for index, amount in enumerate(counts):
            line[index] += sign * amount
        if min(line) < 0:
            raise ValueError(f"{H2H}.{game}.{other}: taken away more than was added.")
        if not line[0]:
            if any(line):
                raise ValueError(f"{H2H}.{game}.{other}: counts left without a table.")
            del lines[other]
    if not lines:
        del totals[H2H][game]
    if not totals[H2H]:
        del totals[H2H]


def biggest_of(given: Iterable[Mapping[str, Any]]) -> BiggestGame | None:
    """The biggest won game of these contributions: the highest score, of equal ones
    the first played (by day, then sheet)."""
    best: tuple[tuple[int, str, int], Mapping[str, Any]] | None = None
    for item in given:
        game = item["biggest"]
        if game is None:
            continue
        key = (-game["score"], item["played_on"], item["sheet"])
        if best is None or key < best[0]:
            best = (key, item)
    if best is None:
        return None
    item = best[1]
    return biggest_game(item["sheet"], item["played_on"], item["biggest"])


def biggest_game(
    sheet: int, played_on: str | datetime.date, game: Mapping[str, Any]
) -> BiggestGame:
    return BiggestGame(
        sheet_id=sheet,
        played_on=played_on
        if isinstance(played_on, datetime.date)
        else datetime.date.fromisoformat(played_on),
        deal=game["deal"],
        game=game["game"],
        value=game["value"],
        score=game["score"],
    )


def history_entry(given: Mapping[str, Any]) -> HistoryEntry:
    return HistoryEntry(
        sheet_id=given["sheet"],
        game=given["game"],
        played_on=datetime.date.fromisoformat(given["played_on"]),
        place=given["place"],
        headline=given["headline"],
    )


def _pairs(found: Mapping[str, Any], name: str, order: Sequence[str]) -> dict[str, tuple[int, int]]:
    tally = found.get(name, {})
    return {key: (tally[key][0], tally[key][1]) for key in order if key in tally}


def from_totals(
    player: int,
    totals: Totals,
    *,
    biggest: BiggestGame | None,
    history: tuple[HistoryEntry, ...],
) -> Profile:
    """The player's statistics from their totals, with the biggest game and the history
    (oldest first) as the caller found them."""
    skat = pitch = manipulation = None
    if "skat" in totals:
        found = totals["skat"]
        declared = found["games_won"] + found["games_lost"]
        skat = SkatProfile(
            sheets=found["sheets"],
            won=found["won"],
            declared=declared,
            games_won=found["games_won"],
            games_lost=found["games_lost"],
            by_type=_pairs(found, "by_type", SKAT_GAME_TYPES),
            average_value=found["value_sum"] / declared if declared else 0.0,
            overbid=found["overbid"],
            biggest=biggest,
            defended=found["defended"],
            defended_won=found["defended_won"],
            defence_rate=found["defended_won"] / found["defended"] if found["defended"] else 0.0,
        )
    if "pitch" in totals:
        found = totals["pitch"]
        counted = {name: found[name] for name in _COUNTED["pitch"]}
        pitch = PitchProfile(**counted, by_bid=_pairs(found, "by_bid", PITCH_BIDS))
    if "manipulation" in totals:
        found = totals["manipulation"]
        manipulation = ManipulationProfile(
            **{name: found[name] for name in _COUNTED["manipulation"]}
        )
    rows = [
        HeadToHead(int(other), game, *counts)
        for game, lines in totals.get(H2H, {}).items()
        for other, counts in lines.items()
    ]
    rows.sort(key=lambda row: (GAMES.index(row.game), -row.shared, row.other))
    return Profile(
        player=player,
        skat=skat,
        pitch=pitch,
        manipulation=manipulation,
        head_to_head=tuple(rows),
        history=history,
    )


def player_profile(records: Sequence[SheetRecord], player: int) -> Profile:
    """The player's statistics over ``records`` (every season and game of the circle),
    added up from each sheet's contribution."""
    mine = []
    for record in sorted(records, key=lambda record: (record.played_on, record.sheet_id)):
        given = contributions(record).get(player)
        if given is not None:
            mine.append(given)
    totals: Totals = {}
    for given in mine:
        apply(totals, given, 1)
    return from_totals(
        player,
        totals,
        biggest=biggest_of(mine),
        history=tuple(history_entry(given) for given in mine),
    )


# -- Reading what was stored ----------------------------------------------------------------


def _whole(value: object, where: str, *, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= MOST:
        raise ValueError(f"{where}: not a whole number from {least} to {MOST}.")
    return value


def _mapping(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise ValueError(f"{where}: not an object.")
    return value


def _player_key(value: str, where: str) -> None:
    if not value.isascii() or not value.isdigit() or len(value) > 19 or int(value) < 1:
        raise ValueError(f"{where}: not a player id.")


def _line(value: object, where: str, length: int) -> list[int]:
    if not isinstance(value, list) or len(value) != length:
        raise ValueError(f"{where}: not a list of {length}.")
    for index, item in enumerate(value):
        _whole(item, f"{where}[{index}]")
    return value


def _game_counts(game: object, found: object, where: str, *, one_sheet: bool) -> None:
    if game not in _COUNTED:
        raise ValueError(f"{where}: not a game.")
    found = _mapping(found, where)
    tallied = _TALLIED.get(game)  # type: ignore[call-overload]
    names = set(_COUNTED[game]) | ({tallied[0]} if tallied else set())  # type: ignore[index]
    if set(found) - names or set(_COUNTED[game]) - set(found):  # type: ignore[index]
        raise ValueError(f"{where}: has {sorted(found)}.")
    for name in _COUNTED[game]:  # type: ignore[index]
        _whole(found[name], f"{where}.{name}", least=1 if name == "sheets" else 0)
    if one_sheet and (found["sheets"] != 1 or found["won"] > 1):
        raise ValueError(f"{where}: one sheet's counts are not those of one sheet.")
    if found["won"] > found["sheets"]:
        raise ValueError(f"{where}.won: more than the sheets.")
    if tallied:
        name, order = tallied
        for key, line in _mapping(found.get(name, {}), f"{where}.{name}").items():
            if key not in order:
                raise ValueError(f"{where}.{name}: {key!r} is not one of them.")
            n, good = _line(line, f"{where}.{name}.{key}", 2)
            if not n or good > n:
                raise ValueError(f"{where}.{name}.{key}: not [played, good].")


def _h2h_lines(lines: object, where: str) -> None:
    for other, line in _mapping(lines, where).items():
        _player_key(other, f"{where}.{other}")
        shared, ahead, behind, partnered = _line(line, f"{where}.{other}", 4)
        if not shared or ahead + behind + partnered > shared:
            raise ValueError(f"{where}.{other}: not [shared, ahead, behind, partnered].")


def read(data: object) -> Totals:
    """A player's totals as stored, checked; ValueError naming where they are not what
    ``apply`` makes."""
    totals = _mapping(data, "totals")
    for game, found in totals.items():
        if game == H2H:
            for name, lines in _mapping(found, f"totals.{H2H}").items():
                if name not in GAMES:
                    raise ValueError(f"totals.{H2H}.{name}: not a game.")
                if not _mapping(lines, f"totals.{H2H}.{name}"):
                    raise ValueError(f"totals.{H2H}.{name}: empty.")
                _h2h_lines(lines, f"totals.{H2H}.{name}")
        else:
            _game_counts(game, found, f"totals.{game}", one_sheet=False)
    return totals


def read_contribution(data: object) -> dict[str, Any]:
    """One sheet's contribution to a player's totals as stored, checked."""
    given = _mapping(data, "contribution")
    keys = {"sheet", "player", "game", "played_on", "place", "headline", "biggest", "counts", H2H}
    if set(given) != keys:
        raise ValueError(f"contribution: has {sorted(given)}.")
    _whole(given["sheet"], "contribution.sheet", least=1)
    _whole(given["player"], "contribution.player", least=1)
    _game_counts(given["game"], given["counts"], "contribution.counts", one_sheet=True)
    try:
        datetime.date.fromisoformat(given["played_on"])
    except (TypeError, ValueError):
        raise ValueError("contribution.played_on: not a day.") from None
    _whole(given["place"], "contribution.place", least=1)
    _whole(given["headline"], "contribution.headline", least=-MOST)
    biggest = given["biggest"]
    if biggest is not None:
        biggest = _mapping(biggest, "contribution.biggest")
        if set(biggest) != {"deal", "game", "value", "score"} or not isinstance(
            biggest["game"], str
        ):
            raise ValueError("contribution.biggest: not a game won.")
        for name in ("deal", "value", "score"):
            _whole(biggest[name], f"contribution.biggest.{name}", least=-MOST)
    _h2h_lines(given[H2H], f"contribution.{H2H}")
    return given


def history_line(given: object) -> tuple[int, int]:
    """(place, headline) of a stored contribution, checked."""
    given = _mapping(given, "contribution")
    return (
        _whole(given.get("place"), "contribution.place", least=1),
        _whole(given.get("headline"), "contribution.headline", least=-MOST),
    )
