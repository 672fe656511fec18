"""MAQUIS as one package: model, rules, policies, checks, examples."""

from __future__ import annotations

from pnp.games.maquis import checks
from pnp.games.maquis.examples import example_tables, rulebook_examples
from pnp.games.maquis.model import Maquis
from pnp.games.maquis.policies import GreedyPolicy
from pnp.games.maquis.rules import MaquisRules
from pnp.registry import Game

GAME = Game(
    slug="maquis",
    model=Maquis,
    rules=MaquisRules,
    tables=example_tables,
    policies={"sensible": GreedyPolicy},
    check_static=checks.check_static,
    check_simulated=checks.check_simulated,
    summarise=checks.summarise,
    simulation_lines=checks.simulation_lines,
    default_games=checks.DEFAULT_GAMES,
    rulebook_terms=checks.rulebook_terms,
    rulebook_examples=rulebook_examples,
)
