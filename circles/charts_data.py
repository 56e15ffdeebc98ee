"""The standings and player charts: the numbers the pages chart, as SVG from
``games.charts`` (drawn on the server, readable on a phone and in dark mode)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from circles.models import Player
from circles.rules.profile import Profile
from circles.selectors import SeasonStandings
from circles.wording import Names, number
from games.charts import Series, data_rows, line_chart
from games.games import GAMES


def _day_format() -> str:
    # Translators: a chart's short day label, in the letters of Django's date filter
    # (English "1 Dec"); German and Esperanto "j.n." write "1.12.".
    return _("j M")


# A season chart shows so many evenings at most: a long season's are spread out, the
# first and the latest always among them (a line of hundreds of points says nothing on a
# phone, and would weigh the page down).
CHART_EVENINGS = 30

T = TypeVar("T")


def spread(items: Sequence[T], most: int) -> Sequence[T]:
    """``items`` as they are, or ``most`` of them spread evenly from the first to the
    last."""
    if len(items) <= most:
        return items
    last = len(items) - 1
    return [items[round(i * last / (most - 1))] for i in range(most)]


def season_charts(standings: SeasonStandings, *, public: bool) -> list[dict[str, Any]]:
    """Each game's standings evening by evening: the ranked value after each evening."""
    names = Names(standings.players, public=public)
    charts = []
    for game, table in standings.tables.items():
        if not table.progress:
            continue
        players = [row.player for row in table.ranked] + [
            row.player for row in getattr(table, "unranked", ())
        ]
        progress = spread(table.progress, CHART_EVENINGS)
        x_labels = [date_format(day, _day_format()) for day, _values in progress]
        series = [
            Series(names(player), tuple(values.get(player) for _day, values in progress))
            for player in players
        ]
        if game == "skat":
            measure = (
                _("Seeger-Fabian average per series")
                if table.rules.rank_by == "average"
                else _("Seeger-Fabian total")
            )
        else:
            measure = _("Games won")
        title = _("%(game)s: %(measure)s after each evening") % {
            "game": GAMES[game].name,
            "measure": measure,
        }
        charts.append(
            {
                "game": game,
                "svg": line_chart(
                    title=title,
                    description=(
                        _("One line per player, one point per evening.")
                        if len(progress) == len(table.progress)
                        else _(
                            "One line per player; %(shown)s of the %(evenings)s evenings, "
                            "spread over the season, the first and the latest among them."
                        )
                        % {"shown": number(len(progress)), "evenings": number(len(table.progress))}
                    ),
                    x_labels=x_labels,
                    series=series,
                    y_label=measure,
                    number_format=number,
                    chart_id=f"season-{game}",
                ),
                "caption": title,
                "rows": data_rows(x_labels, series, number_format=number, x_heading=_("Evening")),
            }
        )
    return charts


HEADLINES = {
    "skat": gettext_lazy("Seeger-Fabian of the series"),
    "pitch": gettext_lazy("The team's total"),
    "manipulation": gettext_lazy("Penalty points"),
}


# A player chart shows the latest sheets of a game, so many: a line of thousands of
# points says nothing on a phone (and would weigh the page down).
CHART_SHEETS = 50


def player_charts(profile: Profile, player: Player) -> list[dict[str, Any]]:
    """Per game the player played at least twice: their number at each table, sheet by
    sheet (Seeger-Fabian for Skat, the team's total for Pitch, penalties for
    Manipulation), the latest ``CHART_SHEETS`` sheets."""
    charts = []
    for game, entry in GAMES.items():
        # The profile's history may hold only the latest sheets of each game
        # (circles.player_totals): how many were played, its game's statistics say.
        found = getattr(profile, game)
        played = found.sheets if found is not None else 0
        if played < 2:
            continue
        history = [item for item in profile.history if item.game == game][-CHART_SHEETS:]
        x_labels = [date_format(item.played_on, _day_format()) for item in history]
        measure = str(HEADLINES[game])
        if played > len(history):
            title = _("%(name)s at %(game)s, the latest %(count)s of %(played)s sheets") % {
                "name": player.name,
                "game": entry.name,
                "count": number(len(history)),
                "played": number(played),
            }
        else:
            title = _("%(name)s at %(game)s, sheet by sheet") % {
                "name": player.name,
                "game": entry.name,
            }
        charts.append(
            {
                "game": game,
                "svg": line_chart(
                    title=title,
                    description=measure,
                    x_labels=x_labels,
                    series=[Series(player.name, tuple(float(i.headline) for i in history))],
                    y_label=measure,
                    number_format=number,
                    chart_id=f"player-{game}",
                ),
                "caption": title,
            }
        )
    return charts
