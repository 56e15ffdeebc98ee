"""``manage.py import_circle FILE``: read a circle written by ``export_circle``."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from circles.transfer import import_circle
from games.rules.errors import RuleError


class Command(BaseCommand):
    help = "Import a circle exported with export_circle (into a database that lacks it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON file export_circle wrote")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            with open(options["file"], encoding="utf-8") as file:
                data = json.load(file)
        except (OSError, ValueError) as error:
            raise CommandError(f"Cannot read {options['file']}: {error}") from error
        try:
            circle = import_circle(data)
        except RuleError as error:
            raise CommandError(" ".join(p.message for p in error.problems)) from error
        self.stdout.write(f"Imported {circle.name} as circle {circle.pk}.")
