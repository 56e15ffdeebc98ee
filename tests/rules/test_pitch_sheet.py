"""The Pitch score sheet: deals replayed through the referee, team totals per seat."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import pitch
from games.rules.errors import RuleError
from games.rules.pitch import PitchOptions
from games.rules.pitch_sheet import (
    RULE_SECTIONS,
    TEAM_SEATS,
    PitchDeal,
    PitchSheet,
    replay,
    team_of,
)

PLAYERS = ("Ana", "Ben", "Cem", "Dee")
POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")
KNOWN_RULES = pitch.RULE_SECTIONS | RULE_SECTIONS


def pts(code: str) -> dict[str, str]:
    """Point holders in POINT_KEYS order: "A", "B" or "-" for out of play."""
    assert len(code) == len(POINT_KEYS)
    return {key: ("out" if c == "-" else c) for key, c in zip(POINT_KEYS, code, strict=True)}


def deal(pitcher: int, bid: int | str, code: str) -> PitchDeal:
    return PitchDeal(pitcher=pitcher, bid=bid, points=pts(code))


def sheet(first_dealer: int = 0, **options) -> PitchSheet:
    return PitchSheet(players=PLAYERS, first_dealer=first_dealer, options=PitchOptions(**options))


def problems_of(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str | None, str]]:
    return [(p.field, p.message) for p in error.value.problems]


# -- whole sheets --------------------------------------------------------------------

SHEETS = [
    pytest.param(
        {},
        [deal(1, 6, "BBABABAB")],
        (3, 7),
        (),
        # Made: the pitcher's team took at least its bid and scores what it took;
        # the opponents always score what they took.
        id="made-bid-scores-points-taken",
    ),
    pytest.param(
        {},
        [deal(0, 7, "AABBBBBA")],
        (-7, 5),
        (),
        # Set: the bid comes off the pitcher's score, which may go below zero.
        id="set-loses-the-bid-below-zero",
    ),
    pytest.param(
        {"made_scores": "bid"},
        [deal(2, 5, "AAAAAABB")],
        (5, 4),
        (),
        # Option made_scores=bid: a made bid scores the bid, not the 6 points taken.
        id="option-made-scores-the-bid",
    ),
    pytest.param(
        {},
        [deal(1, 4, "AAAAAA--")],
        (6, -4),
        (),
        # Points out of play score for nobody; team B took none of its 4 and is set.
        id="points-out-of-play-score-for-nobody",
    ),
    pytest.param(
        {"target": 11},
        [deal(0, 4, "AAAAAAAA"), deal(1, 4, "AAAAAAAA")],
        (20, -4),
        (0, 2),
        # End of the game: the first team to reach the target wins, even as opponents.
        id="opponents-reach-the-target-and-win",
    ),
    pytest.param(
        {"target": 11},
        [deal(0, 4, "AAAAABBB"), deal(1, 4, "AAAAABBB"), deal(1, 4, "AAAAABBB")],
        (15, 15),
        (1, 3),
        # Both teams reach the target on one hand: the pitcher's team wins.
        id="both-reach-the-target-pitcher-wins",
    ),
    pytest.param(
        {"target": 11},
        [deal(0, 4, "AAAAABBB"), deal(1, 4, "AAAAABBB"), deal(1, 6, "AAAAABBB")],
        (15, 4),
        (0, 2),
        # Default win condition: team A reaches the target on B's hand and wins.
        id="bidder-first-opponents-reaching-target-win",
    ),
    pytest.param(
        {"target": 11, "win_condition": "bid_out"},
        [
            deal(0, 4, "AAAAABBB"),
            deal(1, 4, "AAAAABBB"),
            deal(1, 6, "AAAAABBB"),
            deal(0, 4, "AAAABBBB"),
        ],
        (19, 10),
        (0, 2),
        # Option bid_out: a team wins only on a hand it pitched and made, so A at 15
        # plays on after B's hand and wins on its own made bid.
        id="bid-out-wins-only-on-own-made-bid",
    ),
    pytest.param(
        {},
        [deal(0, 4, "AAAAABBB"), deal(2, "moon", "AAAAAAAA")],
        (52, 5),
        (0, 2),
        # Moon made with a score above zero: the score becomes the target and wins.
        id="moon-made-above-zero-wins",
    ),
    pytest.param(
        {},
        [deal(1, "moon", "BBBBBBBB")],
        (0, 0),
        (),
        # Moon made with a score of zero: the score becomes 0 and play goes on.
        id="moon-made-at-zero-plays-on",
    ),
    pytest.param(
        {},
        [deal(0, 9, "BBBBBBBB"), deal(0, "moon", "AAAAAAAA")],
        (0, 10),
        (),
        # Moon made below zero: the score is raised to 0 and play goes on.
        id="moon-made-below-zero-raises-to-zero",
    ),
    pytest.param(
        {},
        [deal(1, "moon", "BBBBBBBA")],
        (3, 0),
        (0, 2),
        # Moon failed: the pitcher's team keeps its score and loses the game at once;
        # the opponents add what they took and win.
        id="moon-failed-loses-the-game",
    ),
]


@pytest.mark.parametrize(("options", "deals", "teams", "winners"), SHEETS)
def test_whole_sheets_end_with_exact_team_totals(options, deals, teams, winners):
    state = replay(players=PLAYERS, first_dealer=0, options=PitchOptions(**options), deals=deals)
    team_a, team_b = teams
    assert state.details["teams"] == {"A": team_a, "B": team_b}
    assert state.totals == (team_a, team_b, team_a, team_b)
    assert state.winners == winners
    assert state.finished is bool(winners)
    assert (state.next_deal is None) is bool(winners)
    assert len(state.deals) == len(deals)
    assert [d.number for d in state.deals] == list(range(1, len(deals) + 1))
    for result in state.deals:
        assert {step.rule for step in result.explanation} <= set(KNOWN_RULES)


def test_a_deal_shows_per_seat_what_the_team_scored():
    # Seats 0 and 2 are team A, seats 1 and 3 team B: each seat shows its team's score.
    result = sheet().add(deal(1, 6, "BBABABAB"))
    assert result.scores == (3, 7, 3, 7)
    assert result.totals == (3, 7, 3, 7)
    assert result.dealer == 0
    assert result.details == {
        "pitcher": 1,
        "team": "B",
        "bid": 6,
        "made": True,
        "delta": {"A": 3, "B": 7},
        "taken": {"A": 3, "B": 7},
        "winner": None,
        "level": False,
    }


@pytest.mark.parametrize(
    ("deals", "summary"),
    [
        pytest.param([deal(1, 6, "BBABABAB")], "Ben bid 6 for team B: made, B +7, A +3", id="made"),
        pytest.param([deal(0, 7, "AABBBBBA")], "Ana bid 7 for team A: set, A −7, B +5", id="set"),
        pytest.param(
            [deal(1, "moon", "BBBBBBBB")],
            "Ben bid moon for team B: made, B 0, A 0",
            id="moon-at-zero",
        ),
        pytest.param(
            [deal(0, 4, "AAAAABBB"), deal(2, "moon", "AAAAAAAA")],
            "Cem bid moon for team A: made, A +47, B 0; team A wins",
            id="moon-wins",
        ),
        pytest.param(
            [deal(3, "moon", "BBBBBBBA")],
            "Dee bid moon for team B: set, B 0, A +3; team A wins",
            id="moon-failed",
        ),
    ],
)
def test_summary_names_the_pitcher_the_outcome_and_both_changes(deals, summary):
    # One line per deal: the pitcher's team first, then the opponents, then any winner.
    state = replay(players=PLAYERS, first_dealer=0, options=None, deals=deals)
    assert state.deals[-1].summary == summary


def test_explanation_says_who_dealt_and_pitched_then_gives_the_referee_steps():
    result = sheet(first_dealer=2).add(deal(3, 4, "BBBBBBBA"))
    texts = [step.text for step in result.explanation]
    assert texts[0] == (
        "Deal 1: Cem dealt, and Dee (team B, with Ben) won the bidding with 4 and pitched."
    )
    assert result.explanation[0].rule == "pitch-bidding"
    referee = pitch.score_hand(bid=4, pitcher_team="B", points=pts("BBBBBBBA"))
    assert result.explanation[1:] == referee.explanation


def test_explanation_of_the_last_deal_names_the_winners():
    # End of the game: the sheet closes by naming the two partners who won.
    result = sheet().add(deal(3, "moon", "BBBBBBBA"))
    assert result.explanation[-1].text == "The game is over: Ana and Cem win it for team A."
    assert result.explanation[-1].rule == "pitch-game-end"
    assert result.details["winner"] == "A"


def test_explanation_of_a_moon_says_the_pitcher_bid_moon():
    result = sheet(first_dealer=3).add(deal(0, "moon", "AAAAAAAA"))
    assert result.explanation[0].text == (
        "Deal 1: Dee dealt, and Ana (team A, with Cem) bid moon and pitched."
    )


def test_explanation_passes_the_running_scores_to_the_referee():
    # The referee reads the scores before the hand from the sheet, not from the deal.
    s = sheet()
    s.add(deal(0, 4, "AAAAABBB"))
    result = s.add(deal(1, 5, "AAAAABBB"))
    assert "Scores: team A 5 → 10, team B 5 → 10." in [step.text for step in result.explanation]


# -- dealer, next deal and headline --------------------------------------------------


def test_the_deal_passes_left_and_bidding_starts_left_of_the_dealer():
    # The deal passes to the left each hand; the player after the dealer bids first.
    s = sheet(first_dealer=2)
    dealers = []
    for _ in range(5):
        upcoming = s.state.next_deal
        dealers.append((upcoming.number, upcoming.dealer, upcoming.forehand))
        assert s.add(deal(0, 4, "AAAABBBB")).dealer == upcoming.dealer
    assert dealers == [(1, 2, 3), (2, 3, 0), (3, 0, 1), (4, 1, 2), (5, 2, 3)]


@pytest.mark.parametrize(
    ("all_pass", "note"),
    [
        # If the first three pass, the dealer must bid (the default).
        pytest.param("dealer_4", "If the first three pass, Ben as dealer must bid at least 4."),
        # Option redeal: a deal everybody passed is dealt again and not entered.
        pytest.param("redeal", "If all four pass, Ben deals again; enter nothing for that deal."),
    ],
    ids=["dealer-must-bid", "redeal"],
)
def test_the_next_deal_reminds_the_table_what_happens_when_all_pass(all_pass, note):
    assert sheet(first_dealer=1, all_pass=all_pass).state.next_deal.notes == (note,)


def test_a_new_sheet_starts_at_zero_with_deal_one():
    state = sheet(first_dealer=3).state
    assert state.players == PLAYERS
    assert state.deals == ()
    assert state.totals == (0, 0, 0, 0)
    assert state.finished is False
    assert state.winners == ()
    assert (state.next_deal.number, state.next_deal.dealer, state.next_deal.forehand) == (1, 3, 0)
    assert state.headline == "Team A 0 · Team B 0 · 52 wins"
    assert state.details == {
        "teams": {"A": 0, "B": 0},
        "target": 52,
        "hands": None,
        "team_seats": {"A": (0, 2), "B": (1, 3)},
        "winner": None,
        "level": False,
    }


# The headline stands at the top of a phone screen, over each team's total and its
# partners' names, so it names the teams by letter only.
@pytest.mark.parametrize(
    ("options", "deals", "headline"),
    [
        pytest.param(
            {},
            [deal(1, 6, "BBABABAB")],
            "Team A 3 · Team B 7 · 52 wins",
            id="running",
        ),
        pytest.param(
            {},
            [deal(0, 9, "BBBBBBBB")],
            "Team A −9 · Team B 10 · 52 wins",
            # Being set: the bid comes off, and scores can go below zero.
            id="below-zero",
        ),
        pytest.param(
            {},
            [deal(1, "moon", "BBBBBBBA")],
            "Team A won 3 to 0: team B's moon failed",
            # Shooting the moon: a failed moon loses the game at once, so team A wins
            # with 3 against 0, far from the target; nobody "needs" anything more.
            id="failed-moon",
        ),
        pytest.param(
            {},
            [deal(0, 9, "BBBBBBBB"), deal(1, "moon", "AAAAAAAA")],
            "Team A won 1 to 10: team B's moon failed",
            # Shooting the moon, failed: B keeps its 10 and loses the game at once; A adds
            # the 10 points it took (−9 + 10 = 1) and wins with fewer points than B.
            id="failed-moon-winner-behind",
        ),
        pytest.param(
            {},
            [deal(0, 4, "AAAAABBB"), deal(2, "moon", "AAAAAAAA")],
            "Team A won 52 to 5: it shot the moon",
            # Shooting the moon, made from above zero: the score becomes the target.
            id="moon-made",
        ),
        pytest.param(
            {"target": 11},
            [deal(0, 4, "AAAAAAAA"), deal(1, 4, "AAAAAAAA")],
            "Team A won 20 to −4: it reached 11",
            # End of the game: the first team to reach the target wins, even as opponents.
            id="reached",
        ),
        pytest.param(
            {"target": 11},
            [deal(0, 4, "AAAAABBB"), deal(1, 4, "AAAAABBB"), deal(1, 4, "AAAAABBB")],
            "Team B won 15 to 15: both teams reached 11 on the same hand, and team B pitched it",
            # End of the game: both teams reach the target on one hand, the pitcher's wins.
            id="both-reached",
        ),
        pytest.param(
            {"target": 11, "win_condition": "bid_out"},
            [
                deal(0, 4, "AAAAABBB"),
                deal(1, 4, "AAAAABBB"),
                deal(1, 6, "AAAAABBB"),
                deal(0, 4, "AAAABBBB"),
            ],
            "Team A won 19 to 10: it pitched, made its bid and reached 11",
            # Option bid_out: a team wins only on a hand it pitched and made.
            id="bid-out",
        ),
    ],
)
def test_headline_shows_both_teams_or_who_won_and_why(options, deals, headline):
    state = replay(players=PLAYERS, first_dealer=0, options=PitchOptions(**options), deals=deals)
    assert state.headline == headline
    assert "more" not in state.headline


# -- problems ------------------------------------------------------------------------


def test_a_table_with_every_problem_reports_them_all():
    with pytest.raises(RuleError) as caught:
        PitchSheet(
            players=["Ana", " ", "ana "],
            first_dealer=4,
            options={"target": 5, "colour": "red"},
        )
    fields = [field for field, _ in problems_of(caught)]
    assert fields == [
        "options.target",
        "options.colour",
        "players",
        "players.1",
        "players.2",
        "first_dealer",
    ]
    messages = dict(problems_of(caught))
    # Pitch is a partnership game: exactly four players, two teams of two.
    assert "exactly four" in messages["players"]
    assert "this sheet has 3" in messages["players"]
    assert messages["players.1"] == "Seat 2 needs a name."
    assert messages["players.2"] == (
        "ana already sits at seat 1; give every player a different name so the sheet can "
        "tell them apart."
    )
    assert messages["first_dealer"] == "The first dealer is one of the four seats, 0 to 3; got 4."


@pytest.mark.parametrize(
    "options",
    [None, {}, {"target": 60}, PitchOptions(target=60)],
    ids=["none", "empty", "mapping", "options"],
)
def test_options_may_be_given_as_options_a_mapping_or_nothing(options):
    s = PitchSheet(players=PLAYERS, first_dealer=0, options=options)
    expected = 52 if not options else 60
    assert s.options == PitchOptions(target=expected)


def test_a_deal_with_every_problem_reports_them_all_under_its_own_fields():
    s = sheet()
    bad_points = pts("AAAAAAAA") | {"three": "C"}
    with pytest.raises(RuleError) as caught:
        s.add(PitchDeal(pitcher=4, bid=10, points=bad_points))
    fields = [field for field, _ in problems_of(caught)]
    assert fields == ["pitcher", "bid", "points.three"]
    messages = dict(problems_of(caught))
    assert messages["pitcher"] == (
        "The pitcher is one of the four seats, 0 to 3 (0 is Ana, 1 is Ben, 2 is Cem, 3 is Dee); "
        "got 4."
    )
    assert "moon" in messages["bid"]
    assert s.state == sheet().state


@pytest.mark.parametrize(
    ("entered", "field"),
    [
        pytest.param(PitchDeal(pitcher=-1, bid=4, points=pts("AAAAAAAA")), "pitcher", id="seat"),
        # Bids run from 4 to 9, or moon.
        pytest.param(PitchDeal(pitcher=0, bid=3, points=pts("AAAAAAAA")), "bid", id="low-bid"),
        pytest.param(PitchDeal(pitcher=0, bid="pass", points=pts("AAAAAAAA")), "bid", id="pass"),
        # Every one of the ten points is named: taken by A or B, or out of play.
        pytest.param(
            PitchDeal(pitcher=0, bid=4, points=dict.fromkeys(POINT_KEYS[:-1], "A")),
            "points.three",
            id="missing-point",
        ),
        pytest.param(
            PitchDeal(pitcher=0, bid=4, points=pts("AAAAAAAA") | {"king": "A"}),
            "points",
            id="unknown-point",
        ),
    ],
)
def test_a_bad_deal_is_refused_at_its_field_and_changes_nothing(entered, field):
    s = sheet()
    s.add(deal(0, 4, "AAAABBBB"))
    before = s.state
    with pytest.raises(RuleError) as caught:
        s.add(entered)
    assert [f for f, _ in problems_of(caught)] == [field]
    assert s.state == before


def test_a_deal_after_the_game_is_over_is_refused_plainly():
    s = sheet()
    s.add(deal(1, "moon", "BBBBBBBA"))
    before = s.state
    with pytest.raises(RuleError) as caught:
        s.add(deal(0, 4, "AAAABBBB"))
    assert problems_of(caught) == [
        (
            None,
            "The game is over: team A (Ana & Cem) won 3 to 0 (team B's moon failed). Start a "
            "new sheet for another game.",
        )
    ]
    assert s.state == before


# -- replay and corrections ------------------------------------------------------------


def test_replay_reports_a_failing_deal_under_its_place_in_the_list():
    deals = [deal(0, 4, "AAAABBBB"), deal(1, 4, "AAAABBBB"), deal(7, 3, "AAAABBBB")]
    with pytest.raises(RuleError) as caught:
        replay(players=PLAYERS, first_dealer=0, options=None, deals=deals)
    assert [f for f, _ in problems_of(caught)] == ["hands.2.pitcher", "hands.2.bid"]


def test_replay_reports_a_deal_after_the_end_at_the_deal_itself():
    deals = [deal(1, "moon", "BBBBBBBA"), deal(0, 4, "AAAABBBB")]
    with pytest.raises(RuleError) as caught:
        replay(players=PLAYERS, first_dealer=0, options=None, deals=deals)
    assert [f for f, _ in problems_of(caught)] == ["hands.1"]


def test_a_correction_rescores_every_later_deal():
    # Store what was entered, derive the rest: fixing deal 1 moves every later total.
    deals = [deal(0, 5, "AAAABBBB"), deal(1, 5, "AAAABBBB"), deal(2, 4, "AAAABBBB")]
    before = replay(players=PLAYERS, first_dealer=0, options=None, deals=deals)
    assert [d.totals[:2] for d in before.deals] == [(-5, 6), (-1, 12), (3, 18)]
    corrected = [deal(0, 4, "AAAABBBB"), *deals[1:]]
    after = replay(players=PLAYERS, first_dealer=0, options=None, deals=corrected)
    assert [d.totals[:2] for d in after.deals] == [(4, 6), (8, 12), (12, 18)]
    assert [d.summary for d in after.deals[1:]] == [d.summary for d in before.deals[1:]]


def test_a_correction_that_ends_the_game_earlier_refuses_the_deals_after_it():
    deals = [deal(0, 4, "AAAABBBB"), deal(1, 4, "AAAABBBB")]
    corrected = [deal(1, "moon", "BBBBBBBA"), deals[1]]
    with pytest.raises(RuleError) as caught:
        replay(players=PLAYERS, first_dealer=0, options=None, deals=corrected)
    assert caught.value.problems[0].field == "hands.1"
    assert "The game is over" in caught.value.problems[0].message


# -- properties ----------------------------------------------------------------------

holders = st.sampled_from(("A", "B", "out"))
deals_strategy = st.builds(
    PitchDeal,
    pitcher=st.integers(0, 3),
    bid=st.one_of(st.integers(4, 9), st.just("moon")),
    points=st.fixed_dictionaries(dict.fromkeys(POINT_KEYS, holders)),
)
options_strategy = st.builds(
    PitchOptions,
    target=st.sampled_from((11, 21, 52)),
    made_scores=st.sampled_from(("taken", "bid")),
    two_goes_to=st.sampled_from(("taker", "player")),
    all_pass=st.sampled_from(("dealer_4", "redeal")),
    win_condition=st.sampled_from(("bidder_first", "bid_out")),
    # A game of a fixed number of hands, as a round of a party night plays (issue 21).
    hands=st.one_of(st.none(), st.integers(1, 12)),
)


def _play(options: PitchOptions, first_dealer: int, deals: list[PitchDeal]) -> PitchSheet:
    """Add deals until the game ends; the rest would be refused."""
    s = PitchSheet(players=PLAYERS, first_dealer=first_dealer, options=options)
    for entered in deals:
        if s.state.finished:
            break
        s.add(entered)
    return s


@settings(max_examples=150, deadline=None)
@given(options=options_strategy, first_dealer=st.integers(0, 3), deals=st.lists(deals_strategy))
def test_totals_are_the_sum_of_the_deals_and_partners_stand_together(options, first_dealer, deals):
    state = _play(options, first_dealer, deals).state
    for seat in range(4):
        assert state.totals[seat] == sum(d.scores[seat] for d in state.deals)
    # Partners sit opposite and share one score.
    assert state.totals[0] == state.totals[2]
    assert state.totals[1] == state.totals[3]
    assert state.details["teams"] == {"A": state.totals[0], "B": state.totals[1]}
    for number, result in enumerate(state.deals, start=1):
        assert result.dealer == (first_dealer + number - 1) % 4
        assert result.totals == tuple(
            sum(d.scores[seat] for d in state.deals[:number]) for seat in range(4)
        )
    if options.hands is not None:
        # A game of a fixed number of hands is over after them at the latest.
        assert len(state.deals) <= options.hands
        assert state.finished or len(state.deals) < options.hands
    if state.finished and state.details["level"]:
        # Level after the last of a fixed number of hands: over, and nobody won.
        assert len(state.deals) == options.hands
        assert state.totals[0] == state.totals[1]
        assert state.winners == ()
        assert state.deals[-1].details["winner"] is None
        assert state.next_deal is None
    elif state.finished:
        assert state.winners in (TEAM_SEATS["A"], TEAM_SEATS["B"])
        assert state.deals[-1].details["winner"] == team_of(state.winners[0])
        last = state.deals[-1].details
        if (
            len(state.deals) == options.hands
            and last["bid"] != "moon"
            and max(state.totals) < options.target
        ):
            # The game's last hand, not decided by a moon or the target: the higher
            # score wins a game of a fixed number of hands (a moon settles the game by
            # itself, even on the last hand: rule "pitch-moon").
            assert state.totals[state.winners[0]] > state.totals[1 - state.winners[0] % 2]
    else:
        assert state.next_deal.dealer == (first_dealer + len(state.deals)) % 4


@settings(max_examples=100, deadline=None)
@given(options=options_strategy, first_dealer=st.integers(0, 3), deals=st.lists(deals_strategy))
def test_replaying_a_prefix_gives_the_state_after_those_deals(options, first_dealer, deals):
    s = PitchSheet(players=PLAYERS, first_dealer=first_dealer, options=options)
    entered: list[PitchDeal] = []
    for next_deal in deals:
        if s.state.finished:
            with pytest.raises(RuleError):
                s.add(next_deal)
            break
        s.add(next_deal)
        entered.append(next_deal)
        assert (
            replay(players=PLAYERS, first_dealer=first_dealer, options=options, deals=entered)
            == s.state
        )


HYPHEN_MINUS = re.compile(r"(?<![\w.])-\d")


@settings(max_examples=100, deadline=None)
@given(options=options_strategy, first_dealer=st.integers(0, 3), deals=st.lists(deals_strategy))
def test_numbers_below_zero_are_written_with_a_real_minus_sign(options, first_dealer, deals):
    # Being set takes the bid off and scores can go below zero: the sheet writes −9
    # (U+2212, read as "minus"), never the hyphen of -9, in every line it shows.
    state = _play(options, first_dealer, deals).state
    shown = [state.headline, *(state.next_deal.notes if state.next_deal else ())]
    for result in state.deals:
        shown += [result.summary, *(step.text for step in result.explanation)]
    for text in shown:
        assert not HYPHEN_MINUS.search(text), text


def test_a_score_below_zero_is_written_with_a_real_minus_sign():
    # Being set: team A bids 9, takes nothing and goes to −9; a moon from there is
    # raised to 0 (Shooting the moon, made with a score of 0 or less).
    s = sheet()
    s.add(deal(0, 9, "BBBBBBBB"))
    result = s.add(deal(0, "moon", "AAAAAAAA"))
    texts = [step.text for step in result.explanation]
    assert "Scores: team A −9 → 0, team B 10 → 10." in texts
    assert "Team A had −9, not above zero, so its score becomes 0 and play goes on." in texts


# -- a game of a fixed number of hands -----------------------------------------------
# A round of a Pitch party night played as "N hands" (the rule book, "End of the game":
# a game of a fixed number of hands ends after its last hand unless a team reached the
# target first; the higher score wins, and level, nobody does).


def test_a_game_of_a_fixed_number_of_hands_is_won_by_the_higher_score_after_the_last():
    s = sheet(hands=2)
    s.add(deal(0, 6, "AABBBBBA"))  # A bid 6 and took 5: set, A −6, B +5
    assert s.state.headline == "Team A −6 · Team B 5 · 52 wins · hand 2 of 2"
    result = s.add(deal(1, 4, "BBBBAAAA"))  # B bid 4 and took 4: made, B 9, A 0
    state = s.state
    assert state.finished is True
    assert state.winners == TEAM_SEATS["B"]
    assert state.details["winner"] == "B"
    assert state.details["level"] is False
    assert state.next_deal is None
    assert state.headline == "Team B won 9 to 0: it had the higher score after 2 hands"
    assert result.summary.endswith("; team B wins")
    assert result.details["winner"] == "B"
    assert result.explanation[-1].text == (
        "Hand 2 was the game's last: team B has the higher score, 9 to 0, so Ben and Dee win it."
    )
    assert result.explanation[-1].rule == "pitch-game-end"
    with pytest.raises(RuleError, match="The game is over: team B"):
        s.add(deal(0, 4, "AAAAAAAA"))


def test_a_game_of_a_fixed_number_of_hands_can_end_level_and_nobody_wins():
    s = sheet(hands=1)
    result = s.add(deal(0, 5, "AAAAABBB"))  # A bid 5, took 5 (made): A +5, B +5
    state = s.state
    assert state.finished is True
    assert state.winners == ()
    assert state.details["winner"] is None
    assert state.details["level"] is True
    assert state.headline == "Level at 5 after 1 hand: nobody wins"
    assert result.summary.endswith("; the game ends level")
    assert result.details["level"] is True
    assert "the game is over, level, and nobody wins it." in result.explanation[-1].text
    with pytest.raises(RuleError, match="ended level at 5 after its 1 hand\\."):
        s.add(deal(1, 4, "AAAAAAAA"))


def test_the_target_still_ends_a_game_of_a_fixed_number_of_hands_before_its_last():
    s = sheet(target=11, hands=5)
    s.add(deal(0, 4, "AAAAAAAA"))  # A takes all ten: 10
    result = s.add(deal(0, 4, "AAAAAAAA"))  # 20: over the target on hand 2
    assert s.state.winners == TEAM_SEATS["A"]
    assert s.state.headline == "Team A won 20 to 0: it reached 11"
    assert result.explanation[-1].text.startswith("The game is over: Ana and Cem win it")


def test_a_game_of_a_fixed_number_of_hands_replays_and_keeps_its_record():
    deals = [deal(0, 6, "AABBBBBA"), deal(1, 4, "BBBBAAAA")]
    s = sheet(hands=2)
    for d in deals:
        s.add(d)
    assert replay(players=PLAYERS, first_dealer=0, options=PitchOptions(hands=2), deals=deals) == (
        s.state
    )
    again = PitchSheet.from_record(
        s.record(), players=PLAYERS, first_dealer=0, options=PitchOptions(hands=2)
    )
    assert again.state.finished
    assert again.state.headline == s.state.headline


@pytest.mark.parametrize("hands", [0, 201, "ten", True, 2.5])
def test_the_number_of_hands_is_a_whole_number_from_1_to_200(hands):
    with pytest.raises(RuleError) as error:
        PitchOptions.from_mapping({"hands": hands})
    assert problems_of(error)[0][0] == "options.hands"
    assert "from 1 to 200 hands" in problems_of(error)[0][1]
