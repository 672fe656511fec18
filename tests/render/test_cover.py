"""The read-me-first page and the rulebook's components table list every component with its
count and what the players bring (issue 15), read back from what they print."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pypdf
import pytest

from pnp import registry
from pnp.content.loader import LoadedGame, load_game
from pnp.model.rulebook import Generated
from pnp.render.cover import render_cover
from pnp.render.fonts import prepare_cjk_fonts
from pnp.rulebook.pdf import StoryBuilder
from pnp.units import PAPER_SIZES_MM, mm
from tests.conftest import TEMPLATES
from tests.validate.test_fit import GAME, PHYSICAL, public_state


@pytest.fixture
def mineventure(content_copy: Path, monkeypatch: pytest.MonkeyPatch) -> LoadedGame:
    """MineVenture with a physical section: a d6 per table, a bag per seat."""
    game = dataclasses.replace(registry.game_for(GAME), public_state=public_state)
    monkeypatch.setitem(registry.games(), GAME, game)
    physical = PHYSICAL.replace(
        "  state:\n",
        "    - {id: bag, name: 收纳袋, count: 1, per: seat}\n  state:\n",
    )
    (content_copy / GAME / "physical.yaml").write_text(physical, encoding="utf-8")
    return load_game(content_copy, GAME)


def _text(path: Path) -> str:
    return "".join(page.extract_text() for page in pypdf.PdfReader(path).pages)


def test_the_cover_lists_components_with_counts_and_what_to_bring(
    mineventure: LoadedGame, tmp_path: Path
) -> None:
    path = tmp_path / "cover.pdf"
    render_cover(
        path,
        mineventure.model,
        [],
        paper=tuple(mm(side) for side in PAPER_SIZES_MM["a4"]),  # type: ignore[arg-type]
        paper_name="a4",
        bleed_mm=3,
        fonts=prepare_cjk_fonts(),
    )
    text = _text(path)
    assert "配件清单（含玩家自备）" in text
    assert "玩家状态栏" in text and "6 份" in text  # six player boards, one per seat
    assert "六面骰" in text and "自备，不在打印件中：掷骰决定移动" in text
    assert "收纳袋" in text and "每人 1" in text


def test_a_cover_without_a_physical_section_lists_components_only(
    deadline_99: LoadedGame, tmp_path: Path
) -> None:
    path = tmp_path / "cover.pdf"
    render_cover(
        path,
        deadline_99.model,
        [],
        paper=tuple(mm(side) for side in PAPER_SIZES_MM["a4"]),  # type: ignore[arg-type]
        paper_name="a4",
        bleed_mm=3,
        fonts=prepare_cjk_fonts(),
    )
    text = _text(path)
    assert "配件清单" in text and "自备" not in text


def test_the_rulebook_components_table_lists_what_to_bring(mineventure: LoadedGame) -> None:
    builder = StoryBuilder(mineventure, TEMPLATES, prepare_cjk_fonts())
    table = builder.generated(Generated.COMPONENTS, mineventure.model.rulebook)[0]
    rows = [[cell.text for cell in row] for row in table._cellvalues]  # type: ignore[attr-defined]
    assert ["六面骰", "1", "自备：掷骰决定移动"] in rows
    assert ["收纳袋", "每人 1", "自备"] in rows
