"""MAQUIS: the rules memoise what a step asks again and again (each worker's options, the
placeable spaces, the safe houses, the ways home, the open mission steps) and build each new
state in one call. Both must be invisible: in every position of seeded games of every policy
and level, the memoised answers are the ones computed afresh, ``apply``'s legality check agrees
with ``legal_actions`` on every action, legal or not, and a step leaves its state untouched."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import fields, replace
from typing import Any

import pytest

from pnp.content.loader import load_game
from pnp.engines.base import Policy, RandomPolicy
from pnp.errors import IllegalActionError
from pnp.games.maquis.model import LocationKind
from pnp.games.maquis.policies import GreedyPolicy, PassivePolicy
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import (
    WORKER,
    Activate,
    Kill,
    MaquisState,
    PatrolDraw,
    Place,
    Return,
    Stay,
    evolve,
)
from tests.conftest import CONTENT
from tests.engines.walk import positions

MODEL = load_game(CONTENT, "maquis").model
LEVELS = ("very-easy", "normal", "very-hard")
TABLES = {level: MaquisRules(MODEL, difficulty=level) for level in LEVELS}


def choices(rules: MaquisRules) -> list[str]:
    """Every choice text an activation can carry, and some no option has."""
    keys = ["-", "c", "g0", "g1", "g0d0", "g0d1", "p0g0", "p0g1", "p1g0", "p1g1", "p2g0"]
    keys += [f"g1d{k}@{rules.locs[z].id}" for k in range(3) for z in rules.zones]
    keys += ["g1d0@no-such-zone", "g1d0@"]
    keys += [f"b={tile}" for tile in rules.tiles]
    keys += [f"m{slot}.{k}p{p}" for slot in range(2) for k in range(6) for p in range(2)]
    return [*keys, "p9g9", "nonsense", ""]


def candidates(rules: MaquisRules) -> Iterator[object]:
    """Actions of every kind a position could be asked about, on every space and card, and
    names that do not exist."""
    yield from (Stay(), Return(), "stay")
    for loc in [*(loc.id for loc in rules.locs), "no-such-space"]:
        yield Place(loc)
        yield Kill(loc)
        for choice in choices(rules):
            yield Activate(loc, choice)
    for card in [*(card.id for card in rules.cards), "no-such-card"]:
        yield PatrolDraw(card)


def safe_house(rules: MaquisRules, s: MaquisState, i: int) -> bool:
    """A printed safe house, or a vacant house whose tile is one (asked afresh)."""
    if i in rules.safe:
        return True
    if rules.locs[i].kind is LocationKind.VACANT:
        tile = s.tiles[rules.vacant.index(i)]
        return bool(tile) and rules.tiles[tile].safe_house
    return False


def check_position(rules: MaquisRules, state: MaquisState, *, try_apply: bool) -> None:
    where = rules.notation(state)
    # The memoised answers are the ones computed afresh.
    assert rules.placeable(state) == rules._list_placeable(state), where
    for i, c in enumerate(state.board):
        assert rules.options(state, i) == rules._list_options(state, i, state.stock), (i, where)
        assert rules.has_path_home(state, i) == rules._find_path_home(i, state.board, state.tiles)
        assert rules.is_safe_house(state, i) is safe_house(rules, state, i), (i, where)
        if c == WORKER:
            rich = replace(state, stock=rules.limit)
            assert rules._options(state, i, rules.limit) == rules.options(rich, i)
    if state.active >= 0 and state.pending not in ("", "-"):
        # The acting worker's option, memoised, is the one listed afresh with every token in
        # stock; a kill's check asks his hand only when it could pay, and agrees with it.
        fresh = rules._list_options(state, state.active, rules.limit)
        chosen = rules._option_for(state, state.active, state.pending)
        assert chosen == next(o for o in fresh if o.key == state.pending), where
        if not rules._affords(state.stock, rules.kill_cost):
            in_full = rules._affords(rules._with_hand(state), rules.kill_cost)
            assert rules._armed_by_hand(state) is in_full, where
    # apply's check agrees with legal_actions on every action, legal or not.
    legal = rules.legal_actions(state)
    for action in legal:
        assert rules._is_legal(state, action), (action, where)
    for candidate in candidates(rules):
        expected = candidate in legal
        assert rules._is_legal(state, candidate) is expected, (candidate, where)
        if try_apply and not expected:
            with pytest.raises(IllegalActionError):
                rules.apply(state, candidate)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("policy", [RandomPolicy(), GreedyPolicy(), PassivePolicy()], ids=repr)
def test_memoised_answers_and_the_legality_check_agree_everywhere(
    level: str, policy: Policy
) -> None:
    rules = TABLES[level]
    phases = set()
    for seed in range(3):
        for number, state in enumerate(positions(rules, policy, seed, round_trip=True)):
            if number % 3 == 0:
                check_position(rules, state, try_apply=number % 30 == 0)
                phases.add(state.phase)
    assert phases >= {"place", "act"}


def test_evolve_is_replace() -> None:
    # One positional construction gives the state dataclasses.replace gives, field by field.
    rules = TABLES["normal"]
    state = rules.initial_state(random.Random(1))
    changes: dict[str, Any] = {
        "day": 3,
        "board": WORKER * len(state.board),
        "spent": (1,) * len(rules.res),
    }
    new = evolve(state, **changes)
    assert new == replace(state, **changes) and type(new) is MaquisState
    assert all(
        getattr(new, f.name) == getattr(state, f.name)
        for f in fields(state)
        if f.name not in changes
    )
    assert hash(new) == hash(replace(state, **changes))
