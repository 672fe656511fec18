#!/usr/bin/env python3
"""The two set-up commands of the README, with nothing to install by hand first.

    python3 tasks.py build [pnp build options...]   # every kit into output/
    python3 tasks.py test  [pytest options...]      # lint, type-check, the tests (pnp validate too)
    python3 tasks.py bench [options...]             # benchmark figures (benchmarks/bench.py)
    python3 tasks.py fuzz  [--cases N --seed S]     # content fuzzing (benchmarks/fuzz.py)
    python3 tasks.py ray   [pytest options...]      # Ray's extra into .venv, then its tests (CI)
    python3 tasks.py compiled [pytest options...]   # pnp validate --compiled's own build (CI)
    python3 tasks.py lock                           # rewrite requirements/*.txt from .venv

Each creates .venv/ on first use and installs pnp into it (the font included: it comes from
PyPI as a package dependency) at the exact versions and file hashes of requirements/run.txt
(and requirements/test.txt for the test tooling), so every machine runs what CI ran and the
installer refuses a file whose bytes differ from the ones locked. The installer is uv
(requirements/installer.txt, itself installed by pip from its hashes), or pip where uv cannot
be had. `build` installs pnp alone; the other
tasks add the test tooling (the `test` extra: pytest, ruff, mypy, playwright, ...). It
reinstalls only when pyproject.toml or a lock file changes. After changing a dependency in
pyproject.toml, install it into .venv and run `lock`: it writes the versions .venv then holds,
with the hashes of every file the package index has for each (every platform's wheel).
Standard library only, so it runs on a machine that has nothing but Python 3.11 and pip.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import urllib.request
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".pnp-installed"
LOCKS = ROOT / "requirements"
RUN_LOCK = LOCKS / "run.txt"  # pnp's dependencies and its build backend
TEST_LOCK = LOCKS / "test.txt"  # what the test extra adds
RAY_LOCK = LOCKS / "ray.txt"  # what the ray extra adds to both
INSTALLER_LOCK = LOCKS / "installer.txt"  # uv, which installs the locks faster than pip
INSTALLER = ("uv", "0.13.9")
# The distribution was called "pnp" before it took a name that is free on PyPI.
OLD_DISTRIBUTION = "pnp"


def _bin(name: str) -> Path:
    folder = "Scripts" if os.name == "nt" else "bin"
    return VENV / folder / name


def _requirements_hash() -> str:
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes())
    for lock_file in (RUN_LOCK, TEST_LOCK, RAY_LOCK):
        if lock_file.is_file():
            digest.update(b"\0" + lock_file.read_bytes())
    return digest.hexdigest()


def _pip(*args: str) -> list[str]:
    return [str(_bin("python")), "-m", "pip", *args, "--disable-pip-version-check"]


def _ensure_pip() -> None:
    """pip in .venv, which is created without it (uv installs): for the steps uv cannot do."""
    if subprocess.run(_pip("--version"), capture_output=True).returncode:
        made = subprocess.run(
            [str(_bin("python")), "-m", "ensurepip", "--default-pip"],
            stdout=subprocess.DEVNULL,
        )
        if made.returncode:
            sys.exit(
                "tasks: .venv needs pip here (uv could not be had), and this Python cannot "
                "install it (ensurepip failed; on Debian: apt-get install python3-venv)"
            )


def _has_distribution(name: str) -> bool:
    """Whether .venv holds the distribution `name` (pip's `show`, without needing pip)."""
    found = subprocess.run(
        [
            str(_bin("python")),
            "-I",
            "-c",
            f"import importlib.metadata as m; m.distribution({name!r})",
        ],
        capture_output=True,
    )
    return found.returncode == 0


def _check_command() -> list[str]:
    """pip's `check` (every installed package's requirements met), by uv where it installed."""
    uv = _bin("uv")
    if uv.exists():
        return [str(uv), "pip", "check", "--quiet", "--python", str(_bin("python"))]
    return _pip("check")


def ensure_environment(*, test: bool, ray: bool = False) -> None:
    """``.venv`` with pnp at the pinned versions; ``test``: with the test extra too (pytest,
    ruff, mypy, playwright, ...), which a build-only user does not need (it was most of the
    venv); ``ray``: with the ray extra as well (Ray is about 240 MB: a balance run on a cluster
    and its tests). A venv that has an extra serves a task without it as it is."""
    wanted = _requirements_hash()
    installed = STAMP.read_text().split() if STAMP.is_file() else []
    extras = [name for name, asked in (("test", test or ray), ("ray", ray)) if asked]
    if installed[:1] == [wanted] and set(extras) <= set(installed[1:]) and _bin("pnp").exists():
        compile_sources()
        return
    # A venv installed anew keeps the extras it had (a lock change must not drop Ray's).
    extras += [name for name in installed[1:] if name in ("test", "ray") and name not in extras]
    if not _bin("python").exists():
        print("tasks: creating .venv", flush=True)
        # Without pip: installing it (ensurepip) was 6 of the set-up's 37 s here, and uv
        # installs everything; pip comes in only where uv cannot (see `_ensure_pip`).
        venv.EnvBuilder(with_pip=False).create(VENV)
    print("tasks: installing pnp and its dependencies into .venv", flush=True)
    if _has_distribution(OLD_DISTRIBUTION):  # a .venv from before the rename: two owners of `pnp`
        _ensure_pip()
        subprocess.run(_pip("uninstall", "--yes", "--quiet", OLD_DISTRIBUTION), check=True)
    # Metadata the old name left in the work tree announces every game a second time.
    shutil.rmtree(ROOT / f"{OLD_DISTRIBUTION}.egg-info", ignore_errors=True)
    locks = [
        RUN_LOCK,
        *(lock for name, lock in (("test", TEST_LOCK), ("ray", RAY_LOCK)) if name in extras),
    ]
    if all(lock_file.is_file() for lock_file in locks):
        # Hash-checking mode covers every requirement of a run, so pnp itself (an editable
        # install, which has no hash) goes in a second step, with the locked build backend.
        requirements = [arg for lock_file in locks for arg in ("-r", str(lock_file))]
        if not _install_with_uv(requirements):
            _ensure_pip()
            subprocess.run(
                _pip("install", "--quiet", "--require-hashes", "--no-deps", *requirements),
                check=True,
            )
            subprocess.run(
                _pip("install", "--quiet", "--no-deps", "--no-build-isolation", "-e", str(ROOT)),
                check=True,
            )
        # A dependency added to pyproject.toml but not to the lock shows here, by name.
        subprocess.run(_check_command(), check=True, stdout=subprocess.DEVNULL)
    else:  # a copy without the lock files: the newest versions pyproject.toml allows
        _ensure_pip()
        target = f"{ROOT}[{','.join(extras)}]" if extras else str(ROOT)
        subprocess.run(_pip("install", "--quiet", "-e", target), check=True)
    STAMP.write_text(" ".join([wanted, *extras]))
    compile_sources()


def _install_with_uv(requirements: list[str]) -> bool:
    """Install the locks and pnp with uv, from requirements/installer.txt (hash-checked by pip
    like every lock): on a fresh clone here the test tooling took pip 51 s and uv 15 s with
    an empty cache, bytecode compiled by both. False, with one line said, when uv cannot be
    had or fails: pip then installs the same hashed files."""
    if not INSTALLER_LOCK.is_file():
        return False
    uv = _bin("uv")
    if not uv.exists():
        fetch = ("install", "--quiet", "--require-hashes", "--no-deps", "-r", str(INSTALLER_LOCK))
        # This Python's own pip installs into the venv (`--python`, pip 22.3 on), so a venv
        # needs no pip of its own; an older pip, or none, and the venv's pip fetches uv.
        fetched = subprocess.run(
            [sys.executable, "-m", "pip", "--python", str(_bin("python")), *fetch],
            capture_output=True,
        )
        if fetched.returncode or not uv.exists():
            _ensure_pip()
            fetched = subprocess.run(_pip(*fetch), capture_output=True)
        if fetched.returncode or not uv.exists():
            print("tasks: uv could not be installed, so pip installs (slower)", flush=True)
            return False
    into = ("--python", str(_bin("python")), "--quiet", "--no-deps", "--compile-bytecode")
    for step in (
        [str(uv), "pip", "install", *into, "--require-hashes", *requirements],
        [str(uv), "pip", "install", *into, "--no-build-isolation", "-e", str(ROOT)],
    ):
        if subprocess.run(step).returncode:
            print("tasks: uv failed, so pip installs (slower)", flush=True)
            return False
    return True


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


# Run by .venv's Python: pnp's dependency closure as {"run": {name: version}, "test": {...},
# "ray": {...}}, "test" holding only what the test extra adds and "ray" what the ray extra adds
# to both (empty when .venv has no Ray); the build backend counts as a run dependency (pnp is
# installed from its source tree without build isolation).
_LOCK_SCRIPT = r"""
import importlib.metadata as md, json, sys, tomllib
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

project = tomllib.load(open(sys.argv[1], "rb"))


def closure(requirements):
    todo = [(Requirement(r), "") for r in requirements]
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
    return pins


run = closure(project["project"]["dependencies"] + project["build-system"]["requires"])
everything = closure(
    project["project"]["dependencies"] + project["project"]["optional-dependencies"]["test"]
)
test = {name: version for name, version in everything.items() if name not in run}
try:
    md.distribution("ray")
except md.PackageNotFoundError:
    ray = {}
else:
    with_ray = closure(project["project"]["optional-dependencies"]["ray"])
    ray = {name: version for name, version in with_ray.items() if name not in everything}
print(json.dumps({"run": run, "test": test, "ray": ray}, sort_keys=True))
"""


def _index_url() -> str:
    return os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple").rstrip("/")


def _file_version(filename: str) -> str | None:
    """The version in a distribution file's name (wheel or sdist), or None."""
    if filename.endswith(".whl"):
        parts = filename.split("-")
        return parts[1] if len(parts) >= 5 else None
    for suffix in (".tar.gz", ".zip", ".tar.bz2"):
        if filename.endswith(suffix):
            return filename[: -len(suffix)].rsplit("-", 1)[-1]
    return None


def _normal(version: str) -> str:
    return version.lower().replace("_", "-")


def file_hashes(name: str, version: str) -> list[str]:
    """The sha256 of every file the index holds for `name` `version` (PEP 691 JSON)."""
    request = urllib.request.Request(
        f"{_index_url()}/{name}/", headers={"Accept": "application/vnd.pypi.simple.v1+json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        listing = json.load(response)
    hashes = sorted(
        {
            entry["hashes"]["sha256"]
            for entry in listing.get("files", [])
            if "sha256" in entry.get("hashes", {})
            and _normal(_file_version(entry["filename"]) or "") == _normal(version)
        }
    )
    if not hashes:
        raise LookupError(f"the index at {_index_url()} has no file of {name} {version}")
    return hashes


def _lock_text(title: str, pins: dict[str, str], hashes: dict[str, list[str]]) -> str:
    lines = [
        f"# {title}",
        "# Written by `python3 tasks.py lock` from .venv; tasks.py installs it with",
        "# pip install --require-hashes --no-deps: a file whose bytes differ is refused.",
    ]
    for name, version in sorted(pins.items()):
        lines.append(f"{name}=={version} \\")
        lines += [f"    --hash=sha256:{digest} \\" for digest in hashes[name][:-1]]
        lines.append(f"    --hash=sha256:{hashes[name][-1]}")
    return "\n".join(lines) + "\n"


def lock() -> int:
    result = subprocess.run(
        [str(_bin("python")), "-c", _LOCK_SCRIPT, str(ROOT / "pyproject.toml")],
        capture_output=True,
        text=True,
    )
    if result.returncode:
        print(result.stderr.strip() or "tasks: lock failed", file=sys.stderr)
        return result.returncode
    pins: dict[str, dict[str, str]] = json.loads(result.stdout)
    pins["installer"] = dict([INSTALLER])
    hashes: dict[str, list[str]] = {}
    try:
        everything = {**pins["run"], **pins["test"], **pins["ray"], **pins["installer"]}
        for name, version in sorted(everything.items()):
            hashes[name] = file_hashes(name, version)
    except (OSError, LookupError, ValueError) as exc:
        print(f"tasks: lock: {exc}", file=sys.stderr)
        return 1
    LOCKS.mkdir(exist_ok=True)
    for path, title, chosen in (
        (RUN_LOCK, "pnp's dependencies and build backend, exact versions and file hashes.", "run"),
        (TEST_LOCK, "What pnp's test extra adds to requirements/run.txt.", "test"),
        (RAY_LOCK, "What pnp's ray extra adds to requirements/run.txt and test.txt.", "ray"),
        (INSTALLER_LOCK, "The installer tasks.py prefers to pip (INSTALLER).", "installer"),
    ):
        if chosen == "ray" and not pins["ray"]:
            print(f"tasks: {path.relative_to(ROOT)} kept (.venv has no Ray: tasks.py ray first)")
            continue
        temporary = path.with_suffix(".tmp")
        temporary.write_text(_lock_text(title, pins[chosen], hashes))
        temporary.replace(path)
        print(f"tasks: wrote {path.relative_to(ROOT)} ({len(pins[chosen])} packages)")
    return 0


def run(*command: str, env: dict[str, str] | None = None) -> int:
    return subprocess.run(command, cwd=ROOT, env=env).returncode


def bytecode_writing_environment() -> dict[str, str]:
    """The environment without PYTHONDONTWRITEBYTECODE (the development machines' image sets
    it), so pytest keeps the test modules it rewrites for its assertions, in __pycache__ beside
    them like pnp's own (see `compile_sources`): otherwise each worker of every run rewrote and
    compiled all of them again, 7 of its 11 seconds of collection."""
    environment = dict(os.environ)
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"build", "test", "ray", "compiled", "bench", "fuzz", "lock"}:
        print(__doc__.strip())
        return 2
    task, rest = argv[0], argv[1:]
    if task == "lock":
        return lock()
    ensure_environment(test=task != "build", ray=task == "ray")
    if task == "ray":
        # Ray's own tests, on a local Ray of two CPUs: a skip would hide that Ray is missing.
        return run(
            str(_bin("python")), "-m", "pytest", "-p", "no:xdist", "-q",
            "tests/engines/test_ray.py", *rest,
            env={**bytecode_writing_environment(), "PNP_REQUIRE_RAY": "1"},
        )  # fmt: skip
    if task == "compiled":
        # A mypyc build of one game's engines and a validate with it: a CPU-minute, so not in
        # the test command, which skips it.
        return run(
            str(_bin("python")), "-m", "pytest", "-p", "no:xdist", "-q",
            "tests/validate/test_compiled.py", *rest,
            env={**bytecode_writing_environment(), "PNP_COMPILE_TESTS": "1"},
        )  # fmt: skip
    if task == "build":
        return run(str(_bin("pnp")), "build", *rest)
    if task == "bench":
        return run(str(_bin("python")), "benchmarks/bench.py", *rest)
    if task == "fuzz":
        return run(str(_bin("python")), "-m", "benchmarks.fuzz", *rest)
    for step in (
        (str(_bin("ruff")), "check", "pnp", "tests", "benchmarks", "tasks.py"),
        # --strict over pnp/, as configured in pyproject.toml; a worker per core: with an empty
        # cache (every fresh clone) 10 s instead of 14 here, the same report.
        (str(_bin("mypy")), "--num-workers", "auto"),
        # The full `pnp validate` of the shipped content is a test (tests/cli/test_validate.py)
        # so that it shares the cores with the others rather than running before them.
    ):
        print(
            "tasks: " + " ".join(Path(step[0]).name if i == 0 else s for i, s in enumerate(step)),
            flush=True,
        )
        code = run(*step)
        if code:
            return code
    return run(
        str(_bin("python")), "-m", "pytest", *_on_every_core(rest), *rest,
        env=bytecode_writing_environment(),
    )  # fmt: skip


def _on_every_core(pytest_options: list[str]) -> list[str]:
    """``-n auto --dist worksteal`` (pytest-xdist), unless the options already say how many
    processes."""
    chosen = any(
        option == "no:xdist" or option.startswith(("-n", "--numprocesses"))
        for option in pytest_options
    )
    # Work stealing: a process that runs out of tests takes the last ones queued for another.
    return [] if chosen else ["-n", "auto", "--dist", "worksteal"]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
