"""Find what is not marked for translation: pages rendered in a pseudo-language.

    .venv/bin/python tools/untranslated.py [PATH ...]

Builds a throw-away database with the demo circle (``manage.py demo``: sheets of
every game, a season, players), collects every marked string (``makemessages``) into
a pseudo-language catalogue where each translation is its English wrapped in
``«…»``, and renders pages in that pseudo-language. Whatever words show outside
``«…»`` were never marked: the script prints them by page. Without PATHs it renders
every page of the demo world it knows (sheets, referee tools with an answer, rule
books, circles, accounts, errors). PATHs are written without the language prefix
(``/rules/skat/``).

Nothing it makes is kept: the database and the catalogue live in a temporary folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
WORK = Path(tempfile.mkdtemp(prefix="untranslated-"))
os.environ["DATA_DIR"] = str(WORK)
os.environ.pop("DATABASE_URL", None)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorekeeper.settings")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.conf.locale import LANG_INFO  # noqa: E402
from django.core.management import call_command  # noqa: E402

IGNORED = [".venv/*", "staticfiles/*", "bench/*", "tests/*", "var/*", "tools/*", "docs/*"]


# A language code of its own for each run: makemessages writes into the project's
# locale/ folder, from where the catalogue is moved out at once.
PSEUDO = "x" + "".join(chr(97 + b % 26) for b in os.urandom(3))
settings.ALLOWED_HOSTS = ["testserver"]
settings.LANGUAGES = [*settings.LANGUAGES, (PSEUDO, "Pseudo")]
LANG_INFO[PSEUDO] = {"bidi": False, "code": PSEUDO, "name": "Pseudo", "name_local": "Pseudo"}


def pseudo_catalogue() -> None:
    """A catalogue under WORK with «English» for every message, for language PSEUDO."""
    locale = WORK / "locale"
    cwd = os.getcwd()
    os.chdir(ROOT)
    try:
        call_command("makemessages", locale=[PSEUDO], ignore_patterns=IGNORED, verbosity=0)
    finally:
        os.chdir(cwd)
        made = ROOT / "locale" / PSEUDO
        if made.exists():
            locale.mkdir()
            made.rename(locale / PSEUDO)
    settings.LOCALE_PATHS = [locale]
    po = locale / PSEUDO / "LC_MESSAGES" / "django.po"
    po.write_text(
        po.read_text().replace(
            "nplurals=INTEGER; plural=EXPRESSION;", "nplurals=2; plural=(n != 1);"
        )
    )
    english = po.with_suffix(".en.po")
    subprocess.run(["msgen", "-o", str(english), str(po)], check=True)
    wrapped = po.with_suffix(".pseudo.po")
    subprocess.run(
        [
            "msgfilter",
            "--keep-header",
            "-i",
            str(english),
            "-o",
            str(wrapped),
            "sed",
            "-e",
            "s/^/«/;s/$/»/",
        ],
        check=True,
        stderr=subprocess.DEVNULL,
    )
    subprocess.run(["msgfmt", "-o", str(po.with_suffix(".mo")), str(wrapped)], check=True)


class Visible(HTMLParser):
    """The text a person reads: text nodes and the attributes read aloud or shown."""

    SKIP = frozenset({"script", "style", "template"})
    ATTRIBUTES = frozenset({"title", "aria-label", "placeholder", "alt", "content", "data-confirm"})

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        for name, value in attrs:
            if value and (name in self.ATTRIBUTES or name.startswith("data-text")):
                if tag == "meta" and name == "content" and dict(attrs).get("name") != "description":
                    continue
                self.parts.append(value)

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


WRAPPED = re.compile(r"«[^«»]*»")
WORD = re.compile(r"[A-Za-z][A-Za-z'’-]{2,}")


# A message may hold inline markup (a link, <strong>, a card): its text is read as one
# piece with the markup taken out; code (<code>: option names, values) is never text.
INLINE = re.compile(r"</?(?:a|b|i|em|strong|span|small|abbr|output|kbd|sup|sub)\b[^>]*>")
CODE = re.compile(r"<code\b[^>]*>.*?</code>", re.S)


def leftovers(html: str, allowed: set[str]) -> list[str]:
    parser = Visible()
    parser.feed(INLINE.sub("", CODE.sub(" ", html)))
    found = []
    for part in parser.parts:
        # Nested messages: strip the innermost «…» until none is left.
        text = part
        while True:
            stripped = WRAPPED.sub(" ", text)
            if stripped == text:
                break
            text = stripped
        words = [w for w in WORD.findall(text) if w not in allowed]
        if words:
            found.append(" ".join(part.split())[:140])
    return found


def demo_pages() -> tuple[list[str], set[str]]:
    from circles.models import Circle, Player, Season
    from games.models import Sheet

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    with open(os.devnull, "w") as quiet:
        call_command("demo", verbosity=0, stdout=quiet)
    circle = Circle.objects.first()
    season = Season.objects.filter(circle=circle).first()
    player = Player.objects.filter(circle=circle).first()
    pages = [
        "/",
        "/new/",
        "/new/skat/",
        "/new/pitch/",
        "/new/manipulation/",
        "/offline/",
        "/referee/",
        "/rules/",
        "/rules/skat/",
        "/rules/pitch/",
        "/rules/manipulation/",
        "/api/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/accounts/password/",
        "/mine/",
        "/circles/new/",
        f"/circles/{circle.pk}/",
        f"/circles/{circle.pk}/settings/",
        f"/circles/{circle.pk}/players/",
        f"/circles/{circle.pk}/players/{player.pk}/",
        f"/circles/{circle.pk}/seasons/{season.pk}/",
        f"/circles/{circle.pk}/seasons/{season.pk}/edit/",
        f"/circles/{circle.pk}/seasons/new/",
        f"/standings/{season.view_token}/",
        "/s/no-such-sheet/",
    ]
    for game in ("skat", "pitch", "manipulation"):
        sheet = Sheet.objects.filter(game=game).order_by("-pk").first()
        if sheet is None:
            continue
        pages += [
            f"/s/{sheet.edit_token}/",
            f"/v/{sheet.view_token}/",
            f"/s/{sheet.edit_token}/history/",
            f"/s/{sheet.edit_token}/chart",
            f"/s/{sheet.edit_token}/deals/1/",
            f"/s/{sheet.edit_token}/deals/1/explain",
            f"/s/{sheet.edit_token}/?deals=all",
        ]
    names = set()
    for p in Player.objects.all():
        names.update(WORD.findall(p.name))
    names.update(WORD.findall(circle.name))
    from django.contrib.auth import get_user_model

    names.update(u.username for u in get_user_model().objects.all())
    return pages, names


def main(paths: list[str]) -> int:
    from django.contrib.auth import get_user_model
    from django.test import Client

    started = time.monotonic()
    pseudo_catalogue()
    print(f"catalogue: {time.monotonic() - started:.0f} s", file=sys.stderr)
    pages, allowed = demo_pages()
    print(f"demo world: {time.monotonic() - started:.0f} s", file=sys.stderr)
    allowed |= {
        "Scorekeeper",
        "Skat",
        "Pitch",
        "Manipulation",
        "Deutsch",
        "English",
        "Esperanto",
        "Pseudo",
        "JSON",
        "API",
        "CSV",
    }
    client = Client()
    client.force_login(get_user_model().objects.get(username="demo"))
    bad = 0
    for path in paths or pages:
        response = client.get(f"/{PSEUDO}" + path, follow=True)
        found = leftovers(response.content.decode(), allowed)
        if found:
            bad += 1
            print(f"\n{path} ({response.status_code}):")
            for text in dict.fromkeys(found):
                print("   ", text)
    print(f"\n{bad} page(s) with text not marked for translation.")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
