"""``manage.py export_circle ID [--output FILE]``: a whole circle as one JSON file.

The file holds none of the circle's links (``circles.transfer``), but it holds the
members' user names and e-mail addresses and every name and game of the circle, so it
is written for its owner alone (0600, whatever the umask, also over an older file)."""

from __future__ import annotations

import json
import os
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from circles.models import Circle
from circles.transfer import export_circle


def write_private(path: str, text: str) -> None:
    """Write ``text`` to ``path``, readable and writable by its owner only."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    # os.open's mode only applies to a new file (and the umask may take from it).
    os.fchmod(fd, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as file:
        file.write(text)


class Command(BaseCommand):
    help = (
        "Write a circle (members with their e-mail addresses, players, seasons, sheets and "
        "deals) as one JSON file, without its links: import_circle makes new ones."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("circle", type=int, help="the circle's id")
        parser.add_argument("--output", "-o", help="the file to write (default: standard output)")

    def handle(self, *args: Any, **options: Any) -> None:
        circle = Circle.objects.filter(pk=options["circle"]).first()
        if circle is None:
            raise CommandError(f"There is no circle {options['circle']}.")
        text = json.dumps(export_circle(circle), ensure_ascii=False, indent=1)
        if options["output"]:
            try:
                write_private(options["output"], text)
            except OSError as error:
                raise CommandError(f"Cannot write {options['output']}: {error}") from error
            self.stdout.write(f"Wrote {circle.name} to {options['output']}.")
            self.stdout.write(
                _(
                    "Only you can read the file: it holds the members' e-mail addresses and "
                    "every name and game of the circle. It holds none of the circle's links; "
                    "an import makes new ones. Keep it private."
                )
            )
        else:
            self.stdout.write(text)
