"""Writes to an evening are serialised on its row: one lock, one version.

Every write locks the evening (``SELECT … FOR UPDATE`` where the database has it), checks
the version the writer saw (the API's ``If-Match``) and moves it on, so that a stale
write is refused with the evening as it is now and two writers never cross.
"""

from __future__ import annotations

from django.db.models import F
from django.utils.translation import gettext as _

from evenings.models import Evening
from games.rules.errors import RuleError


class StaleEvening(RuleError):
    """The write was based on an older version of the evening than the current one."""

    def __init__(self, current: int) -> None:
        super().__init__(
            _(
                "This evening changed meanwhile (on another device): here it is now. Check "
                "it, then send your change again."
            )
        )
        self.current = current


def locked(evening: Evening, expected_version: int | None) -> Evening:
    """The evening, locked for this transaction; ``StaleEvening`` when the writer saw
    another version."""
    evening = (
        Evening.objects.select_for_update(of=("self",)).select_related("circle").get(pk=evening.pk)
    )
    if expected_version is not None and expected_version != evening.version:
        raise StaleEvening(evening.version)
    return evening


def bump(evening: Evening) -> None:
    Evening.objects.filter(pk=evening.pk).update(version=F("version") + 1)
    evening.refresh_from_db(fields=["version"])
