"""The Manipulation score sheet: rounds replayed through the referee, lowest total wins."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import manipulation
from games.rules.cards import MANIPULATION_DECK, Card, card
from games.rules.errors import RuleError
from games.rules.manipulation import ManipulationOptions, penalty_of, score_round
from games.rules.manipulation_sheet import (
    RULE_SECTIONS,
    ManipulationDeal,
    ManipulationSheet,
    replay,
)

FOUR = ("Ana", "Ben", "Cem", "Dee")
THREE = FOUR[:3]
FIVE = (*FOUR, "Eva")
KNOWN_RULES = manipulation.RULE_SECTIONS | RULE_SECTIONS


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(code) for code in text.split())


def hands(text: str) -> ManipulationDeal:
    """ "| AS KS | 3C" -> seat 0 went out, seat 1 holds A♠ K♠, seat 2 holds 3♣."""
    return ManipulationDeal(hands=tuple(cards(hand) for hand in text.split("|")))


def penalties(*points: int) -> ManipulationDeal:
    return ManipulationDeal(penalties=points)


def sheet(players=FOUR, first_dealer: int = 0, **options) -> ManipulationSheet:
    return ManipulationSheet(
        players=players, first_dealer=first_dealer, options=ManipulationOptions(**options)
    )


def play(players, deals, first_dealer: int = 0, **options):
    return replay(
        players=players,
        first_dealer=first_dealer,
        options=ManipulationOptions(**options),
        deals=deals,
    )


def problems_of(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str | None, str]]:
    return [(p.field, p.message) for p in error.value.problems]


# -- whole sheets --------------------------------------------------------------------

SHEETS = [
    pytest.param(
        FOUR,
        {},
        [hands("| AS KS 2H | 3C | JD JD")],
        (0, 30, 5, 20),
        (),
        # Penalties: ace 15, K Q J 10 ten each, 2 to 9 five each; going out scores 0.
        id="cards-left-in-hand-cost-their-penalty",
    ),
    pytest.param(
        THREE,
        {},
        [penalties(0, 35, 60), penalties(45, 0, 10)],
        (45, 35, 70),
        (),
        # Scores add up over the rounds.
        id="penalties-add-up-round-after-round",
    ),
    pytest.param(
        THREE,
        {},
        [penalties(5, 10, 15)],
        (5, 10, 15),
        (),
        # When the stock runs out nobody goes out and everyone pays.
        id="nobody-went-out",
    ),
    pytest.param(
        THREE,
        {},
        [penalties(0, 195, 5), penalties(0, 5, 5)],
        (0, 200, 10),
        (0,),
        # The game ends after the round in which someone reaches the target; lowest wins.
        id="reaching-the-target-exactly-ends-the-game",
    ),
    pytest.param(
        THREE,
        {},
        [penalties(0, 100, 5), penalties(5, 100, 0)],
        (5, 200, 5),
        (0, 2),
        # Equal lowest totals share the win.
        id="equal-lowest-totals-share-the-win",
    ),
    pytest.param(
        THREE,
        {"target": 300},
        [penalties(0, 100, 5), penalties(5, 100, 0)],
        (5, 200, 5),
        (),
        # Option target=300: 200 does not end the game.
        id="option-target-300-plays-on",
    ),
    pytest.param(
        FIVE,
        {},
        [hands("AH | | 10C QD | 9S 9S | KH"), penalties(20, 5, 10, 0, 15)],
        (35, 5, 30, 10, 25),
        (),
        # Five players, hands and penalties mixed on one sheet.
        id="five-players-hands-then-penalties",
    ),
]


@pytest.mark.parametrize(("players", "options", "deals", "totals", "winners"), SHEETS)
def test_whole_sheets_end_with_exact_totals(players, options, deals, totals, winners):
    state = play(players, deals, **options)
    assert state.totals == totals
    assert state.winners == winners
    assert state.finished is bool(winners)
    assert (state.next_deal is None) is bool(winners)
    assert [d.number for d in state.deals] == list(range(1, len(deals) + 1))
    assert state.deals[-1].totals == totals
    for result in state.deals:
        assert {step.rule for step in result.explanation} <= set(KNOWN_RULES)


def test_a_round_shows_penalties_per_seat_and_who_went_out():
    result = sheet().add(hands("AS KS 2H | | 3C | JD JD"))
    assert result.scores == (30, 0, 5, 20)
    assert result.totals == (30, 0, 5, 20)
    assert result.details == {"went_out": 1, "penalties": (30, 0, 5, 20)}
    assert sheet().add(penalties(5, 10, 15, 20)).details["went_out"] is None


@pytest.mark.parametrize(
    ("players", "deals", "summary"),
    [
        pytest.param(
            FOUR,
            [hands("| AS KS 2H | 3C | JD JD")],
            "Ana went out; Ben +30, Cem +5, Dee +20",
            id="went-out",
        ),
        pytest.param(
            THREE, [penalties(5, 10, 15)], "Nobody went out; Ana +5, Ben +10, Cem +15", id="stock"
        ),
        pytest.param(
            THREE,
            [penalties(0, 195, 5), penalties(0, 5, 5)],
            "Ana went out; Ben +5, Cem +5; Ana wins",
            id="wins",
        ),
        pytest.param(
            THREE,
            [penalties(0, 100, 5), penalties(5, 100, 0)],
            "Cem went out; Ana +5, Ben +100; Ana and Cem share the win",
            id="shared",
        ),
    ],
)
def test_summary_says_who_went_out_what_the_others_paid_and_who_won(players, deals, summary):
    assert play(players, deals).deals[-1].summary == summary


def test_explanation_says_who_dealt_and_played_first_then_the_referee_steps():
    # The deal passes left: with Cem dealing, Dee plays first.
    s = sheet(first_dealer=2)
    first = s.add(hands("| AS KS 2H | 3C | JD JD"))
    assert first.explanation[0].text == "Round 1: Cem dealt and Dee played first; Ana went out."
    assert first.explanation[0].rule == "manipulation-deal"
    referee = score_round(
        hands=dict(zip(FOUR, hands("| AS KS 2H | 3C | JD JD").hands, strict=True)),
        options=ManipulationOptions(),
    )
    assert first.explanation[1:] == referee.explanation
    second = s.add(penalties(5, 10, 15, 20))
    assert second.explanation[0].text == (
        "Round 2: Dee dealt and Ana played first; nobody went out."
    )
    # Later rounds give the referee the running totals.
    assert "Totals: Ana 0 + 5 = 5, Ben 30 + 10 = 40, Cem 5 + 15 = 20, Dee 20 + 20 = 40." in [
        step.text for step in second.explanation
    ]


# -- dealer, next deal and headline --------------------------------------------------


@pytest.mark.parametrize(
    ("players", "first_dealer", "expected"),
    [
        pytest.param(THREE, 1, [(1, 1, 2), (2, 2, 0), (3, 0, 1), (4, 1, 2)], id="three"),
        pytest.param(FIVE, 4, [(1, 4, 0), (2, 0, 1), (3, 1, 2), (4, 2, 3)], id="five"),
    ],
)
def test_the_deal_passes_left_and_play_starts_left_of_the_dealer(players, first_dealer, expected):
    s = sheet(players, first_dealer)
    seen = []
    for _ in expected:
        upcoming = s.state.next_deal
        seen.append((upcoming.number, upcoming.dealer, upcoming.forehand))
        assert s.add(penalties(5, *([0] + [5] * (len(players) - 2)))).dealer == upcoming.dealer
    assert seen == expected


@pytest.mark.parametrize(
    ("players", "deals", "headline"),
    [
        pytest.param(FOUR, [], "Round 1 · all on 0 · the game ends at 200", id="new"),
        pytest.param(
            THREE, [penalties(5, 5, 5)], "Round 2 · all on 5 · the game ends at 200", id="all-tied"
        ),
        pytest.param(
            FOUR,
            [hands("| AS KS 2H | 3C | JD JD"), penalties(100, 5, 0, 60)],
            "Round 3 · Cem leads with 5 · Ana is 100 from 200",
            id="running",
        ),
        pytest.param(
            FOUR,
            [penalties(5, 170, 5, 170)],
            "Round 2 · Ana and Cem lead with 5 · Ben and Dee are 30 from 200",
            id="ties",
        ),
        pytest.param(
            THREE,
            [penalties(0, 210, 5)],
            "Game over after 1 round · Ben reached 210 · Ana wins with 0",
            id="over-in-one",
        ),
        pytest.param(
            THREE,
            [penalties(0, 100, 5), penalties(5, 100, 0)],
            "Game over after 2 rounds · Ben reached 200 · Ana and Cem share the win with 5",
            id="over-shared",
        ),
    ],
)
def test_headline_shows_the_round_the_leader_and_the_closest_to_the_target(
    players, deals, headline
):
    # Lowest total leads; the highest total is nearest to ending the game.
    assert play(players, deals).headline == headline


@pytest.mark.parametrize(
    ("deals", "closest"),
    [
        pytest.param([], {"seats": (0, 1, 2), "points_left": 200}, id="new"),
        pytest.param([penalties(0, 35, 60)], {"seats": (2,), "points_left": 140}, id="one"),
        pytest.param([penalties(0, 60, 60)], {"seats": (1, 2), "points_left": 140}, id="two"),
        pytest.param([penalties(0, 250, 60)], {"seats": (1,), "points_left": 0}, id="reached"),
    ],
)
def test_details_name_the_target_and_the_seats_closest_to_it(deals, closest):
    assert play(THREE, deals).details == {"target": 200, "closest": closest}


# -- problems ------------------------------------------------------------------------


def test_a_table_with_every_problem_reports_them_all():
    with pytest.raises(RuleError) as caught:
        ManipulationSheet(
            players=["Ana", "", "ANA", "Ben", "Cem", "Dee"],
            first_dealer=9,
            options={"target": 250, "jokers": True},
        )
    messages = dict(problems_of(caught))
    assert list(messages) == [
        "options.jokers",
        "options.target",
        "players",
        "players.1",
        "players.2",
    ]
    assert messages["players"] == "Manipulation is played by 3 to 5 players; this sheet has 6."
    assert messages["players.1"] == "Seat 2 needs a name."
    assert messages["players.2"] == (
        "ANA already sits at seat 1; give every player a different name so the sheet can "
        "tell them apart."
    )


def test_the_first_dealer_is_one_of_the_seats():
    with pytest.raises(RuleError) as caught:
        ManipulationSheet(players=THREE, first_dealer=3, options=None)
    assert problems_of(caught) == [
        ("first_dealer", "The first dealer is one of the 3 seats, 0 to 2; got 3.")
    ]


@pytest.mark.parametrize(
    ("options", "target"),
    [
        pytest.param(None, 200, id="none"),
        pytest.param({"target": 300}, 300, id="mapping"),
        pytest.param(ManipulationOptions(target=300), 300, id="options"),
    ],
)
def test_options_may_be_given_as_options_a_mapping_or_nothing(options, target):
    s = ManipulationSheet(players=THREE, first_dealer=0, options=options)
    assert s.options == ManipulationOptions(target=target)


def test_options_built_directly_are_checked_too():
    # The game is played to 200 or 300; the dataclass alone would take 250.
    with pytest.raises(RuleError) as caught:
        ManipulationSheet(players=THREE, first_dealer=0, options=ManipulationOptions(target=250))
    assert [f for f, _ in problems_of(caught)] == ["options.target"]


@pytest.mark.parametrize(
    ("entered", "problems"),
    [
        pytest.param(
            ManipulationDeal(),
            [
                (
                    None,
                    'Enter the round either as the cards left in each hand ("hands", one list '
                    'per seat) or as each player\'s penalty points ("penalties", one number per '
                    "seat).",
                )
            ],
            id="neither",
        ),
        pytest.param(
            ManipulationDeal(hands=((), (), ()), penalties=(0, 5, 5)),
            [
                (
                    "penalties",
                    "Enter the round as hands or as penalties, not both: the penalties follow "
                    "from the hands.",
                )
            ],
            id="both",
        ),
        pytest.param(
            hands("| 2C | 3C | 4C"),
            [
                (
                    "hands",
                    "This table has 3 players (Ana, Ben, Cem), so give 3 hands, one per seat "
                    "in that order; got 4 hands.",
                )
            ],
            id="too-many-hands",
        ),
        pytest.param(
            penalties(5),
            [
                (
                    "penalties",
                    "This table has 3 players (Ana, Ben, Cem), so give 3 penalties, one per "
                    "seat in that order; got 1 penalty.",
                )
            ],
            id="too-few-penalties",
        ),
        pytest.param(
            ManipulationDeal(hands=((), (card("2C"), Card("JOKER-HIGH")), cards("3C"))),
            # The referee words this message itself (it starts with the card's label).
            [("hands.1.1", "high joker is not a Manipulation card: the game uses no jokers.")],
            id="joker-at-its-seat-and-place",
        ),
        pytest.param(
            hands("| 5H 5H 5H | 3C"),
            [
                (
                    "hands.1",
                    "5♥ is there 3 times, but there are only 2 of each card in two 52-card decks.",
                )
            ],
            id="three-copies-in-one-hand",
        ),
        pytest.param(
            hands("| | 3C"),
            [("hands", "Only one player can go out, but Ana and Ben both have no cards left.")],
            id="two-went-out",
        ),
        pytest.param(
            penalties(7, -5, 0),
            [
                (
                    "penalties.0",
                    "Ana's penalty of 7 cannot be right: every card costs 5, 10 or 15, so "
                    "penalties are multiples of 5.",
                ),
                ("penalties.1", "Ben's penalty cannot be negative (-5)."),
            ],
            id="penalties-at-their-seats",
        ),
        pytest.param(
            penalties(0, 0, 5),
            [
                (
                    "penalties",
                    "Only one player can go out, but Ana and Ben both have 0; a player still "
                    "holding cards scores at least 5.",
                )
            ],
            id="two-zeros",
        ),
    ],
)
def test_a_bad_round_is_refused_at_its_fields_and_changes_nothing(entered, problems):
    s = sheet(THREE)
    s.add(penalties(0, 5, 10))
    before = s.state
    with pytest.raises(RuleError) as caught:
        s.add(entered)
    assert problems_of(caught) == problems
    assert s.state == before


@pytest.mark.parametrize(
    ("players", "seat_hand", "field"),
    [
        # A name with a dot in it is still one seat.
        pytest.param(("Ana", "Ana.x", "Bo"), 1, "hands.1.0", id="dotted-name"),
        pytest.param(("J. Smith", "Ana", "Bo"), 0, "hands.0.0", id="initial"),
    ],
)
def test_problems_under_a_players_name_move_to_their_seat(players, seat_hand, field):
    held = [cards("2C"), cards("3C"), ()]
    held[seat_hand] = (Card("JOKER-LOW"),)
    with pytest.raises(RuleError) as caught:
        sheet(players).add(ManipulationDeal(hands=tuple(held)))
    assert [f for f, _ in problems_of(caught)] == [field]


def test_a_problem_with_a_whole_hand_goes_to_the_seat_whose_name_it_is():
    """Seats "A" and "A.1": a problem with all of A.1's hand (three copies of one card:
    the rules allow two decks) belongs to seat 1, not to card 1 of seat 0's hand
    (audit of stop 33)."""
    with pytest.raises(RuleError) as caught:
        sheet(("A", "A.1", "B")).add(ManipulationDeal(hands=((), cards("AS AS AS"), cards("2C"))))
    assert [f for f, _ in problems_of(caught)] == ["hands.1"]


def test_a_round_after_the_game_is_over_is_refused_plainly():
    s = sheet(THREE)
    s.add(penalties(0, 100, 5))
    s.add(penalties(5, 100, 0))
    before = s.state
    with pytest.raises(RuleError) as caught:
        s.add(penalties(0, 5, 5))
    assert problems_of(caught) == [
        (
            None,
            "The game is over: Ben reached 200 and Ana and Cem shared the win with 5. Start a "
            "new sheet for another game.",
        )
    ]
    assert s.state == before


def test_a_finished_game_names_a_single_winner_in_the_past_tense():
    s = sheet(THREE)
    s.add(penalties(0, 210, 5))
    with pytest.raises(RuleError) as caught:
        s.add(penalties(0, 5, 5))
    assert caught.value.problems[0].message.startswith(
        "The game is over: Ben reached 210 and Ana won with 0."
    )


# -- replay and corrections ------------------------------------------------------------


def test_replay_reports_a_failing_round_under_its_place_in_the_list():
    deals = [penalties(0, 5, 10), hands("| 2C"), penalties(3, 0, 5)]
    with pytest.raises(RuleError) as caught:
        play(THREE, deals)
    assert [f for f, _ in problems_of(caught)] == ["hands.1.hands"]


def test_replay_reports_a_round_after_the_end_at_the_round_itself():
    with pytest.raises(RuleError) as caught:
        play(THREE, [penalties(0, 200, 5), penalties(0, 5, 5)])
    assert [f for f, _ in problems_of(caught)] == ["hands.1"]


def test_a_correction_rescores_every_later_round():
    # Store what was entered, derive the rest: fixing round 1 moves every later total.
    deals = [penalties(0, 150, 5), penalties(0, 5, 5), penalties(5, 0, 5)]
    before = play(THREE, deals)
    assert [d.totals for d in before.deals] == [(0, 150, 5), (0, 155, 10), (5, 155, 15)]
    corrected = play(THREE, [penalties(0, 50, 5), *deals[1:]])
    assert [d.totals for d in corrected.deals] == [(0, 50, 5), (0, 55, 10), (5, 55, 15)]
    assert corrected.headline == "Round 4 · Ana leads with 5 · Ben is 145 from 200"


def test_a_correction_that_ends_the_game_earlier_refuses_the_rounds_after_it():
    deals = [penalties(0, 150, 5), penalties(0, 5, 5)]
    with pytest.raises(RuleError) as caught:
        play(THREE, [penalties(0, 200, 5), *deals[1:]])
    assert caught.value.problems[0].field == "hands.1"
    assert "The game is over" in caught.value.problems[0].message


# -- properties ----------------------------------------------------------------------


@st.composite
def penalty_rounds(draw, players: int) -> ManipulationDeal:
    # Every card costs 5, 10 or 15, so penalties come in fives; at most one player
    # goes out. 150 each keeps five players under what both decks can cost.
    points = draw(st.lists(st.integers(1, 30), min_size=players, max_size=players))
    went_out = draw(st.none() | st.integers(0, players - 1))
    return ManipulationDeal(
        penalties=tuple(0 if seat == went_out else 5 * p for seat, p in enumerate(points))
    )


@st.composite
def hand_rounds(draw, players: int) -> ManipulationDeal:
    shuffled = draw(st.permutations(MANIPULATION_DECK.cards))
    sizes = draw(st.lists(st.integers(1, 8), min_size=players, max_size=players))
    went_out = draw(st.none() | st.integers(0, players - 1))
    held, start = [], 0
    for seat, size in enumerate(sizes):
        size = 0 if seat == went_out else size
        held.append(tuple(shuffled[start : start + size]))
        start += size
    return ManipulationDeal(hands=tuple(held))


@st.composite
def sheets(draw, rounds):
    players = draw(st.sampled_from((THREE, FOUR, FIVE)))
    first_dealer = draw(st.integers(0, len(players) - 1))
    target = draw(st.sampled_from((200, 300)))
    deals = draw(st.lists(rounds(len(players)), max_size=12))
    return players, first_dealer, ManipulationOptions(target=target), deals


def _play(players, first_dealer, options, deals) -> ManipulationSheet:
    """Add rounds until the game ends; the rest would be refused."""
    s = ManipulationSheet(players=players, first_dealer=first_dealer, options=options)
    for entered in deals:
        if s.finished:
            break
        s.add(entered)
    return s


@settings(max_examples=150, deadline=None)
@given(table=sheets(penalty_rounds))
def test_totals_are_the_sum_of_the_penalties_and_the_lowest_wins(table):
    players, first_dealer, options, deals = table
    state = _play(players, first_dealer, options, deals).state
    seats = range(len(players))
    for seat in seats:
        assert state.totals[seat] == sum(d.scores[seat] for d in state.deals)
    for number, result in enumerate(state.deals, start=1):
        assert result.dealer == (first_dealer + number - 1) % len(players)
        assert result.scores == result.details["penalties"]
    # The game ends exactly when someone has reached the target; the lowest total wins.
    assert state.finished is (max(state.totals) >= options.target)
    if state.finished:
        lowest = min(state.totals)
        assert state.winners == tuple(s for s in seats if state.totals[s] == lowest)
    else:
        assert state.winners == ()
        assert state.next_deal.dealer == (first_dealer + len(state.deals)) % len(players)
        assert state.next_deal.forehand == (state.next_deal.dealer + 1) % len(players)


@settings(max_examples=60, deadline=None)
@given(table=sheets(penalty_rounds))
def test_replaying_a_prefix_gives_the_state_after_those_rounds(table):
    players, first_dealer, options, deals = table
    s = ManipulationSheet(players=players, first_dealer=first_dealer, options=options)
    entered: list[ManipulationDeal] = []
    for next_round in deals:
        if s.finished:
            with pytest.raises(RuleError):
                s.add(next_round)
            break
        s.add(next_round)
        entered.append(next_round)
        assert (
            replay(players=players, first_dealer=first_dealer, options=options, deals=entered)
            == s.state
        )


@settings(max_examples=60, deadline=None)
@given(table=sheets(hand_rounds))
def test_a_round_entered_as_hands_scores_as_its_penalties(table):
    # Penalties: the cards left in hand are worth exactly their penalty points.
    players, first_dealer, options, deals = table
    by_hands = _play(players, first_dealer, options, deals).state
    counted = [
        ManipulationDeal(penalties=tuple(penalty_of(hand) for hand in d.hands or ()))
        for d in deals[: len(by_hands.deals)]
    ]
    by_penalties = _play(players, first_dealer, options, counted).state
    assert by_penalties.totals == by_hands.totals
    assert by_penalties.winners == by_hands.winners
    assert [d.summary for d in by_penalties.deals] == [d.summary for d in by_hands.deals]
    assert [d.details for d in by_penalties.deals] == [d.details for d in by_hands.deals]
