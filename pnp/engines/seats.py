"""Seat bookkeeping every table game repeats: turn order around the table and fair choices.

Seats are numbered 0..n-1 clockwise. These helpers are pure functions of plain integers, so
an engine keeps its own state and asks here only the questions of order.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import TypeVar

T = TypeVar("T")


def around(start: int, seats: int, direction: int = 1) -> list[int]:
    """Every seat once, beginning with ``start`` and going ``direction`` (+1 clockwise)."""
    return [(start + direction * k) % seats for k in range(seats)]


def next_seat(
    seat: int,
    seats: int,
    *,
    direction: int = 1,
    eligible: Callable[[int], bool] | None = None,
    stop_at: int | None = None,
) -> int | None:
    """The first seat after ``seat`` going ``direction`` that is ``eligible``.

    The search goes once around the table (``seat`` itself last) and stops early before
    ``stop_at``; None when no seat qualifies.
    """
    for k in range(1, seats + 1):
        candidate = (seat + direction * k) % seats
        if candidate == stop_at:
            return None
        if eligible is None or eligible(candidate):
            return candidate
    return None


def team_of(seat: int, teams: int) -> int:
    """The team of a seat when teams alternate around the table (A B A B …)."""
    return seat % teams


def best(options: Sequence[T], score: Callable[[T], float], rng: random.Random) -> T:
    """The option with the highest score, ties broken uniformly at random with ``rng``.

    A policy that breaks ties by position (the first action, the lowest seat) gives the seats
    a bias the game does not have; this is the fair way to pick.
    """
    if not options:
        raise ValueError("best() of no options")
    top: list[T] = []
    top_score = float("-inf")
    for option in options:
        value = score(option)
        if value > top_score:
            top, top_score = [option], value
        elif value == top_score:
            top.append(option)
    return top[0] if len(top) == 1 else top[int(rng.random() * len(top))]


def winners_by_order(candidates: Iterable[int], order: Sequence[int]) -> frozenset[int]:
    """The candidate that comes first in ``order`` (a tie-break such as 'who left first')."""
    chosen = set(candidates)
    for seat in order:
        if seat in chosen:
            return frozenset({seat})
    return frozenset()
