"""Writes at the same moment: no deadlock, no 500, nothing lost or counted twice.

Runs on whichever database the suite runs on (CI: SQLite, then PostgreSQL). Each
thread has its own connection, as each gunicorn worker thread would.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client

from circles import services as circle_services
from circles.models import Player
from games import services
from games.models import Hand, Sheet
from games.selectors import live_hands

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Ben", "Cem", "Dora", "Emil"]


def together(count: int, work: Callable[[int], object]) -> list[object]:
    """Run ``work(i)`` in ``count`` threads released at the same moment; their results
    (or the exceptions they raised)."""
    start = threading.Barrier(count)
    results: list[object] = [None] * count

    def run(i: int) -> None:
        try:
            start.wait()
            results[i] = work(i)
        except Exception as error:
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_sixteen_sheets_created_at_once_with_shared_names_all_succeed():
    # Today on PostgreSQL 16 concurrent creates sharing 3 of 5 names gave 29 % 500s
    # (deadlocks on the global player rows). Names now belong to their sheet, and a
    # circle's players are found or made one unique row at a time.
    owner = User.objects.create_user("olga", password="pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club")

    def create(i: int) -> object:
        names = [NAMES[i % 5], NAMES[(i + 1) % 5], NAMES[(i + 2) % 5]]
        if i % 2:
            return services.sheet_create(game="skat", players=names)
        return circle_services.sheet_create_in_circle(circle=circle, game="skat", players=names)

    results = together(16, create)
    assert [r for r in results if isinstance(r, Exception)] == []
    assert Sheet.objects.count() == 16
    assert sorted(Player.objects.filter(circle=circle).values_list("name", flat=True)) == NAMES


def test_corrections_racing_new_deals_never_fail_with_a_500():
    sheet = services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"])
    for _ in range(3):
        services.hand_record(sheet=sheet, data={"penalties": [0, 5, 10]})
    path = f"/api/v1/sheets/{sheet.pk}/hands"
    headers = {"HTTP_AUTHORIZATION": f"Bearer {sheet.edit_token}"}

    def write(i: int) -> int:
        client = Client()
        body = json.dumps({"penalties": [0, 5 * (i % 4), 10]})
        if i % 3 == 0:
            response = client.put(f"{path}/1", body, content_type="application/json", **headers)
        elif i % 3 == 1:
            response = client.post(path, body, content_type="application/json", **headers)
        else:
            response = client.delete(f"{path}/2", content_type="application/json", **headers)
        return response.status_code

    statuses = together(12, write)
    assert all(isinstance(status, int) and status < 500 for status in statuses), statuses
    # Every acknowledged new deal is on the sheet once; the deals are numbered 1..n.
    created = sum(1 for i, status in enumerate(statuses) if i % 3 == 1 and status == 201)
    removed = sum(1 for i, status in enumerate(statuses) if i % 3 == 2 and status == 200)
    hands = live_hands(sheet)
    assert len(hands) == 3 + created - removed
    assert [hand.number for hand in hands] == list(range(1, len(hands) + 1))
    assert Hand.objects.filter(sheet=sheet, removed_at__isnull=False).count() <= removed


def test_one_key_sent_at_once_by_eight_threads_stores_one_deal():
    sheet = services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"])
    path = f"/api/v1/sheets/{sheet.pk}/hands"

    def send(_: int) -> int:
        response = Client().post(
            path,
            json.dumps({"penalties": [0, 5, 10]}),
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {sheet.edit_token}",
            HTTP_IDEMPOTENCY_KEY="the-same-deal",
        )
        return response.status_code

    statuses = together(8, send)
    assert statuses == [201] * 8
    assert len(live_hands(sheet)) == 1


def test_a_double_tap_on_the_deal_that_ends_the_series_gets_one_answer_twice():
    # Found under load on PostgreSQL: the second copy looked the key up before the first
    # committed, waited for the sheet's lock, then found the series over (422) instead
    # of answering with the first copy's 201.
    sheet = services.sheet_create(game="skat", players=["A", "B", "C"], options={"series_deals": 2})
    services.hand_record(sheet=sheet, data={"passed": True})
    scope = services.key_scope(sheet=sheet, link=sheet.edit_token)
    first_in = threading.Event()

    def tap(i: int) -> object:
        if i == 1:
            first_in.wait(5)
            time.sleep(0.1)

        def record() -> services.Answer:
            try:
                outcome = services.hand_record(sheet=sheet, data={"passed": True})
            except services.RuleError as error:
                return 422, {"errors": [p.message for p in error.problems]}
            first_in.set()
            time.sleep(0.5)  # the first answer is still on its way when the second comes
            return 201, {"number": outcome.hand.number}

        return services.idempotent(scope=scope, key="tap-1", print_="same", action=record)

    answers = together(2, tap)
    assert answers == [(201, {"number": 2}), (201, {"number": 2})]
    assert len(live_hands(sheet)) == 2
