"""Arena Tales: the rules of issue 13, each a scenario citing the post
(shared/seeds/002_e9a2f11918556f0f.txt) or the decision in content/arena-tales/game.yaml."""

from __future__ import annotations

import random
from typing import Any

import pytest

from pnp.content.loader import load_game
from pnp.engines.base import Rules, play_game
from pnp.games.arena_tales.combat import hits
from pnp.games.arena_tales.model import ArenaTales, CardType
from pnp.games.arena_tales.policies import SensiblePolicy
from pnp.games.arena_tales.rules import ArenaTalesRules
from pnp.games.arena_tales.simulation import TURN_CAP
from pnp.games.arena_tales.state import (
    DOWN,
    UP,
    Absorb,
    Dash,
    Draw,
    Move,
    Play,
    Reveal,
    Stall,
    Talent,
)
from tests.conftest import CONTENT
from tests.games.arena_tales.test_rules import FAR, cards, position


@pytest.fixture(scope="module")
def model() -> ArenaTales:
    return load_game(CONTENT, "arena-tales").model


@pytest.fixture(scope="module")
def duel(model: ArenaTales) -> ArenaTalesRules:
    return ArenaTalesRules(model, 2, ["chiyan", "ziyuan"])


def decision(model: ArenaTales, ident: str) -> str:
    """The answer of a recorded decision (the engine follows what the rulebook prints)."""
    found = [d for d in model.decisions if d.id == ident]
    assert found, f"no decision {ident!r} in content/arena-tales/game.yaml"
    return str(found[0].answer)


# -- the recycle pile -------------------------------------------------------------------------


def test_the_recycle_pile_becomes_the_deck_the_moment_the_deck_runs_out(
    duel: ArenaTalesRules, model: ArenaTales
) -> None:
    # Post (回收区): the moment the deck is drawn empty, the recycle pile is shuffled and
    # becomes the new deck — not later, at the next draw.
    state = position(duel, hands=[("jab",), ("jab", "jab")], places=[(0, 0), FAR])
    seat = state.seats[1]
    seat.deck = cards(duel, "side-kick")
    seat.recycle = cards(duel, "quick-step", "quick-step")
    after = duel.apply(state, Play("jab"))  # seat 0's hand is empty: seat 1's turn
    assert after.active == 1 and after.queue[0] == ("draw", 1, 1, 0)
    after = duel.apply(after, Draw("side-kick"))  # the refill takes the last card
    assert after.seats[1].deck == cards(duel, "quick-step", "quick-step")
    assert after.seats[1].recycle == ()
    assert "recycle-reshuffle" in {d.id for d in model.decisions}


def test_cards_recycled_onto_an_empty_deck_become_the_deck_at_once(
    duel: ArenaTalesRules,
) -> None:
    # Decided (recycle-reshuffle): a deck never stays empty while the recycle pile holds cards,
    # so the start-of-turn clean-up refills an empty deck before the draw.
    state = position(duel, hands=[("jab",), ("jab", "jab")], places=[(0, 0), FAR])
    seat = state.seats[1]
    seat.deck = ()
    seat.display = ((duel._by_token["quick-step"], DOWN),)
    after = duel.apply(state, Play("jab"))
    assert after.seats[1].deck == cards(duel, "quick-step") and after.seats[1].recycle == ()
    assert duel.chance_outcomes(after) == [(Draw("quick-step"), 1.0)]


# -- 失控 and turtling --------------------------------------------------------------------------


def test_a_frenzied_player_next_to_an_enemy_may_not_step_away(duel: ArenaTalesRules) -> None:
    # Post (失控): every discard-move of a frenzied player must end closer to an enemy. Next to
    # the enemy no step is closer, so no discard-move is legal (decided: out-of-control-closer).
    # 断魂 ([2], 锁定) has no one to lock at distance 1.
    state = position(duel, hands=[("soul-cutter",), ("jab",)], places=[(0, 0), (0, -1)])
    state.seats[0].sane = False
    actions = duel.legal_actions(state)
    assert not [a for a in actions if isinstance(a, Move)]
    # Decided (stuck): with nothing to play and nowhere to go, a card is given up in
    # place: it goes straight to the exhausted pile instead of coming back.
    assert actions == [Stall("soul-cutter")]
    after = duel.apply(state, Stall("soul-cutter"))
    assert after.seats[0].exhausted == (duel._by_token["soul-cutter"],)
    assert after.seats[0].display == ()


class PassivePolicy:
    """Never plays a damage card: moves, stalls and other cards at random."""

    def choose(self, rules: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
        assert isinstance(rules, ArenaTalesRules)
        actions = rules.legal_actions(state)
        calm = [
            a
            for a in actions
            if not (isinstance(a, Play) and rules.card(a.card).type is CardType.DAMAGE)
        ]
        choices = calm or actions
        return choices[int(rng.random() * len(choices))]


@pytest.mark.parametrize("players", [2, 4])
def test_two_passive_sides_reach_a_natural_end(model: ArenaTales, players: int) -> None:
    # Post (理智/失控): the sanity card exists to end turtling. Sides that never attack must
    # still reach a natural end (here: every one of the games, the issue asks 95 %).
    roster = [c.id for c in model.characters]
    games, ended = 20, 0
    for index in range(games):
        rng = random.Random(1000 + index)
        rules = ArenaTalesRules(model, players, rng.sample(roster, players))
        record = play_game(
            rules, [PassivePolicy()] * players, rng, TURN_CAP * 200, max_turns=TURN_CAP
        )
        ended += record.outcome is not None
    assert ended >= 0.95 * games


ENDLESS = (
    "-2,-2,0,0,0,-1,0|-|hidden-arrow*2,fatal-shot|-|drifting-body,cold-star,backward-glance,"
    "arrow-rain,bead-string,side-kick,cold-star,pressure-point,backward-glance,quick-step,"
    "shadow-hide,hawk-eye,pressure-point,catch-breath,quick-step,catch-breath,bead-string,"
    "arrow-rain|jab*2,side-kick,cloud-piercer*2,drifting-body,shadow-hide,fatal-shot|hawk-eye^,"
    "kite-feather^,kite-feather^/-1,-2,0,0,0,-1,0|-|-|-|heart-eater,shadow-bind,lost-trail,"
    "side-kick,shadow-strike,catch-breath,insight,afterimage,afterimage,catch-breath,jab,"
    "ink-stain,lost-trail,shadow-bind,ghost-step,quick-step,quick-step|jab,side-kick,insight,"
    "shadow-strike,ink-stain,soul-snatch*2,ghost-step,netherworld*2,heart-eater|shadow-soul^,"
    "shadow-soul_,soul-cutter_,soul-cutter_ 0 400 0 - - - - - draw:0:3:0 -"
)
"""Where seed 632300684131285078 of ``pnp validate arena-tales --games 600`` stood at the turn
cap: two frenzied neighbours whose cards can never hit each other, cycling through the recycle
pile by stepping around each other."""


def test_the_endless_position_of_seed_632300684131285078_now_ends(model: ArenaTales) -> None:
    # No reachable position may be endless: next to each other, the frenzied players can no
    # longer step away, so their cards leave the cycle until life is drawn and lost.
    rules = ArenaTalesRules(model, 2, ["ziyuan", "moying"])
    state = rules.from_notation(ENDLESS)
    rng = random.Random(0)
    for _ in range(20_000):
        if rules.is_terminal(state):
            break
        if rules.is_chance(state):
            action = rules.sample_chance(state, rng)
        else:
            action = SensiblePolicy().choose(rules, state, rng)
        state = rules.apply(state, action)
    assert rules.is_terminal(state)


# -- the turn end ----------------------------------------------------------------------------


def test_the_forced_end_counts_the_pending_draw_not_the_next_hand(
    duel: ArenaTalesRules, model: ArenaTales
) -> None:
    # Decided (forced-end-count): the 6 is the next player's pending draw; the cards already in
    # their hand do not count.
    state = position(
        duel, hands=[("fire-tongue", "jab", "jab"), ("jab",) * 3], places=[(0, 0), FAR]
    )
    state.seats[1].pending = duel.forced_end - 2
    after = duel.apply(state, Play("fire-tongue"))  # cost 1: pending one short of the end
    assert after.active == 0 and not after.forced
    assert "forced-end-count" in {d.id for d in model.decisions}


def test_an_empty_hand_ends_the_turn_only_after_the_card_has_resolved(
    duel: ArenaTalesRules, model: ArenaTales
) -> None:
    # Decided (empty-hand-end): the empty hand is checked once the card in resolution (and its
    # responses) has resolved; a card whose own draw refills the hand does not end the turn.
    state = position(duel, hands=[("catch-breath",), ("jab",)], places=[(0, 0), FAR])
    after = duel.apply(state, Play("catch-breath"))  # the hand is empty from step [1]
    assert after.queue[0] == ("draw", 0, 1, 0)
    after = duel.apply(after, Draw("jab"))
    assert after.active == 0 and len(after.seats[0].hand) == 1
    assert "empty-hand-end" in {d.id for d in model.decisions}


# -- 反制 ---------------------------------------------------------------------------------------


def test_counter_also_nullifies_fixed_damage(duel: ArenaTalesRules, model: ArenaTales) -> None:
    # Decided (counter-reach): 固定伤害 is not changed by bonuses, but 反制 cancels the hit.
    state = position(duel, hands=[("cold-star", "jab"), ("jab",)], places=[(0, 0), (0, -3)])
    state.seats[1].display = ((duel._by_token["stone-skin"], UP),)
    after = duel.apply(state, Play("cold-star"))
    assert after.seats[1].life == state.seats[1].life
    assert after.seats[1].exhausted == (duel._by_token["stone-skin"],)
    assert "counter-reach" in {d.id for d in model.decisions}


def test_counter_also_nullifies_the_after_play_effects_on_the_countered(
    duel: ArenaTalesRules,
) -> None:
    # Post (反制): when its condition holds, the effect is nullified. Decided (counter-reach):
    # the card does nothing to the countered character, its 打出后 耗竭 included.
    state = position(duel, hands=[("scorch-mark", "jab"), ("jab",)], places=[(0, 0), (0, -2)])
    water, jab = duel._by_token["wind-wall"], duel._by_token["jab"]
    state.seats[1].display = ((jab, DOWN), (water, UP))
    after = duel.apply(state, Play("scorch-mark"))
    assert after.seats[1].display == ((jab, DOWN),)  # the counter went, the face-down card stays
    assert after.seats[1].exhausted == (water,)


# -- ranges -----------------------------------------------------------------------------------


def test_area_and_snipe_reach_over_pillars_charges_stop(duel: ArenaTalesRules) -> None:
    # Post: only a charge stops at the nearest character or obstacle. Decided (pillar-lines):
    # area and snipe damage pass over pillars.
    # The pillar at (1, -2) stands between (1, 0) and (1, -3), three hexes north.
    state = position(duel, hands=[("jab",), ("jab",)], places=[(1, 0), (1, -3)])
    assert (1, -2) in duel.obstacles
    snipe = duel._by_token["sky-piercer"]  # [3] in front
    assert hits(duel, state, 0, snipe, 0) == [(1, 0, None)]
    charge = duel._by_token["flame-rush"]  # ④ in front: stopped by the pillar
    assert hits(duel, state, 0, charge, 0) == []
    state.seats[1].pos = (1, -3)
    area = duel._by_token["lion-roar"]  # 2 on every side: over the pillar? no, distance 3
    assert hits(duel, state, 0, area, 1) == [(1, 0, None)]  # with range +1 it reaches 3


def test_a_range_bonus_moves_a_snipe_and_lengthens_a_charge(duel: ArenaTalesRules) -> None:
    # Decided (range-bonus): 范围 +X adds X to every number of the hexagon: a snipe [3] hits at
    # exactly 4, a charge ④ reaches 5 with full damage at 5.
    snipe, charge = duel._by_token["sky-piercer"], duel._by_token["flame-rush"]
    state = position(duel, hands=[("jab",), ("jab",)], places=[(0, 4), (0, 0)])
    assert hits(duel, state, 0, snipe, 1) == [(1, 0, None)]
    assert hits(duel, state, 0, snipe, 0) == []
    state.seats[1].pos = (0, -1)
    assert hits(duel, state, 0, charge, 1) == [(1, 0, 0)]


# -- card moves: at most N ----------------------------------------------------------------------


def test_a_dash_may_stop_short_of_its_number(duel: ArenaTalesRules) -> None:
    # The card says "move at most 2 straight ahead": the player chooses 0, 1 or 2 hexes.
    state = position(duel, hands=[("quick-step", "jab"), ("jab",)], places=[(0, 2), FAR])
    after = duel.apply(state, Play("quick-step"))
    assert duel.current_player(after) == 0
    assert duel.legal_actions(after) == [Dash(0), Dash(1), Dash(2)]
    assert duel.apply(after, Dash(1)).seats[0].pos == (0, 1)
    # Blocked after one hex: only 0 or 1.
    state.seats[1].pos = (0, 0)
    after = duel.apply(state, Play("quick-step"))
    assert duel.legal_actions(after) == [Dash(0), Dash(1)]


def test_taking_damage_still_offers_face_up_cards(duel: ArenaTalesRules) -> None:
    # Unchanged by the above: 2 damage = two face down or one face up.
    state = position(duel, hands=[("fire-tongue", "jab"), ("jab",)], places=[(0, 0), (0, -3)])
    after = duel.apply(state, Play("fire-tongue"))
    assert duel.legal_actions(after) == [Absorb(0), Absorb(1)]


# -- 失控 (issue 28, item 6) -------------------------------------------------------------------


@pytest.fixture(scope="module")
def four(model: ArenaTales) -> ArenaTalesRules:
    return ArenaTalesRules(model, 4, ["chiyan", "ziyuan", "qinglan", "jinzhong"])


def test_out_of_control_next_to_one_enemy_no_step_towards_another(four: ArenaTalesRules) -> None:
    # Post (理智/失控区): 「当玩家处于【失控】时,玩家的弃牌移动,移动后离任意敌对玩家的距离
    # 必须比移动前更近」: closer to every enemy. Next to an enemy no step is closer to it, so
    # there is no discard-move at all, even towards the other enemy (seat 3, far south-west).
    state = position(
        four,
        hands=[("jab",), ("jab",), ("jab",), ("jab",)],
        places=[(0, 0), (0, -1), (4, -4), (-3, 3)],
    )
    state.seats[0].sane = False
    assert not [a for a in four.legal_actions(state) if isinstance(a, Move)]
    assert not four.is_legal(state, Move("jab", 4, 0))  # towards seat 3


def test_out_of_control_steps_must_close_on_every_enemy(four: ArenaTalesRules) -> None:
    # 「离任意敌对玩家的距离必须比移动前更近」: with one enemy north and one south no step
    # closes on both; with both to the north, the step north does.
    state = position(
        four,
        hands=[("jab",), ("jab",), ("jab",), ("jab",)],
        places=[(0, 0), (0, -3), (4, -4), (0, 3)],
    )
    state.seats[0].sane = False
    assert not [a for a in four.legal_actions(state) if isinstance(a, Move)]
    state.seats[3].pos = (1, -4)
    moves = {a.direction for a in four.legal_actions(state) if isinstance(a, Move)}
    assert moves == {0}


# -- 初始天赋 (issue 28, item 4) ----------------------------------------------------------------


def test_the_talent_at_the_start_is_the_players_choice(model: ArenaTales) -> None:
    # Post (初始天赋): 「游戏开始时,可以把一张【天赋】卡放到展示区」: may, not must. Each
    # player in turn chooses before the first turn; 舞心 (桃夭) costs 4 life to use.
    rules = ArenaTalesRules(model, 2, ["taoyao", "yanshan"])
    state = rules.initial_state(random.Random(3))
    assert rules.current_player(state) == 0
    assert rules.legal_actions(state) == [Talent(True), Talent(False)]
    used = rules.apply(state, Talent(True))
    dancing = rules._by_token["dancing-heart"]
    assert used.seats[0].display == ((dancing, UP),)
    assert len(used.seats[0].life) == rules.life - 4
    assert rules.current_player(used) == 1  # then the next player chooses
    # Without it: the talent stays in the deck (it can only be discarded when drawn) and the
    # life zone is dealt settings.life cards from the shuffled deck, each a chance draw.
    skipped = rules.apply(state, Talent(False))
    while rules.is_chance(skipped):
        skipped = rules.apply(skipped, rules.legal_actions(skipped)[-1])
    mine = skipped.seats[0]
    assert mine.display == () and len(mine.life) == rules.life
    assert sorted((*mine.deck, *mine.life)) == sorted(rules._decks[0])
    assert rules.current_player(skipped) == 1


def test_the_first_turn_starts_once_every_player_has_chosen(model: ArenaTales) -> None:
    rules = ArenaTalesRules(model, 2, ["taoyao", "yanshan"])
    state = rules.apply(rules.initial_state(random.Random(3)), Talent(True))
    state = rules.apply(state, Talent(False))
    while rules.is_chance(state):  # seat 1's life, then seat 0's opening hand
        state = rules.apply(state, rules.legal_actions(state)[0])
    assert state.seats[1].display == () and len(state.seats[1].life) == rules.life
    assert state.turn == 0 and state.active == 0 and len(state.seats[0].hand) == rules.refill
    assert rules.parse_action("talent:skip") == Talent(False)
    assert rules.from_notation(rules.notation(state)) == state


# -- 识破 (issue 28, item 5) -------------------------------------------------------------------


def test_see_through_turns_up_the_face_down_cards_its_user_chooses(model: ArenaTales) -> None:
    # Post (识破): 「选择目标玩家展示区 X 张盖卡,翻开。会触发响应。」 The user of 罗汉拳
    # (识破 1 on the character it hits) picks which of the target's face-down cards turns up.
    rules = ArenaTalesRules(model, 2, ["jinzhong", "taoyao"])
    state = position(rules, hands=[("arhat-fist", "jab"), ("jab",)], places=[(0, 0), (0, -1)])
    mirror, jab = rules._by_token["water-mirror"], rules._by_token["jab"]
    state.seats[1].display = ((jab, DOWN), (mirror, DOWN), (jab, DOWN))
    state = rules.apply(state, Play("arhat-fist"))
    while rules.current_player(state) != 0 or rules.is_chance(state):
        choices = rules.legal_actions(state)
        state = rules.apply(state, choices[0] if isinstance(choices[0], Absorb) else choices[-1])
    assert state.queue[0] == ("reveal", 0, 1, 1)
    # The user chooses among the target's face-down cards (the damage just laid two more).
    downs = [i for i, (_, face) in enumerate(state.seats[1].display) if face == DOWN]
    assert rules.legal_actions(state) == [Reveal(i) for i in downs]
    after = rules.apply(state, Reveal(1))  # the second card placed: 水镜, a response
    assert after.seats[1].display[1] == (mirror, UP)
    assert [face for _, face in after.seats[1].display].count(UP) == 1
    # 水镜's response (回复 1) is set off at step [6]: a face-down card goes back to life.
    assert len(after.seats[1].life) == len(state.seats[1].life) + 1
    assert rules.parse_action("reveal:1") == Reveal(1)
