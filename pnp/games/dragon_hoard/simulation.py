"""Dragon Hoard's seeded simulations: many games of one table, summarised."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass, field

from pnp.engines.base import Policy, RandomPolicy, play_game
from pnp.engines.batch import game_seeds
from pnp.games.dragon_hoard.actions import Action
from pnp.games.dragon_hoard.model import AIEffectKind, DragonHoard
from pnp.games.dragon_hoard.rules import ROUND_CAP, DragonHoardRules
from pnp.games.dragon_hoard.state import DragonHoardState


@dataclass(frozen=True)
class SimulationReport:
    """Many games of one table with one policy: length, countdown, scores, wins."""

    players: int
    policy: str
    games: int
    seed: int
    mean_rounds: float
    median_rounds: float
    max_rounds: int
    countdown_games: int
    """Games that reached the countdown (every natural game should)."""
    nobody_left: int
    winning_scores: tuple[int, ...]
    """The winner's score of every game someone won."""
    wins_by_seat: tuple[int, ...]
    ended_by_cap: int
    capped_seeds: tuple[int, ...]
    ai_effects_run: dict[AIEffectKind, int]
    seconds: float = field(default=0.0, compare=False)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0


def simulate(
    model: DragonHoard,
    players: int,
    games: int = 200,
    seed: int = 0,
    policy: Policy | None = None,
    *,
    check: bool = False,
) -> SimulationReport:
    """Play ``games`` seeded games; game i uses ``random.Random(s_i)`` with s_i drawn from
    ``random.Random(seed)``, so a capped game is replayed from its seed."""
    rules = DragonHoardRules(model, players)
    chooser = policy if policy is not None else RandomPolicy()
    lengths: list[int] = []
    countdown = nobody = 0
    scores: list[int] = []
    wins = [0] * players
    capped: list[int] = []
    effects: Counter[AIEffectKind] = Counter()

    def observe(before: DragonHoardState, action: Action, after: DragonHoardState) -> None:
        # A round was resolved: this round's AI card (drawn before placement) was executed.
        if after.turn > before.turn and before.current >= 0:
            for effect in rules.ai_effects[before.current]:
                effects[effect.kind] += 1

    started = time.perf_counter()
    for game_seed in game_seeds(seed, games):
        record = play_game(
            rules,
            [chooser] * players,
            random.Random(game_seed),
            ROUND_CAP * 200,
            max_turns=ROUND_CAP,
            invariant=rules.check_invariants if check else None,
            observe=observe,
        )
        state = record.final_state
        lengths.append(record.turns)
        if record.capped:
            capped.append(game_seed)
            continue
        countdown += state.countdown
        winner = rules.winner(state)
        if winner is None:
            nobody += 1
        else:
            wins[winner] += 1
            scores.append(rules.scores(state)[winner])
    seconds = time.perf_counter() - started
    return SimulationReport(
        players=players,
        policy=repr(chooser),
        games=games,
        seed=seed,
        mean_rounds=statistics.fmean(lengths) if lengths else 0.0,
        median_rounds=statistics.median(lengths) if lengths else 0.0,
        max_rounds=max(lengths, default=0),
        countdown_games=countdown,
        nobody_left=nobody,
        winning_scores=tuple(scores),
        wins_by_seat=tuple(wins),
        ended_by_cap=len(capped),
        capped_seeds=tuple(capped),
        ai_effects_run=dict(effects),
        seconds=seconds,
    )
