"""Tabletop Simulator: sheets of at most 10 x 7 with the back in the hidden slot, and a
saved object shaped like the ones TTS writes."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops

from pnp.content.loader import LoadedGame, load_game
from pnp.export import export_game
from pnp.export.tts import TOKEN_MAX_MM, plan_grid
from pnp.layout.sizes import item_size
from pnp.registry import games
from pnp.units import to_mm

from ..conftest import CONTENT, TEMPLATES
from .conftest import BASE_URL, copies_by_card, tts_export

# Trimmed from real saved objects; sources in fixtures/README.md (1j01/systemocracy
# data/export/Systemocracy.json and Esper-lvl4/ZX_TT_Mod wiki-parser/saved_objects/field.js).
REAL = Path(__file__).parent / "fixtures" / "tts-saved-object.json"


@pytest.fixture(scope="module")
def save(exported: Path) -> dict[str, Any]:
    return json.loads((exported / "tts" / "deadline-99.json").read_text())


def _local(exported: Path, url: str) -> Path:
    assert url.startswith(BASE_URL + "/")
    return exported / "tts" / url.removeprefix(BASE_URL + "/")


def _kind(value: Any) -> str:
    return (
        "number"
        if isinstance(value, int | float) and not isinstance(value, bool)
        else (type(value).__name__)
    )


def _same_shape(ours: Any, real: Any, where: str) -> None:
    """Every key of the real object is in ours with the same JSON type, recursively."""
    assert _kind(ours) == _kind(real), f"{where}: {_kind(ours)} vs {_kind(real)}"
    if isinstance(real, dict):
        if where.endswith("CustomDeck"):  # keyed by deck id: compare the entries
            [real_entry, *_] = real.values()
            for key, entry in ours.items():
                assert key.isdigit(), f"{where}: deck id {key!r}"
                _same_shape(entry, real_entry, f"{where}.{key}")
            return
        for key, value in real.items():
            assert key in ours, f"{where}: no {key!r}"
            _same_shape(ours[key], value, f"{where}.{key}")
    elif isinstance(real, list) and real and ours:
        for index, value in enumerate(ours):
            _same_shape(value, real[0], f"{where}[{index}]")


def test_the_save_has_the_shape_of_a_real_saved_object(save: dict[str, Any]) -> None:
    real = json.loads(REAL.read_text())
    envelope = {k: v for k, v in real.items() if k != "ObjectStates"}
    _same_shape(save, envelope, "save")
    examples = {obj["Name"]: obj for obj in real["ObjectStates"]}
    names = Counter(obj["Name"] for obj in save["ObjectStates"])
    assert names == {"DeckCustom": 4, "Custom_Tile": 1}
    for obj in save["ObjectStates"]:
        _same_shape(obj, examples[obj["Name"]], obj["Name"])
    guids = [o["GUID"] for o in save["ObjectStates"]]
    assert len(set(guids)) == len(guids)


def _decks(save: dict[str, Any]) -> list[dict[str, Any]]:
    return [o for o in save["ObjectStates"] if o["Name"] in ("DeckCustom", "Card")]


def test_every_card_is_in_its_deck_as_often_as_the_deck_holds_it(
    save: dict[str, Any], deadline_99: LoadedGame
) -> None:
    titles = {p.title: p for p in deadline_99.model.products}
    for deck in _decks(save):
        product = titles[deck["Nickname"]]
        cards = deck["ContainedObjects"]
        assert deck["DeckIDs"] == [card["CardID"] for card in cards]
        wanted = {item.name: item.copies for item in getattr(deadline_99.model, product.items)}
        assert Counter(card["Nickname"] for card in cards) == wanted
    total = sum(len(d["ContainedObjects"]) for d in _decks(save))
    assert total == sum(copies_by_card(deadline_99).values())


def test_card_ids_are_deck_times_100_plus_their_slot(save: dict[str, Any]) -> None:
    for deck in _decks(save):
        for card in deck["ContainedObjects"]:
            [deck_id] = card["CustomDeck"]
            assert card["CardID"] // 100 == int(deck_id)
            entry = deck["CustomDeck"][deck_id]
            assert card["CardID"] % 100 < entry["NumWidth"] * entry["NumHeight"] - 1


def test_sheets_are_at_most_10_by_7_with_the_back_in_the_hidden_slot(
    save: dict[str, Any], exported: Path
) -> None:
    for deck in _decks(save):
        for entry in deck["CustomDeck"].values():
            columns, rows = entry["NumWidth"], entry["NumHeight"]
            assert columns <= 10 and rows <= 7 and entry["BackIsHidden"]
            sheet = Image.open(_local(exported, entry["FaceURL"])).convert("RGB")
            back = Image.open(_local(exported, entry["BackURL"])).convert("RGB")
            cell_w, cell_h = sheet.width // columns, sheet.height // rows
            assert (cell_w * columns, cell_h * rows) == sheet.size
            assert back.size == (cell_w, cell_h)
            hidden = sheet.crop((sheet.width - cell_w, sheet.height - cell_h, *sheet.size))
            assert ImageChops.difference(hidden, back).getbbox() is None
    # 48 distinct playing cards and the hidden slot: a 10 x 5 sheet.
    playing = next(d for d in _decks(save) if len(d["ContainedObjects"]) == 96)
    [entry] = playing["CustomDeck"].values()
    assert (entry["NumWidth"], entry["NumHeight"]) == (10, 5)


def test_the_grid_never_exceeds_10_by_7() -> None:
    assert plan_grid(1) == (2, 1)
    assert plan_grid(9) == (10, 1)
    assert plan_grid(10) == (10, 2)
    assert plan_grid(69) == (10, 7)
    with pytest.raises(ValueError):
        plan_grid(70)


def test_the_board_is_a_tile_with_its_image(save: dict[str, Any], exported: Path) -> None:
    [tile] = [o for o in save["ObjectStates"] if o["Name"] == "Custom_Tile"]
    image = tile["CustomImage"]
    assert _local(exported, image["ImageURL"]).is_file()
    assert tile["Locked"] and tile["Nickname"]


def test_without_a_base_url_the_save_names_no_file_of_the_build_machine(
    deadline_99: LoadedGame, tmp_path: Path
) -> None:
    # A kit is downloaded and loaded elsewhere: a file:// URL of the machine that built it
    # would load nothing there.
    export_game(deadline_99, "tts", tmp_path, TEMPLATES, products=["variant-cards"])
    folder = tmp_path / "export" / "tts"
    text = (folder / "deadline-99.json").read_text()
    assert "file://" not in text and str(tmp_path) not in text
    urls = [
        url
        for deck in _decks(json.loads(text))
        for entry in deck["CustomDeck"].values()
        for url in (entry["FaceURL"], entry["BackURL"])
    ]
    assert urls and all((folder / url).is_file() for url in urls)
    how_to = (folder / "HOW-TO-LOAD.txt").read_text()
    assert "Saved Objects" in how_to and "--base-url" in how_to


def _saved_object(factory: pytest.TempPathFactory, slug: str) -> tuple[LoadedGame, Any]:
    game = load_game(CONTENT, slug)
    return game, json.loads((tts_export(factory, game) / f"{slug}.json").read_text())


@pytest.mark.parametrize("slug", sorted(games()))
def test_every_item_reaches_the_table_as_often_as_the_kit_holds_it(
    slug: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # Boards and tokens too, not only the decks the next test looks into.
    game, save = _saved_object(tmp_path_factory, slug)
    found: Counter[str] = Counter()
    for obj in save["ObjectStates"]:
        for card in obj.get("ContainedObjects") or [obj]:
            found[card["Description"]] += 1
    wanted: Counter[str] = Counter()
    for product in game.model.products:
        for item in getattr(game.model, product.items):
            wanted[f"{product.title} · {item.id}"] += int(item.copies)
    assert found == wanted


@pytest.mark.parametrize("slug", sorted(games()))
def test_every_game_s_saved_object_holds_its_cards_on_legal_sheets(
    slug: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    game, save = _saved_object(tmp_path_factory, slug)
    deck_ids: list[str] = []
    for deck in _decks(save):
        cards = deck.get("ContainedObjects", [deck])
        ids = deck["DeckIDs"] if "DeckIDs" in deck else [deck["CardID"]]
        assert ids == [card["CardID"] for card in cards]
        for card in cards:
            [deck_id] = card["CustomDeck"]
            entry = card["CustomDeck"][deck_id]
            assert entry["NumWidth"] <= 10 and entry["NumHeight"] <= 7
            assert card["CardID"] // 100 == int(deck_id)
            assert card["CardID"] % 100 < entry["NumWidth"] * entry["NumHeight"] - 1
        deck_ids.extend(deck["CustomDeck"])
    assert len(deck_ids) == len(set(deck_ids)), "deck ids are unique in the save"
    # Every card product that is not a token sheet is a deck (or a lone card) holding each
    # item as often as the content does.
    by_title = {p.title: p for p in game.model.products}
    # A deck is named by its product; a lone card (TTS saves no deck of one) by itself, its
    # description naming the product.
    decks = {
        by_title[
            deck["Nickname"]
            if deck["Name"] == "DeckCustom"
            else deck["Description"].split(" · ")[0]
        ].id: deck
        for deck in _decks(save)
    }
    card_products = [
        p
        for p in game.model.products
        if p.kind.value == "cards" and max(map(to_mm, item_size(p))) > TOKEN_MAX_MM
    ]
    assert sorted(decks) == sorted(p.id for p in card_products)
    for product in card_products:
        deck = decks[product.id]
        cards = deck.get("ContainedObjects", [deck])
        wanted: Counter[str] = Counter()
        for item in getattr(game.model, product.items):
            wanted[item.name] += item.copies
        assert Counter(card["Nickname"] for card in cards) == wanted, product.id
