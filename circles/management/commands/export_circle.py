"""``manage.py export_circle ID [--output FILE]``: a whole circle as one JSON file."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from circles.models import Circle
from circles.transfer import export_circle


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
            with open(options["output"], "w", encoding="utf-8") as file:
                file.write(text)
            self.stdout.write(f"Wrote {circle.name} to {options['output']}.")
        else:
            self.stdout.write(text)
