"""Accounts, links and permissions as people meet them through the pages and the JSON
API: who is shut out by new links, what a form sent to the API answers, what needs the
CSRF token, what a circle's export leaves out. Each test holds one finding of an audit
that was fixed; its docstring says what a person met and what the app does instead."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from circles import services as circle_services
from circles.models import Membership
from evenings import services as evening_services
from evenings.models import Evening
from games.models import Sheet

pytestmark = pytest.mark.django_db

PASSWORD = "pw-long-enough-1"


def _client(user=None, **kwargs):
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def club():
    """Olga owns the circle "Club"; Max is a member."""
    olga = User.objects.create_user("olga", "olga@example.org", PASSWORD)
    max_ = User.objects.create_user("max", "max@example.org", PASSWORD)
    circle = circle_services.circle_create(owner=olga, name="Club", player_name="Olga")
    circle_services.circle_join(user=max_, token=circle.invite_token)
    return circle, olga, max_


def _remove_with_new_links(owner, circle, user):
    membership = Membership.objects.get(circle=circle, user=user)
    response = _client(owner).post(
        f"/en/circles/{circle.pk}/members/{membership.pk}",
        {"action": "remove", "new_links": "1"},
    )
    assert response.status_code == 302
    assert not Membership.objects.filter(circle=circle, user=user).exists()


def test_a_removed_member_is_handed_the_new_links_of_the_circle_sheets_they_started(club):
    """Max starts a sheet in the circle, then the owner removes him with "Make new links
    for all of them"; his own home page (/mine/, "Your sheets") still lists that circle
    sheet by its brand-new edit link, so he keeps entering deals in the circle's season
    and can even move the sheet to the trash, where nobody in the circle can bring it
    back. Removal with new links should leave him nothing that opens the circle's sheets."""
    circle, olga, max_ = club
    max_client = _client(max_)
    started = max_client.post(
        f"/en/circles/{circle.pk}/new/manipulation/",
        {"player_0": "Max", "player_1": "Olga", "player_2": "Nina", "first_dealer": "0"},
    )
    assert started.status_code == 302
    sheet = Sheet.objects.get()
    old_link = sheet.edit_token

    _remove_with_new_links(olga, circle, max_)
    sheet.refresh_from_db()
    assert sheet.edit_token != old_link  # the circle's sheets did get new links

    mine = max_client.get("/en/mine/").content.decode()
    assert sheet.edit_token not in mine


def test_a_removed_owner_keeps_the_organiser_link_of_the_circles_club_evenings(club):
    """An owner sees the organiser's link of every club evening on the circle page. When
    that owner is removed with "Make new links for all of them", the evenings' organiser
    links are not made new (nothing can make them new), so the removed owner's kept link
    still opens the board, shows the tables' brand-new sheet links and changes the roll
    and results that count in the circle's season. After the removal it should open
    nothing and change nothing."""
    circle, olga, max_ = club
    circle_services.member_set_role(
        membership=Membership.objects.get(circle=circle, user=max_), role=Membership.OWNER
    )
    evening = evening_services.evening_create(
        name="Tuesday",
        played_on=datetime.date.today(),
        circle=circle,
        series_deals={"3": 3},
        by=olga,
    )
    max_client = _client(max_)
    circle_page = max_client.get(f"/en/circles/{circle.pk}/").content.decode()
    assert evening.organiser_token in circle_page  # what Max saw as an owner

    _remove_with_new_links(olga, circle, max_)

    max_client.post(f"/en/e/{evening.organiser_token}/players", {"name": "Zed"})
    assert not evening.players.filter(name="Zed").exists()


def test_the_new_sheet_page_hands_the_starting_phone_the_links_made_after_it(client):
    """A phone starts a Skat sheet; someone at the table then makes new links ("the old
    ones stop working at once") to shut that phone out. For half an hour the new-sheet
    page of that phone still points "back" at the sheet by its new edit link (and sending
    the old form again redirects to it too), so the phone keeps writing. The pointer back
    should only ever open the link the phone had."""
    page = client.get("/en/new/skat/").content.decode()
    key = re.search(r'name="idempotency_key" value="([^"]+)"', page).group(1)
    started = client.post(
        "/en/new/skat/",
        {
            "player_0": "Ana",
            "player_1": "Ben",
            "player_2": "Cem",
            "first_dealer": "0",
            "idempotency_key": key,
        },
    )
    assert started.status_code == 302
    sheet = Sheet.objects.get()
    old_link = sheet.edit_token

    other_phone = Client()
    assert other_phone.post(f"/en/s/{old_link}/links").status_code == 302
    sheet.refresh_from_db()
    assert sheet.edit_token != old_link

    page = client.get("/en/new/skat/").content.decode()
    assert sheet.edit_token not in page


def test_a_form_encoded_post_to_the_json_api_is_a_400_not_a_500():
    """A program that posts a form (multipart/form-data, as `curl -F` does) to the JSON
    API (a new sheet, a new evening, the referee) gets a 500 "Something went wrong on our
    side": the input guard reads the form first and the view can no longer read the body.
    It should get a 4xx saying the body must be a JSON object, with nothing changed."""
    client = _client(raise_request_exception=False)
    answers = {
        path: client.post(path, {"game": "skat", "name": "Tuesday"}).status_code
        for path in ("/api/v1/sheets", "/api/v1/evenings", "/api/v1/skat/score")
    }
    assert all(400 <= status < 500 for status in answers.values()), answers
    assert not Sheet.objects.exists()


def test_starting_a_circle_evening_through_the_api_needs_more_than_the_session_cookie(club):
    """POST /api/v1/evenings is exempt from CSRF ("token-authenticated, no cookies"), yet
    it lets the session cookie decide who may start an evening in a circle: a request
    with a member's cookie and no CSRF token (a form on another page, sent as text/plain)
    starts an evening in their circle. A write authorised by the cookie should need the
    CSRF token (403 without it) and start nothing."""
    circle, _olga, max_ = club
    browser = _client(max_, enforce_csrf_checks=True)
    body = json.dumps(
        {
            "game": "skat",
            "name": "Not mine",
            "date": datetime.date.today().isoformat(),
            "circle": circle.pk,
        }
    )
    response = browser.post("/api/v1/evenings", body, content_type="text/plain")
    assert not Evening.objects.filter(circle=circle).exists(), response.status_code
    assert response.status_code == 403


def test_the_circle_export_does_not_hand_the_members_e_mail_addresses_to_its_owners(club):
    """The sign-up form says of the e-mail: "Only used to send you a link if you forget
    your password." Yet any circle owner downloads, from the members page, every member's
    e-mail address in the circle's export (the import never reads it). A member's e-mail
    should stay out of what other people can download."""
    circle, olga, _max = club
    response = _client(olga).get(f"/en/circles/{circle.pk}/export.json")
    assert response.status_code == 200
    exported = b"".join(response.streaming_content).decode()
    assert "max@example.org" not in exported
