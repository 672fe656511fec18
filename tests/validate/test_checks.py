"""The checks every game's content gets: ids and product templates, seeded into a copy."""

from __future__ import annotations

import shutil
from pathlib import Path

from pnp.errors import Problem
from pnp.validate.runner import validate_games
from tests.conftest import TEMPLATES
from tests.validate.seeding import Seeding, only

DEADLINE = Seeding("deadline-99")


def test_an_id_too_long_for_a_file_name_is_an_error(content_copy: Path) -> None:
    DEADLINE.edit(content_copy, "kit.yaml", "id: count-tracker", "id: " + "x" * 300)
    problem = only(DEADLINE.validate(content_copy), r"characters long \(at most 64\)")
    assert problem.location.path.endswith("kit.yaml")
    assert problem.location.line == DEADLINE.line_of(content_copy, "kit.yaml", "x" * 300)


def test_a_product_template_outside_the_templates_folder_is_an_error(content_copy: Path) -> None:
    DEADLINE.edit(
        content_copy,
        "kit.yaml",
        "face: deadline-99/count-tracker.yaml",
        "face: ../content/deadline-99/game.yaml",
    )
    problem = only(DEADLINE.validate(content_copy), "lies outside the templates folder")
    assert problem.location.path.endswith("kit.yaml") and problem.location.line > 0


def test_a_card_too_large_for_the_paper_is_a_located_error(content_copy: Path) -> None:
    DEADLINE.edit(content_copy, "kit.yaml", "size: poker", "size: 4x563mm")
    problem = only(DEADLINE.validate(content_copy), "does not fit on a 210x297 mm page")
    assert problem.location.path.endswith("kit.yaml")
    assert "on a4" in problem.message


def test_a_rulebook_figure_of_a_missing_card_is_a_located_error(content_copy: Path) -> None:
    DEADLINE.edit(content_copy, "rulebook.yaml", "item: 7-heart", "item: 7-hearts")
    problem = only(DEADLINE.validate(content_copy), "has no item '7-hearts'")
    assert "did you mean '7-heart'" in problem.message
    assert problem.location.path.endswith("rulebook.yaml")


def _templates_copy(tmp_path: Path) -> Path:
    target = tmp_path / "templates"
    shutil.copytree(TEMPLATES, target)
    return target


def _validate_with(content: Path, templates: Path) -> list[Problem]:
    result = validate_games(content, ["deadline-99"], templates, simulate=False)
    return [p for p in result.problems if p.severity == "error"]


def test_a_face_naming_a_missing_field_fails_validate_at_its_template_line(
    content_copy: Path, tmp_path: Path
) -> None:
    # `pnp build` would stop on this face; validate must say so first, where it is.
    templates = _templates_copy(tmp_path)
    face = templates / "deadline-99" / "variant-card.yaml"
    face.write_text(face.read_text().replace("{{ item.name }}", "{{ item.nmae }}", 1))
    problem = only(_validate_with(content_copy, templates), "has no attribute 'nmae'")
    assert problem.location.path.endswith("deadline-99/variant-card.yaml")
    lines = face.read_text().splitlines()
    assert problem.location.line == next(i for i, t in enumerate(lines, 1) if "nmae" in t)


def test_a_face_showing_a_missing_image_fails_validate_at_its_template_line(
    content_copy: Path, tmp_path: Path
) -> None:
    templates = _templates_copy(tmp_path)
    face = templates / "deadline-99" / "variant-card.yaml"
    face.write_text(
        face.read_text()
        + '  - {type: image, x: 1mm, y: 1mm, w: 5mm, h: 5mm, src: "art/missing.png"}\n'
    )
    problem = only(_validate_with(content_copy, templates), "'art/missing.png' not found")
    assert problem.location.path.endswith("deadline-99/variant-card.yaml")
    assert problem.location.line == len(face.read_text().splitlines())


def test_a_face_showing_a_corrupt_image_fails_validate_before_any_build(
    content_copy: Path, tmp_path: Path
) -> None:
    templates = _templates_copy(tmp_path)
    (content_copy / "deadline-99" / "art").mkdir()
    (content_copy / "deadline-99" / "art" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot a png")
    face = templates / "deadline-99" / "variant-card.yaml"
    face.write_text(
        face.read_text()
        + '  - {type: image, x: 1mm, y: 1mm, w: 5mm, h: 5mm, src: "art/broken.png"}\n'
    )
    problem = only(_validate_with(content_copy, templates), "is not a readable image")
    assert problem.location.path.endswith("deadline-99/variant-card.yaml")
