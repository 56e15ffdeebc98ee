"""Sheets as CSV files that open in a spreadsheet with the right columns and characters.

UTF-8 with a byte-order mark (so Excel reads "Jürgen" and "♣" right), one header row
of headings, one row per deal, numbers as plain numbers (a spreadsheet sums them), and
every minus sign as "-" (never U+2212) so that the cells are numbers, not text.

The file follows the page's language, as that language's spreadsheets open a CSV: in
English commas between the cells and a decimal point (``1234.5``); in German and
Esperanto, which write a decimal comma, semicolons between the cells and a decimal
comma (``1234,5``). The pages say so beside the download.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.http import HttpResponse
from django.utils import formats
from django.utils.translation import gettext as _

from games.games import GAMES
from games.models import Sheet
from games.rules.sheet import SheetState

BOM = "\ufeff"


MINUS = "\u2212"
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"-?\d+([.,]\d+)?%?")


@dataclass(frozen=True)
class CsvFormat:
    delimiter: str  # between the cells
    decimal: str  # the decimal mark of a number


def csv_format() -> CsvFormat:
    """The active language's CSV: semicolons and a decimal comma where the language
    writes a decimal comma (a German spreadsheet reads a comma as one), else commas
    and a decimal point."""
    if formats.get_format("DECIMAL_SEPARATOR") == ",":
        return CsvFormat(delimiter=";", decimal=",")
    return CsvFormat(delimiter=",", decimal=".")


def cell(value: object, shape: CsvFormat) -> object:
    """A cell as the file writes it: a number with the file's decimal mark, text with
    every minus sign as "-"."""
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float | Decimal):
        return str(value).replace(".", shape.decimal)
    text = str(value).replace(MINUS, "-")
    if text[:1] in FORMULA_START and not NUMBER.fullmatch(text):
        # A name typed as "=HYPERLINK(…)" stays a name: a spreadsheet runs a cell that
        # starts with = + - @ as a formula unless it starts with an apostrophe.
        return "'" + text
    return text


def csv_response(
    filename: str, header: Sequence[str], rows: Iterable[Sequence[object]]
) -> HttpResponse:
    shape = csv_format()
    buffer = io.StringIO()
    buffer.write(BOM)
    writer = csv.writer(buffer, delimiter=shape.delimiter, lineterminator="\r\n")
    writer.writerow([cell(heading, shape) for heading in header])
    writer.writerows([cell(value, shape) for value in row] for row in rows)
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
    # Named by the day it was played, the evening it belongs to.
    day = sheet.played_on.isoformat()
    return csv_response(f"{sheet.game}-{day}.csv", header, rows)
