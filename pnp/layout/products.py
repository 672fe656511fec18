"""Every item of a product laid out through its templates: the faces a kit renders, an
export rasterises and the validator checks before anything is drawn."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.content.loader import LoadedGame
from pnp.errors import TemplateError
from pnp.layout.primitives import Face, TextShape
from pnp.layout.sizes import item_size
from pnp.layout.template import layout_face, load_template
from pnp.model.common import Product, ProductKind


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
    key = (id(game), product.id, templates_root, bleed)
    found = _RECENT.get(key)
    if found is not None and found[0] is game:
        _RECENT.move_to_end(key)
        return found[1]
    laid_out = _layout_product(game, product, templates_root, bleed)
    _RECENT[key] = (game, laid_out)
    while len(_RECENT) > _RECENT_LIMIT:
        _RECENT.popitem(last=False)
    return laid_out


def _layout_product(
    game: LoadedGame, product: Product, templates_root: Path, bleed: float
) -> LaidOutProduct:
    width, height = item_size(product)
    face_template = load_template(templates_root, product.face)
    back_template = load_template(templates_root, product.back) if product.back else None
    item_bleed = bleed if product.kind is ProductKind.CARDS else 0.0
    runs: list[tuple[Face, Face | None, int]] = []
    items = collection(game.model, product)
    for item in items:
        context = {"item": item, "game": game.model, "product": product}
        front = layout_face(
            face_template,
            context,
            width=width,
            height=height,
            bleed=item_bleed,
            key=f"{product.face}#{item.id}",
        )
        back = None
        if back_template is not None:
            back = layout_face(
                back_template,
                context,
                width=width,
                height=height,
                bleed=item_bleed,
                key=f"{product.back}#{item.id}",
            )
        runs.append((front, back, int(item.copies)))
    return LaidOutProduct(product=product, items=items, runs=runs)


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
