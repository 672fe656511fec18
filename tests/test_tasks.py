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
        # Only ensurepip succeeds: no old distribution, no pip in the venv until then.
        return subprocess.CompletedProcess(command, 0 if "ensurepip" in command else 1)

    monkeypatch.setattr(tasks.subprocess, "run", run)
    return calls


def test_the_ray_task_installs_the_ray_extra_once_and_requires_ray(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _installs(tmp_path, monkeypatch)
    tasks.ensure_environment(test=False, ray=True)
    installs = [c for c in calls if "install" in c]
    assert _locks(installs[-2]) == ["run.txt", "test.txt", "ray.txt"]
    assert "--require-hashes" in installs[-2]
    tasks.ensure_environment(test=True)  # Ray's venv serves the tests and a build as it is
    tasks.ensure_environment(test=False)
    assert [c for c in calls if "install" in c] == installs
    # Its tests run with Ray required: a missing Ray fails there instead of skipping.
    runs: list[tuple[tuple[str, ...], dict[str, str] | None]] = []

    def run(*command: str, env: dict[str, str] | None = None) -> int:
        runs.append((command, env))
        return 0

    monkeypatch.setattr(tasks, "run", run)
    assert tasks.main(["ray"]) == 0
    ((command, env),) = runs
    assert "tests/engines/test_ray.py" in command
    assert env is not None and env["PNP_REQUIRE_RAY"] == "1"


def _locks(command: list[str]) -> list[str]:
    return [Path(command[k + 1]).name for k, arg in enumerate(command) if arg == "-r"]


def test_build_installs_pnp_alone_and_test_adds_the_extra_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _installs(tmp_path, monkeypatch)
    root = str(tasks.ROOT)
    tasks.ensure_environment(test=False)
    installs = [c for c in calls if "install" in c]
    hashed, editable = installs[-2:]
    assert "--require-hashes" in hashed and "--no-deps" in hashed
    assert _locks(hashed) == ["run.txt"]
    assert editable[editable.index("-e") + 1] == root and "--no-deps" in editable
    tasks.ensure_environment(test=False)  # nothing changed: nothing installed
    assert [c for c in calls if "install" in c] == installs
    tasks.ensure_environment(test=True)
    installs = [c for c in calls if "install" in c]
    assert _locks(installs[-2]) == ["run.txt", "test.txt"]
    tasks.ensure_environment(test=False)  # the extra's venv serves a build as it is
    assert [c for c in calls if "install" in c] == installs


def test_uv_installs_the_same_hashed_locks_when_it_can_be_had(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _installs(tmp_path, monkeypatch)
    uv = tasks.VENV / "bin" / "uv"

    def run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        if "-r" in command and Path(command[command.index("-r") + 1]).name == "installer.txt":
            uv.touch()  # pip installed uv from its hashed lock
            return subprocess.CompletedProcess(command, 0)
        return subprocess.CompletedProcess(command, 0 if command[0] == str(uv) else 1)

    monkeypatch.setattr(tasks.subprocess, "run", run)
    tasks.ensure_environment(test=True)
    fetch, hashed, editable = [c for c in calls if "install" in c][-3:]
    assert "--require-hashes" in fetch and _locks(fetch) == ["installer.txt"]
    assert hashed[:3] == [str(uv), "pip", "install"] and "--require-hashes" in hashed
    assert _locks(hashed) == ["run.txt", "test.txt"] and "--no-deps" in hashed
    assert hashed[hashed.index("--python") + 1] == str(tasks.VENV / "bin" / "python")
    assert editable[editable.index("-e") + 1] == str(tasks.ROOT)
    assert not [
        c for c in calls if c[:3] == [str(tasks.VENV / "bin" / "python"), "-m", "pip"] and "-e" in c
    ]  # pip installed nothing but uv


def test_a_new_venv_has_no_pip_and_this_pythons_pip_fetches_uv_into_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Installing pip into the venv was 6 of the set-up's 37 s; uv needs none."""
    calls = _installs(tmp_path, monkeypatch)
    python, uv = tasks.VENV / "bin" / "python", tasks.VENV / "bin" / "uv"
    python.unlink()
    made: list[bool] = []

    class Builder:
        def __init__(self, *, with_pip: bool) -> None:
            made.append(with_pip)

        def create(self, folder: Path) -> None:
            (Path(folder) / "bin" / "python").touch()

    monkeypatch.setattr(tasks.venv, "EnvBuilder", Builder)

    def run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        if command[:3] == [sys.executable, "-m", "pip"]:
            uv.touch()
            return subprocess.CompletedProcess(command, 0)
        return subprocess.CompletedProcess(command, 0 if command[0] == str(uv) else 1)

    monkeypatch.setattr(tasks.subprocess, "run", run)
    tasks.ensure_environment(test=True)
    assert made == [False]
    [fetch] = [c for c in calls if _locks(c) == ["installer.txt"]]
    assert fetch[:3] == [sys.executable, "-m", "pip"] and "--require-hashes" in fetch
    assert fetch[fetch.index("--python") + 1] == str(python)
    assert not [c for c in calls if "ensurepip" in c or c[:3] == [str(python), "-m", "pip"]]
    assert [c for c in calls if c[:3] == [str(uv), "pip", "check"]]  # pip's check, by uv


def test_the_venvs_own_pip_fetches_uv_where_this_pythons_pip_cannot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _installs(tmp_path, monkeypatch)
    python, uv = tasks.VENV / "bin" / "python", tasks.VENV / "bin" / "uv"

    def run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        if command[:3] == [str(python), "-m", "pip"] and "installer.txt" in _locks(command):
            uv.touch()
            return subprocess.CompletedProcess(command, 0)
        # No pip here, none in the venv until ensurepip: only it and uv's steps succeed.
        ok = command[0] == str(uv) or "ensurepip" in command
        return subprocess.CompletedProcess(command, 0 if ok else 1)

    monkeypatch.setattr(tasks.subprocess, "run", run)
    tasks.ensure_environment(test=False)
    fetches = [c for c in calls if _locks(c) == ["installer.txt"]]
    assert [c[0] for c in fetches] == [sys.executable, str(python)]
    ensure = calls.index([str(python), "-m", "ensurepip", "--default-pip"])
    assert ensure < calls.index(fetches[1])
    assert [c for c in calls if c[:3] == [str(uv), "pip", "install"]]


def test_a_venv_that_can_get_neither_uv_nor_pip_is_said_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _installs(tmp_path, monkeypatch)

    def run(command: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        return subprocess.CompletedProcess(command, 1)  # no pip anywhere, no ensurepip

    monkeypatch.setattr(tasks.subprocess, "run", run)
    with pytest.raises(SystemExit) as stopped:
        tasks.ensure_environment(test=False)
    assert "ensurepip failed" in str(stopped.value.code)
    assert not tasks.STAMP.exists()  # nothing recorded as installed


def test_pip_installs_when_uv_fails(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _installs(tmp_path, monkeypatch)
    (tasks.VENV / "bin" / "uv").touch()  # there, but every uv step fails
    tasks.ensure_environment(test=False)
    installs = [c for c in calls if "install" in c]
    assert installs[0][0].endswith("uv")
    hashed, editable = installs[-2:]
    assert hashed[1:4] == ["-m", "pip", "install"] and _locks(hashed) == ["run.txt"]
    assert editable[1:4] == ["-m", "pip", "install"] and "-e" in editable


def test_the_installer_lock_pins_the_installer_with_hashes() -> None:
    name, version = tasks.INSTALLER
    assert _locked(tasks.INSTALLER_LOCK) == {
        name: (version, _locked(tasks.INSTALLER_LOCK)[name][1])
    }
    assert len(_locked(tasks.INSTALLER_LOCK)[name][1]) >= 2  # more than one platform's wheel


def _locked(path: Path) -> dict[str, tuple[str, list[str]]]:
    """name -> (version, hashes) of a lock file."""
    entries: dict[str, tuple[str, list[str]]] = {}
    current = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip().rstrip("\\").strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("--hash=sha256:"):
            entries[current][1].append(line.removeprefix("--hash=sha256:"))
        else:
            current, version = line.split("==")
            entries[current] = (version, [])
    return entries


def test_every_dependency_is_locked_with_a_version_it_allows_and_hashes() -> None:
    import tomllib

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    project = tomllib.loads((tasks.ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    run, test = _locked(tasks.RUN_LOCK), _locked(tasks.TEST_LOCK)
    ray = _locked(tasks.RAY_LOCK)
    assert not set(run) & set(test) and not set(ray) & {*run, *test}, "a package locked twice"
    wanted = [
        (project["project"]["dependencies"] + project["build-system"]["requires"], run),
        (project["project"]["optional-dependencies"]["test"], {**run, **test}),
        (project["project"]["optional-dependencies"]["ray"], {**run, **test, **ray}),
    ]
    for requirements, locked in wanted:
        for text in requirements:
            requirement = Requirement(text)
            name = canonicalize_name(requirement.name)
            assert name in locked, f"{name} is not in the lock: run `python3 tasks.py lock`"
            assert requirement.specifier.contains(locked[name][0], prereleases=True), text
    for name, (_version, hashes) in {**run, **test, **ray}.items():
        assert hashes and all(len(h) == 64 and int(h, 16) >= 0 for h in hashes), name


def test_lock_files_read_back_as_written() -> None:
    text = tasks._lock_text(
        "t", {"b": "2.0", "a": "1.0"}, {"a": ["1" * 64], "b": ["2" * 64, "3" * 64]}
    )
    assert text.splitlines()[3:] == [
        "a==1.0 \\",
        f"    --hash=sha256:{'1' * 64}",
        "b==2.0 \\",
        f"    --hash=sha256:{'2' * 64} \\",
        f"    --hash=sha256:{'3' * 64}",
    ]


@pytest.mark.parametrize(
    ("filename", "version"),
    [
        ("reportlab-4.5.1-py3-none-any.whl", "4.5.1"),
        ("rl_accel-0.9.1-cp37-abi3-manylinux_2_17_x86_64.whl", "0.9.1"),
        ("reportlab-4.5.1.tar.gz", "4.5.1"),
        ("typing_extensions-4.12.2.zip", "4.12.2"),
        ("README.txt", None),
    ],
)
def test_a_files_version_is_read_off_its_name(filename: str, version: str | None) -> None:
    assert tasks._file_version(filename) == version


def test_the_test_run_keeps_pytests_rewritten_modules_where_bytecode_is_off(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The image sets PYTHONDONTWRITEBYTECODE; pytest must still keep the test modules it
    rewrites, or every worker of every run compiles them all again."""
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setattr(tasks, "ensure_environment", lambda **_: None)
    runs: list[tuple[tuple[str, ...], dict[str, str] | None]] = []

    def run(*command: str, env: dict[str, str] | None = None) -> int:
        runs.append((command, env))
        return 0

    monkeypatch.setattr(tasks, "run", run)
    assert tasks.main(["test", "-x"]) == 0
    ((command, env),) = [(c, e) for c, e in runs if c[1:3] == ("-m", "pytest")]
    assert env is not None and "PYTHONDONTWRITEBYTECODE" not in env
    assert env["PATH"] == tasks.os.environ["PATH"]
    assert command[-1] == "-x"


def test_the_venv_is_never_part_of_the_repository() -> None:
    """A symlinked .venv was once committed (the ignore rule then matched only a directory):
    every clone then got a link to one machine's venv, and checking it out replaced the venv
    of the work tree it landed in."""
    listed = subprocess.run(
        ["git", "ls-files", "--", ".venv"], cwd=tasks.ROOT, capture_output=True, text=True
    )
    if listed.returncode:
        pytest.skip("not a git work tree")
    assert listed.stdout == ""
    ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", ".venv"], cwd=tasks.ROOT)
    assert ignored.returncode == 0, ".venv must be ignored whether a folder or a link"
