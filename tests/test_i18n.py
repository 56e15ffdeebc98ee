"""English, German and Esperanto (issue 10): the language follows the browser, can be
switched on every page and is remembered, and every address carries its language so a
shared link opens in the sender's language. Numbers follow the language ("1.234" and
"−50" in German). The JSON API keeps its field names and values; its messages follow
Accept-Language.

The test that nothing is left in English is tests/test_translations.py.
"""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games import services
from games.models import Sheet
from games.templatetags.sheets import number as number_filter
from games.templatetags.sheets import signed as signed_filter
from scorekeeper import i18n

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("accept", "prefix"),
    [
        ("de-DE,de;q=0.9,en;q=0.5", "/de/"),
        ("eo", "/eo/"),
        ("en-GB,en;q=0.8", "/en/"),
        ("fr-FR,fr;q=0.9", "/en/"),  # a language we do not have: English
        ("fr-FR,de;q=0.5", "/de/"),  # the first language we have
    ],
)
def test_an_address_without_a_language_follows_the_browser(client, accept, prefix):
    response = client.get("/", HTTP_ACCEPT_LANGUAGE=accept)
    assert response.status_code == 302
    assert response["Location"] == prefix
    assert client.get("/rules/skat/", HTTP_ACCEPT_LANGUAGE=accept)["Location"] == (
        prefix + "rules/skat/"
    )


def test_a_shared_link_opens_in_the_senders_language_whatever_the_browser_says(client):
    page = client.get("/de/rules/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    assert '<html lang="de">' in page.content.decode()
    # Links on the page stay in the page's language.
    assert 'href="/de/referee/"' in page.content.decode()


def test_the_share_links_of_a_sheet_carry_its_readers_language(client):
    sheet = services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    page = client.get(f"/eo/s/{sheet.edit_token}/").content.decode()
    assert f"http://testserver/eo/v/{sheet.view_token}/" in page


def test_the_language_switch_is_on_every_page_and_is_remembered(client):
    page = client.get("/en/rules/skat/").content.decode()
    assert f'action="{reverse("set-language")}"' in page
    for code in ("en", "de", "eo"):
        assert f'name="language" value="{code}"' in page
    assert 'aria-current="true">English</button>' in page

    switched = client.post(reverse("set-language"), {"language": "de", "next": "/en/rules/skat/"})
    assert switched.status_code == 302
    assert switched["Location"] == "/de/rules/skat/"  # the same page, in German
    assert client.cookies["django_language"].value == "de"
    # Remembered: an address without a language opens in German, whatever the browser.
    assert client.get("/", HTTP_ACCEPT_LANGUAGE="en")["Location"] == "/de/"


def test_a_switch_to_an_unknown_language_changes_nothing(client):
    response = client.post(reverse("set-language"), {"language": "xx", "next": "/en/"})
    assert response.status_code == 302
    assert "django_language" not in client.cookies


def test_a_switch_never_sends_the_reader_to_another_site(client):
    response = client.post(
        reverse("set-language"), {"language": "eo", "next": "https://evil.example/"}
    )
    assert response.status_code == 302
    assert not response["Location"].startswith("https://evil.example")


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("en", ["1234", "−50", "+50", "0", "7"]),
        ("de", ["1.234", "−50", "+50", "0", "7"]),
        ("eo", ["1\xa0234", "−50", "+50", "0", "7"]),
    ],
)
def test_numbers_and_signs_follow_the_language(language, shown):
    with translation.override(language):
        assert [
            i18n.number(1234),
            i18n.number(-50),
            i18n.signed(50),
            i18n.signed(0),
            number_filter(7),
        ] == shown
        assert signed_filter(-1234) == "−" + shown[0]


def test_a_sheets_totals_are_written_as_its_readers_language_writes_numbers(client):
    # Skat: Grand Ouvert with 4 is worth 11 levels × 24 = 264 (ISkO 4.1, 5.1.4: ouvert
    # is a hand game, schwarz announced); after four of them Seeger-Fabian's list
    # (ISkO 5.2.3) shows the others −1056.
    sheet = services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    for _ in range(5):
        services.hand_record(
            sheet=sheet,
            data={
                "declarer": 0,
                "game": "grand",
                "bid": 18,
                "matadors": {"with": 4},
                "ouvert": True,
                "hand": True,
                "outcome": "won",
            },
        )
    sheet = Sheet.objects.get(pk=sheet.pk)
    english = client.get(f"/en/s/{sheet.edit_token}/").content.decode()
    german = client.get(f"/de/s/{sheet.edit_token}/").content.decode()
    esperanto = client.get(f"/eo/s/{sheet.edit_token}/").content.decode()
    assert "−1056" in english
    assert "−1.056" in german
    assert "1056" not in german
    assert "−1\xa0056" in esperanto
    assert "1056" not in esperanto


def test_the_api_keeps_its_names_and_values_and_speaks_the_requests_language(client):
    body = json.dumps({"game": "grand", "bid": 24, "outcome": "won", "matadors": {"with": 9}})

    def ask(language: str) -> dict:
        response = client.post(
            "/api/v1/skat/score",
            body,
            content_type="application/json",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        assert response.status_code in (400, 422)
        return response.json()

    english, german, esperanto = ask("en"), ask("de"), ask("eo")
    assert english.keys() == german.keys() == esperanto.keys()
    fields = [[p.get("field") for p in answer["errors"]] for answer in (english, german)]
    assert fields[0] == fields[1]
    messages = [answer["errors"][0]["message"] for answer in (english, german, esperanto)]
    assert len(set(messages)) == 3, messages

    won = json.dumps({"game": "grand", "bid": 24, "outcome": "won", "matadors": {"with": 2}})
    answers = [
        client.post(
            "/api/v1/skat/score", won, content_type="application/json", HTTP_ACCEPT_LANGUAGE=lang
        ).json()
        for lang in ("en", "de")
    ]
    assert answers[0].keys() == answers[1].keys()
    # Everything but the sentences is the same: the levels are named by their codes.
    sentences = {"explanation", "steps"}
    assert {k: v for k, v in answers[0].items() if k not in sentences} == {
        k: v for k, v in answers[1].items() if k not in sentences
    }
    assert answers[0]["explanation"] != answers[1]["explanation"]
