"""The sensible MAQUIS player with the choices the post gives (issue 28): where an airdrop
lands, and a weapon bought to shoot a way home."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pnp.content.loader import load_game
from pnp.games.maquis import GAME
from pnp.games.maquis.model import Maquis
from pnp.games.maquis.policies import GreedyPolicy
from pnp.games.maquis.rules import MaquisRules
from pnp.games.maquis.state import Activate, Kill, MaquisState, Return
from pnp.validate.play import make_policy
from tests.conftest import CONTENT


@pytest.fixture(scope="module")
def rules() -> MaquisRules:
    model = load_game(CONTENT, "maquis").model
    assert isinstance(model, Maquis)
    return MaquisRules(model)


def acting(rules: MaquisRules, stock: dict[str, int], **figures: str) -> MaquisState:
    cells = ["."] * len(rules.locs)
    for loc, c in figures.items():
        cells[rules.index[loc.replace("_", "-")]] = c
    s = rules.initial_state(random.Random(0))
    return replace(
        s,
        phase="act",
        board="".join(cells),
        to_place=0,
        patrols_left=0,
        home=2,
        stock=tuple(stock.get(r, 0) for r in rules.res),
    )


def test_an_airdrop_goes_to_the_zone_with_more_ways_home(rules: MaquisRules) -> None:
    # Both zones are empty: the west one lies on two lines (the bakery, the west vacant house),
    # the east one only beside the café, where one patrol cuts it off. Every seed agrees.
    s = replace(acting(rules, {}, radio="R"), morale=rules.model.morale.top)  # no morale wanted
    zones = set()
    for seed in range(20):
        action = GreedyPolicy().choose(rules, s, random.Random(seed))
        assert isinstance(action, Activate) and "@" in action.choice
        zones.add(action.choice.rpartition("@")[2])
    assert zones == {"airdrop-west"}


def test_a_cut_off_worker_buys_a_weapon_and_shoots_his_way_home(rules: MaquisRules) -> None:
    # The smuggler's two lines are held by police; the stock has money but no weapon. The post
    # lets a weapon gained this round kill at once: the sensible player buys the weapon,
    # kills a policeman on the way and walks home with his worker.
    s = acting(rules, {"money": 2}, smuggler="R", town_hall="P", vacant_east="P", square="R")
    assert not rules.has_path_home(s, rules.index["smuggler"])
    policy, rng = GreedyPolicy(), random.Random(0)
    while s.board[rules.index["smuggler"]] == "R":
        s = rules.apply(s, policy.choose(rules, s, rng))
    assert s.pending == "p0g0"  # the weapon, not the explosive
    action = policy.choose(rules, s, rng)
    assert isinstance(action, Kill)
    s = rules.apply(s, action)
    assert rules.has_path_home(s, rules.index["smuggler"])
    home = s.home
    action = policy.choose(rules, s, rng)
    assert isinstance(action, Return)
    assert rules.apply(s, action).home == home + 1


def test_the_strong_player_weighs_the_airdrop_zones_like_any_other_action(
    rules: MaquisRules,
) -> None:
    # The generic search needs nothing of the game beyond its legal actions: the zone is part
    # of the action, so the search plays one of the listed airdrops, each zone named.
    s = replace(acting(rules, {}, radio="R"), morale=rules.model.morale.top)
    listed = [a for a in rules.legal_actions(s) if isinstance(a, Activate) and "@" in a.choice]
    assert {a.choice.rpartition("@")[2] for a in listed} == {"airdrop-west", "airdrop-east"}
    strong = make_policy(GAME, "strong:4")
    action = strong.choose(rules, s, random.Random(1))
    assert action in rules.legal_actions(s)
