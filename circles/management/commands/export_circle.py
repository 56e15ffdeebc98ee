"""``manage.py export_circle ID [--output FILE]``: a whole circle as one JSON file.

The file is written as the circle is read, a batch of sheets (then of club evenings) at
a time (``circles.transfer.export_chunks``), so a circle of thousands of sheets takes no
more memory than a small one; how many sheets are written so far goes to standard error
(not with ``--verbosity 0``).

The file holds none of the circle's links and no e-mail address (``circles.transfer``),
but it holds the members' user names and every name and game of the circle, so it is
written for its owner alone (0600, whatever the umask, also over an older file)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from circles.models import Circle
from circles.transfer import export_chunks


def write_private(path: str, text: str | Iterable[str]) -> None:
    """Write ``text`` (or its pieces, one after the other) to ``path``, readable and
    writable by its owner only."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    # os.open's mode only applies to a new file (and the umask may take from it).
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        if isinstance(text, str):
            file.write(text)
        else:
            for piece in text:
                file.write(piece)


class Command(BaseCommand):
    help = (
        "Write a circle (members by user name, players, seasons, sheets and deals, the "
        "sheets in the trash, club evenings with their money) as one JSON file, without "
        "its links: import_circle makes new ones."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("circle", type=int, help="the circle's id")
        parser.add_argument("--output", "-o", help="the file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        circle = Circle.objects.filter(pk=options["circle"]).first()
        if circle is None:
            raise CommandError(f"There is no circle {options['circle']}.")
        progress = self._progress if options["verbosity"] > 0 else None
        chunks = export_chunks(circle, progress=progress)
        if options["output"]:
            try:
                write_private(options["output"], chunks)
            except OSError as error:
                raise CommandError(f"Cannot write {options['output']}: {error}") from error
            self.stdout.write(f"Wrote {circle.name} to {options['output']}.")
            self.stdout.write(
                _(
                    "Only you can read the file: it holds the members' user names and every "
                    "name and game of the circle. It holds none of the circle's links and no "
                    "e-mail address; an import makes new links. Keep it private."
                )
            )
        else:
            for chunk in chunks:
                self.stdout.write(chunk, ending="")

    def _progress(self, done: int, total: int) -> None:
        self.stderr.write(_("%(done)d/%(total)d sheets written") % {"done": done, "total": total})
