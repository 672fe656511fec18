"""An icon a text places that no set has, and an icon that cannot be drawn, are located
validate findings (exit 1), wherever the text is: a template, content a face shows, rulebook
prose, a glossary row, the icon files themselves."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from tests.conftest import CONTENT, TEMPLATES


def _sub(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


CASES: dict[str, tuple[Callable[[Path], None], str]] = {
    "a template's own text": (
        lambda root: _sub(
            root / "templates/deadline-99/variant-card.yaml",
            'text: "变体牌"',
            'text: "变体[[lfe]]"',
        ),
        r"templates/deadline-99/variant-card\.yaml:8: deadline-99: .*unknown icon \[\[lfe\]\] "
        r"\(did you mean \[\[life\]\]\?\)",
    ),
    "content a face shows": (
        lambda root: _sub(
            root / "content/deadline-99/variants.yaml", "name: 天使", "name: 天[[wing]]"
        ),
        r"variant-card\.yaml:10: deadline-99: .*unknown icon \[\[wing\]\].*item 'angel'",
    ),
    "rulebook prose": (
        lambda root: _sub(
            root / "content/deadline-99/rulebook.yaml",
            "桌面上只有一个所有人共用的计数。",
            "桌面上只有一个[[counter]]。",
        ),
        r"content/deadline-99/rulebook\.yaml:\d+:\d+: deadline-99: rulebook .*unknown icon "
        r"\[\[counter\]\]",
    ),
    "a glossary row": (
        lambda root: _sub(
            root / "content/deadline-99/rulebook.yaml",
            "    - term: 出局\n",
            "    - term: 出局\n      icon: skul\n",
        ),
        r"content/deadline-99/rulebook\.yaml:\d+:\d+: deadline-99: glossary '出局': icon: "
        r"unknown icon \[\[skul\]\] \(did you mean \[\[skull\]\]\?\)",
    ),
    "an icon whose term the glossary does not explain": (
        lambda root: _sub(root / "content/deadline-99/icons.yaml", "term: 计数", "term: 总数"),
        r"content/deadline-99/icons\.yaml:\d+:\d+: deadline-99: icon 'count': the glossary has "
        r"no row for its term '总数'",
    ),
    "a path that cannot be drawn": (
        lambda root: _sub(root / "templates/icons.yaml", "M12 21.5 C10.5", "M12 21.5 A10.5"),
        r"templates/icons\.yaml:\d+:\d+: deadline-99: icon 'life': path: arcs \(A\) are not drawn",
    ),
}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    shutil.copytree(CONTENT / "deadline-99", tmp_path / "content" / "deadline-99")
    shutil.copytree(TEMPLATES / "deadline-99", tmp_path / "templates" / "deadline-99")
    shutil.copy(TEMPLATES / "icons.yaml", tmp_path / "templates" / "icons.yaml")
    return tmp_path


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_icon_mistake_is_a_located_finding(tree: Path, case: str) -> None:
    edit, expected = CASES[case]
    edit(tree)
    result = CliRunner().invoke(
        main, ["--content", str(tree / "content"), "validate", "deadline-99", "--static-only"]
    )
    output = result.stdout + result.stderr
    assert result.exit_code == 1, output
    assert re.search(expected, output), output
    assert "Traceback" not in output and "internal error" not in output


def test_the_shipped_icons_validate(tree: Path) -> None:
    result = CliRunner().invoke(
        main, ["--content", str(tree / "content"), "validate", "deadline-99", "--static-only"]
    )
    assert result.exit_code == 0, result.stdout + result.stderr
