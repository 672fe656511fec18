"""Drawing laid-out shapes on a reportlab canvas."""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path
from weakref import WeakKeyDictionary

from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.pathobject import PDFPathObject

from pnp.content.assets import read_asset
from pnp.errors import TemplateError
from pnp.layout.primitives import (
    CircleShape,
    Face,
    IconShape,
    ImageShape,
    LineShape,
    PolygonShape,
    RectShape,
    Shape,
    Style,
    TextShape,
)
from pnp.render.fonts import FontSet
from pnp.render.icons import draw_icon_box, draw_icon_tiles
from pnp.render.reportlab_adapter import emit, graphics_state, operators, paint_path
from pnp.render.text import draw_fitted, draw_line_if_fits, fit_text_shape


@dataclass
class DrawReport:
    """What a person should hear about after a build: text that did not fit, missing glyphs."""

    overflows: set[str] = field(default_factory=set)
    missing_glyphs: dict[str, set[str]] = field(default_factory=dict)


_COLOURS: dict[str, HexColor] = {}


def colour(text: str) -> HexColor:
    cached = _COLOURS.get(text)
    if cached is None:
        if len(text) == 4:  # "#abc" -> "#aabbcc"
            text = "#" + "".join(ch * 2 for ch in text[1:])
        cached = _COLOURS[text] = HexColor(text)
    return cached


def _apply_style(canvas: Canvas, style: Style) -> tuple[int, int]:
    if style.fill:
        canvas.setFillColor(colour(style.fill))
    if style.stroke:
        canvas.setStrokeColor(colour(style.stroke))
        canvas.setLineWidth(style.stroke_width)
        canvas.setDash(list(style.dash) if style.dash else [])
    return (1 if style.stroke else 0), (1 if style.fill else 0)


_TRACED: dict[tuple[object, ...], tuple[str, ...]] = {}
_TRACED_KEPT = 4096


def _traced(kind: str, *numbers: float) -> tuple[str, ...]:
    """The path operators reportlab's roundRect or circle writes for this geometry.

    Each is a dozen Bézier segments worked out and formatted in Python; a deck draws the
    same frame and badge on every card, so each geometry is traced once a process.
    """
    key = (kind, *numbers)
    traced = _TRACED.get(key)
    if traced is None:
        code: list[str] = []
        path = PDFPathObject(code=code)
        if kind == "round":
            x, y, width, height, radius = numbers
            path.roundRect(x, y, width, height, radius)
        else:  # a circle, as Canvas.circle hands it to Canvas.ellipse
            cx, cy, r = numbers
            x1, y1, x2, y2 = cx - r, cy - r, cx + r, cy + r
            path.ellipse(x1, y1, x2 - x1, y2 - y1)
        if len(_TRACED) >= _TRACED_KEPT:
            _TRACED.clear()
        traced = _TRACED[key] = tuple(code)
    return traced


def draw_shapes(
    canvas: Canvas,
    shapes: tuple[Shape, ...],
    fonts: FontSet,
    report: DrawReport,
    *,
    content_root: Path | None = None,
) -> None:
    for shape in shapes:
        if isinstance(shape, TextShape):
            if shape.upside_down:
                _draw_upside_down(canvas, shape, fonts, report)
            else:
                _draw_text(canvas, shape, fonts, report)
        elif isinstance(shape, IconShape):
            if shape.tile:
                draw_icon_tiles(
                    canvas,
                    shape.icon,
                    (shape.x, shape.y, shape.width, shape.height),
                    (shape.tile, shape.tile_h or shape.tile),
                    shape.color,
                    shape.stagger,
                )
            else:
                draw_icon_box(
                    canvas, shape.icon, shape.x, shape.y, shape.width, shape.height, shape.color
                )
        elif isinstance(shape, RectShape):
            stroke, fill = _apply_style(canvas, shape.style)
            if shape.radius:
                emit(
                    canvas,
                    *_traced("round", shape.x, shape.y, shape.width, shape.height, shape.radius),
                )
                paint_path(canvas, stroke, fill)
            else:
                canvas.rect(shape.x, shape.y, shape.width, shape.height, stroke=stroke, fill=fill)
        elif isinstance(shape, LineShape):
            _apply_style(canvas, shape.style)
            canvas.line(shape.x1, shape.y1, shape.x2, shape.y2)
        elif isinstance(shape, CircleShape):
            stroke, fill = _apply_style(canvas, shape.style)
            emit(canvas, *_traced("circle", shape.cx, shape.cy, shape.r))
            paint_path(canvas, stroke, fill)
        elif isinstance(shape, PolygonShape):
            stroke, fill = _apply_style(canvas, shape.style)
            path = canvas.beginPath()
            first, *rest = shape.points
            path.moveTo(*first)
            for point in rest:
                path.lineTo(*point)
            path.close()
            canvas.drawPath(path, stroke=stroke, fill=fill)
        elif isinstance(shape, ImageShape):
            if content_root is None:
                raise TemplateError(f"{shape.origin}: image {shape.path!r}: no content folder")
            canvas.drawImage(
                _image_reader(canvas, content_root, shape),
                shape.x,
                shape.y,
                shape.width,
                shape.height,
                mask="auto",
                preserveAspectRatio=True,
                anchor="c",
            )


_IMAGES: WeakKeyDictionary[Canvas, dict[str, ImageReader]] = WeakKeyDictionary()


def _image_reader(canvas: Canvas, content_root: Path, shape: ImageShape) -> ImageReader:
    """The image a shape shows, from the bytes layout saw (the pinned snapshot), one reader
    per picture and canvas. reportlab names an image drawn from a reader by its pixels, so the
    PDF holds each picture once, and the same bytes wherever the content folder lies."""
    readers = _IMAGES.get(canvas)
    if readers is None:
        readers = _IMAGES[canvas] = {}
    reader = readers.get(shape.digest) if shape.digest else None
    if reader is None:
        data = read_asset(content_root, shape.path, shape.origin)
        digest = hashlib.sha256(data).hexdigest()
        if shape.digest and digest != shape.digest:
            raise TemplateError(
                f"{shape.origin}: image {shape.path!r} changed while the kit was being made; "
                "build again"
            )
        reader = readers.setdefault(digest, ImageReader(io.BytesIO(data)))
    return reader


# What each text drawn on a canvas wrote: (text, box, style, font, opacity) -> (operators,
# whether it overflowed). Kept per canvas, because the operators name the document's font
# subsets.
_WRITTEN: WeakKeyDictionary[Canvas, dict[tuple[object, ...], tuple[list[str], bool]]] = (
    WeakKeyDictionary()
)


def _written_texts(canvas: Canvas) -> dict[tuple[object, ...], tuple[list[str], bool]]:
    written = _WRITTEN.get(canvas)
    if written is None:
        written = _WRITTEN[canvas] = {}
    return written


def _draw_text(canvas: Canvas, shape: TextShape, fonts: FontSet, report: DrawReport) -> None:
    """Draw a text shape; the same text in the same box on the same canvas is written again
    from what it wrote the first time.

    A deck repeats its corner indices, labels and rules texts from card to card at the same
    places, and setting a text is the dearest thing a face draws.  Text is always drawn
    inside a saved state (q ... Q) that leaves the canvas as it found it, and its operators
    depend on nothing else of the canvas but its opacity, which is part of the key.
    """
    font = fonts.bold if shape.font == "bold" else fonts.regular
    missing = fonts.missing(shape.text)
    if missing:
        report.missing_glyphs.setdefault(shape.origin, set()).update(missing)
    written = _written_texts(canvas)
    key = (
        shape.text,
        shape.x,
        shape.y,
        shape.width,
        shape.height,
        font,
        shape.size,
        shape.min_size,
        shape.color,
        shape.align,
        shape.valign,
        shape.leading,
        graphics_state(canvas),
    )
    code = operators(canvas)
    known = written.get(key)
    if known is None:
        start = len(code)
        overflow = _set_text(canvas, shape, font)
        known = written[key] = (code[start:], overflow)
    else:
        code.extend(known[0])
    if known[1]:
        report.overflows.add(f"{shape.origin}: text does not fit its box: {shape.text[:24]!r}")


def _draw_upside_down(canvas: Canvas, shape: TextShape, fonts: FontSet, report: DrawReport) -> None:
    """A text turned half a turn about its box's centre (the box stays where it is)."""
    cx, cy = shape.x + shape.width / 2, shape.y + shape.height / 2
    emit(canvas, f"q -1 0 0 -1 {fp_str(2 * cx, 2 * cy)} cm")
    _draw_text(canvas, shape, fonts, report)
    emit(canvas, "Q")


def _set_text(canvas: Canvas, shape: TextShape, font: str) -> bool:
    """Draw the text in its box, shrunk if it must be; True if it overflows even so."""
    if draw_line_if_fits(
        canvas,
        shape.text,
        shape.x,
        shape.y + shape.height,
        shape.width,
        shape.height,
        font=font,
        size=shape.size,
        leading_ratio=shape.leading,
        align=shape.align,
        valign=shape.valign,
        color=shape.color,
    ):
        return False
    fitted = fit_text_shape(shape, font)
    draw_fitted(
        canvas,
        fitted,
        shape.x,
        shape.y + shape.height,
        shape.width,
        shape.height,
        valign=shape.valign,
    )
    return fitted.overflow


def draw_face(
    canvas: Canvas, face: Face, fonts: FontSet, report: DrawReport, content_root: Path | None = None
) -> None:
    draw_shapes(canvas, face.shapes, fonts, report, content_root=content_root)
