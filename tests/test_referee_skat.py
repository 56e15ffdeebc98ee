"""The Skat referee pages through the Django test client.

Every number is worked out by hand from the rules: a suit or Grand game is worth its
base value (♦ 9, ♥ 10, ♠ 11, ♣ 12, Grand 24) times its levels; a won game scores its
value, a lost one −2 × value; Kontra and Bock double that.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from games.rules import skat
from games.rules.cards import parse_card

pytestmark = pytest.mark.django_db

TOOLS = (
    "referee-skat-value",
    "referee-skat-bid",
    "referee-skat-trick",
    "referee-skat-follow",
    "referee-skat-ladder",
)

# Ten cards holding J♠ and J♥ but not J♣: Grand "against 1" unless the skat holds J♣.
SPADE_AND_HEART_JACKS = ["JS", "JH", "AC", "10C", "KC", "AS", "10S", "7H", "8H", "9D"]


def ask(client, name: str, query: dict | list | None = None, **headers):
    url = reverse(f"games:{name}")
    if query:
        url += "?" + urlencode(query, doseq=True)
    response = client.get(url, **headers)
    return response, response.content.decode()


def heading(html: str) -> str:
    found = re.search(r'<h2 id="answer-heading"[^>]*>(.*?)</h2>', html, re.S)
    assert found, "no answer on the page"
    return " ".join(found.group(1).split())


def explanation(html: str) -> list[tuple[str, str]]:
    """Each explanation line and the rule-book address it links to."""
    block = re.search(r'<ol class="explanation">(.*?)</ol>', html, re.S)
    assert block, "no explanation on the page"
    return [
        (" ".join(text.split()).replace("&#x27;", "'"), href)
        for text, href in re.findall(
            r'<li>(.*?) <a class="rule-link" href="([^"]+)"', block.group(1), re.S
        )
    ]


def summary(html: str) -> list[str]:
    box = re.search(r'class="error-box referee-errors".*?<ul>(.*?)</ul>', html, re.S)
    assert box, "no summary of problems on the page"
    return re.findall(r"<li>(.*?)</li>", box.group(1), re.S)


def field_errors(html: str) -> list[str]:
    return re.findall(r'<p class="field-error"[^>]*>(.*?)</p>', html)


# ---------------------------------------------------------------------------
# Every tool


@pytest.mark.parametrize("name", TOOLS)
def test_first_visit_shows_the_tool_without_an_answer(client, name):
    response, html = ask(client, name)
    assert response.status_code == 200
    assert 'id="answer"' not in html
    assert "field-error" not in html
    # The small nav reaches every other Skat tool and the rule book in one tap.
    for other in TOOLS:
        assert f'href="{reverse(f"games:{other}")}"' in html
    assert f'href="{reverse("games:rules-game", args=["skat"])}"' in html
    assert 'aria-current="page"' in html
    assert "css/referee.css" in html


@pytest.mark.parametrize(
    ("name", "query"),
    [
        pytest.param(
            "referee-skat-value", {"game": "grand", "bid": 24, "outcome": "won"}, id="value"
        ),
        pytest.param("referee-skat-bid", {"game": "null", "cards": ["JS"]}, id="bid"),
        pytest.param("referee-skat-trick", {"game": "null", "card_1": "AC"}, id="trick"),
        pytest.param("referee-skat-follow", {"game": "null", "led": "AC"}, id="follow"),
    ],
)
def test_with_htmx_only_the_tool_is_sent(client, name, query):
    # htmx swaps the tool (form and answer) in place; the page frame is not sent again.
    response, html = ask(client, name, query, HTTP_HX_REQUEST="true")
    assert html.lstrip().startswith('<div id="tool">')
    assert "<html" not in html
    assert "tool-nav" not in html
    full, page = ask(client, name, query)
    assert full.status_code == response.status_code
    assert "<html" in page


# ---------------------------------------------------------------------------
# Game value


@pytest.mark.parametrize(
    ("query", "verdict", "facts", "lines"),
    [
        # Schneider: 90 points or more add a level; Clubs with 2: (2 + 1 + 1) × 12 = 48.
        pytest.param(
            {
                "game": "clubs",
                "bid": 36,
                "matadors_by": "count",
                "matadors_direction": "with",
                "matadors_count": 2,
                "result_by": "outcome",
                "outcome": "won_schneider",
            },
            "Won, +48 on the list",
            ["48", "+48", "with 2", "4 × 12"],
            [
                ("Levels: with 2 (2) + game (1) + schneider (1) = 4.", "skat-levels"),
                ("Clubs counts 12 a level: 4 × 12 = 48.", "skat-game-value"),
                ("Won: the declarer scores +48.", "skat-list-score"),
            ],
            id="clubs-won-schneider-48",
        ),
        # Score on the list: lost counts −2 × value; Kontra doubles, a Bock game doubles.
        # Grand with 1: 2 × 24 = 48 → −96 → −192 → −384.
        pytest.param(
            {
                "game": "grand",
                "bid": 24,
                "matadors_direction": "with",
                "matadors_count": 1,
                "outcome": "lost",
                "kontra": "on",
                "bock": "on",
            },
            "Lost, −384 on the list",
            ["48", "−384", "with 1", "2 × 24"],
            [
                ("Lost: a lost game counts double, −2 × 48 = −96.", "skat-list-score"),
                ("Kontra: the score counts double, −192.", "skat-kontra-re"),
                ("A Bock game counts double: −384.", "skat-bock"),
            ],
            id="grand-lost-kontra-bock",
        ),
        # Overbidding: Diamonds against 1 is 18, below the bid of 22; lost at 3 × 9 = 27,
        # −54 on the list.
        pytest.param(
            {
                "game": "diamonds",
                "bid": 22,
                "matadors_direction": "against",
                "matadors_count": 1,
                "outcome": "won",
            },
            "Lost: overbid, −54 on the list",
            ["27", "−54", "against 1", "2 × 9"],
            [
                (
                    "18 is below the bid of 22: the declarer has overbid and loses.",
                    "skat-overbid",
                ),
                (
                    "The lost game is valued at the smallest multiple of 9 that reaches 22: "
                    "3 × 9 = 27.",
                    "skat-overbid",
                ),
            ],
            id="diamonds-overbid",
        ),
        # Matadors counted from the tapped cards (skat included): J♣ J♠, J♥ missing: with 2.
        # 78 card points in 4 tricks: won, (2 + 1) × 12 = 36.
        pytest.param(
            {
                "game": "clubs",
                "bid": 18,
                "matadors_by": "cards",
                "declarer_cards": [
                    "JC",
                    "JS",
                    "AC",
                    "7C",
                    "8C",
                    "9C",
                    "QC",
                    "7S",
                    "8S",
                    "KD",
                    "QD",
                    "9H",
                ],
                "result_by": "points",
                "declarer_points": 78,
                "declarer_tricks": 4,
            },
            "Won, +36 on the list",
            ["36", "+36", "with 2", "3 × 12", "78"],
            [
                (
                    "The declarer's 12 cards (skat included) hold J♣ J♠ from the top and then "
                    "miss J♥: with 2.",
                    "skat-matadors",
                ),
                ("78 is 61 or more: the declarer wins the play.", "skat-winning"),
            ],
            id="clubs-by-cards-and-points",
        ),
        # Null: a fixed 23, won when the declarer takes no trick.
        pytest.param(
            {"game": "null", "bid": 23, "outcome": "won"},
            "Won, +23 on the list",
            ["23", "+23"],
            [("A Null game is won when the declarer takes no trick at all.", "skat-null")],
            id="null-23",
        ),
    ],
)
def test_game_value(client, query, verdict, facts, lines):
    response, html = ask(client, "referee-skat-value", query)
    assert response.status_code == 200
    assert heading(html) == verdict
    assert re.findall(r"<dd>(.*?)</dd>", html) == facts
    rule_book = reverse("games:rules-game", args=["skat"])
    shown = explanation(html)
    for text, anchor in lines:
        assert (text, f"{rule_book}#{anchor}") in shown


@pytest.mark.parametrize(
    ("query", "problems", "fields"),
    [
        # Null: a fixed 23, so it cannot be declared after a bid of 24.
        pytest.param(
            {"game": "null", "bid": 24, "outcome": "won"},
            ["You bid 24 but Null is worth 23; declare Null Ouvert (46) or a suit or grand game."],
            ["You bid 24 but Null is worth 23; declare Null Ouvert (46) or a suit or grand game."],
            id="null-after-24",
        ),
        pytest.param(
            # In the form's words, as the sheet's entry form says it (German and
            # Esperanto once named the API's field, "bid").
            {"game": "grand", "outcome": "won"},
            ["Bid is missing. Tap the bid that won the auction."],
            ["Bid is missing. Tap the bid that won the auction."],
            id="no-bid",
        ),
        # Matadors: Grand has 4 trumps; card points: 0 to 120.
        pytest.param(
            {
                "game": "grand",
                "bid": 24,
                "matadors_count": 9,
                "result_by": "points",
                "declarer_points": 200,
                "declarer_tricks": 3,
            },
            [
                "Grand has 4 trumps, so matadors run from 1 to 4; with 9 is not possible.",
                "Card points run from 0 to 120 (skat included); 200 is not possible.",
            ],
            [
                "Grand has 4 trumps, so matadors run from 1 to 4; with 9 is not possible.",
                "Card points run from 0 to 120 (skat included); 200 is not possible.",
            ],
            id="impossible-numbers",
        ),
        # Text where a number belongs never breaks the page.
        pytest.param(
            {"game": "grand", "bid": "lots", "outcome": "won", "matadors_count": 1},
            ["Bid must be a whole number, not text."],
            ["Bid must be a whole number, not text."],
            id="text-bid",
        ),
    ],
)
def test_game_value_wrong_input(client, query, problems, fields):
    response, html = ask(client, "referee-skat-value", query)
    assert response.status_code == 422
    assert summary(html) == problems
    assert field_errors(html) == fields
    assert 'id="answer-heading"' not in html


def test_game_value_keeps_what_was_entered(client):
    # Null Hand is worth 35, so a bid of 36 is refused; everything entered stays.
    query = {"game": "null", "bid": 36, "hand": "on", "outcome": "won", "kontra": "on"}
    response, html = ask(client, "referee-skat-value", query)
    assert response.status_code == 422
    assert 'value="null" checked' in html
    assert '<option value="36" selected>' in html
    assert 'name="hand" checked' in html
    assert 'name="kontra" checked' in html
    assert 'value="won" checked' in html


# ---------------------------------------------------------------------------
# How high may I bid?


def test_bid_limit_grand_against_one(client):
    # Matadors count the skat: without J♣, Grand is "against 1", 2 × 24 = 48; a J♣ in
    # the skat would make it "with 3" (96), so 48 is the safe bid.
    query = {"game": "grand", "cards": SPADE_AND_HEART_JACKS}
    response, html = ask(client, "referee-skat-bid", query)
    assert response.status_code == 200
    assert heading(html) == "Bid up to 48"
    assert re.findall(r"<dd>(.*?)</dd>", html) == ["against 1", "2 × 24", "120"]
    assert "Counted for certain: against 1, game." in html
    rule_book = reverse("games:rules-game", args=["skat"])
    shown = explanation(html)
    assert (
        "If the skat holds J♣ but no J♦: with 3, worth 4 × 24 = 96 (20 of the 231 possible skats).",
        f"{rule_book}#skat-matadors",
    ) in shown
    assert (
        "You can safely bid up to 48: whatever the skat holds, the game reaches it.",
        f"{rule_book}#skat-bids",
    ) in shown
    # The cards stay tapped.
    for code in SPADE_AND_HEART_JACKS:
        assert f'name="cards" value="{code}" checked' in html


@pytest.mark.parametrize(
    ("query", "verdict"),
    [
        # Hand counts a level: against 1 + game + hand = 3 × 24 = 72.
        pytest.param(
            {"game": "grand", "hand": "on", "cards": SPADE_AND_HEART_JACKS},
            "Bid up to 72",
            id="grand-hand-72",
        ),
        # Null Ouvert Hand has a fixed 59.
        pytest.param(
            {"game": "null", "hand": "on", "ouvert": "on", "cards": SPADE_AND_HEART_JACKS},
            "Bid up to 59",
            id="null-ouvert-hand-59",
        ),
    ],
)
def test_bid_limit(client, query, verdict):
    response, html = ask(client, "referee-skat-bid", query)
    assert response.status_code == 200
    assert heading(html) == verdict


@pytest.mark.parametrize(
    ("query", "problems"),
    [
        # The hand you bid with is 10 cards, and the game must be chosen.
        pytest.param(
            {"cards": SPADE_AND_HEART_JACKS[:9]},
            [
                "Choose the game you mean to declare.",
                "Give the 10 cards you were dealt, the hand you bid with; you gave 9.",
            ],
            id="no-game-nine-cards",
        ),
        # Announcing needs a hand game.
        pytest.param(
            {"game": "clubs", "announced": "schneider", "cards": SPADE_AND_HEART_JACKS},
            [
                "Schneider can only be announced in a hand game; after picking up the skat "
                "it can still be played, just not announced."
            ],
            id="announced-without-hand",
        ),
        pytest.param(
            {"game": "grand", "cards": ["ZZ", "JS", "JS"]},
            [
                '"ZZ" is not a card. Write rank then suit, for example JC for the jack of clubs '
                "or 10H for the ten of hearts.",
                "J♠ is there 2 times, but a Skat deck has only one jack of spades.",
            ],
            id="not-cards",
        ),
    ],
)
def test_bid_limit_wrong_input(client, query, problems):
    response, html = ask(client, "referee-skat-bid", query)
    assert response.status_code == 422
    assert [p.replace("&quot;", '"') for p in summary(html)] == problems
    assert [p.replace("&quot;", '"') for p in field_errors(html)] == problems


# ---------------------------------------------------------------------------
# Who takes the trick?


@pytest.mark.parametrize(
    ("query", "verdict", "line"),
    [
        # Trumps: in Grand every jack is a trump and beats the suit led.
        pytest.param(
            {"game": "grand", "card_1": "AC", "card_2": "JD", "card_3": "10C"},
            "The 2nd card, J♦, takes the trick",
            "Trumps beat every other card; the highest trump, J♦, takes the trick (card 2).",
            id="grand-jack-trumps",
        ),
        # A suit game: the trump suit's 7 beats the ace of the suit led.
        pytest.param(
            {"game": "hearts", "card_1": "AC", "card_2": "7H", "card_3": "10C"},
            "The 2nd card, 7♥, takes the trick",
            "Trumps beat every other card; the highest trump, 7♥, takes the trick (card 2).",
            id="hearts-seven-trumps",
        ),
        # Null: no trumps, and the king ranks above the jack and the ten.
        pytest.param(
            {"game": "null", "card_1": "10H", "card_2": "JH", "card_3": "KH"},
            "The 3rd card, K♥, takes the trick",
            "The highest of the hearts led, K♥, takes the trick (card 3).",
            id="null-king",
        ),
    ],
)
def test_trick(client, query, verdict, line):
    response, html = ask(client, "referee-skat-trick", query)
    assert response.status_code == 200
    assert heading(html) == verdict
    cards = " ".join(parse_card(query[name]).label for name in ("card_1", "card_2", "card_3"))
    assert f"{skat.GAME_NAMES[query['game']]}: {cards}, in the order played" in html
    rule_book = reverse("games:rules-game", args=["skat"])
    assert (line, f"{rule_book}#skat-tricks") in explanation(html)


@pytest.mark.parametrize(
    ("query", "problems", "fields"),
    [
        pytest.param(
            {"game": "grand", "card_1": "AC", "card_2": "JD"},
            ["Tap the 3rd card played to the trick."],
            ["Tap the 3rd card played to the trick."],
            id="third-card-missing",
        ),
        # Cards: one deck, so no card can be played twice.
        pytest.param(
            {"game": "grand", "card_1": "AC", "card_2": "AC", "card_3": "7C"},
            ["A♣ is there 2 times, but a Skat deck has only one ace of clubs."],
            [],
            id="same-card-twice",
        ),
        pytest.param(
            {"card_1": "AC", "card_2": "JD", "card_3": "7C"},
            ["Choose the game being played."],
            ["Choose the game being played."],
            id="no-game",
        ),
        # A link edited by hand: two cards for one place, and a code that is no card.
        pytest.param(
            {"game": "grand", "card_1": ["AC", "7H"], "card_2": "XX", "card_3": "7C"},
            [
                "Tap one card here, not 2.",
                "&quot;XX&quot; is not a card. Write rank then suit, for example JC for the "
                "jack of clubs or 10H for the ten of hearts.",
            ],
            [
                "Tap one card here, not 2.",
                "&quot;XX&quot; is not a card. Write rank then suit, for example JC for the "
                "jack of clubs or 10H for the ten of hearts.",
            ],
            id="edited-link",
        ),
    ],
)
def test_trick_wrong_input(client, query, problems, fields):
    response, html = ask(client, "referee-skat-trick", query)
    assert response.status_code == 422
    assert summary(html) == problems
    assert field_errors(html) == fields
    # What was entered stays chosen.
    for name in ("card_1", "card_2", "card_3"):
        if query.get(name) in ("AC", "JD", "7C"):
            assert f'type="radio" name="{name}" value="{query[name]}" checked' in html


# ---------------------------------------------------------------------------
# May I play that card?


@pytest.mark.parametrize(
    ("query", "verdict", "line"),
    [
        # Following suit: in Grand J♣ is a trump, not a club, so 7♣ must follow A♣.
        pytest.param(
            {"game": "grand", "led": "AC", "hand": ["JC", "7C", "8H"], "played": "JC"},
            "J♣: not allowed",
            ("J♣ is a trump, not a club: not allowed.", "skat-follow"),
            id="grand-jack-is-no-club",
        ),
        pytest.param(
            {"game": "grand", "led": "AC", "hand": ["JC", "7C", "8H"], "played": "7C"},
            "7♣: allowed",
            ("J♣ does not count as a club: in Grand every jack is a trump.", "skat-trumps"),
            id="grand-seven-follows",
        ),
        # Null: the jack belongs to its printed suit.
        pytest.param(
            {"game": "null", "led": "JC", "hand": ["JD", "7C", "8H"], "played": "JD"},
            "J♦: not allowed",
            ("Null has no trumps: a jack belongs to its printed suit.", "skat-null"),
            id="null-jack-is-a-diamond",
        ),
        # A player who cannot follow may play any card.
        pytest.param(
            {"game": "spades", "led": "AH", "hand": ["JC", "7C", "8D"], "played": "8D"},
            "8♦: allowed",
            (
                "The hand holds no heart, so any card may be played: 8♦ is allowed.",
                "skat-follow",
            ),
            id="cannot-follow",
        ),
    ],
)
def test_follow(client, query, verdict, line):
    response, html = ask(client, "referee-skat-follow", query)
    assert response.status_code == 200
    assert heading(html) == verdict
    text, anchor = line
    rule_book = reverse("games:rules-game", args=["skat"])
    assert (text, f"{rule_book}#{anchor}") in explanation(html)


@pytest.mark.parametrize(
    ("query", "problems"),
    [
        pytest.param(
            {"game": "grand", "led": "AC", "hand": ["JC", "7C", "8H"], "played": "JD"},
            ["J♦ is not in the hand (J♣ 7♣ 8♥)."],
            id="played-not-in-hand",
        ),
        pytest.param(
            {"game": "grand", "hand": ["JC", "7C"]},
            ["Tap the card that was led.", "Tap the card the player put down."],
            id="cards-missing",
        ),
        pytest.param(
            {"game": "grand", "led": "AC", "played": "JC"},
            ["Tap the cards the player held, the card played among them."],
            id="no-hand",
        ),
    ],
)
def test_follow_wrong_input(client, query, problems):
    response, html = ask(client, "referee-skat-follow", query)
    assert response.status_code == 422
    assert summary(html) == problems
    assert field_errors(html) == problems


# ---------------------------------------------------------------------------
# The bid ladder


def test_bid_ladder_lists_every_bid_with_its_games(client):
    # Legal bids: the 63 values some game can have, 18 (Diamonds ×2) to 264 (Grand ×11).
    response, html = ask(client, "referee-skat-ladder")
    assert response.status_code == 200
    rows = re.findall(r'<li id="bid-(\d+)">', html)
    assert [int(v) for v in rows] == list(skat.BIDS)
    assert len(rows) == 63
    row_18 = html.split('id="bid-18"')[1].split("</li>")[0]
    assert re.findall(r'<span class="chip">(.*?)</span>', row_18) == ["Diamonds ×2"]
    row_264 = html.split('id="bid-264"')[1].split("</li>")[0]
    assert re.findall(r'<span class="chip">(.*?)</span>', row_264) == ["Grand ×11"]
    row_60 = html.split('id="bid-60"')[1].split("</li>")[0]
    assert re.findall(r'<span class="chip">(.*?)</span>', row_60) == [
        "Hearts ×6",
        "Clubs ×5",
    ]
    assert f'href="{reverse("games:rules-game", args=["skat"])}#skat-bids"' in html
