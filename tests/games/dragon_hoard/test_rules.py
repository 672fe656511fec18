"""Dragon Hoard: the resolution order of the speed markers, scenario tests of a round citing
the rule, matches, and seeded random play with invariants checked at every step."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from pnp.content.loader import load_game
from pnp.engines.base import RandomPolicy, play_game
from pnp.errors import IllegalActionError
from pnp.games.dragon_hoard.match import score_match
from pnp.games.dragon_hoard.model import AI, Rounding, SpeedError, SpeedMarker, resolution_order
from pnp.games.dragon_hoard.policies import TreasureHunterPolicy
from pnp.games.dragon_hoard.rules import DragonHoardRules
from pnp.games.dragon_hoard.simulation import simulate
from pnp.games.dragon_hoard.state import (
    AI_ITEM,
    LEFT_LAIR,
    DragonHoardState,
    Stage,
    Status,
    _copy,
)
from pnp.paths import REPOSITORY

MODEL = load_game(REPOSITORY / "content", "dragon-hoard").model
CARDS = ["a1", "b1", "c1", "a2", "b2", "c2"]
CARD_IDS = [card.id for card in MODEL.action_cards]


# -- the resolution-order function --------------------------------------------------------


def test_speed_zero_resolves_before_every_player_card() -> None:
    assert resolution_order("0", CARDS[:3], 3) == [AI, "a1", "b1", "c1"]


def test_speed_infinity_resolves_after_every_player_card() -> None:
    assert resolution_order("∞", CARDS[:3], 3) == ["a1", "b1", "c1", AI]
    assert resolution_order("∞", [], 3) == [AI]


def test_a_number_speed_falls_after_that_many_cards() -> None:
    assert resolution_order("2", CARDS[:4], 2) == ["a1", "b1", AI, "c1", "a2"]


def test_fewer_cards_than_the_speed_asks_resolve_it_after_all() -> None:
    # The post's example: 3 player cards and speed 4 -> the AI card after all of them.
    assert resolution_order("4", CARDS[:3], 4) == ["a1", "b1", "c1", AI]


def test_star_counts_the_players_at_the_start() -> None:
    # ☆ = players at game start x 1; ☆×3/2 with 4 players = 6.
    assert resolution_order("☆", CARDS, 3) == ["a1", "b1", "c1", AI, "a2", "b2", "c2"]
    assert resolution_order("☆×3/2", CARDS, 4).index(AI) == 6


@pytest.mark.parametrize(
    ("rounding", "slot"), [(Rounding.DOWN, 1), (Rounding.UP, 2), (Rounding.NEAREST, 2)]
)
def test_star_half_with_three_players_rounds_as_the_content_says(
    rounding: Rounding, slot: int
) -> None:
    # Decision `star-rounding`: 3 players x 1/2 = 1.5 is rounded by settings.star_rounding.
    assert resolution_order("☆×1/2", CARDS, 3, rounding).index(AI) == slot


def test_the_shipped_content_rounds_star_down() -> None:
    assert MODEL.settings.star_rounding is Rounding.DOWN
    assert MODEL.star_cards(Fraction(1, 2), 3) == 1
    assert MODEL.star_cards(Fraction(3, 2), 3) == 4


@pytest.mark.parametrize("text", ["9", "x", "☆×0", "☆×2/4", "☆×1/0", "-1", "∞∞"])
def test_a_marker_of_none_of_the_four_kinds_is_refused(text: str) -> None:
    with pytest.raises(SpeedError):
        SpeedMarker.parse(text)


@pytest.mark.parametrize("text", ["0", "∞", "☆", "☆×1/2", "☆×3/2", "1", "8"])
def test_markers_print_as_written(text: str) -> None:
    assert SpeedMarker.parse(text).symbol == text


# -- scenarios ----------------------------------------------------------------------------


def _ai(rules: DragonHoardRules, card_id: str) -> int:
    return rules.ai_ids.index(card_id)


def _card(rules: DragonHoardRules, card_id: str) -> int:
    return rules.card_ids.index(card_id)


def placement(
    rules: DragonHoardRules, current: str, placed: list[tuple[int, str]], **changes: object
) -> DragonHoardState:
    """A round 1 position at placement with `current` this round's AI card and `placed` on the
    mat; every seat stopped but the last to act, who stops next (ending placement)."""
    state = rules.initial_state(random.Random(0))
    s = _copy(state)
    deck = list(s.deck)
    deck.remove(_ai(rules, current))
    s.current = _ai(rules, current)
    s.upcoming = deck.pop(0) if "upcoming" not in changes else -1
    s.deck = tuple(deck)
    s.stage = Stage.PLACEMENT
    s.placed = tuple((seat, _card(rules, c)) for seat, c in placed)
    s.used = tuple(
        tuple(sorted(_card(rules, c) for seat2, c in placed if seat2 == seat))
        for seat in range(rules.players)
    )
    s.stopped = tuple(seat != 0 for seat in range(rules.players))
    s.actor = 0
    for key, value in changes.items():
        if key != "upcoming":
            setattr(s, key, value)
    text = rules.notation(s)
    assert rules.from_notation(text) == s
    return s


def resolve(rules: DragonHoardRules, state: DragonHoardState) -> DragonHoardState:
    """End placement with `stop` and walk every move card its full length."""
    state = rules.apply(state, rules.parse_action("stop"))
    while state.stage is Stage.RESOLUTION:
        state = rules.apply(state, max(rules.legal_actions(state), key=str))
    return state


def test_a_cancelled_card_still_counts_for_the_speed() -> None:
    rules = DragonHoardRules(MODEL, 2)
    # Seat 0 leaves the lair with its first card (exit [0, 12]); its second card is cancelled
    # but still counts, so the frost lance (speed 2, north of the dragon) fires before seat 1's
    # escape west and kills it. Without the cancelled card seat 1 would get away.
    state = placement(
        rules,
        "frost-lance",
        [(0, "move-w"), (0, "move-n"), (1, "move-w")],
        pawns=((2, 12), (6, 2)),
    )
    assert rules.resolution(state).index(AI) == 2
    after = resolve(rules, state)
    assert after.status[0] is Status.LEFT
    # Seat 1 died (and respawned on its entry teleporter for the next round).
    assert after.pawns[1] == rules.entries[1]
    gold = rules.treasure_ids.index("gold")
    assert (6, 2, gold) in after.floor  # the gold it stood on stays on the floor


@pytest.mark.parametrize("players", list(MODEL.info.players))
def test_the_queue_resolves_in_the_resolution_order(players: int) -> None:
    # The engine's queue is `resolution_order` with each AI card's slot worked out once:
    # every AI card, mats of every length, cards over a seat's limit among them.
    rules = DragonHoardRules(MODEL, players)
    rng = random.Random(players)
    for current in rules.ai_ids:
        for length in range(rules.limit * players + 3):
            mat = [(rng.randrange(players), rng.choice(CARD_IDS)) for _ in range(length)]
            state = placement(rules, current, mat)
            expected = tuple(
                (AI_ITEM, state.current) if item == AI else item for item in rules.resolution(state)
            )
            assert rules._resolution_queue(state) == expected, rules.notation(state)


def test_a_dead_players_card_is_cancelled() -> None:
    rules = DragonHoardRules(MODEL, 2)
    # Roar-home (speed 0, a ring round the dragon): seat 1 at (6, 8) is in the ring and dies
    # before its move south, which would have picked up the gold at (6, 10).
    state = placement(rules, "roar-home", [(1, "move-s"), (0, "move-e")], pawns=((0, 6), (6, 8)))
    after = resolve(rules, state)
    gold = rules.treasure_ids.index("gold")
    assert (6, 10, gold) in after.floor and after.bags[1] == ()
    assert after.pawns[0] == (2, 6) and after.bags[0] == (gold,)
    # Next round's preparation: the dead respawn on their own entry teleporter.
    assert after.stage is Stage.PREPARATION
    assert after.status[1] is Status.IN and after.pawns[1] == rules.entries[1]


def test_dodging_players_survive_an_attack_but_not_a_trap() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = placement(
        rules,
        "fury",  # ∞: fire traps spring, then the ring around the dragon
        [(0, "dodge"), (1, "dodge")],
        pawns=((6, 4), (6, 3)),  # seat 1 on the fire trap at (6, 3)
    )
    after = resolve(rules, state)
    assert after.pawns[0] == (6, 4)  # in the ring, but sideways
    assert after.pawns[1] == rules.entries[1]  # the trap ignores dodging: dead, respawned


def test_death_drops_the_bag_but_keeps_the_heirloom() -> None:
    rules = DragonHoardRules(MODEL, 2)
    gold, crown = rules.treasure_ids.index("gold"), rules.treasure_ids.index("crown")
    floor = list(rules._floor)  # one gold and one crown were picked up earlier
    floor.remove(next(item for item in floor if item[2] == gold))
    floor.remove(next(item for item in floor if item[2] == crown))
    state = placement(
        rules,
        "tail-sweep",
        [],
        pawns=((6, 8), (0, 6)),
        bags=((gold,), ()),
        heirlooms=(crown, -1),
        floor=tuple(floor),
    )
    rules.check_invariants(state)
    after = resolve(rules, state)
    assert after.bags[0] == () and after.heirlooms[0] == crown
    assert (6, 8, gold) in after.floor


def test_leaving_starts_the_countdown_and_scores() -> None:
    rules = DragonHoardRules(MODEL, 2)
    gem = rules.treasure_ids.index("gem")
    floor = list(rules._floor)
    floor.remove(next(item for item in floor if item[2] == gem))
    state = placement(
        rules,
        "prowl",
        [(0, "move-w")],
        pawns=((2, 12), (0, 6)),
        bags=((gem,), ()),
        floor=tuple(floor),
    )
    after = resolve(rules, state)
    # The exit at [0, 12]: seat 0 left the lair; the countdown starts at this round's cleanup.
    assert after.status[0] is Status.LEFT and after.left_order == (0,)
    assert after.countdown
    assert rules.scores(after)[0] == rules.value[gem]


def test_the_third_recall_card_starts_the_countdown_and_drops_recall_cards() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = placement(rules, "return-nest", [], recalls=3, recall_round=True)
    assert not state.countdown
    after = resolve(rules, state)
    assert after.countdown
    # Recall drawn inside the countdown: the reshuffle removes every recall card in it.
    assert after.removed and all(rules.ai_recall[c] for c in after.removed)
    assert _ai(rules, "return-nest") in after.removed
    assert not any(rules.ai_recall[c] for c in after.deck)
    assert after.executed == ()


def test_a_recall_outside_the_countdown_reshuffles_everything_back() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = placement(rules, "return-nest", [], recalls=1, recall_round=True)
    after = resolve(rules, state)
    assert not after.countdown and after.removed == ()
    assert rules._ai_by_id["return-nest"] in after.deck  # executed pile shuffled back
    assert len(after.deck) == len(rules._deck) - 1  # all but next round's card, set aside


def test_the_heart_leaving_the_domain_starts_the_countdown() -> None:
    rules = DragonHoardRules(MODEL, 2)
    heart = rules.heart
    floor = tuple(item for item in rules._floor if item[2] != heart)
    state = placement(
        rules, "prowl", [(0, "move-s")], pawns=((6, 9), (0, 6)), bags=((heart,), ()), floor=floor
    )
    after = resolve(rules, state)
    assert after.pawns[0] == (6, 11) and after.countdown


def test_the_game_ends_when_the_deck_is_empty_at_round_end() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = placement(rules, "pounce", [])
    s = _copy(state)
    s.removed = tuple(sorted(s.deck))
    s.deck = ()
    after = rules.apply(s, rules.parse_action("stop"))
    assert rules.is_terminal(after) and rules.legal_actions(after) == []
    assert rules.outcome(after).winners == frozenset()  # nobody left the lair


def test_a_score_tie_goes_to_who_left_first() -> None:
    rules = DragonHoardRules(MODEL, 3)
    state = placement(rules, "pounce", [])
    s = _copy(state)
    s.status = (Status.LEFT, Status.LEFT, Status.IN)
    s.pawns = (None, None, (0, 6))
    gold = rules.treasure_ids.index("gold")
    s.bags = ((gold,), (gold,), ())
    s.left_order = (1, 0)
    assert rules.winner(s) == 1


def test_placement_allows_two_cards_and_reveal_only_before_placing() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = placement(rules, "pounce", [(0, "move-n")])
    s = _copy(state)
    s.stopped = (False, False)
    texts = {str(a) for a in rules.legal_actions(s)}
    assert "reveal" not in texts and "place:move-e" in texts and "place:move-n" not in texts
    s = rules.apply(s, rules.parse_action("place:move-e"))  # seat 0's second card
    assert s.actor == 1
    assert "reveal" in {str(a) for a in rules.legal_actions(s)}
    s = rules.apply(s, rules.parse_action("reveal"))
    assert s.revealed and s.peeker == 1 and s.actor == 1  # revealing, then placing, is fine
    with pytest.raises(IllegalActionError, match=r"^illegal action Reveal\(\) in "):
        rules.apply(s, rules.parse_action("reveal"))
    s = resolve(rules, s)
    # Seat 0 has placed its two cards: placement is over and the round resolved.
    assert s.turn == 1 and s.stage is Stage.PREPARATION


def test_preparation_allows_each_option_once() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = rules.initial_state(random.Random(0))
    texts = {str(a) for a in rules.legal_actions(state)}
    assert {"done", "give-up", "prep:sprint>n", "prep:dodge"} <= texts
    state = rules.apply(state, rules.parse_action("prep:sprint>n"))
    assert state.pawns[0] == (6, 11)
    assert not any(t.startswith("prep:") for t in map(str, rules.legal_actions(state)))


def test_giving_up_starts_the_countdown() -> None:
    rules = DragonHoardRules(MODEL, 2)
    state = rules.initial_state(random.Random(0))
    state = rules.apply(state, rules.parse_action("give-up"))
    assert state.status[0] is Status.QUIT and state.events & ~LEFT_LAIR


def test_match_scoring_adds_the_bonus_and_breaks_ties_by_game_wins() -> None:
    bonus = MODEL.settings.win_bonus
    result = score_match([((10, 4), 0), ((3, 8), 1), ((0, 0), None)], 2, bonus)
    assert result.totals == (13 + bonus, 12 + bonus)
    assert result.winners == {0}
    # Equal totals: the seat with more game wins takes the match.
    wins = score_match([((5, 5), 0), ((0, 0), None), ((0, bonus), None)], 2, bonus)
    assert wins.totals == (5 + bonus, 5 + bonus) and wins.winners == {0}
    tied = score_match([((5, 0), 0), ((0, 5), 1)], 2, bonus)
    assert tied.winners == {0, 1}  # equal totals, one game won each: a draw


# -- seeded play --------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_play_keeps_every_invariant_and_ends_in_the_countdown(players: int) -> None:
    report = simulate(MODEL, players, games=40, seed=7, check=True)
    assert report.ended_by_cap == 0
    assert report.countdown_games == report.games


def test_sensible_players_leave_with_treasure_and_seats_are_balanced() -> None:
    report = simulate(MODEL, 4, games=60, seed=3, policy=TreasureHunterPolicy(), check=True)
    assert report.nobody_left == 0 and min(report.winning_scores) >= 1
    assert max(report.wins_by_seat) < 0.6 * report.games


def test_the_same_seed_plays_the_same_game() -> None:
    rules = DragonHoardRules(MODEL, 3)
    first = play_game(rules, [RandomPolicy()] * 3, random.Random(11), 100_000, record_actions=True)
    again = play_game(rules, [RandomPolicy()] * 3, random.Random(11), 100_000, record_actions=True)
    assert first.actions == again.actions and first.outcome == again.outcome


def test_the_table_size_picks_the_entry_teleporters() -> None:
    # Decision `seats-and-entries`: 3 players enter at 1, 2, 3 (south, west, north).
    import random

    from pnp.content.loader import load_game
    from pnp.games.dragon_hoard.rules import DragonHoardRules
    from tests.conftest import CONTENT

    model = load_game(CONTENT, "dragon-hoard").model
    by_number = {entry.seat + 1: tuple(entry.cell) for entry in model.lair.entries}
    for players in model.info.players:
        rules = DragonHoardRules(model, players)
        numbers = model.lair.seating_for(players)
        assert rules.entries == tuple(by_number[n] for n in numbers)
        assert rules.initial_state(random.Random(1)).pawns == rules.entries


def test_resample_redraws_only_what_the_seat_cannot_see() -> None:
    rules = DragonHoardRules(MODEL, 3)
    policy = TreasureHunterPolicy()
    others_changed = ai_changed = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = rules.initial_state(rng)
        while not rules.is_terminal(state):
            if rules.is_chance(state):
                state = rules.apply(state, rules.sample_chance(state, rng))
                continue
            seat = rules.current_player(state)
            assert seat is not None
            world = rules.resample(state, seat, random.Random(seed))
            # What the seat knows stays: its own cards on the mat, its options, what is face up.
            assert [p for p in world.placed if p[0] == seat] == [
                p for p in state.placed if p[0] == seat
            ]
            assert [s for s, _ in world.placed] == [s for s, _ in state.placed]
            assert rules.legal_actions(world) == rules.legal_actions(state)
            assert sorted((*world.deck, world.current, world.upcoming)) == sorted(
                (*state.deck, state.current, state.upcoming)
            )
            if state.revealed or state.stage not in (Stage.DRAW, Stage.PLACEMENT):
                assert world.current == state.current
            if state.peeker == seat:
                assert world.upcoming == state.upcoming
            others_changed += world.placed != state.placed
            ai_changed += world.current != state.current
            state = rules.apply(state, policy.choose(rules, state, rng))
    # The face-down cards of the others and the unrevealed AI card are really redrawn.
    assert others_changed > 10
    assert ai_changed > 10
