"""An asset path stays inside the game's content folder: no file of the build machine can be
put into a PDF by a content or template change."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from PIL import Image

from pnp.cli import main
from pnp.content.assets import read_asset
from pnp.content.sources import take_snapshot
from pnp.errors import TemplateError
from tests.conftest import CONTENT, TEMPLATES


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A game folder with one image, and a secret image beside the folder."""
    folder = tmp_path / "content" / "game"
    (folder / "art").mkdir(parents=True)
    Image.new("RGB", (4, 4), "red").save(folder / "art" / "ok.png")
    Image.new("RGB", (4, 4), "blue").save(tmp_path / "secret.png")
    return folder


def test_an_image_inside_the_folder_is_read(tree: Path) -> None:
    assert read_asset(tree, "art/ok.png", "t.yaml:3") == (tree / "art" / "ok.png").read_bytes()


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("ABSOLUTE", "absolute paths are not allowed"),
        ("../../secret.png", "lies outside the game's content folder"),
        ("art/../../../secret.png", "lies outside the game's content folder"),
        ("art/missing.png", "not found"),
        ("art/ok.txt", "expected a .png"),
        ("", "empty path"),
    ],
)
def test_a_path_out_of_the_folder_is_refused_with_its_place(
    tree: Path, name: str, message: str
) -> None:
    if name == "ABSOLUTE":
        name = str(tree.parent.parent / "secret.png")
    with pytest.raises(TemplateError, match=message) as caught:
        read_asset(tree, name, "templates/x/face.yaml:12")
    assert str(caught.value).startswith("templates/x/face.yaml:12: ")
    # The same from the snapshot a build reads.
    snapshot = take_snapshot(tree, tree.parent / "templates")
    with snapshot.pinned(), pytest.raises(TemplateError, match=message) as caught:
        read_asset(tree, name, "templates/x/face.yaml:12")
    assert str(caught.value).startswith("templates/x/face.yaml:12: ")


def test_a_symlink_out_of_the_folder_is_refused(tree: Path) -> None:
    (tree / "art" / "link.png").symlink_to(tree.parent.parent / "secret.png")
    with pytest.raises(TemplateError, match="outside the game's content folder"):
        read_asset(tree, "art/link.png", "t.yaml:1")
    snapshot = take_snapshot(tree, tree.parent / "templates")
    with (
        snapshot.pinned(),
        pytest.raises(TemplateError, match="leads outside its folder") as caught,
    ):
        read_asset(tree, "art/link.png", "t.yaml:1")
    assert "secret" not in str(caught.value)  # the target is never quoted


def test_build_refuses_a_face_that_shows_a_file_outside_the_content(tmp_path: Path) -> None:
    content, templates = tmp_path / "content", tmp_path / "templates"
    shutil.copytree(CONTENT / "deadline-99", content / "deadline-99")
    shutil.copytree(TEMPLATES / "deadline-99", templates / "deadline-99")
    Image.new("RGB", (4, 4), "blue").save(tmp_path / "secret.png")
    face = templates / "deadline-99" / "variant-card.yaml"
    face.write_text(
        face.read_text(encoding="utf-8")
        + "  - {type: image, x: 1mm, y: 1mm, w: 5mm, h: 5mm, src: ../../secret.png}\n",
        encoding="utf-8",
    )
    line = face.read_text(encoding="utf-8").count("\n")
    result = CliRunner().invoke(
        main, ["--content", str(content), "build", "deadline-99", "--out", str(tmp_path / "out")]
    )
    assert result.exit_code != 0
    # Found while checking the content, before any file of the kit is written.
    where = f"variant-card.yaml:{line}: deadline-99: product 'variant-cards': image "
    assert where in result.stderr
    assert "'../../secret.png' lies outside the game's content folder" in result.stderr
    assert not (tmp_path / "out" / "deadline-99").exists()
    assert "Traceback" not in result.stdout + result.stderr
