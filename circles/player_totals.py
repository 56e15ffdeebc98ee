"""Each player's record over every counted sheet of the circle (the player page), kept
up to date in the transaction of every write that moves the circle's standings.

What a sheet adds to the record of each player at its table is stored as a
``PlayerContribution`` (one row a sheet and player: the line of the player's history,
the biggest game won there, the numbers the statistics add up), and every player's
sum of them as ``PlayerTotals``. ``follow``, called by ``circles.season_totals.follow``
with the same sheets, takes a changed sheet's old contributions out of its players'
totals and puts the new ones in; a write that changes no number only moves the
circle's ``players_kept_at`` along; any other write, and any disagreement found on the
way, adds every player up again from the sheets (``rebuild``).

A read (``profile``, ``history``) takes the totals while ``players_kept_at`` is the
circle's standings version, checked like any input, and the history a page at a time
from the contributions; otherwise it adds the player's sheets up as before the totals
were kept. tests/test_player_totals.py compares the kept totals with a rebuild after
every kind of write.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

import orjson
from django.db.models import TextField
from django.db.models.functions import Cast

from circles.models import Circle, Player, PlayerContribution, PlayerTotals, SheetResult
from circles.records import records
from circles.rules import profile as profile_rules
from circles.rules.contributions import GAMES
from circles.rules.profile import HistoryEntry, Profile
from circles.rules.standings import SheetRecord

logger = logging.getLogger(__name__)

# Rows written at once when a rebuild stores every sheet's contributions.
BATCH = 500

Found = Callable[[Collection[int] | None], Mapping[str, list[SheetRecord]]]


def follow(
    circle_id: int, version: int, kept_at: int | None, sheets: Collection[int] | None, found: Found
) -> None:
    """Bring the circle's player totals from ``version - 1`` (where ``kept_at`` says
    they are) to ``version``. ``found(sheets)``: the counted records of those sheets
    (of every sheet for None), read once for the seasons and the players."""
    if kept_at == version - 1 and sheets is not None:
        try:
            if sheets:
                _update(sheets, found(sheets))
        except ValueError as problem:
            logger.warning("Player totals of circle %s added up again: %s", circle_id, problem)
        else:
            Circle.objects.filter(pk=circle_id).update(players_kept_at=version)
            return
    rebuild(circle_id, version, found(None))


def _made(found: Mapping[str, list[SheetRecord]]) -> dict[tuple[int, int], dict[str, Any]]:
    """Every contribution of these records, by (sheet, player)."""
    return {
        (record.sheet_id, player): given
        for game_records in found.values()
        for record in game_records
        for player, given in profile_rules.contributions(record).items()
    }


def _row(given: Mapping[str, Any]) -> PlayerContribution:
    biggest = given["biggest"]
    return PlayerContribution(
        sheet_id=given["sheet"],
        player_id=given["player"],
        game=given["game"],
        played_on=datetime.date.fromisoformat(given["played_on"]),
        biggest=None if biggest is None else biggest["score"],
        data=given,
    )


def _update(sheets: Collection[int], found: Mapping[str, list[SheetRecord]]) -> None:
    """The named sheets' old contributions out of their players' totals, the new ones
    in; ValueError when what is stored does not agree (nothing is written then)."""
    before = {
        (sheet, player): profile_rules.read_contribution(data)
        for sheet, player, data in PlayerContribution.objects.filter(
            sheet_id__in=sheets
        ).values_list("sheet_id", "player_id", "data")
    }
    after = _made(found)
    players = {player for _sheet, player in (*before, *after)}
    texts = dict(
        PlayerTotals.objects.filter(player_id__in=players)
        .annotate(text=Cast("data", TextField()))
        .values_list("player_id", "text")
    )
    totals = {player: profile_rules.read(orjson.loads(text)) for player, text in texts.items()}
    for (sheet, player), given in before.items():
        if given["sheet"] != sheet or given["player"] != player or player not in totals:
            raise ValueError(f"the contribution kept for sheet {sheet} is not its own")
        profile_rules.apply(totals[player], given, -1)
    for (_sheet, player), given in after.items():
        profile_rules.apply(totals.setdefault(player, {}), given, 1)
    if before != after:
        PlayerContribution.objects.filter(sheet_id__in=sheets).delete()
        PlayerContribution.objects.bulk_create(_row(given) for given in after.values())
    # Only the totals that moved are written (a sheet dated again moves no number).
    changed = {
        player
        for player in players
        if totals.get(player) != (orjson.loads(texts[player]) if player in texts else {})
    }
    PlayerTotals.objects.filter(player_id__in=changed).delete()
    PlayerTotals.objects.bulk_create(
        PlayerTotals(player_id=player, data=totals[player])
        for player in changed
        if totals.get(player)
    )


def rebuild(circle_id: int, version: int, found: Mapping[str, list[SheetRecord]]) -> None:
    """Every player of the circle added up again from ``found`` (every counted record
    of the circle), every contribution stored with them, at ``version``."""
    made = _made(found)
    totals: dict[int, profile_rules.Totals] = {}
    for (_sheet, player), given in made.items():
        profile_rules.apply(totals.setdefault(player, {}), given, 1)
    PlayerTotals.objects.filter(player__circle_id=circle_id).delete()
    PlayerTotals.objects.bulk_create(
        (PlayerTotals(player_id=player, data=data) for player, data in totals.items() if data),
        batch_size=BATCH,
    )
    PlayerContribution.objects.filter(sheet__circle_id=circle_id).delete()
    PlayerContribution.objects.bulk_create(
        (_row(given) for given in made.values()), batch_size=BATCH
    )
    Circle.objects.filter(pk=circle_id).update(players_kept_at=version)


# -- Reading ----------------------------------------------------------------------------------


def _current(circle: Circle) -> bool:
    """The totals are at the version the request read the circle at."""
    return circle.players_kept_at is not None and (
        circle.players_kept_at == circle.standings_version
    )


def _entries(found: Any) -> list[HistoryEntry]:
    """History lines from contribution rows, each checked like input."""
    return [
        HistoryEntry(sheet_id, game, _as_date(played_on), *profile_rules.history_line(data))
        for sheet_id, game, played_on, data in found.values_list(
            "sheet_id", "game", "played_on", "data"
        )
    ]


def _as_date(value: Any) -> datetime.date:
    return value if isinstance(value, datetime.date) else datetime.date.fromisoformat(value)


def _contributions(player: Player) -> Any:
    return PlayerContribution.objects.filter(player=player, game__in=GAMES)


def _added_up(circle: Circle, player: Player) -> Profile:
    """The player's record added up from the sheets they sat at (no totals at the
    version read)."""
    found = records(circle.pk, sheets=SheetResult.objects.filter(player=player).values("sheet_id"))
    return profile_rules.player_profile(
        [record for game in GAMES for record in found.get(game, [])], player.pk
    )


def profile(circle: Circle, player: Player, *, latest: int) -> Profile:
    """The player's record; its ``history`` holds the ``latest`` sheets of each game
    (oldest first), as the charts show them: the whole history is read a page at a
    time (``history``)."""
    if _current(circle):
        try:
            return _kept(player, latest)
        except ValueError as problem:  # orjson's JSONDecodeError is one
            logger.warning("Player totals of player %s not used: %s", player.pk, problem)
    found = _added_up(circle, player)
    by_game = [
        entry
        for game in GAMES
        for entry in [item for item in found.history if item.game == game][-latest:]
    ]
    by_game.sort(key=lambda entry: (entry.played_on, entry.sheet_id))
    return replace(found, history=tuple(by_game))


def _kept(player: Player, latest: int) -> Profile:
    text = (
        PlayerTotals.objects.filter(player=player)
        .annotate(text=Cast("data", TextField()))
        .values_list("text", flat=True)
        .first()
    )
    totals = profile_rules.read(orjson.loads(text)) if text is not None else {}
    biggest = None
    if "skat" in totals:
        best = (
            _contributions(player)
            .filter(game="skat", biggest__isnull=False)
            .order_by("-biggest", "played_on", "sheet_id")
            .values_list("data", flat=True)
            .first()
        )
        if best is not None:
            given = profile_rules.read_contribution(best)
            if given["player"] != player.pk or given["biggest"] is None:
                raise ValueError(f"the biggest game kept for player {player.pk} is not theirs")
            biggest = profile_rules.biggest_of([given])
    history = [
        entry
        for game in GAMES
        if game in totals
        for entry in reversed(
            _entries(
                _contributions(player)
                .filter(game=game)
                .order_by("-played_on", "-sheet_id")[:latest]
            )
        )
    ]
    history.sort(key=lambda entry: (entry.played_on, entry.sheet_id))
    return profile_rules.from_totals(player.pk, totals, biggest=biggest, history=tuple(history))


class History(Sequence[HistoryEntry]):
    """A player's sheets, the latest first, read from the contributions a page at a
    time: a player of years has thousands. ``count``: how many there are, as the
    player's totals say. A line that does not read back is never shown: the page is
    then read from the sheets."""

    def __init__(self, circle: Circle, player: Player, count: int) -> None:
        self.circle, self.player = circle, player
        self.found = _contributions(player).order_by("-played_on", "-sheet_id")
        self.length = count

    def __len__(self) -> int:
        return self.length

    def __getitem__(self, index: Any) -> Any:
        if not isinstance(index, slice):
            return self[index : index + 1][0]
        try:
            return _entries(self.found[index])
        except ValueError as problem:
            logger.warning("History of player %s read from the sheets: %s", self.player.pk, problem)
            return list(reversed(_added_up(self.circle, self.player).history))[index]


def history(circle: Circle, player: Player, *, count: int) -> Sequence[HistoryEntry]:
    """The player's sheets, the latest first; ``count`` of them, as the player's record
    (``profile``) at the same version says."""
    if _current(circle):
        return History(circle, player, count)
    return tuple(reversed(_added_up(circle, player).history))
