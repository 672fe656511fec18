"""Dragon Hoard's hand-written policies."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pnp.engines.base import Rules
from pnp.games.dragon_hoard.actions import (
    _DONE,
    _REVEAL,
    _STOP,
    _WAIT,
    Action,
    Heirloom,
    Place,
    PrepCard,
    UseTreasure,
    Walk,
)
from pnp.games.dragon_hoard.model import ActionKind, AIEffectKind, Cell
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.state import DragonHoardState, Stage

A = TypeVar("A", bound=Action)


class TreasureHunterPolicy:
    """A sensible adventurer who sees only what a player sees.

    Preparation: keeps the most valuable treasure as heirloom, sprints toward its target, uses a
    dragon diamond when a gate saves a long walk and a dragon scale when it carries a lot inside
    the dragon's domain, then is done. Placement: heads for the nearest treasure on the floor
    (walking distance around the dragon) until it carries ``greed`` points or the countdown has
    started, then for the nearest exit; it sometimes reveals the AI card first (``patience``)
    and dodges when the revealed card would hit it, grabs from a richer neighbour, places the
    move cards that bring it closest, and dodges when no move helps. It never gives up. Ties
    are broken at random from the injected generator (no seat or list-order favourite).
    """

    def __init__(self, greed: int = 10, patience: float = 0.2) -> None:
        self.greed = greed
        self.patience = patience
        # The treasure cells of the last floor seen (floors are shared between states until a
        # treasure is picked up or dropped).
        self._floor: tuple[tuple[int, int, int], ...] | None = None
        self._floor_cells: frozenset[Cell] = frozenset()

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, DragonHoardRules) and isinstance(state, DragonHoardState)
        actions = rules.legal_actions(state)
        seat = state.actor
        if state.stage is Stage.PREPARATION:
            return self._prepare(rules, state, seat, actions, rng)
        if state.stage is Stage.RESOLUTION:
            return self._walk(rules, state, seat, actions)
        placed = sum(1 for s, _ in state.placed if s == seat)
        pos = state.pawns[seat]
        if pos is None:
            return _STOP
        if placed == 0 and _WAIT in actions and rng.random() < self.patience:
            return _WAIT  # let the others go first this time
        if placed == 0 and _REVEAL in actions and rng.random() < self.patience:
            return _REVEAL  # look before leaping: see this round's AI card
        dodge = next((a for a in actions if type(a) is Place and a.card in rules.dodge_cards), None)
        if dodge is not None and placed == 0 and state.revealed and _threatened(rules, state, pos):
            return dodge  # the revealed AI card would hit it where it stands
        grab = next(
            (
                a
                for a in actions
                if type(a) is Place
                and rules.cards[rules._card_by_id[a.card]].kind is ActionKind.GRAB
            ),
            None,
        )
        if grab is not None and placed == 0 and _richest_neighbour(rules, state, seat) >= 3:
            return grab
        targets = self._targets(rules, state, seat)
        # Where the pawn will stand after the cards it already placed this round.
        for s, c in state.placed:
            card = rules.cards[c]
            if s == seat and card.kind is ActionKind.MOVE and card.direction is not None:
                pos = rules.landing(pos, state.dragon, card.direction, card.steps)
        distances = _walking(rules, state.dragon, targets)
        best, best_distance = None, distances.get(pos, 999)
        candidates = list(actions)
        rng.shuffle(candidates)  # no favourite direction among equally good moves
        for action in candidates:
            if type(action) is not Place:
                continue
            card = rules.cards[rules._card_by_id[action.card]]
            if card.kind is not ActionKind.MOVE or card.direction is None:
                continue
            to = rules.landing(pos, state.dragon, card.direction, card.steps)
            distance = distances.get(to, 999)
            if distance < best_distance:
                best, best_distance = action, distance
        if best is not None:
            return best
        if dodge is not None and placed == 0:
            return dodge
        return _STOP

    def _targets(
        self, rules: DragonHoardRules, state: DragonHoardState, seat: int
    ) -> frozenset[Cell]:
        """Treasures on the floor, or the exits once it carries enough or the end is near."""
        carried = sum(rules.value[t] for t in (*state.bags[seat], state.heirlooms[seat]) if t >= 0)
        heading_out = (
            state.countdown or carried >= self.greed or not state.floor
        ) and rules._may_leave(state, seat)
        if heading_out or not state.floor:
            return rules.exits
        if state.floor is not self._floor:
            self._floor = state.floor
            self._floor_cells = frozenset((x, y) for x, y, _ in state.floor)
        return self._floor_cells

    def _walk(
        self, rules: DragonHoardRules, state: DragonHoardState, seat: int, actions: list[Action]
    ) -> Action:
        """How far the move card being resolved goes: closest to the target, then farthest."""
        _, c = state.queue[0]
        direction = rules.cards[c].direction
        pos = state.pawns[seat]
        assert direction is not None and pos is not None  # a move card of a pawn on the map
        distances = _walking(rules, state.dragon, self._targets(rules, state, seat))
        walks = [a for a in actions if type(a) is Walk]
        return min(
            walks,
            key=lambda a: (
                distances.get(rules.landing(pos, state.dragon, direction, a.steps), 999),
                -a.steps,
            ),
        )

    def _prepare(
        self,
        rules: DragonHoardRules,
        state: DragonHoardState,
        seat: int,
        actions: list[Action],
        rng: random.Random,
    ) -> Action:
        heirlooms = [a for a in actions if type(a) is Heirloom]
        if heirlooms:
            worth = {a: rules.value[rules._treasure_by_id[a.treasure]] for a in heirlooms}
            top = max(worth.values())
            current = state.heirlooms[seat]
            if current < 0 or top > rules.value[current]:
                return _pick([a for a in heirlooms if worth[a] == top], rng)
        pos = state.pawns[seat]
        if pos is None:
            return _DONE
        targets = self._targets(rules, state, seat)
        distances = _walking(rules, state.dragon, targets)
        here = distances.get(pos, 999)
        uses = [a for a in actions if type(a) is UseTreasure]
        teleports = [a for a in uses if a.gate is not None]
        if teleports:
            # A diamond (worth points) only for a walk it cuts by half a map or more.
            by_gate = {
                a: distances.get(rules.gate_cells[rules._gate_by_id[a.gate or ""]], 999)
                for a in teleports
            }
            nearest = min(by_gate.values())
            if nearest + rules.lair.columns // 2 <= here:
                return _pick([a for a in teleports if by_gate[a] == nearest], rng)
        scales = [a for a in uses if a.gate is None]
        carried = sum(rules.value[t] for t in state.bags[seat])
        if scales and rules.lair.in_domain(pos) and carried >= self.greed // 2:
            return _pick(scales, rng)  # a dragon scale: dodge this round, near the dragon
        sprints = [a for a in actions if type(a) is PrepCard and a.direction is not None]
        if sprints:
            landing = {
                a: distances.get(
                    rules.landing(pos, state.dragon, a.direction, a.steps or 1)
                    if a.direction is not None
                    else pos,
                    999,
                )
                for a in sprints
            }
            closest = min(landing.values())
            if closest < here:
                return _pick([a for a in sprints if landing[a] == closest], rng)
        return _DONE

    def __repr__(self) -> str:
        return f"TreasureHunterPolicy(greed={self.greed}, patience={self.patience})"


class PassivePolicy:
    """An adventurer who takes no risk: never moves toward the dragon, never grabs, never
    reveals, never uses a treasure and never gives up. It turns its character card sideways
    every round it can and otherwise stays put, so nobody leaves the lair and the game must end
    by the AI deck alone (liveness: the countdown and the reshuffles that shrink the deck)."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, DragonHoardRules) and isinstance(state, DragonHoardState)
        actions = rules.legal_actions(state)
        if state.stage is Stage.PREPARATION:
            return _DONE
        if state.stage is Stage.RESOLUTION:
            return min((a for a in actions if type(a) is Walk), key=lambda a: a.steps)
        seat = state.actor
        placed = any(s == seat for s, _ in state.placed)
        dodges = [a for a in actions if type(a) is Place and a.card in rules.dodge_cards]
        if dodges and not placed:
            return _pick(dodges, rng)
        return _STOP

    def __repr__(self) -> str:
        return "PassivePolicy()"


def _pick(choices: Sequence[A], rng: random.Random) -> A:
    """One of equally good ``choices``, at random from the injected generator."""
    return choices[0] if len(choices) == 1 else choices[int(rng.random() * len(choices))]


def _threatened(rules: DragonHoardRules, state: DragonHoardState, pos: Cell) -> bool:
    """Whether this round's AI card, face up, attacks ``pos`` with the dragon where it is."""
    c = state.current
    if c < 0:
        return False
    return any(
        effect.kind is AIEffectKind.ATTACK and pos in rules.area(c, effect, state.dragon)
        for effect in rules.ai_effects[c]
    )


def _richest_neighbour(rules: DragonHoardRules, state: DragonHoardState, seat: int) -> int:
    """The bag value of the richest other pawn on or next to ``seat``'s cell (what a grab
    would aim at), 0 when none."""
    pos = state.pawns[seat]
    if pos is None:
        return 0
    best = 0
    for other, there in enumerate(state.pawns):
        if other == seat or there is None:
            continue
        if abs(there[0] - pos[0]) + abs(there[1] - pos[1]) <= 1:
            best = max(best, sum(rules.value[t] for t in state.bags[other]))
    return best


@dataclass(frozen=True)
class _Grid:
    """A map's cells numbered, with each cell's neighbours by number (for breadth-first
    walks over lists instead of dictionaries)."""

    cells: tuple[Cell, ...]
    index: dict[Cell, int]
    near: tuple[tuple[int, ...], ...]


_GRIDS: dict[tuple[int, int], _Grid] = {}


def _grid(columns: int, rows: int) -> _Grid:
    grid = _GRIDS.get((columns, rows))
    if grid is None:
        cells = tuple((x, y) for x in range(columns) for y in range(rows))
        index = {cell: k for k, cell in enumerate(cells)}
        near = tuple(tuple(index[c] for c in _near(cell, columns, rows)) for cell in cells)
        grid = _GRIDS[(columns, rows)] = _Grid(cells, index, near)
    return grid


def _breadth_first(grid: _Grid, body: frozenset[Cell], starts: list[Cell]) -> dict[Cell, int]:
    """Steps from every cell reachable around ``body`` to the nearest of ``starts``."""
    distance = [-1] * len(grid.cells)
    for cell in body:
        k = grid.index.get(cell)
        if k is not None:
            distance[k] = -2  # under the dragon: never entered
    queue = [grid.index[t] for t in starts]
    for k in queue:
        distance[k] = 0
    near = grid.near
    for k in queue:  # the list grows while it is read: a queue
        d = distance[k] + 1
        for j in near[k]:
            if distance[j] == -1:
                distance[j] = d
                queue.append(j)
    cells = grid.cells
    return {cells[k]: d for k, d in enumerate(distance) if d >= 0}


def _near(cell: Cell, columns: int, rows: int) -> tuple[Cell, ...]:
    """The cells on the map next to ``cell``: north, east, south, west."""
    x, y = cell
    return tuple(
        (a, b)
        for a, b in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))
        if 0 <= a < columns and 0 <= b < rows
    )


_WALK_CACHE: dict[tuple[int, Cell, frozenset[Cell]], dict[Cell, int]] = {}


def _walking(rules: DragonHoardRules, dragon: Cell, targets: Iterable[Cell]) -> dict[Cell, int]:
    """Walking distance (cells) from every cell to the nearest target, around the dragon."""
    goal = frozenset(targets)
    key = (id(rules.lair), dragon, goal)
    cached = _WALK_CACHE.get(key)
    if cached is not None:
        return cached
    body = rules.body(dragon)
    columns, rows = rules.lair.columns, rules.lair.rows
    grid = _grid(columns, rows)
    starts = [t for t in goal if t not in body]
    if all(t in grid.index for t in starts):
        seen = _breadth_first(grid, body, starts)
    else:  # a target off the map: walk cell by cell
        queue = deque(starts)
        seen = {t: 0 for t in queue}
        while queue:
            cell = queue.popleft()
            d = seen[cell] + 1
            for nxt in _near(cell, columns, rows):
                if nxt in seen or nxt in body:
                    continue
                seen[nxt] = d
                queue.append(nxt)
    if len(_WALK_CACHE) > 4096:
        _WALK_CACHE.clear()
    _WALK_CACHE[key] = seen
    return seen
