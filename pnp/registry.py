"""Games found through the ``pnp.games`` entry point: one :class:`Game` object per game.

A game is a package (``pnp/games/<module>/`` for the built-in five, or a package of its own
anywhere on the path) whose ``GAME`` object names its parts. It is announced in its
distribution's metadata::

    [project.entry-points."pnp.games"]
    deadline-99 = "pnp.games.deadline_99:GAME"

The shared stages only ever reach a game through this registry, so adding a game edits no file
of pnp. Only the model is required: a game without an engine or checks still builds its kit.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pnp import installed
from pnp.errors import PnpError, UnknownGameError

if TYPE_CHECKING:
    from pathlib import Path

    from pnp.engines.base import Policy, Rules, Table
    from pnp.engines.view import GameView, Pictured
    from pnp.errors import Location

ENTRY_POINT_GROUP = "pnp.games"

Tables = Sequence[tuple[str, "Rules[Any, Any]"]]
Scores = Callable[["Rules[Any, Any]", Any], Sequence[float]]
"""Each seat's score (0..1) in a position: a finished one (``score``) or not (``evaluate``)."""


@dataclass(frozen=True)
class SearchSettings:
    """How the generic search player (pnp.engines.search) plays one game: enough to beat the
    sensible policy, cheap enough to play hundreds of games."""

    iterations: int = 100
    """Determinised playouts per decision."""
    rollout: str = "random"
    """The policy that plays on below the tree: 'random' or one of the game's policies."""
    depth: int | None = None
    """Decisions a playout makes before ``evaluate`` scores it (None: to the end)."""
    exploration: float = 0.7
    """UCB1's exploration constant (``ismcts``)."""
    method: str = "ismcts"
    """``ismcts``: a tree over the decisions (pnp.engines.search.SearchPolicy); ``halving``:
    each root action played on by the rollout policy, compared on shared playouts and anchored
    on the rollout policy's own choice (HalvingSearchPolicy)."""
    candidates: int = 8
    """Root actions ``halving`` compares at most (the anchor and a sample of the others)."""
    margin: float = 1.0
    """Standard errors by which ``halving``'s pick must beat the anchor's to replace it."""
    look_early: bool = False
    """``halving``: whether a choice between two actions may stop after a few shared playouts
    when the other action has not gained on the anchor (as choices among more already do)."""
    iterations_at: tuple[tuple[int, int], ...] = ()
    """``halving``: (players, playouts) pairs, the playouts a decision at those player counts
    instead of ``iterations`` (``strong:N`` plays N at every count)."""


SHOWN_VALUES = 8
"""Named values a message lists before it elides the rest."""


@dataclass(frozen=True)
class Range:
    """The values one piece of public state can take, as the engine bounds it: the integers
    ``low..high`` (``high`` None when the engine cannot bound it, like the day of a game that
    ends when someone wins), or a set of named ``values`` (trap colours, facings)."""

    low: int = 0
    high: int | None = None
    values: frozenset[str] = frozenset()

    @classmethod
    def of(cls, *values: str) -> Range:
        """A quantity taking one of a set of named values: ``Range.of('red', 'blue')``."""
        return cls(values=frozenset(values))

    def __contains__(self, value: object) -> bool:
        if self.values:
            return value in self.values
        return (
            isinstance(value, int)
            and self.low <= value
            and (self.high is None or value <= self.high)
        )

    def __str__(self) -> str:
        if self.values:
            named = sorted(self.values)
            if len(named) > SHOWN_VALUES:
                # A message names the kind of value, not all 61 hexes of an arena.
                named = [*named[: SHOWN_VALUES - 2], "…", named[-1], f"{len(self.values)} values"]
            return "{" + ", ".join(named) + "}"
        return f"{self.low}..{'' if self.high is None else self.high}"


@dataclass(frozen=True)
class Game:
    """Everything pnp knows how to do with one game, named in one place."""

    slug: str
    """The game's id for users: its content folder, CLI argument and output folder."""
    model: type
    """The root dataclass of the game's content (``content/<slug>/*.yaml`` is read into it)."""
    rules: Callable[..., Rules[Any, Any]] | None = None
    """Builds the rules of one table: ``rules(model, players, ...)``; None: no engine yet."""
    tables: Callable[[Any], Tables] | None = None
    """Representative tables of a model, for the shared contract test and the benchmarks."""
    policies: Mapping[str, Callable[[], Policy]] = field(default_factory=dict)
    """The game's own policies by name (``random`` is shared and always available)."""
    # The two checks take the validator's Findings (pnp.validate.checks), which the registry
    # cannot name: the validator reads the registry, and the loader below it does too.
    check_static: Callable[..., None] | None = None
    """The game's own static checks of its content: ``check_static(findings)``."""
    check_simulated: Callable[..., dict[str, Any]] | None = None
    """Seeded play through the engine: ``check_simulated(findings, games, seed)`` -> report."""
    summarise: Callable[[dict[str, Any]], list[str]] | None = None
    """One line per table of a simulated report, for ``pnp validate``'s text output."""
    simulation_lines: Callable[..., list[str]] | None = None
    """``pnp simulate``: ``simulation_lines(game, players=, games=, seed=, policy=)``."""
    default_games: int = 100
    """Simulated games per table that ``pnp validate`` plays when not told otherwise."""
    play_games: int | None = None
    """Games per table that the default play checks give each of the game's own policies
    (default: ``default_games // 4``, at least 8): more where a rarely chosen option must
    still be seen played for coverage."""
    rulebook_terms: Callable[[Any], list[tuple[str, Location]]] | None = None
    """Terms printed on components that the rulebook must explain, with where each is used."""
    rulebook_examples: Callable[[Any], dict[str, Any]] | None = None
    """Worked examples the engine computes for the rulebook (``{{ examples.… }}``)."""
    rulebook_positions: Callable[[Any], Mapping[str, Pictured]] | None = None
    """Positions the engine reaches that the rulebook's figures draw (``position: setup``):
    the table at setup and an example of each hard rule, drawn through ``view``."""

    # -- what the shared play checks (pnp.validate.play) need ---------------------------------
    play_tables: Callable[[Any], Sequence[Table]] | None = None
    """Every table the content supports (each mode, player count and level), for liveness,
    coverage and balance."""
    seat_factors: Callable[[Rules[Any, Any], Any], Mapping[str, Sequence[str]]] | None = None
    """From a game's first position: a label per seat for each factor ('character': …)."""
    game_factors: Callable[[Rules[Any, Any], Any], Mapping[str, str]] | None = None
    """From a game's first position: a label for the whole game per factor ('missions': …)."""
    coverage_items: Callable[[Any], Mapping[str, Location]] | None = None
    """Everything of the content that play should exercise ('card:…', 'effect:…',
    'terrain:…'), each with where content defines it."""
    covered: Callable[[Rules[Any, Any], Any, Any, Any], Iterable[str]] | None = None
    """The coverage items one step exercised: ``covered(rules, before, action, after)``."""
    score: Scores | None = None
    """Scores of a finished game when winning is not all (a solo draw worth a half)."""
    evaluate: Scores | None = None
    """The search player's evaluation hint for positions where a playout stops."""
    search: SearchSettings = field(default_factory=SearchSettings)
    """How the strong player plays this game."""
    view: Callable[[Rules[Any, Any]], GameView] | None = None
    """What each seat sees at the web table (``pnp play``): ``view(rules)`` gives the game's
    scenes, clickable moves and log lines for one table (``pnp/engines/view.py``); None: the
    shared default, which shows no hand."""

    claims: Callable[[Any, Path], Iterable[Any]] | None = None
    """What the kit prints, tied to the engine: ``claims(model, templates_root)`` lists each
    printed phrase (an effect, a keyword, a reference-card line) as a Claim with the probe that
    plays it out (pnp.validate.claims, which the registry cannot name, as the checks'
    Findings); ``pnp validate`` reports every phrase the engine disagrees with at the line that
    prints it."""

    # -- what the physical checks (pnp.validate.fit) need --------------------------------------
    public_state: Callable[[Any], Mapping[str, Range]] | None = None
    """Every piece of public state the engine keeps, by name, with the values it can take,
    computed from content: ``{'hp': Range(0, 20), 'day': Range(1), 'trap': Range.of(…)}``.
    Content's ``physical.state`` must show each on a component or by a convention."""
    observed_state: Callable[[dict[str, Any]], Mapping[str, int]] | None = None
    """From a simulated report (``check_simulated``'s): the highest value each quantity the
    engine cannot bound reached (``{'day': 17}``), held against the track that shows it."""

    @property
    def module(self) -> str:
        """The code name of the game: ``deadline-99`` -> ``deadline_99``."""
        return module_name(self.slug)


def module_name(slug: str) -> str:
    """The code name of a game: ``deadline-99`` -> ``deadline_99``."""
    return slug.replace("-", "_")


_GAMES: dict[str, Game] | None = None


_BROKEN: dict[str, str] = {}
"""Why each announced game that could not be loaded failed, by slug."""


def _load(entry: installed.EntryPoint) -> Game:
    try:
        game = entry.load()
    except Exception as error:  # a broken plug-in is reported, never a traceback
        raise PnpError(
            f"game {entry.name!r}: entry point {entry.value!r} failed to load: "
            f"{type(error).__name__}: {error}"
        ) from error
    if not isinstance(game, Game):
        raise PnpError(f"game {entry.name!r}: entry point {entry.value!r} is not a pnp Game")
    if game.slug != entry.name:
        raise PnpError(f"game {entry.name!r}: entry point {entry.value!r} names game {game.slug!r}")
    return game


def games() -> dict[str, Game]:
    """Every game announced through the entry point that loads, by slug (loaded once per
    process). A game whose package fails to load is left out here — so one broken game never
    stops the others — and reported when it is asked for (:func:`find_game`)."""
    global _GAMES
    if _GAMES is None:
        found: dict[str, Game] = {}
        for entry in installed.entry_points(ENTRY_POINT_GROUP):
            try:
                found[entry.name] = _load(entry)
            except PnpError as error:
                _BROKEN[entry.name] = str(error)
        _GAMES = dict(sorted(found.items()))
    return _GAMES


_ONE: dict[str, Game | None] = {}
"""Games loaded alone by :func:`find_game`, before (or without) all of them."""


def find_game(slug: str) -> Game | None:
    """The game ``slug``, or None when no package announces it; PnpError saying why when one
    does but it fails to load. Only that game's package is imported (building one kit need not
    import the four other rules engines)."""
    if _GAMES is not None:
        found = _GAMES.get(slug)
        if found is None and slug in _BROKEN:
            raise PnpError(_BROKEN[slug])
        return found
    if slug not in _ONE:
        entries = installed.entry_points(ENTRY_POINT_GROUP, slug)
        entry = next(iter(entries), None)
        _ONE[slug] = None if entry is None else _load(entry)
    return _ONE[slug]


def game_for(slug: str) -> Game:
    """The game ``slug``; UnknownGameError with a suggestion when none announces it."""
    game = find_game(slug)
    if game is None:
        close = difflib.get_close_matches(slug, sorted(games()), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise UnknownGameError(f"no game package for {slug!r}{hint}")
    return game


def with_engine() -> tuple[Game, ...]:
    """The games that have a rules engine, sorted by slug."""
    return tuple(game for game in games().values() if game.rules is not None)
