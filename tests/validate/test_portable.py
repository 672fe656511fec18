"""Content YAML that other YAML tools read differently: each such key or value is a located
validate error, so a designer's editor, schema checker or script reads what pnp reads."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.validate.portable import differs


@pytest.mark.parametrize(
    ("text", "key", "reads"),
    [
        ("off", True, "boolean false"),
        ("Yes", False, "boolean true"),
        ("n", False, "boolean false"),
        ("1:20", False, "number 80"),
        ("017", False, "read it as 15, YAML 1.2 ones as 17"),
        ("0o17", False, "YAML 1.2 tools read it as a number"),
        ("1_000", False, "number 1000"),
        ("1e3", False, "YAML 1.2 tools read it as a number"),
    ],
)
def test_scalars_the_yaml_versions_disagree_on_are_named(text: str, key: bool, reads: str) -> None:
    assert reads in (differs(text, key=key) or "")


@pytest.mark.parametrize("text", ["y", "x", "0x1F", "12", "-3", "1.5", "3mm", "0.5", ".inf"])
def test_scalars_every_reader_agrees_on_pass(text: str) -> None:
    assert differs(text, key=True) is None


def test_a_key_and_values_other_tools_misread_fail_validate_at_their_line(tmp_path: Path) -> None:
    content = tmp_path / "content"
    content.mkdir()
    (tmp_path / "templates").mkdir()
    runner = CliRunner()
    assert runner.invoke(main, ["--content", str(content), "new", "duel"]).exit_code == 0
    game = content / "duel" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(
        text.replace("  goal: 10\n", "  goal: 10\n  on: 1:20\n  spare: '1:20'\n"),
        encoding="utf-8",
    )
    line = text.splitlines().index("  goal: 10") + 2
    result = runner.invoke(main, ["--content", str(content), "validate", "--static-only"])
    assert result.exit_code == 1
    lines = [ln.split("/content/")[-1] for ln in result.output.splitlines() if "YAML 1." in ln]
    assert lines == [
        f"duel/game.yaml:{line}:3: duel: key 'on': YAML 1.1 tools read it as the boolean "
        'true, YAML 1.2 ones as text; rename the key or quote it: "on"',
        f"duel/game.yaml:{line}:7: duel: value '1:20': YAML 1.1 tools read it as the "
        'number 80, YAML 1.2 ones as text; quote it: "1:20"',
    ]
    # Validating the same bytes again, in the same process, reports the same errors; once the
    # file is fixed, none.
    again = runner.invoke(main, ["--content", str(content), "validate", "--static-only"])
    assert [ln for ln in again.output.splitlines() if "YAML 1." in ln] == [
        ln for ln in result.output.splitlines() if "YAML 1." in ln
    ]
    # A copy holds the same text under another name: its errors name the copy.
    copy = tmp_path / "copy"
    shutil.copytree(content, copy / "content")
    shutil.copytree(tmp_path / "templates", copy / "templates")
    copied = runner.invoke(main, ["--content", str(copy / "content"), "validate", "--static-only"])
    named = [ln for ln in copied.output.splitlines() if "YAML 1." in ln]
    assert len(named) == 2 and all(ln.startswith(f"{copy}/content/duel/game.yaml:") for ln in named)
    game.write_text(
        text.replace("  goal: 10\n", "  goal: 10\n  'on': '1:20'\n  spare: '1:20'\n"),
        encoding="utf-8",
    )
    fixed = runner.invoke(main, ["--content", str(content), "validate", "--static-only"])
    assert "YAML 1." not in fixed.output
