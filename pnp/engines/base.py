"""The protocol every game's rules engine implements, and the generic play loop.

Modelled on OpenSpiel's python games: a rules object (built from the content model and the
table's options) answers questions about immutable-by-contract states:

- ``initial_state(rng)`` deals; ``current_player(state)`` is the seat to act, or ``None`` at a
  chance step or when the game is over;
- ``legal_actions(state)`` lists the player's actions, or at a chance step the chance outcomes
  (so it is empty exactly when the game is over);
- ``apply(state, action)`` is pure: it never mutates its argument and returns a new state;
  an action that is not legal raises :class:`~pnp.errors.IllegalActionError` whose lowercase
  message quotes the action with ``!r`` and the state's notation;
- chance is explicit: ``sample_chance(state, rng)`` picks one outcome with the injected
  ``random.Random`` (drawing, a random steal); dealing happens in ``initial_state(rng)``. So a
  game is reproduced exactly by its seed, or by its initial notation plus its action list;
- ``notation(state)`` is a compact one-line text of the whole position (like FEN), and
  ``from_notation(text)`` reads it back: ``from_notation(notation(s)) == s``;
- ``declares()`` says what the engine implements, so a validator can compute exact set
  differences against what the content uses.
"""

from __future__ import annotations

import dataclasses
import enum
import random
import types
import typing
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT", bound=Hashable)


class InvariantViolation(AssertionError):
    """A state broke a rule that must hold after every step (a bug in an engine)."""


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: who won, and why."""

    winners: frozenset[int] = field(metadata={"doc": "winning seats (0-based)"})
    termination: enum.Enum = field(metadata={"doc": "the game's own Termination member"})

    def __str__(self) -> str:
        seats = ",".join(str(seat) for seat in sorted(self.winners)) or "-"
        return f"{self.termination.name.lower()} winners={seats}"


@dataclass(frozen=True)
class Declaration:
    """What an engine implements, for exact comparison with what content uses.

    ``settings`` are dotted attribute paths from the root of the game's model; a collection is
    traversed by its field name, so ``ranks.effect.amount`` means "the ``effect.amount`` of every
    element of ``ranks``". :func:`field_paths` lists every path a model type offers.
    """

    game: str = field(metadata={"doc": "the game's slug"})
    effects: frozenset[enum.Enum] = field(metadata={"doc": "effect kinds the engine resolves"})
    modes: frozenset[enum.Enum] = field(metadata={"doc": "modes the engine plays"})
    settings: frozenset[str] = field(metadata={"doc": "model fields the engine reads"})
    options: frozenset[str] = field(
        default=frozenset(), metadata={"doc": "keyword options the rules constructor takes"}
    )


class Rules(Protocol[StateT, ActionT]):
    """One game's rules for one table (the model plus options such as players and mode)."""

    @property
    def num_players(self) -> int:
        """Seats at the table; seats are numbered 0..num_players-1."""
        ...

    def initial_state(self, rng: random.Random) -> StateT:
        """Shuffle and deal with ``rng``; the first player is to act."""
        ...

    def current_player(self, state: StateT) -> int | None:
        """The seat to act; ``None`` at a chance step or when the game is over."""
        ...

    def is_chance(self, state: StateT) -> bool:
        """Whether the next action is a chance outcome (a draw, a random steal)."""
        ...

    def legal_actions(self, state: StateT) -> list[ActionT]:
        """The player's legal actions, or the chance outcomes; empty iff the game is over."""
        ...

    def chance_outcomes(self, state: StateT) -> list[tuple[ActionT, float]]:
        """Each chance outcome with its probability (they sum to 1); empty if not chance."""
        ...

    def sample_chance(self, state: StateT, rng: random.Random) -> ActionT:
        """One chance outcome drawn with ``rng`` according to :meth:`chance_outcomes`."""
        ...

    def apply(self, state: StateT, action: ActionT) -> StateT:
        """The state after ``action``; ``state`` is left untouched. Raises IllegalActionError."""
        ...

    def is_terminal(self, state: StateT) -> bool:
        """Whether the game is over."""
        ...

    def outcome(self, state: StateT) -> Outcome:
        """Winners and termination of a finished game; ValueError if it is not over."""
        ...

    def turns(self, state: StateT) -> int:
        """Turns completed so far."""
        ...

    def notation(self, state: StateT) -> str:
        """The whole position as one line of text."""
        ...

    def from_notation(self, text: str) -> StateT:
        """Read a position back from :meth:`notation`; ValueError if malformed."""
        ...

    def parse_action(self, text: str) -> ActionT:
        """Read an action from its text (``str(action)``); ValueError if malformed."""
        ...

    def declares(self) -> Declaration:
        """What this engine implements (effect kinds, modes, model fields read)."""
        ...


class Policy(Protocol):
    """Chooses a player's action (never called at chance steps)."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any: ...


class RandomPolicy:
    """Uniformly random among the legal actions."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        actions = rules.legal_actions(state)
        return actions[int(rng.random() * len(actions))]

    def __repr__(self) -> str:
        return "RandomPolicy()"


@dataclass(frozen=True)
class GameRecord(Generic[StateT, ActionT]):
    """One played game: how long it lasted and how it ended."""

    steps: int = field(metadata={"doc": "actions applied, chance outcomes included"})
    decisions: int = field(metadata={"doc": "actions chosen by players"})
    turns: int = field(metadata={"doc": "turns completed, as the rules count them"})
    outcome: Outcome | None = field(metadata={"doc": "None when the cap stopped the game"})
    capped: bool = field(metadata={"doc": "the step or turn cap stopped the game"})
    final_state: StateT = field(metadata={"doc": "the last state reached"})
    actions: tuple[ActionT, ...] = field(
        default=(), metadata={"doc": "every action applied, if recorded"}
    )


Observer = Callable[[StateT, ActionT, StateT], None]
"""Called after each step with (state before, action, state after)."""


def play_game(
    rules: Rules[StateT, ActionT],
    policies: Sequence[Policy],
    rng: random.Random,
    max_steps: int,
    *,
    max_turns: int | None = None,
    invariant: Callable[[StateT], None] | None = None,
    observe: Observer[StateT, ActionT] | None = None,
    record_actions: bool = False,
    state: StateT | None = None,
) -> GameRecord[StateT, ActionT]:
    """Play one game from ``state`` (default: a fresh deal from ``rng``) to its end or a cap.

    ``policies[seat]`` chooses for each seat; chance steps are sampled with ``rng``. The game
    stops early, with ``capped=True`` and no outcome, after ``max_steps`` actions or
    ``max_turns`` turns; a cap hit is reported, never hidden. ``invariant`` is called on every
    state reached (the first included) and should raise :class:`InvariantViolation`.
    """
    if len(policies) != rules.num_players:
        raise ValueError(f"expected {rules.num_players} policies, got {len(policies)}")
    if state is None:
        state = rules.initial_state(rng)
    if invariant is not None:
        invariant(state)
    steps = decisions = 0
    actions: list[ActionT] = []
    capped = False
    while not rules.is_terminal(state):
        if steps >= max_steps or (max_turns is not None and rules.turns(state) >= max_turns):
            capped = True
            break
        seat = rules.current_player(state)
        if seat is None:
            action = rules.sample_chance(state, rng)
        else:
            action = policies[seat].choose(rules, state, rng)
            decisions += 1
        after = rules.apply(state, action)
        steps += 1
        if record_actions:
            actions.append(action)
        if invariant is not None:
            invariant(after)
        if observe is not None:
            observe(state, action, after)
        state = after
    return GameRecord(
        steps=steps,
        decisions=decisions,
        turns=rules.turns(state),
        outcome=None if capped else rules.outcome(state),
        capped=capped,
        final_state=state,
        actions=tuple(actions),
    )


def field_paths(model_type: type) -> frozenset[str]:
    """Every dotted field path of a dataclass model type (see :class:`Declaration`).

    Collections (``tuple[X, ...]``) are traversed by their field name; the bookkeeping field
    ``where`` is left out.
    """
    paths: set[str] = set()

    def walk(cls: type, prefix: str, seen: tuple[type, ...]) -> None:
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if f.name == "where":
                continue
            path = f"{prefix}{f.name}"
            paths.add(path)
            for inner in _dataclass_args(hints[f.name]):
                if inner not in seen:
                    walk(inner, f"{path}.", (*seen, inner))

    walk(model_type, "", (model_type,))
    return frozenset(paths)


def _dataclass_args(hint: Any) -> list[type]:
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return [hint]
    origin = typing.get_origin(hint)
    if origin in (tuple, list, frozenset, set, typing.Union, types.UnionType):
        return [cls for arg in typing.get_args(hint) for cls in _dataclass_args(arg)]
    return []


@dataclass(frozen=True)
class Table:
    """One table a validator plays: a name people read, the rules, and the caps that stop a
    game which does not end by itself (a cap hit is reported, never hidden)."""

    name: str = field(metadata={"doc": "what reports call it, e.g. 'normal 5p' or 'hard'"})
    rules: Rules[Any, Any] = field(metadata={"doc": "the rules of the table"})
    max_steps: int = field(metadata={"doc": "actions after which a game counts as capped"})
    max_turns: int | None = field(
        default=None, metadata={"doc": "turns (as the rules count them) after which it is capped"}
    )
    standard: bool = field(
        default=False,
        metadata={"doc": "the table a player sits at when none is named: the post's own rules"},
    )
