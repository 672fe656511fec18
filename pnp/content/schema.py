"""Builds the frozen model dataclasses from YAML nodes, driven by their type hints.

`convert` walks the whole tree and collects every problem before raising, so one run tells an
author everything wrong with a file. Each problem names the value's path (`ranks[3].effect.kind`)
and where it was written. Converters are compiled once per type and cached.
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import functools
import types
import typing
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar, cast

from pnp.content.tables import is_table_name, table_items
from pnp.content.yamlsource import MappingNode, Node, ScalarNode, SequenceNode
from pnp.errors import ContentError, Location, Problem

T = TypeVar("T")

# A compiled converter: (node, path label, problems to append to) -> value or _INVALID.
Converter = Callable[[Node, str, list[Problem]], Any]


class _Invalid:
    """Marks a value that could not be converted; its problems are already recorded."""

    def __repr__(self) -> str:
        return "<invalid>"


_INVALID: Any = _Invalid()


def convert(node: Node, target: type[T], path_label: str = "") -> T:
    """Convert `node` to `target`, raising one ContentError that lists every problem.

    `path_label` names the node in messages; nested values extend it (`settings.hand_size`).
    """
    problems: list[Problem] = []
    value = _converter(cast(Hashable, target))(node, path_label, problems)
    if problems:
        raise ContentError(sorted(problems, key=lambda problem: problem.location))
    return typing.cast(T, value)


def merge_files(files: Sequence[Node], where: Location | None = None) -> MappingNode:
    """Merge the top-level mappings of one game's YAML files into one mapping.

    A key defined by two files is a problem: content must say each thing once. `where` is the
    location of the merged mapping (missing top-level keys are reported there); by default the
    start of the first file.
    """
    entries: dict[str, tuple[ScalarNode, Node]] = {}
    problems: list[Problem] = []
    for root in files:
        if not isinstance(root, MappingNode):
            message = f"expected a mapping of top-level keys, got {_shown(root)}"
            problems.append(Problem(root.where, message))
            continue
        for key, entry in root.entries.items():
            if key in entries:
                first = entries[key][0].where
                message = f"key '{key}' is defined in {first.path}:{first.line} and again here"
                problems.append(Problem(entry[0].where, message))
            else:
                entries[key] = entry
    if problems:
        raise ContentError(problems)
    if where is None:
        where = files[0].where if files else Location("<no files>")
    return MappingNode(where.path, where.line, where.column, entries)


def describe(target: type) -> list[tuple[str, str, str]]:
    """(key, type text, doc) of each key a dataclass reads from YAML, for docs and help."""
    rows = []
    for spec in _field_specs(target).values():
        type_text = spec.type_text if spec.required else f"{spec.type_text}, optional"
        rows.append((spec.name, type_text, spec.doc))
    return rows


# ---------------------------------------------------------------- compiling converters


@functools.cache
def _converter(target: Any) -> Converter:
    scalar = _SCALARS.get(target)
    if scalar is not None:
        return scalar
    if isinstance(target, type) and issubclass(target, enum.Enum):
        return _enum_converter(target)
    if isinstance(target, type) and dataclasses.is_dataclass(target):
        return _DataclassConverter(target)
    if target is Any or target is object:
        return _plain
    origin, args = typing.get_origin(target), typing.get_args(target)
    if origin in (typing.Union, types.UnionType):
        return _union_converter(args)
    if origin in (tuple, list) and (origin is list or (len(args) == 2 and args[1] is ...)):
        return _sequence_converter(origin, args[0])
    if origin is dict:
        return _dict_converter(*args)
    raise TypeError(f"the content schema cannot convert to {target!r}")


def _expected(target: Any) -> str:
    """How a message names what `target` accepts: 'an integer', 'a mapping'."""
    phrase = _PHRASES.get(target)
    if phrase:
        return phrase
    if isinstance(target, type) and issubclass(target, enum.Enum):
        return "one of " + " / ".join(_enum_texts(target))
    origin = typing.get_origin(target)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_expected(arg) for arg in typing.get_args(target))
    if origin in (tuple, list):
        return "a list"
    return "a mapping"


def _type_text(target: Any) -> str:
    """How docs name a type: 'integer', 'list of Rank', 'mapping of string to integer'."""
    text = _TYPE_TEXTS.get(target)
    if text:
        return text
    if isinstance(target, type) and issubclass(target, enum.Enum):
        return "one of " + " / ".join(_enum_texts(target))
    if isinstance(target, type):
        return target.__name__
    origin, args = typing.get_origin(target), typing.get_args(target)
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_type_text(arg) for arg in args)
    if origin in (tuple, list):
        return f"list of {_type_text(args[0])}"
    if origin is dict:
        return f"mapping of {_type_text(args[0])} to {_type_text(args[1])}"
    return str(target)


# ---------------------------------------------------------------- messages


def _at(path: str, message: str) -> str:
    return f"{path}: {message}" if path else message


def _child(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _shown(node: Node) -> str:
    """A value as a message quotes it: YAML spelling, strings quoted and cut short."""
    if isinstance(node, MappingNode):
        return "a mapping"
    if isinstance(node, SequenceNode):
        return "a list"
    assert isinstance(node, ScalarNode)
    if isinstance(node.value, str):
        text = node.value if len(node.value) <= 40 else node.value[:37] + "..."
        return f"'{text}'"
    if node.value is None:
        return "null"
    return node.text


def _suggestion(word: str, choices: Sequence[str]) -> str:
    """' (did you mean 'x'?)' for a near miss, else ''."""
    folded = {choice.casefold(): choice for choice in choices}
    match = folded.get(word.casefold())
    if match is None:
        close = difflib.get_close_matches(word, choices, n=1)
        # A short word inside one longer name ('cap', 'swap') scores low but is still a hint.
        containing = [choice for choice in choices if word and word.casefold() in choice]
        if close:
            match = close[0]
        elif len(containing) == 1:
            match = containing[0]
    return f" (did you mean '{match}'?)" if match else ""


def _mismatch(node: Node, path: str, problems: list[Problem], expected: str, hint: str = "") -> Any:
    message = f"expected {expected}, got {_shown(node)}{hint}"
    problems.append(Problem(node.where, _at(path, message)))
    return _INVALID


# ---------------------------------------------------------------- scalars


def _is_scalar_of(node: Node, kind: type) -> bool:
    # bool is an int subclass; an exact type check keeps `true` out of integer fields.
    return isinstance(node, ScalarNode) and type(node.value) is kind


def _unquote_hint(node: Node, kind: type) -> str:
    """' (remove the quotes)' when a quoted string would have been the wanted kind."""
    if isinstance(node, ScalarNode) and node.quoted:
        try:
            kind(node.text)
        except ValueError:
            return ""
        return " (remove the quotes)"
    return ""


def _convert_int(node: Node, path: str, problems: list[Problem]) -> Any:
    if _is_scalar_of(node, int):
        return node.value  # type: ignore[attr-defined]
    return _mismatch(node, path, problems, "an integer", _unquote_hint(node, int))


def _convert_float(node: Node, path: str, problems: list[Problem]) -> Any:
    if _is_scalar_of(node, float) or _is_scalar_of(node, int):
        return float(node.value)  # type: ignore[attr-defined]
    return _mismatch(node, path, problems, "a number", _unquote_hint(node, float))


def _convert_str(node: Node, path: str, problems: list[Problem]) -> Any:
    if _is_scalar_of(node, str):
        return node.value  # type: ignore[attr-defined]
    hint = ""
    if isinstance(node, ScalarNode) and node.text:
        # YAML read it as a number, boolean or date; quoting keeps it as written.
        hint = f" (quote it: '{node.text}')"
    return _mismatch(node, path, problems, "a string", hint)


def _convert_bool(node: Node, path: str, problems: list[Problem]) -> Any:
    if _is_scalar_of(node, bool):
        return node.value  # type: ignore[attr-defined]
    return _mismatch(node, path, problems, "true or false")


def _plain(node: Node, path: str, problems: list[Problem]) -> Any:
    """Plain Python data, for fields typed Any: the schema does not look inside."""
    if isinstance(node, MappingNode):
        return {key: _plain(value, path, problems) for key, (_, value) in node.entries.items()}
    if isinstance(node, SequenceNode):
        return [_plain(item, path, problems) for item in node.items]
    assert isinstance(node, ScalarNode)
    return node.value


_SCALARS: dict[Any, Converter] = {
    int: _convert_int,
    float: _convert_float,
    str: _convert_str,
    bool: _convert_bool,
}
_PHRASES: dict[Any, str] = {
    int: "an integer",
    float: "a number",
    str: "a string",
    bool: "true or false",
    type(None): "null",
}
_TYPE_TEXTS: dict[Any, str] = {
    int: "integer",
    float: "number",
    str: "string",
    bool: "boolean",
    type(None): "null",
}


def _enum_texts(cls: type[enum.Enum]) -> list[str]:
    return [str(member.value) for member in cls]


def _enum_converter(cls: type[enum.Enum]) -> Converter:
    by_value = {member.value: member for member in cls}
    texts = _enum_texts(cls)
    expected = _expected(cls)

    def convert_enum(node: Node, path: str, problems: list[Problem]) -> Any:
        if isinstance(node, ScalarNode):
            member = by_value.get(node.value)
            # A dict lookup equates True with 1; the written kind must match too.
            if member is not None and type(member.value) is type(node.value):
                return member
        hint = ""
        if isinstance(node, ScalarNode) and isinstance(node.value, str):
            hint = _suggestion(node.value, texts)
        return _mismatch(node, path, problems, expected, hint)

    return convert_enum


# ---------------------------------------------------------------- containers


def _union_converter(args: tuple[Any, ...]) -> Converter:
    members = [arg for arg in args if arg is not type(None)]
    nullable = len(members) < len(args)
    if len(members) == 1:
        inner = _converter(members[0])

        def convert_optional(node: Node, path: str, problems: list[Problem]) -> Any:
            if nullable and isinstance(node, ScalarNode) and node.value is None:
                return None
            return inner(node, path, problems)

        return convert_optional

    converters = [_converter(member) for member in members]
    expected = " or ".join(_expected(arg) for arg in args)

    def convert_union(node: Node, path: str, problems: list[Problem]) -> Any:
        if nullable and isinstance(node, ScalarNode) and node.value is None:
            return None
        for member in converters:
            # Members that do not fit are tried silently; only a total miss is reported.
            value = member(node, path, [])
            if value is not _INVALID:
                return value
        return _mismatch(node, path, problems, expected)

    return convert_union


def _sequence_converter(kind: type, item_type: Any) -> Converter:
    item_converter = _converter(item_type)

    def convert_sequence(node: Node, path: str, problems: list[Problem]) -> Any:
        if is_table_name(node) and dataclasses.is_dataclass(item_type):
            # A list of items kept in a spreadsheet (pnp.content.tables).
            try:
                node = table_items(cast(ScalarNode, node), item_type)
            except ContentError as error:
                problems.extend(error.problems)
                return _INVALID
        if not isinstance(node, SequenceNode):
            return _mismatch(node, path, problems, "a list")
        values = [
            item_converter(item, f"{path}[{index}]", problems)
            for index, item in enumerate(node.items)
        ]
        if any(value is _INVALID for value in values):
            return _INVALID
        return kind(values)

    return convert_sequence


def _dict_converter(key_type: Any, value_type: Any) -> Converter:
    # A mapping key is a name as written: `3: x` is the key '3' when keys are strings.
    key_converter = None if key_type is str else _converter(key_type)
    value_converter = _converter(value_type)

    def convert_dict(node: Node, path: str, problems: list[Problem]) -> Any:
        if not isinstance(node, MappingNode):
            return _mismatch(node, path, problems, "a mapping")
        result = {}
        valid = True
        for name, (key_node, value_node) in node.entries.items():
            child = _child(path, name)
            key = name if key_converter is None else key_converter(key_node, child, problems)
            value = value_converter(value_node, child, problems)
            if key is _INVALID or value is _INVALID:
                valid = False
            else:
                result[key] = value
        return result if valid else _INVALID

    return convert_dict


# ---------------------------------------------------------------- dataclasses


@dataclasses.dataclass(frozen=True, slots=True)
class _FieldSpec:
    name: str
    hint: Any
    required: bool
    doc: str
    limits: tuple[tuple[str, Any], ...] = ()
    """The field's limits (``pnp.model.common.doc``): at_least, at_most, nonempty, items."""

    @property
    def type_text(self) -> str:
        return _type_text(self.hint)


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    # The model modules use postponed annotations; resolving them is the slow part of a field.
    return typing.get_type_hints(cls)


@functools.cache
def _field_specs(cls: type) -> dict[str, _FieldSpec]:
    """The keys a dataclass reads from YAML; `where` is filled from the node, never read."""
    hints = _hints(cls)
    specs = {}
    for field in dataclasses.fields(cls):
        if not field.init or _is_where(field.name, hints[field.name]):
            continue
        required = (
            field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
        )
        doc = str(field.metadata.get("doc", ""))
        limits = tuple((key, field.metadata[key]) for key in _LIMITS if key in field.metadata)
        specs[field.name] = _FieldSpec(field.name, hints[field.name], required, doc, limits)
    return specs


_LIMITS = ("at_least", "at_most", "nonempty", "items")


def _outside_limits(spec: _FieldSpec, value: Any) -> str | None:
    """What is wrong with a converted value for its field's limits, or None."""
    for key, limit in spec.limits:
        if key == "nonempty" and isinstance(value, str) and not value.strip():
            return "must not be empty"
        if key == "nonempty" and isinstance(value, (tuple, list, dict)) and not value:
            return "must name at least one"
        if key == "items" and isinstance(value, (tuple, list)) and len(value) != limit:
            return f"expected {limit} values, got {len(value)}"
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if number and key == "at_least" and not value >= limit:
            return f"expected at least {limit:g}, got {value!r}"
        if number and key == "at_most" and not value <= limit:
            return f"expected at most {limit:g}, got {value!r}"
    return None


def _is_where(name: str, hint: Any) -> bool:
    return name == "where" and hint is Location


class _DataclassConverter:
    """Converts a mapping to one dataclass.

    Fields are compiled on first use rather than here, so a dataclass may refer to itself
    (directly or through others) without compiling forever.
    """

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self._specs: dict[str, _FieldSpec] = {}
        self._converters: dict[str, Converter] | None = None
        self._has_where = False

    def _compile(self) -> dict[str, Converter]:
        self._specs = _field_specs(self.cls)
        self._has_where = any(_is_where(name, hint) for name, hint in _hints(self.cls).items())
        self._converters = {name: _converter(spec.hint) for name, spec in self._specs.items()}
        return self._converters

    def __call__(self, node: Node, path: str, problems: list[Problem]) -> Any:
        converters = self._converters if self._converters is not None else self._compile()
        if not isinstance(node, MappingNode):
            return _mismatch(node, path, problems, "a mapping")
        values: dict[str, Any] = {}
        valid = True
        for name, (key_node, value_node) in node.entries.items():
            converter = converters.get(name)
            if converter is None:
                problems.append(Problem(key_node.where, _at(path, self._unknown(name))))
                continue
            value = converter(value_node, _child(path, name), problems)
            if value is _INVALID:
                valid = False
                continue
            spec = self._specs[name]
            wrong = _outside_limits(spec, value) if spec.limits else None
            if wrong is not None:
                problems.append(Problem(value_node.where, _at(_child(path, name), wrong)))
                valid = False
            else:
                values[name] = value
        for spec in self._specs.values():
            if spec.required and spec.name not in node.entries:
                problems.append(Problem(node.where, _at(path, _missing(spec))))
                valid = False
        if not valid:
            return _INVALID
        if self._has_where:
            values["where"] = node.where
        return self._build(values, node, path, problems)

    def _unknown(self, name: str) -> str:
        known = list(self._specs)
        hint = _suggestion(name, known)
        if not hint and known:
            hint = f" (known keys: {', '.join(known)})"
        return f"unknown key '{name}'{hint}"

    def _build(self, values: dict[str, Any], node: Node, path: str, problems: list[Problem]) -> Any:
        try:
            return self.cls(**values)
        except ValueError as exc:
            # A model may check its own invariants in __post_init__; that is a content problem.
            problems.append(Problem(node.where, _at(path, str(exc))))
            return _INVALID


def _missing(spec: _FieldSpec) -> str:
    doc = f" ({spec.doc})" if spec.doc else ""
    return f"missing required key '{spec.name}'{doc}"
