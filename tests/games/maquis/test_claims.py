"""What the MAQUIS kit prints, held against its engine (pnp.games.maquis.claims): every board
space's cost and reward with the slash rule, the star shields, the vacant houses and airdrop
zones, the patrol cards' spaces in order, the mission cards' numbered boxes and what each
difficulty level changes; an engine that does otherwise is a located finding."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from pnp.content.loader import load_game
from pnp.games.maquis.claims import claims
from pnp.games.maquis.model import Maquis
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import MaquisState
from tests.conftest import CONTENT, TEMPLATES
from tests.validate.seeding import Seeding, only

SEEDING = Seeding("maquis", games=2)
validate, line_of = SEEDING.validate, SEEDING.line_of


@pytest.fixture(scope="module")
def model() -> Maquis:
    return load_game(CONTENT, "maquis").model


def test_every_space_card_and_level_is_a_claim_and_the_engine_keeps_them(model: Maquis) -> None:
    found = claims(model, TEMPLATES)
    printed = [
        *(loc for loc in model.locations if loc.action or loc.kind.value in ("vacant", "airdrop")),
        *model.patrol_cards,
        *model.difficulties,
    ]
    for component in printed:
        assert any(c.where == component.where for c in found), component.id
    for mission in model.missions:
        assert sum(c.subject == f"mission card {mission.name!r}" for c in found) == len(
            mission.steps
        )
    harder = {c.says for c in found if c.subject == "difficulty '较难'"}
    assert "到第 12 天结束（这一格照常扣士气）" in harder
    summary = {c.says for c in found if c.subject == "the round summary"}
    assert any("士兵不能被击杀" in says for says in summary)
    assert "被捕士气 -1" in {c.says for c in found if c.subject == "difficulty '非常难'"}
    assert [(str(c.where), c.says) for c in found if c.probe() is not None] == []


def seeded(tweak: Callable[[MaquisRules], None]) -> Callable[..., None]:
    """MaquisRules.__init__, then ``tweak`` of the engine: a bug seeded back."""
    init = MaquisRules.__init__

    def seeded_init(self: MaquisRules, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)  # type: ignore[arg-type]
        tweak(self)

    return seeded_init


def no_shields(rules: MaquisRules) -> None:
    rules.locs = tuple(replace(loc, shield=False) for loc in rules.locs)


def last_day_free(rules: MaquisRules) -> None:
    # Issue 28, item 3: the harder levels' last day, printed orange, cost no morale.
    if rules.level.end_day:
        rules._drop_days = rules._drop_days - {rules.level.end_day}


def soldiers_killable(rules: MaquisRules) -> None:
    targets = rules.kill_targets

    def with_soldiers(s: MaquisState) -> list[int]:
        return targets(replace(s, board=s.board.replace("S", "P")))

    rules.kill_targets = with_soldiers  # type: ignore[method-assign]


def patrols_from_the_back(rules: MaquisRules) -> None:
    rules.card_locs = tuple(tuple(reversed(locs)) for locs in rules.card_locs)


@pytest.mark.parametrize(
    ("tweak", "pattern", "name", "needle"),
    [
        (
            no_shields,
            r"board space '教堂' prints 「★ 橙色星盾：被捕也保留奖励」, but a worker arrested "
            r"there changes stock and morale by \{'food': -1\}, not \{'food': -1, 'morale': 1\}",
            "board.yaml",
            "id: church",
        ),
        (
            last_day_free,
            r"difficulty '较难' prints 「到第 12 天结束（这一格照常扣士气）」, but entering day 12 "
            r"costs 0 morale",
            "game.yaml",
            "id: harder",
        ),
        (
            soldiers_killable,
            r"the round summary prints 「每回合 1 次[^」]*士兵不能被击杀」, but with a police "
            r"figure on tavern and smuggler and a soldier on town-hall the engine offers kills on "
            r"\['smuggler', 'tavern', 'town-hall'\]",
            "templates/maquis/round-summary.yaml",
            "击杀警察",
        ),
        (
            patrols_from_the_back,
            r"patrol card 'patrol-01' prints 「广场 → 电台 → 黑市」, but with nothing taken the "
            r"patrol goes elsewhere",
            "cards.yaml",
            "id: patrol-01",
        ),
    ],
)
def test_an_engine_that_plays_a_printed_rule_otherwise_is_an_error_where_it_is_printed(
    content_copy: Path,
    monkeypatch: pytest.MonkeyPatch,
    tweak: Callable[[MaquisRules], None],
    pattern: str,
    name: str,
    needle: str,
) -> None:
    monkeypatch.setattr(MaquisRules, "__init__", seeded(tweak))
    problem = only(validate(content_copy), pattern)
    assert problem.location.path.endswith(name)
    if name.startswith("templates/"):
        lines = (TEMPLATES / name.removeprefix("templates/")).read_text(encoding="utf-8")
        assert needle in lines.splitlines()[problem.location.line - 1]
    else:
        assert problem.location.line == line_of(content_copy, name, needle)


def test_a_printed_cost_the_engine_does_not_charge_is_an_error_at_the_space(
    content_copy: Path,
) -> None:
    # The printed text changed in a copy of the content, the engine's table kept: the town
    # hall prints two food, the engine (reading the shipped cost) still takes one.
    SEEDING.edit(
        content_copy,
        "board.yaml",
        "action: {pay: [{food: 1}], gain: [{resources: {information: 2}}]}",
        "action: {pay: [{food: 2}], gain: [{resources: {information: 2}}]}",
    )
    shipped = load_game(CONTENT, "maquis").model
    init = MaquisRules.__init__

    def engine_of_the_shipped_content(
        self: MaquisRules, model: Maquis, *args: object, **kwargs: object
    ) -> None:
        init(self, shipped, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MaquisRules, "__init__", engine_of_the_shipped_content)
        problem = only(
            validate(content_copy),
            r"board space '市政厅' prints 「2 食物 → 2 情报」, but with 1 食物 in stock \(one "
            r"食物 short\) the engine offers \['p0g0'\]",
        )
    assert problem.location.path.endswith("board.yaml")
