"""A memo per object, found by the object's identity: for the tables a policy or a set of
rules works out once per table (or per model) and reads at every step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

Key = TypeVar("Key")
Value = TypeVar("Value")


class ByIdentity(Generic[Key, Value]):
    """Values made once per key object and found by its identity (the keys need not hash).

    It holds its keys, so an ``id`` is never reused while its value is kept, and it starts
    afresh past ``limit`` of them: a ``pnp play`` or ``pnp tune`` process makes tables for
    hours. (A WeakKeyDictionary would let a key go with its last user, but a class compiled
    with mypyc takes no weak references: see pnp.validate.compiled.)"""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._held: dict[int, tuple[Key, Value]] = {}

    def get(self, key: Key, make: Callable[[], Value]) -> Value:
        """The value kept for ``key``, made by ``make`` the first time it is asked for."""
        held = self._held.get(id(key))
        if held is not None and held[0] is key:
            return held[1]
        if len(self._held) >= self.limit:
            self._held.clear()
        value = make()
        self._held[id(key)] = (key, value)
        return value

    def __len__(self) -> int:
        return len(self._held)
