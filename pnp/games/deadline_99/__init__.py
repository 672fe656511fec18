"""Deadline 99 (死线99) as one package.

- ``model``: the content's dataclasses; ``rules``: state, actions and transitions;
- ``policies``: the hand-written players; ``simulation``: seeded batches of games;
- ``examples``: the example tables and the rulebook's worked examples; ``checks``: validation;
- ``play``: what the shared play checks need (tables, balance factors, coverage items).
"""

from __future__ import annotations

from pnp.games.deadline_99 import checks, play, view
from pnp.games.deadline_99.examples import example_tables, rulebook_examples, rulebook_positions
from pnp.games.deadline_99.model import Deadline99
from pnp.games.deadline_99.policies import PassivePolicy, SafePolicy
from pnp.games.deadline_99.rules import Deadline99Rules
from pnp.registry import Game

GAME = Game(
    slug="deadline-99",
    model=Deadline99,
    rules=Deadline99Rules,
    tables=example_tables,
    policies={"sensible": SafePolicy, "passive": PassivePolicy},
    check_static=checks.check_static,
    check_simulated=checks.check_simulated,
    summarise=checks.summarise,
    simulation_lines=checks.simulation_lines,
    default_games=checks.DEFAULT_GAMES,
    rulebook_terms=checks.rulebook_terms,
    rulebook_examples=rulebook_examples,
    rulebook_positions=rulebook_positions,
    play_tables=play.play_tables,
    seat_factors=play.seat_factors,
    game_factors=play.game_factors,
    coverage_items=play.coverage_items,
    covered=play.covered,
    evaluate=play.evaluate,
    search=play.SEARCH,
    claims=checks.claims,
    view=view.view,
)
