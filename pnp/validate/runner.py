"""`pnp validate`: every game's content through the shared checks, its own static checks and
seeded play through its reference engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.content.loader import load_game
from pnp.errors import ContentError, Location, Problem
from pnp.registry import find_game
from pnp.validate.checks import Findings, check_common
from pnp.validate.rulebook import check_rulebook


@dataclass
class ValidationResult:
    problems: list[Problem] = field(default_factory=list)
    reports: dict[str, Any] = field(default_factory=dict)
    summaries: dict[str, list[str]] = field(default_factory=dict)


def validate_games(
    content_root: Path,
    slugs: list[str],
    templates_root: Path,
    *,
    simulated_games: int | None = None,
    seed: int = 1,
    simulate: bool = True,
) -> ValidationResult:
    result = ValidationResult()
    for slug in slugs:
        try:
            game = load_game(content_root, slug)
        except ContentError as error:
            result.problems.extend(error.problems)
            continue
        findings = Findings(game)
        check_common(findings, templates_root)
        plugin = find_game(slug)
        if plugin is not None and plugin.check_static is not None:
            plugin.check_static(findings)
        static_errors = any(p.severity == "error" for p in findings.problems)
        if not static_errors:
            # The rulebook quotes the engine's worked examples: it needs sound content.
            terms: list[tuple[str, Location]] = (
                plugin.rulebook_terms(game.model)
                if plugin is not None and plugin.rulebook_terms is not None
                else []
            )
            check_rulebook(findings, terms)
            static_errors = any(p.severity == "error" for p in findings.problems)
        result.summaries.setdefault(slug, [])
        # Simulating broken content mostly repeats the static findings in a noisier voice.
        if (
            simulate
            and not static_errors
            and plugin is not None
            and plugin.check_simulated is not None
        ):
            games = simulated_games if simulated_games is not None else plugin.default_games
            report = plugin.check_simulated(findings, games, seed)
            result.reports[slug] = report
            if plugin.summarise is not None:
                result.summaries[slug] = plugin.summarise(report)
        result.problems.extend(sorted(findings.problems, key=lambda p: p.location))
    return result
