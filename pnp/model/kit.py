"""The kit's physical vocabulary: the kinds of printed thing every game's kit is made of.

A game's model keeps its game concepts (a rank, a treasure, a mission) and says what each is
on the table by subclassing one of these: ``class Treasure(Token)``. The shared part (id, name,
copies, and a token's symbol and colour) is declared, documented and checked once, here.

The base fields are keyword-only, so a game's own fields, required or not, follow them in any
order; content builds every one by key.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pnp.errors import Location
from pnp.model.common import NOWHERE, doc


@dataclass(frozen=True, kw_only=True)
class Component:
    """Anything the kit prints: a card, a token, a board, an aid."""

    id: str = field(metadata=doc("stable slug, unique among its kind", nonempty=True))
    name: str = field(metadata=doc("the name printed on it", nonempty=True))
    copies: int = field(
        default=1, metadata=doc("how many the kit prints", at_least=0, at_most=1000)
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True, kw_only=True)
class Card(Component):
    """A card: printed at a card size, many to a page, with a back when its product has one."""


@dataclass(frozen=True, kw_only=True)
class Deck:
    """Cards shuffled together under one back, which shows the deck's name, colour and symbol."""

    id: str = field(metadata=doc("stable slug of the deck", nonempty=True))
    name: str = field(metadata=doc("the name printed on its backs", nonempty=True))
    colour: str = field(metadata=doc("the backs' colour, '#rrggbb'"))
    symbol: str = field(metadata=doc("the glyph printed on its backs"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True, kw_only=True)
class Token(Component):
    """A small piece of card punched out of a token sheet: a resource, a figure, a treasure."""

    symbol: str = field(default="", metadata=doc("a glyph or a word or two printed on it"))
    colour: str = field(default="", metadata=doc("its colour, '#rrggbb'"))


@dataclass(frozen=True, kw_only=True)
class Marker(Token):
    """A token that shows one value: it sits on a cell of a track or in a box of a board."""


@dataclass(frozen=True, kw_only=True)
class Pawn(Token):
    """A token that stands for a player or a character where it stands on a board or map."""


@dataclass(frozen=True, kw_only=True)
class Board(Component):
    """A board or mat printed at true size on its own pages: a map, a player board, a track."""


@dataclass(frozen=True, kw_only=True)
class Aid(Component):
    """A player aid: a reference card, a round summary, a sheet that helps play and holds no
    state of the game."""
