"""The evening's money as the pages and the API see it: its rules, each player's bill
from the lists as entered, payments (marked and undone, all kept), the pot, the prize
list and the cash box.

The arithmetic is ``evenings.rules.money`` (pure, exact); here it is read from the
database with a fixed number of queries and written in one transaction. The rules
kept with an evening (or a circle) are read back through ``read_rules``, which checks
them as it checks a person's input.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from evenings import selectors
from evenings.locking import bump, locked
from evenings.models import BillChange, Evening, EveningPlayer, EveningTable, Payment
from evenings.rules import money, seating
from games.rules.errors import ProblemCollector, RuleError
from scorekeeper.db import retry_on_conflict


def read_kept(data: Mapping[str, Any] | None) -> money.MoneyRules | None:
    """Money rules kept in the database (an evening's or a circle's), checked as they
    are read like a person's input: None when there are none or they do not read."""
    if not data:
        return None
    try:
        return money.read_rules(data)
    except RuleError:
        return None


def rules_of(evening: Evening) -> money.MoneyRules:
    """The evening's money rules, checked as they are read (none when it has none, or
    when what is kept no longer reads)."""
    return read_kept(evening.money) or money.NO_MONEY


def has_money(evening: Evening) -> bool:
    return bool(evening.money)


def circle_rules(circle: Any) -> dict[str, Any]:
    """A circle's usual money rules, checked ({} when it has none or they do not read)."""
    rules = read_kept(getattr(circle, "evening_money", None))
    return rules.as_dict() if rules else {}


def who(request_user: Any) -> str:
    """Who marked a payment, for the history: a signed-in user's name, else the link."""
    if getattr(request_user, "is_authenticated", False):
        return request_user.get_username()
    return _("the organiser's link")


# Outside the transaction: run again whole after a deadlock (scorekeeper/db.py).
@retry_on_conflict
@transaction.atomic
def payment_add(
    *,
    evening: Evening,
    player: EveningPlayer,
    amount: object,
    by: str = "",
    expected_version: int | None = None,
) -> Payment:
    """Money a player handed over. The amount is exact (a decimal string), more than 0,
    with no more places than the evening's currency has."""
    rules = rules_of(evening)
    if not has_money(evening):
        raise RuleError(_("This evening keeps no money: set its fees first."), "amount")
    problems = ProblemCollector()
    value = money.read_amount(amount, rules.currency, "amount", problems, label=_("The payment"))
    if value is not None and value <= 0:
        problems.add("amount", _("A payment is more than 0."))
    problems.raise_if_any()
    evening = locked(evening, expected_version)
    if player.evening_id != evening.pk:
        raise RuleError(_("That player is not on this evening's roll."), "player")
    payment = Payment.objects.create(evening=evening, player=player, amount=value, by=by[:150])
    bump(evening)
    return payment


@retry_on_conflict
@transaction.atomic
def payment_undo(
    *, evening: Evening, payment: Payment, by: str = "", expected_version: int | None = None
) -> Payment:
    """Take a payment back (marked by mistake): it stays in the history, undone."""
    evening = locked(evening, expected_version)
    payment = Payment.objects.select_for_update().get(pk=payment.pk, evening=evening)
    if payment.undone_at is not None:
        raise RuleError(_("This payment was undone already."), "payment")
    payment.undone_at = timezone.now()
    payment.undone_by = by[:150]
    payment.save(update_fields=["undone_at", "undone_by"])
    bump(evening)
    return payment


@retry_on_conflict
@transaction.atomic
def rules_set(
    *, evening: Evening, data: Mapping[str, Any] | None, expected_version: int | None = None
) -> money.MoneyRules:
    """Set (or, with nothing, clear) the evening's money rules."""
    rules = money.read_rules(data)
    evening = locked(evening, expected_version)
    marked = evening.payments.filter(undone_at__isnull=True).exists()
    if marked and (not data or rules.currency != rules_of(evening).currency):
        raise RuleError(
            _(
                "Payments are marked in %(currency)s: the evening keeps its money and its "
                "currency. Undo the payments first to change them."
            )
            % {"currency": rules_of(evening).currency},
            "money.currency",
        )
    evening.money = rules.as_dict() if data else {}
    if data and evening.series.exists():
        # Once a series is drawn the roll, and with it the pot, is known: prizes above
        # it are refused here rather than shown as a problem on the money page.
        evening.save(update_fields=["money"])
        problem = money_view(evening).prize_problem
        if problem:
            raise RuleError(problem, "money.payout.amounts")
    evening.save(update_fields=["money"])
    bump(evening)
    return rules


def keep_for_circle(*, circle: Any, rules: money.MoneyRules) -> None:
    """The rules a circle's evenings start with from now on."""
    circle.evening_money = rules.as_dict()
    circle.save(update_fields=["evening_money"])


def note_bill_changes(
    *,
    evening: Evening,
    table: EveningTable,
    seats: list[Any],
    lost_before: Mapping[int, int],
    change: str,
) -> None:
    """In the sheet's write: a correction that changed a player's lost-game fee goes
    into the evening's history (issue 18: the bill changes, and the history says so)."""
    tiers = rules_of(evening).tiers
    notes = []
    for seat in seats:
        before, after = lost_before.get(seat.pk, seat.lost), seat.lost
        fee_before, fee_after = (
            money.lost_game_fee(before, tiers),
            money.lost_game_fee(after, tiers),
        )
        if fee_before != fee_after:
            notes.append(
                BillChange(
                    evening=evening,
                    player_id=seat.player_id,
                    table=table,
                    change=change,
                    lost_before=before,
                    lost_after=after,
                    fee_before=fee_before,
                    fee_after=fee_after,
                )
            )
    BillChange.objects.bulk_create(notes)


# -- Reading ----------------------------------------------------------------------------


@dataclass
class Line:
    """A player's row of the money table."""

    player: selectors.RollPlayer
    account: money.Account
    won: Decimal = Decimal(0)  # prizes

    @property
    def settled(self) -> bool:
        return self.account.balance >= 0

    @property
    def due(self) -> Decimal:
        """What the player still has to pay (0 when settled)."""
        return max(Decimal(0), -self.account.balance)


@dataclass
class MoneyView:
    evening: Evening
    rules: money.MoneyRules
    lines: list[Line]
    payments: list[Payment]
    pot: money.Pot
    prizes: money.PrizeList | None
    prize_problem: str = ""
    names: dict[int, str] = field(default_factory=dict)
    changes: list[BillChange] = field(default_factory=list)

    @property
    def box(self) -> money.CashBox:
        prizes = self.prizes or money.PrizeList(
            self.rules.currency, self.pot.total, (), self.pot.total
        )
        return money.cash_box(self.pot, prizes, [line.account for line in self.lines])

    def line_of(self, player: int) -> Line | None:
        return next((line for line in self.lines if line.player.pk == player), None)

    @property
    def unpaid(self) -> list[Line]:
        return [line for line in self.lines if not line.player.left and not line.settled]


def _tables(view: selectors.EveningView) -> int:
    """How many tables the prizes follow: the most of any series, or those the roll
    would make before the first draw."""
    counted = [len(tables) for tables in view.tables.values()]
    if counted:
        return max(counted)
    try:
        return len(
            seating.table_sizes(
                len(view.roll), game=view.evening.game, sit_out=view.evening.sit_out
            )
        )
    except RuleError:
        return 0


def money_view(
    evening: Evening,
    view: selectors.EveningView | None = None,
    *,
    payments: list[Payment] | None = None,
    changes: list[BillChange] | None = None,
) -> MoneyView:
    """Every player's bill and payments, the pot, the prize list and the cash box: the
    evening's reading (four queries), its payments (one) and the corrections that
    changed a bill (one)."""
    rules = rules_of(evening)
    view = view or selectors.evening_view(evening)
    lost: dict[int, dict[int, int]] = {}
    for seat in view.seats:
        lost.setdefault(seat.player_id, {})[seat.table.series.number] = seat.lost
    if payments is None:
        payments = list(evening.payments.order_by("at", "pk"))
    paid: dict[int, Decimal] = {}
    for payment in payments:
        if payment.undone_at is None:
            paid[payment.player_id] = paid.get(payment.player_id, Decimal(0)) + payment.amount
    lines = [
        Line(
            player,
            money.Account(
                money.bill(
                    rules, player.pk, lost.get(player.pk, {}), rounds=evening.game == "pitch"
                ),
                paid.get(player.pk, Decimal(0)),
            ),
        )
        for player in view.players
    ]
    the_pot = money.pot(rules, [line.account.bill for line in lines])
    ranking = view.brief_ranking
    standings = [
        money.Standing(row.player, row.place, row.total, played=bool(row.series))
        for row in ranking.rows
    ]
    # A series' (a round's) prize goes to the best of those whose table has a result in
    # it (nobody before the first deal, never one sitting it out); a category's to the
    # best of its players with a result.
    series_best = {
        series.number: money.best_with_a_result(
            selectors.series_ranking(view, series.number).rows,
            {
                seat.player_id
                for table in view.tables.get(series.number, [])
                if table.table.deals or table.table.paper
                for seat in table.seats
            },
        )
        for series in view.series
    }
    played = {standing.player for standing in standings if standing.played}
    category_best = {
        tag: money.best_with_a_result(r.rows, played) for tag, r in selectors.categories(view)
    }
    prizes, problem = None, ""
    try:
        prizes = money.prize_list(
            rules,
            the_pot,
            tables=_tables(view),
            ranking=standings,
            series_best=series_best,
            category_best=category_best,
        )
    except RuleError as error:
        problem = "; ".join(str(p.message) for p in error.problems)
    if prizes is not None:
        for line in lines:
            line.won = prizes.to(line.player.pk)
    if changes is None:
        changes = list(evening.bill_changes.select_related("table__series").order_by("at", "pk"))
    return MoneyView(evening, rules, lines, payments, the_pot, prizes, problem, view.names, changes)


def unpaid_names(evening: Evening) -> list[str]:
    """Who on the roll has not paid in full yet (for "the draw waits until everyone has
    paid")."""
    return [line.player.name for line in money_view(evening).unpaid]


@dataclass
class SeasonBox:
    """A circle's cash box over a season: each evening that kept money, and the sums
    per currency (a club keeps one; the sums never mix two)."""

    rows: list[tuple[Evening, money.CashBox, str]]  # evening, its cash box, currency

    def totals(self) -> list[tuple[str, money.CashBox]]:
        sums: dict[str, list[money.CashBox]] = {}
        for _evening, box, currency in self.rows:
            sums.setdefault(currency, []).append(box)
        out = []
        for currency, boxes in sorted(sums.items()):

            def add(name: str, boxes: list[money.CashBox] = boxes) -> Decimal:
                return sum((getattr(b, name) for b in boxes), Decimal(0))

            out.append(
                (
                    currency,
                    money.CashBox(
                        add("entry_fees"),
                        add("table_fees"),
                        add("lost_fees"),
                        add("prizes"),
                        add("received"),
                        outstanding=add("outstanding"),
                        give_back=add("give_back"),
                    ),
                )
            )
        return out


def season_box(circle: Any, starts_on: Any, ends_on: Any) -> SeasonBox:
    """The cash box of a circle's evenings from ``starts_on`` to ``ends_on``, with a
    fixed number of queries however many evenings: the evenings, their four readings
    at once, and their payments."""
    evenings = [
        e
        for e in Evening.objects.filter(
            circle=circle, played_on__gte=starts_on, played_on__lte=ends_on
        ).order_by("played_on", "pk")
        if e.money
    ]
    views = selectors.evening_views(evenings)
    payments: dict[int, list[Payment]] = {e.pk: [] for e in evenings}
    for payment in Payment.objects.filter(evening__in=evenings).order_by("at", "pk"):
        payments[payment.evening_id].append(payment)
    rows = []
    for evening in evenings:
        view = money_view(evening, views[evening.pk], payments=payments[evening.pk], changes=[])
        rows.append((evening, view.box, view.rules.currency))
    return SeasonBox(rows)
