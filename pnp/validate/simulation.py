"""`pnp simulate`: statistics from seeded play, formatted for people."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from pnp.content.loader import LoadedGame
from pnp.errors import PnpError
from pnp.model.common import Balance
from pnp.registry import Game, find_game
from pnp.validate.checks import Findings
from pnp.validate.play import (
    BalanceRun,
    HeadToHead,
    balance_runs,
    factors_of,
    game_tables,
    head_to_head,
    judge_balance,
    make_policy,
)
from pnp.validate.report import render_report, write_report

GAME_OWN_SUMMARY = ("random", "sensible")
"""Policies a game's own ``simulation_lines`` summarises; any other goes through the shared
balance tables."""


def _plugin(game: LoadedGame) -> Game:
    plugin = find_game(game.slug)
    if plugin is None or plugin.rules is None:
        raise PnpError(f"game {game.slug!r} has no simulation yet")
    return plugin


def simulate_game(
    game: LoadedGame, *, players: int | None, games: int, seed: int, policy: str
) -> Iterator[str]:
    plugin = _plugin(game)
    make_policy(plugin, policy)  # an unknown name fails here, naming the choices
    if policy in GAME_OWN_SUMMARY and plugin.simulation_lines is not None:
        yield from plugin.simulation_lines(
            game, players=players, games=games, seed=seed, policy=policy
        )
        return
    only = simulated_tables(plugin, game, players)
    runs, counts = balance_runs(
        plugin, game.model, Balance(policy=policy, games=games), seed=seed, only=only
    )
    yield from BalanceRun(policy, seed, runs, counts, factors_of(runs, None)).lines()


def simulated_tables(plugin: Game, game: LoadedGame, players: int | None) -> list[str]:
    """The tables ``pnp simulate --players`` plays (every table without it): only those, as
    a strong game costs a second or two. PnpError when no table seats ``players``."""
    tables = game_tables(plugin, game.model)
    chosen = [t.name for t in tables if players is None or t.rules.num_players == players]
    if not chosen:
        raise PnpError(f"{game.slug}: no table with {players} players")
    return chosen


def report_game(
    game: LoadedGame,
    out_dir: Path,
    *,
    games: int | None,
    seed: int,
    policy: str | None,
    duel: bool = False,
    duel_tables: Sequence[str] = (),
    duel_games: int | None = None,
    workers: int | None = None,
    use_ray: bool = False,
    ray_address: str | None = None,
) -> list[str]:
    """Play the balance run of every table, check the content's promises, write the HTML
    report; the lines to print (tables, findings, where the page went)."""
    plugin = _plugin(game)
    promises = getattr(game.model, "balance", None)
    balance = promises if isinstance(promises, Balance) else Balance()
    if policy is not None:
        make_policy(plugin, policy)
    findings = Findings(game)
    run = judge_balance(
        findings,
        plugin,
        game.model,
        balance,
        games=games,
        seed=seed,
        policy=policy,
        workers=workers,
        use_ray=use_ray,
        ray_address=ray_address,
    )
    duels: list[HeadToHead] = []
    if duel:
        count = duel_games or (games if games is not None else balance.games)
        duels = list(duel_game(game, games=count, seed=seed, tables=duel_tables, workers=workers))
    page = render_report(f"{game.slug}: balance", run, balance, duels)
    path = write_report(out_dir / f"{game.slug}-balance.html", page)
    lines = run.lines()
    lines += [f"strong vs sensible {duel}" for duel in duels]
    lines += [str(problem) for problem in findings.problems]
    lines.append(f"report -> {path}")
    return lines


def duel_game(
    game: LoadedGame,
    *,
    games: int,
    seed: int,
    tables: Sequence[str] = (),
    workers: int | None = None,
) -> Iterator[HeadToHead]:
    """The strong player against the sensible policy on each table (or the ``tables`` named),
    paired on shared seeds, each table up to ``games`` pairs and stopped once decided (a
    sequential duel); PnpError naming the tables when a name is not one of them."""
    plugin = _plugin(game)
    if "sensible" not in plugin.policies:
        raise PnpError(f"game {game.slug!r} has no sensible policy to measure the strong player by")
    every = game_tables(plugin, game.model)
    names = [table.name for table in every]
    unknown = [name for name in tables if name not in names]
    if unknown:
        raise PnpError(
            f"{game.slug}: no table {', '.join(map(repr, unknown))} (tables: {', '.join(names)})"
        )
    for table in every:
        if not tables or table.name in tables:
            yield head_to_head(plugin, table, games, seed, workers=workers, sequential=True)
