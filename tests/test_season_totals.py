"""Each season's totals, kept up to date in the transaction of every write
(``circles.season_totals``): after every kind of write they are what adding the season
up again from its sheets gives; a write that names its sheets changes their
contributions and nothing else, at the same cost however long the season; stored
totals that do not read back are never used."""

from __future__ import annotations

from collections.abc import Callable
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from circles import season_totals, services
from circles.models import Circle, CircleSheet, Season, SeasonContribution, SeasonTotals
from circles.season_factory import build_season
from circles.selectors import season_standings
from tests.test_standings_cache import (
    WRITES,
    change_the_club_rules,
    computed,
    correct_an_old_sheet,
    make_world,
    merge_two_players,
    shown,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(django_user_model):
    return make_world(django_user_model)


# The writes that may change any number of any season: every season is added up again.
WHOLE = {change_the_club_rules, merge_two_players}


def kept(circle: Circle) -> dict:
    """The totals, their view and the contributions as stored now, with their version."""
    return {
        "totals": {
            row.season_id: (row.version, row.data, row.view)
            for row in SeasonTotals.objects.filter(season__circle=circle)
        },
        "contributions": {
            row.sheet_id: (row.season_id, row.data)
            for row in SeasonContribution.objects.filter(sheet__circle=circle)
        },
    }


def rebuilt(circle: Circle, read: Callable[[Circle], dict] = kept) -> dict:
    """What adding everything up again from the sheets stores (rolled back), as
    ``read`` reads it (the seasons' totals unless told)."""
    with transaction.atomic():
        season_totals.rebuild(circle.pk)
        found = read(circle)
        transaction.set_rollback(True)
    return found


def test_after_every_kind_of_write_the_kept_totals_are_what_the_sheets_add_up_to(world):
    circle = world["circle"]
    for write in WRITES:
        with mock.patch.object(
            season_totals, "_rebuild_seasons", wraps=season_totals._rebuild_seasons
        ) as whole:
            write(world)
        now = kept(circle)
        version = Circle.objects.get(pk=circle.pk).standings_version
        assert {found for found, *_ in now["totals"].values()} == {version}, write.__name__
        assert now == rebuilt(circle), f"{write.__name__} left the totals out of date"
        # Only a write that may change anything adds every season up again; the others
        # take out and put in the sheets they name.
        assert whole.called == (write in WHOLE), write.__name__


def test_a_correction_to_an_old_sheet_changes_its_contribution_and_nothing_else(world):
    circle = world["circle"]
    before = kept(circle)
    corrected = world["sheets"][0].pk
    correct_an_old_sheet(world)
    after = kept(circle)
    spring, summer = world["spring"].pk, world["summer"].pk
    # Summer's totals are as they were (a new version, the same numbers).
    assert after["totals"][summer][1:] == before["totals"][summer][1:]
    assert after["totals"][spring][1] != before["totals"][spring][1]
    assert {
        sheet
        for sheet in before["contributions"]
        if after["contributions"].get(sheet) != before["contributions"][sheet]
    } == {corrected}


def test_a_changed_sheet_is_taken_out_and_put_in_with_the_same_queries_however_long_the_season():
    """What a write changes in the totals costs the same few queries at 3 sheets as at
    60 (bench/bench_standings.py times it at 5,000)."""
    counts = []
    for size in (3, 60):
        season, _user = build_season(size)
        link = CircleSheet.objects.filter(circle=season.circle_id, sheet__finished=True).first()
        with (
            mock.patch.object(season_totals, "_rebuild_seasons") as whole,
            CaptureQueriesContext(connection) as queries,
            transaction.atomic(),
        ):
            season_totals.moved(season.circle_id, sheets=[link.pk])
        assert not whole.called
        counts.append(len(queries))
    # The savepoint (1), the version moved and read (2), the seasons and their totals'
    # versions (2), the sheet's old contribution, the totals and the sheet's records now
    # (3), the season's totals written (1) and the version of the others (1); the
    # contribution is as it was. The players' side (circles.player_totals): the sheet's
    # old contributions and its players' totals (2) and their version (1); their
    # contributions and totals are as they were.
    assert counts == [13, 13], [query["sql"][:90] for query in queries]


def test_totals_that_do_not_read_back_are_not_used_and_the_next_write_mends_them(world):
    circle = world["circle"]
    before = computed(world)
    spring = SeasonTotals.objects.get(season=world["spring"])
    # The view a read takes, and the totals the next write starts from.
    view = {**spring.view, "skat": {**spring.view["skat"], "players": {"1": "lots"}}}
    data = {**spring.data, "skat": {**spring.data["skat"], "players": {"1": "lots"}}}
    SeasonTotals.objects.filter(pk=spring.pk).update(view=view, data=data)
    assert season_totals.stored(world["spring"]) is None
    # The pages add the season up from its sheets instead: the same numbers.
    assert shown(world) == before
    with mock.patch.object(
        season_totals, "_rebuild_seasons", wraps=season_totals._rebuild_seasons
    ) as whole:
        correct_an_old_sheet(world)
    assert whole.called
    assert kept(circle) == rebuilt(circle)


def test_a_circle_from_before_the_totals_gets_them_at_its_first_write(world):
    circle = world["circle"]
    before = computed(world)
    SeasonTotals.objects.all().delete()
    SeasonContribution.objects.all().delete()
    assert shown(world) == before
    correct_an_old_sheet(world)
    assert kept(circle) == rebuilt(circle)
    assert shown(world) == computed(world)


def test_a_sheet_counted_for_a_season_that_is_gone_is_added_up_again(world):
    """A season deleted takes its totals and its sheets' contributions with it."""
    circle = world["circle"]
    Season.objects.filter(pk=world["summer"].pk).delete()
    services.season_save(
        circle=circle,
        data={"name": "Summer", "starts_on": "2025-06-01", "ends_on": "2025-08-31"},
    )
    assert kept(circle) == rebuilt(circle)
    summer = Season.objects.get(circle=circle, name="Summer")
    assert season_standings(summer).counted_sheets == 1
