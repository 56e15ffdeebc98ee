"""The circle pages' forms. Their checks that depend on the data (a name taken,
seasons overlapping) are the services'; these read and tidy what was typed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from circles.models import Player
from circles.rules.standings import ClubRules
from scorekeeper.widgets import DateInput


class CircleForm(forms.Form):
    name = forms.CharField(
        label=_("Name of the circle"),
        max_length=60,
        help_text=_("For example “Tuesday Skat club” or “The Millers”."),
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
    )
    player_name = forms.CharField(
        label=_("Your name at the table"),
        max_length=40,
        required=False,
        help_text=_("As it will appear on the circle's sheets. You can add it later."),
        widget=forms.TextInput(attrs={"autocomplete": "given-name"}),
    )


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40)
    guest = forms.BooleanField(
        label=_("Guest"),
        required=False,
        help_text=_("Guests are left out of the standings unless you ask to see them."),
    )
    shown_as = forms.ChoiceField(
        label=_("Name shown outside the circle"),
        choices=Player.SHOWN_AS,
        widget=forms.RadioSelect,
        help_text=_("On standings shared by link, people outside the circle see this."),
    )


class NewPlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=40)


SKAT_RANK_BY = (
    ("total", _("Seeger-Fabian total")),
    ("average", _("Average per series")),
)
SKAT_MISSED = (
    ("ignore", _("Not at all")),
    ("zero", _("As a series of 0")),
)


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=60)
    starts_on = forms.DateField(label=_("First day"), widget=DateInput())
    ends_on = forms.DateField(label=_("Last day"), widget=DateInput())
    planned_evenings = forms.IntegerField(
        label=_("Evenings planned"),
        required=False,
        min_value=1,
        max_value=366,
        help_text=_(
            "How many evenings the circle plans to play; the title race counts the ones "
            "left. Leave empty to estimate from how often you have played so far."
        ),
    )
    rank_by = forms.ChoiceField(
        label=_("Skat: rank by"),
        choices=SKAT_RANK_BY,
        widget=forms.RadioSelect,
        initial="total",
        help_text=_(
            "The total adds up every series; the average divides it by the series "
            "counted, so players who came less often are not behind for that alone."
        ),
    )
    scale = forms.BooleanField(
        label=_("Skat: scale series of other lengths to 36 or 48 deals"),
        required=False,
        help_text=_(
            "A series of 24 deals at a table of three counts 36/24 times its "
            "Seeger-Fabian total, so short and long evenings weigh the same."
        ),
    )
    min_series = forms.IntegerField(
        label=_("Skat: series needed to be ranked"),
        min_value=0,
        max_value=99,
        initial=0,
        help_text=_("Players with fewer series are listed apart, below the table."),
    )
    drop_worst = forms.IntegerField(
        label=_("Skat: worst series dropped"),
        min_value=0,
        max_value=99,
        initial=0,
        help_text=_("Each player's N weakest series do not count (one always counts)."),
    )
    missed = forms.ChoiceField(
        label=_("Skat: an evening a player missed counts"),
        choices=SKAT_MISSED,
        widget=forms.RadioSelect,
        initial="ignore",
        help_text=_("An evening is a day on which the circle played Skat."),
    )

    def season_data(self) -> dict[str, object]:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "starts_on": data["starts_on"],
            "ends_on": data["ends_on"],
            "planned_evenings": data.get("planned_evenings"),
            "skat_rules": {
                "rank_by": data["rank_by"],
                "scale": data["scale"],
                "min_series": data["min_series"],
                "drop_worst": data["drop_worst"],
                "missed": data["missed"],
            },
        }

    @classmethod
    def initial_for(cls, season: object | None) -> dict[str, object]:
        if season is None:
            return {"rank_by": "total", "missed": "ignore", "min_series": 0, "drop_worst": 0}
        rules = ClubRules.from_mapping(season.skat_rules or {})
        return {
            "name": season.name,
            "starts_on": season.starts_on,
            "ends_on": season.ends_on,
            "planned_evenings": season.planned_evenings,
            "rank_by": rules.rank_by,
            "scale": rules.scale,
            "min_series": rules.min_series,
            "drop_worst": rules.drop_worst,
            "missed": rules.missed,
        }


class SheetFilterForm(forms.Form):
    """The circle page's search of its sheets: by player, game and days (all optional)."""

    player = forms.ModelChoiceField(
        label=_("Player"), queryset=Player.objects.none(), required=False, empty_label=_("Anyone")
    )
    game = forms.ChoiceField(label=_("Game"), required=False)
    since = forms.DateField(label=_("From"), required=False, widget=DateInput())
    until = forms.DateField(label=_("To"), required=False, widget=DateInput())

    def __init__(self, *args: Any, circle: Any, games: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = Player.objects.filter(circle=circle, erased=False)
        self.fields["game"].choices = [("", _("Any game")), *((g.slug, g.name) for g in games)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", _("The last day comes after the first day."))
        return data

    @property
    def filtering(self) -> bool:
        """A search was asked for and could be read (else the latest sheets show)."""
        return self.is_bound and self.is_valid() and any(self.data.get(n) for n in self.fields)
