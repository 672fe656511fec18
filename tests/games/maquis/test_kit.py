"""The built Maquis kit, read back as a print shop and a player would read it."""

from __future__ import annotations

import itertools
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.units import POINTS_PER_MM
from tests.conftest import CONTENT, kit_once
from tests.pdfcheck import pdf_texts

PRODUCTS = [
    "board",
    "patrol-cards",
    "mission-cards",
    "tokens",
    "round-summary",
    "difficulty-reference",
]


@pytest.fixture(scope="module")
def maquis() -> LoadedGame:
    return load_game(CONTENT, "maquis")


@pytest.fixture(scope="module")
def kit(maquis: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return kit_once(tmp_path_factory, maquis)


def pdf(kit: Path, product: str) -> Path:
    return kit / f"maquis-{product}.pdf"


def to_mm(points: float) -> float:
    return points / POINTS_PER_MM


def text(kit: Path, product: str, pages: slice = slice(None)) -> str:
    return "".join(pdf_texts(pdf(kit, product))[pages])


def test_every_product_is_built(kit: Path) -> None:
    names = sorted(path.name for path in kit.glob("*.pdf"))
    assert names == sorted(
        [f"maquis-{p}.pdf" for p in PRODUCTS]
        + ["maquis-00-read-me-first.pdf", "maquis-01-duplex-calibration.pdf"]
    )


def test_the_board_is_tiled_at_true_size_with_an_overview(kit: Path) -> None:
    reader = pypdf.PdfReader(pdf(kit, "board"))
    # 420 x 297 mm on A4 landscape: an overview and 2 x 2 tiles.
    assert len(reader.pages) == 5
    for page in reader.pages:
        box = page.mediabox
        assert (to_mm(float(box.width)), to_mm(float(box.height))) == pytest.approx(
            (297, 210), abs=0.01
        )
    board = text(kit, "board")
    for name in ("安全屋", "咖啡馆", "黑市", "电台", "走私贩", "空投点（西）", "失败", "结束"):
        assert name in board


def test_patrol_cards_are_mini_euro_and_each_printed_once(kit: Path, maquis: LoadedGame) -> None:
    with pdfplumber.open(pdf(kit, "patrol-cards")) as document:
        lines = document.pages[0].lines
        assert len(document.pages) == 2  # ten cards fit one sheet; the backs follow
    xs = sorted({round(to_mm(ln["x0"]), 2) for ln in lines if ln["x0"] == ln["x1"]})
    ys = sorted({round(to_mm(ln["top"]), 2) for ln in lines if ln["top"] == ln["bottom"]})
    assert 44.0 in {round(b - a, 1) for a, b in itertools.pairwise(xs)}
    assert 68.0 in {round(b - a, 1) for a, b in itertools.pairwise(ys)}
    fronts = text(kit, "patrol-cards", slice(0, None, 2))
    for card in maquis.model.patrol_cards:
        assert fronts.count(card.name) == card.copies


def test_mission_cards_show_their_boxes(kit: Path, maquis: LoadedGame) -> None:
    fronts = text(kit, "mission-cards", slice(0, None, 2))
    for mission in maquis.model.missions:
        assert fronts.count(mission.name) == mission.copies
    assert "炸掉工厂" in fronts and "仅第 6–9 天" in fronts


def test_tokens_match_the_counts(kit: Path, maquis: LoadedGame) -> None:
    # Every token product shares the one duplex sheet: a piece is a word of its own there.
    with pdfplumber.open(pdf(kit, "tokens")) as document:
        words = [w["text"] for page in document.pages[::2] for w in page.extract_words()]
        lines = document.pages[0].lines
    for resource in maquis.model.resources:
        assert words.count(resource.name[0]) == resource.count
    assert words.count("抗") == words.count("警") == words.count("兵") == 5
    xs = sorted({round(to_mm(ln["x0"]), 2) for ln in lines if ln["x0"] == ln["x1"]})
    assert 16.0 in {round(b - a, 1) for a, b in itertools.pairwise(xs)}


def test_the_aids_carry_the_model_numbers(kit: Path, maquis: LoadedGame) -> None:
    summary = text(kit, "round-summary")
    assert f"士气 {maquis.model.morale.start}" in summary and "巡逻人数" in summary
    levels = text(kit, "difficulty-reference")
    for level in maquis.model.difficulties:
        assert level.name in levels
    assert "到第 12 天结束" in levels
    page = pypdf.PdfReader(pdf(kit, "round-summary")).pages[0]
    assert (to_mm(float(page.trimbox.width)), to_mm(float(page.trimbox.height))) == pytest.approx(
        (200, 287), abs=0.01
    )
    # Read from a seat: its steps set large enough to fill the sheet, not a third of it blank.
    with pdfplumber.open(pdf(kit, "round-summary")) as document:
        sheet = document.pages[0]
        body = [c for c in sheet.chars if c["top"] > sheet.height * 0.1]
        assert min(c["size"] for c in body) >= 13
        assert max(c["bottom"] for c in body) > sheet.height * 0.8
