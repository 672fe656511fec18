"""Fixtures shared across the suite: the repository's content, and kits built once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.paths import REPOSITORY

CONTENT = REPOSITORY / "content"
TEMPLATES = REPOSITORY / "templates"


@pytest.fixture(scope="session")
def deadline_99() -> LoadedGame:
    return load_game(CONTENT, "deadline-99")


@pytest.fixture
def content_copy(tmp_path: Path) -> Path:
    """A private copy of the content tree, for tests that seed a mistake into it."""
    target = tmp_path / "content"
    shutil.copytree(CONTENT, target)
    return target


def build(game: LoadedGame, out: Path, **options: object) -> Path:
    from pnp.kit import build_kit
    from pnp.options import BuildOptions

    build_kit(game, out, TEMPLATES, BuildOptions(**options))  # type: ignore[arg-type]
    return out


@pytest.fixture(scope="session")
def kit_a4(deadline_99: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(deadline_99, tmp_path_factory.mktemp("kit-a4"))


@pytest.fixture(scope="session")
def kit_letter(deadline_99: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(deadline_99, tmp_path_factory.mktemp("kit-letter"), paper="letter")
