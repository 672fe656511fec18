"""A character card's effect panel speaks in icons where the game has one (damage, range,
draws, life, movement along the facing, and a keyword whose glossary name an icon stands for),
with the amounts from the model, and still fits its panel at its full size."""

from __future__ import annotations

import re

from pnp.content.loader import load_game
from pnp.layout.primitives import TextShape
from pnp.layout.products import layout_product
from pnp.render.fonts import prepare_cjk_fonts
from pnp.render.text import fit_text_shape
from tests.conftest import CONTENT, TEMPLATES


def test_effect_panels_print_icons_for_the_words_that_have_one() -> None:
    game = load_game(CONTENT, "arena-tales")
    model = game.model
    product = next(p for p in model.products if p.id == "character-decks")
    laid = layout_product(game, product, TEMPLATES, 0.0)
    font = prepare_cjk_fonts().regular
    knockback = model.keyword_names["knockback"]
    seen: set[str] = set()
    for item, (front, _, _) in zip(laid.items, laid.runs, strict=True):
        card = item.card
        texts = [s for s in front.shapes if isinstance(s, TextShape)]
        panel = max(texts, key=lambda s: s.width * s.height)  # the effects fill the lower half
        # the words the icons replace are gone from the panel
        for words in ("张牌", "生命", "伤害 +", "范围 +", "移动至多", knockback):
            assert words not in panel.text, (card.name, panel.text)
        for effect in card.effects:
            kind = effect.kind.value
            if kind == "knockback":
                assert f"【[[knockback]] {effect.amount}】" in panel.text
            elif kind == "draw":
                assert f"[[draw]] {effect.amount}" in panel.text
            elif kind == "dash":
                assert f"[[facing]] [[move]] ≤ {effect.amount}" in panel.text
            else:
                continue
            seen.add(kind)
        assert fit_text_shape(panel, font).size == panel.size, card.name
    assert seen == {"knockback", "draw", "dash"}


def test_the_keyword_aid_explains_every_icon_the_cards_print() -> None:
    game = load_game(CONTENT, "arena-tales")
    products = {p.id: p for p in game.model.products}
    printed = set()
    for front, _, _ in layout_product(game, products["character-decks"], TEMPLATES, 0.0).runs:
        for shape in front.shapes:
            if isinstance(shape, TextShape):
                printed |= set(re.findall(r"\[\[([a-z-]+)\]\]", shape.text))
    assert {"damage", "range", "draw", "life", "move", "facing", "knockback"} <= printed
    aid = layout_product(game, products["glossary-aid"], TEMPLATES, 0.0).runs[0][0]
    texts = [s for s in aid.shapes if isinstance(s, TextShape)]
    explained = set(re.findall(r"\[\[([a-z-]+)\]\] ", "\n".join(s.text for s in texts)))
    assert printed <= explained, printed - explained
    font = prepare_cjk_fonts().regular
    assert not any(fit_text_shape(s, font).overflow for s in texts)
