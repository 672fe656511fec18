"""Every game's seat views against the engine: a seat sees only what it may know, and is
offered exactly the engine's legal actions.

The engine's ``resample(state, seat, rng)`` deals again everything ``seat`` cannot see (the
other hands, face-down cards, the draw piles): a view that shows a seat anything hidden from
it changes with that deal, so each seat's scene and moves must come out the same for the real
position and for resampled ones. This holds every game to "no seat sees another seat's hidden
cards" with no list of what is hidden in each.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest

from pnp.content.loader import load_game
from pnp.engines.view import DefaultView, GameView, scene_json
from pnp.registry import Game, with_engine
from pnp.validate.play import game_tables
from tests.conftest import CONTENT

STEPS = 160
"""Positions of each seeded game looked at (every one of them, chance steps included)."""
RESAMPLES = 2
STRIDE = 3
"""The resample test looks at every third of those positions: a hidden card stays hidden for
many steps, so a leak shows at any of them, and each look costs a scene per seat per deal."""


@functools.cache
def _model(slug: str) -> Any:
    return load_game(CONTENT, slug).model


def _views(game: Game, rules: Any) -> GameView:
    return game.view(rules) if game.view is not None else DefaultView(rules)


def _positions(rules: Any, seed: int) -> list[tuple[Any, list[Any]]]:
    """The positions of a seeded random game with the actions that led to each."""
    rng = random.Random(seed)
    state = rules.initial_state(rng)
    played: list[Any] = []
    found = [(state, [])]
    for _ in range(STEPS):
        if rules.is_terminal(state):
            break
        actions = rules.legal_actions(state)
        action = (
            rules.sample_chance(state, rng)
            if rules.is_chance(state)
            else actions[int(rng.random() * len(actions))]
        )
        state = rules.apply(state, action)
        played.append(action)
        found.append((state, list(played)))
    return found


def _tables(game: Game, model: Any) -> list[Any]:
    """One table per player count (the first of each: modes share their views)."""
    seen: set[int] = set()
    chosen = []
    for table in game_tables(game, model):
        if table.rules.num_players not in seen:
            seen.add(table.rules.num_players)
            chosen.append(table)
    return chosen


def _fewest_and_most_players(tables: list[Any]) -> list[Any]:
    """A view is one function of the seat: the smallest and the largest table show a leak that
    depends on how many seats there are; the counts between repeat them at a scene per seat."""
    return [tables[0], tables[-1]] if len(tables) > 1 else tables


@pytest.mark.parametrize("game", with_engine(), ids=lambda game: game.slug)
def test_a_seat_sees_nothing_a_resampled_position_would_change(game: Game) -> None:
    model = _model(game.slug)
    for table in _fewest_and_most_players(_tables(game, model)):
        rules = table.rules
        if not hasattr(rules, "resample"):
            continue
        view = _views(game, rules)
        rng = random.Random(7)
        for index, (state, played) in enumerate(_positions(rules, seed=3)):
            if index % STRIDE:
                continue
            for seat in range(rules.num_players):
                seen = scene_json(view.scene(state, seat, played))
                moves = view.moves(state, seat)
                for _ in range(RESAMPLES):
                    other = rules.resample(state, seat, rng)
                    assert scene_json(view.scene(other, seat, played)) == seen, (
                        f"{game.slug} {table.name}: seat {seat}'s view changes with what it "
                        f"cannot see, at step {index}: {rules.notation(state)}"
                    )
                    assert view.moves(other, seat) == moves


@pytest.mark.parametrize("game", with_engine(), ids=lambda game: game.slug)
def test_the_moves_offered_are_the_engines_legal_actions(game: Game) -> None:
    model = _model(game.slug)
    for table in _tables(game, model):
        rules = table.rules
        view = _views(game, rules)
        for state, played in _positions(rules, seed=5):
            json.dumps(scene_json(view.scene(state, None, played)))
            seat = rules.current_player(state)
            if seat is None:
                continue
            offered = [move.action for move in view.moves(state, seat)]
            legal = [str(action) for action in rules.legal_actions(state)]
            assert sorted(offered) == sorted(legal), f"{game.slug} {table.name}"
            assert len(set(offered)) == len(offered)
            for other in range(rules.num_players):
                if other != seat:
                    assert view.moves(state, other) == []
