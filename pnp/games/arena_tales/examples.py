"""Arena Tales tables for the contract test and worked examples for the rulebook, played out by
the engine so prose cannot drift from it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from pnp.engines import hexgrid
from pnp.engines.view import Pictured, first_pictured
from pnp.games.arena_tales.model import ArenaTales, CardType, EffectKind, RangeKind
from pnp.games.arena_tales.policies import SensiblePolicy
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.games.arena_tales.state import Absorb, Move, Play


def example_tables(model: ArenaTales) -> list[tuple[str, ArenaTalesRules]]:
    """Tables the shared contract test plays: a duel and both team sizes."""
    names = [c.id for c in model.characters]
    # 6 players plays the same code paths as 4, only longer: tests/engines covers it.
    return [
        ("2p", ArenaTalesRules(model, 2)),
        ("4p", ArenaTalesRules(model, 4, names[2:6])),
    ]


def rulebook_examples(model: ArenaTales) -> dict[str, dict[str, Any]]:
    """Worked examples for the rulebook, played out by this engine so prose cannot drift.

    ``charge``: a charge card (the longest reach; among those the least full damage, so the
    floor of 1 shows) played by its owner from the centre of the arena with the charge side
    facing down a clear line, the owner's talent in the display as in play; one enemy stands at
    each distance in turn, and the damage is the life that enemy loses. ``nearest``: the same
    play at the smallest team table with one enemy near and one at the maximum distance, the
    same line: only the nearer is hit.
    """
    duel = min(s.players for s in model.arena.setups)
    candidates = []
    for card in model.cards:
        for side, spec in enumerate(card.ranges):
            if card.type is CardType.DAMAGE and spec is not None and spec.kind is RangeKind.CHARGE:
                owner = next(c for c in model.characters if c.colour == card.colour)
                talent = model.talent_of(owner)
                bonus = sum(
                    e.amount
                    for e in (talent.effects if talent is not None else ())
                    if e.kind is EffectKind.DAMAGE_UP
                )
                full = (card.damage or 0) + bonus
                candidates.append((-spec.reach, full, card.id, side, owner, talent, bonus))
    if not candidates:
        return {}
    minus_reach, full, card_id, side, owner, talent, bonus = min(candidates)
    card, reach = model.card_by_id[card_id], -minus_reach
    centre = (0, 0)
    obstacles = {(o.q, o.r) for o in model.arena.obstacles}
    direction = next(
        d
        for d in range(6)
        if all(
            h not in obstacles and hexgrid.in_map(h, model.arena.radius)
            for h in hexgrid.ray(centre, d, reach)
        )
    )
    facing = (direction - side) % 6

    def damage_at(players: int, distances: Sequence[int]) -> list[int]:
        """Life lost by the enemies standing at ``distances`` down the line."""
        others = [c.id for c in model.characters if c.id != owner.id]
        rules = ArenaTalesRules(model, players, [owner.id, *others[: players - 1]])
        state = rules.initial_state(random.Random(0))
        enemies = rules.enemies(0)
        code = rules._by_token[card.id]
        filler = next(c for c in rules._decks[0] if c != code and not rules._stays[c])
        line = set(hexgrid.ray(centre, direction, reach + 1))
        spare = iter(h for h in sorted(rules._floor) if h not in line and h != centre)
        for seat in state.seats:
            seat.pos = next(spare)
            seat.pending = 0
        actor = state.seats[0]
        actor.pos, actor.facing = centre, facing
        actor.hand = tuple(sorted((code, filler, filler)))
        for enemy, distance in zip(enemies, distances, strict=False):
            state.seats[enemy].pos = hexgrid.neighbour(centre, direction, distance)
        state.queue = ()
        before = [len(seat.life) for seat in state.seats]
        target = enemies[0] if EffectKind.LOCK in rules._has[code] else None
        state = rules.apply(state, Play(card.id, target))
        # Take every hit face down (one life card per point) until the card has resolved.
        while any(task[0] in ("absorb", "lose") for task in state.queue):
            if state.queue[0][0] == "absorb":
                state = rules.apply(state, Absorb(0))
            elif rules.is_chance(state):
                state = rules.apply(state, rules.chance_outcomes(state)[0][0])
            else:  # pragma: no cover - the order of the queue is the engine's
                raise AssertionError(rules.notation(state))
        return [before[e] - len(state.seats[e].life) for e in enemies[: len(distances)]]

    rows = [{"distance": d, "damage": damage_at(duel, [d])[0]} for d in range(reach, 0, -1)]
    teams = sorted(s.players for s in model.arena.setups if s.players > duel)
    near, far = max(1, reach // 2), reach
    nearest = damage_at(teams[0], [near, far]) if teams else []
    towards = hexgrid.neighbour(centre, direction, model.arena.radius)
    point = next((p.name for p in model.arena.orientation_points if (p.q, p.r) == towards), "")
    return {
        "charge": {
            "character": owner.name,
            "talent": "" if talent is None else talent.name,
            "bonus": bonus,
            "card": card.name,
            "spec": str(card.ranges[side]),
            "side": side,
            "reach": reach,
            "base": card.damage or 0,
            "full": full,
            "direction": direction,
            "towards": point,
            "rows": rows,
            "players": teams[0] if teams else duel,
            "near": near,
            "far": far,
            "near_damage": nearest[0] if nearest else 0,
            "far_damage": nearest[1] if nearest else 0,
        }
    }


def rulebook_positions(model: ArenaTales) -> dict[str, Pictured]:
    """Positions the rulebook draws, each the first such step of a seeded duel the sensible
    policy plays: the arena at setup; a step with a turn (facing); a card hitting an enemy
    from where its owner stands and faces (range); an enemy pushed a hex (knock-back)."""
    duel = min(s.players for s in model.arena.setups)
    rules = ArenaTalesRules(model, duel)
    policy = SensiblePolicy()
    start = rules.initial_state(random.Random(0))
    found: dict[str, Pictured] = {"setup": Pictured(rules, (start,))}

    def turned(before: Any, action: Any, after: Any) -> bool:
        seat = before.active
        return isinstance(action, Move) and after.seats[seat].facing != before.seats[seat].facing

    def hit(before: Any, action: Any, after: Any) -> bool:
        return isinstance(action, Play) and any(
            b.pending < a.pending for b, a in zip(before.seats, after.seats, strict=True)
        )

    def pushed(before: Any, action: Any, after: Any) -> bool:
        return not isinstance(action, Move) and any(
            k != before.active and b.pos != a.pos
            for k, (b, a) in enumerate(zip(before.seats, after.seats, strict=True))
        )

    wanted = {
        "facing": (turned, ("移动之前", "走一格并转向")),
        "range": (hit, ("出牌之前", "射程内的敌人受到伤害")),
        "knock-back": (pushed, ("敌人被击中", "被击退一格，远离出牌者")),
    }
    for name, (test, captions) in wanted.items():
        pictured = first_pictured(rules, policy, test, captions, seeds=30, limit=1_500)
        if pictured is not None:
            found[name] = pictured
    return found
