"""What a newcomer meets: the home page says what circles and seasons are, and whoever
is logged in can log out from every page (a POST form in the footer, no script)."""

from __future__ import annotations

import pytest
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User

from circles import services
from games import services as sheet_services

pytestmark = pytest.mark.django_db

LOGOUT_FORM = 'method="post" action="/en/accounts/logout/"'


def test_the_home_page_says_what_circles_and_seasons_are(client):
    page = client.get("/en/").content.decode()
    section = page.split('id="circles-heading"')[1].split("</section>")[0]
    assert "A circle</strong> is the group you play with" in section
    assert "A season</strong> is a period" in section
    assert 'href="/en/accounts/signup/"' in section
    User.objects.create_user("ana", "ana@example.org", "pw-long-enough-1")
    client.login(username="ana", password="pw-long-enough-1")
    page = client.get("/en/").content.decode()
    section = page.split('id="circles-heading"')[1].split("</section>")[0]
    assert "A season</strong> is a period" in section
    assert "under Your circles" in section


def test_log_out_is_on_every_page_while_logged_in(client):
    ana = User.objects.create_user("ana", "ana@example.org", "pw-long-enough-1")
    circle = services.circle_create(owner=ana, name="Club", player_name="Ana")
    sheet = sheet_services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    pages = [
        "/en/",
        "/en/rules/",
        "/en/new/",
        f"/en/s/{sheet.edit_token}/",
        f"/en/circles/{circle.pk}/",
        "/en/accounts/password/",
    ]
    for url in pages:
        assert LOGOUT_FORM not in client.get(url).content.decode(), url
    client.force_login(ana)
    for url in pages:
        page = client.get(url).content.decode()
        footer = page.split('<footer class="footer">')[1]
        assert LOGOUT_FORM in footer, url
        assert "Logged in as ana." in footer, url
        assert "csrfmiddlewaretoken" in footer.split(LOGOUT_FORM)[1].split("</form>")[0]
    response = client.post("/en/accounts/logout/")
    assert response.status_code == 302
    assert SESSION_KEY not in client.session


def test_sign_up_and_log_in_on_the_way_to_an_invitation_name_the_circle(client):
    olga = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    circle = services.circle_create(owner=olga, name="Tuesday Skat")
    join = f"/en/join/{circle.invite_token}/"
    signup = client.get(f"/en/accounts/signup/?next={join}").content.decode()
    assert "You are invited to Tuesday Skat: make your account" in signup
    login = client.get(f"/en/accounts/login/?next={join}").content.decode()
    assert "You are invited to Tuesday Skat: log in" in login
    # Nothing said for another address or an invite that no longer works.
    for url in ("/en/new/", "/en/join/not-a-token/", "https://example.org/en/join/x/"):
        assert (
            "You are invited" not in client.get(f"/en/accounts/signup/?next={url}").content.decode()
        )
        assert (
            "You are invited" not in client.get(f"/en/accounts/login/?next={url}").content.decode()
        )
    # After signing up, the new account is back at the invitation.
    response = client.post(
        "/en/accounts/signup/",
        {
            "username": "bert",
            "email": "bert@example.org",
            "password1": "green-table-42",
            "password2": "green-table-42",
            "next": join,
        },
    )
    assert response["Location"] == join
