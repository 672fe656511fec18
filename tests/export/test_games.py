"""The exports work for any game: every other game that loads and validates cleanly puts
each of its cards, boards and tokens on the Tabletop Simulator table as often as the kit
holds it."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from pnp.content.loader import load_game
from pnp.errors import PnpError
from pnp.export import export_game
from pnp.paths import discover_games

from ..conftest import CONTENT, TEMPLATES

OTHERS = [slug for slug in discover_games(CONTENT) if slug != "deadline-99"]


@pytest.mark.parametrize("slug", OTHERS)
def test_every_item_reaches_the_table_as_often_as_the_kit_holds_it(
    slug: str, tmp_path: Path
) -> None:
    from pnp.validate.runner import validate_games

    try:
        game = load_game(CONTENT, slug)
    except PnpError as error:
        pytest.skip(f"{slug} does not load yet: {error}")
    result = validate_games(CONTENT, [slug], TEMPLATES, simulate=False)
    if any(p.severity == "error" for p in result.problems):
        pytest.skip(f"{slug} has content errors; its author is still at work")
    export_game(game, "tts", tmp_path, TEMPLATES, base_url="https://example.org")
    save = json.loads((tmp_path / "export" / "tts" / f"{slug}.json").read_text())
    found: Counter[str] = Counter()
    for obj in save["ObjectStates"]:
        for card in obj.get("ContainedObjects") or [obj]:
            found[card["Description"]] += 1
    wanted: Counter[str] = Counter()
    for product in game.model.products:
        for item in getattr(game.model, product.items):
            wanted[f"{product.title} · {item.id}"] += int(item.copies)
    assert found == wanted
    for obj in save["ObjectStates"]:
        for entry in (obj.get("CustomDeck") or {}).values():
            assert entry["NumWidth"] <= 10 and entry["NumHeight"] <= 7
