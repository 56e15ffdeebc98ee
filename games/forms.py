"""Django forms of the sheet pages that are plain fields (the deal entry forms are
``games.entry_forms``)."""

from __future__ import annotations

import datetime

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

# The one way an <input type="date"> carries a date, whatever the page's language: a
# German "01.12.2026" would reach the browser as an empty field.
ISO_DATE = "%Y-%m-%d"


class PlayedOnForm(forms.Form):
    """The day a sheet was played: on the new-sheet form and on the sheet page."""

    played_on = forms.DateField(
        label=_("Played on"),
        widget=forms.DateInput(attrs={"type": "date"}, format=ISO_DATE),
    )


def played_on_form(day: datetime.date | None = None) -> PlayedOnForm:
    """The form showing ``day`` (today in the server's time zone when None)."""
    return PlayedOnForm(initial={"played_on": day or timezone.localdate()})


def posted_day(value: str | None) -> object:
    """The posted day: a date when the field reads as one (in ISO form, as a date picker
    sends it, or in the page's language), the text itself when not (the service says
    what is wrong with it), None when it was left empty (today)."""
    text = (value or "").strip()
    if not text:
        return None
    form = PlayedOnForm(data={"played_on": text})
    if form.is_valid():
        return form.cleaned_data["played_on"]
    return text
