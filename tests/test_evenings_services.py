"""The evening's writes (issue 17): the roll, the draw with a sheet per table, swaps,
paper tables, sign-off, and a table's result following its sheet."""

from __future__ import annotations

import datetime

import pytest

from circles import services as circle_services
from circles.models import CircleSheet, SheetResult
from evenings import selectors, services
from evenings.models import EveningChange, EveningTable, TableSeat
from evenings.rules import seating
from games import services as sheet_services
from games.rules.errors import RuleError

from .circle_setup import circle_with_season

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Frank", "Gabi", "Hans", "Ines", "Jörg", "Karl"]
PASS = {"passed": True}


def evening(**kw):
    data = {"name": "Club night", "played_on": datetime.date.today(), **kw}
    return services.evening_create(**data)


def with_roll(n=11, **kw):
    e = evening(**kw)
    services.players_add(evening=e, names=NAMES[:n])
    return e


def test_an_evening_keeps_its_settings_and_refuses_bad_ones():
    e = evening(series_deals={"3": 27, "4": 32}, series_count=2)
    assert e.series_deals == {"3": 27, "4": 32, "5": 60}
    with pytest.raises(RuleError) as caught:
        evening(name=" ", series_deals={"4": 30}, series_count=0, played_on="someday")
    fields = {p.field for p in caught.value.problems}
    assert {"name", "series_deals.4", "series", "date"} <= fields


def test_the_roll_refuses_a_name_twice_and_takes_a_leaver_back():
    e = with_roll(3)
    with pytest.raises(RuleError, match="on the roll already"):
        services.players_add(evening=e, names=["anna"])
    anna = e.players.get(name="Anna")
    services.player_leave(evening=e, player=anna)
    assert [p.name for p in selectors.evening_view(e).roll] == ["Bernd", "Carla"]
    services.players_add(evening=e, names=["Anna"])
    assert len(selectors.evening_view(e).roll) == 3


def test_a_draw_with_two_players_is_refused_and_changes_nothing():
    # Rule section "evening-tables": a Skat table needs at least 3 players.
    e = with_roll(2)
    with pytest.raises(RuleError, match="at least 3 players"):
        services.series_draw(evening=e, method="lot", seed=1)
    assert not e.series.exists()


def test_a_draw_seats_eleven_at_four_four_three_each_at_its_own_sheet():
    e = with_roll(11)
    series = services.series_draw(evening=e, method="lot", seed=4711)
    tables = list(series.tables.order_by("number"))
    assert [t.size for t in tables] == [4, 4, 3]
    assert [t.of for t in tables] == [48, 48, 36]
    seated = [s.player_id for s in TableSeat.objects.filter(table__series=series)]
    assert sorted(seated) == sorted(e.players.values_list("pk", flat=True))
    # The same seed with the same roll gives the same tables (rule "evening-draw").
    expected = seating.draw_series(sorted(seated), method="lot", seed=4711)
    for table, drawn in zip(tables, expected.tables, strict=True):
        assert [s.player_id for s in table.seats.all()] == list(drawn.players)
        names = [seat.name for seat in table.sheet.seats.order_by("position")]
        assert names == [s.player.name for s in table.seats.all()]
        assert table.sheet.options["series_deals"] == table.of


def test_a_second_draw_while_a_series_is_open_is_refused():
    e = with_roll(6)
    services.series_draw(evening=e, method="lot", seed=1)
    with pytest.raises(RuleError, match="still being played: 2 tables are not done"):
        services.series_draw(evening=e, method="lot", seed=2)
    assert e.series.count() == 1


def play_out(table):
    table.sheet.refresh_from_db()
    for _ in range(table.of - table.sheet.deal_count):
        sheet_services.hand_record(sheet=table.sheet, data=PASS)


def test_a_table_follows_its_sheet_and_the_next_draw_comes_when_all_are_done():
    e = with_roll(6, series_deals={"3": 3})
    series = services.series_draw(evening=e, method="lot", seed=1)
    first, second = series.tables.order_by("number")
    sheet_services.hand_record(sheet=first.sheet, data=PASS)
    first.refresh_from_db()
    assert (first.deals, first.done) == (1, False)
    play_out(first)
    first.refresh_from_db()
    assert first.done
    services.table_paper_result(
        table=second,
        foot=[
            {"player": s.player_id, "points": 0, "won": 0, "lost": 0} for s in second.seats.all()
        ],
    )
    nxt = services.series_draw(evening=e, method="seeded")
    assert nxt.number == 2
    series.refresh_from_db()
    assert series.closed


def test_a_paper_foot_that_does_not_add_up_is_refused_and_changes_nothing():
    e = with_roll(3)
    series = services.series_draw(evening=e, method="lot", seed=1)
    table = series.tables.get()
    a, b, c = [s.player_id for s in table.seats.all()]
    foot = [
        {"player": a, "points": 48, "won": 1, "lost": 0},
        {"player": b, "points": 0, "won": 0, "lost": 0},
        {"player": c, "points": 0, "won": 0, "lost": 0},
    ]
    rows = [{"declarer": a, "value": 24}]
    with pytest.raises(RuleError, match="the rows add up to 24"):
        services.table_paper_result(table=table, foot=foot, rows=rows)
    with pytest.raises(RuleError):
        # 25 is a value no game can have (rule: read_value).
        services.table_paper_result(table=table, rows=[{"declarer": a, "value": 25}])
    table.refresh_from_db()
    assert not table.paper
    assert not table.done
    services.table_paper_result(
        table=table, rows=[{"declarer": a, "value": 48}, {"declarer": b, "value": -96}]
    )
    row = selectors.evening_ranking(e).row_of(a)
    # Seeger-Fabian at three: 48 + 50 × 1 + 40 × 1 (b lost one) = 138.
    assert row.total == 138
    assert row.place == 1


def test_a_swap_before_the_series_starts_moves_the_players_and_their_sheets():
    e = with_roll(7)
    series = services.series_draw(evening=e, method="lot", seed=3)
    one, two = series.tables.order_by("number")
    a = one.seats.get(position=0).player
    b = two.seats.get(position=1).player
    services.series_swap(series=series, first=a.pk, second=b.pk)
    assert one.seats.get(position=0).player == b
    assert two.sheet.seats.get(position=1).name == a.name
    series.refresh_from_db()
    assert series.swaps[0]["first"] == a.pk
    sheet_services.hand_record(sheet=one.sheet, data=PASS)
    with pytest.raises(RuleError, match="has started"):
        services.series_swap(series=series, first=a.pk, second=b.pk)
    with pytest.raises(RuleError, match="within one series"):
        services.series_swap(series=series, first=a.pk, second=b.pk, number=2)


def test_signing_and_a_change_after_signing_is_recorded():
    e = with_roll(3, series_deals={"3": 3})
    series = services.series_draw(evening=e, method="lot", seed=1)
    table = series.tables.get()
    with pytest.raises(RuleError, match="has not finished"):
        services.table_sign(table=table)
    play_out(table)
    table.refresh_from_db()
    for seat in table.seats.all():
        services.table_sign(table=table, player=seat.player)
    table.refresh_from_db()
    assert table.signed_at is not None
    declarer = table.sheet.seats.get(position=1)
    sheet_services.hand_correct(
        sheet=table.sheet,
        number=1,
        data={"declarer": 1, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"},
    )
    change = EveningChange.objects.get(evening=e)
    assert change.table == table
    moved = {m["name"]: m for m in change.moves}
    assert moved[declarer.name]["after"] > moved[declarer.name]["before"]


def test_a_circle_evening_makes_circle_sheets_its_season_counts():
    from django.contrib.auth.models import User

    owner = User.objects.create_user("olga", "o@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    e = evening(circle=circle)
    services.players_add(evening=e, names=["Anna", "Bernd"])
    olga = circle.players.get(name="Olga")
    services.players_add(evening=e, circle_players=[olga.pk])
    series = services.series_draw(evening=e, method="lot", seed=9)
    table = series.tables.get()
    link = CircleSheet.objects.get(sheet=table.sheet)
    assert link.circle == circle
    assert link.played_on == e.played_on
    assert SheetResult.objects.filter(sheet=link).count() == 3


def _circle_paper_table():
    """A circle's Skat evening whose one table played on paper, with a season around
    today: (circle, season, table, foot as typed)."""
    owner, circle, season = circle_with_season()
    e = evening(circle=circle, by=owner, series_deals={"3": 3})
    services.players_add(evening=e, names=["Anna", "Bernd", "Carla"])
    table = services.series_draw(evening=e, method="lot", seed=1).tables.get()
    seats = {s.player.name: s.player_id for s in table.seats.select_related("player")}
    foot = [
        {"player": seats["Anna"], "points": 48, "won": 1, "lost": 0},
        {"player": seats["Bernd"], "points": -96, "won": 0, "lost": 1},
        {"player": seats["Carla"], "points": 0, "won": 0, "lost": 0},
    ]
    services.table_paper_result(table=table, foot=foot)
    return circle, season, table, foot


def test_a_paper_table_of_a_circle_evening_counts_for_the_season_by_its_foot():
    """A Skat table that played on paper counts in the circle's season as its foot says
    (Seeger-Fabian: points + 50 × (won − lost) + 40 × games the others lost, at three),
    as a Pitch tally card does; a rebuild from the stored data gives the same, and the
    foot travels with the circle's export. Found by an audit: the season left the
    table out, as if its series had never been played."""
    import json

    from circles.results import rebuild_results
    from circles.selectors import season_standings
    from circles.transfer import export_circle

    circle, season, table, foot = _circle_paper_table()

    def rows() -> dict[str, tuple[int, int, int, int]]:
        standings = season_standings(season)
        return {
            standings.players[row.player].name: (row.sf_total, row.series, row.won, row.lost)
            for row in (*standings.tables["skat"].ranked, *standings.tables["skat"].unranked)
        }

    # Anna 48 + 50 + 40 (Bernd lost one) = 138; Bernd −96 − 50 = −146; Carla 0 + 40.
    assert rows() == {
        "Anna": (138, 1, 1, 0),
        "Bernd": (-146, 1, 0, 1),
        "Carla": (40, 1, 0, 0),
    }
    link = CircleSheet.objects.get(sheet=table.sheet)
    assert link.tally == {
        "foot": [
            {"points": 48, "won": 1, "lost": 0}
            if name == "Anna"
            else {"points": -96, "won": 0, "lost": 1}
            if name == "Bernd"
            else {"points": 0, "won": 0, "lost": 0}
            for name in table.sheet.seats.order_by("position").values_list("name", flat=True)
        ],
        "series_deals": 3,
    }
    before = rows()
    rebuild_results(circle)
    assert rows() == before
    document = json.loads(json.dumps(export_circle(circle)))
    assert [item["tally"] for item in document["sheets"] if "tally" in item] == [link.tally]
    # Corrected on paper, the season follows.
    foot[2]["points"] = 24
    foot[2]["won"] = 1
    foot[0]["points"] = 24
    services.table_paper_result(table=table, foot=foot)
    assert rows()["Carla"] == (24 + 50 + 40, 1, 1, 0)


@pytest.mark.parametrize(
    "tally",
    [
        {"foot": [{"points": 48, "won": 1, "lost": 0}] * 2, "series_deals": 3},
        {"foot": [{"points": "48", "won": 1, "lost": 0}] * 3, "series_deals": 3},
        {"foot": [{"points": 48, "won": True, "lost": 0}] * 3, "series_deals": 3},
        {"foot": [{"points": 48, "won": 2, "lost": 0}] * 3, "series_deals": 3},
        {"foot": [{"points": 10**6, "won": 0, "lost": 0}] * 3, "series_deals": 3},
        {"foot": [{"points": 48, "won": 0, "lost": 0, "extra": 1}] * 3, "series_deals": 3},
        {"foot": [{"points": 48, "won": 0, "lost": 0}] * 3},
        {"teams": {"A": 52, "B": 40}},
        [48, 0, 0],
    ],
)
def test_an_imported_paper_foot_is_checked_like_a_typed_one(tally):
    """Data from a file is checked like a person's input (tests/test_import_hostile.py):
    a Skat series' foot that is not one line of whole numbers per seat, or that has more
    games than the series has deals, refuses the import at its place in the file."""
    from circles.transfer import export_circle, import_circle

    circle, _season, _table, _foot = _circle_paper_table()
    document = export_circle(circle)
    index = next(i for i, item in enumerate(document["sheets"]) if "tally" in item)
    document["sheets"][index]["tally"] = tally
    owner = circle.memberships.get().user
    with pytest.raises(RuleError) as error:
        import_circle(document, accounts={"olga": owner})
    assert error.value.problems[0].field == f"sheets.{index}.tally"


def test_neither_games_nor_circles_imports_evenings():
    import pathlib

    root = pathlib.Path(__file__).resolve().parent.parent
    for app in ("games", "circles"):
        for path in (root / app).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            assert "import evenings" not in text, path
            assert "from evenings" not in text, path


def test_a_player_leaves_between_series_not_while_their_table_plays():
    e = with_roll(4, series_deals={"4": 4})
    series = services.series_draw(evening=e, method="lot", seed=1)
    table = series.tables.get()
    leaver = table.seats.first().player
    with pytest.raises(RuleError, match="leaves between series"):
        services.player_leave(evening=e, player=leaver)
    play_out(table)
    services.player_leave(evening=e, player=leaver)
    leaver.refresh_from_db()
    assert leaver.left
    # Their results stay in the ranking.
    assert selectors.evening_ranking(e).row_of(leaver.pk) is not None


def test_an_evening_set_up_ahead_is_drawn_on_its_day():
    e = evening(played_on=datetime.date.today() + datetime.timedelta(days=7))
    services.players_add(evening=e, names=NAMES[:4])
    with pytest.raises(RuleError, match="its series are drawn on that day"):
        services.series_draw(evening=e, method="lot", seed=1)
    assert not e.series.exists()


def test_a_pitch_evening_seats_fours_and_refuses_a_roll_that_does_not_fill_them():
    # Rule section "evening-tables": Pitch is played at tables of four only.
    e = with_roll(6, game="pitch")
    with pytest.raises(RuleError, match="2 players more, or 2 players fewer"):
        services.series_draw(evening=e, method="lot", seed=1)
    services.players_add(evening=e, names=["Lena", "Max"])
    series = services.series_draw(evening=e, method="lot", seed=1)
    tables = list(series.tables.all())
    assert [t.size for t in tables] == [4, 4]
    assert all(t.sheet.game == "pitch" for t in tables)
    first = tables[0]
    sheet_services.hand_record(
        sheet=first.sheet,
        data={
            "pitcher": 0,
            "bid": 4,
            "points": {
                "ace": "A",
                "jack": "A",
                "off_jack": "A",
                "high_joker": "A",
                "low_joker": "A",
                "ten": "B",
                "two": "B",
                "three": "A",
            },
        },
    )
    first.refresh_from_db()
    assert first.deals == 1
    # Each player scores their team's score at the table (rule "evening-ranking"): team A
    # (seats 1 and 3) ace, jack, off-jack, both jokers and the three (worth 3): 8; team B
    # the ten and the two: 2.
    seat_points = {s.position: s.points for s in first.seats.all()}
    assert seat_points[0] == seat_points[2] == 8
    assert seat_points[1] == seat_points[3] == 2
    with pytest.raises(RuleError, match="Skat tables"):
        services.table_paper_result(table=tables[1], rows=[])


def test_a_paper_foot_with_a_player_from_another_table_is_refused():
    e = with_roll(7)
    series = services.series_draw(evening=e, method="lot", seed=2)
    four, three = series.tables.order_by("number")
    stranger = four.seats.first().player_id
    foot = [{"player": s.player_id, "points": 0, "won": 0, "lost": 0} for s in three.seats.all()]
    foot[0]["player"] = stranger
    with pytest.raises(RuleError, match="does not play at this table"):
        services.table_paper_result(table=three, foot=foot)
    three.refresh_from_db()
    assert not three.paper


def test_a_latecomer_waits_for_the_next_draw_and_cannot_be_swapped_in():
    e = with_roll(6)
    series = services.series_draw(evening=e, method="lot", seed=2)
    (late,) = services.players_add(evening=e, names=["Zoe"])
    seated = series.tables.first().seats.first().player_id
    with pytest.raises(RuleError, match="not in series 1"):
        services.series_swap(series=series, first=seated, second=late.pk)
    assert not TableSeat.objects.filter(player=late).exists()


def test_teams_and_categories_give_their_own_lists():
    # Rule section "evening-teams": tandems add up their members' scores and get one
    # match point for each team they outscore; a category is the ranking of its players.
    e = with_roll(4, series_deals={"4": 4})
    a, b, c, d = e.players.order_by("pk")
    services.player_update(evening=e, player=a, team="North", tags="women, seniors")
    services.player_update(evening=e, player=b, team="North")
    services.player_update(evening=e, player=c, team="South", tags=["women"])
    services.player_update(evening=e, player=d, team="South")
    series = services.series_draw(evening=e, method="lot", seed=1)
    table = series.tables.get()
    foot = {a.pk: 48, b.pk: 0, c.pk: 0, d.pk: 0}
    services.table_paper_result(
        table=table,
        foot=[
            {"player": p, "points": points, "won": int(points > 0), "lost": 0}
            for p, points in foot.items()
        ],
    )
    view = selectors.evening_view(e)
    teams = selectors.team_table(view)
    assert not teams.problems
    assert [(row.team.name, row.place, row.match_points, row.total) for row in teams.rows] == [
        ("North", 1, 1, 98),
        ("South", 2, 0, 0),
    ]
    lists = dict(selectors.categories(view))
    assert [row.player for row in lists["women"].rows] == [a.pk, c.pk]
    assert [row.place for row in lists["women"].rows] == [1, 2]
    assert [row.player for row in lists["seniors"].rows] == [a.pk]


def test_teams_of_mixed_sizes_are_named_as_the_problem_and_bad_tags_are_refused():
    e = with_roll(3)
    a, b, c = e.players.order_by("pk")
    services.player_update(evening=e, player=a, team="North")
    services.player_update(evening=e, player=b, team="North")
    services.player_update(evening=e, player=c, team="South")
    teams = selectors.team_table(selectors.evening_view(e))
    assert teams.problems == ("Teams are all teams of four or all tandems of two.",)
    with pytest.raises(RuleError, match="at most 30 characters"):
        services.player_update(evening=e, player=a, tags="x" * 31)
    a.refresh_from_db()
    assert a.tags == []


def test_pitch_players_over_a_multiple_of_four_sit_out_in_turn():
    # Rule section "evening-tables": with the option, those who sat out least so far sit
    # out (the earliest on the roll among equals), so everyone takes a turn.
    e = with_roll(6, game="pitch", sit_out=True, series_count=3, series_deals=None)
    ids = list(e.players.order_by("pk").values_list("pk", flat=True))
    first = services.series_draw(evening=e, method="lot", seed=1)
    assert first.sitting_out == ids[:2]
    for table in first.tables.all():
        EveningTable.objects.filter(pk=table.pk).update(done=True)
    second = services.series_draw(evening=e, method="lot", seed=2)
    assert second.sitting_out == ids[2:4]
    seated = set(TableSeat.objects.filter(table__series=second).values_list("player", flat=True))
    assert seated == set(ids) - set(ids[2:4])


def test_keep_apart_seats_nobody_with_a_player_of_their_last_table():
    # Rule section "evening-draw": the lot is drawn again until nobody sits with a player
    # from their table of the last series, where the lot allows it (16 players at four
    # tables: it does).
    from itertools import combinations

    e = evening()
    services.players_add(evening=e, names=[f"Player {i}" for i in range(16)])
    first = services.series_draw(evening=e, method="lot", seed=1)
    for table in first.tables.all():
        services.table_paper_result(
            table=table,
            foot=[
                {"player": s.player_id, "points": 0, "won": 0, "lost": 0} for s in table.seats.all()
            ],
        )

    def pairs(series):
        return {
            frozenset(pair)
            for table in series.tables.all()
            for pair in combinations([s.player_id for s in table.seats.all()], 2)
        }

    second = services.series_draw(evening=e, method="lot", seed=1, keep_apart=True)
    assert second.keep_apart
    assert not pairs(first) & pairs(second)
