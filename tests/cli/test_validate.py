"""`pnp validate` on the shipped content, as CI runs it: every game, simulated play at the
default counts, in a process of its own; no error, no warning, every content item played. The
seeded-mistake tests of each game validate copies; this is the judgement of the content itself
(it was a step of its own before the tests, which left a core idle for half a minute while the
command waited on its slowest game)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from pnp.paths import REPOSITORY, discover_games
from tests.conftest import CONTENT


@pytest.mark.long
def test_the_shipped_content_passes_a_full_validate() -> None:
    # One process plays: the tests' other process keeps the second core busy, and a pool of
    # two beside it cost 10 % more CPU for the same verdicts (games do not depend on how many
    # processes play them: tests/validate/test_runner.py).
    run = subprocess.run(
        [sys.executable, "-m", "pnp", "validate", "--workers", "1"],
        cwd=REPOSITORY,
        capture_output=True,
        text=True,
        timeout=900,
    )
    report = run.stdout + run.stderr
    assert run.returncode == 0, report
    slugs = discover_games(CONTENT)
    assert f"ok: {len(slugs)} game(s) valid." in run.stderr, report
    # Not a warning either (the problems are printed on stdout): the shipped content is what
    # a designer copies from.
    assert run.stdout == "", report
    # Every card, rule and ending of every game came up in the simulated games.
    for slug in slugs:
        [coverage] = re.findall(rf"^{slug}: coverage: (\d+)/(\d+) ", run.stderr, re.MULTILINE)
        assert coverage[0] == coverage[1], (slug, coverage)
