"""The numbers of a game's content that ``tuning:`` lets the tuner change, found where they are
written, and content files with some of them changed in place.

A number is found through the YAML nodes (not the model), because the tuner's proposal is an
edit of the designer's files: each number keeps its file, line and column, and a change
replaces the scalar's characters there and nothing else, so comments, flow style and layout
survive (re-dumping the file would lose them).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from pnp.content.loader import LoadedGame
from pnp.content.schema import merge_files
from pnp.content.sources import read_file
from pnp.content.tables import is_table_name
from pnp.content.yamlsource import MappingNode, Node, ScalarNode, SequenceNode, load_yaml
from pnp.errors import ContentError, Location, PnpError, Problem
from pnp.model.tuning import Fixed, Tuning


@dataclass(frozen=True)
class Number:
    """One number the tuner may change: where it is written, its value and its bounds."""

    label: str
    """How messages and reports name it: ``cards[flame-rush].damage``."""
    value: int
    low: int
    high: int
    step: int
    where: Location
    """Its file (as messages show it), line and column."""
    text: str
    """The scalar as written there."""
    traits: frozenset[tuple[str, str]]
    """The item's own plain values (``colour`` ``red``…): what ties it to a figure's subject."""
    entry: int = 0
    """The index of the tunable entry that makes it tunable."""


@dataclass(frozen=True)
class Item:
    """A mapping a selector picked, with the name messages give it."""

    label: str
    node: MappingNode


def content_tree(game: LoadedGame) -> MappingNode:
    """The game's YAML files merged into one tree of located nodes, read from the bytes the
    game was loaded from."""
    prefix = f"{game.display_folder}/"
    nodes = []
    with game.reading():
        for display in game.files:
            if display.startswith(prefix):
                nodes.append(load_yaml(game.folder / display[len(prefix) :], display))
    return merge_files(nodes)


def _item_label(path: str, node: MappingNode, index: int | None) -> str:
    for key in ("id", "name"):
        named = node.get(key)
        if isinstance(named, ScalarNode) and isinstance(named.value, str | int):
            return f"{path}[{named.value}]"
    return f"{path}[{index}]" if index is not None else path


def _matches(node: MappingNode, match: Mapping[str, str | int | bool]) -> bool:
    for key, wanted in match.items():
        found = node.get(key)
        if not isinstance(found, ScalarNode) or found.value != wanted:
            return False
        if type(found.value) is not type(wanted):
            return False
    return True


def select(root: MappingNode, at: str, match: Mapping[str, str | int | bool]) -> list[Item]:
    """The items ``at`` (a top-level key, or a dotted path) holds that ``match`` picks:
    a list's items, or the mapping itself. PnpError saying what is wrong otherwise."""
    node: Node = root
    walked: list[str] = []
    for part in at.split("."):
        if not isinstance(node, MappingNode):
            raise PnpError(f"'{'.'.join(walked)}' is not a mapping, so it has no key '{part}'")
        found = node.get(part)
        if found is None:
            near = difflib.get_close_matches(part, list(node), n=1)
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            where = f"'{'.'.join(walked)}'" if walked else "the content"
            raise PnpError(f"{where} has no key '{part}'{hint}")
        walked.append(part)
        node = found
    if is_table_name(node):
        raise PnpError(
            f"'{at}' is read from a table file: the tuner changes numbers written in YAML only"
        )
    if isinstance(node, SequenceNode):
        candidates = [
            Item(_item_label(at, item, index), item)
            for index, item in enumerate(node.items)
            if isinstance(item, MappingNode)
        ]
    elif isinstance(node, MappingNode):
        candidates = [Item(at, node)]
    else:
        raise PnpError(f"'{at}' is a single value: name the mapping or list that holds it")
    picked = [item for item in candidates if _matches(item.node, match)]
    if not picked:
        shown = ", ".join(f"{key}={value}" for key, value in match.items())
        raise PnpError(f"no item of '{at}' has {shown}")
    return picked


def value_at(item: MappingNode, path: str) -> Node | None:
    """The node ``path`` names inside ``item``: keys and list positions, dotted
    (``steps.2.pay.0.weapons``); None when there is none."""
    node: Node | None = item
    for part in path.split("."):
        if isinstance(node, MappingNode):
            node = node.get(part)
        elif isinstance(node, SequenceNode) and part.isdigit() and int(part) < len(node.items):
            node = node.items[int(part)]
        else:
            return None
    return node


def _traits(node: MappingNode) -> frozenset[tuple[str, str]]:
    return frozenset(
        (key, str(value.value))
        for key, (_, value) in node.entries.items()
        if isinstance(value, ScalarNode)
        and isinstance(value.value, str | int)
        and not isinstance(value.value, bool)
    )


def _fixed_cells(root: MappingNode, fixed: Fixed) -> Iterator[tuple[str, Location]]:
    for item in select(root, fixed.at, fixed.match):
        for key in fixed.fields:
            value = value_at(item.node, key)
            if value is not None:
                yield f"{item.label}.{key}", value.where


def tunable_numbers(root: MappingNode, tuning: Tuning) -> tuple[list[Number], list[Problem]]:
    """Every number ``tuning`` makes tunable, and every mistake of ``tuning`` located: a
    selector that picks nothing, a key no picked item has, a value that is not a written
    integer or lies outside its bounds, bounds the wrong way round, a number two entries claim
    or one a ``fixed`` entry names."""
    problems: list[Problem] = []
    fixed: dict[Location, Fixed] = {}
    for index, kept in enumerate(tuning.fixed):
        try:
            for _, where in _fixed_cells(root, kept):
                fixed.setdefault(where, kept)
        except PnpError as error:
            problems.append(Problem(kept.where, f"tuning.fixed[{index}]: {error}"))
    numbers: list[Number] = []
    claimed: dict[Location, Location] = {}
    for index, entry in enumerate(tuning.tunable):
        name = f"tuning.tunable[{index}]"
        if entry.min > entry.max:
            problems.append(
                Problem(entry.where, f"{name}: min {entry.min} is above max {entry.max}")
            )
            continue
        try:
            items = select(root, entry.at, entry.match)
        except PnpError as error:
            problems.append(Problem(entry.where, f"{name}: {error}"))
            continue
        found = [(item, value_at(item.node, entry.field)) for item in items]
        present = [(item, value) for item, value in found if value is not None]
        if not present:
            keys = sorted({key for item in items for key in item.node})
            near = difflib.get_close_matches(entry.field, keys, n=1)
            hint = f" (did you mean '{near[0]}'?)" if near else ""
            problems.append(
                Problem(entry.where, f"{name}: no picked item has the key '{entry.field}'{hint}")
            )
            continue
        for item, value in present:
            label = f"{item.label}.{entry.field}"
            if not (
                isinstance(value, ScalarNode)
                and type(value.value) is int
                and not value.quoted
                and value.text.lstrip("+-").isdigit()
            ):
                problems.append(
                    Problem(
                        value.where,
                        f"{label}: {name} makes it tunable, but it is not a plain integer",
                    )
                )
                continue
            locked = fixed.get(value.where)
            if locked is not None:
                problems.append(
                    Problem(
                        entry.where,
                        f"{name}: {label} is fixed by tuning.fixed at {locked.where} "
                        f"({locked.reason}); narrow the selector so it leaves it out",
                    )
                )
                continue
            if value.where in claimed:
                problems.append(
                    Problem(
                        entry.where,
                        f"{name}: {label} is already tunable through the entry at "
                        f"{claimed[value.where]}; one entry per number",
                    )
                )
                continue
            if not entry.min <= value.value <= entry.max:
                problems.append(
                    Problem(
                        value.where,
                        f"{label} is {value.value}, outside its tunable bounds "
                        f"{entry.min}..{entry.max} ({entry.where})",
                    )
                )
                continue
            claimed[value.where] = entry.where
            numbers.append(
                Number(
                    label,
                    value.value,
                    entry.min,
                    entry.max,
                    entry.step,
                    value.where,
                    value.text,
                    _traits(item.node),
                    index,
                )
            )
    return numbers, problems


def fixed_locations(root: MappingNode, tuning: Tuning) -> dict[Location, str]:
    """Where every fixed number is written, with the reason it is fixed."""
    out: dict[Location, str] = {}
    for entry in tuning.fixed:
        for _, where in _fixed_cells(root, entry):
            out.setdefault(where, entry.reason)
    return out


# -- editing in place -----------------------------------------------------------------------


def splice(text: str, changes: Sequence[tuple[Number, int]], path: str) -> str:
    """``text`` (one file) with each number's scalar replaced by its new value, at its line and
    column; every other character as it was. PnpError when the file no longer holds the
    number where it was read (edited since)."""
    lines = text.splitlines(keepends=True)
    # Right to left within a line, so earlier columns stay where they were.
    for number, value in sorted(changes, key=lambda c: (c[0].where.line, -c[0].where.column)):
        row = number.where.line - 1
        start = number.where.column - 1
        line = lines[row] if row < len(lines) else ""
        if line[start : start + len(number.text)] != number.text or _continues(
            line, start + len(number.text)
        ):
            raise PnpError(
                f"{number.where}: expected {number.label} = {number.text} here; {path} changed "
                "since it was read, run pnp tune again"
            )
        lines[row] = line[:start] + str(value) + line[start + len(number.text) :]
    return "".join(lines)


def _continues(line: str, end: int) -> bool:
    """Whether the scalar goes on past ``end`` (the text read was only its start)."""
    return end < len(line) and (line[end].isdigit() or line[end] in "._")


def edited_files(game: LoadedGame, changes: Mapping[Number, int]) -> dict[str, tuple[str, str]]:
    """display path -> (text now, text with ``changes``), for each file a change touches."""
    by_file: dict[str, list[tuple[Number, int]]] = {}
    for number, value in changes.items():
        if value != number.value:
            by_file.setdefault(number.where.path, []).append((number, value))
    prefix = f"{game.display_folder}/"
    out: dict[str, tuple[str, str]] = {}
    with game.reading():
        for display, edits in sorted(by_file.items()):
            if not display.startswith(prefix):
                raise PnpError(f"{display}: not a file of {game.display_folder}")
            try:
                before = read_file(game.folder / display[len(prefix) :], display).decode("utf-8")
            except UnicodeDecodeError:
                raise PnpError(f"{display}: not UTF-8 text") from None
            out[display] = (before, splice(before, edits, display))
    return out


def unified_diff(files: Mapping[str, tuple[str, str]]) -> str:
    """The changes as one unified diff, ``a/`` and ``b/`` paths as git shows them."""
    parts: list[str] = []
    for display, (before, after) in files.items():
        parts.extend(
            difflib.unified_diff(
                before.splitlines(keepends=True),
                after.splitlines(keepends=True),
                fromfile=f"a/{display.lstrip('/')}",
                tofile=f"b/{display.lstrip('/')}",
                n=1,
            )
        )
    return "".join(line if line.endswith("\n") else line + "\n" for line in parts)


def check_tuning(game: LoadedGame) -> list[Problem]:
    """The mistakes of the game's ``tuning:`` (see :func:`tunable_numbers`), for validate."""
    tuning = getattr(game.model, "tuning", None)
    if not isinstance(tuning, Tuning):
        return []
    try:
        root = content_tree(game)
    except ContentError as error:
        return list(error.problems)
    return tunable_numbers(root, tuning)[1]
