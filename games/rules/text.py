"""Sentences for people, written in English and shown in the reader's language.

The referee has no Django, but everything it says is read by a player: explanations,
summaries, problems. So it never builds a finished sentence. ``_("… {points} …",
points=61)`` gives a :class:`Text`: a ``str`` whose value is the English sentence
(what the referee's own tests read), which also keeps its message id and its
parameters. Shown with ``str()`` (as a template, ``format_html`` and ``%s`` do), it is
translated into the language active at that moment, with the parameters shown in
that language too: numbers with the language's grouping and a true minus sign, card
names, nested sentences.

A result can be kept (cached, pickled) and shown later to a reader with
another language: it carries the message, not the translation.

The web app installs the translation (Django's ``gettext`` and number formats) with
:func:`install` when it starts; without it everything is English. ``makemessages``
finds these messages because they are written as ``_()``, ``ngettext()`` and
``pgettext()`` calls, as in any Django code.

Never put a ``Text`` into an f-string or ``+``: that keeps a plain string in one
language (the active one for an f-string, English for ``+``), which a kept result then
shows to every reader. Pass it as a parameter of another ``_()`` instead, or use
:func:`join`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from decimal import Decimal
from typing import Any

SOURCE_LANGUAGE = "en"


def _identity(message: str) -> str:
    return message


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


def _english_context(context: str, message: str) -> str:
    return message


def _english_number(n: int) -> str:
    return f"−{-n}" if n < 0 else str(n)


_SYMBOLS = {"EUR": "€", "GBP": "£", "USD": "$", "JPY": "¥"}


def _english_money(amount: Decimal, currency: str) -> str:
    """``€6.00``, ``CHF 6.00``: the referee's English before the web app installs the
    reader's own way (the CLDR's, through Babel)."""
    sign = "−" if amount < 0 else ""
    digits = f"{abs(amount):,}"
    symbol = _SYMBOLS.get(currency)
    return f"{sign}{symbol}{digits}" if symbol else f"{sign}{currency} {digits}"


class _Translation:
    """What :func:`install` sets: the active language and how to translate into it."""

    language: Callable[[], str | None] = staticmethod(lambda: SOURCE_LANGUAGE)
    gettext: Callable[[str], str] = staticmethod(_identity)
    ngettext: Callable[[str, str, int], str] = staticmethod(_english_plural)
    pgettext: Callable[[str, str], str] = staticmethod(_english_context)
    number: Callable[[int], str] = staticmethod(_english_number)
    money: Callable[[Decimal, str], str] = staticmethod(_english_money)


_translation = _Translation()


def install(
    *,
    language: Callable[[], str | None],
    gettext: Callable[[str], str],
    ngettext: Callable[[str, str, int], str],
    pgettext: Callable[[str, str], str],
    number: Callable[[int], str],
    money: Callable[[Decimal, str], str] | None = None,
) -> None:
    """Translate every :class:`Text` from now on (called once by the web app)."""
    _translation.language = language
    _translation.gettext = gettext
    _translation.ngettext = ngettext
    _translation.pgettext = pgettext
    _translation.number = number
    if money is not None:
        _translation.money = money


def in_source_language() -> bool:
    language = _translation.language()
    return not language or language == SOURCE_LANGUAGE or language.startswith("en-")


def _shown(value: Any) -> str:
    """A parameter as the reader sees it: numbers in the reader's own way."""
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int):
        return _translation.number(value)
    return str(value)


class Text(str):
    """A sentence: English as a ``str``, the reader's language when shown."""

    __slots__ = ()

    def __str__(self) -> str:
        if in_source_language():
            return str.__str__(self)
        return self.localized()

    def localized(self) -> str:
        """The reader's language; a plain Text (a name, a code) reads the same in all."""
        return str.__str__(self)


class Message(Text):
    """``_()``, ``ngettext()`` and ``pgettext()``: a catalogue message and its parameters."""

    # str subclasses cannot have __slots__ with fields; these live in the dict.
    msgid: str
    plural: str | None
    n: int | None
    context: str | None
    params: dict[str, Any]

    def __new__(
        cls,
        msgid: str,
        plural: str | None = None,
        n: int | None = None,
        context: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> Message:
        english = msgid if plural is None or n == 1 else plural
        if params:
            # A Text parameter gives its English value (formatting it would translate it).
            english = english.format_map(
                {k: str.__str__(v) if isinstance(v, Text) else v for k, v in params.items()}
            )
        else:
            params = {}
        self = str.__new__(cls, english)
        self.msgid = msgid
        self.plural = plural
        self.n = n
        self.context = context
        self.params = params
        return self

    def localized(self) -> str:
        if self.plural is not None:
            pattern = _translation.ngettext(self.msgid, self.plural, self.n or 0)
        elif self.context is not None:
            pattern = _translation.pgettext(self.context, self.msgid)
        else:
            pattern = _translation.gettext(self.msgid)
        if not self.params:
            return pattern
        return pattern.format(**{k: _shown(v) for k, v in self.params.items()})

    def __reduce__(self) -> tuple:
        return (Message, (self.msgid, self.plural, self.n, self.context, self.params))


def _english(value: Any) -> str:
    """A part as English: a Text's own value (never translated), anything else as str()."""
    return str.__str__(value) if isinstance(value, str) else str(value)


class Number(Text):
    """A total (``150``, ``−54``) or, with ``sign``, a change (``+50``, ``−50``, ``0``)."""

    value: int
    sign: bool

    def __new__(cls, value: int, sign: bool = False) -> Number:
        english = _english_number(value)
        if sign and value > 0:
            english = "+" + english
        self = str.__new__(cls, english)
        self.value = value
        self.sign = sign
        return self

    def localized(self) -> str:
        shown = _translation.number(self.value)
        return "+" + shown if self.sign and self.value > 0 else shown

    def __reduce__(self) -> tuple:
        return (Number, (self.value, self.sign))


class Money(Text):
    """An amount of money (``€6.00``; ``6,00 €`` in German): exact, with its currency."""

    amount: Decimal
    currency: str

    def __new__(cls, amount: Decimal, currency: str) -> Money:
        self = str.__new__(cls, _english_money(amount, currency))
        self.amount = amount
        self.currency = currency
        return self

    def localized(self) -> str:
        return _translation.money(self.amount, self.currency)

    def __reduce__(self) -> tuple:
        return (Money, (self.amount, self.currency))


class Joined(Text):
    """Texts shown one after another with a separator (``J♣ 10♥``, ``Ana, Ben``)."""

    parts: tuple[str, ...]
    separator: str

    def __new__(cls, separator: str, parts: Iterable[str]) -> Joined:
        parts = tuple(parts)
        self = str.__new__(cls, separator.join(_english(p) for p in parts))
        self.parts = parts
        self.separator = separator
        return self

    def localized(self) -> str:
        return str(self.separator).join(_shown(p) for p in self.parts)

    def __reduce__(self) -> tuple:
        return (Joined, (self.separator, self.parts))


class Capitalised(Text):
    """A sentence that starts with a capital wherever its first word comes from."""

    inner: str

    def __new__(cls, inner: str) -> Capitalised:
        english = str.__str__(inner) if isinstance(inner, str) else str(inner)
        self = str.__new__(cls, english[:1].upper() + english[1:])
        self.inner = inner
        return self

    def localized(self) -> str:
        shown = str(self.inner)
        return shown[:1].upper() + shown[1:]

    def __reduce__(self) -> tuple:
        return (Capitalised, (self.inner,))


def _(msgid: str, /, **params: Any) -> Message:
    """A sentence to translate: ``_("{points} is below 61.", points=points)``."""
    return Message(msgid, params=params)


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> Message:
    """A sentence that depends on a count: ``ngettext("{n} trick", "{n} tricks", n, n=n)``."""
    return Message(singular, plural, n, params=params)


def pgettext(context: str, msgid: str, /, **params: Any) -> Message:
    """A short word that needs a hint for the translator: ``pgettext("card rank", "J")``."""
    return Message(msgid, context=context, params=params)


def join(separator: str, parts: Iterable[str]) -> Joined:
    """``separator.join(parts)`` that keeps each part translatable."""
    return Joined(separator, parts)
