"""Imports flow one way along the data path: model <- engines <- registry <- content <-
{layout <- render} <- kit <- rulebook <- validate <- export <- cli, and every game sits on top of
the shared stages. A stage that reaches backwards (even for a type only), a shared stage that
names a game, or a game that reaches into another game breaks the layout's promise."""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pnp"
BASE = {
    "errors",
    "units",
    "output",
    "paths",
    "cores",
    "installed",
    "trust",
}  # leaf modules every stage may use

# stage -> the stages it may import (besides itself and BASE), lowest first. The registry sits
# just above the engines: it names a game's model and engine, and the loader asks it which
# model a game's content reads into, so nothing the loader leads to may be named by it.
ALLOWED: dict[str, set[str]] = {
    "model": set(),
    "engines": {"model"},
    "registry": {"model", "engines"},
    "content": {"model", "registry"},
    "layout": {"model", "content", "registry"},
    "render": {"model", "content", "layout", "registry"},
    "options": {"model", "content", "layout"},
    "kit": {"model", "content", "layout", "render", "options", "registry"},
    "rulebook": {"model", "content", "layout", "render", "engines", "kit", "options", "registry"},
    "validate": {
        "model",
        "content",
        "layout",
        "render",
        "options",
        "kit",
        "engines",
        "rulebook",
        "registry",
    },
    "export": {"model", "content", "layout", "render", "kit", "validate", "registry"},
    "scaffold": set(),
    "games": {"model", "content", "engines", "validate", "registry"},
    "play": {"model", "content", "layout", "render", "engines", "export", "validate", "registry"},
    "tune": {"model", "content", "engines", "validate", "registry"},
}
TOP = {"cli", "__main__", "__init__"}  # the command line: may import every stage
GAMES = sorted(
    path.name for path in (PACKAGE / "games").iterdir() if (path / "__init__.py").is_file()
)


def _stage(module_path: Path) -> str:
    relative = module_path.relative_to(PACKAGE)
    return relative.parts[0] if len(relative.parts) > 1 else relative.stem


@functools.cache
def _nodes(path: Path) -> tuple[ast.AST, ...]:
    """Every node of a source file's tree, parsed once for the run: a dozen checks walk all
    of pnp's files, and parsing them for each cost the suite ten seconds."""
    return tuple(ast.walk(ast.parse(path.read_text(encoding="utf-8"))))


def _modules(path: Path) -> set[str]:
    """The dotted pnp modules a file imports, under ``if TYPE_CHECKING:`` too: a type-only
    import still ties the importer to that layer for every reader and for mypy."""
    found: set[str] = set()
    for node in _nodes(path):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("pnp"):
            if node.module == "pnp":
                found.update(f"pnp.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("pnp."))
    return found


def _imports(path: Path) -> set[str]:
    return {module.split(".")[1] for module in _modules(path) if module.count(".") >= 1}


def _sources() -> list[Path]:
    return sorted(path for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts)


def test_every_module_has_a_place_in_the_layers() -> None:
    placed = BASE | set(ALLOWED) | TOP
    for path in _sources():
        assert _stage(path) in placed, (
            f"{path.relative_to(PACKAGE.parent)}: add {_stage(path)!r} to BASE or ALLOWED"
        )


def test_the_layers_allow_no_cycle() -> None:
    # A back edge written into ALLOWED would let an upward import pass the test below.
    def below(stage: str, seen: tuple[str, ...]) -> None:
        for lower in sorted(ALLOWED.get(stage, set())):
            assert lower not in seen, " -> ".join((*seen, lower))
            below(lower, (*seen, lower))

    for stage in sorted(ALLOWED):
        below(stage, (stage,))


@pytest.mark.parametrize("stage", sorted(ALLOWED))
def test_each_stage_imports_only_what_comes_before_it(stage: str) -> None:
    for path in _sources():
        if _stage(path) != stage:
            continue
        wrong = _imports(path) - ALLOWED[stage] - BASE - {stage}
        assert not wrong, f"{path.relative_to(PACKAGE.parent)} imports pnp.{sorted(wrong)[0]}"


def test_base_modules_import_only_each_other() -> None:
    for name in sorted(BASE):
        wrong = _imports(PACKAGE / f"{name}.py") - BASE
        assert not wrong, f"pnp/{name}.py imports pnp.{sorted(wrong)[0]}"


def test_no_shared_module_imports_a_game() -> None:
    for path in _sources():
        if _stage(path) == "games":
            continue
        assert "games" not in _imports(path), f"{path.relative_to(PACKAGE.parent)} imports a game"


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_no_other_game(game: str) -> None:
    for path in sorted((PACKAGE / "games" / game).rglob("*.py")):
        for module in _modules(path):
            parts = module.split(".")
            if parts[:2] == ["pnp", "games"] and len(parts) > 2:
                assert parts[2] == game, f"{path.relative_to(PACKAGE.parent)} imports {module}"


def test_every_game_package_is_announced_as_an_entry_point() -> None:
    import tomllib

    project = tomllib.loads((PACKAGE.parent / "pyproject.toml").read_text(encoding="utf-8"))
    announced = project["project"]["entry-points"]["pnp.games"]
    assert {value.split(":")[0] for value in announced.values()} == {
        f"pnp.games.{game}" for game in GAMES
    }


def test_only_render_imports_reportlab() -> None:
    for path in sorted(PACKAGE.rglob("*.py")):
        if _stage(path) in {"render", "rulebook"}:
            continue
        text = path.read_text(encoding="utf-8")
        assert "import reportlab" not in text and "from reportlab" not in text, path


# Names reportlab keeps to itself that pnp uses (see pnp/render/reportlab_adapter.py).
REPORTLAB_INTERNALS = {
    "_code",
    "_doc",
    "_extgstate",
    "_strokeAndFill",
    "_curr_tx_info",
    "_dynamicFont",
    "_enforceColorSpace",
    "_x0",
    "_x_offset",
    "_justifyDrawParaLineX",
    "charWidths",
    "charToGlyph",
    "ALL_CANNOT_START",
    "ALL_CANNOT_END",
}
ADAPTER = PACKAGE / "render" / "reportlab_adapter.py"


def _reportlab_reach_ins(path: Path) -> list[str]:
    """Where `path` uses a reportlab internal: an underscore name imported from reportlab, or
    one of REPORTLAB_INTERNALS read off anything but the module's own `self`."""
    found = []
    for node in _nodes(path):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("reportlab"):
            found += [f"{node.lineno}: {a.name}" for a in node.names if a.name.startswith("_")]
        elif (
            isinstance(node, ast.Attribute)
            and node.attr in REPORTLAB_INTERNALS
            and not (isinstance(node.value, ast.Name) and node.value.id == "self")
        ):
            found.append(f"{node.lineno}: .{node.attr}")
    return found


def test_only_the_adapter_reaches_into_reportlab() -> None:
    for path in _sources():
        if path != ADAPTER:
            where = _reportlab_reach_ins(path)
            assert not where, f"{path.relative_to(PACKAGE.parent)}:{where[0]} (use the adapter)"


def test_the_reach_in_check_sees_one(tmp_path: Path) -> None:
    planted = tmp_path / "planted.py"
    planted.write_text(
        "from reportlab.rl_config import _FUZZ\ndef f(canvas):\n    canvas._code.append('Q')\n",
        encoding="utf-8",
    )
    assert _reportlab_reach_ins(planted) == ["1: _FUZZ", "3: ._code"]
    assert _reportlab_reach_ins(ADAPTER)  # the adapter is where they are


def _game_imports(game: str) -> dict[str, set[str]]:
    """Each module of a game -> the game's own modules it imports (``__init__`` for the package
    itself), type-only imports included: ``from pnp.games.g import combat`` names combat."""
    package = PACKAGE / "games" / game
    own = {path.stem for path in package.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in sorted(package.glob("*.py")):
        edges: set[str] = set()
        for node in _nodes(path):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [f"{node.module}.{alias.name}" for alias in node.names]
                names = [n if n.rsplit(".", 1)[1] in own else node.module for n in names]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                parts = name.split(".")
                if parts[:3] == ["pnp", "games", game]:
                    edges.add(parts[3] if len(parts) > 3 else "__init__")
        graph[path.stem] = edges - {path.stem}
    return graph


@pytest.mark.parametrize("game", GAMES)
def test_a_games_modules_import_in_no_cycle(game: str) -> None:
    # A ring of modules has no top to read from, and works only while each import happens to
    # run after the names it needs exist; a shared read-only protocol breaks it (tables.py).
    graph = _game_imports(game)
    done: set[str] = set()

    def visit(module: str, path: tuple[str, ...]) -> None:
        if module in done:
            return
        for target in sorted(graph.get(module, set())):
            assert target not in path, f"pnp/games/{game}: " + " -> ".join(
                (*path[path.index(target) :], target)
            )
            visit(target, (*path, target))
        done.add(module)

    for module in sorted(graph):
        visit(module, (module,))


def test_the_cycle_check_sees_a_ring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game = tmp_path / "games" / "ring"
    game.mkdir(parents=True)
    (game / "__init__.py").write_text("")
    (game / "a.py").write_text("from pnp.games.ring import b\n")
    (game / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pnp.games.ring.a import X\n"
    )
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path)
    with pytest.raises(AssertionError, match="a -> b -> a"):
        test_a_games_modules_import_in_no_cycle("ring")
