"""The contract every registered engine keeps, checked by random play (OpenSpiel's habit).

Every game announced with an engine plays the tables its ``Game.tables`` picks from the shipped
content (an engine without tables fails). For a few seeds of each table:
the game ends before the cap; ``legal_actions`` is empty exactly when the game is over;
``current_player`` is None exactly at chance steps and at the end; chance outcomes sum to 1;
``apply`` leaves its argument untouched; the notation of every position reads back to the same
position and every action's text reads back to the same action; an action that is not legal
raises IllegalActionError quoting the position; the same seed plays the same game.
"""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from pnp import registry
from pnp.content.loader import load_game
from pnp.engines.base import Declaration, Outcome, RandomPolicy, Rules, play_game
from pnp.errors import IllegalActionError, UnknownGameError
from pnp.paths import REPOSITORY

SEEDS = range(10)
"""Whole random games a table, every step of each checked..."""
POSITIONS = 1_500
"""...until a thousand and a half positions are: a long game (MineVenture's 500 steps) stops
after three seeds, where ten cost the suite 15 s for positions of the same kinds."""
MAX_STEPS = 200_000


def _cases() -> list[Any]:
    cases = []
    for game in registry.with_engine():
        if game.tables is None:
            cases.append(pytest.param(game.slug, None, id=f"{game.slug}-no-tables"))
            continue
        model = load_game(REPOSITORY / "content", game.slug).model
        cases.extend(
            pytest.param(game.slug, rules, id=f"{game.slug}-{name}")
            for name, rules in game.tables(model)
        )
    return cases


class _NotAnAction:
    def __repr__(self) -> str:
        return "NotAnAction()"


def test_registry_knows_the_games() -> None:
    assert {"deadline-99", "dragon-hoard", "arena-tales", "mineventure", "maquis"} <= set(
        registry.games()
    )
    assert registry.game_for("deadline-99").rules is not None
    with pytest.raises(UnknownGameError, match=r"no game package for 'deadline99' \(did you mean"):
        registry.game_for("deadline99")


@pytest.mark.parametrize(("slug", "rules"), _cases())
def test_random_play_contract(slug: str, rules: Rules[Any, Any] | None) -> None:
    assert rules is not None, f"game {slug!r} has an engine but no tables to play"
    declared = rules.declares()
    assert isinstance(declared, Declaration) and declared.game == slug
    assert declared.effects and declared.modes and declared.settings

    checked = 0
    for seed in SEEDS:
        if checked >= POSITIONS:
            break
        rng = random.Random(seed)
        state = rules.initial_state(rng)
        steps = 0
        actions_seen = []
        while True:
            text = rules.notation(state)
            assert rules.notation(rules.from_notation(text)) == text
            assert rules.from_notation(text) == state
            legal = rules.legal_actions(state)
            terminal = rules.is_terminal(state)
            assert (not legal) == terminal, text
            player = rules.current_player(state)
            assert (player is None) == (terminal or rules.is_chance(state)), text
            if terminal:
                break
            with pytest.raises(IllegalActionError, match=r"^illegal action NotAnAction\(\) in "):
                rules.apply(state, _NotAnAction())
            if player is None:
                outcomes = rules.chance_outcomes(state)
                assert math.isclose(sum(p for _, p in outcomes), 1.0)
                action = rules.sample_chance(state, rng)
                assert action in {a for a, _ in outcomes}
            else:
                action = RandomPolicy().choose(rules, state, rng)
            assert action in legal
            assert rules.parse_action(str(action)) == action
            after = rules.apply(state, action)
            assert rules.notation(state) == text  # apply is pure
            actions_seen.append(action)
            state = after
            steps += 1
            checked += 1
            assert steps < MAX_STEPS, f"seed {seed}: no end after {steps} steps in {text}"
        outcome = rules.outcome(state)
        assert isinstance(outcome, Outcome)
        assert outcome.winners <= set(range(rules.num_players))

        replay = play_game(
            rules,
            [RandomPolicy()] * rules.num_players,
            random.Random(seed),
            MAX_STEPS,
            record_actions=True,
        )
        assert list(replay.actions) == actions_seen  # same seed, same game
        assert replay.outcome == outcome and not replay.capped


@pytest.mark.parametrize(("slug", "rules"), _cases())
def test_outcome_of_an_unfinished_game_is_an_error(
    slug: str, rules: Rules[Any, Any] | None
) -> None:
    assert rules is not None
    state = rules.initial_state(random.Random(0))
    with pytest.raises(ValueError, match="game not over: "):
        rules.outcome(state)


def test_play_game_reports_a_cap_hit() -> None:
    game = registry.game_for("deadline-99")
    assert game.tables is not None
    rules = game.tables(load_game(REPOSITORY / "content", "deadline-99").model)[0][1]
    record = play_game(rules, [RandomPolicy()] * rules.num_players, random.Random(0), 3)
    assert record.capped and record.outcome is None and record.steps == 3


@pytest.mark.parametrize("slug", sorted(game.slug for game in registry.with_engine()))
def test_the_strong_player_plays_every_engine(slug: str) -> None:
    """The generic search player needs nothing of a game beyond the protocol: in one seat of
    the game's first play table, against its own policy, every game ends, and the same seed
    plays the same game."""
    from pnp.validate.play import game_tables, play_seed

    game = registry.game_for(slug)
    model = load_game(REPOSITORY / "content", slug).model
    table = game_tables(game, model)[0]
    others = "sensible" if "sensible" in game.policies else "random"
    seats = ["strong:3:6", *[others] * (table.rules.num_players - 1)]
    for seed in (1, 2):
        played = [play_seed(game, table, seats, seed) for _ in range(2)]
        assert not played[0].capped, f"{slug}: seed {seed} capped at {played[0].capped_at}"
        assert played[0] == played[1]
