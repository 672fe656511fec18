"""Deadline 99 (死线99) as one package: model, rules, policies, checks, examples."""

from __future__ import annotations

from pnp.games.deadline_99 import checks
from pnp.games.deadline_99.model import Deadline99
from pnp.games.deadline_99.rules import (
    Deadline99Rules,
    SafePolicy,
    example_tables,
    rulebook_examples,
)
from pnp.registry import Game

GAME = Game(
    slug="deadline-99",
    model=Deadline99,
    rules=Deadline99Rules,
    tables=example_tables,
    policies={"sensible": SafePolicy},
    check_static=checks.check_static,
    check_simulated=checks.check_simulated,
    summarise=checks.summarise,
    simulation_lines=checks.simulation_lines,
    default_games=checks.DEFAULT_GAMES,
    rulebook_terms=checks.rulebook_terms,
    rulebook_examples=rulebook_examples,
)
