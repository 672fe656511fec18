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
from collections.abc import Callable, Hashable, Mapping, Sequence
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


def playout(
    rules: Rules[Any, Any],
    state: Any,
    rng: random.Random,
    policy: Policy,
    depth: int | None,
    evaluate: Evaluation | None,
    score: Evaluation | None,
    limit: int,
) -> list[float]:
    """Each seat's score after ``policy`` plays on from ``state``: at the end of the game, or
    after ``depth`` decisions by the ``evaluate`` hint. ``limit`` steps stop a playout in a
    position the game can never leave (liveness reports it; search just moves on)."""
    steps = applied = 0
    while not rules.is_terminal(state) and applied < limit:
        if depth is not None and steps >= depth:
            if evaluate is not None:
                return [float(v) for v in evaluate(rules, state)]
            break
        if rules.is_chance(state):
            action = rules.sample_chance(state, rng)
        else:
            action = policy.choose(rules, state, rng)
            steps += 1
        state = rules.apply(state, action)
        applied += 1
    if rules.is_terminal(state):
        scorer = score if score is not None else terminal_scores
        return [float(v) for v in scorer(rules, state)]
    # Cut off with no hint: every seat alike, so the cut-off says nothing either way.
    return [1.0 / rules.num_players] * rules.num_players


@dataclass(eq=False)
class _Node:
    visits: int = 0
    score: float = 0.0
    """Sum of the scores of the seat that chose the action leading here."""
    available: int = 0
    """Iterations in which the action leading here was legal (availability count)."""
    children: dict[Hashable, _Node] = field(default_factory=dict)


class _Playouts:
    """What both search players share: how many playouts a decision, the policy that plays on
    below the search, how far, and how a stopped playout is scored."""

    def __init__(
        self,
        *,
        iterations: int,
        rollout: Policy | None,
        rollout_depth: int | None,
        evaluate: Evaluation | None,
        score: Evaluation | None,
        rollout_limit: int,
        name: str,
    ) -> None:
        self.iterations = iterations
        self.rollout = rollout if rollout is not None else RandomPolicy()
        self.rollout_depth = rollout_depth
        self.evaluate = evaluate
        self.score = score
        self.rollout_limit = rollout_limit
        """Steps after which a playout stops even without a depth: a position the game can
        never leave must not hang the search (liveness reports it; search just moves on)."""
        self.name = name

    def _playout(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> list[float]:
        return playout(
            rules,
            state,
            rng,
            self.rollout,
            self.rollout_depth,
            self.evaluate,
            self.score,
            self.rollout_limit,
        )


class SearchPolicy(_Playouts):
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
        super().__init__(
            iterations=iterations,
            rollout=rollout,
            rollout_depth=rollout_depth,
            evaluate=evaluate,
            score=score,
            rollout_limit=rollout_limit,
            name=name,
        )
        self.exploration = exploration

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


class HalvingSearchPolicy(_Playouts):
    """Choose by determinised Monte Carlo search with sequential halving at the root, anchored on
    the rollout policy: the strong player for games where a small tree search loses to its own
    rollout policy because each action gets a handful of noisy samples.

    It is policy improvement by rollouts (Tesauro and Galperin, 1996; Bertsekas' rollout
    algorithm): "take this action, then play on with the base policy", estimated for each root
    action, improves on the base policy when the estimates are sound. Three things make them sound
    at a budget of a few dozen playouts:

    - *common random numbers*: in each round every surviving action is played from the same
      determinisations with the same playout seeds, so two actions are compared on the same
      hidden cards and the same luck, and their difference has a fraction of the variance;
    - *sequential halving* (Karnin, Koren and Somekh, 2013, as in Gumbel MuZero's root search):
      the budget is split into rounds; after each, the worse half of the actions is dropped, so
      the close contenders get most of the playouts;
    - the *anchor*: the base policy's own choice always survives, and is replaced only by an
      action whose paired advantage over it is larger than ``margin`` standard errors. Noise
      alone therefore never makes the strong player worse than the policy it improves.

    Same seed, same game: everything random is drawn from the ``rng`` passed in.
    """

    def __init__(
        self,
        *,
        iterations: int = 64,
        rollout: Policy | None = None,
        rollout_depth: int | None = None,
        evaluate: Evaluation | None = None,
        score: Evaluation | None = None,
        candidates: int = 8,
        margin: float = 1.0,
        stop_early: bool = True,
        look_early: bool = False,
        iterations_at: Mapping[int, int] | None = None,
        rollout_limit: int = 5_000,
        name: str = "strong",
    ) -> None:
        super().__init__(
            iterations=iterations,
            rollout=rollout,
            rollout_depth=rollout_depth,
            evaluate=evaluate,
            score=score,
            rollout_limit=rollout_limit,
            name=name,
        )
        self.candidates = candidates
        """Root actions considered at most: the anchor and a random sample of the others."""
        self.iterations_at = dict(iterations_at or {})
        """Playouts a decision at these player counts, instead of ``iterations``: a table
        where a decision costs more (more seats to play out) or moves the result less may
        need another budget to stay cheap or strong."""
        self.margin = margin
        self.stop_early = stop_early
        self.look_early = look_early
        """Whether a choice between two actions also looks after :data:`FUTILE_AFTER` shared
        playouts (their budget is otherwise one round, which the early stop never sees)."""
        """Whether a decision stops once no challenger has gained on the anchor after
        :data:`FUTILE_AFTER` shared playouts (most decisions: the base policy's move stands)."""

    def __repr__(self) -> str:
        return (
            f"HalvingSearchPolicy(iterations={self.iterations}, rollout={self.rollout!r}, "
            f"depth={self.rollout_depth}, candidates={self.candidates})"
        )

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        legal = rules.legal_actions(state)
        if len(legal) == 1:
            return legal[0]
        seat = rules.current_player(state)
        assert seat is not None, "search asked to choose at a chance step"
        anchor = self.rollout.choose(rules, state, rng)
        others = [action for action in legal if action != anchor]
        budget = self.iterations_at.get(rules.num_players, self.iterations)
        # A small budget compares fewer actions: every action needs a playout to be compared.
        wanted = max(2, min(self.candidates, budget)) - 1
        if len(others) > wanted:
            others = rng.sample(others, wanted)
        alive = [anchor, *others]
        schedule = self._schedule(len(alive), budget)
        if self._anchor_is_certain(len(alive), schedule):
            # The playouts would not change the choice; their seeds are still drawn, so the
            # games that follow are the same.
            for _ in range(sum(schedule)):
                rng.getrandbits(64)
            return anchor
        # samples[action][j]: the seat's score after ``action`` in the j-th shared playout.
        samples: dict[Any, dict[int, float]] = {action: {} for action in alive}
        played = 0
        for round_index, per_action in enumerate(schedule):
            for _ in range(per_action):
                world, seed = self._world(rules, state, seat, rng.getrandbits(64))
                for action in alive:
                    samples[action][played] = self._sample(rules, world, seat, action, seed)
                played += 1
            if self.stop_early and played >= FUTILE_AFTER and round_index < len(schedule) - 1:
                gains = {action: _gains(samples[action], samples[anchor]) for action in alive[1:]}
                if all(_mean_of(gain) <= 0.0 for gain in gains.values()):
                    # No challenger has gained on the anchor over the playouts they shared:
                    # the paired test could only keep the anchor, so the rest of the budget
                    # would buy nothing (the decision is decided).
                    return anchor
            if len(alive) > 2:
                ranked = sorted(alive[1:], key=lambda action: -_mean(samples[action]))
                alive = [anchor, *ranked[: _survivors(len(alive)) - 1]]
        best = max(alive, key=lambda action: _mean(samples[action]))
        if best == anchor:
            return anchor
        return best if _significant(_gains(samples[best], samples[anchor]), self.margin) else anchor

    @staticmethod
    def _anchor_is_certain(actions: int, schedule: list[int]) -> bool:
        """Whether the anchor is chosen whatever the playouts say: no other action is played
        twice, and `_significant` needs two paired gains to replace the anchor. A budget of
        two playouts a decision (the liveness run's) is such a budget: its search player
        plays its rollout policy's moves, and need not play the playouts to know it."""
        return actions == 1 or sum(schedule) < 2

    def _schedule(self, actions: int, budget: int | None = None) -> list[int]:
        """Playouts per action in each round of `choose`, for this many root actions: the
        budget (``iterations`` unless given) split over ceil(log2(actions)) rounds, the worse
        half dropped after each. It depends on the counts alone (which actions survive does
        not change how many do)."""
        iterations = self.iterations if budget is None else budget
        rounds = max(1, math.ceil(math.log2(actions)))
        schedule: list[int] = []
        spent = 0
        for round_index in range(rounds):
            if round_index and spent >= iterations:
                break
            per_action = max(1, (iterations - spent) // (actions * (rounds - round_index)))
            if rounds == 1 and self.stop_early and self.look_early and per_action > FUTILE_AFTER:
                # Two actions make a single round, which the early stop never looks into:
                # look after FUTILE_AFTER shared playouts, as between the rounds of more.
                schedule += [FUTILE_AFTER, per_action - FUTILE_AFTER]
                break
            schedule.append(per_action)
            spent += per_action * actions
            actions = _survivors(actions)
        return schedule

    @staticmethod
    def _world(rules: Rules[Any, Any], state: Any, seat: int, draw: int) -> tuple[Any, int]:
        """The determinisation of one shared playout and its playouts' seed, both from
        ``draw``. Every action of the round is played from this one world: ``apply`` never
        changes the state it is given, so dealing the hidden cards once per playout rather
        than once per action gives the same games for a fraction of the dealing (a tenth of
        an Arena Tales game's CPU at six players)."""
        shared = random.Random(draw)
        world = determinise(rules, state, seat, shared)
        return world, shared.getrandbits(64)

    def _sample(
        self, rules: Rules[Any, Any], world: Any, seat: int, action: Any, seed: int
    ) -> float:
        after = rules.apply(world, action)
        return self._playout(rules, after, random.Random(seed))[seat]


FUTILE_AFTER = 4
"""Shared playouts after which a decision whose challengers have not gained on the anchor
stops: a challenger even on four paired playouts seldom turns significant on the rest."""


def _gains(action: dict[int, float], anchor: dict[int, float]) -> list[float]:
    """The action's paired gains over the anchor, on the playouts both were played on."""
    return [score - anchor[j] for j, score in action.items() if j in anchor]


def _mean_of(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _survivors(actions: int) -> int:
    """Root actions left after a round of halving: the anchor and the better half of the rest
    (at least one); two actions are both kept."""
    return 1 + max(1, actions // 2 - 1) if actions > 2 else actions


def _mean(scores: dict[int, float]) -> float:
    return sum(scores.values()) / len(scores) if scores else 0.0


def _significant(gains: Sequence[float], margin: float) -> bool:
    """Whether paired gains are above zero by more than ``margin`` standard errors."""
    count = len(gains)
    if count < 2:
        return False
    mean = sum(gains) / count
    variance = sum((gain - mean) ** 2 for gain in gains) / (count - 1)
    if variance == 0.0:
        return mean > 0.0
    return mean > margin * math.sqrt(variance / count)
