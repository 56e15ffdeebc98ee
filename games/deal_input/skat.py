"""Reading a Skat deal for the score sheet.

A played deal is the ``/api/v1/skat/score`` request plus ``declarer`` (a seat index)
and without ``bock`` (the sheet knows which deals are Bock deals); or, for a game
entered by its value as a paper list writes it, ``{"declarer": seat, "value": 48}``
(a minus value is a lost game; ``bid`` may be added). A deal everyone
passed is ``{"passed": true}``; on a sheet that plays Ramsch it also carries
``"ramsch": {"points": [...], "tricks": [...], "last_trick": seat}`` with one entry per
seat (``null`` allowed for the dealer sitting out at a table of four); ``last_trick``
may be left out unless a tie for the most card points is settled by it.

Only the shape is read here: types, field names, card codes. Whether the seat
plays this deal, the game adds up, or the Ramsch fits the sheet is for
``games.rules.skat_sheet`` to judge.
"""

from __future__ import annotations

from typing import Any

from games.api_input import Body, describe
from games.rules.cards import SKAT_DECK
from games.rules.errors import RuleError
from games.rules.skat import ANNOUNCEMENTS, GAMES, OUTCOMES, Matadors
from games.rules.skat_list import SERIES_DEALS
from games.rules.skat_sheet import RamschEntry, SkatDeal, SkatSheetOptions
from games.rules.text import Text, _, ngettext, pgettext
from games.rules.words import joined

# What a Bock round follows, as the sheet's rules line names it ("Bock round after …").
_BOCK_TRIGGERS = {
    "sixty_all": pgettext("Bock round after …", "60:60"),
    "lost_after_kontra": pgettext("Bock round after …", "a game lost after Kontra"),
    "hundred_or_more": pgettext("Bock round after …", "a game worth 100 or more"),
    "grand_hand_won": pgettext("Bock round after …", "a won Grand Hand"),
}
_RAMSCH_TIES = {
    "all_tied_lose": _("Ramsch when all pass; tied players all lose"),
    "last_trick_loses": _(
        "Ramsch when all pass; of tied players, the one who took the last trick loses"
    ),
}
_SWITCHES = ("hand", "ouvert", "kontra", "re")
_CARD_LISTS = ("declarer_cards", "declarer_trick_cards", "skat")


def read_deal(data: dict[str, Any], *, players: int, options: SkatSheetOptions) -> SkatDeal:
    """The typed deal, or ``UnreadableInput`` listing every shape problem.

    ``players`` and ``options`` are part of every game's reader; a Skat deal reads
    the same whatever they are (one entry per seat is the engine's to check).
    """
    body = Body(data)
    passed = body.boolean("passed")
    declarer = body.integer("declarer", required=not passed)
    # A game entered by its value as the list writes it (48, −96): the declarer, the
    # value and perhaps the bid; any other game field is the sheet's to refuse.
    by_value = "value" in body.data
    value = body.integer("value", required=by_value)
    game = _read_game(body, required=not passed and not by_value)
    ramsch = _read_ramsch(body)
    if body.raw("bock") is not None:
        body.add(
            "bock",
            _(
                "The sheet itself knows which deals are Bock deals (from its Bock rules); "
                "leave bock out."
            ),
        )
    body.finish()
    return SkatDeal(declarer=declarer, game=game, passed=passed, ramsch=ramsch, value=value)


def _read_game(body: Body, *, required: bool) -> dict[str, Any]:
    """The ``score_game`` arguments that were given; a switch left off or "none" is not given."""
    game: dict[str, Any] = {
        "game": body.choice("game", GAMES, required=required),
        "bid": body.integer("bid", required=required),
        "announced": body.choice("announced", ANNOUNCEMENTS, default="none"),
        "matadors": _read_matadors(body),
        "declarer_points": body.integer("declarer_points", required=False),
        "declarer_tricks": body.integer("declarer_tricks", required=False),
        "outcome": body.choice("outcome", OUTCOMES),
    }
    for name in _SWITCHES:
        game[name] = body.boolean(name)
    for name in _CARD_LISTS:
        game[name] = body.cards(name, SKAT_DECK, required=False)
    return {
        name: value
        for name, value in game.items()
        if value is not None and value is not False and value != "none"
    }


def _read_matadors(body: Body) -> Matadors | None:
    value = body.raw("matadors")
    if value is None:
        return None
    try:
        return Matadors.from_mapping(value)
    except RuleError as error:
        body.problems.extend(error.problems)
        return None


def _read_ramsch(body: Body) -> RamschEntry | None:
    ramsch = body.object("ramsch")
    if ramsch is None:
        return None
    points = _per_seat(ramsch, "points")
    tricks = _per_seat(ramsch, "tricks")
    # Who took the last trick is needed only for a tie the sheet's tie rule settles by
    # it: the sheet asks for it then.
    last_trick = ramsch.integer("last_trick", required=False)
    if points is None or tricks is None:
        return None
    return RamschEntry(points=points, tricks=tricks, last_trick=last_trick)


def _per_seat(body: Body, name: str) -> tuple[int | None, ...] | None:
    """A list of whole numbers, one per seat; ``null`` where a seat sat out."""
    values = body.list(name)
    if values is None:
        return None
    read: list[int | None] = []
    readable = True
    for i, value in enumerate(values):
        if value is None or (isinstance(value, int) and not isinstance(value, bool)):
            read.append(value)
        elif isinstance(value, float) and value.is_integer():
            read.append(int(value))
        else:
            readable = False
            if name == "points":
                message = _(
                    "Seat {seat}'s card points must be a whole number (or empty for the "
                    "dealer sitting out), not {what}.",
                    seat=i + 1,
                    what=describe(value),
                )
            else:
                message = _(
                    "Seat {seat}'s tricks must be a whole number (or empty for the dealer "
                    "sitting out), not {what}.",
                    seat=i + 1,
                    what=describe(value),
                )
            body.add(f"{name}.{i}", message)
    return tuple(read) if readable else None


def read_options(data: dict[str, Any] | None) -> SkatSheetOptions:
    """The options of a new sheet; ``RuleError`` at ``options.<name>`` for each bad one."""
    return SkatSheetOptions.from_mapping(data)


def options_summary(options: SkatSheetOptions, *, players: int | None = None) -> tuple[str, ...]:
    """One short line per option, defaults included, as the sheet shows them.

    Given the table size, the usual series is named exactly (36 deals at three, 48 at four,
    60 at five).
    """
    series: Text
    if options.series_deals is None and players in SERIES_DEALS:
        series = _(
            "Series of {count} deals (every player deals equally often)",
            count=SERIES_DEALS[players],
        )
    elif options.series_deals is None:
        series = _("Series of 36 deals at three players, 48 at four, 60 at five")
    else:
        series = ngettext(
            "Series of {count} deal",
            "Series of {count} deals",
            options.series_deals,
            count=options.series_deals,
        )
    kontra = _("Kontra and Re allowed") if options.kontra_re else _("No Kontra or Re")
    if options.all_pass == "ramsch":
        all_pass = _RAMSCH_TIES[options.ramsch_tie]
    else:
        all_pass = _("Thrown in when all pass (no Ramsch)")
    return (series, kontra, all_pass, _bock_summary(options))


def _bock_summary(options: SkatSheetOptions) -> Text:
    chosen = options.bock.as_dict()
    on = [words for name, words in _BOCK_TRIGGERS.items() if chosen[name]]
    off = [words for name, words in _BOCK_TRIGGERS.items() if not chosen[name]]
    if not on:
        return _("No Bock rounds")
    if not off:
        # Translators: {triggers} lists what a Bock round follows ("60:60 or a won Grand Hand").
        return _("Bock round after {triggers}", triggers=joined(on, last="or"))
    return _(
        # Translators: {triggers} and {others} list what a Bock round follows or does not.
        "Bock round after {triggers} (not after {others})",
        triggers=joined(on, last="or"),
        others=joined(off, last="or"),
    )
