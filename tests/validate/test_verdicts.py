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

    def counted(game: Any, templates_root: Path, **options: Any) -> Any:
        ran.append(game.slug)
        return check_static(game, templates_root, **options)

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


def test_a_verdict_holds_for_the_bytes_that_were_checked_whatever_the_files_do_meanwhile(
    content_copy: Path, checks: list[str]
) -> None:
    """Broken -> fixed -> broken while the gate runs: the pass is of the bytes it checked (the
    fixed ones), and the broken content is checked and refused afterwards."""
    from pnp.content.loader import load_game
    from pnp.content.sources import take_snapshot
    from pnp.validate.runner import require_clean

    rulebook = content_copy / "deadline-99" / "rulebook.yaml"
    fixed = rulebook.read_text(encoding="utf-8")
    broken = fixed.replace("item: 7-heart", "item: 7-hearts")
    snapshot = take_snapshot(content_copy / "deadline-99", TEMPLATES)  # the fixed bytes
    rulebook.write_text(broken, encoding="utf-8")  # saved while the checks run
    game = load_game(content_copy, "deadline-99", templates_root=TEMPLATES, sources=snapshot)
    require_clean(game, TEMPLATES)  # the fixed content passes
    with pytest.raises(ContentError):
        load_checked(content_copy, "deadline-99", TEMPLATES)
    assert checks == ["deadline-99", "deadline-99"]


def test_a_planted_pass_does_not_let_broken_content_through(
    content_copy: Path, checks: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A CI cache restored from shared storage may hold a pass for anything: only a pass this
    user sealed on this machine counts."""
    from pnp.content.loader import load_game
    from pnp.validate import verdicts

    rulebook = content_copy / "deadline-99" / "rulebook.yaml"
    text = rulebook.read_text(encoding="utf-8")
    rulebook.write_text(text.replace("item: 7-heart", "item: 7-hearts"), encoding="utf-8")
    key = verdicts.verdict_key(
        load_game(content_copy, "deadline-99", templates_root=TEMPLATES).digest
    )
    path = tmp_path / "store" / "verdicts" / key
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")  # the store's old format: an empty file was a pass
    with pytest.raises(ContentError):
        load_checked(content_copy, "deadline-99", TEMPLATES)
    # Sealed by someone else (another machine's or user's key): no pass either.
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "elsewhere"))
    verdicts.remember_passed(key)
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "here"))
    with pytest.raises(ContentError):
        load_checked(content_copy, "deadline-99", TEMPLATES)
    assert checks == ["deadline-99", "deadline-99"]
