"""The `pnp` command: parse options, call the library, turn errors into messages and exit codes.

Exit codes: 0 success, 1 content problems (validation failed), 2 usage or build errors,
3 an internal error (a bug in pnp: the message says so; ``PNP_DEBUG=1`` shows the traceback).
Every command that uses content first passes it through the static checks, so content that
would trip a later stage is reported, located, instead.
"""

from __future__ import annotations

import atexit
import contextlib
import difflib
import io
import json
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pnp.errors import ContentError, PnpError, Problem
from pnp.output import atomic_output
from pnp.paths import (
    content_size,
    default_content_root,
    default_output_root,
    discover_games,
    templates_root_for,
)

if TYPE_CHECKING:
    from pnp.content.loader import LoadedGame
    from pnp.export import ExportReport


class Context:
    def __init__(self, content: Path | None, verbosity: int = 1) -> None:
        self.verbosity = verbosity
        """0 with --quiet (errors and warnings only), 1 by default, 2 with --verbose."""
        self.use_content(content or default_content_root())

    def say(self, message: str, *, verbose: bool = False) -> None:
        """A progress line on stdout, unless --quiet (or, for `verbose` lines, unless
        --verbose)."""
        if self.verbosity >= (2 if verbose else 1):
            click.echo(message)

    def use_content(self, content: Path) -> None:
        """Read content from ``content``: a usage error (exit 2) when it is not a folder, so a
        mistyped path can never make CI check nothing and pass."""
        if not content.is_dir():
            raise click.UsageError(f"content folder {str(content)!r} does not exist")
        self.content_root = content
        self.templates_root = templates_root_for(content)

    def slugs(self, games: tuple[str, ...]) -> list[str]:
        """The games named, or every game of the content folder; finding none is an error."""
        found = list(games) or discover_games(self.content_root)
        if not found:
            raise click.UsageError(
                f"no games in content folder {str(self.content_root)!r} "
                "(expected one sub-folder of YAML files per game)"
            )
        return found

    def load(self, slug: str) -> LoadedGame:
        """The game's content, loaded but not checked (``list``, ``validate``)."""
        from pnp.content.loader import load_game

        return load_game(self.content_root, slug)

    def checked(self, slug: str) -> LoadedGame:
        """The game's content after the static checks: ContentError when they find errors."""
        from pnp.validate.runner import load_checked

        return load_checked(self.content_root, slug, self.templates_root)


class Failures:
    """Per-game errors of a command over several games: report each, go on, exit once."""

    def __init__(self) -> None:
        self.code = 0

    @contextlib.contextmanager
    def for_game(self, slug: str) -> Iterator[None]:
        try:
            yield
        except ContentError as error:
            for problem in error.problems:
                click.echo(str(problem), err=True)
            click.echo(f"{slug}: {error}", err=True)
            self.code = max(self.code, 1)
        except PnpError as error:
            click.echo(f"{slug}: error: {error}", err=True)
            self.code = 2

    def exit(self) -> None:
        if self.code:
            sys.exit(self.code)


def _fail(message: str, code: int = 2) -> None:
    click.echo(message, err=True)
    sys.exit(code)


def _report_content_error(error: ContentError) -> None:
    for problem in error.problems:
        click.echo(str(problem), err=True)
    _fail(str(error), 1)


INTERNAL_ERROR = 3
JSON_FORMAT_VERSION = 1
"""Version of ``pnp validate --format json``'s shape; it changes only when a key does."""


def github_annotation(problem: Problem) -> str:
    """A GitHub Actions workflow command that marks the problem on the file's line."""

    def escape(text: str, *, prop: bool = False) -> str:
        text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        return text.replace(":", "%3A").replace(",", "%2C") if prop else text

    where = problem.location
    fields = [f"file={escape(where.path, prop=True)}"]
    if where.line:
        fields.append(f"line={where.line}")
    if where.column:
        fields.append(f"col={where.column}")
    fields.append(f"title={escape(f'pnp {problem.game}'.strip(), prop=True)}")
    level = "warning" if problem.severity == "warning" else "error"
    return f"::{level} {','.join(fields)}::{escape(problem.message)}"


class Command(click.Group):
    """The command group, with a last line of defence: an exception nobody expected is a bug
    in pnp, reported in one line with its own exit code, never a traceback on a user's CI."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort, SystemExit):
            raise
        except BrokenPipeError:
            # The reader went away (`pnp list | head`): stop quietly, as a pipe's writer does,
            # with the rest of the output sent nowhere (Python's own recipe for SIGPIPE).
            with contextlib.suppress(OSError, ValueError, io.UnsupportedOperation):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(1)
        except Exception as error:
            if os.environ.get("PNP_DEBUG"):
                raise
            click.echo(
                f"internal error: {type(error).__name__}: {error} "
                "(a bug in pnp, not in your content: please report it with the content that "
                "caused it; PNP_DEBUG=1 shows the traceback)",
                err=True,
            )
            ctx.exit(INTERNAL_ERROR)


CONTENT_HELP = "Content tree to read (default: $PNP_CONTENT, else ./content)."


def _content_after_command(ctx: click.Context, _: click.Parameter, value: Path | None) -> None:
    if value is not None:
        ctx.ensure_object(Context).use_content(value)


def content_option(command: Any) -> Any:
    """``--content`` accepted after the subcommand as well (``pnp validate --content X``)."""
    return click.option(
        "--content",
        type=click.Path(path_type=Path, file_okay=False),
        expose_value=False,
        is_eager=True,
        callback=_content_after_command,
        help=CONTENT_HELP,
    )(command)


@click.group(cls=Command)
@click.option(
    "--content",
    type=click.Path(path_type=Path, file_okay=False),
    envvar="PNP_CONTENT",
    help=CONTENT_HELP,
)
@click.option("--quiet", "-q", is_flag=True, help="Print only errors and warnings.")
@click.option("--verbose", "-v", is_flag=True, help="Also print each file and slow step.")
@click.version_option(package_name="pnp")
@click.pass_context
def main(ctx: click.Context, content: Path | None, quiet: bool, verbose: bool) -> None:
    """Print-and-play kits, rule engines and rulebooks from one content source."""
    verbosity = 0 if quiet else 2 if verbose else 1
    _configure_logging(verbosity)
    ctx.obj = Context(content, verbosity)


def run() -> None:
    """The ``pnp`` command (and ``python -m pnp``): :func:`main`, then an exit that does not
    tear the interpreter down object by object.

    Freeing everything a command built (the model, jinja's and reportlab's modules: some
    66,000 objects after a PNG export) took 50-140 ms, a tenth of an export. The exit
    handlers (logging, temporary folders, worker pools, the glyph store) still run, and the
    output is flushed, as multiprocessing does for its own workers; while another thread is
    still running, the usual exit waits for it."""
    try:
        main(prog_name="pnp")
    except SystemExit as stop:
        code = stop.code
    else:
        code = 0
    if threading.active_count() > 1:
        sys.exit(code)
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # what sys.exit does with a message
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: the reader has gone
            stream.flush()
    os._exit(code or 0)


def _configure_logging(verbosity: int) -> None:
    """pnp's slow steps (the first run's font preparation) log to the 'pnp' logger: shown on
    stderr by default, hidden by --quiet, with debug detail under --verbose."""
    logger = logging.getLogger("pnp")
    logger.setLevel((logging.WARNING, logging.INFO, logging.DEBUG)[verbosity])
    if not any(isinstance(h, _EchoHandler) for h in logger.handlers):
        logger.addHandler(_EchoHandler())
    logger.propagate = False


class _EchoHandler(logging.Handler):
    """Log lines through click, to whatever stderr is at the time (tests swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        click.echo(self.format(record), err=True)


@main.command("list")
@content_option
@click.pass_obj
def list_command(obj: Context) -> None:
    """Show the games and the components of their kits, with counts."""
    failures = Failures()
    for slug in obj.slugs(()):
        with failures.for_game(slug):
            game = obj.load(slug)
            info = game.model.info
            click.echo(f"{slug}  {info.title}  ({info.players} players, ~{info.minutes} min)")
            for product in game.model.products:
                items = list(getattr(game.model, product.items, ()))
                count = sum(int(item.copies) for item in items)
                click.echo(
                    f"  {product.id:<18} {count:>4}  {product.title}"
                    f"  [{product.kind.value}, {product.size}]"
                )
    failures.exit()


@main.command()
@content_option
@click.argument("games", nargs=-1)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output root (default: output/); each kit goes to <root>/<game>/.",
)
@click.option("--paper", type=click.Choice(["a4", "letter"]), default="a4", show_default=True)
@click.option(
    "--bleed",
    "bleed_mm",
    type=click.FloatRange(0, 10),
    default=3.0,
    show_default=True,
    help="Bleed in mm around each card.",
)
@click.option("--crop-marks/--no-crop-marks", default=True, show_default=True)
@click.option(
    "--duplex/--no-duplex",
    default=True,
    show_default=True,
    help="Backs on the page after their fronts, mirrored for duplex.",
)
@click.option(
    "--flip",
    type=click.Choice(["long", "short"]),
    default="long",
    show_default=True,
    help="Edge the duplex printer flips on.",
)
@click.option(
    "--back-offset",
    default="0,0",
    show_default=True,
    metavar="X,Y",
    help="Shift every back by X,Y mm to correct a printer's duplex drift.",
)
@click.option(
    "--exports",
    is_flag=True,
    help="Also write every export (png, tts, gallery) into output/<game>/export/.",
)
@click.option(
    "--only",
    "only",
    multiple=True,
    metavar="PRODUCT",
    help="Build only this product (repeatable; 'rulebook' for both rulebook editions).",
)
@click.option(
    "--force", is_flag=True, help="Render every file again, even those the cache says are current."
)
@click.option(
    "--clean",
    is_flag=True,
    help="First remove everything pnp wrote in the kit's folder (files, exports, previews, "
    "reports), then build it afresh. Without it a build still removes the files it no longer "
    "makes.",
)
@click.option(
    "--watch",
    is_flag=True,
    help="Build, then rebuild whatever changes each time a content or template file is saved.",
)
@click.pass_obj
def build(
    obj: Context,
    games: tuple[str, ...],
    out: Path | None,
    paper: str,
    bleed_mm: float,
    crop_marks: bool,
    duplex: bool,
    flip: str,
    back_offset: str,
    exports: bool,
    only: tuple[str, ...],
    force: bool,
    clean: bool,
    watch: bool,
) -> None:
    """Build the kits of GAMES (default: every game) into output/<game>/.

    A kit whose content, templates, options and pnp are what its last build used is left as
    it is; otherwise only the products whose drawing changed are rendered again."""
    from pnp.layout.sheets import Flip
    from pnp.options import BuildOptions
    from pnp.output import kit_up_to_date

    try:
        offset_x, offset_y = (float(part) for part in back_offset.split(","))
    except ValueError:
        _fail(f"--back-offset: expected X,Y in mm like '0.5,-1', got {back_offset!r}")
    options = BuildOptions(
        paper=paper,
        bleed_mm=bleed_mm,
        crop_marks=crop_marks,
        duplex=duplex,
        flip=Flip(flip),
        back_offset_mm=(offset_x, offset_y),
    )
    slugs = obj.slugs(games)
    root = out or default_output_root()
    failures = Failures()

    def build_game(slug: str) -> None:
        with failures.for_game(slug):
            if clean:
                from pnp.output import clean_folder

                for name in clean_folder(root / slug, f"{slug}-"):
                    obj.say(f"  removed {name}", verbose=True)
            _build_one(
                obj, slug, root / slug, options, only=only, force=force or clean, exports=exports
            )

    if not (force or clean or only or exports):
        # Every kit up to date: said after a few hashes, without loading the PDF machinery
        # or forking a process a game.
        started = time.perf_counter()
        said = []
        for slug in slugs:
            if not kit_up_to_date(
                obj.content_root / slug, root / slug, obj.templates_root, options
            ):
                break
            said.append(
                f"{slug}: up to date -> {root / slug} ({time.perf_counter() - started:.2f} s)"
            )
            started = time.perf_counter()
        else:
            for line in said:
                obj.say(line)
            if watch:
                _watch(obj, slugs, root, options, only=only, exports=exports)
            return

    # Imported before the games fork, so every process starts with reportlab and the
    # layout machinery loaded instead of importing them again.
    import pnp.rulebook.build  # noqa: F401

    def cost(slug: str) -> float:
        return content_size(obj.content_root, slug)

    for code in _side_by_side(build_game, slugs, failures, cost):
        failures.code = max(failures.code, code)
    if watch:
        _watch(obj, slugs, root, options, only=only, exports=exports)
    failures.exit()


def _side_by_side(
    run: Callable[[str], None],
    slugs: list[str],
    failures: Failures,
    cost: Callable[[str], float] | None = None,
) -> list[int]:
    """Run ``run`` for every game, several games at once on every core (one forked process a
    game), printing each game's output in the order of ``slugs``; the failure codes of the
    games run elsewhere (this process's ``failures`` records its own). Games start dearest
    first by ``cost`` (so the last one to start is short and the cores finish together)."""
    from pnp.cores import default_workers
    from pnp.engines.batch import run_seeds

    if len(slugs) < 2 or default_workers() < 2:
        for slug in slugs:
            run(slug)
        return []

    order = list(range(len(slugs)))
    if cost is not None:
        order.sort(key=lambda index: -cost(slugs[index]))

    def captured(index: int) -> tuple[str, str, int]:
        out, err = io.StringIO(), io.StringIO()
        failures.code = 0
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            run(slugs[index])
        return out.getvalue(), err.getvalue(), failures.code

    results = dict(zip(order, run_seeds(captured, order, min_per_worker=1), strict=True))
    codes = []
    for index in range(len(slugs)):
        out, err, code = results[index]
        sys.stdout.write(out)
        sys.stderr.write(err)
        codes.append(code)
    sys.stdout.flush()
    return codes


def _build_one(
    obj: Context,
    slug: str,
    out_dir: Path,
    options: Any,
    *,
    only: tuple[str, ...],
    force: bool,
    exports: bool,
) -> None:
    from pnp.output import kit_up_to_date

    started = time.perf_counter()
    if (
        not force
        and not only
        and not exports
        and kit_up_to_date(obj.content_root / slug, out_dir, obj.templates_root, options)
    ):
        obj.say(f"{slug}: up to date -> {out_dir} ({time.perf_counter() - started:.2f} s)")
        return
    from pnp.rulebook.build import build_game

    game = obj.checked(slug)
    if force:
        from pnp.output import MANIFEST

        (out_dir / MANIFEST).unlink(missing_ok=True)
    report = build_game(game, out_dir, obj.templates_root, options, only=only or None)
    elapsed = time.perf_counter() - started
    pages = sum(f.pages for f in report.files)
    obj.say(
        f"{slug}: {len(report.files)} files, {pages} pages, {len(report.rendered)} rendered "
        f"-> {out_dir} ({elapsed:.2f} s)"
    )
    for name in report.rendered:
        obj.say(f"  wrote {name}", verbose=True)
    for name in report.unchanged:
        obj.say(f"  kept {name} (unchanged)", verbose=True)
    for name in report.removed:
        obj.say(f"  removed {name} (no longer part of the kit)")
    for warning in report.warnings:
        click.echo(f"  warning: {warning}", err=True)
    if exports:
        from pnp.export import FORMATS

        _export(obj, game, FORMATS, out_dir, "default", None)


WATCH_INTERVAL_SECONDS = 0.3
"""How often --watch looks at the files. A content tree is tens of files, so polling their
sizes and times costs nothing and needs no file-watcher library or OS support."""


def _snapshot(folders: list[Path]) -> dict[Path, tuple[int, int]]:
    found: dict[Path, tuple[int, int]] = {}
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in folder.rglob("*"):
            if path.is_file() and not path.name.startswith("."):
                stat = path.stat()
                found[path] = (stat.st_size, stat.st_mtime_ns)
    return found


def _watch(
    obj: Context,
    slugs: list[str],
    root: Path,
    options: Any,
    *,
    only: tuple[str, ...],
    exports: bool,
    rounds: int | None = None,
) -> None:
    """Rebuild a game each time one of its content files, or a template, changes; until
    interrupted (or for `rounds` polls, for tests)."""
    folders = {slug: obj.content_root / slug for slug in slugs}
    seen = {slug: _snapshot([folder, obj.templates_root]) for slug, folder in folders.items()}
    obj.say(f"watching {', '.join(slugs)} (Ctrl-C to stop)")
    polls = 0
    try:
        while rounds is None or polls < rounds:
            time.sleep(WATCH_INTERVAL_SECONDS)
            polls += 1
            for slug, folder in folders.items():
                now = _snapshot([folder, obj.templates_root])
                if now == seen[slug]:
                    continue
                seen[slug] = now
                try:
                    _build_one(
                        obj, slug, root / slug, options, only=only, force=False, exports=exports
                    )
                except ContentError as error:
                    for problem in error.problems:
                        click.echo(str(problem), err=True)
                except PnpError as error:
                    click.echo(f"{slug}: error: {error}", err=True)
    except KeyboardInterrupt:
        obj.say("stopped watching")


def _export(
    obj: Context,
    game: LoadedGame | str,
    formats: tuple[str, ...],
    game_dir: Path,
    profile: str,
    base_url: str | None,
) -> None:
    """Every export of `formats` into `game_dir/export/`, beside the game's kit. `game` is the
    loaded game, or its slug: then it is loaded (and checked) only if an export is not up to
    date with the content."""
    from pnp.export import export_dir, export_up_to_date, record_export

    slug = game if isinstance(game, str) else game.slug
    content_folder = obj.content_root / slug
    for fmt in formats:
        started = time.perf_counter()
        folder = export_dir(game_dir, fmt, profile)
        options = ("export", fmt, profile, base_url)
        warnings = export_up_to_date(content_folder, folder, obj.templates_root, options)
        if warnings is not None:
            click.echo(
                f"{slug}: export {fmt}: up to date -> {folder} "
                f"({time.perf_counter() - started:.2f} s)"
            )
        else:
            game, report = _exported(obj, game, fmt, game_dir, profile, base_url)
            record_export(report, content_folder, obj.templates_root, options)
            size = sum(path.stat().st_size for path in report.files if path.is_file())
            click.echo(
                f"{slug}: export {fmt}: {len(report.files)} files, {size / 1e6:.1f} MB "
                f"-> {report.out_dir} ({time.perf_counter() - started:.2f} s)"
            )
            warnings = report.warnings
        for warning in warnings:
            click.echo(f"  warning: {warning}", err=True)


def _exported(
    obj: Context,
    game: LoadedGame | str,
    fmt: str,
    game_dir: Path,
    profile: str,
    base_url: str | None,
) -> tuple[LoadedGame, ExportReport]:
    """The game and its export in ``fmt``. A game given by its slug is loaded here and its
    static checks run while the export makes its images (before it writes anything): errors
    they find stop the export with nothing written, as checking first did."""
    from pnp.export import export_game

    if not isinstance(game, str):
        report = export_game(
            game, fmt, game_dir, obj.templates_root, profile=profile, base_url=base_url
        )
        return game, report
    from pnp.validate.runner import require_clean
    from pnp.validate.verdicts import verdict_key

    key = verdict_key(obj.content_root / game, obj.templates_root)
    loaded = obj.load(game)

    def check() -> None:
        require_clean(loaded, obj.templates_root, key=key)

    try:
        report = export_game(
            loaded,
            fmt,
            game_dir,
            obj.templates_root,
            profile=profile,
            base_url=base_url,
            before_writing=check,
        )
    except ContentError:
        raise
    except PnpError:
        # Content the checks refuse can stop the export before they run (a template naming
        # a missing field): then the checks say what is wrong, every error of it.
        check()
        raise
    return loaded, report


@main.command()
@content_option
@click.argument("games", nargs=-1, required=True)
@click.option(
    "--format",
    "formats",
    type=click.Choice(["png", "tts", "gallery"]),
    multiple=True,
    required=True,
    help="What to export (repeat for several): png for print shops, tts for Tabletop "
    "Simulator, gallery for review in a browser.",
)
@click.option(
    "--profile",
    type=click.Choice(["default", "makeplayingcards", "thegamecrafter"]),
    default="default",
    show_default=True,
    help="Print-shop profile for png.",
)
@click.option(
    "--base-url",
    default=None,
    help="Where the tts images will be hosted (default: paths relative to the saved object; "
    "see HOW-TO-LOAD.txt).",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output root (default: output/); files go to <root>/<game>/export/<format>/.",
)
@click.pass_obj
def export(
    obj: Context,
    games: tuple[str, ...],
    formats: tuple[str, ...],
    profile: str,
    base_url: str | None,
    out: Path | None,
) -> None:
    """Export GAMES as per-card PNGs, Tabletop Simulator sheets or a gallery."""
    from pnp.export import PROFILES

    if profile not in PROFILES:
        _fail(
            f"--profile: unknown shop profile {profile!r} (expected one of {', '.join(PROFILES)})"
        )
    failures = Failures()
    for slug in games:
        with failures.for_game(slug):
            root = out or default_output_root()
            _export(obj, slug, formats, root / slug, profile, base_url)
    failures.exit()


@main.command()
@content_option
@click.argument("games", nargs=-1)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json", "github"]),
    default="text",
    show_default=True,
    help="text for people, json for tools (see README), github for workflow annotations.",
)
@click.option(
    "--games",
    "simulated_games",
    type=click.IntRange(min=1),
    default=None,
    help="Simulated games per configuration (default: each game's own).",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--static-only", is_flag=True, help="Skip the simulated checks.")
@click.option(
    "--balance",
    is_flag=True,
    help="Also check the content's balance: promises (the strong player at scale: slow).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Processes for simulated play (default: every core, or $PNP_WORKERS).",
)
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="local",
    default=None,
    metavar="ADDRESS",
    help="Play the balance run on a Ray cluster (no address: a local Ray).",
)
@click.pass_obj
def validate(
    obj: Context,
    games: tuple[str, ...],
    output_format: str,
    simulated_games: int | None,
    seed: int,
    static_only: bool,
    balance: bool,
    workers: int | None,
    ray_address: str | None,
) -> None:
    """Check content against each game's rules engine; exit 1 on any problem."""
    from pnp.validate.runner import validate_games

    try:
        result = validate_games(
            obj.content_root,
            obj.slugs(games),
            obj.templates_root,
            simulated_games=simulated_games,
            seed=seed,
            simulate=not static_only,
            balance=balance,
            workers=workers,
            use_ray=ray_address is not None,
            ray_address=None if ray_address in (None, "local") else ray_address,
        )
    except PnpError as error:
        _fail(f"error: {error}")
    errors = [p for p in result.problems if p.severity == "error"]
    if output_format == "json":
        payload: dict[str, Any] = {
            "format_version": JSON_FORMAT_VERSION,
            "ok": not errors,
            "problems": [
                {
                    "path": p.location.path,
                    "line": p.location.line,
                    "column": p.location.column,
                    "game": p.game,
                    "severity": p.severity,
                    "message": p.message,
                }
                for p in result.problems
            ],
            "reports": result.reports,
        }
        click.echo(json.dumps(payload, ensure_ascii=False, indent=2))
    elif output_format == "github":
        for problem in result.problems:
            click.echo(github_annotation(problem))
    else:
        for problem in result.problems:
            prefix = "warning: " if problem.severity == "warning" else ""
            click.echo(f"{prefix}{problem}")
        count = len(errors)
        if obj.verbosity >= 1:  # --quiet: the problems alone
            for slug, lines in result.summaries.items():
                for line in lines:
                    click.echo(f"{slug}: {line}", err=True)
            click.echo(
                f"{count} problem{'s' if count != 1 else ''}."
                if count
                else f"ok: {len(result.summaries)} game(s) valid.",
                err=True,
            )
    sys.exit(1 if errors else 0)


@main.command()
@content_option
@click.argument("game")
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output root (default: output/); the rulebook goes to <root>/<game>/.",
)
@click.pass_obj
def rulebook(obj: Context, game: str, out: Path | None) -> None:
    """Build GAME's rulebook alone: an A5 reading edition and an A4 saddle-stitch booklet."""
    from pnp.rulebook.build import build_rulebook

    try:
        loaded = obj.checked(game)
        files = build_rulebook(loaded, (out or default_output_root()) / game, obj.templates_root)
    except ContentError as error:
        _report_content_error(error)
    except PnpError as error:
        _fail(f"error: {error}")
    click.echo(
        f"{game}: rulebook {files.pages} pages -> {files.reading}; booklet "
        f"{files.sheets} sheets (duplex, short-edge flip) -> {files.booklet}"
    )


@main.command()
@content_option
@click.argument("game")
@click.option("--players", type=int, default=None, help="Players (default: every count).")
@click.option(
    "--games",
    "games_count",
    type=click.IntRange(min=1),
    default=None,
    help="Games (default: 1000; with --report, the content's balance.games per table).",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--policy",
    default=None,
    help="random, strong (strong:N: N playouts a decision; strong:N:D: playouts of D "
    "decisions at most), or one of the game's own "
    "(default: sensible; with --report, the policy the content's balance promises are made for).",
)
@click.option(
    "--report",
    is_flag=True,
    help="Play every table, print the balance tables and write an HTML report with charts.",
)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output root (default: output/); the report goes to <root>/<game>/report/.",
)
@click.option(
    "--duel",
    is_flag=True,
    help="Measure the strong player against the sensible policy, paired on shared seeds "
    "(with --report: added to the report).",
)
@click.option(
    "--duel-tables",
    default="",
    metavar="NAMES",
    help="With --duel: only these tables, comma-separated (default: every table).",
)
@click.option(
    "--duel-games",
    type=click.IntRange(min=1),
    default=None,
    help="With --duel: games per table (default: --games, else the content's balance.games).",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Processes (default: every core, or $PNP_WORKERS).",
)
@click.option(
    "--ray",
    "ray_address",
    is_flag=False,
    flag_value="local",
    default=None,
    metavar="ADDRESS",
    help="With --report: play on a Ray cluster (no address: a local Ray).",
)
@click.pass_obj
def simulate(
    obj: Context,
    game: str,
    players: int | None,
    games_count: int | None,
    seed: int,
    policy: str | None,
    report: bool,
    out: Path | None,
    duel: bool,
    duel_tables: str,
    duel_games: int | None,
    workers: int | None,
    ray_address: str | None,
) -> None:
    """Play seeded games with the reference engine and print statistics."""
    from pnp.model.common import Balance
    from pnp.validate.simulation import duel_game, report_game, simulate_game

    tables = [name.strip() for name in duel_tables.split(",") if name.strip()]

    try:
        loaded = obj.checked(game)
        lines: Iterable[str]
        if report:
            lines = report_game(
                loaded,
                (out or default_output_root()) / game / "report",
                games=games_count,
                seed=seed,
                policy=policy,
                duel=duel,
                duel_tables=tables,
                duel_games=duel_games,
                workers=workers,
                use_ray=ray_address is not None,
                ray_address=None if ray_address in (None, "local") else ray_address,
            )
        elif duel:
            balance = getattr(loaded.model, "balance", None)
            count = (
                duel_games
                or games_count
                or (balance.games if isinstance(balance, Balance) else 100)
            )
            lines = (
                f"strong vs sensible {one}"
                for one in duel_game(loaded, games=count, seed=seed, tables=tables, workers=workers)
            )
        else:
            lines = simulate_game(
                loaded,
                players=players,
                games=games_count or 1000,
                seed=seed,
                policy=policy or "sensible",
            )
        for line in lines:
            click.echo(line)
    except ContentError as error:
        _report_content_error(error)
    except PnpError as error:
        _fail(f"error: {error}")


@main.command()
@content_option
@click.argument("game")
@click.argument("item_id", metavar="ID")
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output root (default: output/); images go to <root>/<game>/preview/.",
)
@click.option(
    "--dpi", type=click.IntRange(36, 600), default=150, show_default=True, help="Resolution."
)
@click.option("--bleed", "bleed_mm", type=click.FloatRange(0, 10), default=0.0, show_default=True)
@click.pass_obj
def preview(
    obj: Context, game: str, item_id: str, out: Path | None, dpi: int, bleed_mm: float
) -> None:
    """Write one card or component of GAME as PNG (front, and back if it has one).

    ID is an item id (a card, a board…) or PRODUCT:ID when several products share it."""
    from pnp.export.faces import collect, png_bytes

    try:
        loaded = obj.checked(game)
        product_id, _, wanted = item_id.rpartition(":")
        products = [
            p
            for p in loaded.model.products
            if (not product_id or p.id == product_id)
            and any(str(i.id) == wanted for i in getattr(loaded.model, p.items, ()))
        ]
        if not products:
            ids = sorted(
                {
                    str(i.id)
                    for p in loaded.model.products
                    for i in getattr(loaded.model, p.items, ())
                }
            )
            near = difflib.get_close_matches(wanted, ids, n=3)
            hint = f" (did you mean {', '.join(map(repr, near))}?)" if near else ""
            _fail(f"error: game {game!r} has no item {item_id!r}{hint}")
        if len(products) > 1:
            names = ", ".join(f"{p.id}:{wanted}" for p in products)
            _fail(f"error: {wanted!r} is in several products; name one of {names}")
        [product] = products
        laid_out, rasteriser = collect(
            loaded, obj.templates_root, bleed_mm=bleed_mm, products=[product.id]
        )
        item = next(i for i in laid_out[0].items if i.id == wanted)
        faces = [item.front] + ([item.back] if item.back is not None else [])
        folder = (out or default_output_root()) / game / "preview"
        for side, image in zip(("front", "back"), rasteriser.render(faces, dpi), strict=False):
            path = folder / f"{product.id}-{wanted}-{side}.png"
            with atomic_output(path) as temporary:
                temporary.write_bytes(png_bytes(image, dpi))
            obj.say(f"{path} ({image.width}x{image.height} px)")
        for warning in sorted(rasteriser.warnings):
            click.echo(f"  warning: {warning}", err=True)
    except ContentError as error:
        _report_content_error(error)
    except PnpError as error:
        _fail(f"error: {error}")


@main.command()
@content_option
@click.argument("slug")
@click.option("--title", default=None, help="The game's title (default: the slug).")
@click.pass_obj
def new(obj: Context, slug: str, title: str | None) -> None:
    """Start a new game: content and templates that build a kit (cards, tokens, a board and a
    rulebook) with no Python. A rules engine can be added later as a package of its own."""
    from pnp.scaffold import scaffold_game

    try:
        written = scaffold_game(obj.content_root, obj.templates_root, slug, title or slug)
    except PnpError as error:
        _fail(f"error: {error}")
    for path in written:
        obj.say(f"wrote {path}")
    obj.say(f"next: pnp build {slug}  (edit content/{slug}/*.yaml and templates/{slug}/*.yaml)")


@main.command()
@content_option
@click.argument("games", nargs=-1)
@click.option(
    "--out",
    type=click.Path(path_type=Path, file_okay=False),
    help="Output root (default: output/); the schemas go to <root>/schemas/<game>.schema.json.",
)
@click.pass_obj
def schema(obj: Context, games: tuple[str, ...], out: Path | None) -> None:
    """Write the JSON Schema of GAMES' content files (default: every game), for an editor
    that checks YAML as you type: unknown keys, wrong types and values, field descriptions."""
    from pnp.content.jsonschema import write_schemas

    try:
        written = write_schemas((out or default_output_root()) / "schemas", games or None)
    except PnpError as error:
        _fail(f"error: {error}")
    for path in written:
        obj.say(f"wrote {path}")
