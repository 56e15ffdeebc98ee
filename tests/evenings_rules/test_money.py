"""The evening's money (issue 18): worked examples from real tournament notices and
properties that hold for any evening. Rules cited: evening-money (fees and bills) and
evening-prizes (the pot, the prize list, the cash box) of the evenings' rule page."""

from __future__ import annotations

from decimal import Decimal as D

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evenings.rules import money
from evenings.rules.money import (
    Account,
    Payout,
    Pot,
    Standing,
    Tier,
    bill,
    cash_box,
    lost_game_fee,
    pot,
    prize_list,
    read_rules,
    shares,
)
from games.rules.errors import RuleError

FAST = settings(max_examples=120, deadline=None)

# A club's notice: 6 € entry, 0.50 € for each of the first three lost games of a list,
# 1.00 € from the fourth.
CLUB = {
    "currency": "EUR",
    "entry_fee": "6.00",
    "lost_game_fees": [{"from": 1, "amount": "0.50"}, {"from": 4, "amount": "1.00"}],
}
# The online rooms: 0.50 / 1.00 / 3.00 € for lost games 1–3 / 4–5 / 6 and more.
ONLINE = [Tier(1, D("0.50")), Tier(4, D("1.00")), Tier(6, D("3.00"))]


@pytest.mark.parametrize(
    ("lost", "fee"), [(0, "0.00"), (1, "0.50"), (3, "1.50"), (4, "2.50"), (5, "3.50")]
)
def test_the_club_tiers_charge_by_the_lost_games_of_a_series(lost, fee):
    """evening-money: each lost game costs its tier; the 4th costs the second tier."""
    rules = read_rules(CLUB)
    assert lost_game_fee(lost, rules.tiers) == D(fee)


@pytest.mark.parametrize(("lost", "fee"), [(3, "1.50"), (5, "3.50"), (6, "6.50"), (8, "12.50")])
def test_the_online_rooms_tiers(lost, fee):
    """evening-money: 0.50 / 1.00 / 3.00 for games 1–3 / 4–5 / 6+."""
    assert lost_game_fee(lost, ONLINE) == D(fee)


def test_a_bill_adds_entry_table_and_lost_game_fees_per_series():
    """evening-money: the count of lost games starts again with every series."""
    rules = read_rules({**CLUB, "table_fee": "1.00"})
    account = bill(rules, 7, {1: 2, 2: 5})
    assert account.entry_fee == D("6.00")
    assert account.table_fees == D("2.00")
    assert account.lost_fees == D("1.00") + D("3.50")
    assert account.total == D("12.50")
    assert str(account.steps[-1]) == "Owed in all: €12.50."
    # Not 7 lost games in one list (that would cost 0.50 × 3 + 1.00 × 4 = 5.50).
    assert bill(rules, 7, {1: 7}).lost_fees == D("5.50")


def test_rules_are_read_from_decimal_strings_and_kept_exact():
    rules = read_rules({**CLUB, "table_fee": "0,50"})
    assert rules.table_fee == D("0.50")
    assert rules.as_dict()["entry_fee"] == "6.00"
    assert rules.as_dict()["lost_game_fees"] == CLUB["lost_game_fees"]
    yen = read_rules({"currency": "JPY", "entry_fee": "500"})
    assert yen.entry_fee == D("500")


@pytest.mark.parametrize(
    ("data", "field", "says"),
    [
        ({"entry_fee": "-6"}, "money.entry_fee", "cannot be negative"),
        ({"entry_fee": "six"}, "money.entry_fee", "is an amount such as"),
        ({"entry_fee": 6.5}, "money.entry_fee", "written as text"),
        ({"entry_fee": "6.005"}, "money.entry_fee", "more decimals than EUR has"),
        ({"currency": "JPY", "entry_fee": "500.5"}, "money.entry_fee", "more decimals"),
        ({"currency": "XYZ"}, "money.currency", "by its code"),
        (
            {"lost_game_fees": [{"from": 1, "amount": "1"}, {"from": 1, "amount": "2"}]},
            "money.lost_game_fees",
            "same lost game",
        ),
        ({"lost_game_fees": [{"from": 0, "amount": "1"}]}, "money.lost_game_fees.0.from", "from 1"),
        ({"payout": {"lost_fee_share": "120"}}, "money.payout.lost_fee_share", "0 to 100"),
        ({"payout": {"curve": "manual"}}, "money.payout.amounts", "Type the prizes"),
        (
            {"payout": {"curve": "manual", "amounts": ["10", "20"]}},
            "money.payout.amounts",
            "never more",
        ),
        ({"payout": {"round_to": "0.20"}}, "money.payout.round_to", "halves"),
    ],
)
def test_bad_money_rules_are_refused_with_a_reason(data, field, says):
    with pytest.raises(RuleError) as refused:
        read_rules(data)
    assert any(p.field == field and says in str(p.message) for p in refused.value.problems), (
        refused.value.problems
    )


def _standings(*totals):
    """Standings from totals, best first; equal totals share a place (1, 1, 3)."""
    out = []
    for i, total in enumerate(totals):
        place = out[-1].place if out and out[-1].total == total else i + 1
        out.append(Standing(100 + i, place, total))
    return out


def test_a_pot_of_entry_fees_pays_a_prize_per_table_falling_evenly():
    """evening-prizes: 12 players at 6 € are a pot of 72 €; 3 tables, 3 prizes 3:2:1."""
    rules = read_rules({**CLUB, "payout": {"count": "per_table", "per_table": "1"}})
    bills = [bill(rules, p, {1: 0}) for p in range(12)]
    the_pot = pot(rules, bills)
    assert the_pot.total == D("72.00")
    listed = prize_list(rules, the_pot, tables=3, ranking=_standings(300, 200, 100, 50))
    assert [p.amount for p in listed.prizes] == [D("36"), D("24"), D("12")]
    assert listed.remainder == 0
    assert listed.to(100) == D("36")


def test_a_player_without_a_result_wins_no_prize():
    """evening-prizes: on the roll with no list in yet, a player takes no place's prize;
    the place's money stays in the remainder."""
    rules = read_rules({**CLUB, "payout": {"count": "fixed", "prizes": 2}})
    ranking = [Standing(1, 1, 50), Standing(2, 2, 0, played=False)]
    listed = prize_list(rules, Pot(D(72), D(0), D(0), D(0)), tables=1, ranking=ranking)
    assert [(p.players, p.amount) for p in listed.prizes] == [((1,), D(48))]
    assert listed.remainder == D(24)


def test_each_prize_three_quarters_of_the_one_before_rounded_down_with_the_rest_shown():
    rules = read_rules({**CLUB, "payout": {"curve": "geometric", "count": "fixed", "prizes": 3}})
    listed = prize_list(rules, Pot(D(72), D(0), D(0), D(0)), tables=3, ranking=_standings(3, 2, 1))
    # 72 × 1 / 2.3125, × 0.75 / 2.3125, × 0.5625 / 2.3125: 31.13…, 23.35…, 17.51…
    assert [p.amount for p in listed.prizes] == [D(31), D(23), D(17)]
    assert listed.remainder == D(1)


def test_players_level_on_points_share_the_prizes_of_their_places_or_follow_the_tie_break():
    """evening-prizes: "split" pools places 1 and 2 for the two on 100 points;
    "tie_break" follows the ranking's places (more games won decided them)."""
    ranking = [Standing(1, 1, 100), Standing(2, 2, 100), Standing(3, 3, 80)]
    the_pot = Pot(D(72), D(0), D(0), D(0))
    split = prize_list(
        read_rules({**CLUB, "payout": {"ties": "split"}}), the_pot, tables=3, ranking=ranking
    )
    assert [(p.amount, p.players) for p in split.prizes] == [(D(60), (1, 2)), (D(12), (3,))]
    assert split.to(1) == split.to(2) == D(30)
    kept = prize_list(
        read_rules({**CLUB, "payout": {"ties": "tie_break"}}), the_pot, tables=3, ranking=ranking
    )
    assert [p.amount for p in kept.prizes] == [D(36), D(24), D(12)]


def test_series_and_category_prizes_come_first_and_prizes_typed_above_the_pot_are_refused():
    rules = read_rules(
        {
            **CLUB,
            "payout": {"series_prize": "5", "category_prize": "4", "count": "fixed", "prizes": 2},
        }
    )
    listed = prize_list(
        rules,
        Pot(D(72), D(0), D(0), D(0)),
        tables=3,
        ranking=_standings(9, 8),
        series_best={1: [101], 2: [100]},
        category_best={"women": [101]},
    )
    kinds = [(p.kind, p.label, p.amount) for p in listed.prizes]
    assert kinds[:3] == [("series", "1", D(5)), ("series", "2", D(5)), ("category", "women", D(4))]
    # 72 − 14 = 58 for two places, 2:1 → 38.66… and 19.33… rounded down: 38 and 19.
    assert kinds[3:] == [("place", "1", D(38)), ("place", "2", D(19))]
    assert listed.remainder == D(1)
    typed = read_rules({**CLUB, "payout": {"curve": "manual", "amounts": ["50", "30"]}})
    with pytest.raises(RuleError, match="more than the pot"):
        prize_list(typed, Pot(D(72), D(0), D(0), D(0)), tables=3, ranking=_standings(2, 1))


def test_a_share_of_the_lost_game_fees_goes_into_the_pot_the_rest_stays_in_the_cash_box():
    rules = read_rules({**CLUB, "table_fee": "1", "payout": {"lost_fee_share": "50"}})
    bills = [bill(rules, 1, {1: 5}), bill(rules, 2, {1: 1}), bill(rules, 3, {1: 0})]
    the_pot = pot(rules, bills)
    assert (the_pot.entry_fees, the_pot.lost_fees, the_pot.from_lost_fees) == (D(18), D(4), D(2))
    listed = prize_list(rules, the_pot, tables=1, ranking=_standings(3, 2, 1))
    # The first player has paid 11 of a bill of 6 + 1 + 3.50: 0.50 to give back, which
    # does not lower what the other two still owe.
    box = cash_box(
        the_pot, listed, [Account(bills[0], D(11)), *(Account(b, D(0)) for b in bills[1:])]
    )
    assert box.came_in == D(18) + D(3) + D(4)
    assert box.stays == box.came_in - listed.paid_out
    assert box.received == D(11)
    assert box.outstanding == bills[1].total + bills[2].total
    assert box.give_back == D(11) - bills[0].total == D("0.50")


# -- Properties ---------------------------------------------------------------------------

amounts = st.decimals(min_value=0, max_value=100, places=2)
tiers = st.lists(
    st.tuples(st.integers(1, 12), amounts), min_size=0, max_size=5, unique_by=lambda t: t[0]
).map(lambda ts: [Tier(start, amount) for start, amount in ts])


@FAST
@given(tiers, st.integers(0, 30))
def test_fees_never_fall_as_more_games_are_lost(tiers, lost):
    """evening-money: one more lost game never costs less in all."""
    assert lost_game_fee(lost + 1, tiers) >= lost_game_fee(lost, tiers)


@st.composite
def evenings(draw):
    curve = draw(st.sampled_from(["equal", "linear", "geometric"]))
    payout = Payout(
        lost_fee_share=draw(st.sampled_from([D(0), D(25), D(100)])),
        count=draw(st.sampled_from(["per_table", "fixed"])),
        per_table=draw(st.sampled_from([D("0.5"), D(1), D(2)])),
        prizes=draw(st.integers(0, 12)),
        curve=curve,
        round_to=draw(st.sampled_from([D(1), D("0.50"), D("0.01")])),
        series_prize=draw(st.sampled_from([D(0), D(2)])),
        ties=draw(st.sampled_from(["split", "tie_break"])),
    )
    rules = money.MoneyRules(entry_fee=draw(amounts), tiers=tuple(draw(tiers)), payout=payout)
    players = draw(st.integers(3, 30))
    bills = [bill(rules, p, {1: draw(st.integers(0, 8))}) for p in range(players)]
    totals = sorted(
        draw(st.lists(st.integers(-200, 400), min_size=players, max_size=players)), reverse=True
    )
    ranking = []
    for i, total in enumerate(totals):
        place = (
            ranking[-1].place
            if ranking and ranking[-1].total == total and draw(st.booleans())
            else i + 1
        )
        ranking.append(Standing(i, place, total))
    return rules, bills, ranking, players // 4 or 1


@FAST
@given(evenings())
def test_the_prizes_never_exceed_the_pot_and_the_cash_box_adds_up(evening):
    """evening-prizes: never more paid out than the pot; what came in = what went out +
    what stays; every prize's shares add up to it, to the cent."""
    rules, bills, ranking, tables = evening
    the_pot = pot(rules, bills)
    try:
        listed = prize_list(rules, the_pot, tables=tables, ranking=ranking, series_best={1: [0]})
    except RuleError:
        # Only when the fixed series prize alone is above the pot.
        assert rules.payout.series_prize > the_pot.total
        return
    assert listed.paid_out + listed.remainder == the_pot.total
    assert listed.paid_out <= the_pot.total
    assert listed.remainder >= 0
    for prize in listed.prizes:
        assert sum((share for _who, share in shares(prize, D("0.01"))), D(0)) == prize.amount
    places = [p.amount for p in listed.prizes if p.kind == "place"]
    box = cash_box(the_pot, listed, [Account(b, D(0)) for b in bills])
    assert box.came_in == box.prizes + box.stays
    assert all(amount >= 0 for amount in places)
