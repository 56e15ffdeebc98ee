"""Each season's totals, kept up to date in the transaction of every write that changes
what the circle's standings show (``moved``).

A circle's standings and records change only when one of its writes does (a sheet
finished, corrected, left out, dated, trashed; a player added, renamed, merged; a
season made or changed), and each such write calls ``moved`` inside its transaction,
after everything else it locks (scorekeeper/db.py): it moves the circle's
``standings_version`` and brings every season's totals (``SeasonTotals``) to it.

- A write that names the sheets it changed takes each sheet's old contribution out of
  the totals it was added to (``SeasonContribution``) and adds what the sheet
  contributes now to the season it now counts for: a handful of rows, however many
  sheets the season has.
- A write that changes no number (``sheets=()``: a name, a guest, a new player) only
  moves the totals' version along.
- Any other write (a season's days or rules, a merge) and any disagreement found on
  the way (stored totals that do not read back, a contribution that was never added)
  adds every season up again from its sheets (``rebuild``).

A read (``stored``) takes a season's totals when they are at the circle's version,
checked like any input; otherwise the season is added up from
its sheets, as before the totals were kept. tests/test_season_totals.py compares the
kept totals with a rebuild after every kind of write.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from typing import Any

import orjson
from django.db.models import F, QuerySet, TextField
from django.db.models.functions import Cast

from circles import player_totals
from circles.models import Circle, Season, SeasonContribution, SeasonTotals
from circles.records import records
from circles.rules import season_totals as totals_rules
from circles.rules.standings import ClubRules, SheetRecord

logger = logging.getLogger(__name__)

# Rows written at once when a rebuild stores every sheet's contribution.
BATCH = 500


def moved(circle_id: int, *, sheets: Collection[int] | None = None) -> None:
    """Say that what the circle's standings or records show has changed, inside the
    write's transaction, after everything else it locks. ``sheets``: the circle sheets
    whose contribution may have changed (their ids), ``()`` when no number did, None
    when the write may have changed any (every season and player is added up again)."""
    Circle.objects.filter(pk=circle_id).update(standings_version=F("standings_version") + 1)
    version, kept_at = Circle.objects.values_list("standings_version", "players_kept_at").get(
        pk=circle_id
    )
    follow(circle_id, version, sheets, players_kept_at=kept_at)


class _Records:
    """The counted records of some sheets of a circle (of all for None), each asked
    for once: the seasons and the players read the same."""

    def __init__(self, circle_id: int) -> None:
        self.circle_id = circle_id
        self.read: dict[frozenset[int] | None, dict[str, list[SheetRecord]]] = {}

    def __call__(self, sheets: Collection[int] | None) -> dict[str, list[SheetRecord]]:
        key = None if sheets is None else frozenset(sheets)
        if key not in self.read:
            self.read[key] = records(self.circle_id, sheets=key)
        return self.read[key]


def follow(
    circle_id: int,
    version: int,
    sheets: Collection[int] | None,
    *,
    players_kept_at: int | None,
) -> None:
    """Bring the circle's season totals and player totals from ``version - 1`` to
    ``version``."""
    found = _Records(circle_id)
    _follow_seasons(circle_id, version, sheets, found)
    player_totals.follow(circle_id, version, players_kept_at, sheets, found)


def _follow_seasons(
    circle_id: int, version: int, sheets: Collection[int] | None, found: _Records
) -> None:
    seasons = {season.pk: season for season in Season.objects.filter(circle_id=circle_id)}
    if not seasons:
        return
    kept = dict(
        SeasonTotals.objects.filter(season_id__in=seasons).values_list("season_id", "version")
    )
    current = set(kept) == set(seasons) and all(found == version - 1 for found in kept.values())
    if current and sheets is not None:
        if not sheets:
            SeasonTotals.objects.filter(season_id__in=seasons).update(version=version)
            return
        try:
            _update(version, seasons, sheets, found(sheets))
            return
        except ValueError as problem:
            logger.warning("Season totals of circle %s added up again: %s", circle_id, problem)
    _rebuild_seasons(circle_id, version, seasons, found(None))


def _rules(season: Season) -> ClubRules:
    return ClubRules.from_mapping(season.skat_rules or {})


def _season_of(record: SheetRecord, seasons: Mapping[int, Season]) -> Season | None:
    for season in seasons.values():
        if season.starts_on <= record.played_on <= season.ends_on:
            return season
    return None


def _contributions(
    found: Mapping[str, list[SheetRecord]], seasons: Mapping[int, Season]
) -> dict[int, dict[str, Any]]:
    """What each record adds to the season it counts for, by sheet id, with the season."""
    rules = {pk: _rules(season) for pk, season in seasons.items()}
    made = {}
    for game_records in found.values():
        for record in game_records:
            season = _season_of(record, seasons)
            if season is not None:
                given = totals_rules.contribution(record, rules[season.pk])
                made[record.sheet_id] = {**given, "season": season.pk}
    return made


def _update(
    version: int,
    seasons: Mapping[int, Season],
    sheets: Collection[int],
    found: Mapping[str, list[SheetRecord]],
) -> None:
    """The named sheets' old contributions out, their new ones in; ValueError when the
    stored totals and contributions do not agree (nothing is written then)."""
    sheets = set(sheets)
    before = dict(
        SeasonContribution.objects.filter(sheet_id__in=sheets).values_list("sheet_id", "data")
    )
    old = {sheet: totals_rules.read_contribution(stored) for sheet, stored in before.items()}
    after = _contributions(found, seasons)
    # Only the seasons these sheets counted for, or count for now, are read and written.
    changed = {given["season"] for given in (*old.values(), *after.values())}
    data = {
        season: totals_rules.read(orjson.loads(text))
        for season, text in _texts(SeasonTotals.objects.filter(season_id__in=changed))
    }
    for sheet, given in old.items():
        if given["sheet"] != sheet or given["season"] not in data:
            raise ValueError(f"the contribution kept for sheet {sheet} is not its own")
        totals_rules.apply(data[given["season"]], given, -1)
    for given in after.values():
        totals_rules.apply(data[given["season"]], given, 1)
    for sheet in sheets:
        if before.get(sheet) == after.get(sheet):
            continue
        if sheet not in after:
            SeasonContribution.objects.filter(sheet_id=sheet).delete()
        else:
            given = after[sheet]
            SeasonContribution.objects.update_or_create(
                sheet_id=sheet, defaults={"season_id": given["season"], "data": given}
            )
    for season in changed:
        SeasonTotals.objects.filter(season_id=season).update(
            version=version,
            data=data[season],
            view=totals_rules.view(data[season], _rules(seasons[season])),
        )
    SeasonTotals.objects.filter(season_id__in=set(seasons) - changed).update(version=version)


def rebuild(circle_id: int) -> None:
    """Every season and every player of the circle added up again from the sheets, at
    the circle's version, inside the caller's transaction (after rows came in by the
    batch: a generated season, a bench's copies)."""
    version = Circle.objects.values_list("standings_version", flat=True).get(pk=circle_id)
    found = _Records(circle_id)
    seasons = {season.pk: season for season in Season.objects.filter(circle_id=circle_id)}
    _rebuild_seasons(circle_id, version, seasons, found(None))
    player_totals.rebuild(circle_id, version, found(None))


def _rebuild_seasons(
    circle_id: int,
    version: int,
    seasons: Mapping[int, Season],
    found: Mapping[str, list[SheetRecord]],
) -> None:
    """Every season of the circle added up again from ``found`` (every counted record),
    and every sheet's contribution stored with it."""
    made = _contributions(found, seasons)
    data: dict[int, totals_rules.Totals] = {season: {} for season in seasons}
    for given in made.values():
        totals_rules.apply(data[given["season"]], given, 1)
    SeasonTotals.objects.filter(season__circle_id=circle_id).delete()
    SeasonTotals.objects.bulk_create(
        SeasonTotals(
            season_id=season,
            version=version,
            data=found,
            view=totals_rules.view(found, _rules(seasons[season])),
        )
        for season, found in data.items()
    )
    SeasonContribution.objects.filter(sheet__circle_id=circle_id).delete()
    SeasonContribution.objects.bulk_create(
        (
            SeasonContribution(sheet_id=sheet, season_id=given["season"], data=given)
            for sheet, given in made.items()
        ),
        batch_size=BATCH,
    )


def _texts(found: QuerySet[SeasonTotals], field: str = "data") -> list[tuple[int, str]]:
    """(season id, the field as stored text): decoded by orjson, a long season's totals
    (a few hundred kilobytes) take half as long as with the JSON field's decoder."""
    return list(found.annotate(text=Cast(field, TextField())).values_list("season_id", "text"))


def stored(season: Season) -> totals_rules.View | None:
    """The season's view at the circle's standings version, checked; None when there
    is none at that version (the circle predates them, or a write failed to keep them)
    or it does not read back as written."""
    found = _texts(
        SeasonTotals.objects.filter(season=season, version=F("season__circle__standings_version")),
        "view",
    )
    if not found:
        return None
    try:
        return totals_rules.read_view(orjson.loads(found[0][1]))
    except ValueError as problem:  # orjson's JSONDecodeError is one
        logger.warning("Season totals of season %s not used: %s", season.pk, problem)
        return None


def added_up(season: Season) -> totals_rules.View:
    """The season's view made from its sheets (when none is kept at the version read)."""
    found = records(season.circle_id, starts_on=season.starts_on, ends_on=season.ends_on)
    rules = _rules(season)
    totals = totals_rules.of(
        (record for game_records in found.values() for record in game_records), rules
    )
    return totals_rules.made_view(totals, rules)
