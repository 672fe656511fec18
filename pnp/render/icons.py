"""Drawing icons: an icon's path as PDF path operators, in any box and colour.

An icon is drawn as vector paths wherever it appears (a card's text, a box of its own, a
rulebook paragraph, the glossary), so it stays sharp at any size and in every export, which
rasterise the same PDF drawing.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any
from weakref import WeakKeyDictionary

from reportlab.lib.colors import HexColor
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas

from pnp.errors import TemplateError
from pnp.model.icons import FillRule, Icon, PathError, parse_path
from pnp.render.reportlab_adapter import emit, text_cursor, text_line_start

ICON_CALLBACK = "pnp-icon"
"""The name paragraphs call (reportlab's ``<onDraw>``) where an inline icon stands."""

INLINE_ADVANCE = 1.1
"""An inline icon's advance, in ems: the icon and a little air either side."""
INLINE_SCALE = 0.92
"""An inline icon's side, in ems: as tall as a capital with its accents."""
INLINE_DROP = 0.1
"""How far an inline icon's bottom sits below the baseline, in ems (as the ideographs do)."""


@lru_cache(maxsize=1024)
def _outline(icon: Icon) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """The icon's path in its own units, x right and y up (PDF's way), as PDF operators with
    their coordinates."""
    try:
        commands = parse_path(icon.path)
    except PathError as error:
        raise TemplateError(f"{icon.where}: icon {icon.name!r}: path: {error}") from None
    side = icon.size
    operator = {"M": "m", "L": "l", "C": "c", "Z": "h"}
    return tuple(
        (operator[letter], tuple(v if k % 2 == 0 else side - v for k, v in enumerate(numbers)))
        for letter, numbers in commands
    )


@lru_cache(maxsize=1024)
def _operators(icon: Icon) -> str:
    """The icon's path in its own units, ready for a ``cm`` to place it."""
    return " ".join(f"{fp_str(*numbers)} {op}" if numbers else op for op, numbers in _outline(icon))


def _placed(icon: Icon, scale_x: float, scale_y: float, left: float, bottom: float) -> str:
    """The icon's path scaled and moved in the numbers themselves (a path of many tiles
    cannot change the matrix between them)."""
    parts = []
    for op, numbers in _outline(icon):
        if numbers:
            moved = [
                left + v * scale_x if k % 2 == 0 else bottom + v * scale_y
                for k, v in enumerate(numbers)
            ]
            parts.append(f"{fp_str(*moved)} {op}")
        else:
            parts.append(op)
    return " ".join(parts)


@lru_cache(maxsize=256)
def _fill(colour: str) -> str:
    rgb = HexColor(colour if len(colour) != 4 else "#" + "".join(c * 2 for c in colour[1:]))
    return f"{fp_str(rgb.red, rgb.green, rgb.blue)} rg"


def draw_icon(canvas: Canvas, icon: Icon, x: float, y: float, side: float, colour: str) -> None:
    """Fill `icon` in the square of `side` points whose bottom-left corner is (x, y)."""
    scale = side / icon.size
    emit(
        canvas,
        f"q {_fill(colour)} {fp_str(scale, 0, 0, scale, x, y)} cm {_operators(icon)} "
        f"{'f*' if icon.rule is FillRule.EVENODD else 'f'} Q",
    )


def draw_icon_box(
    canvas: Canvas, icon: Icon, x: float, y: float, width: float, height: float, colour: str
) -> None:
    """`icon` as large as fits the box, centred in it."""
    side = min(width, height)
    draw_icon(canvas, icon, x + (width - side) / 2, y + (height - side) / 2, side, colour)


def draw_icon_tiles(
    canvas: Canvas,
    icon: Icon,
    box: tuple[float, float, float, float],
    tile: tuple[float, float],
    colour: str,
    stagger: bool,
) -> None:
    """`icon` repeated over the box (x, y, width, height) as a pattern, clipped to it: one
    path of many tiles, so a back's pattern is one shape to lay out and one to draw. The
    pattern is worked out once per icon, box size, tiling and colour and moved into place
    (a map repeats one texture over dozens of cells of one size)."""
    x, y, width, height = box
    # Once per document as a form, placed by reference: a map prints the same texture in
    # cell after cell, and a book shows the map in figure after figure.
    forms = _TILE_FORMS.get(canvas)
    if forms is None:
        forms = _TILE_FORMS[canvas] = {}
    key = (icon, width, height, tile, colour, stagger)
    name = forms.get(key)
    if name is None:
        name = forms[key] = f"Tiles{len(forms)}"
        canvas.beginForm(name, 0, 0, width, height)
        emit(canvas, _tiles(icon, width, height, tile, colour, stagger))
        canvas.endForm()
    emit(canvas, f"q 1 0 0 1 {fp_str(x, y)} cm")
    canvas.doForm(name)
    emit(canvas, "Q")


_TILE_FORMS: WeakKeyDictionary[Canvas, dict[tuple[object, ...], str]] = WeakKeyDictionary()


@lru_cache(maxsize=512)
def _tiles(
    icon: Icon,
    width: float,
    height: float,
    tile: tuple[float, float],
    colour: str,
    stagger: bool,
) -> str:
    """The operators of a tiled box whose bottom-left corner is the origin."""
    across, down = tile
    scale_x, scale_y = across / icon.size, down / icon.size
    parts = [f"0 0 {fp_str(width, height)} re W n {_fill(colour)}"]
    rows = int(height // down) + 2
    columns = int(width // across) + 2
    for row in range(rows):
        shift = across / 2 if stagger and row % 2 else 0.0
        top = height - row * down
        for column in range(-1 if shift else 0, columns):
            left = column * across + shift
            parts.append(_placed(icon, scale_x, scale_y, left, top - down))
    parts.append("f*" if icon.rule is FillRule.EVENODD else "f")
    return " ".join(parts)


def _draw_unknown(canvas: Canvas, x: float, y: float, side: float, colour: str) -> None:
    # Validation names the icon; a build that goes on regardless shows a hollow square.
    emit(canvas, f"q {_fill(colour).replace('rg', 'RG')} 0.5 w {fp_str(x, y, side, side)} re S Q")


def paint_inline_icon(canvas: Canvas, kind: str, label: Any) -> None:
    """reportlab's ``<onDraw>`` callback: draw the inline icon at the text cursor and move
    the cursor past it.

    reportlab advances its own tally of the line (``cur_x``) by text widths only, so each
    icon of a line is shifted by the icons before it on that line (kept on the text object,
    keyed by the line's baseline).
    """
    tx, cur_x, cur_y = text_cursor(canvas)
    icon, size, colour = label
    shift_line, shift = getattr(tx, "_pnp_icon_shift", (None, 0.0))
    if shift_line != cur_y:
        shift = 0.0
    advance = size * INLINE_ADVANCE
    side = size * INLINE_SCALE
    left = cur_x + shift
    # The text object's origin is the canvas's (a paragraph translates before BT).
    bottom = cur_y - INLINE_DROP * size
    inset = (advance - side) / 2
    if icon is None:
        _draw_unknown(canvas, left + inset, bottom, side, colour)
    else:
        draw_icon(canvas, icon, left + inset, bottom, side, colour)
    tx._pnp_icon_shift = (cur_y, shift + advance)
    tx.setXPos(left + advance - text_line_start(tx))


def prepare_canvas(canvas: Canvas) -> None:
    """Let paragraphs drawn on `canvas` place inline icons."""
    if canvas.getNamedCB(ICON_CALLBACK) is None:
        canvas.setNamedCB(ICON_CALLBACK, paint_inline_icon)
