"""Fixtures shared across the suite: the repository's content, and kits built once."""

from __future__ import annotations

import gc
import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.engines.batch import FULL_COLLECTION_EVERY
from pnp.output import folder_lock
from pnp.paths import REPOSITORY

if TYPE_CHECKING:
    from pnp.rulebook.build import RulebookFiles

CONTENT = REPOSITORY / "content"
TEMPLATES = REPOSITORY / "templates"


def pytest_configure(config: pytest.Config) -> None:
    """Full garbage collections made rare in the test processes, as pnp makes them while it
    plays (pnp.engines.batch.few_full_collections): a process that has run hundreds of tests
    holds 1-3 million objects in the modules' memos (loaded games, layouts, the policies'
    memos), and the 20-odd full collections a run made walked them all, 9-15 % of each
    process's CPU, to free little (a worker's peak memory grew from about 0.9 to 1.1 GB)."""
    young, middle, full = gc.get_threshold()
    gc.set_threshold(young, middle, max(full, FULL_COLLECTION_EVERY))


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session) -> None:
    """What the run leaves is kept as it is: pytest's last collections (its check for
    exceptions raised in finalizers) and the interpreter's exit walked the same millions of
    objects once more, 5-10 s of a process after its last test. (A finalizer raising in a cycle
    left from an early test then goes unreported, as in any process that exits.)"""
    gc.freeze()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``long`` (several seconds each) run first: the processes of a parallel
    run then finish together on short tests, where one that drew a long test last kept the
    run going alone."""
    items.sort(key=lambda item: item.get_closest_marker("long") is None)


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


def made_once(factory: pytest.TempPathFactory, name: str, make: Callable[[Path], object]) -> Path:
    """The folder ``make`` fills, made once for the whole run: the workers of a parallel run
    share it (the first to ask makes it while the others wait), where each made its own copy
    of every kit and rulebook its tests read. The tests only read what is in it."""
    root = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's folder, above each worker's own
    folder = root / f"made-once-{name}"
    with folder_lock(folder):
        made = root / f"made-once-{name}.made"  # beside it: the tests look at every file in it
        if not made.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            make(folder)
            made.touch()
    return folder


def kit_once(factory: pytest.TempPathFactory, game: LoadedGame) -> Path:
    """The game's kit at the default options (A4, every product, a cover), built once for the
    whole run (see `made_once`)."""
    return made_once(factory, f"kit-{game.slug}", lambda folder: build(game, folder))


def rulebook_once(factory: pytest.TempPathFactory, game: LoadedGame) -> RulebookFiles:
    """The game's rulebook editions, built once for the whole run (see `made_once`)."""
    from pnp.rulebook.build import RulebookFiles, build_rulebook

    def make(folder: Path) -> None:
        files = build_rulebook(game, folder, TEMPLATES)
        record = {
            "reading": files.reading.name,
            "booklet": files.booklet.name,
            "pages": files.pages,
            "sheets": files.sheets,
            "problems": list(files.problems),
        }
        (folder / "files.json").write_text(json.dumps(record), encoding="utf-8")

    folder = made_once(factory, f"rulebook-{game.slug}", make)
    record = json.loads((folder / "files.json").read_text(encoding="utf-8"))
    return RulebookFiles(
        reading=folder / record["reading"],
        booklet=folder / record["booklet"],
        pages=record["pages"],
        sheets=record["sheets"],
        problems=tuple(record["problems"]),
    )


@pytest.fixture(scope="session")
def kit_a4(deadline_99: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return kit_once(tmp_path_factory, deadline_99)


@pytest.fixture(scope="session")
def kit_letter(deadline_99: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return made_once(
        tmp_path_factory, "kit-letter", lambda folder: build(deadline_99, folder, paper="letter")
    )
