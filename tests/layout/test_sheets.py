"""Card grids, crop marks, duplex backs and tiling: the geometry a cutter relies on."""

from __future__ import annotations

import pytest

from pnp.layout.sheets import (
    NEUTRAL_BORDER,
    PRINTER_MARGIN,
    Flip,
    Rect,
    Shelf,
    plan_card_grid,
    plan_shared_sheets,
    plan_sheet,
    plan_tiles,
    scale_note,
    shared_label,
    tile_label,
)
from pnp.units import PAPER_SIZES_MM, mm

POKER = (mm(63), mm(88))
BLEED = mm(3)
PAPERS = {name: (mm(w), mm(h)) for name, (w, h) in PAPER_SIZES_MM.items()}


def grid_for(paper: str):
    width, height = (mm(v) for v in PAPER_SIZES_MM[paper])
    return plan_card_grid(*POKER, bleed=BLEED, page_width=width, page_height=height)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_nine_poker_cards_fit_a4_and_letter(paper: str) -> None:
    grid = grid_for(paper)
    assert (grid.columns, grid.rows) == (3, 3)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_trims_stay_inside_the_printable_area(paper: str) -> None:
    grid = grid_for(paper)
    for index in range(grid.per_page):
        trim = grid.front(index).trim
        assert trim.x >= mm(5) - 1e-6 and trim.y >= mm(5) - 1e-6
        assert trim.right <= grid.page_width - mm(5) + 1e-6
        assert trim.top <= grid.page_height - mm(5) + 1e-6


def test_a_gutter_of_two_bleeds_only_where_it_costs_no_card() -> None:
    grid = grid_for("a4")
    # 3 x 63 mm + two 6 mm gutters would not fit 200 mm of printable width; rows have room.
    assert grid.gutter_x == 0
    assert grid.gutter_y == pytest.approx(2 * BLEED)


def test_every_card_keeps_its_trim_size() -> None:
    grid = grid_for("a4")
    for index in range(grid.per_page):
        trim = grid.front(index).trim
        assert (trim.width, trim.height) == pytest.approx(POKER)


def test_abutting_cards_keep_a_neutral_border_inside_every_trim() -> None:
    """Cards sharing a cut line cannot have bleed there: a cut 0.5 mm off must show white
    paper, never a sliver of the neighbour, and every card looks the same after cutting."""
    grid = grid_for("a4")
    assert grid.gutter_x == 0  # 3 poker columns butt on A4
    assert grid.neutral_border == pytest.approx(NEUTRAL_BORDER)
    for index in range(grid.per_page):
        slot = grid.front(index)
        assert slot.cell.x == pytest.approx(slot.trim.x + NEUTRAL_BORDER)
        assert slot.cell.right == pytest.approx(slot.trim.right - NEUTRAL_BORDER)
        assert slot.cell.y == pytest.approx(slot.trim.y + NEUTRAL_BORDER)
        assert slot.cell.top == pytest.approx(slot.trim.top - NEUTRAL_BORDER)
    # Painted cells of neighbours are apart by two borders: a cut off by less shows paper.
    assert grid.front(1).cell.x - grid.front(0).cell.right == pytest.approx(2 * NEUTRAL_BORDER)


def test_cards_with_gutters_get_full_bleed_and_no_border() -> None:
    grid = plan_card_grid(mm(63), mm(88), bleed=BLEED, page_width=mm(297), page_height=mm(420))
    assert grid.gutter_x > 0 and grid.gutter_y > 0 and grid.neutral_border == 0
    slot = grid.front(0)
    assert slot.cell.x == pytest.approx(slot.trim.x - BLEED)
    assert slot.cell.top == pytest.approx(slot.trim.top + BLEED)


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("size_mm", [(63, 88), (25, 25), (20, 20), (44, 68)])
def test_marks_and_footer_stay_out_of_the_printers_margin(
    paper: str, size_mm: tuple[int, int]
) -> None:
    grid = plan_card_grid(
        mm(size_mm[0]),
        mm(size_mm[1]),
        bleed=BLEED,
        page_width=PAPERS[paper][0],
        page_height=PAPERS[paper][1],
    )
    low, high_x, high_y = (
        PRINTER_MARGIN,
        grid.page_width - PRINTER_MARGIN,
        grid.page_height - PRINTER_MARGIN,
    )
    for mark in grid.crop_marks():
        assert low - 1e-6 <= min(mark.x1, mark.x2) and max(mark.x1, mark.x2) <= high_x + 1e-6
        assert low - 1e-6 <= min(mark.y1, mark.y2) and max(mark.y1, mark.y2) <= high_y + 1e-6
    label = grid.label()
    if label is not None:
        assert label.y >= low - 1e-6 and label.top <= high_y + 1e-6
        cells = [grid.front(i).cell for i in range(grid.per_page)]
        assert all(label.top <= c.y + 1e-6 or label.y >= c.top - 1e-6 for c in cells)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_crop_marks_never_cross_a_card(paper: str) -> None:
    grid = grid_for(paper)
    trims = [grid.front(i).trim for i in range(grid.per_page)]
    assert grid.crop_marks()
    for mark in grid.crop_marks():
        for trim in trims:
            inside_x = trim.x < max(mark.x1, mark.x2) and min(mark.x1, mark.x2) < trim.right
            inside_y = trim.y < max(mark.y1, mark.y2) and min(mark.y1, mark.y2) < trim.top
            assert not (inside_x and inside_y), (mark, trim)


def test_crop_marks_sit_on_every_cut_line() -> None:
    grid = grid_for("a4")
    vertical = {round(m.x1, 3) for m in grid.crop_marks() if m.x1 == m.x2}
    horizontal = {round(m.y1, 3) for m in grid.crop_marks() if m.y1 == m.y2}
    assert vertical == {round(x, 3) for x in grid.cut_lines_x()}
    assert horizontal == {round(y, 3) for y in grid.cut_lines_y()}
    # 3 abutting columns share cut lines: 4 vertical lines; rows with gutters: 6 horizontal.
    assert (len(vertical), len(horizontal)) == (4, 6)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_long_edge_backs_mirror_the_column_and_keep_the_row(paper: str) -> None:
    grid = grid_for(paper)
    for index in range(grid.per_page):
        front, back = grid.front(index).trim, grid.back(index, Flip.LONG_EDGE).trim
        assert back.x == pytest.approx(grid.page_width - front.x - front.width)
        assert back.y == pytest.approx(front.y)


def test_short_edge_backs_mirror_the_row() -> None:
    grid = grid_for("a4")
    front, back = grid.front(0).trim, grid.back(0, Flip.SHORT_EDGE).trim
    assert back.x == pytest.approx(front.x)
    assert back.y == pytest.approx(grid.page_height - front.y - front.height)


def test_a_card_too_large_for_the_page_is_refused_with_its_size() -> None:
    with pytest.raises(ValueError, match="300x400 mm card"):
        plan_card_grid(mm(300), mm(400), bleed=BLEED, page_width=mm(210), page_height=mm(297))


def test_a_small_sheet_is_one_centred_page() -> None:
    plan = plan_tiles(mm(260), mm(180), page_width=mm(297), page_height=mm(210))
    assert plan.is_single_page
    tile = plan.tiles[0]
    assert tile.offset_x == pytest.approx((mm(297) - mm(260)) / 2)


def test_a_large_sheet_tiles_with_overlap_and_covers_every_point() -> None:
    sheet_w, sheet_h = mm(594), mm(420)  # A2
    plan = plan_tiles(sheet_w, sheet_h, page_width=mm(210), page_height=mm(297))
    assert plan.columns * plan.rows == len(plan.tiles) > 1
    # Every point of the sheet is shown by some page's window.
    for sx in range(0, 594, 7):
        for sy in range(0, 420, 7):
            x, y = mm(sx + 0.5), mm(sy + 0.5)
            assert any(
                t.window.x <= x + t.offset_x <= t.window.right
                and t.window.y <= y + t.offset_y <= t.window.top
                for t in plan.tiles
            ), (sx, sy)
    # Neighbours share the overlap strip.
    first, second = plan.tiles[0], plan.tiles[1]
    shown_first_right = first.window.right - first.offset_x
    shown_second_left = second.window.x - second.offset_x
    assert shown_first_right - shown_second_left == pytest.approx(plan.overlap)


def test_an_aid_a_little_too_tall_for_letter_shrinks_to_one_page_with_room_for_its_scale() -> None:
    """MAQUIS's 200x287 mm aids: on Letter they were an overview and two pages covering a
    10 mm strip; an aid (nothing placed on it) fits one page, its scale stated in a footer."""
    letter = PAPERS["letter"]
    tiled = plan_sheet(mm(200), mm(287), letter)
    assert len(tiled.tiles) > 1 and tiled.scale == 1.0  # a board keeps its true size
    aid = plan_sheet(mm(200), mm(287), letter, scalable=True)
    assert aid.is_single_page and 0.9 < aid.scale < 1
    window = aid.tiles[0].window
    label = tile_label(aid)
    assert window.width == pytest.approx(mm(200) * aid.scale)
    assert window.y >= label.top - 1e-6 and label.y >= PRINTER_MARGIN - 1e-6
    assert window.top <= letter[1] - PRINTER_MARGIN + 1e-6
    assert scale_note(aid.scale) == f"按 {aid.scale:.0%} 缩小到一页"
    # On A4 the same aid fits at true size.
    assert plan_sheet(mm(200), mm(287), PAPERS["a4"], scalable=True).scale == 1.0


def test_an_aid_far_too_large_is_tiled_not_shrunk() -> None:
    plan = plan_sheet(mm(400), mm(560), PAPERS["a4"], scalable=True)
    assert plan.scale == 1.0 and len(plan.tiles) > 1


def test_a_part_filled_page_marks_only_the_cut_lines_of_its_cards() -> None:
    """8 pawns on a page of 20 token slots got 104 marks; the empty slots need none."""
    grid = plan_card_grid(mm(20), mm(20), bleed=BLEED, page_width=mm(210), page_height=mm(297))
    one = grid.crop_marks(filled=1)
    first = grid.front(0).trim
    assert {round(m.x1, 3) for m in one if m.x1 == m.x2} == {
        round(first.x, 3),
        round(first.right, 3),
    }
    assert {round(m.y1, 3) for m in one if m.y1 == m.y2} == {
        round(first.y, 3),
        round(first.top, 3),
    }
    assert len(grid.crop_marks(filled=grid.per_page)) == len(grid.crop_marks())
    assert len(one) < len(grid.crop_marks(filled=grid.columns + 1)) < len(grid.crop_marks())


# MAQUIS's token products: vacant tiles (34 x 56 mm turned upright), figures, markers, resources.
MAQUIS_TOKENS = [
    (mm(34), mm(56), 4),
    (mm(20), mm(20), 15),
    (mm(14), mm(14), 9),
    (mm(16), mm(16), 24),
]


def _pieces(shelf: Shelf) -> list[Rect]:
    return [shelf.grid.front(index).trim for index in range(shelf.count)]


def _overlap(a: Rect, b: Rect) -> bool:
    return (
        a.x < b.right - 1e-6 and b.x < a.right - 1e-6 and a.y < b.top - 1e-6 and b.y < a.top - 1e-6
    )


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_token_products_share_fewer_sheets_each_piece_at_its_size(paper: str) -> None:
    width, height = PAPERS[paper]
    pages = plan_shared_sheets(MAQUIS_TOKENS, bleed=BLEED, page_width=width, page_height=height)
    alone = sum(
        plan_card_grid(w, h, bleed=BLEED, page_width=width, page_height=height).pages_for(n)
        for w, h, n in MAQUIS_TOKENS
    )
    assert len(pages) == 1 < alone  # four sheets became one
    for product, (w, h, count) in enumerate(MAQUIS_TOKENS):
        shelves = [shelf for page in pages for shelf in page if shelf.product == product]
        assert sum(shelf.count for shelf in shelves) == count  # every piece, once
        for shelf in shelves:
            assert all((t.width, t.height) == (w, h) for t in _pieces(shelf))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_shelves_keep_their_bleed_marks_and_footer_apart(paper: str) -> None:
    width, height = PAPERS[paper]
    pages = plan_shared_sheets(MAQUIS_TOKENS, bleed=BLEED, page_width=width, page_height=height)
    footer = shared_label(width)
    for page in pages:
        trims = [trim for shelf in page for trim in _pieces(shelf)]
        painted = [(shelf, shelf.grid.front(i).cell) for shelf in page for i in range(shelf.count)]
        for shelf, cell in painted:  # one shelf's paint never reaches another's or the footer
            assert not any(_overlap(cell, other) for s, other in painted if s is not shelf)
            assert cell.y > footer.top
        for shelf in page:
            low, high = shelf.grid.band or (0.0, 0.0)
            assert low >= PRINTER_MARGIN and high <= height - PRINTER_MARGIN
            for mark in shelf.grid.crop_marks(shelf.count):
                assert low - 1e-6 <= min(mark.y1, mark.y2) and max(mark.y1, mark.y2) <= high + 1e-6
                assert min(mark.x1, mark.x2) >= PRINTER_MARGIN - 1e-6
                assert max(mark.x1, mark.x2) <= width - PRINTER_MARGIN + 1e-6
                line = Rect(
                    min(mark.x1, mark.x2),
                    min(mark.y1, mark.y2),
                    abs(mark.x2 - mark.x1) or 1e-3,
                    abs(mark.y2 - mark.y1) or 1e-3,
                )
                assert not any(_overlap(line, trim) for trim in trims)  # never across a piece


def test_a_shared_sheet_backs_each_piece_exactly_behind_its_front() -> None:
    width, height = PAPERS["a4"]
    pages = plan_shared_sheets(MAQUIS_TOKENS, bleed=BLEED, page_width=width, page_height=height)
    for shelf in pages[0]:
        for index in range(shelf.count):
            front = shelf.grid.front(index).trim
            long = shelf.grid.back(index, Flip.LONG_EDGE).trim
            short = shelf.grid.back(index, Flip.SHORT_EDGE).trim
            assert long.x == pytest.approx(width - front.right, abs=1e-9) and long.y == front.y
            assert short.y == pytest.approx(height - front.top, abs=1e-9) and short.x == front.x


def test_products_run_on_to_the_next_shared_sheet_when_one_is_full() -> None:
    width, height = PAPERS["a4"]
    many = [(mm(25), mm(25), 70), (mm(16), mm(16), 30)]
    pages = plan_shared_sheets(many, bleed=BLEED, page_width=width, page_height=height)
    assert len(pages) == 2
    assert sum(s.count for page in pages for s in page) == 100
    assert {s.product for s in pages[1]} >= {1}


def test_products_with_nothing_to_print_plan_no_shared_sheet() -> None:
    width, height = PAPERS["a4"]
    empty = [(mm(20), mm(20), 0), (mm(14), mm(14), 0)]
    assert plan_shared_sheets(empty, bleed=BLEED, page_width=width, page_height=height) == []
