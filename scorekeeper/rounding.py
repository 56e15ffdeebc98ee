"""How every number a person reads is rounded: half away from zero, on the number as
written (standard library only, so the charts and the exports use it too).

Python's ``round()`` and its format strings round half to even, and on the binary
float: 36.25 becomes 36.2 but 23.75 becomes 23.8, and 62.5 % becomes 62 %. People
round 5 up, as they learnt at school and as a spreadsheet does.
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal


def rounded(value: float | int | Decimal, decimals: int = 0) -> Decimal:
    """``value`` to ``decimals`` places, half away from zero: 36.25 → 36.3,
    23.75 → 23.8, 763.25 → 763.3, 62.5 → 63, −0.5 → −1.

    A float is taken as written (its shortest repr: 0.725 is 0.725, not
    0.72499999999999997779…), so what a person would round by hand rounds the same.
    """
    exact = value if isinstance(value, Decimal) else Decimal(str(value))
    return exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def rounded_int(value: float | int | Decimal) -> int:
    """``value`` to a whole number, half away from zero (2.5 → 3, −2.5 → −3)."""
    return int(rounded(value))


def percent(rate: float | Decimal) -> int:
    """A share (0.625) as whole per cent, half away from zero (63)."""
    exact = rate if isinstance(rate, Decimal) else Decimal(str(rate))
    return rounded_int(exact * 100)
