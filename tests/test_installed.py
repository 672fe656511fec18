"""What is installed, read from the distributions' folders: the same answers as
importlib.metadata, which pnp no longer imports on every command."""

from __future__ import annotations

import importlib.metadata
import sys
from pathlib import Path

import pytest

from pnp import installed


def test_the_games_announced_are_the_ones_importlib_metadata_finds() -> None:
    ours = [(e.name, e.value) for e in installed.entry_points("pnp.games")]
    theirs = [(e.name, e.value) for e in importlib.metadata.entry_points(group="pnp.games")]
    assert sorted(ours) == sorted(theirs)
    assert {name for name, _ in ours} >= {"deadline-99", "maquis"}
    (maquis,) = installed.entry_points("pnp.games", "maquis")
    assert maquis.load().slug == "maquis"


def test_the_versions_are_the_installed_ones() -> None:
    for name in ("reportlab", "Jinja2", "PyYAML"):
        wanted = f"{name.lower()}-{importlib.metadata.version(name)}"
        assert wanted in [version.lower() for version in installed.versions()]


def _distribution(root: Path, folder: str, entry_points: str) -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "entry_points.txt").write_text(entry_points, encoding="utf-8")


def test_an_entry_point_is_read_as_python_reads_entry_points_txt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    _distribution(
        first,
        "pnp_extra-1.2.dist-info",
        "# a comment\n[console_scripts]\nextra = x:y\n\n[pnp.games]\n"
        "  extra-game = json.decoder : JSONDecoder [speedups]\n; another\n",
    )
    _distribution(second, "pnp_extra-0.9.dist-info", "[pnp.games]\nold = os:path\n")
    (first / "pnp_extra-1.2.dist-info" / "METADATA").write_text("Version: 1.2\n")
    monkeypatch.setattr(sys, "path", [str(first), str(second)])
    installed.distribution_folders.cache_clear()
    try:
        (found,) = installed.entry_points("pnp.games")  # the first pnp_extra on the path only
        assert (found.name, found.value) == ("extra-game", "json.decoder : JSONDecoder [speedups]")
        import json.decoder

        assert found.load() is json.decoder.JSONDecoder
        assert installed.versions() == ["pnp_extra-1.2"]
        assert installed.entry_points("pnp.games", "elsewhere") == []
    finally:
        installed.distribution_folders.cache_clear()
