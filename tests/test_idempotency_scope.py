"""Issue 19, finding 1: an Idempotency-Key for starting a sheet without an account is
answered only to the client that sent it.

Before, every anonymous API caller shared one scope ("sheets:anonymous") and every
anonymous visitor of a new-sheet form another ("sheets:form:anonymous"): whoever
learnt somebody's key (a log, a shared screen, a proxy) and sent it again got that
person's answer replayed, edit link included. Now an API caller's key is kept for
its address (``scorekeeper.security.client_ip``: an IPv4 address, an IPv6 /64) and
a browser's form key for its CSRF secret (the cookie its form is checked against).
"""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games import services
from games.models import IdempotencyKey, Sheet

pytestmark = pytest.mark.django_db

ANA_ADDRESS = "203.0.113.7"
EVE_ADDRESS = "198.51.100.23"
FORM = "/en/new/manipulation/"


def start_by_api(client: Client, players: list[str], *, key: str, address: str):
    return client.post(
        "/api/v1/sheets",
        json.dumps({"game": "manipulation", "players": players}),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
        REMOTE_ADDR=address,
    )


def form_page(client: Client) -> tuple[str, str]:
    """The new-sheet form's idempotency key and CSRF token, as a browser gets them."""
    html = client.get(FORM).content.decode()
    key = re.search(r'name="idempotency_key" value="([^"]+)"', html).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    return key, token


def start_by_form(client: Client, players: list[str], *, key: str, token: str):
    form = {f"player_{seat}": name for seat, name in enumerate(players)}
    return client.post(FORM, {**form, "idempotency_key": key, "csrfmiddlewaretoken": token})


# -- The API ---------------------------------------------------------------------------------


def test_api_anonymous_key_replayed_from_another_address_never_answers_the_first_edit_link():
    """Finding 1 (API): an anonymous caller who learnt another's Idempotency-Key got
    that caller's new sheet, edit token included, by sending the key again."""
    ana, eve = Client(), Client()
    first = start_by_api(ana, ["Ana", "Ben", "Cem"], key="start-1", address=ANA_ADDRESS)
    assert first.status_code == 201
    replayed = start_by_api(eve, ["Ana", "Ben", "Cem"], key="start-1", address=EVE_ADDRESS)
    assert replayed.status_code == 201
    assert replayed.json()["id"] != first.json()["id"]
    assert first.json()["edit_token"] not in replayed.content.decode()
    assert first.json()["view_token"] not in replayed.content.decode()
    assert Sheet.objects.count() == 2


def test_api_anonymous_key_retried_from_the_same_address_gets_the_first_answer():
    """Finding 1 (API): idempotency still holds for the caller who sent the key."""
    client = Client()
    first = start_by_api(client, ["Ana", "Ben", "Cem"], key="start-1", address=ANA_ADDRESS)
    again = start_by_api(client, ["Ana", "Ben", "Cem"], key="start-1", address=ANA_ADDRESS)
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert Sheet.objects.count() == 1


def test_api_anonymous_key_from_another_address_does_not_block_the_fixed_body():
    """Finding 1 (API): another caller's key is no key of theirs, not even to refuse
    (a different body with a used key answers 422 only to the one who used it)."""
    start_by_api(Client(), ["Ana", "Ben", "Cem"], key="start-1", address=ANA_ADDRESS)
    other = start_by_api(Client(), ["Dora", "Emil", "Fay"], key="start-1", address=EVE_ADDRESS)
    assert other.status_code == 201
    assert other.json()["players"] == ["Dora", "Emil", "Fay"]


def test_api_an_ipv6_client_keeps_its_key_across_its_own_64_network():
    """Finding 1 (API): a client is its address as the rate limits count it: an IPv6
    phone's addresses within its /64 are one client, another network another."""
    body = ["Ana", "Ben", "Cem"]
    first = start_by_api(Client(), body, key="k6", address="2001:db8:1:2::10")
    same = start_by_api(Client(), body, key="k6", address="2001:db8:1:2::99")
    other = start_by_api(Client(), body, key="k6", address="2001:db8:9:9::10")
    assert same.json() == first.json()
    assert other.json()["id"] != first.json()["id"]


def test_api_a_signed_in_caller_keeps_its_key_from_any_address():
    """The account is the scope when there is one: the same person on another network
    (a phone leaving the Wi-Fi) still gets the first answer."""
    ana = User.objects.create_user("ana", password="pw-long-enough-1")
    client = Client()
    client.force_login(ana)
    first = start_by_api(client, ["Ana", "Ben", "Cem"], key="k", address=ANA_ADDRESS)
    again = start_by_api(client, ["Ana", "Ben", "Cem"], key="k", address=EVE_ADDRESS)
    assert again.json() == first.json()
    assert Sheet.objects.count() == 1


def test_key_scope_without_an_account_is_per_client_and_holds_no_address():
    """Finding 1: the scope names the client only by a digest (no address is stored)."""
    one = services.key_scope(client="203.0.113.7")
    assert one == services.key_scope(client="203.0.113.7")
    assert one != services.key_scope(client="198.51.100.23")
    assert "203.0.113.7" not in one
    assert len(one) <= IdempotencyKey._meta.get_field("scope").max_length


# -- The form (a browser) -------------------------------------------------------------------


def test_form_anonymous_key_replayed_by_another_browser_never_answers_the_first_edit_link():
    """Finding 1 (form): every anonymous visitor shared one scope, so a form's key sent
    by another browser was answered with the first visitor's sheet (its edit link)."""
    ana, eve = Client(enforce_csrf_checks=True), Client(enforce_csrf_checks=True)
    key, ana_token = form_page(ana)
    started = start_by_form(ana, ["Ana", "Ben", "Cem"], key=key, token=ana_token)
    assert started.status_code == 302
    _, eve_token = form_page(eve)
    replayed = start_by_form(eve, ["Dora", "Emil", "Fay"], key=key, token=eve_token)
    assert replayed.status_code == 302
    assert replayed["Location"] != started["Location"]
    assert Sheet.objects.count() == 2
    page = eve.get(replayed["Location"]).content.decode()
    assert "This sheet was started already" not in page
    assert "Dora" in page


def test_form_the_same_browser_sending_its_form_again_gets_its_sheet():
    """Finding 1 (form): Back and Start again in the same browser is still one sheet."""
    browser = Client(enforce_csrf_checks=True)
    key, token = form_page(browser)
    first = start_by_form(browser, ["Ana", "Ben", "Cem"], key=key, token=token)
    again = start_by_form(browser, ["Ana", "Ben", "Dora"], key=key, token=token)
    assert again["Location"] == first["Location"]
    assert Sheet.objects.count() == 1


def test_form_two_copies_sent_before_the_first_answer_came_back_are_one_sheet():
    """Finding 1 (form): the scope is fixed when the form is shown (its CSRF cookie),
    not by the first answer: a double tap whose copies both left before any answer
    carried a cookie is still one sheet."""
    page = Client(enforce_csrf_checks=True)
    key, token = form_page(page)
    cookie = page.cookies["csrftoken"].value
    copies = []
    for _ in range(2):
        tap = Client(enforce_csrf_checks=True)  # nothing from the other copy's answer
        tap.cookies["csrftoken"] = cookie
        copies.append(start_by_form(tap, ["Ana", "Ben", "Cem"], key=key, token=token))
    assert copies[0]["Location"] == copies[1]["Location"]
    assert Sheet.objects.count() == 1


def test_form_posted_without_a_csrf_cookie_gets_one_and_its_retry_is_answered_once(client):
    """Finding 1 (form): a POST that had no CSRF cookie (only where the check is off)
    is given one with its answer, so that its retry finds the first sheet."""
    form = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "idempotency_key": "k" * 32}
    first = client.post(FORM, form)
    assert "csrftoken" in first.cookies
    again = client.post(FORM, form)
    assert again["Location"] == first["Location"]
    assert Sheet.objects.count() == 1


def test_form_scopes_keep_no_secret():
    """Finding 1 (form): the CSRF secret is kept only as a digest in the key's scope."""
    browser = Client(enforce_csrf_checks=True)
    key, token = form_page(browser)
    start_by_form(browser, ["Ana", "Ben", "Cem"], key=key, token=token)
    (scope,) = IdempotencyKey.objects.values_list("scope", flat=True)
    assert browser.cookies["csrftoken"].value not in scope
    assert scope.startswith("sheets:form:anonymous:")
