"""Card sheets: fronts at true size with bleed and crop marks, backs mirrored behind them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnp.layout.primitives import Face
from pnp.layout.sheets import (
    LABEL_DESCENT,
    LABEL_SIZE,
    CardGrid,
    Flip,
    Shelf,
    Slot,
    shared_label,
)
from pnp.output import atomic_output
from pnp.render.draw import DrawReport, colour
from pnp.render.fonts import FontSet
from pnp.render.forms import FaceForms
from pnp.render.pdf import new_canvas
from pnp.render.reportlab_adapter import emit, operators

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


class _Placer:
    """Places faces in the slots of a sheet's pages.

    A slot's operators (save, clip, move, turn) are the same on every page; they are worked
    out on the first page and written again on the others, with only the form they draw
    changed.  Each placement restores the state it saved, so writing them again is drawing
    them again.
    """

    def __init__(
        self, canvas: Canvas, forms: FaceForms, grid: CardGrid, options: CardSheetOptions
    ) -> None:
        self.canvas, self.forms, self.grid, self.options = canvas, forms, grid, options
        self.openings: dict[tuple[bool, int, bool], list[str]] = {}
        self.marks: dict[tuple[int | None, bool], list[str]] = {}

    def crop_marks(self, filled: int, back: bool) -> None:
        """The page's crop marks: for the slots it fills (a full page's are the same
        operators in the same state on every page), mirrored behind the fronts on a back."""
        code = operators(self.canvas)
        key = (None if filled >= self.grid.per_page else filled, back)
        known = self.marks.get(key)
        if known is None:
            start = len(code)
            flip = self.options.flip if back else None
            _crop_marks(self.canvas, self.grid, key[0], flip)
            self.marks[key] = code[start:]
        else:
            code.extend(known)

    def front(self, face: Face, index: int) -> None:
        self._place(face, False, index)

    def back(self, face: Face, index: int) -> None:
        self._place(face, True, index)

    def _place(self, face: Face, back: bool, index: int) -> None:
        canvas = self.canvas
        name = self.forms.name_for(face)
        # A landscape item in a portrait slot: turned a quarter so it still fills the trim.
        turned = abs(face.width - self.grid.card_width) > 0.01
        key = (back, index, turned)
        opening = self.openings.get(key)
        if opening is not None:
            emit(canvas, *opening)
            canvas.doForm(name)
            emit(canvas, "Q")
            return
        start = len(operators(canvas))
        options = self.options
        if back:
            _open_slot(
                canvas,
                self.grid.back(index, options.flip),
                turned,
                options.back_offset_x,
                options.back_offset_y,
                clockwise=options.flip is Flip.LONG_EDGE,
            )
        else:
            _open_slot(canvas, self.grid.front(index), turned)
        self.openings[key] = operators(canvas)[start:]
        canvas.doForm(name)
        canvas.restoreState()


def _open_slot(
    canvas: Canvas,
    slot: Slot,
    turned: bool,
    dx: float = 0.0,
    dy: float = 0.0,
    clockwise: bool = False,
) -> None:
    """Save the state, clip to `slot` and move the origin to its trim, turned a quarter if
    the face is landscape in a portrait slot.

    Fronts turn counter-clockwise (the face's top on the slot's left). A back printed for a
    long-edge flip turns `clockwise`, so after the flip its top lies on the same physical edge
    as its front's top; a short-edge flip keeps left and right, so its backs turn like fronts.
    """
    canvas.saveState()
    path = canvas.beginPath()
    cell = slot.cell
    path.rect(cell.x + dx, cell.y + dy, cell.width, cell.height)
    canvas.clipPath(path, stroke=0, fill=0)
    canvas.translate(slot.trim.x + dx, slot.trim.y + dy)
    if turned:
        if clockwise:
            canvas.rotate(-90)
            canvas.translate(-slot.trim.height, 0)
        else:
            canvas.rotate(90)
            canvas.translate(0, -slot.trim.width)


def _crop_marks(canvas: Canvas, grid: CardGrid, filled: int | None, flip: Flip | None) -> None:
    canvas.saveState()
    canvas.setStrokeColor(colour("#000000"))
    canvas.setLineWidth(CROP_MARK_WIDTH)
    width, height = grid.page_width, grid.page_height
    for mark in grid.crop_marks(filled):
        x1, y1, x2, y2 = mark.x1, mark.y1, mark.x2, mark.y2
        if flip is Flip.LONG_EDGE:
            x1, x2 = width - x1, width - x2
        elif flip is Flip.SHORT_EDGE:
            y1, y2 = height - y1, height - y2
        canvas.line(x1, y1, x2, y2)
    canvas.restoreState()


def _one_component_boxes(canvas: Canvas, slot: Slot) -> None:
    """A page that is one component (a map tile) says where its trim and bleed are, as
    print shops and checkers read them."""
    trim, cell = slot.trim, slot.cell
    canvas.setTrimBox((trim.x, trim.y, trim.right, trim.top))
    canvas.setBleedBox((cell.x, cell.y, cell.right, cell.top))


def _label(canvas: Canvas, grid: CardGrid, font: str, text: str) -> None:
    place = grid.label()
    if place is None:  # the cards fill the printable area: the footer would print over them
        return
    canvas.saveState()
    canvas.setFont(font, LABEL_SIZE)
    canvas.setFillColor(colour("#777777"))
    canvas.drawCentredString(place.x + place.width / 2, place.y + LABEL_DESCENT, text)
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
        placer = _Placer(canvas, FaceForms(canvas, fonts, report, content_root), grid, options)
        for page in range(pages):
            chunk = cards[page * grid.per_page : (page + 1) * grid.per_page]
            if grid.per_page == 1:
                _one_component_boxes(canvas, grid.front(0))
            for index, (front, _) in enumerate(chunk):
                placer.front(front, index)
            if options.crop_marks:
                placer.crop_marks(len(chunk), back=False)
            _label(canvas, grid, fonts.regular, f"{title} · 正面 {page + 1}/{pages}")
            canvas.showPage()
            if not has_backs:
                continue
            for index, (_, back) in enumerate(chunk):
                if back is not None:
                    placer.back(back, index)
            if grid.per_page == 1:
                _one_component_boxes(canvas, grid.back(0, options.flip))
            if options.crop_marks:
                placer.crop_marks(len(chunk), back=True)
            _label(canvas, grid, fonts.regular, f"{title} · 背面 {page + 1}/{pages}")
            canvas.showPage()
        canvas.save()
    return pages * (2 if has_backs else 1)


@dataclass(frozen=True)
class SharedProduct:
    """One product on a shared sheet: its title (the footer names it) and its pieces."""

    title: str
    runs: Sequence[CardRun]


def render_shared_sheets(
    path: Path,
    products: Sequence[SharedProduct],
    pages: Sequence[tuple[Shelf, ...]],
    *,
    title: str,
    fonts: FontSet,
    options: CardSheetOptions,
    report: DrawReport,
    content_root: Path | None = None,
) -> int:
    """Write the pieces of several products on shared pages (``plan_shared_sheets``), each
    page's backs behind its fronts; returns the page count."""
    pieces = [
        [(run.front, run.back) for run in product.runs for _ in range(run.copies)]
        for product in products
    ]
    has_backs = options.duplex and any(
        back is not None for product in pieces for _, back in product
    )
    page_width, page_height = pages[0][0].grid.page_width, pages[0][0].grid.page_height
    place = shared_label(page_width, pages[0][0].grid.margin)
    # A short-edge flip turns the back upside down: its shelves read bottom to top.
    order = "从下到上" if options.flip is Flip.SHORT_EDGE else "从上到下"
    with atomic_output(path) as temporary:
        canvas = new_canvas(temporary, (page_width, page_height), title=title, font=fonts.regular)
        forms = FaceForms(canvas, fonts, report, content_root)
        placers: dict[CardGrid, _Placer] = {}
        for number, shelves in enumerate(pages, start=1):
            # A player cuts a shelf's pieces apart and needs to know which product they are:
            # the footer names the shelves top to bottom.
            held = "、".join(dict.fromkeys(products[shelf.product].title for shelf in shelves))
            for side in ("正面", "背面") if has_backs else ("正面",):
                back = side == "背面"
                for shelf in shelves:
                    placer = placers.setdefault(
                        shelf.grid, _Placer(canvas, forms, shelf.grid, options)
                    )
                    chunk = pieces[shelf.product][shelf.first : shelf.first + shelf.count]
                    for index, (front, back_face) in enumerate(chunk):
                        if not back:
                            placer.front(front, index)
                        elif back_face is not None:
                            placer.back(back_face, index)
                    if options.crop_marks:
                        placer.crop_marks(len(chunk), back=back)
                canvas.saveState()
                canvas.setFont(fonts.regular, LABEL_SIZE)
                canvas.setFillColor(colour("#777777"))
                # The footer's strip is kept free on the front; a short-edge back mirrors
                # the shelves top to bottom, so its free strip is at the top.
                low = place.y
                if back and options.flip is Flip.SHORT_EDGE:
                    low = page_height - place.y - place.height
                canvas.drawCentredString(
                    place.x + place.width / 2,
                    low + LABEL_DESCENT,
                    f"{title} · {order if back else '从上到下'}：{held} · {side} "
                    f"{number}/{len(pages)}",
                )
                canvas.restoreState()
                canvas.showPage()
        canvas.save()
    return len(pages) * (2 if has_backs else 1)
