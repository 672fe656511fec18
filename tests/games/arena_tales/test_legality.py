"""Arena Tales: ``apply`` checks one action (``is_legal``) instead of listing every legal action,
and builds the next state sharing the seats a step leaves alone. Both must be invisible: the
check agrees with ``legal_actions`` on every action, legal or not, in every position of seeded
games of every policy and table, and no step ever changes the state it was applied to."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pnp.content.loader import load_game
from pnp.engines.base import Policy, RandomPolicy
from pnp.errors import IllegalActionError
from pnp.games.arena_tales import combat
from pnp.games.arena_tales.policies import PassivePolicy, SensiblePolicy
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.games.arena_tales.state import (
    DECISION_TASKS,
    Absorb,
    Action,
    ArenaState,
    Dash,
    Discard,
    Draw,
    Maintain,
    Move,
    Play,
    Stall,
)
from tests.conftest import CONTENT
from tests.engines.walk import positions

MODEL = load_game(CONTENT, "arena-tales").model
TABLES = {
    "2p": ArenaTalesRules(MODEL, 2),
    "4p": ArenaTalesRules(MODEL, 4, [c.id for c in MODEL.characters][2:6]),
    "6p": ArenaTalesRules(MODEL, 6, draft=True),
}


def candidates(rules: ArenaTalesRules, state: ArenaState) -> Iterator[object]:
    """Actions of every kind the position could be asked about: each card in the active
    player's hand, a card held elsewhere and one that does not exist, every seat, direction,
    facing and count, and things equal to an action without being of its type, or no action."""
    hand = sorted({rules.tokens[c] for c in state.seats[state.active].hand})
    elsewhere = [rules.tokens[c] for seat in state.seats for c in (*seat.deck, *seat.life)]
    tokens = [*hand, *elsewhere[:1], "no-such-card"]
    for token in tokens:
        yield Play(token)
        for target in range(-1, rules.players + 1):
            yield Play(token, target)
        for direction in range(-1, 7):
            for facing in range(-1, 7):
                yield Move(token, direction, facing)
        yield Stall(token)
        yield Discard(token)
        yield Draw(token)
    for token in elsewhere[:: max(1, len(elsewhere) // 8)]:
        yield Draw(token)
    for count in range(-1, 12):
        yield Absorb(count)
        yield Dash(count)
    yield Maintain(True)
    yield Maintain(False)
    yield Absorb(True)  # equal to Absorb(1)
    yield Move(tokens[0], True, 0)  # equal to Move(token, 1, 0)
    yield Play(["unhashable"])  # type: ignore[arg-type]
    yield "play:jab"


def check_position(rules: ArenaTalesRules, state: ArenaState, *, try_apply: bool) -> None:
    legal: list[Action] = rules.legal_actions(state)
    for action in legal:
        assert rules.is_legal(state, action), (action, rules.notation(state))
    for candidate in candidates(rules, state):
        expected = candidate in legal
        assert rules.is_legal(state, candidate) is expected, (candidate, rules.notation(state))
        if not expected and try_apply:
            with pytest.raises(IllegalActionError):
                rules.apply(state, candidate)  # type: ignore[arg-type]


def decision(state: ArenaState) -> str | None:
    """The decision task at the head of the queue, if any."""
    return state.queue[0][0] if state.queue and state.queue[0][0] in DECISION_TASKS else None


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize("policy", [RandomPolicy(), SensiblePolicy(), PassivePolicy()], ids=repr)
def test_is_legal_agrees_with_the_legal_actions_everywhere(table: str, policy: Policy) -> None:
    rules = TABLES[table]
    for number, state in enumerate(positions(rules, policy, seed=len(table))):
        # Every decision and every fourth other position (the positions of a game are alike).
        if number % 4 == 0 or decision(state):
            check_position(rules, state, try_apply=number % 40 == 0)


def test_is_legal_agrees_on_every_kind_of_decision() -> None:
    # Maintain and discard decisions are rare: play on until each kind was checked.
    seen: set[str] = set()
    for seed in range(40):
        for state in positions(TABLES["4p"], RandomPolicy(), seed):
            name = decision(state)
            if name is not None:
                check_position(TABLES["4p"], state, try_apply=name not in seen)
                seen.add(name)
        if seen == DECISION_TASKS:
            break
    assert seen == DECISION_TASKS


def test_a_stall_is_legal_only_with_no_play_and_no_move() -> None:
    # Decided (stuck): with no play and no move possible, discard a card where you stand.
    # Out of control next to the only enemy no step is closer, and a talent cannot be played.
    rules = TABLES["2p"]
    state = rules.initial_state(random.Random(0))
    talent = rules._talents[0]
    assert talent is not None
    state.queue = ()
    mover = state.seats[0]
    mover.hand, mover.sane, mover.pos = (talent,), False, (0, 0)
    state.seats[1].pos = (0, -1)
    token = rules.tokens[talent]
    assert rules.legal_actions(state) == [Stall(token)]
    assert rules.is_legal(state, Stall(token))
    assert not rules.is_legal(state, Play(token)) and not rules.is_legal(state, Move(token, 3, 0))
    # Back in control the piece may step away: then a stall is no longer legal.
    mover.sane = True
    assert Stall(token) not in rules.legal_actions(state)
    assert not rules.is_legal(state, Stall(token))


def test_the_lock_shortcut_finds_the_same_targets() -> None:
    # 锁定 targets are looked for only when someone stands on a line the card covers: the
    # shortcut must agree with working out every hit, in every position of seeded games.
    rules = TABLES["4p"]
    locked = [c for c in range(len(rules.tokens)) if rules._locks[c]]
    assert rules._lines_exact and locked
    checked = 0
    for seed in range(6):
        for state in positions(rules, RandomPolicy(), seed):
            if state.queue or state.ended is not None:
                continue
            seat = state.seats[state.active]
            bonus = combat.range_bonus(rules, seat, None)
            for code in locked:
                full = combat.hits(rules, state, state.active, code, bonus)
                assert rules._lock_hits(state, code) == full, rules.notation(state)
                checked += 1
    assert checked > 1000


def test_apply_of_a_listed_action_is_apply_of_an_equal_one() -> None:
    # apply skips the check for the very objects legal_actions listed (or sample_chance drew):
    # the state it makes must be the one an equal, freshly made action makes.
    rules = TABLES["4p"]
    rng = random.Random(5)
    for number, state in enumerate(positions(rules, RandomPolicy(), seed=5)):
        if state.ended is not None or number % 3:
            continue
        if rules.current_player(state) is None:
            action: Action = rules.sample_chance(state, rng)
        else:
            action = rng.choice(rules.legal_actions(state))
        fresh = rules.parse_action(str(action))
        assert fresh is not action and fresh == action
        before = rules.notation(state)
        after = rules.notation(rules.apply(state, action))
        assert rules.notation(rules.apply(state, fresh)) == after
        assert rules.notation(state) == before  # apply stays pure
