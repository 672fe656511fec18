"""convert, merge_files and describe: exact messages, paths and locations."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pnp.content.schema import convert, describe, merge_files
from pnp.content.yamlsource import MappingNode, Node, load_yaml
from pnp.errors import ContentError, Location
from pnp.games.deadline_99.model import (
    CampSetup,
    Colour,
    Deadline99,
    Effect,
    EffectKind,
    Rank,
    Settings,
)
from pnp.model.common import NOWHERE, PlayerRange, doc


@dataclass(frozen=True)
class Knobs:
    """A small model exercising the types Deadline 99 does not use."""

    ratio: float = field(metadata=doc("a number"))
    nickname: str | None = field(default=None, metadata=doc("may be null"))
    colours: tuple[Colour, ...] = field(default=(), metadata=doc("colours"))
    enabled: bool = field(default=True, metadata=doc("switch"))
    where: Location = field(default=NOWHERE, compare=False, repr=False)


def load(tmp_path: Path, text: str, name: str = "game.yaml") -> Node:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_yaml(path, name)


def problems(node: Node, target: type, path_label: str = "") -> list[str]:
    with pytest.raises(ContentError) as caught:
        convert(node, target, path_label)
    return [str(problem) for problem in caught.value.problems]


SETTINGS = "hand_size: 5\ncount_start: 0\ncount_cap: 99\ncount_floor: 0\n"


def test_settings_happy_path(tmp_path: Path) -> None:
    settings = convert(load(tmp_path, SETTINGS), Settings)
    assert settings == Settings(hand_size=5, count_start=0, count_cap=99, count_floor=0)
    assert settings.where == Location("game.yaml", 1, 1)


def test_nested_dataclasses_tuples_and_dicts(tmp_path: Path) -> None:
    text = (
        "ranks:\n"
        "  - id: '3'\n"
        "    label: '3'\n"
        "    name: 三\n"
        "    effect: {kind: add, amount: 3}\n"
        "  - id: j\n"
        "    label: J\n"
        "    name: 杰克\n"
        "    effect:\n"
        "      kind: choose_next\n"
        "setups:\n"
        "  - players: 5\n"
        "    identities: {king: 1, minister: 1, agent: 3}\n"
    )
    root = load(tmp_path, text)
    assert isinstance(root, MappingNode)
    ranks = convert(root.entries["ranks"][1], tuple[Rank, ...], "ranks")
    assert [rank.id for rank in ranks] == ["3", "j"]
    assert ranks[0].effect == Effect(kind=EffectKind.ADD, amount=3)
    assert ranks[1].effect.kind is EffectKind.CHOOSE_NEXT
    assert ranks[1].effect.draw == 1  # the default
    assert ranks[1].where == Location("game.yaml", 6, 5)
    assert ranks[1].effect.where == Location("game.yaml", 10, 7)
    [setup] = convert(root.entries["setups"][1], tuple[CampSetup, ...], "setups")
    assert setup.identities == {"king": 1, "minister": 1, "agent": 3}
    assert setup.where.line == 12


def test_where_is_filled_and_never_read(tmp_path: Path) -> None:
    node = load(tmp_path, SETTINGS + "where: here\n")
    assert problems(node, Settings, "settings") == [
        "game.yaml:5:1: settings: unknown key 'where' "
        "(known keys: hand_size, count_start, count_cap, count_floor)"
    ]


def test_unknown_key_suggests_the_close_one(tmp_path: Path) -> None:
    node = load(tmp_path, SETTINGS.replace("hand_size", "hnad_size"))
    assert problems(node, Settings, "settings") == [
        "game.yaml:1:1: settings: unknown key 'hnad_size' (did you mean 'hand_size'?)",
        "game.yaml:1:1: settings: missing required key 'hand_size' (cards dealt to each player)",
    ]


def test_unknown_key_at_its_own_column(tmp_path: Path) -> None:
    node = load(
        tmp_path,
        "settings:\n  hand_size: 5\n  count_start: 0\n  count_cap: 99\n"
        "  count_floor: 0\n  cap: 1\n",
    )
    assert isinstance(node, MappingNode)
    assert problems(node.entries["settings"][1], Settings, "settings") == [
        "game.yaml:6:3: settings: unknown key 'cap' (did you mean 'count_cap'?)"
    ]


def test_missing_required_key_names_its_doc(tmp_path: Path) -> None:
    node = load(tmp_path, "\n" + SETTINGS.replace("hand_size: 5\n", ""))
    assert problems(node, Settings, "settings") == [
        "game.yaml:2:1: settings: missing required key 'hand_size' (cards dealt to each player)"
    ]


def test_wrong_type_at_the_value(tmp_path: Path) -> None:
    node = load(tmp_path, SETTINGS.replace("count_cap: 99", "count_cap: x"))
    assert problems(node, Settings, "settings") == [
        "game.yaml:3:12: settings.count_cap: expected an integer, got 'x'"
    ]


def test_no_path_label_means_bare_key_paths(tmp_path: Path) -> None:
    node = load(tmp_path, SETTINGS.replace("count_cap: 99", "count_cap: x"))
    assert problems(node, Settings) == ["game.yaml:3:12: count_cap: expected an integer, got 'x'"]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("true", "expected an integer, got true"),
        ("5.5", "expected an integer, got 5.5"),
        ("'5'", "expected an integer, got '5' (remove the quotes)"),
        ("", "expected an integer, got null"),
        ("[5]", "expected an integer, got a list"),
        ("{n: 5}", "expected an integer, got a mapping"),
    ],
)
def test_integer_rejects(tmp_path: Path, value: str, message: str) -> None:
    node = load(tmp_path, SETTINGS.replace("hand_size: 5", f"hand_size: {value}"))
    [problem] = problems(node, Settings)
    assert problem.endswith(f": hand_size: {message}")
    assert problem.startswith("game.yaml:1:")


def test_quoted_three_stays_a_string(tmp_path: Path) -> None:
    node = load(tmp_path, "id: '3'\nlabel: \"3\"\nname: 三\neffect: {kind: add, amount: 3}\n")
    rank = convert(node, Rank)
    assert rank.id == "3"
    assert rank.label == "3"


def test_unquoted_three_for_a_string_asks_for_quotes(tmp_path: Path) -> None:
    node = load(tmp_path, "id: 3\nlabel: '3'\nname: 三\neffect: {kind: add, amount: 3}\n")
    assert problems(node, Rank, "ranks[0]") == [
        "game.yaml:1:5: ranks[0].id: expected a string, got 3 (quote it: '3')"
    ]


def test_yes_for_a_string_shows_what_was_written(tmp_path: Path) -> None:
    node = load(tmp_path, "id: yes\nlabel: '3'\nname: 三\neffect: {kind: add}\n")
    assert problems(node, Rank) == [
        "game.yaml:1:5: id: expected a string, got yes (quote it: 'yes')"
    ]


def test_bad_enum_lists_allowed_values(tmp_path: Path) -> None:
    node = load(tmp_path, "kind: ad\n")
    assert problems(node, Effect, "effect") == [
        "game.yaml:1:7: effect.kind: expected one of add / add_or_subtract / set_to_cap / "
        "choose_next / reverse / steal_random / swap_hands / bonus_draw / eliminate_self, "
        "got 'ad' (did you mean 'add'?)"
    ]


def test_enum_suggestion_ignores_case(tmp_path: Path) -> None:
    node = load(tmp_path, "colours: [RED]\nratio: 1\n")
    assert problems(node, Knobs) == [
        "game.yaml:1:11: colours[0]: expected one of red / black, got 'RED' (did you mean 'red'?)"
    ]


def test_nested_path_labels(tmp_path: Path) -> None:
    text = (
        "- {id: a, label: A, name: 甲, effect: {kind: add}}\n"
        "- id: b\n"
        "  label: B\n"
        "  name: 乙\n"
        "  effect:\n"
        "    kind: swap\n"
    )
    assert problems(load(tmp_path, text), tuple[Rank, ...], "ranks") == [
        "game.yaml:6:11: ranks[1].effect.kind: expected one of add / add_or_subtract / "
        "set_to_cap / choose_next / reverse / steal_random / swap_hands / bonus_draw / "
        "eliminate_self, got 'swap' (did you mean 'swap_hands'?)"
    ]


def test_every_problem_is_collected_in_document_order(tmp_path: Path) -> None:
    text = (
        "- id: a\n"
        "  label: 1\n"
        "  name: 甲\n"
        "  effect: {kind: add, amount: x}\n"
        "- id: b\n"
        "  nmae: 乙\n"
        "  label: B\n"
        "  effect: {kind: adds}\n"
    )
    assert problems(load(tmp_path, text), tuple[Rank, ...], "ranks") == [
        "game.yaml:2:10: ranks[0].label: expected a string, got 1 (quote it: '1')",
        "game.yaml:4:31: ranks[0].effect.amount: expected an integer, got 'x'",
        "game.yaml:5:3: ranks[1]: missing required key 'name' (the card's name on its face)",
        "game.yaml:6:3: ranks[1]: unknown key 'nmae' (did you mean 'name'?)",
        "game.yaml:8:18: ranks[1].effect.kind: expected one of add / add_or_subtract / "
        "set_to_cap / choose_next / reverse / steal_random / swap_hands / bonus_draw / "
        "eliminate_self, got 'adds' (did you mean 'add'?)",
    ]


def test_dict_values_are_checked_with_their_key_in_the_path(tmp_path: Path) -> None:
    node = load(tmp_path, "players: 5\nidentities:\n  king: 1\n  agent: three\n")
    assert problems(node, CampSetup, "camp_mode.setups[2]") == [
        "game.yaml:4:10: camp_mode.setups[2].identities.agent: expected an integer, got 'three'"
    ]


def test_dict_string_keys_are_taken_as_written(tmp_path: Path) -> None:
    node = load(tmp_path, "players: 5\nidentities: {3: 1, true: 2}\n")
    assert convert(node, CampSetup).identities == {"3": 1, "true": 2}


def test_list_expected(tmp_path: Path) -> None:
    node = load(tmp_path, "ranks: {id: a}\n")
    assert isinstance(node, MappingNode)
    assert problems(node.entries["ranks"][1], tuple[Rank, ...], "ranks") == [
        "game.yaml:1:8: ranks: expected a list, got a mapping"
    ]


def test_float_accepts_int_and_optional_accepts_null(tmp_path: Path) -> None:
    knobs = convert(load(tmp_path, "ratio: 2\nnickname: ~\ncolours: [red, black]\n"), Knobs)
    assert knobs.ratio == 2.0
    assert type(knobs.ratio) is float
    assert knobs.nickname is None
    assert knobs.colours == (Colour.RED, Colour.BLACK)
    assert knobs.enabled is True


def test_optional_still_checks_its_type(tmp_path: Path) -> None:
    node = load(tmp_path, "ratio: 1.5\nnickname: [a]\nenabled: 1\n")
    assert problems(node, Knobs) == [
        "game.yaml:2:11: nickname: expected a string, got a list",
        "game.yaml:3:10: enabled: expected true or false, got 1",
    ]


def test_root_must_be_a_mapping(tmp_path: Path) -> None:
    assert problems(load(tmp_path, "- a\n"), Settings) == [
        "game.yaml:1:1: expected a mapping, got a list"
    ]


def test_merge_files_rejects_a_key_defined_twice(tmp_path: Path) -> None:
    cards = load(tmp_path, "suits: []\n\nranks: []\n", "cards.yaml")
    rules = load(tmp_path, "settings: {}\nranks: []\n", "rules.yaml")
    with pytest.raises(ContentError) as caught:
        merge_files([cards, rules])
    assert [str(p) for p in caught.value.problems] == [
        "rules.yaml:2:1: key 'ranks' is defined in cards.yaml:3 and again here"
    ]


def test_merge_files_rejects_a_file_that_is_not_a_mapping(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as caught:
        merge_files([load(tmp_path, "- a\n", "list.yaml")])
    assert [str(p) for p in caught.value.problems] == [
        "list.yaml:1:1: expected a mapping of top-level keys, got a list"
    ]


DEADLINE_INFO = """\
info:
  slug: deadline-99
  title: 死线99
  players: {min: 2, max: 8}
settings: {hand_size: 5, count_start: 0, count_cap: 99, count_floor: 0}
kit_decks: 2
deck_rules:
  - {players: {min: 2, max: 5}, decks: 1}
  - {players: {min: 6, max: 8}, decks: 2}
"""

DEADLINE_CARDS = """\
suits:
  - {id: spade, name: 黑桃, symbol: ♠, colour: black}
  - {id: heart, name: 红心, symbol: ♥, colour: red}
ranks:
  - {id: '4', label: '4', name: 四, effect: {kind: add, amount: 4}}
  - {id: k, label: K, name: 国王, effect: {kind: set_to_cap}}
camp_mode:
  players: {min: 5, max: 5}
  identities:
    - {id: king, name: 国王, camp: red, role: king, copies: 1, text: 你是国王}
  setups:
    - players: 5
      identities: {king: 1}
variant_cards: []
reference_cards: []
trackers:
  - {id: track, name: 计数板, columns: 10}
products:
  - {id: cards, title: 扑克牌, kind: cards, items: playing_cards, face: d99/face.html}
"""


def test_whole_game_from_two_files(tmp_path: Path) -> None:
    info = load(tmp_path, DEADLINE_INFO, "info.yaml")
    cards = load(tmp_path, DEADLINE_CARDS, "cards.yaml")
    game = convert(merge_files([info, cards]), Deadline99)
    assert game.info.players == PlayerRange(2, 8)
    assert game.settings.count_cap == 99
    assert game.cards_per_deck == 4
    assert game.decks_for(7) == 2
    assert game.ranks[1].effect.kind is EffectKind.SET_TO_CAP
    assert game.ranks[1].where == Location("cards.yaml", 6, 5)
    assert game.camp_setup_for(5) == CampSetup(players=5, identities={"king": 1})
    assert game.trackers[0].copies == 1
    assert game.decisions == ()


def test_whole_game_reports_missing_top_level_keys_at_the_merge(tmp_path: Path) -> None:
    info = load(tmp_path, DEADLINE_INFO, "info.yaml")
    merged = merge_files([info], where=Location("deadline-99"))
    messages = problems(merged, Deadline99)
    assert "deadline-99: missing required key 'suits' (the four suits)" in messages
    assert "deadline-99: missing required key 'products' (the files of the printed kit)" in messages
    assert len(messages) == 7


def test_describe_lists_keys_types_and_docs() -> None:
    assert describe(CampSetup) == [
        ("players", "integer", "player count"),
        ("identities", "mapping of string to integer", "identity id -> cards in the deal"),
    ]
    rows = dict((key, type_text) for key, type_text, _ in describe(Knobs))
    assert rows == {
        "ratio": "number",
        "nickname": "string or null, optional",
        "colours": "list of one of red / black, optional",
        "enabled": "boolean, optional",
    }
    assert ("ranks", "list of Rank", "the ranks kept in the deck and their effects") in describe(
        Deadline99
    )
