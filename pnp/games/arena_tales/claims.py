"""What the Arena Tales kit prints, tied to the engine (pnp.validate.claims).

Every card prints its cost, a damage card its damage and a range spec per side, and each effect
a phrase (``templates/arena-tales/base.yaml``, macro ``phrase``); each is a claim located at the
card or effect in content/arena-tales/cards.yaml and played out on a small position: seat 0 at
the centre of the arena facing north, the other seats where the claim needs them. The rule
keywords printed as prose (the sanity card's two faces and the glossary of the aids and the
rulebook) are recognised by phrase and played out on every table size the arena sets up.

The piles of a probe hold inert filler cards (no response, nothing while displayed), one card
name per pile, so what moved where can be counted: the hand holds ``hand`` cards, the deck
``deck`` cards, the life zone and the display's face-down cards ``life`` cards.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pnp.engines import hexgrid
from pnp.games.arena_tales.model import (
    SIDES,
    ArenaTales,
    Card,
    CardType,
    Effect,
    EffectKind,
    Keyword,
    RangeKind,
    Timing,
)
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.games.arena_tales.state import (
    DOWN,
    UP,
    Absorb,
    Action,
    ArenaState,
    Dash,
    Maintain,
    Move,
    Play,
    Reveal,
    Seat,
    Talent,
)
from pnp.model.rulebook import Block
from pnp.validate.claims import Claim, Probe, phrase_claims

CENTRE = (0, 0)
NORTH = 0
STEPS = 400
"""Actions a probe resolves at most: a claim never needs more than a turn and its draws."""

_ACTIVE_TIMINGS = frozenset({Timing.BEFORE_PLAY, Timing.ON_PLAY, Timing.COMBAT, Timing.AFTER_PLAY})


def claims(model: ArenaTales, templates_root: Path) -> list[Claim]:
    """Every claim the kit prints: per card, per sanity face, per glossary entry."""
    bench = Bench(model)
    found: list[Claim] = []
    for card in model.cards:
        found += bench.card_claims(card)
    faces = [
        (f"the {card.name} card's {face.name} face", face.text, face.where)
        for card in model.sanity_cards
        for face in (card.sane, card.wild)
    ]
    glossary = [
        (f"the glossary's {entry.name}", entry.text, entry.where)
        for entry in model.glossary
        if entry.keyword
        in (
            Keyword.OUT_OF_CONTROL,
            Keyword.ORIENTATION_POINT,
            Keyword.SANITY,
            Keyword.INITIAL_TALENT,
            Keyword.SEE_THROUGH,
        )
    ]
    rulebook = [
        ("the rulebook", text, block.where)
        for block in _blocks(model)
        for text in (block.text, *block.items)
    ]
    found += phrase_claims([*faces, *glossary, *rulebook], bench.rule_phrases())
    return found


def _blocks(model: ArenaTales) -> Iterable[Block]:
    sections = list(model.rulebook.sections) if model.rulebook else []
    while sections:
        section = sections.pop(0)
        yield from section.blocks
        sections[:0] = section.sections


@dataclass
class Fillers:
    """Inert card codes, one per pile, so a probe counts what moved where."""

    hand: int
    deck: int
    life: int


class Bench:
    """The tables (one per player count) and the positions the probes are played on."""

    def __init__(self, model: ArenaTales) -> None:
        self.model = model
        self.tables = {players: ArenaTalesRules(model, players) for players in model.player_counts}
        self.duel = self.tables[min(self.tables)]
        rules = self.duel
        self.inert = [
            code
            for code, card in enumerate(rules.cards)
            if card.type is CardType.NON_DAMAGE
            and all(e.timing not in (Timing.RESPONSE, Timing.DISPLAYED) for e in card.effects)
        ] or [0]
        self.probing: int | None = None
        """The card a probe is about: never a filler, so what it adds can be counted."""
        radius = rules.radius
        lines = {h for d in range(6) for h in hexgrid.ray(CENTRE, d, radius)}
        self.parking = [
            h
            for h in hexgrid.cells(radius)
            if hexgrid.distance(h, CENTRE) == radius
            and h not in lines
            and h not in rules.obstacles
            and h not in rules.points
        ]
        """Hexes no line from the centre passes: where seats a probe does not need stand."""

    @property
    def fill(self) -> Fillers:
        pick = [code for code in self.inert if code != self.probing] or self.inert
        pick = (pick * 3)[:3]
        return Fillers(hand=pick[0], deck=pick[1], life=pick[2])

    def about(self, card: Card, probe: Probe) -> Probe:
        """``probe``, run with ``card`` kept out of the filler piles."""

        def run() -> str | None:
            self.probing = self.duel._by_token[card.id]
            try:
                return probe()
            finally:
                self.probing = None

        return run

    # -- positions ------------------------------------------------------------------------

    def position(
        self, rules: ArenaTalesRules, places: dict[int, hexgrid.Hex], hand: Iterable[int] = ()
    ) -> ArenaState:
        """Seat 0 to act at rest, facing north, holding ``hand`` and two filler cards; every
        seat with ten life cards and eight in its deck; seats not in ``places`` parked."""
        parked = iter(h for h in self.parking if h not in places.values())
        seats = []
        for index in range(rules.players):
            seats.append(
                Seat(
                    pos=places[index] if index in places else next(parked),
                    facing=NORTH,
                    hand=tuple(sorted((*hand, self.fill.hand, self.fill.hand)))
                    if index == 0
                    else (self.fill.hand,),
                    deck=(self.fill.deck,) * 8,
                    recycle=(),
                    exhausted=(),
                    life=(self.fill.life,) * 10,
                    display=(),
                )
            )
        return ArenaState(seats=tuple(seats), active=0, turn=1)

    def aim(self, rules: ArenaTalesRules, code: int, behind: int = 0) -> hexgrid.Hex | None:
        """A hex where an enemy of seat 0 (at the centre, facing north) is hit, as far out as
        the card reaches (a charge's full damage), with ``behind`` free hexes beyond it along
        the attack; None if there is none."""
        for side, kind, reach in rules._sides[code]:
            ray = hexgrid.ray(CENTRE, (NORTH + side) % 6, rules.radius)
            distances = [reach] if kind is RangeKind.SNIPE else range(reach, 0, -1)
            for distance in distances:
                line = ray[: distance + behind]
                if len(line) == distance + behind and not any(h in rules.obstacles for h in line):
                    return ray[distance - 1]
        return None

    def play(
        self,
        rules: ArenaTalesRules,
        state: ArenaState,
        card: str,
        pick: Callable[[ArenaState, list[Action]], Action] | None = None,
    ) -> ArenaState | str:
        """``state`` after seat 0 plays ``card`` (naming seat 1 where it names a seat) and
        everything it sets off resolves; a sentence when the engine offers no such play."""
        plays = [a for a in rules.legal_actions(state) if isinstance(a, Play) and a.card == card]
        if not plays:
            return "the engine offers no way to play it there"
        action = next((a for a in plays if a.target == 1), plays[0])
        return self.resolve(rules, rules.apply(state, action), pick)

    def resolve(
        self,
        rules: ArenaTalesRules,
        state: ArenaState,
        pick: Callable[[ArenaState, list[Action]], Action] | None = None,
    ) -> ArenaState:
        """Resolve until the active player is at rest: chance takes the first card listed, a
        decision ``pick`` (default: the first option; a straight move as far as it goes)."""
        for _ in range(STEPS):
            if rules.is_terminal(state) or not state.queue:
                break
            actions = rules.legal_actions(state)
            if rules.is_chance(state):
                action = actions[0]
            elif pick is not None:
                action = pick(state, actions)
            else:
                action = actions[-1] if isinstance(actions[0], Dash) else actions[0]
            state = rules.apply(state, action)
        return state

    def pass_turn(
        self, rules: ArenaTalesRules, state: ArenaState, keep: bool = True
    ) -> ArenaState | str:
        """From seat 1's turn with one card: it steps, its empty hand ends the turn, and seat
        0's start step (maintain choices ``keep``, clean-up, draws) resolves."""
        state.active = len(state.seats) - 1
        moves = [a for a in rules.legal_actions(state) if isinstance(a, Move)]
        if not moves:
            return "the engine offers the last seat no step to end its turn with"

        def maintain(s: ArenaState, actions: list[Action]) -> Action:
            return Maintain(keep) if isinstance(actions[0], Maintain) else actions[0]

        return self.resolve(rules, rules.apply(state, moves[0]), maintain)

    # -- the cards ------------------------------------------------------------------------

    def card_claims(self, card: Card) -> list[Claim]:
        subject = f"card {card.id!r}"
        found: list[Claim] = []
        if card.type is not CardType.TALENT:
            found.append(
                Claim(
                    card.where,
                    subject,
                    f"费用 {card.cost}",
                    self.about(card, partial(self.cost, card)),
                )
            )
        if card.type is CardType.DAMAGE and card.damage is not None:
            found.append(
                Claim(
                    card.where,
                    subject,
                    f"伤害 {card.damage}",
                    self.about(card, partial(self.damage, card)),
                )
            )
            for side, spec in enumerate(card.ranges):
                if spec is not None and spec.kind is not RangeKind.NONE:
                    found.append(
                        Claim(
                            card.where,
                            subject,
                            f"{SIDES[side]} {spec}",
                            self.about(card, partial(self.side, card, side)),
                        )
                    )
        for effect in card.effects:
            probe = self.effect_probe(card, effect)
            if probe is not None:
                found.append(
                    Claim(effect.where, subject, self.phrase(effect), self.about(card, probe))
                )
        return found

    def phrase(self, effect: Effect) -> str:
        """The effect as the card prints it, near enough to find it on the face."""
        names = self.model.keyword_names
        timing = {Timing.TALENT: Keyword.INITIAL_TALENT.value}.get(
            effect.timing, effect.timing.value
        )
        prefix = "" if effect.timing is Timing.COMBAT else f"{names.get(timing, timing)}："
        kind = effect.kind
        amount = f" {effect.amount}" if effect.amount else ""
        if kind is EffectKind.CRYSTAL and effect.element is not None:
            return f"{prefix}【{names.get('crystal_' + effect.element.value, '?')}】"
        words = {
            EffectKind.DRAW: f"抽 {effect.amount} 张牌",
            EffectKind.DAMAGE_UP: f"伤害 +{effect.amount}",
            EffectKind.REACH: f"范围 +{effect.amount}",
            EffectKind.DASH: f"沿面朝方向移动至多 {effect.amount} 格",
            EffectKind.LIFE: f"生命 {effect.amount:+d}",
        }
        if kind in words:
            return prefix + words[kind]
        return f"{prefix}【{names.get(kind.value, kind.value)}{amount}】"

    def cost(self, card: Card) -> str | None:
        rules = self.duel
        code = rules._by_token[card.id]
        after = self.play(rules, self.armed(rules, code), card.id)
        if isinstance(after, str):
            return after
        pending = after.seats[1].pending
        if pending != card.cost:
            return f"the next player's pending draw grows by {pending}"
        return None

    def armed(self, rules: ArenaTalesRules, code: int, behind: int = 0) -> ArenaState:
        """Seat 0 holding ``code``, seat 1 where the card hits it (a damage card)."""
        places: dict[int, hexgrid.Hex] = {0: CENTRE}
        if rules.cards[code].type is CardType.DAMAGE:
            target = self.aim(rules, code, behind)
            if target is not None:
                places[1] = target
        return self.position(rules, places, (code,))

    def damage(self, card: Card) -> str | None:
        rules = self.duel
        code = rules._by_token[card.id]
        state = self.armed(rules, code)
        after = self.play(rules, state, card.id)
        if isinstance(after, str):
            return after
        lost = len(state.seats[1].life) - len(after.seats[1].life)
        if lost != card.damage:
            return f"an enemy at its full range loses {lost} life"
        return None

    def side(self, card: Card, side: int) -> str | None:
        """The enemy on that side's line is hit at exactly the distances the spec names, with
        the charge's fall-off (full at the maximum, -1 per hex closer, at least 1)."""
        rules = self.duel
        spec = card.ranges[side]
        assert spec is not None and card.damage is not None
        direction = (NORTH + side) % 6
        wrong = []
        for distance, hexagon in enumerate(hexgrid.ray(CENTRE, direction, rules.radius), 1):
            if hexagon in rules.obstacles:
                break
            if spec.kind is RangeKind.AREA:
                expected = card.damage if distance <= spec.reach else 0
            elif spec.kind is RangeKind.SNIPE:
                expected = card.damage if distance == spec.reach else 0
            else:
                reach = spec.reach
                expected = max(1, card.damage - (reach - distance)) if distance <= reach else 0
            code = rules._by_token[card.id]
            state = self.position(rules, {0: CENTRE, 1: hexagon}, (code,))
            after = self.play(rules, state, card.id)
            lost = (
                0 if isinstance(after, str) else len(state.seats[1].life) - len(after.seats[1].life)
            )
            if lost != expected:
                wrong.append(f"at distance {distance} the enemy loses {lost} life, not {expected}")
        return "; ".join(wrong) or None

    # -- the effects ----------------------------------------------------------------------

    def effect_probe(self, card: Card, effect: Effect) -> Probe | None:
        handlers: dict[EffectKind, Callable[[Card, Effect], str | None]] = {
            EffectKind.LOCK: self.lock,
            EffectKind.FIXED_DAMAGE: self.fixed,
            EffectKind.INDISCRIMINATE: self.indiscriminate,
            EffectKind.KNOCKBACK: self.knockback,
            EffectKind.BACKLASH: self.backlash,
            EffectKind.HEAL: self.heal,
            EffectKind.SEE_THROUGH: self.see_through,
            EffectKind.RECYCLE: self.recycle,
            EffectKind.EXHAUST: self.exhaust,
            EffectKind.DISCARD: self.discard,
            EffectKind.DISPLAY: self.display,
            EffectKind.DRAW: self.draw,
            EffectKind.COUNTER: self.counter,
            EffectKind.MAINTAIN: self.maintain,
            EffectKind.PERMANENT: self.stays,
            EffectKind.CRYSTAL: self.stays,
            EffectKind.COMBO: self.combo,
            EffectKind.COMBO_PLAY: self.combo_play,
            EffectKind.BURST: self.burst,
            EffectKind.DAMAGE_UP: self.damage_up,
            EffectKind.REACH: self.reach,
            EffectKind.DASH: self.dash,
            EffectKind.LIFE: self.life,
        }
        handler = handlers.get(effect.kind)
        return None if handler is None else partial(handler, card, effect)

    def triggered(
        self,
        card: Card,
        effect: Effect,
        prepare: Callable[[ArenaState, int, int], None] = lambda s, owner, target: None,
        pick: Callable[[ArenaState, list[Action]], Action] | None = None,
        behind: int = 0,
    ) -> tuple[ArenaState, ArenaState, int, int] | str:
        """The card's effect set off as its timing says: played by seat 0 (its target seat
        1), or as a response of seat 1 turned face up by damage on seat 0's turn (its target
        the active seat 0). ``prepare(state, owner, target)`` sets the piles up first.
        Returns (before, after, owner, target)."""
        rules = self.duel
        code = rules._by_token[card.id]
        if effect.timing is Timing.RESPONSE:
            owner, target = 1, 0
            state = self.position(rules, {0: CENTRE, 1: self.parking[0]})
            state.seats[1].life = (code,) * 6
            # Two damage taken as one life card face up: the response card, revealed.
            state.queue = (("absorb", 1, 2), ("responses",), ("finish",))
            prepare(state, owner, target)
            after = self.resolve(rules, rules.apply(state, Absorb(1)), pick)
            return state, after, owner, target
        owner, target = 0, 1
        state = self.armed(rules, code, behind)
        prepare(state, owner, target)
        played = self.play(rules, state, card.id, pick)
        if isinstance(played, str):
            return played
        return state, played, owner, target

    def downs(self, seat: Seat, code: int | None = None) -> int:
        return sum(1 for c, face in seat.display if face == DOWN and (code is None or c == code))

    def ups(self, seat: Seat) -> int:
        return sum(1 for _, face in seat.display if face != DOWN)

    def lock(self, card: Card, effect: Effect) -> str | None:
        rules = self.duel
        code = rules._by_token[card.id]
        away = self.position(rules, {0: CENTRE}, (code,))
        if any(isinstance(a, Play) and a.card == card.id for a in rules.legal_actions(away)):
            return "the engine lets it be played with no one in range to lock"
        target = self.aim(rules, code)
        if target is None:
            return "no hex of the arena is in its range"
        near = self.position(rules, {0: CENTRE, 1: target}, (code,))
        plays = [a for a in rules.legal_actions(near) if isinstance(a, Play) and a.card == card.id]
        if [a.target for a in plays] != [1]:
            return f"with one enemy in range the engine offers {[str(a) for a in plays]}"
        return None

    def _bonus_card(self) -> int | None:
        """A card whose face-up copy in a display adds damage to every damage card."""
        for code, card in enumerate(self.duel.cards):
            if any(
                e.kind is EffectKind.DAMAGE_UP and e.timing in (Timing.DISPLAYED, Timing.TALENT)
                for e in card.effects
            ):
                return code
        return None

    def fixed(self, card: Card, effect: Effect) -> str | None:
        bonus = self._bonus_card()
        if bonus is None:
            return None  # no bonus in the game to ignore

        def with_bonus(state: ArenaState, owner: int, target: int) -> None:
            state.seats[owner].display = ((bonus, UP),)

        done = self.triggered(card, effect, with_bonus)
        if isinstance(done, str):
            return done
        before, after, _, target = done
        lost = len(before.seats[target].life) - len(after.seats[target].life)
        if lost != card.damage:
            return f"with a damage bonus face up the enemy loses {lost} life, not {card.damage}"
        return None

    def indiscriminate(self, card: Card, effect: Effect) -> str | None:
        teams = [rules for rules in self.tables.values() if rules.players > 2]
        if not teams:
            return None  # no table with teammates
        rules = teams[0]
        code = rules._by_token[card.id]
        mate = next(s for s in range(1, rules.players) if rules.teams[s] == rules.teams[0])
        spot = self.aim(rules, code)
        if spot is None:
            return "no hex of the arena is in its range"
        state = self.position(rules, {0: CENTRE, mate: spot}, (code,))
        plays = [a for a in rules.legal_actions(state) if isinstance(a, Play) and a.card == card.id]
        if not plays:
            return "the engine offers no way to play it at a teammate in range"
        after = self.resolve(rules, rules.apply(state, plays[0]))
        if len(after.seats[mate].life) >= len(state.seats[mate].life):
            return "a teammate in its range takes no damage"
        return None

    def knockback(self, card: Card, effect: Effect) -> str | None:
        done = self.triggered(card, effect, behind=effect.amount)
        if isinstance(done, str):
            return done
        before, after, _, target = done
        moved = hexgrid.distance(before.seats[target].pos, after.seats[target].pos)
        if moved != effect.amount:
            return f"an enemy with room behind it is pushed {moved} hexes"
        return None

    def backlash(self, card: Card, effect: Effect) -> str | None:
        done = self.triggered(card, effect)
        if isinstance(done, str):
            return done
        before, after, owner, _ = done
        lost = len(before.seats[owner].life) - len(after.seats[owner].life)
        if lost != effect.amount:
            return f"its user loses {lost} life"
        return None

    def heal(self, card: Card, effect: Effect) -> str | None:
        fill = self.fill

        def wounded(state: ArenaState, owner: int, target: int) -> None:
            seat = state.seats[owner]
            seat.display = (*seat.display, *((fill.life, DOWN),) * (effect.amount + 2))

        done = self.triggered(card, effect, wounded)
        if isinstance(done, str):
            return done
        before, after, owner, _ = done
        healed = self.downs(before.seats[owner]) - self.downs(after.seats[owner])
        if healed != effect.amount:
            return f"{healed} face-down cards of its user's display go back to life"
        return None

    def see_through(self, card: Card, effect: Effect) -> str | None:
        fill, amount = self.fill, effect.amount

        def hidden(state: ArenaState, owner: int, target: int) -> None:
            seat = state.seats[target]
            seat.display = (*seat.display, *((fill.hand, DOWN),) * (max(amount, 1) + 2))

        done = self.triggered(card, effect, hidden)
        if isinstance(done, str):
            return done
        before, after, _, target = done
        # The damage of the card itself lays life cards face down first: count every card
        # turned up, and for 识破 with no number, that none is left face down.
        turned = self.ups(after.seats[target]) - self.ups(before.seats[target])
        left = self.downs(after.seats[target])
        if (turned != amount) if amount else left:
            return f"{turned} face-down cards of the target are turned face up, {left} stay down"
        return None

    def recycle(self, card: Card, effect: Effect) -> str | None:
        fill = self.fill

        def spent(state: ArenaState, owner: int, target: int) -> None:
            state.seats[owner].exhausted = (fill.hand,) * (effect.amount + 2)

        done = self.triggered(card, effect, spent)
        if isinstance(done, str):
            return done
        before, after, owner, _ = done
        moved = len(after.seats[owner].recycle) - len(before.seats[owner].recycle)
        if moved != effect.amount:
            return f"{moved} cards of its user's exhausted pile go to the recycle pile"
        return None

    def exhaust(self, card: Card, effect: Effect) -> str | None:
        fill = self.fill

        def hidden(state: ArenaState, owner: int, target: int) -> None:
            seat = state.seats[target]
            seat.display = (*seat.display, *((fill.hand, DOWN),) * (effect.amount + 2))

        done = self.triggered(card, effect, hidden)
        if isinstance(done, str):
            return done
        before, after, _, target = done
        gone = len(after.seats[target].exhausted) - len(before.seats[target].exhausted)
        if gone != effect.amount:
            return f"{gone} face-down cards of the target's display are exhausted"
        return None

    def discard(self, card: Card, effect: Effect) -> str | None:
        fill = self.fill

        def holding(state: ArenaState, owner: int, target: int) -> None:
            seat = state.seats[owner]
            seat.hand = tuple(sorted((*seat.hand, *(fill.hand,) * effect.amount)))

        done = self.triggered(card, effect, holding)
        if isinstance(done, str):
            return done
        before, after, owner, _ = done
        put = self.downs(after.seats[owner]) - self.downs(before.seats[owner])
        if put != effect.amount:
            return f"its user discards {put} cards face down"
        return None

    def display(self, card: Card, effect: Effect) -> str | None:
        done = self.triggered(card, effect)
        if isinstance(done, str):
            return done
        before, after, owner, _ = done
        deck = self.fill.deck
        shown = sum(1 for c, f in after.seats[owner].display if c == deck and f != DOWN) - sum(
            1 for c, f in before.seats[owner].display if c == deck and f != DOWN
        )
        if shown != effect.amount:
            return f"{shown} cards of its user's deck go face up into the display"
        return None

    def _drawn(self, before: ArenaState, after: ArenaState, owner: int) -> int:
        deck = self.fill.deck
        return after.seats[owner].hand.count(deck) - before.seats[owner].hand.count(deck)

    def draw(self, card: Card, effect: Effect) -> str | None:
        done = self.triggered(card, effect)
        if isinstance(done, str):
            return done
        before, after, owner, _ = done
        # Every draw the same moment sets off is counted together.
        together = [
            e.amount
            for e in card.effects
            if e.kind is EffectKind.DRAW
            and (e.timing is Timing.RESPONSE) == (effect.timing is Timing.RESPONSE)
        ]
        drawn = self._drawn(before, after, owner)
        if drawn != sum(together):
            return f"its user draws {drawn} cards"
        return None

    def _with_combo(self, card: Card, combo: bool) -> Callable[[ArenaState, int, int], None]:
        def prepare(state: ArenaState, owner: int, target: int) -> None:
            state.played = 1 if combo else 0
            state.last_colour = card.colour if combo else ""

        return prepare

    def combo(self, card: Card, effect: Effect) -> str | None:
        if card.type is not CardType.DAMAGE:
            return None
        lost = []
        for combo in (False, True):
            done = self.triggered(card, effect, self._with_combo(card, combo))
            if isinstance(done, str):
                return done
            before, after, _, target = done
            lost.append(len(before.seats[target].life) - len(after.seats[target].life))
        if lost[1] - lost[0] != effect.amount or card.colour == "none":
            return f"after a card of its colour it deals {lost[1] - lost[0]} more damage"
        return None

    def combo_play(self, card: Card, effect: Effect) -> str | None:
        drawn = []
        for combo in (False, True):
            done = self.triggered(card, effect, self._with_combo(card, combo))
            if isinstance(done, str):
                return done
            before, after, owner, _ = done
            drawn.append(self._drawn(before, after, owner))
        if drawn[1] - drawn[0] != effect.amount:
            return f"after a card of its colour its user draws {drawn[1] - drawn[0]} more cards"
        return None

    def _crystal(self) -> int | None:
        return next(
            (c for c, card in enumerate(self.duel.cards) if card.has(EffectKind.CRYSTAL)), None
        )

    def burst(self, card: Card, effect: Effect) -> str | None:
        crystal = self._crystal()
        if crystal is None:
            return None
        many = max(effect.amount, 1) + 1

        def charged(state: ArenaState, owner: int, target: int) -> None:
            state.seats[owner].display = ((crystal, UP),) * many

        done = self.triggered(card, effect, charged)
        if isinstance(done, str):
            return done
        _, after, owner, _ = done
        spent = after.seats[owner].exhausted.count(crystal)
        if spent != (effect.amount or many):
            return f"{spent} of {many} crystals in its user's display are spent"
        return None

    def counter(self, card: Card, effect: Effect) -> str | None:
        rules = self.duel
        code = rules._by_token[card.id]
        wrong = []
        for attack in rules.cards:
            if attack.type is not CardType.DAMAGE or attack.damage is None:
                continue
            if attack.damage not in (effect.amount, effect.amount + 1):
                continue
            strike = rules._by_token[attack.id]
            spot = self.aim(rules, strike)
            if spot is None:
                continue
            state = self.position(rules, {0: CENTRE, 1: spot}, (strike,))
            state.seats[1].display = ((code, UP),)
            after = self.play(rules, state, attack.id)
            if isinstance(after, str):
                continue
            lost = len(state.seats[1].life) - len(after.seats[1].life)
            if (lost == 0) != (attack.damage <= effect.amount):
                wrong.append(f"a hit of {attack.name} (base {attack.damage}) takes {lost} life")
        return "; ".join(wrong) or None

    def maintain(self, card: Card, effect: Effect) -> str | None:
        rules = self.duel
        code = rules._by_token[card.id]
        state = self.position(rules, {0: CENTRE, 1: self.parking[0]})
        state.seats[0].display = ((code, UP),)
        state.seats[0].hand = (self.fill.hand,) * (effect.amount + 1)
        kept = self.pass_turn(rules, state, keep=True)
        if isinstance(kept, str):
            return kept
        paid = (effect.amount + 1) - kept.seats[0].hand.count(self.fill.hand)
        if code not in [c for c, _ in kept.seats[0].display] or paid != effect.amount:
            return f"keeping it at the clean-up costs {paid} cards and leaves the display " + (
                "with it" if code in [c for c, _ in kept.seats[0].display] else "without it"
            )
        return None

    def stays(self, card: Card, effect: Effect) -> str | None:
        rules = self.duel
        code = rules._by_token[card.id]
        state = self.position(rules, {0: CENTRE, 1: self.parking[0]})
        state.seats[0].display = ((code, UP),)
        after = self.pass_turn(rules, state)
        if isinstance(after, str):
            return after
        if (code, UP) not in after.seats[0].display:
            return "the clean-up at the start of its owner's turn takes it out of the display"
        return None

    def damage_up(self, card: Card, effect: Effect) -> str | None:
        rules = self.duel
        code = rules._by_token[card.id]
        if effect.timing not in (Timing.DISPLAYED, Timing.TALENT):
            if card.type is not CardType.DAMAGE:
                return None
            done = self.triggered(card, effect)
            if isinstance(done, str):
                return done
            before, after, _, target = done
            lost = len(before.seats[target].life) - len(after.seats[target].life)
            expected = (card.damage or 0) + effect.amount
            return None if lost == expected else f"it deals {lost}, not {expected}"
        plain = self._plain_attack()
        if plain is None:
            return None
        spot = self.aim(rules, plain)
        assert spot is not None
        state = self.position(rules, {0: CENTRE, 1: spot}, (plain,))
        state.seats[0].display = ((code, UP),)
        played = self.play(rules, state, rules.tokens[plain])
        if isinstance(played, str):
            return played
        lost = len(state.seats[1].life) - len(played.seats[1].life)
        expected = (rules.cards[plain].damage or 0) + effect.amount
        if lost != expected:
            return f"face up, it makes {rules.cards[plain].name} deal {lost}, not {expected}"
        return None

    def _plain_attack(self) -> int | None:
        """A damage card whose damage nothing but the display changes."""
        quiet = {EffectKind.LOCK, EffectKind.FIXED_DAMAGE, EffectKind.COMBO, EffectKind.BURST}
        rules = self.duel
        for code, card in enumerate(rules.cards):
            if (
                card.type is CardType.DAMAGE
                and not quiet & {e.kind for e in card.effects}
                and self.aim(rules, code) is not None
            ):
                return code
        return None

    def reach(self, card: Card, effect: Effect) -> str | None:
        rules = self.duel
        code = rules._by_token[card.id]
        if effect.timing is not Timing.DISPLAYED:
            return None
        for attack_code, attack in enumerate(rules.cards):
            if attack.type is not CardType.DAMAGE or attack.has(EffectKind.LOCK):
                continue
            for side, kind, reach in rules._sides[attack_code]:
                ray = hexgrid.ray(CENTRE, (NORTH + side) % 6, rules.radius)
                far = reach + effect.amount
                if kind is not RangeKind.AREA or far > len(ray):
                    continue
                state = self.position(rules, {0: CENTRE, 1: ray[far - 1]}, (attack_code,))
                state.seats[0].display = ((code, UP),)
                after = self.play(rules, state, attack.id)
                if isinstance(after, str) or len(after.seats[1].life) == 10:
                    return f"face up, it does not let {attack.name} reach {far} hexes"
                return None
        return None

    def dash(self, card: Card, effect: Effect) -> str | None:
        offered: list[Action] = []

        def look(state: ArenaState, actions: list[Action]) -> Action:
            if isinstance(actions[0], Dash):
                offered.extend(actions)
            return actions[0]

        done = self.triggered(card, effect, pick=look)
        if isinstance(done, str):
            return done
        room = min(effect.amount, self.duel.radius)
        if offered != [Dash(k) for k in range(room + 1)]:
            return f"with {room} free hexes ahead the engine offers {[str(a) for a in offered]}"
        return None

    def life(self, card: Card, effect: Effect) -> str | None:
        model = self.model
        owner = next((c for c in model.characters if model.talent_of(c) == card), None)
        if owner is None:
            return None
        other = next(c for c in model.characters if c is not owner)
        rules = ArenaTalesRules(model, self.duel.players, [owner.id, other.id])
        state = rules.initial_state(random.Random(0))
        state = self.resolve(rules, state, _keep_talent)
        expected = model.settings.life + effect.amount
        if (card.id in [rules.tokens[c] for c, f in state.seats[0].display if f == UP]) and len(
            state.seats[0].life
        ) == expected:
            return None
        return f"a player who starts with it has {len(state.seats[0].life)} life"

    # -- the rule keywords printed as prose ------------------------------------------------

    def rule_phrases(self) -> dict[str, Probe]:
        adjacent = partial(self.no_step_next_to_an_enemy)
        return {
            "贴着敌人": adjacent,
            "更靠近至少一名敌人": partial(self.closer, every=False),
            "更靠近每一名敌人": partial(self.closer, every=True),
            "没有倒放就翻到失控面": self.calm_turn_goes_wild,
            "翻回理智面": self.damage_calms,
            "只有进入或离开方位点时，棋子才可以转向": self.turns_at_points,
            "用不用": self.talent_is_a_choice,
            "由你选择目标展示区": self.see_through_is_chosen,
            "识破则由使用者挑选": self.see_through_is_chosen,
        }

    def see_through_is_chosen(self) -> str | None:
        """识破 X with more face-down cards than X: its user is offered every one of them."""
        found = [
            (card, e)
            for card in self.model.cards
            for e in card.effects
            if e.kind is EffectKind.SEE_THROUGH and e.amount and e.timing in _ACTIVE_TIMINGS
        ]
        if not found:
            return None
        card, effect = found[0]
        return self.about(card, partial(self._offers_each_card, card, effect))()

    def _offers_each_card(self, card: Card, effect: Effect) -> str | None:
        offered: list[list[Action]] = []
        many = effect.amount + 2
        life = self.fill.life

        def look(state: ArenaState, actions: list[Action]) -> Action:
            if isinstance(actions[0], Reveal):
                offered.append(actions)
            return actions[0]

        def hidden(state: ArenaState, owner: int, target: int) -> None:
            state.seats[target].display = ((life, DOWN),) * many

        done = self.triggered(card, effect, hidden, look)
        if isinstance(done, str):
            return done
        if not offered or len(offered[0]) < many:
            return f"{card.name} turns cards up with no choice ({[str(a) for a in offered]})"
        return None

    def talent_is_a_choice(self) -> str | None:
        """At the start every player with a talent chooses to use it or not; one who does
        not has it in the deck and settings.life cards of life."""
        model = self.model
        for character in model.characters:
            talent = model.talent_of(character)
            if talent is None:
                continue
            other = next(c for c in model.characters if c is not character)
            rules = ArenaTalesRules(model, self.duel.players, [character.id, other.id])
            state = rules.initial_state(random.Random(0))
            choices = rules.legal_actions(state)
            if rules.current_player(state) != 0 or set(choices) != {Talent(True), Talent(False)}:
                return f"a player with {talent.name} is offered {[str(a) for a in choices]}"
            after = self.resolve(rules, rules.apply(state, Talent(False)), _keep_talent)
            seat = after.seats[0]
            code = rules._by_token[talent.id]
            if code in [c for c, _ in seat.display] or len(seat.life) != model.settings.life:
                return f"a player who does not use {talent.name} still has it or its life"
        return None

    def _wild(self, rules: ArenaTalesRules, places: dict[int, hexgrid.Hex]) -> ArenaState:
        state = self.position(rules, places)
        state.seats[0].sane = False
        return state

    def no_step_next_to_an_enemy(self) -> str | None:
        """Out of control, next to an enemy: no discard-move at all, on every table size."""
        for players, rules in self.tables.items():
            enemies = rules.enemies(0)
            places = {0: CENTRE, enemies[0]: hexgrid.neighbour(CENTRE, NORTH)}
            if len(enemies) > 1:
                places[enemies[1]] = self.parking[-1]
            state = self._wild(rules, places)
            moves = [a for a in rules.legal_actions(state) if isinstance(a, Move)]
            if moves:
                return (
                    f"in a {players}-player game the engine lets an out-of-control player next "
                    f"to an enemy discard-move ({moves[0]})"
                )
        return None

    def closer(self, every: bool) -> str | None:
        """Out of control, every discard-move ends closer to each enemy (``every``) or to
        some enemy; with enemies on both sides, a step towards one alone is (not) offered."""
        for players, rules in self.tables.items():
            enemies = rules.enemies(0)
            places = {0: CENTRE, enemies[0]: hexgrid.neighbour(CENTRE, NORTH, 3)}
            if len(enemies) > 1:
                places[enemies[1]] = hexgrid.neighbour(CENTRE, 3, 3)  # due south
            state = self._wild(rules, places)
            for move in (a for a in rules.legal_actions(state) if isinstance(a, Move)):
                ahead = hexgrid.neighbour(CENTRE, move.direction)
                nearer = [
                    hexgrid.distance(ahead, state.seats[e].pos)
                    < hexgrid.distance(CENTRE, state.seats[e].pos)
                    for e in enemies
                ]
                if not (all(nearer) if every else any(nearer)):
                    return f"in a {players}-player game the engine offers {move}"
            if len(enemies) > 1:
                offered = any(isinstance(a, Move) for a in rules.legal_actions(state))
                if offered == every:
                    return f"in a {players}-player game, between two enemies, the engine " + (
                        "still offers a step" if every else "offers no step"
                    )
        return None

    def calm_turn_goes_wild(self) -> str | None:
        rules = self.duel
        state = self.position(rules, {0: CENTRE, 1: self.parking[0]})
        state.seats[0].hand = (self.fill.hand,)
        moves = [a for a in rules.legal_actions(state) if isinstance(a, Move)]
        after = self.resolve(rules, rules.apply(state, moves[0]))
        if after.seats[0].sane:
            return "a turn that dealt no damage ends with the card still showing 理智"
        return None

    def damage_calms(self) -> str | None:
        rules = self.duel
        plain = self._plain_attack()
        if plain is None:
            return None
        spot = self.aim(rules, plain)
        assert spot is not None
        state = self.position(rules, {0: CENTRE, 1: spot}, (plain,))
        state.seats[0].sane = False
        after = self.play(rules, state, rules.tokens[plain])
        if isinstance(after, str):
            return after
        if not after.seats[0].sane:
            return "dealing damage leaves the card showing 失控"
        return None

    def turns_at_points(self) -> str | None:
        rules = self.duel
        point = min(rules.points)
        for direction in range(6):
            start = hexgrid.neighbour(point, (direction + 3) % 6)
            if start not in rules._floor or start in rules.points:
                continue
            state = self.position(rules, {0: start, 1: self.parking[0]})
            moves = [a for a in rules.legal_actions(state) if isinstance(a, Move)]
            into = {m.facing for m in moves if m.direction == direction}
            elsewhere = {
                m.facing for m in moves if hexgrid.neighbour(start, m.direction) not in rules.points
            }
            if into != set(range(6)):
                return f"a step into an orientation point may face {sorted(into)} only"
            if elsewhere - {NORTH}:
                return "a step between two plain hexes may turn the piece"
            return None
        return None


def _keep_talent(state: ArenaState, actions: list[Action]) -> Action:
    return actions[0]
