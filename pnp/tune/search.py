"""``pnp tune``: the smallest change of the tunable numbers that brings every balance promise
inside its band.

How a candidate is judged: the content with the candidate's numbers, loaded as the designer's
files would be, plays the same seeds on every table (common random numbers, so two candidates
differ by their numbers, not by luck). The figures broken on today's content are the targets
(with ``--warnings``, also those outside by the win rate alone); a candidate keeps the
promises when no figure's interval lies outside its promise and every target's win rate is
inside its band, and candidates are compared by how far, summed, they miss.

A sequential judge looks at a candidate several times (25 games a table, doubling, up to the
games asked for; :func:`pnp.validate.play.looks`) and stops it at the first look where a
figure lies outside its promise beyond doubt, the 95 % shared among the looks: such a
candidate cannot keep every promise, and most candidates a search tries are of that kind.
Today's content always plays every game (its figures are the targets and the "before").

How the change is found, cheapest first:

1. *Reach the bands.* A move shifts the numbers of one tunable entry together by 1, 2, 4…
   steps, to the bounds, up or down (one step of a number far out of line may change
   nothing). The entries whose items share a trait with a broken figure's subject (赤焰's
   cards share its colour) are tried first; the rest only when none of those helps. The best
   move is taken, and again, until every promise is kept or no move helps.
2. *Shrink the change.* Changed numbers are put back to their old values, half of them at a
   time, then one by one (as delta debugging does), keeping each revert that still keeps every
   promise; one number's change is folded into another of its entry while that holds; then
   each remaining number is moved a step back while that still holds. What is left is the
   change with the fewest numbers, then the smallest steps, that the search found (a local
   search: not proved the smallest there is).
3. *Confirm.* When budget is left, the proposal and today's content play the confirming
   policy (the strong player) on the tables of the broken figures, on shared seeds.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from pnp.content.loader import LoadedGame, load_game
from pnp.content.sources import Snapshot, tree_digest
from pnp.content.tuning import Number, content_tree, edited_files, splice, tunable_numbers
from pnp.content.yamlsource import MappingNode, ScalarNode, SequenceNode
from pnp.engines.stats import Rate
from pnp.errors import ContentError, PnpError
from pnp.model.common import Balance
from pnp.model.tuning import Tuning
from pnp.registry import Game
from pnp.validate.play import (
    Figure,
    Played,
    Verdict,
    game_tables,
    judge_promises,
    looks,
    play_in_stages,
)

LADDER_PENALTY = 0.05
"""What a difficulty-ladder step shown the wrong way round adds to a candidate's distance from
the promises (a rate figure adds how far its win rate lies outside its band)."""
SOLVED = 1e-9


@dataclass(frozen=True)
class Judged:
    """One candidate's games, judged: every figure, and how far they leave the promises."""

    values: Mapping[Number, int]
    figures: tuple[Figure, ...]
    targets: frozenset[str]
    """The figures broken on today's content (by what they say): the ones to bring back."""
    games: int = 0
    """Games each table played (fewer than asked when a sequential judge stopped early)."""

    @property
    def broken(self) -> float:
        """How far, summed, the intervals lie outside their promises (0: none broken)."""
        return sum(_beyond_doubt(figure) for figure in self.figures)

    @property
    def distance(self) -> float:
        """What the search makes small: every interval outside its promise, each target's win
        rate outside its band, and a tenth of any other win rate outside (so a change that
        fixes one character by pushing another out is not taken for free)."""
        return self.broken + sum(
            _off(figure) * (1.0 if figure.what in self.targets else 0.1) for figure in self.figures
        )

    @property
    def kept(self) -> bool:
        """No promise broken beyond doubt, and every target inside its band."""
        return self.broken <= SOLVED and all(
            _off(figure) <= SOLVED for figure in self.figures if figure.what in self.targets
        )


def _off(figure: Figure) -> float:
    """How far a rate figure's win rate lies outside its band."""
    if figure.ladder or figure.rate is None:
        return 0.0
    low, high = figure.band
    value = figure.rate.value
    return max(0.0, low - value, value - high)


def _beyond_doubt(figure: Figure) -> float:
    """How far a figure's whole interval lies outside its promise (0 when it reaches it)."""
    if figure.ladder:
        return LADDER_PENALTY if figure.verdict is Verdict.BROKEN else 0.0
    if figure.rate is None:
        return 0.0
    low, high = figure.band
    interval_low, interval_high = figure.rate.interval
    return max(0.0, low - interval_high, interval_low - high)


@dataclass
class Budget:
    """Wall-clock seconds the search may spend; the candidates judged so far."""

    seconds: float
    candidates: int | None = None
    """Most candidates judged (None: as many as the seconds allow)."""
    started: float = field(default_factory=time.monotonic)
    tried: int = 0

    @property
    def left(self) -> float:
        """Seconds left; 0 once the candidates are all judged."""
        if self.candidates is not None and self.tried >= self.candidates:
            return 0.0
        return self.seconds - (time.monotonic() - self.started)

    @property
    def spent(self) -> float:
        return time.monotonic() - self.started


class Judge:
    """Plays and judges candidates: the content with some numbers changed, every chosen table,
    ``games`` games a table on the same seeds, ``policy`` in every seat."""

    def __init__(
        self,
        loaded: LoadedGame,
        game: Game,
        balance: Balance,
        *,
        policy: str,
        games: int,
        seed: int,
        tables: Sequence[str] = (),
        workers: int | None = None,
        warnings: bool = False,
        sequential: bool = False,
    ) -> None:
        self.loaded = loaded
        self.warnings = warnings
        """Whether figures outside their band by the win rate alone (validate's warnings) are
        brought back too, not only the ones outside beyond doubt."""
        self.sequential = sequential
        """Whether a candidate stops at the first look that shows it breaking a promise
        beyond doubt (see the module); today's content always plays every game."""
        self.game = game
        self.balance = dataclasses.replace(balance, policy=policy)
        self.games = games
        self.seed = seed
        self.tables = tuple(tables)
        self.workers = workers
        self.seen: dict[tuple[tuple[str, int], ...], Judged] = {}
        self.targets: frozenset[str] | None = None
        """The figures broken on the first candidate judged (today's content)."""

    def variant(self, values: Mapping[Number, int]) -> LoadedGame:
        """The game loaded from its files with ``values`` written in place of the numbers."""
        changed = {number: value for number, value in values.items() if value != number.value}
        if not changed:
            return self.loaded
        sources = self.loaded.sources
        if sources is None:
            raise PnpError(f"game {self.loaded.slug!r} was not loaded from a snapshot")
        files = dict(sources.content.files)
        prefix = f"{self.loaded.display_folder}/"
        by_file: dict[str, list[tuple[Number, int]]] = {}
        for number, value in changed.items():
            by_file.setdefault(number.where.path, []).append((number, value))
        for display, edits in by_file.items():
            relative = display[len(prefix) :]
            files[relative] = splice(files[relative].decode("utf-8"), edits, display).encode()
        # A digest of its own: verdicts and records are keyed on it, and this is other content.
        content = dataclasses.replace(
            sources.content, files=files, digest=tree_digest(files, sources.content.refused)
        )
        snapshot = Snapshot(content, sources.templates)
        return load_game(self.loaded.folder.parent, self.loaded.slug, sources=snapshot)

    def __call__(self, values: Mapping[Number, int]) -> Judged:
        key = tuple(sorted((n.label, v) for n, v in values.items() if v != n.value))
        if key in self.seen:
            return self.seen[key]
        try:
            variant = self.variant(values)
        except ContentError as error:
            first = error.problems[0] if error.problems else None
            raise PnpError(
                f"the content does not load with {dict(key)}: {first}" if first else str(error)
            ) from None
        tables = [
            table
            for table in game_tables(self.game, variant.model)
            if not self.tables or table.name in self.tables
        ]
        players = {table.name: table.rules.num_players for table in tables}
        sizes = looks(self.games) if self.sequential and self.targets is not None else [self.games]
        with variant.reading():
            runs = play_in_stages(
                self.game,
                tables,
                self.balance.policy,
                sizes,
                seed=self.seed,
                go_on=self._unbroken(players, len(sizes)),
                workers=self.workers,
            )
        # Judged as one look: a candidate that played every game is judged as without looks,
        # and one stopped early is broken at the shared 95 %, so at the whole 95 % too.
        figures, _ = judge_promises(self.balance, runs, players)
        if self.targets is None:
            self.targets = frozenset(
                f.what for f in figures if _beyond_doubt(f) > 0 or (self.warnings and _off(f) > 0)
            )
        played = min((len(games) for games in runs.values()), default=0)
        judged = Judged(dict(values), tuple(figures), self.targets, played)
        self.seen[key] = judged
        return judged

    def _unbroken(
        self, players: Mapping[str, int], count: int
    ) -> Callable[[Mapping[str, Sequence[Played]]], set[str]]:
        """Every table while no figure lies outside its promise beyond doubt at this look
        (the 95 % shared among ``count`` looks); none once one does."""
        shared = {name: count for name in players}

        def go_on(runs: Mapping[str, Sequence[Played]]) -> set[str]:
            figures, _ = judge_promises(self.balance, runs, players, shared, final=False)
            return set() if any(_beyond_doubt(f) > 0 for f in figures) else set(players)

        return go_on


@dataclass(frozen=True)
class Proposal:
    """What the search found: the change, the games before and after, and what it cost."""

    numbers: tuple[Number, ...]
    before: Judged
    after: Judged
    tried: int
    seconds: float
    stopped_by_budget: bool

    @property
    def changes(self) -> dict[Number, int]:
        return {n: v for n, v in self.after.values.items() if v != n.value}


def subject_traits(root: MappingNode, label: str) -> frozenset[tuple[str, str]]:
    """The plain values (other than its id and name) of every item of the content whose id or
    name is ``label``: a character's colour, for a figure about that character."""
    found: set[tuple[str, str]] = set()
    for _, (_, value) in root.entries.items():
        if not isinstance(value, SequenceNode):
            continue
        for item in value.items:
            if not isinstance(item, MappingNode):
                continue
            names = {
                str(node.value)
                for key in ("id", "name")
                if isinstance(node := item.get(key), ScalarNode)
            }
            if label in names:
                found |= {
                    (key, str(node.value))
                    for key, (_, node) in item.entries.items()
                    if key not in ("id", "name") and isinstance(node, ScalarNode)
                }
    return frozenset(found)


def _subjects(figure: Figure) -> list[str]:
    """What a figure is about: its label (a character), and the item a factor names
    (``mission:officer``: the mission officer)."""
    subjects = [figure.label] if figure.label else []
    if ":" in figure.factor:
        subjects.append(figure.factor.split(":", 1)[1])
    return subjects


def _groups(
    numbers: Sequence[Number], entries: Sequence[int], related: frozenset[tuple[str, str]]
) -> tuple[list[list[Number]], list[list[Number]]]:
    """The moves' groups: each tunable entry's numbers, the ones tied to a broken figure's
    subject apart (tried first), the rest after."""
    near: dict[int, list[Number]] = {}
    far: dict[int, list[Number]] = {}
    for number, entry in zip(numbers, entries, strict=True):
        (near if number.traits & related else far).setdefault(entry, []).append(number)
    return list(near.values()), list(far.values())


def _shifted(
    values: Mapping[Number, int], group: Sequence[Number], steps: int
) -> dict[Number, int]:
    out = dict(values)
    for number in group:
        out[number] = min(number.high, max(number.low, values[number] + steps * number.step))
    return out


def search(
    judge: Callable[[Mapping[Number, int]], Judged],
    numbers: Sequence[Number],
    entries: Sequence[int],
    root: MappingNode,
    budget: Budget,
    progress: Callable[[Budget, Judged], None] | None = None,
) -> Proposal:
    """The smallest change of ``numbers`` (``entries[i]``: the tunable entry of number ``i``)
    that ``judge`` finds keeping every promise, within ``budget`` (see the module's steps)."""

    def tried(values: Mapping[Number, int]) -> Judged:
        budget.tried += 1
        judged = judge(values)
        if progress is not None:
            progress(budget, judged)
        return judged

    before = tried({number: number.value for number in numbers})
    best = before

    # 1. Reach the bands.
    while not best.kept and budget.left > 0:
        related: frozenset[tuple[str, str]] = frozenset()
        for figure in before.figures:
            if figure.what in before.targets:
                for subject in _subjects(figure):
                    related |= subject_traits(root, subject)
        found: Judged | None = None
        for tier in _groups(numbers, entries, related):
            for group in tier:
                for direction in (-1, 1):
                    # Every doubling to the bounds, not only while it helps: one step of a
                    # number far out of line (damage 6 at cost 0) may change nothing at all.
                    steps, previous = 1, best.values
                    while budget.left > 0:
                        values = _shifted(best.values, group, direction * steps)
                        if values == previous:
                            break
                        previous = values
                        judged = tried(values)
                        if judged.distance < best.distance - SOLVED and (
                            found is None or judged.distance < found.distance
                        ):
                            found = judged
                        if judged.kept:
                            break
                        steps *= 2
            if found is not None:
                break
        if found is None:
            break
        best = found
    # 2. Shrink the change: fewest numbers, then smallest steps.
    if best.kept:
        best = _fewest(tried, best, budget)
        best = _smallest(tried, best, budget)
    return Proposal(
        tuple(numbers), before, best, budget.tried, budget.spent, stopped_by_budget=budget.left <= 0
    )


def _fewest(
    judge: Callable[[Mapping[Number, int]], Judged], best: Judged, budget: Budget
) -> Judged:
    """Put changed numbers back, a half at a time then one by one, while every promise holds."""
    chunks = [[n for n, v in best.values.items() if v != n.value]]
    while chunks and budget.left > 0:
        chunk = chunks.pop(0)
        values = dict(best.values)
        for number in chunk:
            values[number] = number.value
        if values == best.values:
            continue
        judged = judge(values)
        if judged.kept:
            best = judged
        elif len(chunk) > 1:
            half = len(chunk) // 2
            chunks[:0] = [chunk[:half], chunk[half:]]
    return _merged(judge, best, budget)


def _merged(
    judge: Callable[[Mapping[Number, int]], Judged], best: Judged, budget: Budget
) -> Judged:
    """Fold one changed number's change into another of its entry (two costs of 1 into one of
    2) while every promise holds: what putting numbers back alone cannot find."""
    merged = True
    while merged and budget.left > 0:
        merged = False
        changed = sorted(
            (n for n, v in best.values.items() if v != n.value),
            key=lambda n: (abs(best.values[n] - n.value), n.label),
        )
        for number in changed:
            for other in changed:
                if other is number or other.entry != number.entry or budget.left <= 0:
                    continue
                moved = best.values[other] + best.values[number] - number.value
                moved = min(other.high, max(other.low, moved))
                if moved == best.values[other]:
                    continue
                judged = judge({**best.values, number: number.value, other: moved})
                if judged.kept:
                    best, merged = judged, True
                    break
            if merged:
                break
    return best


def _smallest(
    judge: Callable[[Mapping[Number, int]], Judged], best: Judged, budget: Budget
) -> Judged:
    """Move each changed number a step back towards its old value while every promise holds."""
    moved = True
    while moved and budget.left > 0:
        moved = False
        for number, value in sorted(best.values.items(), key=lambda item: item[0].label):
            if value == number.value or budget.left <= 0:
                continue
            toward = number.step if value < number.value else -number.step
            back = value + toward
            if (back - number.value) * (value - number.value) < 0:
                back = number.value
            judged = judge({**best.values, number: back})
            if judged.kept:
                best, moved = judged, True
    return best


def tuning_of(loaded: LoadedGame) -> tuple[Tuning, Balance]:
    """The game's ``tuning:`` and ``balance:``; PnpError saying what is missing."""
    tuning = getattr(loaded.model, "tuning", None)
    balance = getattr(loaded.model, "balance", None)
    if not isinstance(balance, Balance):
        raise PnpError(
            f"{loaded.display_folder}: no balance: promises to tune towards (see README, "
            "Balance promises)"
        )
    if not isinstance(tuning, Tuning) or not tuning.tunable:
        raise PnpError(
            f"{loaded.display_folder}: no tuning: numbers to change; list them in tuning.yaml "
            "(tuning: tunable: [{at: cards, match: {colour: red}, field: cost, min: 0, max: 5}])"
        )
    return tuning, balance


def prepare(loaded: LoadedGame) -> tuple[list[Number], list[int], MappingNode]:
    """The tunable numbers with their entries, and the content's tree; ContentError with every
    mistake of ``tuning:`` located."""
    tuning, _ = tuning_of(loaded)
    root = content_tree(loaded)
    numbers, problems = tunable_numbers(root, tuning)
    if problems:
        raise ContentError(dataclasses.replace(problem, game=loaded.slug) for problem in problems)
    entries = [number.entry for number in numbers]
    return numbers, entries, root


def diff_of(loaded: LoadedGame, changes: Mapping[Number, int]) -> tuple[str, dict[str, str]]:
    """The unified diff of a change and each changed file's new text (by display path)."""
    from pnp.content.tuning import unified_diff

    files = edited_files(loaded, changes)
    return unified_diff(files), {display: after for display, (_, after) in files.items()}


def figure_rows(
    before: Sequence[Figure], after: Sequence[Figure], targets: frozenset[str] = frozenset()
) -> list[tuple[str, Rate | None, Rate | None, tuple[float, float], bool]]:
    """(what, rate before, rate after, band, ladder) of each target and each figure outside its
    promise beyond doubt before or after, in the order the promises list them."""
    after_by = {figure.what: figure for figure in after}
    rows: list[tuple[str, Rate | None, Rate | None, tuple[float, float], bool]] = []
    for figure in before:
        other = after_by.get(figure.what)
        if (
            figure.what in targets
            or _beyond_doubt(figure) > 0
            or (other is not None and _beyond_doubt(other) > 0)
        ):
            rows.append(
                (
                    figure.what,
                    figure.rate,
                    other.rate if other is not None else None,
                    figure.band,
                    figure.ladder,
                )
            )
    return rows


@dataclass(frozen=True)
class Confirmation:
    """The proposal and today's content, judged by another policy (the strong player)."""

    policy: str
    games: int
    before: Judged | None
    after: Judged | None


def confirm(
    make_judge: Callable[[Sequence[str]], Judge],
    proposal: Proposal,
    budget: Budget,
) -> Confirmation | None:
    """The proposal, then today's content, judged by the judge ``make_judge`` gives for the
    tables of the broken figures, as far as ``budget`` allows (None when none is left)."""
    tables = sorted(
        {
            table
            for figure in proposal.before.figures
            if figure.what in proposal.before.targets
            for table in figure.tables
        }
    )
    if budget.left <= 0 or not tables:
        return None
    judge = make_judge(tables)
    judge.targets = proposal.before.targets
    after = judge(proposal.after.values)
    before = judge(proposal.before.values) if budget.left > 0 else None
    return Confirmation(judge.balance.policy, judge.games, before, after)
