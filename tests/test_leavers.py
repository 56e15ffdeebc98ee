"""People who leave and names that must go (issue 19): a removed member's links, who
may link a player to an account or choose how a name is shown, erasure by player, and
the circle's administration log."""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session

from circles import services
from circles.models import AuditEntry, CircleSheet, Membership, Player, StandingsChange
from games import services as sheet_services
from games.models import IdempotencyKey, Seat, SheetEvent

pytestmark = pytest.mark.django_db

GRAND_WON = {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
GRAND_LOST = {**GRAND_WON, "outcome": "lost"}


@pytest.fixture
def club():
    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    member = User.objects.create_user("max", "max@example.org", "pw-long-enough-1")
    nina = User.objects.create_user("nina", "nina@example.org", "pw-long-enough-1")
    circle = services.circle_create(owner=owner, name="Club", player_name="Olga")
    for user in (member, nina):
        services.circle_join(user=user, token=circle.invite_token)
    today = datetime.date.today()
    season = services.season_save(
        circle=circle,
        data={
            "name": "Autumn",
            "starts_on": today - datetime.timedelta(days=10),
            "ends_on": today + datetime.timedelta(days=10),
        },
    )
    sheets = [
        services.sheet_create_in_circle(
            circle=circle,
            game="skat",
            players=["Olga", "Max", "Nina"],
            options={"series_deals": 1},
            owner=owner,
        )
        for _ in range(2)
    ]
    sheet_services.hand_record(sheet=sheets[0], data=GRAND_WON)
    return {
        "owner": owner,
        "member": member,
        "nina": nina,
        "circle": circle,
        "season": season,
        "sheets": sheets,
    }


def _deal(client, sheet, token):
    return client.post(
        f"/api/v1/sheets/{sheet.pk}/hands",
        json.dumps(GRAND_WON),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )


# -- A member who leaves --------------------------------------------------------------------


def test_removal_without_new_links_leaves_the_old_edit_link_writing(client, club):
    """Issue 19, reproduced: after removal the leaver's old edit link still wrote (201).
    Removal without the new links still does, which is why the page offers them."""
    sheet = club["sheets"][1]
    membership = Membership.objects.get(circle=club["circle"], user=club["member"])
    services.member_remove(membership=membership, by=club["owner"])
    assert _deal(client, sheet, sheet.edit_token).status_code == 201


def test_removal_with_new_links_closes_everything_the_leaver_saw(client, club):
    """Issue 19: "new links for everything they saw" (the circle's sheets, its seasons'
    share links and the invite link) in one step, and the page says what it changed."""
    circle, season = club["circle"], club["season"]
    old_sheets = {s.pk: (s.edit_token, s.view_token) for s in club["sheets"]}
    old_share, old_invite = season.view_token, circle.invite_token
    membership = Membership.objects.get(circle=circle, user=club["member"])
    client.force_login(club["owner"])
    page = client.get(f"/en/circles/{circle.pk}/members/{membership.pk}/remove")
    assert page.status_code == 200
    text = page.content.decode()
    assert "2 sheets" in text
    assert "1 season" in text
    assert "invite link" in text
    assert 'name="new_links" value="1" checked' in text
    answer = client.post(
        f"/en/circles/{circle.pk}/members/{membership.pk}",
        {"action": "remove", "new_links": "1"},
        follow=True,
    )
    said = answer.content.decode()
    assert "max left the circle." in said
    assert "New links made for 2 sheets, the share link of 1 season and the invite link" in said
    assert not Membership.objects.filter(pk=membership.pk).exists()
    client.logout()
    for sheet in club["sheets"]:
        edit, view = old_sheets[sheet.pk]
        assert _deal(client, sheet, edit).status_code in (401, 403, 404)
        assert client.get(f"/en/s/{edit}/").status_code == 404
        assert client.get(f"/en/v/{view}/").status_code == 404
        sheet.refresh_from_db()
        assert sheet.edit_token != edit
        assert sheet.view_token != view
        # The new link opens it, and the sheet's history says the links were made anew.
        assert client.get(f"/en/s/{sheet.edit_token}/").status_code == 200
        assert sheet.events.filter(kind=SheetEvent.LINKS).count() == 1
    assert _deal(client, club["sheets"][1], club["sheets"][1].edit_token).status_code == 201
    assert client.get(f"/en/standings/{old_share}/").status_code == 404
    season.refresh_from_db()
    assert client.get(f"/en/standings/{season.view_token}/").status_code == 200
    client.force_login(club["member"])
    assert client.get(f"/en/join/{old_invite}/").status_code == 404
    entry = AuditEntry.objects.get(circle=circle, action=AuditEntry.REMOVED)
    assert entry.actor == club["owner"]
    assert entry.detail == {"member": "max", "sheets": 2, "seasons": 1, "invite": True}


def test_leaving_oneself_asks_only_to_confirm(client, club):
    circle = club["circle"]
    membership = Membership.objects.get(circle=circle, user=club["member"])
    services.member_set_role(membership=membership, role=Membership.OWNER, by=club["owner"])
    client.force_login(club["member"])
    page = client.get(f"/en/circles/{circle.pk}/members/{membership.pk}/remove").content.decode()
    assert "new_links" not in page
    assert "Leave Club?" in page
    client.post(f"/en/circles/{circle.pk}/members/{membership.pk}", {"action": "remove"})
    assert not Membership.objects.filter(pk=membership.pk).exists()
    assert AuditEntry.objects.filter(circle=circle, action=AuditEntry.LEFT).count() == 1


def test_only_owners_open_the_removal_page(client, club):
    circle = club["circle"]
    membership = Membership.objects.get(circle=circle, user=club["nina"])
    client.force_login(club["member"])
    assert client.get(f"/en/circles/{circle.pk}/members/{membership.pk}/remove").status_code == 404
    client.logout()
    answer = client.get(f"/en/circles/{circle.pk}/members/{membership.pk}/remove")
    assert answer.status_code == 302


# -- Who may link a player to an account, and choose how the name is shown -------------------


def _player(club, name):
    return Player.objects.get(circle=club["circle"], name=name)


def test_a_member_cannot_take_another_persons_player(client, club):
    """Issue 19, reproduced: any member could link another person's player to their own
    account; only the person or an owner may. Refused with 403, nothing changes."""
    nina = _player(club, "Nina")
    services.player_claim(circle=club["circle"], user=club["nina"], player=nina)
    client.force_login(club["member"])
    url = f"/en/circles/{club['circle'].pk}/players/{nina.pk}/"
    page = client.get(url).content.decode()
    assert 'value="me"' not in page
    assert 'value="none"' not in page
    answer = client.post(url, {"name": "Nina", "shown_as": "full", "link": "me"})
    assert answer.status_code == 403
    assert "linked to another member" in answer.content.decode()
    assert _player(club, "Nina").user == club["nina"]
    answer = client.post(url, {"name": "Nina", "shown_as": "full", "link": "none"})
    assert answer.status_code == 403
    assert _player(club, "Nina").user == club["nina"]
    assert not AuditEntry.objects.filter(action=AuditEntry.LINKED, detail__member="max").exists()


def test_a_member_cannot_choose_how_another_persons_name_is_shown(client, club):
    """Issue 19, reproduced: any member could change how another person's name is shown
    outside the circle."""
    nina = _player(club, "Nina")
    services.player_claim(circle=club["circle"], user=club["nina"], player=nina)
    url = f"/en/circles/{club['circle'].pk}/players/{nina.pk}/"
    client.force_login(club["member"])
    page = client.get(url).content.decode()
    assert 'value="initials" disabled' in page
    answer = client.post(url, {"name": "Nina", "shown_as": "initials", "link": "keep"})
    assert answer.status_code == 403
    assert _player(club, "Nina").shown_as == Player.FULL
    # Correcting the spelling is still every member's to do.
    assert client.post(url, {"name": "Nina", "link": "keep"}).status_code == 302
    # The person herself chooses, and the log says so.
    client.force_login(club["nina"])
    assert (
        client.post(url, {"name": "Nina", "shown_as": "initials", "link": "keep"}).status_code
        == 302
    )
    assert _player(club, "Nina").shown_as == Player.INITIALS
    entry = AuditEntry.objects.get(action=AuditEntry.SHOWN_AS)
    assert (entry.actor_name, entry.detail["shown_as"]) == ("nina", "initials")


def test_a_member_claims_an_unlinked_player_and_an_owner_relinks(client, club):
    max_ = _player(club, "Max")
    url = f"/en/circles/{club['circle'].pk}/players/{max_.pk}/"
    client.force_login(club["member"])
    assert client.post(url, {"name": "Max", "shown_as": "first", "link": "me"}).status_code == 302
    max_.refresh_from_db()
    assert (max_.user, max_.shown_as) == (club["member"], Player.FIRST)
    client.force_login(club["owner"])
    page = client.get(url).content.decode()
    assert 'value="none"' in page
    assert client.post(url, {"name": "Max", "shown_as": "first", "link": "none"}).status_code == 302
    assert _player(club, "Max").user is None
    actions = list(
        AuditEntry.objects.filter(circle=club["circle"])
        .order_by("pk")
        .values_list("action", "actor_name")
    )
    assert actions == [
        (AuditEntry.SHOWN_AS, "max"),
        (AuditEntry.LINKED, "max"),
        (AuditEntry.UNLINKED, "olga"),
    ]


# -- Erasure, by player --------------------------------------------------------------------


def test_erasure_reaches_every_place_the_name_was_kept(client, club):
    """Issue 19, reproduced: erasing left the name in history rows that wrote it in another
    case or before a rename or merge, in kept answers of Idempotency-Keys, in sessions (the
    new-sheet page still offered it) and in the log. Erase by player, not by string."""
    circle, owner = club["circle"], club["owner"]
    client.force_login(owner)
    # The circle's new-sheet page, typed "nina b." in lower case: the sheet's history
    # and this phone's session keep what was typed.
    form = {"player_0": "Olga", "player_1": "nina b.", "player_2": "Max", "first_dealer": "0"}
    assert client.post(f"/en/circles/{circle.pk}/new/skat/", form).status_code == 302
    assert "nina b." in client.get("/en/new/skat/").content.decode()
    typed = CircleSheet.objects.filter(circle=circle).order_by("-sheet_id").first().sheet
    # A deal through the API with a key: the kept answer holds the names.
    answer = client.post(
        f"/api/v1/sheets/{typed.pk}/hands",
        json.dumps(GRAND_WON),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {typed.edit_token}",
        HTTP_IDEMPOTENCY_KEY="deal-1",
    )
    assert answer.status_code == 201, answer.content
    # "Nina B." was Nina: merged into her, and then she was renamed "Nina Berg".
    nina = _player(club, "Nina")
    services.player_merge(keep=nina, absorb=_player(club, "nina b."), by=owner)
    services.player_update(player=nina, name="Nina Berg", by=owner)
    # A finished sheet corrected after the evening notes her in the change log.
    sheet_services.hand_correct(sheet=club["sheets"][0], number=1, data=GRAND_LOST)
    assert StandingsChange.objects.filter(circle=circle).exists()
    kept = json.dumps(list(IdempotencyKey.objects.values_list("response", flat=True)))
    assert "nina b." in kept.casefold()

    client.post(f"/en/circles/{circle.pk}/players/{nina.pk}/erase", {"confirm": "erase"})

    nina.refresh_from_db()
    assert nina.erased
    assert nina.name == "Former player 1"
    assert nina.user is None
    forms = ("nina",)

    def holds_her(value) -> bool:
        text = json.dumps(value, ensure_ascii=False).casefold()
        return any(form in text for form in forms)

    seat_names = list(Seat.objects.values_list("name", flat=True))
    assert not holds_her(seat_names), seat_names
    for event in SheetEvent.objects.all():
        assert not holds_her([event.before, event.after]), (event.kind, event.after)
    for kept in IdempotencyKey.objects.all():
        assert not holds_her(kept.response), kept.scope
    for change in StandingsChange.objects.all():
        assert not holds_her(change.moves)
    for entry in AuditEntry.objects.all():
        assert not holds_her(entry.detail), entry.action
    for session in Session.objects.all():
        assert not holds_her(session.get_decoded())
    for url in (
        "/en/new/skat/",
        f"/en/circles/{circle.pk}/new/skat/",
        f"/en/circles/{circle.pk}/log/",
        f"/en/circles/{circle.pk}/players/",
        f"/en/circles/{circle.pk}/seasons/{club['season'].pk}/",
        f"/en/s/{typed.edit_token}/",
        f"/en/s/{typed.edit_token}/history/",
    ):
        page = client.get(url).content.decode().casefold()
        assert not any(form in page for form in forms), url
    # A retry of the deal is still answered from its key, without the name, and is not
    # counted twice.
    typed.refresh_from_db()
    deals = typed.deal_count
    again = client.post(
        f"/api/v1/sheets/{typed.pk}/hands",
        json.dumps(GRAND_WON),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {typed.edit_token}",
        HTTP_IDEMPOTENCY_KEY="deal-1",
    )
    assert again.status_code == 201
    typed.refresh_from_db()
    assert typed.deal_count == deals
    assert "nina" not in again.content.decode().casefold()
    assert AuditEntry.objects.filter(action=AuditEntry.ERASED).count() == 1


def test_erasure_reaches_the_club_evenings_roll(client, club):
    from evenings import services as evening_services
    from evenings.models import EveningPlayer

    circle = club["circle"]
    evening = evening_services.evening_create(
        circle=circle, by=club["owner"], name="Friday", played_on=datetime.date.today()
    )
    nina = _player(club, "Nina")
    # The roll is taken through the API with a key: the kept answer holds her name.
    answer = client.post(
        f"/api/v1/evenings/{evening.pk}/players",
        json.dumps({"players": [nina.pk]}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {evening.organiser_token}",
        HTTP_IDEMPOTENCY_KEY="roll-1",
    )
    assert answer.status_code in (200, 201), answer.content
    assert "Nina" in answer.content.decode()
    version = type(evening).objects.get(pk=evening.pk).version
    services.player_erase(player=nina, by=club["owner"])
    entry = EveningPlayer.objects.get(evening=evening, circle_player=nina)
    assert entry.name == "Former player 1"
    assert type(evening).objects.get(pk=evening.pk).version > version
    kept = json.dumps(
        list(
            IdempotencyKey.objects.filter(scope__startswith=f"evening:{evening.pk}:").values_list(
                "response", flat=True
            )
        )
    )
    assert "Former player 1" in kept
    assert "nina" not in kept.casefold()
    # The retry is still answered once, without her name.
    again = client.post(
        f"/api/v1/evenings/{evening.pk}/players",
        json.dumps({"players": [nina.pk]}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {evening.organiser_token}",
        HTTP_IDEMPOTENCY_KEY="roll-1",
    )
    assert again.status_code == answer.status_code
    assert "nina" not in again.content.decode().casefold()
    assert EveningPlayer.objects.filter(evening=evening).count() == 1


# -- The log -------------------------------------------------------------------------------


def test_the_log_is_for_owners_and_reads_in_their_language(client, club):
    circle = club["circle"]
    services.invite_rotate(circle=circle, by=club["owner"])
    services.season_rotate_token(season=club["season"], by=club["owner"])
    membership = Membership.objects.get(circle=circle, user=club["member"])
    services.member_set_role(membership=membership, role=Membership.OWNER, by=club["owner"])
    client.force_login(club["nina"])
    assert client.get(f"/en/circles/{circle.pk}/log/").status_code == 404
    client.force_login(club["owner"])
    page = client.get(f"/en/circles/{circle.pk}/log/").content.decode()
    assert "max is now: Owner." in page
    assert "A new share link was made for the season Autumn." in page
    assert "A new invite link was made" in page
    assert page.count("olga") >= 3
    german = client.get(f"/de/circles/{circle.pk}/log/").content.decode()
    assert "max is now" not in german
    settings_page = client.get(f"/en/circles/{circle.pk}/settings/").content.decode()
    assert f"/en/circles/{circle.pk}/log/" in settings_page


def test_a_damaged_log_line_shows_a_question_mark_not_an_error(client, club):
    """The log's detail comes from the database: read like input."""
    circle = club["circle"]
    AuditEntry.objects.create(circle=circle, action=AuditEntry.ROLE, detail={"member": 5})
    AuditEntry.objects.create(circle=circle, action="bogus", detail=["x"])
    client.force_login(club["owner"])
    answer = client.get(f"/en/circles/{circle.pk}/log/")
    assert answer.status_code == 200
    assert "? is now: ?." in answer.content.decode()


def test_the_log_pages_through_older_entries(client, club, django_assert_max_num_queries):
    circle = club["circle"]
    for _ in range(105):
        services.invite_rotate(circle=circle, by=club["owner"])
    client.force_login(club["owner"])
    with django_assert_max_num_queries(8):
        page = client.get(f"/en/circles/{circle.pk}/log/").content.decode()
    assert page.count("A new invite link was made") == 100
    more = page.split('href="?before=')[1].split('"')[0]
    rest = client.get(f"/en/circles/{circle.pk}/log/?before={more}").content.decode()
    assert rest.count("A new invite link was made") == 5
    assert "Older entries" not in rest


def test_change_notes_are_renamed_by_player_id_and_read_like_input():
    """The change notes of circles and club evenings name players by id: an erasure
    renames that id's moves only, says which names they held, and leaves damaged notes
    (read from the database) as they were."""
    from games.privacy import moves_renamed

    moves = [
        {"player": 7, "name": "nina", "before": 3, "after": 5},
        {"player": 8, "name": "Nina", "before": 1, "after": 0},
        "damaged",
    ]
    renamed, found = moves_renamed(moves, 7, "Former player 1")
    assert found == {"nina"}
    assert renamed[0] == {"player": 7, "name": "Former player 1", "before": 3, "after": 5}
    assert renamed[1:] == moves[1:]
    assert moves_renamed(moves, 9, "X") == (moves, set())
    assert moves_renamed({"not": "a list"}, 7, "X") == ({"not": "a list"}, set())
