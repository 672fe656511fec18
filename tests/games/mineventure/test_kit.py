"""The built MineVenture kit, read back as a print shop and a player would read it."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import pdfplumber
import pypdf
import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.games.mineventure.model import ItemKind
from pnp.layout.primitives import IconShape, TextShape
from pnp.layout.products import layout_product
from pnp.units import POINTS_PER_MM
from tests.conftest import CONTENT, TEMPLATES, kit_once

GAME = "mineventure"


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game(CONTENT, GAME)


@pytest.fixture(scope="module")
def kit(game: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return kit_once(tmp_path_factory, game)


def pdf(kit: Path, product: str) -> Path:
    return kit / f"{GAME}-{product}.pdf"


def to_mm(points: float) -> float:
    return points / POINTS_PER_MM


def test_every_product_is_built_with_a_cover(kit: Path, game: LoadedGame) -> None:
    names = sorted(p.name for p in kit.glob("*.pdf"))
    # The three token products share one sheet, printed as one file.
    shared = {"head-tokens", "markers", "buff-tokens"}
    expected = [f"{GAME}-{p.id}.pdf" for p in game.model.products if p.id not in shared]
    expected.append(f"{GAME}-tokens.pdf")
    assert names == sorted(
        [*expected, f"{GAME}-00-read-me-first.pdf", f"{GAME}-01-duplex-calibration.pdf"]
    )


def test_the_player_board_is_25_6_by_12_8_cm(kit: Path, game: LoadedGame) -> None:
    reader = pypdf.PdfReader(pdf(kit, "player-boards"))
    assert len(reader.pages) == game.model.player_boards[0].copies
    trim = reader.pages[0].trimbox
    assert (to_mm(float(trim.width)), to_mm(float(trim.height))) == pytest.approx(
        (256, 128), abs=0.01
    )
    text = reader.pages[0].extract_text()
    assert "玩家状态栏" in text and "效果槽 3" in text and "角色牌" in text


def test_map_tiles_are_true_size_and_the_large_one_is_tiled(kit: Path, game: LoadedGame) -> None:
    small = pypdf.PdfReader(pdf(kit, "map-tiles"))
    assert len(small.pages) == len(game.model.small_tiles)
    trim = small.pages[0].trimbox
    assert to_mm(float(trim.width)) == pytest.approx(192, abs=0.01)
    # Cut like cards: 3 mm of bleed round the trim and a crop mark on each cut line.
    assert to_mm(float(small.pages[0].bleedbox.width)) == pytest.approx(198, abs=0.01)
    with pdfplumber.open(pdf(kit, "map-tiles")) as document:
        marks = [
            line for line in document.pages[0].lines if line["width"] == 0 or line["height"] == 0
        ]
    assert len(marks) == 8
    large = pypdf.PdfReader(pdf(kit, "map-tiles-large"))
    # One overview page plus a 2x2 grid of A4 pages with overlap for the 384 mm tile.
    assert len(large.pages) == 1 + 4
    assert "拼接总览" in large.pages[0].extract_text()


def _cut_spacing(path: Path) -> tuple[set[float], set[float]]:
    with pdfplumber.open(path) as document:
        lines = document.pages[0].lines
    xs = sorted({round(to_mm(ln["x0"]), 2) for ln in lines if ln["x0"] == ln["x1"]})
    ys = sorted({round(to_mm(ln["top"]), 2) for ln in lines if ln["top"] == ln["bottom"]})
    return (
        {round(b - a, 1) for a, b in itertools.pairwise(xs)},
        {round(b - a, 1) for a, b in itertools.pairwise(ys)},
    )


def test_landscape_field_cards_are_cut_at_poker_size(kit: Path) -> None:
    # 88 x 63 mm landscape cards sit turned in 63 x 88 mm portrait slots.
    widths, heights = _cut_spacing(pdf(kit, "equipment-cards"))
    assert 63.0 in widths and widths <= {63.0, 6.0}
    assert 88.0 in heights and heights <= {88.0, 6.0}


def _shelf_widths(path: Path) -> list[set[float]]:
    """The spacing of the vertical crop marks of each shelf of a shared sheet's first page:
    the marks above or below one shelf span the same height, so they are grouped by it."""
    with pdfplumber.open(path) as document:
        lines = document.pages[0].lines
    shelves: dict[tuple[float, float], set[float]] = {}
    for line in lines:
        if line["x0"] == line["x1"]:
            key = (round(line["top"], 1), round(line["bottom"], 1))
            shelves.setdefault(key, set()).add(round(to_mm(line["x0"]), 2))
    return [
        {round(b - a, 1) for a, b in itertools.pairwise(sorted(xs))}
        for xs in shelves.values()
        if len(xs) > 1
    ]


def test_tokens_are_cut_at_their_small_sizes(kit: Path) -> None:
    # Heads (20 mm), markers (10 mm: they fit every track's cells) and buffs (12 mm: they fit
    # the 13 mm rounds-left cells) share one sheet, each shelf cut at its own size.
    shelves = _shelf_widths(pdf(kit, "tokens"))
    assert {size for spacing in shelves for size in spacing} == {20.0, 10.0, 12.0}
    assert all(len(spacing) == 1 for spacing in shelves)
    assert len(pypdf.PdfReader(pdf(kit, "tokens")).pages) == 1


@pytest.mark.parametrize(
    ("product", "collection"),
    [("equipment-cards", "equipment_cards"), ("item-cards", "item_cards"), ("food-cards", "food")],
)
def test_page_counts_follow_the_decks(
    kit: Path, game: LoadedGame, product: str, collection: str
) -> None:
    cards = sum(card.copies for card in getattr(game.model, collection))
    pages = len(pypdf.PdfReader(pdf(kit, product)).pages)
    assert pages == 2 * math.ceil(cards / 9)  # 9 poker cards a page, each page with backs


def test_every_event_card_appears_as_often_as_the_deck_holds_it(
    kit: Path, game: LoadedGame
) -> None:
    reader = pypdf.PdfReader(pdf(kit, "event-cards"))
    fronts = "".join(page.extract_text() for page in reader.pages[0::2])
    for event in game.model.events:
        if event.text and event.name in event.text:
            continue
        assert fronts.count(event.name) == event.copies, event.name
    backs = "".join(page.extract_text() for page in reader.pages[1::2])
    assert backs.count("？\n事件牌") == sum(e.copies for e in game.model.events)


def test_weapon_cards_print_their_numbers_from_content(kit: Path, game: LoadedGame) -> None:
    reader = pypdf.PdfReader(pdf(kit, "equipment-cards"))
    fronts = "".join(page.extract_text() for page in reader.pages[0::2])
    for card in game.model.equipment_cards:
        if card.name == "弓":
            continue  # also the bow's weapon-kind label
        assert fronts.count(card.name) >= card.copies, card.name
    # The bow's range and damage print beside their icons (drawings, not letters), the
    # damage's kind in words: "<icon> 4  <icon> 3（物理）".
    bow = next(card for card in game.model.equipment_cards if card.name == "弓")
    flat_fronts = fronts.replace("\n", "").replace(" ", "").replace("\u3000", "")
    assert f"{bow.range}{bow.damage}（物理）" in flat_fronts
    assert "范围4" not in flat_fronts  # the range is the icon's, not the area damage's word


def test_every_card_a_player_draws_has_its_picture(kit: Path, game: LoadedGame) -> None:
    # A card's picture is the sprite of its name (enchant books share one), so a renamed
    # card or a misspelt sprite would print a face without its picture.
    model = game.model
    sprites = {sprite.name: sprite for sprite in model.sprites}
    cards = [
        *model.equipment_cards,
        *model.legendary_field_cards,
        *model.item_cards,
        *model.legendary_hand_cards,
        *model.food,
        *model.partners,
        *model.events,
    ]
    missing = [
        card.id
        for card in cards
        if card.id not in sprites and getattr(card, "kind", None) is not ItemKind.ENCHANT
    ]
    assert not missing
    assert "enchanted-book" in sprites and "ender-dragon" in sprites
    # ... and the sheet draws it: the diamond sword's blade colour is filled on its page.
    blade = sprites["diamond-sword"].colours["B"]
    wanted = tuple(int(blade[i : i + 2], 16) / 255 for i in (1, 3, 5))
    with pdfplumber.open(pdf(kit, "equipment-cards")) as document:
        fills = {
            tuple(round(c, 3) for c in rect["non_stroking_color"] or ())
            for page in document.pages[0::2]
            for rect in page.rects
        }
    assert tuple(round(c, 3) for c in wanted) in fills


def test_a_buff_shows_one_icon_on_its_token_and_on_the_cards_that_give_it(
    game: LoadedGame,
) -> None:
    # A player matches the potion in hand to the token on the board by the same picture, so
    # each buff has its own icon and both faces draw it (the milk shows what it clears).
    model = game.model
    products = {p.id: p for p in model.products}
    tokens = layout_product(game, products["buff-tokens"], TEMPLATES, 0.0)
    on_tokens = {
        item.buff.id: {s.icon.name for s in front.shapes if isinstance(s, IconShape)}
        for item, (front, _, _) in zip(tokens.items, tokens.runs, strict=True)
    }
    assert on_tokens == {b.id: {f"buff-{b.id}"} for b in model.buffs}
    cards = layout_product(game, products["item-cards"], TEMPLATES, 0.0)
    texts = {
        item.id: " ".join(s.text for s in front.shapes if isinstance(s, TextShape))
        for item, (front, _, _) in zip(cards.items, cards.runs, strict=True)
    }
    potions = [item for item in model.item_cards if item.effect.kind.value == "buff"]
    assert len(potions) >= 8
    for potion in potions:
        assert f"[[buff-{potion.effect.buff}]]" in texts[potion.id], potion.id
    negative = [f"[[buff-{b.id}]]" for b in model.buffs if b.cls.value == "negative"]
    assert all(icon in texts["milk-bucket"] for icon in ["[[cleanse]]", *negative])
