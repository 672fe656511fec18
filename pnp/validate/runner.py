"""`pnp validate`: every game's content through the shared checks, its own static checks and
seeded play through its reference engine.

:func:`check_static` is also the gate every other command passes before it uses content
(build, rulebook, export, simulate): content that fails it is reported, located, and never
reaches the code that would trip over it.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from queue import SimpleQueue
from typing import TYPE_CHECKING, Any

from pnp.content.icons import icon_problems, sprite_problems
from pnp.content.loader import LoadedGame, load_game
from pnp.content.tuning import check_tuning
from pnp.cores import default_workers, may_fork
from pnp.engines.batch import few_full_collections, run_seeds
from pnp.errors import ContentError, Location, Problem
from pnp.layout.sheets import PRINTER_MARGIN
from pnp.model.common import Balance
from pnp.paths import content_size
from pnp.registry import Game, find_game
from pnp.units import mm
from pnp.validate.checks import Findings, check_common
from pnp.validate.claims import check_claims
from pnp.validate.fit import check_fit, check_observed
from pnp.validate.portable import check_portable_yaml
from pnp.validate.preflight import check_documents, check_sheets
from pnp.validate.rulebook import check_rulebook
from pnp.validate.typesetting import check_typesetting
from pnp.validate.verdicts import passed_before, remember_passed, verdict_key

if TYPE_CHECKING:
    # Play is imported where games are played: the gate (check_static) is every command's,
    # and a build or an export need not load the play checks.
    from pnp.validate.play import Played, PlayPlan


@dataclass
class ValidationResult:
    problems: list[Problem] = field(default_factory=list)
    reports: dict[str, Any] = field(default_factory=dict)
    summaries: dict[str, list[str]] = field(default_factory=dict)


def _has_errors(findings: Findings) -> bool:
    return any(p.severity == "error" for p in findings.problems)


def check_static(
    game: LoadedGame, templates_root: Path, *, margin: float = PRINTER_MARGIN
) -> Findings:
    """Every static check of one loaded game: the shared ones, the game's own, and (when
    those pass, since it quotes the engine's worked examples) the rulebook's; the sheets as
    a build lays them out within a printer's dead `margin`."""
    with game.reading():
        return _check_static(game, templates_root, margin)


def _check_static(game: LoadedGame, templates_root: Path, margin: float) -> Findings:
    findings = Findings(game)
    for problem in icon_problems(game.model) + sprite_problems(game.model):
        findings.error(problem.location, problem.message)
    check_common(findings, templates_root)
    check_portable_yaml(findings)
    for problem in check_tuning(game):
        findings.error(problem.location, problem.message)
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
    if not _has_errors(findings):
        # Preflight: what a print shop or a player notices, once the content itself is sound.
        check_sheets(findings, findings.laid_out, margin=margin)
        check_documents(findings, [*terms, *_glossary_terms(game)])
    return findings


def _glossary_terms(game: LoadedGame) -> list[tuple[str, Location]]:
    from pnp.rulebook.text import glossary_entries

    rulebook = getattr(game.model, "rulebook", None)
    if rulebook is None:
        return []
    return [(entry.term, entry.where) for entry in glossary_entries(rulebook, game.model)]


def load_checked(content_root: Path, slug: str, templates_root: Path) -> LoadedGame:
    """Load a game and pass it through :func:`check_static`; ContentError carrying every
    error when it fails (warnings do not stop a command)."""
    game = load_game(content_root, slug, templates_root=templates_root)
    require_clean(game, templates_root)
    return game


def require_clean(
    game: LoadedGame, templates_root: Path, *, margin: float = PRINTER_MARGIN
) -> None:
    """Pass a loaded game through :func:`check_static`: ContentError carrying every error
    when it fails (warnings do not stop a command). Content whose snapshot passed before (a
    sealed verdict, see pnp.validate.verdicts) is not checked again."""
    # A sealed verdict is of the default margin's layout: another margin is checked afresh.
    usual = abs(margin - PRINTER_MARGIN) < 1e-9
    key = verdict_key(game.digest) if game.sources is not None and usual else None
    if key is not None and passed_before(key):
        return
    findings = check_static(game, templates_root, margin=margin)
    errors = [p for p in findings.problems if p.severity == "error"]
    if errors:
        raise ContentError(sorted(errors, key=lambda p: p.location))
    if key is not None:
        remember_passed(key)


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
    balance_policy: str | None
    workers: int | None
    use_ray: bool
    ray_address: str | None
    margin: float = PRINTER_MARGIN


def validate_games(
    content_root: Path,
    slugs: list[str],
    templates_root: Path,
    *,
    simulated_games: int | None = None,
    seed: int = 1,
    simulate: bool = True,
    balance: bool = False,
    balance_policy: str | None = None,
    workers: int | None = None,
    use_ray: bool = False,
    ray_address: str | None = None,
    printer_margin_mm: float = PRINTER_MARGIN / mm(1),
    playing: Callable[[str], AbstractContextManager[None]] | None = None,
) -> ValidationResult:
    """Every check of every game in ``slugs``. ``balance`` adds the balance run: the content's
    ``balance:`` promises checked on ``balance.games`` games per table with the policy they
    are made for, or ``balance_policy`` (on every core, or on Ray), a table stopping once
    every promise on it is decided at 95 %. ``playing(slug)``: a context each game is
    validated in when the games go one after another here (a progress bar).

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
        balance_policy,
        workers,
        use_ray,
        ray_address,
        mm(printer_margin_mm),
    )
    if balance and balance_policy is not None:
        from pnp.validate.play import make_policy

        for slug in slugs:
            plugin = find_game(slug)
            if plugin is not None:
                make_policy(plugin, balance_policy)  # an unknown name fails before any play
    count = default_workers() if workers is None else max(1, workers)
    with few_full_collections():
        if simulate and not balance and count > 1 and len(slugs) > 1 and may_fork():
            validations = _validate_side_by_side(slugs, replace(options, workers=1), count)
        elif simulate and balance and use_ray and len(slugs) > 1:
            validations = _validate_on_ray_together(slugs, options)
        else:
            validations = []
            for slug in slugs:
                with playing(slug) if playing is not None else nullcontext():
                    validations.append(validate_game(slug, options))
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
    return _judge_balance(_validate_before_balance(slug, options), options)


@dataclass
class _BeforeBalance:
    """A game checked and played up to its balance run, which is still to come when
    ``plugin`` is set."""

    validation: GameValidation
    findings: Findings | None = None
    game: LoadedGame | None = None
    plugin: Game | None = None


def _validate_before_balance(slug: str, options: _Options) -> _BeforeBalance:
    try:
        game = load_game(options.content_root, slug, templates_root=options.templates_root)
    except ContentError as error:
        return _BeforeBalance(GameValidation(slug, list(error.problems)))
    validation, findings, plugin = _check_before_play(game, options)
    if plugin is not None:
        from pnp.validate.play import plan_play

        plan = plan_play(plugin, game.model, games=options.simulated_games, seed=options.seed)
        played = run_seeds(plan.play, range(len(plan.jobs)), workers=options.workers)
        _judge_play(validation, findings, plan, played, options)
    return _BeforeBalance(validation, findings, game, plugin)


def _judge_balance(before: _BeforeBalance, options: _Options) -> GameValidation:
    """The balance run, when asked and the game got that far; the game's problems in order."""
    validation, findings, game, plugin = (
        before.validation,
        before.findings,
        before.game,
        before.plugin,
    )
    if findings is None or game is None:
        return validation
    promises = getattr(game.model, "balance", None)
    if plugin is not None and options.balance and isinstance(promises, Balance):
        from pnp.validate.play import judge_balance

        balanced = judge_balance(
            findings,
            plugin,
            game.model,
            promises,
            seed=options.seed,
            policy=options.balance_policy,
            workers=options.workers,
            use_ray=options.use_ray,
            ray_address=options.ray_address,
        )
        assert validation.report is not None
        validation.report["balance"] = balanced.as_json()
        validation.summary = [*(validation.summary or []), *balanced.lines()]
    validation.problems = sorted(findings.problems, key=lambda p: p.location)
    return validation


def _validate_on_ray_together(slugs: Sequence[str], options: _Options) -> list[GameValidation]:
    """Every check of every game, the balance runs of all of them on the cluster at once.

    Each balance run is a series of looks, and a look waits for its slowest game: one game
    after another, a cluster of tens of CPUs idles through every look's last games. Run side
    by side (a thread each, which only submits games and judges them), one game's looks fill
    the others' waits. The checks before (static checks, the default play checks on this
    machine's own cores) go game after game first: they fork worker processes, which a
    process with threads must not."""
    from concurrent.futures import ThreadPoolExecutor

    from pnp.engines.batch import connect_ray

    before = [_validate_before_balance(slug, options) for slug in slugs]
    connect_ray(options.ray_address)  # once, not raced by the threads
    with ThreadPoolExecutor(len(before)) as pool:
        return list(pool.map(lambda one: _judge_balance(one, options), before))


def _check_before_play(
    game: LoadedGame, options: _Options
) -> tuple[GameValidation, Findings, Game | None]:
    """The static checks and the game's own simulation of a loaded game; the game's plugin
    when its play checks are to follow (simulating, and the content passed the checks)."""
    validation = GameValidation(game.slug, summary=[])
    findings = check_static(game, options.templates_root, margin=options.margin)
    plugin = find_game(game.slug)
    if not _has_errors(findings):
        # Validate's own, not the gate's: a build needs content it can draw, and these
        # probes ask what the engine does with every printed phrase.
        check_claims(findings, plugin, options.templates_root)
    if not _has_errors(findings):
        check_typesetting(findings, options.templates_root, margin=options.margin)
    # Simulating broken content mostly repeats the static findings in a noisier voice.
    if (
        not options.simulate
        or _has_errors(findings)
        or plugin is None
        or plugin.check_simulated is None
    ):
        return validation, findings, None
    games = options.simulated_games if options.simulated_games is not None else plugin.default_games
    report = plugin.check_simulated(findings, games, options.seed)
    validation.report = report
    check_observed(findings, plugin, report)
    if plugin.summarise is not None:
        validation.summary = list(plugin.summarise(report))
    return validation, findings, plugin


def _judge_play(
    validation: GameValidation,
    findings: Findings,
    plan: PlayPlan,
    played: Sequence[Played],
    options: _Options,
) -> None:
    from pnp.validate.play import promised_policy, screen_balance

    model = findings.game.model
    play = plan.judge(findings, model, played, seed=options.seed)
    assert validation.report is not None
    validation.report["play"] = play.as_json()
    validation.summary = [*(validation.summary or []), *play.lines()]
    policy = promised_policy(model)
    if options.balance or policy is None:
        return  # the balance run judges the promises on its own games
    games = plan.games_of(policy, played)
    if not games:
        return  # promised for a policy the default run plays only for liveness (strong)
    screen = screen_balance(
        findings,
        plan.game,
        model,
        model.balance,
        games,
        seed=options.seed,
        workers=options.workers,
    )
    validation.report["balance_screen"] = screen.as_json()
    validation.summary = [*validation.summary, *screen.lines()]


# -- games side by side ---------------------------------------------------------------------

PLAY_JOBS_PER_TASK = 8
"""Games of the play checks a worker plays per task: small tasks even out the cores at the
end of a run (one of Deadline 99's strong-player games is 60 ms, a random one 1 ms)."""

_SIDE_BY_SIDE: dict[int, LoadedGame] = {}
"""The games of a side-by-side run, loaded in the parent and inherited by its workers."""
_PLANS: dict[int, PlayPlan] = {}
"""In a worker: the play plans of the games whose games it has played, made on first use."""


def _validate_side_by_side(
    slugs: Sequence[str], options: _Options, workers: int
) -> list[GameValidation]:
    """Every check of every game, on ``workers`` forked processes, with the findings of
    :func:`validate_game` run on each game in turn.

    A game's static checks and its own simulation are one task. Once they pass, its play
    checks (hundreds of seeded games) follow as many small tasks, queued behind what is
    already waiting: so the cores stay busy to the end, however unequal the games are, and
    no game is played for content that failed its checks. The results are judged here."""
    import pnp.validate.play  # noqa: F401 - imported once here, not in each worker

    validations: dict[int, GameValidation] = {}
    loaded: dict[int, LoadedGame] = {}
    for index, slug in enumerate(slugs):
        try:
            loaded[index] = load_game(
                options.content_root, slug, templates_root=options.templates_root
            )
        except ContentError as error:
            validations[index] = GameValidation(slug, list(error.problems))
    # The largest content first (a rough guess of the dearest checks).
    order = sorted(loaded, key=lambda index: -content_size(options.content_root, slugs[index]))
    done: SimpleQueue[tuple[str, int, Any]] = SimpleQueue()
    findings: dict[int, Findings] = {}
    plans: dict[int, PlayPlan] = {}
    played: dict[int, list[Any]] = {}
    _SIDE_BY_SIDE.update(loaded)
    try:
        with multiprocessing.get_context("fork").Pool(workers) as pool:

            def submit(kind: str, index: int, task: Callable[..., Any], *args: Any) -> None:
                pool.apply_async(
                    task,
                    (index, options, *args),
                    callback=lambda value: done.put((kind, index, value)),
                    error_callback=lambda error: done.put(("failed", index, error)),
                )

            for index in order:
                submit("checked", index, _checked_in_worker)
            waiting = len(order)
            while waiting:
                kind, index, value = done.get()
                waiting -= 1
                if kind == "failed":
                    raise value
                if kind == "checked":
                    validation, problems, plays = value
                    validations[index] = validation
                    findings[index] = Findings(loaded[index])
                    findings[index].problems = problems
                    if not plays:
                        continue
                    plan = _plan_of(index, options)
                    plans[index] = plan
                    played[index] = [None] * len(plan.jobs)
                    for start in range(0, len(plan.jobs), PLAY_JOBS_PER_TASK):
                        submit("played", index, _played_in_worker, start)
                        waiting += 1
                else:
                    start, games = value
                    played[index][start : start + len(games)] = games
    finally:
        _SIDE_BY_SIDE.clear()
    for index, plan in plans.items():
        _judge_play(validations[index], findings[index], plan, played[index], options)
    for index, found in findings.items():
        validations[index].problems = sorted(found.problems, key=lambda p: p.location)
    return [validations[index] for index in range(len(slugs))]


def _plan_of(index: int, options: _Options) -> PlayPlan:
    from pnp.validate.play import plan_play

    game = _SIDE_BY_SIDE[index]
    plugin = find_game(game.slug)
    assert plugin is not None
    return plan_play(plugin, game.model, games=options.simulated_games, seed=options.seed)


def _checked_in_worker(index: int, options: _Options) -> tuple[GameValidation, list[Problem], bool]:
    validation, findings, plugin = _check_before_play(_SIDE_BY_SIDE[index], options)
    return validation, findings.problems, plugin is not None


def _played_in_worker(index: int, options: _Options, start: int) -> tuple[int, list[Played]]:
    if index not in _PLANS:
        _PLANS[index] = _plan_of(index, options)
    plan = _PLANS[index]
    return start, [
        plan.play(job) for job in range(start, min(start + PLAY_JOBS_PER_TASK, len(plan.jobs)))
    ]
