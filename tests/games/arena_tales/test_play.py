"""Arena Tales' hooks for the shared play checks: tables, seat factors, coverage items (each
named and located), the search player's view of hidden cards, and policies that break ties at
random."""

from __future__ import annotations

import random
from pathlib import Path

from pnp.content.loader import load_game
from pnp.engines import hexgrid
from pnp.games.arena_tales import GAME, combat
from pnp.games.arena_tales.model import EffectKind
from pnp.games.arena_tales.play import coverage_items, covered, play_tables, seat_factors
from pnp.games.arena_tales.policies import PassivePolicy, SensiblePolicy, best, pick
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.games.arena_tales.state import ArenaState, Move, Play, Talent
from pnp.paths import REPOSITORY
from pnp.validate.checks import Findings
from pnp.validate.play import TableRun, check_coverage, play_many, play_seed
from tests.validate.seeding import Seeding

MODEL = load_game(REPOSITORY / "content", "arena-tales").model
SEEDING = Seeding("arena-tales", games=10)


def first_decision(rules: ArenaTalesRules, seed: int) -> ArenaState:
    """The first position where the active player chooses (after every player took their
    talent and the opening draws)."""
    rng = random.Random(seed)
    state = rules.initial_state(rng)
    while rules.is_chance(state) or isinstance(rules.legal_actions(state)[0], Talent):
        if rules.is_chance(state):
            state = rules.apply(state, rules.sample_chance(state, rng))
        else:
            state = rules.apply(state, Talent(True))
    return state


def test_every_player_count_is_a_table_with_drafted_characters() -> None:
    tables = play_tables(MODEL)
    assert [table.name for table in tables] == ["2p", "4p", "6p"]
    # Each game draws its own characters: over a few seeds every seat sees several.
    rules = tables[0].rules
    assert isinstance(rules, ArenaTalesRules)
    drawn = {rules.cast(rules.initial_state(random.Random(seed))) for seed in range(20)}
    assert len({cast[0] for cast in drawn}) > 3
    assert all(len(set(cast)) == 2 for cast in drawn)


def test_seats_are_labelled_by_character_and_side() -> None:
    rules = ArenaTalesRules(MODEL, 4, ["chiyan", "qinglan", "ziyuan", "jinzhong"])
    factors = seat_factors(rules, rules.initial_state(random.Random(1)))
    assert list(factors["character"]) == ["chiyan", "qinglan", "ziyuan", "jinzhong"]
    assert list(factors["side"]) == ["first", "second", "first", "second"]


def test_the_characters_of_a_position_survive_its_notation() -> None:
    rules = play_tables(MODEL)[1].rules
    assert isinstance(rules, ArenaTalesRules)
    state = rules.initial_state(random.Random(5))
    assert rules.cast(rules.from_notation(rules.notation(state))) == rules.cast(state)


def test_coverage_names_every_card_effect_action_element_terrain_and_ending_with_its_place() -> (
    None
):
    items = coverage_items(MODEL)
    for card in MODEL.cards:
        assert items[f"card:{card.id}"] == card.where
    used = {e.kind for card in MODEL.cards for e in card.effects}
    assert {f"effect:{kind.value}" for kind in used} <= set(items)
    assert EffectKind.MAINTAIN in used and "action:maintain" in items
    for boost in MODEL.elements:
        assert items[f"element:{boost.element.value}"] == boost.where
    for action in ("play", "move", "stall", "discard", "absorb-face-up", "dash", "let-go"):
        assert f"action:{action}" in items
    assert {"terrain:orientation-point", "terrain:pillar", "timing:response"} <= set(items)
    assert {"ending:all_down", "ending:exhausted"} <= set(items)
    assert all(where.path.endswith(".yaml") and where.line for where in items.values())


def test_a_step_reports_what_it_exercised() -> None:
    rules = ArenaTalesRules(MODEL, 2, ["chiyan", "ziyuan"])
    state = first_decision(rules, 3)
    action = next(a for a in rules.legal_actions(state) if isinstance(a, Move))
    after = rules.apply(state, action)
    items = set(covered(rules, state, action, after))
    # Seat 0 leaves the north orientation point.
    assert {"action:move", "terrain:orientation-point"} <= items
    # A talent is in play once its player uses it; skipping it is a decision of its own.
    start = rules.initial_state(random.Random(3))
    used = rules.apply(start, Talent(True))
    assert {"card:blazing-heart", "effect:damage_up"} <= set(
        covered(rules, start, Talent(True), used)
    )
    skipped = rules.apply(start, Talent(False))
    assert set(covered(rules, start, Talent(False), skipped)) == {"action:skip-talent"}


def test_an_unreachable_card_is_reported_as_never_exercised_where_it_is_defined(
    content_copy: Path,
) -> None:
    # A second talent in 青岚's colour: a talent drawn later can only be discarded, so no one
    # can ever play 风刃.
    SEEDING.edit(
        content_copy,
        "cards.yaml",
        "{id: wind-blade, name: 风刃, colour: cyan, type: damage,",
        "{id: wind-blade, name: 风刃, colour: cyan, type: talent,",
    )
    game = load_game(content_copy, "arena-tales")
    findings = Findings(game)
    table = play_tables(game.model)[0]
    played = play_many(GAME, table, ["random", "random"], 40, 1, coverage=True, workers=1)
    check_coverage(findings, GAME, game.model, [TableRun(table.name, "random", tuple(played))])
    problems = [p for p in findings.problems if "card:wind-blade" in p.message]
    assert len(problems) == 1
    problem = problems[0]
    assert problem.severity == "error"
    assert problem.message == (
        "never exercised in simulated play: card:wind-blade (no game played it)"
    )
    assert problem.location.path.endswith("arena-tales/cards.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "cards.yaml", "id: wind-blade")


def test_liveness_covers_the_passive_policy_and_it_ends() -> None:
    assert "passive" in GAME.policies
    for table in play_tables(MODEL):
        played = play_seed(GAME, table, ["passive"] * table.rules.num_players, 7)
        assert not played.capped
        assert played.winners


def test_the_search_player_sees_only_what_its_seat_may_see() -> None:
    rules = ArenaTalesRules(MODEL, 2, ["chiyan", "ziyuan"])
    state = first_decision(rules, 2)
    views = [rules.resample(state, 0, random.Random(seed)) for seed in range(8)]
    for view in views:
        mine, theirs = view.seats[0], view.seats[1]
        assert mine.hand == state.seats[0].hand and mine.display == state.seats[0].display
        assert len(theirs.hand) == len(state.seats[1].hand)
        assert len(theirs.life) == len(state.seats[1].life)
        assert sorted(theirs.hand + theirs.deck + theirs.life) == sorted(
            state.seats[1].hand + state.seats[1].deck + state.seats[1].life
        )
        assert rules.invariant_problems(view) == []
    assert len({view.seats[1].life for view in views}) > 1  # its face-down life, dealt anew


# -- ties at random ---------------------------------------------------------------------------


def test_helpers_pick_among_equals_with_the_injected_generator() -> None:
    options = [Play("jab"), Play("side-kick"), Play("quick-step")]
    assert {pick(options, random.Random(seed)) for seed in range(30)} == set(options)
    chosen = {best(options, lambda a: a.card == "jab", random.Random(s)) for s in range(30)}
    assert chosen == {Play("side-kick"), Play("quick-step")}


def test_the_sensible_step_among_equal_steps_is_chosen_at_random() -> None:
    # Far from the enemy, nothing hits: every step closer with a card of the same kind and cost
    # is as good as another, and leaving the orientation point allows any facing.
    rules = ArenaTalesRules(MODEL, 2, ["chiyan", "ziyuan"])
    state = first_decision(rules, 1)
    chosen = {SensiblePolicy().choose(rules, state, random.Random(s)) for s in range(40)}
    assert len(chosen) > 1
    assert len({a.facing for a in chosen if isinstance(a, Move)}) > 1


def test_the_passive_policy_deals_no_damage_when_it_can_help_it() -> None:
    rules = ArenaTalesRules(MODEL, 2, ["chiyan", "ziyuan"])
    state = first_decision(rules, 1)
    chosen = {PassivePolicy().choose(rules, state, random.Random(s)) for s in range(40)}
    assert len(chosen) > 1
    for action in chosen:
        assert not (isinstance(action, Play) and rules.card(action.card).damage)


def test_an_enemy_beyond_the_reach_limit_is_hit_by_no_play_and_no_step() -> None:
    """The sensible policy skips its previews when every enemy is beyond ``reach_limit``:
    in every decision of a few six-player games, nothing beyond it is hit, by a play now or
    by a card after a step (a bound that lied would change the policy's moves)."""
    rules = ArenaTalesRules(MODEL, 6, ["chiyan", "ziyuan", "bibo", "yanshan", "qinglan", "moying"])
    policy = SensiblePolicy()
    beyond = 0
    for seed in range(3):
        rng = random.Random(seed)
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            if rules.is_chance(state):
                state = rules.apply(state, rules.sample_chance(state, rng))
                continue
            actions = rules.legal_actions(state)
            if isinstance(actions[0], (Move, Play)):
                seat = state.seats[state.active]
                near = min(
                    hexgrid.distance(seat.pos, state.seats[e].pos)
                    for e in rules.enemies(state.active)
                )
                reach = combat.reach_limit(rules, seat)
                if near > reach:
                    beyond += 1
                    plays = [a for a in actions if isinstance(a, Play)]
                    assert all(combat.preview(rules, state, a) <= 0 for a in plays)
                if near - 1 > reach:
                    moves = [a for a in actions if isinstance(a, Move)]
                    assert not any(combat.threat(rules, state, move) for move in moves)
            state = rules.apply(state, policy.choose(rules, state, rng))
    assert beyond  # the games had decisions the limit decides
