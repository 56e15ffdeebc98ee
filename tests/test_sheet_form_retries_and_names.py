"""The score sheet's forms as a player meets them (found by an independent audit,
played through the forms in each language): a changed deal sent again from a form
whose first send was saved, and names that look the same or show as nothing."""

from __future__ import annotations

import re
import unicodedata

import pytest
from django.test import Client

from games.models import Sheet
from games.selectors import live_hands

from .forms_as_browser import submissions

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}

# The app's own messages, in each language (locale/*/LC_MESSAGES/django.po).
ALREADY_AT_TABLE = {
    "en": "is already at the table",
    "de": "sitzt schon am Tisch",
    "eo": "jam sidas ĉe la tablo",
}
NEEDS_A_NAME = {"en": "needs a name", "de": "braucht einen Namen", "eo": "bezonas nomon"}
SAVED_ALREADY = {
    "en": "This form had saved its deal already",
    "de": "Dieses Formular hatte sein Spiel schon gespeichert",
    "eo": "Ĉi tiu formularo jam konservis sian ludon",
}


# -- helpers: the pages as a browser sends them ----------------------------------------------


def _form(client: Client, url: str, action: str) -> dict[str, list[str]]:
    """What the page's form posting to ``action`` sends untouched, as a browser would."""
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    found = [
        s
        for s in submissions(page.content.decode(), "http://testserver" + url)
        if s.method == "post" and s.url.endswith(action)
    ]
    assert found, f"no form posting to {action} on {url}"
    data: dict[str, list[str]] = {}
    for name, value in found[0].data:
        data.setdefault(name, []).append(value)
    return data


def start_form(client: Client, lang: str, game: str, names: list[str]):
    url = f"/{lang}/new/{game}/"
    data = _form(client, url, f"/new/{game}/")
    for seat, name in enumerate(names):
        data[f"player_{seat}"] = [name]
    return client.post(url, data)


def start_sheet(client: Client, lang: str, game: str, names: list[str]) -> Sheet:
    response = start_form(client, lang, game, names)
    assert response.status_code == 302, response.status_code
    token = response["Location"].rstrip("/").rsplit("/", 1)[-1]
    return Sheet.objects.get(edit_token=token)


def entry_form(client: Client, url: str, **fields: str) -> dict[str, list[str]]:
    data = _form(client, url, url)
    for name, value in fields.items():
        data[name] = [value]
    return data


def messages_shown(response) -> list[str]:
    """The problems the page shows: the error box's list and the messages at the fields."""
    page = response.content.decode()
    boxes = " ".join(re.findall(r'<div class="error-box"[^>]*>(.*?)</div>', page, re.S))
    found = re.findall(r"<li>(.*?)</li>", boxes, re.S)
    found += re.findall(r'<p class="field-error" role="alert">(.*?)</p>', page, re.S)
    return [" ".join(re.sub(r"<[^>]+>", " ", text).split()) for text in found]


def totals(client: Client, sheet: Sheet) -> list[int]:
    response = client.get(
        f"/api/v1/sheets/{sheet.pk}", HTTP_AUTHORIZATION=f"Bearer {sheet.view_token}"
    )
    return response.json()["totals"]


# -- A deal changed and sent again from the same form ---------------------------------------


@pytest.mark.parametrize("htmx", [True, False], ids=["htmx", "plain"])
@pytest.mark.parametrize("lang", ["en", "de", "eo"])
def test_a_changed_deal_sent_again_from_the_same_form_is_not_counted_twice(client, lang, htmx):
    """A deal is saved but the answer never reaches the phone, so the form is still
    there; the player changes it ("won" should be "lost") and taps Save again, the form
    still carrying its first key and version. The answer is the sheet as it is now (412;
    without script a redirect to it) with a message in the player's words that the
    form had saved its deal already: nothing stored twice, and no talk of an
    Idempotency-Key (the API's word), which a player never sees. Before, the page said
    the API's sentence and handed the form a fresh key, so a third tap saved the deal
    a second time."""
    sheet = start_sheet(client, lang, "skat", ["Jürgen", "Öle", "Ärmin"])
    url = f"/{lang}/s/{sheet.edit_token}/"
    extra = HTMX if htmx else {}
    # Öle's Grand Hand with 2, won: (2 + 1 + 1) × 24 = 96.
    form = entry_form(
        client, url, declarer="1", game="grand", bid="48", hand="on", matadors_tap="with-2"
    )
    first = client.post(url, form, **extra)
    assert first.status_code in (200, 302)
    assert totals(client, sheet) == [0, 96, 0]

    changed = {**form, "outcome": ["lost"]}
    again = client.post(url, changed, **extra)
    if htmx:
        assert again.status_code == 412
        shown = messages_shown(again)
    else:
        assert again.status_code == 302
        shown = [
            " ".join(re.sub(r"<[^>]+>", " ", text).split())
            for text in re.findall(
                r'<div class="error-box" role="alert"><p>(.*?)</p>',
                client.get(url).content.decode(),
                re.S,
            )
        ]
    assert totals(client, sheet) == [0, 96, 0]
    assert len(live_hands(sheet)) == 1
    assert any(SAVED_ALREADY[lang] in m for m in shown), shown
    assert not [m for m in shown if "Idempotency" in m], shown


# -- Player names at the start of a sheet ---------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["Jürgen", "Zoë", "Åse"],
)
@pytest.mark.parametrize("lang", ["en", "de", "eo"])
def test_the_same_name_typed_in_two_unicode_spellings_is_refused(client, lang, name):
    """Two seats named "Jürgen": one typed as "ü" (U+00FC, what most keyboards send),
    one as "u" plus the combining diaeresis U+0308 (what a paste from some apps, or a
    Mac, sends). Unicode says the two spellings are canonically equivalent: the same
    text, and they look the same on the sheet.

    Before, the sheet started (302) with two identical-looking seats. The totals,
    the Seeger-Fabian tally and every message that names a player ("Jürgen dealt this
    deal …") could not be told apart. Now the same name in another Unicode spelling
    gets the answer the same name typed twice gets, even in another case ("JÜRGEN is
    already at the table; give each seat its own name.", 422, nothing stored): names
    are kept in one spelling (NFC, games.services.tidy_name).
    """
    decomposed = unicodedata.normalize("NFD", name)
    assert decomposed != name
    response = start_form(client, lang, "skat", [name, decomposed, "Cem"])
    assert response.status_code == 422
    assert not Sheet.objects.exists()
    assert any(ALREADY_AT_TABLE[lang] in m for m in messages_shown(response))


@pytest.mark.parametrize(
    "invisible",
    ["\u200b", "\u2060", "\ufeff", "\u200b\u200d"],
    ids=["zero-width-space", "word-joiner", "bom", "zwsp-zwj"],
)
@pytest.mark.parametrize("lang", ["en", "de", "eo"])
def test_a_name_of_only_invisible_characters_is_refused(client, lang, invisible):
    """A seat "named" only with zero-width characters (a zero-width space, a word
    joiner, a byte-order mark: easy to get by pasting). The name shows as nothing.

    Before, the sheet started (302) with a seat whose name showed as nothing in the
    totals, the declarer buttons and every message. It looks blank, so it gets a blank
    seat's answer: "Seat 1 needs a name." (422, nothing stored). Format characters
    inside a real name (an emoji's ZWJ, a right-to-left mark, tests/test_names_control.py)
    are still fine; only a name with no visible character is refused.
    """
    response = start_form(client, lang, "skat", [invisible, "Ben", "Cem"])
    assert response.status_code == 422
    assert not Sheet.objects.exists()
    assert any(NEEDS_A_NAME[lang] in m for m in messages_shown(response))
