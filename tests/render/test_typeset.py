"""The typesetting checks of a player document: a heading left at the foot of its page, and a
line broken before closing or after opening punctuation."""

from __future__ import annotations

import io

from reportlab.lib.pagesizes import A5
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Spacer

from pnp.render.cover import _RecordingDocument
from pnp.render.fonts import prepare_cjk_fonts
from pnp.render.text import CJKParagraph
from pnp.render.typeset import SetBlock, typeset_problems


def test_a_heading_that_ends_its_page_is_found_and_one_with_its_text_passes() -> None:
    blocks = [
        SetBlock(1, "", ("准备",)),
        SetBlock(1, "功能牌速查卡"),
        SetBlock(2, "", ("每张功能牌……",)),
        SetBlock(2, "本版规则裁定"),
        SetBlock(2, "", ("问：……",)),
    ]
    assert typeset_problems("deadline-99-rulebook.pdf", blocks) == [
        "deadline-99-rulebook.pdf page 1: the heading '功能牌速查卡' is the last thing on its "
        "page, with nothing it heads under it"
    ]


def test_a_heading_with_one_line_at_the_foot_and_the_rest_overleaf_is_found() -> None:
    one_line_then_turn = [
        SetBlock(1, "本版规则裁定"),
        SetBlock(1, "", ("问：减 10 能否让计数低于 0？答：不能。",)),
        SetBlock(2, "", ("问：几名玩家用几副牌？",)),
    ]
    assert typeset_problems("read-me.pdf", one_line_then_turn) == [
        "read-me.pdf page 1: the heading '本版规则裁定' has one line under it at the foot of "
        "its page, the rest of what it heads on the next"
    ]
    # A short section of one line, the next heading overleaf, reads as it should.
    short_section = [*one_line_then_turn[:2], SetBlock(2, "配件清单"), SetBlock(2, "", ("…",))]
    assert typeset_problems("read-me.pdf", short_section) == []
    # Two lines under it, or all of it on one page, too.
    two_lines = [one_line_then_turn[0], SetBlock(1, "", ("问：", "答：")), one_line_then_turn[2]]
    assert typeset_problems("read-me.pdf", two_lines) == []


def test_a_line_starting_with_closing_or_ending_with_opening_punctuation_is_found() -> None:
    # The first line may start with anything and the last may end with anything.
    blocks = [SetBlock(3, "", ("」先打出一张牌（", "计数加一）", "。然后抓牌「", "抓两张「"))]
    assert typeset_problems("read-me.pdf", blocks) == [
        "read-me.pdf page 3: a line ends with '（' ('」先打出一张牌（')",
        "read-me.pdf page 3: a line starts with '。' ('。然后抓牌「')",
        "read-me.pdf page 3: a line ends with '「' ('。然后抓牌「')",
    ]


def _typeset(keep_with_next: int) -> list[str]:
    fonts = prepare_cjk_fonts("本版规则裁定问：能不能？")
    body = ParagraphStyle("body", fontName=fonts.regular, fontSize=10, leading=14)
    heading = ParagraphStyle(
        "heading", parent=body, fontName=fonts.bold, keepWithNext=keep_with_next
    )
    document = _RecordingDocument(io.BytesIO(), pagesize=A5, invariant=1)
    # The frame pads 6 pt top and bottom: the heading fits under the spacer, its text not.
    room = document.height - 12 - 14 - 2
    story = [
        Spacer(1, room),
        CJKParagraph("本版规则裁定", heading),
        CJKParagraph("问：能不能？" * 3, body),
    ]
    document.build(story)
    assert document.page == 2
    return typeset_problems("read-me.pdf", document.blocks)


def test_a_typeset_heading_pushed_to_the_foot_is_found_and_kept_with_its_text_passes() -> None:
    assert _typeset(keep_with_next=0) == [
        "read-me.pdf page 1: the heading '本版规则裁定' is the last thing on its page, with "
        "nothing it heads under it"
    ]
    assert _typeset(keep_with_next=1) == []


def _cell_problems(word_wrap: str) -> list[str]:
    from reportlab.platypus import Table

    fonts = prepare_cjk_fonts("双面打印长边翻转。两面相同")
    small = ParagraphStyle(
        "small", fontName=fonts.regular, fontSize=8.5, leading=12, wordWrap=word_wrap
    )
    # Eight characters fill the cell's line exactly: the full stop comes next.
    note = CJKParagraph("双面打印长边翻转。两面相同", small)
    document = _RecordingDocument(io.BytesIO(), pagesize=A5, invariant=1)
    document.build([Table([[note]], colWidths=[8 * 8.5 + 12 + 1])])
    return typeset_problems("read-me.pdf", document.blocks)


def test_a_table_cell_set_without_chinese_line_breaking_is_found() -> None:
    assert _cell_problems(word_wrap="") == [
        "read-me.pdf page 1: a line starts with '。' ('。两面相同')"
    ]
    assert _cell_problems(word_wrap="CJK") == []
