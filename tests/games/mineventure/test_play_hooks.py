"""MineVenture's hooks for the shared play checks: tables, character factors, coverage items
(each named and located, exercised exactly), the passive policy, the evaluation hint, and
policies that break ties at random from the injected generator."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pnp.content.loader import load_game
from pnp.engines.base import RandomPolicy, play_game
from pnp.games.mineventure import GAME
from pnp.games.mineventure.model import Mineventure
from pnp.games.mineventure.play import (
    STANDING_HALF_LIFE_DAYS,
    coverage_items,
    covered,
    evaluate,
    play_tables,
    seat_factors,
)
from pnp.games.mineventure.policies import PassivePolicy, SensiblePolicy, hurts_dragon
from pnp.games.mineventure.rules import MineventureRules
from pnp.games.mineventure.state import TURN_CAP, Act, MineventureState, Mode
from pnp.paths import REPOSITORY
from pnp.validate.checks import Findings
from pnp.validate.play import check_play, make_policy, play_seed
from tests.validate.seeding import Seeding

from .test_rules import bare

MODEL: Mineventure = load_game(REPOSITORY / "content", "mineventure").model
SEEDING = Seeding("mineventure")


@pytest.fixture(scope="module")
def rules() -> MineventureRules:
    return MineventureRules(MODEL, 3, Mode.MAP_24)


def test_every_map_and_player_count_is_a_table() -> None:
    tables = play_tables(MODEL)
    assert [table.name for table in tables] == [
        "3p-map-24",
        "4p-map-24",
        "4p-map-32",
        "5p-map-32",
        "6p-map-32",
    ]
    # No table plays the optional last day (decision final-day): the cap is the round cap.
    assert all(not table.rules.last_day and table.max_turns == TURN_CAP for table in tables)


@pytest.mark.parametrize("policy", [PassivePolicy, RandomPolicy], ids=["passive", "random"])
def test_games_end_without_a_last_day_far_below_the_cap(policy: type) -> None:
    # The post has no last day. Hand cards never return to their deck, so the food runs out
    # and story damage wears the overworld down: even players who never attack, or who play
    # at random, finish their games long before the round cap.
    for table in play_tables(MODEL)[:2]:
        rules = table.rules
        for seed in range(12):
            players = [policy() for _ in range(rules.num_players)]
            record = play_game(rules, players, random.Random(seed), 10**7, max_turns=TURN_CAP)
            assert record.outcome is not None and record.turns < TURN_CAP // 2


def test_seats_are_labelled_by_the_character_dealt_to_them(rules: MineventureRules) -> None:
    state = rules.initial_state(random.Random(3))
    labels = list(seat_factors(rules, state)["character"])
    assert labels == [MODEL.characters[p.character].id for p in state.players]
    assert len(set(labels)) == 3


def test_coverage_names_every_card_effect_buff_character_terrain_action_and_rule() -> None:
    items = coverage_items(MODEL)
    for card in (*MODEL.equipment, *MODEL.partners, *MODEL.events, *MODEL.items, *MODEL.food):
        assert items[f"card:{card.id}"] == card.where
    for buff in MODEL.buffs:
        assert items[f"buff:{buff.id}"] == buff.where
    for character in MODEL.characters:
        assert items[f"character:{character.id}"] == character.where
    for terrain in MODEL.terrains:
        assert items[f"terrain:{terrain.id}"] == terrain.where
    kinds = {e.kind.value for e in (p.effect for p in MODEL.partners)}
    kinds |= {i.effect.kind.value for i in MODEL.items} | {b.effect.kind.value for b in MODEL.buffs}
    assert {f"effect:{kind}" for kind in kinds} <= set(items)
    for action in ("skip", "roll", "move", "keep", "play", "fight", "strike", "use", "flee"):
        assert f"action:{action}" in items
    assert {"rule:ambush", "rule:flee-success", "rule:kill-reward", "rule:dragon-fight"} <= set(
        items
    )
    # Every item is located in a content file, at a line.
    assert all(where.path.endswith(".yaml") and where.line for where in items.values())


def test_a_step_reports_what_it_exercised(rules: MineventureRules) -> None:
    # Eating bread in the decision phase plays the bread card.
    state = bare(rules, p0={"hand": ["bread"], "hp": 10})
    state.phase = "decision"
    action = Act("play", "bread")
    after = rules.apply(state, action)
    assert set(covered(rules, state, action, after)) == {"action:play", "card:bread"}
    # A potion of strength plays the card, and the buff arrives in a slot.
    state = bare(rules, p0={"hand": ["potion-strength"]})
    state.phase = "decision"
    action = Act("play", "potion-strength")
    after = rules.apply(state, action)
    assert {"card:potion-strength", "effect:buff", "buff:strength", "effect:strength"} <= set(
        covered(rules, state, action, after)
    )


def test_spawning_covers_the_character_and_the_cell() -> None:
    rules = MineventureRules(MODEL, 3, Mode.MAP_24)
    state = rules.initial_state(random.Random(1))
    action = rules.legal_actions(state)[0]
    after = rules.apply(state, action)
    p = after.players[0]
    character = MODEL.characters[p.character]
    assert set(covered(rules, state, action, after)) == {
        f"character:{character.id}",
        f"effect:{character.ability.kind.value}",
        f"terrain:{rules.terrain[(p.x, p.y)].id}",
    }


def test_an_unplayable_card_is_reported_as_never_exercised_where_it_is_defined(
    content_copy: Path,
) -> None:
    # An item bound to a map icon that no terrain of any map prints: drawn, never playable.
    SEEDING.edit(
        content_copy,
        "map.yaml",
        "  - {id: ruin,",
        '  - {id: nether, name: 下界, symbol: "▣"}\n  - {id: ruin,',
    )
    SEEDING.edit(
        content_copy,
        "cards.yaml",
        "  - {id: brush,",
        "  - {id: flint-and-steel, name: 打火石, kind: consumable, copies: 3, icon: nether, "
        "effect: {kind: draw, deck: event, count: 1}}\n  - {id: brush,",
    )
    game = load_game(content_copy, "mineventure")
    findings = Findings(game)
    check_play(findings, GAME, game.model, games=4, seed=1, workers=1)
    problems = [p for p in findings.problems if "card:flint-and-steel" in p.message]
    assert len(problems) == 1
    problem = problems[0]
    assert problem.severity == "error"
    assert problem.message == (
        "never exercised in simulated play: card:flint-and-steel (no game played it)"
    )
    assert problem.location.path.endswith("mineventure/cards.yaml")
    assert problem.location.line == SEEDING.line_of(content_copy, "cards.yaml", "flint-and-steel")


def test_liveness_covers_the_passive_policy_and_it_ends() -> None:
    assert "passive" in GAME.policies
    for table in play_tables(MODEL)[:2]:
        played = play_seed(GAME, table, ["passive"] * table.rules.num_players, 7)
        assert not played.capped


def test_the_passive_policy_never_declares_a_battle_or_throws_anything(
    rules: MineventureRules,
) -> None:
    # Seat 0 armed and healthy, seat 1 next to it and nearly dead, TNT in hand.
    state = bare(rules, p0={"main": "diamond-sword", "hand": ["tnt"]}, p1={"hp": 1})
    p0, p1 = state.players[0], state.players[1]
    p1.x, p1.y = p0.x + 1, p0.y
    state.phase = "decision"
    assert {"fight", "play"} <= {a.kind for a in rules.legal_actions(state)}
    picks = {str(PassivePolicy().choose(rules, state, random.Random(seed))) for seed in range(20)}
    assert picks == {"end"}
    # The sensible player takes the kill.
    assert SensiblePolicy().choose(rules, state, random.Random(1)).kind in ("fight", "play")


def test_the_sensible_player_does_not_fight_a_dragon_it_cannot_hurt(
    rules: MineventureRules,
) -> None:
    # Next to the dragon, a story in play, full HP. Bare fists (1) do not get through its
    # scales (defence 2): a fight would only cost HP. A sword, or a TNT in hand, does hurt.
    state = bare(rules)
    me = state.players[0]
    me.x, me.y = rules.dragon_at[0] + 1, rules.dragon_at[1]
    state.phase, state.story = "decision", rules.story_cards[0]
    assert "fight:dragon" in {str(a) for a in rules.legal_actions(state)}
    assert not hurts_dragon(rules, state, 0)
    picks = {str(SensiblePolicy().choose(rules, state, random.Random(seed))) for seed in range(20)}
    assert "fight:dragon" not in picks
    for armed in ({"main": "diamond-sword"}, {"hand": ["tnt"]}):
        state = bare(rules, p0=armed)
        state.players[0].x, state.players[0].y = me.x, me.y
        state.phase, state.story = "decision", rules.story_cards[0]
        assert hurts_dragon(rules, state, 0), armed


def test_the_evaluation_hint_gives_the_dead_nothing_and_sums_to_one(
    rules: MineventureRules,
) -> None:
    state = bare(rules, p0={"main": "diamond-sword"})
    state.players[2].alive, state.players[2].hp = False, 0
    scores = evaluate(rules, state)
    assert scores[2] == 0
    assert scores[0] > scores[1]
    assert abs(sum(scores) - 1) < 1e-9


def test_the_dragons_pot_goes_only_to_those_who_hit_it(rules: MineventureRules) -> None:
    # Half the dragon's HP gone: that half of the win is for those who hit it, and while
    # nobody has it is nobody's.
    state = bare(rules)
    state.dragon_hp = MODEL.dragon.hp // 2
    untouched = evaluate(rules, state)
    assert sum(untouched) == pytest.approx(0.5)
    state.players[0].hit_dragon = True
    hit = evaluate(rules, state)
    assert hit[0] == pytest.approx(untouched[0] + 0.5)  # full HP: the whole pot
    assert hit[1:] == untouched[1:]
    state.players[1].hit_dragon = True
    assert evaluate(rules, state)[:2] == pytest.approx([untouched[0] + 0.25, untouched[1] + 0.25])


def test_a_story_in_play_for_weeks_leaves_nothing_to_win_by_hiding(
    rules: MineventureRules,
) -> None:
    state = bare(rules)
    state.story = rules.story_cards[0]
    state.day = rules.settings.story_day
    assert sum(evaluate(rules, state)) == pytest.approx(1)
    state.day += int(10 * STANDING_HALF_LIFE_DAYS)
    assert sum(evaluate(rules, state)) < 0.001


STALLED_IN_THE_END = (
    "mv action 0 300 150d 40 eye-of-ender 0 12 18,18;20;kai;stone-sword*5+sharpness;"
    "fire-charge*2;diamond-chestplate;cleric;-,-,-;tnt,splash-poison;-/10,15;-1;steve;-;-;-;-;"
    "-,-,-;-;D/13,18;20;alex;bow*5+power;-;chainmail;cat;-,-,-;sharpness,unbreaking,cleaving,"
    "splash-poison;-/12,14;20;noor;netherite-sword*10;iron-dagger*4;netherite-chestplate;cat;"
    "-,-,-;tnt,diamond-pickaxe,punch,impaling;-/23,24;0;makena;-;-;-;-;-,-,-;-;D piles="
    "equipment:wooden-sword,shield,bow,iron-dagger,wooden-sword,bow,leather-tunic,shield,"
    "iron-chestplate,wooden-sword,fire-charge,chainmail,stone-axe,shield|-/partner:wolf,horse,"
    "llama|-/event:creeper,buried-chest,creeper,ancient-city,thunderstorm,stronghold,shipwreck,"
    "witch-hut,village-feast,shipwreck,buried-chest*2,ancient-city,eye-of-ender|-/item:-|"
    "iron-ingot*2,milk-bucket*2,fishing-rod*2,diamond-pickaxe,brush,power,quick-charge,"
    "potion-strength*2,potion-resistance,potion-regeneration*2,potion-swiftness*2,"
    "potion-glowing,splash-weakness*2,splash-slowness/food:-|apple*4,bread*4,steak*3,cookie*2,"
    "golden-apple,rotten-flesh*3,pufferfish/legendary:-|enchanted-golden-apple"
)
"""Where a balance run's strong players stood at the turn cap (5 players, the 32x32 map,
day 150): the three left alive in the End, just out of the dragon's breath, each skipping its
move every turn for a hundred days; nobody had touched the dragon."""


def test_strong_players_hiding_from_the_dragon_go_after_it() -> None:
    table = next(table for table in play_tables(MODEL) if table.name == "5p-map-32")
    rules = table.rules
    assert isinstance(rules, MineventureRules)
    stalled = rules.from_notation(STALLED_IN_THE_END)
    strong = make_policy(GAME, "strong")
    record = play_game(
        rules,
        [strong] * rules.num_players,
        random.Random(1),
        table.max_steps,
        max_turns=rules.turns(stalled) + 6,
        state=stalled,
        record_actions=True,
    )
    assert "roll" in {str(action) for action in record.actions}
    assert record.final_state.dragon_hp < MODEL.dragon.hp


LOOTING_AFTER_A_TNT_KILL = (
    "mv loot 0 21 10n 40 eye-of-ender 5 6 9,9;10;kai;crossbow*3;-;-;wolf;-,-,-;diamond-pickaxe,"
    "punch,cleaving,potion-glowing,splash-poison;KL/9,9;-2;noor;-;iron-dagger*3;-;-;-,-,-;-;D/"
    "24,3;11;makena;bow*5;-;leather-tunic;-;-,-,-;splash-weakness;-/23,30;14;alex;"
    "iron-sword*6;-;-;-;-,-,-;power*2,impaling;- piles=equipment:chainmail,leather-tunic,"
    "shield|-/partner:cat*2,cleric|-/event:village-feast,buried-chest,ancient-city,buried-chest"
    "|-/item:-|tnt,iron-ingot,milk-bucket,brush,potion-strength,potion-swiftness/food:-|apple*2,"
    "bread*4,steak*3,cookie,golden-apple,rotten-flesh*3,pufferfish/legendary:netherite-sword|- "
    "resume=combat-end combat=0.1.1.p.-2.use:tnt@foe;strike:sub loot=0.1"
)
"""Seat 0 killed seat 1 with its TNT and is choosing its loot: the combat's last round still
lists the TNT declared, though the card has left seat 0's hand."""


def test_a_card_played_in_a_finished_round_is_not_looked_for_in_the_hand() -> None:
    # A strong balance run stopped here with an internal error: dealing the hidden hands
    # again kept the declared TNT "where it was", in a hand it had left.
    table = next(table for table in play_tables(MODEL) if table.name == "4p-map-32")
    rules = table.rules
    assert isinstance(rules, MineventureRules)
    looting = rules.from_notation(LOOTING_AFTER_A_TNT_KILL)
    for seat in range(rules.num_players):
        dealt = rules.resample(looting, seat, random.Random(seat))
        assert dealt.players[seat].hand == looting.players[seat].hand
        assert [len(p.hand) for p in dealt.players] == [len(p.hand) for p in looting.players]


# -- ties at random ---------------------------------------------------------------------------


def test_the_sensible_battle_between_equal_foes_is_chosen_at_random(
    rules: MineventureRules,
) -> None:
    # Seats 1 and 2 stand at the same distance from seat 0, equally hurt: either may be attacked.
    state = bare(rules, p0={"main": "iron-sword"}, p1={"hp": 8}, p2={"hp": 8})
    p0, p1, p2 = state.players
    p1.x, p1.y = p0.x + 1, p0.y
    p2.x, p2.y = p0.x, p0.y + 1
    state.phase = "decision"
    picks = {str(SensiblePolicy().choose(rules, state, random.Random(seed))) for seed in range(40)}
    assert picks == {"fight:1", "fight:2"}


def test_the_sensible_discard_among_equal_cards_is_chosen_at_random(
    rules: MineventureRules,
) -> None:
    # Five cards over the hand limit; cookie and pufferfish heal the same and are the least
    # worth keeping: which one goes must not follow the order of the list.
    hand = ["cookie", "pufferfish", "bread", "steak", "steak"]
    heal = {food.id: food.heal for food in MODEL.food}
    assert heal["cookie"] == heal["pufferfish"]
    state = bare(rules, p0={"hand": hand})
    state.phase = "end"
    picks = {str(SensiblePolicy().choose(rules, state, random.Random(seed))) for seed in range(40)}
    assert picks == {"discard:cookie", "discard:pufferfish"}


def test_the_sensible_move_among_equal_cells_is_chosen_at_random(rules: MineventureRules) -> None:
    state = bare(rules)
    state.phase, state.roll = "move", 3
    picks = {str(SensiblePolicy().choose(rules, state, random.Random(seed))) for seed in range(40)}
    assert len(picks) > 1


def test_the_search_player_sees_only_its_own_hand(rules: MineventureRules) -> None:
    # Other hands are dealt again from the unseen cards of the same decks; nothing else moves.
    state = bare(
        rules,
        p0={"hand": ["tnt", "apple"]},
        p1={"hand": ["milk-bucket", "bread", "steak"]},
        p2={"hand": ["potion-strength"]},
    )
    rng = random.Random(5)
    seen = set()
    for _ in range(30):
        other = rules.resample(state, 0, rng)
        assert other.players[0].hand == state.players[0].hand
        for seat in (1, 2):
            before, after = state.players[seat].hand, other.players[seat].hand
            assert sorted(rules.card_deck[c] for c in after) == sorted(
                rules.card_deck[c] for c in before
            )

        # No card created or lost: the unseen cards only changed places.
        def unseen(position: MineventureState) -> list[int]:
            cards = [c for p in position.players[1:] for c in p.hand]
            return sorted(cards + [c for pile, _, _ in position.piles for c in pile])

        assert unseen(other) == unseen(state)
        seen.add(other.players[1].hand)
    assert len(seen) > 1
    assert state.players[1].hand == tuple(
        sorted(rules.by_token[c] for c in ("milk-bucket", "bread", "steak"))
    )


def test_a_card_declared_in_combat_is_not_dealt_away(rules: MineventureRules) -> None:
    # Seat 0 attacks and declares a potion of strength; declarations are read out, so when
    # seat 1 searches its answer, the potion stays in seat 0's hand in every determinisation.
    hand = ["potion-strength", "apple", "bread"]
    state = bare(rules, p0={"main": "iron-sword", "hand": hand}, p1={"main": "iron-sword"})
    p0, p1 = state.players[0], state.players[1]
    p1.x, p1.y = p0.x + 1, p0.y
    state.phase = "decision"
    state = rules.apply(state, Act("fight", "1"))
    state = rules.apply(state, Act("use", "potion-strength"))
    assert state.combat is not None and state.combat.declared == ("use:potion-strength",)
    rng = random.Random(2)
    potion = rules.by_token["potion-strength"]
    for _ in range(20):
        seen_by_1 = rules.resample(state, 1, rng)
        assert potion in seen_by_1.players[0].hand
        rules.apply(seen_by_1, Act("strike", "main"))  # the exchange resolves
