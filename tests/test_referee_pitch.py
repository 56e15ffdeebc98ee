"""The Pitch referee pages through the Django test client: the trick judge and the hand
scorer. Every number here is worked out from the rules by hand (the rule is named in
each case); the pages must show the referee's answer, its explanation with links into
the rule book, and refuse wrong input with a 422 and the message next to the field."""

import html
import re
from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from django.urls import reverse

from games.referee_pages.pitch import read_hand, trump_ranks
from games.rules import pitch

TRICK = reverse("games:referee-pitch-trick")
HAND = reverse("games:referee-pitch-hand")


def _page(client, url: str, params: dict | None = None, **headers):
    response = client.get(url + ("?" + urlencode(params, doseq=True) if params else ""), **headers)
    return response, html.unescape(response.content.decode())


def _field_error_after(page: str, marker: str, before: str, *, message: str) -> bool:
    """Is ``message`` shown as a field error between ``marker`` and ``before``?"""
    start = page.index(marker)
    end = page.index(before, start)
    return f'<p class="field-error" role="alert">{message}' in page[start:end]


def _verdict(page: str) -> str:
    match = re.search(r'<h2 id="verdict-heading">(.*?)</h2>', page, re.S)
    assert match, "no verdict on the page"
    return match.group(1).strip()


# -- The trick judge --------------------------------------------------------------------


def test_trick_judge_first_visit_has_the_form_and_no_answer(client):
    response, page = _page(client, TRICK)
    assert response.status_code == 200
    assert "<h1>Who wins the trick?</h1>" in page
    assert 'id="verdict-heading"' not in page
    assert 'class="error-box"' not in page
    # Four single-card pickers of the 54-card Pitch deck, the first one open.
    for slot in ("card1", "card2", "card3", "card4"):
        assert page.count(f'type="radio" name="{slot}" value="JOKER-HIGH"') == 1
    assert '<details class="pick-one" data-slot="card1" open>' in page
    assert "Choose trump to see all 16 trumps" in page


def test_trick_judge_links_to_the_other_tool_and_the_rule_book(client):
    _, page = _page(client, TRICK)
    assert f'href="{HAND}"' in page
    assert f'href="{TRICK}" aria-current="page"' in page
    assert 'href="/en/rules/pitch/"' in page


@pytest.mark.parametrize(
    ("params", "verdict", "because", "anchor"),
    [
        pytest.param(
            {"trump": "H", "card1": "AH", "card2": "JD", "card3": "JOKER-HIGH"},
            "The 1st card wins: A♥",
            "J♦ is the off-jack: it counts as one of the hearts",
            "pitch-trumps",
            # Trumps high to low: the ace heads them, above the off-jack and the jokers.
            id="ace-heads-the-trumps",
        ),
        pytest.param(
            {"trump": "S", "card1": "2S", "card2": "JOKER-LOW", "card3": "JC", "card4": "10S"},
            "The 3rd card wins: J♣",
            "J♣ is the highest trump played, so the third card wins the trick",
            "pitch-play",
            # The off-jack (the other black jack) ranks just below the jack of trumps,
            # above both jokers and the ten.
            id="off-jack-beats-jokers-and-ten",
        ),
        pytest.param(
            {"trump": "D", "card1": "10D", "card2": "JOKER-HIGH"},
            "The 2nd card wins: high joker",
            "the high joker above the low joker, both between the off-jack and 10♦",
            "pitch-trumps",
            # The jokers rank between the off-jack and the ten of trumps.
            id="joker-beats-the-ten",
        ),
        pytest.param(
            {"trump": "clubs", "card1": "3C", "card2": "2C"},
            "The 1st card wins: 3♣",
            "Clubs are trump; from high to low: A♣, K♣, Q♣, J♣, J♠, high joker",
            "pitch-trumps",
            # Below the jokers the trumps run 10 down to 2; a trick of two is enough.
            id="two-cards-and-trump-as-a-word",
        ),
    ],
)
def test_trick_judge_names_the_winner_and_why(client, params, verdict, because, anchor):
    response, page = _page(client, TRICK, params)
    assert response.status_code == 200
    assert _verdict(page) == verdict
    assert because in page
    assert f'href="/en/rules/pitch/#{anchor}"' in page
    # The result is a link to send round the table: the form keeps every choice.
    suit = pitch.trump_order(params["trump"])[0].suit
    assert f'name="trump" value="{suit}" checked' in page


def test_trick_judge_shows_the_trump_order_for_the_chosen_trump(client):
    _, page = _page(client, TRICK, {"trump": "H"})
    order = page[
        page.index('<ol class="trump-list">') : page.index("</ol>", page.index("trump-list"))
    ]
    labels = re.findall(r'aria-label="([^"]+)"', order)
    assert labels == [
        "ace of hearts",
        "king of hearts",
        "queen of hearts",
        "jack of hearts",
        "jack of diamonds",
        "high joker",
        "low joker",
        *(f"{rank} of hearts" for rank in ("ten", "nine", "eight", "seven", "six", "five")),
        *(f"{rank} of hearts" for rank in ("four", "three", "two")),
    ]
    assert "off\u2011jack" in order


def test_trick_judge_answers_htmx_with_the_tool_only_and_the_order_on_its_own(client):
    params = {"trump": "H", "card1": "AH", "card2": "KH"}
    response, page = _page(client, TRICK, params, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert page.lstrip().startswith('<div id="tool"')
    assert "<html" not in page
    assert _verdict(page) == "The 1st card wins: A♥"
    response, page = _page(
        client, TRICK, {"trump": "S"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="trump-order"
    )
    assert response.status_code == 200
    assert page.strip().startswith('<div id="trump-order"')
    assert "Spades are trump" in page
    assert 'id="tool"' not in page


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        pytest.param(
            {"trump": "H", "card1": "AH", "card2": "9S"},
            "card2",
            "9♠ is not a trump when hearts are trump: only hearts, the J♦ and the two jokers are.",
            # Everyone throws away their non-trumps before play, so none can be played.
            id="not-a-trump",
        ),
        pytest.param(
            {"trump": "H", "card1": "AH"},
            "cards",
            "A trick has 2 to 4 cards, one from each player still holding trumps; got 1.",
            # A trick is one card from each player still holding trumps: 2 to 4.
            id="one-card-is-no-trick",
        ),
        pytest.param(
            {"trump": "H", "card1": "AH", "card3": "KH"},
            "card2",
            "Choose the 2nd card too: the cards go in the order they were played",
            # The cards are judged in play order, so there can be no gap.
            id="gap-in-the-order",
        ),
        pytest.param(
            {"trump": "H", "card1": "AH", "card2": "AH"},
            "cards",
            "A♥ is there 2 times, but a Pitch deck has only one ace of hearts.",
            # One deck: every card exists once.
            id="same-card-twice",
        ),
        pytest.param(
            {"trump": "H", "card1": "ZZ", "card2": "AH"},
            "card1",
            '"ZZ" is not a card.',
            id="not-a-card",
        ),
        pytest.param(
            {"card1": "AH", "card2": "KH"},
            "trump",
            'Trump is one suit: "C" (clubs), "S" (spades), "H" (hearts) or "D" (diamonds); '
            "got nothing.",
            # The pitcher names trump; without it no trick can be judged.
            id="no-trump",
        ),
    ],
)
def test_trick_judge_refuses_wrong_input_next_to_its_field(client, params, field, message):
    response, page = _page(client, TRICK, params)
    assert response.status_code == 422
    assert 'id="verdict-heading"' not in page
    assert message in page[page.index('id="problems"') :]
    markers = {
        "trump": ("<legend>Trump</legend>", 'id="trump-order"'),
        "cards": ("The cards, in the order they were played", 'data-slot="card1"'),
        "card1": ('data-slot="card1"', 'data-slot="card2"'),
        "card2": ('data-slot="card2"', 'data-slot="card3"'),
    }
    assert _field_error_after(page, *markers[field], message=message)


def test_trick_judge_keeps_the_cards_chosen_when_it_refuses(client):
    response, page = _page(client, TRICK, {"trump": "H", "card1": "AH", "card2": "9S"})
    assert response.status_code == 422
    assert 'name="card1" value="AH" checked' in page
    assert 'name="card2" value="9S" checked' in page
    assert 'name="trump" value="H" checked' in page
    # The picker with the problem is open; the one already fine stays folded.
    assert '<details class="pick-one" data-slot="card2" open>' in page
    assert '<details class="pick-one" data-slot="card1">' in page


def test_trick_judge_reports_every_problem_at_once(client):
    response, page = _page(client, TRICK, {"trump": "X", "card1": "ZZ", "card3": "AH"})
    assert response.status_code == 422
    assert "3 things to fix" in page
    assert '"ZZ" is not a card.' in page
    assert "Choose the 2nd card too" in page
    assert 'Trump is one suit: "C" (clubs)' in page


def test_trump_ranks_are_empty_without_a_suit():
    assert trump_ranks(None) == []
    assert trump_ranks("X") == []
    assert [r.place for r in trump_ranks("♦")] == list(range(1, 17))


# -- The hand scorer --------------------------------------------------------------------


def _hand(bid, team, points: dict[str, str], **extra) -> dict:
    """A hand as the form sends it; point cards not named were out of play."""
    params = {"bid": bid, "pitcher_team": team}
    for key in pitch.POINT_CARDS:
        params[f"point_{key}"] = points.get(key, "out")
    params.update(extra)
    return params


ALL_BUT_TEN_TO_A = {key: "A" for key in pitch.POINT_CARDS if key != "ten"} | {"ten": "B"}


def test_hand_scorer_first_visit_has_the_form_and_no_answer(client):
    response, page = _page(client, HAND)
    assert response.status_code == 200
    assert "<h1>Score a hand</h1>" in page
    assert 'id="verdict-heading"' not in page
    assert 'class="error-box"' not in page
    # The usual rules are chosen; the house rules stay folded until changed.
    assert 'name="made_scores" value="taken" checked' in page
    assert 'name="target" value="52"' in page
    assert '<details class="panel house-rules">' in page
    assert f'href="{TRICK}"' in page
    assert 'href="/en/rules/pitch/"' in page


@pytest.mark.parametrize(
    ("params", "verdict", "deltas", "after", "end", "because", "anchor"),
    [
        pytest.param(
            _hand("6", "A", ALL_BUT_TEN_TO_A),
            "Team A made its bid of 6",
            ("+9", "+1"),
            ("9", "1"),
            "No winner yet: play goes on.",
            "Team A bid 6 and took 9, so it made its bid and scores the 9 points it took.",
            "pitch-made",
            # Making the bid: a team that takes at least its bid scores what it took.
            id="made-scores-what-it-took",
        ),
        pytest.param(
            _hand("5", "A", ALL_BUT_TEN_TO_A, made_scores="bid"),
            "Team A made its bid of 5",
            ("+5", "+1"),
            ("5", "1"),
            "No winner yet: play goes on.",
            "on this sheet a made bid scores the bid: 5.",
            "pitch-made",
            # Option made_scores=bid: a made bid scores the bid, not the points taken.
            id="made-scores-the-bid",
        ),
        pytest.param(
            _hand(
                "7",
                "B",
                {"ace": "B", "jack": "A", "off_jack": "B", "high_joker": "B", "low_joker": "A"}
                | {"ten": "B", "three": "A"},
                before_A="40",
                before_B="12",
            ),
            "Team B is set: its bid of 7 comes off",
            ("+5", "−7"),
            ("45", "5"),
            "No winner yet: play goes on.",
            "Team B bid 7 but took only 4, so it is set: its bid of 7 is taken off its score.",
            "pitch-set",
            # Being set: the bid comes off; the opponents still score what they took.
            id="set-loses-the-bid",
        ),
        pytest.param(
            _hand("moon", "A", dict.fromkeys(pitch.POINT_CARDS, "A"), before_A="10", before_B="40"),
            "Team A shot the moon",
            ("+42", "0"),
            ("52", "40"),
            "Game over: team A wins.",
            "Team A had 10, above zero, so its score becomes the target, 52",
            "pitch-moon",
            # Shooting the moon: all ten points with a score above zero wins at once.
            id="moon-made-wins",
        ),
        pytest.param(
            _hand(
                "4",
                "B",
                {"ace": "A", "two": "A", "three": "A"}
                | dict.fromkeys(("jack", "off_jack", "high_joker", "low_joker", "ten"), "B"),
                before_A="−3",
                before_B="48",
            ),
            "Team B made its bid of 4",
            ("+5", "+5"),
            ("2", "53"),
            "Game over: team B wins.",
            "Team B reached 52 and wins the game.",
            "pitch-game-end",
            # End of the game: the first team to 52 wins; scores may start below zero.
            id="reaching-52-wins",
        ),
        pytest.param(
            _hand(
                "4",
                "A",
                {"ace": "A", "jack": "A", "three": "A", "ten": "B"},
                target="11",
                before_A="8",
            ),
            "Team A made its bid of 4",
            ("+5", "+1"),
            ("13", "1"),
            "Game over: team A wins.",
            "Team A reached 11 and wins the game.",
            "pitch-game-end",
            # Option target: the game can be played to fewer points than 52.
            id="lower-target",
        ),
    ],
)
def test_hand_scorer_scores_the_hand_and_explains_it(
    client, params, verdict, deltas, after, end, because, anchor
):
    response, page = _page(client, HAND, params)
    assert response.status_code == 200, page[page.find('id="problems"') :][:500]
    assert _verdict(page) == verdict
    for team, delta, score in zip("AB", deltas, after, strict=True):
        assert f'data-testid="delta-{team}">{delta}</td>' in page
        assert f'data-testid="after-{team}">{score}</strong>' in page
    assert f'<p class="verdict-end" data-testid="game-end">{end}</p>' in page
    assert because in page
    assert f'href="/en/rules/pitch/#{anchor}"' in page


def test_hand_scorer_unfolds_the_house_rules_when_one_is_changed(client):
    _, page = _page(client, HAND, _hand("5", "A", ALL_BUT_TEN_TO_A, made_scores="bid"))
    assert '<details class="panel house-rules" open>' in page
    assert 'name="made_scores" value="bid" checked' in page


@pytest.mark.parametrize(
    ("params", "field", "message"),
    [
        pytest.param(
            {k: v for k, v in _hand("6", "A", ALL_BUT_TEN_TO_A).items() if k != "point_three"},
            "points.three",
            'Say who took the three: "A", "B", or "out" if it was out of play.',
            # Every one of the ten points is scored by a team or was out of play.
            id="three-not-given",
        ),
        pytest.param(
            _hand("3", "A", ALL_BUT_TEN_TO_A),
            "bid",
            "3 is below the lowest bid: bids run from 4 to 9.",
            # Bidding: the bids are 4 to 9, or moon.
            id="bid-too-low",
        ),
        pytest.param(
            _hand("6", "", ALL_BUT_TEN_TO_A),
            "pitcher_team",
            'The pitcher\'s team is "A" (seats 1 and 3) or "B" (seats 2 and 4); got nothing.',
            id="no-pitcher",
        ),
        pytest.param(
            _hand("6", "A", ALL_BUT_TEN_TO_A, target="five"),
            "options.target",
            'The target must be a whole number of points from 11 to 500 (52 is usual); got "five".',
            # Option target: 52 unless the table agrees otherwise.
            id="target-not-a-number",
        ),
        pytest.param(
            _hand("6", "A", ALL_BUT_TEN_TO_A, before_A="ten"),
            "scores_before.A",
            'Team A\'s score is a whole number (it may be below zero); got "ten".',
            id="score-not-a-number",
        ),
    ],
)
def test_hand_scorer_refuses_wrong_input_next_to_its_field(client, params, field, message):
    response, page = _page(client, HAND, params)
    assert response.status_code == 422
    assert 'id="verdict-heading"' not in page
    assert message in page[page.index('id="problems"') :]
    markers = {
        "bid": ("<legend>The bid</legend>", "Pitched by"),
        "pitcher_team": ("Pitched by", "Who took each point?"),
        "points.three": ('aria-label="Three"', "Scores before the hand"),
        "scores_before.A": ('name="before_A"', 'name="before_B"'),
        "options.target": ('name="target"', 'name="made_scores"'),
    }
    assert _field_error_after(page, *markers[field], message=message)


def test_hand_scorer_keeps_what_was_entered_when_it_refuses(client):
    params = _hand("6", "B", ALL_BUT_TEN_TO_A, before_A="ten", before_B="-4")
    response, page = _page(client, HAND, params)
    assert response.status_code == 422
    assert 'name="bid" value="6" checked' in page
    assert 'name="pitcher_team" value="B" checked' in page
    assert 'name="point_ten" value="B" checked' in page
    assert 'name="point_ace" value="A" checked' in page
    assert 'name="before_A" value="ten"' in page
    assert 'name="before_B" value="-4"' in page


def test_hand_scorer_reports_every_problem_at_once(client):
    response, page = _page(client, HAND, {"bid": "10", "point_ace": "C"})
    assert response.status_code == 422
    problems = page[page.index('id="problems"') : page.index("</div>", page.index('id="problems"'))]
    assert problems.count("<li>") == 10  # bid, team, the ace's team and 7 missing cards
    assert (
        '10 is above the highest numbered bid, 9; to bid for all 10 points, bid "moon".' in problems
    )
    assert 'The ace goes to team "A" or "B", or is "out" of play; got "C".' in problems


@pytest.mark.parametrize(
    ("language", "moon", "out"),
    [
        (
            "de",
            'biete "Mond" (in der API: "moon").',
            'oder ist "Aus" (nicht im Spiel; in der API: "out"); angegeben: "C".',
        ),
        (
            "eo",
            'ofertu "Luno" (en la API: "moon").',
            'aŭ estas "For" (ekster la ludo; en la API: "out"); donita: "C".',
        ),
    ],
)
def test_problems_name_the_buttons_the_reader_sees(client, language, moon, out):
    """An audit of the German page: its buttons read "Mond" and "Aus" while the problems
    told the reader to "bid 'moon'" and to choose "out" (the API's words, which they
    still name for whoever sends JSON)."""
    url = HAND.replace("/en/", f"/{language}/", 1)
    response, page = _page(client, url, {"bid": "10", "point_ace": "C"})
    assert response.status_code == 422
    assert moon in page
    assert out in page


def test_reading_the_hand_form_keeps_text_that_is_not_a_number_for_the_referee():
    query = QueryDict("bid=Moon&pitcher_team=b&point_ace=OUT&before_B=%C2%B2&target=+21+")
    assert read_hand(query) == {
        "bid": "moon",
        "pitcher_team": "B",
        "points": {"ace": "out"},
        # One score typed and the other blank: the blank one is 0; "²" is no number.
        "scores_before": {"A": 0, "B": "²"},
        "options": {"target": 21},
    }


def test_reading_a_hand_form_left_blank_gives_the_referee_nothing_to_guess_from():
    assert read_hand(QueryDict("bid=&pitcher_team=+&point_two=a&before_A=&before_B=")) == {
        "bid": None,
        "pitcher_team": None,
        "points": {"two": "A"},
        "scores_before": None,
        "options": {},
    }
