"""Card sheets: fronts at true size with bleed and crop marks, backs mirrored behind them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnp.layout.primitives import Face
from pnp.layout.sheets import CardGrid, Flip, Slot
from pnp.output import atomic_output
from pnp.render.draw import DrawReport, colour, draw_face
from pnp.render.fonts import FontSet
from pnp.render.pdf import new_canvas
from pnp.units import mm

CROP_MARK_WIDTH = 0.3  # pt: thin enough to cut on, thick enough to see


@dataclass(frozen=True)
class CardRun:
    """One item of a product: its faces and how many copies the kit holds."""

    front: Face
    back: Face | None
    copies: int


@dataclass(frozen=True)
class CardSheetOptions:
    crop_marks: bool = True
    duplex: bool = True
    flip: Flip = Flip.LONG_EDGE
    back_offset_x: float = 0.0  # pt, shifts every back to correct a printer's duplex drift
    back_offset_y: float = 0.0


class _Forms:
    """Each distinct face is drawn once as a form XObject and placed by reference."""

    def __init__(
        self, canvas: Canvas, fonts: FontSet, report: DrawReport, content_root: Path | None
    ) -> None:
        self.canvas, self.fonts, self.report = canvas, fonts, report
        self.content_root = content_root
        self.names: dict[tuple[object, ...], str] = {}

    def name_for(self, face: Face) -> str:
        # Keyed by what is drawn, not by which item it is: the 96 identical backs of a deck
        # become one form, and so do the two decks' copies of each face.
        content = (face.width, face.height, face.bleed, face.shapes)
        name = self.names.get(content)
        if name is None:
            name = f"Face{len(self.names)}"
            self.names[content] = name
            b = face.bleed
            self.canvas.beginForm(name, -b, -b, face.width + b, face.height + b)
            draw_face(self.canvas, face, self.fonts, self.report, self.content_root)
            self.canvas.endForm()
        return name


def _place(
    canvas: Canvas,
    forms: _Forms,
    face: Face,
    slot: Slot,
    dx: float = 0.0,
    dy: float = 0.0,
    clockwise: bool = False,
) -> None:
    """Draw `face` in `slot`; a landscape face in a portrait slot is turned a quarter.

    Fronts turn counter-clockwise (the face's top on the slot's left). A back printed for a
    long-edge flip turns `clockwise`, so after the flip its top lies on the same physical edge
    as its front's top; a short-edge flip keeps left and right, so its backs turn like fronts.
    """
    name = forms.name_for(face)
    canvas.saveState()
    path = canvas.beginPath()
    cell = slot.cell
    path.rect(cell.x + dx, cell.y + dy, cell.width, cell.height)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(slot.trim.x + dx, slot.trim.y + dy)
    if abs(face.width - slot.trim.width) > 0.01:
        # A landscape item in a portrait slot: turn it a quarter so it still fills the trim.
        if clockwise:
            canvas.rotate(-90)
            canvas.translate(-slot.trim.height, 0)
        else:
            canvas.rotate(90)
            canvas.translate(0, -slot.trim.width)
    canvas.doForm(name)
    canvas.restoreState()


def _crop_marks(canvas: Canvas, grid: CardGrid) -> None:
    canvas.saveState()
    canvas.setStrokeColor(colour("#000000"))
    canvas.setLineWidth(CROP_MARK_WIDTH)
    for mark in grid.crop_marks():
        canvas.line(mark.x1, mark.y1, mark.x2, mark.y2)
    canvas.restoreState()


def _label(canvas: Canvas, grid: CardGrid, font: str, text: str) -> None:
    canvas.saveState()
    canvas.setFont(font, 6)
    canvas.setFillColor(colour("#777777"))
    canvas.drawCentredString(grid.page_width / 2, mm(2.5), text)
    canvas.restoreState()


def render_card_sheets(
    path: Path,
    runs: Sequence[CardRun],
    grid: CardGrid,
    *,
    title: str,
    fonts: FontSet,
    options: CardSheetOptions,
    report: DrawReport,
    content_root: Path | None = None,
) -> int:
    """Write the product's PDF; returns its page count. Fronts and backs alternate pages."""
    cards = [(run.front, run.back) for run in runs for _ in range(run.copies)]
    pages = grid.pages_for(len(cards))
    has_backs = options.duplex and any(back is not None for _, back in cards)
    with atomic_output(path) as temporary:
        canvas = new_canvas(
            temporary, (grid.page_width, grid.page_height), title=title, font=fonts.regular
        )
        forms = _Forms(canvas, fonts, report, content_root)
        for page in range(pages):
            chunk = cards[page * grid.per_page : (page + 1) * grid.per_page]
            for index, (front, _) in enumerate(chunk):
                _place(canvas, forms, front, grid.front(index))
            if options.crop_marks:
                _crop_marks(canvas, grid)
            _label(canvas, grid, fonts.regular, f"{title} · 正面 {page + 1}/{pages}")
            canvas.showPage()
            if not has_backs:
                continue
            for index, (_, back) in enumerate(chunk):
                if back is not None:
                    _place(
                        canvas,
                        forms,
                        back,
                        grid.back(index, options.flip),
                        options.back_offset_x,
                        options.back_offset_y,
                        clockwise=options.flip is Flip.LONG_EDGE,
                    )
            if options.crop_marks:
                _crop_marks(canvas, grid)
            _label(canvas, grid, fonts.regular, f"{title} · 背面 {page + 1}/{pages}")
            canvas.showPage()
        canvas.save()
    return pages * (2 if has_backs else 1)
