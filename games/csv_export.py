"""Sheets as CSV files that open in a spreadsheet with the right columns and characters.

UTF-8 with a byte-order mark (so Excel reads "Jürgen" and "♣" right), one header row,
one row per deal, numbers as plain integers (a spreadsheet sums them), and the
minus sign as "-" so that the cells are numbers, not text.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence

from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.games import GAMES
from games.models import Sheet
from games.rules.sheet import SheetState

BOM = "\ufeff"


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[object]]
) -> HttpResponse:
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(header)
    writer.writerows(rows)
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def sheet_rows(sheet: Sheet, state: SheetState) -> tuple[list[str], list[list[object]]]:
    entry = GAMES[sheet.game]
    word = _("Round") if entry.counts_rounds else _("Deal")
    header = [word, _("Dealer"), _("What happened")]
    for name in state.players:
        header.extend([name, _("%(name)s total") % {"name": name}])
    rows: list[list[object]] = []
    for deal in state.deals:
        # str(): the summary in the reader's language (csv would write a Text's English).
        row: list[object] = [deal.number, state.players[deal.dealer], str(deal.summary)]
        for seat in range(len(state.players)):
            row.extend([deal.scores[seat], deal.totals[seat]])
        rows.append(row)
    return header, rows


def sheet_csv(sheet: Sheet, state: SheetState) -> HttpResponse:
    header, rows = sheet_rows(sheet, state)
    day = sheet.created_at.date().isoformat()
    name = slugify(f"{GAMES[sheet.game].name}-{day}-{sheet.pk}")
    return csv_response(f"{name}.csv", header, rows)
