"""The printed Spielliste: its rows and foot read from the sheet's referee, blank lists.

The columns are those of the official DSkV/ISPA Spielliste (ISkO 4.1: Grundwert,
Spitzen mit/ohne, the Gewinnstufen Hand, Schneider, Schneider angesagt, Schwarz,
Schwarz angesagt, Ouvert; ISkO 5.2: the Seeger-Fabian foot, + 50 per game won,
− 50 per game lost, + 40 / 30 per game the others lost at three / four; issue 17: 24 at five).
"""

from __future__ import annotations

import pytest

from games.rules.errors import RuleError
from games.rules.skat import Matadors
from games.rules.skat_sheet import RamschEntry, SkatDeal, SkatSheet, SkatSheetOptions
from games.rules.skat_spielliste import LEVEL_CODES, blank_list, check_blank_list, filled_list

THREE = ("Ana", "Ben", "Cem")
FOUR = ("Ana", "Ben", "Cem", "Dan")


def game(declarer: int, name: str, **rest) -> SkatDeal:
    return SkatDeal(declarer=declarer, game={"game": name, "bid": 18, **rest})


def sheet_after(deals, *, players=THREE, **chosen) -> SkatSheet:
    sheet = SkatSheet(
        players=players, first_dealer=0, options=SkatSheetOptions.from_mapping(chosen)
    )
    for deal in deals:
        sheet.add(deal)
    return sheet


def test_a_suit_game_fills_base_value_spitzen_and_levels():
    # Rule book "Levels": Grand Hand with 2, schneider: 2 + game + hand + schneider = 5 × 24.
    state = sheet_after(
        [game(1, "grand", hand=True, matadors=Matadors("with", 2), outcome="won_schneider")]
    ).state
    row = filled_list(state).rows[0]
    assert row.kind == "game"
    assert (row.base_value, row.matadors_with, row.matadors_against) == (24, 2, None)
    assert row.levels == ("hand", "schneider")
    assert (row.won_value, row.lost_value) == (120, None)
    assert row.declarer == 1
    assert [c.total for c in row.players] == [None, 120, None]
    assert [c.won for c in row.players] == [None, 1, None]


def test_a_lost_game_writes_the_doubled_loss_and_a_v_tally():
    # ISkO 5.2.1: a lost game counts double: Clubs against 3 = 4 × 12 = 48, −96.
    deals = [
        game(0, "clubs", matadors=Matadors("against", 3), outcome="lost"),
        game(0, "clubs", matadors=Matadors("against", 3), outcome="lost"),
    ]
    rows = filled_list(sheet_after(deals).state).rows
    assert (rows[0].base_value, rows[0].matadors_against) == (12, 3)
    assert (rows[0].won_value, rows[0].lost_value) == (None, -96)
    assert [rows[0].players[0].lost, rows[1].players[0].lost] == [1, 2]
    assert rows[1].players[0].total == -192


def test_an_open_game_counts_every_level():
    # Rule book "Ouvert": an open game is schwarz announced, with every level below it.
    deal = game(
        2, "grand", hand=True, ouvert=True, matadors=Matadors("with", 1), outcome="won_schwarz"
    )
    row = filled_list(sheet_after([deal]).state).rows[0]
    assert row.levels == LEVEL_CODES


def test_a_null_game_has_its_fixed_value_and_no_spitzen_or_levels():
    # Rule book "Null": Null Hand is worth 35, with no matadors and no levels.
    row = filled_list(sheet_after([game(0, "null", hand=True, outcome="won")]).state).rows[0]
    assert row.kind == "null"
    assert row.base_value == 35
    assert (row.matadors_with, row.matadors_against, row.levels) == (None, None, ())
    assert row.won_value == 35
    assert row.game == "Null Hand"


def test_a_game_by_value_shows_the_value_and_leaves_the_game_columns_empty():
    # skat_value: a lost game written as −96 on the list has no contract to show.
    row = filled_list(sheet_after([SkatDeal(declarer=1, value=-96)]).state).rows[0]
    assert row.kind == "by_value"
    assert (row.base_value, row.matadors_with, row.matadors_against, row.levels) == (
        None,
        None,
        None,
        (),
    )
    assert (row.won_value, row.lost_value) == (None, -96)
    assert row.players[1].lost == 1


def test_ramsch_and_thrown_in_deals_are_rows_too():
    # Rule book "Ramsch (house rule)": the most card points lose that many.
    ramsch = SkatDeal(passed=True, ramsch=RamschEntry((50, 40, 30), (4, 3, 3), None))
    state = sheet_after([ramsch], all_pass="ramsch").state
    row = filled_list(state).rows[0]
    assert row.kind == "ramsch"
    assert row.game == "Ramsch"
    assert [c.total for c in row.players] == [-50, None, None]
    assert (row.won_value, row.lost_value, row.declarer) == (None, None, None)
    thrown = filled_list(sheet_after([SkatDeal(passed=True)]).state).rows[0]
    assert thrown.kind == "passed"
    assert [c.total for c in thrown.players] == [None, None, None]


def test_a_bock_deal_is_marked():
    # Rule book "Bock rounds (house rule)": a game worth 100 or more starts a round.
    big = game(1, "grand", hand=True, matadors=Matadors("with", 2), outcome="won_schneider")
    small = game(2, "diamonds", matadors=Matadors("with", 1), outcome="won")
    state = sheet_after([big, small], bock={"hundred_or_more": True}).state
    rows = filled_list(state).rows
    assert [rows[0].bock, rows[1].bock] == [False, True]
    assert rows[1].won_value == 36  # 2 × 9 = 18, doubled in the Bock deal


def test_the_foot_is_the_sheets_seeger_fabian_and_blank_rows_fill_the_series():
    deals = [
        game(1, "grand", hand=True, matadors=Matadors("with", 2), outcome="won_schneider"),
        game(2, "clubs", matadors=Matadors("against", 3), outcome="lost"),
        game(3, "hearts", matadors=Matadors("with", 1), outcome="won"),
        SkatDeal(passed=True),
    ]
    state = sheet_after(deals, players=FOUR, series_deals=8).state
    listed = filled_list(state)
    assert listed.defence_bonus == 30
    assert [r.kind for r in listed.rows] == ["game", "game", "game", "passed", *["blank"] * 4]
    assert [r.number for r in listed.rows] == list(range(1, 9))
    rows = state.details["seeger_fabian"].rows
    assert listed.foot is not None
    assert [f.total for f in listed.foot] == [r.total for r in rows]
    assert [f.list_points for f in listed.foot] == list(state.totals)
    # Cem lost one game: every other player, the dealer sitting out too, gets 30.
    assert [f.lost_by_others for f in listed.foot] == [1, 1, 0, 1]
    for foot in listed.foot:
        assert foot.total == (
            foot.list_points + 50 * foot.games_won - 50 * foot.games_lost + 30 * foot.lost_by_others
        )


@pytest.mark.parametrize(("players", "deals", "k"), [(3, 36, 40), (4, 48, 30), (5, 60, 24)])
def test_a_blank_list_for_each_table_size(players, deals, k):
    listed = blank_list(players=players, deals=deals)
    assert listed.table_size == players
    assert len(listed.rows) == deals
    assert all(r.kind == "blank" and len(r.players) == players for r in listed.rows)
    assert listed.foot is None
    assert listed.defence_bonus == k


@pytest.mark.parametrize(
    ("players", "deals", "field"),
    [
        ("2", "36", "players"),
        ("6", "48", "players"),
        ("x", "48", "players"),
        ("4", "0", "deals"),
        ("4", "201", "deals"),
        ("4", "50", "deals"),
        ("3", "-3", "deals"),
        ("4", "4.5", "deals"),
    ],
)
def test_a_blank_list_refuses_a_table_or_series_that_cannot_be(players, deals, field):
    with pytest.raises(RuleError) as raised:
        check_blank_list(players, deals)
    assert [p.field for p in raised.value.problems] == [field]
    assert raised.value.problems[0].message


def test_a_blank_list_reads_the_numbers_as_typed():
    assert check_blank_list("5", " 60 ") == (5, 60)


def test_at_a_table_of_five_the_foot_pays_24_for_each_game_another_player_lost():
    # Issue 17: at five, Seeger-Fabian gives 24 for each game another player loses
    # (the two sitting out included); Clubs with 1 lost: 2 × 12 = 24, −48.
    lost = game(1, "clubs", matadors=Matadors("with", 1), outcome="lost")
    listed = filled_list(sheet_after([lost], players=("Ana", "Ben", "Cem", "Dan", "Eva")).state)
    assert listed.defence_bonus == 24
    assert len(listed.rows) == 60
    assert [f.total for f in listed.foot] == [24, -98, 24, 24, 24]
    assert [f.lost_by_others for f in listed.foot] == [1, 0, 1, 1, 1]
