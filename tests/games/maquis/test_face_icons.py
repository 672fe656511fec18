"""A patrol card's rule of placement reads at the table: short lines with the police, worker
and safe-house icons in place of their names, in ink at a size that fits its box unshrunk."""

from __future__ import annotations

import re

from pnp.content.loader import load_game
from pnp.layout.primitives import TextShape
from pnp.layout.products import layout_product
from pnp.render.fonts import prepare_cjk_fonts
from pnp.render.text import fit_text_shape
from tests.conftest import CONTENT, TEMPLATES


def test_patrol_cards_place_a_patrol_in_short_lines_with_icons() -> None:
    game = load_game(CONTENT, "maquis")
    product = next(p for p in game.model.products if p.id == "patrol-cards")
    laid = layout_product(game, product, TEMPLATES, 0.0)
    font = prepare_cjk_fonts().regular
    names = {icon.name for icon in game.model.icons}
    assert {"police", "worker", "house"} <= names
    assert len(laid.runs) == len(game.model.patrol_cards)
    for front, _, _ in laid.runs:
        (rule,) = [s for s in front.shapes if isinstance(s, TextShape) and "[[worker]]" in s.text]
        # an icon prints as one sign
        lines = re.sub(r"\[\[[a-z-]+\]\]", "◆", rule.text).split("\n")
        assert len(lines) == 4 and all(len(line) <= 14 for line in lines), lines
        assert "[[police]]" in rule.text and "[[house]]" in rule.text
        assert "工人" not in rule.text and "安全屋" not in rule.text
        fitted = fit_text_shape(rule, font)
        assert fitted.size == rule.size >= 7 and not fitted.overflow
