"""The referee's words where the sheet pages show them (issue 9, "Right words").

A new user read these at a table: after a failed moon the Pitch sheet still said how
many points each team "needs"; the Seeger-Fabian table wrote -94 with a hyphen next to
totals written −94; Manipulation, which is played in rounds, said "deal". Each test
names the rule behind the words it checks.
"""

from __future__ import annotations

import html
import re

import pytest

from games import services
from games.models import Sheet

pytestmark = pytest.mark.django_db

FOUR = ["Ana", "Ben", "Cem", "Dan"]
THREE = ["Ana", "Ben", "Cem"]
POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")
HYPHEN_MINUS = re.compile(r"(?<![\w.#&;-])-\d")


def pitch_deal(pitcher: int, bid, holders: str) -> dict:
    """Who took each point card, in POINT_KEYS order ("A", "B" or "-" for out of play)."""
    points = {k: ("out" if c == "-" else c) for k, c in zip(POINT_KEYS, holders, strict=True)}
    return {"pitcher": pitcher, "bid": bid, "points": points}


def sheet_with(game: str, players: list[str], *deals: dict, **options) -> Sheet:
    sheet = services.sheet_create(game=game, players=players, options=options or None)
    for deal in deals:
        services.hand_record(sheet=sheet, data=deal)
    sheet.refresh_from_db()
    return sheet


def text_of(markup: str) -> str:
    """What a reader sees: tags dropped, entities decoded, white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def tally(client, sheet: Sheet) -> str:
    """The game's own panel under the deals (Seeger-Fabian, the target), as text."""
    page = client.get(sheet.get_absolute_url()).content.decode()
    found = re.search(r'<section class="panel tally".*?</section>', page, re.S)
    return text_of(found.group(0)) if found else ""


# -- Pitch: after the game is over nobody "needs" points --------------------------------


def test_while_pitch_is_played_each_team_sees_what_it_needs_with_its_players(client):
    # End of the game: the first team to reach the target (52) wins. Team A made its 4
    # with 5 points, team B took the other 5.
    sheet = sheet_with("pitch", FOUR, pitch_deal(0, 4, "AAAAABBB"))
    assert tally(client, sheet) == "Team A Ana & Cem needs 47 more Team B Ben & Dan needs 47 more"


def test_after_a_failed_moon_the_pitch_sheet_says_who_won_and_nobody_needs_more(client):
    # Shooting the moon: a failed moon loses the game at once. Team B bid moon and took
    # 7 of the 10 points; team A adds its 3 and wins, 49 short of the target.
    sheet = sheet_with("pitch", FOUR, pitch_deal(1, "moon", "BBBBBBBA"))
    shown = tally(client, sheet)
    assert "needs" not in shown
    assert shown == "Team A Ana & Cem won Team B Ben & Dan lost"
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "Team A won 3 to 0: team B&#x27;s moon failed" in page


def test_a_team_over_the_target_that_has_not_won_yet_has_reached_it(client):
    # Option bid_out: a team wins only on a hand it pitched and made. Team A (5, then 6
    # more) reaches 11 on team B's hand, where B is set to −1: play goes on.
    sheet = sheet_with(
        "pitch",
        FOUR,
        pitch_deal(0, 4, "AAAAABBB"),
        pitch_deal(1, 6, "AAAAAABB"),
        target=11,
        win_condition="bid_out",
    )
    assert tally(client, sheet) == "Team A Ana & Cem reached 11 Team B Ben & Dan needs 12 more"


# -- Manipulation: rounds, and no points "to go" once the game is over -------------------


def test_while_manipulation_is_played_the_players_see_the_points_to_go(client):
    # End of the game: it ends after the round in which someone reaches the target (200).
    sheet = sheet_with("manipulation", THREE, {"penalties": [0, 40, 35]})
    shown = tally(client, sheet)
    assert "after the round in which someone reaches 200" in shown
    assert "Ana 200 to go Ben 160 to go Cem 165 to go" in shown


def test_after_manipulation_is_over_no_points_to_go_are_shown(client):
    # End of the game: Ben reaches 200 and the lowest total, Ana's 0, wins.
    sheet = sheet_with("manipulation", THREE, {"penalties": [0, 200, 35]})
    assert tally(client, sheet) == ""


# -- Skat: the Seeger-Fabian table writes its minus signs like the totals ----------------


def test_the_seeger_fabian_table_writes_a_real_minus_sign(client):
    # Score on the list: Ben's Grand with 1 lost counts −2 × 48 = −96; Seeger-Fabian
    # takes 50 off for the lost game: −146. The defenders get 40 each.
    lost = {"declarer": 1, "game": "grand", "bid": 24, "matadors": {"with": 1}, "outcome": "lost"}
    sheet = sheet_with("skat", THREE, lost)
    shown = tally(client, sheet)
    assert "3. Ben −96 0–1 0 −146" in shown
    assert not HYPHEN_MINUS.search(shown), shown


def test_the_seeger_fabian_table_can_be_scrolled_from_the_keyboard(client):
    # A table wider than a phone scrolls sideways; a keyboard user must reach it too.
    sheet = sheet_with("skat", THREE)
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert (
        '<div class="table-scroll" tabindex="0" role="region" aria-label="Seeger-Fabian table">'
        in (page)
    )


# -- Manipulation is played in rounds -----------------------------------------------------

# "deal" as a noun: "deal 3", "a deal", "no more deals", "3 deals"; not the verb in
# "Ana deals" or "Who deals first?".
DEAL_NOUN = re.compile(
    r"\b(?:a|the|this|that|every|each|no|more|next|first|later|overwritten|deleted|enter|two)"
    r"\s+deals?\b|\bdeals?\s+\d|\d+\s+deals\b",
    re.I,
)


def manipulation_pages(client) -> dict[str, str]:
    """Every page of a Manipulation sheet as a reader sees it, a game over included."""
    sheet = sheet_with(
        "manipulation", THREE, {"penalties": [0, 40, 35]}, {"penalties": [5, 0, 200]}
    )
    fresh = sheet_with("manipulation", THREE)
    paths = {
        "sheet": sheet.get_absolute_url(),
        "read-only": sheet.get_view_url(),
        "history": f"/en/s/{sheet.edit_token}/history/",
        "correction": f"/en/s/{sheet.edit_token}/deals/1/",
        "chart of a new sheet": f"/en/s/{fresh.edit_token}/chart",
        "new sheet": fresh.get_absolute_url(),
    }
    return {name: text_of(client.get(path).content.decode()) for name, path in paths.items()}


def test_manipulation_tallies_and_headlines_count_rounds(client):
    # Manipulation is scored round by round (rule book: "Dealing and the order of play").
    sheet = sheet_with("manipulation", THREE, {"penalties": [0, 40, 35]})
    assert not DEAL_NOUN.search(tally(client, sheet))
    page = text_of(client.get(sheet.get_absolute_url()).content.decode())
    assert "Round 2 · Ana leads with 0" in page
    csv = client.get(f"/en/s/{sheet.edit_token}/sheet.csv").content.decode()
    assert csv.lstrip("\ufeff").startswith("Round,Dealer,")


def test_no_manipulation_page_says_deal_where_it_means_round(client):
    said = {
        name: sorted({m.group(0) for m in DEAL_NOUN.finditer(text)})
        for name, text in manipulation_pages(client).items()
    }
    assert {name: found for name, found in said.items() if found} == {}
