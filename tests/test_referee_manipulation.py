"""The Manipulation referee pages through the Django test client: the meld checker, the
turn checker and "can all these cards go down?". Each case names the rule it checks;
the pages must show the referee's verdict and explanation with rule-book links, and
refuse wrong input with a 422, the line it is on, and the message next to the field."""

import html
import re
from urllib.parse import urlencode

import pytest
from django.http import QueryDict
from django.urls import reverse

from games.referee_pages.manipulation import read_melds

MELDS = reverse("games:referee-manipulation-melds")
TURN = reverse("games:referee-manipulation-turn")
ARRANGE = reverse("games:referee-manipulation-arrange")


def _page(client, url: str, params: dict | None = None, **headers):
    response = client.get(url + ("?" + urlencode(params, doseq=True) if params else ""), **headers)
    return response, html.unescape(response.content.decode())


def _verdict(page: str) -> str:
    match = re.search(r'<h2 id="verdict-heading">(.*?)</h2>', page, re.S)
    assert match, "no verdict on the page"
    return match.group(1).strip()


def _problems(page: str) -> str:
    start = page.index('id="problems"')
    return page[start : page.index("</div>", start)]


def _field_error_between(page: str, marker: str, before: str, *, message: str) -> bool:
    start = page.index(marker)
    return (
        f'<p class="field-error" role="alert">{message}' in page[start : page.index(before, start)]
    )


def _mini_cards(fragment: str) -> list[str]:
    return re.findall(r'class="mini-card[^"]*" role="img" aria-label="([^"]+)"', fragment)


@pytest.mark.parametrize(
    ("url", "heading", "field"),
    [
        pytest.param(MELDS, "Are these melds valid?", 'name="melds"', id="melds"),
        pytest.param(TURN, "Was that turn legal?", 'name="table_after"', id="turn"),
        pytest.param(
            ARRANGE, "Can all these cards go down?", 'name="cards" value="AS"', id="arrange"
        ),
    ],
)
def test_first_visit_has_the_form_no_answer_and_links_to_the_other_tools(
    client, url, heading, field
):
    response, page = _page(client, url)
    assert response.status_code == 200
    assert f"<h1>{heading}</h1>" in page
    assert field in page
    assert 'id="verdict-heading"' not in page
    assert 'class="error-box"' not in page
    assert 'name="ace" value="high" checked' in page
    for other in (MELDS, TURN, ARRANGE):
        assert f'href="{other}"' in page
    assert f'href="{url}" aria-current="page"' in page
    assert 'href="/en/rules/manipulation/"' in page


def test_the_hand_and_the_cards_use_the_two_deck_picker(client):
    # Two decks: every card can be tapped twice, so each face holds two tick boxes.
    for url, name in ((TURN, "hand"), (ARRANGE, "cards")):
        _, page = _page(client, url)
        assert page.count(f'type="checkbox" name="{name}" value="7H"') == 2
        assert 'data-copies="2"' in page


# -- The meld checker -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("melds", "ace", "verdict", "kinds", "because", "anchor"),
    [
        pytest.param(
            "7H 8H 9H",
            "high",
            "The meld is valid",
            ["✓ Sequence"],
            "Meld 1 (7♥ 8♥ 9♥) is a sequence.",
            "manipulation-sequences",
            # Sequences: three or more cards of one suit in a row.
            id="sequence",
        ),
        pytest.param(
            "QS, QH, QD",
            "high",
            "The meld is valid",
            ["✓ Group"],
            "Meld 1 (Q♠ Q♥ Q♦) is a group.",
            "manipulation-groups",
            # Groups: three or four cards of one rank in different suits.
            id="group-with-commas",
        ),
        pytest.param(
            "t♥ J♥ q♥",
            "high",
            "The meld is valid",
            ["✓ Sequence"],
            "Meld 1 (10♥ J♥ Q♥) is a sequence.",
            "manipulation-sequences",
            # Cards typed with T for ten, suit symbols and small letters read the same.
            id="ten-as-t-and-symbols",
        ),
        pytest.param(
            "AH 2H 3H",
            "high",
            "The meld is not valid",
            ["✗ Not a meld"],
            "the ace counts high only here, so A♥ cannot go below 2♥",
            "manipulation-ace",
            # The ace: high only by default, so A-2-3 is no sequence.
            id="ace-low-not-allowed",
        ),
        pytest.param(
            "AH 2H 3H",
            "low_or_high",
            "The meld is valid",
            ["✓ Sequence"],
            "Meld 1 (A♥ 2♥ 3♥) is a sequence with the ace low.",
            "manipulation-ace",
            # Option ace=low_or_high: A-2-3 is a sequence too.
            id="ace-low-allowed",
        ),
        pytest.param(
            "7H 8H 9H\n\nQS QH QD\r\n2C 3C 5C",
            "high",
            "1 of 3 melds is not valid",
            ["✓ Sequence", "✓ Group", "✗ Not a meld"],
            "Meld 3 (2♣ 3♣ 5♣) is not valid: the 4♣ is missing between 3♣ and 5♣.",
            "manipulation-sequences",
            # A sequence has no gaps; blank lines between melds are skipped.
            id="several-melds-one-with-a-gap",
        ),
        pytest.param(
            "7H 8H 9H 10H\nQS QH QD QC",
            "high",
            "All 2 melds are valid",
            ["✓ Sequence", "✓ Group"],
            "Every meld is valid.",
            "manipulation-melds",
            # Melds: a sequence may be longer than three, a group holds all four suits.
            id="all-valid",
        ),
        pytest.param(
            "7H 8C 9H\nQS QS QD",
            "high",
            "2 of 2 melds are not valid",
            ["✗ Not a meld", "✗ Not a meld"],
            "a group needs different suits: Q♠ is there twice",
            "manipulation-groups",
            # Groups: one card of each suit, so the second Q♠ cannot join.
            id="none-valid",
        ),
    ],
)
def test_meld_checker_judges_each_meld_and_explains(
    client, melds, ace, verdict, kinds, because, anchor
):
    response, page = _page(client, MELDS, {"melds": melds, "ace": ace})
    assert response.status_code == 200
    assert _verdict(page) == verdict
    assert re.findall(r'<span class="meld-kind">(.*?)</span>', page) == kinds
    assert because in page
    assert f'href="/en/rules/manipulation/#{anchor}"' in page
    assert f'name="ace" value="{ace}" checked' in page


def test_meld_checker_names_the_line_each_meld_is_on_and_shows_its_cards(client):
    _, page = _page(client, MELDS, {"melds": "7H 8H 9H\n\n\nKS AS 2S"})
    results = page[page.index('<ol class="meld-list">') : page.index("</ol>")]
    assert re.findall(r'<span class="meld-line">(.*?)</span>', results) == ["Line 1", "Line 4"]
    assert _mini_cards(results) == [
        "seven of hearts",
        "eight of hearts",
        "nine of hearts",
        "king of spades",
        "ace of spades",
        "two of spades",
    ]
    # Going round the corner is never a sequence.
    assert "K♠ A♠ 2♠ wraps round the ace, which these rules do not allow." in results


@pytest.mark.parametrize(
    ("params", "message"),
    [
        pytest.param(
            {"melds": "7H 8H 9H\n\nZZ QH QD"},
            'Line 3: "ZZ" is not a card. Write rank then suit',
            id="not-a-card-on-line-3",
        ),
        pytest.param(
            {"melds": "7H 8H 9H\nJOKER-HIGH 7C 7D"},
            "Line 2: High joker is not in two 52-card decks. Manipulation is played without "
            "jokers.",
            # Cards: two ordinary decks, no jokers.
            id="no-jokers",
        ),
        pytest.param(
            {"melds": "7H 8H 9H\n7H 7H 7H"},
            "7♥ is there 4 times, but there are only 2 of each card in two 52-card decks.",
            # Cards: every card exists twice, so no table holds it more often.
            id="more-than-two-copies",
        ),
        pytest.param(
            {"melds": "  \n "},
            "Write at least one meld: one per line, like 7H 8H 9H.",
            id="nothing-typed",
        ),
    ],
)
def test_meld_checker_refuses_wrong_input_with_the_line(client, params, message):
    response, page = _page(client, MELDS, params)
    assert response.status_code == 422
    assert 'id="verdict-heading"' not in page
    assert message in _problems(page)
    assert _field_error_between(page, "Melds, one per line", 'id="melds"', message=message)
    # What was typed stays, to be corrected.
    typed = params["melds"].replace("\r\n", "\n")
    assert f">{typed}</textarea>" in page.replace("\r\n", "\n")


def test_meld_checker_refuses_an_unknown_ace_rule_and_other_problems_with_it(client):
    response, page = _page(client, MELDS, {"melds": "7H 8H XX", "ace": "middle"})
    assert response.status_code == 422
    problems = _problems(page)
    assert "2 things to fix" in page
    assert (
        'The ace is either "high" (Q-K-A only) or "low_or_high" (A-2-3 too); "middle" is neither.'
        in problems
    )
    assert 'Line 1: "XX" is not a card.' in problems
    assert _field_error_between(
        page, 'id="label-ace"', "</fieldset>", message='The ace is either "high"'
    )


def test_meld_checker_answers_htmx_with_the_tool_only(client):
    response, page = _page(client, MELDS, {"melds": "7H 8H 9H"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert page.lstrip().startswith('<div id="tool"')
    assert "<html" not in page
    response, page = _page(client, MELDS, {"melds": "ZZ"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 422
    assert page.lstrip().startswith('<div id="tool"')


def test_reading_melds_skips_blank_lines_and_keeps_the_line_of_each():
    typed = read_melds("7H 8H 9H\n\n  \nQS;QH , QD\nXX", "melds")
    assert [[c.code for c in meld] for meld in typed.melds] == [
        ["7H", "8H", "9H"],
        ["QS", "QH", "QD"],
    ]
    assert typed.lines == [1, 4]
    assert [p.field for p in typed.problems] == ["melds"]
    assert typed.problems[0].message.startswith('Line 5: "XX" is not a card.')


# -- The turn checker -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "verdict", "reasons", "played", "because", "anchor"),
    [
        pytest.param(
            {"table_before": "7H 8H 9H", "table_after": "7H 8H 9H 10H", "hand": ["10H", "JS"]},
            "✓ The turn is legal",
            [],
            ["ten of hearts"],
            "Every card that was on the table is still there.",
            "manipulation-turn",
            # A turn: add at least one card from the hand; the table stays valid.
            id="laying-off-one-card",
        ),
        pytest.param(
            {"table_before": "7H 8H 9H", "table_after": "8H 9H 10H", "hand": ["10H"]},
            "✗ The turn is not legal",
            ["The 7♥ from the table is missing."],
            ["ten of hearts"],
            "cards on the table stay on the table, though they may move between melds.",
            "manipulation-turn",
            # A turn: table cards may be rearranged but never taken back into the hand.
            id="table-card-taken",
        ),
        pytest.param(
            {"table_before": "", "table_after": "QS QH QD", "hand": ["QS", "QH"]},
            "✗ The turn is not legal",
            ["Q♦ was not in your hand."],
            ["queen of spades", "queen of hearts", "queen of diamonds"],
            "Q♦ was not in your hand.",
            "manipulation-turn",
            # A turn: the cards added come from the player's hand.
            id="card-not-in-hand",
        ),
        pytest.param(
            {"table_before": "7H 8H 9H", "table_after": "7H 8H 9H"},
            "✗ The turn is not legal",
            ["No card came from your hand."],
            [],
            "A player who cannot do that draws from the stock instead.",
            "manipulation-drawing",
            # Drawing from the stock: a player who adds nothing draws instead.
            id="nothing-played",
        ),
    ],
)
def test_turn_checker_says_legal_or_not_and_exactly_why(
    client, params, verdict, reasons, played, because, anchor
):
    response, page = _page(client, TURN, params)
    assert response.status_code == 200
    assert _verdict(page) == verdict
    assert re.findall(r"<ul class=\"reasons\">(.*?)</ul>", page, re.S) == (
        ["".join(f"<li>{r}</li>" for r in reasons)] if reasons else []
    )
    shown = page[page.index('data-testid="played"') :]
    assert _mini_cards(shown[: shown.index("</div>") if played else 0]) == played
    if not played:
        assert 'data-testid="played">None.</p>' in page
    assert because in page
    assert f'href="/en/rules/manipulation/#{anchor}"' in page


def test_turn_checker_keeps_the_tables_and_the_hand_it_was_given(client):
    params = {"table_before": "7H 8H 9H", "table_after": "8H 9H 10H", "hand": ["10H", "10H"]}
    _, page = _page(client, TURN, params)
    assert ">7H 8H 9H</textarea>" in page
    assert ">8H 9H 10H</textarea>" in page
    # Both copies of the 10♥ stay ticked, and the hand section is open to show them.
    assert page.count('name="hand" value="10H" checked') == 2
    assert '<details class="panel hand-panel" open>' in page


@pytest.mark.parametrize(
    ("params", "marker", "before", "message"),
    [
        pytest.param(
            {"table_before": "7H 8H 9H\n7C 8C 9X", "table_after": "7H 8H 9H 10H"},
            "Before the turn",
            'id="table_before"',
            'Line 2: "9X" is not a card.',
            id="bad-card-before",
        ),
        pytest.param(
            {"table_before": "7H 8H 9H", "table_after": ""},
            "After the turn",
            'id="table_after"',
            "Write the melds on the table after the turn: one per line, like 7H 8H 9H.",
            id="nothing-after",
        ),
        pytest.param(
            {"table_after": "7H 8H 9H", "hand": ["7H", "7H", "7H"]},
            "The hand before the turn",
            "The hand</legend>",
            "7♥ is there 3 times, but there are only 2 of each card in two 52-card decks.",
            # Cards: every card exists twice.
            id="three-copies-in-hand",
        ),
    ],
)
def test_turn_checker_refuses_wrong_input_next_to_its_field(
    client, params, marker, before, message
):
    response, page = _page(client, TURN, params)
    assert response.status_code == 422
    assert 'id="verdict-heading"' not in page
    assert message in _problems(page)
    assert _field_error_between(page, marker, before, message=message)


# -- Can all these cards go down? ---------------------------------------------------


def _cards(codes: str) -> list[str]:
    return codes.split()


def test_arrange_shows_one_layout_as_rows_of_cards(client):
    params = {"cards": _cards("7H 8H 9H 10H QS QC QD AS 2S 3S"), "ace": "low_or_high"}
    response, page = _page(client, ARRANGE, params)
    assert response.status_code == 200
    assert _verdict(page) == "✓ Yes: all 10 cards can go down"
    rows = re.findall(r'<li class="layout-row">(.*?)</li>', page, re.S)
    assert [re.search(r'meld-kind">(\w+)<', row).group(1) for row in rows] == [
        "Sequence",
        "Sequence",
        "Group",
    ]
    assert [len(_mini_cards(row)) for row in rows] == [3, 4, 3]
    assert _mini_cards(rows[0]) == ["ace of spades", "two of spades", "three of spades"]
    # The ace: with the option, a low ace starts A-2-3.
    assert "Sequence A♠ 2♠ 3♠, with the ace low." in page
    assert 'href="/en/rules/manipulation/#manipulation-ace"' in page
    assert page.count('name="cards" value="7H" checked') == 1


@pytest.mark.parametrize(
    ("codes", "because"),
    [
        pytest.param(
            "7H 8H",
            "2 cards cannot all be laid out: 7♥ 8♥ have no meld to go in.",
            # Melds: every meld needs at least three cards.
            id="too-few-for-a-meld",
        ),
        pytest.param(
            "7H 8H 9H 7C 7S",
            "Each of the 5 cards could join some meld on its own, but not all at the same time",
            # Melds: a card belongs to one meld at a time.
            id="cards-compete-for-the-7h",
        ),
    ],
)
def test_arrange_says_no_and_why(client, codes, because):
    response, page = _page(client, ARRANGE, {"cards": _cards(codes)})
    assert response.status_code == 200
    count = len(codes.split())
    assert _verdict(page) == f"✗ No: not all {count} cards can go down"
    assert 'class="layout"' not in page
    assert because in page
    assert 'href="/en/rules/manipulation/#manipulation-melds"' in page


@pytest.mark.parametrize(
    ("params", "message"),
    [
        pytest.param({"ace": "high"}, "Tap the cards to lay out: at least three.", id="no-cards"),
        pytest.param(
            {"cards": ["7H", "7H", "7H", "8H", "9H"]},
            "7♥ is there 3 times, but there are only 2 of each card in two 52-card decks.",
            # Cards: two decks hold two of each card.
            id="three-copies",
        ),
        pytest.param(
            {"cards": ["7H", "8H", "JOKER-LOW"]},
            "Low joker is not in two 52-card decks. Manipulation is played without jokers.",
            id="joker",
        ),
    ],
)
def test_arrange_refuses_wrong_input_next_to_the_cards(client, params, message):
    response, page = _page(client, ARRANGE, params)
    assert response.status_code == 422
    assert 'id="verdict-heading"' not in page
    assert message in _problems(page)
    assert _field_error_between(
        page, "<legend>The cards</legend>", "Cards to lay out", message=message
    )


def test_arrange_picker_keeps_both_copies_it_was_given(client):
    _, page = _page(client, ARRANGE, {"cards": ["7H", "7H", "8H"]})
    assert page.count('name="cards" value="7H" checked') == 2
    assert page.count('name="cards" value="8H" checked') == 1


def test_pages_answer_a_link_with_repeated_or_spaced_values(client):
    query = QueryDict(mutable=True)
    query.setlist("cards", ["qs", " QH ", "Q♦"])
    response, page = _page(client, ARRANGE + "?" + query.urlencode())
    assert response.status_code == 200
    assert _verdict(page) == "✓ Yes: all 3 cards can go down"
