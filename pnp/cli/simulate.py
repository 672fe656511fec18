"""`pnp simulate`: seeded games, balance tables, duels."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from pnp.cli.app import (
    Context,
    compiled_option,
    content_option,
    fail,
    main,
    play_compiled,
    report_content_error,
)
from pnp.cli.progress import progress_bar
from pnp.errors import ContentError, PnpError
from pnp.paths import (
    default_output_root,
)

if TYPE_CHECKING:
    from pnp.content.loader import LoadedGame


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
    help="With --duel: games per table at most; a table stops once strong play is shown "
    "better or worse (default: --games, else the content's balance.games).",
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
@compiled_option("the run (a report, a duel or plain games)")
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
    compiled: bool | None,
) -> None:
    """Play seeded games with the reference engine and print statistics (a progress bar on
    stderr while games are played, when it is a terminal; not with -q)."""
    tables = [name.strip() for name in duel_tables.split(",") if name.strip()]
    if compiled and ray_address is not None:
        fail("error: --compiled plays on this machine's cores, not on --ray's", code=2)
    if ray_address is None:

        def strong_games() -> int:
            return _strong_games(
                obj, game, players, games_count, policy, report, duel, tables, duel_games
            )

        play_compiled(obj, obj.slugs((game,)), compiled, strong_games)
    try:
        loaded = obj.checked(game)
        with progress_bar(f"{game}: playing", sys.stderr, quiet=obj.verbosity < 1):
            for line in _lines(
                loaded, players, games_count, seed, policy, report, out, duel, tables,
                duel_games, workers, ray_address,
            ):  # fmt: skip
                click.echo(line)
    except ContentError as error:
        report_content_error(error)
    except PnpError as error:
        fail(f"error: {error}")


def _lines(
    loaded: LoadedGame,
    players: int | None,
    games_count: int | None,
    seed: int,
    policy: str | None,
    report: bool,
    out: Path | None,
    duel: bool,
    tables: list[str],
    duel_games: int | None,
    workers: int | None,
    ray_address: str | None,
) -> Iterable[str]:
    from pnp.model.common import Balance
    from pnp.validate.simulation import duel_game, report_game, simulate_game

    game = loaded.slug
    if report:
        return report_game(
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
    if duel:
        balance = getattr(loaded.model, "balance", None)
        count = (
            duel_games or games_count or (balance.games if isinstance(balance, Balance) else 100)
        )
        return (
            f"strong vs sensible {one}"
            for one in duel_game(loaded, games=count, seed=seed, tables=tables, workers=workers)
        )
    return simulate_game(
        loaded, players=players, games=games_count or 1000, seed=seed, policy=policy or "sensible"
    )


def _strong_games(
    obj: Context,
    game: str,
    players: int | None,
    games_count: int | None,
    policy: str | None,
    report: bool,
    duel: bool,
    tables: list[str],
    duel_games: int | None,
) -> int:
    """The strong player's games the run may play at most; 0 when the run will stop before
    playing (content with mistakes, an unknown table or policy: the run tells them, with no
    build first)."""
    from pnp.model.common import Balance
    from pnp.registry import find_game
    from pnp.validate.play import game_tables, search_request, strong_games_at_most
    from pnp.validate.simulation import simulated_tables

    plugin = find_game(game)
    if plugin is None:
        return 0
    try:
        loaded = obj.load(game)
        model = loaded.model
        names = [table.name for table in game_tables(plugin, model)]
        if any(name not in names for name in tables) or (
            duel and "sensible" not in plugin.policies
        ):
            return 0
        total = 0
        if report:
            total += strong_games_at_most(plugin, model, policy, games_count)
        elif not duel and search_request(policy or "sensible") is not None:
            total += (games_count or 1000) * len(simulated_tables(plugin, loaded, players))
        if duel:
            balance = getattr(model, "balance", None)
            cap = games_count or (balance.games if isinstance(balance, Balance) else 100)
            total += (duel_games or cap) * len(tables or names)
        if total:
            obj.checked(game)
    except PnpError:
        return 0
    return total
