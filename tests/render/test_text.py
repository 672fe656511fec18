"""Chinese line breaking, shrink-to-fit and drawing in a box."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pdfplumber
import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from pnp.render.fonts import FontSet
from pnp.render.text import (
    _EM_ASCENT,
    NO_LINE_END,
    NO_LINE_START,
    Align,
    CJKParagraph,
    draw_fitted,
    draw_line_if_fits,
    fit_paragraph,
    line_by_reportlab,
    paragraph_style,
    to_markup,
)
from tests.render.test_fonts import cjk_fonts

__all__ = ["cjk_fonts"]  # the session fixture, shared so the font converts once

RULES = (
    "死线九十九是一个计数游戏。玩家轮流出牌，把牌面数字加到总数上；谁让总数超过"
    "九十九，谁就输掉这一轮！特殊牌：「反转」改变出牌顺序，《跳过》跳过下家……"
    "“十”可以加十也可以减十——由出牌的人决定。（注意：总数不会小于零。）"
    "Player A plays 10 to reach 99, then B must pass。"
)


def _lines(para: Paragraph) -> list[str]:
    out = []
    for line in para.blPara.lines:
        if isinstance(line, tuple):  # reportlab's single-fragment layout
            out.append("".join(line[1]))
        else:
            out.append("".join(word.text for word in line.words))
    return out


def _wrap(fonts: FontSet, text: str, width: float, size: float = 10) -> list[str]:
    para = CJKParagraph(
        to_markup(text), paragraph_style(fonts.regular, size, size * 1.3, "left", "#000000")
    )
    para.wrap(width, 1000)
    return _lines(para)


def test_full_width_marks_are_one_em(cjk_fonts: FontSet) -> None:
    # The exact-width tests below rely on this.
    for ch in "一五，。《》":
        assert stringWidth(ch, cjk_fonts.regular, 10) == pytest.approx(10)


def test_closing_mark_never_starts_a_line(cjk_fonts: FontSet) -> None:
    # Five ems per line: the plain break would put "，" first on line two.
    assert _wrap(cjk_fonts, "一二三四五，六七八", 50) == ["一二三四", "五，六七八"]
    assert _wrap(cjk_fonts, "一二三四五。", 50) == ["一二三四", "五。"]


def test_opening_bracket_never_ends_a_line(cjk_fonts: FontSet) -> None:
    assert _wrap(cjk_fonts, "一二三四《五六》七八", 50) == ["一二三四", "《五六》七", "八"]
    assert _wrap(cjk_fonts, "一二三四“五六”七八", 50) == ["一二三四", "“五六”七", "八"]


def test_ellipsis_and_dash_stay_whole(cjk_fonts: FontSet) -> None:
    assert _wrap(cjk_fonts, "一二三四……五", 50) == ["一二三", "四……五"]
    assert _wrap(cjk_fonts, "一二三四——五", 50) == ["一二三", "四——五"]


def test_latin_words_break_only_at_spaces(cjk_fonts: FontSet) -> None:
    lines = _wrap(cjk_fonts, "中文中文 English words 中文", 60)
    words = " ".join(lines).split()
    assert "English" in words and "words" in words
    assert all(not line.startswith(" ") and not line.endswith(" ") for line in lines)


def test_newlines_break_lines(cjk_fonts: FontSet) -> None:
    assert _wrap(cjk_fonts, "一二\n三", 100) == ["一二", "三"]


@pytest.mark.parametrize("width", range(41, 260, 7))
def test_rules_hold_at_every_width(cjk_fonts: FontSet, width: int) -> None:
    para = CJKParagraph(
        to_markup(RULES), paragraph_style(cjk_fonts.regular, 10, 13, "left", "#000")
    )
    para.wrap(width, 10_000)
    lines = _lines(para)
    assert "".join(lines).replace(" ", "") == RULES.replace(" ", "")
    for line in lines:
        assert line[0] not in NO_LINE_START, (width, lines)
        assert line[-1] not in NO_LINE_END, (width, lines)
    for line in para.blPara.lines:
        assert line.currentWidth <= width + 1e-6


@pytest.mark.parametrize("markup", ["一二三四五，六七八", "<b>一</b>二三四五，六七八"])
def test_plain_reportlab_paragraphs_learn_the_chinese_marks(
    cjk_fonts: FontSet, markup: str
) -> None:
    # reportlab's own wrapper (single- and multi-fragment paths) hangs the mark instead.
    style = ParagraphStyle("plain", fontName=cjk_fonts.regular, fontSize=10, wordWrap="CJK")
    para = Paragraph(markup, style)
    para.wrap(50, 1000)
    lines = _lines(para)
    assert len(lines) == 2 and not lines[1].startswith("，"), lines


def test_lines_are_reportlabs_own_for_mixed_fragments(cjk_fonts: FontSet) -> None:
    # Lines are built measuring and comparing a fragment once per run of its characters;
    # every line must still be the one reportlab's makeCJKParaLine makes of the same units.
    from reportlab.platypus.paragraph import makeCJKParaLine

    from pnp.render.text import _cjk_para_line, _units

    markup = to_markup("计数**加十**或减十；\n**K**：总数设为九十九。A 选下一位玩家")
    para = CJKParagraph(markup, paragraph_style(cjk_fonts.regular, 9, 12, "left", "#000000"))
    units, widths, _ = _units(para.frags)
    assert len({id(u.frag) for u in units}) >= 4  # plain, bold, a line break, plain again
    for start, end in [(0, len(units)), (0, 5), (3, 12), (6, len(units)), (10, 11)]:
        ours = _cjk_para_line(units[start:end], 80.0, sum(widths[start:end]), 3.5, False)
        theirs = makeCJKParaLine(units[start:end], 80.0, sum(widths[start:end]), 3.5, False, False)
        assert [w.__dict__ for w in ours.words] == [w.__dict__ for w in theirs.words]
        assert {k: v for k, v in ours.__dict__.items() if k != "words"} == {
            k: v for k, v in theirs.__dict__.items() if k != "words"
        }


@pytest.mark.parametrize("width", [30, 57, 120, 400])
def test_reportlab_paragraphs_break_as_reportlab_breaks_them(
    cjk_fonts: FontSet, width: int
) -> None:
    # The cover's paragraphs keep reportlab's own rules (hanging marks, Latin words pulled
    # back), broken by pnp's faster copy of cjkFragSplit: every line must be reportlab's.
    from pnp.render.text import WrappedOnce

    style = ParagraphStyle("t", fontName=cjk_fonts.regular, fontSize=9, leading=12)
    style.wordWrap = "CJK"
    texts = [
        "<b>第一回合</b>：先手玩家出牌，总数到九十九时，下一位玩家必须出 K 或者 10。",
        "Print at 100 % on <b>A4</b> paper, then cut along the marks。<br/>第二行，",
        "「裁切」：沿着<b>裁切标记</b>连线裁切，标记不会压到牌面；deadline-99-cards.pdf",
        "没有粗体的一段：一个片段走 reportlab 自己的路。",
    ]
    for text in texts:
        ours = WrappedOnce(text, style).breakLinesCJK([width])
        theirs = Paragraph(text, style).breakLinesCJK([width])
        assert len(ours.lines) == len(theirs.lines) > 0
        for mine, reportlabs in zip(ours.lines, theirs.lines, strict=True):
            if isinstance(mine, tuple):  # one fragment: reportlab's wordSplit lines
                assert mine == reportlabs
                continue
            assert [w.__dict__ for w in mine.words] == [w.__dict__ for w in reportlabs.words]
            assert {k: v for k, v in mine.__dict__.items() if k != "words"} == {
                k: v for k, v in reportlabs.__dict__.items() if k != "words"
            }


def test_markup_escapes_and_bolds() -> None:
    assert to_markup("a<b>&c") == "a&lt;b&gt;&amp;c"
    assert to_markup("**粗** 细\n下一行") == "<b>粗</b> 细<br/>下一行"
    assert to_markup("只有**一半") == "只有**一半"


def test_fit_keeps_size_when_it_fits(cjk_fonts: FontSet) -> None:
    fitted = fit_paragraph("短文本", 100, 30, font=cjk_fonts.regular, size=12, min_size=6)
    assert fitted.size == 12 and not fitted.overflow
    assert fitted.lines == 1 and fitted.height == pytest.approx(12 * 1.3)


def test_fit_shrinks_to_the_largest_size_that_fits(cjk_fonts: FontSet) -> None:
    fitted = fit_paragraph(RULES, 150, 80, font=cjk_fonts.regular, size=14, min_size=5)
    assert not fitted.overflow
    assert 5 <= fitted.size < 14 and (14 - fitted.size) % 0.5 == 0
    assert fitted.height <= 80
    bigger = fit_paragraph(
        RULES, 150, 80, font=cjk_fonts.regular, size=fitted.size + 0.5, min_size=fitted.size + 0.5
    )
    assert bigger.overflow


def test_fit_reports_overflow(cjk_fonts: FontSet) -> None:
    fitted = fit_paragraph(RULES * 3, 60, 20, font=cjk_fonts.regular, size=12, min_size=8)
    assert fitted.overflow and fitted.size == 8
    assert fitted.height > 20


def test_fit_rejects_bad_arguments(cjk_fonts: FontSet) -> None:
    with pytest.raises(ValueError):
        fit_paragraph("x", 10, 10, font=cjk_fonts.regular, size=6, min_size=8)
    with pytest.raises(ValueError):
        fit_paragraph("x", 10, 10, font=cjk_fonts.regular, size=8, min_size=6, align="middle")  # type: ignore[arg-type]


def _chars(path: Path) -> list[dict[str, Any]]:
    with pdfplumber.open(str(path)) as pdf:
        page = pdf.pages[0]
        height = float(page.height)
        # pdfplumber measures from the top; convert to PDF's bottom-up coordinates.
        return [
            {**c, "y0": height - c["bottom"], "y1": height - c["top"]}
            for c in page.chars
            if c["text"].strip()
        ]


@pytest.mark.parametrize("valign", ["top", "middle", "bottom"])
def test_draw_fitted_places_text_in_the_box(
    cjk_fonts: FontSet, tmp_path: Path, valign: str
) -> None:
    x, top, width, height = 100.0, 700.0, 120.0, 90.0
    text = "第一行**加粗**\n第二行"
    fitted = fit_paragraph(text, width, height, font=cjk_fonts.regular, size=12, min_size=6)
    path = tmp_path / "box.pdf"
    canvas = Canvas(str(path), initialFontName=cjk_fonts.regular)
    draw_fitted(canvas, fitted, x, top, width, height, valign=valign)  # type: ignore[arg-type]
    canvas.save()

    chars = _chars(path)
    assert "".join(c["text"] for c in chars) == "第一行加粗第二行"
    assert {c["fontname"].split("+")[-1] for c in chars} == {
        "NotoSansCJKsc-Regular",
        "NotoSansCJKsc-Bold",
    }
    low = min(c["y0"] for c in chars)
    high = max(c["y1"] for c in chars)
    assert x - 0.01 <= min(c["x0"] for c in chars) and max(c["x1"] for c in chars) <= x + width
    assert top - height <= low and high <= top
    gap_above, gap_below = top - high, low - (top - height)
    if valign == "top":
        assert gap_above < 5
    elif valign == "bottom":
        assert gap_below < 5
    else:
        assert abs(gap_above - gap_below) < 2


def test_justify_fills_every_line_but_the_last(cjk_fonts: FontSet, tmp_path: Path) -> None:
    x, width = 50.0, 155.0
    fitted = fit_paragraph(
        RULES, width, 300, font=cjk_fonts.regular, size=10, min_size=10, align="justify"
    )
    assert fitted.lines > 3
    path = tmp_path / "justify.pdf"
    canvas = Canvas(str(path), initialFontName=cjk_fonts.regular)
    draw_fitted(canvas, fitted, x, 700, width, 300)
    canvas.save()

    rows: dict[float, list[dict[str, Any]]] = {}
    for c in _chars(path):
        rows.setdefault(round(c["y0"]), []).append(c)
    ordered = [rows[key] for key in sorted(rows, reverse=True)]
    assert len(ordered) == fitted.lines
    for row in ordered[:-1]:
        assert min(c["x0"] for c in row) == pytest.approx(x, abs=0.01)
        assert max(c["x1"] for c in row) == pytest.approx(x + width, abs=0.5)
    assert max(c["x1"] for c in ordered[-1]) < x + width - 5


_LineStyle = tuple[str, float, Align, str]  # font, size, align, colour
_SIZES_ALIGNS_COLOURS: tuple[tuple[float, Align, str], ...] = (
    (9, "left", "#000"),
    (13.5, "center", "#c0262d"),
    (7.25, "right", "#1d1d1f"),
)

# Enough distinct characters to fill three of reportlab's 256-code font subsets, so lines
# switch subsets in their middle.
_MANY_HANZI = "".join(chr(cp) for cp in range(0x4E00, 0x4E00 + 700))


@pytest.mark.parametrize("opacity", [None, 0.5])
def test_plain_lines_are_written_as_reportlab_writes_them(
    cjk_fonts: FontSet, tmp_path: Path, opacity: float | None
) -> None:
    texts = ["A", "计数 +4", "(括号) \\ 反斜杠", "\u00a0空格", "", "♥ 10"]
    texts += [_MANY_HANZI[i : i + 12] for i in range(0, len(_MANY_HANZI), 12)]
    styles: list[_LineStyle] = [
        (font, size, align, color)
        for font in (cjk_fonts.regular, cjk_fonts.bold)
        for size, align, color in _SIZES_ALIGNS_COLOURS
    ]
    places = random.Random(99)
    lines = [
        (text, styles[number % len(styles)], places.uniform(0, 200), places.uniform(50, 800))
        for number, text in enumerate(texts * 4)
    ]
    # A glyph the fonts learn while a document draws it takes its subset code in that
    # document's order of first use; learnt before both documents (as a build prepares its
    # fonts), it is not the first document's alone. Which glyphs earlier tests in this
    # process taught must not decide the comparison.
    warm = Canvas(str(tmp_path / "warm.pdf"), initialFontName=cjk_fonts.regular)
    for text, (font, size, _, _), _, _ in lines:
        warm.setFont(font, size)
        warm.drawString(0, 0, text)
    written = []
    for draw in ("pnp", "reportlab"):
        path = tmp_path / f"{draw}.pdf"
        canvas = Canvas(str(path), initialFontName=cjk_fonts.regular, invariant=1)
        if opacity is not None:
            canvas.setFillAlpha(opacity)  # reportlab's own route then
        for text, style, x, y in lines:
            width = 500 / 3
            if draw == "pnp":
                font, size, align, color = style
                assert draw_line_if_fits(
                    canvas,
                    text,
                    x,
                    y,
                    width,
                    40,
                    font=font,
                    size=size,
                    leading_ratio=1.3,
                    align=align,
                    valign="top",
                    color=color,
                )
            else:
                font, size, align, color = style
                baseline = y - ((size * 1.3 - size) / 2 + _EM_ASCENT * size)  # valign top
                line_by_reportlab(
                    canvas, text, x, baseline, width, font=font, size=size, align=align, color=color
                )
        canvas.drawString(30, 30, "之后")  # the canvas's own state is as it was
        canvas.save()
        written.append(path.read_bytes())
    assert written[0] == written[1]


def test_a_bracketed_keyword_is_never_split_across_lines(cjk_fonts: FontSet) -> None:
    """「【锁定】」 reads as one sign on a card: at every width where the natural break falls
    inside it, the whole keyword moves to the next line instead."""
    text = "打出：对前方造成伤害并【锁定】目标【击退 1】"
    for chars in range(6, 16):  # each width holds the longest keyword, 【击退 1】
        lines = _wrap(cjk_fonts, text, chars * 10 + 1)
        assert "".join(lines) == text
        for line in lines:
            assert line.count("【") == line.count("】"), (chars, lines)
