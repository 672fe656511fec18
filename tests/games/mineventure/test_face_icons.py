"""The map information card shows each terrain as the map tiles draw it (its colour and its
texture), not the one-letter code the content's tile rows use."""

from __future__ import annotations

from pnp.content.loader import load_game
from pnp.layout.primitives import IconShape, TextShape
from pnp.layout.products import layout_product
from tests.conftest import CONTENT, TEMPLATES


def test_the_map_information_card_shows_each_terrains_texture() -> None:
    game = load_game(CONTENT, "mineventure")
    terrains = game.model.terrains
    products = {p.id: p for p in game.model.products}
    info = layout_product(game, products["map-info-cards"], TEMPLATES, 0.0).runs[0][0]
    tile = layout_product(game, products["map-tiles"], TEMPLATES, 0.0).runs[0][0]
    drawn = [s for s in info.shapes if isinstance(s, IconShape)]
    assert [s.icon.name for s in drawn] == [f"tex-{t.id}" for t in terrains]
    # in the shade each terrain's cells have on the tiles
    on_tiles = {s.icon.name: s.color for s in tile.shapes if isinstance(s, IconShape)}
    assert on_tiles and all(on_tiles.get(s.icon.name, s.color) == s.color for s in drawn)
    texts = {s.text for s in info.shapes if isinstance(s, TextShape)}
    assert not texts & {t.code for t in terrains}
