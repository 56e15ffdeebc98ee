"""The referee's one error type, and the explanation every result carries."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

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


class Explanation(Sequence[Step]):
    """A result's explanation: its steps, worded the first time they are read.

    Deciding a score is cheap; wording it is not (every step is a translatable
    :class:`~games.rules.text.Text` with its parameters), and most results are never
    read: a sheet scores every deal it replays but shows a few. So a result keeps how
    to word its explanation, a module-level function and the facts it reads, and the
    steps are made when first asked for (``len``, an index, a loop, a comparison), once.

    It reads as the tuple of its steps and equals one (``result.explanation == (Step(…),
    …)``); it pickles as its steps. The function must be pure: given the same facts it
    says the same steps, whenever it is called (each game's referee words a result by
    scoring the same checked input again, saying every step as it goes).
    """

    __slots__ = ("_facts", "_steps", "_word")

    def __init__(self, word: Callable[..., Iterable[Step]], *facts: Any) -> None:
        self._word: Callable[..., Iterable[Step]] | None = word
        self._facts: tuple[Any, ...] = facts
        self._steps: tuple[Step, ...] | None = None

    @classmethod
    def of(cls, steps: Iterable[Step]) -> Explanation:
        """An explanation already worded."""
        made = cls.__new__(cls)
        made._word, made._facts, made._steps = None, (), tuple(steps)
        return made

    @classmethod
    def joined(cls, *parts: Step | Iterable[Step]) -> Explanation:
        """Steps and explanations one after another, none of them worded before it is read."""
        return cls(_joined, parts)

    @property
    def steps(self) -> tuple[Step, ...]:
        steps = self._steps
        if steps is None:
            assert self._word is not None
            steps = self._steps = tuple(self._word(*self._facts))
            self._word, self._facts = None, ()  # the facts are not needed any more
        return steps

    @property
    def worded(self) -> bool:
        """Whether the steps have been made (for tests of what scoring does not do)."""
        return self._steps is not None

    def __len__(self) -> int:
        return len(self.steps)

    @overload
    def __getitem__(self, index: int) -> Step: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Step, ...]: ...

    def __getitem__(self, index: int | slice) -> Step | tuple[Step, ...]:
        return self.steps[index]

    def __iter__(self) -> Iterator[Step]:
        return iter(self.steps)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Explanation):
            return self.steps == other.steps
        if isinstance(other, tuple):
            return self.steps == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.steps)

    def __repr__(self) -> str:
        return f"Explanation({self.steps!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (_worded, (self.steps,))


def _worded(steps: tuple[Step, ...]) -> Explanation:
    return Explanation.of(steps)


def _joined(parts: tuple[Step | Iterable[Step], ...]) -> Iterator[Step]:
    for part in parts:
        if isinstance(part, Step):
            yield part
        else:
            yield from part


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
