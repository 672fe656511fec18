"""What the MAQUIS kit prints, tied to the engine (pnp.validate.claims).

The board prints every space's cost and reward (``支付 → 得到``, a slash 「/」 for a choice),
the orange star shield, the vacant houses' build cost and the airdrop zones' rule; each patrol
card its three spaces in order; each mission card its steps in numbered boxes; the round
summary and the difficulty reference what a level changes. Each is a claim located at the
space, card or level in content/maquis (or the template line) and played out on a position
built from the engine's starting one: a worker on the space in the action phase, a patrol
card drawn at placement, the day marker one day before the upkeep that matters.

A probe's worker walks home with a second worker still out on the board, so the round goes
on and what the first one brought home is all that changed; the arrest probes fill every
other space with soldiers so no way home is left.
"""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Any

from pnp.games.maquis.model import (
    BoardLocation,
    DayMark,
    Difficulty,
    LocationKind,
    Maquis,
    Mission,
    PatrolCard,
)
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import Activate, Kill, MaquisState, PatrolDraw, Place, Return
from pnp.validate.claims import Claim, template_line

EMPTY, WORKER, POLICE, SOLDIER = ".", "R", "P", "S"


def claims(model: Maquis, templates_root: Path) -> list[Claim]:
    """Every claim the kit prints: per board space, patrol card, mission card and level."""
    try:
        bench = Bench(model)
    except (ValueError, KeyError, StopIteration):
        return []  # check_static reports content the engine cannot set up
    found: list[Claim] = []
    for loc in model.locations:
        found += bench.space_claims(loc, templates_root)
    for card in model.patrol_cards:
        found.append(
            Claim(
                card.where,
                f"patrol card {card.id!r}",
                " → ".join(model.location[i].name for i in card.locations),
                partial(bench.patrol, card),
            )
        )
    for mission in model.missions:
        found += bench.mission_claims(mission)
    for level in model.difficulties:
        found += bench.level_claims(level)
    found += bench.summary_claims(templates_root)
    return found


class Bench:
    """One engine per level, the starting position and the probes."""

    def __init__(self, model: Maquis) -> None:
        self.model = model
        self.levels = {d.id: MaquisRules(model, 1, d.id) for d in model.difficulties}
        self.rules = (
            self.levels["normal"]
            if "normal" in self.levels
            else self.levels[model.difficulties[0].id]
        )
        self.start = self.rules.initial_state(random.Random(0))
        self.resources = [r.id for r in model.resources]
        self.home = next(loc.id for loc in model.locations if loc.kind is LocationKind.SAFE_HOUSE)

    # -- positions ----------------------------------------------------------------------------

    def board(self, rules: MaquisRules, **figures: str) -> str:
        cells = [EMPTY] * len(rules.locs)
        for loc, figure in figures.items():
            cells[rules.index[loc]] = figure
        return "".join(cells)

    def stock(self, bundle: dict[str, int]) -> tuple[int, ...]:
        return tuple(bundle.get(r, 0) for r in self.resources)

    def acting(
        self,
        loc: str,
        stock: dict[str, int],
        rules: MaquisRules | None = None,
        blocked: bool = False,
        **changes: Any,
    ) -> MaquisState:
        """The action phase with a worker on ``loc`` holding ``stock``; a second worker out on
        another space keeps the round going, or (``blocked``) soldiers on every other space
        leave no way home."""
        rules = rules or self.rules
        if blocked:
            cells = [
                EMPTY if other.id in (loc, self.home) or not other.placeable else SOLDIER
                for other in rules.locs
            ]
            cells[rules.index[loc]] = WORKER
            board = "".join(cells)
        else:
            other = self.spare(rules, loc)
            board = self.board(rules, **{loc: WORKER, other: WORKER})
        state = replace(
            self.start if rules is self.rules else rules.initial_state(random.Random(0)),
            phase="act",
            board=board,
            to_place=0,
            patrols_left=0,
            home=1,
            stock=self.stock(stock),
        )
        return replace(state, **changes) if changes else state

    def spare(self, rules: MaquisRules, loc: str) -> str:
        """A space a second worker waits on: an action space other than ``loc``."""
        return next(
            other.id
            for other in rules.locs
            if other.kind is LocationKind.ACTION and other.id != loc
        )

    def choices(self, state: MaquisState, loc: str, rules: MaquisRules | None = None) -> set[str]:
        rules = rules or self.rules
        return {
            a.choice for a in rules.legal_actions(state) if isinstance(a, Activate) and a.loc == loc
        }

    def home_with(
        self, state: MaquisState, loc: str, choice: str, rules: MaquisRules | None = None
    ) -> MaquisState:
        rules = rules or self.rules
        return rules.apply(rules.apply(state, Activate(loc, choice)), Return())

    def delta(self, before: MaquisState, after: MaquisState) -> dict[str, int]:
        return {
            r: b - a
            for r, a, b in zip(self.resources, before.stock, after.stock, strict=True)
            if b != a
        }

    @staticmethod
    def minus(bundle: dict[str, int]) -> dict[str, int]:
        return {r: -n for r, n in bundle.items() if n}

    @staticmethod
    def plus(*bundles: dict[str, int]) -> dict[str, int]:
        total: dict[str, int] = {}
        for bundle in bundles:
            for r, n in bundle.items():
                total[r] = total.get(r, 0) + n
        return {r: n for r, n in total.items() if n}

    # -- board spaces ---------------------------------------------------------------------------

    def space_claims(self, loc: BoardLocation, templates_root: Path) -> list[Claim]:
        found: list[Claim] = []
        subject = f"board space {loc.name!r}"
        if loc.action is not None:
            says = self.model.action_text(loc.action)
            where = loc.action.where if loc.action.where.path else loc.where
            found.append(Claim(where, subject, says, partial(self.action, loc)))
            found.append(Claim(where, subject, says, partial(self.slash, loc)))
            shield = "★ 橙色星盾：被捕也保留奖励" if loc.shield else "没有星盾：被捕奖励作废"
            found.append(Claim(loc.where, subject, shield, partial(self.arrest, loc)))
        elif loc.kind is LocationKind.VACANT:
            cost = self.model.bundle_text(self.model.settings.build_cost)
            says = f"付 {cost}：放一块空屋板块，下回合起可用"
            found.append(Claim(loc.where, subject, says, partial(self.build, loc)))
        elif loc.kind is LocationKind.AIRDROP:
            found.append(Claim(loc.where, subject, loc.note or "空投点", partial(self.zone, loc)))
        return found

    def action(self, loc: BoardLocation) -> str | None:
        """For every pay alternative and every reward: offered with the cost in stock, and
        what comes home is the reward less the cost."""
        action = loc.action
        assert action is not None
        pays = action.pay or ({},)
        for i, pay in enumerate(pays):
            for j, gain in enumerate(action.gain):
                if gain.airdrop:
                    continue  # the radio's call: played out by the airdrop probe
                state = self.acting(loc.id, pay)
                key = (f"p{i}" if action.pay else "") + f"g{j}"
                if key not in self.choices(state, loc.id):
                    held = self.model.bundle_text(pay) or "nothing"
                    return f"with {held} in stock the engine does not offer {key}"
                after = self.home_with(state, loc.id, key)
                wanted = self.plus(self.minus(pay), gain.resources)
                got = self.delta(state, after)
                if got != wanted:
                    return (
                        f"paying {i + 1} and taking {j + 1} changes the stock by {got}, "
                        f"not {wanted}"
                    )
                if after.morale - state.morale != gain.morale:
                    moved = after.morale - state.morale
                    return f"taking {j + 1} moves morale by {moved}, not {gain.morale}"
                if gain.recruit and state.cafe - after.cafe != min(gain.recruit, state.cafe):
                    return f"taking {j + 1} recruits {state.cafe - after.cafe} from the café"
        airdrops = [j for j, g in enumerate(action.gain) if g.airdrop]
        if airdrops:
            return self.call_airdrop(loc, airdrops[0])
        return None

    def slash(self, loc: BoardLocation) -> str | None:
        """A slash on the left: any one alternative pays; no slash: every part is paid (one
        token short of an alternative, it is not offered)."""
        action = loc.action
        assert action is not None
        for i, pay in enumerate(action.pay):
            for short in pay:
                less = {**pay, short: pay[short] - 1}
                state = self.acting(loc.id, less)
                offered = {c for c in self.choices(state, loc.id) if c.startswith(f"p{i}")}
                if offered:
                    return (
                        f"with {self.model.bundle_text(less) or 'nothing'} in stock (one "
                        f"{self.model.resource[short].name} short) the engine offers "
                        f"{sorted(offered)}"
                    )
            state = self.acting(loc.id, pay)
            if not any(c.startswith(f"p{i}") for c in self.choices(state, loc.id)):
                return (
                    f"with {self.model.bundle_text(pay)} alone in stock the engine offers nothing"
                )
        return None

    def arrest(self, loc: BoardLocation) -> str | None:
        """Arrested on the way home: the reward stays on a star-shield space, is lost on
        another; the cost is paid either way."""
        action = loc.action
        assert action is not None
        j, gain = next(
            ((j, g) for j, g in enumerate(action.gain) if not g.airdrop and not g.recruit),
            (-1, None),
        )
        if gain is None:
            return None
        pay = action.pay[0] if action.pay else {}
        state = self.acting(loc.id, pay, blocked=True)
        if self.rules.has_path_home(state, self.rules.index[loc.id]):
            return None  # next to a safe house: no patrol can cut the way home
        key = ("p0" if action.pay else "") + f"g{j}"
        after = self.home_with(state, loc.id, key)
        reward = {**gain.resources, "morale": gain.morale}
        kept = self.plus(self.minus(pay), reward)
        got = self.plus(self.delta(state, after), {"morale": after.morale - state.morale})
        wanted = kept if loc.shield else self.minus(pay)
        if got != wanted:
            return f"a worker arrested there changes stock and morale by {got}, not {wanted}"
        return None

    def build(self, loc: BoardLocation) -> str | None:
        """With the build cost in stock every tile not yet laid may go down; a token short,
        none; the tile lies there once the worker is home, the cost paid."""
        cost = self.model.settings.build_cost
        state = self.acting(loc.id, cost)
        builds = sorted(c for c in self.choices(state, loc.id) if c.startswith("b="))
        tiles = sorted(f"b={t.id}" for t in self.model.vacant_tiles)
        if builds != tiles:
            return f"with {self.model.bundle_text(cost)} in stock the engine offers {builds}"
        for short in cost:
            poor = self.acting(loc.id, {**cost, short: cost[short] - 1})
            if any(c.startswith("b=") for c in self.choices(poor, loc.id)):
                return f"one {self.model.resource[short].name} short the engine still builds"
        after = self.home_with(state, loc.id, tiles[0])
        slot = self.rules.vacant.index(self.rules.index[loc.id])
        if after.tiles[slot] != tiles[0][2:] or self.delta(state, after) != self.minus(cost):
            change = self.delta(state, after)
            return f"building leaves tile {after.tiles[slot]!r} and a stock change {change}"
        return None

    def zone(self, loc: BoardLocation) -> str | None:
        """No worker goes to an empty zone; on one with resources he brings them all home."""
        placing = replace(self.start, board=self.board(self.rules))
        zone = self.rules.zones.index(self.rules.index[loc.id])
        offered = Place(loc.id) in self.rules.legal_actions(placing)
        if offered:
            return "the engine lets a worker go to the empty zone"
        drop = self.model.difficulty[self.rules.level.id].airdrop[0]
        drops = tuple(
            self.stock(drop) if k == zone else tuple(0 for _ in self.resources)
            for k in range(len(self.rules.zones))
        )
        if Place(loc.id) not in self.rules.legal_actions(replace(placing, drops=drops)):
            return "the engine keeps a worker off the zone holding an airdrop"
        state = self.acting(loc.id, {}, drops=drops)
        if "c" not in self.choices(state, loc.id):
            return "a worker on the zone holding an airdrop cannot collect it"
        after = self.home_with(state, loc.id, "c")
        if self.delta(state, after) != {r: n for r, n in drop.items() if n}:
            return f"collecting brings home {self.delta(state, after)}, not {drop}"
        return None

    def call_airdrop(
        self, loc: BoardLocation, j: int, rules: MaquisRules | None = None
    ) -> str | None:
        """The call offers each of the level's airdrops onto each empty zone, none onto a zone
        with resources, and the drop lies there once the worker is home."""
        rules = rules or self.rules
        level = rules.level
        zones = [rules.locs[i].id for i in rules.zones]
        state = self.acting(loc.id, {}, rules=rules)
        calls = {c for c in self.choices(state, loc.id, rules) if c.startswith(f"g{j}d")}
        wanted = {f"g{j}d{k}@{z}" for k in range(len(level.airdrop)) for z in zones}
        if calls != wanted:
            return (
                f"at {level.name} the engine offers the calls {sorted(calls)}, not {sorted(wanted)}"
            )
        full = tuple(
            self.stock(level.airdrop[0]) if k == 0 else tuple(0 for _ in self.resources)
            for k in range(len(zones))
        )
        state = self.acting(loc.id, {}, rules=rules, drops=full)
        onto_full = {c for c in self.choices(state, loc.id, rules) if c.endswith(f"@{zones[0]}")}
        if onto_full:
            return f"the engine offers {sorted(onto_full)} onto a zone that holds resources"
        last = len(level.airdrop) - 1
        empty = self.acting(loc.id, {}, rules=rules)
        after = self.home_with(empty, loc.id, f"g{j}d{last}@{zones[-1]}", rules)
        if after.drops[-1] != self.stock(level.airdrop[last]):
            called = self.model.bundle_text(level.airdrop[last])
            return f"the call for {called} drops {after.drops[-1]}"
        return None

    # -- patrol cards ---------------------------------------------------------------------------

    def patrol(self, card: PatrolCard) -> str | None:
        """The patrol stands on the card's first empty space, in the printed order; with none
        empty it arrests the first worker; on three patrols it is not placed."""
        spaces = list(card.locations)
        if len(set(spaces)) != len(spaces):
            return "it names a space twice"
        for taken in range(len(spaces)):
            figures = dict.fromkeys(spaces[:taken], POLICE)
            where = self.draw(card, figures)
            if where.get(spaces[taken]) != POLICE:
                held = " and ".join(spaces[:taken]) or "nothing"
                return f"with {held} taken the patrol goes elsewhere"
        workers = {s: (WORKER if k == 1 else POLICE) for k, s in enumerate(spaces)}
        where = self.draw(card, workers)
        if len(spaces) > 1 and where.get(spaces[1]) != POLICE:
            return f"with no space empty the worker on {spaces[1]} is not arrested"
        return None

    def draw(self, card: PatrolCard, figures: dict[str, str]) -> dict[str, str]:
        """Where every figure stands after ``card`` is drawn for a police patrol at placement."""
        rules = self.rules
        # A worker already out elsewhere: with every patrol placed the action phase waits
        # for him, so the upkeep does not take the patrol off the board before it is seen.
        out = next(
            loc.id
            for loc in rules.locs
            if loc.placeable and loc.id not in card.locations and loc.id not in figures
        )
        placing = replace(
            self.start,
            board=self.board(rules, **figures, **{out: WORKER}),
            to_place=0,
            patrols_left=1,
            patrols=1,
            round_soldiers=0,
            resistance_next=False,
        )
        after = rules.apply(placing, PatrolDraw(card.id))
        return {
            loc.id: after.board[i] for i, loc in enumerate(rules.locs) if after.board[i] != EMPTY
        }

    # -- missions -----------------------------------------------------------------------------

    def mission_claims(self, mission: Mission) -> list[Claim]:
        found = []
        for index, step in enumerate(mission.steps):
            says = f"{step.order}. {step.name}"
            if step.pay:
                says += f"：{self.model.pay_text(step.pay)}"
            if step.days:
                says += f"（第 {step.days.min}–{step.days.max} 天）"
            where = step.where if step.where.path else mission.where
            found.append(
                Claim(
                    where,
                    f"mission card {mission.name!r}",
                    says,
                    partial(self.step, mission, index),
                )
            )
        return found

    def step(self, mission: Mission, index: int) -> str | None:
        """The box is offered once every lower number is filled (and the day is in its
        window), never before; done, it fills and the cost is paid."""
        step = mission.steps[index]
        loc = step.at or self.rules.locs[self.rules.slots[0]].id
        day = step.days.min if step.days else self.start.day
        # Boxes of one step printed twice are filled in turn: the earlier copies first.
        filled = tuple(
            other.order < step.order or (other == step and k < index)
            for k, other in enumerate(mission.steps)
        )
        pay = step.pay[0] if step.pay else {}
        state = self.at_mission(mission, loc, pay, filled, day)
        key = f"m0.{index}p0"
        if not any(c.startswith(f"m0.{index}") for c in self.choices(state, loc)):
            return f"with the boxes before it filled the engine does not offer it at {loc}"
        earlier = [k for k, other in enumerate(mission.steps) if other.order < step.order]
        if earlier:
            open_one = tuple(f and k != earlier[0] for k, f in enumerate(filled))
            early = self.at_mission(mission, loc, pay, open_one, day)
            if any(c.startswith(f"m0.{index}") for c in self.choices(early, loc)):
                return f"the engine offers it with box {mission.steps[earlier[0]].order} open"
        if step.days:
            for outside in (step.days.min - 1, step.days.max + 1):
                late = self.at_mission(mission, loc, pay, filled, outside)
                if any(c.startswith(f"m0.{index}") for c in self.choices(late, loc)):
                    return f"the engine offers it on day {outside}"
        choice = (
            key
            if step.pay
            else next(c for c in self.choices(state, loc) if c.startswith(f"m0.{index}"))
        )
        after = self.home_with(state, loc, choice)
        if not after.boxes[0][index]:
            return "done and home, its box stays open"
        wanted = self.plus(self.minus(pay), step.gain.resources if step.gain else {})
        if self.delta(state, after) != wanted:
            return f"done, the stock changes by {self.delta(state, after)}, not {wanted}"
        return None

    def at_mission(
        self, mission: Mission, loc: str, pay: dict[str, int], filled: tuple[bool, ...], day: int
    ) -> MaquisState:
        other = [m.id for m in self.model.missions if m.id != mission.id][
            : len(self.start.missions) - 1
        ]
        boxes = (filled, *(tuple(False for _ in self.model.mission(m).steps) for m in other))
        return self.acting(loc, pay, missions=(mission.id, *other), boxes=boxes, day=day)

    # -- levels ---------------------------------------------------------------------------------

    def level_claims(self, level: Difficulty) -> list[Claim]:
        subject = f"difficulty {level.name!r}"
        found = [
            Claim(
                level.where,
                subject,
                f"工人 {level.workers} + 咖啡馆 {level.cafe}",
                partial(self.setup, level),
            ),
        ]
        if level.loop:
            says = "日期循环，不会到期"
        elif level.end_day:
            says = f"到第 {level.end_day} 天结束（这一格照常扣士气）"
        else:
            says = "到「结束」格结束"
        found.append(Claim(level.where, subject, says, partial(self.last_day, level)))
        mark = "星号格" if level.morale_drop is DayMark.STAR else "橙色格"
        found.append(Claim(level.where, subject, f"{mark}扣士气", partial(self.drops, level)))
        says = f"被捕士气 {level.arrest_morale:+d}" if level.arrest_morale else "被捕不扣士气"
        found.append(Claim(level.where, subject, says, partial(self.arrest_cost, level)))
        radio = next(
            (
                loc
                for loc in self.model.locations
                if loc.action and any(g.airdrop for g in loc.action.gain)
            ),
            None,
        )
        if radio is not None and radio.action is not None:
            j = next(k for k, g in enumerate(radio.action.gain) if g.airdrop)
            says = f"空投 {' / '.join(self.model.bundle_text(b) for b in level.airdrop)}"
            found.append(
                Claim(
                    level.where,
                    subject,
                    says,
                    partial(self.call_airdrop, radio, j, self.levels[level.id]),
                )
            )
        return found

    def setup(self, level: Difficulty) -> str | None:
        start = self.levels[level.id].initial_state(random.Random(0))
        if (start.home, start.cafe) != (level.workers, level.cafe):
            return f"the game starts with {start.home} workers and {start.cafe} in the café"
        return None

    def upkeep(self, level: Difficulty, day: int, morale: int | None = None) -> MaquisState:
        """The upkeep after ``day``: the one worker out walks home with nothing."""
        rules = self.levels[level.id]
        loc = self.spare(rules, "")
        state = replace(
            rules.initial_state(random.Random(0)),
            phase="act",
            board=self.board(rules, **{loc: WORKER}),
            to_place=0,
            patrols_left=0,
            home=1,
            day=day,
            morale=self.model.morale.start if morale is None else morale,
        )
        return self.home_with(state, loc, "-", rules)

    def marked(self, level: Difficulty, day: int) -> bool:
        marks = self.model.days.marks(day)
        return (DayMark.STAR if level.morale_drop is DayMark.STAR else DayMark.ORANGE) in marks

    def last_day(self, level: Difficulty) -> str | None:
        last = self.model.days.days
        if level.loop:
            after = self.upkeep(level, last)
            if after.phase == "over":
                return f"the game ends when the day marker passes day {last}"
            return None
        end = level.end_day or last + 1
        before = self.upkeep(level, end - 2)
        if before.phase == "over":
            return f"the game ends on reaching day {end - 1}"
        after = self.upkeep(level, end - 1)
        if after.phase != "over":
            reached = f"day {end}" if level.end_day else "the End space"
            return f"the game goes on after the day marker reaches {reached}"
        if level.end_day and self.marked(level, end):
            lost = self.model.morale.start - after.morale
            if lost != 1:
                return f"entering day {end} costs {lost} morale, though it is a marked day"
            low = self.upkeep(level, end - 1, morale=1)
            if low.morale != 0:
                return (
                    f"with morale 1 on day {end - 1} the game ends with morale {low.morale}, "
                    "not lost"
                )
        return None

    def drops(self, level: Difficulty) -> str | None:
        """Entering a day of the level's mark costs 1 morale, any other day nothing."""
        last = level.end_day - 1 if level.end_day else self.model.days.days
        for day in range(1, last + 1):
            lost = self.model.morale.start - self.upkeep(level, day - 1).morale
            wanted = 1 if self.marked(level, day) else 0
            if lost != wanted:
                return f"entering day {day} costs {lost} morale, not {wanted}"
        return None

    def arrest_cost(self, level: Difficulty) -> str | None:
        """A worker arrested on the way home costs the level's morale, and only that."""
        rules = self.levels[level.id]
        loc = self.spare(rules, "")
        state = self.acting(loc, {}, rules=rules, blocked=True)
        after = rules.apply(rules.apply(state, Activate(loc, "-")), Return())
        change = after.morale - state.morale
        if after.phase != "over" and after.day != state.day:
            change += 1 if self.marked(level, after.day) else 0
        if change != level.arrest_morale:
            return f"an arrest moves morale by {change}, not {level.arrest_morale}"
        return None

    # -- the round summary ------------------------------------------------------------------

    def summary_claims(self, templates_root: Path) -> list[Claim]:
        aid = "maquis/round-summary.yaml"
        st = self.model.settings
        kill = (
            f"每回合 {st.kills_per_round} 次，付 {self.model.bundle_text(st.kill_cost)} 移除一名"
            f"警察；士兵轨 {st.kill_soldiers:+d}，士气 {st.kill_morale:+d}。士兵不能被击杀"
        )
        cap = self.model.resources[0].count if self.model.resources else 0
        return [
            Claim(
                template_line(templates_root, aid, "击杀警察"), "the round summary", kill, self.kill
            ),
            Claim(
                template_line(templates_root, aid, "巡逻人数"),
                "the round summary",
                "巡逻人数 = 安全屋里的工人数与士气格红字两者中较大的一个；"
                "士兵轨上的数字决定其中几名是士兵",
                self.patrol_count,
            ),
            Claim(
                template_line(templates_root, aid, "资源上限"),
                "the round summary",
                f"每种资源在场上最多 {cap} 个（库存加空投点）",
                partial(self.cap, cap),
            ),
        ]

    def kill(self) -> str | None:
        """With the cost in stock a police figure may be killed once a round, for the printed
        cost and track moves; a soldier never."""
        st = self.model.settings
        rules = self.rules
        worker, police, soldier, second = [
            loc.id for loc in rules.locs if loc.kind is LocationKind.ACTION
        ][:4]
        figures = {worker: WORKER, police: POLICE, soldier: SOLDIER, second: POLICE}
        state = self.acting(worker, {}, board=self.board(rules, **figures))
        state = replace(state, stock=self.stock({r: 2 * n for r, n in st.kill_cost.items()}))
        targets = {a.loc for a in rules.legal_actions(state) if isinstance(a, Kill)}
        if targets != {police, second}:
            return (
                f"with a police figure on {police} and {second} and a soldier on {soldier} "
                f"the engine offers kills on {sorted(targets)}"
            )
        after = rules.apply(state, Kill(police))
        if self.delta(state, after) != self.minus(st.kill_cost):
            return f"a kill changes the stock by {self.delta(state, after)}"
        if (
            after.soldiers - state.soldiers != st.kill_soldiers
            or after.morale - state.morale != st.kill_morale
        ):
            track, morale = after.soldiers - state.soldiers, after.morale - state.morale
            return f"a kill moves the soldier track by {track} and morale by {morale}"
        again = any(isinstance(a, Kill) for a in rules.legal_actions(after))
        if st.kills_per_round == 1 and again:
            return "after a kill the engine offers another in the same round"
        return None

    def patrol_count(self) -> str | None:
        """After the upkeep a round has max(workers home, red number) patrols, the soldiers
        (as many as the track shows) among them."""
        rules = self.rules
        red = self.model.morale.red
        for morale in sorted({1, len(red)}):
            for soldiers in (0, 1):
                level = self.model.difficulty[rules.level.id]
                state = replace(self.start, soldiers=soldiers)
                after = self.upkeep_from(level, state, morale)
                if after.phase == "over":
                    continue
                wanted = max(after.home, self.model.morale.red_at(after.morale))
                if (after.patrols, after.round_soldiers) != (wanted, min(soldiers, wanted)):
                    return (
                        f"with {after.home} workers home, morale {after.morale} and "
                        f"{soldiers} soldiers the round has {after.patrols} patrols, "
                        f"{after.round_soldiers} of them soldiers"
                    )
        return None

    def upkeep_from(self, level: Difficulty, start: MaquisState, morale: int) -> MaquisState:
        rules = self.levels[level.id]
        loc = self.spare(rules, "")
        state = replace(
            start,
            phase="act",
            board=self.board(rules, **{loc: WORKER}),
            to_place=0,
            patrols_left=0,
            home=1,
            morale=morale,
        )
        return self.home_with(state, loc, "-", rules)

    def cap(self, cap: int) -> str | None:
        """A reward takes only what the supply still holds: never past the cap in stock."""
        for loc in self.model.locations:
            action = loc.action
            if action is None or action.pay:
                continue
            for j, gain in enumerate(action.gain):
                for r, n in gain.resources.items():
                    held = cap - n + 1
                    if held < 0:
                        continue
                    state = self.acting(loc.id, {r: held})
                    after = self.home_with(state, loc.id, f"g{j}")
                    got = after.stock[self.resources.index(r)]
                    if got != min(cap, held + n):
                        return f"with {held} {r} in stock {loc.name} brings the stock to {got}"
                    return None
        return None
