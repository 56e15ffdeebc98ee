"""``manage.py export_circle ID [--output FILE]``: a whole circle as one JSON file.

The file holds every sheet's edit link, the circle's invite link, the seasons' share
links and the members' e-mail addresses, so it is written for its owner alone (0600,
whatever the umask, also over an older file)."""

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
    help = "Write a circle (members, players, seasons, sheets and deals) as one JSON file."

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
                    "Only you can read the file: it holds the edit link of every sheet, the "
                    "invite link, the share links of the seasons and the members' e-mail "
                    "addresses. Keep it as private as a password."
                )
            )
        else:
            self.stdout.write(text)
