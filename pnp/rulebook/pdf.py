"""The reading edition: A5 pages, contents with page numbers and links, PDF bookmarks."""

from __future__ import annotations

import io
from collections import Counter
from pathlib import Path
from typing import Any

from reportlab.lib.colors import HexColor
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    KeepTogether,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.tableofcontents import TableOfContents

from pnp.content.icons import icon_map
from pnp.content.loader import LoadedGame
from pnp.layout.primitives import Face, TextShape
from pnp.layout.products import laid_out_for_pictures, printed_count
from pnp.layout.sizes import item_size
from pnp.model.common import ProductKind, bring_amount, physical_of
from pnp.model.rulebook import Block, BlockKind, Generated, Rulebook, Section
from pnp.output import atomic_output
from pnp.render.fonts import FontSet, prepare_cjk_fonts
from pnp.render.forms import document_forms
from pnp.render.icons import prepare_canvas
from pnp.render.reportlab_adapter import LayoutOnlyFrame
from pnp.render.text import CJKParagraph, inline_icons, to_markup
from pnp.render.typeset import NOT_A_BLOCK, SetBlock, set_block
from pnp.rulebook.scenes import (
    CoverArt,
    KitFaces,
    SceneFigure,
    StepArrow,
    cover_faces,
    positions_of,
    scene_areas,
)
from pnp.rulebook.text import context_for, glossary_entries, lines_of, render, walk_sections
from pnp.units import PAPER_SIZES_MM, mm

A5 = (mm(PAPER_SIZES_MM["a5"][0]), mm(PAPER_SIZES_MM["a5"][1]))
MARGIN_X, MARGIN_TOP, MARGIN_BOTTOM = mm(14), mm(15), mm(17)
INK, ACCENT, PALE = HexColor("#1d1d1f"), HexColor("#8c2a2a"), HexColor("#f3ecdc")


class Styles:
    def __init__(self, fonts: FontSet) -> None:
        base = dict(fontName=fonts.regular, textColor=INK, wordWrap="CJK")
        self.body = ParagraphStyle("body", fontSize=9.5, leading=15, spaceAfter=5, **base)
        self.small = ParagraphStyle("small", fontSize=8, leading=12, **base)
        self.title = ParagraphStyle(
            "title", fontSize=26, leading=34, alignment=1, **{**base, "fontName": fonts.bold}
        )
        self.subtitle = ParagraphStyle(
            "subtitle",
            fontSize=11,
            leading=18,
            alignment=1,
            textColor=ACCENT,
            fontName=fonts.regular,
            wordWrap="CJK",
        )
        self.h1 = ParagraphStyle(
            "h1",
            fontSize=15,
            leading=22,
            spaceBefore=8,
            spaceAfter=6,
            **{**base, "textColor": ACCENT, "fontName": fonts.bold},
        )
        self.h2 = ParagraphStyle(
            "h2",
            fontSize=11.5,
            leading=17,
            spaceBefore=6,
            spaceAfter=3,
            **{**base, "fontName": fonts.bold},
        )
        self.item = ParagraphStyle(
            "item",
            parent=self.body,
            leftIndent=mm(5),
            bulletIndent=mm(1),
            spaceAfter=3,
            bulletFontName=fonts.regular,  # the default is an unembedded Helvetica
        )
        self.box_title = ParagraphStyle(
            "boxtitle", parent=self.body, fontName=fonts.bold, spaceAfter=2
        )
        self.reference = ParagraphStyle(
            "reference", fontSize=7.5, leading=10.5, spaceAfter=1.5, **base
        )
        self.reference_name = ParagraphStyle(
            "referencename", parent=self.reference, fontName=fonts.bold, spaceAfter=2
        )
        self.toc = [
            ParagraphStyle("toc1", fontSize=10, leading=17, **base),
            ParagraphStyle("toc2", fontSize=9, leading=14, leftIndent=mm(5), **base),
        ]


CONTENTS_PADDING = 3.0
"""Above and below each line of the contents (reportlab's table default)."""
FITTED_PADDING = 1.0
SMALLEST_LEADING = 1.25
"""Lines of the contents are set no closer than this times their size."""


def _fit_contents(contents: TableOfContents, levels: list[int], styles: Styles) -> None:
    """Set the contents closer when that keeps it on its one page: a second page holding
    its last few lines is near-empty paper (MineVenture's 29 entries). Contents that fit,
    or would need lines set too close, keep their setting."""
    room = A5[1] - MARGIN_TOP - MARGIN_BOTTOM
    room -= styles.h1.spaceBefore + styles.h1.leading + styles.h1.spaceAfter
    room -= styles.h1.leading  # slack: a title that wraps, reportlab's frame padding
    leadings = [styles.toc[min(level, 1)].leading for level in levels]
    if sum(leadings) + 2 * CONTENTS_PADDING * len(levels) <= room:
        return
    scale = (room - 2 * FITTED_PADDING * len(levels)) / sum(leadings)
    fitted = [
        ParagraphStyle(f"{style.name}-fitted", parent=style, leading=style.leading * scale)
        for style in styles.toc
    ]
    if any(style.leading < SMALLEST_LEADING * style.fontSize for style in fitted):
        return
    contents.levelStyles = fitted
    contents.tableStyle = TableStyle(
        [
            *contents.tableStyle.getCommands(),
            ("TOPPADDING", (0, 0), (-1, -1), FITTED_PADDING),
            ("BOTTOMPADDING", (0, 0), (-1, -1), FITTED_PADDING),
        ]
    )


def para(text: str, style: ParagraphStyle) -> Paragraph:
    return CJKParagraph(to_markup(text), style)


class Heading(CJKParagraph):
    """A section heading: a bookmark, an outline entry and a line of the contents."""

    def __init__(self, text: str, style: ParagraphStyle, key: str, level: int) -> None:
        super().__init__(to_markup(text), style)
        self.key, self.level, self.plain = key, level, text


class FaceFigure(Flowable):
    """A component drawn by the kit's own renderer, at true size or scaled to `width`, with
    a thin trim line."""

    def __init__(
        self, face: Face, fonts: FontSet, content_root: Path, width: float | None = None
    ) -> None:
        super().__init__()
        self.face, self.fonts, self.content_root = face, fonts, content_root
        self.width = face.width if width is None else width
        self.height = face.height * self.width / face.width

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        return self.width, self.height

    def text_drawn(self) -> str:
        """Every character the face prints, for the font subset."""
        return "".join(s.text for s in self.face.shapes if isinstance(s, TextShape))

    def draw(self) -> None:
        canvas = self.canv
        document_forms(canvas, self.fonts, self.content_root).place(self.face, 0, 0, self.width)
        canvas.setStrokeColor(HexColor("#999999"))
        canvas.setLineWidth(0.3)
        canvas.rect(0, 0, self.width, self.height)


class RulebookDocument(BaseDocTemplate):
    """The A5 reading edition. Its contents list needs every heading's page, so reportlab
    lays the book out until the pages it lists stop changing. Seeded with the headings
    (page numbers unknown), the contents already has its final height on the first pass,
    so that pass gives the final page numbers: it only lays out, draws nothing, and the
    second pass, the one written, confirms them."""

    def __init__(self, path: str | io.BytesIO, *, title: str, fonts: FontSet, footer: str) -> None:
        super().__init__(
            path,
            pagesize=A5,
            leftMargin=MARGIN_X,
            rightMargin=MARGIN_X,
            topMargin=MARGIN_TOP,
            bottomMargin=MARGIN_BOTTOM,
            title=title,
            author="pnp",
            creator="pnp",
            invariant=1,
            initialFontName=fonts.regular,
        )
        self.fonts, self.footer = fonts, footer
        self.blocks: list[SetBlock] = []
        """Where each block of the pass last built landed, for the typesetting checks."""
        self._passes = 0
        self._seeded = False
        frame = LayoutOnlyFrame(
            MARGIN_X,
            MARGIN_BOTTOM,
            A5[0] - 2 * MARGIN_X,
            A5[1] - MARGIN_TOP - MARGIN_BOTTOM,
            id="body",
            leftPadding=0,
            rightPadding=0,
            topPadding=0,
            bottomPadding=0,
        )
        self._frame = frame
        self.addPageTemplates([PageTemplate("page", [frame], onPage=self._decorate)])

    def seed_contents(self, story: list[Flowable]) -> None:
        """Give each contents list of `story` its entries, every heading in story order with
        page 0: the list is as long as it will be, and no page is 0, so the first pass is
        never taken for the last."""
        entries = [(h.level, h.plain, 0, h.key) for h in _headings(story)]
        for flowable in story:
            if isinstance(flowable, TableOfContents):
                flowable.addEntries(entries)
                self._seeded = True

    def build(self, flowables: list[Flowable], *args: Any, **kwargs: Any) -> None:
        self._passes += 1
        self.blocks = []
        self._frame.dry = self._seeded and self._passes == 1
        try:
            super().build(flowables, *args, **kwargs)
        finally:
            self._frame.dry = False

    def handle_flowable(self, flowables: list[Flowable]) -> None:
        """Lay out the next flowable; a figure that does not fit the rest of the page lets
        the whole paragraphs after it that do fit go first (see FloatingFigure)."""
        frame = getattr(self, "frame", None)  # none before the first page begins
        if frame is not None and isinstance(flowables[0], FloatingFigure) and not frame._atTop:
            width = frame._getAvailableWidth()
            room = frame._y - frame._y1p
            if room < flowables[0].height_in(width, self.canv) <= frame._height:
                ahead = _text_that_fits(flowables[1:], width, room, self.canv)
                if ahead:
                    flowables[: ahead + 1] = [*flowables[1 : ahead + 1], flowables[0]]
        super().handle_flowable(flowables)

    def _decorate(self, canvas: Any, document: Any) -> None:
        prepare_canvas(canvas)  # prose and glossary place icons inline
        if document.page == 1 or self._frame.dry:
            return
        canvas.saveState()
        canvas.setFont(self.fonts.regular, 7.5)
        canvas.setFillColor(HexColor("#777777"))
        canvas.drawCentredString(A5[0] / 2, mm(8), f"— {document.page} —")
        canvas.drawRightString(A5[0] - MARGIN_X, mm(8), self.footer)
        canvas.restoreState()

    def afterFlowable(self, flowable: Flowable) -> None:
        if not isinstance(flowable, NOT_A_BLOCK):
            self.blocks.append(set_block(flowable, self.page, isinstance(flowable, Heading)))
        if isinstance(flowable, Heading):
            self.canv.bookmarkPage(flowable.key)
            self.canv.addOutlineEntry(flowable.plain, flowable.key, level=flowable.level)
            self.notify("TOCEntry", (flowable.level, flowable.plain, self.page, flowable.key))


class FloatingFigure(KeepTogether):
    """A figure that, when the rest of the page cannot hold it, lets the whole paragraphs
    after it that fit there go first, as a printed book places figures: moved whole to the
    next page, it left that room empty (MineVenture's movement figure; Dragon Hoard's and
    Arena Tales' setup pictures, whose sections end soon after them, left two thirds of a
    page). The text that goes first may pass a heading, with at least one whole paragraph of
    its section under it (never a heading alone at the foot). It never splits a paragraph
    around itself. First under its heading, it travels with the heading."""

    def height_in(self, width: float, canvas: Any) -> float:
        return float(sum(f.wrapOn(canvas, width, 1e6)[1] for f in self._content))


def _text_that_fits(flowables: list[Flowable], width: float, room: float, canvas: Any) -> int:
    """How many of the headings, paragraphs and lists at the head of `flowables` fit whole
    in `room`, stopping at a figure, a box or a page break, and not ending on a heading or
    on a single line under one."""
    used, count, whole = 0.0, 0, 0
    under_heading: int | None = None  # lines set under the last heading passed
    for flowable in flowables:
        if isinstance(flowable, CondPageBreak):  # a section's start: room for a few lines
            if room - used < flowable.height:
                break
            count += 1
            continue
        if not isinstance(flowable, Paragraph):
            break
        style = flowable.style
        used += style.spaceBefore + flowable.wrapOn(canvas, width, 1e6)[1] + style.spaceAfter
        if used > room:
            break
        count += 1
        if isinstance(flowable, Heading):
            under_heading = 0
            continue
        if under_heading is not None:
            under_heading += len(getattr(flowable.blPara, "lines", ()))
        # a heading goes first with two lines under it at least: one alone at the foot,
        # the rest of its section overleaf, reads as a heading left behind
        if under_heading is None or under_heading >= 2:
            whole = count
    return whole


def _headings(story: list[Flowable]) -> list[Heading]:
    """The headings of `story` in the order the document meets them."""
    found: list[Heading] = []
    for flowable in story:
        if isinstance(flowable, Heading):
            found.append(flowable)
        elif isinstance(flowable, KeepTogether):
            found += _headings(list(flowable._content))
    return found


def _boxed(flowables: list[Flowable], width: float, background: Any, font: str) -> Table:
    table = Table([[flowables]], colWidths=[width])
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), font),
                ("BACKGROUND", (0, 0), (-1, -1), background),
                ("LEFTPADDING", (0, 0), (-1, -1), mm(3)),
                ("RIGHTPADDING", (0, 0), (-1, -1), mm(3)),
                ("TOPPADDING", (0, 0), (-1, -1), mm(2)),
                ("BOTTOMPADDING", (0, 0), (-1, -1), mm(2)),
            ]
        )
    )
    return table


def _table(rows: list[list[str]], widths: list[float], styles: Styles, fonts: FontSet) -> Table:
    cells = [[para(cell, styles.small) for cell in row] for row in rows]
    table = Table(cells, colWidths=widths, repeatRows=1)
    table.setStyle(
        TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), fonts.regular),
                ("GRID", (0, 0), (-1, -1), 0.4, HexColor("#b9ad93")),
                ("BACKGROUND", (0, 0), (-1, 0), PALE),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table


class StoryBuilder:
    """Rulebook content -> flowables. Text goes through jinja with the model and examples."""

    def __init__(
        self,
        game: LoadedGame,
        templates_root: Path,
        fonts: FontSet,
        rendered: dict[str, str] | None = None,
        context: dict[str, Any] | None = None,
    ) -> None:
        self.game, self.templates_root, self.fonts = game, templates_root, fonts
        self.context = context_for(game) if context is None else context
        self.styles = Styles(fonts)
        self.width = A5[0] - 2 * MARGIN_X
        self.section_text: dict[str, str] = {}
        # Prose rendered once per text: the glossary looks for each term in every block,
        # and a second story with a larger font subset says the same things.
        self.rendered: dict[str, str] = {} if rendered is None else rendered
        self.mentions: dict[str, tuple[str, str] | None] = {}
        self.figures: list[FaceFigure | SceneFigure | CoverArt] = []
        self._kit_faces: KitFaces | None = None

    def position_figure(self, block: Block) -> list[Flowable]:
        """A position the engine reaches, drawn as the kit lies (pnp.rulebook.scenes)."""
        pictured = positions_of(self.game)[block.position]
        if self._kit_faces is None:
            self._kit_faces = KitFaces(self.game, self.templates_root)
        states = scene_areas(self.game, pictured)
        title = para(self.text(block.title, block), self.styles.small)
        if len(states) > 2:
            # Three states side by side (or squeezed under one another onto one page) draw a
            # board at a third of the column, too small to read: each state is a figure of
            # its own, as large as two fit a page, an arrow between.
            steps: list[list[Flowable]] = []
            for index, areas in enumerate(states):
                drawing = SceneFigure(
                    [areas],
                    pictured.captions[index : index + 1],
                    self._kit_faces,
                    self.fonts,
                    self.width,
                    mm(80),
                )
                self.figures.append(drawing)
                # An arrow goes with the state it leads to, never alone at a page's foot.
                arrow: list[Flowable] = [StepArrow(self.width)] if index else []
                steps.append([*arrow, self._centred([[drawing]])])
            steps[-1] += [title, Spacer(1, mm(3))]
            return [KeepTogether(step) for step in steps]
        drawing = SceneFigure(
            states,
            pictured.captions,
            self._kit_faces,
            self.fonts,
            self.width,
            mm(125),
        )
        self.figures.append(drawing)
        figure = self._centred([[drawing], [title]])
        return [FloatingFigure([figure, Spacer(1, mm(3))])]

    def _centred(self, rows: list[list[Any]]) -> Table:
        table = Table(rows, colWidths=[self.width])
        table.setStyle(
            TableStyle(
                [
                    ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                    ("FONTNAME", (0, 0), (-1, -1), self.fonts.regular),
                ]
            )
        )
        return table

    def _figure(self, face: Face, width: float | None = None) -> FaceFigure:
        figure = FaceFigure(face, self.fonts, self.game.folder, width)
        self.figures.append(figure)
        return figure

    def text(self, value: str, block_or_section: Any, label: str = "") -> str:
        return self._render(value, block_or_section.where, label)

    def _render(self, value: str, where: Any, label: str = "") -> str:
        text = self.rendered.get(value)
        if text is None:
            text = self.rendered[value] = render(value, self.context, where, label)
        return text

    def story(self, rulebook: Rulebook) -> list[Flowable]:
        info = self.game.model.info
        styles = self.styles
        if self._kit_faces is None:
            self._kit_faces = KitFaces(self.game, self.templates_root)
        mark = icon_map(self.game.model).get("mark")
        art = CoverArt(
            cover_faces(self.game, self._kit_faces),
            mark,
            "#8c2a2a",
            self.fonts,
            self.width,
            self.game.folder,
        )
        self.figures.append(art)
        story: list[Flowable] = [
            Spacer(1, mm(22)),
            para(self.text(rulebook.title, rulebook), styles.title),
            Spacer(1, mm(4)),
            para(self.text(rulebook.subtitle, rulebook), styles.subtitle),
            Spacer(1, mm(10)),
            art,
            Spacer(1, mm(8)),
            para(f"{info.players} 人 · 约 {info.minutes} 分钟", styles.subtitle),
            PageBreak(),
            Heading("目录", styles.h1, "contents", 0),
        ]
        contents = TableOfContents(levelStyles=styles.toc, dotsMinLevel=0)
        contents.tableStyle = TableStyle(
            [
                ("FONTNAME", (0, 0), (-1, -1), self.fonts.regular),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
        story += [contents, PageBreak()]
        for section, depth in walk_sections(rulebook.sections):
            story += self.section(section, depth, rulebook)
        _fit_contents(contents, [h.level for h in _headings(story)], styles)
        last = story[-1]
        if isinstance(last, Spacer):
            story[-1] = ClosingSpace(last.width, last.height)
        return story

    def section(self, section: Section, depth: int, rulebook: Rulebook) -> list[Flowable]:
        style = self.styles.h1 if depth == 0 else self.styles.h2
        heading = Heading(self.text(section.title, section), style, section.id, min(depth, 1))
        body: list[Flowable] = []
        for block in section.blocks:
            body += self.block(block, rulebook)
        # A heading needs room for itself and a few lines after it, or it moves on. Text and
        # tables split, so that room is enough; a box that cannot split (an example, a
        # figure) travels with its heading instead of leaving it alone at a page bottom.
        if body and isinstance(body[0], KeepTogether):
            return [CondPageBreak(mm(30)), KeepTogether([heading, *body[0]._content]), *body[1:]]
        room = mm(30)
        if body and isinstance(body[0], Table):
            # A table splits between rows and repeats its header: a first row taller than the
            # room left (Arena Tales' glossary) would move on with the header, the heading
            # alone behind. Ask for the heading, the header and the first row.
            _, height = heading.wrap(self.width, 1e6)
            spacing = heading.getSpaceBefore() + heading.getSpaceAfter()
            body[0].wrap(self.width, 1e6)
            rows = sum(body[0]._rowHeights[:2])
            room = max(room, rows + height + spacing + mm(2))
        return [CondPageBreak(room), heading, *body]

    def block(self, block: Block, rulebook: Rulebook) -> list[Flowable]:
        styles = self.styles
        if block.kind is BlockKind.PARAGRAPH:
            return [para(self.text(block.text, block), styles.body)]
        if block.kind is BlockKind.NOTE:
            return [
                _boxed(
                    [para(self.text(block.text, block), styles.body)],
                    self.width,
                    PALE,
                    self.fonts.regular,
                ),
                Spacer(1, mm(2)),
            ]
        if block.kind is BlockKind.EXAMPLE:
            inner = [
                para(self.text(block.title, block), styles.box_title),
                para(self.text(block.text, block), styles.body),
            ]
            return [
                KeepTogether(
                    [
                        _boxed(inner, self.width, HexColor("#eef2f5"), self.fonts.regular),
                        Spacer(1, mm(2)),
                    ]
                )
            ]
        if block.kind in (BlockKind.LIST, BlockKind.STEPS):
            entries = lines_of(block, self.context)
            return [
                CJKParagraph(
                    to_markup(entry),
                    styles.item,
                    bulletText=f"{n}." if block.kind is BlockKind.STEPS else "•",
                )
                for n, entry in enumerate(entries, 1)
            ]
        if block.kind is BlockKind.TABLE:
            rows = [[self.text(cell, block) for cell in row] for row in block.rows]
            columns = max(len(row) for row in rows)
            return [_table(rows, [self.width / columns] * columns, styles, self.fonts)]
        if block.kind is BlockKind.FIGURE:
            return self.figure(block)
        if block.kind is BlockKind.GENERATED and block.source is not None:
            return self.generated(block.source, rulebook)
        return []

    def figure(self, block: Block) -> list[Flowable]:
        if block.position:
            return self.position_figure(block)
        product = next(p for p in self.game.model.products if p.id == block.product)
        laid = laid_out_for_pictures(self.game, product, self.templates_root)
        face = next(
            front
            for item, (front, _, _) in zip(laid.items, laid.runs, strict=True)
            if item.id == block.item
        )
        figure = self._centred(
            [[self._figure(face)], [para(self.text(block.title, block), self.styles.small)]]
        )
        return [FloatingFigure([figure, Spacer(1, mm(3))])]

    def generated(self, source: Generated, rulebook: Rulebook) -> list[Flowable]:
        model = self.game.model
        styles = self.styles
        if source is Generated.COMPONENTS:
            rows = [["配件", "数量", "规格"]]
            for product in model.products:
                count = printed_count(model, product)
                width, height = item_size(product)
                unit = "张" if product.kind is ProductKind.CARDS else "份"
                size = f"{width / mm(1):.0f}×{height / mm(1):.0f} 毫米"
                rows.append([product.title, f"{count} {unit}", size])
            # What the kit does not print and the players bring (a d6, bags, a timer).
            for bring in physical_of(model).bring:
                spec = "自备" + (f"：{self.text(bring.note, bring)}" if bring.note else "")
                rows.append([bring.name, bring_amount(bring), spec])
            return [
                _table(
                    rows, [self.width * 0.5, self.width * 0.2, self.width * 0.3], styles, self.fonts
                ),
                Spacer(1, mm(3)),
            ]
        if source is Generated.GLOSSARY:
            entries = glossary_entries(rulebook, model)
            rows = [["术语", "含义"]]
            by_term = {icon.term: icon.name for icon in getattr(model, "icons", ()) if icon.term}
            marks = [
                f"[[{entry.icon or by_term[entry.term]}]] "
                if entry.icon or entry.term in by_term
                else ""
                for entry in entries
            ]
            for entry, mark in zip(entries, marks, strict=True):
                target = self._section_mentioning(entry.term, rulebook)
                term = f"{mark}**{entry.term}**"
                rows.append(
                    [term + (f" →{target[1]}" if target else ""), self.text(entry.meaning, entry)]
                )
            table = _table(rows, [self.width * 0.3, self.width * 0.7], styles, self.fonts)
            # Link each term to the section that explains it.
            for row, entry in enumerate(entries, 1):
                target = self._section_mentioning(entry.term, rulebook)
                if target:
                    table._cellvalues[row][0] = CJKParagraph(
                        f"{to_markup(marks[row - 1])}"
                        f'<a href="#{target[0]}" color="#8c2a2a"><b>{to_markup(entry.term)}'
                        f"</b></a> → {to_markup(target[1])}",
                        styles.small,
                    )
            return [table]
        if source is Generated.DECISIONS:
            return [
                CJKParagraph(
                    f"<b>{to_markup(self.text(d.question, d))}</b> "
                    f"{to_markup(self.text(d.answer, d))}",
                    styles.item,
                    bulletText="•",
                )
                for d in getattr(model, "decisions", ())
                if not d.designer  # balance and software: the designer's report has them
            ]
        if source is Generated.CARD_REFERENCE:
            return self.card_reference()
        return []

    def _section_mentioning(self, term: str, rulebook: Rulebook) -> tuple[str, str] | None:
        if term not in self.mentions:
            self.mentions[term] = self._find_mention(term, rulebook)
        return self.mentions[term]

    def _find_mention(self, term: str, rulebook: Rulebook) -> tuple[str, str] | None:
        for section, _ in walk_sections(rulebook.sections):
            if section.id == "glossary":
                continue
            for block in section.blocks:
                if block.kind is BlockKind.GENERATED:
                    continue
                texts = [block.text, *block.items]
                if any(term in self._render(t, block.where) for t in texts if t):
                    return section.id, self.text(section.title, section)
        return None

    def card_reference(self) -> list[Flowable]:
        """Every distinct card of every card product: its face drawn small from the kit's own
        layout, and beside it its name, how many the kit holds and every text it prints, in
        the order printed (a card that prints a word twice shows it twice)."""
        styles = self.styles
        # The appendix as a run of units, each a row of entries (a row never splits) or a
        # heading kept with the first row under it, however tall that row is.
        units: list[Flowable] = []
        for product in self.game.model.products:
            if product.kind is not ProductKind.CARDS:
                continue
            laid = laid_out_for_pictures(self.game, product, self.templates_root)
            # One entry per name: the same card in each player's colour or deck differs only
            # in the line naming its owner, so the first face stands for them all.
            first: dict[str, Face] = {}
            copies: dict[str, int] = {}
            for item, (front, _, count) in zip(laid.items, laid.runs, strict=True):
                name = str(item.name)
                first.setdefault(name, front)
                copies[name] = copies.get(name, 0) + count
            # A deck of cards that say little (a fighter's moves) reads as well in three
            # narrower columns with smaller drawings, in about half the pages; a deck of
            # sentences keeps two columns, where three would stack its words into tall
            # entries. The shorter of the two decides.
            rows, figures = min(
                (self._reference_rows(first, copies, layout) for layout in _REFERENCE_LAYOUTS),
                key=lambda laid_rows: sum(row.wrap(self.width, 1e6)[1] for row in laid_rows[0]),
            )
            self.figures += figures
            if units:
                units.append(Spacer(1, mm(3)))
            units.append(KeepTogether([para(product.title, styles.h2), rows[0]]))
            units += rows[1:]
        if not units:
            return []
        # The last page holds the appendix's last two rows (with any heading among them): a
        # short last deck (Arena Tales' one token) takes the row before it along rather than
        # stand alone on a page of its own. Flat, as reportlab measures a KeepTogether inside
        # another as endless; where the two are taller than a page, each keeps its heading.
        start = [n for n, unit in enumerate(units) if not isinstance(unit, Spacer)][-2]
        tail: list[Flowable] = []
        for unit in units[start:]:
            tail += unit._content if isinstance(unit, KeepTogether) else [unit]
        height = sum(f.wrap(self.width, 1e6)[1] + f.getSpaceBefore() for f in tail)
        if height <= A5[1] - MARGIN_TOP - MARGIN_BOTTOM:
            units[start:] = [KeepTogether(tail)]
        return [*units, Spacer(1, mm(3))]

    def _reference_rows(
        self, faces: dict[str, Face], copies: dict[str, int], layout: tuple[int, float]
    ) -> tuple[list[Table], list[FaceFigure]]:
        """The product's entries in `layout` (columns, the drawing's longer side), one table
        a row (so a row can keep with its heading or its neighbour), and the drawings they
        place."""
        columns, side = layout
        column = self.width / columns
        figures: list[FaceFigure] = []
        entries = [
            self._reference_entry(name, face, copies[name], column, side, figures)
            for name, face in faces.items()
        ]
        rows: list[list[Table | str]] = [
            list(entries[start : start + columns]) for start in range(0, len(entries), columns)
        ]
        rows[-1] += [""] * (columns - len(rows[-1]))
        tables = []
        for number, row in enumerate(rows, 1):
            table = Table([row], colWidths=[column] * columns)
            style: list[tuple[Any, ...]] = [
                ("FONTNAME", (0, 0), (-1, -1), self.fonts.regular),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), mm(2)),
                ("TOPPADDING", (0, 0), (-1, -1), mm(1.5)),
                ("BOTTOMPADDING", (0, 0), (-1, -1), mm(1.5)),
            ]
            if number < len(rows):  # a rule between rows, none under the last
                style.append(("LINEBELOW", (0, 0), (-1, -1), 0.3, HexColor("#d9d0bc")))
            table.setStyle(TableStyle(style))
            tables.append(table)
        return tables, figures

    def _reference_entry(
        self,
        name: str,
        face: Face,
        copies: int,
        column: float,
        side: float,
        figures: list[FaceFigure],
    ) -> Table:
        """One card of the appendix: the face and, beside it, what it says."""
        # The longer side drawn `side` long (a token at most 0.7 of its size): small, and
        # the texts beside it say in print what the drawing shows too small to read.
        scale = min(side / max(face.width, face.height), 0.7)
        drawing = FaceFigure(face, self.fonts, self.game.folder, face.width * scale)
        figures.append(drawing)
        texts = [
            shape.text.strip()
            for shape in face.shapes
            if isinstance(shape, TextShape)
            and shape.text.strip() != name
            and _says_something(shape.text.strip())
        ]
        words = [para(f"**{name}** ×{copies}", self.styles.reference_name)]
        if len(texts) > _REFERENCE_LINES:
            # A board or tile prints a label in each of its cells: how many of each it has
            # says what the drawing shows, where one line a label would run for pages.
            tally = Counter(texts)
            summary = "　".join(f"{text} ×{tally[text]}" for text in tally)
            words.append(para(summary, self.styles.reference))
        else:
            words += [para(text, self.styles.reference) for text in texts]
        beside = column - mm(2) - drawing.width - mm(2)
        entry = Table([[drawing, words]], colWidths=[drawing.width + mm(2), beside])
        entry.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), self.fonts.regular),
                    ("VALIGN", (0, 0), (-1, -1), "TOP"),
                    ("LEFTPADDING", (0, 0), (-1, -1), 0),
                    ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                    ("TOPPADDING", (0, 0), (-1, -1), 0),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                ]
            )
        )
        return entry


_REFERENCE_LAYOUTS = ((2, mm(30)), (3, mm(22)))
"""The appendix's two ways to set a deck: (columns, a drawing's longer side)."""
_REFERENCE_LINES = 12
"""More texts than this on one face are cell labels of a board, tallied, not listed."""


def _says_something(text: str) -> bool:
    """Whether a face's text reads on its own: a number, a mark or a single glyph (a cost, a
    hex's label, a token's letter) is read off the drawing; in a list it says nothing."""
    return len(text) > 1 and any(ch.isalpha() for ch in text)


class ClosingSpace(Spacer):
    """The space after the book's last block. Where that block fills its page to the bottom,
    a Spacer would move on to a page of its own, blank but for the footer; this one is
    dropped instead (split into nothing that takes room). Where it fits, it is a Spacer."""

    def split(self, aW: float, aH: float) -> list[Flowable]:
        return [Spacer(self.width, 0)]


def all_text(story: list[Flowable]) -> str:
    chars: set[str] = set()

    def visit(flowable: Any) -> None:
        if isinstance(flowable, SceneFigure | CoverArt | FaceFigure):
            chars.update(flowable.text_drawn())
        elif isinstance(flowable, Paragraph):
            chars.update(flowable.text)
            chars.update(getattr(flowable, "bulletText", "") or "")
        elif isinstance(flowable, Table):
            for row in flowable._cellvalues:
                for cell in row:
                    for inner in cell if isinstance(cell, list) else [cell]:
                        visit(inner)
        elif isinstance(flowable, KeepTogether):
            for inner in flowable._content:
                visit(inner)

    for flowable in story:
        visit(flowable)
    return "".join(sorted(chars))


def render_reading_edition(
    game: LoadedGame, path: Path, templates_root: Path, typeset: list[SetBlock] | None = None
) -> int:
    """Write the A5 reading edition; returns its page count. `typeset`, when given, receives
    where every block landed (for the typesetting checks)."""
    rulebook: Rulebook = game.model.rulebook
    base_fonts = prepare_cjk_fonts()
    with inline_icons(icon_map(game.model)):
        return _render_reading_edition(game, rulebook, base_fonts, path, templates_root, typeset)


def typeset_reading_edition(game: LoadedGame, templates_root: Path) -> list[SetBlock]:
    """Where every block of the reading edition lands, laid out as `render_reading_edition`
    lays it out but with nothing drawn and nothing written: the contents seeded with every
    heading already has its final height, so the first pass puts each block on its final
    page. Glyph widths come from the whole font whatever its subset, so the base set lays
    the lines out as the build's larger one does."""
    rulebook: Rulebook = game.model.rulebook
    fonts = prepare_cjk_fonts()
    with inline_icons(icon_map(game.model)):
        story = StoryBuilder(game, templates_root, fonts).story(rulebook)
        document = RulebookDocument(
            io.BytesIO(), title=game.model.info.title, fonts=fonts, footer=game.model.info.title
        )
        document.seed_contents(story)
        # What multiBuild does before each pass: the contents takes the entries seeded.
        for flowable in story:
            if flowable.isIndexing():
                flowable.beforeBuild()
        document.build(story)
    return document.blocks


def _render_reading_edition(
    game: LoadedGame,
    rulebook: Rulebook,
    base_fonts: FontSet,
    path: Path,
    templates_root: Path,
    typeset: list[SetBlock] | None,
) -> int:
    builder = StoryBuilder(game, templates_root, base_fonts)
    story = builder.story(rulebook)
    fonts = prepare_cjk_fonts(all_text(story) + "目录— 0123456789")
    if (fonts.regular, fonts.bold) != (base_fonts.regular, base_fonts.bold):
        # The larger subset the text needs goes by other names: build the story with them.
        story = StoryBuilder(game, templates_root, fonts, builder.rendered, builder.context).story(
            rulebook
        )
    else:
        # The same names (the fonts grow in place): the story's styles already name them,
        # and its figures draw with the larger set.
        for figure in builder.figures:
            figure.fonts = fonts
    with atomic_output(path) as temporary:
        document = RulebookDocument(
            str(temporary),
            title=game.model.info.title + " 规则书",
            fonts=fonts,
            footer=game.model.info.title,
        )
        document.seed_contents(story)
        document.multiBuild(story)
        pages: int = document.page
        if typeset is not None:
            typeset.extend(document.blocks)
    return pages
