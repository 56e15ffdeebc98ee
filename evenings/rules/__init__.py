"""The rules of a club evening (seating, ranking), pure Python like the referee.

They build on ``games.rules`` and ``circles.rules`` and never import Django.
"""
