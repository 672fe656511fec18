"""MineVenture combat: declaring a battle, the ambush round, declarations, simultaneous
resolution of both sides' hits, fleeing, kills and loot."""

from __future__ import annotations

from pnp.engines.piles import without as _remove
from pnp.games.mineventure.board import Board, halved
from pnp.games.mineventure.model import DamageType, EffectKind
from pnp.games.mineventure.state import DRAGON, Act, Combat, MineventureState, copy_player


class CombatRules(Board):
    """Combat on top of the board; the turn flow it hands back to lives in `MineventureRules`."""

    # -- turn flow, defined by MineventureRules ------------------------------------------

    def _settle(self, new: MineventureState) -> None:
        raise NotImplementedError

    def _next_seat(self, new: MineventureState) -> None:
        raise NotImplementedError

    def _play(self, new: MineventureState, seat: int, code: int, arg: str, foe: int | None) -> None:
        raise NotImplementedError

    def _enter_end(self, new: MineventureState) -> None:
        raise NotImplementedError

    # -- combat ---------------------------------------------------------------------------

    def _start_combat(
        self, new: MineventureState, attacker: int, defender: int, on_path: bool
    ) -> None:
        distance = self.distance(new, attacker, defender)
        # Ambush: the defender's range does not reach the attacker; only the attacker acts.
        ambush = (
            distance > self.reach(new, defender, attacker)
            if defender != DRAGON
            else (distance > self.model.dragon.range)
        )
        new.combat = Combat(attacker, defender, ambush=ambush, on_path=on_path)
        new.phase = "combat"

    def _combat_actions(self, state: MineventureState) -> list[Act]:
        c = state.combat
        assert c is not None
        seat = c.attacker if not c.declared else c.defender
        out: list[Act] = []
        p = state.players[seat]
        opponent = c.defender if seat == c.attacker else c.attacker
        distance = self.distance(state, seat, opponent)
        strikes = self._strike_acts
        armed = False
        for slot, code, enchants in (("main", p.main, p.main_ench), ("sub", p.sub, p.sub_ench)):
            if code < 0:
                continue
            card = self.gear(code)
            armed = armed or card.damage > 0
            if card.blocks and not c.ambush:
                out.append(strikes[slot])
            elif card.damage > 0:
                # In the ambush round the attack counts distance; later rounds do not.
                if not c.ambush:
                    out.append(strikes[slot])
                else:
                    glow = self._fx(state.players[opponent]).glow if opponent != DRAGON else 0
                    reach = self._weapon_range(code, enchants) + glow + self._fx(p).glow
                    if reach >= distance:
                        out.append(strikes[slot])
        if not armed and (not c.ambush or self.settings.unarmed_range >= distance):
            out.append(strikes["fist"])
        for code in sorted(set(p.hand)):
            for arg in self.playable(state, seat, code, in_combat=True):
                out.append(self.play_act("use", code, arg))
        if not c.ambush and not p.fled:
            out.append(self._flee_act)
        if not out:
            out.append(strikes["none"])
        return out

    def _declare(self, new: MineventureState, action: Act) -> None:
        c = new.combat
        assert c is not None
        seat = c.attacker if not c.declared else c.defender
        if action.kind == "flee":
            # Fleeing: once per round; the roll is a chance step resolved at once.
            self._set(new, seat, fled=True)
            c.fleeing = seat
            return
        c.declared = (*c.declared, str(action))
        self._after_declaration(new)

    def _after_declaration(self, new: MineventureState) -> None:
        c = new.combat
        assert c is not None
        if len(c.declared) == 1 and not c.ambush:
            if c.defender == DRAGON:
                c.declared = (*c.declared, "breath")
            else:
                return  # the defender declares next
        self._resolve_round(new)

    def _resolve_round(self, new: MineventureState) -> None:
        """Both sides' declarations resolve at once; every hit is computed on its own.

        Simultaneous means symmetric (decision simultaneous-exchange): every hit is computed
        from the position as the exchange began and lands first; the other cards played in
        the exchange (potions, food, tools) take effect after the hits, whoever played them;
        deaths are checked last."""
        c = new.combat
        assert c is not None
        sides = [(c.attacker, c.defender, c.declared[0])]
        if not c.ambush:
            sides.append((c.defender, c.attacker, c.declared[1]))
        blocking = {seat: False for seat, _, _ in sides}
        hits: list[tuple[int, int, int, tuple[DamageType, ...]]] = []
        plays: list[tuple[int, int, str, int]] = []
        for seat, foe, text in sides:
            if text in ("fled", "none"):
                continue
            if text == "breath":
                d = self.model.dragon
                hits.append((seat, foe, d.damage, d.types))
                continue
            act = Act.parse(text)
            if act.kind == "use":
                code = self.by_token[act.a]
                effect = self.effect_of(code)
                if effect is not None and effect.kind is EffectKind.DAMAGE:
                    self._set(new, seat, hand=_remove(new.players[seat].hand, code))
                    self._put_back(new, code)
                    hits.append((seat, foe, effect.amount, effect.types))
                else:
                    plays.append((seat, code, act.b, foe))
                continue
            hits.extend(self._strike(new, seat, foe, act.a, blocking))
        for seat, foe, amount, types in hits:
            taken = self._hit(new, foe, amount, types, blocking.get(foe, False))
            if foe == DRAGON and taken > 0:
                self._set(new, seat, hit_dragon=True)
        for seat, code, arg, foe in plays:
            self._play(new, seat, code, arg, foe)
        killer_of = {c.defender: c.attacker, c.attacker: c.defender}
        dead = self._deaths(new, killer=killer_of)
        if self._check_end(new):
            return
        if dead or c.round >= self.settings.combat_rounds:
            if new.phase == "loot":
                new.resume = "combat-end"
                return
            if new.queue:
                new.resume = "combat-end"
                new.phase = "deal"
                self._settle(new)
                return
            self._finish_combat(new)
            return
        c.round += 1
        c.ambush = False
        c.declared = ()
        if new.queue:
            new.resume = "combat"
            new.phase = "deal"
            self._settle(new)

    def _strike(
        self, new: MineventureState, seat: int, foe: int, slot: str, blocking: dict[int, bool]
    ) -> list[tuple[int, int, int, tuple[DamageType, ...]]]:
        p = new.players[seat]
        if slot == "fist":
            # Bare hands (decision unarmed): no durability.
            amount = self.settings.unarmed_damage
            types: tuple[DamageType, ...] = (DamageType.PHYSICAL,)
        else:
            code = p.main if slot == "main" else p.sub
            card = self.gear(code)
            enchants = p.main_ench if slot == "main" else p.sub_ench
            # Every use of a weapon costs one durability; at 0 it breaks.
            durability = (p.main_dur if slot == "main" else p.sub_dur) - 1
            self._set(new, seat, **{f"{slot}_dur": durability})
            if durability <= 0:
                self._drop_weapon(new, seat, slot)
            if card.blocks:
                # A raised shield blocks this round's piercing hits.
                blocking[seat] = True
                return []
            amount = self.weapon_damage(code, enchants)
            types = card.types
        amount += self._bonus(new, seat, EffectKind.STRENGTH)
        hits = [(seat, foe, amount, types)]
        partner = self.card_effect(p.partner) if p.partner >= 0 else None
        if partner is not None and partner.kind is EffectKind.COMPANION_ATTACK:
            hits.append((seat, foe, partner.amount, partner.types))
        halve = self._has(new, seat, EffectKind.HALVE_DEALT)
        if halve is not None:
            hits = [(s, f, halved(a, halve.rounding), t) for s, f, a, t in hits]
        return hits

    def _finish_combat(self, new: MineventureState) -> None:
        c = new.combat
        new.combat = None
        assert c is not None
        # After combat the attacker goes to their end phase.
        if new.players[c.attacker].alive:
            new.seat = c.attacker
            self._enter_end(new)
        else:
            self._next_seat(new)

    def _loot(self, new: MineventureState, slot: str) -> None:
        killer, victim = new.loot
        new.loot = (-1, -1)
        p = copy_player(new.players[victim])
        # The killer takes one equipment card; a weapon keeps its durability and books.
        # The killer may also take none (decision loot-choice): the card is a right, not a duty.
        if slot == "main":
            self._set(new, victim, main=-1, main_dur=0, main_ench=())
            self._equip(new, killer, p.main, p.main_dur, p.main_ench)
        elif slot == "sub":
            self._set(new, victim, sub=-1, sub_dur=0, sub_ench=())
            self._equip(new, killer, p.sub, p.sub_dur, p.sub_ench)
        elif slot == "armour":
            self._set(new, victim, armour=-1)
            self._equip(new, killer, p.armour)
        self._clear(new, victim)
        # A kill in combat ends it; the attacker goes to the end phase once the draws due
        # (from a card played in this combat round) are done. A kill by a card thrown in the
        # decision phase returns to that phase.
        resume = "combat-end" if new.combat is not None else "decision"
        if new.queue:
            new.resume = resume
            new.phase = "deal"
            self._settle(new)
        elif new.combat is not None:
            new.resume = ""
            self._finish_combat(new)
        else:
            new.resume = ""
            new.phase = "decision"
