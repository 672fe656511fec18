"""MineVenture rules: scenario tests citing the rule they check, and seeded random play."""

from __future__ import annotations

import random

import pytest

from pnp.content.loader import load_game
from pnp.engines.base import RandomPolicy, play_game
from pnp.errors import IllegalActionError
from pnp.games.mineventure.model import DamageType, Mineventure
from pnp.games.mineventure.policies import SensiblePolicy
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.simulation import simulate
from pnp.games.mineventure.state import (
    DRAGON,
    TURN_CAP,
    Act,
    MineventureState,
    Mode,
    Termination,
    clone,
)
from pnp.paths import REPOSITORY

P, X, A, T = DamageType.PHYSICAL, DamageType.PIERCING, DamageType.AREA, DamageType.TRUE


@pytest.fixture(scope="module")
def model() -> Mineventure:
    return load_game(REPOSITORY / "content", "mineventure").model


@pytest.fixture(scope="module")
def rules(model: Mineventure) -> MineventureRules:
    return MineventureRules(model, 3, Mode.MAP_24)


def started(rules: MineventureRules, seed: int = 0) -> MineventureState:
    """Spawns chosen and opening cards dealt: seat 0 is to act."""
    rng = random.Random(seed)
    state = rules.initial_state(rng)
    while state.phase not in ("action",):
        if rules.is_chance(state):
            action = rules.sample_chance(state, rng)
        else:
            action = rules.legal_actions(state)[0]
            if state.phase == "keep":
                action = Act("keep")
        state = rules.apply(state, action)
    return state


def bare(rules: MineventureRules, **seats: dict[str, object]) -> MineventureState:
    """A started game with every seat stripped of its cards, then given what the test says."""
    state = clone(started(rules))
    # Everyone plays Alex (a movement bonus only), so no ability blurs the numbers under test.
    alex = next(i for i, c in enumerate(rules.model.characters) if c.id == "alex")
    for p in state.players:
        p.character = alex
        p.main = p.sub = p.armour = p.partner = -1
        p.main_ench = p.sub_ench = p.hand = ()
        p.main_dur = p.sub_dur = 0
    for name, changes in seats.items():
        seat = int(name[1:])
        for key, value in changes.items():
            if key in ("main", "sub", "armour", "partner"):
                value = rules.by_token[value] if isinstance(value, str) else value
            if key == "hand":
                value = tuple(sorted(rules.by_token[c] for c in value))  # type: ignore[union-attr]
            setattr(state.players[seat], key, value)
        p = state.players[seat]
        if p.main >= 0 and not p.main_dur:
            p.main_dur = rules.cards[p.main].durability
        if p.sub >= 0 and not p.sub_dur:
            p.sub_dur = rules.cards[p.sub].durability
    return state


def test_setup_deals_one_equipment_and_two_items_each(rules: MineventureRules) -> None:
    # Setup: each player draws 1 equipment card (equipped) and 2 item cards into the hand.
    state = started(rules)
    for p in state.players:
        assert sum(c >= 0 for c in (p.main, p.sub, p.armour)) == 1
        assert len(p.hand) == 2
        assert all(rules.card_deck[c] == rules.deck_index["item"] for c in p.hand)
        assert p.hp == 20


def test_spawns_are_chosen_counter_clockwise_from_seat_0(model: Mineventure) -> None:
    rules = MineventureRules(model, 4, Mode.MAP_24)
    state = rules.initial_state(random.Random(1))
    order = []
    while state.phase == "spawn":
        order.append(rules.current_player(state))
        state = rules.apply(state, rules.legal_actions(state)[0])
    assert order == [0, 3, 2, 1]
    assert len({(p.x, p.y) for p in state.players}) == 4  # one head per spawn point


def test_a_move_uses_the_whole_roll_in_two_directions_never_opposite(
    rules: MineventureRules,
) -> None:
    state = clone(started(rules))
    state.phase, state.roll = "move", 5
    moves = rules.legal_actions(state)
    assert moves
    for move in moves:
        code = move.a
        letters = [ch for ch in code if ch.isalpha()]
        numbers = [int(n) for n in "".join(ch if ch.isdigit() else " " for ch in code).split()]
        assert sum(numbers) == 5  # no stopping midway
        assert len(letters) <= 2 and (len(letters) == 1 or letters[1] not in (letters[0],))
        assert not (len(letters) == 2 and {letters[0], letters[1]} in ({"N", "S"}, {"E", "W"}))


def test_a_later_arrival_on_an_occupied_cell_gets_no_tile_reward(rules: MineventureRules) -> None:
    state = bare(rules)
    me, other = state.players[0], state.players[1]
    # Put seat 1 on a forest cell two cells east of seat 0.
    forest = next(
        (x, y)
        for (x, y), t in rules.terrain.items()
        if t.draws == "item" and (x - 2, y) in rules.terrain and x >= 2
    )
    other.x, other.y = forest
    me.x, me.y = forest[0] - 2, forest[1]
    state.phase, state.roll = "move", 2
    after = rules.apply(state, Act("move", "E2"))
    assert (after.players[0].x, after.players[0].y) == forest
    assert after.phase == "decision" and not after.queue  # no draw
    other.x = other.y = 0
    after = rules.apply(clone(state), Act("move", "E2"))
    assert rules.is_chance(after)  # alone there: draw the tile's card


def test_the_end_phase_discards_down_to_the_hand_limit_of_4(rules: MineventureRules) -> None:
    state = bare(rules, p0={"hand": ["bread", "apple", "cookie", "steak", "tnt", "milk-bucket"]})
    state.phase = "end"
    assert Act("end") not in rules.legal_actions(state)
    for _ in range(2):
        assert state.seat == 0
        assert all(a.kind == "discard" for a in rules.legal_actions(state))
        state = rules.apply(state, Act("discard", "cookie" if _ == 0 else "apple"))
    assert len(state.players[0].hand) == 4
    assert state.seat == 1  # down to the limit: play passes


def test_an_ambush_is_decided_by_manhattan_distance(rules: MineventureRules) -> None:
    # Ambush: the defender's range does not reach the attacker (distance = |dx| + |dy|).
    state = bare(rules, p0={"main": "bow"}, p1={"main": "wooden-sword"})
    state.players[0].x, state.players[0].y = 5, 5
    state.players[1].x, state.players[1].y = 7, 6  # distance 3: bow reaches, sword does not
    state.phase = "decision"
    assert Act("fight", "1") in rules.legal_actions(state)
    fight = rules.apply(state, Act("fight", "1"))
    assert fight.combat is not None and fight.combat.ambush
    # Only the attacker acts in the ambush round.
    after = rules.apply(fight, Act("strike", "main"))
    assert after.players[1].hp == 20 - 3
    assert after.combat is not None and not after.combat.ambush and after.combat.round == 2
    state.players[1].x, state.players[1].y = 6, 5  # distance 1: the sword reaches
    assert not rules.apply(state, Act("fight", "1")).combat.ambush  # type: ignore[union-attr]


def test_fleeing_needs_the_roll_minus_1_to_beat_the_opponents_range(
    rules: MineventureRules,
) -> None:
    state = bare(rules, p0={"main": "crossbow"}, p1={"main": "wooden-sword"})
    state.players[0].x, state.players[0].y = 5, 5
    state.players[1].x, state.players[1].y = 5, 6
    state.phase = "decision"
    state = rules.apply(state, Act("fight", "1"))
    state = rules.apply(state, Act("strike", "main"))  # attacker declares, then the defender
    fleeing = rules.apply(state, Act("flee"))
    assert rules.is_chance(fleeing)
    # Crossbow range 3: a 4 counts 3 (not more than 3), a 5 counts 4 (escapes).
    failed = rules.apply(fleeing, Act("die", "4"))
    assert failed.combat is not None and failed.players[1].hp == 20 - 4
    assert Act("flee") not in rules._combat_actions(_round_for(failed, 1))  # once per round
    escaped = rules.apply(fleeing, Act("die", "5"))
    assert escaped.combat is None and escaped.players[1].hp == 20
    # The attacker goes to their end phase (nothing to discard: it passes at once); the
    # defender, who fled, goes straight through theirs: seat 2 acts next.
    assert escaped.players[1].skip
    assert escaped.phase == "action" and escaped.seat == 2


def _round_for(state: MineventureState, seat: int) -> MineventureState:
    new = clone(state)
    assert new.combat is not None
    new.combat.declared = ("strike:main",) if seat == new.combat.defender else ()
    return new


@pytest.mark.parametrize(
    ("armour", "blocking", "amount", "types", "taken"),
    [
        ("iron-chestplate", False, 5, (P,), 2),  # physical: reduced by armour
        ("iron-chestplate", False, 2, (P,), 0),  # never below 0
        ("iron-chestplate", False, 5, (X,), 5),  # piercing: not reduced...
        ("iron-chestplate", True, 5, (X,), 0),  # ...but a raised shield blocks it
        ("iron-chestplate", True, 5, (X, A), 5),  # a shield cannot block area damage
        ("blast-plate", False, 6, (P, A), 0),  # area: cancelled by the blast-proof trait
        ("blast-plate", False, 6, (P,), 5),
        ("iron-chestplate", True, 3, (T,), 3),  # true: never reduced or blocked
    ],
)
def test_damage_types_against_armour_and_shields(
    rules: MineventureRules,
    armour: str,
    blocking: bool,
    amount: int,
    types: tuple[DamageType, ...],
    taken: int,
) -> None:
    state = bare(rules, p1={"armour": armour})
    assert rules.damage_taken(state, 1, amount, types, blocking) == taken


def test_resistance_halves_physical_damage_rounding_up(rules: MineventureRules) -> None:
    # Rounding marks: ↑ rounds up; resistance halves physical damage after armour.
    state = bare(rules, p1={"armour": "leather-tunic"})
    rules.give_buff(state, 1, rules.buff_index["resistance"])
    assert rules.damage_taken(state, 1, 6, (P,), False) == 3  # (6 - 1) / 2 = 2.5 -> 3


def test_buff_slots_take_their_classes_and_the_fewest_rounds_left_is_replaced(
    rules: MineventureRules,
) -> None:
    # Slot 1: positive or neutral; slot 2: neutral or negative; slot 3: negative. With no free
    # slot the buff with the fewest rounds left goes, the lower slot on a tie (buff-slots).
    state = bare(rules)
    index = rules.buff_index

    def names() -> list[str | None]:
        return [None if e is None else rules.buffs[e[0]].id for e in state.players[0].buffs]

    rules.give_buff(state, 0, index["strength"])
    assert names() == ["strength", None, None]
    rules.give_buff(state, 0, index["poison"])
    rules.give_buff(state, 0, index["weakness"])
    assert names() == ["strength", "poison", "weakness"]
    rules.give_buff(state, 0, index["regeneration"])  # no free slot for a positive one
    assert names() == ["regeneration", "poison", "weakness"]
    rules.give_buff(state, 0, index["slowness"])  # a tie of rounds left: the lower slot
    assert names() == ["regeneration", "slowness", "weakness"]
    rules.give_buff(state, 0, index["glowing"])  # neutral: slots 1 and 2, a tie again
    assert names() == ["glowing", "slowness", "weakness"]


def test_a_new_buff_replaces_the_one_with_fewest_rounds_left_not_the_oldest(
    rules: MineventureRules,
) -> None:
    # Decision buff-slots: the board shows rounds left (the token's cell), not who came first.
    state = bare(rules)
    index = rules.buff_index
    rules.give_buff(state, 0, index["weakness"])  # slot 2, the oldest
    rules.give_buff(state, 0, index["hunger"])  # slot 3, fewer rounds left
    weakness, hunger = rules.model.buff("weakness"), rules.model.buff("hunger")
    assert hunger.rounds < weakness.rounds
    rules.give_buff(state, 0, index["slowness"])
    held = [None if e is None else rules.buffs[e[0]].id for e in state.players[0].buffs]
    assert held == [None, "weakness", "slowness"]


def _end_round(rules: MineventureRules, state: MineventureState) -> MineventureState:
    new = clone(state)
    rules._end_round(new)
    return new


def test_everyone_heals_2_when_the_night_ends(rules: MineventureRules) -> None:
    state = bare(rules)
    for p in state.players:
        p.hp = 10
    day = _end_round(rules, state)
    assert day.night and day.players[0].hp == 10  # the day round: no heal
    night = _end_round(rules, day)
    assert not night.night and night.day == 1 and night.players[0].hp == 12


def test_story_damage_hits_overworld_players_who_did_not_kill(rules: MineventureRules) -> None:
    # Story event in play: at round end, every overworld player who has not killed takes
    # dead players + 2 true damage; players in the End are spared.
    state = bare(rules)
    state.story = rules.story_cards[0]
    state.players[0].killed = True
    dx, dy = rules.dragon_at
    # The End cell furthest from the dragon, out of reach of its breath.
    end_cell = max(
        (c for c, terrain in rules.terrain.items() if not terrain.overworld),
        key=lambda c: abs(c[0] - dx) + abs(c[1] - dy),
    )
    assert abs(end_cell[0] - dx) + abs(end_cell[1] - dy) > rules.model.dragon.range
    state.players[0].x, state.players[0].y = 0, 0
    state.players[1].x, state.players[1].y = 1, 0
    state.players[2].x, state.players[2].y = end_cell
    after = _end_round(rules, state)
    assert after.players[0].hp == 20  # killed this round
    assert after.players[1].hp == 20 - (0 + 2)  # no one dead yet: 0 + 2
    assert after.players[2].hp == 20  # in the End: no story damage


def test_a_kill_takes_the_whole_hand_and_one_equipment_card(rules: MineventureRules) -> None:
    state = bare(
        rules,
        p0={"main": "diamond-sword", "x": 5, "y": 5},
        p1={
            "main": "bow",
            "armour": "chainmail",
            "hand": ["bread", "tnt"],
            "hp": 2,
            "x": 5,
            "y": 6,
        },
    )
    state.phase = "decision"
    state = rules.apply(state, Act("fight", "1"))
    state = rules.apply(state, Act("strike", "main"))
    state = rules.apply(state, Act("strike", "main"))
    # Three players: the game goes on, and the killer picks one of the victim's equipment.
    assert state.phase == "loot" and not state.players[1].alive
    assert set(rules.legal_actions(state)) == {
        Act("loot", "main"),
        Act("loot", "armour"),
        Act("loot", "none"),
    }
    state = rules.apply(state, Act("loot", "armour"))
    killer = state.players[0]
    assert sorted(rules.tokens[c] for c in killer.hand) == ["bread", "tnt"]
    assert rules.tokens[killer.armour] == "chainmail" and killer.killed
    assert state.players[1].main == -1
    assert state.seat == 2 and state.phase == "action"  # the killer's end phase passed
    # The rest of the victim's field cards go to the bottom of their deck.
    assert rules.by_token["bow"] in state.piles[rules.deck_index["equipment"]][1]


def test_the_last_player_standing_wins(rules: MineventureRules) -> None:
    state = bare(rules, p0={"main": "diamond-sword", "x": 5, "y": 5}, p1={"hp": 1, "x": 5, "y": 6})
    state.players[2].alive, state.players[2].hp = False, 0
    state.phase = "decision"
    state = rules.apply(state, Act("fight", "1"))
    state = rules.apply(state, Act("strike", "main"))
    state = rules.apply(state, Act("strike", "fist"))
    outcome = rules.outcome(state)
    assert outcome.termination is Termination.LAST_STANDING and outcome.winners == {0}


def test_slaying_the_dragon_wins_for_everyone_alive_who_hurt_it(rules: MineventureRules) -> None:
    state = bare(rules, p0={"main": "diamond-sword"})
    state.players[0].x, state.players[0].y = rules.dragon_at[0], rules.dragon_at[1] - 1
    state.players[2].hit_dragon = True
    state.dragon_hp = 3
    state.phase = "decision"
    state = rules.apply(state, Act("fight", "dragon"))
    assert state.combat is not None and state.combat.defender == DRAGON
    state = rules.apply(state, Act("strike", "main"))  # the dragon answers with its breath
    outcome = rules.outcome(state)
    assert outcome.termination is Termination.DRAGON_SLAIN and outcome.winners == {0, 2}


def test_an_illegal_action_quotes_the_position(rules: MineventureRules) -> None:
    state = started(rules)
    with pytest.raises(IllegalActionError, match=r"^illegal action Act\(kind='end'.* in mv "):
        rules.apply(state, Act("end"))


@pytest.mark.parametrize(("players", "mode"), [(4, Mode.MAP_24), (5, Mode.MAP_32)])
@pytest.mark.parametrize("policy", [RandomPolicy(), SensiblePolicy()], ids=["random", "sensible"])
def test_seeded_games_end_naturally_with_no_card_created_or_lost(
    model: Mineventure, players: int, mode: Mode, policy: object
) -> None:
    rules = MineventureRules(model, players, mode)
    for seed in range(4):
        record = play_game(
            rules,
            [policy] * players,  # type: ignore[list-item]
            random.Random(seed),
            200_000,
            max_turns=TURN_CAP,
            invariant=rules.check_invariants,
        )
        assert not record.capped, f"seed {seed} hit the cap"
        assert record.outcome is not None


def test_a_kill_after_a_draw_card_in_combat_finishes_the_draw_first(
    model: Mineventure,
) -> None:
    # Regression: a pickaxe used in combat queues a draw; the defender then died and the
    # loot choice must let that draw (and its keep choice) finish before the turn moves on.
    report = simulate(model, 3, Mode.MAP_24, games=8, seed=7, check=True)
    assert report.ended_by_cap == 0 and sum(report.terminations.values()) == 8


# -- issue 13: every rule as the post says it ------------------------------------------------


def test_ending_the_decision_phase_goes_through_the_end_phase_discard(
    rules: MineventureRules,
) -> None:
    # The post: after a player announces the end of their decision phase they enter the end
    # phase, where they discard down to the hand limit (4 by default); only then does play pass.
    state = bare(rules, p0={"hand": ["bread", "apple", "cookie", "steak", "tnt", "milk-bucket"]})
    state = rules.apply(state, Act("skip"))
    assert state.phase == "decision"
    state = rules.apply(state, Act("end"))
    assert state.seat == 0 and state.phase == "end"
    assert {a.kind for a in rules.legal_actions(state)} == {"discard"}
    state = rules.apply(state, Act("discard", "cookie"))
    assert state.seat == 0 and state.phase == "end"
    state = rules.apply(state, Act("discard", "apple"))
    # Down to the limit: the end phase is over and the next seat acts.
    assert len(state.players[0].hand) == rules.settings.hand_limit
    assert state.seat == 1 and state.phase == "action"


def test_a_hand_over_the_limit_after_the_end_phase_is_an_invariant_violation(
    rules: MineventureRules,
) -> None:
    # After their end phase no seat holds more than the hand limit (the killer of a player
    # outside their own turn excepted: they discard at their next end phase).
    state = bare(rules, p1={"hand": ["bread", "apple", "cookie", "steak", "tnt"]})
    assert state.seat == 0
    assert any("hand limit" in problem for problem in rules.invariant_problems(state))
    state.players[1].spoils = True
    assert not any("hand limit" in problem for problem in rules.invariant_problems(state))


def _duel(rules: MineventureRules, attacker_hand: list[str], defender_hand: list[str]) -> object:
    state = bare(
        rules,
        p0={"main": "iron-sword", "hand": attacker_hand, "x": 5, "y": 5},
        p1={"main": "iron-sword", "hand": defender_hand, "x": 5, "y": 6},
    )
    state.phase = "decision"
    state = rules.apply(state, Act("fight", "1"))
    assert state.combat is not None and not state.combat.ambush
    return state


def test_a_card_thrown_in_an_exchange_affects_the_other_side_the_same_way_whoever_throws_it(
    rules: MineventureRules,
) -> None:
    # The post: in the resolution step both sides resolve the damage and effects they take at
    # the same time. A weakness potion thrown by either side lands together with the other
    # side's blow, so it changes that blow the same way (here: not at all) whoever throws it.
    state = _duel(rules, ["splash-weakness"], [])
    state = rules.apply(state, Act("use", "splash-weakness", "foe"))
    state = rules.apply(state, Act("strike", "main"))
    by_attacker = state.players[0].hp
    state = _duel(rules, [], ["splash-weakness"])
    state = rules.apply(state, Act("strike", "main"))
    state = rules.apply(state, Act("use", "splash-weakness", "foe"))
    by_defender = state.players[1].hp
    assert by_attacker == by_defender == 20 - 5
    # From the next exchange on, the weakened side deals half (rounded down).
    state = rules.apply(state, Act("strike", "main"))
    state = rules.apply(state, Act("strike", "main"))
    assert state.players[1].hp == 20 - 5 - 2 and state.players[0].hp == 20 - 5


@pytest.mark.parametrize("token", ["tnt", "totem-of-undying", "bread", "sharpness"])
def test_every_hand_card_is_playable_where_its_footer_says(
    rules: MineventureRules, token: str
) -> None:
    # The post: consumables and potions are played in the decision phase or in combat; enchant
    # books go under a weapon. The totem works from the hand (decision hand-card-timing): its
    # footer says so, and the engine never offers to play it.
    from pnp.games.mineventure.model import Timing

    state = bare(
        rules,
        p0={"main": "iron-sword", "hand": [token], "x": 5, "y": 5},
        p1={"main": "iron-sword", "x": 5, "y": 6},
    )
    state.phase = "decision"
    card = rules.cards[rules.by_token[token]]
    in_decision = any(a.kind == "play" for a in rules.legal_actions(state))
    fight = rules.apply(state, Act("fight", "1"))
    in_combat = any(a.kind == "use" for a in rules.legal_actions(fight))
    expected = {
        Timing.ANYTIME: (True, True),
        Timing.DECISION: (True, False),
        Timing.IN_HAND: (False, False),
    }[card.timing]
    assert (in_decision, in_combat) == expected


def test_tnt_thrown_in_the_decision_phase_can_kill_and_the_thrower_loots(
    rules: MineventureRules,
) -> None:
    # The post: consumables are played in the decision phase or in combat; a player who
    # dies leaves the one who killed them their hand and an equipment card of their choice.
    state = bare(
        rules,
        p0={"main": "bow", "hand": ["tnt"], "x": 5, "y": 5},
        p1={"armour": "leather-tunic", "hand": ["bread"], "hp": 5, "x": 5, "y": 8},
    )
    state.phase = "decision"
    state = rules.apply(state, Act("play", "tnt", "1"))
    assert not state.players[1].alive and state.players[0].killed
    assert state.phase == "loot"
    state = rules.apply(state, Act("loot", "armour"))
    assert state.phase == "decision" and state.seat == 0
    assert [rules.tokens[c] for c in state.players[0].hand] == ["bread"]


def test_repairs_stop_at_the_durability_printed_on_the_card(rules: MineventureRules) -> None:
    # The card prints one box per point of durability: repairs (and reinforcing books) fill
    # boxes, they never add boxes (decision repair-cap).
    state = bare(rules, p0={"main": "wooden-sword", "hand": ["iron-ingot", "unbreaking"]})
    state.players[0].main_dur = 3
    state.phase = "decision"
    after = rules.apply(state, Act("play", "iron-ingot"))
    assert after.players[0].main_dur == rules.cards[rules.by_token["wooden-sword"]].durability
    after = rules.apply(state, Act("play", "unbreaking", "main"))
    assert after.players[0].main_dur == 4


def test_a_killer_may_decline_the_victims_equipment(rules: MineventureRules) -> None:
    # The post: the killer obtains any one of the victim's equipment cards. Taking one is a
    # right, not a duty: a killer may leave a card worse than their own (decision loot-choice).
    state = bare(
        rules,
        p0={"main": "diamond-sword", "x": 5, "y": 5},
        p1={"main": "wooden-sword", "hp": 2, "x": 5, "y": 6},
    )
    state.phase = "decision"
    state = rules.apply(state, Act("fight", "1"))
    state = rules.apply(state, Act("strike", "main"))
    state = rules.apply(state, Act("strike", "main"))
    assert state.phase == "loot"
    assert Act("loot", "none") in rules.legal_actions(state)
    state = rules.apply(state, Act("loot", "none"))
    assert rules.tokens[state.players[0].main] == "diamond-sword"
    assert rules.by_token["wooden-sword"] in state.piles[rules.deck_index["equipment"]][1]


# -- notation ----------------------------------------------------------------------------------

DUEL = (
    "mv decision 0 0 0d 40 - 0 0 "
    "5,5;20;alex;bow*5;-;-;-;-,-,-;tnt;-/"
    "5,8;5;alex;-;-;leather-tunic;-;-,-,-;bread*2;-/"
    "10,4;20;alex;-;-;-;-;-,-,-;-;-"
)


def test_a_position_reads_from_its_notation_and_writes_back_the_same_line(
    rules: MineventureRules,
) -> None:
    state = rules.from_notation(DUEL)
    assert rules.notation(state) == DUEL
    p0, p1 = state.players[0], state.players[1]
    assert rules.tokens[p0.main] == "bow" and p0.main_dur == 5
    assert [rules.tokens[c] for c in p1.hand] == ["bread", "bread"] and p1.hp == 5
    # The draw piles are the cards that are nowhere else.
    assert rules.invariant_problems(state) == []
    # TNT from 3 cells away kills: the notation shows the death (D) and the loot choice.
    after = rules.apply(state, Act("play", "tnt", "1"))
    text = rules.notation(after)
    assert text.startswith("mv loot 0 ") and " loot=0.1" in text
    assert text.split(" ")[9].split("/")[1].endswith(";D")
    assert "piles=item:-|tnt" in text
    assert rules.from_notation(text) == after


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("mv decision 0", r"expected 'mv' and 9 fields, got 3 fields"),
        (DUEL.replace("bow*5", "bows*5"), r"unknown 'bows'"),
        (DUEL.replace("0d", "0x"), r"day '0x' must end in d \(day\) or n \(night\)"),
        (DUEL + " colour=red", r"unknown field 'colour'"),
        (DUEL.rsplit("/", 1)[0], r"2 seats for a table of 3"),
    ],
)
def test_a_bad_notation_is_a_value_error_quoting_it(
    rules: MineventureRules, text: str, message: str
) -> None:
    with pytest.raises(ValueError, match=r"^invalid mineventure notation 'mv .*': " + message):
        rules.from_notation(text)


def test_every_position_of_seeded_games_reads_back_from_its_notation(
    rules: MineventureRules,
) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        state = rules.initial_state(rng)
        while True:
            text = rules.notation(state)
            assert "\n" not in text and "[" not in text  # one line of text, not JSON
            assert rules.from_notation(text) == state, text
            if rules.is_terminal(state):
                break
            chooser = SensiblePolicy() if seed else RandomPolicy()
            action = (
                rules.sample_chance(state, rng)
                if rules.is_chance(state)
                else chooser.choose(rules, state, rng)
            )
            state = rules.apply(state, action)


# -- every effect kind at work: each test fails when its handler is removed ----------------------


def seat(
    x: int,
    y: int,
    hp: int = 20,
    char: str = "alex",
    main: str = "-",
    sub: str = "-",
    armour: str = "-",
    partner: str = "-",
    buffs: str = "-,-,-",
    hand: str = "-",
    flags: str = "-",
) -> str:
    """One seat of a notation line (see pnp/games/mineventure/notation.py)."""
    return ";".join((f"{x},{y}", str(hp), char, main, sub, armour, partner, buffs, hand, flags))


def table(
    rules: MineventureRules, *seats: str, phase: str = "decision", extra: str = ""
) -> MineventureState:
    """A position from notation: seat 0 to act, day 0, the dragon unhurt."""
    text = f"mv {phase} 0 0 0d 40 - 0 0 " + "/".join(seats) + extra
    return rules.from_notation(text)


FAR = seat(10, 4)
"""A third seat out of everyone's way."""


def _play(rules: MineventureRules, state: MineventureState, *actions: str) -> MineventureState:
    for text in actions:
        state = rules.apply(state, Act.parse(text))
    return state


def _fight(rules: MineventureRules, a: str, b: str) -> MineventureState:
    """Seat 0 (with `a`) hits seat 1 (bare-handed, with `b`) once at distance 1."""
    state = table(rules, a, b, FAR)
    return _play(rules, state, "fight:1", "strike:main", "strike:fist")


def test_heal_restores_hp(rules: MineventureRules) -> None:
    # The enchanted golden apple heals 12, never above the maximum.
    state = table(rules, seat(5, 5, hp=5, hand="enchanted-golden-apple"), seat(5, 6), FAR)
    assert _play(rules, state, "play:enchanted-golden-apple").players[0].hp == 17


def test_draw_queues_cards_from_the_named_deck(rules: MineventureRules) -> None:
    # A fishing rod, on a water cell (its map-corner icon), draws 2 food cards.
    state = table(rules, seat(5, 8, hand="fishing-rod"), seat(5, 6), FAR)
    after = _play(rules, state, "play:fishing-rod")
    food = rules.deck_index["food"]
    assert rules.is_chance(after) and [d for _, d, _ in after.queue] == [food, food]


def test_legendary_and_story_events(rules: MineventureRules) -> None:
    # Legendary cards come only through events; a story event stays in play.
    state = table(
        rules,
        seat(5, 5),
        seat(5, 6),
        FAR,
        phase="deal",
        extra=" queue=0.event.land resume=decision",
    )
    after = _play(rules, state, "draw:ancient-city")
    assert after.queue == ((0, rules.deck_index["legendary"], "card"),)
    after = _play(rules, state, "draw:eye-of-ender")
    assert rules.tokens[after.story] == "eye-of-ender" and after.phase == "decision"


def test_cleanse_removes_negative_buffs_only(rules: MineventureRules) -> None:
    buffs = "strength.4.1,poison.3.2,weakness.3.3"
    state = table(rules, seat(5, 5, buffs=buffs, hand="milk-bucket"), seat(5, 6), FAR)
    after = _play(rules, state, "play:milk-bucket")
    assert [e and rules.buffs[e[0]].id for e in after.players[0].buffs] == ["strength", None, None]


def test_revive_saves_the_holder_of_the_totem(rules: MineventureRules) -> None:
    # The totem works from the hand: at 0 HP or below its holder lives on with 6 HP.
    after = _fight(
        rules, seat(5, 5, main="iron-sword*6"), seat(5, 6, hp=3, hand="totem-of-undying")
    )
    assert after.players[1].alive and after.players[1].hp == 6 and not after.players[1].hand


@pytest.mark.parametrize(
    ("attacker", "taken"),
    [
        (seat(5, 5, main="iron-sword*6"), 5),
        (seat(5, 5, main="iron-sword*6+sharpness"), 5 + 2),  # sharpen: the book adds 2
        (seat(5, 5, main="iron-sword*6", partner="wolf"), 5 + 2),  # companion attack: a 2nd hit
        (seat(5, 5, main="iron-sword*6", buffs="strength.4.1,-,-"), 5 + 2),  # strength +2
        (seat(5, 5, main="iron-sword*6", buffs="-,weakness.3.1,-"), 5 // 2),  # halve dealt ↓
    ],
)
def test_what_an_attacker_carries_changes_the_hit(
    rules: MineventureRules, attacker: str, taken: int
) -> None:
    after = _fight(rules, attacker, seat(5, 6))
    assert after.players[1].hp == 20 - taken


@pytest.mark.parametrize(
    ("defender", "taken"),
    [
        (seat(5, 6, partner="iron-golem"), 5 - 2),  # guard: each physical hit −2
        (seat(5, 6, buffs="resistance.4.1,-,-"), (5 + 1) // 2),  # halve taken ↑
    ],
)
def test_what_a_defender_carries_changes_the_hit(
    rules: MineventureRules, defender: str, taken: int
) -> None:
    after = _fight(rules, seat(5, 5, main="iron-sword*6"), defender)
    assert after.players[1].hp == 20 - taken


def test_extend_range_and_glowing_reach_further(rules: MineventureRules) -> None:
    # A bow reaches 4; the punch book adds 1; a glowing target is seen 1 further.
    def can_fight(me: str, target: str) -> bool:
        return Act("fight", "1") in rules.legal_actions(table(rules, me, target, FAR))

    assert not can_fight(seat(5, 5, main="bow*5"), seat(5, 10))
    assert can_fight(seat(5, 5, main="bow*5+punch"), seat(5, 10))
    assert can_fight(seat(5, 5, main="bow*5"), seat(5, 10, buffs="-,glowing.4.1,-"))


@pytest.mark.parametrize(
    ("char", "partner", "buffs", "steps"),
    [
        ("steve", "-", "-,-,-", 3),
        ("alex", "-", "-,-,-", 3 + 1),  # the character's stride
        ("steve", "horse", "-,-,-", 3 + 2),  # the partner's stride
        ("steve", "-", "swiftness.4.1,-,-", 3 + 2),
        ("steve", "-", "-,slowness.3.1,-", 1),  # 3 − 2
    ],
)
def test_stride_changes_the_steps_of_a_move(
    rules: MineventureRules, char: str, partner: str, buffs: str, steps: int
) -> None:
    me = seat(5, 5, char=char, partner=partner, buffs=buffs)
    state = _play(rules, table(rules, me, seat(9, 9), FAR, phase="action"), "roll", "die:3")
    assert state.phase == "move" and state.roll == steps


def test_nimble_adds_to_the_flee_roll(rules: MineventureRules) -> None:
    # Crossbow range 3: a 4 scores 3 and fails; Noor's +1 makes it 4 and gets away.
    for char, away in (("alex", False), ("noor", True)):
        state = table(rules, seat(5, 5, main="crossbow*4"), seat(5, 6, char=char), FAR)
        state = _play(rules, state, "fight:1", "strike:main", "flee", "die:4")
        assert (state.combat is None) is away


def test_pack_raises_the_hand_limit(rules: MineventureRules) -> None:
    # Sunny's pack: one more card kept at the end phase.
    hand = "bread,apple,cookie,steak,tnt"
    for char, passes in (("alex", False), ("sunny", True)):
        state = table(rules, seat(5, 5, char=char, hand=hand), seat(5, 6), FAR)
        after = _play(rules, state, "end")
        assert (after.seat == 1) is passes


def _whole_round(rules: MineventureRules, state: MineventureState) -> MineventureState:
    """Every seat skips and ends: the round ends through the rules."""
    for _ in range(rules.players):
        state = _play(rules, state, "skip", "end")
    return state


def test_regeneration_and_poison_tick_at_the_end_of_a_round(rules: MineventureRules) -> None:
    state = table(
        rules,
        seat(5, 5, hp=10, buffs="regeneration.3.1,-,-"),
        seat(5, 6, hp=10, buffs="-,poison.3.2,-"),
        FAR,
        phase="action",
    )
    after = _whole_round(rules, state)
    assert after.players[0].hp == 12 and after.players[1].hp == 9


def test_nurse_adds_to_and_starve_stops_the_daily_heal(rules: MineventureRules) -> None:
    # After the night everyone heals 2; Steve's nurse adds 1; hunger stops it.
    text = rules.notation(
        table(
            rules,
            seat(5, 5, hp=10, char="steve"),
            seat(5, 6, hp=10, buffs="-,hunger.2.1,-"),
            seat(10, 4, hp=10),
            phase="action",
        )
    ).replace(" 0 0 0d ", " 0 1 0n ")
    after = _whole_round(rules, rules.from_notation(text))
    assert after.day == 1
    assert [p.hp for p in after.players] == [13, 10, 12]


def test_a_weapon_at_no_durability_breaks_to_the_bottom_of_its_deck(
    rules: MineventureRules,
) -> None:
    # Every use costs one durability; at zero the weapon breaks. Field cards never go to a
    # discard pile (decision broken-weapon): the sword to the deck's bottom, its book discarded.
    after = _fight(rules, seat(5, 5, main="iron-sword*1+sharpness"), seat(5, 6))
    assert after.players[1].hp == 20 - 5 - 2 and after.players[0].main == -1
    equipment, item = rules.deck_index["equipment"], rules.deck_index["item"]
    assert after.piles[equipment][1] == (rules.by_token["iron-sword"],)
    assert after.piles[item][2] == (rules.by_token["sharpness"],)
    # A sub weapon strikes the same way: a snowball from 3 cells in an ambush.
    state = table(rules, seat(5, 5, sub="snowball*3"), seat(5, 8), FAR)
    state = _play(rules, state, "fight:1", "strike:sub")
    assert state.players[1].hp == 20 - 1 and state.players[0].sub_dur == 2


def _moves_walked(rules: MineventureRules, state: MineventureState) -> list[Act]:
    """The moves of `state` found the plain way: every walk, then each cell it passes."""
    me = state.players[state.seat]
    others = {(p.x, p.y): s for s, p in enumerate(state.players) if p.alive and s != state.seat}
    dragon = rules.dragon_at if state.dragon_hp > 0 else None
    out: list[Act] = []
    for act, path in rules.walks(me.x, me.y, state.roll):
        out.append(act)
        for cell in path:
            if cell in others:
                out.append(Act("move", act.a, str(others[cell])))
            if cell == dragon:
                out.append(Act("move", act.a, "dragon"))
    return out


@pytest.mark.parametrize(("players", "mode"), [(3, Mode.MAP_24), (6, Mode.MAP_32)])
def test_moves_list_each_walk_then_its_battles_on_the_path_in_order(
    model: Mineventure, players: int, mode: Mode
) -> None:
    # Battle on the path (decision battle-on-path): the engine finds the walks through an
    # occupied cell by geometry; it must list what walking every path cell by cell lists.
    rules = MineventureRules(model, players, mode)
    rng = random.Random(5)
    state = clone(started(rules))
    state.phase, state.seat = "move", 0
    cells = sorted(rules.terrain)
    x0, y0 = rules.dragon_at
    battles = 0
    for _ in range(400):
        state.roll = rng.randint(1, 9)
        me = state.players[0]
        me.x, me.y = rng.choice(cells)
        for p in state.players[1:]:
            # Most seats near the mover (several on one cell now and then), some dead.
            p.x = min(max(me.x + rng.randint(-4, 4), 0), rules.size - 1)
            p.y = min(max(me.y + rng.randint(-4, 4), 0), rules.size - 1)
            p.alive = rng.random() < 0.8
        if rng.random() < 0.3:
            me.x = min(max(x0 + rng.randint(-3, 3), 0), rules.size - 1)
            me.y = min(max(y0 + rng.randint(-3, 3), 0), rules.size - 1)
        state.dragon_hp = rng.choice((0, 10))
        moves = rules._moves(state)
        assert moves == _moves_walked(rules, state)
        plain = rules.walks(me.x, me.y, state.roll)
        assert [rules.landing(me.x, me.y, act.a) for act, _ in plain] == [p[-1] for _, p in plain]
        battles += len(moves) - len(plain)
    assert battles > 400  # the positions met others on the way
    # The plain moves (found from run lengths) are the walks, from every cell.
    for x, y in cells:
        for steps in (1, 2, 5, 9):
            walks = rules.walks(x, y, steps)
            assert rules.plain_moves(x, y, steps) == tuple(act for act, _ in walks)
            assert rules.plain_ends(x, y, steps) == tuple(path[-1] for _, path in walks)


def test_apply_takes_exactly_the_listed_actions_and_leaves_its_position_alone(
    rules: MineventureRules,
) -> None:
    # apply checks a chance outcome without listing the outcomes, and a player's action by
    # the list a policy chose from: both must agree with legal_actions, equal copies included;
    # the position applied to never changes (seats are copied when a step changes them).
    rng = random.Random(11)
    policy = SensiblePolicy()
    state = rules.initial_state(rng)
    die = [Act("die", str(n)) for n in range(rules.settings.die_sides + 2)]
    draws = [Act("draw", token) for token in rules.tokens]
    steps = 0
    while not rules.is_terminal(state):
        text = rules.notation(state)
        legal = rules.legal_actions(clone(state))  # listed for a copy: apply cannot reuse it
        wrong = [
            a for a in (*die, *draws[steps % 7 :: 7], Act("end"), Act("roll")) if a not in legal
        ]
        for action in wrong:
            with pytest.raises(IllegalActionError):
                rules.apply(state, action)
        seat = rules.current_player(state)
        action = (
            rules.sample_chance(state, rng) if seat is None else policy.choose(rules, state, rng)
        )
        after = rules.apply(state, Act.parse(str(action)))  # an equal copy, not the listed one
        assert rules.notation(state) == text  # apply is pure
        assert rules.notation(rules.apply(state, action)) == rules.notation(after)
        state = after
        steps += 1
    assert steps > 100


@pytest.mark.parametrize("players,mode", [(3, Mode.MAP_24), (5, Mode.MAP_32)])
def test_decision_plays_read_from_card_tables_are_what_playable_answers(
    model: Mineventure, players: int, mode: Mode
) -> None:
    # The decision phase lists the usual sorts of hand card from per-card tables: the same
    # plays, in the same order, as asking `playable` card by card (decision hand-card-timing,
    # map-icons, potion-targets).
    rules = MineventureRules(model, players, mode)
    checked = 0
    for seed in range(40):
        record = play_game(
            rules, [RandomPolicy()] * players, random.Random(seed), 10**6, record_actions=True
        )
        state = rules.initial_state(random.Random(seed))
        for action in record.actions:
            if state.phase == "decision" and rules.current_player(state) is not None:
                seat = state.seat
                expected = [
                    rules.play_act("play", code, arg)
                    for code in sorted(set(state.players[seat].hand))
                    for arg in rules.playable(state, seat, code, in_combat=False)
                ]
                listed = rules.legal_actions(state)
                assert [a for a in listed if a.kind == "play"] == expected
                checked += bool(expected)
            state = rules.apply(state, action)
    assert checked > 1000
