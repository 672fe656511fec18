"""Piles of cards as sorted tuples of card codes: immutable, hashable, cheap to compare.

Engines keep hands, decks and discards this way so that states are values (apply never
mutates) and two positions with the same cards compare equal whatever the order of play.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Iterable


def distinct(cards: Iterable[int]) -> list[int]:
    """Each card code once, in order."""
    return sorted(set(cards))


def without(cards: tuple[int, ...], code: int) -> tuple[int, ...]:
    """The pile with one copy of `code` taken out (ValueError if it holds none)."""
    index = cards.index(code)
    return cards[:index] + cards[index + 1 :]


def with_card(cards: tuple[int, ...], code: int) -> tuple[int, ...]:
    """The sorted pile with one more copy of `code`."""
    index = bisect.bisect_right(cards, code)
    return (*cards[:index], code, *cards[index:])


def shuffle(pool: list[int], rng: random.Random) -> None:
    """``rng.shuffle(pool)``: the same order from the same draws of the generator, in half the
    time (the draw for each place inlined, where ``random.Random.shuffle`` calls a method per
    place: a search that deals hidden cards again per playout shuffles thousands of cards a
    decision). A generator of another kind shuffles as it does itself."""
    if type(rng) is not random.Random:
        rng.shuffle(pool)
        return
    getrandbits = rng.getrandbits
    for i in range(len(pool) - 1, 0, -1):
        # Random._randbelow(i + 1): the least number of bits, drawn again while too large.
        below = i + 1
        bits = below.bit_length()
        j = getrandbits(bits)
        while j >= below:
            j = getrandbits(bits)
        pool[i], pool[j] = pool[j], pool[i]
