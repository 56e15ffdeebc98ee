"""Reading one deal of a score sheet from its JSON object into the game's typed deal.

Each game has a module here with ``read_deal``, ``read_options`` and
``options_summary``. They check the shape only (types, fields, card codes); the
game's sheet engine in ``games.rules`` judges the rules.
"""
