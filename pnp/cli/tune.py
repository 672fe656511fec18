"""`pnp tune`: the smallest change of the tunable numbers that keeps every balance promise."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import click

from pnp.cli.app import (
    COMPILED_HELP,
    Context,
    content_option,
    fail,
    main,
    play_compiled,
    report_content_error,
)
from pnp.errors import ContentError, PnpError

if TYPE_CHECKING:
    from pnp.content.loader import LoadedGame
    from pnp.engines.stats import Rate
    from pnp.tune.search import Budget, Confirmation, Judged, Proposal

BAR_WIDTH = 30


class TuneBar:
    """``game: tuning [####------] 40/300 s, 12 candidates`` on a terminal's stderr."""

    def __init__(self, label: str, stream: TextIO) -> None:
        self.label = label
        self.stream = stream
        self.width = 0
        self.drawn_at = 0.0

    def __call__(self, budget: Budget, judged: Judged) -> None:
        now = time.monotonic()
        if now - self.drawn_at < 0.1:
            return
        self.drawn_at = now
        filled = min(BAR_WIDTH, int(BAR_WIDTH * budget.spent / max(budget.seconds, 1e-9)))
        line = (
            f"{self.label} [{'#' * filled}{'-' * (BAR_WIDTH - filled)}] "
            f"{budget.spent:.0f}/{budget.seconds:.0f} s, {budget.tried} candidates"
        )
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()
        self.width = len(line)

    def clear(self) -> None:
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


@main.command()
@content_option
@click.argument("game")
@click.option(
    "--budget",
    type=click.FloatRange(min=1),
    default=300,
    show_default=True,
    help="Seconds the search may take (a confirmation already started finishes).",
)
@click.option(
    "--games",
    "games_count",
    type=click.IntRange(min=4),
    default=100,
    show_default=True,
    help="Games a table each candidate plays (the same seeds for every candidate).",
)
@click.option(
    "--tables",
    default="",
    metavar="NAMES",
    help="Only these tables, comma-separated (default: every table).",
)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option(
    "--policy",
    default=None,
    metavar="POLICY",
    help="The player the search judges candidates with (default: the one the promises name).",
)
@click.option(
    "--confirm",
    "confirm_policy",
    default="strong",
    show_default=True,
    metavar="POLICY",
    help="The player that judges the final proposal and today's content when budget is left "
    "('none': no confirmation).",
)
@click.option(
    "--confirm-games",
    type=click.IntRange(min=1),
    default=20,
    show_default=True,
    help="Games a table of the confirmation.",
)
@click.option(
    "--warnings",
    "include_warnings",
    is_flag=True,
    help="Also bring back figures outside their band by the win rate alone (what validate "
    "warns about), not only those outside beyond doubt.",
)
@click.option(
    "--candidates",
    type=click.IntRange(min=1),
    default=None,
    help="Most candidates to judge (default: as many as --budget allows).",
)
@click.option("--write", is_flag=True, help="Apply the proposal to the content files.")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Processes (default: every core, or $PNP_WORKERS).",
)
@click.option(
    "--compiled",
    is_flag=True,
    # Never by default: the search spends a budget of seconds, which the build would take.
    help=f"{COMPILED_HELP} Worth it for a search of more than a few minutes.",
)
@click.pass_obj
def tune(
    obj: Context,
    game: str,
    budget: float,
    games_count: int,
    tables: str,
    seed: int,
    policy: str | None,
    confirm_policy: str,
    confirm_games: int,
    include_warnings: bool,
    candidates: int | None,
    write: bool,
    workers: int | None,
    compiled: bool,
) -> None:
    """Search the numbers GAME's tuning.yaml marks tunable for the smallest change (fewest
    numbers, then smallest steps) that brings every broken balance promise inside its band.
    Prints the change as a unified diff of the content files, with each promise's win rate
    before and after; --write applies it. Exit 0 when every promise is kept, 1 when the
    budget ran out first or the content has mistakes, 2 on a usage error."""
    chosen = [name.strip() for name in tables.split(",") if name.strip()]
    if compiled:
        play_compiled(obj, obj.slugs((game,)), asked=True)
    try:
        # Loaded unchecked first, so a mistyped option is told before the static checks run.
        loaded = obj.load(game)
        code = _tune(
            obj, loaded, budget, games_count, chosen, seed, policy, confirm_policy,
            confirm_games, include_warnings, candidates, write, workers,
        )  # fmt: skip
    except ContentError as error:
        report_content_error(error)
    except PnpError as error:
        fail(f"error: {error}")
    sys.exit(code)


def _tune(
    obj: Context,
    loaded: LoadedGame,
    seconds: float,
    games: int,
    tables: Sequence[str],
    seed: int,
    policy: str | None,
    confirm_policy: str,
    confirm_games: int,
    include_warnings: bool,
    candidates: int | None,
    write: bool,
    workers: int | None,
) -> int:
    from pnp.registry import find_game
    from pnp.tune.search import Budget, Judge, confirm, prepare, search, tuning_of
    from pnp.validate.play import game_tables, make_policy
    from pnp.validate.runner import require_clean

    plugin = find_game(loaded.slug)
    if plugin is None:
        raise PnpError(f"{loaded.display_folder}: a data-only game has no engine to play")
    _, balance = tuning_of(loaded)
    known = [table.name for table in game_tables(plugin, loaded.model)]
    unknown = [name for name in tables if name not in known]
    if unknown:
        raise click.UsageError(f"--tables: no table {unknown[0]!r} (tables: {', '.join(known)})")
    proposer = policy or balance.policy
    for name in (proposer, *([confirm_policy] if confirm_policy != "none" else [])):
        make_policy(plugin, name)  # an unknown policy is a usage error before any game
    require_clean(loaded, obj.templates_root)
    numbers, entries, root = prepare(loaded)
    judge = Judge(
        loaded, plugin, balance, policy=proposer, games=games, seed=seed, tables=tables,
        workers=workers, warnings=include_warnings, sequential=True,
    )  # fmt: skip
    budget = Budget(seconds, candidates)
    bar = (
        TuneBar(f"{loaded.slug}: tuning", sys.stderr)
        if obj.verbosity >= 1 and sys.stderr.isatty()
        else None
    )

    def progress(spent: Budget, judged: Judged) -> None:
        if bar is not None:
            bar(spent, judged)
        if obj.verbosity >= 2:  # -v: a line a candidate, for logs where no bar is drawn
            changed = sum(value != number.value for number, value in judged.values.items())
            click.echo(
                f"{loaded.slug}: candidate {spent.tried} ({spent.spent:.0f} s): {changed} "
                f"number(s) changed, {judged.games} games a table, {judged.distance:.3f} outside"
                + (", every promise kept" if judged.kept else ""),
                err=True,
            )

    try:
        proposal = search(judge, numbers, entries, root, budget, progress=progress)
        confirmation = None
        if confirm_policy != "none" and proposal.changes and proposal.after.kept:
            confirmation = confirm(
                lambda names: Judge(
                    loaded,
                    plugin,
                    balance,
                    policy=confirm_policy,
                    games=confirm_games,
                    seed=seed,
                    tables=names,
                    workers=workers,
                ),
                proposal,
                budget,
            )
    finally:
        if bar is not None:
            bar.clear()
    clean = True
    if proposal.changes:
        # The proposal is content like any other: a number the faces or the claims cannot take
        # (a cost a card's text no longer fits) is reported, and nothing is written.
        try:
            require_clean(judge.variant(proposal.after.values), obj.templates_root)
        except ContentError as error:
            for problem in error.problems:
                click.echo(f"proposal: {problem}", err=True)
            write = clean = False
            click.echo(
                f"{loaded.slug}: the proposal fails the static checks; not written", err=True
            )
    _report(
        loaded,
        proposal,
        confirmation,
        proposer,
        games,
        confirm_policy,
        write,
        include_warnings,
        clean,
    )
    return 0 if proposal.after.kept and clean else 1


def _stops(games: int) -> str:
    """Where a candidate breaking a promise stops (nothing when there is one look only)."""
    from pnp.validate.play import looks

    sizes = looks(games)
    if len(sizes) == 1:
        return ""
    early = [str(size) for size in sizes[:-1]]
    counts = early[0] if len(early) == 1 else ", ".join(early[:-1]) + f" or {early[-1]}"
    return f" (a candidate breaking a promise beyond doubt after {counts} games stops there)"


def _report(
    loaded: LoadedGame,
    proposal: Proposal,
    confirmation: Confirmation | None,
    proposer: str,
    games: int,
    confirm_policy: str,
    write: bool,
    warnings: bool,
    clean: bool = True,
) -> None:
    from pnp.tune.search import diff_of, figure_rows

    slug = loaded.slug
    say = click.echo
    tables = len({table for figure in proposal.before.figures for table in figure.tables})
    say(
        f"{slug}: judged with the {proposer} policy, {games} games a table on {tables} "
        f"table(s), the same seeds for every candidate{_stops(games)}; "
        f"{proposal.tried} candidates in "
        f"{proposal.seconds:.0f} s" + (" (budget spent)" if proposal.stopped_by_budget else "")
    )
    if not proposal.before.targets:
        say(
            f"{slug}: no promise is broken on these games: nothing to tune"
            + ("" if warnings else " (--warnings also brings back validate's warnings)")
        )
        return
    changes = proposal.changes
    if proposal.after.kept and not clean:
        say(
            f"{slug}: proposal: {len(changes)} number(s) changed; every promise kept in play, "
            "but the content fails the static checks (on stderr)"
        )
    elif proposal.after.kept:
        say(f"{slug}: proposal: {len(changes)} number(s) changed, every promise kept")
    elif changes:
        say(f"{slug}: no change found that keeps every promise; the closest found:")
    else:
        say(f"{slug}: no change of the tunable numbers brought a broken promise closer")
    diff, texts = diff_of(loaded, changes)
    if diff:
        say(diff, nl=False)
    say("win rate [95 % interval], today -> proposed:")
    for what, before, after, band, ladder in figure_rows(
        proposal.before.figures, proposal.after.figures, proposal.before.targets
    ):
        shown = "broken" if ladder else f"{band[0]:.0%}–{band[1]:.0%}"
        say(f"  {what}: {_rate(before)} -> {_rate(after)}, promised {shown}")
    if confirmation is not None:
        say(
            f"confirmed with the {confirmation.policy} policy, {confirmation.games} games a "
            "table on the broken figures' tables:"
        )
        after_figures = confirmation.after.figures if confirmation.after else ()
        before_figures = confirmation.before.figures if confirmation.before else ()
        by_what = {figure.what: figure for figure in before_figures}
        for figure in after_figures:
            if figure.what in proposal.before.targets:
                old = by_what.get(figure.what)
                say(
                    f"  {figure.what}: {_rate(old.rate if old else None)} -> "
                    f"{_rate(figure.rate)}, promised {figure.band[0]:.0%}–{figure.band[1]:.0%}"
                )
        if confirmation.after is not None:
            if confirmation.after.broken > 0:
                verdict = "leaves a promise broken beyond doubt"
            elif confirmation.after.kept:
                verdict = "keeps every broken promise"
            else:
                verdict = "is undecided on these games (more --confirm-games would tell)"
            say(f"  under {confirmation.policy} play the proposal {verdict}")
    elif confirm_policy != "none" and changes and proposal.after.kept:
        say(f"not confirmed with the {confirm_policy} policy: the budget was spent")
    if write and changes and proposal.after.kept:
        _write(loaded, texts)
        say(f"{slug}: wrote {', '.join(texts)}")
    elif write:
        say(f"{slug}: nothing written")


def _rate(rate: Rate | None) -> str:
    if rate is None:
        return "—"
    low, high = rate.interval
    return f"{rate.value:.0%} [{low:.0%}–{high:.0%}]"


def _write(loaded: LoadedGame, texts: dict[str, str]) -> None:
    """Each changed file replaced whole and atomically, only if it still holds the bytes the
    proposal was made from (a file saved meanwhile is left alone, and nothing is written)."""
    from pnp.output import atomic_output

    prefix = f"{loaded.display_folder}/"
    sources = loaded.sources
    targets: list[tuple[Path, str]] = []
    for display, text in texts.items():
        relative = display[len(prefix) :]
        path = loaded.folder / relative
        if sources is None or path.read_bytes() != sources.content.files.get(relative):
            raise PnpError(f"{display}: changed since pnp tune read it; nothing written")
        targets.append((path, text))
    for path, text in targets:
        with atomic_output(path) as temporary:
            temporary.write_bytes(text.encode("utf-8"))
