"""The evening's pages (issue 17): starting one, the roll, the draw, a paper table,
signing, the ranking and the big screen; bad input is a 4xx that changes nothing,
and the board, the ranking and the big screen read with a number of queries that
does not grow with the number of tables."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.contrib.auth.models import User

from circles import services as circle_services
from evenings import services
from evenings.models import Evening, EveningPlayer, EveningTable
from games import services as sheet_services
from games.rules.errors import RuleError

pytestmark = pytest.mark.django_db

NAMES = [f"Player {i:02d}" for i in range(1, 41)]
PASS = {"passed": True}


def make(n=11, **kw):
    e = services.evening_create(name="Club night", played_on=datetime.date.today(), **kw)
    if n:
        services.players_add(evening=e, names=NAMES[:n])
    return e


def test_anyone_starts_a_tournament_and_gets_the_organiser_link(client):
    response = client.post(
        "/en/evenings/new/",
        {
            "name": "Christmas Preisskat",
            "played_on": "2026-12-20",
            "game": "skat",
            "series_count": 2,
            "deals_3": 27,
            "deals_4": 32,
            "deals_5": 60,
            "table_order": "fours_first",
        },
    )
    evening = Evening.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/en/e/{evening.organiser_token}/"
    assert evening.series_deals == {"3": 27, "4": 32, "5": 60}
    page = client.get(response["Location"])
    assert page.status_code == 200
    assert b"Christmas Preisskat" in page.content
    assert page["Cache-Control"].startswith("max-age=0") or "no-store" in page["Cache-Control"]


def test_a_shortened_series_that_is_no_multiple_is_refused(client):
    response = client.post(
        "/en/evenings/new/",
        {
            "name": "X",
            "played_on": "2026-12-20",
            "game": "skat",
            "series_count": 2,
            "deals_3": 36,
            "deals_4": 30,
            "deals_5": 60,
            "table_order": "fours_first",
        },
    )
    assert response.status_code == 400
    assert b"multiple of 4" in response.content
    assert not Evening.objects.exists()


def test_a_circle_evening_is_started_by_its_members_only(client):
    """api.md (Club evenings): an evening in a circle needs a member's login; anyone
    else finds no such circle."""
    owner = User.objects.create_user("olga", "o@example.org", "pw-long-enough-1")
    member = User.objects.create_user("max", "m@example.org", "pw-long-enough-1")
    stranger = User.objects.create_user("sam", "s@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    circle_services.circle_join(user=member, token=circle.invite_token)
    client.force_login(stranger)
    assert client.get(f"/en/evenings/new/?circle={circle.pk}").status_code == 404
    client.force_login(owner)
    assert client.get(f"/en/evenings/new/?circle={circle.pk}").status_code == 200
    client.force_login(member)
    assert client.get(f"/en/evenings/new/?circle={circle.pk}").status_code == 200
    client.post(
        f"/en/evenings/new/?circle={circle.pk}",
        {
            "name": "Tuesday",
            "played_on": "2026-12-01",
            "game": "skat",
            "series_count": 2,
            "deals_3": 36,
            "deals_4": 48,
            "deals_5": 60,
            "table_order": "fours_first",
        },
    )
    evening = Evening.objects.get()
    assert evening.circle == circle
    assert evening.created_by == member
    board = client.get(f"/en/e/{evening.organiser_token}/")
    # Circle members are one tap each.
    olga = circle.players.get(name="Olga")
    assert f'name="player" value="{olga.pk}"'.encode() in board.content
    client.post(f"/en/e/{evening.organiser_token}/players", {"player": olga.pk})
    assert evening.players.get().name == "Olga"


def test_the_roll_and_the_draw_from_the_board(client):
    e = make(0)
    url = f"/en/e/{e.organiser_token}/"
    for name in NAMES[:2]:
        assert client.post(url + "players", {"name": name}).status_code == 302
    again = client.post(url + "players", {"name": NAMES[0].lower()})
    assert again.status_code == 400
    assert b"on the roll already" in again.content
    refused = client.post(url + "draw", {"method": "lot", "seed": "12"})
    assert refused.status_code == 400
    assert b"at least 3 players" in refused.content
    assert not e.series.exists()
    client.post(url + "players", {"name": NAMES[2]})
    drawn = client.post(url + "draw", {"method": "lot", "seed": "12"})
    assert drawn.status_code == 302
    board = client.get(url)
    table = EveningTable.objects.get()
    assert table.sheet.get_absolute_url().encode() in board.content
    assert b"seed 12" in board.content
    # The table's QR code fills a page of its own, one tap from its card.
    qr = client.get(f"{url}tables/{table.pk}/")
    assert qr.status_code == 200
    assert b"<svg" in qr.content
    assert f'href="http://testserver{table.sheet.get_absolute_url()}"'.encode() in qr.content
    second = client.post(url + "draw", {"method": "lot", "seed": "13"})
    assert second.status_code == 400
    assert b"still being played" in second.content


def test_the_name_box_is_ready_for_the_next_name_after_each_one(client):
    """Found typing a club's roll on a phone: after each name the page came back with
    nothing focused, so every next name took a tap on the box first (and the keyboard
    closed and opened again). Now the box has the focus after a name is added, and after
    a name is refused it keeps what was typed, to mend; a board opened afresh does not
    pop the keyboard up."""
    e = make(0)
    url = f"/en/e/{e.organiser_token}/"
    name_box = re.compile(r'<input type="text" name="name" id="id_name"[^>]*>')
    assert "autofocus" not in name_box.search(client.get(url).content.decode()).group(0)
    added = client.post(url + "players", {"name": NAMES[0]})
    assert added.status_code == 302
    assert added["Location"] == url + "?adding=1#roll"
    box = name_box.search(client.get(added["Location"]).content.decode()).group(0)
    assert "autofocus" in box
    assert "value=" not in box
    again = client.post(url + "players", {"name": NAMES[0].upper()})
    assert again.status_code == 400
    box = name_box.search(again.content.decode()).group(0)
    assert "autofocus" in box
    assert f'value="{NAMES[0].upper()}"' in box
    # What was typed is text in the box, never markup.
    odd = client.post(url + "players", {"name": '"><b>' + "x" * 60})
    assert odd.status_code == 400
    box = name_box.search(odd.content.decode()).group(0)
    assert 'value="&quot;&gt;&lt;b&gt;' in box


@pytest.mark.parametrize(
    ("language", "pitch"),
    [("en", "10-Point Pitch"), ("de", "10-Punkte-Pitch"), ("eo", "10-poenta Pitch")],
)
def test_a_pitch_night_is_named_in_the_readers_language(client, language, pitch):
    """Seen on a German phone: the board and the printed list of a Pitch night said
    "10-Point Pitch", and the new evening's form offered it so, among German words."""
    e = make(4, game="pitch", series_count=2)
    for page in (f"/{language}/e/{e.organiser_token}/", f"/{language}/r/{e.view_token}/list"):
        text = client.get(page).content.decode()
        assert pitch in text, page
    offered = client.get(f"/{language}/evenings/new/").content.decode()
    assert f"<span>{pitch}</span>" in offered
    if language != "en":
        assert "10-Point Pitch" not in offered


def test_a_swap_then_a_swap_after_the_start_is_refused(client):
    e = make(8)
    services.series_draw(evening=e, method="lot", seed=5)
    one, two = EveningTable.objects.order_by("number")
    a, b = one.seats.first().player_id, two.seats.first().player_id
    url = f"/en/e/{e.organiser_token}/series/1/swap"
    assert client.post(url, {"first": a, "second": b}).status_code == 302
    assert one.seats.first().player_id == b
    sheet_services.hand_record(sheet=one.sheet, data=PASS)
    refused = client.post(url, {"first": a, "second": b})
    assert refused.status_code == 400
    assert b"has started" in refused.content
    assert one.seats.first().player_id == b


def test_a_paper_table_typed_by_rows_and_a_foot_that_does_not_add_up(client):
    e = make(3)
    services.series_draw(evening=e, method="lot", seed=5)
    table = EveningTable.objects.get()
    seats = list(table.seats.select_related("player"))
    url = f"/en/e/{e.organiser_token}/tables/{table.pk}/paper"
    assert client.get(url).status_code == 200
    a = seats[0]
    bad = client.post(
        url,
        {f"points_{a.player_id}": "50", f"won_{a.player_id}": "1", "rows": f"{a.player.name} 48"}
        | {f"points_{s.player_id}": "0" for s in seats[1:]},
    )
    assert bad.status_code == 400
    assert b"the rows add up to 48" in bad.content
    impossible = client.post(url, {"rows": "1 25"})
    assert impossible.status_code == 400
    table.refresh_from_db()
    assert not table.paper
    ok = client.post(url, {"rows": f"{a.player.name} 48\n2 −96"})
    assert ok.status_code == 302
    table.refresh_from_db()
    assert table.paper
    assert table.done


def test_players_sign_on_the_table_link_and_it_writes_only_its_own_table(client):
    e = make(6, series_deals={"3": 3})
    services.series_draw(evening=e, method="lot", seed=5)
    one, two = EveningTable.objects.order_by("number")
    for _ in range(3):
        sheet_services.hand_record(sheet=one.sheet, data=PASS)
    url = f"/en/t/{one.sheet.edit_token}/sign"
    page = client.get(url)
    assert page.status_code == 200
    assert b"signs" in page.content
    stranger = two.seats.first().player_id
    refused = client.post(url, {"player": stranger})
    assert refused.status_code == 400
    assert not two.seats.filter(signed=True).exists()
    for seat in one.seats.all():
        assert client.post(url, {"player": seat.player_id}).status_code == 302
    one.refresh_from_db()
    assert one.signed_at is not None
    assert client.get(f"/en/t/{one.sheet.view_token}/sign").status_code == 404


def test_the_ranking_explains_itself_in_the_readers_language(client):
    e = make(3)
    services.series_draw(evening=e, method="lot", seed=5)
    table = EveningTable.objects.get()
    first = table.seats.first().player
    services.table_paper_result(table=table, rows=[{"declarer": first.pk, "value": 48}])
    page = client.get(f"/en/r/{e.view_token}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Seeger-Fabian" in text
    assert first.name in text
    assert re.search(r"1\.</span> <span class=\"who\">" + re.escape(first.name), text)
    # A tap on the name opens how the total comes about (rule evening-ranking): in
    # place with htmx, or as a page of its own.
    how = f"/en/r/{e.view_token}/players/{first.pk}"
    assert f'hx-get="{how}"' in text
    steps = client.get(how, headers={"HX-Request": "true"}).content.decode()
    assert steps.startswith('<p class="steps-total">Place 1 with 98.</p>')
    assert 'href="/en/evenings/rules/#evening-ranking"' in steps
    page = client.get(how).content.decode()
    assert "<h1>" + first.name + "</h1>" in page
    assert "Place 1 with 98." in page
    german = client.get(f"/de/r/{e.view_token}/")
    assert german.status_code == 200
    assert "Serie 1" in german.content.decode()
    german_steps = client.get(f"/de/r/{e.view_token}/players/{first.pk}").content.decode()
    assert "Platz 1 mit 98." in german_steps
    other = make(3)
    assert client.get(f"/en/r/{other.view_token}/players/{first.pk}").status_code == 404
    # The organiser's link is not a view link (it would show on the big screen).
    assert client.get(f"/en/r/{e.organiser_token}/").status_code == 404
    assert client.get("/en/r/nothing-here/").status_code == 404


def test_the_big_screen_switches_from_the_seating_to_the_ranking_by_itself(client):
    e = make(7)
    services.series_draw(evening=e, method="lot", seed=5)
    live = f"/en/r/{e.view_token}/screen/live"
    page = client.get(f"/en/r/{e.view_token}/screen")
    assert page.status_code == 200
    assert b'hx-trigger="every 10s"' in page.content
    assert b'data-mode="seating"' in page.content
    table = EveningTable.objects.order_by("number").first()
    sheet_services.hand_record(sheet=table.sheet, data=PASS)
    assert b'data-mode="ranking"' in client.get(live).content


def _evening_with_tables(count):
    e = make(4 * count)
    services.series_draw(evening=e, method="lot", seed=5)
    for table in EveningTable.objects.filter(series__evening=e):
        sheet_services.hand_record(sheet=table.sheet, data=PASS)
    return e


@pytest.mark.parametrize(
    "page",
    [
        "e/{organiser}/",
        "e/{organiser}/tables",
        "r/{view}/",
        "r/{view}/screen",
        "r/{view}/screen/live",
    ],
)
def test_query_counts_do_not_grow_with_the_number_of_tables(client, page):
    from django.core.cache import caches
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cold, warm = [], []
    for tables in (2, 6):
        e = _evening_with_tables(tables)
        url = "/en/" + page.format(organiser=e.organiser_token, view=e.view_token)
        caches["renders"].clear()
        for counts in (cold, warm):
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            counts.append(len(captured))
    assert cold[0] == cold[1], cold
    assert warm[0] == warm[1], warm
    if page == "e/{organiser}/":
        # The evening, its roll, its series, the last series' seats with their tables,
        # and the changes after signing: one query each, every time (the board has a
        # form; its table cards and roll are kept renderings, chosen by what they show).
        assert cold == warm == [5, 5]
    elif page.startswith("e/"):
        # The poll: the evening, its roll, its series and the last series' seats.
        assert cold == warm == [4, 4]
    else:
        # The evening and its stamps (one query for every series' sheet versions); the
        # first reader also reads the roll, the series, the tables and every seat, and
        # the rendering is shared until the evening or a table changes.
        assert cold == [6, 6]
        assert warm == [2, 2]


def _evening_after_series(count):
    """Eight players at two tables, ``count`` series of four deals played."""
    e = make(8, series_count=3, series_deals={"3": 3, "4": 4})
    for _ in range(count):
        series = services.series_draw(evening=e, method="lot", seed=5)
        for table in EveningTable.objects.filter(series=series):
            for _deal in range(4):
                sheet_services.hand_record(sheet=table.sheet, data=PASS)
    return e


@pytest.mark.parametrize(
    "page",
    ["e/{organiser}/", "e/{organiser}/tables", "r/{view}/", "r/{view}/screen/live"],
)
def test_query_counts_do_not_grow_with_the_number_of_series(client, page):
    """Issue 20: the board, the big screen and the ranking are flat in the series played
    too: after three series they cost the queries they cost after one."""
    from django.core.cache import caches
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cold, warm = [], []
    for series in (1, 3):
        e = _evening_after_series(series)
        assert e.series.count() == series
        url = "/en/" + page.format(organiser=e.organiser_token, view=e.view_token)
        caches["renders"].clear()
        for counts in (cold, warm):
            with CaptureQueriesContext(connection) as captured:
                assert client.get(url).status_code == 200
            counts.append(len(captured))
    assert cold[0] == cold[1], cold
    assert warm[0] == warm[1], warm


def test_a_poll_after_one_deal_draws_that_tables_card_alone(client):
    """The board's cards are kept renderings, each chosen by what it shows: after a
    deal at table 2 the poll draws table 2's card again and takes the others as
    they were; the roll is drawn again only when it changes."""
    from django.core.cache import caches

    def drawn(response, name):
        return [t.name for t in response.templates].count(f"evenings/{name}")

    e = _evening_with_tables(4)
    caches["renders"].clear()
    board = f"/en/e/{e.organiser_token}/"
    first = client.get(board)
    assert drawn(first, "_board_card.html") == 4
    assert drawn(first, "_board_roll.html") == 1
    again = client.get(board)
    assert drawn(again, "_board_card.html") == drawn(again, "_board_roll.html") == 0
    two = EveningTable.objects.get(series__evening=e, number=2)
    sheet_services.hand_record(sheet=two.sheet, data=PASS)
    poll = client.get(board + "tables")
    assert drawn(poll, "_board_card.html") == 1
    assert "2 of 48 deals" in poll.content.decode()
    assert poll.content.decode().count("1 of 48 deals") == 3
    # A player joins: the evening's version moves, and the roll and every card with it.
    client.post(board + "players", {"name": "Latecomer"})
    after = client.get(board)
    assert drawn(after, "_board_roll.html") == 1
    assert "Latecomer" in after.content.decode()


def test_a_shared_rendering_follows_every_new_deal(client):
    e = _evening_with_tables(2)
    url = f"/en/r/{e.view_token}/screen/live"
    before = client.get(url).content.decode()
    table = EveningTable.objects.filter(series__evening=e).first()
    sheet_services.hand_record(
        sheet=table.sheet,
        data={"declarer": 2, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"},
    )
    after = client.get(url).content.decode()
    assert after != before
    assert ">98<" in after
    german = client.get(f"/de/r/{e.view_token}/screen/live").content.decode()
    assert "Rangliste nach Serie 1" in german


def test_every_rule_an_evening_cites_is_a_section_of_the_evenings_rule_page(client):
    from evenings.rules import money, ranking, seating

    markup = client.get("/en/evenings/rules/").content.decode()
    for anchor in {**seating.RULE_SECTIONS, **ranking.RULE_SECTIONS, **money.RULE_SECTIONS}:
        assert markup.count(f'id="{anchor}"') == 1
        assert f'href="#{anchor}"' in markup
    e = make(3)
    services.series_draw(evening=e, method="lot", seed=5)
    table = EveningTable.objects.get()
    services.table_paper_result(
        table=table, rows=[{"declarer": table.seats.first().player_id, "value": 48}]
    )
    page = client.get(f"/en/r/{e.view_token}/").content.decode()
    assert 'href="/en/evenings/rules/#evening-ranking"' in page


def test_a_tables_sheet_page_leads_to_its_sign_off_and_other_sheets_do_not(client):
    e = make(3)
    services.series_draw(evening=e, method="lot", seed=5)
    table = EveningTable.objects.get()
    page = client.get(f"/en/s/{table.sheet.edit_token}/").content.decode()
    assert f'href="/en/t/{table.sheet.edit_token}/sign"' in page
    assert "Table 1 · series 1" in page
    # The read-only link does not sign.
    assert "/sign" not in client.get(f"/en/v/{table.sheet.view_token}/").content.decode()
    loose = sheet_services.sheet_create(game="skat", players=["A", "B", "C"])
    assert "/sign" not in client.get(f"/en/s/{loose.edit_token}/").content.decode()


def test_a_series_without_results_says_so_on_the_ranking(client):
    e = make(3)
    services.series_draw(evening=e, method="lot", seed=5)
    page = client.get(f"/en/r/{e.view_token}/").content.decode()
    assert "No table has a result in this series yet." in page


def test_the_board_names_a_quiet_table_and_a_change_after_signing(client):
    import datetime as dt

    from django.utils import timezone

    e = make(7, series_deals={"3": 3})
    services.series_draw(evening=e, method="lot", seed=5)
    four, three = EveningTable.objects.order_by("number")
    EveningTable.objects.filter(pk=four.pk).update(
        last_entry_at=timezone.now() - dt.timedelta(minutes=16)
    )
    a = three.seats.first().player_id
    services.table_paper_result(table=three, rows=[{"declarer": a, "value": 48}])
    services.table_sign(table=three)
    services.table_paper_result(table=three, rows=[{"declarer": a, "value": 96}])
    page = client.get(f"/en/e/{e.organiser_token}/").content.decode()
    assert page.count("Nothing entered for 15 minutes") == 1
    assert "Table 2 of series 1 changed after it was signed." in page
    name = EveningPlayer.objects.get(pk=a).name
    assert f"{name}: 98 → 146 (place 1 → 1)" in page


def test_every_member_finds_how_to_start_an_evening_on_the_circle_page(client):
    owner = User.objects.create_user("olga", "o@example.org", "pw-long-enough-1")
    member = User.objects.create_user("max", "m@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    circle_services.circle_join(user=member, token=circle.invite_token)
    link = f'href="/en/evenings/new/?circle={circle.pk}"'
    for user in (owner, member):
        client.force_login(user)
        assert link in client.get(f"/en/circles/{circle.pk}/").content.decode()


def test_a_series_prints_its_seating_list_by_name_and_a_card_per_table(client):
    e = make(7)
    services.series_draw(evening=e, method="lot", seed=5)
    page = client.get(f"/en/e/{e.organiser_token}/series/1/print")
    assert page.status_code == 200
    text = page.content.decode()
    rows = re.findall(r'<tr><th scope="row">([^<]+)</th><td>(\d)</td><td>(\d)</td></tr>', text)
    assert [name for name, _t, _s in rows] == sorted(NAMES[:7])
    for table in EveningTable.objects.all():
        for seat in table.seats.select_related("player"):
            assert (seat.player.name, str(table.number), str(seat.position + 1)) in rows
    assert text.count('class="panel table-print-card"') == 2
    # A QR code on each table's card (the page's logo is an SVG of its own).
    assert text.count("<svg") - text.count('<svg class="brand-logo"') == 2
    assert client.get(f"/en/e/{e.organiser_token}/series/2/print").status_code == 404


def test_the_board_polls_its_tables_and_offers_the_next_draw_when_all_are_done(client):
    e = make(3, series_deals={"3": 3})
    services.series_draw(evening=e, method="lot", seed=5)
    table = EveningTable.objects.get()
    url = f"/en/e/{e.organiser_token}/tables"
    first = client.get(url).content.decode()
    assert 'hx-trigger="every 15s"' in first
    assert "0 of 3 deals" in first
    for _ in range(3):
        sheet_services.hand_record(sheet=table.sheet, data=PASS)
    done = client.get(url).content.decode()
    assert "Every table is done: draw the next series." in done
    assert f'href="/en/e/{e.organiser_token}/#draw"' in done


def test_the_circle_page_gives_the_board_to_its_organiser_and_owners_the_ranking_to_members(
    client,
):
    owner = User.objects.create_user("olga", "o@example.org", "pw-long-enough-1")
    member = User.objects.create_user("max", "m@example.org", "pw-long-enough-1")
    other = User.objects.create_user("ina", "i@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    circle_services.circle_join(user=member, token=circle.invite_token)
    circle_services.circle_join(user=other, token=circle.invite_token)
    e = services.evening_create(
        name="Tuesday", played_on=datetime.date.today(), circle=circle, by=member
    )
    for organiser in (owner, member):
        client.force_login(organiser)
        page = client.get(f"/en/circles/{circle.pk}/").content.decode()
        assert f'href="/en/e/{e.organiser_token}/"' in page
        assert "Start a club evening" in page
    client.force_login(other)
    page = client.get(f"/en/circles/{circle.pk}/").content.decode()
    assert e.organiser_token not in page
    assert f'href="/en/r/{e.view_token}/"' in page
    assert "Start a club evening" in page


def test_the_ranking_page_links_the_evenings_list_to_print(client):
    e = make(3, series_deals={"3": 3})
    services.series_draw(evening=e, method="lot", seed=5)
    table = EveningTable.objects.get()
    a = table.seats.first().player
    services.table_paper_result(table=table, rows=[{"declarer": a.pk, "value": 48}])
    services.series_draw(evening=e, method="lot", seed=6)
    ranking = client.get(f"/en/r/{e.view_token}/").content.decode()
    assert f'href="/en/r/{e.view_token}/list"' in ranking
    assert "overall-table" not in ranking
    text = client.get(f"/en/r/{e.view_token}/list").content.decode()
    start = text.index('class="tally-table overall-table"')
    table_html = text[start : text.index("</table>", start)]
    assert 'Series 1</th><th scope="col">Series 2</th><th scope="col">Won</th>' in table_html
    assert (
        # Its series, the games won and lost that break a tie, the total, the place.
        f'<th scope="row">{a.name}</th><td>98</td><td>–</td><td>1</td><td>0</td>'
        "<td><strong>98</strong></td><td>1.</td>" in table_html
    )


def test_a_players_team_and_categories_are_set_at_the_roll_and_ranked(client):
    e = make(0, series_deals={"4": 4})
    url = f"/en/e/{e.organiser_token}/players"
    for name, team in (("Ann", "North"), ("Bo", "North"), ("Cy", "South"), ("Di", "South")):
        client.post(url, {"name": name, "team": team, "tags": "women" if name == "Ann" else ""})
    ann = e.players.get(name="Ann")
    assert (ann.team, ann.tags) == ("North", ["women"])
    edit = f"/en/e/{e.organiser_token}/players/{ann.pk}/"
    assert client.get(edit).status_code == 200
    assert client.post(edit, {"team": "North", "tags": "women, juniors"}).status_code == 302
    ann.refresh_from_db()
    assert ann.tags == ["women", "juniors"]
    services.series_draw(evening=e, method="lot", seed=1)
    page = client.get(f"/en/r/{e.view_token}/").content.decode()
    assert "Category: juniors" in page
    assert "Category: women" in page
    assert ">North<" in page
    assert "match points" in page or "match point" in page


def test_one_match_point_is_singular():
    from fractions import Fraction

    from evenings.templatetags.evenings import match_points, plural_count

    assert (plural_count(Fraction(1)), plural_count(Fraction(3, 2)), plural_count(0)) == (1, 2, 2)
    assert (match_points(Fraction(3, 2)), match_points(Fraction(1, 2))) == ("1½", "½")


def test_the_players_of_a_done_table_may_leave_those_still_playing_may_not(client):
    e = make(7)
    services.series_draw(evening=e, method="lot", seed=5)
    four, three = EveningTable.objects.order_by("number")
    services.table_paper_result(
        table=three,
        foot=[{"player": s.player_id, "points": 0, "won": 0, "lost": 0} for s in three.seats.all()],
    )
    page = client.get(f"/en/e/{e.organiser_token}/").content.decode()
    for seat in three.seats.all():
        assert f"/players/{seat.player_id}/leave" in page
    for seat in four.seats.all():
        assert f"/players/{seat.player_id}/leave" not in page
        assert f'href="/en/e/{e.organiser_token}/players/{seat.player_id}/"' in page


def test_a_pitch_evening_started_with_sitting_out_names_who_sits_out(client):
    response = client.post(
        "/en/evenings/new/",
        {
            "name": "Pitch night",
            "played_on": datetime.date.today().isoformat(),
            "game": "pitch",
            "series_count": 2,
            "deals_3": 36,
            "deals_4": 48,
            "deals_5": 60,
            "table_order": "fours_first",
            "sit_out": "on",
        },
    )
    assert response.status_code == 302
    e = Evening.objects.get()
    assert e.sit_out
    services.players_add(evening=e, names=NAMES[:5])
    services.series_draw(evening=e, method="lot", seed=1)
    # A Pitch night plays rounds (the glossary's "round (Pitch night)").
    board = client.get(f"/en/e/{e.organiser_token}/").content.decode()
    assert f"Sitting this round out: {NAMES[0]}" in board
    screen = client.get(f"/en/r/{e.view_token}/screen").content.decode()
    assert f"Sitting this round out: {NAMES[0]}" in screen


def test_a_table_link_used_after_its_series_closed_is_refused_and_changes_nothing(client):
    e = make(3, series_deals={"3": 3})
    services.series_draw(evening=e, method="lot", seed=5)
    table = EveningTable.objects.get()
    for _ in range(3):
        sheet_services.hand_record(sheet=table.sheet, data=PASS)
    services.series_draw(evening=e, method="lot", seed=6)
    table.sheet.refresh_from_db()
    version = table.sheet.version
    with pytest.raises(RuleError, match="Series 1 is closed"):
        sheet_services.hand_correct(
            sheet=table.sheet,
            number=1,
            data={
                "declarer": 0,
                "game": "grand",
                "bid": 18,
                "matadors": {"with": 1},
                "outcome": "won",
            },
        )
    response = client.put(
        f"/api/v1/sheets/{table.sheet.pk}/hands/1",
        json.dumps(
            {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
        ),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {table.sheet.edit_token}",
    )
    assert response.status_code == 422
    assert "Series 1 is closed" in response.json()["errors"][0]["message"]
    table.sheet.refresh_from_db()
    assert table.sheet.version == version
    assert not any(s.points for s in table.seats.all())


def test_a_deal_removed_on_a_closed_tables_page_is_refused_with_its_reason(client):
    e = make(3, series_deals={"3": 3})
    services.series_draw(evening=e, method="lot", seed=5)
    table = EveningTable.objects.get()
    for _ in range(3):
        sheet_services.hand_record(sheet=table.sheet, data=PASS)
    services.series_draw(evening=e, method="lot", seed=6)
    # The sheet's buttons answer a refusal as a message on its board (games' way).
    response = client.post(
        f"/en/s/{table.sheet.edit_token}/deals/1/delete",
        {"hand": table.sheet.hands.first().pk},
        follow=True,
    )
    assert "Series 1 is closed" in response.content.decode()
    assert table.sheet.hands.filter(removed_at__isnull=True).count() == 3


def test_correcting_a_paper_table_starts_from_its_saved_foot(client):
    e = make(3)
    services.series_draw(evening=e, method="lot", seed=5)
    table = EveningTable.objects.get()
    a = table.seats.first().player_id
    services.table_paper_result(table=table, rows=[{"declarer": a, "value": 48}])
    page = client.get(f"/en/e/{e.organiser_token}/tables/{table.pk}/paper").content.decode()
    assert f'name="points_{a}" value="48"' in page
    assert f'name="won_{a}" value="1"' in page
