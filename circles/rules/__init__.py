"""The season standings engine: what a circle's finished sheets add up to, in pure Python.

Like the referee (``games.rules``) nothing here imports Django. ``contributions``
reads what one sheet contributes per seat (stored with the sheet as JSON),
``standings`` ranks a season from those contributions under the club's rules, and
``profile`` gathers one player's statistics over every sheet of the circle.
"""
