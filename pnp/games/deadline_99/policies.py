"""Hand-written policies for Deadline 99 (the shared random policy lives in pnp.engines.base)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from pnp.engines.base import Rules
from pnp.games.deadline_99.model import EffectKind, Role
from pnp.games.deadline_99.rules import Deadline99Rules, Deadline99State, Play


class SafePolicy:
    """A sensible player: never busts when a card keeps them in, and keeps the lifesavers.

    Among the plays that keep the player in, in order: the Angel; the number card that adds the
    most; 8, A and J; 10 and Q subtracting (the lower count is the lower risk); 7; K. Targets:
    J and 7 the opponent holding the most cards, A the opponent holding the fewest; in camp mode
    a known king of the player's own camp is never named while another target is left. When
    every card busts, it plays the first one.
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
        assert isinstance(rules, Deadline99Rules)
        actions = [a for a in rules.legal_actions(state) if isinstance(a, Play)]
        safe = [a for a in actions if not rules.eliminates(state, a)]
        if not safe:
            return actions[0]
        seat = state.seat
        me = rules.identity(state, seat)

        def ally_king(target: int) -> bool:
            other = rules.identity(state, target)
            return (
                me is not None
                and other is not None
                and other.role is Role.KING
                and other.camp is me.camp
            )

        def key(action: Play) -> tuple[int, int, int, int]:
            effect = rules.effect(action.card)
            amount = -effect.amount if effect.kind is EffectKind.ADD else 0
            target = action.target
            if target is None:
                return (self._RANK[effect.kind], amount, -action.sign, 0)
            cards = len(state.hands[target])
            if effect.kind is EffectKind.CHOOSE_NEXT:
                # A: name the opponent with the fewest cards (never oneself if others exist).
                order = cards + (1000 if target == seat else 0)
            else:
                order = -cards
            return (self._RANK[effect.kind], 1 if ally_king(target) else 0, order, target)

        return min(safe, key=key)

    def __repr__(self) -> str:
        return "SafePolicy()"
