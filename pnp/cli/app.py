"""The `pnp` command group and what every command shares: the context, errors to exit codes.

Exit codes: 0 success, 1 content problems (validation failed), 2 usage or build errors,
3 an internal error (a bug in pnp: the message says so; ``PNP_DEBUG=1`` shows the traceback).
Every command that uses content first passes it through the static checks, so content that
would trip a later stage is reported, located, instead.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import io
import logging
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from pnp.errors import ContentError, PnpError
from pnp.paths import default_content_root, discover_games, templates_root_for

if TYPE_CHECKING:
    from pnp.content.loader import LoadedGame
    from pnp.content.sources import Snapshot


class Context:
    def __init__(self, content: Path | None, verbosity: int = 1) -> None:
        self.verbosity = verbosity
        """0 with --quiet (errors and warnings only), 1 by default, 2 with --verbose."""
        self.explicit_content = content is not None
        """Whether --content or $PNP_CONTENT named the content tree."""
        self.use_content(content or default_content_root(), explicit=content is not None)

    def say(self, message: str, *, verbose: bool = False) -> None:
        """A progress line on stdout, unless --quiet (or, for `verbose` lines, unless
        --verbose)."""
        if self.verbosity >= (2 if verbose else 1):
            click.echo(message)

    def use_content(self, content: Path, *, explicit: bool = True) -> None:
        """Read content from ``content`` (checked when a command reads it: see
        :meth:`require_content`; ``pnp new`` may create it)."""
        self.content_root = content
        self.templates_root = templates_root_for(content)
        self.explicit_content = self.explicit_content or explicit

    def require_content(self) -> None:
        """A usage error (exit 2) when the content tree is not a folder, so a mistyped path can
        never make CI check nothing and pass."""
        if not self.content_root.is_dir():
            raise click.UsageError(
                f"content folder {str(self.content_root)!r} does not exist (start a game in "
                "this folder with 'pnp new SLUG', or name a content tree with --content)"
            )

    def slugs(self, games: tuple[str, ...]) -> list[str]:
        """The games named, or every game of the content folder; finding none is an error."""
        self.require_content()
        found = list(games) or discover_games(self.content_root)
        if not found:
            raise click.UsageError(
                f"no games in content folder {str(self.content_root)!r} "
                "(expected one sub-folder of YAML files per game)"
            )
        return found

    def snapshot(self, slug: str) -> Snapshot:
        """The bytes of the game's content folder and of the templates, read now: what a
        command's up-to-date check, its loading and its outputs all go by."""
        from pnp.content.sources import take_snapshot

        return take_snapshot(
            self.content_root / slug, self.templates_root, label=self.display_folder(slug)
        )

    def display_folder(self, slug: str) -> str:
        from pnp.content.sources import display_root

        return f"{display_root(self.content_root)}/{slug}"

    def load(self, slug: str, sources: Snapshot | None = None) -> LoadedGame:
        """The game's content, loaded but not checked (``list``, ``validate``)."""
        from pnp.content.loader import load_game

        self.require_content()
        return load_game(
            self.content_root, slug, templates_root=self.templates_root, sources=sources
        )

    def checked(
        self, slug: str, sources: Snapshot | None = None, *, printer_margin_mm: float = 5.0
    ) -> LoadedGame:
        """The game's content after the static checks (its sheets laid out within the
        printer's dead margin): ContentError when they find errors."""
        from pnp.units import mm
        from pnp.validate.runner import require_clean

        game = self.load(slug, sources)
        require_clean(game, self.templates_root, margin=mm(printer_margin_mm))
        return game


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
        except OSError as error:
            if not is_machine_fault(error):
                raise
            click.echo(f"{slug}: error: {machine_fault(error)}", err=True)
            self.code = 2

    def exit(self) -> None:
        if self.code:
            sys.exit(self.code)


def fail(message: str, code: int = 2) -> None:
    click.echo(message, err=True)
    sys.exit(code)


def report_content_error(error: ContentError) -> None:
    for problem in error.problems:
        click.echo(str(problem), err=True)
    fail(str(error), 1)


INTERNAL_ERROR = 3
MACHINE_FAULTS = frozenset(
    {
        errno.ENOSPC,
        errno.EROFS,
        errno.EACCES,
        errno.EPERM,
        errno.EDQUOT,
        errno.ENOTDIR,
        errno.EISDIR,
        errno.EMFILE,
        errno.EIO,
    }
)
"""What a disk, a folder's permissions or the system refused: not content, not a bug."""


def is_machine_fault(error: OSError) -> bool:
    return error.errno in MACHINE_FAULTS


def machine_fault(error: OSError) -> str:
    """One line for a fault of the machine: what could not be done, where, and what to do."""
    target = f" {str(error.filename)!r}" if error.filename else ""
    return (
        f"cannot use{target}: {error.strerror or error} (a fault of this machine, not of the "
        "content: check that the folder exists, is writable and has room)"
    )


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
            if isinstance(error, OSError) and is_machine_fault(error):
                click.echo(f"error: {machine_fault(error)}", err=True)
                ctx.exit(2)
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


_Decorated = TypeVar("_Decorated", bound=Callable[..., Any])


def printer_margin_option(purpose: str) -> Callable[[_Decorated], _Decorated]:
    """``--printer-margin MM``, which build lays the sheets out in and validate checks them by;
    ``purpose`` ends the help with what this command does with it."""
    return click.option(
        "--printer-margin",
        "printer_margin_mm",
        type=click.FloatRange(0, 20),
        default=5.0,
        show_default=True,
        help=f"The outer strip in mm the printer cannot print: {purpose}",
    )


COMPILED_HELP = (
    "Play with the engines, rules and policies compiled by mypyc for this run: the same games "
    "for about 0.5-0.7x the CPU, after a build of a minute or two (needs the compiled extra, a "
    "C compiler and Python's headers)."
)


def compiled_option(worth: str) -> Callable[[_Decorated], _Decorated]:
    """``--compiled/--plain``: the command played by engines compiled for the run, or not;
    by default compiled when ``worth`` (the run that earns the build back) plays enough strong
    games."""
    from pnp.validate.compiled import AUTO_STRONG_GAMES

    return click.option(
        "--compiled/--plain",
        default=None,
        help=f"{COMPILED_HELP} Default: compiled when {worth} may play {AUTO_STRONG_GAMES} "
        "strong games or more and this machine can build, else plain Python.",
    )


def play_compiled(
    obj: Context,
    slugs: list[str],
    asked: bool | None,
    strong_games: Callable[[], int] = lambda: 0,
) -> None:
    """Compiled play, as a user asked (``asked``: --compiled, --plain, or neither): build and
    check the compiled copy for ``slugs``, run the command again with it and exit with that
    run's code. Neither flag compiles a run of :data:`AUTO_STRONG_GAMES` ``strong_games`` or
    more, and plays plain Python, saying why, where the copy cannot be built or checked. In
    the run with the copy: check that it is the copy, and return."""
    from pnp.validate.compiled import (
        AUTO_STRONG_GAMES,
        COPY_ENVIRONMENT,
        CompileError,
        require_compiled_copy,
        run_compiled,
    )

    def say(line: str) -> None:
        if obj.verbosity >= 1:
            click.echo(line, err=True)

    try:
        if os.environ.get(COPY_ENVIRONMENT):
            require_compiled_copy()
            return
    except CompileError as error:
        fail(f"error: {error}")
    if asked is False:
        return
    if asked is None:
        games = strong_games()
        if games < AUTO_STRONG_GAMES:
            return
        say(f"up to {games} strong games: compiled play (--plain plays without it)")
    try:
        code = run_compiled(sys.argv[1:], obj.content_root, slugs, say)
    except CompileError as error:
        if asked:
            fail(f"error: {error} (--plain plays without compiling)")
        say(f"playing plain Python: {error}")
        return
    sys.exit(code)


@click.group(cls=Command)
@click.option(
    "--content",
    type=click.Path(path_type=Path, file_okay=False),
    envvar="PNP_CONTENT",
    help=CONTENT_HELP,
)
@click.option("--quiet", "-q", is_flag=True, help="Print only errors and warnings.")
@click.option("--verbose", "-v", is_flag=True, help="Also print each file and slow step.")
@click.version_option(package_name="pnp-kit")
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
