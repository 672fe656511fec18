"""Turn order and fair choices shared by every engine."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pnp.engines.seats import around, best, next_seat, team_of, winners_by_order


def test_around_the_table_from_a_seat() -> None:
    assert around(2, 4) == [2, 3, 0, 1]
    assert around(2, 4, direction=-1) == [2, 1, 0, 3]


def test_next_seat_skips_those_not_eligible() -> None:
    out = {1, 2}
    assert next_seat(0, 4, eligible=lambda s: s not in out) == 3
    assert next_seat(3, 4, direction=-1, eligible=lambda s: s not in out) == 0
    assert next_seat(0, 3, eligible=lambda s: False) is None


def test_next_seat_stops_before_the_given_seat() -> None:
    # Placement goes round once from the holder: after seat 3 of 4, stopping at holder 1.
    assert next_seat(3, 4, eligible=lambda s: s != 0, stop_at=1) is None
    assert next_seat(3, 4, stop_at=1) == 0


def test_teams_alternate_around_the_table() -> None:
    assert [team_of(seat, 2) for seat in range(6)] == [0, 1, 0, 1, 0, 1]


def test_best_breaks_ties_at_random_not_by_position() -> None:
    rng = random.Random(1)
    picks = Counter(best([0, 1, 2, 3], lambda option: option % 2, rng) for _ in range(4000))
    assert set(picks) == {1, 3}
    assert abs(picks[1] - picks[3]) < 250  # fair within sampling error (sd ~ 32)
    with pytest.raises(ValueError):
        best([], lambda option: 0, rng)


def test_winners_by_order_takes_the_first_in_order() -> None:
    assert winners_by_order({1, 3}, [3, 0, 1]) == frozenset({3})
    assert winners_by_order(set(), [0]) == frozenset()
