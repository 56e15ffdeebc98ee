"""The evening's forms: what the organiser types. The rules are checked by
``evenings.services`` (the forms only read the fields)."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.formats import get_format
from django.utils.translation import gettext_lazy as _

from evenings.rules.money import CURRENCIES, MOST_TIERS, MoneyRules
from evenings.rules.seating import DEFAULT_SERIES_DEALS


class EveningForm(forms.Form):
    name = forms.CharField(
        label=_("Name of the evening"),
        max_length=80,
        help_text=_("For example “Club evening 1 December” or “Christmas Preisskat”."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    played_on = forms.DateField(
        label=_("Date"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    game = forms.ChoiceField(
        label=_("Game"),
        choices=(("skat", "Skat"), ("pitch", _("10-Point Pitch"))),
        widget=forms.RadioSelect,
        initial="skat",
    )
    series_count = forms.IntegerField(
        label=_("Number of series (at Pitch: rounds)"), min_value=1, max_value=20, initial=3
    )
    deals_3 = forms.IntegerField(
        label=_("Deals per series at a table of three"),
        min_value=3,
        initial=DEFAULT_SERIES_DEALS[3],
        help_text=_("A multiple of 3: 36 is the usual series, 27 or 12 a shortened one."),
    )
    deals_4 = forms.IntegerField(
        label=_("Deals per series at a table of four"),
        min_value=4,
        initial=DEFAULT_SERIES_DEALS[4],
        help_text=_("A multiple of 4: 48 is the usual series, 32 or 16 a shortened one."),
    )
    deals_5 = forms.IntegerField(
        label=_("Deals per series at a table of five"),
        min_value=5,
        initial=DEFAULT_SERIES_DEALS[5],
        help_text=_("A multiple of 5: 60 is the usual series."),
    )
    table_order = forms.ChoiceField(
        label=_("Order of the tables"),
        choices=(
            ("fours_first", _("Tables of four first")),
            ("threes_first", _("Tables of three first")),
        ),
        widget=forms.RadioSelect,
        initial="fours_first",
    )

    sit_out = forms.BooleanField(
        label=_("Players over a multiple of four sit out in turn"),
        required=False,
        help_text=_(
            "Each round others sit out and score the round's average; otherwise a roll "
            "that does not fill tables of four is not seated."
        ),
    )
    movement = forms.ChoiceField(
        label=_("Between rounds"),
        choices=(
            ("lot", _("Drawn by lot for each round")),
            ("progressive", _("Progressive: winners move up a table, partners split")),
            ("rotation", _("Rotation: everyone partners everyone once (4 to 16 players)")),
        ),
        widget=forms.RadioSelect,
        initial="lot",
        required=False,
        help_text=_(
            "Progressive and rotation draw round 1 by lot and seat every later round by "
            "themselves; a night of more than 16 players moves progressively."
        ),
    )
    round_format = forms.ChoiceField(
        label=_("A round ends"),
        choices=(
            ("target", _("When a team reaches the target")),
            ("hands", _("After a number of hands")),
            ("minutes", _("When the organiser calls time (the hand in play is finished)")),
        ),
        widget=forms.RadioSelect,
        initial="target",
        required=False,
    )
    round_hands = forms.IntegerField(
        label=_("Hands a round"),
        min_value=1,
        max_value=60,
        required=False,
        help_text=_("For rounds of a number of hands, for example 8 or 12."),
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes a round"),
        min_value=5,
        max_value=300,
        required=False,
        help_text=_("For rounds of minutes, for example 20 or 30."),
    )
    counts = forms.ChoiceField(
        label=_("A player's total"),
        choices=(
            ("points", _("Points: the sum of their teams' scores")),
            (
                "match_points",
                _("Match points: 1 for each team outscored in the round, ½ for a tie"),
            ),
        ),
        widget=forms.RadioSelect,
        initial="points",
        required=False,
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["played_on"].initial = timezone.localdate()

    def series_deals(self) -> dict[str, int]:
        data = self.cleaned_data
        return {"3": data["deals_3"], "4": data["deals_4"], "5": data["deals_5"]}


class PlayerForm(forms.Form):
    team = forms.CharField(
        label=_("Team"),
        max_length=40,
        required=False,
        help_text=_("Teams of four or tandems of two: the players of a team share its name."),
    )
    tags = forms.CharField(
        label=_("Categories"),
        max_length=200,
        required=False,
        help_text=_("For example “women, seniors”: each category gets its own list."),
    )


class DrawForm(forms.Form):
    method = forms.ChoiceField(
        label=_("Draw"),
        choices=(("lot", _("By lot")), ("seeded", _("Seeded by the ranking so far"))),
        widget=forms.RadioSelect,
        initial="lot",
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=0,
        max_value=999_999,
        required=False,
        help_text=_(
            "The same seed with the same roll gives the same tables: type one to check a draw."
        ),
    )
    keep_apart = forms.BooleanField(
        label=_("Keep apart who sat together in the last series"), required=False
    )


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=_("Player"), coerce=int)
    second = forms.TypedChoiceField(label=_("Swaps places with"), coerce=int)

    def __init__(self, *args: object, players: list[tuple[int, str]], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["first"].choices = players
        self.fields["second"].choices = players


def today() -> datetime.date:
    return timezone.localdate()


class AmountInput(forms.TextInput):
    """An amount's text box (MoneyForm shows the amounts it starts from in the reader's
    format: "6,00" in German and Esperanto)."""


def local_amounts(value: object) -> object:
    """Amounts to start a form from, written with the reader's decimal mark: "6.00" and
    Decimal("0.50") are "6,00" and "0,50" in German, and "30.00 20" is "30,00 20" (the
    money rules read either mark). Anything else is left as it is."""
    if not isinstance(value, (str, Decimal)) or value == "":
        return value
    mark = get_format("DECIMAL_SEPARATOR")
    words = str(value).split()
    try:
        for word in words:
            Decimal(word)
    except ArithmeticError:
        return value
    return " ".join(word.replace(".", mark) for word in words)


def _amount_field(label: object, initial: str = "", help_text: object = "") -> forms.CharField:
    # Text with a decimal keyboard, not type="number": "6,00" typed in German stays "6,00"
    # (a number input would drop it); the money rules read both "6.00" and "6,00".
    return forms.CharField(
        label=label,
        required=False,
        max_length=12,
        initial=initial,
        help_text=help_text,
        widget=AmountInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )


TIERS = 3


def _tier_start(initial: int | None = None) -> forms.IntegerField:
    return forms.IntegerField(
        label=_("From lost game"), min_value=1, max_value=99, initial=initial, required=False
    )


class MoneyForm(forms.Form):
    """The evening's money rules as the organiser types them (api.md's ``money``).

    The form only reads the fields; ``evenings.rules.money.read_rules`` checks them and
    its problems are put back on the fields (``field_of``)."""

    keeps_money = forms.BooleanField(label=_("This evening keeps money"), required=False)
    currency = forms.ChoiceField(
        label=_("Currency"),
        # Every currency the rules take (an evening's own, given through the API, is
        # offered and kept when its page is saved).
        choices=[(code, code) for code in CURRENCIES],
        initial="EUR",
    )
    entry_fee = _amount_field(
        _("Entry fee"), "6.00", _("Paid once per player; usually paid back in full as prizes.")
    )
    table_fee = _amount_field(_("Table fee per series (at Pitch: per round)"), "0.00")
    tier_1_from = _tier_start(1)
    tier_1_amount = _amount_field(_("Fee per lost game"), "0.50")
    tier_2_from = _tier_start(4)
    tier_2_amount = _amount_field(_("Fee per lost game"), "1.00")
    tier_3_from = _tier_start()
    tier_3_amount = _amount_field(_("Fee per lost game"))
    lost_fee_share = _amount_field(
        _("Share of the lost-game fees in the pot (percent)"),
        "0",
        _("The rest of the lost-game fees, and the table fees, stay in the cash box."),
    )
    count = forms.ChoiceField(
        label=_("Number of prizes"),
        choices=(("per_table", _("So many per table")), ("fixed", _("A fixed number"))),
        widget=forms.RadioSelect,
        initial="per_table",
    )
    per_table = _amount_field(_("Prizes per table"), "1")
    prizes = forms.IntegerField(
        label=_("Prizes"), min_value=0, max_value=200, initial=3, required=False
    )
    curve = forms.ChoiceField(
        label=_("Amounts"),
        choices=(
            ("linear", _("Falling evenly (3 : 2 : 1)")),
            ("geometric", _("Each three quarters of the one before")),
            ("equal", _("All the same")),
            ("manual", _("Typed by hand")),
        ),
        widget=forms.RadioSelect,
        initial="linear",
    )
    amounts = forms.CharField(
        label=_("Prizes typed by hand"),
        required=False,
        max_length=600,
        help_text=_("The first prize first, separated by spaces, for example “30 20 10”."),
        widget=AmountInput(attrs={"inputmode": "decimal", "autocomplete": "off"}),
    )
    round_to = forms.ChoiceField(
        label=_("Round prizes down to"),
        choices=(("1", _("Whole units")), ("0.5", _("Halves")), ("0.01", _("Cents"))),
        initial="1",
    )
    series_prize = _amount_field(
        _("Prize for the best of each series (at Pitch: of each round)"), "0.00"
    )
    category_prize = _amount_field(_("Prize for the best of each category"), "0.00")
    ties = forms.ChoiceField(
        label=_("Players level on points"),
        choices=(
            ("split", _("Share the prizes of their places")),
            ("tie_break", _("Follow the ranking's tie-break (games won, then lost)")),
        ),
        widget=forms.RadioSelect,
        initial="split",
    )
    draw_after_paying = forms.BooleanField(
        label=_("The draw waits until everyone has paid"), required=False
    )
    keep_for_circle = forms.BooleanField(
        label=_("Keep these as the circle's usual rules"), required=False
    )

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # Nothing is needed while the box "keeps money" is unticked; with it ticked an
        # empty choice takes its default and read_rules checks the rest.
        for field in self.fields.values():
            field.required = False
        # Three tiers of lost-game fees, or as many as the rules kept have (the API
        # takes more) or as the form sent back had: saving the page keeps them all.
        self.tier_count = TIERS
        while self.tier_count < MOST_TIERS and (
            self.initial.get(f"tier_{self.tier_count + 1}_from") is not None
            or self.add_prefix(f"tier_{self.tier_count + 1}_from") in self.data
        ):
            self.tier_count += 1
            self.fields[f"tier_{self.tier_count}_from"] = _tier_start()
            self.fields[f"tier_{self.tier_count}_amount"] = _amount_field(_("Fee per lost game"))
            self.fields[f"tier_{self.tier_count}_amount"].required = False
        if not self.is_bound:
            # What it starts from reads as the reader writes amounts; what was typed and
            # sent back is shown as it was typed.
            for name, field in self.fields.items():
                if isinstance(field.widget, AmountInput):
                    self.initial[name] = local_amounts(self.initial.get(name, field.initial))

    def for_game(self, game: str) -> None:
        """The fields of an evening of ``game``: a Pitch night has rounds, not series,
        and no lost games as declarer (so no lost-game fees, and its ties go by rounds
        won, then points against)."""
        self.pitch = game == "pitch"
        if not self.pitch:
            self.fields["table_fee"].label = _("Table fee per series")
            self.fields["series_prize"].label = _("Prize for the best of each series")
            return
        self.fields["table_fee"].label = _("Table fee per round")
        self.fields["series_prize"].label = _("Prize for the best of each round")
        self.fields["ties"].choices = (
            ("split", _("Share the prizes of their places")),
            ("tie_break", _("Follow the ranking's tie-break (rounds won, then points against)")),
        )
        for i in range(1, self.tier_count + 1):
            del self.fields[f"tier_{i}_from"], self.fields[f"tier_{i}_amount"]
        del self.fields["lost_fee_share"]

    def _choice(self, name: str) -> object:
        return self.cleaned_data.get(name) or self.fields[name].initial

    @property
    def tier_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """Each tier's two fields: the lost game it starts from, and its fee."""
        return [
            (self[f"tier_{i}_from"], self[f"tier_{i}_amount"])
            for i in range(1, self.tier_count + 1)
            if f"tier_{i}_from" in self.fields
        ]

    def clean(self) -> dict[str, Any]:
        """A fee typed without the lost game it starts from is refused (it would be
        dropped, and every bill come out short); a tier whose fee is left empty is
        dropped, as the form says."""
        data = super().clean() or {}
        if not data.get("keeps_money"):
            return data
        for i in range(1, self.tier_count + 1):
            start, amount = f"tier_{i}_from", f"tier_{i}_amount"
            if start not in self.fields or start in self.errors or amount in self.errors:
                continue
            if str(data.get(amount) or "").strip() and data.get(start) is None:
                self.add_error(start, _("Give the lost game from which this fee is paid."))
        return data

    def rules_data(self) -> dict[str, object] | None:
        """api.md's ``money`` from the cleaned fields, or None when it keeps none."""
        data = self.cleaned_data
        if not data.get("keeps_money"):
            return None
        tiers = [
            {"from": data[f"tier_{i}_from"], "amount": data[f"tier_{i}_amount"]}
            for i in range(1, self.tier_count + 1)
            if data.get(f"tier_{i}_amount") and data.get(f"tier_{i}_from")
        ]
        curve = self._choice("curve")
        return {
            "currency": self._choice("currency"),
            "entry_fee": data["entry_fee"] or "0",
            "table_fee": data["table_fee"] or "0",
            "lost_game_fees": tiers,
            "draw_after_paying": bool(data.get("draw_after_paying")),
            "payout": {
                "lost_fee_share": data.get("lost_fee_share") or "0",
                "count": self._choice("count"),
                "per_table": data["per_table"] or "0",
                "prizes": data["prizes"] if data["prizes"] is not None else 0,
                "curve": curve,
                "amounts": (data["amounts"] or "").replace(";", " ").split()
                if curve == "manual"
                else [],
                "round_to": self._choice("round_to"),
                "series_prize": data["series_prize"] or "0",
                "category_prize": data["category_prize"] or "0",
                "ties": self._choice("ties"),
            },
        }

    @staticmethod
    def initial_from(rules: MoneyRules | None) -> dict[str, object]:
        """The form's fields from rules already kept (and checked), to start from."""
        if rules is None:
            return {}
        payout = rules.payout
        initial: dict[str, object] = {
            "keeps_money": True,
            "currency": rules.currency,
            "entry_fee": rules.entry_fee,
            "table_fee": rules.table_fee,
            "draw_after_paying": rules.draw_after_paying,
            "lost_fee_share": payout.lost_fee_share,
            "count": payout.count,
            "per_table": payout.per_table,
            "prizes": payout.prizes,
            "curve": payout.curve,
            "amounts": " ".join(str(amount) for amount in payout.amounts),
            # The choice's values: "1", "0.5", "0.01".
            "round_to": {Decimal(1): "1", Decimal("0.5"): "0.5"}.get(payout.round_to, "0.01"),
            "series_prize": payout.series_prize,
            "category_prize": payout.category_prize,
            "ties": payout.ties,
        }
        for i in range(1, max(TIERS, len(rules.tiers)) + 1):
            tier = rules.tiers[i - 1] if i <= len(rules.tiers) else None
            initial[f"tier_{i}_from"] = tier.start if tier else None
            initial[f"tier_{i}_amount"] = tier.amount if tier else ""
        return initial


def money_field_of(problem_field: str | None) -> str | None:
    """The MoneyForm field a problem of ``read_rules`` belongs to ("money.entry_fee" →
    "entry_fee", "money.lost_game_fees.1.amount" → "tier_2_amount")."""
    if not problem_field or not problem_field.startswith("money"):
        return None
    parts = problem_field.split(".")[1:]
    if not parts:
        return None
    if parts[0] == "lost_game_fees":
        if len(parts) >= 3 and parts[1].isdigit():
            return f"tier_{int(parts[1]) + 1}_{'from' if parts[2] == 'from' else 'amount'}"
        return "tier_1_amount"
    if parts[0] == "payout":
        return parts[1] if len(parts) > 1 else "curve"
    return parts[0]
