"""`pnp tune`'s command line: its progress bar, and bad input as a message and an exit code."""

from __future__ import annotations

import io
import time

from click.testing import CliRunner

from pnp.cli import main
from pnp.cli.tune import BAR_WIDTH, TuneBar
from pnp.tune.search import Budget, Judged
from tests.conftest import CONTENT


def test_the_bar_shows_the_budget_spent_in_place_and_is_wiped() -> None:
    stream = io.StringIO()
    bar = TuneBar("arena-tales: tuning", stream)
    budget = Budget(seconds=100, started=time.monotonic() - 50, tried=7)
    bar(budget, Judged({}, (), frozenset()))
    drawn = stream.getvalue()
    assert drawn.startswith("\rarena-tales: tuning [" + "#" * (BAR_WIDTH // 2))
    assert "50/100 s, 7 candidates" in drawn
    bar.clear()
    assert "\n" not in stream.getvalue()
    assert stream.getvalue().endswith("\r")


def test_an_unknown_table_is_a_usage_error_naming_the_tables() -> None:
    result = CliRunner().invoke(
        main, ["--content", str(CONTENT), "tune", "arena-tales", "--tables", "5p"]
    )
    assert result.exit_code == 2
    assert "no table '5p' (tables: 2p, 4p, 6p)" in result.output
    assert "Traceback" not in result.output
