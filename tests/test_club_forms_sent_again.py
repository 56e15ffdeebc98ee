"""The circles' and the evenings' forms sent as a browser sends them (a plain POST, and
the same with htmx's HX-Request header): a form sent twice (a double tap, Back and send
again) does its work once, a refused form keeps what was typed, and a slip of the finger
is refused with a message naming its place, never a 500."""

from __future__ import annotations

import datetime
import re
from urllib.parse import urlsplit

import pytest
from django.contrib.auth.models import User
from django.urls import resolve

from circles.models import Circle
from evenings import services
from evenings.models import Evening, EveningPlayer, EveningTable, Series

from .forms_as_browser import Submission, submissions

pytestmark = pytest.mark.django_db

PASSWORD = "pw-long-enough-1"
ROLL = ["Anna", "Bernd", "Carla", "Dieter", "Erik", "Frieda", "Gustav", "Hanna"]


def headers(hx: bool) -> dict[str, str]:
    """What htmx adds to a request it sends (a browser without it adds nothing)."""
    return {"HTTP_HX_REQUEST": "true", "HTTP_HX_CURRENT_URL": "http://testserver/"} if hx else {}


def form_to(client, path: str, view_name: str) -> Submission:
    """The form on the page at ``path`` that posts to ``view_name``, as a browser reads
    it (the values the page put in it)."""
    page = client.get(path)
    assert page.status_code == 200, page.status_code
    found = [
        s
        for s in submissions(page.content.decode(), f"http://testserver{path}")
        if s.method == "post" and resolve(urlsplit(s.url).path).view_name == view_name
    ]
    assert found, f"no form to {view_name} on {path}"
    return found[0]


def body(submission: Submission, **typed: str) -> dict[str, list[str]]:
    """The form's values with what a person typed into it."""
    sent: dict[str, list[str]] = {}
    for name, value in submission.data:
        if name not in typed:
            sent.setdefault(name, []).append(value)
    for name, value in typed.items():
        sent[name] = [value]
    return sent


def evening(players: int = 0, **kw) -> Evening:
    e = services.evening_create(name="Club night", played_on=datetime.date.today(), **kw)
    if players:
        services.players_add(evening=e, names=ROLL[:players])
    return e


def seating(e: Evening) -> list[tuple[int, list[int]]]:
    return [
        (t.number, [s.player_id for s in t.seats.order_by("position")])
        for t in EveningTable.objects.filter(series__evening=e).order_by("number")
    ]


def error_box(response) -> str:
    found = re.search(r'class="error-box".*?</div>', response.content.decode(), re.S)
    return re.sub(r"<[^>]+>|\s+", " ", found.group(0)) if found else ""


# -- Double submits ---------------------------------------------------------------------


@pytest.mark.parametrize("hx", [False, True], ids=["plain", "htmx"])
def test_a_swap_sent_twice_swaps_the_two_players_only_once(client, hx):
    """An organiser double-taps "Swap" (or sends it again after Back): a swap is its own
    undo, so the second send (from the board read before the swap) is taken as the same
    swap, and the two players stay swapped once (it swapped them back)."""
    e = evening(8)
    board = f"/en/e/{e.organiser_token}/"
    assert client.post(board + "draw", {"method": "lot", "seed": "12"}).status_code == 302
    swap = form_to(client, board, "evenings:swap")
    drawn = seating(e)

    first = client.post(swap.url, body(swap), **headers(hx))
    assert first.status_code == 302
    swapped = seating(e)
    assert swapped != drawn

    client.post(swap.url, body(swap), **headers(hx))
    assert seating(e) == swapped, "the second send swapped the two players back"
    assert len(Series.objects.get(evening=e).swaps) == 1


@pytest.mark.parametrize("hx", [False, True], ids=["plain", "htmx"])
def test_a_new_circle_sent_twice_makes_one_circle(client, hx):
    """Someone taps "Create" twice, or goes back and sends the form again: as the
    new-sheet form does (its idempotency key), the second send leads to the circle the
    first one made (it made a second circle of the same name)."""
    owner = User.objects.create_user("olga", "olga@example.org", PASSWORD)
    client.force_login(owner)
    form = form_to(client, "/en/circles/new/", "circles:circle-new")
    typed = body(form, name="Tuesday Skat club", player_name="Olga")

    assert client.post(form.url, typed, **headers(hx)).status_code == 302
    client.post(form.url, typed, **headers(hx))

    assert Circle.objects.filter(name="Tuesday Skat club").count() == 1


@pytest.mark.parametrize("hx", [False, True], ids=["plain", "htmx"])
def test_a_new_evening_sent_twice_starts_one_evening(client, hx):
    """The organiser taps "Start the evening" twice (or sends it again after Back): the
    second send leads to the evening the first one started (it started a second one,
    with its own organiser link, splitting the night over two boards)."""
    form = form_to(client, "/en/evenings/new/", "evenings:new")
    typed = body(form, name="Christmas Preisskat")

    assert client.post(form.url, typed, **headers(hx)).status_code == 302
    client.post(form.url, typed, **headers(hx))

    assert Evening.objects.filter(name="Christmas Preisskat").count() == 1


# -- What was typed is kept -------------------------------------------------------------


@pytest.mark.parametrize("hx", [False, True], ids=["plain", "htmx"])
def test_a_refused_name_on_the_roll_keeps_the_team_and_categories_typed(client, hx):
    """The organiser types a name, a team and categories on the board and one category
    is too long: the board comes back with a 400 and everything typed in the form (the
    team and the categories were lost)."""
    e = evening()
    board = f"/en/e/{e.organiser_token}/"
    add = form_to(client, board, "evenings:players-add")
    team, tags = "Kreuzbuben", "Damen, Seniorinnen und Senioren ab sechzig"

    refused = client.post(add.url, body(add, name="Anna", team=team, tags=tags), **headers(hx))

    assert refused.status_code == 400
    assert not EveningPlayer.objects.exists()
    again = dict(
        next(
            s
            for s in submissions(refused.content.decode(), f"http://testserver{board}")
            if s.url.endswith("/players") and any(n == "name" for n, _ in s.data)
        ).data
    )
    assert again["name"] == "Anna"
    assert again["team"] == team, "the team typed is lost"
    assert again["tags"] == tags, "the categories typed are lost"


@pytest.mark.parametrize("hx", [False, True], ids=["plain", "htmx"])
def test_a_player_who_comes_back_gets_the_team_and_categories_typed(client, hx):
    """A player left the roll and comes back: the team and categories typed with the
    name are saved with the returning player (they were silently dropped)."""
    e = evening(4)
    board = f"/en/e/{e.organiser_token}/"
    anna = EveningPlayer.objects.get(evening=e, name="Anna")
    assert client.post(board + f"players/{anna.pk}/leave", **headers(hx)).status_code == 302
    add = form_to(client, board, "evenings:players-add")

    back = client.post(
        add.url, body(add, name="Anna", team="Kreuzbuben", tags="Damen"), **headers(hx)
    )

    assert back.status_code == 302
    anna.refresh_from_db()
    assert not anna.left
    assert anna.team == "Kreuzbuben", "the team typed was dropped"
    assert anna.tags == ["Damen"], "the categories typed were dropped"


# -- The paper list of a Skat table -----------------------------------------------------


def paper_table(client) -> tuple[EveningTable, Submission, list]:
    """A Skat table of three drawn, its paper form as its page shows it, its seats."""
    e = evening(3)
    services.series_draw(evening=e, method="lot", seed=1)
    table = EveningTable.objects.get(series__evening=e)
    path = f"/en/e/{e.organiser_token}/tables/{table.pk}/paper"
    seats = list(table.seats.select_related("player").order_by("position"))
    return table, form_to(client, path, "evenings:table-paper"), seats


@pytest.mark.parametrize("hx", [False, True], ids=["plain", "htmx"])
def test_a_huge_score_in_a_paper_foot_is_refused_not_a_server_error(client, hx):
    """The organiser types a paper list's foot with a slip of the finger, a score of 20
    digits: 400 with a message about the score, nothing saved (it was a 500: the number
    does not fit the database)."""
    table, paper, seats = paper_table(client)
    typed = {}
    for seat in seats:
        typed[f"points_{seat.player_id}"] = "10"
        typed[f"won_{seat.player_id}"] = "1"
        typed[f"lost_{seat.player_id}"] = "0"
    typed[f"points_{seats[1].player_id}"] = "99999999999999999999"
    client.raise_request_exception = False

    response = client.post(paper.url, body(paper, **typed), **headers(hx))

    assert response.status_code == 400, response.status_code
    assert error_box(response)
    table.refresh_from_db()
    assert not table.paper
    assert not table.done
    assert all(seat.points == 0 for seat in table.seats.all())


@pytest.mark.parametrize("hx", [False, True], ids=["plain", "htmx"])
def test_a_bad_number_in_a_paper_foot_says_whose_line_it_is_on(client, hx):
    """In a paper foot of nine boxes one is not a number: the message names the player
    (as the rows' and the tally card's name their row and team) and the box is marked
    (it said only "Give a whole number.")."""
    table, paper, seats = paper_table(client)
    typed = {}
    for seat in seats:
        typed[f"points_{seat.player_id}"] = "10"
        typed[f"won_{seat.player_id}"] = "1"
        typed[f"lost_{seat.player_id}"] = "0"
    bernd = next(seat for seat in seats if seat.player.name == "Bernd")
    typed[f"points_{bernd.player_id}"] = "12a"

    response = client.post(paper.url, body(paper, **typed), **headers(hx))

    assert response.status_code == 400
    table.refresh_from_db()
    assert not table.paper
    assert "Bernd" in error_box(response), error_box(response)
    marked = re.findall(
        r'name="(\w+)" value="[^"]*" aria-invalid="true"', response.content.decode()
    )
    assert marked == [f"points_{bernd.player_id}"]


# -- Money rules --------------------------------------------------------------------------


@pytest.mark.parametrize("hx", [False, True], ids=["plain", "htmx"])
def test_a_lost_game_fee_typed_without_its_start_is_not_dropped_silently(client, hx):
    """On the money rules (German page) the organiser types a third lost-game fee,
    "2,00", but leaves "From lost game" empty: refused (4xx) with a message at that fee
    and nothing saved (the rules were saved without the fee, every bill short)."""
    e = evening(8)
    path = f"/de/e/{e.organiser_token}/money/rules"
    rules = form_to(client, path, "evenings:money-rules")
    typed = body(
        rules,
        **{"money-keeps_money": "on", "money-tier_3_from": "", "money-tier_3_amount": "2,00"},
    )

    response = client.post(rules.url, typed, **headers(hx))

    e.refresh_from_db()
    assert 400 <= response.status_code < 500, (response.status_code, e.money)
    assert e.money == {}


@pytest.mark.parametrize("hx", [False, True], ids=["plain", "htmx"])
def test_a_refused_draw_keeps_the_seed_typed(client, hx):
    """To check a draw the organiser types its seed and one digit too many: the board
    comes back with a 400 and the seed box holds what was typed (it held a new random
    seed, so the next tap on "Draw" seated the evening by a seed nobody typed)."""
    e = evening(8)
    board = f"/en/e/{e.organiser_token}/"
    draw = form_to(client, board, "evenings:draw")

    refused = client.post(draw.url, body(draw, seed="1234567"), **headers(hx))

    assert refused.status_code == 400
    assert not Series.objects.filter(evening=e).exists()
    again = next(
        s
        for s in submissions(refused.content.decode(), f"http://testserver{board}")
        if s.url.endswith("/draw")
    )
    assert dict(again.data)["seed"] == "1234567", dict(again.data)["seed"]


@pytest.mark.parametrize("field", ["team", "tags"])
def test_a_control_character_in_a_team_or_a_category_is_refused_as_in_a_name(field):
    """A team or a category with a control character in it (a bell, pasted) is refused
    as a player's name with one is, and nothing is added (it was taken as typed)."""
    from games.rules.errors import RuleError

    e = evening()
    with pytest.raises(RuleError) as refused:
        services.players_add(evening=e, names=["Anna"], **{field: "Kreuz\x07buben"})
    assert refused.value.problems[0].field == field
    assert not EveningPlayer.objects.filter(evening=e).exists()
