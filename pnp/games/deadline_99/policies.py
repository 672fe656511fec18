"""Hand-written policies for Deadline 99 (the shared random policy lives in pnp.engines.base).

Every policy here breaks ties at random with the ``rng`` the play loop injects, never by seat
number or by the order ``legal_actions`` lists the actions in: a tie broken towards the lowest
seat made seat 0 the favourite target of every J and 7 and so look weak (issue 14).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from pnp.engines.base import Rules
from pnp.engines.memo import ByIdentity
from pnp.games.deadline_99.model import Effect, EffectKind, Identity, Role
from pnp.games.deadline_99.rules import Deadline99Rules, Deadline99State, Play

T = TypeVar("T")
K = TypeVar("K")


def pick_best(options: Sequence[T], key: Callable[[T], Any], rng: random.Random) -> T:
    """The option with the least key; among equals, one drawn uniformly with ``rng``."""
    best: list[T] = []
    best_key: Any = None
    for option in options:
        value = key(option)
        if not best or value < best_key:
            best, best_key = [option], value
        elif value == best_key:
            best.append(option)
    return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]


def _plays(rules: Rules[Any, Any], state: Deadline99State) -> tuple[Deadline99Rules, list[Play]]:
    assert isinstance(rules, Deadline99Rules)
    # At a player's decision every legal action is a Play (draws and steals are chance).
    return rules, rules.legal_actions(state)  # type: ignore[return-value]


@dataclass(frozen=True, slots=True)
class _Facts:
    """What a policy reads of a play, worked out once per rules: a policy weighs every
    legal play at every decision, and a search player's playouts make thousands of them."""

    effect: Effect
    rank: int
    """The play's place in SafePolicy's order of preference."""
    kills: bool
    """It puts its player out whatever the count (Death)."""
    adds: int | None
    """What it adds to the count (None when it adds nothing)."""
    safe_key: tuple[int, int, int] | None
    """SafePolicy's key for a play that names nobody (None for one that names a seat)."""

    def busts(self, count: int, cap: int) -> bool:
        """Whether the play puts its player out at this count (``Deadline99Rules.eliminates``)."""
        return self.kills or (self.adds is not None and count + self.adds > cap)


_FACTS: ByIdentity[Deadline99Rules, dict[int, _Facts]] = ByIdentity(limit=8)
"""The rules -> ``id(play)`` -> its facts."""


def _facts_of(d99: Deadline99Rules, action: Play) -> _Facts:
    effect = d99.effect(action.card)
    kind = effect.kind
    adds = kind is EffectKind.ADD or (kind is EffectKind.ADD_OR_SUBTRACT and action.sign > 0)
    rank = SafePolicy._RANK[kind]
    return _Facts(
        effect=effect,
        rank=rank,
        kills=kind is EffectKind.ELIMINATE_SELF,
        adds=effect.amount if adds else None,
        safe_key=(
            (rank, -effect.amount if kind is EffectKind.ADD else 0, -action.sign)
            if action.target is None
            else None
        ),
    )


def _facts(d99: Deadline99Rules) -> Callable[[Play], _Facts]:
    """The facts of a play: looked up by identity for the plays the rules hand out (they are
    interned), worked out afresh for any other."""
    table = _FACTS.get(d99, lambda: {id(a): _facts_of(d99, a) for a in d99.interned_plays()})
    found = table.get

    def facts(action: Play) -> _Facts:
        known = found(id(action))
        return known if known is not None else _facts_of(d99, action)

    return facts


def _is_ally_king(d99: Deadline99Rules, state: Deadline99State, me: Identity, target: int) -> bool:
    """Whether ``target`` is a known king of ``me``'s camp (camp mode)."""
    other = d99.identity(state, target)
    return other is not None and other.role is Role.KING and other.camp is me.camp


class SafePolicy:
    """A sensible player: never busts when a card keeps them in, and keeps the lifesavers.

    Among the plays that keep the player in, in order: the Angel; the number card that adds the
    most; 8, A and J; 10 and Q subtracting (the lower count is the lower risk); 7; K. Targets:
    J and 7 the opponent holding the most cards, A the opponent holding the fewest; in camp mode
    a known king of the player's own camp is never named while another target is left. When
    every card busts, it plays any one. Ties (two opponents holding as many cards, two cards of
    one rank in different suits) are broken at random.
    """

    _RANK: ClassVar[dict[EffectKind, int]] = {
        EffectKind.BONUS_DRAW: 0,
        EffectKind.ADD: 1,
        EffectKind.REVERSE: 2,
        EffectKind.CHOOSE_NEXT: 2,
        EffectKind.STEAL_RANDOM: 2,
        EffectKind.ADD_OR_SUBTRACT: 3,
        EffectKind.SWAP_HANDS: 4,
        EffectKind.SET_TO_CAP: 5,
        EffectKind.ELIMINATE_SELF: 6,
    }

    def choose(self, rules: Rules[Any, Any], state: Deadline99State, rng: random.Random) -> Play:
        d99, actions = _plays(rules, state)
        facts = _facts(d99)
        count, cap = state.count, d99.cap
        seat = state.seat
        me = d99.identity(state, seat)
        hands = state.hands
        # One pass: each play's facts are looked up once, the busting ones skipped, and the
        # least key kept with its ties (as pick_best does, in the same order, so the same rng
        # draw picks the same play). A search player's playouts make this choice millions of
        # times.
        best: list[Play] = []
        best_key: tuple[int, int, int] | None = None
        for action in actions:
            known = facts(action)
            if known.busts(count, cap):
                continue
            key = known.safe_key
            if key is None:
                target = action.target
                assert target is not None
                cards = len(hands[target])
                if known.effect.kind is EffectKind.CHOOSE_NEXT:
                    # A: name the opponent with the fewest cards (never oneself if others exist).
                    order = cards + (1000 if target == seat else 0)
                else:
                    order = -cards
                ally = me is not None and _is_ally_king(d99, state, me, target)
                key = (known.rank, 1 if ally else 0, order)
            if best_key is None or key < best_key:
                best, best_key = [action], key
            elif key == best_key:
                best.append(action)
        if not best:
            return actions[int(rng.random() * len(actions))]
        return best[0] if len(best) == 1 else best[int(rng.random() * len(best))]

    def __repr__(self) -> str:
        return "SafePolicy()"


class PassivePolicy:
    """A passive player: never takes a risk and never harms anyone else.

    It plays whatever leaves the count lowest (10 and Q subtracting first, then 8, then the
    smallest number card), never names another player with J or 7 while any other card keeps
    it in (a J or 7 it must play takes from / swaps with a random player), names itself with
    an A, keeps K for last, and plays Death only when every other card busts. Ties at random.
    Liveness plays it at every table: a table of passive players must still end.
    """

    def choose(self, rules: Rules[Any, Any], state: Deadline99State, rng: random.Random) -> Play:
        d99, actions = _plays(rules, state)
        count, cap = state.count, d99.cap
        seat = state.seat
        facts = _facts(d99)

        def key(action: Play) -> tuple[int, int, int]:
            known = facts(action)
            effect = known.effect
            kind = effect.kind
            if known.busts(count, cap):
                return (3, 0, 0)
            if kind is EffectKind.STEAL_RANDOM or kind is EffectKind.SWAP_HANDS:
                return (2, 0, 0)  # would harm another player: only when nothing else is left
            if kind is EffectKind.SET_TO_CAP:
                return (1, cap - count, 0)
            if kind is EffectKind.CHOOSE_NEXT:
                return (0, 0, 0 if action.target == seat else 1)
            if kind is EffectKind.ADD_OR_SUBTRACT:
                return (0, action.sign * effect.amount, 0)
            if kind is EffectKind.ADD:
                return (0, effect.amount, 0)
            return (0, 0, 0)  # reverse, the Angel

        return pick_best(actions, key, rng)

    def __repr__(self) -> str:
        return "PassivePolicy()"
