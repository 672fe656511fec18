"""How long a finished balance run would take on a cluster: its own stages, replayed on N CPUs.

    python benchmarks/cluster_estimate.py RUN.err [--cpus 2,32,64] [--samples 16] [--local S]

RUN.err is the stderr of ``pnp validate --balance --policy strong`` (its ``balance TABLE
(POLICY, N games`` lines say how many games each table played). The script plays the first
``--samples`` seeds of every table of the run, plain Python, one game at a time on every
core, and times each game's CPU. It then replays the run as play_in_stages and run_on_ray
schedule it: game after game, each group of tables (a policy and its cap) look after look, the
games of a look cut into Ray's chunks (four tasks a CPU) and each chunk given to the first CPU
free; a look ends when its last chunk does. Each game's time is drawn from its table's
samples, so the replay is repeated ``--rounds`` times and the spread printed. ``--local`` adds
the seconds the run spends off the cluster (static checks and the default play checks, which
run on the head's own cores: time ``pnp validate`` without --balance).

Dividing the run's CPU by the cluster's CPUs ignores that every look waits for its longest
chunk; this replay does not. What it leaves out: Ray's own cost a task and a look (a few
milliseconds each), nodes slower than this machine, and the time to start the cluster.
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import re
import statistics
import sys
import time
from collections import defaultdict, deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pnp.content.loader import load_game
from pnp.engines.base import Table
from pnp.engines.batch import game_seeds, run_seeds
from pnp.model.common import Balance
from pnp.registry import Game, find_game
from pnp.validate.play import game_tables, looks, play_seed, strong_plan

BALANCE_LINE = re.compile(
    r"^(?P<slug>[\w-]+): balance (?P<table>\S+) \((?P<policy>[^,]+), (?P<games>\d+) games"
)


@dataclass
class Group:
    """Tables played together, look after look: one policy and one cap."""

    slug: str
    policy: str
    cap: int
    played: dict[str, int]
    """Games each table played (it stopped at the first look at or past this)."""
    tables: dict[str, Table]


def played_games(run_err: Path) -> dict[str, dict[str, tuple[str, int]]]:
    """By game and table: the policy and the games the run played."""
    found: dict[str, dict[str, tuple[str, int]]] = defaultdict(dict)
    for line in run_err.read_text(encoding="utf-8").splitlines():
        match = BALANCE_LINE.match(line)
        if match:
            found[match["slug"]][match["table"]] = (match["policy"], int(match["games"]))
    return found


def groups_of(
    content: Path, slug: str, played: dict[str, tuple[str, int]], policy: str
) -> list[Group]:
    """The run's groups for ``slug``, in the order judge_balance plays them."""
    plugin = find_game(slug)
    assert plugin is not None
    model = load_game(content, slug).model
    balance = model.balance
    assert isinstance(balance, Balance)
    tables = game_tables(plugin, model)
    names = [table.name for table in tables]
    policies, caps = strong_plan(balance, policy, names)
    groups = []
    for played_by, cap in dict.fromkeys(zip(policies.values(), caps.values(), strict=True)):
        chosen = [n for n in names if (policies[n], caps[n]) == (played_by, cap)]
        groups.append(
            Group(
                slug,
                played_by,
                cap,
                {n: played[n][1] for n in chosen},
                {t.name: t for t in tables if t.name in chosen},
            )
        )
    return groups


def sample_times(plugin: Game, group: Group, samples: int, seed: int) -> dict[str, list[float]]:
    """CPU seconds of the first ``samples`` games of each table of ``group``."""
    jobs = [(name, one) for name in group.tables for one in game_seeds(seed, samples)]

    def timed(job: int) -> float:
        name, one = jobs[job]
        table = group.tables[name]
        started = time.process_time()
        play_seed(plugin, table, [group.policy] * table.rules.num_players, one)
        return time.process_time() - started

    spent = run_seeds(timed, range(len(jobs)), min_per_worker=1)
    times: dict[str, list[float]] = defaultdict(list)
    for (name, _), seconds in zip(jobs, spent, strict=True):
        times[name].append(seconds)
    return times


def stage_jobs(group: Group) -> list[list[str]]:
    """Each look's games, by table, in play_in_stages' order (the tables rounded)."""
    stages = []
    done = dict.fromkeys(group.played, 0)
    for size in looks(group.cap):
        playing = [n for n in group.played if done[n] < group.played[n]]
        if not playing:
            break
        stages.append([n for index in range(size) for n in playing if index >= done[n]])
        for n in playing:
            done[n] = size
    return stages


def makespan(durations: Sequence[float], cpus: int) -> float:
    """A look on ``cpus`` CPUs: run_on_ray's chunks, each to the first CPU free."""
    chunk = max(1, min(64, -(-len(durations) // (4 * cpus))))
    free = [0.0] * cpus
    for start in range(0, len(durations), chunk):
        earliest = heapq.heappop(free)
        heapq.heappush(free, earliest + sum(durations[start : start + chunk]))
    return max(free)


def replay(
    stages: Sequence[list[str]], times: dict[str, list[float]], cpus: int, rng: random.Random
) -> float:
    return sum(makespan([rng.choice(times[name]) for name in jobs], cpus) for jobs in stages)


def chunks(durations: Sequence[float], cpus: int) -> list[float]:
    """A look's games as run_on_ray's tasks: four a CPU, at most 64 games each."""
    chunk = max(1, min(64, -(-len(durations) // (4 * cpus))))
    return [sum(durations[i : i + chunk]) for i in range(0, len(durations), chunk)]


def side_by_side(games: Sequence[Sequence[list[float]]], cpus: int) -> float:
    """Several games' looks on one cluster at once (a thread each submitting its looks): a
    game's next look is queued when its last one ends, and each task goes to the first CPU
    free in the order queued. ``games``: each game's looks, each look its tasks' seconds."""
    queue: deque[tuple[int, float]] = deque()
    look = [0] * len(games)
    waiting = [0] * len(games)
    running: list[tuple[float, int]] = []
    now = 0.0

    def submit(game: int) -> None:
        while look[game] < len(games[game]) and not games[game][look[game]]:
            look[game] += 1
        if look[game] < len(games[game]):
            tasks = games[game][look[game]]
            queue.extend((game, seconds) for seconds in tasks)
            waiting[game] = len(tasks)

    for game in range(len(games)):
        submit(game)
    while queue or running:
        while queue and len(running) < cpus:
            game, seconds = queue.popleft()
            heapq.heappush(running, (now + seconds, game))
        now, game = heapq.heappop(running)
        waiting[game] -= 1
        if not waiting[game]:
            look[game] += 1
            submit(game)
    return now


def clock(seconds: float) -> str:
    return f"{int(seconds // 60)}:{int(seconds % 60):02d}"


Plan = list[tuple[str, list[list[str]], dict[str, list[float]]]]
"""By group of tables, in the run's order: its game, its looks' games by table, and each
table's sampled CPU-s a game."""


def sampled_plan(run_err: Path, content: Path, policy: str, samples: int, seed: int) -> Plan:
    plan: Plan = []
    for slug, played in played_games(run_err).items():
        plugin = find_game(slug)
        assert plugin is not None
        for group in groups_of(content, slug, played, policy):
            started = time.monotonic()
            times = sample_times(plugin, group, samples, seed)
            stages = stage_jobs(group)
            group_cpu = sum(statistics.fmean(times[n]) * g for n, g in group.played.items())
            plan.append((slug, stages, times))
            means = ", ".join(f"{n} {statistics.fmean(t):.2f}" for n, t in times.items())
            if len(times) > 8:
                every = [one for table in times.values() for one in table]
                means = f"{len(times)} tables, {statistics.fmean(every):.3f} on average"
            print(
                f"{slug} {group.policy} (cap {group.cap}): {len(stages)} looks, "
                f"{sum(group.played.values())} games, ~{group_cpu:.0f} CPU-s; CPU-s a game: "
                f"{means} (sampled in {time.monotonic() - started:.0f} s)",
                flush=True,
            )
    return plan


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run_err", type=Path)
    parser.add_argument("--content", type=Path, default=Path("content"))
    parser.add_argument("--policy", default="strong")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cpus", default="2,32,64")
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--local", type=float, default=0.0, help="seconds off the cluster")
    parser.add_argument("--times", type=Path, help="keep the sampled times here; read them back")
    options = parser.parse_args(argv)
    if options.times is not None and options.times.is_file():
        plan: Plan = [tuple(group) for group in json.loads(options.times.read_text())]
    else:
        plan = sampled_plan(
            options.run_err, options.content, options.policy, options.samples, options.seed
        )
        if options.times is not None:
            options.times.write_text(json.dumps(plan))
    total_cpu = sum(
        statistics.fmean(times[name])
        for _, stages, times in plan
        for jobs in stages
        for name in jobs
    )
    print(f"the run's play: ~{total_cpu:.0f} CPU-s at this machine's speed")
    rng = random.Random(1)
    slugs = list(dict.fromkeys(slug for slug, _, _ in plan))

    def after_another(cpus: int) -> float:
        return sum(replay(stages, times, cpus, rng) for _, stages, times in plan)

    def together(cpus: int) -> float:
        looks_by_game: list[list[list[float]]] = [[] for _ in slugs]
        for slug, stages, times in plan:
            looks_by_game[slugs.index(slug)] += [
                chunks([rng.choice(times[name]) for name in jobs], cpus) for jobs in stages
            ]
        return side_by_side(looks_by_game, cpus)

    for cpus in [int(part) for part in options.cpus.split(",")]:
        divided = total_cpu / cpus + options.local
        print(f"{cpus:>4} CPUs (the CPU divided by the CPUs: {clock(divided)}):")
        for label, replayed in (
            ("one game after another", after_another),
            ("the games side by side", together),
        ):
            walls = sorted(options.local + replayed(cpus) for _ in range(options.rounds))
            low, mid, high = (walls[int(q * (len(walls) - 1))] for q in (0.025, 0.5, 0.975))
            print(f"      {label}: {clock(mid)} [{clock(low)}-{clock(high)}]")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
