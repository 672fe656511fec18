"""A buff reads the same wherever a player meets it: on the potion, food or event card that
gives it, in the rulebook's list of buffs and in the glossary (one wording, `Buff.meaning`)."""

from __future__ import annotations

import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.games.mineventure.model import EffectKind, Mineventure
from pnp.layout.primitives import TextShape
from pnp.layout.products import layout_product
from pnp.rulebook.text import context_for, prose_of, render
from tests.conftest import CONTENT, TEMPLATES


@pytest.fixture(scope="module")
def game() -> LoadedGame:
    return load_game(CONTENT, "mineventure")


def buff_given(card: object) -> str:
    """The id of the buff a hand or event card gives, or ''."""
    effect = getattr(card, "effect", None)
    if effect is not None and effect.kind is EffectKind.BUFF:
        return str(effect.buff)
    return str(getattr(card, "buff", ""))


@pytest.mark.parametrize("product", ["item-cards", "food-cards", "event-cards"])
def test_a_card_that_gives_a_buff_prints_the_buffs_one_wording(
    game: LoadedGame, product: str
) -> None:
    model = game.model
    assert isinstance(model, Mineventure)
    products = {p.id: p for p in model.products}
    laid = layout_product(game, products[product], TEMPLATES, 0.0)
    checked = 0
    for card, (face, _, _) in zip(laid.items, laid.runs, strict=True):
        given = buff_given(card)
        if not given:
            continue
        buff = model.buff_by_id[given]
        words = "".join(s.text for s in face.shapes if isinstance(s, TextShape))
        assert f"「{buff.name}」：{buff.meaning}" in words, (card, words)
        checked += 1
    assert checked, f"no {product} face gives a buff"


def test_the_rulebook_and_glossary_explain_every_buff_in_the_same_words(
    game: LoadedGame,
) -> None:
    model = game.model
    assert isinstance(model, Mineventure)
    context = context_for(game)
    rulebook = model.rulebook
    assert rulebook is not None
    texts = [render(p.source, context, p.where) for p in prose_of(rulebook)]
    glossary = {e.term: render(e.meaning, context, e.where) for e in rulebook.glossary}
    for buff in model.buffs:
        assert buff.meaning, f"buff {buff.id!r} has no wording"
        assert buff.meaning in glossary[buff.name]
        # the buff list: its name, then what it does
        assert any(f"**{buff.name}**" in t and buff.meaning in t for t in texts), buff.id


def test_strength_speaks_of_every_attack_not_only_a_weapons(game: LoadedGame) -> None:
    """The engine adds strength to a bare-handed hit too: a card saying "weapon damage" would
    tell a player without a weapon that the potion is useless."""
    model = game.model
    assert isinstance(model, Mineventure)
    strength = next(b for b in model.buffs if b.effect.kind is EffectKind.STRENGTH)
    assert "武器" not in strength.meaning
    assert f"+{strength.effect.amount}" in strength.meaning
