"""Arena Tales seeded simulation: many games, their lengths, winners and effects played."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from pnp.engines.base import Policy, RandomPolicy, play_game
from pnp.engines.batch import game_seeds
from pnp.games.arena_tales.model import ArenaTales, EffectKind
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.games.arena_tales.state import Action, ArenaState, Play, Termination

TURN_CAP = 400
"""Simulations stop a game after this many turns and report a cap hit. Every card played ends
in an exhausted pile, so decks run dry and life is drawn; natural games end far sooner."""


@dataclass(frozen=True)
class SimulationReport:
    players: int
    policy: str
    games: int
    seed: int
    mean_turns: float
    median_turns: float
    max_turns: int
    wins_by_seat: tuple[int, ...]
    wins_by_pair: dict[str, tuple[int, int]]
    """"a/b" (first team's character / second's, seat 0 and 1) -> (games, wins of seat 0)."""
    terminations: dict[Termination, int]
    ended_by_cap: int
    capped_seeds: tuple[int, ...]
    effects_played: dict[EffectKind, int]
    steps: int = 0
    seconds: float = field(default=0.0, compare=False)

    @property
    def finished(self) -> int:
        return self.games - self.ended_by_cap

    @property
    def first_player_win_rate(self) -> float:
        return self.wins_by_seat[0] / self.finished if self.finished else 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def simulate(
    model: ArenaTales,
    players: int,
    games: int = 100,
    seed: int = 0,
    policy: Policy | None = None,
    *,
    check: bool = False,
) -> SimulationReport:
    """Play ``games`` seeded games; each draws its characters at random (seeded) from the
    roster. Game ``i`` uses ``random.Random(s_i)``, ``s_i`` drawn from ``random.Random(seed)``."""
    chooser = policy if policy is not None else RandomPolicy()
    roster = [c.id for c in model.characters]
    tables: dict[tuple[str, ...], ArenaTalesRules] = {}
    played: Counter[EffectKind] = Counter()
    lengths: list[int] = []
    wins = [0] * players
    pairs: dict[str, list[int]] = {}
    terminations: Counter[Termination] = Counter()
    capped: list[int] = []
    steps = 0
    started = time.perf_counter()
    for game_seed in game_seeds(seed, games):
        rng = random.Random(game_seed)
        chosen = tuple(rng.sample(roster, players) if len(roster) >= players else roster)
        rules = tables.get(chosen)
        if rules is None:
            rules = tables[chosen] = ArenaTalesRules(model, players, chosen)

        def observe(
            before: ArenaState, action: Action, after: ArenaState, r: ArenaTalesRules = rules
        ) -> None:
            if isinstance(action, Play):
                for e in r.card(action.card).effects:
                    played[e.kind] += 1

        record = play_game(
            rules,
            [chooser] * players,
            rng,
            TURN_CAP * 200,
            max_turns=TURN_CAP,
            invariant=rules.check_invariants if check else None,
            observe=observe,
        )
        steps += record.steps
        lengths.append(record.turns)
        pair = f"{chosen[0]}/{chosen[1]}"
        entry = pairs.setdefault(pair, [0, 0])
        if record.outcome is None:
            capped.append(game_seed)
            continue
        assert isinstance(record.outcome.termination, Termination)
        terminations[record.outcome.termination] += 1
        entry[0] += 1
        for seat in record.outcome.winners:
            wins[seat] += 1
        if 0 in record.outcome.winners:
            entry[1] += 1
    seconds = time.perf_counter() - started
    return SimulationReport(
        players=players,
        policy=repr(chooser),
        games=games,
        seed=seed,
        mean_turns=statistics.fmean(lengths) if lengths else 0.0,
        median_turns=statistics.median(lengths) if lengths else 0.0,
        max_turns=max(lengths, default=0),
        wins_by_seat=tuple(wins),
        wins_by_pair={k: (v[0], v[1]) for k, v in sorted(pairs.items())},
        terminations=dict(terminations),
        ended_by_cap=len(capped),
        capped_seeds=tuple(capped),
        effects_played=dict(played),
        steps=steps,
        seconds=seconds,
    )
