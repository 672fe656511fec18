"""Many seeded games on every core, with the same results as one process.

A batch is a function of one game seed, ``play(seed) -> result``, and a list of seeds. Game
``i`` always plays from ``seeds[i]`` whatever process runs it, and results come back in seed
order, so a run on eight cores equals the run on one: parallelism changes the time, never the
figures. Worker processes are forked, so ``play`` may close over anything (the rules, the
model, policies) without being picklable; only its results travel back and must pickle.

``PNP_WORKERS`` (or the ``workers`` argument) sets the number of processes; 1 runs in this
process. Large sweeps can run on a Ray cluster instead (:func:`run_on_ray`).
"""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import random
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from pnp.cores import default_workers, may_fork

T = TypeVar("T")

MIN_SEEDS_PER_WORKER = 4
"""Below this many games per process, forking costs more than it saves."""

_PLAY: Callable[[int], Any] | None = None
"""The batch's play function, set in the parent just before forking (workers inherit it)."""


Progress = Callable[[int, int], None]
"""Told ``(games done, games in the batch)`` as a batch's games finish."""

_PROGRESS: tuple[int, Progress] | None = None
"""The process that asked for progress and what it is told (a forked worker says nothing)."""


@contextlib.contextmanager
def reporting_progress(progress: Progress) -> Iterator[None]:
    """Within the block, each batch of games this process plays tells ``progress`` how far it
    is, so a long run can show a progress bar. The results are the same either way."""
    global _PROGRESS
    previous, _PROGRESS = _PROGRESS, (os.getpid(), progress)
    try:
        yield
    finally:
        _PROGRESS = previous


def _progress() -> Progress | None:
    if _PROGRESS is None or _PROGRESS[0] != os.getpid():
        return None
    return _PROGRESS[1]


def game_seeds(seed: int, games: int) -> list[int]:
    """The seeds of ``games`` games derived from one run seed: game i replays alone from
    ``random.Random(game_seeds(seed, n)[i])``. Every simulation in pnp uses this one scheme."""
    source = random.Random(seed)
    return [source.getrandbits(63) for _ in range(games)]


@contextlib.contextmanager
def few_full_collections() -> Iterator[None]:
    """Python's full garbage collections made rare while games are played: a run of thousands
    of games leaves many objects that live long (rules, tables, the policies' memos, a
    validation's layouts), and each full collection walked them all, 70 ms at a time and 4 %
    of a validation, to free almost nothing (game states hold no cycles; the peak memory of
    ``pnp validate`` is the same). Young objects are collected as before. Forked workers
    inherit the setting."""
    young, middle, full = gc.get_threshold()
    gc.set_threshold(young, middle, max(full, FULL_COLLECTION_EVERY))
    try:
        yield
    finally:
        gc.set_threshold(young, middle, full)


FULL_COLLECTION_EVERY = 1000
"""Collections of the middle generation between two full ones (Python's default: 10)."""


class _Failed:
    """A chunk whose play raised, carried back as a value: an exception raised out of
    ``Pool.imap`` makes the pool's exit terminate it while chunks are in flight, and that
    join hung a test run (CPython's pool). The batch raises it once the pool has closed."""

    def __init__(self, error: BaseException) -> None:
        self.error = error


def _play_chunk(seeds: Sequence[int]) -> list[Any] | _Failed:
    assert _PLAY is not None, "worker started without a play function"
    try:
        return [_PLAY(seed) for seed in seeds]
    except Exception as error:
        return _Failed(error)


def run_seeds(
    play: Callable[[int], T],
    seeds: Sequence[int],
    *,
    workers: int | None = None,
    min_per_worker: int = MIN_SEEDS_PER_WORKER,
) -> list[T]:
    """``[play(seed) for seed in seeds]``, spread over ``workers`` forked processes
    (``min_per_worker`` items each at least: 1 for a few long jobs, like whole games to
    validate)."""
    with few_full_collections():
        return _run_seeds(play, seeds, workers=workers, min_per_worker=min_per_worker)


def _run_seeds(
    play: Callable[[int], T], seeds: Sequence[int], *, workers: int | None, min_per_worker: int
) -> list[T]:
    count = default_workers() if workers is None else max(1, workers)
    count = min(count, len(seeds) // max(1, min_per_worker))
    progress = _progress()
    # A worker of another batch (a game validating beside others) plays its games itself.
    if count <= 1 or not may_fork():
        if progress is None:
            return [play(seed) for seed in seeds]
        played = []
        for seed in seeds:
            played.append(play(seed))
            progress(len(played), len(seeds))
        return played
    global _PLAY
    previous, _PLAY = _PLAY, play
    try:
        # Several chunks per worker even out games of unequal length; contiguous chunks keep
        # the results in seed order.
        pieces = count * 4
        size = -(-len(seeds) // pieces)
        chunks = [list(seeds[i : i + size]) for i in range(0, len(seeds), size)]
        results: list[list[T]] = []
        failed: _Failed | None = None
        with multiprocessing.get_context("fork").Pool(count) as pool:
            # In order, chunk by chunk, so progress can be told as chunks come back.
            for chunk in pool.imap(_play_chunk, chunks, chunksize=1):
                if isinstance(chunk, _Failed):
                    failed = failed or chunk
                    continue
                results.append(chunk)
                if progress is not None:
                    progress(sum(map(len, results)), len(seeds))
    finally:
        _PLAY = previous
    if failed is not None:
        raise failed.error
    return [result for chunk in results for result in chunk]


def _play_with(function: Callable[[int], T], part: list[int]) -> list[T]:
    return [function(seed) for seed in part]


def connect_ray(address: str | None) -> Any:
    """The ray module, connected to the cluster at ``address`` (a local Ray when None) unless
    this process already is; PnpError when Ray is not installed."""
    try:
        import ray
    except ImportError as error:  # pragma: no cover - depends on the extra
        from pnp.errors import PnpError

        raise PnpError("Ray is not installed: pip install 'pnp-kit[ray]'") from error
    if not ray.is_initialized():
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False)
    return ray


def run_on_ray(
    play: Callable[[int], T],
    seeds: Sequence[int],
    *,
    address: str | None,
    chunk: int | None = None,
) -> list[T]:
    """The same batch on a Ray cluster (``address``; a local Ray when None), for sweeps of
    millions of games. ``play`` and its results travel by Ray's serialiser, so they must be
    picklable by it (closures over models and rules are). Results come back in seed order.

    ``chunk`` seeds go to a task; by default four tasks a CPU of the cluster (at most 64
    seeds each), so a batch of a few long games (strong play) still spreads over every node
    where a fixed 64 would have sent 40 games to one."""
    ray = connect_ray(address)
    if chunk is None:
        # Typed Any: with Ray installed its functions are untyped, without it unknown.
        resources: Any = ray.cluster_resources
        cpus = max(1, int(resources().get("CPU", 1)))
        chunk = max(1, min(64, -(-len(seeds) // (4 * cpus))))

    play_chunk: Any = ray.remote(_play_with)
    function = ray.put(play)
    futures = [
        play_chunk.remote(function, list(seeds[i : i + chunk])) for i in range(0, len(seeds), chunk)
    ]
    return [result for part in ray.get(futures) for result in part]
