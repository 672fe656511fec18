"""A rulebook as structured content: sections of blocks whose prose names model values.

Prose is jinja text rendered against the game's model (`{{ game.settings.hand_size }}`), so
no number of the rules is typed twice. Generated blocks (components, glossary, card
reference, decisions) are filled from content when the booklet is built; example blocks may
use values the rules engine computes (`{{ examples.bust.count_before }}`).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from pnp.errors import Location
from pnp.model.common import NOWHERE, doc


class BlockKind(enum.Enum):
    PARAGRAPH = "p"
    """Running text."""
    LIST = "list"
    """Bulleted items."""
    STEPS = "steps"
    """Numbered items, in order."""
    EXAMPLE = "example"
    """A worked example in a box; its numbers may be literal (they are not rules)."""
    NOTE = "note"
    """A short highlighted remark."""
    TABLE = "table"
    """Rows of cells; the first row is the header."""
    GENERATED = "generated"
    """Filled from content: components, glossary, card_reference, decisions."""
    FIGURE = "figure"
    """An item of a product drawn by the kit's own renderer, with a caption."""


class Generated(enum.Enum):
    COMPONENTS = "components"
    """What is in the box: every product with its item counts."""
    GLOSSARY = "glossary"
    """Every glossary term of the game, sorted as content lists them."""
    CARD_REFERENCE = "card_reference"
    """Every distinct card of every card product, with the text printed on it."""
    DECISIONS = "decisions"
    """The edition's decisions on points the rule source leaves open."""


@dataclass(frozen=True)
class Block:
    kind: BlockKind = field(metadata=doc("p, list, steps, example, note, table, generated, figure"))
    text: str = field(default="", metadata=doc("prose (jinja) of p, note, example"))
    title: str = field(default="", metadata=doc("title of an example, table or figure caption"))
    items: tuple[str, ...] = field(default=(), metadata=doc("entries of list and steps"))
    rows: tuple[tuple[str, ...], ...] = field(default=(), metadata=doc("cells of a table"))
    source: Generated | None = field(default=None, metadata=doc("what a generated block holds"))
    product: str = field(default="", metadata=doc("figure: the product id to draw from"))
    item: str = field(default="", metadata=doc("figure: the item id in that product"))
    position: str = field(
        default="",
        metadata=doc("figure: a position the game's engine reaches, drawn as the kit lies"),
    )
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Section:
    id: str = field(metadata=doc("slug; the bookmark and link target"))
    title: str = field(metadata=doc("heading", nonempty=True))
    blocks: tuple[Block, ...] = field(default=(), metadata=doc("content of the section"))
    sections: tuple[Section, ...] = field(default=(), metadata=doc("subsections"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class GlossaryEntry:
    term: str = field(metadata=doc("the term as cards and rules write it"))
    meaning: str = field(metadata=doc("what it means, in the project's words (jinja)"))
    icon: str = field(default="", metadata=doc("the icon that stands for the term on the faces"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


@dataclass(frozen=True)
class Rulebook:
    title: str = field(metadata=doc("title on the cover", nonempty=True))
    sections: tuple[Section, ...] = field(metadata=doc("the chapters, in reading order"))
    subtitle: str = field(default="", metadata=doc("line under the title"))
    glossary: tuple[GlossaryEntry, ...] = field(default=(), metadata=doc("terms and meanings"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)
