"""Opening and finishing PDFs: deterministic, fonts embedded, never half-written."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas

# ASCII85 inflates every stream by a quarter for no gain in a binary-safe PDF.
rl_config.useA85 = 0

# PDFDocEncoding gives 0x18-0x1f other characters than ASCII; every other ASCII code is
# itself, so such text is encoded by the C codec instead of reportlab's Python one.
_NOT_PLAIN_ASCII = re.compile("[\x18-\x1f]")
_pdfdoc_encoded = pdfdoc.pdfdocEnc
_pdf_name = pdfdoc.PDFName
_formatted = pdfdoc.format


def _pdfdoc_encoded_fast(text: object) -> object:
    if isinstance(text, str) and text.isascii() and not _NOT_PLAIN_ASCII.search(text):
        return text.encode("ascii")
    return _pdfdoc_encoded(text)


def _formatted_fast(element: object, document: object, toplevel: int = 0) -> object:
    # reportlab's `format` asks whether an element is a PDF object before anything else;
    # the plain strings, bytes and numbers that are most of a PDF never are.
    kind = type(element)
    if kind is str:
        return _pdfdoc_encoded_fast(element)
    if kind is bytes:
        return element
    if kind is float or kind is int:
        return fp_str(element).encode("ascii")  # digits, point and sign only
    return _formatted(element, document, toplevel)


def _serialise_faster() -> None:
    """Make reportlab write a PDF's objects with less work and the same bytes.

    Saving a sheet of 540 faces formats 33,000 objects. Half of that time went to
    spelling the same few dozen names (`PDFName`), to encoding ASCII through a codec
    written in Python (`pdfdocEnc`) and to asking each string and number whether it is a
    PDF object (`format`). All three are pure functions of their arguments, so they are
    replaced module-wide by a memo and by fast paths whose results equal theirs
    (tests/render/test_pdf.py compares them for every character and kind of value).
    """
    if pdfdoc.pdfdocEnc is _pdfdoc_encoded:
        pdfdoc.pdfdocEnc = _pdfdoc_encoded_fast
        pdfdoc.PDFName = lru_cache(maxsize=4096)(_pdf_name)
        pdfdoc.format = _formatted_fast


_serialise_faster()


def new_canvas(path: Path, page_size: tuple[float, float], *, title: str, font: str) -> Canvas:
    """A canvas whose output is byte-identical for identical drawing (invariant=1).

    Its initial font is the embedded CJK face, so no unembedded Helvetica sneaks in.
    """
    canvas = Canvas(
        str(path),
        pagesize=page_size,
        invariant=1,
        pageCompression=1,
        initialFontName=font,
    )
    canvas.setTitle(title)
    canvas.setAuthor("pnp")
    canvas.setCreator("pnp")
    canvas.setSubject(title)
    return canvas
