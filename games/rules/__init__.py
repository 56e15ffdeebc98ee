"""The referee: the rules of Skat, 10-Point Pitch and Manipulation in pure Python.

Nothing in this package imports Django. Every function takes plain values and
returns frozen dataclasses carrying an ``explanation`` (scoring a deal words it only
when it is read: :class:`games.rules.errors.Explanation`); bad input raises
:class:`games.rules.errors.RuleError` with every problem found.
"""
