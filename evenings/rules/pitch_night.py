"""The ranking and the statistics of a Pitch party night (issue 21, "Pitch party nights").

Pure Python like the referee (no Django). The evening app gives the night's rounds
(:mod:`evenings.rules.movement`: who sat at which table in which team, who sat out)
and each table's two team scores of each round, and shows what comes back.

Round scores
    ``scores[round][table]`` is ``(score of team 0, score of team 1)``: the two teams of
    that table as :class:`~evenings.rules.movement.RoundTable` lists them (team 0 in
    seats 1 and 3). Every table of every round has exactly two whole-number scores
    (a Pitch score may be below 0 after a set); a round or table that is not in the
    night is refused.

The two ways of counting (the organiser's choice, ``mode``)
    * ``"points"``: a player's round counts their team's score at their table.
    * ``"match_points"``: as duplicate events count, every team's score of the round
      is compared with every other team's score of that round, at every table: one
      match point for each team it outscored, a half for each tie. Each pair of teams
      so shares exactly one point, and a round of t teams hands out t(t − 1)/2. Both
      partners score their team's match points.

Sitting out
    A player who sits out a round scores that round's average: what the players who
    played it counted (points or match points, by the mode), added up, divided by
    how many they were. It is kept exact, as a fraction (``fractions.Fraction``),
    never rounded; it is shown as a whole number, a mixed number with a half, a third
    or a quarter sign (``12½``, ``−3¼``, ``⅔``), or else with a slash (``12 3/8``).
    In match points the average is always (t − 1)/2 for t teams, a whole or a half.
    Sitting out is neither a round won nor points against.

The ranking
    A player's total is the sum of their rounds. Ahead is the higher total, then more
    rounds won (the player's team outscored the other team at its table; a level
    table is won by neither), then fewer points against (the other team's scores at
    the player's tables added up); else the place is shared (1, 1, 3). Every row
    explains each round, its total and any tie. Every player in some round has a
    row; rounds a player was not in (not yet arrived, or gone) count nothing.

Statistics (:func:`player_statistics`)
    From the night's hands (:class:`NightHand`, one per hand as its table's sheet
    recorded it), per player: the bids they won as pitcher, made and set, by size
    (4 to 9); moons (the referee's ``"moon"`` bid, all ten points: shooting the moon)
    tried and made, counted apart from the sizes; and per partner the rounds played
    together, the rounds won together and the points scored together. A round's
    score at a table is its hands' score changes added up (each table's sheet starts
    at 0), and a pair won the round when its team's was the higher.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from games.rules.errors import ProblemCollector, Step
from games.rules.pitch import HIGHEST_BID, LOWEST_BID, MOON
from games.rules.text import Text, _
from games.rules.words import capitalised, exact, joined, number

from .movement import Round, RoundTable, _well_formed
from .ranking import Ranking, RankingRow, SeriesLine, match_points, shared_places
from .seating import _is_int, _who

MODES = ("points", "match_points")
RULE = "evening-ranking"  # the rule book's section of the evening's ranking (ranking.py)

__all__ = [
    "MODES",
    "BidCount",
    "NightHand",
    "NightLine",
    "NightRanking",
    "NightRow",
    "PartnerLine",
    "PlayerStatistics",
    "evening_ranking",
    "night_ranking",
    "player_statistics",
    "shown",
]


# ---------------------------------------------------------------------------
# Showing fractions
# ---------------------------------------------------------------------------


def shown(value: Fraction | int) -> Text | str:
    """``12``, ``1½``, ``½``, ``−3¼``, ``12 3/8``: an exact score, the whole part in
    the reader's way (games.rules.words.exact)."""
    return exact(value)


# ---------------------------------------------------------------------------
# The ranking
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class NightLine:
    """A player's round: the table (``None`` when sitting out), the partner, the team's
    score and the other team's, whether the team won the table, and what the round
    counts towards the total (points or match points; a sitter-out's average)."""

    round: int
    table: int | None
    partner: int | None
    score: int | None
    against: int | None
    won: bool
    value: Fraction

    @property
    def sat_out(self) -> bool:
        return self.table is None


@dataclass(frozen=True)
class NightRow:
    """A player's row: place (shared places repeat), total, rounds won, points against,
    each round, and the explanation of it all."""

    player: int
    place: int
    total: Fraction
    rounds_won: int
    points_against: int
    lines: tuple[NightLine, ...]
    explanation: tuple[Step, ...] = field(default=(), compare=False)

    @property
    def key(self) -> tuple[Fraction, int, int]:
        """What places rows: higher total, then more rounds won, then fewer points against."""
        return (-self.total, -self.rounds_won, self.points_against)


@dataclass(frozen=True)
class NightRanking:
    """The night's ranking, best first."""

    mode: str
    rows: tuple[NightRow, ...]
    explanation: tuple[Step, ...] = field(default=(), compare=False)

    def row_of(self, player: int) -> NightRow | None:
        return next((row for row in self.rows if row.player == player), None)

    @property
    def order(self) -> tuple[int, ...]:
        return tuple(row.player for row in self.rows)


def _check_rounds(rounds: object, problems: ProblemCollector) -> list[Round]:
    if isinstance(rounds, (str, bytes, Mapping)) or not isinstance(rounds, Iterable):
        problems.add("rounds", _("The night's rounds are a list of rounds."))
        return []
    checked: list[Round] = []
    seen: set[int] = set()
    for i, round_ in enumerate(rounds):
        if not _well_formed(round_) or not round_.tables:
            problems.add(
                f"rounds.{i}",
                _(
                    "A round has tables numbered 1, 2, … of two teams of two, and "
                    "seats each player once."
                ),
            )
            continue
        if round_.number in seen:
            problems.add(
                f"rounds.{i}",
                _("Round {round} is given twice.", round=round_.number),
            )
            continue
        seen.add(round_.number)
        checked.append(round_)
    return checked


def _check_scores(
    rounds: Sequence[Round], scores: object, problems: ProblemCollector
) -> dict[int, dict[int, tuple[int, int]]]:
    if not isinstance(scores, Mapping):
        problems.add(
            "scores",
            _(
                "The scores are given round by round and table by table: the two teams' "
                "scores of each table."
            ),
        )
        return {}
    numbers = {round_.number for round_ in rounds}
    for key in scores:
        if key not in numbers or not _is_int(key):
            problems.add(f"scores.{key}", _("The night has no round {round}.", round=str(key)))
    checked: dict[int, dict[int, tuple[int, int]]] = {}
    for round_ in rounds:
        where = f"scores.{round_.number}"
        given = scores.get(round_.number)
        if not isinstance(given, Mapping):
            problems.add(
                where,
                _(
                    "Round {round} has no scores: give the two teams' scores of each "
                    "of its tables.",
                    round=round_.number,
                ),
            )
            continue
        tables = {table.number for table in round_.tables}
        for key in given:
            if key not in tables or not _is_int(key):
                problems.add(
                    f"{where}.{key}",
                    _("Round {round} has no table {table}.", round=round_.number, table=str(key)),
                )
        own: dict[int, tuple[int, int]] = {}
        for table in round_.tables:
            pair = given.get(table.number)
            if pair is None and table.number in given:
                # Not played yet (a live night): the table counts once it has scores.
                continue
            if (
                isinstance(pair, (str, bytes, Mapping))
                or not isinstance(pair, Sequence)
                or len(pair) != 2
                or not all(_is_int(score) for score in pair)
            ):
                problems.add(
                    f"{where}.{table.number}",
                    _(
                        "Table {table} of round {round} needs two whole-number scores, "
                        "its first team's and its second's.",
                        table=table.number,
                        round=round_.number,
                    ),
                )
                continue
            own[table.number] = (pair[0], pair[1])
        checked[round_.number] = own
    return checked


def night_ranking(
    rounds: Iterable[Round],
    scores: Mapping[int, Mapping[int, Sequence[int]]],
    mode: str = "points",
    names: Mapping[int, str] | None = None,
) -> NightRanking:
    """Rank the night (module docstring) from its rounds and each table's two team
    scores per round (``scores[round][table] = (team 0, team 1)``, or ``None`` for a
    table that has not played yet: a live night counts each table once it has scores,
    and a round's sitters-out score the average of the tables played so far). ``mode``
    is ``"points"`` or ``"match_points"``. ``RuleError`` carries every problem found."""
    problems = ProblemCollector()
    if mode not in MODES:
        problems.add(
            "mode",
            _(
                'A Pitch night counts "points" or "match_points", not {got}.',
                got=str(mode),
            ),
        )
    checked = _check_rounds(rounds, problems)
    if problems:
        problems.raise_if_any()
    table_scores = _check_scores(checked, scores, problems)
    problems.raise_if_any()

    checked.sort(key=lambda r: r.number)
    lines: dict[int, list[NightLine]] = {}
    steps: dict[int, list[Step]] = {}
    for round_ in checked:
        played = _round_lines(round_, table_scores[round_.number], mode)
        if not played:
            continue
        average = sum((line.value for line in played.values()), Fraction(0)) / len(played)
        for player, line in played.items():
            lines.setdefault(player, []).append(line)
            steps.setdefault(player, []).append(_round_step(line, mode, names))
        for player in round_.sitting_out:
            line = NightLine(round_.number, None, None, None, None, False, average)
            lines.setdefault(player, []).append(line)
            steps.setdefault(player, []).append(_sat_out_step(line, played, mode))

    built = []
    for player in sorted(lines):
        own = tuple(lines[player])
        total = sum((line.value for line in own), Fraction(0))
        won = sum(1 for line in own if line.won)
        against = sum(line.against or 0 for line in own)
        explained = [*steps[player]]
        if len(own) > 1:
            explained.append(_total_step(own, total))
        explained.append(_tally_step(won, against))
        built.append(NightRow(player, 0, total, won, against, own, tuple(explained)))
    return NightRanking(mode, _placed(built, names), (_rule_step(mode),))


def evening_ranking(night: NightRanking, players: Iterable[int] = ()) -> Ranking:
    """The night's ranking as the evening's pages and API show a ranking (ranking.py):
    each round a line (its table, the team's score, won or lost, what it counts), the
    rounds won and lost, the points against, the total exact. ``players`` on the roll
    without a round yet follow with 0, sharing the last place."""
    rows = [
        RankingRow(
            row.player,
            row.place,
            _plain(row.total),
            row.rounds_won,
            sum(1 for line in row.lines if not line.won and not line.sat_out),
            tuple(
                SeriesLine(
                    line.round,
                    line.table or 0,
                    line.score or 0,
                    int(line.won),
                    int(not line.won and not line.sat_out),
                    0,
                    _plain(line.value),  # type: ignore[arg-type]
                )
                for line in row.lines
            ),
            row.explanation,
            against=row.points_against,
        )
        for row in night.rows
    ]
    ranked = {row.player for row in rows}
    waiting = sorted(p for p in players if p not in ranked)
    rows += [RankingRow(p, len(ranked) + 1, 0, 0, 0, (), (), against=0) for p in waiting]
    return Ranking("pitch", tuple(rows), night.explanation)


def _plain(value: Fraction) -> Fraction | int:
    """A whole total as an int (what JSON and the pages write as it is), else exact."""
    return int(value) if value.denominator == 1 else value


def _round_lines(
    round_: Round, scores: Mapping[int, tuple[int, int]], mode: str
) -> dict[int, NightLine]:
    teams: list[tuple[RoundTable, int]] = [
        (table, index) for table in round_.tables if table.number in scores for index in (0, 1)
    ]
    team_scores = [scores[table.number][index] for table, index in teams]
    values: Sequence[Fraction | int] = (
        match_points(team_scores) if mode == "match_points" else team_scores
    )
    played: dict[int, NightLine] = {}
    for (table, index), own, value in zip(teams, team_scores, values, strict=True):
        against = scores[table.number][1 - index]
        a, b = table.teams[index]
        for player, partner in ((a, b), (b, a)):
            played[player] = NightLine(
                round_.number, table.number, partner, own, against, own > against, Fraction(value)
            )
    return played


def _placed(rows: Sequence[NightRow], names: Mapping[int, str] | None) -> tuple[NightRow, ...]:
    """Places 1, 1, 3 by :attr:`NightRow.key`, each tie explained in both rows."""
    ordered = sorted(rows, key=lambda row: (row.key, row.player))
    places = shared_places([row.key for row in ordered])
    placed = []
    for row, place in zip(ordered, places, strict=True):
        ties = [
            _tie_step(row, other, place, names)
            for other in ordered
            if other is not row and other.total == row.total
        ]
        placed.append(
            NightRow(
                row.player,
                place,
                row.total,
                row.rounds_won,
                row.points_against,
                row.lines,
                (*row.explanation, *ties),
            )
        )
    return tuple(placed)


def _rule_step(mode: str) -> Step:
    if mode == "match_points":
        text = _(
            "Match points, as duplicate events count them: each round every team's score "
            "is compared with every other team's score of the round, at every table; a team "
            "gets one match point for each team it outscored and a half for each tie, and "
            "both partners score them. A player sitting out scores the round's average. The "
            "total adds up the rounds; ties go to more rounds won, then fewer points "
            "against, else the place is shared."
        )
    else:
        text = _(
            "Points: each round a player scores their team's score at their table; a "
            "player sitting out scores the round's average. The total adds up the rounds; "
            "ties go to more rounds won, then fewer points against, else the place is "
            "shared."
        )
    return Step(text, RULE)


def _round_step(line: NightLine, mode: str, names: Mapping[int, str] | None) -> Step:
    assert line.partner is not None
    assert line.score is not None
    assert line.against is not None
    values = {
        "round": line.round,
        "table": line.table,
        "partner": _who(line.partner, names),
        "score": number(line.score),
        "against": number(line.against),
    }
    if mode == "match_points":
        if line.won:
            text = _(
                # Translators: {points} is a number of match points such as 5 or 2½.
                "Round {round}, table {table}: with {partner}, {score} against {against}, "
                "a round won; match points: {points} (one for every team of the round "
                "outscored, a half for every tie).",
                points=shown(line.value),
                **values,
            )
        else:
            text = _(
                # Translators: {points} is a number of match points such as 5 or 2½.
                "Round {round}, table {table}: with {partner}, {score} against {against}; "
                "match points: {points} (one for every team of the round outscored, a half "
                "for every tie).",
                points=shown(line.value),
                **values,
            )
    elif line.won:
        text = _(
            "Round {round}, table {table}: with {partner}, {score} against {against}, a "
            "round won; the team's score {score} counts.",
            **values,
        )
    else:
        text = _(
            "Round {round}, table {table}: with {partner}, {score} against {against}; the "
            "team's score {score} counts.",
            **values,
        )
    return Step(text, RULE)


def _sat_out_step(line: NightLine, played: Mapping[int, NightLine], mode: str) -> Step:
    added = sum((other.value for other in played.values()), Fraction(0))
    values = {
        "round": line.round,
        "sum": shown(added),
        "count": len(played),
        "average": shown(line.value),
    }
    if mode == "match_points":
        text = _(
            # Translators: {average} may be a fraction such as 3½.
            "Round {round}: sat out, so scores the round's average: the {count} players who "
            "played scored {sum} match points, {average} each.",
            **values,
        )
    else:
        text = _(
            # Translators: {average} may be a fraction such as 12½ or 12 3/8.
            "Round {round}: sat out, so scores the round's average: the {count} players who "
            "played scored {sum} points, {average} each.",
            **values,
        )
    return Step(text, RULE)


def _total_step(lines: Sequence[NightLine], total: Fraction) -> Step:
    return Step(
        _(
            # Translators: {values} is e.g. "7, 11½ and −3".
            "The rounds added up: {values} make {total}.",
            values=joined([shown(line.value) for line in lines]),
            total=shown(total),
        ),
        RULE,
    )


def _tally_step(won: int, against: int) -> Step:
    return Step(
        _(
            # Translators: {won} is a number of rounds; {against} a number of points.
            "Rounds won: {won}; points against: {against}.",
            won=won,
            against=number(against),
        ),
        RULE,
    )


def _tie_step(row: NightRow, other: NightRow, place: int, names: Mapping[int, str] | None) -> Step:
    values = {"other": _who(other.player, names), "total": shown(row.total)}
    if row.rounds_won != other.rounds_won:
        text = _(
            "Level with {other} on {total}; more rounds won decide: {won} against {other_won}.",
            won=row.rounds_won,
            other_won=other.rounds_won,
            **values,
        )
    elif row.points_against != other.points_against:
        text = _(
            "Level with {other} on {total} and on rounds won; fewer points against "
            "decide: {against} against {other_against}.",
            against=number(row.points_against),
            other_against=number(other.points_against),
            **values,
        )
    else:
        text = _(
            "Level with {other} on {total}, rounds won and points against: they share "
            "place {place}.",
            place=place,
            **values,
        )
    return Step(text, RULE)


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class NightHand:
    """One hand of the night as its table's sheet recorded it.

    ``round`` and ``table`` say where; ``teams`` the two teams as the round's
    :class:`~evenings.rules.movement.RoundTable` gives them (team 0 in seats 1 and 3,
    the sheet's team A); ``pitcher`` the player who won the bidding; ``bid`` 4 to 9
    or ``"moon"`` (the referee's ``games.rules.pitch.MOON``: shooting the moon);
    ``made`` whether the pitcher's team made it; ``scores`` each team's change of
    score on the hand (the sheet's ``delta``, team 0 first; below 0 when set).
    """

    round: int
    table: int
    teams: tuple[tuple[int, int], tuple[int, int]]
    pitcher: int
    bid: int | str
    made: bool
    scores: tuple[int, int]


@dataclass(frozen=True)
class BidCount:
    """How often a player, as pitcher, made and was set on bids of one size."""

    size: int
    made: int
    set: int


@dataclass(frozen=True)
class PartnerLine:
    """A player's night with one partner: rounds together, rounds won together, and
    the points their team scored together."""

    partner: int
    rounds: int
    rounds_won: int
    points: int


@dataclass(frozen=True)
class PlayerStatistics:
    """A player's bids by size, moons, and partners, partners by id."""

    player: int
    bids: tuple[BidCount, ...]
    moons_tried: int
    moons_made: int
    partners: tuple[PartnerLine, ...]

    @property
    def bids_made(self) -> int:
        return sum(count.made for count in self.bids)

    @property
    def bids_set(self) -> int:
        return sum(count.set for count in self.bids)

    def partner(self, player: int) -> PartnerLine | None:
        return next((line for line in self.partners if line.partner == player), None)


def _check_hand(
    i: int,
    hand: object,
    tables: dict[tuple[int, int], frozenset[frozenset[int]]],
    seats: dict[tuple[int, int], int],
    names: Mapping[int, str] | None,
    problems: ProblemCollector,
) -> bool:
    where = f"hands.{i}"
    if not isinstance(hand, NightHand):
        problems.add(
            where,
            _("Each hand of the night gives its round, table, teams, pitcher, bid and scores."),
        )
        return False
    ok = True
    if not _is_int(hand.round) or not _is_int(hand.table) or hand.round < 1 or hand.table < 1:
        problems.add(where, _("A hand's round and table are whole numbers, 1 or more."))
        ok = False
    teams = hand.teams
    if (
        not isinstance(teams, tuple)
        or len(teams) != 2
        or any(not isinstance(team, tuple) or len(team) != 2 for team in teams)
        or not all(_is_int(p) for team in teams for p in team)
        or len({p for team in teams for p in team}) != 4
    ):
        problems.add(f"{where}.teams", _("A hand is played by two teams of two players."))
        return False
    if not _is_int(hand.pitcher) or all(hand.pitcher not in team for team in teams):
        problems.add(
            f"{where}.pitcher",
            _("The pitcher is one of the four players at the table."),
        )
        ok = False
    bid = hand.bid
    if bid != MOON and (not _is_int(bid) or not LOWEST_BID <= bid <= HIGHEST_BID):
        problems.add(
            f"{where}.bid",
            # Translators: "moon" is the word to type for a moon bid; keep it as it is.
            _(
                'A bid is a number from {lowest} to {highest} or "moon".',
                lowest=LOWEST_BID,
                highest=HIGHEST_BID,
            ),
        )
        ok = False
    if not isinstance(hand.made, bool):
        problems.add(f"{where}.made", _("Whether the bid was made is yes or no."))
        ok = False
    scores = hand.scores
    if (
        not isinstance(scores, tuple)
        or len(scores) != 2
        or not all(_is_int(score) for score in scores)
    ):
        problems.add(
            f"{where}.scores",
            _("A hand changes each team's score by a whole number, team 0's first."),
        )
        ok = False
    if ok:
        pairs = frozenset(frozenset(team) for team in teams)
        if tables.setdefault((hand.round, hand.table), pairs) != pairs:
            problems.add(
                f"{where}.teams",
                _(
                    "Table {table} of round {round} has other teams in another hand.",
                    table=hand.table,
                    round=hand.round,
                ),
            )
            ok = False
        for player in sorted(p for team in teams for p in team):
            at = seats.setdefault((hand.round, player), hand.table)
            if at != hand.table:
                problems.add(
                    f"{where}.teams",
                    _(
                        "{player} plays at table {first} and at table {second} of round {round}.",
                        player=capitalised(_who(player, names)),
                        first=at,
                        second=hand.table,
                        round=hand.round,
                    ),
                )
                ok = False
    return ok


def player_statistics(
    hands: Iterable[NightHand], names: Mapping[int, str] | None = None
) -> tuple[PlayerStatistics, ...]:
    """Every player's statistics of the night (module docstring), by player id.
    ``RuleError`` carries every problem found in ``hands``."""
    problems = ProblemCollector()
    if isinstance(hands, (str, bytes, Mapping)) or not isinstance(hands, Iterable):
        problems.add("hands", _("The night's hands are a list of hands."))
        problems.raise_if_any()
    checked: list[NightHand] = []
    tables: dict[tuple[int, int], frozenset[frozenset[int]]] = {}
    seats: dict[tuple[int, int], int] = {}
    for i, hand in enumerate(hands):
        if _check_hand(i, hand, tables, seats, names, problems):
            checked.append(hand)
    problems.raise_if_any()

    bids: dict[int, dict[int, list[int]]] = {}
    moons: dict[int, list[int]] = {}
    # (round, table) → the teams and their score of the round there
    rounds: dict[tuple[int, int], tuple[tuple[tuple[int, int], ...], list[int]]] = {}
    players: set[int] = set()
    for hand in checked:
        players.update(p for team in hand.teams for p in team)
        # moons: [tried, made] per player; other bids: [made, set] per player and size
        if hand.bid == MOON:
            tally = moons.setdefault(hand.pitcher, [0, 0])
            tally[0] += 1
            tally[1] += hand.made
        else:
            counts = bids.setdefault(hand.pitcher, {}).setdefault(int(hand.bid), [0, 0])
            counts[0 if hand.made else 1] += 1
        teams, totals = rounds.setdefault(
            (hand.round, hand.table), (tuple(tuple(team) for team in hand.teams), [0, 0])
        )
        for index, team in enumerate(hand.teams):
            # the same four players, possibly listed the other way round
            own = teams.index(team) if team in teams else teams.index(team[::-1])
            totals[own] += hand.scores[index]

    partners: dict[int, dict[int, list[int]]] = {}
    for teams, totals in rounds.values():
        for index, (a, b) in enumerate(teams):
            won = totals[index] > totals[1 - index]
            for player, partner in ((a, b), (b, a)):
                line = partners.setdefault(player, {}).setdefault(partner, [0, 0, 0])
                line[0] += 1
                line[1] += won
                line[2] += totals[index]

    return tuple(
        PlayerStatistics(
            player,
            tuple(
                BidCount(size, made, set_)
                for size, (made, set_) in sorted(bids.get(player, {}).items())
            ),
            moons.get(player, [0, 0])[0],
            moons.get(player, [0, 0])[1],
            tuple(
                PartnerLine(partner, *line)
                for partner, line in sorted(partners.get(player, {}).items())
            ),
        )
        for player in sorted(players)
    )
