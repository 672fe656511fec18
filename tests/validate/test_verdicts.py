"""The gate's passing verdicts: unchanged content that passed is not checked again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pnp.errors import ContentError
from pnp.validate import runner
from pnp.validate.runner import load_checked

from ..conftest import TEMPLATES


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """The games the static checks ran on, with a verdict store of this test's own."""
    monkeypatch.setenv("PNP_PARSE_CACHE", str(tmp_path / "store"))
    ran: list[str] = []
    check_static = runner.check_static

    def counted(game: Any, templates_root: Path) -> Any:
        ran.append(game.slug)
        return check_static(game, templates_root)

    monkeypatch.setattr(runner, "check_static", counted)
    return ran


def test_content_that_passed_is_not_checked_again_until_a_file_changes(
    content_copy: Path, checks: list[str]
) -> None:
    for _ in range(2):
        load_checked(content_copy, "maquis", TEMPLATES)
    assert checks == ["maquis"]
    rules = next((content_copy / "maquis").glob("*.yaml"))
    rules.write_text(rules.read_text(encoding="utf-8") + "\n# 改过\n", encoding="utf-8")
    load_checked(content_copy, "maquis", TEMPLATES)
    assert checks == ["maquis", "maquis"]


def test_content_that_fails_is_checked_every_time(content_copy: Path, checks: list[str]) -> None:
    rulebook = content_copy / "deadline-99" / "rulebook.yaml"
    text = rulebook.read_text(encoding="utf-8")
    rulebook.write_text(text.replace("item: 7-heart", "item: 7-hearts"), encoding="utf-8")
    for _ in range(2):
        with pytest.raises(ContentError):
            load_checked(content_copy, "deadline-99", TEMPLATES)
    assert checks == ["deadline-99", "deadline-99"]


def test_with_the_store_off_every_command_checks(
    content_copy: Path, checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PNP_PARSE_CACHE", "off")
    for _ in range(2):
        load_checked(content_copy, "maquis", TEMPLATES)
    assert checks == ["maquis", "maquis"]


def test_content_edited_as_it_was_loaded_is_not_remembered_under_the_old_key(
    content_copy: Path, checks: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file fixed between taking the key and loading: the pass is of the fixed content, and
    must not vouch for the broken content the key was taken of."""
    rulebook = content_copy / "deadline-99" / "rulebook.yaml"
    fixed = rulebook.read_text(encoding="utf-8")
    broken = fixed.replace("item: 7-heart", "item: 7-hearts")
    rulebook.write_text(broken, encoding="utf-8")
    load_game = runner.load_game

    def fixed_meanwhile(content_root: Path, slug: str) -> Any:
        rulebook.write_text(fixed, encoding="utf-8")
        return load_game(content_root, slug)

    monkeypatch.setattr(runner, "load_game", fixed_meanwhile)
    load_checked(content_copy, "deadline-99", TEMPLATES)  # the fixed content passes
    monkeypatch.setattr(runner, "load_game", load_game)
    rulebook.write_text(broken, encoding="utf-8")
    with pytest.raises(ContentError):
        load_checked(content_copy, "deadline-99", TEMPLATES)
