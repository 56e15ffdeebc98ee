"""Names people type refuse control characters (issue 19's import hardening, brought
to the pages and the API).

The input guard (scorekeeper.input_guard) refuses a NUL and a lone surrogate in any
request; the other control characters (Unicode's category Cc: a bell, an escape that
starts a terminal's colour codes, a backspace, DEL, the C1 codes) reached the database
in names. A name is tidied first (``" ".join(name.split())``), so the tabs and line
breaks a paste brings are spaces by then and welcome; what is left of Cc (and Cs) is
refused with "A name cannot contain control characters.", and nothing is stored.
Every name check uses one test, ``games.services.name_character_problem``: the sheets'
seats, the circles' names (circle, player, season), an evening's roll and the import
(tests/test_import_hostile.py).
"""

from __future__ import annotations

import datetime
import html
import json
import sys
import unicodedata

import pytest
from django.contrib.auth import get_user_model

from circles import services as circle_services
from circles.models import Circle, Player, Season
from evenings import services as evening_services
from evenings.models import Evening, EveningPlayer
from games import services as sheet_services
from games.models import Seat, Sheet
from games.rules.errors import RuleError

pytestmark = pytest.mark.django_db

User = get_user_model()

REFUSED = "A name cannot contain control characters."
NUL = "A name cannot contain a NUL character."
FORM = "application/x-www-form-urlencoded"
TODAY = datetime.date.today().isoformat()

# Control characters no tidying takes out: C0 codes that are no whitespace, DEL, and
# C1 codes (the CSI that starts an escape sequence on its own, too).
CONTROLS = ["\x01", "\x07", "\x08", "\x1b", "\x7f", "\x80", "\x9b", "\x9f"]


def messages_of(error: pytest.ExceptionInfo[RuleError]) -> list[tuple[str | None, str]]:
    return [(p.field, str(p.message)) for p in error.value.problems]


# -- The one check ---------------------------------------------------------------------------


def test_the_check_is_unicodes_control_and_surrogate_categories():
    """The ranges in ``name_character_problem`` are exactly Cc and Cs, for every code
    point (unicodedata is what the import used before): inside a name that shows
    something, only those are refused. A name of one character besides is refused when
    that character shows nothing alone (a joiner, a mark, a space: it names nobody)."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        category = unicodedata.category(char)
        control = category in ("Cc", "Cs")
        inside = sheet_services.name_character_problem("name", f"A{char}")
        assert (inside is not None) == control, hex(code)
        alone = sheet_services.name_character_problem("name", char)
        assert (alone is not None) == (control or category[0] not in "LNPS"), hex(code)
    assert sheet_services.name_character_problem("name", "Zoë 🂡 李小龙 Jürgen") is None
    # Format characters (a zero-width joiner in an emoji, a right-to-left mark) are text.
    assert sheet_services.name_character_problem("name", "👩\u200d👩 \u200fابن") is None


def test_a_nul_keeps_its_own_message_and_the_rest_say_control_characters():
    problem = sheet_services.name_character_problem("players.0", "Ana\x00")
    assert (problem.field, str(problem.message)) == ("players.0", NUL)
    problem = sheet_services.name_character_problem("players.0", "Ana\x07")
    assert (problem.field, str(problem.message)) == ("players.0", REFUSED)


# -- Services --------------------------------------------------------------------------------


@pytest.mark.parametrize("control", CONTROLS)
def test_a_seat_name_with_a_control_character_is_refused(control):
    with pytest.raises(RuleError) as error:
        sheet_services.sheet_create(game="skat", players=["Ana", f"Be{control}n", "Cem"])
    assert messages_of(error) == [("players.1", REFUSED)]
    assert not Sheet.objects.exists()


def test_tabs_and_line_breaks_are_tidied_to_spaces_not_refused():
    """Whitespace control characters (tab, line feed, vertical tab, form feed, carriage
    return, the separators \\x1c to \\x1f, NEL) become one space when a name is tidied."""
    sheet = sheet_services.sheet_create(
        game="skat", players=["Ana\tLee", "Ben\r\nRoe", "Cem\x0b\x0c\x1c\x1d\x1e\x1f\x85Oz"]
    )
    assert list(
        Seat.objects.filter(sheet=sheet).order_by("position").values_list("name", flat=True)
    ) == [
        "Ana Lee",
        "Ben Roe",
        "Cem Oz",
    ]


def test_showing_another_name_at_a_seat_checks_it_too():
    sheet = sheet_services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    with pytest.raises(RuleError) as error:
        sheet_services.seats_rename(sheet=sheet, names={2: "C\x1bem"})
    assert messages_of(error) == [("players.2", REFUSED)]
    assert sorted(Seat.objects.filter(sheet=sheet).values_list("name", flat=True)) == [
        "Ana",
        "Ben",
        "Cem",
    ]


def test_circle_names_player_names_and_season_names_are_checked():
    olga = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    with pytest.raises(RuleError) as error:
        circle_services.circle_create(owner=olga, name="Tuesday\x1bclub", player_name="Ol\x07ga")
    assert messages_of(error) == [("name", REFUSED), ("player_name", REFUSED)]
    assert not Circle.objects.exists()

    circle = circle_services.circle_create(owner=olga, name="Tuesday club", player_name="Olga")
    player = circle.players.get()
    with pytest.raises(RuleError) as error:
        circle_services.player_update(player=player, name="\x1b[31mOlga")
    assert messages_of(error) == [("name", REFUSED)]
    player.refresh_from_db()
    assert player.name == "Olga"

    with pytest.raises(RuleError) as error:
        circle_services.season_save(
            circle=circle,
            data={"name": "Win\x7fter", "starts_on": "2025-01-01", "ends_on": "2025-02-28"},
        )
    assert ("name", REFUSED) in messages_of(error)
    assert not Season.objects.exists()


def test_an_evenings_roll_refuses_a_name_with_a_control_character():
    evening = evening_services.evening_create(name="Preisskat", played_on=TODAY)
    with pytest.raises(RuleError) as error:
        evening_services.players_add(evening=evening, names=["Ann", "B\x08o"])
    assert messages_of(error) == [("names.1", REFUSED)]
    assert not EveningPlayer.objects.exists()
    evening_services.players_add(evening=evening, names=["Ann\tLee"])
    assert list(EveningPlayer.objects.values_list("name", flat=True)) == ["Ann Lee"]


# -- The API ---------------------------------------------------------------------------------


def post_json(client, path, body, token=None):
    extra = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
    return client.post(path, json.dumps(body), content_type="application/json", **extra)


def test_the_sheets_api_answers_422_for_a_bell_in_a_name_and_stores_nothing(client):
    response = post_json(
        client, "/api/v1/sheets", {"game": "skat", "players": ["Ana", "B\x07en", "Cem"]}
    )
    assert response.status_code == 422, response.content
    assert response.json()["errors"] == [{"field": "players.1", "message": REFUSED}]
    assert not Sheet.objects.exists()
    # Sent as a JSON escape it is the same character.
    escaped = client.post(
        "/api/v1/sheets",
        b'{"game": "skat", "players": ["Ana", "Ben", "\\u001b[2JCem"]}',
        content_type="application/json",
    )
    assert escaped.status_code == 422
    assert escaped.json()["errors"] == [{"field": "players.2", "message": REFUSED}]
    assert not Sheet.objects.exists()


def test_the_evenings_api_answers_422_for_an_escape_in_a_roll_name(client):
    made = post_json(
        client,
        "/api/v1/evenings",
        {"game": "skat", "name": "Preisskat", "date": TODAY, "series": 2},
    )
    assert made.status_code == 201, made.content
    made = made.json()
    path = f"/api/v1/evenings/{made['id']}/players"
    response = post_json(client, path, {"names": ["Ann", "\x1b[31mBo"]}, made["organiser_token"])
    assert response.status_code == 422, response.content
    assert {"field": "names.1", "message": REFUSED} in response.json()["errors"]
    assert not EveningPlayer.objects.exists()


# -- The pages -------------------------------------------------------------------------------


def test_the_new_sheet_page_answers_422_with_the_message(client):
    response = client.post(
        "/en/new/skat/", "player_0=Ana&player_1=B%07en&player_2=Cem", content_type=FORM
    )
    assert response.status_code == 422
    assert REFUSED in html.unescape(response.content.decode())
    assert not Sheet.objects.exists()


@pytest.fixture
def olga(client):
    account = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    client.force_login(account)
    return account


def test_the_new_circle_page_answers_422_with_the_message(client, olga):
    response = client.post("/en/circles/new/", {"name": "Tuesday club", "player_name": "Ol\x1bga"})
    assert response.status_code == 422
    assert REFUSED in html.unescape(response.content.decode())
    assert not Circle.objects.exists()


def test_renaming_a_player_on_the_page_answers_422_with_the_message(client, olga):
    circle = circle_services.circle_create(owner=olga, name="Tuesday club", player_name="Olga")
    player = circle.players.get()
    response = client.post(
        f"/en/circles/{circle.pk}/players/{player.pk}/",
        {"name": "Ol\x1bga", "shown_as": player.shown_as},
    )
    assert response.status_code == 422
    assert REFUSED in html.unescape(response.content.decode())
    player.refresh_from_db()
    assert player.name == "Olga"


def test_a_circle_sheets_seat_names_on_the_page_answer_422(client, olga):
    circle = circle_services.circle_create(owner=olga, name="Tuesday club", player_name="Olga")
    response = client.post(
        f"/en/circles/{circle.pk}/new/skat/",
        {"player_0": "Olga", "player_1": "\x1bBen", "player_2": "Cem"},
    )
    assert response.status_code == 422
    assert REFUSED in html.unescape(response.content.decode())
    assert not Sheet.objects.exists()
    assert list(circle.players.values_list("name", flat=True)) == ["Olga"]


def test_adding_a_player_on_the_players_page_answers_422_with_the_message(client, olga):
    circle = circle_services.circle_create(owner=olga, name="Tuesday club", player_name="Olga")
    response = client.post(f"/en/circles/{circle.pk}/players/", {"name": "\x1b[31mBen"})
    assert response.status_code == 422
    assert REFUSED in html.unescape(response.content.decode())
    assert list(Player.objects.values_list("name", flat=True)) == ["Olga"]


def test_the_evening_roll_on_the_board_answers_400_with_the_message(client):
    evening = evening_services.evening_create(name="Preisskat", played_on=TODAY)
    response = client.post(f"/en/e/{evening.organiser_token}/players", {"name": "B\x7fo"})
    assert response.status_code == 400
    assert REFUSED in html.unescape(response.content.decode())
    assert not Evening.objects.get().players.exists()
