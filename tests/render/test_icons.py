"""Inline icons: drawn as vector paths in the line, at the text's size and colour."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pytest

from pnp.content.icons import icon_map
from pnp.content.loader import LoadedGame
from pnp.layout.primitives import Face, TextShape
from pnp.render.draw import DrawReport, draw_face
from pnp.render.fonts import FontSet
from pnp.render.icons import INLINE_SCALE
from pnp.render.pdf import new_canvas
from pnp.render.text import fit_paragraph
from tests.render.test_fonts import cjk_fonts

__all__ = ["cjk_fonts"]


def _face(text: str, size: float, colour: str, game: LoadedGame) -> Face:
    icons = icon_map(game.model)
    shape = TextShape(
        x=10,
        y=10,
        width=180,
        height=60,
        text=text,
        font="regular",
        size=size,
        min_size=size,
        color=colour,
        align="left",
        valign="top",
        leading=1.3,
        icons=tuple(icons[name] for name in ("life", "coin") if f"[[{name}]]" in text),
    )
    return Face(key="t", width=200, height=80, bleed=0, shapes=(shape,))


def _curves(path: Path) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    with pdfplumber.open(str(path)) as pdf:
        page = pdf.pages[0]
        return list(page.curves), list(page.chars)


@pytest.mark.parametrize(("size", "colour"), [(10.0, "#c0262d"), (16.0, "#1d4e89")])
def test_an_inline_icon_is_a_vector_path_at_the_text_size_and_colour(
    tmp_path: Path, cjk_fonts: FontSet, deadline_99: LoadedGame, size: float, colour: str
) -> None:
    path = tmp_path / "icon.pdf"
    canvas = new_canvas(path, (200, 80), title="t", font=cjk_fonts.regular)
    draw_face(
        canvas, _face("生命 [[life]] 加一", size, colour, deadline_99), cjk_fonts, DrawReport()
    )
    canvas.save()
    curves, chars = _curves(path)
    assert len(curves) == 1, "the heart is one filled path"
    heart = curves[0]
    expected = tuple(int(colour[k : k + 2], 16) / 255 for k in (1, 3, 5))
    assert heart["non_stroking_color"] == pytest.approx(expected, abs=0.01)
    assert heart["fill"] and not heart["stroke"]
    # The heart's drawing spans most of its square: as tall as the text's em, not more.
    height = float(heart["bottom"]) - float(heart["top"])  # type: ignore[arg-type]
    assert 0.75 * INLINE_SCALE * size < height <= INLINE_SCALE * size + 0.01
    # It stands in the line, between the words: after 命, before 加, on their baseline.
    ming = next(c for c in chars if c["text"] == "命")
    jia = next(c for c in chars if c["text"] == "加")
    assert float(ming["x1"]) <= float(heart["x0"]) < float(heart["x1"]) <= float(jia["x0"])  # type: ignore[arg-type]
    assert abs(float(heart["bottom"]) - float(ming["bottom"])) < 0.25 * size  # type: ignore[arg-type]
    # No bracket of the syntax is printed.
    assert "[" not in "".join(str(c["text"]) for c in chars)


def test_an_inline_icon_takes_room_in_the_line(cjk_fonts: FontSet, deadline_99: LoadedGame) -> None:
    icons = tuple(icon_map(deadline_99.model).values())
    plain = fit_paragraph("金币金币", 1000, 100, font=cjk_fonts.regular, size=10, min_size=10)
    with_icons = fit_paragraph(
        "金币[[coin]][[coin]]金币",
        1000,
        100,
        font=cjk_fonts.regular,
        size=10,
        min_size=10,
        icons=icons,
    )
    lines = with_icons.paragraph.blPara.lines
    assert lines[0].currentWidth == pytest.approx(plain.paragraph.blPara.lines[0].currentWidth + 22)
    # Narrow enough and the line breaks around an icon instead of running through it.
    narrow = fit_paragraph(
        "金币[[coin]][[coin]]金币",
        30,
        100,
        font=cjk_fonts.regular,
        size=10,
        min_size=10,
        icons=icons,
    )
    assert narrow.lines > 1 and not narrow.overflow


def test_a_tiled_icon_is_one_path_clipped_to_its_box(
    tmp_path: Path, cjk_fonts: FontSet, deadline_99: LoadedGame
) -> None:
    """A back's pattern: the icon repeated over the box, every other row shifted half a tile,
    drawn as one path inside the box."""
    from pnp.layout.primitives import IconShape

    lattice = icon_map(deadline_99.model)["lattice"]
    shape = IconShape(10, 10, 100, 60, lattice, "#2c2c4a", tile=20, tile_h=20, stagger=True)
    path = tmp_path / "tiles.pdf"
    canvas = new_canvas(path, (120, 80), title="t", font=cjk_fonts.regular)
    draw_face(
        canvas,
        Face(key="t", width=120, height=80, bleed=0, shapes=(shape,)),
        cjk_fonts,
        DrawReport(),
    )
    canvas.save()
    pdfium = pytest.importorskip("pypdfium2")
    image = pdfium.PdfDocument(str(path))[0].render(scale=2).to_pil().convert("L")
    # Tiles fill the box and nothing outside it: dark inside (a diamond covers a quarter of
    # each tile), white outside.
    inside = image.crop((20, 20 + 20, 220, 140))
    outside = image.crop((0, 0, 240, 18))
    dark_inside = sum(inside.histogram()[:128]) / (inside.width * inside.height)
    assert 0.2 < dark_inside < 0.32  # a diamond is a quarter of its tile
    assert sum(outside.histogram()[:250]) == 0
    # Staggered: the centre of a tile of row 0 is background in row 1.
    assert image.getpixel((20 + 20, 40)) < 128  # row 0, first diamond's centre
    assert image.getpixel((20 + 20, 80)) > 128  # row 1 is shifted: a gap there


def test_a_texture_tiled_in_many_cells_is_written_once(tmp_path: Path) -> None:
    """A map prints one texture in cell after cell: its tiles are one form of the document,
    each cell places it (a MineVenture map sheet went from 394 to 82 KB)."""
    from pypdf import PdfReader

    from pnp.model.icons import Icon
    from pnp.render.icons import draw_icon_tiles

    grass = Icon(name="grass", path="M2 22 L6 10 L10 22 Z M14 22 L18 6 L22 22 Z")
    path = tmp_path / "map.pdf"
    canvas = new_canvas(path, (400, 400), title="t", font="Helvetica")
    for row in range(4):
        for column in range(4):
            box = (column * 90.0, row * 90.0, 80.0, 80.0)
            draw_icon_tiles(canvas, grass, box, (10.0, 10.0), "#3a7d2c", False)
    canvas.showPage()
    canvas.save()
    page = PdfReader(path).pages[0]
    forms = page["/Resources"]["/XObject"]
    assert len(forms) == 1
    (form,) = forms.values()
    content = page.get_contents().get_data()
    assert content.count(b" Do") == 16
    # The tiles themselves (64 a cell) are in the form, not on the page.
    assert b" f" in form.get_object().get_data() and b" f" not in content


def test_a_line_of_icons_keeps_its_size_where_it_fits(
    cjk_fonts: FontSet, deadline_99: LoadedGame
) -> None:
    # A stat line of two icons and two numbers is about five letters wide: it fits a box of
    # 80 pt at 16 pt and must not shrink to its smallest size because its [[names]] are long.
    icons = tuple(icon_map(deadline_99.model).values())
    fitted = fit_paragraph(
        "[[life]] **1**  [[coin]] **3**",
        80,
        24,
        font=cjk_fonts.regular,
        size=16,
        min_size=9,
        icons=icons,
    )
    assert fitted.size == 16 and not fitted.overflow
