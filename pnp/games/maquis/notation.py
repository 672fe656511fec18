"""Maquis notation: a whole position as one line of text, and back (like FEN), and an action
read from its text.

Eighteen fields separated by single spaces; vectors of resources are comma-separated in the
order of the model's resources, ``/`` separates the airdrop zones, the vacant houses and the
missions, ``-`` is an empty list or no value::

    phase day morale soldiers home cafe board stock drops tiles missions draw discard
    to_place,patrols_left,patrols,round_soldiers,r|p  killed,active,pending[,spent]
    rounds failed ended

- ``board``: one character per space (see :mod:`pnp.games.maquis.state`);
- ``missions``: each mission in play as ``id:boxes``, a box ``1`` filled and ``0`` open;
- ``draw``, ``discard``: the patrol cards by id, in card order;
- the action field: ``k`` if a kill was made this round, the acting worker's space and his
  choice (``.``: none), and what he spent of his reward on a kill, when anything.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from pnp.games.maquis.model import BoardLocation, Mission, PatrolCard, VacantTile
from pnp.games.maquis.state import (
    ACTIVE,
    EMPTY,
    POLICE,
    SLUG,
    SOLDIER,
    WORKER,
    Activate,
    Kill,
    MaquisAction,
    MaquisState,
    PatrolDraw,
    Place,
    Return,
    Stay,
    Termination,
)


class RulesTables(Protocol):
    """What a position's text needs of the table's rules (``MaquisRules``, which imports this
    module: naming it here would close an import ring)."""

    @property
    def locs(self) -> Sequence[BoardLocation]: ...
    @property
    def index(self) -> Mapping[str, int]: ...
    @property
    def res(self) -> Sequence[str]: ...
    @property
    def vacant(self) -> Sequence[int]: ...
    @property
    def zones(self) -> Sequence[int]: ...
    @property
    def tiles(self) -> Mapping[str, VacantTile]: ...
    @property
    def cards(self) -> Sequence[PatrolCard]: ...
    @property
    def card_index(self) -> Mapping[str, int]: ...
    @property
    def missions(self) -> Mapping[str, Mission]: ...


def format_position(rules: RulesTables, s: MaquisState) -> str:
    """The whole position as one line of text."""

    def vec(v: Sequence[int]) -> str:
        return ",".join(map(str, v))

    def cards(pile: Sequence[int]) -> str:
        return ",".join(rules.cards[c].id for c in pile) or "-"

    return " ".join(
        (
            s.phase,
            str(s.day),
            str(s.morale),
            str(s.soldiers),
            str(s.home),
            str(s.cafe),
            s.board,
            vec(s.stock),
            "/".join(vec(d) for d in s.drops) or "-",
            "/".join(t or "-" for t in s.tiles) or "-",
            "/".join(
                f"{m}:{''.join('1' if b else '0' for b in box)}"
                for m, box in zip(s.missions, s.boxes, strict=True)
            )
            or "-",
            cards(s.draw),
            cards(s.discard),
            f"{s.to_place},{s.patrols_left},{s.patrols},{s.round_soldiers},"
            f"{'r' if s.resistance_next else 'p'}",
            f"{'k' if s.killed else '-'},"
            f"{rules.locs[s.active].id if s.active >= 0 else '-'},{s.pending or '.'}"
            + (f",{'.'.join(map(str, s.spent))}" if s.spent else ""),
            str(s.rounds),
            "F" if s.failed else "-",
            s.ended.value if s.ended else "-",
        )
    )


def parse_position(rules: RulesTables, text: str) -> MaquisState:
    """A position read back from :func:`format_position`; ValueError if malformed."""

    def fail(why: str) -> ValueError:
        return ValueError(f"invalid {SLUG} notation {text!r}: {why}")

    parts = text.split(" ")
    if len(parts) != 18:
        raise fail(f"expected 18 fields, got {len(parts)}")
    try:
        (phase, day, morale, soldiers, home, cafe, board, stock, drops, tiles, missions) = parts[
            :11
        ]
        draw, discard, place, act, rounds, failed, ended = parts[11:]
        if phase not in ("place", "act", "over") or len(board) != len(rules.locs):
            raise fail("bad phase or board")
        if set(board) - {EMPTY, WORKER, ACTIVE, POLICE, SOLDIER}:
            raise fail("bad board")

        def vec(t: str) -> tuple[int, ...]:
            v = tuple(int(x) for x in t.split(","))
            if len(v) != len(rules.res):
                raise fail(f"expected {len(rules.res)} resources in {t!r}")
            return v

        def pile(t: str) -> tuple[int, ...]:
            return () if t == "-" else tuple(rules.card_index[c] for c in t.split(","))

        mission_ids: list[str] = []
        boxes: list[tuple[bool, ...]] = []
        for item in [] if missions == "-" else missions.split("/"):
            mid, _, marks = item.partition(":")
            if mid not in rules.missions or len(marks) != len(rules.missions[mid].steps):
                raise fail(f"bad mission {item!r}")
            mission_ids.append(mid)
            boxes.append(tuple(c == "1" for c in marks))
        tile_list = tuple("" if t == "-" else t for t in tiles.split("/")) if tiles else ()
        if len(tile_list) != len(rules.vacant) or any(
            t and t not in rules.tiles for t in tile_list
        ):
            raise fail("bad tiles")
        to_place, left, patrols, rsold, nxt = place.split(",")
        # A fourth item, when present, is what the acting worker spent from his hand.
        killed, active, pending, *spent = act.split(",")
        if len(spent) > 1:
            raise fail(f"bad action field {act!r}")
        spent_hand = tuple(int(x) for x in spent[0].split(".")) if spent else ()
        if spent_hand and (len(spent_hand) != len(rules.res) or not any(spent_hand)):
            raise fail(f"bad spent resources {spent[0]!r}")
        return MaquisState(
            phase=phase,
            day=int(day),
            morale=int(morale),
            soldiers=int(soldiers),
            home=int(home),
            cafe=int(cafe),
            board=board,
            stock=vec(stock),
            drops=tuple(vec(d) for d in drops.split("/")) if rules.zones else (),
            tiles=tile_list,
            missions=tuple(mission_ids),
            boxes=tuple(boxes),
            draw=pile(draw),
            discard=pile(discard),
            to_place=int(to_place),
            patrols_left=int(left),
            patrols=int(patrols),
            round_soldiers=int(rsold),
            resistance_next=nxt == "r",
            killed=killed == "k",
            active=-1 if active == "-" else rules.index[active],
            pending="" if pending == "." else pending,
            rounds=int(rounds),
            failed=failed == "F",
            ended=None if ended == "-" else Termination(ended),
            spent=spent_hand,
        )
    except (KeyError, ValueError) as error:
        if isinstance(error, ValueError) and str(error).startswith("invalid"):
            raise
        raise fail(str(error)) from None


def parse_action(text: str) -> MaquisAction:
    """An action read from its text (``str(action)``); ValueError if malformed."""
    kind, _, rest = text.partition(":")
    if kind == "place" and rest:
        return Place(rest)
    if kind == "patrol" and rest:
        return PatrolDraw(rest)
    if kind == "kill" and rest:
        return Kill(rest)
    if kind == "act" and ":" in rest:
        loc, _, choice = rest.partition(":")
        return Activate(loc, choice)
    if text == "stay":
        return Stay()
    if text == "home":
        return Return()
    raise ValueError(f"invalid maquis action: {text!r}")
