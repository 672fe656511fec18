"""A number card says what it does to the count with the count's icon (the glossary's sign for
计数), large enough to read across the table."""

from __future__ import annotations

from pnp.content.loader import LoadedGame
from pnp.layout.primitives import TextShape
from pnp.layout.products import layout_product
from pnp.render.fonts import prepare_cjk_fonts
from pnp.render.text import fit_text_shape
from tests.conftest import TEMPLATES


def test_number_cards_show_the_count_icon_and_the_amount(deadline_99: LoadedGame) -> None:
    product = next(p for p in deadline_99.model.products if p.id == "playing-cards")
    laid = layout_product(deadline_99, product, TEMPLATES, 0.0)
    font = prepare_cjk_fonts().regular
    checked = 0
    for item, (front, _, _) in zip(laid.items, laid.runs, strict=True):
        effect = item.rank.effect
        if effect.kind.value != "add" or effect.draw != 1:
            continue
        (line,) = [s for s in front.shapes if isinstance(s, TextShape) and "[[count]]" in s.text]
        assert line.text == f"[[count]] +{effect.amount}"
        assert fit_text_shape(line, font).size >= 12
        checked += 1
    assert checked >= 20
