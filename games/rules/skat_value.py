"""A Skat game entered by its value, as a paper list writes it: "48", "−96".

Many tables keep the list on paper and only write each game's value. Such a deal is
entered as the declarer and the value as written (and, if known, the bid); the
referee accepts only a value that some game can have and says which games those are.

What the value is: the number the list shows for the deal, everything included. A
won game is written as its game value, a lost game as minus twice its value (ISkO:
a lost game counts double, hand games too); on a sheet with Kontra and Re the value
may be doubled (Kontra) or quadrupled (Re), and in a Bock deal it is doubled again.
So the referee accepts exactly the numbers ``± game value × those factors`` and
reads the sign as won (+) or lost (−), which is all Seeger-Fabian needs.

Game values (ISkO game value rules; the rule book's "Game value", "Levels", "Null"):
a suit or grand game is its base value (Diamonds 9, Hearts 10, Spades 11, Clubs 12,
Grand 24) times its levels: matadors with or against N, game, and then hand,
schneider, schneider announced, schwarz, schwarz announced, ouvert as the game had
them; Null is 23, Null Hand 35, Null Ouvert 46, Null Ouvert Hand 59.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from functools import cache

from .errors import ProblemCollector, RuleError, Step
from .skat import (
    BASE_VALUES,
    BIDS,
    GAME_NAMES,
    HAND_LEVEL,
    NULL_VALUES,
    OUVERT_LEVEL,
    SCHNEIDER_ANNOUNCED_LEVEL,
    SCHNEIDER_LEVEL,
    SCHWARZ_ANNOUNCED_LEVEL,
    SCHWARZ_LEVEL,
    _bid_problem,
    contract_name,
    trumps,
)
from .text import _, join
from .words import joined, signed

# The levels besides matadors and "game" that a suit or grand game can have had
# together, with how many they count. An announcement counts with every level below
# it, reached or not; announcing and ouvert need a hand game; schwarz is always
# schneider too; ouvert counts as schwarz announced.
LEVEL_SETS: tuple[tuple[str, ...], ...] = (
    (),
    ("schneider",),
    ("schneider", "schwarz"),
    ("hand",),
    ("hand", "schneider"),
    ("hand", "schneider", "schneider_announced"),
    ("hand", "schneider", "schwarz"),
    ("hand", "schneider", "schneider_announced", "schwarz"),
    ("hand", "schneider", "schneider_announced", "schwarz", "schwarz_announced"),
    ("hand", "schneider", "schneider_announced", "schwarz", "schwarz_announced", "ouvert"),
)
_LEVEL_WORDS = {
    "hand": HAND_LEVEL,
    "schneider": SCHNEIDER_LEVEL,
    "schneider_announced": SCHNEIDER_ANNOUNCED_LEVEL,
    "schwarz": SCHWARZ_LEVEL,
    "schwarz_announced": SCHWARZ_ANNOUNCED_LEVEL,
    "ouvert": OUVERT_LEVEL,
}
# What Kontra and Re multiply a score by (house rule), with the words for it.
CALL_FACTORS = ((1, None), (2, "kontra"), (4, "re"))


@dataclass(frozen=True)
class Contract:
    """One way a game can be worth a value: the game, its matadors and its levels."""

    game: str
    matadors: int | None  # "with or against N"; None for Null
    levels: tuple[str, ...]  # keys of LEVEL_SETS besides matadors and game
    value: int
    hand: bool = False
    ouvert: bool = False

    @property
    def multiplier(self) -> int | None:
        if self.matadors is None:
            return None
        return self.matadors + 1 + len(self.levels)

    @property
    def name(self) -> str:
        """ "Clubs with or against 3", "Grand with or against 1, hand, schneider", "Null Ouvert"."""
        if self.game == "null":
            return contract_name(game="null", hand=self.hand, ouvert=self.ouvert)
        return _with_levels(self.game, self.matadors or 0, self.levels)


def _with_levels(game: str, matadors: int, levels: tuple[str, ...]) -> str:
    matched = _(
        # Translators: {game} is a suit or "Grand"; matadors, "with or against 3".
        "{game} with or against {count}",
        game=GAME_NAMES[game],
        count=matadors,
    )
    if not levels:
        return matched
    # Translators: {contract} is e.g. "Clubs with or against 2"; {levels} e.g. "hand, schneider".
    return _(
        "{contract}, {levels}",
        contract=matched,
        levels=join(", ", [_LEVEL_WORDS[level] for level in levels]),
    )


@cache
def contracts_worth(value: int) -> tuple[Contract, ...]:
    """Every contract whose game value is exactly ``value``: suit and grand games by
    matadors and levels, and the Null games; highest game first (Grand, Clubs … Null)."""
    found: list[Contract] = []
    for game in ("grand", "clubs", "spades", "hearts", "diamonds"):
        base = BASE_VALUES[game]
        if value % base:
            continue
        multiplier = value // base
        most = len(trumps(game))
        for levels in LEVEL_SETS:
            matadors = multiplier - 1 - len(levels)
            if 1 <= matadors <= most:
                found.append(
                    Contract(
                        game=game,
                        matadors=matadors,
                        levels=levels,
                        value=value,
                        hand="hand" in levels,
                        ouvert="ouvert" in levels,
                    )
                )
    for name, null in NULL_VALUES.items():
        if null == value:
            found.append(
                Contract(
                    game="null",
                    matadors=None,
                    levels=(),
                    value=value,
                    hand="Hand" in name,
                    ouvert="Ouvert" in name,
                )
            )
    return tuple(found)


def games_worth(value: int) -> str:
    """The games a value can be, short: "Grand with or against 1 or Clubs ×4", "Null Ouvert".

    A suit or grand game is named by its simplest contract when that is a plain game
    (no hand, schneider …), else by its levels ("Diamonds ×8").
    """
    names: list[str] = []
    seen: set[str] = set()
    for contract in contracts_worth(value):
        if contract.game in seen:
            continue
        seen.add(contract.game)
        if contract.game == "null":
            names.append(contract.name)
            continue
        count = sum(1 for c in contracts_worth(value) if c.game == contract.game)
        if count == 1 and not contract.levels:
            names.append(contract.name)
        else:
            names.append(
                # Translators: a game and its number of levels, "Clubs ×4" (worth 4 × 12 = 48).
                _(
                    "{game} ×{multiplier}",
                    game=GAME_NAMES[contract.game],
                    multiplier=contract.multiplier,
                )
            )
    return joined(names, last="or")


@dataclass(frozen=True)
class ValueReading:
    """One way to read a written value: a game worth ``game_value``, won or lost, after
    Kontra or Re (``call``) or neither, in a Bock deal or not."""

    game_value: int
    won: bool
    call: str | None
    contracts: tuple[Contract, ...]


@dataclass(frozen=True)
class ValueResult:
    """A value as written, read: the score is the value itself."""

    value: int
    won: bool
    bid: int | None
    readings: tuple[ValueReading, ...]
    summary: str  # "Grand with or against 1 or Clubs ×4"
    explanation: tuple[Step, ...]

    @property
    def score(self) -> int:
        return self.value

    @property
    def game_value(self) -> int:
        """The game value of the plainest reading (no Kontra or Re if there is one)."""
        return self.readings[0].game_value

    @property
    def game_values(self) -> frozenset[int]:
        return frozenset(r.game_value for r in self.readings)


def _factors(*, won: bool, bock: bool, kontra_re: bool) -> list[tuple[int, str | None]]:
    calls = CALL_FACTORS if kontra_re else CALL_FACTORS[:1]
    base = (1 if won else 2) * (2 if bock else 1)
    return [(base * factor, call) for factor, call in calls]


def _lowest_value(bid: int | None) -> int:
    return BIDS[0] if bid is None else bid


def _written(*, won: bool, bock: bool, kontra_re: bool, bid: int | None) -> dict[int, list]:
    """Every number the list can show for a game won (or lost), by its size."""
    shown: dict[int, list] = {}
    for factor, call in _factors(won=won, bock=bock, kontra_re=kontra_re):
        for game_value in BIDS:
            if game_value >= _lowest_value(bid):
                shown.setdefault(game_value * factor, []).append((game_value, call))
    return shown


def read_value(
    *, value: int, bid: int | None = None, bock: bool = False, kontra_re: bool = False
) -> ValueResult:
    """Read a game's value as the list shows it; ``RuleError`` at ``value`` (or
    ``bid``) with a sentence a player understands when no game can be written so."""
    problems = ProblemCollector()
    if bid is not None:
        message = _bid_problem(bid)
        if message:
            problems.add("bid", message)
            problems.raise_if_any()
    if value == 0:
        raise RuleError(
            _(
                "A played game is never written as 0: a won game counts its value, a lost "
                "game minus twice its value."
            ),
            "value",
        )
    won = value > 0
    size = abs(value)
    shown = _written(won=won, bock=bock, kontra_re=kontra_re, bid=bid)
    if size not in shown:
        problems.add("value", _impossible(value, won, bock, kontra_re, bid, shown))
        problems.raise_if_any()
    readings = tuple(
        ValueReading(game_value, won, call, contracts_worth(game_value))
        for game_value, call in shown[size]
    )
    steps = [_opening(value, won, bock)]
    for reading in readings:
        steps.extend(_reading_steps(reading))
    if bid is not None:
        steps.append(
            Step(
                _("The bid was {bid}, and the game's value reaches it.", bid=bid),
                "skat-overbid",
            )
        )
    steps.append(
        Step(
            _("On the list: {score}, as written.", score=signed(value)),
            "skat-list-score",
        )
    )
    summary = join("; ", [_reading_short(reading) for reading in readings])
    return ValueResult(value, won, bid, readings, summary, tuple(steps))


def _opening(value: int, won: bool, bock: bool) -> Step:
    if won and bock:
        text = _(
            "{value} as written: a won game (a plus value), in a Bock deal, which counts double.",
            value=signed(value),
        )
    elif won:
        text = _("{value} as written: a won game (a plus value).", value=signed(value))
    elif bock:
        text = _(
            "{value} as written: a lost game (a minus value), which counts double, in a Bock "
            "deal, which doubles it again.",
            value=signed(value),
        )
    else:
        text = _(
            "{value} as written: a lost game (a minus value), which counts double.",
            value=signed(value),
        )
    return Step(text, "skat-list-score")


def _reading_short(reading: ValueReading) -> str:
    games = games_worth(reading.game_value)
    if reading.call == "kontra":
        # Translators: {games} is e.g. "Grand with or against 1 or Clubs ×4".
        return _("with Kontra: {games}", games=games)
    if reading.call == "re":
        # Translators: {games} is e.g. "Grand with or against 1 or Clubs ×4".
        return _("with Kontra and Re: {games}", games=games)
    return games


def _reading_steps(reading: ValueReading) -> list[Step]:
    steps = []
    if reading.call == "kontra":
        steps.append(
            Step(
                _("With Kontra (×2): a game worth {value}.", value=reading.game_value),
                "skat-kontra-re",
            )
        )
    elif reading.call == "re":
        steps.append(
            Step(
                _("With Kontra and Re (×4): a game worth {value}.", value=reading.game_value),
                "skat-kontra-re",
            )
        )
    else:
        steps.append(Step(_("A game worth {value}.", value=reading.game_value), "skat-game-value"))
    by_game: dict[str, list[Contract]] = {}
    for contract in reading.contracts:
        by_game.setdefault(contract.game, []).append(contract)
    for game, contracts in by_game.items():
        if game == "null":
            for contract in contracts:
                steps.append(
                    Step(
                        # Translators: {contract} is e.g. "Null Ouvert".
                        _("{contract}: {value}.", contract=contract.name, value=contract.value),
                        "skat-null",
                    )
                )
            continue
        ways = join("; ", [c.name for c in contracts])
        steps.append(
            Step(
                _(
                    # Translators: {game} is a suit or "Grand"; {ways} lists every contract of
                    # that game with this many levels, e.g. "Clubs with or against 3; Clubs
                    # with or against 2, hand".
                    "{game}: {multiplier} × {base} = {value}, as {ways}.",
                    game=GAME_NAMES[game],
                    multiplier=contracts[0].multiplier,
                    base=BASE_VALUES[game],
                    value=reading.game_value,
                    ways=ways,
                ),
                "skat-levels",
            )
        )
    return steps


def _impossible(
    value: int,
    won: bool,
    bock: bool,
    kontra_re: bool,
    bid: int | None,
    shown: dict[int, list],
) -> str:
    """No game is written so: why, and the nearest values that are, with their games."""
    size = abs(value)
    sizes = sorted(shown)
    at = bisect.bisect_left(sizes, size)
    near = []
    for index in (at - 1, at):
        if 0 <= index < len(sizes):
            written = sizes[index] if won else -sizes[index]
            games = join(
                "; ", [_reading_short(ValueReading(g, won, c, ())) for g, c in shown[sizes[index]]]
            )
            # Translators: a value and the games it can be, "48 (Grand with or against 1 or Clubs ×4)".
            near.append(
                _("{value} ({games})", value=signed(written) if not won else written, games=games)
            )
    nearest = joined(near, last="and")
    below_bid = bid is not None and size < min(sizes)
    if below_bid and won:
        return _(
            "{value} is less than the bid of {bid}: a won game is worth at least its bid "
            "(a game worth less is overbid and lost). The lowest value it can have is {nearest}.",
            value=value,
            bid=bid,
            nearest=nearest,
        )
    if below_bid:
        return _(
            "{value} is too little for a bid of {bid}: a lost game counts minus twice its "
            "value, and that value is at least the bid (an overbid game is lost at the bid "
            "or more). The nearest is {nearest}.",
            value=signed(value),
            bid=bid,
            nearest=nearest,
        )
    plain = not bock and not kontra_re and bid is None
    if at == len(sizes):
        return _(
            "{value} is more than any game can be written as on this list; the most is {nearest}.",
            value=signed(value) if not won else value,
            nearest=nearest,
        )
    if won and plain:
        return _(
            "No Skat game is worth {value}; the nearest are {nearest}.",
            value=value,
            nearest=nearest,
        )
    if won:
        return _(
            "No Skat game is written as {value} on this list (with its Bock and Kontra "
            "rules and the bid); the nearest are {nearest}.",
            value=value,
            nearest=nearest,
        )
    if plain:
        return _(
            "No lost Skat game is written as {value}: a lost game counts minus twice its "
            "value; the nearest are {nearest}.",
            value=signed(value),
            nearest=nearest,
        )
    return _(
        "No lost Skat game is written as {value}: a lost game counts minus twice its value "
        "(and this list's Bock and Kontra rules and the bid apply); the nearest are {nearest}.",
        value=signed(value),
        nearest=nearest,
    )
