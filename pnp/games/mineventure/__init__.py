"""MineVenture as one package: model, rules, policies, checks, examples."""

from __future__ import annotations

from pnp.games.mineventure import checks
from pnp.games.mineventure.examples import example_tables, rulebook_examples
from pnp.games.mineventure.model import Mineventure
from pnp.games.mineventure.policies import SensiblePolicy
from pnp.games.mineventure.rules import MineventureRules
from pnp.registry import Game

GAME = Game(
    slug="mineventure",
    model=Mineventure,
    rules=MineventureRules,
    tables=example_tables,
    policies={"sensible": SensiblePolicy},
    check_static=checks.check_static,
    check_simulated=checks.check_simulated,
    summarise=checks.summarise,
    simulation_lines=checks.simulation_lines,
    default_games=checks.DEFAULT_GAMES,
    rulebook_terms=checks.rulebook_terms,
    rulebook_examples=rulebook_examples,
)
