"""What the standings pages, the standings API and CSV and the player pages keep per
standings version (``circles.standings_cache``), and the seasons' totals kept with
every write (``circles.season_totals``), always show what a computation from the
sheets gives: after every kind of write, what the app shows equals what it shows once
everything kept is dropped. A write that forgot to move the version would show the
numbers from before it.

Reads at one version cost a fixed, small number of queries, whatever the size of the
season (``tests/test_standings_queries.py`` counts the first read).
"""

from __future__ import annotations

import datetime
from unittest import mock

import pytest
from django.test import Client
from django.urls import reverse

from circles import player_totals, results, season_totals, services, standings_cache
from circles.models import Circle, CircleSheet, Player, Season
from circles.season_factory import build_season
from games import services as sheet_services
from tests.test_circles_results import (
    MANIPULATION,
    PITCH_TO_21,
    SKAT_THREE,
    SKAT_THREE_B,
    play,
    skat,
)

pytestmark = pytest.mark.django_db

SPRING = [datetime.date(2025, 3, day) for day in (7, 14, 21, 28)]
SUMMER = datetime.date(2025, 6, 6)
SERIES = {"series_deals": 3}


@pytest.fixture
def world(django_user_model):
    return make_world(django_user_model)


def make_world(django_user_model) -> dict:
    """Two seasons of a circle with sheets of every game, and a member's client."""
    owner = django_user_model.objects.create_user("olga", "olga@example.org")
    circle = services.circle_create(owner=owner, name="Tuesday club")
    spring = services.season_save(
        circle=circle,
        data={
            "name": "Spring",
            "starts_on": "2025-03-01",
            "ends_on": "2025-05-31",
            # Each player's worst series does not count (circles.rules.standings).
            "skat_rules": {"drop_worst": 1},
        },
    )
    summer = services.season_save(
        circle=circle,
        data={"name": "Summer", "starts_on": "2025-06-01", "ends_on": "2025-08-31"},
    )
    trio = ["Ana", "Ben", "Cem"]
    sheets = [
        play(circle, "skat", trio, SKAT_THREE, on=SPRING[0], options=SERIES),
        play(circle, "skat", trio, SKAT_THREE_B, on=SPRING[1], options=SERIES),
        play(circle, "skat", ["Ana", "Cem", "Dan"], SKAT_THREE, on=SPRING[2], options=SERIES),
        play(circle, "pitch", ["Ana", "Ben", "Cem", "Dan"], PITCH_TO_21, on=SPRING[1]),
        play(circle, "manipulation", trio, MANIPULATION, on=SPRING[2]),
        play(circle, "skat", trio, SKAT_THREE_B, on=SUMMER, options=SERIES),
        play(circle, "manipulation", ["Eva", "Ben", "Cem"], MANIPULATION, on=SPRING[3]),
    ]
    member = Client()
    member.force_login(owner)
    return {
        "circle": circle,
        "spring": spring,
        "summer": summer,
        "sheets": sheets,
        "member": member,
    }


def shown(world) -> dict:
    """Everything the standings pages, API, CSV and a player page show, as read now."""
    member, spring = world["member"], Season.objects.get(pk=world["spring"].pk)
    circle = world["circle"]
    out = {}
    for season in (spring, Season.objects.get(pk=world["summer"].pk)):
        page = member.get(season.get_absolute_url())
        assert page.status_code == 200
        out[f"{season.name} page"] = {
            # The tables, title race, corrections and charts as the page shows them.
            key: page.context[key]
            for key in ("standings", "standings_body")
        }
        public = Client().get(
            f"/api/v1/seasons/{season.pk}/standings",
            HTTP_AUTHORIZATION=f"Bearer {season.view_token}",
        )
        out[f"{season.name} API, public"] = public.json()
        out[f"{season.name} API, member"] = member.get(
            f"/api/v1/seasons/{season.pk}/standings?guests=1"
        ).json()
        csv = member.get(reverse("circles:season-csv", args=[circle.pk, season.pk]))
        assert csv.status_code == 200
        out[f"{season.name} CSV"] = csv.content
    for player in Player.objects.filter(circle=circle, name__in=["Ana", "Dan"]):
        page = member.get(player.get_absolute_url())
        assert page.status_code == 200
        out[f"{player.name}'s page"] = {
            **{key: page.context[key] for key in ("profile", "charts")},
            "history": list(page.context["history"]),
        }
    return out


def computed(world) -> dict:
    """The same, computed from the sheets: nothing kept, neither the renderings and
    numbers of the worker's memory nor the seasons' and players' totals of the database
    (circles.season_totals, circles.player_totals, which the next write still finds as
    it left them)."""
    standings_cache.forget()
    with (
        mock.patch.object(season_totals, "stored", return_value=None),
        mock.patch.object(player_totals, "_current", return_value=False),
    ):
        shown_now = shown(world)
    standings_cache.forget()
    return shown_now


def link_of(world, n: int) -> CircleSheet:
    return CircleSheet.objects.select_related("sheet").get(pk=world["sheets"][n].pk)


def player(world, name: str) -> Player:
    return Player.objects.get(circle=world["circle"], name=name)


def finish_another_sheet(world):
    play(world["circle"], "skat", ["Ben", "Cem", "Dan"], SKAT_THREE_B, on=SPRING[3], options=SERIES)


def correct_an_old_sheet(world):
    # Skat rules, "Game value": Grand with 2 lost counts twice 72 against Ben now.
    sheet_services.hand_correct(
        sheet=link_of(world, 0).sheet,
        number=1,
        data=skat(1, "grand", "lost", with_=2, bid=48, hand=True),
    )


def undo_the_last_deal(world):
    sheet_services.hand_remove(sheet=link_of(world, 1).sheet, number=3)


def bring_it_back(world):
    sheet_services.hand_restore(sheet=link_of(world, 1).sheet)


def leave_a_sheet_out(world):
    services.sheet_set_counted(link=link_of(world, 2), counted=False)


def count_it_again(world):
    services.sheet_set_counted(link=link_of(world, 2), counted=True)


def move_a_sheet_to_summer(world):
    services.sheet_set_played_on(link=link_of(world, 1), played_on=SUMMER)


def put_a_sheet_in_the_trash(world):
    sheet_services.sheet_delete(sheet=link_of(world, 3).sheet)


def take_it_out_of_the_trash(world):
    sheet_services.sheet_undelete(sheet=link_of(world, 3).sheet)


def rename_a_player(world):
    services.player_update(player=player(world, "Ben"), name="Benedikt")


def make_a_guest(world):
    services.player_update(player=player(world, "Benedikt"), guest=True)


def show_initials_outside(world):
    services.player_update(player=player(world, "Cem"), shown_as=Player.INITIALS)


def merge_two_players(world):
    # Eva and Dan never sat at one table: one person under two names.
    services.player_merge(keep=player(world, "Dan"), absorb=player(world, "Eva"))


def erase_a_player(world):
    services.player_erase(player=player(world, "Cem"))


def change_the_club_rules(world):
    services.season_save(
        circle=world["circle"],
        season=world["spring"],
        data={
            "name": "Spring",
            "starts_on": "2025-03-01",
            "ends_on": "2025-05-31",
            "skat_rules": {"drop_worst": 0},
        },
    )


def start_an_open_sheet(world):
    services.sheet_create_in_circle(
        circle=world["circle"], game="skat", players=["Ana", "Fay", "Gil"], played_on=SPRING[3]
    )


WRITES = [
    finish_another_sheet,
    correct_an_old_sheet,
    undo_the_last_deal,
    bring_it_back,
    leave_a_sheet_out,
    count_it_again,
    move_a_sheet_to_summer,
    put_a_sheet_in_the_trash,
    take_it_out_of_the_trash,
    rename_a_player,
    make_a_guest,
    show_initials_outside,
    change_the_club_rules,
    start_an_open_sheet,
    merge_two_players,
    erase_a_player,
]


def test_what_is_shown_is_what_the_sheets_give_after_every_kind_of_write(world):
    before = computed(world)
    for write in WRITES:
        write(world)
        now = shown(world)
        assert now != before, f"{write.__name__} should change what the pages show"
        assert now == computed(world), f"{write.__name__} left out-of-date numbers shown"
        before = now
    # Deriving every result again from the deals moves nothing that is shown.
    results.rebuild_results(world["circle"])
    assert shown(world) == computed(world) == before


def test_a_correction_to_an_old_sheet_changes_its_season_and_nothing_else(world):
    before = computed(world)
    correct_an_old_sheet(world)
    after = shown(world)
    assert after == computed(world)
    # Summer's table, API and CSV are as they were; Spring's moved.
    for key in before:
        if key.startswith("Summer"):
            assert after[key] == before[key], key
    assert after["Spring API, public"]["standings"] != before["Spring API, public"]["standings"]
    # Only the players at the corrected sheet move in Spring's table: Dan sat elsewhere,
    # so his numbers stay (his place and tie-breaks may move with the others').
    dan = player(world, "Dan").pk

    def dans_numbers(read: dict) -> list[dict]:
        ranked = read["Spring API, member"]["standings"]["skat"]["ranked"]
        return [
            {key: value for key, value in row.items() if key not in ("place", "reasons")}
            for row in ranked
            if row["player"] == dan
        ]

    assert dans_numbers(after) == dans_numbers(before) != []
    # And only the players of the corrected sheet are named in the change it left.
    change = after["Spring API, member"]["changes"][0]["text"]
    assert "Dan" not in change
    assert all(name in change for name in ("Ana", "Ben", "Cem"))


def test_a_deal_on_an_open_sheet_keeps_what_was_computed(world):
    """Play at the tables does not make the standings compute again: only a sheet that
    counts (finishing, corrected, left out …) moves the version."""
    sheet = services.sheet_create_in_circle(
        circle=world["circle"], game="skat", players=["Ana", "Ben", "Cem"], options=SERIES
    )
    version = Circle.objects.get(pk=world["circle"].pk).standings_version
    sheet_services.hand_record(sheet=sheet, data=SKAT_THREE[0])
    sheet_services.hand_record(sheet=sheet, data=SKAT_THREE[1])
    assert Circle.objects.get(pk=world["circle"].pk).standings_version == version
    # The third deal finishes the series: now it counts.
    sheet_services.hand_record(sheet=sheet, data=SKAT_THREE[2])
    assert Circle.objects.get(pk=world["circle"].pk).standings_version > version


@pytest.mark.parametrize("size", [3, 30])
def test_a_second_read_costs_the_same_few_queries_at_any_size(size, django_assert_num_queries):
    season, user = build_season(size, seed=size)
    member = Client()
    member.force_login(user)
    circle = season.circle
    player = Player.objects.filter(circle=circle, name="Ana").get()
    urls = {
        season.get_absolute_url(): 5,
        reverse("circles:season-csv", args=[circle.pk, season.pk]): 4,
        player.get_absolute_url(): 7,
    }
    for url, count in urls.items():
        assert member.get(url).status_code == 200
        # The session and its user, the circle, the visitor's membership, the season
        # (or the player, and the circle's players for the form's choices, and the
        # page of the player's history): the standings themselves are kept.
        with django_assert_num_queries(count):
            assert member.get(url).status_code == 200, url
    api = f"/api/v1/seasons/{season.pk}/standings"
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {season.view_token}"}
    assert Client().get(api, **bearer).status_code == 200
    # The season with its circle, nothing else.
    with django_assert_num_queries(1):
        assert Client().get(api, **bearer).status_code == 200


def test_readers_who_ask_while_the_first_computes_wait_for_its_result(world):
    """A sheet just finished and every phone looks: one computation per worker, the
    others wait for it instead of computing the same numbers again."""
    import threading
    import time

    circle = Circle.objects.get(pk=world["circle"].pk)
    calls = []

    def build():
        calls.append(1)
        time.sleep(0.2)
        return {"computed": len(calls)}

    answers = []
    readers = [
        threading.Thread(
            target=lambda: answers.append(standings_cache.kept(circle, ("test",), build))
        )
        for _ in range(4)
    ]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    assert calls == [1]
    assert answers == [{"computed": 1}] * 4
    # A build that fails lets the next reader try again.
    standings_cache.forget()

    def fails():
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        standings_cache.kept(circle, ("test",), fails)
    assert standings_cache.kept(circle, ("test",), build) == {"computed": 2}


def test_the_cycle_collector_waits_while_standings_are_computed_and_runs_again_after(world):
    """Decoding and ranking thousands of stored results builds many small containers;
    the collector held off meanwhile halved a cold read at 5,000 sheets. It is back on
    when the computation ends, failed or not, and one already off stays off."""
    import gc

    circle = Circle.objects.get(pk=world["circle"].pk)
    seen = []
    assert gc.isenabled()
    standings_cache.kept(circle, ("gc",), lambda: seen.append(gc.isenabled()))
    assert seen == [False]
    assert gc.isenabled()

    def fails():
        raise RuntimeError("the database went away")

    with pytest.raises(RuntimeError):
        standings_cache.kept(circle, ("gc-fails",), fails)
    assert gc.isenabled()
    gc.disable()
    try:
        standings_cache.kept(circle, ("gc-off",), lambda: seen.append(gc.isenabled()))
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert seen == [False, False]
