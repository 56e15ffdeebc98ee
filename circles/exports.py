"""Downloads: a season's standings as CSV, a whole circle as JSON."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404
from django.utils import formats
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from circles import permissions, selectors, standings_cache, wording
from circles.models import Circle, Season
from circles.transfer import export_chunks
from games.csv_export import CsvFormat, csv_format, csv_response
from games.rules.text import in_source_language


def _standings_csv(request: HttpRequest, season: Season, *, public: bool) -> HttpResponse:
    """One row per player and game under one row of headings: Game, Place, Player and
    each table's columns by their full names (a column of one game is empty on another
    game's rows; a name two games share says whose column it is)."""
    include_guests = request.GET.get("guests") == "1"
    # The tables as the page words them, kept per standings version (the page's own
    # cache entry is another: the CSV needs no title race).
    tables = standings_cache.kept(
        season.circle,
        ("season-tables", season.pk, public, include_guests, get_language()),
        lambda: wording.tables(
            selectors.kept_season_standings(season, include_guests=include_guests), public=public
        ),
    )
    headings = [[c["title"] or c["label"] for c in table["columns"]] for table in tables]
    shared = {h for h in {h for hs in headings for h in hs} if sum(h in hs for hs in headings) > 1}
    header = [_("Game"), _("Place"), _("Player")]
    columns: list[str] = []  # the heading of each column after Player
    first_column: list[int] = []  # where each table's columns start
    for table, names in zip(tables, headings, strict=True):
        first_column.append(len(columns))
        columns.extend(
            # Translators: a CSV heading: a game and one of its standings columns ("Skat: Won").
            _("%(game)s: %(column)s") % {"game": table["title"], "column": name}
            if name in shared
            else name
            for name in names
        )
    header.extend(columns)
    shape = csv_format()
    rows = []
    for table, start in zip(tables, first_column, strict=True):
        for row in [*table["rows"], *table["unranked"]]:
            cells: list[object] = [""] * len(columns)
            for n, text in enumerate(row["cells"]):
                cells[start + n] = _cell(text, shape)
            rows.append([table["title"], row["place"] or "", row["name"], *cells])
    return csv_response(f"{slugify(season.name) or 'season'}-standings.csv", header, rows)


def _cell(text: str, shape: CsvFormat) -> str:
    # Spreadsheets read "−50" and a grouped "1.234,5" as text; the CSV keeps numbers
    # numbers: no grouping, "-", and the file's decimal mark ("1234,5" in German).
    text = text.replace("−", "-")
    if in_source_language():
        text = text.replace(",", "")
        return text.replace(".", shape.decimal)
    for separator in {formats.get_format("THOUSAND_SEPARATOR"), "\xa0", "\u202f"}:
        text = text.replace(separator, "")
    return text.replace(formats.get_format("DECIMAL_SEPARATOR"), shape.decimal)


@login_required
@require_GET
def season_csv(request: HttpRequest, circle_id: int, season_id: int) -> HttpResponse:
    season = get_object_or_404(Season.objects.select_related("circle"), pk=season_id)
    if season.circle_id != circle_id or not permissions.can_view_circle(
        request.user, season.circle
    ):
        raise Http404(_("No season of yours at this address"))
    return _standings_csv(request, season, public=False)


@require_GET
def season_public_csv(request: HttpRequest, token: str) -> HttpResponse:
    season = Season.objects.select_related("circle").filter(view_token=token).first()
    if season is None:
        raise Http404(_("No standings at this link"))
    return _standings_csv(request, season, public=True)


@login_required
@require_GET
def circle_json(request: HttpRequest, circle_id: int) -> StreamingHttpResponse:
    circle = Circle.objects.filter(pk=circle_id).first()
    if circle is None or not permissions.can_manage_circle(request.user, circle):
        raise Http404(_("No circle of yours at this address"))
    # Written as it is read (circles.transfer.export_chunks): the download starts at
    # once, and a large circle never sits whole in the server's memory.
    response = StreamingHttpResponse(
        export_chunks(circle), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(circle.name) or "circle"}.json"'
    )
    response["Cache-Control"] = "no-store"
    return response
