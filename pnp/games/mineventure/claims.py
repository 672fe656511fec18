"""What the MineVenture kit prints, tied to the engine (pnp.validate.claims), beyond the hand
cards' footers (``checks.claims``): what each food and item does when played, what each buff
token does at the end of a round and how long it lasts, the partners that change the daily
heal, each weapon's range, and the status boards' rules (the daily heal, the hand limit).

Each probe starts from the engine's own starting position, puts seat 0 where the claim needs
it (its hand, hit points, weapon, buff slots) and plays on through the engine: the card played
in the decision phase, or the round ended by every seat ending its turn. The printed numbers
are read from the cards' words (``templates/mineventure/base.yaml``, macro ``effect_text``).
"""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path
from typing import Any

from pnp.games.mineventure import checks
from pnp.games.mineventure.model import (
    BuffClass,
    DamageType,
    Effect,
    EffectKind,
    Equipment,
    Event,
    Food,
    Item,
    ItemKind,
    Mineventure,
    Partner,
    Slot,
    Target,
)
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.state import Act, MineventureState, Player, clone
from pnp.validate.claims import Claim, template_line

HP = 10
"""Seat 0's hit points in a probe: room to heal and to be hurt either way."""


def claims(model: Mineventure, templates_root: Path) -> list[Claim]:
    """The footers (``checks.claims``) and every effect, buff, partner, weapon and board rule."""
    found = checks.claims(model, templates_root)
    if not model.assemblies:
        return found
    try:
        bench = Bench(model)
    except (ValueError, KeyError, StopIteration):
        return found  # check_static reports the engine refusing the map
    for food in model.food:
        found.append(
            Claim(food.where, f"card {food.id!r}", bench.food_words(food), partial(bench.eat, food))
        )
    for item in model.items:
        probe = bench.item_probe(item)
        if probe is not None:
            found.append(
                Claim(item.where, f"card {item.id!r}", bench.effect_words(item.effect), probe)
            )
    for event in model.events:
        if event.effect.kind in (EffectKind.HEAL, EffectKind.DAMAGE, EffectKind.BUFF):
            found.append(
                Claim(
                    event.where,
                    f"event {event.id!r}",
                    bench.effect_words(event.effect),
                    partial(bench.event, event),
                )
            )
    for buff in model.buffs:
        where = buff.where
        words = f"「{buff.name}」" + (f"，持续 {buff.rounds} 轮" if buff.rounds else "")
        found.append(Claim(where, f"buff token {buff.id!r}", words, partial(bench.lasts, buff.id)))
        if buff.effect.kind in (EffectKind.REGENERATION, EffectKind.POISON):
            found.append(
                Claim(
                    where,
                    f"buff token {buff.id!r}",
                    bench.effect_words(buff.effect),
                    partial(bench.ticks, buff.id),
                )
            )
        if buff.effect.kind is EffectKind.STARVE:
            found.append(
                Claim(
                    where,
                    f"buff token {buff.id!r}",
                    "不能在每天结束时回复血量",
                    partial(bench.starves, buff.id),
                )
            )
    for partner in model.partners:
        if partner.effect.kind in (EffectKind.NURSE, EffectKind.PACK):
            found.append(
                Claim(
                    partner.where,
                    f"partner {partner.id!r}",
                    bench.effect_words(partner.effect),
                    partial(bench.partner, partner),
                )
            )
    for card in model.equipment:
        if card.slot is not Slot.ARMOUR and card.damage > 0:
            found.append(
                Claim(
                    card.where,
                    f"card {card.id!r}",
                    f"攻击范围 {card.range}",
                    partial(bench.reach, card),
                )
            )
    for card in model.equipment:
        if card.slot is Slot.ARMOUR and card.defence > 0:
            found.append(
                Claim(
                    card.where,
                    f"card {card.id!r}",
                    f"每次物理伤害 −{card.defence}",
                    partial(bench.armour, card),
                )
            )
        elif card.damage > 0 and DamageType.PHYSICAL in card.types and not card.legendary:
            found.append(
                Claim(
                    card.where,
                    f"card {card.id!r}",
                    f"伤害 {card.damage}",
                    partial(bench.hits, card),
                )
            )
    for item in model.items:
        if item.effect.kind is EffectKind.SHARPEN:
            found.append(
                Claim(
                    item.where,
                    f"card {item.id!r}",
                    f"这件武器的伤害 +{item.effect.amount}。",
                    partial(bench.sharpened, item),
                )
            )
    for buff in model.buffs:
        if buff.effect.kind is EffectKind.STRENGTH:
            found.append(
                Claim(
                    buff.where,
                    f"buff token {buff.id!r}",
                    buff.meaning,
                    partial(bench.strong, buff.id),
                )
            )
    for partner in model.partners:
        if partner.effect.kind is EffectKind.GUARD:
            found.append(
                Claim(
                    partner.where,
                    f"partner {partner.id!r}",
                    f"你受到的每次物理伤害 −{partner.effect.amount}。",
                    partial(bench.guarded, partner),
                )
            )
    s = model.settings
    found.append(
        Claim(
            template_line(templates_root, "mineventure/game-board.yaml", "回合结算完战斗结束"),
            "the game board's combat track",
            f"第 {s.combat_rounds} 回合结算完战斗结束",
            bench.combat_rounds,
        )
    )
    board = "mineventure/player-board.yaml"
    found.append(
        Claim(
            template_line(templates_root, board, "s.hand_limit"),
            "the player board",
            f"手牌上限 {s.hand_limit}",
            bench.hand_limit,
        )
    )
    found.append(
        Claim(
            template_line(templates_root, board, "s.daily_heal"),
            "the player board",
            f"每天结束回复 {s.daily_heal} 点血量",
            bench.daily_heal,
        )
    )
    found.append(
        Claim(
            template_line(templates_root, "mineventure/game-board.yaml", "s.daily_heal"),
            "the game board's day track",
            f"黑夜一轮结束时 +1，所有玩家回复 {s.daily_heal} 点血量",
            bench.daily_heal,
        )
    )
    return found


class Bench:
    """The smallest table of the first map and the positions the probes play on."""

    def __init__(self, model: Mineventure) -> None:
        self.model = model
        self.rules = MineventureRules(model, model.info.players.min, model.assemblies[0].id)
        self.start = self.rules.initial_state(random.Random(0))
        self.cells = [
            (cell, (cell[0] + 1, cell[1]))
            for cell, terrain in self.rules.terrain.items()
            if terrain.overworld
            and (cell[0] + 1, cell[1]) in self.rules.terrain
            and self.rules.terrain[(cell[0] + 1, cell[1])].overworld
        ]

    # -- positions ----------------------------------------------------------------------------

    def decision(self, hand: tuple[str, ...] = (), icon: str = "", **me: Any) -> MineventureState:
        """Seat 0 in the decision phase of a daytime round with ``hand``, :data:`HP` hit points
        and nothing equipped (``me`` sets more), on a cell (with ``icon``) with seat 1 next to
        it and nothing else of the position in play."""
        rules = self.rules
        cells = [c for c in self.cells if not icon or rules.terrain[c[0]].icon == icon]
        state = clone(self.start)
        state.spawn_order, state.phase, state.seat, state.round, state.night = (
            (),
            "decision",
            0,
            0,
            False,
        )
        (cell, east) = cells[0]
        far = [c for c, _ in reversed(self.cells) if abs(c[0] - cell[0]) + abs(c[1] - cell[1]) > 4]
        far = far or [cell]
        players = []
        for seat, p in enumerate(state.players):
            fresh = Player(
                x=p.x,
                y=p.y,
                hp=HP,
                character=p.character,
                buffs=tuple(None for _ in self.model.buff_slots),
            )
            if seat == 0:
                fresh.x, fresh.y = cell
                fresh.hand = tuple(sorted(rules.by_token[c] for c in hand))
                for name, value in me.items():
                    setattr(fresh, name, value)
            elif seat == 1:
                fresh.x, fresh.y = east
            else:
                # Further seats stand apart on the map, out of the way of the probe.
                fresh.x, fresh.y = far[seat % len(far)]
            players.append(fresh)
        state.players = tuple(players)
        return state

    def play(self, state: MineventureState, card: str, target: str = "") -> MineventureState:
        rules = self.rules
        code = rules.by_token[card]
        args = rules.playable(state, 0, code, in_combat=False)
        if not args:
            raise ValueError(f"the engine does not let seat 0 play {card} here")
        arg = target if target in args else args[0]
        return rules.apply(state, rules.play_act("play", code, arg))

    def end_round(self, state: MineventureState) -> MineventureState:
        """Every seat ends its turn: the round's end (buffs tick; a day ends after the night)."""
        rules = self.rules
        for _ in range(2 * rules.players + 2):
            if state.round != self.start.round and state.phase == "action" and state.seat == 0:
                break
            if rules.is_chance(state):
                raise ValueError("a chance step came up while the round was ending")
            actions = rules.legal_actions(state)
            end = next((a for a in actions if a.kind in ("end", "skip")), None)
            state = rules.apply(state, end or actions[0])
        return state

    def with_buff(
        self, buff: str, rounds: int | None = None
    ) -> tuple[tuple[int, int, int] | None, ...]:
        """Seat 0's buff slots holding ``buff`` in the first slot that takes its class."""
        index = self.rules.buff_index[buff]
        cls = self.model.buffs[index].cls
        slots: list[tuple[int, int, int] | None] = [None for _ in self.model.buff_slots]
        first = next(k for k, slot in enumerate(self.model.buff_slots) if cls in slot.accepts)
        slots[first] = (index, self.model.buffs[index].rounds if rounds is None else rounds, 0)
        return tuple(slots)

    def holds(self, state: MineventureState, seat: int, buff: str) -> bool:
        index = self.rules.buff_index[buff]
        return any(b is not None and b[0] == index for b in state.players[seat].buffs)

    # -- the words ----------------------------------------------------------------------------

    def food_words(self, food: Food) -> str:
        words = f"回复 {food.heal} 点血量。"
        if food.buff:
            buff = next(b for b in self.model.buffs if b.id == food.buff)
            words += f"获得「{buff.name}」"
        return words

    def effect_words(self, effect: Effect) -> str:
        kind, n = effect.kind, effect.amount
        return {
            EffectKind.HEAL: f"回复 {n} 点血量。",
            EffectKind.REPAIR: f"你的一件武器恢复 {n} 点耐久（最多到卡上的耐久格）。",
            EffectKind.CLEANSE: "清除你身上所有负面效果。",
            EffectKind.EXTEND_RANGE: f"这件武器的攻击范围 +{n}。",
            EffectKind.REINFORCE: f"压到武器下时，武器恢复 {n} 点耐久（最多到卡上的耐久格）。",
            EffectKind.REVIVE: f"留在手中即生效：你将要死亡时弃掉此牌，血量变为 {n}。",
            EffectKind.REGENERATION: f"每轮结束时回复 {n} 点血量",
            EffectKind.POISON: f"每轮结束时受到 {n} 点真实伤害",
            EffectKind.NURSE: f"每天结束时你额外回复 {n} 点血量。",
            EffectKind.DAMAGE: f"{self.who(effect)}受到 {n} 点{self.types(effect)}伤害。",
            EffectKind.PACK: f"你的手牌上限 +{n}。",
        }.get(kind, f"获得「{effect.buff}」" if kind is EffectKind.BUFF else kind.value)

    @staticmethod
    def who(effect: Effect) -> str:
        return {Target.SELF: "你", Target.OTHER: "一名其他玩家", Target.ALL: "主世界的所有玩家"}[
            effect.target
        ]

    @staticmethod
    def types(effect: Effect) -> str:
        names = {"physical": "物理", "piercing": "穿透", "true": "真实", "area": "范围"}
        return "+".join(names[t.value] for t in effect.types)

    # -- cards --------------------------------------------------------------------------------

    def eat(self, food: Food) -> str | None:
        state = self.decision((food.id,))
        after = self.play(state, food.id)
        healed = after.players[0].hp - HP
        wanted = min(food.heal, self.model.settings.max_hp - HP)
        if healed != wanted:
            return f"eating it heals {healed} HP, not {wanted}"
        if food.buff and not self.holds(after, 0, food.buff):
            return f"eating it leaves no {food.buff!r} in a buff slot"
        return None

    def item_probe(self, item: Item) -> partial[str | None] | None:
        kind = item.effect.kind
        if kind is EffectKind.HEAL:
            return partial(self.heal_item, item)
        if kind is EffectKind.BUFF:
            return partial(self.buff_item, item)
        if kind is EffectKind.REPAIR:
            return partial(self.repair, item)
        if kind is EffectKind.CLEANSE:
            return partial(self.cleanse, item)
        if (
            kind in (EffectKind.EXTEND_RANGE, EffectKind.REINFORCE)
            and item.kind is ItemKind.ENCHANT
        ):
            return partial(self.enchant, item)
        if kind is EffectKind.REVIVE:
            return partial(self.revive, item)
        return None

    def heal_item(self, item: Item) -> str | None:
        hp = max(1, self.model.settings.max_hp - item.effect.amount - 1)
        after = self.play(self.decision((item.id,), item.icon, hp=hp), item.id)
        if after.players[0].hp - hp != item.effect.amount:
            return f"playing it heals {after.players[0].hp - hp} HP, not {item.effect.amount}"
        return None

    def buff_item(self, item: Item) -> str | None:
        seat = 1 if item.effect.target is Target.OTHER else 0
        after = self.play(self.decision((item.id,), item.icon), item.id, str(seat))
        if not self.holds(after, seat, item.effect.buff):
            who = "the other player" if seat else "its player"
            return f"playing it leaves no {item.effect.buff!r} in a buff slot of {who}"
        return None

    def weapon(self, kind: str = "") -> Equipment:
        return next(
            e
            for e in self.model.equipment
            if e.slot is Slot.MAIN_WEAPON
            and e.damage > 0
            and not e.legendary
            and (not kind or e.weapon_kind == kind)
        )

    def repair(self, item: Item) -> str | None:
        sword = self.weapon()
        code = self.rules.by_token[sword.id]
        n = item.effect.amount
        for worn, wanted in (
            (sword.durability - n - 1, sword.durability - 1),
            (sword.durability - 1, sword.durability),
        ):
            if worn < 1:
                continue
            state = self.decision((item.id,), item.icon, main=code, main_dur=worn)
            after = self.play(state, item.id, "main")
            if after.players[0].main_dur != wanted:
                left = after.players[0].main_dur
                return f"on a {sword.id} at {worn} durability it leaves {left}, not {wanted}"
        return None

    def cleanse(self, item: Item) -> str | None:
        bad = next((b for b in self.model.buffs if b.cls is BuffClass.NEGATIVE), None)
        if bad is None:
            return None
        state = self.decision((item.id,), item.icon, buffs=self.with_buff(bad.id))
        after = self.play(state, item.id)
        if self.holds(after, 0, bad.id):
            return f"playing it leaves {bad.id!r} in its slot"
        return None

    def enchant(self, item: Item) -> str | None:
        weapon = self.weapon(item.weapon_kind)
        code = self.rules.by_token[weapon.id]
        worn = max(1, weapon.durability - item.effect.amount - 1)
        state = self.decision((item.id,), item.icon, main=code, main_dur=worn)
        after = self.play(state, item.id, "main")
        if item.effect.kind is EffectKind.EXTEND_RANGE:
            reach = self.rules.weapon_range(after, 0, "main")
            if reach != weapon.range + item.effect.amount:
                return f"under a {weapon.id} (range {weapon.range}) the range is {reach}"
        else:
            wanted = min(weapon.durability, worn + item.effect.amount)
            if after.players[0].main_dur != wanted:
                left = after.players[0].main_dur
                return f"under a {weapon.id} at {worn} durability it leaves {left}, not {wanted}"
        return None

    def revive(self, item: Item) -> str | None:
        poison = next((b for b in self.model.buffs if b.effect.kind is EffectKind.POISON), None)
        if poison is None:
            return None
        state = self.decision((item.id,), buffs=self.with_buff(poison.id), hp=poison.effect.amount)
        after = self.end_round(self._last_seat(state))
        me = after.players[0]
        if not me.alive or me.hp != item.effect.amount:
            fate = "alive" if me.alive else "dead"
            return f"held by a player the poison kills, it leaves them {fate} with {me.hp} HP"
        if self.rules.by_token[item.id] in me.hand:
            return "it stays in the hand after saving its holder"
        return None

    def event(self, event: Event) -> str | None:
        """Drawn by seat 0 (through a card that draws from the event deck): the printed heal,
        damage or buff lands on who the card names."""
        rules = self.rules
        drawer = next(
            (
                i
                for i in self.model.items
                if i.effect.kind is EffectKind.DRAW
                and rules.deck_index.get(i.effect.deck) == rules.card_deck[rules.by_token[event.id]]
            ),
            None,
        )
        if drawer is None:
            return None
        state = self.play(self.decision((drawer.id,), drawer.icon), drawer.id)
        if not rules.is_chance(state):
            return None
        after = rules.apply(state, Act("draw", event.id))
        effect = event.effect
        hit = [0] if effect.target is Target.SELF else list(range(rules.players))
        if effect.target is Target.OTHER:
            return None
        for seat in range(rules.players):
            p = after.players[seat]
            change = p.hp - HP
            if effect.kind is EffectKind.HEAL:
                wanted = min(effect.amount, self.model.settings.max_hp - HP) if seat in hit else 0
            elif effect.kind is EffectKind.DAMAGE:
                wanted = -effect.amount if seat in hit else 0
            else:
                wanted = 0
                if self.holds(after, seat, effect.buff) != (seat in hit):
                    return f"drawn, it leaves {effect.buff!r} with seat {seat}: {p.buffs}"
            if change != wanted:
                return f"drawn, it changes seat {seat}'s HP by {change}, not {wanted}"
        return None

    # -- buffs, partners and the boards --------------------------------------------------------

    def _last_seat(self, state: MineventureState) -> MineventureState:
        """The same position with the last seat to act: its ending ends the round."""
        last = clone(state)
        last.seat = self.rules.players - 1
        return last

    def ticks(self, buff: str) -> str | None:
        effect = next(b.effect for b in self.model.buffs if b.id == buff)
        state = self._last_seat(self.decision(buffs=self.with_buff(buff)))
        after = self.end_round(state)
        change = after.players[0].hp - HP
        wanted = effect.amount if effect.kind is EffectKind.REGENERATION else -effect.amount
        if change != wanted:
            return f"at the end of a round the holder's HP changes by {change}, not {wanted}"
        return None

    def lasts(self, buff: str) -> str | None:
        rounds = next(b.rounds for b in self.model.buffs if b.id == buff)
        state = self.decision(buffs=self.with_buff(buff))
        for ended in range(1, max(rounds, 1) + 1):
            state = self._last_seat(state)
            state.phase = "decision"
            state.round = 0
            state = self.end_round(state)
            held = self.holds(state, 0, buff)
            if rounds and ended < rounds and not held:
                return f"it is gone after {ended} round(s)"
            if rounds and ended == rounds and held:
                return f"it is still in its slot after {rounds} round(s)"
            if not rounds and not held:
                return "it is gone after a round, though it lasts"
        return None

    def day_end(self, **me: Any) -> int:
        """Seat 0's HP after the night's round ends (a day ends), from :data:`HP`."""
        state = self._last_seat(self.decision(**me))
        state.round = self.model.settings.rounds_per_day - 1
        state.night = True
        return self.end_round(state).players[0].hp - HP

    def daily_heal(self) -> str | None:
        healed = self.day_end()
        if healed != self.model.settings.daily_heal:
            return f"when a day ends a player heals {healed} HP"
        return None

    def starves(self, buff: str) -> str | None:
        healed = self.day_end(buffs=self.with_buff(buff, rounds=0))
        if healed != 0:
            return f"its holder heals {healed} HP when a day ends"
        return None

    def partner(self, partner: Partner) -> str | None:
        code = self.rules.by_token[partner.id]
        if partner.effect.kind is EffectKind.NURSE:
            healed = self.day_end(partner=code)
            wanted = self.model.settings.daily_heal + partner.effect.amount
            if healed != wanted:
                return f"with it a player heals {healed} HP when a day ends, not {wanted}"
            return None
        state = self.decision(partner=code)
        limit = self.rules.hand_limit(state, 0)
        if limit != self.model.settings.hand_limit + partner.effect.amount:
            return f"with it the hand limit is {limit}"
        return None

    def reach(self, card: Equipment) -> str | None:
        code = self.rules.by_token[card.id]
        slot = "main" if card.slot is Slot.MAIN_WEAPON else "sub"
        held: dict[str, Any] = {slot: code, f"{slot}_dur": card.durability}
        state = self.decision(**held)
        reach = self.rules.attack_range(state, 0)
        if reach != card.range:
            return f"held alone it gives an attack range of {reach}"
        return None

    def hand_limit(self) -> str | None:
        """At the end phase a player keeps the limit: one card over it must be discarded."""
        limit = self.model.settings.hand_limit
        cheap = [f.id for f in self.model.food] or [i.id for i in self.model.items]
        hand = tuple((cheap * (limit + 1))[: limit + 1])
        for held in (limit, limit + 1):
            state = self.decision(hand[:held])
            after = self.rules.apply(state, Act("end"))
            must = after.phase == "end" and after.seat == 0
            if must != (held > limit):
                return (
                    f"with {held} cards the end phase {'asks for' if must else 'skips'} a discard"
                )
        return None

    # -- combat -------------------------------------------------------------------------------

    def fight(
        self, state: MineventureState, mine: str = "fist", theirs: str = "fist"
    ) -> tuple[MineventureState, int]:
        """Seat 0 attacks seat 1 next to it; each round seat 0 strikes with ``mine`` and seat 1
        with ``theirs`` (a slot, or ``none``). The position once the combat is over, and the
        rounds it lasted."""
        rules = self.rules
        state = rules.apply(state, Act("fight", "1"))
        rounds = 0
        for _ in range(4 * self.model.settings.combat_rounds + 4):
            if state.combat is None:
                break
            if not state.combat.declared:
                rounds += 1
            seat = state.combat.attacker if not state.combat.declared else state.combat.defender
            slot = mine if seat == 0 else theirs
            actions = rules.legal_actions(state)
            strike = Act("strike", slot)
            if strike not in actions:
                strike = next(a for a in actions if a.kind == "strike")
            state = rules.apply(state, strike)
        return state, rounds

    def combat_rounds(self) -> str | None:
        """Two bare-handed players who cannot kill each other fight the printed rounds."""
        _, rounds = self.fight(self.decision())
        if rounds != self.model.settings.combat_rounds:
            return f"a combat nobody dies in lasts {rounds} rounds"
        return None

    def _one_hit(self, me: dict[str, Any], foe: dict[str, Any], slot: str) -> int:
        """What seat 1 loses to one strike of seat 0's ``slot`` in the first round (seat 1
        holds still)."""
        state = self.decision(**me)
        other = state.players[1]
        for name, value in foe.items():
            setattr(other, name, value)
        rules = self.rules
        state = rules.apply(state, Act("fight", "1"))
        state = rules.apply(state, Act("strike", slot))
        if state.combat is not None and state.combat.declared:
            # Seat 1 answers bare-handed (or not at all): only what it takes is read.
            answers = [a for a in rules.legal_actions(state) if a.kind == "strike"]
            state = rules.apply(state, answers[0])
        return HP - state.players[1].hp

    def _armed(self, card: Equipment, **more: Any) -> dict[str, Any]:
        slot = "main" if card.slot is Slot.MAIN_WEAPON else "sub"
        return {slot: self.rules.by_token[card.id], f"{slot}_dur": card.durability, **more}

    def hits(self, card: Equipment) -> str | None:
        slot = "main" if card.slot is Slot.MAIN_WEAPON else "sub"
        lost = self._one_hit(self._armed(card), {}, slot)
        if lost != card.damage:
            return f"one hit on an unarmoured player takes {lost} HP"
        return None

    def armour(self, card: Equipment) -> str | None:
        sword = self.weapon()
        code = self.rules.by_token[card.id]
        lost = self._one_hit(self._armed(sword), {"armour": code}, "main")
        wanted = max(0, sword.damage - card.defence)
        if lost != wanted:
            return f"a {sword.id} hit ({sword.damage}) on its wearer takes {lost} HP, not {wanted}"
        return None

    def sharpened(self, item: Item) -> str | None:
        weapon = self.weapon(item.weapon_kind)
        book = self.rules.by_token[item.id]
        lost = self._one_hit(self._armed(weapon, main_ench=(book,)), {}, "main")
        wanted = weapon.damage + item.effect.amount
        if lost != wanted:
            return f"under a {weapon.id} ({weapon.damage}) one hit takes {lost} HP, not {wanted}"
        return None

    def strong(self, buff: str) -> str | None:
        sword = self.weapon()
        amount = next(b.effect.amount for b in self.model.buffs if b.id == buff)
        lost = self._one_hit(self._armed(sword, buffs=self.with_buff(buff)), {}, "main")
        if lost != sword.damage + amount:
            return f"a {sword.id} hit ({sword.damage}) takes {lost} HP"
        # The card says attack damage, not weapon damage: bare hands gain it too.
        fist = self.model.settings.unarmed_damage
        lost = self._one_hit({"buffs": self.with_buff(buff)}, {}, "fist")
        if lost != fist + amount:
            return f"a bare-handed hit ({fist}) takes {lost} HP"
        return None

    def guarded(self, partner: Partner) -> str | None:
        sword = self.weapon()
        code = self.rules.by_token[partner.id]
        lost = self._one_hit(self._armed(sword), {"partner": code}, "main")
        wanted = max(0, sword.damage - partner.effect.amount)
        if lost != wanted:
            return f"a {sword.id} hit ({sword.damage}) on its owner takes {lost} HP, not {wanted}"
        return None
