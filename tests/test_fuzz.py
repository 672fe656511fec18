"""No content edit reaches a traceback or a hang: a seeded sample of random one-edit mutations
through every command (benchmarks/fuzz.py runs thousands; see its figures in the notes)."""

from __future__ import annotations

import pytest

from benchmarks.fuzz import COMMANDS, fuzz
from pnp.paths import discover_games
from tests.conftest import CONTENT

CASES = 5
"""One edit per game, every command on each: a regression in how a command meets broken
content shows here on every run; the thousands of cases are `python3 tasks.py fuzz`'s."""


@pytest.mark.long
def test_random_content_edits_never_reach_a_traceback_a_hang_or_a_false_pass() -> None:
    # That the unedited content passes (else no false pass could be seen) is
    # tests/cli/test_validate.py's; `python3 tasks.py fuzz` checks it first itself
    # (benchmarks.fuzz.control).
    messages: list[str] = []
    summary = fuzz(
        seed=20261124,
        count=CASES,
        games=discover_games(CONTENT),
        commands=COMMANDS,
        limit=120,
        report=messages.append,
    )
    assert summary.cases == CASES
    assert all(summary.runs[command] == CASES for command in COMMANDS)
    assert not summary.failures, "\n".join(messages)
