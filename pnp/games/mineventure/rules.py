"""MineVenture as a plain rules library: every number and card comes from the model.

The rules of the post (shared/seeds/003_d2668811a13e6a3c.txt) and this edition's decisions
(content/mineventure/game.yaml `decisions`, cited by id where the code encodes them):

- Setup: spawn points are chosen in counter-clockwise seat order from seat 0 (0, n-1, ..., 1);
  then each seat in order draws `opening_equipment` equipment cards (equipped at once) and
  `opening_items` item cards (decision turn-order).
- A round: seats 0..n-1 each play their action, decision and end phase. Action: skip, or roll
  the die and move exactly the roll (plus stride bonuses, at least 1) in up to two directions
  that are not opposite, first `n1` cells one way then the rest at a right angle (decision
  movement); a player on the path may be attacked there, which ends the move on their cell
  without a tile reward (decision battle-on-path). Landing: landing damage, then the tile's
  draw unless another player already stands there.
- Drawn equipment/partners may be kept (replacing the old card, which goes to its deck's
  bottom) or returned to the bottom (decision drawn-field-cards). Events resolve at once.
- Decision phase: play any hand cards, declare one battle on a player (or the dragon) in range,
  or end. End phase: discard down to the hand limit.
- Combat (at most `combat_rounds` rounds): an ambush first round when the defender's range does
  not reach the attacker (Manhattan distance); then each round the attacker and the defender
  declare a weapon, one hand card or a flee; both resolve at once, each hit on its own.
- Round end: story damage, the dragon's breath, buffs tick; time moves half a day, and after
  the night everyone heals `daily_heal`.

Chance is explicit: a die roll is ``die:<n>`` and a draw is ``draw:<card>``. Each deck is a
multiset pile (uniformly random draws), an ordered bottom (field cards put back, drawn in
order once the pile is empty) and a discard pile (hand cards, shuffled back when both are
empty).
"""

from __future__ import annotations

import copy
import enum
import json
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field, fields
from typing import Any

from pnp.engines.base import (
    Declaration,
    InvariantViolation,
    Outcome,
    Policy,
    RandomPolicy,
    Rules,
    play_game,
)
from pnp.engines.piles import with_card as _insert
from pnp.engines.piles import without as _remove
from pnp.errors import IllegalActionError
from pnp.games.mineventure.model import (
    BuffClass,
    DamageType,
    EffectKind,
    Equipment,
    Event,
    Food,
    Item,
    ItemKind,
    Mineventure,
    Partner,
    Rounding,
    Slot,
    Target,
    Trait,
)

SLUG = "mineventure"

TURN_CAP = 300
"""Rounds after which a simulation stops a game and reports a cap hit. The story event comes
into play by day `story_day` at the latest and then bleeds every overworld player each round,
so natural games end far sooner; a cap hit means a stuck policy or an engine bug."""

DRAGON = -1
"""The dragon's seat number in combat and in action arguments ('dragon' in text)."""

DIRECTIONS = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


class Mode(enum.Enum):
    """The map a table plays on."""

    MAP_24 = "map-24"
    MAP_32 = "map-32"


class Termination(enum.Enum):
    DRAGON_SLAIN = "dragon_slain"
    """The Ender Dragon fell: every living player who damaged it wins."""
    LAST_STANDING = "last_standing"
    """Only one player is left alive."""
    ALL_DEAD = "all_dead"
    """The last players died together: nobody wins (decision everyone-dead)."""


@dataclass(frozen=True, slots=True)
class Act:
    """Any action: ``kind`` plus up to two arguments; its text is ``kind:a@b``."""

    kind: str
    a: str = ""
    b: str = ""

    def __str__(self) -> str:
        text = self.kind
        if self.a:
            text += f":{self.a}"
        if self.b:
            text += f"@{self.b}"
        return text

    @classmethod
    def parse(cls, text: str) -> Act:
        kind, _, rest = text.partition(":")
        a, _, b = rest.partition("@")
        if not kind or not kind.isalpha() or (b and not a):
            raise ValueError(f"invalid {SLUG} action {text!r}")
        return cls(kind, a, b)


# -- state -------------------------------------------------------------------------------


@dataclass(slots=True)
class Player:
    """One seat. Every field is an int, a tuple or None, so a shallow copy is a real copy."""

    x: int = -1
    y: int = -1
    hp: int = 0
    alive: bool = True
    character: int = 0
    main: int = -1
    main_dur: int = 0
    main_ench: tuple[int, ...] = ()
    sub: int = -1
    sub_dur: int = 0
    sub_ench: tuple[int, ...] = ()
    armour: int = -1
    partner: int = -1
    buffs: tuple[tuple[int, int, int] | None, ...] = ()
    """Per buff slot: (buff index, rounds left (0: lasting), stamp of when it came) or None."""
    hand: tuple[int, ...] = ()
    killed: bool = False
    """Killed a player this round (exempt from the story damage)."""
    fled: bool = False
    """Tried to flee this round (once per round)."""
    skip: bool = False
    """Fled as a defender this round: goes straight to the end phase on their turn."""
    hit_dragon: bool = False


@dataclass(slots=True)
class Combat:
    attacker: int
    defender: int  # DRAGON for the dragon
    round: int = 1
    ambush: bool = False
    declared: tuple[str, ...] = ()
    """Declarations of this round so far: attacker's first, then the defender's."""
    fleeing: int = -2
    """The seat whose flee roll is due (a chance step); -2 when none."""
    on_path: bool = False


@dataclass(slots=True)
class MineventureState:
    players: tuple[Player, ...]
    piles: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    """Per deck (model order): (draw pile as a sorted multiset, ordered bottom, discard)."""
    phase: str
    seat: int
    round: int = 0
    day: int = 0
    night: bool = False
    story: int = -1
    dragon_hp: int = 0
    roll: int = 0
    queue: tuple[tuple[int, int, str], ...] = ()
    """Draws due: (seat, deck index, why: 'open', 'land', 'card')."""
    spawn_order: tuple[int, ...] = ()
    drawn: int = -1
    """A field card drawn and waiting for keep or return."""
    drawn_by: int = -1
    """The seat that drew it and chooses."""
    resume: str = ""
    """The phase to go to when the draws and choices in progress are done."""
    combat: Combat | None = None
    loot: tuple[int, int] = (-1, -1)
    """(killer, victim) while the killer picks an equipment card."""
    stamp: int = 0
    ended: str = ""
    winners: tuple[int, ...] = ()


_PLAYER_FIELDS = tuple(f.name for f in fields(Player))
_STATE_FIELDS = tuple(f.name for f in fields(MineventureState))


def _copy_player(p: Player) -> Player:
    return Player(*[getattr(p, name) for name in _PLAYER_FIELDS])


def _clone(state: MineventureState) -> MineventureState:
    """A copy the rules may change: every field is immutable except the players and combat."""
    new = MineventureState(*[getattr(state, name) for name in _STATE_FIELDS])
    new.players = tuple(_copy_player(p) for p in state.players)
    if state.combat is not None:
        new.combat = copy.copy(state.combat)
    return new


# -- rules --------------------------------------------------------------------------------


class MineventureRules:
    """The rules of MineVenture for one table: ``Rules[MineventureState, Act]``."""

    slug = SLUG

    def __init__(self, model: Mineventure, players: int, mode: Mode | str | None = None) -> None:
        self.model = model
        self.players = players
        s = model.settings
        self.settings = s
        if players not in model.info.players:
            raise ValueError(f"{SLUG} plays with {model.info.players} players, not {players}")
        if mode is None:
            candidates = [a for a in model.assemblies if players in a.players]
            if not candidates:
                raise ValueError(f"no map is for {players} players")
            assembly = candidates[0]
        else:
            wanted = mode.value if isinstance(mode, Mode) else mode
            found = [a for a in model.assemblies if a.id == wanted]
            if not found:
                raise ValueError(f"no map {wanted!r}")
            assembly = found[0]
            if players not in assembly.players:
                raise ValueError(f"map {assembly.id} is for {assembly.players} players")
        self.assembly = assembly
        self.size = assembly.size
        self.terrain: dict[tuple[int, int], Any] = {
            (x, y): t for x, y, t in model.assembly_cells(assembly)
        }
        self.spawns = tuple(model.assembly_spawns(assembly))
        dragons = model.assembly_dragons(assembly)
        if len(dragons) != 1:
            raise ValueError(f"map {assembly.id} has {len(dragons)} dragons, needs 1")
        self.dragon_at = dragons[0]
        if len(self.spawns) < players:
            raise ValueError(f"map {assembly.id} has {len(self.spawns)} spawn points")
        if s.max_hp % s.hp_per_heart:
            raise ValueError(f"max_hp {s.max_hp} is not a whole number of hearts")
        if s.kill_equipment not in (0, 1):
            raise ValueError("a killer takes 0 or 1 equipment card")
        if s.rounds_per_day < 1:
            raise ValueError("a day needs at least one round")
        if len(model.characters) < players:
            raise ValueError(f"{len(model.characters)} characters cannot seat {players}")

        # The card table: every card of every deck; a card's token is its id.
        self.decks = [deck.id for deck in model.decks]
        self.deck_index = {deck_id: i for i, deck_id in enumerate(self.decks)}
        self.cards: list[Any] = []
        self.card_deck: list[int] = []
        start: list[list[int]] = [[] for _ in self.decks]
        for collection in (model.equipment, model.partners, model.events, model.items, model.food):
            for card in collection:
                deck_id = model.deck_of(card)
                if deck_id not in self.deck_index:
                    raise ValueError(f"card {card.id!r} belongs to unknown deck {deck_id!r}")
                code = len(self.cards)
                self.cards.append(card)
                self.card_deck.append(self.deck_index[deck_id])
                start[self.deck_index[deck_id]].extend([code] * card.copies)
        self.tokens = [card.id for card in self.cards]
        self.by_token = {token: code for code, token in enumerate(self.tokens)}
        if len(self.by_token) != len(self.tokens):
            raise ValueError("card ids are not unique across the decks")
        self._start = tuple((tuple(sorted(cards)), (), ()) for cards in start)
        for deck_id, need in (("equipment", s.opening_equipment), ("item", s.opening_items)):
            if deck_id not in self.deck_index:
                raise ValueError(f"setup draws from deck {deck_id!r}, which does not exist")
            if len(start[self.deck_index[deck_id]]) < need * players:
                raise ValueError(f"deck {deck_id!r} cannot deal {need} to {players} players")
        self.buffs = list(model.buffs)
        self.buff_index = {buff.id: i for i, buff in enumerate(model.buffs)}
        self.slots = [tuple(slot.accepts) for slot in model.buff_slots]
        self.legendary = self.deck_index.get("legendary", -1)
        self.event_deck = self.deck_index.get("event", -1)
        self._last: tuple[object, list[Act]] = (None, [])
        self.story_cards = [
            code
            for code, card in enumerate(self.cards)
            if isinstance(card, Event) and card.effect.kind is EffectKind.STORY
        ]

    # -- the protocol --------------------------------------------------------------------

    @property
    def num_players(self) -> int:
        return self.players

    def initial_state(self, rng: random.Random) -> MineventureState:
        # Setup: characters dealt at random (each player would pick theirs); HP full.
        chars = list(range(len(self.model.characters)))
        rng.shuffle(chars)
        players = tuple(
            Player(
                hp=self.settings.max_hp,
                character=chars[seat],
                buffs=(None,) * len(self.slots),
            )
            for seat in range(self.players)
        )
        # Spawn points are chosen counter-clockwise from seat 0 (decision turn-order).
        order = (0, *range(self.players - 1, 0, -1))
        return MineventureState(
            players=players,
            piles=self._start,
            phase="spawn",
            seat=0,
            dragon_hp=self.model.dragon.hp,
            spawn_order=order,
        )

    def current_player(self, state: MineventureState) -> int | None:
        if state.ended or self.is_chance(state):
            return None
        if state.phase == "combat":
            assert state.combat is not None
            c = state.combat
            return c.attacker if not c.declared else c.defender
        if state.phase == "loot":
            return state.loot[0]
        if state.phase == "keep":
            return state.drawn_by
        if state.phase == "spawn":
            return state.spawn_order[0]
        return state.seat

    def is_chance(self, state: MineventureState) -> bool:
        if state.ended:
            return False
        if state.queue and state.drawn < 0 and state.phase not in ("loot",):
            return True
        if state.phase == "rolling":
            return True
        return state.phase == "combat" and state.combat is not None and state.combat.fleeing > -2

    def is_terminal(self, state: MineventureState) -> bool:
        return bool(state.ended)

    def turns(self, state: MineventureState) -> int:
        return state.round

    def outcome(self, state: MineventureState) -> Outcome:
        if not state.ended:
            raise ValueError(f"game not over: {self.notation(state)}")
        return Outcome(frozenset(state.winners), Termination(state.ended))

    def chance_outcomes(self, state: MineventureState) -> list[tuple[Act, float]]:
        if not self.is_chance(state):
            return []
        if state.phase == "rolling" or state.phase == "combat":
            sides = self.settings.die_sides
            return [(Act("die", str(n)), 1 / sides) for n in range(1, sides + 1)]
        _, deck, _ = state.queue[0]
        pile, bottom, discard = state.piles[deck]
        source = pile or (() if bottom else discard)
        if not source:
            return [(Act("draw", self.tokens[bottom[0]]), 1.0)]
        counts = Counter(source)
        return [(Act("draw", self.tokens[c]), k / len(source)) for c, k in sorted(counts.items())]

    def sample_chance(self, state: MineventureState, rng: random.Random) -> Act:
        outcomes = self.chance_outcomes(state)
        if not outcomes:
            raise ValueError(f"not a chance step: {self.notation(state)}")
        if state.phase in ("rolling", "combat"):
            return outcomes[int(rng.random() * len(outcomes))][0]
        _, deck, _ = state.queue[0]
        pile, bottom, discard = state.piles[deck]
        source = pile or (() if bottom else discard)
        if not source:
            return outcomes[0][0]
        return Act("draw", self.tokens[source[int(rng.random() * len(source))]])

    def legal_actions(self, state: MineventureState) -> list[Act]:
        # States are values: the answer for the state last asked about is kept (apply asks
        # again for the action a policy just chose from the same list).
        cached_state, cached = self._last
        if cached_state is state:
            return cached
        actions = self._legal_actions(state)
        self._last = (state, actions)
        return actions

    def _legal_actions(self, state: MineventureState) -> list[Act]:
        if state.ended:
            return []
        if self.is_chance(state):
            return [action for action, _ in self.chance_outcomes(state)]
        phase = state.phase
        if phase == "spawn":
            taken = {(p.x, p.y) for p in state.players}
            return [Act("spawn", str(i)) for i, at in enumerate(self.spawns) if at not in taken]
        if phase == "keep":
            return [Act("keep"), Act("return")]
        if phase == "action":
            return [Act("skip"), Act("roll")]
        if phase == "move":
            return self._moves(state)
        if phase == "decision":
            return self._decisions(state)
        if phase == "end":
            me = state.players[state.seat]
            if len(me.hand) > self.hand_limit(state, state.seat):
                return [Act("discard", self.tokens[c]) for c in sorted(set(me.hand))]
            return [Act("end")]
        if phase == "combat":
            return self._combat_actions(state)
        if phase == "loot":
            victim = state.players[state.loot[1]]
            return [
                Act("loot", name)
                for name, code in (
                    ("main", victim.main),
                    ("sub", victim.sub),
                    ("armour", victim.armour),
                )
                if code >= 0
            ]
        return []  # pragma: no cover

    def apply(self, state: MineventureState, action: Any) -> MineventureState:
        if not isinstance(action, Act) or action not in self.legal_actions(state):
            raise IllegalActionError(f"illegal action {action!r} in {self.notation(state)}")
        new = _clone(state)
        kind = action.kind
        if kind == "spawn":
            seat = new.spawn_order[0]
            x, y = self.spawns[int(action.a)]
            self._set(new, seat, x=x, y=y)
            new.spawn_order = new.spawn_order[1:]
            if not new.spawn_order:
                # Opening cards: each seat in order, equipment first (equipped at once).
                s = self.settings
                eq, it = self.deck_index["equipment"], self.deck_index["item"]
                new.queue = tuple(
                    entry
                    for seat_ in range(self.players)
                    for entry in [(seat_, eq, "open")] * s.opening_equipment
                    + [(seat_, it, "open")] * s.opening_items
                )
                new.phase = "deal"
                new.resume = "start"
                self._settle(new)
        elif kind == "die":
            self._die(new, int(action.a))
        elif kind == "draw":
            self._draw(new, self.by_token[action.a])
        elif kind in ("keep", "return"):
            self._keep(new, kind == "keep")
        elif kind == "skip":
            new.phase = "decision"
        elif kind == "roll":
            new.phase = "rolling"
        elif kind == "move":
            self._move(new, action)
        elif kind == "play":
            self._play(new, new.seat, self.by_token[action.a], action.b, None)
            self._check_end(new)
        elif kind == "fight":
            target = DRAGON if action.a == "dragon" else int(action.a)
            self._start_combat(new, new.seat, target, on_path=False)
        elif kind == "discard":
            self._discard_card(new, new.seat, self.by_token[action.a])
        elif kind == "end":
            self._end_turn(new)
        elif kind in ("strike", "use", "flee"):
            self._declare(new, action)
        elif kind == "loot":
            self._loot(new, action.a)
        return new

    # -- derived numbers -------------------------------------------------------------------

    def _effects(self, state: MineventureState, seat: int) -> list[Any]:
        """Every effect working on a seat: character ability, partner, buffs in slots."""
        p = state.players[seat]
        out = [self.model.characters[p.character].ability]
        if p.partner >= 0:
            out.append(self.cards[p.partner].effect)
        for entry in p.buffs:
            if entry is not None:
                out.append(self.buffs[entry[0]].effect)
        return out

    def _bonus(self, state: MineventureState, seat: int, kind: EffectKind) -> int:
        return sum(e.amount for e in self._effects(state, seat) if e.kind is kind)

    def _has(self, state: MineventureState, seat: int, kind: EffectKind) -> Any:
        return next((e for e in self._effects(state, seat) if e.kind is kind), None)

    def hand_limit(self, state: MineventureState, seat: int) -> int:
        return self.settings.hand_limit + self._bonus(state, seat, EffectKind.PACK)

    def weapon_range(self, state: MineventureState, seat: int, slot: str) -> int:
        """Range of one weapon slot with its enchants; -1 when it cannot attack."""
        p = state.players[seat]
        code = p.main if slot == "main" else p.sub
        if code < 0 or self.cards[code].damage <= 0:
            return -1
        enchants = p.main_ench if slot == "main" else p.sub_ench
        extra = sum(
            self.cards[e].effect.amount
            for e in enchants
            if self.cards[e].effect.kind is EffectKind.EXTEND_RANGE
        )
        return self.cards[code].range + extra

    def attack_range(self, state: MineventureState, seat: int) -> int:
        """The larger weapon range, or the bare-handed one (decision attack-range)."""
        if seat == DRAGON:
            return self.model.dragon.range
        best = max(self.weapon_range(state, seat, "main"), self.weapon_range(state, seat, "sub"))
        base = best if best >= 0 else self.settings.unarmed_range
        return base + self._bonus(state, seat, EffectKind.GLOWING)

    def reach(self, state: MineventureState, seat: int, target: int) -> int:
        """How far `seat` can attack `target`: a glowing target is seen from further away."""
        glow = self._bonus(state, target, EffectKind.GLOWING) if target != DRAGON else 0
        return self.attack_range(state, seat) + glow

    def position(self, state: MineventureState, seat: int) -> tuple[int, int]:
        if seat == DRAGON:
            return self.dragon_at
        p = state.players[seat]
        return (p.x, p.y)

    def distance(self, state: MineventureState, a: int, b: int) -> int:
        """Manhattan distance: the sum of the X and Y distances (the post's ambush rule)."""
        (ax, ay), (bx, by) = self.position(state, a), self.position(state, b)
        return abs(ax - bx) + abs(ay - by)

    def living(self, state: MineventureState) -> list[int]:
        return [seat for seat, p in enumerate(state.players) if p.alive]

    # -- movement -------------------------------------------------------------------------

    def _moves(self, state: MineventureState) -> list[Act]:
        me = state.players[state.seat]
        steps = state.roll
        out: list[Act] = []
        others = {
            (p.x, p.y): seat
            for seat, p in enumerate(state.players)
            if p.alive and seat != state.seat
        }
        for first in "NESW":
            for n1 in range(steps, 0, -1):
                seconds = (
                    [first]
                    if n1 == steps
                    else [d for d in "NESW" if d not in (first, OPPOSITE[first])]
                )
                for second in seconds:
                    path = self._path(me.x, me.y, first, n1, second, steps - n1)
                    if path is None:
                        continue
                    code = f"{first}{n1}{second}{steps - n1}" if n1 < steps else f"{first}{n1}"
                    out.append(Act("move", code))
                    # Battle on the path: stop on that player's (or the dragon's) cell.
                    for cell in path:
                        if cell in others:
                            out.append(Act("move", code, str(others[cell])))
                        if cell == self.dragon_at and state.dragon_hp > 0:
                            out.append(Act("move", code, "dragon"))
        return list(dict.fromkeys(out))

    def _path(
        self, x: int, y: int, first: str, n1: int, second: str, n2: int
    ) -> list[tuple[int, int]] | None:
        cells = []
        for direction, n in ((first, n1), (second, n2)):
            dx, dy = DIRECTIONS[direction]
            for _ in range(n):
                x, y = x + dx, y + dy
                if (x, y) not in self.terrain:
                    return None  # the move may not leave the map
                cells.append((x, y))
        return cells

    def _move(self, new: MineventureState, action: Act) -> None:
        code = action.a
        first, rest = code[0], code[1:]
        digits = "".join(ch for ch in rest if ch.isdigit())
        if len(rest) > len(digits):
            index = next(i for i, ch in enumerate(rest) if not ch.isdigit())
            n1, second, n2 = int(rest[:index]), rest[index], int(rest[index + 1 :])
        else:
            n1, second, n2 = int(rest), first, 0
        me = new.players[new.seat]
        path = self._path(me.x, me.y, first, n1, second, n2)
        assert path is not None
        if action.b:
            target = DRAGON if action.b == "dragon" else int(action.b)
            stop = self.position(new, target)
            self._set(new, new.seat, x=stop[0], y=stop[1])
            # Decision battle-on-path: the mover stops there, no tile reward, then fights.
            self._start_combat(new, new.seat, target, on_path=True)
            return
        x, y = path[-1]
        occupied = any(
            p.alive and (p.x, p.y) == (x, y) for s, p in enumerate(new.players) if s != new.seat
        )
        self._set(new, new.seat, x=x, y=y)
        terrain = self.terrain[(x, y)]
        new.phase = "decision"
        if terrain.landing_damage:
            self._true_damage(new, new.seat, terrain.landing_damage)
            if self._check_end(new) or not new.players[new.seat].alive:
                if not new.ended:
                    self._next_seat(new)
                return
        # A later arrival on an occupied cell gets no tile reward.
        if terrain.draws and not occupied:
            new.queue = ((new.seat, self.deck_index[terrain.draws], "land"),)
            new.resume = "decision"
            self._settle(new)

    def _die(self, new: MineventureState, value: int) -> None:
        if new.phase == "rolling":
            # Movement: the roll plus stride bonuses, at least 1 (decision movement).
            bonus = self._bonus(new, new.seat, EffectKind.STRIDE)
            new.roll = max(1, value + bonus)
            new.phase = "move"
            if not self._moves(new):
                new.phase = "decision"
            return
        combat = new.combat
        assert combat is not None
        seat = combat.fleeing
        combat.fleeing = -2
        s = self.settings
        # Flee: roll − 1 (at least 1), success if it beats the opponent's attack range.
        score = max(s.flee_floor, value - s.flee_penalty) + self._bonus(
            new, seat, EffectKind.NIMBLE
        )
        opponent = combat.defender if seat == combat.attacker else combat.attacker
        if score > self.attack_range(new, opponent):
            if seat == combat.defender:
                self._set(new, seat, skip=True)
            self._finish_combat(new)
            return
        combat.declared = (*combat.declared, "fled")
        self._after_declaration(new)

    # -- draws ----------------------------------------------------------------------------

    def _take(self, new: MineventureState, deck: int, code: int) -> None:
        pile, bottom, discard = new.piles[deck]
        if pile:
            pile = _remove(pile, code)
        elif bottom:
            bottom = bottom[1:]
        else:
            # A hand deck ran out: its discards become the new pile (decision hand-decks).
            pile, discard = _remove(discard, code), ()
        piles = list(new.piles)
        piles[deck] = (pile, bottom, discard)
        new.piles = tuple(piles)

    def _put_back(self, new: MineventureState, code: int) -> None:
        """A card leaves play: field cards to their deck's bottom, hand cards to its discards."""
        deck = self.card_deck[code]
        pile, bottom, discard = new.piles[deck]
        if self._is_field(code):
            bottom = (*bottom, code)
        else:
            discard = _insert(discard, code)
        piles = list(new.piles)
        piles[deck] = (pile, bottom, discard)
        new.piles = tuple(piles)

    def _is_field(self, code: int) -> bool:
        return isinstance(self.cards[code], (Equipment, Partner, Event))

    def _draw(self, new: MineventureState, code: int) -> None:
        seat, deck, why = new.queue[0]
        new.queue = new.queue[1:]
        self._take(new, deck, code)
        card = self.cards[code]
        if isinstance(card, (Item, Food)):
            self._set(new, seat, hand=_insert(new.players[seat].hand, code))
        elif isinstance(card, Equipment) and why == "open":
            self._equip(new, seat, code)
        elif isinstance(card, (Equipment, Partner)):
            new.drawn, new.drawn_by = code, seat
            new.phase = "keep"
            return
        else:
            self._event(new, seat, code)
            if self._check_end(new):
                return
        self._settle(new)

    def _settle(self, new: MineventureState) -> None:
        """Skip draws from empty decks and dead players; when none is due, resume."""
        while new.queue:
            seat, deck, _ = new.queue[0]
            if new.players[seat].alive and any(new.piles[deck]):
                return
            new.queue = new.queue[1:]
        if new.drawn >= 0:
            return
        resume, new.resume = new.resume, ""
        if resume == "start":
            self._start_turn(new, 0)
        elif resume == "decision":
            if new.players[new.seat].alive:
                new.phase = "decision"
            else:
                self._next_seat(new)
        elif resume == "combat-end":
            self._finish_combat(new)
        elif resume == "combat":
            c = new.combat
            assert c is not None
            alive = new.players[c.attacker].alive and (
                c.defender == DRAGON or new.players[c.defender].alive
            )
            if alive:
                new.phase = "combat"
            else:
                self._finish_combat(new)
        elif resume:
            new.phase = resume

    def _keep(self, new: MineventureState, keep: bool) -> None:
        code, seat = new.drawn, new.drawn_by
        new.drawn = new.drawn_by = -1
        if keep:
            if isinstance(self.cards[code], Partner):
                # A new partner replaces the old one, which goes to its deck's bottom.
                old = new.players[seat].partner
                if old >= 0:
                    self._put_back(new, old)
                self._set(new, seat, partner=code)
            else:
                self._equip(new, seat, code)
        else:
            self._put_back(new, code)
        new.phase = "deal"
        self._settle(new)

    def _equip(
        self,
        new: MineventureState,
        seat: int,
        code: int,
        durability: int = -1,
        enchants: tuple[int, ...] = (),
    ) -> None:
        """Equip a card; the old one in its slot leaves play (new equipment replaces old)."""
        card: Equipment = self.cards[code]
        p = new.players[seat]
        dur = card.durability if durability < 0 else durability
        if card.slot is Slot.ARMOUR:
            if p.armour >= 0:
                self._put_back(new, p.armour)
            self._set(new, seat, armour=code)
        elif card.slot is Slot.MAIN_WEAPON:
            self._drop_weapon(new, seat, "main")
            self._set(new, seat, main=code, main_dur=dur, main_ench=enchants)
        else:
            self._drop_weapon(new, seat, "sub")
            self._set(new, seat, sub=code, sub_dur=dur, sub_ench=enchants)

    def _drop_weapon(self, new: MineventureState, seat: int, slot: str) -> None:
        p = new.players[seat]
        code = p.main if slot == "main" else p.sub
        if code < 0:
            return
        # Decision broken-weapon: the weapon to its deck's bottom, its books to the discards.
        self._put_back(new, code)
        for book in p.main_ench if slot == "main" else p.sub_ench:
            self._put_back(new, book)
        if slot == "main":
            self._set(new, seat, main=-1, main_dur=0, main_ench=())
        else:
            self._set(new, seat, sub=-1, sub_dur=0, sub_ench=())

    def _event(self, new: MineventureState, seat: int, code: int) -> None:
        effect = self.cards[code].effect
        if effect.kind is EffectKind.STORY:
            if new.story < 0:
                # A story event stays in play until the game ends (decision story-damage).
                new.story = code
                return
        else:
            self._resolve(new, seat, effect, None, code)
        self._put_back(new, code)

    # -- effects --------------------------------------------------------------------------

    def _resolve(
        self, new: MineventureState, seat: int, effect: Any, other: int | None, source: int
    ) -> None:
        """Resolve a card's effect for `seat` (`other`: the player it is aimed at, if any)."""
        kind = effect.kind
        if kind is EffectKind.HEAL:
            self._heal(new, seat, effect.amount)
        elif kind is EffectKind.DAMAGE:
            victims = (
                [s for s in self.living(new) if self._overworld(new, s)]
                if effect.target is Target.ALL
                else [seat if effect.target is Target.SELF else other]
            )
            for victim in victims:
                if victim is not None:
                    self._hit(new, victim, effect.amount, effect.types, blocking=False)
            self._deaths(new, killer=None)
        elif kind in (EffectKind.DRAW, EffectKind.LEGENDARY):
            deck = self.legendary if kind is EffectKind.LEGENDARY else self.deck_index[effect.deck]
            new.queue = (*new.queue, *[(seat, deck, "card")] * effect.count)
        elif kind is EffectKind.REPAIR:
            self._repair(new, seat, effect.amount)
        elif kind is EffectKind.CLEANSE:
            buffs = tuple(
                None if e is not None and self.buffs[e[0]].cls is BuffClass.NEGATIVE else e
                for e in new.players[seat].buffs
            )
            self._set(new, seat, buffs=buffs)
        elif kind is EffectKind.BUFF:
            target = seat if effect.target is Target.SELF else other
            if target is not None and target != DRAGON:
                self.give_buff(new, target, self.buff_index[effect.buff])

    def _repair(self, new: MineventureState, seat: int, amount: int) -> None:
        p = new.players[seat]
        # Repair the weapon that has lost the most durability.
        options = [
            (self.cards[code].durability - dur, slot)
            for slot, code, dur in (("main", p.main, p.main_dur), ("sub", p.sub, p.sub_dur))
            if code >= 0
        ]
        if not options:
            return
        _, slot = max(options)
        if slot == "main":
            self._set(new, seat, main_dur=p.main_dur + amount)
        else:
            self._set(new, seat, sub_dur=p.sub_dur + amount)

    def give_buff(self, new: MineventureState, seat: int, buff: int) -> None:
        """Put a buff in a slot (decision buff-slots): the same buff refreshes; else the first
        free slot that takes its class; else it replaces the oldest buff among those slots."""
        b = self.buffs[buff]
        p = new.players[seat]
        buffs = list(p.buffs)
        new.stamp += 1
        entry = (buff, b.rounds, new.stamp)
        same = [i for i, e in enumerate(buffs) if e is not None and e[0] == buff]
        fitting = [i for i, accepts in enumerate(self.slots) if b.cls in accepts]
        if same:
            buffs[same[0]] = entry
        elif not fitting:
            return
        else:
            free = [i for i in fitting if buffs[i] is None]
            index = free[0] if free else min(fitting, key=lambda i: buffs[i][2])  # type: ignore[index]
            buffs[index] = entry
        self._set(new, seat, buffs=tuple(buffs))

    def _heal(self, new: MineventureState, seat: int, amount: int) -> None:
        p = new.players[seat]
        if p.alive:
            self._set(new, seat, hp=min(self.settings.max_hp, p.hp + amount))

    def _true_damage(self, new: MineventureState, seat: int, amount: int) -> None:
        """True damage has no source: never reduced or blocked."""
        self._set(new, seat, hp=new.players[seat].hp - amount)
        self._deaths(new, killer=None)

    def damage_taken(
        self,
        state: MineventureState,
        seat: int,
        amount: int,
        types: tuple[DamageType, ...],
        blocking: bool,
    ) -> int:
        """What one hit of `amount` `types` takes from `seat` (decision damage-order)."""
        if DamageType.TRUE in types:
            return amount
        if seat == DRAGON:
            if DamageType.PHYSICAL in types:
                amount -= self.model.dragon.defence
            return max(0, amount)
        p = state.players[seat]
        armour = self.cards[p.armour] if p.armour >= 0 else None
        # Area damage: cancelled by the matching blast-proof trait; a shield cannot block it.
        if DamageType.AREA in types and armour is not None and Trait.BLAST_PROOF in armour.traits:
            return 0
        if DamageType.PIERCING in types:
            # Piercing: armour and buffs do not reduce it, but a raised shield blocks it.
            return 0 if blocking and DamageType.AREA not in types else amount
        if DamageType.PHYSICAL in types:
            amount -= (armour.defence if armour else 0) + self._bonus(state, seat, EffectKind.GUARD)
            amount = max(0, amount)
            halve = self._has(state, seat, EffectKind.HALVE_TAKEN)
            if halve is not None:
                amount = _halve(amount, halve.rounding)
        return max(0, amount)

    def _hit(
        self,
        new: MineventureState,
        seat: int,
        amount: int,
        types: tuple[DamageType, ...],
        blocking: bool,
    ) -> int:
        taken = self.damage_taken(new, seat, amount, types, blocking)
        if seat == DRAGON:
            new.dragon_hp -= taken
        else:
            self._set(new, seat, hp=new.players[seat].hp - taken)
        return taken

    def _overworld(self, state: MineventureState, seat: int) -> bool:
        return bool(self.terrain[self.position(state, seat)].overworld)

    # -- decision phase -------------------------------------------------------------------

    def playable(self, state: MineventureState, seat: int, code: int, in_combat: bool) -> list[str]:
        """The arguments a hand card can be played with ('' for none); [] if it cannot."""
        card = self.cards[code]
        p = state.players[seat]
        if isinstance(card, Food):
            return [""]
        effect = card.effect
        # Map-corner icon: only on a cell bearing the same icon (decision map-icons).
        if card.icon and self.terrain[(p.x, p.y)].icon != card.icon:
            return []
        if card.kind is ItemKind.ENCHANT:
            if in_combat:
                return []
            return [
                slot
                for slot, weapon, enchants in (
                    ("main", p.main, p.main_ench),
                    ("sub", p.sub, p.sub_ench),
                )
                if weapon >= 0
                and self.cards[weapon].weapon_kind == card.weapon_kind
                and code not in enchants
            ]
        kind = effect.kind
        if kind is EffectKind.REVIVE:
            return []
        if kind is EffectKind.DAMAGE:
            return [""] if in_combat else []
        if kind is EffectKind.REPAIR and p.main < 0 and p.sub < 0:
            return []
        if effect.target is Target.OTHER:
            if in_combat:
                return ["foe"]
            # Potions for others: a player within attack range (decision potion-targets).
            return [
                str(s)
                for s in self.living(state)
                if s != seat and self.distance(state, seat, s) <= self.reach(state, seat, s)
            ]
        return [""]

    def _decisions(self, state: MineventureState) -> list[Act]:
        seat = state.seat
        out = [Act("end")]
        for code in sorted(set(state.players[seat].hand)):
            for arg in self.playable(state, seat, code, in_combat=False):
                out.append(Act("play", self.tokens[code], arg))
        for target in self.living(state):
            if target != seat and self.distance(state, seat, target) <= self.reach(
                state, seat, target
            ):
                out.append(Act("fight", str(target)))
        if state.dragon_hp > 0 and self.distance(state, seat, DRAGON) <= self.attack_range(
            state, seat
        ):
            out.append(Act("fight", "dragon"))
        return out

    def _play(self, new: MineventureState, seat: int, code: int, arg: str, foe: int | None) -> None:
        p = new.players[seat]
        self._set(new, seat, hand=_remove(p.hand, code))
        card = self.cards[code]
        if isinstance(card, Food):
            self._heal(new, seat, card.heal)
            if card.buff:
                self.give_buff(new, seat, self.buff_index[card.buff])
            self._put_back(new, code)
            return
        if card.kind is ItemKind.ENCHANT:
            # An enchant book goes under a weapon of its kind; reinforce adds durability now.
            if card.effect.kind is EffectKind.REINFORCE:
                field_ = "main_dur" if arg == "main" else "sub_dur"
                self._set(new, seat, **{field_: getattr(p, field_) + card.effect.amount})
            field_ = "main_ench" if arg == "main" else "sub_ench"
            self._set(new, seat, **{field_: (*getattr(new.players[seat], field_), code)})
            return
        other = foe if arg == "foe" else (int(arg) if arg.isdigit() else None)
        self._put_back(new, code)
        self._resolve(new, seat, card.effect, other, code)
        if new.queue:
            new.resume = new.phase if new.phase != "combat" else "combat-end"
            if new.phase == "decision":
                new.phase = "deal"
                self._settle(new)

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
        glow = self._bonus(state, opponent, EffectKind.GLOWING) if opponent != DRAGON else 0
        for slot, code in (("main", p.main), ("sub", p.sub)):
            if code < 0:
                continue
            card = self.cards[code]
            if card.blocks and not c.ambush:
                out.append(Act("strike", slot))
            elif card.damage > 0:
                # In the ambush round the attack counts distance; later rounds do not.
                reach = (
                    self.weapon_range(state, seat, slot)
                    + glow
                    + self._bonus(state, seat, EffectKind.GLOWING)
                )
                if not c.ambush or reach >= distance:
                    out.append(Act("strike", slot))
        if not any(self.cards[code].damage > 0 for code in (p.main, p.sub) if code >= 0) and (
            not c.ambush or self.settings.unarmed_range >= distance
        ):
            out.append(Act("strike", "fist"))
        for code in sorted(set(p.hand)):
            for arg in self.playable(state, seat, code, in_combat=True):
                out.append(Act("use", self.tokens[code], arg))
        if not c.ambush and not p.fled:
            out.append(Act("flee"))
        if not out:
            out.append(Act("strike", "none"))
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
        """Both sides' declarations resolve at once; every hit is computed on its own."""
        c = new.combat
        assert c is not None
        sides = [(c.attacker, c.defender, c.declared[0])]
        if not c.ambush:
            sides.append((c.defender, c.attacker, c.declared[1]))
        blocking = {seat: False for seat, _, _ in sides}
        hits: list[tuple[int, int, int, tuple[DamageType, ...]]] = []
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
                effect = getattr(self.cards[code], "effect", None)
                if effect is not None and effect.kind is EffectKind.DAMAGE:
                    self._set(new, seat, hand=_remove(new.players[seat].hand, code))
                    self._put_back(new, code)
                    hits.append((seat, foe, effect.amount, effect.types))
                else:
                    self._play(new, seat, code, act.b, foe)
                continue
            hits.extend(self._strike(new, seat, foe, act.a, blocking))
        for seat, foe, amount, types in hits:
            taken = self._hit(new, foe, amount, types, blocking.get(foe, False))
            if foe == DRAGON and taken > 0:
                self._set(new, seat, hit_dragon=True)
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
            card = self.cards[code]
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
            amount = card.damage + sum(
                self.cards[e].effect.amount
                for e in enchants
                if self.cards[e].effect.kind is EffectKind.SHARPEN
            )
            types = card.types
        amount += self._bonus(new, seat, EffectKind.STRENGTH)
        hits = [(seat, foe, amount, types)]
        partner = self.cards[p.partner].effect if p.partner >= 0 else None
        if partner is not None and partner.kind is EffectKind.COMPANION_ATTACK:
            hits.append((seat, foe, partner.amount, partner.types))
        halve = self._has(new, seat, EffectKind.HALVE_DEALT)
        if halve is not None:
            hits = [(s, f, _halve(a, halve.rounding), t) for s, f, a, t in hits]
        return hits

    def _finish_combat(self, new: MineventureState) -> None:
        c = new.combat
        new.combat = None
        assert c is not None
        # After combat the attacker goes to their end phase.
        if new.players[c.attacker].alive:
            new.seat = c.attacker
            new.phase = "end"
        else:
            self._next_seat(new)

    def _deaths(self, new: MineventureState, killer: dict[int, int] | None) -> list[int]:
        """Everyone at 0 HP or below dies (a totem in hand saves once)."""
        dead = []
        for seat, p in enumerate(new.players):
            if not p.alive or p.hp > 0:
                continue
            totem = next(
                (
                    c
                    for c in p.hand
                    if getattr(self.cards[c], "effect", None) is not None
                    and self.cards[c].effect.kind is EffectKind.REVIVE
                ),
                None,
            )
            if totem is not None:
                self._set(
                    new, seat, hp=self.cards[totem].effect.amount, hand=_remove(p.hand, totem)
                )
                self._put_back(new, totem)
                continue
            dead.append(seat)
        for seat in dead:
            self._set(new, seat, alive=False)
        for seat in dead:
            p = new.players[seat]
            winner = killer.get(seat) if killer else None
            if winner is not None and winner != DRAGON and new.players[winner].alive:
                # A kill: the whole hand and one equipment card of the victim's.
                self._set(
                    new, winner, hand=tuple(sorted(new.players[winner].hand + p.hand)), killed=True
                )
                self._set(new, seat, hand=())
                if self.settings.kill_equipment and any(
                    code >= 0 for code in (p.main, p.sub, p.armour)
                ):
                    new.loot = (winner, seat)
                    new.phase = "loot"
                    continue
            self._clear(new, seat)
        return dead

    def _clear(self, new: MineventureState, seat: int) -> None:
        p = new.players[seat]
        for code in p.hand:
            self._put_back(new, code)
        for code in (p.armour, p.partner):
            if code >= 0:
                self._put_back(new, code)
        self._drop_weapon(new, seat, "main")
        self._drop_weapon(new, seat, "sub")
        self._set(new, seat, hand=(), armour=-1, partner=-1, buffs=(None,) * len(self.slots))

    def _loot(self, new: MineventureState, slot: str) -> None:
        killer, victim = new.loot
        new.loot = (-1, -1)
        p = _copy_player(new.players[victim])
        # The killer takes one equipment card; a weapon keeps its durability and books.
        if slot == "main":
            self._set(new, victim, main=-1, main_dur=0, main_ench=())
            self._equip(new, killer, p.main, p.main_dur, p.main_ench)
        elif slot == "sub":
            self._set(new, victim, sub=-1, sub_dur=0, sub_ench=())
            self._equip(new, killer, p.sub, p.sub_dur, p.sub_ench)
        else:
            self._set(new, victim, armour=-1)
            self._equip(new, killer, p.armour)
        self._clear(new, victim)
        # A kill ends the combat; the attacker goes to the end phase once the draws due
        # (from a card played in this combat round) are done.
        if new.queue:
            new.resume = "combat-end"
            new.phase = "deal"
            self._settle(new)
        else:
            new.resume = ""
            self._finish_combat(new)

    # -- turns and rounds -----------------------------------------------------------------

    def _start_turn(self, new: MineventureState, seat: int) -> None:
        new.seat = seat
        new.roll = 0
        # A defender who fled this round goes straight to the end phase.
        new.phase = "end" if new.players[seat].skip else "action"

    def _discard_card(self, new: MineventureState, seat: int, code: int) -> None:
        self._set(new, seat, hand=_remove(new.players[seat].hand, code))
        self._put_back(new, code)

    def _end_turn(self, new: MineventureState) -> None:
        self._next_seat(new)

    def _next_seat(self, new: MineventureState) -> None:
        if self._check_end(new):
            return
        for seat in range(new.seat + 1, self.players):
            if new.players[seat].alive:
                self._start_turn(new, seat)
                return
        self._end_round(new)

    def _end_round(self, new: MineventureState) -> None:
        s = self.settings
        # Story damage: overworld players who did not kill this round take dead + story_base.
        if new.story >= 0:
            dead = sum(1 for p in new.players if not p.alive)
            for seat in self.living(new):
                if self._overworld(new, seat) and not new.players[seat].killed:
                    self._set(new, seat, hp=new.players[seat].hp - (dead + s.story_base))
        # The dragon breathes on every player within its range (decision dragon).
        if new.dragon_hp > 0:
            d = self.model.dragon
            for seat in self.living(new):
                if self.distance(new, seat, DRAGON) <= d.range:
                    self._hit(new, seat, d.damage, d.types, blocking=False)
        # Buffs tick: regeneration and poison, then their rounds run down.
        for seat in self.living(new):
            self._heal(new, seat, self._bonus(new, seat, EffectKind.REGENERATION))
            self._set(
                new, seat, hp=new.players[seat].hp - self._bonus(new, seat, EffectKind.POISON)
            )
            buffs = tuple(
                None
                if e is not None and e[1] == 1
                else (e if e is None or e[1] == 0 else (e[0], e[1] - 1, e[2]))
                for e in new.players[seat].buffs
            )
            self._set(new, seat, buffs=buffs, killed=False, fled=False, skip=False)
        self._deaths(new, killer=None)
        new.round += 1
        # Time moves on: a day is `rounds_per_day` rounds (day, then night); after the night
        # the day counter moves on and everyone heals.
        new.night = (new.round % s.rounds_per_day) * 2 >= s.rounds_per_day
        if new.round % s.rounds_per_day == 0:
            new.day += 1
            for seat in self.living(new):
                if self._has(new, seat, EffectKind.STARVE) is None:
                    self._heal(new, seat, s.daily_heal + self._bonus(new, seat, EffectKind.NURSE))
            if new.day >= s.story_day and new.story < 0:
                self._force_story(new)
        if self._check_end(new):
            return
        self._start_turn(new, self.living(new)[0])

    def _force_story(self, new: MineventureState) -> None:
        """From day `story_day` a story event is put in play (decision story-damage)."""
        for code in self.story_cards:
            deck = self.card_deck[code]
            pile, bottom, discard = new.piles[deck]
            if code in pile:
                pile = _remove(pile, code)
            elif code in bottom:
                index = bottom.index(code)
                bottom = bottom[:index] + bottom[index + 1 :]
            else:
                continue
            piles = list(new.piles)
            piles[deck] = (pile, bottom, discard)
            new.piles = tuple(piles)
            new.story = code
            return

    def _check_end(self, new: MineventureState) -> bool:
        if new.ended:
            return True
        living = self.living(new)
        if new.dragon_hp <= 0:
            new.ended = Termination.DRAGON_SLAIN.value
            new.winners = tuple(s for s in living if new.players[s].hit_dragon)
        elif len(living) == 1:
            new.ended = Termination.LAST_STANDING.value
            new.winners = tuple(living)
        elif not living:
            new.ended = Termination.ALL_DEAD.value
            new.winners = ()
        else:
            return False
        if new.loot[1] >= 0:
            self._clear(new, new.loot[1])
            new.loot = (-1, -1)
        if new.drawn >= 0:
            self._put_back(new, new.drawn)
            new.drawn = new.drawn_by = -1
        new.phase = "over"
        new.combat = None
        new.queue = ()
        return True

    def _set(self, new: MineventureState, seat: int, **changes: Any) -> None:
        """Change a seat's fields; `new` owns its Player copies (see _clone)."""
        player = new.players[seat]
        for name, value in changes.items():
            setattr(player, name, value)

    # -- what the engine reads and implements -------------------------------------------

    def declares(self) -> Declaration:
        return Declaration(
            game=SLUG,
            effects=frozenset(IMPLEMENTED),
            modes=frozenset(Mode),
            settings=frozenset(
                {f"settings.{f.name}" for f in fields(self.settings) if f.name != "where"}
                | {
                    "equipment.slot",
                    "equipment.range",
                    "equipment.damage",
                    "equipment.types",
                    "equipment.durability",
                    "equipment.blocks",
                    "equipment.defence",
                    "equipment.traits",
                    "equipment.weapon_kind",
                    "equipment.legendary",
                    "items.kind",
                    "items.effect",
                    "items.icon",
                    "items.weapon_kind",
                    "food.heal",
                    "food.buff",
                    "buffs.cls",
                    "buffs.rounds",
                    "buff_slots.accepts",
                    "terrains.draws",
                    "terrains.landing_damage",
                    "terrains.overworld",
                    "dragon.hp",
                    "dragon.range",
                    "dragon.damage",
                    "dragon.types",
                    "dragon.defence",
                }
            ),
            options=frozenset({"players", "mode"}),
        )

    # -- invariants -----------------------------------------------------------------------

    def invariant_problems(self, state: MineventureState) -> list[str]:
        problems = []
        counts: Counter[int] = Counter()
        for pile, bottom, discard in state.piles:
            counts.update(pile)
            counts.update(bottom)
            counts.update(discard)
        for seat, p in enumerate(state.players):
            counts.update(p.hand)
            counts.update(c for c in (p.main, p.sub, p.armour, p.partner) if c >= 0)
            counts.update(p.main_ench)
            counts.update(p.sub_ench)
            if p.hp > self.settings.max_hp:
                problems.append(f"hp {p.hp} above {self.settings.max_hp}")
            looted = seat == state.loot[1]
            if not p.alive and not looted and (p.hand or p.main >= 0 or p.partner >= 0):
                problems.append("a dead player still holds cards")
        if state.story >= 0:
            counts[state.story] += 1
        if state.drawn >= 0:
            counts[state.drawn] += 1
        expected = Counter(c for pile, _, _ in self._start for c in pile)
        if counts != expected:
            diff = (counts - expected) + (expected - counts)
            problems.append(f"cards created or lost: {sorted(self.tokens[c] for c in diff)}")
        return problems

    def check_invariants(self, state: MineventureState) -> None:
        problems = self.invariant_problems(state)
        if problems:
            raise InvariantViolation(f"{'; '.join(problems)} in {self.notation(state)}")

    # -- notation -------------------------------------------------------------------------

    def notation(self, state: MineventureState) -> str:
        """The whole position as one line: ``mv`` and a compact JSON array of every field."""
        return "mv " + json.dumps(_encode(state), separators=(",", ":"))

    def from_notation(self, text: str) -> MineventureState:
        if not text.startswith("mv "):
            raise ValueError(f"invalid {SLUG} notation {text!r}: expected 'mv [...]'")
        try:
            data = json.loads(text[3:])
            state = _decode(data)
        except (ValueError, TypeError, IndexError) as error:
            raise ValueError(f"invalid {SLUG} notation {text!r}: {error}") from None
        if len(state.players) != self.players or len(state.piles) != len(self.decks):
            raise ValueError(f"invalid {SLUG} notation {text!r}: wrong table size")
        return state

    def parse_action(self, text: str) -> Act:
        return Act.parse(text)


IMPLEMENTED = frozenset(EffectKind)
"""Every effect kind of the model has a handler here (the validator checks content uses all)."""


def _halve(amount: int, rounding: Rounding | None) -> int:
    """Halve with the card's rounding mark: ↑ rounds up, ↓ rounds down."""
    return (amount + 1) // 2 if rounding is Rounding.UP else amount // 2


def _encode(state: MineventureState) -> list[Any]:
    """The state as JSON-ready data (json writes tuples as arrays)."""
    out: list[Any] = [getattr(state, name) for name in _STATE_FIELDS]
    out[0] = [[getattr(p, name) for name in _PLAYER_FIELDS] for p in state.players]
    combat = state.combat
    if combat is not None:
        out[_STATE_FIELDS.index("combat")] = [getattr(combat, f.name) for f in fields(Combat)]
    return out


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


def _decode(data: list[Any]) -> MineventureState:
    names = [f.name for f in fields(MineventureState)]
    if len(data) != len(names):
        raise ValueError(f"expected {len(names)} fields, got {len(data)}")
    values = dict(zip(names, data, strict=True))
    values["players"] = tuple(Player(*[_tuples(v) for v in p]) for p in values["players"])
    values["piles"] = tuple(tuple(tuple(part) for part in deck) for deck in values["piles"])
    values["queue"] = _tuples(values["queue"])
    values["spawn_order"] = _tuples(values["spawn_order"])
    values["loot"] = _tuples(values["loot"])
    values["winners"] = _tuples(values["winners"])
    if values["combat"] is not None:
        values["combat"] = Combat(*[_tuples(v) for v in values["combat"]])
    return MineventureState(**values)


def example_tables(model: Mineventure) -> list[tuple[str, Rules[Any, Any]]]:
    """A few tables for the shared contract test: both maps, smallest and largest tables."""
    return [
        ("3p-map-24", MineventureRules(model, 3, Mode.MAP_24)),
        ("4p-map-32", MineventureRules(model, 4, Mode.MAP_32)),
    ]


# -- policies ------------------------------------------------------------------------------


class SensiblePolicy:
    """A plain player: keeps better gear, eats when hurt, fights when stronger, goes for the
    dragon once the story event bleeds everyone, flees when nearly dead."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, MineventureRules)
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
            return actions[0]
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
            card = rules.cards[rules.by_token[action.a]]
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

    def _better(self, rules: MineventureRules, state: Any, seat: int, code: int) -> bool:
        me = state.players[seat]
        card = rules.cards[code]
        if isinstance(card, Partner):
            return me.partner < 0
        current = {Slot.MAIN_WEAPON: me.main, Slot.SUB_WEAPON: me.sub, Slot.ARMOUR: me.armour}[
            card.slot
        ]
        if current < 0:
            return True
        old = rules.cards[current]
        return (card.damage + card.defence, card.durability) > (old.damage + old.defence, 0)

    def _card_value(self, rules: MineventureRules, code: int) -> int:
        card = rules.cards[code]
        return card.heal if isinstance(card, Food) else 3 + card.effect.amount

    def _move_score(self, rules: MineventureRules, state: Any, seat: int, action: Act) -> float:
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

    def _combat(self, rules: MineventureRules, state: Any, seat: int, actions: list[Act]) -> Act:
        me = state.players[seat]
        if me.hp <= 5 and Act("flee") in actions:
            return Act("flee")
        strikes = [a for a in actions if a.kind == "strike"]
        damage = [
            a
            for a in actions
            if a.kind == "use"
            and getattr(rules.cards[rules.by_token[a.a]], "effect", None) is not None
            and rules.cards[rules.by_token[a.a]].effect.kind is EffectKind.DAMAGE
        ]
        if damage:
            return damage[0]

        def power(action: Act) -> int:
            if action.a == "main" and me.main >= 0:
                return rules.cards[me.main].damage
            if action.a == "sub" and me.sub >= 0:
                return rules.cards[me.sub].damage
            return 0

        if strikes:
            return max(strikes, key=power)
        return actions[0]

    def __repr__(self) -> str:
        return "SensiblePolicy()"


# -- simulation ----------------------------------------------------------------------------


@dataclass(frozen=True)
class SimulationReport:
    players: int
    mode: Mode
    policy: str
    games: int
    seed: int
    mean_rounds: float
    median_rounds: float
    max_rounds: int
    terminations: dict[Termination, int]
    wins_by_seat: tuple[int, ...]
    ended_by_cap: int
    capped_seeds: tuple[int, ...]
    mean_steps: float
    seconds: float = field(default=0.0, compare=False)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def simulate(
    model: Mineventure,
    players: int,
    mode: Mode,
    games: int = 100,
    seed: int = 0,
    policy: Policy | None = None,
    *,
    check: bool = False,
) -> SimulationReport:
    """Play ``games`` seeded games; game ``i`` replays from ``random.Random(s_i)``."""
    rules = MineventureRules(model, players, mode)
    chooser = policy if policy is not None else RandomPolicy()
    seeds = random.Random(seed)
    lengths: list[int] = []
    steps: list[int] = []
    ends: Counter[Termination] = Counter()
    wins = [0] * players
    capped: list[int] = []
    started = time.perf_counter()
    for _ in range(games):
        game_seed = seeds.getrandbits(63)
        record = play_game(
            rules,
            [chooser] * players,
            random.Random(game_seed),
            TURN_CAP * 200 * players,
            max_turns=TURN_CAP,
            invariant=rules.check_invariants if check else None,
        )
        lengths.append(record.turns)
        steps.append(record.steps)
        if record.outcome is None:
            capped.append(game_seed)
            continue
        assert isinstance(record.outcome.termination, Termination)
        ends[record.outcome.termination] += 1
        for seat in record.outcome.winners:
            wins[seat] += 1
    return SimulationReport(
        players=players,
        mode=mode,
        policy=repr(chooser),
        games=games,
        seed=seed,
        mean_rounds=statistics.fmean(lengths) if lengths else 0.0,
        median_rounds=statistics.median(lengths) if lengths else 0.0,
        max_rounds=max(lengths, default=0),
        terminations=dict(ends),
        wins_by_seat=tuple(wins),
        ended_by_cap=len(capped),
        capped_seeds=tuple(capped),
        mean_steps=statistics.fmean(steps) if steps else 0.0,
        seconds=time.perf_counter() - started,
    )


# -- rulebook ------------------------------------------------------------------------------

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
        self.state = _clone(self.rules.initial_state(random.Random(0)))
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


def _pick(cards: Any, key: Any) -> Any:
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
    return _pick(physical, lambda c: c.range)  # type: ignore[no-any-return]


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
