"""`pnp validate`: every check, as text, JSON or GitHub annotations."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

import click

from pnp.cli.app import (
    Context,
    compiled_option,
    content_option,
    fail,
    main,
    play_compiled,
    printer_margin_option,
)
from pnp.cli.progress import progress_bar
from pnp.errors import PnpError, Problem

if TYPE_CHECKING:
    from contextlib import AbstractContextManager


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
@printer_margin_option(
    "the preflight checks the sheets as pnp build --printer-margin lays them out."
)
@click.option(
    "--balance",
    is_flag=True,
    help="Also play the balance run: every promise of balance: judged on up to its games a "
    "table, each table stopping once its promises are decided (a progress bar on stderr "
    "while games are played, when it is a terminal; not with -q).",
)
@click.option(
    "--policy",
    default=None,
    metavar="POLICY",
    help="With --balance: judge the promises with this player instead of the one they name "
    "(strong: the search player; strong:N for N playouts a decision).",
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
@compiled_option("the balance run")
@click.pass_obj
def validate(
    obj: Context,
    games: tuple[str, ...],
    output_format: str,
    simulated_games: int | None,
    seed: int,
    static_only: bool,
    printer_margin_mm: float,
    balance: bool,
    policy: str | None,
    workers: int | None,
    ray_address: str | None,
    compiled: bool | None,
) -> None:
    """Check content against each game's rules engine; exit 1 on any problem."""
    from pnp.validate.runner import validate_games

    if policy is not None and not balance:
        fail("error: --policy names the player of the balance run: add --balance", code=2)
    if compiled:
        if static_only:
            fail("error: --compiled speeds up play, which --static-only skips", code=2)
        if ray_address is not None:
            fail("error: --compiled plays on this machine's cores, not on --ray's", code=2)
    slugs = obj.slugs(games)
    if not static_only and ray_address is None:
        play_compiled(obj, slugs, compiled, lambda: _strong_games(obj, slugs, balance, policy))

    def playing(slug: str) -> AbstractContextManager[None]:
        # A balance run's batches as a bar on a terminal: the strong run of five games takes
        # most of an hour.
        quiet = not balance or obj.verbosity < 1
        return progress_bar(f"{slug}: playing", sys.stderr, quiet=quiet)

    try:
        result = validate_games(
            obj.content_root,
            slugs,
            obj.templates_root,
            simulated_games=simulated_games,
            seed=seed,
            simulate=not static_only,
            balance=balance,
            balance_policy=policy,
            workers=workers,
            use_ray=ray_address is not None,
            ray_address=None if ray_address in (None, "local") else ray_address,
            printer_margin_mm=printer_margin_mm,
            playing=playing,
        )
    except PnpError as error:
        fail(f"error: {error}")
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


def _strong_games(obj: Context, slugs: list[str], balance: bool, policy: str | None) -> int:
    """The strong player's games the balance run may play, over the games whose content
    passes the static checks (the run tells the others' mistakes, with no build first)."""
    from pnp.registry import find_game
    from pnp.validate.play import strong_games_at_most

    if not balance:
        return 0
    total = 0
    for slug in slugs:
        plugin = find_game(slug)
        if plugin is None:
            continue
        try:
            games = strong_games_at_most(plugin, obj.load(slug).model, policy, None)
            if games:
                obj.checked(slug)
        except PnpError:
            continue  # a mistake in the content, or an unknown policy: the run reports it
        total += games
    return total
