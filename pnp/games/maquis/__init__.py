"""MAQUIS as one package: model, state, rules (with ``options``, what a worker may do on a
space; ``paths``, the way home; ``notation``), policies, checks, examples, and the hooks of
the shared play checks (tables, factors, coverage, scores, search settings)."""

from __future__ import annotations

from pnp.games.maquis import checks, play, view
from pnp.games.maquis.claims import claims
from pnp.games.maquis.examples import example_tables, rulebook_examples, rulebook_positions
from pnp.games.maquis.model import Maquis
from pnp.games.maquis.physical import public_state
from pnp.games.maquis.policies import GreedyPolicy, PassivePolicy
from pnp.games.maquis.rules import MaquisRules
from pnp.registry import Game, SearchSettings

GAME = Game(
    slug="maquis",
    model=Maquis,
    rules=MaquisRules,
    tables=example_tables,
    policies={"sensible": GreedyPolicy, "passive": PassivePolicy},
    check_static=checks.check_static,
    check_simulated=checks.check_simulated,
    claims=claims,
    summarise=checks.summarise,
    simulation_lines=checks.simulation_lines,
    default_games=checks.DEFAULT_GAMES,
    # The workshop's weapon is a rare choice of the sensible player (about one game in a
    # hundred): 30 games a level see it played, so coverage holds without a larger ladder run.
    play_games=30,
    rulebook_terms=checks.rulebook_terms,
    public_state=public_state,
    rulebook_examples=rulebook_examples,
    rulebook_positions=rulebook_positions,
    play_tables=play.play_tables,
    game_factors=play.game_factors,
    coverage_items=play.coverage_items,
    covered=play.covered,
    score=play.score,
    evaluate=play.evaluate,
    # The strong player: the sensible policy improved by 12 shared playouts a decision over 4
    # candidate moves, each played to the end by the sensible policy (halving search). The
    # one-step search scored by play.evaluate it replaced won 2 % on normal against the
    # sensible policy's 60 %: the hint rewards filled boxes a patrol then takes away. A game
    # costs about 1.7 s of CPU on an idle machine, 2-4 s on a busy one (6.8 s with 24 playouts
    # over 8 candidates); normal, 200 paired games from seed 1: 64 % against 59 % (p = 0.19,
    # not shown stronger; 69 % against 57 % over the first 150; 24 playouts over 8: 70 % against
    # 56 % over 150, p = 0.007); very-easy, 200 from seed 1: 80 % against 70 % (p = 0.008,
    # stronger), about 4 s of CPU a game under load; easy (68 % against 64 %, p = 0.23), hard,
    # harder and very-hard not shown stronger. The sensible policy now values a position's spaces
    # and best placements once (same moves): on normal 2.1-2.3 s a game against 2.8 s side by
    # side, still 2-4 s on a busy machine; the duels are unchanged (normal 64 % against 59 %,
    # p = 0.19; very-hard 33 % against 22 %, p = 0.014, over the sequential duel's 0.0125).
    # Playouts cut after 24 decisions and scored by play.evaluate cost 1.4 s but played
    # weaker: normal 54 % against 59 % over 200. With the arrest risks looked up per patrol
    # card (same moves again), a game costs 1.2-2.2 s on an idle machine (normal 1.55, hard
    # 1.2, very-easy and easy 2.2); the strong run of all six levels, 300 games each, took
    # 3,525 CPU-s. With the policies' memos keyed on numbers and sharing the values that recur
    # (same moves again), the garbage collector, a tenth of a game, runs ~40 % fewer passes:
    # alternating old and new code in the same minutes, 9 games a level, a game costs 5-7 %
    # less (six-level mean 2.03 -> 1.90 s), and the strong run of all six levels took 3,164
    # CPU-s (27.3 min on two cores), with the same win rates.
    search=SearchSettings(
        iterations=12, rollout="sensible", depth=None, method="halving", candidates=4
    ),
    view=view.view,
)
