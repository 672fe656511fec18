"""The kit's first page: what to print, on what paper, how many copies, how to cut."""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    PageTemplate,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from pnp.content.prose import join_cjk, render_prose
from pnp.layout.products import printed_count
from pnp.layout.sheets import NEUTRAL_BORDER
from pnp.model.common import ProductKind, bring_amount, physical_of
from pnp.output import atomic_output
from pnp.render.draw import colour
from pnp.render.fonts import FontSet
from pnp.render.reportlab_adapter import LayoutOnlyFrame
from pnp.render.text import CJKParagraph as Paragraph
from pnp.render.typeset import NOT_A_BLOCK, SetBlock, set_block, typeset_problems
from pnp.units import mm


@dataclass(frozen=True)
class CoverEntry:
    """One file of the kit as the cover lists it."""

    file_name: str
    title: str
    pages: int
    note: str


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _components(
    model: Any, small: ParagraphStyle, heading: ParagraphStyle, fonts: FontSet
) -> list[Any]:
    """The components with their counts, and what the players bring that the kit does not
    print, so a table can check it has everything before it starts."""
    rows: list[list[Any]] = [[Paragraph(text, small) for text in ("配件", "数量", "说明")]]
    for product in model.products:
        count = printed_count(model, product)
        unit = "张" if product.kind is ProductKind.CARDS else "份"
        rows.append(
            [Paragraph(_escape(product.title), small), Paragraph(f"{count} {unit}", small), ""]
        )
    physical = physical_of(model)
    for bring in physical.bring:
        note = (
            join_cjk(render_prose(bring.note, {"game": model}, bring.where)) if bring.note else ""
        )
        rows.append(
            [
                Paragraph(_escape(bring.name), small),
                Paragraph(_escape(bring_amount(bring)), small),
                Paragraph(_escape("自备，不在打印件中" + (f"：{note}" if note else "")), small),
            ]
        )
    widths = [mm(62), mm(30), mm(88)]
    table = Table(rows, colWidths=widths, repeatRows=1)
    styles = [
        ("FONTNAME", (0, 0), (-1, -1), fonts.regular),
        ("GRID", (0, 0), (-1, -1), 0.4, colour("#999999")),
        ("BACKGROUND", (0, 0), (-1, 0), colour("#efe6d2")),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
    ]
    if physical.bring:
        first = len(rows) - len(physical.bring)
        styles.append(("BACKGROUND", (0, first), (-1, -1), colour("#fbeaea")))
    table.setStyle(TableStyle(styles))
    title = "配件清单（含玩家自备）" if physical.bring else "配件清单"
    return [*_heading(title, heading, _first_rows(rows, widths)), table]


def print_guidance(
    paper_name: str, bleed_mm: float, calibration: str = "", flip_long: bool = True
) -> list[str]:
    """How to print and cut the kit, in the players' words."""
    paper_label = paper_name.upper() if paper_name != "letter" else "Letter"
    flip = "长边翻转" if flip_long else "短边翻转"
    border = NEUTRAL_BORDER / mm(1)
    check = (
        f"先用同样的设置打印「{calibration}」这一张，按页上的说明对着光读出背面的偏差；"
        "偏差不是 0 时，在打印机属性里把背面移回来，再打印卡牌。"
        if calibration
        else ""
    )
    return [
        f"纸张：{paper_label}，打印时选择「实际大小 / 100%」，不要「适合页面」。"
        "卡牌按真实尺寸排版。",
        f"出血与白边：牌与牌之间留有空隙的页面，每张牌四周多印 {bleed_mm:g} 毫米出血，"
        "沿裁切标记裁切即可；牌与牌紧挨着、共用一条裁切线的页面，"
        f"每张牌四周留 {border:g} 毫米白边，"
        "裁偏一点只会裁到白边，不会露出邻牌的颜色。打印清单里写着每个文件是哪一种。",
        f"双面：卡牌文件的正面页与背面页交替排列，请用双面打印并选「{flip}」，"
        f"每张牌背正好落在它的正面之后。{check}",
        "裁切：沿纸边的裁切标记（细黑线）连线裁切；标记只画在卡牌区域之外、打印机印得到的范围内，"
        "不会压到牌面。",
        "大幅面的图版会拆成多页，另附一页缩小的拼接总览；按页角编号对齐十字标记后粘贴。",
    ]


def render_cover(
    path: Path,
    model: Any,
    entries: Sequence[CoverEntry],
    *,
    paper: tuple[float, float],
    paper_name: str,
    bleed_mm: float,
    fonts: FontSet,
    calibration: str = "",
    flip_long: bool = True,
) -> list[str]:
    """Write the read-me-first page(s); returns what the typesetting checks found in them."""
    data, blocks = typeset_cover(
        model,
        entries,
        paper=paper,
        paper_name=paper_name,
        bleed_mm=bleed_mm,
        fonts=fonts,
        calibration=calibration,
        flip_long=flip_long,
    )
    with atomic_output(path) as temporary:
        temporary.write_bytes(data)
    return typeset_problems(path.name, blocks)


def typeset_cover(
    model: Any,
    entries: Sequence[CoverEntry],
    *,
    paper: tuple[float, float],
    paper_name: str,
    bleed_mm: float,
    fonts: FontSet,
    calibration: str = "",
    flip_long: bool = True,
    draw: bool = True,
) -> tuple[bytes, list[SetBlock]]:
    """The read-me's bytes (none when not `draw`n: laid out only, for the checks) and where
    each of its blocks landed. A read-me of several pages is set a little tighter when that
    saves a page: its last page is otherwise part-empty paper (MineVenture's four pages
    become three)."""
    setting = (model, entries, paper, paper_name, bleed_mm, fonts, calibration, flip_long)
    loose = _cover_pdf(*setting, compact=False, draw=draw)
    chosen = loose
    if loose[1] > 1:
        tight = _cover_pdf(*setting, compact=True, draw=draw)
        if tight[1] < loose[1]:
            chosen = tight
    return chosen[0], chosen[2]


PAGES = ("First", "Later")
"""SimpleDocTemplate's page templates: it turns from the first to the later one."""


class _RecordingDocument(SimpleDocTemplate):
    """A document that notes where each block lands, for the typesetting checks; a `dry`
    one only lays its story out, drawing nothing."""

    def __init__(self, *args: Any, dry: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.blocks: list[SetBlock] = []
        self.dry = dry

    def build(self, flowables: list[Flowable], *args: Any, **kwargs: Any) -> None:
        if not self.dry:
            super().build(flowables, *args, **kwargs)
            return
        # SimpleDocTemplate.build, its one frame one that lays out without drawing.
        self._calc()
        frame = LayoutOnlyFrame(
            self.leftMargin, self.bottomMargin, self.width, self.height, id="normal"
        )
        frame.dry = True
        self.addPageTemplates(
            [PageTemplate(id=name, frames=frame, pagesize=self.pagesize) for name in PAGES]
        )
        BaseDocTemplate.build(self, flowables)

    def afterFlowable(self, flowable: Flowable) -> None:
        if isinstance(flowable, NOT_A_BLOCK):
            return
        style = getattr(flowable, "style", None)
        heading = getattr(style, "name", "") == "heading"
        self.blocks.append(set_block(flowable, self.page, heading))


LINES_UNDER_A_HEADING = 3
"""A heading starts a new page unless this many lines of the text it heads fit under it: a
heading with a line or two at the foot of a page reads as if the section ended there."""


def _heading(text: str, style: ParagraphStyle, under: float) -> list[Any]:
    """A heading that starts a new page unless `under` points of what it heads fit below."""
    room = style.spaceBefore + style.leading + style.spaceAfter + under
    return [CondPageBreak(room), Paragraph(text, style)]


def _first_rows(rows: list[list[Any]], widths: list[float]) -> float:
    """The height of a table's header and first row (its style sets no padding or size):
    what a heading needs under it."""
    return float(Table(rows[:2], colWidths=widths).wrap(sum(widths), 1e6)[1])


def _cover_pdf(
    model: Any,
    entries: Sequence[CoverEntry],
    paper: tuple[float, float],
    paper_name: str,
    bleed_mm: float,
    fonts: FontSet,
    calibration: str,
    flip_long: bool,
    *,
    compact: bool,
    draw: bool,
) -> tuple[bytes, int, list[SetBlock]]:
    """The read-me's bytes (when drawn), its page count and where each of its blocks
    landed."""
    info = model.info
    body = ParagraphStyle(
        "body",
        fontName=fonts.regular,
        fontSize=10,
        leading=13.5 if compact else 15,
        wordWrap="CJK",
    )
    small = ParagraphStyle(
        "small", parent=body, fontSize=8 if compact else 8.5, leading=10.5 if compact else 12
    )
    title = ParagraphStyle("title", parent=body, fontName=fonts.bold, fontSize=24, leading=30)
    subtitle = ParagraphStyle("subtitle", parent=body, fontSize=13, leading=19, spaceAfter=2)
    heading = ParagraphStyle(
        "heading",
        parent=body,
        fontName=fonts.bold,
        fontSize=13,
        leading=20,
        spaceBefore=8,
        spaceAfter=4,
        # No keepWithNext: it carries a table that does not fit the rest of the page over
        # with its heading, leaving the page part-empty (_heading keeps them together).
    )
    story: list[Any] = [
        Paragraph(_escape(info.title), title),
        # The subtitle on its own line, smaller: run on after the title it read as one name.
        *([Paragraph(_escape(info.subtitle), subtitle)] if info.subtitle else []),
        Paragraph(_escape(f"{info.players} 人 · 约 {info.minutes} 分钟 · 打印版"), body),
        Spacer(1, mm(4)),
    ]
    rows = [
        [
            Paragraph("文件", small),
            Paragraph("内容", small),
            Paragraph("页数", small),
            Paragraph("怎么打印", small),
        ]
    ]
    for built in entries:
        rows.append(
            [
                Paragraph(_escape(built.file_name), small),
                Paragraph(_escape(built.title), small),
                Paragraph(str(built.pages), small),
                Paragraph(_escape(join_cjk(built.note)), small),
            ]
        )
    widths = [mm(62), mm(30), mm(12), mm(76)]
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), fonts.regular),
                ("GRID", (0, 0), (-1, -1), 0.4, colour("#999999")),
                ("BACKGROUND", (0, 0), (-1, 0), colour("#efe6d2")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    story += [*_heading("打印清单", heading, _first_rows(rows, widths)), table]
    story += _components(model, small, heading, fonts)
    guidance = print_guidance(paper_name, bleed_mm, calibration, flip_long)
    story += _heading("打印与裁切", heading, LINES_UNDER_A_HEADING * body.leading)
    story.extend(Paragraph(_escape(line), body) for line in guidance)
    decisions = [d for d in getattr(model, "decisions", ()) if not d.designer]
    if decisions:
        story += _heading("本版规则裁定", heading, LINES_UNDER_A_HEADING * small.leading)
        for decision in decisions:
            answer = join_cjk(render_prose(decision.answer, {"game": model}, decision.where))
            question = join_cjk(render_prose(decision.question, {"game": model}, decision.where))
            story.append(Paragraph(f"<b>{_escape(question)}</b> {_escape(answer)}", small))
    buffer = io.BytesIO()
    top, bottom = mm(15), mm(15)
    document = _RecordingDocument(
        buffer,
        pagesize=paper,
        leftMargin=mm(15),
        rightMargin=mm(15),
        topMargin=top,
        bottomMargin=bottom,
        title=f"{info.title} · 打印说明",
        author="pnp",
        creator="pnp",
        invariant=1,
        initialFontName=fonts.regular,
        dry=not draw,
    )
    document.build(story)
    return buffer.getvalue() if draw else b"", document.page, document.blocks
