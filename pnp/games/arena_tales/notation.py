"""Arena Tales notation: a whole position as one line of text, and actions as text."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pnp.games.arena_tales.state import (
    CHANCE_TASKS,
    DECISION_TASKS,
    SLUG,
    Absorb,
    Action,
    ArenaState,
    Dash,
    Discard,
    Draw,
    Maintain,
    Move,
    Play,
    Reveal,
    Seat,
    Stall,
    Talent,
    Termination,
    split_items,
)
from pnp.games.arena_tales.tables import RuleTables


def format_state(rules: RuleTables, s: ArenaState) -> str:
    """``seats active turn played colour flags play hits responses queue ended``.

    Seats are ``/``-separated: ``q,r,facing,sane,pending,zero_turn,dead|hand|deck|recycle|
    exhausted|life|display``; piles are card ids (``id*2`` for two), ``-`` when empty; the
    display lists ``id^`` (face up), ``id_`` (face down) or ``id+`` (maintained). Flags are
    ``d`` (damage dealt) and ``f`` (forced end) or ``-``; tasks are ``name:int:...``.
    """
    seats = "/".join(
        ",".join(
            str(v)
            for v in (
                seat.pos[0],
                seat.pos[1],
                seat.facing,
                int(seat.sane),
                seat.pending,
                seat.zero_turn,
                int(seat.dead_start),
            )
        )
        + "|"
        + "|".join(
            (
                _multiset(rules, seat.hand),
                _multiset(rules, seat.deck),
                _multiset(rules, seat.recycle),
                ",".join(rules.tokens[c] for c in seat.exhausted) or "-",
                _multiset(rules, seat.life),
                ",".join(f"{rules.tokens[c]}{'_^+'[f]}" for c, f in seat.display) or "-",
            )
        )
        for seat in s.seats
    )
    flags = ("d" if s.dealt else "") + ("f" if s.forced else "")
    return " ".join(
        (
            seats,
            str(s.active),
            str(s.turn),
            str(s.played),
            s.last_colour or "-",
            flags or "-",
            ":".join(map(str, s.play)) or "-",
            ",".join(map(str, s.hits)) or "-",
            ",".join(f"{a}:{rules.tokens[c]}" for a, c in s.responses) or "-",
            ",".join(":".join(map(str, t)) for t in s.queue) or "-",
            "-" if s.ended is None else f"{s.ended.value}:{'.'.join(map(str, s.winners))}",
        )
    )


def parse_state(rules: RuleTables, text: str) -> ArenaState:
    def fail(why: str) -> ValueError:
        return ValueError(f"invalid {SLUG} notation {text!r}: {why}")

    fields = text.split(" ")
    if len(fields) != 11:
        raise fail(f"expected 11 fields, got {len(fields)}")
    seats_f, active, turn, played, colour, flags, play, hits, responses, queue, ended = fields
    try:
        seats = []
        for chunk in seats_f.split("/"):
            parts = chunk.split("|")
            if len(parts) != 7:
                raise fail(f"a seat has 7 parts, got {len(parts)}")
            q, r, facing, sane, pending, zero, dead = map(int, parts[0].split(","))
            display = tuple(
                (rules._by_token[item[:-1]], "_^+".index(item[-1]))
                for item in split_items(parts[6])
            )
            seats.append(
                Seat(
                    (q, r),
                    facing,
                    _parse_multiset(rules, parts[1]),
                    _parse_multiset(rules, parts[2]),
                    _parse_multiset(rules, parts[3]),
                    tuple(rules._by_token[t] for t in split_items(parts[4])),
                    _parse_multiset(rules, parts[5]),
                    display,
                    bool(sane),
                    pending,
                    zero,
                    bool(dead),
                )
            )
        if len(seats) != rules.players:
            raise fail(f"expected {rules.players} seats, got {len(seats)}")
        state = ArenaState(
            seats=tuple(seats),
            active=int(active),
            turn=int(turn),
            queue=tuple(
                (name, *map(int, rest))
                for name, *rest in (t.split(":") for t in split_items(queue))
            ),
            played=int(played),
            last_colour="" if colour == "-" else colour,
            dealt="d" in flags,
            forced="f" in flags,
            play=() if play == "-" else tuple(map(int, play.split(":"))),
            hits=tuple(map(int, split_items(hits))),
            responses=tuple(
                (int(a), rules._by_token[c])
                for a, c in (item.split(":") for item in split_items(responses))
            ),
        )
        if ended != "-":
            why, _, winners = ended.partition(":")
            state.ended = Termination(why)
            state.winners = tuple(int(w) for w in winners.split(".") if w)
    except (KeyError, ValueError, IndexError) as error:
        if isinstance(error, ValueError) and str(error).startswith("invalid"):
            raise
        raise fail(f"{type(error).__name__}: {error}") from None
    if not 0 <= state.active < rules.players:
        raise fail(f"active seat {state.active} out of range")
    for task in state.queue:
        if f"_task_{task[0]}" not in dir(rules) and task[0] not in DECISION_TASKS | CHANCE_TASKS:
            raise fail(f"unknown task {task[0]!r}")
    return state


def parse_action(rules: RuleTables, text: str) -> Action:
    kind, _, rest = text.partition(":")
    try:
        if kind == "play":
            card, _, target = rest.partition("@")
            return Play(card, int(target) if target else None)
        if kind == "move":
            card, direction, facing = rest.split(":")
            return Move(card, int(direction), int(facing))
        if kind == "stall":
            return Stall(rest)
        if kind == "discard":
            return Discard(rest)
        if kind == "absorb":
            return Absorb(int(rest))
        if kind == "maintain" and rest in ("keep", "drop"):
            return Maintain(rest == "keep")
        if kind == "dash":
            return Dash(int(rest))
        if kind == "reveal":
            return Reveal(int(rest))
        if kind == "talent" and rest in ("use", "skip"):
            return Talent(rest == "use")
        if kind == "draw" and rest:
            return Draw(rest)
    except ValueError:
        pass
    raise ValueError(f"invalid action: {text!r}")


def _multiset(rules: RuleTables, cards: Sequence[int]) -> str:
    if not cards:
        return "-"
    return ",".join(
        rules.tokens[c] if k == 1 else f"{rules.tokens[c]}*{k}"
        for c, k in sorted(Counter(cards).items())
    )


def _parse_multiset(rules: RuleTables, text: str) -> tuple[int, ...]:
    cards: list[int] = []
    for item in split_items(text):
        token, _, times = item.partition("*")
        cards.extend([rules._by_token[token]] * (int(times) if times else 1))
    return tuple(sorted(cards))
