"""Every number a person reads is rounded half away from zero, on the number as written
(scorekeeper.rounding): 36.25 → 36.3 and 23.75 → 23.8 alike, 62.5 % → 63 %.

Python's round() and format strings round half to even on the binary float, which
showed 36.25 as 36.2 but 23.75 as 23.8, 763.25 as 763.2 and 62.5 % as 62 %.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from circles import wording
from games import charts, views
from scorekeeper.rounding import percent, rounded, rounded_int


@pytest.mark.parametrize(
    ("value", "decimals", "expected"),
    [
        (36.25, 1, "36.3"),
        (23.75, 1, "23.8"),
        (763.25, 1, "763.3"),
        (62.5, 0, "63"),
        (0.725, 2, "0.73"),  # as written, not 0.72499999999999997779… as stored
        (-36.25, 1, "-36.3"),  # away from zero
        (-0.5, 0, "-1"),
        (2.5, 0, "3"),
        (3.5, 0, "4"),
        (812.45, 1, "812.5"),
        (7, 1, "7.0"),
    ],
)
def test_half_is_rounded_away_from_zero(value, decimals, expected):
    assert rounded(value, decimals) == Decimal(expected)


def test_whole_numbers_and_per_cent():
    assert rounded_int(2.5) == 3
    assert rounded_int(-2.5) == -3
    assert rounded_int(1.4999) == 1
    assert percent(0.625) == 63
    assert percent(0.725) == 73  # 72.5 %, though 0.725 * 100 is 72.49999999999999
    assert percent(5 / 8) == 63
    assert percent(1 / 3) == 33


@pytest.mark.parametrize(
    ("language", "value", "expected"),
    [
        ("en", 36.25, "36.3"),
        ("en", 23.75, "23.8"),
        ("en", 763.25, "763.3"),
        ("en", 1234.25, "1,234.3"),
        ("en", -36.25, "−36.3"),
        ("en", -0.04, "0.0"),
        ("de", 36.25, "36,3"),
        ("de", 23.75, "23,8"),
        ("de", 763.25, "763,3"),
        ("de", 1234.25, "1.234,3"),
        ("de", -36.25, "−36,3"),
        ("eo", 36.25, "36,3"),
        ("eo", 763.25, "763,3"),
    ],
)
def test_the_circle_pages_numbers_round_half_up(language, value, expected):
    # An average game value, a Seeger-Fabian average, penalty points per round.
    with translation.override(language):
        assert wording.number(value, 1) == expected


@pytest.mark.parametrize("language", ["en", "de", "eo"])
def test_a_share_of_62_5_per_cent_is_63_per_cent(language):
    with translation.override(language):
        assert wording.percent(0.625) == "63%"
        assert wording.percent(5 / 8) == "63%"
        # "won 5/8 (63%)" on a player's page.
        assert wording._rate(5, 8) == "5/8\u00a0(63%)"


@pytest.mark.parametrize("language", ["en", "de", "eo"])
def test_whole_numbers_on_the_pages_round_half_up(language):
    with translation.override(language):
        assert wording.number(62.5) == "63"
        assert wording.number(-62.5) == "−63"
        assert wording.number(2.5) == "3"


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", ["0", "0", "−5", "1,234", "−98,765"]), ("de", ["0", "0", "−5", "1.234", "−98.765"])],
)
def test_whole_numbers_are_grouped_with_a_real_minus_and_no_minus_zero(language, expected):
    """A whole number, as an int or a float (a chart's values), is shown without
    rounding: grouped as the reader groups digits, a real minus sign, never −0."""
    with translation.override(language):
        assert [wording.number(value) for value in (0, -0.0, -5.0, 1234, -98765.0)] == expected


def test_the_charts_round_half_up():
    assert charts.format_number(62.5) == "63"
    assert charts.format_number(-2.5) == "−3"
    assert charts.format_number(1234.5) == "1,235"
    with translation.override("de"):
        assert views._chart_number(62.5) == "63"
        assert views._chart_number(1234.5) == "1.235"


@pytest.mark.parametrize("value", [62.5, -2.5, 0.5, 1234.5, 36.25, 7.49, -0.4])
def test_the_charts_round_as_the_shared_helper_does(value):
    # games/charts.py keeps to the standard library, so it rounds on its own: the same way.
    expected = rounded_int(abs(value))
    shown = charts.format_number(value)
    assert shown.lstrip("−").replace(",", "") == str(expected)
    assert shown.startswith("−") == (value < 0 and expected != 0)


def test_the_evenings_left_at_the_pace_so_far_round_half_up():
    # 3 evenings in the first 6 days, 5 days to go: 3 × 5 / 6 = 2.5 evenings, shown as 3.
    import datetime

    from circles.models import Season
    from circles.selectors import evenings_left

    today = datetime.date(2026, 12, 1)
    season = Season(
        starts_on=today - datetime.timedelta(days=5), ends_on=today + datetime.timedelta(days=5)
    )
    played = [today - datetime.timedelta(days=n) for n in (1, 3, 5)]
    assert evenings_left(season, played, today=today) == 3
