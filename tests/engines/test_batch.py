"""A batch of seeded games gives the same results on one process and on several."""

from __future__ import annotations

import gc
import os
import random

import pytest

from pnp.cores import default_workers
from pnp.engines.batch import FULL_COLLECTION_EVERY, game_seeds, run_seeds


def _play(seed: int) -> tuple[int, int, float]:
    rng = random.Random(seed)
    return seed, os.getpid(), sum(rng.random() for _ in range(1000))


def test_several_processes_give_the_single_process_results_in_seed_order() -> None:
    seeds = game_seeds(7, 40)
    alone = run_seeds(_play, seeds, workers=1)
    together = run_seeds(_play, seeds, workers=2)
    assert [(s, v) for s, _, v in alone] == [(s, v) for s, _, v in together]
    assert {pid for _, pid, _ in alone} == {os.getpid()}
    assert os.getpid() not in {pid for _, pid, _ in together}  # really ran elsewhere


def test_a_closure_runs_in_the_workers_without_pickling() -> None:
    table = {"offset": 1000}  # captured, never sent: workers are forked
    results = run_seeds(lambda seed: seed % 7 + table["offset"], list(range(20)), workers=2)
    assert results == [seed % 7 + 1000 for seed in range(20)]


def test_game_seeds_are_the_documented_scheme() -> None:
    source = random.Random(3)
    assert game_seeds(3, 5) == [source.getrandbits(63) for _ in range(5)]


def test_workers_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_WORKERS", "3")
    assert default_workers() == 3
    monkeypatch.setenv("PNP_WORKERS", "nonsense")
    assert default_workers() >= 1


def test_games_play_with_rare_full_collections_everywhere_and_the_setting_is_restored() -> None:
    before = gc.get_threshold()
    seen = run_seeds(lambda seed: (os.getpid(), gc.get_threshold()), list(range(16)), workers=2)
    assert {full for _, (_, _, full) in seen} == {FULL_COLLECTION_EVERY}
    assert os.getpid() not in {pid for pid, _ in seen}  # the workers inherit it
    assert run_seeds(lambda seed: gc.get_threshold()[2], [1], workers=1) == [FULL_COLLECTION_EVERY]
    assert gc.get_threshold() == before


@pytest.mark.parametrize("workers", [1, 2])
def test_progress_is_told_as_games_finish_and_changes_no_result(workers: int) -> None:
    from pnp.engines.batch import reporting_progress

    seeds = game_seeds(3, 24)
    told: list[tuple[int, int]] = []
    with reporting_progress(lambda done, total: told.append((done, total))):
        results = run_seeds(_play, seeds, workers=workers)
    plain = run_seeds(_play, seeds, workers=workers)
    assert [(s, v) for s, _, v in results] == [(s, v) for s, _, v in plain]
    assert told[-1] == (24, 24)
    assert [done for done, _ in told] == sorted({done for done, _ in told})  # only forward
    assert all(total == 24 for _, total in told)
