"""Many seeded games of one Deadline 99 table: lengths, wins by seat, terminations, effects."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from pnp.engines.base import Policy, RandomPolicy, play_game
from pnp.engines.batch import game_seeds
from pnp.games.deadline_99.model import Deadline99, EffectKind
from pnp.games.deadline_99.rules import (
    Action,
    Deadline99Rules,
    Deadline99State,
    Mode,
    Play,
    Termination,
)

TURN_CAP = 10_000
"""Simulations stop a game after this many turns and report it as a cap hit. Without the Angel
the cards in hands never grow and every J or 7 shrinks them, so natural games end far sooner
(a few hundred turns at most in practice); a cap hit means a stuck policy or an engine bug."""


@dataclass(frozen=True)
class SimulationReport:
    """Many games of one table played by one policy: length, seats' wins, caps and effects."""

    players: int
    mode: Mode
    angel_death: bool
    policy: str
    games: int
    seed: int
    mean_turns: float
    median_turns: float
    max_turns: int
    wins_by_seat: tuple[int, ...]
    """Games each seat won (in camp mode several seats win one game)."""
    terminations: dict[Termination, int]
    ended_by_cap: int
    """Games stopped by TURN_CAP: each one is a finding, reproduced by its seed below."""
    capped_seeds: tuple[int, ...]
    """Seeds of the capped games: ``random.Random(seed)`` replays one."""
    max_count: int
    effects_played: dict[EffectKind, int]
    seconds: float = field(default=0.0, compare=False)

    @property
    def win_rate_by_seat(self) -> tuple[float, ...]:
        finished = self.games - self.ended_by_cap
        return tuple(w / finished if finished else 0.0 for w in self.wins_by_seat)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def simulate(
    model: Deadline99,
    players: int,
    mode: Mode = Mode.NORMAL,
    angel_death: bool = False,
    games: int = 1000,
    seed: int = 0,
    policy: Policy | None = None,
    *,
    check: bool = False,
) -> SimulationReport:
    """Play ``games`` games with ``policy`` (default random) in every seat.

    Game ``i`` uses ``random.Random(s_i)`` with ``s_i`` drawn from ``random.Random(seed)``, so a
    report is reproducible and a capped game is replayed from its seed. With ``check`` every
    state is checked against :meth:`Deadline99Rules.invariant_problems`.
    """
    rules = Deadline99Rules(model, players, mode, angel_death)
    chooser = policy if policy is not None else RandomPolicy()
    policies = [chooser] * players
    kinds = rules._kind
    by_token = rules._by_token
    played: Counter[EffectKind] = Counter()
    max_count = [rules.start]

    def observe(before: Deadline99State, action: Action, after: Deadline99State) -> None:
        if type(action) is Play:
            played[kinds[by_token[action.card]]] += 1
            if after.count > max_count[0]:
                max_count[0] = after.count

    # Each turn is one play, at most one steal and its draws.
    max_steps = TURN_CAP * (2 + max(rules._draws, default=1))
    lengths: list[int] = []
    wins = [0] * players
    terminations: Counter[Termination] = Counter()
    capped: list[int] = []
    started = time.perf_counter()
    for game_seed in game_seeds(seed, games):
        record = play_game(
            rules,
            policies,
            random.Random(game_seed),
            max_steps,
            max_turns=TURN_CAP,
            invariant=rules.check_invariants if check else None,
            observe=observe,
        )
        lengths.append(record.turns)
        if record.outcome is None:
            capped.append(game_seed)
            continue
        assert isinstance(record.outcome.termination, Termination)
        terminations[record.outcome.termination] += 1
        for seat in record.outcome.winners:
            wins[seat] += 1
    seconds = time.perf_counter() - started
    return SimulationReport(
        players=players,
        mode=mode,
        angel_death=angel_death,
        policy=repr(chooser),
        games=games,
        seed=seed,
        mean_turns=statistics.fmean(lengths) if lengths else 0.0,
        median_turns=statistics.median(lengths) if lengths else 0.0,
        max_turns=max(lengths, default=0),
        wins_by_seat=tuple(wins),
        terminations=dict(terminations),
        ended_by_cap=len(capped),
        capped_seeds=tuple(capped),
        max_count=max_count[0],
        effects_played=dict(played),
        seconds=seconds,
    )
