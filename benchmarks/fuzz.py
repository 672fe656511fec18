"""Content fuzzing: random one-edit mutations of a game's content through every command.

    python3 tasks.py fuzz [--cases N] [--seed S] [--games G...] [--commands C...]
    .venv/bin/python -m benchmarks.fuzz --cases 2000 --seed 1

Content arrives in pull requests; no edit may reach a traceback or a hang. Each case copies
one game's content, applies one random edit to one of its YAML files (drop a key, misspell
it, change a value's type or size, break a reference by copying an id from elsewhere, empty
or duplicate a list item, swap two items, inject jinja) and runs each command on the copy:
``validate``, ``build``, ``simulate``, ``rulebook`` and ``export``. A command passes when it
exits 0, 1 or 2 with no traceback within its time limit; exit 3 (pnp's 'internal error') or
an exception is a traceback, and a command over its limit is a hang. The same seed gives the
same cases, and every failure prints the seed and the edit that reproduce it.
"""

from __future__ import annotations

import argparse
import copy
import random
import re
import shutil
import signal
import sys
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner

from pnp.cli import main as pnp_main
from pnp.paths import REPOSITORY

CONTENT = REPOSITORY / "content"
COMMANDS = ("validate", "build", "simulate", "rulebook", "export")
CHECKING = ("validate", "build")
"""Commands that must refuse a broken edit (the others may stop on it too, or not need it)."""
TIME_LIMIT_SECONDS = 120
"""A command still running after this long on one edit counts as a hang."""

Path_ = tuple[Any, ...]
"""Where a value sits in a YAML document: keys and list indexes from the root."""


@dataclass(frozen=True)
class Edit:
    """One mutation of one file, described so a person can redo it by hand."""

    game: str
    file: str
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.game}/{self.file} at {self.where}: {self.what}"


@dataclass
class Outcome:
    """What one command did with one edit."""

    command: str
    exit_code: int | None
    seconds: float
    failure: str = ""
    """'traceback', 'hang' or 'false pass' (exit 0 on a mistake) when the command failed the
    fuzz contract."""
    detail: str = ""


@dataclass
class Summary:
    cases: int = 0
    runs: Counter[str] = field(default_factory=Counter)
    exit_codes: Counter[tuple[str, int | None]] = field(default_factory=Counter)
    failures: list[tuple[int, Edit, Outcome]] = field(default_factory=list)
    seconds: Counter[str] = field(default_factory=Counter)

    def failed(self, kind: str, command: str | None = None) -> int:
        return sum(
            1
            for _, _, outcome in self.failures
            if outcome.failure == kind and (command is None or outcome.command == command)
        )


# -- mutations --------------------------------------------------------------------------------


def _paths(value: Any, here: Path_ = ()) -> Iterator[Path_]:
    yield here
    if isinstance(value, dict):
        for key, inner in value.items():
            yield from _paths(inner, (*here, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _paths(inner, (*here, index))


def _get(document: Any, path: Path_) -> Any:
    for step in path:
        document = document[step]
    return document


def _scalars(document: Any) -> list[Any]:
    return [
        value
        for path in _paths(document)
        if isinstance(value := _get(document, path), (str, int, float, bool))
    ]


def _typo(text: str, rng: random.Random) -> str:
    if not text:
        return "x"
    i = rng.randrange(len(text))
    choice = rng.randrange(4)
    if choice == 0:
        return text[:i] + text[i + 1 :] or "x"
    if choice == 1:
        return text[:i] + text[i] + text[i:]
    if choice == 2 and len(text) > 1:
        j = min(i + 1, len(text) - 1)
        chars = list(text)
        chars[i], chars[j] = chars[j], chars[i]
        return "".join(chars)
    return text + rng.choice("s_-1")


JINJA = [
    "{{ game.nonexistent }}",
    "{{ cycler.__init__.__globals__.os.getcwd() }}",
    "{% for x in range(10**9) %}{% endfor %}",
    "{{ '",
    "{{ game }}",
]


def _replacement(value: Any, pool: list[Any], rng: random.Random) -> tuple[Any, str]:
    """A new value for ``value``: another type, an edge size, or a value from elsewhere."""
    options: list[tuple[Any, str]] = [
        (None, "set to null"),
        ("", "set to an empty string"),
        ([], "set to an empty list"),
        ({}, "set to an empty mapping"),
        (0, "set to 0"),
        (-1, "set to -1"),
        (10**6, "set to 1000000"),
        (True, "set to true"),
        (2.5, "set to 2.5"),
        ("x" * 300, "set to a 300-character string"),
    ]
    if pool:
        other = rng.choice(pool)
        options += [(other, f"set to {other!r} from elsewhere in the file")] * 4
    if isinstance(value, str):
        options += [(_typo(value, rng), "misspelt")] * 4
        options.append((rng.choice(JINJA), "jinja injected"))
    if isinstance(value, bool):
        options.append((not value, "flipped"))
    elif isinstance(value, int):
        options += [(value + 1, "plus one"), (value - 1, "minus one"), (-value, "negated")] * 2
        options.append((str(value), "quoted as text"))
    return rng.choice(options)


_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
_SIZE = re.compile(r"^\d+(\.\d+)?x\d+(\.\d+)?mm$")


def _mistakes(document: Any) -> list[tuple[Path_, Any, str]]:
    """Edits a careful reader calls broken, wherever ``document`` offers them: (where, new
    value, what). Content with one of them must not pass validate (nor build)."""
    found: list[tuple[Path_, Any, str]] = []
    for path in _paths(document):
        if not path:
            continue
        value, key = _get(document, path), path[-1]
        if key == "copies" and isinstance(value, int) and not isinstance(value, bool):
            found += [(path, -5, "copies set to -5"), (path, 10**9, "copies set to 10**9")]
        elif key in ("name", "title", "question", "answer") and isinstance(value, str) and value:
            found.append((path, "", f"{key} emptied"))
        elif key == "size" and isinstance(value, str) and _SIZE.match(value):
            found.append((path, "0x0mm", "size set to 0x0mm"))
        elif isinstance(value, str) and _COLOUR.match(value):
            found.append((path, "#zzzzzz", "colour set to '#zzzzzz'"))
        elif key in ("centre", "cell") and isinstance(value, list) and len(value) == 2:
            found.append((path, value[:1], "a [column, row] cut to one number"))
    return found


def mutate(document: Any, rng: random.Random) -> tuple[Any, str, str, bool]:
    """A mutated deep copy of ``document``, where the edit happened, what it was, and whether
    it is a mistake every command must refuse (the rest may be harmless: a renamed note)."""
    document = copy.deepcopy(document)
    paths = [path for path in _paths(document) if path]
    if not paths:
        return {"x": 1}, "root", "replaced an empty file", False
    mistakes = _mistakes(document)
    if mistakes and rng.random() < 0.25:
        path, value, what = rng.choice(mistakes)
        _get(document, path[:-1])[path[-1]] = value
        return document, "/".join(str(step) for step in path), what, True
    path = rng.choice(paths)
    parent, last = _get(document, path[:-1]), path[-1]
    where = "/".join(str(step) for step in path)
    value = parent[last]
    roll = rng.random()
    if roll < 0.15:
        del parent[last]
        return document, where, "deleted", False
    if roll < 0.25 and isinstance(parent, dict):
        renamed = _typo(str(last), rng)
        parent[renamed] = parent.pop(last)
        return document, where, f"key renamed to {renamed!r}", False
    if roll < 0.32 and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(value))
        return document, where, "duplicated", False
    if roll < 0.38 and isinstance(parent, list) and len(parent) > 1:
        other = rng.randrange(len(parent))
        parent[last], parent[other] = parent[other], parent[last]
        return document, where, f"swapped with item {other}", False
    if roll < 0.44 and isinstance(value, list) and value:
        value.clear()
        return document, where, "emptied", False
    if roll < 0.50 and isinstance(value, dict) and value:
        key = rng.choice(list(value))
        del value[key]
        return document, f"{where}/{key}", "deleted", False
    replacement, what = _replacement(value, _scalars(document), rng)
    parent[last] = replacement
    return document, where, what, False


# -- running commands -------------------------------------------------------------------------


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def _arguments(command: str, game: str, content: Path, out: Path) -> list[str]:
    base = ["--content", str(content)]
    if command == "validate":
        # The game's own number of games: fewer leave clean content unexercised, so every
        # edit would fail validate and a false pass could not be seen.
        return [*base, "validate", game]
    if command == "build":
        return [*base, "build", game, "--out", str(out / "build")]
    if command == "simulate":
        return [*base, "simulate", game, "--games", "2"]
    if command == "rulebook":
        return [*base, "rulebook", game, "--out", str(out / "rulebook")]
    return [*base, "export", game, "--format", "tts", "--out", str(out / "export")]


def run_command(command: str, game: str, content: Path, out: Path, limit: float) -> Outcome:
    """Run one pnp command in this process under a time limit."""
    runner = CliRunner()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, limit)
    started = time.perf_counter()
    try:
        result = runner.invoke(pnp_main, _arguments(command, game, content, out))
    except _Timeout:
        return Outcome(command, None, time.perf_counter() - started, "hang", f"over {limit} s")
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    seconds = time.perf_counter() - started
    error = result.exception
    if isinstance(error, _Timeout):
        return Outcome(command, None, seconds, "hang", f"over {limit} s")
    if error is not None and not isinstance(error, SystemExit):
        detail = "".join(traceback.format_exception(error)).strip().splitlines()
        return Outcome(command, result.exit_code, seconds, "traceback", "\n".join(detail[-6:]))
    output = result.stdout + result.stderr
    if result.exit_code == 3 or "Traceback" in output:
        lines = [
            line for line in output.splitlines() if "internal error" in line or "Error" in line
        ]
        return Outcome(command, result.exit_code, seconds, "traceback", "\n".join(lines[-3:]))
    return Outcome(command, result.exit_code, seconds)


def cases(seed: int, count: int, games: list[str]) -> Iterator[tuple[int, str, str, int]]:
    """(case number, game, file, seed of the edit): the same seed, the same cases."""
    rng = random.Random(seed)
    files = {game: sorted(p.name for p in (CONTENT / game).glob("*.yaml")) for game in games}
    for number in range(count):
        game = games[number % len(games)]
        yield number, game, rng.choice(files[game]), rng.getrandbits(32)


def control(games: list[str], limit: float = TIME_LIMIT_SECONDS) -> list[str]:
    """The games whose unedited content fails the fuzz's own validate: a sample of them
    proves nothing (every edit would 'fail' already), so the fuzz says so first."""
    failing = []
    for game in games:
        outcome = run_command("validate", game, CONTENT, Path(tempfile.gettempdir()), limit)
        if outcome.exit_code != 0:
            failing.append(game)
    return failing


def fuzz(
    *,
    seed: int,
    count: int,
    games: list[str],
    commands: tuple[str, ...] = COMMANDS,
    limit: float = TIME_LIMIT_SECONDS,
    report: Callable[[str], None] = print,
) -> Summary:
    summary = Summary()
    documents = {
        (game, path.name): yaml.safe_load(path.read_text(encoding="utf-8"))
        for game in games
        for path in sorted((CONTENT / game).glob("*.yaml"))
    }
    with tempfile.TemporaryDirectory(prefix="pnp-fuzz-") as scratch:
        root = Path(scratch)
        for number, game, name, edit_seed in cases(seed, count, games):
            content = root / f"case-{number}" / "content"
            shutil.copytree(CONTENT / game, content / game)
            document, where, what, broken = mutate(documents[game, name], random.Random(edit_seed))
            (content / game / name).write_text(
                yaml.safe_dump(document, allow_unicode=True, sort_keys=False), encoding="utf-8"
            )
            edit = Edit(game, name, where, what)
            summary.cases += 1
            for command in commands:
                outcome = run_command(command, game, content, content.parent / "out", limit)
                if broken and command in CHECKING and outcome.exit_code == 0:
                    outcome.failure, outcome.detail = "false pass", "exit 0 on a broken edit"
                summary.runs[command] += 1
                summary.seconds[command] += outcome.seconds
                summary.exit_codes[command, outcome.exit_code] += 1
                if outcome.failure:
                    summary.failures.append((number, edit, outcome))
                    report(
                        f"case {number} (seed {seed}): {command}: {outcome.failure}: {edit}\n"
                        f"    {outcome.detail.replace(chr(10), chr(10) + '    ')}"
                    )
            shutil.rmtree(content.parent, ignore_errors=True)
    return summary


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", nargs="*", default=None)
    parser.add_argument("--commands", nargs="*", default=list(COMMANDS), choices=COMMANDS)
    parser.add_argument("--limit", type=float, default=TIME_LIMIT_SECONDS)
    args = parser.parse_args(argv)
    games = args.games or sorted(p.name for p in CONTENT.iterdir() if p.is_dir())
    failing = control(games, args.limit)
    if failing:
        print(f"== fuzz: unedited content fails validate: {', '.join(failing)}; fix that first")
        return 1
    started = time.perf_counter()
    summary = fuzz(
        seed=args.seed,
        count=args.cases,
        games=games,
        commands=tuple(args.commands),
        limit=args.limit,
    )
    elapsed = time.perf_counter() - started
    print(f"== fuzz: {summary.cases} edits, seed {args.seed}, {elapsed:.0f} s")
    for command in args.commands:
        codes = ", ".join(
            f"exit {code}: {n}"
            for (c, code), n in sorted(summary.exit_codes.items(), key=str)
            if c == command
        )
        tracebacks, hangs = summary.failed("traceback", command), summary.failed("hang", command)
        passes = summary.failed("false pass", command)
        print(
            f"{command:<9} {summary.runs[command]:>6} runs  tracebacks {tracebacks}"
            f"  hangs {hangs}  false passes {passes}  ({codes}; "
            f"{summary.seconds[command] / max(summary.runs[command], 1):.2f} s each)"
        )
    return 1 if summary.failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
