"""What pnp takes from reportlab's internals still means what pnp assumes: each adapter call
is drawn beside reportlab's public route and the PDF bytes (or the measured numbers) compared.
An upgrade of reportlab that moves one of these names fails here, by name."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, Paragraph

from pnp.render import reportlab_adapter as adapter


def _pdf(draw: Callable[[Canvas], None]) -> bytes:
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(200, 200), invariant=1, pageCompression=0)
    draw(canvas)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


@pytest.mark.parametrize(("stroke", "fill"), [(1, 0), (0, 1), (1, 1)])
def test_an_emitted_path_paints_as_reportlabs_drawn_path(stroke: int, fill: int) -> None:
    def public(canvas: Canvas) -> None:
        path = canvas.beginPath()
        path.rect(10, 20, 30, 40)
        canvas.drawPath(path, stroke=stroke, fill=fill)

    def adapted(canvas: Canvas) -> None:
        adapter.emit(canvas, "n 10 20 30 40 re")
        adapter.paint_path(canvas, stroke, fill)

    assert _pdf(adapted) == _pdf(public)


def test_recorded_operators_replay_to_the_same_page() -> None:
    def public(canvas: Canvas) -> None:
        for x in (10, 60):
            canvas.saveState()
            canvas.translate(x, 0)
            canvas.line(0, 0, 20, 20)
            canvas.restoreState()

    def replayed(canvas: Canvas) -> None:
        start = len(adapter.operators(canvas))
        canvas.saveState()
        canvas.translate(10, 0)
        canvas.line(0, 0, 20, 20)
        canvas.restoreState()
        recorded = adapter.operators(canvas)[start:]
        adapter.emit(canvas, *(op.replace("1 0 0 1 10 0 cm", "1 0 0 1 60 0 cm") for op in recorded))

    assert _pdf(replayed) == _pdf(public)


def test_graphics_state_follows_the_fill_opacity() -> None:
    canvas = Canvas(io.BytesIO())
    assert adapter.fill_is_opaque(canvas)
    before = adapter.graphics_state(canvas)
    canvas.setFillAlpha(0.5)
    assert not adapter.fill_is_opaque(canvas)
    assert adapter.graphics_state(canvas) != before
    assert ("ca", 0.5) in adapter.graphics_state(canvas)
    assert adapter.pdf_document(canvas) is not None
    assert not adapter.colour_space_enforced(canvas)


def test_the_text_cursor_inside_a_callback_is_where_the_next_letter_goes() -> None:
    seen: list[tuple[float, float, float]] = []

    def probe(canvas: Canvas, kind: str, label: Any) -> None:
        tx, x, baseline = adapter.text_cursor(canvas)
        seen.append((x, baseline, adapter.text_line_start(tx)))

    style = ParagraphStyle("probe", fontName="Helvetica", fontSize=10, leading=12)

    def draw(canvas: Canvas) -> None:
        canvas.setNamedCB("probe", probe)
        paragraph = Paragraph('AB<onDraw name="probe" label="x"/>C', style)
        paragraph.wrapOn(canvas, 150, 100)
        paragraph.drawOn(canvas, 20, 50)

    _pdf(draw)
    (x, baseline, line_start) = seen[0]
    # The paragraph translates to its origin before BT: the cursor is in its own frame.
    assert x == pytest.approx(stringWidth("AB", "Helvetica", 10))
    assert baseline < 12
    assert line_start == pytest.approx(0)


def test_a_taught_glyph_is_measured_at_once() -> None:
    from reportlab.pdfbase.pdfmetrics import getFont

    from pnp.render.fonts import prepare_cjk_fonts

    fonts = prepare_cjk_fonts("")
    font = getFont(fonts.regular)
    codepoint = 0xE000  # private use: never in the font, so never measured before
    adapter.teach_glyph(font, codepoint, 777)
    assert font.face.charWidths[codepoint] == 777
    assert font.stringWidth(chr(codepoint), 10) == pytest.approx(7.77)
    assert adapter.is_growable_truetype(font)
    assert not adapter.is_growable_truetype(getFont("Helvetica"))


def test_line_fragments_draw_as_reportlabs_justified_lines() -> None:
    """begin/draw/end, called without letter spacing, write exactly reportlab's own route:
    pnp's Chinese justification adds only the Tc around them."""
    style = ParagraphStyle("j", fontName="Helvetica", fontSize=9, leading=11, alignment=4)
    text = "Every card names its cost, its damage and its reach, " * 4

    def draw(canvas: Canvas) -> None:
        paragraph = Paragraph(text, style)
        paragraph.wrapOn(canvas, 120, 200)
        paragraph.drawOn(canvas, 10, 10)

    def passthrough(original: adapter.JustifyLine) -> adapter.JustifyLine:
        def justify(tx: Any, offset: float, line: Any, last: int = 0) -> None:
            if getattr(line, "pnp_glyphs", None) is not None:
                original(tx, offset, line, last)
                return
            adapter.begin_line_fragments(tx, offset)
            adapter.draw_line_fragments(tx, offset, line, last)
            adapter.end_line_fragments(tx, offset)

        return justify

    from reportlab.platypus import paragraph as rl_paragraph

    installed = rl_paragraph._justifyDrawParaLineX
    reportlabs = _pdf(draw)
    try:
        adapter.install_justify(passthrough)
        assert rl_paragraph._justifyDrawParaLineX is not installed
        assert _pdf(draw) == reportlabs
    finally:
        rl_paragraph._justifyDrawParaLineX = installed


def test_chinese_closing_marks_never_start_a_reportlab_line() -> None:
    from pnp.render.fonts import prepare_cjk_fonts
    from pnp.render.text import NO_LINE_START

    adapter.extend_line_breaking_rules(NO_LINE_START, "")
    assert all(adapter.cannot_start_line(mark) for mark in "；。」％")
    text = "每张牌写明费用；伤害与射程。" * 3
    font = prepare_cjk_fonts(text).regular
    style = ParagraphStyle("cjk", fontName=font, fontSize=10, leading=12, wordWrap="CJK")
    starts = set()
    for width in range(25, 140, 5):
        paragraph = Paragraph(text, style)
        paragraph.wrap(width, 500)
        for _extra_space, words in paragraph.blPara.lines[1:]:  # one font: (space, words)
            starts.add("".join(words)[:1])
    assert starts and not starts & set("；。")


def test_a_dry_frame_places_what_a_drawing_frame_places_and_draws_nothing() -> None:
    style = ParagraphStyle("p", fontName="Helvetica", fontSize=10, leading=12)
    texts = [f"Paragraph {n} " * 12 for n in range(12)]

    def fill(frame: Frame, canvas: Canvas) -> int:
        placed = 0
        for text in texts:
            if not frame.add(Paragraph(text, style), canvas):
                break
            placed += 1
        return placed

    drawn: list[int] = []
    dry_count: list[int] = []

    def draw(canvas: Canvas) -> None:
        drawn.append(fill(Frame(10, 10, 150, 180), canvas))

    def dry(canvas: Canvas) -> None:
        frame = adapter.LayoutOnlyFrame(10, 10, 150, 180)
        frame.dry = True
        dry_count.append(fill(frame, canvas))

    with_drawing, without = _pdf(draw), _pdf(dry)
    assert dry_count == drawn and 0 < drawn[0] < len(texts)
    assert len(without) < len(with_drawing)
    assert b"Paragraph" in with_drawing and b"Paragraph" not in without
