"""Statistics every game's simulations share: rates with intervals and paired tests.

A balance figure without its interval proves nothing, so every rate pnp reports goes through
here: :func:`wilson` for a rate, :func:`sign_test` for two settings played on the same seeds.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.96
"""The two-sided 95 % quantile of the standard normal distribution, as customarily rounded."""


def z_over_looks(looks: int, alpha: float = 0.05) -> float:
    """The two-sided normal quantile each of ``looks`` judgements of the same figure must use
    for all of them together to be wrong with a chance of at most ``alpha`` (Bonferroni).

    A run that looks at its games after 25, 50, 100 ... and stops at the first decided look
    has as many chances to be fooled as it has looks: judged at a plain 95 % each time, a
    figure exactly on a promise's edge was called broken about one time in ten (9.7 % over
    six looks, simulated in tests/validate/test_play.py). One look is the customary 1.96."""
    if looks <= 1:
        return Z95
    return statistics.NormalDist().inv_cdf(1 - alpha / (2 * looks))


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95 % by default) of the rate ``successes / trials``.

    Unlike the normal approximation it stays inside [0, 1] and is honest at rates near 0 or 1
    and at small samples; with no trials it is the whole of [0, 1].
    """
    if trials <= 0:
        return 0.0, 1.0
    return wilson_of(successes / trials, trials, z)


def wilson_of(p: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson interval of an observed rate ``p`` worth ``trials`` independent trials (an
    effective count may be fractional: see :meth:`Rate.clustered`)."""
    if trials <= 0:
        return 0.0, 1.0
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def sign_test(more: int, fewer: int) -> float:
    """One-sided exact sign test: the chance of at least ``more`` heads in ``more + fewer``
    fair coin flips (McNemar's test on the discordant pairs of a paired comparison)."""
    flips = more + fewer
    if flips == 0:
        return 1.0
    tail: int = sum(math.comb(flips, k) for k in range(more, flips + 1))
    return tail / (1 << flips)


def binomial_two_sided(successes: int, trials: int, p: float) -> float:
    """Exact two-sided binomial test of ``successes`` in ``trials`` against rate ``p``: the
    total probability of every outcome no more likely than the one observed."""
    if trials <= 0:
        return 1.0

    def mass(k: int) -> float:
        return math.comb(trials, k) * p**k * (1 - p) ** (trials - k)

    observed = mass(successes)
    return min(1.0, sum(m for k in range(trials + 1) if (m := mass(k)) <= observed * (1 + 1e-9)))


@dataclass(frozen=True)
class Rate:
    """A rate with its Wilson interval (95 % unless judged over several looks)."""

    successes: int
    trials: int
    effective: float | None = None
    """Independent trials the rate is worth when its trials are not independent (two seats of
    one team win or lose together; one winner among the seats of a half): the interval is
    Wilson's at this count. None: every trial is independent."""
    z: float = Z95
    """The interval's normal quantile: wider than 95 %'s when the rate is one of several looks
    at the same figure (:func:`z_over_looks`)."""

    @classmethod
    def clustered(cls, clusters: Sequence[tuple[int, int]]) -> Rate:
        """The rate over ``(successes, trials)`` clusters, one per game: seats in one game are
        not independent trials, so the interval takes its width from the spread between games
        (the ratio estimator's variance; Kish's effective sample size). A cluster of one trial
        each gives the plain binomial interval; two seats that always win together count as
        one trial, not two."""
        successes = sum(won for won, _ in clusters)
        trials = sum(count for _, count in clusters)
        if not trials:
            return cls(0, 0)
        if all(count == 1 for _, count in clusters):
            return cls(successes, trials)
        rate = successes / trials
        spread = sum((won - rate * count) ** 2 for won, count in clusters) / (trials * trials)
        # Every game alike (all won, or all lost): as many trials as games, to be safe.
        effective = rate * (1 - rate) / spread if spread > 0.0 else float(len(clusters))
        return cls(successes, trials, effective)

    @property
    def value(self) -> float:
        return self.successes / self.trials if self.trials else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        if self.effective is None:
            return wilson(self.successes, self.trials, self.z)
        return wilson_of(self.value, self.effective, self.z)

    def __str__(self) -> str:
        low, high = self.interval
        return f"{self.value:.0%} [{low:.0%}–{high:.0%}]"


@dataclass(frozen=True)
class Lengths:
    """Game lengths of a batch: mean, median and longest."""

    mean: float
    median: float
    longest: int

    @classmethod
    def of(cls, lengths: Sequence[int]) -> Lengths:
        if not lengths:
            return cls(0.0, 0.0, 0)
        return cls(statistics.fmean(lengths), statistics.median(lengths), max(lengths))
