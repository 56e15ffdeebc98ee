"""The circles' write services: circles and members, players, sheets kept in a circle,
seasons, and leaving a sheet out of the standings.

Sheets are built with the real services (``games.services`` and
``circles.services.sheet_create_in_circle``), so every number below is the rules'
number; the comment next to each case names the rule it rests on.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model

from circles import services
from circles.models import (
    Circle,
    CircleSheet,
    Membership,
    Player,
    Season,
    SeasonContribution,
    SeatPlayer,
    SheetResult,
    StandingsChange,
)
from circles.selectors import season_standings
from games import services as sheet_services
from games.models import Seat, Sheet
from games.rules.errors import RuleError
from games.selectors import sheet_state

pytestmark = pytest.mark.django_db

DAY = datetime.date(2025, 3, 7)
SEASON = {"name": "Spring", "starts_on": "2025-03-01", "ends_on": "2025-05-31"}

# Skat at three, a series of three deals (option series_deals), Ana deals first.
SKAT_THREE = [
    # Ben: Grand Hand with 2 = 24 × 4 = +96 (ISkO 4.1: base value × levels).
    {
        "declarer": 1,
        "game": "grand",
        "bid": 48,
        "hand": True,
        "matadors": {"with": 2},
        "outcome": "won",
    },
    # Ana: Clubs with 1 = 12 × 2 = 24, lost: −48 (ISkO 5.3: a lost game counts double).
    {"declarer": 0, "game": "clubs", "bid": 18, "matadors": {"with": 1}, "outcome": "lost"},
    {"passed": True},  # thrown in
]
# Seeger-Fabian (DSkV/ISPA): list points ±50 per game won/lost as declarer, +40 to each
# defender at a table of three for every game lost by another declarer.
# Ana −48 − 50 = −98; Ben 96 + 50 + 40 = 186; Cem 0 + 40 = 40.
SKAT_THREE_SF = (-98, 186, 40)

# Manipulation: penalty points, one round each; Cem reaches 205 and the game ends,
# Ana wins with the lowest total, 45 (Manipulation, "End of the game").
MANIPULATION = [
    {"penalties": [0, 35, 60]},
    {"penalties": [45, 0, 10]},
    {"penalties": [0, 150, 135]},
]
MANIPULATION_OPEN = [{"penalties": [0, 35, 60]}]

POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def pitch_deal(pitcher: int, bid: int | str, code: str) -> dict:
    """``code``: who took each point card in POINT_KEYS order, "A" or "B"."""
    return {"pitcher": pitcher, "bid": bid, "points": dict(zip(POINT_KEYS, code, strict=True))}


# Ben (team B) makes 5, then bids moon and takes 7 of 10: a failed moon loses the
# game at once (10-Point Pitch, "Shooting the moon"), so team A (Ana and Cem) wins.
PITCH_FAILED_MOON = [pitch_deal(1, 5, "BBBBBAAA"), pitch_deal(1, "moon", "BBBBBBBA")]


def user(name: str):
    return get_user_model().objects.create_user(name, f"{name}@example.org")


@pytest.fixture
def owner():
    return user("olga")


@pytest.fixture
def circle(owner) -> Circle:
    return services.circle_create(owner=owner, name="Tuesday club", player_name="Olga")


def play(
    circle: Circle,
    game: str,
    names: list[str],
    deals: list[dict],
    *,
    options: dict | None = None,
    on: datetime.date = DAY,
) -> CircleSheet:
    sheet = services.sheet_create_in_circle(
        circle=circle, game=game, players=names, options=options
    )
    for deal in deals:
        sheet_services.hand_record(sheet=sheet, data=deal)
    link = CircleSheet.objects.get(sheet=sheet)
    return services.sheet_set_played_on(link=link, played_on=on)


def skat_three(circle: Circle, names=("Ana", "Ben", "Cem"), **kwargs) -> CircleSheet:
    return play(circle, "skat", list(names), SKAT_THREE, options={"series_deals": 3}, **kwargs)


def fields(error: pytest.ExceptionInfo[RuleError]) -> list[str | None]:
    return [p.field for p in error.value.problems]


def seat_names(link: CircleSheet) -> list[str]:
    return list(Seat.objects.filter(sheet_id=link.pk).values_list("name", flat=True))


def player(circle: Circle, name: str) -> Player:
    return Player.objects.get(circle=circle, name=name)


def skat_row(season: Season, player_id: int):
    table = season_standings(season, include_guests=True).tables["skat"]
    return next(row for row in (*table.ranked, *table.unranked) if row.player == player_id)


# -- circle_create, invite, join --------------------------------------------------------


def test_circle_create_makes_the_creator_its_owner_and_links_their_player(owner):
    circle = services.circle_create(owner=owner, name="  Tuesday   club ", player_name=" Olga ")
    assert circle.name == "Tuesday club"
    membership = Membership.objects.get(circle=circle)
    assert (membership.user, membership.role, membership.is_owner) == (owner, "owner", True)
    olga = Player.objects.get(circle=circle)
    assert (olga.name, olga.name_key, olga.user) == ("Olga", "olga", owner)


def test_circle_create_without_a_player_name_adds_no_player(owner):
    circle = services.circle_create(owner=owner, name="Club")
    assert not circle.players.exists()
    assert circle.memberships.get().role == Membership.OWNER


@pytest.mark.parametrize(
    ("name", "player_name", "expected"),
    [
        ("   ", "", ["name"]),
        ("x" * 61, "", ["name"]),
        ("Club", "y" * 41, ["player_name"]),
    ],
)
def test_circle_create_refuses_bad_names_and_creates_nothing(owner, name, player_name, expected):
    with pytest.raises(RuleError) as error:
        services.circle_create(owner=owner, name=name, player_name=player_name)
    assert fields(error) == expected
    assert not Circle.objects.exists()
    assert not Player.objects.exists()


def test_a_rotated_invite_link_stops_the_old_one_at_once(circle):
    old = circle.invite_token
    new = services.invite_rotate(circle=circle)
    assert new != old
    assert Circle.objects.get(pk=circle.pk).invite_token == new
    with pytest.raises(RuleError):
        services.circle_join(user=user("ben"), token=old)
    assert not Membership.objects.filter(user__username="ben").exists()
    assert services.circle_join(user=user("cem"), token=new) == circle


def test_joining_makes_a_member_once(circle):
    ben = user("ben")
    assert services.circle_join(user=ben, token=circle.invite_token) == circle
    services.circle_join(user=ben, token=circle.invite_token)
    membership = Membership.objects.get(circle=circle, user=ben)
    assert membership.role == Membership.MEMBER
    assert circle.memberships.count() == 2


# -- member_set_role, member_remove ------------------------------------------------------


def test_the_last_owner_cannot_step_down_until_another_owner_is_made(circle, owner):
    mine = Membership.objects.get(circle=circle, user=owner)
    with pytest.raises(RuleError) as error:
        services.member_set_role(membership=mine, role=Membership.MEMBER)
    assert fields(error) == ["role"]
    assert Membership.objects.get(pk=mine.pk).role == Membership.OWNER

    ben = user("ben")
    services.circle_join(user=ben, token=circle.invite_token)
    theirs = Membership.objects.get(circle=circle, user=ben)
    services.member_set_role(membership=theirs, role=Membership.OWNER)
    services.member_set_role(membership=mine, role=Membership.MEMBER)
    assert Membership.objects.get(pk=mine.pk).role == Membership.MEMBER
    assert Membership.objects.get(pk=theirs.pk).role == Membership.OWNER


def test_a_role_is_owner_or_member(circle, owner):
    with pytest.raises(RuleError) as error:
        services.member_set_role(membership=Membership.objects.get(user=owner), role="admin")
    assert fields(error) == ["role"]


def test_the_last_owner_cannot_leave(circle, owner):
    with pytest.raises(RuleError) as error:
        services.member_remove(membership=Membership.objects.get(circle=circle, user=owner))
    assert fields(error) == ["role"]
    assert Membership.objects.filter(circle=circle, user=owner).exists()


def test_a_member_who_leaves_keeps_their_player_unlinked(circle):
    ben = user("ben")
    services.circle_join(user=ben, token=circle.invite_token)
    ben_player = services.player_for_name(circle, "Ben")
    services.player_update(player=ben_player, user=ben)
    skat_three(circle)
    services.member_remove(membership=Membership.objects.get(circle=circle, user=ben))
    assert not Membership.objects.filter(circle=circle, user=ben).exists()
    ben_player.refresh_from_db()
    # The sheets keep the player; only the link to the account goes.
    assert ben_player.user is None
    assert SeatPlayer.objects.filter(player=ben_player).count() == 1


# -- player_for_name ----------------------------------------------------------------------


def test_player_for_name_folds_case_and_spaces_within_a_circle(circle, owner):
    ana = services.player_for_name(circle, "Ana Lee")
    assert services.player_for_name(circle, "  ANA   lee ") == ana
    assert services.player_for_name(circle, "ana lee").name == "Ana Lee"
    assert Player.objects.filter(circle=circle, name_key="ana lee").count() == 1


def test_player_for_name_does_not_reach_into_another_circle(circle, owner):
    other = services.circle_create(owner=owner, name="Other club")
    here = services.player_for_name(circle, "Ana")
    there = services.player_for_name(other, "ana")
    assert here != there
    assert (there.circle, there.name) == (other, "ana")
    assert here.name == "Ana"


# -- player_update ------------------------------------------------------------------------


def test_a_rename_shows_the_new_name_on_every_sheet_of_the_circle(circle):
    skat = skat_three(circle)
    pitch = play(circle, "pitch", ["Ana", "Ben", "Cem", "Dan"], PITCH_FAILED_MOON)
    ben = player(circle, "Ben")
    services.player_update(player=ben, name="  Benjamin  ")
    ben.refresh_from_db()
    assert (ben.name, ben.name_key) == ("Benjamin", "benjamin")
    assert seat_names(skat) == ["Ana", "Benjamin", "Cem"]
    assert seat_names(pitch) == ["Ana", "Benjamin", "Cem", "Dan"]
    # The replayed sheets speak of the new name in every summary and explanation.
    state = sheet_state(Sheet.objects.get(pk=skat.pk))
    assert state.deals[0].summary.startswith("Benjamin: Grand Hand")
    texts = [step.text for deal in state.deals for step in deal.explanation]
    assert any("Benjamin" in text for text in texts)
    assert not any(re.search(r"\bBen\b", text) for text in texts)
    pitch_state = sheet_state(Sheet.objects.get(pk=pitch.pk))
    assert pitch_state.deals[0].summary.startswith("Benjamin bid 5 for team B")
    assert not any(
        re.search(r"\bBen\b", step.text) for deal in pitch_state.deals for step in deal.explanation
    )
    # The seat's player and results are the same player as before.
    assert SheetResult.objects.get(sheet=skat, position=1).player_id == ben.pk


def test_a_rename_to_another_players_name_is_refused(circle):
    skat_three(circle)
    ben = player(circle, "Ben")
    with pytest.raises(RuleError) as error:
        services.player_update(player=ben, name="ANA")
    assert fields(error) == ["name"]
    assert "merge" in error.value.problems[0].message
    assert player(circle, "Ben").pk == ben.pk


def test_a_rename_that_changes_only_the_case_is_allowed(circle):
    link = skat_three(circle, names=("ana", "Ben", "Cem"))
    services.player_update(player=player(circle, "ana"), name="Ana")
    assert seat_names(link) == ["Ana", "Ben", "Cem"]


@pytest.mark.parametrize("name", ["", "   ", "z" * 41])
def test_a_rename_needs_a_name_of_at_most_40_characters(circle, name):
    ana = services.player_for_name(circle, "Ana")
    with pytest.raises(RuleError) as error:
        services.player_update(player=ana, name=name)
    assert fields(error) == ["name"]


def test_a_guest_is_marked_and_unmarked(circle):
    ana = services.player_for_name(circle, "Ana")
    assert services.player_update(player=ana, guest=True).guest is True
    assert Player.objects.get(pk=ana.pk).guest is True
    assert services.player_update(player=ana, guest=False).guest is False


@pytest.mark.parametrize(
    ("name", "shown_as", "public"),
    [
        ("Ana Lee", Player.FULL, "Ana Lee"),
        ("Ana Lee", Player.FIRST, "Ana"),
        ("Ana Lee", Player.INITIALS, "A.L."),
        ("anna maria von berg", Player.FIRST, "anna"),
        ("anna maria von berg", Player.INITIALS, "A.M.V.B."),
        ("Cem", Player.INITIALS, "C."),
        ("Cem", Player.FIRST, "Cem"),
    ],
)
def test_shown_as_decides_the_public_name(circle, name, shown_as, public):
    found = services.player_for_name(circle, name)
    services.player_update(player=found, shown_as=shown_as)
    found.refresh_from_db()
    assert found.shown_as == shown_as
    assert found.public_name() == public
    # Inside the circle the name stays as it is.
    assert found.name == name


def test_shown_as_must_be_one_of_the_three(circle):
    ana = services.player_for_name(circle, "Ana")
    with pytest.raises(RuleError) as error:
        services.player_update(player=ana, shown_as="nickname")
    assert fields(error) == ["shown_as"]
    assert Player.objects.get(pk=ana.pk).shown_as == Player.FULL


def test_a_player_links_to_a_members_account_only(circle, owner):
    ben = user("ben")
    ana = services.player_for_name(circle, "Ana")
    with pytest.raises(RuleError) as error:
        services.player_update(player=ana, user=ben)
    assert fields(error) == ["user"]
    assert Player.objects.get(pk=ana.pk).user is None

    services.circle_join(user=ben, token=circle.invite_token)
    assert services.player_update(player=ana, user=ben).user == ben
    # Olga's account is linked to her player already: not to a second one.
    with pytest.raises(RuleError) as error:
        services.player_update(player=services.player_for_name(circle, "Cem"), user=owner)
    assert fields(error) == ["user"]
    # Unlinking is always allowed.
    assert services.player_update(player=ana, user=None).user is None


def test_player_update_reports_every_problem_at_once(circle):
    ana = services.player_for_name(circle, "Ana")
    with pytest.raises(RuleError) as error:
        services.player_update(player=ana, name="", shown_as="x", user=user("zed"))
    assert fields(error) == ["name", "shown_as", "user"]


# -- player_merge -------------------------------------------------------------------------


def test_a_merge_moves_every_sheet_to_the_kept_player(circle, owner):
    season = services.season_save(circle=circle, data=SEASON)
    first = skat_three(circle, names=("Ana", "Ben", "Cem"))
    second = skat_three(circle, names=("Ana", "Benny", "Cem"), on=DAY + datetime.timedelta(days=7))
    ben, benny = player(circle, "Ben"), player(circle, "Benny")
    services.circle_join(user=(bob := user("bob")), token=circle.invite_token)
    services.player_update(player=benny, user=bob)
    # A correction after the evening left a change that names Benny: the Grand was lost.
    sheet_services.hand_correct(
        sheet=second.sheet, number=1, data={**SKAT_THREE[0], "outcome": "lost"}
    )
    assert StandingsChange.objects.get(sheet=second).moves[1]["player"] == benny.pk
    row_ben, row_benny = skat_row(season, ben.pk), skat_row(season, benny.pk)

    kept = services.player_merge(keep=ben, absorb=benny)

    assert kept == ben
    assert not Player.objects.filter(pk=benny.pk).exists()
    assert SeatPlayer.objects.get(sheet=second, position=1).player_id == ben.pk
    assert SheetResult.objects.get(sheet=second, position=1).player_id == ben.pk
    assert seat_names(second) == ["Ana", "Ben", "Cem"]
    assert seat_names(first) == ["Ana", "Ben", "Cem"]
    # The account of the absorbed player follows, Ben had none.
    assert Player.objects.get(pk=ben.pk).user == bob
    # The change log follows the merged player too.
    assert StandingsChange.objects.get(sheet=second).moves[1]["player"] == ben.pk
    # Seeger-Fabian (DSkV/ISPA): a season's total is the sum of the series played.
    merged = skat_row(season, ben.pk)
    assert merged.series == 2
    assert merged.sf_total == row_ben.sf_total + row_benny.sf_total
    assert merged.won == row_ben.won + row_benny.won
    assert merged.lost == row_ben.lost + row_benny.lost
    assert merged.list_points == row_ben.list_points + row_benny.list_points


def test_a_merge_of_two_people_at_one_table_is_refused(circle):
    link = skat_three(circle)
    ana, ben = player(circle, "Ana"), player(circle, "Ben")
    with pytest.raises(RuleError) as error:
        services.player_merge(keep=ana, absorb=ben)
    assert fields(error) == ["absorb"]
    assert Player.objects.filter(pk=ben.pk).exists()
    assert SeatPlayer.objects.get(sheet=link, position=1).player_id == ben.pk
    assert seat_names(link) == ["Ana", "Ben", "Cem"]


def test_a_merge_needs_two_players_of_one_circle(circle, owner):
    ana = services.player_for_name(circle, "Ana")
    elsewhere = services.player_for_name(services.circle_create(owner=owner, name="Other"), "Ana")
    for keep, absorb in ((ana, ana), (ana, elsewhere)):
        with pytest.raises(RuleError) as error:
            services.player_merge(keep=keep, absorb=absorb)
        assert fields(error) == ["absorb"]


# -- sheet_create_in_circle ---------------------------------------------------------------


def test_a_name_typed_on_a_circle_sheet_is_the_circles_player(circle):
    ana = services.player_for_name(circle, "Ana")
    anonymous = sheet_services.sheet_create(game="manipulation", players=["ana", "ben", "cem"])
    sheet = services.sheet_create_in_circle(
        circle=circle, game="manipulation", players=["ana", " BEN ", "Cem"]
    )
    link = CircleSheet.objects.get(sheet=sheet)
    assert seat_names(link) == ["Ana", "BEN", "Cem"]
    seats = list(SeatPlayer.objects.filter(sheet=link).values_list("player_id", flat=True))
    assert seats[0] == ana.pk
    assert [Player.objects.get(pk=pk).name for pk in seats] == ["Ana", "BEN", "Cem"]
    # Results are there from the start, one per seat, nothing played yet.
    assert [r.stats["deals"] for r in SheetResult.objects.filter(sheet=link)] == [0, 0, 0]
    # An anonymous sheet with the same names is its own: untouched, in no circle.
    assert list(anonymous.seats.values_list("name", flat=True)) == ["ana", "ben", "cem"]
    assert not CircleSheet.objects.filter(sheet=anonymous).exists()
    assert Player.objects.filter(circle=circle).count() == 4  # Olga, Ana, BEN, Cem


def test_a_circle_sheet_with_a_problem_creates_nothing(circle):
    with pytest.raises(RuleError):
        services.sheet_create_in_circle(circle=circle, game="skat", players=["Ana", "ana", "Cem"])
    assert not Sheet.objects.exists()
    assert not CircleSheet.objects.exists()
    assert not Player.objects.filter(name_key="ana").exists()


# -- sheet_move ---------------------------------------------------------------------------


def test_an_anonymous_sheet_moved_into_a_circle_gets_its_players_and_results(circle):
    ana = services.player_for_name(circle, "Ana")
    sheet = sheet_services.sheet_create(
        game="skat", players=["ana", "Ben", "Cem"], options={"series_deals": 3}
    )
    for deal in SKAT_THREE:
        sheet_services.hand_record(sheet=sheet, data=deal)

    link = services.sheet_move(sheet=sheet, circle=circle)

    assert seat_names(link) == ["Ana", "Ben", "Cem"]
    seats = dict(SeatPlayer.objects.filter(sheet=link).values_list("position", "player__name"))
    assert seats == {0: "Ana", 1: "Ben", 2: "Cem"}
    assert SeatPlayer.objects.get(sheet=link, position=0).player_id == ana.pk
    # Computed at once from the deals already on the sheet.
    results = list(SheetResult.objects.filter(sheet=link).order_by("position"))
    assert [r.stats["sf"] for r in results] == list(SKAT_THREE_SF)
    assert all(r.stats["finished"] for r in results)
    assert [r.player.name for r in results] == ["Ana", "Ben", "Cem"]
    # The deals are as they were.
    assert sheet_state(Sheet.objects.get(pk=sheet.pk)).totals == (-48, 96, 0)


def test_a_sheet_cannot_be_moved_twice(circle, owner):
    sheet = sheet_services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"])
    services.sheet_move(sheet=sheet, circle=circle)
    other = services.circle_create(owner=owner, name="Other")
    with pytest.raises(RuleError):
        services.sheet_move(sheet=sheet, circle=other)
    assert CircleSheet.objects.get(sheet=sheet).circle == circle
    assert not other.players.exists()


# -- season_save --------------------------------------------------------------------------


def test_season_save_reads_dates_rules_and_planned_evenings(circle):
    season = services.season_save(
        circle=circle,
        data={
            "name": " Spring  2025 ",
            "starts_on": "2025-03-01",
            "ends_on": datetime.date(2025, 5, 31),
            "planned_evenings": " 12 ",
            "skat_rules": {"rank_by": "average", "min_series": 3},
        },
    )
    season.refresh_from_db()
    assert season.name == "Spring 2025"
    assert (season.starts_on, season.ends_on) == (
        datetime.date(2025, 3, 1),
        datetime.date(2025, 5, 31),
    )
    assert season.planned_evenings == 12
    # Every club rule is stored, the ones not given with their defaults.
    assert season.skat_rules == {
        "rank_by": "average",
        "scale": False,
        "min_series": 3,
        "drop_worst": 0,
        "missed": "ignore",
    }
    changed = services.season_save(
        circle=circle, season=season, data={**SEASON, "planned_evenings": ""}
    )
    assert changed.pk == season.pk
    assert changed.planned_evenings is None
    assert Season.objects.get(pk=season.pk).skat_rules["rank_by"] == "total"


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({**SEASON, "starts_on": "2025-02-30"}, ["starts_on"]),
        ({**SEASON, "ends_on": ""}, ["ends_on"]),
        ({**SEASON, "ends_on": "2025-02-28"}, ["ends_on"]),  # the last day before the first
        ({**SEASON, "name": ""}, ["name"]),
        ({**SEASON, "planned_evenings": "0"}, ["planned_evenings"]),
        ({**SEASON, "planned_evenings": "367"}, ["planned_evenings"]),
        ({**SEASON, "planned_evenings": "twelve"}, ["planned_evenings"]),
        ({**SEASON, "skat_rules": {"rank_by": "best"}}, ["skat_rules.rank_by"]),
        ({**SEASON, "skat_rules": {"min_series": -1}}, ["skat_rules.min_series"]),
        ({**SEASON, "skat_rules": {"drop_worst": True}}, ["skat_rules.drop_worst"]),
        ({**SEASON, "skat_rules": {"rank": "total"}}, ["skat_rules.rank"]),
        ({**SEASON, "skat_rules": "average"}, ["skat_rules"]),
        (
            {"name": "", "starts_on": "x", "ends_on": "y", "skat_rules": {"missed": "one"}},
            ["name", "starts_on", "ends_on", "skat_rules.missed"],
        ),
    ],
)
def test_season_save_reports_each_problem_at_its_field(circle, data, expected):
    with pytest.raises(RuleError) as error:
        services.season_save(circle=circle, data=data)
    assert fields(error) == expected
    assert not Season.objects.exists()


def test_a_misspelt_club_rule_is_named_with_a_suggestion(circle):
    with pytest.raises(RuleError) as error:
        services.season_save(circle=circle, data={**SEASON, "skat_rules": {"drop_wrost": 1}})
    assert 'Did you mean "drop_worst"?' in error.value.problems[0].message


def test_seasons_of_a_circle_cannot_overlap(circle, owner):
    spring = services.season_save(circle=circle, data=SEASON)
    for starts_on, ends_on in (
        ("2025-05-31", "2025-08-31"),  # shares the last day
        ("2025-01-01", "2025-03-01"),  # shares the first day
        ("2025-04-01", "2025-04-30"),  # inside
        ("2025-01-01", "2025-12-31"),  # around
    ):
        with pytest.raises(RuleError) as error:
            services.season_save(
                circle=circle,
                data={"name": "Other", "starts_on": starts_on, "ends_on": ends_on},
            )
        assert fields(error) == ["starts_on"]
        assert "Spring" in error.value.problems[0].message
    summer = services.season_save(
        circle=circle, data={"name": "Summer", "starts_on": "2025-06-01", "ends_on": "2025-08-31"}
    )
    # A season may be changed without clashing with itself, but not into the next one.
    services.season_save(circle=circle, season=spring, data={**SEASON, "ends_on": "2025-05-30"})
    with pytest.raises(RuleError):
        services.season_save(circle=circle, season=spring, data={**SEASON, "ends_on": "2025-06-01"})
    # Another circle's seasons are its own.
    other = services.circle_create(owner=owner, name="Other")
    services.season_save(circle=other, data=SEASON)
    assert Season.objects.count() == 3
    assert summer.circle == circle


# -- sheet_set_counted --------------------------------------------------------------------


def test_a_sheet_left_out_leaves_the_standings_and_the_change_is_noted(circle):
    season = services.season_save(circle=circle, data=SEASON)
    counted = skat_three(circle)
    practice = skat_three(circle, names=("Ana", "Ben", "Dan"), on=DAY + datetime.timedelta(days=1))
    ana = player(circle, "Ana")
    assert season_standings(season).counted_sheets == 2
    assert skat_row(season, ana.pk).series == 2

    services.sheet_set_counted(link=practice, counted=False)

    standings = season_standings(season)
    assert standings.counted_sheets == 1
    # The season's kept totals gave back what the practice game added, and only that.
    assert list(SeasonContribution.objects.values_list("sheet_id", flat=True)) == [counted.pk]
    assert skat_row(season, ana.pk).sf_total == SKAT_THREE_SF[0]
    dan = player(circle, "Dan")
    assert all(row.player != dan.pk for row in standings.tables["skat"].ranked)
    change = StandingsChange.objects.get(sheet=practice)
    assert (change.change, change.game, change.number, change.played_on) == (
        "excluded",
        "skat",
        None,
        practice.played_on,
    )
    assert [(m["name"], m["before"], m["after"]) for m in change.moves] == [
        ("Ana", -98, None),
        ("Ben", 186, None),
        ("Dan", 40, None),
    ]
    # Leaving it out again changes nothing and notes nothing.
    services.sheet_set_counted(link=practice, counted=False)
    assert StandingsChange.objects.count() == 1

    services.sheet_set_counted(link=practice, counted=True)
    assert season_standings(season).counted_sheets == 2
    back = StandingsChange.objects.filter(sheet=practice).order_by("-pk").first()
    assert back.change == "included"
    assert [(m["before"], m["after"]) for m in back.moves] == [(None, -98), (None, 186), (None, 40)]


def test_an_open_sheet_left_out_notes_nothing(circle):
    season = services.season_save(circle=circle, data=SEASON)
    link = play(circle, "manipulation", ["Ana", "Ben", "Cem"], MANIPULATION_OPEN)
    assert season_standings(season).open_sheets == 1
    services.sheet_set_counted(link=link, counted=False)
    assert CircleSheet.objects.get(pk=link.pk).excluded is True
    assert not StandingsChange.objects.exists()
    # An open sheet left out is not waiting to be counted either.
    assert season_standings(season).open_sheets == 0


def test_a_practice_sheet_corrected_afterwards_notes_nothing(circle):
    link = play(circle, "manipulation", ["Ana", "Ben", "Cem"], MANIPULATION)
    services.sheet_set_counted(link=link, counted=False)
    StandingsChange.objects.all().delete()
    sheet_services.hand_correct(sheet=link.sheet, number=1, data={"penalties": [0, 30, 60]})
    # It is not in the standings, so nothing in them moved.
    assert not StandingsChange.objects.exists()
    assert SheetResult.objects.get(sheet=link, position=1).stats["penalties"] == 180


def test_an_overlapping_season_is_refused_naming_the_days_as_the_reader_writes_them():
    """A season that overlaps another is refused naming the other's days in the reader's
    format: "3. November 2026" on a German page (it said "2026-11-03")."""
    from django.utils import translation

    owner = get_user_model().objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = services.circle_create(owner=owner, name="Club", player_name="Olga")
    autumn = {
        "name": "Herbst",
        "starts_on": datetime.date(2026, 11, 3),
        "ends_on": datetime.date(2027, 1, 2),
    }
    services.season_save(circle=circle, data=autumn)
    with translation.override("de"), pytest.raises(RuleError) as refused:
        services.season_save(circle=circle, data={**autumn, "name": "Winter"})
    message = str(refused.value.problems[0].message)
    assert "3. November 2026" in message, message
    assert "2. Januar 2027" in message, message
