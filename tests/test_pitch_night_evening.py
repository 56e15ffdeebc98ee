"""A Pitch party night's movement at the evening (issue 21): each round after the first
is seated from the last round's tables by the progressive movement or the rotation, as
the pure rules (evenings/rules/movement.py, tested on their own) say; a bad choice is
refused with a message and changes nothing."""

from __future__ import annotations

import datetime
from itertools import combinations

import pytest

from evenings import selectors, services
from evenings.models import Evening, EveningTable
from evenings.rules import movement
from games import services as sheet_services
from games.rules.errors import RuleError

from .circle_setup import circle_with_season

pytestmark = pytest.mark.django_db

NAMES = [f"Player {i:02d}" for i in range(1, 21)]
ALL_POINTS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def night(count, **kw):
    data = {
        "name": "Pitch party",
        "played_on": datetime.date.today(),
        "game": "pitch",
        "series_count": 4,
        **kw,
    }
    e = services.evening_create(**data)
    services.players_add(evening=e, names=NAMES[:count])
    return e


def finish(table: EveningTable, team: str) -> None:
    """The table's game won by ``team``: a bid of 4 making all ten points, then a made
    moon (rule "pitch-moon": a team above zero that makes its moon wins at once)."""
    pitcher = 0 if team == "A" else 1
    for bid in (4, "moon"):
        sheet_services.hand_record(
            sheet=table.sheet,
            data={"pitcher": pitcher, "bid": bid, "points": dict.fromkeys(ALL_POINTS, team)},
        )


def first_round_played(e, seed: int):
    """Round 1 drawn with ``seed`` and played out: team A wins table 1, team B table 2."""
    first = services.series_draw(evening=e, seed=seed)
    one, two = first.tables.all()
    finish(one, "A")
    finish(two, "B")
    return first


def seats(series) -> list[tuple[int, ...]]:
    return [tuple(s.player_id for s in t.seats.all()) for t in series.tables.all()]


def as_round(series) -> movement.Round:
    return movement.Round(
        series.number,
        tuple(
            movement.RoundTable(t.number, ((p[0], p[2]), (p[1], p[3])))
            for t, p in zip(series.tables.all(), seats(series), strict=True)
        ),
        tuple(series.sitting_out),
    )


def test_a_progressive_night_seats_each_round_from_the_last_rounds_winners():
    # Rule section "evening-movement": round 1 by lot with the seed; then the winners
    # move up a table, the head table's winners stay, its losers go to the last table,
    # and partners split.
    e = night(8, movement="progressive")
    ids = list(e.players.order_by("pk").values_list("pk", flat=True))
    first = services.series_draw(evening=e, seed=7)
    assert first.method == "progressive"
    assert first.seed == 7
    assert seats(first) == [t.seats for t in movement.first_round(ids, 7).tables]
    one, two = first.tables.all()
    finish(one, "B")
    finish(two, "A")
    assert [t.winning_team for t in first.tables.all()] == [1, 0]
    second = services.series_draw(evening=e, seed=99)
    assert second.method == "progressive"
    assert second.seed is None
    expected = movement.next_progressive_round(as_round(first), {1: 1, 2: 0}, roll=ids)
    assert seats(second) == [t.seats for t in expected.tables]
    # The head table's winners (team B of table 1) stay; table 2's winners come up.
    head = set(seats(second)[0])
    assert {seats(first)[0][1], seats(first)[0][3]} <= head
    assert {seats(first)[1][0], seats(first)[1][2]} <= head
    # Nobody partners the partner of the last round.
    assert not as_round(second).partnerships() & as_round(first).partnerships()
    # Each table is an ordinary Pitch sheet with its players in seat order.
    for table, players in zip(second.tables.all(), seats(second), strict=True):
        names = list(table.sheet.seats.order_by("position").values_list("name", flat=True))
        assert names == [e.players.get(pk=p).name for p in players]


def test_a_progressive_round_waits_for_every_table_and_takes_no_seeded_draw():
    e = night(8, movement="progressive")
    first = services.series_draw(evening=e, seed=1)
    one, two = first.tables.all()
    finish(one, "A")
    with pytest.raises(RuleError, match="1 table is not done"):
        services.series_draw(evening=e)
    finish(two, "A")
    for refused in ({"method": "seeded"}, {"keep_apart": True}):
        with pytest.raises(RuleError, match="only the first round is drawn"):
            services.series_draw(evening=e, **refused)
    assert e.series.count() == 1
    assert services.series_draw(evening=e).number == 2


def test_a_progressive_night_lets_the_players_over_four_sit_out_in_turn():
    # Rule section "evening-movement": those who sat out least sit out, the players who
    # sat out come back in, and nobody sits out twice while another has not once.
    e = night(9, movement="progressive", sit_out=True, series_count=3)
    out = []
    for number in (1, 2, 3):
        series = services.series_draw(evening=e, seed=3)
        out.append(tuple(series.sitting_out))
        assert len({p for t in seats(series) for p in t} | set(series.sitting_out)) == 9
        for table in series.tables.all():
            finish(table, "A" if number % 2 else "B")
    assert len(set(out)) == 3
    assert all(len(o) == 1 for o in out)


def test_a_rotation_night_follows_its_schedule_and_partners_nobody_twice():
    # Rule section "evening-rotation": 12 players play 11 rounds in which everyone
    # partners everyone once; a night of more rounds than that is shortened to them.
    e = night(12, movement="rotation", series_count=12)
    ids = list(e.players.order_by("pk").values_list("pk", flat=True))
    schedule = movement.rotation_schedule(ids, seed=5)
    pairs = []
    for number in (1, 2, 3, 4):
        series = services.series_draw(evening=e, seed=5 if number == 1 else 123)
        assert series.method == "rotation"
        assert series.seed == 5
        assert seats(series) == [t.seats for t in schedule[number - 1].tables]
        pairs.extend(as_round(series).partnerships())
        for table in series.tables.all():
            finish(table, "A")
    e.refresh_from_db()
    assert e.series_count == 11
    assert len(pairs) == len(set(pairs)) == 24


def test_a_rotation_keeps_its_players_and_says_who_changed():
    e = night(8, movement="rotation")
    first = services.series_draw(evening=e, seed=2)
    for table in first.tables.all():
        finish(table, "A")
    leaver = e.players.get(name=NAMES[0])
    services.player_leave(evening=e, player=leaver)
    with pytest.raises(RuleError, match=f"{NAMES[0]} left"):
        services.series_draw(evening=e)
    assert e.series.count() == 1


def test_a_rotation_of_more_than_sixteen_is_refused_for_the_progressive_movement():
    e = night(20, movement="rotation")
    with pytest.raises(RuleError, match="progressive"):
        services.series_draw(evening=e, seed=1)
    assert not e.series.exists()


@pytest.mark.parametrize(
    ("chosen", "field", "message"),
    [
        ({"movement": "swiss"}, "movement", "progressive or the rotation"),
        ({"movement": "progressive", "game": "skat"}, "movement", "Only a Pitch night"),
        ({"counts": "wins"}, "counts", "points or match points"),
        ({"counts": "match_points", "game": "skat"}, "counts", "Pitch night only"),
        ({"pitch_options": {"target": 3}}, "options.target", "The target must be"),
        ({"round_format": "hands"}, "round_hands", "from 1 to 60"),
        ({"round_format": "minutes", "round_minutes": 2}, "round_minutes", "from 5 to 300"),
        ({"round_format": "minutes", "game": "skat"}, "round_format", "Pitch night only"),
    ],
)
def test_a_night_refuses_a_movement_or_count_it_cannot_keep(chosen, field, message):
    before = Evening.objects.count()
    with pytest.raises(RuleError) as caught:
        services.evening_create(
            name="Night", played_on=datetime.date.today(), **{"game": "pitch", **chosen}
        )
    assert [p.field for p in caught.value.problems] == [field]
    assert message in caught.value.problems[0].message
    assert Evening.objects.count() == before


def test_partners_of_a_rotation_are_everyone_once():
    # Rule section "evening-rotation": 8 players, 7 rounds, every pair partners once.
    e = night(8, movement="rotation", series_count=7)
    pairs = set()
    for _round in range(7):
        series = services.series_draw(evening=e, seed=4)
        pairs |= as_round(series).partnerships()
        for table in series.tables.all():
            finish(table, "B")
    assert pairs == {frozenset(p) for p in combinations(e.players.values_list("pk", flat=True), 2)}


def test_the_api_starts_a_progressive_night_and_seats_its_rounds(client):
    # api.md "Club evenings" with issue 21's "movement" and "counts".
    import json

    def post(path, body, token=None):
        headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"} if token else {}
        return client.post(path, json.dumps(body), content_type="application/json", **headers)

    body = {
        "game": "pitch",
        "name": "Church hall night",
        "date": datetime.date.today().isoformat(),
        "series": 3,
        "movement": "progressive",
        "counts": "match_points",
        "options": {"target": 31},
    }
    made = post("/api/v1/evenings", body)
    assert made.status_code == 201, made.content
    made = made.json()
    assert (made["movement"], made["counts"]) == ("progressive", "match_points")
    assert made["options"] == {"target": 31}
    wrong = post("/api/v1/evenings", {**body, "options": {"target": 3, "two": "me"}})
    assert wrong.status_code == 422
    assert {e["field"] for e in wrong.json()["errors"]} == {"options.target", "options.two"}
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    post(base + "/players", {"names": NAMES[:8]}, token)
    seeded = post(base + "/series", {"draw": "seeded"}, token)
    assert seeded.status_code == 422
    assert "only the first round is drawn" in seeded.json()["errors"][0]["message"]
    drawn = post(base + "/series", {"draw": "lot", "seed": 11}, token)
    assert drawn.status_code == 201
    assert drawn.json()["draw"] == "progressive"
    for table in EveningTable.objects.filter(series__number=1):
        finish(table, "A")
    second = post(base + "/series", {"draw": "lot"}, token)
    assert second.status_code == 201
    assert second.json()["number"] == 2
    bad = post("/api/v1/evenings", {**body, "movement": "swiss"})
    assert bad.status_code == 400
    assert bad.json()["errors"][0]["field"] == "movement"
    skat = post("/api/v1/evenings", {**body, "game": "skat", "counts": "points"})
    assert skat.status_code == 422
    assert skat.json()["errors"][0]["field"] == "movement"


def test_the_board_seats_a_progressive_night_and_each_phone_shows_its_seat_line(client):
    # Rule sections "evening-movement" and the glossary's "round (Pitch night)": the
    # board starts the night from the form, draws round 1 by lot, shows each table's
    # teams and winners, and seats round 2 with one button; each player's phone says
    # "Round 2: table 1, with … against … and …" and lists the rounds before.
    made = client.post(
        "/en/evenings/new/",
        {
            "name": "Church hall night",
            "played_on": datetime.date.today().isoformat(),
            "game": "pitch",
            "series_count": 3,
            "deals_3": 36,
            "deals_4": 48,
            "deals_5": 60,
            "table_order": "fours_first",
            "movement": "progressive",
            "counts": "match_points",
        },
    )
    assert made.status_code == 302
    e = Evening.objects.get()
    assert (e.movement, e.counts) == ("progressive", "match_points")
    services.players_add(evening=e, names=NAMES[:8])
    url = f"/en/e/{e.organiser_token}/"
    board = client.get(url).content.decode()
    assert "3 rounds · Progressive" in board
    assert "Draw round 1" in board
    assert 'name="keep_apart"' not in board
    assert client.post(url + "draw", {"method": "lot", "seed": "21"}).status_code == 302
    first = e.series.get()
    board = client.get(url).content.decode()
    assert "Round 1 drawn by lot with seed 21" in board
    names = dict(e.players.values_list("pk", "name"))
    one, two = first.tables.all()
    a, b, c, d = seats(first)[0]
    assert f"{names[a]} and {names[c]} against {names[b]} and {names[d]}" in board
    assert "Seat round 2" not in board
    finish(one, "A")
    finish(two, "B")
    board = client.get(url).content.decode()
    assert f"Won by {names[a]} and {names[c]}" in board
    assert "Seat round 2" in board
    assert client.post(url + "draw", {"method": "lot"}).status_code == 302
    second = e.series.get(number=2)
    board = client.get(url).content.decode()
    assert "Round 2" in board
    assert "Seated by the progressive movement" in board
    # Player a won at the head table and stays there, with a new partner.
    table = next(t for t in as_round(second).tables if a in t.seats)
    assert table.number == 1
    partner = table.partner_of(a)
    first_, second_ = table.opponents_of(a)
    own = client.get(f"/en/p/{e.players.get(pk=a).token}/").content.decode()
    assert (
        f"Round 2: table 1, with {names[partner]} against {names[first_]} and {names[second_]}"
        in own
    )
    assert f"Round 1: table 1, with {names[c]} against {names[b]} and {names[d]}" in own
    german = client.get(f"/de/p/{e.players.get(pk=a).token}/").content.decode()
    assert "Durchgang 2: Tisch 1" in german


def test_a_match_point_night_ranks_with_the_sitter_outs_average_on_page_and_api(client):
    # Rule "evening-ranking" (issue 21): each team of the round is compared with every
    # other, 1 for each outscored and ½ for each tie; whoever sits out scores the
    # round's exact average. Round 1 here: both tables end 52 to 0 (a made moon), so
    # each winning team has 2½ (two outscored, one tie), each losing team ½, and the
    # sitter-out the average of the eight players, 1½.
    e = night(9, movement="progressive", sit_out=True, counts="match_points")
    first = services.series_draw(evening=e, seed=8)
    (out,) = first.sitting_out
    one, two = first.tables.all()
    finish(one, "A")
    finish(two, "B")
    winners = {seats(first)[0][0], seats(first)[0][2], seats(first)[1][1], seats(first)[1][3]}
    page = client.get(f"/en/r/{e.view_token}/").content.decode()
    assert "1½" in page
    assert "2½" in page
    body = client.get(
        f"/api/v1/evenings/{e.pk}", HTTP_AUTHORIZATION=f"Bearer {e.view_token}"
    ).json()
    totals = {row["player"]: row["total"] for row in body["ranking"]}
    assert totals[out] == 1.5
    assert all(totals[p] == 2.5 for p in winners)
    assert sorted(totals.values()) == [0.5] * 4 + [1.5] + [2.5] * 4
    # Places: the four winners share place 1 (same total, one round won each, no
    # points against); the sitter-out is 5th.
    places = {row["player"]: row["place"] for row in body["ranking"]}
    assert {places[p] for p in winners} == {1}
    assert places[out] == 5
    row = next(r for r in body["ranking"] if r["player"] == out)
    assert row["against"] == 0
    assert any("average" in line for line in row["explanation"])
    german = client.get(f"/de/r/{e.view_token}/").content.decode()
    assert "1½" in german


def test_a_tally_card_gives_a_round_its_result_and_a_level_round_its_winner(client):
    # Issue 21: "a round's result can also be typed from a tally card". Rule
    # "evening-movement": a progressive round that ended level needs the organiser's
    # winner; the higher score wins otherwise, and a wrong winner is refused.
    e = night(8, movement="progressive")
    first = services.series_draw(evening=e, seed=5)
    one, _two = first.tables.all()
    url = f"/en/e/{e.organiser_token}/tables/{one.pk}/paper"
    page = client.get(url).content.decode()
    names = dict(e.players.values_list("pk", "name"))
    a, _b, c, _d = seats(first)[0]
    assert f"{names[a]} and {names[c]}" in page
    level = client.post(url, {"first": "31", "second": "31"})
    assert level.status_code == 400
    assert "ended level at 31" in level.content.decode()
    bad = client.post(url, {"first": "many", "second": "12"})
    assert bad.status_code == 400
    assert f"{names[a]} and {names[c]}: Give a whole number." in bad.content.decode()
    wrong = client.post(url, {"first": "40", "second": "12", "winner": "1"})
    assert wrong.status_code == 400
    one.refresh_from_db()
    assert not one.paper
    assert not one.done
    assert client.post(url, {"first": "31", "second": "31", "winner": "1"}).status_code == 302
    one.refresh_from_db()
    assert (one.paper, one.done, one.winning_team) == (True, True, 1)
    assert {s.position: s.points for s in one.seats.all()} == {0: 31, 1: 31, 2: 31, 3: 31}
    # The correction starts from the card as saved.
    assert 'value="31"' in client.get(url).content.decode()
    # Through the API: the other table by its tally card.
    import json

    answer = client.post(
        f"/api/v1/evenings/{e.pk}/series/1/tables/2/result",
        json.dumps({"scores": [12, 52]}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {e.organiser_token}",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["table"]["winner"] == 1
    second = services.series_draw(evening=e)
    expected = movement.next_progressive_round(as_round(first), {1: 1, 2: 1}, roll=sorted(names))
    assert seats(second) == [t.seats for t in expected.tables]


def test_a_tally_card_is_for_pitch_and_not_after_hands_on_the_sheet():
    e = night(8)
    first = services.series_draw(evening=e, seed=5)
    one, two = first.tables.all()
    sheet_services.hand_record(
        sheet=one.sheet,
        data={"pitcher": 0, "bid": 4, "points": dict.fromkeys(ALL_POINTS, "A")},
    )
    one.refresh_from_db()
    with pytest.raises(RuleError, match="either hands or a tally card"):
        services.table_tally_result(table=one, scores=[10, 0])
    with pytest.raises(RuleError) as caught:
        services.table_tally_result(table=two, scores=[10_000, "x"])
    assert [p.field for p in caught.value.problems] == ["scores.0", "scores.1"]
    # Level without a winner is fine where nothing moves by winners: nobody won.
    services.table_tally_result(table=two, scores=[20, 20])
    two.refresh_from_db()
    assert two.winning_team is None


def test_a_players_bids_moons_and_partners_of_the_night(client):
    # Issue 21: per player, bids made and set by size, moons tried and made, and the
    # results with each partner (a tally-card round counts for the partner, and says
    # its hands are not counted).
    e = night(8, movement="progressive")
    first = services.series_draw(evening=e, seed=5)
    one, two = first.tables.all()
    a, b, c, d = seats(first)[0]
    pitchers = {0: a, 1: b}
    # Table 1: A (a and c) make a 4 bid, B (b and d) are set on a 6, then A's moon.
    for pitcher, bid, team in ((0, 4, "A"), (1, 6, "A"), (0, "moon", "A")):
        sheet_services.hand_record(
            sheet=one.sheet,
            data={"pitcher": pitcher, "bid": bid, "points": dict.fromkeys(ALL_POINTS, team)},
        )
    services.table_tally_result(table=two, scores=[10, 52])
    names = dict(e.players.values_list("pk", "name"))
    view = selectors.evening_view(e)
    stats = selectors.night_statistics(view, pitchers[0])
    assert [(c_.size, c_.made, c_.set) for c_ in stats.bids] == [(4, 1, 0)]
    assert (stats.moons_tried, stats.moons_made) == (1, 1)
    assert stats.partners == ((names[c], 1, 1, 52),)
    setter = selectors.night_statistics(view, pitchers[1])
    assert [(c_.size, c_.made, c_.set) for c_ in setter.bids] == [(6, 0, 1)]
    assert setter.partners == ((names[d], 1, 0, -6),)
    tallied = selectors.night_statistics(view, seats(first)[1][0])
    assert tallied.tallied == 1
    assert tallied.bids == ()
    page = client.get(f"/en/r/{e.view_token}/players/{a}").content.decode()
    assert "Bids as pitcher" in page
    assert "1 of 1 moon made" in page
    assert names[c] in page
    other = client.get(f"/en/r/{e.view_token}/players/{seats(first)[1][0]}").content.decode()
    assert "1 round was kept on a tally card" in other


def test_a_round_prints_its_seating_with_partners_and_a_tally_card_per_table(client):
    # Issue 21: printing the round's seating and tally cards with QR codes.
    e = night(9, movement="progressive", sit_out=True)
    first = services.series_draw(evening=e, seed=3)
    names = dict(e.players.values_list("pk", "name"))
    page = client.get(f"/en/e/{e.organiser_token}/series/1/print").content.decode()
    assert "Round 1: seating list and tally cards" in page
    a, _b, c, _d = seats(first)[0]
    assert f'<th scope="row">{names[a]}</th><td>1</td><td>1</td><td>{names[c]}</td>' in page
    assert f"Sitting this round out: {names[first.sitting_out[0]]}" in page
    assert page.count('class="tally-table tally-card"') == 2
    assert page.count("<svg") >= 2
    assert f"{names[a]} and {names[c]}</th>" in page
    german = client.get(f"/de/e/{e.organiser_token}/series/1/print").content.decode()
    assert "Durchgang 1" in german


def test_a_round_of_hands_ends_at_every_table_after_them(client):
    # Issue 21, round format "N hands": the table's round ends after its hands (the
    # higher score won; level, the organiser says who); a hand more is refused with a
    # message and changes nothing. The night's target is every sheet's target.
    e = night(
        8,
        movement="progressive",
        round_format="hands",
        round_hands=2,
        pitch_options={"target": 31, "made_scores": "bid"},
    )
    first = services.series_draw(evening=e, seed=2)
    one, two = first.tables.all()
    assert (one.sheet.options["target"], one.sheet.options["made_scores"]) == (31, "bid")
    assert one.ends_after == 2
    for team in ("A", "B"):
        sheet_services.hand_record(
            sheet=one.sheet,
            data={
                "pitcher": 0 if team == "A" else 1,
                "bid": 4,
                "points": dict.fromkeys(ALL_POINTS, team),
            },
        )
    one.refresh_from_db()
    assert one.done
    assert one.winning_team is None  # each made its bid of 4 (it scores its bid): level
    # The round of 2 hands is the sheet's game of 2 hands: the game refuses a third.
    assert one.sheet.options["hands"] == 2
    one.sheet.refresh_from_db()
    assert one.sheet.finished
    with pytest.raises(RuleError, match="it ended level at 4 after its 2 hands"):
        sheet_services.hand_record(
            sheet=one.sheet,
            data={"pitcher": 0, "bid": 4, "points": dict.fromkeys(ALL_POINTS, "A")},
        )
    one.refresh_from_db()
    assert one.deals == 2
    # The sheet says the game ended level (rule book "End of the game"), and offers the
    # round's sign-off, not "Play again": the organiser seats the next round.
    sheet_page = client.get(one.sheet.get_absolute_url()).content.decode()
    assert "Level at 4 after 2 hands: nobody wins" in sheet_page
    assert "Level: nobody wins." in sheet_page
    assert '<span class="team-standing">level</span>' in sheet_page
    assert "The round is over at this table." in sheet_page
    assert "Play again" not in sheet_page
    board = client.get(f"/en/e/{e.organiser_token}/").content.decode()
    assert "The round ended level: who won?" in board
    assert "A round is 2 hands at every table (or ends when a team reaches 31)." in board
    url = f"/en/e/{e.organiser_token}/tables/{one.pk}/winner"
    assert client.post(url, {"team": "2"}).status_code == 400
    assert client.post(url, {"team": "1"}).status_code == 302
    one.refresh_from_db()
    assert one.winning_team == 1
    refused = client.post(f"/en/e/{e.organiser_token}/tables/{two.pk}/winner", {"team": "0"})
    assert refused.status_code == 400
    sheet_page = client.get(two.sheet.get_absolute_url()).content.decode()
    assert "The round ends here after hand 2." in sheet_page


def test_a_round_of_minutes_ends_when_time_is_called_with_the_hand_in_play(client):
    # Issue 21, round format "minutes": the organiser calls time; each table finishes
    # the hand in play; a table between hands is ended by the organiser at once.
    e = night(8, movement="progressive", round_format="minutes", round_minutes=20)
    first = services.series_draw(evening=e, seed=2)
    one, two = first.tables.all()
    sheet_services.hand_record(
        sheet=one.sheet,
        data={"pitcher": 0, "bid": 5, "points": dict.fromkeys(ALL_POINTS, "A")},
    )
    board = client.get(f"/en/e/{e.organiser_token}/").content.decode()
    assert "A round is 20 minutes" in board
    assert "Call time" in board
    assert client.post(f"/en/e/{e.organiser_token}/time").status_code == 302
    again = client.post(f"/en/e/{e.organiser_token}/time")
    assert again.status_code == 400
    one.refresh_from_db()
    two.refresh_from_db()
    assert (one.ends_after, two.ends_after) == (2, 1)
    sheet_page = client.get(one.sheet.get_absolute_url()).content.decode()
    assert "Time is called: finish the hand in play." in sheet_page
    # The hand in play: B make their 4 (ace, jack, off-jack, high joker), A take the
    # low joker, ten, two and three (6): 16 to 4 after two hands.
    split = {"low_joker": "A", "ten": "A", "two": "A", "three": "A"}
    sheet_services.hand_record(
        sheet=one.sheet,
        data={"pitcher": 1, "bid": 4, "points": {**dict.fromkeys(ALL_POINTS, "B"), **split}},
    )
    one.refresh_from_db()
    assert one.done
    assert one.winning_team == 0
    # Table 2 was between hands: the organiser ends it now; 0 to 0 is level.
    end = f"/en/e/{e.organiser_token}/tables/{two.pk}/end"
    assert client.post(end).status_code == 302
    two.refresh_from_db()
    assert two.done
    assert two.winning_team is None
    assert client.post(end).status_code == 400
    with pytest.raises(RuleError, match="after 0 hands"):
        sheet_services.hand_record(
            sheet=two.sheet,
            data={"pitcher": 0, "bid": 4, "points": dict.fromkeys(ALL_POINTS, "A")},
        )
    import json

    chosen = client.post(
        f"/api/v1/evenings/{e.pk}/series/1/tables/2/winner",
        json.dumps({"team": 0}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {e.organiser_token}",
    )
    assert chosen.status_code == 200, chosen.content
    assert chosen.json()["table"]["winner"] == 0
    assert services.series_draw(evening=e).number == 2


def test_the_board_says_why_everyone_sits_where_they_sit(client):
    # Rule sections "evening-movement" and "evening-rotation": the board shows the
    # movement's own explanation of the round, each step linked to its rule.
    e = night(8, movement="progressive")
    first = services.series_draw(evening=e, seed=9)
    url = f"/en/e/{e.organiser_token}/"
    board = client.get(url).content.decode()
    assert "Why everyone sits where they sit this round" in board
    assert "Drawn by lot with seed 9" in board
    one, two = first.tables.all()
    finish(one, "A")
    finish(two, "B")
    services.series_draw(evening=e)
    board = client.get(url).content.decode()
    names = dict(e.players.values_list("pk", "name"))
    a, _b, c, _d = seats(first)[0]
    assert "rules/#evening-movement" in board
    assert any(f"{names[p]}" in board for p in (a, c))
    rotation = night(8, movement="rotation")
    services.series_draw(evening=rotation, seed=4)
    page = client.get(f"/en/e/{rotation.organiser_token}/").content.decode()
    assert "The rotation for 8 players has 7 rounds" in page
    assert "rules/#evening-rotation" in page


def test_a_pitch_tables_qr_and_sign_off_pages_say_round(client):
    # The glossary's "round (Pitch night)": the table's QR page and its sign-off.
    e = night(8)
    first = services.series_draw(evening=e, seed=1)
    one = first.tables.first()
    qr = client.get(f"/en/e/{e.organiser_token}/tables/{one.pk}/").content.decode()
    assert "Table 1 · round 1" in qr
    sign = client.get(f"/en/t/{one.sheet.edit_token}/sign").content.decode()
    assert "Sign the round" in sign
    assert "The round is not over yet at this table" in sign
    finish(one, "A")
    sign = client.get(f"/de/t/{one.sheet.edit_token}/sign").content.decode()
    assert "Der Durchgang ist vorbei." in sign


def _circle_night(**kw):
    """A Pitch night kept in a circle with a season around today (issue 21: "the night
    counts for a circle's season")."""
    owner, circle, season = circle_with_season("Church hall")
    today = datetime.date.today()
    e = services.evening_create(
        name="Pitch party",
        played_on=today,
        game="pitch",
        series_count=2,
        circle=circle,
        by=owner,
        **kw,
    )
    services.players_add(evening=e, names=NAMES[:8])
    return e, season


def _pitch_rows(season) -> dict[str, object]:
    from circles.selectors import season_standings

    standings = season_standings(season)
    table = standings.tables.get("pitch")
    if table is None:
        return {}
    return {standings.players[row.player].name: row for row in table.ranked}


def _hand(table: EveningTable, pitcher: int, bid, **taken) -> None:
    """A hand at ``table``: every point to the pitcher's team unless ``taken`` says."""
    team = "A" if pitcher % 2 == 0 else "B"
    points = {**dict.fromkeys(ALL_POINTS, team), **taken}
    sheet_services.hand_record(
        sheet=table.sheet, data={"pitcher": pitcher, "bid": bid, "points": points}
    )


def test_a_round_of_hands_counts_for_the_circles_season_as_a_finished_game():
    # A round of 2 hands is a game of 2 hands on each table's sheet: after the second
    # the higher score has won it, and the season counts the game for all four (Pitch
    # partner statistics: partners share their team's result), level or not.
    e, season = _circle_night(movement="progressive", round_format="hands", round_hands=2)
    one, two = services.series_draw(evening=e, seed=2).tables.all()
    assert _pitch_rows(season) == {}
    _hand(one, 0, 4)  # A take all ten: 10 to 0
    assert _pitch_rows(season) == {}  # a round still being played counts nothing yet
    _hand(one, 1, 4, ace="A", jack="A", off_jack="A")  # B bid 4, take 7: 13 to 7
    _hand(two, 0, 4)
    _hand(two, 1, 4)  # 10 to 10: level after its 2 hands
    names = {s.player_id: s.player.name for t in (one, two) for s in t.seats.all()}
    one_seats = [names[s.player_id] for s in one.seats.order_by("position")]
    two_seats = [names[s.player_id] for s in two.seats.order_by("position")]
    rows = _pitch_rows(season)
    assert set(rows) == set(one_seats) | set(two_seats)
    for position, name in enumerate(one_seats):
        row = rows[name]
        assert (row.games, row.hands) == (1, 2)
        assert row.won == (1 if position % 2 == 0 else 0)  # team A (seats 1 and 3) won
        partner = one_seats[(position + 2) % 4]
        assert row.partners == ((e.circle.players.get(name=partner).pk, 1, row.won),)
    for name in two_seats:
        assert (rows[name].games, rows[name].won) == (1, 0)  # level: played, won by nobody


def test_a_round_of_minutes_counts_for_the_season_once_time_is_called(client):
    # Time called: the hand in play is the game's last; a table between hands ends with
    # the hands it played (rule book "End of the game": a game of a fixed number of
    # hands). Both count for the season; a table that played no hand has no game.
    e, season = _circle_night(movement="progressive", round_format="minutes", round_minutes=15)
    one, two = services.series_draw(evening=e, seed=2).tables.all()
    _hand(one, 0, 4)  # table 1: A 10 to 0, then time is called
    _hand(two, 1, 5)  # table 2: B 10 to 0
    services.round_call_time(evening=e)
    one.sheet.refresh_from_db()
    assert one.sheet.options["hands"] == 2
    assert not one.sheet.finished
    assert _pitch_rows(season) == {}
    _hand(one, 1, 4, ace="A")  # the hand in play: B bid 4 and take 9, A 1: 11 to 9
    one.refresh_from_db()
    assert (one.done, one.winning_team) == (True, 0)
    # Table 2 finished its hand before time was called: the organiser ends it.
    assert client.post(f"/en/e/{e.organiser_token}/tables/{two.pk}/end").status_code == 302
    two.refresh_from_db()
    two.sheet.refresh_from_db()
    assert (two.done, two.winning_team, two.sheet.finished) == (True, 1, True)
    assert two.sheet.events.filter(kind="hands").exists()
    rows = _pitch_rows(season)
    assert len(rows) == 8
    assert sorted(row.won for row in rows.values()) == [0, 0, 0, 0, 1, 1, 1, 1]
    assert all(row.games == 1 for row in rows.values())
    sheet_page = client.get(two.sheet.get_absolute_url()).content.decode()
    assert "Team B won 10 to 0: it had the higher score after 1 hand" in sheet_page


@pytest.mark.parametrize("hands", [10, 0])
def test_a_night_refuses_a_number_of_hands_as_a_sheet_option(hands):
    # One message, the one that says where a night's hands are chosen (not a second
    # one about the number itself).
    with pytest.raises(RuleError) as error:
        night(8, pitch_options={"hands": hands})
    assert [p.field for p in error.value.problems] == ["options.hands"]
    assert "round_format" in error.value.problems[0].message


def test_a_tally_card_counts_for_the_season_and_travels_with_the_circle(client):
    # A round typed from its tally card is the game on the card for the season: the
    # higher score won it, level nobody did; no hands, bids or moons were seen.
    import json

    from django.contrib.auth.models import User

    from circles.models import Circle, CircleSheet
    from circles.results import rebuild_results
    from circles.transfer import export_circle, import_circle
    from evenings.models import Evening as EveningModel
    from evenings.models import TableSeat
    from games.models import Sheet

    e, season = _circle_night(movement="progressive")
    one, two = services.series_draw(evening=e, seed=2).tables.all()
    services.table_tally_result(table=one, scores=[40, 52])
    services.table_tally_result(table=two, scores=[30, 30], winner=0)
    link = CircleSheet.objects.get(sheet=one.sheet)
    assert link.tally == {"teams": {"A": 40, "B": 52}}
    rows = _pitch_rows(season)
    assert len(rows) == 8
    winners = {s.player.name for s in one.seats.all() if s.position % 2 == 1}
    for name, row in rows.items():
        assert (row.games, row.hands, row.bids, row.moon) == (1, 0, 0, 0)
        assert row.won == (1 if name in winners else 0)
    season_page = client.get(f"/en/seasons/{season.view_token}/").content.decode()
    assert "still being played" not in season_page  # a tally table is no open sheet
    # A rebuild from the stored data gives the same.
    rebuild_results(e.circle)
    assert _pitch_rows(season) == rows

    document = json.loads(json.dumps(export_circle(e.circle)))
    tallies = [item["tally"] for item in document["sheets"] if "tally" in item]
    assert sorted(t["teams"]["A"] for t in tallies) == [30, 40]
    TableSeat.objects.all().delete()
    EveningModel.objects.all().delete()
    Sheet.objects.all().delete()
    Circle.objects.all().delete()
    User.objects.all().delete()
    owner = User.objects.create_user("olga", "olga@example.org", "pw-long-enough-1")
    imported = import_circle(document, accounts={"olga": owner})
    again = imported.seasons.get()
    assert {name: (r.games, r.won) for name, r in _pitch_rows(again).items()} == {
        name: (r.games, r.won) for name, r in rows.items()
    }


@pytest.mark.parametrize(
    ("tally", "message"),
    [
        ({"teams": {"A": 52}}, "both teams' scores"),
        ({"teams": {"A": 52, "B": "40"}}, "both teams' scores"),
        ({"teams": {"A": 52, "B": 10**6}}, "from −9999 to 9999"),
        ({"teams": {"A": 52, "B": 40}, "winner": "A"}, "both teams' scores"),
        ([52, 40], "both teams' scores"),
    ],
)
def test_an_imported_tally_card_is_checked_like_a_typed_one(tally, message):
    # Data from a file is checked like a person's input (tests/test_import_hostile.py).
    from circles.transfer import export_circle, import_circle

    e, _ = _circle_night(movement="progressive")
    one, _two = services.series_draw(evening=e, seed=2).tables.all()
    services.table_tally_result(table=one, scores=[40, 52])
    document = export_circle(e.circle)
    index = next(i for i, item in enumerate(document["sheets"]) if "tally" in item)
    document["sheets"][index]["tally"] = tally
    owner = e.circle.memberships.get().user
    with pytest.raises(RuleError) as error:
        import_circle(document, accounts={"olga": owner})
    assert error.value.problems[0].field == f"sheets.{index}.tally"
    assert message in str(error.value.problems[0].message)


def test_a_pitch_nights_money_speaks_of_rounds_and_has_no_lost_game_fees(client):
    # Issue 21: "permissions, bad input, printing ... as for the Skat evening", and a
    # Pitch night has rounds, not series; nobody loses a game as declarer at Pitch, so
    # its money has no lost-game fees (evenings/rules/money.py, the bill).
    from decimal import Decimal

    from evenings import accounts

    money = {
        "currency": "EUR",
        "entry_fee": "5.00",
        "table_fee": "1.00",
        "payout": {"series_prize": "2.00"},
    }
    e = night(8, movement="progressive", money=money)
    first = services.series_draw(evening=e, seed=2)
    for table in first.tables.all():
        finish(table, "A")
    page = client.get(f"/en/e/{e.organiser_token}/money/").content.decode()
    assert "table fee €1.00 per round" in page
    assert "per series" not in page
    assert "Round 1: table fee €1.00." in page
    assert "Best of round 1" in page
    printed = client.get(f"/en/e/{e.organiser_token}/money/print").content.decode()
    assert "Best of round 1" in printed
    rules_url = f"/en/e/{e.organiser_token}/money/rules"
    rules_page = client.get(rules_url).content.decode()
    assert "Table fee per round" in rules_page
    assert "Prize for the best of each round" in rules_page
    assert "Lost-game fees" not in rules_page
    assert "rounds won, then points against" in rules_page
    german = client.get(f"/de/e/{e.organiser_token}/money/").content.decode()
    assert "Tischgeld 1,00\xa0€ je Durchgang" in german
    e.refresh_from_db()
    saved = client.post(
        rules_url,
        {
            "version": e.version,
            "money-keeps_money": "on",
            "money-currency": "EUR",
            "money-entry_fee": "6.00",
            "money-table_fee": "0.50",
            "money-count": "per_table",
            "money-per_table": "1",
            "money-curve": "linear",
            "money-round_to": "1",
            "money-series_prize": "2.00",
            "money-ties": "tie_break",
        },
    )
    assert saved.status_code == 302
    rules = accounts.rules_of(Evening.objects.get(pk=e.pk))
    assert (rules.entry_fee, rules.table_fee, rules.tiers) == (Decimal("6.00"), Decimal("0.50"), ())


def test_a_swapped_round_still_says_why_everyone_sits_where_they_sit(client):
    # The board's swap before a round starts (rule "evening-draw"): the movement's own
    # explanation, then the swap, and the round it gives is the one on the board.
    from evenings.models import Series

    e = night(8, movement="progressive")
    first_round_played(e, seed=9)
    second = services.series_draw(evening=e)
    names = dict(e.players.values_list("pk", "name"))
    table_one, table_two = seats(second)
    services.series_swap(series=second, first=table_one[0], second=table_two[1])
    second = Series.objects.get(pk=second.pk)
    view = selectors.evening_view(Evening.objects.get(pk=e.pk))
    steps = selectors.seating_steps(view, second)
    assert steps, "a swapped round keeps its explanation"
    assert steps[-1].text == (
        f"Before round 2 started, {names[table_one[0]]} and {names[table_two[1]]} swapped places."
    )
    assert steps[-1].rule == "evening-draw"
    board = client.get(f"/en/e/{e.organiser_token}/").content.decode()
    assert "swapped places." in board


def test_the_final_list_prints_each_round_and_every_players_total(client):
    # Issue 21, printing: "the final list", as the Skat evening's (a column a round).
    e = night(8, movement="progressive")
    first_round_played(e, seed=2)
    page = client.get(f"/en/r/{e.view_token}/list").content.decode()
    assert "10-Point Pitch" in page
    assert '<th scope="col">Round 1</th>' in page
    assert "Series 1" not in page
    view = selectors.evening_view(Evening.objects.get(pk=e.pk))
    for row in view.night_ranking(view.series).rows:
        name = view.names[row.player]
        assert f'<th scope="row">{name}</th>' in page
    german = client.get(f"/de/r/{e.view_token}/list").content.decode()
    assert '<th scope="col">Durchgang 1</th>' in german


def test_a_swap_at_a_pitch_night_is_refused_in_rounds(client):
    # The glossary's "round (of a Pitch night)": a swap after the round started, or of
    # somebody not in it, is refused with the night's own word (rule "evening-draw").
    e = night(8, movement="progressive")
    first = services.series_draw(evening=e, seed=2)
    one, _two = first.tables.all()
    a, b = (s.player_id for s in one.seats.all()[:2])
    with pytest.raises(RuleError) as wrong:
        services.series_swap(series=first, first=a, second=b, number=2)
    assert str(wrong.value.problems[0].message) == (
        "Players are swapped within one round: this is round 1, not 2."
    )
    with pytest.raises(RuleError) as stranger:
        services.series_swap(series=first, first=a, second=10**6)
    assert "is not in round 1; only its players can be swapped." in str(
        stranger.value.problems[0].message
    )
    finish(one, "A")
    with pytest.raises(RuleError) as started:
        services.series_swap(series=first, first=a, second=b)
    assert str(started.value.problems[0].message) == (
        "Round 1 has started; players are swapped only before it starts."
    )
