"""The built Arena Tales kit, read back as a print shop and a player would read it."""

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
    "character-decks",
    "sanity-cards",
    "arena-map",
    "player-boards",
    "tokens",
    "turn-aid",
    "glossary-aid",
]


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game(CONTENT, "arena-tales")


@pytest.fixture(scope="module")
def kit(game: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return kit_once(tmp_path_factory, game)


def pdf(kit: Path, product: str) -> Path:
    return kit / f"arena-tales-{product}.pdf"


def to_mm(points: float) -> float:
    return points / POINTS_PER_MM


def test_the_kit_holds_every_product_and_a_cover(kit: Path) -> None:
    names = sorted(path.name for path in kit.glob("*.pdf"))
    assert names == sorted(
        [f"arena-tales-{p}.pdf" for p in PRODUCTS]
        + ["arena-tales-00-read-me-first.pdf", "arena-tales-01-duplex-calibration.pdf"]
    )


def test_character_cards_are_63_by_88_mm_with_backs_following(kit: Path, game: LoadedGame) -> None:
    with pdfplumber.open(pdf(kit, "character-decks")) as document:
        lines = document.pages[0].lines
        pages = len(document.pages)
    xs = sorted({round(to_mm(line["x0"]), 2) for line in lines if line["x0"] == line["x1"]})
    ys = sorted({round(to_mm(line["top"]), 2) for line in lines if line["top"] == line["bottom"]})
    assert 63.0 in {round(b - a, 1) for a, b in itertools.pairwise(xs)}
    assert 88.0 in {round(b - a, 1) for a, b in itertools.pairwise(ys)}
    cards = len(game.model.characters) * game.model.settings.deck_size
    assert pages == 2 * -(-cards // 9)  # fronts and backs, 9 poker cards to an A4 page


def test_every_card_is_printed_as_often_as_the_decks_hold_it(kit: Path, game: LoadedGame) -> None:
    model = game.model
    fronts = "".join(pdf_texts(pdf(kit, "character-decks"))[0::2])
    names = [card.name for card in model.cards]
    others = [k for k in model.keyword_names.values()] + [c.name for c in model.characters]
    copies = model.settings.copies_per_name
    for card in model.cards:
        if any(card.name in other for other in names + others if other != card.name):
            continue  # a name inside another printed word cannot be counted apart
        decks = len(model.characters) if card.colour == "none" else 1
        assert fronts.count(card.name) == decks * copies, card.name
    backs = "".join(pdf_texts(pdf(kit, "character-decks"))[1::2])
    for character in model.characters:
        assert backs.count(character.title) == model.settings.deck_size


def test_the_map_is_tiled_at_true_size_with_an_overview(kit: Path, game: LoadedGame) -> None:
    reader = pypdf.PdfReader(pdf(kit, "arena-map"))
    assert len(reader.pages) == 1 + 2  # overview and 2 tiles on A4 turned landscape
    text = reader.pages[0].extract_text()
    assert "拼接总览" in text and "六角擂台" in text
    with pdfplumber.open(pdf(kit, "arena-map")) as document:
        # The hexes on a tile: flat-topped, hex_mm across the flats (vertical extent).
        curves = document.pages[1].curves + document.pages[1].rects
        heights = {round(to_mm(c["bottom"] - c["top"]), 1) for c in curves}
        # A check line a player measures with a ruler, one hex across the flats, on a tile.
        rules = {
            round(to_mm(line["x1"] - line["x0"]), 1)
            for page in document.pages[1:]
            for line in page.lines
            if abs(line["top"] - line["bottom"]) < 0.1
        }
    hex_mm = game.model.arena.hex_mm
    assert hex_mm in heights and hex_mm in rules
    flat = "".join(page.extract_text() for page in reader.pages).replace(" ", "")
    assert f"每格对边{hex_mm:g}mm" in flat and f"应长{hex_mm:g}毫米" in flat


def test_the_sanity_card_has_both_faces(kit: Path) -> None:
    reader = pypdf.PdfReader(pdf(kit, "sanity-cards"))
    assert len(reader.pages) == 2
    assert "理智" in reader.pages[0].extract_text()
    assert "失控" in reader.pages[1].extract_text()


def test_aids_carry_numbers_from_content(kit: Path, game: LoadedGame) -> None:
    settings = game.model.settings
    turn = pypdf.PdfReader(pdf(kit, "turn-aid")).pages[0].extract_text()
    assert f"达到 {settings.forced_end} 时" in turn.replace("\n", "")
    glossary = pypdf.PdfReader(pdf(kit, "glossary-aid")).pages[0].extract_text()
    assert "元素爆发" in glossary and "方位点" in glossary


def test_a_wide_board_is_overviewed_on_a_page_turned_its_way(kit: Path) -> None:
    # The player board is wider than tall and tiles on upright A4: its overview page lies
    # landscape and the picture sits under the title, not at the foot of an empty page.
    with pdfplumber.open(pdf(kit, "player-boards")) as document:
        overview, tile = document.pages[0], document.pages[1]
        assert overview.width > overview.height and tile.width < tile.height
        title = next(w for w in overview.extract_words() if "拼接总览" in w["text"])
        picture_top = min(r["top"] for r in overview.rects if r["width"] > overview.width / 3)
        assert picture_top - title["bottom"] < 15 * POINTS_PER_MM


def test_six_player_boards_share_one_overview(kit: Path) -> None:
    reader = pypdf.PdfReader(pdf(kit, "player-boards"))
    overviews = [page for page in reader.pages if "拼接总览" in page.extract_text()]
    assert len(overviews) == 1
    assert len(reader.pages) == 1 + 6 * 2  # then each board's two tiles
