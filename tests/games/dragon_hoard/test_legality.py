"""Dragon Hoard: ``apply`` checks one action (``_is_legal``) instead of listing every legal
action, and the rules memoise what a step asks again and again (hands, reaches, preparation
actions). Both must be invisible: the check agrees with ``legal_actions`` on every action, legal
or not, in every position of seeded games of every policy and table, and no step ever changes
the state it was applied to."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from pnp.content.loader import load_game
from pnp.engines.base import Policy, RandomPolicy
from pnp.errors import IllegalActionError
from pnp.games.dragon_hoard.actions import (
    _ACTION_TYPES,
    Done,
    DrawAI,
    GiveUp,
    Heirloom,
    Place,
    PrepCard,
    Reveal,
    Stop,
    UseTreasure,
    Wait,
    Walk,
)
from pnp.games.dragon_hoard.model import Direction
from pnp.games.dragon_hoard.policies import PassivePolicy, TreasureHunterPolicy
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.state import DragonHoardState, Stage
from tests.conftest import CONTENT
from tests.engines.walk import positions

MODEL = load_game(CONTENT, "dragon-hoard").model
TABLES = {f"{n}p": DragonHoardRules(MODEL, n) for n in (2, 3, 4)}
PLAYER_STAGES = (Stage.PREPARATION, Stage.PLACEMENT, Stage.RESOLUTION)


def candidates(rules: DragonHoardRules) -> Iterator[object]:
    """Actions of every kind a position could be asked about: every card, treasure, gate,
    direction and distance, names that do not exist, things equal to an action without being
    it (``True`` for 1), an unhashable field, and no action at all."""
    yield from (Done(), GiveUp(), Stop(), Wait(), Reveal())
    for treasure in [*rules.treasure_ids, "no-such-treasure"]:
        yield Heirloom(treasure)
        yield UseTreasure(treasure)
        for gate in [*rules.gate_ids, "no-such-gate"]:
            yield UseTreasure(treasure, gate)
    for card in [*rules.card_ids, "no-such-card"]:
        yield Place(card)
        yield PrepCard(card)
        for direction in Direction:
            yield PrepCard(card, direction)
            for steps in range(-1, 6):
                yield PrepCard(card, direction, steps)
        yield PrepCard(card, Direction.N, True)  # equal to PrepCard(card, Direction.N, 1)
        yield PrepCard(card, None, 1)
    for steps in range(-1, 7):
        yield Walk(steps)
    yield Walk(True)  # equal to Walk(1)
    yield DrawAI(rules.ai_ids[0])
    yield Place(["unhashable"])  # type: ignore[arg-type]
    yield PrepCard("sprint", ["n"])  # type: ignore[arg-type]
    yield "done"


def check_position(rules: DragonHoardRules, state: DragonHoardState, *, try_apply: bool) -> None:
    legal = rules.legal_actions(state)
    if state.stage is Stage.PREPARATION:  # the memoised list is the one built afresh
        assert legal == rules._list_prep_actions(state, state.actor)
    for action in legal:
        assert rules._is_legal(state, state.actor, action), (action, rules.notation(state))
    for candidate in candidates(rules):
        expected = candidate in legal
        if type(candidate) in _ACTION_TYPES:
            try:
                found = rules._is_legal(state, state.actor, candidate)  # type: ignore[arg-type]
            except TypeError:
                pass  # an unhashable field: apply compares with the whole list instead
            else:
                assert found is expected, (candidate, rules.notation(state))
        if try_apply and not expected:
            with pytest.raises(IllegalActionError):
                rules.apply(state, candidate)  # type: ignore[arg-type]


@pytest.mark.parametrize("table", sorted(TABLES))
@pytest.mark.parametrize(
    "policy", [RandomPolicy(), TreasureHunterPolicy(), PassivePolicy()], ids=repr
)
def test_the_one_action_check_agrees_with_the_legal_actions_everywhere(
    table: str, policy: Policy
) -> None:
    rules = TABLES[table]
    passive = isinstance(policy, PassivePolicy)
    checked = set()
    for seed in range(6):
        for number, state in enumerate(positions(rules, policy, seed)):
            if state.stage in PLAYER_STAGES and (number % 3 == 0 or state.stage not in checked):
                check_position(rules, state, try_apply=state.stage not in checked)
                checked.add(state.stage)
    # The passive player places no move card, so it never chooses a distance.
    assert checked == set(PLAYER_STAGES) - ({Stage.RESOLUTION} if passive else set())


def test_a_memoised_answer_follows_the_position_it_was_asked_about() -> None:
    # The same seat asked twice about positions alike but for one treasure in its bag gets
    # two answers: the memo is keyed on everything the preparation actions depend on.
    rules = TABLES["2p"]
    state = rules.initial_state(random.Random(0))
    assert state.stage is Stage.PREPARATION
    without = rules.legal_actions(state)
    richer = rules.from_notation(rules.notation(state))
    gem = rules.treasure_ids.index("gem")
    richer.bags = ((gem,), *state.bags[1:])
    assert Heirloom("gem") in rules.legal_actions(richer)
    assert (
        Heirloom("gem") not in rules.legal_actions(state) and rules.legal_actions(state) == without
    )
