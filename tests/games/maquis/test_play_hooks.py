"""The hooks MAQUIS gives the shared play checks: tables, factors, coverage, scores, and the
policies' tie-breaks (issue 14)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pnp.content.loader import load_game
from pnp.engines.base import play_game
from pnp.games.maquis import GAME
from pnp.games.maquis.model import Maquis
from pnp.games.maquis.play import (
    DEALT,
    NOT_DEALT,
    coverage_items,
    covered,
    evaluate,
    game_factors,
    play_tables,
    score,
)
from pnp.games.maquis.policies import GreedyPolicy, PassivePolicy, best_of
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import Activate, Kill, MaquisState, Place
from pnp.validate.play import make_policy, policy_names
from tests.conftest import CONTENT
from tests.validate.seeding import Seeding, only

SEEDING = Seeding("maquis", games=10)


@pytest.fixture(scope="module")
def model() -> Maquis:
    loaded: Maquis = load_game(CONTENT, "maquis").model
    return loaded


def test_every_level_is_a_play_table(model: Maquis) -> None:
    tables = play_tables(model)
    assert [t.name for t in tables] == [level.id for level in model.difficulties]
    assert all(t.max_turns and t.max_steps > t.max_turns for t in tables)


def test_the_passive_policy_is_registered_and_liveness_plays_it() -> None:
    assert isinstance(make_policy(GAME, "passive"), PassivePolicy)
    assert "passive" in policy_names(GAME)


def test_game_factors_name_the_pair_and_each_mission(model: Maquis) -> None:
    rules = MaquisRules(model)
    first = rules.initial_state(random.Random(4))
    factors = game_factors(rules, first)
    assert factors["missions"] == "+".join(sorted(first.missions))
    for mission in model.missions:
        expected = DEALT if mission.id in first.missions else NOT_DEALT
        assert factors[f"mission:{mission.id}"] == expected


def test_every_coverage_item_says_where_content_defines_it(model: Maquis) -> None:
    items = coverage_items(model)
    for card in model.patrol_cards:
        assert items[f"card:{card.id}"] == card.where
    for mission in model.missions:
        assert items[f"mission:{mission.id}"] == mission.where
    for tile in model.vacant_tiles:
        assert f"tile:{tile.id}" in items
    assert "kill" in items and "effect:airdrop" in items and "gain:radio:1" in items
    for name, where in items.items():
        assert where.path.endswith(".yaml") and "maquis" in where.path, name
        assert where.line and where.line > 0, name


def test_what_play_covers_is_always_a_named_item(model: Maquis) -> None:
    items = set(coverage_items(model))
    seen: set[str] = set()
    for level in ("very-easy", "normal", "very-hard"):
        rules = MaquisRules(model, difficulty=level)
        for seed in range(6):
            policy = GreedyPolicy() if seed % 2 else make_policy(GAME, "random")

            def observe(before: Any, action: Any, after: Any, rules: Any = rules) -> None:
                seen.update(covered(rules, before, action, after))

            play_game(rules, [policy], random.Random(seed), 20_000, observe=observe)
    assert seen <= items, sorted(seen - items)
    assert {"card:patrol-01", "kill"} & seen and any(s.startswith("box:") for s in seen)


def test_a_draw_scores_a_half_and_evaluate_stays_in_range(model: Maquis) -> None:
    rules = MaquisRules(model)
    rng = random.Random(2)
    record = play_game(rules, [GreedyPolicy()], rng, 20_000)
    final = record.final_state
    expected = {"win": 1.0, "draw": 0.5, "loss": 0.0}[rules.result(final).value]
    assert score(rules, final) == [expected]
    state = rules.initial_state(random.Random(3))
    policy = GreedyPolicy()
    while not rules.is_terminal(state):
        assert 0.0 <= evaluate(rules, state)[0] <= 1.0
        action = (
            rules.sample_chance(state, rng)
            if rules.is_chance(state)
            else policy.choose(rules, state, rng)
        )
        state = rules.apply(state, action)


# -- tie-breaks -----------------------------------------------------------------------------


def test_best_of_breaks_a_tie_at_random() -> None:
    scored = [(1.0, "a"), (1.0, "b"), (0.5, "c"), (1.0, "d")]
    picks = Counter(best_of(scored, random.Random(seed)) for seed in range(300))
    assert set(picks) == {"a", "b", "d"}
    assert min(picks.values()) > 60


def _first_placement(model: Maquis) -> tuple[MaquisRules, Any]:
    rules = MaquisRules(model)
    return rules, rules.initial_state(random.Random(1))


def _every_space_worth_one(
    self: GreedyPolicy, rules: MaquisRules, s: MaquisState, spaces: Sequence[int]
) -> tuple[list[tuple[float, tuple[str, ...]]], list[float]]:
    """What the policy reads of every space's best option, replaced by one value for all (the
    policy's memo of real values stays as it was)."""
    return [(1.0, ("-",))] * len(spaces), []


@pytest.mark.parametrize("policy_type", [GreedyPolicy, PassivePolicy])
def test_placements_of_equal_worth_are_chosen_at_random(
    model: Maquis, policy_type: type[GreedyPolicy], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every space worth the same and equally safe: no space may win by its place in a list.
    rules, state = _first_placement(model)
    monkeypatch.setattr(policy_type, "arrest_risks", lambda self, r, s: [0.0] * len(r.locs))
    monkeypatch.setattr(policy_type, "_best_of_spaces", _every_space_worth_one)
    monkeypatch.setattr(policy_type, "_distances", lambda self, r, s: [0] * len(r.locs))
    places = [a for a in rules.legal_actions(state) if isinstance(a, Place)]
    picks = Counter(policy_type().choose(rules, state, random.Random(seed)) for seed in range(400))
    assert set(picks) == set(places)
    assert max(picks.values()) < 3 * 400 / len(places)


def test_activations_of_equal_worth_are_chosen_at_random(
    model: Maquis, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, state = _first_placement(model)
    rng = random.Random(5)
    while state.phase == "place":
        state = rules.apply(
            state,
            rules.sample_chance(state, rng)
            if rules.is_chance(state)
            else GreedyPolicy().choose(rules, state, rng),
        )
    monkeypatch.setattr(GreedyPolicy, "_best_of_spaces", _every_space_worth_one)
    workers = {a.loc for a in rules.legal_actions(state) if isinstance(a, Activate)}
    picks = Counter(
        GreedyPolicy().choose(rules, state, random.Random(seed)).loc for seed in range(200)
    )
    assert len(workers) > 1 and set(picks) == workers


def test_the_passive_player_never_kills(model: Maquis) -> None:
    for level in ("normal", "very-hard"):
        rules = MaquisRules(model, difficulty=level)
        for seed in range(4):
            record = play_game(
                rules, [PassivePolicy()], random.Random(seed), 20_000, record_actions=True
            )
            assert record.outcome is not None
            assert not any(isinstance(a, Kill) for a in record.actions)


# -- the validator reports what play never reaches -------------------------------------------


def test_an_unaffordable_cost_is_never_exercised(content_copy: Path) -> None:
    # Only 4 money tokens exist: a 5-money alternative can never be paid, and play says so.
    edit_line = SEEDING.line_of(content_copy, "board.yaml", "action: {pay: [{money: 1}], gain:")
    SEEDING.edit(
        content_copy,
        "board.yaml",
        "action: {pay: [{money: 1}], gain: [{resources: {medicine: 2}}]}",
        "action: {pay: [{money: 1}, {money: 5}], gain: [{resources: {medicine: 2}}]}",
    )
    problems = SEEDING.validate(content_copy, simulate=True, games=4)
    problem = only(problems, r"never exercised in simulated play: pay:pharmacy:1")
    assert problem.location.path.endswith("maquis/board.yaml")
    assert problem.location.line == edit_line
