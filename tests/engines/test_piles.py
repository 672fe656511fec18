"""Piles as sorted tuples: the operations every engine's hands and decks go through."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pnp.engines.piles import distinct, with_card, without

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
