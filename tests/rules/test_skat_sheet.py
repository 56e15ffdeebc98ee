"""The Skat score sheet: whole series replayed through the referee and the list rules."""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import accumulate

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import skat, skat_list
from games.rules.cards import card
from games.rules.errors import RuleError, Step
from games.rules.skat import Matadors, score_game
from games.rules.skat_list import BockTriggers, RamschOptions, score_ramsch
from games.rules.skat_sheet import (
    RULE_SECTIONS,
    RamschEntry,
    SkatDeal,
    SkatSheet,
    SkatSheetOptions,
    replay,
)
from tests.rules.test_skat_properties import legal_games

THREE = ("Ana", "Ben", "Cem")
FOUR = ("Ana", "Ben", "Cem", "Dan")
FIVE = ("Ana", "Ben", "Cem", "Dan", "Eva")
# The Skat rule book is built from every Skat module's sections together.
KNOWN_RULES = {**skat.RULE_SECTIONS, **skat_list.RULE_SECTIONS, **RULE_SECTIONS}


def played(declarer: int, game: str, *, bid: int = 18, **rest) -> SkatDeal:
    return SkatDeal(declarer=declarer, game={"game": game, "bid": bid, **rest})


def suit(declarer: int, game: str, count: int, outcome: str, *, direction="with", **rest):
    return played(declarer, game, matadors=Matadors(direction, count), outcome=outcome, **rest)


def ramsch(points, tricks, last_trick: int) -> SkatDeal:
    return SkatDeal(passed=True, ramsch=RamschEntry(tuple(points), tuple(tricks), last_trick))


PASSED = SkatDeal(passed=True)


def options(**chosen) -> SkatSheetOptions:
    return SkatSheetOptions.from_mapping(chosen)


def sheet_after(deals, *, players=THREE, first_dealer=0, **chosen) -> SkatSheet:
    sheet = SkatSheet(players=players, first_dealer=first_dealer, options=options(**chosen))
    for deal in deals:
        sheet.add(deal)
    return sheet


def fields_of(error: RuleError) -> list[str | None]:
    return [problem.field for problem in error.problems]


def texts(steps: tuple[Step, ...]) -> list[str]:
    return [step.text for step in steps]


def assert_rules_known(steps: tuple[Step, ...]) -> None:
    for step in steps:
        assert step.rule in KNOWN_RULES, step


# ---------------------------------------------------------------------------
# Whole sheets: per-deal scores and the classic list
# ---------------------------------------------------------------------------

WHOLE_SHEETS = [
    pytest.param(
        THREE,
        {},
        [suit(1, "grand", 2, "won", bid=48, hand=True), suit(0, "clubs", 1, "lost"), PASSED],
        [(0, 96, 0), (-48, 0, 0), (0, 0, 0)],
        id="won-lost-thrown-in",
        # Score on the list: won +value (Grand Hand with 2: 4 × 24); lost −2 × value
        # (Clubs with 1: 2 × 12 = 24, −48); a thrown-in deal scores nothing.
    ),
    pytest.param(
        THREE,
        {},
        [suit(2, "diamonds", 1, "won", bid=22)],
        [(0, 0, -54)],
        id="overbid",
        # Overbidding: Diamonds with 1 is worth 18 < 22, lost at 3 × 9 = 27, −54.
    ),
    pytest.param(
        THREE,
        {},
        [played(1, "null", bid=46, ouvert=True, outcome="lost")],
        [(0, -92, 0)],
        id="null-ouvert-lost",
        # Null: Null Ouvert is worth 46; lost counts double, −92.
    ),
    pytest.param(
        THREE,
        {"kontra_re": True},
        [
            suit(1, "clubs", 1, "won", kontra=True, re=True),
            suit(2, "clubs", 1, "lost", kontra=True),
        ],
        [(0, 96, 0), (0, 0, -96)],
        id="kontra-re",
        # Kontra and Re: Kontra doubles, Re doubles again (24 × 4); a lost game −48 × 2.
    ),
    pytest.param(
        FOUR,
        {},
        [suit(1, "grand", 1, "lost"), suit(2, "hearts", 1, "won")],
        [(0, -96, 0, 0), (0, 0, 20, 0)],
        id="four-table",
        # Seats: at four the dealer sits out; only the declarer's entry moves.
    ),
    pytest.param(
        THREE,
        {"bock": {"hundred_or_more": True}},
        [
            suit(1, "grand", 4, "won_schneider"),
            suit(2, "grand", 1, "won"),
            PASSED,
            suit(0, "diamonds", 1, "lost"),
            suit(1, "diamonds", 1, "won"),
        ],
        [(0, 144, 0), (0, 0, 96), (0, 0, 0), (-72, 0, 0), (0, 18, 0)],
        id="bock-round-after-a-hundred",
        # Bock rounds: a game worth 144 adds one round (one deal per seat, 3 deals);
        # each counts double, a thrown-in deal uses up its place, then scores are plain.
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch"},
        [ramsch((50, 40, 30), (4, 3, 3), 0)],
        [(-50, 0, 0)],
        id="ramsch-most-points-loses",
        # Ramsch: the player with the most card points scores minus that many.
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch"},
        [ramsch((70, 50, 0), (6, 4, 0), 0)],
        [(-140, 0, 0)],
        id="ramsch-jungfrau",
        # Ramsch: a player without a trick (Jungfrau) doubles the loss.
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch"},
        [ramsch((0, 0, 120), (0, 0, 10), 2)],
        [(0, 0, 120)],
        id="ramsch-durchmarsch",
        # Ramsch: taking every trick (Durchmarsch) scores +120.
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch"},
        [ramsch((45, 45, 30), (4, 3, 3), 0)],
        [(-45, -45, 0)],
        id="ramsch-tie-all-lose",
        # Ramsch: tied for most points, every tied player loses by default.
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch", "ramsch_tie": "last_trick_loses"},
        [ramsch((45, 45, 30), (4, 3, 3), 0)],
        [(-45, 0, 0)],
        id="ramsch-tie-last-trick-loses",
        # Ramsch option: of the tied players the one who took the last trick loses.
    ),
    pytest.param(
        FOUR,
        {"all_pass": "ramsch"},
        [ramsch((None, 50, 40, 30), (None, 4, 3, 3), 1), ramsch((30, 0, 50, 40), (3, 0, 4, 3), 2)],
        [(0, -50, 0, 0), (0, 0, -50, 0)],
        id="ramsch-four-table",
        # Ramsch at four: the dealer sitting out has null or 0 and is not scored; the
        # three who played are (deal 1: Ana sits out, deal 2: Ben sits out).
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch", "bock": {"hundred_or_more": True}},
        [suit(0, "grand", 4, "won_schneider"), ramsch((50, 40, 30), (4, 3, 3), 0)],
        [(144, 0, 0), (-100, 0, 0)],
        id="ramsch-on-a-bock-deal",
        # Bock rounds: a Ramsch in a Bock round counts double too.
    ),
]


@pytest.mark.parametrize(("players", "chosen", "deals", "scores"), WHOLE_SHEETS)
def test_whole_sheets(players, chosen, deals, scores):
    state = sheet_after(deals, players=players, **chosen).state
    assert [deal.scores for deal in state.deals] == scores
    running = list(accumulate(scores, lambda a, b: tuple(x + y for x, y in zip(a, b, strict=True))))
    assert [deal.totals for deal in state.deals] == running
    assert state.totals == running[-1]
    for deal in state.deals:
        assert_rules_known(deal.explanation)


# ---------------------------------------------------------------------------
# Bock rounds on the sheet
# ---------------------------------------------------------------------------

BOCK_CASES = [
    pytest.param(
        {"bock": {"hundred_or_more": True}},
        [suit(1, "grand", 4, "won_schneider"), *[PASSED] * 4],
        [False, True, True, True, False],
        [1, 0, 0, 0, 0],
        id="one-round-of-three",
        # Bock rounds: one round is one deal per seat, starting with the next deal.
    ),
    pytest.param(
        {"bock": {"hundred_or_more": True, "grand_hand_won": True}},
        [suit(1, "grand", 4, "won", hand=True), *[PASSED] * 7],
        [False, True, True, True, True, True, True, False],
        [2, 0, 0, 0, 0, 0, 0, 0],
        id="two-triggers-two-rounds",
        # Bock rounds: each trigger hit adds its own round; rounds queue up.
    ),
    pytest.param(
        {"bock": {"hundred_or_more": True}},
        [suit(1, "grand", 4, "won_schneider"), suit(2, "grand", 4, "won_schneider"), *[PASSED] * 6],
        [False, True, True, True, True, True, True, False],
        [1, 1, 0, 0, 0, 0, 0, 0],
        id="trigger-inside-a-round-lengthens-it",
        # Bock rounds queue up: a trigger during a Bock round adds its round after it.
    ),
    pytest.param(
        {"bock": {"sixty_all": True}},
        [suit(1, "diamonds", 1, None, declarer_points=60, declarer_tricks=5), PASSED],
        [False, True],
        [1, 0],
        id="sixty-all",
        # Bock rounds: a game ending 60:60 starts one.
    ),
    pytest.param(
        {"kontra_re": True, "bock": {"lost_after_kontra": True}},
        [suit(1, "clubs", 1, "lost", kontra=True), suit(2, "clubs", 1, "won", kontra=True)],
        [False, True],
        [1, 0],
        id="lost-after-kontra",
        # Bock rounds: a game lost after Kontra starts one; a won one does not.
    ),
    pytest.param(
        {"bock": {"grand_hand_won": True}},
        [suit(1, "grand", 1, "lost", hand=True), suit(1, "grand", 1, "won"), PASSED],
        [False, False, False],
        [0, 0, 0],
        id="grand-hand-must-be-won-and-hand",
        # Bock rounds: only a won Grand Hand counts, not a lost one or one with the skat.
    ),
    pytest.param(
        {},
        [suit(1, "grand", 4, "won", hand=True), PASSED],
        [False, False],
        [0, 0],
        id="no-triggers-chosen",
        # Bock rounds are a house rule: without triggers no deal is a Bock deal.
    ),
]


def _without_none_outcome(deal: SkatDeal) -> SkatDeal:
    game = {k: v for k, v in deal.game.items() if v is not None}
    return replace(deal, game=game)


@pytest.mark.parametrize(("chosen", "deals", "bock", "added"), BOCK_CASES)
def test_bock_deals_follow_from_earlier_triggers(chosen, deals, bock, added):
    deals = [_without_none_outcome(deal) for deal in deals]
    state = sheet_after(deals, **chosen).state
    assert [deal.details["bock"] for deal in state.deals] == bock
    assert [deal.details["bock_rounds_added"] for deal in state.deals] == added


def test_a_bock_deal_doubles_the_referees_score_and_says_so():
    state = sheet_after(
        [suit(0, "grand", 4, "won_schneider"), suit(1, "spades", 2, "lost")],
        bock={"hundred_or_more": True},
    ).state
    bock_deal = state.deals[1]
    plain = score_game(game="spades", bid=18, matadors=Matadors("with", 2), outcome="lost")
    assert bock_deal.scores == (0, 2 * plain.score, 0) == (0, -132, 0)
    assert bock_deal.summary == "Ben: Spades with 2, lost, −132 (Bock)"
    assert "This is a Bock deal: every score counts double." in texts(bock_deal.explanation)
    assert "A Bock game counts double: −132." in texts(bock_deal.explanation)


def test_the_trigger_and_the_queue_are_explained():
    deal = sheet_after([suit(0, "grand", 4, "won_schneider")], bock={"hundred_or_more": True})
    lines = texts(deal.state.deals[0].explanation)
    assert (
        "The game was worth 144, 100 or more, so a Bock round (one deal per seat, every game "
        "doubled) is added." in lines
    )
    assert "Bock deals now queued: 3." in lines


def test_a_thrown_in_bock_deal_uses_up_its_place():
    sheet = sheet_after(
        [suit(0, "grand", 4, "won_schneider"), PASSED], bock={"hundred_or_more": True}
    )
    thrown = sheet.state.deals[1]
    assert thrown.summary == "Thrown in (Bock)"
    assert "A thrown-in deal still uses up its place in the Bock round." in texts(
        thrown.explanation
    )
    assert sheet.state.details["bock_deals_queued"] == 2


NEXT_DEAL_NOTES = [
    pytest.param(
        [suit(0, "grand", 4, "won_schneider")],
        ("Bock: this deal counts double.", "3 Bock deals are queued, this one included."),
        id="round-queued",
        # Bock rounds: tell the scorer the next deal counts double and how many follow.
    ),
    pytest.param(
        [suit(0, "grand", 4, "won_schneider"), PASSED, PASSED],
        ("Bock: this deal counts double.", "It is the last Bock deal queued."),
        id="last-bock-deal",
    ),
    pytest.param([suit(0, "grand", 4, "won_schneider"), *[PASSED] * 3], (), id="round-over"),
]


@pytest.mark.parametrize(("deals", "notes"), NEXT_DEAL_NOTES)
def test_next_deal_notes_tell_of_bock(deals, notes):
    state = sheet_after(deals, bock={"hundred_or_more": True}).state
    assert state.next_deal.notes == notes
    assert state.next_deal.details["bock"] is bool(notes)
    assert state.next_deal.details["bock_deals_queued"] == state.details["bock_deals_queued"]


# ---------------------------------------------------------------------------
# Seats, the next deal, Seeger-Fabian, headline and the end of the series
# ---------------------------------------------------------------------------

NEXT_SEATS = [
    # Seats: the deal passes one seat on per deal; forehand sits left of the dealer.
    pytest.param(THREE, 0, 0, (1, 0, 1, None, 2, 0), id="three-first-deal"),
    pytest.param(THREE, 2, 1, (2, 0, 1, None, 2, 0), id="three-second-deal"),
    # Seats: at four the dealer sits out and the next three seats play.
    pytest.param(FOUR, 3, 0, (1, 3, 0, 3, 1, 2), id="four-first-deal"),
    pytest.param(FOUR, 3, 2, (3, 1, 2, 1, 3, 0), id="four-third-deal"),
    # Issue 17 (a table of five): the two to the dealer's left are forehand and
    # middlehand, the one to his right is rearhand.
    pytest.param(FIVE, 0, 0, (1, 0, 1, 0, 2, 4), id="five-first-deal"),
    pytest.param(FIVE, 0, 3, (4, 3, 4, 3, 0, 2), id="five-fourth-deal"),
]


@pytest.mark.parametrize(("players", "first_dealer", "done", "expected"), NEXT_SEATS)
def test_next_deal_seats(players, first_dealer, done, expected):
    sheet = sheet_after([PASSED] * done, players=players, first_dealer=first_dealer)
    upcoming = sheet.state.next_deal
    assert (
        upcoming.number,
        upcoming.dealer,
        upcoming.forehand,
        upcoming.sitting_out,
        upcoming.details["middlehand"],
        upcoming.details["rearhand"],
    ) == expected


def test_seeger_fabian_standings_at_four():
    # Seeger-Fabian: list points, ±50 per game won or lost as declarer, and 30 to each
    # of the other three (the dealer sitting out too) for a game lost.
    state = sheet_after(
        [suit(1, "grand", 1, "lost"), suit(2, "hearts", 1, "won")], players=FOUR
    ).state
    result = state.details["seeger_fabian"]
    assert [row.total for row in result.rows] == [30, -146, 100, 30]
    assert state.details["standings"] == result.standings == ((1, 2), (2, 0), (2, 3), (4, 1))
    assert state.headline == "Deal 3 of 48 · Cem leads (Seeger-Fabian 100)"
    assert state.winners == ()
    assert not state.finished
    assert state.details["deals_left"] == 46
    assert_rules_known(result.explanation)


HEADLINES = [
    pytest.param([], {}, "Deal 1 of 36 · no deal played yet", id="new-sheet"),
    pytest.param([PASSED], {}, "Deal 2 of 36 · everyone level (Seeger-Fabian 0)", id="level"),
    pytest.param(
        [suit(0, "clubs", 1, "lost")],
        {},
        "Deal 2 of 36 · Ben and Cem lead (Seeger-Fabian 40)",
        id="two-lead",
        # Seeger-Fabian: both defenders get 40 when the declarer loses at three.
    ),
    pytest.param(
        [suit(0, "clubs", 1, "won")] * 3,
        {"series_deals": 3},
        "Series over after 3 deals · Ana wins (Seeger-Fabian 222)",
        id="finished",
        # Seeger-Fabian: 3 × 24 list points + 3 × 50 for games won.
    ),
    pytest.param(
        [suit(0, "clubs", 1, "won"), suit(1, "clubs", 1, "won")],
        {"series_deals": 2},
        "Series over after 2 deals · Ana and Ben share first place (Seeger-Fabian 74)",
        id="finished-shared",
        # Seeger-Fabian ties go to more games won, then fewer lost; still equal: shared.
    ),
    pytest.param(
        [PASSED],
        {"series_deals": 1},
        "Series over after 1 deal · Ana, Ben and Cem share first place (Seeger-Fabian 0)",
        id="one-deal-series",
    ),
]


@pytest.mark.parametrize(("deals", "chosen", "headline"), HEADLINES)
def test_headline(deals, chosen, headline):
    assert sheet_after(deals, **chosen).state.headline == headline


def test_a_finished_series_has_winners_and_no_next_deal():
    sheet = sheet_after([suit(1, "clubs", 1, "won"), PASSED], series_deals=2)
    state = sheet.state
    assert state.finished
    assert state.winners == (1,)
    assert state.next_deal is None
    assert state.details["deals_left"] == 0


def test_a_shared_first_place_makes_several_winners():
    state = sheet_after([suit(0, "clubs", 1, "won"), suit(1, "clubs", 1, "won")], series_deals=2)
    assert state.state.winners == (0, 1)


def test_no_deal_after_the_series_is_over():
    sheet = sheet_after([PASSED, PASSED], series_deals=2)
    before = sheet.state
    with pytest.raises(RuleError) as caught:
        sheet.add(PASSED)
    assert fields_of(caught.value) == [None]
    assert str(caught.value) == (
        "The series is over: 2 deals were to be played and all have been. "
        "Start a new sheet to play another series."
    )
    assert sheet.state == before


@pytest.mark.parametrize(
    ("players", "series"),
    [pytest.param(THREE, 36, id="three"), pytest.param(FOUR, 48, id="four")],
)
def test_the_usual_series_depends_on_the_table(players, series):
    # Seats: a series is usually 36 deals at three and 48 at four, so all deal equally often.
    sheet = SkatSheet(players=players, first_dealer=0)
    assert sheet.series_deals == series
    assert sheet.state.details["series_deals"] == series


def test_the_last_deal_of_the_series_is_announced():
    state = sheet_after([PASSED], series_deals=2).state
    assert state.next_deal.notes == ("This is the last deal of the series.",)


# ---------------------------------------------------------------------------
# What each deal says: explanation, summary, details
# ---------------------------------------------------------------------------


def test_a_played_deal_is_explained_from_the_seats_to_the_list():
    sheet = sheet_after([PASSED])
    deal = sheet.add(suit(0, "grand", 2, "won", bid=48, hand=True))
    referee = score_game(
        game="grand", bid=48, hand=True, matadors=Matadors("with", 2), outcome="won"
    ).explanation
    assert deal.explanation == (
        Step("Deal 2, dealt by Ben; Cem is forehand.", "skat-seats"),
        Step("Ana played Grand Hand against Cem and Ben.", "skat-game-types"),
        *referee,
        Step("Ana's list: +96, now 96.", "skat-score-sheet"),
    )
    assert deal.summary == "Ana: Grand Hand with 2, won, +96"
    assert deal.number == 2
    assert deal.dealer == 1
    assert deal.details == {
        "declarer": 0,
        "game": "Grand Hand",
        "game_type": "grand",
        "overbid": False,
        "won": True,
        "game_value": 96,
        "score": 96,
        "passed": False,
        "ramsch": None,
        # The printed Spielliste's game columns: Grundwert, Spitzen, Gewinnstufen.
        "list_columns": {"base_value": 24, "matadors": {"with": 2}, "levels": ("hand",)},
        "bock": False,
        "bock_rounds_added": 0,
        "sitting_out": None,
        "sitting_out_seats": (),
    }


def test_at_four_the_dealer_sitting_out_is_named():
    deal = sheet_after([], players=FOUR).add(suit(2, "hearts", 1, "won"))
    assert texts(deal.explanation)[:2] == [
        "Deal 1, dealt by Ana, who sits it out; Ben is forehand.",
        "Cem played Hearts against Ben and Dan.",
    ]
    assert deal.details["sitting_out"] == 0


SUMMARIES = [
    pytest.param(
        suit(0, "diamonds", 1, "won", bid=22),
        {},
        "Ana: Diamonds with 1, lost (overbid), −54",
        id="overbid",
    ),
    pytest.param(
        suit(0, "clubs", 2, "won_schneider", hand=True, announced="schneider"),
        {},
        "Ana: Clubs Hand with 2, schneider announced, won schneider, +72",
        id="announced",
        # Levels: with 2, game, hand, schneider, schneider announced = 6 × 12.
    ),
    pytest.param(
        suit(0, "grand", 1, "won_schneider"),
        {},
        "Ana: Grand with 1, won schneider, +72",
        id="won-schneider",
        # Schneider: the opponents took 30 or fewer, a level: with 1, game, schneider = 3 × 24.
    ),
    pytest.param(
        suit(0, "grand", 1, "won_schwarz"),
        {},
        "Ana: Grand with 1, won schwarz, +96",
        id="won-schwarz",
        # Schwarz: every trick, counting schneider too: with 1, game, schneider, schwarz = 4 × 24.
    ),
    pytest.param(
        suit(0, "hearts", 1, "lost_schneider"),
        {},
        "Ana: Hearts with 1, lost schneider, −60",
        id="lost-schneider",
        # Schneider counts against a declarer with 30 or fewer: 3 × 10, lost double.
    ),
    pytest.param(
        played(0, "hearts", matadors=Matadors("with", 1), declarer_points=0, declarer_tricks=0),
        {},
        "Ana: Hearts with 1, lost schwarz, −80",
        id="lost-schwarz-by-count",
        # Schwarz counts against a declarer who took no trick: 4 × 10, lost double.
    ),
    pytest.param(
        suit(0, "clubs", 1, "won_schneider", bid=48),
        {},
        "Ana: Clubs with 1, lost (overbid), −96",
        id="overbid-though-schneider",
        # Overbidding: 3 × 12 = 36 is below 48, lost at 4 × 12; the opponents' schneider
        # does not save the game, so it is not named as the declarer's (ISkO 5.4.2).
    ),
    pytest.param(
        suit(0, "clubs", 1, "lost_schneider", bid=48),
        {},
        "Ana: Clubs with 1, lost schneider (overbid), −96",
        id="overbid-and-schneider",
        # Overbid and schneider against the declarer: the bid still sets the value.
    ),
    pytest.param(
        suit(0, "clubs", 2, "won", hand=True, announced="schneider"),
        {},
        "Ana: Clubs Hand with 2, schneider announced, lost (not schneider), −144",
        id="announced-schneider-missed",
        # Announcing schneider: the game is lost when the opponents are not schneider,
        # valued with every level announced (6 × 12, lost double).
    ),
    pytest.param(
        played(
            0,
            "grand",
            matadors=Matadors("with", 1),
            hand=True,
            announced="schwarz",
            declarer_points=100,
            declarer_tricks=9,
        ),
        {},
        "Ana: Grand Hand with 1, schwarz announced, lost (not schwarz), −336",
        id="announced-schwarz-missed",
        # Announcing schwarz: one trick for the opponents loses the game (7 × 24, lost double).
    ),
    pytest.param(
        suit(0, "grand", 1, "won_schneider", hand=True, ouvert=True),
        {},
        "Ana: Grand Ouvert with 1, lost (not schwarz), −384",
        id="ouvert-not-schwarz",
        # Ouvert: an open game counts as schwarz announced, so schneider is not enough
        # (with 1, game, hand, schneider, announced, schwarz, announced, ouvert = 8 × 24).
    ),
    pytest.param(
        suit(0, "spades", 3, "lost", direction="against"),
        {},
        "Ana: Spades against 3, lost, −88",
        id="against",
    ),
    pytest.param(played(0, "null", bid=23, outcome="won"), {}, "Ana: Null, won, +23", id="null"),
    pytest.param(
        played(0, "null", bid=23, declarer_tricks=1),
        {},
        "Ana: Null, lost, −46",
        id="null-lost",
        # Null is simply won or lost: one trick loses it, no schneider or schwarz.
    ),
    pytest.param(
        suit(0, "clubs", 1, "won", kontra=True, re=True),
        {"kontra_re": True},
        "Ana: Clubs with 1, won, +96 (Kontra, Re)",
        id="kontra-re",
    ),
    pytest.param(PASSED, {}, "Thrown in", id="thrown-in"),
    pytest.param(
        ramsch((50, 40, 30), (4, 3, 3), 0), {"all_pass": "ramsch"}, "Ramsch: Ana −50", id="ramsch"
    ),
    pytest.param(
        ramsch((45, 45, 30), (4, 3, 3), 0),
        {"all_pass": "ramsch"},
        "Ramsch: Ana −45, Ben −45",
        id="ramsch-tie",
    ),
    pytest.param(
        ramsch((70, 50, 0), (6, 4, 0), 0),
        {"all_pass": "ramsch"},
        "Ramsch: Ana −140 (Jungfrau)",
        id="ramsch-jungfrau",
    ),
    pytest.param(
        ramsch((0, 120, 0), (0, 10, 0), 1),
        {"all_pass": "ramsch"},
        "Ramsch: Durchmarsch by Ben, +120",
        id="ramsch-durchmarsch",
    ),
]


@pytest.mark.parametrize(("deal", "chosen", "summary"), SUMMARIES)
def test_summary_line(deal, chosen, summary):
    assert sheet_after([], **chosen).add(deal).summary == summary


def test_an_overbid_game_says_so_in_its_details():
    # Overbidding: Diamonds with 1 is worth 18 < 22, so it is lost at 27 (ISkO 5.4.2).
    deal = sheet_after([]).add(suit(0, "diamonds", 1, "won", bid=22))
    assert deal.details["overbid"] is True
    assert deal.details["game_type"] == "diamonds"
    assert deal.details["game_value"] == 27


def test_a_thrown_in_deal_is_explained():
    deal = sheet_after([]).add(PASSED)
    assert deal.explanation == (
        Step("Deal 1, dealt by Ana; Ben is forehand.", "skat-seats"),
        Step("Everyone passed: the deal is thrown in and scores nothing.", "skat-bidding"),
        Step("Nobody's list changes.", "skat-score-sheet"),
    )
    assert deal.details == {
        "declarer": None,
        "game": None,
        "game_type": None,
        "overbid": None,
        "won": None,
        "game_value": None,
        "score": None,
        "passed": True,
        "ramsch": None,
        "bock": False,
        "bock_rounds_added": 0,
        "sitting_out": None,
        "sitting_out_seats": (),
    }


def test_a_ramsch_at_four_is_explained_with_names_and_seats():
    # Ramsch: the referee numbers the three who play; the sheet names them by seat.
    deal = sheet_after([], players=FOUR, first_dealer=1, all_pass="ramsch").add(
        ramsch((30, 0, 50, 40), (3, 0, 4, 3), 2)
    )
    assert texts(deal.explanation) == [
        "Deal 1, dealt by Ben, who sits it out; Cem is forehand.",
        "Everyone passed, so the deal is played as Ramsch.",
        "Ramsch: Ana 30 card points in 3 tricks, Cem 50 card points in 4 tricks, "
        "Dan 40 card points in 3 tricks; Cem took the last trick and with it the skat.",
        "Cem has the most card points, 50, and loses that many.",
        "Scores: Ana 0, Cem −50, Dan 0.",
        "Cem's list: −50, now −50.",
    ]
    assert deal.scores == (0, 0, -50, 0)
    assert deal.details["ramsch"] == {
        "points": (30, 0, 50, 40),
        "tricks": (3, 0, 4, 3),
        "last_trick": 2,
        "losers": (2,),
        "jungfrau": (),
        "durchmarsch": None,
    }
    assert deal.details["game"] == "Ramsch"
    assert deal.details["passed"] is True


# ---------------------------------------------------------------------------
# A table of five (issue 17: the dealer and the third player to his left sit out; the
# two to his left and the one to his right play; Seeger-Fabian gives 24 for each game
# another player loses; a series is 60 deals)
# ---------------------------------------------------------------------------


def test_at_five_the_two_sitting_out_are_named_and_score_nothing():
    sheet = sheet_after([], players=FIVE)
    assert sheet.series_deals == 60
    upcoming = sheet.state.next_deal
    assert (upcoming.dealer, upcoming.sitting_out, upcoming.sitting_out_seats) == (0, 0, (0, 3))
    deal = sheet.add(suit(4, "hearts", 1, "lost"))
    assert texts(deal.explanation)[:2] == [
        "Deal 1, dealt by Ana, who sits it out with Dan; Ben is forehand.",
        "Eva played Hearts against Ben and Cem.",
    ]
    assert deal.scores == (0, 0, 0, 0, -40)
    assert (deal.details["sitting_out"], deal.details["sitting_out_seats"]) == (0, (0, 3))


def test_at_five_the_third_to_the_dealers_left_cannot_declare():
    sheet = sheet_after([PASSED], players=FIVE)  # deal 2: Ben deals, Ben and Eva sit out
    with pytest.raises(RuleError) as caught:
        sheet.add(suit(4, "hearts", 1, "won"))
    assert [(p.field, p.message) for p in caught.value.problems] == [
        (
            "declarer",
            "Eva sits this deal out at a table of five (the dealer and the third player to "
            "the dealer's left sit out), so cannot be declarer; the players are Cem, Dan "
            "and Ana.",
        )
    ]
    assert len(sheet.state.deals) == 1


def test_at_five_seeger_fabian_gives_24_to_each_of_the_other_four():
    # Issue 17: 24 for each game another player loses, both who sat out included.
    sheet = sheet_after([], players=FIVE)
    sheet.add(suit(1, "hearts", 1, "lost"))  # Ben loses 2 × 20: −40 (Ana and Dan out)
    rows = sheet.state.details["seeger_fabian"].rows
    assert [row.total for row in rows] == [24, -40 - 50, 24, 24, 24]
    assert [row.defence_bonus for row in rows] == [24, 0, 24, 24, 24]


def test_a_ramsch_at_five_is_played_by_the_three_at_the_table():
    sheet = sheet_after([], players=FIVE, first_dealer=1, all_pass="ramsch")
    # Ben deals; Ben and Eva sit out; Cem, Dan and Ana play.
    deal = sheet.add(ramsch((40, 0, 50, 30, None), (3, None, 4, 3, 0), 2))
    assert texts(deal.explanation)[0] == (
        "Deal 1, dealt by Ben, who sits it out with Eva; Cem is forehand."
    )
    assert deal.scores == (0, 0, -50, 0, 0)
    with pytest.raises(RuleError) as caught:
        sheet.add(ramsch((40, 0, 50, 30, 0), (3, 0, 4, 3, 1), 0))
    # Deal 2: Cem deals; Cem and Ana sit out; Dan, Eva and Ben play.
    assert [(p.field, p.message) for p in caught.value.problems] == [
        (
            "ramsch.points.0",
            "Ana sat this deal out, so took no card points; give 0 or leave it empty.",
        ),
        (
            "ramsch.points.2",
            "Cem dealt and sat this deal out, so took no card points; give 0 or leave it empty.",
        ),
        ("ramsch.tricks.0", "Ana sat this deal out, so took no tricks; give 0 or leave it empty."),
        (
            "ramsch.tricks.2",
            "Cem dealt and sat this deal out, so took no tricks; give 0 or leave it empty.",
        ),
        ("ramsch.last_trick", "Ana sat this deal out, so did not take the last trick."),
    ]


def test_at_five_the_messages_name_the_two_sitting_out():
    sheet = sheet_after([], players=FIVE, all_pass="ramsch")
    with pytest.raises(RuleError) as caught:
        sheet.add(ramsch((50, 30, 40), (4, 3, 3), 1))
    assert [p.message for p in caught.value.problems] == [
        "Give the card points of every seat (5, the 0 of the two sitting out included); got 3.",
        "Give the tricks of every seat (5, the 0 of the two sitting out included); got 3.",
    ]
    with pytest.raises(RuleError) as caught:
        SkatSheet(players=(*FIVE, "Fay"), first_dealer=0)
    assert [p.message for p in caught.value.problems] == [
        "A Skat sheet is kept for 3, 4 or 5 players (at four the dealer sits out each deal, "
        "at five the dealer and the third player to the dealer's left); got 6."
    ]
    with pytest.raises(RuleError) as caught:
        skat_list.seeger_fabian(
            players=5,
            deals=[skat_list.ListedDeal((0,) * 5, sitting_out=0, sitting_out_seats=(0, 7))],
        )
    assert [p.message for p in caught.value.problems] == [
        "A player who sits out is one of the seats (0 to 4); got 7."
    ]
    with pytest.raises(RuleError) as caught:
        skat_list.seats_for_deal(players=6, first_dealer=0, deal_number=1)
    assert [p.message for p in caught.value.problems] == [
        "Skat is kept for 3, 4 or 5 players (at four the dealer sits out each deal, at five "
        "the dealer and the third player to the dealer's left); got 6."
    ]


def test_ramsch_details_name_jungfrau_and_durchmarsch_by_seat():
    sheet = sheet_after([], players=FOUR, all_pass="ramsch")
    jungfrau = sheet.add(ramsch((None, 70, 50, 0), (None, 6, 4, 0), 1))
    durchmarsch = sheet.add(ramsch((0, None, 0, 120), (0, None, 0, 10), 3))
    assert jungfrau.details["ramsch"]["jungfrau"] == (3,)
    assert durchmarsch.details["ramsch"]["durchmarsch"] == 3
    assert durchmarsch.scores == (0, 0, 0, 120)


# ---------------------------------------------------------------------------
# Every problem with a deal, at the deal's own field names
# ---------------------------------------------------------------------------

DEAL_PROBLEMS = [
    pytest.param(
        THREE,
        {},
        suit(3, "clubs", 1, "won"),
        ["declarer"],
        "The declarer is one of the seats 0 to 2 (0 Ana, 1 Ben, 2 Cem); got 3.",
        id="declarer-not-a-seat",
    ),
    pytest.param(
        FOUR,
        {},
        suit(0, "clubs", 1, "won"),
        ["declarer"],
        "Ana dealt this deal and sits it out at a table of four, so cannot be declarer; "
        "the players are Ben, Cem and Dan.",
        id="declarer-sits-out",
        # Seats: at four the dealer sits the deal out.
    ),
    pytest.param(
        THREE,
        {},
        replace(suit(0, "grand", 1, "won"), declarer=None),
        ["declarer"],
        "Say which seat played the game (0 to 2), or enter the deal as passed if everyone passed.",
        id="declarer-missing",
    ),
    pytest.param(
        THREE,
        {},
        SkatDeal(declarer=0, game={"outcome": "won"}),
        ["game", "bid"],
        "Say which game was played.",
        id="game-and-bid-missing",
    ),
    pytest.param(
        THREE,
        {},
        suit(0, "clubs", 1, "won", kontra=True),
        ["kontra"],
        "This sheet is kept without Kontra and Re, so nobody can say Kontra; leave kontra out.",
        id="kontra-not-allowed",
        # Kontra and Re are a house rule chosen per sheet.
    ),
    pytest.param(
        THREE,
        {},
        suit(0, "clubs", 1, "won", kontra=True, re=True),
        ["kontra", "re"],
        None,
        id="kontra-and-re-not-allowed",
    ),
    pytest.param(
        THREE,
        {},
        suit(0, "clubs", 1, "won", bock=True),
        ["bock"],
        "The sheet itself knows which deals are Bock deals; leave bock out.",
        id="bock-given",
    ),
    pytest.param(
        THREE,
        {},
        suit(0, "clubs", 1, "won", trumps=4),
        ["trumps"],
        '"trumps" is not part of a Skat game on the sheet.',
        id="unknown-game-field",
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch"},
        replace(suit(0, "clubs", 1, "won"), ramsch=RamschEntry((50, 40, 30), (4, 3, 3), 0)),
        ["ramsch"],
        "A Ramsch is only entered for a deal everyone passed; this deal has a declarer, so "
        "leave ramsch out.",
        id="ramsch-with-a-declarer",
    ),
    pytest.param(
        THREE,
        {},
        played(0, "grand", bid=17, matadors=Matadors("with", 1), outcome="won"),
        ["bid"],
        None,
        id="referee-problem-bid",
        # Legal bids: the referee's own problems come through at the same fields.
    ),
    pytest.param(
        THREE,
        {},
        played(0, "grand", outcome="won"),
        ["matadors"],
        None,
        id="referee-problem-matadors",
    ),
    pytest.param(
        THREE,
        {},
        SkatDeal(declarer=0, passed=True),
        ["declarer"],
        "Everyone passed, so nobody is declarer; leave declarer out, or enter the game that "
        "was played instead of passed.",
        id="passed-with-declarer",
    ),
    pytest.param(
        THREE,
        {},
        SkatDeal(passed=True, game={"game": "grand", "bid": 18}),
        ["game", "bid"],
        "Everyone passed, so no game was played; leave game out.",
        id="passed-with-game",
    ),
    pytest.param(
        THREE,
        {},
        ramsch((50, 40, 30), (4, 3, 3), 0),
        ["ramsch"],
        "This sheet throws in a deal everyone passed; there is no Ramsch to enter, so leave "
        "ramsch out.",
        id="ramsch-on-a-throw-in-sheet",
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch"},
        PASSED,
        ["ramsch"],
        # The last trick is asked for only when a tie needs it (rule book: Ramsch).
        "This sheet plays Ramsch when everyone passes: give each seat's card points and "
        "tricks (and, for a tie the last trick settles, the seat that took it).",
        id="ramsch-missing",
    ),
    pytest.param(
        FOUR,
        {"all_pass": "ramsch"},
        ramsch((50, 40, 30), (4, 3, 3, 0, 0), 1),
        ["ramsch.points", "ramsch.tricks"],
        "Give the card points of every seat (4, the dealer's 0 included); got 3.",
        id="ramsch-one-entry-per-seat",
    ),
    pytest.param(
        FOUR,
        {"all_pass": "ramsch"},
        ramsch((10, 40, 40, 30), (1, 3, 3, 3), 1),
        ["ramsch.points.0", "ramsch.tricks.0"],
        "Ana dealt and sat this deal out, so took no card points; give 0 or leave it empty.",
        id="ramsch-dealer-sitting-out-took-nothing",
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch"},
        ramsch((50, None, 70), (4, None, 6), 0),
        ["ramsch.points.1", "ramsch.tricks.1"],
        "Give Ben's card points in the Ramsch.",
        id="ramsch-entry-missing",
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch"},
        ramsch((50, 40, 30), (4, 3, 3), 3),
        ["ramsch.last_trick"],
        "The last trick was taken by one of the seats 0 to 2 (0 Ana, 1 Ben, 2 Cem); got 3.",
        id="ramsch-last-trick-not-a-seat",
    ),
    pytest.param(
        FOUR,
        {"all_pass": "ramsch"},
        ramsch((0, 50, 40, 30), (0, 4, 3, 3), 0),
        ["ramsch.last_trick"],
        "Ana dealt and sat this deal out, so did not take the last trick.",
        id="ramsch-last-trick-by-the-dealer-sitting-out",
    ),
    pytest.param(
        FOUR,
        {"all_pass": "ramsch"},
        ramsch((None, 50, 40, 20), (None, 4, 3, 3), 1),
        ["ramsch.points"],
        "The card points add up to 110, but a deal has 120 (the skat counts for whoever took "
        "the last trick).",
        id="ramsch-points-add-up",
        # Ramsch: all 32 cards hold 120 card points.
    ),
    pytest.param(
        FOUR,
        {"all_pass": "ramsch"},
        ramsch((None, 50, 40, 30), (None, 4, 6, 0), 1),
        ["ramsch.points.3"],
        "Dan took no trick, so has no card points; got 30.",
        id="ramsch-referee-problem-at-the-seat",
        # Ramsch: card points come only with tricks; the referee's player 3 is seat 3 here.
    ),
    pytest.param(
        THREE,
        {"all_pass": "ramsch"},
        ramsch((50, 40, 30), (4, 0, 6), 1),
        ["ramsch.points.1", "ramsch.last_trick"],
        None,
        id="ramsch-last-trick-without-a-trick",
    ),
]


@pytest.mark.parametrize(("players", "chosen", "deal", "where", "message"), DEAL_PROBLEMS)
def test_deal_problems(players, chosen, deal, where, message):
    sheet = sheet_after([], players=players, **chosen)
    before = sheet.state
    with pytest.raises(RuleError) as caught:
        sheet.add(deal)
    assert sorted(fields_of(caught.value), key=str) == sorted(where, key=str)
    if message is not None:
        assert message in [p.message for p in caught.value.problems]
    # A deal with a problem changes nothing on the sheet.
    assert sheet.state == before


def test_every_problem_of_a_deal_at_once():
    deal = SkatDeal(
        declarer=7,
        game={"game": "grand", "bid": 17, "outcome": "won", "kontra": True, "bock": True},
        ramsch=RamschEntry((50, 40, 30), (4, 3, 3), 0),
    )
    with pytest.raises(RuleError) as caught:
        sheet_after([]).add(deal)
    assert fields_of(caught.value) == ["declarer", "bock", "kontra", "ramsch", "bid", "matadors"]


def test_ramsch_problems_name_the_players():
    with pytest.raises(RuleError) as caught:
        sheet_after([], all_pass="ramsch").add(ramsch((50, 40, 30), (4, 0, 6), 1))
    assert [(p.field, p.message) for p in caught.value.problems] == [
        ("ramsch.last_trick", "Ben took no trick, so cannot have taken the last one."),
        ("ramsch.points.1", "Ben took no trick, so has no card points; got 40."),
    ]


# ---------------------------------------------------------------------------
# Starting a sheet
# ---------------------------------------------------------------------------

SHEET_PROBLEMS = [
    pytest.param(("Ana", "Ben"), 0, SkatSheetOptions(), ["players"], id="two-players"),
    # Issue 17: a table of five is kept, a table of six is not.
    pytest.param(
        ("Ana",) * 1 + ("B", "C", "D", "E", "F"), 0, SkatSheetOptions(), ["players"], id="six"
    ),
    pytest.param(THREE, 3, SkatSheetOptions(), ["first_dealer"], id="first-dealer-not-a-seat"),
    pytest.param(THREE, -1, SkatSheetOptions(), ["first_dealer"], id="first-dealer-negative"),
    pytest.param(("Ana", " ", "Cem"), 0, SkatSheetOptions(), ["players.1"], id="empty-name"),
    pytest.param(("Ana", "Ben", "ana "), 0, SkatSheetOptions(), ["players.2"], id="same-name"),
    pytest.param(
        THREE,
        0,
        SkatSheetOptions(series_deals=0),
        ["options.series_deals"],
        id="options-built-directly",
    ),
    pytest.param(
        THREE,
        0,
        SkatSheetOptions(bock=BockTriggers(lost_after_kontra=True)),
        ["options.bock.lost_after_kontra"],
        id="options-contradict",
    ),
]


@pytest.mark.parametrize(("players", "first_dealer", "chosen", "where"), SHEET_PROBLEMS)
def test_sheet_problems(players, first_dealer, chosen, where):
    with pytest.raises(RuleError) as caught:
        SkatSheet(players=players, first_dealer=first_dealer, options=chosen)
    assert fields_of(caught.value) == where


def test_same_name_message():
    with pytest.raises(RuleError) as caught:
        SkatSheet(players=("Ana", "Ben", "ana"), first_dealer=0)
    assert str(caught.value) == (
        "ana already sits at seat 1; give every player a different name so the sheet "
        "can tell them apart."
    )


# ---------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------


def test_options_default():
    assert (
        SkatSheetOptions.from_mapping(None)
        == SkatSheetOptions.from_mapping({})
        == SkatSheetOptions()
    )
    assert SkatSheetOptions().as_dict() == {
        "kontra_re": False,
        "bock": {
            "sixty_all": False,
            "lost_after_kontra": False,
            "hundred_or_more": False,
            "grand_hand_won": False,
        },
        "all_pass": "throw_in",
        "ramsch_tie": "all_tied_lose",
        "series_deals": None,
    }


def test_options_round_trip():
    data = {
        "kontra_re": True,
        "bock": {
            "sixty_all": True,
            "lost_after_kontra": True,
            "hundred_or_more": False,
            "grand_hand_won": True,
        },
        "all_pass": "ramsch",
        "ramsch_tie": "last_trick_loses",
        "series_deals": 30,
    }
    read = SkatSheetOptions.from_mapping(data)
    assert read.as_dict() == data
    assert read.bock == BockTriggers(sixty_all=True, lost_after_kontra=True, grand_hand_won=True)
    assert read.deals_in_series(4) == 30


def test_null_options_keep_their_defaults():
    read = SkatSheetOptions.from_mapping({"series_deals": None, "bock": None, "kontra_re": None})
    assert read == SkatSheetOptions()


OPTION_PROBLEMS = [
    pytest.param("not an object", ["options"], None, id="not-an-object"),
    pytest.param(
        {"kontra": True},
        ["options.kontra"],
        '"kontra" is not an option of a Skat sheet; the options are kontra_re, bock, all_pass, '
        'ramsch_tie and series_deals. Did you mean "kontra_re"?',
        id="unknown-with-hint",
    ),
    pytest.param(
        {"colour": "red"},
        ["options.colour"],
        '"colour" is not an option of a Skat sheet; the options are kontra_re, bock, all_pass, '
        "ramsch_tie and series_deals.",
        id="unknown-without-hint",
    ),
    pytest.param(
        {"kontra_re": "yes"},
        ["options.kontra_re"],
        'kontra_re is switched on with true or off with false, not "yes".',
        id="switch-not-bool",
    ),
    pytest.param({"bock": True}, ["options.bock"], None, id="bock-not-an-object"),
    pytest.param(
        {"bock": {"sixty": True}}, ["options.bock.sixty"], None, id="bock-unknown-trigger"
    ),
    pytest.param({"bock": {"sixty_all": 1}}, ["options.bock.sixty_all"], None, id="bock-not-bool"),
    pytest.param(
        {"all_pass": "redeal"},
        ["options.all_pass"],
        'all_pass is "throw_in" (a deal everyone passes is thrown in) or "ramsch" (it is played '
        'as Ramsch); got "redeal".',
        id="all-pass-choice",
    ),
    pytest.param({"ramsch_tie": "nobody"}, ["options.ramsch_tie"], None, id="ramsch-tie-choice"),
    pytest.param(
        {"series_deals": 0},
        ["options.series_deals"],
        "series_deals is a whole number of deals from 1 to 200 (a multiple of the number of "
        "players lets everyone deal equally often), or null for the usual series of 36 deals "
        "at three players, 48 at four and 60 at five; got 0.",
        id="series-too-short",
    ),
    pytest.param({"series_deals": 201}, ["options.series_deals"], None, id="series-too-long"),
    pytest.param({"series_deals": 36.5}, ["options.series_deals"], None, id="series-fraction"),
    pytest.param({"series_deals": True}, ["options.series_deals"], None, id="series-bool"),
    pytest.param(
        {"bock": {"lost_after_kontra": True}},
        ["options.bock.lost_after_kontra"],
        "A Bock round after a game lost against Kontra needs Kontra and Re on this sheet: "
        "switch on kontra_re, or leave this trigger off.",
        id="kontra-trigger-without-kontra",
        # Bock rounds after a lost Kontra game need the Kontra house rule.
    ),
    pytest.param(
        {"ramsch_tie": "last_trick_loses"},
        ["options.ramsch_tie"],
        "A Ramsch tie rule only matters when a deal everyone passes is played as Ramsch: set "
        'all_pass to "ramsch", or leave the tie rule out.',
        id="tie-rule-without-ramsch",
    ),
    pytest.param(
        {"kontra_re": 1, "all_pass": "x", "series_deals": -3, "extra": 0},
        ["options.kontra_re", "options.all_pass", "options.series_deals", "options.extra"],
        None,
        id="every-problem-at-once",
    ),
]


@pytest.mark.parametrize(("data", "where", "message"), OPTION_PROBLEMS)
def test_option_problems(data, where, message):
    with pytest.raises(RuleError) as caught:
        SkatSheetOptions.from_mapping(data)
    assert fields_of(caught.value) == where
    if message is not None:
        assert str(caught.value) == message


def test_an_option_that_is_no_json_value_is_still_named():
    with pytest.raises(RuleError) as caught:
        SkatSheetOptions.from_mapping({"kontra_re": {1, 2}})
    assert str(caught.value) == "kontra_re is switched on with true or off with false, not {1, 2}."


def test_option_problems_under_another_field():
    with pytest.raises(RuleError) as caught:
        SkatSheetOptions.from_mapping({"bock": {"x": True}}, field="sheet.options")
    assert fields_of(caught.value) == ["sheet.options.bock.x"]


def test_series_of_any_length_in_range_is_allowed():
    # Seats: a multiple of the players lets everyone deal equally often, but it is not required.
    assert SkatSheetOptions.from_mapping({"series_deals": 10}).deals_in_series(3) == 10


# ---------------------------------------------------------------------------
# Replay: the sheet is derived from the deals
# ---------------------------------------------------------------------------


def test_a_correction_rescores_the_later_deals():
    chosen = options(bock={"hundred_or_more": True})
    later = [suit(1, "clubs", 1, "won"), suit(2, "clubs", 1, "lost")]
    first = replay(
        players=THREE,
        first_dealer=0,
        options=chosen,
        deals=[suit(0, "grand", 4, "won_schneider"), *later],
    )
    # Correcting deal 1 to a smaller game removes the Bock round it started.
    corrected = replay(
        players=THREE, first_dealer=0, options=chosen, deals=[suit(0, "grand", 1, "won"), *later]
    )
    assert [d.scores for d in first.deals] == [(144, 0, 0), (0, 48, 0), (0, 0, -96)]
    assert [d.scores for d in corrected.deals] == [(48, 0, 0), (0, 24, 0), (0, 0, -48)]
    assert corrected.totals == (48, 24, -48)


def test_replay_puts_a_deals_problems_under_its_place():
    deals = [PASSED, suit(5, "clubs", 1, "won"), PASSED]
    with pytest.raises(RuleError) as caught:
        replay(players=THREE, first_dealer=0, options=None, deals=deals)
    assert fields_of(caught.value) == ["hands.1.declarer"]


def test_replay_past_the_end_of_the_series():
    with pytest.raises(RuleError) as caught:
        replay(players=THREE, first_dealer=0, options=options(series_deals=1), deals=[PASSED] * 2)
    assert fields_of(caught.value) == ["hands.1"]


def test_replay_of_no_deals_is_a_new_sheet():
    state = replay(players=FOUR, first_dealer=2, options=None, deals=[])
    assert state.totals == (0, 0, 0, 0)
    assert state.next_deal.dealer == 2
    assert state.next_deal.sitting_out == 2


def test_declarer_cards_count_the_matadors_on_the_sheet():
    # Matadors: counted from the declarer's 12 cards, skat included.
    cards = [
        card(c) for c in ("JC", "JS", "AC", "10C", "KC", "7D", "8D", "9D", "7H", "8H", "9H", "7S")
    ]
    deal = played(0, "clubs", declarer_cards=cards, outcome="won")
    assert sheet_after([]).add(deal).scores == (36, 0, 0)


def test_rule_sections_are_the_sheets_own():
    # The sheet adds its own section; it does not repeat the referee's.
    assert set(RULE_SECTIONS) == {"skat-score-sheet"}
    assert not set(RULE_SECTIONS) & (set(skat.RULE_SECTIONS) | set(skat_list.RULE_SECTIONS))


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

# Valid Ramsch results of the three who play: (points, tricks, last trick).
RAMSCH_RESULTS = [
    ((50, 40, 30), (4, 3, 3), 0),
    ((70, 50, 0), (6, 4, 0), 1),
    ((0, 0, 120), (0, 0, 10), 2),
    ((45, 45, 30), (4, 3, 3), 0),
    ((45, 45, 30), (3, 3, 4), 2),
]
POINT_RESULTS = [(60, 5), (61, 5), (30, 3), (90, 8), (31, 3)]


@st.composite
def abstract_deals(draw, kontra_re: bool):
    """A deal described by table position, made concrete once the seats are known."""
    kind = draw(st.sampled_from(["played", "played", "played", "passed"]))
    if kind == "passed":
        return ("passed", draw(st.integers(0, len(RAMSCH_RESULTS) - 1)), draw(st.booleans()))
    position = draw(st.integers(0, 2))
    game = draw(st.sampled_from(skat.GAMES))
    entry: dict = {"game": game, "bid": 18}
    if draw(st.booleans()):
        entry["hand"] = True
    if game == "null":
        entry["outcome"] = draw(st.sampled_from(["won", "lost"]))
    else:
        most = 4 if game == "grand" else 11
        entry["matadors"] = Matadors(
            draw(st.sampled_from(["with", "against"])), draw(st.integers(1, most))
        )
        if draw(st.booleans()):
            entry["outcome"] = draw(st.sampled_from(skat.OUTCOMES))
        else:
            entry["declarer_points"], entry["declarer_tricks"] = draw(
                st.sampled_from(POINT_RESULTS)
            )
    if kontra_re and draw(st.booleans()):
        entry["kontra"] = True
        entry["re"] = draw(st.booleans())
    return ("played", position, entry)


def concrete(abstract, sheet: SkatSheet) -> SkatDeal:
    upcoming = sheet.state.next_deal
    if abstract[0] == "passed":
        if sheet.options.all_pass == "throw_in":
            return PASSED
        _, which, zero_for_dealer = abstract
        points3, tricks3, last3 = RAMSCH_RESULTS[which]
        active = [s for s in range(len(sheet.players)) if s not in upcoming.sitting_out_seats]
        empty = 0 if zero_for_dealer else None
        points = [empty] * len(sheet.players)
        tricks = [empty] * len(sheet.players)
        for player, seat in enumerate(active):
            points[seat], tricks[seat] = points3[player], tricks3[player]
        return ramsch(points, tricks, active[last3])
    _, position, entry = abstract
    seats = (upcoming.forehand, upcoming.details["middlehand"], upcoming.details["rearhand"])
    return SkatDeal(declarer=seats[position], game=entry)


@st.composite
def tables(draw, *, series: tuple[int, int], bock_may_be_off: bool = False):
    """A table of three, four or five with its first dealer and house rules: Kontra/Re, the
    Bock triggers (all drawn, or none where ``bock_may_be_off`` draws them off), what
    happens when everyone passes, and the series' length drawn from ``series``."""
    players = draw(st.sampled_from([THREE, FOUR, FIVE]))
    kontra_re = draw(st.booleans())
    bock_on = draw(st.booleans()) if bock_may_be_off else True
    bock = {
        "sixty_all": bock_on and draw(st.booleans()),
        "lost_after_kontra": bock_on and kontra_re and draw(st.booleans()),
        "hundred_or_more": bock_on and draw(st.booleans()),
        "grand_hand_won": bock_on and draw(st.booleans()),
    }
    all_pass = draw(st.sampled_from(["throw_in", "ramsch"]))
    tie = (
        draw(st.sampled_from(["all_tied_lose", "last_trick_loses"]))
        if all_pass == "ramsch"
        else "all_tied_lose"
    )
    chosen = options(
        kontra_re=kontra_re,
        bock=bock,
        all_pass=all_pass,
        ramsch_tie=tie,
        series_deals=draw(st.integers(*series)),
    )
    first_dealer = draw(st.integers(0, len(players) - 1))
    return players, first_dealer, kontra_re, chosen


@st.composite
def sheets(draw):
    players, first_dealer, kontra_re, chosen = draw(tables(series=(2, 12)))
    abstract = draw(st.lists(abstract_deals(kontra_re), min_size=2, max_size=12))
    sheet = SkatSheet(players=players, first_dealer=first_dealer, options=chosen)
    deals, states = [], [sheet.state]
    for item in abstract:
        if sheet.finished:
            break
        deal = concrete(item, sheet)
        sheet.add(deal)
        deals.append(deal)
        states.append(sheet.state)
    return players, first_dealer, chosen, deals, states


PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@PROPERTY_SETTINGS
@given(sheets())
def test_totals_are_the_sums_of_the_deal_scores(sheet):
    players, _, _, _, states = sheet
    final = states[-1]
    columns = [sum(deal.scores[seat] for deal in final.deals) for seat in range(len(players))]
    assert list(final.totals) == columns
    running = (0,) * len(players)
    for deal in final.deals:
        running = tuple(a + b for a, b in zip(running, deal.scores, strict=True))
        assert deal.totals == running
        # Only the declarer's entry moves in a played game; the dealer sitting out never.
        if deal.details["declarer"] is not None:
            assert [s for s, v in enumerate(deal.scores) if v] == [deal.details["declarer"]]
        if deal.details["sitting_out"] is not None:
            assert deal.scores[deal.details["sitting_out"]] == 0
        # Issue 17: at five the third player to the dealer's left sits out too.
        for seat in deal.details["sitting_out_seats"]:
            assert deal.scores[seat] == 0
        assert_rules_known(deal.explanation)
    assert sum(row.list_points for row in final.details["seeger_fabian"].rows) == sum(final.totals)


@PROPERTY_SETTINGS
@given(sheets())
def test_replay_of_a_prefix_equals_the_sheet_after_those_deals(sheet):
    players, first_dealer, chosen, deals, states = sheet
    for count in range(len(deals) + 1):
        again = replay(
            players=players, first_dealer=first_dealer, options=chosen, deals=deals[:count]
        )
        assert again == states[count]


@PROPERTY_SETTINGS
@given(sheets())
def test_a_played_deal_scores_what_the_referee_says_doubled_on_bock(sheet):
    _, _, _, deals, states = sheet
    for deal, result in zip(deals, states[-1].deals, strict=True):
        if deal.passed:
            continue
        referee = score_game(**deal.game)
        factor = 2 if result.details["bock"] else 1
        assert result.scores[deal.declarer] == referee.score * factor
        assert result.details["game_value"] == referee.game_value


@PROPERTY_SETTINGS
@given(sheets())
def test_ramsch_deals_score_what_the_ramsch_referee_says(sheet):
    _, _, chosen, deals, states = sheet
    for deal, result in zip(deals, states[-1].deals, strict=True):
        if deal.ramsch is None:
            continue
        out = result.details["sitting_out_seats"]
        seats = [s for s in range(len(result.scores)) if s not in out]
        referee = score_ramsch(
            points=[deal.ramsch.points[s] for s in seats],
            tricks=[deal.ramsch.tricks[s] for s in seats],
            last_trick=seats.index(deal.ramsch.last_trick),
            options=RamschOptions(tie=chosen.ramsch_tie),
            bock=result.details["bock"],
        )
        assert [result.scores[s] for s in seats] == list(referee.scores)


@PROPERTY_SETTINGS
@given(sheets(), st.integers(-3, 8))
def test_a_rejected_deal_changes_nothing(sheet, declarer):
    players, first_dealer, chosen, deals, states = sheet
    rebuilt = SkatSheet(players=players, first_dealer=first_dealer, options=chosen)
    for deal in deals:
        rebuilt.add(deal)
    # A bid of 17 is never legal, whoever declares.
    with pytest.raises(RuleError):
        rebuilt.add(
            SkatDeal(declarer=declarer, game={"game": "grand", "bid": 17, "outcome": "won"})
        )
    assert rebuilt.state == states[-1]


VERDICT = re.compile(
    r", (?P<won>won|lost)(?P<level> schneider| schwarz)?(?P<why> \(overbid\)| \(not \w+\))?, "
    r"(?P<score>[+−]\d+)( \(Kontra(, Re)?\))?$"
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(legal_games())
def test_the_summary_names_the_outcome_and_the_level_the_play_reached(arguments):
    # Winning and losing, schneider and schwarz, overbidding and announcements: the
    # one-line summary says won or lost as the referee scored it, names schneider or
    # schwarz when a won game reached it, and writes the score with a real minus sign.
    game = {name: value for name, value in arguments.items() if name != "bock"}
    deal = sheet_after([], kontra_re=True).add(SkatDeal(declarer=0, game=game))
    said = VERDICT.search(deal.summary)
    assert said, deal.summary
    assert (said["won"] == "won") is deal.details["won"]
    assert (said["why"] == " (overbid)") is deal.details["overbid"]
    assert said["score"].replace("−", "-") == f"{deal.details['score']:+d}"
    result = score_game(**{**arguments, "bock": False})
    if result.won:
        expected = " schwarz" if result.schwarz else " schneider" if result.schneider else None
        assert said["level"] == expected, deal.summary
