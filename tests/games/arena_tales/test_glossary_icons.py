"""Every icon an Arena Tales card prints has a glossary row: a player who meets [[damage]] on a
card finds it in the rulebook's glossary, drawn beside the term, with a meaning taken from
content (its numbers from the model)."""

from __future__ import annotations

from pnp.content.icons import icon_map, icons_in
from pnp.content.loader import load_game
from pnp.layout.primitives import IconShape, TextShape
from pnp.layout.products import layout_product
from pnp.rulebook.text import context_for, glossary_entries, render
from tests.conftest import CONTENT, TEMPLATES


def test_every_icon_a_card_prints_has_a_glossary_row_with_that_icon() -> None:
    game = load_game(CONTENT, "arena-tales")
    model = game.model
    icons = icon_map(model)
    product = next(p for p in model.products if p.id == "character-decks")
    drawn: set[str] = set()
    for front, back, _ in layout_product(game, product, TEMPLATES, 0.0).runs:
        for face in (front, back):
            for shape in face.shapes if face is not None else ():
                if isinstance(shape, IconShape):
                    drawn.add(shape.icon.name)
                elif isinstance(shape, TextShape):
                    drawn.update(icon.name for icon in icons_in(shape.text, icons)[0])
    # a term: the icons that are a picture, not a word (the emblems) need no row
    termed = {name for name in drawn if icons[name].term}
    assert {"damage", "range", "draw", "life", "move"} <= termed
    rows = glossary_entries(model.rulebook, model)
    # the rulebook draws a row's own icon, else the icon whose term it is
    shown = {
        row.icon or next((n for n, i in icons.items() if i.term == row.term), "") for row in rows
    }
    assert termed <= shown, f"no glossary row for {sorted(termed - shown)}"
    context = context_for(game)
    for row in rows:
        if row.icon in termed:
            meaning = render(row.meaning, context, row.where)
            assert "{{" not in meaning and len(meaning) > 20, (row.term, meaning)
    life = next(row for row in rows if row.icon == "life")
    assert str(model.settings.life) in render(life.meaning, context, life.where)
