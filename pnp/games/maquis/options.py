"""What a worker on a space of Maquis may do: the options a space and the missions in play
offer, grouped by what they cost, and the memos that keep them from being built again.

An option is listed once for a context (whether anyone waits in the café, the airdrops and
the tiles for a space's own action; the missions, their boxes and the day for the mission
steps), apart from the stock, which only filters the groups by cost. Also here: each model
action's pay table, the mission steps that are open, and the supply a reward is taken from.
A base of :class:`~pnp.games.maquis.rules.MaquisRules`, which sets the tables and memos
declared below in its ``__init__``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from operator import sub
from typing import Any

from pnp.engines.base import InvariantViolation
from pnp.games.maquis.model import (
    Action,
    BoardLocation,
    Difficulty,
    LocationKind,
    Maquis,
    Mission,
    MissionStep,
    Reward,
    Settings,
)
from pnp.games.maquis.paths import WayHome
from pnp.games.maquis.state import MEMO_LIMIT, Activate, MaquisState


@dataclass(frozen=True)
class Option:
    """One thing a worker on a space may do: what it pays and what it brings."""

    key: str
    pay: dict[str, int]
    reward: Reward | None = None
    airdrop: dict[str, int] | None = None
    zone: int = -1
    """The airdrop zone (index into ``zones``) an airdrop option lands on."""
    build: str = ""
    collect: int = -1
    mission: tuple[int, int] | None = None
    cost: tuple[int, ...] = ()
    """``pay`` as a vector in the order of the resources (what an activation takes)."""


OptionGroup = tuple[tuple[int, ...], tuple["Option", ...], tuple[Activate, ...]]
"""Options on a space that cost the same: the cost as a vector (``()`` when free), the
options, and the activations that choose them."""

SpaceOptions = tuple[tuple[OptionGroup, ...], dict[str, "Option"]]
"""What a worker on a space could do with enough in stock: its options grouped by cost, in
the order the activations are listed, and each option by its key."""

OptionsBySpace = dict[int, SpaceOptions]
"""The options of each space in one context (filled as workers stand there)."""

NO_OPTIONS: SpaceOptions = ((), {})
"""A space with nothing to do (shared: never changed)."""

LastOptions = tuple[tuple[Any, ...], OptionsBySpace]
"""The parts of a position asked about last, and the memo of options they key."""

PayTable = tuple[tuple[tuple[int, ...], tuple[tuple[bool, bool, tuple["Option", ...]], ...]], ...]
"""An action's ways to pay (as vectors), each with its rewards: (recruits, airdrop, options)."""

OpenStep = tuple[int, int, MissionStep, tuple[tuple[dict[str, int], tuple[int, ...]], ...]]
"""A mission step that may be done now: its index, its space, the step, and each way to pay
it as a bundle and as a vector."""


class WorkerOptions(WayHome):
    """The options of a worker on a space; the rules set the tables and memos below.

    It derives from :class:`WayHome` only so that the rules have one chain of bases
    (``MaquisRules`` -> ``WorkerOptions`` -> ``WayHome``, the order two bases gave): a class
    mypyc compiles has a single base class."""

    model: Maquis
    level: Difficulty
    s: Settings
    locs: tuple[BoardLocation, ...]
    index: dict[str, int]
    res: tuple[str, ...]
    limit: tuple[int, ...]
    zones: tuple[int, ...]
    slots: tuple[int, ...]
    missions: dict[str, Mission]
    build_cost: tuple[int, ...]
    _free: tuple[int, ...]
    _activate_of: dict[tuple[int, str], Activate]
    _own_memo: dict[tuple[Any, ...], OptionsBySpace]
    _mission_memo: dict[tuple[Any, ...], OptionsBySpace]
    _last_own: LastOptions
    _last_landed: tuple[tuple[tuple[int, ...], ...], tuple[bool, ...]]
    _last_steps: LastOptions
    _chosen: dict[tuple[int, str, tuple[str, ...], tuple[str, ...]], Option]
    _pays: dict[int, tuple[Action, PayTable]]
    _steps_memo: dict[tuple[Any, ...], tuple[OpenStep, ...]]
    _step_groups_memo: dict[tuple[Any, ...], tuple[tuple[int, OptionGroup], ...]]
    _spare_memo: dict[tuple[tuple[int, ...], ...], tuple[int, ...]]

    # A method rather than a declared ``Callable`` attribute: in a class mypyc compiles, a
    # declared attribute is a slot of its own, which the rules' method would not fill.
    def notation(self, s: MaquisState) -> str:
        """The whole position as one line of text (the rules' own)."""
        raise NotImplementedError

    # -- building blocks: vectors, pay tables, groups -------------------------------------

    def _vector(self, bundle: dict[str, int]) -> tuple[int, ...]:
        return tuple(bundle.get(r, 0) for r in self.res)

    def _pay_table(self, action: Action) -> PayTable:
        """Each way to pay ``action`` as a vector, with what each of its rewards offers:
        whether it recruits (a worker must wait in the café), whether it is an airdrop (its
        zone must be empty), and the options it gives (built once, shared). An airdrop gives
        one option per bundle the level allows and zone it may land on: the player chooses
        both (decision airdrop-zone)."""
        table = []
        for i, pay in list(enumerate(action.pay)) or [(-1, {})]:
            rewards = []
            cost = self._vector(pay)
            for j, reward in enumerate(action.gain):
                key = f"{'' if i < 0 else f'p{i}'}g{j}"
                if reward.airdrop:
                    found = tuple(
                        Option(
                            f"{key}d{k}@{self.locs[zone].id}",
                            pay,
                            reward,
                            airdrop=bundle,
                            zone=z,
                            cost=cost,
                        )
                        for k, bundle in enumerate(self.level.airdrop)
                        for z, zone in enumerate(self.zones)
                    )
                else:
                    found = (Option(key, pay, reward, cost=cost),)
                rewards.append((bool(reward.recruit), bool(reward.airdrop), found))
            table.append((cost, tuple(rewards)))
        return tuple(table)

    def _activation(self, i: int, key: str) -> Activate:
        action = self._activate_of.get((i, key))
        if action is None:
            action = self._activate_of[(i, key)] = Activate(self.locs[i].id, key)
        return action

    def _group(self, i: int, cost: tuple[int, ...], options: list[Option]) -> OptionGroup:
        activations = tuple(self._activation(i, o.key) for o in options)
        return (cost if any(cost) else (), tuple(options), activations)

    @staticmethod
    def _keyed(groups: tuple[OptionGroup, ...]) -> SpaceOptions:
        """The groups with their options by key (the first of each key)."""
        by_key: dict[str, Option] = {}
        for _, options, _ in groups:
            for o in options:
                by_key.setdefault(o.key, o)
        return groups, by_key

    @staticmethod
    def _affords(stock: Sequence[int], cost: Sequence[int]) -> bool:
        # Every resource covered: the smallest margin is not negative (computed in C).
        margin: int = min(map(sub, stock, cost))
        return margin >= 0

    @staticmethod
    def _affordable(stock: tuple[int, ...], cost: tuple[int, ...]) -> bool:
        """Whether ``stock`` pays a group's ``cost`` (``()``: free)."""
        return not cost or min(map(sub, stock, cost)) >= 0

    # -- a position's options, from the memos ---------------------------------------------

    def options(self, s: MaquisState, i: int) -> list[Option]:
        """Everything the worker on space ``i`` may do (besides nothing)."""
        return self._options(s, i)

    def _options(
        self, s: MaquisState, i: int, stock: tuple[int, ...] | None = None
    ) -> list[Option]:
        """:meth:`options` with ``stock`` in the stock (default: the position's)."""
        stock = s.stock if stock is None else stock
        own, steps = self._options_at(s)
        groups = self._own_options(s, own, i)[0] + steps.get(i, NO_OPTIONS)[0]
        # Affordable: free, or every resource covered (_affords, written out).
        return [
            o
            for cost, options, _ in groups
            if not cost or min(map(sub, stock, cost)) >= 0
            for o in options
        ]

    def _option_keyed(self, s: MaquisState, i: int, key: str) -> Option | None:
        """The option of the worker on ``i`` with this key, affordable or not."""
        own, steps = self._options_at(s)
        option = self._own_options(s, own, i)[1].get(key)
        return option if option is not None else steps.get(i, NO_OPTIONS)[1].get(key)

    def _options_at(self, s: MaquisState) -> tuple[OptionsBySpace, OptionsBySpace]:
        """The memos of each space's options in this position's context, apart from the
        stock and where the figures stand: its own action's (they depend on whether anyone
        waits in the café, which airdrop zones hold something, and the tiles) and its
        mission steps' (the missions, their boxes and the day), each one dictionary lookup
        for all the workers."""
        # The parts asked about last first: a step shares the parts it leaves alone with
        # the next position, and comparing a tuple of the same objects costs no hashing.
        key = (s.cafe > 0, self._landed(s.drops), s.tiles)
        if key != self._last_own[0]:
            own = self._own_memo.get(key)
            if own is None:
                if len(self._own_memo) >= MEMO_LIMIT:
                    self._own_memo.clear()
                own = self._own_memo[key] = {}
            self._last_own = (key, own)
        step_key = (s.missions, s.boxes, s.day)
        if step_key != self._last_steps[0]:
            steps = self._mission_memo.get(step_key)
            if steps is None:
                if len(self._mission_memo) >= MEMO_LIMIT:
                    self._mission_memo.clear()
                groups = self._open_step_groups(s)
                steps = {i: self._keyed(g) for i, g in groups.items()}
                self._mission_memo[step_key] = steps
            self._last_steps = (step_key, steps)
        return self._last_own[1], self._last_steps[1]

    def _landed(self, drops: tuple[tuple[int, ...], ...]) -> tuple[bool, ...]:
        """Whether anything lies on each airdrop zone: all that a space's own options and
        the placements read of the airdrops (what lies there is read when it is collected),
        so their memos are keyed on it rather than on every token lying there. A state's
        drops are shared with the states after it until one changes them: asked about the
        drops of the last call, it answers without looking."""
        if drops is not self._last_landed[0]:
            self._last_landed = (drops, tuple(map(any, drops)))
        return self._last_landed[1]

    def _own_options(self, s: MaquisState, own: OptionsBySpace, i: int) -> SpaceOptions:
        """The options of the action on ``i`` (from ``own``, the memo of this context)."""
        found = own.get(i)
        if found is None:
            found = own[i] = self._keyed(tuple(self._list_own_groups(s, i)))
        return found

    def _option_for(self, s: MaquisState, i: int, choice: str) -> Option:
        """The option ``choice`` of the worker on ``i``, once paid for (a reward in his hand,
        a walk home). What it does depends on the space, its tile and the missions in play
        alone, so it is memoised on them; it is first looked up among the options of the
        space, paid or not (they do not depend on the board, so the worker need not be put
        back on it)."""
        key = (i, choice, s.tiles, s.missions)
        option = self._chosen.get(key)
        if option is None:
            option = self._option_keyed(s, i, choice)
            if option is None:
                raise InvariantViolation(
                    f"pending choice {choice!r} not found in {self.notation(s)}"
                )
            if len(self._chosen) >= MEMO_LIMIT:
                self._chosen.clear()
            self._chosen[key] = option
        return option

    # -- options listed afresh: a space's own action and the open mission steps -----------

    def _action_groups(self, s: MaquisState, i: int, action: Action) -> list[OptionGroup]:
        table = self._pays.get(id(action))
        if table is None or table[0] is not action:
            table = (action, self._pay_table(action))
        groups = []
        for cost, rewards in table[1]:
            options: list[Option] = []
            for recruit, airdrop, found in rewards:
                if recruit and s.cafe <= 0:
                    continue
                if airdrop:
                    # Airdrop: onto any zone with nothing on it (decision airdrop-zone).
                    options.extend(o for o in found if not any(s.drops[o.zone]))
                    continue
                options.extend(found)
            if options:
                groups.append(self._group(i, cost, options))
        return groups

    def available_steps(self, s: MaquisState, slot: int) -> list[int]:
        """Steps of the mission in ``slot`` that may be done now: the lowest unfilled order."""
        return self._available_steps(s.missions[slot], s.boxes[slot], s.day)

    def _available_steps(self, mission_id: str, boxes: tuple[bool, ...], day: int) -> list[int]:
        mission = self.missions[mission_id]
        open_steps = [k for k, filled in enumerate(boxes) if not filled]
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
            if step.days is not None and day not in step.days:
                continue
            steps.append(k)
        return steps

    def _step_at(self, slot: int, step: MissionStep) -> int:
        return self.index[step.at] if step.at else self.slots[slot]

    def _steps_open(
        self, slot: int, mission_id: str, boxes: tuple[bool, ...], day: int
    ) -> tuple[OpenStep, ...]:
        """Each step of the mission in ``slot`` that may be done now (:meth:`available_steps`)
        with the space it is done on and each way to pay it, as a bundle and as a vector
        (memoised: they depend on the mission, its boxes and the day alone)."""
        key = (slot, mission_id, boxes, day)
        steps = self._steps_memo.get(key)
        if steps is None:
            if len(self._steps_memo) >= MEMO_LIMIT:
                self._steps_memo.clear()
            mission = self.missions[mission_id]
            found = []
            for k in self._available_steps(mission_id, boxes, day):
                step = mission.steps[k]
                pays = tuple((pay, self._vector(pay)) for pay in step.pay or ({},))
                found.append((k, self._step_at(slot, step), step, pays))
            steps = self._steps_memo[key] = tuple(found)
        return steps

    def _list_options(self, s: MaquisState, i: int, stock: tuple[int, ...]) -> list[Option]:
        """:meth:`_options`, computed afresh."""
        groups = self._list_groups(s, i)
        return [o for cost, options, _ in groups if self._affordable(stock, cost) for o in options]

    def _list_groups(self, s: MaquisState, i: int) -> list[OptionGroup]:
        """The options of a worker on ``i``, grouped by cost (computed afresh)."""
        return [*self._list_own_groups(s, i), *self._list_step_groups(s).get(i, ())]

    def _list_own_groups(self, s: MaquisState, i: int) -> list[OptionGroup]:
        """The options of the space's own action: its printed one, its tile's, laying a tile
        on a vacant house or collecting an airdrop."""
        loc = self.locs[i]
        groups: list[OptionGroup] = []
        if loc.kind is LocationKind.ACTION and loc.action is not None:
            groups.extend(self._action_groups(s, i, loc.action))
        elif loc.kind is LocationKind.VACANT:
            tile = s.tiles[self.vacant.index(i)]
            if tile:
                action = self.tiles[tile].action
                if action is not None:
                    groups.extend(self._action_groups(s, i, action))
            else:
                used = Counter(t for t in s.tiles if t)
                builds = [
                    Option(f"b={t.id}", self.s.build_cost, build=t.id, cost=self.build_cost)
                    for t in self.model.vacant_tiles
                    if used[t.id] < t.copies
                ]
                if builds:
                    groups.append(self._group(i, self.build_cost, builds))
        elif loc.kind is LocationKind.AIRDROP:
            zone = self.zones.index(i)
            if any(s.drops[zone]):
                collect = Option("c", {}, collect=zone, cost=self._free)
                groups.append(self._group(i, self._free, [collect]))
        return groups

    def _list_step_groups(self, s: MaquisState) -> dict[int, tuple[OptionGroup, ...]]:
        """The mission steps that may be done now, by the space they are done on: one group
        for each way to pay a step."""
        spaces: dict[int, list[OptionGroup]] = {}
        for slot, mission_id in enumerate(s.missions):
            for k, at, step, pays in self._steps_open(slot, mission_id, s.boxes[slot], s.day):
                for p, (pay, cost) in enumerate(pays):
                    option = Option(
                        f"m{slot}.{k}p{p}", pay, step.gain, mission=(slot, k), cost=cost
                    )
                    spaces.setdefault(at, []).append(self._group(at, cost, [option]))
        return {i: tuple(groups) for i, groups in spaces.items()}

    def _open_step_groups(self, s: MaquisState) -> dict[int, tuple[OptionGroup, ...]]:
        """:meth:`_list_step_groups` from the memo of each mission's groups."""
        spaces: dict[int, list[OptionGroup]] = {}
        for slot, mission_id in enumerate(s.missions):
            for at, group in self._step_groups(slot, mission_id, s.boxes[slot], s.day):
                spaces.setdefault(at, []).append(group)
        return {i: tuple(groups) for i, groups in spaces.items()}

    def _step_groups(
        self, slot: int, mission_id: str, boxes: tuple[bool, ...], day: int
    ) -> tuple[tuple[int, OptionGroup], ...]:
        """The open steps of the mission in ``slot`` as groups of options, each with the
        space it is done on (memoised as :meth:`_steps_open`: every position with this
        mission's boxes on this day shares them, whatever the other mission's)."""
        key = (slot, mission_id, boxes, day)
        groups = self._step_groups_memo.get(key)
        if groups is None:
            if len(self._step_groups_memo) >= MEMO_LIMIT:
                self._step_groups_memo.clear()
            found = []
            for k, at, step, pays in self._steps_open(slot, mission_id, boxes, day):
                for p, (pay, cost) in enumerate(pays):
                    option = Option(
                        f"m{slot}.{k}p{p}", pay, step.gain, mission=(slot, k), cost=cost
                    )
                    found.append((at, self._group(at, cost, [option])))
            groups = self._step_groups_memo[key] = tuple(found)
        return groups

    # -- the supply -----------------------------------------------------------------------

    def supply(self, s: MaquisState) -> list[int]:
        """Tokens of each resource left in the supply (the limit minus stock and airdrops)."""
        return self._supply(s.stock, s.drops)

    def _supply(self, stock: tuple[int, ...], drops: tuple[tuple[int, ...], ...]) -> list[int]:
        # What is left besides the stock, by the airdrops lying on the zones (memoised:
        # they change far less often than the stock).
        spare = self._spare_memo.get(drops)
        if spare is None:
            if len(self._spare_memo) >= MEMO_LIMIT:
                self._spare_memo.clear()
            dropped = map(sum, zip(*drops, strict=True)) if drops else (0,) * len(self.limit)
            spare = self._spare_memo[drops] = tuple(map(sub, self.limit, dropped))
        return list(map(sub, spare, stock))
