"""The referee's one error type, and the explanation step every result carries."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .text import join


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the input, said so a player understands it.

    ``field`` is a dotted path into the request (``"cards.2"``, ``"options.target"``)
    or ``None`` when the problem is with the request as a whole.
    """

    field: str | None
    message: str


class RuleError(ValueError):
    """The input breaks the rules or cannot be read. Carries every problem found."""

    def __init__(self, problems: Iterable[Problem] | Problem | str, field: str | None = None):
        if isinstance(problems, str):
            problems = [Problem(field, problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems: tuple[Problem, ...] = tuple(problems)
        # Shown in the reader's language when the exception is printed.
        super().__init__(join("; ", (p.message for p in self.problems)))

    def prefixed(self, prefix: str) -> RuleError:
        """The same problems, with their fields moved under ``prefix``."""
        return RuleError(
            Problem(f"{prefix}.{p.field}" if p.field else prefix, p.message) for p in self.problems
        )


@dataclass(frozen=True, slots=True)
class Step:
    """One sentence of an explanation, and the rule-book section it rests on.

    ``rule`` is an anchor such as ``"skat-matadors"``; the rule book has a section
    with that id, so every explanation line can link to the rule it uses.
    """

    text: str
    rule: str | None = None

    def __str__(self) -> str:
        # str() of a Text is the reader's language.
        return str(self.text)


class ProblemCollector:
    """Gathers problems while a request is checked, so all of them are reported at once."""

    def __init__(self) -> None:
        self.problems: list[Problem] = []

    def add(self, field: str | None, message: str) -> None:
        self.problems.append(Problem(field, message))

    def absorb(self, error: RuleError) -> None:
        self.problems.extend(error.problems)

    def raise_if_any(self) -> None:
        if self.problems:
            raise RuleError(self.problems)

    def __bool__(self) -> bool:
        return bool(self.problems)
