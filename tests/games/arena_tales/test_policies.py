"""Arena Tales' sensible policy chooses as its rules read: the quick ways it finds its choice
(reach limits, lines no enemy stands on, keys from per-card and per-step parts) change no
choice and no draw of the generator, so seeded games, balance figures and the strong player,
whose playouts it plays, are what they would be without them."""

from __future__ import annotations

import random

import pytest

from pnp.engines import hexgrid
from pnp.engines.base import RandomPolicy
from pnp.games.arena_tales import combat
from pnp.games.arena_tales.model import CardType
from pnp.games.arena_tales.policies import SensiblePolicy, best, discard_cost, pick
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
from tests.games.arena_tales.test_play import MODEL


def sensible_by_definition(rules: ArenaTalesRules, state: ArenaState, rng: random.Random) -> Action:
    """The sensible policy read plainly: every play previewed, every move's key computed
    from the move alone (``SensiblePolicy``'s docstring says what it does)."""
    actions = rules.legal_actions(state)
    first = actions[0]
    if isinstance(first, (Absorb, Talent)):
        return first
    if isinstance(first, Maintain):
        return Maintain(True)
    if isinstance(first, (Reveal, Dash)):
        return actions[-1]
    if isinstance(first, Discard):
        return best(actions, discard_cost(rules), rng)
    plays = [a for a in actions if isinstance(a, Play)]
    scores = [combat.preview(rules, state, play) for play in plays]
    top = max(scores, default=0)
    if top > 0:
        return pick([play for play, score in zip(plays, scores, strict=True) if score == top], rng)
    moves = [a for a in actions if isinstance(a, Move)]
    if moves:
        seat = state.seats[state.active]
        enemies = [state.seats[e].pos for e in rules.enemies(state.active)]
        near = min(hexgrid.distance(seat.pos, e) for e in enemies)

        def key(move: Move) -> tuple[int, bool, bool, int]:
            ahead = hexgrid.neighbour(seat.pos, move.direction)
            closer = min(hexgrid.distance(ahead, e) for e in enemies) < near
            card = rules.card(move.card)
            aim = combat.threat(rules, state, move)
            return (-aim, not closer, card.type is CardType.DAMAGE, card.cost)

        keys = [key(move) for move in moves]
        low = min(keys)
        chosen = pick([m for m, k in zip(moves, keys, strict=True) if k == low], rng)
        if low[0] < 0 or not low[1]:  # a threat, or a step closer
            return chosen
    useful = [a for a in actions if not isinstance(a, Stall)] or actions
    return pick(useful, rng)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_sensible_policy_chooses_and_draws_as_its_definition(players: int) -> None:
    # Positions from random play (more varied than the policy's own: every card, facing and
    # distance) and from the policy's own games; at each, both choose from the same generator.
    rules = ArenaTalesRules(MODEL, players, draft=True)
    policy = SensiblePolicy()
    compared = moves = 0
    for seed in range(6):
        rng = random.Random(seed)
        driver = RandomPolicy() if seed % 2 else policy
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            if rules.is_chance(state):
                state = rules.apply(state, rules.sample_chance(state, rng))
                continue
            draw = rng.getrandbits(32)
            fast, plain = random.Random(draw), random.Random(draw)
            chosen = policy.choose(rules, state, fast)
            assert chosen == sensible_by_definition(rules, state, plain), rules.notation(state)
            assert fast.random() == plain.random(), rules.notation(state)  # the same draws
            compared += 1
            moves += isinstance(chosen, Move)
            state = rules.apply(state, driver.choose(rules, state, rng))
    assert compared > 200 and moves > 20
