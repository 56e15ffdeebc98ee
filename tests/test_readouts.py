"""What people read off the app outside the entry form: the printed lists, the
read-only sheet, a club evening's ranking, list and money pages, the season's standings
and CSV. Each test holds one finding of an audit that was fixed; its docstring says what
a reader met (in the past it happened) and what the app does instead."""

from __future__ import annotations

import csv
import datetime
import io
import re
from decimal import Decimal
from html.parser import HTMLParser

import pytest
from django.utils import formats, timezone, translation
from django.utils.translation import gettext

from circles import services as circle_services
from circles.models import Player
from evenings import accounts, services
from evenings.models import EveningTable
from games import selectors as sheet_selectors
from games import services as sheet_services
from tests.circle_setup import circle_with_season
from tests.test_translations import visible

pytestmark = pytest.mark.django_db

GRAND_WON = {"declarer": 0, "game": "grand", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}
GRAND_LOST = {**GRAND_WON, "outcome": "lost"}
PITCH_POINTS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def _text(response) -> str:
    return " ".join(visible(response.content.decode()))


class _Form(HTMLParser):
    """The fields a browser sends for a page's form (text, checked boxes and radios,
    each select's selected option or else its first)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._first: str | None = None
        self._chosen = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[name] = a.get("value", "on")
            elif kind not in ("submit", "button"):
                self.data[name] = a.get("value", "")
        elif tag == "select" and name:
            self._select, self._first, self._chosen = name, None, False
        elif tag == "option" and self._select:
            if self._first is None:
                self._first = a.get("value", "")
            if "selected" in a:
                self.data[self._select] = a.get("value", "")
                self._chosen = True

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            if not self._chosen and self._first is not None:
                self.data[self._select] = self._first
            self._select = None


def test_a_corrected_manipulation_round_is_called_a_round_in_the_season_corrections(client):
    """A Manipulation sheet counts rounds (German "Durchgang"), and its own page says
    "Correct round 2"; the season's "Corrections after the fact" says "deal 2 was
    corrected" ("Spiel 2 wurde berichtigt"), a deal the sheet never had. It should name
    the round, as the sheet does."""
    owner, circle, season = circle_with_season()
    sheet = circle_services.sheet_create_in_circle(
        circle=circle, game="manipulation", players=["Olga", "Ben", "Cem"], owner=owner
    )
    for deal in (
        {"penalties": [0, 35, 60]},
        {"penalties": [45, 0, 10]},
        {"penalties": [0, 150, 135]},
    ):
        sheet_services.hand_record(sheet=sheet, data=deal)
    sheet.refresh_from_db()
    assert sheet.finished
    sheet_services.hand_correct(sheet=sheet, number=2, data={"penalties": [40, 0, 10]})
    client.force_login(owner)
    english = _text(client.get(f"/en/circles/{circle.pk}/seasons/{season.pk}/"))
    assert "was corrected" in english  # the correction is listed
    assert "round 2 was corrected" in english, english
    german = _text(client.get(f"/de/circles/{circle.pk}/seasons/{season.pk}/"))
    assert "Durchgang 2 wurde berichtigt" in german, german


def test_no_category_prize_goes_to_a_player_without_a_result(client):
    """Before anyone in the category has a list in, the money page and the printed
    payout sheet already give the category prize ("Best in Damen: Ada, €3.00") to a
    player who has not played a game; place prizes rightly wait for results. A player
    with no result should win nothing, in a category as in the places."""
    e = services.evening_create(
        name="Preisskat",
        played_on=datetime.date.today(),
        money={"entry_fee": "5.00", "payout": {"category_prize": "3.00"}},
    )
    services.players_add(evening=e, names=["Ada", "Bo", "Cy", "Di", "Ed"])
    ada = e.players.get(name="Ada")
    services.player_update(evening=e, player=ada, tags=["Damen"])
    e.refresh_from_db()
    services.series_draw(evening=e, seed=1)
    view = accounts.money_view(e)
    assert view.prizes is not None
    assert view.prizes.paid_out == 0, [(p.kind, p.label, p.amount) for p in view.prizes.prizes]
    page = _text(client.get(f"/en/e/{e.organiser_token}/money/print"))
    assert "Best in Damen" not in page, page


def test_no_round_prize_at_a_pitch_night_before_a_hand_is_played(client):
    """A Pitch night with a prize for the best of each round: as soon as round 1 is
    drawn, before a single hand, the money page splits "Best of round 1" among all nine
    players on the roll, the one sitting the round out too (€0.11 or €0.12 each). A
    round's prize should wait for its results and never go to someone who sat it out."""
    e = services.evening_create(
        name="Pitch party",
        played_on=datetime.date.today(),
        game="pitch",
        series_count=2,
        sit_out=True,
        money={"entry_fee": "3.00", "payout": {"series_prize": "1.00"}},
    )
    services.players_add(evening=e, names=[f"P{i}" for i in range(1, 10)])
    series = services.series_draw(evening=e, seed=5)
    assert series.sitting_out
    view = accounts.money_view(e)
    assert view.prizes is not None
    given = [(p.kind, p.label, p.players) for p in view.prizes.prizes]
    assert given == [], given
    page = _text(client.get(f"/en/e/{e.organiser_token}/money/"))
    assert "Best of round 1" not in page


def test_the_club_rules_say_what_a_lost_game_gives_the_others_at_a_table_of_five(client):
    """A circle's Skat series at a table of five gives the others 24 Seeger-Fabian points
    for each game a declarer lost (40 at three, 30 at four, 24 at five), and the season's
    standings count it so; the season page's club rules tell the reader "+40 (30 at
    four)" only, so the numbers of that series are explained wrongly. The rule should
    name 24 at five as the evening pages do."""
    owner, circle, season = circle_with_season()
    sheet = circle_services.sheet_create_in_circle(
        circle=circle,
        game="skat",
        players=["Olga", "Ben", "Cem", "Dan", "Eva"],
        options={"series_deals": 5},
        owner=owner,
    )
    # Five deals (the dealer and the third to the dealer's left sit each one out): the
    # first declarer loses a Grand, the others win theirs.
    for number in range(5):
        sheet.refresh_from_db()
        sitting_out = sheet_selectors.current_state(sheet).next_deal.sitting_out_seats
        playing = [seat for seat in range(5) if seat not in sitting_out]
        deal = GRAND_LOST if number == 0 else GRAND_WON
        sheet_services.hand_record(sheet=sheet, data={**deal, "declarer": playing[0]})
    sheet.refresh_from_db()
    assert sheet.finished
    client.force_login(owner)
    page = _text(client.get(f"/en/circles/{circle.pk}/seasons/{season.pk}/"))
    # The standings count 24 for the others of the lost game (Cem, Dan and Eva here).
    assert "Cem 24 1 0 0 0 0 24" in page, page
    rule = page.split("Seeger-Fabian per series:", 1)[1].split(".", 1)[0]
    assert "24" in rule, rule


def test_the_standings_csv_has_no_moon_cell_a_spreadsheet_turns_into_a_date(client):
    """The season's CSV writes a Pitch player's moon shots as "made/tried" ("1/1"): an
    English spreadsheet opens that cell as the date 1 January, so the column shows
    dates, not moon shots. Each cell should be a number (or text a spreadsheet keeps),
    e.g. made and tried in columns of their own."""
    owner, circle, season = circle_with_season()
    sheet = circle_services.sheet_create_in_circle(
        circle=circle, game="pitch", players=["Olga", "Ben", "Cem", "Dan"], owner=owner
    )
    for bid in (4, "moon"):  # team A makes all ten points, then makes its moon: game over
        sheet_services.hand_record(
            sheet=sheet,
            data={"pitcher": 0, "bid": bid, "points": dict.fromkeys(PITCH_POINTS, "A")},
        )
    sheet.refresh_from_db()
    assert sheet.finished
    client.force_login(owner)
    response = client.get(f"/en/circles/{circle.pk}/seasons/{season.pk}/standings.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8").lstrip("\ufeff"))))
    header, olga = rows[0], next(row for row in rows if row[2] == "Olga")
    moon = header.index("Moon made of tried")
    assert not re.fullmatch(r"\d{1,2}/\d{1,2}", olga[moon]), (header[moon], olga[moon])


def test_the_money_rules_page_of_a_yen_evening_keeps_its_currency(client):
    """An evening kept in yen (JPY is one of the currencies the money rules and the API
    take) opens its money rules page with EUR in the currency box, since the box offers
    nine currencies only; saving the page unchanged turns the ¥1,000 entry fee into
    €1,000.00. The page should show and keep the evening's own currency."""
    e = services.evening_create(
        name="Yen night",
        played_on=datetime.date.today(),
        money={"currency": "JPY", "entry_fee": "1000"},
    )
    url = f"/en/e/{e.organiser_token}/money/rules"
    page = client.get(url).content.decode()
    form = _Form()
    form.feed(page)
    shown = form.data.get("money-currency")
    client.post(url, form.data)  # saved as the page shows it
    e.refresh_from_db()
    kept = accounts.rules_of(e)
    assert (shown, kept.currency, str(kept.entry_fee)) == ("JPY", "JPY", "1000")


def test_the_skat_list_of_a_table_recorded_from_paper_prints_its_result(client):
    """A club evening's table recorded from its paper list (100, 200 and 300 list points,
    one game won each: 150, 250 and 350) counts so in the evening's ranking, and its
    sheet page offers "Print the Skat list"; the printed list's foot says "Final total
    0" for every player. The list should print the result the evening counts (or say it
    was kept on paper), never a foot of zeros."""
    e = services.evening_create(
        name="Preisskat", played_on=datetime.date(2026, 12, 3), series_deals={"3": 6, "4": 8}
    )
    services.players_add(evening=e, names=["Ada", "Bo", "Cy"])
    services.series_draw(evening=e, seed=4711)
    table = EveningTable.objects.get(series__evening=e)
    seats = list(table.seats.order_by("position"))
    services.table_paper_result(
        table=table,
        foot=[
            {"player": s.player_id, "points": 100 * (i + 1), "won": 1, "lost": 0}
            for i, s in enumerate(seats)
        ],
    )
    table.refresh_from_db()
    ranking = _text(client.get(f"/en/r/{e.view_token}/"))
    assert "350" in ranking
    assert "150" in ranking
    sheet_page = client.get(f"/en/s/{table.sheet.edit_token}/").content.decode()
    assert (
        f"/v/{table.sheet.view_token}/list" in sheet_page
        or f"/s/{table.sheet.edit_token}/list" in sheet_page
    )
    listed = client.get(f"/en/v/{table.sheet.view_token}/list").content.decode()
    foot = re.search(r'<tr class="foot-total">(.*?)</tr>', listed, re.S).group(1)
    totals = re.findall(r'<td colspan="3" class="c-foot">([^<]*)</td>', foot)
    assert sorted(totals) == ["150", "250", "350"], totals


def test_the_printed_evening_list_shows_what_breaks_a_tie(client):
    """Ada and Bo both end the evening on 100 Seeger-Fabian points; Ada is placed first
    for her game won (the tie-break), and the ranking on screen shows "1 won, 0 lost"
    beside each. The printed evening list shows "Ada 100 1." and "Bo 100 2." with no
    games won or lost, so the paper on the wall ranks equal totals apart without a
    reason. It should print what the screen shows: the games won and lost."""
    e = services.evening_create(
        name="Preisskat", played_on=datetime.date(2026, 12, 3), series_deals={"3": 6, "4": 8}
    )
    services.players_add(evening=e, names=["Ada", "Bo", "Cy"])
    services.series_draw(evening=e, seed=4711)
    table = EveningTable.objects.get(series__evening=e)
    by_name = {s.player.name: s for s in table.seats.select_related("player")}
    services.table_paper_result(
        table=table,
        foot=[
            {"player": by_name["Ada"].player_id, "points": 50, "won": 1, "lost": 0},
            {"player": by_name["Bo"].player_id, "points": 100, "won": 0, "lost": 0},
            {"player": by_name["Cy"].player_id, "points": -20, "won": 0, "lost": 0},
        ],
    )
    ranking = _text(client.get(f"/en/r/{e.view_token}/"))
    assert "1. Ada 100 1 won, 0 lost" in ranking
    assert "2. Bo 100 0 won, 0 lost" in ranking
    printed = client.get(f"/en/r/{e.view_token}/list").content.decode()
    rows = re.findall(r"<tr><th scope=\"row\">(.*?)</tr>", printed, re.S)
    cells = {
        re.sub(r"<[^>]+>", " ", row).split()[0]: re.sub(r"<[^>]+>", " ", row).split()
        for row in rows
    }
    assert cells["Ada"][-2:] == ["100", "1."]
    assert cells["Bo"][-2:] == ["100", "2."]
    header = re.search(r"<thead>(.*?)</thead>", printed, re.S).group(1)
    assert re.search(r"\b[Ww]on\b", header), header


@pytest.mark.parametrize("language", ["de", "eo"])
def test_the_read_only_link_of_a_deleted_sheet_writes_its_days_in_the_readers_way(client, language):
    """A deleted sheet's read-only link says when it was deleted and until when it can
    come back as "3 Dez 2026, 14:05" and "2 Jan 2027" (Esperanto "3 Dec 2026"): English
    day order and a bare month abbreviation, where every other page writes a German day
    as "3. Dezember 2026" and an Esperanto one as "3-a de decembro 2026". It should
    write them as the reader's language does."""
    sheet = sheet_services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    sheet_services.sheet_delete(sheet=sheet)
    sheet.refresh_from_db()
    response = client.get(f"/{language}/v/{sheet.view_token}/")
    assert response.status_code == 410
    page = _text(response)
    with translation.override(language):
        deleted = formats.date_format(timezone.localtime(sheet.deleted_at), gettext("j M Y"))
        purge = formats.date_format(
            timezone.localtime(sheet.deleted_at) + datetime.timedelta(days=30), gettext("j M Y")
        )
    said = page[page.index("Ana, Ben, Cem") :][:200]  # "The Skat sheet of Ana, Ben, Cem …"
    assert deleted in page, (deleted, said)
    assert purge in page, (purge, said)


def test_the_cash_box_does_not_net_money_to_give_back_against_fees_still_owed(client):
    """Ada paid her bill (€7.00 with a lost game), then the deal was taken off and she is
    owed €1.00 back; Cy has paid nothing of his €6.00. The money page's cash box says
    "Not paid yet €5.00": Cy's debt less Ada's refund, a sum no one owes. It should say
    €6.00 not paid (the refund is money going the other way)."""
    e = services.evening_create(
        name="Club night",
        played_on=datetime.date.today(),
        series_deals={"3": 6, "4": 8},
        money={"entry_fee": "6.00", "lost_game_fees": [{"from": 1, "amount": "1.00"}]},
    )
    services.players_add(evening=e, names=["Ada", "Bo", "Cy"])
    services.series_draw(evening=e, seed=3)
    table = EveningTable.objects.get(series__evening=e)
    ada = table.seats.get(player__name="Ada")
    sheet_services.hand_record(
        sheet=table.sheet,
        data={
            "declarer": ada.position,
            "game": "clubs",
            "bid": 18,
            "matadors": {"with": 1},
            "outcome": "lost",
        },
    )
    e.refresh_from_db()
    assert accounts.money_view(e).line_of(ada.player_id).account.owes == Decimal("7.00")
    accounts.payment_add(evening=e, player=ada.player, amount="7.00")
    accounts.payment_add(evening=e, player=e.players.get(name="Bo"), amount="6.00")
    table.sheet.refresh_from_db()
    sheet_services.hand_remove(sheet=table.sheet, number=1)
    e.refresh_from_db()
    view = accounts.money_view(e)
    owed = sum(line.due for line in view.lines)
    assert owed == Decimal("6.00")  # Cy's entry fee; Ada is owed €1.00 back
    page = _text(client.get(f"/en/e/{e.organiser_token}/money/"))
    assert "Not paid yet €6.00" in page, page[page.index("Cash box") :]


def test_an_erased_player_is_named_in_the_readers_language(client):
    """When the owner erases a player from the English pages, every sheet, the standings,
    the CSV and the player list name the person "Former player 1", and a German reader of
    the season's standings reads that English phrase. The placeholder should be said in
    the reader's language ("Ehemaliger Spieler 1")."""
    owner, circle, season = circle_with_season()
    sheet = circle_services.sheet_create_in_circle(
        circle=circle,
        game="skat",
        players=["Olga", "Ben", "Cem"],
        options={"series_deals": 3},
        owner=owner,
    )
    for declarer in (0, 1, 2):
        sheet_services.hand_record(sheet=sheet, data={**GRAND_WON, "declarer": declarer})
    with translation.override("en"):  # the owner's request, in English
        circle_services.player_erase(player=Player.objects.get(circle=circle, name="Ben"))
    client.force_login(owner)
    german = _text(client.get(f"/de/circles/{circle.pk}/seasons/{season.pk}/"))
    assert "Former player" not in german, german
    assert "Ehemaliger Spieler 1" in german


def test_the_read_only_link_shows_every_deal_when_asked(client):
    """The read-only sheet lists the latest 12 deals and offers "Show all 14 deals"; that
    link (?deals=all) opens the same 12 again, so a player following the shared link can
    never see deals 1 and 2 that the totals above include. It should list all 14, as the
    edit link's page does."""
    sheet = sheet_services.sheet_create(game="skat", players=["Ana", "Ben", "Cem"])
    for number in range(14):
        sheet_services.hand_record(sheet=sheet, data={**GRAND_WON, "declarer": number % 3})
    sheet.refresh_from_db()
    edit_all = client.get(f"/en/s/{sheet.edit_token}/?deals=all").content.decode()
    assert edit_all.count('class="deal"') == 14
    first = client.get(f"/en/v/{sheet.view_token}/").content.decode()
    assert "Show all 14 deals" in first
    shown = client.get(f"/en/v/{sheet.view_token}/?deals=all").content.decode()
    assert shown.count('class="deal"') == 14, shown.count('class="deal"')
