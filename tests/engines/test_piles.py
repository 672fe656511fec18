"""Piles as sorted tuples: the operations every engine's hands and decks go through."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pnp.engines.piles import distinct, shuffle, with_card, without

piles = st.lists(st.integers(0, 20), max_size=30).map(lambda cards: tuple(sorted(cards)))


@given(piles, st.integers(0, 20))
def test_adding_a_card_keeps_the_pile_sorted_and_one_longer(
    pile: tuple[int, ...], code: int
) -> None:
    grown = with_card(pile, code)
    assert grown == tuple(sorted((*pile, code)))


@given(piles, st.integers(0, 20))
def test_taking_a_card_out_undoes_adding_it(pile: tuple[int, ...], code: int) -> None:
    assert without(with_card(pile, code), code) == pile


def test_taking_out_a_card_the_pile_lacks_is_an_error() -> None:
    with pytest.raises(ValueError):
        without((1, 2, 2), 3)


def test_distinct_lists_each_card_once_in_order() -> None:
    assert distinct((1, 1, 2, 5, 5, 5)) == [1, 2, 5]


@given(st.lists(st.integers(0, 99), max_size=200), st.integers(0, 2**64))
def test_a_shuffle_is_the_generators_own_shuffle_from_the_same_draws(
    cards: list[int], seed: int
) -> None:
    # Seeded games (and the search's deals) stay what they were with random.Random.shuffle.
    ours, theirs = list(cards), list(cards)
    ours_rng, theirs_rng = random.Random(seed), random.Random(seed)
    shuffle(ours, ours_rng)
    theirs_rng.shuffle(theirs)
    assert ours == theirs
    assert ours_rng.getstate() == theirs_rng.getstate()


def test_a_generator_of_another_kind_shuffles_its_own_way() -> None:
    class Reversing(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            x.reverse()

    cards = [1, 2, 3]
    shuffle(cards, Reversing(1))
    assert cards == [3, 2, 1]
