"""Exports made once per run, read back by the tests: every export of Deadline 99, and every
game's Tabletop Simulator save."""

from __future__ import annotations

from pathlib import Path

import pytest

from pnp.content.loader import LoadedGame
from pnp.export import export_game

from ..conftest import TEMPLATES, made_once

BASE_URL = "https://example.org/dl99"


def every_export(factory: pytest.TempPathFactory, game: LoadedGame) -> Path:
    """output/<game>/export/ with every export of the default profile."""

    def make(folder: Path) -> None:
        for fmt in ("png", "tts", "gallery"):
            export_game(game, fmt, folder / game.slug, TEMPLATES, base_url=BASE_URL)

    return made_once(factory, f"exports-{game.slug}", make) / game.slug / "export"


def tts_export(factory: pytest.TempPathFactory, game: LoadedGame) -> Path:
    """output/<game>/export/tts/: Deadline 99's from `every_export`, another game's alone."""
    if game.slug == "deadline-99":
        return every_export(factory, game) / "tts"

    def make(folder: Path) -> None:
        export_game(game, "tts", folder, TEMPLATES, base_url=BASE_URL)

    return made_once(factory, f"tts-{game.slug}", make) / "export" / "tts"


@pytest.fixture(scope="session")
def exported(deadline_99: LoadedGame, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return every_export(tmp_path_factory, deadline_99)


def copies_by_card(game: LoadedGame, cards_only: bool = True) -> dict[tuple[str, str], int]:
    """(product, item id) -> copies, for every item of the game's (card) products."""
    found = {}
    for product in game.model.products:
        if cards_only and product.kind.value != "cards":
            continue
        for item in getattr(game.model, product.items):
            found[(product.id, str(item.id))] = int(item.copies)
    return found
