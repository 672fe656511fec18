"""A strong generic player: information-set Monte Carlo tree search over the shared protocol.

Balance figures measured with one hand-written policy describe the policy, not the game, so
pnp measures with a player that searches. This is single-observer ISMCTS (Cowling, Powley
and Whitehouse, 2012), the algorithm of OpenSpiel's ``ismcts`` and of Ludii's general agents:

- every iteration first *determinises*: it asks the engine for a state the searching player
  cannot tell from the real one (``rules.resample(state, seat, rng)``: hidden hands, face-down
  cards redrawn consistently with what the seat has seen), so the search never peeks;
- the tree is keyed by the sequence of decisions from the root; chance steps are sampled, not
  branched; a node's children are the actions legal in the current determinisation, chosen by
  UCB1 with *availability* counts (an action is only compared over the iterations in which it
  was legal);
- below the tree a rollout plays on with a cheap policy (the game's sensible policy, or random)
  up to a depth, where the game's optional evaluation hint, or the finished game's outcome
  (winners share 1; a game may score finished games itself, e.g. a solo draw as one half),
  scores every seat; each node keeps the mean score of the seat that chose there.

Everything random goes through the ``rng`` the play loop passes in and the iteration count is
fixed, so the same seed plays the same game. No per-game code is needed beyond what the
protocol already asks (``resample``) and an optional ``evaluate`` hint.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pnp.engines.base import Policy, RandomPolicy, Rules

Evaluation = Callable[[Rules[Any, Any], Any], Sequence[float]]
"""A hint: each seat's expected score (0..1) in a position that is not over."""


def terminal_scores(rules: Rules[Any, Any], state: Any) -> list[float]:
    """Each seat's score in a finished game: winners share 1, everyone else 0."""
    winners = rules.outcome(state).winners
    share = 1.0 / len(winners) if winners else 0.0
    return [share if seat in winners else 0.0 for seat in range(rules.num_players)]


def determinise(rules: Rules[Any, Any], state: Any, seat: int, rng: random.Random) -> Any:
    """A state ``seat`` cannot tell from ``state``: the engine's ``resample`` when it has one
    (a game without hidden information needs none, and gets the state itself)."""
    resample = getattr(rules, "resample", None)
    return state if resample is None else resample(state, seat, rng)


@dataclass(eq=False)
class _Node:
    visits: int = 0
    score: float = 0.0
    """Sum of the scores of the seat that chose the action leading here."""
    available: int = 0
    """Iterations in which the action leading here was legal (availability count)."""
    children: dict[Hashable, _Node] = field(default_factory=dict)


class SearchPolicy:
    """Choose by ISMCTS: ``iterations`` determinised playouts per decision."""

    def __init__(
        self,
        *,
        iterations: int = 200,
        exploration: float = 0.7,
        rollout: Policy | None = None,
        rollout_depth: int | None = None,
        evaluate: Evaluation | None = None,
        score: Evaluation | None = None,
        rollout_limit: int = 5_000,
        name: str = "strong",
    ) -> None:
        self.iterations = iterations
        self.exploration = exploration
        self.rollout = rollout if rollout is not None else RandomPolicy()
        self.rollout_depth = rollout_depth
        self.evaluate = evaluate
        self.score = score
        self.rollout_limit = rollout_limit
        """Steps after which a playout stops even without a depth: a position the game can
        never leave must not hang the search (liveness reports it; search just moves on)."""
        self.name = name

    def __repr__(self) -> str:
        return (
            f"SearchPolicy(iterations={self.iterations}, rollout={self.rollout!r}, "
            f"depth={self.rollout_depth})"
        )

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        legal = rules.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        seat = rules.current_player(state)
        assert seat is not None, "search asked to choose at a chance step"
        root = _Node()
        for _ in range(self.iterations):
            self._iterate(rules, determinise(rules, state, seat, rng), root, rng)
        # The most visited action legal in the real position (the robust child).
        best_visits = -1
        choices: list[Any] = []
        for action in legal:
            child = root.children.get(action)
            visits = child.visits if child is not None else 0
            if visits > best_visits:
                best_visits, choices = visits, [action]
            elif visits == best_visits:
                choices.append(action)
        return choices[0] if len(choices) == 1 else choices[int(rng.random() * len(choices))]

    # -- one iteration ------------------------------------------------------------------------

    def _iterate(self, rules: Rules[Any, Any], state: Any, root: _Node, rng: random.Random) -> None:
        node = root
        path: list[tuple[_Node, int]] = []
        expanded = False
        while not expanded and not rules.is_terminal(state):
            if rules.is_chance(state):
                state = rules.apply(state, rules.sample_chance(state, rng))
                continue
            mover = rules.current_player(state)
            assert mover is not None
            actions = rules.legal_actions(state)
            for action in actions:
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node()
                child.available += 1
            untried = [action for action in actions if node.children[action].visits == 0]
            if untried:
                action = untried[int(rng.random() * len(untried))]
                expanded = True
            else:
                action = self._select(node, actions, rng)
            node = node.children[action]
            path.append((node, mover))
            state = rules.apply(state, action)
        scores = self._playout(rules, state, rng)
        for visited, mover in path:
            visited.visits += 1
            visited.score += scores[mover]

    def _select(self, node: _Node, actions: Sequence[Any], rng: random.Random) -> Any:
        best = -math.inf
        choices: list[Any] = []
        for action in actions:
            child = node.children[action]
            value = child.score / child.visits + self.exploration * math.sqrt(
                math.log(max(child.available, 1)) / child.visits
            )
            if value > best:
                best, choices = value, [action]
            elif value == best:
                choices.append(action)
        return choices[0] if len(choices) == 1 else choices[int(rng.random() * len(choices))]

    def _playout(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> list[float]:
        steps = applied = 0
        while not rules.is_terminal(state) and applied < self.rollout_limit:
            if self.rollout_depth is not None and steps >= self.rollout_depth:
                if self.evaluate is not None:
                    return [float(v) for v in self.evaluate(rules, state)]
                break
            if rules.is_chance(state):
                action = rules.sample_chance(state, rng)
            else:
                action = self.rollout.choose(rules, state, rng)
                steps += 1
            state = rules.apply(state, action)
            applied += 1
        if rules.is_terminal(state):
            scorer = self.score if self.score is not None else terminal_scores
            return [float(v) for v in scorer(rules, state)]
        # Cut off with no hint: every seat alike, so the cut-off says nothing either way.
        return [1.0 / rules.num_players] * rules.num_players
