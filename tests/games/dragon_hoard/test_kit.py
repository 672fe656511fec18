"""The built Dragon Hoard kit, read back as a print shop and a player would read it."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.units import POINTS_PER_MM
from tests.conftest import CONTENT, kit_once
from tests.pdfcheck import pdf_texts

PRODUCTS = [
    "lair-map",
    "ai-cards",
    "action-cards",
    "character-cards",
    "tokens",
    "placement-mat",
    "tokens-single-sided",
    "timer-card",
    "round-aid",
]


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game(CONTENT, "dragon-hoard")


@pytest.fixture(scope="module")
def kit(game: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return kit_once(tmp_path_factory, game)


def pdf(kit: Path, product: str) -> Path:
    return kit / f"dragon-hoard-{product}.pdf"


def mm(points: float) -> float:
    return points / POINTS_PER_MM


def fronts_text(path: Path) -> str:
    return "".join(pdf_texts(path)[0::2])


def cut_spacing(path: Path) -> tuple[set[float], set[float]]:
    with pdfplumber.open(path) as document:
        lines = document.pages[0].lines
    xs = sorted({round(mm(line["x0"]), 2) for line in lines if line["x0"] == line["x1"]})
    ys = sorted({round(mm(line["top"]), 2) for line in lines if line["top"] == line["bottom"]})
    return (
        {round(b - a, 1) for a, b in itertools.pairwise(xs)},
        {round(b - a, 1) for a, b in itertools.pairwise(ys)},
    )


def test_the_kit_holds_every_product_and_a_cover(kit: Path) -> None:
    names = sorted(path.name for path in kit.glob("*.pdf"))
    expected = [f"dragon-hoard-{p}.pdf" for p in PRODUCTS] + [
        "dragon-hoard-00-read-me-first.pdf",
        "dragon-hoard-01-duplex-calibration.pdf",
    ]
    assert names == sorted(expected)


@pytest.mark.parametrize(
    ("product", "width", "height"),
    [
        ("ai-cards", 63.0, 88.0),
        ("action-cards", 44.0, 68.0),
        ("tokens", 25.0, 25.0),  # treasures and pawns share the duplex token sheet
    ],
)
def test_crop_marks_cut_each_component_at_its_true_size(
    kit: Path, product: str, width: float, height: float
) -> None:
    widths, heights = cut_spacing(pdf(kit, product))
    assert width in widths and widths <= {width, 6.0}
    assert height in heights and heights <= {height, 6.0}


def test_the_map_is_tiled_at_true_size_with_an_overview(kit: Path, game: LoadedGame) -> None:
    reader = pypdf.PdfReader(pdf(kit, "lair-map"))
    # 332 x 400 mm (the map and its state strip) on A4: an overview page and 2 x 2 tiles.
    assert len(reader.pages) == 5
    assert "拼接总览" in reader.pages[0].extract_text()
    assert "拼接页 A1" in reader.pages[1].extract_text()
    cell = game.model.lair.cell_mm
    with pdfplumber.open(pdf(kit, "lair-map")) as document:
        tile = document.pages[1].rects
        overview = document.pages[0].rects
    squares = [
        r for r in tile if abs(mm(r["width"]) - cell) < 0.05 and abs(mm(r["height"]) - cell) < 0.05
    ]
    assert len(squares) >= game.model.lair.columns * game.model.lair.rows
    assert not [r for r in overview if abs(mm(r["width"]) - cell) < 0.05]  # scaled down there


def test_every_card_appears_as_often_as_the_deck_holds_it(kit: Path, game: LoadedGame) -> None:
    ai = fronts_text(pdf(kit, "ai-cards"))
    for card in game.model.ai_cards:
        assert ai.count(card.name) == card.copies, card.name
    actions = fronts_text(pdf(kit, "action-cards"))
    for card in game.model.action_cards:
        printed = sum(c.cards.get(card.id, 0) for c in game.model.player_colours)
        assert actions.count(card.name) == printed, card.name
    tokens = fronts_text(pdf(kit, "tokens"))
    counts = Counter({t.name: tokens.count(t.name) for t in game.model.treasures})
    assert counts == Counter({t.name: t.copies for t in game.model.treasures})


def test_speed_markers_are_printed_as_the_rules_write_them(kit: Path, game: LoadedGame) -> None:
    text = fronts_text(pdf(kit, "ai-cards"))
    for card in game.model.ai_cards:
        assert card.marker.symbol in text
    assert "☆×1/2" in text and "☆×3/2" in text and "∞" in text


def test_the_player_aid_shows_the_star_table_from_the_rounding(kit: Path) -> None:
    reader = pypdf.PdfReader(pdf(kit, "round-aid"))
    back = reader.pages[1].extract_text()
    assert "向下取整" in back and "3 人" in back
    assert "回合流程" in reader.pages[0].extract_text()


def test_the_mat_has_its_trim_box_at_true_size(kit: Path) -> None:
    page = pypdf.PdfReader(pdf(kit, "placement-mat")).pages[0]
    trim = page.trimbox
    assert (mm(float(trim.width)), mm(float(trim.height))) == pytest.approx((280, 190), abs=0.01)
    assert "行动卡放置区" in page.extract_text()


def test_the_cover_states_the_decisions(kit: Path) -> None:
    text = "".join(p.extract_text() for p in pypdf.PdfReader(pdf(kit, "00-read-me-first")).pages)
    assert "本版规则裁定" in text and "向下取整" in text and "3 人局" in text


def test_an_ai_card_diagram_shows_the_body_its_hits_and_the_domain(game: LoadedGame) -> None:
    lair = game.model.lair
    body = lair.dragon_cells(lair.centre)
    for card in game.model.ai_cards:
        diagram = card.preview_diagram(lair)
        assert len(diagram) == lair.columns * lair.rows
        shown = {
            kind: {
                (n % lair.columns, n // lair.columns) for n, k in enumerate(diagram) if k == kind
            }
            for kind in ("dragon", "hit", "domain", "paper")
        }
        assert shown["dragon"] == body
        assert shown["hit"] == card.preview_cells(lair) - body
        assert all(lair.in_domain(cell) for cell in shown["domain"])
        assert not any(lair.in_domain(cell) for cell in shown["paper"])
