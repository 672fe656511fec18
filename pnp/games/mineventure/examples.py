"""MineVenture examples: the tables the shared contract test plays, and the worked examples
the rulebook quotes, played out by the engine so prose cannot drift."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from pnp.engines.base import Rules
from pnp.engines.view import Pictured, first_pictured, first_played, played_until, player_name
from pnp.games.mineventure.model import (
    DamageType,
    EffectKind,
    Equipment,
    Mineventure,
    Slot,
    Target,
    Trait,
)
from pnp.games.mineventure.policies import SensiblePolicy
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.state import Act, Mode, clone
from pnp.games.mineventure.view import view


def example_tables(model: Mineventure) -> list[tuple[str, Rules[Any, Any]]]:
    """A few tables for the shared contract test: both maps, smallest and largest tables."""
    return [
        ("3p-map-24", MineventureRules(model, 3, Mode.MAP_24)),
        ("4p-map-32", MineventureRules(model, 4, Mode.MAP_32)),
    ]


# Character abilities that change a fight's numbers: the examples seat characters without them,
# so the prose can explain each number from the cards alone.
_FIGHT_ABILITIES = {
    EffectKind.GUARD,
    EffectKind.STRENGTH,
    EffectKind.COMPANION_ATTACK,
    EffectKind.HALVE_DEALT,
    EffectKind.HALVE_TAKEN,
    EffectKind.GLOWING,
    EffectKind.NIMBLE,
}


class _Table:
    """A hand-set position for a worked example: seats placed, equipped and in a phase."""

    def __init__(self, model: Mineventure) -> None:
        self.model = model
        self.rules = MineventureRules(model, model.info.players.min, model.assemblies[0].id)
        self.state = clone(self.rules.initial_state(random.Random(0)))
        plain = [
            i for i, c in enumerate(model.characters) if c.ability.kind not in _FIGHT_ABILITIES
        ]
        if len(plain) < self.rules.players:
            raise ValueError("the rulebook examples need characters without fight abilities")
        s = self.state
        s.spawn_order = ()
        s.phase, s.seat = "decision", 0
        for seat, p in enumerate(s.players):
            p.character = plain[seat]
        # Far from each other and from the dragon: only the seats an example moves take part.
        cells = sorted(
            (cell for cell, t in self.rules.terrain.items() if t.overworld),
            key=lambda cell: -self._distance(cell, self.rules.dragon_at),
        )
        self.cells = cells
        for seat, p in enumerate(s.players):
            p.x, p.y = self.rules.spawns[seat]

    @staticmethod
    def _distance(a: tuple[int, int], b: tuple[int, int]) -> int:
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def place(self, first: int, second: int, distance: int) -> None:
        """Put two seats `distance` cells apart, out of the dragon's reach."""
        reach = self.model.dragon.range
        for x, y in self.cells:
            for dx in range(distance + 1):
                other = (x + dx, y + distance - dx)
                terrain = self.rules.terrain.get(other)
                if (
                    terrain is not None
                    and terrain.overworld
                    and self._distance(other, self.rules.dragon_at) > reach
                ):
                    a, b = self.state.players[first], self.state.players[second]
                    (a.x, a.y), (b.x, b.y) = (x, y), other
                    return
        raise ValueError(f"no two cells {distance} apart on map {self.rules.assembly.id}")

    def equip(self, seat: int, card: Equipment) -> None:
        code = self.rules.by_token[card.id]
        self.rules._take(self.state, self.rules.card_deck[code], code)
        self.rules._equip(self.state, seat, code)

    def buff(self, seat: int, buff_id: str) -> None:
        self.rules.give_buff(self.state, seat, self.rules.buff_index[buff_id])

    def act(self, text: str) -> None:
        self.state = self.rules.apply(self.state, Act.parse(text))

    def hp(self, seat: int) -> int:
        return self.state.players[seat].hp


def _pick(cards: Sequence[Equipment], key: Callable[[Equipment], Any]) -> Equipment:
    """The best card by `key` (first in content order on a tie)."""
    return max(cards, key=lambda card: (key(card), -list(cards).index(card)))


def rulebook_examples(model: Mineventure) -> dict[str, dict[str, Any]]:
    """Worked examples for the rulebook, played out by this engine so prose cannot drift.

    Cards are chosen from content by their numbers (the longest-range physical weapon, the
    shortest-range piercing one...), set on a small table and played through `apply`; the
    rulebook quotes the names and numbers from here. Content without the cards an example
    needs leaves that example out, and the validator reports the prose that quotes it.
    """
    examples: dict[str, dict[str, Any]] = {}
    for name, compute in (
        ("duel", _duel_example),
        ("modifiers", _modifiers_example),
        ("area", _area_example),
        ("flee", _flee_example),
        ("story", _story_example),
    ):
        try:
            examples[name] = compute(model)
        except (StopIteration, ValueError):
            continue
    return examples


def _plain_cards(model: Mineventure) -> tuple[list[Equipment], list[Equipment]]:
    """Non-legendary main weapons that deal damage, and non-legendary armours."""
    plain = [c for c in model.equipment if not c.legendary]
    mains = [c for c in plain if c.slot is Slot.MAIN_WEAPON and c.damage > 0]
    return mains, [c for c in plain if c.slot is Slot.ARMOUR]


def _bow(model: Mineventure) -> Equipment:
    """The physical main weapon with the longest range."""
    mains, _ = _plain_cards(model)
    physical = [c for c in mains if c.types == (DamageType.PHYSICAL,)]
    if not physical:
        raise ValueError("no physical main weapon")
    return _pick(physical, lambda c: c.range)


def _armours(model: Mineventure) -> tuple[Equipment, Equipment]:
    """The lightest and the heaviest armour without traits."""
    _, armours = _plain_cards(model)
    plain = [c for c in armours if not c.traits]
    if not plain:
        raise ValueError("no armour without traits")
    return _pick(plain, lambda c: -c.defence), _pick(plain, lambda c: c.defence)


def _duel_example(model: Mineventure) -> dict[str, Any]:
    """A duel: an ambush from range, then a round where both strike (physical vs piercing)."""
    s = model.settings
    mains, _ = _plain_cards(model)
    bow = _bow(model)
    light, heavy = _armours(model)
    short = [c for c in mains if DamageType.PIERCING in c.types and c.range < bow.range - 1]
    if not short:
        raise ValueError("no piercing weapon shorter than the bow")
    axe = _pick(short, lambda c: (-c.range, c.damage))
    distance = axe.range + 2
    t = _Table(model)
    t.place(0, 1, distance)
    t.equip(0, bow)
    t.equip(0, heavy)
    t.equip(1, axe)
    t.equip(1, light)
    reach = t.rules.reach(t.state, 1, 0)
    t.act("fight:1")
    assert t.state.combat is not None
    ambush = t.state.combat.ambush
    t.act("strike:main")
    first = s.max_hp - t.hp(1)
    t.act("strike:main")
    t.act("strike:main")
    return {
        "attacker_weapon": bow.name,
        "attacker_range": bow.range,
        "attacker_damage": bow.damage,
        "attacker_armour": heavy.name,
        "attacker_defence": heavy.defence,
        "defender_weapon": axe.name,
        "defender_range": reach,
        "defender_damage": axe.damage,
        "defender_armour": light.name,
        "defender_defence": light.defence,
        "distance": distance,
        "ambush": ambush,
        "first_taken": first,
        "second_taken": s.max_hp - first - t.hp(1),
        "attacker_taken": s.max_hp - t.hp(0),
        "attacker_hp": t.hp(0),
        "defender_hp": t.hp(1),
        "durability": bow.durability,
        "durability_after": t.state.players[0].main_dur,
    }


def _modifiers_example(model: Mineventure) -> dict[str, Any]:
    """Buffs and armour on one physical hit: strength, then armour, then resistance halving."""
    s = model.settings
    _, armours = _plain_cards(model)
    bow = _bow(model)
    light, _ = _armours(model)
    strength = next(b for b in model.buffs if b.effect.kind is EffectKind.STRENGTH)
    resistance = next(b for b in model.buffs if b.effect.kind is EffectKind.HALVE_TAKEN)
    raw = bow.damage + strength.effect.amount
    # An odd number left after the armour shows the rounding mark at work.
    odd = [c for c in armours if not c.traits and (raw - c.defence) % 2 and raw > c.defence]
    guard = odd[0] if odd else light
    t = _Table(model)
    t.place(0, 1, s.unarmed_range + 1)  # out of the bare-handed defender's reach: an ambush
    t.equip(0, bow)
    t.equip(1, guard)
    t.buff(0, strength.id)
    t.buff(1, resistance.id)
    t.act("fight:1")
    t.act("strike:main")
    return {
        "weapon": bow.name,
        "damage": bow.damage,
        "strength": strength.name,
        "bonus": strength.effect.amount,
        "raw": raw,
        "armour": guard.name,
        "defence": guard.defence,
        "after_armour": max(0, raw - guard.defence),
        "resistance": resistance.name,
        "mark": resistance.effect.rounding.mark if resistance.effect.rounding else "",
        "taken": s.max_hp - t.hp(1),
    }


def _area_example(model: Mineventure) -> dict[str, Any]:
    """Area damage from an event, with and without a blast-proof armour."""
    s = model.settings
    _, armours = _plain_cards(model)
    light, _ = _armours(model)
    blast = next(
        e
        for e in model.events
        if e.effect.kind is EffectKind.DAMAGE
        and e.effect.target is Target.SELF
        and DamageType.AREA in e.effect.types
    )
    proof = next(c for c in armours if Trait.BLAST_PROOF in c.traits)
    taken = []
    for armour in (light, proof):
        t = _Table(model)
        t.equip(0, armour)
        t.state.queue = ((0, t.rules.deck_index["event"], "land"),)
        t.state.phase, t.state.resume = "deal", "decision"
        t.act(f"draw:{blast.id}")
        taken.append(s.max_hp - t.hp(0))
    return {
        "event": blast.name,
        "amount": blast.effect.amount,
        "types": "+".join(kind.label for kind in blast.effect.types),
        "plain_armour": light.name,
        "plain_defence": light.defence,
        "plain_taken": taken[0],
        "proof_armour": proof.name,
        "proof_taken": taken[1],
    }


def _flee_example(model: Mineventure) -> dict[str, Any]:
    """Fleeing from a reach weapon: the highest roll that fails and the lowest that gets away."""
    s = model.settings
    mains, _ = _plain_cards(model)
    chaser = _pick([c for c in mains if c.range > s.unarmed_range], lambda c: -c.range)
    rolls: dict[int, tuple[bool, int]] = {}
    for roll in range(1, s.die_sides + 1):
        t = _Table(model)
        t.place(0, 1, s.unarmed_range)
        t.equip(0, chaser)
        t.act("fight:1")
        t.act("strike:main")
        t.act("flee")
        t.act(f"die:{roll}")
        rolls[roll] = (t.state.combat is None, s.max_hp - t.hp(1))
    fail = max(roll for roll, (away, _) in rolls.items() if not away)
    success = min(roll for roll, (away, _) in rolls.items() if away)
    return {
        "weapon": chaser.name,
        "range": chaser.range,
        "fail_roll": fail,
        "fail_score": max(s.flee_floor, fail - s.flee_penalty),
        "fail_taken": rolls[fail][1],
        "roll": success,
        "score": max(s.flee_floor, success - s.flee_penalty),
    }


def _story_example(model: Mineventure) -> dict[str, Any]:
    """Story damage at the end of a round: one player dead, one who killed, one who did not."""
    s = model.settings
    t = _Table(model)
    story = model.story_events[0]
    code = t.rules.by_token[story.id]
    t.rules._take(t.state, t.rules.card_deck[code], code)
    t.state.story = code
    last = t.rules.players - 1
    t.state.players[1].alive = False
    t.state.players[1].hp = 0
    t.state.players[0].killed = True
    t.state.seat, t.state.phase = last, "end"
    t.state.round = 0  # the day's first round: no daily heal mixes in
    before = t.hp(last)
    t.act("end")
    return {
        "event": story.name,
        "dead": sum(1 for p in t.state.players if not p.alive),
        "base": s.story_base,
        "taken": before - t.hp(last),
        "killer_taken": s.max_hp - t.hp(0),
    }


def rulebook_positions(model: Mineventure) -> dict[str, Pictured]:
    """Positions the rulebook draws, each the first such step of a seeded game the sensible
    policy plays on the 24×24 map: the map at setup (players on their spawn points); a player
    moving; a fight beginning between two players (or a player and the dragon) and the hit
    that ends a round of it."""
    rules = MineventureRules(model, 3, Mode.MAP_24)
    policy = SensiblePolicy()
    start = rules.initial_state(random.Random(0))

    def placed(state: Any) -> bool:
        return all(p.x >= 0 for p in state.players if p.alive)

    def moved(before: Any, action: Any, after: Any) -> bool:
        return placed(before) and any(
            b.x >= 0 and (b.x, b.y) != (a.x, a.y)
            for b, a in zip(before.players, after.players, strict=True)
        )

    def hurt(before: Any, action: Any, after: Any) -> bool:
        return before.combat is not None and any(
            a.hp < b.hp for b, a in zip(before.players, after.players, strict=True)
        )

    found: dict[str, Pictured] = {}
    try:
        _, _, _, ready = played_until(rules, policy, lambda b, a, c: placed(c), limit=400)
        found["setup"] = Pictured(rules, (ready,))
    except ValueError:
        found["setup"] = Pictured(rules, (start,))
    movement = first_pictured(rules, policy, moved, ("移动之前", "移动之后"), seeds=20, limit=2_000)
    if movement is not None:
        found["movement"] = movement
    board = view(rules).scene(start, None).areas[0].title
    hit = first_played(rules, policy, hurt, seeds=20, limit=2_000)
    if hit is not None:
        played, before, action, after = hit
        seat = next(
            k
            for k, (b, a) in enumerate(zip(before.players, after.players, strict=True))
            if a.hp < b.hp
        )
        was, now = before.players[seat].hp, after.players[seat].hp
        found["combat"] = Pictured(
            rules,
            (before, after),
            played=played,
            between=(action,),
            areas=(board, player_name(seat)),
            captions=(f"出招之前：生命 {was}", f"受到 {was - now} 点伤害：生命 {now}"),
        )
    return found
