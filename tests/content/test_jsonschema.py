"""The JSON Schemas generated from the models accept all content and catch what the loader does."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from pnp.content.jsonschema import DRAFT, game_schema, schema_text, write_schemas
from pnp.content.yamlsource import MappingNode, Node, ScalarNode, SequenceNode, load_yaml
from pnp.registry import games

CONTENT = Path(__file__).resolve().parents[2] / "content"
GAMES = sorted(games())


def _data(node: Node) -> Any:
    """A YAML node as the plain data an editor's YAML language server checks."""
    if isinstance(node, MappingNode):
        return {key: _data(value) for key, (_, value) in node.entries.items()}
    if isinstance(node, SequenceNode):
        return [_data(item) for item in node.items]
    assert isinstance(node, ScalarNode)
    return node.value


@functools.cache
def _validator(slug: str) -> jsonschema.protocols.Validator:
    """One checked validator a game: checking the schema and resolving its references again
    for every file cost the suite twenty seconds."""
    schema = game_schema(slug)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def _errors(slug: str, data: Any) -> list[str]:
    return sorted(
        f"{'/'.join(map(str, error.absolute_path))}: {error.message}"
        for error in _validator(slug).iter_errors(data)
    )


def test_five_games_are_registered() -> None:
    assert GAMES == ["arena-tales", "deadline-99", "dragon-hoard", "maquis", "mineventure"]


@pytest.mark.parametrize("slug", GAMES)
def test_every_content_file_validates(slug: str) -> None:
    files = sorted((CONTENT / slug).glob("*.yaml"))
    assert files
    for path in files:
        data = _data(load_yaml(path, f"content/{slug}/{path.name}"))
        assert _errors(slug, data) == [], path.name


def test_a_misspelt_key_is_rejected() -> None:
    data = _data(load_yaml(CONTENT / "deadline-99" / "game.yaml", "game.yaml"))
    data["settings"]["hand_sise"] = data["settings"].pop("hand_size")
    errors = _errors("deadline-99", data)
    assert any("'hand_sise' was unexpected" in error for error in errors), errors
    assert any("'hand_size' is a required property" in error for error in errors), errors


def test_a_wrong_type_and_enum_value_are_rejected() -> None:
    data = {
        "settings": {"hand_size": "five"},
        "products": [{"id": "x", "title": "X", "kind": "card", "items": "ranks", "face": "f.yaml"}],
    }
    errors = _errors("deadline-99", data)
    assert "settings/hand_size: 'five' is not of type 'integer'" in errors
    assert any(e.startswith("products/0/kind: 'card' is not one of") for e in errors), errors


def test_an_unknown_top_level_key_is_rejected_and_every_key_is_optional() -> None:
    assert _errors("maquis", {}) == []
    assert _errors("maquis", {"decsions": []}) == [
        ": Additional properties are not allowed ('decsions' was unexpected)"
    ]


def test_field_docs_become_descriptions() -> None:
    schema = game_schema("deadline-99")
    assert schema["$schema"] == DRAFT
    assert schema["additionalProperties"] is False
    product = schema["$defs"]["Product"]
    assert product["additionalProperties"] is False
    assert product["properties"]["note"]["description"] == (
        "printing or cutting note for the cover page (string, optional)"
    )
    assert product["properties"]["note"]["default"] == ""
    assert "where" not in product["properties"]  # filled by the loader, never written
    assert set(product["required"]) == {"id", "title", "kind", "items", "face"}
    kind = schema["$defs"]["ProductKind"]
    assert kind["enum"] == ["cards", "sheet"]
    assert kind["markdownEnumDescriptions"][0].startswith("Cards at true size")
    nullable = schema["$defs"]["Track"]["properties"]["off_track"]
    assert nullable["anyOf"] == [{"type": "integer"}, {"type": "null"}]


def test_schema_text_is_stable_and_written_per_game(tmp_path: Path) -> None:
    assert schema_text("dragon-hoard") == schema_text("dragon-hoard")
    written = write_schemas(tmp_path / "schemas", ["deadline-99", "maquis"])
    assert [path.name for path in written] == [
        "deadline-99.schema.json",
        "maquis.schema.json",
    ]
    assert json.loads(written[0].read_text(encoding="utf-8")) == game_schema("deadline-99")
    assert sorted(p.name for p in (tmp_path / "schemas").iterdir()) == [
        "deadline-99.schema.json",
        "maquis.schema.json",
    ]
