"""Phone screens with long names: nothing spills over, everything reads and taps (issue 9).

A new user at a 390×844 phone found words running out of their buttons, a sticky header
over half the screen, switches that read backwards and vanished in dark mode, red suits
on green at 1.5:1 and a "×2" badge over the 10 of a two-deck card. These tests keep the
home page, the new-sheet forms and the sheet pages checked, in light and dark, with
names like "Anneliese Müller-Lüdenscheid":

- the page never scrolls sideways, and no button's words spill out of it
  (``scrollWidth`` against ``clientWidth``);
- every button, field and link that is not a link inside a sentence is at least
  44 × 44 px (a radio or tick box counts by the label that is tapped);
- axe-core (``vendor/axe.min.js``) finds nothing, colour contrast included;
- the states axe cannot see by itself are put on screen first: a selected red suit,
  a switch on and off, two copies of a card.

The pages have a strict Content-Security-Policy, which would refuse the injected
axe-core script, so these tests open their pages with ``bypass_csp=True``; the policy
itself is checked in ``test_csp.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import services
from tests.browser.conftest import PHONE
from tests.browser.support import SCREENSHOTS, overflow, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
LONG_NAMES = (
    "Maximilian-Alexander",
    "Anneliese Müller-Lüdenscheid",
    "Bartholomäus Oberhuber",
    "Christina-Sophie Wolkenstein",
    "Wilhelmina Featherstonehaugh",
)
TAP = 44  # px, the smallest target a thumb hits reliably
POINT_KEYS = ("ace", "jack", "off_jack", "high_joker", "low_joker", "ten", "two", "three")

# What these pages cannot fix by themselves, each with the change it needs in a file
# owned elsewhere (see the report of issue 9). Remove an entry once it is fixed.
KNOWN_ELSEWHERE: dict[str, set[str]] = {}
# Nothing is exempt from the check that words stay inside their buttons.
SPILLS_ELSEWHERE = ".nothing-is-exempt"


# -- what the tests measure on a page ------------------------------------------------------

SPILLING = """(elsewhere) => [...document.querySelectorAll(
      'button, .button, .segmented > label > span, .toggle > span, .switch, summary, a.tool,'
      + ' .card-face')]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .filter(e => !e.closest(elsewhere))
  .filter(e => e.scrollWidth > e.clientWidth + 1)
  .map(e => `${e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40)}: ${e.scrollWidth} > ${e.clientWidth}`)"""

SMALL_TARGETS = """(tap) => [...document.querySelectorAll('a[href], button, input, select, textarea, summary')]
  .filter(e => e.type !== 'hidden')
  .map(e => {
    // A radio or tick box drawn as a button is tapped through its label; a card's tick
    // boxes through the card's face.
    const hidden = (e.type === 'radio' || e.type === 'checkbox') && e.getBoundingClientRect().width < 4;
    const target = e.closest('.card-face') || (hidden ? e.closest('label') || e : e);
    return [e, target];
  })
  .filter(([e, t]) => t.getClientRects().length && getComputedStyle(t).visibility !== 'hidden')
  // A link inside a sentence is exempt (WCAG 2.5.8): it flows with the words around it
  // (an explanation line's "rule" link, a link in the footer's sentence).
  .filter(([e, t]) => !(e.tagName === 'A' && ['inline', 'inline-block'].includes(getComputedStyle(e).display)
      && [...e.parentElement.childNodes].some(n => n !== e && n.textContent.trim())))
  .map(([e, t]) => [e, t.getBoundingClientRect()])
  .filter(([e, r]) => r.width < tap - 0.5 || r.height < tap - 0.5)
  .map(([e, r]) => `${e.tagName.toLowerCase()} ${(e.name || e.textContent || e.className).trim().slice(0, 30)}: ${Math.round(r.width)}×${Math.round(r.height)}`)"""

CONTRAST = """
  (() => {
    function channels(text) {
      const parts = text.match(/[\\d.]+/g).map(Number);
      return { rgb: parts.slice(0, 3), alpha: parts.length > 3 ? parts[3] : 1 };
    }
    function luminance(rgb) {
      const [r, g, b] = rgb.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    }
    window.contrastOf = (a, b) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi + 0.05) / (lo + 0.05);
    };
    window.colourOf = text => channels(text).rgb;
    window.backgroundOf = el => {
      for (let e = el; e; e = e.parentElement) {
        const c = channels(getComputedStyle(e).backgroundColor);
        if (c.alpha > 0.99) return c.rgb;
      }
      return [255, 255, 255];
    };
  })()
"""


def spilling(page) -> list[str]:
    return page.evaluate(SPILLING, SPILLS_ELSEWHERE)


def small_targets(page) -> list[str]:
    return page.evaluate(SMALL_TARGETS, TAP)


# Dark mode changes colours and nothing else (scorekeeper.css: prefers-color-scheme sets
# the colour variables only): in dark, axe-core runs the rules about colour; every rule
# runs in light. Overflow and target sizes are measured in both.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def axe_violations(page, *, ignore: set[str] = frozenset()) -> list[str]:
    page.add_script_tag(path=str(AXE))
    only = COLOUR_RULES if getattr(page, "color_scheme", "light") == "dark" else None
    found = page.evaluate(
        """async (only) => (await axe.run(document, {
              resultTypes: ['violations'],
              ...(only ? {runOnly: {type: 'rule', values: only}} : {}),
            })).violations
            .map(v => ({id: v.id, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))""",
        only,
    )
    return [f"{v['id']}: {v['nodes']}" for v in found if v["id"] not in ignore]


def check_screen(page, name: str, *, kind: str = "page") -> None:
    """Everything this module promises, on the screen as it is now."""
    assert overflow(page) <= 0, f"{name} scrolls sideways"
    assert spilling(page) == [], f"{name}: words spill out of their buttons"
    assert small_targets(page) == [], f"{name}: targets under {TAP} px"
    assert axe_violations(page, ignore=KNOWN_ELSEWHERE.get(kind, set())) == [], name


# -- the screens, each with long names -------------------------------------------------------


def _screen(browser, scheme: str):
    # Reduced motion: a switch is measured where it comes to rest, not mid-slide.
    context = browser.new_context(
        viewport=PHONE,
        color_scheme=scheme,
        device_scale_factor=1,
        bypass_csp=True,
        reduced_motion="reduce",
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.color_scheme = scheme
    return context, page


@pytest.fixture(params=["light", "dark"])
def screen(browser, request):
    context, page = _screen(browser, request.param)
    yield page
    context.close()


@pytest.fixture
def both(browser):
    """A page loaded once and looked at in light, then in dark (``in_both``)."""
    context, page = _screen(browser, "light")
    yield page
    context.close()


def in_both(page, name: str, *, kind: str = "page", picture: str | None = None) -> None:
    """check_screen in light, then in dark on the same page (only colours change)."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.color_scheme = scheme
        check_screen(page, f"{name} ({scheme})", kind=kind)
        if picture:
            screenshot(page, f"{picture}-{scheme}")


def pitch_deal(pitcher: int, bid, holders: str) -> dict:
    points = {k: ("out" if c == "-" else c) for k, c in zip(POINT_KEYS, holders, strict=True)}
    return {"pitcher": pitcher, "bid": bid, "points": points}


SHEETS = {
    # A lost Grand: a −96 on the list and a −146 in the Seeger-Fabian table.
    "skat-3": (
        "skat",
        3,
        [{"declarer": 1, "game": "grand", "bid": 24, "matadors": {"with": 1}, "outcome": "lost"}],
    ),
    # At four the dealer sits out: three declarer buttons.
    "skat-4": ("skat", 4, []),
    "pitch": ("pitch", 4, [pitch_deal(0, 4, "AAAAABBB")]),
    # A failed moon ends the game: the game-over panel and the finished tally.
    "pitch-over": ("pitch", 4, [pitch_deal(1, "moon", "BBBBBBBA")]),
    "manipulation-3": ("manipulation", 3, [{"penalties": [0, 40, 35]}]),
    "manipulation-4": ("manipulation", 4, [{"penalties": [0, 40, 35, 95]}]),
    "manipulation-5": ("manipulation", 5, []),
}


def make_sheet(key: str):
    game, players, deals = SHEETS[key]
    sheet = services.sheet_create(game=game, players=list(LONG_NAMES[:players]))
    for deal in deals:
        services.hand_record(sheet=sheet, data=deal)
    return sheet


@pytest.mark.parametrize("key", list(SHEETS))
def test_a_sheet_with_long_names_fits_reads_and_taps(live_server, both, key):
    sheet = make_sheet(key)
    both.goto(live_server.url + sheet.get_absolute_url())
    in_both(both, key, kind="sheet", picture=f"a11y-sheet-{key}")


def test_the_read_only_sheet_fits_reads_and_taps(live_server, both):
    sheet = make_sheet("skat-3")
    both.goto(live_server.url + sheet.get_view_url())
    in_both(both, "read-only skat", kind="sheet")


@pytest.mark.parametrize("path", ["/", "/en/new/"])
def test_home_and_the_choice_of_game_fit_read_and_tap(live_server, both, path):
    both.goto(live_server.url + path)
    in_both(both, path)


@pytest.mark.parametrize(("game", "players"), [("skat", 3), ("pitch", 4), ("manipulation", 4)])
def test_the_new_sheet_form_with_long_names_fits_reads_and_taps(live_server, both, game, players):
    both.goto(live_server.url + f"/en/new/{game}/")
    for seat, name in enumerate(LONG_NAMES[:players]):
        both.locator(f"input[name=player_{seat}]").fill(name)
    in_both(both, f"new {game}", picture=f"a11y-new-{game}")


# -- states axe does not see by itself --------------------------------------------------------


def test_a_selected_red_suit_keeps_its_colour_readable(live_server, screen):
    # Skat's game buttons carry the suit; selected, the button turns accent green.
    sheet = make_sheet("skat-3")
    screen.goto(live_server.url + sheet.get_absolute_url())
    screen.evaluate(CONTRAST)
    for game in ("Diamonds", "Hearts"):
        choice = screen.locator(".game-choice label", has_text=game)
        choice.click()
        expect(choice.locator("input")).to_be_checked()
        ratio = choice.locator(".suit-red").evaluate(
            "e => contrastOf(colourOf(getComputedStyle(e).color), backgroundOf(e))"
        )
        assert ratio >= 4.5, f"{game} selected: {ratio:.2f}:1"
    check_screen(screen, "skat, a red suit selected", kind="sheet")


def test_switches_read_off_and_on_and_stand_out_in_light_and_dark(live_server, screen):
    # The Skat form's house rules are on/off switches; the first (Kontra and Re) is off.
    screen.goto(live_server.url + "/en/new/skat/")
    screen.evaluate(CONTRAST)
    switch = screen.locator(".switch").first
    measure = """s => {
        const span = s.querySelector('span'), box = s.querySelector('input');
        const track = getComputedStyle(span, '::before'), knob = getComputedStyle(span, '::after');
        const shift = new DOMMatrix(knob.transform === 'none' ? undefined : knob.transform).m41;
        return {
          on: box.checked,
          outline: contrastOf(colourOf(track.borderTopColor), backgroundOf(s)),
          knob: contrastOf(colourOf(knob.backgroundColor),
                           track.backgroundColor.match(/[\\d.]+/g).length > 3
                             ? backgroundOf(s) : colourOf(track.backgroundColor)),
          shift: shift,
        };
    }"""
    off = switch.evaluate(measure)
    switch.click()
    on = switch.evaluate(measure)
    assert (off["on"], on["on"]) == (False, True)
    # Non-text contrast (WCAG 1.4.11): the track against the panel, the knob on the track.
    for state in (off, on):
        assert state["outline"] >= 3, state
        assert state["knob"] >= 3, state
    # The knob stands left when off and moves right when on, as on every phone.
    assert off["shift"] == 0
    assert on["shift"] > 10
    check_screen(screen, "new skat, a switch on")


def test_two_copies_of_a_ten_show_their_badge_beside_the_rank_not_over_it(live_server, screen):
    # Manipulation is played with two decks: a second tap on a face means two copies.
    sheet = make_sheet("manipulation-4")
    screen.goto(live_server.url + sheet.get_absolute_url())
    screen.get_by_text("Tap the cards", exact=True).click()
    hand = screen.locator("details.hand-cards").nth(1)
    hand.locator("summary").click()
    picker = hand.locator(".card-picker")
    ten = picker.locator(".card-face[data-code='10H']")
    ten.click()
    ten.click()
    expect(ten).to_have_attribute("data-held", "2")
    badge = ten.locator(".held-badge")
    expect(badge).to_be_visible()
    expect(badge).to_have_text("×2")
    rank = ten.evaluate(
        # The rank is the first words of the face: "10", before its suit.
        """f => { const r = document.createRange(), text = f.querySelector('.card-text');
                  r.setStart(text, 0); r.setEnd(text, 1);
                  const b = r.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }"""
    )
    left, top, right, bottom = badge.evaluate(
        "b => { const r = b.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; }"
    )
    apart = right <= rank[0] or left >= rank[2] or bottom <= rank[1] or top >= rank[3]
    assert apart, f"the badge {left, top, right, bottom} covers the 10 at {rank}"
    face = ten.bounding_box()
    # ... and it stays on the face.
    assert face["x"] <= left
    assert right <= face["x"] + face["width"]
    assert face["y"] <= top
    assert bottom <= face["y"] + face["height"]
    check_screen(screen, "manipulation, cards tapped", kind="sheet")
    SCREENSHOTS.mkdir(exist_ok=True)
    picker.screenshot(path=str(SCREENSHOTS / f"a11y-picker-{screen.color_scheme}.png"))


def test_the_pitch_header_stays_small_and_names_the_partners_in_full_below(live_server, screen):
    sheet = make_sheet("pitch")
    screen.goto(live_server.url + sheet.get_absolute_url())
    totals = screen.locator(".totals")
    box = totals.bounding_box()
    # The sticky header (the bar and the totals) keeps three quarters of the screen free.
    assert box["y"] + box["height"] <= PHONE["height"] / 4, box
    # Each team's partners on one line, cut with an ellipsis.
    for names in screen.locator(".total-team").all():
        assert names.evaluate("e => getComputedStyle(e).textOverflow") == "ellipsis"
        assert names.evaluate("e => e.getClientRects().length === 1 && e.clientHeight < 30")
    # The tally under the deals names them in full.
    tally = screen.locator(".tally")
    for name in LONG_NAMES[:4]:
        expect(tally).to_contain_text(name)


def test_a_team_letter_never_runs_into_a_long_name(live_server, screen):
    # Pitch's "Who pitched?" buttons end with the team letter: it keeps clear of the name.
    sheet = make_sheet("pitch")
    screen.goto(live_server.url + sheet.get_absolute_url())
    pitchers = screen.get_by_role("group", name="Who pitched?").locator("label")
    expect(pitchers.locator("small")).to_have_text(["A", "B", "A", "B"])
    touching = screen.evaluate(
        """() => [...document.querySelectorAll('.segmented > label > span small')].filter(small => {
              const r = document.createRange();
              r.setStart(small.parentElement, 0);
              r.setEndBefore(small);
              const s = small.getBoundingClientRect();
              return [...r.getClientRects()].some(t => t.width && t.right > s.left - 2 &&
                  t.left < s.right && t.bottom > s.top && t.top < s.bottom);
           }).map(small => small.parentElement.textContent.trim())"""
    )
    assert touching == []


# -- "Who deals first?" names the players ----------------------------------------------------


def dealer_choices(page) -> list[str]:
    """The first-dealer buttons a person can see, in seat order."""
    group = page.get_by_role("group", name="Who deals first?")
    return [label.inner_text().strip() for label in group.locator("label:visible").all()]


def test_who_deals_first_offers_the_players_by_the_names_being_typed(live_server, screen):
    # Skat is kept for three or four: the fourth seat is offered only once it has a name.
    screen.goto(live_server.url + "/en/new/skat/")
    assert dealer_choices(screen) == [
        "The first player named",
        "The second player named",
        "The third player named",
    ]
    for seat, name in enumerate(LONG_NAMES[:3]):
        screen.locator(f"input[name=player_{seat}]").fill(name)
    expect(
        screen.get_by_role("group", name="Who deals first?").locator("label:visible")
    ).to_have_text(list(LONG_NAMES[:3]))
    fourth = screen.locator("input[name=player_3]")
    fourth.fill(LONG_NAMES[3])
    assert dealer_choices(screen) == list(LONG_NAMES[:4])
    screen.get_by_role("group", name="Who deals first?").get_by_text(LONG_NAMES[3]).click()
    check_screen(screen, "new skat, four names")
    # The fourth player is struck out again: nobody sits there to deal, so the first does.
    fourth.fill("")
    assert dealer_choices(screen) == list(LONG_NAMES[:3])
    expect(screen.locator("input[name=first_dealer][value='0']")).to_be_checked()
    screen.get_by_role("button", name="Start the sheet").click()
    screen.wait_for_url("**/s/*/")
    expect(screen.locator(".entry .dealer")).to_contain_text(LONG_NAMES[0])


def test_without_javascript_the_dealers_are_named_by_their_place(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/en/new/manipulation/")
        # Three to five play: the two optional seats, still empty, deal nobody.
        assert dealer_choices(page) == [
            "The first player named",
            "The second player named",
            "The third player named",
        ]
        for seat, name in enumerate(LONG_NAMES[:4]):
            page.locator(f"input[name=player_{seat}]").fill(name)
        assert dealer_choices(page) == [
            "The first player named",
            "The second player named",
            "The third player named",
            "The fourth player named",
        ]
    finally:
        context.close()
