"""MineVenture as one package: model, rules, policies, checks, examples, and ``play``: the
hooks of the shared play checks (tables, character factors, coverage items, the strong
player's settings and evaluation hint)."""

from __future__ import annotations

from pnp.games.mineventure import checks, view
from pnp.games.mineventure.claims import claims
from pnp.games.mineventure.examples import example_tables, rulebook_examples, rulebook_positions
from pnp.games.mineventure.model import Mineventure
from pnp.games.mineventure.physical import observed_state, public_state
from pnp.games.mineventure.play import (
    SEARCH,
    coverage_items,
    covered,
    evaluate,
    play_tables,
    seat_factors,
)
from pnp.games.mineventure.policies import PassivePolicy, SensiblePolicy
from pnp.games.mineventure.rules import MineventureRules
from pnp.registry import Game

GAME = Game(
    slug="mineventure",
    model=Mineventure,
    rules=MineventureRules,
    tables=example_tables,
    policies={"sensible": SensiblePolicy, "passive": PassivePolicy},
    check_static=checks.check_static,
    check_simulated=checks.check_simulated,
    summarise=checks.summarise,
    simulation_lines=checks.simulation_lines,
    default_games=checks.DEFAULT_GAMES,
    rulebook_terms=checks.rulebook_terms,
    rulebook_examples=rulebook_examples,
    rulebook_positions=rulebook_positions,
    play_tables=play_tables,
    seat_factors=seat_factors,
    coverage_items=coverage_items,
    covered=covered,
    evaluate=evaluate,
    search=SEARCH,
    public_state=public_state,
    observed_state=observed_state,
    claims=claims,
    view=view.view,
)
