"""Many seeded Maquis games at one difficulty level, summed up for the validator and the CLI."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from pnp.engines.base import Policy, RandomPolicy, play_game
from pnp.engines.batch import game_seeds
from pnp.games.maquis.model import Maquis
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import Result, Termination

ROUND_CAP = 200
"""Simulations stop a game after this many rounds and report it as a cap hit. Only the looping
day track of the easiest level can run past the day track's length; morale falls on every pass
over the orange spaces, so a natural game ends long before this."""


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
    results: Counter[Result] = Counter()
    ends: Counter[Termination] = Counter()
    losses: Counter[Termination] = Counter()
    capped: list[int] = []
    rounds: list[int] = []
    outcomes: list[tuple[int, Result | None]] = []
    started = time.perf_counter()
    for game_seed in game_seeds(seed, games):
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
