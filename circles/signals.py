"""What the circles app announces to apps built on it (which it never imports).

``player_erased``: a player of a circle was erased at their request, inside the
erasure's transaction. Arguments: ``player`` (already renamed to ``placeholder``),
``placeholder`` and ``names`` (what the person was written as, found so far). A
receiver rewrites whatever of its own holds the person's name (the
club evenings' rolls, their change notes and the kept answers of their writes) and answers the names it found there, so
that the erasure can look for those too in what the sheets keep.
"""

from django.dispatch import Signal

player_erased = Signal()
