"""Loading a game: the same bytes give the same model, other bytes another."""

from __future__ import annotations

from pathlib import Path

from pnp.content.loader import load_game


def test_the_same_bytes_read_again_give_the_model_already_made(content_copy: Path) -> None:
    first = load_game(content_copy, "deadline-99")
    again = load_game(content_copy, "deadline-99")
    assert again.model is first.model
    # What the layout memo keys on stays: the faces laid out for the first reading serve both.
    assert again.digest == first.digest


def test_an_edit_of_any_file_is_read_into_a_new_model(content_copy: Path) -> None:
    first = load_game(content_copy, "deadline-99")
    variants = content_copy / "deadline-99" / "variants.yaml"
    variants.write_text(
        variants.read_text(encoding="utf-8").replace("name: 天使", "name: 大天使"),
        encoding="utf-8",
    )
    edited = load_game(content_copy, "deadline-99")
    assert edited.model is not first.model
    assert "大天使" in repr(edited.model) and "大天使" not in repr(first.model)
    variants.write_text(
        variants.read_text(encoding="utf-8").replace("name: 大天使", "name: 天使"),
        encoding="utf-8",
    )
    assert load_game(content_copy, "deadline-99").model is first.model  # back to those bytes


def test_a_template_edit_is_a_new_reading_too(content_copy: Path, tmp_path: Path) -> None:
    import shutil

    from tests.conftest import TEMPLATES

    templates = tmp_path / "templates"
    shutil.copytree(TEMPLATES / "deadline-99", templates / "deadline-99")
    first = load_game(content_copy, "deadline-99", templates_root=templates)
    face = templates / "deadline-99" / "count-tracker.yaml"
    face.write_text(face.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    edited = load_game(content_copy, "deadline-99", templates_root=templates)
    assert edited.digest != first.digest
    assert edited.model is not first.model
