"""JSON Schemas (draft 2020-12) of each game's content, generated from its model dataclasses.

An editor with a YAML language server checks content against them as it is typed: unknown keys
(``additionalProperties: false``), wrong types, enum values, and it shows each field's ``doc``
as the key's description. The schema follows what ``pnp.content.schema`` accepts: the same
keys (``where`` is filled by the loader, never written), the same required keys, ``int`` where
an integer is wanted and ``float`` accepting any number, enum values as written, ``X | None``
accepting ``null``, tuples and lists as arrays, ``dict`` as a mapping.

A game's content is split over several files whose top-level keys are merged, so the schema of
a game is the schema of one *file*: every top-level key is optional (``pnp validate`` still
reports a key no file gives, and a key given by two files).
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import inspect
import itertools
import json
import textwrap
import types
import typing
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pnp.content.schema import _field_specs
from pnp.model.generic import GenericGame
from pnp.registry import game_for, games

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCHEMA_SUFFIX = ".schema.json"

_SCALARS: dict[Any, dict[str, Any]] = {
    int: {"type": "integer"},
    float: {"type": "number"},
    str: {"type": "string"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
}


def game_schema(slug: str, *, data_only: bool = False) -> dict[str, Any]:
    """The JSON Schema every YAML file of game `slug` validates against; ``data_only``: a
    game no package claims, read into the data-only model as the loader reads it."""
    model = GenericGame if data_only else game_for(slug).model
    builder = _Builder()
    root = builder.object_schema(model, all_optional=True)
    schema: dict[str, Any] = {
        "$schema": DRAFT,
        "title": f"pnp content of {slug} (one file of content/{slug}/)",
    }
    schema.update(root)
    schema["description"] = (
        f"One YAML file of content/{slug}/. The files of a game are merged by their top-level "
        "keys, so every key is optional here; `pnp validate` reports a key no file gives."
    )
    if builder.defs:
        schema["$defs"] = dict(sorted(builder.defs.items()))
    return schema


def schema_text(slug: str, *, data_only: bool = False) -> str:
    """The schema of `slug` as the file holds it: stable key order, a final newline."""
    return json.dumps(game_schema(slug, data_only=data_only), ensure_ascii=False, indent=2) + "\n"


def write_schemas(
    out_dir: Path, slugs: Iterable[str] | None = None, data_only: Iterable[str] = ()
) -> list[Path]:
    """Write `<out_dir>/<slug>.schema.json` for each game (default: every registered game)
    and each data-only game of ``data_only``."""
    chosen = sorted(games()) if slugs is None else list(slugs)
    plain = set(data_only)
    # Unknown games fail before anything is written.
    texts = {slug: schema_text(slug, data_only=slug in plain) for slug in chosen}
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for slug, text in texts.items():
        path = out_dir / f"{slug}{SCHEMA_SUFFIX}"
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
        written.append(path)
    return written


# ---------------------------------------------------------------- building


class _Builder:
    """Turns type hints into schemas, collecting dataclasses and enums under ``$defs``."""

    def __init__(self) -> None:
        self.defs: dict[str, dict[str, Any]] = {}
        self._names: dict[Any, str] = {}

    def schema(self, hint: Any) -> dict[str, Any]:
        scalar = _SCALARS.get(hint)
        if scalar is not None:
            return dict(scalar)
        if hint is Any or hint is object:
            return {}
        if isinstance(hint, type) and (
            issubclass(hint, enum.Enum) or dataclasses.is_dataclass(hint)
        ):
            return {"$ref": f"#/$defs/{self._define(hint)}"}
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin in (typing.Union, types.UnionType):
            members = [self.schema(arg) for arg in args]
            return {"anyOf": members}
        if origin in (tuple, list):
            return {"type": "array", "items": self.schema(args[0])}
        if origin is dict:
            result: dict[str, Any] = {
                "type": "object",
                "additionalProperties": self.schema(args[1]),
            }
            names = self._key_schema(args[0])
            if names:
                result["propertyNames"] = names
            return result
        return {}  # a type the content schema does not read: accept anything

    def _key_schema(self, key: Any) -> dict[str, Any]:
        # A mapping key is a name as written; a non-string key type is checked on the text.
        if key is str:
            return {}
        if key is int:
            return {"pattern": r"^-?[0-9]+$"}
        if isinstance(key, type) and issubclass(key, enum.Enum):
            return {"enum": [str(member.value) for member in key]}
        return {}

    def _define(self, cls: type) -> str:
        name = self._names.get(cls)
        if name is not None:
            return name
        name = cls.__name__
        if name in self.defs:  # two models share a class name: qualify the later one
            name = f"{cls.__module__}.{cls.__qualname__}"
        self._names[cls] = name
        self.defs[name] = {}  # reserved first: a dataclass may refer to itself
        if issubclass(cls, enum.Enum):
            self.defs[name] = _enum_schema(cls)
        else:
            self.defs[name] = self.object_schema(cls)
        return name

    def object_schema(self, cls: type, *, all_optional: bool = False) -> dict[str, Any]:
        specs = _field_specs(cls)
        defaults = {field.name: field for field in dataclasses.fields(cls)}
        properties: dict[str, Any] = {}
        required: list[str] = []
        for name, spec in specs.items():
            prop = self.schema(spec.hint)
            # Draft 2020-12 lets "$ref" sit beside "description" and "default".
            description = spec.doc or ""
            type_text = spec.type_text if spec.required else f"{spec.type_text}, optional"
            prop["description"] = f"{description} ({type_text})" if description else type_text
            for key, limit in spec.limits:
                prop.update(_limit_schema(key, limit, prop))
            default = _default_of(defaults[name])
            if default is not _NO_DEFAULT:
                prop["default"] = default
            properties[name] = prop
            if spec.required and not all_optional:
                required.append(name)
        result: dict[str, Any] = {
            "type": "object",
            "properties": properties,
            "additionalProperties": False,
        }
        if required:
            result["required"] = required
        description = _class_doc(cls)
        if description:
            result["description"] = description
        return result


# ---------------------------------------------------------------- enums and defaults


def _enum_schema(cls: type[enum.Enum]) -> dict[str, Any]:
    values = [member.value for member in cls]
    result: dict[str, Any] = {"enum": values}
    description = _class_doc(cls)
    if description:
        result["description"] = description
    docs = _member_docs(cls)
    if any(docs.get(member.name) for member in cls):
        # Not JSON Schema but read by the YAML language server: a description per value.
        result["markdownEnumDescriptions"] = [docs.get(member.name, "") for member in cls]
    return result


def _member_docs(cls: type[enum.Enum]) -> dict[str, str]:
    """The docstring written under each enum member (Python keeps none at run time)."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    tree = ast.parse(source)
    body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
    docs: dict[str, str] = {}
    for statement, following in itertools.pairwise(body):
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.targets[0].id] = inspect.cleandoc(following.value.value)
    return docs


def _class_doc(cls: type) -> str:
    doc = cls.__doc__ or ""
    # dataclasses invent "Name(field: type, ...)" when a class has no docstring.
    if not doc or doc.startswith(f"{cls.__name__}("):
        return ""
    if issubclass(cls, enum.Enum) and doc == "An enumeration.":
        return ""
    return inspect.cleandoc(doc)


class _NoDefault:
    pass


_NO_DEFAULT: Any = _NoDefault()


def _default_of(field: dataclasses.Field[Any]) -> Any:
    if field.default is not dataclasses.MISSING:
        return _json_value(field.default)
    if field.default_factory is not dataclasses.MISSING:
        return _json_value(field.default_factory())
    return _NO_DEFAULT


def _json_value(value: Any) -> Any:
    """`value` as YAML would write it, or _NO_DEFAULT when it has no such spelling."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, enum.Enum):
        return _json_value(value.value)
    if isinstance(value, tuple | list | frozenset | set):
        items = [_json_value(item) for item in value]
        return _NO_DEFAULT if any(item is _NO_DEFAULT for item in items) else items
    if isinstance(value, Mapping):
        pairs = {str(key): _json_value(item) for key, item in value.items()}
        return _NO_DEFAULT if any(item is _NO_DEFAULT for item in pairs.values()) else pairs
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        specs = _field_specs(type(value))
        pairs = {name: _json_value(getattr(value, name)) for name in specs}
        return _NO_DEFAULT if any(item is _NO_DEFAULT for item in pairs.values()) else pairs
    return _NO_DEFAULT


def _limit_schema(key: str, limit: Any, prop: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema keywords of one of a field's limits (see ``pnp.model.common.doc``)."""
    kind = prop.get("type")
    if key == "at_least":
        return {"minimum": limit}
    if key == "at_most":
        return {"maximum": limit}
    if key == "items":
        return {"minItems": limit, "maxItems": limit}
    if key == "nonempty":
        if kind == "array":
            return {"minItems": 1}
        if kind == "string":
            return {"minLength": 1, "pattern": r"\S"}
    return {}
