"""Saddle-stitch imposition: A5 pages two-up on A4 landscape, in folding order."""

from __future__ import annotations

import io
from pathlib import Path

from pypdf import PageObject, PdfReader, PdfWriter, Transformation
from pypdf.generic import DictionaryObject

from pnp.render.pdf import atomic_output
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


def _fold_marks(width: float, height: float) -> PageObject:
    """Short dashed ticks at the top and bottom of the fold, outside the page content."""
    from reportlab.pdfgen.canvas import Canvas

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1)
    canvas.setLineWidth(0.4)
    canvas.setDash([2, 2])
    canvas.line(width / 2, height, width / 2, height - mm(6))
    canvas.line(width / 2, 0, width / 2, mm(6))
    canvas.save()
    page = PdfReader(io.BytesIO(buffer.getvalue())).pages[0]
    # The marks draw no text, but every reportlab canvas lists its default (unembedded)
    # Helvetica; drop it so the booklet embeds every font it names.
    resources = page["/Resources"].get_object()
    assert isinstance(resources, DictionaryObject)
    if "/Font" in resources:
        del resources["/Font"]
    return page


def impose_booklet(source: Path, target: Path) -> int:
    """Write `target`: `source`'s pages imposed for duplex printing, short-edge flip."""
    reader = PdfReader(source)
    page_w = float(reader.pages[0].mediabox.width)
    page_h = float(reader.pages[0].mediabox.height)
    sheet_w, sheet_h = 2 * page_w, page_h
    marks = _fold_marks(sheet_w, sheet_h)
    writer = PdfWriter()
    order = booklet_order(len(reader.pages))
    for left, right in order:
        side = PageObject.create_blank_page(width=sheet_w, height=sheet_h)
        for number, offset in ((left, 0.0), (right, page_w)):
            if number:
                side.merge_transformed_page(
                    reader.pages[number - 1], Transformation().translate(offset, 0)
                )
        side.merge_page(marks)
        writer.add_page(side)
    writer.add_metadata(
        {
            "/Title": f"{reader.metadata.title if reader.metadata else ''} (booklet)",
            "/Producer": "pnp",
        }
    )
    # A fixed file identifier keeps the booklet byte-identical from build to build.
    from pypdf.generic import ArrayObject, ByteStringObject

    identifier = ByteStringObject(b"pnp-booklet-" + source.name.encode()[:20])
    writer._ID = ArrayObject([identifier, identifier])
    with atomic_output(target) as temporary, open(temporary, "wb") as handle:
        writer.write(handle)
    return len(order)
