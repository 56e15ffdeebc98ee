"""List keeping for Skat: seats, Seeger-Fabian, Ramsch and Bock rounds."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules.cards import SKAT_DECK
from games.rules.errors import RuleError, Step
from games.rules.skat_list import (
    RULE_SECTIONS,
    BockEvent,
    BockTriggers,
    DealSeats,
    ListedDeal,
    RamschOptions,
    bock_schedule,
    bock_triggered,
    score_ramsch,
    seats_for_deal,
    seeger_fabian,
)

CARD_POINTS = {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}


def fields_of(error: RuleError) -> list[str | None]:
    return [problem.field for problem in error.problems]


def texts(steps: tuple[Step, ...]) -> list[str]:
    return [step.text for step in steps]


def assert_rules_known(steps: tuple[Step, ...]) -> None:
    # Every explanation line must link to a section the rule book has.
    assert steps
    for step in steps:
        assert step.rule in RULE_SECTIONS, step


# ---------------------------------------------------------------------------
# Seats
# ---------------------------------------------------------------------------

SEAT_CASES = [
    # Seats: at three the dealer plays as rearhand; forehand is the next seat on.
    pytest.param(3, 0, 1, (0, 1, 2, 0, None), id="three-deal-1"),
    # Seats: the deal passes clockwise to the next seat index.
    pytest.param(3, 0, 2, (1, 2, 0, 1, None), id="three-deal-2"),
    pytest.param(3, 0, 3, (2, 0, 1, 2, None), id="three-deal-3"),
    # Seats: after every seat has dealt once the first dealer deals again.
    pytest.param(3, 0, 4, (0, 1, 2, 0, None), id="three-deal-4-wraps"),
    pytest.param(3, 2, 3, (1, 2, 0, 1, None), id="three-first-dealer-2"),
    # Seats: at four the dealer sits out and the other three play.
    pytest.param(4, 0, 1, (0, 1, 2, 3, 0), id="four-deal-1"),
    pytest.param(4, 0, 2, (1, 2, 3, 0, 1), id="four-deal-2"),
    pytest.param(4, 0, 4, (3, 0, 1, 2, 3), id="four-deal-4"),
    pytest.param(4, 0, 5, (0, 1, 2, 3, 0), id="four-deal-5-wraps"),
    pytest.param(4, 3, 2, (0, 1, 2, 3, 0), id="four-first-dealer-3"),
    # Seats: a series of 48 deals at four ends with the seat before the first dealer.
    pytest.param(4, 1, 48, (0, 1, 2, 3, 0), id="four-deal-48"),
    # Issue 17 (a table of five): the dealer and the third player to his left sit out;
    # the two to his left (forehand, middlehand) and the one to his right (rearhand) play.
    pytest.param(5, 0, 1, (0, 1, 2, 4, 0), id="five-deal-1"),
    pytest.param(5, 0, 2, (1, 2, 3, 0, 1), id="five-deal-2"),
    pytest.param(5, 0, 4, (3, 4, 0, 2, 3), id="five-deal-4"),
    pytest.param(5, 0, 6, (0, 1, 2, 4, 0), id="five-deal-6-wraps"),
    pytest.param(5, 2, 60, (1, 2, 3, 0, 1), id="five-deal-60"),
]

FIVE_OUT = [
    # Issue 17: at five the dealer and the third player to the dealer's left sit out.
    pytest.param(0, 1, (0, 3), id="dealer-0"),
    pytest.param(0, 2, (1, 4), id="dealer-1"),
    pytest.param(0, 3, (2, 0), id="dealer-2"),
    pytest.param(3, 1, (3, 1), id="dealer-3"),
    pytest.param(4, 1, (4, 2), id="dealer-4"),
]


@pytest.mark.parametrize(("first_dealer", "deal_number", "out"), FIVE_OUT)
def test_at_five_two_sit_out(first_dealer, deal_number, out):
    seats = seats_for_deal(players=5, first_dealer=first_dealer, deal_number=deal_number)
    assert seats.sitting_out_seats == out
    playing = {seats.forehand, seats.middlehand, seats.rearhand}
    assert playing.isdisjoint(out)
    assert playing | set(out) == set(range(5))


@pytest.mark.parametrize("players", [3, 4])
def test_sitting_out_seats_at_three_and_four(players):
    # Seats: nobody sits out at three; at four the dealer alone.
    for deal_number in range(1, players + 1):
        seats = seats_for_deal(players=players, first_dealer=0, deal_number=deal_number)
        expected = () if players == 3 else (seats.dealer,)
        assert seats.sitting_out_seats == expected


def test_seats_explanation_at_five():
    # Issue 17: at five the dealer and the third to his left sit out and count with the
    # defenders (each gets Seeger-Fabian's 24 for a game another player loses).
    seats = seats_for_deal(
        players=5, first_dealer=0, deal_number=2, names=["Ana", "Ben", "Cem", "Dora", "Eva"]
    )
    assert texts(seats.explanation) == [
        "Deal 2: Ben deals; Cem is forehand and leads the first trick, Dora is middlehand "
        "and Ana is rearhand.",
        "At a table of five the dealer and the third player to the dealer's left sit this "
        "deal out; Ben and Eva count with the defenders.",
    ]
    assert_rules_known(seats.explanation)


@pytest.mark.parametrize(("players", "first_dealer", "deal_number", "expected"), SEAT_CASES)
def test_seats_for_deal(players, first_dealer, deal_number, expected):
    seats = seats_for_deal(players=players, first_dealer=first_dealer, deal_number=deal_number)
    assert (
        seats.dealer,
        seats.forehand,
        seats.middlehand,
        seats.rearhand,
        seats.sitting_out,
    ) == expected
    assert_rules_known(seats.explanation)


def test_seats_explanation_with_names():
    # Seats: at four the dealer sits out and counts with the defenders.
    seats = seats_for_deal(
        players=4, first_dealer=0, deal_number=2, names=["Ana", "Ben", "Cem", "Dora"]
    )
    assert texts(seats.explanation) == [
        "Deal 2: Ben deals; Cem is forehand and leads the first trick, Dora is middlehand "
        "and Ana is rearhand.",
        "At a table of four the dealer sits this deal out; Ben counts with the defenders.",
    ]


def test_seats_explanation_at_three():
    seats = seats_for_deal(players=3, first_dealer=1, deal_number=1)
    assert seats == DealSeats(
        dealer=1,
        forehand=2,
        middlehand=0,
        rearhand=1,
        sitting_out=None,
        explanation=(
            Step(
                "Deal 1: seat 2 deals; seat 3 is forehand and leads the first trick, "
                "seat 1 is middlehand and seat 2 is rearhand.",
                "skat-seats",
            ),
            Step("At a table of three the dealer plays as rearhand.", "skat-seats"),
        ),
    )


@pytest.mark.parametrize(
    ("kwargs", "fields"),
    [
        # Seats: Skat is kept at tables of three, four or five (issue 17: a table of five).
        pytest.param(
            {"players": 6, "first_dealer": 0, "deal_number": 1}, ["players"], id="six-players"
        ),
        pytest.param(
            {"players": 3, "first_dealer": 3, "deal_number": 1},
            ["first_dealer"],
            id="dealer-not-at-table",
        ),
        pytest.param(
            {"players": 4, "first_dealer": -1, "deal_number": 1},
            ["first_dealer"],
            id="negative-dealer",
        ),
        pytest.param(
            {"players": 3, "first_dealer": 0, "deal_number": 0}, ["deal_number"], id="deal-zero"
        ),
        pytest.param(
            {"players": 3, "first_dealer": 0, "deal_number": 1, "names": ["Ana", "Ben"]},
            ["names"],
            id="names-short",
        ),
        pytest.param(
            {"players": 2, "first_dealer": 7, "deal_number": -3},
            ["players", "deal_number"],
            id="every-problem-at-once",
        ),
    ],
)
def test_seats_for_deal_rejects(kwargs, fields):
    with pytest.raises(RuleError) as caught:
        seats_for_deal(**kwargs)
    assert fields_of(caught.value) == fields


def test_seats_messages_are_specific():
    with pytest.raises(RuleError) as caught:
        seats_for_deal(players=3, first_dealer=3, deal_number=0)
    assert [p.message for p in caught.value.problems] == [
        "The first dealer must be one of the 3 seats (0 to 2); got 3.",
        "Deals are counted from 1; got 0.",
    ]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_seat_deals_equally_often_in_a_series(players):
    # Seats: in a series of 36 (three) or 48 (four) deals every player deals equally often;
    # issue 17: 60 at five, where every player also sits out equally often.
    series = {3: 36, 4: 48, 5: 60}[players]
    dealers = [
        seats_for_deal(players=players, first_dealer=1, deal_number=n).dealer
        for n in range(1, series + 1)
    ]
    assert sorted(dealers.count(seat) for seat in range(players)) == [series // players] * players


# ---------------------------------------------------------------------------
# Seeger-Fabian
# ---------------------------------------------------------------------------

# A worked example at a table of three (defence bonus 40 to each of the other two):
#   deal 1: seat 0 wins, +48            deal 2: seat 1 loses, -72
#   deal 3: seat 2 wins a Null, +23     deal 4: thrown in, nothing
#   deal 5: seat 0 loses, -36           deal 6: Ramsch, seat 1 -50 (no declarer)
# seat 0: list 48-36 = 12; +50 won, -50 lost; seat 1 lost once: +40 -> total 52
# seat 1: list -72-50 = -122; -50 lost; seat 0 lost once: +40   -> total -132
# seat 2: list 23; +50 won; seats 1 and 0 lost: +80              -> total 153
THREE_TABLE = [
    ListedDeal((48, 0, 0), declarer=0, won=True),
    ListedDeal((0, -72, 0), declarer=1, won=False),
    ListedDeal((0, 0, 23), declarer=2, won=True),
    ListedDeal((0, 0, 0)),
    ListedDeal((-36, 0, 0), declarer=0, won=False),
    ListedDeal((0, -50, 0)),
]

# A worked example at a table of four (30 to each of the other three, the dealer
# who sits out included); seat k deals deal k+1 and sits it out:
#   deal 1 (0 out): seat 1 wins, +60     deal 2 (1 out): seat 2 loses, -96
#   deal 3 (2 out): seat 3 wins, +46     deal 4 (3 out): seat 0 loses, -40
#   deal 5 (0 out): seat 1 loses, -54
# seat 0: list -40; -50 lost; seats 2 and 1 lost (deal 5 sat out, still counts): +60 -> -30
# seat 1: list 60-54 = 6; +50 won, -50 lost; seats 2 and 0 lost: +60               -> 66
# seat 2: list -96; -50 lost; seats 0 and 1 lost: +60                              -> -86
# seat 3: list 46; +50 won; seats 2, 0 and 1 lost: +90                             -> 186
FOUR_TABLE = [
    ListedDeal((0, 60, 0, 0), declarer=1, won=True, sitting_out=0),
    ListedDeal((0, 0, -96, 0), declarer=2, won=False, sitting_out=1),
    ListedDeal((0, 0, 0, 46), declarer=3, won=True, sitting_out=2),
    ListedDeal((-40, 0, 0, 0), declarer=0, won=False, sitting_out=3),
    ListedDeal((0, -54, 0, 0), declarer=1, won=False, sitting_out=0),
]

# A worked example at a table of five (issue 17: 24 to each of the other four, the two
# who sit out included); seat k deals deal k+1 and sits it out with seat k+3:
#   deal 1 (0, 3 out): seat 1 wins, +60     deal 2 (1, 4 out): seat 3 loses, -96
#   deal 3 (2, 0 out): seat 4 wins, +46     deal 4 (3, 1 out): seat 0 loses, -40
#   deal 5 (4, 2 out): seat 1 loses, -54
# seat 0: list -40; -50 lost; seats 3 and 1 lost: +48              -> -42
# seat 1: list 60-54 = 6; +50 won, -50 lost; seats 3 and 0 lost: +48 -> 54
# seat 2: list 0; seats 3, 0 and 1 lost (deal 5 sat out, still counts): +72 -> 72
# seat 3: list -96; -50 lost; seats 0 and 1 lost: +48             -> -98
# seat 4: list 46; +50 won; seats 3, 0 and 1 lost: +72            -> 168
FIVE_TABLE = [
    ListedDeal((0, 60, 0, 0, 0), 1, True, sitting_out=0, sitting_out_seats=(0, 3)),
    ListedDeal((0, 0, 0, -96, 0), 3, False, sitting_out=1, sitting_out_seats=(1, 4)),
    ListedDeal((0, 0, 0, 0, 46), 4, True, sitting_out=2, sitting_out_seats=(2, 0)),
    ListedDeal((-40, 0, 0, 0, 0), 0, False, sitting_out=3, sitting_out_seats=(3, 1)),
    ListedDeal((0, -54, 0, 0, 0), 1, False, sitting_out=4, sitting_out_seats=(4, 2)),
]


@pytest.mark.parametrize(
    ("players", "deals", "rows", "standings"),
    [
        # Seeger-Fabian: list points, +50 per game won, -50 per game lost, 40 to each
        # of the other two for every game lost at a table of three.
        pytest.param(
            3,
            THREE_TABLE,
            [
                # (list, won, lost, won bonus, lost penalty, defence, total)
                (12, 1, 1, 50, -50, 40, 52),
                (-122, 0, 1, 0, -50, 40, -132),
                (23, 1, 0, 50, 0, 80, 153),
            ],
            ((1, 2), (2, 0), (3, 1)),
            id="three-table-worked-example",
        ),
        # Seeger-Fabian: 30 to each of the other three at a table of four, the dealer
        # who sat the deal out included.
        pytest.param(
            4,
            FOUR_TABLE,
            [
                (-40, 0, 1, 0, -50, 60, -30),
                (6, 1, 1, 50, -50, 60, 66),
                (-96, 0, 1, 0, -50, 60, -86),
                (46, 1, 0, 50, 0, 90, 186),
            ],
            ((1, 3), (2, 1), (3, 0), (4, 2)),
            id="four-table-worked-example",
        ),
        # Issue 17 (a table of five): 24 to each of the other four for every game a
        # declarer loses, both players who sat the deal out included.
        pytest.param(
            5,
            FIVE_TABLE,
            [
                (-40, 0, 1, 0, -50, 48, -42),
                (6, 1, 1, 50, -50, 48, 54),
                (0, 0, 0, 0, 0, 72, 72),
                (-96, 0, 1, 0, -50, 48, -98),
                (46, 1, 0, 50, 0, 72, 168),
            ],
            ((1, 4), (2, 2), (3, 1), (4, 0), (5, 3)),
            id="five-table-worked-example",
        ),
        # Seeger-Fabian: a deal without a declarer adds its scores and nothing else.
        pytest.param(
            3,
            [ListedDeal((0, -61, 0)), ListedDeal((-160, 0, 0)), ListedDeal((0, 0, 0))],
            [
                (-160, 0, 0, 0, 0, 0, -160),
                (-61, 0, 0, 0, 0, 0, -61),
                (0, 0, 0, 0, 0, 0, 0),
            ],
            ((1, 2), (2, 1), (3, 0)),
            id="ramsch-and-thrown-in-only",
        ),
        # Seeger-Fabian: no deals yet, everybody shares first place.
        pytest.param(
            4,
            [],
            [(0, 0, 0, 0, 0, 0, 0)] * 4,
            ((1, 0), (1, 1), (1, 2), (1, 3)),
            id="empty-list",
        ),
    ],
)
def test_seeger_fabian(players, deals, rows, standings):
    result = seeger_fabian(players=players, deals=deals)
    assert [
        (
            row.list_points,
            row.games_won,
            row.games_lost,
            row.won_bonus,
            row.lost_penalty,
            row.defence_bonus,
            row.total,
        )
        for row in result.rows
    ] == rows
    assert [row.seat for row in result.rows] == list(range(players))
    assert result.standings == standings
    assert_rules_known(result.explanation)


def test_seeger_fabian_explanation_three_table():
    result = seeger_fabian(players=3, deals=THREE_TABLE)
    assert texts(result.explanation) == [
        "Seeger-Fabian: list points, plus 50 for each game won as declarer, minus 50 for each "
        "game lost as declarer, plus 40 to each of the other 2 players at this table of 3 for "
        "every game a declarer loses.",
        "Seat 1: 12 list points, +50 for 1 game won, −50 for 1 game lost, +40 for 1 game lost "
        "by another declarer; total 52.",
        "Seat 2: −122 list points, −50 for 1 game lost, +40 for 1 game lost by another "
        "declarer; total −132.",
        "Seat 3: 23 list points, +50 for 1 game won, +80 for 2 games lost by another "
        "declarer; total 153.",
    ]


def test_seeger_fabian_explanation_uses_names():
    result = seeger_fabian(players=4, deals=FOUR_TABLE, names=["Ana", "Ben", "Cem", "Dora"])
    assert result.explanation[0].text == (
        "Seeger-Fabian: list points, plus 50 for each game won as declarer, minus 50 for each "
        "game lost as declarer, plus 30 to each of the other 3 players at this table of 4 (the "
        "dealer sitting out included) for every game a declarer loses."
    )
    assert result.explanation[4].text == (
        "Dora: 46 list points, +50 for 1 game won, +90 for 3 games lost by another "
        "declarer; total 186."
    )


@pytest.mark.parametrize(
    ("deals", "standings", "tie_text"),
    [
        # Seeger-Fabian ties: on equal totals more games won ranks higher.
        # seat 0: +86 +50 = 136; seat 1: +18 +18 +100 = 136; seat 2: 0.
        pytest.param(
            [
                ListedDeal((86, 0, 0), declarer=0, won=True),
                ListedDeal((0, 18, 0), declarer=1, won=True),
                ListedDeal((0, 18, 0), declarer=1, won=True),
            ],
            ((1, 1), (2, 0), (3, 2)),
            "Seat 2 and seat 1 both total 136; the tie goes to more games won, then fewer "
            "games lost: seat 2 (2 won, 0 lost) 1st, seat 1 (1 won, 0 lost) 2nd.",
            id="more-games-won",
        ),
        # Seeger-Fabian ties: on equal totals and games won, fewer games lost ranks higher.
        # seat 0: +40 +40 +100 + 40 (seat 1 lost) = 220;
        # seat 1: +100 +118 -48 +100 -50 = 220; seat 2: 40.
        pytest.param(
            [
                ListedDeal((40, 0, 0), declarer=0, won=True),
                ListedDeal((40, 0, 0), declarer=0, won=True),
                ListedDeal((0, 100, 0), declarer=1, won=True),
                ListedDeal((0, 118, 0), declarer=1, won=True),
                ListedDeal((0, -48, 0), declarer=1, won=False),
            ],
            ((1, 0), (2, 1), (3, 2)),
            "Seat 1 and seat 2 both total 220; the tie goes to more games won, then fewer "
            "games lost: seat 1 (2 won, 0 lost) 1st, seat 2 (2 won, 1 lost) 2nd.",
            id="fewer-games-lost",
        ),
        # Seeger-Fabian ties: equal on total, games won and games lost share the place,
        # and the next place is skipped. seat 0 and seat 1: +30 +50 = 80 each.
        pytest.param(
            [
                ListedDeal((30, 0, 0), declarer=0, won=True),
                ListedDeal((0, 30, 0), declarer=1, won=True),
            ],
            ((1, 0), (1, 1), (3, 2)),
            "Seat 1 and seat 2 both total 80; the tie goes to more games won, then fewer "
            "games lost: seat 1 (1 won, 0 lost) 1st, seat 2 (1 won, 0 lost) 1st.",
            id="shared-place",
        ),
        # Seeger-Fabian ties: three equal totals. Each of seats 0, 1, 2 loses once:
        # -36 list, -50 lost, +80 for the other two losses = -6 each.
        pytest.param(
            [
                ListedDeal((-36, 0, 0), declarer=0, won=False),
                ListedDeal((0, -36, 0), declarer=1, won=False),
                ListedDeal((0, 0, -36), declarer=2, won=False),
            ],
            ((1, 0), (1, 1), (1, 2)),
            "Seat 1, seat 2 and seat 3 all total −6; the tie goes to more games won, then "
            "fewer games lost: seat 1 (0 won, 1 lost) 1st, seat 2 (0 won, 1 lost) 1st, "
            "seat 3 (0 won, 1 lost) 1st.",
            id="three-way-tie",
        ),
    ],
)
def test_seeger_fabian_ties(deals, standings, tie_text):
    result = seeger_fabian(players=3, deals=deals)
    assert result.standings == standings
    assert result.explanation[-1].text == tie_text


def test_no_tie_step_without_ties():
    result = seeger_fabian(players=3, deals=THREE_TABLE)
    assert len(result.explanation) == 4  # the rule, then one line per seat


@pytest.mark.parametrize(
    ("players", "deals", "fields"),
    [
        pytest.param(2, [], ["players"], id="two-players"),
        # Seeger-Fabian input: one score per seat.
        pytest.param(3, [ListedDeal((10, 0))], ["deals.0.scores"], id="scores-short"),
        pytest.param(
            4,
            [ListedDeal((10, 0, 0), declarer=0, won=True)],
            ["deals.0.scores"],
            id="scores-3-of-4",
        ),
        pytest.param(
            3,
            [ListedDeal((0, 0, 0), declarer=3, won=True)],
            ["deals.0.declarer"],
            id="declarer-not-at-table",
        ),
        # Seats: the dealer at a table of four sits out, so cannot declare.
        pytest.param(
            4,
            [ListedDeal((0, 0, 0, 0), declarer=2, won=True, sitting_out=2)],
            ["deals.0.declarer"],
            id="declarer-sat-out",
        ),
        pytest.param(3, [ListedDeal((30, 0, 0), declarer=0)], ["deals.0.won"], id="won-missing"),
        pytest.param(
            3, [ListedDeal((0, 0, 0), won=True)], ["deals.0.won"], id="won-without-declarer"
        ),
        # Seats: nobody sits out at a table of three.
        pytest.param(
            3,
            [ListedDeal((0, 0, 0), sitting_out=1)],
            ["deals.0.sitting_out"],
            id="sit-out-at-three",
        ),
        pytest.param(
            4,
            [ListedDeal((0, 0, 0, 0), sitting_out=4)],
            ["deals.0.sitting_out"],
            id="sit-out-unknown",
        ),
        pytest.param(
            4,
            [ListedDeal((-30, 0, 0, 0), sitting_out=0)],
            ["deals.0.scores.0"],
            id="sitting-out-scored",
        ),
        # Score on the list: only the declarer's entry changes in a played game.
        pytest.param(
            3,
            [ListedDeal((30, 0, 30), declarer=0, won=True)],
            ["deals.0.scores.2"],
            id="defender-scored",
        ),
        # Score on the list: a won game adds the value, a lost one takes off twice the value.
        pytest.param(
            3,
            [ListedDeal((0, -40, 0), declarer=1, won=True)],
            ["deals.0.scores.1"],
            id="won-but-minus",
        ),
        pytest.param(
            3,
            [ListedDeal((0, 20, 0), declarer=1, won=False)],
            ["deals.0.scores.1"],
            id="lost-but-plus",
        ),
        pytest.param(
            3, [ListedDeal((0, 0, 0), declarer=1, won=False)], ["deals.0.scores.1"], id="lost-zero"
        ),
        # Every problem in every deal is reported at once.
        pytest.param(
            4,
            [
                ListedDeal((0, 30, 0, 0), declarer=1, won=True, sitting_out=0),
                ListedDeal((5, 0, 0), declarer=None, won=False),
                ListedDeal((0, 0, 0, 0), declarer=9, won=False, sitting_out=3),
            ],
            ["deals.1.won", "deals.1.scores", "deals.2.declarer"],
            id="several-deals",
        ),
        # Issue 17: at five the third player to the dealer's left sits out too, so
        # cannot declare and writes nothing.
        pytest.param(
            5,
            [ListedDeal((0, 0, 0, 0, 0), 3, True, sitting_out=0, sitting_out_seats=(0, 3))],
            ["deals.0.declarer"],
            id="five-third-left-declares",
        ),
        pytest.param(
            5,
            [ListedDeal((0, 30, 0, -12, 0), 1, True, sitting_out=0, sitting_out_seats=(0, 3))],
            ["deals.0.scores.3"],
            id="five-third-left-scored",
        ),
        pytest.param(
            5,
            [ListedDeal((0, 0, 0, 0, 0), sitting_out=0, sitting_out_seats=(0, 5))],
            ["deals.0.sitting_out_seats.1"],
            id="five-sit-out-unknown",
        ),
        pytest.param(
            3,
            [ListedDeal((0, 0, 0), sitting_out_seats=(1,))],
            ["deals.0.sitting_out_seats"],
            id="sit-out-seats-at-three",
        ),
        pytest.param(
            6,
            [ListedDeal((0, 0, 0), won=False)],
            ["players", "deals.0.won"],
            id="bad-table-still-checks-deals",
        ),
    ],
)
def test_seeger_fabian_rejects(players, deals, fields):
    with pytest.raises(RuleError) as caught:
        seeger_fabian(players=players, deals=deals)
    assert fields_of(caught.value) == fields


def test_seeger_fabian_rejects_wrong_number_of_names():
    with pytest.raises(RuleError) as caught:
        seeger_fabian(players=3, deals=[], names=["Ana"])
    assert fields_of(caught.value) == ["names"]


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        pytest.param(
            ListedDeal((0, 0, 0, -12), sitting_out=3),
            "Seat 4 sat this deal out, so their list entry cannot change; got −12.",
            id="sat-out",
        ),
        pytest.param(
            ListedDeal((0, 0, 0, 0), declarer=1, won=False, sitting_out=0),
            "Seat 2 lost this game, so their list entry goes down by twice the game value; got 0.",
            id="lost-zero",
        ),
        pytest.param(
            ListedDeal((0, 0, 0, 0), declarer=0, won=True, sitting_out=0),
            "Seat 1 dealt and sat this deal out, so cannot be its declarer.",
            id="declarer-sat-out",
        ),
    ],
)
def test_seeger_fabian_messages(deal, message):
    with pytest.raises(RuleError) as caught:
        seeger_fabian(players=4, deals=[deal])
    assert [p.message for p in caught.value.problems] == [message]


def test_seeger_fabian_at_five_explains_the_24():
    # Issue 17: Seeger-Fabian at five gives 24 for each game another player loses.
    names = ["Ana", "Ben", "Cem", "Dora", "Eva"]
    result = seeger_fabian(players=5, deals=FIVE_TABLE, names=names)
    lines = texts(result.explanation)
    assert lines[0] == (
        "Seeger-Fabian: list points, plus 50 for each game won as declarer, minus 50 for "
        "each game lost as declarer, plus 24 to each of the other 4 players at this table "
        "of 5 (the two sitting out included) for every game a declarer loses."
    )
    assert lines[3] == "Cem: 0 list points, +72 for 3 games lost by another declarer; total 72."
    with pytest.raises(RuleError) as caught:
        seeger_fabian(
            players=5,
            deals=[FIVE_TABLE[0], ListedDeal((0, 0, 0, 0, 0), 3, True, 1, (1, 3))],
            names=names,
        )
    assert [p.message for p in caught.value.problems] == [
        "Dora sat this deal out, so cannot be its declarer."
    ]


@st.composite
def listed_series(draw):
    players = draw(st.sampled_from([3, 4]))
    deals = []
    for number in range(draw(st.integers(0, 24))):
        sitting_out = number % players if players == 4 else None
        active = [seat for seat in range(players) if seat != sitting_out]
        scores = [0] * players
        if draw(st.booleans()):
            declarer = draw(st.sampled_from(active))
            won = draw(st.booleans())
            value = draw(st.integers(18, 264))
            scores[declarer] = value if won else -2 * value
            deals.append(ListedDeal(tuple(scores), declarer, won, sitting_out))
        else:
            # A Ramsch (or a thrown-in deal): only the players at the table can lose points.
            for seat in active:
                scores[seat] = -draw(st.integers(0, 240))
            deals.append(ListedDeal(tuple(scores), sitting_out=sitting_out))
    return players, deals


@settings(max_examples=150, deadline=None)
@given(listed_series())
def test_seeger_fabian_totals_add_up(series):
    # Seeger-Fabian: total = list points + 50 × (won − lost) + the defence bonuses.
    players, deals = series
    result = seeger_fabian(players=players, deals=deals)
    bonus = {3: 40, 4: 30}[players]
    for row in result.rows:
        mine = [d for d in deals if d.declarer == row.seat]
        won = sum(1 for d in mine if d.won)
        lost = len(mine) - won
        others_lost = sum(1 for d in deals if d.declarer not in (None, row.seat) and d.won is False)
        list_points = sum(d.scores[row.seat] for d in deals)
        assert row.total == list_points + 50 * (won - lost) + bonus * others_lost
        assert row.total == (row.list_points + row.won_bonus + row.lost_penalty + row.defence_bonus)
    # Each lost game pays 2 × 40 = 80 at three, 3 × 30 = 90 at four.
    lost_games = sum(1 for d in deals if d.won is False)
    per_loss = {3: 80, 4: 90}[players]
    assert sum(row.defence_bonus for row in result.rows) == per_loss * lost_games


@settings(max_examples=100, deadline=None)
@given(listed_series())
def test_seeger_fabian_standings_follow_the_tie_breaks(series):
    # Seeger-Fabian ties: higher total, then more games won, then fewer games lost.
    players, deals = series
    result = seeger_fabian(players=players, deals=deals)
    assert sorted(seat for _, seat in result.standings) == list(range(players))
    keyed = []
    for rank, seat in result.standings:
        row = result.rows[seat]
        keyed.append((rank, (-row.total, -row.games_won, row.games_lost)))
    for (rank_a, key_a), (rank_b, key_b) in pairwise(keyed):
        assert key_a <= key_b
        assert (rank_a == rank_b) == (key_a == key_b)
    assert keyed[0][0] == 1
    assert_rules_known(result.explanation)


# ---------------------------------------------------------------------------
# Ramsch
# ---------------------------------------------------------------------------

LAST = RamschOptions(tie="last_trick_loses")


@pytest.mark.parametrize(
    ("points", "tricks", "last_trick", "options", "bock", "scores", "losers", "jungfrau"),
    [
        # Ramsch: the player with the most card points scores minus that many.
        pytest.param([50, 45, 25], [4, 4, 2], 2, None, False, (-50, 0, 0), (0,), (), id="plain"),
        # Bock rounds: a Ramsch in a Bock deal counts double too.
        pytest.param(
            [50, 45, 25], [4, 4, 2], 2, None, True, (-100, 0, 0), (0,), (), id="plain-bock"
        ),
        # Ramsch ties: by default every tied player loses.
        pytest.param(
            [50, 50, 20], [4, 4, 2], 2, None, False, (-50, -50, 0), (0, 1), (), id="tie-all-lose"
        ),
        # Ramsch ties (option): only the tied player who took the last trick loses.
        pytest.param(
            [50, 50, 20], [4, 4, 2], 1, LAST, False, (0, -50, 0), (1,), (), id="tie-last-trick"
        ),
        # Ramsch ties (option) when none of the tied took the last trick: all tied lose.
        pytest.param(
            [50, 50, 20],
            [4, 4, 2],
            2,
            LAST,
            False,
            (-50, -50, 0),
            (0, 1),
            (),
            id="tie-last-trick-elsewhere",
        ),
        # Ramsch ties: 40 each is a three-way tie; the last trick is always among them.
        pytest.param(
            [40, 40, 40],
            [4, 3, 3],
            0,
            None,
            False,
            (-40, -40, -40),
            (0, 1, 2),
            (),
            id="three-way-all-lose",
        ),
        pytest.param(
            [40, 40, 40], [4, 3, 3], 0, LAST, False, (-40, 0, 0), (0,), (), id="three-way-last"
        ),
        # Ramsch, Jungfrau: a player who took no trick doubles the loss.
        pytest.param(
            [70, 50, 0], [6, 4, 0], 0, None, False, (-140, 0, 0), (0,), (2,), id="jungfrau"
        ),
        pytest.param(
            [70, 50, 0], [6, 4, 0], 0, None, True, (-280, 0, 0), (0,), (2,), id="jungfrau-bock"
        ),
        # Ramsch, Jungfrau with a tie: each tied loser loses double.
        pytest.param(
            [60, 60, 0],
            [5, 5, 0],
            1,
            None,
            False,
            (-120, -120, 0),
            (0, 1),
            (2,),
            id="jungfrau-tie",
        ),
        # Ramsch: the skat alone can make the most points change hands (8 cards, 61).
        pytest.param(
            [30, 29, 61], [4, 4, 2], 2, None, False, (0, 0, -61), (2,), (), id="skat-decides"
        ),
    ],
)
def test_score_ramsch(points, tricks, last_trick, options, bock, scores, losers, jungfrau):
    result = score_ramsch(
        points=points, tricks=tricks, last_trick=last_trick, options=options, bock=bock
    )
    assert result.scores == scores
    assert result.losers == losers
    assert result.jungfrau == jungfrau
    assert result.durchmarsch is None
    assert_rules_known(result.explanation)


@pytest.mark.parametrize(
    ("bock", "scores"),
    [
        # Ramsch, Durchmarsch: one player took every trick and scores +120.
        pytest.param(False, (0, 120, 0), id="durchmarsch"),
        # Bock rounds: doubled to +240.
        pytest.param(True, (0, 240, 0), id="durchmarsch-bock"),
    ],
)
def test_score_ramsch_durchmarsch(bock, scores):
    result = score_ramsch(points=[0, 120, 0], tricks=[0, 10, 0], last_trick=1, bock=bock)
    assert result.scores == scores
    assert result.durchmarsch == 1
    # Nobody loses, so nobody's loss is doubled: the empty-handed are not Jungfrau here.
    assert result.losers == ()
    assert result.jungfrau == ()
    assert_rules_known(result.explanation)


@pytest.mark.parametrize(
    ("kwargs", "lines"),
    [
        pytest.param(
            {"points": [70, 50, 0], "tricks": [6, 4, 0], "last_trick": 0, "bock": True},
            [
                "Ramsch: player 1 70 card points in 6 tricks, player 2 50 card points in 4 "
                "tricks, player 3 0 card points in 0 tricks; player 1 took the last trick and "
                "with it the skat.",
                "Player 1 has the most card points, 70, and loses that many.",
                "Player 3 took no trick (Jungfrau), which doubles the loss to 140.",
                "A Bock deal counts double: 280.",
                "Scores: player 1 −280, player 2 0, player 3 0.",
            ],
            id="jungfrau-bock",
        ),
        pytest.param(
            {"points": [50, 50, 20], "tricks": [4, 4, 2], "last_trick": 1, "options": LAST},
            [
                "Ramsch: player 1 50 card points in 4 tricks, player 2 50 card points in 4 "
                "tricks, player 3 20 card points in 2 tricks; player 2 took the last trick and "
                "with it the skat.",
                "Player 1 and player 2 both have the most card points, 50; by this sheet's tie "
                "rule the one who took the last trick, player 2, loses 50.",
                "Scores: player 1 0, player 2 −50, player 3 0.",
            ],
            id="tie-last-trick",
        ),
        pytest.param(
            {"points": [50, 50, 20], "tricks": [4, 4, 2], "last_trick": 2, "options": LAST},
            [
                "Ramsch: player 1 50 card points in 4 tricks, player 2 50 card points in 4 "
                "tricks, player 3 20 card points in 2 tricks; player 3 took the last trick and "
                "with it the skat.",
                "Player 1 and player 2 both have the most card points, 50; none of them took "
                "the last trick, so the tie rule cannot pick one and each of them loses 50.",
                "Scores: player 1 −50, player 2 −50, player 3 0.",
            ],
            id="tie-last-trick-elsewhere",
        ),
        pytest.param(
            {"points": [40, 40, 40], "tricks": [4, 3, 3], "last_trick": 2},
            [
                "Ramsch: player 1 40 card points in 4 tricks, player 2 40 card points in 3 "
                "tricks, player 3 40 card points in 3 tricks; player 3 took the last trick and "
                "with it the skat.",
                "Player 1, player 2 and player 3 all have the most card points, 40, so each of "
                "them loses 40.",
                "Scores: player 1 −40, player 2 −40, player 3 −40.",
            ],
            id="three-way-tie",
        ),
        pytest.param(
            {"points": [0, 0, 120], "tricks": [0, 0, 10], "last_trick": 2, "bock": True},
            [
                "Ramsch: player 1 0 card points in 0 tricks, player 2 0 card points in 0 "
                "tricks, player 3 120 card points in 10 tricks; player 3 took the last trick "
                "and with it the skat.",
                "Player 3 took every trick (Durchmarsch) and scores +120; nobody loses.",
                "A Bock deal counts double: +240.",
            ],
            id="durchmarsch-bock",
        ),
    ],
)
def test_score_ramsch_explanation(kwargs, lines):
    assert texts(score_ramsch(**kwargs).explanation) == lines


@pytest.mark.parametrize(
    ("points", "tricks", "last_trick", "fields"),
    [
        # Ramsch input: the three active players' counts.
        pytest.param([60, 60], [5, 5, 0], 0, ["points"], id="points-two"),
        pytest.param([50, 45, 25], [4, 4, 1, 1], 0, ["tricks"], id="tricks-four"),
        pytest.param([130, -10, 0], [6, 4, 0], 0, ["points.1"], id="negative-points"),
        pytest.param([70, 50, 0], [6, 5, -1], 0, ["tricks.2"], id="negative-tricks"),
        # Card points: all 32 cards hold 120.
        pytest.param([50, 45, 24], [4, 4, 2], 2, ["points"], id="points-not-120"),
        # A deal has 10 tricks.
        pytest.param([50, 45, 25], [4, 4, 3], 2, ["tricks"], id="tricks-not-10"),
        pytest.param([50, 45, 25], [4, 4, 2], 3, ["last_trick"], id="last-trick-no-player"),
        # The last trick is a trick: whoever took it took at least one.
        pytest.param([70, 50, 0], [6, 4, 0], 2, ["last_trick"], id="last-trick-without-trick"),
        # Ramsch, Jungfrau: no trick means no card points (the skat goes with the last trick).
        pytest.param([60, 50, 10], [6, 4, 0], 0, ["points.2"], id="points-without-trick"),
        # All ten tricks hold every card: fewer than 120 is impossible.
        pytest.param([110, 10, 0], [10, 0, 0], 0, ["points.1"], id="all-tricks-not-120"),
        # One trick is three cards: at most three aces, 33.
        pytest.param([34, 40, 46], [1, 4, 5], 2, ["points.0"], id="one-trick-too-many"),
        # Eight tricks and the skat are 26 cards: even the lowest 26 cards hold 56.
        pytest.param([55, 33, 32], [8, 1, 1], 0, ["points.0"], id="many-cards-too-few"),
        # No card is worth 1 point, so 3 cards cannot hold exactly 1.
        pytest.param([1, 60, 59], [1, 5, 4], 1, ["points.0"], id="unreachable-sum"),
        # Each pile alone is possible, together they need more tens than the deck has.
        pytest.param([42, 30, 48], [1, 1, 8], 0, ["points"], id="jointly-impossible"),
        # Every problem is reported at once.
        pytest.param(
            [10, 20], [5, -1, 6], 5, ["points", "tricks.1", "last_trick"], id="all-at-once"
        ),
        pytest.param([70, 30, 20], [8, 2, 0], 2, ["last_trick", "points.2"], id="both-trickless"),
    ],
)
def test_score_ramsch_rejects(points, tricks, last_trick, fields):
    with pytest.raises(RuleError) as caught:
        score_ramsch(points=points, tricks=tricks, last_trick=last_trick)
    assert fields_of(caught.value) == fields


@pytest.mark.parametrize(
    ("points", "tricks", "last_trick", "message"),
    [
        pytest.param(
            [34, 40, 46],
            [1, 4, 5],
            2,
            "Player 1 took 1 trick, 3 cards, which hold at most 33 card points; got 34.",
            id="at-most",
        ),
        pytest.param(
            [55, 33, 32],
            [8, 1, 1],
            0,
            "Player 1 took 8 tricks and the skat, 26 cards, which hold at least 56 card "
            "points; got 55.",
            id="at-least",
        ),
        pytest.param(
            [1, 60, 59],
            [1, 5, 4],
            1,
            "Player 1 took 1 trick, 3 cards, and no 3 Skat cards are worth exactly 1 card point.",
            id="unreachable",
        ),
        pytest.param(
            [42, 30, 48],
            [1, 1, 8],
            0,
            "The 32 cards cannot be shared out to give these card points with these tricks "
            "(player 1 42 in 5 cards, player 2 30 in 3 cards and player 3 48 in 24 cards); "
            "please count again.",
            id="jointly",
        ),
        pytest.param(
            [50, 45, 24],
            [4, 4, 2],
            2,
            "The card points add up to 119, but a deal has 120 (the skat counts for whoever "
            "took the last trick).",
            id="sum",
        ),
    ],
)
def test_score_ramsch_messages(points, tricks, last_trick, message):
    with pytest.raises(RuleError) as caught:
        score_ramsch(points=points, tricks=tricks, last_trick=last_trick)
    assert [p.message for p in caught.value.problems] == [message]


@st.composite
def played_ramsch(draw):
    """A real Ramsch deal: shuffled cards, a winner for each trick, the skat to the last."""
    order = draw(st.permutations(range(len(SKAT_DECK))))
    cards = [SKAT_DECK.cards[i] for i in order]
    winners = draw(st.lists(st.integers(0, 2), min_size=10, max_size=10))
    points = [0, 0, 0]
    tricks = [0, 0, 0]
    for number, winner in enumerate(winners):
        tricks[winner] += 1
        points[winner] += sum(CARD_POINTS[c.rank] for c in cards[3 * number : 3 * number + 3])
    points[winners[-1]] += sum(CARD_POINTS[c.rank] for c in cards[30:])
    return points, tricks, winners[-1]


@settings(max_examples=200, deadline=None)
@given(
    played_ramsch(),
    st.sampled_from(["all_tied_lose", "last_trick_loses"]),
    st.booleans(),
)
def test_ramsch_losers_lose_and_nobody_else_does(deal, tie, bock):
    # Ramsch: losers score at most 0; everyone else scores 0, except a Durchmarsch.
    points, tricks, last_trick = deal
    result = score_ramsch(
        points=points,
        tricks=tricks,
        last_trick=last_trick,
        options=RamschOptions(tie=tie),
        bock=bock,
    )
    for player, score in enumerate(result.scores):
        if player in result.losers:
            assert score <= 0
            assert score == -max(points) * 2 ** len(result.jungfrau) * (2 if bock else 1)
        elif player == result.durchmarsch:
            assert score == (240 if bock else 120)
        else:
            assert score == 0
    assert (result.durchmarsch is None) == bool(result.losers)
    assert_rules_known(result.explanation)


def test_a_real_deal_is_never_refused_with_many_shapes():
    # Card points: any real deal passes the checks (a fixed sample of lopsided deals).
    rng = random.Random(1999)
    for _ in range(300):
        cards = list(SKAT_DECK.cards)
        rng.shuffle(cards)
        cards.sort(key=lambda c: CARD_POINTS[c.rank], reverse=rng.random() < 0.5)
        winners = [rng.choice([0, 0, 0, 1, 2]) for _ in range(10)]
        points, tricks = [0, 0, 0], [0, 0, 0]
        for number, winner in enumerate(winners):
            tricks[winner] += 1
            points[winner] += sum(CARD_POINTS[c.rank] for c in cards[3 * number : 3 * number + 3])
        points[winners[-1]] += sum(CARD_POINTS[c.rank] for c in cards[30:])
        score_ramsch(points=points, tricks=tricks, last_trick=winners[-1])


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        pytest.param(None, RamschOptions(), id="none"),
        pytest.param({}, RamschOptions(), id="empty"),
        pytest.param({"tie": "all_tied_lose"}, RamschOptions(), id="default-spelled"),
        pytest.param({"tie": "last_trick_loses"}, LAST, id="last-trick"),
    ],
)
def test_ramsch_options_from_mapping(data, expected):
    options = RamschOptions.from_mapping(data)
    assert options == expected
    assert RamschOptions.from_mapping(options.as_dict()) == options


@pytest.mark.parametrize(
    ("data", "field", "fields"),
    [
        pytest.param({"tie": "nobody_loses"}, "options", ["options.tie"], id="bad-tie"),
        pytest.param({"tie": 1}, "options", ["options.tie"], id="tie-number"),
        pytest.param({"ties": "all_tied_lose"}, "options", ["options.ties"], id="unknown"),
        pytest.param(
            {"tie": "x", "jungfrau": False},
            "options.ramsch",
            ["options.ramsch.tie", "options.ramsch.jungfrau"],
            id="nested-field-both",
        ),
        pytest.param(["tie"], "options", ["options"], id="not-an-object"),
    ],
)
def test_ramsch_options_rejects(data, field, fields):
    with pytest.raises(RuleError) as caught:
        RamschOptions.from_mapping(data, field=field)
    assert fields_of(caught.value) == fields


def test_ramsch_options_messages():
    with pytest.raises(RuleError) as caught:
        RamschOptions.from_mapping({"tie": "x", "bock": True})
    assert [p.message for p in caught.value.problems] == [
        'tie must be one of "all_tied_lose" (every tied player loses) or "last_trick_loses" '
        "(the tied player who took the last trick loses).",
        '"bock" is not an option here; the options are tie.',
    ]


def test_bock_triggers_from_mapping():
    triggers = BockTriggers.from_mapping({"sixty_all": True, "grand_hand_won": True})
    assert triggers == BockTriggers(sixty_all=True, grand_hand_won=True)
    assert triggers.as_dict() == {
        "sixty_all": True,
        "lost_after_kontra": False,
        "hundred_or_more": False,
        "grand_hand_won": True,
    }
    assert BockTriggers.from_mapping(triggers.as_dict()) == triggers
    assert BockTriggers.from_mapping(None) == BockTriggers()


def test_bock_triggers_rejects():
    with pytest.raises(RuleError) as caught:
        BockTriggers.from_mapping({"sixty_all": "yes", "ramsch": True, "hundred_or_more": 1})
    assert [(p.field, p.message) for p in caught.value.problems] == [
        ("options.sixty_all", "sixty_all must be true or false."),
        (
            "options.ramsch",
            '"ramsch" is not an option here; the options are sixty_all, lost_after_kontra, '
            "hundred_or_more and grand_hand_won.",
        ),
        ("options.hundred_or_more", "hundred_or_more must be true or false."),
    ]


# ---------------------------------------------------------------------------
# Bock triggers
# ---------------------------------------------------------------------------

ALL_TRIGGERS = BockTriggers(True, True, True, True)
PLAIN = {
    "game": "hearts",
    "hand": False,
    "won": True,
    "declarer_points": 75,
    "kontra": False,
    "game_value": 30,
}


@pytest.mark.parametrize(
    ("triggers", "changes", "lines"),
    [
        # Bock rounds: a plain game triggers nothing.
        pytest.param(ALL_TRIGGERS, {}, [], id="nothing"),
        # Bock rounds, trigger "60:60".
        pytest.param(
            BockTriggers(sixty_all=True),
            {"declarer_points": 60, "won": False},
            ["The game ended 60:60"],
            id="sixty-all",
        ),
        pytest.param(
            BockTriggers(lost_after_kontra=True),
            {"declarer_points": 60, "won": False},
            [],
            id="sixty-all-not-chosen",
        ),
        # Without exact card points a 60:60 cannot be seen.
        pytest.param(
            BockTriggers(sixty_all=True),
            {"declarer_points": None, "won": False},
            [],
            id="sixty-all-points-unknown",
        ),
        # Card points do not count in Null, so 60:60 does not apply there.
        pytest.param(
            BockTriggers(sixty_all=True),
            {"game": "null", "declarer_points": 60, "won": False, "game_value": 23},
            [],
            id="sixty-all-null",
        ),
        # Bock rounds, trigger "lost after Kontra".
        pytest.param(
            BockTriggers(lost_after_kontra=True),
            {"kontra": True, "won": False, "declarer_points": 50},
            ["The declarer lost after the defenders said Kontra"],
            id="lost-after-kontra",
        ),
        pytest.param(
            BockTriggers(lost_after_kontra=True), {"kontra": True}, [], id="won-after-kontra"
        ),
        pytest.param(
            BockTriggers(lost_after_kontra=True),
            {"won": False, "declarer_points": 50},
            [],
            id="lost-without-kontra",
        ),
        # Bock rounds, trigger "a game worth 100 or more" (won or lost).
        pytest.param(
            BockTriggers(hundred_or_more=True),
            {"game_value": 100},
            ["The game was worth 100, 100 or more"],
            id="worth-100",
        ),
        pytest.param(
            BockTriggers(hundred_or_more=True),
            {"game": "grand", "game_value": 120, "won": False, "declarer_points": 40},
            ["The game was worth 120, 100 or more"],
            id="lost-worth-120",
        ),
        pytest.param(BockTriggers(hundred_or_more=True), {"game_value": 99}, [], id="worth-99"),
        # Bock rounds, trigger "a won Grand Hand".
        pytest.param(
            BockTriggers(grand_hand_won=True),
            {"game": "grand", "hand": True, "game_value": 72},
            ["A Grand Hand was won"],
            id="grand-hand-won",
        ),
        pytest.param(
            BockTriggers(grand_hand_won=True),
            {"game": "grand", "hand": True, "won": False, "declarer_points": 40, "game_value": 72},
            [],
            id="grand-hand-lost",
        ),
        pytest.param(
            BockTriggers(grand_hand_won=True),
            {"game": "grand", "game_value": 72},
            [],
            id="grand-not-hand",
        ),
        pytest.param(BockTriggers(grand_hand_won=True), {"hand": True}, [], id="suit-hand-won"),
        # Bock rounds: one game can hit several triggers, one round each.
        pytest.param(
            ALL_TRIGGERS,
            {
                "game": "grand",
                "hand": True,
                "won": False,
                "kontra": True,
                "declarer_points": 60,
                "game_value": 144,
            },
            [
                "The game ended 60:60",
                "The declarer lost after the defenders said Kontra",
                "The game was worth 144, 100 or more",
            ],
            id="three-at-once",
        ),
        pytest.param(
            ALL_TRIGGERS,
            {"game": "grand", "hand": True, "declarer_points": 90, "game_value": 120},
            ["The game was worth 120, 100 or more", "A Grand Hand was won"],
            id="grand-hand-worth-120",
        ),
        pytest.param(
            BockTriggers(), {"game": "grand", "hand": True, "game_value": 264}, [], id="all-off"
        ),
    ],
)
def test_bock_triggered(triggers, changes, lines):
    steps = bock_triggered(triggers=triggers, **{**PLAIN, **changes})
    suffix = ", so a Bock round (one deal per seat, every game doubled) is added."
    assert texts(steps) == [line + suffix for line in lines]
    assert all(step.rule == "skat-bock-rounds" for step in steps)


@pytest.mark.parametrize(
    ("changes", "fields"),
    [
        pytest.param({"game": "ramsch"}, ["game"], id="unknown-game"),
        pytest.param({"declarer_points": 121}, ["declarer_points"], id="points-over-120"),
        pytest.param({"declarer_points": -1}, ["declarer_points"], id="points-negative"),
        # Winning: a suit or grand game needs 61; 60:60 is lost.
        pytest.param({"declarer_points": 60}, ["won"], id="won-with-60"),
        # Game values run from 18 to 264.
        pytest.param({"game_value": 17}, ["game_value"], id="value-too-low"),
        pytest.param({"game_value": 528}, ["game_value"], id="value-with-re"),
        pytest.param(
            {"game": "skat", "declarer_points": 200, "game_value": 0},
            ["game", "declarer_points", "game_value"],
            id="all-at-once",
        ),
    ],
)
def test_bock_triggered_rejects(changes, fields):
    with pytest.raises(RuleError) as caught:
        bock_triggered(triggers=ALL_TRIGGERS, **{**PLAIN, **changes})
    assert fields_of(caught.value) == fields


def test_null_won_with_no_points_is_fine():
    # Null: card points do not decide, so a won Null with few points is no contradiction.
    steps = bock_triggered(
        triggers=ALL_TRIGGERS, **{**PLAIN, "game": "null", "declarer_points": 0, "game_value": 59}
    )
    assert steps == ()


# ---------------------------------------------------------------------------
# Bock schedule
# ---------------------------------------------------------------------------

T, F = True, False


@pytest.mark.parametrize(
    ("players", "events", "expected"),
    [
        # Bock rounds: nothing triggered, no Bock deal.
        pytest.param(3, [0, 0, 0], (F, F, F), id="none"),
        pytest.param(3, [], (), id="no-deals"),
        # Bock rounds: a round is one deal per seat and starts with the next deal.
        pytest.param(3, [1, 0, 0, 0, 0], (F, T, T, T, F), id="one-round-three"),
        pytest.param(4, [1, 0, 0, 0, 0, 0], (F, T, T, T, T, F), id="one-round-four"),
        # Bock rounds: two triggers in one deal give two rounds in a row.
        pytest.param(3, [2, 0, 0, 0, 0, 0, 0, 0], (F, T, T, T, T, T, T, F), id="two-at-once"),
        # Bock rounds queue up: a second trigger's round waits for the first.
        pytest.param(3, [1, 1, 0, 0, 0, 0, 0, 0], (F, T, T, T, T, T, T, F), id="queued"),
        # A trigger during a running Bock round adds its round after the running one:
        # deal 1 owes 3; deal 3 (a Bock deal) adds 3 more, so deals 2 to 7 are Bock.
        pytest.param(3, [1, 0, 1, 0, 0, 0, 0, 0], (F, T, T, T, T, T, T, F), id="during-round"),
        # The last deal of a round triggering: the next round follows at once.
        pytest.param(
            4,
            [1, 0, 0, 0, 1, 0, 0, 0, 0, 0],
            (F, T, T, T, T, T, T, T, T, F),
            id="last-deal-of-round",
        ),
        # A trigger after the rounds ran out starts a fresh round.
        pytest.param(3, [1, 0, 0, 0, 0, 1, 0], (F, T, T, T, F, F, T), id="later-again"),
        # A thrown-in deal still uses up its place in the round.
        pytest.param(
            3, [1, BockEvent(0, thrown_in=True), 0, 0, 0], (F, T, T, T, F), id="thrown-in"
        ),
        pytest.param(4, [BockEvent(1), BockEvent(0), 0, 0, 0, 0], (F, T, T, T, T, F), id="events"),
    ],
)
def test_bock_schedule(players, events, expected):
    assert bock_schedule(players=players, events=events) == expected


@pytest.mark.parametrize(
    ("players", "events", "fields"),
    [
        pytest.param(6, [0], ["players"], id="six-players"),
        pytest.param(3, [0, -1], ["events.1"], id="negative"),
        # At most one round per trigger, and there are four triggers.
        pytest.param(3, [5], ["events.0"], id="more-than-triggers"),
        pytest.param(3, [BockEvent(1, thrown_in=True)], ["events.0"], id="thrown-in-triggers"),
        pytest.param(2, [0, BockEvent(-2), 9], ["players", "events.1", "events.2"], id="all"),
    ],
)
def test_bock_schedule_rejects(players, events, fields):
    with pytest.raises(RuleError) as caught:
        bock_schedule(players=players, events=events)
    assert fields_of(caught.value) == fields


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([3, 4]), st.lists(st.integers(0, 4), max_size=40))
def test_bock_deals_match_the_rounds_triggered(players, events):
    # Bock rounds: every round triggered is played in full unless the list ends first,
    # and no Bock deal comes before the first trigger.
    schedule = bock_schedule(players=players, events=events)
    owed = 0
    for hit, is_bock in zip(events, schedule, strict=True):
        assert is_bock == (owed > 0)
        owed = max(owed - 1, 0) + hit * players
    assert sum(schedule) == sum(events) * players - owed


def test_rule_sections_cover_the_anchors():
    assert set(RULE_SECTIONS) >= {
        "skat-seats",
        "skat-seeger-fabian",
        "skat-ramsch",
        "skat-bock-rounds",
    }
    assert all(anchor.startswith("skat-") for anchor in RULE_SECTIONS)


# -- Ramsch without the last trick: asked only when a tie needs it ----------------------
# Rule book, Ramsch: the player with the most card points loses them (the skat counted
# with the last trick); a tie makes all tied players lose, or by the option the tied
# player who took the last trick. So the last trick matters only for that option's tie.


def test_ramsch_without_the_last_trick_scores_a_clear_loser():
    result = score_ramsch(points=[30, 50, 40], tricks=[3, 4, 3], last_trick=None)
    assert result.scores == (0, -50, 0)
    assert result.explanation[0].text.endswith("(the skat counted with the last trick).")


def test_ramsch_without_the_last_trick_all_tied_lose():
    result = score_ramsch(points=[50, 50, 20], tricks=[4, 4, 2], last_trick=None)
    assert result.scores == (-50, -50, 0)


def test_ramsch_tie_settled_by_the_last_trick_asks_for_it():
    options = RamschOptions(tie="last_trick_loses")
    with pytest.raises(RuleError) as caught:
        score_ramsch(points=[50, 50, 20], tricks=[4, 4, 2], last_trick=None, options=options)
    assert [p.field for p in caught.value.problems] == ["last_trick"]
    assert caught.value.problems[0].message == (
        "Player 1 and player 2 are tied for the most card points, 50: say who took the last "
        "trick, because by this sheet's tie rule that one loses."
    )
    # Without a tie the same option needs no last trick.
    clear = score_ramsch(points=[30, 50, 40], tricks=[3, 4, 3], last_trick=None, options=options)
    assert clear.scores == (0, -50, 0)


def test_ramsch_piles_are_checked_for_whoever_could_have_the_skat():
    # 1 trick is 3 cards, at most 11 + 11 + 10 = 32 card points; with the skat (5 cards)
    # up to 11 × 4 + 10 = 54. 40 in one trick fits only if that player had the skat.
    fits = score_ramsch(points=[40, 50, 30], tricks=[1, 5, 4], last_trick=None)
    assert fits.scores == (0, -50, 0)
    with pytest.raises(RuleError):
        score_ramsch(points=[40, 50, 30], tricks=[1, 5, 4], last_trick=1)
