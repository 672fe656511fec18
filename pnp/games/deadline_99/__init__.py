"""Deadline 99 (死线99) as one package.

- ``model``: the content's dataclasses; ``rules``: state, actions and transitions;
- ``policies``: the hand-written players; ``simulation``: seeded batches of games;
- ``examples``: the example tables and the rulebook's worked examples; ``checks``: validation.
"""

from __future__ import annotations

from pnp.games.deadline_99 import checks
from pnp.games.deadline_99.examples import example_tables, rulebook_examples
from pnp.games.deadline_99.model import Deadline99
from pnp.games.deadline_99.policies import SafePolicy
from pnp.games.deadline_99.rules import Deadline99Rules
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
