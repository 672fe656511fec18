"""Dragon Hoard (魔龙宝窟) as one package: model, rules, policies, checks, examples."""

from __future__ import annotations

from pnp.games.dragon_hoard import checks
from pnp.games.dragon_hoard.model import DragonHoard
from pnp.games.dragon_hoard.rules import (
    DragonHoardRules,
    TreasureHunterPolicy,
    example_tables,
    rulebook_examples,
)
from pnp.registry import Game

GAME = Game(
    slug="dragon-hoard",
    model=DragonHoard,
    rules=DragonHoardRules,
    tables=example_tables,
    policies={"sensible": TreasureHunterPolicy},
    check_static=checks.check_static,
    check_simulated=checks.check_simulated,
    summarise=checks.summarise,
    simulation_lines=checks.simulation_lines,
    default_games=checks.DEFAULT_GAMES,
    rulebook_terms=checks.rulebook_terms,
    rulebook_examples=rulebook_examples,
)
