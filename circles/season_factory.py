"""A season of many finished sheets, built fast: rows are bulk-created, not played.

What each seat contributes (``SheetResult.stats``) is real: a few sheets are played
through the sheet engines with random legal deals (the demo's generators) and
``circles.rules.contributions.seat_stats``; every sheet of the season then reuses one
of them with other players at the table. The standings never replay a deal, so no
``Hand`` rows are needed. The standings benchmark (``bench/bench_standings.py``) and
the query-count tests build their seasons here.
"""

from __future__ import annotations

import datetime
import random
from typing import Any

from django.contrib.auth import get_user_model

from circles import season_totals
from circles.management.commands.demo import manipulation_deal, pitch_deal, skat_deal
from circles.models import (
    Circle,
    CircleSheet,
    Membership,
    Player,
    Season,
    SeatPlayer,
    SheetResult,
    StandingsChange,
)
from circles.rules.contributions import seat_stats
from games.games import GAMES
from games.models import Seat, Sheet
from games.rules.errors import RuleError

NAMES = ("Ana", "Ben", "Cem", "Dora", "Emil", "Fritzi", "Gül", "Hanne")
FIRST_EVENING = datetime.date(2025, 1, 3)
# (game, players, options) of the sheets played for real; each season sheet copies one.
TEMPLATES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("skat", 3, {}),
    ("skat", 4, {"series_deals": 36}),
    ("skat", 3, {"kontra_re": True}),
    ("pitch", 4, {}),
    ("manipulation", 4, {}),
    ("manipulation", 3, {}),
)


def played(rng: random.Random, game: str, players: int, options: dict[str, Any]) -> list[dict]:
    """Play one sheet to its end with random legal deals; each seat's stats."""
    return played_with_deals(rng, game, players, options)[1]


def played_with_deals(
    rng: random.Random, game: str, players: int, options: dict[str, Any]
) -> tuple[list[dict], list[dict]]:
    """Play one sheet to its end with random legal deals: the deals as entered, and
    each seat's stats."""
    entry = GAMES[game]
    read = entry.read_options(options, players=players)
    sheet = entry.new_sheet(names=NAMES[:players], first_dealer=0, options=read)
    entries: list[dict[str, Any]] = []
    state = sheet.state
    while not state.finished:
        if game == "skat":
            data = skat_deal(rng, state.next_deal, players=players, kontra=read.kontra_re)
        elif game == "pitch":
            data = pitch_deal(rng, state.next_deal)
        else:
            data = manipulation_deal(rng, state.next_deal, players=players)
        try:
            sheet.add(entry.read_deal(data, players=players, options=read))
        except RuleError:
            continue
        entries.append(data)
        state = sheet.state
    return entries, [dict(stats) for stats in seat_stats(game, state, entries)]


def templates(seed: int = 7) -> list[tuple[str, dict[str, Any], list[dict]]]:
    rng = random.Random(seed)
    return [
        (game, options, played(rng, game, players, options)) for game, players, options in TEMPLATES
    ]


_TEMPLATES: list[tuple[str, dict[str, Any], list[dict]]] = []


def game_of(index: int) -> str:
    """Mostly Skat, every tenth sheet Pitch and every tenth Manipulation; the first
    three are one of each, so even a small season has every table."""
    if index < 3:
        return ("skat", "pitch", "manipulation")[index]
    return {8: "pitch", 9: "manipulation"}.get(index % 10, "skat")


def build_season(sheets: int, *, seed: int = 1) -> tuple[Season, Any]:
    """A circle of eight players (one a guest) with a season of ``sheets`` finished
    sheets, ten a week, one open sheet and a correction for every tenth sheet (at
    least one); the season and a member's account."""
    if not _TEMPLATES:
        _TEMPLATES.extend(templates())
    rng = random.Random(seed)
    suffix = Circle.objects.count() + 1
    circle, user, players = circle_of_eight(f"Standings {suffix}", f"member{suffix}")
    evenings = max(sheets // 10, 1)
    season = Season.objects.create(
        circle=circle,
        name="Season",
        starts_on=FIRST_EVENING,
        ends_on=FIRST_EVENING + datetime.timedelta(weeks=evenings + 4),
        planned_evenings=evenings + 4,
        skat_rules={"rank_by": "total", "drop_worst": 1, "min_series": 3},
    )
    chosen = []
    for index in range(sheets + 1):
        game = game_of(index)
        options, stats = rng.choice([(o, s) for g, o, s in _TEMPLATES if g == game])
        chosen.append((game, options, stats, rng.sample(players, len(stats))))
    made = Sheet.objects.bulk_create(
        Sheet(
            game=game,
            options=GAMES[game].options_as_dict(GAMES[game].read_options(options, players=None)),
            deal_count=stats[0]["deals"],
            # The last one is tonight's open sheet.
            finished=index < sheets,
        )
        for index, (game, options, stats, _at) in enumerate(chosen)
    )
    Seat.objects.bulk_create(
        Seat(sheet=sheet, position=i, name=player.name)
        for sheet, (_g, _o, _s, at) in zip(made, chosen, strict=True)
        for i, player in enumerate(at)
    )
    links = CircleSheet.objects.bulk_create(
        CircleSheet(
            sheet=sheet,
            circle=circle,
            played_on=FIRST_EVENING + datetime.timedelta(weeks=min(index // 10, evenings - 1)),
        )
        for index, sheet in enumerate(made)
    )
    SeatPlayer.objects.bulk_create(
        SeatPlayer(sheet=link, position=i, player=player)
        for link, (_g, _o, _s, at) in zip(links, chosen, strict=True)
        for i, player in enumerate(at)
    )
    SheetResult.objects.bulk_create(
        SheetResult(
            sheet=link,
            position=i,
            player=player,
            stats={**seat, "finished": link.sheet.finished},
        )
        for link, (_g, _o, stats, at) in zip(links, chosen, strict=True)
        for i, (player, seat) in enumerate(zip(at, stats, strict=True))
    )
    corrections(circle, links[:sheets], [at for *_rest, at in chosen[:sheets]])
    # Kept as the app keeps them after every write (the rows came in by the batch).
    season_totals.rebuild(circle.pk)
    return season, user


def circle_of_eight(name: str, username: str) -> tuple[Circle, Any, list[Player]]:
    """A circle of the eight players of NAMES (Hanne a guest) and a member's account."""
    circle = Circle.objects.create(name=name)
    user = get_user_model().objects.create_user(username=username, password="pw")
    Membership.objects.create(circle=circle, user=user, role=Membership.MEMBER)
    players = Player.objects.bulk_create(
        Player(circle=circle, name=name, name_key=name.casefold(), guest=name == "Hanne")
        for name in NAMES
    )
    return circle, user, players


def corrections(circle: Circle, links: list[CircleSheet], seated: list[list[Player]]) -> None:
    """A correction in the change log of every tenth sheet (``seated``: each sheet's
    players in seat order), as the standings page lists them."""
    StandingsChange.objects.bulk_create(
        StandingsChange(
            circle=circle,
            sheet=link,
            played_on=link.played_on,
            game=link.sheet.game,
            change="corrected",
            number=1,
            moves=[
                {"player": player.pk, "name": player.name, "before": 0, "after": 10}
                for player in at
            ],
        )
        for link, at in list(zip(links, seated, strict=True))[::10]
    )
