"""A club evening at a phone: what went wrong on a real evening, entered again.

Ali, Bea and Cleo keep a Skat list on one phone and never load the page again between
deals. Every value is worked out from the rules (ISkO 4.1: base value × levels; a lost
game counts twice; Kontra doubles; rule book, Ramsch: the most card points lose them).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import selectors, services
from games.selectors import live_hands
from tests.browser.support import SCREENSHOTS, expect_totals

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

THREE = ["Ali", "Bea", "Cleo"]


def _radio(page, name: str, value: str):
    return page.locator(f"label:has(> input[name='{name}'][value='{value}'])")


def _toggle(page, name: str):
    return page.locator(f"label.toggle:has(> input[name='{name}'])")


def _open(page, sheet) -> None:
    page.goto(page.base_url + sheet.get_absolute_url())
    page.wait_for_selector("form.entry-form.is-enhanced")


def _four_taps(page, declarer: int, game: str, matadors: str, number: int) -> None:
    """Declarer, game, matadors, Save: the bid (18) and the result (won) are defaults."""
    _radio(page, "declarer", str(declarer)).click()
    _radio(page, "game", game).click()
    _radio(page, "matadors_tap", matadors).click()
    page.get_by_role("button", name=f"Save deal {number}").click()
    expect(page.get_by_role("heading", name=f"Deal {number + 1}")).to_be_visible()


@pytest.fixture
def skat(live_server, phone):
    phone.base_url = live_server.url
    return phone


# -- 1. the bid 18 is a default of every deal, not only of the first two -----------------


def test_four_taps_enter_every_deal_of_an_evening(skat):
    sheet = services.sheet_create(game="skat", players=THREE)
    _open(skat, sheet)
    # Clubs with 1 (24), Grand with 1 (48), Spades with 2 (33), Hearts with 1 (20),
    # Diamonds with 3 (36), each won (ISkO 4.1: (matadors + 1) × base value).
    deals = [(1, "clubs", "with-1"), (2, "grand", "with-1"), (0, "spades", "with-2")]
    deals += [(1, "hearts", "with-1"), (2, "diamonds", "with-3")]
    for number, (declarer, game, matadors) in enumerate(deals, start=1):
        # The bid is chosen before anything is tapped, on every deal.
        expect(skat.locator("input[name=bid]:checked")).to_have_value("18")
        _four_taps(skat, declarer, game, matadors, number)
    expect_totals(skat, 33, 44, 84)
    assert [hand.entry["bid"] for hand in live_hands(sheet)] == [18] * 5


# -- 3. what the form hides is not sent --------------------------------------------------


def test_a_toggle_hidden_by_switching_to_null_is_not_sent(skat):
    sheet = services.sheet_create(game="skat", players=THREE)
    _open(skat, sheet)
    posted: list[str] = []
    skat.on("request", lambda r: posted.append(r.post_data or "") if r.method == "POST" else None)
    _radio(skat, "declarer", "0").click()
    _radio(skat, "game", "clubs").click()
    _toggle(skat, "hand").click()
    skat.locator("label.announce:has(> input[value=schneider])").click()
    # Null: schneider cannot be announced (ISkO: a Null game knows no schneider), and the
    # toggle is gone from the form: the deal is Null Hand, worth 35 (ISkO 5.2). Neither
    # the preview nor Save sends it from now on.
    posted.clear()
    _radio(skat, "game", "null").click()
    expect(skat.locator("label.announce").first).to_be_hidden()
    expect(skat.locator("#preview .preview-summary")).to_contain_text("+35")
    skat.get_by_role("button", name="Save deal 1").click()
    expect_totals(skat, 35, 0, 0)
    (hand,) = live_hands(sheet)
    assert hand.entry["game"] == "null"
    assert "announced" not in hand.entry
    assert len(posted) >= 2
    assert not any("announced=" in body for body in posted)
    # Back to a suit game with Hand: the toggle shows again and can be ticked anew.
    _radio(skat, "declarer", "1").click()
    _radio(skat, "game", "clubs").click()
    _toggle(skat, "hand").click()
    expect(skat.locator("label.announce").first).to_be_visible()
    expect(skat.locator("input[name=announced]").first).to_be_enabled()


def test_what_the_form_hides_at_load_is_disabled_and_not_sent_by_a_save_right_away(skat):
    # entry.js looks at the hidden parts a few controls at a time once the page is drawn
    # (short tasks for a slow phone); a Save tapped as soon as the form is ready still
    # sends none of them, and once the look is done every hidden control is disabled.
    sheet = services.sheet_create(game="skat", players=THREE)
    posted: list[str] = []
    skat.on("request", lambda r: posted.append(r.post_data or "") if r.method == "POST" else None)
    _open(skat, sheet)
    with skat.expect_response(lambda r: r.request.method == "POST"):
        skat.locator("form.entry-form").evaluate("form => form.requestSubmit()")
    assert posted
    hidden = r"(^|&)(bid_other|declarer_points|declarer_tricks|value|ramsch_[a-z_0-9]+)="
    assert not [body for body in posted if re.search(hidden, body)]
    _open(skat, sheet)
    for name in ("bid_other", "declarer_points", "declarer_tricks", "value"):
        expect(skat.locator(f"form.entry-form [name={name}]")).to_be_disabled()
    for name in ("declarer", "game", "bid", "matadors_tap", "outcome"):
        expect(skat.locator(f"form.entry-form input[name={name}]").first).to_be_enabled()
    # What shows again is enabled again, as before.
    _radio(skat, "bid", "other").click()
    expect(skat.locator("form.entry-form [name=bid_other]")).to_be_enabled()


def test_penalties_typed_then_counted_from_the_cards_are_not_sent(skat):
    from tests.browser.test_sheet_manipulation import _picker, _tap_cards

    sheet = services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"])
    _open(skat, sheet)
    posted: list[str] = []
    skat.on("request", lambda r: posted.append(r.post_data or "") if r.method == "POST" else None)
    _radio(skat, "went_out", "0").click()
    skat.locator("input[name=penalty_1]").fill("35")
    # The cards are tapped instead: the typed penalties are gone from the form, and
    # from what it sends. Ben: K♠ 7♥ = 10 + 5; Cem: A♦ = 15 (rule book, Manipulation).
    _radio(skat, "count_by", "cards").click()
    expect(skat.locator("input[name=count_by][value=cards]")).to_be_checked()
    expect(skat.locator("input[name=penalty_1]")).to_be_hidden()
    _tap_cards(_picker(skat, "Ben"), ["KS", "7H"])
    _tap_cards(_picker(skat, "Cem"), ["AD"])
    expect(skat.locator("#preview .preview-summary")).to_have_text("Ana went out; Ben +15, Cem +15")
    skat.get_by_role("button", name="Save round 1").click()
    expect_totals(skat, 0, 15, 15)
    counted = [body for body in posted if "count_by=cards" in body]
    assert counted
    assert not [body for body in counted if "penalty_" in body]


# -- 4. nothing the next deal needs is hidden --------------------------------------------

LAYOUT = """() => {
  const box = (el) => el && el.getBoundingClientRect();
  const bar = box(document.querySelector('.entry-save'));
  const banner = [...document.querySelectorAll('#entry-status > *')]
    .filter((el) => getComputedStyle(el).visibility !== 'hidden' && el.getClientRects().length)
    .map(box)[0] || null;
  const head = box(document.querySelector('.entry-head'));
  const over = (a, b) => !!a && !!b && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  let top = 0;
  document.querySelectorAll('.topbar, .totals').forEach((el) => { top = Math.max(top, box(el).bottom); });
  return {bannerOverHead: over(banner, head), bar: bar.top, top, screen: innerHeight};
}"""

UNDER_BAR = """(el, from) => {
  window.scrollTo(0, from === 'top' ? 0 : document.documentElement.scrollHeight);
  el.scrollIntoView({block: 'nearest'});
  const r = el.getBoundingClientRect();
  const bar = document.querySelector('.entry-save').getBoundingClientRect();
  let top = 0;
  document.querySelectorAll('.topbar, .totals').forEach((b) => { top = Math.max(top, b.getBoundingClientRect().bottom); });
  return {text: el.textContent.trim(), bottom: r.bottom, top: r.top, bar: bar.top, sticky: top};
}"""


def _in_the_clear(page, selector: str) -> None:
    """Each control can be brought into view, neither under the totals nor under the bar."""
    for chip in page.locator(selector).all():
        for start in ("top", "bottom"):
            where = chip.evaluate(UNDER_BAR, start)
            assert where["bottom"] <= where["bar"] + 0.5, (start, where)
            assert where["top"] >= where["sticky"] - 0.5, (start, where)


def test_after_save_the_next_deal_is_in_the_clear(skat):
    # Kontra and Re, Ramsch, and a note over deal 3: the last of a series of three.
    options = {"kontra_re": True, "all_pass": "ramsch", "series_deals": 3}
    sheet = services.sheet_create(game="skat", players=THREE, options=options)
    _open(skat, sheet)
    _four_taps(skat, 1, "clubs", "with-1", 1)
    _four_taps(skat, 2, "grand", "with-1", 2)
    # Right after Save: the confirmation lies over nothing of the next deal.
    layout = skat.evaluate(LAYOUT)
    assert not layout["bannerOverHead"], layout
    expect(skat.get_by_role("status").filter(has_text="Deal 2 saved")).to_contain_text("+48")
    expect(skat.locator(".entry .note")).to_have_text("This is the last deal of the series.")
    skat.screenshot(path=str(SCREENSHOTS / f"evening-saved-{skat.color_scheme}.png"))
    _in_the_clear(skat, ".outcome-grid label, .kontra-re label, details.exact > summary")
    _in_the_clear(skat, ".matador-count label:visible")
    _in_the_clear(skat, ".declarer-choice label, .game-choice label, .bid-chips label")


def test_a_long_refusal_takes_three_lines_of_the_bar_and_opens_in_full(skat):
    sheet = services.sheet_create(game="manipulation", players=["Ana", "Ben", "Cem"])
    _open(skat, sheet)
    _radio(skat, "went_out", "0").click()
    # Cards cost 5, 10 or 15: 12 and 13 are no penalties (rule book, Manipulation).
    skat.locator("input[name=penalty_1]").fill("12")
    skat.locator("input[name=penalty_2]").fill("13")
    skat.locator("input[name=penalty_2]").press("Enter")
    problems = skat.locator("#preview .preview-errors")
    expect(problems).to_contain_text("Ben's penalty of 12 cannot be right")
    lines = skat.evaluate(
        """() => {
          const p = document.querySelector('#preview');
          const line = parseFloat(getComputedStyle(p).lineHeight);
          return document.querySelector('#preview > details > summary').offsetHeight / line;
        }"""
    )
    assert lines <= 3.3, lines
    bar = skat.locator(".entry-save").bounding_box()
    assert bar["height"] < 90, bar
    skat.screenshot(path=str(SCREENSHOTS / f"evening-refusal-{skat.color_scheme}.png"))
    # A tap reads every problem in full, over the form.
    problems.locator("summary").click()
    full = problems.locator("ul li")
    expect(full).to_have_count(2)
    expect(full.nth(1)).to_be_visible()
    expect(full.nth(1)).to_have_text(
        "Cem's penalty of 13 cannot be right: every card costs 5, 10 or 15, so penalties"
        " are multiples of 5."
    )


# -- 2. a deal kept on the phone is checked there, and a refused one is corrected --------


FIRST = {"declarer": 1, "game": "clubs", "bid": 18, "matadors": {"with": 1}, "outcome": "won"}


def _entered(sheet) -> list[dict]:
    return [hand.entry for hand in live_hands(sheet)]


@pytest.mark.service_worker
def test_an_offline_deal_is_checked_on_the_phone_and_a_refused_one_corrected(skat):
    from tests.browser.test_offline import _kept_offline

    # A series of three deals; deal 1 is on the sheet: Bea's Clubs with 1, won, +24.
    options = {"all_pass": "ramsch", "series_deals": 3}
    sheet = services.sheet_create(game="skat", players=THREE, options=options)
    services.hand_record(
        sheet=sheet,
        data={**FIRST},
    )
    _open(skat, sheet)
    _kept_offline(skat)
    skat.context.set_offline(True)
    heading = skat.get_by_test_id("outbox-heading")
    expect(heading).to_have_text("No connection")

    # Deal 2 without its bid ("Other bid…", then "Choose the bid…"): the phone says so
    # and keeps nothing, as the server would have refused it.
    _radio(skat, "declarer", "2").click()
    _radio(skat, "game", "grand").click()
    # The preview cannot ask the server: the phone says what is still missing.
    expect(skat.locator("#preview .preview-errors")).to_contain_text("Matadors: tap")
    _radio(skat, "matadors_tap", "with-1").click()
    skat.locator(".bid-chips label.other-bid").click()
    skat.locator("select[name=bid_other]").select_option("")
    skat.get_by_role("button", name="Save deal 2").click()
    expect(skat.locator("#preview .preview-errors")).to_contain_text(
        "Bid is missing. Tap the bid that won the auction."
    )
    expect(heading).to_have_text("No connection")
    _radio(skat, "bid", "18").click()
    skat.get_by_role("button", name="Save deal 2").click()
    expect(heading).to_have_text("Waiting to send: 1")
    expect(skat.get_by_role("heading", name="Deal 3")).to_be_visible()

    # Deal 3, the last: a Ramsch whose card points add up to 130 (typed over the worked-out
    # 20): complete as far as the phone can tell, refused by the server later (rule book,
    # Ramsch: the card points add up to 120).
    _radio(skat, "mode", "passed").click()
    skat.locator("input[name=ramsch_points_0]").fill("60")
    skat.locator("input[name=ramsch_tricks_0]").fill("4")
    skat.locator("input[name=ramsch_points_1]").fill("40")
    skat.locator("input[name=ramsch_tricks_1]").fill("3")
    expect(skat.locator("input[name=ramsch_points_2]")).to_have_value("20")
    skat.locator("input[name=ramsch_points_2]").fill("30")
    skat.get_by_role("button", name="Save deal 3").click()
    expect(heading).to_have_text("Waiting to send: 2")
    # No deal 4 in a series of three: the form gives way to a line saying why.
    full = skat.locator(".entry-full")
    expect(full).to_be_visible()
    expect(skat.locator("form.entry-form")).to_be_hidden()
    expect(skat.get_by_role("heading", name="Deal 4")).to_have_count(0)
    skat.evaluate("window.scrollTo(0, 0)")
    skat.screenshot(path=str(SCREENSHOTS / f"evening-offline-full-{skat.color_scheme}.png"))
    # The outbox is one line until opened.
    outbox = skat.locator("#outbox").bounding_box()
    assert outbox["height"] < 90, outbox
    skat.reload()
    expect(heading).to_have_text("Waiting to send: 2")
    expect(full).to_be_visible()
    assert _entered(sheet) == [FIRST]

    # Back online: deal 2 is stored; deal 3 is refused and opens in the form, as it was
    # entered, with the server's reason.
    skat.context.set_offline(False)
    expect(skat.locator(".outbox-deal.is-refused")).to_have_count(1, timeout=20_000)
    expect(skat.get_by_role("heading", name="Deal 3")).to_be_visible()
    expect(skat.locator("input[name=mode][value=passed]")).to_be_checked()
    expect(skat.locator("input[name=ramsch_points_2]")).to_have_value("30")
    expect(skat.locator("#preview .preview-errors")).to_contain_text("120")
    skat.evaluate("window.scrollTo(0, 0)")
    skat.screenshot(path=str(SCREENSHOTS / f"evening-offline-mend-{skat.color_scheme}.png"))
    assert len(_entered(sheet)) == 2
    # Corrected (Cleo took 20) and saved: sent in its place, stored once.
    skat.locator("input[name=ramsch_points_2]").fill("20")
    skat.get_by_role("button", name="Save deal 3").click()
    expect(skat.get_by_role("heading", name="Series over")).to_be_visible(timeout=20_000)
    expect(skat.locator("#outbox")).to_be_hidden()
    entered = _entered(sheet)
    assert len(entered) == 3
    assert entered[1]["game"] == "grand"
    assert entered[1]["bid"] == 18
    assert entered[2]["ramsch"]["points"] == [60, 40, 20]


# -- 5. a whole evening: 36 deals on one page load -----------------------------------------

ALI, BEA, CLEO = 0, 1, 2


def _game(declarer: int, game: str, matadors: str | None = None, **more) -> dict:
    """A played deal as stored (the API's JSON): the bid 18 and "won" unless said."""
    deal = {"declarer": declarer, "game": game, "bid": more.pop("bid", 18)}
    if matadors:
        direction, count = matadors.split("-")
        deal["matadors"] = {direction: int(count)}
    deal["outcome"] = more.pop("outcome", "won")
    deal.update(more)
    return deal


def _ramsch(points: list[int], tricks: list[int]) -> dict:
    return {"passed": True, "ramsch": {"points": points, "tricks": tricks, "last_trick": None}}


# Every kind of deal of a club evening with Kontra and Ramsch: won, lost, schneider and
# schwarz either way, Null (Hand, Ouvert, Ouvert Hand), Grand Hand, schneider announced,
# overbid (the bid above the game's value: ISkO 4.5), Kontra and Re, Ramsch. Deals 20
# to 22 are entered without a connection.
EVENING = [
    _game(BEA, "clubs", "with-1"),
    _game(CLEO, "grand", "with-1"),
    _game(ALI, "spades", "with-2", outcome="lost"),
    _game(BEA, "hearts", "with-1", outcome="won_schneider"),
    _game(CLEO, "null"),
    _game(ALI, "grand", "with-2", hand=True),
    _game(BEA, "hearts", "with-1", bid=22),
    _game(CLEO, "clubs", "with-1", kontra=True),
    _ramsch([60, 40, 20], [4, 3, 3]),
    _game(ALI, "diamonds", "against-2"),
    _game(BEA, "null", hand=True, outcome="lost"),
    _game(CLEO, "spades", "with-3", outcome="lost", kontra=True, re=True),
    _game(ALI, "clubs", "with-1", outcome="lost_schneider"),
    _game(BEA, "grand", "against-1", outcome="won_schwarz"),
    _ramsch([30, 50, 40], [3, 4, 3]),
    _game(CLEO, "hearts", "with-2", hand=True, announced="schneider", outcome="won_schneider"),
    _game(ALI, "null", ouvert=True),
    _game(BEA, "diamonds", "with-1"),
    _game(CLEO, "grand", "with-1", outcome="lost", kontra=True),
    _game(ALI, "spades", "with-1"),
    _game(BEA, "clubs", "with-2", outcome="won_schneider"),
    _ramsch([20, 30, 70], [2, 3, 5]),
    _game(CLEO, "hearts", "against-3"),
    _game(ALI, "grand", "with-3", bid=30),
    _game(BEA, "null", outcome="lost"),
    _game(CLEO, "clubs", "with-4"),
    _game(ALI, "diamonds", "with-2", outcome="won_schneider", kontra=True),
    _game(BEA, "spades", "against-1", hand=True),
    _ramsch([40, 44, 36], [3, 4, 3]),
    _game(CLEO, "grand", "with-1", outcome="lost_schwarz"),
    _game(ALI, "hearts", "with-1", bid=23),
    _game(BEA, "clubs", "with-1"),
    _game(CLEO, "null", hand=True, ouvert=True),
    _game(ALI, "grand", "against-2"),
    _game(BEA, "spades", "with-2", outcome="lost"),
    _game(CLEO, "clubs", "with-1", kontra=True, re=True),
]
OFFLINE = (20, 21, 22)
OPTIONS = {"kontra_re": True, "all_pass": "ramsch"}


def _bid(page, bid: int) -> None:
    """One tap on its chip, or from the full list under "Other bid…"."""
    chip = _radio(page, "bid", str(bid))
    if chip.count():
        chip.click()
    else:
        page.locator(".bid-chips label.other-bid").click()
        page.locator("select[name=bid_other]").select_option(str(bid))


def _enter(page, number: int, deal: dict) -> None:
    """A deal the way a player taps it, then Save."""
    if deal.get("passed"):
        points, tricks = deal["ramsch"]["points"], deal["ramsch"]["tricks"]
        _radio(page, "mode", "passed").click()
        for seat in (0, 1):
            page.locator(f"input[name=ramsch_points_{seat}]").fill(str(points[seat]))
            page.locator(f"input[name=ramsch_tricks_{seat}]").fill(str(tricks[seat]))
        # The third player's are worked out (what is left of 120 and of 10).
        expect(page.locator("input[name=ramsch_points_2]")).to_have_value(str(points[2]))
    else:
        _radio(page, "declarer", str(deal["declarer"])).click()
        _radio(page, "game", deal["game"]).click()
        for switch in ("hand", "ouvert"):
            if deal.get(switch):
                _toggle(page, switch).click()
        if deal.get("announced"):
            page.locator(f"label.announce:has(> input[value={deal['announced']}])").click()
        for direction, count in deal.get("matadors", {}).items():
            _radio(page, "matadors_tap", f"{direction}-{count}").click()
        if deal["bid"] != 18:
            _bid(page, deal["bid"])
        if deal["outcome"] != "won":
            _radio(page, "outcome", deal["outcome"]).click()
        for switch in ("kontra", "re"):
            if deal.get(switch):
                _toggle(page, switch).click()
    page.get_by_role("button", name=f"Save deal {number}").click()


def _as_entered(entry: dict) -> dict:
    """What of a stored deal the evening's list says (the form adds nothing else)."""
    if entry.get("passed"):
        ramsch = entry["ramsch"]
        return _ramsch(list(ramsch["points"]), list(ramsch["tricks"]))
    return entry


def _referee(deals: list[dict]):
    """The same deals, handed straight to the rules: the state they come to."""
    sheet = services.sheet_create(game="skat", players=THREE, options=OPTIONS)
    for deal in deals:
        state = services.hand_record(sheet=sheet, data=deal).state
    return state


@pytest.mark.service_worker
def test_a_whole_skat_series_on_one_page_load(skat):
    from tests.browser.test_offline import _copy_until, _kept_offline

    sheet = services.sheet_create(game="skat", players=THREE, options=OPTIONS)
    _open(skat, sheet)
    _kept_offline(skat)
    skat.evaluate("window.sheetNotReloaded = true")
    for number, deal in enumerate(EVENING, start=1):
        if number == OFFLINE[0]:
            # The connection goes once the copy kept for offline use has the last deal
            # saved (it follows each save within a second).
            _copy_until(skat, lambda html, last=number - 1: f'id="deal-{last}"' in html)
            skat.context.set_offline(True)
        _enter(skat, number, deal)
        if number in OFFLINE:
            waiting = number - OFFLINE[0] + 1
            expect(skat.get_by_test_id("outbox-heading")).to_have_text(
                f"Waiting to send: {waiting}"
            )
        elif number < len(EVENING):
            expect(skat.get_by_role("heading", name=f"Deal {number + 1}")).to_be_visible()
        if number == OFFLINE[-1]:
            # A reload without a connection: the three deals still wait, the form is on 23.
            skat.reload()
            expect(skat.get_by_test_id("outbox-heading")).to_have_text("Waiting to send: 3")
            expect(skat.get_by_role("heading", name=f"Deal {number + 1}")).to_be_visible()
            skat.context.set_offline(False)
            # Sent in order; the sheet is shown afresh with them.
            expect(skat.locator(f"#deal-{number}")).to_be_visible(timeout=20_000)
            skat.wait_for_selector("form.entry-form.is-enhanced")
            expect(skat.locator("#outbox")).to_be_hidden()
            skat.evaluate("window.sheetNotReloaded = true")
        if number == len(EVENING) - 1:
            expect_totals(skat, *_referee(EVENING[:number]).totals)
    expect(skat.get_by_role("heading", name="Series over")).to_be_visible()
    # Only the offline deals' reload loaded the page afresh.
    assert skat.evaluate("window.sheetNotReloaded === true")
    skat.evaluate("window.scrollTo(0, 0)")
    skat.screenshot(path=str(SCREENSHOTS / f"evening-series-over-{skat.color_scheme}.png"))

    # Every deal stored once, in order, as entered; the totals are the referee's.
    hands = live_hands(sheet)
    assert [hand.number for hand in hands] == list(range(1, 37))
    assert [_as_entered(hand.entry) for hand in hands] == EVENING
    sheet.refresh_from_db()
    stored, referee = selectors.current_state(sheet), _referee(EVENING)
    assert stored.finished
    assert stored.totals == referee.totals
    assert stored.details["standings"] == referee.details["standings"]


# -- Pitch and Manipulation: a whole game on one page load ---------------------------------

POINTS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")


def _until_over(game: str, players: list[str], hands: list[dict]) -> tuple[list[dict], object]:
    """The hands played until the referee says the game is over, and the state it ends in."""
    sheet = services.sheet_create(game=game, players=players)
    for number, hand in enumerate(hands, start=1):
        state = services.hand_record(sheet=sheet, data=hand).state
        if state.finished:
            return hands[:number], state
    raise AssertionError("the game did not end")


def _pitch_hand(pitcher: int, bid, others=(), out=()) -> dict:
    """Every point card to the pitcher's team (A: seats 0 and 2) but ``others`` and ``out``."""
    own, other = ("A", "B") if pitcher % 2 == 0 else ("B", "A")
    points = dict.fromkeys(POINTS, own)
    points.update(dict.fromkeys(others, other))
    points.update(dict.fromkeys(out, "out"))
    return {"pitcher": pitcher, "bid": bid, "points": points}


PITCH = [
    _pitch_hand(0, 5, others=["ten"]),
    _pitch_hand(1, 6, others=["ace", "three"], out=["two"]),
    _pitch_hand(2, 4),
    _pitch_hand(3, 7, others=["jack", "off_jack", "high_joker", "three"]),
    _pitch_hand(0, 8, others=["low_joker"]),
    _pitch_hand(1, 5, others=["three"]),
    _pitch_hand(2, 9, others=["ace", "three"]),
    _pitch_hand(3, 4, others=["two"]),
] * 3


def test_a_whole_game_of_pitch_to_52_on_one_page_load(skat):
    players = ["Ann", "Ben", "Cat", "Dan"]
    hands, end = _until_over("pitch", players, PITCH)
    assert len(hands) > 8  # a real game, not a hand or two
    sheet = services.sheet_create(game="pitch", players=players)
    _open(skat, sheet)
    skat.evaluate("window.sheetNotReloaded = true")
    for number, hand in enumerate(hands, start=1):
        _radio(skat, "pitcher", str(hand["pitcher"])).click()
        _radio(skat, "bid", str(hand["bid"])).click()
        own = "A" if hand["pitcher"] % 2 == 0 else "B"
        # Only what differs from "the pitcher's team took it" is tapped.
        for key, team in hand["points"].items():
            if team != own:
                _radio(skat, f"point_{key}", team).click()
        skat.get_by_role("button", name=f"Save deal {number}").click()
        if number < len(hands):
            expect(skat.get_by_role("heading", name=f"Deal {number + 1}")).to_be_visible()
    expect(skat.locator("#game-over")).to_contain_text("Game over")
    assert skat.evaluate("window.sheetNotReloaded === true")
    expect_totals(skat, end.details["teams"]["A"], end.details["teams"]["B"])
    stored = live_hands(sheet)
    assert [hand.number for hand in stored] == list(range(1, len(hands) + 1))
    assert [hand.entry for hand in stored] == hands


MANIPULATION = [
    {"penalties": [0, 35, 60]},
    {"penalties": [20, 0, 15]},
    {"penalties": [45, 30, 0]},
    {"penalties": [0, 55, 25]},
    {"penalties": [10, 0, 40]},
    {"penalties": [35, 20, 0]},
] * 4


def test_a_whole_game_of_manipulation_on_one_page_load(skat):
    players = ["Ana", "Ben", "Cem"]
    rounds, end = _until_over("manipulation", players, MANIPULATION)
    assert len(rounds) > 5
    sheet = services.sheet_create(game="manipulation", players=players)
    _open(skat, sheet)
    skat.evaluate("window.sheetNotReloaded = true")
    for number, played in enumerate(rounds, start=1):
        penalties = played["penalties"]
        _radio(skat, "went_out", str(penalties.index(0))).click()
        for seat, penalty in enumerate(penalties):
            if penalty:
                skat.locator(f"input[name=penalty_{seat}]").fill(str(penalty))
        skat.get_by_role("button", name=f"Save round {number}").click()
        if number < len(rounds):
            expect(skat.get_by_role("heading", name=f"Round {number + 1}")).to_be_visible()
    expect(skat.locator("#game-over")).to_contain_text("Game over")
    assert skat.evaluate("window.sheetNotReloaded === true")
    expect_totals(skat, *end.totals)
    stored = live_hands(sheet)
    assert [hand.number for hand in stored] == list(range(1, len(rounds) + 1))
    assert [hand.entry["penalties"] for hand in stored] == [r["penalties"] for r in rounds]
