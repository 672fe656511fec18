"""The shared statistics: the figures match textbook values, so every balance claim rests on
the right interval."""

from __future__ import annotations

import pytest

from pnp.engines.stats import Lengths, Rate, binomial_two_sided, sign_test, wilson


def test_wilson_interval_of_a_win_rate() -> None:
    low, high = wilson(55, 100)
    assert 0.45 < low < 0.46 and 0.64 < high < 0.65
    assert wilson(0, 100)[0] == 0.0
    assert wilson(100, 100)[1] == pytest.approx(1.0)


def test_no_trials_is_the_whole_interval() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_sign_test_is_the_binomial_tail() -> None:
    # 9 of 10 discordant pairs one way: P(X >= 9 | n=10, p=1/2) = 11/1024.
    assert sign_test(9, 1) == pytest.approx(11 / 1024)
    assert sign_test(0, 0) == 1.0
    assert sign_test(5, 5) > 0.5


def test_two_sided_binomial_test() -> None:
    # 60 heads in 100 fair flips: p ~ 0.057 two-sided.
    assert binomial_two_sided(60, 100, 0.5) == pytest.approx(0.0569, abs=1e-3)
    assert binomial_two_sided(50, 100, 0.5) == pytest.approx(1.0)


def test_rate_prints_its_interval() -> None:
    assert str(Rate(55, 100)) == "55% [45%–64%]"


def test_lengths_of_a_batch() -> None:
    lengths = Lengths.of([3, 5, 10])
    assert (lengths.mean, lengths.median, lengths.longest) == (6.0, 5, 10)
    assert Lengths.of([]) == Lengths(0.0, 0.0, 0)


def test_a_rate_of_independent_trials_is_the_plain_binomial_one() -> None:
    clustered = Rate.clustered([(1, 1)] * 55 + [(0, 1)] * 45)
    assert clustered == Rate(55, 100)
    assert clustered.interval == wilson(55, 100)


def test_half_a_table_with_one_winner_among_its_seats_is_surer_than_its_seat_count() -> None:
    # Two of four seats, one winner a game: the half wins 1 seat in 2 or none, never both,
    # so its rate varies less between games than two independent seats' would.
    half = Rate.clustered([(1, 2), (0, 2)] * 50)
    assert half.value == 0.25
    assert half.effective is not None and half.effective > half.trials
    assert half.interval[1] - half.interval[0] < wilson(50, 200)[1] - wilson(50, 200)[0]
