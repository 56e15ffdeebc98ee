"""Nothing lost, nothing counted twice: deals named by their identity, If-Match, the
history and its way back, any number of undos, the trash, new links, and
Idempotency-Keys scoped to the link or account that sent them and kept for a month."""

from __future__ import annotations

import datetime
import json

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from games import services
from games.models import Hand, IdempotencyKey, Sheet, SheetEvent
from games.selectors import live_hands

pytestmark = pytest.mark.django_db

PLAYERS = ["Ana", "Ben", "Cem"]


def penalties(*points: int) -> dict:
    return {"penalties": list(points)}


ROUNDS = [penalties(0, 25, 40), penalties(10, 0, 30), penalties(5, 5, 0), penalties(0, 10, 10)]


def sheet_with(*rounds: dict, owner=None) -> Sheet:
    sheet = services.sheet_create(game="manipulation", players=PLAYERS, owner=owner)
    for data in rounds:
        services.hand_record(sheet=sheet, data=data)
    sheet.refresh_from_db()
    return sheet


def entries(sheet: Sheet) -> list[dict]:
    return [hand.entry for hand in live_hands(sheet)]


def api(client, method: str, path: str, body=None, *, token: str, **headers):
    data = json.dumps(body) if body is not None else ""
    extra = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    for name, value in headers.items():
        extra["HTTP_" + name.upper().replace("-", "_")] = value
    response = getattr(client, method)(path, data, content_type="application/json", **extra)
    return response.status_code, response.json(), response


# -- The API: a retried DELETE or PUT never reaches the next deal ------------------------------


def test_a_delete_sent_twice_with_its_key_removes_one_deal(client):
    # Today's finding: DELETE /hands/3 sent twice removed deal 3 and then the former 4.
    sheet = sheet_with(*ROUNDS)
    path = f"/api/v1/sheets/{sheet.pk}/hands/3"
    first = api(client, "delete", path, token=sheet.edit_token, idempotency_key="del-3")
    again = api(client, "delete", path, token=sheet.edit_token, idempotency_key="del-3")
    assert first[0] == again[0] == 200
    assert first[1] == again[1]
    assert entries(sheet) == [ROUNDS[0], ROUNDS[1], ROUNDS[3]]


def test_a_delete_by_the_deals_id_finds_it_gone_the_second_time(client):
    sheet = sheet_with(*ROUNDS)
    third = live_hands(sheet)[2]
    path = f"/api/v1/sheets/{sheet.pk}/hands/3?id={third.pk}"
    assert api(client, "delete", path, token=sheet.edit_token)[0] == 200
    status, body, _ = api(client, "delete", path, token=sheet.edit_token)
    assert status == 404
    assert "no longer on the sheet" in body["errors"][0]["message"]
    assert entries(sheet) == [ROUNDS[0], ROUNDS[1], ROUNDS[3]]


def test_every_deal_carries_its_id(client):
    sheet = sheet_with(*ROUNDS[:2])
    status, body, _ = api(client, "get", f"/api/v1/sheets/{sheet.pk}", token=sheet.view_token)
    assert status == 200
    assert [hand["id"] for hand in body["hands"]] == [h.pk for h in live_hands(sheet)]


def test_if_match_refuses_a_write_from_an_older_sheet_with_412_and_the_sheet_now(client):
    sheet = sheet_with(*ROUNDS[:2])
    _, _, read = api(client, "get", f"/api/v1/sheets/{sheet.pk}", token=sheet.view_token)
    old_etag = read["ETag"]
    # Another phone adds a deal meanwhile.
    services.hand_record(sheet=sheet, data=ROUNDS[2])
    path = f"/api/v1/sheets/{sheet.pk}/hands/2"
    for method, body in (("delete", None), ("put", ROUNDS[3])):
        status, answer, _ = api(
            client, method, path, body, token=sheet.edit_token, if_match=old_etag
        )
        assert status == 412
        assert "changed meanwhile" in answer["errors"][0]["message"]
        assert len(answer["sheet"]["hands"]) == 3
    status, answer, _ = api(
        client, "post", f"/api/v1/sheets/{sheet.pk}/hands", ROUNDS[3],
        token=sheet.edit_token, if_match=old_etag,
    )  # fmt: skip
    assert status == 412
    assert entries(sheet) == ROUNDS[:3]


def test_if_match_with_the_current_etag_writes_and_answers_the_new_etag(client):
    sheet = sheet_with(*ROUNDS[:2])
    _, _, read = api(client, "get", f"/api/v1/sheets/{sheet.pk}", token=sheet.view_token)
    status, _, response = api(
        client, "post", f"/api/v1/sheets/{sheet.pk}/hands", ROUNDS[2],
        token=sheet.edit_token, if_match=read["ETag"],
    )  # fmt: skip
    assert status == 201
    sheet.refresh_from_db()
    assert response["ETag"] == f'"{sheet.pk}-{sheet.version}"'
    # The bare version works too; anything else is a 400 that changes nothing.
    status, _, _ = api(
        client, "delete", f"/api/v1/sheets/{sheet.pk}/hands/3",
        token=sheet.edit_token, if_match=str(sheet.version),
    )  # fmt: skip
    assert status == 200
    status, body, _ = api(
        client, "delete", f"/api/v1/sheets/{sheet.pk}/hands/2",
        token=sheet.edit_token, if_match="yesterday",
    )  # fmt: skip
    assert status == 400
    assert "ETag" in body["errors"][0]["message"]
    assert len(entries(sheet)) == 2


# -- Keys: scoped to the link or account that sent them, and kept for a month -----------------


def test_a_key_is_answered_only_to_the_link_that_sent_it(client):
    first = sheet_with()
    second = sheet_with()
    status, _, _ = api(
        client, "post", f"/api/v1/sheets/{first.pk}/hands", ROUNDS[0],
        token=first.edit_token, idempotency_key="same-key",
    )  # fmt: skip
    assert status == 201
    status, body, _ = api(
        client, "post", f"/api/v1/sheets/{second.pk}/hands", ROUNDS[1],
        token=second.edit_token, idempotency_key="same-key",
    )  # fmt: skip
    # Another sheet's link: its own deal is stored, nothing of the first sheet's comes back.
    assert status == 201
    assert body["hand"]["entry"] == ROUNDS[1]
    assert entries(second) == [ROUNDS[1]]


def test_creating_sheets_keys_belong_to_the_account(client):
    ana = User.objects.create_user("ana", password="pw-long-enough-1")
    body = {"game": "manipulation", "players": PLAYERS}
    client.force_login(ana)
    first = client.post(
        "/api/v1/sheets", json.dumps(body), content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="new-sheet",
    )  # fmt: skip
    assert first.status_code == 201
    other = type(client)()
    again = other.post(
        "/api/v1/sheets", json.dumps(body), content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="new-sheet",
    )  # fmt: skip
    # Anybody else replaying the key gets a sheet of their own, never Ana's tokens.
    assert again.status_code == 201
    assert again.json()["edit_token"] != first.json()["edit_token"]
    assert Sheet.objects.count() == 2


def test_a_deal_kept_offline_for_days_is_stored_once_when_sent_again(client):
    # The phone sent the deal, the answer was lost, and the phone stayed without a
    # connection for a week: the deal waits there with its key (offline.js) and is
    # sent again. The key is remembered: the first answer, nothing stored twice.
    sheet = sheet_with()
    path = f"/api/v1/sheets/{sheet.pk}/hands"
    api(client, "post", path, ROUNDS[0], token=sheet.edit_token, idempotency_key="k")
    IdempotencyKey.objects.update(created_at=timezone.now() - datetime.timedelta(days=7))
    status, body, _ = api(
        client, "post", path, ROUNDS[0], token=sheet.edit_token, idempotency_key="k"
    )
    assert status == 201
    assert body["hand"]["number"] == 1
    assert entries(sheet) == [ROUNDS[0]]


def test_a_key_is_forgotten_after_a_month(client):
    sheet = sheet_with()
    path = f"/api/v1/sheets/{sheet.pk}/hands"
    api(client, "post", path, ROUNDS[0], token=sheet.edit_token, idempotency_key="k")
    age = datetime.timedelta(days=services.KEY_DAYS, hours=1)
    IdempotencyKey.objects.update(created_at=timezone.now() - age)
    status, body, _ = api(
        client, "post", path, ROUNDS[0], token=sheet.edit_token, idempotency_key="k"
    )
    assert status == 201
    assert body["hand"]["number"] == 2


def test_clearexpired_forgets_old_keys_and_empties_old_trash():
    sheet = sheet_with(ROUNDS[0])
    fresh = sheet_with()
    IdempotencyKey.objects.create(scope="s", key="old", fingerprint="x", status=201, response={})
    IdempotencyKey.objects.create(scope="s", key="new", fingerprint="x", status=201, response={})
    IdempotencyKey.objects.filter(key="old").update(
        created_at=timezone.now() - datetime.timedelta(days=services.KEY_DAYS + 1)
    )
    IdempotencyKey.objects.filter(key="new").update(
        created_at=timezone.now() - datetime.timedelta(days=services.KEY_DAYS - 1)
    )
    services.sheet_delete(sheet=sheet)
    services.sheet_delete(sheet=fresh)
    Sheet.objects.filter(pk=sheet.pk).update(
        deleted_at=timezone.now() - datetime.timedelta(days=31)
    )
    from django.core.management import call_command

    call_command("clearexpired", verbosity=0)
    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["new"]
    assert list(Sheet.objects.values_list("pk", flat=True)) == [fresh.pk]


# -- The pages: undo, bring back, delete by identity ------------------------------------------


def test_two_taps_on_undo_undo_one_deal_and_every_undo_comes_back(client):
    sheet = sheet_with(*ROUNDS[:3])
    last = live_hands(sheet)[-1]
    url = f"/en/s/{sheet.edit_token}/undo"
    # Both taps name the deal the button showed: the second finds it undone already.
    first = client.post(url, {"hand": last.pk}, HTTP_HX_REQUEST="true")
    second = client.post(url, {"hand": last.pk}, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    assert second.status_code == 422
    assert "undone already" in second.content.decode()
    assert entries(sheet) == ROUNDS[:2]
    # Undo once more on purpose, then bring both back, last undone first.
    client.post(url, {"hand": live_hands(sheet)[-1].pk})
    assert entries(sheet) == ROUNDS[:1]
    redo = f"/en/s/{sheet.edit_token}/redo"
    client.post(redo)
    client.post(redo)
    assert entries(sheet) == ROUNDS[:3]


def test_a_second_tap_on_bring_back_brings_back_nothing_more(client):
    sheet = sheet_with(*ROUNDS[:3])
    services.hand_remove(sheet=sheet, number=3)
    services.hand_remove(sheet=sheet, number=2)
    waiting = services.undone_hand(sheet)
    redo = f"/en/s/{sheet.edit_token}/redo"
    assert client.post(redo, {"hand": waiting.pk}, HTTP_HX_REQUEST="true").status_code == 200
    response = client.post(redo, {"hand": waiting.pk}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert entries(sheet) == ROUNDS[:2]


def test_a_page_from_an_older_sheet_gets_412_and_the_sheet_now(client):
    sheet = sheet_with(*ROUNDS[:2])
    old_version = sheet.version
    services.hand_record(sheet=sheet, data=ROUNDS[2])
    second = live_hands(sheet)[1]
    response = client.post(
        f"/en/s/{sheet.edit_token}/deals/2/delete",
        {"hand": second.pk, "version": old_version},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 412
    assert "changed meanwhile" in response.content.decode()
    assert entries(sheet) == ROUNDS[:3]


# -- History and its way back -------------------------------------------------------------------


def test_the_history_keeps_every_change_with_before_and_after(client):
    sheet = sheet_with(*ROUNDS[:3])
    services.hand_correct(sheet=sheet, number=2, data=ROUNDS[3])
    services.hand_remove(sheet=sheet, number=1)
    services.hand_remove(sheet=sheet, number=2)
    kinds = list(
        SheetEvent.objects.filter(sheet=sheet).order_by("pk").values_list("kind", "number")
    )
    assert kinds == [
        ("started", None),
        ("entered", 1),
        ("entered", 2),
        ("entered", 3),
        ("corrected", 2),
        ("removed", 1),
        ("undone", 2),
    ]
    corrected = SheetEvent.objects.get(sheet=sheet, kind="corrected")
    assert (corrected.before, corrected.after) == (ROUNDS[1], ROUNDS[3])
    page = client.get(f"/en/s/{sheet.edit_token}/history/")
    assert page.status_code == 200
    # Manipulation scores rounds: the page says so.
    assert page.content.decode().count("Bring this round back") == 2
    assert "Put this version back" in page.content.decode()
    assert "no-store" in page["Cache-Control"]


def test_a_deleted_deal_comes_back_where_it_was(client):
    sheet = sheet_with(*ROUNDS[:3])
    services.hand_remove(sheet=sheet, number=2)
    removed = SheetEvent.objects.get(sheet=sheet, kind="removed")
    response = client.post(f"/en/s/{sheet.edit_token}/history/{removed.pk}/restore")
    assert response.status_code == 302
    assert entries(sheet) == ROUNDS[:3]
    # Once only.
    client.post(f"/en/s/{sheet.edit_token}/history/{removed.pk}/restore")
    assert entries(sheet) == ROUNDS[:3]


def test_an_overwritten_deal_gets_its_earlier_entry_back(client):
    sheet = sheet_with(*ROUNDS[:3])
    services.hand_correct(sheet=sheet, number=2, data=ROUNDS[3])
    corrected = SheetEvent.objects.get(sheet=sheet, kind="corrected")
    services.event_recover(sheet=sheet, event_id=corrected.pk)
    assert entries(sheet) == ROUNDS[:3]


def test_an_undone_deal_replaced_by_a_new_one_still_comes_back_from_the_history():
    sheet = sheet_with(*ROUNDS[:2])
    services.hand_remove(sheet=sheet, number=2)
    services.hand_record(sheet=sheet, data=ROUNDS[2])
    undone = SheetEvent.objects.get(sheet=sheet, kind="undone")
    services.event_recover(sheet=sheet, event_id=undone.pk)
    assert entries(sheet) == [ROUNDS[0], ROUNDS[1], ROUNDS[2]]


def test_the_history_says_who_changed_what():
    ana = User.objects.create_user("ana", password="pw-long-enough-1")
    sheet = sheet_with()
    services.hand_record(sheet=sheet, data=ROUNDS[0], by=services.Actor(user=ana, via="link"))
    services.hand_record(sheet=sheet, data=ROUNDS[1], by=services.Actor(via="api"))
    events = SheetEvent.objects.filter(sheet=sheet, kind="entered").order_by("pk")
    assert [(e.user, e.via) for e in events] == [(ana, "link"), (None, "api")]


# -- The trash and new links --------------------------------------------------------------------


def test_a_deleted_sheet_waits_in_the_trash_and_comes_back(client):
    sheet = sheet_with(*ROUNDS[:2])
    assert client.post(f"/en/s/{sheet.edit_token}/delete").status_code == 302
    page = client.get(f"/en/s/{sheet.edit_token}/")
    assert page.status_code == 410
    assert "in the trash" in page.content.decode()
    assert client.get(f"/en/v/{sheet.view_token}/").status_code == 410
    status, _, _ = api(client, "get", f"/api/v1/sheets/{sheet.pk}", token=sheet.view_token)
    assert status == 410
    # Writes are refused while it is there.
    client.post(f"/en/s/{sheet.edit_token}/", {"mode": "penalties"})
    assert Hand.objects.filter(sheet=sheet).count() == 2
    assert client.post(f"/en/s/{sheet.edit_token}/undelete").status_code == 302
    assert client.get(f"/en/s/{sheet.edit_token}/").status_code == 200
    assert entries(sheet) == ROUNDS[:2]


def test_only_the_account_that_started_a_sheet_may_delete_it(client):
    owner = User.objects.create_user("olga", password="pw-long-enough-1")
    sheet = sheet_with(ROUNDS[0], owner=owner)
    client.post(f"/en/s/{sheet.edit_token}/delete")
    sheet.refresh_from_db()
    assert sheet.deleted_at is None
    client.force_login(owner)
    client.post(f"/en/s/{sheet.edit_token}/delete")
    sheet.refresh_from_db()
    assert sheet.deleted_at is not None


def test_new_links_stop_the_old_ones_at_once(client):
    sheet = sheet_with(ROUNDS[0])
    old_edit, old_view = sheet.edit_token, sheet.view_token
    response = client.post(f"/en/s/{old_edit}/links")
    sheet.refresh_from_db()
    assert response["Location"] == f"/en/s/{sheet.edit_token}/"
    assert sheet.edit_token != old_edit
    assert sheet.view_token != old_view
    assert client.get(f"/en/s/{old_edit}/").status_code == 404
    assert client.get(f"/en/v/{old_view}/").status_code == 404
    status, _, _ = api(client, "get", f"/api/v1/sheets/{sheet.pk}", token=old_view)
    assert status == 404
    assert client.get(f"/en/s/{sheet.edit_token}/").status_code == 200
