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
- Decision phase: play any hand cards (each when its footer says: decision hand-card-timing),
  declare one battle on a player (or the dragon) in range, or end. End phase, however a turn
  reaches it: discard down to the hand limit, then play passes (decision end-phase).
- Combat (at most `combat_rounds` rounds): an ambush first round when the defender's range does
  not reach the attacker (Manhattan distance); then each round the attacker and the defender
  declare a weapon, one hand card or a flee; both resolve at once, each hit on its own: hits
  first, then the other cards played, then deaths (decision simultaneous-exchange). A killer
  takes the victim's hand and may take one equipment card (decision loot-choice).
- Round end: story damage, the dragon's breath, buffs tick; time moves half a day, and after
  the night everyone heals `daily_heal`. The post has no last day: only a table that plays
  the last-day variant ends the game, nobody winning, when day `final_day` begins (decision
  final-day).

The package: state.py (positions and actions), notation.py (a position as one line), board.py
(the map, card table, piles, damage and deaths), combat.py (battles), this module (the protocol
and the turn flow), policies.py, simulation.py and examples.py (contract tables and the
rulebook's worked examples).

Chance is explicit: a die roll is ``die:<n>`` and a draw is ``draw:<card>``. Each deck is a
multiset pile (uniformly random draws), an ordered bottom (field cards put back, drawn in
order once the pile is empty) and a discard pile (played hand cards, which the post never
rotates back: a hand deck that runs out stays empty, decision hand-decks-run-out).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import fields
from typing import Any

from pnp.engines.base import Declaration, InvariantViolation, Outcome
from pnp.engines.piles import with_card as _insert
from pnp.engines.piles import without as _remove
from pnp.errors import IllegalActionError
from pnp.games.mineventure import notation
from pnp.games.mineventure.board import IMPLEMENTED
from pnp.games.mineventure.combat import CombatRules
from pnp.games.mineventure.model import (
    BuffClass,
    Effect,
    EffectKind,
    Equipment,
    Food,
    ItemKind,
    Partner,
    Target,
)
from pnp.games.mineventure.state import (
    DIRECTIONS,
    DRAGON,
    OPPOSITE,
    PERPENDICULAR,
    SLUG,
    Act,
    MineventureState,
    Mode,
    Player,
    Termination,
    clone,
    shell,
)

_TURN_PHASES = frozenset({"action", "move", "decision", "end"})
"""Phases in which the seat whose turn it is acts (unless draws are due or the game is over)."""


class MineventureRules(CombatRules):
    """The rules of MineVenture for one table: ``Rules[MineventureState, Act]``."""

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
        # is_chance written out (asked on every step), a seat's own phases first.
        phase = state.phase
        if phase in _TURN_PHASES and not state.queue and not state.ended:
            return state.seat
        if state.ended or phase == "rolling":
            return None
        if state.queue and state.drawn < 0 and phase != "loot":
            return None
        if phase == "combat":
            c = state.combat
            assert c is not None
            if c.fleeing > -2:
                return None
            return c.attacker if not c.declared else c.defender
        if phase == "loot":
            return state.loot[0]
        if phase == "keep":
            return state.drawn_by
        if phase == "spawn":
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
            sides = len(self._die_acts)
            return [(act, 1 / sides) for act in self._die_acts]
        _, deck, _ = state.queue[0]
        pile, bottom, _ = state.piles[deck]
        if not pile:
            return [(self._draw_acts[bottom[0]], 1.0)]
        source = pile
        counts = Counter(source)
        return [(self._draw_acts[c], k / len(source)) for c, k in sorted(counts.items())]

    def sample_chance(self, state: MineventureState, rng: random.Random) -> Act:
        if not self.is_chance(state):
            raise ValueError(f"not a chance step: {self.notation(state)}")
        # The outcomes of chance_outcomes drawn without listing them: a die face, or a card
        # of the pile (each copy equally likely), or the next card of the put-back bottom.
        if state.phase in ("rolling", "combat"):
            return self._die_acts[int(rng.random() * len(self._die_acts))]
        _, deck, _ = state.queue[0]
        pile, bottom, _ = state.piles[deck]
        if not pile:
            return self._draw_acts[bottom[0]]
        return self._draw_acts[pile[int(rng.random() * len(pile))]]

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
        phase = state.phase
        if state.ended:
            return []
        # A seat's own phases with no draws due are never chance: not asked on every step.
        if (state.queue or phase not in _TURN_PHASES) and self.is_chance(state):
            return [action for action, _ in self.chance_outcomes(state)]
        if phase == "decision":
            return self._decisions(state)
        if phase == "action":
            return [self._skip_act, self._roll_act]
        if phase == "move":
            return self._moves(state)
        if phase == "keep":
            return [self._keep_act, self._return_act]
        if phase == "spawn":
            taken = {(p.x, p.y) for p in state.players}
            return [Act("spawn", str(i)) for i, at in enumerate(self.spawns) if at not in taken]
        if phase == "end":
            me = state.players[state.seat]
            if len(me.hand) > self.hand_limit(state, state.seat):
                return [self._discard_acts[c] for c in sorted(set(me.hand))]
            return [self._end_act]
        if phase == "combat":
            return self._combat_actions(state)
        if phase == "loot":
            victim = state.players[state.loot[1]]
            return [
                *(
                    Act("loot", name)
                    for name, code in (
                        ("main", victim.main),
                        ("sub", victim.sub),
                        ("armour", victim.armour),
                    )
                    if code >= 0
                ),
                Act("loot", "none"),
            ]
        return []  # pragma: no cover

    def is_legal(self, state: MineventureState, action: Any) -> bool:
        """Whether ``action`` is in ``legal_actions(state)``, without listing chance outcomes."""
        cached_state, actions = self._last
        if cached_state is state:
            # Listed just now (a policy chose from the list): found by identity first.
            for listed in actions:
                if listed is action:
                    return True
            return isinstance(action, Act) and action in actions
        if not isinstance(action, Act) or state.ended:
            return False
        if self.is_chance(state):
            # sample_chance hands back the shared objects: found by identity first.
            if state.phase in ("rolling", "combat"):
                die = self._die_by_text.get(action.a)
                return action is die or action == die
            _, deck, _ = state.queue[0]
            pile, bottom, _ = state.piles[deck]
            code = self.by_token.get(action.a, -1) if pile else bottom[0]
            if pile and code not in pile:
                return False
            draw = self._draw_acts[code]
            return action is draw or action == draw
        actions = self.legal_actions(state)
        # A policy hands back one of the listed objects: found by identity first.
        for listed in actions:
            if listed is action:
                return True
        return action in actions

    def apply(self, state: MineventureState, action: Any) -> MineventureState:
        if not self.is_legal(state, action):
            raise IllegalActionError(f"illegal action {action!r} in {self.notation(state)}")
        # Copy on write: `new` shares the seats of `state` until `_set` changes one.
        new = shell(state)
        self._shared = state.players
        try:
            self._do(new, action)
        finally:
            self._shared = ()
        return new

    def _do(self, new: MineventureState, action: Act) -> None:
        """Change `new` by `action` (legal in it)."""
        kind = action.kind
        # The most frequent kinds first.
        if kind == "end":
            # Ending the decision phase enters the end phase (discard to the hand limit).
            if new.phase == "decision":
                self._enter_end(new)
            else:
                self._end_turn(new)
        elif kind == "die":
            self._die(new, int(action.a))
        elif kind == "draw":
            self._draw(new, self.by_token[action.a])
        elif kind == "skip":
            new.phase = "decision"
        elif kind == "roll":
            new.phase = "rolling"
        elif kind == "move":
            self._move(new, action)
        elif kind == "play":
            self._play(new, new.seat, self.by_token[action.a], action.b, None)
            self._check_end(new)
        elif kind in ("keep", "return"):
            self._keep(new, kind == "keep")
        elif kind == "fight":
            target = DRAGON if action.a == "dragon" else int(action.a)
            self._start_combat(new, new.seat, target, on_path=False)
        elif kind == "discard":
            self._discard_card(new, new.seat, self.by_token[action.a])
        elif kind in ("strike", "use", "flee"):
            self._declare(new, action)
        elif kind == "loot":
            self._loot(new, action.a)
        elif kind == "spawn":
            self._spawn(new, action)

    def _spawn(self, new: MineventureState, action: Act) -> None:
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

    def resample(self, state: MineventureState, seat: int, rng: random.Random) -> MineventureState:
        """A position ``seat`` cannot tell from ``state`` (for the search player).

        Field cards lie face up and the draw piles are drawn at random anyway; what ``seat``
        cannot see is the other players' hands. They are dealt again, deck by deck, from the
        hand cards it has not seen (those hands and that deck's draw pile): everyone saw which
        deck each card was drawn from, so each player keeps as many cards of each deck."""
        hidden = [s for s, p in enumerate(state.players) if s != seat and p.hand]
        if not hidden:
            return state
        # A card declared in this combat round was read out: it stays where it is. Once the
        # round has resolved (a kill's loot, the draws after it) the card has been played and
        # the declaration is only a record of it.
        shown: dict[int, list[int]] = {s: [] for s in hidden}
        c = state.combat
        if c is not None and state.phase == "combat":
            for declarer, text in zip((c.attacker, c.defender), c.declared, strict=False):
                act = Act.parse(text) if ":" in text else None
                if act is not None and act.kind == "use" and declarer in shown:
                    shown[declarer].append(self.by_token[act.a])
        secret: dict[int, list[int]] = {}
        for s in hidden:
            hand = state.players[s].hand
            for code in shown[s]:
                hand = _remove(hand, code)
            secret[s] = list(hand)
        pools: dict[int, list[int]] = {}
        for s in hidden:
            for code in secret[s]:
                pools.setdefault(self.card_deck[code], []).append(code)
        new = clone(state)
        piles = list(new.piles)
        for deck, pool in pools.items():
            pile, bottom, discard = piles[deck]
            kept = [c for c in pile if self._is_field(c)]
            pool.extend(c for c in pile if not self._is_field(c))
            rng.shuffle(pool)
            for s in hidden:
                p = new.players[s]
                count = sum(1 for c in secret[s] if self.card_deck[c] == deck)
                others = [c for c in p.hand if self.card_deck[c] != deck]
                mine = [c for c in shown[s] if self.card_deck[c] == deck]
                p.hand = tuple(sorted(others + mine + pool[:count]))
                del pool[:count]
            piles[deck] = (tuple(sorted(kept + pool)), bottom, discard)
        new.piles = tuple(piles)
        return new

    # -- movement -------------------------------------------------------------------------

    def _moves(self, state: MineventureState) -> list[Act]:
        """Every plain move (see `walks`), each followed by its battles on the path: one per
        player (then the dragon) standing on a cell it passes, in the order it passes them."""
        me = state.players[state.seat]
        x, y, steps = me.x, me.y, state.roll
        moves = self._map_moves
        acts = moves.plain_moves(x, y, steps)
        # A move passes cells 1..steps away (Manhattan distance); a battle needs someone there
        # (on a cell two players share, the later seat).
        others: dict[tuple[int, int], int] = {}
        for seat, p in enumerate(state.players):
            if p.alive and seat != state.seat:
                ox, oy = p.x - x, p.y - y
                if 0 < abs(ox) + abs(oy) <= steps:
                    others[(ox, oy)] = seat
        seat_args = self._seat_args
        near = [(ox, oy, 0, seat_args[seat]) for (ox, oy), seat in others.items()]
        if state.dragon_hp > 0:
            dx, dy = self.dragon_at
            if 0 < abs(dx - x) + abs(dy - y) <= steps:
                near.append((dx - x, dy - y, 1, "dragon"))
        if not near:
            return list(acts)
        index = moves.index(x, y, steps)
        battles: list[tuple[int, int, int, Act]] = []
        for ox, oy, order, target in near:
            # The walks through the cell at (ox, oy) from the mover, and where on them it lies.
            along_x = "E" if ox > 0 else "W"
            along_y = "S" if oy > 0 else "N"
            if ox and oy:
                a, b = abs(ox), abs(oy)
                codes = [f"{along_x}{a}{along_y}{steps - a}", f"{along_y}{b}{along_x}{steps - b}"]
                at = a + b - 1
            else:
                first = along_x if ox else along_y
                k = abs(ox or oy)
                codes = [f"{first}{steps}"] if k <= steps else []
                codes += [
                    f"{first}{n1}{second}{steps - n1}"
                    for n1 in range(k, steps)
                    for second in PERPENDICULAR[first]
                ]
                at = k - 1
            for code in codes:
                walk = index.get(code)
                if walk is not None:
                    battles.append((walk, at, order, moves.battle(code, target)))
        if not battles:
            return list(acts)
        battles.sort(key=lambda battle: battle[:3])
        out: list[Act] = []
        done = 0
        for walk, _, _, battle in battles:
            if walk >= done:
                out.extend(acts[done : walk + 1])
                done = walk + 1
            out.append(battle)
        out.extend(acts[done:])
        # Each walk is listed once and passes each cell once: no action repeats.
        return out

    def walks(
        self, x: int, y: int, steps: int
    ) -> tuple[tuple[Act, tuple[tuple[int, int], ...]], ...]:
        """Every plain move of ``steps`` cells from (x, y) with the cells it passes, the last
        being where it ends (decision movement); the same for every position, so kept."""
        key = (x, y, steps)
        found = self._walks.get(key)
        if found is not None:
            return found
        walks: list[tuple[Act, tuple[tuple[int, int], ...]]] = []
        terrain = self.terrain
        for first in "NESW":
            # The straight run in the first direction, as far as the map allows.
            dx, dy = DIRECTIONS[first]
            run: list[tuple[int, int]] = []
            cx, cy = x, y
            for _ in range(steps):
                cx, cy = cx + dx, cy + dy
                if (cx, cy) not in terrain:
                    break  # the move may not leave the map
                run.append((cx, cy))
            for n1 in range(min(steps, len(run)), 0, -1):
                if n1 == steps:
                    code = f"{first}{n1}"
                    walks.append((Act("move", code), tuple(run)))
                    continue
                for second in "NESW":
                    if second in (first, OPPOSITE[first]):
                        continue
                    ex, ey = DIRECTIONS[second]
                    bx, by = run[n1 - 1]
                    turn = []
                    for _ in range(steps - n1):
                        bx, by = bx + ex, by + ey
                        if (bx, by) not in terrain:
                            break
                        turn.append((bx, by))
                    else:
                        code = f"{first}{n1}{second}{steps - n1}"
                        walks.append((Act("move", code), (*run[:n1], *turn)))
        self._walks[key] = found = tuple(walks)
        return found

    def plain_moves(self, x: int, y: int, steps: int) -> tuple[Act, ...]:
        """The moves of `walks` without their cells (the same objects `legal_actions` lists)."""
        return self._map_moves.plain_moves(x, y, steps)

    def plain_ends(self, x: int, y: int, steps: int) -> tuple[tuple[int, int], ...]:
        """Where each of `plain_moves(x, y, steps)` ends."""
        return self._map_moves.plain_ends(x, y, steps)

    def landing(self, x: int, y: int, code: str) -> tuple[int, int]:
        """Where the move ``code`` from (x, y) ends."""
        return self._map_moves.landing(x, y, code)

    def _move(self, new: MineventureState, action: Act) -> None:
        me = new.players[new.seat]
        if action.b:
            target = DRAGON if action.b == "dragon" else int(action.b)
            stop = self.position(new, target)
            self._set(new, new.seat, x=stop[0], y=stop[1])
            # Decision battle-on-path: the mover stops there, no tile reward, then fights.
            self._start_combat(new, new.seat, target, on_path=True)
            return
        x, y = self._map_moves.landing(me.x, me.y, action.a)
        occupied = False
        for s, p in enumerate(new.players):
            if p.alive and p.x == x and p.y == y and s != new.seat:
                occupied = True
                break
        me = self._own(new, new.seat)
        me.x, me.y = x, y
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
            me = new.players[new.seat]
            new.roll = max(1, value + self._fx(me).stride)
            new.phase = "move"
            if not self._map_moves.plain_moves(me.x, me.y, new.roll):
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

    def _draw(self, new: MineventureState, code: int) -> None:
        seat, deck, why = new.queue[0]
        new.queue = new.queue[1:]
        self._take(new, deck, code)
        card = self.cards[code]
        if self._in_hand[code]:
            self._own(new, seat).hand = _insert(new.players[seat].hand, code)
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
            pile, bottom, _ = new.piles[deck]
            # A deck with nothing left to draw gives nothing: played hand cards stay in the
            # discards (the post: 不进行轮换).
            if new.players[seat].alive and (pile or bottom):
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

    def _event(self, new: MineventureState, seat: int, code: int) -> None:
        effect = self.card_effect(code)
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
        self, new: MineventureState, seat: int, effect: Effect, other: int | None, source: int
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
            # A card thrown at another player in the decision phase kills like a blow in
            # combat: the thrower takes the kill reward (decision thrown-kill).
            thrown = effect.target is Target.OTHER and other is not None and other != DRAGON
            self._deaths(new, killer={other: seat} if thrown and other is not None else None)
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

    # -- decision phase -------------------------------------------------------------------

    def _decisions(self, state: MineventureState) -> list[Act]:
        seat = state.seat
        me = state.players[seat]
        attack = self.attack_range(state, seat)
        targets = self._in_reach(state, seat, attack)
        out = [self._end_act]
        if me.hand:
            # What `playable` answers, read from per-card tables for the usual sorts of card.
            fixed, aimed, books, icons = (
                self._fixed_plays,
                self._aimed_plays,
                self._book_plays,
                self._icon_plays,
            )
            kinds = self._weapon_kind
            # Cards aimed at another player reach the same seats (decision potion-targets).
            self._in_reach_hint = (state, seat, targets)
            for code in sorted(set(me.hand)):
                plays = fixed[code]
                if plays is not None:
                    out += plays
                    continue
                by_seat = aimed[code]
                if by_seat is not None:
                    out += [by_seat[target] for target in targets]
                    continue
                book = books[code]
                if book is not None:
                    # Under a weapon of its kind that does not hold it yet.
                    kind, on_main, on_sub = book
                    if me.main >= 0 and kinds[me.main] == kind and code not in me.main_ench:
                        out.append(on_main)
                    if me.sub >= 0 and kinds[me.sub] == kind and code not in me.sub_ench:
                        out.append(on_sub)
                    continue
                icon = icons[code]
                if icon is not None:
                    # Only on a cell bearing the same icon (decision map-icons).
                    if self._icons[(me.x, me.y)] == icon[0]:
                        out.append(icon[1])
                    continue
                for arg in self.playable(state, seat, code, in_combat=False):
                    out.append(self.play_act("play", code, arg))
            self._in_reach_hint = None
        fights = self._fight_acts
        out += [fights[target] for target in targets]
        if state.dragon_hp > 0:
            dx, dy = self.dragon_at
            if abs(me.x - dx) + abs(me.y - dy) <= attack:
                out.append(fights[DRAGON])
        return out

    def _play(self, new: MineventureState, seat: int, code: int, arg: str, foe: int | None) -> None:
        p = new.players[seat]
        self._set(new, seat, hand=_remove(p.hand, code))
        card = self.hand_card(code)
        if isinstance(card, Food):
            self._heal(new, seat, card.heal)
            if card.buff:
                self.give_buff(new, seat, self.buff_index[card.buff])
            self._put_back(new, code)
            return
        if card.kind is ItemKind.ENCHANT:
            # An enchant book goes under a weapon of its kind; reinforce adds durability now.
            if card.effect.kind is EffectKind.REINFORCE:
                self.mend(new, seat, arg, card.effect.amount)
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

    # -- turns and rounds -----------------------------------------------------------------

    def _start_turn(self, new: MineventureState, seat: int) -> None:
        new.seat = seat
        new.roll = 0
        if new.players[seat].skip:
            # A defender who fled this round goes straight to the end phase.
            self._enter_end(new)
        else:
            new.phase = "action"

    def _enter_end(self, new: MineventureState) -> None:
        """The end phase: discard down to the hand limit, then play passes. However a turn
        reaches it (ending the decision phase, after a fight, after fleeing as a defender), a
        seat within its limit has nothing to choose and passes at once."""
        new.phase = "end"
        p = new.players[new.seat]
        if len(p.hand) <= self._hand_limit + self._fx(p).pack:  # see hand_limit
            self._end_turn(new)

    def _discard_card(self, new: MineventureState, seat: int, code: int) -> None:
        self._set(new, seat, hand=_remove(new.players[seat].hand, code))
        self._put_back(new, code)
        if new.phase == "end" and len(new.players[seat].hand) <= self.hand_limit(new, seat):
            self._end_turn(new)

    def _end_turn(self, new: MineventureState) -> None:
        if new.players[new.seat].spoils:
            self._own(new, new.seat).spoils = False
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
        living = self.living(new)  # nobody dies before the deaths below
        # Story damage: overworld players who did not kill this round take dead + story_base.
        story = len(new.players) - len(living) + s.story_base if new.story >= 0 else 0
        overworld = self._overworld_cells
        # The dragon breathes on every player within its range (decision dragon).
        dragon = self.model.dragon if new.dragon_hp > 0 else None
        dx, dy = self.dragon_at
        # Then buffs tick: regeneration and poison, and their rounds run down. Each changes a
        # seat's own numbers alone, so a seat takes them all in turn; a seat whose numbers do
        # not change is left as it is.
        for seat in living:
            p = new.players[seat]
            if story and overworld[(p.x, p.y)] and not p.killed:
                self._own(new, seat).hp -= story
            if dragon is not None and abs(p.x - dx) + abs(p.y - dy) <= dragon.range:
                self._hit(new, seat, dragon.damage, dragon.types, blocking=False)
            fx = self._fx(p)
            if fx.regeneration:
                self._heal(new, seat, fx.regeneration)
            if fx.poison:
                self._own(new, seat).hp -= fx.poison
            if any(p.buffs):
                buffs = self._ticked(p.buffs)
                if buffs != p.buffs:
                    self._own(new, seat).buffs = buffs
            if p.killed or p.fled or p.skip:
                p = self._own(new, seat)
                p.killed = p.fled = p.skip = False
        self._deaths(new, killer=None)
        new.round += 1
        # Time moves on: a day is `rounds_per_day` rounds (day, then night); after the night
        # the day counter moves on and everyone heals.
        new.night = (new.round % s.rounds_per_day) * 2 >= s.rounds_per_day
        if new.round % s.rounds_per_day == 0:
            new.day += 1
            for seat in living:
                p = new.players[seat]
                if p.alive:
                    heal = self._fx(p).daily_heal
                    if heal:
                        self._heal(new, seat, heal)
            if new.day >= s.story_day and new.story < 0:
                self._force_story(new)
        if self._check_end(new):
            return
        self._start_turn(new, next(seat for seat in living if new.players[seat].alive))

    @staticmethod
    def _ticked(
        buffs: tuple[tuple[int, int, int] | None, ...],
    ) -> tuple[tuple[int, int, int] | None, ...]:
        """Buff slots after a round: a buff with one round left goes, a lasting one (0) stays,
        the others run down by one."""
        return tuple(
            None
            if e is not None and e[1] == 1
            else (e if e is None or e[1] == 0 else (e[0], e[1] - 1, e[2]))
            for e in buffs
        )

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
            options=frozenset({"players", "mode", "last_day"}),
        )

    # -- invariants -----------------------------------------------------------------------

    def invariant_problems(self, state: MineventureState) -> list[str]:
        problems = []
        # Every card of the game in exactly one place: all places together, sorted, are the
        # cards dealt (a Counter says which differ only when they do).
        cards: list[int] = []
        for pile, bottom, discard in state.piles:
            cards += pile
            cards += bottom
            cards += discard
        for p in state.players:
            cards += p.hand
            cards += (c for c in (p.main, p.sub, p.armour, p.partner) if c >= 0)
            cards += p.main_ench
            cards += p.sub_ench
        cards += (c for c in (state.story, state.drawn) if c >= 0)
        cards.sort()
        for seat, p in enumerate(state.players):
            if p.hp > self.settings.max_hp:
                problems.append(f"hp {p.hp} above {self.settings.max_hp}")
            # After their end phase a seat holds at most the hand limit (a killer who took a
            # hand outside their own turn discards at their next end phase).
            limit = self.hand_limit(state, seat)
            if p.alive and seat != state.seat and not p.spoils and len(p.hand) > limit:
                problems.append(f"seat {seat} holds {len(p.hand)} cards, above the hand limit")
            for slot, code, durability in (("main", p.main, p.main_dur), ("sub", p.sub, p.sub_dur)):
                if code >= 0 and durability > self.gear(code).durability:
                    problems.append(
                        f"seat {seat}'s {slot} weapon has durability {durability}, above the "
                        f"{self.gear(code).durability} boxes on {self.tokens[code]!r}"
                    )
            looted = seat == state.loot[1]
            if not p.alive and not looted and (p.hand or p.main >= 0 or p.partner >= 0):
                problems.append("a dead player still holds cards")
        if cards != self._dealt:
            counts, expected = Counter(cards), Counter(self._dealt)
            diff = (counts - expected) + (expected - counts)
            problems.append(f"cards created or lost: {sorted(self.tokens[c] for c in diff)}")
        return problems

    def check_invariants(self, state: MineventureState) -> None:
        problems = self.invariant_problems(state)
        if problems:
            raise InvariantViolation(f"{'; '.join(problems)} in {self.notation(state)}")

    # -- notation -------------------------------------------------------------------------

    def notation(self, state: MineventureState) -> str:
        """The whole position as one line of text (see notation.py), like a chess FEN."""
        return notation.write(self, state)

    def from_notation(self, text: str) -> MineventureState:
        return notation.read(self, text)

    def parse_action(self, text: str) -> Act:
        return Act.parse(text)
