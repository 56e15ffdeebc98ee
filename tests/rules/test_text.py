"""The referee's sentences (games/rules/text.py): English as plain strings, the reader's
language when shown, and the same after being kept (pickled) and read back.

A fake language stands in for Django's catalogues: it upper-cases each message and
writes numbers with a dot between thousands (as German does), so a test can see what
was translated, and when.
"""

from __future__ import annotations

import pickle
import re

import pytest

from games.rules import text
from games.rules.cards import card, labels
from games.rules.text import Message, Number, _, join, ngettext, pgettext
from games.rules.words import capitalised, joined, number, signed


def _shout(message: str) -> str:
    """Upper case, placeholders left as they are."""
    return re.sub(r"[^{}]+(?=\{|$)|(?<=\})[^{}]+", lambda m: m[0].upper(), message)


@pytest.fixture
def shouting():
    """A language that shouts: each message upper-cased, 1234 shown as 1.234."""
    language = {"code": "xx"}

    def grouped(n: int) -> str:
        shown = f"{abs(n):,}".replace(",", ".")
        return f"−{shown}" if n < 0 else shown

    saved = dict(vars(text._translation))
    text.install(
        language=lambda: language["code"],
        gettext=_shout,
        ngettext=lambda s, p, n: _shout(s if n == 1 else p),
        pgettext=lambda c, m: _shout(m) if c != "untouched" else m,
        number=grouped,
    )
    yield language
    for name in ("language", "gettext", "ngettext", "pgettext", "number"):
        if name in saved:
            setattr(text._translation, name, saved[name])
        else:
            delattr(text._translation, name)


def test_a_message_is_its_english_without_a_translation():
    said = _("{points} is below 61: the play is lost.", points=60)
    assert said == "60 is below 61: the play is lost."
    assert str(said) == said
    assert isinstance(said, str)


def test_a_message_is_shown_in_the_active_language(shouting):
    said = _("{points} card points", points=1234)
    assert said == "1234 card points"  # the referee's own tests read English
    assert str(said) == "1.234 CARD POINTS"
    # An f-string shows it in the language of that moment and keeps only that string
    # (text.py's warning): what is kept must stay a Text.
    assert f"{said}" == "1.234 CARD POINTS"
    shouting["code"] = "en-gb"
    assert str(said) == "1234 card points"


def test_messages_nest_and_each_part_is_translated(shouting):
    game = pgettext("Skat game", "Grand")
    said = _("{game} lost: {value}", game=game, value=number(-96))
    assert said == "Grand lost: −96"
    assert str(said) == "GRAND LOST: −96"


def test_plurals_follow_the_count(shouting):
    assert ngettext("{n} trick", "{n} tricks", 1, n=1) == "1 trick"
    assert ngettext("{n} trick", "{n} tricks", 3, n=3) == "3 tricks"
    assert str(ngettext("{n} trick", "{n} tricks", 3, n=3)) == "3 TRICKS"
    assert str(ngettext("no {n}", "many {n}", 0)) == "MANY {n}"


def test_a_context_goes_to_the_translation():
    assert pgettext("card rank", "J") == "J"


def test_numbers_and_signs(shouting):
    assert (number(1234), signed(50), signed(-50), signed(0)) == ("1234", "+50", "−50", "0")
    assert [str(n) for n in (number(1234), signed(1234), signed(-1234), number(0))] == [
        "1.234",
        "+1.234",
        "−1.234",
        "0",
    ]


def test_lists_and_capitals(shouting):
    names = joined(["Ana", "Ben", "Cem"])
    assert names == "Ana, Ben and Cem"
    assert str(names) == "Ana, Ben AND Cem"  # names are never translated
    assert joined(["Ana", "Ben"], last="or") == "Ana or Ben"
    assert joined(["Ana"]) == "Ana"
    assert joined([]) == ""
    high = capitalised(pgettext("untouched", "high joker"))
    assert high == "High joker"
    assert str(high) == "High joker"
    spaced = join(" ", ["a", _("b")])
    assert spaced == "a b"
    assert str(spaced) == "a B"


def test_parameters_of_every_kind(shouting):
    said = _("{flag} {card} {name}", flag=True, card=card("JC"), name="Ana")
    assert said == "True JC Ana"
    assert str(said) == "True JC Ana"


def test_card_labels_are_translated_when_shown(shouting):
    assert labels([card("JC"), card("10H")]) == "J♣ 10♥"
    assert str(labels([card("JC"), card("10H")])) == "J♣ 10♥"  # rank letters: "J", "10"


@pytest.mark.parametrize(
    "kept",
    [
        _("{game} lost: {value}", game=pgettext("Skat game", "Grand"), value=number(-96)),
        ngettext("{n} trick", "{n} tricks", 2, n=2),
        joined(["Ana", "Ben", "Cem"]),
        capitalised(_("high joker")),
        signed(7),
    ],
)
def test_kept_and_read_back_it_is_still_translatable(kept, shouting):
    back = pickle.loads(pickle.dumps(kept))
    assert back == kept
    assert type(back) is type(kept)
    assert str(back) == str(kept)


def test_the_classes_keep_what_they_were_made_of():
    said = Message("{n} deals", params={"n": 2})
    assert (said.msgid, said.params, said.plural, said.context) == (
        "{n} deals",
        {"n": 2},
        None,
        None,
    )
    assert Number(-5, sign=True) == "−5"


def test_without_a_translation_installed_everything_is_english():
    untranslated = text._Translation()
    assert untranslated.language() == "en"
    assert untranslated.gettext("Grand") == "Grand"
    assert untranslated.ngettext("{n} trick", "{n} tricks", 2) == "{n} tricks"
    assert untranslated.pgettext("card rank", "J") == "J"
    assert untranslated.number(-7) == "−7"


@pytest.mark.parametrize(
    "name", ["Grand Hand", "Null Ouvert Hand", "Clubs, schneider announced", "Spades Ouvert"]
)
def test_a_contract_kept_as_english_is_shown_translated(name, shouting):
    # A circle keeps each player's biggest game by its English name; it is shown in the
    # reader's language (Skat rules, "Game value": the contract's name).
    from games.rules.skat import contract_named

    named = contract_named(name)
    assert named == name
    assert str(named) == name.upper()


def test_a_name_that_is_no_contract_is_shown_as_it_is():
    from games.rules.skat import contract_named

    assert contract_named("Ramsch") == "Ramsch"


def test_a_plain_text_reads_the_same_in_every_language(shouting):
    # A name or a code wrapped as a Text has nothing to translate.
    assert str(text.Text("Ana")) == "Ana"
