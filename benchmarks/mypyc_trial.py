"""Issue 32's trial: do the typed engines, compiled with mypyc, play the same games for less CPU?

    python benchmarks/mypyc_trial.py build --cache DIR     # the compiled copies, kept in DIR
    python benchmarks/mypyc_trial.py identity              # same actions, plain vs compiled
    python benchmarks/mypyc_trial.py timing --rounds 5     # CPU per game, A/B alternating
    python benchmarks/mypyc_trial.py all                   # the three, in that order

Nothing is compiled in the source tree: pnp/ and pyproject.toml are copied into a folder named
after a key (every byte of pnp/**/*.py, the Python and mypy versions, the module list and the
flags), inside a new private folder for each run unless --cache names a folder of your own;
mypyc builds there in place, and a worker process gets that folder first on its PYTHONPATH.
An edited .py therefore gets a new key and a new build; a stale .so never shadows it. Two
variants: ``engines`` (pnp/engines only) and ``full`` (the engines and every game module the
rules and policies use at play time: all of them but the models, see REFUSED). The source
compiles as it is: what mypyc refused in the games (a second base class, object.__new__,
weak references, ``vars(self)``, exec'd copiers) was rewritten in the source itself.

The work is done by long-lived worker processes (one plain, one per variant) that answer
requests on stdin, so the comparison alternates plain / compiled / plain ... game by game in
the same minutes, and no import or content load is counted: the figure is
``time.process_time()`` around the games alone. A designer tool, so it lives here.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from typing import IO, Any

from pnp.cores import default_workers
from pnp.validate.compiled import OPT_LEVEL, SETUP, compiled_sources

ROOT = Path(__file__).resolve().parent.parent
GAMES_DIR = ROOT / "pnp" / "games"

REFUSED = {
    "pnp/engines/base.py": "InvariantViolation(AssertionError): mypyc cannot make a native "
    "class that inherits from most builtin types",
    "pnp/engines/view.py": "compiles, but its import fails: mypyc's dataclasses take the "
    "``kind: ClassVar[str] = ...`` of Row, Board, Track and Counters for a field with a default, "
    "so ``title`` after it raises 'non-default argument follows default argument'",
    "pnp/games/*/model.py": "compile, but their import fails (AttributeError: attribute "
    "'__dict__' of 'type' objects is not writable): their dataclasses derive from pnp.model.kit's "
    "(Card, Board, Token, Aid, GameContent), which stay interpreted",
}
"""Modules left interpreted, and what mypyc (or the interpreter, at import) refuses in them."""

BUILD_FLAGS = {"opt_level": OPT_LEVEL, "multi_file": True, "workers": default_workers()}
"""As ``pnp validate --compiled`` builds (pnp.validate.compiled.SETUP)."""


def engine_sources() -> list[str]:
    return compiled_sources([])


def all_sources() -> list[str]:
    games = sorted(path.parent.name for path in GAMES_DIR.glob("*/__init__.py"))
    return compiled_sources(games)


VARIANTS: dict[str, Callable[[], list[str]]] = {
    "engines": engine_sources,
    "full": all_sources,
}


# -- building ----------------------------------------------------------------------------


def build_key(variant: str, sources: Sequence[str]) -> str:
    """Changes with any byte of pnp's Python (an interpreted module's types are compiled into
    its callers), the interpreter, mypy/mypyc and what is compiled how."""
    digest = hashlib.sha256()
    for path in sorted((ROOT / "pnp").rglob("*.py")):
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    digest.update(sys.version.encode() + sysconfig.get_platform().encode())
    digest.update(version("mypy").encode())
    digest.update(json.dumps([list(sources), BUILD_FLAGS], sort_keys=True).encode())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class Build:
    variant: str
    folder: Path
    sources: tuple[str, ...]
    cpu_seconds: float
    wall_seconds: float
    library_bytes: int


def build(variant: str, cache: Path) -> Build:
    """The compiled copy of ``variant``, built unless a copy with the same key exists."""
    sources = tuple(VARIANTS[variant]())
    folder = cache / f"{variant}-{build_key(variant, sources)}"
    facts = folder / "build.json"
    if not facts.is_file():
        partial = folder.with_name(folder.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        shutil.copytree(
            ROOT / "pnp", partial / "pnp", ignore=shutil.ignore_patterns("__pycache__", "*.so")
        )
        shutil.copy2(ROOT / "pyproject.toml", partial / "pyproject.toml")
        (partial / "setup.py").write_text(SETUP.format(sources=list(sources), **BUILD_FLAGS))
        print(f"building {variant}: mypyc on {len(sources)} modules in {partial}", flush=True)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        command = [sys.executable, "setup.py", "build_ext", "--inplace", "-j", "2"]
        with open(partial / "build.log", "w") as log:
            done = subprocess.run(command, cwd=partial, stdout=log, stderr=subprocess.STDOUT)
        wall = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"mypyc failed for {variant}: see {partial / 'build.log'}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        size = sum(path.stat().st_size for path in partial.rglob("*.so"))
        (partial / "build.json").write_text(
            json.dumps({"cpu": cpu, "wall": wall, "bytes": size}, indent=1)
        )
        partial.rename(folder)
    recorded = json.loads(facts.read_text())
    return Build(variant, folder, sources, recorded["cpu"], recorded["wall"], recorded["bytes"])


# -- the worker: one process, plain or compiled ----------------------------------------------


def serve(requests: IO[str], replies: IO[str]) -> None:
    """Answer play requests, one JSON line each; the first line says which pnp this is."""
    from pnp import registry
    from pnp.content.loader import load_game
    from pnp.engines import search
    from pnp.engines.base import play_game
    from pnp.validate.play import game_tables, make_policy

    games = {game.slug: game for game in registry.with_engine()}
    tables: dict[str, Any] = {}

    def tables_of(slug: str) -> Any:
        if slug not in tables:
            model = load_game(ROOT / "content", slug).model
            tables[slug] = {table.name: table for table in game_tables(games[slug], model)}
        return tables[slug]

    compiled = sorted(
        name
        for name, module in sys.modules.items()
        if name.startswith("pnp") and not str(getattr(module, "__file__", "")).endswith(".py")
    )
    hello = {"search": search.__file__, "compiled": compiled}
    replies.write(json.dumps(hello) + "\n")
    replies.flush()
    for line in requests:
        request = json.loads(line)
        game = games[request["slug"]]
        reply: dict[str, Any] = {"tables": list(tables_of(request["slug"]))}
        if not request["table"]:  # only the table names
            replies.write(json.dumps(reply) + "\n")
            replies.flush()
            continue
        table = tables_of(request["slug"])[request["table"]]
        rules = table.rules
        digest = hashlib.sha256()
        started = time.process_time()
        for seed in request["seeds"]:
            policies = [make_policy(game, request["policy"]) for _ in range(rules.num_players)]
            record = play_game(
                rules,
                policies,
                random.Random(seed),
                table.max_steps,
                max_turns=table.max_turns,
                record_actions=request["record"],
            )
            if request["record"]:
                text = "\n".join(str(action) for action in record.actions)
                text += f"\n{record.outcome}\n{rules.notation(record.final_state)}\n"
                digest.update(text.encode())
                if " object at 0x" in text:  # a repr with an address: never equal
                    reply["unstable"] = text.split(" object at 0x")[0][-80:]
        reply["cpu"] = time.process_time() - started
        reply["digest"] = digest.hexdigest()
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


class Worker:
    """A worker process: ``build`` None is the plain source tree (the editable install)."""

    def __init__(self, label: str, build: Build | None) -> None:
        self.label = label
        env = dict(os.environ)
        if build is not None:
            env["PYTHONPATH"] = os.pathsep.join(
                part for part in (str(build.folder), env.get("PYTHONPATH", "")) if part
            )
        self.process = subprocess.Popen(
            [sys.executable, __file__, "serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        self.hello = self._read()
        compiled = self.hello["compiled"]
        if (build is None) != (not compiled):
            raise SystemExit(f"{label}: expected {'no ' if build is None else ''}.so, {compiled}")

    def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"worker {self.label} died (its stderr is above)")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def play(
        self, slug: str, table: str, policy: str, seeds: Sequence[int], record: bool = False
    ) -> dict[str, Any]:
        assert self.process.stdin is not None
        request = {"slug": slug, "table": table, "policy": policy, "seeds": list(seeds)}
        self.process.stdin.write(json.dumps(request | {"record": record}) + "\n")
        self.process.stdin.flush()
        return self._read()

    def tables(self, slug: str) -> list[str]:
        names: list[str] = self.play(slug, "", "", [])["tables"]
        return names

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def workers(builds: Sequence[Build]) -> Iterator[Worker]:
    yield Worker("plain", None)
    for one in builds:
        yield Worker(one.variant, one)


# -- the measurements -------------------------------------------------------------------------

TIMED_TABLES = (
    ("maquis", "very-easy"),
    ("maquis", "easy"),
    ("maquis", "normal"),
    ("arena-tales", "2p"),
    ("arena-tales", "4p"),
    ("arena-tales", "6p"),
    ("dragon-hoard", "3p"),
    ("mineventure", "3p-map-24"),
    ("deadline-99", "normal-5p"),
)
SLUGS = ("arena-tales", "deadline-99", "dragon-hoard", "maquis", "mineventure")


def identity(pool: Sequence[Worker], strong: int, sensible: int, slugs: Sequence[str]) -> bool:
    """Every table of every game: the actions of ``strong`` strong and ``sensible`` sensible
    games (seeds 0..) are the same in every worker."""
    same = True
    for slug in slugs:
        for table in pool[0].tables(slug):
            for policy, games in (("strong", strong), ("sensible", sensible)):
                seeds = range(games)
                digests = {w.label: w.play(slug, table, policy, seeds, record=True) for w in pool}
                unstable = [label for label, reply in digests.items() if "unstable" in reply]
                distinct = {reply["digest"] for reply in digests.values()}
                verdict = "same" if len(distinct) == 1 and not unstable else "DIFFERENT"
                same = same and verdict == "same"
                cpu = "  ".join(f"{label} {r['cpu']:.1f}s" for label, r in digests.items())
                print(f"  {slug:12} {table:22} {policy:8} x{games:<3} {verdict}  ({cpu})")
                sys.stdout.flush()
    return same


def spread(values: Sequence[float]) -> str:
    return f"{statistics.median(values):6.3f} ({min(values):.3f}-{max(values):.3f})"


def timing(
    pool: Sequence[Worker],
    rounds: int,
    policy: str,
    games: int,
    tables: Sequence[tuple[str, str]],
) -> None:
    """CPU seconds per game of ``policy``, each worker in turn, ``rounds`` times over."""
    print(f"\n{policy}: CPU seconds a game and paired ratios, median (min-max) of {rounds} rounds")
    print(f"of {games} game(s) a worker, the workers in turn (A, B, C, A, ...)")
    header = "".join(f"{w.label:>24}" for w in pool)
    ratios = "".join(f"{w.label + '/plain':>24}" for w in pool[1:])
    print(f"{'table':28}{header}{ratios}")
    for slug, table in tables:
        samples: dict[str, list[float]] = {w.label: [] for w in pool}
        for round_number in range(rounds):
            seeds = range(round_number * games, (round_number + 1) * games)
            turn = round_number % len(pool)  # who goes first changes from round to round
            for worker in [*pool[turn:], *pool[:turn]]:
                reply = worker.play(slug, table, policy, seeds)
                samples[worker.label].append(reply["cpu"] / games)
        cells = "".join(f"{spread(samples[w.label]):>24}" for w in pool)
        # Every worker plays a round's seeds: the ratio to plain is paired round by round.
        plain = samples["plain"]
        paired = {
            w.label: [c / p for c, p in zip(samples[w.label], plain, strict=True)] for w in pool
        }
        change = "".join(f"{spread(paired[w.label]):>24}" for w in pool[1:])
        print(f"{slug + ' ' + table:28}{cells}{change}")
        print(f"  samples {json.dumps(samples)}")
        sys.stdout.flush()


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("build", "identity", "timing", "all", "serve"))
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="a folder of your own to keep the builds in and reuse them from (default: a new "
        "private folder, removed at the end: a build found in a shared place is never run)",
    )
    parser.add_argument("--variants", default="engines,full", help="comma-separated")
    parser.add_argument("--rounds", type=int, default=5, help="timing rounds (A/B alternating)")
    parser.add_argument("--strong-games", type=int, default=2, help="a table, for identity")
    parser.add_argument("--sensible-games", type=int, default=50, help="a table, for identity")
    parser.add_argument("--games", type=int, default=1, help="strong games a timing sample")
    parser.add_argument("--slugs", default=",".join(SLUGS), help="games for identity")
    args = parser.parse_args(argv)
    if args.command == "serve":
        serve(sys.stdin, sys.stdout)
        return 0
    if args.cache is None:
        with tempfile.TemporaryDirectory(prefix="pnp-mypyc-") as private:
            return run(args, Path(private))
    return run(args, args.cache)


def run(args: argparse.Namespace, cache: Path) -> int:
    builds = [build(variant, cache) for variant in args.variants.split(",") if variant]
    for one in builds:
        print(
            f"{one.variant}: {len(one.sources)} modules compiled, {one.cpu_seconds:.0f} CPU-s "
            f"({one.wall_seconds:.0f} s wall), {one.library_bytes / 1e6:.1f} MB of .so, "
            f"in {one.folder}"
        )
    for path, reason in REFUSED.items():
        print(f"  left interpreted: {path}: {reason}")
    if args.command == "build":
        return 0
    pool = list(workers(builds))
    try:
        for worker in pool:
            print(f"{worker.label}: search from {worker.hello['search']}")
        same = True
        if args.command in ("identity", "all"):
            print(f"\nidentity: {args.strong_games} strong + {args.sensible_games} sensible games")
            slugs = [slug for slug in args.slugs.split(",") if slug]
            same = identity(pool, args.strong_games, args.sensible_games, slugs)
            print(f"identity: {'every table the same' if same else 'SOME TABLE DIFFERS'}")
        if args.command in ("timing", "all"):
            timing(pool, args.rounds, "strong", args.games, TIMED_TABLES)
            sensible_tables = [tables for tables in TIMED_TABLES if tables[1] in SENSIBLE_TABLES]
            timing(pool, args.rounds, "sensible", 200, sensible_tables)
        return 0 if same else 1
    finally:
        for worker in pool:
            worker.close()


SENSIBLE_TABLES = ("normal", "4p", "3p", "3p-map-24", "normal-5p")
"""One table a game for the sensible policy's games/s."""


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
