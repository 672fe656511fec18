"""Reads a YAML file into a light tree of nodes that remember where each value was written.

Only YAML's safe machinery is used: no tag can build an arbitrary Python object. Every problem
(unreadable file, syntax error, duplicate key, unsupported tag) becomes a `Problem` with a line
and column, raised together in one `ContentError`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from pnp.content.sources import read_file
from pnp.errors import ContentError, Location, Problem

# libyaml composes several times faster and its marks carry the same line and column.
_FAST_LOADER: type = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_MAP_TAG = "tag:yaml.org,2002:map"
_SEQ_TAG = "tag:yaml.org,2002:seq"
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"
# Scalar tags whose safe constructors build collections, which a scalar node cannot hold.
_COLLECTION_TAGS = frozenset(
    {
        _MAP_TAG,
        _SEQ_TAG,
        "tag:yaml.org,2002:set",
        "tag:yaml.org,2002:omap",
        "tag:yaml.org,2002:pairs",
    }
)

MAX_FILE_BYTES = 1024 * 1024
"""Largest content file read (the largest shipped one is about 36 KB)."""
MAX_DEPTH = 32
"""Deepest nesting of mappings and lists a content file may have (the shipped ones use 6)."""
MAX_VALUES = 200_000
"""Most values a content file may hold once its aliases are expanded."""

# Scalar constructors of the safe loader use no state of the instance beyond construct_scalar.
_CONSTRUCTOR = SafeConstructor()


@dataclass(frozen=True, slots=True)
class Node:
    """A YAML value and where it starts: display path, 1-based line and column."""

    path: str
    line: int
    column: int

    @property
    def where(self) -> Location:
        # Built on demand: most nodes never need one, and making thousands shows in load time.
        return Location(self.path, self.line, self.column)


@dataclass(frozen=True, slots=True)
class ScalarNode(Node):
    """A scalar resolved as the safe loader would: "3" stays str, 3 is int, ~ is None."""

    value: object
    text: str
    """The scalar as written, without quotes; used to suggest quoting."""
    quoted: bool = False


@dataclass(frozen=True, slots=True)
class SequenceNode(Node):
    items: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class MappingNode(Node):
    """A mapping in written order; each key keeps its own node, so its own location."""

    entries: dict[str, tuple[ScalarNode, Node]]

    def get(self, key: str) -> Node | None:
        entry = self.entries.get(key)
        return entry[1] if entry else None

    def key_where(self, key: str) -> Location:
        return self.entries[key][0].where

    def __contains__(self, key: object) -> bool:
        return key in self.entries

    def __iter__(self) -> Iterator[str]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)


def load_yaml(path: Path, display_path: str) -> Node:
    """Parse one YAML file; an empty file is an empty mapping.

    `display_path` is what locations show, typically the path relative to the content root.
    Raises ContentError listing every problem of the file.
    """
    return _parse(_read_text(path, display_path), display_path)


@lru_cache(maxsize=512)
def _parse(text: str, display_path: str) -> Node:
    """The tree of ``text``, kept for the next load of the same bytes under the same name: the
    nodes are frozen, and validating a game loads every file of it again (a designer's watch,
    a tuning search). A file that does not load raises every time; exceptions are not kept.
    512 files are a few MB."""
    try:
        tree = _parse_anywhere(text)
    except ContentError:
        return _parse_at(text, display_path)  # raises, with the problems located here
    return _moved(tree, display_path)


@lru_cache(maxsize=512)
def _parse_anywhere(text: str) -> Node:
    """The tree of ``text`` under an empty name, for `_moved` to place: the same bytes under
    another folder (a copy of the content, as every seeded-mistake test and a tuning trial
    make) are then placed, at a fifth of the cost of composing them again."""
    return _parse_at(text, "")


def _parse_at(text: str, display_path: str) -> Node:
    check_shape(text, display_path)
    try:
        root = yaml.compose(text, Loader=_FAST_LOADER)
    except yaml.YAMLError:
        raise ContentError([_syntax_problem(text, display_path)]) from None
    if root is None:
        return MappingNode(display_path, 1, 1, {})
    builder = _Builder(display_path)
    node = builder.build(root)
    if builder.problems:
        raise ContentError(builder.problems)
    return node


def _moved(tree: Node, display_path: str) -> Node:
    """``tree`` with every node naming ``display_path``; a subtree shared by aliases stays
    shared (check_shape has bounded what it expands to)."""
    done: dict[int, Node] = {}

    def scalar(node: ScalarNode) -> ScalarNode:
        return ScalarNode(display_path, node.line, node.column, node.value, node.text, node.quoted)

    def move(node: Node) -> Node:
        found = done.get(id(node))
        if found is not None:
            return found
        moved: Node
        if isinstance(node, MappingNode):
            entries = {
                name: (scalar(key), move(value)) for name, (key, value) in node.entries.items()
            }
            moved = MappingNode(display_path, node.line, node.column, entries)
        elif isinstance(node, SequenceNode):
            items = tuple(move(item) for item in node.items)
            moved = SequenceNode(display_path, node.line, node.column, items)
        else:
            assert isinstance(node, ScalarNode)
            moved = scalar(node)
        done[id(node)] = moved
        return moved

    return move(tree)


def check_shape(text: str, display_path: str) -> None:
    """Refuse, before composing, what would make loading explode: nesting deeper than
    MAX_DEPTH (the composer recurses) and aliases that expand to more than MAX_VALUES values
    (each alias repeats a whole subtree: a "billion laughs" file is a few lines long)."""
    sizes: dict[str, int] = {}
    # One entry per open collection: its anchor and the values it holds so far, expanded.
    open_collections: list[tuple[str | None, int]] = [(None, 0)]

    def add(count: int) -> None:
        anchor, held = open_collections[-1]
        open_collections[-1] = (anchor, held + count)

    def refuse(mark: Any, message: str) -> ContentError:
        where = _mark_location(mark, display_path) if mark else Location(display_path)
        return ContentError([Problem(where, message)])

    try:
        for event in yaml.parse(text, Loader=_FAST_LOADER):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                open_collections.append((event.anchor, 0))
                if len(open_collections) - 1 > MAX_DEPTH:
                    raise refuse(
                        event.start_mark,
                        f"nesting deeper than {MAX_DEPTH} levels; flatten the structure",
                    )
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                anchor, held = open_collections.pop()
                if anchor is not None:
                    sizes[anchor] = held + 1
                add(held + 1)
            elif isinstance(event, yaml.ScalarEvent):
                if event.anchor is not None:
                    sizes[event.anchor] = 1
                add(1)
            elif isinstance(event, yaml.AliasEvent):
                add(sizes.get(str(event.anchor), 1))
            if sum(held for _, held in open_collections) > MAX_VALUES:
                raise refuse(
                    getattr(event, "start_mark", None),
                    f"aliases expand this file to more than {MAX_VALUES:,} values",
                )
    except yaml.YAMLError:
        return  # a syntax error: composing reports it with its place


def _read_text(path: Path, display_path: str) -> str:
    data = read_file(path, display_path)
    if len(data) > MAX_FILE_BYTES:
        message = (
            f"file is {len(data):,} bytes; content files may be at most {MAX_FILE_BYTES:,} bytes"
        )
        raise ContentError([Problem(Location(display_path), message)])
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(data[line_start : exc.start].decode("utf-8", "replace")) + 1
        where = Location(display_path, line, column)
        raise ContentError([Problem(where, "file is not valid UTF-8 text")]) from None


def _syntax_problem(text: str, display_path: str) -> Problem:
    """Describe the syntax error with the pure-Python parser.

    libyaml words its errors differently; parsing again (only when the file is broken anyway)
    keeps messages the same whether or not libyaml is installed.
    """
    try:
        yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = _mark_location(mark, display_path) if mark else Location(display_path)
        message = exc.problem or exc.context or "malformed"
        # "while parsing ..." contexts only point elsewhere; other contexts start the sentence
        # ("expected a single document in the stream" + "but found another document").
        if exc.problem and exc.context and not exc.context.startswith("while"):
            message = f"{exc.context}, {exc.problem}"
        return Problem(where, f"yaml syntax error: {message}")
    except yaml.reader.ReaderError as exc:
        before = text[: exc.position]
        line = before.count("\n") + 1
        column = exc.position - (before.rfind("\n") + 1) + 1
        return Problem(Location(display_path, line, column), f"yaml syntax error: {exc.reason}")
    except yaml.YAMLError as exc:
        return Problem(Location(display_path), f"yaml syntax error: {exc}")
    return Problem(Location(display_path), "yaml syntax error")


def _mark_location(mark: yaml.Mark, display_path: str) -> Location:
    return Location(display_path, mark.line + 1, mark.column + 1)


class _Builder:
    """Turns PyYAML's composed nodes into ours, collecting problems instead of stopping."""

    def __init__(self, display_path: str) -> None:
        self.display_path = display_path
        self.problems: list[Problem] = []
        # Aliases share one composed node: build it once, and refuse one that contains itself.
        self._built: dict[int, Node | None] = {}

    def _at(self, raw: yaml.Node) -> tuple[str, int, int]:
        mark = raw.start_mark
        return self.display_path, mark.line + 1, mark.column + 1

    def build(self, raw: yaml.Node) -> Node:
        key = id(raw)
        if key in self._built:
            node = self._built[key]
            if node is None:
                at = self._at(raw)
                self._problem(at, "an alias cannot refer to its own anchor")
                return ScalarNode(*at, None, "")
            return node
        self._built[key] = None
        node = self._build(raw)
        self._built[key] = node
        return node

    def _build(self, raw: yaml.Node) -> Node:
        at = self._at(raw)
        if isinstance(raw, yaml.MappingNode):
            if raw.tag != _MAP_TAG:
                self._unsupported_tag(raw, at)
            return MappingNode(*at, self._entries(raw))
        if isinstance(raw, yaml.SequenceNode):
            if raw.tag != _SEQ_TAG:
                self._unsupported_tag(raw, at)
            return SequenceNode(*at, tuple(self.build(item) for item in raw.value))
        assert isinstance(raw, yaml.ScalarNode)  # compose yields only these three kinds
        return self._scalar(raw, at)

    def _entries(self, raw: yaml.MappingNode) -> dict[str, tuple[ScalarNode, Node]]:
        entries: dict[str, tuple[ScalarNode, Node]] = {}
        for raw_key, raw_value in raw.value:
            at = self._at(raw_key)
            if not isinstance(raw_key, yaml.ScalarNode):
                self._problem(at, "a mapping key must be a plain name")
            elif raw_key.tag == _MERGE_TAG:
                self._problem(at, "merge keys (<<) are not supported; write the keys out")
            elif raw_key.value in entries:
                first = entries[raw_key.value][0].line
                message = f"duplicate key '{raw_key.value}' (first defined at line {first})"
                self._problem(at, message)
            else:
                entries[raw_key.value] = (self._scalar(raw_key, at), self.build(raw_value))
        return entries

    def _scalar(self, raw: yaml.ScalarNode, at: tuple[str, int, int]) -> ScalarNode:
        quoted = raw.style in ("'", '"')
        if raw.tag == _STR_TAG:
            # Most scalars are text; skipping the constructor call saves a third of load time.
            return ScalarNode(*at, raw.value, raw.value, quoted)
        construct = SafeConstructor.yaml_constructors.get(raw.tag)
        if construct is None or raw.tag in _COLLECTION_TAGS:
            self._unsupported_tag(raw, at)
            return ScalarNode(*at, raw.value, raw.value, quoted)
        try:
            value = construct(_CONSTRUCTOR, raw)
        except (ConstructorError, ValueError):
            self._problem(at, f"cannot read '{raw.value}' as {raw.tag}")
            value = raw.value
        return ScalarNode(*at, value, raw.value, quoted)

    def _unsupported_tag(self, raw: yaml.Node, at: tuple[str, int, int]) -> None:
        self._problem(at, f"unsupported yaml tag {raw.tag}")

    def _problem(self, at: tuple[str, int, int], message: str) -> None:
        self.problems.append(Problem(Location(*at), message))
