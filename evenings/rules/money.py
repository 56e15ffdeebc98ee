"""The evening's money (issue 18): fees, each player's bill, the pot, the prize list
and the cash box.

Pure Python like the referee (no Django), and exact: every amount is a ``Decimal``
with no more places than its currency has (2 for the euro, 0 for the yen); a float
never comes in (amounts are read from text such as ``"6.00"``) and never goes out.

The fees (api.md, "Club evenings", ``money``):

- the entry fee (Startgeld), once per player on the roll;
- a table fee per series played (often 0);
- lost-game fees (Verlustspielgeld) for each game a player lost as declarer in a
  series, by tiers "from the Nth lost game of a series": with tiers 0.50 from the 1st
  and 1.00 from the 4th, a series with 5 lost games costs 3 × 0.50 + 2 × 1.00 = 3.50.
  The count starts again with every series (every list). Games before the first
  tier's start cost nothing.

The pot is the entry fees, and a share (0–100 %) of the lost-game fees if the
organiser says so; table fees and the rest of the lost-game fees stay in the cash
box. From the pot come, first, a prize for the best of each series and of each
category (fixed amounts), then the main prizes: a number fixed or per table, the
amounts by a curve (equal, falling evenly, or each three quarters of the one before)
or typed by hand, each rounded down to the unit the organiser picks (1.00, 0.50 or
the currency's smallest); what the rounding leaves is the remainder, shown, and
nothing pays out more than the pot. Players level on points either share the prizes
of the places they hold, or follow the ranking's tie-break (more games won, then
fewer lost) and share only a place the ranking itself shares.

The cash box: what came in (the fees due), what goes out (the prizes), what stays.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from itertools import pairwise
from typing import Any

from games.rules.errors import ProblemCollector, RuleError, Step
from games.rules.text import Money, _, ngettext

RULE_SECTIONS = {
    "evening-money": _("The evening's money"),
    "evening-prizes": _("The prize list"),
}

# Places after the decimal point by ISO 4217 code: the currencies a card club pays in.
CURRENCIES = {
    "EUR": 2,
    "CHF": 2,
    "GBP": 2,
    "USD": 2,
    "CAD": 2,
    "AUD": 2,
    "DKK": 2,
    "NOK": 2,
    "SEK": 2,
    "PLN": 2,
    "CZK": 2,
    "HUF": 2,
    "JPY": 0,
}
MOST = Decimal("100000")  # no fee, payment or prize of a card evening is this large
MOST_TIERS = 10
CURVES = ("equal", "linear", "geometric", "manual")
TIES = ("split", "tie_break")
COUNTS = ("per_table", "fixed")
MOST_PRIZES = 200
_AMOUNT = re.compile(r"(\d{1,9})(?:\.(\d{1,9}))?")


def places(currency: str) -> int:
    return CURRENCIES[currency]


def smallest(currency: str) -> Decimal:
    """The currency's smallest amount (0.01 for the euro, 1 for the yen)."""
    return Decimal(1).scaleb(-places(currency))


def read_amount(
    value: object,
    currency: str,
    where: str,
    problems: ProblemCollector,
    *,
    label: Any = None,
) -> Decimal | None:
    """An amount as typed or sent: a decimal string such as ``"6"``, ``"6.00"`` or
    ``"0.5"`` (or a whole number), never a float, never negative, with no more places
    than the currency has. ``None`` (and a problem) when it is none of that."""
    what = label or _("The amount")
    if isinstance(value, (bool, float)):
        problems.add(
            where,
            _(
                '{what} is written as text with a point, such as "6.00" (a number with a '
                "fraction could lose a cent on the way).",
                what=what,
            ),
        )
        return None
    if isinstance(value, int):
        value = str(value)
    if not isinstance(value, str):
        problems.add(where, _('{what} is an amount such as "6.00".', what=what))
        return None
    typed = text = value.strip()
    if text.count(",") == 1 and "." not in text:
        text = text.replace(",", ".")  # typed as "6,00" where a comma is the point
    if text.startswith(("-", "−")):
        problems.add(where, _("{what} cannot be negative.", what=what))
        return None
    found = _AMOUNT.fullmatch(text)
    if not found:
        problems.add(
            where, _('{what} is an amount such as "6.00", not {got}.', what=what, got=typed)
        )
        return None
    decimals = found.group(2) or ""
    # Even zeros: "1,000" or "1.000" may be meant as a thousand (a separator of
    # thousands), and is refused rather than taken as one.
    if len(decimals) > places(currency):
        problems.add(
            where,
            _(
                "{what} has more decimals than {currency} has: at most {places}.",
                what=what,
                currency=currency,
                places=places(currency),
            ),
        )
        return None
    amount = Decimal(text)
    if amount > MOST:
        problems.add(where, _("{what} is more than an evening handles.", what=what))
        return None
    return amount.quantize(smallest(currency))


@dataclass(frozen=True)
class Tier:
    """Lost-game fee from the ``start``-th lost game of a series on (until the next
    tier's start)."""

    start: int
    amount: Decimal


@dataclass(frozen=True)
class Payout:
    """How the pot is paid out (the prize list)."""

    lost_fee_share: Decimal = Decimal(0)  # percent of the lost-game fees in the pot
    count: str = "per_table"  # "per_table" or "fixed"
    per_table: Decimal = Decimal(1)  # prizes per table ("per_table")
    prizes: int = 3  # number of prizes ("fixed")
    curve: str = "linear"
    amounts: tuple[Decimal, ...] = ()  # typed by hand ("manual")
    round_to: Decimal = Decimal(1)  # 1.00, 0.50 or the currency's smallest
    series_prize: Decimal = Decimal(0)  # for the best of each series
    category_prize: Decimal = Decimal(0)  # for the best of each category
    ties: str = "split"


@dataclass(frozen=True)
class MoneyRules:
    currency: str = "EUR"
    entry_fee: Decimal = Decimal(0)
    tiers: tuple[Tier, ...] = ()
    table_fee: Decimal = Decimal(0)
    payout: Payout = field(default_factory=Payout)
    # The draw of a series waits until everyone on the roll has paid.
    draw_after_paying: bool = False

    def as_dict(self) -> dict[str, Any]:
        """The rules as api.md writes them: amounts as decimal strings."""
        p = self.payout
        return {
            "currency": self.currency,
            "entry_fee": str(self.entry_fee),
            "lost_game_fees": [{"from": t.start, "amount": str(t.amount)} for t in self.tiers],
            "table_fee": str(self.table_fee),
            "draw_after_paying": self.draw_after_paying,
            "payout": {
                "lost_fee_share": str(p.lost_fee_share),
                "count": p.count,
                "per_table": str(p.per_table),
                "prizes": p.prizes,
                "curve": p.curve,
                "amounts": [str(a) for a in p.amounts],
                "round_to": str(p.round_to),
                "series_prize": str(p.series_prize),
                "category_prize": str(p.category_prize),
                "ties": p.ties,
            },
        }


NO_MONEY = MoneyRules()


def _choice(value: object, allowed: Sequence[str], where: str, problems: ProblemCollector) -> str:
    if value not in allowed:
        problems.add(
            where,
            _("Choose one of {choices}, not {got}.", choices=", ".join(allowed), got=str(value)),
        )
        return allowed[0]
    return str(value)


def _count(
    value: object, where: str, problems: ProblemCollector, *, least: int, most: int, what: Any
) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        problems.add(
            where,
            _(
                "{what} is a whole number from {least} to {most}.",
                what=what,
                least=least,
                most=most,
            ),
        )
        return least
    return value


def read_rules(data: Mapping[str, Any] | None) -> MoneyRules:
    """The money rules from what api.md (or the form) gives: ``{"currency": "EUR",
    "entry_fee": "6.00", "lost_game_fees": [{"from": 1, "amount": "0.50"}, …],
    "table_fee": "0.00", "payout": {…}}``. Every problem is told at once."""
    if not data:
        return NO_MONEY
    if not isinstance(data, Mapping):
        raise RuleError(_("The money rules are an object."), "money")
    problems = ProblemCollector()
    currency = data.get("currency", "EUR")
    if not isinstance(currency, str) or currency not in CURRENCIES:
        problems.add(
            "money.currency",
            _(
                "Choose the currency by its code, one of {codes}.",
                codes=", ".join(sorted(CURRENCIES)),
            ),
        )
        currency = "EUR"

    def amount(value: object, where: str, what: Any) -> Decimal:
        got = read_amount(value, currency, f"money.{where}", problems, label=what)
        return got if got is not None else Decimal(0)

    entry = amount(data.get("entry_fee", "0"), "entry_fee", _("The entry fee"))
    table = amount(data.get("table_fee", "0"), "table_fee", _("The table fee"))
    raw_tiers = data.get("lost_game_fees", [])
    tiers: list[Tier] = []
    if not isinstance(raw_tiers, list) or len(raw_tiers) > MOST_TIERS:
        problems.add(
            "money.lost_game_fees",
            _("Lost-game fees are a list of at most {most} tiers.", most=MOST_TIERS),
        )
        raw_tiers = []
    for i, raw in enumerate(raw_tiers):
        where = f"lost_game_fees.{i}"
        if not isinstance(raw, Mapping):
            problems.add(f"money.{where}", _('A tier is {"from": 1, "amount": "0.50"}.'))
            continue
        start = _count(
            raw.get("from"),
            f"money.{where}.from",
            problems,
            least=1,
            most=99,
            what=_("The lost game a tier starts from"),
        )
        tiers.append(Tier(start, amount(raw.get("amount"), f"{where}.amount", _("A tier's fee"))))
    starts = [t.start for t in tiers]
    if len(set(starts)) != len(starts):
        problems.add("money.lost_game_fees", _("Two tiers start from the same lost game."))
    tiers.sort(key=lambda t: t.start)
    payout = _read_payout(data.get("payout") or {}, currency, problems, amount)
    draw_after_paying = data.get("draw_after_paying", False)
    if not isinstance(draw_after_paying, bool):
        problems.add("money.draw_after_paying", _("Say true or false."))
        draw_after_paying = False
    problems.raise_if_any()
    return MoneyRules(currency, entry, tuple(tiers), table, payout, draw_after_paying)


def _read_payout(data: object, currency: str, problems: ProblemCollector, amount: Any) -> Payout:
    if not isinstance(data, Mapping):
        problems.add("money.payout", _("The payout is an object."))
        return Payout()
    share = amount(data.get("lost_fee_share", "0"), "payout.lost_fee_share", _("The share"))
    if share > 100:
        problems.add(
            "money.payout.lost_fee_share",
            _("The share of the lost-game fees in the pot is 0 to 100 percent."),
        )
    count = _choice(data.get("count", "per_table"), COUNTS, "money.payout.count", problems)
    per_table = amount(data.get("per_table", "1"), "payout.per_table", _("Prizes per table"))
    prizes = _count(
        data.get("prizes", 3),
        "money.payout.prizes",
        problems,
        least=0,
        most=MOST_PRIZES,
        what=_("The number of prizes"),
    )
    curve = _choice(data.get("curve", "linear"), CURVES, "money.payout.curve", problems)
    typed = data.get("amounts", [])
    amounts: list[Decimal] = []
    if not isinstance(typed, list) or len(typed) > MOST_PRIZES:
        problems.add("money.payout.amounts", _("The prizes typed by hand are a list."))
        typed = []
    for i, value in enumerate(typed):
        amounts.append(amount(value, f"payout.amounts.{i}", _("A prize")))
    if curve == "manual" and not amounts:
        problems.add("money.payout.amounts", _("Type the prizes, the first prize first."))
    if any(later > earlier for earlier, later in pairwise(amounts)):
        problems.add(
            "money.payout.amounts", _("A prize is never more than the prize for a better place.")
        )
    round_to = amount(data.get("round_to", "1"), "payout.round_to", _("The unit prizes round to"))
    if round_to not in (Decimal(1), Decimal("0.5"), smallest(currency)):
        problems.add(
            "money.payout.round_to",
            _(
                "Prizes round to whole {currency}, to halves, or to the smallest coin.",
                currency=currency,
            ),
        )
        round_to = smallest(currency)
    return Payout(
        lost_fee_share=share,
        count=count,
        per_table=per_table,
        prizes=prizes,
        curve=curve,
        amounts=tuple(amounts),
        round_to=round_to.quantize(smallest(currency)) if round_to else smallest(currency),
        series_prize=amount(
            data.get("series_prize", "0"), "payout.series_prize", _("A series prize")
        ),
        category_prize=amount(
            data.get("category_prize", "0"), "payout.category_prize", _("A category prize")
        ),
        ties=_choice(data.get("ties", "split"), TIES, "money.payout.ties", problems),
    )


# ---------------------------------------------------------------------------
# Fees and bills
# ---------------------------------------------------------------------------


def lost_game_fee(lost: int, tiers: Sequence[Tier]) -> Decimal:
    """What ``lost`` games lost as declarer in one series cost: each by the tier it
    falls in (the last tier whose start is at or below its number)."""
    total = Decimal(0)
    ordered = sorted(tiers, key=lambda t: t.start)
    for game in range(1, lost + 1):
        fee = Decimal(0)
        for tier in ordered:
            if tier.start <= game:
                fee = tier.amount
        total += fee
    return total


@dataclass(frozen=True)
class SeriesFees:
    number: int
    lost: int
    lost_fee: Decimal
    table_fee: Decimal


@dataclass(frozen=True)
class Bill:
    """What one player owes: entry fee, table fees and lost-game fees per series."""

    player: int
    entry_fee: Decimal
    series: tuple[SeriesFees, ...]
    steps: tuple[Step, ...] = field(default=(), compare=False)

    @property
    def table_fees(self) -> Decimal:
        return sum((s.table_fee for s in self.series), Decimal(0))

    @property
    def lost_fees(self) -> Decimal:
        return sum((s.lost_fee for s in self.series), Decimal(0))

    @property
    def total(self) -> Decimal:
        return self.entry_fee + self.table_fees + self.lost_fees


def bill(
    rules: MoneyRules, player: int, lost_by_series: Mapping[int, int], *, rounds: bool = False
) -> Bill:
    """A player's bill from the games they lost as declarer in each series they played
    (series number → lost games); ``rounds``: a Pitch night's, whose series are rounds
    (and no game is lost as declarer)."""
    money = lambda amount: Money(amount, rules.currency)  # noqa: E731
    steps = [Step(_("Entry fee: {fee}.", fee=money(rules.entry_fee)), "evening-money")]
    lines = []
    for number, lost in sorted(lost_by_series.items()):
        fee = lost_game_fee(lost, rules.tiers)
        lines.append(SeriesFees(number, lost, fee, rules.table_fee))
        if rules.table_fee and rounds:
            steps.append(
                Step(
                    _("Round {round}: table fee {fee}.", round=number, fee=money(rules.table_fee)),
                    "evening-money",
                )
            )
        elif rules.table_fee:
            steps.append(
                Step(
                    _(
                        "Series {series}: table fee {fee}.",
                        series=number,
                        fee=money(rules.table_fee),
                    ),
                    "evening-money",
                )
            )
        if lost and rules.tiers:
            steps.append(
                Step(
                    ngettext(
                        "Series {series}: {lost} game lost as declarer costs {fee}.",
                        "Series {series}: {lost} games lost as declarer cost {fee}.",
                        lost,
                        series=number,
                        lost=lost,
                        fee=money(fee),
                    ),
                    "evening-money",
                )
            )
    total = rules.entry_fee + sum((s.table_fee + s.lost_fee for s in lines), Decimal(0))
    steps.append(Step(_("Owed in all: {total}.", total=money(total)), "evening-money"))
    return Bill(player, rules.entry_fee, tuple(lines), tuple(steps))


@dataclass(frozen=True)
class Account:
    """A player's bill against what they paid."""

    bill: Bill
    paid: Decimal

    @property
    def owes(self) -> Decimal:
        return self.bill.total

    @property
    def balance(self) -> Decimal:
        """Paid less owed: below 0 the player still owes, above 0 is money to give back."""
        return self.paid - self.bill.total


# ---------------------------------------------------------------------------
# The pot and the prize list
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Pot:
    entry_fees: Decimal
    lost_fees: Decimal
    table_fees: Decimal
    from_lost_fees: Decimal  # the share of the lost-game fees in the pot

    @property
    def total(self) -> Decimal:
        return self.entry_fees + self.from_lost_fees


def pot(rules: MoneyRules, bills: Iterable[Bill]) -> Pot:
    bills = list(bills)
    entry = sum((b.entry_fee for b in bills), Decimal(0))
    lost = sum((b.lost_fees for b in bills), Decimal(0))
    table = sum((b.table_fees for b in bills), Decimal(0))
    share = (lost * rules.payout.lost_fee_share / 100).quantize(
        smallest(rules.currency), rounding=ROUND_DOWN
    )
    return Pot(entry, lost, table, share)


@dataclass(frozen=True)
class Standing:
    """A ranked player as the prize list sees them: their place (ties by the ranking's
    tie-break already applied), their points (for "split" ties), and whether they have
    a result at all (before their first list is in they win nothing)."""

    player: int
    place: int
    total: int
    played: bool = True


@dataclass(frozen=True)
class Prize:
    """One prize: what it is for, to whom, and how much. ``players`` share it."""

    kind: str  # "place", "series", "category"
    label: str  # the place ("3"), the series number, the category's name
    amount: Decimal
    players: tuple[int, ...] = ()


@dataclass(frozen=True)
class PrizeList:
    currency: str
    pot: Decimal
    prizes: tuple[Prize, ...]
    remainder: Decimal
    steps: tuple[Step, ...] = field(default=(), compare=False)

    @property
    def paid_out(self) -> Decimal:
        return sum((p.amount for p in self.prizes), Decimal(0))

    def shares(self, prize: Prize) -> list[tuple[int, Decimal]]:
        return shares(prize, smallest(self.currency))

    def to(self, player: int) -> Decimal:
        """What a player wins in all (their share of each prize they hold)."""
        return sum(
            (share for p in self.prizes for who, share in self.shares(p) if who == player),
            Decimal(0),
        )


def shares(prize: Prize, unit: Decimal) -> list[tuple[int, Decimal]]:
    """A prize split among the players who share it, to the currency's smallest coin:
    the first players in the list get the odd coins, so the shares add up to the
    prize."""
    if not prize.players:
        return []
    n = len(prize.players)
    each = (prize.amount / n).quantize(unit, rounding=ROUND_DOWN)
    left = prize.amount - each * n
    out = []
    for who in prize.players:
        extra = unit if left >= unit else Decimal(0)
        left -= extra
        out.append((who, each + extra))
    return out


def prize_count(payout: Payout, tables: int) -> int:
    if payout.count == "fixed":
        return payout.prizes
    return min(MOST_PRIZES, int((payout.per_table * tables).to_integral_value(rounding=ROUND_DOWN)))


def _weights(curve: str, n: int) -> list[Fraction]:
    if curve == "equal":
        return [Fraction(1)] * n
    if curve == "linear":
        return [Fraction(n - i) for i in range(n)]
    # "geometric": each prize three quarters of the one before.
    return [Fraction(3, 4) ** i for i in range(n)]


def _floor(amount: Decimal | Fraction, unit: Decimal) -> Decimal:
    value = Fraction(amount) / Fraction(unit)
    return unit * (value.numerator // value.denominator)


def place_amounts(payout: Payout, count: int, money: Decimal, currency: str) -> list[Decimal]:
    """The main prizes, first place first: ``money`` split by the curve (or as typed),
    each rounded down to the payout's unit."""
    unit = payout.round_to or smallest(currency)
    if payout.curve == "manual":
        return list(payout.amounts[:count]) if count else list(payout.amounts)
    if count <= 0 or money <= 0:
        return []
    weights = _weights(payout.curve, count)
    whole = sum(weights)
    return [_floor(Fraction(money) * w / whole, unit) for w in weights]


def best_with_a_result(rows: Iterable[Any], played: set[int]) -> list[int]:
    """Who a series' or a category's prize goes to: of the ranking's ``rows`` (each with
    ``player`` and ``place``), those with a result (``played``), at the best place any of
    them has; nobody before the first result, never one sitting the series out."""
    counted = [row for row in rows if row.player in played]
    if not counted:
        return []
    best = min(row.place for row in counted)
    return [row.player for row in counted if row.place == best]


def prize_list(
    rules: MoneyRules,
    the_pot: Pot,
    *,
    tables: int,
    ranking: Sequence[Standing],
    series_best: Mapping[int, Sequence[int]] | None = None,
    category_best: Mapping[str, Sequence[int]] | None = None,
) -> PrizeList:
    """The prize list: series and category prizes first (fixed amounts for the best of
    each), then the main prizes from what is left. ``ranking`` is the evening's, best
    first; ``series_best`` and ``category_best`` name the players placed first in each
    series and category (several when they share the place). Raises ``RuleError``
    when the fixed prizes or the prizes typed by hand come to more than the pot."""
    payout = rules.payout
    money = lambda amount: Money(amount, rules.currency)  # noqa: E731
    total = the_pot.total
    steps = [
        Step(
            _(
                "The pot: {entry} in entry fees and {share} from the lost-game fees, {total} "
                "in all.",
                entry=money(the_pot.entry_fees),
                share=money(the_pot.from_lost_fees),
                total=money(total),
            ),
            "evening-prizes",
        )
    ]
    prizes: list[Prize] = []
    for number, best in sorted((series_best or {}).items()):
        if payout.series_prize and best:
            prizes.append(Prize("series", str(number), payout.series_prize, tuple(best)))
    for tag, best in sorted((category_best or {}).items()):
        if payout.category_prize and best:
            prizes.append(Prize("category", tag, payout.category_prize, tuple(best)))
    fixed = sum((p.amount for p in prizes), Decimal(0))
    count = prize_count(payout, tables)
    if payout.curve == "manual":
        typed = place_amounts(payout, 0, Decimal(0), rules.currency)
        count = len(typed)
        if fixed + sum(typed, Decimal(0)) > total:
            raise RuleError(
                _(
                    "The prizes come to {prizes}, more than the pot of {pot}.",
                    prizes=money(fixed + sum(typed, Decimal(0))),
                    pot=money(total),
                ),
                "money.payout.amounts",
            )
        amounts = typed
    else:
        if fixed > total:
            raise RuleError(
                _(
                    "The series and category prizes come to {prizes}, more than the pot of {pot}.",
                    prizes=money(fixed),
                    pot=money(total),
                ),
                "money.payout",
            )
        amounts = place_amounts(payout, count, total - fixed, rules.currency)
    prizes.extend(_place_prizes(amounts, ranking, payout.ties))
    paid = sum((p.amount for p in prizes), Decimal(0))
    remainder = total - paid
    steps.append(
        Step(
            _(
                "{count} prizes for places, then the series and category prizes; {paid} paid "
                "out, {remainder} left over.",
                count=len(amounts),
                paid=money(paid),
                remainder=money(remainder),
            ),
            "evening-prizes",
        )
    )
    return PrizeList(rules.currency, total, tuple(prizes), remainder, tuple(steps))


def _place_prizes(
    amounts: Sequence[Decimal], ranking: Sequence[Standing], ties: str
) -> list[Prize]:
    """A prize per place; players level (on points with "split", on the ranking's
    shared place with "tie_break") pool the prizes of the places they cover and share
    them equally."""
    # Prizes go to players with a result: on the roll alone, nobody wins.
    ordered = [standing for standing in ranking if standing.played]
    level = (lambda s: s.total) if ties == "split" else (lambda s: s.place)
    prizes: list[Prize] = []
    i = 0
    while i < len(amounts):
        if i >= len(ordered):
            break  # more prizes than players: the rest stays in the remainder
        j = i
        while j + 1 < len(ordered) and level(ordered[j + 1]) == level(ordered[i]):
            j += 1
        group = ordered[i : j + 1]
        covered = amounts[i : min(j + 1, len(amounts))]
        prizes.append(
            Prize(
                "place",
                str(i + 1),
                sum(covered, Decimal(0)),
                tuple(s.player for s in group),
            )
        )
        i = j + 1
    return prizes


# ---------------------------------------------------------------------------
# The cash box
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CashBox:
    entry_fees: Decimal
    table_fees: Decimal
    lost_fees: Decimal
    prizes: Decimal  # paid out
    received: Decimal  # payments marked so far
    # What the players still owe, each bill against its own payments: one who paid more
    # than a corrected bill is owed the difference back (give_back), which does not
    # lower what another still owes.
    outstanding: Decimal
    give_back: Decimal = Decimal(0)

    @property
    def came_in(self) -> Decimal:
        return self.entry_fees + self.table_fees + self.lost_fees

    @property
    def stays(self) -> Decimal:
        return self.came_in - self.prizes


def cash_box(the_pot: Pot, prizes: PrizeList, accounts: Iterable[Account]) -> CashBox:
    """The cash box from the pot, the prize list and every player's account."""
    accounts = list(accounts)
    balances = [account.balance for account in accounts]
    received = sum((account.paid for account in accounts), Decimal(0))
    return CashBox(
        the_pot.entry_fees,
        the_pot.table_fees,
        the_pot.lost_fees,
        prizes.paid_out,
        received,
        outstanding=sum((-b for b in balances if b < 0), Decimal(0)),
        give_back=sum((b for b in balances if b > 0), Decimal(0)),
    )
