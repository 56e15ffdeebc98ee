"""What the circles app announces to apps built on it (which it never imports).

``player_erased``: a player of a circle was erased at their request, inside the
erasure's transaction. Arguments: ``player`` (already renamed to ``placeholder``),
``placeholder`` and ``names`` (what the person was written as, found so far). A
receiver rewrites whatever of its own holds the person's name (the
club evenings' rolls, their change notes and the kept answers of their writes) and answers the names it found there, so
that the erasure can look for those too in what the sheets keep.

``links_renewed``: a member was taken out of a circle with new links for everything,
inside the removal's transaction. Arguments: ``circle``. A receiver makes anew every
link of its own that writes to the circle (a club evening's organiser link) and answers
how many it made.
"""

from django.dispatch import Signal

player_erased = Signal()
links_renewed = Signal()
