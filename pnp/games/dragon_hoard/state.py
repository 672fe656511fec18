"""Dragon Hoard positions: where the round stands, where the pawns are, what each seat holds."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeVar

from pnp.games.dragon_hoard.model import Cell

SLUG = "dragon-hoard"


class Mode(enum.Enum):
    """How a table plays."""

    STANDARD = "standard"
    """One game on the Ice-Fire Dragon's lair; multi-game matches chain games (`play_match`)."""


class Stage(enum.Enum):
    """Where in the round a state is."""

    PREPARATION = "prep"
    DRAW = "draw"
    PLACEMENT = "place"
    RESOLUTION = "resolve"
    """A move card's owner chooses how far it goes (decision `move-distance`)."""
    OVER = "over"


class Status(enum.Enum):
    IN = "in"
    """On the map."""
    DEAD = "dead"
    """Killed this round; respawns at the next preparation."""
    LEFT = "left"
    """Left the lair: scores, takes no further part."""
    QUIT = "quit"
    """Gave up: scores 0, takes no further part."""


class Termination(enum.Enum):
    DECK_EMPTY = "deck_empty"
    """The AI deck was empty at the end of a round and someone who left scored."""
    NOBODY_LEFT = "nobody_left"
    """The game ended with no player out of the lair: everyone scores 0, nobody wins."""
    EVERYONE_OUT = "everyone_out"
    """Every player left the lair or gave up: the game ended at that round's end with AI cards
    still in the deck (decision `everyone-out`), and someone who left scored."""


# The members the engine compares on every step, as module constants: reading a member through
# its class (``Stage.DRAW``) is an attribute lookup through the Enum metaclass, several times
# slower than reading a global.
_PREPARATION, _DRAW, _PLACEMENT = Stage.PREPARATION, Stage.DRAW, Stage.PLACEMENT
_RESOLUTION, _OVER = Stage.RESOLUTION, Stage.OVER
_IN, _DEAD, _LEFT, _QUIT = Status.IN, Status.DEAD, Status.LEFT, Status.QUIT

# Events of a round that start the countdown (bits of DragonHoardState.events).
LEFT_LAIR, GAVE_UP, HEART_OUT = 1, 2, 4
# Preparation options a seat has used this round (bits of DragonHoardState.prep).
PREP_HEIRLOOM, PREP_TREASURE, PREP_CARD = 1, 2, 4
# The seat of the AI card's item in DragonHoardState.queue.
AI_ITEM = -1

# -- state ------------------------------------------------------------------------------------


@dataclass(slots=True)
class DragonHoardState:
    """A position. AI cards, treasures and action cards are codes into the rules' tables;
    multisets are sorted tuples. The rules never mutate a state they were given."""

    round: int
    """The round being played, from 1."""
    stage: Stage
    holder: int
    """Seat holding the hourglass."""
    actor: int
    """Seat to act in preparation and placement; -1 otherwise."""
    status: tuple[Status, ...]
    pawns: tuple[Cell | None, ...]
    """Each seat's pawn on the map, None when dead, left or given up."""
    bags: tuple[tuple[int, ...], ...]
    """Treasures in each seat's bag (not the heirloom)."""
    heirlooms: tuple[int, ...]
    """Each seat's heirloom treasure, -1 for none."""
    sideways: tuple[bool, ...]
    """Character card turned sideways (dodging) this round."""
    used: tuple[tuple[int, ...], ...]
    """Action cards each seat has played or placed this round (temporarily removed)."""
    prep: tuple[int, ...]
    """Preparation options each seat has used this round (PREP_* bits)."""
    placed: tuple[tuple[int, int], ...]
    """(seat, action card) on the mat, first placed first."""
    queue: tuple[tuple[int, int], ...]
    """What is left to resolve this round, in order: (seat, action card), or (AI_ITEM, AI card)
    where the AI card falls; empty outside resolution."""
    waited: int
    """Placement decisions in a row that were waits (no card placed or AI card revealed)."""
    stopped: tuple[bool, ...]
    revealed: bool
    peeker: int
    """Seat that revealed this round's AI card and peeked at the next; -1 for none."""
    deck: tuple[int, ...]
    current: int
    """This round's AI card, -1 before the draw or once executed."""
    upcoming: int
    """Next round's AI card, drawn in advance; -1 for none."""
    executed: tuple[int, ...]
    """Executed AI cards, oldest first: the last is the top (the active trap colour)."""
    removed: tuple[int, ...]
    """AI cards removed for good (recall cards dropped during the countdown)."""
    draws_due: int
    recalls: int
    """Recall cards drawn so far this game."""
    recall_round: bool
    """A recall card was drawn this round."""
    countdown: bool
    dragon: Cell
    floor: tuple[tuple[int, int, int], ...]
    """Treasures lying on the map: (column, row, treasure), sorted."""
    discarded: tuple[int, ...]
    """Treasures whose active effect was used: out of the game."""
    left_order: tuple[int, ...]
    """Seats in the order they left the lair."""
    events: int
    """Countdown triggers seen this round (LEFT_LAIR, GAVE_UP, HEART_OUT bits)."""
    turn: int
    """Rounds completed."""


_new_state = DragonHoardState.__new__
"""The class's own ``__new__`` (object.__new__ itself for the interpreter; a class compiled with
mypyc makes its instances with its own and refuses object.__new__), looked up once rather
than on the class at every copy."""


def _copy(s: DragonHoardState) -> DragonHoardState:
    """A shallow copy: the tuples are shared, the rules replace them rather than mutate them.

    Field by field into a bare instance, as dataclasses writes ``__init__``: the interpreter
    runs that faster than the constructor with every field as an argument, and mypyc
    compiles it (``DragonHoardState.__new__``, see ``_new_state``).
    tests/games/dragon_hoard/test_state.py checks that no field is left out."""
    c = _new_state(DragonHoardState)
    c.round = s.round
    c.stage = s.stage
    c.holder = s.holder
    c.actor = s.actor
    c.status = s.status
    c.pawns = s.pawns
    c.bags = s.bags
    c.heirlooms = s.heirlooms
    c.sideways = s.sideways
    c.used = s.used
    c.prep = s.prep
    c.placed = s.placed
    c.queue = s.queue
    c.waited = s.waited
    c.stopped = s.stopped
    c.revealed = s.revealed
    c.peeker = s.peeker
    c.deck = s.deck
    c.current = s.current
    c.upcoming = s.upcoming
    c.executed = s.executed
    c.removed = s.removed
    c.draws_due = s.draws_due
    c.recalls = s.recalls
    c.recall_round = s.recall_round
    c.countdown = s.countdown
    c.dragon = s.dragon
    c.floor = s.floor
    c.discarded = s.discarded
    c.left_order = s.left_order
    c.events = s.events
    c.turn = s.turn
    return c


T = TypeVar("T")


def _set(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """`values` with the item at `index` replaced by `value`."""
    return (*values[:index], value, *values[index + 1 :])
