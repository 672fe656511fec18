"""Preflight: what a print shop or a player notices on the laid-out sheets and in the player
documents, found before anything is printed.

Sheets: nothing but bleed inside the printer's dead margin (marks and footers included), no
two cards butted without bleed or a neutral border between them, no text on a component set
smaller than a player can read, no line of a face that starts with closing punctuation.
Player documents (read-me, rulebook, the notes on products): no developer material — command
and option names, issue numbers, statistics and engine terms, decision ids as references — and
no glossary term spelt two ways.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from pnp.errors import Location
from pnp.layout.primitives import TextShape
from pnp.layout.products import DEFAULT_BLEED, LaidOutProduct
from pnp.layout.sheets import (
    PRINTER_MARGIN,
    CardGrid,
    Rect,
    card_slot,
    plan_card_grid,
    plan_sheet,
    shared_label,
    tile_label,
)
from pnp.layout.sizes import item_size
from pnp.model.common import Decision, ProductKind
from pnp.model.icons import INLINE_ICON
from pnp.units import PAPER_SIZES_MM, mm
from pnp.validate.checks import Findings

MIN_TEXT_PT = 5.0
"""The smallest text a component may print: below it a player reaches for a loupe."""

PAPERS = ("a4", "letter")
_FUZZ = 1e-3

# Developer material a player's document must not hold, each with what to say instead.
DEVELOPER_WORDS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\bpnp(?:\s+[a-z]+)?\b"), "a command"),
    (re.compile(r"(?<![\w-])--[a-z][a-z-]+"), "a command option"),
    (re.compile(r"\bissue\s*#?\d+", re.IGNORECASE), "an issue number"),
    (re.compile(r"规则引擎|引擎|验证器|校验器"), "the software"),
    (re.compile(r"Wilson|置信区间|百分点|符号检验|随机种子"), "a statistics term"),
    (re.compile(r"模拟"), "a simulation"),
    (re.compile(r"\b(?:sensible|strong|greedy|random)\b"), "a simulated player's name"),
    (re.compile(r"\d+(?:\.\d+)?\s*mm\b"), "a measurement in mm"),
)


@dataclass(frozen=True)
class PlayerText:
    """One piece of a player document, rendered, with where it is written."""

    where: Location
    what: str
    text: str


def check_sheets(
    findings: Findings,
    products: Iterable[LaidOutProduct],
    *,
    margin: float = PRINTER_MARGIN,
    bleed: float = DEFAULT_BLEED,
) -> None:
    """The laid-out products as the build imposes them on A4 and on Letter: token products
    on the sheets they share, every shelf's grid checked as a card grid is."""
    from pnp.kit import token_groups

    products = list(products)
    packed: dict[str, set[str]] = {}
    for paper in PAPERS:
        page = mm(PAPER_SIZES_MM[paper][0]), mm(PAPER_SIZES_MM[paper][1])
        for group in token_groups(products, duplex=True, bleed=bleed, page=page, margin=margin):
            first = group.members[0].product
            for member in group.members:
                packed.setdefault(member.product.id, set()).add(paper)
            for shelves in group.pages:
                for shelf in shelves:
                    held = group.members[shelf.product].product
                    _check_grid(findings, held.id, held.where, paper, shelf.grid, margin)
            label = shared_label(page[0], group.pages[0][0].grid.margin)
            if not _inside(label, page[0], page[1], margin):
                findings.error(
                    first.where,
                    f"the shared sheet {group.id!r} on {paper}: its footer is "
                    f"{_distance(label, page[0], page[1]):.1f} mm from the paper's edge, inside "
                    f"the {margin / mm(1):g} mm most printers cannot print",
                )
    for laid_out in products:
        product = laid_out.product
        for paper in PAPERS:
            page = mm(PAPER_SIZES_MM[paper][0]), mm(PAPER_SIZES_MM[paper][1])
            width, height = item_size(product)
            if paper in packed.get(product.id, ()):
                continue  # checked on the sheet it shares, above
            if product.kind is ProductKind.CARDS:
                slot_w, slot_h = card_slot(width, height)
                try:
                    grid = plan_card_grid(
                        slot_w,
                        slot_h,
                        bleed=bleed,
                        page_width=page[0],
                        page_height=page[1],
                        margin=margin,
                    )
                except ValueError as error:
                    # check_common reports a card too large for the usual margin.
                    if abs(margin - PRINTER_MARGIN) > _FUZZ:
                        findings.error(
                            product.where,
                            f"product {product.id!r} on {paper}: {error} within a "
                            f"{margin / mm(1):g} mm printer margin",
                        )
                    continue
                _check_grid(findings, product.id, product.where, paper, grid, margin)
            else:
                size = (max(page), min(page)) if width > height else page
                for front, _, _ in laid_out.runs[:1]:
                    plan = plan_sheet(front.width, front.height, size, margin=margin)
                    if plan.is_single_page:
                        continue
                    label = tile_label(plan)
                    if not _inside(label, plan.page_width, plan.page_height, margin):
                        findings.error(
                            product.where,
                            f"product {product.id!r} on {paper}: the tile pages' footer is "
                            f"{_distance(label, plan.page_width, plan.page_height):.1f} mm from "
                            f"the paper's edge, inside the {margin / mm(1):g} mm most printers "
                            "cannot print",
                        )
        _check_faces(findings, laid_out)


def _check_grid(
    findings: Findings,
    product: str,
    where: Location,
    paper: str,
    grid: CardGrid,
    margin: float,
) -> None:
    inside_margin = [
        m
        for m in grid.crop_marks()
        if min(m.x1, m.x2) < margin - _FUZZ
        or min(m.y1, m.y2) < margin - _FUZZ
        or max(m.x1, m.x2) > grid.page_width - margin + _FUZZ
        or max(m.y1, m.y2) > grid.page_height - margin + _FUZZ
    ]
    if inside_margin:
        findings.error(
            where,
            f"product {product!r} on {paper}: {len(inside_margin)} of "
            f"{len(grid.crop_marks())} crop marks run into the outer {margin / mm(1):g} mm "
            "most printers cannot print",
        )
    label = grid.label()
    if label is not None and not _inside(label, grid.page_width, grid.page_height, margin):
        findings.error(
            where,
            f"product {product!r} on {paper}: the sheet's footer is "
            f"{_distance(label, grid.page_width, grid.page_height):.1f} mm from the paper's "
            f"edge, inside the {margin / mm(1):g} mm most printers cannot print",
        )
    butted = [
        axis
        for axis, count, gutter in (
            ("side by side", grid.columns, grid.gutter_x),
            ("one above another", grid.rows, grid.gutter_y),
        )
        if count > 1 and gutter == 0
    ]
    if butted and grid.neutral_border <= 0:
        findings.error(
            where,
            f"product {product!r} on {paper}: cards butt {' and '.join(butted)} with no bleed "
            "and no neutral border between them: a cut a little off shows a sliver of the "
            "neighbour",
        )


def _inside(rect: Rect, page_width: float, page_height: float, margin: float) -> bool:
    return _distance(rect, page_width, page_height) >= margin / mm(1) - _FUZZ


def _distance(rect: Rect, page_width: float, page_height: float) -> float:
    """How close, in mm, the rectangle comes to the paper's edge."""
    return min(rect.x, rect.y, page_width - rect.right, page_height - rect.top) / mm(1)


def _check_faces(findings: Findings, laid_out: LaidOutProduct) -> None:
    """Text a player must read at the size it is printed, and broken the way Chinese is."""
    from pnp.render.fonts import prepare_cjk_fonts
    from pnp.render.text import NO_LINE_START, fit_text_shape
    from pnp.render.typeset import lines_of

    shapes: dict[tuple[object, ...], TextShape] = {}
    for front, back, _ in laid_out.runs:
        for face in (front, back):
            for shape in face.shapes if face is not None else ():
                if isinstance(shape, TextShape) and shape.text.strip():
                    key = (shape.origin, shape.text, shape.width, shape.height, shape.size)
                    shapes.setdefault(key, shape)
    if not shapes:
        return
    fonts = prepare_cjk_fonts("".join(sorted({s.text for s in shapes.values()})))
    reported: set[tuple[str, str]] = set()
    product = laid_out.product.id
    for shape in shapes.values():
        font = fonts.bold if shape.font == "bold" else fonts.regular
        fitted = fit_text_shape(shape, font)
        where = _origin(shape.origin)
        if fitted.size < MIN_TEXT_PT - _FUZZ and (shape.origin, "size") not in reported:
            reported.add((shape.origin, "size"))
            findings.error(
                where,
                f"product {product!r}: {_quote(shape.text)} prints at {fitted.size:g}pt, under "
                f"the {MIN_TEXT_PT:g}pt a player can read (widen the box or shorten the text)",
            )
        # The first line starts the text: a text that is only a mark ('？' on a back) is no break.
        for line in list(lines_of(fitted.paragraph))[1:]:
            if line[:1] in NO_LINE_START and (shape.origin, "start") not in reported:
                reported.add((shape.origin, "start"))
                findings.error(
                    where,
                    f"product {product!r}: a line of {_quote(shape.text)} starts with {line[:1]!r}",
                )


def check_player_words(findings: Findings, texts: Iterable[PlayerText], ids: set[str]) -> None:
    """Developer words and decision ids in what players read."""
    id_pattern = (
        re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(ids))) + r")(?![\w-])")
        if ids
        else None
    )
    for text in texts:
        for pattern, kind in DEVELOPER_WORDS:
            match = pattern.search(text.text)
            if match:
                findings.error(
                    text.where,
                    f"{text.what}: {kind} in a player document ({match.group(0)!r}); say it "
                    "in the players' words or move it to the designer's report",
                )
        if id_pattern is not None:
            # An icon is drawn, not read: [[facing]] is the facing arrow, not a ruling's id.
            match = id_pattern.search(INLINE_ICON.sub(" ", text.text))
            if match:
                findings.error(
                    text.where,
                    f"{text.what}: the decision id {match.group(1)!r} used as a reference; a "
                    "player cannot look it up (name the rule or the section instead)",
                )


SPELLING_VARIANTS: tuple[tuple[str, str], ...] = (
    ("卡", "牌"),
    ("标记物", "标记"),
    ("指示物", "标记物"),
    ("指示物", "token"),
    ("回合", "轮"),
    ("盾牌", "盾"),
    ("生命", "血量"),
    ("阵营", "队伍"),
    ("展示区", "展示栏"),
    ("棋子", "棋"),
)
"""Words a Chinese rulebook writes two ways for one thing: a term ending in either word of a
pair, written with the other instead, is the same term spelt a second way."""


def spelling_variants(term: str) -> list[str]:
    """The other spellings of `term` a player might meet: the last word swapped for its
    variant (巡逻卡 -> 巡逻牌, 资源标记物 -> 资源标记)."""
    found: list[str] = []
    for first, second in SPELLING_VARIANTS:
        for old, new in ((first, second), (second, first)):
            if term.endswith(old) and len(term) > len(old):
                other = term[: -len(old)] + new
                if other != term and other not in found:
                    found.append(other)
    return found


def check_spellings(
    findings: Findings, terms: Iterable[tuple[str, Location]], texts: list[PlayerText]
) -> None:
    """A term (of the glossary, or one the cards carry) and another spelling of it both in
    the player documents. A variant that is itself a term is a different thing, not a
    second spelling."""
    terms = list(terms)
    known = {term for term, _ in terms}
    reported: set[tuple[str, str]] = set()
    for term, where in terms:
        for other in spelling_variants(term):
            if other in known or (term, other) in reported:
                continue
            hit = next((t for t in texts if _spelt(other, term, t.text)), None)
            if hit is not None:
                reported.add((term, other))
                findings.error(
                    where,
                    f"the term {term!r} is also spelt {other!r} ({hit.what}, {hit.where}): "
                    "one term, one spelling",
                )


def _spelt(other: str, term: str, text: str) -> bool:
    """`other` written in `text` on its own, not as part of `term` (资源标记 inside
    资源标记物 is the term itself)."""
    start = text.find(other)
    while start >= 0:
        if not text.startswith(term, start) and not _inside_term(text, start, other, term):
            return True
        start = text.find(other, start + 1)
    return False


def _inside_term(text: str, start: int, other: str, term: str) -> bool:
    # `other` may sit inside `term` at an offset (标记 inside 资源标记物 ... ends earlier).
    offset = term.find(other)
    return offset >= 0 and text.startswith(term, start - offset)


QUOTES_OF_CHINESE = ("「", "」")
OTHER_QUOTES = re.compile(r"[“”]")


def check_quotes(findings: Findings, texts: Iterable[PlayerText]) -> None:
    """One style of quotation marks in a language's player documents: Chinese text quotes
    with 「…」 (『…』 inside), so a “…” beside them is the other style."""
    for text in texts:
        match = OTHER_QUOTES.search(text.text)
        if match and _CJK.search(text.text):
            findings.error(
                text.where,
                f"{text.what}: {match.group(0)!r} in a Chinese player document, which quotes "
                f"with {QUOTES_OF_CHINESE[0]}…{QUOTES_OF_CHINESE[1]}: one quotation style",
            )


_CJK = re.compile(r"[\u4e00-\u9fff]")


def _origin(origin: str) -> Location:
    path, _, line = origin.rpartition(":")
    return Location(path, int(line)) if path and line.isdigit() else Location(origin)


def _quote(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:23] + "…")


def player_texts(game: object) -> list[PlayerText]:
    """Every text the kit's player documents print: the read-me's guidance, its notes and
    rulings, and the rulebook's prose, rendered as a player reads them."""
    from pnp.content.prose import render_prose
    from pnp.model.common import physical_of
    from pnp.render.cover import print_guidance
    from pnp.rulebook.text import context_for, prose_of, render

    model = game.model  # type: ignore[attr-defined]
    context = {"game": model}
    texts: list[PlayerText] = []
    for paper in PAPERS:
        for line in print_guidance(paper, 3.0):
            texts.append(PlayerText(Location("pnp/render/cover.py"), "the read-me", line))
    for product in model.products:
        if product.note:
            note = render_prose(product.note, context, product.where)
            texts.append(PlayerText(product.where, f"product {product.id!r} note", note))
    for bring in physical_of(model).bring:
        if bring.note:
            note = render_prose(bring.note, context, bring.where)
            texts.append(PlayerText(bring.where, f"what players bring: {bring.name}", note))
    for decision in player_decisions(model):
        for name in ("question", "answer"):
            value = render_prose(getattr(decision, name), context, decision.where)
            texts.append(PlayerText(decision.where, f"ruling {decision.id!r} {name}", value))
    rulebook = getattr(model, "rulebook", None)
    if rulebook is not None:
        from pnp.rulebook.text import glossary_entries

        rulebook_context = context_for(game)  # type: ignore[arg-type]
        for entry in glossary_entries(rulebook, model):
            value = render(entry.meaning, rulebook_context, entry.where, "meaning")
            texts.append(PlayerText(entry.where, f"glossary {entry.term!r}", value))
        for prose in prose_of(rulebook):
            if prose.source:
                value = render(prose.source, rulebook_context, prose.where, prose.field)
                texts.append(PlayerText(prose.where, f"rulebook {prose.field}", value))
    return texts


def player_decisions(model: object) -> list[Decision]:
    """The rulings the player documents print: all but the designer's."""
    return [d for d in getattr(model, "decisions", ()) if not d.designer]


def check_documents(findings: Findings, terms: Iterable[tuple[str, Location]]) -> None:
    game = findings.game
    texts = player_texts(game)
    ids = {decision.id for decision in getattr(game.model, "decisions", ())}
    check_player_words(findings, texts, ids)
    check_spellings(findings, terms, texts)
    check_quotes(findings, texts)
