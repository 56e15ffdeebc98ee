"""The sheet page offline, more: the outbox (static/js/offline.js), the service worker
(templates/games/sw.js), the entry form's saving (static/js/entry.js) and the views they
talk to (games/views.py), where the connection comes and goes and another phone saves too.

Ana, Ben and Cem play Manipulation at a table where the phone's connection comes and
goes; "another phone" is a second phone at the same table saving on the same sheet
(services.hand_record). Nothing a player entered is lost or counted twice: a round typed
on a sheet that changed meanwhile is held with a message, a correction saved without a
connection comes back in its form, the rounds waiting on the phone follow the player
into another language, and a reload without a connection shows the sheet as last seen.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from games import services
from games.selectors import live_hands
from tests.browser.support import expect_totals
from tests.browser.test_offline import _enter, _kept_offline, _sheet
from tests.browser.test_sheet_manipulation import _type_penalties, _went_out

pytestmark = [
    pytest.mark.browser,
    pytest.mark.service_worker,
    pytest.mark.django_db(transaction=True),
]


def _penalties(sheet) -> list[list[int]]:
    return [hand.entry["penalties"] for hand in live_hands(sheet)]


def _penalty_field(page, name: str):
    return page.locator(".penalty-field", has_text=name).locator("input")


def _shows(locator, text: str, seconds: float = 8) -> bool:
    """Whether ``locator`` comes to show ``text`` within ``seconds`` (a short failure
    message instead of the whole page's text)."""
    deadline = time.monotonic() + seconds
    while True:
        if locator.count() and text in locator.first.inner_text():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.25)


def test_a_round_saved_after_another_phone_changed_the_sheet_says_so(live_server, desktop):
    """Back online after a reload without a connection, while another phone saved round 1
    meanwhile, the player taps "Save round 1": nothing is stored twice, and the page shows
    the sheet as it is now with "This sheet changed meanwhile …" (the server's 412 answer).
    (Before, htmx never swapped a 412 answer in: Save did nothing, no message, no rounds,
    every further tap the same.)"""
    sheet = _sheet()
    desktop.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(desktop)
    desktop.context.set_offline(True)
    desktop.reload()
    # Meanwhile the other phone at the table saves round 1.
    services.hand_record(sheet=sheet, data={"penalties": [0, 35, 60]})
    desktop.context.set_offline(False)
    expect(desktop.locator("#outbox")).to_be_hidden()
    url = live_server.url + sheet.get_absolute_url()
    with desktop.expect_response(
        lambda r: r.request.method == "POST" and r.url == url, timeout=20_000
    ) as saved:
        _enter(desktop, "Ben", {"Ana": 20, "Cem": 15}, 1)
    # Nothing was stored twice: the server refused the stale form ...
    assert saved.value.status == 412
    assert _penalties(sheet) == [[0, 35, 60]]
    # ... and the player is told, with the sheet as it is now.
    assert _shows(desktop.locator("#board"), "This sheet changed meanwhile"), (
        "Save did nothing: no message, and the sheet still shows no rounds"
    )
    expect_totals(desktop, 0, 35, 60)


def test_a_round_kept_offline_is_not_added_again_after_another_phone_saved_it(live_server, desktop):
    """Round 1 is saved offline and waits on the phone while the other phone at the table
    saves the same round 1; when the connection is back the waiting round, entered as round
    1, is held with "This sheet changed meanwhile …" for the player to save anyway or
    discard. (Before, it was appended without a word as round 2, so it counted twice.)"""
    sheet = _sheet()
    desktop.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(desktop)
    desktop.context.set_offline(True)
    _enter(desktop, "Ana", {"Ben": 35, "Cem": 60}, 1)
    expect(desktop.get_by_test_id("outbox-heading")).to_have_text("Waiting to send: 1")
    # The other phone, online, saves the same round.
    services.hand_record(sheet=sheet, data={"penalties": [0, 35, 60]})
    desktop.context.set_offline(False)
    held = desktop.locator(".outbox-deal.is-refused")
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and len(live_hands(sheet)) < 2 and not held.count():
        desktop.wait_for_timeout(250)
    assert _penalties(sheet) == [[0, 35, 60]], "the round entered on both phones counts twice"
    expect(held).to_have_count(1)


@pytest.mark.parametrize("choice", ["anyway", "discard"])
def test_a_held_round_is_saved_anyway_or_discarded_and_the_next_one_follows(
    live_server, desktop, choice
):
    """Rounds 1 and 2 wait on the phone while the other phone saves round 1. Round 1 is
    held; the page shows the sheet as it is now, with the held round in the form as round
    2. "Save it anyway" stores it as round 2 and the waiting round 2 follows as round 3;
    "Discard" (the other phone's round 1 was the same) sends the waiting round 2 as round
    2. Either way the waiting round is never held for a number the held one took."""
    sheet = _sheet()
    desktop.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(desktop)
    desktop.context.set_offline(True)
    _enter(desktop, "Ana", {"Ben": 35, "Cem": 60}, 1)
    _enter(desktop, "Ben", {"Ana": 20, "Cem": 15}, 2)
    services.hand_record(sheet=sheet, data={"penalties": [0, 35, 60]})
    desktop.context.set_offline(False)
    held = desktop.locator(".outbox-deal.is-refused")
    expect(held).to_have_count(1, timeout=20_000)
    expect(held).to_contain_text("This sheet changed meanwhile")
    expect(held).to_contain_text("entered as round 1")
    # The sheet as it is now, with the held round in the form as the next one.
    expect(desktop.locator("#deal-1")).to_contain_text("Ana went out")
    expect(desktop.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    expect(_penalty_field(desktop, "Ben")).to_have_value("35")
    assert _penalties(sheet) == [[0, 35, 60]]
    desktop.locator("#outbox summary").click()
    expect(held.get_by_role("button", name="Try again")).to_be_hidden()
    if choice == "anyway":
        held.get_by_role("button", name="Save it anyway").click()
        expected = [[0, 35, 60], [0, 35, 60], [20, 0, 15]]
    else:
        desktop.once("dialog", lambda dialog: dialog.accept())
        held.get_by_role("button", name="Discard").click()
        expected = [[0, 35, 60], [20, 0, 15]]
    expect(desktop.locator("#outbox")).to_be_hidden(timeout=20_000)
    deadline = time.monotonic() + 10
    while _penalties(sheet) != expected and time.monotonic() < deadline:
        desktop.wait_for_timeout(250)
    assert _penalties(sheet) == expected
    name = f"Round {len(expected) + 1}"
    expect(desktop.get_by_role("heading", name=name, exact=True)).to_be_visible()


def test_a_correction_saved_without_a_connection_is_not_lost(live_server, desktop):
    """A correction (Ben 35 → 40) saved just as the connection is gone shows the browser's
    "No internet" page; once online, the correction page opened again holds Ben 40 (kept
    on the phone until the sheet changes). (Before, the form forgot what was typed as soon
    as Save was tapped, and the page showed 35 again: the correction was lost.)"""
    sheet = _sheet()
    services.hand_record(sheet=sheet, data={"penalties": [0, 35, 60]})
    url = live_server.url + sheet.get_absolute_url()
    desktop.goto(url)
    _kept_offline(desktop)
    correction = url + "deals/1/"
    desktop.goto(correction)
    desktop.wait_for_selector("form.entry-form.is-enhanced")
    field = _penalty_field(desktop, "Ben")
    field.fill("")
    field.press_sequentially("40")
    desktop.context.set_offline(True)
    desktop.get_by_role("button", name="Save the correction").click()
    desktop.wait_for_url(re.compile("^chrome-error://"))
    desktop.go_back()
    # The connection is back: the player opens the correction again.
    desktop.context.set_offline(False)
    desktop.goto(correction)
    desktop.wait_for_selector("form.entry-form.is-enhanced")
    desktop.wait_for_timeout(500)
    saved = _penalties(sheet)[0][1]
    in_form = _penalty_field(desktop, "Ben").input_value()
    assert saved == 40 or in_form == "40", (
        f"the correction to 40 is lost: the sheet has {saved}, the form shows {in_form}"
    )


def test_rounds_waiting_on_this_phone_still_show_after_switching_the_language(live_server, desktop):
    """Two rounds wait on the phone (the first refused, the second behind it) and a German
    player switches the sheet to Deutsch: both are still listed ("Wartet aufs Senden: 2"),
    kept per sheet whatever the page's language. (Before, they were kept under the English
    page's link: they vanished, and a round saved now would have gone before them.)"""
    sheet = _sheet()
    desktop.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(desktop)
    desktop.context.set_offline(True)
    # 12 is no penalty (cards cost 5, 10 or 15): refused once sent.
    _enter(desktop, "Ana", {"Ben": 12, "Cem": 20}, 1)
    _enter(desktop, "Ben", {"Ana": 20, "Cem": 15}, 2)
    desktop.context.set_offline(False)
    expect(desktop.locator(".outbox-deal.is-refused")).to_have_count(1, timeout=20_000)
    expect(desktop.locator(".outbox-deal")).to_have_count(2)
    desktop.locator("form.language").get_by_role("button", name="Deutsch").click()
    desktop.wait_for_url("**/de/s/**")
    desktop.wait_for_selector("form.entry-form.is-enhanced")
    assert _shows(desktop.get_by_test_id("outbox-heading"), "Wartet aufs Senden: 2"), (
        "the two waiting rounds are not listed on the German page"
    )
    expect(desktop.locator(".outbox-deal")).to_have_count(2)


def test_the_round_number_is_right_after_a_refusal_once_waiting_rounds_were_sent(
    live_server, desktop
):
    """Round 1 waited offline and was sent while round 2 was being typed; round 2 has a typo
    and is refused (422), and the form drawn again says "Round 2" / "Save round 2" above the
    sheet with its one round. (Before, the round sent from the page was counted once more
    on top of the sheet drawn afresh: the form said "Round 3" / "Save round 3".)"""
    sheet = _sheet()
    desktop.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(desktop)
    desktop.context.set_offline(True)
    _enter(desktop, "Ana", {"Ben": 35, "Cem": 60}, 1)
    _went_out(desktop, "Ben")
    _type_penalties(desktop, {"Ana": 20})
    desktop.context.set_offline(False)
    expect(desktop.locator("#outbox")).to_be_hidden(timeout=20_000)
    expect(desktop.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    _type_penalties(desktop, {"Cem": 12})
    url = live_server.url + sheet.get_absolute_url()
    with desktop.expect_response(lambda r: r.request.method == "POST" and r.url == url) as sent:
        desktop.get_by_role("button", name="Save round 2").click()
    assert sent.value.status == 422
    # The refusal is shown in place of the form (and the page is drawn again after it).
    expect(desktop.locator("#form-errors")).to_contain_text("nothing was saved")
    desktop.wait_for_timeout(500)
    assert _penalties(sheet) == [[0, 35, 60]]
    shown = (
        desktop.locator("#entry-heading").inner_text(),
        desktop.locator("#entry-save").inner_text(),
    )
    assert shown == ("Round 2", "Save round 2"), f"the sheet has 1 round; the form says {shown}"


def test_a_half_typed_round_brought_back_after_a_reload_survives_the_connection(
    live_server, desktop
):
    """Offline, round 1 waits and round 2 is half typed; after the tab reloads the page says
    "What you had entered … is back", and when the connection returns and round 1 is sent,
    the half-typed round 2 (Ana 20) is still in the form, named Round 2. (Before, the page
    loaded afresh and round 2's entries were gone: they were kept under the number of the
    form, 1, which the page after round 1 no longer had.)"""
    sheet = _sheet()
    desktop.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(desktop)
    desktop.context.set_offline(True)
    _enter(desktop, "Ana", {"Ben": 35, "Cem": 60}, 1)
    _went_out(desktop, "Ben")
    _type_penalties(desktop, {"Ana": 20})
    desktop.reload()
    expect(desktop.locator(".restored")).to_be_visible()
    expect(_penalty_field(desktop, "Ana")).to_have_value("20")
    desktop.context.set_offline(False)
    expect(desktop.locator("#outbox")).to_be_hidden(timeout=20_000)
    assert _penalties(sheet) == [[0, 35, 60]]
    # (Whether or not the page loads afresh once round 1 is sent.)
    desktop.wait_for_timeout(2000)
    desktop.wait_for_selector("form.entry-form.is-enhanced")
    expect(desktop.get_by_role("heading", name="Round 2", exact=True)).to_be_visible()
    ana = _penalty_field(desktop, "Ana").input_value()
    assert ana == "20", f"round 2's Ana 20 is gone from the form ({ana!r})"


def test_the_installed_app_opened_without_a_connection_speaks_the_players_language(
    live_server, browser
):
    """On a German phone the installed app, opened from the home screen without a
    connection (its start URL "/", which online goes to /de/), shows the offline page in
    German, the language of the pages last read. (Before, a link without a language prefix
    got the English offline page: "No connection", "Sheets on this phone", "Continue".)"""
    context = browser.new_context(
        locale="de-DE",
        service_workers="allow",
        viewport={"width": 390, "height": 844},
        reduced_motion="reduce",
    )
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.wait_for_url("**/de/")
    sheet = _sheet()
    page.goto(live_server.url + f"/de/s/{sheet.edit_token}/")
    _kept_offline(page)
    context.set_offline(True)
    # The manifest's start_url.
    page.goto(live_server.url + "/")
    heading = page.locator("h1").inner_text()
    language = page.locator("html").get_attribute("lang")
    context.close()
    assert (heading, language) == ("Keine Verbindung", "de")


def test_rounds_sent_as_the_connection_flickers_are_on_the_sheet_after_the_reload(
    live_server, desktop
):
    """The connection comes back just long enough to send the two waiting rounds and is
    gone as the page reloads: the sheet shows both, as last seen (the answer to each round
    sent is the whole sheet, kept as the copy for offline use). (Before, the copy was the
    sheet from before the rounds were sent: no rounds and nothing waiting, as if both were
    lost, and a player entered them again.)"""
    sheet = _sheet()
    url = live_server.url + sheet.get_absolute_url()
    desktop.goto(url)
    _kept_offline(desktop)
    desktop.context.set_offline(True)
    _enter(desktop, "Ana", {"Ben": 35, "Cem": 60}, 1)
    _enter(desktop, "Ben", {"Ana": 20, "Cem": 15}, 2)
    posts = []

    def gone_after_the_second(route):
        if route.request.method != "POST":
            route.continue_()
            return
        answer = route.fetch()
        posts.append(answer.status)
        if len(posts) == 2:
            desktop.context.set_offline(True)
        route.fulfill(response=answer)

    desktop.route(url, gone_after_the_second)
    with desktop.expect_event("load", timeout=20_000):
        desktop.context.set_offline(False)
    desktop.wait_for_selector("form.entry-form.is-enhanced")
    assert _penalties(sheet) == [[0, 35, 60], [20, 0, 15]]
    assert posts == [200, 200]
    waiting = desktop.locator(".outbox-deal").count()
    assert desktop.locator("#deal-2").count() == 1, (
        f"after the reload the sheet shows no rounds, and {waiting} wait on the phone"
    )
    expect_totals(desktop, 20, 35, 75)


def test_a_round_saved_just_before_the_connection_drops_is_on_the_sheet_after_a_reload(
    live_server, desktop
):
    """Round 1 is saved, the connection drops a moment later and the tab reloads: the sheet
    shows round 1, as last seen, and an empty form for round 2. (Before, the copy for offline
    use was fetched only 800 ms after the save and never again, and round 1's entries were
    never forgotten: the sheet showed no rounds and the form offered round 1 again, filled
    with it, "What you had entered … is back", so Save stored it twice.)"""
    sheet = _sheet()
    desktop.goto(live_server.url + sheet.get_absolute_url())
    _kept_offline(desktop)
    _enter(desktop, "Ana", {"Ben": 35, "Cem": 60}, 1)
    expect_totals(desktop, 0, 35, 60)
    desktop.context.set_offline(True)
    desktop.wait_for_timeout(1500)
    desktop.reload()
    desktop.wait_for_selector("form.entry-form.is-enhanced")
    assert _penalties(sheet) == [[0, 35, 60]]
    restored = desktop.locator(".restored")
    assert desktop.locator("#deal-1").count() == 1, (
        "round 1 is missing after the reload; the form says: "
        + " ".join(restored.all_inner_texts())
        + f" (Ben {_penalty_field(desktop, 'Ben').input_value()!r})"
    )
    expect_totals(desktop, 0, 35, 60)
    expect(restored).to_have_count(0)
