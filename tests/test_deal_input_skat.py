"""Reading a Skat deal's JSON for the score sheet: shape only, the engine judges the rules."""

from __future__ import annotations

from dataclasses import fields

import pytest

from games.api_input import UnreadableInput
from games.deal_input.skat import options_summary, read_deal, read_options
from games.rules.cards import card
from games.rules.errors import RuleError
from games.rules.skat import Matadors
from games.rules.skat_list import BockTriggers
from games.rules.skat_sheet import RamschEntry, SkatDeal, SkatSheet, SkatSheetOptions

DEFAULTS = SkatSheetOptions()


def read(data: dict, *, players: int = 3, options: SkatSheetOptions = DEFAULTS) -> SkatDeal:
    return read_deal(data, players=players, options=options)


def fields_of(error: RuleError) -> list[str | None]:
    return [problem.field for problem in error.problems]


# ---------------------------------------------------------------------------
# Deals that read
# ---------------------------------------------------------------------------

READABLE = [
    pytest.param(
        {
            "declarer": 1,
            "game": "grand",
            "bid": 48,
            "hand": True,
            "matadors": {"with": 2},
            "outcome": "won",
        },
        SkatDeal(
            declarer=1,
            game={
                "game": "grand",
                "bid": 48,
                "hand": True,
                "matadors": Matadors("with", 2),
                "outcome": "won",
            },
        ),
        id="outcome-and-matadors",
    ),
    pytest.param(
        {
            "declarer": 0,
            "game": " Clubs ",
            "bid": 18.0,
            "matadors": {"against": 1},
            "declarer_points": 0,
            "declarer_tricks": 0,
            "hand": False,
            "ouvert": False,
            "announced": "none",
            "kontra": False,
            "re": False,
        },
        SkatDeal(
            declarer=0,
            game={
                "game": "clubs",
                "bid": 18,
                "matadors": Matadors("against", 1),
                "declarer_points": 0,
                "declarer_tricks": 0,
            },
        ),
        id="switches-left-off-are-not-given",
        # A switch left off and "none" announced are the referee's defaults anyway.
    ),
    pytest.param(
        {
            "declarer": 2,
            "game": "spades",
            "bid": 18,
            "hand": True,
            "announced": "schneider",
            "declarer_cards": [
                "JC",
                "JS",
                "AS",
                "10S",
                "KS",
                "7D",
                "8D",
                "9D",
                "7H",
                "8H",
                "9H",
                "7C",
            ],
            "declarer_trick_cards": ["AH", "KH", "QH"],
            "skat": ["9C", "8C"],
            "kontra": True,
            "re": True,
            "ouvert": True,
        },
        SkatDeal(
            declarer=2,
            game={
                "game": "spades",
                "bid": 18,
                "hand": True,
                "announced": "schneider",
                "declarer_cards": [
                    card(c)
                    for c in (
                        "JC",
                        "JS",
                        "AS",
                        "10S",
                        "KS",
                        "7D",
                        "8D",
                        "9D",
                        "7H",
                        "8H",
                        "9H",
                        "7C",
                    )
                ],
                "declarer_trick_cards": [card("AH"), card("KH"), card("QH")],
                "skat": [card("9C"), card("8C")],
                "kontra": True,
                "re": True,
                "ouvert": True,
            },
        ),
        id="cards",
    ),
    pytest.param({"passed": True}, SkatDeal(passed=True), id="passed"),
    pytest.param(
        {
            "passed": True,
            "declarer": None,
            "ramsch": {"points": [None, 50, 40.0, 30], "tricks": [0, 4, 3, 3], "last_trick": 1},
        },
        SkatDeal(passed=True, ramsch=RamschEntry((None, 50, 40, 30), (0, 4, 3, 3), 1)),
        id="ramsch-with-the-dealer-empty",
    ),
    pytest.param(
        {"passed": True, "game": "grand", "declarer": 1},
        SkatDeal(passed=True, declarer=1, game={"game": "grand"}),
        id="passed-with-a-game-is-for-the-engine",
        # Shape only: a passed deal with a declarer is a contradiction the engine reports.
    ),
    pytest.param(
        {"declarer": 9, "game": "null", "bid": 7, "ramsch": None, "passed": False},
        SkatDeal(declarer=9, game={"game": "null", "bid": 7}),
        id="rules-are-for-the-engine",
    ),
]


@pytest.mark.parametrize(("data", "deal"), READABLE)
def test_readable_deals(data, deal):
    assert read(data) == deal


def test_a_read_deal_is_scored_by_the_sheet():
    sheet = SkatSheet(players=["Ana", "Ben", "Cem"], first_dealer=0)
    data = {
        "declarer": 1,
        "game": "grand",
        "bid": 48,
        "hand": True,
        "matadors": {"with": 2},
        "outcome": "won",
    }
    assert sheet.add(read(data)).scores == (0, 96, 0)


# ---------------------------------------------------------------------------
# Shape problems: 400, every one at once
# ---------------------------------------------------------------------------

UNREADABLE = [
    pytest.param({}, ["declarer", "game", "bid"], id="empty-played-deal"),
    pytest.param({"passed": "yes"}, ["passed", "declarer", "game", "bid"], id="passed-not-bool"),
    pytest.param(
        {"declarer": "Ana", "game": "grnd", "bid": 18.5, "outcome": "won"},
        ["declarer", "game", "bid"],
        id="wrong-types",
    ),
    pytest.param(
        {"declarer": 0, "game": "grand", "bid": 18, "bock": True},
        ["bock"],
        id="bock-is-the-sheets",
    ),
    pytest.param(
        {"declarer": 0, "game": "grand", "bid": 18, "trumps": 4},
        ["trumps"],
        id="unknown-field",
    ),
    pytest.param(
        {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 2, "against": 1}},
        ["matadors"],
        id="matadors-shape",
    ),
    pytest.param(
        {"declarer": 0, "game": "grand", "bid": 18, "declarer_cards": ["JC", "ZZ"], "skat": "JC"},
        ["declarer_cards.1", "skat"],
        id="cards",
    ),
    pytest.param(
        {
            "declarer": 0,
            "game": "grand",
            "bid": 18,
            "hand": 1,
            "announced": "both",
            "outcome": "great",
        },
        ["hand", "announced", "outcome"],
        id="switch-and-choices",
    ),
    pytest.param({"passed": True, "ramsch": [1, 2, 3]}, ["ramsch"], id="ramsch-not-an-object"),
    pytest.param(
        {"passed": True, "ramsch": {"points": "50", "tricks": [4, "3", True, 1.5]}},
        [
            "ramsch.points",
            "ramsch.tricks.1",
            "ramsch.tricks.2",
            "ramsch.tricks.3",
        ],
        id="ramsch-entries",
    ),
    pytest.param(
        {
            "passed": True,
            "ramsch": {
                "points": [50, 40, 30],
                "tricks": [4, 3, 3],
                "last_trick": "Ana",
                "jungfrau": 1,
            },
        },
        ["ramsch.last_trick", "ramsch.jungfrau"],
        id="ramsch-last-trick-and-unknown",
    ),
]


@pytest.mark.parametrize(("data", "where"), UNREADABLE)
def test_unreadable_deals(data, where):
    with pytest.raises(UnreadableInput) as caught:
        read(data)
    assert sorted(fields_of(caught.value)) == sorted(where)


MESSAGES = [
    pytest.param(
        {"declarer": 0, "game": "grand", "bid": 18, "bock": False},
        "The sheet itself knows which deals are Bock deals (from its Bock rules); leave bock out.",
        id="bock",
    ),
    pytest.param(
        {
            "passed": True,
            "ramsch": {"points": [50, "forty", 30], "tricks": [4, 3, 3], "last_trick": 0},
        },
        "Seat 2's card points must be a whole number (or empty for the dealer sitting out), not text.",
        id="ramsch-entry",
    ),
]


@pytest.mark.parametrize(("data", "message"), MESSAGES)
def test_shape_messages(data, message):
    with pytest.raises(UnreadableInput) as caught:
        read(data)
    assert [p.message for p in caught.value.problems] == [message]


# ---------------------------------------------------------------------------
# Options of a new sheet
# ---------------------------------------------------------------------------


def test_read_options_delegates_to_the_options():
    assert read_options(None) == read_options({}) == DEFAULTS
    assert read_options({"kontra_re": True, "series_deals": 24}) == SkatSheetOptions(
        kontra_re=True, series_deals=24
    )


def test_bad_options_are_rule_problems_not_shape_problems():
    with pytest.raises(RuleError) as caught:
        read_options({"series_deals": 0, "bock": {"lost_after_kontra": "yes"}})
    assert not isinstance(caught.value, UnreadableInput)
    assert fields_of(caught.value) == ["options.series_deals", "options.bock.lost_after_kontra"]


SUMMARIES = [
    pytest.param(
        {},
        (
            "Series of 36 deals at three players, 48 at four, 60 at five",
            "No Kontra or Re",
            "Thrown in when all pass (no Ramsch)",
            "No Bock rounds",
        ),
        id="defaults",
    ),
    pytest.param(
        {
            "kontra_re": True,
            "all_pass": "ramsch",
            "series_deals": 24,
            "bock": {"hundred_or_more": True, "grand_hand_won": True},
        },
        (
            "Series of 24 deals",
            "Kontra and Re allowed",
            "Ramsch when all pass; tied players all lose",
            "Bock round after a game worth 100 or more or a won Grand Hand "
            "(not after 60:60 or a game lost after Kontra)",
        ),
        id="house-rules",
    ),
    pytest.param(
        {
            "kontra_re": True,
            "all_pass": "ramsch",
            "ramsch_tie": "last_trick_loses",
            "series_deals": 1,
            "bock": dict.fromkeys(
                ("sixty_all", "lost_after_kontra", "hundred_or_more", "grand_hand_won"), True
            ),
        },
        (
            "Series of 1 deal",
            "Kontra and Re allowed",
            "Ramsch when all pass; of tied players, the one who took the last trick loses",
            "Bock round after 60:60, a game lost after Kontra, a game worth 100 or more "
            "or a won Grand Hand",
        ),
        id="everything-on",
    ),
    pytest.param(
        {"bock": {"sixty_all": True}},
        (
            "Series of 36 deals at three players, 48 at four, 60 at five",
            "No Kontra or Re",
            "Thrown in when all pass (no Ramsch)",
            "Bock round after 60:60 (not after a game lost after Kontra, a game worth 100 "
            "or more or a won Grand Hand)",
        ),
        id="one-trigger",
    ),
]


@pytest.mark.parametrize(("data", "lines"), SUMMARIES)
def test_options_summary(data, lines):
    assert options_summary(read_options(data)) == lines


OPTION_CHANGES = [
    pytest.param({}, {"kontra_re": True}, id="kontra_re"),
    pytest.param({}, {"all_pass": "ramsch"}, id="all_pass"),
    pytest.param({}, {"series_deals": 30}, id="series_deals"),
    pytest.param(
        {"all_pass": "ramsch"},
        {"all_pass": "ramsch", "ramsch_tie": "last_trick_loses"},
        id="ramsch_tie",
    ),
    *(
        pytest.param({"kontra_re": True}, {"kontra_re": True, "bock": {f.name: True}}, id=f.name)
        for f in fields(BockTriggers)
    ),
]


@pytest.mark.parametrize(("base", "changed"), OPTION_CHANGES)
def test_the_summary_shows_every_option(base, changed):
    # House rules: every option a sheet is kept by is shown on it, so nobody argues later.
    assert options_summary(read_options(changed)) != options_summary(read_options(base))


# The last trick of a Ramsch is asked for only when a tie needs it (rule book: Ramsch:
# the most card points lose; a tie is settled by the last trick only by that option).


@pytest.mark.parametrize(
    "ramsch",
    [
        {"points": [50, 40, 30], "tricks": [4, 3, 3]},
        {"points": [50, 40, 30], "tricks": [4, 3, 3], "last_trick": None},
    ],
)
def test_a_ramsch_reads_without_the_last_trick(ramsch):
    deal = read({"passed": True, "ramsch": ramsch})
    assert deal.ramsch == RamschEntry(points=(50, 40, 30), tricks=(4, 3, 3), last_trick=None)


def test_the_sheet_asks_for_the_last_trick_only_for_a_tie_it_settles():
    options = SkatSheetOptions(all_pass="ramsch", ramsch_tie="last_trick_loses")
    sheet = SkatSheet(players=["Ana", "Ben", "Cem"], first_dealer=0, options=options)
    clear = read({"passed": True, "ramsch": {"points": [50, 40, 30], "tricks": [4, 3, 3]}})
    assert sheet.add(clear).scores == (-50, 0, 0)
    tie = read({"passed": True, "ramsch": {"points": [50, 50, 20], "tricks": [4, 4, 2]}})
    with pytest.raises(RuleError) as caught:
        sheet.add(tie)
    assert [p.field for p in caught.value.problems] == ["ramsch.last_trick"]


# A game entered by its value as a paper list writes it (games.rules.skat_value).


def test_a_game_by_value_reads_the_declarer_the_value_and_the_bid():
    assert read({"declarer": 1, "value": -96, "bid": 20}) == SkatDeal(
        declarer=1, game={"bid": 20}, value=-96
    )
    assert read({"declarer": 1, "value": 48}) == SkatDeal(declarer=1, value=48)


def test_a_value_that_is_not_a_whole_number_is_a_shape_problem():
    with pytest.raises(UnreadableInput) as caught:
        read({"declarer": 1, "value": "48 points"})
    assert fields_of(caught.value) == ["value"]


def test_a_value_with_a_game_is_refused_by_the_sheet():
    sheet = SkatSheet(players=["Ana", "Ben", "Cem"], first_dealer=0)
    with pytest.raises(RuleError) as caught:
        sheet.add(read({"declarer": 1, "value": 48, "game": "grand"}))
    assert fields_of(caught.value) == ["game"]
