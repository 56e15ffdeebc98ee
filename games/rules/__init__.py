"""The referee: the rules of Skat, 10-Point Pitch and Manipulation in pure Python.

Nothing in this package imports Django. Every function takes plain values and
returns frozen dataclasses carrying an ``explanation``; bad input raises
:class:`games.rules.errors.RuleError` with every problem found.
"""
