"""Arena Tales hand-written policies for simulated play."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pnp.engines import hexgrid
from pnp.engines.base import Rules
from pnp.engines.piles import distinct
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
    Reveal,
    Talent,
)

Chosen = TypeVar("Chosen")


def discard_cost(rules: ArenaTalesRules) -> Callable[[Action], int]:
    """The key that discards the cheapest card first."""

    def key(action: Action) -> int:
        assert isinstance(action, Discard)
        return rules.card(action.card).cost

    return key


def pick(options: Sequence[Chosen], rng: random.Random) -> Chosen:
    """One of ``options`` at random from the injected generator (never by list order)."""
    return options[0] if len(options) == 1 else options[int(rng.random() * len(options))]


def best(options: Sequence[Action], key: Callable[[Action], Any], rng: random.Random) -> Action:
    """The option with the least ``key``; ties broken at random."""
    keys = [key(option) for option in options]
    low = min(keys)
    return pick([o for o, k in zip(options, keys, strict=True) if k == low], rng)


class SensiblePolicy:
    """A simple player: use its talent; the play that hits enemies hardest; otherwise a step
    towards the nearest enemy (discarding a non-damage card first); take damage face down; keep
    maintained cards;
    move as far as a card allows; discard the cheapest card. Every tie is broken at random from
    the injected generator, so no seat, card or direction is favoured by list order."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, ArenaTalesRules) and isinstance(state, ArenaState)
        actions = rules.legal_actions(state)
        first = actions[0]
        if isinstance(first, Absorb):
            return first
        if isinstance(first, Maintain):
            return Maintain(True)
        if isinstance(first, Talent):
            return first  # use the talent
        if isinstance(first, Reveal):
            return actions[-1]  # 识破: the newest face-down card
        if isinstance(first, Dash):
            return actions[-1]  # a card's straight move: as far as it goes
        if isinstance(first, Discard):
            return best(actions, discard_cost(rules), rng)
        seats = state.seats
        active = state.active
        seat = seats[active]
        enemies = [seats[e].pos for e in rules._enemies[active]]
        near = combat.nearest(seat.pos, enemies)
        # Every enemy out of reach: no play hits one (the previews would all be <= 0), and
        # beyond reach + 1 no step brings one into reach (every threat would be 0).
        reach = combat.reach_limit(rules, seat)
        # legal_actions lists the plays first, then the moves (or else stalls).
        plays: list[Play] = []
        for action in actions:
            if type(action) is not Play:
                break
            plays.append(action)
        if near <= reach:
            threats = combat.play_threats(rules, state, plays, enemies)
            top = max(threats, default=0)
            if top > 0:
                return pick([p for p, t in zip(plays, threats, strict=True) if t == top], rng)
        if len(plays) < len(actions) and type(actions[-1]) is Move:
            move = self._step(rules, state, actions[len(plays) :], enemies, near, reach, rng)
            if move is not None:
                return move
        # Nothing useful: any play or move (stalls are listed only when nothing else is).
        return pick(actions, rng)

    @staticmethod
    def _step(
        rules: ArenaTalesRules,
        state: ArenaState,
        moves: Sequence[Action],
        enemies: list[hexgrid.Hex],
        near: int,
        reach: int,
        rng: random.Random,
    ) -> Move | None:
        """The best of ``moves`` (the legal discard-moves, as ``legal_actions`` lists them: card
        by card, each card over the same steps) by the key (-threat, not closer, a damage card,
        cost), ties at random; None when the best brings no threat and no enemy closer.

        The same choice as ``best`` over every move's key, from per-card and per-step parts:
        a move's threat is 0 unless ``step_threats`` lists it, and a step ends closer to the
        nearest enemy exactly when it ends closer to one of the enemies ``near`` away."""
        seat = state.seats[state.active]
        codes = distinct(seat.hand)
        count = len(moves) // len(codes)
        steps = [move for move in moves[:count] if type(move) is Move]  # the first card's
        rank = rules._discard_rank
        card_keys = [rank[code] for code in codes]
        towards = rules._closer[seat.pos]
        closer = 0  # a bit per direction whose step ends closer to the nearest enemy
        for enemy in enemies:
            if hexgrid.distance(seat.pos, enemy) == near:
                closer |= towards[enemy]
        farther = [not closer >> step.direction & 1 for step in steps]
        threats = (
            combat.step_threats(rules, state, codes, steps, enemies, reach)
            if near - 1 <= reach
            else {}
        )
        top = max(threats.values(), default=0)
        if top > 0:
            aimed = [ij for ij, threat in threats.items() if threat == top]
            low = min((farther[j], *card_keys[i]) for i, j in aimed)
            ties = [i * count + j for i, j in aimed if (farther[j], *card_keys[i]) == low]
        else:
            # No threat: the key is (0, not closer, a damage card, cost).
            low_card, low_step = min(card_keys), min(farther)
            ties = [
                i * count + j
                for i, key in enumerate(card_keys)
                if key == low_card
                for j, far in enumerate(farther)
                if far == low_step
            ]
            if low_step:
                # No step closer: the choice falls through to any play or move. The draw
                # ``best`` made among these moves before the choice gave them up is still
                # made, so the generator, and every seeded game, goes on as it did.
                pick(ties, rng)
                return None
        chosen = moves[pick(ties, rng)]
        assert type(chosen) is Move
        return chosen

    def __repr__(self) -> str:
        return "SensiblePolicy()"


class PassivePolicy:
    """A player who never attacks if it can help it: it plays only cards that deal no damage,
    steps away from the enemy when it may, takes damage face down, never maintains and
    discards its cheapest card; a damage card only when nothing else is legal. Ties at random.
    Two of them must still finish a game (失控 and the stuck rule see to it)."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, ArenaTalesRules) and isinstance(state, ArenaState)
        actions = rules.legal_actions(state)
        first = actions[0]
        if isinstance(first, Absorb):
            return first
        if isinstance(first, Maintain):
            return Maintain(False)
        if isinstance(first, (Talent, Reveal)):
            return first
        if isinstance(first, (Dash, Discard)):
            return (
                pick(actions, rng)
                if isinstance(first, Dash)
                else best(actions, discard_cost(rules), rng)
            )
        harmless = [
            a
            for a in actions
            if not (isinstance(a, Play) and rules.card(a.card).type is CardType.DAMAGE)
        ]
        if not harmless:
            return pick(actions, rng)
        seat = state.seats[state.active]
        enemies = [state.seats[e].pos for e in rules.enemies(state.active)]

        away: dict[int, tuple[int, int]] = {}  # a move's key depends on its direction only

        def key(action: Action) -> tuple[int, int]:
            # Away from the nearest enemy first, a non-damage play next, a stall last.
            if isinstance(action, Move):
                found = away.get(action.direction)
                if found is None:
                    ahead = hexgrid.neighbour(seat.pos, action.direction)
                    found = (0, -min(hexgrid.distance(ahead, e) for e in enemies))
                    away[action.direction] = found
                return found
            return (1, 0) if isinstance(action, Play) else (2, 0)

        return best(harmless, key, rng)

    def __repr__(self) -> str:
        return "PassivePolicy()"
