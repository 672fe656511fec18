"""The player edition speaks to players; what it drops (decision ids, balance figures and how
they were measured) is in the designer's report beside the kit."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pypdf
import pytest

from pnp.content.loader import LoadedGame
from pnp.options import BuildOptions
from pnp.rulebook.build import build_game
from tests.conftest import TEMPLATES, made_once


def _text(path: Path) -> str:
    return "".join(page.extract_text() for page in pypdf.PdfReader(path).pages).replace("\n", "")


@pytest.fixture(scope="module")
def kit(deadline_99: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(
        tmp_path_factory,
        "designer",
        lambda folder: build_game(deadline_99, folder, TEMPLATES, BuildOptions()),
    )


def test_the_designer_report_holds_every_decision_with_its_id_and_reason(
    kit: Path, deadline_99: LoadedGame
) -> None:
    text = _text(kit / "report" / "designer.pdf")
    for decision in deadline_99.model.decisions:
        assert decision.id in text
    assert "置信区间" in text  # the balance promise, measured
    assert "模拟显示" in text  # why 3 decks from 6 players: a reason, not a ruling


def test_the_read_me_and_rulebook_carry_rulings_without_designer_material(
    kit: Path, deadline_99: LoadedGame
) -> None:
    for name in ("deadline-99-00-read-me-first.pdf", "deadline-99-rulebook.pdf"):
        text = _text(kit / name)
        for word in ("置信区间", "模拟", "pnp ", "--", "balance-promises", "规则引擎"):
            assert word not in text, (name, word)
    readme = _text(kit / "deadline-99-00-read-me-first.pdf")
    assert "减 10、减 20 能否让计数低于 0" in readme  # a ruling players need is still there


@pytest.mark.parametrize("slug", ["deadline-99", "dragon-hoard"])
def test_no_line_of_a_read_me_starts_with_closing_or_ends_with_opening_punctuation(
    slug: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from pnp.content.loader import load_game
    from pnp.render.text import NO_LINE_END, NO_LINE_START
    from tests.conftest import CONTENT, kit_once

    kit = kit_once(tmp_path_factory, load_game(CONTENT, slug))
    with pdfplumber.open(kit / f"{slug}-00-read-me-first.pdf") as pdf:
        lines = [line for page in pdf.pages for line in (page.extract_text() or "").splitlines()]
    assert len(lines) > 20
    assert [line for line in lines if line.strip()[:1] in NO_LINE_START] == []
    assert [line for line in lines if line.strip()[-1:] in NO_LINE_END] == []
