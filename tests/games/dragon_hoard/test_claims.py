"""What the Dragon Hoard kit prints, held against its engine (pnp.games.dragon_hoard.claims):
every AI card's speed and effects, every action card, every treasure's value and effect, the
character card's sideways rule and the speed aid; an engine that does otherwise is a located
finding."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pnp.content.loader import load_game
from pnp.games.dragon_hoard.claims import claims
from pnp.games.dragon_hoard.model import DragonHoard
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.state import DragonHoardState
from tests.conftest import CONTENT, TEMPLATES
from tests.validate.seeding import Seeding, only

SEEDING = Seeding("dragon-hoard", games=2)
validate, line_of = SEEDING.validate, SEEDING.line_of


@pytest.fixture(scope="module")
def model() -> DragonHoard:
    return load_game(CONTENT, "dragon-hoard").model


def test_every_card_treasure_and_aid_line_is_a_claim_and_the_engine_keeps_them(
    model: DragonHoard,
) -> None:
    found = claims(model, TEMPLATES)
    for component in (*model.ai_cards, *model.action_cards, *model.treasures):
        assert any(c.where == component.where for c in found), component.id
    # Each AI card: its speed, and one line per effect the probe can play from the card's start.
    effects = {c.says for c in found if c.subject == "AI card '冰息'"}
    assert "1. 攻击巨龙北、南侧与龙身同宽、直到地图边缘的格子：其中的棋子死亡。" in effects
    teleport = [c for c in found if c.subject == "treasure '龙之钻'"]
    assert any("传送到任意 A 或 B 传送门" in c.says for c in teleport)
    paths = {c.where.path for c in found}
    assert any(p.endswith("templates/dragon-hoard/speed-aid.yaml") for p in paths)
    assert any(p.endswith("templates/dragon-hoard/character-card.yaml") for p in paths)
    assert [(str(c.where), c.says) for c in found if c.probe() is not None] == []


def seeded(method: str, wrong: Callable[..., object]) -> Callable[..., object]:
    """The engine's ``method`` replaced by ``wrong`` (given the original): a bug seeded back."""
    original = getattr(DragonHoardRules, method)

    def seeded_method(self: DragonHoardRules, *args: object) -> object:
        return wrong(original, self, *args)

    return seeded_method


def sideways_ignored(original: Callable[..., None], self: DragonHoardRules, *args: object) -> None:
    """Attacks kill a dodging pawn too: the character card's sideways rule lost."""
    new = args[0]
    assert isinstance(new, DragonHoardState)
    new.sideways = tuple(False for _ in new.sideways)
    original(self, *args)


def one_card_late(original: Callable[..., object], self: DragonHoardRules, *args: object) -> object:
    """The AI card falls one player card later than its marker says."""
    queue = original(self, *args)
    assert isinstance(queue, tuple)
    at = next(i for i, (seat, _) in enumerate(queue) if seat < 0)
    if at + 1 < len(queue):
        queue = (*queue[:at], queue[at + 1], queue[at], *queue[at + 2 :])
    return queue


def test_an_engine_whose_attacks_hit_the_dodging_is_an_error_at_the_dodge_card(
    content_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(DragonHoardRules, "_run_ai", seeded("_run_ai", sideways_ignored))
    problem = only(
        validate(content_copy),
        r"action card '翻滚闪避' prints 「横置你的角色卡：本回合巨龙的攻击和践踏对你无效。」, "
        r"but a sideways pawn on \d+\.\d+ dies",
    )
    assert problem.location.path.endswith("players.yaml")
    assert problem.location.line == line_of(content_copy, "players.yaml", "id: dodge,")


def test_an_ai_card_resolved_later_than_its_speed_is_an_error_at_the_card(
    content_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(
        DragonHoardRules, "_resolution_queue", seeded("_resolution_queue", one_card_late)
    )
    problem = only(
        validate(content_copy),
        r"AI card '霜枪' prints 「速度 2」, but with 8 player cards at 4 players the engine "
        r"executes it after 3, not 2",
    )
    assert problem.location.path.endswith("dragon.yaml")
    assert problem.location.line == line_of(content_copy, "dragon.yaml", "id: frost-lance")


def test_a_printed_strip_the_engine_does_not_hit_is_an_error_at_the_card(
    content_copy: Path,
) -> None:
    # The card's words are read on their own: a strip on the map the engine's area helper
    # stops one cell short of the edge is caught by the pawn left standing there.
    from pnp.games.dragon_hoard import model as dh_model

    cells = dh_model.Area.cells

    def short(
        self: dh_model.Area, lair: dh_model.Lair, dragon: dh_model.Cell
    ) -> frozenset[dh_model.Cell]:
        return frozenset(c for c in cells(self, lair, dragon) if 0 < c[1] < lair.rows - 1)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(dh_model.Area, "cells", short)
        problem = only(
            validate(content_copy),
            r"AI card '冰息' prints 「1\. 攻击巨龙北、南侧与龙身同宽、直到地图边缘的格子："
            r"其中的棋子死亡。」, but with the dragon on C a pawn on 5\.0 lives",
        )
    assert problem.location.path.endswith("dragon.yaml")


def test_a_countdown_later_than_the_round_aid_says_is_an_error_at_its_line(
    content_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    init = DragonHoardRules.__init__

    def one_recall_later(self: DragonHoardRules, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        self.recall_limit += 1

    monkeypatch.setattr(DragonHoardRules, "__init__", one_recall_later)
    problem = only(
        validate(content_copy),
        r"the round aid prints 「第 3 次抽到归位牌（结束倒计时）」, but with 3 recall cards drawn "
        r"the countdown is off after the round",
    )
    assert problem.location.path.endswith("templates/dragon-hoard/round-aid.yaml")
    text = (TEMPLATES / "dragon-hoard/round-aid.yaml").read_text(encoding="utf-8")
    assert "recall_limit" in text.splitlines()[problem.location.line - 1]
