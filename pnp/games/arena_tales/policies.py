"""Arena Tales hand-written policies for simulated play."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
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
    Reveal,
    Stall,
    Talent,
)


def discard_cost(rules: ArenaTalesRules) -> Callable[[Action], int]:
    """The key that discards the cheapest card first."""

    def key(action: Action) -> int:
        assert isinstance(action, Discard)
        return rules.card(action.card).cost

    return key


def pick(options: Sequence[Action], rng: random.Random) -> Action:
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
        seat = seats[state.active]
        teams = rules.teams
        side = teams[state.active]
        enemies = [other.pos for i, other in enumerate(seats) if teams[i] != side]
        near = combat.nearest(seat.pos, enemies)
        # Every enemy out of reach: no play hits one (the previews would all be <= 0), and
        # beyond reach + 1 no step brings one into reach (every threat would be 0).
        reach = combat.reach_limit(rules, seat)
        if near <= reach:
            preview = combat.previews(rules, state)
            scored = [(preview(action), action) for action in actions if isinstance(action, Play)]
            top = max((score for score, _ in scored), default=0)
            if top > 0:
                return pick([action for score, action in scored if score == top], rng)
        moves = [a for a in actions if isinstance(a, Move)]
        if moves:
            # A step after which a card left in hand would hit an enemy; else a step closer:
            # ``best`` by the key (-threat, not closer, a damage card, cost), all keys at once.
            aims = (
                combat.move_threats(rules, state, moves) if near - 1 <= reach else [0] * len(moves)
            )
            closer_by_direction: dict[int, bool] = {}
            card_keys: dict[str, tuple[bool, int]] = {}
            keys: list[tuple[int, bool, bool, int]] = []
            for move, aim in zip(moves, aims, strict=True):
                closer = closer_by_direction.get(move.direction)
                if closer is None:
                    ahead = hexgrid.neighbour(seat.pos, move.direction)
                    closer = combat.nearest(ahead, enemies) < near
                    closer_by_direction[move.direction] = closer
                card_key = card_keys.get(move.card)
                if card_key is None:
                    card = rules.card(move.card)
                    card_key = card_keys[move.card] = (card.type is CardType.DAMAGE, card.cost)
                keys.append((-aim, not closer, *card_key))
            low = min(keys)
            best_move = pick([m for m, k in zip(moves, keys, strict=True) if k == low], rng)
            aim, farther, _, _ = low  # the key of best_move
            if aim < 0 or not farther:
                return best_move
        # Nothing useful: any play or move (a stall only when nothing else is left).
        useful = [a for a in actions if not isinstance(a, Stall)] or actions
        return pick(useful, rng)

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
