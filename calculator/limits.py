"""What one request may cost: the bounds that keep bad input cheap (issue #12 §2).

Every path bounds its work before doing it: lists by their schemas, option objects by
count and name length (:mod:`calculator.options`), distinct rule sets by
:class:`calculator.presets.Resolver`, and the problems a response lists by
:data:`MAX_PROBLEMS`. Two costs remain that only the whole request can bound:

- **"did you mean" searches** (difflib, ~0.6 ms each): :class:`Suggestions` allows
  :data:`MAX_SUGGESTIONS` of them per :func:`request_scope` — the HTTP layer opens one per
  request — and, outside any scope, per check (one hand's cards, one option object);
- **time**: :func:`deadline` makes the ``check_deadline`` callable that long loops (a batch,
  a session's hands) call between items; past it they raise :class:`DeadlineExceeded`.

>>> with request_scope(suggestions=1):
...     Suggestions().take(), Suggestions().take()
(True, False)
>>> quote("x" * 100)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (100 characters)"
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Final, NamedTuple

MAX_PROBLEMS: Final = 50
"""Most problems one error lists (per request, or per batch item); the rest are counted."""
MAX_SUGGESTIONS: Final = 5
"""Most "did you mean" searches per request (or per check, outside a request)."""
MAX_ECHO: Final = 40
"""Most characters of a bad value quoted back in a message."""

_suggestions: ContextVar[list[int] | None] = ContextVar("gostop_suggestions", default=None)
_listed: ContextVar[list[int] | None] = ContextVar("gostop_listed", default=None)
"""[the most one answer lists, the problems that may still be added in the scope]"""


class Scope(NamedTuple):
    """What :func:`open_scope` started, for :func:`close_scope`."""

    suggestions: Token[list[int] | None]
    listed: Token[list[int] | None]


def problems_listed() -> int:
    """The room an error's answer has for problems that only add to its list (a refused
    hand's cards, beside its fields'): :data:`MAX_PROBLEMS`, or fewer where the answer
    keeps fewer (a batch item's: :func:`listing`), or where the request has added that
    many already (a session's hands are one answer: the first refused hands fill it)."""
    box = _listed.get()
    return MAX_PROBLEMS if box is None else max(0, min(box))


def added_problems(count: int) -> None:
    """Count ``count`` problems added to an answer (the scope's room shrinks)."""
    box = _listed.get()
    if box is not None:
        box[1] -= count


@contextmanager
def listing(most: int, total: int) -> Iterator[None]:
    """Within this block an error's answer lists at most ``most`` problems, and at most
    ``total`` are added in all (:func:`problems_listed`)."""
    token = _listed.set([min(most, MAX_PROBLEMS), total])
    try:
        yield
    finally:
        _listed.reset(token)


class DeadlineExceeded(Exception):  # noqa: N818 - named for what happened, like TimeoutError
    """The request ran past its deadline: not the caller's mistake (the HTTP layer answers
    503 with Retry-After), so not a :class:`~calculator.errors.GoStopError`."""


def open_scope(*, suggestions: int = MAX_SUGGESTIONS) -> Scope:
    """Start a request's budgets: ``suggestions`` "did you mean" searches, and the room of
    its answer's list of problems (:func:`problems_listed`); give what it returns back to
    :func:`close_scope` when the request ends."""
    return Scope(_suggestions.set([suggestions]), _listed.set([MAX_PROBLEMS, MAX_PROBLEMS]))


def close_scope(scope: Scope) -> None:
    """End the budgets :func:`open_scope` started."""
    _listed.reset(scope.listed)
    _suggestions.reset(scope.suggestions)


@contextmanager
def request_scope(*, suggestions: int = MAX_SUGGESTIONS) -> Iterator[None]:
    """Within this block, at most ``suggestions`` "did you mean" searches run in all."""
    token = open_scope(suggestions=suggestions)
    try:
        yield
    finally:
        close_scope(token)


class Suggestions:
    """The "did you mean" budget of one check: the request's, or its own outside a request.

    >>> budget = Suggestions()
    >>> sum(budget.take() for _ in range(10)) == MAX_SUGGESTIONS
    True
    """

    __slots__ = ("_left",)

    def __init__(self) -> None:
        self._left = _suggestions.get() or [MAX_SUGGESTIONS]

    def take(self) -> bool:
        """Whether one more search may run (and count it)."""
        if self._left[0] <= 0:
            return False
        self._left[0] -= 1
        return True


def quote(value: object, limit: int = MAX_ECHO) -> str:
    """``repr(value)``, cut to ``limit`` characters of the value when it is longer."""
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}"[:-1] + f"…' ({len(value)} characters)"
    text = repr(value)
    return text if len(text) <= limit + 2 else text[: limit + 2] + "…"


def deadline(seconds: float, *, clock: Callable[[], float] = time.monotonic) -> Callable[[], None]:
    """A ``check_deadline`` callable: raises :class:`DeadlineExceeded` once ``seconds`` have
    passed since this call."""
    end = clock() + seconds

    def check() -> None:
        if clock() >= end:
            raise DeadlineExceeded(f"the request took longer than {seconds:g} s")

    return check
