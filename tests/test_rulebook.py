"""The rule book pages through Django's test client.

Every section an explanation can cite (every key of every ``RULE_SECTIONS``) must be an
element with that id on its game's page, headed by the dict's title, with a visible "#"
link to itself; the sheet options are explained under the names the new-sheet form
shows; and every worked example on the pages is recomputed here with the referee, so
a page can never state a number the app would not give.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

import pytest
from django.urls import reverse

from games import services
from games.games import GAMES
from games.rules import (
    manipulation,
    manipulation_sheet,
    pitch,
    pitch_sheet,
    skat,
    skat_list,
    skat_sheet,
)
from games.rules.cards import card
from games.rules.errors import RuleError
from games.rules.manipulation import ManipulationOptions
from games.rules.skat import Matadors

REFEREE_MODULES = (
    skat,
    skat_list,
    skat_sheet,
    pitch,
    pitch_sheet,
    manipulation,
    manipulation_sheet,
)
ANCHORS = [
    (module.__name__.rsplit(".", 1)[-1], anchor, title)
    for module in REFEREE_MODULES
    for anchor, title in module.RULE_SECTIONS.items()
]
PAGES: dict[str, str] = {}


def page(client, game: str) -> str:
    """The rule page of ``game`` as HTML, fetched once per test run."""
    if game not in PAGES:
        response = client.get(reverse("games:rules-game", args=[game]))
        assert response.status_code == 200
        PAGES[game] = response.content.decode()
    return PAGES[game]


def text_of(markup: str) -> str:
    """What a reader sees: tags dropped, entities decoded, white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def cards(codes: str) -> list:
    return [card(code) for code in codes.split()]


def signed(n: int) -> str:
    """``+36`` / ``−72`` with the real minus sign the pages use."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def number(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


def game_of(anchor: str) -> str:
    return anchor.split("-", 1)[0]


# -- anchors -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "anchor", "title"), ANCHORS, ids=[f"{m}:{a}" for m, a, _ in ANCHORS]
)
def test_each_cited_rule_is_a_titled_section_of_its_games_page(client, module, anchor, title):
    # Every explanation line links to /rules/<game>/#<anchor>: the anchor must be there
    # once, on the page of the game its prefix names, headed by the section's title.
    markup = page(client, game_of(anchor))
    assert markup.count(f'id="{anchor}"') == 1
    heading = re.search(
        rf'id="{re.escape(anchor)}"[^>]*>\s*<h([23])><span>(.*?)</span>', markup, re.S
    )
    assert heading, f"#{anchor} does not start with a heading"
    assert html.unescape(heading.group(2)) == title
    # The visible "#" beside the heading links to the section itself, for sharing.
    assert re.search(rf'<a class="rb-anchor" href="#{re.escape(anchor)}"[^>]*>#</a>', markup)
    for other in GAMES:
        if other != game_of(anchor):
            assert f'id="{anchor}"' not in page(client, other)


@pytest.mark.parametrize("game", list(GAMES))
def test_every_section_has_its_self_link_and_a_place_in_the_contents(client, game):
    markup = page(client, game)
    sections = re.findall(r'<section id="([a-z-]+)" class="[^"]*rb-(?:section|sub)', markup)
    assert len(sections) == len(set(sections))
    assert all(section.startswith(f"{game}-") for section in sections)
    start = markup.index('class="panel rb-toc"')
    contents = markup[start : markup.index("</nav>", start)]
    for section in sections:
        assert f'href="#{section}"' in contents, f"#{section} is missing from the contents"
        assert f'<a class="rb-anchor" href="#{section}"' in markup


@pytest.mark.parametrize("game", list(GAMES))
def test_every_link_within_a_page_finds_its_target(client, game):
    markup = page(client, game)
    ids = re.findall(r'\sid="([^"]+)"', markup)
    assert len(ids) == len(set(ids)), "an id is used twice"
    for target in set(re.findall(r'href="#([^"]+)"', markup)):
        assert target in ids, f'href="#{target}" points nowhere'


API_NAMES = re.compile(r'<details class="rb-api-names">.*?</details>', re.S)


@pytest.mark.parametrize("game", list(GAMES))
def test_the_pages_name_the_sheet_options_as_the_new_sheet_form_does(client, game):
    # House rules are explained under the label of the form field and each choice under
    # its label; a player never reads an API name like bock.sixty_all in the text.
    markup = page(client, game)
    for_players = API_NAMES.sub("", markup)
    seen = text_of(for_players)
    for option in GAMES[game].option_fields:
        assert str(option.label) in seen, option.label
        for _, choice in option.choices:
            assert str(choice) in seen, choice
        assert f"<code>{option.name}</code>" not in for_players, option.name
        if "." in option.name or "_" in option.name:
            assert option.name not in seen, option.name


@pytest.mark.parametrize("game", list(GAMES))
def test_the_api_names_of_the_options_are_folded_away_for_programs(client, game):
    # One folded table per page pairs each form label with its name in the JSON API.
    (table,) = API_NAMES.findall(page(client, game))
    for option in GAMES[game].option_fields:
        assert (
            f"<tr><td>{html.escape(option.label)}</td><td><code>{option.name}</code></td></tr>"
            in (table)
        ), option.name


# -- the index and unknown games -----------------------------------------------------------


def test_the_index_links_to_the_three_games(client):
    response = client.get(reverse("games:rules"))
    assert response.status_code == 200
    markup = response.content.decode()
    for slug, entry in GAMES.items():
        assert f'<a href="/en/rules/{slug}/">{entry.name} rules</a>' in markup
    assert "<title>Rule book · Scorekeeper</title>" in markup


@pytest.mark.parametrize("slug", ["poker", "Skat", "skat-rules"])
def test_a_game_without_a_rule_book_is_not_found(client, slug):
    assert client.get(f"/en/rules/{slug}/").status_code == 404


@pytest.mark.parametrize(
    ("game", "title"),
    [
        ("skat", "Skat rules · Scorekeeper"),
        ("pitch", "10-Point Pitch rules · Scorekeeper"),
        ("manipulation", "Manipulation rules · Scorekeeper"),
    ],
)
def test_each_page_has_its_title_and_its_own_stylesheet(client, game, title):
    markup = page(client, game)
    assert f"<title>{title}</title>" in markup
    assert 'href="/static/css/rulebook.css"' in markup


def test_the_skat_page_lists_every_legal_bid_from_the_referee(client):
    # Legal bids: only values some game can be worth, 18 up to 264.
    bids = re.search(r'<ul class="rb-bids"[^>]*>(.*?)</ul>', page(client, "skat"), re.S)
    assert bids
    assert [int(b) for b in re.findall(r"<li>(\d+)</li>", bids.group(1))] == list(skat.BIDS)
    assert 19 not in skat.BIDS
    assert 25 not in skat.BIDS
    assert "Nobody can bid 19 or 25" in text_of(page(client, "skat"))


# -- explanations on a sheet link into the rule book ----------------------------------------

POINTS_TO_B = dict.fromkeys(pitch.POINT_CARDS, "B")

SHEET_DEALS = [
    pytest.param(
        "skat",
        ["Ana", "Ben", "Cem"],
        # Grand Hand with 2, won: (2 + 1 + 1) × 24 = 96.
        {
            "declarer": 1,
            "game": "grand",
            "bid": 48,
            "hand": True,
            "matadors": {"with": 2},
            "outcome": "won",
        },
        [
            "skat-seats",
            "skat-game-types",
            "skat-matadors",
            "skat-levels",
            "skat-game-value",
            "skat-list-score",
            "skat-score-sheet",
        ],
        id="skat",
    ),
    pytest.param(
        "pitch",
        ["Ana", "Ben", "Cem", "Dan"],
        # Team A bid 5 and took ace, jack and three (5): made.
        {"pitcher": 0, "bid": 5, "points": {**POINTS_TO_B, "ace": "A", "jack": "A", "three": "A"}},
        ["pitch-bidding", "pitch-points", "pitch-made", "pitch-opponents", "pitch-game-end"],
        id="pitch",
    ),
    pytest.param(
        "manipulation",
        ["Ana", "Ben", "Cem"],
        {"penalties": [0, 25, 40]},
        ["manipulation-deal", "manipulation-penalties", "manipulation-game-end"],
        id="manipulation",
    ),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "players", "deal", "cited"), SHEET_DEALS)
def test_an_explanation_on_a_sheet_links_to_its_section(client, game, players, deal, cited):
    sheet = services.sheet_create(game=game, players=players)
    services.hand_record(sheet=sheet, data=deal)
    markup = client.get(f"/en/s/{sheet.edit_token}/").content.decode()
    linked = re.findall(rf'class="rule-link" href="/en/rules/{game}/#([a-z-]+)"', markup)
    for anchor in cited:
        assert anchor in linked, f"no rule link to #{anchor}"
    rules = page(client, game)
    for anchor in set(linked):
        assert f'id="{anchor}"' in rules, f"the sheet links to #{anchor}, which is not there"


# -- the worked examples, recomputed with the referee ---------------------------------------


def skat_score(**declaration: Any) -> int:
    return skat.score_game(**declaration).score


def skat_value(**declaration: Any) -> int:
    return skat.score_game(**declaration).game_value


def refused(call: Callable[[], object]) -> str:
    try:
        call()
    except RuleError:
        return "not allowed"
    return "allowed"


def bock_deals(events: list[int]) -> str:
    played = [
        n for n, bock in enumerate(skat_list.bock_schedule(players=3, events=events), 1) if bock
    ]
    return ", ".join(map(str, played))


def seats(deal: int) -> tuple[str, ...]:
    names = ("Ana", "Ben", "Cem", "Dan")
    s = skat_list.seats_for_deal(players=4, first_dealer=0, deal_number=deal)
    return tuple(names[i] for i in (s.dealer, s.forehand, s.middlehand, s.rearhand))


def ramsch(points: list[int], tricks: list[int], last: int, tie: str = "all_tied_lose"):
    return skat_list.score_ramsch(
        points=points, tricks=tricks, last_trick=last, options=skat_list.RamschOptions(tie=tie)
    ).scores


def seeger_fabian_totals() -> tuple[int, ...]:
    listed = skat_list.ListedDeal
    deals = [
        listed((36, 0, 0), 0, True),
        listed((0, -72, 0), 1, False),
        listed((0, 0, 23), 2, True),
    ]
    rows = skat_list.seeger_fabian(players=3, deals=deals).rows
    return tuple(row.total for row in rows)


W, AGAINST = (lambda n: Matadors("with", n)), (lambda n: Matadors("against", n))
CLUBS_WITH_2 = {"game": "clubs", "bid": 36, "matadors": W(2)}

SKAT_EXAMPLES = [
    # Card points: ace 11, ten 10, king 4.
    ("11 + 10 + 4 = {} card points", lambda: skat.count_points(cards("AS 10H KC")), "card-points"),
    # Seats: at four the dealer sits out; forehand is on the dealer's left.
    (
        "In deal 1 {1} is forehand, {2} middlehand, {3} rearhand, and {0} sits out",
        lambda: seats(1),
        "seats-four",
    ),
    ("In deal 2 {0} deals and sits out, and {1} leads", lambda: seats(2), "seats-next-deal"),
    # Bidding: middlehand bids to forehand, the survivor hears rearhand.
    (
        "Middlehand is declarer at {}",
        lambda: (
            skat.check_bidding(
                calls=[
                    ("middlehand", 18),
                    ("forehand", "yes"),
                    ("middlehand", 20),
                    ("forehand", "pass"),
                    ("rearhand", 22),
                    ("middlehand", "yes"),
                    ("rearhand", "pass"),
                ]
            ).bid
        ),
        "bidding",
    ),
    # Who takes the trick: trumps beat the suit led; in Null the jack is above the ten.
    (
        "{} is the only trump and takes the trick",
        lambda: (
            "7♥" if skat.trick_winner(game="hearts", cards=cards("AS 7H 10S")).winner == 1 else "?"
        ),
        "trick-hearts",
    ),
    (
        "{}, the lowest jack, is still a trump",
        lambda: (
            "J♦" if skat.trick_winner(game="grand", cards=cards("AH JD 10H")).winner == 1 else "?"
        ),
        "trick-grand",
    ),
    (
        "so {} takes the trick",
        lambda: (
            "J♦" if skat.trick_winner(game="null", cards=cards("10D JD 9D")).winner == 1 else "?"
        ),
        "trick-null",
    ),
    # Following suit: in a suit game the trump suit's ace leads trumps, and jacks follow them.
    (
        "A♥ is {}.",
        lambda: (
            "allowed"
            if skat.follow_check(
                game="spades", led=card("AS"), hand=cards("JS AH 7D"), played=card("AH")
            ).legal
            else "not allowed"
        ),
        "follow",
    ),
    # Game value: base value times levels.
    (
        "2 × 11 = {}",
        lambda: skat_value(
            game="spades", bid=18, matadors=W(1), declarer_points=72, declarer_tricks=6
        ),
        "game-value",
    ),
    # Matadors, counted from the declarer's 12 cards.
    (
        "but not J♥: {}.",
        lambda: (
            skat.count_matadors(
                game="hearts", cards=cards("JC JS AH 10H KH 7H AS 10S 7C 8C 9D 8D")
            ).label
        ),
        "with-2",
    ),
    (
        "the two black jacks are missing, so {}.",
        lambda: (
            skat.count_matadors(
                game="hearts", cards=cards("JH JD AH 10H KH 7H AS 10S 7C 8C 9D 8D")
            ).label
        ),
        "against-2",
    ),
    (
        "but not J♣: {}.",
        lambda: (
            skat.count_matadors(
                game="grand", cards=cards("JS JH JD AH 10H KH 7H AS 10S 7C 9D 8D")
            ).label
        ),
        "against-1",
    ),
    (
        "but not K♣: {}.",
        lambda: (
            skat.count_matadors(
                game="clubs", cards=cards("JC JS JH JD AC 10C KH 7H AS 10S 9D 8D")
            ).label
        ),
        "with-6",
    ),
    # Levels: matadors, game, hand, schneider.
    (
        "= 6 levels, and 6 × 10 = {}",
        lambda: skat_value(
            game="hearts",
            bid=60,
            hand=True,
            matadors=AGAINST(3),
            declarer_points=95,
            declarer_tricks=8,
        ),
        "levels",
    ),
    # Schneider counts in a lost game too.
    (
        "4 × 11 = 44, lost, so {} on the list",
        lambda: signed(
            skat_score(
                game="spades", bid=22, matadors=AGAINST(2), declarer_points=28, declarer_tricks=3
            )
        ),
        "schneider-lost",
    ),
    # A trick without card points is still a trick: not schwarz.
    (
        "1 + 1 + 1 = 3 levels, 3 × 12 = {}",
        lambda: skat_value(
            game="clubs", bid=24, matadors=W(1), declarer_points=120, declarer_tricks=7
        ),
        "schwarz",
    ),
    # An announcement missed loses; it counts with every level below it.
    (
        "the list shows {}",
        lambda: signed(
            skat_score(
                game="grand",
                bid=120,
                hand=True,
                announced="schneider",
                matadors=W(1),
                declarer_points=88,
                declarer_tricks=8,
            )
        ),
        "announced-missed",
    ),
    # Ouvert counts as schwarz announced.
    (
        "= 10 levels, 10 × 9 = {}",
        lambda: skat_value(
            game="diamonds", bid=90, hand=True, ouvert=True, matadors=W(3), outcome="won_schwarz"
        ),
        "ouvert-diamonds",
    ),
    (
        "Grand Ouvert with 4 is 11 × 24 = {}",
        lambda: skat_value(
            game="grand", bid=264, hand=True, ouvert=True, matadors=W(4), outcome="won_schwarz"
        ),
        "ouvert-grand",
    ),
    # Null: fixed values; a declaration below the bid is refused.
    (
        "−2 × 35 = {} on the list",
        lambda: signed(skat_score(game="null", bid=23, hand=True, declarer_tricks=1)),
        "null-hand-lost",
    ),
    (
        "After a bid of 24, plain Null (23) is {}",
        lambda: refused(lambda: skat.score_game(game="null", bid=24, declarer_tricks=0)),
        "null-below-bid",
    ),
    # Score on the list: won +value, lost −2 × value.
    (
        "Won, the declarer writes {}; lost, {}.",
        lambda: (
            signed(skat_score(**CLUBS_WITH_2, declarer_points=70, declarer_tricks=6)),
            signed(skat_score(**CLUBS_WITH_2, declarer_points=50, declarer_tricks=4)),
        ),
        "list-score",
    ),
    # Overbidding: lost at the smallest multiple of the base value reaching the bid.
    (
        "Valued at 3 × 10 = 30 and lost: {}",
        lambda: signed(
            skat_score(
                game="hearts", bid=30, matadors=AGAINST(1), declarer_points=70, declarer_tricks=6
            )
        ),
        "overbid",
    ),
    (
        "so it is won, {}",
        lambda: signed(
            skat_score(
                game="hearts", bid=30, matadors=AGAINST(1), declarer_points=92, declarer_tricks=8
            )
        ),
        "overbid-saved-by-schneider",
    ),
    # Seeger-Fabian: list points ± 50, plus 40 for each game another declarer lost.
    (
        "Ana: 36 + 50 + 40 (Ben's loss) = {0} Cem: 23 + 50 + 40 (Ben's loss) = {2} "
        "Ben: −72 − 50 = {1}",
        lambda: tuple(number(t) for t in seeger_fabian_totals()),
        "seeger-fabian",
    ),
    # Kontra doubles, Re quadruples, after the loss is doubled.
    (
        "won after Kontra: {}; after Kontra and Re: {}",
        lambda: (
            signed(skat_score(**CLUBS_WITH_2, declarer_points=61, declarer_tricks=5, kontra=True)),
            signed(
                skat_score(
                    **CLUBS_WITH_2, declarer_points=61, declarer_tricks=5, kontra=True, re=True
                )
            ),
        ),
        "kontra-re",
    ),
    (
        "Lost 60:60 after Kontra: −2 × 36 × 2 = {}",
        lambda: signed(
            skat_score(**CLUBS_WITH_2, declarer_points=60, declarer_tricks=5, kontra=True)
        ),
        "kontra-lost",
    ),
    # Bock games count double on top.
    (
        "Grand with 1 (48) won in a Bock game: {}",
        lambda: signed(
            skat_score(
                game="grand",
                bid=48,
                matadors=W(1),
                declarer_points=70,
                declarer_tricks=6,
                bock=True,
            )
        ),
        "bock-won",
    ),
    (
        "doubled for Bock to {}",
        lambda: signed(
            skat_score(
                **CLUBS_WITH_2, declarer_points=50, declarer_tricks=4, kontra=True, bock=True
            )
        ),
        "bock-lost-kontra",
    ),
    # Bock rounds: one deal per seat, queued behind the running ones.
    (
        "deals {} are Bock",
        lambda: bock_deals([0, 1, 0, 0, 0, 0]).replace(", 5", " and 5"),
        "bock-round",
    ),
    (
        "deals 3 to {} are all Bock",
        lambda: bock_deals([0, 1, 1, 0, 0, 0, 0, 0, 0]).split(", ")[-1],
        "bock-rounds-queue",
    ),
    # Ramsch: most card points lose them; Jungfrau doubles; the tie rule.
    (
        "the player with 61 scores {}",
        lambda: number(min(ramsch([61, 35, 24], [5, 3, 2], 0))),
        "ramsch",
    ),
    (
        "the player with 80 scores {} (Jungfrau doubles it)",
        lambda: number(min(ramsch([80, 40, 0], [6, 4, 0], 1))),
        "ramsch-jungfrau",
    ),
    (
        "by default both players with 45 score {}",
        lambda: (
            number(ramsch([45, 45, 30], [4, 4, 2], 1)[0])
            if ramsch([45, 45, 30], [4, 4, 2], 1)[0] == ramsch([45, 45, 30], [4, 4, 2], 1)[1]
            else "?"
        ),
        "ramsch-tie-all",
    ),
    (
        "with the last-trick rule only the {} does",
        lambda: (
            "second"
            if ramsch([45, 45, 30], [4, 4, 2], 1, "last_trick_loses") == (0, -45, 0)
            else "?"
        ),
        "ramsch-tie-last-trick",
    ),
]


def pitch_hand(bid, team, before, options=None, **taken: str) -> pitch.HandResult:
    points = {**POINTS_TO_B, **taken}
    return pitch.score_hand(
        bid=bid, pitcher_team=team, points=points, scores_before=before, options=options
    )


ALL_TO_A = dict.fromkeys(pitch.POINT_CARDS, "A")
A_SIX = {"ace": "A", "jack": "A", "ten": "A", "three": "A"}
A_SIX_OFF = {"ace": "A", "jack": "A", "off_jack": "A", "three": "A"}
A_FIVE = {"ace": "A", "jack": "A", "three": "A"}

PITCH_EXAMPLES = [
    # Trumps: A K Q J, off-jack, high joker, low joker, then 10 down to 2.
    (
        "{}",
        lambda: (
            " ".join(c.label for c in pitch.trump_order("H")[:5])
            + " "
            + ", ".join(c.label for c in pitch.trump_order("H")[5:8])
        ),
        "trump-order",
    ),
    ("With spades as trump the off-jack is {}.", lambda: pitch.off_jack("S").label, "off-jack"),
    # Bidding: the dealer must bid when the first three pass; moon ends the bidding.
    (
        "the dealer has to bid and becomes the pitcher at {}.",
        lambda: pitch.check_bidding(bids=["pass", "pass", "pass", 4]).bid,
        "dealer-must-bid",
    ),
    (
        "Bidding stops there, and {} pitches",
        lambda: {1: "the dealer's partner"}.get(pitch.check_bidding(bids=[5, "moon"]).pitcher, "?"),
        "moon-bid",
    ),
    # Play: the highest trump takes the trick.
    (
        "The off-jack {} is the highest of them",
        lambda: (
            pitch.trick_winner(trump="H", cards=cards("10H JD JOKER-HIGH 2H")).winner == 1 and "J♦"
        ),
        "trick",
    ),
    # Making the bid: the points taken (or, by option, the bid).
    (
        "A made its bid and goes to {}; B goes to {} as well",
        lambda: tuple(pitch_hand(5, "A", {"A": 10, "B": 12}, **A_SIX).scores_after.values()),
        "made",
    ),
    (
        "A would go to {}.",
        lambda: pitch_hand(
            5, "A", {"A": 10, "B": 12}, {"made_scores": "bid"}, **A_SIX
        ).scores_after["A"],
        "made-scores-bid",
    ),
    # Being set: the bid comes off; scores go below zero.
    (
        "drops to 3 − 7 = {}. Team B scores the {} points",
        lambda: (
            number(pitch_hand(7, "A", {"A": 3, "B": 12}, **A_FIVE).scores_after["A"]),
            pitch_hand(7, "A", {"A": 3, "B": 12}, **A_FIVE).delta["B"],
        ),
        "set",
    ),
    # Shooting the moon.
    (
        "A goes to {} and wins",
        lambda: pitch_hand("moon", "A", {"A": 20, "B": 40}, **ALL_TO_A).scores_after["A"],
        "moon-made",
    ),
    (
        "A goes to {}, and play goes on",
        lambda: pitch_hand("moon", "A", {"A": -5, "B": 40}, **ALL_TO_A).scores_after["A"],
        "moon-from-below-zero",
    ),
    (
        "A stays at {}, B goes to {} and wins",
        lambda: tuple(
            pitch_hand(
                "moon", "A", {"A": 20, "B": 46}, **{**ALL_TO_A, "ten": "B"}
            ).scores_after.values()
        ),
        "moon-failed",
    ),
    (
        "the moon fails, and team {} wins",
        lambda: pitch_hand("moon", "A", {"A": 20, "B": 40}, **{**ALL_TO_A, "two": "out"}).winner,
        "moon-card-out",
    ),
    # End of the game: both over the target, the pitcher's team wins (or bid-out).
    (
        "A reaches {} and B {}. Both are over 52 and A pitched, so {} wins",
        lambda: (
            *pitch_hand(4, "A", {"A": 47, "B": 48}, **A_SIX_OFF).scores_after.values(),
            pitch_hand(4, "A", {"A": 47, "B": 48}, **A_SIX_OFF).winner,
        ),
        "both-over",
    ),
    (
        "B takes 5 and reaches {}. By default {} wins. Under the bid-out option B did not pitch "
        "this hand, so play goes {}",
        lambda: (
            pitch_hand(7, "A", {"A": 30, "B": 48}, **A_FIVE).scores_after["B"],
            pitch_hand(7, "A", {"A": 30, "B": 48}, **A_FIVE).winner,
            "on"
            if pitch_hand(7, "A", {"A": 30, "B": 48}, {"win_condition": "bid_out"}, **A_FIVE).winner
            is None
            else "?",
        ),
        "bid-out",
    ),
]

HIGH, LOW = ManipulationOptions(), ManipulationOptions(ace="low_or_high")


def meld(codes: str, options: ManipulationOptions = HIGH) -> str:
    check = manipulation.check_meld(cards(codes), options=options)
    return f"a {check.kind}" if check.valid else "not valid"


def turn(after: list[str]) -> str:
    result = manipulation.check_turn(
        table_before=[cards("5H 6H 7H 8H"), cards("9C 9D 9S")],
        table_after=[cards(m) for m in after],
        hand=cards("8C 8D 2C"),
        options=HIGH,
    )
    return "Legal" if result.legal else "Not legal"


def manipulation_next_round() -> tuple[str, str]:
    players = ("Ana", "Ben", "Cem")
    sheet = manipulation_sheet.ManipulationSheet(players=players, first_dealer=0)
    sheet.add(manipulation_sheet.ManipulationDeal(penalties=(0, 25, 40)))
    upcoming = sheet.state.next_deal
    return players[upcoming.dealer], players[upcoming.forehand]


MANIPULATION_EXAMPLES = [
    # Sequences: one suit, ranks in a row, at least three.
    ("5♥ 6♥ 7♥: {}.", lambda: meld("5H 6H 7H"), "sequence"),
    (
        "5♥ 6♥ 8♥: {}",
        lambda: "not a sequence" if meld("5H 6H 8H") == "not valid" else "?",
        "sequence-gap",
    ),
    ("5♥ 6♥: {}.", lambda: "too short" if meld("5H 6H") == "not valid" else "?", "too-short"),
    # Groups: three or four of a rank, all suits different.
    ("8♣ 8♦ 8♥: {}.", lambda: meld("8C 8D 8H"), "group"),
    (
        "8♣ 8♣ 8♥: {}, clubs twice",
        lambda: "not a group" if meld("8C 8C 8H") == "not valid" else "?",
        "group-same-card",
    ),
    (
        "Five eights: {}, four is the most",
        lambda: "not a group" if meld("8C 8D 8H 8S 8C") == "not valid" else "?",
        "group-of-five",
    ),
    # The ace: high only by default; never round the corner.
    (
        "it can end a sequence above the king ({})",
        lambda: "Q♠ K♠ A♠" if meld("QS KS AS") == "a sequence" else "?",
        "ace-high",
    ),
    (
        "the ace may also sit below the two, as in {}.",
        lambda: (
            "A♠ 2♠ 3♠"
            if (meld("AS 2S 3S", LOW), meld("AS 2S 3S")) == ("a sequence", "not valid")
            else "?"
        ),
        "ace-low-option",
    ),
    (
        "round the corner: {} is not a meld.",
        lambda: "K♠ A♠ 2♠" if meld("KS AS 2S", LOW) == meld("KS AS 2S") == "not valid" else "?",
        "ace-no-wrap",
    ),
    # Dealing: the deal passes left and the next player plays first.
    ("{} deals round 2 and {} plays first", manipulation_next_round, "deal"),
    # A turn: valid melds, nothing taken off the table, a card from the hand.
    (
        "{}: take 8♥ off the sequence",
        lambda: turn(["5H 6H 7H", "8H 8C 8D", "9C 9D 9S"]),
        "turn-legal",
    ),
    (
        "{}: laying 2♣ down on its own",
        lambda: turn(["5H 6H 7H 8H", "9C 9D 9S", "2C"]),
        "turn-single-card",
    ),
    (
        "{}: taking 8♥ back into your hand",
        lambda: turn(["5H 6H 7H", "8C 8D 2C"]),
        "turn-card-off-the-table",
    ),
    # Penalty points: ace 15, K Q J 10 ten, 2 to 9 five.
    (
        "15 + 10 + 5 + 5 = {}. Cem holds Q♣ 2♠: 10 + 5 = {}.",
        lambda: (
            manipulation.penalty_of(cards("AH KS 7D 7D")),
            manipulation.penalty_of(cards("QC 2S")),
        ),
        "penalties",
    ),
    # End of the game: after the round someone reaches the target, the lowest total wins.
    (
        "Ana and Cem reach {}, so the game ends, and {} wins with the lowest total, {}",
        lambda: (
            (
                r := manipulation.score_round_from_penalties(
                    penalties={"Ana": 20, "Ben": 35, "Cem": 20},
                    scores_before={"Ana": 185, "Ben": 150, "Cem": 185},
                    options=HIGH,
                )
            ).scores_after["Ana"],
            r.winners[0],
            r.scores_after["Ben"],
        ),
        "game-end",
    ),
]

EXAMPLES = [
    *(pytest.param("skat", text, value, id=f"skat-{name}") for text, value, name in SKAT_EXAMPLES),
    *(
        pytest.param("pitch", text, value, id=f"pitch-{name}")
        for text, value, name in PITCH_EXAMPLES
    ),
    *(
        pytest.param("manipulation", text, value, id=f"manipulation-{name}")
        for text, value, name in MANIPULATION_EXAMPLES
    ),
]


@pytest.mark.parametrize(("game", "text", "value"), EXAMPLES)
def test_a_worked_example_says_what_the_referee_says(client, game, text, value):
    computed = value()
    expected = text.format(*computed) if isinstance(computed, tuple) else text.format(computed)
    assert expected in text_of(page(client, game))
