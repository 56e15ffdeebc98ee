"""Card faces for the card picker: the decks laid out in rows by suit."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache, lru_cache
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as _

from games.rules import manipulation, skat
from games.rules.cards import (
    JOKER_HIGH,
    MANIPULATION_DECK,
    PITCH_DECK,
    RANK_LETTERS,
    SKAT_DECK,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    Card,
    parse_card,
)
from games.rules.errors import RuleError


@dataclass(frozen=True)
class Face:
    code: str
    rank: str
    symbol: str
    name: str
    colour: str  # "red" or "black"
    value: int  # Skat card points, or the rummy penalty


@dataclass(frozen=True)
class Suit:
    letter: str
    name: str


def _face(card: Card, value: int) -> Face:
    return Face(
        card.code,
        # The letter on the face as the reader's language writes it (B for Bube in German).
        RANK_LETTERS.get(card.rank, card.rank),
        SUIT_SYMBOLS[card.suit],
        card.name,
        "red" if card.is_red else "black",
        value,
    )


@cache
def skat_deck() -> tuple[tuple[Suit, tuple[Face, ...]], ...]:
    rows = []
    for letter in ("C", "S", "H", "D"):
        cards = [c for c in SKAT_DECK.kinds if c.suit == letter]
        rows.append(
            (Suit(letter, SUIT_NAMES[letter]), tuple(_face(c, skat.card_points(c)) for c in cards))
        )
    return tuple(rows)


@cache
def rummy_deck() -> tuple[tuple[Suit, tuple[Face, ...]], ...]:
    rows = []
    for letter in ("C", "S", "H", "D"):
        cards = [c for c in MANIPULATION_DECK.kinds if c.suit == letter]
        cards.reverse()  # 2 … A, the order players sort a rummy hand
        rows.append(
            (
                Suit(letter, SUIT_NAMES[letter]),
                tuple(_face(c, manipulation.penalty(c)) for c in cards),
            )
        )
    return tuple(rows)


@cache
def pitch_deck() -> tuple[tuple[Suit, tuple[Face, ...]], ...]:
    """52 cards, A high first (Pitch's order), and a row for the two jokers."""
    rows = []
    for letter in ("C", "S", "H", "D"):
        cards = [c for c in PITCH_DECK.kinds if c.suit == letter]
        rows.append((Suit(letter, SUIT_NAMES[letter]), tuple(_face(c, 0) for c in cards)))
    jokers = tuple(
        Face(c.code, "★", "", c.name, "red" if c.rank == JOKER_HIGH else "black", 0)
        for c in PITCH_DECK.kinds
        if c.is_joker
    )
    rows.append((Suit("J", pgettext_lazy("a row of the card picker", "jokers")), jokers))
    return tuple(rows)


DECKS = {"skat": skat_deck, "rummy": rummy_deck, "manipulation": rummy_deck, "pitch": pitch_deck}


def _selected_counts(selected: object) -> Counter[str]:
    counts: Counter[str] = Counter()
    if isinstance(selected, list | tuple):
        for value in selected:
            try:
                counts[parse_card(value).code] += 1
            except RuleError:
                continue
    return counts


def picker_html(
    *,
    name: str,
    deck: str,
    selected: object,
    copies: int,
    label: str,
    total: str,
    single: bool = False,
) -> SafeString:
    """The card picker: a grid of real card faces, one tick box per copy of each card.

    Built in Python rather than a template loop: a sheet page can hold three pickers
    of 32 cards, and this keeps the page fast. Tapping a face toggles its card (two
    decks: 0 → 1 → 2 copies, see static/js/cardpicker.js); the chosen cards post as
    repeated values of ``name``. Without JavaScript the tick boxes work as they are.
    ``single`` makes it choose exactly one card (radio buttons: the card led, the
    card played).
    """
    if not selected:
        # An empty picker is the same every time: built once per process.
        return _empty_picker(name, deck, copies, label, total, single, get_language())
    return _picker(
        name=name,
        deck=deck,
        selected=selected,
        copies=copies,
        label=label,
        total=total,
        single=single,
    )


@lru_cache(maxsize=256)
def _empty_picker(
    name: str, deck: str, copies: int, label: str, total: str, single: bool, language: str | None
) -> SafeString:
    # The language is part of the key: the card names are written in it.
    return _picker(
        name=name, deck=deck, selected=None, copies=copies, label=label, total=total, single=single
    )


def _picker(
    *,
    name: str,
    deck: str,
    selected: object,
    copies: int,
    label: str,
    total: str,
    single: bool,
) -> SafeString:
    kind = "radio" if single else "checkbox"
    rows = DECKS[deck]()
    counts = _selected_counts(selected)
    parts = [
        format_html(
            '<fieldset class="card-picker" data-deck="{}" data-total="{}" data-copies="{}">'
            "<legend>{}</legend>",
            "skat" if deck == "skat" else "full",
            total,
            copies,
            label,
        )
    ]
    if total:
        # The script counts as cards are tapped: it rewrites only the numbers.
        if total == "points":
            sums = _(
                "<output data-sum>0</output> card points · <output data-count>0</output> cards"
            )
        else:
            sums = _(
                "<output data-sum>0</output> penalty points · <output data-count>0</output> cards"
            )
        parts.append(format_html('<p class="picker-sum">{}</p>', mark_safe(sums)))
    # Translators: a card of the two decks: "two of clubs, first copy".
    copy_names = (_("%(card)s, first copy"), _("%(card)s, second copy"))
    for suit, faces in rows:
        parts.append(format_html('<div class="card-row" role="group" aria-label="{}">', suit.name))
        for face in faces:
            have = counts.get(face.code, 0)
            boxes = []
            for copy in range(copies):
                said = face.name if copies == 1 else copy_names[copy] % {"card": face.name}
                boxes.append(
                    format_html(
                        '<label class="copy{}"><input type="{}" name="{}" value="{}"{} '
                        'data-value="{}"><span class="visually-hidden">{}</span></label>',
                        " copy-whole" if copies == 1 else "",
                        kind,
                        name,
                        face.code,
                        mark_safe(" checked") if have > copy else "",
                        face.value,
                        said,
                    )
                )
            parts.append(
                format_html(
                    '<span class="card-face {}" data-code="{}" data-value="{}">'
                    '<span class="card-text" aria-hidden="true">{}<span class="suit">{}</span></span>'
                    "{}</span>",
                    face.colour,
                    face.code,
                    face.value,
                    face.rank,
                    face.symbol,
                    mark_safe("".join(boxes)),
                )
            )
        parts.append(mark_safe("</div>"))
    parts.append(mark_safe("</fieldset>"))
    return mark_safe("".join(parts))


def lazy_picker_html(
    *, name: str, deck: str, copies: int, label: str, total: str, single: bool = False
) -> SafeString:
    """A placeholder for an empty card picker that loads the picker when shown (htmx,
    ``intersect``: a picker in a hidden section loads when its section opens)."""
    query = urlencode(
        {
            "name": name,
            "deck": deck,
            "copies": copies,
            "label": label,
            "total": total,
            "single": "1" if single else "",
        }
    )
    return format_html(
        '<div class="card-picker-lazy" hx-get="{}?{}" hx-trigger="intersect once" '
        'hx-swap="outerHTML"><p class="hint">{}</p>'
        '<noscript><p><a href="?pickers=all">{}</a></p></noscript></div>',
        reverse("games:card-picker"),
        query,
        _("Loading the cards…"),
        _("Show the cards to tap"),
    )
