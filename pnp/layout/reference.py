"""The templates' JSON Schema and reference page, made from the tables the template code
checks boxes against (``BOX_KEYS``, ``KEY_DOCS``, ``BOX_DOCS``, ``TEMPLATE_KEYS``) and the names
a face's jinja sees: a key the code accepts is documented, and a documented key is accepted."""

from __future__ import annotations

import json
from typing import Any

from pnp.layout import template
from pnp.layout.products import FACE_CONTEXT

DRAFT = "https://json-schema.org/draft/2020-12/schema"
_JINJA = "may be a jinja value such as '{{ item.cost }}'"

_JSON_TYPES: dict[str, list[str]] = {
    template.LENGTH: ["string", "number"],
    "integer": ["integer", "string"],
    "number": ["number", "string"],
    "degrees": ["number", "string"],
    "condition": ["boolean", "string"],
    "list of numbers": ["array", "string"],
    "list of [x, y] lengths": ["array", "string"],
}
"""JSON types of a key's kind; strings too, for any value may be jinja."""


def _key_schema(key: str) -> dict[str, Any]:
    kind, meaning = template.KEY_DOCS[key]
    return {"type": _JSON_TYPES.get(kind, ["string"]), "description": f"{kind}: {meaning}"}


def template_schema() -> dict[str, Any]:
    """The JSON Schema of one face template file."""
    boxes = []
    for kind in sorted(template.BOX_KEYS):
        keys = sorted(template.BOX_KEYS[kind] | template.COMMON_KEYS)
        keys_schema = {key: _key_schema(key) for key in keys}
        keys_schema["type"] = {"const": kind, "description": template.BOX_DOCS[kind]}
        boxes.append(
            {
                "title": kind,
                "description": template.BOX_DOCS[kind],
                "type": "object",
                "properties": keys_schema,
                "required": ["type"],
                "additionalProperties": False,
            }
        )
    docs = template.TEMPLATE_KEYS
    properties: dict[str, Any] = {
        "extends": {"type": "string", "description": docs["extends"]},
        "palette": {
            "type": "object",
            "additionalProperties": {"type": "string"},
            "description": docs["palette"],
        },
        "vars": {"type": "object", "description": docs["vars"]},
        "macros": {"type": "string", "description": docs["macros"]},
        "boxes": {"type": "array", "items": {"oneOf": boxes}, "description": docs["boxes"]},
        "size": {"type": "string", "description": docs["size"]},
    }
    return {
        "$schema": DRAFT,
        "title": "pnp face template (one file of templates/<game>/)",
        "description": "One face of a product's items: named boxes drawn in order.",
        "type": "object",
        "properties": properties,
        "additionalProperties": False,
    }


def template_schema_text() -> str:
    return json.dumps(template_schema(), ensure_ascii=False, indent=2) + "\n"


def template_reference() -> str:
    """The reference page of face templates, in Markdown."""
    lines = [
        "# Face templates",
        "",
        "<!-- Written by `pnp schema` from pnp/layout/template.py; do not edit by hand. -->",
        "",
        "A template is a YAML file under `templates/<game>/` that lays out one face of a",
        "product's items. Coordinates run from the trim's top-left corner, y down.",
        "",
        "## Top-level keys",
        "",
        *(f"- `{key}`: {meaning}" for key, meaning in template.TEMPLATE_KEYS.items()),
        "",
        "## Units",
        "",
        f"A {template.LENGTH} is {template.LENGTH_DOC}.",
        "",
        "## What a face's jinja sees",
        "",
        *(f"- `{name}`: {meaning}" for name, meaning in FACE_CONTEXT.items()),
        *(f"- `{name}`: {meaning}" for name, meaning in template.FACE_NAMES.items()),
        "- each name of the template's `vars`, and a repeated box's `as` name",
        "",
        f"Any value {_JINJA}; a value that is exactly one `{{{{ … }}}}` keeps its type.",
        "",
        "## Box types",
        "",
    ]
    for kind in sorted(template.BOX_KEYS):
        lines += [f"### `{kind}`", "", template.BOX_DOCS[kind].capitalize() + ".", ""]
        lines += ["| key | kind | meaning |", "| --- | --- | --- |"]
        for key in sorted(template.BOX_KEYS[kind] | template.COMMON_KEYS):
            kind_of, meaning = template.KEY_DOCS[key]
            lines.append(f"| `{key}` | {kind_of} | {meaning} |")
        lines.append("")
    return "\n".join(lines)
