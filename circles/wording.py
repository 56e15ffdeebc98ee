"""Standings in words: the tables' columns and cells, why each player stands where
they do, the club rules, the title race and the corrections, all translatable.

The engine (``circles.rules``) returns numbers and reason codes; here they become
sentences with ``gettext``, so the standings read in the table's own language.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils import formats
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from circles.models import Player
from circles.rules.standings import (
    ClubRules,
    ManipulationStandings,
    PitchStandings,
    Reason,
    SkatStandings,
)
from circles.rules.standings import (
    title_race as race_of,
)
from circles.selectors import SeasonStandings, evenings_left
from games.games import GAMES
from games.rules.skat import contract_named
from games.rules.text import in_source_language
from games.rules.words import joined
from scorekeeper.rounding import percent as rounded_percent
from scorekeeper.rounding import rounded

MINUS = "−"


def number(value: float, decimals: int = 0) -> str:
    """``1,234`` / ``−50`` / ``812.5``: thousands grouped, a real minus sign; in other
    languages grouped as they group digits (``1.234`` and ``812,5`` in German).
    Rounded half away from zero (``36.25`` → ``36.3``; scorekeeper.rounding)."""
    if not decimals and (type(value) is int or (type(value) is float and value.is_integer())):
        # A whole number (most of a chart's and a table's): nothing to round.
        whole = int(value)
        if in_source_language():
            shown = f"{abs(whole):,}"
        else:
            shown = formats.number_format(abs(whole), decimal_pos=0, force_grouping=True)
        return f"{MINUS}{shown}" if whole < 0 else shown
    shown_value = rounded(abs(value), decimals)
    negative = value < 0 and shown_value != 0
    if not in_source_language():
        shown = formats.number_format(shown_value, decimal_pos=decimals, force_grouping=True)
    else:
        shown = f"{shown_value:,.{decimals}f}"
    return f"{MINUS}{shown}" if negative else shown


def percent(rate: float) -> str:
    """A share as whole per cent, half away from zero (0.625 → ``63%``)."""
    return f"{rounded_percent(rate)}%"


def day(value: Any) -> str:
    # Translators: how the circle pages write a day, in the letters of Django's date
    # filter (English "1 Dec 2026"). German "j. F Y" writes "1. Dezember 2026",
    # Esperanto "j\-\a \d\e F Y" writes "1-a de decembro 2026".
    return date_format(value, _("j M Y"))


def short_day(value: Any) -> str:
    # Translators: a day in a table's narrow column (a player's history), in the
    # letters of Django's date filter: English "1 Dec 2026"; German and Esperanto
    # "j.n.Y" write "1.12.2026".
    return date_format(value, pgettext("short day", "j M Y"))


class Names:
    """Player ids to names: inside the circle the full name, outside it as each
    player chose (full, first name, initials)."""

    def __init__(self, players: Mapping[int, Player], *, public: bool) -> None:
        self.players = players
        self.public = public

    def __call__(self, player_id: int) -> str:
        player = self.players.get(player_id)
        if player is None:
            return _("a former player")
        return player.public_name() if self.public else player.shown_name()

    def url(self, player_id: int) -> str | None:
        player = self.players.get(player_id)
        return None if self.public or player is None else player.get_absolute_url()


# -- Reasons --------------------------------------------------------------------------------


def reason(item: Reason, names: Names) -> str:
    """One sentence for one of the engine's reason codes."""
    p = item.params
    other = names(p["other"]) if "other" in p else ""
    code = item.code
    if code == "ranked_by_total":
        return ngettext(
            "Ranked by Seeger-Fabian total: %(value)s from %(counted)d series counted "
            "(of %(series)d played).",
            "Ranked by Seeger-Fabian total: %(value)s from %(counted)d series counted "
            "(of %(series)d played).",
            p["counted"],
        ) % {"value": number(p["value"]), "counted": p["counted"], "series": p["series"]}
    if code == "ranked_by_average":
        return _(
            "Ranked by average per series: %(value)s (%(total)s over %(counted)d series "
            "counted, of %(series)d played)."
        ) % {
            "value": number(p["value"], 1),
            "total": number(p["total"]),
            "counted": p["counted"],
            "series": p["series"],
        }
    if code == "scaled":
        return _("A series of %(deals)d deals counts as %(norm)d: %(sf)s becomes %(scaled)s.") % {
            "deals": p["deals"],
            "norm": p["norm"],
            "sf": number(p["sf"]),
            "scaled": number(p["scaled"]),
        }
    if code == "dropped":
        return ngettext(
            "The worst series was dropped (%(values)s).",
            "The %(count)d worst series were dropped (%(values)s).",
            p["count"],
        ) % {"count": p["count"], "values": ", ".join(number(v) for v in p["values"])}
    if code == "missed_zero":
        return ngettext(
            "%(evenings)d evening missed, counted as a series of 0.",
            "%(evenings)d evenings missed, each counted as a series of 0.",
            p["evenings"],
        ) % {"evenings": p["evenings"]}
    if code == "missed_ignored":
        return ngettext(
            "%(evenings)d evening missed, which does not count.",
            "%(evenings)d evenings missed, which do not count.",
            p["evenings"],
        ) % {"evenings": p["evenings"]}
    if code == "below_minimum":
        return _("Not ranked: %(series)d of the %(minimum)d series needed to be ranked.") % {
            "series": p["series"],
            "minimum": p["minimum"],
        }
    if code == "tie_games_won":
        return _(
            "Level with %(other)s; ahead or behind on games won as declarer "
            "(%(won)d to %(other_won)d)."
        ) % {"other": other, "won": p["won"], "other_won": p["other_won"]}
    if code == "tie_games_lost":
        return _(
            "Level with %(other)s on value and games won; told apart by fewer games lost "
            "(%(lost)d to %(other_lost)d)."
        ) % {"other": other, "lost": p["lost"], "other_lost": p["other_lost"]}
    if code == "ranked_by_wins":
        return ngettext(
            "Ranked by games won: %(won)d of %(games)d.",
            "Ranked by games won: %(won)d of %(games)d.",
            p["games"],
        ) % {"won": p["won"], "games": p["games"]}
    if code == "tie_win_rate":
        return _(
            "Level with %(other)s on wins; told apart by the share won (%(rate)s of "
            "%(games)d games against %(other_rate)s of %(other_games)d)."
        ) % {
            "other": other,
            "rate": percent(p["win_rate"]),
            "games": p["games"],
            "other_rate": percent(p["other_win_rate"]),
            "other_games": p["other_games"],
        }
    if code == "tie_avg_penalty":
        return _(
            "Level with %(other)s on wins; told apart by fewer penalty points per round "
            "(%(mine)s against %(theirs)s)."
        ) % {
            "other": other,
            "mine": number(p["avg_penalty"], 1),
            "theirs": number(p["other_avg_penalty"], 1),
        }
    if code == "tie_shared":
        return _("Level with %(other)s on everything: they share place %(place)d.") % {
            "other": other,
            "place": p["place"],
        }
    raise ValueError(f"No wording for the reason {code!r}.")


# -- The club rules -------------------------------------------------------------------------


def club_rules(rules: ClubRules) -> list[str]:
    """Each of the season's Skat club rules in a sentence."""
    lines = [
        _("Ranked by the Seeger-Fabian total of every series counted.")
        if rules.rank_by == "total"
        else _("Ranked by the average Seeger-Fabian per series counted.")
    ]
    if rules.scale:
        lines.append(
            _(
                "Series of other lengths are scaled to 36 deals (48 at a table of four, 60 "
                "at five), so every evening weighs the same; each scaled series is rounded to whole "
                "points, a half away from zero (10.5 to 11, −10.5 to −11)."
            )
        )
    if rules.min_series:
        lines.append(
            ngettext(
                "At least %(count)d series to be ranked; players with fewer are listed apart.",
                "At least %(count)d series to be ranked; players with fewer are listed apart.",
                rules.min_series,
            )
            % {"count": rules.min_series}
        )
    if rules.drop_worst:
        lines.append(
            ngettext(
                "Each player's worst series is dropped.",
                "Each player's %(count)d worst series are dropped.",
                rules.drop_worst,
            )
            % {"count": rules.drop_worst}
        )
    lines.append(
        _("An evening a player missed counts as a series of 0.")
        if rules.missed == "zero"
        else _("An evening a player missed does not count.")
    )
    lines.append(
        _(
            "Seeger-Fabian per series: list points, +50 for every game won as declarer, −50 for "
            "every one lost, +40 (30 at four, 24 at five) for every game another declarer lost."
        )
    )
    lines.append(_("Ties: more games won as declarer, then fewer lost."))
    return lines


# -- Tables ---------------------------------------------------------------------------------


def _column(label: str, title: str = "", note: str = "") -> dict[str, str]:
    """A standings column: its short label, its full name (the label's tooltip), and
    what it holds where the name alone does not say (the legend under the table)."""
    return {"label": label, "title": title, "note": note}


def _ranked_note(rules: ClubRules) -> str:
    """What the Skat table's first column holds, and why it can differ from the plain
    Seeger-Fabian columns beside it."""
    what = (
        _(
            "What ranks: the Seeger-Fabian points of the series that count, added up as the "
            "club rules above say."
        )
        if rules.rank_by == "total"
        else _(
            "What ranks: the average Seeger-Fabian per series that counts, as the club rules "
            "above say."
        )
    )
    if rules.scale:
        return " ".join(
            (
                what,
                _(
                    "Series of other lengths count scaled to 36 deals (48 at four, 60 at five) "
                    "here, so it can differ much from the S-F columns, which show every series "
                    "as played."
                ),
            )
        )
    if rules.drop_worst or rules.missed == "zero":
        return " ".join(
            (what, _("It can differ from the S-F columns, which show every series as played."))
        )
    return what


def legend(table: Mapping[str, Any]) -> list[dict[str, str]]:
    """Each abbreviated column of a table with what it means, to show under it (a
    tooltip is out of reach on a phone)."""
    return [
        {"label": column["label"], "text": column["note"] or column["title"]}
        for column in table["columns"]
        if column["note"] or column["title"]
    ]


def _row(row: Any, names: Names, cells: Sequence[str]) -> dict[str, Any]:
    return {
        "player": row.player,
        "place": row.place,
        "name": names(row.player),
        "url": names.url(row.player),
        "cells": list(cells),
        "reasons": [reason(item, names) for item in row.reasons],
    }


def _skat_cells(row: Any, rules: ClubRules) -> list[str]:
    ranked = number(row.value, 1) if rules.rank_by == "average" else number(row.value)
    return [
        ranked,
        str(row.series),
        str(row.declared),
        str(row.won),
        str(row.lost),
        number(row.list_points),
        number(row.sf_total),
        number(row.sf_average, 1),
        number(row.best_series),
    ]


def skat_table(table: SkatStandings, names: Names) -> dict[str, Any]:
    rules = table.rules
    return {
        "game": "skat",
        "title": GAMES["skat"].name,
        "rules": club_rules(rules),
        "columns": [
            _column(
                pgettext("standings column", "Total")
                if rules.rank_by == "total"
                else pgettext("standings column", "Avg."),
                _("Ranked value"),
                _ranked_note(rules),
            ),
            _column(pgettext("standings column", "Series")),
            _column(pgettext("standings column", "Decl."), _("Games as declarer")),
            _column(pgettext("standings column", "Won")),
            _column(pgettext("standings column", "Lost")),
            _column(pgettext("standings column", "List"), _("List points")),
            _column(
                pgettext("standings column", "S-F"),
                _("Seeger-Fabian total"),
                _("Seeger-Fabian total of every series as played: not scaled, none dropped."),
            ),
            _column(
                pgettext("standings column", "S-F avg."),
                _("Seeger-Fabian average per series"),
                _("Seeger-Fabian average per series as played: not scaled, none dropped."),
            ),
            _column(
                pgettext("standings column", "Best"),
                _("Best series"),
                _("The best single series, as played."),
            ),
        ],
        "rows": [_row(row, names, _skat_cells(row, rules)) for row in table.ranked],
        "unranked": [_row(row, names, _skat_cells(row, rules)) for row in table.unranked],
        "partners": [],
    }


def pitch_table(table: PitchStandings, names: Names) -> dict[str, Any]:
    partners = []
    for row in table.ranked:
        for partner, games, won in row.partners:
            partners.append(
                ngettext(
                    "%(name)s with %(partner)s: won %(won)d of %(games)d game.",
                    "%(name)s with %(partner)s: won %(won)d of %(games)d games.",
                    games,
                )
                % {"name": names(row.player), "partner": names(partner), "won": won, "games": games}
            )
    return {
        "game": "pitch",
        "title": GAMES["pitch"].name,
        "rules": [
            _("Ranked by games won; equal wins by the share of games won."),
            _("Partners change from game to game: each player is credited with the team's result."),
        ],
        "columns": [
            _column(pgettext("standings column", "Won")),
            _column(pgettext("standings column", "Games")),
            _column(pgettext("standings column", "Win %"), _("Share of games won")),
            _column(pgettext("standings column", "Bids"), _("Hands bid")),
            _column(pgettext("standings column", "Made %"), _("Bids made")),
            _column(pgettext("standings column", "Set"), _("Times set")),
            _column(pgettext("standings column", "Moon"), _("Moon made of tried")),
            _column(pgettext("standings column", "Points"), _("Points taken by the team")),
        ],
        "rows": [
            _row(
                row,
                names,
                [
                    str(row.won),
                    str(row.games),
                    percent(row.win_rate),
                    str(row.bids),
                    percent(row.made_rate) if row.bids else "–",
                    str(row.sets),
                    # Not "1/1": a spreadsheet opens that cell of the CSV as a date.
                    _("%(made)s of %(tried)s") % {"made": row.moon_made, "tried": row.moon}
                    if row.moon
                    else "–",
                    number(row.points_taken),
                ],
            )
            for row in table.ranked
        ],
        "unranked": [],
        "partners": partners,
    }


def manipulation_table(table: ManipulationStandings, names: Names) -> dict[str, Any]:
    return {
        "game": "manipulation",
        "title": GAMES["manipulation"].name,
        "rules": [
            _(
                "Ranked by games won (a shared win counts); equal wins by fewer penalty points "
                "per round."
            )
        ],
        "columns": [
            _column(pgettext("standings column", "Won")),
            _column(pgettext("standings column", "Games")),
            _column(pgettext("standings column", "Rounds")),
            _column(pgettext("standings column", "Out first"), _("Rounds gone out first")),
            _column(
                pgettext("standings column", "Penalty/round"), _("Average penalty points per round")
            ),
        ],
        "rows": [
            _row(
                row,
                names,
                [
                    str(row.won),
                    str(row.games),
                    str(row.rounds),
                    str(row.went_out),
                    number(row.avg_penalty, 1),
                ],
            )
            for row in table.ranked
        ],
        "unranked": [],
        "partners": [],
    }


def tables(standings: SeasonStandings, *, public: bool) -> list[dict[str, Any]]:
    names = Names(standings.players, public=public)
    made = []
    for game, table in standings.tables.items():
        if game == "skat":
            made.append(skat_table(table, names))
        elif game == "pitch":
            made.append(pitch_table(table, names))
        else:
            made.append(manipulation_table(table, names))
    for found in made:
        found["legend"] = legend(found)
    return made


# -- The title race -------------------------------------------------------------------------


def title_race(standings: SeasonStandings, *, public: bool) -> dict[str, list[str]]:
    """Per game: who leads, what the nearest rivals need over the evenings left, or
    that the title is decided."""
    races: dict[str, list[str]] = {}
    names = Names(standings.players, public=public)
    # The evenings the season plans, less those played at any game: a Pitch table
    # sees the Skat evenings go by too.
    left = evenings_left(standings.season, standings.evenings)
    for game, table in standings.tables.items():
        per_evening, deals = standings.bounds[game]
        race = race_of(table, evenings_left=left, per_evening=per_evening, series_deals=deals)
        if not race.leaders:
            continue
        count = len(race.leaders)
        leader = str(joined([names(player) for player in race.leaders]))
        if race.decided:
            if count > 1:
                races[game] = [_("%(leaders)s share the title.") % {"leaders": leader}]
            elif left == 0:
                races[game] = [_("%(leader)s wins the season.") % {"leader": leader}]
            else:
                races[game] = [
                    _("The title is decided: nobody can catch %(leader)s any more.")
                    % {"leader": leader}
                ]
            continue
        if count > 1:
            lead = ngettext(
                "%(leaders)s share the lead with %(evenings)d evening to go.",
                "%(leaders)s share the lead with %(evenings)d evenings to go.",
                left,
            ) % {"leaders": leader, "evenings": left}
        else:
            lead = ngettext(
                "%(leader)s leads with %(evenings)d evening to go.",
                "%(leader)s leads with %(evenings)d evenings to go.",
                left,
            ) % {"leader": leader, "evenings": left}
        lines = [lead]
        lines.extend(
            _chase_line(race.measure, chase, names(chase.rival), leader, count, left)
            for chase in race.rivals
        )
        lines.append(
            _(
                "The title is decided after the last evening, on %(day)s at the latest; "
                "sooner if no rival can catch up any more."
            )
            % {"day": day(standings.season.ends_on)}
        )
        races[game] = lines
    return races


def _chase_line(measure: str, chase: Any, rival: str, leader: str, count: int, left: int) -> str:
    """What one rival needs to pass the leader(s), who are assumed not to play again."""
    words = {"rival": rival, "leader": leader}
    if not chase.possible:
        return (
            ngettext(
                "%(rival)s cannot pass %(leader)s any more, even if %(leader)s does not play "
                "again.",
                "%(rival)s cannot pass %(leader)s any more, even if they do not play again.",
                count,
            )
            % words
        )
    evenings = ngettext("in the last evening", "over the remaining %(count)d evenings", left) % {
        "count": left
    }
    if measure == "wins":
        if chase.without_loss:
            wins = ngettext(
                "%(count)d win without a loss", "%(count)d wins without a loss", chase.needed
            ) % {"count": chase.needed}
        else:
            wins = ngettext("%(count)d win", "%(count)d wins", chase.needed) % {
                "count": chase.needed
            }
        return ngettext(
            "%(rival)s needs %(wins)s %(evenings)s to pass %(leader)s, if %(leader)s does "
            "not play again.",
            "%(rival)s needs %(wins)s %(evenings)s to pass %(leader)s, if they do not play again.",
            count,
        ) % {**words, "wins": wins, "evenings": evenings}
    series = ngettext(
        "one series of %(points)s Seeger-Fabian points or more",
        "%(count)d series of %(points)s Seeger-Fabian points or more each",
        chase.series,
    ) % {"count": chase.series, "points": number(chase.needed)}
    return ngettext(
        "%(rival)s needs %(series)s %(evenings)s to pass %(leader)s, if %(leader)s does "
        "not play again.",
        "%(rival)s needs %(series)s %(evenings)s to pass %(leader)s, if they do not play again.",
        count,
    ) % {**words, "series": series, "evenings": evenings}


# -- Corrections ----------------------------------------------------------------------------


CHANGE_WORDS = {
    "corrected": lambda n: _("deal %(number)d was corrected") % {"number": n},
    "removed": lambda n: _("deal %(number)d was removed") % {"number": n},
    "restored": lambda n: _("deal %(number)d was brought back") % {"number": n},
    "excluded": lambda n: _("the sheet was marked as a practice game"),
    "included": lambda n: _("the sheet counts again"),
    "deleted": lambda n: _("the sheet was moved to the trash"),
    "undeleted": lambda n: _("the sheet was brought back from the trash"),
}
# A game that counts rounds (Manipulation) names a round as its sheet does.
ROUND_CHANGE_WORDS = {
    **CHANGE_WORDS,
    "corrected": lambda n: _("round %(number)d was corrected") % {"number": n},
    "removed": lambda n: _("round %(number)d was removed") % {"number": n},
    "restored": lambda n: _("round %(number)d was brought back") % {"number": n},
}


def changes(
    standings: SeasonStandings, *, public: bool, include_guests: bool = False
) -> list[dict[str, str]]:
    """The corrections to finished sheets, newest first; guests' numbers only when the
    standings show guests."""
    names = Names(standings.players, public=public)
    lines = []
    for change in standings.changes:
        entry = GAMES.get(change.game)
        rounds = entry is not None and entry.counts_rounds
        words = (ROUND_CHANGE_WORDS if rounds else CHANGE_WORDS).get(change.change)
        what = words(change.number or 0) if words else change.change
        moves = []
        for move in change.moves:
            player = standings.players.get(move["player"])
            if player is not None and player.guest and not include_guests:
                continue
            name = names(move["player"])
            before = "–" if move["before"] is None else number(move["before"])
            after = "–" if move["after"] is None else number(move["after"])
            moves.append(f"{name} {before} → {after}")
        if not moves:
            continue
        lines.append(
            {
                "when": day(change.at),
                "text": _("%(game)s sheet of %(played)s: %(what)s. %(moves)s")
                % {
                    "game": GAMES[change.game].name if change.game in GAMES else change.game,
                    "played": day(change.played_on),
                    "what": what,
                    "moves": "; ".join(moves),
                },
            }
        )
    return lines


# -- A player's record ----------------------------------------------------------------------

GAME_TYPES = {
    "clubs": gettext_lazy("Clubs"),
    "spades": gettext_lazy("Spades"),
    "hearts": gettext_lazy("Hearts"),
    "diamonds": gettext_lazy("Diamonds"),
    "grand": gettext_lazy("Grand"),
    "null": gettext_lazy("Null"),
    # Games entered by their value alone, as a paper list writes them: no contract.
    "by_value": gettext_lazy("Games entered by value"),
}


def _rate(won: int, played: int) -> str:
    # A no-break space: "1/1 (100%)" is never split over two lines.
    return f"{won}/{played}\u00a0({percent(won / played)})" if played else "–"


def profile(found: Any, names: Names) -> dict[str, Any]:
    """A player page's statistics as labelled values, per game."""
    sections = []
    if found.skat is not None:
        skat = found.skat
        facts = [
            (_("Series played"), str(skat.sheets)),
            (_("Series won (first at the table)"), str(skat.won)),
            (_("Games as declarer, won"), _rate(skat.games_won, skat.declared)),
        ]
        for game_type, (played, won) in skat.by_type.items():
            facts.append(
                (
                    _("%(game)s as declarer, won") % {"game": GAME_TYPES.get(game_type, game_type)},
                    _rate(won, played),
                )
            )
        facts.append((_("Average game value"), number(skat.average_value, 1)))
        facts.append((_("Overbid games"), str(skat.overbid)))
        if skat.biggest is not None:
            facts.append(
                (
                    _("Biggest game"),
                    _("%(game)s, %(score)s, deal %(deal)d on %(day)s")
                    % {
                        # Kept by its English name: shown as the reader names it.
                        "game": contract_named(skat.biggest.game),
                        "score": number(skat.biggest.score),
                        "deal": skat.biggest.deal,
                        "day": day(skat.biggest.played_on),
                    },
                )
            )
        facts.append((_("As defender, declarer beaten"), _rate(skat.defended_won, skat.defended)))
        sections.append({"game": "skat", "title": GAMES["skat"].name, "facts": facts})
    if found.pitch is not None:
        pitch = found.pitch
        facts = [
            (_("Games played"), str(pitch.sheets)),
            (_("Games won"), _rate(pitch.won, pitch.sheets)),
            (_("Bids made"), _rate(pitch.made, pitch.bids)),
        ]
        for bid, (bids, made) in pitch.by_bid.items():
            label = _("Moon made") if bid == "moon" else _("Bid %(bid)s made") % {"bid": bid}
            facts.append((label, _rate(made, bids)))
        facts.append((_("Moon shots made"), f"{pitch.moon_made}/{pitch.moon}"))
        sections.append({"game": "pitch", "title": GAMES["pitch"].name, "facts": facts})
    if found.manipulation is not None:
        manipulation = found.manipulation
        facts = [
            (_("Games played"), str(manipulation.sheets)),
            (_("Games won"), _rate(manipulation.won, manipulation.sheets)),
            (_("Rounds gone out first"), _rate(manipulation.went_out, manipulation.rounds)),
            (
                _("Penalty points per round"),
                number(manipulation.penalties / manipulation.rounds, 1)
                if manipulation.rounds
                else "–",
            ),
        ]
        sections.append(
            {"game": "manipulation", "title": GAMES["manipulation"].name, "facts": facts}
        )
    head_to_head = [
        {
            "name": names(item.other),
            "url": names.url(item.other),
            "game": GAMES[item.game].name,
            "text": _h2h(item),
        }
        for item in found.head_to_head
    ]
    return {"sections": sections, "head_to_head": head_to_head}


class History(Sequence[dict[str, Any]]):
    """A player's sheets, the latest first, worded as they are read: the page shows 30
    at a time of the thousands a player of years has, and wording them all took as long
    as adding up the record (bench/bench_standings.py)."""

    def __init__(self, entries: Sequence[Any]) -> None:
        self.entries = entries

    def __len__(self) -> int:
        return len(self.entries)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [_history_item(item) for item in self.entries[index]]
        return _history_item(self.entries[index])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, History) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]


def _history_item(item: Any) -> dict[str, Any]:
    return {
        "day": short_day(item.played_on),
        "game": GAMES[item.game].name,
        "place": item.place,
        "headline": number(item.headline),
    }


def _h2h(item: Any) -> str:
    text = ngettext(
        "%(shared)d table together: ahead %(ahead)d, behind %(behind)d",
        "%(shared)d tables together: ahead %(ahead)d, behind %(behind)d",
        item.shared,
    ) % {"shared": item.shared, "ahead": item.ahead, "behind": item.behind}
    if item.partnered:
        partners = ngettext(
            "%(count)d game as partners", "%(count)d games as partners", item.partnered
        ) % {"count": item.partnered}
        # Translators: a head-to-head line, then how many of those games the two
        # played as partners: "5 tables together: ahead 2, behind 1 (2 games as partners)".
        text = _("%(tables)s (%(partners)s)") % {"tables": text, "partners": partners}
    return text
