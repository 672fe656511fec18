"""Compiled play: one run of a command with the engines, rules and policies built by mypyc.

A strong balance run is pure Python doing millions of small typed steps. mypyc compiles the
typed play-time modules to C extension modules that play the very same games for about
0.5-0.7x the CPU (benchmarks/mypyc_trial.py measures it table by table).

How a run goes (``pnp validate --compiled``; a run of the strong player of at least
:data:`AUTO_STRONG_GAMES` games goes so unless told ``--plain``, and plays plain Python when
this machine cannot build):

1. pnp's own package is copied into a new private folder, and mypyc compiles the play-time
   modules of the engines and of the games asked for there (:func:`compiled_sources`).
2. The copy is checked before it is trusted: it plays a few games of every table of every
   game asked for, and every action and final position must be the same as plain Python's
   (:func:`check_same_games`). mypyc can fail at run time only, so this is never skipped.
3. The command runs again in a new interpreter with the copy first on its path; its worker
   processes are forked from it and play compiled too. Its output and exit code are the run's.
4. The folder is removed.

Nothing is kept between runs. A compiled module is machine code run unseen, so one found on
disk (in a cache restored from shared storage, say) is never loaded: every run builds its own,
at about 220 CPU-s for the five games (2 minutes on 2 cores), which only a long run (a strong
balance run, minutes to an hour) earns back.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import resource
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path

from pnp.cores import default_workers
from pnp.errors import PnpError

PACKAGE = Path(__file__).resolve().parent.parent
"""pnp's own package folder, copied for every build."""

COPY_ENVIRONMENT = "PNP_COMPILED_COPY"
"""Set for the command run with the compiled copy: the copy's folder (see
:func:`require_compiled_copy`)."""

ENGINE_MODULES = ("search", "piles", "seats", "hexgrid", "batch", "record", "stats", "memo")
"""The engines' play-time modules. base.py and view.py stay interpreted: mypyc cannot make a
native class that inherits from a builtin type (base's errors), and view's dataclasses put a
ClassVar default before a field without one."""

NOT_AT_PLAY = frozenset(
    {
        "__init__.py",
        "checks.py",
        "claims.py",
        "examples.py",
        "model.py",
        "notation.py",
        "physical.py",
        "play.py",
        "simulation.py",
        "view.py",
    }
)
"""A game's modules a game of the validator never runs (content checks, the kit's model, the
rulebook's pictures). The models stay interpreted anyway: their dataclasses derive from
pnp.model.kit's, and a compiled class cannot derive from an interpreted one."""

SAME_GAMES_SEEDS = 2
"""Games of each of a game's own policies on each table in the check before a run."""

STRONG_CHECK = "strong"
"""The search player, whose code and playouts are most of a strong run: one game a game."""

OPT_LEVEL = "3"

AUTO_STRONG_GAMES = 300
"""The strong games from which a run plays compiled unless told ``--plain``. A build and its
check cost about 60 CPU-s for one game (some 250 for the five) and a strong game 0.6-2.6
CPU-s, of which compiled play saves 0.3-0.5: 300 games of the cheapest (Deadline 99's
3-player table) about pay for it, any dearer run gains (Deadline 99's strong balance run,
600 games: 5:52 against 7:22), and a few dozen games (a quick look, a test) would only wait."""


class CompileError(PnpError):
    """The compiled copy could not be built, or does not play as plain Python does."""


@dataclass(frozen=True)
class Build:
    folder: Path
    """Put first on the path, it makes ``import pnp`` the compiled copy."""
    sources: tuple[str, ...]
    cpu_seconds: float
    wall_seconds: float


def compiled_sources(slugs: Iterable[str], package: Path = PACKAGE) -> list[str]:
    """The modules mypyc compiles for ``slugs``, as paths from the package's parent: the
    engines' and each game's play-time modules (a game from a package of its own is left
    interpreted)."""
    found = [f"pnp/engines/{name}.py" for name in ENGINE_MODULES]
    for slug in sorted(set(slugs)):
        folder = package / "games" / slug.replace("-", "_")
        for path in sorted(folder.glob("*.py")):
            if path.name not in NOT_AT_PLAY:
                found.append(path.relative_to(package.parent).as_posix())
    return found


def missing_tools() -> list[str]:
    """What a build needs and this machine lacks, each with how to get it."""
    missing = []
    for module in ("mypyc", "setuptools"):
        if find_spec(module) is None:
            missing.append(f"{module} (pip install 'pnp-kit[compiled]')")
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        missing.append(f"a C compiler, {compiler!r} (on Debian: apt-get install gcc)")
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        missing.append(
            f"Python's headers, {str(headers)!r} (on Debian: apt-get install python3-dev)"
        )
    return missing


SETUP = """\
from concurrent.futures import ThreadPoolExecutor

from mypyc.build import mypycify
from setuptools import setup

# After setuptools: its own distutils, the one the build's compiler comes from.
from distutils.ccompiler import CCompiler


def compile_side_by_side(self, sources, output_dir=None, macros=None, include_dirs=None,
                         debug=False, extra_preargs=None, extra_postargs=None, depends=None):
    # CCompiler.compile, with the C files of one extension compiled on every core.
    macros, objects, extra_postargs, pp_opts, build = self._setup_compile(
        output_dir, macros, include_dirs, sources, depends, extra_postargs
    )
    cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

    def one(obj):
        if obj in build:
            source, extension = build[obj]
            self._compile(obj, source, extension, cc_args, extra_postargs, pp_opts)

    with ThreadPoolExecutor({workers}) as pool:
        list(pool.map(one, objects))
    return objects


CCompiler.compile = compile_side_by_side
setup(
    name="pnp_compiled_play",
    ext_modules=mypycify({sources!r}, opt_level={opt_level!r}, multi_file=True),
)
"""
"""multi_file: one C file a module (one file for every game would be 42 MB of C for one gcc),
which the build compiles on every core: setuptools compiles an extension's files one by one."""


def build(folder: Path, sources: Sequence[str], package: Path = PACKAGE) -> Build:
    """Copy ``package`` into ``folder`` and compile ``sources`` there; CompileError with the
    end of the compiler's output when it fails."""
    missing = missing_tools()
    if missing:
        raise CompileError("compiled play needs " + "; ".join(missing))
    shutil.copytree(
        package, folder / "pnp", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyc")
    )
    # mypyc type-checks the whole program with the project's mypy settings.
    pyproject = package.parent / "pyproject.toml"
    if pyproject.is_file():
        shutil.copy2(pyproject, folder / "pyproject.toml")
    setup = SETUP.format(sources=list(sources), opt_level=OPT_LEVEL, workers=default_workers())
    (folder / "setup.py").write_text(setup)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    command = [sys.executable, "setup.py", "build_ext", "--inplace"]
    # mypy's cache in the private folder too: one from elsewhere would decide the types the
    # code is compiled for.
    environment = {**os.environ, "MYPY_CACHE_DIR": str(folder / ".mypy_cache")}
    done = subprocess.run(
        command,
        cwd=folder,
        env=environment,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        tail = "\n".join(done.stdout.splitlines()[-15:])
        raise CompileError(f"mypyc could not compile pnp's play-time modules:\n{tail}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Build(folder, tuple(sources), cpu, wall)


# -- the check before a run -------------------------------------------------------------------


def game_digests(content_root: Path, slugs: Sequence[str]) -> dict[str, str]:
    """A digest of the actions, outcome and final position of a few seeded games, by
    ``slug table policy``: every table with each of the game's own policies, and one game of
    the strong player on the first table. Games whose content does not load are left out
    (the command itself reports them)."""
    from pnp.content.loader import load_game
    from pnp.engines.base import play_game
    from pnp.errors import ContentError
    from pnp.registry import find_game
    from pnp.validate.play import game_tables, make_policy

    digests: dict[str, str] = {}
    for slug in slugs:
        try:
            plugin = find_game(slug)
            model = load_game(content_root, slug).model
        except (ContentError, PnpError):
            continue
        if plugin is None or plugin.rules is None:
            continue
        tables = game_tables(plugin, model)
        plan = [(table, name, SAME_GAMES_SEEDS) for table in tables for name in plugin.policies]
        if tables:
            plan.append((tables[0], STRONG_CHECK, 1))
        for table, name, games in plan:
            digest = hashlib.sha256()
            rules = table.rules
            for seed in range(games):
                policies = [make_policy(plugin, name) for _ in range(rules.num_players)]
                record = play_game(
                    rules,
                    policies,
                    random.Random(seed),
                    table.max_steps,
                    max_turns=table.max_turns,
                    record_actions=True,
                )
                digest.update("\n".join(map(str, record.actions)).encode())
                digest.update(
                    f"\n{record.outcome}\n{rules.notation(record.final_state)}\n".encode()
                )
            digests[f"{slug} {table.name} {name}"] = digest.hexdigest()
    return digests


def check_same_games(copy: Build, content_root: Path, slugs: Sequence[str]) -> int:
    """The number of tables and policies the compiled copy played exactly as plain Python;
    CompileError naming the first that differs. The copy plays in its own process while this
    one plays plain, side by side."""
    command = [sys.executable, "-P", "-m", "pnp.validate.compiled", str(content_root), *slugs]
    child = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=copy_environment(copy.folder),
        cwd=copy.folder,
    )
    plain = game_digests(content_root, slugs)
    out, err = child.communicate()
    if child.returncode != 0:
        last = (err.strip().splitlines() or ["no message"])[-1]
        raise CompileError(
            f"the compiled copy failed to play ({last}): a mypyc difference, worth reporting"
        )
    reply = json.loads(out)
    if not reply["compiled"]:
        raise CompileError("the compiled copy was not the one imported (a pnp earlier on the path)")
    compiled: dict[str, str] = reply["digests"]
    for key in sorted(plain.keys() | compiled.keys()):
        if plain.get(key) != compiled.get(key):
            raise CompileError(
                f"the compiled copy plays {key} differently from plain Python (a mypyc "
                "difference, worth reporting)"
            )
    return len(plain)


def copy_environment(folder: Path) -> dict[str, str]:
    """This process's environment with the copy first on the path and named to the command."""
    environment = dict(os.environ)
    path = [str(folder), *filter(None, environment.get("PYTHONPATH", "").split(os.pathsep))]
    environment["PYTHONPATH"] = os.pathsep.join(path)
    environment[COPY_ENVIRONMENT] = str(folder)
    return environment


def compiled_modules() -> list[str]:
    """The pnp modules this process imported as extension modules."""
    return sorted(
        name
        for name, module in sys.modules.items()
        if name.startswith("pnp.")
        and not str(getattr(module, "__file__", "") or "").endswith(".py")
        and getattr(module, "__file__", None) is not None
    )


def require_compiled_copy() -> None:
    """In the command run with the copy: that the copy is this process's pnp, from a private
    folder of this user's (so a PNP_COMPILED_COPY set by hand names nothing else to run)."""
    named = Path(os.environ[COPY_ENVIRONMENT]).resolve()
    info = named.stat()
    private = info.st_uid == os.getuid() and not info.st_mode & (stat.S_IRWXG | stat.S_IRWXO)
    if not private or PACKAGE.parent != named:
        raise CompileError(
            f"{COPY_ENVIRONMENT} names {str(named)!r}, which is not this run's compiled copy"
        )
    from pnp.engines import search

    if str(search.__file__).endswith(".py"):
        raise CompileError("the compiled copy's engines were not imported compiled")


# -- the run ----------------------------------------------------------------------------------


def run_compiled(
    arguments: Sequence[str],
    content_root: Path,
    slugs: Sequence[str],
    say: Callable[[str], None],
) -> int:
    """Build, check, then run ``pnp ARGUMENTS`` with the compiled copy; its exit code."""
    with tempfile.TemporaryDirectory(prefix="pnp-compiled-") as private:
        sources = compiled_sources(slugs)
        say(f"compiling {len(sources)} play-time modules with mypyc (a minute or two)...")
        copy = build(Path(private), sources)
        say(f"compiled in {copy.wall_seconds:.0f} s ({copy.cpu_seconds:.0f} CPU-s)")
        checked = check_same_games(copy, content_root.resolve(), slugs)
        say(f"the compiled copy plays {checked} tables and players exactly as plain Python")
        # -P: the current folder is not put before the path (in pnp's own checkout it holds
        # the plain package, which would be imported instead of the copy).
        command = [sys.executable, "-P", "-m", "pnp", *arguments]
        return subprocess.run(command, env=copy_environment(copy.folder)).returncode


def _digests_main(argv: Sequence[str]) -> int:
    """``python -m pnp.validate.compiled CONTENT SLUG...``: the digests, as JSON on stdout."""
    content_root, *slugs = argv
    digests = game_digests(Path(content_root), slugs)
    print(json.dumps({"compiled": compiled_modules(), "digests": digests}))
    return 0


if __name__ == "__main__":
    sys.exit(_digests_main(sys.argv[1:]))
