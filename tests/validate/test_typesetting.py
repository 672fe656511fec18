"""Validate's typesetting checks: the read-me and the rulebook laid out as the build sets
them, a heading at the foot of a page and a badly broken line reported, located."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pnp.content.loader import LoadedGame
from pnp.errors import Location
from pnp.layout.sheets import PRINTER_MARGIN
from pnp.render.typeset import SetBlock
from pnp.rulebook.text import walk_sections
from pnp.validate.runner import check_static
from pnp.validate.typesetting import check_typesetting
from tests.conftest import TEMPLATES


def _strand_first_heading_of(title: str, blocks: list[SetBlock]) -> list[SetBlock]:
    """The blocks as if everything after the heading `title` had moved to the next page."""
    at = next(i for i, block in enumerate(blocks) if title in block.heading)
    return [
        *blocks[: at + 1],
        *(dataclasses.replace(block, page=block.page + 1) for block in blocks[at + 1 :]),
    ]


def _break_a_line_after(heading: str, blocks: list[SetBlock]) -> list[SetBlock]:
    """The blocks with the first paragraph under `heading` broken before a full stop."""
    at = next(i for i, block in enumerate(blocks) if heading in block.heading)
    text = next(i for i in range(at + 1, len(blocks)) if blocks[i].lines)
    broken = dataclasses.replace(blocks[text], lines=(*blocks[text].lines, "。然后"))
    return [*blocks[:text], broken, *blocks[text + 1 :]]


def test_validate_finds_a_stranded_heading_and_a_broken_line_in_each_document(
    deadline_99: LoadedGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pnp.render.cover
    import pnp.rulebook.pdf

    # Today's kits set cleanly (tests/validate/test_preflight.py): the mistakes are seeded
    # into the layout the checks are given, as a change to the layout code would make them.
    findings = check_static(deadline_99, TEMPLATES)
    sections = list(walk_sections(deadline_99.model.rulebook.sections))
    first, second = sections[1][0], sections[2][0]
    real_book: Callable[..., list[SetBlock]] = pnp.rulebook.pdf.typeset_reading_edition
    real_cover: Callable[..., tuple[bytes, list[SetBlock]]] = pnp.render.cover.typeset_cover

    def book(*args: Any) -> list[SetBlock]:
        blocks = _strand_first_heading_of(first.title, real_book(*args))
        return _break_a_line_after(second.title, blocks)

    def cover(*args: Any, **kwargs: Any) -> tuple[bytes, list[SetBlock]]:
        data, blocks = real_cover(*args, **kwargs)
        return data, _break_a_line_after("本版规则裁定", blocks)

    monkeypatch.setattr(pnp.rulebook.pdf, "typeset_reading_edition", book)
    monkeypatch.setattr(pnp.render.cover, "typeset_cover", cover)
    with deadline_99.reading():
        check_typesetting(findings, TEMPLATES, margin=PRINTER_MARGIN, remembered=False)
    found = {(str(p.location), p.message) for p in findings.problems if p.severity == "error"}

    stranded = [(where, m) for where, m in found if "is the last thing on its page" in m]
    assert len(stranded) == 1
    where, message = stranded[0]
    assert message.startswith("deadline-99-rulebook.pdf page ")
    assert repr(first.title) in message or repr(first.title[:23] + "…") in message
    # Located at the section whose heading it is: the place to change.
    assert where == str(first.where) and isinstance(first.where, Location)
    broken = [(where, m) for where, m in found if "a line starts with '。'" in m]
    # The rulebook's, under the second section, and the read-me's on A4 and on Letter.
    assert sorted(m.split(" page ")[0] for _, m in broken) == [
        "deadline-99-00-read-me-first.pdf (A4)",
        "deadline-99-00-read-me-first.pdf (Letter)",
        "deadline-99-rulebook.pdf",
    ]
    assert all("('。然后')" in m for _, m in broken)
    assert str(second.where) in {where for where, _ in broken}


def test_a_clean_setting_is_remembered_and_not_set_again(
    deadline_99: LoadedGame, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import pnp.render.cover

    monkeypatch.setenv("PNP_PARSE_CACHE", str(tmp_path))
    findings = check_static(deadline_99, TEMPLATES)
    calls: list[object] = []
    real_cover = pnp.render.cover.typeset_cover

    def cover(*args: Any, **kwargs: Any) -> tuple[bytes, list[SetBlock]]:
        calls.append(args)
        return real_cover(*args, **kwargs)

    monkeypatch.setattr(pnp.render.cover, "typeset_cover", cover)
    with deadline_99.reading():
        check_typesetting(findings, TEMPLATES, margin=PRINTER_MARGIN)
        assert len(calls) == 2  # the read-me on A4 and on Letter
        check_typesetting(findings, TEMPLATES, margin=PRINTER_MARGIN)
        assert len(calls) == 2  # the same bytes passed: not set again
        check_typesetting(findings, TEMPLATES, margin=PRINTER_MARGIN * 2)
        assert len(calls) == 4  # another margin is another layout
    assert [p.message for p in findings.problems if p.severity == "error"] == []
