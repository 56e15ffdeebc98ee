"""A player's page: statistics over every sheet of the circle, from replayed sheets."""

from __future__ import annotations

import pytest

from circles.rules.profile import (
    BiggestGame,
    HeadToHead,
    HistoryEntry,
    ManipulationProfile,
    PitchProfile,
    player_profile,
)

from .sheets import (
    JAN_10,
    JAN_17,
    JAN_24,
    MANIPULATION_THREE,
    PITCH_FAILED_MOON,
    PITCH_TO_21,
    THREE,
    from_state,
    manipulation,
    pitch,
    record,
    skat_four,
    skat_three,
)

# Player 1 is Ana at both Skat tables; at Pitch first Ana (team A), then Ben (team B,
# with player 3 again as partner); at Manipulation Ben.
CIRCLE = (
    from_state(1, "skat", JAN_10, (1, 2, 3), skat_three()),
    from_state(2, "skat", JAN_17, (1, 2, 3, 4), skat_four()),
    from_state(3, "pitch", JAN_10, (1, 2, 3, 4), pitch(PITCH_TO_21, target=21)),
    from_state(4, "pitch", JAN_17, (2, 1, 4, 3), pitch(PITCH_FAILED_MOON)),
    from_state(5, "manipulation", JAN_24, (2, 1, 3), manipulation(THREE, MANIPULATION_THREE)),
)


def test_skat_statistics():
    skat = player_profile(CIRCLE, 1).skat
    assert skat is not None
    # Sheet 1: Ana is last (−58); sheet 2: she shares first place with Cem on 128 with
    # one game won and none lost each (Seeger-Fabian tie-breaks: games won, then lost).
    assert (skat.sheets, skat.won) == (2, 1)
    assert (skat.declared, skat.games_won, skat.games_lost) == (2, 1, 1)
    assert skat.by_type == {"clubs": (1, 0), "grand": (1, 1)}
    # Clubs with 1 is worth 24, Grand with 1 is 48: 36 a game on average.
    assert (skat.average_value, skat.overbid) == (36.0, 0)
    assert skat.biggest == BiggestGame(
        sheet_id=2, played_on=JAN_17, deal=4, game="Grand", value=48, score=48
    )
    # Defended 4 deals at three (won 1: Ben's overbid Spades) and 1 at four (lost).
    assert (skat.defended, skat.defended_won, skat.defence_rate) == (5, 1, 0.2)


def test_the_biggest_game_is_the_highest_score_of_every_sheet():
    skat = player_profile(CIRCLE, 2).skat
    assert skat is not None
    assert skat.biggest == BiggestGame(1, JAN_10, 1, "Grand Hand", 96, 96)
    # Of equal scores, the game played first stands: Ben's Grand Hand again a week later.
    again = from_state(7, "skat", JAN_24, (5, 2, 6), skat_three())
    first = player_profile((*CIRCLE, again), 2).skat
    assert first is not None
    assert first.biggest == BiggestGame(1, JAN_10, 1, "Grand Hand", 96, 96)


def test_a_player_who_never_declared_nor_defended():
    seat = {
        **CIRCLE[0].stats[0],
        "won": 0,
        "lost": 0,
        "by_type": {},
        "value_sum": 0,
        "biggest": None,
        "defended": 0,
        "defended_won": 0,
    }
    skat = player_profile([record(9, "skat", JAN_10, (7,), (seat,))], 7).skat
    assert skat is not None
    assert (skat.declared, skat.average_value, skat.biggest, skat.by_type) == (0, 0.0, None, {})
    assert skat.defence_rate == 0.0


def test_pitch_statistics():
    assert player_profile(CIRCLE, 1).pitch == PitchProfile(
        sheets=2,
        won=0,
        bids=3,
        made=1,
        # Ana was set on 7; Ben made 5 and failed a moon.
        by_bid={"5": (1, 1), "7": (1, 0), "moon": (1, 0)},
        moon=1,
        moon_made=0,
    )
    assert player_profile(CIRCLE, 2).pitch == PitchProfile(2, 2, 1, 1, {"6": (1, 1)}, 0, 0)


def test_manipulation_statistics():
    profile = player_profile(CIRCLE, 1)
    assert profile.manipulation == ManipulationProfile(
        sheets=1, won=0, rounds=3, went_out=1, penalties=185
    )
    assert player_profile(CIRCLE, 2).manipulation == ManipulationProfile(1, 1, 3, 2, 45)


def test_head_to_head():
    assert player_profile(CIRCLE, 1).head_to_head == (
        # Skat: ahead means a higher Seeger-Fabian; Ana and Cem drew on sheet 2.
        HeadToHead(other=2, game="skat", shared=2, ahead=1, behind=1, partnered=0),
        HeadToHead(other=3, game="skat", shared=2, ahead=0, behind=1, partnered=0),
        HeadToHead(other=4, game="skat", shared=1, ahead=1, behind=0, partnered=0),
        # Pitch: only opponents finish ahead or behind; player 3 was the partner twice.
        HeadToHead(other=2, game="pitch", shared=2, ahead=0, behind=2, partnered=0),
        HeadToHead(other=3, game="pitch", shared=2, ahead=0, behind=0, partnered=2),
        HeadToHead(other=4, game="pitch", shared=2, ahead=0, behind=2, partnered=0),
        # Manipulation: the lower total is ahead.
        HeadToHead(other=2, game="manipulation", shared=1, ahead=0, behind=1, partnered=0),
        HeadToHead(other=3, game="manipulation", shared=1, ahead=1, behind=0, partnered=0),
    )


def test_history_sheet_by_sheet():
    assert player_profile(CIRCLE, 1).history == (
        HistoryEntry(1, "skat", JAN_10, place=3, headline=-58),
        # Pitch partners finish together: the losing team is second.
        HistoryEntry(3, "pitch", JAN_10, place=2, headline=-4),
        HistoryEntry(2, "skat", JAN_17, place=1, headline=128),
        HistoryEntry(4, "pitch", JAN_17, place=2, headline=5),
        HistoryEntry(5, "manipulation", JAN_24, place=2, headline=185),
    )
    # Every game counted: two Skat series, two Pitch games, one Manipulation game.
    assert player_profile(CIRCLE, 1).sheets == 5
    # Ben: second at three, last (4th, behind Ana and Cem sharing 1st and Dan) at four.
    assert [entry.place for entry in player_profile(CIRCLE, 2).history] == [2, 1, 4, 1, 1]


def test_a_player_without_sheets():
    profile = player_profile(CIRCLE, 99)
    assert (profile.player, profile.skat, profile.pitch, profile.manipulation) == (
        99,
        None,
        None,
        None,
    )
    assert (profile.head_to_head, profile.history, profile.sheets) == ((), (), 0)


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (record(8, "bridge", JAN_10, (1,), ({},)), "unknown game"),
        (record(8, "skat", JAN_10, (1, 2), ({},)), "one stats entry per seat"),
    ],
)
def test_records_that_cannot_be_read(bad, message):
    with pytest.raises(ValueError, match=message):
        player_profile([bad], 1)
