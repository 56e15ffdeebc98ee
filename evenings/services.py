"""Every write to an evening: typed, keyword-only, all or nothing.

Each function checks its input with the pure rules of ``evenings.rules`` and raises
``RuleError`` (a message a player understands, nothing changed) or writes in one
transaction. Each table is an ordinary sheet made by ``games.services`` (or, in a
circle, by ``circles.services`` so that its season counts it).

Lock order (scorekeeper/db.py): a write locks the evening's row first
(``evenings.locking.locked``), then the sheets of the tables it changes (in pk order),
then the tables' rows and seats, which a deal write at a table writes after locking its
sheet (``evenings.receivers``). A transaction the database aborted for a deadlock is run
again whole (``retry_on_conflict``): each write reads what it changes inside it.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from circles import services as circle_services
from circles.models import Circle, CircleSheet, SeatPlayer
from circles.results import replay_results
from circles.rules.contributions import TALLY_MOST
from evenings import accounts, selectors
from evenings.locking import bump as _bump
from evenings.locking import locked as _locked
from evenings.models import Evening, EveningChange, EveningPlayer, EveningTable, Series, TableSeat
from evenings.rules import money as money_rules
from evenings.rules import movement as movement_rules
from evenings.rules import pitch_night, seating
from evenings.rules import ranking as ranking_rules
from games import services as sheet_services
from games.models import Sheet
from games.rules.errors import Problem, RuleError
from games.rules.pitch import PitchOptions
from scorekeeper.db import lock_in_order, retry_on_conflict

NAME_LENGTH = 40
# Pitch rounds of a number of hands or of minutes.
MOST_HANDS = 60
MINUTES_RANGE = (5, 300)
# A Pitch sheet's teams as the movement numbers them (seats 1 and 3 are team A).
PITCH_TEAMS = {"A": 0, "B": 1}
MOST_SERIES = 20


def _whole_in(
    value: object, low: int, high: int, field: str, problems: list[Problem]
) -> int | None:
    """``value`` as a whole number from ``low`` to ``high`` (a digit string too), or a
    problem said for ``field``."""
    if isinstance(value, str) and value.strip().isdigit() and len(value.strip()) < 6:
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        problems.append(
            Problem(
                field,
                _("Give a whole number from %(low)s to %(high)s.") % {"low": low, "high": high},
            )
        )
        return None
    return value


def _tidy(value: object) -> str:
    return sheet_services.tidy_name(value)


def evening_create(
    *,
    name: object,
    played_on: object,
    game: object = "skat",
    series_count: object = 3,
    series_deals: Mapping[Any, Any] | None = None,
    table_order: object = "fours_first",
    sit_out: bool = False,
    movement: object = "lot",
    counts: object = "points",
    round_format: object = "target",
    pitch_options: Mapping[str, Any] | None = None,
    round_hands: object = None,
    round_minutes: object = None,
    circle: Circle | None = None,
    by: Any = None,
    money: Mapping[str, Any] | None = None,
) -> Evening:
    """A new evening (no roll yet), with its money rules if given (in a circle, the
    circle's usual ones when none are given). A Pitch night also says how its players
    move between rounds and what their totals count. ``RuleError`` with every problem."""
    problems: list[Problem] = []
    kept: dict[str, Any] = {}
    if money is None and circle is not None:
        kept = accounts.circle_rules(circle)
    elif money:
        try:
            kept = money_rules.read_rules(money).as_dict()
        except RuleError as error:
            problems.extend(error.problems)
    title = _tidy(name)
    if not title:
        problems.append(Problem("name", _("Give the evening a name.")))
    elif len(title) > 80:
        problems.append(Problem("name", _("An evening's name has at most 80 characters.")))
    if game not in seating.GAMES:
        problems.append(Problem("game", _("An evening plays Skat or 10-Point Pitch.")))
    if isinstance(series_count, bool) or not isinstance(series_count, int):
        problems.append(Problem("series", _("The number of series is a whole number.")))
    elif not 1 <= series_count <= MOST_SERIES:
        problems.append(
            Problem(
                "series",
                _("An evening has 1 to %(most)s series.") % {"most": MOST_SERIES},
            )
        )
    if table_order not in seating.TABLE_ORDERS:
        problems.append(Problem("tables", _("Choose the order of the tables.")))
    if movement not in (Evening.LOT, *movement_rules.MOVEMENTS):
        problems.append(
            Problem(
                "movement",
                _(
                    "Choose how the players move between rounds: drawn for each round, "
                    "progressive or the rotation."
                ),
            )
        )
    elif movement != Evening.LOT and game != "pitch":
        problems.append(
            Problem(
                "movement",
                _("Only a Pitch night moves its players progressively or by the rotation."),
            )
        )
    if counts not in pitch_night.MODES:
        problems.append(
            Problem("counts", _("Choose what a player's total counts: points or match points."))
        )
    elif counts != Evening.POINTS and game != "pitch":
        problems.append(Problem("counts", _("Match points are counted at a Pitch night only.")))
    hands = minutes = None
    if round_format not in (Evening.TO_TARGET, Evening.HANDS, Evening.MINUTES):
        problems.append(
            Problem(
                "round_format",
                _(
                    "Choose when a round ends: at the target, after a number of hands, "
                    "or in minutes."
                ),
            )
        )
    elif round_format != Evening.TO_TARGET and game != "pitch":
        problems.append(
            Problem(
                "round_format",
                _("Rounds of hands or minutes are played at a Pitch night only."),
            )
        )
    elif round_format == Evening.HANDS:
        hands = _whole_in(round_hands, 1, MOST_HANDS, "round_hands", problems)
    elif round_format == Evening.MINUTES:
        low, high = MINUTES_RANGE
        minutes = _whole_in(round_minutes, low, high, "round_minutes", problems)
    house: dict[str, Any] = {}
    if pitch_options and game == "pitch":
        try:
            PitchOptions.from_mapping(
                {k: v for k, v in pitch_options.items() if k != "hands"}
                if isinstance(pitch_options, Mapping)
                else pitch_options,
                field="options",
            )
        except RuleError as error:
            problems.extend(error.problems)
        else:
            house = dict(pitch_options)
        if isinstance(pitch_options, Mapping) and "hands" in pitch_options:
            # The round format says how long a table plays: one place, not two.
            problems.append(
                Problem(
                    "options.hands",
                    _(
                        "A night's rounds of a number of hands are chosen by the round "
                        'format (round_format "hands" and round_hands), not by a sheet '
                        "option."
                    ),
                )
            )
    deals = seating.SeriesDeals()
    try:
        deals = seating.SeriesDeals.from_mapping(series_deals)
    except RuleError as error:
        problems.extend(error.problems)
    day = played_on
    if isinstance(played_on, str):
        try:
            day = datetime.date.fromisoformat(played_on)
        except ValueError:
            day = None
    if not isinstance(day, datetime.date):
        problems.append(Problem("date", _("Give the evening's date as YYYY-MM-DD.")))
    if problems:
        raise RuleError(problems)
    return Evening.objects.create(
        name=title,
        played_on=day,
        game=game,
        series_count=series_count,
        series_deals=deals.as_dict(),
        table_order=table_order,
        sit_out=bool(sit_out) and game == "pitch",
        movement=movement,
        counts=counts,
        round_format=round_format,
        pitch_options=house,
        round_hands=hands,
        round_minutes=minutes,
        circle=circle,
        created_by=by if getattr(by, "is_authenticated", False) else None,
        money=kept,
    )


@retry_on_conflict
def players_add(
    *,
    evening: Evening,
    names: Iterable[object] = (),
    circle_players: Iterable[object] = (),
    team: object = "",
    tags: object = (),
    expected_version: int | None = None,
) -> list[EveningPlayer]:
    """Add names typed at the door (and, in a circle, the circle's players by id) to the
    roll, with a team and categories if given. A name already on it is refused; a player
    who left comes back."""
    wanted: list[tuple[str, Any]] = []
    problems: list[Problem] = []
    team_name = _team(team, problems)
    tidy_tags = _tags(tags, problems)
    for i, raw in enumerate(names):
        name = _tidy(raw)
        if not name:
            problems.append(Problem(f"names.{i}", _("Type the player's name.")))
        elif len(name) > NAME_LENGTH:
            problems.append(
                Problem(
                    f"names.{i}",
                    _("A name has at most %(most)s characters.") % {"most": NAME_LENGTH},
                )
            )
        elif problem := sheet_services.name_character_problem(f"names.{i}", name):
            problems.append(problem)
        else:
            wanted.append((name, None))
    ids = list(circle_players)
    if ids:
        if evening.circle_id is None:
            problems.append(Problem("players", _("This evening is not kept in a circle.")))
        else:
            known = {p.pk: p for p in evening.circle.players.filter(pk__in=ids, erased=False)}
            for i, pk in enumerate(ids):
                if pk not in known:
                    problems.append(
                        Problem(f"players.{i}", _("No player of the circle has that number."))
                    )
                else:
                    wanted.append((known[pk].name, known[pk]))
    with transaction.atomic():
        evening = _locked(evening, expected_version)
        roll = {p.name.casefold(): p for p in evening.players.all()}
        seen: set[str] = set()
        added: list[EveningPlayer] = []
        for name, circle_player in wanted:
            key = name.casefold()
            if key in seen:
                problems.append(Problem("names", _("%(name)s is given twice.") % {"name": name}))
                continue
            seen.add(key)
            present = roll.get(key)
            if present is not None and not present.left:
                problems.append(
                    Problem("names", _("%(name)s is on the roll already.") % {"name": name})
                )
            elif present is not None:
                # Back on the roll, with the team and categories typed with the name
                # (none typed: the ones they had).
                present.left = False
                if team_name:
                    present.team = team_name
                if tidy_tags:
                    present.tags = tidy_tags
                added.append(present)
            else:
                added.append(
                    EveningPlayer(
                        evening=evening,
                        name=name,
                        circle_player=circle_player,
                        team=team_name,
                        tags=tidy_tags,
                    )
                )
        if problems:
            raise RuleError(problems)
        if not added:
            raise RuleError(_("Type the player's name."), "names")
        for player in added:
            player.save()
        _bump(evening)
    return added


def _team(value: object, problems: list[Problem]) -> str:
    """A team's name as typed, tidy ("" for none): checked as a name is."""
    name = _tidy(value)
    if len(name) > NAME_LENGTH:
        problems.append(
            Problem(
                "team",
                _("A team's name has at most %(most)s characters.") % {"most": NAME_LENGTH},
            )
        )
    elif name and (problem := sheet_services.name_character_problem("team", name)):
        problems.append(problem)
    return name


TAG_LENGTH = 30
MOST_TAGS = 5


def _tags(value: object, problems: list[Problem]) -> list[str]:
    """Categories typed as "women, seniors" (or given as a list): tidy, each once."""
    raw = value.split(",") if isinstance(value, str) else value
    if not isinstance(raw, (list, tuple)):
        problems.append(Problem("tags", _("Categories are words separated by commas.")))
        return []
    tags: list[str] = []
    for item in raw:
        tag = _tidy(item)
        if not tag:
            continue
        if len(tag) > TAG_LENGTH:
            problems.append(
                Problem(
                    "tags",
                    _("A category has at most %(most)s characters.") % {"most": TAG_LENGTH},
                )
            )
        elif problem := sheet_services.name_character_problem("tags", tag):
            problems.append(problem)
        elif tag.casefold() not in (t.casefold() for t in tags):
            tags.append(tag)
    if len(tags) > MOST_TAGS:
        problems.append(
            Problem("tags", _("A player has at most %(most)s categories.") % {"most": MOST_TAGS})
        )
    return tags


@retry_on_conflict
def player_update(
    *,
    evening: Evening,
    player: EveningPlayer,
    team: object = "",
    tags: object = (),
    expected_version: int | None = None,
) -> EveningPlayer:
    """A player's team (a team of four or a tandem of two, by name; "" for none) and
    categories (women, juniors, seniors …), each of which gets its own list."""
    problems: list[Problem] = []
    name = _team(team, problems)
    tidy_tags = _tags(tags, problems)
    if problems:
        raise RuleError(problems)
    with transaction.atomic():
        evening = _locked(evening, expected_version)
        player = EveningPlayer.objects.select_for_update().get(pk=player.pk, evening=evening)
        player.team = name
        player.tags = tidy_tags
        player.save(update_fields=["team", "tags"])
        _bump(evening)
    return player


@retry_on_conflict
def player_leave(
    *, evening: Evening, player: EveningPlayer, expected_version: int | None = None
) -> EveningPlayer:
    """Take a player off the roll between series (their results stay)."""
    with transaction.atomic():
        evening = _locked(evening, expected_version)
        open_series = selectors.open_series(evening)
        if (
            open_series is not None
            and TableSeat.objects.filter(
                table__series=open_series, table__done=False, player=player
            ).exists()
        ):
            raise RuleError(
                _(
                    "%(name)s plays in series %(series)s; a player leaves between series, "
                    "once their table is done."
                )
                % {"name": player.name, "series": open_series.number}
            )
        player.left = True
        player.save(update_fields=["left"])
        _bump(evening)
    return player


def _sheet_options(evening: Evening, size: int) -> dict[str, Any] | None:
    if evening.game == "skat":
        return {
            "series_deals": seating.SeriesDeals.from_mapping(evening.series_deals).for_table(size)
        }
    # Pitch: the night's house rules, the same at every table (a round to the target
    # ends there; in a round of hands or minutes a table reaching it ends early). A
    # round of hands is a game of that many hands on the sheet: it ends, and the
    # circle's season counts it, as the sheet's own game (a round of minutes gets its
    # number of hands when time is called: round_call_time).
    options = dict(evening.pitch_options)
    if evening.round_format == Evening.HANDS and evening.round_hands:
        options["hands"] = evening.round_hands
    return options or None


def _new_sheet(evening: Evening, names: list[str], first_dealer: int, size: int) -> Any:
    options = _sheet_options(evening, size)
    if evening.circle_id is not None:
        return circle_services.sheet_create_in_circle(
            circle=evening.circle,
            game=evening.game,
            players=names,
            first_dealer=first_dealer,
            options=options,
            played_on=evening.played_on,
        )
    return sheet_services.sheet_create(
        game=evening.game,
        players=names,
        first_dealer=first_dealer,
        options=options,
        played_on=evening.played_on,
    )


@retry_on_conflict
def series_draw(
    *,
    evening: Evening,
    method: object = "lot",
    seed: object = None,
    keep_apart: bool = False,
    expected_version: int | None = None,
) -> Series:
    """Draw the next series and open a sheet per table. Refused while a series is still
    being played, when every series is drawn, and for a roll that cannot be seated."""
    with transaction.atomic():
        evening = _locked(evening, expected_version)
        last = evening.series.order_by("-number").first()
        if last is not None and not last.closed:
            tables = list(last.tables.all())
            if not all(t.done for t in tables) and evening.game == "pitch":
                left = sum(not t.done for t in tables)
                raise RuleError(
                    ngettext(
                        "Round %(round)s is still being played: %(n)s table is not done. "
                        "The next round is seated when every table is done.",
                        "Round %(round)s is still being played: %(n)s tables are not done. "
                        "The next round is seated when every table is done.",
                        left,
                    )
                    % {"round": last.number, "n": left},
                    "draw",
                )
            if not all(t.done for t in tables):
                left = sum(not t.done for t in tables)
                raise RuleError(
                    ngettext(
                        "Series %(series)s is still being played: %(n)s table is not done. "
                        "The next series is drawn when every table is done.",
                        "Series %(series)s is still being played: %(n)s tables are not done. "
                        "The next series is drawn when every table is done.",
                        left,
                    )
                    % {"series": last.number, "n": left},
                    "draw",
                )
            last.closed = True
            last.save(update_fields=["closed"])
        if evening.played_on > timezone.localdate() + datetime.timedelta(days=1):
            raise RuleError(
                _("This evening is on %(day)s; its series are drawn on that day.")
                % {"day": date_format(evening.played_on, "DATE_FORMAT")},
                "draw",
            )
        if accounts.rules_of(evening).draw_after_paying:
            unpaid = accounts.unpaid_names(evening)
            if unpaid:
                raise RuleError(
                    _("The draw waits until everyone has paid: %(names)s not yet.")
                    % {"names": ", ".join(unpaid)},
                    "draw",
                )
        number = 1 if last is None else last.number + 1
        if number > evening.series_count:
            raise RuleError(
                ngettext(
                    "This evening has %(n)s series, and it has been drawn.",
                    "This evening has %(n)s series, and every one has been drawn.",
                    evening.series_count,
                )
                % {"n": evening.series_count},
                "draw",
            )
        roll = [p for p in evening.players.all() if not p.left]
        names = {p.pk: p.name for p in roll}
        ranking_order: Sequence[int] = ()
        if method == "seeded":
            ranking_order = selectors.evening_ranking(evening).order
        apart = None
        if keep_apart and last is not None:
            apart = [
                [s.player_id for s in t.seats.all()] for t in last.tables.prefetch_related("seats")
            ]
        if isinstance(seed, str) and seed.strip().isascii() and seed.strip().isdigit():
            # A seed is at most SEED_LIMIT; a longer text is left for the rules to refuse.
            seed = int(seed.strip()) if len(seed.strip()) <= 12 else seed
        moving = evening.game == "pitch" and evening.movement != Evening.LOT
        if moving and (method != "lot" or keep_apart):
            raise RuleError(
                _(
                    "This night seats its rounds by its movement: only the first round "
                    "is drawn, by lot."
                ),
                "draw",
            )
        if moving:
            if number == 1 and seed is None:
                seed = seating.new_seed()
            draw = _moved_round(evening, number, [p.pk for p in roll], names, seed)
        else:
            draw = seating.draw_series(
                [p.pk for p in roll],
                series=number,
                game=evening.game,
                method=method,  # type: ignore[arg-type]
                seed=seed if method == "lot" else None,  # type: ignore[arg-type]
                order=evening.table_order,
                ranking=[p for p in ranking_order if p in names],
                keep_apart=apart,
                sit_out=evening.sit_out,
                sat_out=_sat_out(evening),
                names=names,
            )
        # What is stored is a legal seating: every table a size the game plays at, no
        # player at two tables.
        seating.check_tables([t.players for t in draw.tables], game=evening.game, names=names)
        series = Series.objects.create(
            evening=evening,
            number=number,
            method=draw.method,
            seed=draw.seed,
            keep_apart=draw.keep_apart,
            attempt=draw.attempt,
            sitting_out=list(draw.sitting_out),
        )
        deals = seating.SeriesDeals.from_mapping(evening.series_deals)
        for table in draw.tables:
            sheet = _new_sheet(
                evening, [names[p] for p in table.players], table.first_dealer, table.size
            )
            row = EveningTable.objects.create(
                series=series,
                number=table.number,
                size=table.size,
                sheet=sheet,
                of=deals.for_table(table.size) if evening.game == "skat" else 0,
                # A Pitch round of a number of hands ends after them at every table.
                ends_after=evening.round_hands if evening.round_format == Evening.HANDS else None,
            )
            TableSeat.objects.bulk_create(
                TableSeat(table=row, position=i, player_id=p) for i, p in enumerate(table.players)
            )
        _bump(evening)
    return series


def _round_of(series: Series) -> movement_rules.Round:
    """A drawn round of a Pitch night as the movement reads it: each table's seats in
    order, partners across (seats 1 and 3 against 2 and 4, as the sheet's teams A and B)."""
    tables = [
        movement_rules.RoundTable.in_seat_order(
            table.number, [seat.player_id for seat in table.seats.all()]
        )
        for table in series.tables.all()
    ]
    return movement_rules.Round(series.number, tuple(tables), tuple(series.sitting_out))


def _as_draw(evening: Evening, round_: movement_rules.Round, seed: int | None) -> seating.Draw:
    return seating.Draw(
        series=round_.number,
        game=evening.game,
        method=evening.movement,
        order=evening.table_order,
        seed=seed,
        tables=tuple(
            seating.Table(table.number, movement_rules.TABLE_SIZE, table.seats)
            for table in round_.tables
        ),
        sitting_out=round_.sitting_out,
        explanation=round_.explanation,
    )


def _same_players(first: movement_rules.Round, roll: list[int], names: Mapping[int, str]) -> None:
    """The rotation's schedule is for the players of its round 1: refused, naming them,
    when some have left the roll or others joined it since."""
    players = set(first.present)
    gone = sorted(p for p in players if p not in roll)
    new = [p for p in roll if p not in players]
    if not gone and not new:
        return
    everyone = dict(names)
    everyone.update(EveningPlayer.objects.filter(pk__in=gone).values_list("pk", "name"))
    problems = []
    if gone:
        problems.append(
            Problem(
                "players",
                _(
                    "The rotation seats the players of round 1 every round: %(names)s "
                    "left. Bring them back on the roll for this night."
                )
                % {"names": ", ".join(everyone[p] for p in gone)},
            )
        )
    if new:
        problems.append(
            Problem(
                "players",
                _(
                    "The rotation seats the players of round 1 every round: %(names)s "
                    "joined after it. Take them off the roll for this night."
                )
                % {"names": ", ".join(everyone[p] for p in new)},
            )
        )
    raise RuleError(problems)


def _moved_round(
    evening: Evening, number: int, roll: list[int], names: Mapping[int, str], seed: object
) -> seating.Draw:
    """Round ``number`` of a Pitch night seated by its movement (issue 21): round 1 by
    lot, then the progressive movement from the last round's winners, or the rotation's
    schedule for the players of round 1."""
    rounds = [
        _round_of(series)
        for series in evening.series.filter(number__lt=number).prefetch_related("tables__seats")
    ]
    if evening.movement == Evening.ROTATION and number > 1:
        _same_players(rounds[0], roll, names)
    # A roll that does not fill tables of four: refused as for a drawn round, naming
    # how many players are missing or over, unless the night lets them sit out.
    seating.table_sizes(len(roll), game="pitch", sit_out=evening.sit_out)
    if evening.movement == Evening.PROGRESSIVE:
        if number == 1:
            return _as_draw(evening, movement_rules.first_round(roll, seed, names=names), seed)  # type: ignore[arg-type]
        previous = rounds[-1]
        tables = {
            t.number: t.winning_team for t in evening.series.get(number=number - 1).tables.all()
        }
        missing = sorted(t for t, team in tables.items() if team is None)
        if missing:
            raise RuleError(
                ngettext(
                    "Table %(tables)s has no winner of round %(round)s yet; the next round "
                    "is seated from every table's winners.",
                    "Tables %(tables)s have no winners of round %(round)s yet; the next "
                    "round is seated from every table's winners.",
                    len(missing),
                )
                % {"tables": ", ".join(str(t) for t in missing), "round": previous.number},
                "draw",
            )
        moved = movement_rules.next_progressive_round(
            previous,
            tables,
            history=rounds,
            roll=roll,
            names=names,  # type: ignore[arg-type]
        )
        return _as_draw(evening, moved, None)
    # The rotation: the schedule of the players of round 1, placed by its seed.
    if number == 1:
        schedule = movement_rules.rotation_schedule(roll, seed=seed, names=names)  # type: ignore[arg-type]
        if evening.series_count > len(schedule):
            evening.series_count = len(schedule)
            evening.save(update_fields=["series_count"])
        return _as_draw(evening, schedule[0], seed)  # type: ignore[arg-type]
    first = evening.series.get(number=1)
    players = sorted(rounds[0].present)
    schedule = movement_rules.rotation_schedule(players, seed=first.seed, names=names)
    return _as_draw(evening, schedule[number - 1], first.seed)


def _sat_out(evening: Evening) -> dict[int, int]:
    """How often each player sat a series out so far (Pitch, in turn)."""
    counts: dict[int, int] = {}
    for out in evening.series.values_list("sitting_out", flat=True):
        for player in out:
            counts[player] = counts.get(player, 0) + 1
    return counts


def _draw_of(series: Series) -> seating.Draw:
    tables = tuple(
        seating.Table(t.number, t.size, tuple(s.player_id for s in t.seats.all()))
        for t in series.tables.prefetch_related("seats")
    )
    return seating.Draw(
        series=series.number,
        game=series.evening.game,
        method=series.method,
        order=series.evening.table_order,
        seed=series.seed,
        tables=tables,
        sitting_out=tuple(series.sitting_out),
    )


def _started(series: Series) -> bool:
    return series.tables.filter(deals__gt=0).exists() or series.tables.filter(paper=True).exists()


@retry_on_conflict
def series_swap(
    *,
    series: Series,
    first: object,
    second: object,
    number: object = None,
    expected_version: int | None = None,
) -> Series:
    """Swap two players of a series before it starts; the swap is recorded."""
    with transaction.atomic():
        evening = _locked(series.evening, expected_version)
        series = Series.objects.select_for_update().get(pk=series.pk)
        series.evening = evening
        # The tables' sheets before their seats: a deal write locks its sheet, then
        # writes its table's seats (evenings.receivers).
        lock_in_order(Sheet.objects.filter(evening_table__series=series))
        names = dict(evening.players.values_list("pk", "name"))
        later = evening.series.filter(number__gt=series.number).exists()
        swapped = seating.swap(
            _draw_of(series),
            first,  # type: ignore[arg-type]
            second,  # type: ignore[arg-type]
            series=number if number is not None else series.number,  # type: ignore[arg-type]
            started=_started(series) or series.closed or later,
            names=names,
        )
        seating.check_tables([t.players for t in swapped.tables], game=evening.game, names=names)
        for table, drawn in zip(
            series.tables.prefetch_related("seats"), swapped.tables, strict=True
        ):
            seats = list(table.seats.all())
            changed = {
                seat.position: drawn.players[seat.position]
                for seat in seats
                if seat.player_id != drawn.players[seat.position]
            }
            if not changed:
                continue
            for seat in seats:
                if seat.position in changed:
                    seat.player_id = changed[seat.position]
                    seat.save(update_fields=["player"])
            sheet_services.seats_rename(
                sheet=table.sheet, names={pos: names[p] for pos, p in changed.items()}
            )
            link = CircleSheet.objects.filter(sheet=table.sheet).first()
            if link is not None:
                for pos, p in changed.items():
                    SeatPlayer.objects.filter(sheet=link, position=pos).update(
                        player=circle_services.player_for_name(link.circle, names[p])
                    )
                replay_results(link, change="renamed")
        series.sitting_out = list(swapped.sitting_out)
        series.swaps = [
            *series.swaps,
            {"first": first, "second": second, "at": timezone.now().isoformat()},
        ]
        series.save(update_fields=["swaps", "sitting_out"])
        _bump(evening)
    return series


def _ranking_places(evening: Evening) -> dict[int, tuple[int, int]]:
    return {row.player: (row.place, row.total) for row in selectors.evening_ranking(evening).rows}


def _note_after_signing(table: EveningTable, before: dict[int, tuple[int, int]]) -> None:
    evening = table.series.evening
    after = _ranking_places(evening)
    names = dict(evening.players.values_list("pk", "name"))
    moves = [
        {
            "player": p,
            "name": names.get(p, ""),
            "before": before.get(p, (0, 0))[1],
            "after": after[p][1],
            "place_before": before.get(p, (0, 0))[0],
            "place_after": after[p][0],
        }
        for p in after
        if after[p] != before.get(p)
    ]
    EveningChange.objects.create(evening=evening, table=table, moves=moves)


def _locked_table(
    table: EveningTable, expected_version: int | None
) -> tuple[Evening, EveningTable]:
    """The evening and the table, locked for a write to the table's result: the
    evening's row first, then the table's sheet (a deal at the table locks its sheet,
    then writes the table's row and seats: evenings.receivers), then the table."""
    evening = _locked(table.series.evening, expected_version)
    lock_in_order(Sheet.objects.filter(evening_table=table.pk))
    table = (
        EveningTable.objects.select_for_update(of=("self",))
        .select_related("series")
        .get(pk=table.pk)
    )
    table.series.evening = evening
    return evening, table


def refuse_deals_on_paper(table: EveningTable) -> None:
    """A table recorded from its paper list takes no deals on its sheet: a table has
    either deals or a paper result (the other way round, table_paper_result)."""
    raise RuleError(
        _(
            "Table %(table)s of series %(series)s was recorded from its paper list; a table "
            "has either deals or a paper result, so its sheet takes no deals."
        )
        % {"table": table.number, "series": table.series.number}
    )


@retry_on_conflict
def table_paper_result(
    *,
    table: EveningTable,
    foot: Sequence[Mapping[str, Any]] | None = None,
    rows: Sequence[Mapping[str, Any]] | None = None,
    expected_version: int | None = None,
) -> EveningTable:
    """A table's series from a paper list: its foot (per player points, won, lost), its
    rows (declarer and the value as written), or both (checked against each other)."""
    with transaction.atomic():
        evening, table = _locked_table(table, expected_version)
        if evening.game != "skat":
            raise RuleError(_("A paper list is typed in for Skat tables."))
        if table.series.closed:
            raise RuleError(
                _("Series %(series)s is closed; its tables do not change any more.")
                % {"series": table.series.number}
            )
        if table.deals and not table.paper:
            raise RuleError(
                _(
                    "Table %(table)s has entered its deals on its sheet; a table has either "
                    "deals or a paper result."
                )
                % {"table": table.number}
            )
        seats = list(table.seats.select_related("player"))
        players = [s.player_id for s in seats]
        names = {s.player_id: s.player.name for s in seats}
        listed = None
        if rows is not None:
            listed = [_listed(i, row) for i, row in enumerate(rows)]
        if foot is None and listed is None:
            raise RuleError(_("Type the list's foot or its rows."))
        if foot is not None:
            lines = [_foot_line(i, line) for i, line in enumerate(foot)]
        else:
            assert listed is not None
            lines = list(ranking_rules.foot_from_rows(players, listed, names=names))
        ranking_rules.check_foot(players, lines, rows=listed, deals=table.of, names=names)
        results = {
            r.player: r
            for r in ranking_rules.table_results(
                series=table.series.number, table=table.number, players=players, foot=lines
            )
        }
        before = _ranking_places(evening) if table.signed_at else None
        for seat in seats:
            r = results[seat.player_id]
            seat.points, seat.won, seat.lost, seat.others_lost = (
                r.points,
                r.won,
                r.lost,
                r.others_lost,
            )
            seat.save(update_fields=["points", "won", "lost", "others_lost"])
        table.paper = True
        table.done = True
        table.deals = sum(r.won + r.lost for r in results.values())
        table.last_entry_at = timezone.now()
        table.save(update_fields=["paper", "done", "deals", "last_entry_at"])
        link = _circle_link(table)
        if link is not None:
            # The circle's season counts the series as its foot says, seat by seat (as
            # a Pitch tally card, table_tally_result).
            ordered = sorted(seats, key=lambda seat: seat.position)
            link.tally = {
                "foot": [
                    {
                        "points": results[seat.player_id].points,
                        "won": results[seat.player_id].won,
                        "lost": results[seat.player_id].lost,
                    }
                    for seat in ordered
                ],
                "series_deals": table.of,
            }
            link.save(update_fields=["tally"])
            replay_results(link, change="tally")
        if before is not None:
            _note_after_signing(table, before)
        _bump(evening)
    return table


def _circle_link(table: EveningTable) -> CircleSheet | None:
    """The circle's link to a table's sheet (in a circle evening), locked for the write."""
    if table.sheet_id is None:
        return None
    return (
        CircleSheet.objects.select_for_update(of=("self",)).filter(sheet_id=table.sheet_id).first()
    )


# A tally card's score, as the circle's season reads it back (circles.rules.contributions).
TALLY_LIMIT = TALLY_MOST


@retry_on_conflict
def table_tally_result(
    *,
    table: EveningTable,
    scores: Sequence[object] | None,
    winner: object = None,
    expected_version: int | None = None,
) -> EveningTable:
    """A Pitch table's round typed from its tally card: the two teams' scores (seats 1
    and 3 first) and, when they are level, which team won (the progressive movement
    needs a winner at every table; otherwise a level round has none)."""
    with transaction.atomic():
        evening, table = _locked_table(table, expected_version)
        if evening.game != "pitch":
            raise RuleError(_("A tally card is typed in for Pitch tables."))
        if table.series.closed:
            raise RuleError(
                _("Round %(round)s is closed; its tables do not change any more.")
                % {"round": table.series.number}
            )
        if table.deals and not table.paper:
            raise RuleError(
                _(
                    "Table %(table)s has entered its hands on its sheet; a table has either "
                    "hands or a tally card."
                )
                % {"table": table.number}
            )
        problems: list[Problem] = []
        if isinstance(scores, (str, bytes)) or not isinstance(scores, Sequence) or len(scores) != 2:
            raise RuleError(_("Type both teams' scores."), "scores")
        checked: list[int] = []
        for index, value in enumerate(scores):
            try:
                number = _int(value, f"scores.{index}")
            except RuleError as error:
                problems.extend(error.problems)
                continue
            if abs(number) > TALLY_LIMIT:
                problems.append(
                    Problem(
                        f"scores.{index}",
                        _("A team's score is a whole number from −%(most)s to %(most)s.")
                        % {"most": TALLY_LIMIT},
                    )
                )
            checked.append(number)
        if problems:
            raise RuleError(problems)
        first, second = checked
        if winner in ("", None):
            winner = None
        elif winner not in (0, 1, "0", "1"):
            raise RuleError(_("The winning team is the first (0) or the second (1)."), "winner")
        else:
            winner = int(winner)  # type: ignore[arg-type]
        if first != second:
            higher = 0 if first > second else 1
            if winner is not None and winner != higher:
                raise RuleError(
                    _(
                        "The team with the higher score won the round; the tally says %(a)s to %(b)s."
                    )
                    % {"a": first, "b": second},
                    "winner",
                )
            winner = higher
        elif winner is None and evening.movement == Evening.PROGRESSIVE:
            raise RuleError(
                _(
                    "The round ended level at %(score)s: say which team won, as the "
                    "progressive movement moves the winners up."
                )
                % {"score": first},
                "winner",
            )
        seats = list(table.seats.all())
        before = _ranking_places(evening) if table.signed_at else None
        for seat in seats:
            seat.points = first if seat.position % 2 == 0 else second
            seat.won = seat.lost = seat.others_lost = 0
        TableSeat.objects.bulk_update(seats, ["points", "won", "lost", "others_lost"])
        table.paper = True
        table.done = True
        table.winning_team = winner
        table.last_entry_at = timezone.now()
        table.save(update_fields=["paper", "done", "winning_team", "last_entry_at"])
        link = _circle_link(table)
        if link is not None:
            # The circle's season counts the round as the game written on the card (team
            # A sits in seats 1 and 3: the first score).
            link.tally = {"teams": {"A": first, "B": second}}
            link.save(update_fields=["tally"])
            replay_results(link, change="tally")
        if before is not None:
            _note_after_signing(table, before)
        _bump(evening)
    return table


@retry_on_conflict
def round_call_time(*, evening: Evening, expected_version: int | None = None) -> Series:
    """The organiser calls time on a Pitch round of minutes: at every table still
    playing, the hand in play is finished and the round ends with it."""
    with transaction.atomic():
        evening = _locked(evening, expected_version)
        series = evening.series.order_by("-number").first()
        if evening.game != "pitch" or evening.round_format != Evening.MINUTES:
            raise RuleError(_("Time is called in a Pitch round of minutes only."))
        if series is None or series.closed:
            raise RuleError(_("No round is being played."))
        if series.time_called_at is not None:
            raise RuleError(
                _("Time was called on round %(round)s at %(time)s.")
                % {
                    "round": series.number,
                    "time": time_format(timezone.localtime(series.time_called_at), "TIME_FORMAT"),
                }
            )
        # The tables' sheets first (a deal at a table locks its sheet, then its row).
        lock_in_order(Sheet.objects.filter(evening_table__series=series))
        tables = list(series.tables.select_for_update(of=("self",)).order_by("number"))
        for table in tables:
            if not table.done:
                table.ends_after = table.deals + 1
                table.save(update_fields=["ends_after"])
                if (
                    table.sheet_id is not None
                    and not table.paper
                    and table.sheet.deleted_at is None
                ):
                    # The sheet's game ends with the hand in play (its own rules decide
                    # it then, and the circle's season counts it as a finished game). A
                    # sheet in the trash is not changed: its table is ended by the
                    # organiser or by its tally card.
                    sheet_services.sheet_end_after(sheet=table.sheet, hands=table.ends_after)
        series.time_called_at = timezone.now()
        series.save(update_fields=["time_called_at"])
        _bump(evening)
    return series


@retry_on_conflict
def table_end_now(*, table: EveningTable, expected_version: int | None = None) -> EveningTable:
    """Time was called while a Pitch table was between hands: its round ends with the
    hands it has entered (the higher score won; level, the organiser says who)."""
    with transaction.atomic():
        evening, table = _locked_table(table, expected_version)
        if table.series.time_called_at is None or table.ends_after is None:
            raise RuleError(_("A table is ended early only once time is called on its round."))
        if table.done:
            raise RuleError(_("Table %(table)s has finished its round.") % {"table": table.number})
        table.ends_after = table.deals
        table.save(update_fields=["ends_after"])
        if (
            table.deals
            and table.sheet_id is not None
            and not table.paper
            and table.sheet.deleted_at is None
        ):
            # The sheet's game is over with the hands it played (its receiver ends the
            # table's round as a finished game: evenings.receivers).
            sheet_services.sheet_end_after(sheet=table.sheet, hands=table.deals)
            table.refresh_from_db(fields=["done", "winning_team"])
        else:
            seats = list(table.seats.all())
            _pitch_round_end(table, seats, None)
            table.save(update_fields=["done", "winning_team"])
        _bump(evening)
    return table


@retry_on_conflict
def table_level_winner(
    *, table: EveningTable, team: object, expected_version: int | None = None
) -> EveningTable:
    """The organiser says which team won a Pitch round that ended level at a table."""
    with transaction.atomic():
        evening = _locked(table.series.evening, expected_version)
        table = EveningTable.objects.select_for_update(of=("self",)).get(pk=table.pk)
        if team not in (0, 1, "0", "1"):
            raise RuleError(_("The winning team is the first (0) or the second (1)."), "team")
        scores = {seat.position: seat.points for seat in table.seats.all()}
        if not table.done or scores.get(0, 0) != scores.get(1, 0):
            raise RuleError(
                _("Table %(table)s's round did not end level: its scores say who won.")
                % {"table": table.number}
            )
        table.level_winner = int(team)  # type: ignore[arg-type]
        table.winning_team = table.level_winner
        table.save(update_fields=["level_winner", "winning_team"])
        _bump(evening)
    return table


def _int(value: object, field: str) -> int:
    if isinstance(value, bool):
        raise RuleError(_("Give a whole number."), field)
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip().replace("\N{MINUS SIGN}", "-")
        try:
            return int(text)
        except ValueError:
            pass
    raise RuleError(_("Give a whole number."), field)


def _foot_line(i: int, line: Mapping[str, Any]) -> ranking_rules.FootLine:
    return ranking_rules.FootLine(
        player=_int(line.get("player"), f"players.{i}.player"),
        points=_int(line.get("points"), f"players.{i}.points"),
        won=_int(line.get("won"), f"players.{i}.won"),
        lost=_int(line.get("lost"), f"players.{i}.lost"),
    )


def _listed(i: int, row: Mapping[str, Any]) -> ranking_rules.ListedRow:
    return ranking_rules.ListedRow(
        declarer=_int(row.get("declarer"), f"rows.{i}.declarer"),
        value=_int(row.get("value"), f"rows.{i}.value"),
    )


@retry_on_conflict
def table_sign(
    *,
    table: EveningTable,
    player: EveningPlayer | None = None,
    expected_version: int | None = None,
) -> EveningTable:
    """A player of the table signs its series (``player``), or the organiser marks the
    whole table signed (``player`` None). Only a done table is signed."""
    with transaction.atomic():
        evening = _locked(table.series.evening, expected_version)
        # The table's sheet before the table (as in table_paper_result).
        lock_in_order(Sheet.objects.filter(evening_table=table.pk))
        table = EveningTable.objects.select_for_update().get(pk=table.pk)
        if not table.done and evening.game == "pitch":
            raise RuleError(
                _("Table %(table)s has not finished its round; it is signed once it has.")
                % {"table": table.number}
            )
        if not table.done:
            raise RuleError(
                _("Table %(table)s has not finished its series; it is signed once it has.")
                % {"table": table.number}
            )
        seats = table.seats.all()
        if player is not None:
            updated = seats.filter(player=player).update(signed=True)
            if not updated:
                raise RuleError(
                    _("%(name)s does not play at table %(table)s.")
                    % {"name": player.name, "table": table.number}
                )
        else:
            seats.update(signed=True)
        if not seats.filter(signed=False).exists() and table.signed_at is None:
            table.signed_at = timezone.now()
            table.save(update_fields=["signed_at"])
        _bump(evening)
    return table


def table_from_sheet(*, table: EveningTable, sheet: Any, state: Any, change: str) -> None:
    """Take a table's series result from its sheet's state (called from the receiver,
    inside the sheet's write). A table of a closed series changes no more: the sheet's
    write is refused, and rolls back with this."""
    if table.series.closed and change != "started":
        if table.series.evening.game == "pitch":
            raise RuleError(
                _("Round %(round)s is closed; its tables do not change any more.")
                % {"round": table.series.number}
            )
        raise RuleError(
            _("Series %(series)s is closed; its tables do not change any more.")
            % {"series": table.series.number}
        )
    evening = table.series.evening
    seats = list(table.seats.all())
    lost_before = {seat.pk: seat.lost for seat in seats}
    before = _ranking_places(evening) if table.signed_at and change != "started" else None
    if evening.game == "skat":
        standing = state.details.get("seeger_fabian")
        k = ranking_rules.SF_DEFENCE_BONUS[table.size]
        rows = {row.seat: row for row in standing.rows} if standing else {}
        for seat in seats:
            row = rows.get(seat.position)
            if row is None:
                continue
            seat.points = row.list_points
            seat.won = row.games_won
            seat.lost = row.games_lost
            seat.others_lost = row.defence_bonus // k
    else:
        teams = state.details.get("teams", {})
        team_seats = state.details.get("team_seats", {})
        for seat in seats:
            team = next((t for t, ss in team_seats.items() if seat.position in ss), None)
            seat.points = int(teams.get(team, 0)) if team is not None else 0
        count = sheet.deal_count
        if change == "entered" and table.ends_after is not None and count > table.ends_after:
            raise RuleError(
                ngettext(
                    "Round %(round)s ended at this table after %(n)s hand; no hand is "
                    "entered after it.",
                    "Round %(round)s ended at this table after %(n)s hands; no hand is "
                    "entered after them.",
                    table.ends_after,
                )
                % {"round": table.series.number, "n": table.ends_after}
            )
    TableSeat.objects.bulk_update(seats, ["points", "won", "lost", "others_lost"])
    table.deals = sheet.deal_count
    table.done = bool(state.finished)
    if evening.game == "pitch":
        _pitch_round_end(table, seats, state.details.get("winner") if state.finished else None)
    if change in ("entered", "corrected", "removed", "restored"):
        table.last_entry_at = timezone.now()
    table.save(update_fields=["deals", "done", "last_entry_at", "winning_team"])
    if evening.money and change in ("corrected", "removed", "restored"):
        accounts.note_bill_changes(
            evening=evening, table=table, seats=seats, lost_before=lost_before, change=change
        )
    if before is not None and change in ("entered", "corrected", "removed", "restored"):
        _note_after_signing(table, before)


def _pitch_round_end(table: EveningTable, seats: Sequence[TableSeat], winner: object) -> None:
    """Whether a Pitch table's round is over and who won it: its game reached the
    target (the sheet's winner), or the table played the hands its round ends after
    (the higher score won; level, nobody until the organiser says). Team A sits in
    seats 1 and 3: the movement's first team."""
    if winner is not None:
        table.done = True
        table.winning_team = PITCH_TEAMS.get(winner)  # type: ignore[call-overload]
        return
    if table.ends_after is not None and table.deals >= table.ends_after:
        table.done = True
        scores = {seat.position: seat.points for seat in seats}
        first, second = scores.get(0, 0), scores.get(1, 0)
        if first != second:
            table.winning_team = 0 if first > second else 1
        else:
            table.winning_team = table.level_winner  # the organiser's choice, if made
        return
    table.done = False
    table.winning_team = None
