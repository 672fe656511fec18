"""Hand-written MineVenture players."""

from __future__ import annotations

import random
from typing import Any

from pnp.engines.base import Rules
from pnp.games.mineventure.model import (
    BuffClass,
    EffectKind,
    Equipment,
    Food,
    Partner,
    Slot,
    Target,
)
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.state import DRAGON, Act, MineventureState


class SensiblePolicy:
    """A plain player: keeps better gear, eats when hurt, fights when stronger, goes for the
    dragon once the story event bleeds everyone, flees when nearly dead."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, MineventureRules)
        assert isinstance(state, MineventureState)
        actions = rules.legal_actions(state)
        seat = rules.current_player(state)
        assert seat is not None
        me = state.players[seat]
        phase = state.phase
        if phase == "spawn":
            return actions[int(rng.random() * len(actions))]
        if phase == "action":
            return Act("roll")
        if phase == "keep":
            return Act("keep") if self._better(rules, state, seat, state.drawn) else Act("return")
        if phase == "move":
            return max(
                actions, key=lambda a: (self._move_score(rules, state, seat, a), rng.random())
            )
        if phase == "loot":
            # Take the victim's card only when it beats one's own (declining is allowed).
            victim = state.players[state.loot[1]]
            codes = {"main": victim.main, "sub": victim.sub, "armour": victim.armour}
            for action in actions:
                if action.a in codes and self._better(rules, state, seat, codes[action.a]):
                    return action
            return Act("loot", "none")
        if phase == "end":
            if actions[0].kind == "discard":
                return min(actions, key=lambda a: self._card_value(rules, rules.by_token[a.a]))
            return actions[0]
        if phase == "combat":
            return self._combat(rules, state, seat, actions)
        # decision phase
        hurt = rules.settings.max_hp - me.hp
        for action in actions:
            if action.kind != "play":
                continue
            card = rules.hand_card(rules.by_token[action.a])
            if isinstance(card, Food):
                if hurt >= card.heal:
                    return action
                continue
            effect = card.effect
            if effect.kind is EffectKind.HEAL and hurt < effect.amount:
                continue
            if effect.kind is EffectKind.CLEANSE and not any(
                e is not None and rules.buffs[e[0]].cls is BuffClass.NEGATIVE for e in me.buffs
            ):
                continue
            if (
                effect.kind is EffectKind.BUFF
                and effect.target is Target.SELF
                and any(e is not None and e[0] == rules.buff_index[effect.buff] for e in me.buffs)
            ):
                continue
            return action
        fights = [a for a in actions if a.kind == "fight"]
        for action in fights:
            if action.a == "dragon":
                if me.hp >= 10 or state.story >= 0:
                    return action
            elif me.hp >= state.players[int(action.a)].hp and me.main >= 0:
                return action
        return Act("end")

    def _better(
        self, rules: MineventureRules, state: MineventureState, seat: int, code: int
    ) -> bool:
        me = state.players[seat]
        card = rules.cards[code]
        if isinstance(card, Partner):
            return me.partner < 0
        assert isinstance(card, Equipment)
        current = {Slot.MAIN_WEAPON: me.main, Slot.SUB_WEAPON: me.sub, Slot.ARMOUR: me.armour}[
            card.slot
        ]
        if current < 0:
            return True
        old = rules.gear(current)
        return (card.damage + card.defence, card.durability) > (old.damage + old.defence, 0)

    def _card_value(self, rules: MineventureRules, code: int) -> int:
        card = rules.hand_card(code)
        return card.heal if isinstance(card, Food) else 3 + card.effect.amount

    def _move_score(
        self, rules: MineventureRules, state: MineventureState, seat: int, action: Act
    ) -> float:
        me = state.players[seat]
        if action.b:
            target = DRAGON if action.b == "dragon" else int(action.b)
            if target == DRAGON:
                return 5 if state.story >= 0 and me.hp >= 8 else -10
            return 4 if me.main >= 0 and me.hp > state.players[target].hp + 4 else -10
        # Where the move ends: the same cell rules._path computes.
        code = action.a
        first, rest = code[0], code[1:]
        if any(not ch.isdigit() for ch in rest):
            i = next(i for i, ch in enumerate(rest) if not ch.isdigit())
            path = rules._path(me.x, me.y, first, int(rest[:i]), rest[i], int(rest[i + 1 :]))
        else:
            path = rules._path(me.x, me.y, first, int(rest), first, 0)
        assert path
        cell = path[-1]
        terrain = rules.terrain[cell]
        score = 0.0
        if terrain.landing_damage:
            score -= 3 * terrain.landing_damage
        wants = {
            "equipment": 3 if me.main < 0 or me.armour < 0 else 1,
            "food": 3 if me.hp < 14 else 0.5,
            "item": 2,
            "partner": 2 if me.partner < 0 else 0,
            "event": 1.5,
        }
        score += wants.get(terrain.draws, 0)
        if state.story >= 0 or (me.main >= 0 and me.hp >= 16):
            # Head for the dragon: bleeding everywhere else, or well armed and healthy.
            dx, dy = rules.dragon_at
            score -= 0.3 * (abs(cell[0] - dx) + abs(cell[1] - dy))
        return score

    def _combat(
        self, rules: MineventureRules, state: MineventureState, seat: int, actions: list[Act]
    ) -> Act:
        me = state.players[seat]
        if me.hp <= 5 and Act("flee") in actions:
            return Act("flee")
        strikes = [a for a in actions if a.kind == "strike"]
        damage = [
            a
            for a in actions
            if a.kind == "use"
            and (effect := rules.effect_of(rules.by_token[a.a])) is not None
            and effect.kind is EffectKind.DAMAGE
        ]
        if damage:
            return damage[0]

        def power(action: Act) -> int:
            if action.a == "main" and me.main >= 0:
                return rules.gear(me.main).damage
            if action.a == "sub" and me.sub >= 0:
                return rules.gear(me.sub).damage
            return 0

        if strikes:
            return max(strikes, key=power)
        return actions[0]

    def __repr__(self) -> str:
        return "SensiblePolicy()"
