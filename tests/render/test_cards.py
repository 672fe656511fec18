"""Card sheets: a slot drawn again from the first page writes what placing it anew writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from pnp.layout.primitives import Face, RectShape, Style, TextShape
from pnp.layout.sheets import CardGrid, Flip, Slot, plan_card_grid
from pnp.render import cards
from pnp.render.cards import CardRun, CardSheetOptions, render_card_sheets
from pnp.render.draw import DrawReport
from pnp.render.fonts import FontSet
from pnp.units import mm
from tests.render.test_fonts import cjk_fonts

__all__ = ["cjk_fonts"]

WIDTH, HEIGHT = mm(63), mm(88)


def _face(key: str, width: float, height: float) -> Face:
    label = TextShape(5, 5, 60, 20, key, "regular", 10, 6, "#000", "left", "top", 1.3)
    frame = RectShape(0, 0, width, height, Style(stroke="#c0262d"), radius=4)
    return Face(key, width, height, mm(3), (frame, label))


def _runs() -> list[CardRun]:
    """Eleven cards over two pages: portrait and landscape, some without a back."""
    back = _face("back", WIDTH, HEIGHT)
    runs = [CardRun(_face(f"card {n}", WIDTH, HEIGHT), back, 1 + n % 2) for n in range(5)]
    runs.append(CardRun(_face("field", HEIGHT, WIDTH), _face("field back", HEIGHT, WIDTH), 2))
    runs.append(CardRun(_face("no back", WIDTH, HEIGHT), None, 1))
    return runs


def _place_anew(
    canvas: Canvas,
    forms: cards._Forms,
    face: Face,
    slot: Slot,
    back: bool,
    options: CardSheetOptions,
) -> None:
    """One placement as reportlab's plain calls make it, from nothing remembered."""
    turned = abs(face.width - slot.trim.width) > 0.01
    name = forms.name_for(face)
    if back:
        cards._open_slot(
            canvas,
            slot,
            turned,
            options.back_offset_x,
            options.back_offset_y,
            clockwise=options.flip is Flip.LONG_EDGE,
        )
    else:
        cards._open_slot(canvas, slot, turned)
    canvas.doForm(name)
    canvas.restoreState()


class _PlacerAnew(cards._Placer):
    """Places every card and draws every page's marks from nothing remembered."""

    def _place(self, face: Face, back: bool, index: int) -> None:
        grid, options = self.grid, self.options
        slot = grid.back(index, options.flip) if back else grid.front(index)
        _place_anew(self.canvas, self.forms, face, slot, back, options)

    def crop_marks(self, filled: int, back: bool) -> None:
        part = None if filled >= self.grid.per_page else filled
        cards._crop_marks(self.canvas, self.grid, part, self.options.flip if back else None)


def _sheets(path: Path, fonts: FontSet, grid: CardGrid, options: CardSheetOptions) -> bytes:
    render_card_sheets(
        path, _runs(), grid, title="测试", fonts=fonts, options=options, report=DrawReport()
    )
    return path.read_bytes()


@pytest.mark.parametrize(
    "options",
    [
        CardSheetOptions(),
        CardSheetOptions(crop_marks=False),
        CardSheetOptions(duplex=False),
        CardSheetOptions(flip=Flip.SHORT_EDGE, back_offset_x=1.5, back_offset_y=-0.7),
    ],
    ids=["default", "no-marks", "simplex", "short-edge-offset"],
)
def test_every_page_is_written_as_placing_each_card_anew_writes_it(
    cjk_fonts: FontSet,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    options: CardSheetOptions,
) -> None:
    grid = plan_card_grid(WIDTH, HEIGHT, bleed=mm(3), page_width=mm(210), page_height=mm(297))
    assert grid.per_page < sum(run.copies for run in _runs())  # more than one page
    remembered = _sheets(tmp_path / "remembered.pdf", cjk_fonts, grid, options)

    monkeypatch.setattr(cards, "_Placer", _PlacerAnew)
    assert _sheets(tmp_path / "anew.pdf", cjk_fonts, grid, options) == remembered


@pytest.mark.parametrize("flip", [Flip.LONG_EDGE, Flip.SHORT_EDGE])
def test_a_shared_sheet_s_footer_lies_clear_of_every_piece_front_and_back(
    cjk_fonts: FontSet, tmp_path: Path, flip: Flip
) -> None:
    import pdfplumber

    from pnp.layout.sheets import plan_shared_sheets
    from pnp.render.cards import SharedProduct, render_shared_sheets

    page = (mm(215.9), mm(279.4))  # Letter: a short-edge back once put the footer on tiles
    big, small = _face("tile", mm(34), mm(56)), _face("pawn", mm(20), mm(20))
    products = [
        SharedProduct("空屋板块", [CardRun(big, big, 4)]),
        SharedProduct("人物指示物", [CardRun(small, small, 15)]),
    ]
    pages = plan_shared_sheets(
        [(mm(34), mm(56), 4), (mm(20), mm(20), 15)],
        bleed=mm(3),
        page_width=page[0],
        page_height=page[1],
    )
    path = tmp_path / "shared.pdf"
    options = CardSheetOptions(flip=flip)
    count = render_shared_sheets(
        path, products, pages, title="t", fonts=cjk_fonts, options=options, report=DrawReport()
    )
    assert count == 2
    # Where each piece paints (its trim and bleed), front then back, in pdfplumber's
    # top-down coordinates.
    sides = [
        [shelf.grid.front(i).cell for shelf in pages[0] for i in range(shelf.count)],
        [shelf.grid.back(i, flip).cell for shelf in pages[0] for i in range(shelf.count)],
    ]
    with pdfplumber.open(path) as document:
        for side, cells in zip(document.pages, sides, strict=True):
            footer = [c for c in side.chars if c["size"] < 7]
            assert footer
            top, bottom = min(c["top"] for c in footer), max(c["bottom"] for c in footer)
            for cell in cells:
                cell_top, cell_bottom = page[1] - cell.top, page[1] - cell.y
                assert cell_bottom <= top or cell_top >= bottom
