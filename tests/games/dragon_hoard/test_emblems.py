"""Each treasure token shows its treasure's emblem above its value; the dragon's tile shows the
dragon."""

from __future__ import annotations

from pnp.content.loader import load_game
from pnp.layout.primitives import IconShape, TextShape
from pnp.layout.products import layout_product
from tests.conftest import CONTENT, TEMPLATES


def test_treasure_tokens_and_the_dragon_tile_show_their_emblems() -> None:
    game = load_game(CONTENT, "dragon-hoard")
    products = {p.id: p for p in game.model.products}
    tokens = layout_product(game, products["treasure-tokens"], TEMPLATES, 0.0)
    for item, (front, _, _) in zip(tokens.items, tokens.runs, strict=True):
        (emblem,) = [s for s in front.shapes if isinstance(s, IconShape)]
        assert emblem.icon.name == f"treasure-{item.id}"
        (value,) = [
            s for s in front.shapes if isinstance(s, TextShape) and s.text == str(item.value)
        ]
        assert emblem.y > value.y + value.height - 0.01  # above it (PDF y runs up)
    tile = layout_product(game, products["dragon-tile"], TEMPLATES, 0.0)
    front = tile.runs[0][0]
    assert "dragon" in {s.icon.name for s in front.shapes if isinstance(s, IconShape)}
