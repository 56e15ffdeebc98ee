"""A player's totals (circles.rules.profile): what each sheet adds to the record of
each player at its table, kept up to date one sheet at a time, gives the player page
what adding up every sheet again gives; what comes back from the database is checked
like any input."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from circles.rules import profile
from circles.rules.contributions import SKAT_GAME_TYPES
from circles.rules.standings import SheetRecord

from .sheets import JAN_10, manipulation_game, pitch_game
from .test_properties import DAYS, manipulation_records, pitch_records, skat_records

FAST = settings(max_examples=60, deadline=None)


@st.composite
def skat_details(draw, seat: dict) -> dict:
    """A Skat seat with the numbers the player page reads: game types, values, the
    biggest game won, the games defended."""
    won, lost = seat["won"], seat["lost"]
    types = draw(
        st.lists(st.sampled_from(SKAT_GAME_TYPES), min_size=won + lost, max_size=won + lost)
    )
    by_type: dict[str, list[int]] = {}
    for index, game_type in enumerate(types):
        line = by_type.setdefault(game_type, [0, 0])
        line[0] += 1
        line[1] += index < won
    score = draw(st.integers(18, 264))
    defended = draw(st.integers(0, 20))
    return {
        **seat,
        "by_type": {key: by_type[key] for key in SKAT_GAME_TYPES if key in by_type},
        "value_sum": draw(st.integers(0, 48)) * (won + lost),
        "overbid": draw(st.integers(0, lost)),
        "biggest": {
            "deal": draw(st.integers(1, 36)),
            "game": "Grand",
            "value": score,
            "score": score,
        }
        if won
        else None,
        "defended": defended,
        "defended_won": draw(st.integers(0, defended)),
    }


@st.composite
def circles(draw) -> list[SheetRecord]:
    """Sheets of the three games, with ids of their own."""
    found = []
    for record in draw(skat_records()):
        stats = tuple(draw(skat_details(seat)) for seat in record.stats)
        found.append(SheetRecord(len(found) + 1, "skat", record.played_on, record.players, stats))
    for records in (draw(pitch_records()), draw(manipulation_records())):
        for record in records:
            found.append(
                SheetRecord(
                    len(found) + 1, record.game, record.played_on, record.players, record.stats
                )
            )
    return found


def stored(value):
    """As the database gives it back: through JSON."""
    return json.loads(json.dumps(value))


def everyone(records) -> set[int]:
    return {player for record in records for player in record.players}


def totals_of(records, player) -> profile.Totals:
    totals: profile.Totals = {}
    for record in records:
        given = profile.contributions(record).get(player)
        if given is not None:
            profile.apply(totals, given, 1)
    return totals


@FAST
@given(circles(), st.data())
def test_adding_and_taking_away_sheets_in_any_order_gives_what_adding_up_gives(records, data):
    """A correction to an old sheet, a sheet left out or put in the trash takes its old
    contribution away and adds its new one: a player's totals are then what adding up
    the sheets that count now gives, in any order."""
    player = data.draw(st.sampled_from(sorted(everyone(records)) or [1]))
    totals: profile.Totals = {}
    for record in data.draw(st.permutations(records)):
        given = profile.contributions(record).get(player)
        if given is not None:
            profile.apply(totals, stored(given), 1)
    assert totals == totals_of(records, player)
    gone = data.draw(st.lists(st.sampled_from(records), unique_by=id)) if records else []
    for record in gone:
        given = profile.contributions(record).get(player)
        if given is not None:
            profile.apply(totals, given, -1)
    rest = [record for record in records if record not in gone]
    assert stored(totals) == stored(totals_of(rest, player))
    for record in data.draw(st.permutations(gone)):
        given = profile.contributions(record).get(player)
        if given is not None:
            profile.apply(totals, given, 1)
    assert stored(totals) == stored(totals_of(records, player))


@FAST
@given(circles(), st.data())
def test_the_record_from_stored_totals_is_the_record_from_the_sheets(records, data):
    """What a player page makes of the kept totals (read back from the database), the
    biggest game and the history kept with each sheet is the record added up from the
    sheets (circles.rules.profile.player_profile, the numbers test_profile.py checks
    by hand)."""
    player = data.draw(st.sampled_from(sorted(everyone(records)) or [1]))
    given = [
        stored(found)
        for record in records
        if (found := profile.contributions(record).get(player)) is not None
    ]
    totals = profile.read(stored(totals_of(records, player)))
    for item in given:
        assert profile.read_contribution(item) == item
    history = tuple(
        sorted(
            (profile.history_entry(item) for item in given),
            key=lambda entry: (entry.played_on, entry.sheet_id),
        )
    )
    made = profile.from_totals(player, totals, biggest=profile.biggest_of(given), history=history)
    assert made == profile.player_profile(records, player)


def test_of_equal_biggest_games_the_first_played_stands():
    """Profile (player page): "Biggest game", the highest score; of equal ones the
    first played, by day and then sheet, whichever order the sheets were added in."""
    game = {"deal": 3, "game": "Grand Hand", "value": 96, "score": 96}
    given = [
        {"sheet": 9, "played_on": DAYS[1].isoformat(), "biggest": game},
        {"sheet": 4, "played_on": DAYS[1].isoformat(), "biggest": {**game, "deal": 7}},
        {"sheet": 2, "played_on": DAYS[2].isoformat(), "biggest": game},
        {"sheet": 1, "played_on": DAYS[0].isoformat(), "biggest": None},
    ]
    best = profile.biggest_of(given)
    assert best is not None
    assert (best.sheet_id, best.played_on, best.deal) == (4, DAYS[1], 7)
    assert profile.biggest_of(reversed(given)) == best


def test_taking_away_what_was_never_added_is_refused():
    game = manipulation_game(1, JAN_10, {1: 0, 2: 30, 3: 45}, rounds=3)
    with pytest.raises(ValueError, match="taken away more than was added"):
        profile.apply({}, profile.contributions(game)[1], -1)


# -- Read back from the database -----------------------------------------------------


def _kept() -> profile.Totals:
    records = [
        pitch_game(2, JAN_10, (1, 2, 3, 4), winner="A", hands=9),
        manipulation_game(3, JAN_10, {1: 0, 2: 30, 3: 45}, rounds=3),
    ]
    totals = totals_of(records, 1)
    skat = {
        "sheets": 2,
        "won": 1,
        "games_won": 3,
        "games_lost": 1,
        "by_type": {"grand": [2, 2], "clubs": [2, 1]},
        "value_sum": 150,
        "overbid": 0,
        "defended": 10,
        "defended_won": 4,
    }
    return stored({**totals, "skat": skat})


def test_what_is_kept_reads_back():
    kept = _kept()
    assert profile.read(copy.deepcopy(kept)) == kept
    assert set(kept) == {"skat", "pitch", "manipulation", "h2h"}


DAMAGED = {
    "not an object": lambda kept: [],
    "an unknown game": lambda kept: {**kept, "poker": kept["pitch"]},
    "a missing count": lambda kept: [kept["skat"].pop("overbid"), None][1],
    "an extra count": lambda kept: kept["pitch"].update(extra=1),
    "no sheets": lambda kept: kept["manipulation"].update(sheets=0),
    "more won than played": lambda kept: kept["manipulation"].update(won=2),
    "a yes for a number": lambda kept: kept["skat"].update(games_won=True),
    "a fraction for a number": lambda kept: kept["skat"].update(value_sum=1.5),
    "fewer than none": lambda kept: kept["pitch"].update(bids=-1),
    "a number beyond any": lambda kept: kept["pitch"].update(made=10**13),
    "a game type of no game": lambda kept: kept["skat"]["by_type"].update(bridge=[1, 1]),
    "a tally of three": lambda kept: kept["skat"]["by_type"].update(grand=[2, 1, 0]),
    "more made than bid": lambda kept: kept["pitch"]["by_bid"].update({"5": [1, 2]}),
    "a tally of none": lambda kept: kept["pitch"]["by_bid"].update({"5": [0, 0]}),
    "a head-to-head of no game": lambda kept: kept["h2h"].update(poker={"2": [1, 1, 0, 0]}),
    "a head-to-head with no one": lambda kept: kept["h2h"].update(skat={}),
    "a player id that is no number": lambda kept: kept["h2h"]["pitch"].update(
        {"Ben": [1, 1, 0, 0]}
    ),
    "a player id beyond any": lambda kept: kept["h2h"]["pitch"].update({"9" * 30: [1, 1, 0, 0]}),
    "more outcomes than tables": lambda kept: kept["h2h"]["pitch"].update({"2": [1, 1, 1, 0]}),
    "code in a number's place": lambda kept: kept["manipulation"].update(
        penalties="__import__('os').system('true')"
    ),
}


@pytest.mark.parametrize("damage", DAMAGED, ids=list(DAMAGED))
def test_damaged_totals_are_refused_with_where(damage):
    kept = _kept()
    changed = DAMAGED[damage](kept)
    with pytest.raises(ValueError, match=r"^totals"):
        profile.read(kept if changed is None else changed)


def test_a_stored_contribution_is_checked_too():
    given = stored(profile.contributions(pitch_game(2, JAN_10, (1, 2, 3, 4), winner="A"))[3])
    assert profile.read_contribution(copy.deepcopy(given)) == given
    for damaged in (
        {**given, "game": "poker"},
        {**given, "played_on": "yesterday"},
        {**given, "place": 0},
        {**given, "headline": "52"},
        {**given, "counts": {**given["counts"], "sheets": 2}},
        {**given, "biggest": {"deal": 1}},
        {**given, "h2h": {"2": [1, 2, 0, 0]}},
        {key: value for key, value in given.items() if key != "sheet"},
    ):
        with pytest.raises(ValueError, match=r"^contribution"):
            profile.read_contribution(damaged)
