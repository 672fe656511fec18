"""Every text a face prints can be printed: each character has a glyph in the kit's font, and
each text fits its box at a size the template allows (a box shrinks its text down to its
``min_size``, 60 % of its size unless the template says otherwise).

The build used to find both while drawing and only warned: a card with a missing character or
a name cut off at the edge was printed all the same. The same measuring is done here, on the
faces the checks lay out anyway, so validate refuses such content (located at the template's
box, naming the item) before any build starts.
"""

from __future__ import annotations

from collections.abc import Iterable

from pnp.errors import Location
from pnp.layout.primitives import Face, TextShape
from pnp.layout.products import LaidOutProduct
from pnp.validate.checks import Findings


def check_lettering(findings: Findings, products: Iterable[LaidOutProduct]) -> None:
    """One error per text box whose text needs a missing glyph or does not fit, with the
    first item that shows it."""
    from pnp.render.fonts import prepare_cjk_fonts

    texts: dict[tuple[object, ...], tuple[TextShape, str, str]] = {}
    for laid_out in products:
        for front, back, _ in laid_out.runs:
            for face in (front, back):
                for shape in _texts(face):
                    key = _fit_key(shape)
                    if key not in texts:
                        texts[key] = (shape, laid_out.product.id, face.key if face else "")
    if not texts:
        return
    fonts = prepare_cjk_fonts("".join(sorted({shape.text for shape, _, _ in texts.values()})))
    reported: set[tuple[str, str]] = set()
    for shape, product, item in texts.values():
        where = _where(shape.origin)
        missing = fonts.missing(shape.text)
        if missing and (shape.origin, "glyph") not in reported:
            reported.add((shape.origin, "glyph"))
            findings.error(
                where,
                f"product {product!r}, {_item(item)}: the font has no glyph for "
                f"{''.join(sorted(missing))!r} (in {_quote(shape.text)}): it would print as a "
                "blank box",
            )
        if (shape.origin, "fit") not in reported and not _fits(shape, fonts):
            reported.add((shape.origin, "fit"))
            findings.error(
                where,
                f"product {product!r}, {_item(item)}: {_quote(shape.text)} does not fit its "
                f"box even at {shape.min_size:g}pt (shorten the text, widen the box or lower "
                "the box's min_size)",
            )


def _texts(face: Face | None) -> Iterable[TextShape]:
    return (shape for shape in face.shapes if isinstance(shape, TextShape)) if face else ()


def _fit_key(shape: TextShape) -> tuple[object, ...]:
    return (
        shape.origin,
        shape.text,
        round(shape.width, 3),
        round(shape.height, 3),
        shape.font,
        shape.size,
        shape.min_size,
        shape.leading,
        shape.align,
    )


def _fits(shape: TextShape, fonts: object) -> bool:
    from pnp.render.text import text_shape_fits

    font = fonts.bold if shape.font == "bold" else fonts.regular  # type: ignore[attr-defined]
    return text_shape_fits(shape, font)


def _where(origin: str) -> Location:
    """A shape's origin (``templates/x.yaml:12``) as a location."""
    path, _, line = origin.rpartition(":")
    return Location(path, int(line)) if path and line.isdigit() else Location(origin)


def _item(face_key: str) -> str:
    return f"item {face_key.partition('#')[2]!r}" if "#" in face_key else "a face"


def _quote(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:23] + "…")
