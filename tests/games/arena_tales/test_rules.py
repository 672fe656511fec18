"""Arena Tales rules, scenario by scenario, each citing the rule it checks."""

from __future__ import annotations

import random

import pytest

from pnp.content.loader import load_game
from pnp.engines.base import RandomPolicy
from pnp.engines.memo import ByIdentity
from pnp.games.arena_tales import rules as arena_rules
from pnp.games.arena_tales.combat import hits
from pnp.games.arena_tales.model import ArenaTales
from pnp.games.arena_tales.policies import SensiblePolicy
from pnp.games.arena_tales.rules import SHARED_TABLES, ArenaTalesRules
from pnp.games.arena_tales.simulation import simulate
from pnp.games.arena_tales.state import (
    Absorb,
    ArenaState,
    Discard,
    Draw,
    Move,
    Play,
    Termination,
)
from tests.conftest import CONTENT

FAR = (0, 4)  # the south orientation point, out of reach of the north-facing cards below


@pytest.fixture(scope="module")
def model() -> ArenaTales:
    return load_game(CONTENT, "arena-tales").model


@pytest.fixture(scope="module")
def duel(model: ArenaTales) -> ArenaTalesRules:
    return ArenaTalesRules(model, 2, ["chiyan", "ziyuan"])


def cards(rules: ArenaTalesRules, *tokens: str) -> tuple[int, ...]:
    return tuple(sorted(rules._by_token[t] for t in tokens))


def position(
    rules: ArenaTalesRules,
    *,
    hands: list[tuple[str, ...]],
    places: list[tuple[int, int]],
    facings: list[int] | None = None,
    lives: list[int] | None = None,
    **fields: object,
) -> ArenaState:
    """A position at rest (nothing to resolve): seat 0 to act, no talents in play."""
    state = rules.initial_state(random.Random(0))
    filler = rules._by_token["jab"]
    for index, seat in enumerate(state.seats):
        seat.hand = cards(rules, *hands[index])
        seat.pos = places[index]
        seat.facing = facings[index] if facings else 0
        seat.life = (filler,) * (lives[index] if lives else 10)
        seat.deck = (filler,) * 5
        seat.recycle = ()
        seat.display = ()
        seat.pending = 0
    state.queue = ()
    for name, value in fields.items():
        setattr(state, name, value)
    return state


# -- range resolution --------------------------------------------------------------------------


@pytest.mark.parametrize(("distance", "damage"), [(4, 3), (3, 2), (2, 1), (1, 1)])
def test_charge_full_damage_at_the_maximum_minus_one_per_hex_closer_never_below_1(
    duel: ArenaTalesRules, distance: int, damage: int
) -> None:
    # Charge ④ of 烈火冲拳 (base 3): full at distance 4, -1 per hex closer, at least 1.
    state = position(duel, hands=[("flame-rush", "jab"), ("jab",)], places=[(0, 0), (0, -distance)])
    after = duel.apply(state, Play("flame-rush"))
    head = after.queue[0]
    if damage >= 2:
        assert head == ("absorb", 1, damage)
    else:
        assert head == ("lose", 1, 0, 1)


def test_charge_stops_at_the_nearest_obstacle(duel: ArenaTalesRules) -> None:
    # Charge hits only the nearest character or obstacle: the pillar at (1, -2) shields.
    state = position(duel, hands=[("flame-rush",), ("jab",)], places=[(1, 0), (1, -3)])
    code = duel._by_token["flame-rush"]
    assert hits(duel, state, 0, code, 0) == []
    state.seats[1].pos = (1, -1)
    assert hits(duel, state, 0, code, 0) == [(1, 0, 3)]  # distance 1: falloff 3


def test_snipe_hits_only_at_exactly_its_distance_and_lock_needs_a_target(
    model: ArenaTales,
) -> None:
    # [2] of 断魂 with 锁定: playable only with a character at exactly 2 in front.
    rules = ArenaTalesRules(model, 2, ["moying", "chiyan"])
    state = position(rules, hands=[("soul-cutter", "jab"), ("jab",)], places=[(0, 0), (0, -3)])
    assert Play("soul-cutter", 1) not in rules.legal_actions(state)
    assert not any(
        isinstance(a, Play) and a.card == "soul-cutter" for a in rules.legal_actions(state)
    )
    state.seats[1].pos = (0, -2)
    assert Play("soul-cutter", 1) in rules.legal_actions(state)


def test_area_does_not_hit_behind_a_blank_side(duel: ArenaTalesRules) -> None:
    # 直拳 has range 1 to the front only: an enemy behind is not hit.
    state = position(duel, hands=[("jab", "jab"), ("jab",)], places=[(0, 0), (0, 1)])
    after = duel.apply(state, Play("jab"))
    assert after.seats[1].life == state.seats[1].life and not after.queue


# -- the turn -------------------------------------------------------------------------------


def test_the_turn_is_forced_to_end_when_the_next_pending_draw_reaches_6(
    duel: ArenaTalesRules,
) -> None:
    # Forced end: the next player's pending draw reaches settings.forced_end after the card.
    state = position(duel, hands=[("fire-tongue", "jab", "jab"), ()], places=[(0, 0), FAR])
    state.seats[1].pending = duel.forced_end - 1
    after = duel.apply(state, Play("fire-tongue"))
    assert after.active == 1 and after.turn == 1
    # Start of turn: first the whole pending draw (decided), from the deck.
    assert after.queue[0] == ("draw", 1, duel.forced_end, 0)
    assert len(after.seats[0].hand) == 2  # seat 0 kept its cards: the end was forced


def test_without_the_forced_end_the_turn_goes_on_until_the_hand_is_empty(
    duel: ArenaTalesRules,
) -> None:
    state = position(duel, hands=[("jab", "jab"), ("jab",)], places=[(0, 0), FAR])
    after = duel.apply(state, Play("jab"))
    assert after.active == 0  # a card left, pending 0: you may not end the turn
    after = duel.apply(after, Play("jab"))
    assert after.active == 1  # the hand is empty: the turn ends
    # 理智 -> 失控: the turn dealt no damage.
    assert after.seats[0].sane is False


def test_the_end_step_discards_down_to_the_hand_limit(duel: ArenaTalesRules) -> None:
    hand = ("fire-tongue", "jab", "jab", "side-kick", "side-kick", "quick-step")
    state = position(duel, hands=[hand, ()], places=[(0, 0), FAR])
    state.seats[1].pending = duel.forced_end - 1
    after = duel.apply(state, Play("fire-tongue"))
    assert after.queue[0] == ("discard", 0, 5 - duel.hand_limit)
    assert duel.current_player(after) == 0
    after = duel.apply(after, Discard("quick-step"))
    after = duel.apply(after, Discard("jab"))
    assert len(after.seats[0].hand) == duel.hand_limit and after.active == 1


def test_the_refill_tops_the_hand_up_to_3_after_the_pending_draw(duel: ArenaTalesRules) -> None:
    state = position(duel, hands=[("jab",), ("jab",)], places=[(0, 0), FAR])
    state.seats[1].pending = 1
    rng = random.Random(1)
    after = duel.apply(state, Play("jab"))
    assert after.queue[0] == ("draw", 1, 1, 0)  # the pending draw first
    after = duel.apply(after, duel.sample_chance(after, rng))
    assert after.queue[0] == ("draw", 1, 1, 0)  # then 2 in hand -> refill 1 to reach 3
    after = duel.apply(after, duel.sample_chance(after, rng))
    assert len(after.seats[1].hand) == duel.refill and duel.current_player(after) == 1


def test_draws_come_from_life_when_deck_and_recycle_are_empty(duel: ArenaTalesRules) -> None:
    state = position(duel, hands=[("jab",), ()], places=[(0, 0), FAR], lives=[10, 2])
    state.seats[1].deck = ()
    after = duel.apply(state, Play("jab"))
    outcomes = duel.chance_outcomes(after)
    assert outcomes == [(Draw("jab"), 1.0)]
    after = duel.apply(after, Draw("jab"))
    assert len(after.seats[1].life) == 1 and len(after.seats[1].hand) == 1


# -- moves ------------------------------------------------------------------------------------


def test_out_of_control_moves_must_end_closer_to_an_enemy(duel: ArenaTalesRules) -> None:
    state = position(duel, hands=[("jab",), ("jab",)], places=[(0, 0), (0, -4)])
    free = {a.direction for a in duel.legal_actions(state) if isinstance(a, Move)}
    assert free == {0, 1, 2, 3, 4, 5}
    state.seats[0].sane = False
    closer = {a.direction for a in duel.legal_actions(state) if isinstance(a, Move)}
    assert closer == {0}  # only north gets closer to (0, -4)


def test_facing_changes_only_entering_or_leaving_an_orientation_point(
    duel: ArenaTalesRules,
) -> None:
    state = position(duel, hands=[("jab",), ("jab",)], places=[(0, 0), FAR])
    assert {a.facing for a in duel.legal_actions(state) if isinstance(a, Move)} == {0}
    state.seats[0].pos = (0, -4)  # the north orientation point
    moves = [a for a in duel.legal_actions(state) if isinstance(a, Move)]
    assert {a.facing for a in moves} == set(range(6))
    after = duel.apply(state, Move("jab", 3, 5))
    assert after.seats[0].pos == (0, -3) and after.seats[0].facing == 5
    assert after.seats[0].display == ((duel._by_token["jab"], 0),)  # discarded face down


# -- life and damage ------------------------------------------------------------------------


def test_two_damage_is_two_cards_face_down_or_one_face_up(duel: ArenaTalesRules) -> None:
    state = position(duel, hands=[("fire-tongue", "jab"), ("jab",)], places=[(0, 0), (0, -3)])
    after = duel.apply(state, Play("fire-tongue"))  # ③ base 2 at distance 3: 2 damage
    assert duel.current_player(after) == 1
    assert duel.legal_actions(after) == [Absorb(0), Absorb(1)]
    up = duel.apply(after, Absorb(1))
    assert up.queue[0] == ("lose", 1, 1, 0)
    down = duel.apply(after, Absorb(0))
    assert down.queue[0] == ("lose", 1, 0, 2)
    assert after.seats[0].sane and after.dealt  # damage dealt this turn


def test_knockback_pushes_along_the_attack_direction(duel: ArenaTalesRules) -> None:
    state = position(duel, hands=[("flying-ram", "jab"), ("jab",)], places=[(0, 0), (0, -3)])
    after = duel.apply(duel.apply(state, Play("flying-ram")), Absorb(0))
    while duel.is_chance(after):
        after = duel.apply(after, Draw("jab"))
    assert after.seats[1].pos == (0, -4)  # 击退 1, north
    assert len(after.seats[1].life) == 8


def test_combo_adds_damage_after_a_card_of_the_same_colour(duel: ArenaTalesRules) -> None:
    # 连击: the last card played this turn has the same colour: damage +1 before play.
    hand = ("prairie-fire", "chain-kick", "jab")
    state = position(duel, hands=[hand, ("jab",)], places=[(0, 0), (0, -1)])
    alone = duel.apply(state, Play("chain-kick"))
    assert alone.queue[0] == ("lose", 1, 0, 1)
    first = duel.apply(state, Play("prairie-fire"))
    while duel.current_player(first) != 0:  # prairie-fire hits too: take it face down
        first = duel.apply(first, Absorb(0) if not duel.is_chance(first) else Draw("jab"))
    combo = duel.apply(first, Play("chain-kick"))
    assert combo.queue[0] == ("absorb", 1, 2)


def test_the_last_life_card_lost_wins_a_duel(duel: ArenaTalesRules) -> None:
    state = position(duel, hands=[("jab", "jab"), ("jab",)], places=[(0, 0), (0, -1)], lives=[5, 1])
    after = duel.apply(duel.apply(state, Play("jab")), Draw("jab"))
    assert duel.is_terminal(after)
    outcome = duel.outcome(after)
    assert outcome.winners == {0} and outcome.termination is Termination.ALL_DOWN


def test_team_damage_to_a_player_at_0_life_is_paid_by_a_teammate(model: ArenaTales) -> None:
    rules = ArenaTalesRules(model, 4)
    places = [(0, 0), (0, -1), (0, 3), (-3, 4)]
    state = position(rules, hands=[("jab", "jab"), (), (), ()], places=places, lives=[5, 0, 5, 5])
    state.seats[1].zero_turn = -1
    after = rules.apply(state, Play("jab"))
    assert after.queue[0] == ("lose", 3, 0, 1)  # seat 3 is seat 1's teammate


def test_apply_is_pure_and_notation_reads_back(duel: ArenaTalesRules) -> None:
    rng = random.Random(3)
    state = duel.initial_state(rng)
    for _ in range(200):
        if duel.is_terminal(state):
            break
        text = duel.notation(state)
        assert duel.from_notation(text) == state
        action = (
            duel.sample_chance(state, rng)
            if duel.is_chance(state)
            else RandomPolicy().choose(duel, state, rng)
        )
        duel.apply(state, action)
        assert duel.notation(state) == text
        state = duel.apply(state, action)


def test_a_table_sharing_its_models_tables_has_every_one_a_table_building_them_has(
    model: ArenaTales, monkeypatch: pytest.MonkeyPatch
) -> None:
    # SHARED_TABLES names each attribute _build_tables sets: one left out would be missing
    # from every table but the first of a model.
    monkeypatch.setattr(arena_rules, "_SHARED", ByIdentity(limit=8))
    built = ArenaTalesRules(model, 4)
    shared = ArenaTalesRules(model, 4, [c.id for c in reversed(model.characters[:4])])
    assert set(vars(shared)) == set(vars(built))
    assert all(getattr(shared, name) is getattr(built, name) for name in SHARED_TABLES)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_seeded_games_end_and_keep_every_card(model: ArenaTales, players: int) -> None:
    # Random and sensible play: no cap hit, cards conserved at every step.
    for policy in (RandomPolicy(), SensiblePolicy()):
        report = simulate(model, players, games=3, seed=players, policy=policy, check=True)
        assert report.ended_by_cap == 0
        assert sum(report.wins_by_seat) == 3 * players // 2
