"""Where things go on paper: card grids with bleed and crop marks, duplex backs, tiling.

Pure geometry in points (PDF coordinates, origin bottom-left). Render draws what this plans.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pnp.units import mm

PRINTER_MARGIN = mm(5)  # most home printers cannot print the outer 5 mm of a sheet
DEFAULT_BLEED_MM = 3.0  # a print shop's usual bleed: what a kit is built with unless told
MARK_GAP = mm(1)  # crop marks stop short of the trim line's neighbourhood
MARK_MIN = mm(2)  # a crop mark shorter than this is no help to a cutter
MARK_LENGTH = mm(8)
# Abutting cards each paint a hair past their shared cut line, so a viewer's anti-aliasing
# or a printer's rounding shows no paper-white seam between them.
SEAM = mm(0.2)
# Cards that butt share their cut line, so they cannot have bleed there: each such card keeps
# this much paper white inside its trim on every side (the same on every card, so they match),
# and a cut up to this far off shows white, never a sliver of the neighbour.
NEUTRAL_BORDER = mm(1.5)


LABEL_SIZE = 6.0  # pt: a sheet's footer, small but legible
LABEL_HEIGHT = mm(2.5)  # what a footer line of LABEL_SIZE takes, descenders included
LABEL_DESCENT = mm(0.6)  # from the bottom of a footer's box to its baseline


class Flip(enum.Enum):
    """How the sheet turns over in a duplex printer."""

    LONG_EDGE = "long"
    """Portrait sheet flipped on its long edge: a back keeps its row and mirrors its column."""
    SHORT_EDGE = "short"
    """Flipped on its short edge: a back keeps its column and mirrors its row."""


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height


@dataclass(frozen=True)
class Slot:
    """One card on a page: its trim, and the cell it may paint (trim plus the bleed it owns)."""

    trim: Rect
    cell: Rect


@dataclass(frozen=True)
class Mark:
    x1: float
    y1: float
    x2: float
    y2: float


@dataclass(frozen=True)
class CardGrid:
    """A page of cards at true size: as many as fit, with bleed wherever there is room."""

    page_width: float
    page_height: float
    card_width: float
    card_height: float
    bleed: float
    columns: int
    rows: int
    gutter_x: float
    gutter_y: float
    origin_x: float  # left trim edge of column 0
    origin_y: float  # bottom trim edge of the bottom row
    neutral_border: float = 0.0
    """Paper left white inside every trim, where cards butt and so share a cut line."""
    margin: float = PRINTER_MARGIN
    """The outer strip of the page the printer cannot reach: nothing but bleed goes there."""
    band: tuple[float, float] | None = None
    """(bottom, top) of the strip of page this grid's vertical crop marks stay within, when it
    shares the page with other grids (a shelf of a shared token sheet); else the margins."""

    @property
    def per_page(self) -> int:
        return self.columns * self.rows

    def pages_for(self, cards: int) -> int:
        return max(1, math.ceil(cards / self.per_page))

    def front(self, index_on_page: int) -> Slot:
        """Slot of the index-th card of a page, filled left to right, top to bottom."""
        row, column = divmod(index_on_page, self.columns)
        return self._slot(column, self.rows - 1 - row)

    def back(self, index_on_page: int, flip: Flip = Flip.LONG_EDGE) -> Slot:
        """Slot of that card's back on the following page, so the back lands behind its face."""
        row, column = divmod(index_on_page, self.columns)
        grid_row = self.rows - 1 - row
        front = self._slot(column, grid_row)
        if flip is Flip.LONG_EDGE:
            # x_back = page_width - x_front - card_width (rows stay, columns mirror)
            return Slot(
                trim=_mirror_x(front.trim, self.page_width),
                cell=_mirror_x(front.cell, self.page_width),
            )
        return Slot(
            trim=_mirror_y(front.trim, self.page_height),
            cell=_mirror_y(front.cell, self.page_height),
        )

    def _slot(self, column: int, grid_row: int) -> Slot:
        x = self.origin_x + column * (self.card_width + self.gutter_x)
        y = self.origin_y + grid_row * (self.card_height + self.gutter_y)
        trim = Rect(x, y, self.card_width, self.card_height)
        border = self.neutral_border
        if border > 0:
            inner = Rect(x + border, y + border, trim.width - 2 * border, trim.height - 2 * border)
            return Slot(trim=trim, cell=inner)
        # A card owns the bleed on a side that faces the outside of the grid or a gutter; where
        # two cards abut, the shared cut line is the edge of both and neither paints past it.
        left = self.bleed if (column == 0 or self.gutter_x) else SEAM
        right = self.bleed if (column == self.columns - 1 or self.gutter_x) else SEAM
        bottom = self.bleed if (grid_row == 0 or self.gutter_y) else SEAM
        top = self.bleed if (grid_row == self.rows - 1 or self.gutter_y) else SEAM
        cell = Rect(
            x - left, y - bottom, self.card_width + left + right, self.card_height + bottom + top
        )
        return Slot(trim=trim, cell=cell)

    def cut_lines_x(self, filled: int | None = None) -> list[float]:
        """Every vertical trim line of the grid (of its first `filled` slots), left to right,
        shared lines once."""
        lines: list[float] = []
        columns = self.columns if filled is None else min(self.columns, filled)
        for column in range(columns):
            left = self.origin_x + column * (self.card_width + self.gutter_x)
            for x in (left, left + self.card_width):
                if not lines or abs(lines[-1] - x) > 1e-6:
                    lines.append(x)
        return lines

    def cut_lines_y(self, filled: int | None = None) -> list[float]:
        """Every horizontal trim line of the grid (of the rows its first `filled` slots
        reach: they fill from the top), bottom to top, shared lines once."""
        lines: list[float] = []
        used = self.rows if filled is None else min(self.rows, -(-filled // self.columns))
        for row in range(self.rows - used, self.rows):
            bottom = self.origin_y + row * (self.card_height + self.gutter_y)
            for y in (bottom, bottom + self.card_height):
                if not lines or abs(lines[-1] - y) > 1e-6:
                    lines.append(y)
        return lines

    def crop_marks(self, filled: int | None = None) -> list[Mark]:
        """A mark on every trim line, outside the grid only, so none crosses a face; with
        `filled`, only the lines of the first `filled` slots (a page's last cards), so an
        empty slot gets no marks.

        Marks start just outside the outermost trims (over the outer bleed, which is cut
        away) and run towards the page edge, but stop at the printer's margin: a mark there
        would not print. A mark with too little room is left out.
        """
        xs, ys = self.cut_lines_x(filled), self.cut_lines_y(filled)
        left, right = self.cut_lines_x()[0], self.cut_lines_x()[-1]
        bottom, top = self.cut_lines_y()[0], self.cut_lines_y()[-1]
        low_x, high_x = self.margin, self.page_width - self.margin
        low_y, high_y = self.band or (self.margin, self.page_height - self.margin)
        marks: list[Mark] = []
        # Over a neutral border nothing is painted past the trim, so a mark may run up to it.
        gap = 0.0 if self.neutral_border else MARK_GAP

        def add(x1: float, y1: float, x2: float, y2: float) -> None:
            if max(x2 - x1, y2 - y1) >= MARK_MIN - 1e-6:
                marks.append(Mark(x1, y1, x2, y2))

        for x in xs:
            add(x, max(low_y, bottom - gap - MARK_LENGTH), x, bottom - gap)
            add(x, top + gap, x, min(high_y, top + gap + MARK_LENGTH))
        for y in ys:
            add(max(low_x, left - gap - MARK_LENGTH), y, left - gap, y)
            add(right + gap, y, min(high_x, right + gap + MARK_LENGTH), y)
        return marks

    def label(self) -> Rect | None:
        """Where the sheet's footer (product and page) goes: below the grid, or above it,
        inside the printable area and clear of the bleed; None when the grid leaves no room."""
        outer = 0.0 if self.neutral_border else self.bleed
        below = self.origin_y - outer - self.margin
        if below >= LABEL_HEIGHT:
            return Rect(self.margin, self.margin, self.page_width - 2 * self.margin, LABEL_HEIGHT)
        grid_top = self.cut_lines_y()[-1] + outer
        if self.page_height - self.margin - grid_top >= LABEL_HEIGHT:
            return Rect(
                self.margin,
                self.page_height - self.margin - LABEL_HEIGHT,
                self.page_width - 2 * self.margin,
                LABEL_HEIGHT,
            )
        return None


def _mirror_x(rect: Rect, page_width: float) -> Rect:
    return Rect(page_width - rect.x - rect.width, rect.y, rect.width, rect.height)


def _mirror_y(rect: Rect, page_height: float) -> Rect:
    return Rect(rect.x, page_height - rect.y - rect.height, rect.width, rect.height)


def _fit_axis(available: float, card: float, bleed: float) -> tuple[int, float]:
    """(cards along this axis, gutter): a gutter of two bleeds when it costs no card.

    Only trims must lie in the printable area; the outer bleed may run into the margin the
    printer cannot reach, because it is cut away anyway. That keeps 3x3 poker on Letter.
    """
    abutting = int((available + 1e-6) // card)
    gutter = 2 * bleed
    with_gutter = int((available + gutter + 1e-6) // (card + gutter))
    if gutter > 0 and with_gutter == abutting:
        return abutting, gutter
    return abutting, 0.0


def card_slot(width: float, height: float) -> tuple[float, float]:
    """The portrait slot a card of ``width`` x ``height`` takes on a sheet: landscape cards sit
    turned a quarter in it, as more fit that way."""
    return (height, width) if width > height else (width, height)


def plan_card_grid(
    card_width: float,
    card_height: float,
    *,
    bleed: float,
    page_width: float,
    page_height: float,
    margin: float = PRINTER_MARGIN,
) -> CardGrid:
    """The grid that fits the most cards of this size on the page, centred."""
    # Room for a crop mark on every side, inside the printable area: without it the cut lines
    # of a grid that fills the paper (tokens) had no marks at all on two sides.
    room = 2 * (margin + MARK_MIN)
    columns, gutter_x = _fit_axis(page_width - room, card_width, bleed)
    rows, gutter_y = _fit_axis(page_height - room, card_height, bleed)
    if columns < 1 or rows < 1:
        raise ValueError(
            f"a {card_width / mm(1):.0f}x{card_height / mm(1):.0f} mm card with "
            f"{bleed / mm(1):.0f} mm bleed does not fit on a "
            f"{page_width / mm(1):.0f}x{page_height / mm(1):.0f} mm page"
        )
    grid_width = columns * card_width + (columns - 1) * gutter_x
    grid_height = rows * card_height + (rows - 1) * gutter_y
    butted = (columns > 1 and gutter_x == 0) or (rows > 1 and gutter_y == 0)
    return CardGrid(
        page_width=page_width,
        page_height=page_height,
        card_width=card_width,
        card_height=card_height,
        bleed=bleed,
        columns=columns,
        rows=rows,
        gutter_x=gutter_x,
        gutter_y=gutter_y,
        origin_x=(page_width - grid_width) / 2,
        origin_y=(page_height - grid_height) / 2,
        neutral_border=NEUTRAL_BORDER if butted else 0.0,
        margin=margin,
    )


SHELF_MARK = mm(3)  # a crop mark between two shelves of a shared sheet: short, still easy to see
SHELF_CLEARANCE = mm(0.5)  # between one shelf's bleed and the next shelf's crop marks


@dataclass(frozen=True)
class Shelf:
    """Whole rows of one product's pieces on a sheet shared with other products."""

    product: int
    """Which of the packed products (its index in the list given to plan_shared_sheets)."""
    first: int
    """Index, among that product's pieces in print order, of the first on this shelf."""
    count: int
    grid: CardGrid
    """The shelf's rows laid out on the page, crop marks bounded to the shelf's band."""


def plan_shared_sheets(
    pieces: Sequence[tuple[float, float, int]],
    *,
    bleed: float,
    page_width: float,
    page_height: float,
    margin: float = PRINTER_MARGIN,
) -> list[tuple[Shelf, ...]]:
    """Pages holding every piece of several products, `pieces` being (slot width, slot
    height, how many) of each: each product fills whole rows of its own grid (the grid
    plan_card_grid gives it alone on the page), stacked top to bottom under one another and
    run onto the next page when the page is full. Tokens of one kit so share paper instead of
    taking a mostly blank page each.

    Shelves are apart by a strip that holds both shelves' bleed and crop marks; a footer
    strip stays free at the foot of every page."""
    pages: list[tuple[Shelf, ...]] = []
    shelves: list[Shelf] = []
    floor = margin + LABEL_HEIGHT + MARK_GAP  # the footer's strip lies below
    top_room = page_height - margin
    cursor: float | None = None  # top of the room left on the current page
    for product, (width, height, count) in enumerate(pieces):
        alone = plan_card_grid(
            width,
            height,
            bleed=bleed,
            page_width=page_width,
            page_height=page_height,
            margin=margin,
        )
        outer = 0.0 if alone.neutral_border else bleed
        gap = 0.0 if alone.neutral_border else MARK_GAP
        # Above and below a shelf: its bleed, or a crop mark long enough to cut on.
        reach = max(outer + SHELF_CLEARANCE, gap + SHELF_MARK)
        step = height + alone.gutter_y
        first = 0
        while first < count:
            if cursor is None:
                cursor = top_room
            rows_fit = int((cursor - reach - (floor + reach) + alone.gutter_y + 1e-6) // step)
            if rows_fit < 1:
                if not shelves:
                    raise ValueError("a piece does not fit on a shared sheet")
                pages.append(_banded(shelves, floor, top_room))
                shelves, cursor = [], None
                continue
            rows = min(rows_fit, -(-(count - first) // alone.columns), alone.rows)
            top = cursor - reach
            bottom = top - (rows * height + (rows - 1) * alone.gutter_y)
            grid = replace(alone, rows=rows, origin_y=bottom)
            taken = min(count - first, rows * alone.columns)
            shelves.append(Shelf(product, first, taken, grid))
            first += taken
            cursor = bottom - reach
    if shelves:
        pages.append(_banded(shelves, floor, top_room))
    return pages


def _banded(shelves: list[Shelf], floor: float, ceiling: float) -> tuple[Shelf, ...]:
    """The page's shelves, each grid's crop marks kept to its half of the strips around it."""
    banded: list[Shelf] = []
    for index, shelf in enumerate(shelves):
        grid = shelf.grid
        bottom, top = grid.origin_y, grid.cut_lines_y()[-1]
        high = ceiling if index == 0 else (shelves[index - 1].grid.origin_y + top) / 2
        if index == len(shelves) - 1:
            low = floor
        else:
            low = (bottom + shelves[index + 1].grid.cut_lines_y()[-1]) / 2
        banded.append(replace(shelf, grid=replace(grid, band=(low, high))))
    return tuple(banded)


def shared_label(page_width: float, margin: float = PRINTER_MARGIN) -> Rect:
    """Where a shared sheet's footer (what it holds, top to bottom, and its page) goes."""
    return Rect(margin, margin, page_width - 2 * margin, LABEL_HEIGHT)


@dataclass(frozen=True)
class Tile:
    """One page of a sheet too large for the paper: which part of the sheet it shows."""

    column: int
    row: int
    # The sheet is drawn at (offset_x, offset_y) on this page and clipped to `window`.
    offset_x: float
    offset_y: float
    window: Rect


@dataclass(frozen=True)
class TilePlan:
    page_width: float
    page_height: float
    sheet_width: float
    sheet_height: float
    columns: int
    rows: int
    overlap: float
    tiles: tuple[Tile, ...]
    margin: float = PRINTER_MARGIN
    scale: float = 1.0
    """Below 1: a sheet whose size is no rule (an aid), shrunk to one page instead of tiled;
    its footer states the scale."""

    @property
    def is_single_page(self) -> bool:
        return self.columns == 1 and self.rows == 1


def plan_tiles(
    sheet_width: float,
    sheet_height: float,
    *,
    page_width: float,
    page_height: float,
    margin: float = PRINTER_MARGIN,
    overlap: float = mm(10),
) -> TilePlan:
    """Pages that together show the sheet at true size, neighbours sharing an overlap strip.

    A sheet that fits one page is centred on it. Otherwise each page shows a window of the
    printable area; consecutive windows overlap by `overlap`, where the alignment marks go.
    """
    usable_w, usable_h = page_width - 2 * margin, page_height - 2 * margin
    if sheet_width <= usable_w + 1e-6 and sheet_height <= usable_h + 1e-6:
        x, y = (page_width - sheet_width) / 2, (page_height - sheet_height) / 2
        tile = Tile(0, 0, x, y, Rect(x, y, sheet_width, sheet_height))
        return TilePlan(page_width, page_height, sheet_width, sheet_height, 1, 1, 0.0, (tile,))
    # A tile page's footer (its place in the assembly) takes a strip under the window.
    usable_h -= LABEL_HEIGHT + MARK_GAP
    step_w, step_h = usable_w - overlap, usable_h - overlap
    columns = max(1, math.ceil((sheet_width - overlap) / step_w))
    rows = max(1, math.ceil((sheet_height - overlap) / step_h))
    tiles: list[Tile] = []
    for row in range(rows):  # row 0 is the top of the sheet
        for column in range(columns):
            sheet_x = column * step_w  # left edge of the window, in sheet coordinates
            sheet_top = sheet_height - row * step_h
            window_w = min(usable_w, sheet_width - sheet_x)
            window_h = min(usable_h, sheet_top)
            offset_x = margin - sheet_x
            offset_y = (page_height - margin) - sheet_top
            window = Rect(margin, page_height - margin - window_h, window_w, window_h)
            tiles.append(Tile(column, row, offset_x, offset_y, window))
    return TilePlan(
        page_width,
        page_height,
        sheet_width,
        sheet_height,
        columns,
        rows,
        overlap,
        tuple(tiles),
        margin,
    )


def scale_note(scale: float) -> str:
    """What the footer and the read-me say of a shrunk aid."""
    return f"按 {scale:.0%} 缩小到一页"


SMALLEST_SCALE = 0.8
"""An aid is shrunk to one page down to this scale; below it, it is tiled at true size."""


def plan_sheet(
    width: float,
    height: float,
    page_size: tuple[float, float],
    *,
    scalable: bool = False,
    margin: float = PRINTER_MARGIN,
) -> TilePlan:
    """The pages of one sheet of ``width`` x ``height`` points at true size: the paper turned
    whichever way needs fewer pages (the given way on a tie).

    A `scalable` sheet (an aid: nothing is placed on it, so its size is no rule) that would be
    tiled is shrunk to fit one page instead, leaving a strip for the footer that states the
    scale, when that keeps it at SMALLEST_SCALE or larger."""
    page_width, page_height = page_size
    given = plan_tiles(width, height, page_width=page_width, page_height=page_height, margin=margin)
    turned = plan_tiles(
        width, height, page_width=page_height, page_height=page_width, margin=margin
    )
    plan = turned if len(turned.tiles) < len(given.tiles) else given
    if plan.is_single_page or not scalable:
        return plan
    usable_w = page_width - 2 * margin
    usable_h = page_height - 2 * margin - LABEL_HEIGHT - MARK_GAP
    scale = min(usable_w / width, usable_h / height)
    if scale < SMALLEST_SCALE:
        return plan
    x = (page_width - width * scale) / 2
    y = margin + LABEL_HEIGHT + MARK_GAP + (usable_h - height * scale) / 2
    tile = Tile(0, 0, x, y, Rect(x, y, width * scale, height * scale))
    return TilePlan(page_width, page_height, width, height, 1, 1, 0.0, (tile,), margin, scale)


def tile_label(plan: TilePlan) -> Rect:
    """Where a tile page's footer (its place in the assembly, or a shrunk aid's scale) is
    written: the strip the plan keeps under the window, inside the printable area."""
    return Rect(plan.margin, plan.margin, plan.page_width - 2 * plan.margin, LABEL_HEIGHT)


def booklet_scale(page: tuple[float, float], paper: tuple[float, float]) -> float:
    """How much a reading page is scaled to sit two-up on the landscape paper: 1 when two
    fit (A5 on A4), less when they do not (A5 on Letter: 0.944)."""
    sheet_w, sheet_h = max(paper), min(paper)
    return min(1.0, sheet_w / 2 / page[0], sheet_h / page[1])
