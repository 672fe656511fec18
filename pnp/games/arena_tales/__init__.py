"""Arena Tales (斗擂奇谭) as one package: model, state, rules (with its mixins movement and
turn), combat, effects, notation, policies, examples, simulation and checks; ``play`` holds
the hooks of the shared play checks (every table, seat factors, coverage items, the search
player's evaluation and settings)."""

from __future__ import annotations

from pnp.games.arena_tales import checks, view
from pnp.games.arena_tales.claims import claims
from pnp.games.arena_tales.examples import example_tables, rulebook_examples, rulebook_positions
from pnp.games.arena_tales.model import ArenaTales
from pnp.games.arena_tales.physical import public_state
from pnp.games.arena_tales.play import (
    SEARCH,
    coverage_items,
    covered,
    evaluate,
    play_tables,
    seat_factors,
)
from pnp.games.arena_tales.policies import PassivePolicy, SensiblePolicy
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.registry import Game

GAME = Game(
    slug="arena-tales",
    model=ArenaTales,
    rules=ArenaTalesRules,
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
    claims=claims,
    view=view.view,
)
