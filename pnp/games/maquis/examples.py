"""Rulebook examples and the example tables: positions this engine plays out for the prose."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from pnp.engines.base import Rules
from pnp.games.maquis.model import LocationKind, Maquis
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import EMPTY, POLICE, SOLDIER, WORKER, MaquisState, PatrolDraw
from pnp.games.maquis.state import put as _put


def example_tables(model: Maquis) -> list[tuple[str, Rules[Any, Any]]]:
    """Tables the shared contract test plays: the easiest, normal and the hardest level."""
    return [
        (level, MaquisRules(model, difficulty=level))
        for level in ("very-easy", "normal", "very-hard")
        if level in model.difficulty
    ]


def rulebook_examples(model: Maquis) -> dict[str, dict[str, Any]]:
    """Worked examples for the rulebook, played out by this engine so prose cannot drift.

    ``patrol``: the first patrol card drawn in three situations on the board (its first space
    held by a policeman, its second by a resistance worker): with the third space empty, then
    with a worker there too, then with patrols on all three. ``count``: the patrols of a
    round at two morale values.
    """
    rules = MaquisRules(model, difficulty="normal")
    start = rules.initial_state(random.Random(0))
    card = model.patrol_cards[0]
    first, second, third = (rules.index[x] for x in card.locations)
    names = [model.location[x].name for x in card.locations]

    def draw(marks: dict[int, str]) -> tuple[MaquisState, MaquisState]:
        board = EMPTY * len(rules.locs)
        for i, c in marks.items():
            board = _put(board, i, c)
        before = replace(
            start,
            board=board,
            home=0,
            to_place=0,
            patrols_left=1,
            patrols=1 + board.count(POLICE),
            round_soldiers=0,
            resistance_next=False,
        )
        assert rules.is_chance(before)
        return before, rules.apply(before, PatrolDraw(card.id))

    def landed(before: MaquisState, after: MaquisState) -> str:
        spots = [
            rules.locs[i].name
            for i, (a, b) in enumerate(zip(before.board, after.board, strict=True))
            if a != b
        ]
        return spots[0] if spots else ""

    b1, a1 = draw({first: POLICE, second: WORKER})
    b2, a2 = draw({first: POLICE, second: WORKER, third: WORKER})
    # A worker elsewhere keeps the round going, so the board can be read after the draw.
    elsewhere = next(
        i
        for i, loc in enumerate(rules.locs)
        if loc.kind is LocationKind.ACTION and i not in (first, second, third)
    )
    b3, a3 = draw({first: POLICE, second: SOLDIER, third: POLICE, elsewhere: WORKER})
    arrested = a2.board[second] != WORKER and b2.board[second] == WORKER

    morale_high = model.morale.top
    morale_low = 1
    home = rules.level.workers

    def patrols(morale: int) -> int:
        s = rules._start_round(replace(start, morale=morale, home=home))
        return s.patrols

    return {
        "patrol": {
            "card": card.name,
            "spaces": names,
            "first": names[0],
            "second": names[1],
            "third": names[2],
            "lands": landed(b1, a1),
            "arrest_at": landed(b2, a2),
            "arrested": arrested,
            "workers_left": sum(c == WORKER for c in a2.board),
            "blocked_placed": a3.board != b3.board,
        },
        "count": {
            "home": home,
            "high_morale": morale_high,
            "high_red": model.morale.red_at(morale_high),
            "high_patrols": patrols(morale_high),
            "low_morale": morale_low,
            "low_red": model.morale.red_at(morale_low),
            "low_patrols": patrols(morale_low),
        },
    }
