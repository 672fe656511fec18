"""Maquis rules straight from the post (issue 13): one scenario per deviation or open reading.

Each test sets up a position, plays it through the engine's ``apply`` and cites the post's rule
(shared/seeds/004_aa3785d486b0e35a.txt) in its own words; where the post is open, the test also
holds that the reading is a written decision in content/maquis/game.yaml.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pnp.content.loader import LoadedGame, load_game
from pnp.games.maquis.model import Maquis
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import (
    Activate,
    Kill,
    MaquisState,
    PatrolDraw,
    Result,
    Return,
    Termination,
)
from tests.conftest import CONTENT


@pytest.fixture(scope="module")
def loaded() -> LoadedGame:
    return load_game(CONTENT, "maquis")


@pytest.fixture(scope="module")
def model(loaded: LoadedGame) -> Maquis:
    model = loaded.model
    assert isinstance(model, Maquis)
    return model


@pytest.fixture(scope="module")
def rules(model: Maquis) -> MaquisRules:
    return MaquisRules(model)


def board(rules: MaquisRules, **figures: str) -> str:
    cells = ["."] * len(rules.locs)
    for loc, c in figures.items():
        cells[rules.index[loc.replace("_", "-")]] = c
    return "".join(cells)


def tiles(rules: MaquisRules, **laid: str) -> tuple[str, ...]:
    """The vacant-house tiles, by vacant-house location id."""
    return tuple(laid.get(rules.locs[i].id.replace("-", "_"), "") for i in rules.vacant)


def act_state(rules: MaquisRules, **figures: str) -> MaquisState:
    s = rules.initial_state(random.Random(0))
    return replace(
        s, phase="act", board=board(rules, **figures), to_place=0, patrols_left=0, home=2
    )


def decision_ids(model: Maquis) -> set[str]:
    return {d.id for d in model.decisions}


def stock(rules: MaquisRules, **held: int) -> tuple[int, ...]:
    return tuple(held.get(r, 0) for r in rules.res)


# -- a weapon gained this round kills at once ---------------------------------------------


def test_a_weapon_gained_this_round_kills_the_police_blocking_the_way_home(
    rules: MaquisRules, model: Maquis
) -> None:
    # The post: a worker who gained a weapon this round may use it straight away to kill a
    # policeman (if no weapon was used this round), between acting and walking home, and so
    # open his own way home.
    # The workshop on the north vacant house makes a weapon for free; every line out of it
    # (tavern, town hall, radio) is held by a patrol, only the tavern's by police.
    s = replace(
        act_state(rules, vacant_north="R", tavern="P", town_hall="P", radio="S", square="R"),
        tiles=tiles(rules, vacant_north="workshop"),
        stock=stock(rules),
    )
    workshop = rules.tiles["workshop"].action
    assert workshop is not None
    weapon = next(j for j, r in enumerate(workshop.gain) if r.resources.get("weapons"))
    s = rules.apply(s, Activate("vacant-north", f"g{weapon}"))
    assert not rules.has_path_home(s, rules.index["vacant-north"])
    # No weapon in stock: the one in the worker's hand pays for the kill.
    assert s.stock[rules.res_index["weapons"]] == 0
    assert Kill("tavern") in rules.legal_actions(s)
    s = rules.apply(s, Kill("tavern"))
    assert s.soldiers == model.soldiers.start + model.settings.kill_soldiers
    assert s.morale == model.morale.start + model.settings.kill_morale
    s = rules.apply(s, Return())
    # Home safe; the weapon was spent on the kill, so none comes home with him.
    assert s.home == 3
    assert s.stock == stock(rules)
    assert "kill-with-the-weapon-in-hand" in decision_ids(model)


def test_a_weapon_still_to_be_earned_cannot_pay_for_a_kill(rules: MaquisRules) -> None:
    # The post allows the weapon gained *this round*: before acting, a worker holds nothing.
    s = replace(
        act_state(rules, vacant_north="R", tavern="P", town_hall="P", radio="S", square="R"),
        tiles=tiles(rules, vacant_north="workshop"),
        stock=stock(rules),
    )
    assert not any(isinstance(a, Kill) for a in rules.legal_actions(s))
    # A worker who does nothing there holds no weapon either.
    s = rules.apply(s, Activate("vacant-north", "-"))
    assert not any(isinstance(a, Kill) for a in rules.legal_actions(s))


def test_the_weapon_in_hand_survives_the_notation(rules: MaquisRules) -> None:
    s = replace(
        act_state(rules, vacant_north="R", tavern="P", town_hall="P", radio="S", square="R"),
        tiles=tiles(rules, vacant_north="workshop"),
        stock=stock(rules),
    )
    s = rules.apply(rules.apply(s, Activate("vacant-north", "g0")), Kill("tavern"))
    again = rules.from_notation(rules.notation(s))
    assert again == s
    assert rules.apply(again, Return()).stock == stock(rules)


# -- the second safe house on a patrol card -------------------------------------------------


def test_a_patrol_card_naming_the_second_safe_house_skips_it(
    rules: MaquisRules, model: Maquis, loaded: LoadedGame
) -> None:
    # The post: the second safe house plays exactly like the safe house at the bottom of the
    # board, and no patrol ever stands in a safe house. Patrol cards name vacant houses, so a
    # card may name the one that became the second safe house: that entry is skipped (it is
    # neither empty nor a worker's space), the card goes on to its next space.
    # patrol-09 checks the pharmacy, the east vacant house, then the post office.
    card = rules.cards[rules.card_index["patrol-09"]]
    assert card.locations == ("pharmacy", "vacant-east", "post-office")
    s = rules.initial_state(random.Random(0))
    s = replace(
        s,
        # A worker elsewhere keeps the round going, so the board can be read after the draw.
        board=board(rules, pharmacy="P", square="R"),
        tiles=tiles(rules, vacant_east="hideout"),
        to_place=0,
        patrols_left=1,
        patrols=2,
        round_soldiers=0,  # police, whatever the soldier track starts on
        resistance_next=False,
    )
    placed = rules.apply(s, PatrolDraw("patrol-09"))
    assert placed.board[rules.index["vacant-east"]] == "."
    assert placed.board[rules.index["post-office"]] == "P"
    # With workers on the other two spaces, the patrol arrests the first worker it names.
    s = replace(s, board=board(rules, pharmacy="R", post_office="R"), home=1)
    arrest = rules.apply(s, PatrolDraw("patrol-09"))
    assert arrest.board[rules.index["pharmacy"]] == "P"
    assert arrest.board[rules.index["vacant-east"]] == "."
    assert arrest.board[rules.index["post-office"]] == "R"
    # The reading is written down, and the glossary no longer claims cards never name it.
    assert "patrols-skip-the-second-safe-house" in decision_ids(model)
    rulebook = loaded.model.rulebook
    assert rulebook is not None
    for entry in rulebook.glossary:
        assert "从不指向" not in entry.meaning, entry.term


# -- the last day on the harder levels ------------------------------------------------------


@pytest.mark.parametrize("level", ["harder", "hard", "very-hard"])
def test_the_last_day_of_a_harder_level_still_costs_its_morale(model: Maquis, level: str) -> None:
    # The post: 「当回合指示物到第12天时游戏结束」 on the harder levels, and in every upkeep
    # 「如果回合指示物前进到一个橙色背景格，那士气轨迹条就要降低1」. Day 12 is a day space like
    # any other: entering it costs the morale its mark costs at this level (orange on 较难,
    # star on 困难 and 非常难), then the game ends. Morale 1 on day 11 of 较难 loses.
    rules = MaquisRules(model, difficulty=level)
    end_day = rules.level.end_day
    assert end_day
    drops = end_day in getattr(model.days, rules.level.morale_drop.value)
    s = replace(
        act_state(rules, square="R"),
        day=end_day - 1,
        morale=1,
        missions=("sabotage", "train"),
        boxes=((True, True, True), (False, False)),
    )
    s = rules.apply(rules.apply(s, Activate("square", "-")), Return())
    assert s.day == end_day and s.ended is not None
    assert s.morale == 1 - drops and s.failed is drops
    assert rules.result(s) is (Result.LOSS if drops else Result.DRAW)
    if level == "harder":
        assert drops and s.ended is Termination.MORALE


# -- the day marker starts beside day 1 -----------------------------------------------------


def test_the_day_marker_starts_beside_day_one(rules: MaquisRules, model: Maquis) -> None:
    # The post's setup puts the day marker beside day 1, not on it; each upkeep moves it one
    # space, so the first upkeep puts it on day 1 and the game lasts one round per day plus
    # the round before day 1, until the marker reaches the End space.
    s = rules.initial_state(random.Random(0))
    assert s.day == 0
    upkeeps = 0
    # Morale kept at the top, so the orange days never end the game early.
    top = model.morale.top
    s = replace(act_state(rules, square="R"), day=0, morale=top)
    while s.ended is None:
        s = rules.apply(rules.apply(s, Activate("square", "-")), Return())
        upkeeps += 1
        assert s.ended is not None or s.day == upkeeps
        s = replace(
            s,
            phase="act",
            board=board(rules, square="R"),
            to_place=0,
            patrols_left=0,
            home=1,
            morale=top,
        )
    assert upkeeps == model.days.days + 1 and s.ended is Termination.TIME


def test_the_very_easy_loop_returns_beside_day_one(model: Maquis) -> None:
    # The post (very easy): at the End space the marker goes back beside day 1 and play goes on,
    # exactly as at the start: a lap is as long as the first pass over the track.
    rules = MaquisRules(model, difficulty="very-easy")
    s = replace(act_state(rules, square="R"), day=model.days.days)
    s = rules.apply(rules.apply(s, Activate("square", "-")), Return())
    assert s.ended is None and s.day == rules.initial_state(random.Random(0)).day == 0


# -- every effect kind and glossary term, one scenario each ---------------------------------


def end_action(rules: MaquisRules, s: MaquisState, loc: str, choice: str) -> MaquisState:
    return rules.apply(rules.apply(s, Activate(loc, choice)), Return())


def test_the_church_raises_morale(rules: MaquisRules, model: Maquis) -> None:
    # The post: pay the left side, take the right side; here a food for morale +1.
    s = replace(act_state(rules, church="R", square="R"), stock=stock(rules, food=1))
    s = end_action(rules, s, "church", "p0g0")
    assert s.morale == model.morale.start + 1 and s.stock == stock(rules)


def test_the_cafe_recruits_a_waiting_worker(rules: MaquisRules) -> None:
    # The post: the two workers in the café may be recruited during the game.
    s = act_state(rules, cafe="R", square="R")
    cafe, home = s.cafe, s.home
    s = end_action(rules, s, "cafe", "g0")
    assert s.cafe == cafe - 1 and s.home == home + 1 + 1  # the recruit and the worker


def test_an_airdrop_lands_on_an_empty_zone_and_is_collected_next_round(
    rules: MaquisRules,
) -> None:
    # The post: the radio's second choice drops goods on an airdrop zone with none on it;
    # they cannot be taken in the round they land, and no worker goes to an empty zone.
    s = act_state(rules, radio="R")
    drop = next(k for k, b in enumerate(rules.level.airdrop) if b.get("weapons"))
    s = end_action(rules, s, "radio", f"g1d{drop}@airdrop-west")
    west, east = rules.zones
    assert s.phase == "place" and s.drops[0] == stock(rules, **rules.level.airdrop[drop])
    assert west in rules.placeable(s) and east not in rules.placeable(s)
    # Next round: a worker on the zone collects it for free.
    s = replace(act_state(rules, airdrop_west="R"), drops=s.drops)
    s = end_action(rules, s, "airdrop-west", "c")
    assert s.stock == stock(rules, **rules.level.airdrop[drop]) and not any(s.drops[0])


def test_a_vacant_house_takes_a_tile_usable_from_the_next_round(rules: MaquisRules) -> None:
    # The post: pay 2 money on a vacant house to lay a tile on it; its action is for later.
    s = replace(act_state(rules, vacant_west="R", square="R"), stock=stock(rules, money=2))
    s = end_action(rules, s, "vacant-west", "b=print-shop")
    assert s.tiles == tiles(rules, vacant_west="print-shop") and s.stock == stock(rules)
    s = replace(act_state(rules, vacant_west="R"), tiles=s.tiles, stock=stock(rules, money=1))
    keys = {a.choice for a in rules.legal_actions(s) if isinstance(a, Activate)}
    assert {"g0"} <= keys  # the print shop's one reward, free, now that the tile is down


def test_the_second_safe_house_takes_workers_home(rules: MaquisRules) -> None:
    # The post: the second safe house works exactly like the safe house at the bottom: a
    # worker with no way to the first may walk home to it; nobody is placed on it.
    blocked = dict(pharmacy="R", radio="P", post_office="P", smuggler="P", square="R")
    s = act_state(rules, **blocked)
    assert not rules.has_path_home(s, rules.index["pharmacy"])
    s = replace(s, tiles=tiles(rules, vacant_east="hideout"))
    assert rules.has_path_home(s, rules.index["pharmacy"])
    home = s.home
    s = rules.apply(rules.apply(s, Activate("pharmacy", "-")), Return())
    assert s.home == home + 1
    assert rules.index["vacant-east"] not in rules.placeable(s)


@pytest.mark.parametrize(("level", "drops_on"), [("normal", "orange"), ("hard", "star")])
def test_entering_a_marked_day_costs_morale(model: Maquis, level: str, drops_on: str) -> None:
    # The post: entering an orange day costs a morale; the hard levels use the star days
    # instead of the orange ones.
    rules = MaquisRules(model, difficulty=level)
    marked = set(getattr(model.days, drops_on))
    other = set(model.days.orange if drops_on == "star" else model.days.star)
    day = min(marked - other)
    quiet = min(other - marked)  # marked only the other way: no morale at this level
    s = replace(act_state(rules, square="R"), day=day - 1)
    assert end_action(rules, s, "square", "-").morale == model.morale.start - 1
    s = replace(act_state(rules, square="R"), day=quiet - 1)
    assert end_action(rules, s, "square", "-").morale == model.morale.start


# -- killing police: no limit in the post ----------------------------------------------------


def test_police_may_be_killed_with_the_soldier_track_full(
    rules: MaquisRules, model: Maquis
) -> None:
    # The post: 「如果你弃除1个武器资源，你可以——在任意时候，但每回合一次——在游戏版图上移除一个
    # 警察工人」 and 「任何时候你这么做，士兵轨迹条将会移动1格」: no limit on kills. Once the
    # track is at its last space the marker stays there (decision kill-when).
    full = model.soldiers.spaces
    s = replace(
        act_state(rules, farm="R", tavern="P", church="P", square="R"),
        soldiers=full,
        stock=stock(rules, weapons=1),
    )
    s = rules.apply(s, Activate("farm", "g0"))
    assert Kill("tavern") in rules.legal_actions(s)
    s = rules.apply(s, Kill("tavern"))
    assert s.soldiers == full and s.morale == model.morale.start + model.settings.kill_morale
    s = rules.apply(s, Return())
    assert s.home == 3  # the kill opened the way home


# -- the soldier track starts empty ----------------------------------------------------------


def test_the_first_patrols_are_all_police(rules: MaquisRules, model: Maquis) -> None:
    # The post: the soldier marker starts at the beginning of its track, and 「通常来说，所有的
    # 巡逻者工人都是警察，如果有士兵出现（按照士兵轨迹条），他们将代替1比1替代警察工人」:
    # soldiers only appear once kills move the track (decision soldiers-start-empty).
    s = rules.initial_state(random.Random(0))
    assert s.soldiers == model.soldiers.start == 0 and s.round_soldiers == 0
    while s.phase == "place":
        actions = rules.legal_actions(s)
        s = rules.apply(s, actions[0])
    assert "S" not in s.board and "P" in s.board


# -- the airdrop zone is the player's choice -------------------------------------------------


def test_the_player_chooses_between_two_empty_airdrop_zones(rules: MaquisRules) -> None:
    # The post: 「你只能把空投的资源放在当前没有放资源的空投点」 — any zone with nothing on it,
    # the player's choice (decision airdrop-zone); a zone with goods on it is not offered.
    s = act_state(rules, radio="R")
    drops = {
        a.choice for a in rules.legal_actions(s) if isinstance(a, Activate) and "d" in a.choice
    }
    west, east = (rules.locs[i].id for i in rules.zones)
    assert {c.rpartition("@")[2] for c in drops} == {west, east}
    weapons = next(k for k, b in enumerate(rules.level.airdrop) if b.get("weapons"))
    s = end_action(rules, s, "radio", f"g1d{weapons}@{east}")
    assert not any(s.drops[0]) and s.drops[1] == stock(rules, **rules.level.airdrop[weapons])
    s = replace(act_state(rules, radio="R"), drops=s.drops)
    drops = {
        a.choice for a in rules.legal_actions(s) if isinstance(a, Activate) and "d" in a.choice
    }
    assert drops and {c.rpartition("@")[2] for c in drops} == {west}
    assert rules.parse_action(f"act:radio:g1d{weapons}@{west}") in rules.legal_actions(s)


def test_a_pending_airdrop_reads_back_from_its_notation(rules: MaquisRules) -> None:
    # The chosen zone is part of the position while the worker walks home: the notation keeps
    # it, and the worker's walk home lands the goods where the text says.
    s = rules.apply(act_state(rules, radio="R"), Activate("radio", "g1d0@airdrop-east"))
    text = rules.notation(s)
    again = rules.from_notation(text)
    assert again == s and "g1d0@airdrop-east" in text
    assert rules.apply(again, Return()).drops == rules.apply(s, Return()).drops
