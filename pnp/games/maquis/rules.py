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
"""

from __future__ import annotations

import enum
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
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
from pnp.engines.piles import without as _remove
from pnp.errors import IllegalActionError
from pnp.games.maquis.model import (
    Action,
    DayMark,
    Difficulty,
    EffectKind,
    LocationKind,
    Maquis,
    MissionStep,
    Reward,
)

SLUG = "maquis"

ROUND_CAP = 200
"""Simulations stop a game after this many rounds and report it as a cap hit. Only the looping
day track of the easiest level can run past the day track's length; morale falls on every pass
over the orange spaces, so a natural game ends long before this."""


class Termination(enum.Enum):
    """Why a game of Maquis ended (the first that applies, in this order)."""

    MORALE = "morale"
    """Morale reached the fail space: a loss whatever else happened."""
    MISSIONS = "missions"
    """The missions needed for a win are done."""
    ARRESTS = "arrests"
    """The last worker was arrested."""
    TIME = "time"
    """The day marker reached the end space (or the level's last day)."""


class Result(enum.Enum):
    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


# -- actions ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Place:
    """Placement: put a worker from a safe house on an empty space."""

    loc: str

    def __str__(self) -> str:
        return f"place:{self.loc}"


@dataclass(frozen=True, slots=True)
class Stay:
    """Placement: no empty space is left, the worker stays home."""

    def __str__(self) -> str:
        return "stay"


@dataclass(frozen=True, slots=True)
class PatrolDraw:
    """Chance: the next patrol card."""

    card: str

    def __str__(self) -> str:
        return f"patrol:{self.card}"


@dataclass(frozen=True, slots=True)
class Activate:
    """Action phase: the worker on ``loc`` does ``choice`` (``-``: nothing).

    Choices: ``p<i>g<j>`` pay alternative i, take reward j (``d<k>``: airdrop option k);
    ``b=<tile>`` lay a vacant-house tile; ``c`` collect an airdrop; ``m<slot>.<step>p<i>`` a
    mission step.
    """

    loc: str
    choice: str

    def __str__(self) -> str:
        return f"act:{self.loc}:{self.choice}"


@dataclass(frozen=True, slots=True)
class Return:
    """The acting worker walks home (or is arrested)."""

    def __str__(self) -> str:
        return "home"


@dataclass(frozen=True, slots=True)
class Kill:
    """Kill the police figure on ``loc``."""

    loc: str

    def __str__(self) -> str:
        return f"kill:{self.loc}"


MaquisAction = Place | Stay | PatrolDraw | Activate | Return | Kill

EMPTY, WORKER, ACTIVE, POLICE, SOLDIER = ".", "R", "A", "P", "S"


@dataclass(frozen=True, slots=True)
class MaquisState:
    """A position. Spaces are indexed as ``model.locations``; resources as ``model.resources``."""

    phase: str
    """``place``, ``act`` or ``over``."""
    day: int
    morale: int
    soldiers: int
    home: int
    """Workers in safe houses."""
    cafe: int
    """Workers still waiting in the café."""
    board: str
    """One character per space: ``.`` empty, ``R`` worker, ``A`` worker who acted, ``P``, ``S``."""
    stock: tuple[int, ...]
    drops: tuple[tuple[int, ...], ...]
    """Resources lying on each airdrop zone."""
    tiles: tuple[str, ...]
    """The tile on each vacant house, '' for none."""
    missions: tuple[str, ...]
    """The mission card at each mission space."""
    boxes: tuple[tuple[bool, ...], ...]
    """Filled success boxes of each mission in play."""
    draw: tuple[int, ...]
    discard: tuple[int, ...]
    to_place: int
    """Workers still to place this round."""
    patrols_left: int
    patrols: int
    """Patrols of this round."""
    round_soldiers: int
    """How many of this round's patrols are soldiers (the last ones)."""
    resistance_next: bool
    killed: bool
    active: int
    """Space of the worker who acted and has not walked home yet; -1 for none."""
    pending: str
    rounds: int
    failed: bool
    """Morale reached the fail space at some point."""
    ended: Termination | None = None


@dataclass(frozen=True)
class _Option:
    key: str
    pay: dict[str, int]
    reward: Reward | None = None
    airdrop: dict[str, int] | None = None
    build: str = ""
    collect: int = -1
    mission: tuple[int, int] | None = None


_NO_REWARD = Reward()


class MaquisRules:
    """The rules of Maquis at one difficulty level: ``Rules[MaquisState, MaquisAction]``."""

    slug = SLUG
    num_players = 1

    def __init__(self, model: Maquis, players: int | None = 1, difficulty: str = "normal") -> None:
        if players not in (None, 1):
            raise ValueError(f"maquis is a solo game, not for {players} players")
        if difficulty not in model.difficulty:
            raise ValueError(f"unknown difficulty {difficulty!r}")
        self.model = model
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
        self.deck = tuple(sorted(i for i, c in enumerate(self.cards) for _ in range(c.copies)))
        self.missions = {m.id: m for m in model.missions}
        self.s = model.settings
        self.kill_cost = self._vector(self.s.kill_cost)
        self.build_cost = self._vector(self.s.build_cost)

    def _vector(self, bundle: dict[str, int]) -> tuple[int, ...]:
        return tuple(bundle.get(r, 0) for r in self.res)

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
        state = MaquisState(
            phase="place",
            day=1,
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
        if state.ended is not None or self.is_chance(state):
            return None
        return 0

    def is_chance(self, state: MaquisState) -> bool:
        return state.phase == "place" and self._patrol_turn(state)

    def _patrol_turn(self, s: MaquisState) -> bool:
        return s.patrols_left > 0 and (s.to_place == 0 or not s.resistance_next)

    def legal_actions(self, state: MaquisState) -> list[MaquisAction]:
        if state.ended is not None:
            return []
        if state.phase == "place":
            if self._patrol_turn(state):
                return [a for a, _ in self.chance_outcomes(state)]
            spaces = self.placeable(state)
            return [Place(self.locs[i].id) for i in spaces] if spaces else [Stay()]
        actions: list[MaquisAction] = []
        if state.active >= 0:
            actions.append(Return())
        else:
            for i, c in enumerate(state.board):
                if c == WORKER:
                    loc = self.locs[i].id
                    actions.append(Activate(loc, "-"))
                    actions.extend(Activate(loc, o.key) for o in self.options(state, i))
        actions.extend(Kill(self.locs[i].id) for i in self.kill_targets(state))
        return actions

    def chance_outcomes(self, state: MaquisState) -> list[tuple[MaquisAction, float]]:
        if not self.is_chance(state) or state.ended is not None:
            return []
        pile = state.draw or state.discard
        counts = Counter(pile)
        return [(PatrolDraw(self.cards[c].id), k / len(pile)) for c, k in sorted(counts.items())]

    def sample_chance(self, state: MaquisState, rng: random.Random) -> MaquisAction:
        pile = state.draw or state.discard
        return PatrolDraw(self.cards[pile[int(rng.random() * len(pile))]].id)

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

    def is_safe_house(self, s: MaquisState, i: int) -> bool:
        if i in self.safe:
            return True
        if self.locs[i].kind is LocationKind.VACANT:
            tile = s.tiles[self.vacant.index(i)]
            return bool(tile) and self.tiles[tile].safe_house
        return False

    def placeable(self, s: MaquisState) -> list[int]:
        """Spaces a worker may go to: empty, no safe house, no airdrop zone without resources."""
        spaces = []
        for i, c in enumerate(s.board):
            if c != EMPTY or self.is_safe_house(s, i):
                continue
            if self.locs[i].kind is LocationKind.AIRDROP and not any(s.drops[self.zones.index(i)]):
                continue
            spaces.append(i)
        return spaces

    def kill_targets(self, s: MaquisState) -> list[int]:
        # Kill police: once per round, for the kill cost; soldiers cannot be killed; the
        # soldier track must have room (decision kill-when).
        if (
            s.phase != "act"
            or s.killed
            or s.soldiers + self.s.kill_soldiers > self.model.soldiers.spaces
            or not self._affords(s.stock, self.kill_cost)
        ):
            return []
        return [i for i, c in enumerate(s.board) if c == POLICE]

    @staticmethod
    def _affords(stock: Sequence[int], cost: Sequence[int]) -> bool:
        return all(have >= need for have, need in zip(stock, cost, strict=True))

    def _action_options(self, s: MaquisState, action: Action, prefix: str = "") -> list[_Option]:
        options = []
        pays = list(enumerate(action.pay)) or [(-1, {})]
        for i, pay in pays:
            if not self._affords(s.stock, self._vector(pay)):
                continue
            for j, reward in enumerate(action.gain):
                if reward.recruit and s.cafe <= 0:
                    continue
                key = f"{prefix}{'' if i < 0 else f'p{i}'}g{j}"
                if reward.airdrop:
                    # Airdrop: only onto an empty zone (decision airdrop-zone).
                    if not any(not any(d) for d in s.drops):
                        continue
                    for k, bundle in enumerate(self.level.airdrop):
                        options.append(_Option(f"{key}d{k}", pay, reward, airdrop=bundle))
                else:
                    options.append(_Option(key, pay, reward))
        return options

    def available_steps(self, s: MaquisState, slot: int) -> list[int]:
        """Steps of the mission in ``slot`` that may be done now: the lowest unfilled order."""
        mission = self.missions[s.missions[slot]]
        open_steps = [k for k, filled in enumerate(s.boxes[slot]) if not filled]
        if not open_steps:
            return []
        # Numbered boxes are filled in order: every lower number first.
        low = min(mission.steps[k].order for k in open_steps)
        seen: set[tuple[Any, ...]] = set()
        steps = []
        for k in open_steps:
            step = mission.steps[k]
            if step.order != low:
                continue
            signature = (step.name, tuple(tuple(sorted(p.items())) for p in step.pay), step.at)
            if signature in seen:  # a second identical box: the same choice
                continue
            seen.add(signature)
            if step.days is not None and s.day not in step.days:
                continue
            steps.append(k)
        return steps

    def _step_at(self, slot: int, step: MissionStep) -> int:
        return self.index[step.at] if step.at else self.slots[slot]

    def options(self, s: MaquisState, i: int) -> list[_Option]:
        """Everything the worker on space ``i`` may do (besides nothing)."""
        loc = self.locs[i]
        options: list[_Option] = []
        if loc.kind is LocationKind.ACTION and loc.action is not None:
            options.extend(self._action_options(s, loc.action))
        elif loc.kind is LocationKind.VACANT:
            tile = s.tiles[self.vacant.index(i)]
            if tile:
                action = self.tiles[tile].action
                if action is not None:
                    options.extend(self._action_options(s, action))
            elif self._affords(s.stock, self.build_cost):
                used = Counter(t for t in s.tiles if t)
                for t in self.model.vacant_tiles:
                    if used[t.id] < t.copies:
                        options.append(_Option(f"b={t.id}", self.s.build_cost, build=t.id))
        elif loc.kind is LocationKind.AIRDROP:
            zone = self.zones.index(i)
            if any(s.drops[zone]):
                options.append(_Option("c", {}, collect=zone))
        for slot, mission_id in enumerate(s.missions):
            mission = self.missions[mission_id]
            for k in self.available_steps(s, slot):
                step = mission.steps[k]
                if self._step_at(slot, step) != i:
                    continue
                for p, pay in enumerate(step.pay or ({},)):
                    if self._affords(s.stock, self._vector(pay)):
                        options.append(
                            _Option(f"m{slot}.{k}p{p}", pay, step.gain, mission=(slot, k))
                        )
        return options

    # -- apply ----------------------------------------------------------------------------

    def apply(self, state: MaquisState, action: Any) -> MaquisState:
        if not self._is_legal(state, action):
            raise IllegalActionError(f"illegal action {action!r} in {self.notation(state)}")
        s = state
        if isinstance(action, Place):
            i = self.index[action.loc]
            s = replace(
                s,
                board=_put(s.board, i, WORKER),
                home=s.home - 1,
                to_place=s.to_place - 1,
                resistance_next=False,
            )
        elif isinstance(action, Stay):
            s = replace(s, to_place=s.to_place - 1, resistance_next=False)
        elif isinstance(action, PatrolDraw):
            s = self._patrol(s, self.card_index[action.card])
        elif isinstance(action, Activate):
            i = self.index[action.loc]
            pay: dict[str, int] = {}
            if action.choice != "-":
                pay = next(o for o in self.options(s, i) if o.key == action.choice).pay
            stock = tuple(h - pay.get(r, 0) for h, r in zip(s.stock, self.res, strict=True))
            s = replace(
                s, board=_put(s.board, i, ACTIVE), stock=stock, active=i, pending=action.choice
            )
        elif isinstance(action, Return):
            s = self._walk_home(s)
        elif isinstance(action, Kill):
            # Kill police: pay, remove the figure, soldier track +1, morale −1.
            i = self.index[action.loc]
            stock = tuple(h - c for h, c in zip(s.stock, self.kill_cost, strict=True))
            s = self._morale(
                replace(
                    s,
                    board=_put(s.board, i, EMPTY),
                    stock=stock,
                    soldiers=s.soldiers + self.s.kill_soldiers,
                    killed=True,
                ),
                self.s.kill_morale,
            )
        return self._advance(s)

    def _is_legal(self, s: MaquisState, action: Any) -> bool:
        if s.ended is not None or not isinstance(action, MaquisAction):
            return False
        if isinstance(action, PatrolDraw):
            return (
                self.is_chance(s)
                and action.card in self.card_index
                and (self.card_index[action.card] in (s.draw or s.discard))
            )
        if s.phase == "place":
            if self._patrol_turn(s):
                return False
            spaces = self.placeable(s)
            if isinstance(action, Stay):
                return not spaces
            return isinstance(action, Place) and self.index.get(action.loc, -1) in spaces
        if isinstance(action, Kill):
            return self.index.get(action.loc, -1) in self.kill_targets(s)
        if isinstance(action, Return):
            return s.active >= 0
        if isinstance(action, Activate):
            i = self.index.get(action.loc, -1)
            if s.active >= 0 or i < 0 or s.board[i] != WORKER:
                return False
            return action.choice == "-" or any(o.key == action.choice for o in self.options(s, i))
        return False

    def _patrol(self, s: MaquisState, card: int) -> MaquisState:
        draw, discard = (s.draw, s.discard) if s.draw else (s.discard, ())
        draw = _remove(draw, card)
        discard = tuple(sorted((*discard, card)))
        placed = s.patrols - s.patrols_left
        # Soldiers replace police one for one and are placed last.
        figure = SOLDIER if placed >= s.patrols - s.round_soldiers else POLICE
        board = s.board
        target = next(
            (i for i in self.card_locs[card] if board[i] == EMPTY and not self.is_safe_house(s, i)),
            -1,
        )
        arrested = False
        if target < 0:
            # No place empty: the first resistance worker on the card is arrested.
            target = next((i for i in self.card_locs[card] if board[i] == WORKER), -1)
            arrested = target >= 0
        if target >= 0:
            board = _put(board, target, figure)
        s = replace(
            s,
            board=board,
            draw=draw,
            discard=discard,
            patrols_left=s.patrols_left - 1,
            resistance_next=True,
        )
        if arrested:
            s = self._morale(s, self.level.arrest_morale)
        return s

    def has_path_home(self, s: MaquisState, start: int, board: str | None = None) -> bool:
        """A safe path along the thick lines through empty or resistance-held spaces."""
        board = s.board if board is None else board
        seen = {start}
        frontier = [start]
        while frontier:
            i = frontier.pop()
            for j in self.adjacent[i]:
                if j in seen or board[j] in (POLICE, SOLDIER):
                    continue
                if self.is_safe_house(s, j):
                    return True
                seen.add(j)
                frontier.append(j)
        return False

    def _walk_home(self, s: MaquisState) -> MaquisState:
        i, choice = s.active, s.pending
        option = None
        if choice != "-":
            # Re-derive the chosen option; payment is already made, so look it up unpaid.
            option = self._option_for(s, i, choice)
        home = self.has_path_home(s, i)
        s = replace(s, board=_put(s.board, i, EMPTY), active=-1, pending="")
        # Arrested: removed for good (very hard: morale too).
        s = replace(s, home=s.home + 1) if home else self._morale(s, self.level.arrest_morale)
        if option is not None and (home or self.locs[i].shield):
            # The reward only comes home with the worker, or stays on a star-shield space.
            s = self._reward(s, option, i)
        return s

    def _option_for(self, s: MaquisState, i: int, choice: str) -> _Option:
        rich = replace(s, stock=tuple(self.limit), board=_put(s.board, i, WORKER))
        for option in self.options(rich, i):
            if option.key == choice:
                return option
        raise InvariantViolation(f"pending choice {choice!r} not found in {self.notation(s)}")

    def supply(self, s: MaquisState) -> list[int]:
        """Tokens of each resource left in the supply (the limit minus stock and airdrops)."""
        return [
            limit - s.stock[r] - sum(d[r] for d in s.drops) for r, limit in enumerate(self.limit)
        ]

    def _gain(self, s: MaquisState, bundle: dict[str, int]) -> MaquisState:
        # 4 of a kind at most in play: take only what the supply still has.
        supply = self.supply(s)
        stock = list(s.stock)
        for r, n in bundle.items():
            k = self.res_index[r]
            stock[k] += min(n, supply[k])
        return replace(s, stock=tuple(stock))

    def _reward(self, s: MaquisState, o: _Option, i: int) -> MaquisState:
        if o.reward is not None:
            r = o.reward
            s = self._gain(s, r.resources)
            s = self._morale(s, r.morale)
            if r.recruit:
                n = min(r.recruit, s.cafe)
                s = replace(s, cafe=s.cafe - n, home=s.home + n)
        if o.airdrop is not None:
            empty = [z for z, d in enumerate(s.drops) if not any(d)]
            if empty:
                supply = self.supply(s)
                drop = tuple(min(o.airdrop.get(r, 0), supply[k]) for k, r in enumerate(self.res))
                drops = list(s.drops)
                drops[empty[0]] = drop
                s = replace(s, drops=tuple(drops))
        if o.build:
            tiles = list(s.tiles)
            tiles[self.vacant.index(i)] = o.build
            s = replace(s, tiles=tuple(tiles))
        if o.collect >= 0:
            drop = s.drops[o.collect]
            drops = list(s.drops)
            drops[o.collect] = (0,) * len(self.res)
            s = replace(
                s,
                drops=tuple(drops),
                stock=tuple(a + b for a, b in zip(s.stock, drop, strict=True)),
            )
        if o.mission is not None:
            slot, k = o.mission
            boxes = list(s.boxes)
            box = list(boxes[slot])
            box[k] = True
            boxes[slot] = tuple(box)
            s = replace(s, boxes=tuple(boxes))
        return s

    def _advance(self, s: MaquisState) -> MaquisState:
        while s.ended is None:
            if s.phase == "place":
                if s.to_place == 0 and s.patrols_left == 0:
                    s = replace(s, phase="act")
                    continue
                return s
            if s.phase == "act":
                if s.active >= 0 or WORKER in s.board:
                    return s
                s = self._upkeep(s)
                continue
            return s
        return s

    def _upkeep(self, s: MaquisState) -> MaquisState:
        # Upkeep: patrols off the board, the day marker moves on; entering a marked space
        # (orange, or star in the hard levels) costs morale.
        board = "".join(EMPTY if c in (POLICE, SOLDIER) else c for c in s.board)
        day = s.day + 1
        days = self.model.days
        time_up = False
        if day > days.days:
            if self.level.loop:
                day = 1  # very easy: the day track loops
            else:
                time_up = True
        s = replace(s, board=board, day=day, rounds=s.rounds + 1)
        if not time_up and self.level.morale_drop in days.marks(day):
            s = self._morale(s, -1)
        if self.level.end_day and day >= self.level.end_day:
            time_up = True
        ended = None
        if s.failed:
            ended = Termination.MORALE
        elif self.missions_done(s) >= self.s.missions_to_win:
            ended = Termination.MISSIONS
        elif s.home == 0:
            ended = Termination.ARRESTS
        elif time_up:
            ended = Termination.TIME
        if ended is not None:
            return replace(s, phase="over", ended=ended)
        return self._start_round(s)

    def _start_round(self, s: MaquisState) -> MaquisState:
        # Patrols = max(workers in safe houses, the red number); soldiers replace police.
        patrols = max(s.home, self.model.morale.red_at(s.morale))
        return replace(
            s,
            phase="place",
            to_place=s.home,
            patrols_left=patrols,
            patrols=patrols,
            round_soldiers=min(s.soldiers, patrols),
            resistance_next=True,
            killed=False,
        )

    def _morale(self, s: MaquisState, change: int) -> MaquisState:
        if not change:
            return s
        if s.failed:
            return s  # decision end-finishes-the-round: morale stays on the fail space
        morale = max(0, min(self.model.morale.top, s.morale + change))
        return replace(s, morale=morale, failed=morale == 0)

    # -- notation ---------------------------------------------------------------------------

    def notation(self, s: MaquisState) -> str:
        def vec(v: Sequence[int]) -> str:
            return ",".join(map(str, v))

        def cards(pile: Sequence[int]) -> str:
            return ",".join(self.cards[c].id for c in pile) or "-"

        return " ".join(
            (
                s.phase,
                str(s.day),
                str(s.morale),
                str(s.soldiers),
                str(s.home),
                str(s.cafe),
                s.board,
                vec(s.stock),
                "/".join(vec(d) for d in s.drops) or "-",
                "/".join(t or "-" for t in s.tiles) or "-",
                "/".join(
                    f"{m}:{''.join('1' if b else '0' for b in box)}"
                    for m, box in zip(s.missions, s.boxes, strict=True)
                )
                or "-",
                cards(s.draw),
                cards(s.discard),
                f"{s.to_place},{s.patrols_left},{s.patrols},{s.round_soldiers},"
                f"{'r' if s.resistance_next else 'p'}",
                f"{'k' if s.killed else '-'},"
                f"{self.locs[s.active].id if s.active >= 0 else '-'},{s.pending or '.'}",
                str(s.rounds),
                "F" if s.failed else "-",
                s.ended.value if s.ended else "-",
            )
        )

    def from_notation(self, text: str) -> MaquisState:
        def fail(why: str) -> ValueError:
            return ValueError(f"invalid {SLUG} notation {text!r}: {why}")

        parts = text.split(" ")
        if len(parts) != 18:
            raise fail(f"expected 18 fields, got {len(parts)}")
        try:
            (phase, day, morale, soldiers, home, cafe, board, stock, drops, tiles, missions) = (
                parts[:11]
            )
            draw, discard, place, act, rounds, failed, ended = parts[11:]
            if phase not in ("place", "act", "over") or len(board) != len(self.locs):
                raise fail("bad phase or board")
            if set(board) - {EMPTY, WORKER, ACTIVE, POLICE, SOLDIER}:
                raise fail("bad board")

            def vec(t: str) -> tuple[int, ...]:
                v = tuple(int(x) for x in t.split(","))
                if len(v) != len(self.res):
                    raise fail(f"expected {len(self.res)} resources in {t!r}")
                return v

            def pile(t: str) -> tuple[int, ...]:
                return () if t == "-" else tuple(self.card_index[c] for c in t.split(","))

            mission_ids: list[str] = []
            boxes: list[tuple[bool, ...]] = []
            for item in [] if missions == "-" else missions.split("/"):
                mid, _, marks = item.partition(":")
                if mid not in self.missions or len(marks) != len(self.missions[mid].steps):
                    raise fail(f"bad mission {item!r}")
                mission_ids.append(mid)
                boxes.append(tuple(c == "1" for c in marks))
            tile_list = tuple("" if t == "-" else t for t in tiles.split("/")) if tiles else ()
            if len(tile_list) != len(self.vacant) or any(
                t and t not in self.tiles for t in tile_list
            ):
                raise fail("bad tiles")
            to_place, left, patrols, rsold, nxt = place.split(",")
            killed, active, pending = act.split(",")
            return MaquisState(
                phase=phase,
                day=int(day),
                morale=int(morale),
                soldiers=int(soldiers),
                home=int(home),
                cafe=int(cafe),
                board=board,
                stock=vec(stock),
                drops=tuple(vec(d) for d in drops.split("/")) if self.zones else (),
                tiles=tile_list,
                missions=tuple(mission_ids),
                boxes=tuple(boxes),
                draw=pile(draw),
                discard=pile(discard),
                to_place=int(to_place),
                patrols_left=int(left),
                patrols=int(patrols),
                round_soldiers=int(rsold),
                resistance_next=nxt == "r",
                killed=killed == "k",
                active=-1 if active == "-" else self.index[active],
                pending="" if pending == "." else pending,
                rounds=int(rounds),
                failed=failed == "F",
                ended=None if ended == "-" else Termination(ended),
            )
        except (KeyError, ValueError) as error:
            if isinstance(error, ValueError) and str(error).startswith("invalid"):
                raise
            raise fail(str(error)) from None

    def parse_action(self, text: str) -> MaquisAction:
        kind, _, rest = text.partition(":")
        if kind == "place" and rest:
            return Place(rest)
        if kind == "patrol" and rest:
            return PatrolDraw(rest)
        if kind == "kill" and rest:
            return Kill(rest)
        if kind == "act" and ":" in rest:
            loc, _, choice = rest.partition(":")
            return Activate(loc, choice)
        if text == "stay":
            return Stay()
        if text == "home":
            return Return()
        raise ValueError(f"invalid maquis action: {text!r}")

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
        if sorted(s.draw + s.discard) != list(self.deck):
            problems.append("patrol cards lost or created")
        if problems:
            raise InvariantViolation(f"{'; '.join(problems)} in {self.notation(s)}")


def _put(board: str, i: int, c: str) -> str:
    return board[:i] + c + board[i + 1 :]


# -- policies ---------------------------------------------------------------------------


class GreedyPolicy:
    """A sensible player: works towards the missions, weighs rewards against the risk of the
    walk home, keeps morale off the fail space, and kills a policeman to open a way home.

    Value of the stock: each resource the remaining mission boxes still need (directly, or as
    money for the smuggler and food for the town hall) is worth much more than a spare one.
    Placement picks the space whose best affordable option gains most, discounted by the risk
    of arrest (distance home and patrols still to come); activation does the best option of
    any worker first, so a worker's new money can pay another's cost in the same round.
    """

    LOSE_WORKER = 30.0

    def __init__(self) -> None:
        self._cache: dict[tuple[Any, ...], tuple[float, str]] = {}

    def _distances(self, rules: MaquisRules, s: MaquisState) -> list[int]:
        """Hops from every space to the nearest safe house, ignoring figures."""
        starts = [i for i in range(len(rules.locs)) if rules.is_safe_house(s, i)]
        dist = [99] * len(rules.locs)
        frontier = list(starts)
        for i in starts:
            dist[i] = 0
        while frontier:
            nxt = []
            for i in frontier:
                for j in rules.adjacent[i]:
                    if dist[j] > dist[i] + 1:
                        dist[j] = dist[i] + 1
                        nxt.append(j)
            frontier = nxt
        return dist

    def arrest_risks(self, rules: MaquisRules, s: MaquisState) -> list[float]:
        """The chance that a worker put on each space now is arrested this round.

        One patrol card from the pile lands on the first empty space it names (or arrests the
        first worker there when it names no empty space); a worker is lost when a card arrests
        it or when the space a card lands on cuts every way home. The patrols still to come
        are taken as independent draws from the pile as it is now.
        """
        pile = s.draw or s.discard
        board = s.board
        n = len(rules.locs)
        safe = [i for i in range(n) if rules.is_safe_house(s, i)]
        landing = {
            c: next((x for x in rules.card_locs[c] if board[x] == EMPTY and x not in safe), -1)
            for c in set(pile)
        }
        landings = Counter(landing[c] for c in pile if landing[c] >= 0)

        def reach(blocked: int) -> set[int]:
            seen = set(safe)
            frontier = list(safe)
            while frontier:
                i = frontier.pop()
                for j in rules.adjacent[i]:
                    if j not in seen and j != blocked and board[j] not in (POLICE, SOLDIER):
                        seen.add(j)
                        frontier.append(j)
            return seen

        reached = {j: reach(j) for j in landings}
        base = reach(-1)
        total = len(pile) or 1
        k = s.patrols_left
        risks = [0.0] * n
        for i in range(n):
            if board[i] != EMPTY:
                continue
            if i not in base:
                risks[i] = 0.97
                continue
            # A card landing elsewhere may cut every way home.
            bad = sum(m for j, m in landings.items() if j != i and i not in reached[j])
            # Cards that would have landed here (or named no empty space) go further on with
            # the worker here, or arrest the first worker they name if nothing is empty.
            for c in pile:
                locs = rules.card_locs[c]
                if i not in locs or landing[c] not in (i, -1):
                    continue
                spot = next((x for x in locs if x != i and board[x] == EMPTY and x not in safe), -1)
                if spot < 0:
                    bad += next(x for x in locs if x == i or board[x] == WORKER) == i
                else:
                    bad += i not in (reached[spot] if spot in reached else reach(spot))
            p = min(1.0, bad / total)
            risks[i] = 1 - (1 - p) ** k
        return risks

    def needs(self, rules: MaquisRules, s: MaquisState) -> list[float]:
        need = [0.0] * len(rules.res)
        for slot, mission_id in enumerate(s.missions):
            mission = rules.missions[mission_id]
            for k, filled in enumerate(s.boxes[slot]):
                step = mission.steps[k]
                if filled or not step.pay:
                    continue
                # The alternative closest to what is in stock.
                pay = min(
                    step.pay,
                    key=lambda p: sum(
                        max(0, n - s.stock[rules.res_index[r]]) for r, n in p.items()
                    ),
                )
                for r, n in pay.items():
                    need[rules.res_index[r]] += n
        return need

    def stock_value(self, rules: MaquisRules, need: list[float], stock: Sequence[int]) -> float:
        """Direct mission needs are worth most; money and food as the way to what is short."""
        short = [max(0.0, n - h) for n, h in zip(need, stock, strict=True)]
        derived = [0.0] * len(stock)
        index = rules.res_index
        if "money" in index:
            derived[index["money"]] = 2 * sum(
                short[index[r]] for r in ("weapons", "explosives") if r in index
            ) + short[index["medicine"]] / 2 * ("medicine" in index)
        if "food" in index and "information" in index:
            derived[index["food"]] = short[index["information"]] / 2
        value = 0.0
        for h, n, d in zip(stock, need, derived, strict=True):
            direct = min(h, n)
            via = min(h - direct, d)
            value += 12 * direct + 5 * via + 0.5 * max(0.0, h - direct - via)
        return value

    def option_value(
        self, rules: MaquisRules, s: MaquisState, o: _Option, need: list[float]
    ) -> float:
        stock = list(s.stock)
        for r, n in o.pay.items():
            stock[rules.res_index[r]] -= n
        before = self.stock_value(rules, need, s.stock)
        gained = list(stock)
        supply = rules.supply(s)
        value = 0.0
        if o.reward is not None:
            for r, n in o.reward.resources.items():
                k = rules.res_index[r]
                gained[k] += min(n, supply[k])
            m = o.reward.morale
            if m:
                low = s.morale
                if m > 0:
                    room = min(m, rules.model.morale.top - low)
                    value += room * (16 if low <= 3 else 7 if low <= 5 else 1)
                else:
                    after = low + m
                    value += (
                        -1000 if after <= 0 else -20 if after <= 2 else -6 if after <= 4 else -2
                    )
            if o.reward.recruit and s.cafe:
                value += 22
        if o.airdrop is not None:
            for r, n in o.airdrop.items():
                k = rules.res_index[r]
                gained[k] += min(n, supply[k])
        if o.collect >= 0:
            for k, n in enumerate(s.drops[o.collect]):
                gained[k] += n
        if o.build:
            value += 20 if rules.tiles[o.build].safe_house else 8
        if o.mission is not None:
            slot, _ = o.mission
            value += 60
            if sum(1 for b in s.boxes[slot] if not b) == 1:
                value += 60
            for r, n in o.pay.items():
                need[rules.res_index[r]] -= n
        value += self.stock_value(rules, need, gained) - before
        if o.airdrop is not None:
            value *= 0.8
        return value

    def best(
        self, rules: MaquisRules, s: MaquisState, i: int, need: list[float]
    ) -> tuple[float, str]:
        # Between two placements only the board changes, and options do not depend on it.
        key = (
            id(rules),
            i,
            s.stock,
            s.morale,
            s.missions,
            s.boxes,
            s.cafe,
            s.drops,
            s.tiles,
            s.day,
        )
        cached = self._cache.get(key)
        if cached is None:
            if len(self._cache) > 50_000:
                self._cache.clear()
            cached = self._cache[key] = self._best(rules, s, i, need)
        return cached

    def _best(
        self, rules: MaquisRules, s: MaquisState, i: int, need: list[float]
    ) -> tuple[float, str]:
        best_value, best_key = 0.0, "-"
        for o in rules.options(s, i):
            v = self.option_value(rules, s, o, list(need))
            if v > best_value:
                best_value, best_key = v, o.key
        return best_value, best_key

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, MaquisRules)
        s: MaquisState = state
        actions = rules.legal_actions(s)
        if s.phase == "place":
            if isinstance(actions[0], Stay):
                return actions[0]
            need = self.needs(rules, s)
            dist = self._distances(rules, s)
            risks = self.arrest_risks(rules, s)
            lose = self.LOSE_WORKER - 8.0 * rules.level.arrest_morale * (1 + (s.morale <= 3))
            best_score, best_action = -1e9, actions[0]
            for a in actions:
                i = rules.index[a.loc]
                value, _ = self.best(rules, s, i, need)
                risk = risks[i]
                keep = value if rules.locs[i].shield else value * (1 - risk)
                score = keep - risk * lose - 0.01 * dist[i]
                if score > best_score:
                    best_score, best_action = score, a
            return best_action
        # Action phase.
        if s.active >= 0:
            if not rules.has_path_home(s, s.active) and s.morale > 1 - rules.s.kill_morale:
                for a in actions:
                    if isinstance(a, Kill):
                        board = _put(s.board, rules.index[a.loc], EMPTY)
                        if rules.has_path_home(s, s.active, board):
                            return a
            return Return()
        need = self.needs(rules, s)
        best_value, best_action = -1.0, None
        for i, c in enumerate(s.board):
            if c != WORKER:
                continue
            value, key = self.best(rules, s, i, need)
            if value > best_value:
                best_value, best_action = value, Activate(rules.locs[i].id, key)
        return best_action if best_action is not None else actions[0]

    def __repr__(self) -> str:
        return "GreedyPolicy()"


# -- simulation ---------------------------------------------------------------------------


POLICIES: dict[str, type[Policy]] = {"random": RandomPolicy, "sensible": GreedyPolicy}


@dataclass(frozen=True)
class SimulationReport:
    """Many games of one difficulty level played by one policy."""

    difficulty: str
    policy: str
    games: int
    seed: int
    results: dict[Result, int]
    terminations: dict[Termination, int]
    """Why games ended, counted over the finished ones."""
    loss_causes: dict[Termination, int]
    mean_rounds: float
    capped_seeds: tuple[int, ...]
    """Seeds of games stopped by ROUND_CAP: ``random.Random(seed)`` replays one."""
    seconds: float = field(default=0.0, compare=False)
    outcomes: tuple[tuple[int, Result | None], ...] = field(default=(), compare=False)
    """Each game's seed and result (None: stopped by the cap), in play order, so two levels
    played with the same seed can be compared game by game."""

    def rate(self, result: Result) -> float:
        finished = self.games - len(self.capped_seeds)
        return self.results.get(result, 0) / finished if finished else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def simulate(
    model: Maquis,
    difficulty: str = "normal",
    games: int = 100,
    seed: int = 0,
    policy: Policy | None = None,
    *,
    check: bool = False,
) -> SimulationReport:
    """Play ``games`` games; game ``i`` uses ``random.Random(s_i)``, ``s_i`` drawn from
    ``random.Random(seed)`` — the same seeds at every level, so levels are compared on the
    same deals and patrol draws (common random numbers)."""
    rules = MaquisRules(model, difficulty=difficulty)
    chooser = policy if policy is not None else RandomPolicy()
    seeds = random.Random(seed)
    results: Counter[Result] = Counter()
    ends: Counter[Termination] = Counter()
    losses: Counter[Termination] = Counter()
    capped: list[int] = []
    rounds: list[int] = []
    outcomes: list[tuple[int, Result | None]] = []
    started = time.perf_counter()
    for _ in range(games):
        game_seed = seeds.getrandbits(63)
        record = play_game(
            rules,
            [chooser],
            random.Random(game_seed),
            ROUND_CAP * 60,
            max_turns=ROUND_CAP,
            invariant=rules.check_invariants if check else None,
        )
        rounds.append(record.turns)
        if record.outcome is None:
            capped.append(game_seed)
            outcomes.append((game_seed, None))
            continue
        result = rules.result(record.final_state)
        outcomes.append((game_seed, result))
        assert isinstance(record.outcome.termination, Termination)
        results[result] += 1
        ends[record.outcome.termination] += 1
        if result is Result.LOSS:
            losses[record.outcome.termination] += 1
    return SimulationReport(
        difficulty=difficulty,
        policy=repr(chooser),
        games=games,
        seed=seed,
        results=dict(results),
        terminations=dict(ends),
        loss_causes=dict(losses),
        mean_rounds=statistics.fmean(rounds) if rounds else 0.0,
        capped_seeds=tuple(capped),
        seconds=time.perf_counter() - started,
        outcomes=tuple(outcomes),
    )


def example_tables(model: Maquis) -> list[tuple[str, Rules[Any, Any]]]:
    """Tables the shared contract test plays: the easiest, normal and the hardest level."""
    return [
        (level, MaquisRules(model, difficulty=level))
        for level in ("very-easy", "normal", "very-hard")
        if level in model.difficulty
    ]


def rulebook_examples(model: Maquis) -> dict[str, dict[str, Any]]:
    """Worked examples for the rulebook, played out by this engine so prose cannot drift.

    ``patrol``: the first patrol card drawn in three situations on the board (its first space
    held by a policeman, its second by a resistance worker): with the third space empty, then
    with a worker there too, then with patrols on all three. ``count``: the patrols of a
    round at two morale values.
    """
    rules = MaquisRules(model, difficulty="normal")
    start = rules.initial_state(random.Random(0))
    card = model.patrol_cards[0]
    first, second, third = (rules.index[x] for x in card.locations)
    names = [model.location[x].name for x in card.locations]

    def draw(marks: dict[int, str]) -> tuple[MaquisState, MaquisState]:
        board = EMPTY * len(rules.locs)
        for i, c in marks.items():
            board = _put(board, i, c)
        before = replace(
            start,
            board=board,
            home=0,
            to_place=0,
            patrols_left=1,
            patrols=1 + board.count(POLICE),
            round_soldiers=0,
            resistance_next=False,
        )
        assert rules.is_chance(before)
        return before, rules.apply(before, PatrolDraw(card.id))

    def landed(before: MaquisState, after: MaquisState) -> str:
        spots = [
            rules.locs[i].name
            for i, (a, b) in enumerate(zip(before.board, after.board, strict=True))
            if a != b
        ]
        return spots[0] if spots else ""

    b1, a1 = draw({first: POLICE, second: WORKER})
    b2, a2 = draw({first: POLICE, second: WORKER, third: WORKER})
    # A worker elsewhere keeps the round going, so the board can be read after the draw.
    elsewhere = next(
        i
        for i, loc in enumerate(rules.locs)
        if loc.kind is LocationKind.ACTION and i not in (first, second, third)
    )
    b3, a3 = draw({first: POLICE, second: SOLDIER, third: POLICE, elsewhere: WORKER})
    arrested = a2.board[second] != WORKER and b2.board[second] == WORKER

    morale_high = model.morale.top
    morale_low = 1
    home = rules.level.workers

    def patrols(morale: int) -> int:
        s = rules._start_round(replace(start, morale=morale, home=home))
        return s.patrols

    return {
        "patrol": {
            "card": card.name,
            "spaces": names,
            "first": names[0],
            "second": names[1],
            "third": names[2],
            "lands": landed(b1, a1),
            "arrest_at": landed(b2, a2),
            "arrested": arrested,
            "workers_left": sum(c == WORKER for c in a2.board),
            "blocked_placed": a3.board != b3.board,
        },
        "count": {
            "home": home,
            "high_morale": morale_high,
            "high_red": model.morale.red_at(morale_high),
            "high_patrols": patrols(morale_high),
            "low_morale": morale_low,
            "low_red": model.morale.red_at(morale_low),
            "low_patrols": patrols(morale_low),
        },
    }
