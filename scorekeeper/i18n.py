"""Languages: the referee's sentences translated when shown, numbers as each language writes them."""

from __future__ import annotations

from decimal import Decimal
from functools import cache
from typing import Any

from babel import Locale
from babel.numbers import format_currency
from django import http
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


@cache
def _locale(language: str) -> Locale:
    try:
        return Locale.parse(language.replace("-", "_"))
    except (ValueError, LookupError):
        return Locale.parse("en")


def money(amount: Decimal, currency: str) -> str:
    """An amount in the active language's way with its currency (``€6.00``, ``6,00 €``
    in German), exact (a Decimal, never a float) and with a real minus sign."""
    language = translation.get_language() or text.SOURCE_LANGUAGE
    return format_currency(amount, currency, locale=_locale(language)).replace("-", "−")


def install() -> None:
    """Have the referee's Texts speak the active language (Django's catalogues)."""
    text.install(
        language=translation.get_language,
        gettext=translation.gettext,
        ngettext=translation.ngettext,
        pgettext=translation.pgettext,
        number=number,
        money=money,
    )


def localized(value: Any) -> Any:
    """JSON-ready data with every referee Text shown in the active language.

    ``json`` writes a ``str`` subclass as its raw (English) value, so an answer is
    passed through this before it is written.
    """
    if isinstance(value, text.Text):
        return str(value)
    if isinstance(value, dict):
        return {key: localized(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [localized(item) for item in value]
    return value


class JsonResponse(http.JsonResponse):
    """Django's JsonResponse, with the referee's sentences in the request's language
    (the API's field names and values never change; its messages follow
    Accept-Language)."""

    def __init__(self, data: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(localized(data), *args, **kwargs)
