"""Issue 19: an Idempotency-Key for starting a club evening without an account is
answered only to the client that sent it, as a new sheet's key is
(tests/test_idempotency_scope.py).

Before, every anonymous caller of ``POST /api/v1/evenings`` shared one scope
("evenings:anonymous"): whoever learnt somebody's key and sent it again got that
person's answer replayed, the evening's organiser token included. An answer too large
for its key to keep whole is answered again with the evening as it is now.
"""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from evenings.models import Evening
from games import services as sheet_services
from games.models import IdempotencyKey

pytestmark = pytest.mark.django_db

ANA_ADDRESS = "203.0.113.7"
EVE_ADDRESS = "198.51.100.23"
TODAY = datetime.date.today().isoformat()
BODY = {"game": "skat", "name": "Preisskat", "date": TODAY, "series": 2}


def start(client: Client, *, key: str, address: str, body: dict | None = None):
    return client.post(
        "/api/v1/evenings",
        json.dumps(body or BODY),
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY=key,
        REMOTE_ADDR=address,
    )


def test_two_anonymous_clients_with_one_key_get_an_evening_each():
    """issue 19: another address sending a learnt key never gets the first caller's
    evening, nor its organiser token."""
    first = start(Client(), key="evening-1", address=ANA_ADDRESS)
    assert first.status_code == 201
    other = start(Client(), key="evening-1", address=EVE_ADDRESS)
    assert other.status_code == 201
    assert other.json()["id"] != first.json()["id"]
    assert first.json()["organiser_token"] not in other.content.decode()
    assert first.json()["view_token"] not in other.content.decode()
    assert Evening.objects.count() == 2


def test_the_same_anonymous_client_retrying_gets_the_first_answer():
    """issue 19: the key still answers once for the client that sent it."""
    client = Client()
    first = start(client, key="evening-1", address=ANA_ADDRESS)
    again = start(client, key="evening-1", address=ANA_ADDRESS)
    assert (again.status_code, again.json()) == (first.status_code, first.json())
    assert Evening.objects.count() == 1
    (scope,) = IdempotencyKey.objects.values_list("scope", flat=True)
    assert scope.startswith("evenings:anonymous:")
    assert ANA_ADDRESS not in scope


def test_a_signed_in_caller_keeps_its_evening_key_from_any_address():
    """issue 19: with an account the account is the scope, whatever the address."""
    client = Client()
    client.force_login(User.objects.create_user("ana", password="pw-long-enough-1"))
    first = start(client, key="evening-1", address=ANA_ADDRESS)
    again = start(client, key="evening-1", address=EVE_ADDRESS)
    assert again.json() == first.json()
    assert Evening.objects.count() == 1


def test_a_compact_kept_answer_is_replayed_as_the_evening_now(monkeypatch):
    """issue 19: an answer larger than a key keeps is kept compact; the retry gets the
    evening read again (with its tokens), not only the short members."""
    monkeypatch.setattr(sheet_services, "KEPT_BYTES", 200)
    client = Client()
    first = start(client, key="evening-1", address=ANA_ADDRESS)
    assert first.status_code == 201
    assert IdempotencyKey.objects.get().compact
    again = start(client, key="evening-1", address=ANA_ADDRESS)
    assert (again.status_code, again.json()) == (201, first.json())
    assert Evening.objects.count() == 1


def test_a_compact_kept_roll_is_replayed_as_the_roll_now(monkeypatch):
    """issue 19: a roll write's retry whose answer was kept compact gets the roll."""
    made = start(Client(), key="evening-1", address=ANA_ADDRESS).json()
    monkeypatch.setattr(sheet_services, "KEPT_BYTES", 200)
    client = Client()
    names = {"names": [f"Player {n}" for n in range(12)]}
    headers = {
        "HTTP_AUTHORIZATION": f"Bearer {made['organiser_token']}",
        "HTTP_IDEMPOTENCY_KEY": "roll-1",
    }
    path = f"/api/v1/evenings/{made['id']}/players"
    first = client.post(path, json.dumps(names), content_type="application/json", **headers)
    assert first.status_code == 201
    assert IdempotencyKey.objects.get(key="roll-1").compact
    again = client.post(path, json.dumps(names), content_type="application/json", **headers)
    assert (again.status_code, again.json()) == (201, first.json())
    assert len(again.json()["roll"]) == 12
    assert Evening.objects.get().players.count() == 12
