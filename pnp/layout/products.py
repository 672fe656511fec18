"""Every item of a product laid out through its templates: the faces a kit renders, an
export rasterises and the validator checks before anything is drawn."""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.errors import TemplateError
from pnp.layout.primitives import Face, TextShape
from pnp.layout.sheets import DEFAULT_BLEED_MM
from pnp.layout.sizes import item_size
from pnp.layout.template import Template, layout_face, load_template
from pnp.model.common import Product, ProductKind
from pnp.units import mm


@dataclass(frozen=True)
class LaidOutProduct:
    product: Product
    items: Sequence[Any]
    runs: list[tuple[Face, Face | None, int]]


def collection(model: Any, product: Product) -> Sequence[Any]:
    items = getattr(model, product.items, None)
    if items is None or isinstance(items, str) or not hasattr(items, "__iter__"):
        raise TemplateError(
            f"{product.where}: items: the model has no collection {product.items!r}"
        )
    return tuple(items)


def copies_of(item: Any) -> int:
    """How many of ``item`` the kit prints: the one number the sheets, the cover's and the
    rulebook's component lists all read (they once counted apart and disagreed)."""
    return max(0, int(item.copies))


def printed_count(model: Any, product: Product) -> int:
    """How many items ``product`` prints in all."""
    return sum(copies_of(item) for item in collection(model, product))


_RECENT: OrderedDict[tuple[int, str, Path, float], tuple[LoadedGame, LaidOutProduct]] = (
    OrderedDict()
)
_RECENT_LIMIT = 64
"""Products laid out lately in this process. ``pnp build`` checks content (which lays out every
face to find template mistakes) and then renders it: the second layout is this lookup. Keyed by
the game object itself (kept alive with the entry), so another load of edited content is new."""


def layout_product(
    game: LoadedGame, product: Product, templates_root: Path, bleed: float
) -> LaidOutProduct:
    bleed = _bleed_of(product, bleed)  # one layout of a board serves every caller
    key = (id(game), product.id, templates_root, bleed)
    found = _RECENT.get(key)
    if found is not None and found[0] is game:
        _RECENT.move_to_end(key)
        return found[1]
    with game.reading():
        laid_out = _layout_product(game, product, templates_root, bleed)
    _RECENT[key] = (game, laid_out)
    while len(_RECENT) > _RECENT_LIMIT:
        _RECENT.popitem(last=False)
    return laid_out


DEFAULT_BLEED = mm(DEFAULT_BLEED_MM)
"""The kit's default bleed. The checks lay faces out at it, so a default build reuses their
layouts; a rulebook pictures faces at it whatever the build's bleed (a picture is trimmed:
its bleed is never seen), so a picture's bytes never depend on which layouts this process
happened to make first (a cold cache ran the checks before the rulebook, a warm one not)."""


def laid_out_for_pictures(
    game: LoadedGame, product: Product, templates_root: Path
) -> LaidOutProduct:
    """`product` laid out as a rulebook pictures and quotes it: at `DEFAULT_BLEED`, whatever
    else this process laid out."""
    return layout_product(game, product, templates_root, DEFAULT_BLEED)


def _layout_product(
    game: LoadedGame, product: Product, templates_root: Path, bleed: float
) -> LaidOutProduct:
    items = collection(game.model, product)
    front = load_template(templates_root, product.face)
    back = load_template(templates_root, product.back) if product.back else None
    runs = [
        (
            _layout_item(game, product, front, product.face, bleed, item),
            None if back is None else _layout_item(game, product, back, product.back, bleed, item),
            copies_of(item),
        )
        for item in items
    ]
    return LaidOutProduct(product=product, items=items, runs=runs)


def layout_front(
    game: LoadedGame, product: Product, templates_root: Path, bleed: float, item: Any
) -> Face:
    """The front of one item of `product`, as its product's layout lays it out."""
    template = load_template(templates_root, product.face)
    return _layout_item(game, product, template, product.face, bleed, item)


def _layout_item(
    game: LoadedGame, product: Product, template: Template, name: str, bleed: float, item: Any
) -> Face:
    width, height = item_size(product)
    try:
        return layout_face(
            template,
            {"item": item, "game": game.model, "product": product},
            width=width,
            height=height,
            bleed=_bleed_of(product, bleed),
            key=f"{name}#{item.id}",
        )
    except TemplateError as error:
        raise _naming_item(error, product, item) from None


_PLACE = re.compile(r"^(?P<place>[^:\n]+?:\d+(?::\d+)?: )(?P<message>.*)$", re.S)


def _naming_item(error: TemplateError, product: Product, item: Any) -> TemplateError:
    """``error`` with the item being laid out named after its place: a message such as
    ``'dict object' has no attribute 'cost'`` is true of one card, not of the template."""
    noun = "card" if product.kind is ProductKind.CARDS else "item"
    text = str(error)
    match = _PLACE.match(text)
    if match is None:
        return TemplateError(f"{noun} {str(item.id)!r}: {text}")
    return TemplateError(f"{match['place']}{noun} {str(item.id)!r}: {match['message']}")


FACE_CONTEXT: dict[str, str] = {
    "item": "the item the face shows: {{ item.name }}, {{ item.id }}, its model's fields",
    "game": "the game's whole model: {{ game.info.title }}, {{ game.settings.goal }}",
    "product": "the product printing the face: {{ product.title }}",
}
"""What every face of a product sees (the template adds pnp.layout.template.FACE_NAMES)."""


def _bleed_of(product: Product, bleed: float) -> float:
    """Only cards are laid out with a bleed (a board is cut at its edge)."""
    return bleed if product.kind is ProductKind.CARDS else 0.0


def text_of(laid_out: Sequence[LaidOutProduct]) -> str:
    """Every character the kit will draw, so the font subset can hold them all."""
    chars: set[str] = set()
    for product in laid_out:
        chars.update(product.product.title)
        chars.update(product.product.note)  # a superset of the rendered note's characters
        for front, back, _ in product.runs:
            for face in (front, back):
                if face is None:
                    continue
                for shape in face.shapes:
                    if isinstance(shape, TextShape):
                        chars.update(shape.text)
    return "".join(sorted(chars))
