"""What other apps may listen to without ``games`` knowing them.

``sheet_changed`` is sent inside the transaction of every write to a sheet (created,
deal added, corrected, removed or brought back, seats renamed), after the change and
with the state replayed from it. A receiver that keeps something derived from the
sheet (a season's standings keep what each sheet contributes) writes it in the same
transaction, so the two can never disagree; if the receiver fails, the change rolls
back with it.

Arguments: ``sheet`` (the ``Sheet``), ``state`` (its ``SheetState``), ``entries`` (the
deals' JSON as entered, in order), ``change`` (what happened: ``started``,
``entered``, ``corrected``, ``removed``, ``restored`` or ``renamed``) and ``number``
(the deal it happened to, or None).
"""

from django.dispatch import Signal

sheet_changed = Signal()
