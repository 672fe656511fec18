"""MineVenture rules straight from the post (issue 28): one scenario per rule the engine had
bent, each citing the post (shared/seeds/003_d2668811a13e6a3c.txt) in its own words."""

from __future__ import annotations

import pytest

from pnp.content.loader import load_game
from pnp.games.mineventure.model import Mineventure
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.state import MineventureState, Mode, Termination, clone
from pnp.paths import REPOSITORY
from tests.games.mineventure.test_rules import FAR, _play, _whole_round, bare, seat, table


@pytest.fixture(scope="module")
def model() -> Mineventure:
    return load_game(REPOSITORY / "content", "mineventure").model


@pytest.fixture(scope="module")
def rules(model: Mineventure) -> MineventureRules:
    return MineventureRules(model, 3, Mode.MAP_24)


# -- no last day in the post ----------------------------------------------------------------


def hidden_in_the_end(rules: MineventureRules) -> MineventureState:
    """Every seat in the End, as far from the dragon as it goes, the story event in play, on
    the night before day `final_day` begins."""
    state = bare(rules)
    state.story = rules.story_cards[0]
    piles = list(state.piles)
    deck = rules.card_deck[state.story]
    pile, bottom, discard = piles[deck]
    piles[deck] = (tuple(c for c in pile if c != state.story)[: len(pile) - 1], bottom, discard)
    state.piles = tuple(piles)
    dx, dy = rules.dragon_at
    hideouts = sorted(
        (c for c, t in rules.terrain.items() if not t.overworld),
        key=lambda c: -(abs(c[0] - dx) + abs(c[1] - dy)),
    )
    for p, (x, y) in zip(state.players, hideouts, strict=False):
        p.x, p.y = x, y
    final = rules.settings.final_day
    state.day, state.round, state.night = final - 1, 2 * final - 1, True
    return state


def test_no_day_ends_the_game_unless_the_table_agrees_to_a_last_day(
    rules: MineventureRules, model: Mineventure
) -> None:
    # The post ends a game when the Ender Dragon falls or one player is left (「独自或与其他
    # 玩家一同击败世界BOSS」, 「场上只剩一名玩家的时候」); it has no last day. So day
    # `final_day` comes and goes; the last day is a variant a table may agree on (decision
    # final-day), off unless asked for.
    state = _whole_round(rules, hidden_in_the_end(rules))
    assert not rules.is_terminal(state) and state.day == model.settings.final_day
    state = _whole_round(rules, _whole_round(rules, state))
    assert not rules.is_terminal(state) and state.day == model.settings.final_day + 1
    variant = MineventureRules(model, 3, Mode.MAP_24, last_day=True)
    state = _whole_round(variant, hidden_in_the_end(variant))
    outcome = variant.outcome(state)
    assert outcome.termination is Termination.TIME_UP and outcome.winners == set()


# -- hand cards are not rotated -------------------------------------------------------------


def test_played_hand_cards_never_go_back_into_the_deck(rules: MineventureRules) -> None:
    # The post: hand cards 「打出后进入弃牌堆，不进行轮换」 (field cards, by contrast, go back
    # to the bottom of their deck). A hand deck that runs out stays empty: a draw from it
    # gives nothing, and the discards stay where they are (decision hand-decks-run-out).
    state = clone(table(rules, seat(5, 8, hand="fishing-rod"), seat(5, 6), FAR))
    food = rules.deck_index["food"]
    pile, bottom, discard = state.piles[food]
    assert pile and not bottom
    piles = list(state.piles)
    piles[food] = ((), (), tuple(sorted(pile + discard)))
    state.piles = tuple(piles)
    assert rules.invariant_problems(state) == []
    after = _play(rules, state, "play:fishing-rod")  # draws 2 food cards, on water
    assert not rules.is_chance(after) and after.phase == "decision"
    assert after.piles[food] == state.piles[food]
    assert after.players[0].hand == ()


# -- a new effect takes a free slot ---------------------------------------------------------


def test_a_repeated_effect_takes_a_free_slot_and_both_count(rules: MineventureRules) -> None:
    # The post: 「当没有槽位可装时，新的效果会顶替掉旧效果」 — only when no slot is free does a
    # new effect replace an old one. A second poison goes into the free negative slot, and
    # both tokens work: two points of poison a round (decision buff-slots).
    state = bare(rules)
    poison = rules.buff_index["poison"]
    rules.give_buff(state, 0, poison)
    rules.give_buff(state, 0, poison)
    held = [None if e is None else rules.buffs[e[0]].id for e in state.players[0].buffs]
    assert held == [None, "poison", "poison"]
    state.players[0].hp = 10
    state.phase, state.seat = "action", 0
    after = _whole_round(rules, state)
    amount = rules.model.buff("poison").effect.amount
    assert after.players[0].hp == 10 - 2 * amount
    # With every slot that takes it full, a third replaces the one with the fewest rounds left.
    rules.give_buff(after, 0, poison)
    assert [e and e[1] for e in after.players[0].buffs][1:] == [
        rules.model.buff("poison").rounds,
        rules.model.buff("poison").rounds - 1,
    ]
