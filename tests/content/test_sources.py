"""A command reads a game's files once, by the snapshot's rules: what it reads is what its
records are keyed on, and nothing outside the folder is read."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.content.sources import MAX_FILE_BYTES, read_file, read_tree, take_snapshot
from pnp.errors import ContentError


def test_a_snapshot_holds_the_files_and_skips_hidden_ones(tmp_path: Path) -> None:
    (tmp_path / "art").mkdir()
    (tmp_path / "game.yaml").write_text("a: 1\n", encoding="utf-8")
    (tmp_path / "art" / "x.png").write_bytes(b"png")
    (tmp_path / ".#game.yaml").write_text("broken: [\n", encoding="utf-8")  # an editor's lock
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref\n", encoding="utf-8")
    tree = read_tree(tmp_path, "content/g")
    assert dict(tree.files) == {"art/x.png": b"png", "game.yaml": b"a: 1\n"}
    assert tree.names(".yaml") == ["game.yaml"]
    with pytest.raises(ContentError) as caught:
        tree.read(".#game.yaml")
    assert "hidden files" in caught.value.problems[0].message


def test_the_digest_follows_the_bytes_not_the_times(tmp_path: Path) -> None:
    path = tmp_path / "game.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    first = read_tree(tmp_path, "g").digest
    os.utime(path, (1, 1))
    assert read_tree(tmp_path, "g").digest == first
    path.write_text("a: 2\n", encoding="utf-8")  # same size, other bytes
    assert read_tree(tmp_path, "g").digest != first


def test_a_link_out_of_the_folder_is_refused_without_quoting_its_target(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("root:x:0:0:SECRET-LINE\n", encoding="utf-8")
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "stolen.yaml").symlink_to(secret)
    (folder / "inside.yaml").write_text("a: 1\n", encoding="utf-8")
    (folder / "alias.yaml").symlink_to(folder / "inside.yaml")  # a link that stays inside
    tree = read_tree(folder, "content/game")
    assert tree.files["alias.yaml"] == b"a: 1\n"
    with pytest.raises(ContentError) as caught:
        tree.read("stolen.yaml")
    message = str(caught.value.problems[0])
    assert message.startswith("content/game/stolen.yaml: a symbolic link that leads outside")
    assert "secret" not in message and "SECRET" not in message


def test_validate_refuses_a_content_file_linked_from_outside(
    content_copy: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "passwd"
    secret.write_text("root:x:0:0:SECRET-LINE:/root:/bin/bash\n", encoding="utf-8")
    (content_copy / "deadline-99" / "extra.yaml").symlink_to(secret)
    result = CliRunner().invoke(
        main, ["--content", str(content_copy), "validate", "deadline-99", "--static-only"]
    )
    assert result.exit_code == 1
    assert re.search(
        r"deadline-99/extra\.yaml: deadline-99: a symbolic link that leads outside",
        result.stdout + result.stderr,
    )
    assert "SECRET" not in result.stdout + result.stderr
    assert "passwd" not in result.stdout + result.stderr


def test_a_fifo_is_never_read(tmp_path: Path) -> None:
    # Opening a FIFO for reading blocks until a writer comes: a build would hang forever.
    os.mkfifo(tmp_path / "cards.yaml")
    tree = read_tree(tmp_path, "content/g")
    with pytest.raises(ContentError) as caught:
        tree.read("cards.yaml")
    assert "not a regular file" in caught.value.problems[0].message
    with pytest.raises(ContentError) as caught:
        read_file(tmp_path / "cards.yaml", "content/g/cards.yaml")
    assert "not a regular file" in caught.value.problems[0].message


def test_a_file_too_large_is_refused_with_its_size(tmp_path: Path) -> None:
    with (tmp_path / "huge.png").open("wb") as stream:
        stream.truncate(MAX_FILE_BYTES + 1)
    with pytest.raises(ContentError) as caught:
        read_tree(tmp_path, "g").read("huge.png")
    assert "at most 20 MB" in caught.value.problems[0].message


def test_readers_read_the_pinned_bytes_not_the_disk(tmp_path: Path) -> None:
    folder = tmp_path / "game"
    folder.mkdir()
    (folder / "game.yaml").write_text("a: 1\n", encoding="utf-8")
    snapshot = take_snapshot(folder, tmp_path / "templates")
    (folder / "game.yaml").write_text("a: 2\n", encoding="utf-8")  # saved after the reading
    with snapshot.pinned():
        assert read_file(folder / "game.yaml", "game.yaml") == b"a: 1\n"
    assert read_file(folder / "game.yaml", "game.yaml") == b"a: 2\n"
