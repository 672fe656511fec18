"""Maquis positions and moves: the state, the actions and their notation, why a game ended.

A position is one frozen dataclass whose ``board`` holds one character per space (``.`` empty,
``R`` a worker, ``A`` the worker who acted, ``P`` police, ``S`` a soldier); every move is a small
frozen dataclass whose ``str`` is its notation (``place:<loc>``, ``stay``, ``patrol:<card>``,
``act:<loc>:<choice>``, ``home``, ``kill:<loc>``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

SLUG = "maquis"


class Termination(enum.Enum):
    """Why a game of Maquis ended (the first that applies, in this order)."""

    MORALE = "morale"
    """Morale reached the fail space: a loss whatever else happened."""
    MISSIONS = "missions"
    """The missions needed for a win are done."""
    ARRESTS = "arrests"
    """The last worker was arrested."""
    TIME = "time"
    """The day marker reached the end space (or the level's last day)."""


class Result(enum.Enum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


# -- actions ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """Placement: put a worker from a safe house on an empty space."""

    loc: str

    def __str__(self) -> str:
        return f"place:{self.loc}"


@dataclass(frozen=True, slots=True)
class Stay:
    """Placement: no empty space is left, the worker stays home."""

    def __str__(self) -> str:
        return "stay"


@dataclass(frozen=True, slots=True)
class PatrolDraw:
    """Chance: the next patrol card."""

    card: str

    def __str__(self) -> str:
        return f"patrol:{self.card}"


@dataclass(frozen=True, slots=True)
class Activate:
    """Action phase: the worker on ``loc`` does ``choice`` (``-``: nothing).

    Choices: ``p<i>g<j>`` pay alternative i, take reward j (``d<k>``: airdrop option k);
    ``b=<tile>`` lay a vacant-house tile; ``c`` collect an airdrop; ``m<slot>.<step>p<i>`` a
    mission step.
    """

    loc: str
    choice: str

    def __str__(self) -> str:
        return f"act:{self.loc}:{self.choice}"


@dataclass(frozen=True, slots=True)
class Return:
    """The acting worker walks home (or is arrested)."""

    def __str__(self) -> str:
        return "home"


@dataclass(frozen=True, slots=True)
class Kill:
    """Kill the police figure on ``loc``."""

    loc: str

    def __str__(self) -> str:
        return f"kill:{self.loc}"


MaquisAction = Place | Stay | PatrolDraw | Activate | Return | Kill

EMPTY, WORKER, ACTIVE, POLICE, SOLDIER = ".", "R", "A", "P", "S"


@dataclass(frozen=True, slots=True)
class MaquisState:
    """A position. Spaces are indexed as ``model.locations``; resources as ``model.resources``."""

    phase: str
    """``place``, ``act`` or ``over``."""
    day: int
    morale: int
    soldiers: int
    home: int
    """Workers in safe houses."""
    cafe: int
    """Workers still waiting in the café."""
    board: str
    """One character per space: ``.`` empty, ``R`` worker, ``A`` worker who acted, ``P``, ``S``."""
    stock: tuple[int, ...]
    drops: tuple[tuple[int, ...], ...]
    """Resources lying on each airdrop zone."""
    tiles: tuple[str, ...]
    """The tile on each vacant house, '' for none."""
    missions: tuple[str, ...]
    """The mission card at each mission space."""
    boxes: tuple[tuple[bool, ...], ...]
    """Filled success boxes of each mission in play."""
    draw: tuple[int, ...]
    discard: tuple[int, ...]
    to_place: int
    """Workers still to place this round."""
    patrols_left: int
    patrols: int
    """Patrols of this round."""
    round_soldiers: int
    """How many of this round's patrols are soldiers (the last ones)."""
    resistance_next: bool
    killed: bool
    active: int
    """Space of the worker who acted and has not walked home yet; -1 for none."""
    pending: str
    rounds: int
    failed: bool
    """Morale reached the fail space at some point."""
    ended: Termination | None = None
    spent: tuple[int, ...] = ()
    """Resources of the acting worker's reward already spent on a kill before he got home
    (decision kill-with-the-weapon-in-hand); ``()`` when none."""


_FIELDS = attrgetter(*MaquisState.__slots__)
_FIELD_INDEX = {name: k for k, name in enumerate(MaquisState.__slots__)}


def _builder() -> Callable[..., MaquisState]:
    """``MaquisState(*fields)`` without the frozen ``__init__``'s ``object.__setattr__`` per
    field: a new instance whose slots are filled through their descriptors, generated (as
    dataclasses generates ``__init__``) so that each field is one direct call."""
    names = MaquisState.__slots__
    scope: dict[str, Any] = {"new": object.__new__, "cls": MaquisState}
    scope.update({f"set_{name}": getattr(MaquisState, name).__set__ for name in names})
    lines = [f"def build({', '.join(names)}):", "    s = new(cls)"]
    lines += [f"    set_{name}(s, {name})" for name in names]
    lines.append("    return s")
    exec("\n".join(lines), scope)  # a fixed text made of the field names
    build: Callable[..., MaquisState] = scope["build"]
    return build


_build = _builder()


def evolve(s: MaquisState, **changes: Any) -> MaquisState:
    """``dataclasses.replace(s, **changes)``, fast: the state's fields in one C call, the
    changed ones replaced, one new instance; the other fields (tuples, strings) are shared."""
    values = list(_FIELDS(s))
    for name, value in changes.items():
        values[_FIELD_INDEX[name]] = value
    return _build(*values)


def put(board: str, i: int, c: str) -> str:
    """``board`` with the character of space ``i`` replaced by ``c``."""
    return board[:i] + c + board[i + 1 :]
