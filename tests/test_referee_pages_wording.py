"""The referee pages (/<lang>/referee/…) in a player's words, each checked against
the JSON API (/api/v1/…) answering the same question (found by an independent audit).
Each docstring says what the page said before and what it says now, and where."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import urlencode

import pytest

pytestmark = pytest.mark.django_db

POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def ask(client, language: str, path: str, query: dict):
    response = client.get(f"/{language}/referee/{path}?" + urlencode(query, doseq=True))
    return response, response.content.decode()


def text_of(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def problems(page: str) -> list[str]:
    """The messages in the page's summary of what keeps the referee from answering."""
    box = re.search(r'<div class="error-box[^"]*"[^>]*>.*?<ul>(.*?)</ul>', page, re.S)
    assert box, "no summary of problems on the page"
    return [text_of(item) for item in re.findall(r"<li>(.*?)</li>", box.group(1), re.S)]


def api(client, path: str, body: dict):
    response = client.post(path, data=json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


# -- Skat: "What is the game worth?" names the API's fields in German and Esperanto -------

# What the form sends when "Work out the value" is tapped with nothing chosen (the
# matadors and result switches have their defaults), or with a bad number typed.
NOTHING_CHOSEN = {"bid": "", "matadors_by": "count", "result_by": "outcome"}
POINTS_TYPED_AS_TEXT = {
    "game": "clubs",
    "bid": "18",
    "matadors_tap": "with-2",
    "result_by": "points",
    "declarer_points": "abc",
    "declarer_tricks": "6",
}


@pytest.mark.parametrize("language", ["de", "eo"])
@pytest.mark.parametrize(
    ("query", "field_names"),
    [
        (NOTHING_CHOSEN, ("game", "bid")),
        ({**NOTHING_CHOSEN, "game": "hearts"}, ("bid",)),
        (POINTS_TYPED_AS_TEXT, ("declarer_points",)),
    ],
    ids=["nothing-chosen", "no-bid", "points-not-a-number"],
)
def test_skat_value_page_names_the_json_fields_in_german_and_esperanto(
    client, language, query, field_names
):
    """Submitting the Skat game-value form without a game or a bid (or with text in
    "card points") answered, in German, „game“ fehlt. / „bid“ fehlt. / „declarer_points“
    muss eine ganze Zahl sein, nicht Text. (Esperanto: “bid” mankas. …): the English
    names of the JSON API's fields, which appear nowhere on the form (its labels say
    Spiel, Reizwert, Augen). The other referee tools say "Wähle das Spiel, das gespielt
    wird.", and the sheet's deal form rewrites the same reader messages in its own words
    (entry_forms.form_problems: "never a JSON field"). Now the page names its controls in the page's
    language, as the sheet's entry form does.

    Where: games/referee_pages/skat.py `_score` extends the page's problems with the
    deal reader's UnreadableInput messages as they are (games/api_input.py `label()`
    gives the raw field name outside English), and `value()` neither uses `_choose_game`
    nor passes the problems through entry_forms.form_problems.
    """
    response, page = ask(client, language, "skat/value/", query)
    assert response.status_code == 422
    shown = problems(page)
    named = [m for m in shown for name in field_names if re.search(rf"\b{name}\b", m)]
    assert not named, named


def test_skat_value_page_calls_a_huge_bid_text(client):
    """A bid of 999999999999999999999 (typed into a link, or any bid over 9 digits) was
    answered "Bid must be a whole number, not text." It is a whole number, only far too
    large; the API, given the same bid, says "Bid is far too large." Now the page says it
    is too large, as the API does.

    Where: games/entry_forms.py `int_or_text` keeps numbers over MAX_DIGITS (9) as text
    "so the rules answer 'give a number from … to …'", but the Skat deal reader
    (games/deal_input/skat.py via games/api_input.py `_whole_number`) answers "not text".
    """
    huge = "999999999999999999999"
    status, body = api(
        client,
        "/api/v1/skat/score",
        {"game": "clubs", "bid": int(huge), "matadors": {"with": 2}, "outcome": "won"},
    )
    assert 400 <= status < 500
    response, page = ask(
        client,
        "en",
        "skat/value/",
        {"game": "clubs", "bid": huge, "matadors_tap": "with-2", "outcome": "won"},
    )
    assert response.status_code == 422
    shown = problems(page)
    assert not [m for m in shown if "not text" in m], shown
    assert any("large" in m for m in shown), (shown, body)


def test_skat_value_message_for_one_trick_is_good_english(client):
    """Declarer's 12 cards given, and one trick of the declarer that holds none of the
    declarer's own cards: the page said "…, so 1 trick need 1 of them; these cards hold
    0." The singular now reads "1 trick needs 1 of them".

    Where: the singular msgids in games/rules/skat.py (about lines 1199 and 1212):
    "{n} trick need {n} of them; …".
    """
    twelve = ["JC", "JS", "AC", "10C", "KC", "AS", "10S", "7H", "8H", "9D", "7D", "8D"]
    response, page = ask(
        client,
        "en",
        "skat/value/",
        {
            "game": "grand",
            "bid": "18",
            "matadors_by": "cards",
            "declarer_cards": twelve,
            "result_by": "cards",
            "declarer_trick_cards": ["AH", "KH", "QH"],
            "skat": ["7D", "8D"],
        },
    )
    assert response.status_code == 422
    shown = problems(page)
    assert any("1 trick" in m for m in shown), shown
    assert not [m for m in shown if "1 trick need " in m], shown


# -- Pitch: "Score a hand" and huge scores before the hand ----------------------------------


@pytest.mark.parametrize("score", ["999999999999999", "99999999999999999999"])
def test_pitch_hand_page_and_api_disagree_on_a_huge_score_before(client, score):
    """Team A's score before the hand typed as 999999999999999 (15 digits): the API
    refuses it (400, "A is far too large."), the page scored it (200, team A now
    1.000.000.000.000.006 and the winner). With 20 digits the page refuses it, but with
    "Team A's score is a whole number (it may be below zero); got "9999…"": a rule the
    number keeps, so nobody can tell what is wrong. Now the page refuses what the API
    refuses, saying the score is too large.

    Where: games/referee_pages/pitch.py `_WHOLE_NUMBER` (up to 15 digits) and
    `_whole_number` read the field with their own bound instead of the API's (games/
    api_input.py: |n| ≤ 10**9); longer text goes to games/rules/pitch.py
    `_check_scores`, whose only message is "…is a whole number…".
    """
    points = dict.fromkeys(POINT_KEYS, "A")
    status, body = api(
        client,
        "/api/v1/pitch/hand",
        {
            "bid": 5,
            "pitcher_team": "A",
            "points": points,
            "scores_before": {"A": int(score), "B": 0},
        },
    )
    assert 400 <= status < 500, body
    query = {"bid": "5", "pitcher_team": "A", "before_A": score, "before_B": "0"}
    query.update({f"point_{key}": "A" for key in POINT_KEYS})
    response, page = ask(client, "en", "pitch/hand/", query)
    assert 400 <= response.status_code < 500, "the page scored a hand the API refuses"
    shown = problems(page)
    assert any("large" in m for m in shown), (shown, body)


# -- Manipulation: "Can all these cards go down?" with a single card ---------------------


@pytest.mark.parametrize(
    ("language", "wrong"),
    [("en", "not all 1 cards"), ("de", "alle 1 Karten"), ("eo", "ĉiuj 1 kartoj")],
)
def test_manipulation_arrange_headline_for_one_card(client, language, wrong):
    """One card tapped (2♣): the answer's heading read "No: not all 1 cards can go
    down" (German "Nicht alle 1 Karten können ausgelegt werden", Esperanto "ne ĉiuj 1
    kartoj"). Now the heading agrees with the number ("the 1 card cannot go down").

    Where: templates/games/referee/manipulation_arrange.html, the verdict heading's
    blocktranslate has no `count`/plural form.
    """
    response, page = ask(client, language, "manipulation/arrange/", {"cards": ["2C"]})
    assert response.status_code == 200
    heading = re.search(r'<h2 id="verdict-heading">(.*?)</h2>', page, re.S)
    assert heading, "no answer on the page"
    assert wrong not in text_of(heading.group(1)), text_of(heading.group(1))
