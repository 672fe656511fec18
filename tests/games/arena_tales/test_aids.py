"""Arena Tales' turn aid and sanity card read at arm's length: each step a row of its own set
at a reading size (it was a wall of 6-8 pt text over half a sheet), the card's rule in a
panel at the same size as the other cards' rules."""

from __future__ import annotations

from pnp.content.loader import load_game
from pnp.layout.primitives import TextShape
from pnp.layout.products import layout_product
from pnp.render.fonts import prepare_cjk_fonts
from pnp.render.text import fit_text_shape
from tests.conftest import CONTENT, TEMPLATES


def test_every_step_of_the_turn_aid_and_the_sanity_rules_are_set_at_a_reading_size() -> None:
    game = load_game(CONTENT, "arena-tales")
    model = game.model
    products = {p.id: p for p in model.products}
    font = prepare_cjk_fonts().regular
    aid = layout_product(game, products["turn-aid"], TEMPLATES, 0.0).runs[0][0]
    steps = [*model.turn_steps, *model.timing_steps]
    titles = {step.title for step in steps}
    texts = [s for s in aid.shapes if isinstance(s, TextShape)]
    # Each step's title sits on its own tab, beside its own text.
    assert {s.text for s in texts} >= titles
    bodies = [s for s in texts if s.text not in titles and s.size <= 9.5 and s.height > 20]
    assert len(bodies) == len(steps)
    sizes = [fit_text_shape(s, font).size for s in bodies]
    assert min(sizes) >= 8.5, sizes
    sanity = layout_product(game, products["sanity-cards"], TEMPLATES, 0.0).runs[0]
    for face, rule in (
        (sanity[0], model.sanity_cards[0].sane),
        (sanity[1], model.sanity_cards[0].wild),
    ):
        assert face is not None
        (shape,) = [s for s in face.shapes if isinstance(s, TextShape) and s.text == rule.text]
        assert fit_text_shape(shape, font).size >= 8.5


def test_the_keyword_aid_gives_each_keyword_a_row_at_a_readable_size() -> None:
    game = load_game(CONTENT, "arena-tales")
    products = {p.id: p for p in game.model.products}
    font = prepare_cjk_fonts().regular
    aid = layout_product(game, products["glossary-aid"], TEMPLATES, 0.0).runs[0][0]
    texts = [s for s in aid.shapes if isinstance(s, TextShape)]
    names = [entry.name for entry in game.model.glossary]
    # a tab names its keyword, after the icon the cards print for it where there is one
    drawn = {icon.term: icon.name for icon in game.model.icons if icon.term}
    tabs = [f"[[{drawn[name]}]] {name}" if name in drawn else name for name in names]
    assert [s.text for s in texts if s.text in tabs] == tabs  # one tab each, in order
    assert "[[knockback]] 击退" in tabs
    meanings = [s for s in texts if s.text not in tabs and s.size == 9 and s.height < 60]
    assert len(meanings) == len(names)
    sizes = [fit_text_shape(s, font).size for s in meanings]
    assert min(sizes) >= 7, sizes
