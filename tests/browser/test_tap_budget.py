"""Entering a deal is as fast as writing a number (issue 9), counted on a 390×844 phone.

A tap is a click on a control: a chip, a toggle, a field to type in, Save. Typing
digits into the field that has the focus is not a tap; defaults taken as they are
cost nothing. Every tap below goes through ``Taps``, which also checks that the
control was on screen without scrolling: below the sticky totals, above the bottom
of the screen, not covered by the Save bar, and at least 44 px each way. The page
must not scroll while a deal is entered.

Every total is worked out by hand from the rules (ISkO for Skat; the rule book's
sections for Ramsch, Pitch and Manipulation), and the preview shows it before Save.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.support import SCREENSHOTS, expect_totals, overflow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ON_SCREEN = """(el) => {
  const r = el.getBoundingClientRect();
  let top = 0;
  for (const bar of document.querySelectorAll('.topbar, .totals')) {
    const style = getComputedStyle(bar);
    if (style.position === 'sticky' || style.position === 'fixed') {
      top = Math.max(top, bar.getBoundingClientRect().bottom);
    }
  }
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {top: r.top, bottom: r.bottom, width: r.width, height: r.height, sticky: top,
          screen: window.innerHeight, uncovered: !!hit && (el.contains(hit) || hit.contains(el))};
}"""


class Taps:
    """Counts taps, and refuses one on a control the player would have to scroll to."""

    def __init__(self, page) -> None:
        self.page = page
        self.count = 0
        self.scroll = page.evaluate("window.scrollY")

    def __call__(self, locator) -> None:
        where = locator.evaluate(ON_SCREEN)
        assert where["top"] >= where["sticky"] - 1, f"under the sticky totals: {where}"
        assert where["bottom"] <= where["screen"] + 1, f"below the screen: {where}"
        assert where["uncovered"], f"covered by something else: {where}"
        assert where["height"] >= 43.5, f"less than 44 px tall: {where}"
        assert where["width"] >= 43.5, f"less than 44 px wide: {where}"
        locator.click()
        self.count += 1

    def type(self, text: str) -> None:
        """Digits into the field that has the focus: not a tap."""
        self.page.keyboard.type(text)

    def still(self) -> None:
        """The page did not scroll while the deal was entered."""
        assert self.page.evaluate("window.scrollY") == self.scroll


def _sheet(live_server, page, game: str, players: list[str], **options):
    sheet = services.sheet_create(game=game, players=players, options=options or None)
    page.goto(live_server.url + sheet.get_absolute_url())
    page.wait_for_selector("form.entry-form.is-enhanced")
    page.wait_for_function("window.htmx !== undefined")
    return sheet


def _chip(page, group: str, text: str):
    return (
        page.get_by_role("group", name=group, exact=True)
        .locator("label")
        .filter(has_text=re.compile(rf"^\s*{re.escape(text)}\b"))
    )


def _radio(page, name: str, value: str):
    return page.locator(f"label:has(> input[name='{name}'][value='{value}'])")


def _save(page, word: str = "deal"):
    return page.get_by_role("button", name=re.compile(rf"^Save {word} \d+$"))


def _picture(page, name: str) -> None:
    """What the phone shows right now, the way a player sees it (not the whole page)."""
    SCREENSHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}-{page.color_scheme}.png"))


def _questions_fit(page) -> None:
    """Every question of the deal and Save are on the one screen, under the totals."""
    assert overflow(page) <= 0
    fit = page.evaluate(
        """() => {
          const form = document.querySelector('form.entry-form');
          const save = form.querySelector('.entry-save').getBoundingClientRect();
          const hidden = [...form.querySelectorAll('label, input:not([type=hidden]), select')]
            .filter(e => e.offsetParent !== null && e.closest('details:not([open])') === null)
            .filter(e => !e.closest('.entry-save'))
            .filter(e => e.getBoundingClientRect().bottom > save.top + 1)
            .map(e => e.textContent.trim() || e.name);
          return {hidden, saveBottom: save.bottom, screen: window.innerHeight};
        }"""
    )
    assert fit["hidden"] == [], fit
    assert fit["saveBottom"] <= fit["screen"] + 1, fit


# -- Skat --------------------------------------------------------------------------------


def test_a_won_suit_game_and_a_grand_take_four_taps_each(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"], kontra_re=True)
    _questions_fit(phone)
    _picture(phone, "entry-skat-fresh")
    taps = Taps(phone)
    # Deal 1: Bea plays Spades with 2; the bid (18) and "won" are the defaults. Value:
    # (2 matadors + 1 for the game) × 11 = 33 (ISkO 4.1: base value times levels).
    taps(_chip(phone, "Declarer", "Bea"))
    taps(_radio(phone, "game", "spades"))
    taps(_radio(phone, "matadors_tap", "with-2"))
    expect(phone.locator("#preview .preview-summary")).to_have_text("Bea: Spades with 2, won, +33")
    _questions_fit(phone)
    _picture(phone, "entry-skat-ready")
    taps.still()
    taps(_save(phone))
    assert taps.count == 4
    expect_totals(phone, 0, 33, 0)
    # A short-lived confirmation says what was saved, and the next deal is ready.
    expect(phone.get_by_role("status").filter(has_text="Deal 1 saved")).to_contain_text("+33")
    expect(phone.get_by_role("heading", name="Deal 2")).to_be_visible()
    _picture(phone, "entry-skat-saved")
    _questions_fit(phone)

    # Deal 2: Cleo's Grand with 1, won: (1 + 1) × 24 = 48 (ISkO 4.1; Grand's base is 24).
    taps = Taps(phone)
    taps(_chip(phone, "Declarer", "Cleo"))
    taps(_radio(phone, "game", "grand"))
    taps(_radio(phone, "matadors_tap", "with-1"))
    expect(phone.locator("#preview .preview-summary")).to_have_text("Cleo: Grand with 1, won, +48")
    taps.still()
    taps(_save(phone))
    assert taps.count == 4
    expect_totals(phone, 0, 33, 48)


def test_a_game_by_value_takes_three_taps_and_two_once_the_list_is_kept_so(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"])
    taps = Taps(phone)
    # A paper list writes only the value: Bea's 48. The number has the focus at once.
    taps(_chip(phone, "Declarer", "Bea"))
    taps(phone.locator("label.toggle", has_text="By value"))
    expect(phone.locator("input[name=value]")).to_be_focused()
    taps.type("48")
    # 48 is Grand with or against 1 (2 × 24) or Clubs with 4 levels (4 × 12): the ISkO
    # game value rules (rule book: Game value); a plus value is a won game.
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Bea: by value (Grand with or against 1 or Clubs ×4), won, +48"
    )
    _questions_fit(phone)
    _picture(phone, "entry-skat-by-value")
    taps.still()
    taps(_save(phone))
    assert taps.count == 3
    expect_totals(phone, 0, 48, 0)

    # The next game is entered by value too: the declarer, the number, Save.
    taps = Taps(phone)
    expect(phone.locator("input[name=by_value]")).to_be_checked()
    taps(_chip(phone, "Declarer", "Cleo"))
    expect(phone.locator("input[name=value]")).to_be_focused()
    # A minus value is a lost game, counted double: −96 is a game worth 48 (rule book:
    # Score on the list).
    taps.type("-96")
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Cleo: by value (Grand with or against 1 or Clubs ×4), lost, −96"
    )
    taps.still()
    taps(_save(phone))
    assert taps.count == 2
    expect_totals(phone, 0, 48, -96)


def test_a_value_no_game_has_is_refused_with_the_nearest_games(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"])
    _chip(phone, "Declarer", "Bea").click()
    phone.locator("label.toggle", has_text="By value").click()
    phone.keyboard.type("47")
    # No game is worth 47 (rule book: Legal bids lists every value a game can have).
    expect(phone.locator("#preview .preview-errors")).to_contain_text(
        "No Skat game is worth 47; the nearest are 46 (Null Ouvert) and 48"
    )
    _picture(phone, "entry-skat-by-value-refused")
    _save(phone).click()
    expect(phone.locator("#form-errors")).to_contain_text("No Skat game is worth 47")
    expect_totals(phone, 0, 0, 0)


def test_a_sixty_all_takes_five_taps_on_a_sheet_with_a_bock_round_after_it(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"], bock={"sixty_all": True})
    _questions_fit(phone)
    taps = Taps(phone)
    taps(_chip(phone, "Declarer", "Bea"))
    taps(_radio(phone, "game", "spades"))
    taps(_radio(phone, "matadors_tap", "with-2"))
    # 60:60 is lost (the declarer needs 61; rule book: Winning and losing): (2 + 1) × 11
    # = 33, lost double, −66; the card points say it, and 60 needs no tricks (both sides
    # took some, so it is not schwarz).
    taps(_radio(phone, "outcome", "sixty_all"))
    expect(phone.locator("#preview .preview-summary")).to_have_text("Bea: Spades with 2, lost, −66")
    _questions_fit(phone)
    _picture(phone, "entry-skat-sixty")
    taps.still()
    taps(_save(phone))
    assert taps.count == 5
    expect_totals(phone, 0, -66, 0)
    # House rule: a game ending 60:60 starts a Bock round.
    expect(phone.locator(".entry .note").first).to_contain_text("Bock")


def test_a_thrown_in_deal_takes_two_taps(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"])
    taps = Taps(phone)
    # When nobody bids at all the cards are thrown in and the deal scores nothing
    # (rule book: Bidding).
    taps(_radio(phone, "mode", "passed"))
    expect(phone.locator("#preview .preview-summary")).to_have_text("Thrown in")
    taps.still()
    taps(_save(phone))
    assert taps.count == 2
    expect(phone.get_by_role("heading", name="Deal 2")).to_be_visible()
    expect(phone.locator(".deal")).to_have_count(1)
    expect_totals(phone, 0, 0, 0)


def test_a_ramsch_takes_five_taps_the_last_player_worked_out(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"], all_pass="ramsch")
    taps = Taps(phone)
    taps(_radio(phone, "mode", "passed"))
    # The first field has the focus at once: Ali's card points are typed, not tapped.
    expect(phone.locator("input[name=ramsch_points_0]")).to_be_focused()
    taps.type("30")
    taps(phone.locator("input[name=ramsch_tricks_0]"))
    taps.type("3")
    taps(phone.locator("input[name=ramsch_points_1]"))
    taps.type("50")
    taps(phone.locator("input[name=ramsch_tricks_1]"))
    taps.type("4")
    # Cleo's are what is left: 120 − 30 − 50 = 40 card points, 10 − 3 − 4 = 3 tricks.
    expect(phone.locator("input[name=ramsch_points_2]")).to_have_value("40")
    expect(phone.locator("input[name=ramsch_tricks_2]")).to_have_value("3")
    expect(phone.locator(".ramsch-cell.is-derived")).to_have_count(2)
    # Rule book, Ramsch: whoever took the most card points loses them: Bea −50. The last
    # trick settles nothing here (no tie, and this sheet's tied players all lose), so it
    # is not asked for.
    expect(phone.locator("input[name=ramsch_last_trick]")).to_have_count(0)
    expect(phone.locator("#preview .preview-summary")).to_have_text("Ramsch: Bea −50")
    _questions_fit(phone)
    _picture(phone, "entry-skat-ramsch")
    taps.still()
    taps(_save(phone))
    assert taps.count == 5
    expect_totals(phone, 0, -50, 0)


def test_a_ramsch_asks_for_the_last_trick_only_for_a_tie_it_settles(live_server, phone):
    _sheet(
        live_server,
        phone,
        "skat",
        ["Ali", "Bea", "Cleo"],
        all_pass="ramsch",
        ramsch_tie="last_trick_loses",
    )
    taps = Taps(phone)
    taps(_radio(phone, "mode", "passed"))
    taps.type("50")
    taps(phone.locator("input[name=ramsch_tricks_0]"))
    taps.type("4")
    taps(phone.locator("input[name=ramsch_points_1]"))
    taps.type("50")
    taps(phone.locator("input[name=ramsch_tricks_1]"))
    taps.type("4")
    # Ali and Bea tie at 50: by this sheet's rule the one who took the last trick loses
    # (rule book, Ramsch), so the referee asks who that was.
    expect(phone.locator("#preview .preview-errors")).to_contain_text("say who took the last trick")
    taps(_radio(phone, "ramsch_last_trick", "1"))
    expect(phone.locator("#preview .preview-summary")).to_have_text("Ramsch: Bea −50")
    taps.still()
    taps(_save(phone))
    assert taps.count == 6
    expect_totals(phone, 0, -50, 0)


def test_a_worked_out_ramsch_number_can_be_typed_over(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"], all_pass="ramsch")
    _radio(phone, "mode", "passed").click()
    phone.keyboard.type("30")
    phone.locator("input[name=ramsch_points_1]").click()
    phone.keyboard.type("50")
    cleo = phone.locator("input[name=ramsch_points_2]")
    expect(cleo).to_have_value("40")
    # The player counted differently: what is typed counts, and the sum is then checked
    # (120 card points in a deal, the skat included: rule book, Ramsch).
    cleo.fill("")
    cleo.press_sequentially("39")
    expect(phone.locator(".ramsch-cell.is-derived")).to_have_count(0)
    phone.locator("input[name=ramsch_tricks_0]").fill("3")
    phone.locator("input[name=ramsch_tricks_1]").fill("4")
    phone.locator("input[name=ramsch_tricks_2]").fill("3")
    expect(phone.locator("#preview .preview-errors")).to_contain_text(
        "The card points add up to 119, but a deal has 120"
    )


def test_the_bid_is_one_tap_among_the_bids_that_matter(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"])
    _chip(phone, "Declarer", "Bea").click()
    _radio(phone, "game", "spades").click()
    _radio(phone, "matadors_tap", "with-2").click()
    # Spades with 2 is worth 33: that first, then the next multiple of 11 and the low bids.
    chips = phone.locator(".bid-chips label:not(.other-bid)")
    expect(chips).to_have_text(["33, the game’s value", "18", "20", "22", "23", "44"])
    expect(phone.locator(".bid-chips .is-value")).to_have_text("33, the game’s value")
    expect(phone.get_by_role("group", name=re.compile("^Bid"))).to_contain_text("worth 33")
    # A bid of 44 the game does not reach is overbid: lost at the next multiple of 11
    # that reaches the bid, 4 × 11 = 44, and a lost game counts double: −88 (ISkO 5.4.2,
    # ISkO 5.3; rule book: Overbidding).
    taps = Taps(phone)
    taps(_radio(phone, "bid", "44"))
    assert taps.count == 1
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Bea: Spades with 2, lost (overbid), −88"
    )
    # Every legal bid stays one list away.
    _radio(phone, "bid", "other").click()
    phone.locator("select[name=bid_other]").select_option("27")
    expect(phone.locator("#preview .preview-summary")).to_have_text("Bea: Spades with 2, won, +33")
    # The chips follow the game: Grand (Grand's value is its own), and 27 stays offered.
    _radio(phone, "game", "grand").click()
    expect(phone.locator(".bid-chips .is-value")).to_have_text("72, the game’s value")


def test_ouvert_says_hand_for_a_suit_or_grand_game(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"])
    _chip(phone, "Declarer", "Ali").click()
    _radio(phone, "game", "clubs").click()
    phone.locator("label.toggle", has_text="Ouvert").click()
    # A suit or grand game can be open only as a hand game (rule book: Ouvert): Hand is
    # ticked with it.
    expect(phone.locator("input[name=hand]")).to_be_checked()
    _radio(phone, "matadors_tap", "with-1").click()
    # It is won only if the declarer takes every trick: the result offered is schwarz.
    expect(_radio(phone, "outcome", "won_schwarz").locator("input")).to_be_checked()
    # Levels: with 1, game, hand, schneider, schneider announced, schwarz, schwarz
    # announced, ouvert = 8; 8 × 12 = 96 (rule book: Ouvert counts as schwarz announced,
    # plus one level for ouvert; ISkO 4.1: base value times levels).
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Ali: Clubs Ouvert with 1, won schwarz, +96"
    )
    # Null Ouvert is different (rule book: Null): it may be played after picking up the
    # skat, so Hand stays as it was.
    phone.locator("label.toggle", has_text="Hand").click()
    _radio(phone, "game", "null").click()
    phone.locator("label.toggle", has_text="Ouvert").click()
    expect(phone.locator("input[name=hand]")).not_to_be_checked()


# -- Pitch and Manipulation --------------------------------------------------------------


def test_a_pitch_hand_takes_five_taps(live_server, phone):
    _sheet(live_server, phone, "pitch", ["Ann", "Ben", "Cat", "Dan"])
    _questions_fit(phone)
    taps = Taps(phone)
    taps(_chip(phone, "Who pitched?", "Ann"))
    taps(_chip(phone, "Bid", "5"))
    # Everything went to Ann's team A but the ten (team B) and the low joker (not dealt).
    taps(phone.get_by_role("radiogroup", name="Ten").locator("label", has_text="B"))
    taps(phone.get_by_role("radiogroup", name="Low joker").locator("label", has_text="Out"))
    # A took ace, jack, off-jack, high joker, two and three: 1+1+1+1+1+3 = 8 ≥ 5, made,
    # and scores what it took (rule book, Making the bid); B scores its ten: 1.
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Ann bid 5 for team A: made, A +8, B +1"
    )
    _questions_fit(phone)
    _picture(phone, "entry-pitch-ready")
    taps.still()
    taps(_save(phone))
    assert taps.count == 5
    expect_totals(phone, 8, 1)


def test_a_pitch_hand_the_other_team_took_takes_five_taps(live_server, phone):
    _sheet(live_server, phone, "pitch", ["Ann", "Ben", "Cat", "Dan"])
    _questions_fit(phone)
    taps = Taps(phone)
    taps(_chip(phone, "Who pitched?", "Ann"))
    taps(_chip(phone, "Bid", "4"))
    # Ann's team A took only the three; everything else went to team B: one tap says so.
    taps(phone.locator("label.rest-other"))
    taps(phone.get_by_role("radiogroup", name="Three").locator("label", has_text="A"))
    # A took 3 < 4: set, and loses its bid; B scores what it took, 1 each for ace, jack,
    # off-jack, both jokers, ten and two: 7 (rule book, Making the bid).
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Ann bid 4 for team A: set, A −4, B +7"
    )
    _questions_fit(phone)
    _picture(phone, "entry-pitch-other-team")
    taps.still()
    taps(_save(phone))
    assert taps.count == 5
    expect_totals(phone, -4, 7)


def test_a_manipulation_round_takes_a_tap_per_player_and_save(live_server, phone):
    _sheet(live_server, phone, "manipulation", ["Ana", "Ben", "Cem"])
    taps = Taps(phone)
    taps(_chip(phone, "Who went out?", "Ana"))
    # The next penalty to type has the focus at once.
    expect(phone.locator("input[name=penalty_1]")).to_be_focused()
    taps.type("35")
    taps(phone.locator("input[name=penalty_2]"))
    taps.type("60")
    # Ana went out and scores 0; the others score what they hold (rule book, Penalties).
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Ana went out; Ben +35, Cem +60"
    )
    _questions_fit(phone)
    _picture(phone, "entry-manipulation-ready")
    taps.still()
    taps(_save(phone, "round"))
    assert taps.count == 3  # at most one per player (3) and Save
    expect_totals(phone, 0, 35, 60)


def test_a_forgotten_penalty_is_named_by_the_players_name_beside_the_field(live_server, phone):
    _sheet(live_server, phone, "manipulation", ["Ana", "Ben", "Cem"])
    _chip(phone, "Who went out?", "Ana").click()
    phone.keyboard.type("35")
    _save(phone, "round").click()
    message = "Type Cem’s penalty: the points of the cards left in the hand."
    expect(phone.locator("#form-errors")).to_contain_text(message)
    field_error = phone.locator(".penalty-field[data-seat='2'] + .field-error")
    expect(field_error).to_have_text(message)
    expect(phone.locator("#board")).not_to_contain_text("seat")
    expect(phone.locator("#board")).not_to_contain_text("null")
    expect_totals(phone, 0, 0, 0)
    _picture(phone, "entry-manipulation-error")


# -- The rule book in place, and a reload --------------------------------------------------


def test_a_rule_link_in_the_preview_opens_over_the_form(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"])
    url = phone.url
    _chip(phone, "Declarer", "Bea").click()
    _radio(phone, "game", "spades").click()
    _radio(phone, "matadors_tap", "with-2").click()
    expect(phone.locator("#preview .preview-summary")).to_have_text("Bea: Spades with 2, won, +33")
    phone.locator("#preview .preview-why").click()
    phone.locator('#preview a.rule-link[href="/en/rules/skat/#skat-game-value"]').click()
    dialog = phone.locator("dialog.rule-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#skat-game-value h2")).to_contain_text("Game value")
    assert phone.url == url
    _picture(phone, "entry-rule-dialog")
    # A link inside the rule opens its section in place too.
    dialog.locator('.rule-dialog-body a[href="/en/rules/skat/#skat-levels"]').first.click()
    expect(dialog.locator("#skat-levels h3")).to_contain_text("Levels")
    expect(dialog.locator("#skat-game-value")).to_have_count(0)
    dialog.get_by_role("button", name="Back to the deal").click()
    expect(dialog).to_be_hidden()
    assert phone.url == url
    expect(_radio(phone, "game", "spades").locator("input")).to_be_checked()
    expect(phone.locator("#preview .preview-summary")).to_have_text("Bea: Spades with 2, won, +33")


def test_a_half_entered_deal_survives_a_reload_and_is_forgotten_once_saved(live_server, phone):
    _sheet(live_server, phone, "skat", ["Ali", "Bea", "Cleo"])
    _chip(phone, "Declarer", "Bea").click()
    _radio(phone, "game", "spades").click()
    _radio(phone, "matadors_tap", "with-2").click()
    _radio(phone, "bid", "44").click()
    phone.reload()
    phone.wait_for_selector("form.entry-form.is-enhanced")
    expect(phone.locator(".entry-form .restored")).to_be_visible()
    for name, value in (("declarer", "1"), ("game", "spades"), ("matadors_tap", "with-2")):
        expect(phone.locator(f"input[name={name}][value='{value}']")).to_be_checked()
    # The bid chips follow the restored game, and the bid chosen is among them.
    expect(phone.locator("input[name=bid][value='44']")).to_be_checked()
    expect(phone.locator("#preview .preview-summary")).to_have_text(
        "Bea: Spades with 2, lost (overbid), −88"
    )
    _save(phone).click()
    expect_totals(phone, 0, -88, 0)
    phone.reload()
    phone.wait_for_selector("form.entry-form.is-enhanced")
    expect(phone.get_by_role("heading", name="Deal 2")).to_be_visible()
    expect(phone.locator(".entry-form .restored")).to_have_count(0)
    expect(phone.locator("input[name=declarer]:checked")).to_have_count(0)


def test_without_javascript_the_form_still_enters_a_deal(live_server, browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, java_script_enabled=False, device_scale_factor=1
    )
    try:
        page = context.new_page()
        sheet = services.sheet_create(game="pitch", players=["Ann", "Ben", "Cat", "Dan"])
        page.goto(live_server.url + sheet.get_absolute_url())
        _chip(page, "Who pitched?", "Ann").click()
        _chip(page, "Bid", "5").click()
        page.get_by_role("radiogroup", name="Ten").locator("label", has_text="B").click()
        page.get_by_role("radiogroup", name="Low joker").locator("label", has_text="Out").click()
        _save(page).click()
        # Cards left unmarked went to the pitcher's team: A 8, B 1 as above.
        expect_totals(page, 8, 1)
        skat = services.sheet_create(game="skat", players=["Ali", "Bea", "Cleo"])
        page.goto(live_server.url + skat.get_absolute_url())
        # Without a script a name cannot leave "Everyone passed": the way back shows.
        _radio(page, "mode", "passed").click()
        expect(page.locator(".back-to-game")).to_be_visible()
        expect(_chip(page, "Declarer", "Bea")).to_be_hidden()
        page.locator(".back-to-game label").click()
        _chip(page, "Declarer", "Bea").click()
        _radio(page, "game", "clubs").click()
        _radio(page, "matadors_tap", "with-1").click()
        page.locator("label.toggle", has_text="Ouvert").click()
        _radio(page, "outcome", "won_schwarz").click()
        _save(page).click()
        # Ouvert posted without Hand is read as Clubs Ouvert (a hand game, rule book:
        # Ouvert), won schwarz: 8 levels × 12 = 96.
        expect_totals(page, 0, 96, 0)
    finally:
        context.close()
