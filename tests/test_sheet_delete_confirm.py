"""Deleting a sheet takes two steps, without JavaScript: the sheet page links to a page
that asks first (names the sheet, says the trash keeps it), and only its button deletes.
The trash still brings the sheet back."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from games import services

pytestmark = pytest.mark.django_db


def _sheet(owner=None):
    return services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"], owner=owner)


def test_the_sheet_page_asks_before_it_deletes(client):
    sheet = _sheet()
    delete_url = f"/en/s/{sheet.edit_token}/delete"
    page = client.get(f"/en/s/{sheet.edit_token}/").content.decode()
    # No form on the sheet page posts to the delete address: one tap cannot delete.
    assert f'action="{delete_url}"' not in page
    assert f'href="{delete_url}"' in page

    asked = client.get(delete_url)
    assert asked.status_code == 200
    text = asked.content.decode()
    assert "Ana, Ben, Cem" in text
    assert "trash" in text
    assert f'action="{delete_url}"' in text
    assert f'href="/en/s/{sheet.edit_token}/"' in text  # keep it: back to the sheet
    sheet.refresh_from_db()
    assert sheet.deleted_at is None

    assert client.post(delete_url).status_code == 302
    sheet.refresh_from_db()
    assert sheet.deleted_at is not None
    # The trash brings it back.
    client.post(f"/en/s/{sheet.edit_token}/undelete")
    sheet.refresh_from_db()
    assert sheet.deleted_at is None


def test_who_may_not_delete_is_not_asked(client):
    owner = User.objects.create_user("olga", password="pw-long-enough-1")
    sheet = _sheet(owner=owner)
    response = client.get(f"/en/s/{sheet.edit_token}/delete", follow=True)
    assert response.redirect_chain[0][0] == f"/en/s/{sheet.edit_token}/"
    assert "Only the account that started this sheet can delete it." in response.content.decode()
    sheet.refresh_from_db()
    assert sheet.deleted_at is None
    assert client.get(f"/en/s/{sheet.view_token}/delete").status_code == 404


def test_a_sheet_in_the_trash_is_not_asked_about_again(client):
    sheet = _sheet()
    services.sheet_delete(sheet=sheet)
    assert client.get(f"/en/s/{sheet.edit_token}/delete").status_code == 404
