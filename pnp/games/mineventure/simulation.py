"""Seeded MineVenture games in bulk, for `pnp simulate`, the validator and the tests."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from pnp.engines.base import Policy, RandomPolicy, play_game
from pnp.engines.batch import game_seeds
from pnp.games.mineventure.model import Mineventure
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.state import TURN_CAP, Mode, Termination


@dataclass(frozen=True)
class SimulationReport:
    players: int
    mode: Mode
    policy: str
    games: int
    seed: int
    mean_rounds: float
    median_rounds: float
    max_rounds: int
    terminations: dict[Termination, int]
    wins_by_seat: tuple[int, ...]
    ended_by_cap: int
    capped_seeds: tuple[int, ...]
    mean_steps: float
    seconds: float = field(default=0.0, compare=False)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def simulate(
    model: Mineventure,
    players: int,
    mode: Mode,
    games: int = 100,
    seed: int = 0,
    policy: Policy | None = None,
    *,
    check: bool = False,
) -> SimulationReport:
    """Play ``games`` seeded games; game ``i`` replays from ``random.Random(s_i)``."""
    rules = MineventureRules(model, players, mode)
    chooser = policy if policy is not None else RandomPolicy()
    lengths: list[int] = []
    steps: list[int] = []
    ends: Counter[Termination] = Counter()
    wins = [0] * players
    capped: list[int] = []
    started = time.perf_counter()
    for game_seed in game_seeds(seed, games):
        record = play_game(
            rules,
            [chooser] * players,
            random.Random(game_seed),
            TURN_CAP * 200 * players,
            max_turns=TURN_CAP,
            invariant=rules.check_invariants if check else None,
        )
        lengths.append(record.turns)
        steps.append(record.steps)
        if record.outcome is None:
            capped.append(game_seed)
            continue
        assert isinstance(record.outcome.termination, Termination)
        ends[record.outcome.termination] += 1
        for seat in record.outcome.winners:
            wins[seat] += 1
    return SimulationReport(
        players=players,
        mode=mode,
        policy=repr(chooser),
        games=games,
        seed=seed,
        mean_rounds=statistics.fmean(lengths) if lengths else 0.0,
        median_rounds=statistics.median(lengths) if lengths else 0.0,
        max_rounds=max(lengths, default=0),
        terminations=dict(ends),
        wins_by_seat=tuple(wins),
        ended_by_cap=len(capped),
        capped_seeds=tuple(capped),
        mean_steps=statistics.fmean(steps) if steps else 0.0,
        seconds=time.perf_counter() - started,
    )
