"""The hooks the shared play checks call (issue 14): every table, the balance factors, coverage
items named with their content location, a seeded unreachable card reported where it is
defined, random tie-breaks, and the search player's determinisation."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from pnp.content.loader import load_game
from pnp.games.deadline_99 import GAME
from pnp.games.deadline_99.model import Deadline99, EffectKind
from pnp.games.deadline_99.play import (
    coverage_items,
    covered,
    evaluate,
    play_tables,
    seat_factors,
)
from pnp.games.deadline_99.policies import PassivePolicy, SafePolicy
from pnp.games.deadline_99.rules import Deadline99Rules, Mode, Play
from pnp.paths import REPOSITORY
from pnp.validate.checks import Findings
from pnp.validate.play import TableRun, check_coverage, play_many
from tests.validate.seeding import Seeding

SEEDING = Seeding("deadline-99")


@pytest.fixture(scope="module")
def model() -> Deadline99:
    return load_game(REPOSITORY / "content", "deadline-99").model  # type: ignore[no-any-return]


def test_every_table_the_content_supports(model: Deadline99) -> None:
    tables = play_tables(model)
    names = [table.name for table in tables]
    assert len(names) == len(set(names))
    normal = model.info.players
    camp = model.camp_mode.players
    # Normal and Angel-and-Death at every count; camp mode with and without the variant.
    assert len(tables) == 2 * len(list(normal)) + 2 * len(list(camp))
    assert f"normal-{normal.min}p" in names and f"camp+angel-death-{camp.max}p" in names
    assert all(table.max_turns for table in tables)


def test_coverage_items_are_all_named_with_their_content_location(model: Deadline99) -> None:
    items = coverage_items(model)
    # Every card (48 faces and the two variant cards), every effect kind, every identity.
    cards = [name for name in items if name.startswith("card:")]
    assert len(cards) == len(model.playing_cards) + len(model.variant_cards)
    assert "card:q-heart" in items and "card:angel" in items and "card:death" in items
    assert {f"effect:{kind.value}" for kind in EffectKind} <= set(items)
    assert {f"identity:{i.id}" for i in model.camp_mode.identities} <= set(items)
    assert {"choice:add", "choice:subtract", "ending:last_standing", "ending:king_out"} <= set(
        items
    )
    for name, where in items.items():
        assert where.path.startswith("content/deadline-99/"), name
        assert where.line > 0, name


def test_covered_names_only_known_items(model: Deadline99) -> None:
    items = set(coverage_items(model))
    seen: set[str] = set()
    for table in play_tables(model)[:: len(play_tables(model)) // 4]:
        rules = table.rules

        def observe(before: object, action: object, after: object, rules=rules) -> None:  # type: ignore[no-untyped-def]
            seen.update(covered(rules, before, action, after))

        from pnp.engines.base import RandomPolicy, play_game

        for seed in range(10):
            play_game(
                rules,
                [RandomPolicy()] * rules.num_players,
                random.Random(seed),
                table.max_steps,
                observe=observe,
            )
    assert seen <= items, sorted(seen - items)
    assert "card:3-spade" in seen and "effect:add" in seen


def test_an_unreachable_card_is_reported_never_exercised_at_its_line(
    content_copy: Path,
) -> None:
    # Seeded mistake: the Angel is printed but never shuffled in (0 copies), so no game can
    # ever play it; coverage must name it at its definition in variants.yaml.
    SEEDING.edit(content_copy, "variants.yaml", "    copies: 1\n", "    copies: 0\n")
    game = load_game(content_copy, "deadline-99")
    findings = Findings(game)
    tables = [t for t in play_tables(game.model) if t.name == "angel-death-5p"]
    runs = [
        TableRun(t.name, "random", tuple(play_many(GAME, t, ["random"] * 5, 60, 1, coverage=True)))
        for t in tables
    ]
    check_coverage(findings, GAME, game.model, runs)
    messages = {problem.message: problem for problem in findings.problems}
    problem = messages["never exercised in simulated play: card:angel (no game played it)"]
    assert problem.location.path.endswith("deadline-99/variants.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "variants.yaml", "id: angel")


def _tie_state(rules: Deadline99Rules, hand: str) -> object:
    # Seat 0 holds `hand`; the four others hold three cards each: every target is a tie.
    others = "3c,4c,5c"
    text = f"{hand}/{others}/{others}/{others}/{others} 50 + 0 - - 3 6s*2 - -"
    return rules.from_notation(text)


@pytest.mark.parametrize("policy", [SafePolicy(), PassivePolicy()], ids=repr)
def test_ties_are_broken_at_random_not_by_seat(model: Deadline99, policy: object) -> None:
    rules = Deadline99Rules(model, 5)
    # Sensible: J (steal) from any of four equal opponents. Passive: only a 7 or J left.
    state = _tie_state(rules, "js" if isinstance(policy, SafePolicy) else "7s,7h")
    choices = Counter(
        policy.choose(rules, state, random.Random(seed))  # type: ignore[attr-defined]
        for seed in range(200)
    )
    targets = Counter(action.target for action in choices.elements())
    assert set(targets) == {1, 2, 3, 4}, targets
    assert min(targets.values()) > 20, targets  # about 50 each


def test_the_sensible_policy_never_busts_with_a_safe_card(model: Deadline99) -> None:
    rules = Deadline99Rules(model, 5)
    state = rules.from_notation("9s,10s/3c/3c/3c/3c 95 + 0 - - 3 6s*2 - -")
    for seed in range(20):
        action = SafePolicy().choose(rules, state, random.Random(seed))
        assert action == Play("10s", -1)


def test_the_passive_policy_keeps_the_count_low(model: Deadline99) -> None:
    rules = Deadline99Rules(model, 5)
    state = rules.from_notation("qs,9s,3s,js/3c/3c/3c/3c 40 + 0 - - 3 6s*2 - -")
    assert PassivePolicy().choose(rules, state, random.Random(1)) == Play("qs", -1)


def test_resample_keeps_what_the_seat_sees(model: Deadline99) -> None:
    rules = Deadline99Rules(model, 6, Mode.CAMP)
    state = rules.initial_state(random.Random(3))
    for _ in range(12):
        state = rules.apply(state, SafePolicy().choose(rules, state, random.Random(0)))
        while rules.is_chance(state):
            state = rules.apply(state, rules.sample_chance(state, random.Random(0)))
    seat = state.seat
    guess = rules.resample(state, seat, random.Random(7))
    assert guess.hands[seat] == state.hands[seat]
    assert [len(h) for h in guess.hands] == [len(h) for h in state.hands]
    assert guess.discard == state.discard and guess.count == state.count
    assert len(guess.draw_pile) == len(state.draw_pile)
    assert rules.invariant_problems(guess) == []
    kings = [s for s, i in enumerate(state.identities) if i.endswith("king")]
    assert all(guess.identities[s] == state.identities[s] for s in [*kings, seat])
    assert sorted(guess.identities) == sorted(state.identities)


def test_factors_and_evaluation(model: Deadline99) -> None:
    normal = Deadline99Rules(model, 5)
    first = normal.initial_state(random.Random(1))
    factors = seat_factors(normal, first)
    assert factors["order"] == ("0", "1", "2", "3", "4")
    assert factors["half"] == ("first", "first", "first", "second", "second")
    assert sum(evaluate(normal, first)) == pytest.approx(1.0)
    camp = Deadline99Rules(model, 5, Mode.CAMP)
    start = camp.initial_state(random.Random(1))
    assert sorted(seat_factors(camp, start)["camp"]) == ["black", "black", "free", "red", "red"]
    assert all(0.0 <= value <= 1.0 for value in evaluate(camp, start))


def test_twelve_sensible_players_win_alike_in_either_half_of_the_table(
    model: Deadline99,
) -> None:
    # Issue 14: ties broken by seat number made the first seats the favourite targets (4 % for
    # seat 0, 14 % for seat 11). With random tie-breaks both halves win about 1/12.
    table = next(t for t in play_tables(model) if t.name == "normal-12p")
    played = play_many(GAME, table, ["sensible"] * 12, 150, 5, workers=1)
    first = sum(one.won(seat) for one in played for seat in range(6)) / (6 * len(played))
    second = sum(one.won(seat) for one in played for seat in range(6, 12)) / (6 * len(played))
    assert abs(first - second) < 0.03, (first, second)
