"""``manage.py clearexpired``: forget Idempotency-Keys older than a month and delete for
good the sheets that have been in the trash for more than 30 days. ``make run`` runs
it at every start; run it daily (cron) on a server that runs for weeks."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.services import TRASH_DAYS, clear_expired


class Command(BaseCommand):
    help = "Forget month-old idempotency keys and empty the trash of month-old sheets."

    def handle(self, *args: Any, **options: Any) -> None:
        keys, sheets = clear_expired()
        if options["verbosity"]:
            self.stdout.write(
                f"Forgot {keys} idempotency key(s) older than a month; deleted {sheets} "
                f"sheet(s) in the trash for more than {TRASH_DAYS} days."
            )
