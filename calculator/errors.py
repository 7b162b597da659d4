"""Domain errors: what kind of wrong, with a stable code and where in the input.

Every error carries one or more :class:`Issue` records. An issue's ``location`` is the
path into the request-shaped input (``("players", 1, "captured", 3)``), which the HTTP
layer turns into a JSON pointer; its ``code`` is a stable, machine-readable word that
apps may switch on; its ``detail`` quotes the bad input and says how to fix it.

The classes follow the kind of mistake (compare python-chess's error types):

- :class:`InvalidRulesError` — an unknown preset or option, or an option value out of range;
- :class:`ImpossibleHandError` — cards or counts that cannot exist in one deck;
- :class:`InvalidHandError` — a hand that exists but breaks the rules of play;
- :class:`AmbiguousHandError` — the rules need a decision only the table can make;
- :class:`InvalidTableError` — a table's setup (SPEC §9) that cannot open a table: a
  roster naming someone twice, a first dealer not on it;
- :class:`InvalidSessionError` — a session (SPEC §6) that cannot be settled for what it
  says of the night rather than of a hand's play: its players, a net map, a total or a
  rounding past what apps show exactly.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import TypeVar

from calculator.limits import MAX_PROBLEMS, quote

Location = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Issue:
    """One problem with the input."""

    code: str
    detail: str
    location: Location = ()

    def __str__(self) -> str:
        where = "/".join(str(part) for part in self.location) or "(request)"
        return f"{self.code} at {where}: {self.detail}"


def pointer(location: Iterable[str | int]) -> str:
    """An RFC 6901 JSON pointer for a location path."""
    parts = [str(part).replace("~", "~0").replace("/", "~1") for part in location]
    return "/" + "/".join(parts) if parts else ""


# A detail may name another place of the input by its pointer ("03-bright is held twice:
# by player 'A' at /players/0/captured/1 and …"): moved with its issue, it still points
# into the input the problem is read against.
_POINTER_IN_DETAIL = re.compile(r"(?<= at )/(?=players/)")


def relocate(issue: Issue, prefix: Location) -> Issue:
    """``issue`` at ``prefix`` + its location (a hand inside a batch, a session, a table),
    the pointers its detail names moved alike."""
    detail = _POINTER_IN_DETAIL.sub(pointer(prefix) + "/", issue.detail)
    return Issue(issue.code, detail, (*prefix, *issue.location))


def moved_to(detail: str, at: str) -> str:
    """The ``detail`` of a hand's problem reported at the pointer ``at`` (a hand of a batch,
    a session or a table, loaded by its schema): the pointers it names (" at /players/…",
    :func:`~calculator.errors.held_twice`) moved under the hand's place, as
    :func:`relocate` moves them where the prefix is known."""
    hand, found, _ = at.rpartition("/players/")
    return _POINTER_IN_DETAIL.sub(hand + "/", detail) if found and hand else detail


class GoStopError(ValueError):
    """Base class: the input cannot be scored; ``issues`` says every reason found."""

    title = "The request cannot be scored"
    unlisted = 0  # problems found past MAX_PROBLEMS, counted in the last issue

    def __init__(self, issues: Iterable[Issue]) -> None:
        self.issues: tuple[Issue, ...] = tuple(issues)
        assert self.issues, "an error needs at least one issue"
        super().__init__("; ".join(str(issue) for issue in self.issues))


class InvalidRulesError(GoStopError):
    """An unknown preset or option, or an option value that is not allowed."""

    title = "Invalid rule set"


class ImpossibleHandError(GoStopError):
    """Cards or counts that cannot all exist in one deck."""

    title = "Impossible cards or counts"


class InvalidHandError(GoStopError):
    """A hand that breaks the rules of play (wrong players, a winner who cannot stop…)."""

    title = "The hand breaks the rules of play"


class AmbiguousHandError(GoStopError):
    """The rules leave a decision that only the table can make; the request must say it."""

    title = "The table must decide"


class InvalidTableError(GoStopError):
    """A table's setup that cannot open a table (a roster that names someone twice, a
    first dealer who is not on it): about the table, not a hand."""

    title = "The table cannot be set up"


class InvalidSessionError(GoStopError):
    """A session that cannot be settled for what it says of the night (its players listed
    twice or alike, a net map that names a stranger or does not sum to zero, a hand's
    player not among the session's, a total or its rounding past what apps read
    exactly): about the session, not a hand's play."""

    title = "The session cannot be settled"


_MORE = "too_many_problems"


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless one, as an English message says them.

    >>> counted(1, "problem"), counted(3, "more problem"), counted(0, "player")
    ('1 problem', '3 more problems', '0 players')
    """
    return f"{count} {noun}{'' if count == 1 else 's'}"


def held_twice(card_id: str, first: tuple[str | None, str], second: tuple[str | None, str]) -> str:
    """What a card held twice says: each holder (player id, pointer without its leading
    slash, ``players/<seat>/…``), the first named as "the same player" when it sits in
    the second's seat (two seats may give one id: that is a problem of its own); both
    variants say it alike. An id is quoted cut to :data:`~calculator.limits.MAX_ECHO`
    characters; None (an id the request's schema refused) is "a player".

    >>> held_twice("01-bright", ("A", "players/0/captured/0"), ("A", "players/0/captured/2"))
    ... # doctest: +ELLIPSIS
    "01-bright is held twice: by the same player at /players/0/captured/0 and by player 'A'..."
    >>> held_twice("01-bright", ("A", "players/0/captured/0"), ("A", "players/1/captured/0"))
    ... # doctest: +ELLIPSIS
    "01-bright is held twice: by player 'A' at /players/0/captured/0 and by player 'A' at..."
    """
    (holder, at), (player, where) = first, second
    same_seat = at.split("/", 2)[:2] == where.split("/", 2)[:2]
    who = "the same player" if same_seat else _holder(holder)
    return (
        f"{card_id} is held twice: by {who} at /{at} and by {_holder(player)} at /{where}; "
        "a deck has one of each card"
    )


def _holder(player: str | None) -> str:
    return "a player" if player is None else f"player {quote(player)}"


def more_problems(count: int) -> Issue:
    """The last issue of a list cut at :data:`~calculator.limits.MAX_PROBLEMS`."""
    return Issue(
        _MORE,
        f"and {counted(count, 'more problem')}, not listed: fix these and send the request again",
    )


class Problems:
    """Collects issues while validating, so that one response names every problem — up to
    :data:`~calculator.limits.MAX_PROBLEMS`; past that they are only counted."""

    __slots__ = ("_issues", "_limit", "_more")

    def __init__(self, limit: int = MAX_PROBLEMS) -> None:
        self._issues: list[Issue] = []
        self._more = 0
        self._limit = limit
        """Most issues listed (fewer where others are listed beside them)."""

    def add(self, code: str, detail: str, *location: str | int) -> None:
        """Record one issue."""
        if len(self._issues) < self._limit:
            self._issues.append(Issue(code, detail, location))
        else:
            self._more += 1

    def full(self) -> bool:
        """Whether further issues would only be counted (callers may stop looking)."""
        return len(self._issues) >= self._limit

    def listed(self) -> tuple[tuple[Issue, ...], int]:
        """The issues recorded and how many more were only counted; nothing is raised."""
        return tuple(self._issues), self._more

    def __bool__(self) -> bool:
        return bool(self._issues)

    def extend(self, error: GoStopError, *, besides: Collection[Location] = ()) -> None:
        """Record the issues of ``error`` after those recorded (its count of those it did
        not list included), within the same limit; but those at a location of
        ``besides``."""
        for issue in error.issues:
            if issue.code != _MORE and issue.location not in besides:
                self.add(issue.code, issue.detail, *issue.location)
        self._more += error.unlisted

    def __len__(self) -> int:
        """How many issues were recorded, those only counted included."""
        return len(self._issues) + self._more

    def raise_if_any(self, error: type[GoStopError]) -> None:
        """Raise ``error`` with everything collected so far, if anything was."""
        if self._issues:
            issues, self._issues = self._issues, []
            more, self._more = self._more, 0
            if more:
                issues.append(more_problems(more))
            raised = error(issues)
            raised.unlisted = more
            raise raised


class ZeroSumError(RuntimeError):
    """Internal: money that does not sum to zero. A bug, never the caller's fault (a 500)."""


_Error = TypeVar("_Error", bound=GoStopError)


def relocated(error: _Error, prefix: Location) -> _Error:
    """The same error with every issue under ``prefix`` (:func:`relocate`)."""
    return type(error)([relocate(issue, prefix) for issue in error.issues])
