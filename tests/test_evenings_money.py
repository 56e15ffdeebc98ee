"""The evening's money in the database (issue 18): rules kept with an evening or a
circle, bills that follow the lists as they are entered (a correction changes them),
payments marked and undone, the draw that waits for everyone to pay, the pot, the
prize list and the cash box; bad input is refused and changes nothing."""

from __future__ import annotations

import datetime
import html
from decimal import Decimal as D

import pytest
from django.contrib.auth.models import User

from circles import services as circle_services
from evenings import accounts, services
from evenings.models import Evening, EveningTable, Payment
from games import services as sheet_services
from games.rules.errors import RuleError

pytestmark = pytest.mark.django_db

CLUB = {
    "currency": "EUR",
    "entry_fee": "6.00",
    "lost_game_fees": [{"from": 1, "amount": "0.50"}, {"from": 4, "amount": "1.00"}],
}
NAMES = ["Anna", "Bernd", "Carla", "Dieter", "Eva", "Frank", "Gabi"]


def evening(n=4, **kw):
    e = services.evening_create(
        name="Club night", played_on=datetime.date.today(), series_deals={"3": 6, "4": 8}, **kw
    )
    services.players_add(evening=e, names=NAMES[:n])
    return e


def lose(sheet, declarer, times=1):
    for _ in range(times):
        sheet_services.hand_record(
            sheet=sheet,
            data={
                "declarer": declarer,
                "game": "clubs",
                "bid": 18,
                "matadors": {"with": 1},
                "outcome": "lost",
            },
        )


def test_an_evening_keeps_its_money_rules_and_a_circle_its_usual_ones():
    """evening-money: the rules are set when the evening starts."""
    e = evening(money=CLUB)
    assert accounts.rules_of(e).entry_fee == D("6.00")
    assert e.money["lost_game_fees"] == CLUB["lost_game_fees"]
    owner = User.objects.create_user("olga", "o@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    accounts.keep_for_circle(circle=circle, rules=accounts.rules_of(e))
    started = services.evening_create(name="Next", played_on=datetime.date.today(), circle=circle)
    assert started.money == e.money
    # Kept rules that no longer read (edited in the database) start an evening with none.
    circle.evening_money = {"entry_fee": "-3"}
    circle.save()
    plain = services.evening_create(name="Odd", played_on=datetime.date.today(), circle=circle)
    assert plain.money == {}


def test_bad_money_rules_refuse_the_evening_and_make_nothing():
    with pytest.raises(RuleError) as refused:
        evening(money={**CLUB, "entry_fee": "6.005"})
    assert refused.value.problems[0].field == "money.entry_fee"
    assert not Evening.objects.exists()


def test_a_bill_follows_the_list_and_a_correction_changes_it(client):
    """evening-money: 6 € entry; Bernd loses four games as declarer in series 1
    (3 × 0.50 + 1.00 = 2.50); removing one deal takes 1.00 off his bill."""
    e = evening(money=CLUB)
    services.series_draw(evening=e, method="lot", seed=3)
    table = EveningTable.objects.get(series__evening=e)
    seat = table.seats.get(position=1)
    for deal in range(4):
        # Deal n: the dealer (seat n mod 4) sits out; seat 1 declares when he plays.
        declarer = 1 if deal != 1 else 2
        lose(table.sheet, declarer)
    view = accounts.money_view(e)
    line = view.line_of(seat.player_id)
    assert line.account.bill.lost_fees == D("1.50")  # three lost games as declarer
    lose(table.sheet, 1)  # deal 5: dealer seat 0, seat 1 declares and loses
    line = accounts.money_view(e).line_of(seat.player_id)
    assert line.account.bill.lost_fees == D("2.50")
    assert line.account.owes == D("8.50")
    table.sheet.refresh_from_db()
    sheet_services.hand_remove(sheet=table.sheet, number=5)
    view = accounts.money_view(e)
    assert view.line_of(seat.player_id).account.owes == D("7.50")
    # The history says so: the removed deal took a lost game and 1.00 off his bill.
    (change,) = view.changes
    assert (change.player_id, change.change) == (seat.player_id, "removed")
    assert (change.lost_before, change.lost_after) == (4, 3)
    assert (change.fee_before, change.fee_after) == (D("2.50"), D("1.50"))
    page = client.get(f"/en/e/{e.organiser_token}/money/").content.decode()
    name = seat.player.name
    assert (
        f"{name}, table 1 of series 1: a deal was taken off, 4 → 3 games lost as declarer, "
        "lost-game fee €2.50 → €1.50." in page
    )
    own = client.get(f"/en/p/{seat.player.token}/").content.decode()
    assert "a deal was taken off" in own


def test_payments_are_marked_undone_and_kept_in_the_history():
    e = evening(money=CLUB)
    anna = e.players.get(name="Anna")
    first = accounts.payment_add(evening=e, player=anna, amount="6.00", by="olga")
    line = accounts.money_view(e).line_of(anna.pk)
    assert (line.account.paid, line.account.balance) == (D("6.00"), D("0.00"))
    accounts.payment_undo(evening=e, payment=first, by="olga")
    view = accounts.money_view(e)
    assert view.line_of(anna.pk).account.paid == 0
    kept = Payment.objects.get()
    assert (kept.by, kept.undone_by) == ("olga", "olga")
    assert kept.undone_at is not None
    with pytest.raises(RuleError, match="undone already"):
        accounts.payment_undo(evening=e, payment=first)


@pytest.mark.parametrize(
    ("amount", "says"),
    [
        ("-6", "negative"),
        ("six", "amount such as"),
        ("6.001", "more decimals"),
        # A thousand written with a separator is not taken for one euro (independent
        # audit: "1,000" was paid in as 1.00).
        ("1,000", "more decimals"),
        ("1.000", "more decimals"),
        ("0", "more than 0"),
    ],
)
def test_a_bad_payment_is_refused_and_changes_nothing(amount, says):
    e = evening(money=CLUB)
    version = Evening.objects.get().version
    with pytest.raises(RuleError, match=says):
        accounts.payment_add(evening=e, player=e.players.first(), amount=amount)
    assert not Payment.objects.exists()
    assert Evening.objects.get().version == version


def test_a_payment_for_a_player_of_another_evening_is_refused():
    e, other = evening(money=CLUB), evening(money=CLUB)
    with pytest.raises(RuleError, match="not on this evening's roll"):
        accounts.payment_add(evening=e, player=other.players.first(), amount="6")
    assert not Payment.objects.exists()


def test_the_draw_waits_until_everyone_has_paid_when_the_evening_says_so():
    e = evening(3, money={**CLUB, "draw_after_paying": True})
    with pytest.raises(RuleError, match="waits until everyone has paid: Anna, Bernd, Carla"):
        services.series_draw(evening=e, method="lot", seed=1)
    for player in e.players.all():
        accounts.payment_add(evening=e, player=player, amount="6")
    assert services.series_draw(evening=e, method="lot", seed=1).number == 1


def test_the_pot_pays_a_prize_per_table_and_the_cash_box_adds_up():
    """evening-prizes: 7 players at 6 € make a pot of 42 €; two tables, two prizes 2:1."""
    e = evening(7, money=CLUB)
    services.series_draw(evening=e, method="lot", seed=3)
    _four, three = EveningTable.objects.filter(series__evening=e).order_by("number")
    a = three.seats.get(position=0).player_id
    services.table_paper_result(table=three, rows=[{"declarer": a, "value": 48}])
    view = accounts.money_view(e)
    assert view.pot.total == D("42.00")
    assert [(p.kind, p.amount) for p in view.prizes.prizes] == [("place", D(28)), ("place", D(14))]
    assert view.prizes.prizes[0].players == (a,)
    assert view.line_of(a).won == D(28)
    box = view.box
    assert box.came_in == D("42.00")
    assert box.came_in == box.prizes + box.stays


# -- The JSON API (api.md, Club evenings: money) -------------------------------------------


def _api(client, method, path, body=None, token=None, **headers):
    import json

    extra = {f"HTTP_{k.upper().replace('-', '_')}": v for k, v in headers.items()}
    if token:
        extra["HTTP_AUTHORIZATION"] = f"Bearer {token}"
    if body is None:
        return getattr(client, method)(path, **extra)
    return getattr(client, method)(path, json.dumps(body), content_type="application/json", **extra)


def test_the_api_starts_an_evening_with_money_and_keeps_payments_exact(client):
    body = {"game": "skat", "name": "Preisskat", "date": datetime.date.today().isoformat()}
    made = _api(client, "post", "/api/v1/evenings", {**body, "money": CLUB}).json()
    token, base = made["organiser_token"], f"/api/v1/evenings/{made['id']}"
    roll = _api(client, "post", base + "/players", {"names": NAMES[:4]}, token).json()["roll"]
    anna = roll[0]["player"]
    money = _api(client, "get", base + "/money", token=token).json()
    assert money["currency"] == "EUR"
    assert money["rules"]["entry_fee"] == "6.00"
    assert money["pot"] == "24.00"
    assert money["players"][0] == {
        "player": anna,
        "name": "Anna",
        "owes": "6.00",
        "paid": "0.00",
        "balance": "-6.00",
        "won": money["players"][0]["won"],
        "bill": {
            "entry_fee": "6.00",
            "series": [],
            "explanation": ["Entry fee: €6.00.", "Owed in all: €6.00."],
        },
    }
    paid = _api(
        client,
        "post",
        base + "/payments",
        {"player": anna, "amount": "6.00"},
        token,
        **{"Idempotency-Key": "p1"},
    )
    assert paid.status_code == 201
    again = _api(
        client,
        "post",
        base + "/payments",
        {"player": anna, "amount": "6.00"},
        token,
        **{"Idempotency-Key": "p1"},
    )
    assert again.json() == paid.json()
    assert Payment.objects.count() == 1
    line = paid.json()["players"][0]
    assert (line["paid"], line["balance"]) == ("6.00", "0.00")
    # The view token (the big screen) never sees who owes what, nor marks a payment.
    view = made["view_token"]
    assert _api(client, "get", base + "/money", token=view).status_code == 403
    assert "owes" not in json_text(_api(client, "get", base, token=view))
    refused = _api(client, "post", base + "/payments", {"player": anna, "amount": 6.5}, token)
    assert refused.status_code == 422
    assert "written as text" in refused.json()["errors"][0]["message"]
    assert (
        _api(
            client, "post", base + "/payments", {"player": 999999, "amount": "6"}, token
        ).status_code
        == 404
    )
    assert Payment.objects.count() == 1
    undone = _api(client, "delete", f"{base}/payments/{paid.json()['payment']}", token=token)
    assert undone.status_code == 200
    assert undone.json()["players"][0]["paid"] == "0.00"
    assert undone.json()["payments"][0]["undone_by"] == "API"


def test_the_api_refuses_money_rules_that_do_not_read_and_makes_no_evening(client):
    body = {"game": "skat", "name": "Preisskat", "date": datetime.date.today().isoformat()}
    refused = _api(client, "post", "/api/v1/evenings", {**body, "money": {"entry_fee": "-6"}})
    assert refused.status_code == 422
    assert refused.json()["errors"][0]["field"] == "money.entry_fee"
    assert not Evening.objects.exists()


def json_text(response):
    return response.content.decode()


# -- The organiser's money pages ------------------------------------------------------------


def test_the_money_page_marks_a_payment_in_one_tap_and_a_second_tap_counts_nothing(client):
    e = evening(money=CLUB)
    anna = e.players.get(name="Anna")
    url = f"/en/e/{e.organiser_token}/money/"
    page = client.get(url)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Entry fee €6.00" in text
    assert "Paid €6.00" in text
    version = Evening.objects.get().version
    tap = {"player": anna.pk, "version": version}
    paid = client.post(url + "pay", tap)
    assert paid.status_code == 302
    assert Payment.objects.get().amount == D("6.00")
    again = client.post(url + "pay", tap)
    assert again.status_code in (400, 409)
    assert Payment.objects.count() == 1
    after = client.get(url).content.decode()
    assert "Anna paid €6.00" in after
    # Undo, with the version the page showed.
    payment = Payment.objects.get()
    undo = {"version": Evening.objects.get().version}
    assert client.post(f"{url}payments/{payment.pk}/undo", undo).status_code == 302
    assert accounts.money_view(e).line_of(anna.pk).account.paid == 0
    assert "undone at" in client.get(url).content.decode()


def test_the_money_page_speaks_the_readers_language_and_money_format(client):
    e = evening(money=CLUB)
    german = client.get(f"/de/e/{e.organiser_token}/money/").content.decode()
    assert "6,00\xa0€" in german


def test_the_money_rules_are_set_from_the_page_and_bad_ones_are_refused(client):
    e = evening()
    url = f"/en/e/{e.organiser_token}/money/rules"
    assert client.get(url).status_code == 200
    form = {
        "version": Evening.objects.get().version,
        "money-keeps_money": "on",
        "money-currency": "EUR",
        "money-entry_fee": "6,00",
        "money-table_fee": "0",
        "money-tier_1_from": "1",
        "money-tier_1_amount": "0.50",
        "money-tier_2_from": "4",
        "money-tier_2_amount": "1.00",
        "money-count": "per_table",
        "money-per_table": "1",
        "money-curve": "linear",
        "money-round_to": "1",
        "money-ties": "split",
    }
    bad = client.post(url, {**form, "money-entry_fee": "-6"})
    assert bad.status_code == 400
    assert "cannot be negative" in bad.content.decode()
    assert Evening.objects.get().money == {}
    saved = client.post(url, form)
    assert saved.status_code == 302
    assert accounts.rules_of(Evening.objects.get()).entry_fee == D("6.00")


def _rules_form(**fields: str) -> dict[str, object]:
    """The money rules page's form as sent: its choices as the page starts them, the
    evening's version, and ``fields`` (without their "money-" prefix)."""
    form: dict[str, object] = {
        "version": Evening.objects.get().version,
        "money-keeps_money": "on",
        "money-currency": "EUR",
        "money-count": "per_table",
        "money-curve": "linear",
        "money-round_to": "1",
        "money-ties": "split",
    }
    form.update({f"money-{name}": value for name, value in fields.items()})
    return form


@pytest.mark.parametrize(
    ("language", "says"),
    [
        ("en", 'The entry fee is an amount such as "6.00", not 10,5,0.'),
        ("de", 'Das Startgeld ist ein Betrag wie "6,00", nicht 10,5,0.'),
        ("eo", 'La enirkotizo estas monsumo kiel "6,00", ne 10,5,0.'),
    ],
)
def test_an_amount_that_does_not_read_is_named_as_typed_with_an_example_to_follow(
    client, language, says
):
    """An audit of the German pages: the example was "6.00" beside a form that shows
    "6,00", and what was typed came back changed ("10," as "10.", so "nicht 10..")."""
    e = evening()
    url = f"/{language}/e/{e.organiser_token}/money/rules"
    form = _rules_form(entry_fee="10,5,0")
    refused = client.post(url, form)
    assert refused.status_code == 400
    assert html.escape(says, quote=True) in refused.content.decode()
    prize = client.post(url, {**form, "money-entry_fee": "6", "money-series_prize": "10,"})
    assert prize.status_code == 400
    assert "10.." not in prize.content.decode()
    assert Evening.objects.get().money == {}


def test_the_new_evening_page_starts_with_money_and_an_owner_keeps_it_for_the_circle(client):
    owner = User.objects.create_user("olga", "o@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    client.force_login(owner)
    url = f"/en/evenings/new/?circle={circle.pk}"
    form = {
        "name": "Tuesday",
        "played_on": datetime.date.today().isoformat(),
        "game": "skat",
        "series_count": 2,
        "deals_3": 36,
        "deals_4": 48,
        "deals_5": 60,
        "table_order": "fours_first",
        "money-keeps_money": "on",
        "money-currency": "EUR",
        "money-entry_fee": "5.00",
        "money-tier_1_from": "1",
        "money-tier_1_amount": "0.50",
        "money-keep_for_circle": "on",
    }
    assert client.post(url, form).status_code == 302
    circle.refresh_from_db()
    assert circle.evening_money["entry_fee"] == "5.00"
    # The next evening starts from them.
    page = client.get(url).content.decode()
    assert 'value="5.00"' in page


def _amount_values(page: str) -> dict[str, str]:
    import re

    # The text boxes (amounts, and counts such as prizes per table), as the page fills them.
    boxes = r'<input type="(?:text|number)" name="money-([a-z_0-9]+)"(?: value="([^"]*)")?'
    return dict(re.findall(boxes, page))


@pytest.mark.parametrize(("language", "mark"), [("en", "."), ("de", ","), ("eo", ",")])
def test_the_money_form_starts_from_amounts_in_the_readers_format(client, language, mark):
    """Found on a German phone: the new evening's money form offered "6.00" and "0.50",
    with the point English writes, beside prices everywhere else written "6,00 €"."""
    fresh = _amount_values(client.get(f"/{language}/evenings/new/").content.decode())
    assert fresh["entry_fee"] == f"6{mark}00"
    assert fresh["tier_1_amount"] == f"0{mark}50"
    assert fresh["series_prize"] == f"0{mark}00"
    assert fresh["per_table"] == "1"
    # An evening's own rules, kept as "6.00" and "1.00", are shown the same way, and
    # sending the form back as it came keeps them exactly.
    e = evening(money={**CLUB, "payout": {"curve": "manual", "amounts": ["12.50", "7"]}})
    url = f"/{language}/e/{e.organiser_token}/money/rules"
    kept = _amount_values(client.get(url).content.decode())
    assert kept["entry_fee"] == f"6{mark}00"
    assert kept["tier_2_amount"] == f"1{mark}00"
    assert kept["amounts"] == f"12{mark}50 7{mark}00"
    before = accounts.rules_of(Evening.objects.get())
    form = _rules_form(**kept, curve="manual")
    assert client.post(url, form).status_code == 302
    assert accounts.rules_of(Evening.objects.get()) == before


def test_a_player_follows_their_table_place_and_own_bill_on_their_link_and_no_one_elses(client):
    """evening-money: a player sees their own bill; the organiser's page gives the
    link as a QR code; the link shows no other player's bill and changes nothing."""
    e = evening(4, money=CLUB)
    anna, bernd = e.players.get(name="Anna"), e.players.get(name="Bernd")
    before = client.get(f"/en/p/{anna.token}/").content.decode()
    assert "The first series is not drawn yet" in before
    services.series_draw(evening=e, method="lot", seed=3)
    table = EveningTable.objects.get(series__evening=e)
    seat = table.seats.get(player=anna)
    accounts.payment_add(evening=e, player=bernd, amount="6.00")
    page = client.get(f"/en/p/{anna.token}/").content.decode()
    assert f"Series 1: table 1, seat {seat.position + 1}." in page
    assert "Entry fee: €6.00." in page
    assert "Still to pay" in page
    assert "Bernd" not in page  # nobody else's bill
    german = client.get(f"/de/p/{anna.token}/").content.decode()
    assert "Deine Rechnung" in german
    assert "6,00\xa0€" in german
    assert client.get("/en/p/not-a-player-link/").status_code == 404
    organiser = client.get(f"/en/e/{e.organiser_token}/players/{anna.pk}/").content.decode()
    assert f'href="http://testserver/en/p/{anna.token}/"' in organiser
    assert "<svg" in organiser


# -- A season's cash box in a circle ----------------------------------------------------------


def _circle_with_evenings(count):
    owner = User.objects.create_user("olga", "o@example.org", "pw-long-enough-1")
    member = User.objects.create_user("max", "m@example.org", "pw-long-enough-1")
    User.objects.create_user("sam", "s@example.org", "pw-long-enough-1")
    circle = circle_services.circle_create(owner=owner, name="Club", player_name="Olga")
    circle_services.circle_join(user=member, token=circle.invite_token)
    today = datetime.date.today()
    season = circle_services.season_save(
        circle=circle,
        data={
            "name": "Winter",
            "starts_on": (today - datetime.timedelta(days=60)).isoformat(),
            "ends_on": (today + datetime.timedelta(days=60)).isoformat(),
        },
    )
    for n in range(count):
        e = services.evening_create(
            name=f"=Evening {n + 1}",
            played_on=today - datetime.timedelta(days=7 * n),
            circle=circle,
            series_deals={"3": 6, "4": 8},
            money=CLUB,
        )
        services.players_add(evening=e, names=NAMES[:4])
        accounts.payment_add(evening=e, player=e.players.first(), amount="6")
    # An evening without money, and one outside the season: neither counts.
    services.evening_create(name="Free", played_on=today, circle=circle)
    services.evening_create(
        name="Old", played_on=today - datetime.timedelta(days=400), circle=circle, money=CLUB
    )
    return circle, season


def test_a_seasons_cash_box_adds_up_its_evenings_with_queries_that_do_not_grow(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for count in (2, 5):
        User.objects.all().delete()
        circle, season = _circle_with_evenings(count)
        client.login(username="max", password="pw-long-enough-1")
        url = f"/en/evenings/circles/{circle.pk}/seasons/{season.pk}/cash-box"
        with CaptureQueriesContext(connection) as captured:
            page = client.get(url)
        counts.append(len(captured))
        assert page.status_code == 200
        text = page.content.decode()
        # Four players at 6.00 each an evening; one paid.
        assert f"€{24 * count}.00" in text.replace(",", "")
        assert "Old" not in text
        assert "Free" not in text
    assert counts[0] == counts[1]


def test_the_treasurers_csv_has_a_row_per_evening_and_the_sums(client):
    circle, season = _circle_with_evenings(2)
    client.login(username="olga", password="pw-long-enough-1")
    url = f"/en/evenings/circles/{circle.pk}/seasons/{season.pk}/cash-box.csv"
    response = client.get(url)
    assert response["Content-Type"].startswith("text/csv")
    lines = response.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Date,Evening,Currency,Entry fees,")
    # Oldest first; a name typed as a formula stays a name in the spreadsheet.
    assert lines[1].endswith(",'=Evening 2,EUR,24.00,0.00,0.00,24.00,0.00,24.00,6.00,18.00")
    assert lines[2].endswith(",'=Evening 1,EUR,24.00,0.00,0.00,24.00,0.00,24.00,6.00,18.00")
    assert lines[-1] == ",Total,EUR,48.00,0.00,0.00,48.00,0.00,48.00,12.00,36.00"
    german = client.get(url.replace("/en/", "/de/")).content.decode("utf-8-sig").splitlines()
    assert german[-1] == ";Summe;EUR;48,00;0,00;0,00;48,00;0,00;48,00;12,00;36,00"
    client.logout()
    client.login(username="sam", password="pw-long-enough-1")
    assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the log-in page


def test_the_roll_says_who_has_paid_to_the_organiser_alone(client):
    """api.md: the roll's entries carry "paid"; the view token never learns it."""
    e = evening(2, money=CLUB)
    accounts.payment_add(evening=e, player=e.players.get(name="Anna"), amount="6")
    base = f"/api/v1/evenings/{e.pk}"
    organiser = _api(client, "get", base, token=e.organiser_token).json()["roll"]
    assert [(p["name"], p["paid"]) for p in organiser] == [("Anna", True), ("Bernd", False)]
    viewer = _api(client, "get", base, token=e.view_token).json()["roll"]
    assert all("paid" not in p for p in viewer)


def test_the_currency_stays_once_payments_are_marked():
    e = evening(2, money=CLUB)
    accounts.payment_add(evening=e, player=e.players.first(), amount="6")
    with pytest.raises(RuleError, match="Payments are marked in EUR"):
        accounts.rules_set(evening=e, data={**CLUB, "currency": "CHF"})
    with pytest.raises(RuleError, match="Payments are marked in EUR"):
        accounts.rules_set(evening=e, data=None)
    assert Evening.objects.get(pk=e.pk).money["currency"] == "EUR"
    accounts.rules_set(evening=e, data={**CLUB, "entry_fee": "5.00"})
    assert accounts.rules_of(Evening.objects.get(pk=e.pk)).entry_fee == D("5.00")


def test_prizes_typed_above_the_pot_are_refused_once_the_pot_is_known_and_change_nothing():
    """evening-prizes: the prizes never come to more than the pot."""
    e = evening(4, money=CLUB)
    services.series_draw(evening=e, method="lot", seed=1)
    before = Evening.objects.get(pk=e.pk).money
    typed = {**CLUB, "payout": {"curve": "manual", "amounts": ["20", "10"]}}
    with pytest.raises(RuleError, match=r"more than the pot of €24\.00"):
        accounts.rules_set(evening=e, data=typed)
    assert Evening.objects.get(pk=e.pk).money == before
    fits = {**CLUB, "payout": {"curve": "manual", "amounts": ["14", "10"]}}
    accounts.rules_set(evening=e, data=fits)
    assert accounts.money_view(Evening.objects.get(pk=e.pk)).prize_problem == ""


def test_every_player_sees_the_money_rules_on_the_ranking_and_nobodys_bill(client):
    """evening-money: the rules are shown on the evening's pages; who owes what is not."""
    e = evening(3, money=CLUB)
    accounts.payment_add(evening=e, player=e.players.first(), amount="6")
    page = client.get(f"/en/r/{e.view_token}/").content.decode()
    assert "Money: Entry fee €6.00 · €0.50 per lost game from lost game 1 on" in page
    # The sentence ends with its full stop, no space before it (an audit found
    # "… je Durchgang ." in German and Esperanto, and in English alike).
    assert "from lost game 4 on. <a" in page
    german = client.get(f"/de/r/{e.view_token}/").content.decode()
    line = german[german.index("Geld:") :].split("<a", 1)[0]
    assert line.endswith(". "), line
    assert " ." not in line
    assert "Paid" not in page
    assert "Owes" not in page
