"""The trim size of a product's items, from its ``size`` in content: a card or paper name
(``poker``, ``a4``) or ``WxH`` with a unit (``63x88mm``)."""

from __future__ import annotations

import re

from pnp.errors import PnpError
from pnp.model.common import Product
from pnp.units import CARD_SIZES_MM, PAPER_SIZES_MM, mm, parse_length


class SizeError(PnpError):
    pass


_SIZE = re.compile(r"^(\d+(?:\.\d+)?)x(\d+(?:\.\d+)?)(mm|cm|in)$")


def item_size(product: Product) -> tuple[float, float]:
    """Trim width and height in points of one item of the product."""
    size = product.size.strip().lower()
    if size in CARD_SIZES_MM:
        w, h = CARD_SIZES_MM[size]
    elif size in PAPER_SIZES_MM:
        w, h = PAPER_SIZES_MM[size]
    elif match := _SIZE.match(size):
        w, h = float(match.group(1)), float(match.group(2))
        factor = parse_length(f"1{match.group(3)}") / mm(1)
        w, h = w * factor, h * factor
    else:
        known = ", ".join([*CARD_SIZES_MM, *PAPER_SIZES_MM])
        raise SizeError(
            f"{product.where}: size: unknown size {product.size!r} "
            f"(expected one of {known}, or WxHmm)"
        )
    if not (0 < w <= MAX_SIZE_MM and 0 < h <= MAX_SIZE_MM):
        raise SizeError(
            f"{product.where}: size: {product.size!r}: each side must be more than 0 and at most "
            f"{MAX_SIZE_MM:g} mm (a board larger than a page is tiled over pages)"
        )
    w, h = mm(w), mm(h)
    return (h, w) if product.landscape else (w, h)


MAX_SIZE_MM = 2000.0
"""Longest side of an item: a banner-sized map, tiled over many pages, is still printable."""
