"""Each fighter has an emblem of its own (content/arena-tales/icons.yaml), drawn on its pawn and
faintly behind the effects of every one of its cards."""

from __future__ import annotations

from pnp.content.loader import load_game
from pnp.layout.primitives import IconShape
from pnp.layout.products import layout_product
from tests.conftest import CONTENT, TEMPLATES


def test_every_fighter_shows_its_own_emblem_on_its_pawn_and_its_cards() -> None:
    game = load_game(CONTENT, "arena-tales")
    products = {p.id: p for p in game.model.products}
    pawns = layout_product(game, products["pawns"], TEMPLATES, 0.0)
    drawn = {
        item.name: [s.icon.name for s in front.shapes if isinstance(s, IconShape)]
        for item, (front, _, _) in zip(pawns.items, pawns.runs, strict=True)
    }
    emblems = {c.name: f"fighter-{c.id}" for c in game.model.characters}
    assert drawn == {name: [emblem] for name, emblem in emblems.items()}
    assert len(set(emblems.values())) == len(game.model.characters) == 8
    deck = layout_product(game, products["character-decks"], TEMPLATES, 0.0)
    for item, (front, _, _) in zip(deck.items, deck.runs, strict=True):
        icons = {s.icon.name for s in front.shapes if isinstance(s, IconShape)}
        assert emblems[item.character.name] in icons, item.id
