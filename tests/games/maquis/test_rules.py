"""Maquis engine: scenario tests citing the rules, and random play with invariants."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pnp.content.loader import load_game
from pnp.engines.base import RandomPolicy, play_game
from pnp.errors import IllegalActionError
from pnp.games.maquis.model import Maquis
from pnp.games.maquis.policies import GreedyPolicy
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.simulation import simulate
from pnp.games.maquis.state import (
    Activate,
    Kill,
    MaquisState,
    PatrolDraw,
    Place,
    Result,
    Return,
    Termination,
)
from tests.conftest import CONTENT


@pytest.fixture(scope="module")
def model() -> Maquis:
    model = load_game(CONTENT, "maquis").model
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


def test_setup_follows_the_level(rules: MaquisRules, model: Maquis) -> None:
    s = rules.initial_state(random.Random(1))
    # Setup: 3 workers home, 2 in the café, morale and soldiers at their start, the day
    # marker beside day 1 (day 0).
    assert (s.home, s.cafe, s.day) == (3, 2, 0)
    assert s.morale == model.morale.start and s.soldiers == model.soldiers.start
    assert len(set(s.missions)) == model.settings.missions_in_play
    # Patrols = max(workers in safe houses, red number): morale 6 shows red 3.
    assert s.patrols == max(3, model.morale.red_at(model.morale.start))
    harder = MaquisRules(model, difficulty="harder").initial_state(random.Random(1))
    assert (harder.home, harder.cafe) == (2, 2)


def test_patrol_takes_the_first_empty_place(rules: MaquisRules) -> None:
    s = rules.initial_state(random.Random(0))
    # patrol-01 checks square, radio, black-market in order; the square is taken by a worker.
    s = replace(s, board=board(rules, square="R"), to_place=0, resistance_next=False)
    after = rules.apply(s, PatrolDraw("patrol-01"))
    assert after.board[rules.index["radio"]] == "P"
    assert after.board[rules.index["square"]] == "R"


def test_patrol_arrests_when_no_place_is_empty(rules: MaquisRules) -> None:
    s = rules.initial_state(random.Random(0))
    s = replace(
        s,
        board=board(rules, square="P", radio="R", black_market="R"),
        home=1,
        to_place=0,
        resistance_next=False,
    )
    after = rules.apply(s, PatrolDraw("patrol-01"))
    # All three occupied: the first resistance worker (radio) is arrested, the patrol stays.
    assert after.board[rules.index["radio"]] == "P"
    assert after.board[rules.index["black-market"]] == "R"


def test_soldiers_are_placed_last(rules: MaquisRules) -> None:
    s = rules.initial_state(random.Random(0))
    s = replace(s, to_place=0, patrols=3, patrols_left=2, round_soldiers=2, resistance_next=False)
    after = rules.apply(s, PatrolDraw("patrol-03"))
    assert after.board[rules.index["bakery"]] == "S"


def act_state(rules: MaquisRules, **figures: str) -> MaquisState:
    s = rules.initial_state(random.Random(0))
    return replace(
        s, phase="act", board=board(rules, **figures), to_place=0, patrols_left=0, home=2
    )


def test_black_market_pays_one_side_of_the_slash(rules: MaquisRules) -> None:
    s = replace(act_state(rules, black_market="R"), stock=(0, 1, 1, 0, 0, 0))
    keys = {a.choice for a in rules.legal_actions(s) if isinstance(a, Activate)}
    assert {"p0g0", "p1g0", "-"} <= keys
    s = rules.apply(s, Activate("black-market", "p1g0"))
    assert s.stock == (0, 1, 0, 0, 0, 0)  # paid the medicine at once
    s = rules.apply(s, Return())
    # Home safe: 1 money and morale −1, no choice.
    assert s.stock[3] == 1


def test_a_blocked_worker_is_arrested_and_loses_the_reward(rules: MaquisRules) -> None:
    # The farm's only ways home run through the tavern and the church.
    s = act_state(rules, farm="R", tavern="P", church="P", square="R")
    s = rules.apply(s, Activate("farm", "g0"))
    assert not rules.has_path_home(s, rules.index["farm"])
    s = rules.apply(s, Return())
    assert s.stock[1] == 0 and s.home == 2  # no food, no worker


def test_the_star_shield_keeps_the_reward(rules: MaquisRules) -> None:
    # The smuggler shows the orange star shield; both its lines are cut by police.
    s = replace(
        act_state(rules, smuggler="R", town_hall="P", vacant_east="P", square="R"),
        stock=(0, 0, 0, 2, 0, 0),
    )
    s = rules.apply(rules.apply(s, Activate("smuggler", "p0g1")), Return())
    assert s.stock[5] == 1  # the explosive is kept although the worker was arrested
    assert s.home == 2


def test_killing_police_opens_the_way_home(rules: MaquisRules, model: Maquis) -> None:
    s = replace(
        act_state(rules, farm="R", tavern="P", church="S", square="R"), stock=(0, 0, 0, 0, 1, 0)
    )
    s = rules.apply(s, Activate("farm", "g0"))
    assert Kill("church") not in rules.legal_actions(s)  # soldiers cannot be killed
    s = rules.apply(s, Kill("tavern"))
    assert s.soldiers == model.soldiers.start + 1
    assert s.morale == model.morale.start - 1
    assert Kill("tavern") not in rules.legal_actions(s)  # once per round
    s = rules.apply(s, Return())
    assert s.home == 3 and s.stock[1] == 2


def test_resources_never_exceed_four(rules: MaquisRules) -> None:
    s = replace(act_state(rules, farm="R", square="R"), stock=(0, 3, 0, 0, 0, 0))
    s = rules.apply(rules.apply(s, Activate("farm", "g0")), Return())
    assert s.stock[1] == 4


def test_mission_boxes_fill_in_order(rules: MaquisRules) -> None:
    s = replace(
        act_state(rules, mission_west="R", square="R"),
        missions=("sabotage", "train"),
        boxes=((False, False, False), (False, False)),
        stock=(0, 0, 0, 0, 1, 1),
    )
    keys = {a.choice for a in rules.legal_actions(s) if isinstance(a, Activate)}
    # Box 2 (blow up the factory) is not open before both 1s; the two 1s are one choice.
    assert "m0.0p0" in keys and not any(k.startswith("m0.2") for k in keys)
    s = rules.apply(rules.apply(s, Activate("mission-west", "m0.0p0")), Return())
    assert s.boxes[0] == (True, False, False)


def test_time_runs_out_and_one_mission_is_a_draw(rules: MaquisRules, model: Maquis) -> None:
    s = replace(
        act_state(rules, square="R"),
        day=model.days.days,
        missions=("sabotage", "train"),
        boxes=((True, True, True), (False, False)),
    )
    s = rules.apply(rules.apply(s, Activate("square", "-")), Return())
    assert s.ended is Termination.TIME and rules.result(s) is Result.DRAW


def test_very_easy_loops_the_day_track(model: Maquis) -> None:
    rules = MaquisRules(model, difficulty="very-easy")
    s = replace(act_state(rules, square="R"), day=model.days.days)
    s = rules.apply(rules.apply(s, Activate("square", "-")), Return())
    # Very easy: at the End space the marker goes back beside day 1 (day 0).
    assert s.ended is None and s.day == 0


def test_an_illegal_action_quotes_the_position(rules: MaquisRules) -> None:
    s = rules.initial_state(random.Random(0))
    with pytest.raises(IllegalActionError, match=r"^illegal action Place\(loc='safe-house'\) in "):
        rules.apply(s, Place("safe-house"))


@pytest.mark.parametrize("level", ["very-easy", "normal", "very-hard"])
def test_random_play_keeps_the_invariants(model: Maquis, level: str) -> None:
    rules = MaquisRules(model, difficulty=level)
    for seed in range(15):
        record = play_game(
            rules, [RandomPolicy()], random.Random(seed), 50_000, invariant=rules.check_invariants
        )
        assert not record.capped
        assert rules.notation(rules.from_notation(rules.notation(record.final_state))) == (
            rules.notation(record.final_state)
        )


def test_the_sensible_policy_wins_normal_games(model: Maquis) -> None:
    report = simulate(model, "normal", games=30, seed=3, policy=GreedyPolicy())
    assert report.rate(Result.WIN) > 0.1
    assert not report.capped_seeds
