"""Keeping the Skat list: seats, Seeger-Fabian totals, Ramsch and Bock rounds.

This module stands on its own beside ``skat.py`` (which values single games). It
knows who deals and who sits out, how a series is ranked by the Seeger-Fabian
system, how a Ramsch deal is scored, and which deals are Bock deals.

Seat indexes start at 0, as in the API. Texts read aloud at the table say
"seat 1" for index 0, unless the caller passes the players' ``names``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cache, lru_cache
from typing import Any, Literal

from .cards import SKAT_DECK
from .errors import ProblemCollector, RuleError, Step
from .skat import CARD_POINTS, GAMES, reachable_points
from .text import _, join, ngettext, pgettext
from .words import capitalised, joined, number, signed

RULE_SECTIONS: dict[str, str] = {
    "skat-seats": pgettext("rule book section", "Seats"),
    "skat-seeger-fabian": _("Tournament scoring: Seeger-Fabian"),
    "skat-ramsch": _("Ramsch (house rule)"),
    "skat-bock-rounds": _("Bock rounds (house rule)"),
}

TABLE_SIZES = (3, 4, 5)
# A series usually lets every player deal equally often: 36 deals at a 3-table, 48 at a
# 4-table, 60 at a 5-table (club evenings, issue 17).
SERIES_DEALS = {3: 36, 4: 48, 5: 60}

WON_BONUS = 50
LOST_PENALTY = 50
# Each game a declarer loses pays every other player at the table (those sitting out
# included) an equal share of 120: 2 × 40 at a 3-table, 3 × 30 at a 4-table, 4 × 24 at a
# 5-table (the DSkV's 40 and 30; issue 17's 24 at five).
DEFENCE_SHARED = 120
DEFENCE_BONUS = {players: DEFENCE_SHARED // players for players in TABLE_SIZES}

# Only "grand" of the game names (GAMES, from skat.py) matters for the Bock triggers here.
# The lowest game value is 18 (a suit game "with/against 1" in diamonds); the highest
# is 264 (Grand Ouvert "with 4"); an overbid loss never goes past the highest bid, 264.
LOWEST_GAME_VALUE = 18
HIGHEST_GAME_VALUE = 264
BOCK_TRIGGER_LIMIT = 100

RAMSCH_PLAYERS = 3
TOTAL_CARD_POINTS = 120
TOTAL_TRICKS = 10
SKAT_CARDS = 2
CARDS_PER_TRICK = 3


_ORDINALS = {
    1: pgettext("place in a ranking", "1st"),
    2: pgettext("place in a ranking", "2nd"),
    3: pgettext("place in a ranking", "3rd"),
}


def _ordinal(n: int) -> str:
    # Places at one table run from 1st to 5th.
    if n in _ORDINALS:
        return _ORDINALS[n]
    # Translators: a place in a ranking, 4th and on; {place} is its number.
    return pgettext("place in a ranking", "{place}th", place=n)


def _check_players(players: int, problems: ProblemCollector) -> bool:
    if players in TABLE_SIZES:
        return True
    problems.add(
        "players",
        _(
            "Skat is kept for 3, 4 or 5 players (at four the dealer sits out each deal, at "
            "five the dealer and the third player to the dealer's left); got {players}.",
            players=players,
        ),
    )
    return False


def _check_names(
    names: Sequence[str] | None, count: int, problems: ProblemCollector
) -> list[str] | None:
    if names is None:
        return None
    if len(names) != count:
        problems.add(
            "names",
            # Translators: {seats} is how many seats the table has, {given} how many names came.
            _("Give one name per seat ({seats}); got {given}.", seats=count, given=len(names)),
        )
        return None
    return list(names)


def _seat_name(seat: int, names: Sequence[str] | None) -> str:
    return names[seat] if names else _("seat {number}", number=seat + 1)


# ---------------------------------------------------------------------------
# Seats
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class DealSeats:
    """Who deals one deal, who plays from which position, and who sits out.

    ``sitting_out`` is the dealer when the dealer sits out (at four and five), else
    ``None``; ``sitting_out_seats`` every seat that sits out, the dealer first: none at
    three, the dealer at four, the dealer and the third player to the dealer's left at
    five.
    """

    dealer: int
    forehand: int
    middlehand: int
    rearhand: int
    sitting_out: int | None
    explanation: tuple[Step, ...]
    sitting_out_seats: tuple[int, ...] = ()


def seats_for_deal(
    *, players: int, first_dealer: int, deal_number: int, names: Sequence[str] | None = None
) -> DealSeats:
    """The seats of deal ``deal_number`` (from 1) when ``first_dealer`` dealt deal 1."""
    problems = ProblemCollector()
    table_ok = _check_players(players, problems)
    if table_ok and not 0 <= first_dealer < players:
        problems.add(
            "first_dealer",
            _(
                "The first dealer must be one of the {players} seats (0 to {last}); got {seat}.",
                players=players,
                last=players - 1,
                seat=first_dealer,
            ),
        )
    if deal_number < 1:
        problems.add(
            "deal_number", _("Deals are counted from 1; got {number}.", number=deal_number)
        )
    shown = _check_names(names, players, problems) if table_ok else None
    problems.raise_if_any()

    # The deal passes clockwise, one seat on per deal; the player on the dealer's
    # left (the next seat) is forehand and leads the first trick, the next one on is
    # middlehand. At three the dealer plays as rearhand; at four and five the player on
    # the dealer's right does, so at five the third player to the dealer's left sits
    # out with the dealer.
    dealer = (first_dealer + deal_number - 1) % players
    forehand, middlehand = (dealer + 1) % players, (dealer + 2) % players
    rearhand = dealer if players == 3 else (dealer - 1) % players
    playing = (forehand, middlehand, rearhand)
    out = tuple(
        seat for seat in ((dealer + k) % players for k in range(players)) if seat not in playing
    )
    sitting_out = dealer if out else None

    who = [_seat_name(s, shown) for s in (dealer, forehand, middlehand, rearhand)]
    steps = [
        Step(
            _(
                # Translators: {dealer} … {rearhand} are players' names or "seat 2".
                "Deal {number}: {dealer} deals; {forehand} is forehand and leads the first "
                "trick, {middlehand} is middlehand and {rearhand} is rearhand.",
                number=deal_number,
                dealer=who[0],
                forehand=who[1],
                middlehand=who[2],
                rearhand=who[3],
            ),
            "skat-seats",
        )
    ]
    if sitting_out is None:
        steps.append(Step(_("At a table of three the dealer plays as rearhand."), "skat-seats"))
    elif len(out) == 2:
        steps.append(
            Step(
                _(
                    # Translators: {dealer} and {other} are players' names or "seat 2".
                    "At a table of five the dealer and the third player to the dealer's left "
                    "sit this deal out; {dealer} and {other} count with the defenders.",
                    dealer=who[0],
                    other=_seat_name(out[1], shown),
                ),
                "skat-seats",
            )
        )
    else:
        steps.append(
            Step(
                _(
                    "At a table of four the dealer sits this deal out; {dealer} counts "
                    "with the defenders.",
                    dealer=who[0],
                ),
                "skat-seats",
            )
        )
    return DealSeats(dealer, forehand, middlehand, rearhand, sitting_out, tuple(steps), out)


# ---------------------------------------------------------------------------
# Seeger-Fabian
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ListedDeal:
    """One deal as the list records it.

    ``scores`` holds, for every seat, what that seat's list entry changed by in this
    deal. ``declarer`` and ``won`` are ``None`` for a deal nobody played (thrown in)
    or a Ramsch. ``sitting_out`` is the dealer at a table of four or five (``None`` when
    not recorded, and always at a table of three); ``sitting_out_seats`` may name every
    seat that sat out (at five the third player to the dealer's left too).
    """

    scores: tuple[int, ...]
    declarer: int | None = None
    won: bool | None = None
    sitting_out: int | None = None
    sitting_out_seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class SeegerFabianRow:
    seat: int
    list_points: int
    games_won: int
    games_lost: int
    won_bonus: int
    lost_penalty: int
    defence_bonus: int
    total: int


@dataclass(frozen=True)
class SeegerFabianResult:
    rows: tuple[SeegerFabianRow, ...]
    standings: tuple[tuple[int, int], ...]
    explanation: tuple[Step, ...]


@dataclass(frozen=True)
class SeegerFabianTally:
    """What Seeger-Fabian counts of a series, per seat: the sums its rows are built from.

    ``lost_by_others`` counts, for each seat, the games some other declarer lost. A
    sheet keeps the tally as it goes (:meth:`plus`, one deal at a time) instead of
    its every deal, and :func:`seeger_fabian_of_tally` ranks it.
    """

    list_points: tuple[int, ...]
    games_won: tuple[int, ...]
    games_lost: tuple[int, ...]
    lost_by_others: tuple[int, ...]

    @classmethod
    def empty(cls, players: int) -> SeegerFabianTally:
        """The tally before the first deal: everything 0 for each of ``players`` seats."""
        zero = (0,) * players
        return cls(zero, zero, zero, zero)

    def plus(self, deal: ListedDeal) -> SeegerFabianTally:
        """The tally with ``deal`` counted too (a deal :func:`check_listed_deal` accepts)."""
        declarer, won = deal.declarer, deal.won
        # Every other player at the table, the dealer sitting out included, gets the
        # defence bonus for a game some other declarer lost.
        lost = declarer is not None and won is False
        return SeegerFabianTally(
            list_points=tuple(t + s for t, s in zip(self.list_points, deal.scores, strict=True)),
            games_won=tuple(
                n + bool(declarer == seat and won) for seat, n in enumerate(self.games_won)
            ),
            games_lost=tuple(
                n + (lost and declarer == seat) for seat, n in enumerate(self.games_lost)
            ),
            lost_by_others=tuple(
                n + (lost and declarer != seat) for seat, n in enumerate(self.lost_by_others)
            ),
        )


def seeger_fabian(
    *, players: int, deals: Sequence[ListedDeal], names: Sequence[str] | None = None
) -> SeegerFabianResult:
    """Rank a series by the Seeger-Fabian system used by DSkV and ISPA tournaments."""
    problems = ProblemCollector()
    table_ok = _check_players(players, problems)
    shown = _check_names(names, players, problems) if table_ok else None
    for i, deal in enumerate(deals):
        _check_listed_deal(deal, f"deals.{i}", players if table_ok else None, shown, problems)
    problems.raise_if_any()

    tally = SeegerFabianTally.empty(players)
    for deal in deals:
        tally = tally.plus(deal)
    return seeger_fabian_of_tally(tally, names=shown)


def check_listed_deal(
    deal: ListedDeal, *, players: int, where: str = "deal", names: Sequence[str] | None = None
) -> None:
    """Raise the problems :func:`seeger_fabian` would find in ``deal`` at ``where``."""
    problems = ProblemCollector()
    _check_listed_deal(deal, where, players, names, problems)
    problems.raise_if_any()


def seeger_fabian_of_tally(
    tally: SeegerFabianTally, *, names: Sequence[str] | None = None
) -> SeegerFabianResult:
    """Rank a series by Seeger-Fabian from its tally: rows, standings and explanation,
    as :func:`seeger_fabian` gives them for the deals counted."""
    players = len(tally.list_points)
    problems = ProblemCollector()
    table_ok = _check_players(players, problems)
    names = _check_names(names, players, problems) if table_ok else None
    problems.raise_if_any()
    rows = tuple(_seeger_fabian_row(seat, players, tally) for seat in range(players))
    standings = _standings(rows)
    steps = [_defence_rule_step(players)]
    steps.extend(_row_step(row, players, names) for row in rows)
    steps.extend(_tie_steps(rows, standings, names))
    return SeegerFabianResult(rows, standings, tuple(steps))


def _check_listed_deal(
    deal: ListedDeal,
    where: str,
    players: int | None,
    names: Sequence[str] | None,
    problems: ProblemCollector,
) -> None:
    declarer, won, sitting_out = deal.declarer, deal.won, deal.sitting_out
    if declarer is None and won is not None:
        problems.add(
            f"{where}.won",
            _(
                "A deal without a declarer (thrown in, or Ramsch) is neither won nor lost; "
                "leave won empty or say who the declarer was."
            ),
        )
    if declarer is not None and won is None:
        problems.add(f"{where}.won", _("Say whether the declarer won or lost this game."))
    if players is None:
        return
    last_seat = players - 1
    if len(deal.scores) != players:
        problems.add(
            f"{where}.scores",
            _(
                # Translators: {seats} is how many seats the table has, {given} how many scores came.
                "Give one score per seat ({seats}); got {given}.",
                seats=players,
                given=len(deal.scores),
            ),
        )
        return
    out = _checked_out_seats(deal, where, players, names, problems)
    if sitting_out is not None:
        if players == 3:
            problems.add(
                f"{where}.sitting_out",
                _("Nobody sits out at a table of three; the dealer plays too."),
            )
            sitting_out = None
        elif not 0 <= sitting_out < players:
            problems.add(
                f"{where}.sitting_out",
                _(
                    "The dealer who sits out must be one of the seats (0 to {last}); got {seat}.",
                    last=last_seat,
                    seat=sitting_out,
                ),
            )
            sitting_out = None
        elif deal.scores[sitting_out] != 0:
            problems.add(
                f"{where}.scores.{sitting_out}",
                _(
                    # Translators: {player} is a player's name or "Seat 2"; {score} a change like +24.
                    "{player} sat this deal out, so their list entry cannot change; got {score}.",
                    player=capitalised(_seat_name(sitting_out, names)),
                    score=signed(deal.scores[sitting_out]),
                ),
            )
    if declarer is None:
        return
    if not 0 <= declarer < players:
        problems.add(
            f"{where}.declarer",
            _(
                "The declarer must be one of the seats (0 to {last}); got {seat}.",
                last=last_seat,
                seat=declarer,
            ),
        )
        return
    who = capitalised(_seat_name(declarer, names))
    if declarer == sitting_out:
        problems.add(
            f"{where}.declarer",
            # Translators: {player} is a player's name or "Seat 2".
            _("{player} dealt and sat this deal out, so cannot be its declarer.", player=who),
        )
        return
    if declarer in out:
        problems.add(
            f"{where}.declarer",
            # Translators: {player} is a player's name or "Seat 2".
            _("{player} sat this deal out, so cannot be its declarer.", player=who),
        )
        return
    # Only the declarer's list entry moves in a played game; the defenders write nothing.
    for seat, score in enumerate(deal.scores):
        if seat not in (declarer, sitting_out, *out) and score != 0:
            problems.add(
                f"{where}.scores.{seat}",
                _(
                    "{player} defended, and only the declarer's list entry changes in a game; "
                    "got {score}.",
                    player=capitalised(_seat_name(seat, names)),
                    score=signed(score),
                ),
            )
    # A won game is written as +value, a lost one as −2 × value: never zero.
    score = deal.scores[declarer]
    if won is True and score <= 0:
        problems.add(
            f"{where}.scores.{declarer}",
            _(
                "{player} won this game, so their list entry goes up by the game value; "
                "got {score}.",
                player=who,
                score=signed(score),
            ),
        )
    if won is False and score >= 0:
        problems.add(
            f"{where}.scores.{declarer}",
            _(
                "{player} lost this game, so their list entry goes down by twice the game "
                "value; got {score}.",
                player=who,
                score=signed(score),
            ),
        )


def _checked_out_seats(
    deal: ListedDeal,
    where: str,
    players: int,
    names: Sequence[str] | None,
    problems: ProblemCollector,
) -> tuple[int, ...]:
    """The seats of ``sitting_out_seats`` other than the dealer (``sitting_out``, checked
    on its own), each checked: a seat of the table whose list entry did not change."""
    if deal.sitting_out_seats and players == 3:
        problems.add(
            f"{where}.sitting_out_seats",
            _("Nobody sits out at a table of three; the dealer plays too."),
        )
        return ()
    out: list[int] = []
    for i, seat in enumerate(deal.sitting_out_seats):
        if seat == deal.sitting_out:
            continue
        if not 0 <= seat < players:
            problems.add(
                f"{where}.sitting_out_seats.{i}",
                _(
                    "A player who sits out is one of the seats (0 to {last}); got {seat}.",
                    last=players - 1,
                    seat=seat,
                ),
            )
        elif deal.scores[seat] != 0:
            problems.add(
                f"{where}.scores.{seat}",
                _(
                    # Translators: {player} is a player's name or "Seat 2"; {score} a change like +24.
                    "{player} sat this deal out, so their list entry cannot change; got {score}.",
                    player=capitalised(_seat_name(seat, names)),
                    score=signed(deal.scores[seat]),
                ),
            )
            out.append(seat)
        else:
            out.append(seat)
    return tuple(out)


def _seeger_fabian_row(seat: int, players: int, tally: SeegerFabianTally) -> SeegerFabianRow:
    list_points = tally.list_points[seat]
    games_won = tally.games_won[seat]
    games_lost = tally.games_lost[seat]
    won_bonus = WON_BONUS * games_won
    lost_penalty = -LOST_PENALTY * games_lost
    defence_bonus = DEFENCE_BONUS[players] * tally.lost_by_others[seat]
    total = list_points + won_bonus + lost_penalty + defence_bonus
    return SeegerFabianRow(
        seat, list_points, games_won, games_lost, won_bonus, lost_penalty, defence_bonus, total
    )


def _rank_key(row: SeegerFabianRow) -> tuple[int, int, int]:
    # Higher total first; on equal totals more games won, then fewer games lost.
    return (-row.total, -row.games_won, row.games_lost)


def _standings(rows: Sequence[SeegerFabianRow]) -> tuple[tuple[int, int], ...]:
    ordered = sorted(rows, key=lambda row: (_rank_key(row), row.seat))
    standings: list[tuple[int, int]] = []
    for position, row in enumerate(ordered, start=1):
        if standings and _rank_key(ordered[position - 2]) == _rank_key(row):
            rank = standings[-1][0]  # still equal after both tie-breaks: the place is shared
        else:
            rank = position
        standings.append((rank, row.seat))
    return tuple(standings)


def _defence_rule_step(players: int) -> Step:
    values = {
        "won": WON_BONUS,
        "lost": LOST_PENALTY,
        "defence": DEFENCE_BONUS[players],
        "others": players - 1,
        "players": players,
    }
    if players == 5:
        text = _(
            "Seeger-Fabian: list points, plus {won} for each game won as declarer, minus "
            "{lost} for each game lost as declarer, plus {defence} to each of the other "
            "{others} players at this table of {players} (the two sitting out included) "
            "for every game a declarer loses.",
            **values,
        )
    elif players == 4:
        text = _(
            "Seeger-Fabian: list points, plus {won} for each game won as declarer, minus "
            "{lost} for each game lost as declarer, plus {defence} to each of the other "
            "{others} players at this table of {players} (the dealer sitting out included) "
            "for every game a declarer loses.",
            **values,
        )
    else:
        text = _(
            "Seeger-Fabian: list points, plus {won} for each game won as declarer, minus "
            "{lost} for each game lost as declarer, plus {defence} to each of the other "
            "{others} players at this table of {players} for every game a declarer loses.",
            **values,
        )
    return Step(text, "skat-seeger-fabian")


def _row_step(row: SeegerFabianRow, players: int, names: Sequence[str] | None) -> Step:
    parts = [_("{points} list points", points=number(row.list_points))]
    if row.games_won:
        parts.append(
            ngettext(
                # Translators: {score} is a bonus like +100, {n} how many games it is for.
                "{score} for {n} game won",
                "{score} for {n} games won",
                row.games_won,
                score=signed(row.won_bonus),
                n=row.games_won,
            )
        )
    if row.games_lost:
        parts.append(
            ngettext(
                # Translators: {score} is a penalty like −100, {n} how many games it is for.
                "{score} for {n} game lost",
                "{score} for {n} games lost",
                row.games_lost,
                score=signed(row.lost_penalty),
                n=row.games_lost,
            )
        )
    if row.defence_bonus:
        lost_by_others = row.defence_bonus // DEFENCE_BONUS[players]
        parts.append(
            ngettext(
                # Translators: {score} is a bonus like +80, {n} how many games it is for.
                "{score} for {n} game lost by another declarer",
                "{score} for {n} games lost by another declarer",
                lost_by_others,
                score=signed(row.defence_bonus),
                n=lost_by_others,
            )
        )
    return Step(
        _(
            # Translators: {player} is a player's name or "Seat 2"; {parts} a list such as
            # "96 list points, +100 for 2 games won"; {total} the player's total.
            "{player}: {parts}; total {total}.",
            player=capitalised(_seat_name(row.seat, names)),
            parts=join(", ", parts),
            total=number(row.total),
        ),
        "skat-seeger-fabian",
    )


def _tie_steps(
    rows: Sequence[SeegerFabianRow],
    standings: Sequence[tuple[int, int]],
    names: Sequence[str] | None,
) -> list[Step]:
    rank_of = {seat: rank for rank, seat in standings}
    by_total: dict[int, list[int]] = {}
    for _place, seat in standings:
        by_total.setdefault(rows[seat].total, []).append(seat)
    steps = []
    for total, seats in by_total.items():
        if len(seats) < 2:
            continue
        who = capitalised(joined([_seat_name(seat, names) for seat in seats]))
        places = join(
            ", ",
            [
                _(
                    # Translators: {player} is a name or "seat 2", {won} and {lost} counts of
                    # games, {place} e.g. "1st".
                    "{player} ({won} won, {lost} lost) {place}",
                    player=_seat_name(seat, names),
                    won=rows[seat].games_won,
                    lost=rows[seat].games_lost,
                    place=_ordinal(rank_of[seat]),
                )
                for seat in seats
            ],
        )
        if len(seats) == 2:
            text = _(
                # Translators: {players} is e.g. "Ana and Ben"; {places} a list of
                # "Ana (3 won, 1 lost) 1st".
                "{players} both total {total}; the tie goes to more games won, then fewer "
                "games lost: {places}.",
                players=who,
                total=number(total),
                places=places,
            )
        else:
            text = _(
                # Translators: {players} is e.g. "Ana, Ben and Cem"; {places} a list of
                # "Ana (3 won, 1 lost) 1st".
                "{players} all total {total}; the tie goes to more games won, then fewer "
                "games lost: {places}.",
                players=who,
                total=number(total),
                places=places,
            )
        steps.append(Step(text, "skat-seeger-fabian"))
    return steps


# ---------------------------------------------------------------------------
# Options shared by the house rules below
# ---------------------------------------------------------------------------


def _read_options(
    cls: type, data: Mapping[str, Any] | None, field_name: str, check: dict[str, Any]
) -> dict[str, Any]:
    """Validate a mapping of options against ``check`` (name → allowed test and wording)."""
    if data is None:
        return {}
    problems = ProblemCollector()
    if not isinstance(data, Mapping):
        raise RuleError(_("Give the options as an object of names and values."), field_name)
    known = [f.name for f in fields(cls)]
    values: dict[str, Any] = {}
    for name, value in data.items():
        if name not in known:
            problems.add(
                f"{field_name}.{name}",
                _(
                    # Translators: {name} is what was sent; {options} the option names (codes).
                    '"{name}" is not an option here; the options are {options}.',
                    name=name,
                    options=joined(known),
                ),
            )
            continue
        accepts, wording = check[name]
        if not accepts(value):
            problems.add(
                f"{field_name}.{name}",
                # Translators: {option} is an option's name (a code); {wording} what it accepts,
                # e.g. "true or false".
                _("{option} must be {wording}.", option=name, wording=wording),
            )
            continue
        values[name] = value
    problems.raise_if_any()
    return values


def _is_bool(value: object) -> bool:
    return isinstance(value, bool)


# ---------------------------------------------------------------------------
# Ramsch
# ---------------------------------------------------------------------------

RAMSCH_TIES = ("all_tied_lose", "last_trick_loses")


@dataclass(frozen=True)
class RamschOptions:
    """How a tie for most card points is settled in Ramsch.

    ``all_tied_lose`` (the default): every tied player loses their points.
    ``last_trick_loses``: only the tied player who took the last trick loses. If none
    of the tied players took it, that tie-break cannot choose, so all of them lose as
    under the default.
    """

    tie: Literal["all_tied_lose", "last_trick_loses"] = "all_tied_lose"

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, field: str = "options") -> RamschOptions:
        check = {
            "tie": (
                lambda v: v in RAMSCH_TIES,
                _(
                    # Translators: what the tie option accepts; the quoted values are codes, keep them.
                    'one of "all_tied_lose" (every tied player loses) or "last_trick_loses" '
                    "(the tied player who took the last trick loses)"
                ),
            )
        }
        return cls(**_read_options(cls, data, field, check))

    def as_dict(self) -> dict[str, Any]:
        return {"tie": self.tie}


@dataclass(frozen=True)
class RamschResult:
    scores: tuple[int, ...]
    losers: tuple[int, ...]
    jungfrau: tuple[int, ...]
    durchmarsch: int | None
    explanation: tuple[Step, ...]


def _card_point_values() -> list[int]:
    return [CARD_POINTS[c.rank] for c in SKAT_DECK.cards]


# How many cards of each value the deck has: 4 each of 11, 10, 4, 3, 2 and twelve 0s.
_VALUE_COUNTS = tuple(sorted(Counter(_card_point_values()).items(), reverse=True))


@lru_cache(maxsize=1024)
def _can_share(cards: tuple[int, ...], points: tuple[int, ...]) -> bool:
    """Can the 32 cards be split into piles of these sizes worth these card points?"""

    @cache
    def share(kind: int, cards_left: tuple[int, ...], points_left: tuple[int, ...]) -> bool:
        value, count = _VALUE_COUNTS[kind]
        if value == 0:
            # Blanks are the last kind: they fill the piles up without adding points.
            return not any(points_left) and sum(cards_left) == count
        for first in range(count + 1):
            for second in range(count + 1 - first):
                taken = (first, second, count - first - second)
                new_cards = tuple(c - t for c, t in zip(cards_left, taken, strict=True))
                new_points = tuple(p - t * value for p, t in zip(points_left, taken, strict=True))
                fits = min(new_cards) >= 0 and min(new_points) >= 0
                if fits and share(kind + 1, new_cards, new_points):
                    return True
        return False

    return share(0, cards, points)


def _player(player: int, names: Sequence[str] | None) -> str:
    """One of the three Ramsch players inside a sentence: their name, or "player 2"."""
    return names[player] if names else _("player {number}", number=player + 1)


def _player_first(player: int, names: Sequence[str] | None) -> str:
    """The same at the start of a sentence: the name as it was given, or "Player 2"."""
    return names[player] if names else _("Player {number}", number=player + 1)


def _check_ramsch(
    points: Sequence[int],
    tricks: Sequence[int],
    last_trick: int | None,
    names: Sequence[str] | None,
    problems: ProblemCollector,
) -> None:
    counts_ok = True
    for name, values, total in (
        ("points", points, TOTAL_CARD_POINTS),
        ("tricks", tricks, TOTAL_TRICKS),
    ):
        if not _check_ramsch_counts(name, values, total, names, problems):
            counts_ok = False
    last_ok = last_trick is None or 0 <= last_trick < RAMSCH_PLAYERS
    if not last_ok:
        if names:
            text = _(
                # Translators: {players} is e.g. "Ana, Ben or Cem"; {got} the number sent.
                "The last trick was taken by {players} (0 to 2); got {got}.",
                players=joined(names, last="or"),
                got=last_trick,
            )
        else:
            text = _(
                "The last trick was taken by player 1, 2 or 3 (0 to 2); got {got}.",
                got=last_trick,
            )
        problems.add("last_trick", text)
    if len(points) != RAMSCH_PLAYERS or len(tricks) != RAMSCH_PLAYERS:
        return
    if last_ok and last_trick is not None and tricks[last_trick] == 0:
        last_ok = False
        problems.add(
            "last_trick",
            _(
                # Translators: {player} is a player's name or "Player 2".
                "{player} took no trick, so cannot have taken the last one.",
                player=_player_first(last_trick, names),
            ),
        )
    # Card points come only with tricks (the skat goes to whoever took the last trick),
    # so a player without a trick has none.
    empty_handed = [i for i, t in enumerate(tricks) if t == 0 and points[i] > 0]
    for i in empty_handed:
        problems.add(
            f"points.{i}",
            _(
                # Translators: {player} is a player's name or "Player 2"; {points} card points.
                "{player} took no trick, so has no card points; got {points}.",
                player=_player_first(i, names),
                points=points[i],
            ),
        )
    if counts_ok and last_ok and not empty_handed:
        if last_trick is not None:
            _check_ramsch_piles(points, tricks, last_trick, names, problems)
            return
        # Who took the last trick (and the skat) was not said: the piles must fit for
        # one of the players who took a trick; if none fits, the first one's problems.
        tried = []
        for candidate in (i for i, t in enumerate(tricks) if t > 0):
            attempt = ProblemCollector()
            _check_ramsch_piles(points, tricks, candidate, names, attempt)
            if not attempt:
                return
            tried.append(attempt)
        if tried:
            problems.absorb(RuleError(tried[0].problems))


def _check_ramsch_counts(
    name: str,
    values: Sequence[int],
    total: int,
    names: Sequence[str] | None,
    problems: ProblemCollector,
) -> bool:
    card_points = name == "points"
    if len(values) != RAMSCH_PLAYERS:
        if card_points:
            text = _(
                "Give the card points of the three players in the Ramsch; got {given}.",
                given=len(values),
            )
        else:
            text = _(
                "Give the tricks of the three players in the Ramsch; got {given}.",
                given=len(values),
            )
        problems.add(name, text)
        return False
    negative = [i for i, v in enumerate(values) if v < 0]
    for i in negative:
        who = _player_first(i, names)
        if card_points:
            # Translators: {player} is a player's name or "Player 2"; {count} a negative number.
            text = _("{player} cannot have {count} card points.", player=who, count=values[i])
        else:
            # Translators: {player} is a player's name or "Player 2"; {count} a negative number.
            text = _("{player} cannot have {count} tricks.", player=who, count=values[i])
        problems.add(f"{name}.{i}", text)
    if negative:
        return False
    if sum(values) != total:
        if card_points:
            text = _(
                "The card points add up to {counted}, but a deal has {total} (the skat counts "
                "for whoever took the last trick).",
                counted=sum(values),
                total=total,
            )
        else:
            text = _(
                "The tricks add up to {counted}, but a deal has {total}.",
                counted=sum(values),
                total=total,
            )
        problems.add(name, text)
        return False
    return True


def _check_ramsch_piles(
    points: Sequence[int],
    tricks: Sequence[int],
    last_trick: int,
    names: Sequence[str] | None,
    problems: ProblemCollector,
) -> None:
    """Can the cards the players took really hold the card points they counted?"""
    cards = _pile_sizes(tricks, last_trick)
    reachable = reachable_points()
    piles_ok = True
    for i, (n, have) in enumerate(zip(cards, points, strict=True)):
        if have not in reachable[n]:
            piles_ok = False
            problems.add(f"points.{i}", _pile_message(i, tricks[i], n, have, last_trick, names))
    # Each pile may be possible alone while the three together are not (two players
    # who both need three of the four aces, say).
    if piles_ok and not _can_share(cards, tuple(points)):
        piles = [
            # Translators: {player} is a name or "player 2", {points} card points, {cards}
            # how many cards they are in.
            _("{player} {points} in {cards} cards", player=_player(i, names), points=have, cards=n)
            for i, (n, have) in enumerate(zip(cards, points, strict=True))
        ]
        problems.add(
            "points",
            _(
                # Translators: {piles} is e.g. "player 1 40 in 11 cards, player 2 …".
                "The 32 cards cannot be shared out to give these card points with these "
                "tricks ({piles}); please count again.",
                piles=joined(piles),
            ),
        )


def _pile_sizes(tricks: Sequence[int], last_trick: int) -> tuple[int, ...]:
    # Each trick is three cards; the skat's two cards go to whoever took the last trick.
    return tuple(
        CARDS_PER_TRICK * t + (SKAT_CARDS if i == last_trick else 0) for i, t in enumerate(tricks)
    )


def _pile_message(
    player: int, tricks: int, cards: int, have: int, last_trick: int, names: Sequence[str] | None
) -> str:
    sums = reachable_points()[cards]
    if player == last_trick:
        held = ngettext("{n} trick and the skat", "{n} tricks and the skat", tricks, n=tricks)
    else:
        held = ngettext("{n} trick", "{n} tricks", tricks, n=tricks)
    who = _player_first(player, names)
    if have > max(sums):
        return _(
            # Translators: {player} is a name or "Player 2"; {held} e.g. "3 tricks and the
            # skat"; {cards} how many cards that is; {points} the card points counted.
            "{player} took {held}, {cards} cards, which hold at most {most} card points; "
            "got {points}.",
            player=who,
            held=held,
            cards=cards,
            most=max(sums),
            points=have,
        )
    if have < min(sums):
        return _(
            # Translators: {player} is a name or "Player 2"; {held} e.g. "3 tricks and the
            # skat"; {cards} how many cards that is; {points} the card points counted.
            "{player} took {held}, {cards} cards, which hold at least {least} card points; "
            "got {points}.",
            player=who,
            held=held,
            cards=cards,
            least=min(sums),
            points=have,
        )
    return _(
        # Translators: {player} is a name or "Player 2"; {held} e.g. "3 tricks and the skat";
        # {cards} how many cards that is; {points} e.g. "37 card points".
        "{player} took {held}, {cards} cards, and no {cards} Skat cards are worth exactly "
        "{points}.",
        player=who,
        held=held,
        cards=cards,
        points=ngettext("{n} card point", "{n} card points", have, n=have),
    )


def score_ramsch(
    *,
    points: Sequence[int],
    tricks: Sequence[int],
    last_trick: int | None,
    options: RamschOptions | None = None,
    bock: bool = False,
    names: Sequence[str] | None = None,
) -> RamschResult:
    """Score a Ramsch deal from the card points and tricks of the three active players.

    ``points`` already include the skat for the winner of the last trick, so they add
    up to 120; ``tricks`` add up to 10; ``last_trick`` is who took the last trick.
    The score needs it only to settle a tie for most card points under the
    ``last_trick_loses`` rule; ``None`` (not said) is refused only then.
    The explanation and the problems say "player 1/2/3", or the three active players'
    ``names`` when they are given.
    """
    options = options or RamschOptions()
    problems = ProblemCollector()
    names = _check_names(names, RAMSCH_PLAYERS, problems)
    _check_ramsch(points, tricks, last_trick, names, problems)
    problems.raise_if_any()
    top = max(points)
    tied = tuple(i for i, p in enumerate(points) if p == top)
    swept = any(t == TOTAL_TRICKS for t in tricks)
    if last_trick is None and len(tied) > 1 and options.tie == "last_trick_loses" and not swept:
        who = joined([_player_first(tied[0], names), *(_player(i, names) for i in tied[1:])])
        raise RuleError(
            _(
                # Translators: {players} is e.g. "Ana and Ben"; {points} card points.
                "{players} are tied for the most card points, {points}: say who took the last "
                "trick, because by this sheet's tie rule that one loses.",
                players=who,
                points=top,
            ),
            "last_trick",
        )

    piles = join(
        ", ",
        [
            ngettext(
                # Translators: {player} is a name or "player 2"; {points} card points; {n} tricks.
                "{player} {points} card points in {n} trick",
                "{player} {points} card points in {n} tricks",
                t,
                player=_player(i, names),
                points=p,
                n=t,
            )
            for i, (p, t) in enumerate(zip(points, tricks, strict=True))
        ],
    )
    if last_trick is None:
        # Translators: {piles} is e.g. "player 1 40 card points in 3 tricks, player 2 …".
        opening = _("Ramsch: {piles} (the skat counted with the last trick).", piles=piles)
    else:
        opening = _(
            # Translators: {piles} is e.g. "player 1 40 card points in 3 tricks, player 2 …";
            # {player} a name or "player 2".
            "Ramsch: {piles}; {player} took the last trick and with it the skat.",
            piles=piles,
            player=_player(last_trick, names),
        )
    steps = [Step(opening, "skat-ramsch")]
    sweeper = next((i for i, t in enumerate(tricks) if t == TOTAL_TRICKS), None)
    if sweeper is not None:
        return _durchmarsch(sweeper, 2 if bock else 1, steps, names)

    losers = _ramsch_losers(tied, last_trick, options, top, steps, names)
    jungfrau = tuple(i for i, t in enumerate(tricks) if t == 0)
    loss = top
    # Each player without a trick doubles the loss; there can be only one, since two
    # empty-handed players would leave every trick to the third (a Durchmarsch).
    for player in jungfrau:
        loss *= 2
        steps.append(
            Step(
                _(
                    # Translators: {player} is a name or "Player 2".
                    "{player} took no trick (Jungfrau), which doubles the loss to {loss}.",
                    player=_player_first(player, names),
                    loss=loss,
                ),
                "skat-ramsch",
            )
        )
    if bock:
        loss *= 2
        steps.append(
            Step(
                # Translators: {score} is the doubled loss (80) or gain (+240).
                _("A Bock deal counts double: {score}.", score=loss),
                "skat-bock-rounds",
            )
        )
    scores = tuple(-loss if i in losers else 0 for i in range(RAMSCH_PLAYERS))
    shown = join(
        ", ",
        [
            # Translators: a player's name (or "player 2") and what their score changed by.
            _("{player} {score}", player=_player(i, names), score=signed(s))
            for i, s in enumerate(scores)
        ],
    )
    steps.append(Step(_("Scores: {scores}.", scores=shown), "skat-ramsch"))
    return RamschResult(scores, losers, jungfrau, None, tuple(steps))


def _durchmarsch(
    sweeper: int, factor: int, steps: list[Step], names: Sequence[str] | None
) -> RamschResult:
    gain = TOTAL_CARD_POINTS * factor
    steps.append(
        Step(
            _(
                # Translators: {player} is a name or "Player 2"; {score} e.g. +120.
                "{player} took every trick (Durchmarsch) and scores {score}; nobody loses.",
                player=_player_first(sweeper, names),
                score=signed(TOTAL_CARD_POINTS),
            ),
            "skat-ramsch",
        )
    )
    if factor > 1:
        steps.append(
            Step(_("A Bock deal counts double: {score}.", score=signed(gain)), "skat-bock-rounds")
        )
    scores = tuple(gain if i == sweeper else 0 for i in range(RAMSCH_PLAYERS))
    # The two empty-handed players are not Jungfrau here: nobody loses, so there is
    # no loss for them to double.
    return RamschResult(scores, (), (), sweeper, tuple(steps))


def _ramsch_losers(
    tied: tuple[int, ...],
    last_trick: int | None,
    options: RamschOptions,
    top: int,
    steps: list[Step],
    names: Sequence[str] | None,
) -> tuple[int, ...]:
    if len(tied) == 1:
        steps.append(
            Step(
                _(
                    # Translators: {player} is a name or "Player 2"; {points} card points.
                    "{player} has the most card points, {points}, and loses that many.",
                    player=_player_first(tied[0], names),
                    points=top,
                ),
                "skat-ramsch",
            )
        )
        return tied
    who = joined([_player_first(tied[0], names), *(_player(i, names) for i in tied[1:])])
    two = len(tied) == 2
    if options.tie == "all_tied_lose":
        if two:
            text = _(
                # Translators: {players} is e.g. "Ana and Ben"; {points} card points.
                "{players} both have the most card points, {points}, so each of them loses "
                "{points}.",
                players=who,
                points=top,
            )
        else:
            text = _(
                # Translators: {players} is e.g. "Ana, Ben and Cem"; {points} card points.
                "{players} all have the most card points, {points}, so each of them loses "
                "{points}.",
                players=who,
                points=top,
            )
        steps.append(Step(text, "skat-ramsch"))
        return tied
    if last_trick in tied:
        if two:
            text = _(
                # Translators: {players} is e.g. "Ana and Ben"; {player} the one of them who
                # took the last trick (a name or "player 2"); {points} card points.
                "{players} both have the most card points, {points}; by this sheet's tie rule "
                "the one who took the last trick, {player}, loses {points}.",
                players=who,
                points=top,
                player=_player(last_trick, names),
            )
        else:
            text = _(
                # Translators: {players} is e.g. "Ana, Ben and Cem"; {player} the one of them
                # who took the last trick (a name or "player 2"); {points} card points.
                "{players} all have the most card points, {points}; by this sheet's tie rule "
                "the one who took the last trick, {player}, loses {points}.",
                players=who,
                points=top,
                player=_player(last_trick, names),
            )
        steps.append(Step(text, "skat-ramsch"))
        return (last_trick,)
    if two:
        text = _(
            # Translators: {players} is e.g. "Ana and Ben"; {points} card points.
            "{players} both have the most card points, {points}; none of them took the last "
            "trick, so the tie rule cannot pick one and each of them loses {points}.",
            players=who,
            points=top,
        )
    else:
        text = _(
            # Translators: {players} is e.g. "Ana, Ben and Cem"; {points} card points.
            "{players} all have the most card points, {points}; none of them took the last "
            "trick, so the tie rule cannot pick one and each of them loses {points}.",
            players=who,
            points=top,
        )
    steps.append(Step(text, "skat-ramsch"))
    return tied


# ---------------------------------------------------------------------------
# Bock rounds
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class BockTriggers:
    """Which events add a Bock round on this sheet (each chosen per sheet, all off by default)."""

    sixty_all: bool = False
    lost_after_kontra: bool = False
    hundred_or_more: bool = False
    grand_hand_won: bool = False

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, field: str = "options") -> BockTriggers:
        # Translators: what an option accepts; true and false are JSON values, keep them.
        accepted = _("true or false")
        check = {f.name: (_is_bool, accepted) for f in fields(cls)}
        return cls(**_read_options(cls, data, field, check))

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# A deal adds at most one Bock round per trigger.
BOCK_TRIGGERS = len(fields(BockTriggers))


def bock_triggered(
    *,
    triggers: BockTriggers,
    game: str,
    hand: bool,
    won: bool,
    declarer_points: int | None,
    kontra: bool,
    game_value: int,
) -> tuple[Step, ...]:
    """The Bock rounds one played game adds: one step per trigger it hits (empty if none).

    ``game_value`` is the value the game is scored at (after an overbid is raised),
    before a loss is doubled and before Kontra/Re/Bock, as ``skat.py`` reports it.
    ``declarer_points`` is ``None`` when the table did not count card points exactly;
    a 60:60 game cannot be recognised then, and that trigger stays silent. Null games
    have no card points that count, so 60:60 never applies to them.
    """
    problems = ProblemCollector()
    if game not in GAMES:
        problems.add(
            "game",
            _(
                # Translators: {game} is what was sent; {games} the game codes to choose from.
                '"{game}" is not a Skat game; choose one of {games}.',
                game=game,
                games=joined(GAMES),
            ),
        )
    if declarer_points is not None and not 0 <= declarer_points <= TOTAL_CARD_POINTS:
        problems.add(
            "declarer_points",
            _(
                "The declarer's card points are 0 to {total}; got {points}.",
                total=TOTAL_CARD_POINTS,
                points=declarer_points,
            ),
        )
    elif declarer_points is not None and game != "null" and declarer_points <= 60 and won:
        # A suit or grand game needs 61 card points to be won; 60:60 is lost.
        problems.add(
            "won",
            _(
                "With {points} card points the declarer cannot win; 61 are needed (60:60 is lost).",
                points=declarer_points,
            ),
        )
    if not LOWEST_GAME_VALUE <= game_value <= HIGHEST_GAME_VALUE:
        problems.add(
            "game_value",
            _(
                "A game is worth {lowest} to {highest} (before a loss is doubled and before "
                "Kontra, Re or Bock); got {value}.",
                lowest=LOWEST_GAME_VALUE,
                highest=HIGHEST_GAME_VALUE,
                value=game_value,
            ),
        )
    problems.raise_if_any()

    hits: list[str] = []
    if triggers.sixty_all and game != "null" and declarer_points == 60:
        hits.append(
            _(
                "The game ended 60:60, so a Bock round (one deal per seat, every game doubled) "
                "is added."
            )
        )
    if triggers.lost_after_kontra and kontra and not won:
        hits.append(
            _(
                "The declarer lost after the defenders said Kontra, so a Bock round (one deal "
                "per seat, every game doubled) is added."
            )
        )
    if triggers.hundred_or_more and game_value >= BOCK_TRIGGER_LIMIT:
        hits.append(
            _(
                # Translators: {value} is the game's value, {limit} the value that starts a Bock round.
                "The game was worth {value}, {limit} or more, so a Bock round (one deal per "
                "seat, every game doubled) is added.",
                value=game_value,
                limit=BOCK_TRIGGER_LIMIT,
            )
        )
    if triggers.grand_hand_won and game == "grand" and hand and won:
        hits.append(
            _(
                "A Grand Hand was won, so a Bock round (one deal per seat, every game doubled) "
                "is added."
            )
        )
    return tuple(Step(hit, "skat-bock-rounds") for hit in hits)


@dataclass(frozen=True)
class BockEvent:
    """What one deal means for the Bock schedule.

    ``triggers_hit`` is how many Bock rounds the deal adds (one per trigger hit, see
    :func:`bock_triggered`). ``thrown_in`` marks a deal nobody played: it still uses
    up its place in a running Bock round, because a round is one deal per seat and
    the deal passes on as after any deal, and it cannot trigger anything.
    """

    triggers_hit: int
    thrown_in: bool = False


def bock_schedule(*, players: int, events: Sequence[int | BockEvent]) -> tuple[bool, ...]:
    """For each deal in order, whether it is played as a Bock deal.

    ``events`` holds one entry per deal: how many Bock rounds that deal triggers (an
    int, or a :class:`BockEvent`). A Bock round is one deal per seat (3, 4 or 5 deals).
    Rounds queue up: new rounds start after those already waiting, and never before
    the next deal, so a trigger inside a running round lengthens the Bock run.
    To learn whether the next deal will be a Bock deal, add a 0 for it.
    """
    problems = ProblemCollector()
    _check_players(players, problems)
    for i, event in enumerate(events):
        _check_bock_event(event, f"events.{i}", problems)
    problems.raise_if_any()

    waiting = 0  # Bock deals still owed
    schedule: list[bool] = []
    for event in events:
        schedule.append(waiting > 0)
        waiting = _bock_deals_owed_after(waiting, event, players)
    return tuple(schedule)


def bock_deals_owed(*, players: int, owed: int, event: int | BockEvent) -> int:
    """The Bock deals still owed after one more deal, ``owed`` being those owed before it.

    The deal is a Bock deal when ``owed`` is more than 0, and uses one of them up; its
    ``event`` queues its rounds after the rest. Starting from 0 and following the deals
    of :func:`bock_schedule` one at a time, the deals owed are the run of Bock deals
    that schedule gives next, the next deal included.
    """
    problems = ProblemCollector()
    _check_players(players, problems)
    if owed < 0:
        problems.add("owed", _("The Bock deals owed are 0 or more; got {owed}.", owed=owed))
    _check_bock_event(event, "event", problems)
    problems.raise_if_any()
    return _bock_deals_owed_after(owed, event, players)


def _check_bock_event(event: int | BockEvent, where: str, problems: ProblemCollector) -> None:
    limit = BOCK_TRIGGERS
    hit = event.triggers_hit if isinstance(event, BockEvent) else event
    if not 0 <= hit <= limit:
        problems.add(
            where,
            _(
                "A deal adds 0 to {limit} Bock rounds (one per trigger); got {rounds}.",
                limit=limit,
                rounds=hit,
            ),
        )
    elif isinstance(event, BockEvent) and event.thrown_in and hit:
        problems.add(where, _("A thrown-in deal has no game, so it cannot trigger a Bock round."))


def _bock_deals_owed_after(owed: int, event: int | BockEvent, players: int) -> int:
    hit = event.triggers_hit if isinstance(event, BockEvent) else event
    return max(owed - 1, 0) + hit * players
