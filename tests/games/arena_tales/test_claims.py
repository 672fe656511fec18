"""What the Arena Tales kit prints, held against its engine (pnp.games.arena_tales.claims): each
printed phrase is a claim, and an engine that does something else is a located finding."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pnp.content.loader import load_game
from pnp.games.arena_tales import effects
from pnp.games.arena_tales.claims import claims
from pnp.games.arena_tales.model import ArenaTales, EffectKind, Timing
from pnp.games.arena_tales.state import ArenaState
from tests.conftest import CONTENT, TEMPLATES
from tests.validate.seeding import Seeding, only

SEEDING = Seeding("arena-tales", games=4)
validate, line_of = SEEDING.validate, SEEDING.line_of


@pytest.fixture(scope="module")
def model() -> ArenaTales:
    return load_game(CONTENT, "arena-tales").model


def test_every_printed_effect_cost_damage_and_range_side_is_a_claim(model: ArenaTales) -> None:
    found = claims(model, TEMPLATES)
    at = {(c.where, c.says) for c in found}
    for card in model.cards:
        if card.type.value != "talent":
            assert (card.where, f"费用 {card.cost}") in at, card.id
        if card.damage is not None:
            assert (card.where, f"伤害 {card.damage}") in at, card.id
            sides = sum(1 for spec in card.range if spec)
            assert sum(1 for c in found if c.where == card.where and " " in c.says) >= sides
        for effect in card.effects:
            assert any(c.where == effect.where for c in found), (card.id, effect.kind)


def test_the_printed_phrase_is_the_one_on_the_card(model: ArenaTales) -> None:
    found = {(c.subject, c.says) for c in claims(model, TEMPLATES)}
    assert ("card 'jab'", "【击退 1】") in found  # combat: no timing word
    assert ("card 'embers'", "响应：【回复 1】") in found
    assert ("card 'insight'", "打出：【识破】") in found  # 识破 with no number: all
    assert ("card 'rage'", "展示中：伤害 +1") in found
    assert ("card 'flame-rush'", "正前 ④") in found


def broken(kind: EffectKind) -> Callable[..., None]:
    """The effect handler of ``kind`` doing one more than its X (a seeded engine bug)."""
    handler = effects.EFFECTS[kind]

    def one_more(rules: object, s: ArenaState, seat: int, code: int, x: int, t: Timing) -> None:
        handler(rules, s, seat, code, x + 1, t)  # type: ignore[arg-type]

    return one_more


@pytest.mark.parametrize(
    ("kind", "card", "phrase"),
    [
        (EffectKind.HEAL, "returning-wave", "【回复 2】"),
        (EffectKind.EXHAUST, "ink-stain", "【耗竭 2】"),
        (EffectKind.SEE_THROUGH, "pressure-point", "【识破 2】"),
        (EffectKind.DRAW, "water-mirror", "抽 1 张牌"),
        (EffectKind.BACKLASH, "giant-fist", "【反噬 1】"),
    ],
)
def test_an_effect_the_engine_resolves_otherwise_is_an_error_at_its_line(
    content_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: EffectKind,
    card: str,
    phrase: str,
) -> None:
    monkeypatch.setitem(effects.EFFECTS, kind, broken(kind))
    problem = only(validate(content_copy), rf"card '{card}' prints 「[^」]*{phrase}」, but")
    assert problem.location.path.endswith("cards.yaml")
    assert problem.location.line == line_of(content_copy, "cards.yaml", f"id: {card},")


def test_a_sanity_card_that_prints_the_other_reading_of_out_of_control_is_caught(
    content_copy: Path,
) -> None:
    # Issue 28, item 6: the engine holds out-of-control moves to "closer to every enemy"; a
    # card printing "closer to at least one enemy" is located where it is printed.
    SEEDING.edit(content_copy, "table.yaml", "更靠近每一名敌人", "更靠近至少一名敌人")
    problem = only(
        validate(content_copy),
        r"失控 face prints 「更靠近至少一名敌人」, but in a 4-player game, between two "
        r"enemies, the engine offers no step",
    )
    assert problem.location.path.endswith("table.yaml")
    assert problem.location.line == line_of(content_copy, "table.yaml", "name: 失控")


def test_the_shipped_kit_and_engine_agree(model: ArenaTales) -> None:
    disagree = [(str(c.where), c.says) for c in claims(model, TEMPLATES) if c.probe() is not None]
    assert disagree == []
