"""tasks.py's set-up: a build-only user gets pnp without the test tooling."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import tasks


def _installs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    for name in ("python", "pnp"):
        (venv / "bin" / name).touch()
    monkeypatch.setattr(tasks, "VENV", venv)
    monkeypatch.setattr(tasks, "STAMP", venv / ".pnp-installed")
    monkeypatch.setattr(tasks, "compile_sources", lambda: None)
    calls: list[list[str]] = []

    def run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        return subprocess.CompletedProcess(command, 1)  # `pip show pnp`: no old distribution

    monkeypatch.setattr(tasks.subprocess, "run", run)
    return calls


def _target(command: list[str]) -> str:
    return command[command.index("-e") + 1]


def test_build_installs_pnp_alone_and_test_adds_the_extra_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _installs(tmp_path, monkeypatch)
    root = str(tasks.ROOT)
    tasks.ensure_environment(test=False)
    installs = [c for c in calls if "install" in c]
    assert _target(installs[-1]) == root
    tasks.ensure_environment(test=False)  # nothing changed: nothing installed
    assert [c for c in calls if "install" in c] == installs
    tasks.ensure_environment(test=True)
    installs = [c for c in calls if "install" in c]
    assert _target(installs[-1]) == f"{root}[test]"
    tasks.ensure_environment(test=False)  # the extra's venv serves a build as it is
    assert [c for c in calls if "install" in c] == installs
