"""Dragon Hoard's hand-written policies."""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterable
from typing import Any

from pnp.engines.base import Rules
from pnp.games.dragon_hoard.actions import _DONE, _STOP, _WAIT, Action, Heirloom, Place, Walk
from pnp.games.dragon_hoard.model import ActionKind, Cell
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.state import DragonHoardState, Stage


class TreasureHunterPolicy:
    """A sensible adventurer who sees only what a player sees.

    Preparation: keeps the most valuable treasure as heirloom, then is done. Placement: heads
    for the nearest treasure on the floor (walking distance around the dragon) until it carries
    ``greed`` points or the countdown has started, then for the nearest exit; it places the
    move cards that bring it closest, and dodges when no move helps. It never gives up.
    """

    def __init__(self, greed: int = 10, patience: float = 0.2) -> None:
        self.greed = greed
        self.patience = patience

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, DragonHoardRules) and isinstance(state, DragonHoardState)
        actions = rules.legal_actions(state)
        seat = state.actor
        if state.stage is Stage.PREPARATION:
            return self._prepare(rules, state, seat, actions)
        if state.stage is Stage.RESOLUTION:
            return self._walk(rules, state, seat, actions)
        placed = sum(1 for s, _ in state.placed if s == seat)
        pos = state.pawns[seat]
        if pos is None:
            return _STOP
        if placed == 0 and _WAIT in actions and rng.random() < self.patience:
            return _WAIT  # let the others go first this time
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
        dodge = next((a for a in actions if type(a) is Place and a.card in rules.dodge_cards), None)
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
        return frozenset((x, y) for x, y, _ in state.floor)

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
        self, rules: DragonHoardRules, state: DragonHoardState, seat: int, actions: list[Action]
    ) -> Action:
        heirlooms = [a for a in actions if type(a) is Heirloom]
        if heirlooms:
            best = max(heirlooms, key=lambda a: rules.value[rules._treasure_by_id[a.treasure]])
            current = state.heirlooms[seat]
            if (
                current < 0
                or rules.value[rules._treasure_by_id[best.treasure]] > rules.value[current]
            ):
                return best
        return _DONE

    def __repr__(self) -> str:
        return f"TreasureHunterPolicy(greed={self.greed}, patience={self.patience})"


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
    queue = deque(t for t in goal if t not in body)
    seen: dict[Cell, int] = {t: 0 for t in queue}
    while queue:
        cell = queue.popleft()
        x, y = cell
        d = seen[cell] + 1
        for nxt in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y)):
            if nxt in seen or nxt in body or not (0 <= nxt[0] < columns and 0 <= nxt[1] < rows):
                continue
            seen[nxt] = d
            queue.append(nxt)
    if len(_WALK_CACHE) > 4096:
        _WALK_CACHE.clear()
    _WALK_CACHE[key] = seen
    return seen
