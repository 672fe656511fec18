"""The templates' schema and reference page come from the tables the template code checks
boxes against, so they say what a template may hold, all of it and nothing else."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from pnp.content.loader import LoadedGame
from pnp.errors import TemplateError
from pnp.layout import template
from pnp.layout.products import FACE_CONTEXT, layout_front
from pnp.layout.reference import template_reference, template_schema
from tests.conftest import TEMPLATES

SCAFFOLD = Path(template.__file__).parent.parent / "scaffold" / "files" / "templates"


def test_every_key_a_box_accepts_is_documented_and_every_documented_key_is_accepted() -> None:
    accepted = set().union(*template.BOX_KEYS.values()) | template.COMMON_KEYS
    assert set(template.KEY_DOCS) == accepted
    assert set(template.BOX_DOCS) == set(template.BOX_KEYS)


@functools.cache
def template_validator() -> jsonschema.Draft202012Validator:
    """The templates' schema, checked against JSON Schema's own once (a tenth of a second)
    rather than for each of the 74 templates."""
    schema = template_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize(
    "path",
    sorted(TEMPLATES.glob("*/*.yaml")) + sorted(SCAFFOLD.glob("*.yaml")),
    ids=lambda p: f"{p.parent.name}/{p.name}",
)
def test_every_shipped_template_passes_the_schema(path: Path) -> None:
    errors = list(
        template_validator().iter_errors(yaml.safe_load(path.read_text(encoding="utf-8")))
    )
    assert not errors, errors[0].message


def test_a_typo_in_a_box_fails_the_schema_as_it_fails_the_template(tmp_path: Path) -> None:
    face = {"boxes": [{"type": "rect", "x": 0, "y": 0, "w": "5mm", "h": "5mm", "colour": "red"}]}
    assert not template_validator().is_valid(face)
    (tmp_path / "face.yaml").write_text(yaml.safe_dump(face), encoding="utf-8")
    with pytest.raises(TemplateError, match="colour"):
        template.load_template(tmp_path, "face.yaml")


def test_the_names_a_face_sees_are_the_documented_ones(
    deadline_99: LoadedGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[set[str]] = []
    painter = template._Painter

    class Recording(painter):  # type: ignore[misc,valid-type]
        def __init__(self, face: Any, scope: dict[str, Any], *args: Any) -> None:
            seen.append(set(scope))
            super().__init__(face, scope, *args)

    monkeypatch.setattr(template, "_Painter", Recording)
    template._FACES.clear()  # faces laid out by earlier tests would not be painted again
    template._SHAPES.clear()
    product = deadline_99.model.products[0]
    item = getattr(deadline_99.model, product.items)[0]
    with deadline_99.reading():
        layout_front(deadline_99, product, TEMPLATES, 0.0, item)
        face = template.load_template(TEMPLATES, product.face)
    assert seen, "the face was laid out"
    assert seen[0] == set(FACE_CONTEXT) | set(template.FACE_NAMES) | set(face.variables)


def test_the_reference_page_names_every_box_key_and_face_name() -> None:
    page = template_reference()
    for kind, keys in template.BOX_KEYS.items():
        assert f"### `{kind}`" in page
        for key in keys:
            assert f"| `{key}` | {template.KEY_DOCS[key][0]} |" in page
    for name in (*FACE_CONTEXT, *template.FACE_NAMES):
        assert f"- `{name}`:" in page
