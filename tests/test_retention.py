"""Issue 19, finding 2: what the app keeps, and for how long.

- An Idempotency-Key keeps its answer whole only up to ``services.KEPT_BYTES``; a
  larger one (the whole sheet a DELETE answers: up to 263 KB a key before) keeps its
  short members, and its retry is answered with the resource as it is now.
- ``services.clear_expired`` forgets keys after KEY_DAYS, empties the trash after
  TRASH_DAYS (a sheet's history goes with it) and deletes expired sessions; a live
  sheet's history is kept as long as the sheet (the "recover" promise).
- The app runs it by itself about every hour (``games.cleanup``): whichever worker
  first finds it due, never two at once, at most once an hour across every worker.
- README and code agree on how long a key lasts.
"""

from __future__ import annotations

import datetime
import importlib
import io
import json
import re
import threading
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import cleanup, services
from games.models import IdempotencyKey, Sheet, SheetEvent
from tests.test_api_sheets import manipulation_rounds, sheet_with

pytestmark = pytest.mark.django_db

THREE = ["Ana", "Ben", "Cem"]
README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def kept_size(row: IdempotencyKey) -> int:
    return len(json.dumps(row.response))


def delete_last(client: Client, sheet: dict, number: int, *, key: str):
    return client.delete(
        f"/api/v1/sheets/{sheet['id']}/hands/{number}",
        HTTP_AUTHORIZATION=f"Bearer {sheet['edit_token']}",
        HTTP_IDEMPOTENCY_KEY=key,
    )


# -- The cap on what a key keeps ---------------------------------------------------------------


def test_a_key_for_a_big_sheet_keeps_less_than_the_limit_and_its_retry_reads_the_sheet(client):
    """Finding 2 (cap): a DELETE's answer is the whole sheet, and its key kept all of it
    (263 KB for a long sheet). Now the key keeps a compact answer, and the retry gets
    the same status and the same sheet, read as it is now."""
    sheet = sheet_with(client, "manipulation", THREE, {"target": 300}, manipulation_rounds(40))
    first = delete_last(client, sheet, 40, key="undo-40")
    assert first.status_code == 200
    assert len(first.content) > services.KEPT_BYTES  # the answer itself is big
    row = IdempotencyKey.objects.get(key="undo-40")
    assert row.compact
    assert kept_size(row) < services.KEPT_BYTES
    again = delete_last(client, sheet, 40, key="undo-40")
    assert again.status_code == first.status_code
    assert again.json() == first.json()
    assert again["ETag"] == first["ETag"]
    assert len(again.json()["hands"]) == 39  # deal 39 was not deleted by the retry


def test_a_compact_answer_replayed_after_a_later_change_is_the_sheet_now(client):
    """Finding 2 (cap): the retry answers the same resource (same status, same sheet)
    as it is at the retry, with the ETag of that version."""
    sheet = sheet_with(client, "manipulation", THREE, {"target": 300}, manipulation_rounds(40))
    first = delete_last(client, sheet, 40, key="undo-40")
    client.post(
        f"/api/v1/sheets/{sheet['id']}/hands",
        json.dumps({"penalties": [0, 5, 5]}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {sheet['edit_token']}",
    )
    again = delete_last(client, sheet, 40, key="undo-40")
    assert again.status_code == 200
    assert again.json()["id"] == first.json()["id"]
    assert len(again.json()["hands"]) == 40  # the new deal 40 is there, not deleted
    assert again["ETag"] != first["ETag"]
    assert again.json()["version"] == first.json()["version"] + 1


def test_a_big_answer_without_a_way_to_read_it_again_keeps_its_short_members():
    """Finding 2 (cap): a caller that cannot re-read its resource gets its short
    members back (ids, version, links): the same status, the same resource named."""
    body = {
        "id": 7,
        "version": 3,
        "urls": {"view": "https://example.org/v/x/"},
        "tables": ["x" * 400] * 100,
    }
    calls = []
    action = lambda: calls.append(1) or (201, body)  # noqa: E731
    assert services.idempotent(scope="t", key="k", print_="p", action=action) == (201, body)
    row = IdempotencyKey.objects.get(key="k")
    assert row.compact
    assert kept_size(row) < services.KEPT_BYTES
    status, replayed = services.idempotent(scope="t", key="k", print_="p", action=action)
    assert status == 201
    assert replayed == {"id": 7, "version": 3, "urls": {"view": "https://example.org/v/x/"}}
    assert calls == [1]


def test_a_big_answer_is_replayed_by_the_callers_reader():
    """Finding 2 (cap): ``replay`` re-reads the resource for a compact answer."""
    body = {"id": 7, "hands": ["x" * 400] * 100}
    reads = []

    def now() -> dict:
        reads.append(1)
        return {"id": 7, "hands": ["now"]}

    services.idempotent(scope="t", key="k", print_="p", action=lambda: (200, body), replay=now)
    assert reads == []  # the first answer is the action's own
    again = services.idempotent(
        scope="t", key="k", print_="p", action=lambda: (500, {}), replay=now
    )
    assert again == (200, {"id": 7, "hands": ["now"]})
    # A different request with the key is still refused, without reading anything.
    assert services.idempotent(scope="t", key="k", print_="q", action=lambda: (200, {}))[0] == 422
    assert reads == [1]


def test_a_small_answer_is_kept_whole_and_replayed_as_it_was():
    body = {"hand": {"number": 1}, "totals": [0, 5, 5]}
    services.idempotent(scope="t", key="k", print_="p", action=lambda: (201, body))
    row = IdempotencyKey.objects.get(key="k")
    assert not row.compact
    assert row.response == body
    reread = services.idempotent(
        scope="t", key="k", print_="p", action=lambda: (500, {}), replay=lambda: {"no": 1}
    )
    assert reread == (201, body)


def test_answers_kept_whole_before_the_cap_are_made_compact_by_the_migration():
    """Finding 2 (cap): the keys already kept (39 MB after an audit) shrink at once."""
    big = IdempotencyKey.objects.create(
        scope="s",
        key="big",
        fingerprint="x",
        status=200,
        response={"id": 1, "hands": ["x" * 99] * 400},
    )
    small = IdempotencyKey.objects.create(
        scope="s", key="small", fingerprint="x", status=201, response={"number": 3}
    )
    migration = importlib.import_module("games.migrations.0006_idempotency_answers_compact")
    migration.compact_kept_answers(apps, connection.schema_editor())
    big.refresh_from_db()
    small.refresh_from_db()
    assert (big.compact, big.response) == (True, {"id": 1})
    assert (small.compact, small.response) == (False, {"number": 3})


# -- What clear_expired purges, and what it keeps -------------------------------------------


def test_clear_expired_deletes_expired_sessions_and_keeps_live_ones():
    """Finding 2 (sessions): Django's sessions were never purged (no clearsessions)."""
    expired, live = SessionStore(), SessionStore()
    for store in (expired, live):
        store["sheets_started"] = [1]
        store.create()
    Session.objects.filter(session_key=expired.session_key).update(
        expire_date=timezone.now() - datetime.timedelta(seconds=1)
    )
    cleared = services.clear_expired()
    assert cleared.sessions == 1
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]


def test_clear_expired_forgets_keys_older_than_key_days_only():
    """Finding 2 (keys): keys older than KEY_DAYS go, younger ones stay."""
    now = timezone.now()
    for name, days in (("old", services.KEY_DAYS + 1), ("young", services.KEY_DAYS - 1)):
        IdempotencyKey.objects.create(scope="s", key=name, fingerprint="x", status=201, response={})
        IdempotencyKey.objects.filter(key=name).update(
            created_at=now - datetime.timedelta(days=days)
        )
    cleared = services.clear_expired(now)
    assert cleared.keys == 1
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["young"]


def test_clear_expired_deletes_a_batch_at_a_time_and_counts_every_one(monkeypatch):
    """The clean-up deletes in short batches, so that on SQLite no delete holds the one
    write lock for long (a busy club's month of keys), and still counts and deletes
    everything due: 7 old keys in batches of 3 are three deletes, 7 keys gone, the
    young one kept."""
    now = timezone.now()
    for number in range(7):
        IdempotencyKey.objects.create(
            scope="s", key=f"old-{number}", fingerprint="x", status=201, response={}
        )
    IdempotencyKey.objects.update(created_at=now - datetime.timedelta(days=services.KEY_DAYS + 1))
    IdempotencyKey.objects.create(scope="s", key="young", fingerprint="x", status=201, response={})
    monkeypatch.setattr(services, "CLEAR_A_BATCH", 3)
    with CaptureQueriesContext(connection) as queries:
        cleared = services.clear_expired(now)
    assert cleared.keys == 7
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["young"]
    deletes = [
        q["sql"] for q in queries if q["sql"].startswith("DELETE") and "idempotency" in q["sql"]
    ]
    assert len(deletes) == 3


def test_history_stays_with_its_sheet_and_goes_with_it_when_the_trash_is_emptied():
    """Finding 2 (history): a sheet's history is kept for the life of the sheet, however
    old (the page promises every change can be brought back); a sheet deleted for good
    takes its history along."""
    now = timezone.now()
    kept = services.sheet_create(game="manipulation", players=THREE)
    services.hand_record(sheet=kept, data={"penalties": [0, 5, 5]})
    gone = services.sheet_create(game="manipulation", players=THREE)
    services.hand_record(sheet=gone, data={"penalties": [0, 5, 5]})
    services.sheet_delete(sheet=gone)
    years = now - datetime.timedelta(days=3 * 365)
    SheetEvent.objects.update(at=years)
    Sheet.objects.filter(pk=gone.pk).update(
        deleted_at=now - datetime.timedelta(days=services.TRASH_DAYS + 1)
    )
    cleared = services.clear_expired(now)
    assert cleared.sheets == 1
    assert not SheetEvent.objects.filter(sheet_id=gone.pk).exists()
    assert SheetEvent.objects.filter(sheet=kept).count() == 2  # started, entered


def test_the_clearexpired_command_says_what_went():
    out = io.StringIO()
    call_command("clearexpired", stdout=out)
    text = out.getvalue()
    assert "idempotency key" in text
    assert "session" in text
    assert f"{services.TRASH_DAYS} days" in text


# -- The clean-up on a schedule, inside the app ----------------------------------------------

HOUR = datetime.timedelta(hours=1)


def test_the_scheduled_clean_up_runs_at_most_once_per_period():
    """Finding 2 (schedule): clearexpired ran only at `make run`; now the app runs it
    when due, and a second worker asking within the hour finds it done."""
    start = timezone.now()
    assert cleanup.clear_expired_when_due(now=start, every=HOUR) is True
    assert cleanup.clear_expired_when_due(now=start, every=HOUR) is False
    assert cleanup.clear_expired_when_due(now=start + HOUR / 2, every=HOUR) is False
    assert cleanup.clear_expired_when_due(now=start + HOUR, every=HOUR) is True
    assert cleanup.clear_expired_when_due(now=start + HOUR * 1.5, every=HOUR) is False


def test_the_scheduled_clean_up_really_purges(monkeypatch):
    IdempotencyKey.objects.create(scope="s", key="old", fingerprint="x", status=201, response={})
    IdempotencyKey.objects.filter(key="old").update(
        created_at=timezone.now() - datetime.timedelta(days=services.KEY_DAYS + 1)
    )
    assert cleanup.clear_expired_when_due(every=HOUR) is True
    assert not IdempotencyKey.objects.filter(key="old").exists()


def test_the_scheduled_clean_up_survives_its_own_mark_being_forgotten():
    """Its mark is an old key like any other once the app sat idle for KEY_DAYS."""
    start = timezone.now()
    assert cleanup.clear_expired_when_due(now=start, every=HOUR) is True
    later = start + datetime.timedelta(days=services.KEY_DAYS + 1)
    services.clear_expired(later)
    assert cleanup.clear_expired_when_due(now=later, every=HOUR) is True
    assert cleanup.clear_expired_when_due(now=later, every=HOUR) is False


@pytest.mark.django_db(transaction=True)
def test_workers_asking_at_the_same_moment_run_the_clean_up_once(monkeypatch):
    """Finding 2 (schedule): never two clean-ups at once: of eight workers finding it
    due together, one runs it."""
    runs = []
    monkeypatch.setattr(services, "clear_expired", lambda now=None: runs.append(now))
    start = threading.Barrier(8)
    now = timezone.now()
    results: list[object] = [None] * 8

    def ask(i: int) -> None:
        try:
            start.wait()
            results[i] = cleanup.clear_expired_when_due(now=now, every=HOUR)
        except Exception as error:
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(results, key=str) == [False] * 7 + [True]
    assert len(runs) == 1


class Clock:
    def __init__(self) -> None:
        self.seconds = 1000.0

    def __call__(self) -> float:
        return self.seconds


def test_the_middleware_asks_once_per_period_per_worker_and_never_fails_a_request(
    monkeypatch, settings
):
    """Finding 2 (schedule): a request asks whether the clean-up is due at most once
    an hour per worker (a clock comparison otherwise), the first time an hour after
    the worker started (``make run`` cleans at start); an error is logged, not
    answered."""
    settings.CLEAR_EXPIRED_EVERY = HOUR
    clock = Clock()
    monkeypatch.setattr(cleanup, "clock", clock)
    asked = []
    monkeypatch.setattr(
        cleanup, "clear_expired_when_due", lambda every: asked.append(every) or True
    )
    ok = HttpResponse("ok")
    worker = cleanup.CleanupMiddleware(lambda request: ok)
    request = RequestFactory().get("/")
    assert worker(request) is ok
    assert asked == []
    clock.seconds += 3599
    worker(request)
    assert asked == []
    clock.seconds += 1
    worker(request)
    worker(request)
    assert asked == [HOUR]
    clock.seconds += 3600

    def broken(every):
        raise RuntimeError("database gone")

    monkeypatch.setattr(cleanup, "clear_expired_when_due", broken)
    assert worker(request) is ok


def test_the_middleware_does_nothing_when_switched_off(monkeypatch, settings):
    settings.CLEAR_EXPIRED_EVERY = None
    clock = Clock()
    monkeypatch.setattr(cleanup, "clock", clock)
    monkeypatch.setattr(cleanup, "clear_expired_when_due", pytest.fail)
    worker = cleanup.CleanupMiddleware(lambda request: HttpResponse("ok"))
    clock.seconds += 10**6
    worker(RequestFactory().get("/"))


def test_the_middleware_is_installed(settings):
    assert "games.cleanup.CleanupMiddleware" in settings.MIDDLEWARE


def test_two_workers_due_together_clean_up_once(monkeypatch, settings):
    """Finding 2 (schedule): the database decides between workers (processes)."""
    settings.CLEAR_EXPIRED_EVERY = HOUR
    clock = Clock()
    monkeypatch.setattr(cleanup, "clock", clock)
    runs = []
    monkeypatch.setattr(services, "clear_expired", lambda now=None: runs.append(now))
    workers = [cleanup.CleanupMiddleware(lambda request: HttpResponse("ok")) for _ in range(2)]
    clock.seconds += 3600
    for worker in workers:
        worker(RequestFactory().get("/"))
    assert len(runs) == 1


# -- README and code agree -------------------------------------------------------------------


def test_readme_says_how_long_a_key_lasts_as_the_code_does():
    """Finding 2: README said "for a day" in one place and "a month" in others; the code
    keeps a key KEY_DAYS days."""
    days = f"{services.KEY_DAYS} days"
    text = " ".join(README.split())
    said = re.findall(r"[^.]*(?:Idempotency-Key|idempotency keys?)[^.]*\.", text, re.IGNORECASE)
    lasting = [s for s in said if re.search(r"\b(day|days|week|month)\b", s)]
    assert len(lasting) >= 3  # offline deals, the API, what is kept for how long
    for sentence in lasting:
        assert days in sentence, sentence
