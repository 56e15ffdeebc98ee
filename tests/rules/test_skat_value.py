"""A Skat game entered by its value, as a paper list writes it (games.rules.skat_value).

Game values follow the ISkO game value rules (the project's Skat rules: "Base values",
"Game value of suit and grand games", Null values); the list score follows "Score on
the list" (a lost game counts minus twice its value); Kontra/Re and Bock are the house
rules of "House rules".
"""

from __future__ import annotations

import pytest

from games.rules.errors import RuleError
from games.rules.skat import BIDS
from games.rules.skat_sheet import SkatDeal, SkatSheet, SkatSheetOptions
from games.rules.skat_value import contracts_worth, read_value


def message(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str | None, str]]:
    return [(p.field, str(p.message)) for p in error.value.problems]


def test_every_contract_worth_48_is_listed():
    # 48 = Grand × 2 (24 base: with or against 1 + game) = Clubs × 4 (12 base: with 3
    # + game, or with 2 + game + one of hand/schneider, or with 1 + game + two levels).
    names = [str(c.name) for c in contracts_worth(48)]
    assert names == [
        "Grand with or against 1",
        "Clubs with or against 3",
        "Clubs with or against 2, schneider",
        "Clubs with or against 1, schneider, schwarz",
        "Clubs with or against 2, hand",
        "Clubs with or against 1, hand, schneider",
    ]
    assert {c.multiplier for c in contracts_worth(48) if c.game == "clubs"} == {4}


def test_diamonds_ouvert_with_1_is_one_of_the_games_worth_72():
    # Ouvert counts hand, schneider, schneider announced, schwarz, schwarz announced and
    # ouvert: with 1 + game + 6 = 8 levels × 9 = 72 (rule book: Ouvert).
    ouvert = [c for c in contracts_worth(72) if c.game == "diamonds" and c.ouvert]
    assert len(ouvert) == 1
    assert ouvert[0].matadors == 1
    assert ouvert[0].multiplier == 8


def test_null_values_are_games_of_their_own():
    # Null 23, Null Hand 35, Null Ouvert 46, Null Ouvert Hand 59 (rule book: Null).
    assert [str(c.name) for c in contracts_worth(46)] == ["Null Ouvert"]
    assert [str(c.name) for c in contracts_worth(59)] == ["Null Ouvert Hand"]


def test_every_game_value_is_read_and_nothing_else():
    # The legal bids are exactly the values some game can have (rule book: Bids).
    for value in range(1, 265):
        readable = bool(contracts_worth(value))
        assert readable == (value in BIDS), value


def test_a_won_value_is_the_score_as_written():
    result = read_value(value=48)
    assert (result.won, result.score, result.game_value) == (True, 48, 48)
    assert str(result.summary) == "Grand with or against 1 or Clubs ×4"


def test_a_minus_value_is_a_lost_game_counted_double():
    # A lost game scores −2 × its value (Score on the list): −96 is a game worth 48.
    result = read_value(value=-96)
    assert (result.won, result.score, result.game_value) == (False, -96, 48)
    with pytest.raises(RuleError) as error:
        read_value(value=-47)
    assert message(error) == [
        (
            "value",
            "No lost Skat game is written as −47: a lost game counts minus twice its value; "
            "the nearest are −46 (Null) and −48 (Clubs with or against 1).",
        )
    ]


@pytest.mark.parametrize(
    ("value", "nearest"),
    [
        (47, "46 (Null Ouvert) and 48 (Grand with or against 1 or Clubs ×4)"),
        (19, "18 (Diamonds with or against 1) and 20 (Hearts with or against 1)"),
        (25, "24 (Clubs with or against 1) and 27 (Diamonds ×3)"),
    ],
)
def test_a_value_no_game_has_is_refused_with_the_nearest_games(value, nearest):
    with pytest.raises(RuleError) as error:
        read_value(value=value)
    assert message(error) == [
        ("value", f"No Skat game is worth {value}; the nearest are {nearest}.")
    ]


def test_a_value_below_the_bid_is_refused():
    # A game worth less than the bid is overbid and lost (rule book: Overbidding), so a
    # won game on the list is worth at least the bid.
    with pytest.raises(RuleError) as error:
        read_value(value=36, bid=40)
    assert message(error)[0][0] == "value"
    assert message(error)[0][1].startswith("36 is less than the bid of 40")
    # Null (23) cannot be declared after a bid of 24: −46 is not a game at that bid.
    with pytest.raises(RuleError):
        read_value(value=-46, bid=24)
    assert read_value(value=-48, bid=24).game_value == 24


def test_kontra_re_and_bock_multiply_what_the_list_shows():
    # House rules: Kontra doubles, Re quadruples, a Bock deal doubles again.
    assert read_value(value=96, kontra_re=False).game_value == 96
    readings = read_value(value=96, kontra_re=True).readings
    assert [(r.game_value, r.call) for r in readings] == [(96, None), (48, "kontra"), (24, "re")]
    # 2 × 23 in a Bock deal: a won Null; 23 alone is not a Bock deal's value.
    assert read_value(value=46, bock=True).game_values == {23}
    with pytest.raises(RuleError):
        read_value(value=23, bock=True)


def test_zero_is_never_a_game():
    with pytest.raises(RuleError) as error:
        read_value(value=0)
    assert message(error)[0][0] == "value"


def test_the_sheet_scores_a_value_as_written_and_seeger_fabian_counts_its_sign():
    sheet = SkatSheet(players=["Ali", "Bea", "Cleo"], first_dealer=0)
    won = sheet.add(SkatDeal(declarer=1, value=48))
    assert str(won.summary) == "Bea: by value (Grand with or against 1 or Clubs ×4), won, +48"
    assert won.details["game_type"] == "by_value"
    lost = sheet.add(SkatDeal(declarer=2, value=-96, game={"bid": 20}))
    assert lost.scores == (0, 0, -96)
    # Seeger-Fabian (rule book): Bea 48 + 50 for her won game + 40 for Cleo's lost one.
    rows = sheet.state.details["seeger_fabian"].rows
    assert (rows[1].total, rows[2].total) == (138, -96 - 50)


def test_the_sheet_refuses_an_impossible_value_and_changes_nothing():
    sheet = SkatSheet(players=["Ali", "Bea", "Cleo"], first_dealer=0)
    with pytest.raises(RuleError) as error:
        sheet.add(SkatDeal(declarer=1, value=47))
    assert message(error)[0][0] == "value"
    with pytest.raises(RuleError) as error:
        sheet.add(SkatDeal(declarer=1, value=48, game={"game": "grand"}))
    assert message(error)[0][0] == "game"
    assert sheet.state.totals == (0, 0, 0)


def test_a_bock_deal_accepts_the_doubled_values():
    options = SkatSheetOptions.from_mapping({"bock": {"hundred_or_more": True}})
    sheet = SkatSheet(players=["Ali", "Bea", "Cleo"], first_dealer=0, options=options)
    # Grand with 4, hand, schneider: 7 × 24 = 168, 100 or more: a Bock round follows.
    first = sheet.add(SkatDeal(declarer=1, value=168))
    assert first.details["bock_rounds_added"] == 1
    with pytest.raises(RuleError):
        sheet.add(SkatDeal(declarer=2, value=-46))  # a lost Null in a Bock deal is −92
    assert sheet.add(SkatDeal(declarer=2, value=-92)).scores == (0, 0, -92)
