"""One table in play: the position, its history, who sits where, and what each seat is told.

A session is plain synchronous code (the server in :mod:`pnp.play.server` serialises calls to
it): every change checks its input against the engine first and changes nothing when the
input is refused. Positions are a pure function of the seed and the action list: the first
position is ``rules.initial_state(random.Random(seed))`` (as the validator's games start), a
chance step ``k`` is drawn with ``random.Random(f"{seed}:{k}")`` and so is an AI seat's
decision at step ``k``. So undo, load and replay are a replay of actions, an undone draw comes
out the same when the same card is played again, and a saved game is its seed and actions.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pnp.engines.base import Policy, Rules, Table
from pnp.engines.record import GameRecordFile, action_line, format_record, parse_record
from pnp.engines.view import DefaultView, GameView, Move, player_name, scene_json
from pnp.errors import PnpError
from pnp.registry import Game

HUMAN = "human"
LOG_LINES = 400
"""Log lines a snapshot carries at most (the latest); the saved game holds all of them."""


class PlayError(PnpError):
    """A request the table refuses; ``status`` is the HTTP status that says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def bad_request(message: str) -> PlayError:
    return PlayError(400, message)


@dataclass(frozen=True)
class Seats:
    """Who plays each seat: ``human`` or a policy's name."""

    names: tuple[str, ...]

    def humans(self) -> tuple[int, ...]:
        return tuple(seat for seat, name in enumerate(self.names) if name == HUMAN)

    def is_human(self, seat: int) -> bool:
        return self.names[seat] == HUMAN


@dataclass
class Automatic:
    """A step the table takes by itself: a chance outcome, or an AI seat's decision."""

    version: int
    seat: int | None
    """The AI seat deciding; None for a chance step."""
    action: str = ""
    """The chance outcome's notation (a decision's once :meth:`choose` made it)."""
    policy: Policy | None = None
    state: Any = None
    rng: random.Random | None = None

    def choose(self, rules: Rules[Any, Any]) -> str:
        """The AI seat's action with ``rules`` (another instance than the session's, so a
        worker thread shares no engine memo with the server)."""
        if self.policy is not None and self.rng is not None:
            self.action = str(self.policy.choose(rules, self.state, self.rng))
        return self.action


def parse_seats(text: str | None, players: int, policies: Sequence[str]) -> Seats:
    """``human,strong,sensible`` for each seat (missing seats: ``strong``); PnpError naming
    the choices on a name no policy has or on too many seats."""
    names = [part.strip() for part in (text or HUMAN).split(",")]
    if len(names) > players:
        raise PnpError(f"--seats: {len(names)} seats named for a table of {players} players")
    names += ["strong"] * (players - len(names))
    choices = [HUMAN, *policies]
    for name in names:
        base = name.partition(":")[0]
        if name not in choices and base != "strong":
            raise PnpError(f"--seats: unknown player {name!r} (choose from {', '.join(choices)})")
    return Seats(tuple(names))


@dataclass
class _History:
    states: list[Any]
    actions: list[Any] = field(default_factory=list)
    actors: list[int | None] = field(default_factory=list)


class Session:
    """A table: its rules and view, the seats, the seed, and the game so far."""

    def __init__(
        self,
        game: Game,
        table: Table,
        seats: Seats,
        seed: int,
        *,
        view: GameView | None = None,
        policies: dict[int, Policy] | None = None,
    ) -> None:
        rules: Rules[Any, Any] = table.rules
        if len(seats.names) != rules.num_players:
            raise PnpError(
                f"table {table.name!r} seats {rules.num_players} players, not {len(seats.names)}"
            )
        self.game = game
        self.table = table
        self.rules = rules
        self.seats = seats
        self.seed = seed
        self.view: GameView = view or (
            game.view(rules) if game.view is not None else DefaultView(rules)
        )
        self.policies = policies or {}
        missing = [
            s for s, name in enumerate(seats.names) if name != HUMAN and s not in self.policies
        ]
        if missing:
            raise PnpError(f"no policy given for seats {missing}")
        self._history = _History([rules.initial_state(random.Random(seed))])
        self.version = 0
        """Counts every change, so a client's action is checked against the position it saw."""
        self._logs: dict[int | None, list[str]] = {}

    # -- the position ----------------------------------------------------------------------

    @property
    def state(self) -> Any:
        return self._history.states[-1]

    @property
    def steps(self) -> int:
        return len(self._history.actions)

    @property
    def over(self) -> bool:
        return self.rules.is_terminal(self.state)

    def to_act(self) -> int | None:
        return self.rules.current_player(self.state)

    def waiting_for_human(self) -> bool:
        seat = self.to_act()
        return seat is not None and self.seats.is_human(seat)

    def capped(self) -> bool:
        """The table's step cap stops a game no seat can finish (all machines, no end)."""
        return self.steps >= self.table.max_steps

    # -- automatic steps (chance and AI seats) ---------------------------------------------

    def automatic(self) -> Automatic | None:
        """The next step no human takes, or None: a human is to act, the game is over or
        capped. A chance step comes drawn; an AI seat's comes as the work to choose it
        (:meth:`Automatic.choose`, slow for the strong player: the server runs it in a worker
        thread, on rules of its own, while this session keeps answering). Its result goes
        to :meth:`apply_automatic`, which refuses it if the table moved on meanwhile."""
        state = self.state
        if self.rules.is_terminal(state) or self.capped():
            return None
        rng = random.Random(f"{self.seed}:{self.steps}")
        seat = self.rules.current_player(state)
        if seat is None:
            return Automatic(self.version, None, str(self.rules.sample_chance(state, rng)))
        if self.seats.is_human(seat):
            return None
        return Automatic(self.version, seat, "", self.policies[seat], state, rng)

    def apply_automatic(self, version: int, text: str) -> bool:
        """Apply an automatic step chosen at ``version`` (its notation); False if the table
        has changed since. The engine's legal actions are the authority here too."""
        if version != self.version:
            return False
        for action in self.rules.legal_actions(self.state):
            if str(action) == text:
                self._push(action)
                return True
        raise PnpError(
            f"the {self.seats.names[self.to_act() or 0]} player chose {text!r}, "
            f"not a legal action at step {self.steps}"
        )

    # -- what a human does ------------------------------------------------------------------

    def act(self, seat: int, version: int, text: str) -> None:
        """``seat`` plays the action whose notation is ``text``, seen at ``version``. A stale
        version, a seat not to act or an action not among the engine's legal ones is refused
        (PlayError) and changes nothing."""
        if version != self.version:
            raise PlayError(409, f"stale: the table is at version {self.version}, not {version}")
        if self.over:
            raise PlayError(409, "the game is over")
        if self.to_act() != seat:
            raise PlayError(409, f"it is not {player_name(seat)}'s turn")
        for action in self.rules.legal_actions(self.state):
            if str(action) == text:
                self._push(action)
                return
        raise PlayError(
            422, f"illegal action {text!r} for {player_name(seat)} at step {self.steps}"
        )

    def undo(self, version: int) -> None:
        """Take back the last human action and everything after it."""
        if version != self.version:
            raise PlayError(409, f"stale: the table is at version {self.version}, not {version}")
        history = self._history
        humans = [
            i
            for i, seat in enumerate(history.actors)
            if seat is not None and self.seats.is_human(seat)
        ]
        if not humans:
            raise PlayError(409, "nothing to undo: no human has moved yet")
        self._truncate(humans[-1])

    def _push(self, action: Any) -> None:
        history = self._history
        actor = self.rules.current_player(history.states[-1])
        history.states.append(self.rules.apply(history.states[-1], action))
        history.actions.append(action)
        history.actors.append(actor)
        self.version += 1

    def _truncate(self, steps: int) -> None:
        history = self._history
        del history.states[steps + 1 :]
        del history.actions[steps:]
        del history.actors[steps:]
        for lines in self._logs.values():
            del lines[steps:]
        self.version += 1

    # -- saving and loading ------------------------------------------------------------------

    def record(self) -> GameRecordFile:
        return GameRecordFile(
            game=self.game.slug,
            table=self.table.name,
            seats=self.seats.names,
            seed=self.seed,
            actions=tuple(str(action) for action in self._history.actions),
        )

    def saved(self) -> str:
        return format_record(self.record())

    def load(self, text: str, where: str = "the saved game") -> None:
        """Replace the game by a saved one of this table (its seed and actions); on any fault
        the game stays as it was and PlayError says where."""
        try:
            record = parse_record(text, where)
        except PnpError as error:
            raise bad_request(str(error)) from None
        if record.game != self.game.slug or record.table != self.table.name:
            raise bad_request(
                f"{where}: a game of {record.game} table {record.table!r}, "
                f"not of {self.game.slug} table {self.table.name!r}"
            )
        history = replay(self.rules, record, lambda i: f"{where}:{action_line(text, i)}")
        self._history = history
        self.seed = record.seed
        self._logs.clear()
        self.version += 1

    # -- what a seat is told ------------------------------------------------------------------

    def log(self, seat: int | None) -> list[str]:
        """The game log as ``seat`` saw it, one line a step."""
        lines = self._logs.setdefault(seat, [])
        history = self._history
        for step in range(len(lines), len(history.actions)):
            before, after = history.states[step], history.states[step + 1]
            actor = history.actors[step]
            who = "Chance" if actor is None else player_name(actor)
            text = self.view.describe(before, history.actions[step], after, seat)
            lines.append(f"{step + 1}. {who}: {text}")
        return lines

    def moves(self, seat: int) -> list[Move]:
        if self.over or self.to_act() != seat or not self.seats.is_human(seat):
            return []
        return self.view.moves(self.state, seat)

    def snapshot(self, seat: int | None, *, may_act: bool) -> dict[str, Any]:
        """Everything ``seat`` is told now (None: everything, for a replay or a finished
        game), as JSON data: the scene, its moves when ``may_act``, the log."""
        state = self.state
        outcome = None
        if self.over:
            result = self.rules.outcome(state)
            outcome = {
                "winners": sorted(result.winners),
                "termination": result.termination.name.lower(),
                "text": outcome_text(result.winners, result.termination.name),
            }
        log = self.log(seat)
        moves = self.moves(seat) if may_act and seat is not None else []
        return {
            "game": self.game.slug,
            "table": self.table.name,
            "version": self.version,
            "step": self.steps,
            "seat": seat,
            "to_act": self.to_act(),
            "over": self.over,
            "capped": self.capped() and not self.over,
            "outcome": outcome,
            "seats": [
                {"seat": s, "name": player_name(s), "player": name}
                for s, name in enumerate(self.seats.names)
            ],
            "scene": scene_json(self.view.scene(state, seat, self._history.actions)),
            "moves": [{"action": m.action, "element": m.element, "label": m.label} for m in moves],
            "log": log[-LOG_LINES:],
            "log_start": max(0, len(log) - LOG_LINES),
        }


def outcome_text(winners: frozenset[int], termination: str) -> str:
    names = ", ".join(player_name(seat) for seat in sorted(winners))
    why = termination.lower().replace("_", " ")
    return f"{names or 'Nobody'} won ({why})"


def replay(rules: Rules[Any, Any], record: GameRecordFile, where: Any) -> _History:
    """The positions of a recorded game; PnpError at the first action that is not legal
    (``where(index)`` names its line)."""
    history = _History([rules.initial_state(random.Random(record.seed))])
    for index, text in enumerate(record.actions):
        state = history.states[-1]
        if rules.is_terminal(state):
            raise bad_request(f"{where(index)}: the game is over before action {text!r}")
        legal = {str(action): action for action in rules.legal_actions(state)}
        action = legal.get(text)
        if action is None:
            raise bad_request(
                f"{where(index)}: action {text!r} is not legal here (step {index + 1}; "
                f"legal: {', '.join(sorted(legal)[:8])}{', …' if len(legal) > 8 else ''})"
            )
        history.actors.append(rules.current_player(state))
        history.states.append(rules.apply(state, action))
        history.actions.append(action)
    return history


class Replay:
    """A recorded game to step through: every position known, a cursor among them."""

    def __init__(
        self, game: Game, table: Table, record: GameRecordFile, where: str, text: str = ""
    ) -> None:
        """``text``: the record's own text, for the line numbers of a message."""
        self.game = game
        self.table = table
        self.rules: Rules[Any, Any] = table.rules
        self.record = record
        source = text or format_record(record)
        self._history = replay(self.rules, record, lambda i: f"{where}:{action_line(source, i)}")
        self.view: GameView = (
            game.view(self.rules) if game.view is not None else DefaultView(self.rules)
        )
        self.cursor = 0
        self.version = 0
        self._log: list[str] = []

    @property
    def length(self) -> int:
        return len(self._history.actions)

    def seek(self, step: int) -> None:
        if not 0 <= step <= self.length:
            raise bad_request(f"step: expected 0..{self.length}, got {step}")
        self.cursor = step
        self.version += 1

    def snapshot(self) -> dict[str, Any]:
        history = self._history
        state = history.states[self.cursor]
        while len(self._log) < self.cursor:
            step = len(self._log)
            actor = history.actors[step]
            who = "Chance" if actor is None else player_name(actor)
            text = self.view.describe(
                history.states[step], history.actions[step], history.states[step + 1], None
            )
            self._log.append(f"{step + 1}. {who}: {text}")
        over = self.rules.is_terminal(state)
        outcome = None
        if over:
            result = self.rules.outcome(state)
            outcome = {
                "winners": sorted(result.winners),
                "termination": result.termination.name.lower(),
                "text": outcome_text(result.winners, result.termination.name),
            }
        log = self._log[: self.cursor]
        return {
            "game": self.game.slug,
            "table": self.table.name,
            "version": self.version,
            "step": self.cursor,
            "length": self.length,
            "replay": True,
            "seat": None,
            "to_act": self.rules.current_player(state),
            "over": over,
            "capped": False,
            "outcome": outcome,
            "seats": [
                {"seat": s, "name": player_name(s), "player": name}
                for s, name in enumerate(self.record.seats)
            ],
            "scene": scene_json(self.view.scene(state, None, history.actions[: self.cursor])),
            "moves": [],
            "log": log[-LOG_LINES:],
            "log_start": max(0, len(log) - LOG_LINES),
        }
