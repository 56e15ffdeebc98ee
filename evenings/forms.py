"""The evening's forms: what the organiser types. The rules are checked by
``evenings.services`` (the forms only read the fields)."""

from __future__ import annotations

import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

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
        choices=(("skat", "Skat"), ("pitch", "10-Point Pitch")),
        widget=forms.RadioSelect,
        initial="skat",
    )
    series_count = forms.IntegerField(
        label=_("Number of series"), min_value=1, max_value=20, initial=3
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
        label=_("Pitch: players over a multiple of four sit out in turn"),
        required=False,
        help_text=_("Otherwise a roll that does not fill tables of four is not drawn."),
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
