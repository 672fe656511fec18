"""`pnp simulate`'s statistics: the tables asked for, and only those, are played."""

from __future__ import annotations

from typing import Any

import pytest

from pnp.content.loader import load_game
from pnp.errors import PnpError
from pnp.validate import play
from pnp.validate.simulation import simulate_game
from tests.conftest import CONTENT


def test_simulate_with_players_plays_only_the_tables_that_seat_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A strong game costs a second or two: --players 3 must not play the other 36 tables.
    played: list[str] = []
    real = play.play_seed

    def counted(game: Any, table: Any, seats: Any, seed: int, **options: Any) -> Any:
        played.append(table.name)
        return real(game, table, seats, seed, **options)

    monkeypatch.setattr(play, "play_seed", counted)
    monkeypatch.setenv("PNP_WORKERS", "1")  # in this process, where the count is kept
    game = load_game(CONTENT, "deadline-99")
    lines = list(simulate_game(game, players=3, games=2, seed=1, policy="strong:1:1"))
    assert sorted(set(played)) == ["angel-death-3p", "normal-3p"]
    assert len(played) == 4
    assert any(line.startswith("balance normal-3p (strong:1:1, 2 games)") for line in lines)


def test_simulate_with_a_player_count_no_table_seats_says_so() -> None:
    game = load_game(CONTENT, "deadline-99")
    with pytest.raises(PnpError, match="no table with 13 players"):
        list(simulate_game(game, players=13, games=2, seed=1, policy="strong:1:1"))
