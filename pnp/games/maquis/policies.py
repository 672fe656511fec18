"""Hand-written Maquis players: the sensible (greedy) policy, the passive one, and the registry.

Every choice among equally good actions is made at random from the injected ``rng`` (never
by the order of the board's spaces or of the legal actions), so no space or worker is
favoured by where it happens to stand in a list.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Sequence
from operator import sub
from typing import Any, TypeVar

from pnp.engines.base import Policy, RandomPolicy, Rules
from pnp.games.maquis.options import Option
from pnp.games.maquis.paths import spread
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import (
    EMPTY,
    POLICE,
    WORKER,
    Activate,
    Kill,
    MaquisAction,
    MaquisState,
    Place,
    Return,
)
from pnp.games.maquis.state import put as _put

TIE = 1e-9
"""Scores closer than this are a tie, broken at random."""

MEMO_LIMIT = 8192
"""Entries a memo of the policies holds before it starts afresh (memory stays bounded)."""

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


def remember(memo: dict[Key, Value], key: Key, value: Value) -> Value:
    """``value``, kept in ``memo`` under ``key``; a memo grown past :data:`MEMO_LIMIT` is
    emptied first. A memo's values depend on their keys alone, so starting afresh changes what
    is computed again, never what is chosen."""
    if len(memo) > MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


SpaceKey = int
"""A space in the memo of :meth:`GreedyPolicy.best`: its index, or for a space where a
mission step may be done (which steps are open depends on the day) its index and the day
as one number (:func:`_on_day`: a number, unlike a pair, keeps the memo out of the garbage
collector's sight)."""
Best = tuple[float, tuple[str, ...]]
"""The best value a worker on a space can gain, and the keys of the options reaching it."""
_BEST: dict[tuple[Any, ...], dict[SpaceKey, Best]] = {}
"""GreedyPolicy.best by (rules, the parts of the position it depends on but the day), then
by space (and the day, for a space with a mission step)."""
_DISTANCES: dict[tuple[object, tuple[str, ...]], tuple[int, ...]] = {}
"""GreedyPolicy._distances by (rules, vacant-house tiles)."""
_REACH: dict[tuple[object, int, int], tuple[dict[int, int], dict[int, tuple[int, ...]]]] = {}
"""By (rules, figures, safe houses): the spaces with a safe way home, as bits, by the space
one more patrol blocks (-1: none); and the spaces a patrol landing on a space cuts off."""
_RISKS: dict[tuple[Any, ...], tuple[float, ...]] = {}
"""GreedyPolicy.arrest_risks by (rules, board, tiles, patrol pile, patrols to come)."""
Catches = tuple[tuple[float, ...], tuple[tuple[int, ...], ...]]
"""A board's arrest risk of each space before any patrol card is counted (0.97 on an empty
space without a safe way home, else 0), and for each patrol card the empty spaces with a
safe way home it catches a worker put there on (arrests him, or lands where it cuts his way
home), a space once for each way the card does it."""
_CATCHES: dict[tuple[object, str, tuple[str, ...]], Catches] = {}
"""GreedyPolicy._catches by (rules, board, tiles)."""
_RISK_BY_CAUGHT: dict[tuple[int, int], tuple[float, ...]] = {}
"""_risk_by_caught by (cards in the pile, patrols to come)."""


def _risk_by_caught(total: int, patrols: int) -> tuple[float, ...]:
    """The chance a worker is lost this round, by how many of the ``total`` cards in the pile
    catch him, with ``patrols`` draws to come (each taken as independent). A card catches a
    space once at most, so the count never passes ``total``."""
    table = _RISK_BY_CAUGHT.get((total, patrols))
    if table is None:
        table = _RISK_BY_CAUGHT[(total, patrols)] = tuple(
            1 - (1 - min(1.0, caught / total)) ** patrols for caught in range(total + 1)
        )
    return table


_NEEDS: dict[tuple[Any, ...], tuple[float, ...]] = {}
"""GreedyPolicy.needs by (rules, missions, boxes, stock)."""
_STOCK_VALUES: dict[tuple[object, tuple[float, ...], tuple[int, ...]], float] = {}
"""GreedyPolicy.stock_value by (rules, needs, stock)."""


_PILE_COUNTS: dict[tuple[int, ...], tuple[tuple[int, int], ...]] = {}
"""Each card of a patrol pile with its copies there, by pile."""


def _pile_counts(pile: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Each card in ``pile`` with how many copies of it the pile holds (memoised: a round's
    pile is asked about once for every placement of every playout)."""
    counts = _PILE_COUNTS.get(pile)
    if counts is None:
        counts = remember(_PILE_COUNTS, pile, tuple(Counter(pile).items()))
    return counts


_PLANS: dict[MaquisRules, tuple[int, tuple[int, ...], int, int, int]] = {}


def _resource_plan(rules: MaquisRules) -> tuple[int, tuple[int, ...], int, int, int]:
    """Where money, weapons and explosives, medicine, food and information are in the stock
    (-1 for a resource the content lacks), looked up once per rules object."""
    plan = _PLANS.get(rules)
    if plan is None:
        index = rules.res_index
        if "money" in index and "medicine" not in index:
            # GreedyPolicy.stock_value reads medicine's shortage whenever money exists.
            raise KeyError("medicine")
        arms = tuple(index[r] for r in ("weapons", "explosives") if r in index)
        plan = (
            index.get("money", -1),
            arms,
            index.get("medicine", -1),
            index.get("food", -1),
            index.get("information", -1),
        )
        _PLANS[rules] = plan
    return plan


_NOTHING: tuple[float, tuple[str, ...]] = (0.0, ("-",))
"""The best a worker can gain where he has no option: nothing."""

_SHIELDS: dict[MaquisRules, tuple[bool, ...]] = {}


def _shields(rules: MaquisRules) -> tuple[bool, ...]:
    """Whether each space has a star shield (a reward there is kept even when arrested),
    looked up once per rules object."""
    shields = _SHIELDS.get(rules)
    if shields is None:
        shields = _SHIELDS[rules] = tuple(loc.shield for loc in rules.locs)
    return shields


def _spaces_of(bits: int) -> tuple[int, ...]:
    """The spaces whose bits are set, lowest first."""
    spaces = []
    while bits:
        low = bits & -bits
        spaces.append(low.bit_length() - 1)
        bits ^= low
    return tuple(spaces)


def _on_day(rules: MaquisRules, i: int, day: int) -> int:
    """Space ``i`` on ``day`` as one number, apart from every space's own index."""
    return len(rules.locs) * (day + 1) + i


Shared = TypeVar("Shared", bound=tuple[Any, ...])

# The tuples the policy keeps in its memos, each kind in its own table: an equal tuple of
# another kind may hold other types (0 == 0.0), which an index must not receive.
_BESTS: dict[Best, Best] = {}
"""Best values with the keys of the options reaching them."""
_SPACES: dict[tuple[int, ...], tuple[int, ...]] = {}
"""Spaces a patrol card catches, and places in a list of the best placements."""
_UNCAUGHT: dict[tuple[float, ...], tuple[float, ...]] = {}
"""A board's risks before the patrol cards are counted."""


def _shared(table: dict[Shared, Shared], found: Shared) -> Shared:
    """``found``, or the equal tuple of ``table`` made before it: most of them recur in many
    positions, and a memo entry holding an old tuple (which the garbage collector has seen
    to hold no containers) stays out of its sight, where a new one keeps every memo of a
    position's values in each of its full collections."""
    shared = table.get(found)
    return remember(table, found, found) if shared is None else shared


def pick(rng: random.Random, choices: Sequence[Any]) -> Any:
    """One of ``choices`` drawn from ``rng`` (the first without a draw when there is one)."""
    return choices[0] if len(choices) == 1 else choices[int(rng.random() * len(choices))]


def best_of(scored: Sequence[tuple[float, Any]], rng: random.Random) -> Any:
    """The item with the highest score, a tie broken at random from ``rng``."""
    top = max(score for score, _ in scored)
    return pick(rng, [item for score, item in scored if score >= top - TIE])


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
        # What these memos hold is a pure function of their keys (the rules object and parts
        # of a position), so every instance shares them: a game's policies start warm.
        self._cache = _BEST
        self._distance_cache = _DISTANCES
        self._reach_cache = _REACH
        # The best placements of a position, kept by this player alone: they also depend on
        # the methods that value a space, which a subclass or a test may replace.
        # (The best placements as their places in the list of placements, which the key
        # fixes: numbers, which the garbage collector need not follow.)
        self._placement_memo: dict[tuple[Any, ...], tuple[int, ...]] = {}
        self._last_at: tuple[tuple[Any, ...], dict[SpaceKey, Best]] = ((), {})

    def _distances(self, rules: MaquisRules, s: MaquisState) -> list[int]:
        """Hops from every space to the nearest safe house, ignoring figures (so they depend
        on the vacant-house tiles alone: memoised on them)."""
        key = (rules.memo_key, s.tiles)
        dist = self._distance_cache.get(key)
        if dist is None:
            dist = remember(self._distance_cache, key, tuple(self._find_distances(rules, s)))
        return list(dist)

    def _find_distances(self, rules: MaquisRules, s: MaquisState) -> list[int]:
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
        key = (rules.memo_key, s.board, s.tiles, pile, s.patrols_left)
        risks = _RISKS.get(key)
        if risks is None:
            risks = remember(_RISKS, key, tuple(self._arrest_risks(rules, s, pile)))
        return list(risks)

    def _arrest_risks(
        self, rules: MaquisRules, s: MaquisState, pile: tuple[int, ...]
    ) -> list[float]:
        uncaught, catches = self._catches(rules, s.board, s.tiles)
        # Each card counts its copies in the pile against the spaces it catches a worker on
        # (whole numbers: the order they are summed in is no matter). A space no card
        # catches keeps the board's risk (none caught is no risk: _risk_by_caught's 0.0).
        caught: dict[int, int] = {}
        for c, m in _pile_counts(pile):
            for x in catches[c]:
                caught[x] = caught.get(x, 0) + m
        risks = list(uncaught)
        if caught:
            by_caught = _risk_by_caught(len(pile) or 1, s.patrols_left)
            for x, count in caught.items():
                risks[x] = by_caught[count]
        return risks

    def _catches(self, rules: MaquisRules, board: str, tiles: tuple[str, ...]) -> Catches:
        """What each patrol card would do to a worker put on an empty space of ``board`` now
        (memoised on the board and the tiles: the same for every pile and patrol count)."""
        key = (rules.memo_key, board, tiles)
        found = _CATCHES.get(key)
        if found is None:
            found = remember(_CATCHES, key, self._find_catches(rules, board, tiles))
        return found

    def _find_catches(self, rules: MaquisRules, board: str, tiles: tuple[str, ...]) -> Catches:
        safe = rules.safe_houses(tiles)
        # Spaces as bits: who is reached from a safe house is one bitmask per blocked space.
        adjacent = rules.adjacent_bits
        figures = rules.patrol_bits(board)
        houses = rules._safe_bits_of(tiles)
        memo = self._reach_cache
        found = memo.get((rules.memo_key, figures, houses))
        if found is None:
            found = remember(memo, (rules.memo_key, figures, houses), ({}, {}))
        reached, cuts = found

        def reach(blocked: int) -> int:
            """The spaces with a safe way home (as bits) with a patrol on ``blocked``."""
            seen = reached.get(blocked)
            if seen is None:
                closed = figures | (1 << blocked if blocked >= 0 else 0)
                seen = reached[blocked] = spread(houses, adjacent, closed)
            return seen

        base = reach(-1)
        catches: list[tuple[int, ...]] = []
        for locs in rules.card_locs:
            caught: list[int] = []
            open_spaces = [x for x in locs if board[x] == EMPTY and x not in safe]
            if open_spaces:
                # The card lands on the first empty space it names (no safe house), i.
                i = open_spaces[0]
                # A worker on i sends it on to the next empty space it names, or is arrested
                # when it names no other empty space and him before any other worker.
                if base >> i & 1:
                    spot = -1
                    for x in open_spaces:
                        if x != i:
                            spot = x
                            break
                    if spot < 0:
                        hit = next(x for x in locs if x == i or board[x] == WORKER) == i
                    else:
                        hit = not reach(spot) >> i & 1
                    if hit:
                        caught.append(i)
                # Landing on i, it cuts every way home from the spaces reach(-1) has and
                # reach(i) lacks (i itself aside).
                cut_off = cuts.get(i)
                if cut_off is None:
                    cut_off = cuts[i] = _spaces_of(base & ~reach(i) & ~(1 << i))
                # (Of them, the empty ones: nobody is put on a worker.)
                caught.extend(x for x in cut_off if board[x] == EMPTY)
            else:
                # No empty space but safe houses: a worker on one of those it names is
                # arrested when the card names him before any other worker.
                for i in {x for x in locs if board[x] == EMPTY}:
                    if base >> i & 1 and next(x for x in locs if x == i or board[x] == WORKER) == i:
                        caught.append(i)
            catches.append(_shared(_SPACES, tuple(caught)))
        uncaught = tuple(
            0.97 if c == EMPTY and not base >> i & 1 else 0.0 for i, c in enumerate(board)
        )
        return _shared(_UNCAUGHT, uncaught), tuple(catches)

    def needs(self, rules: MaquisRules, s: MaquisState) -> list[float]:
        """What the open mission boxes still ask of each resource (memoised on the missions,
        their boxes and the stock: a fresh list, which the caller may change)."""
        return list(self._need_of(rules, s))

    def _need_of(self, rules: MaquisRules, s: MaquisState) -> tuple[float, ...]:
        """:meth:`needs` as the memo holds them (shared: never to be changed)."""
        key = (rules.memo_key, s.missions, s.boxes, s.stock)
        need = _NEEDS.get(key)
        if need is None:
            need = remember(_NEEDS, key, tuple(self._needs(rules, s)))
        return need

    @staticmethod
    def _needs(rules: MaquisRules, s: MaquisState) -> list[float]:
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

    def stock_value(self, rules: MaquisRules, need: Sequence[float], stock: Sequence[int]) -> float:
        """Direct mission needs are worth most; money and food as the way to what is short."""
        key = (rules.memo_key, tuple(need), tuple(stock))
        value = _STOCK_VALUES.get(key)
        if value is None:
            value = remember(_STOCK_VALUES, key, self._stock_value(rules, need, stock))
        return value

    @staticmethod
    def _stock_value(rules: MaquisRules, need: Sequence[float], stock: Sequence[int]) -> float:
        short = [max(0.0, n - h) for n, h in zip(need, stock, strict=True)]
        derived = [0.0] * len(stock)
        money, arms, medicine, food, information = _resource_plan(rules)
        if money >= 0:
            # Summed from 0.0: typeshed types a sum of floats from 0 as float | Literal[0],
            # which mypyc unboxes as an int ('int object expected; got float').
            arms_short = sum((short[k] for k in arms), 0.0)
            derived[money] = 2 * arms_short + short[medicine] / 2 * (medicine >= 0)
        if food >= 0 and information >= 0:
            derived[food] = short[information] / 2
        value = 0.0
        for h, n, d in zip(stock, need, derived, strict=True):
            direct = min(h, n)
            via = min(h - direct, d)
            value += 12 * direct + 5 * via + 0.5 * max(0.0, h - direct - via)
        return value

    def option_value(
        self,
        rules: MaquisRules,
        s: MaquisState,
        o: Option,
        need: Sequence[float],
        before: float | None = None,
        supply: list[int] | None = None,
    ) -> float:
        """What doing ``o`` is worth; ``before`` (the stock's value for ``need``) and
        ``supply`` may be given when the caller weighs several options of one position.
        ``need`` is left as it was."""
        # The stock once paid (an option's cost is its pay as a vector).
        gained = list(map(sub, s.stock, o.cost)) if o.cost else list(s.stock)
        if before is None:
            before = self.stock_value(rules, need, s.stock)
        if supply is None:
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
            value += 20 if rules.tiles[o.build].safe_house else 8 + self.tile_use(rules, s, o, need)
        if o.mission is not None:
            slot, _ = o.mission
            value += 60
            if sum(1 for b in s.boxes[slot] if not b) == 1:
                value += 60
            # What this step pays is no longer needed.
            need = [n - paid for n, paid in zip(need, o.cost, strict=True)] if o.cost else need
        value += self.stock_value(rules, need, gained) - before
        if o.airdrop is not None:
            value *= 0.8
            # Of two empty zones, the one with more ways home (a zone at the end of one line
            # is cut off by a single patrol), then the nearer to a safe house.
            zone = rules.zones[o.zone]
            value += 0.01 * len(rules.adjacent[zone]) - 0.001 * self._distances(rules, s)[zone]
        return value

    @staticmethod
    def tile_use(rules: MaquisRules, s: MaquisState, o: Option, need: Sequence[float]) -> float:
        """What the action of the tile ``o`` lays is worth for the rounds to come: each
        resource still short for the missions it yields, and morale when it is low."""
        action = rules.tiles[o.build].action
        if action is None:
            return 0.0
        worth = 0.0
        for reward in action.gain:
            for r in reward.resources:
                k = rules.res_index[r]
                worth += 6.0 * (need[k] > s.stock[k])
            worth += 4.0 * (reward.morale > 0 and s.morale <= 5)
        return worth

    def best(
        self,
        rules: MaquisRules,
        s: MaquisState,
        i: int,
        need: Sequence[float],
        at: dict[SpaceKey, Best] | None = None,
    ) -> Best:
        """The best value a worker on space ``i`` can gain and every option key reaching it
        (``-``, doing nothing, when no option gains anything). ``at``: the position's memo
        (:meth:`_best_at`), when the caller asks for several spaces and has it already."""
        if at is None:
            at = self._best_at(rules, s)
        key = _on_day(rules, i, s.day) if i in rules._options_at(s)[1] else i
        cached = at.get(key)
        if cached is None:
            cached = at[key] = self._best(rules, s, i, need)
        return cached

    def _best_of_spaces(
        self, rules: MaquisRules, s: MaquisState, spaces: Sequence[int]
    ) -> tuple[list[Best], Sequence[float]]:
        """:meth:`best` for each of ``spaces``, and the needs (empty when the position's memo
        knew every space: only an unknown space reads them). The needs, the stock's value
        and the supply are the same for every space of a position, so they are found once
        for all the spaces the memo lacks, not once a space."""
        at = self._best_at(rules, s)
        steps, day = rules._options_at(s)[1], s.day
        bests: list[Best] = []
        need: Sequence[float] = ()
        before = 0.0
        supply: list[int] = []
        for i in spaces:
            key: SpaceKey = _on_day(rules, i, day) if i in steps else i
            best = at.get(key)
            if best is None:
                if not supply:  # the first space the memo lacks
                    need = self._need_of(rules, s)
                    before = self.stock_value(rules, need, s.stock)
                    supply = rules.supply(s)
                best = at[key] = self._best(rules, s, i, need, before, supply)
            bests.append(best)
        return bests, need

    def _best_at(self, rules: MaquisRules, s: MaquisState) -> dict[SpaceKey, Best]:
        """The memo of :meth:`best` for every space of this position's context."""
        # Between two placements only the board changes, and options do not depend on it;
        # nor on the day, but for the mission steps open (the day is in their spaces' keys).
        key = (rules.memo_key, s.stock, s.morale, s.missions, s.boxes, s.cafe, s.drops, s.tiles)
        # The context asked about last first: the next position mostly shares it, and
        # comparing a tuple of the same objects costs no hashing.
        if key == self._last_at[0]:
            return self._last_at[1]
        at = self._cache.get(key)
        if at is None:
            at = remember(self._cache, key, {})
        self._last_at = (key, at)
        return at

    def _best(
        self,
        rules: MaquisRules,
        s: MaquisState,
        i: int,
        need: Sequence[float],
        before: float | None = None,
        supply: list[int] | None = None,
    ) -> tuple[float, tuple[str, ...]]:
        options = rules.options(s, i)
        if not options:
            return _NOTHING
        best_value, best_keys = 0.0, ["-"]
        if before is None:
            before = self.stock_value(rules, need, s.stock)
        if supply is None:
            supply = rules.supply(s)
        for o in options:
            v = self.option_value(rules, s, o, need, before, supply)
            if v > best_value + TIE:
                best_value, best_keys = v, [o.key]
            elif v >= best_value - TIE and best_value > 0:
                best_keys.append(o.key)
        return _shared(_BESTS, (best_value, tuple(best_keys)))

    def _best_placements(
        self,
        rules: MaquisRules,
        s: MaquisState,
        spaces: Sequence[int],
    ) -> tuple[int, ...]:
        """Where in ``spaces`` (empty spaces a worker may be put on) the placements worth most
        are (a tie: all of them), each space's best option weighed against the risk of arrest
        there."""
        dist = self._distances(rules, s)
        risks = self.arrest_risks(rules, s)
        lose = self.LOSE_WORKER - 8.0 * rules.level.arrest_morale * (1 + (s.morale <= 3))
        bests, _ = self._best_of_spaces(rules, s, spaces)
        shields = _shields(rules)
        # What a worker keeps there (all of it on a star shield, else only if not arrested),
        # less the risk of losing him and a hair for the walk home.
        scores = [
            (value if shields[i] else value * (1 - risks[i])) - risks[i] * lose - 0.01 * dist[i]
            for i, (value, _) in zip(spaces, bests, strict=True)
        ]
        top = max(scores)
        return tuple(k for k, score in enumerate(scores) if score >= top - TIE)

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> MaquisAction:
        assert isinstance(rules, MaquisRules) and isinstance(state, MaquisState)
        s = state
        if s.phase == "place":
            # Where legal_actions would place (the rules' memo of this position).
            spaces = rules._placeable(s)
            if not spaces:
                return rules.legal_actions(s)[0]  # Stay: no empty space is left
            # A playout meets the same placement again and again (the same round from other
            # hidden cards): what the placements are worth depends on the key alone.
            pile = s.draw or s.discard
            key = (
                rules.memo_key,
                s.stock,
                s.morale,
                s.missions,
                s.boxes,
                s.cafe,
                s.drops,
                s.tiles,
                s.day,
                s.board,
                pile,
                s.patrols_left,
            )
            tops = self._placement_memo.get(key)
            if tops is None:
                tops = _shared(_SPACES, self._best_placements(rules, s, spaces))
                remember(self._placement_memo, key, tops)
            chosen: MaquisAction = rules._place_of[spaces[pick(rng, tops)]]
            return chosen
        # Action phase. The legal actions are listed only where the choice reads them: listing
        # every worker's options costs a tenth of a strong game's playouts.
        if s.active >= 0:
            if not rules.has_path_home(s, s.active) and s.morale > 1 - rules.s.kill_morale:
                opening = [
                    kill
                    for kill in rules.legal_actions(s)
                    if isinstance(kill, Kill)
                    and rules.has_path_home(
                        s, s.active, _put(s.board, rules.index[kill.loc], EMPTY)
                    )
                ]
                if opening:
                    killed: MaquisAction = pick(rng, opening)
                    return killed
            return Return()
        activations: list[tuple[float, Activate]] = []
        board = s.board
        workers = []
        i = board.find(WORKER)
        while i >= 0:
            workers.append(i)
            i = board.find(WORKER, i + 1)
        bests, need = self._best_of_spaces(rules, s, workers)
        # What rules a rescue out for every worker at once, asked once (_rescue asks again).
        may_rescue = not (
            s.killed
            or s.morale <= 1 - rules.s.kill_morale
            or rules._affords(s.stock, rules.kill_cost)
        )
        # A worker next to a space with a way home has one (has_path_home, read once for
        # all the workers): he needs no rescue, and _rescue need not be asked.
        reach, safe = rules._reach(board, s.tiles) if may_rescue else (0, 0)
        adjacent = rules.adjacent_bits
        for i, (value, keys) in zip(workers, bests, strict=True):
            activations += [(value, rules._activation(i, key)) for key in keys]
            if may_rescue and (safe >> i & 1 or not adjacent[i] & reach):
                rescue = self._rescue(rules, s, i, need)
                if rescue is not None:
                    activations.append(rescue)
        if not activations:
            return rules.legal_actions(s)[0]
        activation: MaquisAction = best_of(activations, rng)
        return activation

    def _rescue(
        self, rules: MaquisRules, s: MaquisState, i: int, need: Sequence[float]
    ) -> tuple[float, Activate] | None:
        """The worker on ``i`` is cut off from home, the stock cannot pay for a kill, but an
        option there puts what a kill costs in his hand: take it, and shoot the policeman in
        the way on the walk home (the post lets a weapon gained this round kill at once). Its
        value counts the worker saved; None when no such rescue exists."""
        if (
            s.killed
            or s.morale <= 1 - rules.s.kill_morale
            or rules.has_path_home(s, i)
            or rules._affords(s.stock, rules.kill_cost)
        ):
            return None
        police = [j for j, c in enumerate(s.board) if c == POLICE]
        if not any(rules.has_path_home(s, i, _put(s.board, j, EMPTY)) for j in police):
            return None
        need = need or self.needs(rules, s)  # (the caller may have had no need for them)
        supply = rules.supply(s)
        best: tuple[float, Activate] | None = None
        for o in rules.options(s, i):
            hand = list(s.stock)
            for k, n in enumerate(o.cost):
                hand[k] -= n
            if o.reward is not None:
                for r, n in o.reward.resources.items():
                    k = rules.res_index[r]
                    hand[k] += min(n, supply[k])
            if o.collect >= 0:
                hand = [a + b for a, b in zip(hand, s.drops[o.collect], strict=True)]
            if not rules._affords(hand, rules.kill_cost):
                continue
            value = self.option_value(rules, s, o, need) + self.LOSE_WORKER
            if best is None or value > best[0]:
                best = (value, rules._activation(i, o.key))
        return best

    def __repr__(self) -> str:
        return "GreedyPolicy()"


class PassivePolicy(GreedyPolicy):
    """A player who never takes a risk: never kills a policeman, and puts each worker where
    he is least likely to be arrested (a tie at random), whatever the space offers; in the
    action phase he still does the best thing each worker can do there. Liveness plays it to
    show a game ends even when nobody fights."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> MaquisAction:
        assert isinstance(rules, MaquisRules) and isinstance(state, MaquisState)
        s = state
        actions = [a for a in rules.legal_actions(s) if not isinstance(a, Kill)]
        if s.phase == "place":
            places = [a for a in actions if isinstance(a, Place)]
            if not places:
                return actions[0]  # Stay: no empty space is left
            risks = self.arrest_risks(rules, s)
            safest: MaquisAction = best_of([(-risks[rules.index[a.loc]], a) for a in places], rng)
            return safest
        if s.active >= 0:
            return Return()
        return super().choose(rules, s, rng)

    def __repr__(self) -> str:
        return "PassivePolicy()"


POLICIES: dict[str, type[Policy]] = {
    "random": RandomPolicy,
    "sensible": GreedyPolicy,
    "passive": PassivePolicy,
}
