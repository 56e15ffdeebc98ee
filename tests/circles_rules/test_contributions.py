"""What one sheet contributes per seat, from sheets replayed through the referee."""

from __future__ import annotations

import json

import pytest

from circles.rules.contributions import seat_stats
from games.rules.errors import RuleError
from games.rules.skat_sheet import SkatSheetOptions
from games.rules.skat_sheet import replay as replay_skat

from .sheets import (
    FOUR,
    MANIPULATION_SHARED,
    MANIPULATION_THREE,
    PASSED,
    PITCH_FAILED_MOON,
    PITCH_MOON_MADE,
    PITCH_TO_21,
    SKAT_FOUR_DEALS,
    SKAT_THREE_DEALS,
    THREE,
    manipulation,
    pitch,
    skat_four,
    skat_three,
    suit,
)


def stats_of(game, state):
    return seat_stats(game, state, [{}] * len(state.deals))


def test_every_seat_has_the_sheets_common_facts():
    state = skat_three()
    for seat, stats in enumerate(stats_of("skat", state)):
        assert stats["finished"] is True
        assert stats["total"] == state.totals[seat]
        assert stats["deals"] == 6


@pytest.mark.parametrize(
    ("game", "state"),
    [
        ("skat", skat_three()),
        ("skat", skat_four()),
        ("pitch", pitch(PITCH_TO_21, target=21)),
        ("pitch", pitch(PITCH_FAILED_MOON)),
        ("manipulation", manipulation(THREE, MANIPULATION_THREE)),
    ],
)
def test_stats_are_plain_json(game, state):
    # Stored in a JSON field: reading it back must give exactly the same dicts (no
    # tuples, no non-string keys).
    stats = stats_of(game, state)
    assert json.loads(json.dumps(stats)) == list(stats)


# -- Skat ------------------------------------------------------------------------------


def test_skat_at_three_seeger_fabian_and_declarer_games():
    ana, ben, cem = stats_of("skat", skat_three())
    # Seeger-Fabian (DSkV/ISPA): list points, +50 per won game, −50 per lost game, and
    # +40 to each of the other two at a 3-table for every game a declarer loses.
    # Ana: −48 − 50 (her Clubs) + 40 (Ben's Spades) = −58.
    assert (ana["list_points"], ana["sf"], ana["won"], ana["lost"]) == (-48, -58, 0, 1)
    # Ben: 96 + 23 − 66 = 53 list points; + 2 × 50 − 50 + 40 (Ana's Clubs) = 143.
    assert (ben["list_points"], ben["sf"], ben["won"], ben["lost"]) == (53, 143, 2, 1)
    # Cem: 20 + 50 + 2 × 40 = 150.
    assert (cem["list_points"], cem["sf"], cem["won"], cem["lost"]) == (20, 150, 1, 0)
    assert {s["players"] for s in (ana, ben, cem)} == {3}
    assert {s["series_deals"] for s in (ana, ben, cem)} == {6}


def test_skat_by_game_type_only_lists_types_declared():
    ana, ben, cem = stats_of("skat", skat_three())
    assert ana["by_type"] == {"clubs": [1, 0]}
    # Listed in the order of the game types: suits by base value, then grand, null.
    assert list(ben["by_type"].items()) == [("spades", [1, 0]), ("grand", [1, 1]), ("null", [1, 1])]
    assert cem["by_type"] == {"hearts": [1, 1]}


def test_skat_game_values_and_overbids():
    ana, ben, cem = stats_of("skat", skat_three())
    # Game values before a loss is doubled: Clubs with 1 is 12 × 2 = 24; Ben's Grand
    # Hand with 2 is 24 × 4 = 96, Null 23, and an overbid Spades game is raised to the
    # next multiple of 11 at or above the bid of 33 (Skat rules, "Overbidding").
    assert (ana["value_sum"], ben["value_sum"], cem["value_sum"]) == (24, 96 + 23 + 33, 20)
    assert (ana["overbid"], ben["overbid"], cem["overbid"]) == (0, 1, 0)


def test_skat_biggest_won_game():
    ana, ben, cem = stats_of("skat", skat_three())
    assert ana["biggest"] is None  # she won no game
    assert ben["biggest"] == {"deal": 1, "game": "Grand Hand", "value": 96, "score": 96}
    assert cem["biggest"] == {"deal": 6, "game": "Hearts", "value": 20, "score": 20}


def test_skat_defenders_at_three():
    ana, ben, cem = stats_of("skat", skat_three())
    # At a 3-table the two players who did not declare defend every played deal; the
    # thrown-in deal 3 has no defenders. Ana defends deals 1, 4, 5, 6 and wins Ben's
    # overbid Spades; Ben defends 2 and 6; Cem defends 1, 2, 4, 5.
    assert (ana["defended"], ana["defended_won"]) == (4, 1)
    assert (ben["defended"], ben["defended_won"]) == (2, 1)
    assert (cem["defended"], cem["defended_won"]) == (4, 2)


def test_skat_at_four_the_dealer_sitting_out_does_not_defend():
    ana, ben, cem, dan = stats_of("skat", skat_four())
    # Seats (Skat rules): at a 4-table the dealer sits the deal out. Ana deals 1 and
    # Dan deals 4, so Ana defends only deal 2 and Dan deals 1 and 2.
    assert (ana["defended"], ana["defended_won"]) == (1, 0)
    assert (ben["defended"], ben["defended_won"]) == (1, 0)
    assert (cem["defended"], cem["defended_won"]) == (2, 1)
    assert (dan["defended"], dan["defended_won"]) == (2, 1)
    # Seeger-Fabian at a 4-table: +30 to each of the other three for a lost game, the
    # dealer sitting out included (ISPA). Ben's lost Diamonds gives Ana, Cem, Dan 30.
    assert [s["sf"] for s in (ana, ben, cem, dan)] == [48 + 50 + 30, -36 - 50, 128, 30]
    assert {s["players"] for s in (ana, ben, cem, dan)} == {4}
    assert len(SKAT_FOUR_DEALS) == ana["deals"] == 4


def test_skat_at_five_the_two_sitting_out_do_not_defend():
    # Issue 17 (a table of five): the dealer and the third player to his left sit out;
    # the two to his left and the one to his right play. Ana deals first.
    deals = (
        suit(1, "diamonds", 1, "lost"),  # Ana, Dan out; Ben −36, Cem and Eva defend
        suit(2, "grand", 1, "won"),  # Ben, Eva out; Cem +48, Dan and Ana defend
        suit(3, "grand", 1, "won"),  # Cem, Ana out; Dan +48, Eva and Ben defend
        PASSED,  # Dan, Ben out; thrown in
    )
    state = replay_skat(
        players=(*FOUR, "Eva"),
        first_dealer=0,
        options=SkatSheetOptions(series_deals=len(deals)),
        deals=deals,
    )
    ana, ben, cem, dan, eva = stats_of("skat", state)
    assert [(s["defended"], s["defended_won"]) for s in (ana, ben, cem, dan, eva)] == [
        (1, 0),
        (1, 0),
        (1, 1),
        (1, 0),
        (2, 1),
    ]
    # Seeger-Fabian at five: 24 to each of the other four for Ben's lost game.
    assert [s["sf"] for s in (ana, ben, cem, dan, eva)] == [24, -36 - 50, 122, 122, 24]
    assert {s["players"] for s in (ana, ben, cem, dan, eva)} == {5}
    assert {s["series_deals"] for s in (ana, ben, cem, dan, eva)} == {4}


# -- 10-Point Pitch ------------------------------------------------------------------


def test_pitch_teams_partners_and_the_win():
    ana, ben, cem, dan = stats_of("pitch", pitch(PITCH_TO_21, target=21))
    # Partners sit opposite: seats 0 and 2 are team A, 1 and 3 team B; both partners
    # share their team's result.
    assert [(s["team"], s["partner"], s["won"]) for s in (ana, ben, cem, dan)] == [
        ("A", 2, False),
        ("B", 3, True),
        ("A", 0, False),
        ("B", 1, True),
    ]
    assert [s["team_total"] for s in (ana, ben, cem, dan)] == [-4, 22, -4, 22]
    assert {s["hands"] for s in (ana, ben, cem, dan)} == {3}


def test_pitch_bids_made_and_set():
    ana, ben, cem, dan = stats_of("pitch", pitch(PITCH_TO_21, target=21))
    # A bid is made when the pitcher's team takes at least the bid, else set.
    assert (ana["bids"], ana["made"], ana["set"], ana["by_bid"]) == (1, 0, 1, {"7": [1, 0]})
    assert (ben["bids"], ben["made"], ben["set"], ben["by_bid"]) == (1, 1, 0, {"6": [1, 1]})
    assert (cem["bids"], cem["by_bid"]) == (0, {})
    assert (dan["bids"], dan["made"], dan["by_bid"]) == (1, 1, {"4": [1, 1]})


def test_pitch_points_taken_are_the_teams_hand_by_hand():
    ana, ben, _, _ = stats_of("pitch", pitch(PITCH_TO_21, target=21))
    # Team A took 3, 5 and 0 of the ten points in each hand; team B 7, 5 and 10.
    assert (ana["points_taken"], ben["points_taken"]) == (8, 22)


def test_pitch_a_failed_moon():
    ana, ben, _, _ = stats_of("pitch", pitch(PITCH_FAILED_MOON))
    # Shooting the moon: a team that bids moon and misses a point loses the game at once.
    assert (ben["moon"], ben["moon_made"], ben["by_bid"]) == (1, 0, {"5": [1, 1], "moon": [1, 0]})
    assert (ben["bids"], ben["made"], ben["set"]) == (2, 1, 1)
    assert (ana["won"], ben["won"]) == (True, False)


def test_pitch_a_made_moon_in_a_game_still_going():
    stats = stats_of("pitch", pitch(PITCH_MOON_MADE))
    cem = stats[2]
    assert (cem["moon"], cem["moon_made"], cem["by_bid"]) == (1, 1, {"moon": [1, 1]})
    # Nobody has won a game that is not over.
    assert [s["won"] for s in stats] == [False] * 4
    assert [s["finished"] for s in stats] == [False] * 4


# -- Manipulation --------------------------------------------------------------------


def test_manipulation_rounds_going_out_and_penalties():
    ana, ben, cem = stats_of("manipulation", manipulation(THREE, MANIPULATION_THREE))
    # The game ends when someone reaches 200; the lowest total wins.
    assert [s["won"] for s in (ana, ben, cem)] == [True, False, False]
    assert [s["went_out"] for s in (ana, ben, cem)] == [2, 1, 0]
    assert [s["penalties"] for s in (ana, ben, cem)] == [45, 185, 205]
    assert [s["total"] for s in (ana, ben, cem)] == [45, 185, 205]
    assert {s["rounds"] for s in (ana, ben, cem)} == {3}


def test_manipulation_a_shared_win_and_a_round_nobody_went_out():
    stats = stats_of("manipulation", manipulation(FOUR, MANIPULATION_SHARED))
    # Players tied on the lowest total share the win.
    assert [s["won"] for s in stats] == [True, False, True, True]
    # Round 1: the stock ran out, nobody went out; round 2: Ana went out.
    assert [s["went_out"] for s in stats] == [1, 0, 0, 0]
    assert [s["penalties"] for s in stats] == [15, 205, 15, 15]


# -- problems ------------------------------------------------------------------------


def test_an_unknown_game():
    with pytest.raises(RuleError) as error:
        seat_stats("bridge", skat_three(), [{}] * 6)
    assert error.value.problems[0].field == "game"


def test_one_entry_per_deal():
    with pytest.raises(RuleError) as error:
        seat_stats("skat", skat_three(), [{}] * len(SKAT_THREE_DEALS[:-1]))
    assert error.value.problems[0].field == "entries"
    assert "6 deals" in error.value.problems[0].message


def test_skat_games_entered_by_value_are_counted_by_value():
    # A game entered by its value has no contract (games.rules.skat_value): it counts as
    # won (a plus value) or lost (a minus value) under its own type, "by_value", after
    # the declared games; Seeger-Fabian counts it from its sign.
    from games.rules.skat_sheet import SkatDeal
    from games.rules.skat_sheet import replay as replay_skat

    state = replay_skat(
        players=THREE,
        first_dealer=0,
        options=None,
        deals=[SkatDeal(declarer=1, value=48), SkatDeal(declarer=1, value=-96)],
    )
    ana, ben, _cem = stats_of("skat", state)
    assert ben["by_type"] == {"by_value": [2, 1]}
    assert (ben["won"], ben["lost"], ben["list_points"]) == (1, 1, -48)
    # Both readings of 48 and of −96 are games worth 48 (Grand ×2, Clubs ×4).
    assert ben["value_sum"] == 96
    assert (ana["defended"], ana["defended_won"]) == (2, 1)
