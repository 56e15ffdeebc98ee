"""What each circle sheet contributes to the standings (``SheetResult``), kept in step
with its deals by the ``sheet_changed`` receiver, the change log of finished sheets
(``StandingsChange``), a season's standings checked against an independent count,
and rebuilding the results from the deals.
"""

from __future__ import annotations

import datetime
import io
from collections import Counter, defaultdict
from fractions import Fraction
from unittest import mock

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from circles import receivers, results, services
from circles.models import (
    CircleSheet,
    SeasonContribution,
    SeasonTotals,
    SeatPlayer,
    SheetResult,
    StandingsChange,
)
from circles.rules.contributions import seat_stats
from circles.selectors import season_standings
from games import services as sheet_services
from games.games import GAMES
from games.models import Hand, Seat, Sheet
from games.rules.errors import RuleError
from games.selectors import live_hands

pytestmark = pytest.mark.django_db

MARCH = [datetime.date(2025, 3, day) for day in (7, 14, 21)]
SEASON = {
    "name": "Spring",
    "starts_on": "2025-03-01",
    "ends_on": "2025-05-31",
    # Each player's worst series does not count (a club rule, circles.rules.standings).
    "skat_rules": {"drop_worst": 1},
}


def skat(declarer: int, game: str, outcome: str, *, with_: int | None = 1, **rest) -> dict:
    deal = {"declarer": declarer, "game": game, "bid": rest.pop("bid", 18), "outcome": outcome}
    if with_ is not None:
        deal["matadors"] = {"with": with_}
    return {**deal, **rest}


PASSED = {"passed": True}
# Three at the table, a series of three deals.
SKAT_THREE = [
    skat(1, "grand", "won", with_=2, bid=48, hand=True),  # Grand Hand with 2: 24 × 4 = +96
    skat(0, "clubs", "lost"),  # Clubs with 1: 12 × 2 = 24, lost: −48
    PASSED,
]
SKAT_THREE_B = [
    PASSED,
    skat(0, "spades", "won"),  # Spades with 1: 11 × 2 = +22
    skat(2, "hearts", "lost", with_=2),  # Hearts with 2: 10 × 3 = 30, lost: −60
]
# Four at the table, a series of four: the dealer sits out (Ana deals 1, Ben 2 …).
SKAT_FOUR = [
    skat(1, "diamonds", "lost"),  # Diamonds with 1: 9 × 2 = 18, lost: −36
    skat(2, "grand", "won"),  # Grand with 1: +48
    PASSED,
    skat(0, "grand", "won"),  # +48
]

POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def pitched(pitcher: int, bid: int | str, code: str) -> dict:
    return {"pitcher": pitcher, "bid": bid, "points": dict(zip(POINT_KEYS, code, strict=True))}


# A failed moon loses the game at once: team A wins (10-Point Pitch, "Shooting the moon").
PITCH_FAILED_MOON = [pitched(1, 5, "BBBBBAAA"), pitched(1, "moon", "BBBBBBBA")]
# To 21: team B (seats 1 and 3) reaches 22 on the third hand and wins.
PITCH_TO_21 = [pitched(1, 6, "BBABABAB"), pitched(0, 7, "AABBBBBA"), pitched(3, 4, "BBBBBBBB")]

# Cem reaches 205 and the game ends; Ana wins with 45 (Manipulation, "End of the game").
MANIPULATION = [
    {"penalties": [0, 35, 60]},
    {"penalties": [45, 0, 10]},
    {"penalties": [0, 150, 135]},
]
# Nobody goes out in round 1 (the stock ran out); seat 1 reaches 205 and the other
# three share the win on 15: tied lowest totals share it.
MANIPULATION_SHARED = [
    {"hands": [["AS"], ["KS"], ["2H"], ["3C"]]},
    {"penalties": [0, 195, 10, 10]},
]


@pytest.fixture
def circle(django_user_model):
    owner = django_user_model.objects.create_user("olga", "olga@example.org")
    return services.circle_create(owner=owner, name="Tuesday club")


def play(circle, game, names, deals, *, on=MARCH[0], options=None) -> CircleSheet:
    sheet = services.sheet_create_in_circle(
        circle=circle, game=game, players=names, options=options
    )
    for deal in deals:
        sheet_services.hand_record(sheet=sheet, data=deal)
    link = CircleSheet.objects.get(sheet=sheet)
    return services.sheet_set_played_on(link=link, played_on=on)


def fresh(link: CircleSheet) -> Sheet:
    return Sheet.objects.get(pk=link.pk)


def replay(link: CircleSheet):
    """The sheet replayed here, from its stored deals, without games.selectors."""
    sheet = fresh(link)
    entry = GAMES[sheet.game]
    names = list(
        Seat.objects.filter(sheet=sheet).order_by("position").values_list("name", flat=True)
    )
    options = entry.read_options(sheet.options, players=len(names))
    game_sheet = entry.new_sheet(names=names, first_dealer=sheet.first_dealer, options=options)
    hands = Hand.objects.filter(sheet=sheet, removed_at__isnull=True).order_by("number")
    entries = [hand.entry for hand in hands]
    for data in entries:
        game_sheet.add(entry.read_deal(data, players=len(names), options=options))
    return game_sheet.state, entries


def stored(link: CircleSheet) -> list[tuple[int, dict]]:
    return [
        (r.player_id, r.stats) for r in SheetResult.objects.filter(sheet=link).order_by("position")
    ]


def expected(link: CircleSheet) -> list[tuple[int, dict]]:
    state, entries = replay(link)
    seats = SeatPlayer.objects.filter(sheet=link).order_by("position")
    stats = seat_stats(fresh(link).game, state, entries)
    return list(zip(seats.values_list("player_id", flat=True), stats, strict=True))


def snapshot(link: CircleSheet) -> list[tuple[int, dict, datetime.datetime]]:
    return [
        (r.player_id, r.stats, r.updated_at)
        for r in SheetResult.objects.filter(sheet=link).order_by("position")
    ]


# -- the receiver keeps every write in step ----------------------------------------------


def test_every_kind_of_write_keeps_the_results_in_step(circle):
    link = play(circle, "manipulation", ["Ana", "Ben", "Cem"], [])
    sheet = link.sheet
    assert stored(link) == expected(link)
    steps = [
        ("record", lambda: sheet_services.hand_record(sheet=sheet, data=MANIPULATION[0])),
        ("record", lambda: sheet_services.hand_record(sheet=sheet, data=MANIPULATION[1])),
        (
            "correct",
            lambda: sheet_services.hand_correct(
                sheet=sheet, number=1, data={"penalties": [20, 0, 60]}
            ),
        ),
        ("remove middle", lambda: sheet_services.hand_remove(sheet=sheet, number=1)),
        ("remove last", lambda: sheet_services.hand_remove(sheet=sheet, number=1)),
        ("restore", lambda: sheet_services.hand_restore(sheet=sheet)),
        (
            "rename",
            lambda: services.player_update(
                player=SeatPlayer.objects.get(sheet=link, position=1).player, name="Benjamin"
            ),
        ),
        ("record", lambda: sheet_services.hand_record(sheet=sheet, data=MANIPULATION[2])),
        ("record", lambda: sheet_services.hand_record(sheet=sheet, data=MANIPULATION[0])),
    ]
    seen = [stored(link)]
    for what, write in steps:
        write()
        assert stored(link) == expected(link), what
        seen.append(stored(link))
    # Each write did move something (a rename only the names, not the numbers).
    assert [s[0][1]["deals"] for s in seen] == [0, 1, 2, 2, 1, 0, 1, 1, 2, 3]
    # The last round takes Cem to 205: the game is over and Ana wins with 45.
    assert [stats["total"] for _, stats in seen[-1]] == [45, 185, 205]
    assert [stats["won"] for _, stats in seen[-1]] == [True, False, False]
    assert all(stats["finished"] for _, stats in seen[-1])


def test_skat_and_pitch_writes_keep_the_results_in_step(circle):
    skat_link = play(circle, "skat", ["Ana", "Ben", "Cem"], SKAT_THREE, options={"series_deals": 3})
    pitch_link = play(circle, "pitch", ["Ana", "Ben", "Cem", "Dan"], PITCH_FAILED_MOON)
    for link in (skat_link, pitch_link):
        assert stored(link) == expected(link)
    sheet_services.hand_correct(sheet=skat_link.sheet, number=2, data=skat(0, "clubs", "won"))
    sheet_services.hand_remove(sheet=pitch_link.sheet, number=2)
    for link in (skat_link, pitch_link):
        assert stored(link) == expected(link)
    # Seeger-Fabian (DSkV/ISPA): Ana's Clubs now won, +24 + 50; nobody lost a game, so
    # no defender bonus: Ana 74, Ben 96 + 50 = 146, Cem 0.
    assert [stats["sf"] for _, stats in stored(skat_link)] == [74, 146, 0]
    # Pitch: without the failed moon nobody has won yet.
    assert [stats["won"] for _, stats in stored(pitch_link)] == [False] * 4


def test_a_refused_deal_leaves_the_results_untouched(circle):
    link = play(circle, "manipulation", ["Ana", "Ben", "Cem"], MANIPULATION[:2])
    before = snapshot(link)
    with pytest.raises(RuleError):
        sheet_services.hand_record(sheet=link.sheet, data={"penalties": [0, 10]})
    with pytest.raises(RuleError):
        # Two players cannot both go out in one round.
        sheet_services.hand_correct(sheet=link.sheet, number=1, data={"penalties": [0, 0, 5]})
    assert snapshot(link) == before


def test_a_write_whose_results_fail_rolls_back_with_them(circle):
    link = play(circle, "manipulation", ["Ana", "Ben", "Cem"], MANIPULATION[:1])
    before = snapshot(link)
    version = fresh(link).version
    real = results.store_results

    def store_then_fail(*args, **kwargs):
        real(*args, **kwargs)  # the new results are written …
        raise RuntimeError("the disk is full")  # … and then the transaction fails

    with (
        mock.patch.object(receivers, "store_results", side_effect=store_then_fail),
        pytest.raises(RuntimeError),
    ):
        sheet_services.hand_record(sheet=link.sheet, data=MANIPULATION[1])
    # Neither the deal nor the results it would have written are kept.
    assert snapshot(link) == before
    assert Hand.objects.filter(sheet_id=link.pk).count() == 1
    assert fresh(link).version == version
    # And the next write goes through as usual.
    sheet_services.hand_record(sheet=link.sheet, data=MANIPULATION[1])
    assert stored(link) == expected(link)


def test_a_sheet_in_no_circle_has_no_results():
    sheet = sheet_services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"])
    sheet_services.hand_record(sheet=sheet, data=MANIPULATION[0])
    assert not SheetResult.objects.exists()


# -- the change log of finished sheets ------------------------------------------------------


def moves(change: StandingsChange) -> list[tuple[str, int | None, int | None]]:
    return [(m["name"], m["before"], m["after"]) for m in change.moves]


def test_entering_deals_on_an_open_sheet_notes_nothing(circle):
    link = play(circle, "manipulation", ["Ana", "Ben", "Cem"], MANIPULATION[:2])
    sheet_services.hand_correct(sheet=link.sheet, number=1, data={"penalties": [0, 30, 60]})
    sheet_services.hand_remove(sheet=link.sheet, number=2)
    sheet_services.hand_restore(sheet=link.sheet)
    # The last deal finishes the sheet: it now counts, but nothing was changed after the fact.
    sheet_services.hand_record(sheet=link.sheet, data=MANIPULATION[2])
    assert fresh(link).finished
    assert not StandingsChange.objects.exists()


def test_a_finished_sheet_corrected_afterwards_notes_who_moved(circle):
    link = play(circle, "manipulation", ["Ana", "Ben", "Cem"], MANIPULATION, on=MARCH[1])
    sheet_services.hand_correct(sheet=link.sheet, number=2, data={"penalties": [40, 0, 15]})
    change = StandingsChange.objects.get()
    assert (change.circle, change.sheet, change.game) == (circle, link, "manipulation")
    assert (change.change, change.number, change.played_on) == ("corrected", 2, MARCH[1])
    # Manipulation's number is the penalty total: Ana 45 → 40, Cem 205 → 210; Ben's
    # 185 did not move, so he is not named.
    assert moves(change) == [("Ana", 45, 40), ("Cem", 205, 210)]
    ana = SeatPlayer.objects.get(sheet=link, position=0).player_id
    assert change.moves[0]["player"] == ana


def test_a_correction_that_moves_no_number_notes_nothing(circle):
    link = play(circle, "manipulation", ["Ana", "Ben", "Cem"], MANIPULATION)
    sheet_services.hand_correct(sheet=link.sheet, number=2, data=MANIPULATION[1])
    assert not StandingsChange.objects.exists()


def test_the_last_deal_undone_and_brought_back_is_noted_both_ways(circle):
    link = play(circle, "skat", ["Ana", "Ben", "Cem"], SKAT_THREE, options={"series_deals": 3})
    sheet_services.hand_remove(sheet=link.sheet, number=3)
    removed = StandingsChange.objects.get()
    # Seeger-Fabian (DSkV/ISPA): Ana −98, Ben 186, Cem 40; the open sheet counts no more.
    assert (removed.change, removed.number) == ("removed", 3)
    assert moves(removed) == [("Ana", -98, None), ("Ben", 186, None), ("Cem", 40, None)]
    sheet_services.hand_restore(sheet=link.sheet)
    restored = StandingsChange.objects.exclude(pk=removed.pk).get()
    assert (restored.change, restored.number) == ("restored", 3)
    assert moves(restored) == [("Ana", None, -98), ("Ben", None, 186), ("Cem", None, 40)]


def test_a_finished_pitch_game_corrected_notes_the_team_totals(circle):
    link = play(circle, "pitch", ["Ana", "Ben", "Cem", "Dan"], PITCH_TO_21, options={"target": 21})
    before = [stats["team_total"] for _, stats in stored(link)]
    # Dan's last hand: team A took the ace after all; B takes 9 and still reaches 21.
    sheet_services.hand_correct(sheet=link.sheet, number=3, data=pitched(3, 4, "ABBBBBBB"))
    after = [stats["team_total"] for _, stats in stored(link)]
    change = StandingsChange.objects.get()
    assert change.change == "corrected"
    assert moves(change) == [
        (name, b, a)
        for name, b, a in zip(["Ana", "Ben", "Cem", "Dan"], before, after, strict=True)
        if b != a
    ]
    # Team A −4 → −3, team B 22 → 21: every seat moved with its team.
    assert moves(change) == [("Ana", -4, -3), ("Ben", 22, 21), ("Cem", -4, -3), ("Dan", 22, 21)]


# -- a season's standings, counted independently ----------------------------------------------


@pytest.fixture
def season_circle(circle):
    season = services.season_save(circle=circle, data=SEASON)
    three = {"options": {"series_deals": 3}}
    sheets = [
        play(circle, "skat", ["Ana", "Ben", "Cem"], SKAT_THREE, on=MARCH[0], **three),
        play(circle, "skat", ["Dan", "Ana", "Ben"], SKAT_THREE_B, on=MARCH[1], **three),
        play(
            circle,
            "skat",
            ["Ana", "Ben", "Cem", "Dan"],
            SKAT_FOUR,
            on=MARCH[2],
            options={"series_deals": 4},
        ),
        play(circle, "pitch", ["Ana", "Ben", "Cem", "Dan"], PITCH_FAILED_MOON, on=MARCH[0]),
        play(
            circle,
            "pitch",
            ["Ana", "Dan", "Ben", "Gus"],
            PITCH_TO_21,
            on=MARCH[1],
            options={"target": 21},
        ),
        play(circle, "manipulation", ["Ana", "Ben", "Cem"], MANIPULATION, on=MARCH[0]),
        play(
            circle, "manipulation", ["Dan", "Cem", "Ben", "Ana"], MANIPULATION_SHARED, on=MARCH[2]
        ),
        # Not counted: open, left out, before the season.
        play(circle, "skat", ["Ana", "Ben", "Cem"], SKAT_THREE[:1], on=MARCH[1], **three),
        play(circle, "manipulation", ["Ana", "Ben", "Eve"], MANIPULATION, on=MARCH[1]),
        play(
            circle,
            "skat",
            ["Ana", "Ben", "Cem"],
            SKAT_THREE,
            on=datetime.date(2025, 2, 28),
            **three,
        ),
    ]
    services.sheet_set_counted(link=sheets[8], counted=False)
    # Changes after the evening: a correction, an undo and its undo, a rename.
    sheet_services.hand_correct(
        sheet=sheets[0].sheet, number=3, data=skat(2, "null", "won", with_=None, bid=23)
    )
    sheet_services.hand_remove(sheet=sheets[5].sheet, number=3)
    sheet_services.hand_restore(sheet=sheets[5].sheet)
    services.player_update(player=services.player_for_name(circle, "Cem"), name="Cemal")
    services.player_update(player=services.player_for_name(circle, "Gus"), guest=True)
    return circle, season, sheets


def counted_links(circle, season) -> list[CircleSheet]:
    found = []
    for link in CircleSheet.objects.filter(circle=circle).order_by("sheet_id"):
        state, _ = replay(link)
        if (
            state.finished
            and not link.excluded
            and season.starts_on <= link.played_on <= season.ends_on
        ):
            found.append(link)
    return found


def seat_players(link: CircleSheet) -> list[int]:
    return list(
        SeatPlayer.objects.filter(sheet=link)
        .order_by("position")
        .values_list("player_id", flat=True)
    )


def places(rows: dict[int, dict], key) -> dict[int, int]:
    """Places by ``key`` (best first); equal keys share a place, the next is skipped."""
    ordered = sorted(rows, key=lambda player: (key(rows[player]), player))
    found: dict[int, int] = {}
    for position, player in enumerate(ordered, start=1):
        previous = ordered[position - 2] if position > 1 else None
        same = previous is not None and key(rows[previous]) == key(rows[player])
        found[player] = found[previous] if same else position
    return found


def skat_by_hand(links, rules_drop_worst: int) -> dict[int, dict]:
    series: dict[int, list[dict]] = defaultdict(list)
    evenings = {link.played_on for link in links}
    for link in links:
        state, _ = replay(link)
        players = len(state.players)
        # Seeger-Fabian (DSkV/ISPA): list points, +50 for every game won as declarer,
        # −50 for every game lost as declarer, and for every game another declarer
        # lost +40 at a table of three, +30 at a table of four (the dealer too).
        defence = {3: 40, 4: 30}[players]
        for seat, player in enumerate(seat_players(link)):
            list_points = sum(deal.scores[seat] for deal in state.deals)
            won = sum(1 for d in state.deals if d.details["declarer"] == seat and d.details["won"])
            lost = sum(
                1
                for d in state.deals
                if d.details["declarer"] == seat and d.details["won"] is False
            )
            lost_by_others = sum(
                1
                for d in state.deals
                if d.details["declarer"] not in (None, seat) and d.details["won"] is False
            )
            sf = list_points + 50 * won - 50 * lost + defence * lost_by_others
            # The sheet's own Seeger-Fabian agrees.
            assert state.details["seeger_fabian"].rows[seat].total == sf
            series[player].append(
                {"sf": sf, "won": won, "lost": lost, "list": list_points, "on": link.played_on}
            )
    rows = {}
    for player, played in series.items():
        sfs = [s["sf"] for s in played]
        keep = max(len(sfs) - rules_drop_worst, 1)
        counted = sorted(sfs, reverse=True)[:keep]
        won = sum(s["won"] for s in played)
        lost = sum(s["lost"] for s in played)
        rows[player] = {
            "series": len(played),
            "declared": won + lost,
            "won": won,
            "lost": lost,
            "list_points": sum(s["list"] for s in played),
            "sf_total": sum(sfs),
            "sf_average": sum(sfs) / len(sfs),
            "best_series": max(sfs),
            "value": float(sum(counted)),
            "counted_total": sum(counted),
            "counted": len(counted),
            "dropped": len(sfs) - len(counted),
            "missed": len(evenings - {s["on"] for s in played}),
        }
    # Ranked by the counted total; equal: more games won, then fewer lost (ISkO, DSkV).
    for player, place in places(rows, lambda r: (-r["value"], -r["won"], r["lost"])).items():
        rows[player]["place"] = place
    return rows


def pitch_by_hand(links) -> dict[int, dict]:
    rows: dict[int, Counter] = defaultdict(Counter)
    partners: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for link in links:
        state, _ = replay(link)
        players = seat_players(link)
        for seat, player in enumerate(players):
            # Partners sit opposite: seats 0 and 2 are team A, 1 and 3 team B.
            team = "AB"[seat % 2]
            won = seat in state.winners  # the whole team is credited with its result
            row = rows[player]
            row["games"] += 1
            row["won"] += won
            row["hands"] += len(state.deals)
            pitched_here = [d for d in state.deals if d.details["pitcher"] == seat]
            row["bids"] += len(pitched_here)
            row["made"] += sum(1 for d in pitched_here if d.details["made"])
            row["sets"] += sum(1 for d in pitched_here if not d.details["made"])
            moons = [d for d in pitched_here if d.details["bid"] == "moon"]
            row["moon"] += len(moons)
            row["moon_made"] += sum(1 for d in moons if d.details["made"])
            row["points_taken"] += sum(d.details["taken"][team] for d in state.deals)
            partner = players[(seat + 2) % 4]
            partners[player][partner][0] += 1
            partners[player][partner][1] += won
    done = {}
    for player, row in rows.items():
        done[player] = {
            "games": row["games"],
            "won": row["won"],
            "win_rate": row["won"] / row["games"],
            "hands": row["hands"],
            "bids": row["bids"],
            "made": row["made"],
            "made_rate": row["made"] / row["bids"] if row["bids"] else 0.0,
            "sets": row["sets"],
            "moon": row["moon"],
            "moon_made": row["moon_made"],
            "points_taken": row["points_taken"],
            "partners": tuple(
                sorted(
                    ((p, games, won) for p, (games, won) in partners[player].items()),
                    key=lambda item: (-item[1], item[0]),
                )
            ),
        }
    # Most games won first, then the better share of games won.
    key = lambda r: (-r["won"], -Fraction(r["won"], r["games"]))  # noqa: E731
    for player, place in places(done, key).items():
        done[player]["place"] = place
    return done


def manipulation_by_hand(links) -> dict[int, dict]:
    rows: dict[int, Counter] = defaultdict(Counter)
    for link in links:
        state, _ = replay(link)
        for seat, player in enumerate(seat_players(link)):
            row = rows[player]
            row["games"] += 1
            # Tied lowest totals share the win (Manipulation, "End of the game").
            row["won"] += seat in state.winners
            row["rounds"] += len(state.deals)
            row["went_out"] += sum(1 for d in state.deals if d.details["went_out"] == seat)
            penalties = sum(d.details["penalties"][seat] for d in state.deals)
            assert penalties == state.totals[seat]
            row["penalties"] += penalties
    done = {
        player: {**row, "avg_penalty": row["penalties"] / row["rounds"]}
        for player, row in rows.items()
    }
    # Most games won, then fewest penalty points a round.
    key = lambda r: (-r["won"], Fraction(r["penalties"], r["rounds"]))  # noqa: E731
    for player, place in places(done, key).items():
        done[player]["place"] = place
    return done


def engine_rows(table, columns) -> dict[int, dict]:
    return {row.player: {c: getattr(row, c) for c in columns} for row in table.ranked}


def test_a_skat_sheet_at_five_counts_for_the_season_scaled_to_60(circle):
    # Issue 17: a table of five is a Skat sheet like the others; a club that scales its
    # series counts it as if it had the usual 60 deals (36 at three, 48 at four).
    season = services.season_save(circle=circle, data={**SEASON, "skat_rules": {"scale": True}})
    five = ["Ana", "Ben", "Cem", "Dan", "Eve"]
    # Ana deals first: Ana and Dan sit deal 1 out, Ben and Eve deal 2, Cem and Ana deal 3.
    deals = [
        skat(1, "diamonds", "lost"),  # Ben: Diamonds with 1, 9 × 2 = 18, lost: −36
        skat(2, "grand", "won"),  # Cem: Grand with 1, +48
        PASSED,
    ]
    play(circle, "skat", five, deals, on=MARCH[0], options={"series_deals": 3})
    table = season_standings(season).tables["skat"]
    players = {name: services.player_for_name(circle, name).pk for name in five}
    rows = {row.player: row for row in table.ranked}
    # Seeger-Fabian at five: 24 to each of the other four for Ben's lost game.
    sf = {"Ana": 24, "Ben": -36 - 50, "Cem": 48 + 50 + 24, "Dan": 24, "Eve": 24}
    assert {name: rows[players[name]].sf_total for name in five} == sf
    # Scaled from 3 deals to 60: × 20.
    assert {name: rows[players[name]].counted_total for name in five} == {
        name: value * 20 for name, value in sf.items()
    }
    scaled = [r for r in rows[players["Cem"]].reasons if r.code == "scaled"]
    assert [(r.params["norm"], r.params["deals"]) for r in scaled] == [(60, 3)]


def test_season_standings_match_an_independent_count(season_circle):
    circle, season, sheets = season_circle
    links = counted_links(circle, season)
    assert [link.pk for link in links] == [link.pk for link in sheets[:7]]
    by_game = defaultdict(list)
    for link in links:
        by_game[fresh(link).game].append(link)

    standings = season_standings(season, include_guests=True)
    assert standings.counted_sheets == len(links)
    assert sorted(SeasonContribution.objects.values_list("sheet_id", flat=True)) == [
        link.pk for link in links
    ]
    assert standings.open_sheets == 1

    skat_rows = skat_by_hand(by_game["skat"], rules_drop_worst=1)
    assert engine_rows(standings.tables["skat"], next(iter(skat_rows.values()))) == skat_rows
    assert standings.tables["skat"].unranked == ()
    assert standings.tables["skat"].evenings == tuple(MARCH)

    pitch_rows = pitch_by_hand(by_game["pitch"])
    assert engine_rows(standings.tables["pitch"], next(iter(pitch_rows.values()))) == pitch_rows

    manipulation_rows = manipulation_by_hand(by_game["manipulation"])
    assert (
        engine_rows(standings.tables["manipulation"], next(iter(manipulation_rows.values())))
        == manipulation_rows
    )
    # The tables list players in place order.
    for table in standings.tables.values():
        assert [row.place for row in table.ranked] == sorted(row.place for row in table.ranked)


def test_guests_are_left_out_of_the_standings_unless_asked_for(season_circle):
    circle, season, _ = season_circle
    gus = circle.players.get(name="Gus")
    shown = season_standings(season).tables["pitch"]
    assert gus.pk not in {row.player for row in shown.ranked}
    with_guests = season_standings(season, include_guests=True).tables["pitch"]
    assert gus.pk in {row.player for row in with_guests.ranked}
    # Leaving the guest out changes nobody else's row (the team still won or lost).
    others = {row.player: row for row in with_guests.ranked if row.player != gus.pk}
    assert {row.player: row.won for row in shown.ranked} == {p: r.won for p, r in others.items()}


# -- rebuilding the results from the deals ----------------------------------------------------


def all_results() -> dict[tuple[int, int], tuple[int, dict]]:
    return {(r.sheet_id, r.position): (r.player_id, r.stats) for r in SheetResult.objects.all()}


def standings_rows(season) -> dict[str, tuple]:
    standings = season_standings(season, include_guests=True)
    return {
        game: (table.ranked, getattr(table, "unranked", ()))
        for game, table in standings.tables.items()
    }


def test_results_rebuilt_from_the_deals_equal_what_was_stored(season_circle):
    circle, season, sheets = season_circle
    kept, table, changes = all_results(), standings_rows(season), StandingsChange.objects.count()
    # Everything derived from the deals is lost: the results and the season's totals.
    SheetResult.objects.all().delete()
    SeasonTotals.objects.all().delete()
    SeasonContribution.objects.all().delete()
    assert season_standings(season).tables == {}

    assert results.rebuild_results(circle) == len(sheets)

    assert all_results() == kept
    assert standings_rows(season) == table
    # The season's totals were added up again too, at the circle's version.
    circle.refresh_from_db()
    assert SeasonTotals.objects.get(season=season).version == circle.standings_version
    # The deals did not change: nothing is noted.
    assert StandingsChange.objects.count() == changes


def test_a_rebuild_repairs_a_wrong_result_without_noting_a_change(season_circle):
    circle, _, sheets = season_circle
    kept, changes = all_results(), StandingsChange.objects.count()
    wrong = SheetResult.objects.get(sheet=sheets[0], position=0)
    wrong.stats = {**wrong.stats, "sf": 10_000}
    wrong.save()
    results.rebuild_results(circle)
    assert all_results() == kept
    assert StandingsChange.objects.count() == changes


def test_the_rebuild_command_replays_every_circle(season_circle, django_user_model):
    circle, _, sheets = season_circle
    other = services.circle_create(
        owner=django_user_model.objects.create_user("zoe"), name="Other club"
    )
    elsewhere = play(other, "manipulation", ["Zoe", "Yan", "Xia"], MANIPULATION)
    kept = all_results()
    SheetResult.objects.all().delete()
    out = io.StringIO()
    call_command("rebuild_results", stdout=out)
    assert all_results() == kept
    assert f"circle {circle.pk}): {len(sheets)} sheet(s)" in out.getvalue()
    assert f"circle {other.pk}): 1 sheet(s)" in out.getvalue()
    # One circle by id leaves the others alone.
    SheetResult.objects.all().delete()
    call_command("rebuild_results", str(other.pk), stdout=out)
    assert set(SheetResult.objects.values_list("sheet_id", flat=True)) == {elsewhere.pk}


def test_the_rebuild_command_refuses_an_unknown_circle(circle):
    with pytest.raises(CommandError):
        call_command("rebuild_results", str(circle.pk + 100))


def test_live_hands_and_the_replay_here_agree(season_circle):
    # The independent replay reads the same deals as the app does (an undone deal is not one).
    _, _, sheets = season_circle
    for link in sheets:
        assert [h.entry for h in live_hands(fresh(link))] == replay(link)[1]
