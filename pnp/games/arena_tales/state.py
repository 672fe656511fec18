"""Arena Tales (斗擂奇谭): the state of a table and the actions a player or chance takes.

Cards are integer codes into ``ArenaTalesRules.tokens``; piles whose order is chance (deck,
recycle, life) are sorted multisets, so each card taken from them is a chance outcome.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter

from pnp.engines.piles import shuffle

SLUG = "arena-tales"


class Mode(enum.Enum):
    DUEL = "duel"
    """Two players, one against one."""
    TEAMS = "teams"
    """Four or six players in two alternating teams; a player at 0 life stays in."""


class Termination(enum.Enum):
    ALL_DOWN = "all_down"
    """Every player of the losing team is at 0 life."""
    EXHAUSTED = "exhausted"
    """A player of the losing team has no card in deck, recycle and life."""


# -- actions --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Play:
    """Play a card from hand; ``target`` is the seat a lock or targeted card names."""

    card: str
    target: int | None = None

    def __str__(self) -> str:
        return f"play:{self.card}" + ("" if self.target is None else f"@{self.target}")


@dataclass(frozen=True, slots=True)
class Move:
    """Discard a card face down to the display, then step one hex; ``facing`` after the step."""

    card: str
    direction: int
    facing: int

    def __str__(self) -> str:
        return f"move:{self.card}:{self.direction}:{self.facing}"


@dataclass(frozen=True, slots=True)
class Stall:
    """Decided: with no play and no move possible, discard a card without moving."""

    card: str

    def __str__(self) -> str:
        return f"stall:{self.card}"


@dataclass(frozen=True, slots=True)
class Discard:
    """Choose a card for a pending discard (弃牌 X, maintain, discard to the hand limit)."""

    card: str

    def __str__(self) -> str:
        return f"discard:{self.card}"


@dataclass(frozen=True, slots=True)
class Absorb:
    """Take pending damage with ``face_up`` life cards face up (2 damage each), rest face down."""

    face_up: int

    def __str__(self) -> str:
        return f"absorb:{self.face_up}"


@dataclass(frozen=True, slots=True)
class Maintain:
    """维持: keep the card (paying its discards) or let it be exhausted."""

    keep: bool

    def __str__(self) -> str:
        return "maintain:keep" if self.keep else "maintain:drop"


@dataclass(frozen=True, slots=True)
class Dash:
    """A card's "move at most X straight ahead": how many hexes to go (0 to X)."""

    steps: int

    def __str__(self) -> str:
        return f"dash:{self.steps}"


@dataclass(frozen=True, slots=True)
class Reveal:
    """识破: turn up the face-down card at ``index`` of the target's display (the user chooses)."""

    index: int

    def __str__(self) -> str:
        return f"reveal:{self.index}"


@dataclass(frozen=True, slots=True)
class Talent:
    """初始天赋 at the start of the game: put the talent into the display, or play without it."""

    use: bool

    def __str__(self) -> str:
        return "talent:use" if self.use else "talent:skip"


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the card taken from the pile the task at the head of the queue draws from."""

    card: str

    def __str__(self) -> str:
        return f"draw:{self.card}"


Action = Play | Move | Stall | Discard | Absorb | Maintain | Dash | Reveal | Talent | Draw

# Display entry states: face down, face up, face up and maintained through this clean-up.
DOWN, UP, KEPT = 0, 1, 2
# Draw destinations.
TO_HAND, TO_DISPLAY, TO_LIFE = 0, 1, 2


@dataclass(slots=True)
class Seat:
    """One player's piece and zones. Cards are codes into ``ArenaTalesRules.tokens``."""

    pos: tuple[int, int]
    facing: int
    hand: tuple[int, ...]
    """Sorted."""
    deck: tuple[int, ...]
    """A sorted multiset (its order is chance)."""
    recycle: tuple[int, ...]
    """A sorted multiset (face down)."""
    exhausted: tuple[int, ...]
    """A face-up stack, last = top."""
    life: tuple[int, ...]
    """A sorted multiset (face down)."""
    display: tuple[tuple[int, int], ...]
    """(card, DOWN/UP/KEPT) in the order the cards were placed."""
    sane: bool = True
    pending: int = 0
    """Cards this seat draws at the start of its next turn (the previous player's costs)."""
    zero_turn: int = -1
    """The turn in which this seat's life reached 0 (-1: life above 0)."""
    dead_start: bool = False
    """Life was 0 at the start of this seat's own turn: it cannot heal (team rule)."""

    def copy(self) -> Seat:
        # Field by field into a bare instance: a third cheaper than calling the generated
        # __init__, and a step copies a seat or two.
        new = _new_seat(Seat)
        new.pos = self.pos
        new.facing = self.facing
        new.hand = self.hand
        new.deck = self.deck
        new.recycle = self.recycle
        new.exhausted = self.exhausted
        new.life = self.life
        new.display = self.display
        new.sane = self.sane
        new.pending = self.pending
        new.zero_turn = self.zero_turn
        new.dead_start = self.dead_start
        return new


_new_seat = Seat.__new__
"""The class's own ``__new__`` (object.__new__ itself for the interpreter; a class compiled with
mypyc makes its instances with its own and refuses object.__new__), looked up once: on the
class at every copy, the look-up was a sixth of ``Seat.copy``."""

Task = tuple[str, *tuple[int, ...]]
"""(name, *ints): a step still to resolve; see ``ArenaTalesRules._settle``."""


task_seat: Callable[[Task], int] = itemgetter(1)
"""``arg(task, 1)``, the seat a task concerns, read several times a step: an itemgetter is
called without a Python frame."""


def arg(task: Task, index: int) -> int:
    """The ``index``-th field of a task (1 is the seat concerned, for the tasks that name one)."""
    # Only the name (index 0) is a string, which mypy cannot tell from a variadic tuple; no
    # runtime check: this is read several times a step.
    return task[index]  # type: ignore[return-value]


@dataclass(slots=True)
class ArenaState:
    seats: tuple[Seat, ...]
    active: int
    turn: int
    queue: tuple[Task, ...] = ()
    played: int = 0
    """Cards played this turn."""
    last_colour: str = ""
    """Colour of the last card played this turn (for 连击)."""
    dealt: bool = False
    """The active player dealt damage this turn."""
    forced: bool = False
    """The forced end was triggered by the card in resolution."""
    play: tuple[int, ...] = ()
    """The card in resolution: (card, target or -1, damage bonus, range bonus, cost change,
    combo 0/1)."""
    hits: tuple[int, ...] = ()
    """Seats the card in resolution hit."""
    responses: tuple[tuple[int, int], ...] = ()
    """Recorded responses (seat, card), resolved at step [6]."""
    ended: Termination | None = None
    winners: tuple[int, ...] = ()
    owned: int = field(default=0, init=False, repr=False, compare=False)
    """Bookkeeping, not position: a bit per seat this state's own step copied (``writable``);
    the other seats are shared with the state it was made from and are never written."""
    vetted: tuple[Action, ...] | None = field(default=None, init=False, repr=False, compare=False)
    """Bookkeeping, not position: the legal actions last listed for this state (or the chance
    outcome last drawn for it), which ``apply`` then need not check again (it asks for the
    very same object). Never shared: a state forked from this one starts with None."""


_new_state = ArenaState.__new__
"""As ``_new_seat``, for ``fork``."""

PLAY_CARD, PLAY_TARGET, PLAY_DAMAGE, PLAY_RANGE, PLAY_COST, PLAY_COMBO = range(6)
DECISION_TASKS = frozenset({"absorb", "discard", "maintain", "dash", "reveal", "talent"})
CHANCE_TASKS = frozenset({"draw", "lose"})


def fork(s: ArenaState, index: int | None = None) -> ArenaState:
    """The next state to build from ``s``: it shares every seat with ``s`` (a step changes one
    or two) but seat ``index``, copied for the step to write; ``writable`` copies any other
    seat the first time the step writes to it."""
    t = _new_state(ArenaState)
    t.vetted = None
    if index is None:
        t.seats = s.seats
        t.owned = 0
    else:
        copied = list(s.seats)
        copied[index] = copied[index].copy()
        t.seats = tuple(copied)
        t.owned = 1 << index
    # Field by field, as Seat.copy (every step forks a state).
    t.active = s.active
    t.turn = s.turn
    t.queue = s.queue
    t.played = s.played
    t.last_colour = s.last_colour
    t.dealt = s.dealt
    t.forced = s.forced
    t.play = s.play
    t.hits = s.hits
    t.responses = s.responses
    t.ended = s.ended
    t.winners = s.winners
    return t


def clone_state(s: ArenaState) -> ArenaState:
    """A copy whose seats may all be written: states already handed out are never touched."""
    t = fork(s)
    t.seats = tuple([seat.copy() for seat in s.seats])
    t.owned = (1 << len(t.seats)) - 1
    return t


def writable(s: ArenaState, index: int) -> Seat:
    """Seat ``index`` of a state being built (``fork``), to write to: copied on the first
    write, so the state it was made from keeps its own."""
    if s.owned >> index & 1:
        return s.seats[index]
    seat = s.seats[index].copy()
    seats = list(s.seats)
    seats[index] = seat
    s.seats = tuple(seats)
    s.owned |= 1 << index
    return seat


def bump(play: tuple[int, ...], slot: int, by: int) -> tuple[int, ...]:
    if not play or not by:
        return play
    return (*play[:slot], play[slot] + by, *play[slot + 1 :])


def split_items(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


def refill_deck(seat: Seat) -> None:
    """Post (回收区): the moment the deck runs out, the recycle pile is shuffled into a new
    deck. Decided (recycle-reshuffle): a deck is never empty while the recycle pile holds
    cards, so cards recycled onto an empty deck become the deck at once. (Piles whose order is
    chance are multisets: shuffling is moving.)"""
    if not seat.deck and seat.recycle:
        seat.deck, seat.recycle = seat.recycle, ()


def redeal_hidden(state: ArenaState, seat: int, rng: random.Random) -> ArenaState:
    """A position ``seat`` cannot tell from ``state``: the cards no one sees are dealt again at
    random, each pile keeping its size. Everyone's life and deck are face down; another
    player's hand, recycle pile and face-down display cards are hidden too (which of them 识破
    turns up is a choice made blind). The face-up cards, the exhausted piles and the seat's own
    hand, recycle pile and display stay as they are."""
    s = clone_state(state)
    for index, other in enumerate(s.seats):
        life, deck = other.life, other.deck
        if index == seat:
            pool = [*life, *deck]
            shuffle(pool, rng)
            other.life = tuple(sorted(pool[: len(life)]))
            other.deck = tuple(sorted(pool[len(life) :]))
            continue
        hand, recycle, display = other.hand, other.recycle, other.display
        downs = [i for i, (_, face) in enumerate(display) if face == DOWN]
        pool = [*life, *deck, *hand, *recycle, *[display[i][0] for i in downs]]
        shuffle(pool, rng)
        # The pool cut back into the zones it came from, each as large as it was.
        start = 0
        life, start = tuple(sorted(pool[start : start + len(life)])), start + len(life)
        deck, start = tuple(sorted(pool[start : start + len(deck)])), start + len(deck)
        hand, start = tuple(sorted(pool[start : start + len(hand)])), start + len(hand)
        recycle, start = tuple(sorted(pool[start : start + len(recycle)])), start + len(recycle)
        other.life, other.deck, other.hand, other.recycle = life, deck, hand, recycle
        if downs:
            placed = list(display)
            for i, card in zip(downs, pool[start:], strict=True):
                placed[i] = (card, DOWN)
            other.display = tuple(placed)
    return s
