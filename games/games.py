"""The game registry: one entry per game.

Everything that differs between games and is not a rule (names, players at the
table, the referee and sheet modules, how the pages' forms map to the deal's JSON,
which options a new sheet asks for) is looked up here, so adding a game later is
one new entry plus its rules, sheet engine, deal reader and entry template.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games import entry_forms
from games.deal_input import manipulation as manipulation_input
from games.deal_input import pitch as pitch_input
from games.deal_input import skat as skat_input
from games.rules import manipulation, manipulation_sheet, pitch, pitch_sheet, skat, skat_sheet


@dataclass(frozen=True)
class OptionField:
    """One option on the new-sheet form. ``name`` is a dotted path into the options JSON."""

    name: str
    label: str
    kind: str  # "bool", "choice" or "number"
    choices: tuple[tuple[str, str], ...] = ()
    default: Any = None
    help: str = ""

    @property
    def input_name(self) -> str:
        return "option_" + self.name.replace(".", "__")


@dataclass(frozen=True)
class GameEntry:
    slug: str
    name: str
    players: tuple[int, ...]
    rules: ModuleType
    tagline: str
    summary: str
    endpoints: tuple[str, ...]
    sheet_module: ModuleType
    sheet_class: type
    deal_input: ModuleType
    option_fields: tuple[OptionField, ...]
    entry_from_post: Callable[..., dict[str, Any]]
    form_values: Callable[[dict[str, Any]], dict[str, Any]]
    # "deal" in card games where a deal is scored; Manipulation scores rounds.
    deal_word: str = "deal"
    # Manipulation counts penalties: a rising total is bad news there.
    low_wins: bool = False
    # The referee pages for this game: (URL name, the question they answer).
    referee_tools: tuple[tuple[str, str], ...] = ()
    # The partials of the entry template that depend on who sits out: a deal saved with
    # htmx sends them again (the rest of the form is reset by entry.js) when somebody
    # sits out the next deal.
    seat_partials: tuple[str, ...] = ()

    @property
    def counts_rounds(self) -> bool:
        """Whether the sheet says "round" where the other games say "deal"; each text that
        names one has both wordings, for translations that inflect them differently."""
        return self.deal_word == "round"

    @property
    def players_label(self) -> str:
        low, high = min(self.players), max(self.players)
        if low == high:
            return ngettext("%(count)d player", "%(count)d players", low) % {"count": low}
        return _("%(low)d to %(high)d players") % {"low": low, "high": high}

    @property
    def entry_template(self) -> str:
        return f"games/entry/{self.slug}.html"

    @property
    def summary_template(self) -> str:
        """The game's own tally under the totals (Seeger-Fabian, points to the target)."""
        return f"games/summary/{self.slug}.html"

    # -- sheets ------------------------------------------------------------------------
    def read_options(self, data: object, *, players: int) -> Any:
        return self.deal_input.read_options(data if data is not None else {})

    def options_as_dict(self, options: Any) -> dict[str, Any]:
        return options.as_dict()

    def sheet_options(self, sheet: Any) -> Any:
        cached = getattr(sheet, "_options", None)
        if cached is None:
            cached = self.read_options(sheet.options, players=None)
            sheet._options = cached
        return cached

    def options_summary(self, options: Any, *, players: int | None = None) -> tuple[str, ...]:
        return tuple(self.deal_input.options_summary(options, players=players))

    def new_sheet(self, *, names: Sequence[str], first_dealer: int, options: Any) -> Any:
        return self.sheet_class(players=list(names), first_dealer=first_dealer, options=options)

    def read_deal(self, data: Any, *, players: int, options: Any) -> Any:
        return self.deal_input.read_deal(data, players=players, options=options)

    def options_from_post(self, post: QueryDict) -> dict[str, Any]:
        """The new-sheet form's option fields as the options JSON (nested by dotted name)."""
        options: dict[str, Any] = {}
        for option in self.option_fields:
            raw = post.get(option.input_name)
            if option.kind == "bool":
                value: Any = raw in ("on", "true", "1")
            elif raw is None or raw.strip() == "":
                continue
            else:
                value = entry_forms.int_or_text(raw)
            target = options
            *parents, last = option.name.split(".")
            for parent in parents:
                target = target.setdefault(parent, {})
            target[last] = value
        return options

    def option_value(self, options: Mapping[str, Any], option: OptionField) -> Any:
        value: Any = options
        for part in option.name.split("."):
            if not isinstance(value, Mapping) or part not in value:
                return option.default
            value = value[part]
        return value


GAMES: dict[str, GameEntry] = {
    entry.slug: entry
    for entry in (
        GameEntry(
            slug="skat",
            name=gettext_lazy("Skat"),
            seat_partials=("declarer", "ramsch"),
            players=(3, 4, 5),
            rules=skat,
            tagline=gettext_lazy("Game value, matadors, overbidding and the list"),
            summary=gettext_lazy(
                "Base value times levels, Null values, overbidding, Kontra and Re, "
                "Bock and Ramsch, and Seeger-Fabian for the series, by the "
                "International Skat Order."
            ),
            endpoints=("api-skat-score", "api-skat-trick", "api-skat-follow"),
            sheet_module=skat_sheet,
            sheet_class=skat_sheet.SkatSheet,
            deal_input=skat_input,
            entry_from_post=entry_forms.skat_entry,
            referee_tools=(
                ("games:referee-skat-value", gettext_lazy("What is this game worth?")),
                ("games:referee-skat-bid", gettext_lazy("How high may I bid?")),
                ("games:referee-skat-trick", gettext_lazy("Who wins this trick?")),
                ("games:referee-skat-follow", gettext_lazy("Was that card allowed?")),
                ("games:referee-skat-ladder", gettext_lazy("The bid ladder")),
            ),
            form_values=entry_forms.skat_form,
            option_fields=(
                OptionField(
                    "kontra_re",
                    gettext_lazy("Kontra and Re"),
                    "bool",
                    default=False,
                    help=gettext_lazy("A defender may double the game, the declarer double again."),
                ),
                OptionField(
                    "bock.sixty_all",
                    gettext_lazy("Bock round after a 60:60"),
                    "bool",
                    default=False,
                ),
                OptionField(
                    "bock.lost_after_kontra",
                    gettext_lazy("Bock round after a lost game with Kontra"),
                    "bool",
                    default=False,
                ),
                OptionField(
                    "bock.hundred_or_more",
                    gettext_lazy("Bock round after a game worth 100 or more"),
                    "bool",
                    default=False,
                ),
                OptionField(
                    "bock.grand_hand_won",
                    gettext_lazy("Bock round after a won Grand Hand"),
                    "bool",
                    default=False,
                ),
                OptionField(
                    "all_pass",
                    gettext_lazy("When all three pass"),
                    "choice",
                    choices=(
                        ("throw_in", gettext_lazy("Throw the cards in")),
                        ("ramsch", gettext_lazy("Play Ramsch")),
                    ),
                    default="throw_in",
                ),
                OptionField(
                    "ramsch_tie",
                    gettext_lazy("Ramsch: tie for most points"),
                    "choice",
                    choices=(
                        ("all_tied_lose", gettext_lazy("All tied players lose")),
                        (
                            "last_trick_loses",
                            gettext_lazy("The tied player who took the last trick loses"),
                        ),
                    ),
                    default="all_tied_lose",
                ),
                OptionField(
                    "series_deals",
                    gettext_lazy("Deals in the series"),
                    "number",
                    help=gettext_lazy(
                        "Leave empty for the usual 36 at three players, 48 at four, 60 at five."
                    ),
                ),
            ),
        ),
        GameEntry(
            slug="pitch",
            name=gettext_lazy("10-Point Pitch"),
            players=(4,),
            rules=pitch,
            tagline=gettext_lazy("Bids, the ten points and shooting the moon"),
            summary=gettext_lazy(
                "Two teams race to 52. Who took the ace, jacks, jokers, ten, two and "
                "three; made or set; the moon won or lost."
            ),
            endpoints=("api-pitch-hand", "api-pitch-trick"),
            sheet_module=pitch_sheet,
            sheet_class=pitch_sheet.PitchSheet,
            deal_input=pitch_input,
            entry_from_post=entry_forms.pitch_entry,
            referee_tools=(
                ("games:referee-pitch-trick", gettext_lazy("Who wins this trick?")),
                ("games:referee-pitch-hand", gettext_lazy("Score a hand")),
            ),
            form_values=entry_forms.pitch_form,
            option_fields=(
                OptionField("target", gettext_lazy("Points to win"), "number", default=52),
                OptionField(
                    "made_scores",
                    gettext_lazy("A team that makes its bid scores"),
                    "choice",
                    choices=(
                        ("taken", gettext_lazy("The points it took")),
                        ("bid", gettext_lazy("Its bid")),
                    ),
                    default="taken",
                ),
                OptionField(
                    "two_goes_to",
                    # Translators: the two of trump, one of Pitch's ten points.
                    gettext_lazy("The two scores for"),
                    "choice",
                    choices=(
                        ("taker", gettext_lazy("The team that wins it")),
                        ("player", gettext_lazy("The team that plays it")),
                    ),
                    default="taker",
                ),
                OptionField(
                    "all_pass",
                    gettext_lazy("When the first three pass"),
                    "choice",
                    choices=(
                        ("dealer_4", gettext_lazy("The dealer must bid 4")),
                        ("redeal", gettext_lazy("Deal again")),
                    ),
                    default="dealer_4",
                ),
                OptionField(
                    "win_condition",
                    gettext_lazy("Both teams over the target on one hand"),
                    "choice",
                    choices=(
                        ("bidder_first", gettext_lazy("The pitching team wins")),
                        ("bid_out", gettext_lazy("Only a pitching team that made its bid can win")),
                    ),
                    default="bidder_first",
                ),
                OptionField(
                    "hands",
                    gettext_lazy("Number of hands"),
                    "number",
                    default=None,
                    help=gettext_lazy(
                        "Leave it empty to play to the target. With a number, the game ends "
                        "after that many hands at the latest, and the higher score wins."
                    ),
                ),
            ),
        ),
        GameEntry(
            slug="manipulation",
            name=gettext_lazy("Manipulation"),
            players=(3, 4, 5),
            rules=manipulation,
            tagline=gettext_lazy("Melds, rearranging the table, penalty points"),
            summary=gettext_lazy(
                "Rummy with two decks where the whole table may be rearranged. Checks "
                "melds and turns, finds a layout for any set of cards, and counts penalties."
            ),
            endpoints=(
                "api-manipulation-melds",
                "api-manipulation-turn",
                "api-manipulation-arrange",
                "api-manipulation-round",
            ),
            sheet_module=manipulation_sheet,
            sheet_class=manipulation_sheet.ManipulationSheet,
            deal_input=manipulation_input,
            entry_from_post=entry_forms.manipulation_entry,
            referee_tools=(
                ("games:referee-manipulation-melds", gettext_lazy("Are these melds valid?")),
                ("games:referee-manipulation-turn", gettext_lazy("Was that turn legal?")),
                (
                    "games:referee-manipulation-arrange",
                    gettext_lazy("Can all these cards go down?"),
                ),
            ),
            deal_word="round",
            low_wins=True,
            form_values=entry_forms.manipulation_form,
            option_fields=(
                OptionField(
                    "target",
                    gettext_lazy("The game ends at"),
                    "choice",
                    choices=(
                        ("200", gettext_lazy("200 points")),
                        ("300", gettext_lazy("300 points")),
                    ),
                    default=200,
                ),
                OptionField(
                    "ace",
                    # Translators: the ace in Manipulation's sequences; the choices write
                    # the cards as labels (Q-K-A: queen, king, ace).
                    gettext_lazy("The ace"),
                    "choice",
                    choices=(
                        ("high", gettext_lazy("High only: Q-K-A")),
                        ("low_or_high", gettext_lazy("High or low: A-2-3 too")),
                    ),
                    default="high",
                ),
                OptionField(
                    "stock_out",
                    gettext_lazy("When the stock is empty"),
                    "choice",
                    choices=(
                        ("play_on", gettext_lazy("Pass until everyone has passed")),
                        (
                            "end_round",
                            gettext_lazy("The round ends when the player to move cannot meld"),
                        ),
                    ),
                    default="play_on",
                ),
            ),
        ),
    )
}
