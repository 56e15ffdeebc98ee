"""Form widgets shared by the apps."""

from __future__ import annotations

from django import forms

# The one way an <input type="date"> carries a date, whatever the page's language
# (HTML's "valid date string"). A browser drops any other value, so a German
# "01.09.2026" would reach the reader as an empty field.
ISO_DATE = "%Y-%m-%d"


class DateInput(forms.DateInput):
    """The browser's date picker, sent its value as ``2026-09-01`` in every language.

    Django's own DateInput writes the value in the active language's first input
    format (``01.09.2026`` in German); the browser shows the date in the reader's
    own format anyway. Every date field in the project uses this widget.
    """

    input_type = "date"

    def __init__(self, attrs: dict | None = None) -> None:
        super().__init__(attrs=attrs, format=ISO_DATE)
