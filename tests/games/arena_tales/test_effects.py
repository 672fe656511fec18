"""Arena Tales: one scenario per card effect kind, each failing when its handler is removed.

Each test plays a card (or a turn) through ``apply`` from a position at rest and checks what
the glossary (content/arena-tales/game.yaml) says the keyword does.
"""

from __future__ import annotations

import random

import pytest

from pnp.content.loader import load_game
from pnp.games.arena_tales.model import ArenaTales, EffectKind
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.games.arena_tales.state import (
    DOWN,
    UP,
    Absorb,
    ArenaState,
    Discard,
    Draw,
    Maintain,
    Play,
    Reveal,
)
from tests.conftest import CONTENT
from tests.games.arena_tales.test_rules import FAR, cards, position


@pytest.fixture(scope="module")
def model() -> ArenaTales:
    return load_game(CONTENT, "arena-tales").model


@pytest.fixture(scope="module")
def duel(model: ArenaTales) -> ArenaTalesRules:
    return ArenaTalesRules(model, 2, ["chiyan", "ziyuan"])


def settle(rules: ArenaTalesRules, state: ArenaState) -> ArenaState:
    """Resolve what the card left: damage taken face down, the first card of every draw, the
    first choice of every other decision; stops when the active player may act again."""
    while state.queue and not rules.is_terminal(state):
        if rules.is_chance(state):
            state = rules.apply(state, rules.chance_outcomes(state)[0][0])
        elif state.queue[0][0] == "absorb":
            state = rules.apply(state, Absorb(0))
        else:
            state = rules.apply(state, rules.legal_actions(state)[0])
    return state


def code(rules: ArenaTalesRules, token: str) -> int:
    return rules._by_token[token]


# -- combat keywords ------------------------------------------------------------------------


def test_backlash_hurts_the_user(duel: ArenaTalesRules) -> None:
    # 反噬 X: after the card, X damage to its user (巨拳: 反噬 1).
    state = position(duel, hands=[("giant-fist", "jab"), ("jab",)], places=[(0, 0), (0, -1)])
    after = settle(duel, duel.apply(state, Play("giant-fist")))
    assert len(after.seats[1].life) == 10 - 3
    assert len(after.seats[0].life) == 10 - 1


def test_fixed_damage_ignores_display_bonuses(duel: ArenaTalesRules) -> None:
    # 固定伤害: 寒星 deals its 2 even with 怒火 (展示中 伤害 +1) face up.
    state = position(duel, hands=[("cold-star", "jab"), ("jab",)], places=[(0, 0), (0, -3)])
    state.seats[0].display = ((code(duel, "rage"), UP),)
    assert duel.apply(state, Play("cold-star")).queue[0] == ("absorb", 1, 2)


def test_damage_up_while_displayed_adds_to_every_damage_card(duel: ArenaTalesRules) -> None:
    # 展示中 伤害 +1 (怒火): a 直拳 of 1 deals 2.
    state = position(duel, hands=[("jab", "jab"), ("jab",)], places=[(0, 0), (0, -1)])
    state.seats[0].display = ((code(duel, "rage"), UP),)
    assert duel.apply(state, Play("jab")).queue[0] == ("absorb", 1, 2)


def test_reach_while_displayed_lengthens_every_range(duel: ArenaTalesRules) -> None:
    # 展示中 范围 +1 (山岳意志): 直拳 (range 1) reaches an enemy two hexes away.
    state = position(duel, hands=[("jab", "jab"), ("jab",)], places=[(0, 0), (0, -2)])
    assert not duel.apply(state, Play("jab")).queue
    state.seats[0].display = ((code(duel, "mountain-will"), UP),)
    assert duel.apply(state, Play("jab")).queue[0] == ("lose", 1, 0, 1)


def test_indiscriminate_damage_hits_teammates_too(model: ArenaTales) -> None:
    # 无差别伤害: 炎爆 (1 on every side) hits the teammate next to you; never yourself.
    rules = ArenaTalesRules(model, 4)
    places = [(0, 0), FAR, (0, -1), (-4, 4)]
    state = position(rules, hands=[("flame-burst", "jab"), (), (), ()], places=places)
    assert rules.teams[2] == rules.teams[0]
    assert rules.apply(state, Play("flame-burst")).queue[0] == ("absorb", 2, 2)
    state = position(rules, hands=[("jab", "jab"), (), (), ()], places=places)
    assert not rules.apply(state, Play("jab")).queue  # without it, teammates are safe


# -- cards moving between zones ---------------------------------------------------------------


def test_heal_returns_the_newest_face_down_cards_to_life(duel: ArenaTalesRules) -> None:
    # 回复 1 (调息): the newest face-down display card goes back to the life zone.
    state = position(duel, hands=[("catch-breath", "jab"), ("jab",)], places=[(0, 0), FAR])
    state.seats[0].display = ((code(duel, "quick-step"), DOWN), (code(duel, "side-kick"), DOWN))
    after = settle(duel, duel.apply(state, Play("catch-breath")))
    assert code(duel, "side-kick") in after.seats[0].life and len(after.seats[0].life) == 11
    assert (code(duel, "quick-step"), DOWN) in after.seats[0].display


def test_see_through_turns_the_hit_characters_face_down_cards_up(duel: ArenaTalesRules) -> None:
    # 识破 2 (点穴, 打出后): two face-down cards of the character hit, chosen by the user (post:
    # 「选择目标玩家展示区 X 张盖卡」), turn face up; here the oldest and the newest.
    state = position(duel, hands=[("pressure-point", "jab"), ("jab",)], places=[(0, 0), (0, -1)])
    state.seats[1].display = ((code(duel, "quick-step"), DOWN), (code(duel, "side-kick"), DOWN))
    state = duel.apply(state, Play("pressure-point"))
    while state.queue[0][0] != "reveal":
        state = settle_one(duel, state)
    assert duel.legal_actions(state) == [Reveal(0), Reveal(1), Reveal(2)]  # + the life card lost
    after = settle(duel, duel.apply(duel.apply(state, Reveal(0)), Reveal(2)))
    faces = [face for _, face in after.seats[1].display]
    assert faces == [UP, DOWN, UP]  # quick-step and the life card lost; side-kick stays down


def settle_one(rules: ArenaTalesRules, state: ArenaState) -> ArenaState:
    """One step of ``settle``."""
    if rules.is_chance(state):
        return rules.apply(state, rules.chance_outcomes(state)[0][0])
    if state.queue[0][0] == "absorb":
        return rules.apply(state, Absorb(0))
    return rules.apply(state, rules.legal_actions(state)[0])


def test_recycle_moves_the_top_of_the_exhausted_pile(duel: ArenaTalesRules) -> None:
    # 回收 2 (镇守): the top two cards of your exhausted pile go to your recycle pile.
    state = position(duel, hands=[("stand-guard", "jab"), ("jab",)], places=[(0, 0), FAR])
    state.seats[0].exhausted = tuple(code(duel, t) for t in ("jab", "side-kick", "quick-step"))
    after = settle(duel, duel.apply(state, Play("stand-guard")))
    assert after.seats[0].exhausted == (code(duel, "jab"),)
    assert after.seats[0].recycle == cards(duel, "side-kick", "quick-step")


def test_exhaust_sends_the_hit_characters_newest_face_down_card_away(
    duel: ArenaTalesRules,
) -> None:
    # 耗竭 1 (缠丝手, 打出后): the newest face-down card of the character hit is exhausted.
    state = position(duel, hands=[("silk-hand", "jab"), ("jab",)], places=[(0, 0), (0, -1)])
    state.seats[1].display = ((code(duel, "quick-step"), DOWN),)
    after = settle(duel, duel.apply(state, Play("silk-hand")))
    assert after.seats[1].display == ((code(duel, "quick-step"), DOWN),)
    assert len(after.seats[1].exhausted) == 1  # the life card just lost


def test_discard_asks_for_a_card_before_play(duel: ArenaTalesRules) -> None:
    # 弃牌 1 (影遁, 打出前): choose a hand card, face down into the display.
    state = position(
        duel, hands=[("shadow-hide", "jab", "side-kick"), ("jab",)], places=[(0, 0), FAR]
    )
    after = duel.apply(state, Play("shadow-hide"))
    assert after.queue[0] == ("discard", 0, 1)
    after = duel.apply(after, Discard("side-kick"))
    assert after.seats[0].display[0] == (code(duel, "side-kick"), DOWN)


def test_display_adds_one_damage_per_damage_card_shown(duel: ArenaTalesRules) -> None:
    # 展示 2 (花影): two cards from the deck face up; each damage card among them: damage +1.
    state = position(duel, hands=[("flower-shadow", "jab"), ("jab",)], places=[(0, 0), (0, -2)])
    after = duel.apply(state, Play("flower-shadow"))
    assert after.queue[0] == ("draw", 0, 2, 1)
    after = duel.apply(duel.apply(after, Draw("jab")), Draw("jab"))
    assert after.queue[0] == ("absorb", 1, 3)  # 1 + 2 jabs shown


def test_draw_takes_cards_into_the_hand(duel: ArenaTalesRules) -> None:
    # 抽 2 (迷踪), then 弃牌 1 after play.
    state = position(duel, hands=[("lost-trail", "side-kick"), ("jab",)], places=[(0, 0), FAR])
    after = duel.apply(state, Play("lost-trail"))
    assert after.queue[0] == ("draw", 0, 2, 0)


# -- combos and elements ----------------------------------------------------------------------


def test_combo_play_draws_after_a_card_of_the_same_colour(duel: ArenaTalesRules) -> None:
    # 连击打出 (追风): the last card played this turn was cyan too: draw 1 on play.
    hand = ("returning-wind", "chasing-wind", "jab")
    state = position(duel, hands=[hand, ("jab",)], places=[(0, 0), FAR])
    alone = duel.apply(state, Play("chasing-wind"))
    assert not alone.queue
    first = duel.apply(state, Play("returning-wind"))
    assert duel.apply(first, Play("chasing-wind")).queue[0] == ("draw", 0, 1, 0)


def test_burst_spends_crystals_for_their_boosts(duel: ArenaTalesRules) -> None:
    # 元素爆发 2 (焚天掌) with two 元素结晶-火 in the display: damage +1 each, crystals exhausted.
    state = position(duel, hands=[("sky-burning-palm", "jab"), ("jab",)], places=[(0, 0), (0, -3)])
    seed = code(duel, "fire-seed")
    state.seats[0].display = ((seed, UP), (seed, UP))
    after = duel.apply(state, Play("sky-burning-palm"))
    assert after.queue[0] == ("absorb", 1, 4)
    assert after.seats[0].exhausted == (seed, seed)


def test_crystals_permanent_cards_and_talents_stay_maintained_cards_ask(
    duel: ArenaTalesRules,
) -> None:
    # Start of turn: 元素结晶, 永久展示中 and the talent stay; a 维持 card asks its owner to pay.
    state = position(duel, hands=[("jab", "side-kick"), ("jab",)], places=[(0, 0), FAR])
    state.active = 1
    stay = [code(duel, t) for t in ("blazing-heart", "fire-seed", "golden-bell")]
    state.seats[0].display = (
        *((c, UP) for c in stay),
        (code(duel, "meditation"), UP),
        (code(duel, "rage"), UP),
        (code(duel, "quick-step"), DOWN),
    )
    after = duel.apply(state, Play("jab"))  # seat 1's hand is empty: seat 0's turn starts
    assert after.queue[0] == ("maintain", 0, 3)
    kept = duel.apply(after, Maintain(True))
    assert kept.queue[0] == ("discard", 0, 1)  # 维持 1: one hand card
    kept = settle(duel, duel.apply(kept, Discard("jab")))
    assert [c for c, _ in kept.seats[0].display] == [*stay, code(duel, "meditation")]
    assert kept.seats[0].exhausted == (code(duel, "rage"),)
    dropped = settle(duel, duel.apply(after, Maintain(False)))
    assert [c for c, _ in dropped.seats[0].display] == stay


def test_a_talent_changes_the_life_dealt(duel: ArenaTalesRules) -> None:
    # 初始天赋 生命 −3 (炎心, 赤焰) and +2 (鹰眼, 紫鸢): the life zone is dealt that many more.
    state = duel.initial_state(random.Random(0))
    assert len(state.seats[0].life) == duel.life - 3
    assert len(state.seats[1].life) == duel.life + 2


COVERED = {
    EffectKind.LOCK: "test_rules::test_snipe_hits_only_at_exactly_its_distance_and_lock_needs_"
    "a_target",
    EffectKind.FIXED_DAMAGE: "test_fixed_damage_ignores_display_bonuses",
    EffectKind.INDISCRIMINATE: "test_indiscriminate_damage_hits_teammates_too",
    EffectKind.KNOCKBACK: "test_rules::test_knockback_pushes_along_the_attack_direction",
    EffectKind.COUNTER: "test_readings::test_counter_also_nullifies_fixed_damage",
    EffectKind.MAINTAIN: "test_crystals_permanent_cards_and_talents_stay_maintained_cards_ask",
    EffectKind.PERMANENT: "test_crystals_permanent_cards_and_talents_stay_maintained_cards_ask",
    EffectKind.CRYSTAL: "test_crystals_permanent_cards_and_talents_stay_maintained_cards_ask",
    EffectKind.LIFE: "test_a_talent_changes_the_life_dealt",
    EffectKind.BACKLASH: "test_backlash_hurts_the_user",
    EffectKind.HEAL: "test_heal_returns_the_newest_face_down_cards_to_life",
    EffectKind.SEE_THROUGH: "test_see_through_turns_the_hit_characters_face_down_cards_up",
    EffectKind.RECYCLE: "test_recycle_moves_the_top_of_the_exhausted_pile",
    EffectKind.EXHAUST: "test_exhaust_sends_the_hit_characters_newest_face_down_card_away",
    EffectKind.DISCARD: "test_discard_asks_for_a_card_before_play",
    EffectKind.DISPLAY: "test_display_adds_one_damage_per_damage_card_shown",
    EffectKind.DRAW: "test_draw_takes_cards_into_the_hand",
    EffectKind.COMBO: "test_rules::test_combo_adds_damage_after_a_card_of_the_same_colour",
    EffectKind.COMBO_PLAY: "test_combo_play_draws_after_a_card_of_the_same_colour",
    EffectKind.BURST: "test_burst_spends_crystals_for_their_boosts",
    EffectKind.DAMAGE_UP: "test_damage_up_while_displayed_adds_to_every_damage_card",
    EffectKind.REACH: "test_reach_while_displayed_lengthens_every_range",
    EffectKind.DASH: "test_readings::test_a_dash_may_stop_short_of_its_number",
}
"""Where each effect kind's scenario lives."""


def test_every_effect_kind_has_a_scenario() -> None:
    assert set(COVERED) == set(EffectKind)
