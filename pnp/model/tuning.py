"""Which numbers of a game's content a designer lets ``pnp tune`` change, and which it must
never touch (``tuning:`` in content, usually ``tuning.yaml``)."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as setting

from pnp.errors import Location
from pnp.model.common import NOWHERE, doc


@dataclass(frozen=True)
class Tunable:
    """A number of every item a selector picks, with the bounds the tuner may move it in."""

    at: str = setting(
        metadata=doc(
            "the collection (a top-level key, e.g. cards) or a dotted path to a mapping "
            "(e.g. settings) that holds the number",
            nonempty=True,
        )
    )
    field: str = setting(
        metadata=doc(
            "the key of the number in each item, e.g. cost; dotted through nested keys and "
            "list positions, e.g. steps.2.pay.0.weapons",
            nonempty=True,
        )
    )
    min: int = setting(metadata=doc("the smallest value the tuner may give it"))
    max: int = setting(metadata=doc("the largest value the tuner may give it"))
    match: dict[str, str | int | bool] = setting(
        default_factory=dict,
        metadata=doc(
            "only the items of the collection whose keys have these values "
            "(e.g. {colour: red, type: damage}); a list's items all, when empty"
        ),
    )
    step: int = setting(default=1, metadata=doc("the smallest change the tuner makes", at_least=1))
    where: Location = setting(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Fixed:
    """Numbers a rules post sets: the tuner never proposes to change them."""

    at: str = setting(
        metadata=doc("the collection or dotted path to a mapping, as in tunable", nonempty=True)
    )
    fields: tuple[str, ...] = setting(
        metadata=doc(
            "the keys of the fixed numbers in each item (dotted, as in tunable)", nonempty=True
        )
    )
    reason: str = setting(
        metadata=doc("why they are fixed, e.g. the post that sets them", nonempty=True)
    )
    match: dict[str, str | int | bool] = setting(
        default_factory=dict, metadata=doc("only the items whose keys have these values")
    )
    where: Location = setting(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Tuning:
    """What ``pnp tune`` may change to bring broken balance promises back inside their bands."""

    tunable: tuple[Tunable, ...] = setting(
        default=(), metadata=doc("numbers the tuner may change, with bounds and step")
    )
    fixed: tuple[Fixed, ...] = setting(
        default=(), metadata=doc("numbers the tuner must never change (a post sets them)")
    )
    where: Location = setting(default=NOWHERE, compare=False, repr=False)
