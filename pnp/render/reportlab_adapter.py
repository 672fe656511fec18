"""Every use pnp makes of reportlab's internals, in one place.

pnp draws most of a sheet as raw PDF operators (a card face is hundreds of them, and
reportlab's public calls spend their time saving Python state no operator shows), lays
Chinese lines out itself and grows TrueType fonts glyph by glyph.  Each needs a name
reportlab does not document.  They are reached here only, each behind a function named for
what pnp does with it, so an upgrade of reportlab is judged by one module and its tests
(tests/render/test_reportlab_adapter.py draws each through this module and through
reportlab's public calls and compares the bytes).  tests/test_architecture.py keeps every
other module off these names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from reportlab import rl_config
from reportlab.lib import textsplit
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus.frames import Frame
from reportlab.rl_config import _FUZZ

from pnp.render.deferred import link_pattern_deferred

with link_pattern_deferred():
    from reportlab.platypus import paragraph as _paragraph
    from reportlab.platypus.paragraph import _putFragLine, setXPos

# reportlab's tolerance when it compares a laid-out width or height with its box.
LAYOUT_FUZZ: float = _FUZZ

JustifyLine = Callable[[Any, float, Any, int], None]


# ------------------------------------------------------- process-wide settings
# Applied when this module is imported, which every path that opens a PDF does (the canvas,
# the text and the drawing modules import it): a setting made by another module would depend
# on what the process imported before, and a rulebook built alone once had other bytes than
# one built after a kit.

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


# ------------------------------------------------------------- the content stream


def operators(canvas: Canvas) -> list[str]:
    """The page's content stream so far, as reportlab keeps it: a list of operator strings
    that grows as the page is drawn.  Callers record a slice of it to replay later."""
    code: list[str] = canvas._code
    return code


def emit(canvas: Canvas, *lines: str) -> None:
    """Append operators to the page as they are."""
    canvas._code.extend(lines)


def paint_path(canvas: Canvas, stroke: int, fill: int) -> None:
    """Close the path just emitted with the paint operator reportlab would choose for this
    stroke/fill pair (and its fill rule)."""
    canvas._strokeAndFill(stroke, fill)


def graphics_state(canvas: Canvas) -> tuple[tuple[str, Any], ...]:
    """The extended graphics state (opacities, overprint) in force: two drawings of the same
    text give the same operators only in the same state."""
    return tuple(canvas._extgstate._d.items())


def fill_is_opaque(canvas: Canvas) -> bool:
    """Whether the fill is opaque, i.e. reportlab would write no "gs" before a text."""
    return bool(canvas._extgstate._d.get("ca", 1) == 1)


def pdf_document(canvas: Canvas) -> Any:
    """The document a canvas writes into (fonts subset per document)."""
    return canvas._doc


def colour_space_enforced(canvas: Canvas) -> bool:
    return getattr(canvas, "_enforceColorSpace", None) is not None


# ------------------------------------------------------------------------- text


def text_cursor(canvas: Canvas) -> tuple[Any, float, float]:
    """Inside an ``<onDraw>`` callback: the text object and the cursor (x, baseline)."""
    info = canvas._curr_tx_info
    return info["tx"], info["cur_x"], info["cur_y"]


def text_line_start(text_object: Any) -> float:
    """The x where the text object's current line began."""
    return float(text_object._x0)


def is_growable_truetype(face: Any) -> bool:
    """Whether a registered font is a TrueType font reportlab subsets as it draws (the only
    kind whose operators pnp writes itself)."""
    return bool(getattr(face, "_dynamicFont", False))


def teach_glyph(font: Any, codepoint: int, width: float) -> None:
    """Give a loaded TrueType font the advance of a glyph it will embed after a rebuild, so
    reportlab measures text with it at once."""
    font.face.charWidths[codepoint] = width
    font.face.charToGlyph.setdefault(codepoint, 0)


def extend_line_breaking_rules(no_line_start: str, no_line_end: str) -> None:
    """Add marks that may not begin (end) a line to reportlab's own CJK wrapping.

    The single-fragment path reads the lists from textsplit, the multi-fragment path from
    the paragraph module's own import of them.
    """
    current = textsplit.ALL_CANNOT_START
    extended = current + "".join(ch for ch in no_line_start if ch not in current)
    textsplit.ALL_CANNOT_START = extended
    _paragraph.ALL_CANNOT_START = extended
    ends = textsplit.ALL_CANNOT_END
    textsplit.ALL_CANNOT_END = ends + "".join(ch for ch in no_line_end if ch not in ends)


def cannot_start_line(mark: str) -> bool:
    return mark in _paragraph.ALL_CANNOT_START


def install_justify(line_justifier: Callable[[JustifyLine], JustifyLine]) -> None:
    """Replace how reportlab draws a justified line, by a function given reportlab's own (a
    paragraph looks the function up in its module at draw time)."""
    original: JustifyLine = _paragraph._justifyDrawParaLineX
    _paragraph._justifyDrawParaLineX = line_justifier(original)


def begin_line_fragments(tx: Any, offset: float) -> None:
    """Move the text object to a justified line's start, as reportlab's own route does."""
    tx._x_offset = offset
    setXPos(tx, offset)


def draw_line_fragments(tx: Any, offset: float, line: Any, last: int) -> None:
    """Draw a laid-out line's fragments as reportlab's justified route does."""
    _putFragLine(offset, tx, line, last, "justify")


def end_line_fragments(tx: Any, offset: float) -> None:
    setXPos(tx, -offset)


# ---------------------------------------------------------------------- frames


def _skip_drawing(*args: Any, **kwargs: Any) -> None:
    return None


class LayoutOnlyFrame(Frame):
    """A frame that, on a pass whose drawing is thrown away (`dry`), lays flowables out
    (wrap, split, page breaks: everything that decides what lands on which page) without
    drawing them."""

    dry = False

    def _add(self, flowable: Any, canv: Any, trySplit: int = 0) -> int:
        if not self.dry:
            return int(super()._add(flowable, canv, trySplit))
        flowable.drawOn = _skip_drawing
        try:
            return int(super()._add(flowable, canv, trySplit))
        finally:
            del flowable.drawOn

    add = _add
