"""The title race in words: the season's evenings left, a shared lead, and what a
rival needs, said the same way in English, German and Esperanto."""

from __future__ import annotations

import datetime

from django.utils import translation

from circles import wording
from circles.models import Player, Season
from circles.rules import season_totals
from circles.rules.standings import ClubRules, pitch_standings, skat_standings
from circles.selectors import SeasonStandings
from tests.circles_rules.sheets import pitch_game, skat, skat_seat

DAYS = tuple(datetime.date(2025, 3, day) for day in (1, 8, 15, 22, 29))


def names(*pairs: tuple[int, str]) -> dict[int, Player]:
    return {pk: Player(pk=pk, name=name, shown_as=Player.FULL) for pk, name in pairs}


def standings(season: Season, skat_records=(), pitch_records=(), rules=None) -> SeasonStandings:
    rules = rules or ClubRules()
    tables = {}
    if skat_records:
        tables["skat"] = skat_standings(skat_records, rules)
    if pitch_records:
        tables["pitch"] = pitch_standings(pitch_records)
    players = names((1, "Klaus"), (2, "Anke"), (3, "Olga"), (4, "Max"), (5, "Nina"))
    # The season's evenings and the race's bounds, as the page takes them from the totals.
    view = season_totals.made_view(season_totals.of([*skat_records, *pitch_records], rules), rules)
    return SeasonStandings(
        season,
        players,
        tables,
        changes=[],
        open_sheets=0,
        counted_sheets=view.counted_sheets,
        evenings=tuple(view.evenings),
        bounds=dict(view.bounds),
    )


def future_season(planned: int) -> Season:
    today = datetime.date.today()
    return Season(
        name="Spring",
        starts_on=today - datetime.timedelta(days=60),
        ends_on=today + datetime.timedelta(days=60),
        planned_evenings=planned,
    )


def test_evenings_left_are_the_seasons_not_one_games():
    # Four evenings planned, four played: Skat on every one, Pitch on the first only.
    # Nothing is left for Pitch either: its title is decided (Klaus and Olga won the
    # only game), not open with three evenings to go.
    skat_records = [
        skat(n, day, {1: skat_seat(900), 2: skat_seat(100), 3: skat_seat(0)})
        for n, day in enumerate(DAYS[:4], start=1)
    ]
    pitch_records = [pitch_game(10, DAYS[0], (1, 2, 3, 4), winner="A")]
    race = wording.title_race(
        standings(future_season(4), skat_records, pitch_records), public=False
    )
    assert race["pitch"] == ["Klaus and Olga share the title."]
    assert race["skat"] == ["Klaus wins the season."]


def test_a_shared_lead_names_both_leaders():
    records = [skat(1, DAYS[0], {1: skat_seat(500), 2: skat_seat(500), 3: skat_seat(100)})]
    lines = wording.title_race(standings(future_season(3), records), public=False)["skat"]
    assert lines[0] == "Klaus and Anke share the lead with 2 evenings to go."
    assert lines[1] == (
        "Olga needs 2 series of 201 Seeger-Fabian points or more each over the remaining "
        "2 evenings to pass Klaus and Anke, if they do not play again."
    )


def test_what_a_rival_needs_says_what_it_means_in_every_language():
    # Klaus 1000, Anke 900 in one series each, two evenings left: 2 × 51 = 102 > 100.
    records = [skat(1, DAYS[0], {1: skat_seat(1000), 2: skat_seat(900), 3: skat_seat(0)})]
    season = standings(future_season(3), records)
    expected = {
        "en": "Anke needs 2 series of 51 Seeger-Fabian points or more each over the "
        "remaining 2 evenings to pass Klaus, if Klaus does not play again.",
        "de": "Anke braucht an den restlichen 2 Abenden 2 Serien mit je mindestens 51 "
        "Seeger-Fabian-Punkten, um an Klaus vorbeizuziehen, falls Klaus nicht mehr spielt.",
        "eo": "Anke bezonas 2 seriojn kun po almenaŭ 51 Seeger-Fabian-poentoj dum la "
        "restantaj 2 vesperoj por preterpasi Klaus, se Klaus ne plu ludas.",
    }
    for language, sentence in expected.items():
        with translation.override(language):
            assert wording.title_race(season, public=False)["skat"][1] == sentence


def test_the_club_rules_say_how_a_scaled_series_is_rounded():
    rules = ClubRules(scale=True)
    expected = {
        "en": "each scaled series is rounded to whole points, a half away from zero "
        "(10.5 to 11, −10.5 to −11).",
        "de": "jede hochgerechnete Serie wird auf ganze Punkte gerundet, eine Hälfte von "
        "null weg (10,5 auf 11, −10,5 auf −11).",
        "eo": "ĉiu skalita serio estas rondigita al tutaj poentoj, duono for de nulo "
        "(10,5 al 11, −10,5 al −11).",
    }
    for language, ending in expected.items():
        with translation.override(language):
            assert wording.club_rules(rules)[1].endswith(ending)
