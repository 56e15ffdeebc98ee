"""The clean-ups on a schedule, inside the app: ``services.clear_expired`` (old
idempotency keys, the trash after TRASH_DAYS, expired sessions) about every hour,
run by whichever worker first finds it due, never by two at once.

- ``CleanupMiddleware``: after answering a request, a worker asks whether the clean-up
  is due at most once per period (``settings.CLEAR_EXPIRED_EVERY``, a timedelta; one
  hour by default; None switches it off); otherwise it costs a clock comparison. The
  first time is one period after the worker started: ``make run`` cleans up at start.
- ``clear_expired_when_due``: the database decides between workers and servers. The
  mark is one row (an IdempotencyKey in the scope "chores", its ``created_at`` the last
  start); a worker runs the clean-up only if its conditional UPDATE moved that row
  (started more than a period ago), which one statement does for one worker alone on
  SQLite and on PostgreSQL. So it runs at most once a period, and never twice at
  once unless one run outlasts a whole period (each run only deletes what is expired,
  so even then nothing goes wrong).

``manage.py clearexpired`` runs the same clean-up by hand, at any time.
"""

from __future__ import annotations

import datetime
import logging
import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from games import services
from games.models import IdempotencyKey

logger = logging.getLogger(__name__)

EVERY = datetime.timedelta(hours=1)
CHORES = "chores"
CLEAR_EXPIRED = "clear-expired"


def clock() -> float:
    """The workers' own clock for when to ask next (tests move it)."""
    return time.monotonic()


def period() -> datetime.timedelta | None:
    """How often the app cleans up by itself (None: never; ``clearexpired`` by hand)."""
    return getattr(settings, "CLEAR_EXPIRED_EVERY", EVERY)


def clear_expired_when_due(
    *, now: datetime.datetime | None = None, every: datetime.timedelta = EVERY
) -> bool:
    """Run ``services.clear_expired`` unless some worker started it less than ``every``
    ago; whether this call ran it."""
    now = now or timezone.now()
    mark = IdempotencyKey.objects.filter(scope=CHORES, key=CLEAR_EXPIRED)
    if not mark.filter(created_at__lte=now - every).update(created_at=now):
        if mark.exists():
            return False  # started less than a period ago, or just now by another worker
        try:
            with transaction.atomic():
                IdempotencyKey.objects.create(
                    scope=CHORES, key=CLEAR_EXPIRED, fingerprint="", status=200, response={}
                )
        except IntegrityError:
            return False  # another worker made the mark first: it runs the clean-up
        mark.update(created_at=now)
    cleared = services.clear_expired(now)
    logger.info("Scheduled clean-up: %s", cleared)
    return True


class CleanupMiddleware:
    """Runs the clean-up after a request when it is due (see the module's docstring)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response
        every = period()
        self.next_check = clock() + (every.total_seconds() if every else 0)
        self.lock = threading.Lock()  # one thread of this worker asks, the others answer

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        self.when_due()
        return response

    def when_due(self) -> None:
        every = period()
        if not every or clock() < self.next_check:
            return
        if not self.lock.acquire(blocking=False):
            return
        try:
            self.next_check = clock() + every.total_seconds()
            clear_expired_when_due(every=every)
        except Exception:
            # A failed clean-up waits for the next period; the request was answered.
            logger.exception("The scheduled clean-up failed")
        finally:
            self.lock.release()
