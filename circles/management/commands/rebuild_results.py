"""``manage.py rebuild_results [ID ...]``: derive every circle sheet's results again."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from circles.models import Circle
from circles.results import rebuild_results
from games.selectors import StoredDealRefused


class Command(BaseCommand):
    help = (
        "Replay every sheet kept in a circle and store what it contributes to the "
        "standings again (all circles, or the ones named by id)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("circles", nargs="*", type=int, help="circle ids (default: all)")

    def handle(self, *args: Any, **options: Any) -> None:
        circles = Circle.objects.order_by("pk")
        if options["circles"]:
            circles = circles.filter(pk__in=options["circles"])
            missing = set(options["circles"]) - set(circles.values_list("pk", flat=True))
            if missing:
                raise CommandError(
                    "There is no circle " + ", ".join(str(pk) for pk in sorted(missing)) + "."
                )
        total = 0
        refused: list[StoredDealRefused] = []
        for circle in circles:
            count = rebuild_results(circle, refused)
            total += count
            self.stdout.write(f"{circle.name} (circle {circle.pk}): {count} sheet(s) replayed.")
        self.stdout.write(f"Done: {total} sheet(s).")
        if refused:
            # Each named with its deal and why; the sheet page offers to take it off.
            for error in refused:
                why = "; ".join(str(problem.message) for problem in error.problems)
                self.stderr.write(
                    f"Sheet {error.sheet.pk}: deal "
                    f"{error.hand.number} is refused by the rules now ({why}); the sheet was "
                    "left as it was."
                )
            raise CommandError(
                f"{len(refused)} sheet(s) not replayed: take the deals named above off on "
                "their pages, then run rebuild_results again."
            )
