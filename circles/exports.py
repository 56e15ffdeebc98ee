"""Downloads: a season's standings as CSV, a whole circle as JSON."""

from __future__ import annotations

import json

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import formats
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from circles import permissions, selectors, wording
from circles.models import Circle, Season
from circles.transfer import export_circle
from games.csv_export import csv_response
from games.rules.text import in_source_language


def _standings_csv(request: HttpRequest, season: Season, *, public: bool) -> HttpResponse:
    standings = selectors.season_standings(season, include_guests=request.GET.get("guests") == "1")
    header = [_("Game"), _("Place"), _("Player")]
    width = max((len(t["columns"]) for t in wording.tables(standings, public=public)), default=0)
    rows = []
    for table in wording.tables(standings, public=public):
        rows.append([table["title"], "", "", *[c["label"] for c in table["columns"]]])
        for row in [*table["rows"], *table["unranked"]]:
            rows.append(
                [table["title"], row["place"] or "", row["name"], *[_cell(c) for c in row["cells"]]]
            )
    header.extend(_("Column %(n)d") % {"n": n + 1} for n in range(width))
    return csv_response(f"{slugify(season.name) or 'season'}-standings.csv", header, rows)


def _cell(text: str) -> str:
    # Spreadsheets read "−50" as text; the CSV keeps numbers numbers, written the same
    # in every language (no grouping, a decimal point: "1234.5", not German "1.234,5").
    text = text.replace("−", "-")
    if in_source_language():
        return text.replace(",", "")
    for separator in {formats.get_format("THOUSAND_SEPARATOR"), "\xa0", "\u202f"}:
        text = text.replace(separator, "")
    return text.replace(formats.get_format("DECIMAL_SEPARATOR"), ".")


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
    season = Season.objects.filter(view_token=token).first()
    if season is None:
        raise Http404(_("No standings at this link"))
    return _standings_csv(request, season, public=True)


@login_required
@require_GET
def circle_json(request: HttpRequest, circle_id: int) -> HttpResponse:
    circle = Circle.objects.filter(pk=circle_id).first()
    if circle is None or not permissions.can_manage_circle(request.user, circle):
        raise Http404(_("No circle of yours at this address"))
    text = json.dumps(export_circle(circle), ensure_ascii=False, indent=1)
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="{slugify(circle.name) or "circle"}.json"'
    )
    response["Cache-Control"] = "no-store"
    return response
