"""What the shared play checks (pnp.validate.play) need from MineVenture: every table the
content supports, the factors a balance report breaks win rates down by, the coverage items of
the content (each located where content defines it), and the strong player's settings and
evaluation hint.

Coverage is read off each step exactly: the action says what was played, kept, looted or
drawn, and the difference between the positions before and after says which buffs arrived,
which cell a player landed on, whether a fight began in ambush, a kill was made, a weapon
broke, a flight succeeded or the dragon fell.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pnp.engines.base import Table
from pnp.errors import Location
from pnp.games.mineventure.model import Effect, EffectKind, Equipment, Food, Mineventure
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.state import DRAGON, TURN_CAP, Act, MineventureState, Mode
from pnp.registry import SearchSettings

STEPS_PER_ROUND = 200
"""Actions one seat's share of a round may take before a game counts as capped (a round of a
6-player table takes about 60)."""

RULE_DECISIONS = {
    "rule:ambush": "ambush-round",
    "rule:battle-on-path": "battle-on-path",
    "rule:flee-success": "flee",
    "rule:kill-reward": "kill-reward",
    "rule:broken-weapon": "broken-weapon",
    "rule:story-damage": "story-damage",
    "rule:dragon-fight": "dragon",
    "rule:unarmed": "unarmed",
}
"""Rules of this edition that only play reaches, each located at the decision that states it."""

ACTION_DECISIONS = {
    "skip": "turn-order",
    "roll": "movement",
    "move": "movement",
    "keep": "drawn-field-cards",
    "return": "drawn-field-cards",
    "play": "hand-card-timing",
    "fight": "ambush-round",
    "strike": "attack-range",
    "use": "hand-card-timing",
    "flee": "flee",
    "discard": "end-phase",
    "loot": "loot-choice",
}
"""Every kind of player action, located at the decision that says how it works."""


def play_tables(model: Mineventure) -> list[Table]:
    """One table per map and player count the content supports (3-4 players on the 24x24
    map, 4-6 on the 32x32), without the optional last day; capped after ``TURN_CAP`` rounds
    (see there: games end long before)."""
    modes = {mode.value: mode for mode in Mode}
    return [
        Table(
            f"{players}p-{assembly.id}",
            MineventureRules(model, players, modes[assembly.id]),
            TURN_CAP * STEPS_PER_ROUND * players,
            TURN_CAP,
        )
        for assembly in model.assemblies
        if assembly.id in modes
        for players in assembly.players
    ]


def seat_factors(rules: Any, state: Any) -> Mapping[str, Sequence[str]]:
    """Each seat's character (dealt at random in the first position)."""
    assert isinstance(rules, MineventureRules) and isinstance(state, MineventureState)
    characters = rules.model.characters
    return {"character": [characters[p.character].id for p in state.players]}


# -- coverage ---------------------------------------------------------------------------------


def coverage_items(model: Mineventure) -> dict[str, Location]:
    """Everything of the content play should exercise, with where content defines it: every
    card (equipment equipped, partners kept, events resolved, hand cards played, the totem
    saving a life), every effect kind, buff, character and terrain (a player landed there),
    every kind of action, and the rules of this edition's decisions that only play reaches."""
    items: dict[str, Location] = {}
    for equipment in model.equipment:
        items[f"card:{equipment.id}"] = equipment.where
    for partner in model.partners:
        items[f"card:{partner.id}"] = partner.where
        items.setdefault(f"effect:{partner.effect.kind.value}", partner.effect.where)
    for event in model.events:
        items[f"card:{event.id}"] = event.where
        items.setdefault(f"effect:{event.effect.kind.value}", event.effect.where)
    for item in model.items:
        items[f"card:{item.id}"] = item.where
        items.setdefault(f"effect:{item.effect.kind.value}", item.effect.where)
    for food in model.food:
        items[f"card:{food.id}"] = food.where
    for buff in model.buffs:
        items[f"buff:{buff.id}"] = buff.where
        items.setdefault(f"effect:{buff.effect.kind.value}", buff.effect.where)
    for character in model.characters:
        items[f"character:{character.id}"] = character.where
        items.setdefault(f"effect:{character.ability.kind.value}", character.ability.where)
    used = {
        terrain.id
        for assembly in model.assemblies
        for _, _, terrain in model.assembly_cells(assembly)
    }
    for terrain in model.terrains:
        if terrain.id in used:
            items[f"terrain:{terrain.id}"] = terrain.where
    decisions = {decision.id: decision.where for decision in model.decisions}
    for kind, decision in ACTION_DECISIONS.items():
        if decision in decisions:
            items[f"action:{kind}"] = decisions[decision]
    for rule, decision in RULE_DECISIONS.items():
        if decision in decisions:
            items[rule] = decisions[decision]
    return items


def covered(rules: Any, before: Any, action: Any, after: Any) -> Iterable[str]:
    """The coverage items one step exercised, from the action and the two positions."""
    assert isinstance(rules, MineventureRules)
    assert isinstance(before, MineventureState) and isinstance(after, MineventureState)
    assert isinstance(action, Act)
    out: list[str] = []
    kind = action.kind
    if kind not in ("die", "draw", "spawn", "end"):
        out.append(f"action:{kind}")
    if kind == "spawn":
        seat = before.spawn_order[0]
        p = after.players[seat]
        character = rules.model.characters[p.character]
        out += [f"character:{character.id}", f"effect:{character.ability.kind.value}"]
        out.append(f"terrain:{rules.terrain[(p.x, p.y)].id}")
    elif kind == "draw":
        code = rules.by_token[action.a]
        seat, _, why = before.queue[0]
        card = rules.cards[code]
        if isinstance(card, Equipment) and why == "open":
            out.append(f"card:{card.id}")
        elif not isinstance(card, (Equipment, Food)) and rules.card_deck[code] == rules.event_deck:
            # An event resolves as it is drawn (a second story event only goes back).
            out += _card(rules, code)
    elif kind == "keep":
        out += _card(rules, before.drawn)
    elif kind in ("play", "use"):
        out += _card(rules, rules.by_token[action.a])
    elif kind == "loot" and action.a != "none":
        victim = before.players[before.loot[1]]
        code = {"main": victim.main, "sub": victim.sub, "armour": victim.armour}[action.a]
        out += _card(rules, code)
    elif kind == "move":
        if action.b:
            out.append("rule:battle-on-path")
        else:
            p = after.players[before.seat]
            if p.alive:
                out.append(f"terrain:{rules.terrain[(p.x, p.y)].id}")
    elif kind == "strike" and action.a == "fist":
        out.append("rule:unarmed")
    if (kind == "fight" and action.a == "dragon") or (kind == "move" and action.b == "dragon"):
        out.append("rule:dragon-fight")
    if after.combat is not None and before.combat is None and after.combat.ambush:
        out.append("rule:ambush")
    fleeing = kind == "die" and before.combat is not None and before.combat.fleeing > -2
    if fleeing and after.combat is None:
        out.append("rule:flee-success")
    if after.story >= 0 and before.story < 0:
        out += _card(rules, after.story)
    if before.story >= 0 and after.round > before.round:
        out.append("rule:story-damage")
    for old, new in zip(before.players, after.players, strict=True):
        if new is old:
            continue  # a seat the step did not change (the rules copy a seat to change it)
        if new.buffs != old.buffs:
            for entry in new.buffs:
                if entry is not None and entry not in old.buffs:
                    buff = rules.buffs[entry[0]]
                    out += [f"buff:{buff.id}", f"effect:{buff.effect.kind.value}"]
        if new.killed and not old.killed:
            out.append("rule:kill-reward")
        if kind == "strike":
            for slot in ("main", "sub"):
                was, now = getattr(old, slot), getattr(new, slot)
                if was >= 0 and now < 0 and getattr(old, f"{slot}_dur") == 1:
                    out.append("rule:broken-weapon")
        if new.alive and len(new.hand) < len(old.hand) and kind not in ("discard", "play", "use"):
            # A card left the hand by itself: the totem of undying saved its holder.
            revived = [
                code
                for code in set(old.hand) - set(new.hand)
                if (effect := rules.effect_of(code)) is not None
                and effect.kind is EffectKind.REVIVE
            ]
            if revived:
                out += _card(rules, revived[0])
    return out


def _card(rules: MineventureRules, code: int) -> list[str]:
    """A card exercised: its own item, its effect's and (food) its buff's."""
    card = rules.cards[code]
    out = [f"card:{card.id}"]
    if isinstance(card, Food):
        if card.buff:
            buff = rules.buffs[rules.buff_index[card.buff]]
            out.append(f"buff:{buff.id}")
        return out
    effect: Effect | None = rules.effect_of(code)
    if effect is not None:
        out.append(f"effect:{effect.kind.value}")
    return out


# -- the search player ------------------------------------------------------------------------

SEARCH = SearchSettings(
    iterations=8,
    rollout="sensible",
    depth=8,
    method="halving",
    candidates=8,
    margin=0.5,
    iterations_at=((5, 12),),
)
"""The strong player: the sensible policy improved by 8 shared playouts a decision (12 at five
players), each played on by the sensible policy for about two turns of every seat and then
scored by :func:`evaluate` (halving search, anchored on the sensible move, replaced by one half
a standard error better). Against the sensible policy (3p-map-24, 100 paired games, seed 1) it
wins 64 % against 30 % (p < 0.001) at about a tenth of the CPU of the tree search with 48
playouts it replaces; 16 playouts a decision win 83 % against 30 % at twice the cost of 8. At
five players 8 playouts were not shown stronger in 200 paired games (38 % against 30 %,
p = 0.045, above the sequential duel's 0.0125); 12 won 72 % against 28 % in 25 (p = 0.006), at
about three times the CPU of 8 (the halving search plays no playout at all for a choice among
five or more moves on 8: it needs two paired playouts to replace the anchor).

With the hint's two pots and a sensible player that no longer fights a dragon it cannot hurt
(2026-11-29), the sequential duel (``pnp simulate mineventure --duel --duel-games 200 --seed
1``) shows it stronger on every table: 3p-map-24 72 % against 28 % in 25 games, 4p-map-24 49 %
against 29 % in 100, 4p-map-32 64 % against 24 % in 25, 5p-map-32 64 % against 24 % in 25,
6p-map-32 31 % against 17 % in 100 (each p < 0.0125); the hint it replaced gave 72/28, 44/33
(200 games), 60/24, 72/28 and 34/10 on the same seeds."""


STANDING_HALF_LIFE_DAYS = 3.0
"""Days past `story_day` in which the last-standing pot halves. Survivors who sit in the End,
out of the breath and of each other's way, never leave a last one standing, so the longer a
story has bled the overworld the less of the win anything but the dragon decides."""


def evaluate(rules: Any, state: Any) -> list[float]:
    """Each seat's chance of winning, guessed from a position that is not over, as two pots
    and a remainder that nobody wins yet.

    The dragon's pot is the share of its HP already lost. It goes to the living seats that
    hit it, as the rules give it: shared among them, each counted in full with two breaths'
    worth of HP to spare after a breath it stands in, and for less with fewer. The
    last-standing pot is the rest, shared by a softmax of each seat's strength (HP, weapon,
    armour, partner, cards in hand); once a story is in play it shrinks by half every
    ``STANDING_HALF_LIFE_DAYS`` past `story_day`. What neither pot holds is nobody's: a game
    in which every seat hides from the dragon is won by nobody (the turn cap). A hint that
    shared out the whole win however the game stood made hiding as good as the hunt, and
    strong seats in the End then skipped their moves until the cap. The dead get nothing."""
    assert isinstance(rules, MineventureRules) and isinstance(state, MineventureState)
    dragon = rules.model.dragon
    fallen = 1 - max(0, state.dragon_hp) / dragon.hp
    standing = 1 - fallen
    if state.story >= 0:
        days = max(0, state.day - rules.settings.story_day)
        standing *= 0.5 ** (days / STANDING_HALF_LIFE_DAYS)
    spare = 2 * dragon.damage
    strengths: list[float | None] = []
    claims: list[float] = []
    for seat, p in enumerate(state.players):
        if not p.alive:
            strengths.append(None)
            claims.append(0.0)
            continue
        weapon = rules.gear(p.main).damage if p.main >= 0 else rules.settings.unarmed_damage
        armour = rules.gear(p.armour).defence if p.armour >= 0 else 0
        strength = p.hp + 1.5 * weapon + 1.5 * armour + 0.8 * len(p.hand)
        strength += 2.0 if p.partner >= 0 else 0.0
        breathed_on = state.dragon_hp > 0 and rules.distance(state, seat, DRAGON) <= dragon.range
        if breathed_on:
            strength -= 2.0
        strengths.append(strength)
        left = p.hp - (dragon.damage if breathed_on else 0)
        claims.append(min(1.0, max(0.0, left / spare)) if p.hit_dragon else 0.0)
    living = [strength for strength in strengths if strength is not None]
    if not living:
        return [0.0] * rules.players
    top = max(living)
    weights = [0.0 if value is None else math.exp((value - top) / 6.0) for value in strengths]
    total = sum(weights)
    claimed = max(1.0, sum(claims))
    return [
        fallen * claim / claimed + standing * weight / total
        for claim, weight in zip(claims, weights, strict=True)
    ]
