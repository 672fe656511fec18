"""Dragon Hoard's hooks for the shared play checks: tables, seat factors, coverage items (each
named and located, exercised exactly), and policies that break ties at random."""

from __future__ import annotations

import random
from pathlib import Path

from pnp.content.loader import load_game
from pnp.games.dragon_hoard import GAME
from pnp.games.dragon_hoard.actions import Heirloom, Place, Walk
from pnp.games.dragon_hoard.play import coverage_items, covered, play_tables, seat_factors
from pnp.games.dragon_hoard.policies import PassivePolicy, TreasureHunterPolicy
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.state import Stage, _copy
from pnp.paths import REPOSITORY
from pnp.validate.checks import Findings
from pnp.validate.play import check_play, play_seed
from tests.validate.seeding import Seeding

MODEL = load_game(REPOSITORY / "content", "dragon-hoard").model
SEEDING = Seeding("dragon-hoard", games=10)


def test_every_player_count_is_a_table() -> None:
    assert [table.name for table in play_tables(MODEL)] == ["2p", "3p", "4p"]


def test_seats_are_labelled_by_the_side_of_their_entry() -> None:
    rules = DragonHoardRules(MODEL, 4)
    factors = seat_factors(rules, rules.initial_state(random.Random(1)))
    # Decision `seats-and-entries`: at 4 players seat 0 enters at 2 (west), then 3, 4, 1.
    assert list(factors["entry"]) == ["west", "north", "east", "south"]
    assert list(factors["character"]) == ["ranger", "scholar", "thief", "knight"]


def test_coverage_names_every_card_effect_treasure_and_terrain_with_its_place() -> None:
    items = coverage_items(MODEL)
    for card in MODEL.ai_cards:
        assert items[f"ai-card:{card.id}"] == card.where
    for action in MODEL.action_cards:
        assert items[f"action-card:{action.id}"] == action.where
    for kind in ("move", "dodge", "grab", "sprint"):
        assert f"action-kind:{kind}" in items
    for kind in ("attack", "advance", "return", "traps"):
        assert f"ai-effect:{kind}" in items
    assert {"treasure-effect:teleport", "treasure-effect:dodge"} <= set(items)
    assert len([i for i in items if i.startswith("terrain:exit:")]) == len(MODEL.lair.exits)
    assert len([i for i in items if i.startswith("terrain:gate:")]) == len(MODEL.lair.gates)
    assert len([i for i in items if i.startswith("terrain:trap:")]) == len(MODEL.lair.traps)
    assert {"rule:reveal", "rule:grab-steals", "rule:heirloom"} <= set(items)
    # Every item is located in a content file.
    assert all(where.path.endswith(".yaml") and where.line for where in items.values())


def test_a_step_reports_what_it_exercised() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = rules.initial_state(random.Random(1))
    # Seat 0 on its entry [6, 12] sprints north one cell in preparation: the sprint card.
    action = next(a for a in rules.legal_actions(state) if str(a).startswith("prep:sprint>n"))
    after = rules.apply(state, action)
    items = set(covered(rules, state, action, after))
    assert {"action-card:sprint", "action-kind:sprint"} <= items
    assert rules.trace is None  # tracing is off again in ordinary play


def test_an_unreachable_card_is_reported_as_never_exercised_where_it_is_defined(
    content_copy: Path,
) -> None:
    # A card no colour's set deals: no player can ever play it.
    SEEDING.edit(
        content_copy,
        "players.yaml",
        "  - {id: sprint,",
        "  - {id: leap, name: 飞跃, kind: move, direction: n, steps: 3, phases: [placement]}\n"
        "  - {id: sprint,",
    )
    game = load_game(content_copy, "dragon-hoard")
    findings = Findings(game)
    check_play(findings, GAME, game.model, games=4, seed=1, workers=1)
    problems = [p for p in findings.problems if "action-card:leap" in p.message]
    assert len(problems) == 1
    problem = problems[0]
    assert problem.severity == "error"
    assert (
        problem.message == "never exercised in simulated play: action-card:leap (no game played it)"
    )
    assert problem.location.path.endswith("dragon-hoard/players.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "players.yaml", "id: leap")


def test_liveness_covers_the_passive_policy_and_it_ends() -> None:
    assert "passive" in GAME.policies
    for table in play_tables(MODEL):
        played = play_seed(GAME, table, ["passive"] * table.rules.num_players, 7)
        assert not played.capped
        assert played.winners == frozenset()  # nobody ever leaves: the deck ends the game


# -- ties at random ---------------------------------------------------------------------------


def test_the_sensible_heirloom_among_equal_treasures_is_chosen_at_random() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = _copy(rules.initial_state(random.Random(1)))
    gem, scale = rules.treasure_ids.index("gem"), rules.treasure_ids.index("dragon-scale")
    assert rules.value[gem] == rules.value[scale]
    state.bags = ((gem, scale), ())
    picks = {
        str(TreasureHunterPolicy().choose(rules, state, random.Random(seed))) for seed in range(40)
    }
    assert picks == {str(Heirloom("gem")), str(Heirloom("dragon-scale"))}


def test_the_sensible_move_between_equally_near_treasures_is_chosen_at_random() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = _copy(rules.initial_state(random.Random(1)))
    gold = rules.treasure_ids.index("gold")
    # Seat 0 on [6, 12] with a gold two cells east and two cells west, nothing else on the floor.
    state.stage, state.actor, state.current = Stage.PLACEMENT, 0, 0
    state.floor = ((4, 12, gold), (8, 12, gold))
    policy = TreasureHunterPolicy(patience=0.0)
    picks = {str(policy.choose(rules, state, random.Random(seed))) for seed in range(40)}
    assert picks == {str(Place("move-e")), str(Place("move-w"))}


def test_the_passive_policy_takes_no_risk() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = _copy(rules.initial_state(random.Random(1)))
    state.stage, state.actor, state.current = Stage.PLACEMENT, 0, 0
    assert str(PassivePolicy().choose(rules, state, random.Random(1))) == "place:dodge"
    assert type(PassivePolicy().choose(rules, state, random.Random(1))) is not Walk
