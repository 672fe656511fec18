"""What typesetting did to a player document, for the checks a reader would make: which
page each block landed on, which blocks are headings, and the lines each was broken into."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from reportlab.platypus import ActionFlowable, CondPageBreak, Spacer

from pnp.render.text import NO_LINE_END, NO_LINE_START

NOT_A_BLOCK = (Spacer, CondPageBreak, ActionFlowable)
"""Flowables that only make room or turn the page: nothing a reader reads under a heading."""


def lines_of(paragraph: object) -> Iterator[str]:
    for line in getattr(getattr(paragraph, "blPara", None), "lines", []):
        words = getattr(line, "words", None)
        if isinstance(words, list):
            yield "".join(getattr(w, "text", "") for w in words).lstrip()
        elif isinstance(line, tuple) and len(line) > 1:
            yield " ".join(line[1]).lstrip()


@dataclass(frozen=True)
class SetBlock:
    """One block of a player document as typesetting left it: its page, the heading's text
    (empty for anything else) and its lines."""

    page: int
    heading: str
    lines: tuple[str, ...] = ()
    cells: tuple[tuple[str, ...], ...] = ()
    """The lines of each paragraph in a table's cells (the read-me's notes on its files)."""


def set_block(flowable: object, page: int, heading: bool) -> SetBlock:
    """What a typeset flowable (a paragraph, a table, ...) shows of itself to the checks."""
    lines = tuple(lines_of(flowable))
    text = "".join(lines) if heading else ""
    return SetBlock(page, text or ("?" if heading else ""), lines, _cell_lines(flowable))


def _cell_lines(table: object) -> tuple[tuple[str, ...], ...]:
    """The lines of every paragraph in a table's cells, each wrapped again at its cell's
    width (what the table wrapped it at: a table keeps no cell's lines once drawn)."""
    found: list[tuple[str, ...]] = []
    widths = getattr(table, "_colWidths", None) or ()
    styles = getattr(table, "_cellStyles", None) or ()
    for row_number, row in enumerate(getattr(table, "_cellvalues", ())):
        for column, cell in enumerate(row):
            if column >= len(widths) or widths[column] is None:
                continue
            style = styles[row_number][column] if row_number < len(styles) else None
            padding = getattr(style, "leftPadding", 6) + getattr(style, "rightPadding", 6)
            for part in cell if isinstance(cell, list | tuple) else [cell]:
                if hasattr(part, "wrap") and hasattr(part, "frags"):
                    part.wrap(widths[column] - padding, 1e6)
                    lines = tuple(lines_of(part))
                    if lines:
                        found.append(lines)
    return tuple(found)


def typeset_problems(document: str, blocks: Sequence[SetBlock]) -> list[str]:
    """What a reader notices in a typeset player document (the read-me, the rulebook): a
    heading that ends its page with nothing it heads under it, and a line broken so that it
    starts with closing punctuation or ends with opening punctuation."""
    return [message for _, message in typeset_findings(document, blocks)]


def typeset_findings(document: str, blocks: Sequence[SetBlock]) -> list[tuple[str, str]]:
    """`typeset_problems`, each with the heading it stands under ("" before the first), so
    a check can say which part of the content to change."""
    problems: list[tuple[str, str]] = []
    under = ""
    for index, block in enumerate(blocks):
        if block.heading:
            under = block.heading
            after = blocks[index + 1] if index + 1 < len(blocks) else None
            if after is None or after.page != block.page:
                problems.append(
                    (
                        under,
                        f"{document} page {block.page}: the heading {_quoted(block.heading)} is "
                        "the last thing on its page, with nothing it heads under it",
                    )
                )
            elif _one_line_then_turn(blocks, index):
                problems.append(
                    (
                        under,
                        f"{document} page {block.page}: the heading {_quoted(block.heading)} "
                        "has one line under it at the foot of its page, the rest of what it "
                        "heads on the next",
                    )
                )
        for lines in (block.lines, *block.cells):
            problems.extend((under, found) for found in _broken_lines(document, block.page, lines))
    return problems


def _one_line_then_turn(blocks: Sequence[SetBlock], heading: int) -> bool:
    """Whether the heading at `heading` has a single line of its text under it before the
    page turns, with more of that text on the next page: a heading a reader finds at the
    foot of a page and must turn over to read."""
    if heading + 2 >= len(blocks):
        return False
    first, then = blocks[heading + 1], blocks[heading + 2]
    return (
        len(first.lines) == 1
        and not first.cells
        and not first.heading
        and then.page != first.page
        and not then.heading
    )


def _broken_lines(document: str, page: int, lines: tuple[str, ...]) -> Iterator[str]:
    """One paragraph's lines: the first may start, the last may end, with anything."""
    last = len(lines) - 1
    for number, line in enumerate(lines):
        if number and line[:1] in NO_LINE_START:
            yield f"{document} page {page}: a line starts with {line[:1]!r} ({_quoted(line)})"
        if number < last and line.rstrip()[-1:] in NO_LINE_END:
            yield (
                f"{document} page {page}: a line ends with {line.rstrip()[-1:]!r} ({_quoted(line)})"
            )


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:23] + "…")
