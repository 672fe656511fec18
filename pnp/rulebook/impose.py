"""Saddle-stitch imposition: A5 pages two-up on a landscape sheet of the kit's paper (A4, or
Letter with the pages scaled to fit), in folding order.

Each reading-edition page becomes a form XObject that keeps its own resources, and a sheet side
only places two of them and draws its fold marks with path operators. Merging the pages' content
streams instead (pypdf's ``merge_page``) renames clashing font resources but left the text of
every page naming the old ``/F1``: a resource the page does not define, which a print shop's
preflight rejects. Forms cannot clash, and the source pages are not parsed again.
"""

from __future__ import annotations

from pathlib import Path

from pypdf import PageObject, PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    ByteStringObject,
    DecodedStreamObject,
    DictionaryObject,
    FloatObject,
    IndirectObject,
    NameObject,
    StreamObject,
)

from pnp.layout.sheets import PRINTER_MARGIN, booklet_scale
from pnp.output import atomic_output
from pnp.units import mm


def booklet_order(pages: int) -> list[tuple[int, int]]:
    """(left, right) page numbers (1-based, 0 = blank) of each sheet side, in print order.

    With n pages (padded to a multiple of 4), sheet k's front holds n-2k | 2k+1 and its
    back 2k+2 | n-2k-1: for 12 pages 12|1, 2|11, 10|3, 4|9, 8|5, 6|7.
    """
    padded = (pages + 3) // 4 * 4
    sides: list[tuple[int, int]] = []
    for sheet in range(padded // 4):
        front = (padded - 2 * sheet, 2 * sheet + 1)
        back = (2 * sheet + 2, padded - 2 * sheet - 1)
        sides += [front, back]
    return [(left if left <= pages else 0, right if right <= pages else 0) for left, right in sides]


def fold_marks(width: float, height: float, margin: float = PRINTER_MARGIN) -> bytes:
    """Short dashed ticks at the top and bottom of the fold, in the pages' inner margins and
    inside the printable area (a tick in the printer's dead margin would not print)."""
    x, tick = width / 2, mm(4)
    top, bottom = height - margin, margin
    return (
        f"q 0.4 w [2 2] 0 d {x:.2f} {top:.2f} m {x:.2f} {top - tick:.2f} l S "
        f"{x:.2f} {bottom:.2f} m {x:.2f} {bottom + tick:.2f} l S Q\n"
    ).encode()


def _page_form(writer: PdfWriter, page: PageObject) -> IndirectObject:
    """``page`` as a form XObject of ``writer``, with its own resources and bounding box."""
    form = DecodedStreamObject()
    contents = page.get_contents()
    form.set_data(contents.get_data() if contents is not None else b"")
    resources = page["/Resources"].get_object()
    if not isinstance(resources, DictionaryObject):
        raise ValueError("a reading-edition page has no resource dictionary")
    box = page.mediabox
    form.update(
        {
            NameObject("/Type"): NameObject("/XObject"),
            NameObject("/Subtype"): NameObject("/Form"),
            NameObject("/BBox"): ArrayObject(
                FloatObject(value) for value in (box.left, box.bottom, box.right, box.top)
            ),
            NameObject("/Resources"): resources.clone(writer),
        }
    )
    compressed: StreamObject = form.flate_encode()
    # pypdf has no public call that adds an indirect object to a writer.
    return writer._add_object(compressed)


def impose_booklet(
    source: Path,
    target: Path,
    paper: tuple[float, float] = (mm(210), mm(297)),
    margin: float = PRINTER_MARGIN,
) -> int:
    """Write `target`: `source`'s pages imposed on `paper` turned landscape, for duplex
    printing with a short-edge flip. The pages meet at the fold, centred top to bottom."""
    reader = PdfReader(source)
    page_w = float(reader.pages[0].mediabox.width)
    page_h = float(reader.pages[0].mediabox.height)
    sheet_w, sheet_h = max(paper), min(paper)
    scale = booklet_scale((page_w, page_h), paper)
    lift = (sheet_h - page_h * scale) / 2
    writer = PdfWriter()
    forms = [_page_form(writer, page) for page in reader.pages]
    marks = fold_marks(sheet_w, sheet_h, margin)
    order = booklet_order(len(reader.pages))
    for left, right in order:
        side = PageObject.create_blank_page(writer, width=sheet_w, height=sheet_h)
        placed = DictionaryObject()
        drawing = b""
        for number, offset in ((left, sheet_w / 2 - page_w * scale), (right, sheet_w / 2)):
            if number:
                name = f"/P{number}"
                placed[NameObject(name)] = forms[number - 1]
                drawing += (
                    f"q {scale:.4f} 0 0 {scale:.4f} {offset:.2f} {lift:.2f} cm {name} Do Q\n"
                ).encode()
        content = DecodedStreamObject()
        content.set_data(drawing + marks)
        side[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): placed})
        side[NameObject("/Contents")] = writer._add_object(content.flate_encode())
        writer.add_page(side)
    writer.add_metadata(
        {
            "/Title": f"{reader.metadata.title if reader.metadata else ''} (booklet)",
            "/Producer": "pnp",
        }
    )
    # A fixed file identifier keeps the booklet byte-identical from build to build.
    identifier = ByteStringObject(b"pnp-booklet-" + source.name.encode()[:20])
    writer._ID = ArrayObject([identifier, identifier])
    with atomic_output(target) as temporary, open(temporary, "wb") as handle:
        writer.write(handle)
    return len(order)
