"""What the MineVenture kit prints beyond the hand cards' footers, held against its engine
(pnp.games.mineventure.claims): what each food and item does, what each buff token does and
how long it lasts, the partners' heal and hand bonuses, each weapon's range and the status
boards' rules; an engine that does otherwise is a located finding."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from pnp.content.loader import load_game
from pnp.games.mineventure.claims import claims
from pnp.games.mineventure.model import Effect, Mineventure, Target
from pnp.games.mineventure.rules import MineventureRules
from tests.conftest import CONTENT, TEMPLATES
from tests.validate.seeding import Seeding, only

SEEDING = Seeding("mineventure", games=2)
validate, line_of = SEEDING.validate, SEEDING.line_of


@pytest.fixture(scope="module")
def model() -> Mineventure:
    return load_game(CONTENT, "mineventure").model


def test_every_effect_buff_and_board_rule_is_a_claim_and_the_engine_keeps_them(
    model: Mineventure,
) -> None:
    found = claims(model, TEMPLATES)
    for component in (*model.food, *model.buffs):
        assert sum(c.where == component.where for c in found) >= 1, component.id
    # The footers are still there, one per hand card, besides what the cards do.
    footers = [c for c in found if c.says.startswith("footer ")]
    assert len(footers) == len(model.items) + len(model.food)
    says = {c.says for c in found}
    assert f"手牌上限 {model.settings.hand_limit}" in says
    assert f"每天结束回复 {model.settings.daily_heal} 点血量" in says
    assert f"第 {model.settings.combat_rounds} 回合结算完战斗结束" in says
    armour = [e for e in model.equipment if e.defence]
    assert all(any(c.where == e.where for c in found) for e in armour)
    assert [(str(c.where), c.says) for c in found if c.probe() is not None] == []


def seeded(tweak: Callable[[MineventureRules], None]) -> Callable[..., None]:
    """MineventureRules.__init__, then ``tweak`` of the engine: a bug seeded back."""
    init = MineventureRules.__init__

    def seeded_init(self: MineventureRules, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        tweak(self)

    return seeded_init


def one_more_card(rules: MineventureRules) -> None:
    rules._hand_limit += 1


def one_more_combat_round(rules: MineventureRules) -> None:
    rules.settings = replace(rules.settings, combat_rounds=rules.settings.combat_rounds + 1)


def storms_hit_the_drawer_alone(rules: MineventureRules) -> None:
    resolve = rules._resolve

    def on_the_drawer(new: object, seat: int, effect: Effect, *rest: object) -> None:
        if effect.target is Target.ALL:
            effect = replace(effect, target=Target.SELF)
        resolve(new, seat, effect, *rest)  # type: ignore[arg-type]

    rules._resolve = on_the_drawer  # type: ignore[method-assign,assignment]


def buffs_never_run_out(rules: MineventureRules) -> None:
    rules._ticked = lambda buffs: buffs  # type: ignore[method-assign]


@pytest.mark.parametrize(
    ("tweak", "pattern", "path", "needle"),
    [
        (
            one_more_card,
            r"the player board prints 「手牌上限 4」, but with 5 cards the end phase skips a "
            r"discard",
            "templates/mineventure/player-board.yaml",
            "s.hand_limit",
        ),
        (
            one_more_combat_round,
            r"the game board's combat track prints 「第 3 回合结算完战斗结束」, but a combat "
            r"nobody dies in lasts 4 rounds",
            "templates/mineventure/game-board.yaml",
            "回合结算完战斗结束",
        ),
        (
            storms_hit_the_drawer_alone,
            r"event 'thunderstorm' prints 「主世界的所有玩家受到 2 点真实伤害。」, but drawn, it "
            r"changes seat 1's HP by 0, not -2",
            "content/mineventure/cards.yaml",
            "id: thunderstorm",
        ),
        (
            buffs_never_run_out,
            r"buff token 'poison' prints 「「中毒」，持续 3 轮」, but it is still in its slot "
            r"after 3 round\(s\)",
            "content/mineventure/cards.yaml",
            "id: poison",
        ),
    ],
)
def test_an_engine_that_plays_a_printed_rule_otherwise_is_an_error_where_it_is_printed(
    content_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    tweak: Callable[[MineventureRules], None],
    pattern: str,
    path: str,
    needle: str,
) -> None:
    monkeypatch.setattr(MineventureRules, "__init__", seeded(tweak))
    problem = only(validate(content_copy), pattern)
    assert problem.location.path.endswith(path)
    if path.startswith("templates/"):
        text = (TEMPLATES / path.removeprefix("templates/")).read_text(encoding="utf-8")
        assert needle in text.splitlines()[problem.location.line - 1]
    else:
        assert problem.location.line == line_of(content_copy, path.split("/")[-1], needle)
