"""Maquis (马基游击队) as a plain rules library: every number comes from the model.

The rules of the post (shared/seeds/004_aa3785d486b0e35a.txt) and what content/maquis decides
where the post is open (the `decisions:` of content/maquis/game.yaml, cited where encoded):

- A round is placement (the resistance first, then resistance and patrols alternately; the
  patrols go on once the workers are all placed), action (activate every worker in any order,
  each walks home right after), upkeep (patrols off, the day marker moves, morale may drop).
- Patrols per round = max(workers in safe houses, the red number of the morale space); the
  last ``min(soldier track, patrols)`` of them are soldiers, the others police.
- A patrol is a chance step: the top card of the shuffled deck. The draw pile is kept as a set
  and every draw picks a uniformly random card of it, which is exactly drawing from a shuffled
  pile; "reshuffle the discards when the deck runs out" is moving them back.
- Activating a worker pays the left side at once; the right side takes effect when the worker
  gets home, or also when arrested on a star-shield space (decision reward-on-return).

Actions: ``place:<loc>``, ``stay``, ``patrol:<card>`` (chance), ``act:<loc>:<choice>``,
``home`` (walk home after acting) and ``kill:<loc>``.

This module holds the protocol, what may be placed and killed, the steps and the round; its
parts live beside it: ``options`` (what a worker may do on a space, and the supply),
``paths`` (safe houses and the way home), ``notation`` (a position and an action as text)
and ``state`` (the position and the moves).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from operator import sub
from typing import Any

from pnp.engines.base import Declaration, InvariantViolation, Outcome
from pnp.engines.piles import without as _remove
from pnp.errors import IllegalActionError
from pnp.games.maquis.model import (
    Action,
    DayMark,
    Difficulty,
    EffectKind,
    LocationKind,
    Maquis,
)
from pnp.games.maquis.notation import format_position, parse_action, parse_position
from pnp.games.maquis.options import (
    LastOptions,
    OpenStep,
    Option,
    OptionGroup,
    OptionsBySpace,
    PayTable,
    WorkerOptions,
)
from pnp.games.maquis.state import (
    ACTIVE,
    EMPTY,
    MEMO_LIMIT,
    POLICE,
    SLUG,
    SOLDIER,
    WORKER,
    Activate,
    Kill,
    MaquisAction,
    MaquisState,
    PatrolDraw,
    Place,
    Result,
    Return,
    Stay,
    Termination,
    _copy,
)
from pnp.games.maquis.state import evolve as replace
from pnp.games.maquis.state import put as _put

__all__ = [
    "Activate",
    "Kill",
    "MaquisAction",
    "MaquisRules",
    "MaquisState",
    "PatrolDraw",
    "Place",
    "Result",
    "Return",
    "Stay",
    "Termination",
]


Check = Callable[[MaquisState, Any], bool]
"""Whether an action of one kind is legal in a position (the state is not over)."""

Step = Callable[[MaquisState, Any], MaquisState]
"""The position after a legal action of one kind."""

START_DAY = 0
"""The day marker's place at the start: beside day 1, before the track (the post's setup)."""

STANDARD_LEVEL = "normal"
"""The difficulty level of the post's base rules (the rulebook's setup is told at it)."""


class MaquisRules(WorkerOptions):
    """The rules of Maquis at one difficulty level: ``Rules[MaquisState, MaquisAction]``."""

    slug = SLUG
    num_players = 1

    def __init__(
        self, model: Maquis, players: int | None = 1, difficulty: str = STANDARD_LEVEL
    ) -> None:
        if players not in (None, 1):
            raise ValueError(f"maquis is a solo game, not for {players} players")
        if difficulty not in model.difficulty:
            raise ValueError(f"unknown difficulty {difficulty!r}")
        self.model = model
        self.memo_key = object()
        """This rules object in the memo keys of the policies: a token no other rules object
        holds and that refers to nothing. A key made of it and of a position's tuples,
        strings and numbers is one the garbage collector stops tracking; a key holding the
        rules object itself is tracked for good, and the full collections that walk every
        such key cost a tenth of a strong game."""
        self.level: Difficulty = model.difficulty[difficulty]
        self.locs = model.locations
        self.index = {loc.id: i for i, loc in enumerate(self.locs)}
        self.res = tuple(r.id for r in model.resources)
        self.res_index = {r: i for i, r in enumerate(self.res)}
        self.limit = tuple(r.count for r in model.resources)
        self.adjacent: list[list[int]] = [[] for _ in self.locs]
        for line in model.lines:
            a, b = self.index[line.a], self.index[line.b]
            self.adjacent[a].append(b)
            self.adjacent[b].append(a)
        self.adjacent_bits = tuple(sum(1 << j for j in near) for near in self.adjacent)
        """Each space's neighbours along the lines, as a bitmask of space indices."""
        self.safe = frozenset(
            i for i, loc in enumerate(self.locs) if loc.kind is LocationKind.SAFE_HOUSE
        )
        self.vacant = tuple(i for i, loc in enumerate(self.locs) if loc.kind is LocationKind.VACANT)
        self.zones = tuple(i for i, loc in enumerate(self.locs) if loc.kind is LocationKind.AIRDROP)
        self.slots = tuple(i for i, loc in enumerate(self.locs) if loc.kind is LocationKind.MISSION)
        self.tiles = {t.id: t for t in model.vacant_tiles}
        self.cards = tuple(model.patrol_cards)
        self.card_index = {c.id: i for i, c in enumerate(self.cards)}
        self.card_locs = tuple(tuple(self.index[x] for x in c.locations) for c in self.cards)
        self.cards_naming = tuple(
            tuple(c for c, locs in enumerate(self.card_locs) if i in locs)
            for i in range(len(self.locs))
        )
        """The patrol cards that name each space, in card order."""
        self.deck = tuple(sorted(i for i, c in enumerate(self.cards) for _ in range(c.copies)))
        self.missions = {m.id: m for m in model.missions}
        self.s = model.settings
        self.kill_cost = self._vector(self.s.kill_cost)
        self.build_cost = self._vector(self.s.build_cost)
        self._free = (0,) * len(self.res)
        """Nothing of any resource: what a free option costs."""
        days = model.days
        self._drop_days = frozenset(
            day
            for day in range(START_DAY, days.days + 1)
            if self.level.morale_drop in days.marks(day)
        )
        """The days whose space costs morale when the marker enters it at this level (the
        upkeep asks about no other day: past the last one is the End space, or the marker
        goes back beside day 1 on a level that loops); a harder level's last day is one."""
        # Built once and shared: the actions legal_actions hands out, each cost as a vector.
        self._place_of = [Place(loc.id) for loc in self.locs]
        self._kill_of = [Kill(loc.id) for loc in self.locs]
        self._idle_of = [Activate(loc.id, "-") for loc in self.locs]
        self._activate_of: dict[tuple[int, str], Activate] = {}
        self._draw_of = [PatrolDraw(card.id) for card in self.cards]
        self._stay, self._return = Stay(), Return()
        # Each kind of action: its legality check and its step (apply runs both).
        self._kinds: dict[type, tuple[Check, Step]] = {
            Place: (self._may_place, self._apply_place),
            Stay: (self._may_stay, self._apply_stay),
            PatrolDraw: (self._may_draw, self._apply_draw),
            Activate: (self._may_activate, self._apply_activate),
            Return: (self._may_return, self._apply_return),
            Kill: (self._may_kill, self._apply_kill),
        }
        self._kind = tuple(loc.kind for loc in self.locs)
        self._vacant_slot = {i: k for k, i in enumerate(self.vacant)}
        self._zone_of = {i: k for k, i in enumerate(self.zones)}
        # Pure functions of a few immutable parts of a state, memoised (each starts afresh
        # at MEMO_LIMIT entries).
        self._own_memo: dict[tuple[Any, ...], OptionsBySpace] = {}
        self._mission_memo: dict[tuple[Any, ...], OptionsBySpace] = {}
        self._safe_memo: dict[tuple[str, ...], frozenset[int]] = {}
        self._placeable_memo: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self._safe_bits: dict[tuple[str, ...], int] = {}
        self._reach_memo: dict[tuple[int, tuple[str, ...]], tuple[int, int]] = {}
        self._reach_by_board: dict[tuple[str, tuple[str, ...]], tuple[int, int]] = {}
        # A board as binary digits, space 0 last: 1 for a patrol figure, 0 for anything else.
        self._patrol_digits = str.maketrans(
            {EMPTY: "0", WORKER: "0", ACTIVE: "0", POLICE: "1", SOLDIER: "1"}
        )
        # The last position asked about, with its answer: a policy lists a position's actions
        # and apply then checks one of them (a state is never changed once built, and the
        # reference held here keeps its identity from being reused).
        self._last_placeable: tuple[MaquisState | None, tuple[int, ...]] = (None, ())
        self._last_own: LastOptions = ((), {})
        self._last_landed: tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]] = ((), ())
        self._last_steps: LastOptions = ((), {})
        self._chosen: dict[tuple[int, str, tuple[str, ...], tuple[str, ...]], Option] = {}
        # The pay tables of the model's actions (spaces and tiles), by identity: the model
        # lives as long as the rules, and each entry keeps its action to check it is the one.
        self._pays: dict[int, tuple[Action, PayTable]] = {}
        actions = [loc.action for loc in self.locs] + [t.action for t in model.vacant_tiles]
        for action in actions:
            if action is not None:
                self._pays[id(action)] = (action, self._pay_table(action))
        self._steps_memo: dict[tuple[Any, ...], tuple[OpenStep, ...]] = {}
        self._step_groups_memo: dict[tuple[Any, ...], tuple[tuple[int, OptionGroup], ...]] = {}
        self._spare_memo: dict[tuple[tuple[int, ...], ...], tuple[int, ...]] = {}

    # -- protocol -------------------------------------------------------------------------

    def declares(self) -> Declaration:
        return Declaration(
            game=SLUG,
            effects=frozenset(EffectKind),
            modes=frozenset({DayMark.ORANGE, DayMark.STAR}),
            settings=frozenset(
                {
                    "settings.kill_cost",
                    "settings.kills_per_round",
                    "settings.kill_morale",
                    "settings.kill_soldiers",
                    "settings.build_cost",
                    "settings.missions_in_play",
                    "settings.missions_to_win",
                    "resources.count",
                    "morale.start",
                    "morale.red",
                    "soldiers.start",
                    "soldiers.spaces",
                    "days.days",
                    "days.orange",
                    "days.star",
                    "locations.kind",
                    "locations.action",
                    "locations.shield",
                    "lines.a",
                    "lines.b",
                    "vacant_tiles.action",
                    "vacant_tiles.safe_house",
                    "patrol_cards.locations",
                    "patrol_cards.copies",
                    "missions.steps.order",
                    "missions.steps.pay",
                    "missions.steps.gain",
                    "missions.steps.at",
                    "missions.steps.days",
                    "difficulties.workers",
                    "difficulties.cafe",
                    "difficulties.airdrop",
                    "difficulties.end_day",
                    "difficulties.loop",
                    "difficulties.morale_drop",
                    "difficulties.arrest_morale",
                }
            ),
            options=frozenset({"difficulty"}),
        )

    def initial_state(self, rng: random.Random) -> MaquisState:
        # Maquis setup: 2 random missions at the 2 exits, in random order.
        ids = sorted(self.missions)
        dealt = rng.sample(ids, min(self.s.missions_in_play, len(self.slots), len(ids)))
        # Setup: the day marker starts beside day 1 (decision day-marker-beside-day-one);
        # the first upkeep moves it onto day 1.
        state = MaquisState(
            phase="place",
            day=START_DAY,
            morale=self.model.morale.start,
            soldiers=self.model.soldiers.start,
            home=self.level.workers,
            cafe=self.level.cafe,
            board=EMPTY * len(self.locs),
            stock=(0,) * len(self.res),
            drops=tuple((0,) * len(self.res) for _ in self.zones),
            tiles=("",) * len(self.vacant),
            missions=tuple(dealt),
            boxes=tuple((False,) * len(self.missions[m].steps) for m in dealt),
            draw=self.deck,
            discard=(),
            to_place=0,
            patrols_left=0,
            patrols=0,
            round_soldiers=0,
            resistance_next=True,
            killed=False,
            active=-1,
            pending="",
            rounds=0,
            failed=False,
        )
        return self._start_round(state)

    def current_player(self, state: MaquisState) -> int | None:
        if state.ended is not None:
            return None
        # A chance step (is_chance, written out: this is asked before every step).
        if (
            state.phase == "place"
            and state.patrols_left > 0
            and (state.to_place == 0 or not state.resistance_next)
        ):
            return None
        return 0

    def is_chance(self, state: MaquisState) -> bool:
        # _patrol_turn, written out: a playout asks this before every step.
        return (
            state.phase == "place"
            and state.patrols_left > 0
            and (state.to_place == 0 or not state.resistance_next)
        )

    def _patrol_turn(self, s: MaquisState) -> bool:
        return s.patrols_left > 0 and (s.to_place == 0 or not s.resistance_next)

    def legal_actions(self, state: MaquisState) -> list[MaquisAction]:
        if state.ended is not None:
            return []
        if state.phase == "place":
            if self._patrol_turn(state):
                return [a for a, _ in self.chance_outcomes(state)]
            place_of = self._place_of
            return [place_of[i] for i in self._placeable(state)] or [self._stay]
        actions: list[MaquisAction] = []
        if state.active >= 0:
            actions.append(self._return)
        else:
            board, stock = state.board, state.stock
            own, steps = self._options_at(state)
            idle_of = self._idle_of
            i = board.find(WORKER)
            while i >= 0:
                found = own.get(i)
                if found is None:
                    found = self._own_options(state, own, i)
                groups = found[0]
                step = steps.get(i)
                if step is not None:
                    groups += step[0]
                actions.append(idle_of[i])
                for cost, _, activations in groups:
                    # Affordable: free, or every resource covered (_affords, written out).
                    if not cost or min(map(sub, stock, cost)) >= 0:
                        actions.extend(activations)
                i = board.find(WORKER, i + 1)
        targets = self.kill_targets(state)
        if targets:
            actions.extend([self._kill_of[i] for i in targets])
        return actions

    def chance_outcomes(self, state: MaquisState) -> list[tuple[MaquisAction, float]]:
        if not self.is_chance(state) or state.ended is not None:
            return []
        pile = state.draw or state.discard
        counts = Counter(pile)
        return [(self._draw_of[c], k / len(pile)) for c, k in sorted(counts.items())]

    def sample_chance(self, state: MaquisState, rng: random.Random) -> MaquisAction:
        pile = state.draw or state.discard
        return self._draw_of[pile[int(rng.random() * len(pile))]]

    def is_terminal(self, state: MaquisState) -> bool:
        return state.ended is not None

    def turns(self, state: MaquisState) -> int:
        return state.rounds

    def missions_done(self, state: MaquisState) -> int:
        return sum(all(b) for b in state.boxes)

    def result(self, state: MaquisState) -> Result:
        # Maquis end: morale 0 loses whatever else; 2 missions win; 1 draws; 0 loses.
        if state.failed:
            return Result.LOSS
        done = self.missions_done(state)
        if done >= self.s.missions_to_win:
            return Result.WIN
        return Result.DRAW if done >= 1 else Result.LOSS

    def outcome(self, state: MaquisState) -> Outcome:
        if state.ended is None:
            raise ValueError(f"game not over: {self.notation(state)}")
        winners = frozenset({0}) if self.result(state) is Result.WIN else frozenset()
        return Outcome(winners, state.ended)

    # -- what may be done -------------------------------------------------------------------

    def placeable(self, s: MaquisState) -> list[int]:
        """Spaces a worker may go to: empty, no safe house, no airdrop zone without resources."""
        return list(self._placeable(s))

    def _placeable(self, s: MaquisState) -> tuple[int, ...]:
        """:meth:`placeable`, memoised on the board, the tiles and which airdrop zones hold
        something (numbers alone: the placements there are listed when asked for, so the
        garbage collector need not follow a memo entry)."""
        if s is self._last_placeable[0]:  # the position asked about last (legal, then apply)
            return self._last_placeable[1]
        key = (s.board, s.tiles, self._landed(s.drops))
        spaces = self._placeable_memo.get(key)
        if spaces is None:
            if len(self._placeable_memo) >= MEMO_LIMIT:
                self._placeable_memo.clear()
            spaces = self._placeable_memo[key] = tuple(self._list_placeable(s))
        self._last_placeable = (s, spaces)
        return spaces

    def _list_placeable(self, s: MaquisState) -> list[int]:
        safe = self.safe_houses(s.tiles)
        spaces = []
        for i, c in enumerate(s.board):
            if c != EMPTY or i in safe:
                continue
            if self._kind[i] is LocationKind.AIRDROP and not any(s.drops[self._zone_of[i]]):
                continue
            spaces.append(i)
        return spaces

    def kill_targets(self, s: MaquisState) -> list[int]:
        # Kill police: once per round, for the kill cost; soldiers cannot be killed. The post
        # sets no limit: a full soldier track does not stop a kill (decision kill-when).
        if (
            s.phase != "act"
            or s.killed
            or POLICE not in s.board  # nobody to kill: what the hand holds does not matter
            or not (
                # The hand only adds to the stock: asked only when the stock is short and an
                # acting worker carries a reward (in_hand is empty otherwise).
                self._affords(s.stock, self.kill_cost)
                or (s.active >= 0 and s.pending not in ("", "-") and self._armed_by_hand(s))
            )
        ):
            return []
        board, targets = s.board, []
        i = board.find(POLICE)
        while i >= 0:
            targets.append(i)
            i = board.find(POLICE, i + 1)
        return targets

    def _armed_by_hand(self, s: MaquisState) -> bool:
        """Whether the stock and the acting worker's hand pay for a kill (asked when the
        stock alone does not, and the worker carries a reward)."""
        option = self._option_for(s, s.active, s.pending)
        # Only a drop, or a reward of something a kill costs, can make up the shortfall.
        if option.collect < 0 and (
            option.reward is None
            or not any(self.kill_cost[self.res_index[r]] for r in option.reward.resources)
        ):
            return False
        return self._affords(self._with_hand(s), self.kill_cost)

    def in_hand(self, s: MaquisState) -> tuple[int, ...]:
        """Resources the acting worker gained this round and carries until he gets home.

        The post lets a worker use a weapon gained this round at once, between acting and
        walking home (decision kill-with-the-weapon-in-hand): his reward counts for a kill
        before it reaches the stock. Only what the supply can give is in his hand.
        """
        hand = [0] * len(self.res)
        if s.active < 0 or s.pending in ("", "-"):
            return tuple(hand)
        option = self._option_for(s, s.active, s.pending)
        if option.reward is not None:
            supply = self.supply(s)
            for r, n in option.reward.resources.items():
                k = self.res_index[r]
                hand[k] += min(n, supply[k])
        if option.collect >= 0:
            for k, n in enumerate(s.drops[option.collect]):
                hand[k] += n
        spent = s.spent or (0,) * len(self.res)
        return tuple(max(0, h - x) for h, x in zip(hand, spent, strict=True))

    def _with_hand(self, s: MaquisState) -> tuple[int, ...]:
        return tuple(a + b for a, b in zip(s.stock, self.in_hand(s), strict=True))

    # -- apply ----------------------------------------------------------------------------

    def apply(self, state: MaquisState, action: Any) -> MaquisState:
        # One check and one step for each kind of action, found by its type.
        kind = self._kinds.get(type(action))
        if kind is None or state.ended is not None or not kind[0](state, action):
            raise IllegalActionError(f"illegal action {action!r} in {self.notation(state)}")
        return kind[1](state, action)

    def _is_legal(self, s: MaquisState, action: Any) -> bool:
        kind = self._kinds.get(type(action))
        return kind is not None and s.ended is None and kind[0](s, action)

    def _may_place(self, s: MaquisState, action: Place) -> bool:
        return (
            s.phase == "place"
            and not self._patrol_turn(s)
            and self.index.get(action.loc, -1) in self._placeable(s)
        )

    def _apply_place(self, state: MaquisState, action: Place) -> MaquisState:
        s = _copy(state)
        s.board = _put(state.board, self.index[action.loc], WORKER)
        s.home = state.home - 1
        s.to_place = state.to_place - 1
        s.resistance_next = False
        if s.to_place == 0 and s.patrols_left == 0:
            s.phase = "act"  # the worker just placed is there to act: no upkeep yet
        return s

    def _may_stay(self, s: MaquisState, action: Stay) -> bool:
        return s.phase == "place" and not self._patrol_turn(s) and not self._placeable(s)

    def _apply_stay(self, s: MaquisState, action: Stay) -> MaquisState:
        new = replace(s, to_place=s.to_place - 1, resistance_next=False)
        self._advance(new)
        return new

    def _may_draw(self, s: MaquisState, action: PatrolDraw) -> bool:
        card = self.card_index.get(action.card, -1)
        return (
            s.phase == "place"
            and s.patrols_left > 0
            and (s.to_place == 0 or not s.resistance_next)  # is_chance, written out
            and card >= 0
            and card in (s.draw or s.discard)
        )

    def _apply_draw(self, s: MaquisState, action: PatrolDraw) -> MaquisState:
        new = self._patrol(s, self.card_index[action.card])
        if not new.patrols_left and not new.to_place:  # the round's last figure is placed
            self._advance(new)
        return new

    def _may_activate(self, s: MaquisState, action: Activate) -> bool:
        if s.phase != "act" or s.active >= 0:
            return False
        i = self.index.get(action.loc, -1)
        if i < 0 or s.board[i] != WORKER:
            return False
        if action.choice == "-":
            return True
        option = self._option_keyed(s, i, action.choice)
        return option is not None and self._affords(s.stock, option.cost)

    def _apply_activate(self, state: MaquisState, action: Activate) -> MaquisState:
        i = self.index[action.loc]
        s = _copy(state)
        s.board = _put(state.board, i, ACTIVE)
        if action.choice != "-":  # pay at once
            option = self._option_keyed(state, i, action.choice)
            assert option is not None  # checked by _may_activate
            s.stock = tuple(map(sub, state.stock, option.cost))
        s.active = i
        s.pending = action.choice
        return s  # the worker walks home next: nothing else happens before

    def _may_return(self, s: MaquisState, action: Return) -> bool:
        return s.phase == "act" and s.active >= 0

    def _apply_return(self, s: MaquisState, action: Return) -> MaquisState:
        new = self._walk_home(s)
        if WORKER not in new.board:  # the last worker is home
            self._advance(new)
        return new

    def _may_kill(self, s: MaquisState, action: Kill) -> bool:
        return self.index.get(action.loc, -1) in self.kill_targets(s)

    def _apply_kill(self, s: MaquisState, action: Kill) -> MaquisState:
        # Kill police: pay, remove the figure, soldier track +1 (it stays on its last space
        # once there: there are no more soldier figures), morale −1. The acting
        # worker's new weapon pays first (decision kill-with-the-weapon-in-hand): it is
        # spent and does not come home; the stock pays the rest.
        i = self.index[action.loc]
        hand = self.in_hand(s)
        from_hand = tuple(min(h, c) for h, c in zip(hand, self.kill_cost, strict=True))
        stock = tuple(h - c + f for h, c, f in zip(s.stock, self.kill_cost, from_hand, strict=True))
        spent = s.spent or (0,) * len(self.res)
        spent = tuple(a + b for a, b in zip(spent, from_hand, strict=True))
        s = self._morale(
            replace(
                s,
                board=_put(s.board, i, EMPTY),
                stock=stock,
                spent=spent if any(spent) else (),
                soldiers=min(self.model.soldiers.spaces, s.soldiers + self.s.kill_soldiers),
                killed=True,
            ),
            self.s.kill_morale,
        )
        self._advance(s)
        return s

    def _patrol(self, s: MaquisState, card: int) -> MaquisState:
        draw, discard = (s.draw, s.discard) if s.draw else (s.discard, ())
        placed = s.patrols - s.patrols_left
        # Soldiers replace police one for one and are placed last.
        figure = SOLDIER if placed >= s.patrols - s.round_soldiers else POLICE
        board = s.board
        safe = self._safe_memo.get(s.tiles) or self.safe_houses(s.tiles)
        target = -1
        for i in self.card_locs[card]:  # the first empty space the card names, not a safe house
            if board[i] == EMPTY and i not in safe:
                target = i
                break
        arrested = False
        if target < 0:
            # No place empty: the first resistance worker on the card is arrested.
            target = next((i for i in self.card_locs[card] if board[i] == WORKER), -1)
            arrested = target >= 0
        new = _copy(s)
        if target >= 0:
            new.board = _put(board, target, figure)
        new.draw = _remove(draw, card)
        new.discard = tuple(sorted((*discard, card)))
        new.patrols_left = s.patrols_left - 1
        new.resistance_next = True
        if arrested and self.level.arrest_morale and not s.failed:  # _morale, written out
            new.morale = max(0, min(self.model.morale.top, s.morale + self.level.arrest_morale))
            new.failed = new.morale == 0
        return new

    def _walk_home(self, s: MaquisState) -> MaquisState:
        i, choice = s.active, s.pending
        option = None
        if choice != "-":
            # Re-derive the chosen option; payment is already made, so look it up unpaid.
            option = self._option_for(s, i, choice)
        home = self.has_path_home(s, i)
        new = _copy(s)
        new.board = _put(s.board, i, EMPTY)
        new.active = -1
        new.pending = ""
        new.spent = ()
        # Arrested: removed for good (very hard: morale too).
        if home:
            new.home = s.home + 1
        elif self.level.arrest_morale and not s.failed:  # _morale, written out
            new.morale = max(0, min(self.model.morale.top, s.morale + self.level.arrest_morale))
            new.failed = new.morale == 0
        if option is not None and (home or self.locs[i].shield):
            # The reward only comes home with the worker, or stays on a star-shield space;
            # what he spent on a kill on the way is not in it any more.
            self._take_reward(new, option, i, s.spent)
        return new

    def _take_reward(
        self, new: MaquisState, o: Option, i: int, spent: tuple[int, ...] = ()
    ) -> None:
        """Take the reward of ``o`` into ``new``, a state this step has just built and no one
        else holds yet (``spent``: what the worker spent of it on a kill on the way)."""
        used = dict(zip(self.res, spent, strict=True)) if spent else {}
        stock, drops = new.stock, new.drops
        if o.reward is not None:
            r = o.reward
            # 4 of a kind at most in play: take only what the supply still has (_gain).
            supply = self._supply(stock, drops)
            gained = list(stock)
            for name, n in r.resources.items():
                n -= used.get(name, 0)
                k = self.res_index[name]
                gained[k] += min(n, supply[k])
            stock = tuple(gained)
            if r.morale and not new.failed:  # _morale: the fail space keeps morale where it is
                new.morale = max(0, min(self.model.morale.top, new.morale + r.morale))
                new.failed = new.morale == 0
            if r.recruit:
                n = min(r.recruit, new.cafe)
                new.cafe -= n
                new.home += n
        if o.airdrop is not None and not any(drops[o.zone]):
            # The zone the player chose, empty when chosen: nothing fills a zone meanwhile.
            supply = self._supply(stock, drops)
            drop = tuple(min(o.airdrop.get(r, 0), supply[k]) for k, r in enumerate(self.res))
            laid = list(drops)
            laid[o.zone] = drop
            drops = tuple(laid)
        if o.build:
            built = list(new.tiles)
            built[self.vacant.index(i)] = o.build
            new.tiles = tuple(built)
        if o.collect >= 0:
            # Tokens of the drop spent on a kill went back to the supply.
            drop = tuple(
                max(0, n - used.get(r, 0)) for n, r in zip(drops[o.collect], self.res, strict=True)
            )
            emptied = list(drops)
            emptied[o.collect] = (0,) * len(self.res)
            drops = tuple(emptied)
            stock = tuple(a + b for a, b in zip(stock, drop, strict=True))
        if o.mission is not None:
            slot, k = o.mission
            filled = list(new.boxes)
            box = list(filled[slot])
            box[k] = True
            filled[slot] = tuple(box)
            new.boxes = tuple(filled)
        new.stock, new.drops = stock, drops

    def _advance(self, new: MaquisState) -> None:
        """Move ``new``, a state this step has just built and no one else holds yet, on
        through what needs no decision (changed in place): the action phase once every
        worker and patrol is placed, the upkeep and the next round once every worker is
        home."""
        while new.ended is None:
            if new.phase == "place":
                if new.to_place or new.patrols_left:
                    return
                new.phase = "act"
            elif new.phase == "act":
                if new.active >= 0 or WORKER in new.board:
                    return
                self._upkeep(new)
            else:
                return

    def _upkeep(self, new: MaquisState) -> None:
        """The upkeep, on ``new`` (as :meth:`_advance`)."""
        # Upkeep: patrols off the board, the day marker moves on; entering a marked space
        # (orange, or star in the hard levels) costs morale.
        new.board = new.board.replace(POLICE, EMPTY).replace(SOLDIER, EMPTY)
        new.rounds += 1
        day = new.day + 1
        days = self.model.days
        time_up = False
        if day > days.days:
            if self.level.loop:
                day = START_DAY  # very easy: back beside day 1, as at the start
            else:
                time_up = True  # the End space
        new.day = day
        # The harder levels end on reaching their last day (decision harder-end-day); it is
        # still a day space, so entering it costs what its mark costs at this level. Only the
        # End space past the last day is unmarked (the upkeep never asks about it).
        if self.level.end_day and day >= self.level.end_day:
            time_up = True
        if day in self._drop_days and not new.failed:
            # _morale(s, -1), whose fail space keeps morale where it is.
            new.morale = max(0, min(self.model.morale.top, new.morale - 1))
            new.failed = new.morale == 0
        ended = None
        if new.failed:
            ended = Termination.MORALE
        elif self.missions_done(new) >= self.s.missions_to_win:
            ended = Termination.MISSIONS
        elif new.home == 0:
            ended = Termination.ARRESTS
        elif time_up:
            ended = Termination.TIME
        if ended is not None:
            new.phase = "over"
            new.ended = ended
        else:
            self._begin_round(new)

    def _start_round(self, s: MaquisState) -> MaquisState:
        new = _copy(s)
        self._begin_round(new)
        return new

    def _begin_round(self, new: MaquisState) -> None:
        """Set what a new round sets (its placements and patrols) on ``new``, a state this
        step has just built and no one else holds yet."""
        # Patrols = max(workers in safe houses, the red number); soldiers replace police.
        patrols = max(new.home, self.model.morale.red_at(new.morale))
        new.phase = "place"
        new.to_place = new.home
        new.patrols_left = patrols
        new.patrols = patrols
        new.round_soldiers = min(new.soldiers, patrols)
        new.resistance_next = True
        new.killed = False

    def _morale(self, s: MaquisState, change: int) -> MaquisState:
        if not change:
            return s
        if s.failed:
            return s  # decision end-finishes-the-round: morale stays on the fail space
        morale = max(0, min(self.model.morale.top, s.morale + change))
        return replace(s, morale=morale, failed=morale == 0)

    # -- notation ---------------------------------------------------------------------------

    def notation(self, s: MaquisState) -> str:
        """The whole position as one line of text (see :mod:`pnp.games.maquis.notation`)."""
        return format_position(self, s)

    def from_notation(self, text: str) -> MaquisState:
        return parse_position(self, text)

    def parse_action(self, text: str) -> MaquisAction:
        return parse_action(text)

    # -- invariants ---------------------------------------------------------------------------

    def check_invariants(self, s: MaquisState) -> None:
        """Conservation: figures, resources within their limit, tracks within bounds."""
        problems = []
        on_board = sum(c in (WORKER, ACTIVE) for c in s.board)
        figures = s.home + on_board + s.cafe
        if figures > self.level.workers + self.level.cafe:
            problems.append(f"{figures} resistance figures in play")
        for r, limit in enumerate(self.limit):
            held = s.stock[r] + sum(d[r] for d in s.drops)
            if s.stock[r] < 0 or held > limit:
                problems.append(f"{self.res[r]}: {held} in play (limit {limit})")
        if not 0 <= s.morale <= self.model.morale.top:
            problems.append(f"morale {s.morale}")
        if not 0 <= s.soldiers <= self.model.soldiers.spaces:
            problems.append(f"soldiers {s.soldiers}")
        police = s.board.count(POLICE) + s.board.count(SOLDIER)
        if police > s.patrols:
            problems.append(f"{police} patrol figures for {s.patrols} patrols")
        if s.spent and (s.active < 0 or len(s.spent) != len(self.res)):
            problems.append(f"spent {s.spent} without an acting worker")
        if not START_DAY <= s.day <= self.model.days.days + 1:
            problems.append(f"day {s.day}")
        if sorted(s.draw + s.discard) != list(self.deck):
            problems.append("patrol cards lost or created")
        if problems:
            raise InvariantViolation(f"{'; '.join(problems)} in {self.notation(s)}")
