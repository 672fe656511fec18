"""Drawing laid-out shapes: what is drawn again is written as it was the first time."""

from __future__ import annotations

from pathlib import Path

import pytest
from reportlab.pdfgen.canvas import Canvas

from pnp.layout.primitives import CircleShape, Face, RectShape, Style, TextShape
from pnp.render import draw
from pnp.render.draw import DrawReport, draw_face
from pnp.render.fonts import FontSet
from tests.render.test_fonts import cjk_fonts

__all__ = ["cjk_fonts"]

FRAME = Style(fill="#fbf6ea", stroke="#c0262d", stroke_width=0.8)


def _text(text: str, y: float, *, size: float = 12, origin: str = "") -> TextShape:
    return TextShape(
        x=10,
        y=y,
        width=80,
        height=20,
        text=text,
        font="bold",
        size=size,
        min_size=4,
        color="#c0262d",
        align="center",
        valign="middle",
        leading=1.3,
        origin=origin,
    )


def _faces() -> list[Face]:
    """Cards that repeat their corner, frame and rules text, as a deck does."""
    faces = []
    for number in range(6):
        shapes = (
            RectShape(0, 0, 100, 140, FRAME, radius=6),
            CircleShape(50, 70, 20.5, FRAME),
            _text("♥", 110),  # every card: replayed
            _text("♥", 0),  # the same text in another box
            _text(f"加{number % 2}", 80),  # two cards each
            _text("计数加四，然后换下一位玩家出牌。" * 2, 40, size=11),  # a shrunk paragraph
            _text(f"第{number}张", 10),  # each card its own
        )
        faces.append(Face(key=f"card-{number}", width=100, height=140, bleed=8, shapes=shapes))
    return faces


def _sheet(path: Path, fonts: FontSet) -> bytes:
    canvas = Canvas(str(path), initialFontName=fonts.regular, invariant=1)
    for number, face in enumerate(_faces()):
        canvas.saveState()
        canvas.translate(number % 3 * 150, number // 3 * 200)
        draw_face(canvas, face, fonts, DrawReport())
        canvas.restoreState()
    canvas.save()
    return path.read_bytes()


def test_texts_drawn_again_write_what_drawing_them_anew_writes(
    cjk_fonts: FontSet, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    replayed = _sheet(tmp_path / "replayed.pdf", cjk_fonts)
    # Each text drawn anew: every canvas lookup finds nothing written before.
    monkeypatch.setattr(draw, "_written_texts", lambda canvas: {})
    assert _sheet(tmp_path / "anew.pdf", cjk_fonts) == replayed


def test_a_replayed_overflow_is_reported_with_its_own_box(cjk_fonts: FontSet) -> None:
    canvas = Canvas("unused.pdf", initialFontName=cjk_fonts.regular)
    report = DrawReport()
    crowded = "太长了" * 40
    for origin in ("card.yaml:3", "card.yaml:9"):
        face = Face("f", 100, 140, 0, (_text(crowded, 10, origin=origin),))
        draw_face(canvas, face, cjk_fonts, report)
    assert {message.split(":")[1] for message in report.overflows} == {"3", "9"}


@pytest.mark.parametrize(
    "shape",
    [
        RectShape(3.25, -8.5, 170.0787, 232.4409, FRAME, radius=7.0866),
        RectShape(0, 0, 10, 10, Style(fill="#000"), radius=0.5),
        CircleShape(89.29134, 158.7402, 42.51969, FRAME),
        CircleShape(0, 0, 1 / 3, Style(stroke="#123456")),
    ],
)
def test_frames_and_badges_are_the_paths_reportlab_traces(
    cjk_fonts: FontSet, shape: RectShape | CircleShape
) -> None:
    ours = Canvas("unused.pdf")
    for _ in range(2):  # traced, then from the memo
        draw.draw_shapes(ours, (shape,), cjk_fonts, DrawReport())
    theirs = Canvas("unused.pdf")
    for _ in range(2):
        stroke, fill = draw._apply_style(theirs, shape.style)
        if isinstance(shape, RectShape):
            theirs.roundRect(
                shape.x, shape.y, shape.width, shape.height, shape.radius, stroke, fill
            )
        else:
            theirs.circle(shape.cx, shape.cy, shape.r, stroke, fill)
    assert ours._code == theirs._code
