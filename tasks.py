#!/usr/bin/env python3
"""The two set-up commands of the README, with nothing to install by hand first.

    python3 tasks.py build [pnp build options...]   # every kit into output/
    python3 tasks.py test  [pytest options...]      # lint, type-check, validate, run the tests
    python3 tasks.py bench [options...]             # benchmark figures (benchmarks/bench.py)
    python3 tasks.py fuzz  [--cases N --seed S]     # content fuzzing (benchmarks/fuzz.py)
    python3 tasks.py lock                           # rewrite constraints.txt from .venv

Each creates .venv/ on first use and installs pnp into it (the font included: it comes from
PyPI as a package dependency) at the exact versions of constraints.txt, so every machine runs
what CI ran. `build` installs pnp alone; the other tasks add the test tooling (the `test`
extra: pytest, ruff, mypy, playwright, ...). It reinstalls only when pyproject.toml or
constraints.txt changes. After changing a dependency in pyproject.toml, `lock` writes the
versions .venv then holds.
Standard library only, so it runs on a machine that has nothing but Python 3.11 and pip.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".pnp-installed"
CONSTRAINTS = ROOT / "constraints.txt"
# The distribution was called "pnp" before it took a name that is free on PyPI.
OLD_DISTRIBUTION = "pnp"


def _bin(name: str) -> Path:
    folder = "Scripts" if os.name == "nt" else "bin"
    return VENV / folder / name


def _requirements_hash() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    if CONSTRAINTS.is_file():
        digest.update(b"\0" + CONSTRAINTS.read_bytes())
    return digest.hexdigest()


def _pip(*args: str) -> list[str]:
    return [str(_bin("python")), "-m", "pip", *args, "--disable-pip-version-check"]


def ensure_environment(*, test: bool) -> None:
    """``.venv`` with pnp at the pinned versions; ``test``: with the test extra too (pytest,
    ruff, mypy, playwright, ...), which a build-only user does not need (it was most of the
    venv). A venv that has the extra serves a build as it is."""
    wanted = _requirements_hash()
    installed = STAMP.read_text().split() if STAMP.is_file() else []
    if installed[:1] == [wanted] and (not test or "test" in installed[1:]) and _bin("pnp").exists():
        compile_sources()
        return
    if not _bin("python").exists():
        print("tasks: creating .venv", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("tasks: installing pnp and its dependencies into .venv", flush=True)
    renamed = subprocess.run(_pip("show", "--quiet", OLD_DISTRIBUTION), capture_output=True)
    if renamed.returncode == 0:  # a .venv from before the rename: two owners of `pnp`
        subprocess.run(_pip("uninstall", "--yes", "--quiet", OLD_DISTRIBUTION), check=True)
    # Metadata the old name left in the work tree announces every game a second time.
    shutil.rmtree(ROOT / f"{OLD_DISTRIBUTION}.egg-info", ignore_errors=True)
    pinned = ["--constraint", str(CONSTRAINTS)] if CONSTRAINTS.is_file() else []
    target = f"{ROOT}[test]" if test else str(ROOT)
    subprocess.run(_pip("install", "--quiet", *pinned, "-e", target), check=True)
    STAMP.write_text(f"{wanted} test" if test else wanted)
    compile_sources()


def compile_sources() -> None:
    """Write the bytecode of pnp's own modules, as pip does for every package it installs.
    An editable install leaves that to the first import, which does not write it where
    PYTHONDONTWRITEBYTECODE is set (the development machines' image sets it): every command
    then compiled some 60 modules from source, a quarter of a second each time. Only files
    changed since are compiled again, so this costs a few stat calls when nothing changed."""
    subprocess.run(
        [str(_bin("python")), "-m", "compileall", "-q", "pnp", "benchmarks"],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )


# Run by .venv's Python: pnp's dependency closure (with the test extra) as `name==version`.
_LOCK_SCRIPT = r"""
import importlib.metadata as md, sys, tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

project = tomllib.load(open(sys.argv[1], "rb"))["project"]
todo = [(Requirement(r), "") for r in project["dependencies"]]
todo += [(Requirement(r), "") for r in project["optional-dependencies"]["test"]]
pins, seen = {}, set()
while todo:
    requirement, extra = todo.pop()
    if requirement.marker and not requirement.marker.evaluate({"extra": extra}):
        continue
    key = (canonicalize_name(requirement.name), frozenset(requirement.extras))
    if key in seen:
        continue
    seen.add(key)
    dist = md.distribution(requirement.name)
    if not requirement.specifier.contains(dist.version, prereleases=True):
        sys.exit(f"lock: .venv has {dist.metadata['Name']} {dist.version}, not {requirement}")
    pins[key[0]] = dist.version
    for extra_name in ("", *requirement.extras):
        todo += [(Requirement(r), extra_name) for r in dist.requires or []]
print("\n".join(f"{name}=={version}" for name, version in sorted(pins.items())))
"""


def lock() -> int:
    result = subprocess.run(
        [str(_bin("python")), "-c", _LOCK_SCRIPT, str(ROOT / "pyproject.toml")],
        capture_output=True,
        text=True,
    )
    if result.returncode:
        print(result.stderr.strip() or "tasks: lock failed", file=sys.stderr)
        return result.returncode
    header = (
        "# Exact versions of pnp's dependencies (with the test extra), as CI installs them.\n"
        "# tasks.py passes this file to pip (--constraint); `python3 tasks.py lock` rewrites\n"
        "# it from .venv after a dependency in pyproject.toml changes.\n"
    )
    CONSTRAINTS.write_text(header + result.stdout)
    print(f"tasks: wrote {CONSTRAINTS.name} ({len(result.stdout.splitlines())} packages)")
    return 0


def run(*command: str) -> int:
    return subprocess.run(command, cwd=ROOT).returncode


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"build", "test", "bench", "fuzz", "lock"}:
        print(__doc__.strip())
        return 2
    task, rest = argv[0], argv[1:]
    if task == "lock":
        return lock()
    ensure_environment(test=task != "build")
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
    return run(str(_bin("python")), "-m", "pytest", *_on_every_core(rest), *rest)


def _on_every_core(pytest_options: list[str]) -> list[str]:
    """``-n auto`` (pytest-xdist), unless the options already say how many processes."""
    chosen = any(
        option == "no:xdist" or option.startswith(("-n", "--numprocesses"))
        for option in pytest_options
    )
    return [] if chosen else ["-n", "auto"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
