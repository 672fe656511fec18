"""The validation run: games validated side by side find exactly what they find one by one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp.paths import REPOSITORY
from pnp.validate.runner import validate_games

GAMES = ["maquis", "dragon-hoard"]
"""Two of the quicker games to validate (Deadline 99 plays 38 tables): as many as the two
processes, the slower asked first, so the order of the answers is the order asked only if the
runner keeps it."""


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


def test_a_game_failing_its_checks_beside_others_is_not_played_and_the_others_are(
    content_copy: Path,
) -> None:
    rulebook = content_copy / "deadline-99" / "rulebook.yaml"
    rulebook.write_text(rulebook.read_text().replace("item: 7-heart", "item: 7-hearts", 1))
    # Side by side (one game a process); one process gives the same (the test above).
    run = validate_games(
        content_copy,
        ["deadline-99", "dragon-hoard"],
        REPOSITORY / "templates",
        simulated_games=2,
        seed=4,
        workers=2,
    )
    broken = [p for p in run.problems if p.game == "deadline-99" and p.severity == "error"]
    assert any("has no item '7-hearts'" in p.message for p in broken)
    assert "deadline-99" not in run.reports  # nothing simulated for content that fails
    assert run.reports["dragon-hoard"]["play"]["liveness"]
