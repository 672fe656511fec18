"""`pnp validate`: every game's content through the shared checks, its own static checks and
seeded play through its reference engine.

:func:`check_static` is also the gate every other command passes before it uses content
(build, rulebook, export, simulate): content that fails it is reported, located, and never
reaches the code that would trip over it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pnp.content.loader import LoadedGame, load_game
from pnp.cores import default_workers
from pnp.engines.batch import run_seeds
from pnp.errors import ContentError, Location, Problem
from pnp.model.common import Balance
from pnp.paths import content_size
from pnp.registry import find_game
from pnp.validate.checks import Findings, check_common
from pnp.validate.fit import check_fit, check_observed
from pnp.validate.play import check_play, judge_balance
from pnp.validate.rulebook import check_rulebook


@dataclass
class ValidationResult:
    problems: list[Problem] = field(default_factory=list)
    reports: dict[str, Any] = field(default_factory=dict)
    summaries: dict[str, list[str]] = field(default_factory=dict)


def _has_errors(findings: Findings) -> bool:
    return any(p.severity == "error" for p in findings.problems)


def check_static(game: LoadedGame, templates_root: Path) -> Findings:
    """Every static check of one loaded game: the shared ones, the game's own, and (when
    those pass, since it quotes the engine's worked examples) the rulebook's."""
    findings = Findings(game)
    check_common(findings, templates_root)
    plugin = find_game(game.slug)
    if not _has_errors(findings):
        # Slots, tracks and state on top of products and sizes the checks above passed.
        check_fit(findings, plugin, templates_root)
    if plugin is not None and plugin.check_static is not None:
        plugin.check_static(findings)
    if not _has_errors(findings):
        terms: list[tuple[str, Location]] = (
            plugin.rulebook_terms(game.model)
            if plugin is not None and plugin.rulebook_terms is not None
            else []
        )
        check_rulebook(findings, terms)
    return findings


def load_checked(content_root: Path, slug: str, templates_root: Path) -> LoadedGame:
    """Load a game and pass it through :func:`check_static`; ContentError carrying every
    error when it fails (warnings do not stop a command)."""
    game = load_game(content_root, slug)
    require_clean(game, templates_root)
    return game


def require_clean(game: LoadedGame, templates_root: Path) -> None:
    """Pass a loaded game through :func:`check_static`: ContentError carrying every error
    when it fails (warnings do not stop a command)."""
    findings = check_static(game, templates_root)
    errors = [p for p in findings.problems if p.severity == "error"]
    if errors:
        raise ContentError(sorted(errors, key=lambda p: p.location))


@dataclass
class GameValidation:
    """What validating one game found: small and picklable, so games can validate in worker
    processes."""

    slug: str
    problems: list[Problem] = field(default_factory=list)
    report: dict[str, Any] | None = None
    summary: list[str] | None = None
    """Lines to print; None when the game's content did not load."""


@dataclass(frozen=True)
class _Options:
    content_root: Path
    templates_root: Path
    simulated_games: int | None
    seed: int
    simulate: bool
    balance: bool
    workers: int | None
    use_ray: bool
    ray_address: str | None


def validate_games(
    content_root: Path,
    slugs: list[str],
    templates_root: Path,
    *,
    simulated_games: int | None = None,
    seed: int = 1,
    simulate: bool = True,
    balance: bool = False,
    workers: int | None = None,
    use_ray: bool = False,
    ray_address: str | None = None,
) -> ValidationResult:
    """Every check of every game in ``slugs``. ``balance`` adds the balance run: the content's
    ``balance:`` promises checked on ``balance.games`` games per table with the policy they
    are made for (slow with the strong player; on every core, or on Ray).

    Several games validate side by side, one worker process each (their play checks then run
    in that process), so the cores stay busy through every game's sequential checks; a single
    game, or a balance run, spreads its games over the cores instead. Either way the findings
    are the same: every game is seeded on its own."""
    options = _Options(
        content_root,
        templates_root,
        simulated_games,
        seed,
        simulate,
        balance,
        workers,
        use_ray,
        ray_address,
    )
    count = default_workers() if workers is None else max(1, workers)
    side_by_side = simulate and not balance and count > 1 and len(slugs) > 1
    if side_by_side:
        one = replace(options, workers=1)
        # The largest content first (a rough guess of the dearest validation), so the last
        # game to start is a short one and the cores finish together.
        order = sorted(
            range(len(slugs)), key=lambda index: -content_size(content_root, slugs[index])
        )
        found = run_seeds(
            lambda index: validate_game(slugs[index], one), order, workers=count, min_per_worker=1
        )
        by_index = dict(zip(order, found, strict=True))
        validations = [by_index[index] for index in range(len(slugs))]
    else:
        validations = [validate_game(slug, options) for slug in slugs]
    result = ValidationResult()
    for validation in validations:
        result.problems.extend(validation.problems)
        if validation.report is not None:
            result.reports[validation.slug] = validation.report
        if validation.summary is not None:
            result.summaries[validation.slug] = validation.summary
    return result


def validate_game(slug: str, options: _Options) -> GameValidation:
    """Every check of one game."""
    validation = GameValidation(slug)
    try:
        game = load_game(options.content_root, slug)
    except ContentError as error:
        validation.problems.extend(error.problems)
        return validation
    findings = check_static(game, options.templates_root)
    validation.summary = []
    plugin = find_game(slug)
    # Simulating broken content mostly repeats the static findings in a noisier voice.
    if (
        options.simulate
        and not _has_errors(findings)
        and plugin is not None
        and plugin.check_simulated is not None
    ):
        games = (
            options.simulated_games if options.simulated_games is not None else plugin.default_games
        )
        report = plugin.check_simulated(findings, games, options.seed)
        validation.report = report
        check_observed(findings, plugin, report)
        if plugin.summarise is not None:
            validation.summary = list(plugin.summarise(report))
        play = check_play(
            findings,
            plugin,
            game.model,
            games=options.simulated_games,
            seed=options.seed,
            workers=options.workers,
        )
        report["play"] = play.as_json()
        validation.summary = [*validation.summary, *play.lines()]
        promises = getattr(game.model, "balance", None)
        if options.balance and isinstance(promises, Balance):
            balanced = judge_balance(
                findings,
                plugin,
                game.model,
                promises,
                seed=options.seed,
                workers=options.workers,
                use_ray=options.use_ray,
                ray_address=options.ray_address,
            )
            report["balance"] = balanced.as_json()
            validation.summary = [*validation.summary, *balanced.lines()]
    validation.problems.extend(sorted(findings.problems, key=lambda p: p.location))
    return validation
