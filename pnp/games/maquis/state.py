"""Maquis positions and moves: the state, the actions and their notation, why a game ended.

A position is one slots dataclass (immutable by contract) whose ``board`` holds one character
per space (``.`` empty, ``R`` a worker, ``A`` the worker who acted, ``P`` police, ``S`` a
soldier); every move is a small frozen dataclass whose ``str`` is its notation
(``place:<loc>``, ``stay``, ``patrol:<card>``, ``act:<loc>:<choice>``, ``home``,
``kill:<loc>``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

SLUG = "maquis"

MEMO_LIMIT = 1 << 12
"""Entries a memo of the rules holds before it starts afresh (memory stays bounded)."""


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

    Choices: ``p<i>g<j>`` pay alternative i, take reward j (``d<k>@<zone>``: airdrop option
    k onto that airdrop zone);
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


@dataclass(slots=True, unsafe_hash=True)
class MaquisState:
    """A position. Spaces are indexed as ``model.locations``; resources as ``model.resources``.

    Immutable by contract (as every engine's state, see :mod:`pnp.engines.base`): the rules
    never change a state they were given, a step sets its changes on a copy (``evolve``), and
    a state hashes by its fields. It is not a frozen dataclass because a frozen one is built
    field by field through ``object.__setattr__``, which made building the next state a fifth
    of a step's time."""

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


_new_state = MaquisState.__new__
"""The class's own ``__new__`` (object.__new__ itself for the interpreter; a class compiled with
mypyc makes its instances with its own and refuses object.__new__), looked up once rather
than on the class at every copy."""


def _copy(s: MaquisState) -> MaquisState:
    """A new state equal to the one given: the fields (tuples, strings) are shared, and the
    rules set the ones a step changes on the copy, never on the state they were given.

    Field by field into a bare instance, as dataclasses writes ``__init__``: the interpreter
    runs that several times faster than the constructor with every field as an argument,
    and mypyc compiles it (``MaquisState.__new__``, see ``_new_state``).
    tests/games/maquis/test_state.py checks that no field is left out."""
    c = _new_state(MaquisState)
    c.phase = s.phase
    c.day = s.day
    c.morale = s.morale
    c.soldiers = s.soldiers
    c.home = s.home
    c.cafe = s.cafe
    c.board = s.board
    c.stock = s.stock
    c.drops = s.drops
    c.tiles = s.tiles
    c.missions = s.missions
    c.boxes = s.boxes
    c.draw = s.draw
    c.discard = s.discard
    c.to_place = s.to_place
    c.patrols_left = s.patrols_left
    c.patrols = s.patrols
    c.round_soldiers = s.round_soldiers
    c.resistance_next = s.resistance_next
    c.killed = s.killed
    c.active = s.active
    c.pending = s.pending
    c.rounds = s.rounds
    c.failed = s.failed
    c.ended = s.ended
    c.spent = s.spent
    return c


def evolve(s: MaquisState, **changes: Any) -> MaquisState:
    """``dataclasses.replace(s, **changes)``, fast: a shallow copy with the changed fields set."""
    c = _copy(s)
    for name, value in changes.items():
        setattr(c, name, value)
    return c


def put(board: str, i: int, c: str) -> str:
    """``board`` with the character of space ``i`` replaced by ``c``."""
    return board[:i] + c + board[i + 1 :]
