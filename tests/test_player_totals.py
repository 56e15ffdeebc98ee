"""Each player's totals and each sheet's contributions to them, kept up to date in the
transaction of every write (``circles.player_totals``): after every kind of write they
are what adding every player up again from the sheets gives; a write that names its
sheets changes their contributions and their players' totals and nothing else; the
player page costs the same few queries at 30 sheets as at 150; stored totals that do not
read back are never used."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from circles import player_totals, services
from circles.models import Circle, CircleSheet, Player, PlayerContribution, PlayerTotals
from circles.season_factory import build_season
from tests.test_season_totals import WHOLE
from tests.test_season_totals import rebuilt as rebuilt_from_the_sheets
from tests.test_standings_cache import (
    WRITES,
    computed,
    correct_an_old_sheet,
    link_of,
    make_world,
    shown,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(django_user_model):
    return make_world(django_user_model)


def kept(circle: Circle) -> dict:
    """The players' totals and the sheets' contributions as stored now."""
    return {
        "totals": {
            row.player_id: row.data for row in PlayerTotals.objects.filter(player__circle=circle)
        },
        "contributions": {
            (row.sheet_id, row.player_id): (
                row.game,
                row.played_on,
                row.biggest,
                row.data,
            )
            for row in PlayerContribution.objects.filter(sheet__circle=circle)
        },
    }


def rebuilt(circle: Circle) -> dict:
    """What adding every player up again from the sheets stores (rolled back)."""
    return rebuilt_from_the_sheets(circle, kept)


def test_after_every_kind_of_write_the_kept_totals_are_what_the_sheets_add_up_to(world):
    circle = world["circle"]
    assert kept(circle)["contributions"], "the world's sheets count"
    for write in WRITES:
        with mock.patch.object(player_totals, "rebuild", wraps=player_totals.rebuild) as whole:
            write(world)
        found = Circle.objects.get(pk=circle.pk)
        assert found.players_kept_at == found.standings_version, write.__name__
        assert kept(circle) == rebuilt(circle), f"{write.__name__} left the totals out of date"
        # Only a write that may change anything adds every player up again; the others
        # take out and put in the sheets they name.
        assert whole.called == (write in WHOLE), write.__name__


def test_a_correction_to_an_old_sheet_changes_its_players_and_nothing_else(world):
    circle = world["circle"]
    before = kept(circle)
    corrected = link_of(world, 0)
    at_the_table = set(corrected.results.values_list("player_id", flat=True))
    correct_an_old_sheet(world)
    after = kept(circle)
    assert {
        key
        for key in before["contributions"]
        if after["contributions"].get(key) != before["contributions"][key]
    } == {(corrected.pk, player) for player in at_the_table}
    assert {
        player for player in before["totals"] if after["totals"][player] != before["totals"][player]
    } == at_the_table
    # Dan played only elsewhere: his record is as it was.
    dan = Player.objects.get(circle=circle, name="Dan").pk
    assert dan not in at_the_table
    assert after["totals"][dan] == before["totals"][dan]


def test_the_first_read_after_a_write_costs_the_same_queries_at_30_sheets_as_at_150():
    """The player page reads the player's totals, the biggest game, the latest sheets
    of each game she played for the charts (a query a game) and one page of the
    history: the same few queries however many sheets the player sat at."""
    counts = []
    for size in (30, 150):
        season, user = build_season(size, seed=size)
        member = Client()
        member.force_login(user)
        player = Player.objects.filter(circle=season.circle, name="Ana").get()
        link = CircleSheet.objects.filter(circle=season.circle_id, sheet__finished=True).first()
        services.sheet_set_counted(link=link, counted=False)
        with (
            mock.patch.object(player_totals, "_added_up") as added_up,
            CaptureQueriesContext(connection) as queries,
        ):
            page = member.get(player.get_absolute_url())
        assert page.status_code == 200
        assert not added_up.called, "the kept totals were read"
        assert page.context["profile"]["sections"]
        assert len(page.context["history"]) > 0
        counts.append(len(queries))
    # The session, its user, the circle, the membership, the player and the circle's
    # players (6); Ana's totals, her biggest game, her latest sheets of each of the
    # three games and the page of her history (6).
    assert counts == [12, 12], counts


def test_totals_that_do_not_read_back_are_not_used_and_the_next_write_mends_them(world):
    circle = world["circle"]
    before = computed(world)
    ana = Player.objects.get(circle=circle, name="Ana")
    data = PlayerTotals.objects.get(player=ana).data
    PlayerTotals.objects.filter(player=ana).update(
        data={**data, "skat": {**data["skat"], "won": "lots"}}
    )
    # The page adds Ana up from her sheets instead: the same numbers.
    assert shown(world) == before
    the_next_write_adds_everyone_up_again(world)


def the_next_write_adds_everyone_up_again(world) -> None:
    with mock.patch.object(player_totals, "rebuild", wraps=player_totals.rebuild) as whole:
        correct_an_old_sheet(world)
    assert whole.called
    assert kept(world["circle"]) == rebuilt(world["circle"])
    assert shown(world) == computed(world)


def test_a_circle_from_before_the_totals_gets_them_at_its_first_write(world):
    circle = world["circle"]
    before = computed(world)
    PlayerTotals.objects.all().delete()
    PlayerContribution.objects.all().delete()
    Circle.objects.filter(pk=circle.pk).update(players_kept_at=None)
    assert shown(world) == before
    the_next_write_adds_everyone_up_again(world)


def test_a_history_line_that_does_not_read_back_is_not_shown(world):
    """The page of the history is then read from the sheets: the same lines."""
    before = computed(world)
    ana = Player.objects.get(circle=world["circle"], name="Ana")
    line = PlayerContribution.objects.filter(player=ana).first()
    PlayerContribution.objects.filter(pk=line.pk).update(data={**line.data, "place": "first"})
    assert shown(world) == before


def test_a_sheet_left_out_costs_the_same_queries_at_30_sheets_as_at_150():
    """Its contributions come out of its players' totals: the same few rows read and
    written however many sheets the circle has (bench/bench_standings.py times it at
    5,000)."""
    counts = []
    for size in (30, 150):
        season, _user = build_season(size, seed=size)
        link = CircleSheet.objects.filter(circle=season.circle_id, sheet__finished=True).first()
        before = kept(season.circle)
        with (
            mock.patch.object(player_totals, "rebuild") as whole,
            CaptureQueriesContext(connection) as queries,
        ):
            services.sheet_set_counted(link=link, counted=False)
        assert not whole.called
        after = kept(season.circle)
        assert not [key for key in after["contributions"] if key[0] == link.pk]
        assert after["totals"] != before["totals"]
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
