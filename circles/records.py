"""The counted sheets of a circle as the standings engine reads them: one
:class:`~circles.rules.standings.SheetRecord` per finished sheet, from one query."""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Collection
from itertools import groupby
from operator import itemgetter
from typing import Any

import orjson
from django.db import connections
from django.db.models import Q, QuerySet, TextField
from django.db.models.functions import Cast

from circles.models import SheetResult
from circles.rules.standings import SheetRecord


def records(
    circle_id: int,
    *,
    starts_on: datetime.date | None = None,
    ends_on: datetime.date | None = None,
    counted_only: bool = True,
    sheets: Collection[int] | QuerySet[Any] | None = None,
) -> dict[str, list[SheetRecord]]:
    """The finished sheets' contributions, by game, from one query; of these ``sheets``
    (circle sheet ids) only when given."""
    # Finished: the sheet's game is over, or it was written on a tally card.
    results = SheetResult.objects.filter(
        Q(sheet__sheet__finished=True) | Q(sheet__tally__isnull=False),
        sheet__circle_id=circle_id,
        sheet__sheet__deleted_at__isnull=True,
    )
    if counted_only:
        results = results.filter(sheet__excluded=False)
    if starts_on is not None:
        results = results.filter(sheet__played_on__gte=starts_on)
    if ends_on is not None:
        results = results.filter(sheet__played_on__lte=ends_on)
    if sheets is not None:
        results = results.filter(sheet_id__in=sheets)
    # The stats come as the stored text and are decoded by orjson: a season of 5,000
    # sheets has some 17,000 of them, and Python's json module (the JSON field's own
    # decoder, one call a row) was half of a standings read's time. The rows are read
    # from the cursor as they come (the ORM's converters per value were a fifth of
    # what is left), each day parsed once; every value is checked as it is used.
    rows = (
        results.order_by("sheet__played_on", "sheet_id", "position")
        .annotate(stats_text=Cast("stats", TextField()))
        .values_list(
            "sheet_id", "sheet__sheet__game", "sheet__played_on", "player_id", "stats_text"
        )
    )
    sql, params = rows.query.sql_with_params()
    with connections[rows.db].cursor() as cursor:
        cursor.execute(sql, params)
        fetched = cursor.fetchall()
    days: dict[Any, datetime.date] = {}
    loads = orjson.loads
    by_game: dict[str, list[SheetRecord]] = defaultdict(list)
    # Ordered by day, then sheet: each sheet's seats come together.
    for sheet_id, seats in groupby(fetched, key=itemgetter(0)):
        seats = list(seats)
        _, game, played_on, _, _ = seats[0]
        day = days.get(played_on)
        if day is None:
            day = days[played_on] = _as_date(played_on)
        by_game[game].append(
            SheetRecord(
                sheet_id=sheet_id,
                game=game,
                played_on=day,
                players=tuple(seat[3] for seat in seats),
                stats=tuple(loads(seat[4]) for seat in seats),
            )
        )
    return by_game


def _as_date(value: Any) -> datetime.date:
    """A day as the database gives it: a date (PostgreSQL) or its ISO text (SQLite)."""
    if isinstance(value, datetime.date):
        return value
    return datetime.date.fromisoformat(value)
