"""load_yaml: a node tree with 1-based locations, and every problem reported with one."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from pnp.content import yamlsource
from pnp.content.yamlsource import MappingNode, Node, ScalarNode, SequenceNode, load_yaml
from pnp.errors import ContentError, Location


def write(tmp_path: Path, text: str, name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def load(tmp_path: Path, text: str) -> Node:
    return load_yaml(write(tmp_path, text), "game.yaml")


def problems_of(tmp_path: Path, text: str) -> list[str]:
    with pytest.raises(ContentError) as caught:
        load(tmp_path, text)
    return [str(problem) for problem in caught.value.problems]


def scalar(node: Node | None) -> ScalarNode:
    assert isinstance(node, ScalarNode)
    return node


def test_scalars_resolve_like_the_safe_loader(tmp_path: Path) -> None:
    root = load(tmp_path, "a: 3\nb: '3'\nc: \"3\"\nd: 3.5\ne: true\nf: ~\ng:\nh: 名\n")
    assert isinstance(root, MappingNode)
    values = {key: scalar(root.get(key)).value for key in root}
    assert values == {
        "a": 3,
        "b": "3",
        "c": "3",
        "d": 3.5,
        "e": True,
        "f": None,
        "g": None,
        "h": "名",
    }
    assert type(values["a"]) is int
    assert scalar(root.get("b")).quoted
    assert not scalar(root.get("a")).quoted
    assert scalar(root.get("a")).text == "3"


def test_nodes_keep_one_based_line_and_column(tmp_path: Path) -> None:
    root = load(tmp_path, "# comment\nranks:\n  - id: j\n    name: 杰克\n")
    assert isinstance(root, MappingNode)
    assert root.key_where("ranks") == Location("game.yaml", 2, 1)
    ranks = root.get("ranks")
    assert isinstance(ranks, SequenceNode)
    first = ranks.items[0]
    assert isinstance(first, MappingNode)
    assert (first.line, first.column) == (3, 5)
    assert first.where == Location("game.yaml", 3, 5)
    assert scalar(first.get("name")).where == Location("game.yaml", 4, 11)


def test_mapping_keeps_written_order(tmp_path: Path) -> None:
    root = load(tmp_path, "z: 1\na: 2\nm: 3\n")
    assert isinstance(root, MappingNode)
    assert list(root) == ["z", "a", "m"]
    assert len(root) == 3
    assert "a" in root
    assert root.get("missing") is None


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n"])
def test_empty_file_is_an_empty_mapping(tmp_path: Path, text: str) -> None:
    root = load(tmp_path, text)
    assert isinstance(root, MappingNode)
    assert len(root) == 0
    assert root.where == Location("game.yaml", 1, 1)


def test_syntax_error_names_line_and_column(tmp_path: Path) -> None:
    assert problems_of(tmp_path, "hand_size: 5\ncount_cap: 99: 1\n") == [
        "game.yaml:2:14: yaml syntax error: mapping values are not allowed here"
    ]


def test_unclosed_flow_sequence(tmp_path: Path) -> None:
    assert problems_of(tmp_path, "suits: [spade, heart\nranks: []\n") == [
        "game.yaml:2:6: yaml syntax error: expected ',' or ']', but got ':'"
    ]


def test_second_document_is_a_syntax_error(tmp_path: Path) -> None:
    assert problems_of(tmp_path, "a: 1\n---\nb: 2\n") == [
        "game.yaml:2:1: yaml syntax error: "
        "expected a single document in the stream, but found another document"
    ]


def test_syntax_messages_do_not_depend_on_libyaml(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "hand_size: 5\ncount_cap: 99: 1\n"
    fast = problems_of(tmp_path, text)
    monkeypatch.setattr(yamlsource, "_FAST_LOADER", yaml.SafeLoader)
    assert problems_of(tmp_path, text) == fast


def test_fast_and_pure_loaders_build_the_same_tree(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "a: [1, '2', {b: c}]\nd:\n  e: 2024-01-01\n  f: 0x10\n"
    fast = load(tmp_path, text)
    monkeypatch.setattr(yamlsource, "_FAST_LOADER", yaml.SafeLoader)
    assert load(tmp_path, text) == fast


def test_duplicate_keys_are_all_reported(tmp_path: Path) -> None:
    text = "a: 1\nb:\n  c: 1\n  c: 2\na: 3\n"
    assert problems_of(tmp_path, text) == [
        "game.yaml:4:3: duplicate key 'c' (first defined at line 3)",
        "game.yaml:5:1: duplicate key 'a' (first defined at line 1)",
    ]


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ContentError) as caught:
        load_yaml(tmp_path / "absent.yaml", "games/absent.yaml")
    [problem] = caught.value.problems
    assert problem.location == Location("games/absent.yaml")
    assert problem.message == "no such file"


def test_invalid_utf8_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_bytes(b"a: 1\nb: caf\xe9\n")
    with pytest.raises(ContentError) as caught:
        load_yaml(path, "game.yaml")
    assert [str(p) for p in caught.value.problems] == [
        "game.yaml:2:7: file is not valid UTF-8 text"
    ]


def test_python_tags_are_refused(tmp_path: Path) -> None:
    assert problems_of(tmp_path, "a: !!python/name:os.system x\n") == [
        "game.yaml:1:4: unsupported yaml tag tag:yaml.org,2002:python/name:os.system"
    ]


def test_merge_keys_are_refused(tmp_path: Path) -> None:
    assert problems_of(tmp_path, "base: &b {x: 1}\nc:\n  <<: *b\n") == [
        "game.yaml:3:3: merge keys (<<) are not supported; write the keys out"
    ]


def test_aliases_are_shared(tmp_path: Path) -> None:
    root = load(tmp_path, "a: &e {kind: add}\nb: *e\n")
    assert isinstance(root, MappingNode)
    assert root.get("a") is root.get("b")


def test_self_referring_alias_is_a_problem(tmp_path: Path) -> None:
    assert problems_of(tmp_path, "a: &x [*x]\n") == [
        "game.yaml:1:4: an alias cannot refer to its own anchor"
    ]


def test_a_file_over_the_size_limit_is_refused_before_parsing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(yamlsource, "MAX_FILE_BYTES", 100)
    assert problems_of(tmp_path, "a: " + "x" * 200 + "\n") == [
        "game.yaml: file is 204 bytes; content files may be at most 100 bytes"
    ]


def test_nesting_deeper_than_the_limit_is_refused_with_its_line(tmp_path: Path) -> None:
    deep = "a:\n" + "".join("  " * (level + 1) + "- \n" for level in range(40))
    problems = problems_of(tmp_path, deep)
    assert len(problems) == 1
    assert problems[0].startswith("game.yaml:")
    assert "nesting deeper than 32 levels" in problems[0]
    flow = "a: " + "[" * 100 + "]" * 100 + "\n"
    assert "nesting deeper than 32 levels" in problems_of(tmp_path, flow)[0]


def test_a_billion_laughs_file_is_refused(tmp_path: Path) -> None:
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 10) + "]" for i in range(1, 9)]
    problems = problems_of(tmp_path, "\n".join(lines) + "\n")
    assert (
        len(problems) == 1
        and "aliases expand this file to more than 200,000 values" in (problems[0])
    )


def test_an_edited_file_loads_its_new_values_and_a_copy_its_own_locations(tmp_path: Path) -> None:
    # Loads of the same bytes are kept; an edit, or the same text under another name, is
    # never answered with what was kept for other bytes or another file.
    path = write(tmp_path, "cost: 3\n")
    before = load_yaml(path, "game.yaml")
    assert isinstance(before, MappingNode) and scalar(before.get("cost")).value == 3
    path.write_text("cost: 4\n", encoding="utf-8")
    first = load_yaml(path, "game.yaml")
    assert isinstance(first, MappingNode) and scalar(first.get("cost")).value == 4
    other = load_yaml(path, "copy/game.yaml")
    assert isinstance(other, MappingNode)
    assert other.key_where("cost") == Location("copy/game.yaml", 1, 1)


def _plain(node: Node) -> object:
    if isinstance(node, MappingNode):
        return {key: _plain(value) for key, (_, value) in node.entries.items()}
    if isinstance(node, SequenceNode):
        return [_plain(item) for item in node.items]
    return scalar(node).value


def _paths(node: Node) -> set[str]:
    if isinstance(node, MappingNode):
        keys = {key.path for key, _ in node.entries.values()}
        return {node.path} | keys | set().union(*(_paths(v) for _, v in node.entries.values()))
    if isinstance(node, SequenceNode):
        return {node.path}.union(*(_paths(item) for item in node.items))
    return {node.path}


def test_a_copy_of_a_file_reads_as_the_original_with_every_place_its_own(tmp_path: Path) -> None:
    # The same bytes in another folder (a copy of the content) are placed from the tree kept
    # for them: every value as read there, every node, key and alias naming the copy.
    text = (
        "base: &stats {hp: 20, tags: [a, 'b']}\n"
        "cards:\n  - {id: one, stats: *stats}\n  - {id: two, at: 2.5, none: ~}\n"
    )
    path = write(tmp_path, text)
    original = load_yaml(path, "content/game/cards.yaml")
    copy = load_yaml(path, "/tmp/copy/game/cards.yaml")
    assert _paths(original) == {"content/game/cards.yaml"}
    assert _paths(copy) == {"/tmp/copy/game/cards.yaml"}
    assert _plain(copy) == _plain(original) == yaml.safe_load(text)
    assert isinstance(copy, MappingNode) and isinstance(original, MappingNode)
    cards = copy.get("cards")
    assert isinstance(cards, SequenceNode) and isinstance(cards.items[1], MappingNode)
    assert cards.items[1].key_where("at") == Location("/tmp/copy/game/cards.yaml", 4, 15)
    first = cards.items[0]
    assert isinstance(first, MappingNode) and first.get("stats") is copy.get("base")


def test_a_mistake_in_a_copy_is_reported_in_the_copy(tmp_path: Path) -> None:
    path = write(tmp_path, "cost: 3\ncost: 4\n")
    for name in ("content/game.yaml", "copy/game.yaml"):
        with pytest.raises(ContentError) as caught:
            load_yaml(path, name)
        assert [str(p) for p in caught.value.problems] == [
            f"{name}:2:1: duplicate key 'cost' (first defined at line 1)"
        ]
