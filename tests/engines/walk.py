"""Walking a seeded game position by position, for tests that check every position."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from pnp.engines.base import Policy, Rules


def positions(
    rules: Rules[Any, Any], policy: Policy, seed: int, *, round_trip: bool = False
) -> Iterator[Any]:
    """Every position of one seeded game, ``policy`` in every seat. Each step checks that
    ``apply`` is pure (the state it was given reads the same afterwards, though the new one
    may share parts of it) and, with ``round_trip``, that the new position reads back from its
    notation."""
    rng = random.Random(seed)
    state = rules.initial_state(rng)
    while True:
        yield state
        if rules.is_terminal(state):
            return
        action = (
            rules.sample_chance(state, rng)
            if rules.is_chance(state)
            else policy.choose(rules, state, rng)
        )
        before = rules.notation(state)
        after = rules.apply(state, action)
        assert rules.notation(state) == before  # apply is pure
        if round_trip:
            assert rules.from_notation(rules.notation(after)) == after
        state = after
