"""Piles of cards as sorted tuples of card codes: immutable, hashable, cheap to compare.

Engines keep hands, decks and discards this way so that states are values (apply never
mutates) and two positions with the same cards compare equal whatever the order of play.
"""

from __future__ import annotations

import bisect
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
