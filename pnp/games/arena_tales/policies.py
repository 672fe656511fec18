"""Arena Tales hand-written policies for simulated play."""

from __future__ import annotations

import random
from typing import Any

from pnp.engines import hexgrid
from pnp.engines.base import Rules
from pnp.games.arena_tales import combat
from pnp.games.arena_tales.model import CardType
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.games.arena_tales.state import (
    Absorb,
    Action,
    ArenaState,
    Dash,
    Discard,
    Maintain,
    Move,
    Play,
    Stall,
)


class SensiblePolicy:
    """A simple player: the play that hits enemies hardest; otherwise a step towards the nearest
    enemy (discarding a non-damage card first); take damage face down; keep maintained cards;
    move as far as a card allows; discard the cheapest card. Falls back to the first legal
    action."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, ArenaTalesRules) and isinstance(state, ArenaState)
        actions = rules.legal_actions(state)
        first = actions[0]
        if isinstance(first, Absorb):
            return first
        if isinstance(first, Maintain):
            return Maintain(True)
        if isinstance(first, Dash):
            return actions[-1]  # a card's straight move: as far as it goes
        if isinstance(first, Discard):
            discards = [a for a in actions if isinstance(a, Discard)]
            return min(discards, key=lambda a: (rules.card(a.card).cost, a.card))
        seat = state.seats[state.active]
        best: tuple[int, Action] | None = None
        for action in actions:
            if isinstance(action, Play):
                score = combat.preview(rules, state, action)
                if score > 0 and (best is None or score > best[0]):
                    best = (score, action)
        if best is not None:
            return best[1]
        enemies = [state.seats[e].pos for e in rules.enemies(state.active)]
        near = min(hexgrid.distance(seat.pos, e) for e in enemies)
        moves = [a for a in actions if isinstance(a, Move)]
        if moves:
            # A step after which a card left in hand would hit an enemy; else a step closer.
            def key(move: Move) -> tuple[int, int, int, int]:
                card = rules.card(move.card)
                ahead = hexgrid.neighbour(seat.pos, move.direction)
                aim = combat.threat(rules, state, move)
                closer = min(hexgrid.distance(ahead, e) for e in enemies) < near
                return (-aim, not closer, card.type is CardType.DAMAGE, card.cost)

            best_move = min(moves, key=key)
            if key(best_move)[0] < 0 or key(best_move)[1] is False:
                return best_move
        # Nothing useful: any play or move (a stall only when nothing else is left).
        useful = [a for a in actions if not isinstance(a, Stall)] or actions
        return useful[int(rng.random() * len(useful))]

    def __repr__(self) -> str:
        return "SensiblePolicy()"
