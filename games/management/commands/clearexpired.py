"""``manage.py clearexpired``: forget Idempotency-Keys older than KEY_DAYS (30), delete
for good the sheets that have been in the trash for more than TRASH_DAYS (30; their
deals and history go with them) and delete expired sessions. ``make run`` runs it at
every start, and the app runs the same clean-up about every hour by itself
(``games.cleanup``); this command is for running it by hand."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.services import KEY_DAYS, TRASH_DAYS, clear_expired


class Command(BaseCommand):
    help = (
        "Forget idempotency keys older than 30 days, empty the trash of sheets deleted "
        "more than 30 days ago and delete expired sessions."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        cleared = clear_expired()
        if options["verbosity"]:
            self.stdout.write(
                f"Forgot {cleared.keys} idempotency key(s) older than {KEY_DAYS} days; deleted "
                f"{cleared.sheets} sheet(s) in the trash for more than {TRASH_DAYS} days "
                f"and {cleared.sessions} expired session(s)."
            )
