"""Dragon Hoard notation: one line of space-separated fields (like FEN) that every error
message quotes, read back exactly, with located errors for bad text."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from pnp.engines.base import RandomPolicy
from pnp.games.dragon_hoard.policies import TreasureHunterPolicy
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.state import Stage
from tests.games.dragon_hoard.test_rules import MODEL

FLOOR = (
    "1.1:gold,1.9:gem,1.11:gold,2.6:gold,3.1:gem,3.9:dragon-scale,4.4:crown,4.8:dragon-diamond,"
    "6.2:gold,6.6:dragon-heart,6.10:gold,8.4:dragon-diamond,8.8:crown,9.3:dragon-scale,"
    "9.11:gem,10.6:gold,11.1:gold,11.3:gem,11.11:gold"
)
DECK = (
    "ice-breath,flame-breath,frost-lance,fire-lance,tail-sweep,wing-storm,pounce,prowl,fury,"
    "frozen-ground,return-nest,roar-home,coil"
)


def test_the_first_position_reads_as_one_line() -> None:
    rules = DragonHoardRules(MODEL, 2)
    text = rules.notation(rules.initial_state(random.Random(0)))
    assert (
        text == f"1 prep 0 0 6.12/0.6 -/- -/- 0/0 - - 0 - {DECK} - - - - 0 0 - 6.6 {FLOOR} - - 0 0"
    )
    assert "\n" not in text and rules.from_notation(text) == rules.initial_state(random.Random(0))


def test_a_position_set_up_from_notation_plays_on() -> None:
    # Seat 0 on 2.4 placed a move south; seat 1 has stopped. Stopping ends placement and the
    # move card's owner chooses how far it goes (decision `move-distance`).
    rules = DragonHoardRules(MODEL, 2)
    deck = DECK.replace("prowl,", "").replace("pounce,", "")
    text = (
        f"1 place 0 0 2.4/12.5 -/- move-s/- 0/0x 0:move-s - 0 - {deck} prowl pounce - - 0 0 - "
        f"6.6 {FLOOR} - - 0 0"
    )
    state = rules.from_notation(text)
    assert rules.notation(state) == text
    after = rules.apply(state, rules.parse_action("stop"))
    assert after.stage is Stage.RESOLUTION
    head = " ".join(rules.notation(after).split(" ")[:10])
    assert head == "1 resolve 0 0 2.4/12.5 -/- move-s/- 0x/0x 0:move-s 0:move-s,ai:prowl"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_position_of_seeded_play_reads_back(players: int) -> None:
    rules = DragonHoardRules(MODEL, players)
    stages = set()
    for seed in range(8):
        rng = random.Random(seed)
        policy = TreasureHunterPolicy() if seed % 2 else RandomPolicy()
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            text = rules.notation(state)
            assert rules.from_notation(text) == state, text
            stages.add(state.stage)
            if rules.current_player(state) is None:
                action = rules.sample_chance(state, rng)
            else:
                action = policy.choose(rules, state, rng)
            state = rules.apply(state, action)
        assert rules.from_notation(rules.notation(state)) == state
    assert Stage.RESOLUTION in stages


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda f: f[:3], "expected 26 fields"),
        (lambda f: [*f[:1], "bid", *f[2:]], "stage: unknown stage 'bid'"),
        (lambda f: [*f[:4], "6.12/0.6/1.1", *f[5:]], "pawns: expected 2 seats, got 3"),
        (lambda f: [*f[:4], "6.13/0.6", *f[5:]], "pawns: cell '6.13' is off the map"),
        (lambda f: [*f[:5], "^ruby/-", *f[6:]], "bags: unknown id 'ruby'"),
        (lambda f: [*f[:2], "5", *f[3:]], "holder: seat 5 at a table of 2"),
    ],
)
def test_bad_notation_says_which_field_is_wrong(
    change: Callable[[list[str]], list[str]], message: str
) -> None:
    rules = DragonHoardRules(MODEL, 2)
    fields = rules.notation(rules.initial_state(random.Random(0))).split(" ")
    text = " ".join(change(fields))
    with pytest.raises(ValueError, match=r"^invalid dragon-hoard notation '") as error:
        rules.from_notation(text)
    assert message in str(error.value)
