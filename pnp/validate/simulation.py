"""`pnp simulate`: statistics from seeded play, formatted for people."""

from __future__ import annotations

from collections.abc import Iterator

from pnp.content.loader import LoadedGame
from pnp.errors import PnpError
from pnp.registry import find_game


def simulate_game(
    game: LoadedGame, *, players: int | None, games: int, seed: int, policy: str
) -> Iterator[str]:
    plugin = find_game(game.slug)
    if plugin is None or plugin.simulation_lines is None:
        raise PnpError(f"game {game.slug!r} has no simulation yet")
    yield from plugin.simulation_lines(game, players=players, games=games, seed=seed, policy=policy)
