"""Single components on their own pages (boards, trackers, aids): true size, tiled if large."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnp.layout.primitives import Face
from pnp.layout.sheets import LABEL_DESCENT, LABEL_SIZE, TilePlan, scale_note, tile_label
from pnp.output import atomic_output
from pnp.render.draw import DrawReport, colour, draw_face
from pnp.render.fonts import FontSet
from pnp.render.pdf import new_canvas
from pnp.units import mm

_ROW_NAMES = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _draw_form(
    canvas: Canvas,
    name: str,
    face: Face,
    fonts: FontSet,
    report: DrawReport,
    content_root: Path | None,
) -> None:
    b = face.bleed
    canvas.beginForm(name, -b, -b, face.width + b, face.height + b)
    draw_face(canvas, face, fonts, report, content_root)
    canvas.endForm()


def _registration_cross(canvas: Canvas, x: float, y: float) -> None:
    size = mm(3)
    canvas.line(x - size, y, x + size, y)
    canvas.line(x, y - size, x, y + size)
    canvas.circle(x, y, size * 0.55, stroke=1, fill=0)


def _tile_page(
    canvas: Canvas, plan: TilePlan, index: int, form: str, fonts: FontSet, title: str
) -> None:
    tile = plan.tiles[index]
    window = tile.window
    canvas.saveState()
    path = canvas.beginPath()
    path.rect(window.x, window.y, window.width, window.height)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(tile.offset_x, tile.offset_y)
    canvas.doForm(form)
    canvas.restoreState()
    canvas.saveState()
    canvas.setStrokeColor(colour("#000000"))
    canvas.setLineWidth(0.3)
    overlap = plan.overlap
    # Glue guides: the strip a neighbour overlaps, with crosses to align the two pages on.
    if tile.column > 0:
        x = window.x + overlap
        canvas.setDash([2, 2])
        canvas.line(x, window.y, x, window.top)
        canvas.setDash([])
        for y in (window.y + window.height * 0.25, window.y + window.height * 0.75):
            _registration_cross(canvas, window.x + overlap / 2, y)
    if tile.row > 0:
        y = window.top - overlap
        canvas.setDash([2, 2])
        canvas.line(window.x, y, window.right, y)
        canvas.setDash([])
        for x in (window.x + window.width * 0.25, window.x + window.width * 0.75):
            _registration_cross(canvas, x, window.top - overlap / 2)
    if tile.column < plan.columns - 1:
        for y in (window.y + window.height * 0.25, window.y + window.height * 0.75):
            _registration_cross(canvas, window.right - overlap / 2, y)
    if tile.row < plan.rows - 1:
        for x in (window.x + window.width * 0.25, window.x + window.width * 0.75):
            _registration_cross(canvas, x, window.y + overlap / 2)
    canvas.setFont(fonts.regular, LABEL_SIZE)
    canvas.setFillColor(colour("#555555"))
    name = f"{_ROW_NAMES[tile.row]}{tile.column + 1}"
    place = tile_label(plan)
    canvas.drawString(
        place.x,
        place.y + LABEL_DESCENT,
        f"{title} · 拼接页 {name}（共 {plan.rows}×{plan.columns}）"
        " · 虚线外的重叠条压在左侧/上方的页下，对齐十字后粘贴",
    )
    canvas.restoreState()


def _scale_footer(canvas: Canvas, plan: TilePlan, fonts: FontSet, title: str) -> None:
    place = tile_label(plan)
    canvas.saveState()
    canvas.setFont(fonts.regular, LABEL_SIZE)
    canvas.setFillColor(colour("#555555"))
    canvas.drawString(place.x, place.y + LABEL_DESCENT, f"{title} · {scale_note(plan.scale)}")
    canvas.restoreState()


def _overview_page(canvas: Canvas, plan: TilePlan, form: str, fonts: FontSet, title: str) -> None:
    """The whole sheet scaled to one page, with the tile grid, so assembly has a map: the page
    turned the way the sheet lies (a wide board on a tall page was a small picture under half
    a page of nothing), the picture right under the title."""
    page_width, page_height = plan.page_width, plan.page_height
    if (plan.sheet_width > plan.sheet_height) != (page_width > page_height):
        page_width, page_height = page_height, page_width
    canvas.setPageSize((page_width, page_height))
    margin = mm(15)
    scale = min(
        (page_width - 2 * margin) / plan.sheet_width,
        (page_height - 2 * margin - mm(10)) / plan.sheet_height,
    )
    x0 = (page_width - plan.sheet_width * scale) / 2
    y0 = page_height - margin - mm(10) - plan.sheet_height * scale
    canvas.saveState()
    canvas.translate(x0, y0)
    canvas.scale(scale, scale)
    canvas.doForm(form)
    canvas.restoreState()
    canvas.saveState()
    canvas.setStrokeColor(colour("#c0262d"))
    canvas.setLineWidth(0.8)
    canvas.setFont(fonts.bold, 12)
    canvas.setFillColor(colour("#c0262d"))
    for tile in plan.tiles:
        left = (tile.window.x - tile.offset_x) * scale + x0
        bottom = (tile.window.y - tile.offset_y) * scale + y0
        canvas.rect(left, bottom, tile.window.width * scale, tile.window.height * scale)
        canvas.drawString(
            left + mm(2),
            bottom + tile.window.height * scale - mm(6),
            f"{_ROW_NAMES[tile.row]}{tile.column + 1}",
        )
    canvas.setFillColor(colour("#1d1d1f"))
    canvas.setFont(fonts.bold, 14)
    canvas.drawString(margin, page_height - margin, f"{title} · 拼接总览（缩小图）")
    canvas.restoreState()


def render_sheets(
    path: Path,
    faces: Sequence[tuple[Face, int, TilePlan]],
    *,
    page_size: tuple[float, float],
    title: str,
    fonts: FontSet,
    report: DrawReport,
    content_root: Path | None = None,
) -> int:
    """Write every face at true size on the pages layout planned for it (``plan_sheet``): one
    page, or tiles with an overview when the face is larger than the paper."""
    page_count = 0
    with atomic_output(path) as temporary:
        canvas = new_canvas(temporary, page_size, title=title, font=fonts.regular)
        for number, (face, copies, plan) in enumerate(faces):
            form = f"Sheet{number}"
            _draw_form(canvas, form, face, fonts, report, content_root)
            canvas.setPageSize((plan.page_width, plan.page_height))
            for copy in range(copies):
                if plan.is_single_page:
                    tile = plan.tiles[0]
                    k = plan.scale
                    canvas.setTrimBox(
                        (
                            tile.offset_x,
                            tile.offset_y,
                            tile.offset_x + face.width * k,
                            tile.offset_y + face.height * k,
                        )
                    )
                    canvas.setBleedBox(
                        (
                            tile.offset_x - face.bleed * k,
                            tile.offset_y - face.bleed * k,
                            tile.offset_x + (face.width + face.bleed) * k,
                            tile.offset_y + (face.height + face.bleed) * k,
                        )
                    )
                    canvas.saveState()
                    canvas.translate(tile.offset_x, tile.offset_y)
                    if plan.scale != 1.0:
                        canvas.scale(plan.scale, plan.scale)
                    canvas.doForm(form)
                    canvas.restoreState()
                    if plan.scale != 1.0:
                        _scale_footer(canvas, plan, fonts, title)
                    canvas.showPage()
                    page_count += 1
                    continue
                if copy == 0:
                    # One map of the assembly serves every copy of the sheet.
                    _overview_page(canvas, plan, form, fonts, title)
                    canvas.showPage()
                    canvas.setPageSize((plan.page_width, plan.page_height))
                    page_count += 1
                for index in range(len(plan.tiles)):
                    _tile_page(canvas, plan, index, form, fonts, title)
                    canvas.showPage()
                    page_count += 1
        canvas.save()
    return page_count
