"""Seeding one mistake into a private copy of a game's content and validating it: the shared
tools of every game's validator tests."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pnp.validate.checks
from pnp.errors import Problem
from pnp.validate.runner import validate_games

from ..conftest import TEMPLATES


class Seeding:
    """The validator and file edits for one game, on a content tree the test owns."""

    def __init__(self, game: str, games: int = 10) -> None:
        self.game = game
        self.games = games

    def validate(
        self,
        content: Path,
        simulate: bool = False,
        games: int | None = None,
        *,
        faces: bool = False,
    ) -> list[Problem]:
        """The errors (not warnings) the validator finds in `content` for this game.

        Faces are laid out (and their images, lettering and print preflight checked) only
        when ``faces``: a mistake seeded into rules data or prose is found by the checks that
        read it, and laying out every face of the game cost two thirds of each such test
        (119 -> 77 CPU-s over the files that seed). The shipped content's full validate
        (tests/cli/test_validate.py) lays every face out, and so do the tests of face
        mistakes (tests/validate/test_checks.py and test_mistakes.py call the validator
        themselves)."""
        with _faces_laid_out(faces):
            result = validate_games(
                content,
                [self.game],
                TEMPLATES,
                simulated_games=self.games if games is None else games,
                simulate=simulate,
            )
        return [p for p in result.problems if p.severity == "error"]

    def edit(self, content: Path, name: str, old: str, new: str) -> None:
        """Replace the first `old` in the game's file `name`; the fixture text must be there."""
        path = content / self.game / name
        text = path.read_text(encoding="utf-8")
        assert old in text, f"fixture text {old!r} not in {name}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    def line_of(self, content: Path, name: str, needle: str) -> int:
        """The 1-based line of the game's file `name` where `needle` first stands."""
        lines = (content / self.game / name).read_text(encoding="utf-8").splitlines()
        return next(i for i, line in enumerate(lines, 1) if needle in line)


@contextmanager
def _faces_laid_out(laid_out: bool) -> Iterator[None]:
    if laid_out:
        yield
        return
    check_layout = pnp.validate.checks.check_layout

    def skip_faces(findings: pnp.validate.checks.Findings, *args: Any, **kwargs: Any) -> None:
        findings.laid_out = []

    pnp.validate.checks.check_layout = skip_faces
    try:
        yield
    finally:
        pnp.validate.checks.check_layout = check_layout


def only(problems: list[Problem], pattern: str) -> Problem:
    """The first problem whose message matches `pattern`; fails listing them all if none."""
    matching = [p for p in problems if re.search(pattern, p.message)]
    assert matching, f"no problem matches {pattern!r}: {[str(p) for p in problems]}"
    return matching[0]


def fit_problems(content: Path, game: str) -> list[Problem]:
    """What the physical checks (slots, tracks, public state) find in ``game`` under
    ``content``."""
    from pnp import registry
    from pnp.content.loader import load_game
    from pnp.validate.checks import Findings
    from pnp.validate.fit import check_fit

    findings = Findings(load_game(content, game))
    check_fit(findings, registry.game_for(game), TEMPLATES)
    return findings.problems
