"""MineVenture positions: the state of a table, its seats and combat, actions, and the
constants every part of the rules shares."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, TypeVar

SLUG = "mineventure"

TURN_CAP = 300
"""Rounds after which a simulation stops a game and reports a cap hit. The post has no last
day, yet every game ends: hand cards are never shuffled back, so the food runs out and story
damage wears the overworld down, and the policies fight or go for the dragon. Measured on
200 seeded games a table (issue 28), the longest took 84 rounds (the passive player, 3 on
the 24x24 map), 62 at random, 25 sensibly: a cap hit means an engine or policy bug. Only a
table whose survivors all hide in the End out of the dragon's reach and never fight could go
on for ever; the optional last day (decision final-day) is for such a table. Strong players
do reach it: in 2 of 100 five-player games on the 32x32 map (measured 2026-11-29)
the last two survivors, both at full HP and both having hit the dragon, wait in the End for
each other to fight it first, since whoever does is left weak for the other to kill. (A third
kind, two survivors with no weapon that gets through the dragon's scales, ended once the
sensible player stopped fighting a dragon it cannot hurt.)"""

DRAGON = -1
"""The dragon's seat number in combat and in action arguments ('dragon' in text)."""

DIRECTIONS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
PERPENDICULAR = {
    first: tuple(d for d in DIRECTIONS if d not in (first, OPPOSITE[first])) for first in DIRECTIONS
}
"""The directions a move may turn to after its first run, in the order moves are listed."""


class Mode(enum.Enum):
    """The map a table plays on."""

    MAP_24 = "map-24"
    MAP_32 = "map-32"


class Termination(enum.Enum):
    DRAGON_SLAIN = "dragon_slain"
    """The Ender Dragon fell: every living player who damaged it wins."""
    LAST_STANDING = "last_standing"
    """Only one player is left alive."""
    ALL_DEAD = "all_dead"
    """The last players died together: nobody wins (decision everyone-dead)."""
    TIME_UP = "time_up"
    """The last-day variant only: day `final_day` began with the dragon alive and several
    players left, and nobody wins (decision final-day)."""


@dataclass(frozen=True, slots=True)
class Act:
    """Any action: ``kind`` plus up to two arguments; its text is ``kind:a@b``."""

    kind: str
    a: str = ""
    b: str = ""

    def __str__(self) -> str:
        text = self.kind
        if self.a:
            text += f":{self.a}"
        if self.b:
            text += f"@{self.b}"
        return text

    @classmethod
    def parse(cls, text: str) -> Act:
        kind, _, rest = text.partition(":")
        a, _, b = rest.partition("@")
        if not kind or not kind.isalpha() or (b and not a):
            raise ValueError(f"invalid {SLUG} action {text!r}")
        return cls(kind, a, b)


# -- state -------------------------------------------------------------------------------


@dataclass(slots=True)
class Player:
    """One seat. Every field is an int, a tuple or None, so a shallow copy is a real copy."""

    x: int = -1
    y: int = -1
    hp: int = 0
    alive: bool = True
    character: int = 0
    main: int = -1
    main_dur: int = 0
    main_ench: tuple[int, ...] = ()
    sub: int = -1
    sub_dur: int = 0
    sub_ench: tuple[int, ...] = ()
    armour: int = -1
    partner: int = -1
    buffs: tuple[tuple[int, int, int] | None, ...] = ()
    """Per buff slot: (buff index, rounds left (0: lasting), stamp of when it came) or None."""
    hand: tuple[int, ...] = ()
    killed: bool = False
    """Killed a player this round (exempt from the story damage)."""
    fled: bool = False
    """Tried to flee this round (once per round)."""
    skip: bool = False
    """Fled as a defender this round: goes straight to the end phase on their turn."""
    hit_dragon: bool = False
    spoils: bool = False
    """Took a victim's hand: may hold more than the hand limit until their own end phase."""


@dataclass(slots=True)
class Combat:
    attacker: int
    defender: int  # DRAGON for the dragon
    round: int = 1
    ambush: bool = False
    declared: tuple[str, ...] = ()
    """Declarations of this round so far: attacker's first, then the defender's."""
    fleeing: int = -2
    """The seat whose flee roll is due (a chance step); -2 when none."""
    on_path: bool = False


@dataclass(slots=True)
class MineventureState:
    players: tuple[Player, ...]
    piles: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    """Per deck (model order): (draw pile as a sorted multiset, ordered bottom, discard)."""
    phase: str
    seat: int
    round: int = 0
    day: int = 0
    night: bool = False
    story: int = -1
    dragon_hp: int = 0
    roll: int = 0
    queue: tuple[tuple[int, int, str], ...] = ()
    """Draws due: (seat, deck index, why: 'open', 'land', 'card')."""
    spawn_order: tuple[int, ...] = ()
    drawn: int = -1
    """A field card drawn and waiting for keep or return."""
    drawn_by: int = -1
    """The seat that drew it and chooses."""
    resume: str = ""
    """The phase to go to when the draws and choices in progress are done."""
    combat: Combat | None = None
    loot: tuple[int, int] = (-1, -1)
    """(killer, victim) while the killer picks an equipment card."""
    stamp: int = 0
    ended: str = ""
    winners: tuple[int, ...] = ()


T = TypeVar("T")


def _copier(cls: type[T]) -> Callable[[T], T]:
    """A shallow copy of a slots dataclass written out field by field (generated, as
    dataclasses generates ``__init__``): a new instance and one slot assignment per field,
    which the interpreter runs faster than a constructor call with every field."""
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    lines = ["def copy(s):", "    c = new(cls)"]
    lines += [f"    c.{name} = s.{name}" for name in names]
    lines.append("    return c")
    # cls.__new__ (object.__new__ itself for an interpreted class): a class compiled with
    # mypyc makes its instances with its own and refuses object.__new__.
    scope: dict[str, Any] = {"new": cls.__new__, "cls": cls}
    exec("\n".join(lines), scope)  # a fixed text made of the field names
    copy: Callable[[T], T] = scope["copy"]
    return copy


# Copies are the hot path of play and search.
_copy_player = _copier(Player)
_copy_state = _copier(MineventureState)
_copy_combat = _copier(Combat)


def shell(state: MineventureState) -> MineventureState:
    """A copy sharing the players with ``state`` (the rules copy a seat before changing it:
    see ``Board._set``) and owning its combat."""
    new = _copy_state(state)
    if state.combat is not None:
        new.combat = _copy_combat(state.combat)
    return new


def copy_player(p: Player) -> Player:
    return _copy_player(p)


def clone(state: MineventureState) -> MineventureState:
    """A copy the rules may change: every field is immutable except the players and combat."""
    new = _copy_state(state)
    new.players = tuple(_copy_player(p) for p in state.players)
    if state.combat is not None:
        new.combat = _copy_combat(state.combat)
    return new
