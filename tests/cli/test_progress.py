"""The progress bar of long runs: drawn in place on a terminal, never in a pipe or with -q."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.cli import validate as validate_command
from pnp.cli.progress import ProgressBar, progress_bar
from pnp.engines.batch import game_seeds, run_seeds


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _square(seed: int) -> int:
    return seed % 1000


def test_a_terminal_sees_each_batch_drawn_in_place_and_cleared() -> None:
    terminal = _Terminal()
    with progress_bar("maquis: playing", terminal, quiet=False):
        run_seeds(_square, game_seeds(1, 10), workers=1)
        run_seeds(_square, game_seeds(2, 5), workers=1)
    text = terminal.getvalue()
    assert "maquis: playing (batch 1) [" + "#" * 30 + "] 10/10 games" in text
    assert "(batch 2) [" + "#" * 30 + "] 5/5 games" in text
    assert "\n" not in text  # drawn in place with carriage returns
    assert text.endswith("\r")  # the last bar is wiped: what prints next starts clean


def test_a_pipe_or_quiet_gets_nothing() -> None:
    pipe, terminal = io.StringIO(), _Terminal()
    with progress_bar("x", pipe, quiet=False):
        run_seeds(_square, game_seeds(1, 10), workers=1)
    with progress_bar("x", terminal, quiet=True):
        run_seeds(_square, game_seeds(1, 10), workers=1)
    assert pipe.getvalue() == "" and terminal.getvalue() == ""


def test_the_bar_redraws_at_most_ten_times_a_second_but_always_shows_the_end() -> None:
    terminal = _Terminal()
    bar = ProgressBar("x", terminal)
    for done in range(1, 1001):
        bar(done, 1000)
    drawn = terminal.getvalue().count("games")
    assert 1 <= drawn < 20
    assert "1000/1000 games" in terminal.getvalue()


def test_a_balance_run_shows_each_games_batches_on_a_terminal(
    content_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The strong balance run of five games takes most of an hour: it must not sit silent.
    terminal = _Terminal()
    monkeypatch.setattr(
        validate_command,
        "progress_bar",
        lambda label, stream, quiet: progress_bar(label, terminal, quiet=quiet),
    )
    for path, cap in (
        ("dragon-hoard/game.yaml", "games: 6000"),
        ("maquis/balance.yaml", "games: 300"),
    ):
        file = content_copy / path
        file.write_text(file.read_text(encoding="utf-8").replace(cap, "games: 25"), "utf-8")
    command = ["validate", "--content", str(content_copy), "dragon-hoard", "maquis"]
    result = CliRunner().invoke(main, [*command, "--balance", "--workers", "1"])
    assert result.exit_code in (0, 1), result.output
    shown = terminal.getvalue()
    assert "dragon-hoard: playing (batch 1) [" in shown
    assert "maquis: playing (batch 1) [" in shown
    assert "balance 2p (sensible, 25 games)" in result.output  # the summary after the bars
    # An unknown player is told before either game is played.
    unknown = CliRunner().invoke(main, [*command, "--balance", "--policy", "cautious"])
    assert unknown.exit_code == 2
    assert "cautious" in unknown.output and "playing" not in terminal.getvalue()[len(shown) :]
