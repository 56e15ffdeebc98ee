"""The club rules a Skat season is ranked by, as a circle's organiser enters them."""

from __future__ import annotations

import pytest

from circles.rules.standings import ClubRules
from games.rules.errors import RuleError


def problems(data):
    with pytest.raises(RuleError) as error:
        ClubRules.from_mapping(data)
    return {problem.field: problem.message for problem in error.value.problems}


def test_missing_rules_keep_their_defaults():
    assert ClubRules.from_mapping({}) == ClubRules()
    assert ClubRules.from_mapping(None) == ClubRules()
    assert ClubRules.from_mapping({"min_series": None}) == ClubRules()
    assert ClubRules() == ClubRules(
        rank_by="total", scale=False, min_series=0, drop_worst=0, missed="ignore"
    )


def test_every_rule_is_read():
    data = {"rank_by": "average", "scale": True, "min_series": 5, "drop_worst": 2, "missed": "zero"}
    rules = ClubRules.from_mapping(data)
    assert rules == ClubRules("average", True, 5, 2, "zero")
    assert rules.as_dict() == data


def test_every_bad_rule_is_reported_at_once():
    found = problems(
        {"rank_by": "best", "scale": "yes", "min_series": -1, "drop_worst": 100, "missed": 0}
    )
    assert set(found) == {
        "rules.rank_by",
        "rules.scale",
        "rules.min_series",
        "rules.drop_worst",
        "rules.missed",
    }
    assert found["rules.rank_by"] == (
        'rank_by is "total" (the Seeger-Fabian points of the counted series added up) or '
        '"average" (those points per counted series); got "best".'
    )
    assert found["rules.scale"] == 'scale is switched on with true or off with false, not "yes".'
    assert (
        found["rules.min_series"] == "min_series is a whole number of series from 0 to 99; got -1."
    )
    assert "from 0 to 99; got 100" in found["rules.drop_worst"]
    assert found["rules.missed"].startswith('missed is "ignore"')


@pytest.mark.parametrize("value", [True, False, 2.0, "3"])
def test_a_number_of_series_is_a_whole_number(value):
    # JSON true is not a number of series, though Python counts a bool as an int.
    assert "rules.min_series" in problems({"min_series": value})


def test_an_unknown_rule_suggests_the_one_meant():
    found = problems({"drop_wrost": 1, "colour": "red"})
    assert found["rules.drop_wrost"] == (
        '"drop_wrost" is not a club rule; the rules are rank_by, scale, min_series, '
        'drop_worst and missed. Did you mean "drop_worst"?'
    )
    assert "Did you mean" not in found["rules.colour"]


def test_rules_must_be_an_object():
    assert problems([1, 2]) == {
        "rules": 'Give the club rules as an object of names and values, like {"rank_by": '
        '"average"}; got [1, 2].'
    }


def test_a_value_that_is_no_json_is_still_shown():
    assert "got {1, 2}" in problems({"rank_by": {1, 2}})["rules.rank_by"]


def test_problems_under_another_field():
    with pytest.raises(RuleError) as error:
        ClubRules.from_mapping({"scale": 1}, field="season.rules")
    assert error.value.problems[0].field == "season.rules.scale"


def test_rules_built_directly_are_checked_too():
    with pytest.raises(RuleError) as error:
        ClubRules(drop_worst=-2)
    assert error.value.problems[0].field == "rules.drop_worst"
