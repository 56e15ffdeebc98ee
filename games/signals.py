"""What other apps may listen to without ``games`` knowing them.

``sheet_changed`` is sent inside the transaction of every write to a sheet (created,
deal added, corrected, removed or brought back, seats renamed), after the change and
with the state replayed from it. A receiver that keeps something derived from the
sheet (a season's standings keep what each sheet contributes) writes it in the same
transaction, so the two can never disagree; if the receiver fails, the change rolls
back with it.

Arguments: ``sheet`` (the ``Sheet``), ``state`` (its ``SheetState``), ``entries`` (the
deals' JSON as entered, in order), ``change`` (what happened: ``started``,
``entered``, ``corrected``, ``removed``, ``restored``, ``renamed``, ``deleted``,
``undeleted`` or ``dated``: the day it was played, ``sheet.played_on``, changed) and
``number`` (the deal it happened to, or None).

A new deal is added to the engine the sheet kept from its last write, without
replaying the sheet (``games.snapshots``): then ``entries`` is None and
``state.deals`` holds the latest deals only (totals, standings and the rest of
``state`` are whole). A receiver that needs every deal replays them
(``games.selectors.sheet_state``).
"""

from django.dispatch import Signal

sheet_changed = Signal()
