"""Hand-written MineVenture players."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from pnp.engines.base import Rules
from pnp.engines.memo import ByIdentity
from pnp.games.mineventure.model import (
    BuffClass,
    DamageType,
    EffectKind,
    Equipment,
    Food,
    Partner,
    Slot,
    Target,
)
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.state import DRAGON, Act, MineventureState

_MEMO_SIZE = 1 << 16
"""Entries a memo of the best moves holds before it is emptied."""


class _Memo:
    """What the policies work out from a table alone (its map, dragon and cards), kept for
    every game of the table: a policy object lives for one game (one per seat)."""

    __slots__ = ("cell_scores", "safest", "safety", "sensible_moves")

    def __init__(self) -> None:
        self.safety: dict[tuple[int, int], float] = {}
        self.cell_scores: dict[tuple[tuple[int, int], tuple[bool, ...]], float] = {}
        """(cell, what the mover wants) -> what the sensible player finds it worth."""
        """Cell -> how safe the passive player finds it."""
        self.safest: dict[tuple[int, int, int], tuple[Act, ...]] = {}
        """(x, y, roll) -> the plain moves the passive player rates best."""
        self.sensible_moves: dict[
            tuple[int, int, int, tuple[bool, ...]], tuple[tuple[float, ...], tuple[Act, ...]]
        ] = {}
        """(x, y, roll, what the mover wants) -> the sensible player's score of each plain move
        and the moves it rates best."""


_MEMOS: ByIdentity[MineventureRules, _Memo] = ByIdentity(limit=8)


_LAST: list[tuple[MineventureRules, _Memo]] = []
"""The table asked about last, with its memo (asked again on the next step)."""


def _memo(rules: MineventureRules) -> _Memo:
    if _LAST and _LAST[0][0] is rules:
        return _LAST[0][1]
    memo = _MEMOS.get(rules, _Memo)
    _LAST[:] = [(rules, memo)]
    return memo


def pick(actions: Sequence[Act], rng: random.Random) -> Act:
    """One of equally good actions, drawn from the injected generator (no list-order bias)."""
    return actions[int(rng.random() * len(actions))]


def best(actions: Sequence[Act], key: Callable[[Act], Any], rng: random.Random) -> Act:
    """The action with the highest ``key``; ties broken at random from ``rng``."""
    scored = [(key(action), action) for action in actions]
    top = max(score for score, _ in scored)
    return pick([action for score, action in scored if score == top], rng)


def hurts_dragon(rules: MineventureRules, state: MineventureState, seat: int) -> bool:
    """Whether a round of ``seat``'s attacks can take HP off the dragon: a strike with either
    weapon or the bare fist, its partner's bite, or a damage card in hand. A fist (1) never
    gets through the scales (defence 2), so an unarmed player fighting the dragon only
    bleeds; a strength potion is left out, as a buff the fight may outlast."""
    me = state.players[seat]
    hits: list[tuple[int, tuple[DamageType, ...]]] = [
        (rules.settings.unarmed_damage, (DamageType.PHYSICAL,))
    ]
    for code, enchants in ((me.main, me.main_ench), (me.sub, me.sub_ench)):
        if code >= 0:
            card = rules.gear(code)
            if card.damage > 0 and not card.blocks:
                hits.append((rules.weapon_damage(code, enchants), card.types))
    if me.partner >= 0:
        bite = rules.card_effect(me.partner)
        if bite.kind is EffectKind.COMPANION_ATTACK:
            hits.append((bite.amount, bite.types))
    for code in me.hand:
        effect = rules.effect_of(code)
        if effect is not None and effect.kind is EffectKind.DAMAGE:
            hits.append((effect.amount, effect.types))
    return any(
        rules.damage_taken(state, DRAGON, amount, types, False) > 0 for amount, types in hits
    )


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
            return pick(actions, rng)
        if phase == "action":
            return Act("roll")
        if phase == "keep":
            return Act("keep") if self._better(rules, state, seat, state.drawn) else Act("return")
        if phase == "move":
            plain = rules.plain_moves(me.x, me.y, state.roll)
            if not plain:
                return self._best_move(rules, state, seat, actions, rng)  # pragma: no cover
            # A plain move's score depends on its cell and the mover's wants alone.
            key = (me.x, me.y, state.roll, self._wants(state, seat))
            memo = _memo(rules).sensible_moves
            found = memo.get(key)
            if found is None:
                found = self._plain_scores(rules, state, seat, plain)
                if len(memo) >= _MEMO_SIZE:
                    memo.clear()
                memo[key] = found
            scores, top = found
            if len(actions) == len(plain):
                return pick(top, rng)  # nobody on the way: the plain moves alone
            # Battles on the way follow their walk: each is scored on its own.
            plain_scores = iter(scores)
            scored = [
                (self._move_score(rules, state, seat, a) if a.b else next(plain_scores), a)
                for a in actions
            ]
            high = max(score for score, _ in scored)
            return pick([action for score, action in scored if score == high], rng)
        if phase == "loot":
            # Take the victim's card only when it beats one's own (declining is allowed).
            victim = state.players[state.loot[1]]
            codes = {"main": victim.main, "sub": victim.sub, "armour": victim.armour}
            better = [
                action
                for action in actions
                if action.a in codes and self._better(rules, state, seat, codes[action.a])
            ]
            return pick(better, rng) if better else Act("loot", "none")
        if phase == "end":
            if actions[0].kind == "discard":
                return best(actions, lambda a: -self._card_value(rules, rules.by_token[a.a]), rng)
            return actions[0]
        if phase == "combat":
            return self._combat(rules, state, seat, actions, rng)
        # decision phase
        plays = [a for a in actions if a.kind == "play" and self._worth(rules, state, seat, a)]
        if plays:
            return pick(plays, rng)
        fights = [
            a
            for a in actions
            if a.kind == "fight"
            and (
                (me.hp >= 10 or state.story >= 0) and hurts_dragon(rules, state, seat)
                if a.a == "dragon"
                else me.hp >= state.players[int(a.a)].hp and me.main >= 0
            )
        ]
        if fights:
            return pick(fights, rng)
        return Act("end")

    @staticmethod
    def _wants(state: MineventureState, seat: int) -> tuple[bool, ...]:
        """What `_move_score` reads of the mover for a cell, as flags."""
        me = state.players[seat]
        return (
            me.main < 0 or me.armour < 0,
            me.hp < 14,
            me.partner < 0,
            state.story >= 0 or (me.main >= 0 and me.hp >= 16),
        )

    def _best_move(
        self,
        rules: MineventureRules,
        state: MineventureState,
        seat: int,
        actions: list[Act],
        rng: random.Random,
    ) -> Act:
        me = state.players[seat]
        # Many walks end on the same cell: score each cell once.
        scores: dict[object, float] = {}

        def score(action: Act) -> float:
            key = action.b or rules.landing(me.x, me.y, action.a)
            if key not in scores:
                scores[key] = self._move_score(rules, state, seat, action)
            return scores[key]

        return best(actions, score, rng)

    def _plain_scores(
        self, rules: MineventureRules, state: MineventureState, seat: int, plain: Sequence[Act]
    ) -> tuple[tuple[float, ...], tuple[Act, ...]]:
        """Each plain move's score, and those `best` chooses among (the highest)."""
        me = state.players[seat]
        wanted = self._wants(state, seat)
        memo = _memo(rules).cell_scores
        scores = []
        for cell in rules.plain_ends(me.x, me.y, state.roll):
            key = (cell, wanted)
            score = memo.get(key)
            if score is None:
                score = memo[key] = self._cell_score(rules, wanted, cell)
            scores.append(score)
        high = max(scores)
        top = tuple(action for score, action in zip(scores, plain, strict=True) if score == high)
        return tuple(scores), top

    def _worth(
        self, rules: MineventureRules, state: MineventureState, seat: int, action: Act
    ) -> bool:
        """Whether playing this hand card now does some good."""
        me = state.players[seat]
        hurt = rules.settings.max_hp - me.hp
        card = rules.hand_card(rules.by_token[action.a])
        if isinstance(card, Food):
            return hurt >= card.heal
        effect = card.effect
        if effect.kind is EffectKind.HEAL and hurt < effect.amount:
            return False
        if effect.kind is EffectKind.CLEANSE and not any(
            e is not None and rules.buffs[e[0]].cls is BuffClass.NEGATIVE for e in me.buffs
        ):
            return False
        return not (
            effect.kind is EffectKind.BUFF
            and effect.target is Target.SELF
            and any(e is not None and e[0] == rules.buff_index[effect.buff] for e in me.buffs)
        )

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
                wanted = state.story >= 0 and me.hp >= 8 and hurts_dragon(rules, state, seat)
                return 5 if wanted else -10
            return 4 if me.main >= 0 and me.hp > state.players[target].hp + 4 else -10
        cell = rules.landing(me.x, me.y, action.a)  # where the move ends
        return self._cell_score(rules, self._wants(state, seat), cell)

    @staticmethod
    def _cell_score(
        rules: MineventureRules, wanted: tuple[bool, ...], cell: tuple[int, int]
    ) -> float:
        """What ending a move on `cell` is worth to a mover who wants `wanted` (`_wants`)."""
        gear, hurt, alone, heading = wanted
        terrain = rules.terrain[cell]
        score = 0.0
        if terrain.landing_damage:
            score -= 3 * terrain.landing_damage
        wants = {
            "equipment": 3 if gear else 1,
            "food": 3 if hurt else 0.5,
            "item": 2,
            "partner": 2 if alone else 0,
            "event": 1.5,
        }
        score += wants.get(terrain.draws, 0)
        if heading:
            # Head for the dragon: bleeding everywhere else, or well armed and healthy.
            dx, dy = rules.dragon_at
            score -= 0.3 * (abs(cell[0] - dx) + abs(cell[1] - dy))
        return score

    def _combat(
        self,
        rules: MineventureRules,
        state: MineventureState,
        seat: int,
        actions: list[Act],
        rng: random.Random,
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
            return pick(damage, rng)

        def power(action: Act) -> int:
            if action.a == "main" and me.main >= 0:
                return rules.gear(me.main).damage
            if action.a == "sub" and me.sub >= 0:
                return rules.gear(me.sub).damage
            return 0

        if strikes:
            return best(strikes, power, rng)
        return pick(actions, rng)

    def __repr__(self) -> str:
        return "SensiblePolicy()"


class PassivePolicy:
    """A player who never deals damage and takes no risk: keeps better gear, eats and drinks
    what helps only itself, never declares a battle or throws anything at anyone, walks away
    from the dragon and off lava, and in a fight it did not pick only flees or raises a shield.
    Liveness plays it so a table of the meek still ends (the story event bleeds them)."""

    def __init__(self) -> None:
        self._sensible = SensiblePolicy()

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, MineventureRules)
        assert isinstance(state, MineventureState)
        actions = rules.legal_actions(state)
        seat = rules.current_player(state)
        assert seat is not None
        phase = state.phase
        if phase in ("spawn", "keep", "loot", "end"):
            return self._sensible.choose(rules, state, rng)
        if phase == "action":
            return Act("roll")
        if phase == "move":
            me = state.players[seat]
            # The moves without a battle are the plain moves: the safest depend on the map.
            key = (me.x, me.y, state.roll)
            safest = _memo(rules).safest
            top = safest.get(key)
            if top is None:
                plain = rules.plain_moves(*key)
                safe = [a for a in actions if not a.b]
                if not plain or safe != list(plain):  # pragma: no cover - not a dealt position
                    return best(safe or actions, lambda a: self._safety(rules, state, seat, a), rng)
                scores = [self._cell_safety(rules, cell) for cell in rules.plain_ends(*key)]
                high = max(scores)
                top = tuple(a for score, a in zip(scores, plain, strict=True) if score == high)
                safest[key] = top
            return pick(top, rng)
        if phase == "combat":
            calm = [a for a in actions if self._calm(rules, state, seat, a)]
            return pick(calm or actions, rng)
        plays = [
            a
            for a in actions
            if a.kind == "play"
            and not self._harms(rules, a)
            and self._sensible._worth(rules, state, seat, a)
            and not a.b
        ]
        return pick(plays, rng) if plays else Act("end")

    def _harms(self, rules: MineventureRules, action: Act) -> bool:
        effect = rules.effect_of(rules.by_token[action.a])
        return effect is not None and (
            effect.kind is EffectKind.DAMAGE or effect.target is Target.OTHER
        )

    def _calm(
        self, rules: MineventureRules, state: MineventureState, seat: int, action: Act
    ) -> bool:
        """A combat action that hurts nobody: fleeing, raising a shield, a harmless card."""
        if action.kind == "flee":
            return True
        if action.kind == "use":
            return not self._harms(rules, action)
        me = state.players[seat]
        code = {"main": me.main, "sub": me.sub}.get(action.a, -1)
        return action.a == "none" or (code >= 0 and rules.gear(code).blocks)

    def _safety(
        self, rules: MineventureRules, state: MineventureState, seat: int, action: Act
    ) -> float:
        """Far from the dragon and off lava; then what the tile gives."""
        me = state.players[seat]
        return self._cell_safety(rules, rules.landing(me.x, me.y, action.a))

    @staticmethod
    def _cell_safety(rules: MineventureRules, cell: tuple[int, int]) -> float:
        """How safe ending a move on `cell` is (it depends on the map alone)."""
        cells = _memo(rules).safety
        score = cells.get(cell)
        if score is None:
            terrain = rules.terrain[cell]
            dx, dy = rules.dragon_at
            distance = abs(cell[0] - dx) + abs(cell[1] - dy)
            score = min(distance, rules.model.dragon.range + 1) * 2.0
            score -= 5 * terrain.landing_damage
            score += 1.0 if terrain.draws else 0.0
            cells[cell] = score
        return score

    def __repr__(self) -> str:
        return "PassivePolicy()"
