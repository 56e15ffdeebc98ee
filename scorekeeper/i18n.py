"""Languages: the referee's sentences translated when shown, numbers as each language writes them."""

from __future__ import annotations

from django.utils import formats, translation

from games.rules import text


def number(n: int) -> str:
    """A whole number as the active language writes it: ``1.234`` and ``−50`` in German.

    English keeps the plain digits the sheets always showed (``1234``, ``−50``).
    Every language gets a true minus sign, which is read aloud as one.
    """
    if text.in_source_language():
        return f"−{-n}" if n < 0 else str(n)
    shown = formats.number_format(abs(n), force_grouping=True)
    return f"−{shown}" if n < 0 else shown


def signed(n: int) -> str:
    """A change of score: ``+50``, ``−50``, ``0``."""
    return f"+{number(n)}" if n > 0 else number(n)


def install() -> None:
    """Have the referee's Texts speak the active language (Django's catalogues)."""
    text.install(
        language=translation.get_language,
        gettext=translation.gettext,
        ngettext=translation.ngettext,
        pgettext=translation.pgettext,
        number=number,
    )
