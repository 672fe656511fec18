"""Imports flow one way along the data path: model <- content <- {layout <- render,
engines <- validate} <- kit/cli. A stage that reaches backwards breaks the layout's promise."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pnp"
BASE = {"errors", "units"}  # leaf modules every stage may use

# stage -> the stages it may import (besides itself and BASE)
ALLOWED: dict[str, set[str]] = {
    "model": set(),
    "content": {"model"},
    "layout": {"model", "content"},
    "render": {"model", "content", "layout"},
    "engines": {"model"},
    "validate": {"model", "content", "engines", "paths", "rulebook"},
    "rulebook": {"model", "content", "layout", "render", "engines", "paths", "kit"},
    "export": {"model", "content", "layout", "render", "kit", "validate"},
}


def _stage(module_path: Path) -> str:
    relative = module_path.relative_to(PACKAGE)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pnp."):
            found.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("pnp."):
                    found.add(alias.name.split(".")[1])
    return found


@pytest.mark.parametrize("stage", sorted(ALLOWED))
def test_each_stage_imports_only_what_comes_before_it(stage: str) -> None:
    for path in sorted((PACKAGE / stage).rglob("*.py")):
        wrong = _imports(path) - ALLOWED[stage] - BASE - {stage}
        assert not wrong, f"{path.relative_to(PACKAGE.parent)} imports pnp.{sorted(wrong)[0]}"


def test_only_render_imports_reportlab() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        if _stage(path) in {"render", "rulebook"}:
            continue
        text = path.read_text(encoding="utf-8")
        assert "import reportlab" not in text and "from reportlab" not in text, path
