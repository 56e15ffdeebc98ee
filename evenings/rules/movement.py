"""Who plays with whom, round by round, on a Pitch party night (issue 21).

Pure Python like the referee (no Django): the evening app stores the rounds these
functions return, shows them on the board, on the big screen and on each player's
phone (:func:`seat_line`), and shows their explanations.

Tables and seats
    A round seats the players at tables of four, two teams of two. Table 1 is the
    head table. A table's seats go round it in order, seat 1 to seat 4; partners sit
    across: the first team in seats 1 and 3, the second in seats 2 and 4. Seat 1
    deals first, as at every table of the evening.

Sitting out (rolls that are not a multiple of four)
    :func:`roll_shortfall` says how many players are missing to the next multiple of
    four and how many are over it. When the organiser lets the players over sit out,
    each round they are those who sat out least so far; among equals, those who did
    not sit out in the last round; then the earliest in roll order (the smallest
    ids), as in the seating of an evening. So each round others sit out, and nobody
    sits out a second time while someone present has not sat out once.

The progressive movement (any number of players)
    Round 1 is drawn by lot exactly like the seating of a series (seating.py: the
    roll by id, those sitting out taken off first, the rest shuffled by SHA-256
    Fisher–Yates with the seed), filling the tables in number order, seat by seat:
    the first four drawn are table 1's seats 1–4, so seats 1 and 3 against 2 and 4.

    After each round every table reports its winning team; a round that ended level
    (a time limit) has a winner too: the organiser says which team won, and a table
    without a winner is refused. Then:

    * at every table but the head table the winners move up one table and the
      losers stay;
    * at the head table the winners stay and the losers go to the last table;
    * with a single table both teams stay.

    So each table has two players who stayed and two who arrived, and there the two
    pairs split: each player who stayed partners one who arrived. Of the three ways
    to make two teams of four players, the one taken is, in this order,

    1. the one with the fewest pairs who were partners in the last round (there is
       always one with none, so no two players ever partner twice in a row: the
       pairs of the last round at a table are at most two, and then they make one
       of the three ways);
    2. then the one in which each player who stayed partners one who arrived;
    3. then the one repeating the fewest partnerships of the night so far (every
       earlier round counts, each time a pair partnered counting once);
    4. then the one whose pairs last partnered longest ago;
    5. then the first stayer partners the first arrival, else the second arrival.

    "First" is the order of the places at the table: the two who stayed, then the
    two who arrived, each pair in its order in its team of the last round. The first
    who stayed takes seat 1 and the partner chosen for them seat 3; the other team
    sits in seats 2 and 4, in the same order. At a single table the winners count as
    the ones who stayed and the losers as the ones who arrived, so the three
    partnerships of its four players come round in turn (rules 1 and 4).

    Sitting out, leaving, arriving: the movement is worked out for everyone who
    played the last round. Then the places of this round's sitters-out, and of
    players no longer on the roll, are empty; they are filled, table by table and
    place by place, by those coming in: first the players who sat out the last round
    (by id), then the players of any tables that close because the roll shrank (the
    highest-numbered tables close), then players new on the roll (by id). When the
    roll has grown, new tables are added after the last one and filled the same way.
    The pairs are then made as above, by the places (a player taking a place that
    stayed counts as one who stayed).

The rotation (4 to 16 players)
    A fixed schedule, found by a computer search and checked by the tests, with the
    most rounds in which no two players partner twice:

    * 4, 8, 12 or 16 players: a whist tournament of n − 1 rounds in which every
      player partners every other player exactly once and meets each as an opponent
      exactly twice (cyclic designs over the integers mod n − 1 and a fixed point);
    * 5, 9 or 13 players: a whist tournament of n rounds in which each player sits
      out once and partners every other player exactly once, meeting each as an
      opponent exactly twice (cyclic over the integers mod n; for 9, over pairs of
      integers mod 3);
    * 6, 7, 10, 11, 14 or 15 players: as many rounds as partnering at most once and
      sitting out in turn allow: 7, 10, 11, 13, 15 and 17 rounds (in one round more
      a player who sat out least would play more rounds than there are others to
      partner). Every two players meet as opponents once, twice or three times;
      three times only 2, 1, 4, 1, 6 and 3 pairs. For 6 and 7 players a complete
      search showed that no schedule does with fewer (while every two players meet
      at least once). For the others the partnerships come from cyclic designs
      over the integers mod n (for 14 players: two base rounds on two rings of
      seven), in an order in which the players sit out in turn, and one or two
      rounds more of partnerships left over; which pairs meet at a table is the
      best the search found.

    More players use the progressive movement. The schedule's places are given to
    the players as in the draw of round 1: those who sit out in round 1 are the first
    on the roll (the smallest ids), and the others, by id, are shuffled with the seed
    (seating's draw); without a seed they keep roll order. So round 1 of a rotation
    with a seed is the progressive movement's first round with that seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from games.rules.errors import ProblemCollector, RuleError, Step
from games.rules.text import Text, _, ngettext
from games.rules.words import capitalised

from .seating import _check_roll, _everyone, _is_int, _lot_step, _who, shuffled, try_key

RULE_SECTIONS = {
    "evening-movement": _("Moving between rounds"),
    "evening-rotation": _("The rotation"),
}

MOVEMENTS = ("progressive", "rotation")
TABLE_SIZE = 4
ROTATION_PLAYERS = (4, 16)

# The rotations, by number of players. Each round is written as its tables, each
# table as its four seats (seat 1 to seat 4, partners across: seats 1 and 3 against
# seats 2 and 4), each seat as the place in the schedule in hexadecimal (0 … f).
# The places missing from a round sit out. Found by the search described in the
# module docstring (tests/evenings_rules/test_movement.py checks every property).
ROTATIONS: dict[int, tuple[str, ...]] = {
    4: ("0123", "0213", "0132"),
    5: ("1234", "0324", "0134", "0213", "0142"),
    6: ("2345", "0135", "0124", "1435", "0245", "0213", "1324"),
    7: ("3456", "0216", "1425", "0346", "0235", "1263", "0154", "0324", "0165", "2546"),
    8: ("0123 4567", "0374 1265", "0264 1375", "0257 1346", "0617 2435", "0536 1427", "0145 2367"),
    9: (
        "1234 5678",
        "0538 2476",
        "0617 2485",
        "0546 1378",
        "0374 1286",
        "0184 2357",
        "0728 1365",
        "0263 1457",
        "0152 3468",
    ),
    10: (
        "2345 6789",
        "0219 4758",
        "0427 1356",
        "0146 2839",
        "0368 1597",
        "0576 1439",
        "0359 2486",
        "0187 2569",
        "1285 3647",
        "0498 1327",
        "0538 1649",
    ),
    11: (
        "3456 789a",
        "0697 142a",
        "0548 1293",
        "063a 2758",
        "16a8 3479",
        "0259 1487",
        "051a 2386",
        "1649 237a",
        "0389 576a",
        "0264 1358",
        "0127 495a",
        "0173 2869",
        "04a8 1567",
    ),
    12: (
        "0123 4567 89ab",
        "01a5 269b 3487",
        "0819 234a 56b7",
        "0a5b 1278 3649",
        "0739 1586 24ba",
        "0468 172b 359a",
        "03b7 1495 26a8",
        "048b 13a6 2579",
        "067a 14b9 2538",
        "0245 136b 798a",
        "0296 174a 385b",
    ),
    13: (
        "1234 5678 9abc",
        "023c 486a 57b9",
        "017b 28ac 3469",
        "0367 15ac 249b",
        "0385 1a4b 297c",
        "072a 186b 35c9",
        "02b8 137a 465c",
        "0849 16c7 35ba",
        "045a 1296 3b8c",
        "06cb 1389 2457",
        "041c 25b6 798a",
        "0195 263a 478c",
        "06a9 1528 374b",
    ),
    14: (
        "2345 6789 abcd",
        "084c 1a5b 376d",
        "09cd 174a 283b",
        "06b7 13c9 2485",
        "012a 36db 5879",
        "04a7 15db 296c",
        "04d9 123c 568a",
        "29ab 3546 7c8d",
        "065c 14b8 3a7d",
        "039b 147c 28da",
        "0275 1398 4b6c",
        "038a 162d 579b",
        "051d 27bc 46a9",
        "0168 249d 35ca",
        "1267 48bd 59ca",
    ),
    15: (
        "3456 789a bcde",
        "035a 14ed 2679",
        "02ca 178e 469b",
        "0c1d 23e7 458b",
        "0189 23d6 5bac",
        "1a6e 39dc 47b8",
        "046e 125b 8a9c",
        "02a6 183b 597d",
        "072b 368c 4d5e",
        "074c 12d3 59ea",
        "0194 68ec 7adb",
        "057d 13a4 2bce",
        "06d8 1529 37ea",
        "285e 34c7 69db",
        "0538 16ba 249c",
        "157c 284d 39be",
        "03e9 15c6 2a8d",
    ),
    16: (
        "0123 4567 89ab cdef",
        "028b 14a7 36df 59ec",
        "05f6 13db 298a 47ce",
        "03b4 1aed 286f 579c",
        "0658 142e 37cb 9adf",
        "0b4c 186e 27fa 359d",
        "01d5 264e 3879 acbf",
        "04ad 158c 2b7f 396e",
        "0a6c 15bf 24d9 37e8",
        "0a3e 18fc 275d 46b9",
        "087d 194f 25eb 36ac",
        "07ef 169b 23a5 4c8d",
        "0719 26cd 348f 5bae",
        "0e9f 12c3 45a8 6b7d",
        "02c9 167a 34f5 8dbe",
    ),
}


# ---------------------------------------------------------------------------
# Rounds and their tables
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundTable:
    """One table of a round: two teams of two, the first team in seats 1 and 3, the
    second in seats 2 and 4 (partners sit across)."""

    number: int
    teams: tuple[tuple[int, int], tuple[int, int]]

    @classmethod
    def in_seat_order(cls, number: int, seats: Sequence[int]) -> RoundTable:
        """The table whose seats 1 to 4 are ``seats``: partners across, seats 1 and 3
        against seats 2 and 4 (a Pitch sheet's teams A and B)."""
        a, b, c, d = seats
        return cls(number, ((a, c), (b, d)))

    @property
    def seats(self) -> tuple[int, int, int, int]:
        """The players in seat order, seat 1 first (seat 1 deals first)."""
        (a, c), (b, d) = self.teams
        return (a, b, c, d)

    @property
    def players(self) -> tuple[int, int, int, int]:
        return self.seats

    def team_of(self, player: int) -> int | None:
        """0 or 1: the index of ``player``'s team, ``None`` when not at this table."""
        for index, team in enumerate(self.teams):
            if player in team:
                return index
        return None

    def partner_of(self, player: int) -> int:
        team = self.teams[self._index(player)]
        return team[1] if team[0] == player else team[0]

    def opponents_of(self, player: int) -> tuple[int, int]:
        return self.teams[1 - self._index(player)]

    def _index(self, player: int) -> int:
        index = self.team_of(player)
        if index is None:
            raise KeyError(player)
        return index

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "teams": [list(team) for team in self.teams],
            "seats": list(self.seats),
        }


@dataclass(frozen=True)
class Round:
    """A round of a Pitch night: its tables (table 1, the head table, first) and the
    players who sit it out (by id)."""

    number: int
    tables: tuple[RoundTable, ...]
    sitting_out: tuple[int, ...] = ()
    explanation: tuple[Step, ...] = field(default=(), compare=False)

    @property
    def players(self) -> tuple[int, ...]:
        """Everyone seated, table by table, seat by seat."""
        return tuple(p for table in self.tables for p in table.seats)

    @property
    def present(self) -> tuple[int, ...]:
        """Everyone in the round: seated or sitting out, by id."""
        return tuple(sorted((*self.players, *self.sitting_out)))

    def table_of(self, player: int) -> RoundTable | None:
        """The table ``player`` sits at, or ``None`` (sitting out, or not there)."""
        for table in self.tables:
            if player in table.seats:
                return table
        return None

    def partnerships(self) -> frozenset[frozenset[int]]:
        """Every pair of partners of the round."""
        return frozenset(frozenset(team) for table in self.tables for team in table.teams)

    def as_dict(self) -> dict[str, Any]:
        """The round as the API writes it."""
        return {
            "number": self.number,
            "tables": [table.as_dict() for table in self.tables],
            "sitting_out": list(self.sitting_out),
        }


# ---------------------------------------------------------------------------
# Checking input
# ---------------------------------------------------------------------------


def _check_count(count: int, problems: ProblemCollector, field: str = "players") -> None:
    if count < TABLE_SIZE:
        problems.add(
            field,
            ngettext(
                "A Pitch table needs 4 players; the roll has {n} player.",
                "A Pitch table needs 4 players; the roll has {n} players.",
                count,
                n=count,
            ),
        )


def _check_seed(seed: object, problems: ProblemCollector, *, needed: bool) -> None:
    if seed is None:
        if needed:
            problems.add("seed", _("A draw by lot needs a seed."))
    elif not _is_int(seed) or seed < 0:
        problems.add("seed", _("The seed is a whole number, 0 or more."))


def _well_formed(round_: object) -> bool:
    """A :class:`Round` whose tables are numbered 1, 2, … and seat every player once
    in two teams of two (a round this module made always is)."""
    if not isinstance(round_, Round) or not _is_int(round_.number):
        return False
    if not isinstance(round_.tables, tuple) or not isinstance(round_.sitting_out, tuple):
        return False
    everyone: list[object] = list(round_.sitting_out)
    for number, table in enumerate(round_.tables, start=1):
        if not isinstance(table, RoundTable) or table.number != number:
            return False
        teams = table.teams
        if not isinstance(teams, tuple) or len(teams) != 2:
            return False
        if any(not isinstance(team, tuple) or len(team) != 2 for team in teams):
            return False
        everyone.extend(p for team in teams for p in team)
    return all(_is_int(p) for p in everyone) and len(set(everyone)) == len(everyone)


# ---------------------------------------------------------------------------
# Sitting out
# ---------------------------------------------------------------------------


def roll_shortfall(count: int) -> tuple[int, int]:
    """``(missing, over)``: how many players are missing to the next multiple of
    four, and how many are over the last one (``(0, 0)`` when the roll fills its
    tables; 10 players: ``(2, 2)``). ``RuleError`` below 4 players."""
    problems = ProblemCollector()
    if not _is_int(count) or count < 0:
        problems.add("players", _("The number of players is a whole number, 0 or more."))
    else:
        _check_count(count, problems)
    problems.raise_if_any()
    return (-count % TABLE_SIZE, count % TABLE_SIZE)


def sat_out_counts(rounds: Iterable[Round]) -> dict[int, int]:
    """How often each player sat out in ``rounds`` (players who never did: absent)."""
    counts: dict[int, int] = {}
    for round_ in rounds:
        for player in round_.sitting_out:
            counts[player] = counts.get(player, 0) + 1
    return counts


def sitting_out(
    roll: Sequence[int],
    sat_out: Mapping[int, int] | None = None,
    last_out: Iterable[int] = (),
) -> tuple[int, ...]:
    """Who sits out the next round (by id): the players over a multiple of four,
    those who sat out least so far (``sat_out``: how often each did), among equals
    those not in ``last_out`` (who sat out the last round), then the smallest ids.
    ``()`` when the roll fills its tables; ``RuleError`` for a bad roll."""
    problems = ProblemCollector()
    players = _check_roll(roll, problems)
    if not problems:
        _check_count(len(players), problems)
    if sat_out is not None and (
        not isinstance(sat_out, Mapping) or any(not _is_int(n) or n < 0 for n in sat_out.values())
    ):
        problems.add(
            "sat_out",
            _("How often each player sat out is a whole number, 0 or more, per player."),
        )
    if isinstance(last_out, (str, bytes)) or not isinstance(last_out, Iterable):
        problems.add("last_out", _("The roll is a list of player ids."))
    problems.raise_if_any()
    return _sitting_out(players, sat_out or {}, set(last_out))


def _sitting_out(
    players: Sequence[int], sat_out: Mapping[int, int], last_out: set[int]
) -> tuple[int, ...]:
    over = len(players) % TABLE_SIZE
    ranked = sorted(players, key=lambda p: (sat_out.get(p, 0), p in last_out, p))
    return tuple(sorted(ranked[:over]))


# ---------------------------------------------------------------------------
# The progressive movement
# ---------------------------------------------------------------------------


def first_round(roll: Sequence[int], seed: int, *, names: Mapping[int, str] | None = None) -> Round:
    """Round 1 of the progressive movement: drawn by lot with ``seed`` like a series
    of the evening (module docstring), the players over a multiple of four sitting
    out (the smallest ids: nobody has sat out yet)."""
    problems = ProblemCollector()
    players = _check_roll(roll, problems)
    if not problems:
        _check_count(len(players), problems)
    _check_seed(seed, problems, needed=True)
    problems.raise_if_any()

    out = _sitting_out(players, {}, set())
    playing = [p for p in players if p not in out]
    order = shuffled(playing, try_key(seed, 0))
    tables = tuple(RoundTable.in_seat_order(n, order[4 * (n - 1) : 4 * n]) for n in _numbers(order))
    steps = [_tables_step(len(tables))]
    if out:
        steps.append(
            Step(
                ngettext(
                    "{players} sits out round 1: the first on the roll, by number; the "
                    "others take their turn in the next rounds.",
                    "{players} sit out round 1: the first on the roll, by number; the "
                    "others take their turn in the next rounds.",
                    len(out),
                    players=capitalised(_everyone(out, names)),
                ),
                "evening-tables",
            )
        )
    steps.append(_lot_step(seed, 0))
    steps.append(_seats_step())
    return Round(1, tables, out, tuple(steps))


def _numbers(seated: Sequence[int]) -> range:
    return range(1, len(seated) // TABLE_SIZE + 1)


@dataclass
class _Place:
    """A place at a table of the next round, before the pairs are made."""

    player: int | None
    stayed: bool
    was: int | None = None  # who the movement put here, when someone else takes it


def next_progressive_round(
    previous: Round,
    winners: Mapping[int, int],
    *,
    history: Iterable[Round] = (),
    roll: Sequence[int] | None = None,
    names: Mapping[int, str] | None = None,
) -> Round:
    """The round after ``previous`` in the progressive movement (module docstring).

    ``winners`` maps each table number of ``previous`` to its winning team: 0 for
    its first team, 1 for its second (a round that ended level needs the
    organiser's choice). ``history`` is the night's rounds so far (those numbered
    before ``previous`` are read; ``previous`` itself may be among them or not):
    earlier partnerships and sit-outs count. ``roll`` is who plays the next round
    (by default everyone in ``previous``); players may have left or arrived.
    ``names`` only words the explanation. ``RuleError`` carries every problem.
    """
    problems = ProblemCollector()
    if not _well_formed(previous):
        problems.add("previous", _("Give the round just played to seat the next one."))
        problems.raise_if_any()
    earlier: list[Round] = []
    if isinstance(history, (str, bytes)) or not isinstance(history, Iterable):
        problems.add("history", _("The night's earlier rounds are a list of rounds."))
    else:
        earlier = list(history)
        if not all(_well_formed(r) for r in earlier):
            problems.add("history", _("The night's earlier rounds are a list of rounds."))
    won = _check_winners(previous, winners, problems)
    present = _check_roll(previous.present if roll is None else roll, problems)
    if not problems:
        _check_count(len(present), problems)
    problems.raise_if_any()

    night = sorted((r for r in earlier if r.number < previous.number), key=lambda r: r.number)
    night.append(previous)
    partnered: dict[frozenset[int], list[int]] = {}
    for round_ in night:
        for pair in round_.partnerships():
            partnered.setdefault(pair, []).append(round_.number)
    last = previous.partnerships()
    out = _sitting_out(present, sat_out_counts(night), set(previous.sitting_out))
    here = set(present)
    playing = here - set(out)

    steps: list[Step] = []
    places, move_steps = _moved(previous, won, names)
    steps.extend(move_steps)
    steps.append(_tables_step(len(playing) // TABLE_SIZE))
    if out:
        steps.append(_sit_out_step(out, names))

    # Empty the places of those who sit out or left; close or open tables.
    closing: list[int] = []
    for index, table in enumerate(places):
        for place in table:
            if place.player is not None and place.player not in playing:
                place.was, place.player = place.player, None
        if index >= len(playing) // TABLE_SIZE:
            closing.extend(place.player for place in table if place.player is not None)
    count = len(playing) // TABLE_SIZE
    places = places[:count]
    while len(places) < count:
        places.append([_Place(None, stayed=i < 2) for i in range(TABLE_SIZE)])
    seated_before = set(previous.players)
    coming = [p for p in sorted(previous.sitting_out) if p in playing]
    coming += closing
    coming += sorted(p for p in playing if p not in seated_before and p not in coming)
    for number, table in enumerate(places, start=1):
        for place in table:
            if place.player is None:
                place.player = coming.pop(0)
                steps.append(_place_step(place, number, names))
    assert not coming

    tables = []
    for number, table in enumerate(places, start=1):
        order = [place.player for place in table]
        assert all(p is not None for p in order)
        stayed = [place.stayed for place in table]
        teams = _pairs(order, stayed, last, partnered)
        tables.append(RoundTable(number, teams))
        steps.append(_split_step(number, teams, partnered, names))
    return Round(previous.number + 1, tuple(tables), out, tuple(steps))


def _check_winners(previous: Round, winners: object, problems: ProblemCollector) -> list[int]:
    numbers = [table.number for table in previous.tables]
    if not isinstance(winners, Mapping):
        problems.add(
            "winners",
            _(
                "The winners are given table by table: the table's number, and 0 for "
                "its first team or 1 for its second."
            ),
        )
        return []
    for key in winners:
        if not _is_int(key) or key not in numbers:
            problems.add(
                f"winners.{key}",
                _(
                    "Round {round} has no table {table}.",
                    round=previous.number,
                    table=str(key),
                ),
            )
    won = []
    for number in numbers:
        where = f"winners.{number}"
        if number not in winners:
            problems.add(
                where,
                _(
                    "Table {table} has no winner. A round that ended level needs the "
                    "organiser to say which team won.",
                    table=number,
                ),
            )
            continue
        team = winners[number]
        if not _is_int(team) or team not in (0, 1):
            problems.add(
                where,
                _(
                    "The winners at table {table} are team 0 (the first) or team 1 "
                    "(the second), not {got}.",
                    table=number,
                    got=str(team),
                ),
            )
            continue
        won.append(team)
    return won


def _moved(
    previous: Round, won: Sequence[int], names: Mapping[int, str] | None
) -> tuple[list[list[_Place]], list[Step]]:
    """Each table's four places after the movement (the two who stayed, then the two
    who arrived), and the steps saying who moved where."""
    count = len(previous.tables)
    stay: list[tuple[int, int]] = [(0, 0)] * count
    arrive: list[tuple[int, int]] = [(0, 0)] * count
    steps = []
    for index, (table, win) in enumerate(zip(previous.tables, won, strict=True)):
        winners, losers = table.teams[win], table.teams[1 - win]
        if count == 1:
            stay[0], arrive[0] = winners, losers
            steps.append(
                Step(
                    _("With one table both teams stay at it, and the partners change."),
                    "evening-movement",
                )
            )
        elif index == 0:
            stay[0], arrive[count - 1] = winners, losers
            steps.append(
                Step(
                    _(
                        "The head table's winners, {players}, stay at it.",
                        players=_everyone(winners, names),
                    ),
                    "evening-movement",
                )
            )
            steps.append(
                Step(
                    _(
                        "The head table's losers, {players}, go to the last table, table {to}.",
                        players=_everyone(losers, names),
                        to=count,
                    ),
                    "evening-movement",
                )
            )
        else:
            arrive[index - 1], stay[index] = winners, losers
            steps.append(
                Step(
                    _(
                        "Table {table}'s winners, {players}, move up to table {to}.",
                        table=table.number,
                        players=_everyone(winners, names),
                        to=table.number - 1,
                    ),
                    "evening-movement",
                )
            )
            steps.append(
                Step(
                    _(
                        "Table {table}'s losers, {players}, stay at it.",
                        table=table.number,
                        players=_everyone(losers, names),
                    ),
                    "evening-movement",
                )
            )
    places = [
        [_Place(p, stayed=True) for p in stay[i]] + [_Place(p, stayed=False) for p in arrive[i]]
        for i in range(count)
    ]
    return places, steps


def _pairs(
    order: Sequence[int],
    stayed: Sequence[bool],
    last: frozenset[frozenset[int]],
    partnered: Mapping[frozenset[int], Sequence[int]],
) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two teams of a table's four places (module docstring, rules 1–5)."""
    p0, p1, p2, p3 = order
    ways = (((p0, p2), (p1, p3)), ((p0, p3), (p1, p2)), ((p0, p1), (p2, p3)))
    where = dict(zip(order, stayed, strict=True))

    def rank(index: int) -> tuple[int, bool, int, int, int]:
        teams = [frozenset(team) for team in ways[index]]
        return (
            sum(team in last for team in teams),
            any(where[a] == where[b] for a, b in ways[index]),
            sum(len(partnered.get(team, ())) for team in teams),
            max(max(partnered.get(team, (0,))) for team in teams),
            index,
        )

    return ways[min(range(len(ways)), key=rank)]


def swapped(
    round_: Round, first: int, second: int, *, names: Mapping[int, str] | None = None
) -> Round:
    """The round after the organiser swapped two of its players before it started (the
    swap the board offers, as ``seating.swap`` makes it): each takes the other's place,
    at a table or sitting out, and the explanation says so after the movement's own."""

    def moved(player: int) -> int:
        return second if player == first else first if player == second else player

    tables = tuple(
        RoundTable(
            table.number,
            (
                (moved(table.teams[0][0]), moved(table.teams[0][1])),
                (moved(table.teams[1][0]), moved(table.teams[1][1])),
            ),
        )
        for table in round_.tables
    )
    step = Step(
        _(
            "Before round {round} started, {first} and {second} swapped places.",
            round=round_.number,
            first=capitalised(_who(first, names)),
            second=_who(second, names),
        ),
        "evening-draw",
    )
    return Round(
        round_.number,
        tables,
        tuple(sorted(moved(player) for player in round_.sitting_out)),
        (*round_.explanation, step),
    )


def _tables_step(count: int) -> Step:
    return Step(
        ngettext(
            "Pitch is played at tables of four: {n} table.",
            "Pitch is played at tables of four: {n} tables.",
            count,
            n=count,
        ),
        "evening-tables",
    )


def _sit_out_step(out: Sequence[int], names: Mapping[int, str] | None) -> Step:
    return Step(
        ngettext(
            "{players} sits out this round: the player who sat out least so far (among "
            "equals, one who did not sit out the last round, then by number).",
            "{players} sit out this round: the players who sat out least so far (among "
            "equals, those who did not sit out the last round, then by number).",
            len(out),
            players=capitalised(_everyone(out, names)),
        ),
        "evening-tables",
    )


def _seats_step() -> Step:
    return Step(
        _(
            "Partners sit across the table: seats 1 and 3 play against seats 2 and 4. "
            "Seat 1 deals first."
        ),
        "evening-movement",
    )


def _place_step(place: _Place, table: int, names: Mapping[int, str] | None) -> Step:
    assert place.player is not None
    if place.was is None:
        text = _(
            "{player} takes a free place at table {table}.",
            player=capitalised(_who(place.player, names)),
            table=table,
        )
    else:
        text = _(
            "{player} takes the place of {other} at table {table}.",
            player=capitalised(_who(place.player, names)),
            other=_who(place.was, names),
            table=table,
        )
    return Step(text, "evening-movement")


def _split_step(
    table: int,
    teams: tuple[tuple[int, int], tuple[int, int]],
    partnered: Mapping[frozenset[int], Sequence[int]],
    names: Mapping[int, str] | None,
) -> Step:
    again = sum(1 for team in teams if frozenset(team) in partnered)
    first, second = (_everyone(team, names) for team in teams)
    if again == 0:
        text = _(
            "Table {table}: {first} against {second}; nobody partners a player they "
            "have partnered tonight.",
            table=table,
            first=first,
            second=second,
        )
    else:
        text = ngettext(
            "Table {table}: {first} against {second}; {n} pair partners again tonight, "
            "but not twice in a row.",
            "Table {table}: {first} against {second}; {n} pairs partner again tonight, "
            "but none twice in a row.",
            again,
            table=table,
            first=first,
            second=second,
            n=again,
        )
    return Step(text, "evening-movement")


# ---------------------------------------------------------------------------
# The rotation
# ---------------------------------------------------------------------------


def _design(count: int) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """The rotation for ``count`` players: per round, per table, the four seats as
    places in the schedule."""
    return tuple(
        tuple(tuple(int(seat, 16) for seat in table) for table in line.split())
        for line in ROTATIONS[count]
    )


def rotation_length(count: int) -> int:
    """How many rounds the rotation for ``count`` players (4 to 16) has."""
    problems = ProblemCollector()
    _check_rotation_count(count, problems)
    problems.raise_if_any()
    return len(ROTATIONS[count])


def _check_rotation_count(count: object, problems: ProblemCollector) -> bool:
    if not _is_int(count) or count < 0:
        problems.add("players", _("The number of players is a whole number, 0 or more."))
        return False
    assert isinstance(count, int)
    if count < TABLE_SIZE:
        _check_count(count, problems)
        return False
    if count > ROTATION_PLAYERS[1]:
        problems.add(
            "players",
            _(
                "The rotation is for 4 to 16 players; with {n} players use the "
                "progressive movement.",
                n=count,
            ),
        )
        return False
    return True


def rotation_schedule(
    players: Sequence[int],
    rounds: int | None = None,
    *,
    seed: int | None = None,
    names: Mapping[int, str] | None = None,
) -> tuple[Round, ...]:
    """The rotation for ``players`` (4 to 16 ids; module docstring): all its rounds,
    or the first ``rounds``. With ``seed`` the players take their places by lot
    (round 1 is then :func:`first_round` with that seed), otherwise in roll order.
    ``RuleError`` carries every problem."""
    problems = ProblemCollector()
    roll = _check_roll(players, problems)
    count_ok = not problems and _check_rotation_count(len(roll), problems)
    _check_seed(seed, problems, needed=False)
    length = len(ROTATIONS[len(roll)]) if count_ok else None
    if rounds is not None:
        if not _is_int(rounds) or rounds < 1:
            problems.add("rounds", _("The number of rounds is a whole number, 1 or more."))
        elif length is not None and rounds > length:
            problems.add(
                "rounds",
                ngettext(
                    "The rotation for {players} players has {n} round; it cannot be longer.",
                    "The rotation for {players} players has {n} rounds; it cannot be longer.",
                    length,
                    players=len(roll),
                    n=length,
                ),
            )
    problems.raise_if_any()
    assert length is not None

    count = len(roll)
    over = count % TABLE_SIZE
    rest = roll[over:]
    place = [*roll[:over], *(shuffled(rest, try_key(seed, 0)) if seed is not None else rest)]
    summary = _rotation_step(count, length)
    if seed is None:
        placed = _("The players take their places in the schedule in roll order.")
    else:
        placed = _(
            "The players take their places in the schedule by lot with seed {seed}, "
            "as in the draw of round 1; those who sit out in round 1 are the first on "
            "the roll.",
            seed=str(seed),
        )
    schedule = []
    for number, design in enumerate(_design(count)[: rounds or length], start=1):
        tables = tuple(
            RoundTable.in_seat_order(t, [place[s] for s in seats])
            for t, seats in enumerate(design, start=1)
        )
        seated = {p for table in tables for p in table.seats}
        out = tuple(sorted(p for p in roll if p not in seated))
        steps = [summary, Step(placed, "evening-rotation")]
        if out:
            steps.append(
                Step(
                    ngettext(
                        "{players} sits out this round; in the rotation everyone sits out in turn.",
                        "{players} sit out this round; in the rotation everyone sits out in turn.",
                        len(out),
                        players=capitalised(_everyone(out, names)),
                    ),
                    "evening-rotation",
                )
            )
        steps.append(_seats_step())
        schedule.append(Round(number, tables, out, tuple(steps)))
    return tuple(schedule)


def _rotation_step(count: int, length: int) -> Step:
    if count % TABLE_SIZE == 0:
        text = _(
            "The rotation for {n} players has {rounds} rounds: every player partners "
            "every other player once and meets each as an opponent twice.",
            n=count,
            rounds=length,
        )
    elif count % TABLE_SIZE == 1:
        text = _(
            "The rotation for {n} players has {rounds} rounds: every player sits out "
            "once, partners every other player once and meets each as an opponent twice.",
            n=count,
            rounds=length,
        )
    else:
        text = _(
            "The rotation for {n} players has {rounds} rounds: no two players partner "
            "twice, the players sit out in turn, and every two players meet as "
            "opponents once to three times.",
            n=count,
            rounds=length,
        )
    return Step(text, "evening-rotation")


# ---------------------------------------------------------------------------
# A player's line
# ---------------------------------------------------------------------------


def seat_line(round_: Round, player: int, names: Mapping[int, str] | None = None) -> Text:
    """Where ``player`` plays in ``round_``, for the board and their phone: "Round 3:
    table 2, with Ana against Ben and Cem", or "Round 3: you sit out". ``RuleError``
    for a player not in the round."""
    if player in round_.sitting_out:
        return _("Round {round}: you sit out", round=round_.number)
    table = round_.table_of(player)
    if table is None:
        raise RuleError(
            _(
                "{player} does not play in round {round}.",
                player=capitalised(_who(player, names) if _is_int(player) else str(player)),
                round=round_.number,
            ),
            "player",
        )
    first, second = table.opponents_of(player)
    return _(
        "Round {round}: table {table}, with {partner} against {first} and {second}",
        round=round_.number,
        table=table.number,
        partner=_who(table.partner_of(player), names),
        first=_who(first, names),
        second=_who(second, names),
    )
