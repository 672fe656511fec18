"""The validation run: games validated side by side find exactly what they find one by one."""

from __future__ import annotations

from typing import Any

from pnp.paths import REPOSITORY
from pnp.validate.runner import validate_games

GAMES = ["deadline-99", "dragon-hoard", "maquis"]


def test_games_validated_side_by_side_find_what_they_find_one_by_one() -> None:
    runs = [
        validate_games(
            REPOSITORY / "content",
            GAMES,
            REPOSITORY / "templates",
            simulated_games=3,
            seed=4,
            workers=workers,
        )
        for workers in (1, 2)
    ]
    one, two = runs
    assert [str(p) for p in one.problems] == [str(p) for p in two.problems]
    assert one.summaries == two.summaries
    assert untimed(one.reports) == untimed(two.reports)
    assert list(two.summaries) == GAMES  # in the order asked, whichever finished first


def untimed(report: Any) -> Any:
    """A report without its speed figures, which no two runs share."""
    if isinstance(report, dict):
        return {k: untimed(v) for k, v in report.items() if k != "games_per_second"}
    if isinstance(report, list):
        return [untimed(v) for v in report]
    return report
