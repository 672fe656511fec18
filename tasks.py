#!/usr/bin/env python3
"""The two set-up commands of the README, with nothing to install by hand first.

    python3 tasks.py build [pnp build options...]   # every kit into output/
    python3 tasks.py test  [pytest options...]      # lint, type-check, validate, run the tests
    python3 tasks.py bench [options...]             # benchmark figures (benchmarks/bench.py)
    python3 tasks.py fuzz  [--cases N --seed S]     # content fuzzing (benchmarks/fuzz.py)

Both create .venv/ on first use and install pnp into it (fonts included: they come from
PyPI as package dependencies), then reinstall only when pyproject.toml changes.
Standard library only, so it runs on a machine that has nothing but Python 3.11 and pip.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".pnp-installed"


def _bin(name: str) -> Path:
    folder = "Scripts" if os.name == "nt" else "bin"
    return VENV / folder / name


def _requirements_hash() -> str:
    return hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()


def ensure_environment() -> None:
    wanted = _requirements_hash()
    if STAMP.is_file() and STAMP.read_text() == wanted and _bin("pnp").exists():
        return
    if not _bin("python").exists():
        print("tasks: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("tasks: installing pnp and its dependencies into .venv", flush=True)
    subprocess.run(
        [
            str(_bin("python")),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-e",
            f"{ROOT}[test]",
        ],
        check=True,
    )
    STAMP.write_text(wanted)


def run(*command: str) -> int:
    return subprocess.run(command, cwd=ROOT).returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"build", "test", "bench", "fuzz"}:
        print(__doc__.strip())
        return 2
    task, rest = argv[0], argv[1:]
    ensure_environment()
    if task == "build":
        return run(str(_bin("pnp")), "build", *rest)
    if task == "bench":
        return run(str(_bin("python")), "benchmarks/bench.py", *rest)
    if task == "fuzz":
        return run(str(_bin("python")), "-m", "benchmarks.fuzz", *rest)
    for step in (
        (str(_bin("ruff")), "check", "pnp", "tests", "benchmarks", "tasks.py"),
        (str(_bin("mypy")),),  # --strict over pnp/, as configured in pyproject.toml
        (str(_bin("pnp")), "validate"),
    ):
        print(
            "tasks: " + " ".join(Path(step[0]).name if i == 0 else s for i, s in enumerate(step)),
            flush=True,
        )
        code = run(*step)
        if code:
            return code
    return run(str(_bin("python")), "-m", "pytest", *rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
