"""`pnp validate`: every game's content through the shared checks, its own static checks and
seeded play through its reference engine."""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.content.loader import load_game
from pnp.errors import ContentError, Location, Problem
from pnp.model.registry import module_name
from pnp.validate.checks import Findings, check_common
from pnp.validate.rulebook import check_rulebook


@dataclass
class ValidationResult:
    problems: list[Problem] = field(default_factory=list)
    reports: dict[str, Any] = field(default_factory=dict)
    summaries: dict[str, list[str]] = field(default_factory=dict)


def game_checks(slug: str) -> Any:
    """The module `pnp.validate.<game>` with check_static / check_simulated, if there is one."""
    try:
        return importlib.import_module(f"pnp.validate.{module_name(slug)}")
    except ModuleNotFoundError:
        return None


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
        checks = game_checks(slug)
        if checks is None:
            findings.error(None, f"no validator module pnp.validate.{module_name(slug)}")
        else:
            checks.check_static(findings)
            static_errors = any(p.severity == "error" for p in findings.problems)
            if not static_errors:
                # The rulebook quotes the engine's worked examples: it needs sound content.
                terms: list[tuple[str, Location]] = getattr(
                    checks, "rulebook_terms", lambda model: []
                )(game.model)
                check_rulebook(findings, terms)
                static_errors = any(p.severity == "error" for p in findings.problems)
            # Simulating broken content mostly repeats the static findings in a noisier voice.
            if simulate and not static_errors:
                games = simulated_games if simulated_games is not None else checks.DEFAULT_GAMES
                report = checks.check_simulated(findings, games, seed)
                result.reports[slug] = report
                result.summaries[slug] = checks.summarise(report)
            else:
                result.summaries.setdefault(slug, [])
        result.problems.extend(sorted(findings.problems, key=lambda p: p.location))
    return result
