"""Where the pieces of Arena Tales stand and step: the tables of the arena's hexes, the questions
the hot paths ask of them (the active player's discard-moves, how far a straight move may go
and the choices it offers, whether a hex is free) and how a discard-move or a stall resolves.

A mixin of :class:`~pnp.games.arena_tales.rules.ArenaTalesRules`: its ``_build_tables`` builds
the hex tables here once per model (shared by every table of the model, as the card table is)
and its ``__init__`` sets the attributes declared below. A step of a discard-move is
``direction * 6 + facing``; the steps open from a hex are memoised by facing and the directions
left open, so listing them is a look-up most of the time.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from operator import itemgetter

from pnp.engines import hexgrid
from pnp.engines.hexgrid import Hex
from pnp.games.arena_tales import combat
from pnp.games.arena_tales.state import DOWN, Action, ArenaState, Dash, Move, Stall

SIX = range(6)
ALL_DIRECTIONS = 0b111111
TURNS = tuple(tuple(range(d * 6, d * 6 + 6)) for d in range(6))
"""The steps (``direction * 6 + facing``) of a move in ``direction`` that may turn."""


@cache
def move_row(token: str) -> tuple[Move, ...]:
    """Every discard-move with the card ``token``, at ``direction * 6 + facing``."""
    return tuple(Move(token, d, f) for d in range(6) for f in range(6))


@cache
def dash_options(most: int) -> tuple[Dash, ...]:
    return tuple(Dash(k) for k in range(most + 1))


def closer_directions(here: tuple[int, int], enemy: tuple[int, int]) -> int:
    """A bit per direction whose step from ``here`` ends closer to ``enemy``."""
    near = hexgrid.distance(here, enemy)
    return sum(
        1 << d for d in range(6) if hexgrid.distance(hexgrid.neighbour(here, d), enemy) < near
    )


StepSet = tuple[tuple[int, ...], Callable[[tuple[Move, ...]], tuple[Move, ...]]]
"""Discard-move steps (``direction * 6 + facing``), and what picks their moves out of a card's
``move_row`` (an ``itemgetter``: the moves of a card at C speed)."""


def pick_steps(steps: tuple[int, ...]) -> Callable[[tuple[Move, ...]], tuple[Move, ...]]:
    """What takes the moves of ``steps`` out of a ``move_row``, as a tuple."""
    if len(steps) > 1:
        return itemgetter(*steps)
    # itemgetter of one index gives the item, not a tuple; of none, it cannot be made.
    return lambda row: tuple([row[step] for step in steps])


HEX_TABLES = (
    "_floor", "_around", "_exits", "_closer", "_from_hex", "_exit_towards", "_rays", "_lines",
)  # fmt: skip
"""The attributes ``Movement._build_hex_tables`` sets (shared between the tables of a model)."""


class Movement:
    """The arena's hexes and the moves over them; the rules set the attributes below."""

    radius: int
    points: frozenset[Hex]
    """The orientation points (方位点): a piece turns only entering or leaving one."""
    obstacles: frozenset[Hex]
    _enemies: tuple[tuple[int, ...], ...]

    def _build_hex_tables(self) -> None:
        """The tables of the arena's hexes (the same for every table of the model)."""
        self._floor = frozenset(hexgrid.cells(self.radius)) - self.obstacles
        self._around = {
            h: tuple((d, hexgrid.neighbour(h, d)) for d in range(6)) for h in self._floor
        }
        self._exits = {
            h: tuple(
                (d, ahead, h in self.points or ahead in self.points)
                for d, ahead in self._around[h]
                if ahead in self._floor
            )
            for h in self._floor
        }
        self._closer = {h: {e: closer_directions(h, e) for e in self._floor} for h in self._floor}
        """Per hex, each hex of the floor -> the directions whose step ends closer to it (失控)."""
        self._from_hex: dict[Hex, tuple[dict[Hex, int], dict[Hex, int], list[StepSet | None]]]
        self._from_hex = {
            h: (
                {
                    e: ALL_DIRECTIONS & ~sum(1 << d for d, ahead in self._around[h] if ahead == e)
                    for e in self._floor
                },
                self._closer[h],
                [None] * (6 << 6),
            )
            for h in self._floor
        }
        """Per hex, what ``_step_set`` reads in one look-up: each hex of the floor -> the
        directions left open when a piece stands there; ``_closer``; the memo of step sets by
        facing and open directions (``facing << 6 | open``, a bit per direction)."""
        self._exit_towards = {
            h: tuple(next((e for e in exits if e[0] == d), None) for d in range(6))
            for h, exits in self._exits.items()
        }
        self._rays = {
            h: tuple(combat.edge_ray(h, d, self.radius) for d in range(6))
            for h in hexgrid.cells(self.radius)
        }
        """Per hex of the map, the hexes in a straight line each way (``combat.edge_ray``)."""
        self._lines = {
            h: {c: d for d, ray in enumerate(rays) for c in ray} for h, rays in self._rays.items()
        }
        """Per hex of the map, each hex on its six lines -> the direction of that line."""

    def _occupant(self, state: ArenaState, hexagon: tuple[int, int]) -> int | None:
        for index, seat in enumerate(state.seats):
            if seat.pos == hexagon:
                return index
        return None

    def _free(self, state: ArenaState, hexagon: tuple[int, int]) -> bool:
        return hexagon in self._floor and all(seat.pos != hexagon for seat in state.seats)

    def _dash_reach(self, state: ArenaState, seat_index: int, most: int) -> int:
        """How far a card's straight move may go: up to ``most`` free hexes ahead."""
        seat = state.seats[seat_index]
        pos, reach = seat.pos, 0
        while reach < most:
            pos = hexgrid.neighbour(pos, seat.facing)
            if not self._free(state, pos):
                break
            reach += 1
        return reach

    def _dashes(self, most: int) -> list[Action]:
        return list(dash_options(most))

    def _step_ok(self, state: ArenaState, direction: int, facing: int) -> bool:
        """Whether ``direction * 6 + facing`` is one of ``_steps(state)``, asked of one step."""
        seat = state.seats[state.active]
        exit = self._exit_towards[seat.pos][direction]
        if exit is None:
            return False
        _, ahead, turning = exit
        for other in state.seats:
            if other.pos == ahead:
                return False
        if not seat.sane:
            seats = state.seats
            closer = self._closer[seat.pos]
            toward = ALL_DIRECTIONS
            for e in self._enemies[state.active]:
                toward &= closer[seats[e].pos]
            if not toward >> direction & 1:
                return False
        return turning or facing == seat.facing

    def _steps(self, state: ArenaState) -> tuple[int, ...]:
        """The active player's discard-move steps as ``direction * 6 + facing``, in the order
        of the moves (direction, then facing)."""
        return self._step_set(state)[0]

    def _step_set(self, state: ArenaState) -> StepSet:
        """``_steps``, with what picks their moves out of a card's ``move_row``."""
        seats = state.seats
        seat = seats[state.active]
        pos = seat.pos
        blocks, closer, memo = self._from_hex[pos]
        # The directions open: not towards another piece (exits off the floor are left out
        # of ``_exits``)...
        open_ = ALL_DIRECTIONS
        for other in seats:
            open_ &= blocks[other.pos]
        if not seat.sane:
            # ...and 失控: a discard-move must end closer to every enemy (post: 「离任意敌对
            # 玩家的距离必须比移动前更近」; decided, out-of-control-closer). Next to an enemy
            # no step is closer to it: no discard-move at all.
            for e in self._enemies[state.active]:
                open_ &= closer[seats[e].pos]
        slot = seat.facing << 6 | open_
        found = memo[slot]
        if found is None:
            steps = self._steps_through(pos, seat.facing, open_)
            found = memo[slot] = (steps, pick_steps(steps))
        return found

    def _steps_through(self, pos: Hex, facing: int, open_: int) -> tuple[int, ...]:
        """The steps from ``pos`` to the exits in the directions of ``open_``."""
        steps: list[int] = []
        for direction, _, turning in self._exits[pos]:
            if not open_ >> direction & 1:
                continue
            # 方位点: the piece may turn only when entering or leaving an orientation point.
            if turning:
                steps += TURNS[direction]
            else:
                steps.append(direction * 6 + facing)
        return tuple(steps)

    def _move(self, s: ArenaState, action: Move | Stall, code: int) -> None:
        seat = s.seats[s.active]  # apply forked ``s`` with this seat copied
        hand = list(seat.hand)
        hand.remove(code)  # piles.without, inline: a move is a step in four
        seat.hand = tuple(hand)
        if type(action) is Stall:
            # Decided (stuck): with no play and no move, a card goes straight to the exhausted
            # pile; it leaves the cycle of deck and recycle, so standing still runs a player dry.
            seat.exhausted = (*seat.exhausted, code)
            return
        # 弃牌: the card goes face down to the display, then the piece steps one hex.
        seat.display = (*seat.display, (code, DOWN))
        if type(action) is Move:
            seat.pos = self._around[seat.pos][action.direction][1]  # hexgrid.neighbour
            seat.facing = action.facing
        # Decided (empty-hand-end): an empty hand ends the turn after a discard-move; _settle
        # sees it once nothing is left to resolve.
