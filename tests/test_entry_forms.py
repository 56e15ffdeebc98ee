"""The sheet's entry forms (issue 9): what a posted form is read as, the defaults a
player accepts without a tap, and every problem said in the form's own words.

Rule cases cite the rule book section (and the ISkO where the code cites it) that
makes them so. Field names are those of ``games.entry_forms``.
"""

from __future__ import annotations

import json
import re

import pytest
from django.http import QueryDict
from django.utils.html import escape

from games import entry_forms, services
from games.rules.errors import Problem
from games.rules.skat_sheet import SkatSheetOptions
from games.selectors import live_hands

THREE = ["Ana", "Ben", "Cem"]
FOUR = ["Ana", "Ben", "Cem", "Dan"]
HTMX = {"HTTP_HX_REQUEST": "true"}


def form(**fields) -> QueryDict:
    post = QueryDict(mutable=True)
    for name, value in fields.items():
        if isinstance(value, list):
            post.setlist(name, value)
        else:
            post[name] = value
    return post


def won_clubs(**extra) -> QueryDict:
    base = {
        "mode": "game",
        "declarer": "1",
        "game": "clubs",
        "bid": "18",
        "matadors_tap": "with-1",
        "outcome": "won",
    }
    return form(**{**base, **extra})


# -- Skat: what the form is read as -------------------------------------------------------


@pytest.mark.parametrize("game", ["diamonds", "hearts", "spades", "clubs", "grand"])
def test_ouvert_posted_for_a_suit_or_grand_game_is_read_as_hand(game):
    # Rule book, Ouvert: a suit or grand game can be open only as a hand game.
    entry = entry_forms.skat_entry(won_clubs(game=game, ouvert="on"), players=3)
    assert entry["ouvert"] is True
    assert entry["hand"] is True


def test_null_ouvert_stays_as_posted():
    # Rule book, Null: Null Ouvert (46) may be played after picking up the skat.
    entry = entry_forms.skat_entry(
        form(mode="game", declarer="0", game="null", bid="23", ouvert="on", outcome="won"),
        players=3,
    )
    assert entry == {"declarer": 0, "game": "null", "bid": 23, "ouvert": True, "outcome": "won"}


def test_the_referee_api_still_refuses_an_ouvert_suit_game_without_hand(client):
    # Its contract: the JSON says exactly what was played (rule book, Ouvert).
    body = {"game": "clubs", "bid": 18, "ouvert": True, "matadors": {"with": 1}}
    response = client.post(
        "/api/v1/skat/score", json.dumps({**body, "outcome": "won_schwarz"}), "application/json"
    )
    assert response.status_code == 422
    assert [e["field"] for e in response.json()["errors"]] == ["ouvert"]


@pytest.mark.parametrize(
    ("fields", "bid"),
    [
        pytest.param({"bid": "33"}, 33, id="a-chip"),
        pytest.param({"bid": "other", "bid_other": "27"}, 27, id="other-bid-from-the-list"),
        pytest.param({"bid": "other", "bid_other": ""}, None, id="other-bid-not-chosen"),
        pytest.param({"bid": "27", "bid_other": "99"}, 27, id="the-list-only-counts-for-other"),
    ],
)
def test_the_bid_is_a_chip_or_the_one_chosen_under_other(fields, bid):
    entry = entry_forms.skat_entry(won_clubs(**fields), players=3)
    assert entry.get("bid") == bid


@pytest.mark.parametrize(
    ("said", "announced"),
    [
        pytest.param(["schneider"], "schneider", id="schneider"),
        pytest.param(["schneider", "schwarz"], "schwarz", id="both-ticked-is-schwarz"),
        pytest.param(["none"], None, id="a-radio-saying-none"),
        pytest.param([], None, id="nothing"),
    ],
)
def test_announced_ticks_read_as_one_announcement(said, announced):
    # Rule book, Announcing schneider and schwarz: schwarz announced includes schneider.
    entry = entry_forms.skat_entry(won_clubs(hand="on", announced=said), players=3)
    assert entry.get("announced") == announced


@pytest.mark.parametrize(
    ("posted", "hand"),
    [
        pytest.param(["7"], False, id="only-the-correction-pages-deal-id"),
        pytest.param(["1"], False, id="deal-id-1-is-not-a-tick"),
        pytest.param(["7", "on"], True, id="deal-id-and-the-box"),
        pytest.param(["on"], True, id="the-box"),
    ],
)
def test_the_correction_pages_deal_id_is_not_a_hand_tick(posted, hand):
    # deal_correct.html posts the deal's id as "hand", before the Hand box.
    entry = entry_forms.skat_entry(won_clubs(hand=posted), players=3)
    assert entry.get("hand", False) is hand


@pytest.mark.parametrize(
    ("values", "total", "out", "worked"),
    [
        pytest.param([30, 50, None], 120, None, [30, 50, 40], id="points-at-three"),
        pytest.param([None, 4, 3], 10, None, [3, 4, 3], id="tricks-first-player-left"),
        pytest.param([None, 30, None, 50], 120, 0, [None, 30, 40, 50], id="four-dealer-out"),
        pytest.param([30, None, None], 120, None, [30, None, None], id="two-missing"),
        pytest.param([70, 60, None], 120, None, [70, 60, None], id="over-120-left-alone"),
        pytest.param([30, "x", None], 120, None, [30, "x", None], id="text-left-alone"),
        pytest.param([30, 50, 40], 120, None, [30, 50, 40], id="all-given"),
        # Issue 17: at five the dealer and the third player to his left sit out.
        pytest.param([None, 30, 50, None, None], 120, [0, 3], [None, 30, 50, None, 40], id="five"),
    ],
)
def test_the_last_ramsch_player_is_worked_out(values, total, out, worked):
    # Rule book, Ramsch: the three players' card points add up to 120 (the skat counts
    # for the last trick) and their tricks to 10.
    assert entry_forms.work_out_last(values, total=total, sitting_out=out) == worked


def test_a_ramsch_of_two_players_is_stored_with_the_third_worked_out():
    post = form(
        mode="passed",
        ramsch_points_1="30",
        ramsch_points_3="50",
        ramsch_tricks_1="3",
        ramsch_tricks_3="4",
        ramsch_last_trick="3",
        ramsch_out="0",
    )
    assert entry_forms.skat_entry(post, players=4) == {
        "passed": True,
        "ramsch": {"points": [None, 30, 40, 50], "tricks": [None, 3, 3, 4], "last_trick": 3},
    }


def test_a_new_skat_deal_starts_from_the_defaults():
    values = entry_forms.skat_form({})
    assert values == {"mode": "game", "bid": 18, "outcome": "won", "result_by": "outcome"}


@pytest.mark.parametrize(
    ("values", "chips"),
    [
        pytest.param({}, [18, 20, 22, 23, 24], id="before-a-game"),
        # ISkO 4.1: base value × levels. Spades with 2: 3 × 11 = 33; 44 with schneider.
        pytest.param(
            {"game": "spades", "matadors_count": 2}, [33, 18, 20, 22, 23, 44], id="spades-with-2"
        ),
        # Grand with 1: 2 × 24 = 48; 72 with schneider; no lower multiple reaches 18.
        pytest.param({"game": "grand"}, [48, 18, 20, 22, 23, 72], id="grand-with-1"),
        # Grand Hand with 4: 6 × 24 = 144, the multiples around it.
        pytest.param(
            {"game": "grand", "matadors_count": 4, "hand": True},
            [144, 18, 20, 96, 120, 168],
            id="grand-hand-with-4",
        ),
        # Rule book, Null: a fixed 23; Null Hand 35.
        pytest.param({"game": "null"}, [23, 18, 20, 22], id="null"),
        pytest.param({"game": "null", "hand": True}, [35, 18, 20, 22, 23, 24], id="null-hand"),
        # Rule book, Ouvert: counts as schwarz announced plus ouvert: 8 levels, 8 × 12 = 96.
        pytest.param(
            {"game": "clubs", "ouvert": True, "hand": True, "matadors_count": 1},
            [96, 18, 20, 72, 84, 108],
            id="clubs-ouvert-with-1",
        ),
        pytest.param(
            {"game": "diamonds", "matadors_count": 1, "bid": 36}, [18, 27, 36], id="chosen-kept"
        ),
    ],
)
def test_the_bid_chips_are_the_bids_that_matter(values, chips):
    assert entry_forms.skat_bid_chips(values) == chips
    assert len(chips) <= entry_forms.MOST_BID_CHIPS + 1


# -- Pitch ----------------------------------------------------------------------------------


def test_pitch_cards_left_unmarked_went_to_the_other_team_when_the_form_says_so():
    post = form(
        pitcher="0", bid="4", point_three="A", points_rest="pitcher", points_rest_other="on"
    )
    entry = entry_forms.pitch_entry(post, players=4)
    # Ann in seat 1 plays for team A; "the rest: other team" gives team B every card
    # left untapped.
    assert entry["points"] == {
        "ace": "B",
        "jack": "B",
        "off_jack": "B",
        "high_joker": "B",
        "low_joker": "B",
        "ten": "B",
        "two": "B",
        "three": "A",
    }


def test_a_game_by_value_is_posted_as_the_declarer_and_the_value():
    # A paper list writes a lost game as minus twice its value: "Lost" makes it minus.
    post = form(mode="game", declarer="1", by_value="on", value="96", value_lost="on", bid="18")
    assert entry_forms.skat_entry(post, players=3) == {"declarer": 1, "value": -96}
    assert entry_forms.skat_form({"declarer": 1, "value": -96})["value"] == 96
    typed = form(mode="game", declarer="1", by_value="on", value="-96")
    assert entry_forms.skat_entry(typed, players=3) == {"declarer": 1, "value": -96}


def test_sixty_all_is_posted_as_60_card_points():
    post = form(mode="game", declarer="1", game="spades", bid="18", outcome="sixty_all")
    entry = entry_forms.skat_entry(post, players=3)
    assert entry["declarer_points"] == 60
    assert "outcome" not in entry
    assert entry_forms.skat_form(entry)["outcome"] == "sixty_all"


def test_pitch_cards_left_unmarked_went_to_the_pitchers_team():
    post = form(pitcher="1", bid="5", point_ten="A", point_two="out", points_rest="pitcher")
    entry = entry_forms.pitch_entry(post, players=4)
    # Partners sit opposite (rule book, The cards): Ben in seat 2 plays for team B.
    assert entry["points"] == {
        "ace": "B",
        "jack": "B",
        "off_jack": "B",
        "high_joker": "B",
        "low_joker": "B",
        "ten": "A",
        "two": "out",
        "three": "B",
    }


def test_pitch_cards_are_left_unsaid_without_the_forms_rest_field():
    entry = entry_forms.pitch_entry(form(pitcher="1", bid="5", point_ten="A"), players=4)
    assert entry["points"] == {"ten": "A"}


# -- Problems in the form's words ----------------------------------------------------------

NO_SEATS = re.compile(r"\bseats?\b|\bnull\b|_", re.IGNORECASE)


@pytest.mark.parametrize(
    ("game", "problem", "shown"),
    [
        pytest.param(
            "manipulation",
            Problem("penalties.2", "The penalty for seat 3 must be a whole number, not null."),
            Problem("penalties.2", "Type Cem’s penalty: the points of the cards left in the hand."),
            id="empty-penalty",
        ),
        pytest.param(
            "manipulation",
            Problem("penalties.1", "The penalty for seat 2 must be a whole number, not text."),
            Problem("penalties.1", "Ben’s penalty: type a whole number, like 35."),
            id="penalty-not-a-number",
        ),
        pytest.param(
            "manipulation",
            Problem("penalties.1", "Ben's penalty of 7 cannot be right: every card costs 5."),
            Problem("penalties.1", "Ben's penalty of 7 cannot be right: every card costs 5."),
            id="plain-words-kept",
        ),
        pytest.param(
            "skat",
            Problem("declarer", "Declarer is missing."),
            Problem(
                "declarer",
                "Declarer: tap the player who played the game, or “Everyone passed”.",
            ),
            id="no-declarer",
        ),
        pytest.param(
            "skat",
            Problem("declarer", "The declarer is one of the seats 0 to 2 (0 Ana, 1 Ben); got 5."),
            Problem(
                "declarer",
                "Declarer: tap the player who played the game, or “Everyone passed”.",
            ),
            id="declarer-seat-out-of-range",
        ),
        pytest.param(
            "skat",
            Problem("bid", "Bid is missing."),
            Problem("bid", "Bid is missing. Tap the bid that won the auction."),
            id="no-bid",
        ),
        pytest.param(
            "skat",
            Problem("matadors", "Clubs needs the matadors: give them as with/against N, or …"),
            Problem("matadors", "Matadors: tap “with” or “against” and how many."),
            id="no-matadors",
        ),
        pytest.param(
            "skat",
            Problem(None, "Say how the game went: the declarer's points and tricks, or …"),
            Problem(
                "outcome",
                "Result: tap how the game went (won, lost …), or count the card points.",
            ),
            id="no-result-goes-to-the-result",
        ),
        pytest.param(
            "skat",
            Problem("ramsch.last_trick", "Say which seat took the last trick (the skat goes …)."),
            Problem(
                "ramsch.last_trick",
                "Last trick: tap the player who took it (the skat goes with it).",
            ),
            id="ramsch-last-trick",
        ),
        pytest.param(
            "skat",
            Problem("ramsch.points.0", "Seat 1's card points must be a whole number, not text."),
            Problem("ramsch.points.0", "Ana’s card points: type a whole number from 0 to 120."),
            id="ramsch-points",
        ),
        pytest.param(
            "skat",
            Problem(
                "re",
                "This sheet is kept without Kontra and Re, so nobody can say Re; leave re out.",
            ),
            Problem(None, "This sheet is kept without Kontra and Re, so nobody can say Re."),
            id="no-re-control-goes-to-the-top",
        ),
        pytest.param(
            "skat",
            Problem("bock", "The sheet itself knows which deals are Bock deals; leave bock out."),
            Problem(None, "The sheet itself knows which deals are Bock deals."),
            id="unknown-field-goes-to-the-top",
        ),
        pytest.param(
            "pitch",
            Problem("pitcher", "Pitcher is missing."),
            Problem("pitcher", "Who pitched? Tap the player who won the bid."),
            id="no-pitcher",
        ),
        pytest.param(
            "pitch",
            Problem(
                "points.two", 'Say who took the two: "A", "B", or "out" if it was out of play.'
            ),
            Problem(
                "points.two", 'Say who took the two: "A", "B", or "out" if it was out of play.'
            ),
            id="pitch-card-kept",
        ),
        pytest.param(
            "pitch",
            Problem("pitcher", "The pitcher is one of the four seats, 0 to 3 (…); got 7."),
            Problem("pitcher", "Who pitched? Tap the player who won the bid."),
            id="pitcher-seat",
        ),
    ],
)
def test_problems_are_said_with_the_forms_labels_and_the_players_names(game, problem, shown):
    players = FOUR if game == "pitch" else THREE
    # A sheet that plays Ramsch when all pass, without Kontra and Re.
    options = SkatSheetOptions(all_pass="ramsch")
    assert entry_forms.form_problem(game, problem, players, options) == shown
    assert not NO_SEATS.search(shown.message.replace("Null", ""))


def test_the_same_message_is_shown_once():
    problems = [Problem("re", "Re without Kontra."), Problem("re", "Re without Kontra.")]
    assert entry_forms.form_problems("skat", problems, THREE, SkatSheetOptions()) == [
        Problem(None, "Re without Kontra.")
    ]


def test_the_series_length_is_named_by_its_label():
    message = entry_forms.option_message(
        "series_deals", "series_deals is a whole number of deals … or null …; got 0."
    )
    assert message == (
        "Deals in the series: give a whole number from 1 to 200, or leave it empty for the "
        "usual series (36 deals at three players, 48 at four)."
    )


# -- Through the sheet's pages --------------------------------------------------------------

needs_db = pytest.mark.django_db


@needs_db
@pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
def test_a_forgotten_penalty_names_the_player_beside_the_field(client, htmx):
    sheet = services.sheet_create(game="manipulation", players=THREE)
    post = {"went_out": "0", "count_by": "penalties", "penalty_1": "25", "penalty_2": ""}
    response = client.post(f"/en/s/{sheet.edit_token}/", post, **(HTMX if htmx else {}))
    assert response.status_code == 422
    page = response.content.decode()
    message = escape("Type Cem’s penalty: the points of the cards left in the hand.")
    # Beside Cem's field, and in the box at the top.
    assert re.search(
        r'name="penalty_2"[^>]*>\s*</label>\s*<p class="field-error" role="alert">' + message,
        page,
    )
    assert page.count(message) == 2
    assert "seat 3" not in page
    assert "not null" not in page
    assert live_hands(sheet) == []


@needs_db
def test_a_skat_deal_without_a_declarer_says_so_in_the_forms_words(client):
    sheet = services.sheet_create(game="skat", players=THREE)
    post = {"mode": "game", "game": "grand", "bid": "18", "matadors_tap": "with-1"}
    response = client.post(f"/en/s/{sheet.edit_token}/", {**post, "outcome": "won"})
    assert response.status_code == 422
    page = response.content.decode()
    assert escape("Declarer: tap the player who played the game, or “Everyone passed”.") in page
    assert "Declarer is missing." not in page


@needs_db
def test_an_ouvert_clubs_posted_without_hand_is_stored_as_a_hand_game(client):
    sheet = services.sheet_create(game="skat", players=THREE)
    post = {**won_clubs(ouvert="on", outcome="won_schwarz").dict()}
    response = client.post(f"/en/s/{sheet.edit_token}/", post)
    assert response.status_code == 302
    # Rule book, Ouvert: 8 levels × 12 = 96.
    assert [h.entry for h in live_hands(sheet)] == [
        {
            "declarer": 1,
            "game": "clubs",
            "bid": 18,
            "hand": True,
            "ouvert": True,
            "matadors": {"with": 1},
            "outcome": "won_schwarz",
        }
    ]


@needs_db
def test_the_preview_says_the_first_thing_missing_in_the_forms_words(client):
    sheet = services.sheet_create(game="manipulation", players=THREE)
    response = client.post(
        f"/en/s/{sheet.edit_token}/preview", {"went_out": "0", "penalty_1": "", "penalty_2": ""}
    )
    page = response.content.decode()
    assert escape("Type Ben’s penalty: the points of the cards left in the hand.") in page
    assert "and 1 more" in page
    assert "seat" not in page


@needs_db
def test_a_new_skat_deal_offers_the_defaults_and_the_low_bids(client):
    sheet = services.sheet_create(game="skat", players=THREE)
    page = client.get(f"/en/s/{sheet.edit_token}/").content.decode()
    assert 'name="mode" value="game" data-show="game" checked' in page
    assert 'name="bid" value="18" checked' in page
    assert 'name="outcome" value="won" checked' in page
    chips = re.findall(r'name="bid" value="(\d+)"', page)
    assert chips == ["18", "20", "22", "23", "24"]
    assert 'name="bid" value="other"' in page
    # Every legal bid stays reachable.
    assert page.count('<option value="') >= 60


@needs_db
def test_a_correction_shows_the_stored_bid_and_announcement(client):
    sheet = services.sheet_create(game="skat", players=THREE)
    services.hand_record(
        sheet=sheet,
        data={
            "declarer": 1,
            "game": "grand",
            "bid": 48,
            "hand": True,
            "announced": "schwarz",
            "matadors": {"with": 2},
            "outcome": "won_schwarz",
        },
    )
    page = client.get(f"/en/s/{sheet.edit_token}/deals/1/").content.decode()
    assert 'name="bid" value="48" checked' in page
    assert 'name="announced" value="schneider" checked' in page
    assert 'name="announced" value="schwarz" checked' in page
    assert 'data-entry-key="/en/s/' in page


# -- The rule book's sections for the dialog ------------------------------------------------


@needs_db
def test_a_rule_section_comes_alone_for_the_dialog(client):
    response = client.get("/en/rules/skat/sections/skat-game-value", **HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('<section id="skat-game-value"') == 1
    assert '<section id="skat-cards"' not in page
    # Its nested sections come with it; links within the book lead to the book.
    assert 'id="skat-matadors"' in page
    assert 'href="/en/rules/skat/#skat-levels"' in page
    assert 'href="#' not in page
    assert "<html" not in page


@needs_db
def test_a_rule_section_without_htmx_is_the_rule_book_itself(client):
    response = client.get("/en/rules/pitch/sections/pitch-made")
    assert response.status_code == 302
    assert response["Location"] == "/en/rules/pitch/#pitch-made"


@needs_db
@pytest.mark.parametrize(
    "path", ["/en/rules/bridge/sections/bridge-bids", "/en/rules/skat/sections/skat-nothing"]
)
def test_an_unknown_rule_section_is_404(client, path):
    assert client.get(path, **HTMX).status_code == 404


def test_the_preview_links_every_rule_to_its_section_alone():
    from games.rules.errors import Step
    from games.templatetags.sheets import explanation

    html = explanation([Step("Matadors: with 2.", "skat-matadors")])
    assert 'href="/en/rules/skat/#skat-matadors"' in html
    assert 'data-rule-fragment="/en/rules/skat/sections/skat-matadors"' in html


@needs_db
def test_a_new_sheets_series_length_problem_names_its_label(client):
    post = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "first_dealer": "0"}
    response = client.post("/en/new/skat/", {**post, "option_series_deals": "0"})
    assert response.status_code == 422
    page = response.content.decode()
    message = "Deals in the series: give a whole number from 1 to 200, or leave it empty"
    assert message in page
    assert "series_deals is" not in page


@needs_db
def test_a_new_sheets_option_problem_stands_beside_its_option(client):
    # The message belongs next to the field it is about (issue 9), not only at the top.
    post = {"player_0": "Ana", "player_1": "Ben", "player_2": "Cem", "first_dealer": "0"}
    page = client.post("/en/new/skat/", {**post, "option_series_deals": "0"}).content.decode()
    field = page.index('name="option_series_deals"')
    beside = page.index('class="field-error"', field)
    assert "Deals in the series" in page[beside : beside + 300]


@pytest.mark.django_db
def test_a_game_by_value_is_saved_from_the_form_and_corrected_on_its_page(client):
    from games import services
    from games.selectors import live_hands

    sheet = services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    url = f"/en/s/{sheet.edit_token}/"
    posted = {"mode": "game", "declarer": "1", "by_value": "on", "value": "96", "value_lost": "on"}
    # Hidden controls a phone without JavaScript still posts are not read.
    response = client.post(url, {**posted, "game": "grand", "bid": "18", "outcome": "won"})
    assert response.status_code == 302
    assert [h.entry for h in live_hands(sheet)] == [{"declarer": 1, "value": -96}]
    page = client.get(f"{url}deals/1/").content.decode()
    assert 'name="by_value" checked' in page
    assert 'name="value" value="96"' in page
    assert 'name="value_lost" checked' in page
    # A value no game has is refused beside the field, in a player's words; nothing saved.
    refused = client.post(url, {"mode": "game", "declarer": "2", "by_value": "on", "value": "47"})
    assert refused.status_code == 422
    assert "No Skat game is worth 47; the nearest are 46 (Null Ouvert)" in refused.content.decode()
    assert len(live_hands(sheet)) == 1
