"""tuning.yaml: the numbers a selector picks, every mistake located, and a number changed in
place without disturbing the rest of its file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.schema import convert, merge_files
from pnp.content.tuning import Number, check_tuning, splice, tunable_numbers
from pnp.content.yamlsource import MappingNode, load_yaml
from pnp.errors import PnpError, Problem
from pnp.model.tuning import Tuning
from tests.conftest import CONTENT

CARDS = """\
# 卡牌
settings:
  life: 18   # 原帖
cards:
  - {id: flame, name: 烈火冲拳, colour: red, type: damage, cost: 2, damage: 3}
  - {id: seed, name: 火种, colour: red, type: non_damage, cost: 1}
  - {id: wind, name: 风刃, colour: cyan, type: damage, cost: "1", damage: 2}
  - id: palm
    colour: red
    type: damage
    cost: 7
    damage: 2.5
    steps:
      - {pay: [{weapons: 2}]}
"""


def numbers_of(tmp_path: Path, tuning: str) -> tuple[list[Number], list[Problem]]:
    (tmp_path / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (tmp_path / "tuning.yaml").write_text(tuning, encoding="utf-8")
    root = merge_files(
        [
            load_yaml(tmp_path / "cards.yaml", "g/cards.yaml"),
            load_yaml(tmp_path / "tuning.yaml", "g/tuning.yaml"),
        ]
    )
    node = root.get("tuning")
    assert isinstance(node, MappingNode)
    return tunable_numbers(root, convert(node, Tuning, "tuning"))


def at(line: int, before: str) -> str:
    """``g/cards.yaml:LINE:COLUMN`` of the value written right after ``before`` on that line
    (columns count characters, as the YAML reader does)."""
    text = CARDS.splitlines()[line - 1]
    return f"g/cards.yaml:{line}:{text.index(before) + len(before) + 1}"


def messages(problems: list[Problem]) -> list[str]:
    return [f"{problem.location}: {problem.message}" for problem in problems]


def test_a_selector_picks_each_matching_items_number_where_it_is_written(tmp_path: Path) -> None:
    numbers, problems = numbers_of(
        tmp_path,
        "tuning:\n  tunable:\n"
        "    - {at: cards, match: {colour: red, type: damage}, field: damage, min: 1, max: 6}\n"
        "    - {at: cards, match: {id: palm}, field: steps.0.pay.0.weapons, min: 1, max: 4}\n",
    )
    assert [(n.label, n.value, str(n.where)) for n in numbers] == [
        ("cards[flame].damage", 3, at(5, "damage: ")),
        ("cards[palm].steps.0.pay.0.weapons", 2, at(14, "weapons: ")),
    ]
    # cards[palm].damage is 2.5: not a plain integer, located at the value.
    assert messages(problems) == [
        f"{at(12, 'damage: ')}: cards[palm].damage: tuning.tunable[0] makes it tunable, but it "
        "is not a plain integer"
    ]


@pytest.mark.parametrize(
    ("entry", "expected"),
    [
        (
            "{at: card, field: cost, min: 0, max: 5}",
            "g/tuning.yaml:3:7: tuning.tunable[0]: the content has no key 'card' "
            "(did you mean 'cards'?)",
        ),
        (
            "{at: cards, match: {colour: pink}, field: cost, min: 0, max: 5}",
            "g/tuning.yaml:3:7: tuning.tunable[0]: no item of 'cards' has colour=pink",
        ),
        (
            "{at: cards, match: {colour: red}, field: cots, min: 0, max: 5}",
            "g/tuning.yaml:3:7: tuning.tunable[0]: no picked item has the key 'cots' "
            "(did you mean 'cost'?)",
        ),
        (
            "{at: cards, match: {colour: cyan}, field: cost, min: 0, max: 5}",
            f"{at(7, 'cost: ')}: cards[wind].cost: tuning.tunable[0] makes it tunable, but it "
            "is not a plain integer",
        ),
        (
            "{at: cards, match: {id: palm}, field: cost, min: 0, max: 5}",
            f"{at(11, 'cost: ')}: cards[palm].cost is 7, outside its tunable bounds 0..5 "
            "(g/tuning.yaml:3:7)",
        ),
        (
            "{at: cards, field: cost, min: 5, max: 0}",
            "g/tuning.yaml:3:7: tuning.tunable[0]: min 5 is above max 0",
        ),
        (
            "{at: settings, field: life, min: 10, max: 24}\n  fixed:\n"
            "    - {at: settings, fields: [life], reason: the post}",
            "g/tuning.yaml:3:7: tuning.tunable[0]: settings.life is fixed by tuning.fixed at "
            "g/tuning.yaml:5:7 (the post); narrow the selector so it leaves it out",
        ),
        (
            "{at: cards, match: {id: flame}, field: cost, min: 0, max: 5}\n"
            "    - {at: cards, match: {type: damage, colour: red}, field: cost, min: 0, max: 9}",
            "g/tuning.yaml:4:7: tuning.tunable[1]: cards[flame].cost is already tunable through "
            "the entry at g/tuning.yaml:3:7; one entry per number",
        ),
    ],
)
def test_every_mistake_of_tuning_is_located(tmp_path: Path, entry: str, expected: str) -> None:
    _, problems = numbers_of(tmp_path, f"tuning:\n  tunable:\n    - {entry}\n")
    assert expected in messages(problems)


def test_a_number_changes_in_place_and_nothing_else_does(tmp_path: Path) -> None:
    numbers, _ = numbers_of(
        tmp_path,
        "tuning:\n  tunable:\n"
        "    - {at: cards, match: {id: flame}, field: cost, min: 0, max: 12}\n"
        "    - {at: cards, match: {id: flame}, field: damage, min: 0, max: 12}\n",
    )
    cost, damage = numbers
    after = splice(CARDS, [(cost, 10), (damage, 1)], "g/cards.yaml")
    assert after == CARDS.replace("cost: 2, damage: 3", "cost: 10, damage: 1")
    # The file changed since the number was read: refused, located, nothing made up.
    with pytest.raises(PnpError, match=r"g/cards.yaml:5:\d+: expected cards\[flame\].cost = 2"):
        splice(CARDS.replace("cost: 2,", "cost: 4,"), [(cost, 3)], "g/cards.yaml")


def test_the_shipped_tuning_files_are_clean() -> None:
    from pnp.content.loader import load_game

    for slug in ("arena-tales", "maquis"):
        assert check_tuning(load_game(CONTENT, slug)) == []
