"""Drawing laid-out shapes on a reportlab canvas."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from pnp.content.assets import resolve_asset
from pnp.errors import TemplateError
from pnp.layout.primitives import (
    CircleShape,
    Face,
    ImageShape,
    LineShape,
    PolygonShape,
    RectShape,
    Shape,
    Style,
    TextShape,
)
from pnp.render.fonts import FontSet
from pnp.render.text import draw_fitted, draw_line_if_fits, fit_paragraph


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
            _draw_text(canvas, shape, fonts, report)
        elif isinstance(shape, RectShape):
            stroke, fill = _apply_style(canvas, shape.style)
            if shape.radius:
                canvas.roundRect(
                    shape.x,
                    shape.y,
                    shape.width,
                    shape.height,
                    shape.radius,
                    stroke=stroke,
                    fill=fill,
                )
            else:
                canvas.rect(shape.x, shape.y, shape.width, shape.height, stroke=stroke, fill=fill)
        elif isinstance(shape, LineShape):
            _apply_style(canvas, shape.style)
            canvas.line(shape.x1, shape.y1, shape.x2, shape.y2)
        elif isinstance(shape, CircleShape):
            stroke, fill = _apply_style(canvas, shape.style)
            canvas.circle(shape.cx, shape.cy, shape.r, stroke=stroke, fill=fill)
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
            source = resolve_asset(content_root, shape.path, shape.origin)
            # drawImage with a path: reportlab stores one image object per file name.
            canvas.drawImage(
                str(source),
                shape.x,
                shape.y,
                shape.width,
                shape.height,
                mask="auto",
                preserveAspectRatio=True,
                anchor="c",
            )


def _draw_text(canvas: Canvas, shape: TextShape, fonts: FontSet, report: DrawReport) -> None:
    font = fonts.bold if shape.font == "bold" else fonts.regular
    missing = fonts.missing(shape.text)
    if missing:
        report.missing_glyphs.setdefault(shape.origin, set()).update(missing)
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
        return
    fitted = fit_paragraph(
        shape.text,
        shape.width,
        shape.height,
        font=font,
        size=shape.size,
        min_size=shape.min_size,
        leading_ratio=shape.leading,
        align=shape.align,
        color=shape.color,
    )
    if fitted.overflow:
        report.overflows.add(f"{shape.origin}: text does not fit its box: {shape.text[:24]!r}")
    draw_fitted(
        canvas,
        fitted,
        shape.x,
        shape.y + shape.height,
        shape.width,
        shape.height,
        valign=shape.valign,
    )


def draw_face(
    canvas: Canvas, face: Face, fonts: FontSet, report: DrawReport, content_root: Path | None = None
) -> None:
    draw_shapes(canvas, face.shapes, fonts, report, content_root=content_root)
