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


def set_block(flowable: object, page: int, heading: bool) -> SetBlock:
    """What a typeset flowable (a paragraph, a table, ...) shows of itself to the checks."""
    lines = tuple(lines_of(flowable))
    text = "".join(lines) if heading else ""
    return SetBlock(page, text or ("?" if heading else ""), lines)


def typeset_problems(document: str, blocks: Sequence[SetBlock]) -> list[str]:
    """What a reader notices in a typeset player document (the read-me, the rulebook): a
    heading that ends its page with nothing it heads under it, and a line broken so that it
    starts with closing punctuation or ends with opening punctuation."""
    problems: list[str] = []
    for index, block in enumerate(blocks):
        if block.heading:
            after = blocks[index + 1] if index + 1 < len(blocks) else None
            if after is None or after.page != block.page:
                problems.append(
                    f"{document} page {block.page}: the heading {_quoted(block.heading)} is the "
                    "last thing on its page, with nothing it heads under it"
                )
        last = len(block.lines) - 1
        for number, line in enumerate(block.lines):
            if number and line[:1] in NO_LINE_START:
                problems.append(
                    f"{document} page {block.page}: a line starts with {line[:1]!r} "
                    f"({_quoted(line)})"
                )
            if number < last and line.rstrip()[-1:] in NO_LINE_END:
                problems.append(
                    f"{document} page {block.page}: a line ends with {line.rstrip()[-1:]!r} "
                    f"({_quoted(line)})"
                )
    return problems


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 24 else text[:23] + "…")
