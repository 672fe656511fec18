"""The exception tree. Domain code raises these; only pnp/cli/ turns them into exit codes."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Location:
    """Where something stands in a content or template file (1-based line and column)."""

    path: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line and self.column:
            return f"{self.path}:{self.line}:{self.column}"
        if self.line:
            return f"{self.path}:{self.line}"
        return self.path


@dataclass(frozen=True)
class Problem:
    """One thing wrong with content: where, which game, what was expected and found."""

    location: Location
    message: str
    game: str = ""
    severity: str = "error"

    def __str__(self) -> str:
        game = f" {self.game}:" if self.game else ""
        return f"{self.location}:{game} {self.message}"


class PnpError(Exception):
    """Base of every error pnp reports to a user without a traceback."""


class ContentError(PnpError):
    """Content could not be loaded: carries every problem found, not just the first."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems: Sequence[Problem] = tuple(problems)
        count = len(self.problems)
        noun = "content error" if count == 1 else "content errors"
        super().__init__(f"{count} {noun}.")


class TemplateError(PnpError):
    """A layout template is malformed or names something the model does not have."""


class FontError(PnpError):
    """No usable CJK font could be found or prepared."""


class OutputError(PnpError):
    """What pnp writes cannot be written where it must go (a fault of the machine, not of
    the content)."""


class UnknownGameError(PnpError):
    """A command named a game that the content tree does not hold."""


class IllegalActionError(ValueError):
    """An engine was asked to apply an action that is not legal in the current state."""
