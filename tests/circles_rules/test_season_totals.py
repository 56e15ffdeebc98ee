"""A season's totals (circles.rules.season_totals): kept up to date one sheet at a time,
they give what adding up every sheet again gives, and what comes back from the
database is checked like any input."""

from __future__ import annotations

import copy
import datetime
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from circles.rules import season_totals
from circles.rules.standings import (
    ClubRules,
    SheetRecord,
    everyone,
    manipulation_standings,
    pitch_standings,
    skat_standings,
)

from .sheets import manipulation_game, pitch_game, skat_seat
from .test_properties import club_rules, manipulation_records, pitch_records, skat_records

FAST = settings(max_examples=60, deadline=None)


@st.composite
def seasons(draw) -> tuple[list[SheetRecord], ClubRules]:
    """Sheets of the three games with ids of their own, and the club's rules."""
    found = []
    for records in (draw(skat_records()), draw(pitch_records()), draw(manipulation_records())):
        for record in records:
            found.append(
                SheetRecord(
                    len(found) + 1, record.game, record.played_on, record.players, record.stats
                )
            )
    return found, draw(club_rules)


def stored(totals: season_totals.Totals) -> season_totals.Totals:
    """As the database gives them back: through JSON."""
    return json.loads(json.dumps(totals))


@FAST
@given(seasons(), st.data())
def test_adding_and_taking_away_sheets_in_any_order_gives_what_adding_up_gives(season, data):
    """A correction to an old sheet, a sheet left out, moved to another season or put
    in the trash takes its old contribution away and adds its new one: the totals are
    then what adding up the sheets that count now gives, in any order."""
    records, rules = season
    totals: season_totals.Totals = {}
    for record in data.draw(st.permutations(records)):
        season_totals.apply(totals, season_totals.contribution(record, rules), 1)
    assert totals == season_totals.of(records, rules)
    gone = data.draw(st.lists(st.sampled_from(records), unique_by=id)) if records else []
    for record in gone:
        season_totals.apply(totals, season_totals.contribution(record, rules), -1)
    rest = [record for record in records if record not in gone]
    assert stored(totals) == stored(season_totals.of(rest, rules))
    for record in data.draw(st.permutations(gone)):
        season_totals.apply(totals, season_totals.contribution(record, rules), 1)
    assert stored(totals) == stored(season_totals.of(records, rules))


@FAST
@given(seasons())
def test_the_tables_from_stored_totals_are_the_tables_from_the_sheets(season):
    """What a write makes from the kept totals, as read back from the database, is the
    table added up from the sheets (circles.rules.standings)."""
    records, rules = season
    totals = season_totals.read(stored(season_totals.of(records, rules)))
    made = season_totals.made_view(totals, rules)
    by_game = {
        "skat": lambda found: skat_standings(found, rules),
        "pitch": pitch_standings,
        "manipulation": manipulation_standings,
    }
    for game, standings in by_game.items():
        found = [record for record in records if record.game == game]
        if not found:
            assert game not in totals
            continue
        assert season_totals.placed(game, made.parts[game], rules, everyone) == standings(found)
    assert made.counted_sheets == len(records)
    assert made.evenings == sorted({record.played_on for record in records})


@FAST
@given(seasons())
def test_the_title_race_bounds_are_counted_from_the_sheets(season):
    """The title race assumes a player can play as many series or games in an evening
    as anyone did so far, and a Skat series as long as the longest so far (36 at
    three, 48 at four; circles.wording.title_race)."""
    records, rules = season
    totals = season_totals.of(records, rules)
    for game, found in totals.items():
        played = [record for record in records if record.game == game]
        per_day: dict[tuple[datetime.date, int], int] = {}
        for record in played:
            for player in record.players:
                per_day[(record.played_on, player)] = per_day.get((record.played_on, player), 0) + 1
        deals = 36
        if game == "skat":
            longest = {48 if record.stats[0]["players"] == 4 else 36 for record in played}
            deals = max([36, *longest, *(record.stats[0]["series_deals"] for record in played)])
        assert season_totals.bounds(game, found) == (max(per_day.values()), deals)


def test_taking_away_what_was_never_added_is_refused():
    rules = ClubRules()
    totals = season_totals.of([], rules)
    game = manipulation_game(1, datetime.date(2025, 3, 1), {1: 0, 2: 30, 3: 45}, rounds=3)
    with pytest.raises(ValueError):
        season_totals.apply(totals, season_totals.contribution(game, rules), -1)


# -- Read back from the database -----------------------------------------------------


def _kept() -> season_totals.Totals:
    day = datetime.date(2025, 3, 1)
    rules = ClubRules(scale=True)
    skat = SheetRecord(
        1,
        "skat",
        day,
        (1, 2, 3),
        tuple(skat_seat(sf, won=2, lost=1, deals=24, players=3) for sf in (900, 300, -100)),
    )
    records = [
        skat,
        pitch_game(2, day, (1, 2, 3, 4), winner="A", hands=9),
        manipulation_game(3, day, {1: 0, 2: 30, 3: 45}, rounds=3),
    ]
    return stored(season_totals.of(records, rules))


def test_what_is_kept_reads_back():
    kept = _kept()
    assert season_totals.read(copy.deepcopy(kept)) == kept
    assert kept["skat"]["players"]["1"]["scaled"], "a short series, scaled by the rules"


DAMAGED = {
    "not an object": lambda kept: [],
    "an unknown game": lambda kept: {**kept, "poker": kept["pitch"]},
    "a missing part": lambda kept: [kept["skat"].pop("deals"), None][1],
    "an extra part": lambda kept: kept["pitch"].update(extra=1),
    "no evenings": lambda kept: kept["pitch"].update(evenings={}),
    "an evening that is no day": lambda kept: kept["pitch"]["evenings"].update({"2025-02-30": 1}),
    "an evening counted as text": lambda kept: kept["pitch"]["evenings"].update(
        {"2025-03-01": "1"}
    ),
    "a count of no sheets": lambda kept: kept["pitch"]["evenings"].update({"2025-03-01": 0}),
    "a player id that is no number": lambda kept: kept["pitch"]["players"].update(
        {"1e3": kept["pitch"]["players"]["1"]}
    ),
    "a player id beyond any": lambda kept: kept["pitch"]["players"].update(
        {"9" * 30: kept["pitch"]["players"]["1"]}
    ),
    "a yes for a number": lambda kept: kept["skat"]["players"]["1"].update(won=True),
    "a fraction for a number": lambda kept: kept["skat"]["players"]["1"].update(won=1.5),
    "a number beyond any": lambda kept: kept["skat"]["players"]["1"].update(lost=10**12),
    "a player without series": lambda kept: kept["skat"]["players"]["1"].update(series=0),
    "series that do not add up": lambda kept: kept["skat"]["players"]["1"].update(series=5),
    "an evening's series out of order": lambda kept: kept["skat"]["players"]["1"]["days"].update(
        {"2025-03-01": [5, 1]}
    ),
    "an evening without series": lambda kept: kept["skat"]["players"]["1"]["days"].update(
        {"2025-03-01": []}
    ),
    "a Seeger-Fabian key that is no number": lambda kept: kept["skat"]["players"]["1"]["sf"].update(
        {"lots": 1}
    ),
    "a scaled series cut short": lambda kept: kept["skat"]["players"]["1"]["scaled"].update(
        {"1": [1, 2]}
    ),
    "games that do not add up": lambda kept: kept["pitch"]["players"]["1"].update(games=4),
    "a partner of text": lambda kept: kept["pitch"]["players"]["1"]["partners"].update(
        {"Ben": [1, 1]}
    ),
    "fewer than no wins": lambda kept: kept["manipulation"]["players"]["1"].update(won=-1),
    "code in a number's place": lambda kept: kept["manipulation"]["players"]["1"].update(
        penalties="__import__('os').system('true')"
    ),
}


@pytest.mark.parametrize("damage", DAMAGED, ids=list(DAMAGED))
def test_damaged_totals_are_refused_with_where(damage):
    kept = _kept()
    changed = DAMAGED[damage](kept)
    with pytest.raises(ValueError, match=r"^totals"):
        season_totals.read(kept if changed is None else changed)


def test_a_stored_contribution_is_checked_too():
    given = {
        **season_totals.contribution(
            pitch_game(2, datetime.date(2025, 3, 1), (1, 2, 3, 4), winner="A", hands=9),
            ClubRules(),
        ),
        "season": 7,
    }
    assert season_totals.read_contribution(stored(given)) == given
    for damaged in (
        {**given, "season": "seven"},
        {**given, "game": "poker"},
        {**given, "day": "yesterday"},
        {**given, "seats": [[1, 1]]},
        {**given, "seats": [[1, True, 9, 1, 1, 0, 0, 0, 5, 3]]},
        {key: value for key, value in given.items() if key != "sheet"},
    ):
        with pytest.raises(ValueError):
            season_totals.read_contribution(damaged)


# -- The view a write keeps for the reads ------------------------------------------------


@FAST
@given(seasons(), st.sets(st.integers(1, 7)))
def test_the_tables_placed_from_the_kept_view_are_the_tables_from_the_sheets(season, left_out):
    """What a read places from the view the last write kept, as read back from the
    database and with some players left out (guests), is the table ranked from the
    sheets: the same places, rows, reasons, progress and title race inputs."""
    records, rules = season

    def include(player: int) -> bool:
        return player not in left_out

    kept = season_totals.read_view(
        stored(season_totals.view(season_totals.of(records, rules), rules))
    )
    by_game = {
        "skat": lambda found: skat_standings(found, rules, include=include),
        "pitch": lambda found: pitch_standings(found, include=include),
        "manipulation": lambda found: manipulation_standings(found, include=include),
    }
    totals = season_totals.of(records, rules)
    for game, standings in by_game.items():
        found = [record for record in records if record.game == game]
        if not found:
            assert game not in kept.parts
            continue
        placed = season_totals.placed(game, kept.parts[game], rules, include)
        assert placed == standings(found)
        assert placed.progress == standings(found).progress
        assert kept.bounds[game] == season_totals.bounds(game, totals[game])
    assert kept.counted_sheets == len(records)
    assert kept.evenings == sorted({record.played_on for record in records})


def _kept_view() -> dict:
    return stored(season_totals.view(_kept(), ClubRules(scale=True)))


DAMAGED_VIEWS = {
    "not an object": lambda kept: [],
    "an unknown game": lambda kept: {**kept, "poker": kept["pitch"]},
    "evenings out of order": lambda kept: kept["skat"].update(
        evenings=["2025-03-08", "2025-03-01"]
    ),
    "a row cut short": lambda kept: [kept["skat"]["players"]["1"]["row"].pop(), None][1],
    "a row with text": lambda kept: kept["pitch"]["players"]["1"]["row"].__setitem__(0, "9"),
    "a float for a count": lambda kept: kept["manipulation"]["players"]["1"]["row"].__setitem__(
        0, 1.5
    ),
    "an unknown reason": lambda kept: kept["pitch"]["players"]["1"]["reasons"].append(
        ["because", {}]
    ),
    "a reason with a number too many": lambda kept: kept["pitch"]["players"]["1"]["reasons"][0][
        1
    ].update(extra=1),
    "a progress a value short": lambda kept: [kept["skat"]["players"]["1"]["progress"].pop(), None][
        1
    ],
    "a progress of text": lambda kept: kept["pitch"]["players"]["1"].update(progress=["1"]),
    "a partner of text": lambda kept: kept["pitch"]["players"]["1"]["partners"].append(
        ["Ben", 1, 1]
    ),
    "series of no count": lambda kept: kept["skat"]["players"]["1"]["series"].__setitem__(0, 0),
    "no sheets": lambda kept: kept["pitch"].update(sheets=0),
}


@pytest.mark.parametrize("damage", DAMAGED_VIEWS, ids=list(DAMAGED_VIEWS))
def test_a_damaged_view_is_refused_with_where(damage):
    kept = _kept_view()
    season_totals.read_view(copy.deepcopy(kept))  # as kept, it reads
    changed = DAMAGED_VIEWS[damage](kept)
    with pytest.raises(ValueError, match=r"^view"):
        season_totals.read_view(kept if changed is None else changed)
