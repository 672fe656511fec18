"""Dragon Hoard notation: a whole position as one line of text, and back (like FEN).

Twenty-six fields separated by single spaces; per-seat fields list the seats 0..n-1 separated
by ``/``; lists are comma-separated; ``-`` is an empty list or no value. Cards, treasures and
AI cards are named by their content ids, cells as ``x.y``::

    round stage holder actor  pawns  bags  used  seats  placed queue waited reveal
    deck current upcoming executed removed draws recalls flags  dragon floor discarded
    left events turn

- ``stage``: ``prep``, ``draw``, ``place``, ``resolve`` or ``over``; ``actor``: a seat or ``-``.
- ``pawns``: per seat the pawn's cell (on the map) or its status ``dead``, ``left``, ``quit``.
- ``bags``: per seat the treasures carried, the heirloom first and marked ``^``.
- ``used``: per seat the action cards played or placed this round.
- ``seats``: per seat the preparation options used (a number, bits 1 heirloom, 2 treasure,
  4 card), then ``s`` if the character card is sideways and ``x`` if the seat stopped placing.
- ``placed``: the mat, first placed first, as ``seat:card``; ``queue``: what is left to
  resolve, ``seat:card`` or ``ai:card``.
- ``reveal``: ``-``, or ``R`` and the seat that revealed and peeked (``R1``).
- ``flags``: ``r`` a recall card was drawn this round, ``c`` the countdown is on (``-``: none).
- ``floor``: treasures on the map as ``x.y:treasure``.
- ``left``: seats in the order they left the lair; ``events``: this round's countdown
  triggers (bits 1 left, 2 gave up, 4 heart out); ``turn``: rounds completed.

For example, a two-player game at placement in round 1::

    1 place 0 0 6.12/0.6 -/- -/- 0/0 - - 0 - ice-breath,flame-breath,... frost-lance pounce
    - - 0 0 - 6.6 1.1:gold,1.9:gem,... - - 0 0

(one line; wrapped here).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from pnp.games.dragon_hoard.model import Cell, Lair
from pnp.games.dragon_hoard.state import AI_ITEM, SLUG, DragonHoardState, Stage, Status


class RulesTables(Protocol):
    """What a position's text needs of the table's rules (``DragonHoardRules``, which imports
    this module: naming it here would close an import ring)."""

    @property
    def players(self) -> int: ...
    @property
    def lair(self) -> Lair: ...
    @property
    def ai_ids(self) -> Sequence[str]: ...
    @property
    def treasure_ids(self) -> Sequence[str]: ...
    @property
    def card_ids(self) -> Sequence[str]: ...
    @property
    def _ai_by_id(self) -> Mapping[str, int]: ...
    @property
    def _treasure_by_id(self) -> Mapping[str, int]: ...
    @property
    def _card_by_id(self) -> Mapping[str, int]: ...


FIELDS = (
    "round",
    "stage",
    "holder",
    "actor",
    "pawns",
    "bags",
    "used",
    "seats",
    "placed",
    "queue",
    "waited",
    "reveal",
    "deck",
    "current",
    "upcoming",
    "executed",
    "removed",
    "draws",
    "recalls",
    "flags",
    "dragon",
    "floor",
    "discarded",
    "left",
    "events",
    "turn",
)
"""The fields of the notation, in order."""

NONE = "-"


def format_position(rules: RulesTables, state: DragonHoardState) -> str:
    """The whole position as one line of text (see the module's documentation)."""
    ai, tr, ac = rules.ai_ids, rules.treasure_ids, rules.card_ids

    def items(values: Sequence[str]) -> str:
        return ",".join(values) if values else NONE

    def seats(values: Sequence[str]) -> str:
        return "/".join(values)

    def cell(c: Cell) -> str:
        return f"{c[0]}.{c[1]}"

    def code(c: int, names: Sequence[str]) -> str:
        return names[c] if c >= 0 else NONE

    pawns = [
        cell(pawn) if status is Status.IN and pawn is not None else status.value
        for status, pawn in zip(state.status, state.pawns, strict=True)
    ]
    bags = [
        items(([f"^{tr[heirloom]}"] if heirloom >= 0 else []) + [tr[t] for t in bag])
        for bag, heirloom in zip(state.bags, state.heirlooms, strict=True)
    ]
    flags = [
        f"{prep}{'s' if sideways else ''}{'x' if stopped else ''}"
        for prep, sideways, stopped in zip(state.prep, state.sideways, state.stopped, strict=True)
    ]
    queue = [f"ai:{ai[c]}" if seat == AI_ITEM else f"{seat}:{ac[c]}" for seat, c in state.queue]
    reveal = NONE if not state.revealed else "R" + (str(state.peeker) if state.peeker >= 0 else "")
    round_flags = ("r" if state.recall_round else "") + ("c" if state.countdown else "")
    fields = [
        str(state.round),
        state.stage.value,
        str(state.holder),
        str(state.actor) if state.actor >= 0 else NONE,
        seats(pawns),
        seats(bags),
        seats([items([ac[c] for c in used]) for used in state.used]),
        seats(flags),
        items([f"{seat}:{ac[c]}" for seat, c in state.placed]),
        items(queue),
        str(state.waited),
        reveal,
        items([ai[c] for c in state.deck]),
        code(state.current, ai),
        code(state.upcoming, ai),
        items([ai[c] for c in state.executed]),
        items([ai[c] for c in state.removed]),
        str(state.draws_due),
        str(state.recalls),
        round_flags or NONE,
        cell(state.dragon),
        items([f"{x}.{y}:{tr[t]}" for x, y, t in state.floor]),
        items([tr[t] for t in state.discarded]),
        items([str(seat) for seat in state.left_order]),
        str(state.events),
        str(state.turn),
    ]
    return " ".join(fields)


class _NotationError(ValueError):
    pass


def parse_position(rules: RulesTables, text: str) -> DragonHoardState:
    """Read a position written by :func:`format_position`; ValueError quoting the text and
    saying what is wrong otherwise."""
    try:
        return _parse(rules, text)
    except _NotationError as error:
        raise ValueError(f"invalid {SLUG} notation {text!r}: {error}") from None


def _parse(rules: RulesTables, text: str) -> DragonHoardState:
    fields = text.split(" ")
    if len(fields) != len(FIELDS):
        raise _NotationError(
            f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(fields)}"
        )
    field = dict(zip(FIELDS, fields, strict=True))
    n = rules.players

    def number(name: str, value: str | None = None, low: int = 0) -> int:
        raw = field[name] if value is None else value
        if not raw.lstrip("-").isdigit() or int(raw) < low:
            raise _NotationError(f"{name}: expected a number from {low}, got {raw!r}")
        return int(raw)

    def listed(name: str, value: str | None = None) -> list[str]:
        raw = field[name] if value is None else value
        return [] if raw == NONE else raw.split(",")

    def per_seat(name: str) -> list[str]:
        values = field[name].split("/")
        if len(values) != n:
            raise _NotationError(f"{name}: expected {n} seats, got {len(values)}")
        return values

    def lookup(name: str, table: Mapping[str, int], key: str) -> int:
        if key not in table:
            raise _NotationError(f"{name}: unknown id {key!r}")
        return table[key]

    def ids(name: str, table: Mapping[str, int], value: str | None = None) -> list[int]:
        return [lookup(name, table, key) for key in listed(name, value)]

    def cell(name: str, raw: str) -> Cell:
        x, dot, y = raw.partition(".")
        if not dot or not x.isdigit() or not y.isdigit():
            raise _NotationError(f"{name}: expected a cell x.y, got {raw!r}")
        where = (int(x), int(y))
        if not rules.lair.contains(where):
            raise _NotationError(f"{name}: cell {raw!r} is off the map")
        return where

    def seat_of(name: str, raw: str) -> int:
        seat = number(name, raw)
        if seat >= n:
            raise _NotationError(f"{name}: seat {seat} at a table of {n}")
        return seat

    def pairs(
        name: str, read: Callable[[str, str], tuple[int, int]]
    ) -> tuple[tuple[int, int], ...]:
        found = []
        for item in listed(name):
            left, colon, right = item.partition(":")
            if not colon:
                raise _NotationError(f"{name}: expected seat:card, got {item!r}")
            found.append(read(left, right))
        return tuple(found)

    ai, tr, ac = rules._ai_by_id, rules._treasure_by_id, rules._card_by_id
    try:
        stage = Stage(field["stage"])
    except ValueError:
        raise _NotationError(f"stage: unknown stage {field['stage']!r}") from None

    status: list[Status] = []
    pawns: list[Cell | None] = []
    for raw in per_seat("pawns"):
        if "." in raw:
            status.append(Status.IN)
            pawns.append(cell("pawns", raw))
            continue
        try:
            status.append(Status(raw))
        except ValueError:
            raise _NotationError(f"pawns: expected a cell or a status, got {raw!r}") from None
        pawns.append(None)

    bags: list[tuple[int, ...]] = []
    heirlooms: list[int] = []
    for raw in per_seat("bags"):
        names = listed("bags", raw)
        heirloom = -1
        if names and names[0].startswith("^"):
            heirloom = lookup("bags", tr, names.pop(0)[1:])
        bags.append(tuple(sorted(lookup("bags", tr, key) for key in names)))
        heirlooms.append(heirloom)

    prep: list[int] = []
    sideways: list[bool] = []
    stopped: list[bool] = []
    for raw in per_seat("seats"):
        digits = raw.rstrip("sx")
        if raw[len(digits) :] not in ("", "s", "x", "sx"):
            raise _NotationError(f"seats: expected a number, s and x, got {raw!r}")
        prep.append(number("seats", digits))
        sideways.append("s" in raw[len(digits) :])
        stopped.append("x" in raw[len(digits) :])

    def placed_item(seat: str, card: str) -> tuple[int, int]:
        return seat_of("placed", seat), lookup("placed", ac, card)

    def queue_item(seat: str, card: str) -> tuple[int, int]:
        if seat == "ai":
            return AI_ITEM, lookup("queue", ai, card)
        return seat_of("queue", seat), lookup("queue", ac, card)

    reveal = field["reveal"]
    if reveal != NONE and not reveal.startswith("R"):
        raise _NotationError(f"reveal: expected - or R and a seat, got {reveal!r}")
    peeker = seat_of("reveal", reveal[1:]) if reveal.startswith("R") and reveal[1:] else -1

    def one(name: str) -> int:
        return -1 if field[name] == NONE else lookup(name, ai, field[name])

    flags = field["flags"]
    if flags != NONE and flags not in ("r", "c", "rc"):
        raise _NotationError(f"flags: expected -, r, c or rc, got {flags!r}")
    floor = []
    for item in listed("floor"):
        where, colon, treasure = item.partition(":")
        if not colon:
            raise _NotationError(f"floor: expected x.y:treasure, got {item!r}")
        x, y = cell("floor", where)
        floor.append((x, y, lookup("floor", tr, treasure)))
    state = DragonHoardState(
        round=number("round", low=1),
        stage=stage,
        holder=seat_of("holder", field["holder"]),
        actor=-1 if field["actor"] == NONE else seat_of("actor", field["actor"]),
        status=tuple(status),
        pawns=tuple(pawns),
        bags=tuple(bags),
        heirlooms=tuple(heirlooms),
        sideways=tuple(sideways),
        used=tuple(tuple(sorted(ids("used", ac, raw))) for raw in per_seat("used")),
        prep=tuple(prep),
        placed=pairs("placed", placed_item),
        queue=pairs("queue", queue_item),
        waited=number("waited"),
        stopped=tuple(stopped),
        revealed=reveal != NONE,
        peeker=peeker,
        deck=tuple(sorted(ids("deck", ai))),
        current=one("current"),
        upcoming=one("upcoming"),
        executed=tuple(ids("executed", ai)),
        removed=tuple(sorted(ids("removed", ai))),
        draws_due=number("draws"),
        recalls=number("recalls"),
        recall_round="r" in flags,
        countdown="c" in flags,
        dragon=cell("dragon", field["dragon"]),
        floor=tuple(sorted(floor)),
        discarded=tuple(sorted(ids("discarded", tr))),
        left_order=tuple(seat_of("left", seat) for seat in listed("left")),
        events=number("events"),
        turn=number("turn"),
    )
    if stage in (Stage.PREPARATION, Stage.PLACEMENT, Stage.RESOLUTION) and state.actor < 0:
        raise _NotationError(f"actor: a seat must act at stage {stage.value!r}")
    if stage is Stage.RESOLUTION and not state.queue:
        raise _NotationError("queue: nothing to resolve at stage 'resolve'")
    return state
