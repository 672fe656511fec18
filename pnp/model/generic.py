"""The model of a data-only game: a kit (cards, tokens, boards) and a rulebook with no Python.

A content folder that no game package claims is read into :class:`GenericGame`. Its items live
in named collections (``collections: {cards: [...], tokens: [...]}``) that products name by
key (``items: cards``); each item has an id, a name, a number of copies, a text, and any other
values the designer wants on its face under ``fields`` (``{{ item.fields.cost }}`` in a
template). ``pnp new SLUG`` writes a working example of all of it. A rules engine can come
later, as a package announced through the ``pnp.games`` entry point.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pnp.model.common import doc
from pnp.model.game import GameContent
from pnp.model.kit import Component


@dataclass(frozen=True)
class GenericItem(Component):
    """One card, token, board or aid of a data-only game."""

    # A data-only game may leave a name out (a token showing only its text).
    name: str = field(default="", metadata=doc("the name printed on it"))
    text: str = field(default="", metadata=doc("rules text printed on the item"))
    kind: str = field(default="", metadata=doc("a free label: a card type, a suit, a colour"))
    fields: dict[str, Any] = field(
        default_factory=dict,
        metadata=doc("any other values its templates show, as {{ item.fields.NAME }}"),
    )


@dataclass(frozen=True)
class GenericGame(GameContent):
    """The whole content of a data-only game."""

    collections: dict[str, tuple[GenericItem, ...]] = field(
        default_factory=dict,
        metadata=doc("items by collection name; a product's 'items' names one"),
    )
    settings: dict[str, Any] = field(
        default_factory=dict,
        metadata=doc("the game's numbers, for prose and faces: {{ game.settings.NAME }}"),
    )

    def __getattr__(self, name: str) -> tuple[GenericItem, ...]:
        # A product's `items` names a collection; the kit reads it as an attribute.
        collections = self.__dict__.get("collections", {})
        if name in collections:
            return collections[name]  # type: ignore[no-any-return]
        raise AttributeError(name)
