"""The play checks over toy games whose answers are known: a game that ends, one with an
endless position, coverage that misses an item, and balance figures on both sides of a promise."""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from pnp.content.loader import LoadedGame
from pnp.engines.base import Declaration, Outcome, RandomPolicy, Table
from pnp.engines.record import read_record
from pnp.engines.search import HalvingSearchPolicy, SearchPolicy
from pnp.errors import IllegalActionError, Location, PnpError
from pnp.model.common import Balance, Band, Ladder, Spread
from pnp.registry import Game, SearchSettings
from pnp.validate.checks import Findings
from pnp.validate.play import (
    Played,
    check_balance,
    check_play,
    find_ending,
    head_to_head,
    make_policy,
    play_many,
    search_request,
)
from tests.engines.test_search import NimRules


class End(enum.Enum):
    HOME = "home"


@dataclass(frozen=True)
class Walk:
    position: int
    stuck: bool


class TrapRules:
    """One walker on 0..3 who wins at 3. Stepping onto 2 from 1 with 'slip' traps him: a
    trapped walker can only wait, forever — a reachable endless position."""

    num_players = 1

    def initial_state(self, rng: random.Random) -> Walk:
        return Walk(0, False)

    def current_player(self, state: Walk) -> int | None:
        return None if self.is_terminal(state) else 0

    def is_chance(self, state: Walk) -> bool:
        return False

    def legal_actions(self, state: Walk) -> list[str]:
        if self.is_terminal(state):
            return []
        if state.stuck:
            return ["wait"]
        return ["step", "back", "slip"] if state.position == 1 else ["step", "back"]

    def chance_outcomes(self, state: Walk) -> list[tuple[str, float]]:
        return []

    def sample_chance(self, state: Walk, rng: random.Random) -> str:
        raise ValueError("no chance")

    def apply(self, state: Walk, action: str) -> Walk:
        if action not in self.legal_actions(state):
            raise IllegalActionError(f"illegal action {action!r} in {self.notation(state)}")
        if action == "wait":
            return state
        if action == "slip":
            return Walk(2, True)
        return Walk(max(0, state.position + (1 if action == "step" else -1)), False)

    def is_terminal(self, state: Walk) -> bool:
        return state.position == 3

    def outcome(self, state: Walk) -> Outcome:
        return Outcome(frozenset({0}), End.HOME)

    def turns(self, state: Walk) -> int:
        return 0

    def notation(self, state: Walk) -> str:
        return f"{state.position}{'!' if state.stuck else ''}"

    def from_notation(self, text: str) -> Walk:
        return Walk(int(text.rstrip("!")), text.endswith("!"))

    def parse_action(self, text: str) -> str:
        return text

    def declares(self) -> Declaration:
        return Declaration("trap", frozenset(), frozenset(), frozenset())


class Slipper:
    """Always slips when it can, else steps."""

    def choose(self, rules: TrapRules, state: Walk, rng: random.Random) -> str:
        actions = rules.legal_actions(state)
        return "slip" if "slip" in actions else actions[0]


def trap_game(**hooks: object) -> Game:
    return Game(
        slug="trap",
        model=object,
        rules=TrapRules,
        policies={"sensible": Slipper},
        play_tables=lambda model: [Table("walk", TrapRules(), max_steps=50)],
        search=SearchSettings(iterations=20),
        **hooks,  # type: ignore[arg-type]
    )


def nim_game() -> Game:
    return Game(
        slug="nim",
        model=object,
        rules=NimRules,
        policies={"sensible": RandomPolicy},
        play_tables=lambda model: [Table("nim-10", NimRules(10), max_steps=50)],
        search=SearchSettings(iterations=200),
    )


@pytest.fixture(autouse=True)
def output_in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A capped game's record goes to the output folder: here, the test's own."""
    (tmp_path / "content").mkdir(exist_ok=True)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def findings(tmp_path: Path) -> Findings:
    return Findings(
        LoadedGame("toy", object(), tmp_path, "content/toy", ("content/toy/game.yaml",))
    )


def test_a_position_with_a_way_out_is_not_endless() -> None:
    ending = find_ending(TrapRules(), Walk(1, False), random.Random(1))
    assert ending.verdict == "ends"


def test_a_trapped_position_is_proved_endless() -> None:
    ending = find_ending(TrapRules(), Walk(2, True), random.Random(1))
    assert ending.verdict == "endless"
    assert "1 reachable positions" in ending.detail


def test_a_capped_game_is_an_error_with_its_seed_and_position(findings: Findings) -> None:
    check_play(findings, trap_game(), object(), games=4, seed=3, workers=1)
    errors = [p.message for p in findings.problems if p.severity == "error"]
    sensible = [m for m in errors if "policy sensible" in m]
    assert len(sensible) == 1, errors
    assert sensible[0].startswith("endless position: table 'walk', policy sensible: 4 of 4")
    assert "stopped at '2!'" in sensible[0] and "seed " in sensible[0]
    assert all(m.startswith("endless position") for m in errors)


def test_a_capped_game_is_recorded_for_pnp_play_to_replay(findings: Findings) -> None:
    check_play(findings, trap_game(), object(), games=4, seed=3, workers=1)
    message = next(p.message for p in findings.problems if "policy sensible" in p.message)
    shown = message.rpartition("watch it: pnp play trap --replay ")[2]
    assert shown.startswith("output/trap/records/walk-sensible-seed")
    record = read_record(Path(shown))
    assert (record.game, record.table, record.seats) == ("trap", "walk", ("sensible",))
    assert f"seed{record.seed}.pnpgame" in shown
    assert "endless position" in record.note
    # The actions lead from the seed's first position to the capped one the message names.
    rules = TrapRules()
    state = rules.initial_state(random.Random(record.seed))
    for action in record.actions:
        state = rules.apply(state, action)
    assert f"stopped at {rules.notation(state)!r}" in message
    assert len(record.actions) == 50


def test_coverage_names_every_item_no_game_exercised(findings: Findings) -> None:
    items = {"action:step": Location("moves.yaml", 3), "action:fly": Location("moves.yaml", 9)}
    game = trap_game(
        coverage_items=lambda model: items,
        covered=lambda rules, before, action, after: [f"action:{action}"],
    )
    check_play(findings, game, object(), games=4, seed=3, workers=1)
    missing = [p for p in findings.problems if "never exercised" in p.message]
    assert [p.message for p in missing] == [
        "never exercised in simulated play: action:fly (no game played it)"
    ]
    assert missing[0].location == Location("moves.yaml", 9)


def test_many_processes_play_the_same_games_as_one() -> None:
    game, table = nim_game(), nim_game().play_tables(object())[0]  # type: ignore[misc]
    one = play_many(game, table, ["random", "random"], 24, seed=5, workers=1)
    two = play_many(game, table, ["random", "random"], 24, seed=5, workers=2)
    assert one == two
    assert len({p.winners for p in one}) == 2  # both seats win some: the games differ


def test_the_strong_player_beats_a_random_one_significantly() -> None:
    game = nim_game()
    table = game.play_tables(object())[0]  # type: ignore[misc]
    duel = head_to_head(game, table, 30, seed=2, workers=1)
    assert duel.challenger.value > duel.baseline.value
    assert duel.p_value < 0.05


def _games(wins: list[bool], labels: tuple[str, str] = ("a", "b")) -> list[Played]:
    """Two-player games: seat 0 wins where ``wins`` says so, else seat 1."""
    return [
        Played(
            seed=index,
            winners=frozenset({0 if won else 1}),
            scores=(1.0, 0.0) if won else (0.0, 1.0),
            turns=10,
            steps=20,
            capped=False,
            seat_factors=(("hero", labels),),
        )
        for index, won in enumerate(wins)
    ]


def test_a_seat_far_outside_its_promise_is_an_error(findings: Findings) -> None:
    played = _games([True] * 180 + [False] * 20)
    promise = Spread("seat", 0.1, where=Location("balance.yaml", 4))
    check_balance(findings, Balance(spreads=(promise,)), {"duel": played}, {"duel": 2})
    errors = [p for p in findings.problems if p.severity == "error"]
    assert {p.message.split(":")[1].strip() for p in errors} == {"seat 0 wins", "seat 1 wins"}
    assert errors[0].location == Location("balance.yaml", 4)
    assert "promised 40%–60%" in errors[0].message


def test_a_point_estimate_outside_with_a_wide_interval_is_a_warning(findings: Findings) -> None:
    played = _games([True] * 13 + [False] * 7)  # 65 % of 20: the interval reaches 60 %
    check_balance(findings, Balance(spreads=(Spread("hero", 0.1),)), {"t": played}, {"t": 2})
    assert {p.severity for p in findings.problems} == {"warning"}
    assert "play more games" in findings.problems[0].message


def test_a_fair_game_keeps_its_promises(findings: Findings) -> None:
    played = _games([index % 2 == 0 for index in range(400)])
    balance = Balance(spreads=(Spread("seat", 0.1), Spread("hero", 0.1)))
    check_balance(findings, balance, {"t": played}, {"t": 2})
    assert findings.problems == []


def _solo(wins: list[bool]) -> list[Played]:
    return [
        Played(index, frozenset({0}) if won else frozenset(), (float(won),), 5, 5, False)
        for index, won in enumerate(wins)
    ]


def test_a_band_and_a_ladder_judge_difficulty_on_shared_seeds(findings: Findings) -> None:
    easy = _solo([True] * 60 + [False] * 40)
    hard = _solo([True] * 30 + [False] * 70)
    same = _solo([True] * 60 + [False] * 40)
    balance = Balance(
        bands=(Band("easy", 0.5, 0.7), Band("hard", 0.5, 0.7)),
        ladder=Ladder(("easy", "hard", "same")),
    )
    check_balance(findings, balance, {"easy": easy, "hard": hard, "same": same}, {})
    messages = [p.message for p in findings.problems]
    assert any(m.startswith("table 'hard' win rate: 30%") for m in messages)
    assert not any("'easy' win rate" in m for m in messages)
    ladder = [m for m in messages if m.startswith("difficulty ladder")]
    assert len(ladder) == 1 and "'same' is not significantly harder than 'hard'" in ladder[0]


def test_strong_player_names_ask_for_a_budget_and_a_horizon() -> None:
    game = nim_game()
    assert search_request("sensible") is None
    assert search_request("strong") == (0, None)
    assert search_request("strong:40:6") == (40, 6)
    search = make_policy(game, "strong:40:6")
    assert isinstance(search, SearchPolicy)
    assert (search.iterations, search.rollout_depth) == (40, 6)
    halving = make_policy(replace(game, search=SearchSettings(method="halving")), "strong:9")
    assert isinstance(halving, HalvingSearchPolicy) and halving.iterations == 9
    for bad in ("strong:0", "strong:x", "strong:4:0", "strong:1:2:3"):
        with pytest.raises(PnpError, match="expected 'strong'"):
            make_policy(game, bad)
