"""Maquis states: the copy every step makes."""

from __future__ import annotations

from dataclasses import fields

from pnp.games.maquis.state import MaquisState, _copy


def test_a_copy_is_a_new_state_holding_every_field_of_the_original() -> None:
    # The copier names each field by hand: one left out would be missing from every next state.
    values = {f.name: object() for f in fields(MaquisState)}
    state = MaquisState(**values)  # type: ignore[arg-type]
    copy = _copy(state)
    assert copy is not state and type(copy) is MaquisState
    assert {name: getattr(copy, name) for name in values} == values
