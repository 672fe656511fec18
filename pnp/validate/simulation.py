"""`pnp simulate`: statistics from seeded play, formatted for people."""

from __future__ import annotations

from collections.abc import Iterator

from pnp.content.loader import LoadedGame
from pnp.errors import PnpError
from pnp.validate.runner import game_checks


def simulate_game(
    game: LoadedGame, *, players: int | None, games: int, seed: int, policy: str
) -> Iterator[str]:
    checks = game_checks(game.slug)
    if checks is None or not hasattr(checks, "simulation_lines"):
        raise PnpError(f"game {game.slug!r} has no simulation yet")
    yield from checks.simulation_lines(game, players=players, games=games, seed=seed, policy=policy)
