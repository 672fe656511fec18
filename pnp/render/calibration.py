"""The duplex calibration sheet: printed duplex like the cards, it shows how far a printer
puts the back of a sheet from where the front says it belongs, read off a scale.

The front carries a cross through the page's centre; the back carries two scales through the
same centre. The centre is where it is on both sides whichever edge the sheet flips on, so
held against the light the front's lines cross the back's scales at the printer's offset.
The scales are numbered as seen from the back (right and up positive): the number read is
how far the printer's settings must move the back side to sit behind its front.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnp.layout.sheets import PRINTER_MARGIN
from pnp.output import atomic_output
from pnp.render.draw import colour
from pnp.render.fonts import FontSet
from pnp.render.pdf import new_canvas
from pnp.units import mm

SCALE_MM = 5  # the scale reads offsets up to this, in either direction
TICK_MM = 0.5
CROSS_ARM = mm(70)  # the front's lines: long enough to meet each scale over its length
SCALE_GAP = mm(25)  # the scales stand this far from the centre, clear of each other's labels

FRONT_TITLE = "双面校准页 · 正面"
BACK_TITLE = "双面校准页 · 背面"
FRONT_TEXT = (
    "用打印卡牌的同一台打印机、同一种纸和同样的设置（双面、{flip}、实际大小）打印这一页。",
    "打印好后把纸对着光，从背面看：正面的两条细线各穿过背面的一把刻度尺。",
)
BACK_TEXT = (
    "对着光读出正面细线穿过刻度尺的读数（毫米）：横尺读左右，竖尺读上下。",
    "两个读数都是 0：背面与正面对齐，直接打印卡牌。",
    "不是 0：在打印机的属性（首选项）里找「背面图像偏移」「装订边距/页边距偏移」这类设置，"
    "把背面向读数的方向移动相同的毫米数（正数向右、向上，以背面朝向你时为准），再打印一次本页核对。",
    "打印机没有这类设置时：偏差在 1 毫米以内，卡牌四周的出血或白边会盖住它；更大时，先裁正面，"
    "裁切时以正面的裁切标记为准。",
)


TEXT_INSET = mm(10)
"""The text stands this far inside the printer's margin, as a page of prose would."""


def render_calibration(
    path: Path,
    *,
    page_size: tuple[float, float],
    fonts: FontSet,
    title: str,
    margin: float = PRINTER_MARGIN,
    flip_long: bool = True,
) -> int:
    """Write the two-page calibration sheet, everything on it inside the printer's dead
    `margin`, telling the player to flip on the edge the kit's cards flip on; returns its
    page count."""
    flip = "长边翻转" if flip_long else "短边翻转"
    front_text = tuple(line.format(flip=flip) for line in FRONT_TEXT)
    width, height = page_size
    with atomic_output(path) as temporary:
        canvas = new_canvas(temporary, page_size, title=title, font=fonts.regular)
        _text(canvas, fonts, width, height, margin, FRONT_TITLE, front_text)
        _front(canvas, width, height, margin)
        canvas.showPage()
        _text(canvas, fonts, width, height, margin, BACK_TITLE, BACK_TEXT)
        _back(canvas, fonts, width, height)
        canvas.showPage()
        canvas.save()
    return 2


def _text(
    canvas: Canvas,
    fonts: FontSet,
    width: float,
    height: float,
    margin: float,
    heading: str,
    lines: tuple[str, ...],
) -> None:
    from reportlab.lib.styles import ParagraphStyle

    from pnp.render.text import WrappedOnce

    left = margin + TEXT_INSET
    top = height - margin - TEXT_INSET
    canvas.setFillColor(colour("#1d1d1f"))
    canvas.setFont(fonts.bold, 14)
    canvas.drawString(left, top - mm(5), heading)
    style = ParagraphStyle(
        "calibration", fontName=fonts.regular, fontSize=10, leading=15, wordWrap="CJK"
    )
    y = top - mm(10)
    for line in lines:
        paragraph = WrappedOnce(line, style)
        _, used = paragraph.wrap(width - 2 * left, height)
        y -= used + mm(1.5)
        paragraph.drawOn(canvas, left, y)


def _front(canvas: Canvas, width: float, height: float, margin: float) -> None:
    cx, cy = width / 2, height / 2
    # A wide margin shortens the lines; they still reach past both scales.
    arm = min(CROSS_ARM, cx - margin, cy - margin)
    canvas.saveState()
    canvas.setStrokeColor(colour("#000000"))
    canvas.setLineWidth(0.25)
    canvas.line(cx - arm, cy, cx + arm, cy)
    canvas.line(cx, cy - arm, cx, cy + arm)
    canvas.restoreState()


def _back(canvas: Canvas, fonts: FontSet, width: float, height: float) -> None:
    """A horizontal scale above the centre (the front's vertical line meets it) and a
    vertical one right of it (the front's horizontal line meets it), zero on the centre."""
    cx, cy = width / 2, height / 2
    canvas.saveState()
    canvas.setStrokeColor(colour("#000000"))
    canvas.setFillColor(colour("#000000"))
    canvas.setFont(fonts.regular, 5)
    steps = int(SCALE_MM / TICK_MM)
    for step in range(-steps, steps + 1):
        offset = mm(step * TICK_MM)
        whole = step % int(1 / TICK_MM) == 0
        length = mm(4) if step == 0 else mm(3) if whole else mm(1.5)
        canvas.setLineWidth(0.35 if step == 0 else 0.2)
        canvas.line(cx + offset, cy + SCALE_GAP, cx + offset, cy + SCALE_GAP + length)
        canvas.line(cx + SCALE_GAP, cy + offset, cx + SCALE_GAP + length, cy + offset)
        # Every other millimetre is numbered: numbers a millimetre apart would touch.
        if whole and step % int(2 / TICK_MM) == 0:
            label = f"{int(step * TICK_MM):+d}" if step else "0"
            canvas.drawCentredString(cx + offset, cy + SCALE_GAP + mm(5), label)
            canvas.drawString(cx + SCALE_GAP + mm(5), cy + offset - mm(0.6), label)
    canvas.setLineWidth(0.2)
    canvas.line(cx - mm(SCALE_MM), cy + SCALE_GAP, cx + mm(SCALE_MM), cy + SCALE_GAP)
    canvas.line(cx + SCALE_GAP, cy - mm(SCALE_MM), cx + SCALE_GAP, cy + mm(SCALE_MM))
    canvas.setFont(fonts.regular, 8)
    canvas.drawCentredString(cx, cy + SCALE_GAP + mm(9), "左右偏差（毫米）")
    canvas.drawString(cx + SCALE_GAP + mm(11), cy - mm(1), "上下偏差（毫米）")
    canvas.restoreState()
