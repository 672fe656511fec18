"""What only play can show, for every game alike: that games end, that play reaches every
card and rule of the content, and that the design keeps its promises of fairness.

Everything here works through the shared engine protocol and the hooks a game's package
names (:class:`pnp.registry.Game`); a game without a hook gets the check that needs it
skipped, never faked.

- **Liveness** plays every table with every policy (random, the game's own, a passive one and
  the strong search player). A game that hits its cap is an error carrying the seed and the
  position's notation; the position is then searched for any way to finish
  (:func:`find_ending`) and reported as an *endless position* when none exists.
- **Coverage** collects what each step exercised (``Game.covered``) over the validation run;
  an item of the content that no game played is an error naming it.
- **Balance** plays ``balance.games`` games per table with the policy the promises are made
  for and checks each promise (``balance:`` in content) with 95 % Wilson intervals: outside
  beyond doubt is an error, outside by the point estimate only is a warning asking for more
  games. A difficulty ladder is checked with one-sided sign tests on shared seeds.

Games run through :func:`pnp.engines.batch.run_seeds`, so results are the same on one core,
every core or a Ray cluster.
"""

from __future__ import annotations

import enum
import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pnp.engines.base import Policy, RandomPolicy, Rules, Table, play_game
from pnp.engines.batch import game_seeds, run_on_ray, run_seeds
from pnp.engines.record import GameRecordFile, record_of, write_record
from pnp.engines.search import HalvingSearchPolicy, SearchPolicy, terminal_scores
from pnp.engines.stats import Lengths, Rate, sign_test, z_over_looks
from pnp.errors import Location, PnpError
from pnp.model.common import Balance
from pnp.paths import default_output_root
from pnp.registry import Game
from pnp.validate.checks import Findings

DEFAULT_MAX_STEPS = 20_000
"""The step cap of a table a game does not declare (``Game.tables`` only)."""
ENDING_PLAYOUTS = 24
"""Random playouts tried from a capped position before searching it exhaustively."""
ENDING_STATES = 20_000
"""Distinct positions the exhaustive search of a capped position visits at most."""


# -- policies -------------------------------------------------------------------------------


def policy_names(game: Game) -> list[str]:
    """Every policy a game can be played with: random, its own, and the strong player."""
    return ["random", *sorted(game.policies), "strong"]


def search_request(name: str) -> tuple[int, int | None] | None:
    """What a strong-player name asks for: ``strong`` -> (0, None), the game's own settings;
    ``strong:400`` -> 400 playouts a decision; ``strong:4:12`` -> 4 playouts of at most 12
    decisions each. None when the name is not the strong player's."""
    base, _, rest = name.partition(":")
    if base != "strong":
        return None
    if not rest:
        return 0, None
    parts = rest.split(":")
    if len(parts) > 2 or not all(part.isdigit() and int(part) >= 1 for part in parts):
        raise PnpError(
            f"policy {name!r}: expected 'strong', 'strong:N' (N >= 1 playouts a decision) or "
            "'strong:N:D' (playouts of at most D >= 1 decisions)"
        )
    return int(parts[0]), int(parts[1]) if len(parts) == 2 else None


def search_budget(name: str) -> int | None:
    """The iterations a strong-player name asks for (0: the game's own setting); None when
    the name is not the strong player's."""
    request = search_request(name)
    return None if request is None else request[0]


def make_policy(game: Game, name: str) -> Policy:
    """The policy ``name`` of ``game``; PnpError naming the choices when there is none.

    ``strong`` is the search player with the game's settings; ``strong:N`` the same player with
    ``N`` playouts per decision (cheaper for a quick run, stronger for a careful one);
    ``strong:N:D`` also cuts each playout after ``D`` decisions (scored by the game's hint)."""
    if name == "random":
        return RandomPolicy()
    request = search_request(name)
    if request is not None:
        budget, depth = request
        settings = game.search
        if depth is None:
            depth = settings.depth
        if settings.method == "halving":
            return HalvingSearchPolicy(
                iterations=budget or settings.iterations,
                rollout=make_policy(game, settings.rollout),
                rollout_depth=depth,
                evaluate=game.evaluate,
                score=game.score,
                candidates=settings.candidates,
                margin=settings.margin,
                look_early=settings.look_early,
                iterations_at=None if budget else dict(settings.iterations_at),
                name=name,
            )
        return SearchPolicy(
            iterations=budget or settings.iterations,
            exploration=settings.exploration,
            rollout=make_policy(game, settings.rollout),
            rollout_depth=depth,
            evaluate=game.evaluate,
            score=game.score,
            name=name,
        )
    factory = game.policies.get(name)
    if factory is None:
        choices = ", ".join(policy_names(game))
        raise PnpError(f"game {game.slug!r} has no policy {name!r} (choose from {choices})")
    return factory()


def game_tables(game: Game, model: Any) -> list[Table]:
    """The tables play checks use: the game's own list, else its representative tables."""
    if game.play_tables is not None:
        return list(game.play_tables(model))
    if game.tables is not None:
        return [Table(name, rules, DEFAULT_MAX_STEPS) for name, rules in game.tables(model)]
    return []


# -- one game -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Played:
    """One game, as the play checks need it (small and picklable, for worker processes)."""

    seed: int
    winners: frozenset[int]
    scores: tuple[float, ...]
    turns: int
    steps: int
    capped: bool
    capped_at: str = ""
    """The notation of the position where the cap stopped the game."""
    seat_factors: tuple[tuple[str, tuple[str, ...]], ...] = ()
    game_factors: tuple[tuple[str, str], ...] = ()
    covered: frozenset[str] = frozenset()

    def won(self, seat: int) -> bool:
        return seat in self.winners

    def seat_factor(self, factor: str) -> tuple[str, ...] | None:
        return dict(self.seat_factors).get(factor)

    def game_factor(self, factor: str) -> str | None:
        return dict(self.game_factors).get(factor)


class GameCrash(RuntimeError):
    """An engine or a policy failed in the middle of a seeded game: a bug in pnp. A run of
    many games in worker processes gives no other clue to it, so the message names what
    replays the game: the game, its table, the seats' policies and the seed."""


def play_seed(
    game: Game,
    table: Table,
    seats: Sequence[str],
    seed: int,
    *,
    coverage: bool = False,
) -> Played:
    """Play one game of ``table`` from ``seed``, seat ``i`` played by policy ``seats[i]``;
    :class:`GameCrash` naming all four if the engine or a policy fails."""
    try:
        return _play_seed(game, table, seats, seed, coverage=coverage)
    except PnpError:
        raise
    except Exception as error:
        raise GameCrash(
            f"{type(error).__name__}: {error}, in {game.slug} table {table.name!r} with "
            f"seats {', '.join(seats)}, seed {seed}"
        ) from error


def _play_seed(
    game: Game, table: Table, seats: Sequence[str], seed: int, *, coverage: bool
) -> Played:
    rules = table.rules
    policies = [make_policy(game, name) for name in seats]
    rng = random.Random(seed)
    first = rules.initial_state(rng)
    covered: set[str] = set()
    observe = None
    if coverage and game.covered is not None:
        covered_by = game.covered

        def observe(before: Any, action: Any, after: Any) -> None:
            covered.update(covered_by(rules, before, action, after))

    record = play_game(
        rules,
        policies,
        rng,
        table.max_steps,
        max_turns=table.max_turns,
        observe=observe,
        state=first,
    )
    if record.capped:
        scores: tuple[float, ...] = (0.0,) * rules.num_players
        winners: frozenset[int] = frozenset()
    else:
        assert record.outcome is not None
        winners = record.outcome.winners
        scorer = game.score if game.score is not None else terminal_scores
        scores = tuple(float(value) for value in scorer(rules, record.final_state))
    seat_factors = game.seat_factors(rules, first) if game.seat_factors is not None else {}
    game_factors = game.game_factors(rules, first) if game.game_factors is not None else {}
    return Played(
        seed=seed,
        winners=winners,
        scores=scores,
        turns=record.turns,
        steps=record.steps,
        capped=record.capped,
        capped_at=rules.notation(record.final_state) if record.capped else "",
        seat_factors=tuple((name, tuple(labels)) for name, labels in sorted(seat_factors.items())),
        game_factors=tuple(sorted(game_factors.items())),
        covered=frozenset(covered),
    )


def play_many(
    game: Game,
    table: Table,
    seats: Sequence[str] | Callable[[int], Sequence[str]],
    games: int,
    seed: int,
    *,
    coverage: bool = False,
    workers: int | None = None,
    ray_address: str | None = None,
    use_ray: bool = False,
) -> list[Played]:
    """``games`` seeded games of one table; ``seats`` may depend on the game's index (to
    rotate a policy round the table). Identical results on any number of processes."""
    seeds = game_seeds(seed, games)
    index = {value: position for position, value in enumerate(seeds)}

    def play(one: int) -> Played:
        chosen = seats(index[one]) if callable(seats) else seats
        return play_seed(game, table, chosen, one, coverage=coverage)

    if use_ray:
        return run_on_ray(play, seeds, address=ray_address)
    return run_seeds(play, seeds, workers=workers)


# -- liveness -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ending:
    """What the search of a capped position found."""

    verdict: str
    """'ends' (a continuation finishes), 'endless' (proved: every reachable position was
    visited and none is finished) or 'unknown' (the search ran out of budget)."""
    detail: str


def find_ending(
    rules: Rules[Any, Any],
    state: Any,
    rng: random.Random,
    *,
    playouts: int = ENDING_PLAYOUTS,
    playout_steps: int = 2_000,
    max_states: int = ENDING_STATES,
) -> Ending:
    """Is there any way to finish the game from ``state``? Random playouts first (cheap, and
    they usually find one), then an exhaustive search of every position reachable through any
    action or chance outcome, keyed by notation so repeated positions count once."""
    for _attempt in range(playouts):
        current, steps = state, 0
        while not rules.is_terminal(current) and steps < playout_steps:
            if rules.is_chance(current):
                action = rules.sample_chance(current, rng)
            else:
                actions = rules.legal_actions(current)
                action = actions[int(rng.random() * len(actions))]
            current = rules.apply(current, action)
            steps += 1
        if rules.is_terminal(current):
            return Ending("ends", f"a random continuation ends it in {steps} steps")
    seen = {rules.notation(state)}
    frontier = [state]
    while frontier:
        current = frontier.pop()
        for action in rules.legal_actions(current):
            after = rules.apply(current, action)
            if rules.is_terminal(after):
                return Ending("ends", f"a continuation ends it (searched {len(seen)} positions)")
            key = rules.notation(after)
            if key not in seen:
                if len(seen) >= max_states:
                    return Ending(
                        "unknown",
                        f"no ending found in {playouts} random continuations and "
                        f"{max_states} positions",
                    )
                seen.add(key)
                frontier.append(after)
    return Ending("endless", f"all {len(seen)} reachable positions visited, none ends the game")


@dataclass(frozen=True)
class TableRun:
    """The games of one table with one line-up of policies."""

    table: str
    policy: str
    played: tuple[Played, ...]

    @property
    def capped(self) -> list[Played]:
        return [one for one in self.played if one.capped]


def check_liveness(
    findings: Findings,
    game: Game,
    tables: Sequence[Table],
    runs: Sequence[TableRun],
    *,
    seed: int,
) -> None:
    """A capped game is an error with its seed and position; the position is searched for an
    ending, and one without any is reported as an endless position."""
    by_name = {table.name: table for table in tables}
    for run in runs:
        capped = run.capped
        if not capped:
            continue
        table = by_name[run.table]
        first = capped[0]
        ending = find_ending(
            table.rules, table.rules.from_notation(first.capped_at), random.Random(seed)
        )
        prefix = "endless position" if ending.verdict == "endless" else "a game did not end"
        seats = [run.policy] * table.rules.num_players
        written = write_capped_record(game, table, seats, first.seed, f"{prefix}: {ending.detail}")
        findings.error(
            None,
            f"{prefix}: table {run.table!r}, policy {run.policy}: {len(capped)} of "
            f"{len(run.played)} games hit the cap ({table.max_steps} steps"
            + (f" or {table.max_turns} turns" if table.max_turns else "")
            + f"); seed {first.seed} stopped at {first.capped_at!r}; {ending.detail}"
            + (f"; watch it: pnp play {game.slug} --replay {written}" if written else ""),
        )


RECORDS_FOLDER = "records"
"""Where, in a game's output folder, the validator writes the record of a capped game."""


def record_seed(
    game: Game, table: Table, seats: Sequence[str], seed: int, note: str = ""
) -> GameRecordFile:
    """The record of the game :func:`play_seed` plays (the same policies, seed and caps), with
    every action, chance outcomes included: ``pnp play --replay`` steps through it."""
    rules = table.rules
    rng = random.Random(seed)
    first = rules.initial_state(rng)
    record = play_game(
        rules,
        [make_policy(game, name) for name in seats],
        rng,
        table.max_steps,
        max_turns=table.max_turns,
        record_actions=True,
        state=first,
    )
    return record_of(game.slug, table.name, seats, seed, record.actions, note)


def write_capped_record(
    game: Game, table: Table, seats: Sequence[str], seed: int, note: str
) -> str:
    """Write the record of a capped game to ``output/<game>/records/`` and return its path as
    a message shows it; empty when it cannot be written (the finding stands without it)."""
    name = f"{table.name}-{'-'.join(dict.fromkeys(seats))}-seed{seed}".replace(" ", "-")
    path = default_output_root() / game.slug / RECORDS_FOLDER / f"{name.replace(':', '_')}.pnpgame"
    try:
        write_record(path, record_seed(game, table, seats, seed, note))
    except OSError:
        return ""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# -- coverage -------------------------------------------------------------------------------


def check_coverage(
    findings: Findings, game: Game, model: Any, runs: Iterable[TableRun]
) -> tuple[int, int]:
    """Every coverage item of the content was exercised by some game; returns (covered, all)."""
    if game.coverage_items is None or game.covered is None:
        return 0, 0
    items = game.coverage_items(model)
    seen: set[str] = set()
    for run in runs:
        for one in run.played:
            seen |= one.covered
    missing = sorted(set(items) - seen)
    for item in missing:
        findings.error(
            items[item], f"never exercised in simulated play: {item} (no game played it)"
        )
    return len(items) - len(missing), len(items)


# -- balance --------------------------------------------------------------------------------


def seat_rates(played: Sequence[Played], players: int) -> list[Rate]:
    """Each seat's win rate."""
    return [Rate(sum(one.won(seat) for one in played), len(played)) for seat in range(players)]


def factor_rates(played: Sequence[Played], factor: str, players: int) -> dict[str, Rate]:
    """Win rate per label of a factor: per seat for seat factors ('seat' is the seat itself),
    per game for game factors (a solo or cooperative win counts once).

    The seats of one game that share a label (the two seats of a side, the half of a table)
    are one cluster, not independent trials: the interval takes its width from how games
    differ (:meth:`Rate.clustered`), so a side of two seats that win together is not judged
    as if it had played twice as many games."""
    clusters: defaultdict[str, list[tuple[int, int]]] = defaultdict(list)
    for one in played:
        if factor == "seat":
            labels: tuple[str, ...] | None = tuple(str(seat) for seat in range(players))
        else:
            labels = one.seat_factor(factor)
        if labels is not None:
            wins: Counter[str] = Counter()
            seats: Counter[str] = Counter()
            for seat, label in enumerate(labels):
                seats[label] += 1
                wins[label] += one.won(seat)
            for label, count in seats.items():
                clusters[label].append((wins[label], count))
            continue
        label_of_game = one.game_factor(factor)
        if label_of_game is not None:
            clusters[label_of_game].append((int(bool(one.winners)), 1))
    return {label: Rate.clustered(clusters[label]) for label in sorted(clusters, key=label_order)}


def label_order(label: str) -> tuple[int, int, str]:
    """Seat numbers in numeric order (0, 1, 2, …, 10), then other labels alphabetically."""
    return (0, int(label), "") if label.isdigit() else (1, 0, label)


def matchups(played: Sequence[Played], factor: str) -> dict[tuple[str, str], Rate]:
    """Win rate of a seat labelled ``a`` at a table with an opponent labelled ``b``."""
    wins: Counter[tuple[str, str]] = Counter()
    trials: Counter[tuple[str, str]] = Counter()
    for one in played:
        labels = one.seat_factor(factor)
        if labels is None:
            continue
        for seat, mine in enumerate(labels):
            for other, theirs in enumerate(labels):
                if other != seat:
                    trials[mine, theirs] += 1
                    wins[mine, theirs] += one.won(seat)
    return {pair: Rate(wins[pair], trials[pair]) for pair in sorted(trials)}


class Verdict(enum.Enum):
    """Where the games played so far leave one figure of a promise, at 95 %."""

    KEPT = "kept"
    """The whole interval lies inside the promise (a ladder step: significantly harder)."""
    BROKEN = "broken"
    """The whole interval lies outside it (a ladder step: significantly easier)."""
    OPEN = "open"
    """Not decided yet: more games would tell."""


@dataclass(frozen=True)
class Figure:
    """One figure a promise is judged by (a label's win rate on a table, a table's win rate,
    a step of a difficulty ladder) and where the games leave it."""

    where: Location
    tables: tuple[str, ...]
    """The tables whose games decide it (two for a ladder step)."""
    what: str
    verdict: Verdict
    outside: bool
    """The point estimate lies outside the promise (always False for a ladder step)."""
    detail: str
    """The figure with its interval and the promise, or the sign test."""
    ladder: bool = False
    rate: Rate | None = None
    """The win rate a rate figure is (None for a ladder step)."""
    band: tuple[float, float] = (0.0, 1.0)
    """The promise a rate figure is held to: lowest and highest win rate."""
    label: str = ""
    """The factor's label the figure is about (a character, a seat), when it is one."""
    factor: str = ""
    """The factor the figure's promise is about (character, mission:officer), when one."""

    @property
    def games(self) -> str:
        return ", ".join(repr(table) for table in self.tables)


def _rate_figure(
    where: Location,
    table: str,
    what: str,
    rate: Rate,
    low: float,
    high: float,
    label: str = "",
    factor: str = "",
) -> Figure:
    interval_low, interval_high = rate.interval
    if interval_high < low or interval_low > high:
        verdict = Verdict.BROKEN
    elif low <= interval_low and interval_high <= high:
        verdict = Verdict.KEPT
    else:
        verdict = Verdict.OPEN
    return Figure(
        where,
        (table,),
        what,
        verdict,
        outside=not low <= rate.value <= high,
        detail=f"{rate}, promised {low:.0%}–{high:.0%}",
        rate=rate,
        band=(low, high),
        label=label,
        factor=factor,
    )


def judge_promises(
    balance: Balance,
    runs: Mapping[str, Sequence[Played]],
    players: Mapping[str, int],
    looks: Mapping[str, int] | None = None,
    *,
    final: bool = True,
) -> tuple[list[Figure], list[tuple[Location, str]]]:
    """Every figure of every promise of ``balance`` on the games of each table (``runs`` by
    table), with its verdict; and the promises that name a table there is none of.

    ``looks`` by table: how many times a sequential run judges the table (:func:`looks`). The
    95 % is shared among them (:func:`z_over_looks`), so a run that stops at the first decided
    look is wrong no more often than one judged once. A difficulty ladder's step is judged once,
    on the paired games at the end (``final``), at its own alpha: before that it is open, and
    its tables play on (a step shown at 0.05 on 300 paired games needs 0.01 over five looks)."""
    figures: list[Figure] = []
    unknown: list[tuple[Location, str]] = []

    def at_looks(rate: Rate, table: str) -> Rate:
        return replace(rate, z=z_over_looks(looks.get(table, 1) if looks else 1))

    for spread in balance.spreads:
        for table, played in runs.items():
            rates = {
                label: at_looks(rate, table)
                for label, rate in factor_rates(played, spread.factor, players[table]).items()
            }
            if not rates:
                continue
            is_game_factor = all(one.seat_factor(spread.factor) is None for one in played) and (
                spread.factor != "seat"
            )
            if spread.fair is not None:
                fair = spread.fair
            elif is_game_factor:
                fair = sum(bool(one.winners) for one in played) / len(played)
            else:
                # Each seat's fair share of the wins there were: 1/n when every game has one
                # winner, more where several win together (a camp), less where games are drawn.
                fair = sum(len(one.winners) for one in played) / (len(played) * players[table])
            for label, rate in rates.items():
                figures.append(
                    _rate_figure(
                        spread.where,
                        table,
                        f"table {table!r}: {spread.factor} {label} wins",
                        rate,
                        max(0.0, fair - spread.tolerance),
                        min(1.0, fair + spread.tolerance),
                        label,
                        spread.factor,
                    )
                )
    for band in balance.bands:
        banded = runs.get(band.table)
        if banded is None:
            unknown.append((band.where, f"balance band names unknown table {band.table!r}"))
            continue
        rate = at_looks(Rate(sum(bool(one.winners) for one in banded), len(banded)), band.table)
        figures.append(
            _rate_figure(
                band.where, band.table, f"table {band.table!r} win rate", rate, band.min, band.max
            )
        )
    if balance.ladder is not None:
        ladder = balance.ladder
        for easier, harder in itertools.pairwise(ladder.tables):
            if easier not in runs or harder not in runs:
                missing = easier if easier not in runs else harder
                unknown.append((ladder.where, f"difficulty ladder names unknown table {missing!r}"))
                continue
            step = _ladder_step(ladder.where, ladder.alpha, easier, harder, runs)
            figures.append(step if final else replace(step, verdict=Verdict.OPEN))
    return figures, unknown


def _ladder_step(
    where: Location,
    alpha: float,
    easier: str,
    harder: str,
    runs: Mapping[str, Sequence[Played]],
) -> Figure:
    """One step of a difficulty ladder: on the seeds both tables played, games won on the
    easier table and lost on the harder against the reverse, by one-sided sign tests."""
    easy_wins = {one.seed: bool(one.winners) for one in runs[easier]}
    more = fewer = 0
    for one in runs[harder]:
        if one.seed in easy_wins and easy_wins[one.seed] != bool(one.winners):
            more += easy_wins[one.seed]
            fewer += bool(one.winners)
    harder_p, easier_p = sign_test(more, fewer), sign_test(fewer, more)
    if harder_p <= alpha:
        verdict = Verdict.KEPT
    elif easier_p <= alpha:
        verdict = Verdict.BROKEN
    else:
        verdict = Verdict.OPEN
    easier_note = (
        f", {harder!r} significantly easier (p = {easier_p:.3f})"
        if verdict is Verdict.BROKEN
        else ""
    )
    return Figure(
        where,
        (easier, harder),
        f"difficulty ladder: {harder!r} against {easier!r}",
        verdict,
        outside=False,
        detail=f"won only on {easier!r}: {more} seeds, only on {harder!r}: {fewer}; "
        f"sign test p = {harder_p:.3f}{easier_note}, needs < {alpha}",
        ladder=True,
    )


def check_balance(
    findings: Findings,
    balance: Balance,
    runs: Mapping[str, Sequence[Played]],
    players: Mapping[str, int],
    looks: Mapping[str, int] | None = None,
) -> list[Figure]:
    """Each promise of ``balance`` against the games of each table (``runs`` by table), as the
    balance run reports them: a figure whose interval lies outside its promise is an error; one
    outside by its point estimate only is a warning asking for more games; a ladder step not
    shown harder is an error. ``looks``: as :func:`judge_promises`. Returns the figures."""
    figures, unknown = judge_promises(balance, runs, players, looks)
    for where, message in unknown:
        findings.error(where, message)
    for figure in figures:
        if figure.ladder:
            if figure.verdict is not Verdict.KEPT:
                harder, easier = figure.tables[1], figure.tables[0]
                findings.error(
                    figure.where,
                    f"difficulty ladder: {harder!r} is not significantly harder than "
                    f"{easier!r} ({figure.detail})",
                )
        elif figure.verdict is Verdict.BROKEN:
            shared = max((looks or {}).get(table, 1) for table in figure.tables)
            interval = "95 % interval" if shared == 1 else f"95 % over {shared} looks"
            findings.error(figure.where, f"{figure.what}: {figure.detail} ({interval})")
        elif figure.outside:
            findings.warning(
                figure.where,
                f"{figure.what}: {figure.detail}; the interval still reaches the promise, play "
                "more games",
            )
    return figures


# -- head to head ---------------------------------------------------------------------------


DUEL_ALPHA = 0.05
"""The chance a sequential duel calls a difference that is not there, over all its looks."""


@dataclass(frozen=True)
class HeadToHead:
    """The strong player in one seat against the game's sensible policy in the others,
    compared on the same seeds with the sensible policy in every seat."""

    table: str
    challenger: Rate
    baseline: Rate
    better: int
    worse: int
    looks: int = 1
    """Looks the duel could take (a sequential duel's threshold is shared among them)."""

    @property
    def games(self) -> int:
        return self.challenger.trials

    @property
    def p_value(self) -> float:
        return sign_test(self.better, self.worse)

    @property
    def threshold(self) -> float:
        """The p a look must be under to decide: 5 % shared equally among the looks
        (Bonferroni), so stopping at the first decided look keeps the 5 % overall."""
        return DUEL_ALPHA / self.looks

    @property
    def verdict(self) -> str:
        """``stronger``, ``weaker`` (each significant at the duel's threshold) or ``undecided``."""
        if self.p_value < self.threshold:
            return "stronger"
        if sign_test(self.worse, self.better) < self.threshold:
            return "weaker"
        return "undecided"

    def __str__(self) -> str:
        return (
            f"{self.table}: strong {self.challenger} vs sensible {self.baseline} in the same "
            f"seat on the same seeds, {self.games} games (sign test p = {self.p_value:.3g}; "
            f"{self.verdict} at p < {self.threshold:.3g})"
        )


def head_to_head(
    game: Game,
    table: Table,
    games: int,
    seed: int,
    *,
    challenger: str = "strong",
    opponent: str = "sensible",
    workers: int | None = None,
    sequential: bool = False,
) -> HeadToHead:
    """``challenger`` rotates round the table against ``opponent``; each game is paired with
    the all-``opponent`` game of the same seed, and the challenger's seat is compared.

    ``sequential``: up to ``games`` pairs, looked at after :data:`FIRST_LOOK` and at each
    doubling (:func:`looks`); the duel stops at the first look where either player is
    significantly better, as a designer stops a playtest once it has shown what it would.
    Game ``i`` plays the same seed whatever the stage, so a stopped duel is the prefix of
    the full one."""
    players = table.rules.num_players
    sizes = looks(games) if sequential else [games]
    base_seats = [opponent] * players
    seeds = game_seeds(seed, games)

    def play(index: int) -> tuple[bool, bool]:
        seats = list(base_seats)
        seats[index % players] = challenger
        one = seeds[index]
        trial = play_seed(game, table, seats, one)
        base = play_seed(game, table, base_seats, one)
        return trial.won(index % players), base.won(index % players)

    pairs: list[tuple[bool, bool]] = []
    for size in sizes:
        pairs += run_seeds(play, range(len(pairs), size), workers=workers, min_per_worker=1)
        duel = HeadToHead(
            table=table.name,
            challenger=Rate(sum(won for won, _ in pairs), len(pairs)),
            baseline=Rate(sum(base for _, base in pairs), len(pairs)),
            better=sum(won and not base for won, base in pairs),
            worse=sum(base and not won for won, base in pairs),
            looks=len(sizes),
        )
        if duel.verdict != "undecided":
            break
    return duel  # sizes is never empty: looks() ends with ``games``


# -- the validation run ---------------------------------------------------------------------


@dataclass
class PlayReport:
    """What ``pnp validate`` prints and ``--format json`` carries about play."""

    runs: list[TableRun] = field(default_factory=list)
    coverage: tuple[int, int] = (0, 0)

    def lines(self) -> list[str]:
        out: list[str] = []
        grouped: dict[str, list[TableRun]] = defaultdict(list)
        for run in self.runs:
            grouped[run.table].append(run)
        for table, runs in grouped.items():
            parts = []
            for run in runs:
                ended = len(run.played) - len(run.capped)
                parts.append(f"{run.policy} {ended}/{len(run.played)} ended")
            out.append(f"{table}: " + ", ".join(parts))
        done, total = self.coverage
        if total:
            out.append(f"coverage: {done}/{total} content items exercised")
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "liveness": [
                {
                    "table": run.table,
                    "policy": run.policy,
                    "games": len(run.played),
                    "capped": [one.seed for one in run.capped],
                }
                for run in self.runs
            ],
            "coverage": {"exercised": self.coverage[0], "items": self.coverage[1]},
        }


LIVENESS_GAMES = {"random": 12, "strong": 1}
"""Games per table and policy in the default run; the game's own policies play
``Game.default_games // 4`` (at least 8). The strong player is slow, so one game per table
shows it finishes; the balance run plays it at scale."""
LIVENESS_SEARCH = 2
"""Playouts per decision of the search player in the default run. A full-strength game costs
minutes for the long games (arena-tales: ~1 s a decision at 100 playouts, 300 decisions), and
the default run is what CI runs on every change (within 10 s for all five games); liveness asks
that the search player's games end, not that it plays at full strength: ``--balance`` and
``pnp simulate --duel`` play it at full strength. At this budget the halving player never
leaves its rollout policy's move (no action gets the two paired playouts it needs to beat it),
so it plays no playouts at all (``HalvingSearchPolicy._anchor_is_certain``); an ISMCTS player
plays its two."""

SCREEN_GAMES = 30
"""Games a table that plain ``pnp validate`` plays with the policy the balance promises are
made for (its liveness and coverage games too), and holds the promises against: enough to show
a grossly unfair edit beyond doubt (a character winning nine games in ten), a second or so of
a game's validation."""
SCREEN_CONFIRM = 120
"""Games a table is played on to when a figure's interval excludes its promise on the first
:data:`SCREEN_GAMES`: the error stands only if the interval still excludes it on these. With a
few hundred figures judged on 30 games, some fair figure lands outside by chance on every
other run (MineVenture's noor won 12 of its first 20 games at seed 1, 27 % over 300); a second
look on four times the games keeps such a chance from failing CI while an unfair edit fails it
either way. Only the tables that need it play on."""

LIVENESS_DEPTH = 12
"""Decisions a playout of that search player makes at most before the game's evaluation hint
scores it (a game's strong player may play to the end: Dragon Hoard's does)."""


def liveness_search(game: Game) -> str:
    """The strong player's name in the default run: few, short playouts (see above)."""
    budget = min(LIVENESS_SEARCH, game.search.iterations)
    if game.evaluate is None:
        return f"strong:{budget}"
    depth = min(LIVENESS_DEPTH, game.search.depth or LIVENESS_DEPTH)
    return f"strong:{budget}:{depth}"


@dataclass(frozen=True)
class PlayPlan:
    """The games of :func:`check_play` for one game: every (table, policy) run with its seeds,
    numbered as one list of jobs, so they can run in any process, in any order, and be
    judged together. The same plan for the same game, content, count and seed."""

    game: Game
    tables: list[Table]
    runs: list[tuple[Table, str, list[int]]]
    jobs: list[tuple[int, int]]
    """(run, seed) of each game to play."""

    def play(self, job: int) -> Played:
        run, one = self.jobs[job]
        table, name, _ = self.runs[run]
        seats = [name] * table.rules.num_players
        return play_seed(self.game, table, seats, one, coverage=search_budget(name) is None)

    def judge(
        self, findings: Findings, model: Any, played: Sequence[Played], *, seed: int
    ) -> PlayReport:
        """Liveness and coverage of the plan's games, ``played[job]`` the game of each job."""
        report = PlayReport()
        start = 0
        for table, name, seeds in self.runs:
            report.runs.append(
                TableRun(table.name, name, tuple(played[start : start + len(seeds)]))
            )
            start += len(seeds)
        check_liveness(findings, self.game, self.tables, report.runs, seed=seed)
        report.coverage = check_coverage(findings, self.game, model, report.runs)
        return report

    def games_of(self, policy: str, played: Sequence[Played]) -> dict[str, list[Played]]:
        """The plan's games of ``policy``, by table (``played[job]`` the game of each job)."""
        out: dict[str, list[Played]] = {}
        start = 0
        for table, name, seeds in self.runs:
            if name == policy:
                out[table.name] = list(played[start : start + len(seeds)])
            start += len(seeds)
        return out


def plan_play(game: Game, model: Any, *, games: int | None, seed: int) -> PlayPlan:
    """Every table with every policy: ``games`` games each, or the default run's counts
    (:data:`LIVENESS_GAMES`; the strong player at :func:`liveness_search`'s strength)."""
    tables = game_tables(game, model)
    runs: list[tuple[Table, str, list[int]]] = []
    for table in tables:
        for name in policy_names(game):
            count = (
                games
                if games is not None
                else LIVENESS_GAMES.get(name, game.play_games or max(8, game.default_games // 4))
            )
            if name == "strong":
                count = min(count, LIVENESS_GAMES["strong"])
                name = liveness_search(game)
            elif games is None and name == promised_policy(model):
                count = max(count, SCREEN_GAMES)
            runs.append((table, name, game_seeds(seed, count)))
    jobs = [(run, one) for run, (_, _, seeds) in enumerate(runs) for one in seeds]
    return PlayPlan(game, tables, runs, jobs)


def promised_policy(model: Any) -> str | None:
    """The policy the content's balance promises are made for; None without promises."""
    promises = getattr(model, "balance", None)
    return promises.policy if isinstance(promises, Balance) else None


def check_play(
    findings: Findings,
    game: Game,
    model: Any,
    *,
    games: int | None,
    seed: int,
    workers: int | None = None,
) -> PlayReport:
    """Liveness and coverage for every table and policy of one game.

    Every game of every (table, policy) run goes through one batch, so the worker processes
    start once per game rather than once per run (a game like Deadline 99 has 38 tables)."""
    plan = plan_play(game, model, games=games, seed=seed)
    played = run_seeds(plan.play, range(len(plan.jobs)), workers=workers)
    return plan.judge(findings, model, played, seed=seed)


FIRST_LOOK = 25
"""Games a table plays before a sequential balance run first asks whether its promises are
decided; each later look doubles the games, up to the promises' ``balance.games``."""


def looks(cap: int, first: int = FIRST_LOOK) -> list[int]:
    """The game counts at which a sequential run judges a table: ``first``, doubling, then
    ``cap`` (few looks, so looking often does not make a chance breach likely)."""
    sizes: list[int] = []
    size = max(1, first)
    while size < cap:
        sizes.append(size)
        size *= 2
    return [*sizes, cap]


def play_in_stages(
    game: Game,
    tables: Sequence[Table],
    policy: str,
    sizes: Sequence[int],
    *,
    seed: int,
    go_on: Callable[[Mapping[str, Sequence[Played]]], set[str]],
    start: Mapping[str, Sequence[Played]] | None = None,
    workers: int | None = None,
    use_ray: bool = False,
    ray_address: str | None = None,
) -> dict[str, list[Played]]:
    """Each table played with ``policy`` in every seat, in stages: up to ``sizes[0]`` games,
    then, for the tables ``go_on(runs)`` names, up to ``sizes[1]``, and so on. Game ``i`` of
    every table plays from ``game_seeds(seed, n)[i]`` whatever the stage (so tables stay paired
    and a run stopped early is the prefix of the full one); ``start`` holds games already
    played. Each stage is one batch over every table still playing, on every core or on Ray."""
    runs = {table.name: list(start.get(table.name, ())) if start else [] for table in tables}
    by_name = {table.name: table for table in tables}
    playing = list(by_name)
    for size in sizes:
        seeds = game_seeds(seed, size)
        # Round the tables, so a chunk of the batch mixes long and short games.
        jobs = [
            (name, one)
            for index, one in enumerate(seeds)
            for name in playing
            if index >= len(runs[name])
        ]
        if jobs:

            def play(job: int, jobs: list[tuple[str, int]] = jobs) -> Played:
                name, one = jobs[job]
                table = by_name[name]
                return play_seed(game, table, [policy] * table.rules.num_players, one)

            if use_ray:
                results = run_on_ray(play, range(len(jobs)), address=ray_address)
            else:
                results = run_seeds(play, range(len(jobs)), workers=workers, min_per_worker=1)
            for (name, _), result in zip(jobs, results, strict=True):
                runs[name].append(result)
        playing = [name for name in playing if name in go_on(runs)]
        if not playing:
            break
    return runs


def _open_tables(
    balance: Balance, players: Mapping[str, int], looks: Mapping[str, int]
) -> Callable[..., set[str]]:
    """The tables some figure of a promise is still undecided on (a sequential run's rule),
    each look judged with its share of the 95 %."""

    def go_on(runs: Mapping[str, Sequence[Played]]) -> set[str]:
        figures, _ = judge_promises(balance, runs, players, looks, final=False)
        return {
            table for figure in figures if figure.verdict is Verdict.OPEN for table in figure.tables
        }

    return go_on


def balance_runs(
    game: Game,
    model: Any,
    balance: Balance,
    *,
    games: int | None = None,
    seed: int,
    sequential: bool = False,
    workers: int | None = None,
    use_ray: bool = False,
    ray_address: str | None = None,
    only: Collection[str] | None = None,
) -> tuple[dict[str, list[Played]], dict[str, int]]:
    """The games the balance promises are judged on: every table (or those named in
    ``only``), ``balance.policy`` in every seat, the same seeds on every table (so ladder steps
    are paired). ``games`` a table; or, ``sequential``, up to ``balance.games``, a table
    stopping once every figure of every promise on it is decided at 95 % over all its looks
    (:class:`Verdict`, :func:`judge_promises`), as a designer stops a playtest."""
    tables = [table for table in game_tables(game, model) if only is None or table.name in only]
    players = {table.name: table.rules.num_players for table in tables}
    count = games if games is not None else balance.games
    sizes = looks(count) if sequential else [count]
    runs = play_in_stages(
        game,
        tables,
        balance.policy,
        sizes,
        seed=seed,
        go_on=_open_tables(balance, players, {name: len(sizes) for name in players}),
        workers=workers,
        use_ray=use_ray,
        ray_address=ray_address,
    )
    return runs, players


# -- the screen of plain pnp validate ---------------------------------------------------------


@dataclass(frozen=True)
class Screen:
    """What plain ``pnp validate`` found of the balance promises on the games it plays."""

    policy: str
    games: Mapping[str, int]
    """Games each table was judged on."""
    broken: int
    unsure: int
    """Figures outside their promise by the point estimate only (too few games to tell)."""

    def lines(self) -> list[str]:
        counts = sorted(set(self.games.values()))
        played = " or ".join(str(count) for count in counts)
        verdict = (
            f"{self.broken} figure{'s' if self.broken != 1 else ''} outside beyond doubt"
            if self.broken
            else "none broken beyond doubt"
        )
        unsure = (
            f"; {self.unsure} outside on too few games to tell (--balance decides)"
            if self.unsure
            else ""
        )
        return [f"balance promises ({self.policy}, {played} games a table): {verdict}{unsure}"]

    def as_json(self) -> dict[str, Any]:
        return {
            "policy": self.policy,
            "games": dict(self.games),
            "broken": self.broken,
            "unsure": self.unsure,
        }


def screen_balance(
    findings: Findings,
    game: Game,
    model: Any,
    balance: Balance,
    played: Mapping[str, Sequence[Played]],
    *,
    seed: int,
    workers: int | None = None,
) -> Screen:
    """Hold ``balance`` against the games plain validate played with its policy (``played``
    by table, :data:`SCREEN_GAMES` each): a table where some figure's interval excludes its
    promise plays on to :data:`SCREEN_CONFIRM` games, and a figure still outside beyond doubt
    there is an error; one outside by its point estimate only there is a warning. Figures
    undecided on the first games are counted, not reported: 30 games cannot tell a fair
    figure from one a few points out."""
    tables = [table for table in game_tables(game, model) if table.name in played]
    players = {table.name: table.rules.num_players for table in tables}

    def suspect(runs: Mapping[str, Sequence[Played]]) -> set[str]:
        figures, _ = judge_promises(balance, runs, players)
        return {
            table
            for figure in figures
            if figure.verdict is Verdict.BROKEN
            for table in figure.tables
        }

    first = {name: list(games) for name, games in played.items() if name in players}
    confirm = suspect(first)
    runs = first
    if confirm:
        runs = play_in_stages(
            game,
            [table for table in tables if table.name in confirm],
            balance.policy,
            [SCREEN_CONFIRM],
            seed=seed,
            go_on=lambda runs: set(),
            start=first,
            workers=workers,
        )
        runs = {**first, **runs}
    figures, unknown = judge_promises(balance, runs, players)
    for where, message in unknown:
        findings.error(where, message)
    broken = unsure = 0
    for figure in figures:
        games = min(len(runs[table]) for table in figure.tables)
        on = f"on the {games} games a table pnp validate plays"
        if figure.verdict is Verdict.BROKEN:
            broken += 1
            what = figure.what
            if figure.ladder:
                what = (
                    f"difficulty ladder: {figure.tables[1]!r} is easier than {figure.tables[0]!r}"
                )
            findings.error(figure.where, f"{what}: {figure.detail} (95 % interval, {on})")
        elif figure.outside:
            unsure += 1
            if any(table in confirm for table in figure.tables):
                findings.warning(
                    figure.where,
                    f"{figure.what}: {figure.detail} ({on}); the interval still reaches the "
                    f"promise: pnp validate --balance plays up to {balance.games}",
                )
    return Screen(
        balance.policy, {name: len(games) for name, games in runs.items()}, broken, unsure
    )


@dataclass(frozen=True)
class BalanceRun:
    """The games of a balance run, by table, with what the report needs to present them."""

    policy: str
    seed: int
    runs: Mapping[str, Sequence[Played]]
    players: Mapping[str, int]
    factors: tuple[str, ...]
    """The factors the report breaks win rates down by ('seat' first)."""
    cap: int | None = None
    """The games a table plays at most in a sequential run (None: every table played all)."""
    policies: Mapping[str, str] = field(default_factory=dict)
    """The tables played with another policy than ``policy`` (a strong run's other tables)."""
    caps: Mapping[str, int] = field(default_factory=dict)
    """The tables whose most games differ from ``cap`` (a strong run's strong tables)."""
    looks: Mapping[str, int] = field(default_factory=dict)
    """How often each table was judged (a sequential run's looks; 1 when absent): its
    promises were decided at 95 % over all of them."""

    def played_by(self, table: str) -> str:
        return self.policies.get(table, self.policy)

    def lines(self) -> list[str]:
        out: list[str] = []
        if self.policies:
            own = [table for table in self.runs if table not in self.policies]
            others = sorted(set(self.policies.values()))
            out.append(
                f"balance: {self.policy} on {len(own)} of {len(self.runs)} tables "
                f"({', '.join(own)}); the other {len(self.policies)} with the "
                f"{' and '.join(others)} policy the promises are made for (balance.strong)"
            )
        for table, played in self.runs.items():
            lengths = Lengths.of([one.turns for one in played if not one.capped])
            capped = sum(one.capped for one in played)
            most = self.caps.get(table, self.cap)
            judged = self.looks.get(table, 1)
            stopped = (
                f" of at most {most}, every promise decided at 95 % over {judged} looks"
                if most is not None and len(played) < most
                else ""
            )
            out.append(
                f"balance {table} ({self.played_by(table)}, {len(played)} games{stopped}): "
                f"won {Rate(sum(bool(one.winners) for one in played), len(played))}, "
                f"turns median {lengths.median:g} longest {lengths.longest}"
                + (f", {capped} capped" if capped else "")
            )
            for factor in self.factors:
                rates = self.judged_rates(table, factor)
                if len(rates) > 1:
                    shown = "; ".join(f"{label} {rate}" for label, rate in rates.items())
                    out.append(f"  by {factor}: {shown}")
        return out

    def judged_rates(self, table: str, factor: str) -> dict[str, Rate]:
        """The win rate per label of ``factor`` at ``table``, with the interval its promises
        were judged by (wider than 95 %'s after several looks): what is shown is what was
        judged."""
        z = z_over_looks(self.looks.get(table, 1))
        return {
            label: replace(rate, z=z)
            for label, rate in factor_rates(self.runs[table], factor, self.players[table]).items()
        }

    def as_json(self) -> dict[str, Any]:
        def rate(value: Rate) -> dict[str, Any]:
            low, high = value.interval
            return {
                "wins": value.successes,
                "games": value.trials,
                "rate": round(value.value, 4),
                "low": round(low, 4),
                "high": round(high, 4),
            }

        return {
            "policy": self.policy,
            "seed": self.seed,
            "tables": {
                table: {
                    "policy": self.played_by(table),
                    "games": len(played),
                    "looks": self.looks.get(table, 1),
                    "capped": sum(one.capped for one in played),
                    "won": rate(Rate(sum(bool(one.winners) for one in played), len(played))),
                    "by": {
                        factor: {
                            label: rate(value)
                            for label, value in self.judged_rates(table, factor).items()
                        }
                        for factor in self.factors
                    },
                }
                for table, played in self.runs.items()
            },
        }


def factors_of(runs: Mapping[str, Sequence[Played]], balance: Balance | None) -> tuple[str, ...]:
    """'seat', then every factor the games report, then any a promise names."""
    names: list[str] = ["seat"]
    for played in runs.values():
        for one in played[:1]:
            names += [name for name, _ in one.seat_factors] + [name for name, _ in one.game_factors]
    if balance is not None:
        names += [spread.factor for spread in balance.spreads]
    return tuple(dict.fromkeys(names))


def strong_plan(
    balance: Balance, policy: str, names: Sequence[str]
) -> tuple[dict[str, str], dict[str, int]]:
    """Which policy plays each table of a balance run with ``policy``, and how many games a
    table plays at most: ``policy`` on every table, except that a strong run of promises made
    for another policy plays the strong player only on ``balance.strong``'s tables (up to its
    games) and the promises' own policy on the rest (the strong player costs a hundred times
    the sensible policy's CPU a game; the content says which tables stand for the rest)."""
    strong = balance.strong
    if strong is None or search_request(policy) is None or search_request(balance.policy):
        return dict.fromkeys(names, policy), dict.fromkeys(names, balance.games)
    chosen = set(strong.tables)
    policies = {name: policy if name in chosen else balance.policy for name in names}
    caps = {name: strong.games if name in chosen else balance.games for name in names}
    return policies, caps


def strong_games_at_most(game: Game, model: Any, policy: str | None, games: int | None) -> int:
    """The strong player's games a balance run with ``policy`` (the promises' own when None)
    may play: ``games``, else the cap, on each table :func:`strong_plan` gives it; 0 for
    content without promises."""
    balance = getattr(model, "balance", None)
    if not isinstance(balance, Balance):
        return 0
    names = [table.name for table in game_tables(game, model)]
    policies, caps = strong_plan(balance, policy or balance.policy, names)
    return sum(
        games if games is not None else caps[name]
        for name in names
        if search_request(policies[name]) is not None
    )


def _check_strong_tables(
    findings: Findings, balance: Balance, names: Sequence[str], policies: Mapping[str, str]
) -> None:
    """A strong-table name that is no table, or a ladder split between two players (its
    steps compare tables on paired seeds, meaningless across policies), is a located error."""
    if balance.strong is None:
        return
    for name in balance.strong.tables:
        if name not in names:
            findings.error(
                balance.strong.where,
                f"balance.strong names unknown table {name!r} (tables: {', '.join(names)})",
            )
    ladder = balance.ladder
    if ladder is not None:
        players = {policies[name] for name in ladder.tables if name in policies}
        if len(players) > 1:
            findings.error(
                balance.strong.where,
                "balance.strong: a difficulty ladder's tables must all be strong tables or "
                f"none (its steps compare tables on paired games): {', '.join(ladder.tables)}",
            )


def judge_balance(
    findings: Findings,
    game: Game,
    model: Any,
    balance: Balance,
    *,
    games: int | None = None,
    seed: int,
    policy: str | None = None,
    workers: int | None = None,
    use_ray: bool = False,
    ray_address: str | None = None,
) -> BalanceRun:
    """Play the balance run and check every promise of ``balance`` (and that its games end).

    ``games`` a table when given; else sequentially, up to ``balance.games`` a table (a strong
    table of :func:`strong_plan`: up to ``balance.strong.games``), each table stopping once
    every figure of every promise on it is decided at 95 %."""
    chosen_policy = policy or balance.policy
    tables = game_tables(game, model)
    names = [table.name for table in tables]
    policies, caps = strong_plan(balance, chosen_policy, names)
    _check_strong_tables(findings, balance, names, policies)
    runs: dict[str, list[Played]] = {}
    players: dict[str, int] = {}
    # One run per (policy, cap): each a batch over its tables, on every core or on Ray.
    for played_by, cap in dict.fromkeys(zip(policies.values(), caps.values(), strict=True)):
        group = [name for name in names if (policies[name], caps[name]) == (played_by, cap)]
        group_runs, group_players = balance_runs(
            game,
            model,
            replace(balance, policy=played_by, games=cap),
            games=games,
            seed=seed,
            sequential=games is None,
            workers=workers,
            use_ray=use_ray,
            ray_address=ray_address,
            only=group,
        )
        runs.update(group_runs)
        players.update(group_players)
    runs = {name: runs[name] for name in names}
    # How often each table was judged: a sequential table at each of its looks.
    judged = {name: len(looks(caps[name])) if games is None else 1 for name in names}
    check_liveness(
        findings,
        game,
        tables,
        [TableRun(name, policies[name], tuple(played)) for name, played in runs.items()],
        seed=seed,
    )
    check_balance(findings, balance, runs, players, judged)
    return BalanceRun(
        chosen_policy,
        seed,
        runs,
        players,
        factors_of(runs, balance),
        cap=balance.games if games is None else None,
        policies={name: by for name, by in policies.items() if by != chosen_policy},
        caps={name: cap for name, cap in caps.items() if cap != balance.games}
        if games is None
        else {},
        looks=judged,
    )
