"""`pnp validate --compiled`: the same verdicts from engines compiled for the run, a clear
message where the machine cannot compile, and nothing compiled ever found and run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.paths import REPOSITORY
from pnp.validate import compiled, runner, simulation
from pnp.validate.compiled import COPY_ENVIRONMENT, compiled_sources
from pnp.validate.runner import ValidationResult

real_run_compiled = compiled.run_compiled

# A build and a validate of one game cost about a CPU-minute: CI runs this one in a step of
# its own (`python3 tasks.py compiled`), not in the test command.
needs_compiler = pytest.mark.skipif(
    not os.environ.get("PNP_COMPILE_TESTS"),
    reason="builds with mypyc and gcc (python3 tasks.py compiled runs it)",
)


def validate(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["validate", *args])
    return result.exit_code, result.output


def test_the_compiled_modules_are_the_engines_and_the_rules_and_policies_of_the_games_asked() -> (
    None
):
    sources = compiled_sources(["maquis"])
    assert "pnp/engines/search.py" in sources
    assert {"pnp/games/maquis/rules.py", "pnp/games/maquis/policies.py"} <= set(sources)
    # Never what a game does not run while it plays, nor the kit's model or another game.
    assert not {
        "pnp/engines/base.py",
        "pnp/games/maquis/model.py",
        "pnp/games/maquis/checks.py",
        "pnp/games/maquis/__init__.py",
    } & set(sources)
    assert not [source for source in sources if "/deadline_99/" in source]
    # A game from a package of its own stays interpreted.
    assert compiled_sources(["someone-elses-game"]) == compiled_sources([])


def test_a_machine_without_a_c_compiler_is_told_what_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(compiled.shutil, "which", lambda _: None)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(compiled.tempfile, "tempdir", None)
    code, output = validate("deadline-99", "--compiled")
    assert code == 2, output
    assert "compiled play needs a C compiler" in output
    assert "apt-get install gcc" in output
    assert "--plain plays without compiling" in output
    assert "Traceback" not in output
    assert list(tmp_path.iterdir()) == []  # the private build folder went with the run


class Recorded:
    """What a command asked of the compiled run and of the validator, neither run."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.compiled: list[list[str]] = []
        self.validated: list[list[str]] = []

        def run_compiled(arguments: object, root: object, slugs: list[str], say: object) -> int:
            self.compiled.append(slugs)
            return 0

        def validate_games(root: object, slugs: list[str], *args: object, **kw: object) -> object:
            self.validated.append(slugs)
            return ValidationResult()

        monkeypatch.setattr(compiled, "run_compiled", run_compiled)
        monkeypatch.setattr(runner, "validate_games", validate_games)


@pytest.mark.parametrize(
    ("options", "compiles"),
    [
        # Two strong tables of 300 games: worth the build.
        (["--balance", "--policy", "strong"], True),
        (["--balance", "--policy", "strong", "--plain"], False),
        # The promises' own sensible policy, and the default run's single strong game a table.
        (["--balance"], False),
        ([], False),
        (["--compiled"], True),
    ],
)
def test_a_strong_balance_run_plays_compiled_unless_told_plain(
    options: list[str], compiles: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = Recorded(monkeypatch)
    code, output = validate("deadline-99", *options)
    assert code == 0, output
    assert recorded.compiled == ([["deadline-99"]] if compiles else [])
    assert recorded.validated == ([] if compiles else [["deadline-99"]])
    assert ("up to 600 strong games: compiled play" in output) == (
        compiles and "--compiled" not in options
    )


def test_content_with_mistakes_is_told_before_any_build(
    content_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = Recorded(monkeypatch)
    path = content_copy / "deadline-99" / "game.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("hand_size: 5", "hand_size: 0"), encoding="utf-8")
    code, _ = validate(
        "--content", str(content_copy), "deadline-99", "--balance", "--policy", "strong"
    )
    assert code == 0  # the stand-in validator's empty verdict
    assert recorded.compiled == []
    assert recorded.validated == [["deadline-99"]]


def test_a_machine_that_cannot_build_plays_a_strong_run_plain_and_says_why(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    recorded = Recorded(monkeypatch)
    monkeypatch.setattr(compiled, "run_compiled", real_run_compiled)
    monkeypatch.setattr(compiled.shutil, "which", lambda _: None)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(compiled.tempfile, "tempdir", None)
    code, output = validate("deadline-99", "--balance", "--policy", "strong")
    assert code == 0, output
    assert "playing plain Python: compiled play needs a C compiler" in output
    assert recorded.validated == [["deadline-99"]]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("options", "compiles"),
    [
        (["--report", "--policy", "strong"], True),  # 6 tables of 300 games
        (["--duel", "--duel-tables", "normal"], True),  # up to 300 pairs
        (["--duel", "--duel-tables", "normal", "--duel-games", "40"], False),
        (["--policy", "strong:2", "--games", "5"], False),
        (["--policy", "strong", "--games", "60"], True),  # 6 tables, one player each
        (["--report", "--policy", "strong", "--plain", "--games", "1"], False),
    ],
)
def test_a_long_strong_simulation_plays_compiled(
    options: list[str], compiles: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    recorded = Recorded(monkeypatch)
    monkeypatch.setattr(simulation, "report_game", lambda *a, **k: ["reported"])
    monkeypatch.setattr(simulation, "duel_game", lambda *a, **k: iter(["dueled"]))
    monkeypatch.setattr(simulation, "simulate_game", lambda *a, **k: ["simulated"])
    result = CliRunner().invoke(main, ["simulate", "maquis", *options])
    assert result.exit_code == 0, result.output
    assert recorded.compiled == ([["maquis"]] if compiles else [])


def test_a_simulation_counts_the_strong_games_of_the_tables_it_plays(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    recorded = Recorded(monkeypatch)
    monkeypatch.setattr(simulation, "simulate_game", lambda *a, **k: ["simulated"])
    # Deadline 99 seats 3 at two of its 38 tables: 2 x 100 games, too few to build for.
    command = ["simulate", "deadline-99", "--players", "3", "--policy", "strong", "--games"]
    assert CliRunner().invoke(main, [*command, "100"]).exit_code == 0
    assert recorded.compiled == []
    assert CliRunner().invoke(main, [*command, "150"]).exit_code == 0
    assert recorded.compiled == [["deadline-99"]]


@pytest.mark.parametrize(
    ("command", "why"),
    [
        (["validate", "deadline-99", "--static-only"], "which --static-only skips"),
        (["validate", "deadline-99", "--ray"], "not on --ray's"),
        (["simulate", "deadline-99", "--report", "--ray"], "not on --ray's"),
    ],
)
def test_compiled_play_refuses_what_it_cannot_speed_up(command: list[str], why: str) -> None:
    result = CliRunner().invoke(main, [*command, "--compiled"])
    assert result.exit_code == 2
    assert why in result.output


@pytest.mark.parametrize(
    "command", [["validate", "deadline-99"], ["tune", "arena-tales"], ["simulate", "maquis"]]
)
def test_a_compiled_copy_named_by_hand_is_never_run(
    command: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Only the folder a run built for itself may stand in for pnp.
    monkeypatch.setenv(COPY_ENVIRONMENT, str(tmp_path))
    result = CliRunner().invoke(main, [*command, "--compiled"])
    assert result.exit_code == 2
    assert "not this run's compiled copy" in result.output


@needs_compiler
@pytest.mark.long
def test_a_compiled_validate_gives_the_verdicts_of_plain_python(tmp_path: Path) -> None:
    environment = {**os.environ, "TMPDIR": str(tmp_path)}

    def run(*options: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-m", "pnp", "validate", "deadline-99", "--format", "json"]
        return subprocess.run(
            [*command, *options],
            cwd=REPOSITORY,
            capture_output=True,
            text=True,
            env=environment,
            timeout=900,
        )

    fast = run("--compiled")
    assert fast.returncode == 0, fast.stderr
    assert "exactly as plain Python" in fast.stderr
    plain = run()
    assert json.loads(fast.stdout) == json.loads(plain.stdout)
    assert list(tmp_path.iterdir()) == []
