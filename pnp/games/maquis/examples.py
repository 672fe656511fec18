"""Rulebook examples and the example tables: positions this engine plays out for the prose."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from pnp.engines.base import Rules
from pnp.engines.view import Pictured, played_until
from pnp.games.maquis.model import LocationKind, Maquis
from pnp.games.maquis.policies import GreedyPolicy
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import ACTIVE, EMPTY, POLICE, SOLDIER, WORKER, MaquisState, PatrolDraw
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


def _workers(state: MaquisState) -> int:
    return state.home + state.cafe + state.board.count(WORKER) + state.board.count(ACTIVE)


def rulebook_positions(model: Maquis) -> dict[str, Pictured]:
    """Positions the rulebook draws, reached by playing the normal level with the greedy
    policy from a seeded start: the board at setup; the first round (placed, then played out);
    a patrol card placing its figure; a worker arrested on the way home or by a patrol."""
    rules = MaquisRules(model, difficulty="normal")
    policy = GreedyPolicy()
    start = rules.initial_state(random.Random(0))
    _, _, _, placed = played_until(rules, policy, lambda b, a, c: b.phase == "place" != c.phase)
    round_end = played_until(rules, policy, lambda b, a, c: c.rounds > b.rounds)
    patrol = played_until(
        rules, policy, lambda b, a, c: isinstance(a, PatrolDraw) and c.board != b.board
    )
    arrest = next(
        (
            found
            for seed in range(40)
            for found in [_arrest(rules, policy, seed)]
            if found is not None
        ),
        None,
    )
    positions = {
        "setup": Pictured(rules, (start,)),
        "first-round": Pictured(
            rules,
            (start, placed, round_end[1]),
            between=(),
            captions=("开局", "放置完毕", "第一天结束"),
        ),
        "patrol": Pictured(
            rules,
            (patrol[1], patrol[3]),
            played=patrol[0],
            between=(patrol[2],),
            captions=("翻开巡逻牌之前", "巡逻就位"),
        ),
    }
    if arrest is not None:
        positions["arrest"] = Pictured(
            rules,
            (arrest[1], arrest[3]),
            played=arrest[0],
            between=(arrest[2],),
            captions=("被捕之前", "工人被捕"),
        )
    return positions


def _arrest(
    rules: MaquisRules, policy: Any, seed: int
) -> tuple[tuple[Any, ...], MaquisState, Any, MaquisState] | None:
    try:
        return played_until(
            rules, policy, lambda b, a, c: _workers(c) < _workers(b), seed=seed, limit=800
        )
    except ValueError:
        return None
