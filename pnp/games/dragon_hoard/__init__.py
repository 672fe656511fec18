"""Dragon Hoard (魔龙宝窟) as one package.

- ``model``: the content's dataclasses and the speed-marker arithmetic;
- ``state``, ``actions``, ``notation``: a position, the moves, and their text;
- ``rules`` (with ``round``, the round after preparation, and ``board``, the effects on the
  map): the rules engine;
- ``policies``: the hand-written players; ``simulation`` and ``match``: seeded play and
  multi-game matches; ``examples``: the contract tables and the rulebook's worked examples;
- ``checks``: the content validator; ``physical``: the public state the kit must show;
  ``play``: the hooks of the shared play checks (tables, seat factors, coverage items, the
  search player's evaluation hint).
"""

from __future__ import annotations

from pnp.games.dragon_hoard import checks, view
from pnp.games.dragon_hoard.claims import claims
from pnp.games.dragon_hoard.examples import example_tables, rulebook_examples, rulebook_positions
from pnp.games.dragon_hoard.model import DragonHoard
from pnp.games.dragon_hoard.physical import public_state
from pnp.games.dragon_hoard.play import (
    SEARCH,
    coverage_items,
    covered,
    evaluate,
    play_tables,
    seat_factors,
)
from pnp.games.dragon_hoard.policies import PassivePolicy, TreasureHunterPolicy
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.registry import Game

GAME = Game(
    slug="dragon-hoard",
    model=DragonHoard,
    rules=DragonHoardRules,
    tables=example_tables,
    policies={"sensible": TreasureHunterPolicy, "passive": PassivePolicy},
    check_static=checks.check_static,
    check_simulated=checks.check_simulated,
    claims=claims,
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
    view=view.view,
)
