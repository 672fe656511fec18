"""A balance run on a local Ray cluster gives the tables the local pool gives, seed for seed."""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pnp import registry
from pnp.content.loader import load_game
from pnp.engines.batch import run_on_ray
from pnp.validate.play import Played, balance_runs
from pnp.validate.runner import validate_games
from tests.conftest import CONTENT, TEMPLATES

# `python3 tasks.py ray` (CI) installs the extra and requires it: there a missing Ray fails.
ray: Any = (
    importlib.import_module("ray")
    if os.environ.get("PNP_REQUIRE_RAY")
    else pytest.importorskip(
        "ray", reason="Ray is not installed on this Python (python3 tasks.py ray installs it)"
    )
)


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # Two CPUs, as the CI machine has; no dashboard, so the test starts in seconds.
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def _table(played: list[Played]) -> list[tuple[int, frozenset[int], int, int]]:
    return [(one.seed, one.winners, one.turns, one.steps) for one in played]


@pytest.mark.usefixtures("local_ray")
def test_a_balance_run_on_ray_gives_the_local_pool_tables_seed_for_seed() -> None:
    game = registry.find_game("arena-tales")
    assert game is not None
    model = load_game(CONTENT, game.slug).model
    local, players = balance_runs(game, model, model.balance, games=6, seed=3, workers=2)
    on_ray, ray_players = balance_runs(game, model, model.balance, games=6, seed=3, use_ray=True)
    assert ray_players == players
    assert {table: _table(runs) for table, runs in on_ray.items()} == {
        table: _table(runs) for table, runs in local.items()
    }
    assert set(local) == {"2p", "4p", "6p"}


@pytest.mark.usefixtures("local_ray")
def test_ray_spreads_a_few_long_games_over_every_cpu() -> None:
    # Eight games: a fixed chunk of 64 made them one task on one CPU.
    def where(seed: int) -> tuple[int, str]:
        time.sleep(0.3)  # long enough that one worker cannot take every task in turn
        return seed, ray.get_runtime_context().get_worker_id()

    results = run_on_ray(where, list(range(8)), address=None)
    assert [seed for seed, _ in results] == list(range(8))
    assert len({worker for _, worker in results}) == 2


@pytest.mark.usefixtures("local_ray")
def test_games_validated_together_on_ray_give_the_findings_of_one_after_another(
    content_copy: Path,
) -> None:
    # Their balance runs share the cluster side by side; every figure and problem must be
    # the one the local pool gives, game by game. Small caps keep it to a minute.
    for path, cap in (
        ("dragon-hoard/game.yaml", "games: 6000"),
        ("maquis/balance.yaml", "games: 300"),
    ):
        file = content_copy / path
        file.write_text(file.read_text(encoding="utf-8").replace(cap, "games: 50"), "utf-8")
    slugs = ["dragon-hoard", "maquis"]

    def validated(use_ray: bool) -> tuple[dict[str, Any], list[str]]:
        result = validate_games(
            content_copy, slugs, TEMPLATES, balance=True, use_ray=use_ray, workers=2
        )
        return result.reports, [str(problem) for problem in result.problems]

    together, problems = validated(use_ray=True)
    assert set(together) == set(slugs)
    assert all("balance" in report for report in together.values())
    assert (together, problems) == validated(use_ray=False)
