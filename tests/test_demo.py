"""``manage.py demo``: an empty database gets a realistic circle, played through the referee."""

from __future__ import annotations

import io
import re

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from circles import selectors
from circles.management.commands import demo
from circles.models import Circle, CircleSheet, Player, Season, SheetResult
from games.models import Hand, Sheet

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def snapshot() -> dict[str, int]:
    models = (Circle, Sheet, Hand, Season, Player, SheetResult, get_user_model())
    return {model.__name__: model.objects.count() for model in models}


def test_the_defaults_are_what_the_issue_asks():
    parser = demo.Command().create_parser("manage.py", "demo")
    defaults = vars(parser.parse_args([]))
    assert defaults["series"] == demo.DEFAULT_SKAT_SERIES >= 10
    assert defaults["games"] == demo.DEFAULT_GAMES >= 10
    assert defaults["previous"] == demo.DEFAULT_PREVIOUS_SERIES > 0
    assert defaults["seed"] == demo.DEFAULT_SEED
    assert defaults["base_url"] == "http://127.0.0.1:8000"
    assert demo.SERIES_DEALS == 36
    assert 6 <= len(demo.PLAYERS) <= 8


def test_demo_fills_an_empty_database_with_a_current_and_a_previous_season():
    # The sizes the issue asks for (the defaults are a little larger, see above); the
    # previous season small, to keep this quick.
    output = run("--series", "10", "--games", "10", "--previous", "1")

    circle = Circle.objects.get()
    assert circle.name == demo.CIRCLE_NAME
    players = list(circle.players.all())
    assert 6 <= len(players) <= 8
    assert sum(p.guest for p in players) == 1
    assert sum(p.shown_as == Player.INITIALS for p in players) == 1

    today = timezone.localdate()
    current = selectors.current_season(circle, today)
    assert current is not None
    assert current.starts_on <= today <= current.ends_on
    assert current.planned_evenings
    assert current.skat_rules["drop_worst"] == 1
    assert current.skat_rules["min_series"] == 3
    previous = circle.seasons.exclude(pk=current.pk).get()
    assert previous.ends_on < current.starts_on

    links = list(
        CircleSheet.objects.filter(
            circle=circle, played_on__gte=current.starts_on, played_on__lte=current.ends_on
        )
        .select_related("sheet")
        .prefetch_related("sheet__seats")
    )
    counted = [link for link in links if link.sheet.finished and not link.excluded]
    skat = [link.sheet for link in counted if link.sheet.game == "skat"]
    assert len(skat) >= 10
    assert {sheet.deal_count for sheet in skat} == {36}
    assert {len(sheet.seats.all()) for sheet in skat} == {3, 4}
    assert sum(link.sheet.game == "pitch" for link in counted) >= 10
    assert sum(link.sheet.game == "manipulation" for link in counted) >= 10
    # Tonight's open sheet of each game, and a practice series left out.
    open_sheets = [link.sheet for link in links if not link.sheet.finished]
    assert sorted(sheet.game for sheet in open_sheets) == ["manipulation", "pitch", "skat"]
    assert {link.played_on for link in links if not link.sheet.finished} == {today}
    assert [link.sheet.game for link in links if link.excluded] == ["skat"]
    # Evenings: the finished sheets were played on several days, none after today.
    days = {link.played_on for link in counted}
    assert len(days) >= 8
    assert max(days) < today
    assert CircleSheet.objects.filter(played_on__lt=current.starts_on).exists()

    standings = selectors.season_standings(current)
    assert list(standings.tables) == ["skat", "pitch", "manipulation"]
    for table in standings.tables.values():
        assert table.ranked
        assert table.ranked[0].place == 1
    assert standings.open_sheets == 3
    assert [change.change for change in standings.changes] == ["corrected"]

    # Random but legal, and varied: passed deals, Null, Hand games, Kontra, each way
    # of giving a result; moons and sets in Pitch; both ways of entering a round.
    skat_entries = [h.entry for h in Hand.objects.filter(sheet__game="skat")]
    seen = {key for entry in skat_entries for key in entry if entry.get(key) is not False}
    assert {
        "passed",
        "hand",
        "kontra",
        "declarer_trick_cards",
        "declarer_points",
        "outcome",
    } <= seen
    assert any(entry.get("game") == "null" for entry in skat_entries)
    rounds = [h.entry for h in Hand.objects.filter(sheet__game="manipulation")]
    assert any("hands" in entry for entry in rounds)
    assert any("penalties" in entry for entry in rounds)
    pitch_results = [
        result.stats for result in SheetResult.objects.filter(sheet__sheet__game="pitch")
    ]
    assert sum(stats["set"] for stats in pitch_results) > 0

    # The operator gets the season, its token, the links and the logins.
    base = "http://127.0.0.1:8000"
    assert f"season id:   {current.pk}" in output
    assert current.view_token in output
    assert f"{base}/en/circles/{circle.pk}/seasons/{current.pk}/" in output
    assert f"{base}/en/standings/{current.view_token}/" in output
    password = re.search(r"owner:\s+demo / (\S+)", output)
    assert password is not None
    user = authenticate(username="demo", password=password.group(1))
    assert user is not None
    assert circle.memberships.get(user=user).is_owner
    member = re.search(r"member:\s+(\S+) / (\S+)", output)
    assert member is not None
    assert authenticate(username=member.group(1), password=member.group(2)) is not None

    # A second run refuses and changes nothing.
    before = snapshot()
    with pytest.raises(CommandError, match="--force"):
        run()
    assert snapshot() == before


def test_demo_is_reproducible_and_force_adds_a_second_circle():
    small = ("--series", "2", "--games", "1", "--previous", "0", "--base-url", "https://ex.org/")
    output = run(*small)
    again = run(*small, "--force")

    first, second = Circle.objects.order_by("pk")
    assert first.name == second.name

    def deals(circle: Circle) -> list[tuple[str, list[dict]]]:
        return [
            (link.sheet.game, [h.entry for h in link.sheet.hands.order_by("number")])
            for link in CircleSheet.objects.filter(circle=circle)
            .select_related("sheet")
            .order_by("sheet_id")
        ]

    assert deals(first) == deals(second)
    assert "https://ex.org/en/standings/" in output
    # The first run's accounts are left alone; the second gets its own.
    assert re.search(r"owner:\s+demo2 / ", again)
    assert get_user_model().objects.count() == 4


def test_demo_refuses_a_database_with_a_sheet_in_it():
    from games import services

    services.sheet_create(game="pitch", players=["A", "B", "C", "D"])
    with pytest.raises(CommandError, match="not empty"):
        run()
    assert not Circle.objects.exists()
