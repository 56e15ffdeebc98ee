"""``manage.py demo``: fill an empty database with a realistic circle to look around in.

The circle "Skatclub Herz Dame" has seven players (one a guest, one shown by initials
outside the circle), an owner account and a member account, a finished season and a
current one that runs today. Every deal is random but legal: it is dealt from a
shuffled deck, scored by the referee and stored through ``games.services.hand_record``
exactly as a phone at the table would send it, so the sheets, their explanations and
the standings are the app's own. ``--seed`` makes the circle reproducible (the
passwords are always new).

The deal generators (:func:`skat_deal`, :func:`pitch_deal`, :func:`manipulation_deal`)
take a ``random.Random`` and the sheet's state and need no database; the standings
benchmark builds its stats from them too.
"""

from __future__ import annotations

import datetime
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from circles import services as circle_services
from circles.models import Circle, CircleSheet, Membership, Player, Season
from games import selectors as sheet_selectors
from games import services as sheet_services
from games.models import Sheet
from games.rules.cards import MANIPULATION_DECK, SKAT_DECK, Card
from games.rules.errors import RuleError
from games.rules.manipulation import penalty_of
from games.rules.pitch import MOON, POINT_CARDS
from games.rules.sheet import NextDeal, SheetState
from games.rules.skat import BASE_VALUES, BIDS, CARD_POINTS, NULL_VALUES, count_matadors

# -- what the demo holds ------------------------------------------------------------------

CIRCLE_NAME = "Skatclub Herz Dame"
# (name, account, guest, shown outside the circle as); the first is the owner's player.
PLAYERS: tuple[tuple[str, str | None, bool, str], ...] = (
    ("Anke Brünig", "demo", False, Player.FULL),
    ("Jürgen Wolf", "juergen", False, Player.FIRST),
    ("Heike Sommer", None, False, Player.FULL),
    ("Murat Yılmaz", None, False, Player.FULL),
    ("Katarzyna Nowak", None, False, Player.INITIALS),
    ("Dieter Kowalski", None, False, Player.FULL),
    ("Sven Lindqvist", None, True, Player.FULL),
)
# How likely each player is to come on an evening (the guest now and then).
ATTENDANCE = (0.95, 0.9, 0.85, 0.8, 0.8, 0.75, 0.3)

DEFAULT_SEED = 1848
DEFAULT_SKAT_SERIES = 12  # in the current season; the issue asks for at least 10
DEFAULT_GAMES = 10  # Pitch games and Manipulation games each, current season
DEFAULT_PREVIOUS_SERIES = 6  # Skat series of the previous season (and half as many others)
SERIES_DEALS = 36
DEFAULT_BASE_URL = "http://127.0.0.1:8000"

SEASON_WEEKS_BEHIND = 10  # the current season started ten weeks ago …
SEASON_WEEKS_AHEAD = 6  # … and ends in six
PREVIOUS_SEASON_WEEKS = 16
CLUB_NIGHT = 4  # Friday
CURRENT_RULES = {"rank_by": "total", "drop_worst": 1, "min_series": 3}
PREVIOUS_RULES = {"rank_by": "average", "min_series": 2}

# Open sheets tonight: how far each has come.
OPEN_SKAT_DEALS = 14
OPEN_PITCH_DEALS = 5
OPEN_MANIPULATION_ROUNDS = 2
PRACTICE_DEALS = 12
MINUTES_A_DEAL = {"skat": 3, "pitch": 4, "manipulation": 9}
# A runaway game (scores wandering below zero) is stopped long before this.
LONGEST_GAME = 200
ATTEMPTS = 50


# -- Skat ---------------------------------------------------------------------------------

SKAT_CARDS: tuple[Card, ...] = SKAT_DECK.cards
JACKS = frozenset(c for c in SKAT_CARDS if c.rank == "J")
SUITS = {"clubs": "C", "spades": "S", "hearts": "H", "diamonds": "D"}
# For card points and tricks that fit together: the declarer's tricks and the skat hold
# 3 × tricks + 2 cards, worth at least the lowest and at most the highest that many.
_SORTED_POINTS = sorted(CARD_POINTS[c.rank] for c in SKAT_CARDS)


def _points_range(tricks: int) -> tuple[int, int]:
    held = 3 * tricks + 2
    return sum(_SORTED_POINTS[:held]), sum(_SORTED_POINTS[-held:])


def _points(cards: Sequence[Card]) -> int:
    return sum(CARD_POINTS[c.rank] for c in cards)


def _strength(cards: Sequence[Card]) -> float:
    """A rough bidding strength: jacks, aces, tens and a long suit."""
    jacks = sum(1 for c in cards if c in JACKS)
    aces = sum(1 for c in cards if c.rank == "A")
    tens = sum(1 for c in cards if c.rank == "10")
    longest = max(sum(1 for c in cards if c.suit == s and c not in JACKS) for s in "CSHD")
    return 1 + 3 * jacks + 2 * aces + tens + max(longest - 3, 0) * 1.5


def _suit_for(cards: Sequence[Card]) -> str:
    """The suit the declarer holds most of (jacks aside), the richer one on a tie."""

    def weight(game: str) -> tuple[int, int]:
        held = [c for c in cards if c.suit == SUITS[game] and c not in JACKS]
        return len(held), _points(held)

    return max(SUITS, key=weight)


def _tricks_for(rng: random.Random, points: int) -> int:
    """A number of tricks that can hold ``points`` card points, near the usual share."""
    around = max(1, min(9, round(points / 12)))
    for tricks in sorted(range(1, 10), key=lambda t: (abs(t - around), rng.random())):
        fewest, most = _points_range(tricks)
        if fewest <= points <= most:
            return tricks
    return around  # not reached: every count from 0 to 120 fits some number of tricks


def _pick_bid(rng: random.Random, value: int) -> int:
    """The winning bid: a legal bid up to the game's value, the low ones more often."""
    legal = [bid for bid in BIDS if bid <= value]
    return legal[int(len(legal) * rng.random() ** 1.6)]


def skat_deal(
    rng: random.Random, next_deal: NextDeal, *, players: int, kontra: bool = False
) -> dict[str, Any]:
    """One random deal of a Skat sheet as its JSON, legal by construction.

    32 cards are dealt to the three active seats and the skat; the strongest hands
    win the bidding more often; the game suits the declarer's cards; the matadors are
    counted by the referee from the declarer's 12 cards; the bid is one the game's
    value allows (now and then one step above it: an overbid); the result is given
    as points and tricks that fit each other, as the declarer's trick cards, or as an
    outcome. ``kontra``: the sheet allows Kontra and Re.
    """
    active = [seat for seat in range(players) if seat not in next_deal.sitting_out_seats]
    deck = list(SKAT_CARDS)
    rng.shuffle(deck)
    hands = {seat: deck[10 * i : 10 * i + 10] for i, seat in enumerate(active)}
    skat = deck[30:32]
    if rng.random() < 0.05:
        return {"passed": True}
    weights = [_strength(hands[seat]) ** 2 for seat in active]
    declarer = rng.choices(active, weights)[0]
    dealt = hands[declarer]
    twelve = [*dealt, *skat]
    hand = rng.random() < 0.12
    known = dealt if hand else twelve  # a hand game is declared without seeing the skat
    jacks = sum(1 for c in known if c in JACKS)
    aces = sum(1 for c in known if c.rank == "A")
    roll = rng.random()
    if roll < 0.12 and jacks <= 1 and aces <= 1:
        game = "null"
    elif (jacks >= 3 and roll < 0.85) or (jacks == 2 and aces >= 2 and roll < 0.6):
        game = "grand"
    else:
        game = _suit_for(known)
    deal: dict[str, Any] = {"declarer": declarer, "game": game}
    if hand:
        deal["hand"] = True
    if game == "null":
        ouvert = rng.random() < 0.15
        if ouvert:
            deal["ouvert"] = True
        deal["bid"] = _pick_bid(rng, NULL_VALUES[_null_name(hand, ouvert)])
        won = rng.random() < (0.8 if ouvert else 0.7)
        if rng.random() < 0.6:
            deal["declarer_tricks"] = 0 if won else rng.choice((1, 1, 1, 2, 3))
        else:
            deal["outcome"] = "won" if won else "lost"
        return _with_kontra(rng, deal, kontra)

    matadors = count_matadors(game=game, cards=twelve)
    announced = hand and rng.random() < 0.08
    if announced:
        deal["announced"] = "schneider"
    levels = matadors.count + 1 + int(hand) + (2 if announced else 0)
    value = BASE_VALUES[game] * levels
    above = [bid for bid in BIDS if bid > value]
    if above and rng.random() < 0.03:
        # An overbid: one step above what the cards are worth (schneider would save it).
        deal["bid"] = above[0]
    else:
        deal["bid"] = _pick_bid(rng, value)
    won = rng.random() < (0.82 if game == "grand" else 0.76)
    way = rng.random()
    if way < 0.25 and not announced:
        _trick_cards(rng, deal, won=won, hand=hand, twelve=twelve, skat=skat)
    elif way < 0.45 and not announced:
        deal["matadors"] = matadors.as_dict()
        deal["outcome"] = rng.choice(("won",) * 9 + ("won_schneider",)) if won else "lost"
    else:
        deal["matadors"] = matadors.as_dict()
        points = _played_points(rng, won=won, schneider=announced)
        deal["declarer_points"] = points
        deal["declarer_tricks"] = 10 if points == 120 else _tricks_for(rng, points)
    return _with_kontra(rng, deal, kontra)


def _null_name(hand: bool, ouvert: bool) -> str:
    return "Null" + (" Ouvert" if ouvert else "") + (" Hand" if hand else "")


def _played_points(rng: random.Random, *, won: bool, schneider: bool) -> int:
    if schneider:
        return rng.randint(90, 110) if won else rng.randint(62, 89)
    if won:
        roll = rng.random()
        if roll < 0.02:
            return 120  # schwarz
        if roll < 0.12:
            return rng.randint(90, 115)
        return rng.randint(61, 89)
    if rng.random() < 0.08:
        return rng.randint(18, 30)
    return rng.randint(31, 60)


def _trick_cards(
    rng: random.Random,
    deal: dict[str, Any],
    *,
    won: bool,
    hand: bool,
    twelve: list[Card],
    skat: list[Card],
) -> None:
    """The result as the cards of the declarer's tricks, with the 12 cards and the skat.

    Each trick the declarer took holds one of the declarer's own played cards and two
    of the opponents'; the skat counts for the declarer.
    """
    if hand:
        laid_down = skat  # a hand game keeps the skat as it was dealt
    else:
        spare = [c for c in twelve if c not in JACKS]
        laid_down = rng.sample(spare, 2)
    played = [c for c in twelve if c not in laid_down]
    theirs = [c for c in SKAT_CARDS if c not in twelve]
    tricks = rng.randint(6, 9) if won else rng.randint(1, 4)
    own = rng.sample(played, tricks)
    if won:
        # A winning declarer's tricks gather the opponents' aces and tens more often.
        taken = sorted(theirs, key=lambda c: -CARD_POINTS[c.rank] * rng.random())[: 2 * tricks]
    else:
        taken = rng.sample(theirs, 2 * tricks)
    trick_cards = [c for i in range(tricks) for c in (own[i], taken[2 * i], taken[2 * i + 1])]
    deal["declarer_cards"] = [c.code for c in twelve]
    deal["skat"] = [c.code for c in laid_down]
    deal["declarer_trick_cards"] = [c.code for c in trick_cards]


def _with_kontra(rng: random.Random, deal: dict[str, Any], kontra: bool) -> dict[str, Any]:
    if kontra and rng.random() < 0.1:
        deal["kontra"] = True
        if rng.random() < 0.25:
            deal["re"] = True
    return deal


# -- 10-Point Pitch -----------------------------------------------------------------------

PITCH_BID_WEIGHTS = {4: 30, 5: 28, 6: 18, 7: 11, 8: 6, 9: 3}
# How often each point card is out of play (not dealt, or discarded unseen).
PITCH_OUT = {
    "ace": 0.03,
    "jack": 0.12,
    "off_jack": 0.15,
    "high_joker": 0.1,
    "low_joker": 0.1,
    "ten": 0.15,
    "two": 0.2,
    "three": 0.15,
}


def pitch_deal(rng: random.Random, next_deal: NextDeal, *, moon: bool = True) -> dict[str, Any]:
    """One random Pitch deal: a pitcher, a bid (a moon now and then, never early in the
    game) and who took each point card; a higher bid means a stronger hand, so it takes
    more."""
    pitcher = rng.randrange(4)
    team, other = ("A", "B") if pitcher % 2 == 0 else ("B", "A")
    if moon and next_deal.number > 6 and rng.random() < 0.015:
        if rng.random() < 0.5:
            return {"pitcher": pitcher, "bid": MOON, "points": dict.fromkeys(POINT_CARDS, team)}
        bid: int | str = MOON
        share = 0.8
    else:
        bid = rng.choices(list(PITCH_BID_WEIGHTS), list(PITCH_BID_WEIGHTS.values()))[0]
        share = 0.55 + 0.05 * (int(bid) - 4)
    points = {
        key: "out" if rng.random() < PITCH_OUT[key] else team if rng.random() < share else other
        for key in POINT_CARDS
    }
    return {"pitcher": pitcher, "bid": bid, "points": points}


# -- Manipulation -------------------------------------------------------------------------

CARDS_LEFT = (1, 1, 2, 2, 3, 3, 3, 4, 4, 5, 6, 7, 8, 10)


def manipulation_deal(rng: random.Random, next_deal: NextDeal, *, players: int) -> dict[str, Any]:
    """One random round: usually one player goes out; the others hold cards from the two
    decks, entered as those cards or as the penalty points they cost."""
    pool = list(MANIPULATION_DECK.cards)
    rng.shuffle(pool)
    went_out = rng.randrange(players) if rng.random() < 0.92 else None
    left: list[list[Card]] = []
    for seat in range(players):
        count = 0 if seat == went_out else rng.choice(CARDS_LEFT)
        left.append([pool.pop() for _ in range(count)])
    if rng.random() < 0.4:
        return {"hands": [[c.code for c in cards] for cards in left]}
    return {"penalties": [penalty_of(cards) for cards in left]}


# -- building the circle ------------------------------------------------------------------


@dataclass
class Built:
    """What the command made, for its report."""

    sheets: dict[str, int] = field(
        default_factory=lambda: {"skat": 0, "pitch": 0, "manipulation": 0}
    )
    deals: int = 0
    refused: int = 0


def _evenings(first: datetime.date, last: datetime.date) -> list[datetime.date]:
    day = first + datetime.timedelta(days=(CLUB_NIGHT - first.weekday()) % 7)
    found = []
    while day <= last:
        found.append(day)
        day += datetime.timedelta(days=7)
    return found


class Demo:
    def __init__(self, *, rng: random.Random, circle: Circle, owner: Any) -> None:
        self.rng = rng
        self.circle = circle
        self.owner = owner
        self.names = [name for name, *_ in PLAYERS]
        self.built = Built()

    # -- tables -----------------------------------------------------------------------
    def table(self, size: int, present: Sequence[int]) -> list[str]:
        pool = list(present) if len(present) >= size else list(range(len(self.names)))
        weights = [ATTENDANCE[i] for i in pool]
        chosen: list[int] = []
        while len(chosen) < size:
            pick = self.rng.choices(pool, weights)[0]
            if pick not in chosen:
                chosen.append(pick)
        return [self.names[i] for i in chosen]

    def present(self) -> list[int]:
        here = [i for i, p in enumerate(ATTENDANCE) if self.rng.random() < p]
        return here if len(here) >= 4 else list(range(len(self.names)))

    # -- sheets ----------------------------------------------------------------------
    def sheet(
        self,
        game: str,
        players: list[str],
        *,
        played_on: datetime.date,
        at: datetime.time,
        options: dict[str, Any] | None = None,
        practice: bool = False,
    ) -> Sheet:
        sheet = circle_services.sheet_create_in_circle(
            circle=self.circle,
            game=game,
            players=players,
            first_dealer=self.rng.randrange(len(players)),
            options=options,
            owner=self.owner,
        )
        link = CircleSheet.objects.get(sheet=sheet)
        circle_services.sheet_set_played_on(link=link, played_on=played_on)
        if practice:
            circle_services.sheet_set_counted(link=link, counted=False)
        return sheet

    def play(
        self,
        sheet: Sheet,
        deal: Callable[[NextDeal], dict[str, Any]],
        *,
        deals: int | None = None,
        keep_open: bool = False,
    ) -> SheetState:
        """Enter deals through the referee until the sheet is over (or ``deals`` are in).

        ``keep_open``: a deal that would end the game is dealt again, so the sheet
        stays open for tonight.
        """
        state = sheet_selectors.sheet_state(sheet)
        limit = deals if deals is not None else LONGEST_GAME
        while not state.finished and state.next_deal.number <= limit:
            assert state.next_deal is not None
            for _attempt in range(ATTEMPTS):
                data = deal(state.next_deal)
                try:
                    if keep_open:
                        preview, _deal = sheet_services.hand_preview(sheet=sheet, data=data)
                        if preview.finished:
                            continue
                    state = sheet_services.hand_record(sheet=sheet, data=data).state
                    self.built.deals += 1
                    break
                except RuleError:
                    self.built.refused += 1
            else:
                raise CommandError(f"No legal deal found for sheet {sheet.pk} in {ATTEMPTS} tries.")
        if state.finished:
            self.built.sheets[sheet.game] += 1
        return state

    def stamp(self, sheet: Sheet, day: datetime.date, at: datetime.time, state: SheetState) -> None:
        """The sheet was started at ``at`` that evening, a few minutes a deal; tonight's
        open sheets were started as long ago as their deals took."""
        # state.deals after a write holds the latest deals only: the sheet counts them all.
        deals = Sheet.objects.values_list("deal_count", flat=True).get(pk=sheet.pk)
        took = datetime.timedelta(minutes=MINUTES_A_DEAL[sheet.game] * deals)
        now = timezone.now()
        started = timezone.make_aware(datetime.datetime.combine(day, at))
        if started + took > now:
            Sheet.objects.filter(pk=sheet.pk).update(created_at=now - took)
        else:
            Sheet.objects.filter(pk=sheet.pk).update(created_at=started, updated_at=started + took)

    def skat(
        self,
        players: list[str],
        day: datetime.date,
        at: datetime.time,
        *,
        kontra: bool = False,
        series_deals: int | None = None,
        deals: int | None = None,
        practice: bool = False,
    ) -> Sheet:
        options: dict[str, Any] = {}
        if series_deals is not None:
            options["series_deals"] = series_deals
        elif len(players) == 4:
            # The usual series at four is 48 deals; the club plays 36 at every table.
            options["series_deals"] = SERIES_DEALS
        if kontra:
            options["kontra_re"] = True
            options["bock"] = {"hundred_or_more": True, "lost_after_kontra": True}
        sheet = self.sheet(
            "skat", players, played_on=day, at=at, options=options, practice=practice
        )
        size = len(players)
        state = self.play(
            sheet, lambda nd: skat_deal(self.rng, nd, players=size, kontra=kontra), deals=deals
        )
        self.stamp(sheet, day, at, state)
        return sheet

    def pitch(
        self, players: list[str], day: datetime.date, at: datetime.time, *, deals: int | None = None
    ) -> Sheet:
        sheet = self.sheet("pitch", players, played_on=day, at=at)
        keep_open = deals is not None
        state = self.play(
            sheet,
            lambda nd: pitch_deal(self.rng, nd, moon=not keep_open),
            deals=deals,
            keep_open=keep_open,
        )
        self.stamp(sheet, day, at, state)
        return sheet

    def manipulation(
        self, players: list[str], day: datetime.date, at: datetime.time, *, deals: int | None = None
    ) -> Sheet:
        sheet = self.sheet("manipulation", players, played_on=day, at=at)
        size = len(players)
        state = self.play(
            sheet,
            lambda nd: manipulation_deal(self.rng, nd, players=size),
            deals=deals,
            keep_open=deals is not None,
        )
        self.stamp(sheet, day, at, state)
        return sheet

    # -- a season's evenings ------------------------------------------------------------
    def season_sheets(
        self, evenings: list[datetime.date], *, series: int, games: int
    ) -> list[Sheet]:
        """``series`` Skat series of 36 deals (at tables of three and four), ``games``
        Pitch and ``games`` Manipulation games played to the end, over the evenings."""
        plan: list[tuple[datetime.date, str, int]] = []
        order = list(evenings)
        self.rng.shuffle(order)
        for i in range(series):
            plan.append((order[i % len(order)], "skat", i))
        for kind in ("pitch", "manipulation"):
            self.rng.shuffle(order)
            plan.extend((order[i % len(order)], kind, i) for i in range(games))
        plan.sort(key=lambda item: item[0])
        made = []
        present: dict[datetime.date, list[int]] = {}
        slot: dict[datetime.date, int] = {}
        for day, kind, i in plan:
            here = present.setdefault(day, self.present())
            n = slot[day] = slot.get(day, -1) + 1
            # The first table starts at half past seven, later ones as people arrive.
            at = datetime.time(19 + min(n, 3), 15 if n else 30)
            if kind == "skat":
                # Every third series at a table of four (series of 36 deals there too).
                size = 4 if i % 3 == 1 else 3
                made.append(self.skat(self.table(size, here), day, at, kontra=i % 4 == 2))
            elif kind == "pitch":
                made.append(self.pitch(self.table(4, here), day, at))
            else:
                size = self.rng.choice((3, 4, 4, 5))
                made.append(self.manipulation(self.table(size, here), day, at))
        return made

    def correct_one(self, sheets: list[Sheet]) -> bool:
        """A correction after the evening: one won game turns out lost (the standings page
        shows what moved)."""
        for sheet in sheets:
            if sheet.game != "skat" or any(sheet.options.get("bock", {}).values()):
                continue
            for hand in sheet_selectors.live_hands(sheet):
                if hand.entry.get("outcome") == "won":
                    sheet_services.hand_correct(
                        sheet=sheet, number=hand.number, data={**hand.entry, "outcome": "lost"}
                    )
                    return True
        return False


class Command(BaseCommand):
    help = (
        "Fill an empty database with a demo circle: players, accounts, a finished and a "
        "current season of Skat, Pitch and Manipulation played with random legal deals."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force", action="store_true", help="add the demo circle even if the database has data"
        )
        parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="random seed")
        parser.add_argument(
            "--base-url", default=DEFAULT_BASE_URL, help="where the app is served, for the links"
        )
        parser.add_argument(
            "--series",
            type=int,
            default=DEFAULT_SKAT_SERIES,
            help="Skat series of 36 deals in the current season",
        )
        parser.add_argument(
            "--games",
            type=int,
            default=DEFAULT_GAMES,
            help="Pitch games and Manipulation games (each) in the current season",
        )
        parser.add_argument(
            "--previous",
            type=int,
            default=DEFAULT_PREVIOUS_SERIES,
            help="Skat series in the previous season (half as many Pitch and Manipulation games)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        circles, sheets = Circle.objects.count(), Sheet.objects.count()
        if (circles or sheets) and not options["force"]:
            raise CommandError(
                _(
                    "The database is not empty (%(circles)d circle(s), %(sheets)d sheet(s)): "
                    "the demo fills an empty one. Run it with --force to add the demo circle "
                    "anyway."
                )
                % {"circles": circles, "sheets": sheets}
            )
        for name in ("series", "games", "previous"):
            if options[name] < 0:
                raise CommandError(_("--%(option)s cannot be negative.") % {"option": name})
        if options["series"] < 2:
            raise CommandError(_("--series needs at least 2 (one table of three, one of four)."))
        started = time.perf_counter()
        rng = random.Random(options["seed"])
        with transaction.atomic():
            report = self.build(rng, options)
        report["seconds"] = time.perf_counter() - started
        self.report(report, options["base_url"].rstrip("/"), options["seed"])

    def build(self, rng: random.Random, options: dict[str, Any]) -> dict[str, Any]:
        users = get_user_model()
        accounts: list[tuple[str, str, str]] = []
        made_users: dict[str, Any] = {}
        for name, account, _guest, _shown in PLAYERS:
            if account is None:
                continue
            username = _free_username(users, account)
            password = secrets.token_urlsafe(9)
            made_users[account] = users.objects.create_user(
                username=username, password=password, first_name=name.split()[0]
            )
            accounts.append(("owner" if not accounts else "member", username, password))
        owner = made_users[PLAYERS[0][1]]
        circle = circle_services.circle_create(
            owner=owner, name=CIRCLE_NAME, player_name=PLAYERS[0][0]
        )
        for name, account, guest, shown in PLAYERS:
            player = circle_services.player_for_name(circle, name)
            if account is not None and account in made_users and player.user_id is None:
                Membership.objects.get_or_create(circle=circle, user=made_users[account])
                circle_services.player_update(player=player, user=made_users[account])
            if guest or shown != Player.FULL:
                circle_services.player_update(player=player, guest=guest, shown_as=shown)

        today = timezone.localdate()
        starts = today - datetime.timedelta(weeks=SEASON_WEEKS_BEHIND)
        ends = today + datetime.timedelta(weeks=SEASON_WEEKS_AHEAD)
        before_ends = starts - datetime.timedelta(days=1)
        before_starts = before_ends - datetime.timedelta(weeks=PREVIOUS_SEASON_WEEKS)
        past_evenings = _evenings(starts, today - datetime.timedelta(days=1))
        previous = circle_services.season_save(
            circle=circle,
            data={
                "name": _season_name(before_starts, before_ends),
                "starts_on": before_starts,
                "ends_on": before_ends,
                "planned_evenings": len(_evenings(before_starts, before_ends)),
                "skat_rules": PREVIOUS_RULES,
            },
        )
        current = circle_services.season_save(
            circle=circle,
            data={
                "name": _season_name(starts, ends),
                "starts_on": starts,
                "ends_on": ends,
                "planned_evenings": len(_evenings(starts, ends)),
                "skat_rules": CURRENT_RULES,
            },
        )
        demo = Demo(rng=rng, circle=circle, owner=owner)
        earlier = options["previous"]
        if earlier:
            demo.season_sheets(
                _evenings(before_starts, before_ends),
                series=earlier,
                games=max(earlier // 2, 1),
            )
        before = dict(demo.built.sheets)
        sheets = demo.season_sheets(past_evenings, series=options["series"], games=options["games"])
        counted = {game: n - before[game] for game, n in demo.built.sheets.items()}
        # A practice series mid-season, left out of the standings.
        middle = past_evenings[len(past_evenings) // 2]
        demo.skat(
            demo.table(3, range(len(PLAYERS) - 1)),
            middle,
            datetime.time(22, 40),
            series_deals=PRACTICE_DEALS,
            practice=True,
        )
        corrected = demo.correct_one(sheets)
        # Tonight: one open sheet of each game.
        tonight = demo.present()
        demo.skat(demo.table(3, tonight), today, datetime.time(19, 30), deals=OPEN_SKAT_DEALS)
        demo.pitch(demo.table(4, tonight), today, datetime.time(20, 0), deals=OPEN_PITCH_DEALS)
        demo.manipulation(
            demo.table(4, tonight), today, datetime.time(20, 30), deals=OPEN_MANIPULATION_ROUNDS
        )
        return {
            "circle": circle,
            "current": current,
            "previous": previous,
            "accounts": accounts,
            "counted": counted,
            "built": demo.built,
            "evenings": len(past_evenings),
            "corrected": corrected,
        }

    def report(self, report: dict[str, Any], base: str, seed: int) -> None:
        circle: Circle = report["circle"]
        current: Season = report["current"]
        previous: Season = report["previous"]
        built: Built = report["built"]
        counted = report["counted"]
        out = self.stdout.write
        built_values = {
            "circle": circle.name,
            "id": circle.pk,
            "players": len(PLAYERS),
            "seconds": report["seconds"],
            "seed": seed,
            "sheets": sum(built.sheets.values()),
            "deals": built.deals,
            "refused": built.refused,
        }
        if built.refused:
            out(
                _(
                    'Demo circle "%(circle)s" (id %(id)d) with %(players)d players, built in '
                    "%(seconds).1f s (seed %(seed)d): %(sheets)d finished sheets, %(deals)d "
                    "deals entered through the referee (%(refused)d refused and dealt again)."
                )
                % built_values
            )
        else:
            out(
                _(
                    'Demo circle "%(circle)s" (id %(id)d) with %(players)d players, built in '
                    "%(seconds).1f s (seed %(seed)d): %(sheets)d finished sheets, %(deals)d "
                    "deals entered through the referee."
                )
                % built_values
            )
        season_values = {
            "season": current.name,
            "start": current.starts_on,
            "end": current.ends_on,
            "evenings": report["evenings"],
            "skat": counted["skat"],
            "pitch": counted["pitch"],
            "manipulation": counted["manipulation"],
        }
        if report["corrected"]:
            out(
                _(
                    'Current season "%(season)s" (%(start)s to %(end)s), %(evenings)d evenings '
                    "so far: %(skat)d Skat series, %(pitch)d Pitch games, %(manipulation)d "
                    "Manipulation games; one open sheet of each game tonight, one practice "
                    "series left out, one correction after the evening."
                )
                % season_values
            )
        else:
            out(
                _(
                    'Current season "%(season)s" (%(start)s to %(end)s), %(evenings)d evenings '
                    "so far: %(skat)d Skat series, %(pitch)d Pitch games, %(manipulation)d "
                    "Manipulation games; one open sheet of each game tonight, one practice "
                    "series left out."
                )
                % season_values
            )
        api = reverse("api-standings", args=[current.pk])
        links = [
            (_("season id:"), str(current.pk)),
            (_("view token:"), current.view_token),
            (_("standings:"), f"{base}{current.get_absolute_url()}"),
            (
                _("public link:"),
                f"{base}{reverse('circles:season-public', args=[current.view_token])}",
            ),
            (_("API:"), f'curl -H "Authorization: Bearer {current.view_token}" {base}{api}'),
        ]
        width = max(len(label) for label, _value in links) + 1
        for label, value in links:
            out(f"  {label:<{width}}{value}")
        out(
            _('Previous season "%(season)s" (id %(id)d): %(url)s')
            % {
                "season": previous.name,
                "id": previous.pk,
                "url": f"{base}{previous.get_absolute_url()}",
            }
        )
        out(_("Sign in at %(url)s:") % {"url": f"{base}{reverse('accounts:login')}"})
        roles = {
            # Translators: the demo's accounts as the command prints them: "owner: demo / …".
            "owner": pgettext("demo account", "owner:"),
            "member": pgettext("demo account", "member:"),
        }
        for role, username, password in report["accounts"]:
            out(f"  {roles[role]:<8} {username} / {password}")


def _free_username(users: Any, wanted: str) -> str:
    name, n = wanted, 1
    while users.objects.filter(username=name).exists():
        n += 1
        name = f"{wanted}{n}"
    return name


def _season_name(starts: datetime.date, ends: datetime.date) -> str:
    if starts.year == ends.year:
        return f"{starts:%B} to {ends:%B %Y}"
    return f"{starts:%B %Y} to {ends:%B %Y}"
