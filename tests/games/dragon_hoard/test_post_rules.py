"""Dragon Hoard: scenario tests written from the post (issue 13), each citing the rule it
checks. Positions are reached through ``apply`` and the action notation where the rule is
about how play gets there, and loaded from a mat where the rule is about resolving one."""

from __future__ import annotations

import itertools
import random

import pytest

from pnp.engines.base import RandomPolicy
from pnp.games.dragon_hoard.actions import Place, Reveal
from pnp.games.dragon_hoard.match import sole_leader
from pnp.games.dragon_hoard.play import compass
from pnp.games.dragon_hoard.policies import TreasureHunterPolicy
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.simulation import simulate
from pnp.games.dragon_hoard.state import DragonHoardState, Stage, Status, Termination, _copy
from tests.games.dragon_hoard.test_rules import MODEL, _ai, placement, resolve


def to_placement(rules: DragonHoardRules, ai: tuple[str, ...] = ("prowl", "pounce")) -> object:
    """Round 1 through `apply`: every seat done with preparation, the holder draws `ai`."""
    state = rules.initial_state(random.Random(0))
    while state.stage is Stage.PREPARATION:
        state = rules.apply(state, rules.parse_action("done"))
    for card in ai:
        state = rules.apply(state, rules.parse_action(f"ai:{card}"))
    assert state.stage is Stage.PLACEMENT and state.actor == state.holder == 0
    return state


def play(rules: DragonHoardRules, state: DragonHoardState, *texts: str) -> DragonHoardState:
    for text in texts:
        state = rules.apply(state, rules.parse_action(text))
    return state


# -- placement is a real-time race ----------------------------------------------------------


def test_one_player_may_put_both_cards_down_before_the_holders_first() -> None:
    # The post: for the 30 seconds of placement everyone may place at any moment, at most two
    # cards each; so a quick player can put both cards down before anyone else moves.
    rules = DragonHoardRules(MODEL, 3)
    state = to_placement(rules)
    assert isinstance(state, DragonHoardState)
    state = play(rules, state, "wait", "place:move-n", "place:move-e", "wait", "place:move-s")
    assert [seat for seat, _ in state.placed] == [1, 1, 0]


def test_every_order_of_the_mat_is_reachable() -> None:
    # The post: placement is simultaneous, the order on the mat is whatever order the hands
    # reached it in. Every sequence of seats with at most two cards each must be reachable.
    rules = DragonHoardRules(MODEL, 2)
    start = to_placement(rules)
    assert isinstance(start, DragonHoardState)
    orders: set[tuple[int, ...]] = set()

    def explore(state: DragonHoardState, seats: tuple[int, ...]) -> None:
        places = [a for a in rules.legal_actions(state) if isinstance(a, Place)]
        for action in rules.legal_actions(state):
            if isinstance(action, Reveal) or (isinstance(action, Place) and action != places[0]):
                continue
            after = rules.apply(state, action)
            now = (*seats, state.actor) if isinstance(action, Place) else seats
            if after.stage is Stage.PLACEMENT and after.round == state.round:
                explore(after, now)
            else:
                orders.add(now)

    explore(start, ())
    expected = {
        word
        for length in range(5)
        for word in itertools.product((0, 1), repeat=length)
        if word.count(0) <= 2 and word.count(1) <= 2
    }
    assert orders == expected and len(orders) == 19


def test_simulated_players_can_wait() -> None:
    # The post: a player may hold back and place later (after looking at the AI card, or
    # after the others); the simulated players must be able to do so too.
    rules = DragonHoardRules(MODEL, 3)
    state = to_placement(rules)
    assert "wait" in {str(a) for a in rules.legal_actions(state)}
    sensible = {
        str(TreasureHunterPolicy().choose(rules, state, random.Random(s))) for s in range(60)
    }
    assert "wait" in sensible and any(text.startswith("place:") for text in sensible)
    chosen = {str(RandomPolicy().choose(rules, state, random.Random(s))) for s in range(60)}
    assert "wait" in chosen


# -- excess cards are removed before any effect -----------------------------------------------


def test_cards_beyond_the_limit_are_removed_before_any_effect() -> None:
    # The post: a player who placed more than two cards has every card over the limit removed
    # (temporarily) before any effect; they neither resolve nor count for the AI's speed.
    rules = DragonHoardRules(MODEL, 2)
    state = placement(
        rules,
        "frozen-ground",  # speed 5: after every counted card
        [(0, "move-s"), (0, "move-e"), (1, "move-w"), (0, "move-n")],
        pawns=((1, 2), (12, 5)),
    )
    assert len(rules.resolution(state)) == 4  # three counted player cards and the AI card
    after = resolve(rules, state)
    assert after.pawns[0] == (3, 4)  # south 2, east 2; the third card (north) never resolved
    assert after.used == ((), ())  # and it came back with the others at cleanup


# -- the game ends when nobody is left in the lair ------------------------------------------


def test_the_game_ends_when_the_last_player_in_the_lair_leaves() -> None:
    # The post ends a game when the AI deck is empty; with every player gone (left or given
    # up) nothing is left to play. Decision `everyone-out`: the game ends at that round's end.
    rules = DragonHoardRules(MODEL, 2)
    state = placement(
        rules,
        "prowl",
        [(0, "move-w")],
        pawns=((2, 12), None),
        status=(Status.IN, Status.LEFT),
        left_order=(1,),
    )
    after = resolve(rules, state)
    assert after.status[0] is Status.LEFT and after.deck
    assert rules.is_terminal(after) and rules.legal_actions(after) == []
    assert rules.outcome(after).termination is Termination.EVERYONE_OUT


def test_no_round_is_played_with_nobody_in_the_lair() -> None:
    # Reported game lengths count only rounds someone could play: the invariant, checked at
    # every step of simulated play, refuses a game that goes on with nobody in the lair.
    rules = DragonHoardRules(MODEL, 2)
    state = _copy(rules.initial_state(random.Random(0)))
    state.status = (Status.LEFT, Status.QUIT)
    state.pawns = (None, None)
    state.left_order = (0,)
    assert any("nobody in the lair" in p for p in rules.invariant_problems(state))
    report = simulate(MODEL, 2, games=30, seed=5, check=True)
    assert report.ended_by_cap == 0


# -- "move at most N" -----------------------------------------------------------------------


def test_a_move_card_may_stop_short() -> None:
    # The card and the rulebook say "move at most N cells": the player chooses, when the card
    # resolves, any distance from one cell to N (decision `move-distance`).
    rules = DragonHoardRules(MODEL, 2)
    state = placement(rules, "prowl", [(0, "move-s")], pawns=((2, 4), (12, 5)))
    paused = rules.apply(state, rules.parse_action("stop"))
    assert paused.stage is Stage.RESOLUTION and paused.actor == 0
    assert {str(a) for a in rules.legal_actions(paused)} == {"walk:1", "walk:2"}
    after = rules.apply(paused, rules.parse_action("walk:1"))
    assert after.pawns[0] == (2, 5) and after.stage is Stage.PREPARATION


def test_a_move_with_one_possible_distance_needs_no_choice() -> None:
    # Blocked after one cell by the map's edge: only one distance is possible, so the card
    # resolves at once.
    rules = DragonHoardRules(MODEL, 2)
    state = placement(rules, "prowl", [(0, "move-s")], pawns=((3, 11), (12, 5)))
    after = rules.apply(state, rules.parse_action("stop"))
    assert after.stage is Stage.PREPARATION and after.pawns[0] == (3, 12)


# -- the heirloom is never lost ---------------------------------------------------------------


def test_a_player_who_gives_up_keeps_their_heirloom_off_the_map() -> None:
    # The post: 「被设为传家宝的宝物无法掉落及丢失」 — an heirloom never drops and is never lost.
    # A player who gives up drops what is in their bag, but the heirloom stays in front of
    # them: nobody else can pick it up and score it.
    rules = DragonHoardRules(MODEL, 2)
    crown, gold = rules.treasure_ids.index("crown"), rules.treasure_ids.index("gold")
    state = _copy(rules.initial_state(random.Random(0)))
    state.pawns = ((5, 9), rules.entries[1])
    # Seat 0 picked up a crown (its heirloom) and a bag of gold on earlier rounds.
    floor = list(state.floor)
    floor.remove(next(item for item in floor if item[2] == crown))
    floor.remove(next(item for item in floor if item[2] == gold))
    state.floor = tuple(floor)
    state.bags = ((gold,), ())
    state.heirlooms = (crown, -1)
    assert rules.invariant_problems(state) == []
    state = play(rules, state, "give-up")
    assert state.status[0] is Status.QUIT
    assert state.heirlooms[0] == crown
    assert (5, 9, gold) in state.floor and (5, 9, crown) not in state.floor
    assert rules.invariant_problems(state) == []  # the crown is still accounted for
    assert rules.scores(state)[0] == 0


# -- each player enters at the teleporter nearest them -----------------------------------------


@pytest.mark.parametrize("players", list(MODEL.info.players))
def test_seats_enter_at_the_teleporter_nearest_them(players: int) -> None:
    # The post: 「玩家将自己的人物token放置在离自己最近的入场传送点」. Seats sit clockwise round
    # the table (the hourglass passes clockwise), so going from seat to seat the entries must
    # go clockwise round the map, once: the next player's entry is the next side over, never
    # the one across the table.
    rules = DragonHoardRules(MODEL, players)
    clockwise = ["south", "west", "north", "east"]  # seen from above, north up
    sides = [clockwise.index(compass(rules, seat)) for seat in range(players)]
    turns = sum(sides[(k + 1) % players] <= sides[k] for k in range(players))
    assert turns == 1, [clockwise[side] for side in sides]


# -- recall cards in the countdown ----------------------------------------------------------


def test_in_the_countdown_no_recall_card_comes_back_to_the_deck() -> None:
    # The post: 「若当前已处于结束倒计时，则在本次重洗时将所有归位牌剔除」. The recall card that
    # set off this reshuffle was drawn as next round's card (「作为下回合执行的AI牌」): it is
    # carried out next round as the post says, then lies on the executed pile; every other
    # recall card leaves the game, so none is ever drawn again (decision `recall-reshuffle`).
    rules = DragonHoardRules(MODEL, 2)
    recall = [c for c, is_recall in enumerate(rules.ai_recall) if is_recall]
    nest = _ai(rules, "return-nest")
    state = placement(rules, "prowl", [], pawns=((2, 4), (12, 5)))
    deck = [*state.deck, state.upcoming]
    deck.remove(nest)
    state.deck, state.upcoming = tuple(sorted(deck)), nest
    state.countdown, state.recall_round, state.recalls = True, True, rules.recall_limit
    after = resolve(rules, state)
    assert after.upcoming == nest
    assert not set(recall) & set(after.deck)
    assert sorted(after.removed) == sorted(c for c in recall if c != nest)
    # Next round: the kept recall card is this round's card, carried out, and stays out.
    state = play(rules, after, "done", "done")
    state = rules.apply(state, rules.sample_chance(state, random.Random(1)))
    assert state.current == nest and state.stage is Stage.PLACEMENT
    state = play(rules, state, "stop", "stop")
    while state.stage is Stage.RESOLUTION:
        state = rules.apply(state, rules.legal_actions(state)[0])
    assert state.executed[-1] == nest and not set(recall) & set(state.deck)


# -- several games: the sole top scorer ------------------------------------------------------


def test_only_a_sole_top_score_of_the_game_binds_the_next_game() -> None:
    # The post: 「若一盘游戏计分结束后，只有一位玩家的分数最高。则此玩家在下盘游戏中，必须至少
    # 拥有3个宝物才可离开宝窟」. The game's own scores count (not the winner's bonus): a tie
    # at the top binds nobody, even though leaving first broke it for the win; all zero too.
    assert sole_leader((9, 4, 4)) == 0
    assert sole_leader((6, 6, 2)) is None
    assert sole_leader((0, 0, 0)) is None


def test_a_bound_player_walks_past_the_exit_with_too_few_treasures() -> None:
    # Decision `sole-top-scorer`: the heirloom counts among the treasures held; with fewer than
    # settings.leader_min_treasures an exit is an ordinary cell for that player.
    need = MODEL.settings.leader_min_treasures
    rules = DragonHoardRules(MODEL, 2, must_hold=(need, 0))
    gold = rules.treasure_ids.index("gold")
    floor = [item for item in rules.initial_state(random.Random(0)).floor if item[2] == gold]
    for held in (need - 1, need):
        state = placement(rules, "prowl", [(0, "move-w")], pawns=((1, 12), (12, 5)))
        state.floor = tuple(item for item in state.floor if item not in floor[:held])
        state.bags = (tuple([gold] * (held - 1)), ())
        state.heirlooms = (gold, -1)
        assert rules.invariant_problems(state) == []
        after = resolve(rules, state)
        assert (after.status[0] is Status.LEFT) is (held >= need)
